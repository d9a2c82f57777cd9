/* take_cuda.cu: CUDA implementation of kernel "take" (take.json). One thread per output
 * position, grid-stride: index[i] and out[i] are coalesced, content[j] a gather through the
 * read-only path (const __restrict__). A position whose index lies outside [-m, m) goes to the
 * error word with jgk_fail, whose atomic minimum keeps the smallest position, the one the host
 * loop stops at; content is read only at checked positions. */
template <typename T>
__global__ void jgk_take(int64_t n, int64_t m, const T *__restrict__ content,
                         const int64_t *__restrict__ index, T *__restrict__ out,
                         unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t j = index[i];
    if (m > 0 && (j < 0 ? j >= -m : j < m)) {
      out[i] = content[j < 0 ? j + m : j];
    } else {
      jgk_fail(error_word, i, JGK_TAKE_OUT_OF_RANGE);
    }
  }
}
