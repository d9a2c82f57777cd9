/* option_carry_parity.c: parity cases of kernel "option_carry" (option_carry.json), every mask
 * type. Positions and their carry (random entries, about a quarter None, or a range base + i):
 * no positions, one, 32, 1024, 4096 and 2^20 + 1 positions, over option nodes of the kinds the
 * mask type allows (bool: byte-masked, none; int8 and uint8: byte-masked, bit-masked with a bit
 * offset in either bit order, none; int32 and int64: indexed, none), each op (0: AND the
 * validity into `valid`; 1: write the carry), valid_when true and false; and the data errors: a
 * carry past the node late in 2^20 + 1 positions with another later (OUT_OF_RANGE), an index
 * past the content (BAD_INDEX) two in one warp. valid starts random; out has 3 extra elements. */
#include "jgk_option_carry.h"
#include "jgk_parity.h"

#define N_CASES 14

jg_status jgk_option_carry_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                  void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0,    1,    32,   1024, 4096, (1 << 20) + 1, 33,
                                         1024, 4096, 4096, 5000, 32,   (1 << 20) + 1, 4096};
  static const char *const names[N_CASES] = {
      "no positions", "one", "32", "1024", "4096", "2^20 + 1", "33, a range",
      "1024, a range with a base", "4096, valid_when false", "4096, node of one entry",
      "5000 over an empty node, all None", "32 all valid",
      "a carry past the node late in 2^20 + 1, another later",
      "an index past the content, two in one warp"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "option_carry parity: no case %d",
                        case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype mt = jg_parity_dtype(ctx, 10);
  const bool index_type = mt == JG_DTYPE_INT32 || mt == JG_DTYPE_INT64;
  const int64_t op = case_index % 2 == 0 || case_index == 13 ? 1 : 0;
  int64_t kind = index_type ? 2 : case_index % 3 == 0 ? 0 : case_index % 3 == 1 ? 1 : 3;
  if (mt == JG_DTYPE_BOOL && kind == 1) kind = 0;
  if (index_type && case_index % 5 == 4) kind = 3;
  if (case_index == 13) kind = index_type ? 2 : kind;
  const int64_t valid_when = case_index == 8 ? 0 : 1;
  const int64_t bit_offset = kind == 1 ? case_index % 8 : 0;
  const int64_t lsb = case_index % 4 < 2;
  const bool identity = case_index == 6 || case_index == 7;
  const int64_t base = case_index == 7 ? 17 : 0;
  int64_t length = case_index == 9 ? 1 : case_index == 10 ? 0 : n + 50;
  const int64_t m = 1000;
  const int64_t mlen = kind == 1 ? (bit_offset + length + 7) / 8 : length;
  int64_t *carry = jg_parity_alloc(ctx, identity ? 0 : n, JG_DTYPE_INT64);
  void *mask = jg_parity_alloc(ctx, mlen, mt);
  bool *valid = jg_parity_alloc(ctx, n, JG_DTYPE_BOOL);
  int64_t *out = jg_parity_alloc(ctx, n + 3, JG_DTYPE_INT64);
  if (carry == NULL || mask == NULL || valid == NULL || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "option_carry parity: out of memory");
  }
  for (int64_t i = 0; i < n && !identity; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    carry[i] = length > 0 && r % 4 != 0 ? (int64_t)((r >> 8) % (uint64_t)length) : -1;
  }
  for (int64_t i = 0; i < n; ++i) {
    valid[i] = case_index == 11 || case_index == 10 ? true : (jg_parity_random(ctx) % 5) != 0;
  }
  for (int64_t j = 0; j < mlen; ++j) {
    const uint64_t r = jg_parity_random(ctx);
    switch (mt) {
      case JG_DTYPE_BOOL: ((bool *)mask)[j] = (r & 1) != 0; break;
      case JG_DTYPE_INT8: ((int8_t *)mask)[j] = (int8_t)(r & 0xff); break;
      case JG_DTYPE_UINT8: ((uint8_t *)mask)[j] = (uint8_t)(r & 0xff); break;
      case JG_DTYPE_INT32: ((int32_t *)mask)[j] = r % 4 == 0 ? -1 : (int32_t)((r >> 8) % m); break;
      default: ((int64_t *)mask)[j] = r % 4 == 0 ? -(int64_t)(r % 7) - 1 : (int64_t)((r >> 8) % m);
    }
  }
  if (case_index == 12) {
    carry[700000] = length;
    carry[900000] = length + 9;
    valid[700000] = valid[900000] = true;
  }
  if (case_index == 13) {
    /* entries 5 and 3 of the node index past the content; positions 1005 and 1003 use them */
    if (mt == JG_DTYPE_INT32) {
      ((int32_t *)mask)[5] = (int32_t)m;
      ((int32_t *)mask)[3] = (int32_t)m + 4;
    } else if (mt == JG_DTYPE_INT64) {
      ((int64_t *)mask)[5] = m;
      ((int64_t *)mask)[3] = m + 4;
    }
    carry[1005] = 5;
    carry[1003] = 3;
    carry[3000] = length;
    valid[1005] = valid[1003] = valid[3000] = true;
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(op);
  args[2] = jg_arg_i64(kind);
  args[3] = jg_arg_i64(valid_when);
  args[4] = jg_arg_i64(bit_offset);
  args[5] = jg_arg_i64(lsb);
  args[6] = jg_arg_i64(identity);
  args[7] = jg_arg_i64(base);
  args[8] = jg_arg_array(carry, identity ? 0 : n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[9] = jg_arg_i64(length);
  args[10] = jg_arg_array(mask, mlen, mt, (jg_device)JG_DEVICE_HOST_INIT);
  args[11] = jg_arg_i64(m);
  args[12] = jg_arg_array(valid, n, JG_DTYPE_BOOL, (jg_device)JG_DEVICE_HOST_INIT);
  args[13] = jg_arg_array(out, n + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
