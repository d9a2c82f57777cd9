/* test_empty_inputs.c: every operation on arrays of no entries (0 * unknown, 0 * var * unknown)
 * gives the empty result Awkward gives
 * (jgt_empty_inputs_cases.h). */
#include "jg_test.h"
#include "jgt_array_cases.h"
#include "jgt_text.h"
#include "jgt_op_sweep.h"
#include "jgt_empty_inputs_cases.h"

static void test_cases(void **state) {
  (void)state;
  int failed = 0;
  for (size_t i = 0; i < JGT_EI_COUNT; i++) {
    const jgt_sweep_case *c = &jgt_ei_cases[i];
    jg_array *b = c->b != NULL ? jgt_empty_input(c->b) : NULL;
    failed += jgt_sweep_check(c, -1, jgt_empty_input(c->a), b, false);
  }
  assert_int_equal(failed, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
