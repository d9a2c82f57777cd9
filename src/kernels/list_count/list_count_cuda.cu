/* list_count_cuda.cu: CUDA implementation of kernel "list_count" (list_count.json). Nothing to
 * reduce, so one thread per list (grid-stride): out[i] = stops[i] - starts[i]; a bad list
 * (jgk_list_bad against the m content elements, the host's predicate) goes to the error word
 * (the atomic minimum keeps the first). */
template <typename I>
__global__ void jgk_list_count(int64_t n, const I *__restrict__ starts, const I *__restrict__ stops,
                               int64_t m, int64_t *__restrict__ out,
                               unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    if (jgk_list_bad(a, b, m)) {
      jgk_fail(error_word, i, JGK_LIST_COUNT_BAD_RANGE);
    } else {
      out[i] = b - a;
    }
  }
}
