/* test_indexing.c: masks, integer indexing, slices, firsts/lasts and local_index of host arrays
 * (indexing.h): every case of jgt_indexing_cases.h (values and types worked out by hand from
 * Awkward's semantics, every error with its status, message and index), empty arrays, the
 * internal carry through every node kind, and 2^20 + 1 random lists compared with plain
 * reference loops written here. */
#include "jg_test.h"
#include "jgt_indexing_cases.h"

static char g_text[16384];
static char g_type[512];

static void describe(const jg_array *h) {
  JGT_OK(jg_array_to_string(h, 8000, g_text, sizeof g_text, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(h, g_type, sizeof g_type, NULL, &jgt_err_));
}

static void test_table(void **state) {
  (void)state;
  size_t n = 0;
  const jgt_ixcase *cases = jgt_indexing_cases(&n);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_ixcase *c = &cases[i];
    jg_array *a = c->make(), *s = c->sel != NULL ? c->sel() : NULL, *out = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_ix_run(c, a, s, NULL, &out, &err);
    if (st != c->status) {
      print_error("case '%s': status %s (%s), expected %s\n", c->name, jg_status_name(st),
                  err.message, jg_status_name(c->status));
      failed++;
    } else if (st == JG_OK) {
      describe(out);
      if (strcmp(g_text, c->value) != 0 || strcmp(g_type, c->type) != 0) {
        print_error("case '%s': %s of type %s, expected %s of type %s\n", c->name, g_text,
                    g_type, c->value, c->type);
        failed++;
      }
      JGT_OK(jg_array_validate(out, JG_VALIDATE_FULL, NULL, &jgt_err_));
    } else {
      if (strstr(err.message, c->value) == NULL || err.index != c->index ||
          out != NULL) {
        print_error("case '%s': message \"%s\" index %lld, expected \"%s\" index %lld\n",
                    c->name, err.message, (long long)err.index, c->value, (long long)c->index);
        failed++;
      }
    }
    jg_array_release(out);
    jg_array_release(s);
    jg_array_release(a);
  }
  assert_int_equal(failed, 0);
}

