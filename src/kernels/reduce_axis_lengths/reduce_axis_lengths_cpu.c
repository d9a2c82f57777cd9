/* reduce_axis_lengths_cpu.c: host reference of kernel "reduce_axis_lengths"
 * (reduce_axis_lengths.json): slot by slot, the longest merged list. Every slot is visited and
 * the smallest bad list (Awkward's rule: stops < starts, or a non-empty list outside [0, m))
 * is reported, whatever the order the slots reach the lists in (as the device's atomic minimum
 * does); on error out is unspecified. slot_offsets and contrib are trusted (made by the operation); contributor
 * positions outside [0, nlists) and slot ranges outside [0, total] are skipped. */
#include "jgk_reduce_axis_lengths.h"

#define REDUCE_AXIS_LENGTHS(I, S)                                                             \
  jg_status jgk_reduce_axis_lengths_c_##S(int64_t n, const int64_t *slot_offsets, int64_t total,         \
                                          const int64_t *contrib, int64_t nlists, const I *starts,  \
                                          const I *stops, int64_t m, int64_t *out,            \
                                          jg_error *err) {                                    \
    int64_t bad = INT64_MAX;                                                                  \
    for (int64_t s = 0; s < n; ++s) {                                                         \
      const int64_t a = slot_offsets[s], b = slot_offsets[s + 1];                                                   \
      int64_t most = 0;                                                                       \
      if (a >= 0 && a <= b && b <= total) {                                                   \
        for (int64_t r = a; r < b; ++r) {                                                     \
          const int64_t q = contrib[r];                                                             \
          if (q < 0 || q >= nlists) continue;                                                 \
          const int64_t x = (int64_t)starts[q], y = (int64_t)stops[q];                        \
          if (y < x || (x < y && (x < 0 || y > m))) {                                         \
            if (q < bad) bad = q;                                                             \
            continue;                                                                         \
          }                                                                                   \
          if (y - x > most) most = y - x;                                                     \
        }                                                                                     \
      }                                                                                       \
      out[s] = most;                                                                          \
    }                                                                                         \
    return bad == INT64_MAX ? JG_OK                                                           \
                            : jgk_reduce_axis_lengths_error(err, JGK_REDUCE_AXIS_LENGTHS_BAD_RANGE, bad); \
  }
JGK_REDUCE_AXIS_LENGTHS_VARIANTS(REDUCE_AXIS_LENGTHS)
