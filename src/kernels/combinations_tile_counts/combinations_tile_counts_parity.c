/* combinations_tile_counts_parity.c: parity cases of kernel "combinations_tile_counts", both
 * index types.
 *
 * Case c runs list layout c of jgk_parity_lists_make (no lists, empty lists starting anywhere, a
 * last empty list, offsets not at 0, permuted and overlapping lists, 32 to 2^20 + 1 lists of
 * Poisson-like lengths, one list of 2^22 + 3 elements, bad lists: past m, before 0, stops <
 * starts, a negative m) with k = 1 + c % 4, replacement on odd cases and tiles of 1024, 1, 32,
 * 1000 and 7 lists in turn; the list of 2^22 + 3 elements (case 13) runs with k = 4, whose count
 * overflows int64 (-1). Case 0 also asks for 3 tiles of no lists (zeros). out has 3 elements
 * more than ntiles, so a side that writes past ntiles shows up in the tail. */
#include "jgk_combinations_tile_counts.h"
#include "jgk_parity.h"

jg_status jgk_combinations_tile_counts_parity(jg_parity_ctx *ctx, int case_index,
                                              jg_kernel_arg *args, void *user, jg_error *err) {
  (void)user;
  static const int64_t tiles[5] = {1024, 1, 32, 1000, 7};
  const jg_dtype dt = jg_parity_dtype(ctx, 1);
  jgk_parity_lists l;
  JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, case_index, dt, &l, err));
  jg_parity_case_name(ctx, l.name);
  const int64_t tile = tiles[case_index % 5];
  const int64_t ntiles = case_index == 0 ? 3 : (l.n + tile - 1) / tile;
  void *out = jg_parity_alloc(ctx, ntiles + 3, JG_DTYPE_INT64);
  if (out == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "combinations_tile_counts parity: out of memory");
  }
  const int64_t k = case_index == 13 ? 4 : 1 + case_index % 4;
  args[0] = jg_arg_i64(l.n);
  args[1] = jg_arg_array(l.starts, l.n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[2] = jg_arg_array(l.stops, l.n, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_i64(l.m);
  args[4] = jg_arg_i64(k);
  args[5] = jg_arg_i64(case_index % 2);
  args[6] = jg_arg_i64(tile);
  args[7] = jg_arg_i64(ntiles);
  args[8] = jg_arg_array(out, ntiles + 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
