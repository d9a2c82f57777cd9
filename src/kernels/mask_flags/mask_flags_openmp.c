/* mask_flags_openmp.c: OpenMP host implementation of kernel "mask_flags" (mask_flags.json): the
 * reference's loop split over threads; the smallest bad entry is the reference's (its predicate
 * depends on entry i alone). On error the outputs are unspecified. */
#include "jgk_mask_flags.h"

jg_status jgk_mask_flags_openmp(int64_t n, int64_t m, const bool *mask, int64_t identity,
                                const int64_t *mpos, const int64_t *apos, int64_t valid_mode,
                                const int8_t *valid, int64_t *out_keep, int64_t *out_index,
                                jg_error *err) {
  int64_t bad = INT64_MAX;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (int64_t i = 0; i < n; ++i) {
    const int64_t q = identity ? i : mpos[i];
    if (q < 0 || q >= m) {
      if (i < bad) bad = i;
      continue;
    }
    const bool ok = valid_mode == 0 || (valid[q] != 0) == (valid_mode == 1);
    out_keep[i] = (!ok || ((const unsigned char *)mask)[q] != 0) ? 1 : 0;
    out_index[i] = ok ? (identity ? i : apos[i]) : -1;
  }
  return bad == INT64_MAX ? JG_OK : jgk_mask_flags_error(err, JGK_MASK_FLAGS_BAD_POSITION, bad);
}
