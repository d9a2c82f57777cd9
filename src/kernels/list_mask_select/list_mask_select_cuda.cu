/* list_mask_select_cuda.cu: CUDA implementation of kernel "list_mask_select"
 * (list_mask_select.json): stream compaction of the flat contents of x and the mask (the first
 * half of the fused mask's flat path; list_mask_offsets writes the result offsets from the rank
 * words it leaves), with a decoupled look-back (jgk_lookback).
 *
 * A tile is TILE = 4096 elements of the flat stream, 16 per thread of a block of 256 (thread t
 * owns elements [16 t, 16 t + 16) of its tile: a blocked arrangement, so that its 16 mask bytes
 * are one 16-byte load and its x values one to eight). The look-back goes over units: two tiles
 * (8192 elements) for values of at most 4 bytes, one tile for 8-byte values (whose 16 values a
 * tile take the registers a second tile's would need). Unit u takes status word u. Units are
 * numbered by blockIdx.x, with no atomic ticket, as CUB's single-pass scans do: they rely on
 * blocks being dispatched in index order, so that a unit only ever waits for units of blocks
 * already running. A grid smaller than the units gives each block a run of consecutive units
 * (block b: [b * per, (b + 1) * per)), which keeps that property; blocks past the last unit exit
 * at once. Per unit of two tiles A and B (values of at most 4 bytes):
 *   1. the loads: both tiles' mask bytes (16-byte vectors when aligned; any nonzero byte is
 *      true) and A's values (16-byte vectors when aligned, kept packed in registers);
 *   2. one block scan ranks both tiles: each thread's two keep counts packed in the 16-bit
 *      halves of one int (a tile keeps at most 4096 < 2^16: no carries), a warp scan by
 *      shuffles and the warp totals in shared memory (barrier 1);
 *   3. the rank words' keep bits are written, A's kept values are staged in shared memory at
 *      their unit-local ranks, B's values are loaded, warp 0 publishes the unit's total and
 *      looks back for the units before it while those loads are in flight, and B's kept values
 *      are staged after A's (barrier 2);
 *   4. the unit's staged values are written coalesced to out[excl + r] (below capacity), and
 *      every fourth thread writes the prefixes of two rank words (the kept elements before its
 *      own and the next three threads' 64 elements, in A and in B).
 * So a block has a look-back and two barriers per 8192 elements, not per 4096, with loads in
 * flight during the look-back, at 40 registers (6 blocks of 256 per SM; a few spilled bytes with
 * int32 lists) and 32 KiB of shared memory for float32; the aggregate is published once the
 * whole unit is counted, so that a block never waits for one that is itself waiting. With
 * list_mask_offsets' striped lists, this took x[mask] from 1.03 to 0.83 ms at 50 M lists on the
 * H200 (BENCHMARKS.md, "Sixth session of issue 5"). A unit of one tile (8-byte values) does the
 * same for one tile, with its values loaded after the scan (all 16 as vectors when aligned, else
 * only the kept ones), which keeps them within the registers.
 * The last unit writes state[3] (the total) and out[total] = 0 when total < capacity (as the
 * host, whose branchless loop may store there). A block of another size than 256 threads sets
 * the flag state[2] and does nothing else, like every other case the kernel does not take. */

/* Elements per tile and per thread; the block size; elements per rank word. */
#define TILE 4096
#define ITEMS 16
#define THREADS 256
#define WORD 64

/* Elements per look-back unit: two tiles for values of at most 4 bytes, one for 8-byte values. */
#define LMS_UNIT(T) (sizeof(T) <= 4 ? 2 * TILE : TILE)

/* Shared memory of one block: the staged kept values of a unit (8 to 32 KiB), the warp totals
 * and the unit's exclusive prefix. */
