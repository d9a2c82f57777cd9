/* encodings.c: Parquet's value and level encodings, decode and encode (jgi_parquet.h,
 * "Encodings"). Spec: Encodings.md of apache/parquet-format: PLAIN, the RLE / bit-packed
 * hybrid (RLE = 3, also the dictionary indices of PLAIN_DICTIONARY and RLE_DICTIONARY), the
 * deprecated BIT_PACKED, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
 * BYTE_STREAM_SPLIT.
 *
 * Decoders read only p[0..n): every length and run read from the data is compared with the bytes
 * left before it is used, and a short or inconsistent stream is JG_ECORRUPT with a message saying
 * what ran out and at which byte. The hot loops (bit unpacking, RLE fills, the delta prefix sums,
 * dictionary gathers, PLAIN copies) choose their code by bit width or value width once, outside
 * the loop: bit-packed data is unpacked by groups of 8 values with one function per bit width,
 * generated below, whose shifts and masks are compile-time constants.
 *
 * The host must be little-endian (Parquet's byte order): values are copied and unpacked from
 * little-endian words as they are. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_parquet.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "jagged's Parquet encodings assume a little-endian host"
#endif

#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL8 _Pragma("GCC unroll 8")
#elif defined(__clang__)
#define UNROLL8 _Pragma("unroll 8")
#else
#define UNROLL8
#endif

/* ---- Small helpers ------------------------------------------------------------------------ */

int jgi_pq_bit_width(uint64_t max_value) {
  return max_value == 0 ? 0 : 64 - __builtin_clzll(max_value);
}

/* Reads one ULEB128 integer (at most 64 bits) at p[*pos..n); false when the data ends inside it
 * or it does not fit in 64 bits. */
static inline bool read_uleb(const uint8_t *p, size_t n, size_t *pos, uint64_t *v) {
  uint64_t r = 0;
  size_t i = *pos;
  for (unsigned shift = 0;; shift += 7) {
    if (i >= n) return false;
    const uint8_t b = p[i++];
    if (shift == 63 && (b & 0xFE) != 0) return false;
    r |= (uint64_t)(b & 0x7F) << shift;
    if ((b & 0x80) == 0) break;
    if (shift == 63) return false;
  }
  *pos = i;
  *v = r;
  return true;
}

static inline uint64_t zigzag_decode(uint64_t v) {
  return (v >> 1) ^ (0 - (v & 1));
}

static inline uint64_t zigzag_encode(int64_t v) {
  return ((uint64_t)v << 1) ^ (0 - ((uint64_t)v >> 63));
}

/* Appends the ULEB128 form of v (at most 10 bytes) to out. */
static jg_status put_uleb(jgi_pq_buf *out, uint64_t v, jg_error *err) {
  uint8_t tmp[10];
  size_t k = 0;
  do {
    uint8_t b = (uint8_t)(v & 0x7F);
    v >>= 7;
    if (v != 0) b |= 0x80;
    tmp[k++] = b;
  } while (v != 0);
  return jgi_pq_buf_append(out, tmp, k, err);
}

/* ---- Bit unpacking by groups of 8 ----------------------------------------------------------- */
/* unpack_<T>_<W>(in, out, ngroups, avail): ngroups groups of 8 values of W bits, least
 * significant bit first (Encodings.md, RLE note 1), from in to out[0 .. ngroups * 8). A group of
 * 8 values of W bits is W bytes; only in[0 .. avail) is read, the bytes past it count as 0 (a
 * last group cut short). Each value is taken from an unaligned 8-byte load at its first byte
 * (the shift then stays below 8, so W + 7 <= 64 bits suffice up to W = 57; wider values take one
 * more byte); groups whose loads would pass `avail` go through a zero-padded copy. */

#define DEFINE_UNPACK(T, TN, W)                                                            \
  static inline void unpack_group_##TN##_##W(const uint8_t *in, T *out) {                  \
    UNROLL8 for (unsigned i = 0; i < 8; ++i) {                                             \
      const unsigned bit = i * (W), s = bit & 7;                                           \
      uint64_t x;                                                                          \
      memcpy(&x, in + bit / 8, 8);                                                         \
      x >>= s;                                                                             \
      if (s + (W) > 64) x |= (uint64_t)in[bit / 8 + 8] << ((64 - s) & 63);                 \
      out[i] = (T)((W) >= 64 ? x : x & ((UINT64_C(1) << ((W)&63)) - 1));                   \
    }                                                                                      \
  }                                                                                        \
  static void unpack_##TN##_##W(const uint8_t *in, T *out, size_t ngroups, size_t avail) { \
    if ((W) == 0) {                                                                        \
      memset(out, 0, ngroups * 8 * sizeof(T));                                             \
      return;                                                                              \
    }                                                                                      \
    const size_t w_ = (W) == 0 ? 1 : (W); /* keeps the divisions below well defined */     \
    size_t nfast = avail >= w_ + 9 ? (avail - 9 - w_) / w_ + 1 : 0;                        \
    if (nfast > ngroups) nfast = ngroups;                                                  \
    for (size_t g = 0; g < nfast; ++g) unpack_group_##TN##_##W(in + g * w_, out + g * 8);  \
    for (size_t g = nfast; g < ngroups; ++g) {                                             \
      uint8_t tmp[(W) + 9] = {0};                                                          \
      const size_t at = g * w_;                                                            \
      const size_t have = avail > at ? (avail - at < w_ ? avail - at : w_) : 0;            \
      if (have > 0) memcpy(tmp, in + at, have);                                            \
      unpack_group_##TN##_##W(tmp, out + g * 8);                                           \
    }                                                                                      \
  }

#define WIDTHS_0_16(X, T, TN)                                                          \
  X(T, TN, 0)                                                                          \
  X(T, TN, 1)                                                                          \
  X(T, TN, 2)                                                                          \
  X(T, TN, 3)                                                                          \
  X(T, TN, 4) X(T, TN, 5) X(T, TN, 6) X(T, TN, 7) X(T, TN, 8) X(T, TN, 9) X(T, TN, 10) \
      X(T, TN, 11) X(T, TN, 12) X(T, TN, 13) X(T, TN, 14) X(T, TN, 15) X(T, TN, 16)
#define WIDTHS_17_32(X, T, TN)                                                               \
  X(T, TN, 17)                                                                               \
  X(T, TN, 18)                                                                               \
  X(T, TN, 19)                                                                               \
  X(T, TN, 20)                                                                               \
  X(T, TN, 21) X(T, TN, 22) X(T, TN, 23) X(T, TN, 24) X(T, TN, 25) X(T, TN, 26) X(T, TN, 27) \
      X(T, TN, 28) X(T, TN, 29) X(T, TN, 30) X(T, TN, 31) X(T, TN, 32)
#define WIDTHS_33_64(X, T, TN)                                                                   \
  X(T, TN, 33)                                                                                   \
  X(T, TN, 34)                                                                                   \
  X(T, TN, 35)                                                                                   \
  X(T, TN, 36)                                                                                   \
  X(T, TN, 37) X(T, TN, 38) X(T, TN, 39) X(T, TN, 40) X(T, TN, 41) X(T, TN, 42) X(T, TN, 43)     \
      X(T, TN, 44) X(T, TN, 45) X(T, TN, 46) X(T, TN, 47) X(T, TN, 48) X(T, TN, 49) X(T, TN, 50) \
          X(T, TN, 51) X(T, TN, 52) X(T, TN, 53) X(T, TN, 54) X(T, TN, 55) X(T, TN, 56)          \
              X(T, TN, 57) X(T, TN, 58) X(T, TN, 59) X(T, TN, 60) X(T, TN, 61) X(T, TN, 62)      \
                  X(T, TN, 63) X(T, TN, 64)

WIDTHS_0_16(DEFINE_UNPACK, uint16_t, u16)
WIDTHS_0_16(DEFINE_UNPACK, uint32_t, u32)
WIDTHS_17_32(DEFINE_UNPACK, uint32_t, u32)
WIDTHS_0_16(DEFINE_UNPACK, uint64_t, u64)
WIDTHS_17_32(DEFINE_UNPACK, uint64_t, u64)
WIDTHS_33_64(DEFINE_UNPACK, uint64_t, u64)

