/* test_combinatorics_fast_gpu.c: the fast path of jg_array_combinations on cuda arrays (kernels
 * combinations_tile_counts and combinations_values on the device): every input of
 * jgt_combinatorics_fast_cases.h (no lists, all-empty lists, lists shorter than n, a last list
 * empty, offsets not at 0, int32 offsets, list nodes, slices, one very long list, tile
 * boundaries, 2^20 + 1 lists) with n = 1..4 with and without replacement, run on device 0 after
 * jg_array_to_device, on the legacy default stream and on a created stream: the result lives on
 * cuda:0, passes the nested-loop reference after jg_array_to_host, and equals the host's result
 * buffer for buffer (offsets, every field, byte for byte) with the same type; every element
 * type; the issue's case; and the errors of the first pass (a bad list in a late tile, stops <
 * starts, an overflowing count) with the host's status, index and message. Skips (exit 77)
 * without a usable device. */
#include "jg_test.h"
#include "jgt_combinatorics_fast_cases.h"

static void assert_on_cuda0(const jg_array *a) {
  const jg_device d = jg_array_device(a);
  assert_int_equal(d.type, JG_DEVICE_CUDA);
  assert_int_equal(d.id, 0);
}

/* Host result `h` and device result brought back `b`: same type, same buffers. 0 when equal. */
static int same(const jg_array *h, const jg_array *b, int k) {
  char th[512], tb[512];
  JGT_OK(jg_array_type_string(h, th, sizeof th, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(b, tb, sizeof tb, NULL, &jgt_err_));
  if (strcmp(th, tb) != 0) {
    print_error("type %s on the device, %s on the host\n", tb, th);
    return 1;
  }
  jg_view ho, bo;
  JGT_OK(jg_array_buffer(h, 0, &ho, &jgt_err_));
  JGT_OK(jg_array_buffer(b, 0, &bo, &jgt_err_));
  const jg_len n = jg_array_length(h);
  if (memcmp(jg_view_data(&ho), jg_view_data(&bo), (size_t)(n + 1) * 8) != 0) {
    print_error("offsets differ\n");
    return 1;
  }
  for (int q = 0; q < k; q++) {
    jg_view hf, bf;
    JGT_OK(jg_array_buffer(jg_array_child(jg_array_child(h, 0), q), 0, &hf, &jgt_err_));
    JGT_OK(jg_array_buffer(jg_array_child(jg_array_child(b, 0), q), 0, &bf, &jgt_err_));
    const jg_len m = hf.layout.shape[0];
    if (bf.layout.shape[0] != m || bf.dtype != hf.dtype ||
        (m > 0 && memcmp(jg_view_data(&hf), jg_view_data(&bf), (size_t)m * (size_t)hf.layout.itemsize) != 0)) {
      print_error("field %d differs\n", q);
      return 1;
    }
  }
  return 0;
}

static int run_table(jg_stream stream) {
  size_t count = 0;
  const jgt_cfcase *cases = jgt_combinatorics_fast_cases(&count);
  int failed = 0;
  for (size_t i = 0; i < count; i++) {
    jg_array *a = cases[i].make(), *d = jgt_to_device_on(a, stream);
    for (int k = 1; k <= cases[i].maxn; k++) {
      for (int rep = 0; rep < 2; rep++) {
        jg_array *ho = NULL, *dout = NULL;
        JGT_OK(jg_array_combinations(a, k, rep != 0, NULL, NULL, &ho, &jgt_err_));
        jg_error err;
        jg_error_clear(&err);
        const jg_status st = jg_array_combinations(d, k, rep != 0, NULL, stream, &dout, &err);
        if (st != JG_OK) {
          print_error("case '%s', n = %d, rep %d on cuda:0: %s: %s\n", cases[i].name, k, rep,
                      jg_status_name(st), err.message);
          failed++;
        } else {
          assert_on_cuda0(dout);
          JGT_OK(jg_array_validate(dout, JG_VALIDATE_FULL, stream, &jgt_err_));
          jg_array *back = jgt_to_host(dout);
          if (jgt_cf_check(a, k, rep != 0, back) != 0 || same(ho, back, k) != 0) {
            print_error("case '%s', n = %d, replacement %d differs on cuda:0\n", cases[i].name,
                        k, rep);
            failed++;
          }
          jg_array_release(back);
        }
        jg_array_release(dout);
        jg_array_release(ho);
      }
    }
    jg_array_release(d);
    jg_array_release(a);
  }
  return failed;
}

JGT_STREAM_TABLE_TESTS(run_table)

/* Every element type, 1500 random lists, n = 1..4, with and without replacement. */
static void test_every_dtype(void **state) {
  (void)state;
  static const jg_dtype types[] = {JG_DTYPE_BOOL,   JG_DTYPE_INT8,   JG_DTYPE_INT16,
                                   JG_DTYPE_INT32,  JG_DTYPE_INT64,  JG_DTYPE_UINT8,
                                   JG_DTYPE_UINT16, JG_DTYPE_UINT32, JG_DTYPE_UINT64,
                                   JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT64};
  int failed = 0;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    jg_array *a = jgt_cf_random(1500, 9, 4, true, types[t], 100 + t), *d = jgt_to_device_on(a, NULL);
    for (int k = 1; k <= 4; k++) {
      for (int rep = 0; rep < 2; rep++) {
        jg_array *ho = NULL, *dout = NULL;
        JGT_OK(jg_array_combinations(a, k, rep != 0, NULL, NULL, &ho, &jgt_err_));
        JGT_OK(jg_array_combinations(d, k, rep != 0, NULL, NULL, &dout, &jgt_err_));
        jg_array *back = jgt_to_host(dout);
        if (same(ho, back, k) != 0 || jgt_cf_check(a, k, rep != 0, back) != 0) {
          print_error("dtype %s, n = %d, replacement %d\n", jg_dtype_name(types[t]), k, rep);
          failed++;
        }
        jg_array_release(back);
        jg_array_release(dout);
        jg_array_release(ho);
      }
    }
    jg_array_release(d);
    jg_array_release(a);
  }
  assert_int_equal(failed, 0);
}

