/* test_view.c: strided views: construction from buffers and raw pointers with every check and
 * error, the element-0 pointer, slicing. Runs everywhere (host memory only). */
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* jg_view_from_buffer                                                                         */
/* ------------------------------------------------------------------------------------------ */

static void test_from_buffer_fields(void **state) {
  (void)state;
  float data[12];
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(data, sizeof data, &buf, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){3, 4}, NULL, 4, &jgt_err_));
  jg_view v;
  memset(&v, 0xFF, sizeof v);
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT32, true, &jgt_err_));
  assert_ptr_equal(v.base, data);
  assert_ptr_equal(v.buffer, buf);
  assert_int_equal(v.device.type, JG_DEVICE_CPU);
  assert_true(v.host_accessible);
  assert_false(v.device_accessible);
  assert_true(v.readonly);
  assert_int_equal(v.dtype, JG_DTYPE_FLOAT32);
  assert_true(jg_layout_equal(&v.layout, &l));
  assert_ptr_equal(jg_view_data(&v), data);
  /* Writable view of the same buffer. */
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT32, false, &jgt_err_));
  assert_false(v.readonly);
  /* The same layout as int32 (same itemsize) is fine too. */
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_INT32, false, &jgt_err_));
  jg_buffer_release(buf);
}

static void test_from_buffer_owned(void **state) {
  (void)state;
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), 8 * 10, NULL, &buf, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){10}, NULL, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, &jgt_err_));
  assert_ptr_equal(v.base, jg_buffer_data(buf));
  assert_true(v.host_accessible);
  assert_int_equal(v.device.type, JG_DEVICE_CPU);
  jg_buffer_release(buf);
}

static void test_from_buffer_size_check(void **state) {
  (void)state;
  double data[10];
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(data, sizeof data, &buf, &jgt_err_)); /* 80 bytes */
  jg_layout l;
  jg_view v;
  jg_error err;
  /* Exactly fits: (10,) float64 = 80 bytes. */
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){10}, NULL, 8, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, &jgt_err_));
  /* One element more: 88 bytes. */
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){11}, NULL, 8, &jgt_err_));
  JGT_STATUS(JG_ESHAPE, jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, &err));
  JGT_CONTAINS(err.message, "88");
  JGT_CONTAINS(err.message, "80");
  /* The slice offset counts: (5,) with stride 2 needs offsets 0..8 = 72 bytes; offset 1 moves the
   * last element to offset 9 (80 bytes, fits), offset 2 to offset 10 (88 bytes, does not). */
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){5}, (jg_stride[]){2}, 8, &jgt_err_));
  l.slice_offset = 1;
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, &jgt_err_));
  assert_ptr_equal(jg_view_data(&v), &data[1]);
  l.slice_offset = 2;
  JGT_STATUS(JG_ESHAPE, jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, &err));
  /* A negative stride without the matching offset reaches before the buffer. */
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){5}, (jg_stride[]){-1}, 8, &jgt_err_));
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, &err));
  JGT_CONTAINS(err.message, "-4");
  /* ... and is fine with it: a[::-1] has slice offset 4, data pointer &data[4]. */
  l.slice_offset = 4;
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, &jgt_err_));
  assert_ptr_equal(jg_view_data(&v), &data[4]);
  /* A broadcast needs only the one element it repeats. */
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){1000, 1000}, (jg_stride[]){0, 0}, 8, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, true, &jgt_err_));
  jg_buffer_release(buf);
}

static void test_from_buffer_empty(void **state) {
  (void)state;
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(NULL, 0, &buf, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){0, 5}, NULL, 4, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_INT32, false, &jgt_err_));
  assert_null(v.base);
  assert_null(jg_view_data(&v));
  /* A 0-d view needs one element. */
  JGT_OK(jg_layout_init(&l, 0, NULL, NULL, 4, &jgt_err_));
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_view_from_buffer(&v, buf, &l, JG_DTYPE_INT32, false, &err));
  jg_buffer_release(buf);
}

