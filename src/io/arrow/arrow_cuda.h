/* arrow_cuda.h: small CUDA kernels behind the Arrow exchange of cuda arrays (internal): bitmaps
 * built from values, bitmaps realigned, bitmaps unpacked to bytes. Implemented in arrow_cuda.cu;
 * arrow_bits.c has the host twins (same semantics), which the unit tests check.
 *
 * Bitmaps here are Arrow's: bit i is bit (i % 8), counted from the least significant bit, of
 * byte i / 8; bits past the last entry of the last byte are written as 0. */
#ifndef JAGGED_IO_ARROW_ARROW_CUDA_H
#define JAGGED_IO_ARROW_ARROW_CUDA_H

#include <stdbool.h>

#include "internal/jgi_check.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of a bitmap of n >= 0 bits, without the overflow of (n + 7) / 8 near INT64_MAX. */
#define JGI_ARROW_BITMAP_BYTES(n) ((n) / 8 + ((n) % 8 != 0))

/** What makes bit i of a bitmap built from values set. */
typedef enum jgi_arrow_bits_mode {
  JGI_ARROW_BITS_NONZERO = 0, /**< value != 0 (bool packing, byte mask with valid_when true) */
  JGI_ARROW_BITS_ZERO = 1,    /**< value == 0 (byte mask with valid_when false) */
  JGI_ARROW_BITS_NONNEG = 2   /**< value >= 0, signed (indexed-option index) */
} jgi_arrow_bits_mode;

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/** Writes ceil(n / 8) bytes to `out` (device memory): bit i tells whether the value at
 *  `first` + i * `stride` elements (elements of `elem_size` bytes: 1, 4 or 8; signed for
 *  NONNEG) satisfies `mode`. `first` is a device-accessible address on the CURRENT device. n >= 0
 *  (0 launches nothing). Asynchronous on `stream`. Errors: JG_EINVAL (bad elem_size or mode),
 *  JG_ECUDA (launch). */
JGI_HIDDEN jg_status jgi_arrow_bits_from_values_cuda(const void *first, int64_t stride,
                                                     int elem_size, int mode, int64_t n,
                                                     uint8_t *out, jg_stream stream, jg_error *err);

/** Writes ceil(n / 8) bytes to `out`: bit i (Arrow order) = bit (bit_offset + i) of the source
 *  mask, whose byte k is at `first` + k * `byte_stride`, counted from the LSB when `lsb` else
 *  from the MSB, negated when `invert`. bit_offset >= 0. Asynchronous on `stream`.
 *  Errors: JG_ECUDA. */
JGI_HIDDEN jg_status jgi_arrow_bits_realign_cuda(const uint8_t *first, int64_t byte_stride,
                                                 int64_t bit_offset, bool lsb, bool invert,
                                                 int64_t n, uint8_t *out, jg_stream stream,
                                                 jg_error *err);

/** Writes n bytes to `out`: out[i] = bit (bit_offset + i) of the Arrow bitmap `bits` (0 or 1).
 *  Asynchronous on `stream`. Errors: JG_ECUDA. */
JGI_HIDDEN jg_status jgi_arrow_bits_unpack_cuda(const uint8_t *bits, int64_t bit_offset, int64_t n,
                                                uint8_t *out, jg_stream stream, jg_error *err);
#endif

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_IO_ARROW_ARROW_CUDA_H */
