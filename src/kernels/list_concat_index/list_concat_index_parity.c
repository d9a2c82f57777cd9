/* list_concat_index_parity.c: parity cases of kernel "list_concat_index"
 * (list_concat_index.json).
 *
 * k = 1..4 sources of random lists (starts not at 0, empty lists, one source all empty), their
 * output offsets the running sum of the lengths: no lists, all lists empty, a last list empty,
 * one list, 32, 1024, 4096 and 2^20 + 1 lists, one list of 2^22 + 3 entries from two sources; and
 * the data error: an output list too short late in 2^20 + 1 lists, another later. out has 3
 * entries more than total. */
#include "jgk_list_concat_index.h"

#define N_CASES 9

jg_status jgk_list_concat_index_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                       void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 1000, 33, 1, 32, 1024, 4096, (1 << 20) + 1, 1};
  static const int64_t ks[N_CASES] = {2, 3, 2, 4, 1, 2, 3, 2, 2};
  static const char *const names[N_CASES] = {
      "no lists", "all lists empty", "last list empty", "one list of four sources",
      "32 lists, one source", "1024 lists", "4096 lists, three sources",
      "2^20 + 1 lists, a short output list late, another later", "one list of 2^22 + 3"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_concat_index parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const int64_t n = ns[case_index], k = ks[case_index];
  int64_t *starts = jg_parity_alloc(ctx, k * n, JG_DTYPE_INT64);
  int64_t *stops = jg_parity_alloc(ctx, k * n, JG_DTYPE_INT64);
  int64_t *base = jg_parity_alloc(ctx, k, JG_DTYPE_INT64);
  int64_t *offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  if (base == NULL || offsets == NULL || (n > 0 && (starts == NULL || stops == NULL))) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_concat_index parity: out of memory");
  }
  for (int64_t j = 0; j < k; ++j) base[j] = 1000 * j + (int64_t)(jg_parity_random(ctx) % 100);
  offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t sum = 0;
    for (int64_t j = 0; j < k; ++j) {
      const uint64_t r = jg_parity_random(ctx);
      int64_t len = (int64_t)(r % 6);
      if (case_index == 1 || (case_index == 2 && i == n - 1) || (j == 1 && case_index == 6)) len = 0;
      if (case_index == 8) len = j == 0 ? ((int64_t)1 << 21) : ((int64_t)1 << 21) + 3;
      starts[j * n + i] = (int64_t)((r >> 8) % 5000);
      stops[j * n + i] = starts[j * n + i] + len;
      sum += len;
    }
    offsets[i + 1] = offsets[i] + sum;
  }
  const int64_t total = offsets[n];
  if (case_index == 7) {
    stops[700000] += 1;
    stops[900000] += 2;
  }
  int64_t *out = jg_parity_alloc(ctx, total + 3, JG_DTYPE_INT64);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "list_concat_index parity: out of memory");
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(k);
  args[2] = jg_arg_array(starts, k * n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(stops, k * n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_array(base, k, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[5] = jg_arg_array(offsets, n + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[6] = jg_arg_i64(total);
  args[7] = jg_arg_array(out, total + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
