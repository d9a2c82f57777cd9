/* cast_openmp.c: OpenMP host implementation of kernel "cast" (cast.json): the reference's loop
 * split over threads and vectorised. */
#include "jgk_cast.h"

#define CAST(T, U, S)                                                                        \
  jg_status jgk_cast_openmp_##S(int64_t n, const T *x, U *out, jg_error *err) {               \
    (void)err;                                                                               \
    _Pragma("omp parallel for simd schedule(static)")                                        \
    for (int64_t i = 0; i < n; ++i) out[i] = (U)x[i];                                        \
    return JG_OK;                                                                            \
  }
JGK_CAST_VARIANTS(CAST)
