/* list_mask_select_cuda.cu: CUDA implementation of kernel "list_mask_select"
 * (list_mask_select.json): stream compaction of the flat contents of x and the mask (the first
 * half of the fused mask's flat path; list_mask_offsets writes the result offsets from the rank
 * words it leaves), with a decoupled look-back across tiles (jgk_lookback).
 *
 * A tile is TILE = 4096 elements of the flat stream, 16 per thread of a block of 256 (thread t
 * owns elements [16 t, 16 t + 16) of its tile: a blocked arrangement, so that its 16 mask bytes
 * are one 16-byte load and its x values one to eight). Tiles are numbered by blockIdx.x, with no
 * atomic ticket, as CUB's single-pass scans do: they rely on blocks being dispatched in index
 * order, so that a tile only ever waits for tiles of blocks already running. A grid smaller than
 * the tiles gives each block a run of consecutive tiles (block b: [b * per, (b + 1) * per)),
 * which keeps that property; blocks past the last tile exit at once. Per tile:
 *   1. every load goes out first: the thread's 16 mask bytes (one vector when aligned) and,
 *      for values of at most 4 bytes, its 16 x values (16-byte vectors when aligned, kept packed
 *      in registers); any nonzero mask byte is true;
 *   2. the 16 keep bits, their count, a warp scan by shuffles and the warp totals in shared
 *      memory (barrier 1) give each thread its tile-local rank and the tile's total;
 *   3. every thread stages its kept values in shared memory at their tile-local ranks (8-byte
 *      values are loaded here, after the scan, to stay within the register budget) while warp 0
 *      publishes the tile's total and looks back for the tiles before it (barrier 2);
 *   4. the staged values are written coalesced to out[excl + r] (below capacity), and every
 *      fourth thread writes one rank word (its own and the next three threads' keep bits, and
 *      the kept elements before them).
 * The last tile writes state[3] (the total) and out[total] = 0 when total < capacity (as the
 * host, whose branchless loop may store there). A block of another size than 256 threads sets
 * the flag state[2] and does nothing else, like every other case the kernel does not take. */

/* Elements per tile and per thread; the block size; elements per rank word. */
#define TILE 4096
#define ITEMS 16
#define THREADS 256
#define WORD 64

/* Shared memory of one block: the staged kept values of a tile (4096 * sizeof(T): 4 to 32 KiB),
 * the warp totals and the tile's exclusive prefix. */
template <typename T>
struct list_mask_select_smem {
  T stage[TILE];
  int wtot[THREADS / 32];
  int64_t excl;
};

/* A thread's 16 values, as the 16-byte vectors they were loaded in or one by one. */
template <typename T>
union lms_values {
  uint4 q[sizeof(T)]; /* 16 * sizeof(T) bytes */
  T e[ITEMS];
};

/* Bit k (k < 4) set when byte k of v is nonzero. */
__device__ inline unsigned lms_nonzero4(unsigned v) {
  v |= v >> 1;
  v |= v >> 2;
  v |= v >> 4;
  v &= 0x01010101u;               /* bit 0 of each byte */
  return (v * 0x10204080u) >> 28; /* bits 0, 8, 16, 24 to bits 28..31: no carries */
}

/* The keep bits of the thread's 16 elements from element `first` of the flat mask `f` (E
 * elements); a whole 16-byte vector when it lies inside and `aligned`. */
__device__ inline unsigned lms_keep(const unsigned char *__restrict__ f, int64_t first,
                                    int64_t e_total, bool aligned) {
  unsigned keep = 0;
  if (aligned && first + ITEMS <= e_total) {
    const uint4 q = *(const uint4 *)(const void *)(f + first);
    keep = lms_nonzero4(q.x) | lms_nonzero4(q.y) << 4 | lms_nonzero4(q.z) << 8 |
           lms_nonzero4(q.w) << 12;
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (first + k < e_total && f[first + k] != 0) keep |= 1u << k;
  }
  return keep;
}

/* The thread's 16 x values from element `first` of the flat x `xs` (E elements): 16-byte
 * vectors when they lie inside and `aligned`, else one by one those below E whose bit is set in
 * `which` (the others are 0). */
template <typename T>
__device__ inline void lms_load(lms_values<T> &v, const T *__restrict__ xs, int64_t first,
                                int64_t e_total, bool aligned, unsigned which) {
  if (aligned && first + ITEMS <= e_total) {
    const uint4 *p = (const uint4 *)(const void *)(xs + first);
#pragma unroll
    for (int r = 0; r < (int)sizeof(T); ++r) v.q[r] = p[r];
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      v.e[k] = (which >> k & 1u) != 0u && first + k < e_total ? xs[first + k] : T();
  }
}

/* The flat stream's length E when the kernel takes the call (see the spec), else -1. Every
 * block decides the same way. */
template <typename I>
__device__ inline int64_t lms_flat_length(int64_t n, const I *__restrict__ x_starts,
                                          const I *__restrict__ x_stops, int64_t x_length,
                                          const I *__restrict__ mask_starts,
                                          const I *__restrict__ mask_stops, int64_t mask_length,
                                          int64_t tiles, int64_t words) {
  if (n <= 0 || blockDim.x != THREADS) return -1;
  const int64_t x0 = (int64_t)x_starts[0], xe = (int64_t)x_stops[n - 1];
  const int64_t m0 = (int64_t)mask_starts[0], me = (int64_t)mask_stops[n - 1];
  if (x0 < 0 || xe < x0 || xe > x_length || m0 < 0 || me < m0 || me > mask_length ||
      me - m0 != xe - x0)
    return -1;
  const int64_t e_total = xe - x0;
  /* (in elements, so that nothing overflows near INT64_MAX: words and tiles count arrays) */
  if (tiles < 0 || words < 0 || (uint64_t)e_total > (uint64_t)tiles * TILE ||
      (uint64_t)e_total > (uint64_t)words * WORD)
    return -1;
  return e_total;
}

