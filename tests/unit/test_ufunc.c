/* test_ufunc.c: elementwise functions with broadcasting on the host (ufunc.h): the case table of
 * jgt_ufunc_cases.h (Awkward's broadcasting examples, layouts, promotion, NumPy's arithmetic
 * rules, unary functions, errors), names and arities, the promotion table, weak scalars, the
 * buffers a result shares, every public argument error, and 2^20 + 1 lists checked against a
 * plain loop. Expected values are worked out by hand (see jgt_ufunc_cases.h). */
#include "jg_test.h"
#include "jgt_ufunc_cases.h"

static char g_text[8192];
static char g_type[512];

static const char *str(const jg_array *a) {
  JGT_OK(jg_array_to_string(a, 4000, g_text, sizeof g_text, NULL, &jgt_err_));
  return g_text;
}

static const char *type_of(const jg_array *a) {
  JGT_OK(jg_array_type_string(a, g_type, sizeof g_type, NULL, &jgt_err_));
  return g_type;
}

static void test_table(void **state) {
  (void)state;
  size_t n = 0;
  const jgt_ucase *cases = jgt_ufunc_cases(&n);
  assert_true(n > 60);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_ucase *c = &cases[i];
    jg_array *a = c->a(), *b = c->b != NULL ? c->b() : NULL, *cc = c->c != NULL ? c->c() : NULL;
    jg_array *out = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_uc_run(c, a, b, cc, NULL, &out, &err);
    if (c->value != NULL) {
      if (st != JG_OK) {
        print_error("case '%s': %s: %s\n", c->name, jg_status_name(st), err.message);
        failed++;
      } else {
        const char *v = str(out), *t = type_of(out);
        if (strcmp(v, c->value) != 0 || strcmp(t, c->type) != 0) {
          print_error("case '%s': got %s of type %s, expected %s of type %s\n", c->name, v, t,
                      c->value, c->type);
          failed++;
        }
      }
    } else if (st != c->status || strstr(err.message, c->message) == NULL ||
               err.index != c->index || out != NULL) {
      print_error("case '%s': got %s (index %lld): %s; expected %s (index %lld) with '%s'\n",
                  c->name, jg_status_name(st), (long long)err.index, err.message,
                  jg_status_name(c->status), (long long)c->index, c->message);
      failed++;
    }
    jg_array_release(out);
    jg_array_release(a);
    jg_array_release(b);
    jg_array_release(cc);
  }
  assert_int_equal(failed, 0);
}

static void test_names(void **state) {
  (void)state;
  assert_string_equal(jg_ufunc_name(JG_UFUNC_ADD), "add");
  assert_string_equal(jg_ufunc_name(JG_UFUNC_TRUE_DIVIDE), "true_divide");
  assert_string_equal(jg_ufunc_name(JG_UFUNC_ARCTAN2), "arctan2");
  assert_string_equal(jg_ufunc_name(JG_UFUNC_ISFINITE), "isfinite");
  assert_string_equal(jg_ufunc_name((jg_ufunc)99), "unknown");
  assert_int_equal(jg_ufunc_arity(JG_UFUNC_MAXIMUM), 2);
  assert_int_equal(jg_ufunc_arity(JG_UFUNC_TANH), 1);
  assert_int_equal(jg_ufunc_arity((jg_ufunc)0), 0);
  assert_int_equal(jg_ufunc_arity((jg_ufunc)23), 0);
  /* pinned numbers */
  assert_int_equal(JG_UFUNC_BITWISE_XOR, 22);
  assert_int_equal(JG_UFUNC_NEGATIVE, 40);
  assert_int_equal(JG_UFUNC_INVERT, 60);
}

