/* test_empty_inputs_gpu.c: the cases of jgt_empty_inputs_cases.h (operations on 0 * unknown and
 * 0 * var * unknown) on cuda:0, with the expected printout. Skips (exit 77) without a usable
 * device. */
#include "jg_test.h"
#include "jgt_array_cases.h"
#include "jgt_text.h"
#include "jgt_op_sweep.h"
#include "jgt_option_forms_cases.h"
#include "jgt_empty_inputs_cases.h"

static void test_cases(void **state) {
  (void)state;
  int failed = 0;
  for (size_t i = 0; i < JGT_EI_COUNT; i++) {
    const jgt_sweep_case *c = &jgt_ei_cases[i];
    {
      jg_array *a = jgt_empty_input(c->a);
      jg_array *b = c->b != NULL ? jgt_empty_input(c->b) : NULL;
      jg_array *da = jgt_to_device_on(a, NULL), *db = jgt_to_device_on(b, NULL), *out = NULL;
      jg_error err;
      jg_error_clear(&err);
      const jg_status st = jgt_op_run(c->op, c->axis, da, db, &out, &err);
      char buf[512] = "";
      if (st == JG_OK) {
        jg_array *back = jgt_to_host(out);
        JGT_OK(jg_array_to_string(back, 500, buf, sizeof buf, NULL, &jgt_err_));
        jg_array_release(back);
      }
      if (st != JG_OK || strcmp(buf, c->want) != 0) {
        print_error("%s on cuda:0: %s %s (want %s)\n", c->name,
                    st == JG_OK ? buf : jg_status_name(st), st == JG_OK ? "" : err.message,
                    c->want);
        failed++;
      }
      jg_array_release(out);
      jg_array_release(db);
      jg_array_release(da);
      jg_array_release(b);
      jg_array_release(a);
    }
  }
  assert_int_equal(failed, 0);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
