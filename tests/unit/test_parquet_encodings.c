/* test_parquet_encodings.c: Parquet's encodings (src/io/parquet/encodings.c), decode and encode.
 * Expected bytes come from the worked examples of Encodings.md (apache/parquet-format), written
 * out by hand from the spec's text in the comments beside them; round trips run over seeded
 * random data; every decoder is fed every prefix of valid streams, flipped bytes and garbage
 * (run under ASan to catch a read out of bounds). */
#include "internal/jgi_parquet.h"
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static uint64_t rng_state;

static void rng_seed(uint64_t s) {
  rng_state = s * 0x9E3779B97F4A7C15u + 1;
}

static uint64_t rng_next(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Du;
}

static uint64_t rng_below(uint64_t n) {
  return n == 0 ? 0 : rng_next() % n;
}

/* A heap copy of p[0..n) of exactly n bytes (at least 1 allocated, so that ASan sees a read at
 * p[n]). */
static uint8_t *exact_copy(const uint8_t *p, size_t n) {
  uint8_t *c = (uint8_t *)malloc(n > 0 ? n : 1);
  assert_non_null(c);
  if (n > 0) memcpy(c, p, n);
  return c;
}

static void assert_bytes(const uint8_t *got, size_t got_n, const uint8_t *want, size_t want_n) {
  assert_int_equal(got_n, want_n);
  assert_memory_equal(got, want, want_n);
}

/* ------------------------------------------------------------------------------------------ */
/* Bit width                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void test_bit_width(void **state) {
  (void)state;
  assert_int_equal(jgi_pq_bit_width(0), 0);
  assert_int_equal(jgi_pq_bit_width(1), 1);
  assert_int_equal(jgi_pq_bit_width(2), 2);
  assert_int_equal(jgi_pq_bit_width(7), 3);
  assert_int_equal(jgi_pq_bit_width(8), 4);
  assert_int_equal(jgi_pq_bit_width(UINT32_MAX), 32);
  assert_int_equal(jgi_pq_bit_width((uint64_t)UINT32_MAX + 1), 33);
  assert_int_equal(jgi_pq_bit_width(UINT64_MAX), 64);
}

/* ------------------------------------------------------------------------------------------ */
/* RLE / bit-packed hybrid: the spec's examples                                               */
/* ------------------------------------------------------------------------------------------ */

/* Encodings.md, RLE note 1: 0..7 at bit width 3 bit-packed are the bytes 10001000 11000110
 * 11111010; one group of 8 is a bit-packed run with header varint(1 << 1 | 1) = 0x03. */
static const uint8_t spec_bitpacked_0_7[] = {0x03, 0x88, 0xC6, 0xFA};

static void test_rle_spec_bitpacked(void **state) {
  (void)state;
  uint32_t out[8];
  size_t used = 0;
  JGT_OK(jgi_pq_rle_decode(spec_bitpacked_0_7, sizeof spec_bitpacked_0_7, 3, 8, out, &used,
                           &jgt_err_));
  for (uint32_t i = 0; i < 8; ++i) assert_int_equal(out[i], i);
  assert_int_equal(used, 4);
  /* The same as levels. */
  int16_t lv[8];
  JGT_OK(jgi_pq_rle_decode_levels(spec_bitpacked_0_7, sizeof spec_bitpacked_0_7, 3, 8, lv, &used,
                                  &jgt_err_));
  for (int i = 0; i < 8; ++i) assert_int_equal(lv[i], i);
  /* Fewer values than the run holds: the run is still consumed whole. */
  memset(out, 0xFF, sizeof out);
  JGT_OK(jgi_pq_rle_decode(spec_bitpacked_0_7, sizeof spec_bitpacked_0_7, 3, 5, out, &used,
                           &jgt_err_));
  for (uint32_t i = 0; i < 5; ++i) assert_int_equal(out[i], i);
  assert_int_equal(out[5], 0xFFFFFFFFu);
  assert_int_equal(used, 4);
  /* Encoding 0..7 at width 3 gives the spec's bytes back. */
  const uint32_t vals[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  jgi_pq_buf b = {0};
  JGT_OK(jgi_pq_rle_encode(vals, 8, 3, &b, &jgt_err_));
  assert_bytes(b.data, b.size, spec_bitpacked_0_7, sizeof spec_bitpacked_0_7);
  jgi_pq_buf_reset(&b);
}

/* RLE runs (grammar of Encodings.md): header varint(run length << 1), then the value in
 * ceil(bit width / 8) little-endian bytes. 100 copies of 5 at width 3: header 200 = 0xC8 0x01,
 * value 0x05. 300 copies of 0x1234 at width 13: header 600 = 0xD8 0x04, value 0x34 0x12. */
static void test_rle_spec_runs(void **state) {
  (void)state;
  const uint8_t run5[] = {0xC8, 0x01, 0x05};
  uint32_t out[300];
  size_t used = 0;
  JGT_OK(jgi_pq_rle_decode(run5, sizeof run5, 3, 100, out, &used, &jgt_err_));
  for (int i = 0; i < 100; ++i) assert_int_equal(out[i], 5);
  assert_int_equal(used, 3);
  uint32_t in[300];
  for (int i = 0; i < 100; ++i) in[i] = 5;
  jgi_pq_buf b = {0};
  JGT_OK(jgi_pq_rle_encode(in, 100, 3, &b, &jgt_err_));
  assert_bytes(b.data, b.size, run5, sizeof run5);
  jgi_pq_buf_reset(&b);

  const uint8_t run13[] = {0xD8, 0x04, 0x34, 0x12};
  JGT_OK(jgi_pq_rle_decode(run13, sizeof run13, 13, 300, out, &used, &jgt_err_));
  for (int i = 0; i < 300; ++i) assert_int_equal(out[i], 0x1234);
  for (int i = 0; i < 300; ++i) in[i] = 0x1234;
  JGT_OK(jgi_pq_rle_encode(in, 300, 13, &b, &jgt_err_));
  assert_bytes(b.data, b.size, run13, sizeof run13);
  jgi_pq_buf_reset(&b);

  /* A bit-packed run then an RLE run: 0..7 at width 3, then 10 copies of 6 (header 20 = 0x14,
   * value 0x06). The encoder makes the same choice. */
  const uint8_t mixed[] = {0x03, 0x88, 0xC6, 0xFA, 0x14, 0x06};
  JGT_OK(jgi_pq_rle_decode(mixed, sizeof mixed, 3, 18, out, &used, &jgt_err_));
  for (uint32_t i = 0; i < 8; ++i) assert_int_equal(out[i], i);
  for (int i = 8; i < 18; ++i) assert_int_equal(out[i], 6);
  assert_int_equal(used, sizeof mixed);
  for (uint32_t i = 0; i < 8; ++i) in[i] = i;
  for (int i = 8; i < 18; ++i) in[i] = 6;
  JGT_OK(jgi_pq_rle_encode(in, 18, 3, &b, &jgt_err_));
  assert_bytes(b.data, b.size, mixed, sizeof mixed);
  jgi_pq_buf_reset(&b);

  /* Bit width 0: an RLE run has no value bytes; 12 zeros are header 24 = 0x18. */
  const uint8_t zeros[] = {0x18};
  memset(out, 0xFF, sizeof out);
  JGT_OK(jgi_pq_rle_decode(zeros, sizeof zeros, 0, 12, out, &used, &jgt_err_));
  for (int i = 0; i < 12; ++i) assert_int_equal(out[i], 0);
  assert_int_equal(used, 1);
  memset(in, 0, sizeof in);
  JGT_OK(jgi_pq_rle_encode(in, 12, 0, &b, &jgt_err_));
  assert_bytes(b.data, b.size, zeros, sizeof zeros);
  jgi_pq_buf_reset(&b);
}

/* A last bit-packed group cut to the bytes its needed values take (some writers do) still
 * decodes; cut shorter than that it is corrupt. 0..7 at width 3, 5 values need 15 bits: 2
 * bytes. */
static void test_rle_short_last_group(void **state) {
  (void)state;
  uint32_t out[8];
  size_t used = 0;
  jg_error err;
  uint8_t *c = exact_copy(spec_bitpacked_0_7, 3);
  JGT_OK(jgi_pq_rle_decode(c, 3, 3, 5, out, &used, &jgt_err_));
  for (uint32_t i = 0; i < 5; ++i) assert_int_equal(out[i], i);
  assert_int_equal(used, 3);
  JGT_STATUS(JG_ECORRUPT, jgi_pq_rle_decode(c, 3, 3, 6, out, &used, &err));
  JGT_CONTAINS(err.message, "bit-packed run");
  free(c);
}

static void test_rle_bad_widths(void **state) {
  (void)state;
  uint32_t out[8];
  int16_t lv[8];
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_rle_decode(spec_bitpacked_0_7, 4, 33, 8, out, NULL, &err));
  JGT_CONTAINS(err.message, "33");
  JGT_STATUS(JG_ECORRUPT, jgi_pq_rle_decode(spec_bitpacked_0_7, 4, -1, 8, out, NULL, &err));
  JGT_STATUS(JG_ECORRUPT, jgi_pq_rle_decode_levels(spec_bitpacked_0_7, 4, 17, 8, lv, NULL, &err));
  JGT_STATUS(JG_ECORRUPT,
             jgi_pq_bitpacked_decode_levels(spec_bitpacked_0_7, 4, 17, 8, lv, NULL, &err));
  /* An RLE run whose value is wider than the bit width: 4 copies of 9 at width 3. */
  const uint8_t wide[] = {0x08, 0x09};
  JGT_STATUS(JG_ECORRUPT, jgi_pq_rle_decode(wide, 2, 3, 4, out, NULL, &err));
  JGT_CONTAINS(err.message, "wider");
  /* The encoder refuses a value wider than the bit width. */
  const uint32_t v[2] = {1, 8};
  jgi_pq_buf b = {0};
  JGT_STATUS(JG_EINVAL, jgi_pq_rle_encode(v, 2, 3, &b, &err));
  jgi_pq_buf_reset(&b);
}

