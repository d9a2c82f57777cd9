/* list_slice_cpu.c: host reference of kernel "list_slice" (list_slice.json).
 *
 * For list i of count c = count[i] starting at first[i], the slice [start:stop:step] as
 * CPython's slice.indices(c) computes it: with step > 0 the bounds default to 0 and c and are
 * clamped to [0, c]; with step < 0 they default to c - 1 and "before 0" (-1) and are clamped to
 * [-1, c - 1]; a negative bound counts from the end first (bound + c). The number selected is
 * ceil((stop - start) / step) when positive, else 0; out_start[i] = first[i] + start (the first
 * selected position; first[i] when nothing is selected). All arithmetic is exact for any int64
 * bounds and steps (INT64_MIN included). Errors, at the first bad list: ZERO_STEP (JG_EINVAL)
 * when step is 0 (list 0), BAD_COUNT (JG_EVALUE) for a negative count. */
#include "jgk_list_slice.h"

/* The slice of one list of count c: *s = first selected index, return the number selected. */
static int64_t slice_one(int64_t c, int64_t start, int64_t stop, int64_t step, int64_t has_start,
                         int64_t has_stop, int64_t *s) {
  const int64_t lower = step < 0 ? -1 : 0, upper = step < 0 ? c - 1 : c;
  int64_t a, b;
  if (has_start) {
    a = start < 0 ? start + c : start; /* start < 0 and c >= 0: no overflow */
    a = a < lower ? lower : a > upper ? upper : a;
  } else {
    a = step < 0 ? upper : lower;
  }
  if (has_stop) {
    b = stop < 0 ? stop + c : stop;
    b = b < lower ? lower : b > upper ? upper : b;
  } else {
    b = step < 0 ? lower : upper;
  }
  *s = a;
  if (step > 0) return a < b ? (int64_t)(((uint64_t)(b - a) - 1) / (uint64_t)step + 1) : 0;
  return b < a ? (int64_t)(((uint64_t)(a - b) - 1) / ((uint64_t)0 - (uint64_t)step) + 1) : 0;
}

jg_status jgk_list_slice_c(int64_t n, const int64_t *first, const int64_t *count, int64_t start,
                           int64_t stop, int64_t step, int64_t has_start, int64_t has_stop,
                           int64_t *out_start, int64_t *out_count, jg_error *err) {
  if (n > 0 && step == 0) return jgk_list_slice_error(err, JGK_LIST_SLICE_ZERO_STEP, 0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = count[i];
    if (c < 0) return jgk_list_slice_error(err, JGK_LIST_SLICE_BAD_COUNT, i);
    int64_t s = 0;
    const int64_t k = slice_one(c, start, stop, step, has_start, has_stop, &s);
    out_start[i] = k > 0 ? (int64_t)((uint64_t)first[i] + (uint64_t)s) : first[i];
    out_count[i] = k;
  }
  return JG_OK;
}
