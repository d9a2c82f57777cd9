/* cartesian_counts_cuda.cu: CUDA implementation of kernel "cartesian_counts"
 * (cartesian_counts.json). One thread per list, grid-stride (coalesced reads of the starts and
 * stops, coalesced writes); the same checks and overflow test as the host, a failing list going
 * to the error word (smallest list wins, as the host loop). */
template <typename I0, typename I1, typename I2>
__global__ void jgk_cartesian_counts(int64_t n, int64_t narrays, const I0 *__restrict__ starts0,
                                     const I0 *__restrict__ stops0, int64_t m0,
                                     const I1 *__restrict__ starts1,
                                     const I1 *__restrict__ stops1, int64_t m1,
                                     const I2 *__restrict__ starts2,
                                     const I2 *__restrict__ stops2, int64_t m2,
                                     int64_t *__restrict__ out, int64_t *__restrict__ out0,
                                     unsigned long long *error_word) {
  const int64_t big = (int64_t)9223372036854775807LL;
  JGK_FOR(i, n) {
    const int64_t a0 = (int64_t)starts0[i], b0 = (int64_t)stops0[i];
    const int64_t a1 = (int64_t)starts1[i], b1 = (int64_t)stops1[i];
    int64_t a2 = 0, b2 = 1;
    if (narrays > 2) {
      a2 = (int64_t)starts2[i];
      b2 = (int64_t)stops2[i];
    }
    if (jgk_list_bad(a0, b0, m0) || jgk_list_bad(a1, b1, m1) ||
        (narrays > 2 && jgk_list_bad(a2, b2, m2))) {
      jgk_fail(error_word, i, JGK_CARTESIAN_COUNTS_BAD_RANGE);
      continue;
    }
    const int64_t l0 = b0 - a0, l1 = b1 - a1, l2 = b2 - a2;
    if ((l1 != 0 && l0 > big / l1) || (l2 != 0 && l0 * l1 > big / l2)) {
      jgk_fail(error_word, i, JGK_CARTESIAN_COUNTS_OVERFLOW);
      continue;
    }
    out[i] = l0 * l1 * l2;
    out0[i] = l0;
  }
}
