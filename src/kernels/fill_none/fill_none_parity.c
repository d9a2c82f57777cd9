/* fill_none_parity.c: parity cases of kernel "fill_none" (fill_none.json), every type: no
 * positions, 1, 32, 1024, 4096 and 2^20 + 1 positions over contents of other lengths, all None,
 * none None, random None (one in four); and the data error: an index past the content late in
 * 2^20 + 1 positions with another later, an empty content. The fill value is random bits (0 or 1
 * for bool). out has 3 entries more than n. */
#include <string.h>

#include "jgk_fill_none.h"

#define N_CASES 9

jg_status jgk_fill_none_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                               void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 1, 32, 1024, 4096, (1 << 20) + 1, 100, 1000,
                                      (1 << 20) + 1};
  static const int64_t ms[N_CASES] = {0, 1, 100, 10, 4096, 1000, 50, 0, 5000};
  static const char *const names[N_CASES] = {
      "nothing", "one", "32 from 100", "1024 from 10, all None", "4096, none None",
      "2^20 + 1 from 1000", "100 from 50", "empty content, an index 0",
      "past the content late in 2^20 + 1, another later"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "fill_none parity: no case %d", case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const int64_t n = ns[case_index], m = ms[case_index];
  const jg_dtype dt = jg_parity_dtype(ctx, 3);
  const int64_t isz = jg_dtype_itemsize(dt);
  unsigned char *content = jg_parity_alloc(ctx, m, dt);
  int64_t *index = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  void *out = jg_parity_alloc(ctx, n + 3, dt);
  if ((m > 0 && content == NULL) || (n > 0 && index == NULL) || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "fill_none parity: out of memory");
  }
  for (int64_t b = 0; b < m * isz; b += 8) {
    const uint64_t r = jg_parity_random(ctx);
    memcpy(content + b, &r, (size_t)(m * isz - b < 8 ? m * isz - b : 8));
  }
  if (dt == JG_DTYPE_BOOL) {
    for (int64_t j = 0; j < m; ++j) content[j] &= 1;
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    index[i] = (case_index == 3 || r % 4 == 0) && case_index != 4
                   ? -1 - (int64_t)(r % 3)
                   : (m > 0 ? (int64_t)((r >> 8) % (uint64_t)m) : 0);
  }
  if (case_index == 8) {
    index[700000] = m;
    index[900000] = m + 7;
  }
  const uint64_t r = jg_parity_random(ctx);
  jg_kernel_arg value;
  switch (dt) {
    case JG_DTYPE_FLOAT32:
    case JG_DTYPE_FLOAT64:
      value = jg_arg_f64((double)(int64_t)(r % 2001) / 8.0 - 125.0);
      break;
    case JG_DTYPE_BOOL:
      value = jg_arg_i64((int64_t)(r & 1));
      break;
    case JG_DTYPE_INT8:
    case JG_DTYPE_INT16:
    case JG_DTYPE_INT32:
    case JG_DTYPE_INT64:
      value = jg_arg_i64((int64_t)(r % 200) - 100);
      break;
    default:
      value = jg_arg_i64((int64_t)(r % 200));
      break;
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(index, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_i64(m);
  args[3] = jg_arg_array(content, m, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = value;
  args[5] = jg_arg_array(out, n + 3, dt, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