#define UNPACK_ENTRY(T, TN, W) unpack_##TN##_##W,
typedef void (*unpack_u16_fn)(const uint8_t *, uint16_t *, size_t, size_t);
typedef void (*unpack_u32_fn)(const uint8_t *, uint32_t *, size_t, size_t);
typedef void (*unpack_u64_fn)(const uint8_t *, uint64_t *, size_t, size_t);
static const unpack_u16_fn unpack_u16[17] = {WIDTHS_0_16(UNPACK_ENTRY, uint16_t, u16)};
static const unpack_u32_fn unpack_u32[33] = {WIDTHS_0_16(UNPACK_ENTRY, uint32_t, u32)
                                                 WIDTHS_17_32(UNPACK_ENTRY, uint32_t, u32)};
static const unpack_u64_fn unpack_u64[65] = {WIDTHS_0_16(UNPACK_ENTRY, uint64_t, u64) WIDTHS_17_32(
    UNPACK_ENTRY, uint64_t, u64) WIDTHS_33_64(UNPACK_ENTRY, uint64_t, u64)};

/* ---- Bit packing (encoders) ------------------------------------------------------------------ */

/* An LSB-first bit writer into memory already reserved. */
typedef struct bit_writer {
  uint8_t *dst;
  uint64_t acc;
  unsigned nbits;
} bit_writer;

/* Appends the low `bits` (0..32) bits of v. */
static inline void bw_put(bit_writer *bw, uint64_t v, unsigned bits) {
  bw->acc |= (v & ((UINT64_C(1) << bits) - 1)) << bw->nbits;
  bw->nbits += bits;
  while (bw->nbits >= 8) {
    *bw->dst++ = (uint8_t)bw->acc;
    bw->acc >>= 8;
    bw->nbits -= 8;
  }
}

/* Appends the low `bits` (0..64) bits of v. */
static inline void bw_put64(bit_writer *bw, uint64_t v, unsigned bits) {
  if (bits > 32) {
    bw_put(bw, v & 0xFFFFFFFFu, 32);
    bw_put(bw, v >> 32, bits - 32);
  } else {
    bw_put(bw, v, bits);
  }
}

/* Writes the last partial byte, its unused high bits 0. */
static inline void bw_flush(bit_writer *bw) {
  if (bw->nbits > 0) *bw->dst++ = (uint8_t)bw->acc;
  bw->acc = 0;
  bw->nbits = 0;
}

/* ---- RLE / bit-packed hybrid -------------------------------------------------------------- */

/* Counts of values are at most 2^55 (pages hold at most 2^31), so bit counts fit in 64 bits. */
#define MAX_COUNT (INT64_C(1) << 55)

/* The hybrid's decoder for one output type: T the value type, TABLE the unpack functions of T,
 * MAXW the largest bit width. Writes out[0..count), sets *used (when not NULL) to the end of the
 * last run read (at most n). Bit-packed runs are unpacked group by group straight into out (the
 * last group of the page through an 8-value scratch), RLE runs are filled. */
#define DEFINE_RLE_DECODE(NAME, T, TABLE, MAXW, WHAT)                                              \
  static jg_status NAME(const uint8_t *p, size_t n, int bit_width, int64_t count, T *out,          \
                        size_t *used, jg_error *err) {                                             \
    JG_RETURN_IF(bit_width<0 || bit_width>(MAXW), JG_ECORRUPT, err,                                \
                 "RLE/bit-packed hybrid (" WHAT "): bit width %d is not in 0..%d", bit_width,      \
                 (MAXW));                                                                          \
    JG_RETURN_IF(count<0 || count> MAX_COUNT, JG_EINVAL, err, "RLE/bit-packed hybrid: count %lld", \
                 (long long)count);                                                                \
    const size_t w = (size_t)bit_width;                                                            \
    const size_t value_bytes = (w + 7) / 8;                                                        \
    size_t pos = 0;                                                                                \
    int64_t i = 0;                                                                                 \
    while (i < count) {                                                                            \
      if (pos >= n && w == 0) { /* width 0: every value is 0, whatever the data says */            \
        memset(out + i, 0, (size_t)(count - i) * sizeof(T));                                       \
        break;                                                                                     \
      }                                                                                            \
      const size_t run_at = pos;                                                                   \
      uint64_t header;                                                                             \
      JG_RETURN_IF(!read_uleb(p, n, &pos, &header), JG_ECORRUPT, err,                              \
                   "RLE/bit-packed hybrid: run header at byte %zu runs past the %zu bytes of "     \
                   "the data (%lld of %lld values read)",                                          \
                   run_at, n, (long long)i, (long long)count);                                     \
      const uint64_t want = (uint64_t)(count - i);                                                 \
      if (header & 1) {                                                                            \
        const uint64_t groups = header >> 1;                                                       \
        const uint64_t take = groups >= (want + 7) / 8 ? want : groups * 8;                        \
        const size_t left = n - pos;                                                               \
        const size_t need = (size_t)((take * w + 7) / 8);                                          \
        JG_RETURN_IF(need > left, JG_ECORRUPT, err,                                                \
                     "RLE/bit-packed hybrid: bit-packed run at byte %zu needs %zu bytes for "      \
                     "%llu values, %zu left",                                                      \
                     run_at, need, (unsigned long long)take, left);                                \
        const size_t full = (size_t)(take / 8), rest = (size_t)(take % 8);                         \
        TABLE[w](p + pos, out + i, full, left);                                                    \
        if (rest > 0) { /* the page's last values: a group through scratch, maybe cut short */     \
          T vals[8];                                                                               \
          TABLE[w](p + pos + full * w, vals, 1, left - full * w);                                  \
          memcpy(out + i + full * 8, vals, rest * sizeof(T));                                      \
        }                                                                                          \
        i += (int64_t)take;                                                                        \
        /* The run's bytes, or the rest of the data when the run says more than is there. */       \
        pos += w == 0 || groups > left / w ? (w == 0 ? 0 : left) : (size_t)groups * w;             \
      } else {                                                                                     \
        const uint64_t len = header >> 1;                                                          \
        JG_RETURN_IF(value_bytes > n - pos, JG_ECORRUPT, err,                                      \
                     "RLE/bit-packed hybrid: RLE run at byte %zu needs a %zu-byte value, %zu "     \
                     "left",                                                                       \
                     run_at, value_bytes, n - pos);                                                \
        uint32_t v = 0;                                                                            \
        for (size_t b = 0; b < value_bytes; ++b) v |= (uint32_t)p[pos + b] << (8 * b);             \
        pos += value_bytes;                                                                        \
        JG_RETURN_IF(w < 32 && (v >> w) != 0, JG_ECORRUPT, err,                                    \
                     "RLE/bit-packed hybrid: RLE run at byte %zu repeats %lu, wider than the "     \
                     "bit width %d",                                                               \
                     run_at, (unsigned long)v, bit_width);                                         \
        const int64_t take = (int64_t)(len < want ? len : want);                                   \
        const T tv = (T)v;                                                                         \
        T *o = out + i;                                                                            \
        int64_t k = 0; /* by 8s, which the compiler turns into vector stores */                    \
        for (; k + 8 <= take; k += 8) {                                                            \
          UNROLL8 for (int j = 0; j < 8; ++j) o[k + j] = tv;                                       \
        }                                                                                          \
        for (; k < take; ++k) o[k] = tv;                                                           \
        i += take;                                                                                 \
      }                                                                                            \
    }                                                                                              \
    if (used != NULL) *used = pos;                                                                 \
    return JG_OK;                                                                                  \
  }

DEFINE_RLE_DECODE(rle_decode_u32, uint32_t, unpack_u32, 32, "values")
DEFINE_RLE_DECODE(rle_decode_u16, uint16_t, unpack_u16, 16, "levels")

jg_status jgi_pq_rle_decode(const uint8_t *p, size_t n, int bit_width, int64_t count, uint32_t *out,
                            size_t *used, jg_error *err) {
  return rle_decode_u32(p, n, bit_width, count, out, used, err);
}

jg_status jgi_pq_rle_decode_levels(const uint8_t *p, size_t n, int bit_width, int64_t count,
                                   int16_t *out, size_t *used, jg_error *err) {
  /* Levels are at most 16 bits wide and never negative: uint16 and int16 share the bits of
   * values up to INT16_MAX; wider ones are corrupt for a level and caught by the caller's check
   * against the maximum level. */
  return rle_decode_u16(p, n, bit_width, count, (uint16_t *)out, used, err);
}

