/* reduce_cub.cu: the reference of bench_reduce: CUB's segmented sum called directly on the same
 * device offsets and float32 content as jg_array_reduce(JG_REDUCE_SUM) (float32 sums). */
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_runtime_api.h>
#include <stdint.h>

/* Sums the n lists [offsets[i], offsets[i+1]) of `content` into `out` with
 * cub::DeviceSegmentedReduce::Sum, temporary storage allocated stream-ordered, then waits.
 * Returns the CUDA error code (0 = success). */
extern "C" int bench_cub_segmented_sum(const float *content, const int64_t *offsets, int64_t n,
                                       float *out, void *stream) {
  cudaStream_t s = (cudaStream_t)stream;
  size_t bytes = 0;
  cudaError_t e = cub::DeviceSegmentedReduce::Sum(nullptr, bytes, content, out, n, offsets,
                                                  offsets + 1, s);
  if (e != cudaSuccess) return (int)e;
  void *temp = nullptr;
  e = cudaMallocAsync(&temp, bytes, s);
  if (e != cudaSuccess) return (int)e;
  e = cub::DeviceSegmentedReduce::Sum(temp, bytes, content, out, n, offsets, offsets + 1, s);
  cudaFreeAsync(temp, s);
  if (e != cudaSuccess) return (int)e;
  return (int)cudaStreamSynchronize(s);
}
