/* device_view_kernels.cu: test kernels for test_device_view_gpu.c: walks of device views with the
 * same code as the host walks (jgt_dview_walk.h), a muon kernel, and the two user kernels of
 * the count / scan / fill helper. */
#include <cuda_runtime.h>

#include "gpu/device_view_kernels.h"
#include "jgt_dview_walk.h"

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 1 ? 1 : b);
}

__global__ void walk_kernel(jg_dview v, int64_t first, int64_t last, double *out, int64_t cap,
                            int64_t *result) {
  jgt_sink s;
  s.out = out;
  s.cap = cap;
  s.count = 0;
  s.sum = 0.0;
  const bool ok = jgt_walk_into(v, first, last, &s);
  result[0] = ok ? s.count : -1;
  result[1] = __double_as_longlong(s.sum);
}

__global__ void walk_each_kernel(jg_dview v, int64_t n, int64_t *counts, double *sums) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  jgt_sink s;
  s.out = nullptr;
  s.cap = 0;
  s.count = 0;
  s.sum = 0.0;
  counts[i] = jgt_walk_into(v, i, i + 1, &s) ? s.count : -1;
  sums[i] = s.sum;
}

__global__ void sum_pt_kernel(jg_dview ev, int32_t pt_field, float *out) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= jg_dview_length(ev, ev.root)) return;
  const jg_drange muons = jg_dview_list(ev, ev.root, i);
  const int32_t pt = jg_dview_field(ev, jg_dview_content(ev, ev.root), pt_field);
  float s = 0.0f;
  for (int64_t j = muons.start; j < muons.stop; ++j) s += jg_dview_get_f32(ev, pt, j);
  out[i] = s;
}

__global__ void count_mod_kernel(int64_t *counts, int64_t n, int64_t mod) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) counts[i] = i % mod;
}

__global__ void count_atomic_kernel(int64_t *counts, int64_t n, int64_t items) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < items)
    atomicAdd(reinterpret_cast<unsigned long long *>(counts + (t * 7) % n), 1ULL);
}

__global__ void fill_kernel(const int64_t *offsets, int64_t n, int64_t *content) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int64_t j = offsets[i]; j < offsets[i + 1]; ++j) content[j] = i * 1000 + (j - offsets[i]);
}

__global__ void store_kernel(int64_t *p, int64_t i, int64_t value) { p[i] = value; }

int done() { return static_cast<int>(cudaGetLastError()); }

}  // namespace

extern "C" int jgt_launch_walk(jg_dview v, int64_t first, int64_t last, double *out, int64_t cap,
                               int64_t *result, void *stream) {
  walk_kernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(v, first, last, out, cap, result);
  return done();
}

extern "C" int jgt_launch_walk_each(jg_dview v, int64_t n, int64_t *counts, double *sums,
                                    void *stream) {
  if (n == 0) return 0;
  walk_each_kernel<<<blocks_for(n), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      v, n, counts, sums);
  return done();
}

extern "C" int jgt_launch_sum_pt(jg_dview v, int64_t n, int32_t pt_field, float *out,
                                 void *stream) {
  if (n == 0) return 0;
  sum_pt_kernel<<<blocks_for(n), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(v, pt_field,
                                                                                   out);
  return done();
}

extern "C" int jgt_launch_count_mod(int64_t *counts, int64_t n, int64_t mod, void *stream) {
  if (n == 0) return 0;
  count_mod_kernel<<<blocks_for(n), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(counts, n,
                                                                                      mod);
  return done();
}

extern "C" int jgt_launch_count_atomic(int64_t *counts, int64_t n, int64_t items, void *stream) {
  if (items == 0) return 0;
  count_atomic_kernel<<<blocks_for(items), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      counts, n, items);
  return done();
}

extern "C" int jgt_launch_fill(const int64_t *offsets, int64_t n, int64_t *content,
                               void *stream) {
  if (n == 0) return 0;
  fill_kernel<<<blocks_for(n), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(offsets, n,
                                                                                 content);
  return done();
}

extern "C" int jgt_launch_store(int64_t *p, int64_t i, int64_t value, void *stream) {
  store_kernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(p, i, value);
  return done();
}
