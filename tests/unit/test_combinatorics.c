/* test_combinatorics.c: combinations and cartesian products on the host (combinatorics.h): the
 * case table of jgt_combinatorics_cases.h (n = 1..4 with and without replacement, lists shorter
 * than n, offsets not at 0, list nodes, slices, records as items, empty arrays with typed
 * results, cartesian products of 2 and 3 arrays, flat and nested, arg versions), the issue's
 * case (combinations of 3 summed per triplet, then min per list), 2^20 + 1 random lists checked
 * against plain reference loops, the buffers of the result, and every error. Expected values are
 * worked out by hand (see jgt_combinatorics_cases.h) or by plain loops in this file. */
#include "jg_test.h"
#include "jgt_combinatorics_cases.h"

static char g_text[16384];
static char g_type[1024];

static const char *str(const jg_array *a) {
  JGT_OK(jg_array_to_string(a, 8000, g_text, sizeof g_text, NULL, &jgt_err_));
  return g_text;
}

static const char *type_of(const jg_array *a) {
  JGT_OK(jg_array_type_string(a, g_type, sizeof g_type, NULL, &jgt_err_));
  return g_type;
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void test_table(void **state) {
  (void)state;
  size_t n = 0;
  const jgt_ccase *cases = jgt_combinatorics_cases(&n);
  assert_true(n >= 30);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_ccase *c = &cases[i];
    jg_array *in[3] = {NULL, NULL, NULL}, *out = NULL;
    for (int q = 0; q < jgt_cc_ninputs(c); q++) in[q] = c->make[q]();
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_cc_run(c, in, NULL, &out, &err);
    if (st != JG_OK) {
      print_error("case '%s': %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      JGT_OK(jg_array_validate(out, JG_VALIDATE_FULL, NULL, &jgt_err_));
      const char *v = str(out), *t = type_of(out);
      if (strcmp(v, c->value) != 0 || strcmp(t, c->type) != 0) {
        print_error("case '%s': got %s of type %s, expected %s of type %s\n", c->name, v, t,
                    c->value, c->type);
        failed++;
      }
    }
    jg_array_release(out);
    for (int q = 0; q < 3; q++) jg_array_release(in[q]);
  }
  assert_int_equal(failed, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* The issue's case                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Field q of a host record array's numeric field as a float64 pointer (dense). */
static const double *field_f64(const jg_array *rec, int q, jg_len *len) {
  jg_array *f = jg_array_child(rec, q);
  jg_view v;
  JGT_OK(jg_array_buffer(f, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, JG_DTYPE_FLOAT64);
  assert_int_equal(v.layout.strides[0], 1);
  *len = v.layout.shape[0];
  return (const double *)jg_view_data(&v);
}

static void test_issue_case(void **state) {
  (void)state;
  jg_array *a = jgt_cc_issue(), *comb = NULL;
  JGT_OK(jg_array_combinations(a, 3, false, NULL, NULL, &comb, &jgt_err_));
  /* Sum the three fields of every triplet with a plain loop, in the lists of the result. */
  jg_array *rec = jg_array_child(comb, 0);
  jg_len m0 = 0, m1 = 0, m2 = 0;
  const double *x = field_f64(rec, 0, &m0), *y = field_f64(rec, 1, &m1), *z = field_f64(rec, 2, &m2);
  assert_int_equal(m0, 1);
  assert_int_equal(m1, 1);
  assert_int_equal(m2, 1);
  double sums[1];
  for (jg_len i = 0; i < m0; i++) sums[i] = x[i] + y[i] + z[i];
  jg_view ov;
  JGT_OK(jg_array_buffer(comb, 0, &ov, &jgt_err_));
  jg_array *sv = jgt_numeric(sums, m0, JG_DTYPE_FLOAT64), *summed = NULL, *mins = NULL;
  JGT_OK(jg_array_list_offset(&ov, sv, &summed, &jgt_err_));
  assert_string_equal(str(summed), "[[], [6.300000000000001]]");
  JGT_OK(jg_array_reduce(summed, JG_REDUCE_MIN, NULL, &mins, &jgt_err_));
  assert_string_equal(str(mins), "[None, 6.300000000000001]");
  assert_int_equal(jg_array_length(mins), 2);
  assert_string_equal(type_of(mins), "2 * ?float64");
  jg_array_release(mins);
  jg_array_release(summed);
  jg_array_release(sv);
  jg_array_release(comb);
  jg_array_release(a);
}

/* ------------------------------------------------------------------------------------------ */
/* Shape of the result                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Offsets compact from 0 (int64), fields gathered into new buffers, positions as int64. */
static void test_result_layout(void **state) {
  (void)state;
  jg_array *a = jgt_cc_ints(), *out = NULL;
  JGT_OK(jg_array_combinations(a, 2, false, NULL, NULL, &out, &jgt_err_));
  assert_int_equal(jg_array_kind(out), JG_NODE_LIST_OFFSET);
  jg_view ov;
  JGT_OK(jg_array_buffer(out, 0, &ov, &jgt_err_));
  assert_int_equal(ov.dtype, JG_DTYPE_INT64);
  const int64_t *o = jg_view_data(&ov);
  const int64_t want[] = {0, 3, 3, 3, 4};
  for (int i = 0; i < 5; i++) assert_int_equal(o[i], want[i]);
  jg_array *rec = jg_array_child(out, 0);
  assert_int_equal(jg_array_kind(rec), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(rec), 4);
  assert_null(jg_array_field_name(rec, 0)); /* a tuple */
  jg_array_release(out);
  jg_array_release(a);
}

/* ------------------------------------------------------------------------------------------ */
/* 2^20 + 1 random lists against plain loops                                                   */
/* ------------------------------------------------------------------------------------------ */

static uint64_t g_rng = 88172645463325252ULL;
static uint64_t rnd(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

/* 2^20 + 1 lists of 0..6 int64 values (the value at content position p is 3p + 1), offsets
 * from 5; every n = 1..4 with and without replacement checked element by element. */
static void test_long_random(void **state) {
  (void)state;
  const jg_len n = ((jg_len)1 << 20) + 1;
  int64_t *off = malloc((size_t)(n + 1) * sizeof *off);
  assert_non_null(off);
  off[0] = 5;
  for (jg_len i = 0; i < n; i++) off[i + 1] = off[i] + (int64_t)(rnd() % 7);
  const jg_len m = off[n] + 2;
  int64_t *v = malloc((size_t)m * sizeof *v);
  assert_non_null(v);
  for (jg_len p = 0; p < m; p++) v[p] = 3 * p + 1;
  jg_array *a = jgt_offsets64(off, n + 1, jgt_i64(v, m));
  for (int k = 1; k <= 4; k++) {
    for (int rep = 0; rep < 2; rep++) {
      jg_array *out = NULL, *arg = NULL;
      JGT_OK(jg_array_combinations(a, k, rep != 0, NULL, NULL, &out, &jgt_err_));
      JGT_OK(jg_array_argcombinations(a, k, rep != 0, NULL, NULL, &arg, &jgt_err_));
      jg_view ov;
      JGT_OK(jg_array_buffer(out, 0, &ov, &jgt_err_));
      const int64_t *o = jg_view_data(&ov);
      const int64_t *f[4], *g[4];
      for (int q = 0; q < k; q++) {
        jg_view fv, gv;
        JGT_OK(jg_array_buffer(jg_array_child(jg_array_child(out, 0), q), 0, &fv, &jgt_err_));
        JGT_OK(jg_array_buffer(jg_array_child(jg_array_child(arg, 0), q), 0, &gv, &jgt_err_));
        f[q] = jg_view_data(&fv);
        g[q] = jg_view_data(&gv);
      }
      /* The reference: every k-tuple of positions, in lexicographic order, by nested loops. */
      int64_t t = 0;
      int bad = 0;
      for (jg_len i = 0; i < n && !bad; i++) {
        const int64_t L = off[i + 1] - off[i];
        if (o[i] != t) bad = 1;
        int64_t idx[4] = {0, 0, 0, 0};
        const int64_t lo = rep ? 0 : 1;
        for (idx[0] = 0; idx[0] < L; idx[0]++) {
          for (idx[1] = k > 1 ? idx[0] + lo : 0; k > 1 ? idx[1] < L : idx[1] < 1; idx[1]++) {
            for (idx[2] = k > 2 ? idx[1] + lo : 0; k > 2 ? idx[2] < L : idx[2] < 1; idx[2]++) {
              for (idx[3] = k > 3 ? idx[2] + lo : 0; k > 3 ? idx[3] < L : idx[3] < 1;
                   idx[3]++) {
                for (int q = 0; q < k; q++) {
                  if (g[q][t] != idx[q] || f[q][t] != 3 * (off[i] + idx[q]) + 1) bad = 1;
                }
                t++;
              }
            }
          }
        }
      }
      if (bad) print_error("n = %d, replacement %d differs from the reference\n", k, rep);
      assert_int_equal(bad, 0);
      assert_int_equal(o[n], t);
      jg_array_release(out);
      jg_array_release(arg);
    }
  }
  /* Cartesian of the array with itself, nested, against nested loops. */
  jg_array *in[3] = {a, a, a}, *cart = NULL;
  JGT_OK(jg_array_argcartesian(3, (const jg_array *const *)in, true, NULL, NULL, &cart,
                               &jgt_err_));
  jg_view o0v, o1v;
  JGT_OK(jg_array_buffer(cart, 0, &o0v, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(cart, 0), 0, &o1v, &jgt_err_));
  const int64_t *o0 = jg_view_data(&o0v), *o1 = jg_view_data(&o1v);
  const int64_t *f[3];
  for (int q = 0; q < 3; q++) {
    jg_view fv;
    JGT_OK(jg_array_buffer(jg_array_child(jg_array_child(jg_array_child(cart, 0), 0), q), 0, &fv,
                           &jgt_err_));
    f[q] = jg_view_data(&fv);
  }
  int64_t t = 0, grp = 0;
  int bad = 0;
  for (jg_len i = 0; i < n && !bad; i++) {
    const int64_t L = off[i + 1] - off[i];
    if (o0[i] != grp) bad = 1;
    for (int64_t x = 0; x < L; x++, grp++) {
      if (o1[grp] != t) bad = 1;
      for (int64_t y = 0; y < L; y++) {
        for (int64_t z = 0; z < L; z++, t++) {
          if (f[0][t] != x || f[1][t] != y || f[2][t] != z) bad = 1;
        }
      }
    }
  }
  assert_int_equal(bad, 0);
  assert_int_equal(o1[grp], t);
  jg_array_release(cart);
  jg_array_release(a);
  free(v);
  free(off);
}

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void expect(jg_status want_status, jg_status got, const jg_error *err, const char *want) {
  if (got != want_status) {
    print_error("got %s (%s), expected %s\n", jg_status_name(got), err->message,
                jg_status_name(want_status));
  }
  assert_int_equal(got, want_status);
  JGT_CONTAINS(err->message, want);
}

static void test_argument_errors(void **state) {
  (void)state;
  jg_array *a = jgt_cc_ints(), *out = (jg_array *)(uintptr_t)1;
  jg_error err;
  expect(JG_EINVAL, jg_array_combinations(a, 2, false, NULL, NULL, NULL, &err), &err,
         "jg_array_combinations: out is NULL");
  expect(JG_EINVAL, jg_array_combinations(NULL, 2, false, NULL, NULL, &out, &err), &err,
         "jg_array_combinations: a is NULL");
  assert_null(out);
  expect(JG_EINVAL, jg_array_combinations(a, 0, false, NULL, NULL, &out, &err), &err,
         "jg_array_combinations: n = 0 is outside [1, 4]");
  expect(JG_EINVAL, jg_array_argcombinations(a, 5, true, NULL, NULL, &out, &err), &err,
         "jg_array_argcombinations: n = 5 is outside [1, 4]");
  expect(JG_EINVAL, jg_array_combinations(a, -1, false, NULL, NULL, &out, &err), &err,
         "n = -1 is outside [1, 4]");
  static const char *const dup[] = {"x", "x"};
  expect(JG_EINVAL, jg_array_combinations(a, 2, false, dup, NULL, &out, &err), &err,
         "jg_array_combinations: field name 'x' is repeated (fields 0 and 1)");
  assert_int_equal(err.index, 1);
  static const char *const empty[] = {"x", ""};
  expect(JG_EINVAL, jg_array_combinations(a, 2, false, empty, NULL, &out, &err), &err,
         "field name 1 is NULL or empty");
  static const char *const null_name[] = {NULL, "y"};
  expect(JG_EINVAL, jg_array_argcombinations(a, 2, false, null_name, NULL, &out, &err), &err,
         "field name 0 is NULL or empty");
  /* err may be NULL */
  assert_int_equal(jg_array_combinations(NULL, 2, false, NULL, NULL, &out, NULL), JG_EINVAL);

  jg_array *b = jgt_cc_cart_b(), *in[3] = {a, b, b};
  expect(JG_EINVAL, jg_array_cartesian(1, (const jg_array *const *)in, false, NULL, NULL, &out,
                                       &err),
         &err, "jg_array_cartesian: narrays = 1 is outside [2, 3]");
  expect(JG_EINVAL, jg_array_argcartesian(4, (const jg_array *const *)in, false, NULL, NULL, &out,
                                          &err),
         &err, "jg_array_argcartesian: narrays = 4 is outside [2, 3]");
  expect(JG_EINVAL, jg_array_cartesian(2, NULL, false, NULL, NULL, &out, &err), &err,
         "arrays is NULL");
  expect(JG_EINVAL, jg_array_cartesian(2, (const jg_array *const *)in, false, NULL, NULL, NULL,
                                       &err),
         &err, "out is NULL");
  jg_array *with_null[2] = {b, NULL};
  expect(JG_EINVAL, jg_array_cartesian(2, (const jg_array *const *)with_null, false, NULL, NULL,
                                       &out, &err),
         &err, "arrays[1] is NULL");
  expect(JG_EINVAL, jg_array_cartesian(2, (const jg_array *const *)in, false, dup, NULL, &out,
                                       &err),
         &err, "jg_array_cartesian: field name 'x' is repeated");
  /* Outer length mismatch (4 lists and 3). */
  expect(JG_ESHAPE, jg_array_cartesian(2, (const jg_array *const *)in, false, NULL, NULL, &out,
                                       &err),
         &err,
         "jg_array_cartesian: cannot take the cartesian product of arrays of lengths 4 and 3 "
         "(array 1)");
  assert_int_equal(err.index, 1);
  jg_array *in3[3] = {b, b, a};
  expect(JG_ESHAPE, jg_array_argcartesian(3, (const jg_array *const *)in3, true, NULL, NULL,
                                          &out, &err),
         &err, "lengths 3 and 4 (array 2)");
  assert_null(out);
  jg_array_release(b);
  jg_array_release(a);
}

static void test_structure_errors(void **state) {
  (void)state;
  jg_array *out = NULL;
  jg_error err;
  static const double v[] = {1, 2, 3};
  jg_array *flat = jgt_numeric(v, 3, JG_DTYPE_FLOAT64);
  expect(JG_ESHAPE, jg_array_combinations(flat, 2, false, NULL, NULL, &out, &err), &err,
         "jg_array_combinations: needs lists at axis 1; the array has type 3 * float64");
  jg_array *lists = jgt_cc_cart_a(), *in[2] = {lists, flat};
  jg_array *three = JGT_OFFSETS(jg_array_retain(flat), 0, 1, 2, 3);
  in[1] = three;
  JGT_OK(jg_array_cartesian(2, (const jg_array *const *)in, false, NULL, NULL, &out, &jgt_err_));
  jg_array_release(out);
  jg_array *opt = jgt_indexed(JGT_I64(0, -1, 1), 3, JG_DTYPE_INT64, jg_array_retain(lists));
  in[1] = opt;
  /* None lists (an option above the lists) give None: [[1, 2], [], [3]] x [[1, 2], None, []]. */
  char text[256];
  JGT_OK(jg_array_cartesian(2, (const jg_array *const *)in, false, NULL, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_to_string(out, 200, text, sizeof text, NULL, &jgt_err_));
  assert_string_equal(text, "[[(1, 1), (1, 2), (2, 1), (2, 2)], None, []]");
  jg_array_release(out);
  /* Regular lists: [[1], [2], [3]] has no pairs. */
  jg_array *regular = jgt_regular(jg_array_retain(flat), 1, -1);
  JGT_OK(jg_array_combinations(regular, 2, false, NULL, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_to_string(out, 200, text, sizeof text, NULL, &jgt_err_));
  assert_string_equal(text, "[[], [], []]");
  jg_array_release(out);
  jg_array_release(regular);
  /* Items that are lists are carried: [[[1], [2, 3]], [[4]]]. */
  jg_array *nested = jgt_cc_nested_items();
  JGT_OK(jg_array_combinations(nested, 2, false, NULL, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_to_string(out, 200, text, sizeof text, NULL, &jgt_err_));
  assert_string_equal(text, "[[([1], [2, 3])], []]");
  jg_array_release(out);
  out = NULL;
  /* float16 items. */
  static const uint16_t h[] = {0x3c00, 0x4000};
  jg_array *half = JGT_OFFSETS(jgt_numeric(h, 2, JG_DTYPE_FLOAT16), 0, 2);
  expect(JG_EDTYPE, jg_array_combinations(half, 2, false, NULL, NULL, &out, &err), &err,
         "cannot gather float16 items");
  JGT_OK(jg_array_argcombinations(half, 2, false, NULL, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[(0, 1)]]");
  jg_array_release(out);
  jg_array_release(half);
  jg_array_release(nested);
  jg_array_release(opt);
  jg_array_release(three);
  jg_array_release(lists);
  jg_array_release(flat);
}

/* Lists that leave their content, and counts beyond int64. */
static void test_data_errors(void **state) {
  (void)state;
  jg_array *out = NULL;
  jg_error err;
  static const double v[] = {1, 2, 3, 4};
  /* List node: list 2 runs past the content of 4. */
  jg_array *past = jgt_list(JGT_I64(0, 1, 2), JGT_I64(1, 3, 6), 3, 3, JG_DTYPE_INT64,
                            jgt_numeric(v, 4, JG_DTYPE_FLOAT64));
  expect(JG_EVALUE, jg_array_combinations(past, 2, false, NULL, NULL, &out, &err), &err,
         "jg_array_combinations: combinations_counts: list 2 has stops < starts or reaches outside the content");
  assert_int_equal(err.index, 2);
  jg_array *down = jgt_list(JGT_I64(0, 3, 1), JGT_I64(1, 2, 1), 3, 3, JG_DTYPE_INT64,
                            jgt_numeric(v, 4, JG_DTYPE_FLOAT64));
  expect(JG_EVALUE, jg_array_argcombinations(down, 3, true, NULL, NULL, &out, &err), &err,
         "list 1 has stops < starts");
  assert_int_equal(err.index, 1);
  jg_array *ok = jgt_cc_cart_a(), *in[2] = {ok, past};
  expect(JG_EVALUE, jg_array_cartesian(2, (const jg_array *const *)in, false, NULL, NULL, &out,
                                       &err),
         &err, "jg_array_cartesian: cartesian_counts: list 2 of one of the arrays has stops < starts");
  assert_int_equal(err.index, 2);
  /* A list of 2^32 items (a list node over a borrowed buffer that is never read): C(2^32, 4)
   * overflows; so does the product of 2^32 * 2^32. */
  static double dummy[1];
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(dummy, 8, &b, &jgt_err_));
  jg_layout l;
  const jg_len big = (jg_len)1 << 32;
  const jg_stride zero = 0;
  JGT_OK(jg_layout_init(&l, 1, &big, &zero, 8, &jgt_err_));
  jg_view cv;
  JGT_OK(jg_view_from_buffer(&cv, b, &l, JG_DTYPE_FLOAT64, true, &jgt_err_));
  jg_array *content = NULL, *huge = NULL;
  JGT_OK(jg_array_numeric(&cv, &content, &jgt_err_));
  huge = jgt_list(JGT_I64(0, 0), JGT_I64(0, big), 2, 2, JG_DTYPE_INT64, content);
  expect(JG_EOVERFLOW, jg_array_argcombinations(huge, 4, false, NULL, NULL, &out, &err), &err,
         "jg_array_argcombinations: combinations_counts: the number of combinations of list 1 overflows int64");
  assert_int_equal(err.index, 1);
  jg_array *hh[3] = {huge, huge, huge};
  expect(JG_EOVERFLOW, jg_array_argcartesian(3, (const jg_array *const *)hh, false, NULL, NULL,
                                             &out, &err),
         &err, "the size of the cartesian product of list 1 overflows int64");
  jg_array_release(huge);
  jg_buffer_release(b);
  jg_array_release(ok);
  jg_array_release(down);
  jg_array_release(past);
  assert_null(out);
}

/* Arrays on different backends: JG_EBACKEND (a fake cuda array, never dereferenced). */
static void test_mixed_backends(void **state) {
  (void)state;
  static char dummy[64];
  void *p = (void *)((uintptr_t)dummy + 0x100000);
  const jg_device cuda0 = {JG_DEVICE_CUDA, 0};
  jg_buffer *bo = NULL, *bc = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(p, 32, &bo, &jgt_err_));
  JGT_OK(jg_buffer_wrap_borrowed(p, 40, &bc, &jgt_err_));
  jg_layout lo, lc;
  const jg_len no = 4, nc = 5;
  JGT_OK(jg_layout_init(&lo, 1, &no, NULL, 8, &jgt_err_));
  JGT_OK(jg_layout_init(&lc, 1, &nc, NULL, 8, &jgt_err_));
  jg_view vo, vc;
  JGT_OK(jg_view_from_pointer(&vo, p, cuda0, &lo, JG_DTYPE_INT64, true, &jgt_err_));
  JGT_OK(jg_view_from_pointer(&vc, p, cuda0, &lc, JG_DTYPE_FLOAT64, true, &jgt_err_));
  vo.buffer = bo;
  vc.buffer = bc;
  jg_array *c = NULL, *d = NULL;
  JGT_OK(jg_array_numeric(&vc, &c, &jgt_err_));
  JGT_OK(jg_array_list_offset(&vo, c, &d, &jgt_err_));
  jg_array *h = jgt_cc_cart_a(), *in[2] = {h, d}, *out = NULL;
  jg_error err;
  expect(JG_EBACKEND, jg_array_cartesian(2, (const jg_array *const *)in, false, NULL, NULL, &out,
                                         &err),
         &err, "jg_array_cartesian: arrays[1] is on cuda:0, arrays[0] on cpu: copy it with");
  assert_null(out);
  jg_array_release(h);
  jg_array_release(d);
  jg_array_release(c);
  jg_buffer_release(bo);
  jg_buffer_release(bc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),           cmocka_unit_test(test_issue_case),
      cmocka_unit_test(test_result_layout),   cmocka_unit_test(test_long_random),
      cmocka_unit_test(test_argument_errors), cmocka_unit_test(test_structure_errors),
      cmocka_unit_test(test_data_errors),     cmocka_unit_test(test_mixed_backends),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
