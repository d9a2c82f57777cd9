/* scan_cuda.cu: per-list counts to offsets on a CUDA device (interface in scan.h).
 *
 * Pass 1 (check_counts_kernel) records the first negative count and the first count larger than
 * the content's length with atomicMin into jgi_scan_status. The offsets are then one
 * cub::DeviceScan::ExclusiveSum over n + 1 items, the n counts widened to unsigned 64-bit
 * followed by a 0, so that the last offset is the sum. The scan runs in uint64 so that a sum
 * that leaves int64 is well defined; pass 3 (check_overflow_kernel) then finds the first list
 * whose running sum exceeds INT64_MAX. It is launched only when n * total may exceed INT64_MAX:
 * once pass 1 passed every count is <= total, so the sum is at most n * total. */
#include <cuda_runtime.h>
#include <stdint.h>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "internal/jgi_cuda.h"
#include "kernels/scan/scan.h"

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;  // grid-stride loops beyond this

/* Count i widened to uint64, and 0 for the extra item n. */
template <typename T>
struct count_at {
  const T *counts;
  long long stride;
  long long n;
  __host__ __device__ unsigned long long operator()(long long i) const {
    return i < n ? static_cast<unsigned long long>(static_cast<long long>(counts[i * stride]))
                 : 0ULL;
  }
};

template <typename T>
__global__ void check_counts_kernel(const T *counts, long long stride, long long n,
                                    long long total, jgi_scan_status *status) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += step) {
    const long long c = static_cast<long long>(counts[i * stride]);
    if (c < 0) atomicMin(&status->first_negative, static_cast<unsigned long long>(i));
    if (c > total) atomicMin(&status->first_too_large, static_cast<unsigned long long>(i));
  }
}

__global__ void check_overflow_kernel(const unsigned long long *offsets, long long n,
                                      jgi_scan_status *status) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += step) {
    if (offsets[i + 1] > static_cast<unsigned long long>(INT64_MAX))
      atomicMin(&status->first_overflow, static_cast<unsigned long long>(i));
  }
}

unsigned blocks_for(long long n) {
  long long b = (n + kThreads - 1) / kThreads;
  if (b < 1) b = 1;
  if (b > kMaxBlocks) b = kMaxBlocks;
  return static_cast<unsigned>(b);
}

template <typename T>
jg_status run(const T *counts, long long stride, long long n, long long total, int64_t *offsets,
              jgi_scan_status *status, void *temp, size_t *temp_bytes, cudaStream_t s,
              jg_error *err) {
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                            count_at<T>{counts, stride, n});
  unsigned long long *out = reinterpret_cast<unsigned long long *>(offsets);
  size_t need = 0;
  JG_CUDA_RETURN_NOT_OK(cub::DeviceScan::ExclusiveSum(nullptr, need, in, out, n + 1, s),
                        "cub::DeviceScan::ExclusiveSum (size query)", err);
  if (need == 0) need = 1;
  if (temp == nullptr) {
    *temp_bytes = need;
    return JG_OK;
  }
  JG_RETURN_IF(*temp_bytes < need, JG_EINVAL, err,
               "counts to offsets: %zu bytes of temporary storage given, %zu needed", *temp_bytes,
               need);
  JG_CUDA_RETURN_NOT_OK(cudaMemsetAsync(status, 0xFF, sizeof *status, s), "cudaMemsetAsync",
                        err);
  if (n > 0) {
    check_counts_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(counts, stride, n, total, status);
    JG_CUDA_RETURN_NOT_OK(cudaGetLastError(), "check_counts_kernel launch", err);
  }
  size_t have = *temp_bytes;
  JG_CUDA_RETURN_NOT_OK(cub::DeviceScan::ExclusiveSum(temp, have, in, out, n + 1, s),
                        "cub::DeviceScan::ExclusiveSum", err);
  if (n > 0 && total > 0 && n > INT64_MAX / total) {
    check_overflow_kernel<<<blocks_for(n), kThreads, 0, s>>>(out, n, status);
    JG_CUDA_RETURN_NOT_OK(cudaGetLastError(), "check_overflow_kernel launch", err);
  }
  return JG_OK;
}

}  // namespace

extern "C" jg_status jgi_counts_to_offsets_cuda(const void *counts, jg_stride stride,
                                                jg_dtype dtype, jg_len n, jg_len total,
                                                int64_t *offsets, jgi_scan_status *status,
                                                void *temp, size_t *temp_bytes, jg_stream stream,
                                                jg_error *err) {
  JG_RETURN_IF(temp_bytes == nullptr, JG_EINVAL, err, "counts to offsets: temp_bytes is NULL");
  JG_RETURN_IF(n < 0 || n == INT64_MAX, JG_EINVAL, err, "counts to offsets: bad count %lld",
               static_cast<long long>(n));
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case JG_DTYPE_INT32:
      return run(static_cast<const int32_t *>(counts), stride, n, total, offsets, status, temp,
                 temp_bytes, s, err);
    case JG_DTYPE_INT64:
      return run(static_cast<const int64_t *>(counts), stride, n, total, offsets, status, temp,
                 temp_bytes, s, err);
    default:
      return jg_error_set(err, JG_EINVAL, -1, "counts to offsets: counts must be int32 or int64");
  }
}
