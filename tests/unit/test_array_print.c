/* test_array_print.c: jg_array_type_string (Awkward's type notation for every node kind, nesting,
 * options of lists, tuples, quoted field names, empty arrays) and jg_array_to_string (numbers of
 * every dtype, None, records, tuples, sliced and strided buffers, offsets not at 0, empty lists
 * with any start, eliding to a width, invalid data), with the buffer / needed contract of both.
 * Expected strings are written by hand from Awkward's printing rules. */
#include <math.h>

#include "internal/jgi_array.h"
#include "jg_test.h"
#include "jgt_array_cases.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Asserts the type string of `a` (released). */
static void expect_type(jg_array *a, const char *expected) {
  char buf[512];
  size_t needed = 0;
  memset(buf, 'X', sizeof buf);
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, &needed, &jgt_err_));
  assert_string_equal(buf, expected);
  assert_int_equal(needed, strlen(expected));
  jg_array_release(a);
}

/* Asserts the printout of `a` (released) at `width`. */
static void expect_str(jg_array *a, size_t width, const char *expected) {
  char buf[1024];
  size_t needed = 0;
  memset(buf, 'X', sizeof buf);
  JGT_OK(jg_array_to_string(a, width, buf, sizeof buf, &needed, &jgt_err_));
  assert_string_equal(buf, expected);
  assert_int_equal(needed, strlen(expected));
  jg_array_release(a);
}

static jg_array *f64(const double *v, jg_len n) {
  return jgt_numeric(v, n, JG_DTYPE_FLOAT64);
}

/* [[1.1, 2.2], [], [3.3]] */
static jg_array *sample_lists(void) {
  return JGT_OFFSETS(f64((const double[]){1.1, 2.2, 3.3}, 3), 0, 2, 2, 3);
}

/* {x: [1, 4], y: [[2, 3], []]} */
static jg_array *sample_records(void) {
  jg_array *fields[2] = {jgt_i64(JGT_I64(1, 4), 2),
                         JGT_OFFSETS(jgt_i64(JGT_I64(2, 3), 2), 0, 2, 2)};
  static const char *const names[2] = {"x", "y"};
  return jgt_record(2, fields, names, -1);
}

/* A numeric array over a 2-D (or more) copy of `values`. */
static jg_array *numeric_nd(const void *values, jg_len nbuf, jg_dtype dtype, int ndim,
                            const jg_len *shape, const jg_stride *strides, jg_offset offset) {
  return jgt_numeric_view(jgt_view_ex(values, nbuf, dtype, ndim, shape, strides, offset));
}

/* A cuda:0 numeric array over a fake device pointer (never dereferenced); *keep gets the
 * borrowed buffer to release after the array. */
static jg_array *fake_cuda_numeric(int64_t *fake, jg_len n, jg_buffer **keep) {
  JGT_OK(jg_buffer_wrap_borrowed(fake, (size_t)n * 8, keep, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_pointer(&v, fake, (jg_device){JG_DEVICE_CUDA, 0}, &l, JG_DTYPE_INT64, true,
                              &jgt_err_));
  v.buffer = *keep;
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  return a;
}

/* ------------------------------------------------------------------------------------------ */
/* Type strings                                                                                */
/* ------------------------------------------------------------------------------------------ */

static void test_type_numeric(void **state) {
  (void)state;
  static const struct {
    jg_dtype dtype;
    const char *type;
  } cases[] = {
      {JG_DTYPE_BOOL, "2 * bool"},       {JG_DTYPE_INT8, "2 * int8"},
      {JG_DTYPE_INT16, "2 * int16"},     {JG_DTYPE_INT32, "2 * int32"},
      {JG_DTYPE_INT64, "2 * int64"},     {JG_DTYPE_UINT8, "2 * uint8"},
      {JG_DTYPE_UINT16, "2 * uint16"},   {JG_DTYPE_UINT32, "2 * uint32"},
      {JG_DTYPE_UINT64, "2 * uint64"},   {JG_DTYPE_FLOAT16, "2 * float16"},
      {JG_DTYPE_FLOAT32, "2 * float32"}, {JG_DTYPE_FLOAT64, "2 * float64"},
  };
  const uint64_t zeros[2] = {0, 0};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    expect_type(jgt_numeric(zeros, 2, cases[k].dtype), cases[k].type);
  }
  /* Inner axes are regular dimensions. */
  const double d[24] = {0};
  expect_type(numeric_nd(d, 6, JG_DTYPE_FLOAT64, 2, (jg_len[]){2, 3}, NULL, 0), "2 * 3 * float64");
  expect_type(numeric_nd(d, 24, JG_DTYPE_INT32, 3, (jg_len[]){2, 3, 4}, NULL, 0),
              "2 * 3 * 4 * int32");
  expect_type(numeric_nd(d, 0, JG_DTYPE_FLOAT64, 2, (jg_len[]){0, 5}, NULL, 0), "0 * 5 * float64");
  expect_type(jgt_iota(0), "0 * int64");
  expect_type(jgt_vc_empty(), "0 * unknown");
}

