/* test_ufunc_fast.c: the ufuncs' fast paths (jagged op one value per list, jagged op scalar,
 * ufunc_binary_lists for every simple function) against the general broadcast path on the same
 * lists (jgt_ufunc_fast_cases.h): every operation over every layout, int64 offsets (fast) vs
 * int32 offsets and a list node (general), same values, type and leaf bytes; the fast result's
 * offsets start at 0 and are the input's own when they start at 0; x * w checked against a
 * plain loop; and the errors: a per-list array of the wrong length, unequal counts, decreasing
 * offsets (the fast path's data check hands them to the general path, whose messages they get). */
#include "jg_test.h"
#include "jgt_ufunc_fast_cases.h"

/* The offsets view of a list-offset result. */
static jg_view offsets_of(const jg_array *a) {
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  return v;
}

/* Entry i of a 1-D int32/int64 host view. */
static int64_t idx(const jg_view *v, jg_len i) {
  const char *p = (const char *)v->base +
                  v->layout.itemsize * (v->layout.slice_offset + i * v->layout.strides[0]);
  return v->dtype == JG_DTYPE_INT32 ? *(const int32_t *)p : *(const int64_t *)p;
}

static void test_fast_equals_general(void **state) {
  (void)state;
  int nops = 0;
  const jgt_ufc_op *ops = jgt_ufc_ops(&nops);
  for (int o = 0; o < nops; o++) {
    for (int k = 0; k < JGT_UFC_LAYOUTS; k++) {
      jg_array *xf = jgt_ufc_jagged(k, ops[o].xdt, 0);
      jg_array *w = jgt_ufc_per_list(k, ops[o].wdt, 0);
      jg_array *rf = NULL;
      JGT_OK(jgt_ufc_run(&ops[o], xf, w, NULL, &rf, &jgt_err_));
      for (int shape = 1; shape <= 2; shape++) {
        jg_array *xg = jgt_ufc_jagged(k, ops[o].xdt, shape);
        jg_array *rg = NULL;
        JGT_OK(jgt_ufc_run(&ops[o], xg, w, NULL, &rg, &jgt_err_));
        if (!jgt_ufc_same(rf, rg)) {
          print_error("%s, layout %d, shape %d: fast and general differ\n", ops[o].name, k, shape);
          fail();
        }
        jg_array_release(xg);
        jg_array_release(rg);
      }
      /* Offsets from 0, shared with the input's when those start at 0. */
      assert_int_equal(jg_array_kind(rf), JG_NODE_LIST_OFFSET);
      const jg_view ro = offsets_of(rf), xo = offsets_of(xf);
      assert_int_equal(idx(&ro, 0), 0);
      if (idx(&xo, 0) == 0) {
        assert_ptr_equal(jg_view_data(&ro), jg_view_data(&xo));
      }
      jg_array_release(xf);
      jg_array_release(w);
      jg_array_release(rf);
    }
  }
}

/* x * w for layout 5 (1000 lists, a last one empty) and layout 3 (sliced), against a loop. */
static void test_per_list_reference(void **state) {
  (void)state;
  const int layouts[2] = {5, 3};
  for (int q = 0; q < 2; q++) {
    const int k = layouts[q];
    jg_array *x = jgt_ufc_jagged(k, JG_DTYPE_FLOAT32, 0);
    jg_array *w = jgt_ufc_per_list(k, JG_DTYPE_FLOAT32, 0);
    jg_array *r = NULL;
    const uint64_t lists0 = jgt_ufc_calls("ufunc_binary_lists");
    const uint64_t parents0 = jgt_ufc_calls("list_parents");
    JGT_OK(jg_array_ufunc2(JG_UFUNC_MULTIPLY, x, w, NULL, &r, &jgt_err_));
    /* The fused path: one ufunc_binary_lists call, no parents. */
    assert_int_equal(jgt_ufc_calls("ufunc_binary_lists"), lists0 + 1);
    assert_int_equal(jgt_ufc_calls("list_parents"), parents0);
    const jg_view xo = offsets_of(x), ro = offsets_of(r);
    jg_view xv, wv, rv;
    JGT_OK(jg_array_buffer(jg_array_child(x, 0), 0, &xv, &jgt_err_));
    JGT_OK(jg_array_buffer(w, 0, &wv, &jgt_err_));
    JGT_OK(jg_array_buffer(jg_array_child(r, 0), 0, &rv, &jgt_err_));
    const jg_len n = jg_array_length(x);
    assert_int_equal(jg_array_length(r), n);
    const float *xd = jg_view_data(&xv), *wd = jg_view_data(&wv), *rd = jg_view_data(&rv);
    const int64_t lo = idx(&xo, 0);
    for (jg_len i = 0; i < n; i++) {
      const int64_t a = idx(&xo, i), b = idx(&xo, i + 1);
      assert_int_equal(idx(&ro, i), a - lo);
      for (int64_t j = a; j < b; j++) {
        const float want = xd[j] * wd[i], got = rd[j - lo];
        assert_true((isnan(want) && isnan(got)) || memcmp(&want, &got, sizeof want) == 0);
      }
    }
    jg_array_release(x);
    jg_array_release(w);
    jg_array_release(r);
  }
}

