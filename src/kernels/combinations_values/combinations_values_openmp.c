/* combinations_values_openmp.c: OpenMP host implementation of kernel "combinations_values"
 * (combinations_values.json): the reference's loop over tiles split over threads (dynamic
 * schedule: tiles of long lists hold far more combinations). Tiles write disjoint ranges of
 * offsets and out, so the result is the reference's exactly. */
#include "jgk_combinations_values.h"

#include "combinations_values/jgk_comb_values.h"

#define COMBINATIONS_VALUES(I, T, S)                                                           \
  jg_status jgk_combinations_values_openmp_##S(                                                \
      int64_t n, const I *starts, const I *stops, int64_t m, const T *content, int64_t k,      \
      int64_t replacement, int64_t tile, int64_t ntiles, const int64_t *tile_offsets,          \
      int64_t total, int64_t *offsets, T *out, jg_error *err) {                                \
    (void)err;                                                                                 \
    offsets[0] = 0;                                                                            \
    if (k < 1 || k > 4 || tile < 1 || tile > JGK_COMB_TILE || total < 0 || n <= 0) return JG_OK; \
    const int64_t nt = ntiles < (n - 1) / tile + 1 ? ntiles : (n - 1) / tile + 1;             \
    _Pragma("omp parallel for schedule(dynamic, 4)")                                           \
    for (int64_t t = 0; t < nt; ++t) {                                                         \
      JGK_COMB_VALUES_TILE(T, t);                                                              \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_COMBINATIONS_VALUES_VARIANTS(COMBINATIONS_VALUES)
