/* list_parents_cpu.c: host reference of kernel "list_parents" (list_parents.json).
 *
 * n lists given by offsets[0..n] (offsets[0] need not be 0) over m elements: for every list i and
 * j in [offsets[i], offsets[i+1]), out[j - offsets[0]] = i. m is normally offsets[n] -
 * offsets[0]; when the lists cover less, the tail of out is left untouched. Nothing happens for
 * n <= 0. List i is bad unless offsets[0] <= offsets[i] <= offsets[i+1] <= offsets[0] + m; the
 * first bad list is BAD_OFFSETS (JG_EVALUE), out written for the lists before it (unspecified on
 * error on the CUDA side). The same checks as local_index, whose companion this is. */
#include "jgk_list_parents.h"

#define LIST_PARENTS(I, S)                                                                    \
  jg_status jgk_list_parents_c_##S(int64_t n, int64_t m, const I *offsets, int64_t *out,      \
                                   jg_error *err) {                                           \
    if (n <= 0) return JG_OK;                                                                 \
    const int64_t base = (int64_t)offsets[0];                                                 \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t a = (int64_t)offsets[i], b = (int64_t)offsets[i + 1];                     \
      if (!(base <= a && a <= b && m >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)m)) {  \
        return jgk_list_parents_error(err, JGK_LIST_PARENTS_BAD_OFFSETS, i);                  \
      }                                                                                       \
      int64_t *o = out + ((uint64_t)a - (uint64_t)base);                                      \
      const int64_t len = b - a;                                                              \
      for (int64_t j = 0; j < len; ++j) o[j] = i;                                             \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_LIST_PARENTS_VARIANTS(LIST_PARENTS)
