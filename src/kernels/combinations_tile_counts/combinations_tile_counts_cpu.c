/* combinations_tile_counts_cpu.c: host reference of kernel "combinations_tile_counts"
 * (combinations_tile_counts.json).
 *
 * Tile by tile (tile t: lists [t * tile, min(n, (t + 1) * tile))): the sum of the lists' counts
 * C(L, k) (C(L + k - 1, k) with replacement, 0 for an empty list), exact in int64, or -1 as soon
 * as a list is bad (Awkward's rule: stops < starts, or not empty and outside [0, m)), a count
 * exceeds INT64_MAX or the sum does. A tile past the last list (t * tile >= n) sums nothing
 * (0). k outside [1, 4] or tile outside [1, 1024] gives -1 everywhere. */
#include "jgk_combinations_tile_counts.h"

#include "combinations_values/jgk_comb_count.h"

#define COMBINATIONS_TILE_COUNTS(I, S)                                                          \
  jg_status jgk_combinations_tile_counts_c_##S(int64_t n, const I *starts, const I *stops,      \
                                               int64_t m, int64_t k, int64_t replacement,       \
                                               int64_t tile, int64_t ntiles, int64_t *out,      \
                                               jg_error *err) {                                 \
    (void)err;                                                                                  \
    const int ok = k >= 1 && k <= 4 && tile >= 1 && tile <= JGK_COMB_TILE;                      \
    for (int64_t t = 0; t < ntiles; ++t) {                                                      \
      if (!ok) {                                                                                \
        out[t] = -1;                                                                            \
        continue;                                                                               \
      }                                                                                         \
      int64_t sum = 0;                                                                          \
      if (t <= (n - 1) / tile && n > 0) {                                                       \
        const int64_t first = t * tile, last = n - first < tile ? n : first + tile;             \
        for (int64_t i = first; i < last && sum >= 0; ++i) {                                    \
          const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                          \
          if (b < a || (a < b && (a < 0 || b > m))) {                                           \
            sum = -1;                                                                           \
            break;                                                                              \
          }                                                                                     \
          const int64_t c = jgk_comb_count(b - a, k, replacement);                              \
          if (c < 0 || sum > INT64_MAX - c) {                                                   \
            sum = -1;                                                                           \
            break;                                                                              \
          }                                                                                     \
          sum += c;                                                                             \
        }                                                                                       \
      }                                                                                         \
      out[t] = sum;                                                                             \
    }                                                                                           \
    return JG_OK;                                                                               \
  }
JGK_COMBINATIONS_TILE_COUNTS_VARIANTS(COMBINATIONS_TILE_COUNTS)