jg_status jgi_pq_bitpacked_decode_levels(const uint8_t *p, size_t n, int bit_width, int64_t count,
                                         int16_t *out, size_t *used, jg_error *err) {
  JG_RETURN_IF(bit_width < 0 || bit_width > 16, JG_ECORRUPT, err,
               "BIT_PACKED levels: bit width %d is not in 0..16", bit_width);
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "BIT_PACKED levels: count %lld < 0", (long long)count);
  const uint64_t w = (uint64_t)bit_width;
  JG_RETURN_IF((uint64_t)count > (UINT64_MAX - 7) / 17, JG_ECORRUPT, err,
               "BIT_PACKED levels: %lld values", (long long)count);
  const uint64_t need = ((uint64_t)count * w + 7) / 8;
  JG_RETURN_IF(need > n, JG_ECORRUPT, err,
               "BIT_PACKED levels: %lld values of %d bits need %llu bytes, the data has %zu",
               (long long)count, bit_width, (unsigned long long)need, n);
  /* Most significant bit first: a big-endian bit reader; acc holds `have` unread bits at its
   * low end. */
  uint64_t acc = 0;
  unsigned have = 0;
  size_t pos = 0;
  const uint32_t mask = (uint32_t)((1u << w) - 1);
  for (int64_t i = 0; i < count; ++i) {
    while (have < w) {
      acc = (acc << 8) | p[pos++];
      have += 8;
    }
    have -= (unsigned)w;
    out[i] = (int16_t)((acc >> have) & mask);
  }
  if (used != NULL) *used = (size_t)need;
  return JG_OK;
}

/* Packs the 8 values v[0..8) of W bits (a constant 1..8) into the W bytes at dst, the first
 * value in the lowest bits (Encodings.md, bit-packed: least significant bit first). */
#define PACK8_SMALL(v, W, dst)                                                     \
  do {                                                                             \
    uint64_t acc_ = 0;                                                             \
    for (unsigned k_ = 0; k_ < 8; ++k_) acc_ |= (uint64_t)(v)[k_] << (k_ * (W));   \
    for (unsigned b_ = 0; b_ < (W); ++b_) (dst)[b_] = (uint8_t)(acc_ >> (8 * b_)); \
  } while (0)

/* Packs `full` groups of 8 values (uint32 values or int16 levels; U: the unsigned type of T,
 * the values being non-negative and checked to fit in w bits, 0 < w <= 32) into full * w bytes
 * at dst. Widths up to 8 bits (levels, small dictionaries) take unrolled loops of constant
 * shifts, one per width. */
#define PACK_GROUPS_SMALL(U, W)                                    \
  for (int64_t q = 0; q < full; ++q, dst += (W)) {                 \
    U v_[8];                                                       \
    for (int k_ = 0; k_ < 8; ++k_) v_[k_] = (U)values[8 * q + k_]; \
    PACK8_SMALL(v_, W, dst);                                       \
  }                                                                \
  return;

#define DEFINE_PACK_GROUPS(NAME, T, U)                                        \
  static void NAME(const T *values, int64_t full, unsigned w, uint8_t *dst) { \
    switch (w) {                                                              \
      case 1:                                                                 \
        PACK_GROUPS_SMALL(U, 1)                                               \
      case 2:                                                                 \
        PACK_GROUPS_SMALL(U, 2)                                               \
      case 3:                                                                 \
        PACK_GROUPS_SMALL(U, 3)                                               \
      case 4:                                                                 \
        PACK_GROUPS_SMALL(U, 4)                                               \
      case 5:                                                                 \
        PACK_GROUPS_SMALL(U, 5)                                               \
      case 6:                                                                 \
        PACK_GROUPS_SMALL(U, 6)                                               \
      case 7:                                                                 \
        PACK_GROUPS_SMALL(U, 7)                                               \
      case 8:                                                                 \
        PACK_GROUPS_SMALL(U, 8)                                               \
      default:                                                                \
        break;                                                                \
    }                                                                         \
    for (int64_t q = 0; q < full; ++q, dst += w) {                            \
      bit_writer bw = {dst, 0, 0};                                            \
      for (int k = 0; k < 8; ++k) bw_put(&bw, (U)values[8 * q + k], w);       \
      bw_flush(&bw);                                                          \
    }                                                                         \
  }
DEFINE_PACK_GROUPS(pack_groups_u32, uint32_t, uint32_t)
DEFINE_PACK_GROUPS(pack_groups_i16, int16_t, uint16_t)

/* Appends the header of a bit-packed run of `groups` groups of 8 values and makes room for its
 * groups * w bytes; *dst gets where they go (out->size already counts them). */
static jg_status rle_literal_header(uint64_t groups, unsigned w, jgi_pq_buf *out, uint8_t **dst,
                                    jg_error *err) {
  JG_RETURN_NOT_OK(put_uleb(out, groups << 1 | 1, err));
  const size_t bytes = (size_t)(groups * w);
  JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, bytes, err));
  *dst = out->data + out->size;
  out->size += bytes;
  return JG_OK;
}

/* Bit-packed runs of values[0..nvals) (nvals > 0; padded with zeros to a multiple of 8), split
 * into runs of at most 2^31 - 8 values as the spec's run length limit asks. */
#define DEFINE_RLE_PUT_LITERALS(NAME, T, PACK_GROUPS)                                        \
  static jg_status NAME(const T *values, int64_t nvals, unsigned w, jgi_pq_buf *out,         \
                        jg_error *err) {                                                     \
    while (nvals > 0) {                                                                      \
      const int64_t chunk = nvals < (INT64_C(1) << 31) - 8 ? nvals : (INT64_C(1) << 31) - 8; \
      const int64_t full = chunk / 8, groups = (chunk + 7) / 8;                              \
      uint8_t *dst = NULL;                                                                   \
      JG_RETURN_NOT_OK(rle_literal_header((uint64_t)groups, w, out, &dst, err));             \
      PACK_GROUPS(values, full, w, dst);                                                     \
      if (groups > full) {                                                                   \
        T last[8] = {0};                                                                     \
        for (int64_t k = 8 * full; k < chunk; ++k) last[k - 8 * full] = values[k];           \
        PACK_GROUPS(last, 1, w, dst + full * w);                                             \
      }                                                                                      \
      values += chunk;                                                                       \
      nvals -= chunk;                                                                        \
    }                                                                                        \
    return JG_OK;                                                                            \
  }
DEFINE_RLE_PUT_LITERALS(rle_put_literals, uint32_t, pack_groups_u32)
DEFINE_RLE_PUT_LITERALS(rle_put_literals_levels, int16_t, pack_groups_i16)

/* Appends RLE runs of `len` copies of v (split at 2^31 - 1 values). */
static jg_status rle_put_repeat(uint32_t v, int64_t len, unsigned w, jgi_pq_buf *out,
                                jg_error *err) {
  const unsigned value_bytes = (w + 7) / 8;
  while (len > 0) {
    const int64_t chunk = len < INT32_MAX ? len : INT32_MAX;
    JG_RETURN_NOT_OK(put_uleb(out, (uint64_t)chunk << 1, err));
    uint8_t b[4];
    for (unsigned k = 0; k < value_bytes; ++k) b[k] = (uint8_t)(v >> (8 * k));
    JG_RETURN_NOT_OK(jgi_pq_buf_append(out, b, value_bytes, err));
    len -= chunk;
  }
  return JG_OK;
}

/* The hybrid's choice of runs, group by group: the pending literals are values[lit .. i), a
 * whole number of groups; when the 8 values at i are equal, the run of them (as long as it
 * goes) is an RLE run, else the group joins the literals. A run of at least 8 equal values
 * thus becomes an RLE run from the first group boundary of the pending literals from which 8
 * or more of it are left (the rest of it before that boundary completes the literals' last
 * group). */
#define DEFINE_RLE_ENCODE(NAME, T, PUT_LITERALS)                                             \
  static jg_status NAME(const T *values, int64_t count, unsigned w, jgi_pq_buf *out,         \
                        jg_error *err) {                                                     \
    int64_t lit = 0, i = 0;                                                                  \
    T pat[8];                                                                                \
    while (i + 8 <= count) {                                                                 \
      const T v0 = values[i];                                                                \
      for (int k = 0; k < 8; ++k) pat[k] = v0;                                               \
      /* (memcmp of a constant size: a vector compare, not a call) */                        \
      if (memcmp(values + i, pat, sizeof pat) != 0) {                                        \
        i += 8;                                                                              \
        continue;                                                                            \
      }                                                                                      \
      int64_t r = 8;                                                                         \
      while (i + r + 8 <= count && memcmp(values + i + r, pat, sizeof pat) == 0) r += 8;     \
      while (i + r < count && values[i + r] == v0) ++r;                                      \
      if (i > lit) JG_RETURN_NOT_OK(PUT_LITERALS(values + lit, i - lit, w, out, err));       \
      JG_RETURN_NOT_OK(rle_put_repeat((uint32_t)v0, r, w, out, err));                        \
      i += r;                                                                                \
      lit = i;                                                                               \
    }                                                                                        \
    if (count > lit) JG_RETURN_NOT_OK(PUT_LITERALS(values + lit, count - lit, w, out, err)); \
    return JG_OK;                                                                            \
  }
