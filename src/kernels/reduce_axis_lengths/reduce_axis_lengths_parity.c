/* reduce_axis_lengths_parity.c: parity cases of kernel "reduce_axis_lengths", both index types.
 *
 * Lists from jgk_parity_lists_make layouts (no lists, empty lists starting anywhere, a last list
 * empty, offsets not at 0, permuted and overlapping lists, 32, 1024 and 2^20 + 1 lists, the
 * BAD_RANGE layout with several bad lists, one list of 2^22 + 3 elements), merged by random
 * slots of 0..5 contributors drawn from the lists (a list may be merged twice); out has 3
 * elements more than n. */
#include "jgk_parity.h"
#include "jgk_reduce_axis_lengths.h"

#define N_CASES 9

jg_status jgk_reduce_axis_lengths_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                         void *user, jg_error *err) {
  (void)user;
  static const int layouts[N_CASES] = {0, 3, 4, 5, 6, 7, 8, 10, 12};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "reduce_axis_lengths parity: no case %d",
                        case_index);
  }
  const jg_dtype dt = jg_parity_dtype(ctx, 5);
  jgk_parity_lists l;
  JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, layouts[case_index], dt, &l, err));
  jg_parity_case_name(ctx, l.name);
  const int64_t n = case_index == 0 ? 0 : l.n / 2 + 1;
  int64_t *slot_offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  if (slot_offsets == NULL) return jg_error_set(err, JG_ENOMEM, -1, "reduce_axis_lengths parity: out of memory");
  for (int64_t s = 0; s < n; ++s) slot_offsets[s + 1] = slot_offsets[s] + (l.n > 0 ? (int64_t)(jg_parity_random(ctx) % 6) : 0);
  const int64_t total = slot_offsets[n];
  int64_t *contrib = jg_parity_alloc(ctx, total, JG_DTYPE_INT64);
  int64_t *out = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (contrib == NULL || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "reduce_axis_lengths parity: out of memory");
  }
  for (int64_t r = 0; r < total; ++r) contrib[r] = (int64_t)(jg_parity_random(ctx) % (uint64_t)l.n);
  const jg_device host = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(slot_offsets, n + 1, JG_DTYPE_INT64, host);
  args[2] = jg_arg_i64(total);
  args[3] = jg_arg_array(contrib, total, JG_DTYPE_INT64, host);
  args[4] = jg_arg_i64(l.n);
  args[5] = jg_arg_array(l.starts, l.n, dt, host);
  args[6] = jg_arg_array(l.stops, l.n, dt, host);
  args[7] = jg_arg_i64(l.m);
  args[8] = jg_arg_array(out, n + 3, JG_DTYPE_INT64, host);
  return JG_OK;
}
