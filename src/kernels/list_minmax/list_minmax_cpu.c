/* list_minmax_cpu.c: host reference of kernel "list_minmax" (list_minmax.json).
 *
 * For every list i < n, [starts[i], stops[i]) of content (m elements): out[i] = its minimum
 * (op == 0) or maximum (any other op), valid[i] = whether it has elements. An empty list gives
 * the identity: +inf / -inf for floats, the type's largest / smallest value for integers, true /
 * false for bool (min is "all", max is "any"). A NaN in a list makes its result NaN (NumPy's
 * min/max): once the running value is NaN no comparison replaces it. Nothing happens for n <= 0.
 *
 * The first bad list (jgk_list_bad) is reported as BAD_RANGE (JG_EVALUE), with out and valid
 * written for the lists before it (unspecified on error on the other sides). */
#include "jgk_list_minmax.h"
#include "jgk_reduce.h"

#define LIST_MINMAX(I, T, S)                                                                   \
  jg_status jgk_list_minmax_c_##S(int64_t n, const I *starts, const I *stops, int64_t m,       \
                                  const T *content, int64_t op, T *out, bool *valid,           \
                                  jg_error *err) {                                             \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      if (jgk_list_bad(a, b, m)) {                                                             \
        return jgk_list_minmax_error(err, JGK_LIST_MINMAX_BAD_RANGE, i);                       \
      }                                                                                        \
      T acc;                                                                                   \
      if (op == 0) {                                                                           \
        acc = JGK_HIGHEST(T);                                                                  \
        for (int64_t j = a; j < b; ++j) {                                                      \
          const T x = content[j];                                                              \
          if (JGK_ISNAN(x) || x < acc) acc = x;                                                \
        }                                                                                      \
      } else {                                                                                 \
        acc = JGK_LOWEST(T);                                                                   \
        for (int64_t j = a; j < b; ++j) {                                                      \
          const T x = content[j];                                                              \
          if (JGK_ISNAN(x) || x > acc) acc = x;                                                \
        }                                                                                      \
      }                                                                                        \
      out[i] = acc;                                                                            \
      valid[i] = b > a;                                                                        \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_MINMAX_VARIANTS(LIST_MINMAX)
