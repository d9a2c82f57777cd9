/* fourvec_parity.c: parity cases of kernel "fourvec" (fourvec.json): every op on random
 * four-vectors, over lengths 0, 1, 32, 1024, 4096 and 2^20 + 1; inputs of one value for all
 * (bits of `full` cleared); pt exactly 0 (eta of a sum 0), zero masses, phi outside [-pi, pi],
 * phi differences of exactly pi; and an unknown op (NaN). Outputs are 3 elements longer than n,
 * so a side that writes past n shows up in the tail. Values are pt in [0, 200) (1 in 16 exactly
 * 0), eta in [-5, 5], phi in [-4, 4], mass in [0, 100) (1 in 4 exactly 0); the Cartesian inputs
 * of ops 4..7 are px, py in [-200, 200), pz in [-2000, 2000) and E from them with a mass, so
 * that E >= |p|. */
#include <math.h>

#include "jgk_fourvec.h"

#define N_CASES 18

static double uniform(jg_parity_ctx *ctx, double lo, double hi) {
  return lo + (hi - lo) * jg_parity_uniform(ctx);
}

static void put(void *a, jg_dtype dt, int64_t i, double v) {
  if (dt == JG_DTYPE_FLOAT32) {
    ((float *)a)[i] = (float)v;
  } else {
    ((double *)a)[i] = v;
  }
}

jg_status jgk_fourvec_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args, void *user,
                             jg_error *err) {
  (void)user;
  /* Cases 0..10: op = case; then the special ones. */
  static const int64_t ns[N_CASES] = {1024, 32,   4096, 1,    1025, (1 << 20) + 1,
                                      4096, 32,   4096, 1024, 4097, 0,
                                      1,    4096, 1024, 1024, 64,   (1 << 20) + 1};
  static const int64_t ops[N_CASES] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 2, 0, 10, 8, 99, 9};
  static const char *const names[N_CASES] = {"sum as pt, eta, phi, mass",
                                             "sum as px, py, pz, E",
                                             "mass of the sum",
                                             "pt of the sum, one element",
                                             "Cartesian plus vector, as pt, eta, phi, mass",
                                             "Cartesian plus vector, as px, py, pz, E, 2^20 + 1",
                                             "Cartesian plus vector, mass",
                                             "Cartesian plus vector, pt",
                                             "deltaPhi",
                                             "deltaR",
                                             "transverse mass",
                                             "empty",
                                             "every input one value",
                                             "half the inputs one value, pt 0 often",
                                             "transverse mass against one MET",
                                             "deltaPhi of exactly pi and phi far outside [-pi, pi]",
                                             "unknown op (NaN)",
                                             "deltaR, 2^20 + 1"};
  if (case_index < 0 || case_index >= N_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "fourvec parity: no case %d", case_index);
  }
  jg_parity_case_name(ctx, names[case_index]);
  const int64_t n = ns[case_index], op = ops[case_index];
  const jg_dtype t = jg_parity_dtype(ctx, 3), r = jg_parity_dtype(ctx, 11);
  int64_t full = 0xff;
  if (case_index == 12) full = 0;
  if (case_index == 13) full = 0x0f;
  if (case_index == 14) full = 0x03; /* the second (pt, phi) is one MET */
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(op);
  args[2] = jg_arg_i64(full);
  for (int k = 0; k < 8; ++k) {
    const int64_t len = ((full >> k) & 1) != 0 ? n : (n > 0 ? 1 : 0);
    void *x = jg_parity_alloc(ctx, len, t);
    if (x == NULL) return jg_error_set(err, JG_ENOMEM, -1, "fourvec parity: out of memory");
    args[3 + k] = jg_arg_array(x, len, t, (jg_device)JG_DEVICE_HOST_INIT);
  }
  for (int64_t i = 0; i < n; ++i) {
    const int pt0 = case_index == 13 ? 2 : 16; /* 1 in pt0 pt values are 0 */
    double v[8];
    for (int h = 0; h < 2; ++h) {
      v[4 * h] = jg_parity_random(ctx) % (uint64_t)pt0 == 0 ? 0.0 : uniform(ctx, 0, 200);
      v[4 * h + 1] = uniform(ctx, -5, 5);
      v[4 * h + 2] = uniform(ctx, -4, 4);
      v[4 * h + 3] = jg_parity_random(ctx) % 4 == 0 ? 0.0 : uniform(ctx, 0, 100);
    }
    if (op >= 4 && op <= 7) { /* x0..x3: px, py, pz, E with E >= |p| */
      v[0] = uniform(ctx, -200, 200);
      v[1] = uniform(ctx, -200, 200);
      v[2] = uniform(ctx, -2000, 2000);
      const double m = uniform(ctx, 0, 100);
      v[3] = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + m * m) * 1.0001;
    }
    if (op == 9 || op == 10) { /* x0..x3: (eta or pt, phi) twice */
      v[0] = op == 9 ? uniform(ctx, -5, 5) : uniform(ctx, 0, 200);
      v[1] = uniform(ctx, -4, 4);
      v[2] = op == 9 ? uniform(ctx, -5, 5) : uniform(ctx, 0, 200);
      v[3] = uniform(ctx, -4, 4);
    }
    if (case_index == 15) { /* phi far outside, and differences of exactly pi */
      v[0] = uniform(ctx, -100, 100);
      v[1] = i % 3 == 0 ? v[0] - 3.141592653589793 : uniform(ctx, -100, 100);
    }
    for (int k = 0; k < 8; ++k) {
      if (((full >> k) & 1) != 0 || i == 0)
        put(args[3 + k].v.array.data, t, ((full >> k) & 1) != 0 ? i : 0, v[k]);
    }
  }
  const int nout = op >= 0 && op <= 7 && (op % 4 == 0 || op % 4 == 1) ? 4 : 1;
  for (int k = 0; k < 4; ++k) {
    const int64_t len = k < nout ? n + 3 : 0;
    void *o = jg_parity_alloc(ctx, len, r);
    if (o == NULL) return jg_error_set(err, JG_ENOMEM, -1, "fourvec parity: out of memory");
    args[11 + k] = jg_arg_array(len == 0 ? NULL : o, len, r, (jg_device)JG_DEVICE_HOST_INIT);
  }
  return JG_OK;
}
