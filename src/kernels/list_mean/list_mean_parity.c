/* list_mean_parity.c: parity cases of kernel "list_mean", every variant.
 *
 * Case k runs list layout k of jgk_parity_lists_make (no lists, empty lists starting anywhere,
 * offsets not at 0, permuted and overlapping lists, 32 to 2^20 + 1 lists of Poisson-like lengths,
 * one list of 2^22 + 3 elements, and the BAD_RANGE error late in a long array with another later,
 * several in a few warps' lists, a negative m). Values are small (no integer extremes, whose
 * double sums would depend on the order), with NaN, infinities and -0.0 for floats; every sum is
 * then exact, so both sides agree bit for bit. Every out array has 3 elements more than n, so a
 * side that writes past n shows up in the tail. */
#include "jgk_list_mean.h"
#include "jgk_parity.h"

jg_status jgk_list_mean_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                               jg_error *err) {
  (void)user;
  int64_t n = 0;
  JG_RETURN_NOT_OK(jgk_parity_reduce_args(ctx, case_index, JGK_VALUES_SMALL, "", args, &n, err));
  void *out = jg_parity_alloc(ctx, n + 3, JG_DTYPE_FLOAT64);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "list_mean parity: out of memory");
  args[5] = jg_arg_array(out, n + 3, JG_DTYPE_FLOAT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
