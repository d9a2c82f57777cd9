/* test_physics.c: four-vector helpers on the host (physics.h): every case of
 * jgt_physics_cases.h (pairs made by combinations, a per-event MET and jet against jagged
 * muons, sums of three, float32 results, sliced inputs with offsets not at 0, a None event,
 * extra fields and mixed field dtypes, pt 0 and back-to-back sums) against values computed in
 * the test with plain formulas; the documented conventions (deltaPhi wrapping, eta 0 at pt 0,
 * the sign of a space-like mass); and every error. */
#include <math.h>

#include "jg_test.h"
#include "jgt_physics_cases.h"

static char g_type[512];
static char g_text[4096];

static const char *type_of(const jg_array *a) {
  JGT_OK(jg_array_type_string(a, g_type, sizeof g_type, NULL, &jgt_err_));
  return g_type;
}

static const char *str(const jg_array *a) {
  JGT_OK(jg_array_to_string(a, 2000, g_text, sizeof g_text, NULL, &jgt_err_));
  return g_text;
}

/* Whether got is want within the case's tolerance: double results differ from the plain
 * formulas only by rounding (E from pt^2 + pz^2 rather than px^2 + py^2 + pz^2); float32 results
 * are the double ones rounded once. */
static bool close_enough(double got, double want, jg_dtype d) {
  if (d == JG_DTYPE_FLOAT32) return fabs(got - (double)(float)want) <= 1e-6 * fabs(want) + 1e-6;
  return fabs(got - want) <= 1e-10 * fabs(want) + 1e-12;
}

static void test_cases(void **state) {
  (void)state;
  int failed = 0;
  for (size_t i = 0; i < JGT_PC_NCASES; i++) {
    const jgt_pc_case *c = &jgt_pc_cases[i];
    jg_array *args[3] = {NULL, NULL, NULL}, *out = NULL;
    for (int k = 0; k < c->n; k++) args[k] = c->make[k]();
    jgt_pc_expect e;
    memset(&e, 0, sizeof e);
    c->expect(&e);
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_pc_run(c, args, NULL, &out, &err);
    if (st != JG_OK) {
      print_error("case '%s': %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      if (strcmp(type_of(out), c->type) != 0) {
        print_error("case '%s': type %s, expected %s\n", c->name, g_type, c->type);
        failed++;
      }
      const int nf = c->op == JGT_PC_SUM ? 4 : 1;
      for (int f = 0; f < nf; f++) {
        double got[JGT_PC_MAXV];
        const int64_t n =
            jgt_pc_leaf(out, c->op == JGT_PC_SUM ? jgt_pc_fields[f] : NULL, got, JGT_PC_MAXV);
        if (n != e.count) {
          print_error("case '%s': %lld values, expected %lld\n", c->name, (long long)n,
                      (long long)e.count);
          failed++;
          continue;
        }
        for (int64_t j = 0; j < n; j++) {
          if (!close_enough(got[j], e.v[f][j], c->dtype)) {
            print_error("case '%s' field %d value %lld: %.17g, expected %.17g\n", c->name, f,
                        (long long)j, got[j], e.v[f][j]);
            failed++;
          }
        }
      }
    }
    jg_array_release(out);
    for (int k = 0; k < c->n; k++) jg_array_release(args[k]);
  }
  assert_int_equal(failed, 0);
}

