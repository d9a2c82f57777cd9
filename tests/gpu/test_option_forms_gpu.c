/* test_option_forms_gpu.c: the cases of jgt_option_forms_cases.h (None in every option
 * representation, bit-masked as Arrow import makes it included) on cuda:0, with the expected
 * printout. Skips (exit 77) without a usable device. */
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
      jg_array *b = c->b != NULL ? jgt_text_form(c->b, form) : NULL;
      failed += jgt_sweep_check(c, form, jgt_text_form(c->a, form), b, true);
    }
  }
  assert_int_equal(failed, 0);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
