/* test_physics_gpu.c: four-vector helpers on cuda arrays (physics.h): every case of
 * jgt_physics_cases.h run on device 0 (on the legacy stream and on a created one) against the
 * host result of the same case, and against the values the cases compute with plain formulas;
 * a long random case (100000 events of Poisson(3) muons and electrons, a MET per event: masses,
 * sums, deltaR, deltaPhi, mT); and the errors on the device.
 *
 * Tolerance: the device's sin, cos, sinh, asinh, atan2 may differ from the host's libm by an ulp
 * or two, and nvcc may fuse multiply-adds in the kernel, so float64 results are compared with a
 * relative 1e-9 (plus 1e-9 absolute for values near 0, such as the eta of a nearly transverse
 * sum), float32 results within 2 ulp of float (relative 3e-7). Skips (exit 77) without a usable
 * device. */
#include <math.h>

#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "jgt_physics_cases.h"

static char g_type[512];
static char g_text[4096];

static bool close_enough(double dev, double host, jg_dtype d) {
  if (isnan(dev) || isnan(host)) return isnan(dev) && isnan(host);
  if (d == JG_DTYPE_FLOAT32) return fabs(dev - host) <= 3e-7 * fabs(host) + 1e-30;
  return fabs(dev - host) <= 1e-9 * fabs(host) + 1e-9;
}

/* Compares the leaf values (field by field for sums) of a host and a device result; returns the
 * number of differences. */
