/* jgk_comb_count.h: the host side's count of combinations of a list, shared by kernels
 * "combinations_tile_counts" and "combinations_values" (their CUDA files hold the same
 * functions, as NVRTC sees only jgk_common.cuh). Internal, header-only. */
#ifndef JGK_COMB_COUNT_H
#define JGK_COMB_COUNT_H

#include <stdint.h>

/** Lists per tile of the value combinations at most (the CUDA kernels' shared memory). */
#define JGK_COMB_TILE 1024

/** C(x, k) for x >= 0 and 1 <= k <= 4; -1 when it exceeds INT64_MAX. Below 55109 the product
 *  x (x-1) (x-2) (x-3) fits in int64, so the plain recurrence C(x, j+1) = C(x, j) (x - j) / (j+1)
 *  (exact divisions) is used; above, one factor at a time with the common divisor taken out
 *  first, every partial result at most C(x, k), so the overflow test is exact. */
static inline int64_t jgk_comb_binomial(int64_t x, int64_t k) {
  if (x < k) return 0;
  if (x < 55109) {
    int64_t c = 1;
    for (int64_t j = 0; j < k; ++j) c = c * (x - j) / (j + 1);
    return c;
  }
  int64_t c = 1;
  for (int64_t j = 1; j <= k; ++j) {
    const int64_t num = x - k + j;
    int64_t g = c, h = j; /* gcd(c, j) */
    while (h != 0) {
      const int64_t r = g % h;
      g = h;
      h = r;
    }
    const int64_t a = c / g, b = num / (j / g);
    if (b != 0 && a > INT64_MAX / b) return -1;
    c = a * b;
  }
  return c;
}

/** The number of combinations of k (1..4) items of a list of len >= 0 items: C(len, k), or
 *  C(len + k - 1, k) with replacement (0 for an empty list); -1 above INT64_MAX. */
static inline int64_t jgk_comb_count(int64_t len, int64_t k, int64_t replacement) {
  const int64_t x = replacement != 0 && len > 0 ? len + k - 1 : len;
  return jgk_comb_binomial(x, k);
}

#endif /* JGK_COMB_COUNT_H */
