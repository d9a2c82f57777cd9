/* list_mask_cuda.cu: CUDA implementation of kernel "list_mask" (list_mask.json): x[mask] for one
 * list level in a single pass, with a decoupled look-back across blocks (jgk_lookback).
 *
 * Blocks take tiles of TILE consecutive lists from an atomic counter (state[0]), in the order
 * they start, so that a tile only ever waits for tiles already owned by running blocks. Per tile:
 *   1. the lists' starts are read coalesced into shared memory with their lengths (min of the two
 *      counts, 0 for a bad list; a bad list or unequal counts raise state[2] to n - i with an
 *      atomic maximum: the first such list wins); an exclusive block scan of the lengths numbers
 *      the tile's elements 0..E-1 (the "walk"), list by list;
 *   2. the walk goes in chunks of ITEMS * threads elements, thread t taking elements
 *      k * threads + t (coalesced): the element's list is found by a binary search of the
 *      shared walk offsets, or, when both arrays' lists lie back to back (every list-offset
 *      pair with equal counts), directly as first position + e. Each chunk's keep flags go
 *      through warp ballots and a scan of the ballots' counts, giving every kept element its
 *      rank and every list starting in the chunk the kept elements before it;
 *   3. warp 0 publishes the tile's kept total and looks back for the total of the tiles before
 *      (jgk_lookback); the result offsets of the tile's lists are written coalesced;
 *   4. the kept values are written at consecutive positions (coalesced): a tile that fits in one
 *      chunk (the usual case: 512 lists of a few elements) kept its mask flags and x values in
 *      registers from step 2 (x is loaded there unconditionally, so that its loads are in
 *      flight with the mask's); a longer tile walks its chunks again (mask and x re-read).
 * The last tile writes offsets[n] and state[3] (the total); the last block to finish resets the
 * two block counters state[0..1] to 0. Any block size works: threads past the last whole warp
 * (or past the block's only, partial warp) only join the barriers. */

/* Lists per tile (the host's TILE); elements per thread per chunk. */
#define TILE 512
#define ITEMS 8
#define MAX_WARPS 32
#define MAX_WORDS (ITEMS * MAX_WARPS)

struct list_mask_smem {
  int64_t xs[TILE];     /* x's start of each list of the tile */
  int64_t ms[TILE];     /* the mask's start */
  int64_t lo[TILE + 1]; /* walk offsets: the tile's elements before each list; lo[cnt] = E */
  int64_t kb[TILE];     /* kept elements of the tile before each list */
  unsigned ballot[MAX_WORDS];
  unsigned wpre[MAX_WORDS + 1]; /* exclusive prefix of the ballots' counts; [words] = total */
  int64_t wsum[MAX_WARPS];
  int64_t tile;
  int64_t excl;
  /* the fast path (see lm_fast_tile) */
  unsigned wtot[MAX_WARPS];    /* kept elements of each warp's segment */
  unsigned wex[MAX_WARPS + 1]; /* kept before each warp's segment; [nw] = the tile's total */
  int bbeg[TILE / 32];         /* start (relative to x0) of list 32 s, s < TILE / 32 */
  int bend[TILE / 32];         /* stop (relative to x0) of list 32 s + 31 */
  int qs[TILE];                /* start (relative to x0) of each list */
  int fast;                    /* the tile passed every check (set by warp 0) */
};

/* The block's working threads: whole warps, or the only (partial) warp of a small block. */
struct lm_threads {
  int tid, nt, nw, lane, wid;
  unsigned mask;
  bool active;
};

/* Exclusive scan of s.lo[0..cnt) in place, s.lo[cnt] = the total. Every thread of the block
 * calls it (it holds barriers). */