static void test_from_buffer_errors(void **state) {
  (void)state;
  int32_t data[4];
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(data, sizeof data, &buf, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){4}, NULL, 4, &jgt_err_));
  jg_view v;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(NULL, buf, &l, JG_DTYPE_INT32, false, &err));
  JGT_CONTAINS(err.message, "view is NULL");
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(&v, NULL, &l, JG_DTYPE_INT32, false, &err));
  JGT_CONTAINS(err.message, "buf is NULL");
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(&v, buf, NULL, JG_DTYPE_INT32, false, &err));
  JGT_CONTAINS(err.message, "layout is NULL");
  /* Itemsize 4 as float64 or int16. */
  JGT_STATUS(JG_EDTYPE, jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, &err));
  JGT_CONTAINS(err.message, "float64");
  JGT_STATUS(JG_EDTYPE, jg_view_from_buffer(&v, buf, &l, JG_DTYPE_INT16, false, &err));
  JGT_STATUS(JG_EDTYPE, jg_view_from_buffer(&v, buf, &l, JG_DTYPE_INVALID, false, &err));
  JGT_CONTAINS(err.message, "invalid dtype");
  JGT_STATUS(JG_EDTYPE, jg_view_from_buffer(&v, buf, &l, (jg_dtype)99, false, &err));
  /* A hand-broken layout. */
  jg_layout bad = l;
  bad.ndim = -1;
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(&v, buf, &bad, JG_DTYPE_INT32, false, &err));
  bad.ndim = JG_MAX_NDIM + 1;
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(&v, buf, &bad, JG_DTYPE_INT32, false, &err));
  /* err may be NULL. */
  assert_int_equal(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT64, false, NULL), JG_EDTYPE);
  jg_buffer_release(buf);
}

/* ------------------------------------------------------------------------------------------ */
/* jg_view_from_pointer                                                                        */
/* ------------------------------------------------------------------------------------------ */

static void test_from_pointer_devices(void **state) {
  (void)state;
  uint16_t data[6];
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){2, 3}, NULL, 2, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_pointer(&v, data, (jg_device){JG_DEVICE_CPU, 0}, &l, JG_DTYPE_UINT16, false,
                              &jgt_err_));
  assert_true(v.host_accessible);
  assert_false(v.device_accessible);
  assert_null(v.buffer);
  assert_ptr_equal(v.base, data);
  assert_int_equal(v.dtype, JG_DTYPE_UINT16);
  assert_true(jg_layout_equal(&v.layout, &l));
  /* Pointers are not dereferenced: device addresses need no GPU here. */
  void *fake = (void *)(uintptr_t)0x7000;
  JGT_OK(jg_view_from_pointer(&v, fake, (jg_device){JG_DEVICE_CUDA, 1}, &l, JG_DTYPE_INT16, true,
                              &jgt_err_));
  assert_false(v.host_accessible);
  assert_true(v.device_accessible);
  assert_int_equal(v.device.type, JG_DEVICE_CUDA);
  assert_int_equal(v.device.id, 1);
  assert_true(v.readonly);
  JGT_OK(jg_view_from_pointer(&v, fake, (jg_device){JG_DEVICE_CUDA_HOST, 0}, &l, JG_DTYPE_BFLOAT16,
                              false, &jgt_err_));
  assert_true(v.host_accessible);
  assert_true(v.device_accessible);
  JGT_OK(jg_view_from_pointer(&v, fake, (jg_device){JG_DEVICE_CUDA_MANAGED, 0}, &l,
                              JG_DTYPE_FLOAT16, false, &jgt_err_));
  assert_true(v.host_accessible);
  assert_true(v.device_accessible);
  assert_int_equal(v.device.type, JG_DEVICE_CUDA_MANAGED);
}

static void test_from_pointer_errors(void **state) {
  (void)state;
  float data[6];
  jg_layout l, e;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){2, 3}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&e, 2, (jg_len[]){2, 0}, NULL, 4, &jgt_err_));
  const jg_device host = JG_DEVICE_HOST_INIT;
  jg_view v;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_view_from_pointer(NULL, data, host, &l, JG_DTYPE_FLOAT32, false, &err));
  JGT_STATUS(JG_EINVAL, jg_view_from_pointer(&v, data, host, NULL, JG_DTYPE_FLOAT32, false, &err));
  JGT_STATUS(JG_EINVAL, jg_view_from_pointer(&v, NULL, host, &l, JG_DTYPE_FLOAT32, false, &err));
  JGT_CONTAINS(err.message, "6 elements");
  /* NULL is fine without elements. */
  JGT_OK(jg_view_from_pointer(&v, NULL, host, &e, JG_DTYPE_FLOAT32, false, &jgt_err_));
  assert_null(jg_view_data(&v));
  JGT_STATUS(JG_EDTYPE, jg_view_from_pointer(&v, data, host, &l, JG_DTYPE_UINT8, false, &err));
  JGT_STATUS(JG_EDTYPE, jg_view_from_pointer(&v, data, host, &l, JG_DTYPE_INVALID, false, &err));
  JGT_STATUS(JG_EINVAL, jg_view_from_pointer(&v, data, (jg_device){(jg_device_type)7, 0}, &l,
                                             JG_DTYPE_FLOAT32, false, &err));
  JGT_CONTAINS(err.message, "device type 7");
  JGT_STATUS(JG_EINVAL, jg_view_from_pointer(&v, data, (jg_device){JG_DEVICE_CUDA, -1}, &l,
                                             JG_DTYPE_FLOAT32, false, &err));
}

