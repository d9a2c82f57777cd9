/* test_where_none_gpu.c: jg_array_where with None values on cuda arrays: every representation
 * case of jgt_where_none_cases.h run on device 0 (legacy stream), equal to the host's result
 * and to the loop's; builder-made inputs. Skips (exit 77) without a usable device. */
#include "jg_test.h"
#include "jgt_array_cases.h"
#include "jgt_text.h"
#include "jgt_where_none_cases.h"

static char g_buf[3][2048];

static const char *text_of(const jg_array *a, int slot) {
  JGT_OK(jg_array_to_string(a, 2000, g_buf[slot], sizeof g_buf[slot], NULL, &jgt_err_));
  return g_buf[slot];
}

/* where on the host and on cuda:0; the device result (copied back) and the host's into g_buf. */
static void both(const jg_array *c, const jg_array *x, const jg_array *y) {
  jg_array *dc = jgt_to_device_on(c, NULL), *dx = jgt_to_device_on(x, NULL);
  jg_array *dy = jgt_to_device_on(y, NULL), *h = NULL, *d = NULL;
  JGT_OK(jg_array_where(c, x, y, NULL, &h, &jgt_err_));
  JGT_OK(jg_array_where(dc, dx, dy, NULL, &d, &jgt_err_));
  assert_int_equal(jg_array_device(d).type, JG_DEVICE_CUDA);
  jg_array *back = jgt_to_host(d);
  text_of(back, 0);
  text_of(h, 1);
  jg_array_release(back);
  jg_array_release(d);
  jg_array_release(h);
  jg_array_release(dc);
  jg_array_release(dx);
  jg_array_release(dy);
}

static void test_every_representation(void **state) {
  (void)state;
  int failed = 0;
  for (int rc = 0; rc < JGT_WN_NREPS; rc++) {
    for (int rx = 0; rx < JGT_WN_NREPS; rx++) {
      for (int ry = 0; ry < JGT_WN_NREPS; ry++) {
        jg_array *c = jgt_wn_input(0, rc), *x = jgt_wn_input(1, rx), *y = jgt_wn_input(2, ry);
        jg_array *want = jgt_wn_expected(rc, rx, ry);
        both(c, x, y);
        text_of(want, 2);
        if (strcmp(g_buf[0], g_buf[1]) != 0 || strcmp(g_buf[0], g_buf[2]) != 0) {
          if (failed++ < 5) {
            print_error("%d %d %d: cuda %s, host %s, want %s\n", rc, rx, ry, g_buf[0], g_buf[1],
                        g_buf[2]);
          }
        }
        jg_array_release(want);
        jg_array_release(c);
        jg_array_release(x);
        jg_array_release(y);
      }
    }
  }
  assert_int_equal(failed, 0);
}

static void test_builder_inputs(void **state) {
  (void)state;
  jg_array *c = jgt_text("[[true, false], [true], [], [None, false]]");
  jg_array *x = jgt_text("[[1, None], None, [], [2, 3]]");
  jg_array *y = jgt_text("[[None, 2.5], [3], [], [None, None]]");
  both(c, x, y);
  assert_string_equal(g_buf[0], g_buf[1]);
  assert_string_equal(g_buf[0], "[[1, 2.5], None, [], [None, None]]");
  jg_array_release(c);
  jg_array_release(x);
  jg_array_release(y);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_representation),
      cmocka_unit_test(test_builder_inputs),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
