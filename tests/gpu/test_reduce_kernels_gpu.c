/* test_reduce_kernels_gpu.c: the CUDA side of the reduction kernels (list_sum, list_minmax,
 * list_argminmax, list_count, list_count_nonzero, list_anyall, list_mean).
 *
 * jg_kernel_parity runs every kernel's own parity cases (every variant) on the host reference
 * and on the GPU and must find them equal: with the default launch over all cases, then over the
 * small cases (jgk_parity.h: JGK_PARITY_SMALL_LAYOUTS, which still hold every rule and error)
 * with unusual launches: grid 3 of 64-thread blocks (6 warps looping over thousands of lists, and
 * the error word's minimum across iterations), 48-thread blocks (a 16-lane warp in every block)
 * and 20-thread blocks (only partial warps). Then one direct call per kernel on cudaMalloc'd
 * arrays is checked against hand values, including lists longer than a warp (the first of tied
 * minima in different lanes), and BAD_RANGE must come back from the device with the host's
 * status, index and message. Exits 77 (skipped) without a usable GPU or without CUDA. */
#include <math.h>

#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#define CUDA_OK(expr)                                         \
  do {                                                        \
    cudaError_t e_ = (expr);                                  \
    if (e_ != cudaSuccess) {                                  \
      print_error("%s: %s\n", #expr, cudaGetErrorString(e_)); \
      fail();                                                 \
    }                                                         \
  } while (0)

#define SMALL_CASES 12 /* JGK_PARITY_SMALL_LAYOUTS */
#define SENTINEL (-777)

static const jg_device kDev = {JG_DEVICE_CUDA, 0};

static const char *const kKernels[7] = {"list_sum",   "list_minmax",        "list_argminmax",
                                        "list_count", "list_count_nonzero", "list_anyall",
                                        "list_mean"};

static const jg_kernel *kernel(const char *name) {
  const jg_kernel *k = NULL;
  JGT_OK(jg_catalog_find(name, &k, &jgt_err_));
  assert_non_null(k);
  assert_true(jg_kernel_has_cuda(k));
  return k;
}

/* Device memory freed at the end of each test. */
static void *g_dev[64];
static int g_n_dev;

/* A device copy of `bytes` bytes at `host` (at least one byte is allocated). */
static void *to_dev(const void *host, size_t bytes) {
  void *p = NULL;
  CUDA_OK(cudaMalloc(&p, bytes > 0 ? bytes : 1));
  if (bytes > 0) CUDA_OK(cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice));
  assert_true(g_n_dev < 64);
  g_dev[g_n_dev++] = p;
  return p;
}

static void to_host(void *host, const void *dev, size_t bytes) {
  CUDA_OK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
}

static void free_dev(void) {
  for (int i = 0; i < g_n_dev; ++i) CUDA_OK(cudaFree(g_dev[i]));
  g_n_dev = 0;
}

static void call_ok(const jg_kernel *k, const jg_kernel_arg *a, const jg_launch *launch) {
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = jg_kernel_call(k, a, jg_kernel_param_count(k), launch, &err);
  if (st != JG_OK) {
    print_error("kernel %s on the GPU: %s: %s\n", jg_kernel_name(k), jg_status_name(st),
                err.message);
  }
  assert_int_equal(st, JG_OK);
  CUDA_OK(cudaDeviceSynchronize());
}

/* ---------------------------------------------------------------- parity */

static void parity(const char *name, const jg_launch *launch, int n_cases) {
  const jg_kernel *k = kernel(name);
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.seed = 4242;
  o.launch = launch;
  o.n_cases = n_cases;
  char what[128];
  snprintf(what, sizeof what, "%s (grid %lld, block %d)", name,
           launch != NULL ? (long long)launch->grid : 0LL, launch != NULL ? launch->block : 0);
  jgt_parity_ok(k, &o, what);
}

static void test_parity_default_launch(void **state) {
  (void)state;
  for (int i = 0; i < 7; ++i) parity(kKernels[i], NULL, 0);
}

static void test_parity_unusual_launches(void **state) {
  (void)state;
  jg_launch small;
  memset(&small, 0, sizeof small);
  small.grid = 3;
  small.block = 64;
  jg_launch partial;
  memset(&partial, 0, sizeof partial);
  partial.grid = 5;
  partial.block = 48;
  jg_launch tiny;
  memset(&tiny, 0, sizeof tiny);
  tiny.block = 20;
  for (int i = 0; i < 7; ++i) {
    parity(kKernels[i], &small, SMALL_CASES);
    parity(kKernels[i], &partial, SMALL_CASES);
    parity(kKernels[i], &tiny, SMALL_CASES);
  }
}

