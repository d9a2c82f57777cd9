/* list_count_cuda.cu: CUDA implementation of kernel "list_count" (list_count.json). Nothing to
 * reduce, so one thread per list (grid-stride): out[i] = stops[i] - starts[i], taken in
 * uint64_t; a list with stops < starts or a length beyond INT64_MAX goes to the error word (the
 * host's predicate; the atomic minimum keeps the first). */
template <typename I>
__global__ void jgk_list_count(int64_t n, const I *__restrict__ starts, const I *__restrict__ stops,
                               int64_t *__restrict__ out, unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    const uint64_t len = (uint64_t)b - (uint64_t)a;
    if (b < a || len > (uint64_t)9223372036854775807LL) {
      jgk_fail(error_word, i, JGK_LIST_COUNT_BAD_RANGE);
    } else {
      out[i] = (int64_t)len;
    }
  }
}