/* The same error, status and message from the fast-shaped input and the general one. */
static void same_error(jg_ufunc f, const jg_array *x1, const jg_array *x2, const jg_array *w,
                       bool swap, jg_status want, const char *part) {
  jg_error e1, e2;
  jg_array *r1 = NULL, *r2 = NULL;
  const jg_status s1 = swap ? jg_array_ufunc2(f, w, x1, NULL, &r1, &e1)
                            : jg_array_ufunc2(f, x1, w, NULL, &r1, &e1);
  const jg_status s2 = swap ? jg_array_ufunc2(f, w, x2, NULL, &r2, &e2)
                            : jg_array_ufunc2(f, x2, w, NULL, &r2, &e2);
  assert_int_equal(s1, want);
  assert_int_equal(s2, want);
  assert_null(r1);
  assert_null(r2);
  assert_string_equal(e1.message, e2.message);
  assert_int_equal(e1.index, e2.index);
  JGT_CONTAINS(e1.message, part);
}

static void test_errors(void **state) {
  (void)state;
  /* A per-list array one too long, and one too short. */
  jg_array *x1 = jgt_ufc_jagged(5, JG_DTYPE_FLOAT32, 0), *x2 = jgt_ufc_jagged(5, JG_DTYPE_FLOAT32, 1);
  jg_array *wl = jgt_ufc_per_list(5, JG_DTYPE_FLOAT32, 1), *ws = jgt_ufc_per_list(5, JG_DTYPE_FLOAT32, -1);
  same_error(JG_UFUNC_MULTIPLY, x1, x2, wl, false, JG_ESHAPE, "x has length 1000, y has length 1001");
  same_error(JG_UFUNC_MULTIPLY, x1, x2, ws, true, JG_ESHAPE, "has length");
  /* Unequal counts between two jagged arrays (the elementwise path). */
  static const int64_t oa[] = {0, 2, 2, 5}, ob[] = {0, 2, 3, 5};
  static const float va[] = {1, 2, 3, 4, 5};
  jg_array *ja = jgt_offsets64(oa, 4, jgt_numeric(va, 5, JG_DTYPE_FLOAT32));
  jg_array *jb = jgt_offsets64(ob, 4, jgt_numeric(va, 5, JG_DTYPE_FLOAT32));
  jg_array *r = NULL;
  jg_error e;
  assert_int_equal(jg_array_ufunc2(JG_UFUNC_ADD, ja, jb, NULL, &r, &e), JG_ESHAPE);
  assert_null(r);
  JGT_CONTAINS(e.message, "list 1 has 0 elements in x and 1 in y");
  assert_int_equal(e.index, 1);
  /* Decreasing offsets in the middle: the fast path's check hands over to the general path. */
  static const int64_t od[] = {0, 3, 1, 5};
  static const int32_t od32[] = {0, 3, 1, 5};
  static const float wv[] = {1, 2, 3};
  jg_array *d1 = jgt_offsets64(od, 4, jgt_numeric(va, 5, JG_DTYPE_FLOAT32));
  jg_array *d2 = jgt_list_offset(od32, 4, JG_DTYPE_INT32, jgt_numeric(va, 5, JG_DTYPE_FLOAT32));
  jg_array *w3 = jgt_numeric(wv, 3, JG_DTYPE_FLOAT32);
  same_error(JG_UFUNC_MULTIPLY, d1, d2, w3, false, JG_EVALUE, "");
  /* Offsets past the content. */
  static const int64_t op[] = {0, 3, 4, 9};
  static const int32_t op32[] = {0, 3, 4, 9};
  jg_array *p1 = jgt_offsets64(op, 4, jgt_numeric(va, 5, JG_DTYPE_FLOAT32));
  jg_array *p2 = jgt_list_offset(op32, 4, JG_DTYPE_INT32, jgt_numeric(va, 5, JG_DTYPE_FLOAT32));
  same_error(JG_UFUNC_MULTIPLY, p1, p2, w3, true, JG_EVALUE, "");
  jg_error e1, e2;
  jg_array *r1 = NULL, *r2 = NULL;
  assert_int_equal(jg_array_ufunc2_scalar(JG_UFUNC_MULTIPLY, p1, jg_scalar_float(2), false, NULL,
                                          &r1, &e1), JG_EVALUE);
  assert_int_equal(jg_array_ufunc2_scalar(JG_UFUNC_MULTIPLY, p2, jg_scalar_float(2), false, NULL,
                                          &r2, &e2), JG_EVALUE);
  assert_string_equal(e1.message, e2.message);
  /* Subtract of bools with a scalar: the general path's dtype error. */
  static const bool bv[] = {true, false};
  static const int64_t ob2[] = {0, 1, 2};
  jg_array *jbool = jgt_offsets64(ob2, 3, jgt_numeric(bv, 2, JG_DTYPE_BOOL));
  assert_int_equal(jg_array_ufunc2_scalar(JG_UFUNC_SUBTRACT, jbool, jg_scalar_bool(true), false,
                                          NULL, &r1, &e1), JG_EDTYPE);
  JGT_CONTAINS(e1.message, "subtract of two bools");
  jg_array *arrs[] = {x1, x2, wl, ws, ja, jb, d1, d2, w3, p1, p2, jbool};
  for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) jg_array_release(arrs[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fast_equals_general),
      cmocka_unit_test(test_per_list_reference),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