/* ------------------------------------------------------ direct device calls */

/* The unit test's five lists over content[0..10) (m = 10, two more poison elements): [2,5),
 * [7,7), [0,2), [3,9), [9,10). Outputs have 6 elements; the 6th keeps its sentinel. */
#define N 5
#define M 10
static const int32_t kStarts32[N] = {2, 7, 0, 3, 9};
static const int32_t kStops32[N] = {5, 7, 2, 9, 10};
static const int64_t kStarts64[N] = {2, 7, 0, 3, 9};
static const int64_t kStops64[N] = {5, 7, 2, 9, 10};

static int64_t c_i64[M + 2] = {INT64_MAX, 1, 5, -7, 2, 3, 0, 9, -1, 4, 1000, -1000};
static int8_t c_i8[M + 2] = {100, 100, 100, -128, 100, -1, -1, 0, 5, 127, -128, 50};
static double c_f64[M + 2] = {1.5, NAN, 2.0, -0.0, 0.0, -3.5, NAN, 8.0, -INFINITY, 0.25, -99, NAN};
static bool c_bool[M + 2] = {1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0};

/* Device arguments n, starts, stops, m, content for the five lists. */
static void dev_lists(jg_kernel_arg *a, bool wide, const void *content, jg_dtype dt) {
  const size_t isz = wide ? 8 : 4;
  a[0] = jg_arg_i64(N);
  a[1] = jg_arg_array(to_dev(wide ? (const void *)kStarts64 : (const void *)kStarts32, N * isz), N,
                      wide ? JG_DTYPE_INT64 : JG_DTYPE_INT32, kDev);
  a[2] = jg_arg_array(to_dev(wide ? (const void *)kStops64 : (const void *)kStops32, N * isz), N,
                      wide ? JG_DTYPE_INT64 : JG_DTYPE_INT32, kDev);
  a[3] = jg_arg_i64(M);
  a[4] = jg_arg_array(to_dev(content, (size_t)(M + 2) * (size_t)jg_dtype_itemsize(dt)), M + 2, dt,
                      kDev);
}

static void assert_f64s(const double *got, const double *want, int n) {
  for (int i = 0; i < n; ++i) {
    if (!(got[i] == want[i] || (isnan(got[i]) && isnan(want[i])))) {
      print_error("element %d: got %.17g, expected %.17g\n", i, got[i], want[i]);
      fail();
    }
  }
}

static void assert_i64s(const int64_t *got, const int64_t *want, int n) {
  for (int i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      print_error("element %d: got %lld, expected %lld\n", i, (long long)got[i],
                  (long long)want[i]);
      fail();
    }
  }
}

static void test_list_sum_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_sum");
  int64_t o[N + 1] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  void *dout = to_dev(o, sizeof o);
  jg_kernel_arg a[7];
  dev_lists(a, true, c_i64, JG_DTYPE_INT64);
  a[5] = jg_arg_i64(0);
  a[6] = jg_arg_array(dout, N + 1, JG_DTYPE_INT64, kDev);
  call_ok(k, a, NULL);
  to_host(o, dout, sizeof o);
  const int64_t sum[N + 1] = {0, 0, INT64_MIN, 6, 4, SENTINEL};
  assert_i64s(o, sum, N + 1);
  a[5] = jg_arg_i64(1);
  call_ok(k, a, NULL);
  to_host(o, dout, sizeof o);
  const int64_t prod[N + 1] = {-70, 1, INT64_MAX, 0, 4, SENTINEL};
  assert_i64s(o, prod, N + 1);
  /* float64 with NaN. */
  double of[N + 1] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  void *dof = to_dev(of, sizeof of);
  dev_lists(a, false, c_f64, JG_DTYPE_FLOAT64);
  a[5] = jg_arg_i64(0);
  a[6] = jg_arg_array(dof, N + 1, JG_DTYPE_FLOAT64, kDev);
  call_ok(k, a, NULL);
  to_host(of, dof, sizeof of);
  const double fsum[N + 1] = {2.0, 0.0, NAN, NAN, 0.25, SENTINEL};
  assert_f64s(of, fsum, N + 1);
  /* 1..1000 in one list, int32 content (many strides of the warp): 500500; with a launch of one
   * block of 48 threads, whose second warp (16 lanes) takes the long list 1. */
  static int32_t seq[1000];
  for (int i = 0; i < 1000; ++i) seq[i] = i + 1;
  const int32_t s[2] = {500, 0}, e[2] = {500, 1000};
  jg_kernel_arg b[7] = {jg_arg_i64(2),
                        jg_arg_array(to_dev(s, sizeof s), 2, JG_DTYPE_INT32, kDev),
                        jg_arg_array(to_dev(e, sizeof e), 2, JG_DTYPE_INT32, kDev),
                        jg_arg_i64(1000),
                        jg_arg_array(to_dev(seq, sizeof seq), 1000, JG_DTYPE_INT32, kDev),
                        jg_arg_i64(0),
                        jg_arg_array(dout, 2, JG_DTYPE_INT64, kDev)};
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.grid = 1;
  l.block = 48;
  call_ok(k, b, &l);
  to_host(o, dout, 2 * sizeof o[0]);
  assert_int_equal(o[0], 0);
  assert_int_equal(o[1], 500500);
  free_dev();
}

