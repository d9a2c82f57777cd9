/* counts_equal_parity.c: parity cases of kernel "counts_equal" (counts_equal.json): no lists,
 * equal counts from offsets that start elsewhere, 2^20 + 1 equal random lists, and differences:
 * one late, several (the smallest must win on the GPU), the first list. */
#include "jgk_counts_equal.h"
#include "jgk_parity.h"

#define N_CASES 6

jg_status jgk_counts_equal_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                  void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0, 1000, (1 << 20) + 1, (1 << 20) + 1, 4096, 33};
  static const char *const names[N_CASES] = {"no lists", "equal, other starts",
                                             "2^20 + 1 equal lists", "one late difference",
                                             "several differences", "the first list differs"};
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype ti = jg_parity_dtype(ctx, 1), tj = jg_parity_dtype(ctx, 3);
  void *a = jg_parity_alloc(ctx, n + 1, ti), *b = jg_parity_alloc(ctx, n + 1, tj);
  if (a == NULL || b == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  jgk_parity_random_offsets(ctx, a, ti, n, 0, 0.3, 1, 6);
  /* b: the same counts from another start */
  int64_t at = 17;
  jgk_parity_put_index(b, tj, 0, at);
  for (int64_t i = 0; i < n; ++i) {
    at += jgk_parity_get_index(a, ti, i + 1) - jgk_parity_get_index(a, ti, i);
    jgk_parity_put_index(b, tj, i + 1, at);
  }
  /* differences: list i one longer in b (the lists after it shift, keeping their counts) */
  const int64_t diffs[3] = {case_index == 3 ? n - 2 : case_index == 4 ? 3000 : 0,
                            case_index == 4 ? 700 : -1, case_index == 4 ? 2900 : -1};
  if (case_index >= 3) {
    for (int d = 0; d < 3; ++d) {
      if (diffs[d] < 0) continue;
      for (int64_t i = diffs[d] + 1; i <= n; ++i)
        jgk_parity_put_index(b, tj, i, jgk_parity_get_index(b, tj, i) + 1);
    }
  }
  const size_t ia = (size_t)jg_dtype_itemsize(ti), ib = (size_t)jg_dtype_itemsize(tj);
  const jg_device h = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(a, n, ti, h);
  args[2] = jg_arg_array((char *)a + ia, n, ti, h);
  args[3] = jg_arg_array(b, n, tj, h);
  args[4] = jg_arg_array((char *)b + ib, n, tj, h);
  return JG_OK;
}
