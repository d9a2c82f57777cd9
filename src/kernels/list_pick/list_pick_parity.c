/* list_pick_parity.c: parity cases of kernel "list_pick" (list_pick.json): no lists, one list,
 * all lists empty, a last list empty, 32 / 1024 / 4096 and 2^20 + 1 random lists (counts 0..5,
 * one in four None, first positions anywhere, one list of 2^40 elements), firsts on even cases
 * and lasts on odd ones, fallback 0 or -1. Outputs have 3 elements more than n. */
#include "jgk_list_pick.h"
#include "jgk_parity.h"

#define N_CASES 8

jg_status jgk_list_pick_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                               void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0, 1, 1000, 33, 32, 1024, 4096, (1 << 20) + 1};
  static const char *const names[N_CASES] = {"no lists",   "one list",   "all lists empty",
                                             "last list empty", "32 lists", "1024 lists",
                                             "4096 lists", "2^20 + 1 lists"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_pick parity: no case %d", case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  int64_t *first = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  int64_t *count = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  bool *valid = jg_parity_alloc(ctx, n, JG_DTYPE_BOOL);
  int64_t *pos = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  bool *ok = jg_parity_alloc(ctx, n + 3, JG_DTYPE_BOOL);
  if (!first || !count || !valid || !pos || !ok) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_pick parity: out of memory");
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t x = jg_parity_random(ctx);
    first[i] = (int64_t)(x % 100003u) - 50;
    count[i] = case_index == 2 ? 0 : (int64_t)((x >> 32) % 6u);
    valid[i] = ((x >> 50) & 3) != 0;
  }
  if (case_index == 3) count[n - 1] = 0;
  if (n > 10) count[10] = (int64_t)1 << 40;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(first, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(count, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(valid, n, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_i64(case_index % 2);
  args[5] = jg_arg_i64(case_index % 3 == 0 ? -1 : 0);
  args[6] = jg_arg_array(pos, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[7] = jg_arg_array(ok, n + 3, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