/* The issue's case on the device: combinations of 3, summed per triplet, min per list. */
static void test_issue_case(void **state) {
  (void)state;
  static const double v[] = {1.1, 2.1, 3.1};
  jg_array *issue = JGT_OFFSETS(jgt_numeric(v, 3, JG_DTYPE_FLOAT64), 0, 0, 3);
  jg_array *d = jgt_to_device_on(issue, NULL), *comb = NULL;
  JGT_OK(jg_array_combinations(d, 3, false, NULL, NULL, &comb, &jgt_err_));
  assert_on_cuda0(comb);
  jg_array *rec = jg_array_child(comb, 0), *s01 = NULL, *s = NULL, *mn = NULL, *sums = NULL;
  JGT_OK(jg_array_ufunc2(JG_UFUNC_ADD, jg_array_child(rec, 0), jg_array_child(rec, 1), NULL, &s01,
                         &jgt_err_));
  JGT_OK(jg_array_ufunc2(JG_UFUNC_ADD, s01, jg_array_child(rec, 2), NULL, &s, &jgt_err_));
  jg_view ov;
  JGT_OK(jg_array_buffer(comb, 0, &ov, &jgt_err_));
  JGT_OK(jg_array_list_offset(&ov, s, &sums, &jgt_err_));
  JGT_OK(jg_array_reduce(sums, JG_REDUCE_MIN, NULL, &mn, &jgt_err_));
  jg_array *back = jgt_to_host(mn);
  char buf[128];
  JGT_OK(jg_array_to_string(back, 100, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[None, 6.300000000000001]");
  jg_array_release(back);
  jg_array_release(mn);
  jg_array_release(sums);
  jg_array_release(s);
  jg_array_release(s01);
  jg_array_release(comb);
  jg_array_release(d);
  jg_array_release(issue);
}

/* The same status, index and message on both backends. */
static void same_error(const jg_array *h, int k, bool rep, jg_status want, int64_t index,
                       const char *msg) {
  jg_array *d = jgt_to_device_on(h, NULL), *out = NULL;
  jg_error he, de;
  const jg_status hs = jg_array_combinations(h, k, rep, NULL, NULL, &out, &he);
  assert_null(out);
  const jg_status ds = jg_array_combinations(d, k, rep, NULL, NULL, &out, &de);
  assert_null(out);
  assert_int_equal(hs, want);
  assert_int_equal(ds, want);
  assert_int_equal(he.index, index);
  assert_int_equal(de.index, index);
  JGT_CONTAINS(he.message, msg);
  assert_string_equal(he.message, de.message);
  jg_array_release(d);
}

static void test_errors(void **state) {
  (void)state;
  int64_t st[3000], sp[3000];
  for (int i = 0; i < 3000; i++) {
    st[i] = i % 50;
    sp[i] = st[i] + i % 4;
  }
  sp[2500] = 61;
  sp[2900] = 99;
  jg_array *bad = jgt_list(st, sp, 3000, 3000, JG_DTYPE_INT64, jgt_cf_content(60, JG_DTYPE_FLOAT32));
  same_error(bad, 2, false, JG_EVALUE, 2500,
             "jg_array_combinations: combinations_counts: list 2500 has stops < starts or "
             "reaches outside the content");
  sp[7] = st[7] - 1;
  jg_array *down = jgt_list(st, sp, 3000, 3000, JG_DTYPE_INT64, jgt_cf_content(60, JG_DTYPE_INT8));
  same_error(down, 3, true, JG_EVALUE, 7, "list 7 has stops < starts");
  /* C(2^32 + 2, 4) overflows: a list node over a content of 2^32 + 2 items (1 byte each) on the
   * device is too much memory to make here; the host and device paths share the first pass's
   * check, which the host test covers with a stride-0 content. */
  jg_array_release(down);
  jg_array_release(bad);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream),
      cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_every_dtype),
      cmocka_unit_test(test_issue_case),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
