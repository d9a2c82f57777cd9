/* list_slice_parity.c: parity cases of kernel "list_slice" (list_slice.json).
 *
 * Lists of random counts (0..12, some empty; first positions anywhere) under slices with
 * positive and negative steps, absent bounds, bounds beyond the lists on both sides, extreme
 * bounds (INT64_MIN, INT64_MAX) and steps (INT64_MIN, INT64_MAX); sizes none, 1, 32, 1024, 4096,
 * 2^20 + 1 and all-empty lists; and the data errors: a zero step, negative counts late in 2^20 + 1
 * lists (the first must win). Outputs have 3 elements more than n. */
#include "jgk_list_slice.h"
#include "jgk_parity.h"

#define N_CASES 12

jg_status jgk_list_slice_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                void *user, jg_error *err) {
  (void)user;
  typedef struct {
    const char *name;
    int64_t n, start, stop, step, has_start, has_stop;
  } row;
  static const row rows[N_CASES] = {
      {"no lists", 0, 0, 0, 1, 0, 0},
      {"one list, [1:]", 1, 1, 0, 1, 1, 0},
      {"32 lists, [:1]", 32, 0, 1, 1, 0, 1},
      {"1024 lists, [::-1]", 1024, 0, 0, -1, 0, 0},
      {"4096 lists, [-2::-2]", 4096, -2, 0, -2, 1, 0},
      {"2^20 + 1 lists, [1:-1:3]", (1 << 20) + 1, 1, -1, 3, 1, 1},
      {"all empty lists, [2:5]", 1000, 2, 5, 1, 1, 1},
      {"extreme bounds", 4096, INT64_MIN, INT64_MAX, 2, 1, 1},
      {"extreme bounds, step INT64_MIN", 4096, INT64_MAX, INT64_MIN, INT64_MIN, 1, 1},
      {"step INT64_MAX, [-100:100]", 4096, -100, 100, INT64_MAX, 1, 1},
      {"zero step", 33, 0, 0, 0, 0, 0},
      {"negative counts late", (1 << 20) + 1, 0, 3, 1, 1, 1},
  };
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_slice parity: no case %d", case_index);
  }
  const row *r = &rows[case_index];
  const int64_t n = r->n;
  jg_parity_case_name(ctx, r->name);
  int64_t *first = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  int64_t *count = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  int64_t *os = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  int64_t *oc = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (!first || !count || !os || !oc) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_slice parity: out of memory");
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t x = jg_parity_random(ctx);
    first[i] = (int64_t)(x % 1000003u);
    count[i] = case_index == 6 || (x >> 32) % 5 == 0 ? 0 : (int64_t)((x >> 40) % 13u);
  }
  if (case_index == 11) {
    count[600000] = -1;
    count[800000] = -5;
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(first, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(count, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_i64(r->start);
  args[4] = jg_arg_i64(r->stop);
  args[5] = jg_arg_i64(r->step);
  args[6] = jg_arg_i64(r->has_start);
  args[7] = jg_arg_i64(r->has_stop);
  args[8] = jg_arg_array(os, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[9] = jg_arg_array(oc, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
