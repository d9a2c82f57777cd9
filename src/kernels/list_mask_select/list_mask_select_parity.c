/* list_mask_select_parity.c: parity cases of kernel "list_mask_select" (list_mask_select.json),
 * shared with list_mask_offsets (list_mask_select_cases.h): no lists, empty lists, offsets not
 * at 0, content on both sides of the lists, lists not back to back, unequal counts, a list past
 * its content, unequal totals, all-false and all-true masks, 2^20 + 1 Poisson(3) lists, one very
 * long list, lengths a multiple of 4096 and of 64 only, a capacity below the total and starts
 * that leave the contents unaligned for 16-byte loads. */
#include "jgk_list_mask_select.h"
#include "list_mask_select/list_mask_select_cases.h"

jg_status jgk_list_mask_select_parity(jg_parity_ctx *ctx, int c, jg_kernel_arg *args, void *user,
                                      jg_error *err) {
  (void)user;
  lms_case k;
  memset(&k, 0, sizeof k);
  JG_RETURN_NOT_OK(lms_build(ctx, c, jg_parity_dtype(ctx, 1), jg_parity_dtype(ctx, 4), &k, err));
  void *out = jg_parity_alloc(ctx, k.capacity, k.tt);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  /* the kernel writes its own rank words: start them from zero */
  for (int64_t w = 0; w < k.words; ++w) {
    k.bits[w] = 0;
    k.pre[w] = 0;
  }
  const jg_device h = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(k.n);
  args[1] = jg_arg_array(k.xs, k.n, k.ti, h);
  args[2] = jg_arg_array(k.xe, k.n, k.ti, h);
  args[3] = jg_arg_i64(k.x_length);
  args[4] = jg_arg_array(k.x, k.x_length, k.tt, h);
  args[5] = jg_arg_array(k.ms, k.n, k.ti, h);
  args[6] = jg_arg_array(k.me, k.n, k.ti, h);
  args[7] = jg_arg_i64(k.mask_length);
  args[8] = jg_arg_array(k.mask, k.mask_length, JG_DTYPE_BOOL, h);
  args[9] = jg_arg_i64(k.tiles);
  args[10] = jg_arg_i64(k.capacity);
  args[11] = jg_arg_array(out, k.capacity, k.tt, h);
  args[12] = jg_arg_i64(k.words);
  args[13] = jg_arg_array(k.bits, k.words, JG_DTYPE_UINT64, h);
  args[14] = jg_arg_array(k.pre, k.words, JG_DTYPE_INT64, h);
  args[15] = jg_arg_array(k.state, k.tiles + 4, JG_DTYPE_INT64, h);
  return JG_OK;
}
