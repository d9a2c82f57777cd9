/* test_reduce_kernels.c: the reduction kernels of the catalog (list_sum, list_minmax,
 * list_argminmax, list_count, list_count_nonzero, list_anyall, list_mean) on host arrays, through
 * jg_kernel_call, under every host implementation the build has ("c", and "openmp"):
 *   - hand-computed results for each class of element type: int64 sums and products that wrap,
 *     int8 widened to int64, uint64 wrapping, float64 with NaN, -0.0 and infinities, float32
 *     accumulated in double, bool; over lists that start past 0, are empty, come out of order
 *     and overlap, with content past m that must not be read, and an out tail that must not be
 *     written;
 *   - empty lists that start anywhere (Awkward's rule), no lists at all;
 *   - every BAD_RANGE case (stops < starts, a non-empty list before 0 or past m, a negative m,
 *     for list_count too, which counts without reading the content) with its index and
 *     message, the smallest
 *     bad list when there are several (also across the OpenMP chunks of 1024 lists);
 *   - the parameter lists the array operations (src/ops) rely on;
 *   - jg_kernel_parity of "openmp" against "c" over the kernels' own parity cases (or "c"
 *     against itself in a build without OpenMP, so that every case still builds). */
#include <math.h>

#include "jg_test.h"

#define HOST ((jg_device)JG_DEVICE_HOST_INIT)
#define SENTINEL (-777)

static const char *const kKernels[7] = {"list_sum",   "list_minmax",        "list_argminmax",
                                        "list_count", "list_count_nonzero", "list_anyall",
                                        "list_mean"};

static const jg_kernel *kernel(const char *name) {
  const jg_kernel *k = NULL;
  JGT_OK(jg_catalog_find(name, &k, &jgt_err_));
  assert_non_null(k);
  return k;
}

/* Runs `k` on `args` under host implementation `impl`; returns the status, error in *err. */
static jg_status call_with(const jg_kernel *k, const char *impl, const jg_kernel_arg *args,
                           jg_error *err) {
  JGT_OK(jg_host_impl_push(impl, &jgt_err_));
  jg_error_clear(err);
  const jg_status st = jg_kernel_call(k, args, jg_kernel_param_count(k), NULL, err);
  JGT_OK(jg_host_impl_pop(&jgt_err_));
  return st;
}

/* Runs `k` under `impl` and asserts success. */
static void run_ok(const jg_kernel *k, const char *impl, const jg_kernel_arg *args) {
  jg_error err;
  const jg_status st = call_with(k, impl, args, &err);
  if (st != JG_OK) {
    print_error("kernel %s, impl %s: %s: %s\n", jg_kernel_name(k), impl, jg_status_name(st),
                err.message);
  }
  assert_int_equal(st, JG_OK);
}

/* Calls `k` under every host implementation and asserts the data error: status, index and the
 * whole message. */
static void expect_error(const jg_kernel *k, const jg_kernel_arg *args, jg_status status,
                         int64_t index, const char *message) {
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_error err;
    const jg_status st = call_with(k, impl, args, &err);
    if (st != status || err.index != index || strcmp(err.message, message) != 0) {
      print_error("kernel %s, impl %s: got %s index %lld \"%s\"; expected %s index %lld \"%s\"\n",
                  jg_kernel_name(k), impl, jg_status_name(st), (long long)err.index, err.message,
                  jg_status_name(status), (long long)index, message);
      fail();
    }
  }
}

/* ------------------------------------------------------------- the lists */

/* Five lists over content[0..10) (m = 10; the arrays have two more elements, which a kernel must
 * not read): [2,5) past 0, [7,7) empty, [0,2) before the first, [3,9) overlapping it, [9,10) a
 * single element. Results go to 6 elements; the 6th must keep its sentinel. */
#define N 5
#define M 10
static const int32_t kStarts32[N] = {2, 7, 0, 3, 9};
static const int32_t kStops32[N] = {5, 7, 2, 9, 10};
static const int64_t kStarts64[N] = {2, 7, 0, 3, 9};
static const int64_t kStops64[N] = {5, 7, 2, 9, 10};

/* The arguments n, starts, stops, m, content of the five lists (int64 indices when wide). */
static void lists(jg_kernel_arg *a, bool wide, void *content, jg_dtype dt) {
  a[0] = jg_arg_i64(N);
  if (wide) {
    a[1] = jg_arg_array((void *)kStarts64, N, JG_DTYPE_INT64, HOST);
    a[2] = jg_arg_array((void *)kStops64, N, JG_DTYPE_INT64, HOST);
  } else {
    a[1] = jg_arg_array((void *)kStarts32, N, JG_DTYPE_INT32, HOST);
    a[2] = jg_arg_array((void *)kStops32, N, JG_DTYPE_INT32, HOST);
  }
  a[3] = jg_arg_i64(M);
  a[4] = jg_arg_array(content, M + 2, dt, HOST);
}

/* The same content per class (positions 10 and 11 are poison). */
static int64_t c_i64[M + 2] = {INT64_MAX, 1, 5, -7, 2, 3, 0, 9, -1, 4, 1000, -1000};
static int8_t c_i8[M + 2] = {100, 100, 100, -128, 100, -1, -1, 0, 5, 127, -128, 50};
static uint64_t c_u64[M + 2] = {UINT64_MAX, 2, 7, 3, 3, 0, 1, 9, 9, 5, 77, 0};
static double c_f64[M + 2] = {1.5, NAN, 2.0, -0.0, 0.0, -3.5, NAN, 8.0, -INFINITY, 0.25, -99, NAN};
static bool c_bool[M + 2] = {1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0};

