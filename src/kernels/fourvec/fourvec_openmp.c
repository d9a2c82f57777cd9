/* fourvec_openmp.c: OpenMP host implementation of kernel "fourvec" (fourvec.json): the
 * reference's loop split over threads (every element is independent; the same formulas, so the
 * same bits as the reference). */
#include "fourvec_math.h"
#include "jgk_fourvec.h"

#define FOURVEC(T, R, S)                                                                          \
  jg_status jgk_fourvec_openmp_##S(int64_t n, int64_t op, int64_t full, const T *x0, const T *x1, \
                                   const T *x2, const T *x3, const T *x4, const T *x5,            \
                                   const T *x6, const T *x7, R *o0, R *o1, R *o2, R *o3,          \
                                   jg_error *err) {                                               \
    (void)err;                                                                                    \
    const T *const x[8] = {x0, x1, x2, x3, x4, x5, x6, x7};                                       \
    const int nin = jgk_fourvec_inputs(op), nout = jgk_fourvec_outputs(op);                       \
    _Pragma("omp parallel for schedule(static)") for (int64_t i = 0; i < n; ++i) {                \
      double in[8], o[4];                                                                         \
      for (int k = 0; k < nin; ++k) in[k] = (double)x[k][((full >> k) & 1) != 0 ? i : 0];         \
      jgk_fourvec_one(op, in, o);                                                                 \
      o0[i] = (R)o[0];                                                                            \
      if (nout == 4) {                                                                            \
        o1[i] = (R)o[1];                                                                          \
        o2[i] = (R)o[2];                                                                          \
        o3[i] = (R)o[3];                                                                          \
      }                                                                                           \
    }                                                                                             \
    return JG_OK;                                                                                 \
  }
JGK_FOURVEC_VARIANTS(FOURVEC)