template <typename T>
struct list_mask_select_smem {
  T stage[LMS_UNIT(T)];
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

/* Barrier 1 of a unit: the block-wide exclusive scan of the threads' packed counts `cnt` (a
 * warp scan by shuffles, then the warp totals through s.wtot): the sum over the threads before
 * this one in `ex`, over the whole block in `total`. Every thread of the block calls it. */
template <typename S>
__device__ inline void lms_block_scan(S &s, int cnt, int lane, int wid, int &ex, int &total) {
  int incl = cnt;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const int o = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl += o;
  }
  if (lane == 31) s.wtot[wid] = incl;
  __syncthreads();
  int before = 0;
  total = 0;
#pragma unroll
  for (int w = 0; w < THREADS / 32; ++w) {
    const int c = s.wtot[w];
    before += w < wid ? c : 0;
    total += c;
  }
  ex = before + incl - cnt;
}

/* Stages the thread's kept values (bit k of `keep` for v.e[k]) in s.stage from position r on. */
template <typename T, typename S>
__device__ inline void lms_stage(S &s, const lms_values<T> &v, unsigned keep, int r) {
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    if ((keep >> k & 1u) != 0u) {
      s.stage[r] = v.e[k];
      ++r;
    }
  }
}

/* The rank word of the 64 elements of threads tid & ~3 .. (tid & ~3) + 3 (written by the first
 * of them): their 16 keep bits each. Every lane of the warp calls it. */
__device__ inline uint64_t lms_word_bits(unsigned keep) {
  const unsigned k1 = __shfl_down_sync(0xffffffffu, keep, 1);
  const unsigned k2 = __shfl_down_sync(0xffffffffu, keep, 2);
  const unsigned k3 = __shfl_down_sync(0xffffffffu, keep, 3);
  return (uint64_t)(keep | k1 << 16) | (uint64_t)(k2 | k3 << 16) << 32;
}

/* The kept elements before the block's unit u from the look-back of warp 0 (its total
 * published), in s.excl after the next barrier. */
template <typename S>
__device__ inline void lms_look_back(unsigned long long *status, int64_t u, int unit_total,
                                     int lane, S &s) {
  jgk_warp w;
  w.lane = lane;
  w.width = 32;
  w.mask = 0xffffffffu;
  w.id = 0;
  w.count = 1;
  const int64_t e = jgk_lookback(status, u, (int64_t)unit_total, w);
  if (lane == 0) s.excl = e;
}

