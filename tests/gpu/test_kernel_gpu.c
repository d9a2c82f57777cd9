/* test_kernel_gpu.c: the kernel catalog with device arrays: built-in CUDA launches and their
 * launch settings, the host fallback (copies, the once-only warning, counters), registered
 * kernels compiled with NVRTC, and parity between host and CUDA. */
#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

static const jg_device host = JG_DEVICE_HOST_INIT;
static const jg_device dev0 = {JG_DEVICE_CUDA, 0};

static void *dmalloc(size_t bytes) {
  void *p = NULL;
  assert_int_equal(cudaMalloc(&p, bytes), cudaSuccess);
  return p;
}

static void to_dev(void *d, const void *h, size_t bytes) {
  assert_int_equal(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), cudaSuccess);
}

static void to_host(void *h, const void *d, size_t bytes) {
  assert_int_equal(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

static const jg_kernel *find(const char *name) {
  const jg_kernel *k = NULL;
  jg_error err;
  assert_int_equal(jg_catalog_find(name, &k, &err), JG_OK);
  return k;
}

static void test_fill_on_device(void **state) {
  (void)state;
  const jg_kernel *k = find("fill");
  enum { N = 100003 };
  double *d = dmalloc((N + 5) * sizeof(double));
  static double h[N + 5];
  for (int i = 0; i < N + 5; ++i) h[i] = -1;
  to_dev(d, h, sizeof h);
  jg_kernel_arg a[3] = {jg_arg_i64(N), jg_arg_f64(2.5),
                        jg_arg_array(d, N + 5, JG_DTYPE_FLOAT64, dev0)};
  JGT_OK(jg_kernel_call(k, a, 3, NULL, &jgt_err_));
  to_host(h, d, sizeof h);
  for (int i = 0; i < N; ++i) assert_true(h[i] == 2.5);
  for (int i = N; i < N + 5; ++i) assert_true(h[i] == -1);
  const char *sel = NULL;
  JGT_OK(jg_kernel_selected(k, JG_BACKEND_CUDA, &sel, &jgt_err_));
  assert_string_equal(sel, "cuda");
  /* explicit launch settings: one block of 32 threads still covers everything (grid-stride) */
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.grid = 1;
  l.block = 32;
  cudaStream_t s;
  assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
  l.stream = s;
  a[1] = jg_arg_f64(-7);
  JGT_OK(jg_kernel_call(k, a, 3, &l, &jgt_err_));
  assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
  to_host(h, d, sizeof h);
  for (int i = 0; i < N; ++i) assert_true(h[i] == -7);
  assert_true(h[N] == -1);
  /* threads = 3 gives one block, whose grid-stride loop still covers all n */
  memset(&l, 0, sizeof l);
  l.threads = 3;
  a[1] = jg_arg_f64(4);
  JGT_OK(jg_kernel_call(k, a, 3, &l, &jgt_err_));
  to_host(h, d, sizeof h);
  assert_true(h[0] == 4 && h[N - 1] == 4);
  jg_error err;
  l.threads = 0;
  l.block = 2000;
  assert_int_equal(jg_kernel_call(k, a, 3, &l, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "block of 2000 threads is outside [1, 1024]");
  /* n = 0 launches nothing */
  a[0] = jg_arg_i64(0);
  JGT_OK(jg_kernel_call(k, a, 3, NULL, &jgt_err_));
  /* a host array with a device array */
  jg_kernel_stats st0;
  jg_kernel_stats_get(k, &st0);
  assert_true(st0.cuda_calls >= 4);
  assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
  assert_int_equal(cudaFree(d), cudaSuccess);
}

/* --------------------------------------------------- the host fallback */

static jg_status scale_host(const jg_kernel_arg *args, size_t n_args, void *user, jg_error *err) {
  (void)n_args;
  (void)user;
  (void)err;
  const double *x = args[2].v.array.data;
  double *y = args[3].v.array.data;
  for (int64_t i = 0; i < args[0].v.i64; ++i) y[i] = args[1].v.f64 * x[i];
  return JG_OK;
}

static const jg_kernel_param scale_params[4] = {
    {"n", JG_PARAM_SCALAR, JG_PARAM_IN, JG_DTYPE_INT64, NULL, -1, 0},
    {"s", JG_PARAM_SCALAR, JG_PARAM_IN, JG_DTYPE_FLOAT64, NULL, -1, 0},
    {"x", JG_PARAM_ARRAY, JG_PARAM_IN, JG_DTYPE_FLOAT64, NULL, 0, 0},
    {"y", JG_PARAM_ARRAY, JG_PARAM_OUT, JG_DTYPE_FLOAT64, NULL, 0, 0},
};

static jg_kernel_desc scale_desc(const char *name) {
  jg_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.version = JG_KERNEL_DESC_VERSION;
  d.name = name;
  d.params = scale_params;
  d.n_params = 4;
  d.host = scale_host;
  d.threads_from = 0;
  d.cuda_path = "tests/gpu/scale_cuda.cu";
  return d;
}

static int warnings;
static char last_warning[1024];
static void count_log(jg_log_level level, const char *message, void *user) {
  (void)user;
  if (level == JG_LOG_WARN) {
    ++warnings;
    snprintf(last_warning, sizeof last_warning, "%s", message);
  }
}

static void test_fallback(void **state) {
  (void)state;
  jg_kernel_desc d = scale_desc("scale_fb");
  const jg_kernel *k;
  JGT_OK(jg_catalog_register(&d, &k, &jgt_err_));
  enum { N = 1000 };
  double hx[N], hy[N + 4];
  for (int i = 0; i < N; ++i) hx[i] = i;
  for (int i = 0; i < N + 4; ++i) hy[i] = -3;
  double *x = dmalloc(sizeof hx), *y = dmalloc(sizeof hy);
  to_dev(x, hx, sizeof hx);
  to_dev(y, hy, sizeof hy);
  jg_kernel_arg a[4] = {jg_arg_i64(N), jg_arg_f64(0.5), jg_arg_array(x, N, JG_DTYPE_FLOAT64, dev0),
                        jg_arg_array(y, N + 4, JG_DTYPE_FLOAT64, dev0)};
  jg_error err;
  assert_int_equal(jg_kernel_call(k, a, 4, NULL, &err), JG_ENOTSUP);
  JGT_CONTAINS(err.message, "kernel 'scale_fb' has no CUDA implementation (expected "
                            "tests/gpu/scale_cuda.cu)");
  JGT_OK(jg_kernel_set_missing_cuda(k, JG_MISSING_CUDA_FALLBACK, &jgt_err_));
  jg_log_set_callback(count_log, NULL, JG_LOG_DEBUG);
  jg_transfer_event ev[16];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 16);
  JGT_OK(jg_transfer_scope_begin(&c, &jgt_err_));
  JGT_OK(jg_kernel_call(k, a, 4, NULL, &jgt_err_));
  JGT_OK(jg_kernel_call(k, a, 4, NULL, &jgt_err_));
  JGT_OK(jg_transfer_scope_end(&c, &jgt_err_));
  jg_log_set_callback(NULL, NULL, JG_LOG_WARN);
  to_host(hy, y, sizeof hy);
  for (int i = 0; i < N; ++i) assert_true(hy[i] == 0.5 * i);
  for (int i = N; i < N + 4; ++i) assert_true(hy[i] == -3); /* not written: kept */
  assert_int_equal(warnings, 1); /* once per kernel */
  JGT_CONTAINS(last_warning, "kernel 'scale_fb' has no CUDA implementation");
  assert_int_equal(c.count[JG_TRANSFER_FALLBACK], 2);
  /* per call: x and y to the host, y back */
  assert_int_equal(c.count[JG_TRANSFER_TO_HOST], 4);
  assert_int_equal(c.bytes[JG_TRANSFER_TO_HOST], 2 * (sizeof hx + sizeof hy));
  assert_int_equal(c.count[JG_TRANSFER_TO_DEVICE], 2);
  assert_int_equal(c.bytes[JG_TRANSFER_TO_DEVICE], 2 * sizeof hy);
  /* the events name this file (jg_kernel_call records the caller's line) */
  bool here = false;
  for (size_t i = 0; i < c.n_events; ++i)
    here |= ev[i].file != NULL && strstr(ev[i].file, "test_kernel_gpu.c") != NULL;
  assert_true(here);
  jg_kernel_stats s;
  jg_kernel_stats_get(k, &s);
  assert_int_equal(s.fallback_calls, 2);
  assert_int_equal(s.cuda_calls, 0);
  const char *sel;
  JGT_OK(jg_kernel_selected(k, JG_BACKEND_CUDA, &sel, &jgt_err_));
  assert_string_equal(sel, "fallback:c");
  /* mixed residency with real memory */
  a[2] = jg_arg_array(hx, N, JG_DTYPE_FLOAT64, host);
  assert_int_equal(jg_kernel_call(k, a, 4, NULL, &err), JG_EBACKEND);
  JGT_CONTAINS(err.message, "parameter 'y' (3) is on cuda:0 but parameter 'x' (2) is on cpu");
  assert_int_equal(cudaFree(x), cudaSuccess);
  assert_int_equal(cudaFree(y), cudaSuccess);
}

/* ---------------------------------------- registered CUDA source (NVRTC) */

static const char scale_cuda[] =
    "extern \"C\" __global__ void scale(long n, double s, const double *x, double *y) {\n"
    "  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;\n"
    "       i += (long)blockDim.x * gridDim.x) y[i] = s * x[i];\n"
    "}\n";
/* The same, with a planted difference at element 7: parity must find it. */
static const char scale_cuda_wrong[] =
    "extern \"C\" __global__ void scale(long n, double s, const double *x, double *y) {\n"
    "  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;\n"
    "       i += (long)blockDim.x * gridDim.x) y[i] = s * x[i] + (i == 7 ? 1e-3 : 0.0);\n"
    "}\n";

static jg_status scale_args(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                            jg_error *err) {
  (void)user;
  (void)err;
  static const int64_t sizes[4] = {0, 1, 33, 4097};
  const int64_t n = sizes[case_index];
  double *x = jg_parity_alloc(ctx, n, JG_DTYPE_FLOAT64);
  double *y = jg_parity_alloc(ctx, n, JG_DTYPE_FLOAT64);
  if (x == NULL || y == NULL) return JG_ENOMEM;
  for (int64_t i = 0; i < n; ++i) x[i] = jg_parity_uniform(ctx);
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_f64(3.0);
  args[2] = jg_arg_array(x, n, JG_DTYPE_FLOAT64, host);
  args[3] = jg_arg_array(y, n, JG_DTYPE_FLOAT64, host);
  return JG_OK;
}

static void test_registered_cuda(void **state) {
  (void)state;
  jg_kernel_desc d = scale_desc("scale_rtc");
  d.cuda_source = scale_cuda;
  d.cuda_entry = "scale";
  const jg_kernel *k;
  JGT_OK(jg_catalog_register(&d, &k, &jgt_err_));
  assert_true(jg_kernel_has_cuda(k));
  enum { N = 5000 };
  double hx[N], hy[N];
  for (int i = 0; i < N; ++i) hx[i] = i;
  double *x = dmalloc(sizeof hx), *y = dmalloc(sizeof hy);
  to_dev(x, hx, sizeof hx);
  jg_kernel_arg a[4] = {jg_arg_i64(N), jg_arg_f64(2.0), jg_arg_array(x, N, JG_DTYPE_FLOAT64, dev0),
                        jg_arg_array(y, N, JG_DTYPE_FLOAT64, dev0)};
  JGT_OK(jg_kernel_call(k, a, 4, NULL, &jgt_err_));
  JGT_OK(jg_kernel_call(k, a, 4, NULL, &jgt_err_)); /* compiled once, then reused */
  to_host(hy, y, sizeof hy);
  for (int i = 0; i < N; ++i) assert_true(hy[i] == 2.0 * i);
  jg_kernel_stats s;
  jg_kernel_stats_get(k, &s);
  assert_int_equal(s.cuda_calls, 2);
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.make_args = scale_args;
  o.n_cases = 4;
  jg_parity_result r;
  JGT_OK(jg_kernel_parity(k, &o, &r, &jgt_err_));
  assert_int_equal(r.cases_run, 4);
  /* a CUDA side that differs at one element */
  d = scale_desc("scale_rtc_wrong");
  d.cuda_source = scale_cuda_wrong;
  d.cuda_entry = "scale";
  JGT_OK(jg_catalog_register(&d, &k, &jgt_err_));
  jg_error err;
  assert_int_equal(jg_kernel_parity(k, &o, &r, &err), JG_EVALUE);
  assert_int_equal(r.cases_failed, 2); /* the cases of 33 and 4097 elements have an element 7 */
  JGT_CONTAINS(err.message, "kernel 'scale_rtc_wrong' case 2: parameter 'y' differs at index 7");
  assert_int_equal(cudaFree(x), cudaSuccess);
  assert_int_equal(cudaFree(y), cudaSuccess);
}

static void test_builtin_parity(void **state) {
  (void)state;
  for (size_t i = 0; i < jg_catalog_size(); ++i) {
    const jg_kernel *k = jg_catalog_at(i);
    if (jg_kernel_parity_case_count(k) == 0) continue; /* registered by this test */
    jg_parity_result r;
    JGT_OK(jg_kernel_parity(k, NULL, &r, &jgt_err_));
    assert_true(r.cases_run > 0);
    assert_int_equal(r.cases_failed, 0);
  }
}

#endif /* JG_HAVE_CUDA */

int main(void) {
  JGT_REQUIRE_GPU();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fill_on_device),
      cmocka_unit_test(test_fallback),
      cmocka_unit_test(test_registered_cuda),
      cmocka_unit_test(test_builtin_parity),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
#else
  return 77; /* not reached: JGT_REQUIRE_GPU skips in a build without CUDA */
#endif
}
