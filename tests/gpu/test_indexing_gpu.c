/* test_indexing_gpu.c: masks, integer indexing, slices, firsts/lasts and local_index of cuda
 * arrays (indexing.h): every case of jgt_indexing_cases.h run on device 0 (array and selector
 * copied with jg_array_to_device), on the legacy default stream and on a created non-blocking
 * stream, with the result on cuda:0 and the same value, type, status, message and error index as
 * on the host (and as the table's hand-worked expectations); mixed backends (JG_EBACKEND); and
 * 2^20 + 1 random lists masked, sliced with a negative step, indexed and reduced to lasts on the
 * device, equal element for element to the host results. Skips (exit 77) without a usable
 * device. */
#include "jg_test.h"
#include "jgt_indexing_cases.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static char g_text[16384];
static char g_type[512];

static void describe(const jg_array *h, char *text, size_t ntext, char *type, size_t ntype) {
  JGT_OK(jg_array_to_string(h, 8000, text, ntext, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(h, type, ntype, NULL, &jgt_err_));
}

/* Runs every case on device 0 with `stream`; returns the number of failures. */
static int run_table(jg_stream stream) {
  size_t n = 0;
  const jgt_ixcase *cases = jgt_indexing_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_ixcase *c = &cases[i];
    jg_array *a = c->make(), *s = c->sel != NULL ? c->sel() : NULL, *ho = NULL, *dout = NULL;
    jg_array *da = jgt_to_device_on(a, stream), *ds = s != NULL ? jgt_to_device_on(s, stream) : NULL;
    jg_error herr, derr;
    jg_error_clear(&herr);
    jg_error_clear(&derr);
    const jg_status hst = jgt_ix_run(c, a, s, NULL, &ho, &herr);
    const jg_status dst = jgt_ix_run(c, da, ds, stream, &dout, &derr);
    if (hst != c->status || dst != hst) {
      print_error("case '%s': cuda %s (%s), host %s (%s), expected %s\n", c->name,
                  jg_status_name(dst), derr.message, jg_status_name(hst), herr.message,
                  jg_status_name(c->status));
      failed++;
    } else if (dst != JG_OK) {
      if (strcmp(derr.message, herr.message) != 0 || derr.index != herr.index ||
          derr.index != c->index || strstr(derr.message, c->value) == NULL) {
        print_error("case '%s': cuda \"%s\" (index %lld), host \"%s\" (index %lld)\n", c->name,
                    derr.message, (long long)derr.index, herr.message, (long long)herr.index);
        failed++;
      }
    } else {
      const jg_device dev = jg_array_device(dout);
      if (dev.type != JG_DEVICE_CUDA || dev.id != 0) {
        print_error("case '%s': the result is not on cuda:0\n", c->name);
        failed++;
      }
      jg_array *back = jgt_to_host(dout);
      char dv[16384], dt[512];
      describe(back, dv, sizeof dv, dt, sizeof dt);
      describe(ho, g_text, sizeof g_text, g_type, sizeof g_type);
      if (strcmp(dv, c->value) != 0 || strcmp(dt, c->type) != 0 || strcmp(dv, g_text) != 0 ||
          strcmp(dt, g_type) != 0) {
        print_error("case '%s': cuda gives %s of type %s, host %s of type %s, expected %s of "
                    "type %s\n",
                    c->name, dv, dt, g_text, g_type, c->value, c->type);
        failed++;
      }
      JGT_OK(jg_array_validate(dout, JG_VALIDATE_FULL, NULL, &jgt_err_));
      jg_array_release(back);
    }
    jg_array_release(dout);
    jg_array_release(ho);
    jg_array_release(ds);
    jg_array_release(da);
    jg_array_release(s);
    jg_array_release(a);
  }
  return failed;
}

JGT_STREAM_TABLE_TESTS(run_table)

