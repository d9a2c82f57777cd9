/* where_openmp.c: OpenMP host implementation of kernel "where" (where.json): the reference's
 * checks, then its loop split over threads. */
#include "jgk_where.h"

#define WHERE(T, S)                                                                            \
  jg_status jgk_where_openmp_##S(int64_t n, int64_t nc, const bool *cond, int64_t nx,          \
                                 const T *x, int64_t ny, const T *y, T *out, jg_error *err) {  \
    if (n > 0 && nc != n && nc != 1) return jgk_where_error(err, JGK_WHERE_BAD_LENGTH, nc);    \
    if (n > 0 && nx != n && nx != 1) return jgk_where_error(err, JGK_WHERE_BAD_LENGTH, nx);    \
    if (n > 0 && ny != n && ny != 1) return jgk_where_error(err, JGK_WHERE_BAD_LENGTH, ny);    \
    const int64_t sc = nc == n, sx = nx == n, sy = ny == n;                                    \
    _Pragma("omp parallel for simd schedule(static)")                                          \
    for (int64_t i = 0; i < n; ++i) out[i] = cond[sc * i] ? x[sx * i] : y[sy * i];             \
    return JG_OK;                                                                              \
  }
JGK_WHERE_VARIANTS(WHERE)
