/* test_option_forms.c: every operation accepts None in every option representation (indexed,
 * bit-masked as Arrow import makes it, byte-masked) with the same result
 * (jgt_option_forms_cases.h). */
#include "jg_test.h"
#include "jgt_array_cases.h"
#include "jgt_text.h"
#include "jgt_op_sweep.h"
#include "jgt_option_forms_cases.h"

static void test_cases(void **state) {
  (void)state;
  int failed = 0;
  for (size_t i = 0; i < JGT_OF_COUNT; i++) {
    const jgt_sweep_case *c = &jgt_of_cases[i];
    for (int form = 0; form < JGT_OPT_FORMS; form++) {
      jg_array *a = jgt_text_form(c->a, form);
      jg_array *b = c->b != NULL ? jgt_text_form(c->b, form) : NULL, *out = NULL;
      jg_error err;
      jg_error_clear(&err);
      const jg_status st = jgt_op_run(c->op, c->axis, a, b, &out, &err);
      char buf[512] = "";
      if (st == JG_OK) JGT_OK(jg_array_to_string(out, 500, buf, sizeof buf, NULL, &jgt_err_));
      if (st != JG_OK || strcmp(buf, c->want) != 0) {
        print_error("%s (form %d): %s %s (want %s)\n", c->name, form,
                    st == JG_OK ? buf : jg_status_name(st), st == JG_OK ? "" : err.message,
                    c->want);
        failed++;
      }
      jg_array_release(out);
      jg_array_release(b);
      jg_array_release(a);
    }
  }
  assert_int_equal(failed, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
