/* list_mask_offsets_parity.c: parity cases of kernel "list_mask_offsets"
 * (list_mask_offsets.json): the cases of list_mask_select (list_mask_select_cases.h), with the
 * rank words of each case's flat stream as input. */
#include "jgk_list_mask_offsets.h"
#include "list_mask_select/list_mask_select_cases.h"

jg_status jgk_list_mask_offsets_parity(jg_parity_ctx *ctx, int c, jg_kernel_arg *args, void *user,
                                       jg_error *err) {
  (void)user;
  lms_case k;
  memset(&k, 0, sizeof k);
  JG_RETURN_NOT_OK(lms_build(ctx, c, jg_parity_dtype(ctx, 1), JG_DTYPE_UINT8, &k, err));
  int64_t *offsets = jg_parity_alloc(ctx, k.n + 1, JG_DTYPE_INT64);
  if (offsets == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  const jg_device h = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(k.n);
  args[1] = jg_arg_array(k.xs, k.n, k.ti, h);
  args[2] = jg_arg_array(k.xe, k.n, k.ti, h);
  args[3] = jg_arg_array(k.ms, k.n, k.ti, h);
  args[4] = jg_arg_array(k.me, k.n, k.ti, h);
  args[5] = jg_arg_i64(k.words);
  args[6] = jg_arg_array(k.bits, k.words, JG_DTYPE_UINT64, h);
  args[7] = jg_arg_array(k.pre, k.words, JG_DTYPE_INT64, h);
  args[8] = jg_arg_i64(k.tiles);
  args[9] = jg_arg_array(offsets, k.n + 1, JG_DTYPE_INT64, h);
  args[10] = jg_arg_array(k.state, k.tiles + 4, JG_DTYPE_INT64, h);
  return JG_OK;
}