/* Encodings.md, BIT_PACKED: 0..7 at width 3, most significant bit first, are 00000101 00111001
 * 01110111; 30 values of 2 bits take 8 bytes. */
static void test_bitpacked_spec(void **state) {
  (void)state;
  const uint8_t bp[] = {0x05, 0x39, 0x77};
  int16_t lv[30];
  size_t used = 0;
  JGT_OK(jgi_pq_bitpacked_decode_levels(bp, sizeof bp, 3, 8, lv, &used, &jgt_err_));
  for (int i = 0; i < 8; ++i) assert_int_equal(lv[i], i);
  assert_int_equal(used, 3);
  /* 30 values of 2 bits: 0,1,2,3 repeated is the byte 00011011 = 0x1B, 7 of them, then 0,1 in
   * the top bits of the last byte: 00010000 = 0x10. */
  const uint8_t bp2[] = {0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x10};
  JGT_OK(jgi_pq_bitpacked_decode_levels(bp2, sizeof bp2, 2, 30, lv, &used, &jgt_err_));
  for (int i = 0; i < 30; ++i) assert_int_equal(lv[i], i % 4);
  assert_int_equal(used, 8);
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_bitpacked_decode_levels(bp2, 7, 2, 30, lv, &used, &err));
}

/* ------------------------------------------------------------------------------------------ */
/* RLE / bit-packed hybrid: random round trips                                                 */
/* ------------------------------------------------------------------------------------------ */

/* count values below 2^w: runs of a repeated value (lengths 1..40) mixed with random literals. */
static void fill_runs(uint32_t *v, int64_t count, int w) {
  const uint64_t lim = w == 32 ? UINT64_C(1) << 32 : UINT64_C(1) << w;
  int64_t i = 0;
  while (i < count) {
    const int64_t len = 1 + (int64_t)rng_below(rng_below(2) ? 40 : 3);
    const uint32_t x = (uint32_t)rng_below(lim);
    const bool repeat = rng_below(2) == 0;
    for (int64_t k = 0; k < len && i < count; ++k, ++i) {
      v[i] = repeat ? x : (uint32_t)rng_below(lim);
    }
  }
}

