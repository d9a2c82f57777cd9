/* test_kernels_builtin_gpu.c: the CUDA side of the built-in kernels fill, offsets_to_counts,
 * local_index and take. jg_kernel_parity runs every kernel's own parity cases (every variant)
 * on the host reference and on the GPU and must find them equal, with the default launch and
 * with small odd grids and blocks (grid-stride loops, and the error word's minimum across
 * iterations); then one direct call per kernel on cudaMalloc'd arrays is checked against hand
 * values, and every data error must come back with the host's status, index and message.
 * Exits 77 (skipped) without a usable GPU. */
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

static const jg_device kDev = {JG_DEVICE_CUDA, 0};

static const jg_kernel *kernel(const char *name) {
  const jg_kernel *k = NULL;
  JGT_OK(jg_catalog_find(name, &k, &jgt_err_));
  assert_non_null(k);
  assert_true(jg_kernel_has_cuda(k));
  return k;
}

/* A device copy of `bytes` bytes at `host` (at least one byte is allocated). */
static void *to_dev(const void *host, size_t bytes) {
  void *p = NULL;
  CUDA_OK(cudaMalloc(&p, bytes > 0 ? bytes : 1));
  if (bytes > 0) CUDA_OK(cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice));
  return p;
}

static void to_host(void *host, const void *dev, size_t bytes) {
  CUDA_OK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
}

/* Runs the kernel's parity cases on the GPU with `launch` (NULL: defaults). */
static void parity(const char *name, const jg_launch *launch) {
  const jg_kernel *k = kernel(name);
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.seed = 2024;
  o.launch = launch;
  char what[128];
  snprintf(what, sizeof what, "%s (launch %s)", name, launch != NULL ? "custom" : "default");
  jgt_parity_ok(k, launch != NULL ? &o : NULL, what);
}

static const char *const kKernels[4] = {"fill", "local_index", "offsets_to_counts", "take"};

static void test_parity_default_launch(void **state) {
  (void)state;
  for (int i = 0; i < 4; ++i) parity(kKernels[i], NULL);
}

static void test_parity_odd_launches(void **state) {
  (void)state;
  jg_launch small;
  memset(&small, 0, sizeof small);
  small.grid = 3;
  small.block = 96; /* three warps: lanes of one warp race for the error word */
  jg_launch wide;
  memset(&wide, 0, sizeof wide);
  wide.block = 1024;
  jg_launch odd;
  memset(&odd, 0, sizeof odd);
  odd.grid = 7;
  odd.block = 33; /* a partial warp in every block */
  for (int i = 0; i < 4; ++i) {
    parity(kKernels[i], &small);
    parity(kKernels[i], &wide);
    parity(kKernels[i], &odd);
  }
}

/* Calls `k` on device args and asserts the data error against the host's. */
static void expect_error(const jg_kernel *k, const jg_kernel_arg *dev_args, jg_status status,
                         int64_t index, const char *message) {
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = jg_kernel_call(k, dev_args, jg_kernel_param_count(k), NULL, &err);
  if (st != status || err.index != index || strcmp(err.message, message) != 0) {
    print_error("kernel %s on the GPU: got %s index %lld \"%s\"; expected %s index %lld \"%s\"\n",
                jg_kernel_name(k), jg_status_name(st), (long long)err.index, err.message,
                jg_status_name(status), (long long)index, message);
    fail();
  }
}

static void test_fill_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("fill");
  float host[5] = {9, 9, 9, 9, 9};
  float *d = to_dev(host, sizeof host);
  jg_kernel_arg a[3] = {jg_arg_i64(4), jg_arg_f64(-2.5),
                        jg_arg_array(d, 5, JG_DTYPE_FLOAT32, kDev)};
  JGT_OK(jg_kernel_call(k, a, 3, NULL, &jgt_err_));
  to_host(host, d, sizeof host);
  for (int i = 0; i < 4; ++i) assert_true(host[i] == -2.5f);
  assert_true(host[4] == 9.0f);
  CUDA_OK(cudaFree(d));
}

