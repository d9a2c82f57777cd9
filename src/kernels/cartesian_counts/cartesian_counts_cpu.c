/* cartesian_counts_cpu.c: host reference of kernel "cartesian_counts" (cartesian_counts.json).
 *
 * For list i (0 <= i < n) of each of the narrays arrays (2 or 3; the third array's arguments are
 * ignored for 2): its length stops - starts, after the list is checked with Awkward's rule (bad
 * when stops < starts, or when it is not empty and leaves [0, m)): BAD_RANGE. out[i] is the
 * product of the lengths (OVERFLOW when it exceeds INT64_MAX), out0[i] the first array's length.
 * The first bad list stops the loop. */
#include "jgk_cartesian_counts.h"

static int bad(int64_t a, int64_t b, int64_t m) { return b < a || (a < b && (a < 0 || b > m)); }

#define CARTESIAN_COUNTS(I0, I1, I2, S)                                                          \
  jg_status jgk_cartesian_counts_c_##S(int64_t n, int64_t narrays, const I0 *starts0,            \
                                       const I0 *stops0, int64_t m0, const I1 *starts1,          \
                                       const I1 *stops1, int64_t m1, const I2 *starts2,          \
                                       const I2 *stops2, int64_t m2, int64_t *out, int64_t *out0, \
                                       jg_error *err) {                                          \
    for (int64_t i = 0; i < n; ++i) {                                                            \
      const int64_t a0 = (int64_t)starts0[i], b0 = (int64_t)stops0[i];                           \
      const int64_t a1 = (int64_t)starts1[i], b1 = (int64_t)stops1[i];                           \
      int64_t a2 = 0, b2 = 1;                                                                    \
      if (narrays > 2) {                                                                         \
        a2 = (int64_t)starts2[i];                                                                \
        b2 = (int64_t)stops2[i];                                                                 \
      }                                                                                          \
      if (bad(a0, b0, m0) || bad(a1, b1, m1) || (narrays > 2 && bad(a2, b2, m2))) {              \
        return jgk_cartesian_counts_error(err, JGK_CARTESIAN_COUNTS_BAD_RANGE, i);               \
      }                                                                                          \
      const int64_t l0 = b0 - a0, l1 = b1 - a1, l2 = b2 - a2;                                    \
      int64_t c = l0;                                                                            \
      if (l1 != 0 && c > INT64_MAX / l1) {                                                       \
        return jgk_cartesian_counts_error(err, JGK_CARTESIAN_COUNTS_OVERFLOW, i);                \
      }                                                                                          \
      c *= l1;                                                                                   \
      if (l2 != 0 && c > INT64_MAX / l2) {                                                       \
        return jgk_cartesian_counts_error(err, JGK_CARTESIAN_COUNTS_OVERFLOW, i);                \
      }                                                                                          \
      out[i] = c * l2;                                                                           \
      out0[i] = l0;                                                                              \
    }                                                                                            \
    return JG_OK;                                                                                \
  }
JGK_CARTESIAN_COUNTS_VARIANTS(CARTESIAN_COUNTS)
