/* ufunc_binary_body.h: the loops of kernel "ufunc_binary" (ufunc_binary.json), shared by its
 * host implementations (ufunc_binary_cpu.c runs them over [0, n), ufunc_binary_openmp.c over one
 * chunk per thread). Not a catalog file; included only by those two.
 *
 * One function per variant (T, R): a switch over the function number outside the loops, and per
 * function four dense loops (x and y arrays, x scalar, y scalar, both scalar) whose body is one
 * expression of a = x[i] and b = y[i], so the compiler vectorises the cheap ones. Everything is
 * written once for every T: the branches on the kind of T (float, bool, signed) are constant per
 * variant and fold away, integer work goes through int64_t/uint64_t (wrapping arithmetic without
 * signed overflow), and float work through <tgmath.h> in T's own precision (float32 stays
 * float32, as NumPy computes it; floor_divide and remainder follow NumPy's npy_divmod).
 *
 * Semantics (NumPy's; the CUDA side ufunc_binary_cuda.cu implements the same):
 *   add, subtract, multiply: wrap for integers; bool add = or, multiply = and;
 *   true_divide, arctan2: floats only;
 *   floor_divide, remainder: Python's sign rules (floor, remainder with the divisor's sign);
 *     integers: by 0 gives 0, floor_divide(MIN, -1) = MIN, remainder(x, -1) = 0; floats: by 0
 *     gives a / b (floor_divide) and fmod(a, 0) = NaN (remainder);
 *   power: integers by repeated squaring (wrapping), a negative exponent is NEGATIVE_POWER (the
 *     first position); floats pow();
 *   minimum, maximum: NaN propagates;
 *   comparisons, logical_and/or/xor: R bool (logical: nonzero is true);
 *   bitwise_and/or/xor: integers and bool.
 * Which functions each variant takes: jgk_ufunc_binary_defined. */
#ifndef JGK_UFUNC_BINARY_BODY_H
#define JGK_UFUNC_BINARY_BODY_H

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

/* Kinds of a type, as constant expressions. */
#define UFB_IS_FLOAT(T) ((T)0.5 != (T)0)
#define UFB_IS_BOOL(T) _Generic((T)0, bool: 1, default: 0)
#define UFB_IS_SIGNED(T) ((T)-1 < (T)0)

/* Integer floor division and remainder with Python's signs. */
static inline int64_t ufb_sfloordiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return (int64_t)(0u - (uint64_t)a); /* wraps for the minimum */
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;
  return q;
}
static inline int64_t ufb_sremainder(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
static inline uint64_t ufb_ufloordiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b; }
static inline uint64_t ufb_uremainder(uint64_t a, uint64_t b) { return b == 0 ? 0 : a % b; }
/* base^exp modulo 2^64 (repeated squaring). */
static inline uint64_t ufb_upow(uint64_t base, uint64_t exp) {
  uint64_t r = 1;
  while (exp != 0) {
    if (exp & 1u) r *= base;
    base *= base;
    exp >>= 1;
  }
  return r;
}

/* NumPy's npy_divmod for floats: the floor quotient and the remainder with the divisor's sign. */
#define UFB_FLOAT_DIVMOD(F, SUFFIX)                                                             \
  static inline F ufb_floordiv_##SUFFIX(F a, F b) {                                             \
    if (b == 0) return a / b;                                                                   \
    F mod = fmod(a, b);                                                                         \
    F div = (a - mod) / b;                                                                      \
    if (mod != 0) {                                                                             \
      if ((b < 0) != (mod < 0)) div -= 1;                                                       \
    }                                                                                           \
    F floordiv;                                                                                 \
    if (div != 0) {                                                                             \
      floordiv = floor(div);                                                                    \
      if (div - floordiv > (F)0.5) floordiv += 1;                                               \
    } else {                                                                                    \
      floordiv = copysign((F)0, a / b);                                                         \
    }                                                                                           \
    return floordiv;                                                                            \
  }                                                                                             \
  static inline F ufb_remainder_##SUFFIX(F a, F b) {                                            \
    if (b == 0) return fmod(a, b);                                                              \
    F mod = fmod(a, b);                                                                         \
    if (mod != 0) {                                                                             \
      if ((b < 0) != (mod < 0)) mod += b;                                                       \
    } else {                                                                                    \
      mod = copysign((F)0, b);                                                                  \
    }                                                                                           \
    return mod;                                                                                 \
  }