static void test_offsets_to_counts_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("offsets_to_counts");
  const int32_t offsets[4] = {3, 5, 5, 9};
  int64_t counts[4] = {-1, -1, -1, -1};
  void *doff = to_dev(offsets, sizeof offsets), *dcnt = to_dev(counts, sizeof counts);
  jg_kernel_arg a[3] = {jg_arg_i64(3), jg_arg_array(doff, 4, JG_DTYPE_INT32, kDev),
                        jg_arg_array(dcnt, 4, JG_DTYPE_INT64, kDev)};
  JGT_OK(jg_kernel_call(k, a, 3, NULL, &jgt_err_));
  to_host(counts, dcnt, sizeof counts);
  assert_int_equal(counts[0], 2);
  assert_int_equal(counts[1], 0);
  assert_int_equal(counts[2], 4);
  assert_int_equal(counts[3], -1);
  /* Decreases at lists 1 and 3: list 1 is reported, as on the host. */
  const int64_t bad[5] = {0, 2, 1, 5, 3};
  void *dbad = to_dev(bad, sizeof bad);
  jg_kernel_arg b[3] = {jg_arg_i64(4), jg_arg_array(dbad, 5, JG_DTYPE_INT64, kDev),
                        jg_arg_array(dcnt, 4, JG_DTYPE_INT64, kDev)};
  expect_error(k, b, JG_EVALUE, 1, "offsets_to_counts: offsets decrease at list 1");
  /* A list of INT64_MAX + 4 elements at list 1. */
  const int64_t big[3] = {-10, -5, INT64_MAX - 1};
  void *dbig = to_dev(big, sizeof big);
  jg_kernel_arg c[3] = {jg_arg_i64(2), jg_arg_array(dbig, 3, JG_DTYPE_INT64, kDev),
                        jg_arg_array(dcnt, 2, JG_DTYPE_INT64, kDev)};
  expect_error(k, c, JG_EOVERFLOW, 1,
               "offsets_to_counts: list 1 has more than 2^63 - 1 elements (offsets[i+1] - "
               "offsets[i] overflows int64)");
  CUDA_OK(cudaFree(doff));
  CUDA_OK(cudaFree(dcnt));
  CUDA_OK(cudaFree(dbad));
  CUDA_OK(cudaFree(dbig));
}

static void test_local_index_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("local_index");
  const int64_t offsets[4] = {2, 4, 4, 7};
  int64_t out[6] = {-1, -1, -1, -1, -1, -1};
  void *doff = to_dev(offsets, sizeof offsets), *dout = to_dev(out, sizeof out);
  jg_kernel_arg a[4] = {jg_arg_i64(3), jg_arg_i64(5), jg_arg_array(doff, 4, JG_DTYPE_INT64, kDev),
                        jg_arg_array(dout, 6, JG_DTYPE_INT64, kDev)};
  JGT_OK(jg_kernel_call(k, a, 4, NULL, &jgt_err_));
  to_host(out, dout, sizeof out);
  const int64_t want[6] = {0, 1, 0, 1, 2, -1};
  for (int i = 0; i < 6; ++i) assert_int_equal(out[i], want[i]);
  /* One list of 3 * 2^20 + 5 elements between empty lists, int32 offsets from 11. */
  const int64_t len = 3 * ((int64_t)1 << 20) + 5;
  const int32_t one[4] = {11, 11, (int32_t)(11 + len), (int32_t)(11 + len)};
  void *done = to_dev(one, sizeof one);
  int64_t *big = NULL;
  CUDA_OK(cudaMalloc((void **)&big, (size_t)len * sizeof *big));
  jg_kernel_arg b[4] = {jg_arg_i64(3), jg_arg_i64(len), jg_arg_array(done, 4, JG_DTYPE_INT32, kDev),
                        jg_arg_array(big, len, JG_DTYPE_INT64, kDev)};
  JGT_OK(jg_kernel_call(k, b, 4, NULL, &jgt_err_));
  int64_t *hb = malloc((size_t)len * sizeof *hb);
  assert_non_null(hb);
  to_host(hb, big, (size_t)len * sizeof *hb);
  for (int64_t j = 0; j < len; ++j) {
    if (hb[j] != j) {
      print_error("local_index: out[%lld] = %lld\n", (long long)j, (long long)hb[j]);
      fail();
    }
  }
  free(hb);
  /* Lists run past offsets[0] + m at list 1; a decrease later at list 2. */
  const int64_t past[4] = {10, 12, 16, 15};
  void *dpast = to_dev(past, sizeof past);
  jg_kernel_arg c[4] = {jg_arg_i64(3), jg_arg_i64(5), jg_arg_array(dpast, 4, JG_DTYPE_INT64, kDev),
                        jg_arg_array(dout, 5, JG_DTYPE_INT64, kDev)};
  expect_error(k, c, JG_EVALUE, 1,
               "local_index: offsets decrease or leave [offsets[0], offsets[0] + m] at list 1");
  CUDA_OK(cudaFree(doff));
  CUDA_OK(cudaFree(dout));
  CUDA_OK(cudaFree(done));
  CUDA_OK(cudaFree(big));
  CUDA_OK(cudaFree(dpast));
}

