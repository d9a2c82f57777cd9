/* list_range_parity.c: parity cases of kernel "list_range" (list_range.json).
 *
 * Cases 0-14 take the lists of the reduction kernels' layouts (jgk_parity_lists_make: no lists,
 * one list, all-empty lists that start anywhere, a last empty list, offsets not at 0, permuted
 * and overlapping lists, 32 / 1024 / 4096 lists, bad lists among 100, a negative m, 2^20 + 1
 * lists, one list of 2^22 + 3 elements, bad lists late in 2^20 + 1), and vary the modes with the
 * case: a carry (a random position or, one time in eight, -1 for None) on odd cases, the
 * identity on even ones; a byte mask valid when nonzero, when zero, or none (case % 3); a gate
 * on cases 3, 7, 11; case 7 reads the lists as regular of size 3 instead. Case 15 puts carries
 * past the node at 500000 and 700000 of 2^20 + 1 entries (BAD_CARRY; the first must win). */
#include "jgk_list_range.h"
#include "jgk_parity.h"

#define N_CASES 15

jg_status jgk_list_range_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                void *user, jg_error *err) {
  (void)user;
  if (case_index < 0 || case_index > N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_range parity: no case %d", case_index);
  }
  const jg_dtype dt = jg_parity_dtype(ctx, 4);
  jgk_parity_lists L;
  const int layout = case_index == N_CASES ? 12 : case_index;
  JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, layout, dt, &L, err));
  jg_parity_case_name(ctx, case_index == N_CASES ? "carries past the node late" : L.name);
  const int64_t nl = L.n, n = L.n;
  const bool use_carry = case_index % 2 == 1 || case_index == N_CASES;
  const int64_t mask_mode = case_index % 3;
  const bool use_gate = case_index % 4 == 3;
  const int64_t regular = case_index == 7 ? 3 : -1;
  const jg_dtype ct = jg_parity_dtype(ctx, 7);
  void *carry = jg_parity_alloc(ctx, n, ct);
  int8_t *mask = jg_parity_alloc(ctx, nl, JG_DTYPE_INT8);
  bool *gate = jg_parity_alloc(ctx, n, JG_DTYPE_BOOL);
  int64_t *os = jg_parity_alloc(ctx, n + 2, JG_DTYPE_INT64);
  int64_t *oc = jg_parity_alloc(ctx, n + 2, JG_DTYPE_INT64);
  bool *ov = jg_parity_alloc(ctx, n + 2, JG_DTYPE_BOOL);
  if (!carry || !mask || !gate || !os || !oc || !ov) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_range parity: out of memory");
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    jgk_parity_put_index(carry, ct, i, (r & 7) == 0 ? -1 : (int64_t)((r >> 3) % (uint64_t)nl));
    gate[i] = ((r >> 40) & 3) != 0;
  }
  for (int64_t p = 0; p < nl; ++p) mask[p] = (int8_t)((jg_parity_random(ctx) & 3) == 0 ? 0 : 7);
  if (case_index == N_CASES) {
    jgk_parity_put_index(carry, ct, 500000, nl);
    jgk_parity_put_index(carry, ct, 700000, nl + 5);
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(nl);
  args[2] = jg_arg_i64(regular >= 0 ? 3 * nl : L.m);
  args[3] = jg_arg_i64(regular);
  args[4] = jg_arg_array(L.starts, nl, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[5] = jg_arg_array(L.stops, nl, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[6] = jg_arg_i64(use_carry);
  args[7] = jg_arg_array(carry, n, ct, (jg_device)JG_DEVICE_HOST_INIT);
  args[8] = jg_arg_i64(mask_mode);
  args[9] = jg_arg_array(mask, nl, JG_DTYPE_INT8, (jg_device)JG_DEVICE_HOST_INIT);
  args[10] = jg_arg_i64(use_gate);
  args[11] = jg_arg_array(gate, n, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  args[12] = jg_arg_array(os, n + 2, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[13] = jg_arg_array(oc, n + 2, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[14] = jg_arg_array(ov, n + 2, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
