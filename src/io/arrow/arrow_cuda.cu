/* arrow_cuda.cu: bitmap kernels of the Arrow exchange of cuda arrays (interface in arrow_cuda.h).
 * One thread writes one output byte (eight entries), so no two threads touch the same byte and
 * no atomics are needed; grid-stride loops cover any length. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "internal/jgi_cuda.h"
#include "io/arrow/arrow_cuda.h"

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65535;

int blocks_for(int64_t nbytes) {
  int64_t b = (nbytes + kThreads - 1) / kThreads;
  if (b > kMaxBlocks) b = kMaxBlocks;
  if (b < 1) b = 1;
  return (int)b;
}

template <typename T>
__device__ __forceinline__ bool test_value(T v, int mode) {
  if (mode == JGI_ARROW_BITS_NONZERO) return v != 0;
  if (mode == JGI_ARROW_BITS_ZERO) return v == 0;
  return v >= 0;
}

template <typename T>
__global__ void bits_from_values_kernel(const T *first, int64_t stride, int mode, int64_t n,
                                        uint8_t *out) {
  const int64_t nbytes = JGI_ARROW_BITMAP_BYTES(n);
  for (int64_t byte = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; byte < nbytes;
       byte += (int64_t)gridDim.x * blockDim.x) {
    uint8_t bits = 0;
    for (int b = 0; b < 8; ++b) {
      const int64_t i = byte * 8 + b;
      if (i < n && test_value<T>(first[i * stride], mode)) bits |= (uint8_t)(1u << b);
    }
    out[byte] = bits;
  }
}

__global__ void bits_realign_kernel(const uint8_t *first, int64_t byte_stride, int64_t bit_offset,
                                    bool lsb, bool invert, int64_t n, uint8_t *out) {
  const int64_t nbytes = JGI_ARROW_BITMAP_BYTES(n);
  for (int64_t byte = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; byte < nbytes;
       byte += (int64_t)gridDim.x * blockDim.x) {
    uint8_t bits = 0;
    for (int b = 0; b < 8; ++b) {
      const int64_t i = byte * 8 + b;
      if (i >= n) break;
      const int64_t src = bit_offset + i;
      const int shift = lsb ? (int)(src % 8) : 7 - (int)(src % 8);
      bool v = ((first[(src / 8) * byte_stride] >> shift) & 1u) != 0;
      if (invert) v = !v;
      if (v) bits |= (uint8_t)(1u << b);
    }
    out[byte] = bits;
  }
}

__global__ void bits_unpack_kernel(const uint8_t *bits, int64_t bit_offset, int64_t n,
                                   uint8_t *out) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t src = bit_offset + i;
    out[i] = (uint8_t)((bits[src / 8] >> (src % 8)) & 1u);
  }
}

}  // namespace

extern "C" jg_status jgi_arrow_bits_from_values_cuda(const void *first, int64_t stride,
                                                     int elem_size, int mode, int64_t n,
                                                     uint8_t *out, jg_stream stream,
                                                     jg_error *err) {
  JG_RETURN_IF(mode < JGI_ARROW_BITS_NONZERO || mode > JGI_ARROW_BITS_NONNEG, JG_EINVAL, err,
               "bitmap mode %d is not known", mode);
  if (n <= 0) return JG_OK;
  const cudaStream_t s = (cudaStream_t)stream;
  const int grid = blocks_for(JGI_ARROW_BITMAP_BYTES(n));
  switch (elem_size) {
    case 1:
      bits_from_values_kernel<int8_t>
          <<<grid, kThreads, 0, s>>>((const int8_t *)first, stride, mode, n, out);
      break;
    case 4:
      bits_from_values_kernel<int32_t>
          <<<grid, kThreads, 0, s>>>((const int32_t *)first, stride, mode, n, out);
      break;
    case 8:
      bits_from_values_kernel<long long>
          <<<grid, kThreads, 0, s>>>((const long long *)first, stride, mode, n, out);
      break;
    default:
      return jg_error_set(err, JG_EINVAL, -1, "bitmap source element size %d is not 1, 4 or 8",
                          elem_size);
  }
  JG_CUDA_RETURN_NOT_OK(cudaGetLastError(), "bitmap kernel launch", err);
  return JG_OK;
}

extern "C" jg_status jgi_arrow_bits_realign_cuda(const uint8_t *first, int64_t byte_stride,
                                                 int64_t bit_offset, bool lsb, bool invert,
                                                 int64_t n, uint8_t *out, jg_stream stream,
                                                 jg_error *err) {
  if (n <= 0) return JG_OK;
  bits_realign_kernel<<<blocks_for(JGI_ARROW_BITMAP_BYTES(n)), kThreads, 0, (cudaStream_t)stream>>>(
      first, byte_stride, bit_offset, lsb, invert, n, out);
  JG_CUDA_RETURN_NOT_OK(cudaGetLastError(), "bitmap realign kernel launch", err);
  return JG_OK;
}

extern "C" jg_status jgi_arrow_bits_unpack_cuda(const uint8_t *bits, int64_t bit_offset, int64_t n,
                                                uint8_t *out, jg_stream stream, jg_error *err) {
  if (n <= 0) return JG_OK;
  bits_unpack_kernel<<<blocks_for(n), kThreads, 0, (cudaStream_t)stream>>>(bits, bit_offset, n,
                                                                           out);
  JG_CUDA_RETURN_NOT_OK(cudaGetLastError(), "bitmap unpack kernel launch", err);
  return JG_OK;
}
