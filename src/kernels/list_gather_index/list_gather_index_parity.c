/* list_gather_index_parity.c: parity cases of kernel "list_gather_index"
 * (list_gather_index.json).
 *
 * Output lists from random counts starting at 0 (no lists, all empty, a last list empty, 1, 32,
 * 1024, 4096 and 2^20 + 1 lists, one list of 2^22 + 3 positions between empty ones), source lists
 * at random starts (not at 0) that are as long as, shorter than (padding with -1) or longer than
 * (cut) their output lists; and the data error: offsets decreasing late in 2^20 + 1 lists with
 * another decrease later, offsets past total. out has 3 entries more than total. */
#include "jgk_list_gather_index.h"
#include "jgk_parity.h"

#define N_CASES 11

jg_status jgk_list_gather_index_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                       void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 1000, 33, 1, 32, 1024, 4096, (1 << 20) + 1, 3,
                                      (1 << 20) + 1, 100};
  static const char *const names[N_CASES] = {
      "no lists", "all lists empty", "last list empty", "one list", "32 lists, padded",
      "1024 lists, cut", "4096 lists, mixed", "2^20 + 1 lists", "one list of 2^22 + 3",
      "decreasing offsets late, another later", "offsets past total"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_gather_index parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const int64_t n = ns[case_index];
  int64_t *offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *starts = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  int64_t *stops = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  if (offsets == NULL || (n > 0 && (starts == NULL || stops == NULL))) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_gather_index parity: out of memory");
  }
  if (case_index == 1) {
    for (int64_t i = 0; i <= n; ++i) offsets[i] = 0;
  } else if (case_index == 8) {
    offsets[0] = 0;
    offsets[1] = 0;
    offsets[2] = ((int64_t)1 << 22) + 3;
    offsets[3] = offsets[2];
  } else {
    jgk_parity_random_offsets(ctx, offsets, JG_DTYPE_INT64, n, 0, 0.2, 1, case_index == 6 ? 40 : 9);
    if (case_index == 2) offsets[n] = offsets[n - 1];
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t w = offsets[i + 1] - offsets[i];
    const uint64_t r = jg_parity_random(ctx);
    int64_t len = w;
    if (case_index == 4 || (case_index >= 6 && r % 3 == 0)) len = w / 2;
    if (case_index == 5 || (case_index >= 6 && r % 3 == 1)) len = w + 3;
    starts[i] = (int64_t)((r >> 8) % 100000);
    stops[i] = starts[i] + len;
  }
  int64_t total = offsets[n];
  if (case_index == 9) {
    offsets[700001] = offsets[700000] - 1;
    offsets[900001] = offsets[900000] - 1;
  }
  if (case_index == 10) total = offsets[50];
  int64_t *out = jg_parity_alloc(ctx, total + 3, JG_DTYPE_INT64);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "list_gather_index parity: out of memory");
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(starts, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(stops, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(offsets, n + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_i64(total);
  args[5] = jg_arg_array(out, total + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
