/* combinations_values_cuda.cu: CUDA implementation of kernel "combinations_values"
 * (combinations_values.json).
 *
 * A block per tile of up to 1024 consecutive lists (grid-stride over tiles), writing the values
 * of the tile's combinations straight into the k planes of out (no index arrays). Two ways:
 *
 * Pairs (k = 2, at most 4 lists per thread: blockDim >= tile / 4), tried first:
 *  P1. each thread reads its run of up to 4 consecutive lists (starts and stops, all loads
 *     issued first: a warp's 32 runs are one contiguous span, so the first load fetches every
 *     sector) and counts each list's pairs in int32 (a list of more than JGK_CV_LMAX items or a
 *     run of more than JGK_CV_PMAX pairs sends the tile the general way); one warp-shuffle pass
 *     and one word per warp give each run's local offset, the tile's total and the range
 *     [lo, hi) of the non-empty lists' items;
 *  P2. when content[lo:hi) (rounded up to 16 bytes) and one 4-byte descriptor per pair fit in
 *     the shared buffer (JGK_CV_RAW int64: 34 KB, e.g. 3072 float32 values and 5632 pairs; a
 *     Poisson(3) tile of 1024 lists has about 3072 values and 4608 pairs), the tile's offsets are
 *     written straight from the registers and content[lo:hi) is copied into shared memory
 *     (coalesced, four loads per thread before their stores);
 *  P3. each thread writes, at its pairs' tile-local output positions, their descriptors (the
 *     byte offsets of the pair's two staged values, 16 bits each; row by row: x < y, or x <= y
 *     with replacement, in lexicographic order); one __syncthreads; then the threads stream over
 *     the tile's positions p (thread j: j, j + blockDim, ...; four at a time, all loads before
 *     the stores): one shared load of the descriptor, two of the values, two coalesced stores
 *     to out[base + p] and out[total + base + p]. Tile-local arithmetic is 32-bit.
 *
 * The general way (any k, long lists, wide ranges: the earlier kernel's general loop):
 *  G1. its threads read the tile's starts and stops (coalesced) into shared memory with each
 *     list's count (as the host: bad list or overflow counts 0);
 *  G2. each thread sums a run of consecutive counts, a block-wide exclusive scan (warp shuffles,
 *     one word per warp) turns the runs into the tile's local offsets (shared, int64), and the
 *     threads write offsets[first + 1 ..] = tile_offsets[t] + local offsets (coalesced);
 *  G3. the threads stride over the tile's output positions p (thread j: j, j + blockDim, ...):
 *     p's list is the last with local offset <= p (a branch-free binary search in shared memory;
 *     empty lists are skipped by it), r = p - that offset is unranked into the r-th combination
 *     in lexicographic order, and the k values are read from content (cached loads: a tile's
 *     lists sit close together) and written to out[q * total + base + p]: consecutive threads
 *     write consecutive positions of each plane, so every store is coalesced whatever the list
 *     lengths, and one long list is walked by the whole block.
 * Unranking: k = 2 by a closed form (the reverse rank r' of a pair is C(b', 2) + a' in colex
 * order, b' from one double square root, corrected by integer checks); with replacement the
 * pairs of len items are those without of len + 1 items, b shifted down by one; k = 1 directly;
 * k = 3, 4 item by item, each position the largest a with C(lp - from, kk) - C(lp - a, kk) <= r,
 * found by binary search (lp = len + k - 1 with replacement, b_q = a_q - q). Binomials stay at
 * most the list's count, which fits int64.
 * Both ways write the same offsets and values (copies), and a tile that does not fit
 * [0, total) writes nothing either way. */

#define JGK_CV_TILE 1024

/* C(x, k) for x >= 55109 and 1 <= k <= 4, -1 above INT64_MAX. */
__device__ inline int64_t jgk_cv_binomial_big(int64_t x, int64_t k) {
  int64_t c = 1;
  for (int64_t j = 1; j <= k; ++j) {
    const int64_t num = x - k + j;
    int64_t g = c, h = j;
    while (h != 0) {
      const int64_t r = g % h;
      g = h;
      h = r;
    }
    const int64_t a = c / g, b = num / (j / g);
    if (b != 0 && a > (int64_t)9223372036854775807LL / b) return -1;
    c = a * b;
  }
  return c;
}

