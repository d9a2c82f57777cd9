/* cartesian_counts_parity.c: parity cases of kernel "cartesian_counts", every index-type
 * combination.
 *
 * Case c: the first array runs list layout c of jgk_parity_lists_make (no lists, empty lists
 * starting anywhere, a last list empty, offsets not at 0, permuted and overlapping lists, 32 to
 * 2^20 + 1 lists, one list of 2^22 + 3 elements, and its BAD_RANGE errors late in a long array,
 * within a few warps, with a negative m), the second and third arrays random lists of 0..9 items
 * over their own contents (offsets not at 0); narrays is 3 on odd cases. Case 13 (the long list)
 * uses lists of 2^21 items in the others, so its product overflows int64 (OVERFLOW). Out arrays
 * have 3 elements more than n. */
#include "jgk_cartesian_counts.h"
#include "jgk_parity.h"

jg_status jgk_cartesian_counts_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                      void *user, jg_error *err) {
  (void)user;
  const jg_dtype d0 = jg_parity_dtype(ctx, 2), d1 = jg_parity_dtype(ctx, 5),
                 d2 = jg_parity_dtype(ctx, 8);
  jgk_parity_lists l;
  JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, case_index, d0, &l, err));
  jg_parity_case_name(ctx, l.name);
  const int64_t n = l.n;
  void *o1 = jg_parity_alloc(ctx, n + 1, d1);
  void *o2 = jg_parity_alloc(ctx, n + 1, d2);
  void *out = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  void *out0 = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (o1 == NULL || o2 == NULL || out == NULL || out0 == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "cartesian_counts parity: out of memory");
  }
  int64_t m1, m2;
  if (case_index == 13) {
    /* Every list of the other two arrays has 2^21 items: with 2^22 + 3 items in the first, the
     * product exceeds 2^63 (the offsets, at most n * 2^21, fit in int32). */
    const int64_t big = (int64_t)1 << 21;
    for (int64_t i = 0; i <= n; ++i) {
      jgk_parity_put_index(o1, d1, i, i * big);
      jgk_parity_put_index(o2, d2, i, i * big);
    }
    m1 = n * big;
    m2 = n * big;
  } else {
    jgk_parity_random_offsets(ctx, o1, d1, n, 3, 0.2, 0, 9);
    jgk_parity_random_offsets(ctx, o2, d2, n, 5, 0.2, 0, 9);
    m1 = jgk_parity_get_index(o1, d1, n) + 2;
    m2 = jgk_parity_get_index(o2, d2, n);
  }
  const int64_t isz1 = jg_dtype_itemsize(d1), isz2 = jg_dtype_itemsize(d2);
  const jg_device host = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(case_index % 2 == 1 || case_index == 13 ? 3 : 2);
  args[2] = jg_arg_array(l.starts, n, d0, host);
  args[3] = jg_arg_array(l.stops, n, d0, host);
  args[4] = jg_arg_i64(l.m);
  args[5] = jg_arg_array(o1, n, d1, host);
  args[6] = jg_arg_array((char *)o1 + isz1, n, d1, host);
  args[7] = jg_arg_i64(m1);
  args[8] = jg_arg_array(o2, n, d2, host);
  args[9] = jg_arg_array((char *)o2 + isz2, n, d2, host);
  args[10] = jg_arg_i64(m2);
  args[11] = jg_arg_array(out, n + 3, JG_DTYPE_INT64, host);
  args[12] = jg_arg_array(out0, n + 3, JG_DTYPE_INT64, host);
  return JG_OK;
}
