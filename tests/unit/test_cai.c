/* test_cai.c: CUDA Array Interface v3 (include/jagged/cai.h) on the host: typestr parsing and
 * formatting, every import check that comes before the pointer query, zero-size arrays (never
 * queried), and export of views with fake device pointers (never dereferenced). */
#include "jg_test.h"

static const uintptr_t k_fake = (uintptr_t)0x7f0000200000ULL;

/* A view by hand (independent of view.c) on `device`. */
static jg_view make_view(uintptr_t base, jg_device device, jg_dtype dtype, int ndim,
                         const jg_len *shape, const jg_stride *strides, jg_offset slice_offset) {
  jg_view v;
  memset(&v, 0, sizeof(v));
  v.base = (void *)base;
  v.device = device;
  v.host_accessible = device.type != JG_DEVICE_CUDA;
  v.device_accessible = device.type != JG_DEVICE_CPU;
  v.dtype = dtype;
  assert_int_equal(jg_layout_init(&v.layout, ndim, shape, strides, jg_dtype_itemsize(dtype), NULL),
                   JG_OK);
  v.layout.slice_offset = slice_offset;
  return v;
}

static jg_view cuda_view(uintptr_t base, jg_dtype dtype, int ndim, const jg_len *shape,
                         const jg_stride *strides, jg_offset slice_offset) {
  const jg_device cuda = {JG_DEVICE_CUDA, 0};
  return make_view(base, cuda, dtype, ndim, shape, strides, slice_offset);
}

/* A CAI dict with the given typestr and shape, C order, version 3. */
static jg_cai make_cai(uintptr_t data, const char *typestr, int ndim, const int64_t *shape) {
  jg_cai c;
  memset(&c, 0, sizeof(c));
  c.version = 3;
  c.data = data;
  snprintf(c.typestr, sizeof(c.typestr), "%s", typestr);
  c.ndim = ndim;
  for (int k = 0; k < ndim; ++k) c.shape[k] = shape[k];
  return c;
}

/* The device a zero-size import must report: the current device, or 0 without CUDA. */
static int expected_current_device(void) {
  int id = 0;
  if (jg_device_get_current(&id, NULL) != JG_OK) id = 0;
  return id;
}

/* ------------------------------------------------------------------------------------------ */
/* typestr                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void test_typestr_parse(void **state) {
  (void)state;
  const struct {
    const char *s;
    jg_dtype d;
  } ok[] = {
      {"<f8", JG_DTYPE_FLOAT64},
      {"|b1", JG_DTYPE_BOOL},
      {"<i4", JG_DTYPE_INT32},
      {"|u1", JG_DTYPE_UINT8},
      {"|i1", JG_DTYPE_INT8},
      {"<i2", JG_DTYPE_INT16},
      {"<i8", JG_DTYPE_INT64},
      {"<u2", JG_DTYPE_UINT16},
      {"<u4", JG_DTYPE_UINT32},
      {"<u8", JG_DTYPE_UINT64},
      {"<f2", JG_DTYPE_FLOAT16},
      {"<f4", JG_DTYPE_FLOAT32},
      {"<c8", JG_DTYPE_COMPLEX64},
      {"<c16", JG_DTYPE_COMPLEX128},
      /* one-byte types have no byte order: any marker is fine */
      {"<u1", JG_DTYPE_UINT8},
      {">i1", JG_DTYPE_INT8},
      {"<b1", JG_DTYPE_BOOL},
  };
  for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); ++i) {
    jg_dtype d = JG_DTYPE_INVALID;
    JGT_OK(jg_cai_typestr_parse(ok[i].s, &d, NULL));
    if (d != ok[i].d) print_error("typestr %s\n", ok[i].s);
    assert_int_equal(d, ok[i].d);
  }

  const struct {
    const char *s;
    const char *why;
  } bad[] = {
      {">f4", "big-endian"},
      {">c16", "big-endian"},
      {">i8", "big-endian"},
      {"|f4", "'|'"},
      {"|i2", "'|'"},
      {"", "malformed"},
      {"f4", "malformed"},
      {"<", "malformed"},
      {"<f", "no itemsize"},
      {"<f4x", "malformed"},
      {"<x4", "malformed"},
      {"=f4", "malformed"},
      {"<f 4", "malformed"},
      {"<f-4", "malformed"},
      {"<f04", "malformed"},
      {"<f0", "malformed"},
      {"<f99999", "malformed"},
      {"garbage", "malformed"},
      {"<f16", "not supported"},
      {"<f3", "not supported"},
      {"<i3", "not supported"},
      {"|b2", "not supported"},
      {"|V8", "not supported"},
      {"|S5", "not supported"},
      {"<U4", "not supported"},
      {"<M8", "not supported"},
      {"|O8", "not supported"},
      {"<c4", "not supported"},
      {"<m8", "not supported"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    jg_dtype d = JG_DTYPE_INT64;
    jg_error err;
    jg_error_clear(&err);
    jg_status st = jg_cai_typestr_parse(bad[i].s, &d, &err);
    if (st != JG_EDTYPE) print_error("typestr '%s' gave %s\n", bad[i].s, jg_status_name(st));
    assert_int_equal(st, JG_EDTYPE);
    JGT_CONTAINS(err.message, bad[i].why);
    assert_int_equal(d, JG_DTYPE_INT64); /* untouched */
  }
  jg_error err;
  jg_dtype d;
  JGT_STATUS(JG_EINVAL, jg_cai_typestr_parse(NULL, &d, &err));
  JGT_STATUS(JG_EINVAL, jg_cai_typestr_parse("<f4", NULL, &err));
}

