/* reduce_axis_argpos_cpu.c: host reference of kernel "reduce_axis_argpos"
 * (reduce_axis_argpos.json). A pick outside the slot's range (or a range outside [0, total])
 * gives -1, so axis_pos is read only in bounds. */
#include "jgk_reduce_axis_argpos.h"

jg_status jgk_reduce_axis_argpos_c(int64_t n, const int64_t *slot_offsets, int64_t total, const int64_t *axis_pos,
                                   const int64_t *pick, int64_t *out, jg_error *err) {
  (void)err;
  for (int64_t s = 0; s < n; ++s) {
    const int64_t p = pick[s], a = slot_offsets[s], b = slot_offsets[s + 1];
    out[s] = p >= 0 && a >= 0 && b <= total && p < b - a ? axis_pos[a + p] : -1;
  }
  return JG_OK;
}
