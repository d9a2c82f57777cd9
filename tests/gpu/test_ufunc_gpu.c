/* test_ufunc_gpu.c: elementwise functions with broadcasting on cuda arrays (ufunc.h): every case
 * of jgt_ufunc_cases.h run on device 0 after jg_array_to_device, on the legacy default stream
 * and on a created stream, with the result on cuda:0, at most a few single values read back
 * during the call (never the data: under 1 KiB moved to the host), and the same value, type and
 * status as on the host (exactly; the `approx` cases of transcendental functions compare their
 * values within JGT_UC_RTOL, since CUDA's math library and the host's libm differ by a few ulp);
 * mixed backends (JG_EBACKEND naming the fixing call); and 2^20 + 1 lists against a per-list
 * array and a jagged array with None lists, equal to the host's results bit for bit. Skips (exit
 * 77) without a usable device. */
#include <math.h>

#include "jg_test.h"
#include "jgt_ufunc_cases.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static char g_text[8192], g_text2[8192];
static char g_type[512], g_type2[512];

static void describe(const jg_array *h, char *text, char *type) {
  JGT_OK(jg_array_to_string(h, 4000, text, sizeof g_text, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(h, type, sizeof g_type, NULL, &jgt_err_));
}

/* The numeric leaf of a host array (through single-content nodes). */
static jg_view leaf_of(const jg_array *a) {
  const jg_array *p = a;
  while (jg_array_num_children(p) == 1) p = jg_array_child(p, 0);
  jg_view v;
  JGT_OK(jg_array_buffer(p, 0, &v, &jgt_err_));
  return v;
}

/* Whether two float leaves agree within rtol (NaN equals NaN, infinities exactly). */
static bool leaves_close(const jg_view *a, const jg_view *b, double rtol) {
  if (a->dtype != b->dtype || a->layout.shape[0] != b->layout.shape[0]) return false;
  for (jg_len i = 0; i < a->layout.shape[0]; i++) {
    double x, y;
    if (a->dtype == JG_DTYPE_FLOAT32) {
      x = ((const float *)jg_view_data(a))[i];
      y = ((const float *)jg_view_data(b))[i];
    } else {
      x = ((const double *)jg_view_data(a))[i];
      y = ((const double *)jg_view_data(b))[i];
    }
    if (isnan(x) && isnan(y)) continue;
    if (x == y) continue;
    if (fabs(x - y) > rtol * fmax(fabs(x), fabs(y))) return false;
  }
  return true;
}

static int run_table(jg_stream stream) {
  size_t n = 0;
  const jgt_ucase *cases = jgt_ufunc_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_ucase *c = &cases[i];
    jg_array *a = c->a(), *b = c->b != NULL ? c->b() : NULL, *cc = c->c != NULL ? c->c() : NULL;
    jg_array *ho = NULL, *dout = NULL;
    jg_error herr, derr;
    jg_error_clear(&herr);
    jg_error_clear(&derr);
    const jg_status hst = jgt_uc_run(c, a, b, cc, NULL, &ho, &herr);
    jg_array *da = jgt_to_device_on(a, stream), *db = jgt_to_device_on(b, stream),
             *dc = jgt_to_device_on(cc, stream);
    jg_transfer_counter tc;
    jg_transfer_counter_init(&tc, NULL, 0);
    JGT_OK(jg_transfer_scope_begin(&tc, &jgt_err_));
    const jg_status dst = jgt_uc_run(c, da, db, dc, stream, &dout, &derr);
    JGT_OK(jg_transfer_scope_end(&tc, &jgt_err_));
    if (tc.bytes[JG_TRANSFER_TO_HOST] > 1024) {
      print_error("case '%s': %llu bytes moved to the host\n", c->name,
                  (unsigned long long)tc.bytes[JG_TRANSFER_TO_HOST]);
      failed++;
    }
    if (hst != dst || (hst != JG_OK && (herr.index != derr.index ||
                                        strcmp(herr.message, derr.message) != 0))) {
      print_error("case '%s': host %s (%lld) '%s', device %s (%lld) '%s'\n", c->name,
                  jg_status_name(hst), (long long)herr.index, herr.message, jg_status_name(dst),
                  (long long)derr.index, derr.message);
      failed++;
    } else if (hst == JG_OK) {
      const jg_device dev = jg_array_device(dout);
      jg_array *back = jgt_to_host(dout);
      describe(ho, g_text, g_type);
      describe(back, g_text2, g_type2);
      bool same = strcmp(g_type, g_type2) == 0;
      if (c->approx) {
        const jg_view lh = leaf_of(ho), ld = leaf_of(back);
        same = same && leaves_close(&lh, &ld, JGT_UC_RTOL);
      } else {
        same = same && strcmp(g_text, g_text2) == 0 && strcmp(g_text, c->value) == 0;
      }
      if (!same || dev.type != JG_DEVICE_CUDA || dev.id != 0) {
        print_error("case '%s': host %s of %s, device %s of %s (on device type %d)\n", c->name,
                    g_text, g_type, g_text2, g_type2, (int)dev.type);
        failed++;
      }
      jg_array_release(back);
    }
    jg_array_release(ho);
    jg_array_release(dout);
    jg_array_release(da);
    jg_array_release(db);
    jg_array_release(dc);
    jg_array_release(a);
    jg_array_release(b);
    jg_array_release(cc);
  }
  return failed;
}

