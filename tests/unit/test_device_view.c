/* test_device_view.c: host views (device_view.h) over every node kind, nesting, sliced and
 * strided buffers, options and records; the errors of view creation; and the count / scan /
 * fill output helper on the host. Expected values are written out by hand from Awkward's
 * semantics (../shared/notes/awkward.md sections 1 and 6.1). */
#include <math.h>

#include "jg_test.h"
#include "jgt_dview_walk.h"

#include "jagged/device_view.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* Buffers made by hview, released at the end of each test (arrays retain what they use). */
static jg_buffer *g_bufs[64];
static int g_nbufs;

static void release_bufs(void) {
  for (int i = 0; i < g_nbufs; ++i) jg_buffer_release(g_bufs[i]);
  g_nbufs = 0;
}

/* A 1-D host view over a copy of `n` values of `dtype`. */
static jg_view hview(const void *values, jg_len n, jg_dtype dtype) {
  const size_t bytes = (size_t)n * (size_t)jg_dtype_itemsize(dtype);
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), bytes, NULL, &b, &jgt_err_));
  if (bytes > 0) memcpy(jg_buffer_data(b), values, bytes);
  assert_true(g_nbufs < 64);
  g_bufs[g_nbufs++] = b;
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, jg_dtype_itemsize(dtype), &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, b, &l, dtype, true, &jgt_err_));
  return v;
}

static jg_array *numeric(const void *values, jg_len n, jg_dtype dtype) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(values, n, dtype, &a, &jgt_err_));
  return a;
}

/* list-offset over `content` (consumed: its reference is released). */
static jg_array *list_offset(const void *offsets, jg_len n1, jg_dtype dtype, jg_array *content) {
  jg_view ov = hview(offsets, n1, dtype);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&ov, content, &a, &jgt_err_));
  jg_array_release(content);
  return a;
}

static jg_dview hv(const jg_array *a, jg_device_view **h) {
  JGT_OK(jg_array_host_view_create(a, h, &jgt_err_));
  return jg_device_view_get(*h);
}

/* Asserts that the walk of every entry of `a` gives `want` (n values). */
static void expect_walk(const jg_array *a, const double *want, int64_t n) {
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  double got[256];
  const int64_t m = jgt_walk(v, 0, jg_dview_length(v, v.root), got, 256);
  if (m != n) print_error("walk gave %lld values, expected %lld\n", (long long)m, (long long)n);
  assert_int_equal(m, n);
  for (int64_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      print_error("value %lld: got %g, expected %g\n", (long long)i, got[i], want[i]);
      fail();
    }
  }
  jg_device_view_destroy(h);
}

#define N_ (-1.0e300) /* JGT_NONE, short */

/* ---- numeric ------------------------------------------------------------------------------ */

static void test_numeric_1d(void **state) {
  (void)state;
  const double x[] = {1.5, 2.5, -3.0, 0.0};
  jg_array *a = numeric(x, 4, JG_DTYPE_FLOAT64);
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(v.root, 0);
  assert_int_equal(v.nnodes, 1);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_NUMERIC);
  assert_int_equal(jg_dview_length(v, 0), 4);
  assert_true(jg_dview_get_f64(v, 0, 0) == 1.5);
  assert_true(jg_dview_get_f32(v, 0, 1) == 2.5f);
  assert_int_equal(jg_dview_get_i64(v, 0, 0), 1);   /* truncation toward zero */
  assert_int_equal(jg_dview_get_i64(v, 0, 2), -3);
  assert_int_equal(jg_dview_get_i32(v, 0, 1), 2);
  assert_true(jg_dview_get_bool(v, 0, 2));
  assert_false(jg_dview_get_bool(v, 0, 3));
  assert_true(jg_dview_is_valid(v, 0, 3));          /* not an option: always valid */
  assert_int_equal(jg_dview_option_index(v, 0, 3), 3);
  const jg_dnode *n = jg_dview_node(v, 0);
  assert_int_equal(n->dtype, JG_DV_FLOAT64);
  assert_int_equal(n->itemsize, 8);
  assert_int_equal(n->ndim, 1);
  assert_true(n->flags & JG_DV_FLAT);
  assert_int_equal(n->stride, 1);
  assert_int_equal(n->first_child, -1);
  assert_int_equal(n->nchildren, 0);
  assert_int_equal(jg_device_view_device(h), -1);
  assert_ptr_equal(jg_device_view_array(h), a);
  jg_dview t = jg_device_view_host_table(h);
  assert_ptr_equal(t.nodes, v.nodes); /* host view: the same table */
  jg_array_release(a);                /* the handle keeps the array alive */
  assert_true(jg_dview_get_f64(v, 0, 1) == 2.5);
  jg_device_view_destroy(h);
}

