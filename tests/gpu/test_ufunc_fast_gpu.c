/* test_ufunc_fast_gpu.c: the ufuncs' fast paths on cuda arrays (jgt_ufunc_fast_cases.h): every
 * operation over every layout, on device 0 (default stream and a created one), fast-shaped
 * input (int64 offsets) and general-shaped input (int32 offsets, list node) both, each result
 * copied back and equal to the host's fast result (values, type, leaf bytes: exact); the fused
 * x * w path runs ufunc_binary_lists once and no list_parents; the error cases give the host's
 * status and message; under 1 KiB moved to the host during a call. Skips (exit 77) without a
 * usable device. */
#include "jg_test.h"
#include "jgt_ufunc_fast_cases.h"

static void run_all(jg_stream stream) {
  int nops = 0;
  const jgt_ufc_op *ops = jgt_ufc_ops(&nops);
  for (int o = 0; o < nops; o++) {
    for (int k = 0; k < JGT_UFC_LAYOUTS; k++) {
      jg_array *w = jgt_ufc_per_list(k, ops[o].wdt, 0);
      jg_array *dw = jgt_to_device_on(w, stream);
      jg_array *xh = jgt_ufc_jagged(k, ops[o].xdt, 0);
      jg_array *rh = NULL;
      JGT_OK(jgt_ufc_run(&ops[o], xh, w, NULL, &rh, &jgt_err_));
      for (int shape = 0; shape <= 2; shape++) {
        jg_array *x = jgt_ufc_jagged(k, ops[o].xdt, shape);
        jg_array *dx = jgt_to_device_on(x, stream);
        jg_array *rd = NULL;
        jg_transfer_counter tc;
        jg_transfer_counter_init(&tc, NULL, 0);
        JGT_OK(jg_transfer_scope_begin(&tc, &jgt_err_));
        JGT_OK(jgt_ufc_run(&ops[o], dx, dw, stream, &rd, &jgt_err_));
        JGT_OK(jg_transfer_scope_end(&tc, &jgt_err_));
        assert_true(tc.bytes[JG_TRANSFER_TO_HOST] <= 1024);
        jg_array *back = jgt_to_host(rd);
        if (!jgt_ufc_same(rh, back)) {
          print_error("%s, layout %d, shape %d: device differs from host\n", ops[o].name, k,
                      shape);
          fail();
        }
        jg_array_release(back);
        jg_array_release(rd);
        jg_array_release(dx);
        jg_array_release(x);
      }
      jg_array_release(rh);
      jg_array_release(xh);
      jg_array_release(dw);
      jg_array_release(w);
    }
  }
}

static void test_default_stream(void **state) {
  (void)state;
  run_all(NULL);
}

static void test_created_stream(void **state) {
  (void)state;
  jg_stream s = NULL;
  JGT_OK(jg_device_set_current(0, &jgt_err_));
  JGT_OK(jg_stream_create(&s, &jgt_err_));
  run_all(s);
  jg_stream_destroy(s);
}

static void test_fused(void **state) {
  (void)state;
  jg_array *x = jgt_ufc_jagged(8, JG_DTYPE_FLOAT32, 0), *w = jgt_ufc_per_list(8, JG_DTYPE_FLOAT32, 0);
  jg_array *dx = jgt_to_device_on(x, NULL), *dw = jgt_to_device_on(w, NULL);
  const uint64_t lists0 = jgt_ufc_calls("ufunc_binary_lists");
  const uint64_t parents0 = jgt_ufc_calls("list_parents");
  jg_array *r = NULL;
  JGT_OK(jg_array_ufunc2(JG_UFUNC_MULTIPLY, dx, dw, NULL, &r, &jgt_err_));
  assert_int_equal(jgt_ufc_calls("ufunc_binary_lists"), lists0 + 1);
  assert_int_equal(jgt_ufc_calls("list_parents"), parents0);
  jg_array_release(r);
  jg_array_release(dx);
  jg_array_release(dw);
  jg_array_release(x);
  jg_array_release(w);
}

/* Host and device: the same status and message. */
static void same_error(jg_ufunc f, jg_array *x, jg_array *w) {
  jg_error eh, ed;
  jg_array *rh = NULL, *rd = NULL;
  const jg_status sh = jg_array_ufunc2(f, x, w, NULL, &rh, &eh);
  jg_array *dx = jgt_to_device_on(x, NULL), *dw = jgt_to_device_on(w, NULL);
  const jg_status sd = jg_array_ufunc2(f, dx, dw, NULL, &rd, &ed);
  assert_int_not_equal(sh, JG_OK);
  assert_int_equal(sh, sd);
  assert_string_equal(eh.message, ed.message);
  assert_int_equal(eh.index, ed.index);
  assert_null(rd);
  jg_array_release(dx);
  jg_array_release(dw);
  jg_array_release(x);
  jg_array_release(w);
}

static void test_errors(void **state) {
  (void)state;
  same_error(JG_UFUNC_MULTIPLY, jgt_ufc_jagged(5, JG_DTYPE_FLOAT32, 0),
             jgt_ufc_per_list(5, JG_DTYPE_FLOAT32, 1));
  static const int64_t oa[] = {0, 2, 2, 5}, ob[] = {0, 2, 3, 5}, od[] = {0, 3, 1, 5},
                       op[] = {0, 3, 4, 9};
  static const float va[] = {1, 2, 3, 4, 5}, wv[] = {1, 2, 3};
  same_error(JG_UFUNC_ADD, jgt_offsets64(oa, 4, jgt_numeric(va, 5, JG_DTYPE_FLOAT32)),
             jgt_offsets64(ob, 4, jgt_numeric(va, 5, JG_DTYPE_FLOAT32)));
  same_error(JG_UFUNC_MULTIPLY, jgt_offsets64(od, 4, jgt_numeric(va, 5, JG_DTYPE_FLOAT32)),
             jgt_numeric(wv, 3, JG_DTYPE_FLOAT32));
  same_error(JG_UFUNC_MULTIPLY, jgt_offsets64(op, 4, jgt_numeric(va, 5, JG_DTYPE_FLOAT32)),
             jgt_numeric(wv, 3, JG_DTYPE_FLOAT32));
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_default_stream),
      cmocka_unit_test(test_created_stream),
      cmocka_unit_test(test_fused),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
