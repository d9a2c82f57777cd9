/* counts_equal_cuda.cu: CUDA implementation of kernel "counts_equal" (counts_equal.json): one
 * thread per list; the smallest differing list wins through the error word. */
template <typename I, typename J>
__global__ void jgk_counts_equal(int64_t n, const I *starts_a, const I *stops_a,
                                 const J *starts_b, const J *stops_b,
                                 unsigned long long *error_word) {
  JGK_FOR(i, n) {
    if ((int64_t)stops_a[i] - (int64_t)starts_a[i] != (int64_t)stops_b[i] - (int64_t)starts_b[i])
      jgk_fail(error_word, i, JGK_COUNTS_EQUAL_DIFFERENT);
  }
}
