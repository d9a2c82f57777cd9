/* offsets_to_counts_parity.c: parity cases of kernel "offsets_to_counts" (offsets_to_counts.json).
 *
 * Regimes of list lengths (CUB's segment regimes): no lists, one list, all lists empty, a last
 * empty list, offsets not starting at 0, mostly empty lists, 4096 and 2^20 + 1 random lists, one
 * very long list between empty ones, negative offsets; and the data errors: a decrease late in
 * 2^20 + 1 lists with another later still, two decreases within one warp plus a later one (the
 * device's atomic minimum must find the smallest), every list decreasing, and (int64) a list
 * longer than INT64_MAX. counts has 3 elements more than n, so a side that writes past n shows up
 * as a difference in the tail. */
#include "jgk_parity.h"
#include "jgk_offsets_to_counts.h"

#define N_CASES 13

/* Makes list i decrease by one: offsets[i+1] = offsets[i] - 1 (list i+1 only grows). */
static void decrease_at(void *offsets, jg_dtype dt, int64_t i) {
  jgk_parity_put_index(offsets, dt, i + 1, jgk_parity_get_index(offsets, dt, i) - 1);
}

jg_status jgk_offsets_to_counts_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                       void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {
      0, 1, 1000, 33, 32, 1024, 4096, (1 << 20) + 1, 3, 4096, (1 << 20) + 1, 4096, 5000};
  static const char *const names[N_CASES] = {
      "no lists",
      "one list",
      "all lists empty",
      "last list empty",
      "offsets not at 0",
      "1024 lists, mostly empty",
      "4096 random lists",
      "2^20 + 1 random lists",
      "one very long list between empty ones",
      "negative offsets",
      "a decrease late in 2^20 + 1 lists, another later",
      "two decreases in one warp, another later",
      "int64: a list longer than INT64_MAX; int32: every list decreasing"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "offsets_to_counts parity: no case %d",
                        case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 1);
  void *offsets = jg_parity_alloc(ctx, n + 1, dt);
  int64_t *counts = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (offsets == NULL || counts == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "offsets_to_counts parity: out of memory");
  }
  switch (case_index) {
    case 0:
      jgk_parity_put_index(offsets, dt, 0, 7);
      break;
    case 1:
      jgk_parity_put_index(offsets, dt, 0, 0);
      jgk_parity_put_index(offsets, dt, 1, 5);
      break;
    case 2:
      for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(offsets, dt, i, 3);
      break;
    case 3:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.0, 0, 4);
      jgk_parity_put_index(offsets, dt, n, jgk_parity_get_index(offsets, dt, n - 1));
      break;
    case 4:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 1000, 0.0, 0, 9);
      break;
    case 5:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.9, 1, 20);
      break;
    case 6:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.0, 0, 7);
      break;
    case 7:
      jgk_parity_random_offsets(ctx, offsets, dt, n, (int64_t)(jg_parity_random(ctx) % 1000), 0.0, 0, 7);
      break;
    case 8: /* [0, 0, 2^30, 2^30]: fits int32 */
      jgk_parity_put_index(offsets, dt, 0, 0);
      jgk_parity_put_index(offsets, dt, 1, 0);
      jgk_parity_put_index(offsets, dt, 2, (int64_t)1 << 30);
      jgk_parity_put_index(offsets, dt, 3, (int64_t)1 << 30);
      break;
    case 9:
      jgk_parity_random_offsets(ctx, offsets, dt, n, -5000, 0.2, 1, 4);
      break;
    case 10:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.0, 0, 7);
      decrease_at(offsets, dt, 700000);
      decrease_at(offsets, dt, 900000);
      break;
    case 11:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.0, 0, 7);
      decrease_at(offsets, dt, 1005);
      decrease_at(offsets, dt, 1003);
      decrease_at(offsets, dt, 3000);
      break;
    default: /* 12 */
      if (dt == JG_DTYPE_INT64) {
        /* List 1 spans [-5, INT64_MAX - 1]: INT64_MAX + 4 elements. A decrease follows later. */
        jgk_parity_put_index(offsets, dt, 0, -10);
        jgk_parity_put_index(offsets, dt, 1, -5);
        for (int64_t i = 2; i <= n; ++i) jgk_parity_put_index(offsets, dt, i, INT64_MAX - 1);
        jgk_parity_put_index(offsets, dt, 4001, INT64_MAX - 2);
      } else {
        for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(offsets, dt, i, ((int64_t)1 << 20) - i);
      }
      break;
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(offsets, n + 1, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(counts, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