static void fill_i64(int64_t *p, size_t n, int64_t v) {
  for (size_t i = 0; i < n; ++i) p[i] = v;
}

static void assert_i64s(const int64_t *got, const int64_t *want, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      print_error("element %zu: got %lld, expected %lld\n", i, (long long)got[i],
                  (long long)want[i]);
      fail();
    }
  }
}

/* Equal doubles, NaN equal to NaN. */
static void assert_f64s(const double *got, const double *want, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (!(got[i] == want[i] || (isnan(got[i]) && isnan(want[i])))) {
      print_error("element %zu: got %.17g, expected %.17g\n", i, got[i], want[i]);
      fail();
    }
  }
}

static void assert_bools(const bool *got, const bool *want, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      print_error("element %zu: got %d, expected %d\n", i, (int)got[i], (int)want[i]);
      fail();
    }
  }
}

/* -------------------------------------------------------------- list_sum */

static void test_list_sum_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_sum");
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_kernel_arg a[7];
    int64_t oi[N + 1];
    /* int64: [INT64_MAX, 1] wraps to INT64_MIN. */
    const int64_t sum_i64[N + 1] = {0, 0, INT64_MIN, 6, 4, SENTINEL};
    const int64_t prod_i64[N + 1] = {-70, 1, INT64_MAX, 0, 4, SENTINEL};
    for (int op = 0; op < 2; ++op) {
      lists(a, true, c_i64, JG_DTYPE_INT64);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(oi, N + 1, JG_DTYPE_INT64, HOST);
      fill_i64(oi, N + 1, SENTINEL);
      run_ok(k, impl, a);
      assert_i64s(oi, op == 0 ? sum_i64 : prod_i64, N + 1);
    }
    /* int8 widens to int64: 100 + 100 is 200, not -56. */
    const int64_t sum_i8[N + 1] = {72, 0, 200, -25, 127, SENTINEL};
    const int64_t prod_i8[N + 1] = {-1280000, 1, 10000, 0, 127, SENTINEL};
    for (int op = 0; op < 2; ++op) {
      lists(a, false, c_i8, JG_DTYPE_INT8);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(oi, N + 1, JG_DTYPE_INT64, HOST);
      fill_i64(oi, N + 1, SENTINEL);
      run_ok(k, impl, a);
      assert_i64s(oi, op == 0 ? sum_i8 : prod_i8, N + 1);
    }
    /* uint64 wraps: UINT64_MAX + 2 = 1, UINT64_MAX * 2 = UINT64_MAX - 1. */
    uint64_t ou[N + 1];
    const uint64_t sum_u64[N] = {13, 0, 1, 25, 5};
    const uint64_t prod_u64[N] = {63, 1, UINT64_MAX - 1, 0, 5};
    for (int op = 0; op < 2; ++op) {
      lists(a, true, c_u64, JG_DTYPE_UINT64);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(ou, N + 1, JG_DTYPE_UINT64, HOST);
      for (int i = 0; i <= N; ++i) ou[i] = 12345;
      run_ok(k, impl, a);
      for (int i = 0; i < N; ++i) assert_true(ou[i] == (op == 0 ? sum_u64 : prod_u64)[i]);
      assert_true(ou[N] == 12345);
    }
    /* float64: a NaN makes the list NaN; 2 * -0.0 * 0.0 is -0.0. */
    double of[N + 1];
    const double sum_f64[N + 1] = {2.0, 0.0, NAN, NAN, 0.25, SENTINEL};
    const double prod_f64[N + 1] = {-0.0, 1.0, NAN, NAN, 0.25, SENTINEL};
    for (int op = 0; op < 2; ++op) {
      lists(a, false, c_f64, JG_DTYPE_FLOAT64);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(of, N + 1, JG_DTYPE_FLOAT64, HOST);
      for (int i = 0; i <= N; ++i) of[i] = SENTINEL;
      run_ok(k, impl, a);
      assert_f64s(of, op == 0 ? sum_f64 : prod_f64, N + 1);
    }
    assert_true(signbit(of[0]));
    /* bool sums count the trues (int64); the product is "all". */
    const int64_t sum_b[N + 1] = {2, 0, 1, 3, 1, SENTINEL};
    const int64_t prod_b[N + 1] = {0, 1, 0, 0, 1, SENTINEL};
    for (int op = 0; op < 2; ++op) {
      lists(a, true, c_bool, JG_DTYPE_BOOL);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(oi, N + 1, JG_DTYPE_INT64, HOST);
      fill_i64(oi, N + 1, SENTINEL);
      run_ok(k, impl, a);
      assert_i64s(oi, op == 0 ? sum_b : prod_b, N + 1);
    }
    /* int64 products wrap: INT64_MAX * 2 = -2, * 3 = -6 (mod 2^64). */
    int64_t big[3] = {INT64_MAX, 2, 3};
    const int64_t s2[2] = {0, 0}, e2[2] = {2, 3};
    jg_kernel_arg b[7] = {jg_arg_i64(2),
                          jg_arg_array((void *)s2, 2, JG_DTYPE_INT64, HOST),
                          jg_arg_array((void *)e2, 2, JG_DTYPE_INT64, HOST),
                          jg_arg_i64(3),
                          jg_arg_array(big, 3, JG_DTYPE_INT64, HOST),
                          jg_arg_i64(1),
                          jg_arg_array(oi, 2, JG_DTYPE_INT64, HOST)};
    run_ok(k, impl, b);
    assert_int_equal(oi[0], -2);
    assert_int_equal(oi[1], -6);
    /* uint8 sums to uint64 without wrapping at 8 bits. */
    uint8_t u8[3] = {200, 200, 200};
    const int32_t s1[1] = {0}, e1[1] = {3};
    jg_kernel_arg c[7] = {jg_arg_i64(1),
                          jg_arg_array((void *)s1, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_array((void *)e1, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_i64(3),
                          jg_arg_array(u8, 3, JG_DTYPE_UINT8, HOST),
                          jg_arg_i64(0),
                          jg_arg_array(ou, 1, JG_DTYPE_UINT64, HOST)};
    run_ok(k, impl, c);
    assert_true(ou[0] == 600);
    /* float32 is accumulated in double: 1e8 + 1 - 1e8 is 1 (0 in float arithmetic). */
    float f32[3] = {1e8f, 1.0f, -1e8f};
    float o32[1] = {-1};
    jg_kernel_arg d[7] = {jg_arg_i64(1),
                          jg_arg_array((void *)s1, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_array((void *)e1, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_i64(3),
                          jg_arg_array(f32, 3, JG_DTYPE_FLOAT32, HOST),
                          jg_arg_i64(0),
                          jg_arg_array(o32, 1, JG_DTYPE_FLOAT32, HOST)};
    run_ok(k, impl, d);
    assert_true(o32[0] == 1.0f);
  }
}

/* ----------------------------------------------------------- list_minmax */

static void test_list_minmax_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_minmax");
  const bool valid_want[N + 1] = {true, false, true, true, true, true};
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_kernel_arg a[8];
    bool valid[N + 1];
    /* int64: the empty list gives the type's largest (min) and smallest (max) value. */
    int64_t oi[N + 1];
    const int64_t min_i64[N + 1] = {-7, INT64_MAX, 1, -7, 4, SENTINEL};
    const int64_t max_i64[N + 1] = {5, INT64_MIN, INT64_MAX, 9, 4, SENTINEL};
    for (int op = 0; op < 2; ++op) {
      lists(a, true, c_i64, JG_DTYPE_INT64);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(oi, N + 1, JG_DTYPE_INT64, HOST);
      a[7] = jg_arg_array(valid, N + 1, JG_DTYPE_BOOL, HOST);
      fill_i64(oi, N + 1, SENTINEL);
      memset(valid, 1, sizeof valid);
      run_ok(k, impl, a);
      assert_i64s(oi, op == 0 ? min_i64 : max_i64, N + 1);
      assert_bools(valid, valid_want, N + 1);
    }
    /* int8: identities 127 and -128. */
    int8_t o8[N + 1];
    const int8_t min_i8[N + 1] = {-128, 127, 100, -128, 127, 55};
    const int8_t max_i8[N + 1] = {100, -128, 100, 100, 127, 55};
    for (int op = 0; op < 2; ++op) {
      lists(a, false, c_i8, JG_DTYPE_INT8);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(o8, N + 1, JG_DTYPE_INT8, HOST);
      a[7] = jg_arg_array(valid, N + 1, JG_DTYPE_BOOL, HOST);
      memset(o8, 55, sizeof o8);
      run_ok(k, impl, a);
      for (int i = 0; i <= N; ++i) assert_int_equal(o8[i], (op == 0 ? min_i8 : max_i8)[i]);
      assert_bools(valid, valid_want, N + 1);
    }
    /* uint64: identities UINT64_MAX and 0. */
    uint64_t ou[N + 1];
    const uint64_t min_u64[N] = {3, UINT64_MAX, 2, 0, 5};
    const uint64_t max_u64[N] = {7, 0, UINT64_MAX, 9, 5};
    for (int op = 0; op < 2; ++op) {
      lists(a, true, c_u64, JG_DTYPE_UINT64);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(ou, N + 1, JG_DTYPE_UINT64, HOST);
      a[7] = jg_arg_array(valid, N + 1, JG_DTYPE_BOOL, HOST);
      run_ok(k, impl, a);
      for (int i = 0; i < N; ++i) assert_true(ou[i] == (op == 0 ? min_u64 : max_u64)[i]);
    }
    /* float64: +inf / -inf for the empty list, NaN wins. */
    double of[N + 1];
    const double min_f64[N + 1] = {0.0, INFINITY, NAN, NAN, 0.25, SENTINEL};
    const double max_f64[N + 1] = {2.0, -INFINITY, NAN, NAN, 0.25, SENTINEL};
    for (int op = 0; op < 2; ++op) {
      lists(a, false, c_f64, JG_DTYPE_FLOAT64);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(of, N + 1, JG_DTYPE_FLOAT64, HOST);
      a[7] = jg_arg_array(valid, N + 1, JG_DTYPE_BOOL, HOST);
      for (int i = 0; i <= N; ++i) of[i] = SENTINEL;
      run_ok(k, impl, a);
      assert_f64s(of, op == 0 ? min_f64 : max_f64, N + 1);
      assert_bools(valid, valid_want, N + 1);
    }
    /* -inf is a minimum like any other: [3, -inf, 5, -inf] gives -inf and 5. */
    double inf4[4] = {3, -INFINITY, 5, -INFINITY};
    const int32_t s1[1] = {0}, e1[1] = {4};
    jg_kernel_arg d[8] = {jg_arg_i64(1),
                          jg_arg_array((void *)s1, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_array((void *)e1, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_i64(4),
                          jg_arg_array(inf4, 4, JG_DTYPE_FLOAT64, HOST),
                          jg_arg_i64(0),
                          jg_arg_array(of, 1, JG_DTYPE_FLOAT64, HOST),
                          jg_arg_array(valid, 1, JG_DTYPE_BOOL, HOST)};
    run_ok(k, impl, d);
    assert_true(of[0] == -INFINITY);
    d[5] = jg_arg_i64(1);
    run_ok(k, impl, d);
    assert_true(of[0] == 5.0);
    /* bool: min is "all" with identity true, max is "any" with identity false. */
    bool ob[N + 1];
    const bool min_b[N + 1] = {false, true, false, false, true, true};
    const bool max_b[N + 1] = {true, false, true, true, true, true};
    for (int op = 0; op < 2; ++op) {
      lists(a, true, c_bool, JG_DTYPE_BOOL);
      a[5] = jg_arg_i64(op);
      a[6] = jg_arg_array(ob, N + 1, JG_DTYPE_BOOL, HOST);
      a[7] = jg_arg_array(valid, N + 1, JG_DTYPE_BOOL, HOST);
      memset(ob, 1, sizeof ob);
      run_ok(k, impl, a);
      assert_bools(ob, op == 0 ? min_b : max_b, N + 1);
      assert_bools(valid, valid_want, N + 1);
    }
  }
}

/* -------------------------------------------------------- list_argminmax */

static void test_list_argminmax_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_argminmax");
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_kernel_arg a[7];
    int64_t o[N + 1];
    struct {
      void *content;
      jg_dtype dt;
      int64_t argmin[N + 1], argmax[N + 1];
    } cases[5] = {
        /* Positions are local to the list; empty lists give -1; ties go to the first. */
        {c_i64, JG_DTYPE_INT64, {1, -1, 1, 0, 0, SENTINEL}, {0, -1, 0, 4, 0, SENTINEL}},
        /* [100, -128, 100]: the first 100 is the maximum. */
        {c_i8, JG_DTYPE_INT8, {1, -1, 0, 0, 0, SENTINEL}, {0, -1, 0, 1, 0, SENTINEL}},
        /* [7, 3, 3] and [3, 3, 0, 1, 9, 9]: the first 3, the first 9. */
        {c_u64, JG_DTYPE_UINT64, {1, -1, 1, 2, 0, SENTINEL}, {0, -1, 0, 4, 0, SENTINEL}},
        /* [2.0, -0.0, 0.0]: -0.0 == 0.0, the first wins; the first NaN wins both ways. */
        {c_f64, JG_DTYPE_FLOAT64, {1, -1, 1, 3, 0, SENTINEL}, {0, -1, 1, 3, 0, SENTINEL}},
        {c_bool, JG_DTYPE_BOOL, {2, -1, 1, 1, 0, SENTINEL}, {0, -1, 0, 0, 0, SENTINEL}},
    };
    for (int c = 0; c < 5; ++c) {
      for (int op = 0; op < 2; ++op) {
        lists(a, c % 2 == 0, cases[c].content, cases[c].dt);
        a[5] = jg_arg_i64(op);
        a[6] = jg_arg_array(o, N + 1, JG_DTYPE_INT64, HOST);
        fill_i64(o, N + 1, SENTINEL);
        run_ok(k, impl, a);
        assert_i64s(o, op == 0 ? cases[c].argmin : cases[c].argmax, N + 1);
      }
    }
    /* -inf: [3, -inf, 5, -inf] gives argmin 1 (the first -inf), argmax 2. */
    double inf4[4] = {3, -INFINITY, 5, -INFINITY};
    const int64_t s1[1] = {0}, e1[1] = {4};
    jg_kernel_arg d[7] = {jg_arg_i64(1),
                          jg_arg_array((void *)s1, 1, JG_DTYPE_INT64, HOST),
                          jg_arg_array((void *)e1, 1, JG_DTYPE_INT64, HOST),
                          jg_arg_i64(4),
                          jg_arg_array(inf4, 4, JG_DTYPE_FLOAT64, HOST),
                          jg_arg_i64(0),
                          jg_arg_array(o, 1, JG_DTYPE_INT64, HOST)};
    run_ok(k, impl, d);
    assert_int_equal(o[0], 1);
    d[5] = jg_arg_i64(1);
    run_ok(k, impl, d);
    assert_int_equal(o[0], 2);
    /* float32 NaN late in a list: [1, NaN, -5, NaN] gives 1 for both. */
    float nan4[4] = {1, NAN, -5, NAN};
    d[4] = jg_arg_array(nan4, 4, JG_DTYPE_FLOAT32, HOST);
    d[5] = jg_arg_i64(0);
    run_ok(k, impl, d);
    assert_int_equal(o[0], 1);
    d[5] = jg_arg_i64(1);
    run_ok(k, impl, d);
    assert_int_equal(o[0], 1);
  }
}

