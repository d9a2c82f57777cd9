/* test_rtc_gpu.c: run-time compiled kernels on a real GPU (rtc.h): compile for the current
 * device (arch 0), load, look kernels up with their parameters checked against the compiled
 * code, launch with checked arguments (saxpy, a template through its name expression, managed
 * memory, a stream), launch shapes (threads, grid, block, defaults, zero threads, dynamic shared
 * memory above the 48 KiB default), a CUBIN for another architecture, programs from the cache,
 * and jg_catalog_compile_all for the device. Expected values are computed on the host from the
 * inputs. Skips (exit 77) without a usable device or without NVRTC. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jg_test.h"

#include "jagged/kernel.h"
#include "jagged/rtc.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#define CUDA_OK(expr) assert_int_equal((int)(expr), (int)cudaSuccess)

static const jg_device kHost = JG_DEVICE_HOST_INIT;
static const jg_device kDev0 = {JG_DEVICE_CUDA, 0};
static const jg_device kManaged = {JG_DEVICE_CUDA_MANAGED, 0};

static const char kSaxpy[] =
    "extern \"C\" __global__ void saxpy(float a, const float *x, float *y, long long n) {\n"
    "  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static const char kScale[] =
    "template <typename T> __global__ void scale(T *x, T f, long long n) {\n"
    "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
    "       i += (long long)blockDim.x * gridDim.x)\n"
    "    x[i] *= f;\n"
    "}\n";

/* Records the launch shape: info = {gridDim.x, blockDim.x, threads run}; hits[t] += 1 for t < n. */
static const char kShape[] =
    "extern \"C\" __global__ void shape(unsigned long long *hits, unsigned long long *info,\n"
    "                                   int n) {\n"
    "  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (t == 0) { info[0] = gridDim.x; info[1] = blockDim.x; }\n"
    "  atomicAdd(&info[2], 1ull);\n"
    "  if (t < n) atomicAdd(&hits[t], 1ull);\n"
    "}\n"
    "extern \"C\" __global__ void noarrays(int n) {}\n"
    "extern \"C\" __global__ void shm(float *out, int n) {\n"
    "  extern __shared__ float buf[];\n"
    "  for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = 2.0f * i;\n"
    "  __syncthreads();\n"
    "  for (int i = threadIdx.x; i < n; i += blockDim.x) out[n - 1 - i] = buf[n - 1 - i];\n"
    "}\n";

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static bool nvrtc_ok;

static jg_rtc_options opts_current(void) {
  jg_rtc_options o;
  memset(&o, 0, sizeof o);
  o.arch = 0;
  o.cache = JG_RTC_CACHE_OFF;
  return o;
}

static jg_rtc_module *load(const char *src, const char *const *names, size_t n_names) {
  jg_rtc_options o = opts_current();
  jg_rtc_program *p = NULL;
  JGT_OK(jg_rtc_compile(src, "test.cu", names, n_names, &o, &p, &jgt_err_));
  jg_rtc_module *m = NULL;
  JGT_OK(jg_rtc_module_load(p, 0, &m, &jgt_err_));
  jg_rtc_program_destroy(p); /* the module keeps what it needs */
  return m;
}

static jg_kernel_param scalar(const char *name, jg_dtype dt) {
  jg_kernel_param p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.kind = JG_PARAM_SCALAR;
  p.dir = JG_PARAM_IN;
  p.dtype = dt;
  p.min_length_param = -1;
  return p;
}

static jg_kernel_param array(const char *name, jg_param_dir dir, jg_dtype dt, int min_param) {
  jg_kernel_param p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.kind = JG_PARAM_ARRAY;
  p.dir = dir;
  p.dtype = dt;
  p.min_length_param = min_param;
  return p;
}

/* saxpy's parameters: (a, x[n], y[n], n). */
static void saxpy_params(jg_kernel_param *p) {
  p[0] = scalar("a", JG_DTYPE_FLOAT32);
  p[1] = array("x", JG_PARAM_IN, JG_DTYPE_FLOAT32, 3);
  p[2] = array("y", JG_PARAM_INOUT, JG_DTYPE_FLOAT32, 3);
  p[3] = scalar("n", JG_DTYPE_INT64);
}

