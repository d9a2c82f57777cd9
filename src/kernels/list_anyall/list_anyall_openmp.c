/* list_anyall_openmp.c: OpenMP host implementation of kernel "list_anyall" (list_anyall.json): the "c"
 * reference on chunks of lists in parallel (JGK_REDUCE_OPENMP_BODY, jgk_reduce.h): bit-identical
 * results, the same first bad list. On error the outputs are unspecified. */
#include "jgk_list_anyall.h"
#include "jgk_reduce.h"

#define LIST_ANYALL(I, T, S)                                                                      \
  jg_status jgk_list_anyall_openmp_##S(int64_t n, const I *starts, const I *stops, int64_t m,     \
                                       const T *content, int64_t op, bool *out, jg_error *err) {  \
    JGK_REDUCE_OPENMP_BODY(n, jgk_list_anyall_c_##S(len, starts + lo, stops + lo, m, content, op,  \
        out + lo, &e), jgk_list_anyall_error(err, JGK_LIST_ANYALL_BAD_RANGE, bad))              \
  }
JGK_LIST_ANYALL_VARIANTS(LIST_ANYALL)