/* ------------------------------------------------------------ list_count */

static void test_list_count_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_count");
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    int64_t o[N + 1];
    const int64_t want[N + 1] = {3, 0, 2, 6, 1, SENTINEL};
    for (int wide = 0; wide < 2; ++wide) {
      jg_kernel_arg a[5] = {jg_arg_i64(N),
                            wide ? jg_arg_array((void *)kStarts64, N, JG_DTYPE_INT64, HOST)
                                 : jg_arg_array((void *)kStarts32, N, JG_DTYPE_INT32, HOST),
                            wide ? jg_arg_array((void *)kStops64, N, JG_DTYPE_INT64, HOST)
                                 : jg_arg_array((void *)kStops32, N, JG_DTYPE_INT32, HOST),
                            jg_arg_i64(10), jg_arg_array(o, N + 1, JG_DTYPE_INT64, HOST)};
      fill_i64(o, N + 1, SENTINEL);
      run_ok(k, impl, a);
      assert_i64s(o, want, N + 1);
    }
    /* The whole content of INT64_MAX elements (m is a length, never a buffer here), a list
     * ending exactly at m, empty lists at the extremes. */
    const int64_t s[4] = {0, INT64_MAX - 100, INT64_MAX, INT64_MIN};
    const int64_t e[4] = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MIN};
    jg_kernel_arg b[5] = {jg_arg_i64(4), jg_arg_array((void *)s, 4, JG_DTYPE_INT64, HOST),
                          jg_arg_array((void *)e, 4, JG_DTYPE_INT64, HOST),
                          jg_arg_i64(INT64_MAX), jg_arg_array(o, 4, JG_DTYPE_INT64, HOST)};
    run_ok(k, impl, b);
    assert_int_equal(o[0], INT64_MAX);
    assert_int_equal(o[1], 100);
    assert_int_equal(o[2], 0);
    assert_int_equal(o[3], 0);
    /* No lists: nothing is read or written (NULL arrays of length 0). */
    jg_kernel_arg z[5] = {jg_arg_i64(0), jg_arg_array(NULL, 0, JG_DTYPE_INT32, HOST),
                          jg_arg_array(NULL, 0, JG_DTYPE_INT32, HOST), jg_arg_i64(0),
                          jg_arg_array(NULL, 0, JG_DTYPE_INT64, HOST)};
    run_ok(k, impl, z);
  }
}