static void test_type_lists(void **state) {
  (void)state;
  expect_type(JGT_OFFSETS(jgt_numeric((const float[]){1, 2, 3}, 3, JG_DTYPE_FLOAT32), 0, 1, 1, 3),
              "3 * var * float32");
  expect_type(jgt_list(JGT_I64(0, 1), JGT_I64(1, 2), 2, 2, JG_DTYPE_INT64, jgt_iota(2)),
              "2 * var * int64");
  expect_type(jgt_regular(jgt_iota(6), 3, -1), "2 * 3 * int64");
  expect_type(jgt_regular(jgt_iota(0), 0, 4), "4 * 0 * int64");
  expect_type(JGT_OFFSETS(JGT_OFFSETS(jgt_iota(3), 0, 1, 3), 0, 2), "1 * var * var * int64");
  expect_type(jgt_regular(JGT_OFFSETS(jgt_iota(3), 0, 1, 1, 3), 3, -1), "1 * 3 * var * int64");
  expect_type(JGT_OFFSETS(jgt_vc_empty(), 0, 0), "1 * var * unknown");
  /* Sliced: only the outer length changes. */
  expect_type(jgt_slice(sample_lists(), 1, 3), "2 * var * float64");
  expect_type(jgt_vc_offsets_length0(), "0 * var * int64");
}

static void test_type_records(void **state) {
  (void)state;
  expect_type(sample_records(), "2 * {x: int64, y: var * int64}");
  {
    jg_array *fields[2] = {
        jgt_iota(2), JGT_OFFSETS(jgt_numeric((const float[]){1}, 1, JG_DTYPE_FLOAT32), 0, 0, 1)};
    expect_type(jgt_record(2, fields, NULL, -1), "2 * (int64, var * float32)");
  }
  {
    /* 1000 * var * {pt: float32, eta: float32} */
    float *v = calloc(1000, sizeof *v);
    int64_t *off = malloc(1001 * sizeof *off);
    assert_non_null(v);
    assert_non_null(off);
    for (int k = 0; k <= 1000; k++) off[k] = k;
    jg_array *fields[2] = {jgt_numeric(v, 1000, JG_DTYPE_FLOAT32),
                           jgt_numeric(v, 1000, JG_DTYPE_FLOAT32)};
    static const char *const names[2] = {"pt", "eta"};
    expect_type(jgt_offsets64(off, 1001, jgt_record(2, fields, names, -1)),
                "1000 * var * {pt: float32, eta: float32}");
    free(v);
    free(off);
  }
  expect_type(jgt_record(0, NULL, NULL, 5), "5 * ()");
  {
    /* Nested records and a record in a tuple. */
    jg_array *inner[1] = {jgt_iota(2)};
    static const char *const in_names[1] = {"z"};
    jg_array *fields[2] = {jgt_record(1, inner, in_names, -1), jgt_iota(2)};
    jg_array *t = jgt_record(2, fields, NULL, -1);
    jg_array *outer[1] = {t};
    static const char *const out_names[1] = {"t"};
    expect_type(jgt_record(1, outer, out_names, -1), "2 * {t: ({z: int64}, int64)}");
  }
}

