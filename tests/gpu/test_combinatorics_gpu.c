/* test_combinatorics_gpu.c: combinations and cartesian products of cuda arrays
 * (combinatorics.h): every case of jgt_combinatorics_cases.h run on device 0 after
 * jg_array_to_device, on the legacy default stream and on a created stream, with the result on
 * cuda:0 and the same value, type and status as on the host (and as the table's hand-worked
 * expectations); the issue's case (combinations of 3 summed per triplet, min per list) with
 * the min taken on the device; 2^20 + 1 random lists whose every output buffer must equal the
 * host's; errors identical on both backends. Skips (exit 77) without a usable device. */
#include "jg_test.h"
#include "jgt_combinatorics_cases.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static char g_text[16384];
static char g_type[1024];

static void describe(const jg_array *h) {
  JGT_OK(jg_array_to_string(h, 8000, g_text, sizeof g_text, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(h, g_type, sizeof g_type, NULL, &jgt_err_));
}

static void assert_on_cuda0(const jg_array *a) {
  const jg_device d = jg_array_device(a);
  assert_int_equal(d.type, JG_DEVICE_CUDA);
  assert_int_equal(d.id, 0);
}

static int run_table(jg_stream stream) {
  size_t n = 0;
  const jgt_ccase *cases = jgt_combinatorics_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_ccase *c = &cases[i];
    jg_array *in[3] = {NULL, NULL, NULL}, *din[3] = {NULL, NULL, NULL}, *ho = NULL, *dout = NULL;
    for (int q = 0; q < jgt_cc_ninputs(c); q++) {
      in[q] = c->make[q]();
      din[q] = jgt_to_device_on(in[q], stream);
    }
    JGT_OK(jgt_cc_run(c, in, NULL, &ho, &jgt_err_));
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_cc_run(c, din, stream, &dout, &err);
    if (st != JG_OK) {
      print_error("case '%s' on cuda:0: %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      assert_on_cuda0(dout);
      JGT_OK(jg_array_validate(dout, JG_VALIDATE_FULL, stream, &jgt_err_));
      jg_array *back = jgt_to_host(dout);
      describe(back);
      char dv[16384], dt[1024];
      snprintf(dv, sizeof dv, "%s", g_text);
      snprintf(dt, sizeof dt, "%s", g_type);
      describe(ho);
      if (strcmp(dv, c->value) != 0 || strcmp(dt, c->type) != 0 || strcmp(dv, g_text) != 0 ||
          strcmp(dt, g_type) != 0) {
        print_error("case '%s': cuda gives %s of type %s, host %s of type %s, expected %s of "
                    "type %s\n",
                    c->name, dv, dt, g_text, g_type, c->value, c->type);
        failed++;
      }
      jg_array_release(back);
    }
    jg_array_release(dout);
    jg_array_release(ho);
    for (int q = 0; q < 3; q++) {
      jg_array_release(din[q]);
      jg_array_release(in[q]);
    }
  }
  return failed;
}

JGT_STREAM_TABLE_TESTS(run_table)

/* The issue's case, with the per-list min on the device. */
static void test_issue_case(void **state) {
  (void)state;
  jg_array *a = jgt_cc_issue(), *d = jgt_to_device_on(a, NULL), *dcomb = NULL;
  JGT_OK(jg_array_combinations(d, 3, false, NULL, NULL, &dcomb, &jgt_err_));
  jg_array *comb = jgt_to_host(dcomb);
  jg_array *rec = jg_array_child(comb, 0);
  const double *f[3];
  for (int q = 0; q < 3; q++) {
    jg_view v;
    JGT_OK(jg_array_buffer(jg_array_child(rec, q), 0, &v, &jgt_err_));
    assert_int_equal(v.layout.shape[0], 1);
    f[q] = jg_view_data(&v);
  }
  const double sums[1] = {f[0][0] + f[1][0] + f[2][0]};
  jg_view ov;
  JGT_OK(jg_array_buffer(comb, 0, &ov, &jgt_err_));
  jg_array *sv = jgt_numeric(sums, 1, JG_DTYPE_FLOAT64), *summed = NULL;
  JGT_OK(jg_array_list_offset(&ov, sv, &summed, &jgt_err_));
  jg_array *dsummed = jgt_to_device_on(summed, NULL), *dmins = NULL;
  JGT_OK(jg_array_reduce(dsummed, JG_REDUCE_MIN, NULL, &dmins, &jgt_err_));
  assert_on_cuda0(dmins);
  jg_array *mins = jgt_to_host(dmins);
  describe(mins);
  assert_string_equal(g_text, "[None, 6.300000000000001]");
  assert_int_equal(jg_array_length(mins), 2);
  jg_array_release(mins);
  jg_array_release(dmins);
  jg_array_release(dsummed);
  jg_array_release(summed);
  jg_array_release(sv);
  jg_array_release(comb);
  jg_array_release(dcomb);
  jg_array_release(d);
  jg_array_release(a);
}

/* Every buffer of two host arrays of the same list-of-record structure is equal. */
static void assert_same_lists_of_records(const jg_array *x, const jg_array *y, int levels) {
  for (int lv = 0; lv < levels; lv++) {
    jg_view a, b;
    JGT_OK(jg_array_buffer(x, 0, &a, &jgt_err_));
    JGT_OK(jg_array_buffer(y, 0, &b, &jgt_err_));
    assert_int_equal(a.layout.shape[0], b.layout.shape[0]);
    assert_memory_equal(jg_view_data(&a), jg_view_data(&b), (size_t)a.layout.shape[0] * 8);
    x = jg_array_child(x, 0);
    y = jg_array_child(y, 0);
  }
  assert_int_equal(jg_array_num_children(x), jg_array_num_children(y));
  for (int q = 0; q < jg_array_num_children(x); q++) {
    jg_view a, b;
    JGT_OK(jg_array_buffer(jg_array_child(x, q), 0, &a, &jgt_err_));
    JGT_OK(jg_array_buffer(jg_array_child(y, q), 0, &b, &jgt_err_));
    assert_int_equal(a.layout.shape[0], b.layout.shape[0]);
    assert_memory_equal(jg_view_data(&a), jg_view_data(&b),
                        (size_t)(a.layout.shape[0] * a.layout.itemsize));
  }
}

/* 2^20 + 1 random lists (offsets not at 0): every n with and without replacement, and nested
 * cartesian products of 2 and 3 arrays, equal to the host buffer for buffer. */
static void test_long_random(void **state) {
  (void)state;
  const jg_len n = ((jg_len)1 << 20) + 1;
  int64_t *off = malloc((size_t)(n + 1) * sizeof *off);
  assert_non_null(off);
  uint64_t r = 12345;
  off[0] = 3;
  for (jg_len i = 0; i < n; i++) {
    r = r * 6364136223846793005ULL + 1442695040888963407ULL;
    off[i + 1] = off[i] + (int64_t)((r >> 33) % 7);
  }
  const jg_len m = off[n] + 1;
  double *v = malloc((size_t)m * sizeof *v);
  assert_non_null(v);
  for (jg_len p = 0; p < m; p++) v[p] = 0.5 * (double)p;
  jg_array *a = jgt_offsets64(off, n + 1, jgt_numeric(v, m, JG_DTYPE_FLOAT64));
  jg_array *d = jgt_to_device_on(a, NULL);
  for (int k = 1; k <= 4; k++) {
    for (int rep = 0; rep < 2; rep++) {
      jg_array *h = NULL, *g = NULL;
      JGT_OK(jg_array_combinations(a, k, rep != 0, NULL, NULL, &h, &jgt_err_));
      JGT_OK(jg_array_combinations(d, k, rep != 0, NULL, NULL, &g, &jgt_err_));
      jg_array *back = jgt_to_host(g);
      assert_same_lists_of_records(h, back, 1);
      jg_array_release(back);
      jg_array_release(g);
      jg_array_release(h);
    }
  }
  for (int na = 2; na <= 3; na++) {
    jg_array *hin[3] = {a, a, a}, *din[3] = {d, d, d}, *h = NULL, *g = NULL;
    JGT_OK(jg_array_argcartesian(na, (const jg_array *const *)hin, true, NULL, NULL, &h,
                                 &jgt_err_));
    JGT_OK(jg_array_argcartesian(na, (const jg_array *const *)din, true, NULL, NULL, &g,
                                 &jgt_err_));
    jg_array *back = jgt_to_host(g);
    assert_same_lists_of_records(h, back, 2);
    jg_array_release(back);
    jg_array_release(g);
    jg_array_release(h);
  }
  jg_array_release(d);
  jg_array_release(a);
  free(v);
  free(off);
}

/* Errors: the same status, index and message on both backends; mixed backends. */
static void test_errors(void **state) {
  (void)state;
  static const double v[] = {1, 2, 3, 4};
  jg_array *past = jgt_list(JGT_I64(0, 1, 2), JGT_I64(1, 3, 6), 3, 3, JG_DTYPE_INT64,
                            jgt_numeric(v, 4, JG_DTYPE_FLOAT64));
  jg_array *d = jgt_to_device_on(past, NULL), *out = NULL;
  jg_error eh, ed;
  assert_int_equal(jg_array_combinations(past, 2, false, NULL, NULL, &out, &eh), JG_EVALUE);
  assert_int_equal(jg_array_combinations(d, 2, false, NULL, NULL, &out, &ed), JG_EVALUE);
  assert_string_equal(eh.message, ed.message);
  assert_int_equal(eh.index, ed.index);
  jg_array *h = jgt_cc_cart_a(), *dh = jgt_to_device_on(h, NULL), *in[2] = {h, d};
  assert_int_equal(jg_array_cartesian(2, (const jg_array *const *)in, false, NULL, NULL, &out,
                                      &ed),
                   JG_EBACKEND);
  JGT_CONTAINS(ed.message, "jg_array_cartesian: arrays[1] is on cuda:0, arrays[0] on cpu");
  jg_array *in2[2] = {dh, d};
  assert_int_equal(jg_array_cartesian(2, (const jg_array *const *)in2, false, NULL, NULL, &out,
                                      &ed),
                   JG_EVALUE);
  JGT_CONTAINS(ed.message, "list 2 of one of the arrays");
  assert_null(out);
  jg_array_release(dh);
  jg_array_release(h);
  jg_array_release(d);
  jg_array_release(past);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream),
      cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_issue_case),
      cmocka_unit_test(test_long_random),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