static void test_numeric_dtypes(void **state) {
  (void)state;
  const int8_t i8[] = {-5, 127};
  const uint8_t u8[] = {200, 0};
  const int16_t i16[] = {-300, 7};
  const uint16_t u16[] = {65535, 1};
  const int32_t i32[] = {-70000, 3};
  const uint32_t u32[] = {4000000000u, 1};
  const int64_t i64[] = {-((int64_t)1 << 40), 9};
  const uint64_t u64[] = {UINT64_MAX, (uint64_t)1 << 63};
  const float f32[] = {-2.75f, 1e30f};
  const uint8_t b[] = {1, 0};
  /* binary16: 1.0, -2.0, 2^-24 (smallest subnormal), +inf, 0x3555 = 0.333251953125, 2^-14 */
  const uint16_t f16[] = {0x3C00, 0xC000, 0x0001, 0x7C00, 0x3555, 0x0400, 0x03FF, 0x8000};
  struct {
    const void *p;
    jg_dtype dt;
    double f64;
    int64_t i64;
  } c[] = {
      {i8, JG_DTYPE_INT8, -5, -5},
      {u8, JG_DTYPE_UINT8, 200, 200},
      {i16, JG_DTYPE_INT16, -300, -300},
      {u16, JG_DTYPE_UINT16, 65535, 65535},
      {i32, JG_DTYPE_INT32, -70000, -70000},
      {u32, JG_DTYPE_UINT32, 4000000000.0, 4000000000LL},
      {i64, JG_DTYPE_INT64, -1099511627776.0, -((int64_t)1 << 40)},
      {u64, JG_DTYPE_UINT64, 18446744073709551615.0, -1}, /* uint64 max wraps to -1 */
      {f32, JG_DTYPE_FLOAT32, -2.75, -2},
      {b, JG_DTYPE_BOOL, 1, 1},
      {f16, JG_DTYPE_FLOAT16, 1.0, 1},
  };
  for (size_t k = 0; k < sizeof c / sizeof c[0]; ++k) {
    jg_array *a = numeric(c[k].p, c[k].dt == JG_DTYPE_FLOAT16 ? 8 : 2, c[k].dt);
    jg_device_view *h = NULL;
    jg_dview v = hv(a, &h);
    assert_int_equal(jg_dview_node(v, 0)->dtype, (int)c[k].dt);
    assert_int_equal(jg_dview_node(v, 0)->itemsize, jg_dtype_itemsize(c[k].dt));
    if (jg_dview_get_f64(v, 0, 0) != c[k].f64) {
      print_error("dtype %s: got %.17g\n", jg_dtype_name(c[k].dt), jg_dview_get_f64(v, 0, 0));
      fail();
    }
    assert_int_equal(jg_dview_get_i64(v, 0, 0), c[k].i64);
    assert_int_equal(jg_dview_get_i32(v, 0, 0), (int32_t)(uint32_t)(uint64_t)c[k].i64);
    assert_true(jg_dview_get_bool(v, 0, 0));
    assert_true(jg_dview_get_f32(v, 0, 0) == (float)c[k].f64);
    if (c[k].dt == JG_DTYPE_BOOL) assert_false(jg_dview_get_bool(v, 0, 1));
    if (c[k].dt == JG_DTYPE_UINT8) assert_false(jg_dview_get_bool(v, 0, 1));
    if (c[k].dt == JG_DTYPE_UINT64) assert_true(jg_dview_get_f64(v, 0, 1) == 9223372036854775808.0);
    if (c[k].dt == JG_DTYPE_FLOAT32) assert_true(jg_dview_get_f32(v, 0, 1) == 1e30f);
    if (c[k].dt == JG_DTYPE_FLOAT16) {
      assert_true(jg_dview_get_f64(v, 0, 1) == -2.0);
      assert_true(jg_dview_get_f64(v, 0, 2) == ldexp(1.0, -24));
      assert_true(isinf(jg_dview_get_f64(v, 0, 3)) && jg_dview_get_f64(v, 0, 3) > 0);
      assert_true(jg_dview_get_f64(v, 0, 4) == 0.333251953125);
      assert_true(jg_dview_get_f64(v, 0, 5) == ldexp(1.0, -14));
      assert_true(jg_dview_get_f64(v, 0, 6) == ldexp(1023.0, -24)); /* largest subnormal */
      assert_true(jg_dview_get_f64(v, 0, 7) == 0.0 && signbit(jg_dview_get_f64(v, 0, 7)));
      assert_false(jg_dview_get_bool(v, 0, 7)); /* -0 is false */
    }
    jg_device_view_destroy(h);
    jg_array_release(a);
  }
  /* half NaN stays NaN, and NaN is true */
  const uint16_t nan16 = 0x7E00;
  jg_array *a = numeric(&nan16, 1, JG_DTYPE_FLOAT16);
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_true(isnan(jg_dview_get_f64(v, 0, 0)));
  assert_true(jg_dview_get_bool(v, 0, 0));
  jg_device_view_destroy(h);
  jg_array_release(a);
  release_bufs();
}

/* A numeric array over a strided / reversed view of a buffer: pointer at element 0, strides. */
static void test_numeric_strided(void **state) {
  (void)state;
  const int32_t x[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  jg_view full = hview(x, 10, JG_DTYPE_INT32);
  jg_view rev;
  JGT_OK(jg_view_slice(&rev, &full, 1, &JG_SLICE(8, 0, -3), &jgt_err_)); /* 8, 5, 2 */
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&rev, &a, &jgt_err_));
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(jg_dview_length(v, 0), 3);
  assert_int_equal(jg_dview_node(v, 0)->stride, -3);
  assert_ptr_equal(jg_dview_node(v, 0)->ptr, (const int32_t *)full.base + 8);
  assert_int_equal(jg_dview_get_i64(v, 0, 0), 8);
  assert_int_equal(jg_dview_get_i64(v, 0, 1), 5);
  assert_int_equal(jg_dview_get_i64(v, 0, 2), 2);
  jg_device_view_destroy(h);
  jg_array_release(a);
  release_bufs();
}