static void test_type_quoted_names(void **state) {
  (void)state;
  static const char *const names[9] = {"my field",         "1x",      "_ok1",
                                       "\xc3\xa9",         "q\"b\\s", "tab\t",
                                       "\xf0\x9f\x98\x80", "\xff",    "c\x01"};
  jg_array *fields[9];
  for (int k = 0; k < 9; k++) fields[k] = jgt_iota(1);
  expect_type(jgt_record(9, fields, names, -1),
              "1 * {\"my field\": int64, \"1x\": int64, _ok1: int64, \"\\u00e9\": int64, "
              "\"q\\\"b\\\\s\": int64, \"tab\\t\": int64, \"\\ud83d\\ude00\": int64, "
              "\"\\ufffd\": int64, \"c\\u0001\": int64}");
}

static void test_type_options(void **state) {
  (void)state;
  const int8_t mask[3] = {1, 0, 1};
  expect_type(jgt_byte_masked(mask, 3, true, jgt_iota(3)), "3 * ?int64");
  expect_type(
      jgt_bit_masked((const uint8_t[]){5}, 1, true, true, 3, f64((const double[]){1, 2, 3}, 3)),
      "3 * ?float64");
  expect_type(jgt_indexed(JGT_I64(0, -1), 2, JG_DTYPE_INT64, jgt_iota(1)), "2 * ?int64");
  /* Options of lists and regular types print as option[...]. */
  expect_type(jgt_indexed(JGT_I64(0, -1), 2, JG_DTYPE_INT64, JGT_OFFSETS(jgt_iota(2), 0, 2)),
              "2 * option[var * int64]");
  expect_type(jgt_byte_masked(
                  mask, 3, true,
                  jgt_list(JGT_I64(0, 0, 0), JGT_I64(0, 0, 0), 3, 3, JG_DTYPE_INT64, jgt_iota(0))),
              "3 * option[var * int64]");
  expect_type(jgt_byte_masked(mask, 2, true, jgt_regular(jgt_iota(6), 3, -1)),
              "2 * option[3 * int64]");
  const double d[6] = {0};
  expect_type(jgt_byte_masked(mask, 2, true,
                              numeric_nd(d, 6, JG_DTYPE_FLOAT64, 2, (jg_len[]){2, 3}, NULL, 0)),
              "2 * option[3 * float64]");
  /* Other contents get "?". */
  {
    jg_array *fields[1] = {jgt_iota(2)};
    static const char *const names[1] = {"x"};
    expect_type(jgt_byte_masked(mask, 2, true, jgt_record(1, fields, names, -1)),
                "2 * ?{x: int64}");
  }
  {
    jg_array *fields[2] = {jgt_iota(2), jgt_numeric((const uint8_t[]){1, 0}, 2, JG_DTYPE_BOOL)};
    expect_type(jgt_byte_masked(mask, 2, true, jgt_record(2, fields, NULL, -1)),
                "2 * ?(int64, bool)");
  }
  expect_type(jgt_indexed(JGT_I64(0), 1, JG_DTYPE_INT64,
                          jgt_indexed(JGT_I64(-1), 1, JG_DTYPE_INT64, jgt_iota(1))),
              "1 * ??int64");
  expect_type(jgt_indexed(JGT_I64(-1), 1, JG_DTYPE_INT64, jgt_vc_empty()), "1 * ?unknown");
  /* A list of options. */
  expect_type(JGT_OFFSETS(jgt_byte_masked(mask, 3, true, jgt_iota(3)), 0, 3), "1 * var * ?int64");
}

static void test_type_buffer_contract(void **state) {
  (void)state;
  jg_array *a = JGT_OFFSETS(jgt_iota(3), 0, 1, 1, 3); /* "3 * var * int64", 15 characters */
  char buf[32];
  size_t needed = 0;
  memset(buf, 'X', sizeof buf);
  JGT_OK(jg_array_type_string(a, buf, 5, &needed, &jgt_err_));
  assert_string_equal(buf, "3 * ");
  assert_int_equal(needed, 15);
  assert_int_equal(buf[5], 'X'); /* nothing written past size */
  JGT_OK(jg_array_type_string(a, buf, 1, &needed, &jgt_err_));
  assert_string_equal(buf, "");
  JGT_OK(jg_array_type_string(a, buf, 16, &needed, &jgt_err_));
  assert_string_equal(buf, "3 * var * int64");
  needed = 0;
  JGT_OK(jg_array_type_string(a, NULL, 0, &needed, &jgt_err_));
  assert_int_equal(needed, 15);
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "3 * var * int64");
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_type_string(a, NULL, 4, &needed, &err));
  JGT_CONTAINS(err.message, "buf is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_type_string(NULL, buf, sizeof buf, &needed, &err));
  JGT_CONTAINS(err.message, "a is NULL");
  /* A corrupt node is refused rather than followed. */
  jg_array *child = a->children[0];
  a->children[0] = NULL;
  JGT_STATUS(JG_EINVAL, jg_array_type_string(a, buf, sizeof buf, &needed, &err));
  JGT_CONTAINS(err.message, "list-offset node without its content");
  assert_string_equal(buf, "");
  a->children[0] = child;
  jg_array_release(a);
  /* Types need no buffer reads: a cuda array has one too. */
  int64_t fake[2] = {0, 0};
  jg_buffer *keep = NULL;
  jg_array *c = fake_cuda_numeric(fake, 2, &keep);
  expect_type(c, "2 * int64");
  jg_buffer_release(keep);
}

