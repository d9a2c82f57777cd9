/* jgk_parity.c: helpers shared by the kernels' parity cases (jgk_parity.h). */
#include "jgk_parity.h"

void jgk_parity_put_index(void *a, jg_dtype dt, int64_t i, int64_t v) {
  if (dt == JG_DTYPE_INT32)
    ((int32_t *)a)[i] = (int32_t)v;
  else
    ((int64_t *)a)[i] = v;
}

int64_t jgk_parity_get_index(const void *a, jg_dtype dt, int64_t i) {
  return dt == JG_DTYPE_INT32 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

void jgk_parity_random_offsets(jg_parity_ctx *ctx, void *offsets, jg_dtype dt, int64_t n,
                               int64_t start, double p_empty, int64_t lo, int64_t hi) {
  int64_t at = start;
  jgk_parity_put_index(offsets, dt, 0, at);
  for (int64_t i = 0; i < n; ++i) {
    int64_t c = 0;
    if (jg_parity_uniform(ctx) >= p_empty)
      c = lo + (int64_t)(jg_parity_random(ctx) % (uint64_t)(hi - lo + 1));
    at += c;
    jgk_parity_put_index(offsets, dt, i + 1, at);
  }
}
