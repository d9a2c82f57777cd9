/* carry_counts_parity.c: parity cases of kernel "carry_counts" (carry_counts.json), both index
 * types. Cases 0..14 take the shared list layouts (jgk_parity_lists_make: no lists, no lists
 * with content, one list, empty lists that start anywhere, a last empty list, offsets not at 0,
 * permuted and overlapping lists, 32 / 1024 / 4096 lists of Poisson-like lengths, bad lists
 * among 100, a negative m, 2^20 + 1 lists, one list of 2^22 + 3 elements, bad lists late in
 * 2^20 + 1), reached through a range (identity) in even cases and through a random carry (a
 * quarter None, entries repeated) in odd ones; then a regular node, an expected-counts mismatch
 * late in 2^20 + 1 positions with another later (DIFFERENT), expected counts that all match, and
 * a carry past the node (OUT_OF_RANGE). counts has 3 extra elements. */
#include "jgk_carry_counts.h"
#include "jgk_parity.h"

#define N_CASES (JGK_PARITY_LIST_LAYOUTS + 4)

jg_status jgk_carry_counts_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                  void *user, jg_error *err) {
  (void)user;
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "carry_counts parity: no case %d",
                        case_index);
  }
  const jg_dtype dt = jg_parity_dtype(ctx, 6);
  const int layout = case_index < JGK_PARITY_LIST_LAYOUTS ? case_index : 12;
  jgk_parity_lists l;
  JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, layout, dt, &l, err));
  int64_t size = -1;
  bool identity = case_index % 2 == 0 && case_index < JGK_PARITY_LIST_LAYOUTS;
  int64_t npos = l.n;
  const char *name = l.name;
  if (case_index == JGK_PARITY_LIST_LAYOUTS) {
    size = 3;
    name = "regular node of size 3, random carry";
  } else if (case_index == JGK_PARITY_LIST_LAYOUTS + 1) {
    name = "expected counts differ late in 2^20 + 1, another later";
    identity = true;
  } else if (case_index == JGK_PARITY_LIST_LAYOUTS + 2) {
    name = "expected counts all match";
    identity = true;
  } else if (case_index == JGK_PARITY_LIST_LAYOUTS + 3) {
    name = "a carry past the node";
  } else if (!identity) {
    npos = l.n + l.n / 3 + 1;
  }
  jg_parity_case_name(ctx, name);
  if (identity) npos = l.n;
  int64_t *carry = jg_parity_alloc(ctx, identity ? 0 : npos, JG_DTYPE_INT64);
  int64_t *expect = jg_parity_alloc(ctx, npos, JG_DTYPE_INT64);
  int64_t *counts = jg_parity_alloc(ctx, npos + 3, JG_DTYPE_INT64);
  if (carry == NULL || expect == NULL || counts == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "carry_counts parity: out of memory");
  }
  for (int64_t i = 0; i < npos && !identity; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    carry[i] = l.n > 0 && r % 4 != 0 ? (int64_t)((r >> 8) % (uint64_t)l.n) : -1;
  }
  const bool has_expect = case_index == JGK_PARITY_LIST_LAYOUTS + 1 ||
                          case_index == JGK_PARITY_LIST_LAYOUTS + 2;
  if (has_expect) {
    for (int64_t i = 0; i < npos; ++i) {
      expect[i] = jgk_parity_get_index(l.stops, dt, i) - jgk_parity_get_index(l.starts, dt, i);
    }
    if (case_index == JGK_PARITY_LIST_LAYOUTS + 1) {
      expect[700000] += 1;
      expect[900000] -= 1;
    }
  }
  if (case_index == JGK_PARITY_LIST_LAYOUTS + 3) {
    carry[5000] = l.n;
    carry[7000] = l.n + 3;
  }
  args[0] = jg_arg_i64(npos);
  args[1] = jg_arg_i64(identity);
  args[2] = jg_arg_i64(0);
  args[3] = jg_arg_array(carry, identity ? 0 : npos, JG_DTYPE_INT64,
                         (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_i64(size);
  args[5] = jg_arg_i64(l.n);
  args[6] = jg_arg_array(l.starts, l.n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[7] = jg_arg_array(l.stops, l.n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[8] = jg_arg_i64(l.m);
  args[9] = jg_arg_i64(has_expect);
  args[10] = jg_arg_array(expect, npos, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[11] = jg_arg_array(counts, npos + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
