/* cast_cuda.cu: CUDA implementation of kernel "cast" (cast.json): one thread per element,
 * grid-stride, coalesced; the C++ conversion is C's (round to nearest for wide integers to
 * floats), so both sides agree bit for bit. */
template <typename T, typename U>
__global__ void jgk_cast(int64_t n, const T *__restrict__ x, U *__restrict__ out) {
  JGK_FOR(i, n) { out[i] = (U)x[i]; }
}
