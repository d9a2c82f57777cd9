/* reduce_axis_start_cuda.cu: CUDA implementation of kernel "reduce_axis_start"
 * (reduce_axis_start.json). One thread per contributor r < total (coalesced stores of contrib and axis_pos),
 * its slot found by a branch-free binary search over slot_offsets (the last p with slot_offsets[p] <= r), as
 * local_index does; slots whose range leaves [0, total] are skipped, as on the host. */
template <typename I>
__global__ void jgk_reduce_axis_start(int64_t n, const int64_t *__restrict__ slot_offsets,
                                      const I *__restrict__ starts, int64_t total,
                                      int64_t *__restrict__ contrib, int64_t *__restrict__ axis_pos) {
  if (n <= 0) return;
  JGK_FOR(r, total) {
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if (slot_offsets[lo + half] <= r) lo += half;
      len -= half;
    }
    const int64_t a = slot_offsets[lo], b = slot_offsets[lo + 1];
    if (a < 0 || b < a || b > total || r < a || r >= b) continue;
    contrib[r] = (int64_t)starts[lo] + (r - a);
    axis_pos[r] = r - a;
  }
}
