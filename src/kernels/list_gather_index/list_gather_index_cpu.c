/* list_gather_index_cpu.c: host reference of kernel "list_gather_index" (list_gather_index.json).
 *
 * Output list i covers out[offsets[i] .. offsets[i+1]); its k-th entry is starts[i] + k while k
 * is below the source list's length stops[i] - starts[i], else -1 (padding: pad_none's None).
 * Source lists longer than their output list are cut (clip). List i is bad unless 0 <= offsets[i]
 * <= offsets[i+1] <= total (offsets[0] must be 0 for the whole of out to be written); the first
 * bad list is reported with the lists before it written. */
#include "jgk_list_gather_index.h"

jg_status jgk_list_gather_index_c(int64_t n, const int64_t *starts, const int64_t *stops,
                                  const int64_t *offsets, int64_t total, int64_t *out,
                                  jg_error *err) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    if (!(0 <= a && a <= b && b <= total)) {
      return jgk_list_gather_index_error(err, JGK_LIST_GATHER_INDEX_BAD_OFFSETS, i);
    }
    const int64_t s = starts[i], len = stops[i] - s;
    int64_t *o = out + a;
    const int64_t w = b - a, copy = len < w ? (len > 0 ? len : 0) : w;
    for (int64_t k = 0; k < copy; ++k) o[k] = s + k;
    for (int64_t k = copy; k < w; ++k) o[k] = -1;
  }
  return JG_OK;
}
