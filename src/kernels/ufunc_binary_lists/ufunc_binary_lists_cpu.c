/* ufunc_binary_lists_cpu.c: host reference of kernel "ufunc_binary_lists"
 * (ufunc_binary_lists.json).
 *
 * Modes 0 and 1 are ufunc_binary's dense loops (ufunc_binary_body.h's ufb_run over [0, count),
 * the scalar of mode 1 stored in a local T first, so the loops vectorise as ufunc_binary's do).
 * Mode 2 is one plain loop over the lists with the function's switch outside it (UFL_SIMPLE
 * below: the simple functions with exactly ufunc_binary_body.h's expressions), the list's value
 * held in a register across its elements. A bad list is skipped and its number kept (the
 * smallest goes to info[2]); the lists after it are still written, as the CUDA side does. */
#include "jgk_ufunc_binary_lists.h"
#include "ufunc_binary/ufunc_binary_body.h"

/* The simple functions of variant T (`fl`, `bo`: T is float, bool), each as LOOP(EXPR) with
 * EXPR an expression of a and b; ufunc_binary_body.h's expressions. */
#define UFL_SIMPLE(LOOP)                                                 \
  switch (op) {                                                         \
    case 1:                                                             \
      if (fl) LOOP(a + b);                                              \
      else if (bo) LOOP((a != 0) | (b != 0));                           \
      else LOOP((uint64_t)a + (uint64_t)b);                             \
      break;                                                            \
    case 2:                                                             \
      if (fl) LOOP(a - b);                                              \
      else LOOP((uint64_t)a - (uint64_t)b);                             \
      break;                                                            \
    case 3:                                                             \
      if (fl) LOOP(a * b);                                              \
      else if (bo) LOOP((a != 0) & (b != 0));                           \
      else LOOP((uint64_t)a * (uint64_t)b);                             \
      break;                                                            \
    case 4: LOOP(a / b); break;                                         \
    case 8: LOOP((a < b || UFB_ISNAN(a)) ? a : b); break;               \
    case 9: LOOP((a > b || UFB_ISNAN(a)) ? a : b); break;               \
    case 11: LOOP(a == b); break;                                       \
    case 12: LOOP(a != b); break;                                       \
    case 13: LOOP(a < b); break;                                        \
    case 14: LOOP(a <= b); break;                                       \
    case 15: LOOP(a > b); break;                                        \
    case 16: LOOP(a >= b); break;                                       \
    case 17: LOOP((a != 0) & (b != 0)); break;                          \
    case 18: LOOP((a != 0) | (b != 0)); break;                          \
    case 19: LOOP((a != 0) ^ (b != 0)); break;                          \
    case 20: LOOP((uint64_t)a & (uint64_t)b); break;                    \
    case 21: LOOP((uint64_t)a | (uint64_t)b); break;                    \
    case 22: LOOP((uint64_t)a ^ (uint64_t)b); break;                    \
    default: break;                                                     \
  }

/* Whether op is one of the simple functions defined for (T, R). */
static bool ufl_simple(int64_t op, bool t_float, bool t_bool, bool r_bool) {
  const bool simple = (op >= 1 && op <= 4) || op == 8 || op == 9 || (op >= 11 && op <= 22);
  return simple && jgk_ufunc_binary_defined(op, t_float, t_bool, r_bool);
}

/* Mode 2's loop over the lists (ufl_t, ufl_r: the variant's T and R): list i's value in `w`,
 * its elements a (or b, swapped). */
#define UFL_LISTS(EXPR)                                                                 \
  do {                                                                                  \
    for (int64_t i = 0; i < nl; ++i) {                                                  \
      const int64_t s = offsets[i], e = offsets[i + 1];                                 \
      if (s < lo || e < s || s < 0 || e > nu || (uint64_t)e - (uint64_t)lo > (uint64_t)n || \
          i >= nv) {                                                                    \
        if (bad < 0) bad = i;                                                           \
        continue;                                                                       \
      }                                                                                 \
      const ufl_t w = v[i];                                                                 \
      ufl_r *o = out + (s - lo);                                                            \
      if (swap) {                                                                       \
        const ufl_t a = w;                                                                  \
        for (int64_t j = s; j < e; ++j) {                                               \
          const ufl_t b = u[j];                                                             \
          o[j - s] = (ufl_r)(EXPR);                                                         \
        }                                                                               \
      } else {                                                                          \
        const ufl_t b = w;                                                                  \
        for (int64_t j = s; j < e; ++j) {                                               \
          const ufl_t a = u[j];                                                             \
          o[j - s] = (ufl_r)(EXPR);                                                         \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
  } while (0)

#define UFUNC_BINARY_LISTS(T, R, S)                                                            \
  UFB_DEFINE_RUN(T, R, S)                                                                      \
  jg_status jgk_ufunc_binary_lists_c_##S(int64_t n, int64_t op, int64_t swap, int64_t nu,      \
                                         const T *u, int64_t vmode, int64_t nv, const T *v,    \
                                         double vf, int64_t vi, int64_t nl,                    \
                                         const int64_t *offsets, int64_t ninfo, int64_t *info, \
                                         R *out, jg_error *err) {                              \
    const bool fl = UFB_IS_FLOAT(T), bo = UFB_IS_BOOL(T);                                      \
    if (!ufl_simple(op, fl, bo, UFB_IS_BOOL(R))) {                                             \
      return jg_error_set(err, JG_EINVAL, op,                                                  \
                          "ufunc_binary_lists: function %lld is not a simple function of "     \
                          "these dtypes (callers check first)",                                \
                          (long long)op);                                                      \
    }                                                                                          \
    if (nl >= 0 && ninfo >= 2) {                                                               \
      info[0] = offsets[0];                                                                    \
      info[1] = offsets[nl];                                                                   \
    }                                                                                          \
    if (vmode == 0 || vmode == 1) {                                                            \
      int64_t count = n < nu ? n : nu;                                                         \
      if (vmode == 0 && nv < count) count = nv;                                                \
      if (count <= 0) return JG_OK;                                                            \
      T s1[1];                                                                                 \
      if (fl) s1[0] = (T)vf;                                                                   \
      else s1[0] = (T)(uint64_t)vi;                                                            \
      const T *vv = vmode == 0 ? v : s1;                                                       \
      const int64_t nvv = vmode == 0 ? count : 1;                                              \
      if (swap) (void)ufb_run_##S(op, 0, count, count, nvv, vv, count, u, out);                \
      else (void)ufb_run_##S(op, 0, count, count, count, u, nvv, vv, out);                     \
      return JG_OK;                                                                            \
    }                                                                                          \
    if (vmode != 2 || nl <= 0) return JG_OK;                                                   \
    typedef T ufl_t;                                                                           \
    typedef R ufl_r;                                                                           \
    const int64_t lo = offsets[0];                                                             \
    int64_t bad = -1;                                                                          \
    UFL_SIMPLE(UFL_LISTS)                                                                      \
    if (bad >= 0 && ninfo >= 3 && (uint64_t)bad < (uint64_t)info[2]) info[2] = bad;            \
    return JG_OK;                                                                              \
  }
JGK_UFUNC_BINARY_LISTS_VARIANTS(UFUNC_BINARY_LISTS)
