/* option_index_parity.c: parity cases of kernel "option_index" (option_index.json), every mask
 * type: each case runs one kind (byte mask, bit mask LSB / MSB with a bit offset, index, none) at
 * lengths 0, 1, 32, 1024, 4096 and 2^20 + 1, with random masks (about one entry in three None),
 * shifts and both flag senses; and the data error: indexes past the content late in 2^20 + 1
 * entries, another later still. out and flags have 3 entries more than n, so a side that writes
 * past n shows up as a difference in the tail. */
#include "jgk_option_index.h"

#define N_CASES 10

jg_status jgk_option_index_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                  void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 1, 32, 1024, 4096, (1 << 20) + 1, 33, 4097, 1000,
                                          (1 << 20) + 1};
  static const int64_t kinds[N_CASES] = {0, 3, 0, 1, 2, 3, 1, 0, 4, 3};
  static const char *const names[N_CASES] = {"no entries",        "one entry, index",
                                             "32, byte mask",     "1024, bit mask LSB",
                                             "4096, bit mask MSB", "2^20 + 1, index",
                                             "33, bit mask LSB, bit offset 5", "4097, byte mask",
                                             "1000, no option",
                                             "2^20 + 1, index past the content late, another later"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "option_index parity: no case %d", case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const int64_t n = ns[case_index], kind = kinds[case_index];
  const int64_t bit_offset = case_index == 6 ? 5 : (case_index == 4 ? 3 : 0);
  const jg_dtype dt = jg_parity_dtype(ctx, 7); /* the mask, after m */
  const int64_t mlen = (kind == 1 || kind == 2) ? (bit_offset + n + 7) / 8 : n;
  void *mask = jg_parity_alloc(ctx, mlen, dt);
  int64_t *out = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  bool *flags = jg_parity_alloc(ctx, n + 3, JG_DTYPE_BOOL);
  if ((mlen > 0 && mask == NULL) || out == NULL || flags == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "option_index parity: out of memory");
  }
  for (int64_t i = 0; i < mlen; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    const int64_t v = (kind == 1 || kind == 2) ? (int64_t)(r & 0xff)
                      : (r % 3 == 0)           ? (kind == 3 ? -1 - (int64_t)(r % 7) : 0)
                                               : (int64_t)(1 + (r >> 8) % 100);
    switch (dt) {
      case JG_DTYPE_BOOL: ((bool *)mask)[i] = v != 0; break;
      case JG_DTYPE_INT8: ((int8_t *)mask)[i] = (int8_t)v; break;
      case JG_DTYPE_UINT8: ((uint8_t *)mask)[i] = (uint8_t)v; break;
      case JG_DTYPE_INT32: ((int32_t *)mask)[i] = (int32_t)v; break;
      default: ((int64_t *)mask)[i] = v; break;
    }
  }
  if (case_index == 9) { /* the values are at most 100: m = 101 makes exactly these two bad */
    for (int64_t i = 700001; i < n; i += 200000) {
      switch (dt) {
        case JG_DTYPE_BOOL: break; /* bool cannot hold 101: this variant has no bad entry */
        case JG_DTYPE_INT8: ((int8_t *)mask)[i] = 101; break;
        case JG_DTYPE_UINT8: ((uint8_t *)mask)[i] = 101; break;
        case JG_DTYPE_INT32: ((int32_t *)mask)[i] = 101; break;
        default: ((int64_t *)mask)[i] = 101; break;
      }
    }
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(kind);
  args[2] = jg_arg_i64((int64_t)(case_index & 1));
  args[3] = jg_arg_i64(bit_offset);
  args[4] = jg_arg_i64(case_index == 5 ? 1000 : 0);
  args[5] = jg_arg_i64((int64_t)((case_index >> 1) & 1));
  args[6] = jg_arg_i64(case_index == 1 ? 1 : 101); /* case 1: one index, bad when it is >= 1 */
  args[7] = jg_arg_array(mask, mlen, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[8] = jg_arg_array(out, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[9] = jg_arg_array(flags, n + 3, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
