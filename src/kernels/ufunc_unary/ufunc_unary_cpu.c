/* ufunc_unary_cpu.c: host reference of kernel "ufunc_unary" (ufunc_unary.json): the loops of
 * ufunc_unary_body.h over [0, n), after checking that the function is defined for the variant
 * (BAD_OP, index = op). Nothing is checked or done for n <= 0 (the
 * CUDA side launches nothing then). */
#include "jgk_ufunc_unary.h"
#include "ufunc_unary/ufunc_unary_body.h"

#define UFUNC_UNARY(T, R, S)                                                                   \
  UFU_DEFINE_RUN(T, R, S)                                                                      \
  jg_status jgk_ufunc_unary_c_##S(int64_t n, int64_t op, const T *x, R *out, jg_error *err) {  \
    if (n > 0 &&                                                                              \
        !jgk_ufunc_unary_defined(op, UFU_IS_FLOAT(T), UFU_IS_BOOL(T), UFU_IS_BOOL(R)))        \
      return jgk_ufunc_unary_error(err, JGK_UFUNC_UNARY_BAD_OP, op);                           \
    if (n > 0) ufu_run_##S(op, 0, n, x, out);                                                  \
    return JG_OK;                                                                              \
  }
JGK_UFUNC_UNARY_VARIANTS(UFUNC_UNARY)