static void test_list_minmax_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_minmax");
  double of[N + 1] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  bool valid[N + 1] = {false, true, false, false, false, false};
  void *dof = to_dev(of, sizeof of), *dvalid = to_dev(valid, sizeof valid);
  jg_kernel_arg a[8];
  dev_lists(a, true, c_f64, JG_DTYPE_FLOAT64);
  a[6] = jg_arg_array(dof, N + 1, JG_DTYPE_FLOAT64, kDev);
  a[7] = jg_arg_array(dvalid, N + 1, JG_DTYPE_BOOL, kDev);
  const double want[2][N + 1] = {{0.0, INFINITY, NAN, NAN, 0.25, SENTINEL},
                                 {2.0, -INFINITY, NAN, NAN, 0.25, SENTINEL}};
  for (int op = 0; op < 2; ++op) {
    a[5] = jg_arg_i64(op);
    call_ok(k, a, NULL);
    to_host(of, dof, sizeof of);
    to_host(valid, dvalid, sizeof valid);
    assert_f64s(of, want[op], N + 1);
    assert_true(valid[0] && !valid[1] && valid[2] && valid[3] && valid[4] && !valid[5]);
  }
  /* int8: identities 127 and -128 for the empty list. */
  int8_t o8[N + 1] = {55, 55, 55, 55, 55, 55};
  void *do8 = to_dev(o8, sizeof o8);
  dev_lists(a, false, c_i8, JG_DTYPE_INT8);
  a[5] = jg_arg_i64(0);
  a[6] = jg_arg_array(do8, N + 1, JG_DTYPE_INT8, kDev);
  a[7] = jg_arg_array(dvalid, N + 1, JG_DTYPE_BOOL, kDev);
  call_ok(k, a, NULL);
  to_host(o8, do8, sizeof o8);
  const int8_t min8[N + 1] = {-128, 127, 100, -128, 127, 55};
  for (int i = 0; i <= N; ++i) assert_int_equal(o8[i], min8[i]);
  free_dev();
}

static void test_list_argminmax_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_argminmax");
  int64_t o[N + 1] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  void *dout = to_dev(o, sizeof o);
  jg_kernel_arg a[7];
  dev_lists(a, false, c_f64, JG_DTYPE_FLOAT64);
  a[6] = jg_arg_array(dout, N + 1, JG_DTYPE_INT64, kDev);
  const int64_t want[2][N + 1] = {{1, -1, 1, 3, 0, SENTINEL}, {0, -1, 1, 3, 0, SENTINEL}};
  for (int op = 0; op < 2; ++op) {
    a[5] = jg_arg_i64(op);
    call_ok(k, a, NULL);
    to_host(o, dout, sizeof o);
    assert_i64s(o, want[op], N + 1);
  }
  /* 1000 elements of 5 with -3 at 900 (lane 4) and 777 (lane 9), 8 at 950 and 40: the first
   * minimum is 777, the first maximum 40, though lower lanes hold the later ones. A NaN-free
   * int16 list, then the same with NaN at 600 and 300 in float32: 300 both ways. */
  static int16_t v[1000];
  static float f[1000];
  for (int i = 0; i < 1000; ++i) {
    v[i] = 5;
    f[i] = 5.0f;
  }
  v[900] = v[777] = -3;
  v[950] = v[40] = 8;
  f[600] = f[300] = NAN;
  f[10] = -100.0f;
  const int64_t s[1] = {0}, e[1] = {1000};
  jg_kernel_arg b[7] = {jg_arg_i64(1),
                        jg_arg_array(to_dev(s, sizeof s), 1, JG_DTYPE_INT64, kDev),
                        jg_arg_array(to_dev(e, sizeof e), 1, JG_DTYPE_INT64, kDev),
                        jg_arg_i64(1000),
                        jg_arg_array(to_dev(v, sizeof v), 1000, JG_DTYPE_INT16, kDev),
                        jg_arg_i64(0),
                        jg_arg_array(dout, 1, JG_DTYPE_INT64, kDev)};
  call_ok(k, b, NULL);
  to_host(o, dout, sizeof o[0]);
  assert_int_equal(o[0], 777);
  b[5] = jg_arg_i64(1);
  call_ok(k, b, NULL);
  to_host(o, dout, sizeof o[0]);
  assert_int_equal(o[0], 40);
  b[4] = jg_arg_array(to_dev(f, sizeof f), 1000, JG_DTYPE_FLOAT32, kDev);
  for (int op = 0; op < 2; ++op) {
    b[5] = jg_arg_i64(op);
    call_ok(k, b, NULL);
    to_host(o, dout, sizeof o[0]);
    assert_int_equal(o[0], 300);
  }
  free_dev();
}

