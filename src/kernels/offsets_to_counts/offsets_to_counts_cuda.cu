/* offsets_to_counts_cuda.cu: CUDA implementation of kernel "offsets_to_counts"
 * (offsets_to_counts.json). One thread per list, grid-stride: offsets[i] and offsets[i+1] are
 * coalesced loads (the second mostly from L1), counts[i] a coalesced store. A bad list goes to
 * the error word with jgk_fail, whose atomic minimum keeps the smallest list, the one the host
 * loop stops at; the predicate is the host's, list by list. */
template <typename I>
__global__ void jgk_offsets_to_counts(int64_t n, const I *__restrict__ offsets,
                                      int64_t *__restrict__ counts,
                                      unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t a = (int64_t)offsets[i], b = (int64_t)offsets[i + 1];
    const uint64_t d = (uint64_t)b - (uint64_t)a;
    if (b < a) {
      jgk_fail(error_word, i, JGK_OFFSETS_TO_COUNTS_DECREASING);
    } else if (d > 0x7fffffffffffffffULL) {
      jgk_fail(error_word, i, JGK_OFFSETS_TO_COUNTS_TOO_LONG);
    } else {
      counts[i] = (int64_t)d;
    }
  }
}
