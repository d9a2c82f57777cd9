/* list_sum_parity.c: parity cases of kernel "list_sum", every variant.
 *
 * Case k runs list layout k of jgk_parity_lists_make (no lists, empty lists starting anywhere,
 * offsets not at 0, permuted and overlapping lists, 32 to 2^20 + 1 lists of Poisson-like lengths,
 * one list of 2^22 + 3 elements, and the BAD_RANGE error late in a long array with another later,
 * several in a few warps' lists, a negative m). The op alternates with the case and the variant
 * (jgk_parity_alternate), so each layout runs as a sum over mixed values (negatives, type
 * extremes that wrap, NaN, infinities) for one index width and as a product over mostly +-1
 * values (products that stay in range over 2^22 elements) for the other. Every out array has 3
 * elements more than n, so a side that writes past n shows up in the tail. */
#include "jgk_list_sum.h"
#include "jgk_parity.h"

jg_status jgk_list_sum_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                              jg_error *err) {
  (void)user;
  const int64_t op = jgk_parity_alternate(ctx, case_index);
  int64_t n = 0;
  JG_RETURN_NOT_OK(jgk_parity_reduce_args(ctx, case_index,
                                          op == 0 ? JGK_VALUES_MIXED : JGK_VALUES_UNITS,
                                          op == 0 ? ", sum" : ", product", args, &n, err));
  const jg_dtype rt = jg_parity_dtype(ctx, 6);
  void *out = jg_parity_alloc(ctx, n + 3, rt);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "list_sum parity: out of memory");
  args[5] = jg_arg_i64(op);
  args[6] = jg_arg_array(out, n + 3, rt, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
