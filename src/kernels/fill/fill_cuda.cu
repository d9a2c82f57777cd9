/* fill_cuda.cu: CUDA implementation of kernel "fill" (fill.json). */
template <typename T>
__global__ void jgk_fill(int64_t n, T value, T *out) {
  JGK_FOR(i, n) out[i] = value;
}
