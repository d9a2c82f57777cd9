/* list_merge_pass_parity.c: parity cases of kernel "list_merge_pass" (list_merge_pass.json),
 * every element type.
 *
 * A pass needs runs that are already sorted, so each case builds its content run by run: width 1
 * cases take random values (every run of one entry is sorted) with ties, NaN (floats) and None
 * (through optindex); wider cases write each run non-decreasing (non-increasing when descending)
 * with every value twice (ties: stability), then NaN, then None at the run's end. in_perm is the
 * identity (positions 0, 1, ... in every list). Lists start at random positions of the content
 * (not at 0). Shapes: no lists, all lists empty, a last list empty, one list, 32, 1024 and 4096
 * lists, 2^20 + 1 lists of Poisson-like lengths, one list of 2^22 + 3 entries merged at width 2^21
 * (two long runs), both directions, with and without the option, local and global output.
 * out_perm has 3 entries more than total. */
#include <math.h>

#include "jgk_list_merge_pass.h"
#include "jgk_parity.h"

#define N_CASES 10

static void put(void *content, jg_dtype dt, int64_t g, double v) {
  switch (dt) {
    case JG_DTYPE_BOOL: ((bool *)content)[g] = v != 0.0; break;
    case JG_DTYPE_INT8: ((int8_t *)content)[g] = (int8_t)v; break;
    case JG_DTYPE_INT16: ((int16_t *)content)[g] = (int16_t)v; break;
    case JG_DTYPE_INT32: ((int32_t *)content)[g] = (int32_t)v; break;
    case JG_DTYPE_INT64: ((int64_t *)content)[g] = (int64_t)v; break;
    case JG_DTYPE_UINT8: ((uint8_t *)content)[g] = (uint8_t)v; break;
    case JG_DTYPE_UINT16: ((uint16_t *)content)[g] = (uint16_t)v; break;
    case JG_DTYPE_UINT32: ((uint32_t *)content)[g] = (uint32_t)v; break;
    case JG_DTYPE_UINT64: ((uint64_t *)content)[g] = (uint64_t)v; break;
    case JG_DTYPE_FLOAT32: ((float *)content)[g] = (float)v; break;
    default: ((double *)content)[g] = v; break;
  }
}

jg_status jgk_list_merge_pass_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                     void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[N_CASES] = {0, 1000, 33, 1, 32, 1024, 4096, (1 << 20) + 1, 3, 4096};
  static const int64_t widths[N_CASES] = {1, 1, 2, 4, 1, 8, 32, 1, (int64_t)1 << 21, 1024};
  static const char *const names[N_CASES] = {
      "no lists", "all lists empty", "last list empty, width 2", "one list, width 4",
      "32 lists, width 1", "1024 lists, width 8", "4096 lists, width 32", "2^20 + 1 lists",
      "one list of 2^22 + 3, width 2^21", "4096 lists of 500..2000, width 1024"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "list_merge_pass parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 5);
  const bool is_float = dt == JG_DTYPE_FLOAT32 || dt == JG_DTYPE_FLOAT64;
  const int64_t n = ns[case_index], width = widths[case_index];
  const int64_t descending = (int64_t)((case_index + (int)jg_parity_variant(ctx)) & 1);
  const int64_t has_option = (int64_t)(case_index % 3 != 0);
  const int64_t global = (int64_t)(case_index % 4 == 1 || case_index == 8);
  int64_t *offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *starts = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  if (offsets == NULL || (n > 0 && starts == NULL)) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_merge_pass parity: out of memory");
  }
  if (case_index == 1) {
    for (int64_t i = 0; i <= n; ++i) offsets[i] = 0;
  } else if (case_index == 8) {
    offsets[0] = offsets[1] = 0;
    offsets[2] = offsets[3] = ((int64_t)1 << 22) + 3;
  } else if (case_index == 9) {
    jgk_parity_random_offsets(ctx, offsets, JG_DTYPE_INT64, n, 0, 0.5, 500, 2000);
  } else {
    jgk_parity_random_offsets(ctx, offsets, JG_DTYPE_INT64, n, 0, 0.1, 1, 2 * width + 3);
    if (case_index == 2) offsets[n] = offsets[n - 1];
  }
  const int64_t total = offsets[n];
  /* Content: the lists at increasing starts with gaps of 0..3 unreachable entries. */
  int64_t m = 5;
  for (int64_t i = 0; i < n; ++i) {
    m += (int64_t)(jg_parity_random(ctx) % 4);
    starts[i] = m;
    m += offsets[i + 1] - offsets[i];
  }
  void *content = jg_parity_alloc(ctx, m, dt);
  int64_t *optindex = jg_parity_alloc(ctx, m, JG_DTYPE_INT64);
  int64_t *in_perm = jg_parity_alloc(ctx, total, JG_DTYPE_INT64);
  int64_t *out_perm = jg_parity_alloc(ctx, total + 3, JG_DTYPE_INT64);
  if (content == NULL || optindex == NULL || (total > 0 && in_perm == NULL) || out_perm == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "list_merge_pass parity: out of memory");
  }
  for (int64_t g = 0; g < m; ++g) {
    put(content, dt, g, (double)(jg_parity_random(ctx) % 7));
    optindex[g] = g;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = offsets[i + 1] - offsets[i];
    for (int64_t l = 0; l < len; ++l) in_perm[offsets[i] + l] = l;
    for (int64_t lo = 0; lo < len; lo += width) {
      const int64_t run = lo + width < len ? width : len - lo;
      const uint64_t r = jg_parity_random(ctx);
      const int64_t c = (int64_t)(r % 50);
      /* Tail of the run: up to 2 NaN (floats) then up to 2 None (with the option). */
      const int64_t nones = has_option != 0 ? (int64_t)((r >> 8) % 3) : 0;
      const int64_t nans = is_float ? (int64_t)((r >> 16) % 3) : 0;
      for (int64_t p = 0; p < run; ++p) {
        const int64_t g = starts[i] + lo + p;
        double v;
        if (width == 1) {
          const uint64_t q = jg_parity_random(ctx);
          v = (double)(q % 13) - 4.0;
          if (dt == JG_DTYPE_BOOL) v = (double)(q & 1);
          if (dt >= JG_DTYPE_UINT8 && dt <= JG_DTYPE_UINT64) v += 4.0;
          if (is_float && q % 11 == 0) v = NAN;
          if (has_option != 0 && q % 7 == 0) optindex[g] = -1;
        } else {
          const int64_t k = descending != 0 ? run - 1 - p : p;
          v = (double)(c + k / 2);
          if (v > 100.0) v = 100.0;
          if (dt == JG_DTYPE_BOOL) v = (double)(k >= run / 2);
          if (p >= run - nones) {
            optindex[g] = -1;
          } else if (p >= run - nones - nans) {
            v = NAN;
          }
        }
        put(content, dt, g, v);
      }
    }
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(starts, n, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(offsets, n + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_i64(total);
  args[4] = jg_arg_i64(width);
  args[5] = jg_arg_array(content, m, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[6] = jg_arg_i64(has_option);
  args[7] = jg_arg_array(optindex, m, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[8] = jg_arg_i64(descending);
  args[9] = jg_arg_i64(global);
  args[10] = jg_arg_array(in_perm, total, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[11] = jg_arg_array(out_perm, total + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
