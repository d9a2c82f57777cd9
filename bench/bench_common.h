/* bench_common.h: what the benchmarks share: a monotonic clock, medians of RUNS timed runs
 * after 2 warm-up runs, Poisson(3) list counts from a seeded LCG (the event shape of a muon or
 * jet collection), and the device-to-device copy bandwidth that sets the bandwidth floor. */
#ifndef JAGGED_BENCH_COMMON_H
#define JAGGED_BENCH_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#define RUNS 9

static inline double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/** The median of t[0..RUNS) (sorts t). */
static inline double median(double *t) {
  qsort(t, RUNS, sizeof t[0], bench_cmp_double);
  return t[RUNS / 2];
}

/** A Poisson(3) count by inversion, from the 64-bit LCG state *x. */
static inline int64_t poisson3(uint64_t *x) {
  *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
  double u = (double)(*x >> 11) / 9007199254740992.0, p = exp(-3.0), c = p;
  int64_t k = 0;
  while (u > c && k < 40) {
    ++k;
    p *= 3.0 / (double)k;
    c += p;
  }
  return k;
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/** Device-to-device copy bandwidth of device 0 in bytes per second (read + written), the median
 *  of RUNS copies of 1 GiB; 0 when the buffers cannot be had. */
static inline double bench_copy_bandwidth(void) {
  const size_t cb = (size_t)1 << 30;
  void *c0 = NULL, *c1 = NULL;
  if (cudaMalloc(&c0, cb) != cudaSuccess || cudaMalloc(&c1, cb) != cudaSuccess) return 0;
  double t[RUNS];
  for (int r = -2; r < RUNS; ++r) {
    const double s = now_s();
    cudaMemcpy(c1, c0, cb, cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
    if (r >= 0) t[r] = now_s() - s;
  }
  cudaFree(c0);
  cudaFree(c1);
  return 2.0 * (double)cb / median(t);
}
#endif

#endif /* JAGGED_BENCH_COMMON_H */
