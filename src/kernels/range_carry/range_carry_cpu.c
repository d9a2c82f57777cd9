/* range_carry_cpu.c: host reference of kernel "range_carry" (range_carry.json).
 *
 * n ranges laid out by offsets[0..n] (offsets[0] need not be 0) over m output positions: for
 * range i and j < offsets[i+1] - offsets[i], out[offsets[i] - offsets[0] + j] = starts[i] + j *
 * step, computed in uint64 (wrapping, never undefined). Range i is bad unless offsets[0] <=
 * offsets[i] <= offsets[i+1] <= offsets[0] + m (m >= 0): the first bad range is BAD_OFFSETS
 * (JG_EVALUE), with the ranges before it written (on error out is unspecified: the CUDA side may
 * have written anything in out[0..m)). Nothing happens for n <= 0. */
#include "jgk_range_carry.h"

jg_status jgk_range_carry_c(int64_t n, int64_t m, const int64_t *offsets, const int64_t *starts,
                            int64_t step, int64_t *out, jg_error *err) {
  if (n <= 0) return JG_OK;
  const int64_t base = offsets[0];
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    if (!(base <= a && a <= b && m >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)m)) {
      return jgk_range_carry_error(err, JGK_RANGE_CARRY_BAD_OFFSETS, i);
    }
    int64_t *o = out + ((uint64_t)a - (uint64_t)base);
    const int64_t len = b - a;
    uint64_t v = (uint64_t)starts[i];
    for (int64_t j = 0; j < len; ++j, v += (uint64_t)step) o[j] = (int64_t)v;
  }
  return JG_OK;
}
