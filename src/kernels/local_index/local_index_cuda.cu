/* local_index_cuda.cu: CUDA implementation of kernel "local_index" (local_index.json).
 *
 * Two grid-stride passes in one launch:
 *  1. one thread per list checks it with the host's predicate (offsets[0] <= offsets[i] <=
 *     offsets[i+1] <= offsets[0] + m) and sends a bad list to jgk_fail, whose atomic minimum
 *     keeps the smallest one, the list the host loop stops at;
 *  2. one thread per element k of out finds its list by a binary search over offsets (the last
 *     list i with offsets[i] - offsets[0] <= k) and writes k - (offsets[i] - offsets[0]).
 *
 * Why one thread per element with a search rather than one thread or one warp per list: the
 * work per thread is the same whatever the list lengths (ceil(log2 n) loads, then one store),
 * so one list of 2^22 elements spreads over the whole GPU and a million empty lists cost
 * nothing in pass 2, while a thread per list serialises a long list in one thread and a warp per
 * list leaves 31 of 32 lanes idle on lists of length 0 or 1 (the common case in jagged data).
 * The search is branch-free with a fixed trip count (no divergence), neighbouring threads probe
 * the same offsets (one broadcast load per warp and step, the upper levels hot in L1/L2), and
 * the stores are coalesced. It also needs no shared memory or warp-synchronous code, so it is
 * correct for every block size (1..1024) and grid the caller may choose.
 *
 * Memory safety with bad offsets: the search only reads offsets[0..n-1], pass 2 writes only
 * out[0..min(m, offsets[n] - offsets[0])), both in bounds whatever the offsets hold; the content
 * of out is then unspecified, and the call reports the error. */
template <typename I>
__global__ void jgk_local_index(int64_t n, int64_t m, const I *__restrict__ offsets,
                                int64_t *__restrict__ out, unsigned long long *error_word) {
  if (n <= 0) return;
  const int64_t base = (int64_t)offsets[0];
  JGK_FOR(i, n) {
    const int64_t a = (int64_t)offsets[i], b = (int64_t)offsets[i + 1];
    if (!(base <= a && a <= b && m >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)m)) {
      jgk_fail(error_word, i, JGK_LOCAL_INDEX_BAD_OFFSETS);
    }
  }
  if (m <= 0) return;
  /* Elements the lists cover, never more than m (out's length) even for bad offsets. */
  const uint64_t covered = (uint64_t)(int64_t)offsets[n] - (uint64_t)base;
  const int64_t total = covered < (uint64_t)m ? (int64_t)covered : m;
  JGK_FOR(k, total) {
    /* The answer stays in [lo, lo + len); offsets[0] - base = 0 <= k holds at lo = 0. */
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if ((uint64_t)(int64_t)offsets[lo + half] - (uint64_t)base <= (uint64_t)k) lo += half;
      len -= half;
    }
    out[k] = k - (int64_t)((uint64_t)(int64_t)offsets[lo] - (uint64_t)base);
  }
}