static void test_promote(void **state) {
  (void)state;
  /* NumPy's np.promote_types, row by row for a few types (worked out from its table). */
  static const struct {
    jg_dtype a, b, want;
  } t[] = {
      {JG_DTYPE_INT64, JG_DTYPE_UINT64, JG_DTYPE_FLOAT64},
      {JG_DTYPE_INT32, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT64},
      {JG_DTYPE_INT16, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT32},
      {JG_DTYPE_UINT16, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT32},
      {JG_DTYPE_UINT8, JG_DTYPE_INT8, JG_DTYPE_INT16},
      {JG_DTYPE_INT8, JG_DTYPE_UINT16, JG_DTYPE_INT32},
      {JG_DTYPE_UINT32, JG_DTYPE_INT32, JG_DTYPE_INT64},
      {JG_DTYPE_UINT32, JG_DTYPE_INT64, JG_DTYPE_INT64},
      {JG_DTYPE_UINT8, JG_DTYPE_INT64, JG_DTYPE_INT64},
      {JG_DTYPE_UINT64, JG_DTYPE_INT8, JG_DTYPE_FLOAT64},
      {JG_DTYPE_UINT8, JG_DTYPE_UINT32, JG_DTYPE_UINT32},
      {JG_DTYPE_INT8, JG_DTYPE_INT64, JG_DTYPE_INT64},
      {JG_DTYPE_BOOL, JG_DTYPE_UINT8, JG_DTYPE_UINT8},
      {JG_DTYPE_BOOL, JG_DTYPE_BOOL, JG_DTYPE_BOOL},
      {JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT64, JG_DTYPE_FLOAT64},
      {JG_DTYPE_FLOAT32, JG_DTYPE_BOOL, JG_DTYPE_FLOAT32},
      {JG_DTYPE_INT64, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT64},
      {JG_DTYPE_FLOAT16, JG_DTYPE_FLOAT32, JG_DTYPE_INVALID},
      {JG_DTYPE_COMPLEX64, JG_DTYPE_INT8, JG_DTYPE_INVALID},
      {JG_DTYPE_INVALID, JG_DTYPE_INT8, JG_DTYPE_INVALID},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    assert_int_equal(jg_dtype_promote(t[i].a, t[i].b), t[i].want);
    assert_int_equal(jg_dtype_promote(t[i].b, t[i].a), t[i].want);
  }
}

