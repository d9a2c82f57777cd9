/* cast_parity.c: parity cases of kernel "cast" (cast.json), every variant: lengths 0, 1, 32,
 * 1024, 4096 and 2^20 + 1 of mixed values (negative values, each integer type's extremes, NaN,
 * infinities and -0.0 for floats: jgk_parity_content). out has 3 elements more than n, so a side
 * that writes past n shows up as a difference in the tail. No data errors. */
#include "jgk_cast.h"
#include "jgk_parity.h"

#define N_CASES 6

jg_status jgk_cast_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                          jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0, 1, 32, 1024, 4096, (1 << 20) + 1};
  static const char *const names[N_CASES] = {"empty", "one", "32", "1024", "4096", "2^20 + 1"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "cast parity: no case %d", case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype t = jg_parity_dtype(ctx, 1), u = jg_parity_dtype(ctx, 2);
  void *x = jgk_parity_content(ctx, t, n, JGK_VALUES_MIXED);
  void *out = jg_parity_alloc(ctx, n + 3, u);
  if (x == NULL || out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "cast parity: out of memory");
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(x, n, t, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(out, n + 3, u, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
