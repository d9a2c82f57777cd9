/* combinations_counts_cuda.cu: CUDA implementation of kernel "combinations_counts"
 * (combinations_counts.json). One thread per list, grid-stride: reads starts[i] and stops[i]
 * (coalesced), writes out[i] = C(len, k) (or C(len + k - 1, k) with replacement) computed
 * exactly as on the host (one factor at a time, the common divisor taken out first); a bad list
 * or a count above INT64_MAX goes to the error word (smallest list wins, as the host loop). */

__device__ inline int64_t jgk_cc_gcd(int64_t a, int64_t b) {
  while (b != 0) {
    const int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* C(x, k) for 1 <= k <= 4; -1 above INT64_MAX (see the host side). */
__device__ inline int64_t jgk_cc_binomial(int64_t x, int64_t k) {
  if (x < k) return 0;
  int64_t c = 1;
  for (int64_t j = 1; j <= k; ++j) {
    const int64_t num = x - k + j;
    const int64_t g = jgk_cc_gcd(c, j);
    const int64_t a = c / g, b = num / (j / g);
    if (b != 0 && a > (int64_t)9223372036854775807LL / b) return -1;
    c = a * b;
  }
  return c;
}

template <typename I>
__global__ void jgk_combinations_counts(int64_t n, const I *__restrict__ starts,
                                        const I *__restrict__ stops, int64_t m, int64_t k,
                                        int64_t replacement, int64_t *__restrict__ out,
                                        unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    if (jgk_list_bad(a, b, m)) {
      jgk_fail(error_word, i, JGK_COMBINATIONS_COUNTS_BAD_RANGE);
      continue;
    }
    if (k < 1 || k > 4) {
      out[i] = 0;
      continue;
    }
    const int64_t len = b - a;
    const int64_t x = replacement != 0 && len > 0 ? len + k - 1 : len;
    const int64_t c = jgk_cc_binomial(x, k);
    if (c < 0) {
      jgk_fail(error_word, i, JGK_COMBINATIONS_COUNTS_OVERFLOW);
      continue;
    }
    out[i] = c;
  }
}