static void test_rle_round_trip(void **state) {
  (void)state;
  rng_seed(6);
  enum { MAXN = 3001 };
  uint32_t *v = malloc(MAXN * sizeof *v), *back = malloc((MAXN + 8) * sizeof *back);
  int16_t *lv = malloc(MAXN * sizeof *lv);
  assert_non_null(v);
  assert_non_null(back);
  assert_non_null(lv);
  for (int w = 0; w <= 32; ++w) {
    for (int rep = 0; rep < 12; ++rep) {
      const int64_t count = rep == 0 ? 0 : rep == 1 ? 1 : (int64_t)rng_below(MAXN);
      fill_runs(v, count, w);
      if (rep == 2 && count > 0) v[0] = w == 32 ? UINT32_MAX : (uint32_t)((1u << w) - 1);
      jgi_pq_buf b = {0};
      JGT_OK(jgi_pq_rle_encode(v, count, w, &b, &jgt_err_));
      uint8_t *c = exact_copy(b.data, b.size);
      size_t used = 0;
      back[count] = 0xABCDEF01u; /* must stay untouched */
      JGT_OK(jgi_pq_rle_decode(c, b.size, w, count, back, &used, &jgt_err_));
      assert_memory_equal(back, v, (size_t)count * sizeof *v);
      assert_int_equal(back[count], 0xABCDEF01u);
      assert_int_equal(used, b.size);
      /* A prefix of the values. */
      if (count > 3) {
        const int64_t part = (int64_t)rng_below((uint64_t)count);
        JGT_OK(jgi_pq_rle_decode(c, b.size, w, part, back, &used, &jgt_err_));
        assert_memory_equal(back, v, (size_t)part * sizeof *v);
        assert_true(used <= b.size);
      }
      if (w <= 16) {
        JGT_OK(jgi_pq_rle_decode_levels(c, b.size, w, count, lv, &used, &jgt_err_));
        for (int64_t i = 0; i < count; ++i) assert_int_equal((uint16_t)lv[i], v[i]);
        assert_int_equal(used, b.size);
      }
      if (w <= 15) {
        /* The writer's encoder of int16 levels gives the same bytes. */
        for (int64_t i = 0; i < count; ++i) lv[i] = (int16_t)v[i];
        jgi_pq_buf bl = {0};
        JGT_OK(jgi_pq_rle_encode_levels(lv, count, w, &bl, &jgt_err_));
        assert_int_equal(bl.size, b.size);
        if (b.size > 0) assert_memory_equal(bl.data, b.data, b.size);
        jgi_pq_buf_reset(&bl);
      }
      free(c);
      jgi_pq_buf_reset(&b);
    }
  }
  /* Runs without a values array: count copies of a value, none for 0; a negative level or one
   * wider than the bit width is refused. */
  for (int64_t count = 0; count < 40; count += 13) {
    jgi_pq_buf b = {0};
    JGT_OK(jgi_pq_rle_encode_run(5, count, 3, &b, &jgt_err_));
    assert_int_equal(b.size == 0, count == 0);
    size_t used = 0;
    JGT_OK(jgi_pq_rle_decode(b.data, b.size, 3, count, back, &used, &jgt_err_));
    for (int64_t i = 0; i < count; ++i) assert_int_equal(back[i], 5);
    assert_int_equal(used, b.size);
    jgi_pq_buf_reset(&b);
  }
  jg_error err;
  jgi_pq_buf b = {0};
  JGT_STATUS(JG_EINVAL, jgi_pq_rle_encode_run(8, 4, 3, &b, &err));
  const int16_t bad[3] = {0, -1, 1};
  JGT_STATUS(JG_EINVAL, jgi_pq_rle_encode_levels(bad, 3, 2, &b, &err));
  jgi_pq_buf_reset(&b);
  free(v);
  free(back);
  free(lv);
}

/* ------------------------------------------------------------------------------------------ */
/* PLAIN                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void test_plain(void **state) {
  (void)state;
  /* INT32 little-endian: 1, -2, 0x01020304. */
  const uint8_t i32[] = {1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 4, 3, 2, 1};
  int32_t out[3];
  size_t used = 0;
  jg_error err;
  JGT_OK(jgi_pq_plain_decode_fixed(i32, sizeof i32, 4, 3, out, &used, &jgt_err_));
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], -2);
  assert_int_equal(out[2], 0x01020304);
  assert_int_equal(used, 12);
  JGT_STATUS(JG_ECORRUPT, jgi_pq_plain_decode_fixed(i32, 11, 4, 3, out, &used, &err));
  /* INT96: 12 bytes a value. */
  uint8_t i96[12];
  JGT_OK(jgi_pq_plain_decode_fixed(i32, sizeof i32, 12, 1, i96, &used, &jgt_err_));
  assert_memory_equal(i96, i32, 12);

  /* BOOLEAN, least significant bit first: 0xB1 = 10110001b is 1,0,0,0,1,1,0,1; then 0x02 is
   * 0,1,0. */
  const uint8_t bits[] = {0xB1, 0x02};
  const uint8_t want[] = {1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0};
  uint8_t bo[11];
  JGT_OK(jgi_pq_plain_decode_bool(bits, 2, 11, bo, &used, &jgt_err_));
  assert_memory_equal(bo, want, 11);
  assert_int_equal(used, 2);
  JGT_STATUS(JG_ECORRUPT, jgi_pq_plain_decode_bool(bits, 1, 11, bo, &used, &err));
  jgi_pq_buf b = {0};
  JGT_OK(jgi_pq_plain_encode_bool(want, 11, &b, &jgt_err_));
  assert_bytes(b.data, b.size, bits, 2);
  jgi_pq_buf_reset(&b);

  /* BYTE_ARRAY: 4-byte little-endian length then the bytes: "abc", "", "x". */
  const uint8_t ba[] = {3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0, 1, 0, 0, 0, 'x'};
  int64_t off[4] = {10, -1, -1, -1};
  JGT_OK(jgi_pq_plain_decode_bytes(ba, sizeof ba, 3, off, &b, &used, &jgt_err_));
  assert_int_equal(off[1], 13);
  assert_int_equal(off[2], 13);
  assert_int_equal(off[3], 14);
  assert_bytes(b.data, b.size, (const uint8_t *)"abcx", 4);
  assert_int_equal(used, sizeof ba);
  jgi_pq_buf enc = {0};
  const int64_t off0[4] = {0, 3, 3, 4};
  JGT_OK(jgi_pq_plain_encode_bytes(off0, b.data, 3, &enc, &jgt_err_));
  assert_bytes(enc.data, enc.size, ba, sizeof ba);
  jgi_pq_buf_reset(&enc);
  /* A length past the end. */
  uint8_t bad[sizeof ba];
  memcpy(bad, ba, sizeof ba);
  bad[11] = 2;
  b.size = 0;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_plain_decode_bytes(bad, sizeof bad, 3, off, &b, &used, &err));
  assert_int_equal(err.index, 2);
  jgi_pq_buf_reset(&b);
}

/* ------------------------------------------------------------------------------------------ */
/* Dictionary gather                                                                           */
/* ------------------------------------------------------------------------------------------ */

