/* list_gather_index_cuda.cu: CUDA implementation of kernel "list_gather_index"
 * (list_gather_index.json).
 *
 * Two grid-stride passes in one launch, as local_index_cuda.cu: one thread per list checks its
 * offsets with the host's predicate (a bad list goes to jgk_fail; the atomic minimum keeps the
 * smallest); one thread per output position q < min(total, offsets[n]) finds its list by a
 * branch-free binary search over offsets (the last i with offsets[i] <= q) and writes starts[i] +
 * (q - offsets[i]) or -1. Work per thread is the same whatever the list lengths (one long list
 * spreads over the whole GPU, empty lists cost nothing), stores are coalesced. With bad offsets
 * the writes stay inside out[0, total) and the call reports the error. */
__global__ void jgk_list_gather_index(int64_t n, const int64_t *__restrict__ starts,
                                      const int64_t *__restrict__ stops,
                                      const int64_t *__restrict__ offsets, int64_t total,
                                      int64_t *__restrict__ out, unsigned long long *error_word) {
  if (n <= 0) return;
  JGK_FOR(i, n) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    if (!(0 <= a && a <= b && b <= total)) jgk_fail(error_word, i, JGK_LIST_GATHER_INDEX_BAD_OFFSETS);
  }
  const int64_t last = offsets[n];
  const int64_t covered = last < total ? last : total;
  JGK_FOR(q, covered) {
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if (offsets[lo + half] <= q) lo += half;
      len -= half;
    }
    const int64_t k = q - offsets[lo];
    const int64_t s = starts[lo], l = stops[lo] - s;
    out[q] = k < l ? s + k : -1;
  }
}
