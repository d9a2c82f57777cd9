/* reduce_axis_argpos_cuda.cu: CUDA implementation of kernel "reduce_axis_argpos"
 * (reduce_axis_argpos.json): one thread per slot (coalesced pick, slot_offsets and out; axis_pos gathered), the
 * host's bounds checks. */
__global__ void jgk_reduce_axis_argpos(int64_t n, const int64_t *__restrict__ slot_offsets, int64_t total,
                                       const int64_t *__restrict__ axis_pos,
                                       const int64_t *__restrict__ pick,
                                       int64_t *__restrict__ out) {
  JGK_FOR(s, n) {
    const int64_t p = pick[s], a = slot_offsets[s], b = slot_offsets[s + 1];
    out[s] = p >= 0 && a >= 0 && b <= total && p < b - a ? axis_pos[a + p] : -1;
  }
}
