/* list_count_parity.c: parity cases of kernel "list_count", every variant.
 *
 * Case k runs list layout k of jgk_parity_lists_make (no lists, empty lists starting anywhere,
 * offsets not at 0, permuted and overlapping lists, 32 to 2^20 + 1 lists of Poisson-like lengths,
 * one list of 2^22 + 3 elements, and the BAD_RANGE error late in a long array with another later,
 * several in a few warps' lists, a negative m). list_count reads no content but checks the lists
 * against its m elements, so every bad list of the layouts is an error here, as in the other
 * list kernels. Every out array has 3 elements more than n, so a side that writes past n shows
 * up in the tail. */
#include "jgk_list_count.h"
#include "jgk_parity.h"

jg_status jgk_list_count_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                                jg_error *err) {
  (void)user;
  const jg_dtype dt = jg_parity_dtype(ctx, 1);
  jgk_parity_lists l;
  JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, case_index, dt, &l, err));
  jg_parity_case_name(ctx, l.name);
  void *out = jg_parity_alloc(ctx, l.n + 3, JG_DTYPE_INT64);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "list_count parity: out of memory");
  args[0] = jg_arg_i64(l.n);
  args[1] = jg_arg_array(l.starts, l.n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(l.stops, l.n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_i64(l.m);
  args[4] = jg_arg_array(out, l.n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
