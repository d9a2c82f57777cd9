/* test_structure.c: structure operations on host arrays (structure.h): every case of
 * jgt_structure_cases.h (Awkward's examples, hand-worked), sorts of 2^20 + 1 values in short
 * lists and in one long list compared with a plain reference (a stable insertion of each list by
 * the same order), the statuses of bad arguments and inputs, and mixed backends (JG_EBACKEND,
 * with a device-resident view that is never dereferenced, so no GPU is needed). */
#include "jg_test.h"
#include "jgt_structure_cases.h"

static char g_text[8192];
static char g_type[512];

static void describe(const jg_array *h) {
  JGT_OK(jg_array_to_string(h, 4000, g_text, sizeof g_text, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(h, g_type, sizeof g_type, NULL, &jgt_err_));
}

static void test_table(void **state) {
  (void)state;
  size_t n = 0;
  const jgt_scase *cases = jgt_structure_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_scase *c = &cases[i];
    jg_array *a = c->in0(), *b = c->in1 != NULL ? c->in1() : NULL, *out = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_sc_run(c, a, b, NULL, &out, &err);
    if (st != c->status) {
      print_error("case '%s': %s (%s), expected %s\n", c->name, jg_status_name(st), err.message,
                  jg_status_name(c->status));
      failed++;
    } else if (st != JG_OK) {
      if (strstr(err.message, c->value) == NULL || out != NULL) {
        print_error("case '%s': message '%s' lacks '%s'\n", c->name, err.message, c->value);
        failed++;
      }
    } else {
      JGT_OK(jg_array_validate(out, JG_VALIDATE_FULL, NULL, &jgt_err_));
      describe(out);
      if (strcmp(g_text, c->value) != 0 || strcmp(g_type, c->type) != 0) {
        print_error("case '%s': %s of type %s, expected %s of type %s\n", c->name, g_text,
                    g_type, c->value, c->type);
        failed++;
      }
    }
    jg_array_release(out);
    jg_array_release(a);
    jg_array_release(b);
  }
  assert_int_equal(failed, 0);
}

/* The reference order: class (number, NaN, None), then value. */
static int key_class(double v, bool valid) { return !valid ? 2 : (v != v ? 1 : 0); }

static bool before(double a, bool va, double b, bool vb, bool desc) {
  const int ca = key_class(a, va), cb = key_class(b, vb);
  if (ca != cb) return ca < cb;
  if (ca != 0) return false;
  return desc ? a > b : a < b;
}

