/* list_parents_cuda.cu: CUDA implementation of kernel "list_parents" (list_parents.json).
 *
 * Two grid-stride passes in one launch, as local_index's (see local_index_cuda.cu for why one
 * thread per element with a binary search beats a thread or a warp per list on jagged data):
 *  1. one thread per list checks it with the host's predicate and sends a bad list to jgk_fail
 *     (atomic minimum: the smallest bad list, where the host loop stops);
 *  2. one thread per element k finds its list by a branch-free binary search over offsets (the
 *     last list i with offsets[i] - offsets[0] <= k) and writes i. Empty lists are skipped by the
 *     search ("last i" lands on the non-empty list that holds k).
 * Reads and writes stay in bounds whatever the offsets hold (out[0..min(m, covered))). */
template <typename I>
__global__ void jgk_list_parents(int64_t n, int64_t m, const I *__restrict__ offsets,
                                 int64_t *__restrict__ out, unsigned long long *error_word) {
  if (n <= 0) return;
  const int64_t base = (int64_t)offsets[0];
  JGK_FOR(i, n) {
    const int64_t a = (int64_t)offsets[i], b = (int64_t)offsets[i + 1];
    if (!(base <= a && a <= b && m >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)m)) {
      jgk_fail(error_word, i, JGK_LIST_PARENTS_BAD_OFFSETS);
    }
  }
  if (m <= 0) return;
  const uint64_t covered = (uint64_t)(int64_t)offsets[n] - (uint64_t)base;
  const int64_t total = covered < (uint64_t)m ? (int64_t)covered : m;
  JGK_FOR(k, total) {
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if ((uint64_t)(int64_t)offsets[lo + half] - (uint64_t)base <= (uint64_t)k) lo += half;
      len -= half;
    }
    out[k] = lo;
  }
}
