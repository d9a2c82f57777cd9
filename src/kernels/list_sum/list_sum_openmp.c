/* list_sum_openmp.c: OpenMP host implementation of kernel "list_sum" (list_sum.json): the "c"
 * reference on chunks of lists in parallel (JGK_REDUCE_OPENMP_BODY, jgk_reduce.h): bit-identical
 * results, the same first bad list. On error the outputs are unspecified. */
#include "jgk_list_sum.h"
#include "jgk_reduce.h"

#define LIST_SUM(I, T, R, S)                                                                   \
  jg_status jgk_list_sum_openmp_##S(int64_t n, const I *starts, const I *stops, int64_t m,     \
                                    const T *content, int64_t op, R *out, jg_error *err) {     \
    JGK_REDUCE_OPENMP_BODY(n, jgk_list_sum_c_##S(len, starts + lo, stops + lo, m, content, op, out \
        + lo, &e), jgk_list_sum_error(err, JGK_LIST_SUM_BAD_RANGE, bad))                        \
  }
JGK_LIST_SUM_VARIANTS(LIST_SUM)