/* The None event prints as None; the MET is repeated over each event's muons. */
static void test_structure(void **state) {
  (void)state;
  jg_array *mu = jgt_pc_muons_none(), *met = jgt_pc_met_records(), *out = NULL;
  JGT_OK(jg_fourvec_mt(mu, met, NULL, &out, &jgt_err_));
  JGT_CONTAINS(str(out), "], None, [");
  jg_array_release(out);
  jg_array_release(mu);
  /* deltaPhi of a muon with itself is 0; with MET: event 0's two muons against MET phi -2.5 */
  jg_array *m = jgt_pc_muons();
  JGT_OK(jg_fourvec_delta_phi(m, m, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[0, 0], [], [0, 0, 0]]");
  jg_array_release(out);
  jg_array_release(m);
  jg_array_release(met);
}

/* deltaPhi wraps into [-pi, pi] (IEEE remainder: exactly pi stays pi); eta of a sum with pt 0
 * is 0; a space-like sum (a "vector" with E < p, as rounding can make) gives a negative mass. */
static void test_conventions(void **state) {
  (void)state;
  const double pi = 3.141592653589793;
  jg_array *a = jgt_pc_flat((const double[]){1, 1, 1, 1}, (const double[]){0, 0, 0, 0},
                            (const double[]){3, -3, 10, pi}, (const double[]){0, 0, 0, 0}, 4);
  jg_array *b = jgt_pc_flat((const double[]){1, 1, 1, 1}, (const double[]){0, 0, 0, 0},
                            (const double[]){-3, 3, -10, 0}, (const double[]){0, 0, 0, 0}, 4);
  jg_array *out = NULL;
  JGT_OK(jg_fourvec_delta_phi(a, b, NULL, &out, &jgt_err_));
  double v[4];
  assert_int_equal(jgt_pc_leaf(out, NULL, v, 4), 4);
  assert_true(fabs(v[0] - (6 - 2 * pi)) < 1e-15);
  assert_true(fabs(v[1] - (2 * pi - 6)) < 1e-15);
  assert_true(fabs(v[2] - (20 - 6 * pi)) < 1e-14);
  assert_true(v[3] == pi);
  for (int i = 0; i < 4; i++) assert_true(v[i] >= -pi && v[i] <= pi);
  jg_array_release(out);
  /* mT of perpendicular vectors: sqrt(2 * 1 * 1 * (1 - 0)) */
  jg_array_release(a);
  jg_array_release(b);
  a = jgt_pc_flat((const double[]){4}, (const double[]){0}, (const double[]){0},
                  (const double[]){0}, 1);
  b = jgt_pc_flat((const double[]){9}, (const double[]){0}, (const double[]){pi},
                  (const double[]){0}, 1);
  JGT_OK(jg_fourvec_mt(a, b, NULL, &out, &jgt_err_));
  assert_int_equal(jgt_pc_leaf(out, NULL, v, 1), 1);
  assert_true(fabs(v[0] - 12.0) < 1e-14); /* sqrt(2 * 4 * 9 * 2) */
  jg_array_release(out);
  /* pt of the sum of those two: 9 - 4 = 5 */
  JGT_OK(jg_fourvec_pt(2, (const jg_array *const[]){a, b}, NULL, &out, &jgt_err_));
  assert_int_equal(jgt_pc_leaf(out, NULL, v, 1), 1);
  assert_true(fabs(v[0] - 5.0) < 1e-14);
  jg_array_release(out);
  jg_array_release(a);
  jg_array_release(b);
  /* Integer fields are read as float64 (the cast kernel). */
  jg_array *f[4] = {jgt_numeric((const int32_t[]){3}, 1, JG_DTYPE_INT32),
                    jgt_numeric((const int32_t[]){0}, 1, JG_DTYPE_INT32),
                    jgt_numeric((const int32_t[]){0}, 1, JG_DTYPE_INT32),
                    jgt_numeric((const int32_t[]){4}, 1, JG_DTYPE_INT32)};
  jg_array *ints = jgt_record(4, f, jgt_pc_fields, -1);
  JGT_OK(jg_fourvec_mass(2, (const jg_array *const[]){ints, ints}, NULL, &out, &jgt_err_));
  assert_int_equal(jgt_pc_leaf(out, NULL, v, 1), 1);
  assert_true(fabs(v[0] - 8.0) < 1e-14); /* twice (px 3, E 5): sqrt(100 - 36) */
  jg_array_release(out);
  jg_array_release(ints);
}

static void test_errors(void **state) {
  (void)state;
  jg_array *mu = jgt_pc_muons(), *met = jgt_pc_met_records(), *out = (jg_array *)1;
  jg_error err;
  const jg_array *two[] = {mu, mu};
  JGT_STATUS(JG_EINVAL, jg_fourvec_sum(1, two, NULL, &out, &err));
  assert_null(out);
  JGT_CONTAINS(err.message, "jg_fourvec_sum: n is 1; sums take 2 or 3 four-vectors");
  JGT_STATUS(JG_EINVAL, jg_fourvec_mass(4, two, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_fourvec_pt(2, NULL, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_fourvec_pt(2, two, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_fourvec_mass(2, (const jg_array *const[]){mu, NULL}, NULL, &out, &err));
  JGT_CONTAINS(err.message, "v[1] is NULL");
  assert_int_equal(err.index, 1);
  /* The MET has no eta or mass. */
  JGT_STATUS(JG_EINVAL, jg_fourvec_mass(2, (const jg_array *const[]){mu, met}, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_fourvec_mass: v[1] has no field 'eta' (its fields: pt, phi)");
  assert_int_equal(err.index, 1);
  JGT_STATUS(JG_EINVAL, jg_fourvec_delta_r(mu, met, NULL, &out, &err));
  JGT_CONTAINS(err.message, "b has no field 'eta'");
  JGT_OK(jg_fourvec_delta_phi(mu, met, NULL, &out, &jgt_err_)); /* phi is all it needs */
  jg_array_release(out);
  /* Not records. */
  jg_array *x = JGT_OFFSETS(jgt_numeric((const double[]){1, 2}, 2, JG_DTYPE_FLOAT64), 0, 2);
  JGT_STATUS(JG_EINVAL, jg_fourvec_mt(x, met, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_fourvec_mt: a is not an array of records with fields pt, phi");
  JGT_CONTAINS(err.message, "1 * var * float64");
  assert_int_equal(err.index, 0);
  JGT_STATUS(JG_EINVAL, jg_fourvec_delta_phi(mu, NULL, NULL, &out, &err));
  assert_int_equal(err.index, 1);
  /* Options. */
  jg_fourvec_options o;
  memset(&o, 0, sizeof o);
  o.dtype = JG_DTYPE_INT32;
  JGT_STATUS(JG_EINVAL, jg_fourvec_mt(mu, met, &o, &out, &err));
  JGT_CONTAINS(err.message, "float64 or float32, not int32");
  /* Structures that do not broadcast: muons (2, 0, 3) against pairs (1, 0, 3). */
  jg_array *p0 = jgt_pc_first();
  JGT_STATUS(JG_ESHAPE, jg_fourvec_mass(2, (const jg_array *const[]){mu, p0}, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_fourvec_mass");
  JGT_CONTAINS(err.message, "list 0 has 2 elements in v[0].pt and 1 in v[1].pt");
  assert_null(out);
  /* Outer lengths that differ: 3 events against 2 MET records. */
  jg_array *met2 = jgt_slice(jgt_pc_met_records(), 0, 2);
  JGT_STATUS(JG_ESHAPE, jg_fourvec_mt(mu, met2, NULL, &out, &err));
  /* A sum of three whose third does not broadcast. */
  JGT_STATUS(JG_ESHAPE, jg_fourvec_sum(3, (const jg_array *const[]){p0, p0, mu}, NULL, &out, &err));
  assert_null(out);
  jg_array_release(met2);
  jg_array_release(p0);
  jg_array_release(x);
  jg_array_release(mu);
  jg_array_release(met);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cases),
      cmocka_unit_test(test_structure),
      cmocka_unit_test(test_conventions),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
