/* counts_equal_cpu.c: host reference of kernel "counts_equal" (counts_equal.json). */
#include "jgk_counts_equal.h"

#define COUNTS_EQUAL(I, J, S)                                                                  \
  jg_status jgk_counts_equal_c_##S(int64_t n, const I *starts_a, const I *stops_a,            \
                                   const J *starts_b, const J *stops_b, jg_error *err) {       \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      if ((int64_t)stops_a[i] - (int64_t)starts_a[i] != (int64_t)stops_b[i] - (int64_t)starts_b[i]) \
        return jgk_counts_equal_error(err, JGK_COUNTS_EQUAL_DIFFERENT, i);                     \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_COUNTS_EQUAL_VARIANTS(COUNTS_EQUAL)
