/* test_mask_fast.c: jg_array_mask's fused path on host arrays: every case of
 * jgt_mask_fast_cases.h through the fused path and through the general walk (the same data with
 * int32 mask lists), both compared with a plain reference loop and with each other, and the
 * fused path's kernel calls checked (the flat way, list_mask_select and list_mask_offsets, for
 * lists back to back with equal counts; list_mask after them for any other lists and for
 * errors); the issue's case; every dtype; overlapping list nodes whose kept values pass the
 * guessed capacity; the errors (unequal counts, a list past its content), which must be the
 * general path's; a last list far past its content (its stop near INT64_MAX) and mask bytes other
 * than 0 and 1 (a newcomer's probes); and the parity cases of the three kernels ("c" against "c":
 * every case builds valid arguments for every variant). */
#include "jg_test.h"
#include "jgt_mask_fast_cases.h"

static int run_case(const jgt_mf_case *c) {
  jgt_mf_input in;
  jgt_mf_build(c, &in);
  jg_array *fast = NULL, *general = NULL;
  jg_error ef, eg;
  jg_error_clear(&ef);
  jg_error_clear(&eg);
  jgt_mf_calls before, after;
  jgt_mf_calls_get(false, &before);
  const jg_status sf = jg_array_mask(in.x, in.mask, NULL, &fast, &ef);
  jgt_mf_calls_get(false, &after);
  const jg_status sg = jg_array_mask(in.x, in.mask_general, NULL, &general, &eg);
  int failed = jgt_mf_check_path(c, &before, &after);
  if (in.bad >= 0) {
    char want[64];
    snprintf(want, sizeof want, "mask list %lld has", (long long)in.bad);
    if (sf != JG_ESHAPE || sg != JG_ESHAPE || ef.index != in.bad || eg.index != in.bad ||
        strcmp(ef.message, eg.message) != 0 || strstr(ef.message, want) == NULL ||
        fast != NULL) {
      print_error("%s: fused %s %lld \"%s\", general %s %lld \"%s\"\n", c->name,
                  jg_status_name(sf), (long long)ef.index, ef.message, jg_status_name(sg),
                  (long long)eg.index, eg.message);
      failed = 1;
    }
  } else if (sf != JG_OK || sg != JG_OK) {
    print_error("%s: fused %s \"%s\", general %s \"%s\"\n", c->name, jg_status_name(sf),
                ef.message, jg_status_name(sg), eg.message);
    failed = 1;
  } else {
    failed |= jgt_mf_check(c->name, "fused", &in, fast);
    failed |= jgt_mf_check(c->name, "general", &in, general);
    char tf[256], tg[256];
    JGT_OK(jg_array_type_string(fast, tf, sizeof tf, NULL, &jgt_err_));
    JGT_OK(jg_array_type_string(general, tg, sizeof tg, NULL, &jgt_err_));
    if (strcmp(tf, tg) != 0) {
      print_error("%s: types %s and %s\n", c->name, tf, tg);
      failed = 1;
    }
    JGT_OK(jg_array_validate(fast, JG_VALIDATE_FULL, NULL, &jgt_err_));
  }
  jg_array_release(fast);
  jg_array_release(general);
  jgt_mf_free(&in);
  return failed;
}

static void test_cases(void **state) {
  (void)state;
  int failed = 0;
  for (int k = 0; k < JGT_MF_NCASES; ++k) failed += run_case(&jgt_mf_cases[k]);
  assert_int_equal(failed, 0);
}

static void test_every_dtype(void **state) {
  (void)state;
  static const jg_dtype dts[] = {JG_DTYPE_BOOL,   JG_DTYPE_INT8,   JG_DTYPE_INT16,
                                 JG_DTYPE_INT32,  JG_DTYPE_INT64,  JG_DTYPE_UINT8,
                                 JG_DTYPE_UINT16, JG_DTYPE_UINT32, JG_DTYPE_UINT64,
                                 JG_DTYPE_FLOAT16, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT64};
  int failed = 0;
  for (size_t k = 0; k < sizeof dts / sizeof dts[0]; ++k) {
    jgt_mf_case c = {jg_dtype_name(dts[k]), 1500, JGT_MF_POISSON, JGT_MF_OFFSETS, dts[k], 0.5,
                     2, 1, -1, 0};
    failed += run_case(&c);
  }
  assert_int_equal(failed, 0);
}