/* ndim 2 and 3: regular nodes over one leaf; C order (flat) and transposed (not flat). */
static void test_numeric_inner_dims(void **state) {
  (void)state;
  double x[24];
  for (int i = 0; i < 24; ++i) x[i] = i;
  jg_view flat = hview(x, 24, JG_DTYPE_FLOAT64);
  /* (2, 3, 4) C order */
  jg_view c3 = flat;
  JGT_OK(jg_layout_init(&c3.layout, 3, (jg_len[]){2, 3, 4}, NULL, 8, &jgt_err_));
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&c3, &a, &jgt_err_));
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(v.nnodes, 3);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_REGULAR);
  assert_int_equal(jg_dview_length(v, 0), 2);
  assert_int_equal(jg_dview_node(v, 0)->size, 3);
  const int32_t r1 = jg_dview_content(v, 0);
  assert_int_equal(jg_dview_kind(v, r1), JG_DV_REGULAR);
  assert_int_equal(jg_dview_length(v, r1), 6);
  assert_int_equal(jg_dview_node(v, r1)->size, 4);
  const int32_t leaf = jg_dview_content(v, r1);
  assert_int_equal(jg_dview_kind(v, leaf), JG_DV_NUMERIC);
  assert_int_equal(jg_dview_length(v, leaf), 24);
  assert_true(jg_dview_node(v, leaf)->flags & JG_DV_FLAT);
  /* x[1][2][3] = 1*12 + 2*4 + 3 = 23 */
  jg_drange ra = jg_dview_list(v, 0, 1);
  assert_int_equal(ra.start, 3);
  assert_int_equal(ra.stop, 6);
  jg_drange rb = jg_dview_list(v, r1, ra.start + 2);
  assert_int_equal(rb.start, 20);
  assert_true(jg_dview_get_f64(v, leaf, rb.start + 3) == 23.0);
  jg_device_view_destroy(h);
  jg_array_release(a);

  /* (4, 3) transposed from a (3, 4) C-order matrix: element (i, j) = x[j * 4 + i] */
  jg_view t = flat;
  JGT_OK(jg_layout_init(&t.layout, 2, (jg_len[]){4, 3}, (jg_stride[]){1, 4}, 8, &jgt_err_));
  JGT_OK(jg_array_numeric(&t, &a, &jgt_err_));
  v = hv(a, &h);
  assert_int_equal(v.nnodes, 2);
  const int32_t lf = jg_dview_content(v, 0);
  assert_false(jg_dview_node(v, lf)->flags & JG_DV_FLAT);
  const double want[] = {3, 0, 4, 8, 3, 1, 5, 9, 3, 2, 6, 10, 3, 3, 7, 11};
  jg_device_view_destroy(h);
  expect_walk(a, want, 16);
  jg_array_release(a);

  /* extent-1 axes with odd strides still merge: (3, 1) strides (2, 99) is flat with stride 2 */
  jg_view o = flat;
  JGT_OK(jg_layout_init(&o.layout, 2, (jg_len[]){3, 1}, (jg_stride[]){2, 99}, 8, &jgt_err_));
  JGT_OK(jg_array_numeric(&o, &a, &jgt_err_));
  v = hv(a, &h);
  const jg_dnode *on = jg_dview_node(v, jg_dview_content(v, 0));
  assert_true(on->flags & JG_DV_FLAT);
  assert_int_equal(on->stride, 2);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){1, 0, 1, 2, 1, 4}, 6);
  jg_array_release(a);

  /* (2, 0): regular lists of size 0 */
  jg_view z = flat;
  JGT_OK(jg_layout_init(&z.layout, 2, (jg_len[]){2, 0}, NULL, 8, &jgt_err_));
  JGT_OK(jg_array_numeric(&z, &a, &jgt_err_));
  expect_walk(a, (const double[]){0, 0}, 2);
  jg_array_release(a);
  release_bufs();
}

/* ---- lists --------------------------------------------------------------------------------- */

/* int32 offsets not starting at 0, content past the last offset. */
static void test_list_offset(void **state) {
  (void)state;
  const float x[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const int32_t off[] = {2, 4, 4, 7};
  jg_array *a = list_offset(off, 4, JG_DTYPE_INT32, numeric(x, 10, JG_DTYPE_FLOAT32));
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(v.nnodes, 2);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_LIST_OFFSET);
  assert_int_equal(jg_dview_length(v, 0), 3);
  assert_int_equal(jg_dview_node(v, 0)->itemsize, 4);
  assert_int_equal(jg_dview_node(v, 0)->nchildren, 1);
  const int32_t c = jg_dview_content(v, 0);
  assert_int_equal(c, 1);
  assert_int_equal(jg_dview_length(v, c), 10);
  jg_drange r = jg_dview_list(v, 0, 0);
  assert_int_equal(r.start, 2);
  assert_int_equal(r.stop, 4);
  r = jg_dview_list(v, 0, 1);
  assert_int_equal(r.stop - r.start, 0);
  r = jg_dview_list(v, 0, 2);
  assert_int_equal(r.start, 4);
  assert_int_equal(r.stop, 7);
  assert_true(jg_dview_get_f32(v, c, r.stop - 1) == 6.0f);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){2, 2, 3, 0, 3, 4, 5, 6}, 8);

  /* sliced: entries [1, 3) share the buffers; the offsets view starts at element 1 */
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 1, 3, &s, &jgt_err_));
  v = hv(s, &h);
  assert_int_equal(jg_dview_length(v, 0), 2);
  r = jg_dview_list(v, 0, 0);
  assert_int_equal(r.start, 4);
  assert_int_equal(r.stop, 4);
  jg_device_view_destroy(h);
  expect_walk(s, (const double[]){0, 3, 4, 5, 6}, 5);
  jg_array_release(s);
  JGT_OK(jg_array_slice(a, -1, 3, &s, &jgt_err_));
  expect_walk(s, (const double[]){3, 4, 5, 6}, 4);
  jg_array_release(s);
  JGT_OK(jg_array_slice(a, 2, 2, &s, &jgt_err_)); /* an empty slice */
  expect_walk(s, NULL, 0);
  jg_array_release(s);
  jg_array_release(a);

  /* int64 offsets (from host counts), with empty lists at both ends */
  const int64_t counts[] = {0, 3, 0, 0, 1, 0};
  const int16_t y[] = {10, 11, 12, 13};
  JGT_OK(jg_array_from_host_counts(counts, 6, y, 4, JG_DTYPE_INT16, &a, &jgt_err_));
  v = hv(a, &h);
  assert_int_equal(jg_dview_node(v, 0)->itemsize, 8);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){0, 3, 10, 11, 12, 0, 0, 1, 13, 0}, 10);
  jg_array_release(a);
  release_bufs();
}

