/* cartesian_fill_cpu.c: host reference of kernel "cartesian_fill" (cartesian_fill.json).
 *
 * List by list, nested loops over the items of the first, second (and third) array's list i,
 * the first slowest, writing consecutive tuples from out[offsets[i]] on in each of the narrays
 * planes of `total` entries; with `nested`, the start of each group of tuples that share the
 * first item goes to inner_offsets (and total after the last group). The offsets are trusted
 * (cartesian_counts scanned by the operation): a list whose offsets are not its product's size
 * inside [0, total] is skipped. */
#include "jgk_cartesian_fill.h"

#define CARTESIAN_FILL(I0, I1, I2, S)                                                            \
  jg_status jgk_cartesian_fill_c_##S(                                                            \
      int64_t n, int64_t narrays, const I0 *starts0, const I0 *stops0, const I1 *starts1,        \
      const I1 *stops1, const I2 *starts2, const I2 *stops2, const int64_t *offsets,             \
      int64_t total, int64_t local, int64_t *out, int64_t nested, const int64_t *inner_starts,   \
      int64_t *inner_offsets, jg_error *err) {                                                   \
    (void)err;                                                                                   \
    for (int64_t i = 0; i < n; ++i) {                                                            \
      int64_t s0 = (int64_t)starts0[i];                                       \
      const int64_t l0 = (int64_t)stops0[i] - s0;                 \
      int64_t s1 = (int64_t)starts1[i];                                       \
      const int64_t l1 = (int64_t)stops1[i] - s1;                 \
      int64_t s2 = 0, l2 = 1;                                                                    \
      if (narrays > 2) {                                                                         \
        s2 = (int64_t)starts2[i];                                                                \
        l2 = (int64_t)stops2[i] - s2;                                                            \
      }                                                                                          \
      const int64_t base = offsets[i];                                                           \
      if (base < 0 || offsets[i + 1] > total || offsets[i + 1] - base != l0 * l1 * l2) continue; \
      if (local != 0) {                                                           \
        s0 = 0;                                                                  \
        s1 = 0;                                                                  \
        s2 = 0;                                                                  \
      }                                                                                           \
      int64_t t = base;                                                                          \
      for (int64_t a = 0; a < l0; ++a) {                                                         \
        if (nested != 0) inner_offsets[inner_starts[i] + a] = t;                                 \
        for (int64_t b = 0; b < l1; ++b) {                                                       \
          for (int64_t c = 0; c < l2; ++c, ++t) {                                                \
            out[t] = s0 + a;                                                                     \
            out[total + t] = s1 + b;                                                             \
            if (narrays > 2) out[2 * total + t] = s2 + c;                                        \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
    if (nested != 0 && n >= 0) inner_offsets[inner_starts[n > 0 ? n : 0]] = total;              \
    return JG_OK;                                                                                \
  }
JGK_CARTESIAN_FILL_VARIANTS(CARTESIAN_FILL)
