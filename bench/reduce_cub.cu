/* reduce_cub.cu: the references of bench_reduce: CUB's segmented reductions called directly on
 * the same device offsets and float32 content as jg_array_reduce (sum, max, argmax). */
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_runtime_api.h>
#include <stdint.h>

/* Runs one cub::DeviceSegmentedReduce call (query, allocate stream-ordered, run, free). */
template <typename Call>
static int run_cub(Call call, cudaStream_t s) {
  size_t bytes = 0;
  cudaError_t e = call(nullptr, bytes);
  if (e != cudaSuccess) return (int)e;
  void *temp = nullptr;
  e = cudaMallocAsync(&temp, bytes, s);
  if (e != cudaSuccess) return (int)e;
  e = call(temp, bytes);
  cudaFreeAsync(temp, s);
  if (e != cudaSuccess) return (int)e;
  return (int)cudaStreamSynchronize(s);
}

/* Reduces the n lists [offsets[i], offsets[i+1]) of `content` into `out` with
 * cub::DeviceSegmentedReduce: which = 0 Sum (out: n float), 1 Max (n float), 2 ArgMax (n
 * key-value pairs of int and float, 8 bytes each), then waits. Returns the CUDA error code. */
extern "C" int bench_cub_segmented(int which, const float *content, const int64_t *offsets,
                                   int64_t n, void *out, void *stream) {
  cudaStream_t s = (cudaStream_t)stream;
  const int nseg = (int)n;
  switch (which) {
    case 0:
      return run_cub(
          [&](void *t, size_t &b) {
            return cub::DeviceSegmentedReduce::Sum(t, b, content, (float *)out, nseg, offsets,
                                                   offsets + 1, s);
          },
          s);
    case 1:
      return run_cub(
          [&](void *t, size_t &b) {
            return cub::DeviceSegmentedReduce::Max(t, b, content, (float *)out, nseg, offsets,
                                                   offsets + 1, s);
          },
          s);
    default:
      return run_cub(
          [&](void *t, size_t &b) {
            return cub::DeviceSegmentedReduce::ArgMax(
                t, b, content, (cub::KeyValuePair<int, float> *)out, nseg, offsets, offsets + 1,
                s);
          },
          s);
  }
}
