/* validate_cuda.cu: the FULL-level index scans on the GPU and their extern "C" launcher
 * (interface in validate.h).
 *
 * One kernel per scan, specialised on the check and the index type (int32 / int64). Threads walk
 * the entries with a grid-stride loop; a thread that finds a failing entry atomicMin's its key
 * (entry * JGI_VALIDATE_NCODES + code) into the scan's device word and stops, since its later
 * entries can only have larger keys. The word therefore ends as the smallest failing key, the
 * one the sequential host scan (validate_cpu.c) returns. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "internal/jgi_cuda.h"
#include "internal/jgi_transfer.h"
#include "kernels/validate/validate.h"

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65536;

template <typename T>
__device__ __forceinline__ int list_code(T start, T stop, int64_t len) {
  if (stop < start) return JGI_VALIDATE_DECREASING;
  if (start != stop) {
    if (start < 0) return JGI_VALIDATE_START_BELOW;
    if ((int64_t)stop > len) return JGI_VALIDATE_STOP_PAST;
  }
  return -1;
}

__device__ __forceinline__ void report(unsigned long long *word, int64_t i, int code) {
  const unsigned long long key =
      (unsigned long long)i * JGI_VALIDATE_NCODES + (unsigned long long)code;
  atomicMin(word, key);
}

template <typename T, int CHECK>
__global__ void __launch_bounds__(kThreads)
    validate_kernel(const T *__restrict__ a, const T *__restrict__ b, int64_t sa, int64_t sb,
                    int64_t n, int64_t len, unsigned long long *word) {
  const int64_t step = (int64_t)gridDim.x * kThreads;
  for (int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x; i < n; i += step) {
    int code = -1;
    if (CHECK == JGI_VALIDATE_OFFSETS) {
      code = list_code<T>(a[i * sa], a[(i + 1) * sa], len);
    } else if (CHECK == JGI_VALIDATE_STARTS_STOPS) {
      code = list_code<T>(a[i * sa], b[i * sb], len);
    } else if ((int64_t)a[i * sa] >= len) {
      code = JGI_VALIDATE_INDEX_PAST;
    }
    if (code >= 0) {
      report(word, i, code);
      return;
    }
  }
}

template <typename T>
cudaError_t launch_typed(const jgi_validate_task &t, unsigned long long *word, cudaStream_t s) {
  int64_t blocks = (t.n + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  const T *a = static_cast<const T *>(t.a);
  const T *b = static_cast<const T *>(t.b);
  switch (t.check) {
    case JGI_VALIDATE_OFFSETS:
      validate_kernel<T, JGI_VALIDATE_OFFSETS><<<(unsigned)blocks, kThreads, 0, s>>>(
          a, b, t.stride_a, t.stride_b, t.n, t.content_length, word);
      break;
    case JGI_VALIDATE_STARTS_STOPS:
      validate_kernel<T, JGI_VALIDATE_STARTS_STOPS><<<(unsigned)blocks, kThreads, 0, s>>>(
          a, b, t.stride_a, t.stride_b, t.n, t.content_length, word);
      break;
    case JGI_VALIDATE_INDEX:
      validate_kernel<T, JGI_VALIDATE_INDEX><<<(unsigned)blocks, kThreads, 0, s>>>(
          a, b, t.stride_a, t.stride_b, t.n, t.content_length, word);
      break;
  }
  return cudaGetLastError();
}

}  // namespace

extern "C" jg_status jgi_validate_scan_cuda(const jgi_validate_task *tasks, int ntasks,
                                            jg_stream stream, uint64_t *keys, jg_error *err) {
  JG_RETURN_IF(tasks == NULL || keys == NULL || ntasks < 1, JG_EINVAL, err,
               "validate: no scans to run");
  for (int k = 0; k < ntasks; k++) {
    const jgi_validate_task &t = tasks[k];
    JG_RETURN_IF_AT(t.itemsize != 4 && t.itemsize != 8, JG_EINVAL, err, k,
                    "validate: scan %d has itemsize %d", k, (int)t.itemsize);
    JG_RETURN_IF_AT(t.n < 0 || (t.n > 0 && t.a == NULL) ||
                        (t.check == JGI_VALIDATE_STARTS_STOPS && t.n > 0 && t.b == NULL),
                    JG_EINVAL, err, k, "validate: scan %d is malformed", k);
  }
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  const size_t bytes = sizeof(unsigned long long) * (size_t)ntasks;
  unsigned long long *words = NULL;
  bool async = true;
  cudaError_t e = cudaMallocAsync(reinterpret_cast<void **>(&words), bytes, s);
  if (e == cudaErrorNotSupported) { /* no stream-ordered allocator on this device */
    (void)cudaGetLastError();
    async = false;
    e = cudaMalloc(reinterpret_cast<void **>(&words), bytes);
  }
  if (e != cudaSuccess) return jgi_cuda_error(err, e, "validate: allocating the error words");

  const char *op = "validate: cudaMemsetAsync";
  e = cudaMemsetAsync(words, 0xff, bytes, s); /* every word JGI_VALIDATE_OK_KEY */
  for (int k = 0; k < ntasks && e == cudaSuccess; k++) {
    const jgi_validate_task &t = tasks[k];
    if (t.n == 0) continue;
    op = "validate: kernel launch";
    e = t.itemsize == 4 ? launch_typed<int32_t>(t, words + k, s)
                        : launch_typed<int64_t>(t, words + k, s);
  }
  if (e == cudaSuccess) {
    op = "validate: copying the error words back";
    e = cudaMemcpyAsync(keys, words, bytes, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) jgi_transfer_record(JG_TRANSFER_TO_HOST, bytes, "validate: error words");
  }
  if (e == cudaSuccess) {
    op = "validate: cudaStreamSynchronize";
    e = cudaStreamSynchronize(s);
  }
  jg_status st = e == cudaSuccess ? JG_OK : jgi_cuda_error(err, e, op);

  /* Free the words; after an error drain the stream first (kernels may still use them). */
  cudaError_t fe;
  if (async && st == JG_OK) {
    fe = cudaFreeAsync(words, s);
  } else {
    if (st != JG_OK && cudaStreamSynchronize(s) != cudaSuccess) (void)cudaGetLastError();
    fe = async ? cudaFreeAsync(words, s) : cudaFree(words);
  }
  if (fe != cudaSuccess) (void)cudaGetLastError();
  return st;
}
