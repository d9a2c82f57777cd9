/* mask_flags_parity.c: parity cases of kernel "mask_flags" (mask_flags.json): no entries (with
 * and without mask values), one entry, 32 / 1024 / 4096 / 2^20 + 1 random entries, all false,
 * all true; identity positions on even cases, random ones (positions into m values, mask and a
 * positions unrelated) on odd ones; the option modes 0, 1, 2 in turn; and the data errors:
 * positions past the values late in 2^20 + 1 entries (the first must win) and a negative
 * position. Outputs have 3 elements more than n. */
#include "jgk_mask_flags.h"
#include "jgk_parity.h"

#define N_CASES 12

jg_status jgk_mask_flags_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0,    0,    1,   32, 1024, 4096, (1 << 20) + 1,
                                         1000, 1001, 333, (1 << 20) + 1, 64};
  static const int64_t values[N_CASES] = {0,    5,    1,   100, 1024, 5000, (1 << 20) + 1,
                                          1000, 1000, 333, 1000, 64};
  static const char *const names[N_CASES] = {
      "no entries",       "no entries, 5 values", "one entry",       "32 entries",
      "1024 entries",     "4096 entries",         "2^20 + 1 entries", "all false",
      "all true",         "333 entries",          "positions past the values late",
      "a negative position"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "mask_flags parity: no case %d", case_index);
  }
  const int64_t n = sizes[case_index], m = values[case_index];
  const bool identity = case_index % 2 == 0 && n <= m && case_index != 10;
  jg_parity_case_name(ctx, names[case_index]);
  bool *mask = jg_parity_alloc(ctx, m, JG_DTYPE_BOOL);
  int8_t *valid = jg_parity_alloc(ctx, m, JG_DTYPE_INT8);
  int64_t *mpos = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  int64_t *apos = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  int64_t *keep = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  int64_t *index = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (!mask || !valid || !mpos || !apos || !keep || !index) {
    return jg_error_set(err, JG_ENOMEM, -1, "mask_flags parity: out of memory");
  }
  for (int64_t q = 0; q < m; ++q) {
    const uint64_t x = jg_parity_random(ctx);
    mask[q] = case_index == 7 ? false : case_index == 8 ? true : (x & 1) != 0;
    valid[q] = (int8_t)(((x >> 8) & 7) == 0 ? 0 : 3);
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t x = jg_parity_random(ctx);
    mpos[i] = m > 0 ? (int64_t)(x % (uint64_t)m) : 0;
    apos[i] = (int64_t)((x >> 20) % 1000000007u);
  }
  if (case_index == 10) {
    mpos[600000] = m;
    mpos[800000] = INT64_MAX;
  }
  if (case_index == 11) mpos[40] = -1;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(m);
  args[2] = jg_arg_array(mask, m, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_i64(identity);
  args[4] = jg_arg_array(mpos, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[5] = jg_arg_array(apos, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[6] = jg_arg_i64(case_index % 3);
  args[7] = jg_arg_array(valid, m, JG_DTYPE_INT8, (jg_device)JG_DEVICE_HOST_INIT);
  args[8] = jg_arg_array(keep, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[9] = jg_arg_array(index, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
