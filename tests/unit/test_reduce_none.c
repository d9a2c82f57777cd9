/* test_reduce_none.c: reductions of lists that hold None values (ops.h jg_array_reduce), which
 * skip them as Awkward does: every reducer on every option representation, at every axis, with
 * mask_identity and keepdims, against a reference loop (jgt_reduce_none_cases.h); Awkward's
 * documented examples on arrays from jagged's own builder; errors. */
#include "jg_test.h"
#include "jgt_array_cases.h"
#include "jgt_reduce_none_cases.h"
#include "jgt_text.h"

static char g_buf[2][4096];

static const char *desc(const jg_array *a, int slot) {
  return jgt_rn_desc(a, g_buf[slot], sizeof g_buf[slot]);
}

/* Every case of the table against its reference. */
static void test_table(void **state) {
  (void)state;
  int failed = 0;
  for (int i = 0; i < JGT_RN_COUNT; i++) {
    jgt_rn_case c;
    char name[256];
    jgt_rn_case_at(i, &c, name, sizeof name);
    jg_array *a = jgt_rn_input(&c), *want = jgt_rn_expected(&c), *got = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_rn_run(&c, a, NULL, &got, &err);
    if (st != JG_OK) {
      if (failed++ < 10) print_error("%s: %s: %s\n", name, jg_status_name(st), err.message);
    } else if (strcmp(desc(got, 0), desc(want, 1)) != 0) {
      if (failed++ < 10) print_error("%s:\n  got  %s\n  want %s\n", name, g_buf[0], g_buf[1]);
    }
    jg_array_release(got);
    jg_array_release(want);
    jg_array_release(a);
  }
  assert_int_equal(failed, 0);
}

/* jg_array_reduce of builder-made text with r and options; the result's printout. */
static const char *reduce_text(const char *text, jg_reducer r, int64_t axis, int mask_identity,
                               bool keepdims) {
  jg_array *a = jgt_text(text), *out = NULL;
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  o.axis = axis;
  o.mask_identity = mask_identity;
  o.keepdims = keepdims;
  JGT_OK(jg_array_reduce(a, r, &o, &out, &jgt_err_));
  JGT_OK(jg_array_to_string(out, 2000, g_buf[0], sizeof g_buf[0], NULL, &jgt_err_));
  jg_array_release(out);
  jg_array_release(a);
  return g_buf[0];
}

