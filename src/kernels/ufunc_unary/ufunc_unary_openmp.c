/* ufunc_unary_openmp.c: OpenMP host implementation of kernel "ufunc_unary" (ufunc_unary.json):
 * the reference's check, then the loops of ufunc_unary_body.h over one contiguous chunk per
 * thread. */
#include "jgk_ufunc_unary.h"
#include "ufunc_unary/ufunc_unary_body.h"

#include <omp.h>

#define UFUNC_UNARY(T, R, S)                                                                   \
  UFU_DEFINE_RUN(T, R, S)                                                                      \
  jg_status jgk_ufunc_unary_openmp_##S(int64_t n, int64_t op, const T *x, R *out,              \
                                       jg_error *err) {                                        \
    if (n > 0 &&                                                                              \
        !jgk_ufunc_unary_defined(op, UFU_IS_FLOAT(T), UFU_IS_BOOL(T), UFU_IS_BOOL(R)))        \
      return jgk_ufunc_unary_error(err, JGK_UFUNC_UNARY_BAD_OP, op);                           \
    if (n <= 0) return JG_OK;                                                                  \
    _Pragma("omp parallel") {                                                                  \
      const int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();                      \
      const int64_t lo = n / nt * t + (t < n % nt ? t : n % nt);                               \
      const int64_t hi = lo + n / nt + (t < n % nt ? 1 : 0);                                   \
      ufu_run_##S(op, lo, hi, x, out);                                                         \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_UFUNC_UNARY_VARIANTS(UFUNC_UNARY)
