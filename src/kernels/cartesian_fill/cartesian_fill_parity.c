/* cartesian_fill_parity.c: parity cases of kernel "cartesian_fill", every index-type combination.
 *
 * Three arrays of random lists (each with offsets not at 0 in its own content): no lists,
 * all-empty lists, a last list empty, 1, 32, 1024, 4096 and 2^20 + 1 lists, one very long list
 * (2000 x 1000 items), empty second lists under non-empty first ones (nested: empty groups),
 * random lists; narrays is 3 on odd cases, nested and local positions alternate. The output
 * offsets and the group starts are the product sizes and the first lists' lengths scanned here
 * with a plain loop. Out arrays have 3 elements more than needed, so writes past the end show. */
#include "jgk_cartesian_fill.h"
#include "jgk_parity.h"

#define N_CASES 12

jg_status jgk_cartesian_fill_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                    void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 500, 40, 1, 32, 1024, 4096, (1 << 20) + 1, 3, 100, 777, 33};
  static const char *const names[N_CASES] = {
      "no lists",       "all lists empty", "last list empty",       "one list",
      "32 lists",       "1024 lists",      "4096 lists",            "2^20 + 1 lists",
      "one very long list between empty ones", "empty second lists", "random lists",
      "offsets not at 0, short lists"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "cartesian_fill parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype d[3] = {jg_parity_dtype(ctx, 2), jg_parity_dtype(ctx, 4),
                         jg_parity_dtype(ctx, 6)};
  const int64_t n = ns[case_index];
  const int64_t narrays = case_index % 2 == 1 ? 3 : 2;
  const int64_t nested = (case_index / 2) % 2 == 0 ? 1 : 0;
  const int64_t local = case_index % 3 == 0 ? 1 : 0;
  void *o[3];
  for (int q = 0; q < 3; ++q) {
    o[q] = jg_parity_alloc(ctx, n + 1, d[q]);
    if (o[q] == NULL) return jg_error_set(err, JG_ENOMEM, -1, "cartesian_fill parity: out of memory");
    const int64_t hi = case_index == 7 ? 4 : 9;
    switch (case_index) {
      case 0:
        jgk_parity_put_index(o[q], d[q], 0, 3);
        break;
      case 1:
        for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(o[q], d[q], i, 7);
        break;
      case 8: {
        const int64_t len = q == 0 ? 2000 : (q == 1 ? 1000 : 2);
        jgk_parity_put_index(o[q], d[q], 0, 1);
        jgk_parity_put_index(o[q], d[q], 1, 1);
        jgk_parity_put_index(o[q], d[q], 2, 1 + len);
        jgk_parity_put_index(o[q], d[q], 3, 1 + len);
        break;
      }
      case 9:
        if (q == 1) {
          for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(o[q], d[q], i, 2);
        } else {
          jgk_parity_random_offsets(ctx, o[q], d[q], n, 4, 0.1, 1, 5);
        }
        break;
      default:
        jgk_parity_random_offsets(ctx, o[q], d[q], n, 10 * (q + 1), 0.2, 0, hi);
        break;
    }
    if (case_index == 2 && n > 0) {
      jgk_parity_put_index(o[q], d[q], n, jgk_parity_get_index(o[q], d[q], n - 1));
    }
  }
  int64_t *offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *inner_starts = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  if (offsets == NULL || inner_starts == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "cartesian_fill parity: out of memory");
  }
  for (int64_t i = 0; i < n; ++i) {
    int64_t len[3];
    for (int q = 0; q < 3; ++q) {
      len[q] = jgk_parity_get_index(o[q], d[q], i + 1) - jgk_parity_get_index(o[q], d[q], i);
    }
    offsets[i + 1] = offsets[i] + len[0] * len[1] * (narrays > 2 ? len[2] : 1);
    inner_starts[i + 1] = inner_starts[i] + len[0];
  }
  const int64_t total = offsets[n], ninner = nested != 0 ? inner_starts[n] + 1 : 1;
  int64_t *out = jg_parity_alloc(ctx, narrays * total + 3, JG_DTYPE_INT64);
  int64_t *inner = jg_parity_alloc(ctx, ninner + 3, JG_DTYPE_INT64);
  if (out == NULL || inner == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "cartesian_fill parity: out of memory");
  }
  const jg_device host = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(narrays);
  for (int q = 0; q < 3; ++q) {
    args[2 + 2 * q] = jg_arg_array(o[q], n, d[q], host);
    args[3 + 2 * q] = jg_arg_array((char *)o[q] + jg_dtype_itemsize(d[q]), n, d[q], host);
  }
  args[8] = jg_arg_array(offsets, n + 1, JG_DTYPE_INT64, host);
  args[9] = jg_arg_i64(total);
  args[10] = jg_arg_i64(local);
  args[11] = jg_arg_array(out, narrays * total + 3, JG_DTYPE_INT64, host);
  args[12] = jg_arg_i64(nested);
  args[13] = jg_arg_array(inner_starts, n + 1, JG_DTYPE_INT64, host);
  args[14] = jg_arg_array(inner, ninner + 3, JG_DTYPE_INT64, host);
  return JG_OK;
}