static void test_list_starts_stops(void **state) {
  (void)state;
  const int64_t x[] = {0, 1, 2, 3, 4, 5};
  const int64_t starts[] = {4, 0, 3};
  const int64_t stops[] = {6, 2, 3, 99}; /* longer than starts: the extra entry is not used */
  jg_view sv = hview(starts, 3, JG_DTYPE_INT64);
  jg_view tv = hview(stops, 4, JG_DTYPE_INT64);
  jg_array *c = numeric(x, 6, JG_DTYPE_INT64);
  jg_array *a = NULL;
  JGT_OK(jg_array_list(&sv, &tv, c, &a, &jgt_err_));
  jg_array_release(c);
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_LIST);
  assert_int_equal(jg_dview_length(v, 0), 3);
  jg_drange r = jg_dview_list(v, 0, 0);
  assert_int_equal(r.start, 4);
  assert_int_equal(r.stop, 6);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){2, 4, 5, 2, 0, 1, 0}, 7);
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 1, 3, &s, &jgt_err_));
  expect_walk(s, (const double[]){2, 0, 1, 0}, 4);
  jg_array_release(s);
  jg_array_release(a);
  release_bufs();
}

static void test_regular(void **state) {
  (void)state;
  const uint16_t x[] = {1, 2, 3, 4, 5, 6, 7};
  jg_array *c = numeric(x, 7, JG_DTYPE_UINT16);
  jg_array *a = NULL;
  JGT_OK(jg_array_regular(c, 2, -1, &a, &jgt_err_)); /* 3 lists of 2; 7 is left over */
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_REGULAR);
  assert_int_equal(jg_dview_length(v, 0), 3);
  assert_int_equal(jg_dview_node(v, 0)->size, 2);
  jg_drange r = jg_dview_list(v, 0, 2);
  assert_int_equal(r.start, 4);
  assert_int_equal(r.stop, 6);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){2, 1, 2, 2, 3, 4, 2, 5, 6}, 9);
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 1, 2, &s, &jgt_err_));
  expect_walk(s, (const double[]){2, 3, 4}, 3);
  jg_array_release(s);
  jg_array_release(a);
  JGT_OK(jg_array_regular(c, 0, 4, &a, &jgt_err_)); /* size 0 */
  jg_array_release(c);
  expect_walk(a, (const double[]){0, 0, 0, 0}, 4);
  jg_array_release(a);
}

/* ---- records ------------------------------------------------------------------------------- */

static void test_record(void **state) {
  (void)state;
  const int32_t xs[] = {1, 2, 3, 4};
  const float ys[] = {0.5f, 1.5f, 2.5f};
  jg_array *f[2] = {numeric(xs, 4, JG_DTYPE_INT32), numeric(ys, 3, JG_DTYPE_FLOAT32)};
  jg_array *a = NULL;
  JGT_OK(jg_array_record(2, f, (const char *const[]){"x", "y"}, -1, &a, &jgt_err_));
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_RECORD);
  assert_int_equal(jg_dview_length(v, 0), 3); /* the shortest field */
  assert_int_equal(jg_dview_nfields(v, 0), 2);
  const int32_t y = jg_dview_field(v, 0, jg_array_field_index(a, "y"));
  assert_int_equal(y, 2);
  assert_int_equal(jg_dview_field(v, 0, 0), jg_dview_content(v, 0));
  assert_true(jg_dview_get_f32(v, y, 2) == 2.5f);
  assert_int_equal(jg_dview_get_i32(v, jg_dview_field(v, 0, 0), 1), 2);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){1, 0.5, 2, 1.5, 3, 2.5}, 6);
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 1, 10, &s, &jgt_err_));
  expect_walk(s, (const double[]){2, 1.5, 3, 2.5}, 4);
  jg_array_release(s);
  jg_array_release(a);

  /* a tuple, and a record of no fields with an explicit length */
  JGT_OK(jg_array_record(2, f, NULL, 2, &a, &jgt_err_));
  expect_walk(a, (const double[]){1, 0.5, 2, 1.5}, 4);
  jg_array_release(a);
  JGT_OK(jg_array_record(0, NULL, NULL, 3, &a, &jgt_err_));
  v = hv(a, &h);
  assert_int_equal(jg_dview_length(v, 0), 3);
  assert_int_equal(jg_dview_nfields(v, 0), 0);
  assert_int_equal(jg_dview_node(v, 0)->first_child, -1);
  jg_device_view_destroy(h);
  jg_array_release(a);
  jg_array_release(f[0]);
  jg_array_release(f[1]);
}