static void test_list_count_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_count");
  int64_t o[N + 1] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  void *dout = to_dev(o, sizeof o);
  jg_kernel_arg a[5] = {jg_arg_i64(N),
                        jg_arg_array(to_dev(kStarts32, sizeof kStarts32), N, JG_DTYPE_INT32, kDev),
                        jg_arg_array(to_dev(kStops32, sizeof kStops32), N, JG_DTYPE_INT32, kDev),
                        jg_arg_i64(10), jg_arg_array(dout, N + 1, JG_DTYPE_INT64, kDev)};
  call_ok(k, a, NULL);
  to_host(o, dout, sizeof o);
  const int64_t want[N + 1] = {3, 0, 2, 6, 1, SENTINEL};
  assert_i64s(o, want, N + 1);
  free_dev();
}

static void test_list_count_nonzero_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_count_nonzero");
  int64_t o[N + 1] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  void *dout = to_dev(o, sizeof o);
  jg_kernel_arg a[6];
  dev_lists(a, true, c_f64, JG_DTYPE_FLOAT64);
  a[5] = jg_arg_array(dout, N + 1, JG_DTYPE_INT64, kDev);
  call_ok(k, a, NULL);
  to_host(o, dout, sizeof o);
  const int64_t want[N + 1] = {1, 0, 2, 4, 1, SENTINEL}; /* NaN counts, -0.0 does not */
  assert_i64s(o, want, N + 1);
  free_dev();
}

static void test_list_anyall_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_anyall");
  bool o[N + 1];
  memset(o, 1, sizeof o);
  void *dout = to_dev(o, sizeof o);
  jg_kernel_arg a[7];
  dev_lists(a, false, c_bool, JG_DTYPE_BOOL);
  a[6] = jg_arg_array(dout, N + 1, JG_DTYPE_BOOL, kDev);
  const bool want[2][N + 1] = {{true, false, true, true, true, true},
                               {false, true, false, false, true, true}};
  for (int op = 0; op < 2; ++op) {
    a[5] = jg_arg_i64(op);
    call_ok(k, a, NULL);
    to_host(o, dout, sizeof o);
    for (int i = 0; i <= N; ++i) assert_int_equal(o[i], want[op][i]);
  }
  free_dev();
}

static void test_list_mean_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("list_mean");
  double o[N + 1] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  void *dout = to_dev(o, sizeof o);
  jg_kernel_arg a[6];
  dev_lists(a, true, c_i8, JG_DTYPE_INT8);
  a[5] = jg_arg_array(dout, N + 1, JG_DTYPE_FLOAT64, kDev);
  call_ok(k, a, NULL);
  to_host(o, dout, sizeof o);
  const double want[N + 1] = {24.0, NAN, 100.0, -25.0 / 6.0, 127.0, SENTINEL};
  assert_f64s(o, want, N + 1);
  free_dev();
}

/* BAD_RANGE from the device: stops < starts at list 2 and a list past m at 4 (list 2 is
 * reported); then bad lists at 2100, 2200 and 4500 of 5000, under a grid of 3 blocks; then a
 * list past m at 1 before one starting below 0 at 2 (list_count too, which reads no content). */
