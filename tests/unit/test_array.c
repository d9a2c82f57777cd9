/* test_array.c: jagged arrays on the host (array.h): every constructor and its errors, backends
 * simulated with views of fake device pointers (constructors never dereference them), inspection,
 * slicing, zip / field / unzip, from_counts, moves that need no GPU, retain / release, and one
 * list-offset array past 2^31 content elements. Expected values are worked out by hand from
 * Awkward's semantics (../shared/notes/awkward.md 6.1, 6.5). */
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* A dense 1-D view over a fresh host copy of `vals` (n elements of dtype); *keep receives the
 * buffer (one reference, released by the caller). */
static jg_view host_view(const void *vals, jg_len n, jg_dtype dtype, jg_buffer **keep) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), (size_t)(n * isz), NULL, keep,
                            &jgt_err_));
  if (n > 0) memcpy(jg_buffer_data(*keep), vals, (size_t)(n * isz));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, isz, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, *keep, &l, dtype, false, &jgt_err_));
  return v;
}

/* A 1-D view of n elements at a fake address that claims to live on `device` (never
 * dereferenced), with a borrowed buffer so constructors can retain it. */
static jg_view fake_view(jg_device device, jg_len n, jg_dtype dtype, jg_buffer **keep) {
  static char dummy[64];
  void *p = (void *)((uintptr_t)dummy + 0x100000);
  const int64_t isz = jg_dtype_itemsize(dtype);
  JGT_OK(jg_buffer_wrap_borrowed(p, (size_t)(n * isz), keep, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, isz, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_pointer(&v, p, device, &l, dtype, true, &jgt_err_));
  v.buffer = *keep;
  return v;
}

/* true when a CUDA device is usable: the fake device pointers above must then not reach the
 * library's device paths, which would dereference them (the GPU tests use real memory). */
static bool gpu_present(void) {
  int n = 0;
  return jg_device_count(&n, NULL) == JG_OK && n > 0;
}

static const jg_device kCuda0 = {JG_DEVICE_CUDA, 0};
static const jg_device kCuda1 = {JG_DEVICE_CUDA, 1};

/* A numeric array of int64 values on the host. */
static jg_array *ints(const int64_t *v, jg_len n) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(v, n, JG_DTYPE_INT64, &a, &jgt_err_));
  return a;
}

/* A numeric array of n elements at a fake cuda address. */
static jg_array *fake_numeric(jg_device d, jg_len n) {
  jg_buffer *b = NULL;
  jg_view v = fake_view(d, n, JG_DTYPE_FLOAT32, &b);
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  jg_buffer_release(b);
  return a;
}

/* Element i of a 1-D integer view (host), through its layout. */
static int64_t view_int(const jg_view *v, jg_len i) {
  const char *p = (const char *)v->base +
                  (v->layout.slice_offset + i * v->layout.strides[0]) * v->layout.itemsize;
  switch (v->dtype) {
    case JG_DTYPE_INT32: {
      int32_t x;
      memcpy(&x, p, 4);
      return x;
    }
    case JG_DTYPE_INT64: {
      int64_t x;
      memcpy(&x, p, 8);
      return x;
    }
    case JG_DTYPE_UINT8:
    case JG_DTYPE_INT8:
    case JG_DTYPE_BOOL:
      return (int64_t)(uint8_t)*p;
    default:
      fail_msg("view_int: dtype %d", (int)v->dtype);
      return 0;
  }
}

/* Writes the lists of a one-level list array (list-offset, list or regular over int64 numeric)
 * as counts and values; returns the number of values. */
static jg_len read_lists(const jg_array *a, int64_t *counts, int64_t *values) {
  jg_array *content = jg_array_child(a, 0);
  assert_non_null(content);
  assert_int_equal(jg_array_kind(content), JG_NODE_NUMERIC);
  jg_view cv;
  JGT_OK(jg_array_buffer(content, 0, &cv, &jgt_err_));
  jg_len nv = 0;
  for (jg_len i = 0; i < jg_array_length(a); i++) {
    jg_len s = 0, e = 0;
    jg_view b0, b1;
    switch (jg_array_kind(a)) {
      case JG_NODE_LIST_OFFSET:
        JGT_OK(jg_array_buffer(a, 0, &b0, &jgt_err_));
        s = view_int(&b0, i);
        e = view_int(&b0, i + 1);
        break;
      case JG_NODE_LIST:
        JGT_OK(jg_array_buffer(a, 0, &b0, &jgt_err_));
        JGT_OK(jg_array_buffer(a, 1, &b1, &jgt_err_));
        s = view_int(&b0, i);
        e = view_int(&b1, i);
        break;
      case JG_NODE_REGULAR:
        s = i * jg_array_regular_size(a);
        e = s + jg_array_regular_size(a);
        break;
      default:
        fail_msg("read_lists: kind %d", (int)jg_array_kind(a));
    }
    counts[i] = e - s;
    if (e > s) assert_true(s >= 0 && e <= jg_array_length(content));
    for (jg_len j = s; j < e; j++) values[nv++] = view_int(&cv, j);
  }
  return nv;
}

static void assert_lists(const jg_array *a, const int64_t *counts, jg_len n,
                         const int64_t *values, jg_len nvalues) {
  assert_int_equal(jg_array_length(a), n);
  int64_t c[64], v[256];
  assert_true(n <= 64);
  const jg_len nv = read_lists(a, c, v);
  assert_int_equal(nv, nvalues);
  for (jg_len i = 0; i < n; i++) assert_int_equal(c[i], counts[i]);
  for (jg_len i = 0; i < nv; i++) assert_int_equal(v[i], values[i]);
}

/* A list-offset array over int64 content from host arrays. */
static jg_array *lists(const int64_t *offsets, jg_len n, const int64_t *content, jg_len nc) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host_offsets(offsets, n, content, nc, JG_DTYPE_INT64, &a, &jgt_err_));
  return a;
}

/* ------------------------------------------------------------------------------------------ */
/* Numeric, empty                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void test_numeric(void **state) {
  (void)state;
  const double vals[6] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
  jg_buffer *b = NULL;
  jg_view v = host_view(vals, 6, JG_DTYPE_FLOAT64, &b);
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  jg_buffer_release(b); /* the array holds its own reference */
  assert_int_equal(jg_array_kind(a), JG_NODE_NUMERIC);
  assert_int_equal(jg_array_length(a), 6);
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CPU);
  assert_int_equal(jg_array_device(a).type, JG_DEVICE_CPU);
  char name[16];
  assert_string_equal(jg_array_device_name(a, name, sizeof name), "cpu");
  assert_int_equal(jg_array_num_children(a), 0);
  assert_null(jg_array_child(a, 0));
  jg_view got;
  JGT_OK(jg_array_buffer(a, 0, &got, &jgt_err_));
  assert_int_equal(got.dtype, JG_DTYPE_FLOAT64);
  assert_true(((const double *)got.base)[5] == 6.5);
  jg_error err;
  JGT_STATUS(JG_EINDEX, jg_array_buffer(a, 1, &got, &err));
  assert_int_equal(err.index, 1);
  assert_int_equal(jg_array_regular_size(a), -1);
  assert_false(jg_array_valid_when(a));
  jg_array_release(a);

  /* 2-D data: length is the first extent; inner axis is regular. */
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){2, 3}, NULL, 8, &jgt_err_));
  JGT_OK(jg_buffer_wrap_borrowed((void *)vals, sizeof vals, &b, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&v, b, &l, JG_DTYPE_FLOAT64, true, &jgt_err_));
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 2);
  jg_array_release(a);

  /* float16 is accepted (storage only). */
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){4}, NULL, 2, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&v, b, &l, JG_DTYPE_FLOAT16, true, &jgt_err_));
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 4);
  jg_array_release(a);
  jg_buffer_release(b);
}

static void test_numeric_errors(void **state) {
  (void)state;
  const double vals[4] = {0};
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_borrowed((void *)vals, sizeof vals, &b, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){4}, NULL, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, b, &l, JG_DTYPE_FLOAT64, true, &jgt_err_));
  jg_array *a = (jg_array *)&a;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_numeric(NULL, &a, &err));
  assert_null(a);
  JGT_CONTAINS(err.message, "jg_array_numeric: data is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_numeric(&v, NULL, &err));
  jg_view nb = v;
  nb.buffer = NULL;
  JGT_STATUS(JG_EINVAL, jg_array_numeric(&nb, &a, &err));
  JGT_CONTAINS(err.message, "no buffer");
  /* ndim 0 */
  jg_view v0 = v;
  JGT_OK(jg_layout_init(&v0.layout, 0, NULL, NULL, 8, &jgt_err_));
  JGT_STATUS(JG_EINVAL, jg_array_numeric(&v0, &a, &err));
  JGT_CONTAINS(err.message, "ndim >= 1");
  /* complex and bfloat16 */
  jg_view vc;
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){2}, NULL, 16, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&vc, b, &l, JG_DTYPE_COMPLEX128, true, &jgt_err_));
  JGT_STATUS(JG_EDTYPE, jg_array_numeric(&vc, &a, &err));
  JGT_CONTAINS(err.message, "complex128");
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){2}, NULL, 2, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&vc, b, &l, JG_DTYPE_BFLOAT16, true, &jgt_err_));
  JGT_STATUS(JG_EDTYPE, jg_array_numeric(&vc, &a, &err));
  /* itemsize that does not match the dtype, and an invalid dtype */
  jg_view vm = v;
  vm.dtype = JG_DTYPE_INT32;
  JGT_STATUS(JG_EDTYPE, jg_array_numeric(&vm, &a, &err));
  vm.dtype = (jg_dtype)99;
  JGT_STATUS(JG_EDTYPE, jg_array_numeric(&vm, &a, &err));
  /* memory that is neither host- nor device-accessible */
  jg_view vn = v;
  vn.host_accessible = false;
  vn.device_accessible = false;
  JGT_STATUS(JG_EINVAL, jg_array_numeric(&vn, &a, &err));
  JGT_CONTAINS(err.message, "neither host- nor device-accessible");
  assert_null(a);
  jg_buffer_release(b);
}

static void test_empty(void **state) {
  (void)state;
  jg_array *a = NULL;
  JGT_OK(jg_array_empty(&a, &jgt_err_));
  assert_int_equal(jg_array_kind(a), JG_NODE_EMPTY);
  assert_int_equal(jg_array_length(a), 0);
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CPU);
  assert_int_equal(jg_array_num_children(a), 0);
  jg_view v;
  JGT_STATUS(JG_EINDEX, jg_array_buffer(a, 0, &v, NULL));
  jg_array_release(a);
  JGT_STATUS(JG_EINVAL, jg_array_empty(NULL, NULL));
}

