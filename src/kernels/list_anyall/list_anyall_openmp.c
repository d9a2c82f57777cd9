/* list_anyall_openmp.c: OpenMP host implementation of kernel "list_anyall" (list_anyall.json): the
 * "c" reference run on chunks of JGK_REDUCE_CHUNK consecutive lists in parallel (dynamic schedule,
 * as list lengths vary), so every list is reduced in the same order and the results are bit-
 * identical to the reference's. A chunk stops at its first bad list; the smallest one over all
 * chunks is the list the reference stops at. On error the outputs are unspecified. */
#include "jgk_list_anyall.h"
#include "jgk_reduce.h"

#define LIST_ANYALL(I, T, S)                                                                      \
  jg_status jgk_list_anyall_openmp_##S(int64_t n, const I *starts, const I *stops, int64_t m,     \
                                       const T *content, int64_t op, bool *out, jg_error *err) {  \
    const int64_t chunks = n > 0 ? (n - 1) / JGK_REDUCE_CHUNK + 1 : 0;                            \
    int64_t bad = INT64_MAX;                                                                      \
    _Pragma("omp parallel for schedule(dynamic, 1) reduction(min : bad)")                         \
    for (int64_t c = 0; c < chunks; ++c) {                                                        \
      const int64_t lo = c * JGK_REDUCE_CHUNK;                                                    \
      const int64_t len = n - lo < JGK_REDUCE_CHUNK ? n - lo : JGK_REDUCE_CHUNK;                  \
      jg_error e;                                                                                 \
      jg_error_clear(&e);                                                                         \
      jg_status st = jgk_list_anyall_c_##S(len, starts + lo, stops + lo, m, content, op,          \
                                           out + lo, &e);                                         \
      if (st != JG_OK && lo + e.index < bad) {                                                    \
        bad = lo + e.index;                                                                       \
      }                                                                                           \
    }                                                                                             \
    if (bad == INT64_MAX) return JG_OK;                                                           \
    return jgk_list_anyall_error(err, JGK_LIST_ANYALL_BAD_RANGE, bad);                            \
  }
JGK_LIST_ANYALL_VARIANTS(LIST_ANYALL)
