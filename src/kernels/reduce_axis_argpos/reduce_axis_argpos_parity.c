/* reduce_axis_argpos_parity.c: parity cases of kernel "reduce_axis_argpos": no slots, all
 * slots empty (pick -1), 32, 1024, 4096 and 2^20 + 1 random slots with positions in range, -1
 * and out of range; out has 3 elements more than n. */
#include "jgk_reduce_axis_argpos.h"

#define N_CASES 6

jg_status jgk_reduce_axis_argpos_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                        void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 100, 32, 1024, 4096, (1 << 20) + 1};
  static const char *const names[N_CASES] = {"no slots", "all slots empty", "32 slots",
                                             "1024 slots", "4096 slots", "2^20 + 1 slots"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "reduce_axis_argpos parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const int64_t n = ns[case_index];
  int64_t *slot_offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *pick = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  if (slot_offsets == NULL || pick == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  for (int64_t s = 0; s < n; ++s) {
    const int64_t k = case_index == 1 ? 0 : (int64_t)(jg_parity_random(ctx) % 6);
    slot_offsets[s + 1] = slot_offsets[s] + k;
    const uint64_t u = jg_parity_random(ctx) % 10;
    pick[s] = k == 0 || u == 0 ? -1 : (u == 1 ? k + 1 : (int64_t)(jg_parity_random(ctx) % (uint64_t)k));
  }
  const int64_t total = slot_offsets[n];
  int64_t *axis_pos = jg_parity_alloc(ctx, total, JG_DTYPE_INT64);
  int64_t *out = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (axis_pos == NULL || out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  for (int64_t r = 0; r < total; ++r) axis_pos[r] = (int64_t)(jg_parity_random(ctx) % 50);
  const jg_device host = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(slot_offsets, n + 1, JG_DTYPE_INT64, host);
  args[2] = jg_arg_i64(total);
  args[3] = jg_arg_array(axis_pos, total, JG_DTYPE_INT64, host);
  args[4] = jg_arg_array(pick, n, JG_DTYPE_INT64, host);
  args[5] = jg_arg_array(out, n + 3, JG_DTYPE_INT64, host);
  return JG_OK;
}
