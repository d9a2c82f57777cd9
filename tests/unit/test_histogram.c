/* test_histogram.c: jg_histogram_fill (ops.h) and the kernel "hist1d" on the host. */
#include <float.h>

#include "jg_test.h"
#include "jgt_hist_cases.h"

static void test_flat(void **state) {
  (void)state;
  jg_array *a = jgt_flat();
  jgt_hist t;
  jgt_hist_init(&t, 10, 0.0, 10.0);
  JGT_OK(jg_histogram_fill(&t.h, a, NULL, NULL, &jgt_err_));
  jgt_check_flat(&t);
  /* unweighted: squared weights equal counts */
  for (int i = 0; i < 12; ++i) assert_true(t.sumw2[i] == t.counts[i]);
  /* filling again adds */
  JGT_OK(jg_histogram_fill(&t.h, a, NULL, NULL, &jgt_err_));
  assert_true(t.counts[1] == 4.0 && t.counts[10] == 2.0 && t.counts[11] == 4.0);
  assert_int_equal(t.h.entries, 12);
  assert_int_equal(t.h.nan, 2);
  jg_array_release(a);
}

static void test_bin_rule(void **state) {
  (void)state;
  /* The bin is floor((v - lo) / w) with w = (hi - lo) / n_bins, as the ADL references define
   * it: 0.3 / 0.1 is 2.9999999999999996 in double, so 0.3 goes to bin 2 (0.3 * 10 would give 3);
   * 0.7 / 0.1 = 6.999999999999999 -> bin 6. */
  const double v[2] = {0.3, 0.7};
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(v, 2, JG_DTYPE_FLOAT64, &a, &jgt_err_));
  jgt_hist t;
  jgt_hist_init(&t, 10, 0.0, 1.0);
  JGT_OK(jg_histogram_fill(&t.h, a, NULL, NULL, &jgt_err_));
  assert_true(t.counts[1 + 2] == 1.0);
  assert_true(t.counts[1 + 6] == 1.0);
  assert_true(t.counts[1 + 3] == 0.0 && t.counts[1 + 7] == 0.0);
  jg_array_release(a);
}

static void test_jagged_and_weights(void **state) {
  (void)state;
  jg_array *a = jgt_jagged(), *w = jgt_weights();
  jgt_hist t;
  jgt_hist_init(&t, 5, 0.5, 5.5);
  JGT_OK(jg_histogram_fill(&t.h, a, NULL, NULL, &jgt_err_));
  const double want[7] = {0, 1, 1, 1, 1, 1, 0};
  for (int i = 0; i < 7; ++i) assert_true(t.counts[i] == want[i]);
  assert_int_equal(t.h.entries, 5);
  jgt_hist_init(&t, 5, 0.5, 5.5);
  JGT_OK(jg_histogram_fill(&t.h, a, w, NULL, &jgt_err_));
  const double wc[7] = {0, 0.5, 1.5, 2, 2, 3, 0};
  const double w2[7] = {0, 0.25, 2.25, 4, 4, 9, 0};
  for (int i = 0; i < 7; ++i) {
    assert_true(t.counts[i] == wc[i]);
    assert_true(t.sumw2[i] == w2[i]);
  }
  assert_int_equal(t.h.entries, 5);
  /* sumw2 may be NULL */
  jgt_hist_init(&t, 5, 0.5, 5.5);
  t.h.sumw2 = NULL;
  JGT_OK(jg_histogram_fill(&t.h, a, w, NULL, &jgt_err_));
  assert_true(t.counts[5] == 3.0);
  jg_array_release(a);
  jg_array_release(w);
}

static void test_nested_and_sliced(void **state) {
  (void)state;
  jg_array *a = jgt_nested();
  jgt_hist t;
  jgt_hist_init(&t, 4, 7.0, 11.0);
  JGT_OK(jg_histogram_fill(&t.h, a, NULL, NULL, &jgt_err_));
  const double want[6] = {0, 1, 1, 1, 1, 0};
  for (int i = 0; i < 6; ++i) assert_true(t.counts[i] == want[i]);
  /* a slice keeps only what its lists reach: the last outer list [[], [10]] */
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, 2, 3, &s, &jgt_err_));
  jgt_hist_init(&t, 4, 7.0, 11.0);
  JGT_OK(jg_histogram_fill(&t.h, s, NULL, NULL, &jgt_err_));
  const double want2[6] = {0, 0, 0, 0, 1, 0};
  for (int i = 0; i < 6; ++i) assert_true(t.counts[i] == want2[i]);
  /* an empty slice */
  jg_array *e = NULL;
  JGT_OK(jg_array_slice(a, 1, 2, &e, &jgt_err_));
  jgt_hist_init(&t, 4, 7.0, 11.0);
  JGT_OK(jg_histogram_fill(&t.h, e, NULL, NULL, &jgt_err_));
  assert_int_equal(t.h.entries, 0);
  jg_array_release(e);
  jg_array_release(s);
  jg_array_release(a);
}

static void test_strided_values(void **state) {
  (void)state;
  /* every other element of [1, 100, 2, 100, 3, 100]: a strided view, copied densely */
  const int64_t raw[6] = {1, 100, 2, 100, 3, 100};
  jg_array *full = NULL;
  JGT_OK(jg_array_from_host(raw, 6, JG_DTYPE_INT64, &full, &jgt_err_));
  jg_view v;
  JGT_OK(jg_array_buffer(full, 0, &v, &jgt_err_));
  const jg_slice sl = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, 2);
  JGT_OK(jg_view_slice(&v, &v, 1, &sl, &jgt_err_));
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  jgt_hist t;
  jgt_hist_init(&t, 3, 0.5, 3.5);
  JGT_OK(jg_histogram_fill(&t.h, a, NULL, NULL, &jgt_err_));
  const double want[5] = {0, 1, 1, 1, 0};
  for (int i = 0; i < 5; ++i) assert_true(t.counts[i] == want[i]);
  jg_array_release(a);
  jg_array_release(full);
}