static void *dev_alloc(size_t bytes) {
  void *p = NULL;
  CUDA_OK(cudaMalloc(&p, bytes));
  return p;
}

/* ------------------------------------------------------------------------------------------ */
/* Tests                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void test_saxpy(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  jg_rtc_module *m = load(kSaxpy, NULL, 0);
  jg_kernel_param params[4];
  saxpy_params(params);
  jg_rtc_kernel *k = NULL;
  JGT_OK(jg_rtc_kernel_get(m, "saxpy", params, 4, &k, &jgt_err_));

  enum { N = 1000 };
  float hx[N], hy[N];
  for (int i = 0; i < N; ++i) {
    hx[i] = (float)i;
    hy[i] = (float)(2 * i + 1);
  }
  float *dx = dev_alloc(sizeof hx), *dy = dev_alloc(sizeof hy);
  CUDA_OK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice));
  jg_kernel_arg args[4] = {jg_arg_f64(0.5), jg_arg_array(dx, N, JG_DTYPE_FLOAT32, kDev0),
                           jg_arg_array(dy, N, JG_DTYPE_FLOAT32, kDev0), jg_arg_i64(N)};
  JGT_OK(jg_rtc_launch(k, args, 4, NULL, &jgt_err_)); /* threads: x's length */
  CUDA_OK(cudaDeviceSynchronize());
  float out[N];
  CUDA_OK(cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost));
  /* 0.5 * i + (2i + 1) = 2.5 i + 1, exact in float for i < 1000. */
  for (int i = 0; i < N; ++i) assert_true(out[i] == 2.5f * (float)i + 1.0f);

  /* Only the first 10 elements with threads = 10 (an integer a converts to float). */
  CUDA_OK(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice));
  args[0] = jg_arg_i64(3);
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.threads = 10;
  l.block = 10; /* one block of 10 threads (a launch covers ceil(threads / block) blocks) */
  JGT_OK(jg_rtc_launch(k, args, 4, &l, &jgt_err_));
  CUDA_OK(cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) {
    float want = i < 10 ? 3.0f * (float)i + (float)(2 * i + 1) : (float)(2 * i + 1);
    assert_true(out[i] == want);
  }

  /* On a stream. */
  jg_stream s = NULL;
  JGT_OK(jg_stream_create(&s, &jgt_err_));
  CUDA_OK(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice));
  /* a pageable cudaMemcpy may return before its DMA is done; s does not wait for it */
  CUDA_OK(cudaDeviceSynchronize());
  args[0] = jg_arg_f64(-1.0);
  memset(&l, 0, sizeof l);
  l.stream = s;
  JGT_OK(jg_rtc_launch(k, args, 4, &l, &jgt_err_));
  JGT_OK(jg_stream_synchronize(s, &jgt_err_));
  CUDA_OK(cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) assert_true(out[i] == (float)(i + 1));
  jg_stream_destroy(s);

  /* Managed memory is accepted. */
  float *mx = NULL, *my = NULL;
  CUDA_OK(cudaMallocManaged((void **)&mx, sizeof hx, cudaMemAttachGlobal));
  CUDA_OK(cudaMallocManaged((void **)&my, sizeof hy, cudaMemAttachGlobal));
  memcpy(mx, hx, sizeof hx);
  memcpy(my, hy, sizeof hy);
  jg_kernel_arg margs[4] = {jg_arg_f64(2.0), jg_arg_array(mx, N, JG_DTYPE_FLOAT32, kManaged),
                            jg_arg_array(my, N, JG_DTYPE_FLOAT32, kManaged), jg_arg_i64(N)};
  JGT_OK(jg_rtc_launch(k, margs, 4, NULL, &jgt_err_));
  CUDA_OK(cudaDeviceSynchronize());
  for (int i = 0; i < N; ++i) assert_true(my[i] == (float)(4 * i + 1));
  CUDA_OK(cudaFree(mx));
  CUDA_OK(cudaFree(my));

  CUDA_OK(cudaFree(dx));
  CUDA_OK(cudaFree(dy));
  jg_rtc_module_destroy(m);
}