/* Events of muons: var * {pt: float32, q: int8, hits: var * int32}; children contiguous. */
static void test_nested(void **state) {
  (void)state;
  const float pt[] = {10, 20, 30, 40};
  const int8_t q[] = {1, -1, 1, -1};
  const int32_t hits[] = {7, 8, 9};
  const int64_t hoff[] = {0, 2, 2, 3, 3};
  jg_array *hl = NULL;
  JGT_OK(jg_array_from_host_offsets(hoff, 4, hits, 3, JG_DTYPE_INT32, &hl, &jgt_err_));
  jg_array *f[3] = {numeric(pt, 4, JG_DTYPE_FLOAT32), numeric(q, 4, JG_DTYPE_INT8), hl};
  jg_array *rec = NULL;
  JGT_OK(jg_array_record(3, f, (const char *const[]){"pt", "q", "hits"}, -1, &rec, &jgt_err_));
  for (int k = 0; k < 3; ++k) jg_array_release(f[k]);
  const int64_t eoff[] = {0, 3, 3, 4};
  jg_array *ev = list_offset(eoff, 4, JG_DTYPE_INT64, rec);
  jg_device_view *h = NULL;
  jg_dview v = hv(ev, &h);
  /* 0 list, 1 record, 2 pt, 3 q, 4 hits (list), 5 hits content */
  assert_int_equal(v.nnodes, 6);
  assert_int_equal(jg_dview_content(v, 0), 1);
  assert_int_equal(jg_dview_node(v, 1)->first_child, 2);
  assert_int_equal(jg_dview_node(v, 1)->nchildren, 3);
  assert_int_equal(jg_dview_kind(v, 4), JG_DV_LIST_OFFSET);
  assert_int_equal(jg_dview_content(v, 4), 5);
  const int32_t hn = jg_dview_field(v, 1, 2);
  jg_drange mu = jg_dview_list(v, 0, 0);
  jg_drange hr = jg_dview_list(v, hn, mu.start);
  assert_int_equal(jg_dview_get_i64(v, jg_dview_content(v, hn), hr.start + 1), 8);
  jg_device_view_destroy(h);
  const double want[] = {3, 10, 1, 2, 7, 8, 20, -1, 0, 30, 1, 1, 9, /* event 0 */
                         0,                                          /* event 1 */
                         1, 40, -1, 0};                              /* event 2 */
  expect_walk(ev, want, 18);
  jg_array_release(ev);
  release_bufs();
}

/* Deep nesting: 5 levels of lists (var * var * var * var * var * int64) */
static void test_deep(void **state) {
  (void)state;
  const int64_t x[] = {42};
  const int64_t off[] = {0, 1};
  jg_array *a = numeric(x, 1, JG_DTYPE_INT64);
  for (int d = 0; d < 5; ++d) a = list_offset(off, 2, JG_DTYPE_INT64, a);
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(v.nnodes, 6);
  int32_t node = v.root;
  int64_t i = 0;
  while (jg_dview_kind(v, node) == JG_DV_LIST_OFFSET) {
    i = jg_dview_list(v, node, i).start;
    node = jg_dview_content(v, node);
  }
  assert_int_equal(jg_dview_get_i64(v, node, i), 42);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){1, 1, 1, 1, 1, 42}, 6);
  jg_array_release(a);
  release_bufs();
}

/* ---- options ------------------------------------------------------------------------------- */

static void test_byte_masked(void **state) {
  (void)state;
  const double x[] = {1, 2, 3, 4};
  const int8_t m[] = {1, 0, 5, 0};
  jg_view mv = hview(m, 4, JG_DTYPE_INT8);
  jg_array *c = numeric(x, 4, JG_DTYPE_FLOAT64);
  jg_array *a = NULL;
  JGT_OK(jg_array_byte_masked(&mv, true, c, &a, &jgt_err_));
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_BYTE_MASKED);
  assert_true(jg_dview_is_valid(v, 0, 0));
  assert_false(jg_dview_is_valid(v, 0, 1));
  assert_true(jg_dview_is_valid(v, 0, 2)); /* any nonzero byte */
  assert_int_equal(jg_dview_option_index(v, 0, 2), 2);
  assert_int_equal(jg_dview_option_index(v, 0, 3), -1);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){1, 1, N_, 1, 3, N_}, 6);
  jg_array_release(a);
  JGT_OK(jg_array_byte_masked(&mv, false, c, &a, &jgt_err_)); /* valid when 0 */
  expect_walk(a, (const double[]){N_, 1, 2, N_, 1, 4}, 6);
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 1, 4, &s, &jgt_err_));
  expect_walk(s, (const double[]){1, 2, N_, 1, 4}, 5);
  jg_array_release(s);
  jg_array_release(a);
  jg_array_release(c);
  release_bufs();
}

static void test_bit_masked(void **state) {
  (void)state;
  double x[11];
  for (int i = 0; i < 11; ++i) x[i] = 100 + i;
  /* LSB first: byte 0 = 0b00101101 -> entries 0, 2, 3, 5 valid; byte 1 = 0b00000110 -> 9, 10 */
  const uint8_t m[] = {0x2D, 0x06};
  jg_view mv = hview(m, 2, JG_DTYPE_UINT8);
  jg_array *c = numeric(x, 11, JG_DTYPE_FLOAT64);
  jg_array *a = NULL;
  JGT_OK(jg_array_bit_masked(&mv, true, true, 11, c, &a, &jgt_err_));
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_BIT_MASKED);
  const bool lsb[] = {1, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1};
  for (int i = 0; i < 11; ++i) assert_int_equal(jg_dview_is_valid(v, 0, i), lsb[i]);
  jg_device_view_destroy(h);
  /* MSB first: byte 0 bits from the top: 0 0 1 0 1 1 0 1; byte 1: 0 0 0 0 0 1 1 0 */
  jg_array *b = NULL;
  JGT_OK(jg_array_bit_masked(&mv, true, false, 11, c, &b, &jgt_err_));
  v = hv(b, &h);
  const bool msb[] = {0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0};
  for (int i = 0; i < 11; ++i) assert_int_equal(jg_dview_is_valid(v, 0, i), msb[i]);
  jg_device_view_destroy(h);
  jg_array_release(b);
  /* valid_when false inverts */
  JGT_OK(jg_array_bit_masked(&mv, false, true, 11, c, &b, &jgt_err_));
  v = hv(b, &h);
  for (int i = 0; i < 11; ++i) assert_int_equal(jg_dview_is_valid(v, 0, i), !lsb[i]);
  assert_int_equal(jg_dview_option_index(v, 0, 1), 1);
  assert_int_equal(jg_dview_option_index(v, 0, 0), -1);
  jg_device_view_destroy(h);
  jg_array_release(b);
  /* a slice from entry 3: bit offset 3 into the same byte */
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 3, 11, &s, &jgt_err_));
  v = hv(s, &h);
  assert_int_equal(jg_dview_node(v, 0)->bit_offset, 3);
  assert_int_equal(jg_dview_length(v, 0), 8);
  for (int i = 0; i < 8; ++i) assert_int_equal(jg_dview_is_valid(v, 0, i), lsb[i + 3]);
  jg_device_view_destroy(h);
  expect_walk(s, (const double[]){1, 103, N_, 1, 105, N_, N_, N_, 1, 109, 1, 110}, 12);
  jg_array_release(s);
  JGT_OK(jg_array_slice(a, 9, 11, &s, &jgt_err_)); /* from the second byte */
  expect_walk(s, (const double[]){1, 109, 1, 110}, 4);
  jg_array_release(s);
  jg_array_release(a);
  jg_array_release(c);
  release_bufs();
}

