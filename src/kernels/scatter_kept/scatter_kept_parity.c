/* scatter_kept_parity.c: parity cases of kernel "scatter_kept" (scatter_kept.json): prefix sums
 * of random 0/1 flags over no entries, one, 32, 1024, 4096 and 2^20 + 1 entries, all dropped, all
 * kept, a prefix not starting at 0 (kept entries land from there); and the data errors: a step
 * of 2 late in 2^20 + 1 entries with another later, a kept entry past m. out has 3 elements more
 * than m. */
#include "jgk_parity.h"
#include "jgk_scatter_kept.h"

#define N_CASES 10

jg_status jgk_scatter_kept_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                  void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0,    1,    32,   1024, 4096, (1 << 20) + 1,
                                         1000, 1000, (1 << 20) + 1, 500};
  static const char *const names[N_CASES] = {
      "no entries",   "one entry",         "32 entries", "1024 entries",
      "4096 entries", "2^20 + 1 entries",  "all dropped", "all kept, prefix from 7",
      "steps of 2 late", "a kept entry past m"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "scatter_kept parity: no case %d",
                        case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  int64_t *prefix = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *index = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  if (!prefix || !index) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  prefix[0] = case_index == 7 ? 7 : 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t x = jg_parity_random(ctx);
    const int64_t f = case_index == 6 ? 0 : case_index == 7 ? 1 : (int64_t)(x & 1);
    prefix[i + 1] = prefix[i] + f;
    index[i] = (int64_t)(x >> 11) - ((int64_t)1 << 50);
  }
  if (case_index == 8) {
    static const int64_t at[2] = {600000, 800000};
    for (int k = 0; k < 2; ++k) {
      const int64_t add = 2 - (prefix[at[k] + 1] - prefix[at[k]]);
      for (int64_t i = at[k] + 1; i <= n; ++i) prefix[i] += add;
    }
  }
  int64_t m = prefix[n];
  if (case_index == 9) m -= 10;
  int64_t *out = jg_parity_alloc(ctx, (m > 0 ? m : 0) + 3, JG_DTYPE_INT64);
  if (!out) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(m);
  args[2] = jg_arg_array(prefix, n + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(index, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_array(out, (m > 0 ? m : 0) + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
