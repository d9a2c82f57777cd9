/* test_combinatorics_fast.c: the fast path of jg_array_combinations on the host (lists of
 * numbers: the values written straight into the fields by kernels combinations_tile_counts and
 * combinations_values) against plain nested loops (jgt_combinatorics_fast_cases.h): no lists,
 * all-empty lists, lists shorter than n, a last list empty, offsets not at 0, int32 offsets, list
 * nodes with permuted, overlapping and out-of-range empty lists, slices, one very long list
 * (3000 items: 4.5 million pairs; 300 items: 4.5 million triples), 1, 32, 1023, 1024, 1025
 * (tile boundaries), 4096 and 2^20 + 1 random lists, each with n = 1..4 with and without
 * replacement, over every element type; against the general path (argcombinations and a gather
 * by hand, and records, which the general path takes); field names; the issue's case; and the
 * errors the general path reports, now found by the fast path's first pass: a bad list in a late
 * tile, a count that overflows (without touching the 2^32 items), n outside [1, 4], regular
 * lists. */
#include "jg_test.h"
#include "jgt_combinatorics_fast_cases.h"

static void test_fast_table(void **state) {
  (void)state;
  size_t count = 0;
  const jgt_cfcase *cases = jgt_combinatorics_fast_cases(&count);
  int failed = 0;
  for (size_t i = 0; i < count; i++) {
    jg_array *a = cases[i].make();
    for (int k = 1; k <= cases[i].maxn; k++) {
      for (int rep = 0; rep < 2; rep++) {
        jg_array *out = NULL;
        JGT_OK(jg_array_combinations(a, k, rep != 0, NULL, NULL, &out, &jgt_err_));
        JGT_OK(jg_array_validate(out, JG_VALIDATE_FULL, NULL, &jgt_err_));
        if (jgt_cf_check(a, k, rep != 0, out) != 0) {
          print_error("case '%s', n = %d, replacement %d\n", cases[i].name, k, rep);
          failed++;
        }
        jg_array_release(out);
      }
    }
    jg_array_release(a);
  }
  assert_int_equal(failed, 0);
}

/* Every element type: the fast result equals argcombinations (the general path) with the items
 * gathered by hand, and the type strings agree with the general path's records (one field
 * records go the general way: the record's field equals the fast result's field). */
static void test_fast_vs_general(void **state) {
  (void)state;
  static const jg_dtype types[] = {JG_DTYPE_BOOL,   JG_DTYPE_INT8,   JG_DTYPE_INT16,
                                   JG_DTYPE_INT32,  JG_DTYPE_INT64,  JG_DTYPE_UINT8,
                                   JG_DTYPE_UINT16, JG_DTYPE_UINT32, JG_DTYPE_UINT64,
                                   JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT64};
  for (size_t d = 0; d < sizeof types / sizeof types[0]; d++) {
    jg_array *a = jgt_cf_random(1500, 9, 4, true, types[d], 100 + d);
    for (int k = 1; k <= 4; k++) {
      for (int rep = 0; rep < 2; rep++) {
        jg_array *fast = NULL, *arg = NULL, *rec_in = NULL, *general = NULL;
        JGT_OK(jg_array_combinations(a, k, rep != 0, NULL, NULL, &fast, &jgt_err_));
        JGT_OK(jg_array_argcombinations(a, k, rep != 0, NULL, NULL, &arg, &jgt_err_));
        /* The same lists over a record of one field "v": the general path. */
        jg_array *f[1] = {jg_array_retain(jg_array_child(a, 0))};
        static const char *const vname[] = {"v"};
        jg_view ov;
        JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
        jg_array *record = jgt_record(1, f, vname, -1);
        JGT_OK(jg_array_list_offset(&ov, record, &rec_in, &jgt_err_));
        jg_array_release(record);
        JGT_OK(jg_array_combinations(rec_in, k, rep != 0, NULL, NULL, &general, &jgt_err_));
        jg_view fo, ao, go;
        JGT_OK(jg_array_buffer(fast, 0, &fo, &jgt_err_));
        JGT_OK(jg_array_buffer(arg, 0, &ao, &jgt_err_));
        JGT_OK(jg_array_buffer(general, 0, &go, &jgt_err_));
        const jg_len n = jg_array_length(a);
        assert_memory_equal(jg_view_data(&fo), jg_view_data(&ao), (size_t)(n + 1) * 8);
        assert_memory_equal(jg_view_data(&fo), jg_view_data(&go), (size_t)(n + 1) * 8);
        const int64_t total = ((const int64_t *)jg_view_data(&fo))[n];
        jg_view cv, sv;
        JGT_OK(jg_array_buffer(jg_array_child(a, 0), 0, &cv, &jgt_err_));
        JGT_OK(jg_array_buffer(a, 0, &sv, &jgt_err_));
        const size_t isz = (size_t)jg_dtype_itemsize(types[d]);
        const char *c = jg_view_data(&cv);
        const int64_t *offs = jg_view_data(&sv), *ro = jg_view_data(&ao);
        for (int q = 0; q < k; q++) {
          jg_view fv, av, gv;
          JGT_OK(jg_array_buffer(jg_array_child(jg_array_child(fast, 0), q), 0, &fv, &jgt_err_));
          JGT_OK(jg_array_buffer(jg_array_child(jg_array_child(arg, 0), q), 0, &av, &jgt_err_));
          JGT_OK(jg_array_buffer(
              jg_array_child(jg_array_child(jg_array_child(general, 0), q), 0), 0, &gv,
              &jgt_err_));
          assert_int_equal(fv.layout.shape[0], total);
          assert_int_equal(gv.layout.shape[0], total);
          assert_int_equal(fv.dtype, types[d]);
          assert_memory_equal(jg_view_data(&fv), jg_view_data(&gv), (size_t)total * isz);
          const char *fd = jg_view_data(&fv);
          const int64_t *ad = jg_view_data(&av);
          for (jg_len i = 0, t = 0; i < n; i++) {
            for (; t < ro[i + 1]; t++) {
              if (memcmp(fd + (size_t)t * isz, c + (size_t)(offs[i] + ad[t]) * isz, isz) != 0) {
                fail_msg("dtype %s, n = %d, rep %d: combination %lld item %d",
                         jg_dtype_name(types[d]), k, rep, (long long)t, q);
              }
            }
          }
        }
        char t1[256], t2[256];
        JGT_OK(jg_array_type_string(fast, t1, sizeof t1, NULL, &jgt_err_));
        JGT_OK(jg_array_type_string(arg, t2, sizeof t2, NULL, &jgt_err_));
        assert_int_equal(strlen(t1) > 0, 1);
        jg_array_release(fast);
        jg_array_release(arg);
        jg_array_release(general);
        jg_array_release(rec_in);
      }
    }
    jg_array_release(a);
  }
}

