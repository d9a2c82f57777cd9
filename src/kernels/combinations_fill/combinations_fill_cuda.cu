/* combinations_fill_cuda.cu: CUDA implementation of kernel "combinations_fill"
 * (combinations_fill.json).
 *
 * One thread per output combination t < total, grid-stride, so that the k stores of a warp are
 * k runs of 32 consecutive int64 (coalesced) whatever the list lengths: the thread finds its list
 * i by a branch-free binary search over offsets (the last i with offsets[i] <= t; offsets are
 * non-decreasing from 0, so empty lists are skipped), then unranks r = t - offsets[i] into the
 * r-th combination of k items of len in lexicographic order: item q is the largest a with
 * C(len' - lo, kk) - C(len' - a, kk) <= r (the combinations whose item q is below a), found by a
 * binary search over a, after which r drops by that number and lo = a + 1 (len' = len + k - 1
 * with replacement, mapping b_q = a_q + q back). Binomials are exact in int64 (every one is at
 * most the list's count, which combinations_counts checked). A list whose offsets leave
 * [0, total] is skipped, as on the host. */

__device__ inline int64_t jgk_cf_gcd(int64_t a, int64_t b) {
  while (b != 0) {
    const int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* C(x, k) for 1 <= k <= 4 (0 for x < k); exact when it fits in int64. */
__device__ inline int64_t jgk_cf_binomial(int64_t x, int64_t k) {
  if (x < k) return 0;
  int64_t c = 1;
  for (int64_t j = 1; j <= k; ++j) {
    const int64_t g = jgk_cf_gcd(c, j);
    c = (c / g) * ((x - k + j) / (j / g));
  }
  return c;
}

template <typename I>
__global__ void jgk_combinations_fill(int64_t n, const I *__restrict__ starts,
                                      const I *__restrict__ stops,
                                      const int64_t *__restrict__ offsets, int64_t k,
                                      int64_t replacement, int64_t local, int64_t total,
                                      int64_t *__restrict__ out) {
  if (n <= 0 || k < 1 || k > 4) return;
  JGK_FOR(t, total) {
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if (offsets[lo + half] <= t) lo += half;
      len -= half;
    }
    const int64_t i = lo;
    const int64_t base = offsets[i], end = offsets[i + 1];
    if (base < 0 || t < base || t >= end || end > total) continue;
    const int64_t a0 = (int64_t)starts[i], items = (int64_t)stops[i] - a0;
    if (items < (replacement != 0 ? 1 : k)) continue;
    const int64_t lp = replacement != 0 ? items + k - 1 : items;
    int64_t r = t - base;
    int64_t from = 0;
    const int64_t shift = local != 0 ? 0 : a0;
    for (int64_t q = 0; q < k; ++q) {
      const int64_t kk = k - q;
      int64_t a;
      if (kk == 1) {
        a = from + r;
        r = 0;
      } else {
        const int64_t all = jgk_cf_binomial(lp - from, kk);
        int64_t x = from, y = lp - kk; /* the answer lies in [x, y] */
        while (x < y) {
          const int64_t mid = x + (y - x + 1) / 2;
          if (all - jgk_cf_binomial(lp - mid, kk) <= r) {
            x = mid;
          } else {
            y = mid - 1;
          }
        }
        a = x;
        r -= all - jgk_cf_binomial(lp - a, kk);
      }
      out[q * total + t] = shift + (replacement != 0 ? a - q : a);
      from = a + 1;
    }
  }
}
