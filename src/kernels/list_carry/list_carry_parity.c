/* list_carry_parity.c: parity cases of kernel "list_carry" (list_carry.json), both index types.
 *
 * Source lists from jgk_parity.h's layouts (no lists, all empty, a last list empty, offsets not
 * at 0, permuted and overlapping lists, 32 / 1024 / 4096 / 2^20 + 1 lists, one list of 2^22 + 3
 * elements) picked by each mode (identity, through a random index with None entries, broadcast
 * of list 0, singletons), with padding (target, clip) and accumulation into counts that hold
 * random values; and the data errors: a bad list (layout 10, 14), an index past the last list
 * late in 2^20 + 1 entries with another later, a singleton index past the content. Outputs have 3
 * entries more than n. */
#include "jgk_list_carry.h"
#include "jgk_parity.h"

#define N_CASES 12

jg_status jgk_list_carry_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                void *user, jg_error *err) {
  (void)user;
  static const int layouts[N_CASES] = {0, 3, 4, 5, 6, 7, 8, 9, 12, 13, 10, 14};
  static const int64_t modes[N_CASES] = {0, 1, 0, 1, 3, 2, 0, 1, 1, 0, 0, 1};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_carry parity: no case %d", case_index);
  }
  const jg_dtype dt = jg_parity_dtype(ctx, 4);
  jgk_parity_lists l;
  JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, layouts[case_index], dt, &l, err));
  jg_parity_case_name(ctx, l.name);
  const int64_t mode = modes[case_index];
  const int64_t n = mode == 3 ? (l.m > 0 ? l.m + 5 : 7) : l.n + (mode == 1 ? 3 : 0);
  int64_t *index = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  int64_t *os = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  int64_t *oe = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  int64_t *counts = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (index == NULL || os == NULL || oe == NULL || counts == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_carry parity: out of memory");
  }
  const int64_t range = mode == 3 ? (l.m > 0 ? l.m : 1) : (l.n > 0 ? l.n : 1);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    index[i] = r % 5 == 0 ? -1 : (int64_t)((r >> 8) % (uint64_t)range);
    counts[i] = (int64_t)(jg_parity_random(ctx) % 100);
  }
  if (case_index == 8 && n > 900000) { /* an index past the last list, another later */
    index[700000] = l.n;
    index[900000] = l.n + 5;
  }
  if (case_index == 4 && n > 2) index[n - 1] = l.m; /* a singleton past the content */
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(l.n);
  args[2] = jg_arg_i64(l.m);
  args[3] = jg_arg_i64(mode);
  args[4] = jg_arg_array(l.starts, l.n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[5] = jg_arg_array(l.stops, l.n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[6] = jg_arg_array(index, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[7] = jg_arg_i64(case_index % 3 == 1 ? 3 : 0);
  args[8] = jg_arg_i64(case_index % 4 == 1 ? 1 : 0);
  args[9] = jg_arg_i64(case_index % 2);
  args[10] = jg_arg_i64(case_index == 3 ? 17 : 0);
  args[11] = jg_arg_array(os, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[12] = jg_arg_array(oe, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[13] = jg_arg_array(counts, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
