/* list_take_cuda.cu: CUDA implementation of kernel "list_take" (list_take.json), in the shape of
 * local_index_cuda.cu: pass 1, one thread per index list, checks its offsets (BAD_OFFSETS);
 * pass 2, one thread per entry p, finds its list by a branch-free binary search over offsets
 * (the last i with offsets[i] - offsets[0] <= p) and computes the host's value. Errors go to the
 * error word with the list number, so the smallest list and, within it, the smallest code win,
 * as on the host. The work per thread does not depend on the list lengths; the reads of ipos and
 * the stores are coalesced, starts/counts broadcast within a list. With bad offsets, an entry
 * is skipped unless it lies inside the list the search found, and only out[0..min(n, covered))
 * is written. */
template <typename J>
__global__ void jgk_list_take(int64_t nlists, int64_t n, const int64_t *__restrict__ offsets,
                              int64_t m, const J *__restrict__ index, int64_t identity,
                              const int64_t *__restrict__ ipos, int64_t valid_mode,
                              const int8_t *__restrict__ valid,
                              const int64_t *__restrict__ starts,
                              const int64_t *__restrict__ counts, int64_t *__restrict__ out,
                              unsigned long long *error_word) {
  if (nlists <= 0) return;
  const int64_t base = offsets[0];
  JGK_FOR(i, nlists) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    if (!(base <= a && a <= b && n >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)n)) {
      jgk_fail(error_word, i, JGK_LIST_TAKE_BAD_OFFSETS);
    }
  }
  if (n <= 0) return;
  const uint64_t covered = (uint64_t)offsets[nlists] - (uint64_t)base;
  const int64_t total = covered < (uint64_t)n ? (int64_t)covered : n;
  JGK_FOR(p, total) {
    int64_t lo = 0, len = nlists;
    while (len > 1) {
      const int64_t half = len >> 1;
      if ((uint64_t)offsets[lo + half] - (uint64_t)base <= (uint64_t)p) lo += half;
      len -= half;
    }
    const int64_t a = offsets[lo], b = offsets[lo + 1];
    if (!(base <= a && a <= b && (uint64_t)a - (uint64_t)base <= (uint64_t)p &&
          (uint64_t)p < (uint64_t)b - (uint64_t)base)) {
      continue;
    }
    const int64_t q = identity ? p : ipos[p];
    if (q < 0 || q >= m) {
      jgk_fail(error_word, lo, JGK_LIST_TAKE_BAD_POSITION);
      continue;
    }
    if (valid_mode != 0 && (valid[q] != 0) != (valid_mode == 1)) {
      out[p] = -1;
      continue;
    }
    const int64_t v = (int64_t)index[q];
    const int64_t c = counts[lo];
    if (!(c > 0 && (v < 0 ? v >= -c : v < c))) {
      jgk_fail(error_word, lo, JGK_LIST_TAKE_OUT_OF_RANGE);
      continue;
    }
    out[p] = starts[lo] + (v < 0 ? v + c : v);
  }
}
