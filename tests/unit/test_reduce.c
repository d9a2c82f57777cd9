/* test_reduce.c: per-list reductions on the host (ops.h: jg_reducer_name, jg_array_reduce,
 * jg_array_num): the case table of jgt_reduce_cases.h (the issue's cases, every reducer on int32,
 * uint8, float32, float64 and bool content, identities and None, keepdims, widening sums, list
 * nodes, slices, strided buffers, structure kept above the innermost lists), the buffers the
 * result shares with its input, raw values under the masks, a long random case checked against a
 * plain loop, and every error. Expected values are worked out by hand (see jgt_reduce_cases.h). */
#include "jg_test.h"
#include "jgt_reduce_cases.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static char g_text[8192];

/* jg_array_to_string of a host array (wide enough that nothing is elided). */
static const char *str(const jg_array *a) {
  JGT_OK(jg_array_to_string(a, 4000, g_text, sizeof g_text, NULL, &jgt_err_));
  return g_text;
}

static char g_type[512];

static const char *type_of(const jg_array *a) {
  JGT_OK(jg_array_type_string(a, g_type, sizeof g_type, NULL, &jgt_err_));
  return g_type;
}

static jg_reduce_options opts(int mask_identity, bool keepdims) {
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.axis = -1;
  o.mask_identity = mask_identity;
  o.keepdims = keepdims;
  return o;
}

static jg_array *reduce_ok(const jg_array *a, jg_reducer r, int mask_identity, bool keepdims) {
  const jg_reduce_options o = opts(mask_identity, keepdims);
  jg_array *out = NULL;
  JGT_OK(jg_array_reduce(a, r, &o, &out, &jgt_err_));
  assert_non_null(out);
  return out;
}

/* Element i of a 1-D host view, widened. */
static int64_t view_i64(const jg_view *v, jg_len i) {
  return *(const int64_t *)((const char *)v->base +
                            v->layout.itemsize *
                                (v->layout.slice_offset + i * v->layout.strides[0]));
}

