/* test_reduce_gpu.c: per-list reductions of cuda arrays (ops.h): every case of jgt_reduce_cases.h
 * run on device 0 after jg_array_to_device, on the legacy default stream and on a created stream,
 * with the result on cuda:0, nothing moved to or from the host during the reduction, and the
 * same value, type and status as on the host (and as the table's hand-worked expectations); outer
 * buffers shared on the device; errors (bad list ranges, structure) identical on both backends;
 * a long random case with lists of up to 2^17 + 5 values whose results must equal the host's bit
 * for bit. Skips (exit 77) without a usable device. */
#include "jg_test.h"
#include "jgt_reduce_cases.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static char g_text[8192];
static char g_type[512];

/* `a` copied to device 0 on `stream` (the copies are then ordered before the reduction). */
static jg_array *to_device(const jg_array *a) {
  return jgt_to_device_on(a, NULL);
}

/* The printout and type of a host array into the static buffers. */
static void describe(const jg_array *h) {
  JGT_OK(jg_array_to_string(h, 4000, g_text, sizeof g_text, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(h, g_type, sizeof g_type, NULL, &jgt_err_));
}

static void assert_on_cuda0(const jg_array *a) {
  const jg_device d = jg_array_device(a);
  assert_int_equal(d.type, JG_DEVICE_CUDA);
  assert_int_equal(d.id, 0);
}

/* Runs every case of the table on device 0 with `stream`; returns the number of failures. */
static int run_table(jg_stream stream) {
  size_t n = 0;
  const jgt_rcase *cases = jgt_reduce_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_rcase *c = &cases[i];
    jg_array *a = c->make(), *ho = NULL, *d = jgt_to_device_on(a, stream), *dout = NULL;
    JGT_OK(jgt_rc_run(c, a, NULL, &ho, &jgt_err_));
    jg_transfer_counter tc;
    jg_transfer_counter_init(&tc, NULL, 0);
    JGT_OK(jg_transfer_scope_begin(&tc, &jgt_err_));
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_rc_run(c, d, stream, &dout, &err);
    JGT_OK(jg_transfer_scope_end(&tc, &jgt_err_));
    if (st != JG_OK) {
      print_error("case '%s' on cuda:0: %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      assert_on_cuda0(dout);
      jg_error terr;
      if (jg_transfer_expect_none(&tc,
                                  JG_TRANSFER_MASK(JG_TRANSFER_TO_HOST) |
                                      JG_TRANSFER_MASK(JG_TRANSFER_TO_DEVICE) |
                                      JG_TRANSFER_MASK(JG_TRANSFER_FALLBACK),
                                  &terr) != JG_OK) {
        print_error("case '%s': %s\n", c->name, terr.message);
        failed++;
      }
      jg_array *back = jgt_to_host(dout);
      describe(back);
      char dv[8192], dt[512];
      snprintf(dv, sizeof dv, "%s", g_text);
      snprintf(dt, sizeof dt, "%s", g_type);
      describe(ho);
      if (strcmp(dv, c->value) != 0 || strcmp(dt, c->type) != 0 || strcmp(dv, g_text) != 0 ||
          strcmp(dt, g_type) != 0) {
        print_error(
            "case '%s': cuda gives %s of type %s, host %s of type %s, expected %s of "
            "type %s\n",
            c->name, dv, dt, g_text, g_type, c->value, c->type);
        failed++;
      }
      jg_array_release(back);
    }
    jg_array_release(dout);
    jg_array_release(d);
    jg_array_release(ho);
    jg_array_release(a);
  }
  return failed;
}

/* ------------------------------------------------------------------------------------------ */
/* Tests                                                                                       */
/* ------------------------------------------------------------------------------------------ */

JGT_STREAM_TABLE_TESTS(run_table)

/* The nodes above the innermost lists keep the device input's own buffers. */
static void test_outer_buffers_shared(void **state) {
  (void)state;
  jg_array *a = jgt_rc_nested(), *d = to_device(a), *out = NULL;
  JGT_OK(jg_array_reduce(d, JG_REDUCE_MAX, NULL, &out, &jgt_err_));
  assert_on_cuda0(out);
  jg_view vi, vo;
  JGT_OK(jg_array_buffer(d, 0, &vi, &jgt_err_));
  JGT_OK(jg_array_buffer(out, 0, &vo, &jgt_err_));
  assert_ptr_equal(vi.buffer, vo.buffer);
  assert_ptr_equal(vi.base, vo.base);
  assert_false(vo.host_accessible);
  /* the reduced values and their mask are device buffers too */
  jg_array *masked = jg_array_child(out, 0);
  assert_int_equal(jg_array_kind(masked), JG_NODE_BYTE_MASKED);
  JGT_OK(jg_array_buffer(masked, 0, &vo, &jgt_err_));
  assert_false(vo.host_accessible);
  assert_true(vo.device_accessible);
  JGT_OK(jg_array_buffer(jg_array_child(masked, 0), 0, &vo, &jgt_err_));
  assert_false(vo.host_accessible);
  assert_int_equal(vo.device.type, JG_DEVICE_CUDA);
  jg_array_release(out);
  jg_array_release(d);
  jg_array_release(a);
}

/* Errors carry the same status, index and message on both backends. */
static void same_error(const jg_array *a, jg_reducer r, const jg_reduce_options *o) {
  jg_array *d = to_device(a), *out = NULL;
  jg_error he, de;
  jg_error_clear(&he);
  jg_error_clear(&de);
  const jg_status hs = jg_array_reduce(a, r, o, &out, &he);
  assert_null(out);
  const jg_status ds = jg_array_reduce(d, r, o, &out, &de);
  assert_null(out);
  assert_int_not_equal(hs, JG_OK);
  assert_int_equal(ds, hs);
  assert_int_equal(de.index, he.index);
  assert_string_equal(de.message, he.message);
  jg_array_release(d);
}

static void test_errors_match(void **state) {
  (void)state;
  static const int64_t content[] = {1, 2, 3, 4, 5};
  /* stops < starts at lists 1 and 3: list 1 is reported */
  jg_array *a =
      jgt_list(JGT_I64(0, 2, 3, 4), JGT_I64(2, 1, 4, 3), 4, 4, JG_DTYPE_INT64, jgt_i64(content, 5));
  const jg_reducer rs[] = {JG_REDUCE_SUM,   JG_REDUCE_MIN,           JG_REDUCE_ARGMAX,
                           JG_REDUCE_COUNT, JG_REDUCE_COUNT_NONZERO, JG_REDUCE_ANY,
                           JG_REDUCE_MEAN};
  for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) same_error(a, rs[i], NULL);
  jg_array *d = to_device(a), *out = NULL;
  jg_error err;
  assert_int_equal(jg_array_reduce(d, JG_REDUCE_SUM, NULL, &out, &err), JG_EVALUE);
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "list 1 has stops < starts or reaches outside the content");
  assert_int_equal(jg_array_num(d, &out, &err), JG_EVALUE);
  assert_int_equal(err.index, 1);
  jg_array_release(d);
  jg_array_release(a);

  /* a list past the content, late in a long array, with another bad one later */
  const jg_len n = 100000;
  int64_t *off = malloc(sizeof *off * (size_t)(n + 1));
  assert_non_null(off);
  for (jg_len i = 0; i <= n; i++) off[i] = i;
  off[70001] = 100005; /* list 70000 ends past the content (n values) */
  off[90001] = 100007;
  a = jgt_offsets64(off, n + 1, jgt_iota(n));
  free(off);
  const jg_reduce_options o = {.has_axis = true, .axis = -1, .keepdims = true, .mask_identity = 1};
  same_error(a, JG_REDUCE_SUM, &o);
  same_error(a, JG_REDUCE_ARGMIN, NULL);
  d = to_device(a);
  assert_int_equal(jg_array_reduce(d, JG_REDUCE_MAX, NULL, &out, &err), JG_EVALUE);
  assert_int_equal(err.index, 70000);
  jg_array_release(d);
  jg_array_release(a);

  /* structure errors are found before anything runs */
  a = jgt_rc_records();
  same_error(a, JG_REDUCE_SUM, NULL);
  jg_array_release(a);
  static const double v3[] = {1, 2, 3};
  a = jgt_numeric(v3, 3, JG_DTYPE_FLOAT64);
  same_error(a, JG_REDUCE_MIN, NULL);
  jg_array_release(a);
}