/* C(x, k) for 1 <= k <= 4 (x >= 0); -1 above INT64_MAX: as jgk_comb_binomial on the host. */
__device__ inline int64_t jgk_cv_binomial(int64_t x, int64_t k) {
  if (x < k) return 0;
  if (x < 55109) { /* the product fits (even in int64): one division by a constant */
    const uint64_t u = (uint64_t)x;
    if (k == 1) return x;
    if (k == 2) return (int64_t)(u * (u - 1) / 2);
    if (k == 3) return (int64_t)(u * (u - 1) * (u - 2) / 6);
    return (int64_t)(u * (u - 1) * (u - 2) * (u - 3) / 24);
  }
  return jgk_cv_binomial_big(x, k);
}

/* C(x, 2) for x >= 0, without an intermediate above the result. */
__device__ inline int64_t jgk_cv_c2(int64_t x) {
  return (x & 1) != 0 ? x * ((x - 1) >> 1) : (x >> 1) * (x - 1);
}

/* Exclusive scan of v over the block (every thread calls it); *total gets the block's sum.
 * Wraps in uint64. Any block size up to 1024 (a last partial warp included). */
__device__ inline uint64_t jgk_cv_block_scan(uint64_t v, uint64_t *s_warp, uint64_t *total) {
  const int lane = (int)threadIdx.x % 32, wid = (int)threadIdx.x / 32;
  const int nwarps = ((int)blockDim.x + 31) / 32;
  const int width = (int)blockDim.x - wid * 32 < 32 ? (int)blockDim.x - wid * 32 : 32;
  const unsigned mask = width == 32 ? 0xffffffffu : (1u << width) - 1u;
  uint64_t x = v;
  for (int d = 1; d < 32; d <<= 1) {
    const uint64_t y = (uint64_t)__shfl_up_sync(mask, (unsigned long long)x, d);
    if (lane >= d) x += y;
  }
  if (lane == width - 1) s_warp[wid] = x;
  __syncthreads();
  uint64_t before = 0, all = 0;
  for (int w = 0; w < nwarps; ++w) {
    const uint64_t s = s_warp[w];
    if (w < wid) before += s;
    all += s;
  }
  *total = all;
  return before + x - v;
}

/* The pairs' shared buffer: the general way's s_off (int64, JGK_CV_TILE + 1) and its starts /
 * item counts (int64, 2 JGK_CV_TILE) at its start, and for the pairs the staged values then the
 * descriptors. 34 KB: with the rest, under 228 KB / 6 - 1 KB, so 6 blocks fit on an SM. */
#define JGK_CV_RAW 4352
/* Pairs of one thread's run of lists at most, and items of one list at most, on the pairs way
 * (the descriptors of a run are written by its thread alone). */
#define JGK_CV_PMAX 1024
#define JGK_CV_LMAX 4096

/* At most 40 registers (__maxnreg__: 6 blocks of 256, 1536 threads per SM; 35 KB of shared
 * memory each). A macro, so that no parenthesis stands between __global__ and the name (the
 * catalog's signature check reads back from the name to the previous ')' for __global__). */
#define JGK_CV_BOUNDS __maxnreg__(40)

/* Pairs of a list of L <= JGK_CV_LMAX items in int32: C(L, 2), or C(L + 1, 2) with rep = 1. */
__device__ inline int jgk_cv_pairs(int L, int rep) { return (L * (L - 1 + 2 * rep)) >> 1; }