/* Checks argsort and sort of a big case against a stable insertion sort of each list. */
static void check_big(bool long_list, bool desc) {
  jg_len total = 0;
  jg_array *a = jgt_sc_big(long_list, &total), *as = NULL, *so = NULL;
  JGT_OK(jg_array_argsort(a, -1, !desc, true, NULL, &as, &jgt_err_));
  JGT_OK(jg_array_sort(a, -1, !desc, true, NULL, &so, &jgt_err_));
  jg_view off, mask, vals, perm, soff, sidx;
  JGT_OK(jg_array_buffer(a, 0, &off, &jgt_err_));
  const jg_array *opt = jg_array_child(a, 0);
  JGT_OK(jg_array_buffer(opt, 0, &mask, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(opt, 0), 0, &vals, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(as, 0), 0, &perm, &jgt_err_));
  JGT_OK(jg_array_buffer(so, 0, &soff, &jgt_err_));
  const jg_array *sopt = jg_array_child(so, 0);
  assert_int_equal(jg_array_kind(sopt), JG_NODE_INDEXED_OPTION);
  JGT_OK(jg_array_buffer(sopt, 0, &sidx, &jgt_err_));
  const int64_t *o = jg_view_data(&off), *p = jg_view_data(&perm), *si = jg_view_data(&sidx);
  const int8_t *mk = jg_view_data(&mask);
  const double *v = jg_view_data(&vals);
  const double *sv = jg_view_data(&vals); /* sort's option shares the values */
  const jg_len n = jg_array_length(a);
  int64_t *ref = malloc(sizeof *ref * (size_t)(total > 0 ? total : 1));
  assert_non_null(ref);
  for (jg_len i = 0; i < n; i++) {
    const int64_t s = o[i], len = o[i + 1] - o[i];
    /* Stable merge sort of local positions (bottom-up, as the reference of the reference). */
    int64_t *r = ref + s;
    int64_t *tmp = malloc(sizeof *tmp * (size_t)(len > 0 ? len : 1));
    assert_non_null(tmp);
    for (int64_t l = 0; l < len; l++) r[l] = l;
    for (int64_t w = 1; w < len; w *= 2) {
      for (int64_t lo = 0; lo < len; lo += 2 * w) {
        const int64_t mid = lo + w < len ? lo + w : len, hi = mid + w < len ? mid + w : len;
        int64_t x = lo, y = mid, z = lo;
        while (x < mid && y < hi) {
          const int64_t px = s + r[x], py = s + r[y];
          if (before(v[py], mk[py] != 0, v[px], mk[px] != 0, desc)) {
            tmp[z++ - lo] = r[y++];
          } else {
            tmp[z++ - lo] = r[x++];
          }
        }
        while (x < mid) tmp[z++ - lo] = r[x++];
        while (y < hi) tmp[z++ - lo] = r[y++];
        memcpy(r + lo, tmp, sizeof *tmp * (size_t)(hi - lo));
      }
    }
    free(tmp);
  }
  for (jg_len q = 0; q < total; q++) {
    if (p[q] != ref[q]) {
      print_error("argsort differs at %lld: %lld, reference %lld\n", (long long)q,
                  (long long)p[q], (long long)ref[q]);
      fail();
    }
  }
  /* sort: the lists' offsets from 0, and each entry the value at the reference position. */
  const int64_t *so64 = jg_view_data(&soff);
  for (jg_len i = 0; i < n; i++) {
    assert_int_equal(so64[i + 1] - so64[i], o[i + 1] - o[i]);
    for (int64_t l = 0; l < o[i + 1] - o[i]; l++) {
      const int64_t want = o[i] + ref[o[i] + l], got = si[so64[i] + l];
      if (mk[want] == 0) {
        assert_true(got < 0);
      } else {
        assert_true(got >= 0);
        const double a1 = sv[got], b1 = v[want];
        assert_true((a1 != a1 && b1 != b1) || a1 == b1);
      }
    }
  }
  free(ref);
  jg_array_release(as);
  jg_array_release(so);
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

/* A user resource that says its memory is device memory of cuda:0 but hands out host storage
 * that nothing dereferences: arrays "on cuda:0" without a GPU, for the JG_EBACKEND checks. */
static _Alignas(256) int64_t g_fake_storage[32];
static jg_status fake_alloc(jg_memory_resource *mr, size_t bytes, size_t alignment,
                            jg_stream stream, void **ptr, jg_error *err) {
  (void)mr, (void)bytes, (void)alignment, (void)stream, (void)err;
  *ptr = g_fake_storage;
  return JG_OK;
}
static void fake_free(jg_memory_resource *mr, void *ptr, size_t bytes, jg_stream stream) {
  (void)mr, (void)ptr, (void)bytes, (void)stream;
}

static jg_memory_resource g_devlike;

/* A numeric array of 4 int64 "on cuda:0" (never dereferenced). */
static jg_array *fake_device_array(void) {
  JGT_OK(jg_memory_resource_init_user(&g_devlike, (jg_device){JG_DEVICE_CUDA, 0}, false, true,
                                      false, fake_alloc, fake_free, NULL, &jgt_err_));
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(&g_devlike, sizeof g_fake_storage, NULL, &b, &jgt_err_));
  jg_layout l;
  const jg_len n = 4;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, b, &l, JG_DTYPE_INT64, true, &jgt_err_));
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  jg_buffer_release(b);
  return a;
}

