/* list_sum_openmp.c: OpenMP host implementation of kernel "list_sum" (list_sum.json): the "c"
 * reference run on chunks of JGK_REDUCE_CHUNK consecutive lists in parallel (dynamic schedule,
 * as list lengths vary), so every list is reduced in the same order and the results are
 * bit-identical to the reference's. A chunk stops at its first bad list; the smallest one over
 * all chunks is the list the reference stops at. On error out is unspecified. */
#include "jgk_list_sum.h"
#include "jgk_reduce.h"

#define LIST_SUM(I, T, R, S)                                                                   \
  jg_status jgk_list_sum_openmp_##S(int64_t n, const I *starts, const I *stops, int64_t m,     \
                                    const T *content, int64_t op, R *out, jg_error *err) {     \
    const int64_t chunks = n > 0 ? (n - 1) / JGK_REDUCE_CHUNK + 1 : 0;                        \
    int64_t bad = INT64_MAX;                                                                   \
    _Pragma("omp parallel for schedule(dynamic, 1) reduction(min : bad)")                      \
    for (int64_t c = 0; c < chunks; ++c) {                                                     \
      const int64_t lo = c * JGK_REDUCE_CHUNK;                                                 \
      const int64_t len = n - lo < JGK_REDUCE_CHUNK ? n - lo : JGK_REDUCE_CHUNK;               \
      jg_error e;                                                                              \
      jg_error_clear(&e);                                                                      \
      if (jgk_list_sum_c_##S(len, starts + lo, stops + lo, m, content, op, out + lo, &e) !=    \
              JG_OK &&                                                                         \
          lo + e.index < bad) {                                                                \
        bad = lo + e.index;                                                                    \
      }                                                                                        \
    }                                                                                          \
    return bad == INT64_MAX ? JG_OK : jgk_list_sum_error(err, JGK_LIST_SUM_BAD_RANGE, bad);   \
  }
JGK_LIST_SUM_VARIANTS(LIST_SUM)