DEFINE_RLE_ENCODE(rle_encode_u32, uint32_t, rle_put_literals)
DEFINE_RLE_ENCODE(rle_encode_i16, int16_t, rle_put_literals_levels)

/* The bitwise or of n values, 64 bits at a time. */
static uint32_t or_u32(const uint32_t *v, int64_t n) {
  uint64_t acc = 0;
  int64_t i = 0;
  for (; i + 2 <= n; i += 2) {
    uint64_t x;
    memcpy(&x, v + i, sizeof x);
    acc |= x;
  }
  for (; i < n; ++i) acc |= v[i];
  return (uint32_t)(acc | acc >> 32);
}

static uint16_t or_u16(const uint16_t *v, int64_t n) {
  uint64_t acc = 0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    uint64_t x;
    memcpy(&x, v + i, sizeof x);
    acc |= x;
  }
  for (; i < n; ++i) acc |= v[i];
  acc |= acc >> 32;
  return (uint16_t)(acc | acc >> 16);
}

jg_status jgi_pq_rle_encode(const uint32_t *values, int64_t count, int bit_width, jgi_pq_buf *out,
                            jg_error *err) {
  JG_RETURN_IF(bit_width < 0 || bit_width > 32, JG_EINVAL, err,
               "RLE/bit-packed hybrid: bit width %d is not in 0..32", bit_width);
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "RLE/bit-packed hybrid: count %lld < 0",
               (long long)count);
  const uint32_t all = or_u32(values, count);
  JG_RETURN_IF(jgi_pq_bit_width(all) > bit_width, JG_EINVAL, err,
               "RLE/bit-packed hybrid: a value needs %d bits, the bit width is %d",
               jgi_pq_bit_width(all), bit_width);
  return rle_encode_u32(values, count, (unsigned)bit_width, out, err);
}

jg_status jgi_pq_rle_encode_levels(const int16_t *levels, int64_t count, int bit_width,
                                   jgi_pq_buf *out, jg_error *err) {
  JG_RETURN_IF(bit_width < 0 || bit_width > 16, JG_EINVAL, err,
               "RLE/bit-packed hybrid of levels: bit width %d is not in 0..16", bit_width);
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "RLE/bit-packed hybrid: count %lld < 0",
               (long long)count);
  const uint16_t all = or_u16((const uint16_t *)(const void *)levels, count);
  JG_RETURN_IF(jgi_pq_bit_width(all) > bit_width, JG_EINVAL, err,
               "RLE/bit-packed hybrid of levels: a level needs %d bits (negative or too large), "
               "the bit width is %d",
               jgi_pq_bit_width(all), bit_width);
  return rle_encode_i16(levels, count, (unsigned)bit_width, out, err);
}

jg_status jgi_pq_rle_encode_run(uint32_t value, int64_t count, int bit_width, jgi_pq_buf *out,
                                jg_error *err) {
  JG_RETURN_IF(bit_width < 0 || bit_width > 32, JG_EINVAL, err,
               "RLE/bit-packed hybrid: bit width %d is not in 0..32", bit_width);
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "RLE/bit-packed hybrid: count %lld < 0",
               (long long)count);
  JG_RETURN_IF(jgi_pq_bit_width(value) > bit_width, JG_EINVAL, err,
               "RLE/bit-packed hybrid: the value needs %d bits, the bit width is %d",
               jgi_pq_bit_width(value), bit_width);
  return rle_put_repeat(value, count, (unsigned)bit_width, out, err);
}

/* ---- PLAIN -------------------------------------------------------------------------------- */

jg_status jgi_pq_plain_decode_fixed(const uint8_t *p, size_t n, int width, int64_t count, void *out,
                                    size_t *used, jg_error *err) {
  JG_RETURN_IF(width <= 0, JG_ECORRUPT, err, "PLAIN: value width %d", width);
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "PLAIN: count %lld < 0", (long long)count);
  uint64_t bytes;
  JG_RETURN_IF(jgi_mul_overflow((uint64_t)count, (uint64_t)width, &bytes) || bytes > n, JG_ECORRUPT,
               err, "PLAIN: %lld values of %d bytes do not fit in the %zu bytes left",
               (long long)count, width, n);
  if (bytes > 0) memcpy(out, p, (size_t)bytes);
  if (used != NULL) *used = (size_t)bytes;
  return JG_OK;
}

jg_status jgi_pq_plain_decode_bool(const uint8_t *p, size_t n, int64_t count, uint8_t *out,
                                   size_t *used, jg_error *err) {
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "PLAIN BOOLEAN: count %lld < 0", (long long)count);
  const uint64_t bytes = ((uint64_t)count + 7) / 8;
  JG_RETURN_IF(bytes > n, JG_ECORRUPT, err, "PLAIN BOOLEAN: %lld values need %llu bytes, %zu left",
               (long long)count, (unsigned long long)bytes, n);
  const int64_t full = count / 8;
  for (int64_t b = 0; b < full; ++b) {
    const unsigned byte = p[b];
    uint8_t *o = out + 8 * b;
    UNROLL8 for (unsigned k = 0; k < 8; ++k) o[k] = (uint8_t)((byte >> k) & 1u);
  }
  for (int64_t i = full * 8; i < count; ++i) out[i] = (uint8_t)((p[i / 8] >> (i % 8)) & 1u);
  if (used != NULL) *used = (size_t)bytes;
  return JG_OK;
}

/* Writes offsets[1..count] from lengths already in offsets[1..count] (each checked to be in
 * 0..INT32_MAX), offsets[0] the start; *total the sum of the lengths. False when a length is out
 * of range or the sums overflow. */
static bool lengths_to_offsets(int64_t *offsets, int64_t count, uint64_t *total) {
  uint64_t bad = 0, sum = 0;
  const int64_t start = offsets[0];
  for (int64_t i = 1; i <= count; ++i) {
    const uint64_t len = (uint64_t)offsets[i];
    bad |= len >> 31; /* negative or above INT32_MAX */
    sum += len & 0x7FFFFFFFu;
    offsets[i] = start + (int64_t)sum; /* wraps only when bad or sum overflows: checked below */
  }
  if (bad != 0) return false;
  if (sum > (uint64_t)INT64_MAX || start > INT64_MAX - (int64_t)sum) return false;
  *total = sum;
  return true;
}

jg_status jgi_pq_plain_decode_bytes(const uint8_t *p, size_t n, int64_t count, int64_t *offsets,
                                    jgi_pq_buf *bytes, size_t *used, jg_error *err) {
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "PLAIN BYTE_ARRAY: count %lld < 0", (long long)count);
  JG_RETURN_IF((uint64_t)count > n / 4, JG_ECORRUPT, err,
               "PLAIN BYTE_ARRAY: %lld values need at least %llu bytes, %zu left", (long long)count,
               (unsigned long long)count * 4, n);
  /* The values' bytes are fewer than the data's: one reservation of n - 4 * count bytes. */
  JG_RETURN_NOT_OK(jgi_pq_buf_reserve(bytes, n - 4 * (size_t)count, err));
  uint8_t *dst = bytes->data + bytes->size;
  size_t pos = 0;
  size_t budget = n - 4 * (size_t)count; /* bytes left for values, after every length field */
  int64_t end = offsets[0];
  for (int64_t i = 0; i < count; ++i) {
    uint32_t len;
    memcpy(&len, p + pos, 4); /* pos <= n - 4 * (count - i): the budget keeps room for it */
    pos += 4;
    JG_RETURN_IF_AT(len > budget, JG_ECORRUPT, err, i,
                    "PLAIN BYTE_ARRAY: value %lld at byte %zu is %lu bytes long, only %zu left "
                    "for it (the %lld values after it need their 4-byte lengths)",
                    (long long)i, pos - 4, (unsigned long)len, budget, (long long)(count - 1 - i));
    budget -= len;
    memcpy(dst, p + pos, len);
    dst += len;
    pos += len;
    JG_RETURN_IF_AT(jgi_add_overflow(end, (int64_t)len, &end), JG_EOVERFLOW, err, i,
                    "PLAIN BYTE_ARRAY: offsets overflow at value %lld", (long long)i);
    offsets[i + 1] = end;
  }
  bytes->size = (size_t)(dst - bytes->data);
  if (used != NULL) *used = pos;
  return JG_OK;
}