static void test_indexed_option(void **state) {
  (void)state;
  const float x[] = {5, 6, 7};
  const int32_t idx[] = {2, -1, 0, 2, -5};
  jg_view iv = hview(idx, 5, JG_DTYPE_INT32);
  jg_array *c = numeric(x, 3, JG_DTYPE_FLOAT32);
  jg_array *a = NULL;
  JGT_OK(jg_array_indexed_option(&iv, c, &a, &jgt_err_));
  jg_array_release(c);
  jg_device_view *h = NULL;
  jg_dview v = hv(a, &h);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_INDEXED_OPTION);
  assert_int_equal(jg_dview_node(v, 0)->itemsize, 4);
  assert_true(jg_dview_is_valid(v, 0, 0));
  assert_false(jg_dview_is_valid(v, 0, 1));
  assert_false(jg_dview_is_valid(v, 0, 4));
  assert_int_equal(jg_dview_option_index(v, 0, 0), 2);
  assert_int_equal(jg_dview_option_index(v, 0, 4), -1);
  jg_device_view_destroy(h);
  expect_walk(a, (const double[]){1, 7, N_, 1, 5, 1, 7, N_}, 8);
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 2, 4, &s, &jgt_err_));
  expect_walk(s, (const double[]){1, 5, 1, 7}, 4);
  jg_array_release(s);

  /* an option of lists of options: var * ?float32 inside ?var */
  const int64_t off[] = {0, 2, 5};
  jg_array *l = list_offset(off, 3, JG_DTYPE_INT64, jg_array_retain(a));
  const int64_t idx2[] = {1, -1, 0};
  jg_view iv2 = hview(idx2, 3, JG_DTYPE_INT64);
  jg_array *o = NULL;
  JGT_OK(jg_array_indexed_option(&iv2, l, &o, &jgt_err_));
  expect_walk(o, (const double[]){1, 3, 1, 5, 1, 7, N_, N_, 1, 2, 1, 7, N_}, 13);
  jg_array_release(o);
  jg_array_release(l);
  jg_array_release(a);
  release_bufs();
}

/* ---- empty --------------------------------------------------------------------------------- */

static void test_empty(void **state) {
  (void)state;
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  jg_device_view *h = NULL;
  jg_dview v = hv(e, &h);
  assert_int_equal(v.nnodes, 1);
  assert_int_equal(jg_dview_kind(v, 0), JG_DV_EMPTY);
  assert_int_equal(jg_dview_length(v, 0), 0);
  assert_int_equal(jg_dview_node(v, 0)->first_child, -1);
  jg_device_view_destroy(h);
  /* lists of nothing: three empty lists over an empty array */
  const int32_t off[] = {0, 0, 0, 0};
  jg_array *l = list_offset(off, 4, JG_DTYPE_INT32, e);
  expect_walk(l, (const double[]){0, 0, 0}, 3);
  jg_array_release(l);
  /* an empty numeric array and an empty list-offset (one offset) */
  jg_array *z = numeric(NULL, 0, JG_DTYPE_FLOAT32);
  expect_walk(z, NULL, 0);
  const int64_t o1[] = {5};
  l = list_offset(o1, 1, JG_DTYPE_INT64, z);
  v = hv(l, &h);
  assert_int_equal(jg_dview_length(v, 0), 0);
  jg_device_view_destroy(h);
  jg_array_release(l);
  release_bufs();
}

/* ---- errors -------------------------------------------------------------------------------- */

/* A list-offset array whose buffers claim to be device memory of cuda:dev (never dereferenced). */
static jg_array *fake_cuda_array(int dev) {
  static int64_t fake[4];
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(fake, sizeof fake, &b, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){2}, NULL, 8, &jgt_err_));
  jg_view cv, ov;
  const jg_device d = {JG_DEVICE_CUDA, dev};
  JGT_OK(jg_view_from_pointer(&cv, fake, d, &l, JG_DTYPE_INT64, true, &jgt_err_));
  cv.buffer = b;
  ov = cv;
  jg_array *c = NULL, *a = NULL;
  JGT_OK(jg_array_numeric(&cv, &c, &jgt_err_));
  JGT_OK(jg_array_list_offset(&ov, c, &a, &jgt_err_));
  jg_array_release(c);
  jg_buffer_release(b);
  return a;
}

