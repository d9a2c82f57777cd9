/* option_carry_cpu.c: host reference of kernel "option_carry" (option_carry.json), the option
 * step of broadcasting (src/ops/broadcast.c).
 *
 * Position i of the broadcast output refers to entry c = carry(i) of an option node of `length`
 * entries: c = base + i when identity != 0 (carry not read), else carry[i]; c < 0 means the
 * position is already None. The node is byte-masked (kind 0: entry c valid when (mask[c] != 0)
 * == valid_when), bit-masked (kind 1: bit bit_offset + c of the uint8 mask, counted from the LSB
 * of each byte when lsb_order != 0, else from the MSB, compared with valid_when), indexed (kind 2:
 * valid when mask[c] >= 0, the index into the content of m entries) or no option at all (kind 3:
 * every c >= 0 is valid; mask not read).
 *   op 0: valid[i] = valid[i] && c >= 0 && entry c is valid (out not written);
 *   op 1: out[i] = valid[i] && c >= 0 ? (kind 2 ? mask[c] : c) : -1 (valid not written).
 * An entry is read only at valid[i] positions with c >= 0; such a c
 * must be below `length` (else OUT_OF_RANGE) and an index read in op 1 below m (else BAD_INDEX),
 * both JG_EVALUE at the first such i. Nothing happens for n <= 0. */
#include "jgk_option_carry.h"

#define OPTION_CARRY(M, S)                                                                    \
  jg_status jgk_option_carry_c_##S(int64_t n, int64_t op, int64_t kind, int64_t valid_when,  \
                                   int64_t bit_offset, int64_t lsb_order, int64_t identity,  \
                                   int64_t base, const int64_t *carry, int64_t length,       \
                                   const M *mask, int64_t m, bool *valid, int64_t *out,      \
                                   jg_error *err) {                                          \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t c = identity != 0 ? base + i : carry[i];                                  \
      if (op == 0) {                                                                          \
        if (!valid[i]) continue;                                                              \
        bool ok = c >= 0;                                                                     \
        if (ok && c >= length) return jgk_option_carry_error(err, JGK_OPTION_CARRY_OUT_OF_RANGE, i); \
        if (ok && kind == 0) {                                                                \
          ok = (mask[c] != 0) == (valid_when != 0);                                           \
        } else if (ok && kind == 1) {                                                         \
          const int64_t bit = bit_offset + c;                                                 \
          const unsigned byte = (unsigned)(uint8_t)mask[bit >> 3];                            \
          const unsigned b = lsb_order != 0 ? (byte >> (bit & 7)) & 1u                        \
                                            : (byte >> (7 - (bit & 7))) & 1u;                 \
          ok = (b != 0) == (valid_when != 0);                                                 \
        } else if (ok && kind == 2) {                                                         \
          ok = (int64_t)mask[c] >= 0;                                                         \
        }                                                                                     \
        valid[i] = ok;                                                                        \
      } else {                                                                                \
        if (!valid[i] || c < 0) {                                                             \
          out[i] = -1;                                                                        \
          continue;                                                                           \
        }                                                                                     \
        if (c >= length) return jgk_option_carry_error(err, JGK_OPTION_CARRY_OUT_OF_RANGE, i); \
        if (kind == 2) {                                                                      \
          const int64_t j = (int64_t)mask[c];                                                 \
          if (j >= m) return jgk_option_carry_error(err, JGK_OPTION_CARRY_BAD_INDEX, i);      \
          out[i] = j;                                                                         \
        } else {                                                                              \
          out[i] = c;                                                                         \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_OPTION_CARRY_VARIANTS(OPTION_CARRY)
