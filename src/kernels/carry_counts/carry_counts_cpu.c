/* carry_counts_cpu.c: host reference of kernel "carry_counts" (carry_counts.json), the list step
 * of broadcasting (src/ops/broadcast.c).
 *
 * Position i of the broadcast output refers to list c = carry(i) of a list node of `length`
 * lists (c = base + i when identity != 0, carry not read; else carry[i]; c < 0 is None, count 0).
 * A regular node (size >= 0) has lists of `size` elements (starts, stops and m not read); a list
 * or list-offset node has list c = content[starts[c] : stops[c]] over m elements, checked with
 * Awkward's rule (jgk_list_bad: stops < starts, or a non-empty list outside [0, m) is BAD_RANGE).
 * counts[i] gets the list's length; with has_expect != 0 it must equal expect[i] (else DIFFERENT,
 * JG_ESHAPE: the caller reads both counts at that position to name them). A c >= length is
 * OUT_OF_RANGE. Errors are reported at the first bad i (JG_EVALUE but DIFFERENT), with counts
 * written before it; on error counts is unspecified on the other sides. */
#include "jgk_carry_counts.h"

#define CARRY_COUNTS(I, S)                                                                     \
  jg_status jgk_carry_counts_c_##S(int64_t n, int64_t identity, int64_t base,                 \
                                   const int64_t *carry, int64_t size, int64_t length,        \
                                   const I *starts, const I *stops, int64_t m,                \
                                   int64_t has_expect, const int64_t *expect, int64_t *counts, \
                                   jg_error *err) {                                           \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t c = identity != 0 ? base + i : carry[i];                                   \
      int64_t k = 0;                                                                           \
      if (c >= length) return jgk_carry_counts_error(err, JGK_CARRY_COUNTS_OUT_OF_RANGE, i);   \
      if (c >= 0) {                                                                            \
        if (size >= 0) {                                                                       \
          k = size;                                                                            \
        } else {                                                                               \
          const int64_t a = (int64_t)starts[c], b = (int64_t)stops[c];                         \
          if (b < a || (a < b && (a < 0 || b > m)))                                            \
            return jgk_carry_counts_error(err, JGK_CARRY_COUNTS_BAD_RANGE, i);                 \
          k = b - a;                                                                           \
        }                                                                                      \
      }                                                                                        \
      if (has_expect != 0 && k != expect[i])                                                   \
        return jgk_carry_counts_error(err, JGK_CARRY_COUNTS_DIFFERENT, i);                     \
      counts[i] = k;                                                                           \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_CARRY_COUNTS_VARIANTS(CARRY_COUNTS)