/* ------------------------------------------------------------------------------------------ */
/* Printouts                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void test_str_basic(void **state) {
  (void)state;
  expect_str(sample_lists(), 0, "[[1.1, 2.2], [], [3.3]]");
  /* Integral floats print without an exponent below 1e16, as NumPy and Awkward do. */
  expect_str(f64((const double[]){10.0, 11.0, 250.0, 1e15, 1e16, 0.5}, 6), 0,
             "[10, 11, 250, 1000000000000000, 1e+16, 0.5]");
  expect_str(jgt_vc_empty(), 0, "[]");
  expect_str(jgt_iota(0), 0, "[]");
  expect_str(jgt_vc_offsets_length0(), 0, "[]");
  expect_str(JGT_OFFSETS(JGT_OFFSETS(jgt_iota(3), 0, 1, 1, 3), 0, 2, 3), 0,
             "[[[0], []], [[1, 2]]]");
  expect_str(jgt_list(JGT_I64(3, 0), JGT_I64(5, 2), 2, 2, JG_DTYPE_INT64, jgt_iota(5)), 0,
             "[[3, 4], [0, 1]]");
  expect_str(jgt_regular(jgt_iota(6), 3, -1), 0, "[[0, 1, 2], [3, 4, 5]]");
  expect_str(jgt_regular(jgt_iota(0), 0, 2), 0, "[[], []]");
}

static void test_str_numbers(void **state) {
  (void)state;
  const double d[] = {1.0,         0.1,    1.0 / 3.0, 1e20,     1.5e-7,    -0.0, 0.1 + 0.2,
                      123456789.0, 1e-300, NAN,       INFINITY, -INFINITY, -2.5};
  expect_str(f64(d, sizeof d / sizeof d[0]), 300,
             "[1, 0.1, 0.3333333333333333, 1e+20, 1.5e-07, -0, 0.30000000000000004, 123456789, "
             "1e-300, nan, inf, -inf, -2.5]");
  const float f[] = {1.1f, 0.1f, 3.4028235e38f, 1e-45f, 16777216.0f, 0.5f, -7.0f};
  expect_str(jgt_numeric(f, sizeof f / sizeof f[0], JG_DTYPE_FLOAT32), 300,
             "[1.1, 0.1, 3.4028235e+38, 1e-45, 16777216, 0.5, -7]");
  const uint16_t h[] = {0x3C00, 0x3E00, 0x2E66, 0xC000, 0x7BFF, 0x0001,
                        0x7C00, 0xFC00, 0x7E00, 0x8000, 0x3555};
  /* 1, 1.5, 0.0999756 (nearest to 0.1), -2, 65504, 2^-24, inf, -inf, nan, -0, 0.333251953125 */
  expect_str(jgt_numeric(h, sizeof h / sizeof h[0], JG_DTYPE_FLOAT16), 300,
             "[1, 1.5, 0.1, -2, 65504, 6e-08, inf, -inf, nan, -0, 0.3333]");
  expect_str(jgt_numeric((const int8_t[]){-128, 127, 0}, 3, JG_DTYPE_INT8), 0, "[-128, 127, 0]");
  expect_str(jgt_numeric((const uint8_t[]){255, 1}, 2, JG_DTYPE_UINT8), 0, "[255, 1]");
  expect_str(jgt_numeric((const int16_t[]){-32768, 32767}, 2, JG_DTYPE_INT16), 0,
             "[-32768, 32767]");
  expect_str(jgt_numeric((const uint16_t[]){65535}, 1, JG_DTYPE_UINT16), 0, "[65535]");
  expect_str(jgt_numeric((const int32_t[]){INT32_MIN, INT32_MAX}, 2, JG_DTYPE_INT32), 0,
             "[-2147483648, 2147483647]");
  expect_str(jgt_numeric((const uint32_t[]){UINT32_MAX}, 1, JG_DTYPE_UINT32), 0, "[4294967295]");
  expect_str(jgt_i64(JGT_I64(INT64_MIN, INT64_MAX), 2), 0,
             "[-9223372036854775808, 9223372036854775807]");
  expect_str(jgt_numeric((const uint64_t[]){UINT64_MAX}, 1, JG_DTYPE_UINT64), 0,
             "[18446744073709551615]");
  expect_str(jgt_numeric((const uint8_t[]){1, 0, 1}, 3, JG_DTYPE_BOOL), 0, "[True, False, True]");
}

