/* combinations_fill_parity.c: parity cases of kernel "combinations_fill", both index types.
 *
 * Lists as offsets (starts = offsets[0..n), stops = offsets[1..n]) over a content they do not
 * need to start at 0 in: no lists, all-empty lists, a last list empty, offsets not at 0, lengths
 * around 1, 32, 1024, 4096 and 2^20 + 1 lists of random lengths (many shorter than k), one very
 * long list (3001 items, k = 2: 4.5 million pairs), one list of 150 items with k = 4 and
 * replacement, random lists with every k; k runs over 1..4, replacement and local positions
 * alternate. The output offsets are the combinations' counts scanned here with a plain loop. out
 * has 3 elements more than k * total, so a side that writes past the planes shows up. */
#include "jgk_combinations_fill.h"
#include "jgk_parity.h"

#define N_CASES 12

static int64_t count_of(int64_t len, int64_t k, int64_t replacement) {
  const int64_t x = replacement != 0 && len > 0 ? len + k - 1 : len;
  if (x < k) return 0;
  int64_t c = 1;
  for (int64_t j = 1; j <= k; ++j) c = c * (x - k + j) / j; /* small here: exact */
  return c;
}

jg_status jgk_combinations_fill_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                       void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 1000, 33, 32, 1, 32, 1024, 4096, (1 << 20) + 1, 3, 1, 777};
  static const int64_t ks[N_CASES] = {2, 3, 2, 4, 3, 2, 3, 4, 2, 2, 4, 1};
  static const char *const names[N_CASES] = {"no lists",
                                             "all lists empty",
                                             "last list empty",
                                             "offsets not at 0",
                                             "one list",
                                             "32 lists",
                                             "1024 lists",
                                             "4096 lists",
                                             "2^20 + 1 lists",
                                             "one very long list between empty ones",
                                             "150 items, k = 4 with replacement",
                                             "random lists, k = 1"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "combinations_fill parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 1);
  const int64_t n = ns[case_index], k = ks[case_index];
  const int64_t replacement = case_index == 10 ? 1 : case_index % 2;
  const int64_t local = (case_index / 2) % 2;
  void *offs = jg_parity_alloc(ctx, n + 1, dt);
  int64_t *out_offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  if (offs == NULL || out_offsets == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "combinations_fill parity: out of memory");
  }
  switch (case_index) {
    case 0:
      jgk_parity_put_index(offs, dt, 0, 9);
      break;
    case 1:
      for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(offs, dt, i, 5);
      break;
    case 2:
      jgk_parity_random_offsets(ctx, offs, dt, n, 0, 0.1, 1, 6);
      jgk_parity_put_index(offs, dt, n, jgk_parity_get_index(offs, dt, n - 1));
      break;
    case 3:
      jgk_parity_random_offsets(ctx, offs, dt, n, 1000, 0.1, 0, 9);
      break;
    case 4:
      jgk_parity_put_index(offs, dt, 0, 2);
      jgk_parity_put_index(offs, dt, 1, 9);
      break;
    case 9:
      jgk_parity_put_index(offs, dt, 0, 4);
      jgk_parity_put_index(offs, dt, 1, 4);
      jgk_parity_put_index(offs, dt, 2, 4 + 3001);
      jgk_parity_put_index(offs, dt, 3, 4 + 3001);
      break;
    case 10:
      jgk_parity_put_index(offs, dt, 0, 7);
      jgk_parity_put_index(offs, dt, 1, 157);
      break;
    case 8:
      jgk_parity_random_offsets(ctx, offs, dt, n, 3, 0.2, 0, 6);
      break;
    default:
      jgk_parity_random_offsets(ctx, offs, dt, n, (int64_t)(jg_parity_random(ctx) % 100), 0.2, 0,
                                12);
      break;
  }
  out_offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = jgk_parity_get_index(offs, dt, i + 1) - jgk_parity_get_index(offs, dt, i);
    out_offsets[i + 1] = out_offsets[i] + count_of(len, k, replacement);
  }
  const int64_t total = out_offsets[n];
  int64_t *out = jg_parity_alloc(ctx, k * total + 3, JG_DTYPE_INT64);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "combinations_fill parity: out of memory");
  const int64_t isz = jg_dtype_itemsize(dt);
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(offs, n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array((char *)offs + isz, n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(out_offsets, n + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_i64(k);
  args[5] = jg_arg_i64(replacement);
  args[6] = jg_arg_i64(local);
  args[7] = jg_arg_i64(total);
  args[8] = jg_arg_array(out, k * total + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
