/* test_structure_gpu.c: structure operations of cuda arrays (structure.h): every case of
 * jgt_structure_cases.h run on device 0 after jg_array_to_device, on the legacy default stream
 * and on a created stream, with the result on cuda:0 and the same value, type and status (and
 * message) as on the host and as the table's hand-worked expectations; argsort and sort of
 * 2^20 + 1 values in short lists and in one long list equal to the host's exactly; mixed
 * backends. The operations read a few totals back (scan sums, first/last offsets), so transfers
 * to the host are not counted here. Skips (exit 77) without a usable device. */
#include "jg_test.h"
#include "jgt_structure_cases.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static char g_text[8192];
static char g_type[512];

static void describe(const jg_array *h) {
  JGT_OK(jg_array_to_string(h, 4000, g_text, sizeof g_text, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(h, g_type, sizeof g_type, NULL, &jgt_err_));
}

static int run_table(jg_stream stream) {
  size_t n = 0;
  const jgt_scase *cases = jgt_structure_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_scase *c = &cases[i];
    jg_array *a = c->in0(), *b = c->in1 != NULL ? c->in1() : NULL, *ho = NULL, *dout = NULL;
    jg_array *da = jgt_to_device_on(a, stream), *db = b != NULL ? jgt_to_device_on(b, stream) : NULL;
    jg_error herr, derr;
    jg_error_clear(&herr);
    jg_error_clear(&derr);
    const jg_status hst = jgt_sc_run(c, a, b, NULL, &ho, &herr);
    const jg_status dst = jgt_sc_run(c, da, db, stream, &dout, &derr);
    if (hst != c->status || dst != c->status) {
      print_error("case '%s': host %s (%s), cuda %s (%s), expected %s\n", c->name,
                  jg_status_name(hst), herr.message, jg_status_name(dst), derr.message,
                  jg_status_name(c->status));
      failed++;
    } else if (dst != JG_OK) {
      if (strcmp(herr.message, derr.message) != 0 || herr.index != derr.index) {
        print_error("case '%s': host says '%s' (%lld), cuda '%s' (%lld)\n", c->name,
                    herr.message, (long long)herr.index, derr.message, (long long)derr.index);
        failed++;
      }
    } else {
      const jg_device d = jg_array_device(dout);
      if (d.type != JG_DEVICE_CUDA || d.id != 0) {
        print_error("case '%s': result not on cuda:0\n", c->name);
        failed++;
      }
      jg_array *back = jgt_to_host(dout);
      JGT_OK(jg_array_validate(back, JG_VALIDATE_FULL, NULL, &jgt_err_));
      describe(back);
      char dv[8192], dt[512];
      snprintf(dv, sizeof dv, "%s", g_text);
      snprintf(dt, sizeof dt, "%s", g_type);
      describe(ho);
      if (strcmp(dv, c->value) != 0 || strcmp(dt, c->type) != 0 || strcmp(dv, g_text) != 0 ||
          strcmp(dt, g_type) != 0) {
        print_error("case '%s': cuda gives %s of type %s, host %s of type %s, expected %s of "
                    "type %s\n",
                    c->name, dv, dt, g_text, g_type, c->value, c->type);
        failed++;
      }
      jg_array_release(back);
    }
    jg_array_release(dout);
    jg_array_release(ho);
    jg_array_release(da);
    jg_array_release(db);
    jg_array_release(a);
    jg_array_release(b);
  }
  return failed;
}

JGT_STREAM_TABLE_TESTS(run_table)

/* Buffer k of child path of a host array, as int64 or double data. */
static void assert_same_buffer(const jg_array *x, const jg_array *y) {
  jg_view vx, vy;
  JGT_OK(jg_array_buffer(x, 0, &vx, &jgt_err_));
  JGT_OK(jg_array_buffer(y, 0, &vy, &jgt_err_));
  assert_int_equal(vx.dtype, vy.dtype);
  assert_int_equal(vx.layout.shape[0], vy.layout.shape[0]);
  const size_t bytes = (size_t)(vx.layout.shape[0] * vx.layout.itemsize);
  assert_int_equal(memcmp(jg_view_data(&vx), jg_view_data(&vy), bytes), 0);
}

