/* list_count_nonzero_openmp.c: OpenMP host implementation of kernel "list_count_nonzero"
 * (list_count_nonzero.json): the "c" reference run on chunks of JGK_REDUCE_CHUNK consecutive lists
 * in parallel (dynamic schedule, as list lengths vary), so every list is reduced in the same order
 * and the results are bit-identical to the reference's. A chunk stops at its first bad list; the
 * smallest one over all chunks is the list the reference stops at. On error the outputs are
 * unspecified. */
#include "jgk_list_count_nonzero.h"
#include "jgk_reduce.h"

#define LIST_COUNT_NONZERO(I, T, S)                                                               \
  jg_status jgk_list_count_nonzero_openmp_##S(int64_t n, const I *starts, const I *stops,         \
                                              int64_t m, const T *content, int64_t *out,          \
                                              jg_error *err) {                                    \
    JGK_REDUCE_OPENMP_BODY(n, jgk_list_count_nonzero_c_##S(len, starts + lo, stops + lo, m,        \
        content, out + lo, &e), jgk_list_count_nonzero_error(err,                               \
        JGK_LIST_COUNT_NONZERO_BAD_RANGE, bad))                                                 \
  }
JGK_LIST_COUNT_NONZERO_VARIANTS(LIST_COUNT_NONZERO)