jg_status jgi_pq_plain_encode_bool(const uint8_t *values, int64_t count, jgi_pq_buf *out,
                                   jg_error *err) {
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "PLAIN BOOLEAN: count %lld < 0", (long long)count);
  const size_t bytes = (size_t)(((uint64_t)count + 7) / 8);
  JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, bytes, err));
  uint8_t *dst = out->data + out->size;
  memset(dst, 0, bytes);
  for (int64_t i = 0; i < count; ++i) dst[i / 8] |= (uint8_t)((values[i] != 0) << (i % 8));
  out->size += bytes;
  return JG_OK;
}

jg_status jgi_pq_plain_encode_bytes(const int64_t *offsets, const uint8_t *bytes, int64_t count,
                                    jgi_pq_buf *out, jg_error *err) {
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "PLAIN BYTE_ARRAY: count %lld < 0", (long long)count);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t len = offsets[i + 1] - offsets[i];
    JG_RETURN_IF_AT(len < 0 || len > INT32_MAX, JG_EINVAL, err, i,
                    "PLAIN BYTE_ARRAY: value %lld has length %lld (0..2^31-1 allowed)",
                    (long long)i, (long long)len);
    const uint32_t len32 = (uint32_t)len;
    JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, 4 + (size_t)len, err));
    memcpy(out->data + out->size, &len32, 4);
    if (len > 0) memcpy(out->data + out->size + 4, bytes + offsets[i], (size_t)len);
    out->size += 4 + (size_t)len;
  }
  return JG_OK;
}

/* ---- Dictionary gather -------------------------------------------------------------------- */

/* Indices are checked a block at a time, branch-free: the OR of the block's indices against
 * ndict (exact when ndict is a power of two), then, when that fails, the count of indices >=
 * ndict, and only when that is not 0 a search for the first bad one. Full blocks go through the
 * same inline code with a constant trip count, which the compiler unrolls and vectorises. */
#define GATHER_BLOCK 1024

/* The position of the first index >= nd in idx[0..m), or -1 when all are below. */
static inline int64_t first_bad_index(const uint32_t *idx, int64_t m, uint32_t nd) {
  uint32_t acc = 0;
  for (int64_t j = 0; j < m; ++j) acc |= idx[j];
  if (JGI_LIKELY(acc < nd)) return -1;
  uint32_t nbad = 0;
  for (int64_t j = 0; j < m; ++j) nbad += idx[j] >= nd;
  if (nbad == 0) return -1;
  for (int64_t j = 0; j < m; ++j) {
    if (idx[j] >= nd) return j;
  }
  return -1;
}

/* Gathers one block of m values of `width` bytes: typed loops for the common widths, memcpy of a
 * constant size for INT96 and 16-byte values, of `width` bytes otherwise. */
#define GATHER_TYPED(T)                                                             \
  do {                                                                              \
    const T *d = (const T *)dict;                                                   \
    T *o = (T *)out;                                                                \
    int64_t j = 0; /* by 8s: the loads of a group issue together, stores combine */ \
    for (; j + 8 <= m; j += 8) {                                                    \
      UNROLL8 for (int k = 0; k < 8; ++k) o[j + k] = d[ix[j + k]];                  \
    }                                                                               \
    for (; j < m; ++j) o[j] = d[ix[j]];                                             \
  } while (0)
#define GATHER_MEMCPY(W)                                                                     \
  do {                                                                                       \
    const uint8_t *d = (const uint8_t *)dict;                                                \
    uint8_t *o = (uint8_t *)out;                                                             \
    for (int64_t j = 0; j < m; ++j) memcpy(o + (size_t)j * (W), d + (size_t)ix[j] * (W), W); \
  } while (0)

static inline void gather_block(const void *dict, int width, const uint32_t *ix, int64_t m,
                                void *out) {
  switch (width) {
    case 1:
      GATHER_TYPED(uint8_t);
      break;
    case 2:
      GATHER_TYPED(uint16_t);
      break;
    case 4:
      GATHER_TYPED(uint32_t);
      break;
    case 8:
      GATHER_TYPED(uint64_t);
      break;
    case 12:
      GATHER_MEMCPY(12);
      break;
    case 16:
      GATHER_MEMCPY(16);
      break;
    default:
      GATHER_MEMCPY((size_t)width);
      break;
  }
}

static jg_status bad_index(const uint32_t *idx, int64_t at, int64_t ndict, jg_error *err) {
  return jg_error_set(err, JG_ECORRUPT, at,
                      "dictionary index %lu at value %lld is past the dictionary's %lld entries",
                      (unsigned long)idx[at], (long long)at, (long long)ndict);
}

jg_status jgi_pq_dict_gather(const void *dict, int64_t ndict, int width, const uint32_t *idx,
                             int64_t count, void *out, jg_error *err) {
  JG_RETURN_IF(width <= 0, JG_EINVAL, err, "dictionary: value width %d", width);
  JG_RETURN_IF(count < 0 || ndict < 0, JG_EINVAL, err, "dictionary: count %lld, %lld entries",
               (long long)count, (long long)ndict);
  /* With more than 2^32 - 1 entries no uint32 index is out of range. */
  const uint32_t nd = ndict > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)ndict;
  const bool check = ndict <= (int64_t)UINT32_MAX;
  const size_t wz = (size_t)width;
  int64_t b = 0;
  for (; b + GATHER_BLOCK <= count; b += GATHER_BLOCK) {
    const int64_t bad = check ? first_bad_index(idx + b, GATHER_BLOCK, nd) : -1;
    if (JGI_UNLIKELY(bad >= 0)) return bad_index(idx, b + bad, ndict, err);
    gather_block(dict, width, idx + b, GATHER_BLOCK, (uint8_t *)out + (size_t)b * wz);
  }
  if (b < count) {
    const int64_t bad = check ? first_bad_index(idx + b, count - b, nd) : -1;
    if (bad >= 0) return bad_index(idx, b + bad, ndict, err);
    gather_block(dict, width, idx + b, count - b, (uint8_t *)out + (size_t)b * wz);
  }
  return JG_OK;
}

jg_status jgi_pq_dict_gather_bytes(const int64_t *dict_offsets, const uint8_t *dict, int64_t ndict,
                                   const uint32_t *idx, int64_t count, int64_t *offsets,
                                   jgi_pq_buf *bytes, jg_error *err) {
  JG_RETURN_IF(count < 0 || ndict < 0, JG_EINVAL, err, "dictionary: count %lld, %lld entries",
               (long long)count, (long long)ndict);
  /* Pass 1: check the indices and write the offsets (their total sizes the one reservation). */
  uint64_t total = 0;
  const int64_t start = offsets[0];
  const uint32_t nd = ndict > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)ndict;
  const bool check = ndict <= (int64_t)UINT32_MAX;
  for (int64_t b = 0; b < count; b += GATHER_BLOCK) {
    const int64_t m = count - b < GATHER_BLOCK ? count - b : GATHER_BLOCK;
    const int64_t bad = check ? first_bad_index(idx + b, m, nd) : -1;
    if (bad >= 0) return bad_index(idx, b + bad, ndict, err);
    uint64_t sum = total;
    for (int64_t j = b; j < b + m; ++j) {
      sum += (uint64_t)(dict_offsets[idx[j] + 1] - dict_offsets[idx[j]]);
      offsets[j + 1] = start + (int64_t)sum;
    }
    /* Each entry is at most the dictionary's size, so a block adds at most 1024 of it. */
    JG_RETURN_IF(sum < total || sum > (uint64_t)(INT64_MAX - (start > 0 ? start : 0)), JG_EOVERFLOW,
                 err, "dictionary: the gathered values overflow the offsets");
    total = sum;
  }
  JG_RETURN_IF(total > SIZE_MAX, JG_EOVERFLOW, err, "dictionary: %llu bytes",
               (unsigned long long)total);
  JG_RETURN_NOT_OK(jgi_pq_buf_reserve(bytes, (size_t)total, err));
  uint8_t *dst = bytes->data + bytes->size;
  for (int64_t j = 0; j < count; ++j) {
    const int64_t s = dict_offsets[idx[j]];
    const size_t len = (size_t)(dict_offsets[idx[j] + 1] - s);
    if (len > 0) memcpy(dst, dict + s, len); /* dict may be NULL when every entry is empty */
    dst += len;
  }
  bytes->size += (size_t)total;
  return JG_OK;
}

