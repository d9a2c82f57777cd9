/* combinations_tile_counts_cuda.cu: CUDA implementation of kernel "combinations_tile_counts"
 * (combinations_tile_counts.json).
 *
 * A warp per tile (tile t: warp t % (gridDim.x * warps per block) of the grid, grid-stride over
 * tiles; the catalog's block is one warp, so the operation's grid of ntiles blocks gives a tile
 * per block), no shared memory and no __syncthreads: its lanes walk the tile's lists in chunks
 * of 8 x 32 (lane l takes lists l, l + 32, ..., all eight loads issued before any count) and
 * count each list as the host does (bad list or overflow: -1; below 55109 items one product and
 * a division by a constant); a warp-shuffle reduction gives the tile's sum, or -1 when any list
 * was bad or the sum leaves int64. When stops == starts + 1 (the lists of a list-offset node:
 * one offsets array) only the starts are read, each list's stop being the next lane's start
 * (lane 31's from the next chunk's lane 0, or one load for the chunk's last list): 8 bytes per
 * list in one coalesced pass. Otherwise starts and stops are read, 4 x 32 lists a chunk.
 * No error word: the operation reads the -1 through the scan of the sums (one wait for both). */

/* C(x, k) for x >= 55109 and 1 <= k <= 4, -1 above INT64_MAX. */
__device__ inline int64_t jgk_ctc_binomial_big(int64_t x, int64_t k) {
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
__device__ inline int64_t jgk_ctc_binomial(int64_t x, int64_t k) {
  if (x < k) return 0;
  if (x < 55109) { /* the product fits (even in int64): one division by a constant */
    const uint64_t u = (uint64_t)x;
    if (k == 1) return x;
    if (k == 2) return (int64_t)(u * (u - 1) / 2);
    if (k == 3) return (int64_t)(u * (u - 1) * (u - 2) / 6);
    return (int64_t)(u * (u - 1) * (u - 2) * (u - 3) / 24);
  }
  return jgk_ctc_binomial_big(x, k);
}

/* a + b for a, b in [-1, INT64_MAX]: -1 when either is -1 or the sum leaves int64. */
__device__ inline int64_t jgk_ctc_add(int64_t a, int64_t b) {
  if (a < 0 || b < 0 || a > (int64_t)9223372036854775807LL - b) return -1;
  return a + b;
}

/* At most 64 registers (__maxnreg__): with blocks of one warp an SM holds 32 blocks at most,
 * and 32 warps of 64 registers fill its 65536 (the eight 8-byte loads in flight per lane need
 * them; 40 spills). A macro, so that no parenthesis stands between __global__ and the name (the
 * catalog's signature check). */
#define JGK_CTC_BOUNDS __maxnreg__(64)

/* The count of list [a, b) as the host gives it: -1 for a bad list or above INT64_MAX. */
__device__ inline int64_t jgk_ctc_count(int64_t a, int64_t b, int64_t m, int64_t k,
                                        int64_t replacement) {
  if (jgk_list_bad(a, b, m)) return -1;
  const int64_t len = b - a;
  return jgk_ctc_binomial(replacement != 0 && len > 0 ? len + k - 1 : len, k);
}

template <typename I>
__global__ void JGK_CTC_BOUNDS jgk_combinations_tile_counts(int64_t n, const I *__restrict__ starts,
                                             const I *__restrict__ stops, int64_t m, int64_t k,
                                             int64_t replacement, int64_t tile, int64_t ntiles,
                                             int64_t *__restrict__ out) {
  const bool ok = k >= 1 && k <= 4 && tile >= 1 && tile <= 1024;
  const int lane = (int)threadIdx.x % 32, wid = (int)threadIdx.x / 32;
  const int nwarps = ((int)blockDim.x + 31) / 32;
  const int width = (int)blockDim.x - wid * 32 < 32 ? (int)blockDim.x - wid * 32 : 32;
  const unsigned mask = width == 32 ? 0xffffffffu : (1u << width) - 1u;
  const bool dense = stops == starts + 1 && width == 32;
  for (int64_t t = (int64_t)blockIdx.x * nwarps + wid; t < ntiles;
       t += (int64_t)gridDim.x * nwarps) {
    int64_t sum = 0;
    if (!ok) {
      sum = -1;
    } else if (n > 0 && t <= (n - 1) / tile) {
      const int64_t first = t * tile;
      const int len = (int)(n - first < tile ? n - first : tile);
      const I *const sp = starts + first;
      if (dense) {
        /* list i's stop is start i + 1 (read when i + 1 <= len: stops[len - 1]) */
        for (int l0 = 0; l0 < len; l0 += 256) {
          int64_t a[8];
#pragma unroll
          for (int j = 0; j < 8; ++j) {
            const int i = l0 + j * 32 + lane;
            a[j] = i <= len ? (int64_t)sp[i] : 0;
          }
          const int i7 = l0 + 7 * 32 + 31;
          const int64_t e = lane == 31 && i7 < len ? (int64_t)sp[i7 + 1] : 0;
#pragma unroll
          for (int j = 0; j < 8; ++j) {
            int64_t b = (int64_t)__shfl_down_sync(0xffffffffu, (long long)a[j], 1);
            const int64_t nx =
                j < 7 ? (int64_t)__shfl_sync(0xffffffffu, (long long)a[j < 7 ? j + 1 : 7], 0) : e;
            if (lane == 31) b = nx;
            if (l0 + j * 32 + lane < len) {
              sum = jgk_ctc_add(sum, jgk_ctc_count(a[j], b, m, k, replacement));
            }
          }
        }
      } else {
        for (int l0 = 0; l0 < len; l0 += 4 * width) {
          int64_t a[4], b[4];
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            const int i = l0 + j * width + lane;
            a[j] = i < len ? (int64_t)sp[i] : 0;
            b[j] = i < len ? (int64_t)stops[first + i] : 0;
          }
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            if (l0 + j * width + lane < len) {
              sum = jgk_ctc_add(sum, jgk_ctc_count(a[j], b[j], m, k, replacement));
            }
          }
        }
      }
    }
    for (int d = 16; d > 0; d >>= 1) {
      const int64_t other = (int64_t)__shfl_down_sync(mask, (long long)sum, d);
      if (lane + d < width) sum = jgk_ctc_add(sum, other);
    }
    if (lane == 0) out[t] = ok ? sum : -1;
  }
}
