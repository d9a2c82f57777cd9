/* list_mean_openmp.c: OpenMP host implementation of kernel "list_mean" (list_mean.json): the "c"
 * reference on chunks of lists in parallel (JGK_REDUCE_OPENMP_BODY, jgk_reduce.h): bit-identical
 * results, the same first bad list. On error the outputs are unspecified. */
#include "jgk_list_mean.h"
#include "jgk_reduce.h"

#define LIST_MEAN(I, T, S)                                                                        \
  jg_status jgk_list_mean_openmp_##S(int64_t n, const I *starts, const I *stops, int64_t m,       \
                                     const T *content, double *out, jg_error *err) {              \
    JGK_REDUCE_OPENMP_BODY(n, jgk_list_mean_c_##S(len, starts + lo, stops + lo, m, content, out +  \
        lo, &e), jgk_list_mean_error(err, JGK_LIST_MEAN_BAD_RANGE, bad))                        \
  }
JGK_LIST_MEAN_VARIANTS(LIST_MEAN)