static void test_dict_gather(void **state) {
  (void)state;
  rng_seed(42);
  enum { NDICT = 37, COUNT = 5000 };
  uint8_t dict[NDICT * 16];
  for (size_t i = 0; i < sizeof dict; ++i) dict[i] = (uint8_t)rng_next();
  uint32_t *idx = malloc(COUNT * sizeof *idx);
  uint8_t *out = malloc(COUNT * 16);
  assert_non_null(idx);
  assert_non_null(out);
  for (int i = 0; i < COUNT; ++i) idx[i] = (uint32_t)rng_below(NDICT);
  const int widths[] = {1, 2, 3, 4, 8, 12, 16};
  for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; ++wi) {
    const int w = widths[wi];
    JGT_OK(jgi_pq_dict_gather(dict, NDICT, w, idx, COUNT, out, &jgt_err_));
    for (int i = 0; i < COUNT; ++i) {
      assert_memory_equal(out + (size_t)i * w, dict + (size_t)idx[i] * w, (size_t)w);
    }
  }
  /* An index past the dictionary at value 1500 (in the second block of 1024). */
  jg_error err;
  idx[1500] = NDICT;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_dict_gather(dict, NDICT, 4, idx, COUNT, out, &err));
  assert_int_equal(err.index, 1500);
  JGT_CONTAINS(err.message, "1500");
  JGT_STATUS(JG_ECORRUPT, jgi_pq_dict_gather(dict, NDICT, 8, idx, COUNT, out, &err));
  assert_int_equal(err.index, 1500);
  /* A maximum index of UINT32_MAX at value 0; an empty dictionary and any index. */
  idx[1500] = 3;
  idx[0] = UINT32_MAX;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_dict_gather(dict, NDICT, 12, idx, COUNT, out, &err));
  assert_int_equal(err.index, 0);
  idx[0] = 0;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_dict_gather(dict, 0, 4, idx, 1, out, &err));
  JGT_OK(jgi_pq_dict_gather(dict, 0, 4, idx, 0, out, &jgt_err_));

  /* Byte arrays: entries "", "a", "bc", "def"; offsets start at 5. */
  const int64_t doff[5] = {0, 0, 1, 3, 6};
  const uint8_t dbytes[] = "abcdef";
  const uint32_t bi[6] = {3, 0, 1, 2, 3, 0};
  int64_t off[7] = {5};
  jgi_pq_buf b = {0};
  JGT_OK(jgi_pq_dict_gather_bytes(doff, dbytes, 4, bi, 6, off, &b, &jgt_err_));
  const int64_t want_off[7] = {5, 8, 8, 9, 11, 14, 14};
  assert_memory_equal(off, want_off, sizeof want_off);
  assert_bytes(b.data, b.size, (const uint8_t *)"defabcdef", 9);
  const uint32_t bad[3] = {1, 4, 0};
  JGT_STATUS(JG_ECORRUPT, jgi_pq_dict_gather_bytes(doff, dbytes, 4, bad, 3, off, &b, &err));
  assert_int_equal(err.index, 1);
  jgi_pq_buf_reset(&b);
  free(idx);
  free(out);
}

/* ------------------------------------------------------------------------------------------ */
/* DELTA_BINARY_PACKED                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Encodings.md, DELTA_BINARY_PACKED example 1: 1, 2, 3, 4, 5 with blocks of 8 values in 1
 * miniblock. Header: 8, 1, 5 (ULEB128), first value 1 (zigzag 2); block: min delta 1 (zigzag 2),
 * bit width 0, no miniblock bytes. */
static const uint8_t spec_delta1[] = {0x08, 0x01, 0x05, 0x02, 0x02, 0x00};
/* Example 2: 7, 5, 3, 1, 2, 3, 4, 5. Header: 8, 1, 8, first value 7 (zigzag 14 = 0x0E); block:
 * min delta -2 (zigzag 3), bit width 2, then the relative deltas 0,0,0,3,3,3,3 (and one padding
 * 0) on 2 bits, least significant first: 0|0<<2|0<<4|3<<6 = 0xC0, 3|3<<2|3<<4|0<<6 = 0x3F. */
static const uint8_t spec_delta2[] = {0x08, 0x01, 0x08, 0x0E, 0x03, 0x02, 0xC0, 0x3F};

static void test_delta_spec(void **state) {
  (void)state;
  int32_t o32[8];
  int64_t o64[8];
  size_t used = 0;
  JGT_OK(jgi_pq_delta_decode(spec_delta1, sizeof spec_delta1, 4, 5, o32, &used, &jgt_err_));
  for (int i = 0; i < 5; ++i) assert_int_equal(o32[i], i + 1);
  assert_int_equal(used, sizeof spec_delta1);
  JGT_OK(jgi_pq_delta_decode(spec_delta1, sizeof spec_delta1, 8, 5, o64, &used, &jgt_err_));
  for (int i = 0; i < 5; ++i) assert_int_equal(o64[i], i + 1);
  const int want2[8] = {7, 5, 3, 1, 2, 3, 4, 5};
  JGT_OK(jgi_pq_delta_decode(spec_delta2, sizeof spec_delta2, 4, 8, o32, &used, &jgt_err_));
  for (int i = 0; i < 8; ++i) assert_int_equal(o32[i], want2[i]);
  assert_int_equal(used, sizeof spec_delta2);
  JGT_OK(jgi_pq_delta_decode(spec_delta2, sizeof spec_delta2, 8, 8, o64, &used, &jgt_err_));
  for (int i = 0; i < 8; ++i) assert_int_equal(o64[i], want2[i]);
  /* Fewer values than the stream holds: *used is still the whole stream. */
  JGT_OK(jgi_pq_delta_decode(spec_delta2, sizeof spec_delta2, 4, 3, o32, &used, &jgt_err_));
  for (int i = 0; i < 3; ++i) assert_int_equal(o32[i], want2[i]);
  assert_int_equal(used, sizeof spec_delta2);
  JGT_OK(jgi_pq_delta_decode(spec_delta2, sizeof spec_delta2, 4, 0, o32, &used, &jgt_err_));
  assert_int_equal(used, sizeof spec_delta2);
  /* More values than the stream holds. */
  jg_error err;
  JGT_STATUS(JG_ECORRUPT,
             jgi_pq_delta_decode(spec_delta2, sizeof spec_delta2, 4, 9, o32, &used, &err));

  /* The encoder's blocks are 128 values in 4 miniblocks of 32 (ULEB128 128 = 0x80 0x01). For
   * 1..5: header 128, 4, 5, zigzag(1); one block: zigzag(1), widths 0 0 0 0, no bytes. */
  const int32_t v1[5] = {1, 2, 3, 4, 5};
  const uint8_t enc1[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
  jgi_pq_buf b = {0};
  JGT_OK(jgi_pq_delta_encode(v1, 4, 5, &b, &jgt_err_));
  assert_bytes(b.data, b.size, enc1, sizeof enc1);
  jgi_pq_buf_reset(&b);
  /* 7,5,3,1,2,3,4,5: header 128, 4, 8, zigzag(7); block: zigzag(-2), widths 2 0 0 0, then the
   * first miniblock's 32 values on 2 bits (8 bytes): 0xC0 0x3F and 6 bytes of padding 0. */
  const int64_t v2[8] = {7, 5, 3, 1, 2, 3, 4, 5};
  const uint8_t enc2[] = {0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00,
                          0x00, 0xC0, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  JGT_OK(jgi_pq_delta_encode(v2, 8, 8, &b, &jgt_err_));
  assert_bytes(b.data, b.size, enc2, sizeof enc2);
  jgi_pq_buf_reset(&b);
}

static void test_delta_bad(void **state) {
  (void)state;
  int32_t o32[8];
  int64_t o64[8];
  size_t used;
  jg_error err;
  /* Bit width 33 for INT32 (65 for INT64) is corrupt; 33 is fine for INT64 but the stream is
   * short then (8 values of 33 bits need 33 bytes). */
  uint8_t s[sizeof spec_delta2];
  memcpy(s, spec_delta2, sizeof s);
  s[5] = 33;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_decode(s, sizeof s, 4, 8, o32, &used, &err));
  JGT_CONTAINS(err.message, "bit width 33");
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_decode(s, sizeof s, 8, 8, o64, &used, &err));
  JGT_CONTAINS(err.message, "needs 33 bytes");
  s[5] = 65;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_decode(s, sizeof s, 8, 8, o64, &used, &err));
  /* Block sizes: 0, miniblock count 0, 3 miniblocks of a block of 8, 12 values a miniblock. */
  const uint8_t h0[] = {0x00, 0x01, 0x01, 0x00};
  const uint8_t h1[] = {0x08, 0x00, 0x01, 0x00};
  const uint8_t h2[] = {0x08, 0x03, 0x01, 0x00};
  const uint8_t h3[] = {0x18, 0x02, 0x01, 0x00};
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_decode(h0, 4, 4, 1, o32, &used, &err));
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_decode(h1, 4, 4, 1, o32, &used, &err));
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_decode(h2, 4, 4, 1, o32, &used, &err));
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_decode(h3, 4, 4, 1, o32, &used, &err));
  /* A single value has no blocks. */
  const uint8_t one[] = {0x80, 0x01, 0x04, 0x01, 0x07};
  JGT_OK(jgi_pq_delta_decode(one, sizeof one, 4, 1, o32, &used, &jgt_err_));
  assert_int_equal(o32[0], -4); /* zigzag 7 */
  assert_int_equal(used, 5);
  /* A ULEB128 longer than 64 bits. */
  const uint8_t long_uleb[] = {0x80, 0x01, 0x04, 0x01, 0xFF, 0xFF, 0xFF,
                               0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_decode(long_uleb, sizeof long_uleb, 8, 1, o64, &used, &err));
  JGT_STATUS(JG_EINVAL, jgi_pq_delta_decode(one, sizeof one, 2, 1, o32, &used, &err));
}