static void test_take_direct(void **state) {
  (void)state;
  const jg_kernel *k = kernel("take");
  const double content[4] = {10.5, 20.5, 30.5, 40.5};
  const int64_t index[5] = {0, -1, 2, -4, 3};
  double out[6] = {-1, -1, -1, -1, -1, -1};
  void *dc = to_dev(content, sizeof content), *di = to_dev(index, sizeof index),
       *dout = to_dev(out, sizeof out);
  jg_kernel_arg a[5] = {jg_arg_i64(5), jg_arg_i64(4), jg_arg_array(dc, 4, JG_DTYPE_FLOAT64, kDev),
                        jg_arg_array(di, 5, JG_DTYPE_INT64, kDev),
                        jg_arg_array(dout, 6, JG_DTYPE_FLOAT64, kDev)};
  JGT_OK(jg_kernel_call(k, a, 5, NULL, &jgt_err_));
  to_host(out, dout, sizeof out);
  const double want[6] = {10.5, 40.5, 30.5, 10.5, 40.5, -1};
  for (int i = 0; i < 6; ++i) assert_true(out[i] == want[i]);
  /* uint16 with an out-of-range index at position 2 and another at 4. */
  const uint16_t uc[3] = {7, 65535, 9};
  const int64_t bad[5] = {-3, 2, 3, 0, INT64_MIN};
  void *duc = to_dev(uc, sizeof uc), *dbad = to_dev(bad, sizeof bad), *duo = NULL;
  CUDA_OK(cudaMalloc(&duo, 5 * sizeof(uint16_t)));
  jg_kernel_arg b[5] = {jg_arg_i64(5), jg_arg_i64(3), jg_arg_array(duc, 3, JG_DTYPE_UINT16, kDev),
                        jg_arg_array(dbad, 5, JG_DTYPE_INT64, kDev),
                        jg_arg_array(duo, 5, JG_DTYPE_UINT16, kDev)};
  expect_error(k, b, JG_EINDEX, 2, "take: index at position 2 is out of range");
  /* Positions 0 and 1 (indices -3 and 2) are written; the rest of out is unspecified after an
   * error, so it is not checked. */
  uint16_t uo[2] = {0, 0};
  to_host(uo, duo, sizeof uo);
  assert_int_equal(uo[0], 7);
  assert_int_equal(uo[1], 9);
  CUDA_OK(cudaFree(dc));
  CUDA_OK(cudaFree(di));
  CUDA_OK(cudaFree(dout));
  CUDA_OK(cudaFree(duc));
  CUDA_OK(cudaFree(dbad));
  CUDA_OK(cudaFree(duo));
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parity_default_launch), cmocka_unit_test(test_parity_odd_launches),
      cmocka_unit_test(test_fill_direct),           cmocka_unit_test(test_offsets_to_counts_direct),
      cmocka_unit_test(test_local_index_direct),    cmocka_unit_test(test_take_direct),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}

#else /* no CUDA in this build */

int main(void) {
  JGT_REQUIRE_GPU();
  printf("[  SKIPPED ] built without CUDA\n");
  return 77;
}

#endif
