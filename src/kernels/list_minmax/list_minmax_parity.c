/* list_minmax_parity.c: parity cases of kernel "list_minmax", every variant.
 *
 * Case k runs list layout k of jgk_parity_lists_make (no lists, empty lists starting anywhere,
 * offsets not at 0, permuted and overlapping lists, 32 to 2^20 + 1 lists of Poisson-like lengths,
 * one list of 2^22 + 3 elements, and the BAD_RANGE error late in a long array with another later,
 * several in a few warps' lists, a negative m). The op (min or max) alternates with the case and
 * the variant (jgk_parity_alternate); values are mixed: small ones with many ties, the type's
 * extremes (the identities themselves), NaN, infinities and -0.0 for floats. Every out array has
 * 3 elements more than n, so a side that writes past n shows up in the tail. */
#include "jgk_list_minmax.h"
#include "jgk_parity.h"

jg_status jgk_list_minmax_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                 void *user, jg_error *err) {
  (void)user;
  const int64_t op = jgk_parity_alternate(ctx, case_index);
  int64_t n = 0;
  JG_RETURN_NOT_OK(jgk_parity_reduce_args(ctx, case_index, JGK_VALUES_MIXED,
                                          op == 0 ? ", min" : ", max", args, &n, err));
  const jg_dtype t = jg_parity_dtype(ctx, 4);
  void *out = jg_parity_alloc(ctx, n + 3, t);
  void *valid = jg_parity_alloc(ctx, n + 3, JG_DTYPE_BOOL);
  if (out == NULL || valid == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_minmax parity: out of memory");
  }
  args[5] = jg_arg_i64(op);
  args[6] = jg_arg_array(out, n + 3, t, (jg_device)JG_DEVICE_HOST_INIT);
  args[7] = jg_arg_array(valid, n + 3, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