/* ------------------------------------------------------------------------------------------ */
/* Lists                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void test_list_offset(void **state) {
  (void)state;
  /* offsets start at 2 and the content extends past the last offset (9 entries, 7 used). */
  const int64_t content_vals[9] = {0, 1, 10, 11, 12, 13, 14, 15, 16};
  const int32_t offs[4] = {2, 4, 4, 7};
  jg_array *c = ints(content_vals, 9);
  jg_buffer *ob = NULL;
  jg_view ov = host_view(offs, 4, JG_DTYPE_INT32, &ob);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&ov, c, &a, &jgt_err_));
  jg_buffer_release(ob);
  jg_array_release(c); /* retained by a */
  assert_int_equal(jg_array_kind(a), JG_NODE_LIST_OFFSET);
  assert_int_equal(jg_array_length(a), 3);
  assert_int_equal(jg_array_num_children(a), 1);
  assert_int_equal(jg_array_length(jg_array_child(a, 0)), 9);
  assert_lists(a, (const int64_t[]){2, 0, 3}, 3, (const int64_t[]){10, 11, 12, 13, 14}, 5);
  jg_array_release(a);

  /* One offset: zero lists (the value is arbitrary and not read). */
  c = ints(NULL, 0);
  const int64_t one[1] = {12345};
  jg_view v1 = host_view(one, 1, JG_DTYPE_INT64, &ob);
  JGT_OK(jg_array_list_offset(&v1, c, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 0);
  jg_array_release(a);
  jg_buffer_release(ob);
  jg_array_release(c);
}

static void test_list_offset_errors(void **state) {
  (void)state;
  const int64_t vals[3] = {1, 2, 3};
  jg_array *c = ints(vals, 3);
  jg_buffer *b = NULL;
  const float f[3] = {0, 1, 2};
  jg_view fv = host_view(f, 3, JG_DTYPE_FLOAT32, &b);
  jg_array *a = (jg_array *)&a;
  jg_error err;
  JGT_STATUS(JG_EDTYPE, jg_array_list_offset(&fv, c, &a, &err));
  assert_null(a);
  JGT_CONTAINS(err.message, "jg_array_list_offset: offsets must be int32 or int64, not float32");
  jg_buffer_release(b);
  jg_view ev = host_view(NULL, 0, JG_DTYPE_INT64, &b);
  JGT_STATUS(JG_ESHAPE, jg_array_list_offset(&ev, c, &a, &err));
  JGT_CONTAINS(err.message, "at least 1 entry");
  jg_buffer_release(b);
  const int64_t o2[4] = {0, 1, 2, 3};
  jg_view v2 = host_view(o2, 4, JG_DTYPE_INT64, &b);
  JGT_OK(jg_layout_init(&v2.layout, 2, (jg_len[]){2, 2}, NULL, 8, &jgt_err_));
  JGT_STATUS(JG_ESHAPE, jg_array_list_offset(&v2, c, &a, &err));
  JGT_CONTAINS(err.message, "1-D");
  JGT_STATUS(JG_EINVAL, jg_array_list_offset(&v2, NULL, &a, &err));
  JGT_CONTAINS(err.message, "content is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_list_offset(NULL, c, &a, &err));
  JGT_STATUS(JG_EINVAL, jg_array_list_offset(&v2, c, NULL, &err));
  jg_buffer_release(b);
  jg_array_release(c);
}

static void test_backends_simulated(void **state) {
  (void)state;
  if (gpu_present()) skip(); /* validation would read the fake cuda:0 memory */
  /* Offsets at a fake cuda:0 address over host content: mixed backends. */
  const int64_t vals[3] = {1, 2, 3};
  jg_array *hc = ints(vals, 3);
  jg_buffer *ob = NULL;
  jg_view dv = fake_view(kCuda0, 4, JG_DTYPE_INT64, &ob);
  jg_array *a = NULL;
  jg_error err;
  JGT_STATUS(JG_EBACKEND, jg_array_list_offset(&dv, hc, &a, &err));
  assert_null(a);
  assert_string_equal(err.message,
                      "jg_array_list_offset: content is on cpu, offsets on cuda:0: copy it with "
                      "jg_array_to_device");
  /* Everything on fake cuda:0: fine, and nothing was dereferenced. */
  jg_array *dc = fake_numeric(kCuda0, 3);
  assert_int_equal(jg_array_backend(dc), JG_BACKEND_CUDA);
  JGT_OK(jg_array_list_offset(&dv, dc, &a, &jgt_err_));
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  assert_int_equal(jg_array_device(a).type, JG_DEVICE_CUDA);
  assert_int_equal(jg_array_device(a).id, 0);
  char name[16];
  assert_string_equal(jg_array_device_name(a, name, sizeof name), "cuda:0");
  jg_array_release(a);
  /* Content on another GPU. */
  jg_array *dc1 = fake_numeric(kCuda1, 3);
  JGT_STATUS(JG_EBACKEND, jg_array_list_offset(&dv, dc1, &a, &err));
  JGT_CONTAINS(err.message, "content is on cuda:1, offsets on cuda:0");
  /* Pinned and managed memory count as cpu. */
  jg_buffer *pb = NULL;
  jg_view pv = fake_view((jg_device){JG_DEVICE_CUDA_HOST, 0}, 4, JG_DTYPE_INT64, &pb);
  JGT_OK(jg_array_list_offset(&pv, hc, &a, &jgt_err_));
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CPU);
  jg_array_release(a);
  jg_buffer_release(pb);
  jg_view mv = fake_view((jg_device){JG_DEVICE_CUDA_MANAGED, 0}, 4, JG_DTYPE_INT64, &pb);
  JGT_OK(jg_array_list_offset(&mv, hc, &a, &jgt_err_));
  assert_int_equal(jg_array_device(a).type, JG_DEVICE_CPU);
  jg_array_release(a);
  JGT_STATUS(JG_EBACKEND, jg_array_list_offset(&mv, dc, &a, &err));
  JGT_CONTAINS(err.message, "content is on cuda:0, offsets on cpu: copy it with "
                            "jg_array_to_host");
  jg_buffer_release(pb);

  /* check_same_backend, both directions and the default names. */
  JGT_OK(jg_array_check_same_backend(dc, "x", dc, "y", &jgt_err_));
  JGT_STATUS(JG_EBACKEND, jg_array_check_same_backend(dc, "argument 1", hc, "argument 2", &err));
  assert_string_equal(err.message,
                      "argument 2 is on cpu, argument 1 on cuda:0: copy it with "
                      "jg_array_to_device");
  JGT_STATUS(JG_EBACKEND, jg_array_check_same_backend(hc, "events", dc, "muons", &err));
  assert_string_equal(err.message,
                      "muons is on cuda:0, events on cpu: copy it with jg_array_to_host");
  JGT_STATUS(JG_EBACKEND, jg_array_check_same_backend(dc1, NULL, dc, NULL, &err));
  assert_string_equal(err.message,
                      "argument 2 is on cuda:0, argument 1 on cuda:1: copy it with "
                      "jg_array_to_device");
  JGT_STATUS(JG_EINVAL, jg_array_check_same_backend(NULL, "a", dc, "b", &err));

  /* Records and options check backends too. */
  jg_array *fields[2] = {hc, dc};
  const char *names[2] = {"x", "y"};
  JGT_STATUS(JG_EBACKEND, jg_array_record(2, fields, names, -1, &a, &err));
  assert_string_equal(err.message, "jg_array_record: field 'y' is on cuda:0, field 'x' on cpu: "
                                   "copy it with jg_array_to_host");
  jg_buffer *mb = NULL;
  jg_view mask = fake_view(kCuda0, 3, JG_DTYPE_INT8, &mb);
  JGT_STATUS(JG_EBACKEND, jg_array_byte_masked(&mask, true, hc, &a, &err));
  JGT_OK(jg_array_byte_masked(&mask, true, dc, &a, &jgt_err_));
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  /* A device array cannot be moved or copied without a GPU (this machine has none, or the
   * build has no CUDA): to_host reports it, and leaves nothing behind. */
  jg_array *h = (jg_array *)&h;
  JGT_STATUS(JG_ENODEV, jg_array_to_host(a, NULL, &h, &err));
  assert_null(h);
  JGT_CONTAINS(err.message, "jg_array_to_host: ");
  jg_array_release(a);
  jg_buffer_release(mb);

  jg_buffer_release(ob);
  jg_array_release(hc);
  jg_array_release(dc);
  jg_array_release(dc1);
}

static void test_list(void **state) {
  (void)state;
  const int64_t vals[6] = {10, 11, 12, 13, 14, 15};
  jg_array *c = ints(vals, 6);
  /* Out of order, overlapping, with an empty list whose start is out of range. */
  const int64_t starts[4] = {4, 0, 99, 1};
  const int64_t stops[5] = {6, 2, 99, 3, 777}; /* stops may be longer */
  jg_buffer *sb = NULL, *eb = NULL;
  jg_view sv = host_view(starts, 4, JG_DTYPE_INT64, &sb);
  jg_view ev = host_view(stops, 5, JG_DTYPE_INT64, &eb);
  jg_array *a = NULL;
  JGT_OK(jg_array_list(&sv, &ev, c, &a, &jgt_err_));
  assert_int_equal(jg_array_kind(a), JG_NODE_LIST);
  assert_lists(a, (const int64_t[]){2, 2, 0, 2}, 4, (const int64_t[]){14, 15, 10, 11, 11, 12},
               6);
  jg_view got;
  JGT_OK(jg_array_buffer(a, 1, &got, &jgt_err_));
  assert_int_equal(got.layout.shape[0], 5);
  jg_array_release(a);
  jg_error err;
  /* stops shorter than starts; dtypes differ */
  jg_view short_stops = ev;
  short_stops.layout.shape[0] = 3;
  JGT_STATUS(JG_ESHAPE, jg_array_list(&sv, &short_stops, c, &a, &err));
  JGT_CONTAINS(err.message, "stops has 3 entries, fewer than starts (4)");
  jg_buffer *b32 = NULL;
  const int32_t s32[4] = {0, 0, 0, 0};
  jg_view v32 = host_view(s32, 4, JG_DTYPE_INT32, &b32);
  JGT_STATUS(JG_EDTYPE, jg_array_list(&v32, &ev, c, &a, &err));
  JGT_CONTAINS(err.message, "same dtype");
  JGT_STATUS(JG_EINVAL, jg_array_list(&sv, NULL, c, &a, &err));
  JGT_CONTAINS(err.message, "stops is NULL");
  jg_buffer_release(b32);
  jg_buffer_release(sb);
  jg_buffer_release(eb);
  jg_array_release(c);
}