/* ---- DELTA_BINARY_PACKED ------------------------------------------------------------------ */

typedef struct delta_header {
  uint64_t block_size, miniblocks, total, first; /* first: zigzag-decoded, as bits */
  uint64_t per_miniblock;
} delta_header;

/* Largest block size accepted: far above any writer's (128 to a few thousand), small enough that
 * the byte counts below cannot overflow. */
#define DELTA_MAX_BLOCK (UINT64_C(1) << 24)

static jg_status delta_read_header(const uint8_t *p, size_t n, size_t *pos, delta_header *h,
                                   jg_error *err) {
  JG_RETURN_IF(!read_uleb(p, n, pos, &h->block_size) || !read_uleb(p, n, pos, &h->miniblocks) ||
                   !read_uleb(p, n, pos, &h->total) || !read_uleb(p, n, pos, &h->first),
               JG_ECORRUPT, err,
               "DELTA_BINARY_PACKED: the header runs past the %zu bytes of the "
               "data",
               n);
  h->first = zigzag_decode(h->first);
  /* The spec asks for blocks of a multiple of 128 values and miniblocks of a multiple of 32;
   * multiples of 8 are accepted (the spec's own examples use blocks of 8), which is what the
   * bit packing needs to stay byte-aligned. */
  JG_RETURN_IF(h->block_size == 0 || h->block_size > DELTA_MAX_BLOCK || h->miniblocks == 0 ||
                   h->block_size % h->miniblocks != 0 || (h->block_size / h->miniblocks) % 8 != 0,
               JG_ECORRUPT, err,
               "DELTA_BINARY_PACKED: blocks of %llu values in %llu miniblocks (the block size "
               "must be a multiple of 128 split into miniblocks of a multiple of 32 values)",
               (unsigned long long)h->block_size, (unsigned long long)h->miniblocks);
  h->per_miniblock = h->block_size / h->miniblocks;
  return JG_OK;
}

/* The DELTA_BINARY_PACKED decoder for one value type: T unsigned (arithmetic wraps as the spec
 * asks), TABLE the unpack functions of T, MAXW its bits. Miniblocks are unpacked straight into
 * out by groups of 8 and then turned into values by one prefix-sum loop; blocks past `count`
 * are walked only to find the stream's end. */
#define DEFINE_DELTA_DECODE(NAME, T, TABLE, MAXW)                                                \
  static jg_status NAME(const uint8_t *p, size_t n, int64_t count, T *out, size_t *used,         \
                        jg_error *err) {                                                         \
    size_t pos = 0;                                                                              \
    delta_header h;                                                                              \
    JG_RETURN_NOT_OK(delta_read_header(p, n, &pos, &h, err));                                    \
    JG_RETURN_IF((uint64_t)count > h.total, JG_ECORRUPT, err,                                    \
                 "DELTA_BINARY_PACKED: %lld values asked for, the stream has %llu",              \
                 (long long)count, (unsigned long long)h.total);                                 \
    T last = (T)h.first;                                                                         \
    int64_t i = 0;                                                                               \
    if (count > 0) out[i++] = last;                                                              \
    uint64_t left = h.total > 0 ? h.total - 1 : 0; /* values in the blocks */                    \
    while (left > 0) {                                                                           \
      const size_t block_at = pos;                                                               \
      uint64_t min_raw;                                                                          \
      JG_RETURN_IF(!read_uleb(p, n, &pos, &min_raw) || n - pos < h.miniblocks, JG_ECORRUPT, err, \
                   "DELTA_BINARY_PACKED: the block at byte %zu runs past the %zu bytes of the "  \
                   "data (%llu values still to come)",                                           \
                   block_at, n, (unsigned long long)left);                                       \
      const T min_delta = (T)zigzag_decode(min_raw);                                             \
      const uint8_t *widths = p + pos;                                                           \
      pos += (size_t)h.miniblocks;                                                               \
      for (uint64_t mb = 0; mb < h.miniblocks && left > 0; ++mb) {                               \
        const unsigned w = widths[mb];                                                           \
        JG_RETURN_IF(w > (MAXW), JG_ECORRUPT, err,                                               \
                     "DELTA_BINARY_PACKED: miniblock %llu of the block at byte %zu has bit "     \
                     "width %u, more than the type's %d",                                        \
                     (unsigned long long)mb, block_at, w, (MAXW));                               \
        const size_t mb_bytes = (size_t)(h.per_miniblock / 8 * w);                               \
        JG_RETURN_IF(mb_bytes > n - pos, JG_ECORRUPT, err,                                       \
                     "DELTA_BINARY_PACKED: miniblock %llu of the block at byte %zu needs %zu "   \
                     "bytes, %zu left",                                                          \
                     (unsigned long long)mb, block_at, mb_bytes, n - pos);                       \
        const uint64_t in_mb = left < h.per_miniblock ? left : h.per_miniblock;                  \
        const uint64_t want = (uint64_t)(count - i);                                             \
        const size_t take = (size_t)(in_mb < want ? in_mb : want);                               \
        if (take > 0) {                                                                          \
          T *o = out + i;                                                                        \
          TABLE[w](p + pos, o, take / 8, n - pos);                                               \
          if (take % 8 != 0) {                                                                   \
            T vals[8];                                                                           \
            TABLE[w](p + pos + take / 8 * w, vals, 1, n - pos - take / 8 * w);                   \
            memcpy(o + take / 8 * 8, vals, take % 8 * sizeof(T));                                \
          }                                                                                      \
          for (size_t k = 0; k < take; ++k) {                                                    \
            last += min_delta + o[k];                                                            \
            o[k] = last;                                                                         \
          }                                                                                      \
          i += (int64_t)take;                                                                    \
        }                                                                                        \
        pos += mb_bytes;                                                                         \
        left -= in_mb;                                                                           \
      }                                                                                          \
    }                                                                                            \
    if (used != NULL) *used = pos;                                                               \
    return JG_OK;                                                                                \
  }

DEFINE_DELTA_DECODE(delta_decode_u32, uint32_t, unpack_u32, 32)
DEFINE_DELTA_DECODE(delta_decode_u64, uint64_t, unpack_u64, 64)

jg_status jgi_pq_delta_decode(const uint8_t *p, size_t n, int width, int64_t count, void *out,
                              size_t *used, jg_error *err) {
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "DELTA_BINARY_PACKED: count %lld < 0", (long long)count);
  if (width == 4) return delta_decode_u32(p, n, count, (uint32_t *)out, used, err);
  if (width == 8) return delta_decode_u64(p, n, count, (uint64_t *)out, used, err);
  return jg_error_set(err, JG_EINVAL, -1, "DELTA_BINARY_PACKED: value width %d (4 or 8)", width);
}

/* The encoder's block shape: 128 values in 4 miniblocks of 32 (the spec's smallest). */
#define DELTA_BLOCK 128
#define DELTA_MINIBLOCKS 4
#define DELTA_PER_MINIBLOCK (DELTA_BLOCK / DELTA_MINIBLOCKS)

/* The DELTA_BINARY_PACKED encoder for one value type: U unsigned, S its signed twin (for the
 * minimum), BITS its width. Deltas and their differences from the block's minimum are taken in
 * U, so they wrap as the spec says and never need more than BITS bits. */
