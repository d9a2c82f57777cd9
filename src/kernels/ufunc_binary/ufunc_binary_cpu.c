/* ufunc_binary_cpu.c: host reference of kernel "ufunc_binary" (ufunc_binary.json): the loops of
 * ufunc_binary_body.h over [0, n). Checks first, in this order: the function must be defined for
 * the variant (BAD_OP, index = op), x and y must have n or 1 elements (BAD_LENGTH, index = the
 * bad length, x's first); then a negative integer exponent of power is NEGATIVE_POWER at its
 * position (out written before it). Nothing is checked or done for n <= 0
 * (the CUDA side launches nothing then). */
#include "jgk_ufunc_binary.h"
#include "ufunc_binary/ufunc_binary_body.h"

#define UFUNC_BINARY(T, R, S)                                                                  \
  UFB_DEFINE_RUN(T, R, S)                                                                      \
  jg_status jgk_ufunc_binary_c_##S(int64_t n, int64_t op, int64_t nx, const T *x, int64_t ny,  \
                                   const T *y, R *out, jg_error *err) {                        \
    if (n > 0 &&                                                                              \
        !jgk_ufunc_binary_defined(op, UFB_IS_FLOAT(T), UFB_IS_BOOL(T), UFB_IS_BOOL(R)))       \
      return jgk_ufunc_binary_error(err, JGK_UFUNC_BINARY_BAD_OP, op);                         \
    if (n > 0 && nx != n && nx != 1)                                                           \
      return jgk_ufunc_binary_error(err, JGK_UFUNC_BINARY_BAD_LENGTH, nx);                     \
    if (n > 0 && ny != n && ny != 1)                                                           \
      return jgk_ufunc_binary_error(err, JGK_UFUNC_BINARY_BAD_LENGTH, ny);                     \
    if (n <= 0) return JG_OK;                                                                  \
    const int64_t bad = ufb_run_##S(op, 0, n, n, nx, x, ny, y, out);                           \
    return bad < 0 ? JG_OK                                                                     \
                   : jgk_ufunc_binary_error(err, JGK_UFUNC_BINARY_NEGATIVE_POWER, bad);        \
  }
JGK_UFUNC_BINARY_VARIANTS(UFUNC_BINARY)
