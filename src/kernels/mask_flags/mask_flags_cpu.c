/* mask_flags_cpu.c: host reference of kernel "mask_flags" (mask_flags.json).
 *
 * For entry i < n: q = i when identity, else mpos[i]; a = i when identity, else apos[i]. The
 * mask value at q is None when valid_mode is 1 and valid[q] == 0, or valid_mode is 2 and
 * valid[q] != 0 (a byte mask over the mask's values; 0: no option). out_keep[i] = 1 for a None
 * or true value, else 0; out_index[i] = a for a valid value, -1 for None (so a kept None entry
 * becomes None in the result, Awkward's rule for options in masks). mpos, apos have n entries
 * and valid m (each read only in its mode). The first entry with q outside [0, m) is
 * BAD_POSITION (JG_EINDEX); on error the outputs are unspecified. */
#include "jgk_mask_flags.h"

jg_status jgk_mask_flags_c(int64_t n, int64_t m, const bool *mask, int64_t identity,
                           const int64_t *mpos, const int64_t *apos, int64_t valid_mode,
                           const int8_t *valid, int64_t *out_keep, int64_t *out_index,
                           jg_error *err) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t q = identity ? i : mpos[i];
    if (q < 0 || q >= m) return jgk_mask_flags_error(err, JGK_MASK_FLAGS_BAD_POSITION, i);
    const bool ok = valid_mode == 0 || (valid[q] != 0) == (valid_mode == 1);
    out_keep[i] = (!ok || ((const unsigned char *)mask)[q] != 0) ? 1 : 0;
    out_index[i] = ok ? (identity ? i : apos[i]) : -1;
  }
  return JG_OK;
}
