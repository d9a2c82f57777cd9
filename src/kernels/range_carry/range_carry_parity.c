/* range_carry_parity.c: parity cases of kernel "range_carry" (range_carry.json).
 *
 * Range-length regimes: no ranges (with and without output room), one range, all ranges empty,
 * a last empty range, offsets not at 0, 32 / 1024 / 4096 ranges of random lengths, 2^20 + 1
 * random ranges, one range of 2^22 + 3 between empty ones; steps 1, -1, 3, -7 and 0 in turn,
 * starts anywhere in [-10^6, 10^6]; and the data errors: a decrease late in 2^20 + 1 ranges with
 * another later still, and ranges running past offsets[0] + m. out has 3 elements more than m,
 * so a side that writes past m shows up in the tail. */
#include "jgk_parity.h"
#include "jgk_range_carry.h"

#define N_CASES 12

jg_status jgk_range_carry_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                 void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0,    1,    1000, 33,          32, 1024,
                                         4096, 3,    (1 << 20) + 1, (1 << 20) + 1, 500, 0};
  static const char *const names[N_CASES] = {"no ranges",
                                             "one range",
                                             "all ranges empty",
                                             "last range empty",
                                             "offsets not at 0",
                                             "1024 ranges around the warp size",
                                             "4096 ranges of 0..64",
                                             "one range of 2^22 + 3 between empty ones",
                                             "2^20 + 1 random ranges",
                                             "a decrease late in 2^20 + 1 ranges, another later",
                                             "ranges run past offsets[0] + m",
                                             "no ranges, out of 3"};
  static const int64_t steps[5] = {1, -1, 3, -7, 0};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "range_carry parity: no case %d", case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  int64_t *off = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *starts = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  if (!off || !starts) return jg_error_set(err, JG_ENOMEM, -1, "range_carry parity: out of memory");
  int64_t extra = 0;
  switch (case_index) {
    case 0:
    case 11:
      off[0] = 5;
      break;
    case 1:
      off[0] = 0;
      off[1] = 7;
      break;
    case 2:
      for (int64_t i = 0; i <= n; ++i) off[i] = 9;
      break;
    case 3:
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, n, 0, 0.0, 0, 5);
      off[n] = off[n - 1];
      break;
    case 4:
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, n, 1000, 0.0, 0, 9);
      break;
    case 5:
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, n, 0, 0.3, 20, 40);
      break;
    case 6:
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, n, 17, 0.0, 0, 64);
      break;
    case 7:
      off[0] = off[1] = 11;
      off[2] = 11 + ((int64_t)1 << 22) + 3;
      off[3] = off[2];
      break;
    case 8:
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, n, 3, 0.2, 1, 6);
      break;
    case 9:
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, n, 0, 0.0, 0, 6);
      off[700001] = off[700000] - 1;
      off[900001] = off[900000] - 1;
      break;
    default: /* 10 */
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, n, 3, 0.0, 1, 6);
      extra = -(off[n] - off[200]);
      break;
  }
  if (case_index == 11) extra = 3;
  for (int64_t i = 0; i < n; ++i)
    starts[i] = (int64_t)(jg_parity_random(ctx) % 2000001u) - 1000000;
  const int64_t m = off[n] - off[0] + extra;
  int64_t *out = jg_parity_alloc(ctx, (m > 0 ? m : 0) + 3, JG_DTYPE_INT64);
  if (!out) return jg_error_set(err, JG_ENOMEM, -1, "range_carry parity: out of memory");
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(m);
  args[2] = jg_arg_array(off, n + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(starts, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_i64(steps[case_index % 5]);
  args[5] = jg_arg_array(out, (m > 0 ? m : 0) + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
