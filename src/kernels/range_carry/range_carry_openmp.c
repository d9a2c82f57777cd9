/* range_carry_openmp.c: OpenMP host implementation of kernel "range_carry" (range_carry.json):
 * the ranges checked in parallel (the smallest bad range is the one the reference stops at, its
 * predicate depending on range i alone), then written in parallel when all are good. On error
 * out is unspecified. */
#include "jgk_range_carry.h"

jg_status jgk_range_carry_openmp(int64_t n, int64_t m, const int64_t *offsets,
                                 const int64_t *starts, int64_t step, int64_t *out,
                                 jg_error *err) {
  if (n <= 0) return JG_OK;
  const int64_t base = offsets[0];
  int64_t bad = INT64_MAX;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = offsets[i], b = offsets[i + 1];
    if (!(base <= a && a <= b && m >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)m) &&
        i < bad) {
      bad = i;
    }
  }
  if (bad != INT64_MAX) return jgk_range_carry_error(err, JGK_RANGE_CARRY_BAD_OFFSETS, bad);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t i = 0; i < n; ++i) {
    int64_t *o = out + ((uint64_t)offsets[i] - (uint64_t)base);
    const int64_t len = offsets[i + 1] - offsets[i];
    uint64_t v = (uint64_t)starts[i];
    for (int64_t j = 0; j < len; ++j, v += (uint64_t)step) o[j] = (int64_t)v;
  }
  return JG_OK;
}
