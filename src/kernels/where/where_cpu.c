/* where_cpu.c: host reference of kernel "where" (where.json): out[i] = cond[i] ? x[i] : y[i]
 * for 0 <= i < n, an operand of length 1 standing for every i (checked first: BAD_LENGTH, index =
 * the bad length, cond's, then x's, then y's). The loop reads through strides of 0 or 1, a
 * select the compiler vectorises. */
#include "jgk_where.h"

#define WHERE(T, S)                                                                            \
  jg_status jgk_where_c_##S(int64_t n, int64_t nc, const bool *cond, int64_t nx, const T *x,   \
                            int64_t ny, const T *y, T *out, jg_error *err) {                   \
    if (n > 0 && nc != n && nc != 1) return jgk_where_error(err, JGK_WHERE_BAD_LENGTH, nc);    \
    if (n > 0 && nx != n && nx != 1) return jgk_where_error(err, JGK_WHERE_BAD_LENGTH, nx);    \
    if (n > 0 && ny != n && ny != 1) return jgk_where_error(err, JGK_WHERE_BAD_LENGTH, ny);    \
    const int64_t sc = nc == n, sx = nx == n, sy = ny == n;                                    \
    for (int64_t i = 0; i < n; ++i) out[i] = cond[sc * i] ? x[sx * i] : y[sy * i];             \
    return JG_OK;                                                                              \
  }
JGK_WHERE_VARIANTS(WHERE)