__device__ inline void lm_scan_lengths(list_mask_smem &s, int cnt, const lm_threads &h) {
  const int per = (cnt + h.nt - 1) / h.nt;
  const int beg = h.tid * per;
  const int end = beg + per < cnt ? beg + per : cnt;
  int64_t sum = 0, incl = 0;
  if (h.active) {
    for (int j = beg; j < end; ++j) sum += s.lo[j];
    incl = sum;
    for (int d = 1; d < 32; d <<= 1) {
      const int64_t o = (int64_t)__shfl_up_sync(h.mask, (long long)incl, d);
      if (h.lane >= d) incl += o;
    }
    if (h.lane == 31 || h.tid == h.nt - 1) s.wsum[h.wid] = incl;
  }
  __syncthreads();
  if (h.tid == 0) {
    int64_t r = 0;
    for (int w = 0; w < h.nw; ++w) {
      const int64_t t = s.wsum[w];
      s.wsum[w] = r;
      r += t;
    }
    s.lo[cnt] = r;
  }
  __syncthreads();
  if (h.active) {
    int64_t run = s.wsum[h.wid] + incl - sum;
    for (int j = beg; j < end; ++j) {
      const int64_t t = s.lo[j];
      s.lo[j] = run;
      run += t;
    }
  }
  __syncthreads();
}

/* The chunk's keep flags (bit k of `keep`: element k * nt + tid) to ballots and their scan;
 * returns the chunk's kept count. Every thread calls it (barriers). */
__device__ inline int64_t lm_chunk_scan(list_mask_smem &s, unsigned keep, const lm_threads &h) {
  if (h.active) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const unsigned b = __ballot_sync(h.mask, (keep >> k & 1u) != 0u);
      if (h.lane == 0) s.ballot[k * h.nw + h.wid] = b;
    }
  }
  __syncthreads();
  const int words = ITEMS * h.nw;
  if (h.wid == 0 && h.active) {
    const int width = h.nt < 32 ? h.nt : 32;
    const int per = (words + width - 1) / width;
    const int beg = h.lane * per;
    const int end = beg + per < words ? beg + per : words;
    unsigned sum = 0;
    for (int i = beg; i < end; ++i) sum += (unsigned)__popc(s.ballot[i]);
    unsigned incl = sum;
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned o = __shfl_up_sync(h.mask, incl, d);
      if (h.lane >= d) incl += o;
    }
    unsigned run = incl - sum;
    for (int i = beg; i < end; ++i) {
      s.wpre[i] = run;
      run += (unsigned)__popc(s.ballot[i]);
    }
    if (h.lane == width - 1) s.wpre[words] = incl;
  }
  __syncthreads();
  return (int64_t)s.wpre[words];
}

/* Kept elements of the chunk before its element q (0 <= q < ITEMS * nt). */
__device__ inline int64_t lm_rank(const list_mask_smem &s, int q, const lm_threads &h) {
  const int k = q / h.nt;
  const int r = q - k * h.nt;
  const int word = k * h.nw + (r >> 5);
  return (int64_t)s.wpre[word] + __popc(s.ballot[word] & ((1u << (r & 31)) - 1u));
}

/* The tile list holding walk element e (0 <= e < lo[cnt]): the last j with lo[j] <= e. */
__device__ inline int lm_find(const int64_t *lo, int cnt, int64_t e) {
  int l = 0, h = cnt;
  while (h - l > 1) {
    const int mid = (l + h) >> 1;
    if (lo[mid] <= e)
      l = mid;
    else
      h = mid;
  }
  return l;
}

/* Kept elements of the fast path's tile before walk position q (0 <= q <= E): warp segments of
 * ITEMS * 32 elements, row k of warp w holding elements w * ITEMS * 32 + k * 32 + lane. */
__device__ inline unsigned lm_fast_rank(const list_mask_smem &s, int q, const lm_threads &h) {
  const int qw = q / (ITEMS * 32);
  unsigned r = s.wex[qw];
  if (qw < h.nw) {
    const int rem = q - qw * (ITEMS * 32);
    const int word = qw * ITEMS + (rem >> 5);
    r += s.wpre[word] + (unsigned)__popc(s.ballot[word] & ((1u << (rem & 31)) - 1u));
  }
  return r;
}

