/* fill_none_cuda.cu: CUDA implementation of kernel "fill_none" (fill_none.json): one thread
 * per position, grid-stride; index and out coalesced, content a gather through the read-only
 * path; an index >= m goes to jgk_fail (the smallest position wins, as on the host). */
template <typename T>
__global__ void jgk_fill_none(int64_t n, const int64_t *__restrict__ index, int64_t m,
                              const T *__restrict__ content, T value, T *__restrict__ out,
                              unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t j = index[i];
    if (j >= m) {
      jgk_fail(error_word, i, JGK_FILL_NONE_OUT_OF_RANGE);
    } else {
      out[i] = j < 0 ? value : content[j];
    }
  }
}
