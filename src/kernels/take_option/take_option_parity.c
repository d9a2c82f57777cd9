/* take_option_parity.c: parity cases of kernel "take_option" (take_option.json), every element
 * type: no positions, one None position, 32 from 32, 1024 from 4096 with a third None, 4096
 * from one element, 2^20 + 1 positions from 1000 elements and 1000 from 2^20 + 1, all None over
 * empty content; and the data error: an index past the content late in 2^20 + 1 positions with
 * another later, two in one warp with a later one (the device's atomic minimum must find the
 * smallest), INT64_MAX. content holds random bits (0/1 for bool); out has 3 extra elements. */
#include <string.h>

#include "jgk_parity.h"
#include "jgk_take_option.h"

#define N_CASES 10

jg_status jgk_take_option_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                 void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 1, 32, 1024, 4096, (1 << 20) + 1, 1000, 50,
                                      (1 << 20) + 1, 4096};
  static const int64_t ms[N_CASES] = {0, 3, 32, 4096, 1, 1000, (1 << 20) + 1, 0, 777, 100};
  static const char *const names[N_CASES] = {
      "nothing",      "one None position",       "32 from 32",
      "1024 from 4096, a third None", "4096 from one element", "2^20 + 1 from 1000",
      "1000 from 2^20 + 1", "all None over empty content",
      "past the content late in 2^20 + 1 positions, another later",
      "two past the content in one warp, INT64_MAX later"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "take_option parity: no case %d", case_index);
  }
  const int64_t n = ns[case_index], m = ms[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 2);
  const int64_t isz = jg_dtype_itemsize(dt);
  unsigned char *content = jg_parity_alloc(ctx, m, dt);
  int64_t *index = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  void *out = jg_parity_alloc(ctx, n + 3, dt);
  if (content == NULL || index == NULL || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "take_option parity: out of memory");
  }
  for (int64_t b = 0; b < m * isz; b += 8) {
    const uint64_t r = jg_parity_random(ctx);
    const int64_t left = m * isz - b;
    memcpy(content + b, &r, (size_t)(left < 8 ? left : 8));
  }
  if (dt == JG_DTYPE_BOOL) {
    for (int64_t j = 0; j < m; ++j) content[j] &= 1;
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    index[i] = m > 0 && r % 3 != 0 ? (int64_t)(r % (uint64_t)m) : -1 - (int64_t)(r % 5);
  }
  if (case_index == 1) index[0] = -1;
  if (case_index == 8) {
    index[700000] = m;
    index[900000] = m + 5;
  }
  if (case_index == 9) {
    index[1005] = m + 1;
    index[1003] = m;
    index[3000] = INT64_MAX;
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(m);
  args[2] = jg_arg_array(content, m, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(index, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_array(out, n + 3, dt, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
