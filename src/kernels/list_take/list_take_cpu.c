/* list_take_cpu.c: host reference of kernel "list_take" (list_take.json).
 *
 * nlists index lists laid out by offsets[0..nlists] (offsets[0] need not be 0) over n entries:
 * for list i and entry p in [offsets[i] - offsets[0], offsets[i+1] - offsets[0]), q = p when
 * identity, else ipos[p] (the entry's position among the m index values). The value at q is
 * None when valid_mode is 1 and valid[q] == 0, or 2 and valid[q] != 0 (a byte mask over the
 * index values); then out[p] = -1. Otherwise v = index[q] selects element v of the target list
 * i, [starts[i], starts[i] + counts[i]): out[p] = starts[i] + v, or starts[i] + v + counts[i]
 * for v < 0 (counting from the end, as NumPy and Awkward).
 *
 * Errors, at the first bad list (lists are checked in order; within a list the smallest code
 * wins, so that the CUDA side, which checks entries in parallel, reports the same):
 * BAD_OFFSETS (JG_EVALUE) unless offsets[0] <= offsets[i] <= offsets[i+1] <= offsets[0] + n;
 * BAD_POSITION (JG_EINDEX) for q outside [0, m); OUT_OF_RANGE (JG_EINDEX) for v outside
 * [-counts[i], counts[i]). On error out is unspecified. */
#include "jgk_list_take.h"

#define LIST_TAKE(J, S)                                                                       \
  jg_status jgk_list_take_c_##S(int64_t nlists, int64_t n, const int64_t *offsets, int64_t m, \
                                const J *index, int64_t identity, const int64_t *ipos,        \
                                int64_t valid_mode, const int8_t *valid,                      \
                                const int64_t *starts, const int64_t *counts, int64_t *out,   \
                                jg_error *err) {                                              \
    if (nlists <= 0) return JG_OK;                                                            \
    const int64_t base = offsets[0];                                                          \
    for (int64_t i = 0; i < nlists; ++i) {                                                    \
      const int64_t a = offsets[i], b = offsets[i + 1];                                       \
      if (!(base <= a && a <= b && n >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)n))   \
        return jgk_list_take_error(err, JGK_LIST_TAKE_BAD_OFFSETS, i);                        \
      int code = 99;                                                                          \
      const int64_t c = counts[i];                                                            \
      for (int64_t p = a - base; p < b - base; ++p) {                                         \
        const int64_t q = identity ? p : ipos[p];                                             \
        if (q < 0 || q >= m) {                                                                \
          if (JGK_LIST_TAKE_BAD_POSITION < code) code = JGK_LIST_TAKE_BAD_POSITION;           \
          continue;                                                                           \
        }                                                                                     \
        if (valid_mode != 0 && (valid[q] != 0) != (valid_mode == 1)) {                        \
          out[p] = -1;                                                                        \
          continue;                                                                           \
        }                                                                                     \
        const int64_t v = (int64_t)index[q];                                                  \
        if (!(c > 0 && (v < 0 ? v >= -c : v < c))) {                                          \
          if (JGK_LIST_TAKE_OUT_OF_RANGE < code) code = JGK_LIST_TAKE_OUT_OF_RANGE;           \
          continue;                                                                           \
        }                                                                                     \
        out[p] = starts[i] + (v < 0 ? v + c : v);                                             \
      }                                                                                       \
      if (code != 99) return jgk_list_take_error(err, code, i);                               \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_LIST_TAKE_VARIANTS(LIST_TAKE)
