/* list_mask_parity.c: parity cases of kernel "list_mask" (list_mask.json): no lists, one list
 * (with more tiles than needed), 1000 empty lists, a last list empty, offsets not at 0 (another
 * start in x and in the mask, content past the lists), 32 / 1024 / 4096 lists (some of
 * 500..2000 elements: tiles of several chunks), 2^20 + 1 Poisson(3) lists, one list of 2^20 + 5
 * elements between empty ones (tile boundaries inside it), lists given as starts/stops anywhere
 * in their contents (overlapping, empty ones outside), all-false and all-true masks, unequal
 * counts at several lists, a list past its content, and a capacity below the kept total. */
#include "jgk_list_mask.h"
#include "jgk_parity.h"

#define N_CASES 16
#define TILE 512

static const char *const kNames[N_CASES] = {
    "no lists",          "one list, spare tiles", "1000 empty lists",
    "a last list empty", "offsets not at 0",      "32 lists",
    "1024 lists",        "4096 lists, some long", "2^20 + 1 Poisson(3) lists",
    "one very long list", "starts/stops anywhere", "all-false mask",
    "all-true mask",     "unequal counts",        "a list past its content",
    "capacity below the total"};

jg_status jgk_list_mask_parity(jg_parity_ctx *ctx, int c, jg_kernel_arg *args, void *user,
                               jg_error *err) {
  (void)user;
  static const int64_t sizes[N_CASES] = {0,    1,           1000, 33,   777,  32,   1024, 4096,
                                         (1 << 20) + 1, 3, 5000, 4096, 4096, 2000, 1000, 3000};
  jg_parity_case_name(ctx, kNames[c]);
  const int64_t n = sizes[c];
  const jg_dtype ti = jg_parity_dtype(ctx, 1), tt = jg_parity_dtype(ctx, 4);
  const int64_t isz = jg_dtype_itemsize(tt), iisz = jg_dtype_itemsize(ti);
  int64_t *cx = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *cm = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  if (cx == NULL || cm == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  /* the counts */
  for (int64_t i = 0; i < n; ++i) {
    int64_t k;
    switch (c) {
      case 2:
        k = 0;
        break;
      case 3:
        k = i + 1 == n ? 0 : jgk_parity_uniform_in(ctx, 0, 40);
        break;
      case 5:
      case 6:
        k = jgk_parity_uniform_in(ctx, 0, 64);
        break;
      case 7:
        k = jg_parity_uniform(ctx) < 0.02 ? jgk_parity_uniform_in(ctx, 500, 2000)
                                          : jgk_parity_poisson(ctx, 3.0);
        break;
      case 9:
        k = i == 1 ? (1 << 20) + 5 : 0;
        break;
      case 1:
        k = 7;
        break;
      default:
        k = jgk_parity_poisson(ctx, 3.0);
        break;
    }
    cx[i] = k;
    cm[i] = k;
  }
  if (c == 13) { /* unequal counts: the smallest of these lists must be reported */
    cm[1500] += 1;
    cm[700] += 2;
    cm[1999] = cm[1999] > 0 ? cm[1999] - 1 : 1;
  }
  if (c == 14) cm[500] += 1;
  /* starts and stops */
  const bool anywhere = c == 10;
  const int64_t xbase = c == 4 ? 100 : 0, mbase = c == 4 ? 7 : 0;
  int64_t sx = 0, sm = 0;
  for (int64_t i = 0; i < n; ++i) {
    sx += cx[i];
    sm += cm[i];
  }
  const int64_t extra = c == 4 ? 13 : anywhere ? 50 : 0;
  const int64_t x_length = xbase + sx + extra, mask_length = mbase + sm + extra;
  void *xs = jg_parity_alloc(ctx, n + 1, ti), *xe = NULL, *ms = jg_parity_alloc(ctx, n + 1, ti),
       *me = NULL;
  if (xs == NULL || ms == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  if (anywhere) {
    xe = jg_parity_alloc(ctx, n, ti);
    me = jg_parity_alloc(ctx, n, ti);
    if (xe == NULL || me == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
    for (int64_t i = 0; i < n; ++i) {
      int64_t a = jgk_parity_uniform_in(ctx, 0, x_length - cx[i]);
      int64_t b = jgk_parity_uniform_in(ctx, 0, mask_length - cm[i]);
      if (cx[i] == 0 && i % 7 == 0) a = i % 2 ? -5 : x_length + 100; /* empty, anywhere */
      if (cm[i] == 0 && i % 5 == 0) b = mask_length + 3;
      jgk_parity_put_index(xs, ti, i, a);
      jgk_parity_put_index(xe, ti, i, a + cx[i]);
      jgk_parity_put_index(ms, ti, i, b);
      jgk_parity_put_index(me, ti, i, b + cm[i]);
    }
  } else {
    int64_t a = xbase, b = mbase;
    jgk_parity_put_index(xs, ti, 0, a);
    jgk_parity_put_index(ms, ti, 0, b);
    for (int64_t i = 0; i < n; ++i) {
      a += cx[i];
      b += cm[i];
      jgk_parity_put_index(xs, ti, i + 1, a);
      jgk_parity_put_index(ms, ti, i + 1, b);
    }
    if (c == 14) /* list 300 of x leaves its content (its successors shift with it) */
      for (int64_t i = 301; i <= n; ++i)
        jgk_parity_put_index(xs, ti, i, jgk_parity_get_index(xs, ti, i) + x_length);
    xe = (char *)xs + iisz;
    me = (char *)ms + iisz;
  }
  /* contents */
  unsigned char *x = jg_parity_alloc(ctx, x_length, tt);
  bool *mask = jg_parity_alloc(ctx, mask_length, JG_DTYPE_BOOL);
  if (x == NULL || mask == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  for (int64_t j = 0; j < x_length * isz; ++j) x[j] = (unsigned char)jg_parity_random(ctx);
  const double p_true = c == 11 ? 0.0 : c == 12 ? 1.0 : c == 9 ? 0.3 : 0.6;
  for (int64_t j = 0; j < mask_length; ++j) mask[j] = jg_parity_uniform(ctx) < p_true;
  int64_t kept = 0;
  for (int64_t j = 0; j < mask_length; ++j) kept += mask[j];
  const int64_t tiles = c == 1 ? 3 : (n + TILE - 1) / TILE;
  const int64_t capacity = c == 15 ? kept / 4 : anywhere ? kept : sx;
  int64_t *offsets = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  void *out = jg_parity_alloc(ctx, capacity, tt);
  int64_t *state = jg_parity_alloc(ctx, tiles + 4, JG_DTYPE_INT64);
  if (offsets == NULL || out == NULL || state == NULL)
    return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  const jg_device h = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(xs, n, ti, h);
  args[2] = jg_arg_array(xe, n, ti, h);
  args[3] = jg_arg_i64(x_length);
  args[4] = jg_arg_array(x, x_length, tt, h);
  args[5] = jg_arg_array(ms, n, ti, h);
  args[6] = jg_arg_array(me, n, ti, h);
  args[7] = jg_arg_i64(mask_length);
  args[8] = jg_arg_array(mask, mask_length, JG_DTYPE_BOOL, h);
  args[9] = jg_arg_i64(tiles);
  args[10] = jg_arg_i64(capacity);
  args[11] = jg_arg_array(offsets, n + 1, JG_DTYPE_INT64, h);
  args[12] = jg_arg_array(out, capacity, tt, h);
  args[13] = jg_arg_array(state, tiles + 4, JG_DTYPE_INT64, h);
  return JG_OK;
}
