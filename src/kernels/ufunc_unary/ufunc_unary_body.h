/* ufunc_unary_body.h: the loops of kernel "ufunc_unary" (ufunc_unary.json), shared by its host
 * implementations (ufunc_unary_cpu.c over [0, n), ufunc_unary_openmp.c over one chunk per
 * thread). Not a catalog file. As ufunc_binary_body.h: a switch outside dense loops, written
 * once for every T (constant branches on the kind of T fold away), integers through uint64_t
 * (negative and abs wrap: abs(INT_MIN) = INT_MIN, as NumPy), floats through <tgmath.h> in T's
 * precision.
 *
 * Functions (jg_ufunc numbers): negative 40 (not bool), abs 41, sqrt 42 .. tanh 53, floor 54,
 * ceil 55 (floats only), isnan 56, isfinite 57, isinf 58, logical_not 59 (R bool; integers are
 * never NaN and always finite), invert 60 (integers: bitwise not; bool: logical not). Which
 * functions each variant takes: jgk_ufunc_unary_defined. The CUDA side (ufunc_unary_cuda.cu)
 * implements the same. */
#ifndef JGK_UFUNC_UNARY_BODY_H
#define JGK_UFUNC_UNARY_BODY_H

#include <stdbool.h>
#include <stdint.h>
#include <tgmath.h>

/* The bodies are written once for every element type, so each variant compiles branches that
 * are dead for it (bool arithmetic, `< 0` of an unsigned type): the warnings GCC gives for those
 * say nothing about the live code. Only the kernel's own files include this header. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wbool-operation"
#pragma GCC diagnostic ignored "-Wbool-compare"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif

#define UFU_IS_FLOAT(T) ((T)0.5 != (T)0)
#define UFU_IS_BOOL(T) _Generic((T)0, bool: 1, default: 0)
#define UFU_IS_SIGNED(T) ((T)-1 < (T)0)

static inline bool ufu_isnan_f(float a) { return a != a; }
static inline bool ufu_isnan_d(double a) { return a != a; }
static inline bool ufu_isnan_i(int64_t a) {
  (void)a;
  return false;
}
static inline bool ufu_isfinite_f(float a) { return a - a == 0; }
static inline bool ufu_isfinite_d(double a) { return a - a == 0; }
static inline bool ufu_isfinite_i(int64_t a) {
  (void)a;
  return true;
}
#define UFU_ISNAN(a) _Generic((a), float: ufu_isnan_f, double: ufu_isnan_d, default: ufu_isnan_i)(a)
#define UFU_ISFINITE(a) \
  _Generic((a), float: ufu_isfinite_f, double: ufu_isfinite_d, default: ufu_isfinite_i)(a)

/* Whether function `op` is defined for variant (T, R). */
static inline bool jgk_ufunc_unary_defined(int64_t op, bool t_float, bool t_bool, bool r_bool) {
  if (r_bool && !t_bool) return op >= 56 && op <= 59;
  if (t_bool) return op == 41 || (op >= 56 && op <= 60);
  if (t_float) return op >= 40 && op <= 55;
  return op == 40 || op == 41 || op == 60;
}

#define UFU_LOOP(T, R, EXPR)                                                                    \
  do {                                                                                          \
    for (int64_t i = lo; i < hi; ++i) {                                                         \
      const T a = x[i];                                                                         \
      out[i] = (R)(EXPR);                                                                       \
    }                                                                                           \
  } while (0)

/* Defines ufu_run_<S>(op, lo, hi, x, out): runs defined function op over [lo, hi). */
#define UFU_DEFINE_RUN(T, R, S)                                                                 \
  static void ufu_run_##S(int64_t op, int64_t lo, int64_t hi, const T *x, R *out) {             \
    const bool fl = UFU_IS_FLOAT(T), bo = UFU_IS_BOOL(T), sg = UFU_IS_SIGNED(T) && !fl;         \
    switch (op) {                                                                               \
      case 40:                                                                                  \
        if (fl) UFU_LOOP(T, R, -a);                                                             \
        else UFU_LOOP(T, R, 0u - (uint64_t)a);                                                  \
        break;                                                                                  \
      case 41:                                                                                  \
        if (fl) UFU_LOOP(T, R, fabs(a));                                                        \
        else if (sg) UFU_LOOP(T, R, a < 0 ? 0u - (uint64_t)a : (uint64_t)a);                    \
        else UFU_LOOP(T, R, a);                                                                 \
        break;                                                                                  \
      case 42:                                                                                  \
        UFU_LOOP(T, R, sqrt(a));                                                                \
        break;                                                                                  \
      case 43:                                                                                  \
        UFU_LOOP(T, R, exp(a));                                                                 \
        break;                                                                                  \
      case 44:                                                                                  \
        UFU_LOOP(T, R, log(a));                                                                 \
        break;                                                                                  \
      case 45:                                                                                  \
        UFU_LOOP(T, R, sin(a));                                                                 \
        break;                                                                                  \
      case 46:                                                                                  \
        UFU_LOOP(T, R, cos(a));                                                                 \
        break;                                                                                  \
      case 47:                                                                                  \
        UFU_LOOP(T, R, tan(a));                                                                 \
        break;                                                                                  \
      case 48:                                                                                  \
        UFU_LOOP(T, R, asin(a));                                                                \
        break;                                                                                  \
      case 49:                                                                                  \
        UFU_LOOP(T, R, acos(a));                                                                \
        break;                                                                                  \
      case 50:                                                                                  \
        UFU_LOOP(T, R, atan(a));                                                                \
        break;                                                                                  \
      case 51:                                                                                  \
        UFU_LOOP(T, R, sinh(a));                                                                \
        break;                                                                                  \
      case 52:                                                                                  \
        UFU_LOOP(T, R, cosh(a));                                                                \
        break;                                                                                  \
      case 53:                                                                                  \
        UFU_LOOP(T, R, tanh(a));                                                                \
        break;                                                                                  \
      case 54:                                                                                  \
        UFU_LOOP(T, R, floor(a));                                                               \
        break;                                                                                  \
      case 55:                                                                                  \
        UFU_LOOP(T, R, ceil(a));                                                                \
        break;                                                                                  \
      case 56:                                                                                  \
        UFU_LOOP(T, R, UFU_ISNAN(a));                                                           \
        break;                                                                                  \
      case 57:                                                                                  \
        UFU_LOOP(T, R, UFU_ISFINITE(a));                                                        \
        break;                                                                                  \
      case 58:                                                                                  \
        UFU_LOOP(T, R, !UFU_ISNAN(a) && !UFU_ISFINITE(a));                                      \
        break;                                                                                  \
      case 59:                                                                                  \
        UFU_LOOP(T, R, a == 0);                                                                 \
        break;                                                                                  \
      default:                                                                                  \
        if (bo) UFU_LOOP(T, R, a == 0);                                                         \
        else UFU_LOOP(T, R, ~(uint64_t)a);                                                      \
        break;                                                                                  \
    }                                                                                           \
  }

#endif /* JGK_UFUNC_UNARY_BODY_H */