static void test_errors(void **state) {
  (void)state;
  jg_array *a = jgt_jagged(), *w = jgt_weights(), *f = jgt_flat();
  jgt_hist t;
  jg_error err;
  jgt_hist_init(&t, 5, 0.5, 5.5);
  assert_int_equal(jg_histogram_fill(NULL, a, NULL, NULL, &err), JG_EINVAL);
  assert_int_equal(jg_histogram_fill(&t.h, NULL, NULL, NULL, &err), JG_EINVAL);
  t.h.counts = NULL;
  assert_int_equal(jg_histogram_fill(&t.h, a, NULL, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "h->counts is NULL");
  jgt_hist_init(&t, 0, 0.5, 5.5);
  assert_int_equal(jg_histogram_fill(&t.h, a, NULL, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "n_bins >= 1 and finite lo < hi");
  jgt_hist_init(&t, 5, 5.5, 0.5);
  assert_int_equal(jg_histogram_fill(&t.h, a, NULL, NULL, &err), JG_EINVAL);
  jgt_hist_init(&t, 5, NAN, 5.5);
  assert_int_equal(jg_histogram_fill(&t.h, a, NULL, NULL, &err), JG_EINVAL);
  jgt_hist_init(&t, 5, 0.5, INFINITY);
  assert_int_equal(jg_histogram_fill(&t.h, a, NULL, NULL, &err), JG_EINVAL);
  /* Regression: finite edges whose width overflows (hi - lo = inf put every value in bin 0) or
   * underflows to 0 (NaN bins, an undefined conversion to int64) are refused. */
  jgt_hist_init(&t, 10, -DBL_MAX, DBL_MAX);
  assert_int_equal(jg_histogram_fill(&t.h, a, NULL, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "bin width");
  assert_int_equal(t.h.entries, 0);
  jgt_hist_init(&t, 10, 0.0, 5e-324);
  assert_int_equal(jg_histogram_fill(&t.h, f, NULL, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "bin width");
  /* weights of another structure */
  jgt_hist_init(&t, 5, 0.5, 5.5);
  assert_int_equal(jg_histogram_fill(&t.h, a, f, NULL, &err), JG_ESHAPE);
  JGT_CONTAINS(err.message, "weights have 0 list levels, values 1");
  const int64_t other[4] = {0, 1, 3, 5};
  jg_array *w2 = NULL;
  JGT_OK(jg_array_from_host_offsets(other, 3, jgt_weight_content, 7, JG_DTYPE_FLOAT64, &w2,
                                    &jgt_err_));
  assert_int_equal(jg_histogram_fill(&t.h, a, w2, NULL, &err), JG_ESHAPE);
  JGT_CONTAINS(err.message, "list 0 at depth 1 has a different length in weights and values");
  assert_int_equal(err.index, 0);
  jg_array_release(w2);
  /* integer weights */
  const int64_t ic[7] = {1, 1, 1, 1, 1, 1, 1};
  jg_array *wi = NULL;
  JGT_OK(jg_array_from_host_offsets(jgt_jagged_offsets, 3, ic, 7, JG_DTYPE_INT64, &wi, &jgt_err_));
  assert_int_equal(jg_histogram_fill(&t.h, a, wi, NULL, &err), JG_EDTYPE);
  JGT_CONTAINS(err.message, "weights are int64");
  jg_array_release(wi);
  /* a list node (starts/stops) */
  jg_view starts, stops;
  JGT_OK(jg_array_buffer(a, 0, &starts, &jgt_err_));
  stops = starts;
  starts.layout.shape[0] = 3;
  stops.layout.shape[0] = 3;
  stops.layout.slice_offset += 1;
  jg_array *l = NULL;
  JGT_OK(jg_array_list(&starts, &stops, jg_array_child(a, 0), &l, &jgt_err_));
  assert_int_equal(jg_histogram_fill(&t.h, l, NULL, NULL, &err), JG_ENOTSUP);
  JGT_CONTAINS(err.message, "values has a list node");
  jg_array_release(l);
  /* records */
  jg_array *fields[1] = {f};
  const char *names[1] = {"x"};
  jg_array *r = NULL;
  JGT_OK(jg_array_record(1, fields, names, -1, &r, &jgt_err_));
  assert_int_equal(jg_histogram_fill(&t.h, r, NULL, NULL, &err), JG_ENOTSUP);
  jg_array_release(r);
  /* nothing was counted by the failing calls */
  for (int i = 0; i < 7; ++i) assert_true(t.counts[i] == 0.0);
  jg_array_release(a);
  jg_array_release(w);
  jg_array_release(f);
}

static void test_kernel_parity_host(void **state) {
  (void)state;
  const jg_kernel *k = NULL;
  JGT_OK(jg_catalog_find("hist1d", &k, &jgt_err_));
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.other = "c";
  jg_parity_result r;
  JGT_OK(jg_kernel_parity(k, &o, &r, &jgt_err_));
  assert_int_equal(r.cases_run, 8 * 22);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flat),
      cmocka_unit_test(test_bin_rule),
      cmocka_unit_test(test_jagged_and_weights),
      cmocka_unit_test(test_nested_and_sliced),
      cmocka_unit_test(test_strided_values),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_kernel_parity_host),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
