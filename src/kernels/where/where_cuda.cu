/* where_cuda.cu: CUDA implementation of kernel "where" (where.json): the host's length checks
 * (the same one error for every thread, so the first bad length in the host's order is the one
 * reported), then one thread per element, grid-stride, coalesced. */
template <typename T>
__global__ void jgk_where(int64_t n, int64_t nc, const bool *__restrict__ cond, int64_t nx,
                          const T *__restrict__ x, int64_t ny, const T *__restrict__ y,
                          T *__restrict__ out, unsigned long long *error_word) {
  if (n <= 0) return;
  const int64_t bad = nc != n && nc != 1 ? nc : nx != n && nx != 1 ? nx : ny != n && ny != 1 ? ny : -1;
  if (bad >= 0) {
    if (blockIdx.x == 0 && threadIdx.x == 0) jgk_fail(error_word, bad, JGK_WHERE_BAD_LENGTH);
    return;
  }
  const int64_t sc = nc == n, sx = nx == n, sy = ny == n;
  JGK_FOR(i, n) { out[i] = cond[sc * i] ? x[sx * i] : y[sy * i]; }
}