static void test_typestr_format(void **state) {
  (void)state;
  const struct {
    jg_dtype d;
    const char *s;
  } cases[] = {
      {JG_DTYPE_BOOL, "|b1"},      {JG_DTYPE_INT8, "|i1"},        {JG_DTYPE_UINT8, "|u1"},
      {JG_DTYPE_INT16, "<i2"},     {JG_DTYPE_INT32, "<i4"},       {JG_DTYPE_INT64, "<i8"},
      {JG_DTYPE_UINT16, "<u2"},    {JG_DTYPE_UINT32, "<u4"},      {JG_DTYPE_UINT64, "<u8"},
      {JG_DTYPE_FLOAT16, "<f2"},   {JG_DTYPE_FLOAT32, "<f4"},     {JG_DTYPE_FLOAT64, "<f8"},
      {JG_DTYPE_COMPLEX64, "<c8"}, {JG_DTYPE_COMPLEX128, "<c16"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char s[JG_CAI_TYPESTR_SIZE];
    JGT_OK(jg_cai_typestr_format(cases[i].d, s, NULL));
    assert_string_equal(s, cases[i].s);
    jg_dtype back;
    JGT_OK(jg_cai_typestr_parse(s, &back, NULL));
    assert_int_equal(back, cases[i].d);
  }
  char s[JG_CAI_TYPESTR_SIZE];
  jg_error err;
  JGT_STATUS(JG_EDTYPE, jg_cai_typestr_format(JG_DTYPE_BFLOAT16, s, &err));
  JGT_CONTAINS(err.message, "bfloat16");
  JGT_STATUS(JG_EDTYPE, jg_cai_typestr_format(JG_DTYPE_INVALID, s, &err));
  JGT_STATUS(JG_EDTYPE, jg_cai_typestr_format((jg_dtype)77, s, &err));
  JGT_STATUS(JG_EINVAL, jg_cai_typestr_format(JG_DTYPE_INT8, NULL, &err));
}

/* ------------------------------------------------------------------------------------------ */
/* Import                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Zero-size arrays: ptr 0 is legal and never queried; device = current device. */
static void test_from_cai_zero_size(void **state) {
  (void)state;
  const int64_t shape1[1] = {0};
  jg_cai c = make_cai(0, "<f4", 1, shape1);
  c.readonly = true;
  jg_view v;
  JGT_OK(jg_view_from_cai(&c, &v, NULL));
  assert_null(v.base);
  assert_null(v.buffer);
  assert_int_equal(v.dtype, JG_DTYPE_FLOAT32);
  assert_int_equal(v.layout.itemsize, 4);
  assert_int_equal(v.layout.ndim, 1);
  assert_int_equal(v.layout.shape[0], 0);
  assert_int_equal(jg_layout_volume(&v.layout), 0);
  assert_int_equal(v.device.type, JG_DEVICE_CUDA);
  assert_int_equal(v.device.id, expected_current_device());
  assert_true(v.device_accessible);
  assert_false(v.host_accessible);
  assert_true(v.readonly);

  /* (3, 0) with explicit byte strides: strides become 0 (volume 0). */
  const int64_t shape2[2] = {3, 0};
  c = make_cai(0, "<f8", 2, shape2);
  c.has_strides = true;
  c.strides[0] = 8;
  c.strides[1] = 24;
  c.has_stream = true;
  c.stream = JG_CAI_STREAM_LEGACY;
  JGT_OK(jg_view_from_cai(&c, &v, NULL));
  assert_int_equal(v.layout.strides[0], 0);
  assert_int_equal(v.layout.strides[1], 0);
  assert_false(v.readonly);

  /* Zero size with a nonzero pointer (a[5:5]): not queried either; base kept. */
  c = make_cai(k_fake, "|u1", 1, shape1);
  JGT_OK(jg_view_from_cai(&c, &v, NULL));
  assert_ptr_equal(v.base, (void *)k_fake);
  assert_int_equal(v.device.type, JG_DEVICE_CUDA);

  /* A newer version is fine. */
  c.version = 4;
  JGT_OK(jg_view_from_cai(&c, &v, NULL));
}

static void expect_cai_error(const jg_cai *c, jg_status status, const char *text, int64_t index) {
  jg_view v;
  memset(&v, 0xCD, sizeof(v));
  jg_view poison;
  memset(&poison, 0xCD, sizeof(poison));
  jg_error err;
  jg_error_clear(&err);
  jg_status st = jg_view_from_cai(c, &v, &err);
  if (st != status) print_error("got %s: %s\n", jg_status_name(st), err.message);
  assert_int_equal(st, status);
  JGT_CONTAINS(err.message, text);
  if (index != -2) assert_int_equal(err.index, index);
  assert_memory_equal(&v, &poison, sizeof(v));
}

static void test_from_cai_errors(void **state) {
  (void)state;
  const int64_t shape[2] = {2, 3};
  jg_cai c;

  c = make_cai(k_fake, "<f4", 2, shape);
  c.version = 2;
  expect_cai_error(&c, JG_ENOTSUP, "version 2", -2);
  c.version = 0;
  expect_cai_error(&c, JG_ENOTSUP, "version 0", -2);

  c = make_cai(k_fake, "<f4", 2, shape);
  c.has_mask = true;
  expect_cai_error(&c, JG_ENOTSUP, "mask", -2);

  c = make_cai(k_fake, "<f4", 2, shape);
  c.has_stream = true;
  c.stream = 0;
  expect_cai_error(&c, JG_EINVAL, "stream", -2);

  c = make_cai(k_fake, ">f4", 2, shape);
  expect_cai_error(&c, JG_EDTYPE, "big-endian", -2);
  c = make_cai(k_fake, "<q4", 2, shape);
  expect_cai_error(&c, JG_EDTYPE, "malformed", -2);
  c = make_cai(k_fake, "<f4", 2, shape);
  memset(c.typestr, 'f', sizeof(c.typestr)); /* no NUL */
  expect_cai_error(&c, JG_EDTYPE, "NUL", -2);

  /* Byte strides that are not multiples of the itemsize (cuda-python #1429): a field of a packed
   * structured array, byte stride 12 with itemsize 8. */
  const int64_t two[1] = {2};
  c = make_cai(k_fake, "<f8", 1, two);
  c.has_strides = true;
  c.strides[0] = 12;
  expect_cai_error(&c, JG_EINVAL, "divisible", 0);
  c = make_cai(k_fake, "<f8", 2, shape);
  c.has_strides = true;
  c.strides[0] = 24;
  c.strides[1] = 6;
  expect_cai_error(&c, JG_EINVAL, "divisible", 1);
  /* ...even when the array is empty. */
  const int64_t empty[2] = {0, 3};
  c = make_cai(0, "<f8", 2, empty);
  c.has_strides = true;
  c.strides[0] = 24;
  c.strides[1] = 6;
  expect_cai_error(&c, JG_EINVAL, "divisible", 1);

  c = make_cai(0, "<f4", 2, shape);
  expect_cai_error(&c, JG_EINVAL, "6 elements", -2);

  c = make_cai(k_fake, "<f4", 2, shape);
  c.ndim = JG_MAX_NDIM + 1;
  expect_cai_error(&c, JG_ENOTSUP, "65", -2);
  c.ndim = -1;
  expect_cai_error(&c, JG_EINVAL, "negative", -2);

  const int64_t neg[2] = {2, -1};
  c = make_cai(k_fake, "<f4", 2, neg);
  expect_cai_error(&c, JG_EINVAL, "", 1);

  /* Negative byte strides reaching below address 0. */
  const int64_t ten[1] = {10};
  c = make_cai(16, "<i4", 1, ten);
  c.has_strides = true;
  c.strides[0] = -4;
  expect_cai_error(&c, JG_EINVAL, "below address 0", -2);

  /* Overflowing extents. */
  const int64_t huge[2] = {INT64_MAX / 2, 4};
  c = make_cai(k_fake, "<f4", 2, huge);
  expect_cai_error(&c, JG_EOVERFLOW, "", -2);

  /* Plain host memory is not device-accessible (with or without CUDA). */
  float *host = (float *)malloc(6 * sizeof(float));
  assert_non_null(host);
  c = make_cai((uintptr_t)host, "<f4", 2, shape);
  expect_cai_error(&c, JG_EINVAL, "not device-accessible", -2);
  free(host);

  jg_view v;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_view_from_cai(NULL, &v, &err));
  JGT_STATUS(JG_EINVAL, jg_view_from_cai(&c, NULL, &err));
}