/* argsort and sort of a big case on the device equal the host's exactly. */
static void check_big(bool long_list, bool desc) {
  jg_len total = 0;
  jg_array *a = jgt_sc_big(long_list, &total), *d = jgt_to_device_on(a, NULL);
  jg_array *ha = NULL, *hs = NULL, *da = NULL, *ds = NULL;
  JGT_OK(jg_array_argsort(a, -1, !desc, true, NULL, &ha, &jgt_err_));
  JGT_OK(jg_array_sort(a, -1, !desc, true, NULL, &hs, &jgt_err_));
  JGT_OK(jg_array_argsort(d, -1, !desc, true, NULL, &da, &jgt_err_));
  JGT_OK(jg_array_sort(d, -1, !desc, true, NULL, &ds, &jgt_err_));
  jg_array *ba = jgt_to_host(da), *bs = jgt_to_host(ds);
  assert_same_buffer(ha, ba);                                         /* offsets */
  assert_same_buffer(jg_array_child(ha, 0), jg_array_child(ba, 0));   /* positions */
  assert_same_buffer(hs, bs);
  assert_same_buffer(jg_array_child(hs, 0), jg_array_child(bs, 0));   /* option index */
  jg_array_release(ba);
  jg_array_release(bs);
  jg_array_release(ha);
  jg_array_release(hs);
  jg_array_release(da);
  jg_array_release(ds);
  jg_array_release(d);
  jg_array_release(a);
}

static void test_big_short_lists(void **state) {
  (void)state;
  check_big(false, false);
  check_big(false, true);
}

static void test_big_long_list(void **state) {
  (void)state;
  check_big(true, false);
  check_big(true, true);
}

/* flatten, drop_none and concatenate of the big case agree too. */
static void test_big_others(void **state) {
  (void)state;
  jg_len total = 0;
  jg_array *a = jgt_sc_big(false, &total), *d = jgt_to_device_on(a, NULL);
  jg_array *h1 = NULL, *d1 = NULL, *h2 = NULL, *d2 = NULL, *h3 = NULL, *d3 = NULL;
  JGT_OK(jg_array_flatten(a, JG_AXIS_ALL, NULL, &h1, &jgt_err_));
  JGT_OK(jg_array_flatten(d, JG_AXIS_ALL, NULL, &d1, &jgt_err_));
  JGT_OK(jg_array_drop_none(a, 1, NULL, &h2, &jgt_err_));
  JGT_OK(jg_array_drop_none(d, 1, NULL, &d2, &jgt_err_));
  const jg_array *hx[2] = {a, a}, *dx[2] = {d, d};
  JGT_OK(jg_array_concatenate(2, hx, 1, NULL, &h3, &jgt_err_));
  JGT_OK(jg_array_concatenate(2, dx, 1, NULL, &d3, &jgt_err_));
  jg_array *b1 = jgt_to_host(d1), *b2 = jgt_to_host(d2), *b3 = jgt_to_host(d3);
  assert_same_buffer(h1, b1);
  assert_same_buffer(h2, b2);
  assert_same_buffer(jg_array_child(h2, 0), jg_array_child(b2, 0));
  assert_same_buffer(h3, b3);
  assert_same_buffer(jg_array_child(h3, 0), jg_array_child(b3, 0));
  jg_array *arr[] = {b1, b2, b3, h1, h2, h3, d1, d2, d3, d, a};
  for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) jg_array_release(arr[i]);
}

static void test_mixed_backends(void **state) {
  (void)state;
  jg_array *a = jgt_sc_offsets_not0(), *d = jgt_to_device_on(a, NULL), *out = NULL;
  jg_error err;
  const jg_array *xs[2] = {d, a};
  JGT_STATUS(JG_EBACKEND, jg_array_concatenate(2, xs, 1, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_to_device");
  jg_array *counts = JGT_SC_I64(1, 2, 0);
  JGT_STATUS(JG_EBACKEND, jg_array_unflatten(d, counts, 0, NULL, &out, &err));
  assert_null(out);
  jg_array_release(counts);
  jg_array_release(d);
  jg_array_release(a);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream),
      cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_big_short_lists),
      cmocka_unit_test(test_big_long_list),
      cmocka_unit_test(test_big_others),
      cmocka_unit_test(test_mixed_backends),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