static void test_shares_offsets(void **state) {
  (void)state;
  /* x3 has offsets from 0: the result shares them; values are a new buffer. */
  jg_array *x = jgt_uc_x3(), *y = jgt_uc_y3(), *out = NULL;
  JGT_OK(jg_array_ufunc2(JG_UFUNC_ADD, x, y, NULL, &out, &jgt_err_));
  jg_view xo, oo, xv, ov;
  JGT_OK(jg_array_buffer(x, 0, &xo, &jgt_err_));
  JGT_OK(jg_array_buffer(out, 0, &oo, &jgt_err_));
  assert_ptr_equal(jg_view_data(&xo), jg_view_data(&oo));
  JGT_OK(jg_array_buffer(jg_array_child(x, 0), 0, &xv, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(out, 0), 0, &ov, &jgt_err_));
  assert_ptr_not_equal(jg_view_data(&xv), jg_view_data(&ov));
  jg_array_release(out);
  /* offsets not at 0 give new compact offsets [0, 3, 3, 5] */
  jg_array *s = jgt_uc_x3_shifted();
  JGT_OK(jg_array_ufunc1(JG_UFUNC_NEGATIVE, s, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_buffer(out, 0, &oo, &jgt_err_));
  const int64_t *o = jg_view_data(&oo);
  assert_int_equal(o[0], 0);
  assert_int_equal(o[1], 3);
  assert_int_equal(o[3], 5);
  jg_array_release(out);
  jg_array_release(s);
  jg_array_release(x);
  jg_array_release(y);
}

static void test_argument_errors(void **state) {
  (void)state;
  jg_array *x = jgt_uc_x3(), *out = NULL;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_ufunc1(JG_UFUNC_SQRT, NULL, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_ufunc1: x is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_ufunc1(JG_UFUNC_SQRT, x, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_array_ufunc1(JG_UFUNC_ADD, x, NULL, &out, &err));
  JGT_CONTAINS(err.message, "not a unary function");
  JGT_STATUS(JG_EINVAL, jg_array_ufunc2(JG_UFUNC_ADD, x, NULL, NULL, &out, &err));
  JGT_CONTAINS(err.message, "y is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_ufunc2_scalar(JG_UFUNC_ADD, NULL, jg_scalar_int(1), false, NULL,
                                               &out, &err));
  jg_scalar bad = jg_scalar_f64(1.0);
  bad.dtype = JG_DTYPE_FLOAT16;
  JGT_STATUS(JG_EDTYPE, jg_array_ufunc2_scalar(JG_UFUNC_ADD, x, bad, false, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_ufunc2_scalar: a scalar of dtype float16");
  JGT_STATUS(JG_EINVAL, jg_array_where(x, NULL, x, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_where: x is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_where(x, x, x, NULL, NULL, &err));
  assert_null(out);
  /* float16 leaves */
  static const uint16_t h[] = {0x3c00, 0x4000};
  jg_array *hx = jgt_numeric(h, 2, JG_DTYPE_FLOAT16);
  JGT_STATUS(JG_EDTYPE, jg_array_ufunc1(JG_UFUNC_SQRT, hx, NULL, &out, &err));
  JGT_CONTAINS(err.message, "float16");
  jg_array_release(hx);
  /* invert of floats */
  jg_array *f = jgt_uc_f32();
  JGT_STATUS(JG_EDTYPE, jg_array_ufunc1(JG_UFUNC_INVERT, f, NULL, &out, &err));
  JGT_CONTAINS(err.message, "invert is not defined for float32");
  jg_array_release(f);
  /* NULL err is fine */
  jg_array *yb = jgt_uc_y3_bad();
  JGT_STATUS(JG_ESHAPE, jg_array_ufunc2(JG_UFUNC_ADD, x, yb, NULL, &out, NULL));
  jg_array_release(yb);
  jg_array_release(x);
}

static void test_long(void **state) {
  (void)state;
  /* 2^20 + 1 lists of counts i % 7 (float64), times a per-list float32 array, and where on
   * their comparison: checked against a plain loop. */
  const jg_len n = (1 << 20) + 1;
  int64_t *counts = malloc(sizeof *counts * (size_t)n);
  float *per = malloc(sizeof *per * (size_t)n);
  assert_non_null(counts);
  assert_non_null(per);
  jg_len total = 0;
  for (jg_len i = 0; i < n; i++) {
    counts[i] = i % 7;
    per[i] = (float)(i % 13) - 6.0f;
    total += counts[i];
  }
  double *content = malloc(sizeof *content * (size_t)total);
  assert_non_null(content);
  for (jg_len j = 0; j < total; j++) content[j] = (double)(j % 101) * 0.25 - 12.0;
  jg_array *x = NULL, *out = NULL, *cmp = NULL, *w = NULL;
  JGT_OK(jg_array_from_host_counts(counts, n, content, total, JG_DTYPE_FLOAT64, &x, &jgt_err_));
  jg_array *y = jgt_numeric(per, n, JG_DTYPE_FLOAT32);
  JGT_OK(jg_array_ufunc2(JG_UFUNC_MULTIPLY, x, y, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_ufunc2(JG_UFUNC_LESS, x, y, NULL, &cmp, &jgt_err_));
  JGT_OK(jg_array_where(cmp, x, y, NULL, &w, &jgt_err_));
  jg_view ov, cv, wv;
  JGT_OK(jg_array_buffer(jg_array_child(out, 0), 0, &ov, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(cmp, 0), 0, &cv, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(w, 0), 0, &wv, &jgt_err_));
  assert_int_equal(ov.dtype, JG_DTYPE_FLOAT64);
  assert_int_equal(ov.layout.shape[0], total);
  const double *o = jg_view_data(&ov), *wd = jg_view_data(&wv);
  const bool *cd = jg_view_data(&cv);
  jg_len j = 0;
  int bad = 0;
  for (jg_len i = 0; i < n; i++) {
    for (jg_len k = 0; k < counts[i]; k++, j++) {
      const double a = content[j], b = (double)per[i];
      bad += o[j] != a * b;
      bad += cd[j] != (a < b);
      bad += wd[j] != (a < b ? a : b);
    }
  }
  assert_int_equal(bad, 0);
  jg_array_release(out);
  jg_array_release(cmp);
  jg_array_release(w);
  jg_array_release(x);
  jg_array_release(y);
  free(counts);
  free(per);
  free(content);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),          cmocka_unit_test(test_names),
      cmocka_unit_test(test_promote),        cmocka_unit_test(test_shares_offsets),
      cmocka_unit_test(test_argument_errors), cmocka_unit_test(test_long),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
