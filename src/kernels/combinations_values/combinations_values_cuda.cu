/* combinations_values_cuda.cu: CUDA implementation of kernel "combinations_values"
 * (combinations_values.json).
 *
 * A block per tile of up to 1024 consecutive lists (grid-stride over tiles), writing the values
 * of the tile's combinations straight into the k planes of out (no index arrays):
 *  1. its threads read the tile's starts and stops (coalesced) into shared memory with each
 *     list's count (as the host: bad list or overflow counts 0) and reduce the range [lo, hi)
 *     of the non-empty lists' items; with k = 2, when that range holds at most 16 KB of values
 *     and the tile at most 2^30 combinations, the tile is "staged": each list's start relative
 *     to lo and its item count are packed in a uint32, its local offsets kept in int32 too, and
 *     content[lo:hi) copied into shared memory (coalesced), so that step 3 reads only shared
 *     memory and its stores are all it sends to global memory;
 *  2. each thread sums a run of consecutive counts, a block-wide exclusive scan (warp shuffles,
 *     one word per warp) turns the runs into the tile's local offsets (shared, int64), and the
 *     threads write offsets[first + 1 ..] = tile_offsets[t] + local offsets (coalesced);
 *  3. the threads stride over the tile's output positions p (thread j: j, j + blockDim, ...):
 *     p's list is the last with local offset <= p (a branch-free binary search in shared memory;
 *     empty lists are skipped by it), r = p - that offset is unranked into the r-th combination
 *     in lexicographic order, and the k values are read from content (cached loads: a tile's
 *     lists sit close together) and written to out[q * total + base + p]: consecutive threads
 *     write consecutive positions of each plane, so every store is coalesced whatever the list
 *     lengths, and one long list is walked by the whole block. A staged tile takes four
 *     positions per thread at a time (p, p + blockDim, p + 2 blockDim, p + 3 blockDim), their
 *     binary searches in step, so that four chains of shared loads are in flight per thread.
 * Unranking: k = 2 by a closed form (the reverse rank r' of a pair is C(b', 2) + a' in colex
 * order, b' from one double square root, corrected by integer checks); with replacement the
 * pairs of len items are those without of len + 1 items, b shifted down by one; k = 1 directly;
 * k = 3, 4 item by item, each position the largest a with C(lp - from, kk) - C(lp - a, kk) <= r,
 * found by binary search (lp = len + k - 1 with replacement, b_q = a_q - q). Binomials stay at
 * most the list's count, which fits int64. */

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

/* C(x, 2) for 0 <= x <= 46341 in int32. */
__device__ inline int jgk_cv_c2i(int x) { return (x * (x - 1)) >> 1; }

/* Bytes of content a tile stages in shared memory (the k = 2 loop below). */
#define JGK_CV_STAGE 16384

/* At most 40 registers (__maxnreg__: 6 blocks of 256, 1536 threads per SM; 33 KB of shared
 * memory each). A macro, so that no parenthesis stands between __global__ and the name (the
 * catalog's signature check reads back from the name to the previous ')' for __global__). */
#define JGK_CV_BOUNDS __maxnreg__(40)