UFB_FLOAT_DIVMOD(float, f)
UFB_FLOAT_DIVMOD(double, d)
#define UFB_FLOORDIV_F(a, b) _Generic((a), float: ufb_floordiv_f, default: ufb_floordiv_d)((a), (b))
#define UFB_REMAINDER_F(a, b) \
  _Generic((a), float: ufb_remainder_f, default: ufb_remainder_d)((a), (b))

/* NaN test for any T (false for integers and bool). */
static inline bool ufb_isnan_f(float a) { return a != a; }
static inline bool ufb_isnan_d(double a) { return a != a; }
static inline bool ufb_isnan_i(int64_t a) {
  (void)a;
  return false;
}
#define UFB_ISNAN(a) _Generic((a), float: ufb_isnan_f, double: ufb_isnan_d, default: ufb_isnan_i)(a)

/* Whether function `op` is defined for variant (T, R): R bool with T not bool: comparisons and
 * logical functions; T = R = bool: those, add, multiply, minimum, maximum and bitwise; R = T
 * float: arithmetic, minimum, maximum, arctan2; R = T integer: arithmetic but true_divide and
 * arctan2, minimum, maximum, bitwise. */
static inline bool jgk_ufunc_binary_defined(int64_t op, bool t_float, bool t_bool, bool r_bool) {
  const bool cmp_logic = op >= 11 && op <= 19;
  if (r_bool && !t_bool) return cmp_logic;
  if (t_bool) return cmp_logic || op == 1 || op == 3 || op == 8 || op == 9 || (op >= 20 && op <= 22);
  if (t_float) return op >= 1 && op <= 10;
  return (op >= 1 && op <= 9 && op != 4) || (op >= 20 && op <= 22);
}

/* The four loop shapes over [lo, hi) with body `EXPR` (of a and b). */
#define UFB_LOOP(T, R, EXPR)                                                                    \
  do {                                                                                          \
    if (sx && sy) {                                                                             \
      for (int64_t i = lo; i < hi; ++i) {                                                       \
        const T a = x[i], b = y[i];                                                             \
        out[i] = (R)(EXPR);                                                                     \
      }                                                                                         \
    } else if (sy) {                                                                            \
      const T a = x[0];                                                                         \
      for (int64_t i = lo; i < hi; ++i) {                                                       \
        const T b = y[i];                                                                       \
        out[i] = (R)(EXPR);                                                                     \
      }                                                                                         \
    } else if (sx) {                                                                            \
      const T b = y[0];                                                                         \
      for (int64_t i = lo; i < hi; ++i) {                                                       \
        const T a = x[i];                                                                       \
        out[i] = (R)(EXPR);                                                                     \
      }                                                                                         \
    } else {                                                                                    \
      const T a = x[0], b = y[0];                                                               \
      for (int64_t i = lo; i < hi; ++i) out[i] = (R)(EXPR);                                     \
    }                                                                                           \
  } while (0)

/* Defines ufb_run_<S>(op, lo, hi, nx, x, ny, y, out): runs defined function op over [lo, hi)
 * and returns -1, or the first position in [lo, hi) with a negative integer exponent (power),
 * having written the positions before it. x is an array of n values when nx == n, else (nx ==
 * 1) one value for all; y likewise. */