JGT_STREAM_TABLE_TESTS(run_table)

static void test_mixed_backends(void **state) {
  (void)state;
  jg_array *x = jgt_uc_x3(), *y = jgt_uc_y3(), *dy = jgt_to_device_on(y, NULL), *out = NULL;
  jg_error err;
  JGT_STATUS(JG_EBACKEND, jg_array_ufunc2(JG_UFUNC_ADD, x, dy, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_ufunc2: ");
  JGT_CONTAINS(err.message, "jg_array_to");
  assert_int_equal(err.index, 1);
  assert_null(out);
  jg_array *c = jgt_uc_cond(), *wx = jgt_uc_wx(), *dwx = jgt_to_device_on(wx, NULL);
  JGT_STATUS(JG_EBACKEND, jg_array_where(c, dwx, wx, NULL, &out, &err));
  assert_int_equal(err.index, 1);
  JGT_STATUS(JG_EBACKEND, jg_array_where(c, wx, dwx, NULL, &out, &err));
  assert_int_equal(err.index, 2);
  jg_array_release(dy);
  jg_array_release(dwx);
  jg_array_release(x);
  jg_array_release(y);
  jg_array_release(c);
  jg_array_release(wx);
}

/* 2^20 + 1 lists (counts i % 7, offsets not at 0 after a slice, some None lists), times a
 * per-list array and plus itself, on both backends: bit-for-bit equal. */
static void test_long(void **state) {
  (void)state;
  const jg_len n = (1 << 20) + 2;
  int64_t *counts = malloc(sizeof *counts * (size_t)n);
  double *per = malloc(sizeof *per * (size_t)n);
  int8_t *mask = malloc((size_t)n);
  assert_non_null(counts);
  assert_non_null(per);
  assert_non_null(mask);
  jg_len total = 0;
  for (jg_len i = 0; i < n; i++) {
    counts[i] = i % 7;
    per[i] = (double)(i % 13) * 0.5 - 3.0;
    mask[i] = i % 11 != 3;
    total += counts[i];
  }
  double *content = malloc(sizeof *content * (size_t)(total > 0 ? total : 1));
  assert_non_null(content);
  for (jg_len j = 0; j < total; j++) content[j] = (double)(j % 101) * 0.25 - 12.0;
  jg_array *x0 = NULL;
  JGT_OK(jg_array_from_host_counts(counts, n, content, total, JG_DTYPE_FLOAT64, &x0, &jgt_err_));
  jg_array *x = jgt_slice(x0, 1, n); /* offsets not at 0 */
  jg_array *xm = jgt_byte_masked(mask + 1, n - 1, true, jgt_slice(jg_array_retain(x), 0, n - 1));
  jg_array *y = jgt_numeric(per + 1, n - 1, JG_DTYPE_FLOAT64);
  const jg_array *pairs[3][2] = {{x, y}, {xm, x}, {y, xm}};
  for (int k = 0; k < 3; k++) {
    jg_array *ho = NULL, *dout = NULL;
    JGT_OK(jg_array_ufunc2(JG_UFUNC_MULTIPLY, pairs[k][0], pairs[k][1], NULL, &ho, &jgt_err_));
    jg_array *da = jgt_to_device_on(pairs[k][0], NULL), *db = jgt_to_device_on(pairs[k][1], NULL);
    JGT_OK(jg_array_ufunc2(JG_UFUNC_MULTIPLY, da, db, NULL, &dout, &jgt_err_));
    jg_array *back = jgt_to_host(dout);
    char *t1 = malloc(1 << 16), *t2 = malloc(1 << 16);
    assert_non_null(t1);
    assert_non_null(t2);
    JGT_OK(jg_array_to_string(ho, 100000, t1, 1 << 16, NULL, &jgt_err_));
    JGT_OK(jg_array_to_string(back, 100000, t2, 1 << 16, NULL, &jgt_err_));
    assert_string_equal(t1, t2);
    const jg_view lh = leaf_of(ho), ld = leaf_of(back);
    assert_int_equal(lh.layout.shape[0], ld.layout.shape[0]);
    assert_int_equal(memcmp(jg_view_data(&lh), jg_view_data(&ld),
                            (size_t)(lh.layout.shape[0] * 8)),
                     0);
    free(t1);
    free(t2);
    jg_array_release(back);
    jg_array_release(ho);
    jg_array_release(dout);
    jg_array_release(da);
    jg_array_release(db);
  }
  jg_array_release(x);
  jg_array_release(xm);
  jg_array_release(y);
  free(counts);
  free(per);
  free(mask);
  free(content);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream),
      cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_mixed_backends),
      cmocka_unit_test(test_long),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