static void test_regular(void **state) {
  (void)state;
  const int64_t vals[7] = {0, 1, 2, 3, 4, 5, 6};
  jg_array *c = ints(vals, 7);
  jg_array *a = NULL;
  JGT_OK(jg_array_regular(c, 3, -1, &a, &jgt_err_));
  assert_int_equal(jg_array_kind(a), JG_NODE_REGULAR);
  assert_int_equal(jg_array_length(a), 2); /* 7 / 3, the 7th value unused */
  assert_int_equal(jg_array_regular_size(a), 3);
  assert_lists(a, (const int64_t[]){3, 3}, 2, (const int64_t[]){0, 1, 2, 3, 4, 5}, 6);
  jg_array_release(a);
  JGT_OK(jg_array_regular(c, 0, 5, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 5);
  assert_int_equal(jg_array_regular_size(a), 0);
  jg_array_release(a);
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_regular(c, -1, -1, &a, &err));
  JGT_CONTAINS(err.message, "size -1 is negative");
  JGT_STATUS(JG_EINVAL, jg_array_regular(c, 0, -1, &a, &err));
  JGT_STATUS(JG_EINVAL, jg_array_regular(NULL, 2, -1, &a, &err));
  jg_array_release(c);
}

/* ------------------------------------------------------------------------------------------ */
/* Records                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void test_record(void **state) {
  (void)state;
  const int64_t xv[3] = {1, 2, 3}, yv[4] = {10, 20, 30, 40};
  jg_array *x = ints(xv, 3), *y = ints(yv, 4);
  jg_array *fields[2] = {x, y};
  const char *names[2] = {"x", "y"};
  jg_array *r = NULL;
  JGT_OK(jg_array_record(2, fields, names, -1, &r, &jgt_err_));
  assert_int_equal(jg_array_kind(r), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(r), 3); /* the shortest field */
  assert_int_equal(jg_array_num_children(r), 2);
  assert_ptr_equal(jg_array_child(r, 1), y);
  assert_null(jg_array_child(r, 2));
  assert_null(jg_array_child(r, -1));
  assert_string_equal(jg_array_field_name(r, 0), "x");
  assert_string_equal(jg_array_field_name(r, 1), "y");
  assert_null(jg_array_field_name(r, 2));
  assert_int_equal(jg_array_field_index(r, "y"), 1);
  assert_int_equal(jg_array_field_index(r, "z"), -1);
  assert_int_equal(jg_array_field_index(r, "1"), -1);
  jg_array_release(r);
  /* The names are copied. */
  char nx[2] = "a", ny[2] = "b";
  const char *mutable_names[2] = {nx, ny};
  JGT_OK(jg_array_record(2, fields, mutable_names, 2, &r, &jgt_err_));
  nx[0] = 'q';
  assert_string_equal(jg_array_field_name(r, 0), "a");
  assert_int_equal(jg_array_length(r), 2);
  jg_array_release(r);
  /* Tuples: names NULL; fields "0" and "1". */
  JGT_OK(jg_array_record(2, fields, NULL, -1, &r, &jgt_err_));
  assert_null(jg_array_field_name(r, 0));
  assert_int_equal(jg_array_field_index(r, "0"), 0);
  assert_int_equal(jg_array_field_index(r, "1"), 1);
  assert_int_equal(jg_array_field_index(r, "2"), -1);
  assert_int_equal(jg_array_field_index(r, "01"), -1);
  assert_int_equal(jg_array_field_index(r, "-1"), -1);
  assert_int_equal(jg_array_field_index(r, ""), -1);
  jg_array_release(r);
  /* Zero fields need a length. */
  JGT_OK(jg_array_record(0, NULL, NULL, 4, &r, &jgt_err_));
  assert_int_equal(jg_array_length(r), 4);
  assert_int_equal(jg_array_backend(r), JG_BACKEND_CPU);
  jg_array_release(r);

  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_record(0, NULL, NULL, -1, &r, &err));
  JGT_CONTAINS(err.message, "explicit length");
  JGT_STATUS(JG_ESHAPE, jg_array_record(2, fields, names, 4, &r, &err));
  assert_int_equal(err.index, 0);
  JGT_CONTAINS(err.message, "field 0 has length 3, shorter than the record's 4");
  jg_array *withnull[2] = {x, NULL};
  JGT_STATUS(JG_EINVAL, jg_array_record(2, withnull, names, -1, &r, &err));
  assert_int_equal(err.index, 1);
  const char *dup[2] = {"x", "x"};
  JGT_STATUS(JG_EINVAL, jg_array_record(2, fields, dup, -1, &r, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "jg_array_record: field name 'x' is used by fields 0 and 1");
  const char *empty[2] = {"x", ""};
  JGT_STATUS(JG_EINVAL, jg_array_record(2, fields, empty, -1, &r, &err));
  JGT_CONTAINS(err.message, "field name 1 is empty");
  const char *nul[2] = {NULL, "y"};
  JGT_STATUS(JG_EINVAL, jg_array_record(2, fields, nul, -1, &r, &err));
  JGT_STATUS(JG_EINVAL, jg_array_record(2, fields, names, -2, &r, &err));
  JGT_STATUS(JG_EINVAL, jg_array_record(-1, fields, names, -1, &r, &err));
  JGT_STATUS(JG_EINVAL, jg_array_record(2, NULL, names, -1, &r, &err));
  jg_array_release(x);
  jg_array_release(y);
}

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void test_options(void **state) {
  (void)state;
  const int64_t vals[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  jg_array *c = ints(vals, 10);
  jg_array *a = NULL;
  jg_error err;
  /* byte-masked */
  const int8_t m[4] = {1, 0, 1, 1};
  jg_buffer *mb = NULL;
  jg_view mv = host_view(m, 4, JG_DTYPE_INT8, &mb);
  JGT_OK(jg_array_byte_masked(&mv, false, c, &a, &jgt_err_));
  assert_int_equal(jg_array_kind(a), JG_NODE_BYTE_MASKED);
  assert_int_equal(jg_array_length(a), 4);
  assert_false(jg_array_valid_when(a));
  jg_array_release(a);
  JGT_OK(jg_array_byte_masked(&mv, true, c, &a, &jgt_err_));
  assert_true(jg_array_valid_when(a));
  assert_false(jg_array_lsb_order(a));
  jg_array_release(a);
  jg_array *short_content = ints(vals, 3);
  JGT_STATUS(JG_ESHAPE, jg_array_byte_masked(&mv, true, short_content, &a, &err));
  JGT_CONTAINS(err.message, "content has 3 entries, fewer than the mask's 4");
  jg_buffer_release(mb);
  const int32_t m32[4] = {0};
  mv = host_view(m32, 4, JG_DTYPE_INT32, &mb);
  JGT_STATUS(JG_EDTYPE, jg_array_byte_masked(&mv, true, c, &a, &err));
  JGT_CONTAINS(err.message, "mask must be int8, uint8 or bool, not int32");
  jg_buffer_release(mb);

  /* bit-masked: 10 entries need 2 bytes */
  const uint8_t bits[2] = {0x0F, 0x01};
  mv = host_view(bits, 2, JG_DTYPE_UINT8, &mb);
  JGT_OK(jg_array_bit_masked(&mv, true, true, 10, c, &a, &jgt_err_));
  assert_int_equal(jg_array_kind(a), JG_NODE_BIT_MASKED);
  assert_int_equal(jg_array_length(a), 10);
  assert_true(jg_array_valid_when(a));
  assert_true(jg_array_lsb_order(a));
  assert_int_equal(jg_array_bit_offset(a), 0);
  jg_array_release(a);
  JGT_STATUS(JG_ESHAPE, jg_array_bit_masked(&mv, false, false, 16, c, &a, &err));
  JGT_CONTAINS(err.message, "content has 10 entries, fewer than the length 16");
  JGT_STATUS(JG_ESHAPE, jg_array_bit_masked(&mv, true, true, 17, c, &a, &err));
  JGT_CONTAINS(err.message, "17 entries need 3 mask bytes, the mask has 2");
  JGT_STATUS(JG_ESHAPE, jg_array_bit_masked(&mv, true, true, 4, short_content, &a, &err));
  JGT_STATUS(JG_EINVAL, jg_array_bit_masked(&mv, true, true, -1, c, &a, &err));
  jg_view mi8 = mv;
  mi8.dtype = JG_DTYPE_INT8;
  JGT_STATUS(JG_EDTYPE, jg_array_bit_masked(&mi8, true, true, 8, c, &a, &err));
  jg_buffer_release(mb);

  /* indexed option */
  const int64_t idx[5] = {3, -1, 0, -5, 9};
  mv = host_view(idx, 5, JG_DTYPE_INT64, &mb);
  JGT_OK(jg_array_indexed_option(&mv, short_content, &a, &jgt_err_)); /* values not read */
  assert_int_equal(jg_array_kind(a), JG_NODE_INDEXED_OPTION);
  assert_int_equal(jg_array_length(a), 5);
  assert_false(jg_array_valid_when(a));
  jg_array_release(a);
  jg_view idx2 = mv;
  JGT_OK(jg_layout_init(&idx2.layout, 2, (jg_len[]){1, 5}, NULL, 8, &jgt_err_));
  JGT_STATUS(JG_ESHAPE, jg_array_indexed_option(&idx2, c, &a, &err));
  jg_buffer_release(mb);
  const float fidx[2] = {0, 1};
  mv = host_view(fidx, 2, JG_DTYPE_FLOAT32, &mb);
  JGT_STATUS(JG_EDTYPE, jg_array_indexed_option(&mv, c, &a, &err));
  JGT_STATUS(JG_EINVAL, jg_array_indexed_option(&mv, NULL, &a, &err));
  jg_buffer_release(mb);
  jg_array_release(short_content);
  jg_array_release(c);
}

/* ------------------------------------------------------------------------------------------ */
/* From host arrays and counts                                                                 */
/* ------------------------------------------------------------------------------------------ */

static void test_from_host(void **state) {
  (void)state;
  const float vals[3] = {1.5f, -2.0f, 4.25f};
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(vals, 3, JG_DTYPE_FLOAT32, &a, &jgt_err_));
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  assert_ptr_not_equal(v.base, vals); /* copied */
  assert_int_equal(jg_buffer_get_mode(v.buffer), JG_BUFFER_OWNED);
  assert_memory_equal(v.base, vals, sizeof vals);
  jg_array_release(a);
  JGT_OK(jg_array_from_host(NULL, 0, JG_DTYPE_INT8, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 0);
  jg_array_release(a);
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_from_host(NULL, 2, JG_DTYPE_INT8, &a, &err));
  JGT_STATUS(JG_EINVAL, jg_array_from_host(vals, -1, JG_DTYPE_INT8, &a, &err));
  JGT_STATUS(JG_EDTYPE, jg_array_from_host(vals, 1, JG_DTYPE_COMPLEX64, &a, &err));
  JGT_STATUS(JG_EDTYPE, jg_array_from_host(vals, 1, JG_DTYPE_INVALID, &a, &err));
  JGT_STATUS(JG_EOVERFLOW, jg_array_from_host(vals, INT64_MAX / 4, JG_DTYPE_FLOAT64, &a, &err));
  JGT_CONTAINS(err.message, "jg_array_from_host: ");
  JGT_STATUS(JG_EINVAL, jg_array_from_host(vals, 1, JG_DTYPE_INT8, NULL, &err));
}

