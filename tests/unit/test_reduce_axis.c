/* test_reduce_axis.c: reductions at the outer and middle axes on the host (ops.h:
 * jg_array_reduce with opt->axis): the case table of jgt_reduce_axis_cases.h (the issue's
 * product over the middle axis, awkward.md 6.4's axis examples, every reducer at axis 0 and a
 * middle axis on 3-level data with empty lists, None lists, keepdims, mask_identity, list nodes,
 * two and four levels, no lists), a random 3-level array checked against a plain left-aligned
 * loop, and the errors (axis beyond the depth, unsupported structure, bad lists). */
#include "jg_test.h"
#include "jgt_reduce_axis_cases.h"

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
  const jgt_racase *cases = jgt_reduce_axis_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_racase *c = &cases[i];
    jg_array *a = c->make(), *out = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_ra_run(c, a, NULL, &out, &err);
    if (st != JG_OK) {
      print_error("case '%s': %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      JGT_OK(jg_array_validate(out, JG_VALIDATE_FULL, NULL, &jgt_err_));
      const char *v = str(out), *t = type_of(out);
      if (strcmp(v, c->value) != 0 || strcmp(t, c->type) != 0) {
        print_error("case '%s': got %s of type %s, expected %s of type %s\n", c->name, v, t,
                    c->value, c->type);
        failed++;
      }
    }
    jg_array_release(out);
    jg_array_release(a);
  }
  assert_int_equal(failed, 0);
}