static void test_kernel_get_checks(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  jg_rtc_module *m = load(kSaxpy, NULL, 0);
  jg_kernel_param p[5];
  saxpy_params(p);
  jg_rtc_kernel *k = (jg_rtc_kernel *)p;
  jg_error err;

  /* Wrong count: fewer and more parameters than the compiled kernel takes (without the
   * minimum lengths, which name parameter 3). */
  p[1].min_length_param = p[2].min_length_param = -1;
  JGT_STATUS(JG_ESHAPE, jg_rtc_kernel_get(m, "saxpy", p, 3, &k, &err));
  assert_null(k);
  JGT_CONTAINS(err.message, "kernel 'saxpy' takes 4 parameters, 3 were declared");
  p[4] = scalar("extra", JG_DTYPE_INT32);
  JGT_STATUS(JG_ESHAPE, jg_rtc_kernel_get(m, "saxpy", p, 5, &k, &err));
  JGT_CONTAINS(err.message, "takes 4 parameters, 5 were declared");

  /* Wrong scalar sizes: n (long long, 8 bytes) declared int32; a (float) declared float64. */
  p[3] = scalar("n", JG_DTYPE_INT32);
  JGT_STATUS(JG_ESHAPE, jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &err));
  assert_int_equal(err.index, 3);
  JGT_CONTAINS(err.message, "parameter 'n' (position 3) is 8 bytes");
  JGT_CONTAINS(err.message, "int32 scalar (4 bytes)");
  saxpy_params(p);
  p[0] = scalar("a", JG_DTYPE_FLOAT64);
  JGT_STATUS(JG_ESHAPE, jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &err));
  assert_int_equal(err.index, 0);
  JGT_CONTAINS(err.message, "parameter 'a' (position 0) is 4 bytes");
  /* An array where the kernel takes a 4-byte scalar. */
  saxpy_params(p);
  p[0] = array("a", JG_PARAM_IN, JG_DTYPE_FLOAT32, -1);
  JGT_STATUS(JG_ESHAPE, jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &err));
  JGT_CONTAINS(err.message, "array (a pointer) (8 bytes)");

  /* Bad parameter tables. */
  saxpy_params(p);
  p[1].type_var = "T";
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "generic");
  saxpy_params(p);
  p[0].dir = JG_PARAM_OUT;
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &err));
  JGT_CONTAINS(err.message, "must be IN");
  saxpy_params(p);
  p[1].min_length_param = 2; /* y is an array, not an integer scalar */
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &err));
  JGT_CONTAINS(err.message, "min_length_param 2");
  saxpy_params(p);
  p[0].min_length_param = 0; /* ignored for scalars */
  p[2].name = "x";
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &err));
  JGT_CONTAINS(err.message, "both named 'x'");
  saxpy_params(p);
  p[1].min_length_param = p[2].min_length_param = -1;
  p[3].dtype = JG_DTYPE_COMPLEX64;
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &err));
  JGT_CONTAINS(err.message, "complex64");
  saxpy_params(p);
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(m, "saxpy", NULL, 4, &k, &err));
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(m, NULL, p, 4, &k, &err));
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(m, "", p, 4, &k, &err));

  /* Unknown kernel. */
  JGT_STATUS(JG_ENOTFOUND, jg_rtc_kernel_get(m, "saxpy2", p, 4, &k, &err));
  JGT_CONTAINS(err.message, "no kernel 'saxpy2'");

  /* Correct: twice (two handles, both owned by the module). */
  jg_rtc_kernel *k2 = NULL;
  JGT_OK(jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &jgt_err_));
  JGT_OK(jg_rtc_kernel_get(m, "saxpy", p, 4, &k2, &jgt_err_));
  assert_ptr_not_equal(k, k2);
  jg_rtc_module_destroy(m);
}