/* ---------------------------------------------------- list_count_nonzero */

static void test_list_count_nonzero_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_count_nonzero");
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_kernel_arg a[6];
    int64_t o[N + 1];
    struct {
      void *content;
      jg_dtype dt;
      int64_t want[N + 1];
    } cases[5] = {
        {c_i64, JG_DTYPE_INT64, {3, 0, 2, 5, 1, SENTINEL}},
        {c_i8, JG_DTYPE_INT8, {3, 0, 2, 5, 1, SENTINEL}},
        {c_u64, JG_DTYPE_UINT64, {3, 0, 2, 5, 1, SENTINEL}},
        /* NaN counts, -0.0 and 0.0 do not: [2, -0, 0] has 1, [-0, 0, -3.5, NaN, 8, -inf] 4. */
        {c_f64, JG_DTYPE_FLOAT64, {1, 0, 2, 4, 1, SENTINEL}},
        {c_bool, JG_DTYPE_BOOL, {2, 0, 1, 3, 1, SENTINEL}},
    };
    for (int c = 0; c < 5; ++c) {
      lists(a, c % 2 == 1, cases[c].content, cases[c].dt);
      a[5] = jg_arg_array(o, N + 1, JG_DTYPE_INT64, HOST);
      fill_i64(o, N + 1, SENTINEL);
      run_ok(k, impl, a);
      assert_i64s(o, cases[c].want, N + 1);
    }
  }
}

