/* reduce_axis_children_parity.c: parity cases of kernel "reduce_axis_children", both index
 * types: valid inputs as the operation makes them (lists from random offsets not at 0; slots of
 * 0..5 random contributors; child_offsets the scan of each slot's longest list; with fill 1, child_counts the scan of
 * the counts, computed here with plain loops): no slots, all lists empty, a last slot empty,
 * 32, 1024 and 2^20 + 1 slots, one slot merging 3000 lists, one very long list; fill alternates.
 * Output arrays have 3 elements more than needed. */
#include "jgk_parity.h"
#include "jgk_reduce_axis_children.h"

#define N_CASES 8

jg_status jgk_reduce_axis_children_parity(jg_parity_ctx *ctx, int case_index,
                                          jg_kernel_arg *args, void *user, jg_error *err) {
  (void)user;
  static const int64_t nls[N_CASES] = {0, 50, 40, 32, 1024, (1 << 20) + 1, 3000, 3};
  static const int64_t nss[N_CASES] = {0, 20, 30, 32, 1000, (1 << 19) + 7, 1, 2};
  static const char *const names[N_CASES] = {"no slots",       "all lists empty", "last slot empty",
                                             "32 slots",       "1024 lists",      "2^20 + 1 lists",
                                             "one slot of 3000 lists", "one very long list"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "reduce_axis_children parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 6);
  const int64_t nl = nls[case_index], n = nss[case_index];
  void *offs = jg_parity_alloc(ctx, nl + 1, dt);
  int64_t *slot_offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *child_offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  if (offs == NULL || slot_offsets == NULL || child_offsets == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "reduce_axis_children parity: out of memory");
  }
  if (case_index == 1) {
    for (int64_t i = 0; i <= nl; ++i) jgk_parity_put_index(offs, dt, i, 3);
  } else if (case_index == 7) {
    jgk_parity_put_index(offs, dt, 0, 1);
    jgk_parity_put_index(offs, dt, 1, 5);
    jgk_parity_put_index(offs, dt, 2, 5 + ((int64_t)1 << 20) + 3);
    jgk_parity_put_index(offs, dt, 3, 6 + ((int64_t)1 << 20) + 3);
  } else if (nl > 0) {
    jgk_parity_random_offsets(ctx, offs, dt, nl, 17, 0.2, 0, 7);
  }
  for (int64_t s = 0; s < n; ++s) {
    int64_t k = (int64_t)(jg_parity_random(ctx) % 6);
    if (case_index == 2 && s == n - 1) k = 0;
    if (case_index == 6) k = nl;
    if (case_index == 7) k = 3;
    slot_offsets[s + 1] = slot_offsets[s] + k;
  }
  const int64_t total = slot_offsets[n];
  int64_t *contrib = jg_parity_alloc(ctx, total, JG_DTYPE_INT64);
  int64_t *axis_pos = jg_parity_alloc(ctx, total, JG_DTYPE_INT64);
  if (contrib == NULL || axis_pos == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "reduce_axis_children parity: out of memory");
  }
  for (int64_t s = 0; s < n; ++s) {
    int64_t most = 0;
    for (int64_t r = slot_offsets[s]; r < slot_offsets[s + 1]; ++r) {
      contrib[r] = case_index >= 6 ? r - slot_offsets[s] : (int64_t)(jg_parity_random(ctx) % (uint64_t)nl);
      axis_pos[r] = (int64_t)(jg_parity_random(ctx) % 100);
      const int64_t len = jgk_parity_get_index(offs, dt, contrib[r] + 1) - jgk_parity_get_index(offs, dt, contrib[r]);
      if (len > most) most = len;
    }
    child_offsets[s + 1] = child_offsets[s] + most;
  }
  const int64_t nchild = child_offsets[n];
  const int64_t fill = case_index % 2;
  int64_t *child_counts = jg_parity_alloc(ctx, nchild + 4, JG_DTYPE_INT64);
  if (child_counts == NULL) return jg_error_set(err, JG_ENOMEM, -1, "reduce_axis_children parity: out of memory");
  int64_t ntot = 0;
  if (fill != 0) {
    /* child_counts = the scan of the counts of the fill 0 pass, by a plain loop. */
    for (int64_t s = 0; s < n; ++s) {
      for (int64_t c = child_offsets[s]; c < child_offsets[s + 1]; ++c) {
        child_counts[c] = ntot;
        for (int64_t r = slot_offsets[s]; r < slot_offsets[s + 1]; ++r) {
          const int64_t len = jgk_parity_get_index(offs, dt, contrib[r] + 1) - jgk_parity_get_index(offs, dt, contrib[r]);
          if (len > c - child_offsets[s]) ntot++;
        }
      }
    }
    child_counts[nchild] = ntot;
  }
  int64_t *contrib_out = jg_parity_alloc(ctx, ntot + 3, JG_DTYPE_INT64);
  int64_t *axis_pos_out = jg_parity_alloc(ctx, ntot + 3, JG_DTYPE_INT64);
  if (contrib_out == NULL || axis_pos_out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "reduce_axis_children parity: out of memory");
  }
  const jg_device host = JG_DEVICE_HOST_INIT;
  const int64_t isz = jg_dtype_itemsize(dt);
  args[0] = jg_arg_i64(nchild);
  args[1] = jg_arg_i64(n);
  args[2] = jg_arg_array(child_offsets, n + 1, JG_DTYPE_INT64, host);
  args[3] = jg_arg_array(slot_offsets, n + 1, JG_DTYPE_INT64, host);
  args[4] = jg_arg_array(contrib, total, JG_DTYPE_INT64, host);
  args[5] = jg_arg_array(axis_pos, total, JG_DTYPE_INT64, host);
  args[6] = jg_arg_array(offs, nl, dt, host);
  args[7] = jg_arg_array((char *)offs + isz, nl, dt, host);
  args[8] = jg_arg_i64(fill);
  args[9] = jg_arg_array(child_counts, nchild + 4, JG_DTYPE_INT64, host);
  args[10] = jg_arg_array(contrib_out, ntot + 3, JG_DTYPE_INT64, host);
  args[11] = jg_arg_array(axis_pos_out, ntot + 3, JG_DTYPE_INT64, host);
  return JG_OK;
}