/* Round trips over random INT32 and INT64 sequences, including the extremes and jumps across
 * the whole range (deltas that wrap). */
static void test_delta_round_trip(void **state) {
  (void)state;
  rng_seed(5);
  enum { MAXN = 2000 };
  int32_t *v32 = malloc(MAXN * sizeof *v32), *b32 = malloc(MAXN * sizeof *b32);
  int64_t *v64 = malloc(MAXN * sizeof *v64), *b64 = malloc(MAXN * sizeof *b64);
  assert_true(v32 && b32 && v64 && b64);
  const int32_t e32[] = {INT32_MIN, INT32_MAX, 0, -1, 1};
  const int64_t e64[] = {INT64_MIN, INT64_MAX, 0, -1, 1};
  const int64_t counts[] = {0, 1, 2, 8, 33, 127, 128, 129, 130, 257, 1000, 1999};
  for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ++ci) {
    for (int regime = 0; regime < 6; ++regime) {
      const int64_t n = counts[ci];
      int64_t walk = (int64_t)rng_next();
      for (int64_t i = 0; i < n; ++i) {
        switch (regime) {
          case 0: /* extremes only: every delta wraps or is 0 */
            v32[i] = e32[rng_below(5)];
            v64[i] = e64[rng_below(5)];
            break;
          case 1: /* uniform over the whole range */
            v32[i] = (int32_t)(uint32_t)rng_next();
            v64[i] = (int64_t)rng_next();
            break;
          case 2: /* a random walk with small steps */
            walk += (int64_t)rng_below(200) - 100;
            v32[i] = (int32_t)(uint32_t)(uint64_t)walk;
            v64[i] = walk;
            break;
          case 5: /* deltas of every magnitude: miniblocks of many bit widths */
            v32[i] = (int32_t)(uint32_t)((uint64_t)rng_next() >> rng_below(64));
            v64[i] = (int64_t)((uint64_t)rng_next() >> rng_below(64));
            break;
          case 3: /* constant */
            v32[i] = 123456;
            v64[i] = -((int64_t)1 << 40);
            break;
          default: /* alternate MIN, MAX */
            v32[i] = i % 2 ? INT32_MAX : INT32_MIN;
            v64[i] = i % 2 ? INT64_MAX : INT64_MIN;
            break;
        }
      }
      jgi_pq_buf b = {0};
      size_t used = 0;
      JGT_OK(jgi_pq_delta_encode(v32, 4, n, &b, &jgt_err_));
      uint8_t *c = exact_copy(b.data, b.size);
      JGT_OK(jgi_pq_delta_decode(c, b.size, 4, n, b32, &used, &jgt_err_));
      assert_memory_equal(b32, v32, (size_t)n * 4);
      assert_int_equal(used, b.size);
      free(c);
      b.size = 0;
      JGT_OK(jgi_pq_delta_encode(v64, 8, n, &b, &jgt_err_));
      c = exact_copy(b.data, b.size);
      JGT_OK(jgi_pq_delta_decode(c, b.size, 8, n, b64, &used, &jgt_err_));
      assert_memory_equal(b64, v64, (size_t)n * 8);
      assert_int_equal(used, b.size);
      /* A prefix of the values, *used still the whole stream. */
      if (n > 1) {
        JGT_OK(jgi_pq_delta_decode(c, b.size, 8, n / 2, b64, &used, &jgt_err_));
        assert_memory_equal(b64, v64, (size_t)(n / 2) * 8);
        assert_int_equal(used, b.size);
      }
      free(c);
      jgi_pq_buf_reset(&b);
    }
  }
  free(v32);
  free(b32);
  free(v64);
  free(b64);
}

/* Miniblocks of every bit width: deltas alternating between the type's minimum m and
 * m + 2^w - 1 make the minimum delta m and the relative deltas 0 and 2^w - 1, which take exactly
 * w bits (0..32 for INT32, 0..64 for INT64). The bit width byte of the first miniblock is checked
 * at its place after the header (128, 4, count 129, first value 0: 6 bytes) and the min delta
 * (zigzag of the minimum: 5 bytes for INT32, 10 for INT64). */
