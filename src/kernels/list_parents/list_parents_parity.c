/* list_parents_parity.c: parity cases of kernel "list_parents" (list_parents.json).
 *
 * List-length regimes (CUB's segment regimes): no lists (with and without content), one list,
 * all lists empty, a last empty list, offsets not starting at 0, mostly empty lists, lengths
 * around 32, 2^20 + 1 lists, one list of 2^22 + 3 elements between empty ones, m larger than what
 * the lists cover (the tail of out must stay untouched); and the data error: a decrease late in
 * 2^20 + 1 lists with another later still, lists running past offsets[0] + m with a decrease
 * later, a decrease among many empty lists with m = 0, and a negative m. out has 3 elements more
 * than m, so a side that writes past m shows up as a difference in the tail. */
#include "jgk_parity.h"
#include "jgk_list_parents.h"

#define N_CASES 15

jg_status jgk_list_parents_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                 void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {
      0, 0, 1, 1000, 33, 32, 1024, 4096, (1 << 20) + 1, 3, 100, (1 << 20) + 1, 4096, 5000, 2};
  static const char *const names[N_CASES] = {"no lists, no content",
                                             "no lists, m = 3",
                                             "one list",
                                             "all lists empty",
                                             "last list empty",
                                             "offsets not at 0",
                                             "1024 lists, mostly empty",
                                             "4096 lists of 0..64",
                                             "2^20 + 1 random lists",
                                             "one list of 2^22 + 3 between empty ones",
                                             "m larger than the lists cover",
                                             "a decrease late in 2^20 + 1 lists, another later",
                                             "lists run past offsets[0] + m, a decrease later",
                                             "a decrease among empty lists, m = 0",
                                             "negative m"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_parents parity: no case %d", case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 2);
  void *offsets = jg_parity_alloc(ctx, n + 1, dt);
  if (offsets == NULL) return jg_error_set(err, JG_ENOMEM, -1, "list_parents parity: out of memory");
  int64_t extra = 0; /* m - (offsets[n] - offsets[0]) */
  switch (case_index) {
    case 0:
      jgk_parity_put_index(offsets, dt, 0, 7);
      break;
    case 1:
      jgk_parity_put_index(offsets, dt, 0, 7);
      extra = 3;
      break;
    case 2:
      jgk_parity_put_index(offsets, dt, 0, 2);
      jgk_parity_put_index(offsets, dt, 1, 7);
      break;
    case 3:
      for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(offsets, dt, i, 4);
      break;
    case 4:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.0, 0, 4);
      jgk_parity_put_index(offsets, dt, n, jgk_parity_get_index(offsets, dt, n - 1));
      break;
    case 5:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 1000, 0.0, 0, 9);
      break;
    case 6:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.9, 1, 20);
      break;
    case 7:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 17, 0.0, 0, 64);
      break;
    case 8:
      jgk_parity_random_offsets(ctx, offsets, dt, n, (int64_t)(jg_parity_random(ctx) % 1000), 0.1, 1, 7);
      break;
    case 9:
      jgk_parity_put_index(offsets, dt, 0, 11);
      jgk_parity_put_index(offsets, dt, 1, 11);
      jgk_parity_put_index(offsets, dt, 2, 11 + ((int64_t)1 << 22) + 3);
      jgk_parity_put_index(offsets, dt, 3, jgk_parity_get_index(offsets, dt, 2));
      break;
    case 10:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 5, 0.0, 0, 6);
      extra = 50;
      break;
    case 11:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.0, 0, 7);
      jgk_parity_put_index(offsets, dt, 700001, jgk_parity_get_index(offsets, dt, 700000) - 1);
      jgk_parity_put_index(offsets, dt, 900001, jgk_parity_get_index(offsets, dt, 900000) - 1);
      break;
    case 12:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 3, 0.0, 0, 7);
      jgk_parity_put_index(offsets, dt, 3001, jgk_parity_get_index(offsets, dt, 3000) - 1);
      /* m = offsets[2000] - offsets[0]: the first non-empty list from 2000 on runs past it. */
      extra = -(jgk_parity_get_index(offsets, dt, n) - jgk_parity_get_index(offsets, dt, 2000));
      break;
    case 13:
      for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(offsets, dt, i, 4);
      jgk_parity_put_index(offsets, dt, 4001, 3);
      break;
    default: /* 14 */
      jgk_parity_put_index(offsets, dt, 0, 0);
      jgk_parity_put_index(offsets, dt, 1, 0);
      jgk_parity_put_index(offsets, dt, 2, 1);
      extra = -2;
      break;
  }
  /* Cases 11 and 13 have m = offsets[n] - offsets[0] with the decreases counted in. */
  int64_t m = jgk_parity_get_index(offsets, dt, n) - jgk_parity_get_index(offsets, dt, 0) + extra;
  if (case_index == 13) m = 0;
  const int64_t out_len = (m > 0 ? m : 0) + 3;
  int64_t *out = jg_parity_alloc(ctx, out_len, JG_DTYPE_INT64);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "list_parents parity: out of memory");
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(m);
  args[2] = jg_arg_array(offsets, n + 1, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(out, out_len, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
