/* reduce_axis_children_cpu.c: host reference of kernel "reduce_axis_children"
 * (reduce_axis_children.json): slot by slot, child by child, a pass over the slot's
 * contributors (count, or fill in order). Every array is made by the operation and trusted:
 * child_offsets and slot_offsets are scans from 0, contrib holds positions of valid lists (reduce_axis_lengths checked
 * them), and with fill 1 child_counts holds the scanned counts of the fill 0 pass. */
#include "jgk_reduce_axis_children.h"

#define REDUCE_AXIS_CHILDREN(I, S)                                                              \
  jg_status jgk_reduce_axis_children_c_##S(                                                     \
      int64_t nchild, int64_t n, const int64_t *child_offsets, const int64_t *slot_offsets, const int64_t *contrib,          \
      const int64_t *axis_pos, const I *starts, const I *stops, int64_t fill, int64_t *child_counts,              \
      int64_t *contrib_out, int64_t *axis_pos_out, jg_error *err) {                                            \
    (void)err;                                                                                  \
    for (int64_t s = 0; s < n; ++s) {                                                           \
      for (int64_t c = child_offsets[s]; c < child_offsets[s + 1] && c < nchild; ++c) {                                 \
        const int64_t l = c - child_offsets[s];                                                             \
        int64_t w = fill != 0 ? child_counts[c] : 0;                                                       \
        for (int64_t r = slot_offsets[s]; r < slot_offsets[s + 1]; ++r) {                                             \
          const int64_t q = contrib[r], x = (int64_t)starts[q];                                       \
          if ((int64_t)stops[q] - x <= l) continue;                                             \
          if (fill != 0) {                                                                      \
            contrib_out[w] = x + l;                                                                    \
            axis_pos_out[w] = axis_pos[r];                                                                     \
          }                                                                                     \
          w++;                                                                                  \
        }                                                                                       \
        if (fill == 0) child_counts[c] = w;                                                                \
      }                                                                                         \
    }                                                                                           \
    return JG_OK;                                                                               \
  }
JGK_REDUCE_AXIS_CHILDREN_VARIANTS(REDUCE_AXIS_CHILDREN)
