/* fill_parity.c: parity cases of kernel "fill" (fill.json): empty, one element, one block, a
 * ragged tail, 2^20 + 1 elements, and a random value. The array is 3 elements longer than n, so
 * a side that writes past n shows up as a difference in the tail. */
#include "jgk_fill.h"

jg_status jgk_fill_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                          jg_error *err) {
  (void)user;
  static const int64_t sizes[6] = {0, 1, 256, 1025, (1 << 20) + 1, 4097};
  static const char *const names[6] = {"empty", "one", "one block", "ragged tail", "2^20 + 1",
                                       "random value"};
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  /* In [0, 100): representable in every variant's type (0 or 1 for bool). */
  const jg_dtype dt = jg_parity_dtype(ctx, 2);
  int64_t value = case_index == 5 ? (int64_t)(jg_parity_random(ctx) % 100) : 1;
  if (dt == JG_DTYPE_BOOL) value = value % 2;
  void *out = jg_parity_alloc(ctx, n + 3, dt);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "fill parity: out of memory");
  args[0] = jg_arg_i64(n);
  args[1] = dt == JG_DTYPE_FLOAT32 || dt == JG_DTYPE_FLOAT64 ? jg_arg_f64((double)value + 0.25)
                                                               : jg_arg_i64(value);
  args[2] = jg_arg_array(out, n + 3, dt, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
