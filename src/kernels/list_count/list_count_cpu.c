/* list_count_cpu.c: host reference of kernel "list_count" (list_count.json).
 *
 * For every list i < n: out[i] = stops[i] - starts[i] (Awkward's num at the innermost axis).
 * There is no content here, so a list may lie anywhere; list i is bad (BAD_RANGE, JG_EVALUE) when
 * stops[i] < starts[i], or when its length exceeds INT64_MAX (int64 starts and stops far apart:
 * such a list reaches outside any content). The difference is taken in uint64_t, exact once
 * stops >= starts. The first bad list is reported, with out written for the lists before it
 * (unspecified on error on the other sides). Nothing happens for n <= 0. */
#include "jgk_list_count.h"
#include "jgk_reduce.h"

#define LIST_COUNT(I, S)                                                                       \
  jg_status jgk_list_count_c_##S(int64_t n, const I *starts, const I *stops, int64_t *out,     \
                                 jg_error *err) {                                              \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      const uint64_t len = (uint64_t)b - (uint64_t)a;                                          \
      if (b < a || len > (uint64_t)INT64_MAX) {                                                \
        return jgk_list_count_error(err, JGK_LIST_COUNT_BAD_RANGE, i);                         \
      }                                                                                        \
      out[i] = (int64_t)len;                                                                   \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_COUNT_VARIANTS(LIST_COUNT)
