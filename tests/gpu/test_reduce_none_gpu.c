/* test_reduce_none_gpu.c: reductions of lists that hold None values on cuda arrays (ops.h
 * jg_array_reduce): every case of jgt_reduce_none_cases.h (every reducer, option
 * representation, axis, mask_identity, keepdims) run on device 0 after jg_array_to_device, on the
 * legacy default stream and on a created one, with the result on cuda:0 and equal (printout and
 * type) to the host's and to the reference; builder-made inputs; the errors of the host. Skips
 * (exit 77) without a usable device. */
#include "jg_test.h"
#include "jgt_array_cases.h"
#include "jgt_reduce_none_cases.h"
#include "jgt_text.h"

static char g_buf[3][4096];

static const char *desc(const jg_array *a, int slot) {
  return jgt_rn_desc(a, g_buf[slot], sizeof g_buf[slot]);
}

/* Every case on cuda:0 with `stream`; returns the failures. */
static int run_table(jg_stream stream) {
  int failed = 0;
  for (int i = 0; i < JGT_RN_COUNT; i++) {
    jgt_rn_case c;
    char name[256];
    jgt_rn_case_at(i, &c, name, sizeof name);
    jg_array *a = jgt_rn_input(&c), *want = jgt_rn_expected(&c), *host = NULL, *dout = NULL;
    jg_array *d = jgt_to_device_on(a, stream);
    JGT_OK(jgt_rn_run(&c, a, NULL, &host, &jgt_err_));
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_rn_run(&c, d, stream, &dout, &err);
    if (st != JG_OK) {
      if (failed++ < 10) {
        print_error("%s on cuda:0: %s: %s\n", name, jg_status_name(st), err.message);
      }
    } else {
      assert_int_equal(jg_array_device(dout).type, JG_DEVICE_CUDA);
      jg_array *back = jgt_to_host(dout);
      desc(back, 0);
      desc(host, 1);
      desc(want, 2);
      if (strcmp(g_buf[0], g_buf[1]) != 0 || strcmp(g_buf[0], g_buf[2]) != 0) {
        if (failed++ < 10) {
          print_error("%s:\n  cuda %s\n  host %s\n  want %s\n", name, g_buf[0], g_buf[1],
                      g_buf[2]);
        }
      }
      jg_array_release(back);
    }
    jg_array_release(dout);
    jg_array_release(d);
    jg_array_release(host);
    jg_array_release(want);
    jg_array_release(a);
  }
  return failed;
}

static void test_table_default_stream(void **state) {
  (void)state;
  assert_int_equal(run_table(NULL), 0);
}

static void test_table_created_stream(void **state) {
  (void)state;
  jg_stream s = NULL;
  JGT_OK(jg_stream_create(&s, &jgt_err_));
  const int failed = run_table(s);
  jg_stream_destroy(s);
  assert_int_equal(failed, 0);
}

/* Builder-made inputs (indexed options, ?unknown) at several axes, on both backends. */
static void test_builder_inputs(void **state) {
  (void)state;
  static const char *const texts[] = {
      "[[1, None, 2], None, [], [None]]",
      "[[None, 3.5, 1.5], [None], [], [2.5, 0.5]]",
      "[[None, None], [], [None]]",
      "[[[None, 1], [2]], [[None], [3, None, 6]], []]",
      "[[5, 2], None, [1], None]",
      "[[[1, 2], None], [[3]], None, [None]]",
      "[[None, [4, None]], [[7], None, [0]]]",
  };
  static const int64_t axes[] = {-1, 0, 1};
  for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
    jg_array *a = jgt_text(texts[t]), *d = jgt_to_device_on(a, NULL);
    for (int r = JG_REDUCE_SUM; r <= JG_REDUCE_MEAN; r++) {
      for (size_t k = 0; k < sizeof axes / sizeof axes[0]; k++) {
        for (int keep = 0; keep < 2; keep++) {
          jg_reduce_options o;
          memset(&o, 0, sizeof o);
          o.has_axis = true;
          o.axis = axes[k];
          o.keepdims = keep;
          jg_array *ho = NULL, *dout = NULL;
          jg_error he, de;
          jg_error_clear(&he);
          jg_error_clear(&de);
          const jg_status hs = jg_array_reduce(a, (jg_reducer)r, &o, &ho, &he);
          const jg_status ds = jg_array_reduce(d, (jg_reducer)r, &o, &dout, &de);
          assert_int_equal(hs, ds);
          if (hs == JG_OK) {
            jg_array *back = jgt_to_host(dout);
            assert_string_equal(desc(back, 0), desc(ho, 1));
            jg_array_release(back);
          } else {
            assert_string_equal(he.message, de.message);
          }
          jg_array_release(ho);
          jg_array_release(dout);
        }
      }
    }
    jg_array_release(d);
    jg_array_release(a);
  }
}

/* A list past the end of its option content, at the innermost axis and below a None list at
 * axis 0: the same status, message and index. */
static void test_errors(void **state) {
  (void)state;
  static const int64_t v[] = {1, 2, 3};
  jg_array *bad = jgt_list(JGT_I64(0, 1), JGT_I64(1, 4), 2, 2, JG_DTYPE_INT64,
                           jgt_indexed(JGT_I64(0, -1, 2), 3, JG_DTYPE_INT64, jgt_i64(v, 3)));
  jg_array *d = jgt_to_device_on(bad, NULL), *out = NULL;
  jg_error he, de;
  jg_error_clear(&he);
  jg_error_clear(&de);
  assert_int_equal(jg_array_reduce(bad, JG_REDUCE_ARGMIN, NULL, &out, &he), JG_EVALUE);
  assert_int_equal(jg_array_reduce(d, JG_REDUCE_ARGMIN, NULL, &out, &de), JG_EVALUE);
  assert_null(out);
  assert_int_equal(he.index, 1);
  assert_int_equal(de.index, 1);
  jg_array_release(d);
  jg_array_release(bad);
  jg_array *mid = JGT_OFFSETS(
      jgt_indexed(JGT_I64(0, -1, 1), 3, JG_DTYPE_INT64, JGT_OFFSETS(jgt_i64(v, 3), 0, 1, 4)), 0,
      3);
  d = jgt_to_device_on(mid, NULL);
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  jg_error_clear(&he);
  jg_error_clear(&de);
  assert_int_equal(jg_array_reduce(mid, JG_REDUCE_SUM, &o, &out, &he), JG_EVALUE);
  assert_int_equal(jg_array_reduce(d, JG_REDUCE_SUM, &o, &out, &de), JG_EVALUE);
  assert_null(out);
  assert_string_equal(he.message, de.message);
  assert_int_equal(de.index, 1);
  jg_array_release(d);
  jg_array_release(mid);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream),
      cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_builder_inputs),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
