/* take_option_cuda.cu: CUDA implementation of kernel "take_option" (take_option.json). One
 * thread per output position, grid-stride: index[i] and out[i] coalesced, content[j] a gather
 * through the read-only path; an index past the content goes to jgk_fail (atomic minimum: the
 * smallest position, where the host loop stops); content is read only at checked positions. */
template <typename T>
__global__ void jgk_take_option(int64_t n, int64_t m, const T *__restrict__ content,
                                const int64_t *__restrict__ index, T *__restrict__ out,
                                unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t j = index[i];
    if (j < m) {
      out[i] = j < 0 ? (T)0 : content[j];
    } else {
      jgk_fail(error_word, i, JGK_TAKE_OPTION_OUT_OF_RANGE);
    }
  }
}
