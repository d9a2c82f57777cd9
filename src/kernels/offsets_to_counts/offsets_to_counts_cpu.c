/* offsets_to_counts_cpu.c: host reference of kernel "offsets_to_counts" (offsets_to_counts.json).
 *
 * counts[i] = offsets[i+1] - offsets[i] for 0 <= i < n (nothing for n <= 0). Stops at the first
 * bad list i and reports it: DECREASING (JG_EVALUE) when offsets[i+1] < offsets[i], TOO_LONG
 * (JG_EOVERFLOW) when the difference does not fit int64 (only possible for int64 offsets that
 * span negative and positive values). counts[0..i) are then written, the rest untouched; the CUDA
 * side reports the same list but may have written any count, so on error counts is unspecified.
 * The difference is taken in uint64, where it is exact for offsets[i+1] >= offsets[i]. */
#include "jgk_offsets_to_counts.h"

#define OFFSETS_TO_COUNTS(I, S)                                                              \
  jg_status jgk_offsets_to_counts_c_##S(int64_t n, const I *offsets, int64_t *counts,         \
                                        jg_error *err) {                                      \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t a = (int64_t)offsets[i], b = (int64_t)offsets[i + 1];                     \
      if (b < a) {                                                                            \
        return jgk_offsets_to_counts_error(err, JGK_OFFSETS_TO_COUNTS_DECREASING, i);         \
      }                                                                                       \
      const uint64_t d = (uint64_t)b - (uint64_t)a;                                           \
      if (d > (uint64_t)INT64_MAX) {                                                          \
        return jgk_offsets_to_counts_error(err, JGK_OFFSETS_TO_COUNTS_TOO_LONG, i);           \
      }                                                                                       \
      counts[i] = (int64_t)d;                                                                 \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_OFFSETS_TO_COUNTS_VARIANTS(OFFSETS_TO_COUNTS)
