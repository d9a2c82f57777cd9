/* list_mask_offsets_cuda.cu: CUDA implementation of kernel "list_mask_offsets"
 * (list_mask_offsets.json): a thread per LMO_LISTS consecutive lists (grid-stride), reading their
 * starts and stops and the next list's start (a list-offset node's stops are the next starts:
 * one load), checking that it lies back to back with equal counts at
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

/* Lists per thread (consecutive: thread g takes lists LMO_LISTS g .. LMO_LISTS g + 3). */
#define LMO_LISTS 4

/* At most 64 registers (__maxnreg__: 4 blocks of 256 per SM, each thread with its lists' loads
 * in flight together); a macro, so that the catalog's signature check finds the kernel name
 * right after `void`. */
#define LMO_BOUNDS __maxnreg__(64)

template <typename I>
__global__ void LMO_BOUNDS jgk_list_mask_offsets(int64_t n, const I *__restrict__ x_starts,
                                      const I *__restrict__ x_stops,
                                      const I *__restrict__ mask_starts,
                                      const I *__restrict__ mask_stops, int64_t words,
                                      const uint64_t *__restrict__ bits,
                                      const int64_t *__restrict__ pre, int64_t tiles,
                                      int64_t *__restrict__ offsets, int64_t *state) {
  (void)tiles;
  if (n <= 0) return; /* no lists: nothing (the launch has no threads anyway) */
  const int64_t x0 = (int64_t)x_starts[0], xe = (int64_t)x_stops[n - 1];
  const int64_t m0 = (int64_t)mask_starts[0], me = (int64_t)mask_stops[n - 1];
  const int64_t e_total = xe - x0, shift = m0 - x0;
  if (x0 < 0 || xe < x0 || m0 < 0 || me < m0 || me - m0 != e_total ||
      words < 0 || (uint64_t)e_total > (uint64_t)words * WORD) { /* the same in every block */
    if (blockIdx.x == 0 && threadIdx.x == 0) state[2] = 1;
    return;
  }
  /* List-offset nodes pass stops = starts + 1: then a list's stop is the next one's start, one
   * load (uniform). */
  const bool x_off = x_stops == x_starts + 1, m_off = mask_stops == mask_starts + 1;
  bool bad = false;
  const int64_t groups = (n + LMO_LISTS - 1) / LMO_LISTS;
  const int64_t stride = (int64_t)blockDim.x * gridDim.x;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
    const int64_t i0 = g * LMO_LISTS;
    /* the starts of lists i0 .. i0 + LMO_LISTS (the last: the next group's first, or the
     * flat streams' ends past the last list), all loads at once */
    int64_t a[LMO_LISTS + 1], c[LMO_LISTS + 1], b[LMO_LISTS], d[LMO_LISTS];
#pragma unroll
    for (int k = 0; k <= LMO_LISTS; ++k) {
      const bool in = i0 + k < n;
      a[k] = in ? (int64_t)x_starts[i0 + k] : xe;
      c[k] = in ? (int64_t)mask_starts[i0 + k] : me;
    }
#pragma unroll
    for (int k = 0; k < LMO_LISTS; ++k) {
      const bool in = i0 + k < n;
      b[k] = x_off || !in ? a[k + 1] : (int64_t)x_stops[i0 + k];
      d[k] = m_off || !in ? c[k + 1] : (int64_t)mask_stops[i0 + k];
    }
    /* simple: not reversed, at the same place of both flat streams with the same count, and the
     * next list starts at its stop (then every list lies inside [x0, xe] and [m0, me]; the last
     * list's stop is xe by definition) */
#pragma unroll
    for (int k = 0; k < LMO_LISTS; ++k) {
      const int64_t i = i0 + k;
      if (i >= n) break;
      bad = bad || b[k] < a[k] || c[k] - a[k] != shift || d[k] - b[k] != shift ||
            b[k] != a[k + 1];
      const int64_t p = a[k] - x0;
      offsets[i] = (uint64_t)p <= (uint64_t)e_total ? lmo_rank(bits, pre, p) : 0;
      if (i == n - 1) offsets[n] = lmo_rank(bits, pre, e_total);
    }
  }
  if (__syncthreads_or(bad) != 0 && threadIdx.x == 0)
    atomicOr((unsigned long long *)&state[2], 1ULL);
}
