/* list_concat_index_openmp.c: OpenMP host implementation of kernel "list_concat_index"
 * (list_concat_index.json): the reference's loop over output lists split over threads (dynamic
 * chunks); every list is written as by the reference and the smallest bad list is reported. */
#include "jgk_list_concat_index.h"

jg_status jgk_list_concat_index_openmp(int64_t n, int64_t k, const int64_t *starts,
                                       const int64_t *stops, const int64_t *base,
                                       const int64_t *offsets, int64_t total, int64_t *out,
                                       jg_error *err) {
  int64_t bad = INT64_MAX;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : bad)
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    int64_t sum = 0;
    for (int64_t j = 0; j < k; ++j) sum += stops[j * n + i] - starts[j * n + i];
    if (!(0 <= a && a <= b && b <= total && b - a == sum)) {
      if (i < bad) bad = i;
      continue;
    }
    int64_t o = a;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t s = starts[j * n + i], e = stops[j * n + i], add = base[j];
      for (int64_t p = s; p < e; ++p) out[o++] = add + p;
    }
  }
  return bad == INT64_MAX ? JG_OK
                          : jgk_list_concat_index_error(err, JGK_LIST_CONCAT_INDEX_BAD_OFFSETS, bad);
}
