/* list_take_parity.c: parity cases of kernel "list_take" (list_take.json).
 *
 * Index lists of random lengths over target lists of random counts (0..9, starts anywhere),
 * values drawn in [-count, count) of their list (negative ones count from the end): no lists,
 * one list, all index lists empty, a last empty list, offsets not at 0, 32 / 1024 / 4096 and
 * 2^20 + 1 lists, one index list of 2^22 + 3 entries; identity value positions on even cases, a
 * random permutation (ipos) on odd ones; option modes 0, 1, 2 in turn. Data errors: an index out
 * of range late in 2^20 + 1 lists with another later and a bad position in between (the smallest
 * list wins), a bad position and an out-of-range value in one list (the smaller code wins), and
 * offsets that decrease (with values valid for every list, so BAD_OFFSETS is the only error).
 * out has 3 elements more than n. */
#include "jgk_list_take.h"
#include "jgk_parity.h"

#define N_CASES 13

jg_status jgk_list_take_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                               void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0,    1,    1000, 33, 32,            1024, 4096,
                                         (1 << 20) + 1, 3, (1 << 20) + 1, 50,   4096, 1000};
  static const char *const names[N_CASES] = {"no lists",
                                             "one list",
                                             "all index lists empty",
                                             "last list empty",
                                             "offsets not at 0",
                                             "1024 lists",
                                             "4096 lists",
                                             "2^20 + 1 lists",
                                             "one index list of 2^22 + 3 entries",
                                             "out of range late, a bad position, another later",
                                             "a bad position and an out-of-range value in one list",
                                             "offsets decrease",
                                             "1000 lists, random positions"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_take parity: no case %d", case_index);
  }
  const int64_t nl = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 4);
  int64_t *off = jg_parity_alloc(ctx, nl + 1, JG_DTYPE_INT64);
  int64_t *starts = jg_parity_alloc(ctx, nl, JG_DTYPE_INT64);
  int64_t *counts = jg_parity_alloc(ctx, nl, JG_DTYPE_INT64);
  if (!off || !starts || !counts) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  switch (case_index) {
    case 0:
      off[0] = 3;
      break;
    case 2:
      for (int64_t i = 0; i <= nl; ++i) off[i] = 0;
      break;
    case 4:
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, nl, 100, 0.2, 1, 5);
      break;
    case 8:
      off[0] = off[1] = 0;
      off[2] = ((int64_t)1 << 22) + 3;
      off[3] = off[2];
      break;
    default:
      jgk_parity_random_offsets(ctx, off, JG_DTYPE_INT64, nl, 0, 0.25, 1, 6);
      break;
  }
  if (case_index == 3) off[nl] = off[nl - 1];
  for (int64_t i = 0; i < nl; ++i) {
    const uint64_t x = jg_parity_random(ctx);
    /* Lists with index entries need a target; decreasing offsets need every list's to be. */
    const bool needs = off[i + 1] > off[i] || case_index == 11;
    counts[i] = (int64_t)(x % 10u) + (needs ? 1 : 0);
    starts[i] = (int64_t)((x >> 8) % 1000003u) - 7;
  }
  const int64_t n = nl > 0 ? off[nl] - off[0] : 0;
  const int64_t m = n;
  const jg_len ilen = m > 0 ? m : 1;
  void *index = jg_parity_alloc(ctx, ilen, dt);
  int64_t *ipos = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  int8_t *valid = jg_parity_alloc(ctx, ilen, JG_DTYPE_INT8);
  int64_t *out = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (!index || !ipos || !valid || !out) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  const bool identity = case_index % 2 == 0;
  for (int64_t p = 0; p < n; ++p) ipos[p] = p;
  if (!identity) { /* a random permutation (Fisher-Yates) */
    for (int64_t p = n - 1; p > 0; --p) {
      const int64_t q = (int64_t)(jg_parity_random(ctx) % (uint64_t)(p + 1));
      const int64_t t = ipos[p];
      ipos[p] = ipos[q];
      ipos[q] = t;
    }
  }
  for (int64_t i = 0; i < nl; ++i) {
    for (int64_t p = off[i] - off[0]; p < off[i + 1] - off[0]; ++p) {
      const uint64_t x = jg_parity_random(ctx);
      const int64_t c = counts[i];
      const int64_t v = case_index == 11 ? 0 : (int64_t)(x % (uint64_t)(2 * c)) - c;
      jgk_parity_put_index(index, dt, ipos[p], v);
      valid[ipos[p]] = (int8_t)(((x >> 40) & 7) == 0 ? 0 : 1);
    }
  }
  if (case_index == 9 || case_index == 10) {
    /* The first list at or after each mark with at least two entries (case 10: one list). */
    int64_t at[3] = {600000, 700000, 800000};
    if (case_index == 10) at[0] = at[1] = at[2] = 20;
    for (int k = 0; k < 3; ++k) {
      while (at[k] < nl && off[at[k] + 1] - off[at[k]] < 2) ++at[k];
      if (at[k] >= nl) return jg_error_set(err, JG_EINTERNAL, -1, "list_take parity: no list");
    }
    const int64_t pa = off[at[0]] - off[0], pc = off[at[2] + 1] - 1 - off[0];
    jgk_parity_put_index(index, dt, ipos[pa], counts[at[0]]);
    valid[ipos[pa]] = 1;
    if (case_index == 9) {
      jgk_parity_put_index(index, dt, ipos[pc], -counts[at[2]] - 1);
      valid[ipos[pc]] = 1;
    }
    ipos[off[at[1] + 1] - 1 - off[0]] = m + 3;
  }
  if (case_index == 11) {
    off[3001] = off[3000] - 1;
  }
  args[0] = jg_arg_i64(nl);
  args[1] = jg_arg_i64(n);
  args[2] = jg_arg_array(off, nl + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_i64(m);
  args[4] = jg_arg_array(index, m, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[5] = jg_arg_i64(identity && case_index != 9 && case_index != 10);
  args[6] = jg_arg_array(ipos, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[7] = jg_arg_i64(case_index % 3);
  args[8] = jg_arg_array(valid, m, JG_DTYPE_INT8, (jg_device)JG_DEVICE_HOST_INIT);
  args[9] = jg_arg_array(starts, nl, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[10] = jg_arg_array(counts, nl, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[11] = jg_arg_array(out, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