static void test_from_host_offsets(void **state) {
  (void)state;
  const int64_t content[6] = {1, 2, 3, 4, 5, 6};
  /* Offsets starting at 1, content extending past the last offset. */
  jg_array *a = lists((const int64_t[]){1, 3, 3, 4}, 3, content, 6);
  assert_lists(a, (const int64_t[]){2, 0, 1}, 3, (const int64_t[]){2, 3, 4}, 3);
  assert_int_equal(jg_array_length(jg_array_child(a, 0)), 6);
  jg_array_release(a);
  /* Zero lists: the single offset may be anything. */
  a = lists((const int64_t[]){-7}, 0, NULL, 0);
  assert_int_equal(jg_array_length(a), 0);
  jg_array_release(a);
  /* Empty lists only. */
  a = lists((const int64_t[]){0, 0, 0}, 2, NULL, 0);
  assert_lists(a, (const int64_t[]){0, 0}, 2, NULL, 0);
  jg_array_release(a);
  jg_error err;
  JGT_STATUS(JG_EVALUE, jg_array_from_host_offsets((const int64_t[]){0, 3, 2}, 2, content, 6,
                                                   JG_DTYPE_INT64, &a, &err));
  assert_int_equal(err.index, 2);
  JGT_CONTAINS(err.message, "offsets not monotonic at 2 (2 after 3)");
  JGT_STATUS(JG_EVALUE, jg_array_from_host_offsets((const int64_t[]){0, 3, 7}, 2, content, 6,
                                                   JG_DTYPE_INT64, &a, &err));
  assert_int_equal(err.index, 2);
  JGT_CONTAINS(err.message, "past the content's length 6");
  JGT_STATUS(JG_EVALUE, jg_array_from_host_offsets((const int64_t[]){-1, 3}, 1, content, 6,
                                                   JG_DTYPE_INT64, &a, &err));
  assert_int_equal(err.index, 0);
  JGT_STATUS(JG_EINVAL, jg_array_from_host_offsets(NULL, 1, content, 6, JG_DTYPE_INT64, &a,
                                                   &err));
  JGT_STATUS(JG_EINVAL, jg_array_from_host_offsets((const int64_t[]){0}, -1, content, 6,
                                                   JG_DTYPE_INT64, &a, &err));
  JGT_STATUS(JG_EDTYPE, jg_array_from_host_offsets((const int64_t[]){0, 1}, 1, content, 6,
                                                   JG_DTYPE_BFLOAT16, &a, &err));
}

static void test_from_host_counts(void **state) {
  (void)state;
  const double content[5] = {1.5, 2.5, 3.5, 4.5, 5.5};
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host_counts((const int64_t[]){2, 0, 3}, 3, content, 5, JG_DTYPE_FLOAT64,
                                   &a, &jgt_err_));
  jg_view ov;
  JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
  assert_int_equal(ov.dtype, JG_DTYPE_INT64);
  assert_int_equal(ov.layout.shape[0], 4);
  const int64_t want[4] = {0, 2, 2, 5};
  for (int i = 0; i < 4; i++) assert_int_equal(view_int(&ov, i), want[i]);
  jg_array_release(a);
  JGT_OK(jg_array_from_host_counts(NULL, 0, NULL, 0, JG_DTYPE_FLOAT64, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 0);
  jg_array_release(a);
  jg_error err;
  JGT_STATUS(JG_EVALUE, jg_array_from_host_counts((const int64_t[]){2, 9, -1}, 3, content, 5,
                                                  JG_DTYPE_FLOAT64, &a, &err));
  assert_int_equal(err.index, 2); /* negative first, though count 1 is also too large */
  JGT_CONTAINS(err.message, "counts[2] is negative");
  JGT_STATUS(JG_EVALUE, jg_array_from_host_counts((const int64_t[]){2, 9, 1}, 3, content, 5,
                                                  JG_DTYPE_FLOAT64, &a, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "counts[1] = 9 is larger than the content's length 5");
  JGT_STATUS(JG_EVALUE, jg_array_from_host_counts((const int64_t[]){2, 2}, 2, content, 5,
                                                  JG_DTYPE_FLOAT64, &a, &err));
  assert_int_equal(err.index, -1);
  JGT_CONTAINS(err.message, "the counts add up to 4 but the content has 5 entries");
  JGT_STATUS(JG_EINVAL, jg_array_from_host_counts(NULL, 2, content, 5, JG_DTYPE_FLOAT64, &a,
                                                  &err));
}

static void test_from_counts_host(void **state) {
  (void)state;
  const int64_t vals[6] = {1, 2, 3, 4, 5, 6};
  jg_array *c = ints(vals, 6);
  /* int32 counts with stride 2 (every other element of 8): 3, 0, 1, 2 */
  const int32_t raw[8] = {3, 99, 0, 99, 1, 99, 2, 99};
  jg_buffer *cb = NULL;
  jg_view cv = host_view(raw, 8, JG_DTYPE_INT32, &cb);
  const jg_slice s = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, 2);
  JGT_OK(jg_view_slice(&cv, &cv, 1, &s, &jgt_err_));
  jg_array *a = NULL;
  JGT_OK(jg_array_from_counts(&cv, c, NULL, &a, &jgt_err_));
  assert_lists(a, (const int64_t[]){3, 0, 1, 2}, 4, vals, 6);
  jg_view ov;
  JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
  assert_int_equal(view_int(&ov, 0), 0);
  assert_int_equal(view_int(&ov, 4), 6);
  jg_array_release(a);
  /* Counts need no buffer. */
  jg_view nobuf = cv;
  nobuf.buffer = NULL;
  JGT_OK(jg_array_from_counts(&nobuf, c, NULL, &a, &jgt_err_));
  jg_array_release(a);
  jg_error err;
  /* Reversed: 2, 1, 0, 3 still sums to 6; negative stride. */
  const jg_slice rev = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -1);
  jg_view rv = cv;
  JGT_OK(jg_view_slice(&rv, &cv, 1, &rev, &jgt_err_));
  JGT_OK(jg_array_from_counts(&rv, c, NULL, &a, &jgt_err_));
  assert_lists(a, (const int64_t[]){2, 1, 0, 3}, 4, vals, 6);
  jg_array_release(a);
  /* Sum mismatch, negative count. */
  jg_array *c5 = ints(vals, 5);
  JGT_STATUS(JG_EVALUE, jg_array_from_counts(&cv, c5, NULL, &a, &err));
  JGT_CONTAINS(err.message, "jg_array_from_counts: the counts add up to 6 but the content has 5");
  jg_buffer_release(cb);
  const int64_t neg[3] = {1, -1, 6};
  cv = host_view(neg, 3, JG_DTYPE_INT64, &cb);
  JGT_STATUS(JG_EVALUE, jg_array_from_counts(&cv, c, NULL, &a, &err));
  assert_int_equal(err.index, 1);
  /* Zero counts over empty content. */
  jg_view zv = cv;
  zv.layout.shape[0] = 0;
  zv.layout.strides[0] = 0;
  jg_array *e = ints(NULL, 0);
  JGT_OK(jg_array_from_counts(&zv, e, NULL, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 0);
  jg_array_release(a);
  /* dtype and shape errors */
  jg_view fv = cv;
  fv.dtype = JG_DTYPE_FLOAT64;
  JGT_STATUS(JG_EDTYPE, jg_array_from_counts(&fv, c, NULL, &a, &err));
  jg_view v2 = cv;
  JGT_OK(jg_layout_init(&v2.layout, 2, (jg_len[]){1, 3}, NULL, 8, &jgt_err_));
  JGT_STATUS(JG_ESHAPE, jg_array_from_counts(&v2, c, NULL, &a, &err));
  JGT_STATUS(JG_EINVAL, jg_array_from_counts(&cv, NULL, NULL, &a, &err));
  jg_buffer_release(cb);
  /* The running sum overflows int64 over a broadcast content of 2^62 entries (stride 0). */
  const float one = 1;
  jg_buffer *b1 = NULL;
  jg_view bv = host_view(&one, 1, JG_DTYPE_FLOAT32, &b1);
  const jg_len huge = (jg_len)1 << 62;
  JGT_OK(jg_layout_init(&bv.layout, 1, &huge, (const jg_stride[]){0}, 4, &jgt_err_));
  jg_array *bcast = NULL;
  JGT_OK(jg_array_numeric(&bv, &bcast, &jgt_err_));
  const int64_t hc[4] = {huge, huge, huge, huge};
  cv = host_view(hc, 4, JG_DTYPE_INT64, &cb);
  JGT_STATUS(JG_EOVERFLOW, jg_array_from_counts(&cv, bcast, NULL, &a, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "the sum of counts[0..1] overflows int64");
  cv.layout.shape[0] = 1;
  JGT_OK(jg_array_from_counts(&cv, bcast, NULL, &a, &jgt_err_));
  JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
  assert_int_equal(view_int(&ov, 1), huge);
  jg_array_release(a);
  jg_array_release(bcast);
  jg_buffer_release(b1);
  jg_buffer_release(cb);
  /* Counts on a (fake) device with host content: mixed backends. */
  jg_buffer *db = NULL;
  jg_view dv = fake_view(kCuda0, 3, JG_DTYPE_INT64, &db);
  JGT_STATUS(JG_EBACKEND, jg_array_from_counts(&dv, c, NULL, &a, &err));
  assert_string_equal(err.message, "jg_array_from_counts: counts is on cuda:0, content on cpu: "
                                   "copy it with jg_array_to_host");
  /* Both on a device but no GPU here: the device path reports it. */
  if (!gpu_present()) {
    jg_array *dc = fake_numeric(kCuda0, 6);
    JGT_STATUS(JG_ENODEV, jg_array_from_counts(&dv, dc, NULL, &a, &err));
    assert_null(a);
    jg_array_release(dc);
  }
  jg_buffer_release(db);
  jg_array_release(e);
  jg_array_release(c5);
  jg_array_release(c);
}

/* ------------------------------------------------------------------------------------------ */
/* Slicing                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void test_slice_lists(void **state) {
  (void)state;
  const int64_t content[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  /* [[1, 2], [], [3, 4, 5], [6]] with offsets starting at 1 and content past the end */
  jg_array *a = lists((const int64_t[]){1, 3, 3, 6, 7}, 4, content, 8);
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 1, 3, &s, &jgt_err_));
  assert_lists(s, (const int64_t[]){0, 3}, 2, (const int64_t[]){3, 4, 5}, 3);
  jg_view ov, sv;
  JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
  JGT_OK(jg_array_buffer(s, 0, &sv, &jgt_err_));
  assert_ptr_equal(sv.buffer, ov.buffer); /* shared, not copied */
  assert_int_equal(sv.layout.shape[0], 3);
  assert_int_equal(view_int(&sv, 0), 3);
  assert_ptr_equal(jg_array_child(s, 0), jg_array_child(a, 0));
  /* A slice of a slice, then release the original first. */
  jg_array *s2 = NULL;
  JGT_OK(jg_array_slice(s, -1, 100, &s2, &jgt_err_));
  jg_array_release(s);
  jg_array_release(a);
  assert_lists(s2, (const int64_t[]){3}, 1, (const int64_t[]){3, 4, 5}, 3);
  jg_array_release(s2);

  a = lists((const int64_t[]){1, 3, 3, 6, 7}, 4, content, 8);
  /* Negative bounds, clipping, empty results, the whole range. */
  JGT_OK(jg_array_slice(a, -3, -1, &s, &jgt_err_));
  assert_lists(s, (const int64_t[]){0, 3}, 2, (const int64_t[]){3, 4, 5}, 3);
  jg_array_release(s);
  JGT_OK(jg_array_slice(a, -100, 2, &s, &jgt_err_));
  assert_lists(s, (const int64_t[]){2, 0}, 2, (const int64_t[]){1, 2}, 2);
  jg_array_release(s);
  JGT_OK(jg_array_slice(a, 3, 1, &s, &jgt_err_));
  assert_int_equal(jg_array_length(s), 0);
  jg_array_release(s);
  JGT_OK(jg_array_slice(a, 10, 20, &s, &jgt_err_));
  assert_int_equal(jg_array_length(s), 0);
  jg_array_release(s);
  JGT_OK(jg_array_slice(a, 0, INT64_MAX, &s, &jgt_err_));
  assert_ptr_equal(s, a);
  jg_array_release(s);
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_slice(NULL, 0, 1, &s, &err));
  JGT_STATUS(JG_EINVAL, jg_array_slice(a, 0, 1, NULL, &err));
  jg_array_release(a);

  /* list (starts / stops) */
  const int64_t starts[3] = {5, 0, 2}, stops[3] = {7, 2, 2};
  jg_buffer *b0 = NULL, *b1 = NULL;
  jg_view v0 = host_view(starts, 3, JG_DTYPE_INT64, &b0);
  jg_view v1 = host_view(stops, 3, JG_DTYPE_INT64, &b1);
  jg_array *c = ints(content, 8);
  JGT_OK(jg_array_list(&v0, &v1, c, &a, &jgt_err_));
  JGT_OK(jg_array_slice(a, 1, 3, &s, &jgt_err_));
  assert_lists(s, (const int64_t[]){2, 0}, 2, (const int64_t[]){0, 1}, 2);
  jg_array_release(s);
  jg_array_release(a);
  /* regular */
  JGT_OK(jg_array_regular(c, 2, -1, &a, &jgt_err_));
  JGT_OK(jg_array_slice(a, 1, 3, &s, &jgt_err_));
  assert_int_equal(jg_array_regular_size(s), 2);
  assert_int_equal(jg_array_length(jg_array_child(s, 0)), 4);
  assert_lists(s, (const int64_t[]){2, 2}, 2, (const int64_t[]){2, 3, 4, 5}, 4);
  jg_array_release(s);
  jg_array_release(a);
  JGT_OK(jg_array_regular(c, 0, 5, &a, &jgt_err_));
  JGT_OK(jg_array_slice(a, 1, 3, &s, &jgt_err_));
  assert_int_equal(jg_array_length(s), 2);
  jg_array_release(s);
  jg_array_release(a);
  jg_array_release(c);
  jg_buffer_release(b0);
  jg_buffer_release(b1);
}

