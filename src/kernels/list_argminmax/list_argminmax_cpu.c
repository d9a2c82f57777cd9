/* list_argminmax_cpu.c: host reference of kernel "list_argminmax" (list_argminmax.json).
 *
 * For every list i < n, [starts[i], stops[i]) of content (m elements): out[i] = the position in
 * the list (0-based, not in content) of its first minimum (op == 0) or first maximum (any other
 * op), -1 for an empty list. Only a strictly smaller (larger) element replaces the running best,
 * so ties go to the first; a NaN wins over every number, and the first NaN over later ones
 * (NumPy's argmin/argmax), so the scan stops there. Nothing happens for n <= 0.
 *
 * The first bad list (jgk_list_bad) is reported as BAD_RANGE (JG_EVALUE), with out written for
 * the lists before it (unspecified on error on the other sides). */
#include "jgk_list_argminmax.h"
#include "jgk_reduce.h"

#define LIST_ARGMINMAX(I, T, S)                                                                \
  jg_status jgk_list_argminmax_c_##S(int64_t n, const I *starts, const I *stops, int64_t m,    \
                                     const T *content, int64_t op, int64_t *out,               \
                                     jg_error *err) {                                          \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      if (jgk_list_bad(a, b, m)) {                                                             \
        return jgk_list_argminmax_error(err, JGK_LIST_ARGMINMAX_BAD_RANGE, i);                 \
      }                                                                                        \
      int64_t best = -1;                                                                       \
      if (a < b) {                                                                             \
        T v = content[a];                                                                      \
        best = 0;                                                                              \
        for (int64_t j = 1; j < b - a && !JGK_ISNAN(v); ++j) {                                 \
          const T x = content[a + j];                                                          \
          if (JGK_ISNAN(x) || (op == 0 ? x < v : x > v)) {                                     \
            v = x;                                                                             \
            best = j;                                                                          \
          }                                                                                    \
        }                                                                                      \
      }                                                                                        \
      out[i] = best;                                                                           \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_ARGMINMAX_VARIANTS(LIST_ARGMINMAX)