static void test_str_options(void **state) {
  (void)state;
  const int8_t mask[3] = {1, 0, 1};
  expect_str(jgt_byte_masked(mask, 3, true, jgt_i64(JGT_I64(1, 2, 3), 3)), 0, "[1, None, 3]");
  expect_str(jgt_byte_masked(mask, 3, false, jgt_i64(JGT_I64(1, 2, 3), 3)), 0, "[None, 2, None]");
  expect_str(
      jgt_bit_masked((const uint8_t[]){0x05}, 1, true, true, 3, jgt_i64(JGT_I64(1, 2, 3), 3)), 0,
      "[1, None, 3]");
  expect_str(
      jgt_bit_masked((const uint8_t[]){0xA0}, 1, true, false, 3, jgt_i64(JGT_I64(1, 2, 3), 3)), 0,
      "[1, None, 3]");
  expect_str(
      jgt_bit_masked((const uint8_t[]){0xA0}, 1, false, false, 3, jgt_i64(JGT_I64(1, 2, 3), 3)), 0,
      "[None, 2, None]");
  /* Two bytes, LSB first: valid bits 0, 2, 4, 5, 7 of 0xB5 and bit 1 of 0x02. */
  const uint8_t bits[2] = {0xB5, 0x02};
  expect_str(jgt_bit_masked(bits, 2, true, true, 10, jgt_iota(10)), 0,
             "[0, None, 2, None, 4, 5, None, 7, None, 9]");
  /* Sliced from entry 3: the mask slice starts inside a byte. */
  expect_str(jgt_slice(jgt_bit_masked(bits, 2, true, true, 10, jgt_iota(10)), 3, 10), 0,
             "[None, 4, 5, None, 7, None, 9]");
  expect_str(jgt_slice(jgt_bit_masked(bits, 2, true, true, 10, jgt_iota(10)), 9, 10), 0, "[9]");
  expect_str(jgt_indexed(JGT_I64(2, -1, 0, 2), 4, JG_DTYPE_INT64, jgt_i64(JGT_I64(10, 20, 30), 3)),
             0, "[30, None, 10, 30]");
  expect_str(jgt_indexed(JGT_I32(0, -1, 1), 3, JG_DTYPE_INT32, JGT_OFFSETS(jgt_iota(2), 0, 2, 2)),
             0, "[[0, 1], None, []]");
  expect_str(JGT_OFFSETS(jgt_byte_masked(mask, 3, true, jgt_iota(3)), 0, 2, 3), 0,
             "[[0, None], [2]]");
}