static void test_launch_checks(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  jg_rtc_module *m = load(kSaxpy, NULL, 0);
  jg_kernel_param p[4];
  saxpy_params(p);
  jg_rtc_kernel *k = NULL;
  JGT_OK(jg_rtc_kernel_get(m, "saxpy", p, 4, &k, &jgt_err_));
  enum { N = 64 };
  float *dx = dev_alloc(N * sizeof(float)), *dy = dev_alloc(N * sizeof(float));
  float hx[N];
  memset(hx, 0, sizeof hx);
  jg_kernel_arg ok[4] = {jg_arg_f64(1.0), jg_arg_array(dx, N, JG_DTYPE_FLOAT32, kDev0),
                         jg_arg_array(dy, N, JG_DTYPE_FLOAT32, kDev0), jg_arg_i64(N)};
  jg_kernel_arg a[4];
  jg_error err;

  /* Host arrays are never copied. */
  memcpy(a, ok, sizeof a);
  a[1] = jg_arg_array(hx, N, JG_DTYPE_FLOAT32, kHost);
  JGT_STATUS(JG_EBACKEND, jg_rtc_launch(k, a, 4, NULL, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "'x' (position 1)");
  JGT_CONTAINS(err.message,
               "arrays are never copied to the device here: use jg_array_to_device "
               "or jg_copy");
  const jg_device pinned = {JG_DEVICE_CUDA_HOST, 0};
  a[1] = jg_arg_array(hx, N, JG_DTYPE_FLOAT32, pinned);
  JGT_STATUS(JG_EBACKEND, jg_rtc_launch(k, a, 4, NULL, &err));
  JGT_CONTAINS(err.message, "pinned host memory");
  /* Another device (only the tag is read: nothing runs). */
  const jg_device dev1 = {JG_DEVICE_CUDA, 1};
  a[1] = jg_arg_array(dx, N, JG_DTYPE_FLOAT32, dev1);
  JGT_STATUS(JG_EBACKEND, jg_rtc_launch(k, a, 4, NULL, &err));
  JGT_CONTAINS(err.message, "is on CUDA device 1, the kernel is loaded on device 0");

  /* Counts, kinds, dtypes, lengths, scalars. */
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, ok, 3, NULL, &err));
  JGT_CONTAINS(err.message, "kernel 'saxpy' takes 4 arguments, 3 given");
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, NULL, 4, NULL, &err));
  memcpy(a, ok, sizeof a);
  a[1] = jg_arg_i64(5);
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, a, 4, NULL, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "is an array, the argument a scalar");
  memcpy(a, ok, sizeof a);
  a[0] = jg_arg_array(dx, N, JG_DTYPE_FLOAT32, kDev0);
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, a, 4, NULL, &err));
  JGT_CONTAINS(err.message, "is a scalar, the argument an array");
  memcpy(a, ok, sizeof a);
  a[2] = jg_arg_array(dy, N, JG_DTYPE_FLOAT64, kDev0);
  JGT_STATUS(JG_EDTYPE, jg_rtc_launch(k, a, 4, NULL, &err));
  assert_int_equal(err.index, 2);
  JGT_CONTAINS(err.message, "must be float32, not float64");
  memcpy(a, ok, sizeof a);
  a[3] = jg_arg_f64(64.0);
  JGT_STATUS(JG_EDTYPE, jg_rtc_launch(k, a, 4, NULL, &err));
  assert_int_equal(err.index, 3);
  memcpy(a, ok, sizeof a);
  a[3].dtype = JG_DTYPE_INT32;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, a, 4, NULL, &err));
  JGT_CONTAINS(err.message, "jg_arg_i64 or jg_arg_f64");
  memcpy(a, ok, sizeof a);
  a[3] = jg_arg_i64(N + 1); /* x and y need n elements */
  JGT_STATUS(JG_ESHAPE, jg_rtc_launch(k, a, 4, NULL, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "has 64 elements, needs at least 65");
  memcpy(a, ok, sizeof a);
  a[2].v.array.length = -1;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, a, 4, NULL, &err));
  JGT_CONTAINS(err.message, "negative length");
  memcpy(a, ok, sizeof a);
  a[2].v.array.data = NULL;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, a, 4, NULL, &err));
  JGT_CONTAINS(err.message, "is NULL with length 64");

  /* Launch settings. */
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.block = 1025;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, ok, 4, &l, &err));
  l.block = -1;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, ok, 4, &l, &err));
  l.block = 0;
  l.grid = -1;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, ok, 4, &l, &err));
  l.grid = 0;
  l.threads = -5;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, ok, 4, &l, &err));
  l.threads = 0;
  l.shared_bytes = (size_t)1 << 30;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, ok, 4, &l, &err));
  JGT_CONTAINS(err.message, "shared memory");
  l.shared_bytes = 0;
  int max_grid = 0;
  CUDA_OK(cudaDeviceGetAttribute(&max_grid, cudaDevAttrMaxGridDimX, 0));
  l.grid = (int64_t)max_grid + 1;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, ok, 4, &l, &err));
  JGT_CONTAINS(err.message, "exceeds device 0's limit");

  CUDA_OK(cudaFree(dx));
  CUDA_OK(cudaFree(dy));
  jg_rtc_module_destroy(m);
}

