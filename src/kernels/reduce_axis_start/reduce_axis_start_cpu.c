/* reduce_axis_start_cpu.c: host reference of kernel "reduce_axis_start"
 * (reduce_axis_start.json): slot by slot, contrib and axis_pos over the slot's range of slot_offsets. slot_offsets is trusted
 * (a scan made by the operation); slots whose range leaves [0, total] are skipped. */
#include "jgk_reduce_axis_start.h"

#define REDUCE_AXIS_START(I, S)                                                              \
  jg_status jgk_reduce_axis_start_c_##S(int64_t n, const int64_t *slot_offsets, const I *starts,        \
                                        int64_t total, int64_t *contrib, int64_t *axis_pos, jg_error *err) { \
    (void)err;                                                                               \
    for (int64_t p = 0; p < n; ++p) {                                                        \
      const int64_t a = slot_offsets[p], b = slot_offsets[p + 1];                                                  \
      if (a < 0 || b < a || b > total) continue;                                             \
      const int64_t s = (int64_t)starts[p];                                                  \
      for (int64_t r = a; r < b; ++r) {                                                      \
        contrib[r] = s + (r - a);                                                                  \
        axis_pos[r] = r - a;                                                                        \
      }                                                                                      \
    }                                                                                        \
    return JG_OK;                                                                            \
  }
JGK_REDUCE_AXIS_START_VARIANTS(REDUCE_AXIS_START)
