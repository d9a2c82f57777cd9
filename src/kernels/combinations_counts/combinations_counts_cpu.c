/* combinations_counts_cpu.c: host reference of kernel "combinations_counts"
 * (combinations_counts.json).
 *
 * For list i of length L = stops[i] - starts[i] (0 <= i < n): out[i] = C(L, k), or C(L + k - 1, k)
 * with replacement, computed exactly in int64 (C(x, j) = C(x-1, j-1) * x / j, one factor at a time,
 * the common divisor taken out first so that no product exceeds the result). A list is bad
 * (BAD_RANGE) when stops < starts or when it is not empty and leaves [0, m) (Awkward's rule: an
 * empty list may start anywhere); a count above INT64_MAX is OVERFLOW. The first bad list stops
 * the loop (out[0..i) written). A k outside [1, 4] gives 0 for every list (the operation checks
 * k before calling). */
#include "jgk_combinations_counts.h"

static int64_t gcd_small(int64_t a, int64_t b) {
  while (b != 0) {
    const int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* C(x, k) for x >= 0 and 1 <= k <= 4; -1 when it exceeds INT64_MAX. Every partial product
 * C(x - k + j, j) is at most C(x, k), so the overflow test is exact. */
static int64_t binomial(int64_t x, int64_t k) {
  if (x < k) return 0;
  int64_t c = 1;
  for (int64_t j = 1; j <= k; ++j) {
    const int64_t num = x - k + j;
    const int64_t g = gcd_small(c, j);
    const int64_t a = c / g, b = num / (j / g);
    if (b != 0 && a > INT64_MAX / b) return -1;
    c = a * b;
  }
  return c;
}

#define COMBINATIONS_COUNTS(I, S)                                                               \
  jg_status jgk_combinations_counts_c_##S(int64_t n, const I *starts, const I *stops, int64_t m, \
                                          int64_t k, int64_t replacement, int64_t *out,        \
                                          jg_error *err) {                                     \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      if (b < a || (a < b && (a < 0 || b > m))) {                                              \
        return jgk_combinations_counts_error(err, JGK_COMBINATIONS_COUNTS_BAD_RANGE, i);       \
      }                                                                                        \
      if (k < 1 || k > 4) {                                                                    \
        out[i] = 0;                                                                            \
        continue;                                                                              \
      }                                                                                        \
      const int64_t len = b - a;                                                               \
      /* len + k - 1 cannot overflow: len <= m and k <= 4 (m < INT64_MAX - 3 for real data). */ \
      const int64_t x = replacement != 0 && len > 0 ? len + k - 1 : len;                       \
      const int64_t c = binomial(x, k);                                                        \
      if (c < 0) {                                                                             \
        return jgk_combinations_counts_error(err, JGK_COMBINATIONS_COUNTS_OVERFLOW, i);        \
      }                                                                                        \
      out[i] = c;                                                                              \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_COMBINATIONS_COUNTS_VARIANTS(COMBINATIONS_COUNTS)