static void test_delta_every_width(void **state) {
  (void)state;
  enum { N = 129 };
  uint32_t v32[N], b32[N];
  uint64_t v64[N], b64[N];
  for (int w = 0; w <= 64; ++w) {
    const uint64_t span64 = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    v64[0] = 0;
    for (int i = 1; i < N; ++i) {
      v64[i] = v64[i - 1] + (uint64_t)INT64_MIN + (i % 2 ? span64 : 0);
    }
    jgi_pq_buf b = {0};
    size_t used = 0;
    JGT_OK(jgi_pq_delta_encode(v64, 8, N, &b, &jgt_err_));
    assert_int_equal(b.data[6 + 10], w);
    JGT_OK(jgi_pq_delta_decode(b.data, b.size, 8, N, b64, &used, &jgt_err_));
    assert_memory_equal(b64, v64, sizeof v64);
    assert_int_equal(used, b.size);
    if (w <= 32) {
      const uint32_t span32 = w == 32 ? UINT32_MAX : (uint32_t)((UINT64_C(1) << w) - 1);
      v32[0] = 0;
      for (int i = 1; i < N; ++i) {
        v32[i] = v32[i - 1] + (uint32_t)INT32_MIN + (i % 2 ? span32 : 0);
      }
      b.size = 0;
      JGT_OK(jgi_pq_delta_encode(v32, 4, N, &b, &jgt_err_));
      assert_int_equal(b.data[6 + 5], w);
      JGT_OK(jgi_pq_delta_decode(b.data, b.size, 4, N, b32, &used, &jgt_err_));
      assert_memory_equal(b32, v32, sizeof v32);
      assert_int_equal(used, b.size);
    }
    jgi_pq_buf_reset(&b);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Encodings.md: "Hello", "World", "Foobar", "ABCDEF" are DeltaEncoding(5, 5, 6, 6) then
 * "HelloWorldFoobarABCDEF". With blocks of 8 in 1 miniblock: header 8, 1, 4, zigzag(5) = 0x0A;
 * deltas 0, 1, 0, minimum 0 (zigzag 0); relative 0, 1, 0 on 1 bit: 00000010b = 0x02. */
static const uint8_t spec_dlba[] = {0x08, 0x01, 0x04, 0x0A, 0x00, 0x01, 0x02, 'H', 'e', 'l',
                                    'l',  'o',  'W',  'o',  'r',  'l',  'd',  'F', 'o', 'o',
                                    'b',  'a',  'r',  'A',  'B',  'C',  'D',  'E', 'F'};

static void test_delta_length_spec(void **state) {
  (void)state;
  int64_t off[5] = {0};
  jgi_pq_buf b = {0};
  size_t used = 0;
  JGT_OK(jgi_pq_delta_length_decode(spec_dlba, sizeof spec_dlba, 4, off, &b, &used, &jgt_err_));
  const int64_t want[5] = {0, 5, 10, 16, 22};
  assert_memory_equal(off, want, sizeof want);
  assert_bytes(b.data, b.size, (const uint8_t *)"HelloWorldFoobarABCDEF", 22);
  assert_int_equal(used, sizeof spec_dlba);
  /* Our encoder (blocks of 128 in 4 miniblocks): header 128, 4, 4, zigzag(5); block: zigzag(0),
   * widths 1 0 0 0, 32 bits of the first miniblock (0x02 0 0 0), then the bytes. */
  jgi_pq_buf e = {0};
  JGT_OK(jgi_pq_delta_length_encode(want, b.data, 4, &e, &jgt_err_));
  const uint8_t head[] = {0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01,
                          0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00};
  assert_int_equal(e.size, sizeof head + 22);
  assert_memory_equal(e.data, head, sizeof head);
  assert_memory_equal(e.data + sizeof head, "HelloWorldFoobarABCDEF", 22);
  jgi_pq_buf_reset(&e);
  /* Lengths adding up past the data. */
  jg_error err;
  b.size = 0;
  JGT_STATUS(JG_ECORRUPT,
             jgi_pq_delta_length_decode(spec_dlba, sizeof spec_dlba - 1, 4, off, &b, &used, &err));
  jgi_pq_buf_reset(&b);
}

/* Encodings.md: "axis", "axle", "babble", "babyhood" are DeltaEncoding(0, 2, 0, 3) (prefix
 * lengths), DeltaEncoding(4, 2, 6, 5) (suffix lengths), "axislebabbleyhood". Blocks of 8 in 1
 * miniblock:
 *   prefixes: header 8, 1, 4, zigzag(0) = 0; deltas 2, -2, 3, minimum -2 (zigzag 3); relative 4,
 *     0, 5 on 3 bits: bits 0-2 = 100, bits 6-8 = 101: bytes 0x44 0x01 0x00;
 *   suffixes: header 8, 1, 4, zigzag(4) = 8; deltas -2, 4, -1, minimum -2 (zigzag 3); relative
 *     0, 6, 1 on 3 bits: bits 3-5 = 110, bits 6-8 = 001: bytes 0x70 0x00 0x00. */
static const uint8_t spec_dba[] = {0x08, 0x01, 0x04, 0x00, 0x03, 0x03, 0x44, 0x01, 0x00,
                                   0x08, 0x01, 0x04, 0x08, 0x03, 0x03, 0x70, 0x00, 0x00,
                                   'a',  'x',  'i',  's',  'l',  'e',  'b',  'a',  'b',
                                   'b',  'l',  'e',  'y',  'h',  'o',  'o',  'd'};

static void test_delta_bytes_spec(void **state) {
  (void)state;
  int64_t off[5] = {100};
  jgi_pq_buf b = {0};
  size_t used = 0;
  JGT_OK(jgi_pq_delta_bytes_decode(spec_dba, sizeof spec_dba, 4, off, &b, &used, &jgt_err_));
  const int64_t want[5] = {100, 104, 108, 114, 122};
  assert_memory_equal(off, want, sizeof want);
  assert_bytes(b.data, b.size, (const uint8_t *)"axisaxlebabblebabyhood", 22);
  assert_int_equal(used, sizeof spec_dba);
  /* Encoding gives a stream that ends with the spec's suffix bytes and decodes back. */
  const int64_t off0[5] = {0, 4, 8, 14, 22};
  jgi_pq_buf e = {0};
  JGT_OK(jgi_pq_delta_bytes_encode(off0, b.data, 4, &e, &jgt_err_));
  assert_true(e.size > 17);
  assert_memory_equal(e.data + e.size - 17, "axislebabbleyhood", 17);
  jgi_pq_buf b2 = {0};
  int64_t off2[5] = {0};
  JGT_OK(jgi_pq_delta_bytes_decode(e.data, e.size, 4, off2, &b2, &used, &jgt_err_));
  assert_memory_equal(off2, off0, sizeof off0);
  assert_bytes(b2.data, b2.size, b.data, b.size);
  assert_int_equal(used, e.size);
  /* A prefix longer than the value before it: the first prefix 1 (zigzag 2). */
  uint8_t bad[sizeof spec_dba];
  memcpy(bad, spec_dba, sizeof bad);
  bad[3] = 0x02;
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_delta_bytes_decode(bad, sizeof bad, 4, off2, &b2, &used, &err));
  JGT_CONTAINS(err.message, "prefix");
  jgi_pq_buf_reset(&b);
  jgi_pq_buf_reset(&b2);
  jgi_pq_buf_reset(&e);
}

/* Random byte arrays with shared prefixes and empty values through the three byte-array
 * encodings. */
static void make_strings(int64_t n, int64_t *off, jgi_pq_buf *bytes) {
  off[0] = 0;
  bytes->size = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int kind = (int)rng_below(4);
    size_t len = kind == 0 ? 0 : (size_t)rng_below(kind == 3 ? 300 : 12);
    size_t keep = 0;
    if (kind == 2 && i > 0) { /* share a prefix with the previous value */
      const size_t prev = (size_t)(off[i] - off[i - 1]);
      keep = prev == 0 ? 0 : (size_t)rng_below(prev + 1);
      if (len < keep) len = keep + (size_t)rng_below(4);
    }
    JGT_OK(jgi_pq_buf_reserve(bytes, len, &jgt_err_));
    for (size_t k = 0; k < len; ++k) {
      bytes->data[bytes->size + k] =
          k < keep ? bytes->data[off[i - 1] + (int64_t)k] : (uint8_t)('a' + rng_below(3));
    }
    bytes->size += len;
    off[i + 1] = off[i] + (int64_t)len;
  }
}