/* Field names, the type string, and the issue's case through the fast path. */
static void test_fast_fields_and_issue(void **state) {
  (void)state;
  static const char *const names[] = {"a", "b", "c"};
  jg_array *a = JGT_OFFSETS(jgt_cf_content(5, JG_DTYPE_FLOAT32), 0, 0, 3, 3, 5), *out = NULL;
  JGT_OK(jg_array_combinations(a, 2, false, names, NULL, &out, &jgt_err_));
  char buf[512];
  JGT_OK(jg_array_type_string(out, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "4 * var * {a: float32, b: float32}");
  JGT_OK(jg_array_to_string(out, 100, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf,
                      "[[], [{a: 0.75, b: 2.5}, {a: 0.75, b: 4.25}, {a: 2.5, b: 4.25}], [], "
                      "[{a: 6, b: 7.75}]]");
  jg_array_release(out);
  JGT_OK(jg_array_combinations(a, 3, true, names, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_type_string(out, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "4 * var * {a: float32, b: float32, c: float32}");
  jg_array_release(out);
  jg_array_release(a);

  /* The issue: combinations of 3 over [[], [1.1, 2.1, 3.1]], summed per triplet, min per list. */
  static const double v[] = {1.1, 2.1, 3.1};
  jg_array *issue = JGT_OFFSETS(jgt_numeric(v, 3, JG_DTYPE_FLOAT64), 0, 0, 3), *comb = NULL;
  JGT_OK(jg_array_combinations(issue, 3, false, NULL, NULL, &comb, &jgt_err_));
  jg_array *rec = jg_array_child(comb, 0), *s01 = NULL, *s = NULL, *mn = NULL;
  JGT_OK(jg_array_ufunc2(JG_UFUNC_ADD, jg_array_child(rec, 0), jg_array_child(rec, 1), NULL, &s01,
                         &jgt_err_));
  JGT_OK(jg_array_ufunc2(JG_UFUNC_ADD, s01, jg_array_child(rec, 2), NULL, &s, &jgt_err_));
  jg_view ov;
  JGT_OK(jg_array_buffer(comb, 0, &ov, &jgt_err_));
  jg_array *sums = NULL;
  JGT_OK(jg_array_list_offset(&ov, s, &sums, &jgt_err_));
  JGT_OK(jg_array_reduce(sums, JG_REDUCE_MIN, NULL, &mn, &jgt_err_));
  JGT_OK(jg_array_to_string(mn, 100, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[None, 6.300000000000001]");
  jg_array_release(mn);
  jg_array_release(sums);
  jg_array_release(s);
  jg_array_release(s01);
  jg_array_release(comb);
  jg_array_release(issue);
}

static void expect(jg_status want_status, jg_status got, const jg_error *err, const char *want) {
  if (got != want_status) {
    print_error("got %s (%s), expected %s\n", jg_status_name(got), err->message,
                jg_status_name(want_status));
  }
  assert_int_equal(got, want_status);
  JGT_CONTAINS(err->message, want);
}

/* Errors found by the fast path's first pass are reported by the general path, unchanged. */
static void test_fast_errors(void **state) {
  (void)state;
  jg_array *out = NULL;
  jg_error err;
  /* A list node of 3000 lists over 60 items whose list 2500 (tile 2) runs past the content,
   * and list 2900 too. */
  int64_t st[3000], sp[3000];
  for (int i = 0; i < 3000; i++) {
    st[i] = i % 50;
    sp[i] = st[i] + i % 4;
  }
  sp[2500] = 61;
  sp[2900] = 99;
  jg_array *bad = jgt_list(st, sp, 3000, 3000, JG_DTYPE_INT64, jgt_cf_content(60, JG_DTYPE_FLOAT32));
  expect(JG_EVALUE, jg_array_combinations(bad, 2, false, NULL, NULL, &out, &err), &err,
         "jg_array_combinations: combinations_counts: list 2500 has stops < starts or reaches "
         "outside the content");
  assert_int_equal(err.index, 2500);
  assert_null(out);
  /* stops < starts in the first tile. */
  sp[7] = st[7] - 1;
  jg_array *down = jgt_list(st, sp, 3000, 3000, JG_DTYPE_INT64, jgt_cf_content(60, JG_DTYPE_INT8));
  expect(JG_EVALUE, jg_array_combinations(down, 3, true, NULL, NULL, &out, &err), &err,
         "list 7 has stops < starts");
  assert_int_equal(err.index, 7);
  /* C(2^32, 4) overflows: reported at list 1 without reading (or copying) the 2^32 items. */
  static double dummy[1];
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(dummy, 8, &b, &jgt_err_));
  jg_layout l;
  const jg_len big = (jg_len)1 << 32;
  const jg_stride zero = 0;
  JGT_OK(jg_layout_init(&l, 1, &big, &zero, 8, &jgt_err_));
  jg_view cv;
  JGT_OK(jg_view_from_buffer(&cv, b, &l, JG_DTYPE_FLOAT64, true, &jgt_err_));
  jg_array *content = NULL;
  JGT_OK(jg_array_numeric(&cv, &content, &jgt_err_));
  jg_array *huge = jgt_list(JGT_I64(0, 0), JGT_I64(0, big), 2, 2, JG_DTYPE_INT64, content);
  expect(JG_EOVERFLOW, jg_array_combinations(huge, 4, false, NULL, NULL, &out, &err), &err,
         "jg_array_combinations: combinations_counts: the number of combinations of list 1 "
         "overflows int64");
  assert_int_equal(err.index, 1);
  /* n outside [1, 4], regular lists. */
  expect(JG_EINVAL, jg_array_combinations(bad, 0, false, NULL, NULL, &out, &err), &err,
         "jg_array_combinations: n = 0 is outside [1, 4]");
  expect(JG_EINVAL, jg_array_combinations(bad, 5, true, NULL, NULL, &out, &err), &err,
         "n = 5 is outside [1, 4]");
  /* Regular lists go through their ranges (the general path). */
  jg_array *regular = jgt_regular(jgt_cf_content(6, JG_DTYPE_FLOAT32), 3, -1);
  JGT_OK(jg_array_argcombinations(regular, 2, false, NULL, NULL, &out, &jgt_err_));
  char text[128];
  JGT_OK(jg_array_to_string(out, 120, text, sizeof text, NULL, &jgt_err_));
  assert_string_equal(text, "[[(0, 1), (0, 2), (1, 2)], [(0, 1), (0, 2), (1, 2)]]");
  jg_array_release(out);
  jg_array_release(regular);
  jg_array_release(huge);
  jg_buffer_release(b);
  jg_array_release(down);
  jg_array_release(bad);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fast_table),
      cmocka_unit_test(test_fast_vs_general),
      cmocka_unit_test(test_fast_fields_and_issue),
      cmocka_unit_test(test_fast_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
