/* take_parity.c: parity cases of kernel "take" (take.json), every element type.
 *
 * Shapes: no positions (with and without content), one position with index -1, 32 from 32, 1024
 * from 4096, 4096 from a single element, 2^20 + 1 positions from 1000 elements and 1000 from
 * 2^20 + 1 (with the extreme indices -m and m - 1), indices drawn over all of [-m, m); and the
 * data error: an out-of-range index late in 2^20 + 1 positions with another later still, two
 * within one warp with a later one (the device's atomic minimum must find the smallest), empty
 * content, INT64_MIN and INT64_MAX as indices, and a negative m. content holds random bits (0 or
 * 1 for bool), so every byte of an element must be copied; out has 3 elements more than n, so a
 * side that writes past n shows up as a difference in the tail. */
#include <string.h>

#include "jgk_take.h"

#define N_CASES 13

/* Random indices in [-m, m) for positions [from, to). */
static void random_indices(jg_parity_ctx *ctx, int64_t *index, int64_t from, int64_t to,
                           int64_t m) {
  for (int64_t i = from; i < to; ++i)
    index[i] = (int64_t)(jg_parity_random(ctx) % (uint64_t)(2 * m)) - m;
}

jg_status jgk_take_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                          jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {
      0, 0, 1, 32, 1024, 4096, (1 << 20) + 1, 1000, (1 << 20) + 1, 4096, 5, 64, 3};
  static const int64_t ms[N_CASES] = {0,   5,   1, 32,  4096, 1, 1000, (1 << 20) + 1,
                                      777, 100, 0, 100, -4};
  static const char *const names[N_CASES] = {
      "nothing",
      "no positions, content of 5",
      "one position, index -1",
      "32 from 32",
      "1024 from 4096",
      "4096 from one element",
      "2^20 + 1 from 1000",
      "1000 from 2^20 + 1, extreme indices",
      "out of range late in 2^20 + 1 positions, another later",
      "two out of range in one warp, another later",
      "empty content",
      "INT64_MIN and INT64_MAX as indices",
      "negative m"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "take parity: no case %d", case_index);
  }
  const int64_t n = ns[case_index], m = ms[case_index];
  const int64_t m_len = m > 0 ? m : 0;
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 2);
  const int64_t isz = jg_dtype_itemsize(dt);
  unsigned char *content = jg_parity_alloc(ctx, m_len, dt);
  int64_t *index = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  void *out = jg_parity_alloc(ctx, n + 3, dt);
  if (content == NULL || index == NULL || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "take parity: out of memory");
  }
  for (int64_t b = 0; b < m_len * isz; b += 8) {
    const uint64_t r = jg_parity_random(ctx);
    const int64_t left = m_len * isz - b;
    memcpy(content + b, &r, (size_t)(left < 8 ? left : 8));
  }
  if (dt == JG_DTYPE_BOOL) {
    for (int64_t j = 0; j < m_len; ++j) content[j] &= 1;
  }
  if (m > 0) random_indices(ctx, index, 0, n, m);
  switch (case_index) {
    case 2:
      index[0] = -1;
      break;
    case 5:
      for (int64_t i = 0; i < n; ++i) index[i] = -(int64_t)(jg_parity_random(ctx) & 1);
      break;
    case 7:
      index[0] = -m;
      index[1] = m - 1;
      index[n - 1] = -1;
      index[n - 2] = 0;
      break;
    case 8:
      index[700000] = m;
      index[900000] = -m - 1;
      break;
    case 9:
      index[1005] = m;
      index[1003] = -m - 1;
      index[3000] = INT64_MAX;
      break;
    case 10:
    case 12:
      for (int64_t i = 0; i < n; ++i) index[i] = 0;
      break;
    case 11:
      index[0] = -m;
      index[1] = m - 1;
      index[40] = INT64_MIN;
      index[50] = INT64_MAX;
      break;
    default:
      break;
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(m);
  args[2] = jg_arg_array(content, m_len, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(index, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_array(out, n + 3, dt, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