static void test_null_arguments(void **state) {
  (void)state;
  jg_array *a = jgt_ix_small(), *out = NULL;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_mask(NULL, a, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_mask(a, NULL, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_mask: the mask is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_take(a, NULL, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_take(a, a, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_array_slice_axis(a, 1, 0, 0, 1, 8, NULL, &out, &err));
  JGT_CONTAINS(err.message, "unknown flags");
  JGT_STATUS(JG_EINVAL, jg_array_firsts(NULL, 1, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_local_index(a, 1, NULL, NULL, &err));
  JGT_STATUS(JG_ESHAPE, jg_array_local_index(a, 2, NULL, &out, &err));
  JGT_CONTAINS(err.message, "axis 2 exceeds the depth of the nested list structure (which is 1)");
  JGT_STATUS(JG_ESHAPE, jg_array_lasts(a, -2, NULL, &out, &err));
  /* Regression: INT64_MIN as an axis was negated (undefined behaviour) in the depth check. */
  JGT_STATUS(JG_ESHAPE, jg_array_firsts(a, INT64_MIN, NULL, &out, &err));
  JGT_CONTAINS(err.message, "axis -9223372036854775808 exceeds the depth");
  JGT_STATUS(JG_ESHAPE, jg_array_slice_axis(a, INT64_MIN, 0, 0, 1, 0, NULL, &out, &err));
  JGT_STATUS(JG_ESHAPE, jg_array_local_index(a, INT64_MIN, NULL, &out, &err));
  assert_null(out);
  jg_array_release(a);
}

/* Empty arrays: no lists, and lists with no elements. */
static void test_empty(void **state) {
  (void)state;
  jg_array *a = JGT_OFFSETS(JGT_INTS(5), 7), *m = JGT_OFFSETS(JGT_BOOLS(true), 3), *out = NULL;
  JGT_OK(jg_array_mask(a, m, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[]");
  assert_string_equal(g_type, "0 * var * int64");
  jg_array_release(out);
  jg_array *ev = jgt_numeric(NULL, 0, JG_DTYPE_BOOL);
  JGT_OK(jg_array_mask(a, ev, NULL, &out, &jgt_err_));
  assert_int_equal(jg_array_length(out), 0);
  jg_array_release(out);
  JGT_OK(jg_array_slice_axis(a, 1, 0, 0, -1, 0, NULL, &out, &jgt_err_));
  assert_int_equal(jg_array_length(out), 0);
  jg_array_release(out);
  JGT_OK(jg_array_firsts(a, 1, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[]");
  jg_array_release(out);
  jg_array *idx = jgt_i64(NULL, 0);
  JGT_OK(jg_array_take(a, idx, NULL, &out, &jgt_err_));
  assert_int_equal(jg_array_length(out), 0);
  jg_array_release(out);
  /* An all-false mask of lists with elements: every list empties. */
  jg_array *b = jgt_ix_small(), *f = JGT_OFFSETS(JGT_BOOLS(false, false, false, false, false),
                                                 0, 3, 3, 5);
  JGT_OK(jg_array_mask(b, f, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[[], [], []]");
  jg_array_release(out);
  /* An empty node as content: [[], []] of unknown type. */
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  jg_array *le = JGT_OFFSETS(e, 0, 0, 0), *lm = JGT_OFFSETS(JGT_BOOLS(true), 0, 0, 0);
  JGT_OK(jg_array_mask(le, lm, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[[], []]");
  jg_array_release(out);
  jg_array_release(le);
  jg_array_release(lm);
  jg_array_release(b);
  jg_array_release(f);
  jg_array_release(idx);
  jg_array_release(ev);
  jg_array_release(a);
  jg_array_release(m);
}

/* The carry through nodes the table does not reach: an indexed option, regular lists, int32
 * offsets, a strided numeric view, a bit-masked node (not supported). */
static void test_carry_nodes(void **state) {
  (void)state;
  jg_array *out = NULL;
  /* [[1, None], [2]]: indexed option inside lists, int32 offsets */
  jg_array *io = jgt_indexed(JGT_I64(0, -1, 1), 3, JG_DTYPE_INT64, JGT_INTS(1, 2));
  jg_array *a = jgt_list_offset(JGT_I32(0, 2, 3), 3, JG_DTYPE_INT32, io);
  jg_array *ix = JGT_INTS(1, 0, 1);
  JGT_OK(jg_array_take(a, ix, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[[2], [1, None], [2]]");
  assert_string_equal(g_type, "3 * var * ?int64");
  jg_array_release(out);
  /* regular lists of size 2 over 6 values, event mask */
  jg_array *r = jgt_regular(JGT_INTS(1, 2, 3, 4, 5, 6), 2, -1);
  jg_array *em = JGT_BOOLS(false, true, true);
  JGT_OK(jg_array_mask(r, em, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[[3, 4], [5, 6]]");
  assert_string_equal(g_type, "2 * 2 * int64");
  jg_array_release(out);
  /* a jagged mask through regular lists */
  jg_array *rm = jgt_regular(JGT_BOOLS(true, false, false, true, true, true), 2, -1);
  JGT_OK(jg_array_mask(r, rm, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[[1], [4], [5, 6]]");
  jg_array_release(out);
  /* a strided numeric view (every second value) */
  const int64_t vals[6] = {10, -1, 20, -1, 30, -1};
  const jg_len shape = 3;
  const jg_stride stride = 2;
  jg_array *sv = jgt_numeric_view(jgt_view_ex(vals, 6, JG_DTYPE_INT64, 1, &shape, &stride, 0));
  jg_array *sl = JGT_OFFSETS(sv, 0, 2, 3);
  JGT_OK(jg_array_slice_axis(sl, 1, 0, 0, -1, 0, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[[20, 10], [30]]");
  jg_array_release(out);
  /* bit-masked content (Arrow's form: bits 0 and 2 set, entry 1 None) is carried */
  const uint8_t bits = 0x5;
  jg_array *bm = jgt_bit_masked(&bits, 1, true, true, 3, JGT_INTS(1, 2, 3));
  jg_array *lb = JGT_OFFSETS(bm, 0, 3);
  jg_array *m1 = JGT_OFFSETS(JGT_BOOLS(true, true, false), 0, 3);
  JGT_OK(jg_array_mask(lb, m1, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, "[[1, None]]");
  jg_array_release(out);
  jg_array_release(lb);
  jg_array_release(m1);
  jg_array_release(sl);
  jg_array_release(rm);
  jg_array_release(em);
  jg_array_release(r);
  jg_array_release(ix);
  jg_array_release(a);
}

/* The data of buffer 0 of a node (offsets, values or a byte mask). */
static const void *data0(const jg_array *a) {
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  return jg_view_data(&v);
}

/* 2^20 + 1 lists of random lengths (some empty, offsets from 5), against plain loops. */
static void test_large_random(void **state) {
  (void)state;
  const jg_len n = ((jg_len)1 << 20) + 1;
  int64_t *off = malloc(sizeof *off * (size_t)(n + 1));
  assert_non_null(off);
  uint64_t x = 12345;
  off[0] = 5;
  for (jg_len i = 0; i < n; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    off[i + 1] = off[i] + (jg_len)((x >> 33) % 6);
  }
  const jg_len m = off[n] + 3;
  int64_t *v = malloc(sizeof *v * (size_t)m);
  bool *mk = malloc((size_t)m);
  assert_non_null(v);
  assert_non_null(mk);
  for (jg_len k = 0; k < m; k++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    v[k] = (int64_t)(x >> 20);
    mk[k] = ((x >> 40) & 1) != 0;
  }
  jg_array *a = jgt_offsets64(off, n + 1, jgt_i64(v, m));
  jg_array *mask = jgt_offsets64(off, n + 1, jgt_numeric(mk, m, JG_DTYPE_BOOL));
  jg_array *out = NULL;
  JGT_OK(jg_array_mask(a, mask, NULL, &out, &jgt_err_));
  /* reference: the kept values in order, and the counts */
  const int64_t *o = data0(out), *c = data0(jg_array_child(out, 0));
  jg_len k = 0;
  for (jg_len i = 0; i < n; i++) {
    assert_int_equal(o[i], k);
    for (jg_len j = off[i]; j < off[i + 1]; j++) {
      if (mk[j]) {
        assert_int_equal(c[k], v[j]);
        k++;
      }
    }
  }
  assert_int_equal(o[n], k);
  jg_array_release(out);
  /* lasts and [::-2] */
  JGT_OK(jg_array_lasts(a, 1, NULL, &out, &jgt_err_));
  const int8_t *valid = data0(out);
  const int64_t *lv = data0(jg_array_child(out, 0));
  for (jg_len i = 0; i < n; i++) {
    assert_int_equal(valid[i] != 0, off[i + 1] > off[i]);
    if (off[i + 1] > off[i]) assert_int_equal(lv[i], v[off[i + 1] - 1]);
  }
  jg_array_release(out);
  JGT_OK(jg_array_slice_axis(a, 1, 0, 0, -2, 0, NULL, &out, &jgt_err_));
  o = data0(out);
  c = data0(jg_array_child(out, 0));
  k = 0;
  for (jg_len i = 0; i < n; i++) {
    assert_int_equal(o[i], k);
    for (jg_len j = off[i + 1] - 1; j >= off[i]; j -= 2) assert_int_equal(c[k++], v[j]);
  }
  assert_int_equal(o[n], k);
  jg_array_release(out);
  jg_array_release(mask);
  jg_array_release(a);
  free(mk);
  free(v);
  free(off);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_null_arguments), cmocka_unit_test(test_empty),
      cmocka_unit_test(test_carry_nodes),  cmocka_unit_test(test_large_random),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