/* ------------------------------------------------------------------------------------------ */
/* Export                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void test_to_cai(void **state) {
  (void)state;
  jg_cai c;
  const jg_len shape[2] = {2, 3};

  /* C-contiguous float32 (2, 3): strides None. */
  jg_view v = cuda_view(k_fake, JG_DTYPE_FLOAT32, 2, shape, NULL, 0);
  memset(&c, 0xEE, sizeof(c));
  JGT_OK(jg_view_to_cai(&v, &c, NULL));
  assert_int_equal(c.version, 3);
  assert_int_equal(c.data, k_fake);
  assert_false(c.readonly);
  assert_string_equal(c.typestr, "<f4");
  assert_int_equal(c.ndim, 2);
  assert_int_equal(c.shape[0], 2);
  assert_int_equal(c.shape[1], 3);
  assert_false(c.has_strides);
  assert_false(c.has_stream);
  assert_int_equal(c.stream, 0);
  assert_false(c.has_mask);

  /* F order (3, 2): byte strides (4, 12). */
  const jg_len fshape[2] = {3, 2};
  const jg_stride fstrides[2] = {1, 3};
  v = cuda_view(k_fake, JG_DTYPE_FLOAT32, 2, fshape, fstrides, 0);
  v.readonly = true;
  JGT_OK(jg_view_to_cai(&v, &c, NULL));
  assert_true(c.has_strides);
  assert_int_equal(c.strides[0], 4);
  assert_int_equal(c.strides[1], 12);
  assert_true(c.readonly);

  /* Reversed int64 (4,): data at element 0 (base + 3 * 8), byte stride -8. */
  const jg_len four[1] = {4};
  const jg_stride minus1[1] = {-1};
  v = cuda_view(k_fake, JG_DTYPE_INT64, 1, four, minus1, 3);
  JGT_OK(jg_view_to_cai(&v, &c, NULL));
  assert_int_equal(c.data, k_fake + 24);
  assert_true(c.has_strides);
  assert_int_equal(c.strides[0], -8);
  assert_string_equal(c.typestr, "<i8");

  /* Extent-1 axes do not spoil C-contiguity: (1, 3) with strides (7, 1). */
  const jg_len s13[2] = {1, 3};
  const jg_stride st13[2] = {7, 1};
  v = cuda_view(k_fake, JG_DTYPE_UINT8, 2, s13, st13, 0);
  JGT_OK(jg_view_to_cai(&v, &c, NULL));
  assert_false(c.has_strides);
  assert_string_equal(c.typestr, "|u1");

  /* Empty: data 0. */
  const jg_len s03[2] = {0, 3};
  v = cuda_view(k_fake, JG_DTYPE_COMPLEX128, 2, s03, NULL, 0);
  JGT_OK(jg_view_to_cai(&v, &c, NULL));
  assert_int_equal(c.data, 0);
  assert_false(c.has_strides);
  assert_string_equal(c.typestr, "<c16");
  assert_int_equal(c.shape[0], 0);
  /* ... and it imports back (zero size is never queried). */
  jg_view w;
  JGT_OK(jg_view_from_cai(&c, &w, NULL));
  assert_int_equal(w.dtype, JG_DTYPE_COMPLEX128);
  assert_int_equal(w.layout.shape[1], 3);
  assert_int_equal(jg_layout_volume(&w.layout), 0);

  /* 0-d. */
  v = cuda_view(k_fake, JG_DTYPE_BOOL, 0, NULL, NULL, 0);
  JGT_OK(jg_view_to_cai(&v, &c, NULL));
  assert_int_equal(c.ndim, 0);
  assert_int_equal(c.data, k_fake);
  assert_false(c.has_strides);
  assert_string_equal(c.typestr, "|b1");

  /* Pinned and managed memory are device-accessible. */
  const jg_device pinned = {JG_DEVICE_CUDA_HOST, 0};
  v = make_view(k_fake, pinned, JG_DTYPE_FLOAT16, 2, shape, NULL, 0);
  JGT_OK(jg_view_to_cai(&v, &c, NULL));
  assert_string_equal(c.typestr, "<f2");
  const jg_device managed = {JG_DEVICE_CUDA_MANAGED, 0};
  v = make_view(k_fake, managed, JG_DTYPE_FLOAT16, 2, shape, NULL, 0);
  JGT_OK(jg_view_to_cai(&v, &c, NULL));

  /* Errors. */
  jg_error err;
  const jg_device host = JG_DEVICE_HOST_INIT;
  v = make_view(k_fake, host, JG_DTYPE_FLOAT32, 2, shape, NULL, 0);
  JGT_STATUS(JG_ENOTSUP, jg_view_to_cai(&v, &c, &err));
  JGT_CONTAINS(err.message, "device-accessible");
  v = cuda_view(k_fake, JG_DTYPE_BFLOAT16, 2, shape, NULL, 0);
  JGT_STATUS(JG_EDTYPE, jg_view_to_cai(&v, &c, &err));
  v = cuda_view(k_fake, JG_DTYPE_FLOAT32, 2, shape, NULL, 0);
  v.dtype = JG_DTYPE_FLOAT64;
  JGT_STATUS(JG_EDTYPE, jg_view_to_cai(&v, &c, &err));
  JGT_CONTAINS(err.message, "itemsize");
  v = cuda_view(0, JG_DTYPE_FLOAT32, 2, shape, NULL, 0);
  JGT_STATUS(JG_EINVAL, jg_view_to_cai(&v, &c, &err));
  v = cuda_view(k_fake, JG_DTYPE_FLOAT32, 2, shape, NULL, 0);
  v.layout.ndim = JG_MAX_NDIM + 1;
  JGT_STATUS(JG_EINVAL, jg_view_to_cai(&v, &c, &err));
  /* Hand-made layouts: a negative extent, an overflowing byte stride (2^61 * 4 bytes). */
  v = cuda_view(k_fake, JG_DTYPE_FLOAT32, 2, shape, NULL, 0);
  v.layout.shape[1] = -3;
  JGT_STATUS(JG_EINVAL, jg_view_to_cai(&v, &c, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "extents must be non-negative");
  v = cuda_view(k_fake, JG_DTYPE_FLOAT32, 2, shape, NULL, 0);
  v.layout.strides[0] = INT64_C(1) << 61;
  JGT_STATUS(JG_EOVERFLOW, jg_view_to_cai(&v, &c, &err));
  JGT_STATUS(JG_EINVAL, jg_view_to_cai(NULL, &c, &err));
  JGT_STATUS(JG_EINVAL, jg_view_to_cai(&v, NULL, &err));
}

