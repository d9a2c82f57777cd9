/* list_pick_cpu.c: host reference of kernel "list_pick" (list_pick.json): list i is picked when
 * valid[i] and count[i] > 0, at first[i] (last = 0) or first[i] + count[i] - 1 (last != 0, in
 * uint64 so that any input is defined); otherwise out_pos[i] = fallback, out_valid[i] false. */
#include "jgk_list_pick.h"

jg_status jgk_list_pick_c(int64_t n, const int64_t *first, const int64_t *count,
                          const bool *valid, int64_t last, int64_t fallback, int64_t *out_pos,
                          bool *out_valid, jg_error *err) {
  (void)err;
  for (int64_t i = 0; i < n; ++i) {
    const bool ok = valid[i] && count[i] > 0;
    out_pos[i] = !ok ? fallback
                     : last ? (int64_t)((uint64_t)first[i] + (uint64_t)count[i] - 1u) : first[i];
    out_valid[i] = ok;
  }
  return JG_OK;
}
