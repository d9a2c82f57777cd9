/* offsets_to_counts_openmp.c: OpenMP host implementation of kernel "offsets_to_counts"
 * (offsets_to_counts.json): the reference's loop split over threads. Every thread writes its
 * counts and keeps the smallest bad list it saw; the minimum over threads is the list the
 * reference stops at (its predicate depends on offsets[i] and offsets[i+1] only), so the error
 * reported is the same. On error counts is unspecified, as on the CUDA side. */
#include "jgk_offsets_to_counts.h"

#define OFFSETS_TO_COUNTS(I, S)                                                              \
  jg_status jgk_offsets_to_counts_openmp_##S(int64_t n, const I *offsets, int64_t *counts,    \
                                             jg_error *err) {                                 \
    int64_t bad = INT64_MAX;                                                                  \
    _Pragma("omp parallel for schedule(static) reduction(min : bad)")                         \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t a = (int64_t)offsets[i], b = (int64_t)offsets[i + 1];                     \
      const uint64_t d = (uint64_t)b - (uint64_t)a;                                           \
      if (b < a || d > (uint64_t)INT64_MAX) {                                                 \
        if (i < bad) bad = i;                                                                 \
      } else {                                                                                \
        counts[i] = (int64_t)d;                                                               \
      }                                                                                       \
    }                                                                                         \
    if (bad == INT64_MAX) return JG_OK;                                                       \
    return jgk_offsets_to_counts_error(err,                                                   \
                                       (int64_t)offsets[bad + 1] < (int64_t)offsets[bad]      \
                                           ? JGK_OFFSETS_TO_COUNTS_DECREASING                 \
                                           : JGK_OFFSETS_TO_COUNTS_TOO_LONG,                  \
                                       bad);                                                  \
  }
JGK_OFFSETS_TO_COUNTS_VARIANTS(OFFSETS_TO_COUNTS)
