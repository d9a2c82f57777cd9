/* broadcast_carry_parity.c: parity cases of kernel "broadcast_carry" (broadcast_carry.json), both
 * index types. The output lists (int64 offsets, not necessarily from 0, with the parents of their
 * elements computed here) come from the list-length regimes: no lists, all lists empty, a last
 * list empty, offsets not at 0, one list, 32, 1024, 4096 and 2^20 + 1 lists of random lengths,
 * one list of 2^22 + 3 elements between empty ones; each with a carry that is a range (with a
 * base) or random (a quarter None), mode 0 (repeat) or 1 (into the lists, given by random starts
 * or a regular size). No data errors. out has 3 extra elements. */
#include "jgk_broadcast_carry.h"
#include "jgk_parity.h"

#define N_CASES 12

jg_status jgk_broadcast_carry_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                     void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0, 1000, 33, 32, 1, 32, 1024, 4096, (1 << 20) + 1, 3,
                                         4096, 1024};
  static const char *const names[N_CASES] = {
      "no lists", "all lists empty", "last list empty", "offsets not at 0", "one list",
      "32 lists, range carry with a base", "1024 lists, regular size 3", "4096 lists, repeat",
      "2^20 + 1 lists", "one list of 2^22 + 3 between empty ones", "4096 lists, random carry",
      "1024 lists, range carry, repeat"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "broadcast_carry parity: no case %d",
                        case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 9);
  int64_t *offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  if (offsets == NULL) return jg_error_set(err, JG_ENOMEM, -1, "broadcast_carry parity: out of memory");
  switch (case_index) {
    case 1:
      for (int64_t i = 0; i <= n; ++i) offsets[i] = 0;
      break;
    case 3:
      jgk_parity_random_offsets(ctx, offsets, JG_DTYPE_INT64, n, 1000, 0.2, 0, 9);
      break;
    case 9:
      offsets[0] = 0;
      offsets[1] = 0;
      offsets[2] = ((int64_t)1 << 22) + 3;
      offsets[3] = offsets[2];
      break;
    default:
      jgk_parity_random_offsets(ctx, offsets, JG_DTYPE_INT64, n, 0, 0.2, 0, 7);
      break;
  }
  if (case_index == 2) offsets[n] = offsets[n - 1];
  const int64_t total = offsets[n] - offsets[0];
  const int64_t ml = n + 20; /* lists of the input node */
  const bool identity = case_index == 5 || case_index == 11 || case_index == 0 || case_index == 4;
  const int64_t base = case_index == 5 ? 7 : 0;
  const int64_t mode = case_index == 7 || case_index == 11 ? 0 : 1;
  const int64_t size = case_index == 6 ? 3 : -1;
  int64_t *parents = jg_parity_alloc(ctx, total, JG_DTYPE_INT64);
  int64_t *carry = jg_parity_alloc(ctx, identity ? 0 : n, JG_DTYPE_INT64);
  void *starts = jg_parity_alloc(ctx, ml, dt);
  int64_t *out = jg_parity_alloc(ctx, total + 3, JG_DTYPE_INT64);
  if (parents == NULL || carry == NULL || starts == NULL || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "broadcast_carry parity: out of memory");
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = offsets[i]; j < offsets[i + 1]; ++j) parents[j - offsets[0]] = i;
  }
  for (int64_t i = 0; i < n && !identity; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    carry[i] = r % 4 != 0 ? (int64_t)((r >> 8) % (uint64_t)ml) : -1;
  }
  for (int64_t k = 0; k < ml; ++k) {
    jgk_parity_put_index(starts, dt, k, (int64_t)(jg_parity_random(ctx) % 100000));
  }
  args[0] = jg_arg_i64(total);
  args[1] = jg_arg_i64(n);
  args[2] = jg_arg_array(parents, total, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(offsets, n + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_i64(identity);
  args[5] = jg_arg_i64(base);
  args[6] = jg_arg_array(carry, identity ? 0 : n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[7] = jg_arg_i64(mode);
  args[8] = jg_arg_i64(size);
  args[9] = jg_arg_array(starts, ml, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[10] = jg_arg_array(out, total + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