static void test_errors(void **state) {
  (void)state;
  jg_error err;
  jg_error_clear(&err);
  jg_device_view *h = (jg_device_view *)&err;
  const double x[] = {1};
  jg_array *a = numeric(x, 1, JG_DTYPE_FLOAT64);
  JGT_STATUS(JG_EINVAL, jg_array_host_view_create(NULL, &h, &err));
  assert_null(h);
  JGT_STATUS(JG_EINVAL, jg_array_host_view_create(a, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_array_device_view_create(a, -2, NULL, &h, &err));
  assert_int_equal(err.index, -2);

  /* a cpu array in pageable memory cannot be viewed from a device (checked without a GPU) */
  h = (jg_device_view *)&err;
  JGT_STATUS(JG_EBACKEND, jg_array_device_view_create(a, 0, NULL, &h, &err));
  assert_null(h);
  assert_string_equal(err.message,
                      "argument is on cpu: copy it to the device first with jg_array_to_device");
  /* ... also deep inside: a list of records whose field is pageable */
  const int64_t off[] = {0, 1};
  jg_array *l = list_offset(off, 2, JG_DTYPE_INT64, jg_array_retain(a));
  JGT_STATUS(JG_EBACKEND, jg_array_device_view_create(l, 3, NULL, &h, &err));
  JGT_CONTAINS(err.message, "copy it to the device first with jg_array_to_device");
  jg_array_release(l);

  /* a cuda array cannot be viewed from the host */
  jg_array *g = fake_cuda_array(0);
  assert_int_equal(jg_array_backend(g), JG_BACKEND_CUDA);
  JGT_STATUS(JG_EBACKEND, jg_array_host_view_create(g, &h, &err));
  assert_string_equal(err.message,
                      "argument is on cuda:0: copy it to the host first with jg_array_to_host");
  /* nor from another device */
  jg_array *g1 = fake_cuda_array(1);
  JGT_STATUS(JG_EBACKEND, jg_array_device_view_create(g1, 0, NULL, &h, &err));
  JGT_CONTAINS(err.message, "argument is on cuda:1");
  JGT_CONTAINS(err.message, "jg_array_to_device");
  jg_array_release(g1);
  /* on its own device: needs the device (no GPU here: JG_ENODEV) */
  int ndev = 0;
  JGT_OK(jg_device_count(&ndev, &jgt_err_));
  if (ndev == 0) {
    JGT_STATUS(JG_ENODEV, jg_array_device_view_create(g, 0, NULL, &h, &err));
    assert_null(h);
    JGT_CONTAINS(err.message, "CUDA unavailable");
  } else {
    JGT_OK(jg_array_device_view_create(g, 0, NULL, &h, &jgt_err_));
    assert_int_equal(jg_device_view_device(h), 0);
    jg_dview t = jg_device_view_host_table(h);
    assert_int_equal(t.nnodes, 2);
    assert_int_equal(jg_dview_kind(t, 0), JG_DV_LIST_OFFSET);
    JGT_OK(jg_stream_synchronize(NULL, &jgt_err_));
    jg_device_view_destroy(h);
  }
  jg_array_release(g);

  /* more axes than a view takes */
  jg_view dv;
  JGT_OK(jg_array_buffer(a, 0, &dv, &jgt_err_));
  jg_len shape[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  JGT_OK(jg_layout_init(&dv.layout, 9, shape, NULL, 8, &jgt_err_));
  jg_array *nine = NULL;
  JGT_OK(jg_array_numeric(&dv, &nine, &jgt_err_));
  JGT_STATUS(JG_ENOTSUP, jg_array_host_view_create(nine, &h, &err));
  JGT_CONTAINS(err.message, "9 axes");
  jg_array_release(nine);
  JGT_OK(jg_layout_init(&dv.layout, 8, shape, NULL, 8, &jgt_err_)); /* 8 is fine */
  JGT_OK(jg_array_numeric(&dv, &nine, &jgt_err_));
  JGT_OK(jg_array_host_view_create(nine, &h, &jgt_err_));
  jg_dview v = jg_device_view_get(h);
  assert_int_equal(v.nnodes, 8);
  assert_true(jg_dview_get_f64(v, 7, 0) == 1.0);
  jg_device_view_destroy(h);
  jg_array_release(nine);

  /* NULL handles */
  jg_dview none = jg_device_view_get(NULL);
  assert_null(none.nodes);
  assert_int_equal(none.nnodes, 0);
  assert_null(jg_device_view_host_table(NULL).nodes);
  assert_int_equal(jg_device_view_device(NULL), -1);
  assert_null(jg_device_view_array(NULL));
  jg_device_view_destroy(NULL);
  jg_array_release(a);
}

/* ---- count / scan / fill on the host ------------------------------------------------------- */

static void test_list_output_host(void **state) {
  (void)state;
  jg_list_output *o = NULL;
  JGT_OK(jg_list_output_begin(5, JG_DTYPE_FLOAT32, -1, NULL, &o, &jgt_err_));
  int64_t *counts = jg_list_output_counts(o);
  assert_non_null(counts);
  for (int i = 0; i < 5; ++i) assert_int_equal(counts[i], 0); /* zeroed */
  assert_null(jg_list_output_offsets(o));
  assert_null(jg_list_output_content(o));
  assert_int_equal(jg_list_output_total(o), -1);
  jg_error err;
  jg_error_clear(&err);
  jg_array *a = NULL;
  JGT_STATUS(JG_ESTATE, jg_list_output_finish(o, &a, &err));
  assert_null(a);
  const int64_t c[] = {2, 0, 1, 0, 3};
  memcpy(counts, c, sizeof c);
  JGT_OK(jg_list_output_scan(o, &jgt_err_));
  JGT_STATUS(JG_ESTATE, jg_list_output_scan(o, &err));
  assert_int_equal(jg_list_output_total(o), 6);
  const int64_t *off = jg_list_output_offsets(o);
  const int64_t want_off[] = {0, 2, 2, 3, 3, 6};
  for (int i = 0; i < 6; ++i) assert_int_equal(off[i], want_off[i]);
  float *content = jg_list_output_content(o);
  for (int i = 0; i < 5; ++i)
    for (int64_t j = off[i]; j < off[i + 1]; ++j) content[j] = (float)(10 * i + (j - off[i]));
  JGT_OK(jg_list_output_finish(o, &a, &jgt_err_));
  jg_array *again = (jg_array *)&err;
  JGT_STATUS(JG_ESTATE, jg_list_output_finish(o, &again, &err));
  assert_null(again);
  JGT_CONTAINS(err.message, "already finished");
  jg_list_output_destroy(o); /* the array keeps offsets and content */
  assert_int_equal(jg_array_kind(a), JG_NODE_LIST_OFFSET);
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CPU);
  assert_int_equal(jg_array_length(a), 5);
  assert_int_equal(jg_array_kind(jg_array_child(a, 0)), JG_NODE_NUMERIC);
  expect_walk(a, (const double[]){2, 0, 1, 0, 1, 20, 0, 3, 40, 41, 42}, 11);
  jg_array_release(a);

  /* n = 0: one offset, no content */
  JGT_OK(jg_list_output_begin(0, JG_DTYPE_INT64, -1, NULL, &o, &jgt_err_));
  assert_null(jg_list_output_counts(o));
  JGT_OK(jg_list_output_scan(o, &jgt_err_));
  assert_int_equal(jg_list_output_total(o), 0);
  assert_int_equal(jg_list_output_offsets(o)[0], 0);
  JGT_OK(jg_list_output_finish(o, &a, &jgt_err_));
  jg_list_output_destroy(o);
  assert_int_equal(jg_array_length(a), 0);
  jg_array_release(a);

  /* all lists empty: total 0 */
  JGT_OK(jg_list_output_begin(3, JG_DTYPE_BOOL, -1, NULL, &o, &jgt_err_));
  JGT_OK(jg_list_output_scan(o, &jgt_err_));
  assert_int_equal(jg_list_output_total(o), 0);
  JGT_OK(jg_list_output_finish(o, &a, &jgt_err_));
  jg_list_output_destroy(o);
  expect_walk(a, (const double[]){0, 0, 0}, 3);
  jg_array_release(a);

  /* a negative count, then an overflowing sum; fixing the counts lets the scan go through */
  JGT_OK(jg_list_output_begin(3, JG_DTYPE_FLOAT64, -1, NULL, &o, &jgt_err_));
  counts = jg_list_output_counts(o);
  counts[0] = INT64_MAX;
  counts[1] = 1;
  counts[2] = -4;
  JGT_STATUS(JG_EVALUE, jg_list_output_scan(o, &err));
  assert_int_equal(err.index, 2);
  JGT_CONTAINS(err.message, "counts[2] = -4 is negative");
  counts[2] = 0;
  JGT_STATUS(JG_EOVERFLOW, jg_list_output_scan(o, &err));
  assert_int_equal(err.index, 1);
  counts[0] = INT64_MAX / 8; /* the sum fits, its bytes do not */
  JGT_STATUS(JG_EOVERFLOW, jg_list_output_scan(o, &err));
  JGT_CONTAINS(err.message, "too many bytes");
  assert_int_equal(jg_list_output_total(o), -1);
  counts[0] = 2;
  JGT_OK(jg_list_output_scan(o, &jgt_err_));
  assert_int_equal(jg_list_output_total(o), 3);
  jg_list_output_destroy(o); /* never finished: everything is freed */

  /* argument errors */
  o = (jg_list_output *)&err;
  JGT_STATUS(JG_EINVAL, jg_list_output_begin(-1, JG_DTYPE_FLOAT32, -1, NULL, &o, &err));
  assert_null(o);
  JGT_STATUS(JG_EINVAL, jg_list_output_begin(1, JG_DTYPE_FLOAT32, -1, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_list_output_begin(1, JG_DTYPE_FLOAT32, -7, NULL, &o, &err));
  JGT_STATUS(JG_EDTYPE, jg_list_output_begin(1, JG_DTYPE_COMPLEX64, -1, NULL, &o, &err));
  JGT_STATUS(JG_EDTYPE, jg_list_output_begin(1, JG_DTYPE_INVALID, -1, NULL, &o, &err));
  JGT_STATUS(JG_EOVERFLOW, jg_list_output_begin(INT64_MAX, JG_DTYPE_FLOAT32, -1, NULL, &o, &err));
  JGT_STATUS(JG_EOVERFLOW,
             jg_list_output_begin(INT64_MAX / 8, JG_DTYPE_FLOAT32, -1, NULL, &o, &err));
  assert_null(o);
  JGT_STATUS(JG_EINVAL, jg_list_output_scan(NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_list_output_finish(NULL, &a, &err));
  assert_null(jg_list_output_counts(NULL));
  assert_null(jg_list_output_offsets(NULL));
  assert_null(jg_list_output_content(NULL));
  assert_int_equal(jg_list_output_total(NULL), -1);
  jg_list_output_destroy(NULL);
  int ndev = 0;
  JGT_OK(jg_device_count(&ndev, &jgt_err_));
  if (ndev == 0) {
    JGT_STATUS(JG_ENODEV, jg_list_output_begin(4, JG_DTYPE_FLOAT32, 0, NULL, &o, &err));
    assert_null(o);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_numeric_1d),        cmocka_unit_test(test_numeric_dtypes),
      cmocka_unit_test(test_numeric_strided),   cmocka_unit_test(test_numeric_inner_dims),
      cmocka_unit_test(test_list_offset),       cmocka_unit_test(test_list_starts_stops),
      cmocka_unit_test(test_regular),           cmocka_unit_test(test_record),
      cmocka_unit_test(test_nested),            cmocka_unit_test(test_deep),
      cmocka_unit_test(test_byte_masked),       cmocka_unit_test(test_bit_masked),
      cmocka_unit_test(test_indexed_option),    cmocka_unit_test(test_empty),
      cmocka_unit_test(test_errors),            cmocka_unit_test(test_list_output_host),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
