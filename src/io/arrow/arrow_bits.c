/* arrow_bits.c: Arrow bitmaps on the host (interface in arrow_internal.h; the CUDA twins are in
 * arrow_cuda.cu). Bit i of an Arrow bitmap is bit (i % 8) of byte i / 8, counted from the least
 * significant bit; trailing bits of the last byte are written as 0. */
#include <string.h>

#include "io/arrow/arrow_internal.h"

static bool test_value(const void *p, int elem_size, int mode) {
  int64_t v;
  switch (elem_size) {
    case 1: {
      int8_t x;
      memcpy(&x, p, 1);
      v = x;
      break;
    }
    case 4: {
      int32_t x;
      memcpy(&x, p, 4);
      v = x;
      break;
    }
    default: {
      int64_t x;
      memcpy(&x, p, 8);
      v = x;
      break;
    }
  }
  if (mode == JGI_ARROW_BITS_NONZERO) return v != 0;
  if (mode == JGI_ARROW_BITS_ZERO) return v == 0;
  return v >= 0;
}

int64_t jgi_arrow_bits_from_values_host(const void *first, int64_t stride, int elem_size, int mode,
                                        int64_t n, uint8_t *out) {
  const int64_t width = elem_size == 1 || elem_size == 4 ? elem_size : 8;
  int64_t set = 0;
  if (n > 0) memset(out, 0, (size_t)(JGI_ARROW_BITMAP_BYTES(n)));
  const char *p = (const char *)first;
  for (int64_t i = 0; i < n; ++i) {
    if (test_value(p + i * stride * width, (int)width, mode)) {
      out[i / 8] |= (uint8_t)(1u << (i % 8));
      ++set;
    }
  }
  return set;
}

int64_t jgi_arrow_bits_realign_host(const uint8_t *first, int64_t byte_stride, int64_t bit_offset,
                                    bool lsb, bool invert, int64_t n, uint8_t *out) {
  int64_t set = 0;
  if (n > 0) memset(out, 0, (size_t)(JGI_ARROW_BITMAP_BYTES(n)));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t src = bit_offset + i;
    const int shift = lsb ? (int)(src % 8) : 7 - (int)(src % 8);
    bool v = ((first[(src / 8) * byte_stride] >> shift) & 1u) != 0;
    if (invert) v = !v;
    if (v) {
      out[i / 8] |= (uint8_t)(1u << (i % 8));
      ++set;
    }
  }
  return set;
}

void jgi_arrow_bits_unpack_host(const uint8_t *bits, int64_t bit_offset, int64_t n, uint8_t *out) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t src = bit_offset + i;
    out[i] = (uint8_t)((bits[src / 8] >> (src % 8)) & 1u);
  }
}

int64_t jgi_arrow_bits_count_host(const uint8_t *bits, int64_t n) {
  int64_t set = 0;
  for (int64_t i = 0; i < n; ++i) set += (bits[i / 8] >> (i % 8)) & 1u;
  return set;
}
