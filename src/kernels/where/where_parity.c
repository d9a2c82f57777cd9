/* where_parity.c: parity cases of kernel "where" (where.json), every element type: lengths 0,
 * 1, 32, 1024, 4096 and 2^20 + 1 with each operand in turn of length 1 (a scalar), all three of
 * length n, all three scalars; and the data error BAD_LENGTH (an operand of neither 1 nor n
 * elements: cond's first, then x's, then y's). Mixed values (NaN, infinities, extremes); out has
 * 3 extra elements. */
#include "jgk_parity.h"
#include "jgk_where.h"

#define N_CASES 10

jg_status jgk_where_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                           jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 1, 32, 1024, 4096, (1 << 20) + 1, 4096, 7, 100, 100};
  static const char *const names[N_CASES] = {
      "empty", "one", "32, scalar condition", "1024, scalar x", "4096, scalar y",
      "2^20 + 1", "all three scalars", "all three of length n", "bad x and y lengths",
      "bad y length"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "where parity: no case %d", case_index);
  }
  const int64_t n = ns[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 4);
  int64_t nc = n, nx = n, ny = n;
  if (case_index == 2) nc = 1;
  if (case_index == 3) nx = 1;
  if (case_index == 4) ny = 1;
  if (case_index == 6) nc = nx = ny = 1;
  if (case_index == 8) nx = ny = 50;
  if (case_index == 9) ny = 7;
  bool *cond = jg_parity_alloc(ctx, nc, JG_DTYPE_BOOL);
  void *x = jgk_parity_content(ctx, dt, nx, JGK_VALUES_MIXED);
  void *y = jgk_parity_content(ctx, dt, ny, JGK_VALUES_MIXED);
  void *out = jg_parity_alloc(ctx, n + 3, dt);
  if (cond == NULL || x == NULL || y == NULL || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "where parity: out of memory");
  }
  for (int64_t i = 0; i < nc; ++i) cond[i] = (jg_parity_random(ctx) & 1) != 0;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(nc);
  args[2] = jg_arg_array(cond, nc, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_i64(nx);
  args[4] = jg_arg_array(x, nx, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[5] = jg_arg_i64(ny);
  args[6] = jg_arg_array(y, ny, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[7] = jg_arg_array(out, n + 3, dt, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
