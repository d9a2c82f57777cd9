/* broadcast_carry_cuda.cu: CUDA implementation of kernel "broadcast_carry"
 * (broadcast_carry.json). One thread per output element, grid-stride: parents[j] and out[j] are
 * coalesced; carry, offsets and starts are gathers through the read-only path, mostly hitting
 * the same cache lines for the elements of one list. */
template <typename I>
__global__ void jgk_broadcast_carry(int64_t total, int64_t n, const int64_t *__restrict__ parents,
                                    const int64_t *__restrict__ offsets, int64_t identity,
                                    int64_t base, const int64_t *__restrict__ carry, int64_t mode,
                                    int64_t size, const I *__restrict__ starts,
                                    int64_t *__restrict__ out) {
  (void)n;
  if (total <= 0) return;
  const int64_t o0 = offsets[0];
  JGK_FOR(j, total) {
    const int64_t p = parents[j];
    const int64_t c = identity != 0 ? base + p : carry[p];
    if (c < 0) {
      out[j] = -1;
    } else if (mode == 0) {
      out[j] = c;
    } else {
      const int64_t s = size >= 0 ? c * size : (int64_t)starts[c];
      out[j] = s + (j - (offsets[p] - o0));
    }
  }
}
