/* list_carry_cuda.cu: CUDA implementation of kernel "list_carry" (list_carry.json). One thread
 * per output list, grid-stride, the host reference's steps list by list (same predicates, same
 * outputs); a bad entry goes to the error word with jgk_fail, whose atomic minimum keeps the
 * smallest, the one the host loop stops at. Loads of index and stores of the outputs are
 * coalesced; starts[j]/stops[j] are gathers through the read-only path. */
template <typename I>
__global__ void jgk_list_carry(int64_t n, int64_t nlists, int64_t m, int64_t mode,
                               const I *__restrict__ starts, const I *__restrict__ stops,
                               const int64_t *__restrict__ index, int64_t target, int64_t clip,
                               int64_t accumulate, int64_t shift, int64_t *__restrict__ out_starts,
                               int64_t *__restrict__ out_stops, int64_t *__restrict__ counts,
                               unsigned long long *error_word) {
  JGK_FOR(i, n) {
    int64_t a = 0, b = 0;
    int code = -1;
    if (mode == 3) {
      const int64_t j = index[i];
      if (j >= m) {
        code = JGK_LIST_CARRY_BAD_INDEX;
      } else if (j >= 0) {
        a = j;
        b = j + 1;
      }
    } else {
      const int64_t j = mode == 0 ? i : mode == 2 ? 0 : index[i];
      if (j >= nlists) {
        code = JGK_LIST_CARRY_BAD_INDEX;
      } else if (j >= 0) {
        a = (int64_t)starts[j];
        b = (int64_t)stops[j];
        if (b < a || (a < b && (a < 0 || b > m))) code = JGK_LIST_CARRY_BAD_RANGE;
        if (a == b) a = b = 0;
      }
    }
    if (code >= 0) {
      jgk_fail(error_word, i, code);
    } else {
      const int64_t len = b - a;
      const int64_t padded = clip != 0 ? target : (len > target ? len : target);
      out_starts[i] = a + shift;
      out_stops[i] = b + shift;
      counts[i] = accumulate != 0 ? counts[i] + padded : padded;
    }
  }
}