static void test_errors(void **state) {
  (void)state;
  jg_error err;
  jg_array *a = jgt_sc_offsets_not0(), *out = (jg_array *)1;
  JGT_STATUS(JG_EINVAL, jg_array_flatten(NULL, 1, NULL, &out, &err));
  assert_null(out);
  JGT_STATUS(JG_EINVAL, jg_array_flatten(a, 1, NULL, NULL, &err));
  JGT_STATUS(JG_ENOTSUP, jg_array_flatten(a, 2, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_flatten");
  JGT_STATUS(JG_EINVAL, jg_array_unflatten(a, NULL, 0, NULL, &out, &err));
  JGT_STATUS(JG_ENOTSUP, jg_array_unflatten(a, a, 2, NULL, &out, &err));
  jg_array *f = JGT_SC_F64(1, 2);
  jg_array *six = jgt_sc_six();
  JGT_STATUS(JG_EDTYPE, jg_array_unflatten(six, f, 0, NULL, &out, &err));
  jg_array *toolarge = JGT_SC_I64(9);
  JGT_STATUS(JG_ESHAPE, jg_array_unflatten(six, toolarge, 0, NULL, &out, &err));
  assert_int_equal(err.index, 0);
  JGT_STATUS(JG_EINVAL, jg_array_singletons(NULL, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_pad_none(a, -2, 1, false, NULL, &out, &err));
  JGT_STATUS(JG_ENOTSUP, jg_array_pad_none(a, 2, 3, false, NULL, &out, &err));
  JGT_STATUS(JG_ESHAPE, jg_array_pad_none(six, 2, 1, false, NULL, &out, &err));
  jg_fill_value bad = jg_fill_value_i64(0);
  bad.dtype = JG_DTYPE_FLOAT16;
  JGT_STATUS(JG_EDTYPE, jg_array_fill_none(a, bad, -1, NULL, &out, &err));
  JGT_STATUS(JG_ENOTSUP, jg_array_fill_none(a, jg_fill_value_i64(0), 0, NULL, &out, &err));
  /* Regression: int64 values filled with a uint64 above 2^63 - 1 promote to float64 (NumPy),
   * rather than failing with JG_EOVERFLOW. */
  {
    jg_array *opt = jgt_sc_opt(), *filled = NULL;
    JGT_OK(jg_array_fill_none(opt, jg_fill_value_u64(UINT64_MAX), -1, NULL, &filled, &jgt_err_));
    char text[128];
    JGT_OK(jg_array_to_string(filled, 0, text, sizeof text, NULL, &jgt_err_));
    assert_string_equal(text, "[1, 1.8446744073709552e+19, 3]");
    JGT_OK(jg_array_type_string(filled, text, sizeof text, NULL, &jgt_err_));
    assert_string_equal(text, "3 * float64");
    jg_array_release(filled);
    jg_array_release(opt);
  }
  JGT_STATUS(JG_ENOTSUP, jg_array_is_none(a, -1, NULL, &out, &err));
  JGT_STATUS(JG_ESHAPE, jg_array_is_none(six, 1, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_concatenate(0, NULL, 1, NULL, &out, &err));
  const jg_array *withnull[2] = {a, NULL};
  JGT_STATUS(JG_EINVAL, jg_array_concatenate(2, withnull, 1, NULL, &out, &err));
  assert_int_equal(err.index, 1);
  const jg_array *two[2] = {a, a};
  JGT_STATUS(JG_ENOTSUP, jg_array_concatenate(2, two, 2, NULL, &out, &err));
  const jg_array *mixed[2] = {a, six};
  JGT_STATUS(JG_ESHAPE, jg_array_concatenate(2, mixed, 1, NULL, &out, &err));
  assert_int_equal(err.index, 1);
  JGT_STATUS(JG_EINVAL, jg_array_argsort(a, 0, true, true, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_sort(a, -1, true, false, NULL, &out, &err));
  /* A list that leaves its content. */
  static const int64_t starts[] = {0, 2}, stops[] = {1, 9};
  jg_array *badl = jgt_list(starts, stops, 2, 2, JG_DTYPE_INT64, JGT_SC_I64(1, 2, 3));
  JGT_STATUS(JG_EVALUE, jg_array_flatten(badl, 1, NULL, &out, &err));
  assert_int_equal(err.index, 1);
  JGT_STATUS(JG_EVALUE, jg_array_sort(badl, -1, true, true, NULL, &out, &err));
  assert_int_equal(err.index, 1);
  /* Mixed backends. */
  jg_array *dev = fake_device_array();
  assert_int_equal(jg_array_backend(dev), JG_BACKEND_CUDA);
  const jg_array *hd[2] = {a, dev};
  JGT_STATUS(JG_EBACKEND, jg_array_concatenate(2, hd, 1, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_to_host");
  assert_int_equal(err.index, 1);
  JGT_STATUS(JG_EBACKEND, jg_array_unflatten(six, dev, 0, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_unflatten");
  jg_array_release(dev);
  assert_null(out);
  jg_array_release(badl);
  jg_array_release(toolarge);
  jg_array_release(six);
  jg_array_release(f);
  jg_array_release(a);
}

/* Results share the inputs' buffers where nothing changes: flatten of offsets is a slice. */
static void test_sharing(void **state) {
  (void)state;
  jg_array *a = jgt_sc_offsets_not0(), *out = NULL;
  JGT_OK(jg_array_flatten(a, 1, NULL, &out, &jgt_err_));
  jg_view in, res;
  JGT_OK(jg_array_buffer(jg_array_child(a, 0), 0, &in, &jgt_err_));
  JGT_OK(jg_array_buffer(out, 0, &res, &jgt_err_));
  assert_ptr_equal(in.buffer, res.buffer);
  jg_array_release(out);
  jg_array_release(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_big_short_lists),
      cmocka_unit_test(test_big_long_list),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_sharing),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
