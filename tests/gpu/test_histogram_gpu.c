/* test_histogram_gpu.c: jg_histogram_fill on device arrays gives the host's histogram (bit for
 * bit when unweighted), through the shared-memory and the global paths; parity of the kernels
 * hist1d and counts_equal. */
#include "jg_test.h"
#include "jgt_hist_cases.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA

static jg_array *to_dev(jg_array *a) {
  jg_array *d = NULL;
  JGT_OK(jg_array_to_device(a, 0, NULL, &d, &jgt_err_));
  jg_array_release(a);
  return d;
}

/* Fills host and device histograms of the same arrays and compares them. */
static void same_on_both(jg_array *values, jg_array *weights, int64_t n_bins, double lo,
                         double hi, double rtol) {
  static double hc[10002], hs[10002], dc[10002], ds[10002];
  jg_hist1d h = {n_bins, lo, hi, hc, hs, 0, 0}, d = {n_bins, lo, hi, dc, ds, 0, 0};
  memset(hc, 0, sizeof hc);
  memset(hs, 0, sizeof hs);
  memset(dc, 0, sizeof dc);
  memset(ds, 0, sizeof ds);
  JGT_OK(jg_histogram_fill(&h, values, weights, NULL, &jgt_err_));
  jg_array *dv = NULL, *dw = NULL;
  JGT_OK(jg_array_to_device(values, 0, NULL, &dv, &jgt_err_));
  if (weights != NULL) JGT_OK(jg_array_to_device(weights, 0, NULL, &dw, &jgt_err_));
  JGT_OK(jg_histogram_fill(&d, dv, dw, NULL, &jgt_err_));
  assert_int_equal(h.entries, d.entries);
  assert_int_equal(h.nan, d.nan);
  for (int64_t i = 0; i < n_bins + 2; ++i) {
    if (rtol == 0) {
      if (hc[i] != dc[i] || hs[i] != ds[i]) {
        print_error("bin %lld: host %.17g (%.17g), cuda %.17g (%.17g)\n", (long long)i, hc[i],
                    hs[i], dc[i], ds[i]);
        fail();
      }
    } else {
      assert_true(fabs(hc[i] - dc[i]) <= rtol * fabs(hc[i]));
      assert_true(fabs(hs[i] - ds[i]) <= rtol * fabs(hs[i]));
    }
  }
  jg_array_release(dv);
  jg_array_release(dw);
}

static void test_small_cases(void **state) {
  (void)state;
  jg_array *f = jgt_flat(), *a = jgt_jagged(), *w = jgt_weights(), *n = jgt_nested();
  same_on_both(f, NULL, 10, 0.0, 10.0, 0);
  same_on_both(a, NULL, 5, 0.5, 5.5, 0);
  same_on_both(a, w, 5, 0.5, 5.5, 0);
  same_on_both(n, NULL, 4, 7.0, 11.0, 0);
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(n, 2, 3, &s, &jgt_err_));
  same_on_both(s, NULL, 4, 7.0, 11.0, 0);
  /* the device result itself, by hand: the flat case */
  jg_array *df = to_dev(jgt_flat());
  jgt_hist t;
  jgt_hist_init(&t, 10, 0.0, 10.0);
  JGT_OK(jg_histogram_fill(&t.h, df, NULL, NULL, &jgt_err_));
  jgt_check_flat(&t);
  /* weights on the host with values on the device */
  jg_error err;
  jg_array *da = to_dev(jgt_jagged());
  assert_int_equal(jg_histogram_fill(&t.h, da, w, NULL, &err), JG_EBACKEND);
  JGT_CONTAINS(err.message, "jg_array_to_");
  /* a different list length on the device */
  const int64_t other[4] = {0, 1, 3, 5};
  jg_array *w2 = NULL;
  JGT_OK(jg_array_from_host_offsets(other, 3, jgt_weight_content, 7, JG_DTYPE_FLOAT64, &w2,
                                    &jgt_err_));
  w2 = to_dev(w2);
  assert_int_equal(jg_histogram_fill(&t.h, da, w2, NULL, &err), JG_ESHAPE);
  JGT_CONTAINS(err.message, "list 0 at depth 1 has a different length");
  jg_array_release(w2);
  jg_array_release(da);
  jg_array_release(df);
  jg_array_release(s);
  jg_array_release(f);
  jg_array_release(a);
  jg_array_release(w);
  jg_array_release(n);
}

static void test_large(void **state) {
  (void)state;
  /* 2^20 + 1 lists of 0..6 float32 values, pt-like: falling from 0 to 300 */
  const int64_t n = (1 << 20) + 1;
  int64_t *counts = malloc((size_t)n * sizeof *counts);
  assert_non_null(counts);
  uint64_t x = 12345, total = 0;
  for (int64_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    counts[i] = (int64_t)(x >> 61) % 7;
    total += (uint64_t)counts[i];
  }
  float *v = malloc(total * sizeof *v);
  float *w = malloc(total * sizeof *w);
  assert_non_null(v);
  assert_non_null(w);
  for (uint64_t i = 0; i < total; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = (double)(x >> 11) / 9007199254740992.0;
    v[i] = (float)(-30.0 * log(1.0 - u));
    w[i] = (float)(0.5 + u);
  }
  jg_array *a = NULL, *wa = NULL;
  JGT_OK(jg_array_from_host_counts(counts, n, v, (jg_len)total, JG_DTYPE_FLOAT32, &a, &jgt_err_));
  JGT_OK(jg_array_from_host_counts(counts, n, w, (jg_len)total, JG_DTYPE_FLOAT32, &wa,
                                   &jgt_err_));
  same_on_both(a, NULL, 100, 0.0, 300.0, 0);   /* shared-memory path */
  same_on_both(a, NULL, 10000, 0.0, 300.0, 0); /* global path */
  same_on_both(a, wa, 100, 0.0, 300.0, 1e-9);  /* weighted: order of additions differs */
  jg_array_release(a);
  jg_array_release(wa);
  free(counts);
  free(v);
  free(w);
}

static void test_kernel_parity(void **state) {
  (void)state;
  const char *names[2] = {"hist1d", "counts_equal"};
  for (int i = 0; i < 2; ++i) {
    const jg_kernel *k = NULL;
    JGT_OK(jg_catalog_find(names[i], &k, &jgt_err_));
    jg_parity_result r;
    JGT_OK(jg_kernel_parity(k, NULL, &r, &jgt_err_));
    assert_true(r.cases_run > 0);
    /* with dynamic shared memory: hist1d's private-copy path */
    jg_launch l;
    memset(&l, 0, sizeof l);
    l.shared_bytes = 16384;
    l.grid = 7;
    jg_parity_options o;
    memset(&o, 0, sizeof o);
    o.launch = &l;
    JGT_OK(jg_kernel_parity(k, &o, &r, &jgt_err_));
    assert_true(r.cases_run > 0);
  }
}

#endif /* JG_HAVE_CUDA */

int main(void) {
  JGT_REQUIRE_GPU();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_small_cases),
      cmocka_unit_test(test_large),
      cmocka_unit_test(test_kernel_parity),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
#else
  return 77;
#endif
}
