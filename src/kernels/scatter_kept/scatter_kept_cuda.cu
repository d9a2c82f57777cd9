/* scatter_kept_cuda.cu: CUDA implementation of kernel "scatter_kept" (scatter_kept.json): one
 * thread per entry; prefix and index are read coalesced and the kept entries of a warp write
 * neighbouring positions of out. Bad steps go to the error word (smallest wins). */
__global__ void jgk_scatter_kept(int64_t n, int64_t m, const int64_t *__restrict__ prefix,
                                 const int64_t *__restrict__ index, int64_t *__restrict__ out,
                                 unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t a = prefix[i];
    const uint64_t d = (uint64_t)prefix[i + 1] - (uint64_t)a;
    if (d > 1u || (d == 1u && (a < 0 || a >= m))) {
      jgk_fail(error_word, i, JGK_SCATTER_KEPT_BAD_PREFIX);
    } else if (d == 1u) {
      out[a] = index[i];
    }
  }
}
