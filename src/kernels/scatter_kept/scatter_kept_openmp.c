/* scatter_kept_openmp.c: OpenMP host implementation of kernel "scatter_kept"
 * (scatter_kept.json): the reference's loop split over threads (entries write distinct
 * positions when the prefix is good); the smallest bad entry is the reference's. On error out
 * is unspecified. */
#include "jgk_scatter_kept.h"

jg_status jgk_scatter_kept_openmp(int64_t n, int64_t m, const int64_t *prefix,
                                  const int64_t *index, int64_t *out, jg_error *err) {
  int64_t bad = INT64_MAX;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = prefix[i];
    const uint64_t d = (uint64_t)prefix[i + 1] - (uint64_t)a;
    if (d > 1u || (d == 1u && (a < 0 || a >= m))) {
      if (i < bad) bad = i;
    } else if (d == 1u) {
      out[a] = index[i];
    }
  }
  return bad == INT64_MAX ? JG_OK : jgk_scatter_kept_error(err, JGK_SCATTER_KEPT_BAD_PREFIX, bad);
}