/* The fast path of one tile: its lists lie back to back in both contents with equal counts
 * (every list-offset pair of equal counts), inside their contents, the tile's E elements fit in
 * one chunk (E <= ITEMS * nt) and the block has whole warps. Returns false, before anything is
 * written or published, when the tile is not such a tile (the caller then runs lm_general_tile).
 * Every thread calls it with the same tile; it holds two barriers (none when the tile's bounds
 * already rule it out), and the caller's ticket barrier separates it from the previous tile.
 *
 * The element loads depend only on the tile's first start and last stop (read by every thread,
 * one address per warp), so they go out right after them; the lists' own checks (each list:
 * inside [x0, xe], the mask's list at the same relative place with the same count, its stop the
 * next list's start) finish while they are in flight. Warp w walks its own segment of
 * ITEMS * 32 consecutive elements (row k: 32 consecutive elements, coalesced), so the ranks need
 * no block-wide scan: each warp scans its rows' ballots in registers and publishes its total;
 * after one barrier warp 0 scans the warp totals, checks the list boundaries between 32-list
 * groups and does the look-back; after a second barrier every thread writes its lists' offsets
 * and its kept values. */
template <typename I, typename T>
__device__ inline bool lm_fast_tile(list_mask_smem &s, const lm_threads &h, int64_t t,
                                    int64_t first, int cnt, bool last_tile, int64_t n_eff,
                                    const I *__restrict__ x_starts, const I *__restrict__ x_stops,
                                    int64_t x_length, const T *__restrict__ x,
                                    const I *__restrict__ mask_starts,
                                    const I *__restrict__ mask_stops, int64_t mask_length,
                                    const unsigned char *__restrict__ flags, int64_t capacity,
                                    int64_t *__restrict__ offsets, T *__restrict__ out,
                                    unsigned long long *status, int64_t *state) {
  if (h.nt < 32) return false;
  const int64_t x0 = (int64_t)x_starts[first], xe = (int64_t)x_stops[first + cnt - 1];
  const int64_t m0 = (int64_t)mask_starts[first], me = (int64_t)mask_stops[first + cnt - 1];
  if (x0 < 0 || xe < x0 || xe > x_length || m0 < 0 || me < m0 || me > mask_length ||
      me - m0 != xe - x0 || xe - x0 > (int64_t)ITEMS * h.nt)
    return false;
  const int E = (int)(xe - x0);
  const int seg = h.wid * (ITEMS * 32) + h.lane; /* this thread's first walk element */
  unsigned keep = 0;
  T v[ITEMS];
  bool mine = true;
  if (h.active) {
    /* the lists: each inside the tile's range, the mask's list at the same relative place with
     * the same count, its stop the next list's start (the last one's: xe); between groups of 32
     * lists (lane 31 to the next warp's lane 0) warp 0 compares s.bend and s.bbeg later */
    for (int j0 = 0; j0 < TILE; j0 += 2 * h.nt) { /* two lists a thread at a time: all */
      int64_t a[2], b[2], c[2], d[2];                /* their loads in flight together */
#pragma unroll
      for (int u = 0; u < 2; ++u) {
        const int j = j0 + u * h.nt + h.tid;
        a[u] = b[u] = x0;
        c[u] = d[u] = m0;
        if (j < cnt) {
          a[u] = (int64_t)x_starts[first + j];
          b[u] = (int64_t)x_stops[first + j];
          c[u] = (int64_t)mask_starts[first + j];
          d[u] = (int64_t)mask_stops[first + j];
        }
      }
#pragma unroll
      for (int u = 0; u < 2; ++u) {
        const int j = j0 + u * h.nt + h.tid;
        bool ok = a[u] >= x0 && b[u] >= a[u] && b[u] <= xe && c[u] >= m0 && d[u] >= c[u] &&
                  d[u] <= me && c[u] - m0 == a[u] - x0 && d[u] - c[u] == b[u] - a[u];
        const int ra = (int)(a[u] - x0), rb = (int)(b[u] - x0);
        const int next = __shfl_down_sync(h.mask, ra, 1);
        if (j < cnt) {
          if (j == cnt - 1)
            ok = ok && rb == E;
          else if (h.lane != 31)
            ok = ok && rb == next;
          if (h.lane == 0) s.bbeg[j >> 5] = ra;
          if (h.lane == 31) s.bend[j >> 5] = rb;
          s.qs[j] = ra;
          mine = mine && ok;
        }
      }
    }
    /* the elements: every load of the chunk before any use */
    unsigned char f[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const int e = seg + k * 32;
      f[k] = 0;
      v[k] = T();
      if (e < E) {
        f[k] = flags[m0 + e];
        v[k] = x[x0 + e];
      }
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (f[k] != 0) keep |= 1u << k;
    /* the warp's rows: ballots and their exclusive prefix within the warp */
    unsigned myb = 0, mypre = 0, run = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const unsigned b = __ballot_sync(h.mask, (keep >> k & 1u) != 0u);
      if (h.lane == k) {
        myb = b;
        mypre = run;
      }
      run += (unsigned)__popc(b);
    }
    if (h.lane < ITEMS) {
      s.ballot[h.wid * ITEMS + h.lane] = myb;
      s.wpre[h.wid * ITEMS + h.lane] = mypre;
    }
    if (h.lane == 0) s.wtot[h.wid] = run;
  }
  const bool lists_ok = __syncthreads_and(mine) != 0;
  if (h.wid == 0) { /* h.active: the block has whole warps */
    const unsigned c = h.lane < h.nw ? s.wtot[h.lane] : 0u;
    unsigned incl = c;
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned o = __shfl_up_sync(0xffffffffu, incl, d);
      if (h.lane >= d) incl += o;
    }
    const unsigned total = __shfl_sync(0xffffffffu, incl, 31);
    if (h.lane < h.nw) s.wex[h.lane] = incl - c;
    if (h.lane == 0) s.wex[h.nw] = total;
    const bool joint = h.lane + 1 >= TILE / 32 || (h.lane + 1) * 32 >= cnt ||
                       s.bend[h.lane] == s.bbeg[h.lane + 1];
    const bool ok = __all_sync(0xffffffffu, joint) && lists_ok;
    if (ok) {
      jgk_warp w;
      w.lane = h.lane;
      w.width = 32;
      w.mask = 0xffffffffu;
      w.id = 0;
      w.count = 1;
      const int64_t ex = jgk_lookback(status, t, (int64_t)total, w);
      if (h.lane == 0) s.excl = ex;
    }
    if (h.lane == 0) s.fast = ok ? 1 : 0;
  }
  __syncthreads();
  if (s.fast == 0) return false;
  const int64_t excl = s.excl;
  if (h.active) {
    for (int j = h.tid; j < cnt; j += h.nt) offsets[first + j] = excl + lm_fast_rank(s, s.qs[j], h);
    if (keep != 0u) {
      const int64_t base = excl + s.wex[h.wid];
      const unsigned lt = (1u << h.lane) - 1u;
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        if ((keep >> k & 1u) != 0u) {
          const int word = h.wid * ITEMS + k;
          const int64_t pos = base + s.wpre[word] + __popc(s.ballot[word] & lt);
          if (pos < capacity) out[pos] = v[k];
        }
      }
    }
  }
  if (last_tile && h.tid == 0) {
    const int64_t end = excl + s.wex[h.nw];
    offsets[n_eff] = end;
    state[3] = end;
    if (end < capacity) out[end] = T(); /* as the host, which may store there */
  }
  return true;
}

