/* cast_cpu.c: host reference of kernel "cast" (cast.json): out[i] = (U)x[i] for 0 <= i < n, C's
 * conversion. The variants are the widening conversions of NumPy's promotion (bool to any type,
 * integers to wider or float types, float32 to float64), so every value converts exactly but
 * for integers of more than 24 (float32) or 53 (float64) bits, which round to nearest as NumPy's
 * casts do. Used by the ufuncs to bring both operands to their common type first. */
#include "jgk_cast.h"

#define CAST(T, U, S)                                                                        \
  jg_status jgk_cast_c_##S(int64_t n, const T *x, U *out, jg_error *err) {                    \
    (void)err;                                                                               \
    for (int64_t i = 0; i < n; ++i) out[i] = (U)x[i];                                        \
    return JG_OK;                                                                            \
  }
JGK_CAST_VARIANTS(CAST)
