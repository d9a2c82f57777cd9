/* test_mask_fast_gpu.c: jg_array_mask's fused path (kernel list_mask: one pass with a decoupled
 * look-back across blocks) on the GPU. Every case of jgt_mask_fast_cases.h runs on device
 * copies through the fused path and through the general walk (the same data with int32 mask
 * lists), on the legacy default stream and on a created stream; both results, brought back,
 * must equal the host's plain reference loop exactly, and on bad data both must fail with the
 * host's status, index and message. Then the kernel's own parity cases with the default launch
 * and with odd grids and blocks (one block looping over every tile, partial warps, blocks of
 * 1024 and of 20 threads). Exits 77 (skipped) without a usable GPU. */
#include "jg_test.h"
#include "jgt_mask_fast_cases.h"

static int run_case(const jgt_mf_case *c, jg_stream stream) {
  jgt_mf_input in;
  jgt_mf_build(c, &in);
  jg_array *dx = jgt_to_device_on(in.x, stream), *dm = jgt_to_device_on(in.mask, stream);
  jg_array *dg = jgt_to_device_on(in.mask_general, stream);
  jg_array *fast = NULL, *general = NULL, *host = NULL;
  jg_error ef, eg, eh;
  jg_error_clear(&ef);
  jg_error_clear(&eg);
  jg_error_clear(&eh);
  const jg_status sf = jg_array_mask(dx, dm, stream, &fast, &ef);
  const jg_status sg = jg_array_mask(dx, dg, stream, &general, &eg);
  const jg_status sh = jg_array_mask(in.x, in.mask, NULL, &host, &eh);
  int failed = 0;
  if (in.bad >= 0) {
    if (sf != sh || sg != sh || sh != JG_ESHAPE || ef.index != eh.index ||
        eg.index != eh.index || strcmp(ef.message, eh.message) != 0 ||
        strcmp(eg.message, eh.message) != 0 || fast != NULL) {
      print_error("%s: fused %s %lld \"%s\", general %s %lld \"%s\", host %s %lld \"%s\"\n",
                  c->name, jg_status_name(sf), (long long)ef.index, ef.message,
                  jg_status_name(sg), (long long)eg.index, eg.message, jg_status_name(sh),
                  (long long)eh.index, eh.message);
      failed = 1;
    }
  } else if (sf != JG_OK || sg != JG_OK) {
    print_error("%s: fused %s \"%s\", general %s \"%s\"\n", c->name, jg_status_name(sf),
                ef.message, jg_status_name(sg), eg.message);
    failed = 1;
  } else {
    jg_array *hf = jgt_to_host(fast), *hg = jgt_to_host(general);
    failed |= jgt_mf_check(c->name, "fused, device", &in, hf);
    failed |= jgt_mf_check(c->name, "general, device", &in, hg);
    jg_array_release(hf);
    jg_array_release(hg);
  }
  jg_array_release(fast);
  jg_array_release(general);
  jg_array_release(host);
  jg_array_release(dx);
  jg_array_release(dm);
  jg_array_release(dg);
  jgt_mf_free(&in);
  return failed;
}

static int run_table(jg_stream stream) {
  int failed = 0;
  for (int k = 0; k < JGT_MF_NCASES; ++k) failed += run_case(&jgt_mf_cases[k], stream);
  static const jg_dtype dts[] = {JG_DTYPE_BOOL, JG_DTYPE_INT16, JG_DTYPE_UINT32,
                                 JG_DTYPE_FLOAT64, JG_DTYPE_FLOAT16};
  for (size_t k = 0; k < sizeof dts / sizeof dts[0]; ++k) {
    jgt_mf_case c = {jg_dtype_name(dts[k]), 1500, JGT_MF_POISSON, JGT_MF_OFFSETS, dts[k], 0.5,
                     2, 1, -1};
    failed += run_case(&c, stream);
  }
  return failed;
}

JGT_STREAM_TABLE_TESTS(run_table)