static void test_str_records(void **state) {
  (void)state;
  expect_str(sample_records(), 0, "[{x: 1, y: [2, 3]}, {x: 4, y: []}]");
  {
    jg_array *fields[2] = {jgt_i64(JGT_I64(1, 2), 2), f64((const double[]){2.5, 3.5}, 2)};
    expect_str(jgt_record(2, fields, NULL, -1), 0, "[(1, 2.5), (2, 3.5)]");
  }
  {
    jg_array *fields[3] = {jgt_iota(1), jgt_iota(1), jgt_iota(1)};
    static const char *const names[3] = {"my field", "it's", "a'b\"c"};
    expect_str(jgt_record(3, fields, names, -1), 0,
               "[{'my field': 0, \"it's\": 0, 'a\\'b\"c': 0}]");
  }
  expect_str(jgt_record(0, NULL, NULL, 2), 0, "[(), ()]");
  /* Sliced records slice every field. */
  expect_str(jgt_slice(sample_records(), 1, 2), 0, "[{x: 4, y: []}]");
  expect_str(jgt_vc_nested_valid(), 0, "[[{x: [0, 1], y: 7}, None], [{x: [2], y: 9}]]");
  /* Records inside lists, options of records. */
  {
    jg_array *fields[2] = {jgt_iota(3), jgt_numeric((const uint8_t[]){1, 0, 1}, 3, JG_DTYPE_BOOL)};
    static const char *const names[2] = {"pt", "ok"};
    jg_array *rec = jgt_record(2, fields, names, -1);
    jg_array *opt = jgt_indexed(JGT_I64(2, -1, 0), 3, JG_DTYPE_INT64, rec);
    expect_str(JGT_OFFSETS(opt, 0, 2, 3), 0, "[[{pt: 2, ok: True}, None], [{pt: 0, ok: True}]]");
  }
}

static void test_str_layouts(void **state) {
  (void)state;
  /* Offsets not starting at 0, content past the last offset. */
  expect_str(JGT_OFFSETS(jgt_iota(7), 2, 4, 4, 5), 0, "[[2, 3], [], [4]]");
  /* Empty lists with any start, even past the content or negative. */
  expect_str(jgt_list(JGT_I64(100, -7, 0), JGT_I64(100, -7, 1), 3, 3, JG_DTYPE_INT64, jgt_iota(2)),
             0, "[[], [], [0]]");
  expect_str(JGT_OFFSETS(jgt_iota(2), 5, 5), 0, "[[]]");
  /* Sliced arrays. */
  expect_str(jgt_slice(sample_lists(), 1, 3), 0, "[[], [3.3]]");
  expect_str(jgt_slice(jgt_iota(5), 2, 4), 0, "[2, 3]");
  expect_str(jgt_slice(jgt_vc_sliced(), 1, 3), 0, "[[3, 4, 5], []]");
  /* Strided, reversed and multi-dimensional numeric data. */
  const int64_t v[6] = {0, 1, 2, 3, 4, 5};
  expect_str(numeric_nd(v, 5, JG_DTYPE_INT64, 1, (jg_len[]){3}, (jg_stride[]){2}, 0), 0,
             "[0, 2, 4]");
  expect_str(numeric_nd(v, 5, JG_DTYPE_INT64, 1, (jg_len[]){5}, (jg_stride[]){-1}, 4), 0,
             "[4, 3, 2, 1, 0]");
  expect_str(numeric_nd(v, 6, JG_DTYPE_INT64, 2, (jg_len[]){2, 3}, NULL, 0), 0,
             "[[0, 1, 2], [3, 4, 5]]");
  expect_str(numeric_nd(v, 6, JG_DTYPE_INT64, 2, (jg_len[]){3, 2}, (jg_stride[]){1, 3}, 0), 0,
             "[[0, 3], [1, 4], [2, 5]]");
  expect_str(jgt_slice(numeric_nd(v, 6, JG_DTYPE_INT64, 2, (jg_len[]){3, 2}, NULL, 0), 1, 3), 0,
             "[[2, 3], [4, 5]]");
  /* Lists over 2-D data: each list entry is a row. */
  expect_str(JGT_OFFSETS(numeric_nd(v, 6, JG_DTYPE_INT64, 2, (jg_len[]){3, 2}, NULL, 0), 1, 3), 0,
             "[[[2, 3], [4, 5]]]");
}

static jg_array *one_to_99(void) {
  int64_t v[99];
  for (int k = 0; k < 99; k++) v[k] = k + 1;
  return jgt_i64(v, 99);
}

