/* list_mean_cpu.c: host reference of kernel "list_mean" (list_mean.json).
 *
 * For every list i < n, [starts[i], stops[i]) of content (m elements): out[i] = the sum of its
 * elements, each converted to double and added in element order, divided by its length; NaN for
 * an empty list (Awkward's 0/0). Nothing happens for n <= 0. The first bad list (jgk_list_bad)
 * is reported as BAD_RANGE (JG_EVALUE), with out written for the lists before it (unspecified
 * on error on the other sides). */
#include "jgk_list_mean.h"
#include "jgk_reduce.h"

#define LIST_MEAN(I, T, S)                                                                     \
  jg_status jgk_list_mean_c_##S(int64_t n, const I *starts, const I *stops, int64_t m,         \
                                const T *content, double *out, jg_error *err) {                \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      if (jgk_list_bad(a, b, m)) return jgk_list_mean_error(err, JGK_LIST_MEAN_BAD_RANGE, i); \
      double sum = 0.0;                                                                        \
      for (int64_t j = a; j < b; ++j) sum += (double)content[j];                               \
      out[i] = b > a ? sum / (double)(b - a) : (double)NAN;                                    \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_MEAN_VARIANTS(LIST_MEAN)