/* The issue's case on the device. */
static void test_issue_case(void **state) {
  (void)state;
  jg_array *a = JGT_OFFSETS(jgt_i64(JGT_I64(0, 1, 2, 3, 4), 5), 0, 3, 5);
  static const bool mv[7] = {true, false, false, true, true, false, false};
  jg_array *m = JGT_OFFSETS(jgt_numeric(mv, 7, JG_DTYPE_BOOL), 0, 3, 5), *out = NULL;
  jg_array *da = jgt_to_device_on(a, NULL), *dm = jgt_to_device_on(m, NULL);
  JGT_OK(jg_array_mask(da, dm, NULL, &out, &jgt_err_));
  jg_array *h = jgt_to_host(out);
  char text[64];
  JGT_OK(jg_array_to_string(h, 60, text, sizeof text, NULL, &jgt_err_));
  assert_string_equal(text, "[[0], [3, 4]]");
  jg_array_release(h);
  jg_array_release(out);
  jg_array_release(da);
  jg_array_release(dm);
  jg_array_release(m);
  jg_array_release(a);
}

/* Overlapping list nodes: the kept total passes the guessed capacity; the kernel reruns. */
static void test_overlapping_lists(void **state) {
  (void)state;
  static const int64_t starts[3] = {0, 0, 1}, counts[3] = {4, 4, 3};
  static const float xv[4] = {1.5f, 2.5f, 3.5f, 4.5f};
  static const bool mv[4] = {true, true, true, true};
  jg_array *x = jgt_mf_list(starts, counts, 3, JG_DTYPE_INT64, jgt_numeric(xv, 4, JG_DTYPE_FLOAT32));
  jg_array *m = jgt_mf_list(starts, counts, 3, JG_DTYPE_INT64, jgt_numeric(mv, 4, JG_DTYPE_BOOL));
  jg_array *dx = jgt_to_device_on(x, NULL), *dm = jgt_to_device_on(m, NULL), *out = NULL;
  JGT_OK(jg_array_mask(dx, dm, NULL, &out, &jgt_err_));
  jg_array *h = jgt_to_host(out);
  char text[128];
  JGT_OK(jg_array_to_string(h, 120, text, sizeof text, NULL, &jgt_err_));
  assert_string_equal(text, "[[1.5, 2.5, 3.5, 4.5], [1.5, 2.5, 3.5, 4.5], [2.5, 3.5, 4.5]]");
  jg_array_release(h);
  jg_array_release(out);
  jg_array_release(dx);
  jg_array_release(dm);
  jg_array_release(m);
  jg_array_release(x);
}

static void parity(const jg_launch *launch) {
  const jg_kernel *k = NULL;
  JGT_OK(jg_catalog_find("list_mask", &k, &jgt_err_));
  assert_true(jg_kernel_has_cuda(k));
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.seed = 77;
  o.launch = launch;
  jg_parity_result res;
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = jg_kernel_parity(k, &o, &res, &err);
  if (st != JG_OK) print_error("parity of list_mask: %s: %s\n", jg_status_name(st), err.message);
  assert_int_equal(st, JG_OK);
  assert_int_equal(res.cases_run, (int)jg_kernel_variant_count(k) * jg_kernel_parity_case_count(k));
  if (res.cases_failed != 0) print_error("%s\n", res.first_failure);
  assert_int_equal(res.cases_failed, 0);
}

static void test_parity_launches(void **state) {
  (void)state;
  parity(NULL);
  static const int64_t grids[5] = {1, 3, 0, 7, 5};
  static const int blocks[5] = {256, 96, 1024, 33, 20};
  for (int i = 0; i < 5; ++i) {
    jg_launch l;
    memset(&l, 0, sizeof l);
    l.grid = grids[i];
    l.block = blocks[i];
    parity(&l);
  }
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream), cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_issue_case),           cmocka_unit_test(test_overlapping_lists),
      cmocka_unit_test(test_parity_launches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
