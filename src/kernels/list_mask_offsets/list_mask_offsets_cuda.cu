/* list_mask_offsets_cuda.cu: CUDA implementation of kernel "list_mask_offsets"
 * (list_mask_offsets.json): one thread per list (grid-stride), reading its starts and stops
 * and the next list's starts coalesced, checking that it lies back to back with equal counts at
 * the same place of both flat streams, and ranking its start in the flat stream with
 * list_mask_select's rank words (the words of consecutive lists are mostly the same, so those
 * reads are cached). A block that found a list that is not simple raises the flag state[2]
 * once, after a block-wide OR. */

/* Elements per rank word. */
#define WORD 64

/* The kept elements before element p (0 <= p, (p - 1) / WORD < words) of the flat stream. */
__device__ inline int64_t lmo_rank(const uint64_t *__restrict__ bits,
                                   const int64_t *__restrict__ pre, int64_t p) {
  if (p <= 0) return 0;
  const int64_t w = (p - 1) / WORD;
  const int hi = (int)(p - w * WORD); /* 1..64 bits of word w lie before p */
  const unsigned long long below = hi == WORD ? ~0ULL : (1ULL << hi) - 1ULL;
  return pre[w] + (int64_t)__popcll((unsigned long long)bits[w] & below);
}

template <typename I>
__global__ void jgk_list_mask_offsets(int64_t n, const I *__restrict__ x_starts,
                                      const I *__restrict__ x_stops,
                                      const I *__restrict__ mask_starts,
                                      const I *__restrict__ mask_stops, int64_t words,
                                      const uint64_t *__restrict__ bits,
                                      const int64_t *__restrict__ pre, int64_t tiles,
                                      int64_t *__restrict__ offsets, int64_t *state) {
  (void)tiles;
  bool global_ok = n > 0;
  int64_t x0 = 0, xe = 0, m0 = 0, me = 0;
  if (global_ok) {
    x0 = (int64_t)x_starts[0];
    xe = (int64_t)x_stops[n - 1];
    m0 = (int64_t)mask_starts[0];
    me = (int64_t)mask_stops[n - 1];
    global_ok = x0 >= 0 && xe >= x0 && m0 >= 0 && me >= m0 && me - m0 == xe - x0 &&
                words >= (xe - x0 + WORD - 1) / WORD;
  }
  if (!global_ok) { /* the same in every block */
    if (blockIdx.x == 0 && threadIdx.x == 0) state[2] = 1;
    return;
  }
  bool bad = false;
  JGK_FOR(i, n) {
    const int64_t a = (int64_t)x_starts[i], b = (int64_t)x_stops[i];
    const int64_t c = (int64_t)mask_starts[i], d = (int64_t)mask_stops[i];
    const bool in_x = a >= x0 && a <= xe;
    bool ok = in_x && b >= a && b <= xe && c >= m0 && d >= c && d <= me && b - a == d - c &&
              c - m0 == a - x0;
    if (i + 1 < n) {
      ok = ok && b == (int64_t)x_starts[i + 1] && d == (int64_t)mask_starts[i + 1];
    } else {
      offsets[n] = lmo_rank(bits, pre, xe - x0);
    }
    bad = bad || !ok;
    offsets[i] = in_x ? lmo_rank(bits, pre, a - x0) : 0;
  }
  if (__syncthreads_or(bad) != 0 && threadIdx.x == 0)
    atomicOr((unsigned long long *)&state[2], 1ULL);
}
