/* reduce_axis_start_parity.c: parity cases of kernel "reduce_axis_start", both index types:
 * no slots, all-empty slots, a last slot empty, starts not at 0, 32, 1024 and 2^20 + 1 random
 * slots, one very long slot (2^22 + 3 contributors) between empty ones. contrib and axis_pos have 3 elements
 * more than total, so writes past the end show. */
#include "jgk_parity.h"
#include "jgk_reduce_axis_start.h"

#define N_CASES 8

jg_status jgk_reduce_axis_start_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                       void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 100, 40, 7, 32, 1024, (1 << 20) + 1, 3};
  static const char *const names[N_CASES] = {"no slots", "all slots empty", "last slot empty",
                                             "starts not at 0", "32 slots", "1024 slots",
                                             "2^20 + 1 slots", "one very long slot"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "reduce_axis_start parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 2);
  const int64_t n = ns[case_index];
  int64_t *slot_offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  void *starts = jg_parity_alloc(ctx, n + 1, dt);
  if (slot_offsets == NULL || starts == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "reduce_axis_start parity: out of memory");
  }
  for (int64_t p = 0; p < n; ++p) {
    int64_t len = (int64_t)(jg_parity_random(ctx) % 9);
    if (case_index == 1 || (case_index == 2 && p == n - 1)) len = 0;
    if (case_index == 7) len = p == 1 ? ((int64_t)1 << 22) + 3 : 0;
    slot_offsets[p + 1] = slot_offsets[p] + len;
    jgk_parity_put_index(starts, dt, p, (int64_t)(jg_parity_random(ctx) % 1000));
  }
  const int64_t total = slot_offsets[n];
  int64_t *contrib = jg_parity_alloc(ctx, total + 3, JG_DTYPE_INT64);
  int64_t *axis_pos = jg_parity_alloc(ctx, total + 3, JG_DTYPE_INT64);
  if (contrib == NULL || axis_pos == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "reduce_axis_start parity: out of memory");
  }
  const jg_device host = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(slot_offsets, n + 1, JG_DTYPE_INT64, host);
  args[2] = jg_arg_array(starts, n, dt, host);
  args[3] = jg_arg_i64(total);
  args[4] = jg_arg_array(contrib, total + 3, JG_DTYPE_INT64, host);
  args[5] = jg_arg_array(axis_pos, total + 3, JG_DTYPE_INT64, host);
  return JG_OK;
}
