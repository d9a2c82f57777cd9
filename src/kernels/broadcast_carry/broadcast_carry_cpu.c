/* broadcast_carry_cpu.c: host reference of kernel "broadcast_carry" (broadcast_carry.json), the
 * step of broadcasting from one list level to the next (src/ops/broadcast.c).
 *
 * The output has n lists with compact offsets (offsets[0..n]) and total elements; parents[j] is
 * the list of element j (list_parents). For one input, c = carry(p) is the entry of its current
 * node that output list p refers to (base + p when identity != 0, carry not read; else carry[p];
 * c < 0: None). out[j] is where element j lives in that input's next node:
 *   mode 0: c (the input has no list here: its value repeats across the list, as a flat array
 *           of one value per list does);
 *   mode 1: start(c) + (j - (offsets[p] - offsets[0])), its element in list c of the input's
 *           list node (start(c) = c * size for a regular node, size >= 0; else starts[c]);
 * and -1 where c < 0. No data errors: the inputs were checked by carry_counts, which sized the
 * lists, so parents and carry index what they should (the caller's contract). */
#include "jgk_broadcast_carry.h"

#define BROADCAST_CARRY(I, S)                                                                  \
  jg_status jgk_broadcast_carry_c_##S(int64_t total, int64_t n, const int64_t *parents,       \
                                      const int64_t *offsets, int64_t identity, int64_t base, \
                                      const int64_t *carry, int64_t mode, int64_t size,       \
                                      const I *starts, int64_t *out, jg_error *err) {         \
    (void)err;                                                                                 \
    (void)n;                                                                                   \
    if (total <= 0) return JG_OK;                                                              \
    const int64_t o0 = offsets[0];                                                             \
    for (int64_t j = 0; j < total; ++j) {                                                      \
      const int64_t p = parents[j];                                                            \
      const int64_t c = identity != 0 ? base + p : carry[p];                                   \
      if (c < 0) {                                                                             \
        out[j] = -1;                                                                           \
      } else if (mode == 0) {                                                                  \
        out[j] = c;                                                                            \
      } else {                                                                                 \
        const int64_t s = size >= 0 ? c * size : (int64_t)starts[c];                           \
        out[j] = s + (j - (offsets[p] - o0));                                                  \
      }                                                                                        \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_BROADCAST_CARRY_VARIANTS(BROADCAST_CARRY)