static void test_slice_numeric_record_options(void **state) {
  (void)state;
  const int64_t xv[5] = {0, 1, 2, 3, 4}, yv[6] = {10, 11, 12, 13, 14, 15};
  jg_array *x = ints(xv, 5), *y = ints(yv, 6);
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(x, 1, -1, &s, &jgt_err_));
  assert_int_equal(jg_array_length(s), 3);
  jg_view v;
  JGT_OK(jg_array_buffer(s, 0, &v, &jgt_err_));
  assert_int_equal(view_int(&v, 0), 1);
  assert_int_equal(view_int(&v, 2), 3);
  jg_array_release(s);
  /* Record of length 4 over fields of 5 and 6: slicing slices each field. */
  jg_array *fields[2] = {x, y};
  const char *names[2] = {"x", "y"};
  jg_array *r = NULL;
  JGT_OK(jg_array_record(2, fields, names, 4, &r, &jgt_err_));
  JGT_OK(jg_array_slice(r, 2, 10, &s, &jgt_err_));
  assert_int_equal(jg_array_length(s), 2);
  assert_string_equal(jg_array_field_name(s, 1), "y");
  JGT_OK(jg_array_buffer(jg_array_child(s, 1), 0, &v, &jgt_err_));
  assert_int_equal(jg_array_length(jg_array_child(s, 1)), 2);
  assert_int_equal(view_int(&v, 0), 12);
  assert_int_equal(view_int(&v, 1), 13);
  jg_array_release(s);
  jg_array_release(r);
  /* byte-masked */
  const uint8_t m[5] = {1, 0, 1, 0, 1};
  jg_buffer *mb = NULL;
  jg_view mv = host_view(m, 5, JG_DTYPE_UINT8, &mb);
  jg_array *o = NULL;
  JGT_OK(jg_array_byte_masked(&mv, true, y, &o, &jgt_err_));
  JGT_OK(jg_array_slice(o, 1, 3, &s, &jgt_err_));
  assert_int_equal(jg_array_length(s), 2);
  JGT_OK(jg_array_buffer(s, 0, &v, &jgt_err_));
  assert_int_equal(view_int(&v, 0), 0);
  assert_int_equal(view_int(&v, 1), 1);
  assert_int_equal(jg_array_length(jg_array_child(s, 0)), 2);
  assert_true(jg_array_valid_when(s));
  jg_array_release(s);
  jg_array_release(o);
  jg_buffer_release(mb);
  /* bit-masked, 20 entries over 3 bytes; slices not on a byte keep a bit offset. */
  const uint8_t bits[3] = {0xA5, 0x3C, 0x0F};
  int64_t big[20];
  for (int i = 0; i < 20; i++) big[i] = 100 + i;
  jg_array *bc = ints(big, 20);
  mv = host_view(bits, 3, JG_DTYPE_UINT8, &mb);
  JGT_OK(jg_array_bit_masked(&mv, true, true, 20, bc, &o, &jgt_err_));
  JGT_OK(jg_array_slice(o, 5, 19, &s, &jgt_err_));
  assert_int_equal(jg_array_length(s), 14);
  assert_int_equal(jg_array_bit_offset(s), 5);
  assert_true(jg_array_lsb_order(s));
  JGT_OK(jg_array_buffer(s, 0, &v, &jgt_err_));
  assert_int_equal(v.layout.shape[0], 3); /* bits 5..18 are in bytes 0..2 */
  assert_int_equal(view_int(&v, 0), 0xA5);
  jg_array *s2 = NULL;
  JGT_OK(jg_array_slice(s, 4, 6, &s2, &jgt_err_)); /* entries 9, 10 of the original */
  assert_int_equal(jg_array_bit_offset(s2), 1);    /* bit 9 = byte 1, bit 1 */
  JGT_OK(jg_array_buffer(s2, 0, &v, &jgt_err_));
  assert_int_equal(v.layout.shape[0], 1);
  assert_int_equal(view_int(&v, 0), 0x3C);
  JGT_OK(jg_array_buffer(jg_array_child(s2, 0), 0, &v, &jgt_err_));
  assert_int_equal(view_int(&v, 0), 109);
  jg_array_release(s2);
  jg_array_release(s);
  JGT_OK(jg_array_slice(o, 8, 16, &s, &jgt_err_));
  assert_int_equal(jg_array_bit_offset(s), 0);
  jg_array_release(s);
  jg_array_release(o);
  jg_buffer_release(mb);
  jg_array_release(bc);
  /* indexed option: only the index is sliced */
  const int32_t idx[4] = {2, -1, 0, 5};
  mv = host_view(idx, 4, JG_DTYPE_INT32, &mb);
  JGT_OK(jg_array_indexed_option(&mv, y, &o, &jgt_err_));
  JGT_OK(jg_array_slice(o, 2, 4, &s, &jgt_err_));
  JGT_OK(jg_array_buffer(s, 0, &v, &jgt_err_));
  assert_int_equal(view_int(&v, 1), 5);
  assert_ptr_equal(jg_array_child(s, 0), y);
  jg_array_release(s);
  jg_array_release(o);
  jg_buffer_release(mb);
  /* empty */
  JGT_OK(jg_array_empty(&o, &jgt_err_));
  JGT_OK(jg_array_slice(o, -5, 5, &s, &jgt_err_));
  assert_int_equal(jg_array_length(s), 0);
  jg_array_release(s);
  jg_array_release(o);
  jg_array_release(x);
  jg_array_release(y);
}

/* ------------------------------------------------------------------------------------------ */
/* zip, field, unzip                                                                           */
/* ------------------------------------------------------------------------------------------ */

