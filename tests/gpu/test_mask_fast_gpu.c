/* test_mask_fast_gpu.c: jg_array_mask's fused path on the GPU: the flat way (kernels
 * list_mask_select and list_mask_offsets: a single-pass compaction of the flat contents with a
 * decoupled look-back, then the offsets from its rank words) and the way by lists (kernel
 * list_mask: one pass with a decoupled look-back across blocks). Every case of
 * jgt_mask_fast_cases.h runs on device copies through the fused path and through the general
 * walk (the same data with int32 mask lists), on the legacy default stream and on a created
 * stream; both results, brought back, must equal the host's plain reference loop exactly, on
 * bad data both must fail with the host's status, index and message, and the fused call must
 * have run the expected kernels (as on the host). Then the three kernels' own parity cases with
 * the default launch and with odd grids (and, for the kernels that take any block, odd blocks:
 * one block looping over every tile, partial warps, blocks of 1024 and of 20 threads), and a
 * newcomer's probes (a last list far past its content, odd bool bytes). Exits 77 (skipped) without a usable GPU. */
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
  jgt_mf_calls before, after;
  jgt_mf_calls_get(true, &before);
  const jg_status sf = jg_array_mask(dx, dm, stream, &fast, &ef);
  jgt_mf_calls_get(true, &after);
  const jg_status sg = jg_array_mask(dx, dg, stream, &general, &eg);
  const jg_status sh = jg_array_mask(in.x, in.mask, NULL, &host, &eh);
  int failed = jgt_mf_check_path(c, &before, &after);
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
                     2, 1, -1, 0};
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

/* The newcomer's probes on the device: a last list far past its content fails cleanly (no read
 * past the rank words, so the context stays usable), and odd bool bytes are true on every path. */
static void test_huge_last_offset(void **state) {
  (void)state;
  jgt_mf_huge_lasts(true);
  jgt_mf_odd_bools(true);
}

static void parity(const char *name, const jg_launch *launch) {
  const jg_kernel *k = NULL;
  JGT_OK(jg_catalog_find(name, &k, &jgt_err_));
  assert_true(jg_kernel_has_cuda(k));
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.seed = 77;
  o.launch = launch;
  jgt_parity_ok(k, &o, name);
}

static void test_parity_launches(void **state) {
  (void)state;
  static const int64_t grids[5] = {1, 3, 0, 7, 5};
  static const int blocks[5] = {256, 96, 1024, 33, 20};
  /* list_mask and list_mask_offsets take any grid and block */
  static const char *const any_block[2] = {"list_mask", "list_mask_offsets"};
  for (int j = 0; j < 2; ++j) {
    parity(any_block[j], NULL);
    for (int i = 0; i < 5; ++i) {
      jg_launch l;
      memset(&l, 0, sizeof l);
      l.grid = grids[i];
      l.block = blocks[i];
      parity(any_block[j], &l);
    }
  }
  /* list_mask_select takes blocks of 256 only (others raise its flag), any grid: one block
   * running every tile in order, a few blocks with runs of tiles, more blocks than tiles */
  parity("list_mask_select", NULL);
  static const int64_t sgrids[4] = {1, 3, 7, 100000};
  for (int i = 0; i < 4; ++i) {
    jg_launch l;
    memset(&l, 0, sizeof l);
    l.grid = sgrids[i];
    l.block = 256;
    parity("list_mask_select", &l);
  }
}

/* A device copy of host array `h` (released). */
static jg_array *dev_of(jg_array *h) {
  jg_array *d = jgt_to_device_on(h, NULL);
  jg_array_release(h);
  return d;
}

/* The data of array `a`'s first buffer. */
static void *dev_data(const jg_array *a) {
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  return jg_view_data(&v);
}

/* list_mask_select on one list [1, 2, 3] masked by [T, F, T] with a block of 128 threads: the
 * flag, nothing else (state[3] stays 0); with 256: no flag, the total 2. */
static void test_select_other_block(void **state) {
  (void)state;
  const jg_kernel *k = NULL;
  JGT_OK(jg_catalog_find("list_mask_select", &k, &jgt_err_));
  static const bool hm[3] = {true, false, true};
  static const uint32_t hx[3] = {1, 2, 3};
  static const uint32_t hout[3] = {0, 0, 0};
  static const uint64_t hb[2] = {0, 0};
  static const int64_t ho[2] = {0, 3}, hp[2] = {0, 0};
  for (int pass = 0; pass < 2; ++pass) {
    static const int64_t hs[5] = {0, 0, 0, 0, 0};
    jg_array *off = dev_of(jgt_i64(ho, 2));
    jg_array *x = dev_of(jgt_numeric(hx, 3, JG_DTYPE_UINT32));
    jg_array *m = dev_of(jgt_numeric(hm, 3, JG_DTYPE_BOOL));
    jg_array *o = dev_of(jgt_numeric(hout, 3, JG_DTYPE_UINT32));
    jg_array *b = dev_of(jgt_numeric(hb, 2, JG_DTYPE_UINT64));
    jg_array *p = dev_of(jgt_i64(hp, 2));
    jg_array *s = dev_of(jgt_i64(hs, 5));
    const jg_device dev = {JG_DEVICE_CUDA, 0};
    int64_t *doff = dev_data(off);
    const jg_kernel_arg a[16] = {
        jg_arg_i64(1), jg_arg_array(doff, 1, JG_DTYPE_INT64, dev),
        jg_arg_array(doff + 1, 1, JG_DTYPE_INT64, dev), jg_arg_i64(3),
        jg_arg_array(dev_data(x), 3, JG_DTYPE_UINT32, dev),
        jg_arg_array(doff, 1, JG_DTYPE_INT64, dev),
        jg_arg_array(doff + 1, 1, JG_DTYPE_INT64, dev), jg_arg_i64(3),
        jg_arg_array(dev_data(m), 3, JG_DTYPE_BOOL, dev), jg_arg_i64(1), jg_arg_i64(3),
        jg_arg_array(dev_data(o), 3, JG_DTYPE_UINT32, dev), jg_arg_i64(2),
        jg_arg_array(dev_data(b), 2, JG_DTYPE_UINT64, dev),
        jg_arg_array(dev_data(p), 2, JG_DTYPE_INT64, dev),
        jg_arg_array(dev_data(s), 5, JG_DTYPE_INT64, dev)};
    jg_launch l;
    memset(&l, 0, sizeof l);
    l.grid = 1;
    l.block = pass == 0 ? 128 : 256;
    JGT_OK(jg_kernel_call(k, a, 16, &l, &jgt_err_));
    jg_array *hs_back = jgt_to_host(s);
    const int64_t *got = dev_data(hs_back);
    assert_int_equal(got[2], pass == 0 ? 1 : 0);
    assert_int_equal(got[3], pass == 0 ? 0 : 2);
    jg_array_release(hs_back);
    jg_array_release(off);
    jg_array_release(x);
    jg_array_release(m);
    jg_array_release(o);
    jg_array_release(b);
    jg_array_release(p);
    jg_array_release(s);
  }
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream), cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_issue_case),           cmocka_unit_test(test_overlapping_lists),
      cmocka_unit_test(test_parity_launches),      cmocka_unit_test(test_select_other_block),
      cmocka_unit_test(test_huge_last_offset),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