static void test_bytes_round_trip(void **state) {
  (void)state;
  rng_seed(7);
  enum { MAXN = 700 };
  int64_t *off = malloc((MAXN + 1) * sizeof *off), *back = malloc((MAXN + 1) * sizeof *back);
  assert_non_null(off);
  assert_non_null(back);
  const int64_t counts[] = {0, 1, 2, 7, 128, 129, 699};
  for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ++ci) {
    const int64_t n = counts[ci];
    jgi_pq_buf src = {0}, enc = {0}, dec = {0};
    make_strings(n, off, &src);
    for (int kind = 0; kind < 3; ++kind) {
      enc.size = 0;
      dec.size = 0;
      if (kind == 0) JGT_OK(jgi_pq_plain_encode_bytes(off, src.data, n, &enc, &jgt_err_));
      if (kind == 1) JGT_OK(jgi_pq_delta_length_encode(off, src.data, n, &enc, &jgt_err_));
      if (kind == 2) JGT_OK(jgi_pq_delta_bytes_encode(off, src.data, n, &enc, &jgt_err_));
      uint8_t *c = exact_copy(enc.data, enc.size);
      size_t used = 0;
      back[0] = 0;
      if (kind == 0)
        JGT_OK(jgi_pq_plain_decode_bytes(c, enc.size, n, back, &dec, &used, &jgt_err_));
      if (kind == 1)
        JGT_OK(jgi_pq_delta_length_decode(c, enc.size, n, back, &dec, &used, &jgt_err_));
      if (kind == 2)
        JGT_OK(jgi_pq_delta_bytes_decode(c, enc.size, n, back, &dec, &used, &jgt_err_));
      assert_memory_equal(back, off, (size_t)(n + 1) * sizeof *off);
      assert_int_equal(dec.size, src.size);
      if (src.size > 0) assert_memory_equal(dec.data, src.data, src.size);
      assert_int_equal(used, enc.size);
      free(c);
    }
    jgi_pq_buf_reset(&src);
    jgi_pq_buf_reset(&enc);
    jgi_pq_buf_reset(&dec);
  }
  free(off);
  free(back);
}

/* ------------------------------------------------------------------------------------------ */
/* BYTE_STREAM_SPLIT                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* Encodings.md: three 4-byte values AA BB CC DD, 00 11 22 33, A3 B4 C5 D6 become
 * AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6. */
static void test_byte_stream_split(void **state) {
  (void)state;
  const uint8_t vals[12] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  const uint8_t split[12] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4,
                             0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  uint8_t out[12];
  JGT_OK(jgi_pq_byte_stream_split_decode(split, 12, 4, 3, out, &jgt_err_));
  assert_memory_equal(out, vals, 12);
  jgi_pq_buf b = {0};
  JGT_OK(jgi_pq_byte_stream_split_encode(vals, 4, 3, &b, &jgt_err_));
  assert_bytes(b.data, b.size, split, 12);
  jgi_pq_buf_reset(&b);
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_byte_stream_split_decode(split, 11, 4, 3, out, &err));
  JGT_STATUS(JG_ECORRUPT, jgi_pq_byte_stream_split_decode(split, 12, 4, 2, out, &err));

  /* Round trips at widths 2, 4, 8, 16, checked against the definition: byte k of value i is at
   * k * count + i. */
  rng_seed(9);
  const int widths[] = {2, 4, 8, 16, 3};
  const int64_t counts[] = {0, 1, 5, 4097, 9000};
  for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; ++wi) {
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ++ci) {
      const int w = widths[wi];
      const int64_t n = counts[ci];
      const size_t bytes = (size_t)n * (size_t)w;
      uint8_t *v = malloc(bytes + 1), *back = malloc(bytes + 1);
      assert_true(v && back);
      for (size_t i = 0; i < bytes; ++i) v[i] = (uint8_t)rng_next();
      JGT_OK(jgi_pq_byte_stream_split_encode(v, w, n, &b, &jgt_err_));
      assert_int_equal(b.size, bytes);
      for (int64_t i = 0; i < n; ++i) {
        for (int k = 0; k < w; ++k) assert_int_equal(b.data[k * n + i], v[i * w + k]);
      }
      uint8_t *c = exact_copy(b.data, b.size);
      JGT_OK(jgi_pq_byte_stream_split_decode(c, bytes, w, n, back, &jgt_err_));
      if (bytes > 0) assert_memory_equal(back, v, bytes);
      free(c);
      free(v);
      free(back);
      jgi_pq_buf_reset(&b);
    }
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Truncated, flipped and garbage input                                                        */
/* ------------------------------------------------------------------------------------------ */

/* Runs one decoder over p[0..n) (an exact heap copy) for `count` values; returns its status,
 * which must be JG_OK or JG_ECORRUPT. */