/* Hand-filled layouts (jg_layout is a public struct): negative extents, an overflowing volume,
 * byte offsets or a byte span that overflow int64. Both constructors reject them. */
static void test_handmade_layouts(void **state) {
  (void)state;
  float data[64];
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(data, sizeof data, &buf, &jgt_err_));
  const jg_device host = JG_DEVICE_HOST_INIT;
  jg_layout good;
  JGT_OK(jg_layout_init(&good, 2, (jg_len[]){2, 8}, NULL, 4, &jgt_err_));
  jg_view v;
  memset(&v, 0x5A, sizeof v);
  const jg_view untouched = v;
  jg_error err;
  /* Negative extents: INT64_MIN, -100, and (-2, -8), whose product would be a volume of 16. */
  jg_layout bad = good;
  bad.shape[0] = INT64_MIN;
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(&v, buf, &bad, JG_DTYPE_FLOAT32, false, &err));
  assert_int_equal(err.index, 0);
  JGT_CONTAINS(err.message, "extents must be non-negative");
  JGT_STATUS(JG_EINVAL, jg_view_from_pointer(&v, data, host, &bad, JG_DTYPE_FLOAT32, false, &err));
  assert_int_equal(err.index, 0);
  bad = good;
  bad.shape[1] = -100;
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(&v, buf, &bad, JG_DTYPE_FLOAT32, false, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "-100");
  bad.shape[0] = -2;
  bad.shape[1] = -8;
  JGT_STATUS(JG_EINVAL, jg_view_from_buffer(&v, buf, &bad, JG_DTYPE_FLOAT32, false, &err));
  JGT_STATUS(JG_EINVAL, jg_view_from_pointer(&v, NULL, host, &bad, JG_DTYPE_FLOAT32, false, &err));
  JGT_CONTAINS(err.message, "extents must be non-negative");
  /* itemsize <= 0 (reported before the dtype comparison). */
  bad = good;
  bad.itemsize = 0;
  JGT_STATUS(JG_EINVAL, jg_view_from_pointer(&v, data, host, &bad, JG_DTYPE_FLOAT32, false, &err));
  JGT_CONTAINS(err.message, "itemsize");
  /* Volume 2^62 * 8 overflows. */
  bad = good;
  bad.shape[0] = INT64_C(1) << 62;
  bad.strides[0] = 0;
  bad.strides[1] = 0;
  JGT_STATUS(JG_EOVERFLOW,
             jg_view_from_pointer(&v, data, host, &bad, JG_DTYPE_FLOAT32, false, &err));
  JGT_CONTAINS(err.message, "volume");
  /* Element offsets fit, byte offsets do not: (2,) stride 2^61 of 8-byte elements. */
  jg_layout l8;
  JGT_OK(jg_layout_init(&l8, 1, (jg_len[]){2}, (jg_stride[]){INT64_C(1) << 61}, 8, &jgt_err_));
  JGT_STATUS(JG_EOVERFLOW,
             jg_view_from_pointer(&v, data, host, &l8, JG_DTYPE_FLOAT64, false, &err));
  JGT_CONTAINS(err.message, "byte offsets");
  JGT_STATUS(JG_EOVERFLOW, jg_view_from_buffer(&v, buf, &l8, JG_DTYPE_FLOAT64, false, &err));
  /* Byte offsets fit, the byte span does not: strides (2^62, -2^62) over (2, 2) bytes. */
  jg_layout span;
  JGT_OK(jg_layout_init(&span, 2, (jg_len[]){2, 2},
                        (jg_stride[]){INT64_C(1) << 62, -(INT64_C(1) << 62)}, 1, &jgt_err_));
  JGT_STATUS(JG_EOVERFLOW,
             jg_view_from_pointer(&v, data, host, &span, JG_DTYPE_UINT8, false, &err));
  assert_memory_equal(&v, &untouched, sizeof v);
  /* A zero-volume layout with stray strides is fine (they address nothing). */
  bad = good;
  bad.shape[0] = 0;
  bad.strides[0] = INT64_MAX;
  JGT_OK(jg_view_from_buffer(&v, buf, &bad, JG_DTYPE_FLOAT32, false, &jgt_err_));
  jg_buffer_release(buf);
}

