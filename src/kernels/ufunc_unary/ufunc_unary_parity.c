/* ufunc_unary_parity.c: parity cases of kernel "ufunc_unary" (ufunc_unary.json), every variant:
 * one case per function number 40..60 (negative .. invert), lengths cycling through 0, 1, 32,
 * 1024, 4096 and 2^20 + 1, over mixed values (negative values, integer extremes, NaN, +-inf,
 * -0.0: jgk_parity_content); a function not defined for the variant is the BAD_OP error on both
 * sides (e.g. sqrt of integers, negative of bool, anything but the tests with an R of bool); and
 * an unknown function number. The transcendental functions compare within the spec's
 * parity_rtol (CUDA's math library and the host's libm differ by a few ulp). out has 3 extra
 * elements. */
#include "jgk_parity.h"
#include "jgk_ufunc_unary.h"

#define N_CASES 22

jg_status jgk_ufunc_unary_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                 void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[6] = {0, 1, 32, 1024, 4096, (1 << 20) + 1};
  static const char *const names[N_CASES] = {
      "negative", "abs",   "sqrt",  "exp",   "log",       "sin",      "cos",   "tan",
      "arcsin",   "arccos", "arctan", "sinh", "cosh",      "tanh",     "floor", "ceil",
      "isnan",    "isfinite", "isinf", "logical_not", "invert", "unknown function 99"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "ufunc_unary parity: no case %d", case_index);
  }
  const int64_t op = case_index < 21 ? 40 + case_index : 99;
  const int64_t n = sizes[case_index % 6];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype t = jg_parity_dtype(ctx, 2), r = jg_parity_dtype(ctx, 3);
  void *x = jgk_parity_content(ctx, t, n, JGK_VALUES_MIXED);
  void *out = jg_parity_alloc(ctx, n + 3, r);
  if (x == NULL || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "ufunc_unary parity: out of memory");
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(op);
  args[2] = jg_arg_array(x, n, t, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(out, n + 3, r, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