static void test_zip_field_unzip(void **state) {
  (void)state;
  /* x = [[1, 2], [], [3]] with offsets at 0; y = [[10, 20], [], [30]] with offsets at 3 and
   * content past its end. */
  const int64_t xc[3] = {1, 2, 3}, yc[7] = {-1, -2, -3, 10, 20, 30, -4};
  jg_array *x = lists((const int64_t[]){0, 2, 2, 3}, 3, xc, 3);
  jg_array *y = lists((const int64_t[]){3, 5, 5, 6}, 3, yc, 7);
  jg_array *fields[2] = {x, y};
  const char *names[2] = {"x", "y"};
  jg_array *z = NULL;
  JGT_OK(jg_array_zip(2, fields, names, -1, &z, &jgt_err_));
  assert_int_equal(jg_array_kind(z), JG_NODE_LIST_OFFSET);
  assert_int_equal(jg_array_length(z), 3);
  jg_array *rec = jg_array_child(z, 0);
  assert_int_equal(jg_array_kind(rec), JG_NODE_RECORD);
  assert_string_equal(jg_array_field_name(rec, 1), "y");
  /* field round trips */
  jg_array *fx = NULL, *fy = NULL;
  JGT_OK(jg_array_field(z, "x", &fx, &jgt_err_));
  JGT_OK(jg_array_field(z, "y", &fy, &jgt_err_));
  assert_lists(fx, (const int64_t[]){2, 0, 1}, 3, (const int64_t[]){1, 2, 3}, 3);
  assert_lists(fy, (const int64_t[]){2, 0, 1}, 3, (const int64_t[]){10, 20, 30}, 3);
  jg_array_release(fx);
  jg_array_release(fy);
  /* unzip */
  jg_array *outs[3] = {NULL, NULL, NULL};
  int nf = 0;
  JGT_OK(jg_array_unzip(z, 3, outs, &nf, &jgt_err_));
  assert_int_equal(nf, 2);
  assert_lists(outs[0], (const int64_t[]){2, 0, 1}, 3, (const int64_t[]){1, 2, 3}, 3);
  assert_lists(outs[1], (const int64_t[]){2, 0, 1}, 3, (const int64_t[]){10, 20, 30}, 3);
  assert_null(outs[2]);
  jg_array_release(outs[0]);
  jg_array_release(outs[1]);
  jg_error err;
  nf = 0;
  JGT_STATUS(JG_ESHAPE, jg_array_unzip(z, 1, outs, &nf, &err));
  assert_int_equal(nf, 2);
  JGT_STATUS(JG_ENOTFOUND, jg_array_field(z, "pt", &fx, &err));
  assert_string_equal(err.message,
                      "jg_array_field: no field 'pt' in the record's fields {x, y}");
  JGT_STATUS(JG_EINVAL, jg_array_field(x, "x", &fx, &err));
  JGT_CONTAINS(err.message, "no record");
  JGT_STATUS(JG_EINVAL, jg_array_unzip(x, 3, outs, &nf, &err));
  JGT_STATUS(JG_EINVAL, jg_array_field(z, NULL, &fx, &err));
  jg_array_release(z);

  /* depth_limit 1: records of the lists themselves */
  JGT_OK(jg_array_zip(2, fields, names, 1, &z, &jgt_err_));
  assert_int_equal(jg_array_kind(z), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(z), 3);
  assert_ptr_equal(jg_array_child(z, 0), x);
  JGT_OK(jg_array_field(z, "y", &fy, &jgt_err_));
  assert_ptr_equal(fy, y);
  jg_array_release(fy);
  jg_array_release(z);

  /* A tuple; field "1". */
  JGT_OK(jg_array_zip(2, fields, NULL, -1, &z, &jgt_err_));
  JGT_OK(jg_array_field(z, "1", &fy, &jgt_err_));
  assert_lists(fy, (const int64_t[]){2, 0, 1}, 3, (const int64_t[]){10, 20, 30}, 3);
  jg_array_release(fy);
  JGT_STATUS(JG_ENOTFOUND, jg_array_field(z, "x", &fx, &err));
  JGT_CONTAINS(err.message, "the tuple's fields {0, 1}");
  jg_array_release(z);

  /* Count mismatch in list 2 */
  const int64_t wc[4] = {1, 2, 3, 4};
  jg_array *w = lists((const int64_t[]){0, 2, 2, 4}, 3, wc, 4);
  jg_array *bad[2] = {x, w};
  const char *bn[2] = {"x", "w"};
  JGT_STATUS(JG_ESHAPE, jg_array_zip(2, bad, bn, -1, &z, &err));
  assert_null(z);
  assert_int_equal(err.index, 2);
  assert_string_equal(err.message, "jg_array_zip: field 1 ('w') has 2 entries in list 2 at "
                                   "depth 1, field 0 ('x') has 1");
  /* ... which depth_limit 1 does not look at */
  JGT_OK(jg_array_zip(2, bad, bn, 1, &z, &jgt_err_));
  jg_array_release(z);
  /* Length mismatch */
  jg_array *x2 = NULL;
  JGT_OK(jg_array_slice(x, 0, 2, &x2, &jgt_err_));
  jg_array *bad2[2] = {x, x2};
  JGT_STATUS(JG_ESHAPE, jg_array_zip(2, bad2, NULL, -1, &z, &err));
  assert_int_equal(err.index, 1);
  assert_string_equal(err.message, "jg_array_zip: field 1 has length 2, field 0 has length 3");
  /* Argument errors */
  JGT_STATUS(JG_EINVAL, jg_array_zip(0, fields, names, -1, &z, &err));
  JGT_STATUS(JG_EINVAL, jg_array_zip(2, fields, names, 0, &z, &err));
  JGT_STATUS(JG_EINVAL, jg_array_zip(2, fields, names, -2, &z, &err));
  jg_array *withnull[2] = {x, NULL};
  JGT_STATUS(JG_EINVAL, jg_array_zip(2, withnull, names, -1, &z, &err));
  assert_int_equal(err.index, 1);
  const char *dup[2] = {"a", "a"};
  JGT_STATUS(JG_EINVAL, jg_array_zip(2, fields, dup, -1, &z, &err));
  /* Mixed backends */
  jg_array *d = fake_numeric(kCuda0, 3);
  jg_array *mixed[2] = {x, d};
  JGT_STATUS(JG_EBACKEND, jg_array_zip(2, mixed, names, -1, &z, &err));
  assert_int_equal(err.index, 1);
  assert_string_equal(err.message, "jg_array_zip: field 1 ('y') is on cuda:0, field 0 ('x') on "
                                   "cpu: copy it with jg_array_to_host");
  jg_array_release(d);
  jg_array_release(x2);
  jg_array_release(w);
  jg_array_release(x);
  jg_array_release(y);
}

/* Zip broadcasts a field without lists against the lists of the others, as ak.zip does: each
 * entry is repeated across its list, at every depth the deeper fields go down. The expected
 * values are built here from the offsets by plain loops. */
