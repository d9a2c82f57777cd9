/* dispatch_kernels.cu: the baseline of bench_dispatch: the same fill written by hand and launched
 * with <<<>>>, to measure what the catalog's checks and dispatch add to a launch. */
#include <cuda_runtime_api.h>
#include <stdint.h>

__global__ void bench_fill_raw(int64_t n, double value, double *out) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gridDim.x)
    out[i] = value;
}

extern "C" int bench_fill_raw_launch(int64_t n, double value, double *out, void *stream) {
  const int block = 256;
  const int64_t grid = n / block + (n % block != 0);
  bench_fill_raw<<<(unsigned)(grid > 0 ? grid : 1), block, 0, (cudaStream_t)stream>>>(n, value,
                                                                                      out);
  return (int)cudaGetLastError();
}
