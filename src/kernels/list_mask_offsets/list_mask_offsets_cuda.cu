/* list_mask_offsets_cuda.cu: CUDA implementation of kernel "list_mask_offsets"
 * (list_mask_offsets.json): checks that every list lies back to back with the next, with equal
 * counts at the same place of both flat streams, and writes its offset, the rank of its start in
 * the flat stream from list_mask_select's rank words. A block that found a list that is not
 * simple raises the flag state[2] once, after a block-wide OR.
 *
 * The lists are striped over a warp: a chunk is 32 LMO_LISTS consecutive lists, of which lane l
 * takes lists base + l + 32 k (k < LMO_LISTS), so that every load of the starts and every store
 * of the offsets is coalesced (256 bytes a warp for int64, where a thread's run of consecutive
 * lists gave 32-byte strided accesses and four times the L1 wavefronts). A list's stop is the
 * next list's start when the list node is list-offset (stops = starts + 1), and that next start
 * comes from the neighbour lane by a shuffle (lane 31 takes lane 0's of the next stripe, or the
 * next chunk's first start: one broadcast load a warp), so the starts are loaded once. The rank
 * words of consecutive lists are mostly the same: those reads are cached. A block's warps take
 * consecutive chunks, and the grid strides over them; any grid and block are correct (a partial
 * last warp stripes over its own lanes). Two lists a lane keep it at 48 registers (5 blocks of
 * 256 per SM); with list_mask_select's two-tile units, this took x[mask] from 1.03 to 0.83 ms at
 * 50 M lists on the H200 (BENCHMARKS.md, "Sixth session of issue 5"). */

/* Elements per rank word; lists per lane in a chunk. */
#define WORD 64
#define LMO_LISTS 2

/* The kept elements before element p (0 <= p, (p - 1) / WORD < words) of the flat stream: the
 * word's low bits by a shift, no branch on the bit count. */
__device__ inline int64_t lmo_rank(const uint64_t *__restrict__ bits,
                                   const int64_t *__restrict__ pre, int64_t p) {
  if (p <= 0) return 0;
  const uint64_t q = (uint64_t)(p - 1);
  const int64_t w = (int64_t)(q >> 6);
  const unsigned sh = 63u - (unsigned)(q & 63u); /* 64 - (bits of word w before p) */
  return pre[w] + (int64_t)__popcll((unsigned long long)bits[w] & (~0ULL >> sh));
}

/* The starts (x and mask) of the warp's chunk from list `base`: lane l takes lists
 * base + l + width k; lists past n read as the flat ends (xe, me). */
template <typename I>
__device__ inline void lmo_load(int64_t n, const I *__restrict__ x_starts,
                                const I *__restrict__ mask_starts, int64_t xe, int64_t me,
                                int64_t base, int lane, int width, int64_t (&a)[LMO_LISTS],
                                int64_t (&c)[LMO_LISTS], int64_t &at, int64_t &ct) {
#pragma unroll
  for (int k = 0; k < LMO_LISTS; ++k) {
    const int64_t i = base + lane + (int64_t)width * k;
    a[k] = i < n ? (int64_t)x_starts[i] : xe;
    c[k] = i < n ? (int64_t)mask_starts[i] : me;
  }
  const int64_t ti = base + (int64_t)width * LMO_LISTS; /* the next chunk's first (uniform) */
  at = ti < n ? (int64_t)x_starts[ti] : xe;
  ct = ti < n ? (int64_t)mask_starts[ti] : me;
}

/* Checks the warp's chunk at `base` (starts a, c loaded by lmo_load) and writes its offsets.
 * Every lane of the warp (mask wm, `width` lanes) calls it: the shuffles need them all. */