/* ------------------------------------------------------------------------------------------ */
/* jg_view_data, jg_view_slice                                                                 */
/* ------------------------------------------------------------------------------------------ */

static void test_data_pointer(void **state) {
  (void)state;
  assert_null(jg_view_data(NULL));
  float data[20];
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){5}, (jg_stride[]){3}, 4, &jgt_err_));
  l.slice_offset = 3;
  jg_view v;
  JGT_OK(jg_view_from_pointer(&v, data, (jg_device)JG_DEVICE_HOST_INIT, &l, JG_DTYPE_FLOAT32, false,
                              &jgt_err_));
  assert_ptr_equal(jg_view_data(&v), &data[3]);
}

static void test_slice(void **state) {
  (void)state;
  int64_t data[5] = {10, 11, 12, 13, 14};
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){5}, NULL, 8, &jgt_err_));
  jg_view v, r;
  JGT_OK(jg_view_from_pointer(&v, data, (jg_device)JG_DEVICE_HOST_INIT, &l, JG_DTYPE_INT64, true,
                              &jgt_err_));
  /* v[::-1]: stride -1, slice offset 4, data pointer at the last element. */
  const jg_slice rev = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -1);
  JGT_OK(jg_view_slice(&r, &v, 1, &rev, &jgt_err_));
  assert_int_equal(r.layout.strides[0], -1);
  assert_int_equal(r.layout.slice_offset, 4);
  assert_ptr_equal(jg_view_data(&r), &data[4]);
  assert_ptr_equal(r.base, data);
  assert_true(r.readonly);
  assert_int_equal(r.dtype, JG_DTYPE_INT64);
  /* v[::-1][3:]: the pointer moves backward to data[1] (cuda.core test_view_sliced_external). */
  const jg_slice from3 = JG_SLICE(3, JG_SLICE_NONE, JG_SLICE_NONE);
  JGT_OK(jg_view_slice(&r, &r, 1, &from3, &jgt_err_)); /* in place */
  assert_int_equal(r.layout.shape[0], 2);
  assert_ptr_equal(jg_view_data(&r), &data[1]);
  /* An integer index leaves a 0-d view of that element. */
  const jg_slice idx = JG_INDEX(-2);
  JGT_OK(jg_view_slice(&r, &v, 1, &idx, &jgt_err_));
  assert_int_equal(r.layout.ndim, 0);
  assert_ptr_equal(jg_view_data(&r), &data[3]);
  /* Errors come from jg_layout_slice; the output is unchanged. */
  jg_error err;
  const jg_slice zero = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, 0);
  jg_view keep = r;
  JGT_STATUS(JG_EINVAL, jg_view_slice(&r, &v, 1, &zero, &err));
  assert_true(jg_layout_equal(&keep.layout, &r.layout));
  assert_ptr_equal(keep.base, r.base);
  const jg_slice far = JG_INDEX(5);
  JGT_STATUS(JG_EINDEX, jg_view_slice(&r, &v, 1, &far, &err));
  JGT_STATUS(JG_EINVAL, jg_view_slice(NULL, &v, 1, &rev, &err));
  JGT_STATUS(JG_EINVAL, jg_view_slice(&r, NULL, 1, &rev, &err));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_from_buffer_fields),     cmocka_unit_test(test_from_buffer_owned),
      cmocka_unit_test(test_from_buffer_size_check), cmocka_unit_test(test_from_buffer_empty),
      cmocka_unit_test(test_from_buffer_errors),     cmocka_unit_test(test_from_pointer_devices),
      cmocka_unit_test(test_from_pointer_errors),    cmocka_unit_test(test_handmade_layouts),
      cmocka_unit_test(test_data_pointer),           cmocka_unit_test(test_slice),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