/* ----------------------------------------------------------- list_anyall */

static void test_list_anyall_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_anyall");
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_kernel_arg a[7];
    bool o[N + 1];
    /* The empty list: any false, all true; the tail keeps its "true". */
    const bool any_all_ints[2][N + 1] = {{true, false, true, true, true, true},
                                         {true, true, true, false, true, true}};
    /* float64: [2, -0, 0] is not all nonzero; [1.5, NaN] is (NaN is true). */
    const bool any_all_f64[2][N + 1] = {{true, false, true, true, true, true},
                                        {false, true, true, false, true, true}};
    const bool any_all_bool[2][N + 1] = {{true, false, true, true, true, true},
                                         {false, true, false, false, true, true}};
    struct {
      void *content;
      jg_dtype dt;
      const bool (*want)[N + 1];
    } cases[5] = {{c_i64, JG_DTYPE_INT64, any_all_ints},
                  {c_i8, JG_DTYPE_INT8, any_all_ints},
                  {c_u64, JG_DTYPE_UINT64, any_all_ints},
                  {c_f64, JG_DTYPE_FLOAT64, any_all_f64},
                  {c_bool, JG_DTYPE_BOOL, any_all_bool}};
    for (int c = 0; c < 5; ++c) {
      for (int op = 0; op < 2; ++op) {
        lists(a, c % 2 == 0, cases[c].content, cases[c].dt);
        a[5] = jg_arg_i64(op);
        a[6] = jg_arg_array(o, N + 1, JG_DTYPE_BOOL, HOST);
        memset(o, 1, sizeof o);
        run_ok(k, impl, a);
        assert_bools(o, cases[c].want[op], N + 1);
      }
    }
    /* All zeros: any false, all false. */
    int16_t zeros[3] = {0, 0, 0};
    const int32_t s1[1] = {0}, e1[1] = {3};
    jg_kernel_arg d[7] = {jg_arg_i64(1),
                          jg_arg_array((void *)s1, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_array((void *)e1, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_i64(3),
                          jg_arg_array(zeros, 3, JG_DTYPE_INT16, HOST),
                          jg_arg_i64(0),
                          jg_arg_array(o, 1, JG_DTYPE_BOOL, HOST)};
    o[0] = true;
    run_ok(k, impl, d);
    assert_false(o[0]);
    d[5] = jg_arg_i64(1);
    o[0] = true;
    run_ok(k, impl, d);
    assert_false(o[0]);
  }
}

