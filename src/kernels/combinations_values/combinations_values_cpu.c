/* combinations_values_cpu.c: host reference of kernel "combinations_values"
 * (combinations_values.json).
 *
 * Tile by tile: the tile's lists are counted first (jgk_comb_count; a bad list or an overflowing
 * count is 0, as on the device); a tile whose sum leaves [0, total - tile_offsets[t]] writes
 * nothing. Then list by list from position tile_offsets[t]: offsets[i + 1], and the values of
 * the combinations in lexicographic order, k = 2 without replacement by two nested loops (the
 * common case, as fast as a plain loop), the others by stepping k local positions (the
 * rightmost one that can grow grows by one, the ones after it restart just above it, or at it
 * with replacement). */
#include "jgk_combinations_values.h"

#include "combinations_values/jgk_comb_values.h"

#define COMBINATIONS_VALUES(I, T, S)                                                           \
  jg_status jgk_combinations_values_c_##S(                                                     \
      int64_t n, const I *starts, const I *stops, int64_t m, const T *content, int64_t k,      \
      int64_t replacement, int64_t tile, int64_t ntiles, const int64_t *tile_offsets,          \
      int64_t total, int64_t *offsets, T *out, jg_error *err) {                                \
    (void)err;                                                                                 \
    offsets[0] = 0;                                                                            \
    if (k < 1 || k > 4 || tile < 1 || tile > JGK_COMB_TILE || total < 0 || n <= 0) return JG_OK; \
    for (int64_t t = 0; t < ntiles && t <= (n - 1) / tile; ++t) {                              \
      JGK_COMB_VALUES_TILE(T, t);                                                              \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_COMBINATIONS_VALUES_VARIANTS(COMBINATIONS_VALUES)
