/* bench_reduce.c: per-list sums (jg_array_reduce, JG_REDUCE_SUM) of 5,000,000 lists of float32
 * with Poisson(3)-distributed counts (the event shape of a muon or jet collection); on the
 * device also per-list max and argmax against CUB's segmented Max and ArgMax.
 *
 * Host: against a plain C loop over the same offsets and content. Device: against CUB's
 * segmented reduce called directly on the same device buffers (bench/reduce_cub.cu), and against
 * the bandwidth floor: the bytes the reduction must read and write (content, offsets, sums)
 * divided by the measured device-to-device copy bandwidth. Times are wall-clock medians of 9
 * runs after 2 warm-up runs, each including the wait for the result. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"
#include "jagged/jagged.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
int bench_cub_segmented(int which, const float *content, const int64_t *offsets, int64_t n,
                        void *out, void *stream);
#endif

int main(void) {
  const int64_t n = 5000000;
  int64_t *offsets = malloc((size_t)(n + 1) * sizeof *offsets);
  if (offsets == NULL) return 1;
  uint64_t x = 42;
  offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + poisson3(&x);
  const int64_t m = offsets[n];
  float *content = malloc((size_t)m * sizeof *content);
  float *ref = malloc((size_t)n * sizeof *ref);
  if (content == NULL || ref == NULL) return 1;
  for (int64_t j = 0; j < m; ++j) content[j] = (float)(j % 1000) * 0.25f;
  jg_error err;
  jg_array *a = NULL;
  if (jg_array_from_host_offsets(offsets, n, content, m, JG_DTYPE_FLOAT32, &a, &err) != JG_OK) {
    fprintf(stderr, "bench_reduce: %s\n", err.message);
    return 1;
  }
  const double bytes = (double)m * 4 + (double)(n + 1) * 8 + (double)n * 4;
  printf("bench_reduce: %lld lists, %lld float32 values (Poisson(3) counts), %.1f MB moved\n",
         (long long)n, (long long)m, bytes / 1e6);
  int bad = 0;
  double t[RUNS];
  /* host: a plain loop, then jagged */
  for (int r = -2; r < RUNS; ++r) {
    const double s = now_s();
    for (int64_t i = 0; i < n; ++i) {
      double acc = 0;
      for (int64_t j = offsets[i]; j < offsets[i + 1]; ++j) acc += content[j];
      ref[i] = (float)acc;
    }
    if (r >= 0) t[r] = now_s() - s;
  }
  const double t_loop = median(t);
  jg_array *out = NULL;
  for (int r = -2; r < RUNS; ++r) {
    const double s = now_s();
    if (jg_array_reduce(a, JG_REDUCE_SUM, NULL, &out, &err) != JG_OK) {
      fprintf(stderr, "bench_reduce: %s\n", err.message);
      return 1;
    }
    if (r >= 0) t[r] = now_s() - s;
    if (r < RUNS - 1) jg_array_release(out);
  }
  const double t_host = median(t);
  jg_view ov;
  if (jg_array_buffer(out, 0, &ov, &err) != JG_OK) return 1;
  for (int64_t i = 0; i < n; ++i) bad |= ((const float *)ov.base)[i] != ref[i];
  jg_array_release(out);
  printf("\n%-52s %10s %10s\n", "host (one thread)", "ms", "GB/s");
  printf("%-52s %10.2f %10.2f\n", "plain C loop over offsets (reference)", 1e3 * t_loop,
         bytes / t_loop / 1e9);
  printf("%-52s %10.2f %10.2f\n", "jg_array_reduce(JG_REDUCE_SUM)", 1e3 * t_host,
         bytes / t_host / 1e9);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    printf("\ndevice part skipped: no CUDA device\n");
    return bad;
  }
  jg_array *d = NULL;
  if (jg_array_to_device(a, 0, NULL, &d, &err) != JG_OK) {
    fprintf(stderr, "bench_reduce: %s\n", err.message);
    return 1;
  }
  /* the floor: device-to-device copy bandwidth (bytes read + written) */
  const double copy_bw = bench_copy_bandwidth();
  if (copy_bw == 0) return 1;
  for (int r = -2; r < RUNS; ++r) {
    const double s = now_s();
    if (jg_array_reduce(d, JG_REDUCE_SUM, NULL, &out, &err) != JG_OK) {
      fprintf(stderr, "bench_reduce: %s\n", err.message);
      return 1;
    }
    if (r >= 0) t[r] = now_s() - s;
    if (r < RUNS - 1) jg_array_release(out);
  }
  const double t_dev = median(t);
  jg_array *back = NULL;
  if (jg_array_to_host(out, NULL, &back, &err) != JG_OK) return 1;
  if (jg_array_buffer(back, 0, &ov, &err) != JG_OK) return 1;
  for (int64_t i = 0; i < n; ++i) bad |= fabsf(((const float *)ov.base)[i] - ref[i]) > 1e-3f * fabsf(ref[i]);
  jg_array_release(back);
  jg_array_release(out);
  jg_view dofs, dcon;
  if (jg_array_buffer(d, 0, &dofs, &err) != JG_OK ||
      jg_array_buffer(jg_array_child(d, 0), 0, &dcon, &err) != JG_OK)
    return 1;
  void *dout = NULL;
  if (cudaMalloc(&dout, (size_t)n * 8) != cudaSuccess) return 1;
  for (int r = -2; r < RUNS; ++r) {
    const double s = now_s();
    bad |= bench_cub_segmented(0, dcon.base, dofs.base, n, dout, NULL) != 0;
    if (r >= 0) t[r] = now_s() - s;
  }
  const double t_cub = median(t);
  const double floor_s = bytes / copy_bw;
  printf("\n%-52s %10s %10s %9s\n", "device (H2D excluded)", "ms", "GB/s", "of floor");
  printf("%-52s %10.3f %10.1f %8.1f%%\n", "bandwidth floor (bytes / D2D copy bandwidth)",
         1e3 * floor_s, copy_bw / 1e9, 100.0);
  printf("%-52s %10.3f %10.1f %8.1f%%\n", "cub::DeviceSegmentedReduce::Sum (reference)",
         1e3 * t_cub, bytes / t_cub / 1e9, 100.0 * floor_s / t_cub);
  printf("%-52s %10.3f %10.1f %8.1f%%\n", "jg_array_reduce(JG_REDUCE_SUM)", 1e3 * t_dev,
         bytes / t_dev / 1e9, 100.0 * floor_s / t_dev);
  printf("%-52s %10.2fx\n", "jagged vs CUB (time ratio, > 1: jagged faster)", t_cub / t_dev);
  /* max and argmax: jagged (option results: None for empty lists) against CUB's Max and ArgMax
   * (which give the lowest float and (1, lowest) for empty lists); time only, the values are
   * tested by the GPU tests. The floor counts float32 results for max, int64 for argmax. */
  static const struct {
    const char *name, *cub_name;
    jg_reducer r;
    int which;
    double out_bytes;
  } more[] = {{"jg_array_reduce(JG_REDUCE_MAX)", "cub::DeviceSegmentedReduce::Max (reference)",
               JG_REDUCE_MAX, 1, 4},
              {"jg_array_reduce(JG_REDUCE_ARGMAX)",
               "cub::DeviceSegmentedReduce::ArgMax (reference)", JG_REDUCE_ARGMAX, 2, 8}};
  for (int k = 0; k < 2; ++k) {
    const double b = (double)m * 4 + (double)(n + 1) * 8 + (double)n * more[k].out_bytes;
    double tj[RUNS], tc[RUNS];
    for (int r = -2; r < RUNS; ++r) {
      double s = now_s();
      if (jg_array_reduce(d, more[k].r, NULL, &out, &err) != JG_OK) {
        fprintf(stderr, "bench_reduce: %s\n", err.message);
        return 1;
      }
      if (r >= 0) tj[r] = now_s() - s;
      jg_array_release(out);
      s = now_s();
      bad |= bench_cub_segmented(more[k].which, dcon.base, dofs.base, n, dout, NULL) != 0;
      if (r >= 0) tc[r] = now_s() - s;
    }
    const double mj = median(tj), mc = median(tc), fl = b / copy_bw;
    printf("%-52s %10.3f %10.1f %8.1f%%\n", more[k].cub_name, 1e3 * mc, b / mc / 1e9,
           100.0 * fl / mc);
    printf("%-52s %10.3f %10.1f %8.1f%%\n", more[k].name, 1e3 * mj, b / mj / 1e9,
           100.0 * fl / mj);
    printf("%-52s %10.2fx\n", "jagged vs CUB (time ratio, > 1: jagged faster)", mc / mj);
  }
  cudaFree(dout);
  jg_array_release(d);
#endif
  jg_array_release(a);
  free(offsets);
  free(content);
  free(ref);
  if (bad) fprintf(stderr, "bench_reduce: a call failed or a result was wrong\n");
  return bad;
}