/* ------------------------------------------------------------- list_mean */

static void test_list_mean_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_mean");
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_kernel_arg a[6];
    double o[N + 1];
    struct {
      void *content;
      jg_dtype dt;
      double want[N + 1];
    } cases[5] = {
        /* [INT64_MAX, 1] in double: 2^63 + 1 rounds to 2^63; half is 2^62. */
        {c_i64, JG_DTYPE_INT64, {0.0, NAN, 4611686018427387904.0, 1.0, 4.0, SENTINEL}},
        {c_i8, JG_DTYPE_INT8, {24.0, NAN, 100.0, -25.0 / 6.0, 127.0, SENTINEL}},
        /* [UINT64_MAX, 2] in double: 2^64 + 2 rounds to 2^64; half is 2^63. */
        {c_u64,
         JG_DTYPE_UINT64,
         {13.0 / 3.0, NAN, 9223372036854775808.0, 25.0 / 6.0, 5.0, SENTINEL}},
        {c_f64, JG_DTYPE_FLOAT64, {2.0 / 3.0, NAN, NAN, NAN, 0.25, SENTINEL}},
        {c_bool, JG_DTYPE_BOOL, {2.0 / 3.0, NAN, 0.5, 0.5, 1.0, SENTINEL}},
    };
    for (int c = 0; c < 5; ++c) {
      lists(a, c % 2 == 1, cases[c].content, cases[c].dt);
      a[5] = jg_arg_array(o, N + 1, JG_DTYPE_FLOAT64, HOST);
      for (int i = 0; i <= N; ++i) o[i] = SENTINEL;
      run_ok(k, impl, a);
      assert_f64s(o, cases[c].want, N + 1);
    }
    /* float32 with infinities: [inf, 1] is inf, [inf, -inf] NaN. */
    float f[3] = {INFINITY, 1.0f, -INFINITY};
    const int32_t s[2] = {0, 0}, e[2] = {2, 3};
    jg_kernel_arg d[6] = {jg_arg_i64(2),
                          jg_arg_array((void *)s, 2, JG_DTYPE_INT32, HOST),
                          jg_arg_array((void *)e, 2, JG_DTYPE_INT32, HOST),
                          jg_arg_i64(3),
                          jg_arg_array(f, 3, JG_DTYPE_FLOAT32, HOST),
                          jg_arg_array(o, 2, JG_DTYPE_FLOAT64, HOST)};
    run_ok(k, impl, d);
    assert_true(o[0] == INFINITY);
    assert_true(isnan(o[1]));
  }
}

/* --------------------------------------------------------- empty and none */

/* Every kernel with a content parameter, on float64 content and int64 (wide) or int32 indices:
 * the arguments in parameter order, outputs of length `n_out` (dtypes from the kernel's variant
 * for float64 content). */
typedef struct generic_call {
  jg_kernel_arg args[8];
  int64_t out_i64[8192];
  double out_f64[8192];
  bool out_bool[8192];
  bool valid[8192];
} generic_call;

static void generic_args(const jg_kernel *k, generic_call *g, int64_t n, const void *starts,
                         const void *stops, bool wide, int64_t m, double *content,
                         int64_t content_length, int64_t n_out) {
  const jg_dtype idt = wide ? JG_DTYPE_INT64 : JG_DTYPE_INT32;
  /* The variant with these index and content dtypes. */
  size_t v = 0;
  const bool has_content =
      jg_kernel_param_count(k) > 4 && strcmp(jg_kernel_param_at(k, 4)->name, "content") == 0;
  for (; v < jg_kernel_variant_count(k); ++v) {
    if (jg_kernel_variant_dtype(k, v, 1) == idt &&
        (!has_content || jg_kernel_variant_dtype(k, v, 4) == JG_DTYPE_FLOAT64)) {
      break;
    }
  }
  assert_true(v < jg_kernel_variant_count(k));
  for (size_t i = 0; i < jg_kernel_param_count(k); ++i) {
    const jg_kernel_param *p = jg_kernel_param_at(k, i);
    const char *name = p->name;
    if (strcmp(name, "n") == 0) {
      g->args[i] = jg_arg_i64(n);
    } else if (strcmp(name, "starts") == 0) {
      g->args[i] = jg_arg_array((void *)starts, n, idt, HOST);
    } else if (strcmp(name, "stops") == 0) {
      g->args[i] = jg_arg_array((void *)stops, n, idt, HOST);
    } else if (strcmp(name, "m") == 0) {
      g->args[i] = jg_arg_i64(m);
    } else if (strcmp(name, "content") == 0) {
      g->args[i] = jg_arg_array(content, content_length, JG_DTYPE_FLOAT64, HOST);
    } else if (strcmp(name, "op") == 0) {
      g->args[i] = jg_arg_i64(0);
    } else if (strcmp(name, "valid") == 0) {
      g->args[i] = jg_arg_array(g->valid, n_out, JG_DTYPE_BOOL, HOST);
    } else {
      assert_string_equal(name, "out");
      const jg_dtype d = jg_kernel_variant_dtype(k, v, i);
      void *data = d == JG_DTYPE_INT64     ? (void *)g->out_i64
                   : d == JG_DTYPE_FLOAT64 ? (void *)g->out_f64
                                           : (void *)g->out_bool;
      g->args[i] = jg_arg_array(data, n_out, d, HOST);
    }
  }
}