/* Asserts that two host results of one reduction are equal: same kinds, same validity, and the
 * same bytes in every valid value; or, with `rtol` > 0 (float64 products, whose rounding depends
 * on the order of the multiplications), values within rtol where both are finite, at least
 * `min_compared` of them. */
static void assert_same_result(const jg_array *h, const jg_array *g, const char *what, double rtol,
                               jg_len min_compared) {
  assert_int_equal(jg_array_kind(h), jg_array_kind(g));
  assert_int_equal(jg_array_length(h), jg_array_length(g));
  const jg_array *hv = h, *gv = g;
  jg_view hm, gm;
  const bool masked = jg_array_kind(h) == JG_NODE_BYTE_MASKED;
  if (masked) {
    JGT_OK(jg_array_buffer(h, 0, &hm, &jgt_err_));
    JGT_OK(jg_array_buffer(g, 0, &gm, &jgt_err_));
    hv = jg_array_child(h, 0);
    gv = jg_array_child(g, 0);
  }
  jg_view hd, gd;
  JGT_OK(jg_array_buffer(hv, 0, &hd, &jgt_err_));
  JGT_OK(jg_array_buffer(gv, 0, &gd, &jgt_err_));
  assert_int_equal(hd.dtype, gd.dtype);
  const size_t isz = (size_t)hd.layout.itemsize;
  jg_len compared = 0;
  for (jg_len i = 0; i < jg_array_length(h); i++) {
    if (masked) {
      const int8_t *ph =
          (const int8_t *)hm.base + hm.layout.slice_offset + i * hm.layout.strides[0];
      const int8_t *pg =
          (const int8_t *)gm.base + gm.layout.slice_offset + i * gm.layout.strides[0];
      const bool vh = (*ph != 0) == jg_array_valid_when(h),
                 vg = (*pg != 0) == jg_array_valid_when(g);
      if (vh != vg) {
        print_error("%s: entry %lld is %s on the host, %s on the GPU\n", what, (long long)i,
                    vh ? "valid" : "None", vg ? "valid" : "None");
        fail();
      }
      if (!vh) continue;
    }
    const char *eh = (const char *)hd.base + isz * (size_t)(hd.layout.slice_offset + i);
    const char *eg = (const char *)gd.base + isz * (size_t)(gd.layout.slice_offset + i);
    if (rtol > 0) {
      assert_int_equal(hd.dtype, JG_DTYPE_FLOAT64);
      double a, b;
      memcpy(&a, eh, 8);
      memcpy(&b, eg, 8);
      if (!isfinite(a) || !isfinite(b)) continue;
      compared++;
      if (fabs(a - b) > rtol * fmax(fabs(a), fabs(b))) {
        print_error("%s: entry %lld is %.17g on the host, %.17g on the GPU\n", what, (long long)i,
                    a, b);
        fail();
      }
      continue;
    }
    compared++;
    if (memcmp(eh, eg, isz) != 0) {
      print_error("%s: entry %lld differs between host and GPU\n", what, (long long)i);
      fail();
    }
  }
  assert_true(compared >= min_compared);
}