static jg_status run_decoder(int which, const uint8_t *p, size_t n, int64_t count) {
  uint8_t *c = exact_copy(p, n);
  void *out = malloc((size_t)(count + 1) * 16);
  int64_t *off = malloc((size_t)(count + 1) * sizeof *off);
  assert_non_null(out);
  assert_non_null(off);
  off[0] = 0;
  jgi_pq_buf b = {0};
  size_t used = 0;
  jg_error err;
  jg_error_clear(&err);
  jg_status st = JG_OK;
  switch (which) {
    case 0:
      st = jgi_pq_rle_decode(c, n, 3, count, out, &used, &err);
      break;
    case 1:
      st = jgi_pq_rle_decode(c, n, 17, count, out, &used, &err);
      break;
    case 2:
      st = jgi_pq_rle_decode_levels(c, n, 2, count, out, &used, &err);
      break;
    case 3:
      st = jgi_pq_bitpacked_decode_levels(c, n, 3, count, out, &used, &err);
      break;
    case 4:
      st = jgi_pq_delta_decode(c, n, 4, count, out, &used, &err);
      break;
    case 5:
      st = jgi_pq_delta_decode(c, n, 8, count, out, &used, &err);
      break;
    case 6:
      st = jgi_pq_delta_length_decode(c, n, count, off, &b, &used, &err);
      break;
    case 7:
      st = jgi_pq_delta_bytes_decode(c, n, count, off, &b, &used, &err);
      break;
    case 8:
      st = jgi_pq_plain_decode_bytes(c, n, count, off, &b, &used, &err);
      break;
    case 9:
      st = jgi_pq_plain_decode_fixed(c, n, 12, count, out, &used, &err);
      break;
    case 10:
      st = jgi_pq_plain_decode_bool(c, n, count, out, &used, &err);
      break;
    default:
      st = jgi_pq_byte_stream_split_decode(c, n, 8, count, out, &err);
      break;
  }
  if (st != JG_OK && st != JG_ECORRUPT) {
    print_error("decoder %d: %s: %s\n", which, jg_status_name(st), err.message);
  }
  assert_true(st == JG_OK || st == JG_ECORRUPT);
  if (st == JG_OK && which != 11) assert_true(used <= n);
  if (st != JG_OK) assert_true(err.message[0] != '\0');
  jgi_pq_buf_reset(&b);
  free(off);
  free(out);
  free(c);
  return st;
}

#define N_DECODERS 12

/* A valid stream for each decoder, with its value count. */
static void valid_stream(int which, jgi_pq_buf *b, int64_t *count) {
  rng_seed(100 + (uint64_t)which);
  b->size = 0;
  enum { N = 300 };
  uint32_t u[N];
  int64_t off[N + 1];
  *count = N;
  switch (which) {
    case 0:
    case 1:
    case 2: {
      const int w = which == 0 ? 3 : which == 1 ? 17 : 2;
      fill_runs(u, N, w);
      JGT_OK(jgi_pq_rle_encode(u, N, w, b, &jgt_err_));
      break;
    }
    case 3: /* any bytes are valid BIT_PACKED levels of width 3: ceil(3 * N / 8) of them */
      JGT_OK(jgi_pq_buf_reserve(b, (3 * N + 7) / 8, &jgt_err_));
      for (int i = 0; i < (3 * N + 7) / 8; ++i) b->data[i] = (uint8_t)rng_next();
      b->size = (3 * N + 7) / 8;
      break;
    case 4:
    case 5: {
      int64_t v[N];
      for (int i = 0; i < N; ++i) v[i] = (int64_t)rng_next() >> (int)rng_below(64);
      if (which == 4) {
        int32_t v32[N];
        for (int i = 0; i < N; ++i) v32[i] = (int32_t)v[i];
        JGT_OK(jgi_pq_delta_encode(v32, 4, N, b, &jgt_err_));
      } else {
        JGT_OK(jgi_pq_delta_encode(v, 8, N, b, &jgt_err_));
      }
      break;
    }
    case 6:
    case 7:
    case 8: {
      jgi_pq_buf s = {0};
      make_strings(N, off, &s);
      if (which == 6) JGT_OK(jgi_pq_delta_length_encode(off, s.data, N, b, &jgt_err_));
      if (which == 7) JGT_OK(jgi_pq_delta_bytes_encode(off, s.data, N, b, &jgt_err_));
      if (which == 8) JGT_OK(jgi_pq_plain_encode_bytes(off, s.data, N, b, &jgt_err_));
      jgi_pq_buf_reset(&s);
      break;
    }
    default: {
      const size_t bytes = which == 9 ? 12 * N : which == 10 ? (N + 7) / 8 : 8 * N;
      JGT_OK(jgi_pq_buf_reserve(b, bytes, &jgt_err_));
      for (size_t i = 0; i < bytes; ++i) b->data[i] = (uint8_t)rng_next();
      b->size = bytes;
      break;
    }
  }
}

static void test_truncated(void **state) {
  (void)state;
  for (int which = 0; which < N_DECODERS; ++which) {
    jgi_pq_buf b = {0};
    int64_t count;
    valid_stream(which, &b, &count);
    assert_int_equal(run_decoder(which, b.data, b.size, count), JG_OK);
    int corrupt = 0;
    for (size_t n = 0; n < b.size; ++n) corrupt += run_decoder(which, b.data, n, count) != JG_OK;
    /* Streams whose values need every byte fail on every prefix. */
    if (which >= 3) assert_int_equal(corrupt, (int)b.size);
    jgi_pq_buf_reset(&b);
  }
}

static void test_flipped_and_garbage(void **state) {
  (void)state;
  for (int which = 0; which < N_DECODERS; ++which) {
    jgi_pq_buf b = {0};
    int64_t count;
    valid_stream(which, &b, &count);
    rng_seed(1000 + (uint64_t)which);
    for (int rep = 0; rep < 300; ++rep) {
      uint8_t *c = exact_copy(b.data, b.size);
      const int flips = 1 + (int)rng_below(4);
      for (int f = 0; f < flips && b.size > 0; ++f) {
        c[rng_below(b.size)] ^= (uint8_t)(1u << rng_below(8));
      }
      (void)run_decoder(which, c, b.size, count);
      free(c);
    }
    for (int rep = 0; rep < 300; ++rep) {
      const size_t n = (size_t)rng_below(200);
      uint8_t g[200];
      for (size_t i = 0; i < n; ++i) g[i] = (uint8_t)rng_next();
      (void)run_decoder(which, g, n, (int64_t)rng_below(400));
    }
    jgi_pq_buf_reset(&b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bit_width),           cmocka_unit_test(test_rle_spec_bitpacked),
      cmocka_unit_test(test_rle_spec_runs),       cmocka_unit_test(test_rle_short_last_group),
      cmocka_unit_test(test_rle_bad_widths),      cmocka_unit_test(test_bitpacked_spec),
      cmocka_unit_test(test_rle_round_trip),      cmocka_unit_test(test_plain),
      cmocka_unit_test(test_dict_gather),         cmocka_unit_test(test_delta_spec),
      cmocka_unit_test(test_delta_bad),           cmocka_unit_test(test_delta_round_trip),
      cmocka_unit_test(test_delta_every_width),   cmocka_unit_test(test_delta_length_spec),
      cmocka_unit_test(test_delta_bytes_spec),    cmocka_unit_test(test_bytes_round_trip),
      cmocka_unit_test(test_byte_stream_split),   cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_flipped_and_garbage),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