static generic_call g_call;

static void test_empty_lists_anywhere(void **state) {
  (void)state;
  /* Empty lists may start anywhere, before 0 and past m (even with m = 0 and no content); no
   * lists at all need no arrays. */
  const int64_t s[4] = {-5, 1000, INT64_MIN, INT64_MAX};
  double content[1] = {42};
  for (int i = 0; i < 7; ++i) {
    const jg_kernel *k = kernel(kKernels[i]);
    for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
      const char *impl = jg_kernel_host_impl_name(k, h);
      generic_call *g = &g_call;
      memset(g, 0, sizeof *g);
      generic_args(k, g, 4, s, s, true, 0, content, 0, 4);
      run_ok(k, impl, g->args);
      if (strcmp(kKernels[i], "list_argminmax") == 0) {
        for (int j = 0; j < 4; ++j) assert_int_equal(g->out_i64[j], -1);
      }
      if (strcmp(kKernels[i], "list_anyall") == 0) {
        for (int j = 0; j < 4; ++j) assert_false(g->out_bool[j]); /* any of nothing */
      }
      if (strcmp(kKernels[i], "list_mean") == 0) {
        for (int j = 0; j < 4; ++j) assert_true(isnan(g->out_f64[j]));
      }
      if (strcmp(kKernels[i], "list_minmax") == 0) {
        for (int j = 0; j < 4; ++j) {
          assert_true(g->out_f64[j] == INFINITY);
          assert_false(g->valid[j]);
        }
      }
      if (strcmp(kKernels[i], "list_count") == 0 ||
          strcmp(kKernels[i], "list_count_nonzero") == 0) {
        for (int j = 0; j < 4; ++j) assert_int_equal(g->out_i64[j], 0);
      }
      /* n = 0 with NULL arrays (and content of 1, m = 1). */
      memset(g, 0, sizeof *g);
      generic_args(k, g, 0, NULL, NULL, false, 1, content, 1, 0);
      for (size_t p = 0; p < jg_kernel_param_count(k); ++p) {
        if (g->args[p].kind == JG_PARAM_ARRAY && g->args[p].v.array.length == 0) {
          g->args[p].v.array.data = NULL;
        }
      }
      run_ok(k, impl, g->args);
    }
  }
}

/* ------------------------------------------------------------- BAD_RANGE */

