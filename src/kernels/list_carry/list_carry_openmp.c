/* list_carry_openmp.c: OpenMP host implementation of kernel "list_carry" (list_carry.json): the
 * reference's loop split over threads; the smallest bad entry (and its error) is reported, the
 * one the reference stops at, since each entry's check depends on that entry alone. */
#include "jgk_list_carry.h"
#include "list_carry/list_carry_body.h"

#define LIST_CARRY(I, S)                                                                      \
  jg_status jgk_list_carry_openmp_##S(int64_t n, int64_t nlists, int64_t m, int64_t mode,     \
                                      const I *starts, const I *stops, const int64_t *index, \
                                      int64_t target, int64_t clip, int64_t accumulate,      \
                                      int64_t shift, int64_t *out_starts,                    \
                                      int64_t *out_stops, int64_t *counts, jg_error *err) {  \
    int64_t bad = INT64_MAX;                                                                  \
    _Pragma("omp parallel for schedule(static) reduction(min : bad)")                         \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      int r;                                                                                  \
      JGK_LIST_CARRY_ONE(i, r);                                                               \
      if (r != 0 && i < bad) bad = i;                                                         \
    }                                                                                         \
    if (bad == INT64_MAX) return JG_OK;                                                       \
    int r;                                                                                    \
    JGK_LIST_CARRY_ONE(bad, r);                                                               \
    return jgk_list_carry_error(err, r - 1, bad);                                             \
  }
JGK_LIST_CARRY_VARIANTS(LIST_CARRY)
