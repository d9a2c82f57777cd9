/* test_builder_inputs.c: the operations that take a mask, an index or lists to sort accept
 * every option representation jagged's builder makes (indexed-option None, empty "unknown"
 * lists, ?unknown), with Awkward's results (jgt_builder_inputs_cases.h). */
#include "jg_test.h"
#include "jgt_builder_inputs_cases.h"
#include "jgt_text.h"

static void test_cases(void **state) {
  (void)state;
  int failed = 0;
  for (size_t i = 0; i < JGT_BI_COUNT; i++) {
    const jgt_bi_case *c = &jgt_bi_cases[i];
    jg_array *a = jgt_text(c->a), *s = c->s != NULL ? jgt_text(c->s) : NULL, *out = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_bi_run(c, a, s, &out, &err);
    char buf[512] = "";
    if (st == JG_OK) JGT_OK(jg_array_to_string(out, 500, buf, sizeof buf, NULL, &jgt_err_));
    if (st != JG_OK || strcmp(buf, c->want) != 0) {
      print_error("%s: %s %s (want %s)\n", c->name, st == JG_OK ? buf : jg_status_name(st),
                  st == JG_OK ? "" : err.message, c->want);
      failed++;
    }
    jg_array_release(out);
    jg_array_release(s);
    jg_array_release(a);
  }
  assert_int_equal(failed, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