static void bad_range(const char *name, const int64_t *starts, const int64_t *stops, int64_t n,
                      int64_t m, int64_t index) {
  const jg_kernel *k = kernel(name);
  static double content[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  char message[200];
  snprintf(message, sizeof message,
           "%s: list %lld has stops < starts or reaches outside the content", name,
           (long long)index);
  generic_call *g = &g_call;
  memset(g, 0, sizeof *g);
  generic_args(k, g, n, starts, stops, true, m, content, m > 0 ? m : 0, n);
  expect_error(k, g->args, JG_EVALUE, index, message);
  /* The same lists with int32 indices. */
  static int32_t s32[8192], e32[8192];
  for (int64_t i = 0; i < n; ++i) {
    s32[i] = (int32_t)starts[i];
    e32[i] = (int32_t)stops[i];
  }
  memset(g, 0, sizeof *g);
  generic_args(k, g, n, s32, e32, false, m, content, m > 0 ? m : 0, n);
  expect_error(k, g->args, JG_EVALUE, index, message);
}

static void test_bad_range(void **state) {
  (void)state;
  for (int i = 0; i < 7; ++i) {
    const char *name = kKernels[i];
    /* stops < starts at list 1, also at list 3. */
    const int64_t s1[4] = {0, 3, 0, 5}, e1[4] = {2, 2, 1, 4};
    bad_range(name, s1, e1, 4, 8, 1);
    /* stops < starts among empty lists, with m = 0. */
    const int64_t s1b[3] = {4, 4, 4}, e1b[3] = {4, 4, 3};
    bad_range(name, s1b, e1b, 3, 0, 2);
    {
      /* A non-empty list starting before 0 at list 2 (an empty one at -3 before it is fine). */
      const int64_t s2[3] = {0, -3, -1}, e2[3] = {1, -3, 2};
      bad_range(name, s2, e2, 3, 8, 2);
      /* A list past m at list 0 (content has 8 elements, m = 6). */
      const int64_t s3[2] = {4, 0}, e3[2] = {7, 1};
      bad_range(name, s3, e3, 2, 6, 0);
      /* Past m at list 4 and stops < starts at list 2: the smaller is reported. */
      const int64_t s4[5] = {0, 1, 3, 0, 0}, e4[5] = {1, 2, 2, 0, 9};
      bad_range(name, s4, e4, 5, 8, 2);
      /* A negative m: an empty list is fine, the first non-empty one is bad. */
      const int64_t s5[3] = {0, 2, 0}, e5[3] = {0, 2, 1};
      bad_range(name, s5, e5, 3, -1, 2);
      /* A list ending exactly at m is fine; one element more is not. */
      const int64_t s6[2] = {6, 6}, e6[2] = {8, 9};
      bad_range(name, s6, e6, 2, 8, 1);
    }
    /* Bad lists at 4500 and 2100 and 2200 of 5000 (OpenMP chunks of 1024: the first bad list is
     * in the third chunk, a later chunk fails too, and so does a later list of its own chunk). */
    static int64_t s7[5000], e7[5000];
    for (int j = 0; j < 5000; ++j) s7[j] = e7[j] = j % 7;
    e7[4500] = -1;
    e7[2100] = -1;
    e7[2200] = -1;
    bad_range(name, s7, e7, 5000, 8, 2100);
  }
  /* Lengths beyond INT64_MAX ([INT64_MIN, 0], [-1, INT64_MAX]) start below 0: bad (no
   * difference overflows before the check). */
  const int64_t s8[3] = {0, INT64_MIN, -1}, e8[3] = {5, 0, INT64_MAX};
  static double content8[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int i = 0; i < 7; ++i) {
    const jg_kernel *k = kernel(kKernels[i]);
    char message[200];
    snprintf(message, sizeof message,
             "%s: list 1 has stops < starts or reaches outside the content", kKernels[i]);
    generic_call *g = &g_call;
    memset(g, 0, sizeof *g);
    generic_args(k, g, 3, s8, e8, true, 8, content8, 8, 3);
    expect_error(k, g->args, JG_EVALUE, 1, message);
  }
}

/* ----------------------------------------------------------- the catalog */

/* The parameter lists src/ops calls the kernels with (issue 5): a change here must be agreed. */
static void test_parameters(void **state) {
  (void)state;
  static const char *const params[7] = {
      "n starts stops m content op out", "n starts stops m content op out valid",
      "n starts stops m content op out", "n starts stops m out",
      "n starts stops m content out",    "n starts stops m content op out",
      "n starts stops m content out"};
  static const size_t variants[7] = {22, 22, 22, 2, 22, 22, 22};
  char report[16384];
  jg_error err;
  (void)jg_catalog_check(report, sizeof report, &err);
  for (int i = 0; i < 7; ++i) {
    const jg_kernel *k = kernel(kKernels[i]);
    char got[128] = "";
    for (size_t p = 0; p < jg_kernel_param_count(k); ++p) {
      const size_t len = strlen(got);
      snprintf(got + len, sizeof got - len, "%s%s", p ? " " : "", jg_kernel_param_at(k, p)->name);
    }
    assert_string_equal(got, params[i]);
    assert_int_equal(jg_kernel_variant_count(k), variants[i]);
    assert_string_equal(jg_kernel_host_impl_name(k, 0), "c");
    assert_int_equal(jg_kernel_parity_case_count(k), 15);
    char path[128], quoted[64];
    snprintf(path, sizeof path, "src/kernels/%s/%s_cuda.cu", kKernels[i], kKernels[i]);
    assert_string_equal(jg_kernel_cuda_path(k), path);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    assert_true(jg_kernel_has_cuda(k));
#else
    assert_false(jg_kernel_has_cuda(k));
#endif
    /* jg_catalog_check finds no mismatch in these kernels. */
    snprintf(quoted, sizeof quoted, "kernel '%s'", kKernels[i]);
    if (strstr(report, quoted) != NULL) {
      print_error("jg_catalog_check:\n%s\n", report);
      fail();
    }
  }
  /* list_sum's result types: bool and signed to int64, unsigned to uint64, floats keep theirs. */
  const jg_kernel *k = kernel("list_sum");
  for (size_t v = 0; v < jg_kernel_variant_count(k); ++v) {
    const jg_dtype t = jg_kernel_variant_dtype(k, v, 4), r = jg_kernel_variant_dtype(k, v, 6);
    const jg_dtype want = t == JG_DTYPE_FLOAT32 || t == JG_DTYPE_FLOAT64 ? t
                          : t == JG_DTYPE_UINT8 || t == JG_DTYPE_UINT16 || t == JG_DTYPE_UINT32 ||
                                  t == JG_DTYPE_UINT64
                              ? JG_DTYPE_UINT64
                              : JG_DTYPE_INT64;
    assert_int_equal(r, want);
  }
}

static bool has_host_impl(const jg_kernel *k, const char *name) {
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h)
    if (strcmp(jg_kernel_host_impl_name(k, h), name) == 0) return true;
  return false;
}

/* "openmp" against "c" over every parity case of every variant; "c" against itself in a build
 * without OpenMP (every case still builds valid arguments). */
static void test_parity_openmp(void **state) {
  (void)state;
  for (int i = 0; i < 7; ++i) {
    const jg_kernel *k = kernel(kKernels[i]);
    assert_true(has_host_impl(k, "openmp") || jg_kernel_host_impl_count(k) == 1);
    jg_parity_options o;
    memset(&o, 0, sizeof o);
    o.other = has_host_impl(k, "openmp") ? "openmp" : "c";
    o.seed = 777;
    assert_int_equal(jg_kernel_parity_case_count(k), 15);
    jgt_parity_ok(k, &o, kKernels[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_list_sum_values),
      cmocka_unit_test(test_list_minmax_values),
      cmocka_unit_test(test_list_argminmax_values),
      cmocka_unit_test(test_list_count_values),
      cmocka_unit_test(test_list_count_nonzero_values),
      cmocka_unit_test(test_list_anyall_values),
      cmocka_unit_test(test_list_mean_values),
      cmocka_unit_test(test_empty_lists_anywhere),
      cmocka_unit_test(test_bad_range),
      cmocka_unit_test(test_parameters),
      cmocka_unit_test(test_parity_openmp),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