#define DEFINE_DELTA_ENCODE(NAME, U, S, BITS)                                                      \
  static jg_status NAME(const U *v, int64_t count, jgi_pq_buf *out, jg_error *err) {               \
    JG_RETURN_NOT_OK(put_uleb(out, DELTA_BLOCK, err));                                             \
    JG_RETURN_NOT_OK(put_uleb(out, DELTA_MINIBLOCKS, err));                                        \
    JG_RETURN_NOT_OK(put_uleb(out, (uint64_t)count, err));                                         \
    JG_RETURN_NOT_OK(put_uleb(out, zigzag_encode(count > 0 ? (int64_t)(S)v[0] : 0), err));         \
    for (int64_t b = 1; b < count; b += DELTA_BLOCK) {                                             \
      const int64_t m = count - b < DELTA_BLOCK ? count - b : DELTA_BLOCK;                         \
      U rel[DELTA_BLOCK];                                                                          \
      S min_delta = (S)(U)(v[b] - v[b - 1]);                                                       \
      for (int64_t k = 0; k < m; ++k) {                                                            \
        rel[k] = (U)(v[b + k] - v[b + k - 1]);                                                     \
        min_delta = (S)rel[k] < min_delta ? (S)rel[k] : min_delta;                                 \
      }                                                                                            \
      uint8_t widths[DELTA_MINIBLOCKS] = {0};                                                      \
      size_t body = 0;                                                                             \
      for (int64_t k = 0; k < m; ++k) rel[k] = (U)(rel[k] - (U)min_delta);                         \
      for (int mb = 0; mb < DELTA_MINIBLOCKS && mb * DELTA_PER_MINIBLOCK < m; ++mb) {              \
        U all = 0;                                                                                 \
        const int64_t e = (mb + 1) * DELTA_PER_MINIBLOCK < m ? (mb + 1) * DELTA_PER_MINIBLOCK : m; \
        for (int64_t k = mb * DELTA_PER_MINIBLOCK; k < e; ++k) all |= rel[k];                      \
        widths[mb] = (uint8_t)jgi_pq_bit_width(all);                                               \
        body += (size_t)DELTA_PER_MINIBLOCK / 8 * widths[mb];                                      \
      }                                                                                            \
      JG_RETURN_NOT_OK(put_uleb(out, zigzag_encode((int64_t)min_delta), err));                     \
      JG_RETURN_NOT_OK(jgi_pq_buf_append(out, widths, DELTA_MINIBLOCKS, err));                     \
      JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, body, err));                                        \
      bit_writer bw = {out->data + out->size, 0, 0};                                               \
      for (int mb = 0; mb < DELTA_MINIBLOCKS && mb * DELTA_PER_MINIBLOCK < m; ++mb) {              \
        for (int64_t k = mb * DELTA_PER_MINIBLOCK; k < (mb + 1) * DELTA_PER_MINIBLOCK; ++k) {      \
          bw_put64(&bw, k < m ? (uint64_t)rel[k] : 0, widths[mb]); /* last one padded: 0s */       \
        }                                                                                          \
      }                                                                                            \
      bw_flush(&bw);                                                                               \
      out->size += body;                                                                           \
    }                                                                                              \
    return JG_OK;                                                                                  \
  }

DEFINE_DELTA_ENCODE(delta_encode_u32, uint32_t, int32_t, 32)
DEFINE_DELTA_ENCODE(delta_encode_u64, uint64_t, int64_t, 64)

jg_status jgi_pq_delta_encode(const void *values, int width, int64_t count, jgi_pq_buf *out,
                              jg_error *err) {
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "DELTA_BINARY_PACKED: count %lld < 0", (long long)count);
  if (width == 4) return delta_encode_u32((const uint32_t *)values, count, out, err);
  if (width == 8) return delta_encode_u64((const uint64_t *)values, count, out, err);
  return jg_error_set(err, JG_EINVAL, -1, "DELTA_BINARY_PACKED: value width %d (4 or 8)", width);
}

/* ---- DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY -------------------------------------------- */

/* Byte-array pages hold at most 2^31 - 1 values (a page header's num_values is an int32); the
 * bound keeps every sum of lengths below 2^62. */
#define BYTES_MAX_COUNT INT32_MAX

/* Decodes `count` lengths (a DELTA_BINARY_PACKED stream of INT32) into offsets[1..count] as
 * offsets from offsets[0]; *total their sum, *used the stream's bytes. */
static jg_status decode_lengths(const uint8_t *p, size_t n, int64_t count, int64_t *offsets,
                                uint64_t *total, size_t *used, const char *what, jg_error *err) {
  /* Lengths are 0..INT32_MAX, so 64-bit arithmetic gives the same values as the 32-bit
   * wrap-around of an INT32 stream; anything out of range is caught after. */
  JG_RETURN_NOT_OK(delta_decode_u64(p, n, count, (uint64_t *)(offsets + 1), used, err));
  JG_RETURN_IF(!lengths_to_offsets(offsets, count, total), JG_ECORRUPT, err,
               "%s: a length is negative or above 2^31 - 1", what);
  return JG_OK;
}

jg_status jgi_pq_delta_length_decode(const uint8_t *p, size_t n, int64_t count, int64_t *offsets,
                                     jgi_pq_buf *bytes, size_t *used, jg_error *err) {
  JG_RETURN_IF(count < 0 || count > BYTES_MAX_COUNT, JG_EINVAL, err,
               "DELTA_LENGTH_BYTE_ARRAY: count %lld", (long long)count);
  size_t pos = 0;
  uint64_t total = 0;
  JG_RETURN_NOT_OK(
      decode_lengths(p, n, count, offsets, &total, &pos, "DELTA_LENGTH_BYTE_ARRAY", err));
  JG_RETURN_IF(total > n - pos, JG_ECORRUPT, err,
               "DELTA_LENGTH_BYTE_ARRAY: the lengths add up to %llu bytes, %zu left after them at "
               "byte %zu",
               (unsigned long long)total, n - pos, pos);
  JG_RETURN_NOT_OK(jgi_pq_buf_append(bytes, p + pos, (size_t)total, err));
  if (used != NULL) *used = pos + (size_t)total;
  return JG_OK;
}

jg_status jgi_pq_delta_bytes_decode(const uint8_t *p, size_t n, int64_t count, int64_t *offsets,
                                    jgi_pq_buf *bytes, size_t *used, jg_error *err) {
  JG_RETURN_IF(count < 0 || count > BYTES_MAX_COUNT, JG_EINVAL, err, "DELTA_BYTE_ARRAY: count %lld",
               (long long)count);
  if (count == 0) {
    /* Still walk both streams for *used. */
    size_t a = 0, b = 0;
    uint64_t total = 0;
    JG_RETURN_NOT_OK(delta_decode_u64(p, n, 0, NULL, &a, err));
    JG_RETURN_NOT_OK(decode_lengths(p + a, n - a, 0, offsets, &total, &b, "DELTA_BYTE_ARRAY", err));
    if (used != NULL) *used = a + b;
    return JG_OK;
  }
  uint64_t *prefix = (uint64_t *)malloc((size_t)count * sizeof(uint64_t));
  JG_RETURN_IF(prefix == NULL, JG_ENOMEM, err, "DELTA_BYTE_ARRAY: %lld prefix lengths",
               (long long)count);
  jg_status st;
  size_t a = 0, b = 0;
  uint64_t suffix_total = 0;
  const int64_t start = offsets[0];
  st = delta_decode_u64(p, n, count, prefix, &a, err);
  if (st != JG_OK) goto done;
  /* Suffix lengths into offsets[1..count] (as offsets from 0 for now). */
  offsets[0] = 0;
  st = decode_lengths(p + a, n - a, count, offsets, &suffix_total, &b, "DELTA_BYTE_ARRAY", err);
  offsets[0] = start;
  if (st != JG_OK) goto done;
  const size_t suffix_at = a + b;
  if (suffix_total > n - suffix_at) {
    st = jg_error_set(err, JG_ECORRUPT, -1,
                      "DELTA_BYTE_ARRAY: the suffix lengths add up to %llu bytes, %zu left",
                      (unsigned long long)suffix_total, n - suffix_at);
    goto done;
  }
  /* Pass 1: each value's length (prefix + suffix) and the prefix check; offsets become the
   * final ones. A value is at most the sum of all suffixes, so with count < 2^31 and
   * suffix_total < 2^63 / 2^31 no sum overflows; larger suffix totals are checked. */
  uint64_t prev_len = 0, total = 0, bad = 0, suffix_end_prev = 0;
  for (int64_t k = 0; k < count; ++k) {
    const uint64_t suffix_end = (uint64_t)offsets[k + 1];
    const uint64_t suf = suffix_end - suffix_end_prev;
    suffix_end_prev = suffix_end;
    const uint64_t pre = prefix[k];
    bad |= pre > prev_len;
    prev_len = (pre > prev_len ? prev_len : pre) + suf;
    prefix[k] = bad ? 0 : pre;
    total += prev_len;
    if (JGI_UNLIKELY(total > ((uint64_t)1 << 62))) break;
    offsets[k + 1] = start + (int64_t)total;
  }
  if (bad != 0) {
    st = jg_error_set(err, JG_ECORRUPT, -1,
                      "DELTA_BYTE_ARRAY: a prefix length is longer than the value before it");
    goto done;
  }
  if (total > ((uint64_t)1 << 62) || start > INT64_MAX - (int64_t)total) {
    st = jg_error_set(err, JG_ECORRUPT, -1,
                      "DELTA_BYTE_ARRAY: the values add up to more than 2^62 bytes");
    goto done;
  }
  st = jgi_pq_buf_reserve(bytes, (size_t)total, err);
  if (st != JG_OK) goto done;
  /* Pass 2: build each value from the previous one's prefix and its suffix. */
  {
    uint8_t *dst = bytes->data + bytes->size;
    const uint8_t *prev = dst, *suffix = p + suffix_at;
    int64_t prev_end = start;
    for (int64_t k = 0; k < count; ++k) {
      const size_t len = (size_t)(offsets[k + 1] - prev_end);
      const size_t pre = (size_t)prefix[k], suf = len - pre;
      memcpy(dst, prev, pre);
      memcpy(dst + pre, suffix, suf);
      suffix += suf;
      prev = dst;
      dst += len;
      prev_end = offsets[k + 1];
    }
    bytes->size += (size_t)total;
  }
  if (used != NULL) *used = suffix_at + (size_t)suffix_total;
done:
  free(prefix);
  return st;
}

