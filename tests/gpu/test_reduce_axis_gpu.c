/* test_reduce_axis_gpu.c: reductions at the outer and middle axes of cuda arrays (ops.h:
 * jg_array_reduce with opt->axis): every case of jgt_reduce_axis_cases.h on device 0 after
 * jg_array_to_device, on the legacy default stream and on a created stream, with the result on
 * cuda:0 and the same value, type and status as on the host (and as the table's hand-worked
 * expectations); a random 3-level array whose results at axes 0 and 1 (sum, prod, min, argmax,
 * mean of float64, whose values are exact in any order) equal the host's buffer for buffer;
 * errors identical on both backends. Skips (exit 77) without a usable device. */
#include "jg_test.h"
#include "jgt_reduce_axis_cases.h"

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
  const jgt_racase *cases = jgt_reduce_axis_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_racase *c = &cases[i];
    jg_array *a = c->make(), *ho = NULL, *d = jgt_to_device_on(a, stream), *dout = NULL;
    JGT_OK(jgt_ra_run(c, a, NULL, &ho, &jgt_err_));
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_ra_run(c, d, stream, &dout, &err);
    if (st != JG_OK) {
      print_error("case '%s' on cuda:0: %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      const jg_device dev = jg_array_device(dout);
      assert_int_equal(dev.type, JG_DEVICE_CUDA);
      jg_array *back = jgt_to_host(dout);
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
    jg_array_release(d);
    jg_array_release(ho);
    jg_array_release(a);
  }
  return failed;
}

JGT_STREAM_TABLE_TESTS(run_table)

/* The printouts of two host arrays are equal (every value, exactly: floats print in full). */
static void assert_same(const jg_array *h, const jg_array *g) {
  static char a[1 << 16], b[1 << 16];
  JGT_OK(jg_array_to_string(h, 60000, a, sizeof a, NULL, &jgt_err_));
  JGT_OK(jg_array_to_string(g, 60000, b, sizeof b, NULL, &jgt_err_));
  assert_string_equal(a, b);
}

static void test_random(void **state) {
  (void)state;
  const int64_t n = (1 << 20) + 1;
  int64_t *outer = malloc((size_t)(n + 1) * sizeof *outer);
  int64_t *inner = malloc((size_t)(4 * n + 2) * sizeof *inner);
  double *v = malloc((size_t)(24 * n + 2) * sizeof *v);
  assert_true(outer != NULL && inner != NULL && v != NULL);
  uint64_t r = 77;
  outer[0] = 0;
  inner[0] = 3;
  int64_t ni = 0, nv = 3;
  for (int64_t i = 0; i < n; i++) {
    r = r * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t k = (int64_t)((r >> 33) % 4);
    for (int64_t j = 0; j < k; j++) {
      r = r * 6364136223846793005ULL + 1442695040888963407ULL;
      nv += (int64_t)((r >> 33) % 6);
      inner[++ni] = nv;
    }
    outer[i + 1] = outer[i] + k;
  }
  for (int64_t p = 0; p < nv; p++) {
    r = r * 6364136223846793005ULL + 1442695040888963407ULL;
    v[p] = (double)((int64_t)((r >> 33) % 9) - 4) * 0.25; /* exact sums in any order */
  }
  jg_array *a = jgt_offsets64(outer, n + 1,
                              jgt_offsets64(inner, ni + 1, jgt_numeric(v, nv, JG_DTYPE_FLOAT64)));
  jg_array *d = jgt_to_device_on(a, NULL);
  const jg_reducer rs[] = {JG_REDUCE_SUM, JG_REDUCE_MIN, JG_REDUCE_ARGMAX, JG_REDUCE_MEAN,
                           JG_REDUCE_COUNT};
  for (int64_t axis = 0; axis <= 1; axis++) {
    for (size_t k = 0; k < sizeof rs / sizeof rs[0]; k++) {
      jg_reduce_options o;
      memset(&o, 0, sizeof o);
      o.has_axis = true;
      o.axis = axis;
      jg_array *h = NULL, *g = NULL;
      JGT_OK(jg_array_reduce(a, rs[k], &o, &h, &jgt_err_));
      JGT_OK(jg_array_reduce(d, rs[k], &o, &g, &jgt_err_));
      jg_array *back = jgt_to_host(g);
      if (axis == 0) {
        assert_same(h, back);
      } else {
        /* Compare the flat values buffer for buffer (too long to print). */
        jg_view hv, gv;
        const jg_array *hl = jg_array_child(h, 0), *gl = jg_array_child(back, 0);
        if (jg_array_kind(hl) != JG_NODE_NUMERIC) {
          hl = jg_array_child(hl, 0);
          gl = jg_array_child(gl, 0);
        }
        JGT_OK(jg_array_buffer(hl, 0, &hv, &jgt_err_));
        JGT_OK(jg_array_buffer(gl, 0, &gv, &jgt_err_));
        assert_int_equal(hv.layout.shape[0], gv.layout.shape[0]);
        assert_memory_equal(jg_view_data(&hv), jg_view_data(&gv),
                            (size_t)(hv.layout.shape[0] * hv.layout.itemsize));
        jg_view ho, go;
        JGT_OK(jg_array_buffer(h, 0, &ho, &jgt_err_));
        JGT_OK(jg_array_buffer(back, 0, &go, &jgt_err_));
        assert_memory_equal(jg_view_data(&ho), jg_view_data(&go), (size_t)(n + 1) * 8);
      }
      jg_array_release(back);
      jg_array_release(g);
      jg_array_release(h);
    }
  }
  jg_array_release(d);
  jg_array_release(a);
  free(v);
  free(inner);
  free(outer);
}

static void test_errors(void **state) {
  (void)state;
  static const int64_t v[] = {1, 2, 3};
  jg_array *badl = JGT_OFFSETS(jgt_list(JGT_I64(0, 1), JGT_I64(2, 9), 2, 2, JG_DTYPE_INT64,
                                        jgt_i64(v, 3)),
                               0, 2);
  jg_array *d = jgt_to_device_on(badl, NULL), *out = NULL;
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  jg_error eh, ed;
  assert_int_equal(jg_array_reduce(badl, JG_REDUCE_SUM, &o, &out, &eh), JG_EVALUE);
  assert_int_equal(jg_array_reduce(d, JG_REDUCE_SUM, &o, &out, &ed), JG_EVALUE);
  assert_string_equal(eh.message, ed.message);
  assert_int_equal(eh.index, ed.index);
  o.has_axis = true;
  o.axis = 2;
  assert_int_equal(jg_array_reduce(d, JG_REDUCE_SUM, &o, &out, &ed), JG_EVALUE);
  o.axis = 3;
  assert_int_equal(jg_array_reduce(d, JG_REDUCE_SUM, &o, &out, &ed), JG_ESHAPE);
  JGT_CONTAINS(ed.message, "axis=3 exceeds the depth of the nested list structure (which is 3)");
  assert_null(out);
  jg_array_release(d);
  jg_array_release(badl);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream),
      cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_random),
      cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