static void test_zip_broadcast(void **state) {
  (void)state;
  /* Awkward's example: zip({x: [[1, 2], [3]], y: [10, 20]}) is
   * [[{x: 1, y: 10}, {x: 2, y: 10}], [{x: 3, y: 20}]]. */
  const int64_t xc[3] = {1, 2, 3}, yc[2] = {10, 20};
  jg_array *x = lists((const int64_t[]){0, 2, 3}, 2, xc, 3);
  jg_array *y = NULL;
  JGT_OK(jg_array_from_host(yc, 2, JG_DTYPE_INT64, &y, &jgt_err_));
  jg_array *xy[2] = {x, y};
  const char *names[2] = {"x", "y"};
  jg_array *z = NULL;
  JGT_OK(jg_array_zip(2, xy, names, -1, &z, &jgt_err_));
  JGT_OK(jg_array_validate(z, JG_VALIDATE_FULL, NULL, &jgt_err_));
  char buf[256];
  JGT_OK(jg_array_to_string(z, 200, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[[{x: 1, y: 10}, {x: 2, y: 10}], [{x: 3, y: 20}]]");
  jg_array_release(z);
  /* The value may come first; depth_limit 1 keeps the fields as they are. */
  jg_array *yx[2] = {y, x};
  const char *rn[2] = {"y", "x"};
  JGT_OK(jg_array_zip(2, yx, rn, -1, &z, &jgt_err_));
  JGT_OK(jg_array_to_string(z, 200, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[[{y: 10, x: 1}, {y: 10, x: 2}], [{y: 20, x: 3}]]");
  jg_array_release(z);
  JGT_OK(jg_array_zip(2, xy, names, 1, &z, &jgt_err_));
  JGT_OK(jg_array_to_string(z, 200, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[{x: [1, 2], y: 10}, {x: [3], y: 20}]");
  jg_array_release(z);

  /* Two levels, with the deep field's offsets not at 0: a = [[[1], [2, 3]], [], [[4], []]],
   * b = [[5, 6], [], [7, 8]] (one value per inner list), w = [100, 200, 300] (one per outer
   * list). */
  const int64_t inner_off[5] = {3, 4, 6, 7, 7}, ac[7] = {-1, -1, -1, 1, 2, 3, 4};
  const int64_t outer_off[4] = {0, 2, 2, 4};
  jg_array *ain = lists(inner_off, 4, ac, 7);
  jg_buffer *ob = NULL;
  jg_view ov = host_view(outer_off, 4, JG_DTYPE_INT64, &ob);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&ov, ain, &a, &jgt_err_));
  const int64_t bc[4] = {5, 6, 7, 8}, wc[3] = {100, 200, 300};
  jg_array *b = lists(outer_off, 3, bc, 4);
  jg_array *w = NULL;
  JGT_OK(jg_array_from_host(wc, 3, JG_DTYPE_INT64, &w, &jgt_err_));
  jg_array *abw[3] = {w, a, b};
  const char *abwn[3] = {"w", "a", "b"};
  JGT_OK(jg_array_zip(3, abw, abwn, -1, &z, &jgt_err_));
  JGT_OK(jg_array_validate(z, JG_VALIDATE_FULL, NULL, &jgt_err_));
  int64_t want_w[8], want_b[8], counts[4];
  int nv = 0;
  for (int i = 0; i < 3; i++) {
    for (int64_t j = outer_off[i]; j < outer_off[i + 1]; j++) {
      counts[j] = inner_off[j + 1] - inner_off[j];
      for (int64_t e = inner_off[j]; e < inner_off[j + 1]; e++) {
        want_w[nv] = wc[i];
        want_b[nv] = bc[j];
        nv++;
      }
    }
  }
  jg_array *fw = NULL, *fb = NULL;
  JGT_OK(jg_array_field(z, "w", &fw, &jgt_err_));
  JGT_OK(jg_array_field(z, "b", &fb, &jgt_err_));
  assert_int_equal(jg_array_length(fw), 3);
  assert_lists(jg_array_child(fw, 0), counts, 4, want_w, nv);
  assert_lists(jg_array_child(fb, 0), counts, 4, want_b, nv);
  jg_array_release(fw);
  jg_array_release(fb);
  jg_array_release(z);
  /* depth_limit 2: w repeated into the outer lists only; b and a stay lists. */
  JGT_OK(jg_array_zip(3, abw, abwn, 2, &z, &jgt_err_));
  JGT_OK(jg_array_to_string(z, 200, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[[{w: 100, a: [1], b: 5}, {w: 100, a: [2, 3], b: 6}], [], "
                           "[{w: 300, a: [4], b: 7}, {w: 300, a: [], b: 8}]]");
  jg_array_release(z);

  /* An option of numbers is repeated with its None. */
  const uint8_t mask[2] = {1, 0};
  jg_buffer *mb = NULL;
  jg_view mv = host_view(mask, 2, JG_DTYPE_UINT8, &mb);
  jg_array *ym = NULL;
  JGT_OK(jg_array_byte_masked(&mv, true, y, &ym, &jgt_err_));
  jg_array *xym[2] = {x, ym};
  JGT_OK(jg_array_zip(2, xym, names, -1, &z, &jgt_err_));
  JGT_OK(jg_array_to_string(z, 200, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[[{x: 1, y: 10}, {x: 2, y: 10}], [{x: 3, y: None}]]");
  jg_array_release(z);

  /* Lists of other counts are still an error naming the list; a flat field of another length
   * too. */
  const int64_t vc[2] = {7, 8};
  jg_array *v = lists((const int64_t[]){0, 1, 2}, 2, vc, 2);
  jg_array *xv[3] = {y, x, v};
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_array_zip(3, xv, NULL, -1, &z, &err));
  assert_null(z);
  assert_int_equal(err.index, 0);
  assert_string_equal(err.message, "jg_array_zip: field 2 has 1 entries in list 0 at depth 1, "
                                   "field 1 has 2");
  jg_array *xw[2] = {x, w};
  JGT_STATUS(JG_ESHAPE, jg_array_zip(2, xw, NULL, -1, &z, &err));
  assert_int_equal(err.index, 1);
  jg_array_release(v);
  jg_array_release(ym);
  jg_buffer_release(mb);
  jg_array_release(w);
  jg_array_release(b);
  jg_array_release(a);
  jg_array_release(ain);
  jg_buffer_release(ob);
  jg_array_release(x);
  jg_array_release(y);
}

/* Zipping many lists checks their counts in bulk: a field whose offsets start further into its
 * content lines up entry by entry; a count that differs far down (list 2501 of 3000) is still
 * named exactly. */
static void test_zip_many_lists(void **state) {
  (void)state;
  enum { N = 3000, SHIFT = 7, BAD = 2501 };
  int64_t *ox = malloc((N + 1) * sizeof *ox), *oy = malloc((N + 1) * sizeof *oy);
  int64_t *cx = malloc(4 * N * sizeof *cx), *cy = malloc((4 * N + SHIFT + 1) * sizeof *cy);
  ox[0] = 0;
  for (int i = 0; i < N; i++) ox[i + 1] = ox[i] + i % 4;
  for (int i = 0; i <= N; i++) oy[i] = ox[i] + SHIFT;
  for (int64_t j = 0; j < ox[N]; j++) cx[j] = j;
  for (int64_t j = 0; j < ox[N] + SHIFT + 1; j++) cy[j] = j - SHIFT + 1000;
  jg_array *x = lists(ox, N, cx, ox[N]), *y = lists(oy, N, cy, oy[N]);
  jg_array *fields[2] = {x, y}, *z = NULL, *fy = NULL;
  const char *names[2] = {"x", "y"};
  JGT_OK(jg_array_zip(2, fields, names, -1, &z, &jgt_err_));
  JGT_OK(jg_array_field(z, "y", &fy, &jgt_err_));
  jg_array *flat = NULL;
  JGT_OK(jg_array_flatten(fy, 1, NULL, &flat, &jgt_err_));
  assert_int_equal(jg_array_length(flat), ox[N]);
  jg_view v;
  JGT_OK(jg_array_buffer(flat, 0, &v, &jgt_err_));
  const int64_t *fv = (const int64_t *)v.base + v.layout.slice_offset;
  for (int64_t j = 0; j < ox[N]; j++) assert_int_equal(fv[j * v.layout.strides[0]], j + 1000);
  jg_array_release(flat);
  jg_array_release(fy);
  jg_array_release(z);
  jg_array_release(y);
  /* One more entry in list BAD of y (its count 2501 % 4 = 1 becomes 2). */
  for (int i = BAD + 1; i <= N; i++) oy[i] += 1;
  y = lists(oy, N, cy, oy[N]);
  fields[1] = y;
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_array_zip(2, fields, names, -1, &z, &err));
  assert_null(z);
  assert_int_equal(err.index, BAD);
  assert_string_equal(err.message, "jg_array_zip: field 1 ('y') has 2 entries in list 2501 at "
                                   "depth 1, field 0 ('x') has 1");
  jg_array_release(y);
  jg_array_release(x);
  free(ox);
  free(oy);
  free(cx);
  free(cy);
}

static void test_zip_mixed_kinds_and_depth(void **state) {
  (void)state;
  /* regular (size 2) with list-offset of equal counts whose offsets start at 1 */
  const int64_t rc[6] = {1, 2, 3, 4, 5, 6};
  jg_array *rcon = ints(rc, 6);
  jg_array *reg = NULL;
  JGT_OK(jg_array_regular(rcon, 2, -1, &reg, &jgt_err_));
  const int64_t lc[8] = {0, 10, 20, 30, 40, 50, 60, 0};
  jg_array *lo = lists((const int64_t[]){1, 3, 5, 7}, 3, lc, 8);
  jg_array *f[2] = {reg, lo};
  const char *n[2] = {"r", "l"};
  jg_array *z = NULL;
  JGT_OK(jg_array_zip(2, f, n, -1, &z, &jgt_err_));
  /* the structure comes from the field whose lists start lowest: the regular one */
  assert_int_equal(jg_array_kind(z), JG_NODE_REGULAR);
  jg_array *fl = NULL;
  JGT_OK(jg_array_field(z, "l", &fl, &jgt_err_));
  assert_lists(fl, (const int64_t[]){2, 2, 2}, 3, (const int64_t[]){10, 20, 30, 40, 50, 60}, 6);
  jg_array_release(fl);
  JGT_OK(jg_array_field(z, "r", &fl, &jgt_err_));
  assert_lists(fl, (const int64_t[]){2, 2, 2}, 3, rc, 6);
  jg_array_release(fl);
  jg_array_release(z);

  /* Two levels: a = [[[1, 2], [3]], []], b = [[[4, 5], [6]], []] with b's inner offsets at 2 */
  const int64_t ac[3] = {1, 2, 3}, bc[6] = {0, 0, 4, 5, 6, 0};
  jg_array *ain = lists((const int64_t[]){0, 2, 3}, 2, ac, 3);
  jg_array *bin = lists((const int64_t[]){2, 4, 5, 6}, 3, bc, 6); /* 3rd inner list unused */
  jg_array *a = NULL, *b = NULL;
  jg_buffer *ob = NULL;
  const int64_t outer[3] = {0, 2, 2};
  jg_view ov = host_view(outer, 3, JG_DTYPE_INT64, &ob);
  JGT_OK(jg_array_list_offset(&ov, ain, &a, &jgt_err_));
  JGT_OK(jg_array_list_offset(&ov, bin, &b, &jgt_err_));
  jg_array *ab[2] = {a, b};
  const char *abn[2] = {"a", "b"};
  JGT_OK(jg_array_zip(2, ab, abn, -1, &z, &jgt_err_));
  jg_array *inner = jg_array_child(z, 0);
  assert_int_equal(jg_array_kind(inner), JG_NODE_LIST_OFFSET);
  assert_int_equal(jg_array_kind(jg_array_child(inner, 0)), JG_NODE_RECORD);
  jg_array *fb = NULL;
  JGT_OK(jg_array_field(z, "b", &fb, &jgt_err_));
  assert_int_equal(jg_array_length(fb), 2);
  assert_lists(jg_array_child(fb, 0), (const int64_t[]){2, 1}, 2, (const int64_t[]){4, 5, 6},
               3);
  jg_array_release(fb);
  jg_array_release(z);
  /* depth_limit 2: records of the inner lists */
  JGT_OK(jg_array_zip(2, ab, abn, 2, &z, &jgt_err_));
  assert_int_equal(jg_array_kind(jg_array_child(z, 0)), JG_NODE_RECORD);
  jg_array_release(z);
  /* Inner count mismatch at depth 2 */
  jg_array *cin = lists((const int64_t[]){0, 2, 2}, 2, ac, 3);
  jg_array *c = NULL;
  JGT_OK(jg_array_list_offset(&ov, cin, &c, &jgt_err_));
  jg_array *ac2[2] = {a, c};
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_array_zip(2, ac2, abn, -1, &z, &err));
  assert_int_equal(err.index, 1);
  assert_string_equal(err.message, "jg_array_zip: field 1 ('b') has 0 entries in list 1 at depth "
                                   "2, field 0 ('a') has 1");
  /* A list whose lists are not at a constant distance from field 0's: not supported. */
  const int64_t st[3] = {2, 0, 4}, sp[3] = {4, 2, 5};
  jg_buffer *sb = NULL, *eb = NULL;
  jg_view sv = host_view(st, 3, JG_DTYPE_INT64, &sb);
  jg_view ev = host_view(sp, 3, JG_DTYPE_INT64, &eb);
  jg_array *perm = NULL;
  JGT_OK(jg_array_list(&sv, &ev, rcon, &perm, &jgt_err_));
  jg_array *pr[2] = {reg, perm};
  JGT_STATUS(JG_ENOTSUP, jg_array_zip(2, pr, NULL, -1, &z, &err));
  assert_int_equal(err.index, 1);
  jg_array_release(perm);
  jg_buffer_release(sb);
  jg_buffer_release(eb);
  jg_array_release(cin);
  jg_array_release(c);
  jg_buffer_release(ob);
  jg_array_release(ain);
  jg_array_release(bin);
  jg_array_release(a);
  jg_array_release(b);
  jg_array_release(lo);
  jg_array_release(reg);
  jg_array_release(rcon);
}

static void test_field_through_options(void **state) {
  (void)state;
  /* ?{x, y} of length 3 over fields of length 4: field keeps the mask, cut to 3 entries. */
  const int64_t xv[4] = {1, 2, 3, 4}, yv[4] = {5, 6, 7, 8};
  jg_array *x = ints(xv, 4), *y = ints(yv, 4);
  jg_array *f[2] = {x, y};
  const char *n[2] = {"x", "y"};
  jg_array *r = NULL;
  JGT_OK(jg_array_record(2, f, n, 3, &r, &jgt_err_));
  const int8_t m[3] = {1, 0, 1};
  jg_buffer *mb = NULL;
  jg_view mv = host_view(m, 3, JG_DTYPE_INT8, &mb);
  jg_array *o = NULL;
  JGT_OK(jg_array_byte_masked(&mv, true, r, &o, &jgt_err_));
  jg_array *fy = NULL;
  JGT_OK(jg_array_field(o, "y", &fy, &jgt_err_));
  assert_int_equal(jg_array_kind(fy), JG_NODE_BYTE_MASKED);
  assert_true(jg_array_valid_when(fy));
  jg_array *inner = jg_array_child(fy, 0);
  assert_int_equal(jg_array_kind(inner), JG_NODE_NUMERIC);
  assert_int_equal(jg_array_length(inner), 3);
  jg_view v;
  JGT_OK(jg_array_buffer(inner, 0, &v, &jgt_err_));
  assert_int_equal(view_int(&v, 2), 7);
  jg_array_release(fy);
  /* The top-level record is cut too. */
  JGT_OK(jg_array_field(r, "x", &fy, &jgt_err_));
  assert_int_equal(jg_array_length(fy), 3);
  jg_array_release(fy);
  jg_array *outs[2];
  int nf = 0;
  JGT_OK(jg_array_unzip(o, 2, outs, &nf, &jgt_err_));
  assert_int_equal(nf, 2);
  assert_int_equal(jg_array_kind(outs[0]), JG_NODE_BYTE_MASKED);
  jg_array_release(outs[0]);
  jg_array_release(outs[1]);
  jg_array_release(o);
  jg_buffer_release(mb);
  jg_array_release(r);
  jg_array_release(x);
  jg_array_release(y);
}

/* ------------------------------------------------------------------------------------------ */
/* Moves that need no GPU, lifetime, inspection of NULL                                        */
/* ------------------------------------------------------------------------------------------ */

static jg_status fake_alloc(jg_memory_resource *mr, size_t bytes, size_t alignment,
                            jg_stream stream, void **ptr, jg_error *err) {
  (void)mr, (void)bytes, (void)alignment, (void)stream, (void)err;
  *ptr = NULL;
  return JG_OK;
}
static void fake_free(jg_memory_resource *mr, void *ptr, size_t bytes, jg_stream stream) {
  (void)mr, (void)ptr, (void)bytes, (void)stream;
}

static void test_moves_without_gpu(void **state) {
  (void)state;
  const int64_t c[3] = {1, 2, 3};
  jg_array *a = lists((const int64_t[]){0, 1, 3}, 2, c, 3);
  /* Everything is on the host already: shared, the same node. */
  jg_array *h = NULL;
  JGT_OK(jg_array_to_host(a, NULL, &h, &jgt_err_));
  assert_ptr_equal(h, a);
  jg_array_release(h);
  JGT_OK(jg_array_to_host_ex(a, jg_memory_resource_host(), NULL, &h, &jgt_err_));
  assert_ptr_equal(h, a);
  jg_array_release(h);
  jg_error err;
  jg_memory_resource devlike;
  JGT_OK(jg_memory_resource_init_user(&devlike, kCuda0, false, true, false, fake_alloc, fake_free,
                                      NULL, &jgt_err_));
  JGT_STATUS(JG_EINVAL, jg_array_to_host_ex(a, &devlike, NULL, &h, &err));
  JGT_CONTAINS(err.message, "not host-accessible");
  JGT_STATUS(JG_EINVAL, jg_array_to_host_ex(a, NULL, NULL, &h, &err));
  JGT_STATUS(JG_EINVAL, jg_array_to_host(NULL, NULL, &h, &err));
  /* No GPU (or no CUDA in this build): to_device says so. */
  int count = 0;
  JGT_OK(jg_device_count(&count, &jgt_err_));
  if (count == 0) {
    JGT_STATUS(JG_ENODEV, jg_array_to_device(a, 0, NULL, &h, &err));
    assert_null(h);
    JGT_CONTAINS(err.message, "jg_array_to_device: CUDA unavailable");
  }
  JGT_STATUS(JG_EINVAL, jg_array_to_device(NULL, 0, NULL, &h, &err));
  jg_array_release(a);
}

static void test_retain_release(void **state) {
  (void)state;
  const int64_t c[3] = {1, 2, 3};
  jg_array *a = lists((const int64_t[]){0, 1, 3}, 2, c, 3);
  assert_ptr_equal(jg_array_retain(a), a);
  jg_array_release(a);
  /* A child outlives its parent when retained. */
  jg_array *child = jg_array_retain(jg_array_child(a, 0));
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  jg_buffer *ob = jg_buffer_retain(v.buffer);
  jg_array_release(a);
  assert_int_equal(jg_array_length(child), 3);
  assert_int_equal(((const int64_t *)jg_buffer_data(ob))[2], 3);
  jg_buffer_release(ob);
  jg_array_release(child);
  jg_array_release(NULL);
  assert_null(jg_array_retain(NULL));
  /* NULL inspection */
  assert_int_equal(jg_array_kind(NULL), 0);
  assert_int_equal(jg_array_length(NULL), 0);
  assert_int_equal(jg_array_backend(NULL), 0);
  assert_int_equal(jg_array_num_children(NULL), 0);
  assert_null(jg_array_child(NULL, 0));
  assert_null(jg_array_field_name(NULL, 0));
  assert_int_equal(jg_array_field_index(NULL, "x"), -1);
  assert_int_equal(jg_array_regular_size(NULL), -1);
  assert_false(jg_array_valid_when(NULL));
  assert_false(jg_array_lsb_order(NULL));
  assert_int_equal(jg_array_bit_offset(NULL), 0);
  jg_view vv;
  JGT_STATUS(JG_EINVAL, jg_array_buffer(NULL, 0, &vv, NULL));
}

/* ------------------------------------------------------------------------------------------ */
/* int64 offsets past 2^31 content elements                                                    */
/* ------------------------------------------------------------------------------------------ */

static void test_offsets_past_2_31(void **state) {
  (void)state;
  const jg_len big = ((jg_len)1 << 31) + 10;
  jg_buffer *cb = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), (size_t)big, NULL, &cb, &jgt_err_));
  uint8_t *bytes = jg_buffer_data(cb);
  bytes[big - 1] = 42;
  bytes[big - 5] = 7;
  bytes[0] = 1;
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &big, NULL, 1, &jgt_err_));
  jg_view cv;
  JGT_OK(jg_view_from_buffer(&cv, cb, &l, JG_DTYPE_UINT8, false, &jgt_err_));
  jg_array *content = NULL;
  JGT_OK(jg_array_numeric(&cv, &content, &jgt_err_));
  jg_buffer_release(cb);
  assert_int_equal(jg_array_length(content), big);
  /* counts [2^31 + 5, 0, 5] through the host scan */
  const int64_t counts[3] = {((int64_t)1 << 31) + 5, 0, 5};
  jg_buffer *kb = NULL;
  jg_view kv = host_view(counts, 3, JG_DTYPE_INT64, &kb);
  jg_array *a = NULL;
  JGT_OK(jg_array_from_counts(&kv, content, NULL, &a, &jgt_err_));
  jg_buffer_release(kb);
  jg_view ov;
  JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
  assert_int_equal(view_int(&ov, 1), ((int64_t)1 << 31) + 5);
  assert_int_equal(view_int(&ov, 3), big);
  /* slice the last list: its offsets are past 2^31 */
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, -1, 3, &s, &jgt_err_));
  JGT_OK(jg_array_buffer(s, 0, &ov, &jgt_err_));
  const int64_t lo = view_int(&ov, 0), hi = view_int(&ov, 1);
  assert_int_equal(lo, ((int64_t)1 << 31) + 5);
  assert_int_equal(hi - lo, 5);
  jg_view data;
  JGT_OK(jg_array_buffer(jg_array_child(s, 0), 0, &data, &jgt_err_));
  assert_int_equal(((const uint8_t *)data.base)[lo], 7);
  assert_int_equal(((const uint8_t *)data.base)[hi - 1], 42);
  /* zip with itself: counts compared past 2^31 */
  jg_array *f[2] = {s, s};
  jg_array *z = NULL;
  JGT_OK(jg_array_zip(2, f, NULL, -1, &z, &jgt_err_));
  assert_int_equal(jg_array_length(z), 1);
  jg_array_release(z);
  /* a count that does not add up */
  const int64_t bad[2] = {((int64_t)1 << 31), 9};
  kv = host_view(bad, 2, JG_DTYPE_INT64, &kb);
  jg_error err;
  JGT_STATUS(JG_EVALUE, jg_array_from_counts(&kv, content, NULL, &z, &err));
  JGT_CONTAINS(err.message, "the counts add up to 2147483657 but the content has 2147483658");
  jg_buffer_release(kb);
  jg_array_release(s);
  jg_array_release(a);
  jg_array_release(content);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_numeric),
      cmocka_unit_test(test_numeric_errors),
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_list_offset),
      cmocka_unit_test(test_list_offset_errors),
      cmocka_unit_test(test_backends_simulated),
      cmocka_unit_test(test_list),
      cmocka_unit_test(test_regular),
      cmocka_unit_test(test_record),
      cmocka_unit_test(test_options),
      cmocka_unit_test(test_from_host),
      cmocka_unit_test(test_from_host_offsets),
      cmocka_unit_test(test_from_host_counts),
      cmocka_unit_test(test_from_counts_host),
      cmocka_unit_test(test_slice_lists),
      cmocka_unit_test(test_slice_numeric_record_options),
      cmocka_unit_test(test_zip_field_unzip),
      cmocka_unit_test(test_zip_mixed_kinds_and_depth),
      cmocka_unit_test(test_zip_many_lists),
      cmocka_unit_test(test_zip_broadcast),
      cmocka_unit_test(test_field_through_options),
      cmocka_unit_test(test_moves_without_gpu),
      cmocka_unit_test(test_retain_release),
      cmocka_unit_test(test_offsets_past_2_31),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
