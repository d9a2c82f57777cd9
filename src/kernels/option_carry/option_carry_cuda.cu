/* option_carry_cuda.cu: CUDA implementation of kernel "option_carry" (option_carry.json), the
 * option step of broadcasting. One thread per position, grid-stride, with the host's rules;
 * a bad position goes to jgk_fail, whose atomic minimum keeps the smallest one, the position the
 * host loop stops at (the predicates depend on position i only). Entries are read only at
 * checked positions. */
template <typename M>
__global__ void jgk_option_carry(int64_t n, int64_t op, int64_t kind, int64_t valid_when,
                                 int64_t bit_offset, int64_t lsb_order, int64_t identity,
                                 int64_t base, const int64_t *__restrict__ carry, int64_t length,
                                 const M *__restrict__ mask, int64_t m, bool *__restrict__ valid,
                                 int64_t *__restrict__ out, unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t c = identity != 0 ? base + i : carry[i];
    if (op == 0) {
      if (!valid[i]) continue;
      bool ok = c >= 0;
      if (ok && c >= length) {
        jgk_fail(error_word, i, JGK_OPTION_CARRY_OUT_OF_RANGE);
        continue;
      }
      if (ok && kind == 0) {
        ok = (mask[c] != 0) == (valid_when != 0);
      } else if (ok && kind == 1) {
        const int64_t bit = bit_offset + c;
        const unsigned byte = (unsigned)(uint8_t)mask[bit >> 3];
        const unsigned b =
            lsb_order != 0 ? (byte >> (bit & 7)) & 1u : (byte >> (7 - (bit & 7))) & 1u;
        ok = (b != 0) == (valid_when != 0);
      } else if (ok && kind == 2) {
        ok = (int64_t)mask[c] >= 0;
      }
      valid[i] = ok;
    } else {
      if (!valid[i] || c < 0) {
        out[i] = -1;
        continue;
      }
      if (c >= length) {
        jgk_fail(error_word, i, JGK_OPTION_CARRY_OUT_OF_RANGE);
        continue;
      }
      if (kind == 2) {
        const int64_t j = (int64_t)mask[c];
        if (j >= m) {
          jgk_fail(error_word, i, JGK_OPTION_CARRY_BAD_INDEX);
          continue;
        }
        out[i] = j;
      } else {
        out[i] = c;
      }
    }
  }
}