static double view_f64(const jg_view *v, jg_len i) {
  return *(const double *)((const char *)v->base + v->layout.itemsize * (v->layout.slice_offset +
                                                                         i * v->layout.strides[0]));
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void test_table(void **state) {
  (void)state;
  size_t n = 0;
  const jgt_rcase *cases = jgt_reduce_cases(&n);
  assert_true(n > 100);
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    const jgt_rcase *c = &cases[i];
    jg_array *a = c->make(), *out = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_rc_run(c, a, NULL, &out, &err);
    if (st != JG_OK) {
      print_error("case '%s': %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      const char *v = str(out), *t = type_of(out);
      if (strcmp(v, c->value) != 0 || strcmp(t, c->type) != 0) {
        print_error("case '%s': got %s of type %s, expected %s of type %s\n", c->name, v, t,
                    c->value, c->type);
        failed++;
      }
      if (jg_array_backend(out) != JG_BACKEND_CPU) {
        print_error("case '%s': result not on the host\n", c->name);
        failed++;
      }
    }
    jg_array_release(out);
    jg_array_release(a);
  }
  assert_int_equal(failed, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Names, options                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void test_reducer_names(void **state) {
  (void)state;
  static const char *const names[] = {"sum",   "prod",          "min", "max", "argmin", "argmax",
                                      "count", "count_nonzero", "any", "all", "mean"};
  for (int r = 1; r <= 11; r++) assert_string_equal(jg_reducer_name((jg_reducer)r), names[r - 1]);
  assert_string_equal(jg_reducer_name((jg_reducer)0), "unknown");
  assert_string_equal(jg_reducer_name((jg_reducer)12), "unknown");
  assert_string_equal(jg_reducer_name((jg_reducer)-1), "unknown");
}

/* NULL options are the defaults (the innermost axis); zeroed options are axis 0, the outer
 * axis (left-aligned). */
static void test_default_options(void **state) {
  (void)state;
  jg_array *a = jgt_rc_small(), *out = NULL;
  JGT_OK(jg_array_reduce(a, JG_REDUCE_ARGMIN, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[0, None, 0]");
  assert_string_equal(type_of(out), "3 * ?int64");
  jg_array_release(out);
  jg_reduce_options zero;
  memset(&zero, 0, sizeof zero);
  zero.axis = 0; /* ignored without has_axis: the innermost lists */
  JGT_OK(jg_array_reduce(a, JG_REDUCE_SUM, &zero, &out, &jgt_err_));
  assert_string_equal(str(out), "[6, 0, 9]");
  jg_array_release(out);
  zero.has_axis = true; /* the outer dimension, left-aligned */
  JGT_OK(jg_array_reduce(a, JG_REDUCE_SUM, &zero, &out, &jgt_err_));
  assert_string_equal(str(out), "[5, 7, 3]");
  jg_array_release(out);
  JGT_OK(jg_array_num(a, &out, &jgt_err_));
  assert_string_equal(str(out), "[3, 0, 2]");
  assert_string_equal(type_of(out), "3 * int64");
  jg_array_release(out);
  jg_array_release(a);
}

/* ------------------------------------------------------------------------------------------ */
/* What the result shares and holds                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Outer nodes are made again over the input's own buffers. */
static void test_outer_buffers_shared(void **state) {
  (void)state;
  jg_array *a = jgt_rc_nested();
  jg_array *out = reduce_ok(a, JG_REDUCE_SUM, 0, false);
  assert_int_equal(jg_array_kind(out), JG_NODE_LIST_OFFSET);
  jg_view vi, vo;
  JGT_OK(jg_array_buffer(a, 0, &vi, &jgt_err_));
  JGT_OK(jg_array_buffer(out, 0, &vo, &jgt_err_));
  assert_ptr_equal(vi.buffer, vo.buffer);
  assert_ptr_equal(vi.base, vo.base);
  assert_true(jg_layout_equal(&vi.layout, &vo.layout));
  assert_int_equal(jg_array_kind(jg_array_child(out, 0)), JG_NODE_NUMERIC);
  assert_int_equal(jg_array_length(jg_array_child(out, 0)), 5);
  jg_array_release(out);
  jg_array_release(a);

  /* An indexed option (None lists) keeps its index buffer. */
  a = jgt_rc_indexed_none();
  out = reduce_ok(a, JG_REDUCE_SUM, 0, false);
  assert_int_equal(jg_array_kind(out), JG_NODE_INDEXED_OPTION);
  JGT_OK(jg_array_buffer(a, 0, &vi, &jgt_err_));
  JGT_OK(jg_array_buffer(out, 0, &vo, &jgt_err_));
  assert_ptr_equal(vi.buffer, vo.buffer);
  jg_array_release(out);
  jg_array_release(a);

  /* A bit-masked option keeps its mask, bit order and validity sense. */
  a = jgt_rc_bit_masked();
  out = reduce_ok(a, JG_REDUCE_MAX, 0, false);
  assert_int_equal(jg_array_kind(out), JG_NODE_BIT_MASKED);
  assert_true(jg_array_lsb_order(out));
  assert_true(jg_array_valid_when(out));
  JGT_OK(jg_array_buffer(a, 0, &vi, &jgt_err_));
  JGT_OK(jg_array_buffer(out, 0, &vo, &jgt_err_));
  assert_ptr_equal(vi.buffer, vo.buffer);
  assert_string_equal(str(out), "[2, None, 3]");
  assert_string_equal(type_of(out), "3 * ??float64");
  jg_array_release(out);
  jg_array_release(a);

  /* A regular outer level keeps its size. */
  a = jgt_rc_regular_outer();
  out = reduce_ok(a, JG_REDUCE_COUNT, 0, true);
  assert_int_equal(jg_array_kind(out), JG_NODE_REGULAR);
  assert_int_equal(jg_array_regular_size(out), 2);
  assert_int_equal(jg_array_regular_size(jg_array_child(out, 0)), 1);
  assert_string_equal(str(out), "[[[1], [2]], [[0], [1]]]");
  assert_string_equal(type_of(out), "2 * 2 * 1 * int64");
  jg_array_release(out);
  jg_array_release(a);
}

/* The raw values under the masks: -1 for argmin/argmax of empty lists, the identity for min. */
static void test_values_under_masks(void **state) {
  (void)state;
  jg_array *a = jgt_rc_issue_b();
  jg_array *out = reduce_ok(a, JG_REDUCE_ARGMAX, 0, false);
  assert_int_equal(jg_array_kind(out), JG_NODE_BYTE_MASKED);
  jg_view v;
  JGT_OK(jg_array_buffer(jg_array_child(out, 0), 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, JG_DTYPE_INT64);
  const int64_t want[5] = {1, 1, 2, 2, -1};
  for (jg_len i = 0; i < 5; i++) assert_int_equal(view_i64(&v, i), want[i]);
  jg_array_release(out);

  out = reduce_ok(a, JG_REDUCE_MIN, 0, false);
  assert_int_equal(jg_array_kind(out), JG_NODE_BYTE_MASKED);
  JGT_OK(jg_array_buffer(jg_array_child(out, 0), 0, &v, &jgt_err_));
  assert_true(isinf(view_f64(&v, 4)) && view_f64(&v, 4) > 0);
  jg_array_release(out);
  jg_array_release(a);
}

/* The mean is the sum in double divided by the count, to the last bit. */
static void test_mean_exact(void **state) {
  (void)state;
  static const int64_t off[] = {0, 3, 4};
  jg_array *a = JGT_RC_LISTS(JG_DTYPE_FLOAT32, float, off, 1.0f, 2.0f, 2.0f, 0.1f);
  jg_array *out = reduce_ok(a, JG_REDUCE_MEAN, 0, false);
  jg_view v;
  JGT_OK(jg_array_buffer(out, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, JG_DTYPE_FLOAT64);
  assert_true(view_f64(&v, 0) == 5.0 / 3.0);
  assert_true(view_f64(&v, 1) == (double)0.1f);
  jg_array_release(out);
  jg_array_release(a);
}

/* 5000 lists of pseudo-random counts (some long, many empty) against a plain loop. */
static void test_long_random(void **state) {
  (void)state;
  const jg_len n = 5000;
  int64_t *off = malloc(sizeof *off * (size_t)(n + 1));
  assert_non_null(off);
  uint64_t x = 12345;
  off[0] = 7; /* not at 0: the first 7 values are unreachable */
  for (jg_len i = 0; i < n; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t r = (int64_t)(x >> 33) % 100;
    off[i + 1] = off[i] + (r < 30 ? 0 : r < 95 ? r % 7 : 40 + r * 10);
  }
  const jg_len m = off[n] + 3;
  double *val = malloc(sizeof *val * (size_t)m);
  assert_non_null(val);
  for (jg_len j = 0; j < m; j++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    val[j] = (double)((int64_t)(x >> 40) % 2001 - 1000) / 8.0;
  }
  jg_array *a = jgt_rc_lists(off, n + 1, val, m, JG_DTYPE_FLOAT64);
  jg_array *s = reduce_ok(a, JG_REDUCE_SUM, 0, false);
  jg_array *am = reduce_ok(a, JG_REDUCE_ARGMAX, -1, false);
  jg_array *mn = reduce_ok(a, JG_REDUCE_MIN, -1, false);
  jg_array *c = NULL;
  JGT_OK(jg_array_num(a, &c, &jgt_err_));
  jg_view vs, va, vm, vc;
  JGT_OK(jg_array_buffer(s, 0, &vs, &jgt_err_));
  JGT_OK(jg_array_buffer(am, 0, &va, &jgt_err_));
  JGT_OK(jg_array_buffer(mn, 0, &vm, &jgt_err_));
  JGT_OK(jg_array_buffer(c, 0, &vc, &jgt_err_));
  for (jg_len i = 0; i < n; i++) {
    double sum = 0, lo = INFINITY;
    int64_t best = -1;
    for (int64_t j = off[i]; j < off[i + 1]; j++) {
      sum += val[j]; /* values are multiples of 1/8 below 2^20: every sum is exact */
      if (val[j] < lo) lo = val[j];
      if (best < 0 || val[j] > val[off[i] + best]) best = j - off[i];
    }
    assert_true(view_f64(&vs, i) == sum);
    assert_true(view_f64(&vm, i) == lo);
    assert_int_equal(view_i64(&va, i), best);
    assert_int_equal(view_i64(&vc, i), off[i + 1] - off[i]);
  }
  jg_array *all[] = {a, s, am, mn, c};
  for (size_t i = 0; i < 5; i++) jg_array_release(all[i]);
  free(val);
  free(off);
}

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Runs jg_array_reduce expecting `st`; checks *out is NULL and the message holds `text`. */
static void expect_error(const jg_array *a, jg_reducer r, const jg_reduce_options *o, jg_status st,
                         const char *text) {
  jg_array *out = (jg_array *)(uintptr_t)1;
  jg_error err;
  jg_error_clear(&err);
  assert_int_equal(jg_array_reduce(a, r, o, &out, &err), st);
  assert_null(out);
  assert_int_equal(err.status, st);
  JGT_CONTAINS(err.message, text);
}

static void expect_num_error(const jg_array *a, jg_status st, const char *text) {
  jg_array *out = (jg_array *)(uintptr_t)1;
  jg_error err;
  jg_error_clear(&err);
  assert_int_equal(jg_array_num(a, &out, &err), st);
  assert_null(out);
  JGT_CONTAINS(err.message, text);
}

static void test_argument_errors(void **state) {
  (void)state;
  jg_array *a = jgt_rc_small(), *out = NULL;
  jg_error err;
  assert_int_equal(jg_array_reduce(a, JG_REDUCE_SUM, NULL, NULL, &err), JG_EINVAL);
  assert_string_equal(err.message, "jg_array_reduce: out is NULL");
  expect_error(NULL, JG_REDUCE_SUM, NULL, JG_EINVAL, "jg_array_reduce: a is NULL");
  expect_error(a, (jg_reducer)0, NULL, JG_EINVAL, "jg_array_reduce: unknown reducer 0");
  expect_error(a, (jg_reducer)12, NULL, JG_EINVAL, "unknown reducer 12");
  jg_reduce_options o = opts(2, false);
  expect_error(a, JG_REDUCE_SUM, &o, JG_EINVAL, "mask_identity is 2");
  o = opts(-2, false);
  expect_error(a, JG_REDUCE_MIN, &o, JG_EINVAL, "mask_identity is -2");
  assert_int_equal(jg_array_num(NULL, &out, &err), JG_EINVAL);
  assert_string_equal(err.message, "jg_array_num: a is NULL");
  assert_int_equal(jg_array_num(a, NULL, &err), JG_EINVAL);
  /* err may be NULL */
  assert_int_equal(jg_array_reduce(NULL, JG_REDUCE_SUM, NULL, &out, NULL), JG_EINVAL);
  jg_array_release(a);
}

static void test_axis_errors(void **state) {
  (void)state;
  /* Axes other than the innermost are tests/unit/test_reduce_axis.c's; here only those beyond
   * the depth (3 for this array). */
  jg_array *a = jgt_rc_nested();
  const int64_t axes[] = {3, 5, -4};
  for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++) {
    jg_reduce_options o = opts(0, false);
    o.has_axis = true;
    o.axis = axes[i];
    char want[128];
    snprintf(want, sizeof want,
             "axis=%lld exceeds the depth of the nested list structure (which is 3)",
             (long long)axes[i]);
    expect_error(a, JG_REDUCE_SUM, &o, JG_ESHAPE, want);
  }
  jg_array_release(a);
}

static void test_structure_errors(void **state) {
  (void)state;
  static const double v3[] = {1, 2, 3};
  /* No list level. */
  jg_array *flat = jgt_numeric(v3, 3, JG_DTYPE_FLOAT64);
  expect_error(flat, JG_REDUCE_SUM, NULL, JG_ESHAPE,
               "jg_array_reduce: reducing along axis -1 needs a list; the array has type "
               "3 * float64");
  expect_num_error(flat, JG_ESHAPE, "jg_array_num: reducing along axis -1 needs a list");
  jg_array *empty = NULL;
  JGT_OK(jg_array_empty(&empty, &jgt_err_));
  expect_error(empty, JG_REDUCE_MAX, NULL, JG_ESHAPE, "the array has type 0 * unknown");
  jg_array *opt = jgt_indexed(JGT_I64(0, -1), 2, JG_DTYPE_INT64, jg_array_retain(flat));
  expect_error(opt, JG_REDUCE_SUM, NULL, JG_ESHAPE, "the array has type 2 * ?float64");

  /* Regular innermost axes. */
  static const double v6[] = {1, 2, 3, 4, 5, 6};
  jg_array *reg = jgt_regular(jgt_numeric(v6, 6, JG_DTYPE_FLOAT64), 2, -1);
  expect_error(reg, JG_REDUCE_SUM, NULL, JG_ENOTSUP,
               "the innermost axis is regular (size 2); reducing a regular axis is not "
               "supported in this version");
  jg_array *list_reg = JGT_OFFSETS(jg_array_retain(reg), 0, 1, 3);
  expect_error(list_reg, JG_REDUCE_MIN, NULL, JG_ENOTSUP, "innermost axis is regular (size 2)");
  expect_num_error(list_reg, JG_ENOTSUP, "innermost axis is regular");
  const jg_len shape[2] = {3, 2};
  jg_array *two_d = jgt_numeric_view(jgt_view_ex(v6, 6, JG_DTYPE_FLOAT64, 2, shape, NULL, 0));
  expect_error(two_d, JG_REDUCE_SUM, NULL, JG_ENOTSUP,
               "the innermost axis is regular (size 2, numeric data of 2 dimensions)");
  jg_array *list_2d = JGT_OFFSETS(jg_array_retain(two_d), 0, 1, 3);
  expect_error(list_2d, JG_REDUCE_ARGMAX, NULL, JG_ENOTSUP, "numeric data of 2 dimensions");

  /* Records. */
  jg_array *recs = jgt_rc_records();
  expect_error(recs, JG_REDUCE_SUM, NULL, JG_ENOTSUP,
               "jg_array_reduce: cannot sum records: reduce one field at a time (jg_array_field)");
  expect_error(recs, JG_REDUCE_COUNT, NULL, JG_ENOTSUP, "cannot count records");
  jg_array *root_rec = jg_array_retain(jg_array_child(recs, 0));
  expect_num_error(root_rec, JG_ENOTSUP, "jg_array_num: cannot count records");
  static const char *const names[] = {"x", "y"};
  jg_array *fields[2] = {jgt_i64(JGT_I64(1, 2), 2),
                         JGT_OFFSETS(jgt_i64(JGT_I64(1, 2), 2), 0, 1, 2)};
  jg_array *deep_rec = JGT_OFFSETS(jgt_record(2, fields, names, -1), 0, 2);
  expect_num_error(deep_rec, JG_ENOTSUP, "cannot count records");

  /* Options inside the innermost lists: None values are skipped (test_reduce_none.c). */
  jg_array *opts_in = jgt_rc_options();
  jg_array *skipped = NULL;
  JGT_OK(jg_array_reduce(opts_in, JG_REDUCE_COUNT, NULL, &skipped, &jgt_err_));
  assert_string_equal(str(skipped), "[1, 1]");
  jg_array_release(skipped);

  /* float16 content: not reducible, but countable by num. */
  const uint16_t halves[3] = {0x3c00, 0x4000, 0x4200}; /* 1, 2, 3 */
  jg_array *h = JGT_OFFSETS(jgt_numeric(halves, 3, JG_DTYPE_FLOAT16), 0, 2, 3);
  expect_error(h, JG_REDUCE_SUM, NULL, JG_EDTYPE, "jg_array_reduce: cannot sum float16 values");
  expect_error(h, JG_REDUCE_ARGMAX, NULL, JG_EDTYPE, "cannot argmax float16 values");
  jg_array *out = NULL;
  JGT_OK(jg_array_num(h, &out, &jgt_err_));
  assert_string_equal(str(out), "[2, 1]");
  jg_array_release(out);

  jg_array *all[] = {flat,    empty, opt,      reg,      list_reg, two_d,
                     list_2d, recs,  root_rec, deep_rec, opts_in,  h};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) jg_array_release(all[i]);
}

/* Lists that leave their content: the kernel's BAD_RANGE as JG_EVALUE at the first bad list. */
static void test_bad_ranges(void **state) {
  (void)state;
  static const int64_t content[] = {1, 2, 3, 4, 5};
  /* stops < starts at lists 1 and 3 */
  jg_array *a =
      jgt_list(JGT_I64(0, 2, 3, 4), JGT_I64(2, 1, 4, 3), 4, 4, JG_DTYPE_INT64, jgt_i64(content, 5));
  const jg_reducer rs[] = {JG_REDUCE_SUM,   JG_REDUCE_MAX,           JG_REDUCE_ARGMIN,
                           JG_REDUCE_COUNT, JG_REDUCE_COUNT_NONZERO, JG_REDUCE_ALL,
                           JG_REDUCE_MEAN};
  for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
    jg_array *out = (jg_array *)(uintptr_t)1;
    jg_error err;
    assert_int_equal(jg_array_reduce(a, rs[i], NULL, &out, &err), JG_EVALUE);
    assert_null(out);
    assert_int_equal(err.index, 1);
    JGT_CONTAINS(err.message, "jg_array_reduce: ");
    JGT_CONTAINS(err.message, "list 1 has stops < starts or reaches outside the content");
  }
  jg_array *out = NULL;
  jg_error err;
  assert_int_equal(jg_array_num(a, &out, &err), JG_EVALUE);
  assert_int_equal(err.index, 1);
  jg_array_release(a);

  /* list 2 reaches past the content (5 values); an empty list far outside is fine */
  a = JGT_OFFSETS(jgt_i64(content, 5), 0, 2, 2, 9);
  expect_error(a, JG_REDUCE_SUM, NULL, JG_EVALUE, "list 2 has stops < starts");
  jg_array_release(a);
  a = jgt_list(JGT_I64(0, -4, 99), JGT_I64(2, 1, 99), 3, 3, JG_DTYPE_INT64, jgt_i64(content, 5));
  assert_int_equal(jg_array_reduce(a, JG_REDUCE_SUM, NULL, &out, &err), JG_EVALUE);
  assert_int_equal(err.index, 1); /* a negative start of a non-empty list */
  jg_array_release(a);
  a = jgt_list(JGT_I64(0, 99), JGT_I64(2, 99), 2, 2, JG_DTYPE_INT64, jgt_i64(content, 5));
  out = reduce_ok(a, JG_REDUCE_SUM, 0, false);
  assert_string_equal(str(out), "[3, 0]");
  jg_array_release(out);
  jg_array_release(a);
}

/* A cuda array without a usable GPU: JG_ENODEV (fake device pointers, never dereferenced). */
static void test_device_without_gpu(void **state) {
  (void)state;
  int ndev = 0;
  if (jg_device_count(&ndev, NULL) == JG_OK && ndev > 0) {
    skip(); /* real device: tests/gpu/test_reduce_gpu.c covers it */
  }
  static char dummy[64];
  void *p = (void *)((uintptr_t)dummy + 0x100000);
  const jg_device cuda0 = {JG_DEVICE_CUDA, 0};
  jg_buffer *bo = NULL, *bc = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(p, 24, &bo, &jgt_err_));
  JGT_OK(jg_buffer_wrap_borrowed(p, 40, &bc, &jgt_err_));
  jg_layout lo, lc;
  const jg_len no = 3, nc = 5;
  JGT_OK(jg_layout_init(&lo, 1, &no, NULL, 8, &jgt_err_));
  JGT_OK(jg_layout_init(&lc, 1, &nc, NULL, 8, &jgt_err_));
  jg_view vo, vc;
  JGT_OK(jg_view_from_pointer(&vo, p, cuda0, &lo, JG_DTYPE_INT64, true, &jgt_err_));
  JGT_OK(jg_view_from_pointer(&vc, p, cuda0, &lc, JG_DTYPE_FLOAT64, true, &jgt_err_));
  vo.buffer = bo;
  vc.buffer = bc;
  jg_array *c = NULL, *a = NULL;
  JGT_OK(jg_array_numeric(&vc, &c, &jgt_err_));
  JGT_OK(jg_array_list_offset(&vo, c, &a, &jgt_err_));
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  expect_error(a, JG_REDUCE_SUM, NULL, JG_ENODEV, "jg_array_reduce: ");
  jg_array_release(a);
  jg_array_release(c);
  jg_buffer_release(bo);
  jg_buffer_release(bc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_reducer_names),
      cmocka_unit_test(test_default_options),
      cmocka_unit_test(test_outer_buffers_shared),
      cmocka_unit_test(test_values_under_masks),
      cmocka_unit_test(test_mean_exact),
      cmocka_unit_test(test_long_random),
      cmocka_unit_test(test_argument_errors),
      cmocka_unit_test(test_axis_errors),
      cmocka_unit_test(test_structure_errors),
      cmocka_unit_test(test_bad_ranges),
      cmocka_unit_test(test_device_without_gpu),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