/* Zeroed and NULL options reduce the innermost axis; has_axis with axis 0 the outer one. */
static void test_default_axis(void **state) {
  (void)state;
  jg_array *a = jgt_rc_nested(), *out = NULL;
  jg_reduce_options zero;
  memset(&zero, 0, sizeof zero);
  JGT_OK(jg_array_reduce(a, JG_REDUCE_SUM, &zero, &out, &jgt_err_));
  assert_string_equal(str(out), "[[3, 3], [], [4, 0, 18]]");
  jg_array_release(out);
  zero.has_axis = true;
  JGT_OK(jg_array_reduce(a, JG_REDUCE_SUM, &zero, &out, &jgt_err_));
  assert_string_equal(str(out), "[[5, 2], [3], [5, 6, 7]]");
  jg_array_release(out);
  JGT_OK(jg_array_reduce(a, JG_REDUCE_SUM, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[3, 3], [], [4, 0, 18]]");
  jg_array_release(out);
  jg_array_release(a);
}

static uint64_t g_rng = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

/* A random 3-level int64 array (20000 outer lists of 0..5 lists of 0..6 values, offsets not at
 * 0): sum, max and argmax at axes 0 and 1 against a plain left-aligned loop. */
static void test_random(void **state) {
  (void)state;
  const int64_t n = 20000;
  int64_t *outer = malloc((size_t)(n + 1) * sizeof *outer);
  int64_t *inner = malloc((size_t)(5 * n + 2) * sizeof *inner);
  int64_t *v = malloc((size_t)(30 * n + 2) * sizeof *v);
  assert_true(outer != NULL && inner != NULL && v != NULL);
  outer[0] = 1;
  inner[0] = 0;
  inner[1] = 2; /* the unreachable first inner list */
  int64_t ni = 1, nv = 2;
  for (int64_t i = 0; i < n; i++) {
    const int64_t k = (int64_t)(rnd() % 6);
    for (int64_t j = 0; j < k; j++) {
      nv += (int64_t)(rnd() % 7);
      inner[++ni] = nv;
    }
    outer[i + 1] = outer[i] + k;
  }
  for (int64_t p = 0; p < nv; p++) v[p] = (int64_t)(rnd() % 1000) - 500;
  jg_array *a = jgt_offsets64(outer, n + 1, jgt_offsets64(inner, ni + 1, jgt_i64(v, nv)));
  /* Axis 1: per outer list, column c over its sublists. */
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  o.axis = 1;
  o.mask_identity = -1;
  jg_array *s = NULL, *m = NULL, *am = NULL;
  JGT_OK(jg_array_reduce(a, JG_REDUCE_SUM, &o, &s, &jgt_err_));
  JGT_OK(jg_array_reduce(a, JG_REDUCE_MAX, &o, &m, &jgt_err_));
  JGT_OK(jg_array_reduce(a, JG_REDUCE_ARGMAX, &o, &am, &jgt_err_));
  jg_view so, sv, mv, av;
  JGT_OK(jg_array_buffer(s, 0, &so, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(s, 0), 0, &sv, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(m, 0), 0, &mv, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(am, 0), 0, &av, &jgt_err_));
  const int64_t *os = jg_view_data(&so), *ss = jg_view_data(&sv), *ms = jg_view_data(&mv),
                *as = jg_view_data(&av);
  int bad = 0;
  int64_t slot = 0;
  for (int64_t i = 0; i < n && !bad; i++) {
    int64_t most = 0;
    for (int64_t j = outer[i]; j < outer[i + 1]; j++) {
      if (inner[j + 1] - inner[j] > most) most = inner[j + 1] - inner[j];
    }
    if (os[i] != slot || os[i + 1] - os[i] != most) bad = 1;
    for (int64_t c = 0; c < most && !bad; c++, slot++) {
      int64_t sum = 0, mx = INT64_MIN, arg = -1;
      for (int64_t j = outer[i]; j < outer[i + 1]; j++) {
        if (inner[j + 1] - inner[j] <= c) continue;
        const int64_t x = v[inner[j] + c];
        sum += x;
        if (x > mx) {
          mx = x;
          arg = j - outer[i];
        }
      }
      if (ss[slot] != sum || ms[slot] != mx || as[slot] != arg) bad = 1;
    }
  }
  assert_int_equal(bad, 0);
  jg_array_release(s);
  jg_array_release(m);
  jg_array_release(am);
  /* Axis 0: item j, column c over every outer list. */
  o.has_axis = true;
  o.axis = 0;
  JGT_OK(jg_array_reduce(a, JG_REDUCE_SUM, &o, &s, &jgt_err_));
  int64_t maxk = 0;
  for (int64_t i = 0; i < n; i++) {
    if (outer[i + 1] - outer[i] > maxk) maxk = outer[i + 1] - outer[i];
  }
  assert_int_equal(jg_array_length(s), maxk);
  JGT_OK(jg_array_buffer(s, 0, &so, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(s, 0), 0, &sv, &jgt_err_));
  os = jg_view_data(&so);
  ss = jg_view_data(&sv);
  for (int64_t j = 0; j < maxk && !bad; j++) {
    int64_t most = 0;
    for (int64_t i = 0; i < n; i++) {
      if (outer[i + 1] - outer[i] > j) {
        const int64_t q = outer[i] + j;
        if (inner[q + 1] - inner[q] > most) most = inner[q + 1] - inner[q];
      }
    }
    if (os[j + 1] - os[j] != most) bad = 1;
    for (int64_t c = 0; c < most && !bad; c++) {
      int64_t sum = 0;
      for (int64_t i = 0; i < n; i++) {
        if (outer[i + 1] - outer[i] <= j) continue;
        const int64_t q = outer[i] + j;
        if (inner[q + 1] - inner[q] > c) sum += v[inner[q] + c];
      }
      if (ss[os[j] + c] != sum) bad = 1;
    }
  }
  assert_int_equal(bad, 0);
  jg_array_release(s);
  jg_array_release(a);
  free(v);
  free(inner);
  free(outer);
}

static void expect_error(const jg_array *a, int64_t axis, jg_reducer r, jg_status want,
                         const char *msg) {
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  o.axis = axis;
  jg_array *out = (jg_array *)(uintptr_t)1;
  jg_error err;
  const jg_status st = jg_array_reduce(a, r, &o, &out, &err);
  if (st != want) print_error("got %s: %s\n", jg_status_name(st), err.message);
  assert_int_equal(st, want);
  assert_null(out);
  JGT_CONTAINS(err.message, msg);
}

/* The printout and type of `a` reduced with r at axis. */
static void expect_reduced(const jg_array *a, int64_t axis, jg_reducer r, const char *text,
                           const char *type) {
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  o.axis = axis;
  jg_array *out = NULL;
  JGT_OK(jg_array_reduce(a, r, &o, &out, &jgt_err_));
  assert_string_equal(str(out), text);
  assert_string_equal(type_of(out), type);
  jg_array_release(out);
}

static void test_errors(void **state) {
  (void)state;
  jg_array *x = jgt_rc_nested();
  expect_error(x, 3, JG_REDUCE_SUM, JG_ESHAPE,
               "jg_array_reduce: axis=3 exceeds the depth of the nested list structure (which is "
               "3)");
  expect_error(x, -4, JG_REDUCE_MAX, JG_ESHAPE, "axis=-4 exceeds the depth");
  expect_error(x, INT64_MIN, JG_REDUCE_MAX, JG_ESHAPE, "exceeds the depth");
  jg_array *two = jgt_ra_two();
  expect_error(two, 2, JG_REDUCE_SUM, JG_ESHAPE,
               "axis=2 exceeds the depth of the nested list structure (which is 2)");
  /* None lists at the reduced axis (axis 0 over an option) or below it contribute nothing;
   * argmin and argmax positions count them (more: test_reduce_none.c). */
  jg_array *none = jgt_ra_none(); /* [[[1, 2], [3]], None, [], [[4], [], [5, 6, 7]]] */
  expect_reduced(none, 0, JG_REDUCE_SUM, "[[5, 2], [3], [5, 6, 7]]", "3 * var * int64");
  expect_reduced(none, 0, JG_REDUCE_ARGMAX, "[[3, 0], [0], [3, 3, 3]]", "3 * var * ?int64");
  static const int64_t v[] = {1, 2, 3};
  jg_array *inner_none = JGT_OFFSETS( /* [[[1], None, [2, 3]]] */
      jgt_indexed(JGT_I64(0, -1, 1), 3, JG_DTYPE_INT64, JGT_OFFSETS(jgt_i64(v, 3), 0, 1, 3)), 0,
      3);
  expect_reduced(inner_none, 1, JG_REDUCE_SUM, "[[3, 3]]", "1 * var * int64");
  expect_reduced(inner_none, 1, JG_REDUCE_ARGMIN, "[[0, 2]]", "1 * var * ?int64");
  /* A regular level below the axis. */
  jg_array *reg = JGT_OFFSETS(jgt_regular(jgt_i64(v, 3), 1, -1), 0, 3);
  expect_error(reg, 0, JG_REDUCE_SUM, JG_ENOTSUP, "a regular level (size 1)");
  /* Records. */
  jg_array *rec = JGT_OFFSETS(jgt_rc_records(), 0, 3);
  expect_error(rec, 0, JG_REDUCE_SUM, JG_ENOTSUP, "cannot sum records");
  /* A middle list that leaves its content: inner list 1 of [[0, 2], [1, 9]] over 3 values. */
  jg_array *badl = JGT_OFFSETS(jgt_list(JGT_I64(0, 1), JGT_I64(2, 9), 2, 2, JG_DTYPE_INT64,
                                        jgt_i64(v, 3)),
                               0, 2);
  expect_error(badl, 0, JG_REDUCE_SUM, JG_EVALUE,
               "reduce_axis_lengths: list 1 has stops < starts or reaches outside the content");
  static const uint16_t h[] = {1, 2};
  jg_array *half = JGT_OFFSETS(JGT_OFFSETS(jgt_numeric(h, 2, JG_DTYPE_FLOAT16), 0, 2), 0, 1);
  expect_error(half, 1, JG_REDUCE_SUM, JG_EDTYPE, "cannot sum float16 values");
  jg_array_release(half);
  jg_array_release(badl);
  jg_array_release(rec);
  jg_array_release(reg);
  jg_array_release(inner_none);
  jg_array_release(none);
  jg_array_release(two);
  jg_array_release(x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_default_axis),
      cmocka_unit_test(test_random),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
