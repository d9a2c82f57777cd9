/* list_concat_index_cpu.c: host reference of kernel "list_concat_index" (list_concat_index.json).
 *
 * starts and stops are k x n matrices (row j: source j's n lists, as int64, already checked
 * against their contents by list_carry), each with k * n entries. Output list i must be exactly
 * as long as its sources' lists together and lie in [0, total] (BAD_OFFSETS, the first such list;
 * the lists before it are written). out gets, in order, base[j] + p for every position p of
 * source j's list i, j = 0..k-1. */
#include "jgk_list_concat_index.h"

jg_status jgk_list_concat_index_c(int64_t n, int64_t k, const int64_t *starts,
                                  const int64_t *stops, const int64_t *base,
                                  const int64_t *offsets, int64_t total, int64_t *out,
                                  jg_error *err) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    int64_t sum = 0;
    for (int64_t j = 0; j < k; ++j) sum += stops[j * n + i] - starts[j * n + i];
    if (!(0 <= a && a <= b && b <= total && b - a == sum)) {
      return jgk_list_concat_index_error(err, JGK_LIST_CONCAT_INDEX_BAD_OFFSETS, i);
    }
    int64_t o = a;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t s = starts[j * n + i], e = stops[j * n + i], add = base[j];
      for (int64_t p = s; p < e; ++p) out[o++] = add + p;
    }
  }
  return JG_OK;
}