/* ------------------------------------------------------------------------------------------ */
/* Streams                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void test_wait_host(void **state) {
  (void)state;
  jg_cai c;
  memset(&c, 0, sizeof(c));
  c.version = 3;
  jg_error err;
  JGT_OK(jg_cai_wait_async(&c, NULL, NULL)); /* no stream declared: nothing to do */
  c.has_stream = true;
  c.stream = 0;
  JGT_STATUS(JG_EINVAL, jg_cai_wait_async(&c, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_cai_wait_async(NULL, NULL, &err));
  c.stream = JG_CAI_STREAM_LEGACY; /* the same stream as jagged's NULL */
  JGT_OK(jg_cai_wait_async(&c, NULL, NULL));
  c.stream = 0x1234;
  JGT_OK(jg_cai_wait_async(&c, (jg_stream)(uintptr_t)0x1234, NULL)); /* same stream */
  int n = 0;
  if (jg_device_count(&n, NULL) != JG_OK || n == 0) {
    /* A real wait needs CUDA. */
    c.stream = JG_CAI_STREAM_PER_THREAD;
    JGT_STATUS(JG_ENODEV, jg_cai_wait_async(&c, NULL, &err));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_typestr_parse),
      cmocka_unit_test(test_typestr_format),
      cmocka_unit_test(test_from_cai_zero_size),
      cmocka_unit_test(test_from_cai_errors),
      cmocka_unit_test(test_to_cai),
      cmocka_unit_test(test_wait_host),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
