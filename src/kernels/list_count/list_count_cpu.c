/* list_count_cpu.c: host reference of kernel "list_count" (list_count.json).
 *
 * For every list i < n: out[i] = stops[i] - starts[i] (Awkward's num at the innermost axis).
 * The content (m elements) is not read, but the lists are checked against it with the rule of
 * every list kernel (jgk_list_bad): list i is bad (BAD_RANGE, JG_EVALUE) when stops[i] <
 * starts[i], or when it is not empty and leaves [0, m); an empty list may start anywhere. The
 * first bad list is reported, with out written for the lists before it (unspecified on error on
 * the other sides). Nothing happens for n <= 0. */
#include "jgk_list_count.h"
#include "jgk_reduce.h"

#define LIST_COUNT(I, S)                                                                       \
  jg_status jgk_list_count_c_##S(int64_t n, const I *starts, const I *stops, int64_t m,        \
                                 int64_t *out, jg_error *err) {                                \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      if (jgk_list_bad(a, b, m)) {                                                             \
        return jgk_list_count_error(err, JGK_LIST_COUNT_BAD_RANGE, i);                         \
      }                                                                                        \
      out[i] = b - a;                                                                          \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_COUNT_VARIANTS(LIST_COUNT)
