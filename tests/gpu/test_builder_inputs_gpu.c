/* test_builder_inputs_gpu.c: the cases of jgt_builder_inputs_cases.h (masks, indexes, sorts
 * and fill_none of builder-made arrays) on cuda:0, equal to the host's result and the expected
 * printout. Skips (exit 77) without a usable device. */
#include "jg_test.h"
#include "jgt_builder_inputs_cases.h"
#include "jgt_text.h"

static void test_cases(void **state) {
  (void)state;
  int failed = 0;
  for (size_t i = 0; i < JGT_BI_COUNT; i++) {
    const jgt_bi_case *c = &jgt_bi_cases[i];
    jg_array *a = jgt_text(c->a), *s = c->s != NULL ? jgt_text(c->s) : NULL;
    jg_array *da = jgt_to_device_on(a, NULL), *ds = jgt_to_device_on(s, NULL), *out = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_bi_run(c, da, ds, &out, &err);
    char buf[512] = "";
    if (st == JG_OK) {
      jg_array *back = jgt_to_host(out);
      JGT_OK(jg_array_to_string(back, 500, buf, sizeof buf, NULL, &jgt_err_));
      jg_array_release(back);
    }
    if (st != JG_OK || strcmp(buf, c->want) != 0) {
      print_error("%s on cuda:0: %s %s (want %s)\n", c->name,
                  st == JG_OK ? buf : jg_status_name(st), st == JG_OK ? "" : err.message, c->want);
      failed++;
    }
    jg_array_release(out);
    jg_array_release(ds);
    jg_array_release(da);
    jg_array_release(s);
    jg_array_release(a);
  }
  assert_int_equal(failed, 0);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
