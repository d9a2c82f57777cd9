/* combinations_fill_cpu.c: host reference of kernel "combinations_fill" (combinations_fill.json).
 *
 * List by list: the k local positions start at (0, 1, ..., k-1) ((0, ..., 0) with replacement)
 * and step to the next combination in lexicographic order (the rightmost position that can grow
 * grows by one, the ones after it restart just above it, or at it with replacement), writing
 * offsets[i+1] - offsets[i] combinations from out[offsets[i]] on in each of the k planes of
 * `total` entries. The offsets are trusted (combinations_counts scanned by the operation): a
 * list whose offsets leave [0, total] or ask for more combinations than it has writes only what
 * fits. k outside [1, 4] writes nothing. */
#include "jgk_combinations_fill.h"

/* Fills list [a, b) (len = b - a) into out[base .. base + cnt) of each plane. */
static void fill_list(int64_t a, int64_t len, int64_t base, int64_t cnt, int64_t k,
                      int64_t replacement, int64_t local, int64_t total, int64_t *out) {
  int64_t idx[4];
  for (int64_t q = 0; q < k; ++q) idx[q] = replacement != 0 ? 0 : q;
  const int64_t shift = local != 0 ? 0 : a;
  for (int64_t t = 0; t < cnt; ++t) {
    for (int64_t q = 0; q < k; ++q) out[q * total + base + t] = shift + idx[q];
    int64_t q = k - 1;
    if (replacement != 0) {
      while (q >= 0 && idx[q] == len - 1) q--;
      if (q < 0) return;
      idx[q]++;
      for (int64_t r = q + 1; r < k; ++r) idx[r] = idx[q];
    } else {
      while (q >= 0 && idx[q] == len - k + q) q--;
      if (q < 0) return;
      idx[q]++;
      for (int64_t r = q + 1; r < k; ++r) idx[r] = idx[r - 1] + 1;
    }
  }
}

#define COMBINATIONS_FILL(I, S)                                                               \
  jg_status jgk_combinations_fill_c_##S(int64_t n, const I *starts, const I *stops,           \
                                        const int64_t *offsets, int64_t k, int64_t replacement, \
                                        int64_t local, int64_t total, int64_t *out,           \
                                        jg_error *err) {                                      \
    (void)err;                                                                                \
    if (k < 1 || k > 4) return JG_OK;                                                         \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t base = offsets[i], end = offsets[i + 1];                                  \
      if (base < 0 || end <= base || end > total) continue;                                   \
      const int64_t a = (int64_t)starts[i], len = (int64_t)stops[i] - a;                      \
      if (len < (replacement != 0 ? 1 : k)) continue;                                         \
      fill_list(a, len, base, end - base, k, replacement, local, total, out);                 \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_COMBINATIONS_FILL_VARIANTS(COMBINATIONS_FILL)