template <typename I>
__device__ inline void lmo_chunk(int64_t n, const I *__restrict__ x_stops,
                                 const I *__restrict__ mask_stops, bool x_off, bool m_off,
                                 int64_t x0, int64_t e_total, int64_t shift,
                                 const uint64_t *__restrict__ bits, const int64_t *__restrict__ pre,
                                 int64_t *__restrict__ offsets, int64_t base, int lane, int width,
                                 unsigned wm, const int64_t (&a)[LMO_LISTS],
                                 const int64_t (&c)[LMO_LISTS], int64_t at, int64_t ct, bool &bad) {
  const int src = lane + 1 < width ? lane + 1 : lane;
  const bool last_lane = lane == width - 1;
  const bool both = x_off && m_off; /* uniform */
#pragma unroll
  for (int k = 0; k < LMO_LISTS; ++k) {
    const int64_t i = base + lane + (int64_t)width * k;
    /* the next list's starts: the neighbour lane's, or lane 0's of the next stripe, or the next
     * chunk's first */
    const int64_t na = (int64_t)__shfl_sync(wm, (long long)a[k], src);
    const int kn = k + 1 < LMO_LISTS ? k + 1 : k; /* (unrolled: a constant) */
    const int64_t wa = k + 1 < LMO_LISTS ? (int64_t)__shfl_sync(wm, (long long)a[kn], 0) : at;
    const int64_t nxt_a = last_lane ? wa : na;
    if (both) {
      /* b = the next start and d = the next mask start: d - b == shift is the next list's own
       * check (or, after the last, the flat ranges' check), b == the next start by definition */
      if (i < n) bad = bad || nxt_a < a[k] || c[k] - a[k] != shift;
    } else {
      const int64_t nc = (int64_t)__shfl_sync(wm, (long long)c[k], src);
      const int64_t wc = k + 1 < LMO_LISTS ? (int64_t)__shfl_sync(wm, (long long)c[kn], 0) : ct;
      const int64_t nxt_c = last_lane ? wc : nc;
      if (i < n) {
        const int64_t b = x_off ? nxt_a : (int64_t)x_stops[i];
        const int64_t d = m_off ? nxt_c : (int64_t)mask_stops[i];
        bad = bad || b < a[k] || c[k] - a[k] != shift || d - b != shift || b != nxt_a;
      }
    }
    if (i < n) {
      const int64_t p = a[k] - x0;
      offsets[i] = (uint64_t)p <= (uint64_t)e_total ? lmo_rank(bits, pre, p) : 0;
      if (i == n - 1) offsets[n] = lmo_rank(bits, pre, e_total);
    }
  }
}

/* At most 48 registers (__maxnreg__: 5 blocks of 256 per SM); a macro, so that the catalog's
 * signature check finds the kernel name right after `void`. */
#define LMO_BOUNDS __maxnreg__(48)

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
  if (x0 < 0 || xe < x0 || m0 < 0 || me < m0 || me - m0 != e_total || words < 0 ||
      (uint64_t)e_total > (uint64_t)words * WORD) { /* the same in every block */
    if (blockIdx.x == 0 && threadIdx.x == 0) state[2] = 1;
    return;
  }
  /* List-offset nodes pass stops = starts + 1: then a list's stop is the next one's start
   * (uniform). */
  const bool x_off = x_stops == x_starts + 1, m_off = mask_stops == mask_starts + 1;
  const int lane = (int)(threadIdx.x & 31u), wid = (int)(threadIdx.x >> 5);
  const int left = (int)blockDim.x - wid * 32;
  const int width = left < 32 ? left : 32;
  const unsigned wm = width == 32 ? 0xffffffffu : (1u << width) - 1u;
  const int64_t per_block = (int64_t)blockDim.x * LMO_LISTS;
  const int64_t stride = (int64_t)gridDim.x * per_block;
  bool bad = false;
  int64_t base = (int64_t)blockIdx.x * per_block + (int64_t)wid * 32 * LMO_LISTS;
  if (base < n) {
    int64_t a[LMO_LISTS], c[LMO_LISTS], at, ct;
    lmo_load<I>(n, x_starts, mask_starts, xe, me, base, lane, width, a, c, at, ct);
    for (;;) {
      const int64_t next = base + stride;
      lmo_chunk<I>(n, x_stops, mask_stops, x_off, m_off, x0, e_total, shift, bits, pre, offsets,
                   base, lane, width, wm, a, c, at, ct, bad);
      if (next >= n) break;
      lmo_load<I>(n, x_starts, mask_starts, xe, me, next, lane, width, a, c, at, ct);
      base = next;
    }
  }
  if (__syncthreads_or(bad) != 0 && threadIdx.x == 0)
    atomicOr((unsigned long long *)&state[2], 1ULL);
}