static void test_template(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  const char *names[] = {"scale<double>", "scale<int>"};
  jg_rtc_module *m = load(kScale, names, 2);
  jg_kernel_param pd[3] = {array("x", JG_PARAM_INOUT, JG_DTYPE_FLOAT64, 2),
                           scalar("f", JG_DTYPE_FLOAT64), scalar("n", JG_DTYPE_INT64)};
  jg_kernel_param pi[3] = {array("x", JG_PARAM_INOUT, JG_DTYPE_INT32, 2),
                           scalar("f", JG_DTYPE_INT32), scalar("n", JG_DTYPE_INT64)};
  jg_rtc_kernel *kd = NULL, *ki = NULL;
  JGT_OK(jg_rtc_kernel_get(m, "scale<double>", pd, 3, &kd, &jgt_err_));
  JGT_OK(jg_rtc_kernel_get(m, "scale<int>", pi, 3, &ki, &jgt_err_));
  jg_error err;
  jg_rtc_kernel *kf = NULL;
  JGT_STATUS(JG_ENOTFOUND, jg_rtc_kernel_get(m, "scale<float>", pd, 3, &kf, &err));

  enum { N = 5000 };
  double *hd = malloc(N * sizeof(double));
  int *hi = malloc(N * sizeof(int));
  assert_non_null(hd);
  assert_non_null(hi);
  for (int i = 0; i < N; ++i) {
    hd[i] = 0.25 * i;
    hi[i] = i - 2500;
  }
  double *dd = dev_alloc(N * sizeof(double));
  int *di = dev_alloc(N * sizeof(int));
  CUDA_OK(cudaMemcpy(dd, hd, N * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(di, hi, N * sizeof(int), cudaMemcpyHostToDevice));

  /* A small grid: the kernel loops grid-stride, so 2 blocks of 32 cover all N. */
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.grid = 2;
  l.block = 32;
  jg_kernel_arg ad[3] = {jg_arg_array(dd, N, JG_DTYPE_FLOAT64, kDev0), jg_arg_f64(-4.0),
                         jg_arg_i64(N)};
  JGT_OK(jg_rtc_launch(kd, ad, 3, &l, &jgt_err_));
  jg_kernel_arg ai[3] = {jg_arg_array(di, N, JG_DTYPE_INT32, kDev0), jg_arg_i64(3), jg_arg_i64(N)};
  JGT_OK(jg_rtc_launch(ki, ai, 3, NULL, &jgt_err_));
  CUDA_OK(cudaDeviceSynchronize());
  double *od = malloc(N * sizeof(double));
  int *oi = malloc(N * sizeof(int));
  assert_non_null(od);
  assert_non_null(oi);
  CUDA_OK(cudaMemcpy(od, dd, N * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(oi, di, N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) {
    assert_true(od[i] == -1.0 * i); /* 0.25 i * -4, exact */
    assert_int_equal(oi[i], 3 * (i - 2500));
  }

  /* Scalar conversions into int: out of range, and floats. */
  ai[1] = jg_arg_i64((int64_t)1 << 40);
  JGT_STATUS(JG_EOVERFLOW, jg_rtc_launch(ki, ai, 3, NULL, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "1099511627776 is out of range for parameter 'f' (position 1, int32)");
  ai[1] = jg_arg_i64(INT32_MIN);
  JGT_OK(jg_rtc_launch(ki, ai, 3, NULL, &jgt_err_)); /* the edge is in range */
  ai[1] = jg_arg_f64(2.0);
  JGT_STATUS(JG_EDTYPE, jg_rtc_launch(ki, ai, 3, NULL, &err));
  CUDA_OK(cudaDeviceSynchronize());

  free(hd);
  free(hi);
  free(od);
  free(oi);
  CUDA_OK(cudaFree(dd));
  CUDA_OK(cudaFree(di));
  jg_rtc_module_destroy(m);
}

/* Reads info back and compares it with {grid, block, grid*block}. */
static void expect_shape(const unsigned long long *dinfo, unsigned long long grid,
                         unsigned long long block) {
  unsigned long long info[3];
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(info, dinfo, sizeof info, cudaMemcpyDeviceToHost));
  assert_int_equal(info[0], grid);
  assert_int_equal(info[1], block);
  assert_int_equal(info[2], grid * block);
}

static void test_launch_shape(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  jg_rtc_module *m = load(kShape, NULL, 0);
  jg_kernel_param p[3] = {array("hits", JG_PARAM_INOUT, JG_DTYPE_UINT64, -1),
                          array("info", JG_PARAM_INOUT, JG_DTYPE_UINT64, -1),
                          scalar("n", JG_DTYPE_INT32)};
  jg_rtc_kernel *k = NULL;
  JGT_OK(jg_rtc_kernel_get(m, "shape", p, 3, &k, &jgt_err_));
  enum { N = 1000 };
  unsigned long long *hits = dev_alloc(N * sizeof *hits), *info = dev_alloc(3 * sizeof *info);
  jg_kernel_arg a[3] = {jg_arg_array(hits, N, JG_DTYPE_UINT64, kDev0),
                        jg_arg_array(info, 3, JG_DTYPE_UINT64, kDev0), jg_arg_i64(N)};
  unsigned long long h[N];

  /* Defaults: threads = the first array's length, block 256. */
  CUDA_OK(cudaMemset(hits, 0, N * sizeof *hits));
  CUDA_OK(cudaMemset(info, 0, 3 * sizeof *info));
  JGT_OK(jg_rtc_launch(k, a, 3, NULL, &jgt_err_));
  expect_shape(info, 4, 256);
  CUDA_OK(cudaMemcpy(h, hits, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) assert_int_equal(h[i], 1);

  /* threads + block. */
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.threads = 1000;
  l.block = 128;
  CUDA_OK(cudaMemset(info, 0, 3 * sizeof *info));
  JGT_OK(jg_rtc_launch(k, a, 3, &l, &jgt_err_));
  expect_shape(info, 8, 128);
  l.threads = 1;
  l.block = 0;
  CUDA_OK(cudaMemset(info, 0, 3 * sizeof *info));
  JGT_OK(jg_rtc_launch(k, a, 3, &l, &jgt_err_));
  expect_shape(info, 1, 256);

  /* grid wins over threads. */
  l.threads = 100000;
  l.grid = 3;
  l.block = 64;
  CUDA_OK(cudaMemset(hits, 0, N * sizeof *hits));
  CUDA_OK(cudaMemset(info, 0, 3 * sizeof *info));
  JGT_OK(jg_rtc_launch(k, a, 3, &l, &jgt_err_));
  expect_shape(info, 3, 64);
  CUDA_OK(cudaMemcpy(h, hits, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) assert_int_equal(h[i], i < 192 ? 1 : 0);

  /* Zero threads (the first array is empty): nothing is launched. */
  CUDA_OK(cudaMemset(info, 0xff, 3 * sizeof *info));
  a[0] = jg_arg_array(NULL, 0, JG_DTYPE_UINT64, kDev0);
  a[2] = jg_arg_i64(0);
  JGT_OK(jg_rtc_launch(k, a, 3, NULL, &jgt_err_));
  CUDA_OK(cudaDeviceSynchronize());
  unsigned long long after[3];
  CUDA_OK(cudaMemcpy(after, info, sizeof after, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 3; ++i) assert_true(after[i] == ~0ull);

  /* A kernel without arrays needs threads or grid. */
  jg_kernel_param pn = scalar("n", JG_DTYPE_INT32);
  jg_rtc_kernel *kn = NULL;
  JGT_OK(jg_rtc_kernel_get(m, "noarrays", &pn, 1, &kn, &jgt_err_));
  jg_kernel_arg an = jg_arg_i64(1);
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(kn, &an, 1, NULL, &err));
  JGT_CONTAINS(err.message, "set launch->threads or launch->grid");
  memset(&l, 0, sizeof l);
  l.threads = 10;
  JGT_OK(jg_rtc_launch(kn, &an, 1, &l, &jgt_err_));
  CUDA_OK(cudaDeviceSynchronize());

  CUDA_OK(cudaFree(hits));
  CUDA_OK(cudaFree(info));
  jg_rtc_module_destroy(m);
}

static void test_dynamic_shared_memory(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  int optin = 0;
  CUDA_OK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  if (optin <= 48 * 1024) skip(); /* no opt-in above the default on this device */
  jg_rtc_module *m = load(kShape, NULL, 0);
  jg_kernel_param p[2] = {array("out", JG_PARAM_OUT, JG_DTYPE_FLOAT32, 1),
                          scalar("n", JG_DTYPE_INT32)};
  jg_rtc_kernel *k = NULL;
  JGT_OK(jg_rtc_kernel_get(m, "shm", p, 2, &k, &jgt_err_));
  /* Sizes above the 48 KiB default (opt-in), including the largest the device allows. */
  size_t sizes[] = {16 * 1024, 64 * 1024, (size_t)optin / 4 * 4};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int n = (int)(sizes[s] / sizeof(float));
    float *d = dev_alloc(sizes[s]);
    jg_kernel_arg a[2] = {jg_arg_array(d, n, JG_DTYPE_FLOAT32, kDev0), jg_arg_i64(n)};
    jg_launch l;
    memset(&l, 0, sizeof l);
    l.grid = 1;
    l.block = 256;
    l.shared_bytes = sizes[s];
    JGT_OK(jg_rtc_launch(k, a, 2, &l, &jgt_err_));
    CUDA_OK(cudaDeviceSynchronize());
    float *h = malloc(sizes[s]);
    assert_non_null(h);
    CUDA_OK(cudaMemcpy(h, d, sizes[s], cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) assert_true(h[i] == 2.0f * (float)i);
    free(h);
    CUDA_OK(cudaFree(d));
  }
  /* One byte more than the device allows. */
  float *d = dev_alloc(16);
  jg_kernel_arg a[2] = {jg_arg_array(d, 4, JG_DTYPE_FLOAT32, kDev0), jg_arg_i64(4)};
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.grid = 1;
  l.shared_bytes = (size_t)optin + 1;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(k, a, 2, &l, &err));
  JGT_CONTAINS(err.message, "shared memory");
  CUDA_OK(cudaFree(d));
  jg_rtc_module_destroy(m);
}

static void test_module_load_errors(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  jg_rtc_options o = opts_current();
  jg_rtc_program *p = NULL;
  JGT_OK(jg_rtc_compile(kSaxpy, "saxpy.cu", NULL, 0, &o, &p, &jgt_err_));
  int n = 0;
  JGT_OK(jg_device_count(&n, &jgt_err_));
  jg_rtc_module *m = (jg_rtc_module *)p;
  jg_error err;
  JGT_STATUS(JG_EINDEX, jg_rtc_module_load(p, n, &m, &err));
  assert_null(m);
  assert_int_equal(err.index, n);
  JGT_STATUS(JG_EINDEX, jg_rtc_module_load(p, -1, &m, &err));
  jg_rtc_program_destroy(p);

  /* A CUBIN for another major architecture is rejected by the driver. */
  int major = 0, minor = 0;
  CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  CUDA_OK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
  o.arch = major == 8 ? 90 : 80;
  JGT_OK(jg_rtc_compile(kSaxpy, "saxpy.cu", NULL, 0, &o, &p, &jgt_err_));
  JGT_STATUS(JG_ECUDA, jg_rtc_module_load(p, 0, &m, &err));
  assert_null(m);
  char want[96];
  snprintf(want, sizeof want, "the program was compiled for sm_%d; device 0 is sm_%d%d", o.arch,
           major, minor);
  JGT_CONTAINS(err.message, want);
  JGT_CONTAINS(err.message, "cuModuleLoadData");
  jg_rtc_program_destroy(p);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* A program read from the cache loads and runs like a compiled one (lowered names included). */
static void test_cached_program_runs(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  char dir[64];
  snprintf(dir, sizeof dir, "/tmp/jgrtc-gpu-XXXXXX");
  assert_non_null(mkdtemp(dir));
  jg_rtc_options o = opts_current();
  o.cache = JG_RTC_CACHE_DEFAULT;
  o.cache_dir = dir;
  const char *names[] = {"scale<double>"};
  jg_rtc_program *p = NULL;
  JGT_OK(jg_rtc_compile(kScale, "scale.cu", names, 1, &o, &p, &jgt_err_));
  assert_false(jg_rtc_program_cached(p));
  jg_rtc_program_destroy(p);
  JGT_OK(jg_rtc_compile(kScale, "scale.cu", names, 1, &o, &p, &jgt_err_));
  assert_true(jg_rtc_program_cached(p));
  jg_rtc_module *m = NULL;
  JGT_OK(jg_rtc_module_load(p, 0, &m, &jgt_err_));
  jg_rtc_program_destroy(p);
  jg_kernel_param pd[3] = {array("x", JG_PARAM_INOUT, JG_DTYPE_FLOAT64, 2),
                           scalar("f", JG_DTYPE_FLOAT64), scalar("n", JG_DTYPE_INT64)};
  jg_rtc_kernel *k = NULL;
  JGT_OK(jg_rtc_kernel_get(m, "scale<double>", pd, 3, &k, &jgt_err_));
  double h[3] = {1.0, 2.0, 3.0};
  double *d = dev_alloc(sizeof h);
  CUDA_OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  jg_kernel_arg a[3] = {jg_arg_array(d, 3, JG_DTYPE_FLOAT64, kDev0), jg_arg_f64(0.5),
                        jg_arg_i64(3)};
  JGT_OK(jg_rtc_launch(k, a, 3, NULL, &jgt_err_));
  CUDA_OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  assert_true(h[0] == 0.5 && h[1] == 1.0 && h[2] == 1.5);
  CUDA_OK(cudaFree(d));
  jg_rtc_module_destroy(m);
  assert_int_equal(nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

/* Every CUDA kernel of the catalog compiles for this device. */
static void test_compile_all_current_device(void **state) {
  (void)state;
  if (!nvrtc_ok) skip();
  jg_rtc_options o = opts_current();
  jg_compile_report rep;
  jg_error err;
  jg_status st = jg_catalog_compile_all(0, &o, &rep, &err);
  if (st != JG_OK) print_error("%s\n%s\n", err.message, rep.log != NULL ? rep.log : "");
  assert_int_equal(st, JG_OK);
  assert_int_equal(rep.failed, 0);
  assert_int_equal(rep.compiled + rep.skipped, jg_catalog_size());
  assert_null(rep.log);
  jg_compile_report_free(&rep);
}

int main(void) {
  JGT_REQUIRE_GPU();
  jg_rtc_options o = opts_current();
  jg_rtc_program *p = NULL;
  jg_error err;
  jg_status st = jg_rtc_compile(kSaxpy, NULL, NULL, 0, &o, &p, &err);
  nvrtc_ok = st == JG_OK;
  jg_rtc_program_destroy(p);
  if (!nvrtc_ok) {
    printf("[  SKIPPED ] all tests: %s\n", err.message);
    if (st != JG_ENOTSUP) return 1; /* NVRTC loaded but the compile failed: a real failure */
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_saxpy),
      cmocka_unit_test(test_kernel_get_checks),
      cmocka_unit_test(test_launch_checks),
      cmocka_unit_test(test_template),
      cmocka_unit_test(test_launch_shape),
      cmocka_unit_test(test_dynamic_shared_memory),
      cmocka_unit_test(test_module_load_errors),
      cmocka_unit_test(test_cached_program_runs),
      cmocka_unit_test(test_compile_all_current_device),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}

#else
int main(void) {
  JGT_REQUIRE_GPU(); /* always skips: no CUDA devices without CUDA */
  return 77;
}
#endif