/* At most 40 registers (__maxnreg__; no __launch_bounds__ with it): 6 blocks of 256 per SM by
 * registers, 8 KiB (uint8) to 32 KiB (float32, uint64) of shared memory each. A macro, so that
 * no parenthesis stands between __global__ and the name (the catalog's signature check reads
 * back from the name to the previous ')' for __global__). */
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
  const int64_t nunits = sizeof(T) <= 4 ? (ntiles + 1) / 2 : ntiles;
  const int64_t per = (nunits + gridDim.x - 1) / gridDim.x;
  const int64_t u_first = (int64_t)blockIdx.x * per;
  const int64_t u_end = u_first + per < nunits ? u_first + per : nunits;
  const T *xs = x + (int64_t)x_starts[0];
  const unsigned char *fs = (const unsigned char *)mask + (int64_t)mask_starts[0];
  const bool x_aligned = ((unsigned long long)(const void *)xs & 15ULL) == 0ULL;
  const bool m_aligned = ((unsigned long long)(const void *)fs & 15ULL) == 0ULL;
  unsigned long long *status = (unsigned long long *)(state + 4);
  if constexpr (sizeof(T) <= 4) {
    for (int64_t u = u_first; u < u_end; ++u) {
      /* tile A = 2u, tile B = 2u + 1 (past the end when ntiles is odd: no bits kept) */
      const int64_t first = 2 * u * TILE + (int64_t)tid * ITEMS;
      /* 1. the loads: both tiles' mask bytes, A's values */
      const unsigned keep_a = lms_keep(fs, first, e_total, m_aligned);
      const unsigned keep_b = lms_keep(fs, first + TILE, e_total, m_aligned);
      lms_values<T> va, vb;
      lms_load<T>(va, xs, first, e_total, x_aligned, 0xffffu);
      /* 2. ranks within the unit: A's counts in the low 16 bits, B's in the high */
      const int cnt = __popc(keep_a) | __popc(keep_b) << 16;
      int ex, total;
      lms_block_scan(s, cnt, lane, wid, ex, total);
      const int total_a = total & 0xffff;
      const int unit_total = total_a + (total >> 16);
      const int rank_a = ex & 0xffff, rank_b = total_a + (ex >> 16);
      /* 3. the rank words' bits, stage A, B's loads, the look-back (warp 0), stage B */
      const bool writer = (lane & 3) == 0; /* the rank words of its and the next 3 threads */
      {
        const uint64_t bits_a = lms_word_bits(keep_a), bits_b = lms_word_bits(keep_b);
        const int64_t word = 2 * u * (TILE / WORD) + (tid >> 2);
        if (writer && word * WORD < e_total) bits[word] = bits_a;
        if (writer && (word + TILE / WORD) * WORD < e_total) bits[word + TILE / WORD] = bits_b;
      }
      lms_stage<T>(s, va, keep_a, rank_a);
      lms_load<T>(vb, xs, first + TILE, e_total, x_aligned, 0xffffu);
      if (wid == 0) lms_look_back(status, u, unit_total, lane, s);
      lms_stage<T>(s, vb, keep_b, rank_b);
      const int ranks = rank_a | rank_b << 16; /* both below 2^13: one register */
      __syncthreads();
      /* 4. the unit's kept values, coalesced, and the rank words' prefixes */
      const int64_t excl = s.excl;
      for (int i = tid; i < unit_total; i += THREADS) {
        const int64_t p = excl + i;
        if (p < capacity) out[p] = s.stage[i];
      }
      const int64_t word = 2 * u * (TILE / WORD) + (tid >> 2);
      if (writer && word * WORD < e_total) pre[word] = excl + (ranks & 0xffff);
      if (writer && (word + TILE / WORD) * WORD < e_total)
        pre[word + TILE / WORD] = excl + (ranks >> 16);
      if (u == nunits - 1 && tid == 0) {
        const int64_t end = excl + unit_total;
        state[3] = end;
        if (end < capacity) out[end] = T();
      }
      /* The next unit's first shared writes (the warp totals) come after this unit's barrier
       * 2, by which every read of them is done; the stage and excl are written after the next
       * barrier 1, by which every read of this unit's is. */
    }
  } else {
    /* 8-byte values: a unit of one tile */
    for (int64_t t = u_first; t < u_end; ++t) {
      const int64_t first = t * TILE + (int64_t)tid * ITEMS;
      /* 1. the mask bytes */
      const unsigned keep = lms_keep(fs, first, e_total, m_aligned);
      /* 2. ranks within the tile */
      const int cnt = __popc(keep);
      int rank, total;
      lms_block_scan(s, cnt, lane, wid, rank, total);
      /* 3. the values (loaded only now, to stay within the registers), staged, and the
       *    look-back in warp 0 */
      lms_values<T> v;
      lms_load<T>(v, xs, first, e_total, x_aligned, keep);
      lms_stage<T>(s, v, keep, rank);
      if (wid == 0) lms_look_back(status, t, total, lane, s);
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
      if ((lane & 3) == 0 && word * WORD < e_total) { /* as lms_word_bits */
        bits[word] = (uint64_t)(keep | k1 << 16) | (uint64_t)(k2 | k3 << 16) << 32;
        pre[word] = excl + rank;
      }
      if (t == nunits - 1 && tid == 0) {
        const int64_t end = excl + total;
        state[3] = end;
        if (end < capacity) out[end] = T();
      }
      /* The next tile's first writes to shared memory (the warp totals) come before its
       * barrier 1 but after this tile's barrier 2, by which every read of them is done; the
       * stage and excl are written after barrier 1, by which every read of this tile's is. */
    }
  }
}
