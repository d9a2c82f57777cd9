/* list_count_nonzero_cpu.c: host reference of kernel "list_count_nonzero"
 * (list_count_nonzero.json).
 *
 * For every list i < n, [starts[i], stops[i]) of content (m elements): out[i] = the number of
 * its elements that compare unequal to 0 (a NaN does; -0.0 does not), 0 for an empty list.
 * Nothing happens for n <= 0. The first bad list (jgk_list_bad) is reported as BAD_RANGE
 * (JG_EVALUE), with out written for the lists before it (unspecified on error on the other
 * sides). */
#include "jgk_list_count_nonzero.h"
#include "jgk_reduce.h"

#define LIST_COUNT_NONZERO(I, T, S)                                                            \
  jg_status jgk_list_count_nonzero_c_##S(int64_t n, const I *starts, const I *stops,           \
                                         int64_t m, const T *content, int64_t *out,            \
                                         jg_error *err) {                                      \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      if (jgk_list_bad(a, b, m)) {                                                             \
        return jgk_list_count_nonzero_error(err, JGK_LIST_COUNT_NONZERO_BAD_RANGE, i);         \
      }                                                                                        \
      int64_t count = 0;                                                                       \
      for (int64_t j = a; j < b; ++j) count += content[j] != 0;                                \
      out[i] = count;                                                                          \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_COUNT_NONZERO_VARIANTS(LIST_COUNT_NONZERO)
