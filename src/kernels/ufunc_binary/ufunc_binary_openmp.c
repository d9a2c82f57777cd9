/* ufunc_binary_openmp.c: OpenMP host implementation of kernel "ufunc_binary"
 * (ufunc_binary.json): the same checks as the reference, then the loops of ufunc_binary_body.h
 * over one contiguous chunk per thread (each chunk's loops vectorise as the reference's do). The
 * smallest NEGATIVE_POWER position over the chunks is the reference's (it stops at the first). */
#include "jgk_ufunc_binary.h"
#include "ufunc_binary/ufunc_binary_body.h"

#include <omp.h>

#define UFUNC_BINARY(T, R, S)                                                                  \
  UFB_DEFINE_RUN(T, R, S)                                                                      \
  jg_status jgk_ufunc_binary_openmp_##S(int64_t n, int64_t op, int64_t nx, const T *x,         \
                                        int64_t ny, const T *y, R *out, jg_error *err) {       \
    if (n > 0 &&                                                                              \
        !jgk_ufunc_binary_defined(op, UFB_IS_FLOAT(T), UFB_IS_BOOL(T), UFB_IS_BOOL(R)))       \
      return jgk_ufunc_binary_error(err, JGK_UFUNC_BINARY_BAD_OP, op);                         \
    if (n > 0 && nx != n && nx != 1)                                                           \
      return jgk_ufunc_binary_error(err, JGK_UFUNC_BINARY_BAD_LENGTH, nx);                     \
    if (n > 0 && ny != n && ny != 1)                                                           \
      return jgk_ufunc_binary_error(err, JGK_UFUNC_BINARY_BAD_LENGTH, ny);                     \
    if (n <= 0) return JG_OK;                                                                  \
    int64_t bad = INT64_MAX;                                                                   \
    _Pragma("omp parallel reduction(min : bad)") {                                             \
      const int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();                      \
      const int64_t lo = n / nt * t + (t < n % nt ? t : n % nt);                               \
      const int64_t hi = lo + n / nt + (t < n % nt ? 1 : 0);                                   \
      const int64_t b = ufb_run_##S(op, lo, hi, n, nx, x, ny, y, out);                         \
      if (b >= 0) bad = b;                                                                     \
    }                                                                                          \
    return bad == INT64_MAX                                                                    \
               ? JG_OK                                                                         \
               : jgk_ufunc_binary_error(err, JGK_UFUNC_BINARY_NEGATIVE_POWER, bad);            \
  }
JGK_UFUNC_BINARY_VARIANTS(UFUNC_BINARY)