jg_status jgi_pq_delta_length_encode(const int64_t *offsets, const uint8_t *bytes, int64_t count,
                                     jgi_pq_buf *out, jg_error *err) {
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "DELTA_LENGTH_BYTE_ARRAY: count %lld < 0",
               (long long)count);
  int32_t *lens = (int32_t *)calloc((size_t)(count > 0 ? count : 1), sizeof(int32_t));
  JG_RETURN_IF(lens == NULL, JG_ENOMEM, err, "DELTA_LENGTH_BYTE_ARRAY: %lld lengths",
               (long long)count);
  jg_status st = JG_OK;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t len = offsets[i + 1] - offsets[i];
    if (len < 0 || len > INT32_MAX) {
      st = jg_error_set(err, JG_EINVAL, i,
                        "DELTA_LENGTH_BYTE_ARRAY: value %lld has length %lld (0..2^31-1 allowed)",
                        (long long)i, (long long)len);
      break;
    }
    lens[i] = (int32_t)len;
  }
  if (st == JG_OK) st = jgi_pq_delta_encode(lens, 4, count, out, err);
  free(lens);
  JG_RETURN_NOT_OK(st);
  if (count == 0 || offsets[count] == offsets[0]) return JG_OK;
  return jgi_pq_buf_append(out, bytes + offsets[0], (size_t)(offsets[count] - offsets[0]), err);
}

jg_status jgi_pq_delta_bytes_encode(const int64_t *offsets, const uint8_t *bytes, int64_t count,
                                    jgi_pq_buf *out, jg_error *err) {
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "DELTA_BYTE_ARRAY: count %lld < 0", (long long)count);
  const size_t nn = (size_t)(count > 0 ? count : 1);
  int32_t *prefix = (int32_t *)malloc(nn * sizeof(int32_t));
  int64_t *suffix_offsets = (int64_t *)malloc((nn + 1) * sizeof(int64_t));
  jgi_pq_buf suffixes = {0};
  jg_status st = JG_OK;
  if (prefix == NULL || suffix_offsets == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "DELTA_BYTE_ARRAY: %lld values", (long long)count);
    goto done;
  }
  suffix_offsets[0] = 0;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t len = offsets[i + 1] - offsets[i];
    if (len < 0 || len > INT32_MAX) {
      st = jg_error_set(err, JG_EINVAL, i,
                        "DELTA_BYTE_ARRAY: value %lld has length %lld (0..2^31-1 allowed)",
                        (long long)i, (long long)len);
      goto done;
    }
    int64_t pre = 0;
    if (len == 0) {
      prefix[i] = 0;
      suffix_offsets[i + 1] = suffix_offsets[i];
      continue;
    }
    const uint8_t *cur = bytes + offsets[i];
    if (i > 0 && offsets[i] > offsets[i - 1]) {
      const int64_t prev_len = offsets[i] - offsets[i - 1];
      const uint8_t *prev = bytes + offsets[i - 1];
      const int64_t lim = prev_len < len ? prev_len : len;
      while (pre < lim && prev[pre] == cur[pre]) ++pre;
    }
    prefix[i] = (int32_t)pre;
    suffix_offsets[i + 1] = suffix_offsets[i] + (len - pre);
    st = jgi_pq_buf_append(&suffixes, cur + pre, (size_t)(len - pre), err);
    if (st != JG_OK) goto done;
  }
  st = jgi_pq_delta_encode(prefix, 4, count, out, err);
  if (st == JG_OK) st = jgi_pq_delta_length_encode(suffix_offsets, suffixes.data, count, out, err);
done:
  free(prefix);
  free(suffix_offsets);
  jgi_pq_buf_reset(&suffixes);
  return st;
}

/* ---- BYTE_STREAM_SPLIT -------------------------------------------------------------------- */

jg_status jgi_pq_byte_stream_split_decode(const uint8_t *p, size_t n, int width, int64_t count,
                                          void *out, jg_error *err) {
  JG_RETURN_IF(width <= 0, JG_ECORRUPT, err, "BYTE_STREAM_SPLIT: value width %d", width);
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "BYTE_STREAM_SPLIT: count %lld < 0", (long long)count);
  uint64_t bytes;
  JG_RETURN_IF(jgi_mul_overflow((uint64_t)count, (uint64_t)width, &bytes) || bytes != n,
               JG_ECORRUPT, err,
               "BYTE_STREAM_SPLIT: %lld values of %d bytes need %llu bytes, the data has %zu",
               (long long)count, width, (unsigned long long)bytes, n);
  const size_t N = (size_t)count, W = (size_t)width;
  if (width == 4) {
    const uint8_t *s0 = p, *s1 = p + N, *s2 = p + 2 * N, *s3 = p + 3 * N;
    uint32_t *o = (uint32_t *)out;
    for (size_t i = 0; i < N; ++i) {
      o[i] = (uint32_t)s0[i] | (uint32_t)s1[i] << 8 | (uint32_t)s2[i] << 16 | (uint32_t)s3[i] << 24;
    }
  } else if (width == 8) {
    uint64_t *o = (uint64_t *)out;
    for (size_t i = 0; i < N; ++i) {
      uint64_t v = 0;
      UNROLL8 for (size_t k = 0; k < 8; ++k) v |= (uint64_t)p[k * N + i] << (8 * k);
      o[i] = v;
    }
  } else {
    /* Other widths (FLOAT16, FIXED_LEN_BYTE_ARRAY): a stream at a time, in chunks that stay in
     * the cache. */
    uint8_t *o = (uint8_t *)out;
    for (size_t c = 0; c < N; c += 4096) {
      const size_t e = N - c < 4096 ? N : c + 4096;
      for (size_t k = 0; k < W; ++k) {
        const uint8_t *s = p + k * N;
        for (size_t i = c; i < e; ++i) o[i * W + k] = s[i];
      }
    }
  }
  return JG_OK;
}

jg_status jgi_pq_byte_stream_split_encode(const void *values, int width, int64_t count,
                                          jgi_pq_buf *out, jg_error *err) {
  JG_RETURN_IF(width <= 0, JG_EINVAL, err, "BYTE_STREAM_SPLIT: value width %d", width);
  JG_RETURN_IF(count < 0, JG_EINVAL, err, "BYTE_STREAM_SPLIT: count %lld < 0", (long long)count);
  uint64_t bytes;
  JG_RETURN_IF(jgi_mul_overflow((uint64_t)count, (uint64_t)width, &bytes) || bytes > SIZE_MAX,
               JG_EOVERFLOW, err, "BYTE_STREAM_SPLIT: %lld values of %d bytes", (long long)count,
               width);
  JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, (size_t)bytes, err));
  const size_t N = (size_t)count, W = (size_t)width;
  const uint8_t *v = (const uint8_t *)values;
  uint8_t *dst = out->data + out->size;
  for (size_t c = 0; c < N; c += 4096) {
    const size_t e = N - c < 4096 ? N : c + 4096;
    for (size_t k = 0; k < W; ++k) {
      uint8_t *s = dst + k * N;
      for (size_t i = c; i < e; ++i) s[i] = v[i * W + k];
    }
  }
  out->size += (size_t)bytes;
  return JG_OK;
}
