/* ufunc_binary_parity.c: parity cases of kernel "ufunc_binary" (ufunc_binary.json), every
 * variant: one case per function number 1..22 (add .. bitwise_xor), with lengths cycling through
 * 0, 1, 32, 1024, 4096 and 2^20 + 1 and the operand shapes cycling through both arrays, x of
 * length 1 and y of length 1, over mixed values (negative values, integer extremes, zeros for
 * division by 0, NaN, +-inf, -0.0: jgk_parity_content); a function not defined for the variant
 * is the BAD_OP error on both sides (e.g. add with an R of bool, true_divide of integers); then
 * power with small non-negative exponents over 2^20 + 1 elements, power with a negative exponent
 * late in 2^20 + 1 (NEGATIVE_POWER for signed integers; another later), two negative exponents
 * in one warp, both operands of length 1, an operand of neither 1 nor n elements (BAD_LENGTH),
 * and an unknown function number. Float results compare within the spec's parity_rtol (pow and
 * atan2 differ by a few ulp between CUDA and the host's libm; the other functions are exact).
 * out has 3 extra elements. */
#include "jgk_parity.h"
#include "jgk_ufunc_binary.h"

#define N_CASES 28

/* Sets element i of an array of dtype dt to the small integer v (0 <= v <= 12). */
static void put_small(void *a, jg_dtype dt, int64_t i, int64_t v) {
  switch (dt) {
    case JG_DTYPE_BOOL: ((bool *)a)[i] = (v & 1) != 0; break;
    case JG_DTYPE_INT8: ((int8_t *)a)[i] = (int8_t)v; break;
    case JG_DTYPE_INT16: ((int16_t *)a)[i] = (int16_t)v; break;
    case JG_DTYPE_INT32: ((int32_t *)a)[i] = (int32_t)v; break;
    case JG_DTYPE_INT64: ((int64_t *)a)[i] = v; break;
    case JG_DTYPE_UINT8: ((uint8_t *)a)[i] = (uint8_t)v; break;
    case JG_DTYPE_UINT16: ((uint16_t *)a)[i] = (uint16_t)v; break;
    case JG_DTYPE_UINT32: ((uint32_t *)a)[i] = (uint32_t)v; break;
    case JG_DTYPE_UINT64: ((uint64_t *)a)[i] = (uint64_t)v; break;
    case JG_DTYPE_FLOAT32: ((float *)a)[i] = (float)v; break;
    default: ((double *)a)[i] = (double)v; break;
  }
}

/* Sets element i to -1 (signed integers and floats; other types keep their value). */
static void put_minus_one(void *a, jg_dtype dt, int64_t i) {
  switch (dt) {
    case JG_DTYPE_INT8: ((int8_t *)a)[i] = -1; break;
    case JG_DTYPE_INT16: ((int16_t *)a)[i] = -1; break;
    case JG_DTYPE_INT32: ((int32_t *)a)[i] = -1; break;
    case JG_DTYPE_INT64: ((int64_t *)a)[i] = -1; break;
    case JG_DTYPE_FLOAT32: ((float *)a)[i] = -1.0f; break;
    case JG_DTYPE_FLOAT64: ((double *)a)[i] = -1.0; break;
    default: break;
  }
}

jg_status jgk_ufunc_binary_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                  void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[6] = {0, 1, 32, 1024, 4096, (1 << 20) + 1};
  static const char *const names[N_CASES] = {
      "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
      "minimum", "maximum", "arctan2", "equal", "not_equal", "less", "less_equal", "greater",
      "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
      "bitwise_xor", "power, small exponents, 2^20 + 1",
      "power, a negative exponent late in 2^20 + 1, another later",
      "power, two negative exponents in one warp", "both operands of length 1",
      "an operand of neither 1 nor n elements", "unknown function 99"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "ufunc_binary parity: no case %d", case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype t = jg_parity_dtype(ctx, 3), r = jg_parity_dtype(ctx, 6);
  int64_t op = case_index + 1, n = sizes[case_index % 6], nx = n, ny = n;
  if (case_index < 22) {
    if (case_index % 3 == 1 && n > 0) nx = 1;
    if (case_index % 3 == 2 && n > 0) ny = 1;
  } else if (case_index <= 24) {
    op = 7;
    n = nx = ny = case_index == 24 ? 4096 : (1 << 20) + 1;
  } else if (case_index == 25) {
    op = 2;
    n = 1000;
    nx = ny = 1;
  } else if (case_index == 26) {
    op = 1;
    n = 100;
    ny = 37;
  } else {
    op = 99;
    n = nx = ny = 10;
  }
  void *x = jgk_parity_content(ctx, t, nx, JGK_VALUES_MIXED);
  void *y = jgk_parity_content(ctx, t, ny, JGK_VALUES_MIXED);
  void *out = jg_parity_alloc(ctx, n + 3, r);
  if (x == NULL || y == NULL || out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "ufunc_binary parity: out of memory");
  }
  if (case_index >= 22 && case_index <= 24) {
    for (int64_t i = 0; i < ny; ++i) put_small(y, t, i, (int64_t)(jg_parity_random(ctx) % 13));
    if (case_index == 23) {
      put_minus_one(y, t, 700000);
      put_minus_one(y, t, 900000);
    }
    if (case_index == 24) {
      put_minus_one(y, t, 1005);
      put_minus_one(y, t, 1003);
      put_minus_one(y, t, 3000);
    }
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(op);
  args[2] = jg_arg_i64(nx);
  args[3] = jg_arg_array(x, nx, t, (jg_device)JG_DEVICE_HOST_INIT);
  args[4] = jg_arg_i64(ny);
  args[5] = jg_arg_array(y, ny, t, (jg_device)JG_DEVICE_HOST_INIT);
  args[6] = jg_arg_array(out, n + 3, r, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
