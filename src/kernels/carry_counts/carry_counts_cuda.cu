/* carry_counts_cuda.cu: CUDA implementation of kernel "carry_counts" (carry_counts.json). One
 * thread per position, grid-stride, with the host's checks in the host's order; a bad position
 * goes to jgk_fail (atomic minimum: the smallest position wins, as on the host, whose loop stops
 * at the first). starts and stops are read only at checked positions. */
template <typename I>
__global__ void jgk_carry_counts(int64_t n, int64_t identity, int64_t base,
                                 const int64_t *__restrict__ carry, int64_t size, int64_t length,
                                 const I *__restrict__ starts, const I *__restrict__ stops,
                                 int64_t m, int64_t has_expect, const int64_t *__restrict__ expect,
                                 int64_t *__restrict__ counts, unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t c = identity != 0 ? base + i : carry[i];
    int64_t k = 0;
    if (c >= length) {
      jgk_fail(error_word, i, JGK_CARRY_COUNTS_OUT_OF_RANGE);
      continue;
    }
    if (c >= 0) {
      if (size >= 0) {
        k = size;
      } else {
        const int64_t a = (int64_t)starts[c], b = (int64_t)stops[c];
        if (b < a || (a < b && (a < 0 || b > m))) {
          jgk_fail(error_word, i, JGK_CARRY_COUNTS_BAD_RANGE);
          continue;
        }
        k = b - a;
      }
    }
    if (has_expect != 0 && k != expect[i]) {
      jgk_fail(error_word, i, JGK_CARRY_COUNTS_DIFFERENT);
      continue;
    }
    counts[i] = k;
  }
}