/* At most 40 registers (__maxnreg__; no __launch_bounds__ with it): 6 blocks of 256 per SM by
 * registers, 4 KiB (uint8) to 32 KiB (uint64) of shared memory each. A macro, so that no
 * parenthesis stands between __global__ and the name (the catalog's signature check reads back
 * from the name to the previous ')' for __global__). */
#define LIST_MASK_SELECT_BOUNDS __maxnreg__(40)

template <typename I, typename T>
__global__ void LIST_MASK_SELECT_BOUNDS jgk_list_mask_select(
    int64_t n, const I *__restrict__ x_starts, const I *__restrict__ x_stops, int64_t x_length,
    const T *__restrict__ x, const I *__restrict__ mask_starts, const I *__restrict__ mask_stops,
    int64_t mask_length, const bool *__restrict__ mask, int64_t tiles, int64_t capacity,
    T *__restrict__ out, int64_t words, uint64_t *__restrict__ bits, int64_t *__restrict__ pre,
    int64_t *state) {
  __shared__ list_mask_select_smem<T> s;
  const int tid = (int)threadIdx.x, lane = tid & 31, wid = tid >> 5;
  const int64_t e_total = lms_flat_length<I>(n, x_starts, x_stops, x_length, mask_starts,
                                             mask_stops, mask_length, tiles, words);
  if (e_total < 0) {
    if (blockIdx.x == 0 && tid == 0) state[2] = 1;
    return;
  }
  if (capacity < 0) capacity = 0;
  if (e_total == 0) {
    if (blockIdx.x == 0 && tid == 0) {
      state[3] = 0;
      if (capacity > 0) out[0] = T();
    }
    return;
  }
  const int64_t ntiles = (e_total + TILE - 1) / TILE;
  const int64_t per = (ntiles + gridDim.x - 1) / gridDim.x;
  const int64_t t_first = (int64_t)blockIdx.x * per;
  const int64_t t_end = t_first + per < ntiles ? t_first + per : ntiles;
  const T *xs = x + (int64_t)x_starts[0];
  const unsigned char *fs = (const unsigned char *)mask + (int64_t)mask_starts[0];
  const bool x_aligned = ((unsigned long long)(const void *)xs & 15ULL) == 0ULL;
  const bool m_aligned = ((unsigned long long)(const void *)fs & 15ULL) == 0ULL;
  unsigned long long *status = (unsigned long long *)(state + 4);
  constexpr bool early = sizeof(T) <= 4; /* x in registers across the scan and look-back */
  for (int64_t t = t_first; t < t_end; ++t) {
    const int64_t first = t * TILE + (int64_t)tid * ITEMS;
    /* 1. the loads */
    const unsigned keep = lms_keep(fs, first, e_total, m_aligned);
    lms_values<T> v;
    if (early) lms_load<T>(v, xs, first, e_total, x_aligned, 0xffffu);
    /* 2. ranks within the tile */
    const int cnt = __popc(keep);
    int incl = cnt;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const int o = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += o;
    }
    if (lane == 31) s.wtot[wid] = incl;
    __syncthreads();
    int before = 0, total = 0;
#pragma unroll
    for (int w = 0; w < THREADS / 32; ++w) {
      const int c = s.wtot[w];
      before += w < wid ? c : 0;
      total += c;
    }
    const int rank = before + incl - cnt;
    /* 3. staging, and the look-back in warp 0 */
    if (!early) lms_load<T>(v, xs, first, e_total, x_aligned, keep);
    int r = rank;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      if ((keep >> k & 1u) != 0u) {
        s.stage[r] = v.e[k];
        ++r;
      }
    }
    if (wid == 0) {
      jgk_warp w;
      w.lane = lane;
      w.width = 32;
      w.mask = 0xffffffffu;
      w.id = 0;
      w.count = 1;
      const int64_t ex = jgk_lookback(status, t, (int64_t)total, w);
      if (lane == 0) s.excl = ex;
    }
    __syncthreads();
    /* 4. the kept values, coalesced, and the rank words */
    const int64_t excl = s.excl;
    for (int i = tid; i < total; i += THREADS) {
      const int64_t p = excl + i;
      if (p < capacity) out[p] = s.stage[i];
    }
    const unsigned k1 = __shfl_down_sync(0xffffffffu, keep, 1);
    const unsigned k2 = __shfl_down_sync(0xffffffffu, keep, 2);
    const unsigned k3 = __shfl_down_sync(0xffffffffu, keep, 3);
    const int64_t word = t * (TILE / WORD) + (tid >> 2);
    if ((lane & 3) == 0 && word * WORD < e_total) {
      bits[word] = (uint64_t)(keep | k1 << 16) | (uint64_t)(k2 | k3 << 16) << 32;
      pre[word] = excl + rank;
    }
    if (t == ntiles - 1 && tid == 0) {
      const int64_t end = excl + total;
      state[3] = end;
      if (end < capacity) out[end] = T();
    }
    /* The next tile's first writes to shared memory (the warp totals) come before its
     * barrier 1 but after this tile's barrier 2, by which every read of them is done; the
     * stage and excl are written after barrier 1, by which every read of this tile's is. */
  }
}