/* Awkward's documented results (../shared/notes/awkward.md 6.4), on builder arrays. */
static void test_awkward_examples(void **state) {
  (void)state;
  assert_string_equal(reduce_text("[[1, None, 2], None, []]", JG_REDUCE_SUM, -1, 0, false),
                      "[3, None, 0]");
  assert_string_equal(
      reduce_text("[[1, None, 2], None, [], [None]]", JG_REDUCE_MIN, -1, 0, false),
      "[1, None, None, None]");
  assert_string_equal(reduce_text("[[None, 3, 1]]", JG_REDUCE_ARGMIN, -1, 0, false), "[2]");
  assert_string_equal(reduce_text("[[None, None], [None, 2]]", JG_REDUCE_ARGMAX, 1, 0, false),
                      "[None, 1]");
  assert_string_equal(reduce_text("[[None, None], [None, 2]]", JG_REDUCE_SUM, -1, 0, false),
                      "[0, 2]");
  assert_string_equal(reduce_text("[[None, None], [None, 2]]", JG_REDUCE_COUNT, -1, 0, false),
                      "[0, 1]");
  /* The ADL pattern: argmin with keepdims over optional values, None for all-None lists. */
  assert_string_equal(
      reduce_text("[[None, 3.5, 1.5], [None], [], [2.5, 0.5]]", JG_REDUCE_ARGMIN, -1, 0, true),
      "[[2], [None], [None], [1]]");
  /* mask_identity -1: the identity for lists of None only. */
  assert_string_equal(
      reduce_text("[[None, 3.5], [None]]", JG_REDUCE_ARGMAX, -1, -1, false), "[1, -1]");
  assert_string_equal(reduce_text("[[None, 3], [None]]", JG_REDUCE_MAX, -1, -1, false),
                      "[3, -9223372036854775808]");
  /* Means of the valid values (count excludes None). */
  assert_string_equal(reduce_text("[[None, 1.0, 2.0], [None]]", JG_REDUCE_MEAN, -1, 1, false),
                      "[1.5, None]");
  /* Outer and middle axes, left-aligned: positions count the Nones. */
  assert_string_equal(
      reduce_text("[[1, None], [None, 3, 4], [5]]", JG_REDUCE_SUM, 0, 0, false), "[6, 3, 4]");
  assert_string_equal(
      reduce_text("[[[None, 1], [2]], [[None], [3, None, 6]]]", JG_REDUCE_ARGMAX, 1, 0, false),
      "[[1, 0], [1, None, 1]]");
  /* Only None values, no number ever appended (an option over an empty node: ?unknown). */
  assert_string_equal(reduce_text("[[None, None], []]", JG_REDUCE_SUM, -1, 0, false), "[0, 0]");
  assert_string_equal(reduce_text("[[None, None], []]", JG_REDUCE_MIN, -1, 0, false),
                      "[None, None]");
  assert_string_equal(reduce_text("[[None], [None, None]]", JG_REDUCE_ARGMIN, 0, 0, false),
                      "[None, None]");
  /* None lists at or below the reduced axis contribute nothing; positions count them. */
  assert_string_equal(reduce_text("[[1, 2], None, [3]]", JG_REDUCE_SUM, 0, 0, false), "[4, 2]");
  assert_string_equal(reduce_text("[[5, 2], None, [1]]", JG_REDUCE_ARGMIN, 0, 0, false),
                      "[2, 0]");
  assert_string_equal(reduce_text("[[[1, 2], None], [[3]]]", JG_REDUCE_SUM, 0, 0, false),
                      "[[4, 2], []]");
  assert_string_equal(reduce_text("[[[1, 2], None], [None]]", JG_REDUCE_MAX, 1, 0, false),
                      "[[1, 2], []]");
  assert_string_equal(reduce_text("[[None, [4, None]], [[7], None, [0]]]", JG_REDUCE_ARGMAX, 1,
                                  0, false),
                      "[[1, None], [0]]");
  assert_string_equal(reduce_text("[None, [2, 1], None]", JG_REDUCE_PROD, 0, 0, true),
                      "[[2, 1]]");
}

static void expect_error(const jg_array *a, int64_t axis, jg_status st, const char *needle,
                         int64_t index) {
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  o.axis = axis;
  jg_array *out = (jg_array *)(uintptr_t)1;
  jg_error err;
  jg_error_clear(&err);
  assert_int_equal(jg_array_reduce(a, JG_REDUCE_SUM, &o, &out, &err), st);
  assert_null(out);
  JGT_CONTAINS(err.message, needle);
  if (index >= 0) assert_int_equal(err.index, index);
}

/* Lists that leave their option content. */
static void test_errors(void **state) {
  (void)state;
  static const int64_t v[] = {1, 2, 3};
  /* list 1 stops past the 3 entries of the option */
  jg_array *bad = jgt_list(JGT_I64(0, 1), JGT_I64(1, 4), 2, 2, JG_DTYPE_INT64,
                           jgt_indexed(JGT_I64(0, -1, 2), 3, JG_DTYPE_INT64, jgt_i64(v, 3)));
  expect_error(bad, -1, JG_EVALUE, "list 1", 1);
  /* Lists below a None list that leave their content: checked after the Nones are dropped. */
  jg_array *mid = JGT_OFFSETS(
      jgt_indexed(JGT_I64(0, -1, 1), 3, JG_DTYPE_INT64, JGT_OFFSETS(jgt_i64(v, 3), 0, 1, 4)), 0,
      3);
  expect_error(mid, 0, JG_EVALUE, "list 1 has stops < starts or reaches outside the content", 1);
  jg_array_release(bad);
  jg_array_release(mid);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_awkward_examples),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