/* The general path of one tile (any lists, any lengths): steps 1-4 of the header. Every thread
 * calls it with the same tile (it holds barriers). */
template <typename I, typename T>
__device__ inline void lm_general_tile(list_mask_smem &s, const lm_threads &h, int64_t t,
                                       int64_t first, int cnt, bool last_tile, int64_t n,
                                       int64_t n_eff, const I *__restrict__ x_starts,
                                       const I *__restrict__ x_stops, int64_t x_length,
                                       const T *__restrict__ x, const I *__restrict__ mask_starts,
                                       const I *__restrict__ mask_stops, int64_t mask_length,
                                       const unsigned char *__restrict__ flags, int64_t capacity,
                                       int64_t *__restrict__ offsets, T *__restrict__ out,
                                       unsigned long long *status, int64_t *state) {
  const int64_t chunk = (int64_t)ITEMS * h.nt;
  /* 1. the tile's lists */
  if (h.active) {
    for (int j = h.tid; j < cnt; j += h.nt) {
      const int64_t i = first + j;
      const int64_t a = (int64_t)x_starts[i], b = (int64_t)x_stops[i];
      const int64_t c = (int64_t)mask_starts[i], d = (int64_t)mask_stops[i];
      const bool bad_x = b < a || (b > a && (a < 0 || b > x_length));
      const bool bad_m = d < c || (d > c && (c < 0 || d > mask_length));
      int64_t len = b - a < d - c ? b - a : d - c;
      if (bad_x || bad_m) len = 0;
      if (bad_x || bad_m || b - a != d - c)
        atomicMax((unsigned long long *)&state[2], (unsigned long long)(n - i));
      s.xs[j] = a;
      s.ms[j] = c;
      s.lo[j] = len;
    }
  }
  __syncthreads();
  lm_scan_lengths(s, cnt, h);
  const int64_t total_e = s.lo[cnt];
  const int64_t x0 = s.xs[0], m0 = s.ms[0];
  bool mine = true;
  if (h.active) {
    for (int j = h.tid; j < cnt; j += h.nt)
      mine = mine && s.xs[j] - s.lo[j] == x0 && s.ms[j] - s.lo[j] == m0;
  }
  const bool contiguous = __syncthreads_and(mine) != 0;
  const bool single = total_e <= chunk;

  /* 2. count: keep flags (and, for a one-chunk tile, the x values) */
  T v[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) v[k] = T();
  unsigned keep = 0;
  int64_t run = 0;
  for (int64_t cb = 0; cb < total_e; cb += chunk) {
    keep = 0;
    if (h.active) {
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        const int64_t e = cb + (int64_t)k * h.nt + h.tid;
        if (e < total_e) {
          int64_t xa = x0 + e, ma = m0 + e;
          if (!contiguous) {
            const int j = lm_find(s.lo, cnt, e);
            xa = s.xs[j] + (e - s.lo[j]);
            ma = s.ms[j] + (e - s.lo[j]);
          }
          if (flags[ma] != 0) keep |= 1u << k;
          if (single) v[k] = x[xa];
        }
      }
    }
    const int64_t kept = lm_chunk_scan(s, keep, h);
    if (h.active) {
      for (int j = h.tid; j < cnt; j += h.nt) {
        const int64_t d = s.lo[j] - cb;
        if (d >= 0 && d < chunk) s.kb[j] = run + lm_rank(s, (int)d, h);
      }
    }
    if (!single) __syncthreads(); /* the next chunk overwrites the ballots */
    run += kept;
  }
  if (h.active) {
    for (int j = h.tid; j < cnt; j += h.nt)
      if (s.lo[j] >= total_e) s.kb[j] = run;
  }

  /* 3. the tiles before, and the tile's offsets */
  if (h.wid == 0 && h.active) {
    jgk_warp w;
    w.lane = h.lane;
    w.width = h.nt < 32 ? h.nt : 32;
    w.mask = h.mask;
    w.id = 0;
    w.count = 1;
    const int64_t ex = jgk_lookback(status, t, run, w);
    if (h.lane == 0) s.excl = ex;
  }
  __syncthreads();
  const int64_t excl = s.excl;
  if (h.active) {
    for (int j = h.tid; j < cnt; j += h.nt) offsets[first + j] = excl + s.kb[j];
  }
  if (last_tile && h.tid == 0) {
    offsets[n_eff] = excl + run;
    state[3] = excl + run;
    if (excl + run < capacity) out[excl + run] = T(); /* as the host, which may store there */
  }

  /* 4. the kept values */
  if (single) {
    if (h.active && keep != 0u) {
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        if ((keep >> k & 1u) != 0u) {
          const int64_t pos = excl + lm_rank(s, k * h.nt + h.tid, h);
          if (pos < capacity) out[pos] = v[k];
        }
      }
    }
  } else {
    int64_t done = 0;
    for (int64_t cb = 0; cb < total_e; cb += chunk) {
      keep = 0;
      if (h.active) {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
          const int64_t e = cb + (int64_t)k * h.nt + h.tid;
          if (e < total_e) {
            int64_t xa = x0 + e, ma = m0 + e;
            if (!contiguous) {
              const int j = lm_find(s.lo, cnt, e);
              xa = s.xs[j] + (e - s.lo[j]);
              ma = s.ms[j] + (e - s.lo[j]);
            }
            if (flags[ma] != 0) keep |= 1u << k;
            v[k] = x[xa];
          }
        }
      }
      const int64_t kept = lm_chunk_scan(s, keep, h);
      if (h.active) {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
          if ((keep >> k & 1u) != 0u) {
            const int64_t pos = excl + done + lm_rank(s, k * h.nt + h.tid, h);
            if (pos < capacity) out[pos] = v[k];
          }
        }
      }
      __syncthreads(); /* the next chunk overwrites the ballots */
      done += kept;
    }
  }
}