/* 300000 lists of random counts (many empty, some of 33, 1025, 4096 and 2^17 + 5 values) of
 * float64 multiples of 1/8 (so every sum is exact in any order) and of int32: every reducer gives
 * the host's result bit for bit, but float64 products (within 1e-12 where finite). */
static void test_long_random(void **state) {
  (void)state;
  const jg_len n = 300000;
  int64_t *off = malloc(sizeof *off * (size_t)(n + 1));
  assert_non_null(off);
  uint64_t x = 987654321;
  off[0] = 3;
  for (jg_len i = 0; i < n; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t r = (int64_t)(x >> 33) % 1000;
    int64_t len = r < 300 ? 0 : r % 9;
    if (i == 17) len = 33;
    if (i == 1000) len = 1025;
    if (i == 123456) len = 4096;
    if (i == 200000) len = ((int64_t)1 << 17) + 5;
    off[i + 1] = off[i] + len;
  }
  const jg_len m = off[n] + 11;
  double *vf = malloc(sizeof *vf * (size_t)m);
  int32_t *vi = malloc(sizeof *vi * (size_t)m);
  assert_non_null(vf);
  assert_non_null(vi);
  for (jg_len j = 0; j < m; j++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t k = (int64_t)(x >> 40) % 16001 - 8000;
    vf[j] = (double)k / 8.0;
    vi[j] = (int32_t)(k * 100000); /* sums pass 2^31 */
  }
  jg_array *inputs[2] = {jgt_rc_lists(off, n + 1, vf, m, JG_DTYPE_FLOAT64),
                         jgt_rc_lists(off, n + 1, vi, m, JG_DTYPE_INT32)};
  free(vf);
  free(vi);
  free(off);
  for (int k = 0; k < 2; k++) {
    jg_array *d = to_device(inputs[k]);
    for (int r = JG_REDUCE_SUM; r <= JG_REDUCE_MEAN; r++) {
      for (int mi = -1; mi <= 1; mi++) {
        jg_reduce_options o;
        memset(&o, 0, sizeof o);
        o.axis = -1;
        o.mask_identity = mi;
        jg_array *ho = NULL, *dout = NULL;
        JGT_OK(jg_array_reduce(inputs[k], (jg_reducer)r, &o, &ho, &jgt_err_));
        JGT_OK(jg_array_reduce(d, (jg_reducer)r, &o, &dout, &jgt_err_));
        assert_on_cuda0(dout);
        jg_array *back = jgt_to_host(dout);
        char what[96];
        snprintf(what, sizeof what, "%s of %s, mask_identity %d", jg_reducer_name((jg_reducer)r),
                 k == 0 ? "float64" : "int32", mi);
        const bool fprod = k == 0 && r == JG_REDUCE_PROD;
        /* about 70% of the lists are not empty, all but 4 of them at most 8 long */
        assert_same_result(ho, back, what, fprod ? 1e-12 : 0, fprod ? 150000 : n / 2);
        jg_array_release(back);
        jg_array_release(dout);
        jg_array_release(ho);
      }
    }
    jg_array_release(d);
    jg_array_release(inputs[k]);
  }
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream), cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_outer_buffers_shared), cmocka_unit_test(test_errors_match),
      cmocka_unit_test(test_long_random),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
