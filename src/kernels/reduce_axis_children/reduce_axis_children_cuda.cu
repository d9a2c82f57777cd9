/* reduce_axis_children_cuda.cu: CUDA implementation of kernel "reduce_axis_children"
 * (reduce_axis_children.json). One thread per merged child c < nchild (neighbouring threads are
 * neighbouring children of one slot, reading the same contributors: broadcast loads), its slot
 * found by a branch-free binary search over child_offsets (the last s with child_offsets[s] <= c); then the same pass
 * over the slot's contributors as the host, in order, so the fill is deterministic without
 * atomics. */
template <typename I>
__global__ void jgk_reduce_axis_children(int64_t nchild, int64_t n, const int64_t *__restrict__ child_offsets,
                                         const int64_t *__restrict__ slot_offsets,
                                         const int64_t *__restrict__ contrib,
                                         const int64_t *__restrict__ axis_pos,
                                         const I *__restrict__ starts, const I *__restrict__ stops,
                                         int64_t fill, int64_t *child_counts, int64_t *__restrict__ contrib_out,
                                         int64_t *__restrict__ axis_pos_out) {
  if (n <= 0) return;
  JGK_FOR(c, nchild) {
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if (child_offsets[lo + half] <= c) lo += half;
      len -= half;
    }
    const int64_t s = lo;
    if (c < child_offsets[s] || c >= child_offsets[s + 1]) continue;
    const int64_t l = c - child_offsets[s];
    int64_t w = fill != 0 ? child_counts[c] : 0;
    for (int64_t r = slot_offsets[s]; r < slot_offsets[s + 1]; ++r) {
      const int64_t q = contrib[r], x = (int64_t)starts[q];
      if ((int64_t)stops[q] - x <= l) continue;
      if (fill != 0) {
        contrib_out[w] = x + l;
        axis_pos_out[w] = axis_pos[r];
      }
      w++;
    }
    if (fill == 0) child_counts[c] = w;
  }
}