/* At most 40 registers (__maxnreg__; no __launch_bounds__ with it, so 1024-thread blocks still
 * launch): 6 blocks of 256 per SM, 1536 threads. A macro, so that no parenthesis stands between
 * __global__ and the name (the catalog's signature check reads back from the name to the
 * previous ')' for __global__). */
#define LIST_MASK_BOUNDS __maxnreg__(40)

template <typename I, typename T>
__global__ void LIST_MASK_BOUNDS jgk_list_mask(int64_t n, const I *__restrict__ x_starts,
                              const I *__restrict__ x_stops, int64_t x_length,
                              const T *__restrict__ x, const I *__restrict__ mask_starts,
                              const I *__restrict__ mask_stops, int64_t mask_length,
                              const bool *__restrict__ mask, int64_t tiles, int64_t capacity,
                              int64_t *__restrict__ offsets, T *__restrict__ out, int64_t *state) {
  __shared__ list_mask_smem s;
  lm_threads h;
  h.tid = (int)threadIdx.x;
  h.nt = blockDim.x >= 32 ? (int)(blockDim.x & ~31u) : (int)blockDim.x;
  h.nw = (h.nt + 31) >> 5;
  h.lane = h.tid & 31;
  h.wid = h.tid >> 5;
  h.mask = h.nt >= 32 ? 0xffffffffu : ((1u << h.nt) - 1u);
  h.active = h.tid < h.nt;
  const unsigned char *flags = (const unsigned char *)mask;
  if (n < 0) n = 0;
  if (tiles < 0) tiles = 0;
  const int64_t n_eff = tiles >= n / TILE + 1 ? n : tiles * TILE;
  const int64_t ntiles = (n_eff + TILE - 1) / TILE;
  unsigned long long *status = (unsigned long long *)(state + 4);
  if (ntiles == 0 && blockIdx.x == 0 && h.tid == 0) {
    offsets[0] = 0;
    state[3] = 0;
    if (capacity > 0) out[0] = T();
  }
  for (;;) {
    if (h.tid == 0) s.tile = (int64_t)atomicAdd((unsigned long long *)&state[0], 1ULL);
    __syncthreads();
    const int64_t t = s.tile;
    if (t >= ntiles) break;
    const int64_t first = t * TILE;
    const int cnt = (int)(n_eff - first < TILE ? n_eff - first : TILE);
    const bool last_tile = t == ntiles - 1;
    if (!lm_fast_tile<I, T>(s, h, t, first, cnt, last_tile, n_eff, x_starts, x_stops, x_length,
                            x, mask_starts, mask_stops, mask_length, flags, capacity, offsets,
                            out, status, state))
      lm_general_tile<I, T>(s, h, t, first, cnt, last_tile, n, n_eff, x_starts, x_stops,
                            x_length, x, mask_starts, mask_stops, mask_length, flags, capacity,
                            offsets, out, status, state);
  }
  /* The last block out resets the block counters (every block has taken its last tile number
   * before it counts itself out). */
  if (h.tid == 0) {
    __threadfence();
    const unsigned long long out_blocks = atomicAdd((unsigned long long *)&state[1], 1ULL);
    if (out_blocks == (unsigned long long)gridDim.x - 1ULL) {
      atomicExch((unsigned long long *)&state[0], 0ULL);
      atomicExch((unsigned long long *)&state[1], 0ULL);
    }
  }
}