template <typename I, typename T>
__global__ void JGK_CV_BOUNDS jgk_combinations_values(
    int64_t n, const I *__restrict__ starts, const I *__restrict__ stops, int64_t m,
    const T *__restrict__ content, int64_t k, int64_t replacement, int64_t tile, int64_t ntiles,
    const int64_t *__restrict__ tile_offsets, int64_t total, int64_t *__restrict__ offsets,
    T *__restrict__ out) {
  __shared__ int64_t s_raw[JGK_CV_RAW];
  __shared__ uint64_t s_warp[32];
  __shared__ int64_t s_wlo[32];
  __shared__ int64_t s_whi[32];
  __shared__ int s_wcnt[32];
  int64_t *const s_off = s_raw;
  int64_t *const s_start = s_raw + JGK_CV_TILE + 1;
  int64_t *const s_items = s_start + JGK_CV_TILE;
  char *const s_bytes = reinterpret_cast<char *>(s_raw);
  if (blockIdx.x == 0 && threadIdx.x == 0) offsets[0] = 0;
  if (k < 1 || k > 4 || tile < 1 || tile > JGK_CV_TILE || total < 0 || n <= 0) return;
  const int lane = (int)threadIdx.x % 32, wid = (int)threadIdx.x / 32;
  const int nwarps = ((int)blockDim.x + 31) / 32;
  const int width = (int)blockDim.x - wid * 32 < 32 ? (int)blockDim.x - wid * 32 : 32;
  const unsigned wmask = width == 32 ? 0xffffffffu : (1u << width) - 1u;
  const int per = (int)((tile + blockDim.x - 1) / blockDim.x);
  const int64_t last_tile = (n - 1) / tile;
  const int rep = replacement != 0 ? 1 : 0;
  for (int64_t t = blockIdx.x; t < ntiles && t <= last_tile; t += gridDim.x) {
    const int64_t first = t * tile;
    const int len = (int)(n - first < tile ? n - first : tile);
    const int64_t base = tile_offsets[t];
    const int c0 = (int)threadIdx.x * per < len ? (int)threadIdx.x * per : len;
    const int c1 = c0 + per < len ? c0 + per : len;
    bool general = true;
    if (k == 2 && per <= 4) {
      /* P1. the run's lists (all loads first), their pairs in int32, the range of items */
      const int mine = c1 - c0;
      int64_t a4[4], b4[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        a4[j] = j < mine ? (int64_t)starts[first + c0 + j] : 0;
        b4[j] = j < mine ? (int64_t)stops[first + c0 + j] : 0;
      }
      int64_t lo = 9223372036854775807LL, hi = 0;
      int L[4];
      int run = 0;
      bool flag = false;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        int64_t it = jgk_list_bad(a4[j], b4[j], m) ? 0 : b4[j] - a4[j];
        if (it > 0) {
          lo = a4[j] < lo ? a4[j] : lo;
          hi = b4[j] > hi ? b4[j] : hi;
        }
        if (it > JGK_CV_LMAX) {
          flag = true;
          it = 0;
        }
        L[j] = (int)it;
        run += jgk_cv_pairs(L[j], rep);
      }
      if (run > JGK_CV_PMAX) flag = true;
      if (flag) run = 0;
      int incl = run;
      for (int d = 1; d < 32; d <<= 1) {
        const int y = __shfl_up_sync(wmask, incl, d);
        if (lane >= d) incl += y;
      }
      for (int d = 16; d > 0; d >>= 1) {
        const int64_t olo = (int64_t)__shfl_down_sync(wmask, (long long)lo, d);
        const int64_t ohi = (int64_t)__shfl_down_sync(wmask, (long long)hi, d);
        if (lane + d < width) {
          lo = olo < lo ? olo : lo;
          hi = ohi > hi ? ohi : hi;
        }
      }
      /* the starts relative to the warp's lo: all the pairs way needs of them (in its tiles
       * every non-empty list lies in [lo, hi), fewer than 2^16 items), 16 bits each */
      const int64_t wlo = (int64_t)__shfl_sync(wmask, (long long)lo, 0);
      uint32_t q0 = 0, q1 = 0, q2 = 0, q3 = 0; /* (rel << 16) | L: the run's lists, in order */
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const uint32_t q = ((uint32_t)((uint64_t)a4[j] - (uint64_t)wlo) << 16) | (uint32_t)L[j];
        q0 = j == 0 ? q : q0;
        q1 = j == 1 ? q : q1;
        q2 = j == 2 ? q : q2;
        q3 = j == 3 ? q : q3;
      }
      flag = __any_sync(wmask, flag) != 0;
      if (lane == 0) {
        s_wlo[wid] = lo;
        s_whi[wid] = hi;
      }
      if (lane == width - 1) s_wcnt[wid] = flag ? -1 : incl;
      __syncthreads();
      int ex = incl - run, tot = 0;
      lo = s_wlo[0];
      hi = s_whi[0];
      for (int w = 0; w < nwarps; ++w) {
        const int c = s_wcnt[w];
        if (c < 0) flag = true;
        if (w < wid) ex += c;
        tot += c;
        lo = s_wlo[w] < lo ? s_wlo[w] : lo;
        hi = s_whi[w] > hi ? s_whi[w] : hi;
      }
      /* the staged values (rounded up to 16 bytes) and one descriptor per pair must fit */
      const int64_t nv = lo < hi ? hi - lo : 0;
      const int vbytes = nv <= JGK_CV_RAW * 8 ? ((int)nv * (int)sizeof(T) + 15) & ~15 : 0;
      if (!flag && nv <= JGK_CV_RAW * 8 && (int64_t)vbytes + 4 * (int64_t)tot <= JGK_CV_RAW * 8) {
        general = false;
        if (base >= 0 && base <= total - tot) {
          /* P2. offsets from the registers; content[lo:hi) into shared memory */
          int64_t *const od = offsets + first + c0 + 1;
          int o = ex;
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            const uint32_t q = j == 0 ? q0 : j == 1 ? q1 : j == 2 ? q2 : q3;
            o += jgk_cv_pairs((int)(q & 0xffffu), rep);
            if (j < mine) od[j] = base + o;
          }
          const int inv = (int)nv, bd = (int)blockDim.x;
          T *const s_val = reinterpret_cast<T *>(s_raw);
          for (int i = (int)threadIdx.x; i < inv; i += 4 * bd) {
            T v[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) v[j] = i + j * bd < inv ? content[lo + i + j * bd] : T();
#pragma unroll
            for (int j = 0; j < 4; ++j) {
              if (i + j * bd < inv) s_val[i + j * bd] = v[j];
            }
          }
          /* P3. the descriptors of the run's pairs, row by row (list after list: the words
           * shift down), then the stream over the tile's positions */
          uint32_t *const s_desc = reinterpret_cast<uint32_t *>(s_bytes + vbytes);
          const uint32_t sz = (uint32_t)sizeof(T), step = sz << 16;
          const uint32_t shift = (uint32_t)((uint64_t)wlo - (uint64_t)lo);
          int pos = ex;
          for (int j = 0; j < mine; ++j) {
            const uint32_t q = q0;
            q0 = q1;
            q1 = q2;
            q2 = q3;
            const int Lj = (int)(q & 0xffffu);
            const uint32_t s = (q >> 16) + shift;
            for (int x = 0; x < Lj; ++x) {
              uint32_t dsc = (s + (uint32_t)x) * sz | ((s + (uint32_t)(x + 1 - rep)) * sz) << 16;
              const int row = Lj - 1 - x + rep;
              for (int y = 0; y < row; ++y) {
                s_desc[pos + y] = dsc;
                dsc += step;
              }
              pos += row;
            }
          }
          __syncthreads();
          T *const e0 = out + base;
          T *const e1 = e0 + total;
          constexpr int U = sizeof(T) > 4 ? 2 : 4;
          for (int p = (int)threadIdx.x; p < tot; p += U * bd) {
            uint32_t dd[U];
#pragma unroll
            for (int j = 0; j < U; ++j) dd[j] = p + j * bd < tot ? s_desc[p + j * bd] : 0u;
            T va[U], vb[U];
#pragma unroll
            for (int j = 0; j < U; ++j) {
              va[j] = *reinterpret_cast<const T *>(s_bytes + (dd[j] & 0xffffu));
              vb[j] = *reinterpret_cast<const T *>(s_bytes + (dd[j] >> 16));
            }
#pragma unroll
            for (int j = 0; j < U; ++j) {
              if (p + j * bd < tot) {
                e0[p + j * bd] = va[j];
                e1[p + j * bd] = vb[j];
              }
            }
          }
        }
      } else {
        __syncthreads(); /* everyone has read s_wlo / s_whi before the general way writes them */
      }
    }
    if (general) {
      /* G1. starts, item counts and counts */
      for (int li = (int)threadIdx.x; li < len; li += (int)blockDim.x) {
        const int64_t a = (int64_t)starts[first + li], b = (int64_t)stops[first + li];
        int64_t c = 0, items = 0;
        if (!jgk_list_bad(a, b, m)) {
          items = b - a;
          c = jgk_cv_binomial(replacement != 0 && items > 0 ? items + k - 1 : items, k);
          if (c < 0) c = 0;
        }
        s_start[li] = a;
        s_items[li] = items;
        s_off[li] = c;
      }
      __syncthreads();
      /* G2. local offsets: runs of per counts, scanned over the block */
      uint64_t run = 0;
      for (int li = c0; li < c1; ++li) run += (uint64_t)s_off[li];
      uint64_t tot = 0;
      uint64_t ex = jgk_cv_block_scan(run, s_warp, &tot);
      for (int li = c0; li < c1; ++li) {
        const uint64_t c = (uint64_t)s_off[li];
        s_off[li] = (int64_t)ex;
        ex += c;
      }
      if (threadIdx.x == 0) s_off[len] = (int64_t)tot;
      const int64_t sum = tot > (uint64_t)9223372036854775807LL ? -1 : (int64_t)tot;
      const bool fits = base >= 0 && sum >= 0 && base <= total - sum;
      __syncthreads();
      if (fits) {
        for (int li = (int)threadIdx.x; li < len; li += (int)blockDim.x) {
          offsets[first + li + 1] = base + s_off[li + 1];
        }
        T *const dst = out + base;
        /* G3. one position per thread at a time, values from content */
        for (int64_t p = threadIdx.x; p < sum; p += blockDim.x) {
          int lo_ = 0, w = len;
          while (w > 1) {
            const int half = w >> 1;
            if (s_off[lo_ + half] <= p) lo_ += half;
            w -= half;
          }
          int64_t r = p - s_off[lo_];
          const T *const v = content + s_start[lo_];
          const int64_t items = s_items[lo_];
          if (k == 2) {
            const int64_t lp = items + (replacement != 0 ? 1 : 0);
            const int64_t rr = jgk_cv_c2(lp) - 1 - r;
            int64_t b = (int64_t)((1.0 + sqrt(1.0 + 8.0 * (double)rr)) * 0.5);
            while (b > 1 && jgk_cv_c2(b) > rr) --b;
            while (jgk_cv_c2(b + 1) <= rr) ++b;
            const int64_t a = rr - jgk_cv_c2(b);
            const int64_t i0 = lp - 1 - b, i1 = lp - 1 - a - (replacement != 0 ? 1 : 0);
            dst[p] = v[i0];
            dst[total + p] = v[i1];
          } else if (k == 1) {
            dst[p] = v[r];
          } else {
            const int64_t lp = replacement != 0 ? items + k - 1 : items;
            int64_t from = 0;
            for (int64_t q = 0; q < k; ++q) {
              const int64_t kk = k - q;
              int64_t a;
              if (kk == 1) {
                a = from + r;
              } else {
                const int64_t all = jgk_cv_binomial(lp - from, kk);
                int64_t x = from, y = lp - kk; /* the answer lies in [x, y] */
                while (x < y) {
                  const int64_t mid = x + (y - x + 1) / 2;
                  if (all - jgk_cv_binomial(lp - mid, kk) <= r) {
                    x = mid;
                  } else {
                    y = mid - 1;
                  }
                }
                a = x;
                r -= all - jgk_cv_binomial(lp - a, kk);
              }
              dst[q * total + p] = v[replacement != 0 ? a - q : a];
              from = a + 1;
            }
          }
        }
      }
    }
    __syncthreads();
  }
}
