/* ufunc_binary_lists_parity.c: parity cases of kernel "ufunc_binary_lists"
 * (ufunc_binary_lists.json), every variant, the function chosen per case among the simple
 * functions the variant defines (so every one runs somewhere), values mixed (negative values,
 * integer extremes, NaN, +-inf, -0.0: jgk_parity_content), swap alternating:
 *   0-5    mode 0 (two arrays) over 0, 1, 32, 1024, 4096 and 2^20 + 1 elements;
 *   6-11   mode 1 (a scalar by value: a float with a fraction, a negative integer's bits, or
 *          true) over the same lengths, with offsets for info[0..1];
 *   12-23  mode 2 (one value per list): no lists; 1000 empty lists; 32 lists with a last one
 *          empty; 1024 lists whose offsets start at 17 over a longer content; one list of one
 *          element; 4096 lists of 0..40; 2^20 + 1 lists of 0..6 (Poisson-like); one list of
 *          2^22 + 3 elements between empty ones; and the bad lists, each written around: a last
 *          list past the content (nu), lists past the output's capacity n, more lists than
 *          values (nv), a last offset that decreases.
 * out has 3 extra elements (a side writing past its positions shows as a difference); info is
 * {7, 7, -1} before the call. */
#include "jgk_parity.h"
#include "jgk_ufunc_binary_lists.h"

#define N_CASES 24

static bool is_float_dt(jg_dtype d) { return d == JG_DTYPE_FLOAT32 || d == JG_DTYPE_FLOAT64; }

/* ufunc_binary's rule of which functions a variant defines, for the simple ones. */
static bool defined_for(int64_t op, jg_dtype t, jg_dtype r) {
  const bool cmp_logic = op >= 11 && op <= 19;
  const bool tb = t == JG_DTYPE_BOOL, rb = r == JG_DTYPE_BOOL;
  if (rb && !tb) return cmp_logic;
  if (tb) return cmp_logic || op == 1 || op == 3 || op == 8 || op == 9 || (op >= 20 && op <= 22);
  if (is_float_dt(t)) return op >= 1 && op <= 10;
  return (op >= 1 && op <= 9 && op != 4) || (op >= 20 && op <= 22);
}

static int64_t choose_op(int case_index, jg_dtype t, jg_dtype r) {
  static const int64_t simple[] = {1, 2, 3, 4, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22};
  int64_t ok[18];
  int k = 0;
  for (int i = 0; i < 18; i++) {
    if (defined_for(simple[i], t, r)) ok[k++] = simple[i];
  }
  return ok[(case_index * 7) % k];
}

