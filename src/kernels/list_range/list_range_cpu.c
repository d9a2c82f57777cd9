/* list_range_cpu.c: host reference of kernel "list_range" (list_range.json).
 *
 * For every entry i < n: p = carry[i] when use_carry, else i. The entry is None when use_carry
 * and p < 0 (an indexed option's None), when mask_mode is 1 and mask[p] == 0 or mask_mode is 2
 * and mask[p] != 0 (a byte mask over the list node's positions, valid when nonzero or zero),
 * or when use_gate and gate[i] is false. A None entry gets start 0, count 0, valid false.
 * Otherwise the list at p is [starts[p], stops[p]), or [p * regular_size, (p + 1) *
 * regular_size) when regular_size >= 0 (starts and stops are then not read), and the entry gets
 * its start, its count and valid true.
 *
 * Errors, at the first bad entry: BAD_CARRY (JG_EINDEX) when p (not None) is outside
 * [0, nlists); BAD_LIST (JG_EVALUE) when the list has stop < start, or is not empty and leaves
 * [0, m) (Awkward's rule: an empty list may start anywhere). The outputs before it are written;
 * on error they are unspecified (the CUDA side may have written any entry). starts and stops
 * have nlists entries, carry and gate n, mask nlists (each read only in its mode). */
#include "jgk_list_range.h"

#define LIST_RANGE(I, C, S)                                                                       \
  jg_status jgk_list_range_c_##S(int64_t n, int64_t nlists, int64_t m, int64_t regular_size,   \
                                 const I *starts, const I *stops, int64_t use_carry,           \
                                 const C *carry, int64_t mask_mode, const int8_t *mask,        \
                                 int64_t use_gate, const bool *gate, int64_t *out_start,       \
                                 int64_t *out_count, bool *out_valid, jg_error *err) {         \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t p = use_carry ? (int64_t)carry[i] : i;                                           \
      bool valid = !(use_carry && p < 0);                                                      \
      if (valid && p >= nlists) return jgk_list_range_error(err, JGK_LIST_RANGE_BAD_CARRY, i); \
      if (valid && mask_mode != 0) valid = (mask[p] != 0) == (mask_mode == 1);                 \
      if (valid && use_gate) valid = gate[i];                                                  \
      int64_t s = 0, e = 0;                                                                    \
      if (valid) {                                                                             \
        if (regular_size >= 0) {                                                               \
          s = p * regular_size;                                                                \
          e = s + regular_size;                                                                \
        } else {                                                                               \
          s = (int64_t)starts[p];                                                              \
          e = (int64_t)stops[p];                                                               \
        }                                                                                      \
        if (e < s || (s < e && (s < 0 || e > m)))                                              \
          return jgk_list_range_error(err, JGK_LIST_RANGE_BAD_LIST, i);                        \
      }                                                                                        \
      out_start[i] = s;                                                                        \
      out_count[i] = e - s;                                                                    \
      out_valid[i] = valid;                                                                    \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_RANGE_VARIANTS(LIST_RANGE)