static void test_str_eliding(void **state) {
  (void)state;
  expect_str(one_to_99(), 22, "[1, 2, 3, ..., 98, 99]");
  expect_str(one_to_99(), 21, "[1, 2, ..., 98, 99]");
  expect_str(one_to_99(), 5, "[...]");
  expect_str(one_to_99(), 1, "[...]");
  expect_str(jgt_i64(JGT_I64(1, 2), 2), 12, "[1, 2]");
  expect_str(jgt_i64(JGT_I64(7), 1), 1, "[7]"); /* one entry is always shown */
  /* The default width is 80. */
  expect_str(jgt_iota(1000), 0,
             "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ..., 991, 992, 993, 994, 995, 996, 997, 998, 999]");
  /* Nested lists elide inside. */
  expect_str(JGT_OFFSETS(jgt_iota(10), 0, 10), 24, "[[0, 1, 2, ..., 8, 9]]");
  expect_str(JGT_OFFSETS(jgt_iota(30), 0, 10, 20, 30), 30, "[[0, 1, 2, ..., 7, 8, 9], ...]");
  /* Records: fields that do not fit become "...". */
  {
    jg_array *fields[2] = {jgt_i64(JGT_I64(1), 1), jgt_i64(JGT_I64(2), 1)};
    static const char *const names[2] = {"x", "y"};
    jg_array *r = jgt_record(2, fields, names, -1);
    expect_str(jg_array_retain(r), 21, "[{x: 1, y: 2}]");
    expect_str(jg_array_retain(r), 20, "[{x: 1, ...}]");
    expect_str(jg_array_retain(r), 16, "[{x: 1, ...}]");
    expect_str(r, 12, "[{...}]");
  }
  {
    jg_array *fields[2] = {JGT_OFFSETS(jgt_iota(100), 0, 100), jgt_i64(JGT_I64(5), 1)};
    static const char *const names[2] = {"x", "y"};
    expect_str(jgt_record(2, fields, names, -1), 30, "[{x: [0, ...], y: 5}]");
  }
  {
    jg_array *fields[2] = {f64((const double[]){1.2345678901234567}, 1), jgt_iota(1)};
    static const char *const names[2] = {"x", "y"};
    expect_str(jgt_record(2, fields, names, -1), 20, "[{x: ..., ...}]");
  }
  {
    jg_array *fields[1] = {f64((const double[]){1.2345678901234567}, 1)};
    static const char *const names[1] = {"x"};
    expect_str(jgt_record(1, fields, names, -1), 20, "[{x: ...}]");
  }
  /* A huge width prints everything. */
  char *buf = malloc(8000);
  assert_non_null(buf);
  size_t needed = 0;
  jg_array *a = jgt_iota(1000);
  JGT_OK(jg_array_to_string(a, SIZE_MAX, buf, 8000, &needed, &jgt_err_));
  assert_int_equal(needed, 2 + 10 + 90 * 2 + 900 * 3 + 999 * 2);
  assert_int_equal(strncmp(buf, "[0, 1, 2, ", 10), 0);
  assert_null(strstr(buf, "..."));
  JGT_CONTAINS(buf, ", 499, 500, 501, ");
  jg_array_release(a);
  free(buf);
}

static void test_str_invalid_data(void **state) {
  (void)state;
  char buf[256];
  jg_error err;
  jg_array *a = JGT_OFFSETS(jgt_iota(3), 0, 5);
  JGT_STATUS(JG_EVALUE, jg_array_to_string(a, 0, buf, sizeof buf, NULL, &err));
  JGT_CONTAINS(err.message,
               "list 0 of a list-offset node spans [0, 5), not inside its content of "
               "3 entries");
  assert_int_equal(err.index, 0);
  assert_string_equal(buf, "");
  jg_array_release(a);
  a = jgt_list(JGT_I64(0, 2), JGT_I64(1, 1), 2, 2, JG_DTYPE_INT64, jgt_iota(3));
  JGT_STATUS(JG_EVALUE, jg_array_to_string(a, 0, buf, sizeof buf, NULL, &err));
  JGT_CONTAINS(err.message, "list 1 of a list node spans [2, 1)");
  assert_int_equal(err.index, 1);
  jg_array_release(a);
  a = jgt_list(JGT_I64(-1), JGT_I64(1), 1, 1, JG_DTYPE_INT64, jgt_iota(3));
  JGT_STATUS(JG_EVALUE, jg_array_to_string(a, 0, buf, sizeof buf, NULL, &err));
  JGT_CONTAINS(err.message, "spans [-1, 1)");
  jg_array_release(a);
  a = jgt_indexed(JGT_I64(0, 7), 2, JG_DTYPE_INT64, jgt_iota(3));
  JGT_STATUS(JG_EVALUE, jg_array_to_string(a, 0, buf, sizeof buf, NULL, &err));
  JGT_CONTAINS(err.message, "index[1] = 7 is past the end of the content (3 entries)");
  assert_int_equal(err.index, 1);
  jg_array_release(a);
  /* Entries left out by eliding are not read. */
  int64_t off[200];
  for (int k = 0; k < 200; k++) off[k] = k;
  off[100] = 1000;
  expect_str(jgt_offsets64(off, 200, jgt_iota(199)), 40, "[[0], [1], [2], ..., [197], [198]]");
  /* Structure problems are found by MINIMAL validation first. */
  a = jgt_iota(3);
  a->length = 4;
  JGT_STATUS(JG_EVALUE, jg_array_to_string(a, 0, buf, sizeof buf, NULL, &err));
  JGT_CONTAINS(err.message, "data has 3 entries, not the length 4");
  a->length = 3;
  jg_array_release(a);
}

