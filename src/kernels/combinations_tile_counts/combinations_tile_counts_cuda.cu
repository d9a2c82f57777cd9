/* combinations_tile_counts_cuda.cu: CUDA implementation of kernel "combinations_tile_counts"
 * (combinations_tile_counts.json).
 *
 * A block per tile (grid-stride over tiles): its threads read the tile's starts and stops
 * (coalesced: thread j takes lists first + j, first + j + blockDim, ..., four at a time, their
 * loads all issued first), count each list as the host does (bad list or overflow: -1; below
 * 55109 items one product and a division by a constant), then a warp-shuffle reduction and one
 * int64 per warp in shared memory give the tile's sum, or -1 when any list was bad or the sum leaves int64.
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

/* At most 40 registers (__maxnreg__: 6 blocks of 256 per SM). A macro, so that no parenthesis
 * stands between __global__ and the name (the catalog's signature check). */
#define JGK_CTC_BOUNDS __maxnreg__(40)

template <typename I>
__global__ void JGK_CTC_BOUNDS jgk_combinations_tile_counts(int64_t n, const I *__restrict__ starts,
                                             const I *__restrict__ stops, int64_t m, int64_t k,
                                             int64_t replacement, int64_t tile, int64_t ntiles,
                                             int64_t *__restrict__ out) {
  __shared__ int64_t s_warp[32];
  const bool ok = k >= 1 && k <= 4 && tile >= 1 && tile <= 1024;
  const int lane = (int)threadIdx.x % 32, wid = (int)threadIdx.x / 32;
  const int nwarps = ((int)blockDim.x + 31) / 32;
  const int width = (int)blockDim.x - wid * 32 < 32 ? (int)blockDim.x - wid * 32 : 32;
  const unsigned mask = width == 32 ? 0xffffffffu : (1u << width) - 1u;
  for (int64_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
    int64_t sum = 0;
    if (!ok) {
      sum = -1;
    } else if (n > 0 && t <= (n - 1) / tile) {
      const int64_t first = t * tile;
      const int len = (int)(n - first < tile ? n - first : tile);
      const int bd = (int)blockDim.x;
      /* four lists per thread at a time (li, li + blockDim, ...): all eight loads issued before
       * any count (a list past the tile reads as [0, 0): empty, counts 0) */
      for (int li = (int)threadIdx.x; li < len; li += 4 * bd) {
        int64_t a[4], b[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const int i = li + j * bd;
          a[j] = i < len ? (int64_t)starts[first + i] : 0;
          b[j] = i < len ? (int64_t)stops[first + i] : 0;
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          int64_t c = -1;
          if (!jgk_list_bad(a[j], b[j], m)) {
            const int64_t len_j = b[j] - a[j];
            c = jgk_ctc_binomial(replacement != 0 && len_j > 0 ? len_j + k - 1 : len_j, k);
          }
          sum = jgk_ctc_add(sum, c);
        }
      }
    }
    for (int d = 16; d > 0; d >>= 1) {
      const int64_t other = (int64_t)__shfl_down_sync(mask, (long long)sum, d);
      if (lane + d < width) sum = jgk_ctc_add(sum, other);
    }
    if (lane == 0) s_warp[wid] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
      int64_t s = 0;
      for (int w = 0; w < nwarps; ++w) s = jgk_ctc_add(s, s_warp[w]);
      out[t] = ok ? s : -1;
    }
    __syncthreads();
  }
}
