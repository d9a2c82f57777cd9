/* option_index_cpu.c: host reference of kernel "option_index" (option_index.json).
 *
 * One pass over the n entries of an option node: entry i is valid per the node's kind (byte mask
 * compared with valid_when, bit bit_offset + i of a bit mask in LSB or MSB order, a non-negative
 * index, or always for kind 4), out[i] gets its position in the option's content plus `shift`
 * (i for masks and kind 4, index[i] for kind 3) or -1, and flags[i] whether it is valid (negate)
 * or None. The caller sizes `mask`: n entries (kinds 0 and 3), ceil((bit_offset + n) / 8) bytes
 * (kinds 1 and 2), anything for kind 4; an unknown kind reads nothing and writes -1 / None.
 * An index at or past the content's m entries stops the loop: BAD_INDEX (JG_EINDEX) at the
 * first such entry, out[i] = -1 there, entries after it unwritten. */
#include "jgk_option_index.h"

#define OPTION_INDEX(M, S)                                                                    \
  jg_status jgk_option_index_c_##S(int64_t n, int64_t kind, int64_t valid_when,              \
                                   int64_t bit_offset, int64_t shift, int64_t negate,         \
                                   int64_t m, const M *mask, int64_t *out, bool *flags,       \
                                   jg_error *err) {                                           \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      bool valid = false;                                                                     \
      int64_t pos = i;                                                                        \
      if (kind == 0) {                                                                        \
        valid = ((int64_t)(mask[i] != 0)) == (valid_when != 0);                               \
      } else if (kind == 1 || kind == 2) {                                                    \
        const int64_t b = bit_offset + i;                                                     \
        const unsigned byte = (unsigned)(uint8_t)mask[b >> 3];                                \
        const int sh = kind == 1 ? (int)(b & 7) : 7 - (int)(b & 7);                           \
        valid = ((int64_t)((byte >> sh) & 1u)) == (valid_when != 0);                          \
      } else if (kind == 3) {                                                                 \
        pos = (int64_t)mask[i];                                                               \
        valid = pos >= 0;                                                                     \
        if (pos >= m) {                                                                       \
          out[i] = -1;                                                                        \
          flags[i] = negate == 0;                                                             \
          return jgk_option_index_error(err, JGK_OPTION_INDEX_BAD_INDEX, i);                  \
        }                                                                                     \
      } else if (kind == 4) {                                                                 \
        valid = true;                                                                         \
      }                                                                                       \
      out[i] = valid ? pos + shift : -1;                                                      \
      flags[i] = negate != 0 ? valid : !valid;                                                \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_OPTION_INDEX_VARIANTS(OPTION_INDEX)