static void test_str_buffer_contract(void **state) {
  (void)state;
  jg_array *a = jgt_i64(JGT_I64(1, 2, 3), 3); /* "[1, 2, 3]", 9 characters */
  char buf[32];
  size_t needed = 0;
  memset(buf, 'X', sizeof buf);
  JGT_OK(jg_array_to_string(a, 0, buf, 4, &needed, &jgt_err_));
  assert_string_equal(buf, "[1,");
  assert_int_equal(needed, 9);
  assert_int_equal(buf[4], 'X');
  needed = 0;
  JGT_OK(jg_array_to_string(a, 0, NULL, 0, &needed, &jgt_err_));
  assert_int_equal(needed, 9);
  JGT_OK(jg_array_to_string(a, 0, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[1, 2, 3]");
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_to_string(a, 0, NULL, 3, &needed, &err));
  JGT_CONTAINS(err.message, "buf is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_to_string(NULL, 0, buf, sizeof buf, &needed, &err));
  JGT_CONTAINS(err.message, "a is NULL");
  assert_int_equal(needed, 0);
  jg_array_release(a);

  /* Truncation never splits a UTF-8 sequence: "[{'é': 0}]" is 11 bytes. */
  jg_array *fields[1] = {jgt_iota(1)};
  static const char *const names[1] = {"\xc3\xa9"};
  jg_array *r = jgt_record(1, fields, names, -1);
  JGT_OK(jg_array_to_string(r, 0, buf, 5, &needed, &jgt_err_));
  assert_string_equal(buf, "[{'");
  assert_int_equal(needed, 11);
  JGT_OK(jg_array_to_string(r, 0, buf, 6, &needed, &jgt_err_));
  assert_string_equal(buf, "[{'\xc3\xa9");
  JGT_OK(jg_array_to_string(r, 0, buf, sizeof buf, &needed, &jgt_err_));
  assert_string_equal(buf, "[{'\xc3\xa9': 0}]");
  jg_array_release(r);

  /* cuda arrays are refused before any read. */
  int64_t fake[2] = {0, 0};
  jg_buffer *keep = NULL;
  jg_array *c = fake_cuda_numeric(fake, 2, &keep);
  memset(buf, 'X', sizeof buf);
  JGT_STATUS(JG_EBACKEND, jg_array_to_string(c, 0, buf, sizeof buf, &needed, &err));
  JGT_CONTAINS(err.message, "the array is on cuda:0: copy it with jg_array_to_host first");
  assert_string_equal(buf, "");
  jg_array_release(c);
  jg_buffer_release(keep);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_type_numeric),     cmocka_unit_test(test_type_lists),
      cmocka_unit_test(test_type_records),     cmocka_unit_test(test_type_quoted_names),
      cmocka_unit_test(test_type_options),     cmocka_unit_test(test_type_buffer_contract),
      cmocka_unit_test(test_str_basic),        cmocka_unit_test(test_str_numbers),
      cmocka_unit_test(test_str_options),      cmocka_unit_test(test_str_records),
      cmocka_unit_test(test_str_layouts),      cmocka_unit_test(test_str_eliding),
      cmocka_unit_test(test_str_invalid_data), cmocka_unit_test(test_str_buffer_contract),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
