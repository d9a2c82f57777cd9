/* hist1d_parity.c: parity cases of kernel "hist1d" (hist1d.json): no values; values spread over
 * and beyond [lo, hi) with values exactly on lo, hi and bin edges; NaNs (floats); weights; 2^20 + 1
 * values; 10000 bins (too many for shared memory: the global path); one bin; an invalid axis and
 * short weights (both sides must fail alike). counts and sumw2 start from non-zero values, so
 * that adding (not overwriting) is checked too. */
#include <math.h>

#include "jgk_hist1d.h"

#define N_CASES 8

/* A value of dtype dt at i, from double x (x fits dt by construction). */
static void put(void *a, jg_dtype dt, int64_t i, double x) {
  switch (dt) {
    case JG_DTYPE_BOOL: ((bool *)a)[i] = x != 0; break;
    case JG_DTYPE_INT8: ((int8_t *)a)[i] = (int8_t)x; break;
    case JG_DTYPE_INT16: ((int16_t *)a)[i] = (int16_t)x; break;
    case JG_DTYPE_INT32: ((int32_t *)a)[i] = (int32_t)x; break;
    case JG_DTYPE_INT64: ((int64_t *)a)[i] = (int64_t)x; break;
    case JG_DTYPE_UINT8: ((uint8_t *)a)[i] = (uint8_t)x; break;
    case JG_DTYPE_UINT16: ((uint16_t *)a)[i] = (uint16_t)x; break;
    case JG_DTYPE_UINT32: ((uint32_t *)a)[i] = (uint32_t)x; break;
    case JG_DTYPE_UINT64: ((uint64_t *)a)[i] = (uint64_t)x; break;
    case JG_DTYPE_FLOAT32: ((float *)a)[i] = (float)x; break;
    default: ((double *)a)[i] = x; break;
  }
}

jg_status jgk_hist1d_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                            jg_error *err) {
  (void)user;
  static const char *const names[N_CASES] = {"no values", "edges and outside", "NaNs",
                                             "weighted", "2^20 + 1 values", "10000 bins",
                                             "invalid axis", "short weights"};
  static const int64_t sizes[N_CASES] = {0, 4096, 1000, 5000, (1 << 20) + 1, 100000, 10, 100};
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype vt = jg_parity_dtype(ctx, 1), wt = jg_parity_dtype(ctx, 3);
  const bool is_float = vt == JG_DTYPE_FLOAT32 || vt == JG_DTYPE_FLOAT64;
  const bool is_unsigned = vt == JG_DTYPE_BOOL || vt == JG_DTYPE_UINT8 || vt == JG_DTYPE_UINT16 ||
                           vt == JG_DTYPE_UINT32 || vt == JG_DTYPE_UINT64;
  const int64_t n = sizes[case_index];
  int64_t n_bins = case_index == 5 ? 10000 : vt == JG_DTYPE_BOOL ? 2 : 100;
  double lo = vt == JG_DTYPE_BOOL ? 0.0 : is_unsigned ? 10.0 : -50.0;
  double hi = vt == JG_DTYPE_BOOL ? 2.0 : lo + 100.0;
  if (case_index == 6) hi = lo; /* invalid */
  const bool weighted = case_index == 3 || case_index == 7;
  const int64_t nw = case_index == 7 ? n / 2 : weighted ? n : 0;
  void *values = jg_parity_alloc(ctx, n, vt);
  void *weights = jg_parity_alloc(ctx, nw, wt);
  double *counts = jg_parity_alloc(ctx, n_bins + 4, JG_DTYPE_FLOAT64);
  double *sumw2 = jg_parity_alloc(ctx, n_bins + 2, JG_DTYPE_FLOAT64);
  if (values == NULL || weights == NULL || counts == NULL || sumw2 == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "hist1d parity: out of memory");
  }
  for (int64_t s = 0; s < n_bins + 2; ++s) counts[s] = sumw2[s] = (double)(s % 3);
  /* Values: integers (exact in every dtype) from below lo to above hi, so that every bin,
   * both edges and both outer bins get entries; halves and NaNs for floats. */
  const double span = hi - lo + 10.0;
  for (int64_t i = 0; i < n; ++i) {
    double x;
    if (vt == JG_DTYPE_BOOL) {
      x = (double)(jg_parity_random(ctx) & 1);
    } else {
      x = lo - (is_unsigned ? 5.0 : 5.0) + (double)(jg_parity_random(ctx) % (uint64_t)span);
      if (is_float && (jg_parity_random(ctx) & 3) == 0) x += 0.5;
      if (is_float && case_index == 2 && i % 7 == 3) x = NAN;
    }
    if (case_index == 1 && i < 4) x = i == 0 ? lo : i == 1 ? hi : lo + 1.0 * (double)i;
    put(values, vt, i, x);
  }
  for (int64_t i = 0; i < nw; ++i) put(weights, wt, i, 0.25 + 2.0 * jg_parity_uniform(ctx));
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(values, n, vt, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_i64(nw);
  args[3] = jg_arg_array(weights, nw, wt, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_i64(n_bins);
  args[5] = jg_arg_f64(lo);
  args[6] = jg_arg_f64(hi);
  args[7] = jg_arg_i64(1);
  args[8] = jg_arg_array(counts, n_bins + 4, JG_DTYPE_FLOAT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[9] = jg_arg_array(sumw2, n_bins + 2, JG_DTYPE_FLOAT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