#define UFB_DEFINE_RUN(T, R, S)                                                                 \
  static int64_t ufb_run_##S(int64_t op, int64_t lo, int64_t hi, int64_t n, int64_t nx,         \
                             const T *x, int64_t ny, const T *y, R *out) {                      \
    const bool sx = nx == n, sy = ny == n;                                                      \
    const bool fl = UFB_IS_FLOAT(T), bo = UFB_IS_BOOL(T), sg = UFB_IS_SIGNED(T) && !fl;         \
    switch (op) {                                                                               \
      case 1:                                                                                   \
        if (fl) UFB_LOOP(T, R, a + b);                                                          \
        else if (bo) UFB_LOOP(T, R, (a != 0) | (b != 0));                                       \
        else UFB_LOOP(T, R, (uint64_t)a + (uint64_t)b);                                         \
        break;                                                                                  \
      case 2:                                                                                   \
        if (fl) UFB_LOOP(T, R, a - b);                                                          \
        else UFB_LOOP(T, R, (uint64_t)a - (uint64_t)b);                                         \
        break;                                                                                  \
      case 3:                                                                                   \
        if (fl) UFB_LOOP(T, R, a * b);                                                          \
        else if (bo) UFB_LOOP(T, R, (a != 0) & (b != 0));                                       \
        else UFB_LOOP(T, R, (uint64_t)a * (uint64_t)b);                                         \
        break;                                                                                  \
      case 4:                                                                                   \
        UFB_LOOP(T, R, a / b);                                                                  \
        break;                                                                                  \
      case 5:                                                                                   \
        if (fl) UFB_LOOP(T, R, UFB_FLOORDIV_F(a, b));                                           \
        else if (sg) UFB_LOOP(T, R, ufb_sfloordiv((int64_t)a, (int64_t)b));                     \
        else UFB_LOOP(T, R, ufb_ufloordiv((uint64_t)a, (uint64_t)b));                           \
        break;                                                                                  \
      case 6:                                                                                   \
        if (fl) UFB_LOOP(T, R, UFB_REMAINDER_F(a, b));                                          \
        else if (sg) UFB_LOOP(T, R, ufb_sremainder((int64_t)a, (int64_t)b));                    \
        else UFB_LOOP(T, R, ufb_uremainder((uint64_t)a, (uint64_t)b));                          \
        break;                                                                                  \
      case 7:                                                                                   \
        if (fl) {                                                                               \
          UFB_LOOP(T, R, pow(a, b));                                                            \
        } else {                                                                                \
          for (int64_t i = lo; i < hi; ++i) {                                                   \
            const T a = x[sx ? i : 0], b = y[sy ? i : 0];                                       \
            if (sg && (int64_t)b < 0) return i;                                                 \
            out[i] = (R)ufb_upow((uint64_t)a, (uint64_t)b);                                     \
          }                                                                                     \
        }                                                                                       \
        break;                                                                                  \
      case 8:                                                                                   \
        UFB_LOOP(T, R, (a < b || UFB_ISNAN(a)) ? a : b);                                              \
        break;                                                                                  \
      case 9:                                                                                   \
        UFB_LOOP(T, R, (a > b || UFB_ISNAN(a)) ? a : b);                                              \
        break;                                                                                  \
      case 10:                                                                                  \
        UFB_LOOP(T, R, atan2(a, b));                                                            \
        break;                                                                                  \
      case 11:                                                                                  \
        UFB_LOOP(T, R, a == b);                                                                 \
        break;                                                                                  \
      case 12:                                                                                  \
        UFB_LOOP(T, R, a != b);                                                                 \
        break;                                                                                  \
      case 13:                                                                                  \
        UFB_LOOP(T, R, a < b);                                                                  \
        break;                                                                                  \
      case 14:                                                                                  \
        UFB_LOOP(T, R, a <= b);                                                                 \
        break;                                                                                  \
      case 15:                                                                                  \
        UFB_LOOP(T, R, a > b);                                                                  \
        break;                                                                                  \
      case 16:                                                                                  \
        UFB_LOOP(T, R, a >= b);                                                                 \
        break;                                                                                  \
      case 17:                                                                                  \
        UFB_LOOP(T, R, (a != 0) & (b != 0));                                                    \
        break;                                                                                  \
      case 18:                                                                                  \
        UFB_LOOP(T, R, (a != 0) | (b != 0));                                                    \
        break;                                                                                  \
      case 19:                                                                                  \
        UFB_LOOP(T, R, (a != 0) ^ (b != 0));                                                    \
        break;                                                                                  \
      case 20:                                                                                  \
        UFB_LOOP(T, R, (uint64_t)a & (uint64_t)b);                                              \
        break;                                                                                  \
      case 21:                                                                                  \
        UFB_LOOP(T, R, (uint64_t)a | (uint64_t)b);                                              \
        break;                                                                                  \
      default:                                                                                  \
        UFB_LOOP(T, R, (uint64_t)a ^ (uint64_t)b);                                              \
        break;                                                                                  \
    }                                                                                           \
    return -1;                                                                                  \
  }

#endif /* JGK_UFUNC_BINARY_BODY_H */
