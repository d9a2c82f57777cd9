/* list_gather_index_openmp.c: OpenMP host implementation of kernel "list_gather_index"
 * (list_gather_index.json): the reference's loop over lists split over threads (dynamic chunks:
 * list lengths vary). The smallest bad list is reported, as by the reference (each list's check
 * reads its own offsets only). */
#include "jgk_list_gather_index.h"

jg_status jgk_list_gather_index_openmp(int64_t n, const int64_t *starts, const int64_t *stops,
                                       const int64_t *offsets, int64_t total, int64_t *out,
                                       jg_error *err) {
  int64_t bad = INT64_MAX;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : bad)
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    if (!(0 <= a && a <= b && b <= total)) {
      if (i < bad) bad = i;
      continue;
    }
    const int64_t s = starts[i], len = stops[i] - s;
    int64_t *o = out + a;
    const int64_t w = b - a, copy = len < w ? (len > 0 ? len : 0) : w;
    for (int64_t k = 0; k < copy; ++k) o[k] = s + k;
    for (int64_t k = copy; k < w; ++k) o[k] = -1;
  }
  return bad == INT64_MAX ? JG_OK
                          : jgk_list_gather_index_error(err, JGK_LIST_GATHER_INDEX_BAD_OFFSETS, bad);
}
