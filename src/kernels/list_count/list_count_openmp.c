/* list_count_openmp.c: OpenMP host implementation of kernel "list_count" (list_count.json): the "c"
 * reference on chunks of lists in parallel (JGK_REDUCE_OPENMP_BODY, jgk_reduce.h): bit-identical
 * results, the same first bad list. On error the outputs are unspecified. */
#include "jgk_list_count.h"
#include "jgk_reduce.h"

#define LIST_COUNT(I, S)                                                                          \
  jg_status jgk_list_count_openmp_##S(int64_t n, const I *starts, const I *stops, int64_t m,      \
                                      int64_t *out, jg_error *err) {                              \
    JGK_REDUCE_OPENMP_BODY(n,                                                                     \
        jgk_list_count_c_##S(len, starts + lo, stops + lo, m, out + lo, &e),                      \
        jgk_list_count_error(err, JGK_LIST_COUNT_BAD_RANGE, bad))                               \
  }
JGK_LIST_COUNT_VARIANTS(LIST_COUNT)