jg_status jgk_ufunc_binary_lists_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                        void *user, jg_error *err) {
  (void)user;
  static const int64_t sizes[6] = {0, 1, 32, 1024, 4096, (1 << 20) + 1};
  static const char *const names[N_CASES] = {
      "two arrays, 0", "two arrays, 1", "two arrays, 32", "two arrays, 1024",
      "two arrays, 4096", "two arrays, 2^20 + 1", "scalar, 0", "scalar, 1", "scalar, 32",
      "scalar, 1024", "scalar, 4096", "scalar, 2^20 + 1", "per list: no lists",
      "per list: 1000 empty lists", "per list: a last list empty",
      "per list: offsets from 17, longer content", "per list: one list of one element",
      "per list: 4096 lists of 0..40", "per list: 2^20 + 1 lists of 0..6",
      "per list: one list of 2^22 + 3 between empty ones", "per list: a last list past nu",
      "per list: lists past the capacity n", "per list: more lists than values",
      "per list: a last offset that decreases"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "ufunc_binary_lists parity: no case %d",
                        case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype t = jg_parity_dtype(ctx, 4), r = jg_parity_dtype(ctx, 14);
  const int64_t op = choose_op(case_index, t, r);
  const int64_t swap = case_index % 2;
  int64_t n = 0, nu = 0, nv = 0, nl = -1, vmode = 0;
  int64_t *offsets = NULL;
  double vf = 0;
  int64_t vi = 0;
  if (case_index < 12) {
    vmode = case_index < 6 ? 0 : 1;
    n = nu = sizes[case_index % 6];
    nv = vmode == 0 ? n : 0;
    if (vmode == 1) {
      vf = case_index % 3 == 0 ? -2.75 : 3.0;
      vi = case_index % 3 == 1 ? -3 : 1;
      nl = n / 3;
      offsets = jg_parity_alloc(ctx, nl + 1, JG_DTYPE_INT64);
      if (offsets == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
      jgk_parity_random_offsets(ctx, offsets, JG_DTYPE_INT64, nl, 0, 0.2, 1, 4);
      if (offsets[nl] > n) offsets[nl] = n;
      for (int64_t i = nl; i > 0; --i) {
        if (offsets[i - 1] > offsets[i]) offsets[i - 1] = offsets[i];
      }
    }
  } else {
    vmode = 2;
    static const struct {
      int64_t nl, start, lo, hi;
      double p_empty;
    } lay[12] = {{0, 0, 0, 0, 0},      {1000, 0, 0, 0, 1.0},  {32, 0, 1, 9, 0.1},
                 {1024, 17, 0, 9, 0.2}, {1, 0, 1, 1, 0},      {4096, 0, 0, 40, 0.1},
                 {(1 << 20) + 1, 0, 0, 6, 0.05}, {3, 0, 0, 0, 0}, {1000, 0, 0, 9, 0.1},
                 {1000, 0, 0, 9, 0.1},  {1000, 0, 0, 9, 0.1}, {1000, 0, 0, 9, 0.1}};
    const int L = case_index - 12;
    nl = lay[L].nl;
    offsets = jg_parity_alloc(ctx, nl + 1, JG_DTYPE_INT64);
    if (offsets == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
    jgk_parity_random_offsets(ctx, offsets, JG_DTYPE_INT64, nl, lay[L].start, lay[L].p_empty,
                              lay[L].lo, lay[L].hi);
    if (L == 7) {
      offsets[0] = offsets[1] = 0;
      offsets[2] = offsets[3] = ((int64_t)1 << 22) + 3;
    }
    n = offsets[nl] - offsets[0];
    nu = offsets[nl] + (L == 3 ? 50 : 0);
    nv = nl;
    if (L == 8) nu = offsets[nl] - 1;      /* the last non-empty list passes the content */
    if (L == 9) n = n / 2;                 /* lists past the output's capacity */
    if (L == 10) nv = nl - 100;            /* the last 100 lists have no value */
    if (L == 11) offsets[nl] = offsets[nl - 1] - 1; /* the last list decreases */
    if (nu < 0) nu = 0;
  }
  void *u = jgk_parity_content(ctx, t, nu, JGK_VALUES_MIXED);
  void *v = jgk_parity_content(ctx, t, nv, JGK_VALUES_MIXED);
  void *out = jg_parity_alloc(ctx, n + 3, r);
  int64_t *info = jg_parity_alloc(ctx, 3, JG_DTYPE_INT64);
  if (u == NULL || v == NULL || out == NULL || info == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "ufunc_binary_lists parity: out of memory");
  }
  info[0] = info[1] = 7;
  info[2] = -1;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(op);
  args[2] = jg_arg_i64(swap);
  args[3] = jg_arg_i64(nu);
  args[4] = jg_arg_array(u, nu, t, (jg_device)JG_DEVICE_HOST_INIT);
  args[5] = jg_arg_i64(vmode);
  args[6] = jg_arg_i64(nv);
  args[7] = jg_arg_array(v, nv, t, (jg_device)JG_DEVICE_HOST_INIT);
  args[8] = jg_arg_f64(vf);
  args[9] = jg_arg_i64(vi);
  args[10] = jg_arg_i64(nl);
  args[11] = jg_arg_array(offsets, nl + 1 > 0 ? nl + 1 : 0, JG_DTYPE_INT64,
                          (jg_device)JG_DEVICE_HOST_INIT);
  args[12] = jg_arg_i64(3);
  args[13] = jg_arg_array(info, 3, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  args[14] = jg_arg_array(out, n + 3, r, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
