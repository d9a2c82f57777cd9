/* test_where_none.c: jg_array_where (ufunc.h) with None values: the chosen branch's value even
 * when the other branch is None, None where the condition or a list is None; every option
 * representation of condition, x and y against a loop over the elements
 * (jgt_where_none_cases.h), and Awkward's examples on arrays from jagged's own builder. */
#include "jg_test.h"
#include "jgt_array_cases.h"
#include "jgt_text.h"
#include "jgt_where_none_cases.h"

static char g_buf[2][2048];

static const char *text_of(const jg_array *a, int slot) {
  JGT_OK(jg_array_to_string(a, 2000, g_buf[slot], sizeof g_buf[slot], NULL, &jgt_err_));
  return g_buf[slot];
}

static void test_every_representation(void **state) {
  (void)state;
  int failed = 0;
  for (int rc = 0; rc < JGT_WN_NREPS; rc++) {
    for (int rx = 0; rx < JGT_WN_NREPS; rx++) {
      for (int ry = 0; ry < JGT_WN_NREPS; ry++) {
        jg_array *c = jgt_wn_input(0, rc), *x = jgt_wn_input(1, rx), *y = jgt_wn_input(2, ry);
        jg_array *want = jgt_wn_expected(rc, rx, ry), *got = NULL;
        jg_error err;
        jg_error_clear(&err);
        const jg_status st = jg_array_where(c, x, y, NULL, &got, &err);
        if (st != JG_OK) {
          if (failed++ < 5) print_error("%d %d %d: %s\n", rc, rx, ry, err.message);
        } else if (strcmp(text_of(got, 0), text_of(want, 1)) != 0) {
          if (failed++ < 5) {
            print_error("%d %d %d: got %s, want %s\n", rc, rx, ry, g_buf[0], g_buf[1]);
          }
        }
        jg_array_release(got);
        jg_array_release(want);
        jg_array_release(c);
        jg_array_release(x);
        jg_array_release(y);
      }
    }
  }
  assert_int_equal(failed, 0);
}

static const char *where_text(const char *c, const char *x, const char *y) {
  jg_array *ca = jgt_text(c), *xa = jgt_text(x), *ya = jgt_text(y), *out = NULL;
  JGT_OK(jg_array_where(ca, xa, ya, NULL, &out, &jgt_err_));
  text_of(out, 0);
  jg_array_release(out);
  jg_array_release(ca);
  jg_array_release(xa);
  jg_array_release(ya);
  return g_buf[0];
}

static void test_awkward_examples(void **state) {
  (void)state;
  assert_string_equal(where_text("[true, false]", "[1, None]", "[None, 5]"), "[1, 5]");
  assert_string_equal(where_text("[true, false]", "[None, 1]", "[5, None]"), "[None, None]");
  assert_string_equal(where_text("[true, None, false]", "[1, 2, 3]", "[4, 5, 6]"),
                      "[1, None, 6]");
  assert_string_equal(
      where_text("[[true, false], [true], []]", "[[1, None], None, []]", "[[None, 2.5], [3], []]"),
      "[[1, 2.5], None, []]");
  assert_string_equal(where_text("[[true, false], [true], [], [None, false]]",
                                 "[[1, None], None, [], [2, 3]]",
                                 "[[None, 2.5], [3], [], [None, None]]"),
                      "[[1, 2.5], None, [], [None, None]]");
  /* Lists of None only (?unknown) on either side. */
  assert_string_equal(where_text("[[true, false]]", "[[None, None]]", "[[7, 8]]"),
                      "[[None, 8]]");
  /* No None anywhere: no option in the result. */
  jg_array *c = jgt_text("[true, false]"), *x = jgt_text("[1, 2]"), *y = jgt_text("[3, 4]");
  jg_array *out = NULL;
  char type[64];
  JGT_OK(jg_array_where(c, x, y, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_type_string(out, type, sizeof type, NULL, &jgt_err_));
  assert_string_equal(type, "2 * int64");
  jg_array_release(out);
  jg_array_release(c);
  jg_array_release(x);
  jg_array_release(y);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_representation),
      cmocka_unit_test(test_awkward_examples),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