static void test_mixed_backends(void **state) {
  (void)state;
  jg_array *a = jgt_ix_small(), *m = jgt_ix_event_mask(), *dm = jgt_to_device_on(m, NULL);
  jg_array *da = jgt_to_device_on(a, NULL), *out = NULL;
  jg_error err;
  JGT_STATUS(JG_EBACKEND, jg_array_mask(a, dm, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_mask: ");
  JGT_CONTAINS(err.message, "jg_array_to_host");
  JGT_STATUS(JG_EBACKEND, jg_array_take(da, m, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_to_device");
  assert_null(out);
  jg_array_release(da);
  jg_array_release(dm);
  jg_array_release(m);
  jg_array_release(a);
}

/* Compares two host arrays' printouts (small) or, for large ones, their buffers recursively. */
static void assert_same_tree(const jg_array *x, const jg_array *y) {
  assert_int_equal(jg_array_kind(x), jg_array_kind(y));
  assert_int_equal(jg_array_length(x), jg_array_length(y));
  jg_view vx, vy;
  for (int k = 0; k < 2; k++) {
    jg_error e;
    if (jg_array_buffer(x, k, &vx, &e) != JG_OK) break;
    JGT_OK(jg_array_buffer(y, k, &vy, &jgt_err_));
    assert_int_equal(vx.dtype, vy.dtype);
    assert_int_equal(vx.layout.shape[0], vy.layout.shape[0]);
    const size_t bytes = (size_t)(vx.layout.shape[0] * vx.layout.itemsize);
    assert_int_equal(vx.layout.strides[0], 1);
    assert_int_equal(vy.layout.strides[0], 1);
    assert_memory_equal(jg_view_data(&vx), jg_view_data(&vy), bytes);
  }
  assert_int_equal(jg_array_num_children(x), jg_array_num_children(y));
  for (int k = 0; k < jg_array_num_children(x); k++) {
    assert_same_tree(jg_array_child(x, k), jg_array_child(y, k));
  }
}

static void test_large_random(void **state) {
  (void)state;
  const jg_len n = ((jg_len)1 << 20) + 1;
  int64_t *off = malloc(sizeof *off * (size_t)(n + 1));
  assert_non_null(off);
  uint64_t x = 777;
  off[0] = 3;
  for (jg_len i = 0; i < n; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    off[i + 1] = off[i] + (jg_len)((x >> 33) % 7);
  }
  const jg_len m = off[n] + 2;
  int64_t *v = malloc(sizeof *v * (size_t)m), *ix = malloc(sizeof *ix * (size_t)m);
  bool *mk = malloc((size_t)m);
  assert_non_null(v);
  assert_non_null(ix);
  assert_non_null(mk);
  for (jg_len k = 0; k < m; k++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    v[k] = (int64_t)(x >> 16);
    mk[k] = ((x >> 40) & 3) != 0;
  }
  /* a jagged index: list i's entries pick positions (k * 7) % count, negated one time in 3 */
  for (jg_len i = 0; i < n; i++) {
    const jg_len cnt = off[i + 1] - off[i];
    for (jg_len k = off[i]; k < off[i + 1]; k++) {
      const jg_len p = ((k - off[i]) * 7) % cnt;
      ix[k] = k % 3 == 0 ? p - cnt : p;
    }
  }
  jg_array *a = jgt_offsets64(off, n + 1, jgt_i64(v, m));
  jg_array *mask = jgt_offsets64(off, n + 1, jgt_numeric(mk, m, JG_DTYPE_BOOL));
  jg_array *index = jgt_offsets64(off, n + 1, jgt_i64(ix, m));
  jg_array *da = jgt_to_device_on(a, NULL), *dm = jgt_to_device_on(mask, NULL);
  jg_array *di = jgt_to_device_on(index, NULL);
  for (int op = 0; op < 4; op++) {
    jg_array *h = NULL, *d = NULL;
    switch (op) {
      case 0:
        JGT_OK(jg_array_mask(a, mask, NULL, &h, &jgt_err_));
        JGT_OK(jg_array_mask(da, dm, NULL, &d, &jgt_err_));
        break;
      case 1:
        JGT_OK(jg_array_slice_axis(a, 1, -1, 0, -2, JG_SLICE_START, NULL, &h, &jgt_err_));
        JGT_OK(jg_array_slice_axis(da, 1, -1, 0, -2, JG_SLICE_START, NULL, &d, &jgt_err_));
        break;
      case 2:
        JGT_OK(jg_array_take(a, index, NULL, &h, &jgt_err_));
        JGT_OK(jg_array_take(da, di, NULL, &d, &jgt_err_));
        break;
      default:
        JGT_OK(jg_array_lasts(a, 1, NULL, &h, &jgt_err_));
        JGT_OK(jg_array_lasts(da, 1, NULL, &d, &jgt_err_));
        break;
    }
    jg_array *back = jgt_to_host(d);
    assert_same_tree(h, back);
    jg_array_release(back);
    jg_array_release(d);
    jg_array_release(h);
  }
  jg_array_release(di);
  jg_array_release(dm);
  jg_array_release(da);
  jg_array_release(index);
  jg_array_release(mask);
  jg_array_release(a);
  free(mk);
  free(ix);
  free(v);
  free(off);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_default_stream),
      cmocka_unit_test(test_table_created_stream),
      cmocka_unit_test(test_mixed_backends),
      cmocka_unit_test(test_large_random),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