static int compare(const char *name, const jg_array *h, const jg_array *d, bool sum, jg_dtype dtype,
                   int64_t cap) {
  char th[512];
  JGT_OK(jg_array_type_string(h, th, sizeof th, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(d, g_type, sizeof g_type, NULL, &jgt_err_));
  int bad = 0;
  if (strcmp(th, g_type) != 0) {
    print_error("%s: host type %s, GPU type %s\n", name, th, g_type);
    bad++;
  }
  double *a = malloc((size_t)cap * sizeof *a), *b = malloc((size_t)cap * sizeof *b);
  assert_non_null(a);
  assert_non_null(b);
  for (int f = 0; f < (sum ? 4 : 1); f++) {
    const char *field = sum ? jgt_pc_fields[f] : NULL;
    const int64_t na = jgt_pc_leaf(h, field, a, cap), nb = jgt_pc_leaf(d, field, b, cap);
    if (na != nb) {
      print_error("%s: %lld values on the host, %lld on the GPU\n", name, (long long)na,
                  (long long)nb);
      bad++;
      continue;
    }
    for (int64_t i = 0; i < na && i < cap; i++) {
      if (!close_enough(b[i], a[i], dtype) && bad++ < 5) {
        print_error("%s: field %d value %lld: host %.17g, GPU %.17g\n", name, f, (long long)i, a[i],
                    b[i]);
      }
    }
  }
  free(a);
  free(b);
  return bad;
}

static int run_cases(jg_stream stream) {
  int failed = 0;
  for (size_t i = 0; i < JGT_PC_NCASES; i++) {
    const jgt_pc_case *c = &jgt_pc_cases[i];
    jg_array *args[3] = {NULL, NULL, NULL}, *dargs[3] = {NULL, NULL, NULL};
    for (int k = 0; k < c->n; k++) {
      args[k] = c->make[k]();
      dargs[k] = jgt_to_device_on(args[k], stream);
    }
    jg_array *hout = NULL, *dout = NULL;
    JGT_OK(jgt_pc_run(c, args, NULL, &hout, &jgt_err_));
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_pc_run(c, dargs, stream, &dout, &err);
    if (st != JG_OK) {
      print_error("case '%s' on the GPU: %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      const jg_device dev = jg_array_device(dout);
      assert_int_equal(dev.type, JG_DEVICE_CUDA);
      jg_array *h = jgt_to_host(dout);
      failed += compare(c->name, hout, h, c->op == JGT_PC_SUM, c->dtype, JGT_PC_MAXV) != 0;
      /* and the independent values */
      jgt_pc_expect e;
      memset(&e, 0, sizeof e);
      c->expect(&e);
      double got[JGT_PC_MAXV];
      for (int f = 0; f < (c->op == JGT_PC_SUM ? 4 : 1); f++) {
        const int64_t n =
            jgt_pc_leaf(h, c->op == JGT_PC_SUM ? jgt_pc_fields[f] : NULL, got, JGT_PC_MAXV);
        assert_int_equal(n, e.count);
        for (int64_t j = 0; j < n; j++) {
          const double want = c->dtype == JG_DTYPE_FLOAT32 ? (double)(float)e.v[f][j] : e.v[f][j];
          if (!close_enough(got[j], want, c->dtype)) {
            print_error("case '%s' on the GPU: field %d value %lld: %.17g, expected %.17g\n",
                        c->name, f, (long long)j, got[j], want);
            failed++;
          }
        }
      }
      if (strcmp(c->name, "mT with a None event") == 0) {
        JGT_OK(jg_array_to_string(h, 2000, g_text, sizeof g_text, NULL, &jgt_err_));
        JGT_CONTAINS(g_text, "], None, [");
      }
      jg_array_release(h);
    }
    jg_array_release(hout);
    jg_array_release(dout);
    for (int k = 0; k < c->n; k++) {
      jg_array_release(args[k]);
      jg_array_release(dargs[k]);
    }
  }
  return failed;
}

static void test_cases(void **state) {
  (void)state;
  assert_int_equal(run_cases(NULL), 0);
  cudaStream_t s = NULL;
  assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
  assert_int_equal(run_cases((jg_stream)s), 0);
  assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

/* ------------------------------------------------------------------------------------------ */
/* A long random case                                                                          */
/* ------------------------------------------------------------------------------------------ */

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;

static double uniform(double lo, double hi) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return lo + (hi - lo) * ((double)(g_rng >> 11) / 9007199254740992.0);
}

static int64_t poisson3(void) {
  const double limit = exp(-3.0);
  int64_t k = 0;
  double p = uniform(0, 1);
  while (p > limit) {
    k++;
    p *= uniform(0, 1);
  }
  return k;
}

/* Records pt, eta, phi, mass of `dtype` (float32 or float64) in lists of `counts`. */
static jg_array *random_particles(const int64_t *counts, int64_t nev, int64_t total,
                                  jg_dtype dtype) {
  jg_array *f[4];
  double *v = malloc((size_t)(total > 0 ? total : 1) * sizeof *v);
  float *w = malloc((size_t)(total > 0 ? total : 1) * sizeof *w);
  assert_non_null(v);
  assert_non_null(w);
  for (int k = 0; k < 4; k++) {
    for (int64_t i = 0; i < total; i++) {
      v[i] = k == 0   ? uniform(5, 200)
             : k == 1 ? uniform(-2.5, 2.5)
             : k == 2 ? uniform(-3.14159, 3.14159)
                      : (i % 3 == 0 ? 0.0 : uniform(0.0005, 5));
      w[i] = (float)v[i];
    }
    f[k] = dtype == JG_DTYPE_FLOAT32 ? jgt_numeric(w, total, dtype) : jgt_numeric(v, total, dtype);
  }
  free(v);
  free(w);
  jg_array *rec = jgt_record(4, f, jgt_pc_fields, -1), *out = NULL;
  /* offsets from the counts */
  int64_t *off = malloc((size_t)(nev + 1) * sizeof *off);
  assert_non_null(off);
  off[0] = 0;
  for (int64_t e = 0; e < nev; e++) off[e + 1] = off[e] + counts[e];
  out = jgt_offsets64(off, nev + 1, rec);
  free(off);
  return out;
}

static void test_long_random(void **state) {
  (void)state;
  enum { NEV = 100000 };
  int64_t *counts = malloc(NEV * sizeof *counts);
  assert_non_null(counts);
  int64_t total = 0;
  for (int64_t e = 0; e < NEV; e++) total += counts[e] = poisson3();
  jg_array *mu = random_particles(counts, NEV, total, JG_DTYPE_FLOAT32);
  jg_array *el = random_particles(counts, NEV, total, JG_DTYPE_FLOAT64);
  free(counts);
  double *mp = malloc(NEV * sizeof *mp), *mf = malloc(NEV * sizeof *mf);
  assert_non_null(mp);
  assert_non_null(mf);
  for (int e = 0; e < NEV; e++) {
    mp[e] = uniform(0, 150);
    mf[e] = uniform(-3.14159, 3.14159);
  }
  jg_array *mfld[2] = {jgt_numeric(mp, NEV, JG_DTYPE_FLOAT64),
                       jgt_numeric(mf, NEV, JG_DTYPE_FLOAT64)};
  jg_array *met = jgt_record(2, mfld, (const char *const[]){"pt", "phi"}, -1);
  free(mp);
  free(mf);
  jg_array *dmu = jgt_to_device_on(mu, NULL), *del = jgt_to_device_on(el, NULL),
           *dmet = jgt_to_device_on(met, NULL);
  jg_fourvec_options o32;
  memset(&o32, 0, sizeof o32);
  o32.dtype = JG_DTYPE_FLOAT32;
  const int64_t cap = total + 1;
  for (int which = 0; which < 6; which++) {
    jg_array *h = NULL, *d = NULL;
    const jg_array *hv[3] = {mu, el, mu}, *dv[3] = {dmu, del, dmu};
    bool sum = false;
    jg_dtype dt = JG_DTYPE_FLOAT64;
    switch (which) {
      case 0:
        JGT_OK(jg_fourvec_mass(2, hv, NULL, &h, &jgt_err_));
        JGT_OK(jg_fourvec_mass(2, dv, NULL, &d, &jgt_err_));
        break;
      case 1:
        JGT_OK(jg_fourvec_sum(3, hv, &o32, &h, &jgt_err_));
        JGT_OK(jg_fourvec_sum(3, dv, &o32, &d, &jgt_err_));
        sum = true;
        dt = JG_DTYPE_FLOAT32;
        break;
      case 2:
        JGT_OK(jg_fourvec_delta_r(mu, el, NULL, &h, &jgt_err_));
        JGT_OK(jg_fourvec_delta_r(dmu, del, NULL, &d, &jgt_err_));
        break;
      case 3:
        JGT_OK(jg_fourvec_delta_phi(el, met, NULL, &h, &jgt_err_));
        JGT_OK(jg_fourvec_delta_phi(del, dmet, NULL, &d, &jgt_err_));
        break;
      case 4:
        JGT_OK(jg_fourvec_mt(mu, met, NULL, &h, &jgt_err_));
        JGT_OK(jg_fourvec_mt(dmu, dmet, NULL, &d, &jgt_err_));
        break;
      default:
        JGT_OK(jg_fourvec_pt(3, hv, NULL, &h, &jgt_err_));
        JGT_OK(jg_fourvec_pt(3, dv, NULL, &d, &jgt_err_));
        break;
    }
    jg_array *dh = jgt_to_host(d);
    char name[32];
    snprintf(name, sizeof name, "random %d", which);
    assert_int_equal(compare(name, h, dh, sum, dt, cap), 0);
    jg_array_release(dh);
    jg_array_release(d);
    jg_array_release(h);
  }
  jg_array_release(dmu);
  jg_array_release(del);
  jg_array_release(dmet);
  jg_array_release(mu);
  jg_array_release(el);
  jg_array_release(met);
}

static void test_errors(void **state) {
  (void)state;
  jg_array *mu = jgt_pc_muons(), *met = jgt_pc_met_records(), *dmu = jgt_to_device_on(mu, NULL),
           *dmet = jgt_to_device_on(met, NULL), *out = (jg_array *)1;
  jg_error err;
  JGT_STATUS(JG_EBACKEND, jg_fourvec_mt(dmu, met, NULL, &out, &err));
  assert_null(out);
  JGT_CONTAINS(err.message, "jg_fourvec_mt");
  JGT_CONTAINS(err.message, "jg_array_to_device");
  JGT_STATUS(JG_EINVAL, jg_fourvec_mass(2, (const jg_array *const[]){dmu, dmet}, NULL, &out, &err));
  JGT_CONTAINS(err.message, "v[1] has no field 'eta'");
  jg_array *p0 = jgt_pc_first(), *dp0 = jgt_to_device_on(p0, NULL);
  JGT_STATUS(JG_ESHAPE, jg_fourvec_mass(2, (const jg_array *const[]){dmu, dp0}, NULL, &out, &err));
  jg_array_release(dp0);
  jg_array_release(p0);
  jg_array_release(dmu);
  jg_array_release(dmet);
  jg_array_release(mu);
  jg_array_release(met);
}

#endif /* JG_HAVE_CUDA */

int main(void) {
  JGT_REQUIRE_GPU();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cases),
      cmocka_unit_test(test_long_random),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
#else
  return 77;
#endif
}
