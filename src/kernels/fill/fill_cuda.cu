/* fill_cuda.cu: CUDA implementation of kernel "fill" (fill.json). */
template <typename T>
__global__ void jgk_fill(int64_t n, double value, T *out) {
  const T v = (T)value;
  JGK_FOR(i, n) out[i] = v;
}
