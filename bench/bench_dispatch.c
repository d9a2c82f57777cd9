/* bench_dispatch.c: what the kernel catalog (kernel.h) adds to a call.
 *
 * Host: jg_kernel_call(fill) on 16 doubles against the same loop written inline; the difference
 * per call is the catalog's overhead (argument checks, variant choice, residency, the indirect
 * call). Device: jg_kernel_call(fill) on device memory against the same kernel launched with
 * <<<>>> (bench/dispatch_kernels.cu), asynchronous launches per second on one stream. Without a
 * GPU only the host part runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jagged/jagged.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
int bench_fill_raw_launch(int64_t n, double value, double *out, void *stream);
#endif

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define RUNS 9

/* Median over RUNS of the time per iteration of `body`, in ns. */
#define MEDIAN_NS(iters, result, body)                      \
  do {                                                      \
    double t_[RUNS];                                        \
    for (int r_ = 0; r_ < RUNS; ++r_) {                     \
      const double s_ = now_s();                            \
      for (long it_ = 0; it_ < (iters); ++it_) { body; }    \
      t_[r_] = (now_s() - s_) * 1e9 / (double)(iters);      \
    }                                                       \
    qsort(t_, RUNS, sizeof t_[0], cmp);                     \
    (result) = t_[RUNS / 2];                                \
  } while (0)

static volatile double sink;

int main(void) {
  const jg_kernel *fill;
  jg_error err;
  if (jg_catalog_find("fill", &fill, &err) != JG_OK) {
    fprintf(stderr, "bench_dispatch: %s\n", err.message);
    return 1;
  }
  int bad = 0;
  double out[16];
  const jg_device host = JG_DEVICE_HOST_INIT;
  jg_kernel_arg a[3] = {jg_arg_i64(16), jg_arg_f64(1.5),
                        jg_arg_array(out, 16, JG_DTYPE_FLOAT64, host)};
  const long iters = 2000000;
  double t_call, t_loop;
  MEDIAN_NS(iters, t_call, {
    a[1].v.f64 = (double)it_;
    bad |= jg_kernel_call(fill, a, 3, NULL, NULL) != JG_OK;
    sink = out[15];
  });
  MEDIAN_NS(iters, t_loop, {
    for (int i = 0; i < 16; ++i) out[i] = (double)it_;
    __asm__ volatile("" ::: "memory");
    sink = out[15];
  });
  printf("bench_dispatch: median of %d runs\n\n", RUNS);
  printf("%-52s %10s\n", "host, fill of 16 float64", "ns/call");
  printf("%-52s %10.1f\n", "inline loop (reference)", t_loop);
  printf("%-52s %10.1f\n", "jg_kernel_call", t_call);
  printf("%-52s %10.1f\n", "catalog overhead per call", t_call - t_loop);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    printf("\ndevice part skipped: no CUDA device\n");
    return bad;
  }
  double *d = NULL;
  cudaStream_t s;
  if (cudaMalloc((void **)&d, 1024 * sizeof(double)) != cudaSuccess ||
      cudaStreamCreate(&s) != cudaSuccess) {
    fprintf(stderr, "bench_dispatch: CUDA setup failed\n");
    return 1;
  }
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.stream = s;
  const jg_device dev = {JG_DEVICE_CUDA, 0};
  jg_kernel_arg b[3] = {jg_arg_i64(1024), jg_arg_f64(2.0),
                        jg_arg_array(d, 1024, JG_DTYPE_FLOAT64, dev)};
  const long launches = 200000;
  double t_jg, t_raw;
  MEDIAN_NS(launches, t_jg, { bad |= jg_kernel_call(fill, b, 3, &l, NULL) != JG_OK; });
  cudaStreamSynchronize(s);
  MEDIAN_NS(launches, t_raw, { bad |= bench_fill_raw_launch(1024, 2.0, d, s) != 0; });
  cudaStreamSynchronize(s);
  double check[1024];
  cudaMemcpy(check, d, sizeof check, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 1024; ++i) bad |= check[i] != 2.0;
  printf("\n%-52s %10s\n", "device, fill of 1024 float64, async on one stream", "ns/launch");
  printf("%-52s %10.1f\n", "<<<>>> launch of the same kernel (reference)", t_raw);
  printf("%-52s %10.1f\n", "jg_kernel_call", t_jg);
  printf("%-52s %10.1f\n", "catalog overhead per launch", t_jg - t_raw);
  cudaFree(d);
  cudaStreamDestroy(s);
#endif
  if (bad) fprintf(stderr, "bench_dispatch: a call failed or a result was wrong\n");
  return bad;
}