static void test_bad_range_direct(void **state) {
  (void)state;
  static double content[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  static int64_t s[5000], e[5000];
  static int64_t out_i64[5000];
  static double out_f64[5000];
  static bool out_b[5000];
  for (int i = 0; i < 7; ++i) {
    const jg_kernel *k = kernel(kKernels[i]);
    for (int c = 0; c < 3; ++c) {
      int64_t n, index;
      if (c == 2) {
        const int64_t s5[4] = {0, 4, -2, 3}, e5[4] = {1, 9, 1, 3};
        memcpy(s, s5, sizeof s5);
        memcpy(e, e5, sizeof e5);
        n = 4;
        index = 1;
      } else if (c == 0) {
        const int64_t s4[5] = {0, 1, 3, 0, 0}, e4[5] = {1, 2, 2, 0, 9};
        memcpy(s, s4, sizeof s4);
        memcpy(e, e4, sizeof e4);
        n = 5;
        index = 2;
      } else {
        n = 5000;
        for (int j = 0; j < 5000; ++j) s[j] = e[j] = j % 7;
        e[4500] = e[2200] = e[2100] = -1;
        index = 2100;
      }
      /* Arguments by parameter name; the variant with int64 indices and float64 content. */
      jg_kernel_arg a[8];
      for (size_t p = 0; p < jg_kernel_param_count(k); ++p) {
        const char *name = jg_kernel_param_at(k, p)->name;
        if (strcmp(name, "n") == 0) {
          a[p] = jg_arg_i64(n);
        } else if (strcmp(name, "starts") == 0) {
          a[p] = jg_arg_array(to_dev(s, (size_t)n * 8), n, JG_DTYPE_INT64, kDev);
        } else if (strcmp(name, "stops") == 0) {
          a[p] = jg_arg_array(to_dev(e, (size_t)n * 8), n, JG_DTYPE_INT64, kDev);
        } else if (strcmp(name, "m") == 0) {
          a[p] = jg_arg_i64(8);
        } else if (strcmp(name, "content") == 0) {
          a[p] = jg_arg_array(to_dev(content, sizeof content), 8, JG_DTYPE_FLOAT64, kDev);
        } else if (strcmp(name, "op") == 0) {
          a[p] = jg_arg_i64(1);
        } else if (strcmp(name, "valid") == 0) {
          a[p] = jg_arg_array(to_dev(out_b, (size_t)n), n, JG_DTYPE_BOOL, kDev);
        } else {
          const bool f64 = strcmp(kKernels[i], "list_mean") == 0 ||
                           strcmp(kKernels[i], "list_sum") == 0 ||
                           strcmp(kKernels[i], "list_minmax") == 0;
          const bool b = strcmp(kKernels[i], "list_anyall") == 0;
          a[p] = f64 ? jg_arg_array(to_dev(out_f64, (size_t)n * 8), n, JG_DTYPE_FLOAT64, kDev)
                 : b ? jg_arg_array(to_dev(out_b, (size_t)n), n, JG_DTYPE_BOOL, kDev)
                     : jg_arg_array(to_dev(out_i64, (size_t)n * 8), n, JG_DTYPE_INT64, kDev);
        }
      }
      char message[200];
      snprintf(message, sizeof message,
               "%s: list %lld has stops < starts or reaches outside the content", kKernels[i],
               (long long)index);
      jg_launch l;
      memset(&l, 0, sizeof l);
      l.grid = 3;
      l.block = 64;
      for (int launch = 0; launch < 2; ++launch) {
        jg_error err;
        jg_error_clear(&err);
        const jg_status st =
            jg_kernel_call(k, a, jg_kernel_param_count(k), launch ? &l : NULL, &err);
        if (st != JG_EVALUE || err.index != index || strcmp(err.message, message) != 0) {
          print_error(
              "kernel %s on the GPU: got %s index %lld \"%s\"; expected JG_EVALUE index "
              "%lld \"%s\"\n",
              kKernels[i], jg_status_name(st), (long long)err.index, err.message, (long long)index,
              message);
          fail();
        }
      }
      free_dev();
    }
  }
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_list_sum_direct),
      cmocka_unit_test(test_list_minmax_direct),
      cmocka_unit_test(test_list_argminmax_direct),
      cmocka_unit_test(test_list_count_direct),
      cmocka_unit_test(test_list_count_nonzero_direct),
      cmocka_unit_test(test_list_anyall_direct),
      cmocka_unit_test(test_list_mean_direct),
      cmocka_unit_test(test_bad_range_direct),
      cmocka_unit_test(test_parity_unusual_launches),
      cmocka_unit_test(test_parity_default_launch),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}

#else

int main(void) {
  printf("[  SKIPPED ] all tests: jagged was built without CUDA\n");
  return 77;
}

#endif
