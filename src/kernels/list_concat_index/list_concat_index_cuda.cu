/* list_concat_index_cuda.cu: CUDA implementation of kernel "list_concat_index"
 * (list_concat_index.json).
 *
 * Two grid-stride passes in one launch: one thread per output list checks it with the host's
 * predicate (jgk_fail keeps the smallest bad list); one thread per output position q <
 * min(total, offsets[n]) finds its list i by a branch-free binary search over offsets and walks
 * the k sources (k is small: the arrays being joined) to the one that holds its slot, writing
 * base[j] + starts[j*n + i] + slot. Balanced whatever the list lengths; stores coalesced. With
 * bad offsets the writes stay inside out[0, total) and the call reports the error. */
__global__ void jgk_list_concat_index(int64_t n, int64_t k, const int64_t *__restrict__ starts,
                                      const int64_t *__restrict__ stops,
                                      const int64_t *__restrict__ base,
                                      const int64_t *__restrict__ offsets, int64_t total,
                                      int64_t *__restrict__ out, unsigned long long *error_word) {
  if (n <= 0) return;
  JGK_FOR(i, n) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    int64_t sum = 0;
    for (int64_t j = 0; j < k; ++j) sum += stops[j * n + i] - starts[j * n + i];
    if (!(0 <= a && a <= b && b <= total && b - a == sum)) {
      jgk_fail(error_word, i, JGK_LIST_CONCAT_INDEX_BAD_OFFSETS);
    }
  }
  const int64_t last = offsets[n];
  const int64_t covered = last < total ? last : total;
  JGK_FOR(q, covered) {
    int64_t i = 0, span = n;
    while (span > 1) {
      const int64_t half = span >> 1;
      if (offsets[i + half] <= q) i += half;
      span -= half;
    }
    int64_t slot = q - offsets[i];
    int64_t value = -1;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t s = starts[j * n + i], len = stops[j * n + i] - s;
      if (slot < len) {
        value = base[j] + s + slot;
        break;
      }
      slot -= len;
    }
    out[q] = value;
  }
}