/* The issue's case: [[0, 1, 2], [3, 4]] masked by offsets [0, 3, 5] over [T, F, F, T, T, F, F]. */
static void test_issue_case(void **state) {
  (void)state;
  jg_array *a = JGT_OFFSETS(jgt_i64(JGT_I64(0, 1, 2, 3, 4), 5), 0, 3, 5);
  static const bool mv[7] = {true, false, false, true, true, false, false};
  jg_array *m = JGT_OFFSETS(jgt_numeric(mv, 7, JG_DTYPE_BOOL), 0, 3, 5), *out = NULL;
  JGT_OK(jg_array_mask(a, m, NULL, &out, &jgt_err_));
  char text[64], type[64];
  JGT_OK(jg_array_to_string(out, 60, text, sizeof text, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(out, type, sizeof type, NULL, &jgt_err_));
  assert_string_equal(text, "[[0], [3, 4]]");
  assert_string_equal(type, "2 * var * int64");
  jg_array_release(out);
  jg_array_release(m);
  jg_array_release(a);
}

/* List nodes whose lists overlap: 3 lists of the same 4 values, all kept, so 12 values where
 * the contents hold 4 (the fused path reruns at the exact total). */
static void test_overlapping_lists(void **state) {
  (void)state;
  static const int64_t starts[3] = {0, 0, 1}, counts[3] = {4, 4, 3};
  static const float xv[4] = {1.5f, 2.5f, 3.5f, 4.5f};
  static const bool mv[4] = {true, true, true, true};
  jg_array *x = jgt_mf_list(starts, counts, 3, JG_DTYPE_INT64, jgt_numeric(xv, 4, JG_DTYPE_FLOAT32));
  jg_array *m = jgt_mf_list(starts, counts, 3, JG_DTYPE_INT64, jgt_numeric(mv, 4, JG_DTYPE_BOOL));
  jg_array *out = NULL;
  JGT_OK(jg_array_mask(x, m, NULL, &out, &jgt_err_));
  char text[128];
  JGT_OK(jg_array_to_string(out, 120, text, sizeof text, NULL, &jgt_err_));
  assert_string_equal(text, "[[1.5, 2.5, 3.5, 4.5], [1.5, 2.5, 3.5, 4.5], [2.5, 3.5, 4.5]]");
  jg_array_release(out);
  jg_array_release(m);
  jg_array_release(x);
}

/* A list of x past its content: the general path's error, from either mask shape. */
static void test_list_past_content(void **state) {
  (void)state;
  static const int64_t starts[3] = {0, 1, 2}, counts[3] = {1, 1, 3}, mstarts[3] = {0, 1, 2};
  static const float xv[4] = {1, 2, 3, 4};
  static const bool mv[5] = {true, true, true, true, true};
  jg_array *x = jgt_mf_list(starts, counts, 3, JG_DTYPE_INT64, jgt_numeric(xv, 4, JG_DTYPE_FLOAT32));
  jg_array *m = jgt_mf_list(mstarts, counts, 3, JG_DTYPE_INT64, jgt_numeric(mv, 5, JG_DTYPE_BOOL));
  jg_array *mg = jgt_mf_list(mstarts, counts, 3, JG_DTYPE_INT32, jgt_numeric(mv, 5, JG_DTYPE_BOOL));
  jg_array *out = NULL;
  jg_error ef, eg;
  const jg_status sf = jg_array_mask(x, m, NULL, &out, &ef);
  assert_null(out);
  const jg_status sg = jg_array_mask(x, mg, NULL, &out, &eg);
  assert_null(out);
  assert_int_equal(sf, JG_EVALUE);
  assert_int_equal(sg, JG_EVALUE);
  assert_int_equal(ef.index, eg.index);
  assert_string_equal(ef.message, eg.message);
  JGT_CONTAINS(ef.message, "jg_array_mask");
  jg_array_release(mg);
  jg_array_release(m);
  jg_array_release(x);
}

/* A last list far past its content (offsets and list nodes, the bound near INT64_MAX) fails as
 * the general walk does, reading nothing past any buffer; odd bool bytes are true on every path. */
static void test_huge_last_offset(void **state) {
  (void)state;
  jgt_mf_huge_lasts(false);
}

static void test_odd_bools(void **state) {
  (void)state;
  jgt_mf_odd_bools(false);
}

/* The parity cases of the fused path's kernels run and agree with themselves ("c" against "c"),
 * every variant, so that every case builds valid arguments (the GPU test compares them with
 * CUDA). */
static void test_parity_cases_build(void **state) {
  (void)state;
  static const char *const names[3] = {"list_mask_select", "list_mask_offsets", "list_mask"};
  for (int i = 0; i < 3; ++i) {
    const jg_kernel *k = NULL;
    JGT_OK(jg_catalog_find(names[i], &k, &jgt_err_));
    assert_true(jg_kernel_parity_case_count(k) >= 16);
    jg_parity_options o;
    memset(&o, 0, sizeof o);
    o.other = "c";
    o.seed = 5;
    jgt_parity_ok(k, &o, names[i]);
  }
}

/* The flat kernels on host arrays, by hand: the flat stream of [[1, 2, 3], [], [4, 5]] from x's
 * element 1 and the mask's element 2, the rank words, the offsets; then lists not back to back
 * (the flag from list_mask_offsets only) and unequal totals (the flag from both, nothing else
 * written). */
static void test_flat_kernels_by_hand(void **state) {
  (void)state;
  const jg_kernel *ks = NULL, *ko = NULL;
  JGT_OK(jg_catalog_find("list_mask_select", &ks, &jgt_err_));
  JGT_OK(jg_catalog_find("list_mask_offsets", &ko, &jgt_err_));
  const jg_device h = JG_DEVICE_HOST_INIT;
  int64_t xs[3] = {1, 4, 4}, xe[3] = {4, 4, 6}, ms[3] = {2, 5, 5}, me[3] = {5, 5, 7};
  const uint32_t x[7] = {99, 1, 2, 3, 4, 5, 98};
  const bool m[8] = {true, true, true, false, true, false, true, true};
  uint32_t out[6] = {7, 7, 7, 7, 7, 7};
  uint64_t bits[2] = {0, 0};
  int64_t pre[2] = {-1, -1}, st[5] = {0, 0, 0, 0, 0}, offsets[4] = {-1, -1, -1, -1};
  jg_kernel_arg sa[16] = {
      jg_arg_i64(3), jg_arg_array(xs, 3, JG_DTYPE_INT64, h), jg_arg_array(xe, 3, JG_DTYPE_INT64, h),
      jg_arg_i64(7), jg_arg_array((void *)x, 7, JG_DTYPE_UINT32, h),
      jg_arg_array(ms, 3, JG_DTYPE_INT64, h), jg_arg_array(me, 3, JG_DTYPE_INT64, h),
      jg_arg_i64(8), jg_arg_array((void *)m, 8, JG_DTYPE_BOOL, h), jg_arg_i64(1), jg_arg_i64(6),
      jg_arg_array(out, 6, JG_DTYPE_UINT32, h), jg_arg_i64(2),
      jg_arg_array(bits, 2, JG_DTYPE_UINT64, h), jg_arg_array(pre, 2, JG_DTYPE_INT64, h),
      jg_arg_array(st, 5, JG_DTYPE_INT64, h)};
  jg_kernel_arg oa[11] = {
      jg_arg_i64(3), sa[1], sa[2], sa[5], sa[6], jg_arg_i64(2), sa[13], sa[14], jg_arg_i64(1),
      jg_arg_array(offsets, 4, JG_DTYPE_INT64, h), sa[15]};
  /* mask stream from 2: T F T F T (kept 1, 3, 5 of x's 1..5) */
  JGT_OK(jg_kernel_call(ks, sa, 16, NULL, &jgt_err_));
  JGT_OK(jg_kernel_call(ko, oa, 11, NULL, &jgt_err_));
  assert_int_equal(st[2], 0);
  assert_int_equal(st[3], 3);
  assert_int_equal(st[4], (int64_t)((2ULL << 62) | 3ULL));
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 3);
  assert_int_equal(out[2], 5);
  assert_int_equal(out[3], 0); /* out[total] */
  assert_int_equal(out[4], 7);
  assert_int_equal(bits[0], 0x15);
  assert_int_equal(pre[0], 0);
  assert_int_equal(offsets[0], 0);
  assert_int_equal(offsets[1], 2);
  assert_int_equal(offsets[2], 2);
  assert_int_equal(offsets[3], 3);
  /* a gap between lists 0 and 1 in both: list_mask_select takes the flat stream, the offsets
   * kernel raises the flag */
  xs[1] = xs[2] = 5;
  ms[1] = ms[2] = 6;
  memset(st, 0, sizeof st);
  JGT_OK(jg_kernel_call(ks, sa, 16, NULL, &jgt_err_));
  assert_int_equal(st[2], 0);
  JGT_OK(jg_kernel_call(ko, oa, 11, NULL, &jgt_err_));
  assert_int_equal(st[2], 1);
  /* unequal totals: both raise the flag and write nothing else */
  xs[1] = xs[2] = 4;
  ms[1] = ms[2] = 5;
  me[2] = 8;
  memset(st, 0, sizeof st);
  offsets[0] = -1;
  out[0] = 7;
  JGT_OK(jg_kernel_call(ks, sa, 16, NULL, &jgt_err_));
  assert_int_equal(st[2], 1);
  assert_int_equal(st[3], 0);
  assert_int_equal(out[0], 7);
  st[2] = 0;
  JGT_OK(jg_kernel_call(ko, oa, 11, NULL, &jgt_err_));
  assert_int_equal(st[2], 1);
  assert_int_equal(offsets[0], -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cases),
      cmocka_unit_test(test_parity_cases_build),
      cmocka_unit_test(test_flat_kernels_by_hand),
      cmocka_unit_test(test_every_dtype),
      cmocka_unit_test(test_issue_case),
      cmocka_unit_test(test_overlapping_lists),
      cmocka_unit_test(test_list_past_content),
      cmocka_unit_test(test_huge_last_offset),
      cmocka_unit_test(test_odd_bools),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
