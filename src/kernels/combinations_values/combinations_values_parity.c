/* combinations_values_parity.c: parity cases of kernel "combinations_values", every variant.
 *
 * Lists as offsets (starts = offsets[0..n), stops = offsets[1..n]) over a content of mixed
 * values (jgk_parity_content): no lists, all-empty lists, a last list empty, offsets not at 0,
 * one list, 32, 1024, 4096 and 2^20 + 1 lists of random lengths (many shorter than k), one very
 * long list (3001 items, k = 2: 4.5 million pairs) between empty ones, one list of 150 items with
 * k = 4 and replacement, random lists with k = 1; then starts/stops of jgk_parity_lists_make:
 * permuted and overlapping lists, and bad lists (past m, before 0, stops < starts), which count
 * 0. k runs over 1..4, replacement alternates, tiles of 1024, 1, 32, 1000 and 7 lists. The tiles'
 * first positions and the total are the lists' counts summed and scanned here with plain loops.
 * offsets and out have 3 elements more than needed, so a side that writes past them shows up. */
#include "combinations_values/jgk_comb_values.h"
#include "jgk_combinations_values.h"
#include "jgk_parity.h"

#define N_CASES 14

static jg_status oom(jg_error *err) {
  return jg_error_set(err, JG_ENOMEM, -1, "combinations_values parity: out of memory");
}

jg_status jgk_combinations_values_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                         void *user, jg_error *err) {
  (void)user;
  static const int64_t ns[12] = {0, 1000, 33, 32, 1, 32, 1024, 4096, (1 << 20) + 1, 3, 1, 777};
  static const int64_t ks[N_CASES] = {2, 3, 2, 4, 3, 2, 3, 4, 2, 2, 4, 1, 2, 2};
  static const int64_t tiles[5] = {1024, 1, 32, 1000, 7};
  static const char *const names[12] = {"no lists",
                                         "all lists empty",
                                         "last list empty",
                                         "offsets not at 0",
                                         "one list",
                                         "32 lists",
                                         "1024 lists",
                                         "4096 lists",
                                         "2^20 + 1 lists",
                                         "one very long list between empty ones",
                                         "150 items, k = 4 with replacement",
                                         "random lists, k = 1"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "combinations_values parity: no case %d",
                        case_index);
  }
  const jg_dtype dt = jg_parity_dtype(ctx, 1), vt = jg_parity_dtype(ctx, 4);
  const int64_t k = ks[case_index];
  const int64_t replacement = case_index == 9 ? 0 : case_index == 10 ? 1 : case_index % 2;
  const int64_t tile = case_index == 8 ? 1024 : tiles[case_index % 5];
  int64_t n = 0, m = 0;
  void *starts = NULL, *stops = NULL;
  const int64_t isz = jg_dtype_itemsize(dt);
  if (case_index >= 12) {
    jgk_parity_lists l;
    JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, case_index == 12 ? 6 : 10, dt, &l, err));
    jg_parity_case_name(ctx, l.name);
    n = l.n;
    m = l.m;
    starts = l.starts;
    stops = l.stops;
  } else {
    n = ns[case_index];
    jg_parity_case_name(ctx, names[case_index]);
    void *offs = jg_parity_alloc(ctx, n + 1, dt);
    if (offs == NULL) return oom(err);
    switch (case_index) {
      case 0:
        jgk_parity_put_index(offs, dt, 0, 9);
        break;
      case 1:
        for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(offs, dt, i, 5);
        break;
      case 2:
        jgk_parity_random_offsets(ctx, offs, dt, n, 0, 0.1, 1, 6);
        jgk_parity_put_index(offs, dt, n, jgk_parity_get_index(offs, dt, n - 1));
        break;
      case 3:
        jgk_parity_random_offsets(ctx, offs, dt, n, 1000, 0.1, 0, 9);
        break;
      case 4:
        jgk_parity_put_index(offs, dt, 0, 2);
        jgk_parity_put_index(offs, dt, 1, 9);
        break;
      case 7:
        jgk_parity_random_offsets(ctx, offs, dt, n, 17, 0.2, 0, 8);
        break;
      case 8:
        jgk_parity_random_offsets(ctx, offs, dt, n, 3, 0.2, 0, 6);
        break;
      case 9:
        jgk_parity_put_index(offs, dt, 0, 4);
        jgk_parity_put_index(offs, dt, 1, 4);
        jgk_parity_put_index(offs, dt, 2, 4 + 3001);
        jgk_parity_put_index(offs, dt, 3, 4 + 3001);
        break;
      case 10:
        jgk_parity_put_index(offs, dt, 0, 7);
        jgk_parity_put_index(offs, dt, 1, 157);
        break;
      default:
        jgk_parity_random_offsets(ctx, offs, dt, n, (int64_t)(jg_parity_random(ctx) % 100), 0.2,
                                  0, 12);
        break;
    }
    m = jgk_parity_get_index(offs, dt, n) + 2;
    starts = offs;
    stops = (char *)offs + isz;
  }
  const int64_t clen = m > 0 ? m : 0;
  void *content = jgk_parity_content(ctx, vt, clen, JGK_VALUES_MIXED);
  const int64_t ntiles = n > 0 ? (n - 1) / tile + 1 : 0;
  int64_t *tile_offsets = jg_parity_alloc(ctx, ntiles + 1, JG_DTYPE_INT64);
  int64_t *offsets = jg_parity_alloc(ctx, n + 4, JG_DTYPE_INT64);
  if (content == NULL || tile_offsets == NULL || offsets == NULL) return oom(err);
  int64_t total = 0;
  for (int64_t t = 0; t < ntiles; ++t) {
    tile_offsets[t] = total;
    for (int64_t i = t * tile; i < n && i < (t + 1) * tile; ++i) {
      total += jgk_comb_list_count(jgk_parity_get_index(starts, dt, i),
                                   jgk_parity_get_index(stops, dt, i), m, k, replacement);
    }
  }
  tile_offsets[ntiles] = total;
  void *out = jg_parity_alloc(ctx, k * total + 3, vt);
  if (out == NULL) return oom(err);
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(starts, n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(stops, n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_i64(m);
  args[4] = jg_arg_array(content, clen, vt, (jg_device)JG_DEVICE_HOST_INIT);
  args[5] = jg_arg_i64(k);
  args[6] = jg_arg_i64(replacement);
  args[7] = jg_arg_i64(tile);
  args[8] = jg_arg_i64(ntiles);
  args[9] = jg_arg_array(tile_offsets, ntiles + 1, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[10] = jg_arg_i64(total);
  args[11] = jg_arg_array(offsets, n + 4, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[12] = jg_arg_array(out, k * total + 3, vt, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