template <typename I, typename T>
__global__ void JGK_CV_BOUNDS jgk_combinations_values(
    int64_t n, const I *__restrict__ starts, const I *__restrict__ stops, int64_t m,
    const T *__restrict__ content, int64_t k, int64_t replacement, int64_t tile, int64_t ntiles,
    const int64_t *__restrict__ tile_offsets, int64_t total, int64_t *__restrict__ offsets,
    T *__restrict__ out) {
  /* s_u holds either the general loop's starts and item counts (int64, 16 KB) or, when the tile
   * is staged, its content values (bytes [0, 16K)), each list's packed start (relative to the
   * staged range) and item count (uint32, [16K, 20K)) and its local offsets in int32 ([20K,
   * 24K + 4)); the packed words are written while the int64 ones may still be read, so they
   * lie past them. */
  __shared__ int64_t s_off[JGK_CV_TILE + 1];
  __shared__ int64_t s_u[3 * JGK_CV_TILE + 1];
  __shared__ uint64_t s_warp[32];
  __shared__ int64_t s_wlo[32];
  __shared__ int64_t s_whi[32];
  int64_t *const s_start = s_u;
  int64_t *const s_items = s_u + JGK_CV_TILE;
  T *const s_val = reinterpret_cast<T *>(s_u);
  uint32_t *const s_list = reinterpret_cast<uint32_t *>(s_u + 2 * JGK_CV_TILE);
  int32_t *const s_off32 = reinterpret_cast<int32_t *>(s_u + 2 * JGK_CV_TILE + JGK_CV_TILE / 2);
  const int64_t cap = JGK_CV_STAGE / (int64_t)sizeof(T);
  if (blockIdx.x == 0 && threadIdx.x == 0) offsets[0] = 0;
  if (k < 1 || k > 4 || tile < 1 || tile > JGK_CV_TILE || total < 0 || n <= 0) return;
  const int lane = (int)threadIdx.x % 32, wid = (int)threadIdx.x / 32;
  const int nwarps = ((int)blockDim.x + 31) / 32;
  const int width = (int)blockDim.x - wid * 32 < 32 ? (int)blockDim.x - wid * 32 : 32;
  const unsigned wmask = width == 32 ? 0xffffffffu : (1u << width) - 1u;
  const int per = (int)((tile + blockDim.x - 1) / blockDim.x);
  const int64_t last_tile = (n - 1) / tile;
  for (int64_t t = blockIdx.x; t < ntiles && t <= last_tile; t += gridDim.x) {
    const int64_t first = t * tile;
    const int len = (int)(n - first < tile ? n - first : tile);
    /* 1. starts, item counts and counts; the range [lo, hi) of the non-empty lists' items */
    int64_t lo = 9223372036854775807LL, hi = 0;
    for (int li = (int)threadIdx.x; li < len; li += (int)blockDim.x) {
      const int64_t a = (int64_t)starts[first + li], b = (int64_t)stops[first + li];
      int64_t c = 0, items = 0;
      if (!jgk_list_bad(a, b, m)) {
        items = b - a;
        c = jgk_cv_binomial(replacement != 0 && items > 0 ? items + k - 1 : items, k);
        if (c < 0) c = 0;
      }
      if (items > 0) {
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
      }
      s_start[li] = a;
      s_items[li] = items;
      s_off[li] = c;
    }
    for (int d = 16; d > 0; d >>= 1) {
      const int64_t olo = (int64_t)__shfl_down_sync(wmask, (long long)lo, d);
      const int64_t ohi = (int64_t)__shfl_down_sync(wmask, (long long)hi, d);
      if (lane + d < width) {
        lo = olo < lo ? olo : lo;
        hi = ohi > hi ? ohi : hi;
      }
    }
    if (lane == 0) {
      s_wlo[wid] = lo;
      s_whi[wid] = hi;
    }
    __syncthreads();
    lo = s_wlo[0];
    hi = s_whi[0];
    for (int w = 1; w < nwarps; ++w) {
      lo = s_wlo[w] < lo ? s_wlo[w] : lo;
      hi = s_whi[w] > hi ? s_whi[w] : hi;
    }
    /* the k = 2 loop stages the tile's content when its range fits (the same for every thread) */
    const bool stage = k == 2 && lo < hi && hi - lo <= cap;
    if (stage) {
      for (int li = (int)threadIdx.x; li < len; li += (int)blockDim.x) {
        const int64_t items = s_items[li];
        s_list[li] = items > 0 ? (uint32_t)(s_start[li] - lo) | ((uint32_t)items << 16) : 0u;
      }
    }
    /* 2. local offsets: runs of per counts, scanned over the block */
    const int c0 = (int)threadIdx.x * per < len ? (int)threadIdx.x * per : len;
    const int c1 = c0 + per < len ? c0 + per : len;
    uint64_t run = 0;
    for (int li = c0; li < c1; ++li) run += (uint64_t)s_off[li];
    uint64_t tot = 0;
    uint64_t ex = jgk_cv_block_scan(run, s_warp, &tot);
    /* past the scan's barrier: nobody reads s_start / s_items of a staged tile any more */
    const bool fast = stage && tot <= ((uint64_t)1 << 30);
    for (int li = c0; li < c1; ++li) {
      const uint64_t c = (uint64_t)s_off[li];
      s_off[li] = (int64_t)ex;
      if (fast) s_off32[li] = (int32_t)ex;
      ex += c;
    }
    if (threadIdx.x == 0) {
      s_off[len] = (int64_t)tot;
      if (fast) s_off32[len] = (int32_t)tot;
    }
    const int64_t base = tile_offsets[t];
    const int64_t sum = tot > (uint64_t)9223372036854775807LL ? -1 : (int64_t)tot;
    const bool fits = base >= 0 && sum >= 0 && base <= total - sum;
    if (fast && fits) {
      const int nv = (int)(hi - lo);
      const T *const src = content + lo;
      for (int j = (int)threadIdx.x; j < nv; j += (int)blockDim.x) s_val[j] = src[j];
    }
    __syncthreads();
    if (fits) {
      for (int li = (int)threadIdx.x; li < len; li += (int)blockDim.x) {
        offsets[first + li + 1] = base + s_off[li + 1];
      }
      T *const dst = out + base;
      if (fast) {
        /* 3a. k = 2, staged: four positions per thread at a time (p, p + blockDim, ...), their
         * binary searches in step (the same widths), everything read from shared memory */
        const int isum = (int)sum, bd = (int)blockDim.x, rep = replacement != 0 ? 1 : 0;
        T *const dst1 = dst + total;
        for (int p0 = (int)threadIdx.x; p0 < isum; p0 += 4 * bd) {
          int at[4];
#pragma unroll
          for (int j = 0; j < 4; ++j) at[j] = 0;
          for (int w = len; w > 1;) {
            const int half = w >> 1;
#pragma unroll
            for (int j = 0; j < 4; ++j) {
              if (s_off32[at[j] + half] <= p0 + j * bd) at[j] += half;
            }
            w -= half;
          }
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            const int p = p0 + j * bd;
            if (p < isum) {
              const uint32_t info = s_list[at[j]];
              const int lp = (int)(info >> 16) + rep;
              const int rr = jgk_cv_c2i(lp) - 1 - (p - s_off32[at[j]]);
              int b = (int)((1.0f + sqrtf(1.0f + 8.0f * (float)rr)) * 0.5f);
              while (b > 1 && jgk_cv_c2i(b) > rr) --b;
              while (jgk_cv_c2i(b + 1) <= rr) ++b;
              const int a = rr - jgk_cv_c2i(b);
              const T *const v = s_val + (info & 0xffffu);
              dst[p] = v[lp - 1 - b];
              dst1[p] = v[lp - 1 - a - rep];
            }
          }
        }
      } else {
        /* 3b. the general loop: one position per thread at a time, values from content */
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
