/* range_carry_cuda.cu: CUDA implementation of kernel "range_carry" (range_carry.json), in the
 * shape of local_index_cuda.cu: pass 1, one thread per range, checks it with the host's
 * predicate (a bad range goes to the error word; the smallest wins); pass 2, one thread per
 * output position k, finds its range by a branch-free binary search over offsets (the last i
 * with offsets[i] - offsets[0] <= k) and writes starts[i] + (k - (offsets[i] - offsets[0])) *
 * step. The work per thread does not depend on the range lengths, so one huge range and
 * millions of empty ones both spread over the GPU; the stores are coalesced.
 * Memory safety with bad offsets: the search reads only offsets[0..n-1] and pass 2 writes only
 * out[0..min(m, offsets[n] - offsets[0])). */
__global__ void jgk_range_carry(int64_t n, int64_t m, const int64_t *__restrict__ offsets,
                                const int64_t *__restrict__ starts, int64_t step,
                                int64_t *__restrict__ out, unsigned long long *error_word) {
  if (n <= 0) return;
  const int64_t base = offsets[0];
  JGK_FOR(i, n) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    if (!(base <= a && a <= b && m >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)m)) {
      jgk_fail(error_word, i, JGK_RANGE_CARRY_BAD_OFFSETS);
    }
  }
  if (m <= 0) return;
  const uint64_t covered = (uint64_t)offsets[n] - (uint64_t)base;
  const int64_t total = covered < (uint64_t)m ? (int64_t)covered : m;
  JGK_FOR(k, total) {
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if ((uint64_t)offsets[lo + half] - (uint64_t)base <= (uint64_t)k) lo += half;
      len -= half;
    }
    const uint64_t j = (uint64_t)k - ((uint64_t)offsets[lo] - (uint64_t)base);
    out[k] = (int64_t)((uint64_t)starts[lo] + j * (uint64_t)step);
  }
}
