/* test_builder.c: the incremental builder (builder.h): lists, nesting, records, tuples, type
 * inference (int -> float, nulls -> options, missing fields -> options, unknown content),
 * snapshots, the typed fast paths, growth over a million appends, every error path, and
 * out-of-memory at every allocation. Results are checked through the array.h inspection API
 * and the internal element readers (jgi_view_get_index, jgi_view_element_ptr); expected values
 * are written by hand from Awkward's ArrayBuilder semantics. Host only. */
#define _POSIX_C_SOURCE 200809L

#include "jg_test.h"

#include <math.h>

#include "internal/jgi_array.h"

/* ------------------------------------------------------------------------------------------ */
/* Inspection helpers                                                                          */
/* ------------------------------------------------------------------------------------------ */

static jg_array *snap(jg_builder *b) {
  jg_array *a = NULL;
  JGT_OK(jg_builder_snapshot(b, &a, &jgt_err_));
  assert_non_null(a);
  return a;
}

static jg_view buffer0(const jg_array *a, jg_dtype dtype) {
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, dtype);
  assert_int_equal(v.layout.ndim, 1);
  assert_true(v.host_accessible);
  return v;
}

static double get_f64(const jg_view *v, jg_len i) {
  double d;
  memcpy(&d, jgi_view_element_ptr(v, i), sizeof d);
  return d;
}

/** `a` is a NUMERIC float64 array holding exactly `expect` (n values). */
static void check_f64(const jg_array *a, const double *expect, jg_len n) {
  assert_int_equal(jg_array_kind(a), JG_NODE_NUMERIC);
  assert_int_equal(jg_array_length(a), n);
  jg_view v = buffer0(a, JG_DTYPE_FLOAT64);
  assert_int_equal(v.layout.shape[0], n);
  for (jg_len i = 0; i < n; i++) assert_true(get_f64(&v, i) == expect[i]);
}

/** `a` is a NUMERIC array of `dtype` (int64 or bool) holding exactly `expect`. */
static void check_ints(const jg_array *a, jg_dtype dtype, const int64_t *expect, jg_len n) {
  assert_int_equal(jg_array_kind(a), JG_NODE_NUMERIC);
  assert_int_equal(jg_array_length(a), n);
  jg_view v = buffer0(a, dtype);
  assert_int_equal(v.layout.shape[0], n);
  for (jg_len i = 0; i < n; i++) assert_int_equal(jgi_view_get_index(&v, i), expect[i]);
}

/** `a` is a node of `kind` (LIST_OFFSET or INDEXED_OPTION) whose int64 buffer 0 is exactly
 *  `expect` (n entries: n - 1 lists, or n options); returns its content. */
static jg_array *check_node(const jg_array *a, jg_node_kind kind, const int64_t *expect,
                            jg_len n) {
  assert_int_equal(jg_array_kind(a), kind);
  assert_int_equal(jg_array_length(a), kind == JG_NODE_LIST_OFFSET ? n - 1 : n);
  jg_view v = buffer0(a, JG_DTYPE_INT64);
  assert_int_equal(v.layout.shape[0], n);
  for (jg_len i = 0; i < n; i++) assert_int_equal(jgi_view_get_index(&v, i), expect[i]);
  assert_int_equal(jg_array_num_children(a), 1);
  return jg_array_child(a, 0);
}

#define OFFSETS(a, ...)                                                                     \
  check_node((a), JG_NODE_LIST_OFFSET, (const int64_t[]){__VA_ARGS__},                      \
             (jg_len)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define INDEX(a, ...)                                                                       \
  check_node((a), JG_NODE_INDEXED_OPTION, (const int64_t[]){__VA_ARGS__},                   \
             (jg_len)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define F64S(a, ...)                                                                        \
  check_f64((a), (const double[]){__VA_ARGS__},                                             \
            (jg_len)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double)))
#define I64S(a, ...)                                                                        \
  check_ints((a), JG_DTYPE_INT64, (const int64_t[]){__VA_ARGS__},                           \
             (jg_len)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define BOOLS(a, ...)                                                                       \
  check_ints((a), JG_DTYPE_BOOL, (const int64_t[]){__VA_ARGS__},                            \
             (jg_len)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

static void check_empty(const jg_array *a) {
  assert_int_equal(jg_array_kind(a), JG_NODE_EMPTY);
  assert_int_equal(jg_array_length(a), 0);
}

/** Field `name` of record `a`, which must be field number `k`. */
static jg_array *field(const jg_array *a, int k, const char *name) {
  assert_int_equal(jg_array_kind(a), JG_NODE_RECORD);
  assert_string_equal(jg_array_field_name(a, k), name);
  assert_int_equal(jg_array_field_index(a, name), k);
  return jg_array_child(a, k);
}

/** Structural and value equality of two host arrays (same kinds, lengths, buffers, names). */
static void assert_same(const jg_array *a, const jg_array *b) {
  assert_int_equal(jg_array_kind(a), jg_array_kind(b));
  assert_int_equal(jg_array_length(a), jg_array_length(b));
  assert_int_equal(jg_array_num_children(a), jg_array_num_children(b));
  const jg_node_kind kind = jg_array_kind(a);
  if (kind == JG_NODE_NUMERIC || kind == JG_NODE_LIST_OFFSET ||
      kind == JG_NODE_INDEXED_OPTION) {
    jg_view va, vb;
    JGT_OK(jg_array_buffer(a, 0, &va, &jgt_err_));
    JGT_OK(jg_array_buffer(b, 0, &vb, &jgt_err_));
    assert_int_equal(va.dtype, vb.dtype);
    assert_int_equal(va.layout.shape[0], vb.layout.shape[0]);
    for (jg_len i = 0; i < va.layout.shape[0]; i++) {
      if (va.dtype == JG_DTYPE_FLOAT64) {
        assert_true(get_f64(&va, i) == get_f64(&vb, i));
      } else {
        assert_int_equal(jgi_view_get_index(&va, i), jgi_view_get_index(&vb, i));
      }
    }
  }
  for (int k = 0; k < jg_array_num_children(a); k++) {
    const char *na = jg_array_field_name(a, k), *nb = jg_array_field_name(b, k);
    assert_true((na == NULL) == (nb == NULL));
    if (na != NULL) assert_string_equal(na, nb);
    assert_same(jg_array_child(a, k), jg_array_child(b, k));
  }
}

/** The error of the call under test (the calls pass &e_); read after EXPECT / STEP. */
static jg_error e_;

#define EXPECT(want, expr, needle)                                                          \
  do {                                                                                      \
    jg_error_clear(&e_);                                                                    \
    assert_int_equal((expr), (want));                                                       \
    assert_int_equal(e_.status, (want));                                                    \
    JGT_CONTAINS(e_.message, (needle));                                                     \
  } while (0)

/* ------------------------------------------------------------------------------------------ */
/* Lists                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* [[1.1, 2.2], [], [3.3]] */
static void build_floats_slow(jg_builder *b) {
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_float64(b, 1.1, &jgt_err_));
  JGT_OK(jg_builder_float64(b, 2.2, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_float64(b, 3.3, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
}

static void test_list_of_floats(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  assert_int_equal(jg_builder_length(b), 0);
  build_floats_slow(b);
  assert_int_equal(jg_builder_length(b), 3);
  assert_int_equal(jg_builder_depth(b), 0);
  jg_array *a = snap(b);
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CPU);
  F64S(OFFSETS(a, 0, 2, 2, 3), 1.1, 2.2, 3.3);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));

  /* The typed fast path builds the same array. */
  jg_builder *f = NULL;
  JGT_OK(jg_builder_create(&f, &jgt_err_));
  JGT_OK(jg_builder_list_float64(f, (const double[]){1.1, 2.2}, 2, &jgt_err_));
  JGT_OK(jg_builder_list_float64(f, NULL, 0, &jgt_err_));
  JGT_OK(jg_builder_list_float64(f, (const double[]){3.3}, 1, &jgt_err_));
  jg_array *fa = snap(f);
  assert_same(a, fa);

  /* Mixed: extend inside an open list. */
  jg_builder *m = NULL;
  JGT_OK(jg_builder_create(&m, &jgt_err_));
  JGT_OK(jg_builder_begin_list(m, &jgt_err_));
  JGT_OK(jg_builder_extend_float64(m, (const double[]){1.1, 2.2}, 2, &jgt_err_));
  JGT_OK(jg_builder_end_list(m, &jgt_err_));
  JGT_OK(jg_builder_begin_list(m, &jgt_err_));
  JGT_OK(jg_builder_extend_float64(m, NULL, 0, &jgt_err_));
  JGT_OK(jg_builder_end_list(m, &jgt_err_));
  JGT_OK(jg_builder_list_float64(m, (const double[]){3.3}, 1, &jgt_err_));
  jg_array *ma = snap(m);
  assert_same(a, ma);

  jg_array_release(a);
  jg_array_release(fa);
  jg_array_release(ma);
  jg_builder_destroy(b);
  jg_builder_destroy(f);
  jg_builder_destroy(m);
}

/* The example at the top of builder.h, as written there. */
static void test_header_example(void **state) {
  (void)state;
  jg_error error;
  jg_error *err = &error; /* JGT_OK only checks the status here */
  jg_builder *b;  JGT_OK(jg_builder_create(&b, err));
  JGT_OK(jg_builder_begin_list(b, err));                          // [
  JGT_OK(jg_builder_float64(b, 1.1, err));                        //   1.1,
  JGT_OK(jg_builder_float64(b, 2.2, err));                        //   2.2
  JGT_OK(jg_builder_end_list(b, err));                            // ],
  JGT_OK(jg_builder_begin_list(b, err)); JGT_OK(jg_builder_end_list(b, err));   // [],
  JGT_OK(jg_builder_list_float64(b, (double[]){3.3}, 1, err));   // [3.3]
  jg_array *a;  JGT_OK(jg_builder_snapshot(b, &a, err));         // 3 * var * float64
  jg_builder_destroy(b);
  F64S(OFFSETS(a, 0, 2, 2, 3), 1.1, 2.2, 3.3);
  jg_array_release(a);
}

/* var * var * var * int64: [[[[1, 2], []]], [], [[[3]]], [[], [[4, 5, 6]]]] */
static void test_nested_three_deep(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  assert_int_equal(jg_builder_depth(b), 3);
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 2, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_list_int64(b, NULL, 0, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  assert_int_equal(jg_builder_length(b), 1);
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_list_int64(b, (const int64_t[]){3}, 1, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_extend_int64(b, (const int64_t[]){4, 5, 6}, 3, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  assert_int_equal(jg_builder_length(b), 4);
  assert_int_equal(jg_builder_depth(b), 0);
  /* An int64 where lists of lists are is a conflict at every level. */
  EXPECT(JG_EDTYPE, jg_builder_int64(b, 1, &e_), "holds lists");
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  EXPECT(JG_EDTYPE, jg_builder_list_int64(b, (const int64_t[]){3}, 1, &e_), "holds lists");
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  jg_array *a = snap(b);
  jg_array *l2 = OFFSETS(a, 0, 1, 1, 2, 4, 4);
  jg_array *l3 = OFFSETS(l2, 0, 2, 3, 3, 4);
  I64S(OFFSETS(l3, 0, 2, 2, 3, 6), 1, 2, 3, 4, 5, 6);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
  jg_builder_destroy(b);
}

static void test_empty_outer(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  jg_array *a = snap(b);
  check_empty(a); /* 0 * unknown */
  assert_int_equal(jg_array_num_children(a), 0);
  jg_array_release(a);
  /* Zero-length runs change nothing either. */
  JGT_OK(jg_builder_extend_int64(b, NULL, 0, &jgt_err_));
  JGT_OK(jg_builder_extend_float64(b, NULL, 0, &jgt_err_));
  a = snap(b);
  check_empty(a);
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* [[], [], []]: var * unknown; also an empty list inside typed lists. */
static void test_empty_inner(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  for (int i = 0; i < 3; i++) {
    JGT_OK(jg_builder_begin_list(b, &jgt_err_));
    JGT_OK(jg_builder_end_list(b, &jgt_err_));
  }
  jg_array *a = snap(b);
  check_empty(OFFSETS(a, 0, 0, 0, 0));
  jg_array_release(a);
  /* list_float64 with n = 0 is begin + end: the content stays unknown. */
  JGT_OK(jg_builder_list_float64(b, NULL, 0, &jgt_err_));
  a = snap(b);
  check_empty(OFFSETS(a, 0, 0, 0, 0, 0));
  jg_array_release(a);
  /* Once a value arrives the content gets its type; earlier empty lists stay empty. */
  JGT_OK(jg_builder_list_int64(b, (const int64_t[]){7}, 1, &jgt_err_));
  a = snap(b);
  I64S(OFFSETS(a, 0, 0, 0, 0, 0, 1), 7);
  jg_array_release(a);
  jg_builder_destroy(b);

  /* [[[]], []]: unknown two levels down. */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  a = snap(b);
  check_empty(OFFSETS(OFFSETS(a, 0, 1, 1), 0, 0));
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* ------------------------------------------------------------------------------------------ */
/* Records and tuples                                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct muon {
  double pt, eta, phi;
  int64_t charge;
} muon;

static void append_muon(jg_builder *b, const muon *m) {
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_field(b, "pt", &jgt_err_));
  JGT_OK(jg_builder_float64(b, m->pt, &jgt_err_));
  JGT_OK(jg_builder_field(b, "eta", &jgt_err_));
  JGT_OK(jg_builder_float64(b, m->eta, &jgt_err_));
  JGT_OK(jg_builder_field(b, "phi", &jgt_err_));
  JGT_OK(jg_builder_float64(b, m->phi, &jgt_err_));
  JGT_OK(jg_builder_field(b, "charge", &jgt_err_));
  JGT_OK(jg_builder_int64(b, m->charge, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
}

/* events: var * {pt: float64, eta: float64, phi: float64, charge: int64}, with an event
 * without muons. */
static void test_muons(void **state) {
  (void)state;
  const muon mu[] = {{54.2, 1.1, -0.3, 1}, {31.0, -2.0, 2.9, -1}, {12.5, 0.25, 0.5, -1},
                     {40.0, 0.0, -3.0, 1}};
  const int counts[] = {2, 0, 1, 1};
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  int m = 0;
  for (int e = 0; e < 4; e++) {
    JGT_OK(jg_builder_begin_list(b, &jgt_err_));
    for (int j = 0; j < counts[e]; j++) append_muon(b, &mu[m++]);
    JGT_OK(jg_builder_end_list(b, &jgt_err_));
  }
  jg_array *a = snap(b);
  jg_array *rec = OFFSETS(a, 0, 2, 2, 3, 4);
  assert_int_equal(jg_array_kind(rec), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(rec), 4);
  assert_int_equal(jg_array_num_children(rec), 4);
  F64S(field(rec, 0, "pt"), 54.2, 31.0, 12.5, 40.0);
  F64S(field(rec, 1, "eta"), 1.1, -2.0, 0.25, 0.0);
  F64S(field(rec, 2, "phi"), -0.3, 2.9, 0.5, -3.0);
  I64S(field(rec, 3, "charge"), 1, -1, -1, 1);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  /* Field access keeps the list structure: events.pt is var * float64. */
  jg_array *pt = NULL;
  JGT_OK(jg_array_field(a, "pt", &pt, &jgt_err_));
  F64S(OFFSETS(pt, 0, 2, 2, 3, 4), 54.2, 31.0, 12.5, 40.0);
  jg_array_release(pt);
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* [{x: 1, y: 2}, {x: 3}, {y: 4, z: 5}, {}]: missing fields become options, also in the
 * records before a field first appears; fields keep their first-seen order. */
static void test_record_missing_fields(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_field(b, "x", &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  JGT_OK(jg_builder_field(b, "y", &jgt_err_));
  JGT_OK(jg_builder_int64(b, 2, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_field(b, "x", &jgt_err_));
  JGT_OK(jg_builder_int64(b, 3, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_field(b, "y", &jgt_err_)); /* out of order is fine */
  JGT_OK(jg_builder_int64(b, 4, &jgt_err_));
  JGT_OK(jg_builder_field(b, "z", &jgt_err_));
  JGT_OK(jg_builder_int64(b, 5, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  jg_array *a = snap(b);
  assert_int_equal(jg_array_kind(a), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(a), 4);
  assert_int_equal(jg_array_num_children(a), 3);
  I64S(INDEX(field(a, 0, "x"), 0, 1, -1, -1), 1, 3);
  I64S(INDEX(field(a, 1, "y"), 0, -1, 1, -1), 2, 4);
  I64S(INDEX(field(a, 2, "z"), -1, -1, 0, -1), 5);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* Records of lists and records in records: [{a: [1, 2], r: {s: true}}, {a: [], r: {s: false}}]
 * and a record with no fields at all: [{}, {}]. */
static void test_record_nesting(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  for (int i = 0; i < 2; i++) {
    JGT_OK(jg_builder_begin_record(b, &jgt_err_));
    JGT_OK(jg_builder_field(b, "a", &jgt_err_));
    if (i == 0) {
      JGT_OK(jg_builder_list_int64(b, (const int64_t[]){1, 2}, 2, &jgt_err_));
    } else {
      JGT_OK(jg_builder_begin_list(b, &jgt_err_));
      JGT_OK(jg_builder_end_list(b, &jgt_err_));
    }
    JGT_OK(jg_builder_field(b, "r", &jgt_err_));
    JGT_OK(jg_builder_begin_record(b, &jgt_err_));
    assert_int_equal(jg_builder_depth(b), 2);
    JGT_OK(jg_builder_field(b, "s", &jgt_err_));
    JGT_OK(jg_builder_bool(b, i == 0, &jgt_err_));
    JGT_OK(jg_builder_end_record(b, &jgt_err_));
    JGT_OK(jg_builder_end_record(b, &jgt_err_));
  }
  jg_array *a = snap(b);
  assert_int_equal(jg_array_length(a), 2);
  I64S(OFFSETS(field(a, 0, "a"), 0, 2, 2), 1, 2);
  jg_array *r = field(a, 1, "r");
  assert_int_equal(jg_array_length(r), 2);
  BOOLS(field(r, 0, "s"), 1, 0);
  jg_array_release(a);
  jg_builder_destroy(b);

  JGT_OK(jg_builder_create(&b, &jgt_err_));
  for (int i = 0; i < 2; i++) {
    JGT_OK(jg_builder_begin_record(b, &jgt_err_));
    JGT_OK(jg_builder_end_record(b, &jgt_err_));
  }
  a = snap(b);
  assert_int_equal(jg_array_kind(a), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(a), 2);
  assert_int_equal(jg_array_num_children(a), 0);
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* [(1, [2.5]), (3, []), (None-filled slot 1: (4, None))]: tuples are unnamed records. */
static void test_tuples(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_tuple(b, 2, &jgt_err_));
  JGT_OK(jg_builder_index(b, 0, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  JGT_OK(jg_builder_index(b, 1, &jgt_err_));
  JGT_OK(jg_builder_list_float64(b, (const double[]){2.5}, 1, &jgt_err_));
  JGT_OK(jg_builder_end_tuple(b, &jgt_err_));
  JGT_OK(jg_builder_begin_tuple(b, 2, &jgt_err_));
  JGT_OK(jg_builder_index(b, 1, &jgt_err_)); /* any order */
  JGT_OK(jg_builder_list_float64(b, NULL, 0, &jgt_err_));
  JGT_OK(jg_builder_index(b, 0, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 3, &jgt_err_));
  JGT_OK(jg_builder_end_tuple(b, &jgt_err_));
  JGT_OK(jg_builder_begin_tuple(b, 2, &jgt_err_));
  JGT_OK(jg_builder_index(b, 0, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 4, &jgt_err_));
  JGT_OK(jg_builder_end_tuple(b, &jgt_err_));
  jg_array *a = snap(b);
  assert_int_equal(jg_array_kind(a), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(a), 3);
  assert_int_equal(jg_array_num_children(a), 2);
  assert_null(jg_array_field_name(a, 0));
  I64S(jg_array_child(a, 0), 1, 3, 4);
  F64S(OFFSETS(INDEX(jg_array_child(a, 1), 0, 1, -1), 0, 1, 1), 2.5);
  jg_array_release(a);
  jg_builder_destroy(b);

  /* A tuple of no slots. */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_tuple(b, 0, &jgt_err_));
  JGT_OK(jg_builder_end_tuple(b, &jgt_err_));
  a = snap(b);
  assert_int_equal(jg_array_kind(a), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(a), 1);
  assert_int_equal(jg_array_num_children(a), 0);
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* ------------------------------------------------------------------------------------------ */
/* Type inference                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void test_int_float_promotion(void **state) {
  (void)state;
  jg_builder *b = NULL;
  /* [1, 2.5, 3] -> float64 [1.0, 2.5, 3.0] */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  jg_array *ints = snap(b);
  I64S(ints, 1);
  JGT_OK(jg_builder_float64(b, 2.5, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 3, &jgt_err_));
  jg_array *a = snap(b);
  F64S(a, 1.0, 2.5, 3.0);
  I64S(ints, 1); /* the earlier snapshot is untouched */
  jg_array_release(a);
  jg_array_release(ints);
  jg_builder_destroy(b);

  /* Inside lists, with the fast paths: [[1, 2], [0.5], [3]] */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_list_int64(b, (const int64_t[]){1, 2}, 2, &jgt_err_));
  JGT_OK(jg_builder_list_float64(b, (const double[]){0.5}, 1, &jgt_err_));
  JGT_OK(jg_builder_list_int64(b, (const int64_t[]){3}, 1, &jgt_err_));
  a = snap(b);
  F64S(OFFSETS(a, 0, 2, 3, 4), 1.0, 2.0, 0.5, 3.0);
  jg_array_release(a);
  jg_builder_destroy(b);

  /* Under an option: [1, None, 2.5] -> ?float64 */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_extend_float64(b, (const double[]){2.5}, 1, &jgt_err_));
  a = snap(b);
  F64S(INDEX(a, 0, -1, 1), 1.0, 2.5);
  jg_array_release(a);
  jg_builder_destroy(b);

  /* int64 beyond 2^53 rounds to the nearest double, as in NumPy / Awkward. */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_int64(b, (INT64_C(1) << 53) + 1, &jgt_err_));
  JGT_OK(jg_builder_int64(b, INT64_MIN, &jgt_err_));
  JGT_OK(jg_builder_float64(b, NAN, &jgt_err_));
  a = snap(b);
  jg_view v = buffer0(a, JG_DTYPE_FLOAT64);
  assert_true(get_f64(&v, 0) == 9007199254740992.0);
  assert_true(get_f64(&v, 1) == -9223372036854775808.0);
  assert_true(isnan(get_f64(&v, 2)));
  jg_array_release(a);
  jg_builder_destroy(b);
}

static void test_nulls_make_options(void **state) {
  (void)state;
  jg_builder *b = NULL;
  /* [1, None, 3] */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 3, &jgt_err_));
  jg_array *a = snap(b);
  I64S(INDEX(a, 0, -1, 1), 1, 3);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
  jg_builder_destroy(b);

  /* [None, None]: ?unknown */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  assert_int_equal(jg_builder_length(b), 2);
  a = snap(b);
  check_empty(INDEX(a, -1, -1));
  jg_array_release(a);
  /* ... then a bool: [None, None, true] */
  JGT_OK(jg_builder_bool(b, true, &jgt_err_));
  a = snap(b);
  BOOLS(INDEX(a, -1, -1, 0), 1);
  jg_array_release(a);
  jg_builder_destroy(b);

  /* Runs under an option: [None, 1, 2, 3, None, 0.5] */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_extend_int64(b, (const int64_t[]){1, 2, 3}, 3, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_extend_float64(b, (const double[]){0.5}, 1, &jgt_err_));
  a = snap(b);
  F64S(INDEX(a, -1, 0, 1, 2, -1, 3), 1.0, 2.0, 3.0, 0.5);
  jg_array_release(a);
  jg_builder_destroy(b);

  /* [[1, None], None, [], [2]]: option of lists of options */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  assert_int_equal(jg_builder_length(b), 2); /* the open list is not counted yet */
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  assert_int_equal(jg_builder_length(b), 3);
  JGT_OK(jg_builder_list_int64(b, (const int64_t[]){2}, 1, &jgt_err_));
  a = snap(b);
  jg_array *lists = INDEX(a, 0, -1, 1, 2);
  I64S(INDEX(OFFSETS(lists, 0, 2, 2, 3), 0, -1, 1), 1, 2);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
  jg_builder_destroy(b);

  /* Null in a record field and a null record: [{x: None}, None, {x: 2.5}] */
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_field(b, "x", &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_field(b, "x", &jgt_err_));
  JGT_OK(jg_builder_float64(b, 2.5, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  a = snap(b);
  jg_array *rec = INDEX(a, 0, -1, 1);
  assert_int_equal(jg_array_length(rec), 2);
  F64S(INDEX(field(rec, 0, "x"), -1, 0), 2.5);
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* Snapshots are copies: a later snapshot has more data, an earlier one never changes, even
 * when the type changes afterwards (promotion, option wrapping), and outlives the builder. */
static void test_snapshot_twice(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_list_int64(b, (const int64_t[]){1, 2}, 2, &jgt_err_));
  jg_array *s1 = snap(b);
  jg_array *s1b = snap(b); /* twice in a row: equal, independent */
  assert_same(s1, s1b);
  jg_view v1, v1b;
  JGT_OK(jg_array_buffer(s1, 0, &v1, &jgt_err_));
  JGT_OK(jg_array_buffer(s1b, 0, &v1b, &jgt_err_));
  assert_ptr_not_equal(v1.buffer, v1b.buffer);
  jg_array_release(s1b);

  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_float64(b, 0.5, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_null(b, &jgt_err_));
  jg_array *s2 = snap(b);
  jg_builder_destroy(b);

  I64S(OFFSETS(s1, 0, 2), 1, 2);
  F64S(OFFSETS(INDEX(s2, 0, 1, -1), 0, 2, 3), 1.0, 2.0, 0.5);
  jg_array_release(s1);
  jg_array_release(s2);
}

/* ------------------------------------------------------------------------------------------ */
/* Growth                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* A million values in lists of 0..6 elements, from buffers that start at one entry: every
 * buffer grows many times. Then a million top-level int64s with the default options. */
static void test_growth_million(void **state) {
  (void)state;
  enum { N = 1000000 };
  jg_builder_options opt;
  memset(&opt, 0, sizeof opt);
  opt.initial_capacity = 1;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create_ex(&opt, &b, &jgt_err_));
  jg_len lists = 0, values = 0;
  while (values < N) {
    const int n = (int)(lists % 7);
    JGT_OK(jg_builder_begin_list(b, &jgt_err_));
    for (int j = 0; j < n; j++) {
      JGT_OK(jg_builder_float64(b, (double)values * 0.5, &jgt_err_));
      values++;
    }
    JGT_OK(jg_builder_end_list(b, &jgt_err_));
    lists++;
  }
  assert_int_equal(jg_builder_length(b), lists);
  jg_array *a = snap(b);
  assert_int_equal(jg_array_length(a), lists);
  jg_view off = buffer0(a, JG_DTYPE_INT64);
  jg_array *content = jg_array_child(a, 0);
  assert_int_equal(jg_array_length(content), values);
  jg_view data = buffer0(content, JG_DTYPE_FLOAT64);
  int64_t expect = 0;
  for (jg_len i = 0; i <= lists; i++) {
    assert_int_equal(jgi_view_get_index(&off, i), expect);
    expect += i % 7;
  }
  for (jg_len i = 0; i < values; i++) {
    if (get_f64(&data, i) != (double)i * 0.5) fail_msg("value %lld", (long long)i);
  }
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
  jg_builder_destroy(b);

  JGT_OK(jg_builder_create(&b, &jgt_err_));
  for (int64_t i = 0; i < N; i++) JGT_OK(jg_builder_int64(b, i * 3 - 7, &jgt_err_));
  a = snap(b);
  assert_int_equal(jg_array_length(a), N);
  data = buffer0(a, JG_DTYPE_INT64);
  for (jg_len i = 0; i < N; i++) {
    if (jgi_view_get_index(&data, i) != i * 3 - 7) fail_msg("value %lld", (long long)i);
  }
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                      */
/* ------------------------------------------------------------------------------------------ */


static void test_errors_create(void **state) {
  (void)state;
  jg_builder *b = (jg_builder *)&b;
  EXPECT(JG_EINVAL, jg_builder_create(NULL, &e_), "out is NULL");
  jg_builder_options opt;
  memset(&opt, 0, sizeof opt);
  opt.version = 3;
  EXPECT(JG_EINVAL, jg_builder_create_ex(&opt, &b, &e_), "version");
  assert_null(b);
  opt.version = sizeof opt;
  opt.reserved[5] = 1;
  EXPECT(JG_EINVAL, jg_builder_create_ex(&opt, &b, &e_), "reserved[5]");
  opt.reserved[5] = 0;
  opt.initial_capacity = -1;
  EXPECT(JG_EINVAL, jg_builder_create_ex(&opt, &b, &e_), "negative");
  opt.initial_capacity = 0;
  jg_memory_resource hookless;
  memset(&hookless, 0, sizeof hookless);
  hookless.host_accessible = true;
  opt.mr = &hookless;
  EXPECT(JG_EINVAL, jg_builder_create_ex(&opt, &b, &e_), "hook");
  /* A resource of device-only memory cannot back a builder. */
  jg_memory_resource dev = *jg_memory_resource_host();
  dev.host_accessible = false;
  dev.device_accessible = true;
  opt.mr = &dev;
  EXPECT(JG_EINVAL, jg_builder_create_ex(&opt, &b, &e_), "not host-accessible");
  assert_null(b);
  /* Version 0 and a NULL mr are the defaults. */
  opt.version = 0;
  opt.mr = NULL;
  JGT_OK(jg_builder_create_ex(&opt, &b, &jgt_err_));
  jg_builder_destroy(b);
  JGT_OK(jg_builder_create_ex(NULL, &b, &jgt_err_));
  jg_builder_destroy(b);
  jg_builder_destroy(NULL);
}

static void test_errors_null_builder(void **state) {
  (void)state;
  jg_array *a = (jg_array *)&a;
  const double d = 1.0;
  const int64_t i = 1;
  EXPECT(JG_EINVAL, jg_builder_null(NULL, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_bool(NULL, true, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_int64(NULL, 1, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_float64(NULL, 1.0, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_begin_list(NULL, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_end_list(NULL, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_begin_record(NULL, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_field(NULL, "x", &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_end_record(NULL, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_begin_tuple(NULL, 1, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_index(NULL, 0, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_end_tuple(NULL, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_extend_int64(NULL, &i, 1, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_extend_float64(NULL, &d, 1, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_list_int64(NULL, &i, 1, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_list_float64(NULL, &d, 1, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_snapshot(NULL, &a, &e_), "NULL");
  assert_null(a);
  assert_int_equal(jg_builder_length(NULL), 0);
  assert_int_equal(jg_builder_depth(NULL), 0);
  /* err may be NULL. */
  assert_int_equal(jg_builder_null(NULL, NULL), JG_EINVAL);
}

/* The reference for the error tests: [[1, 2.5], {r}] is impossible (union), so the builder
 * holds lists of records {x: int64, t: (int64, bool)}: [[{x: 1, t: (2, true)}], []]. */
static jg_array *reference_records(void) {
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_field(b, "x", &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  JGT_OK(jg_builder_field(b, "t", &jgt_err_));
  JGT_OK(jg_builder_begin_tuple(b, 2, &jgt_err_));
  JGT_OK(jg_builder_index(b, 0, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 2, &jgt_err_));
  JGT_OK(jg_builder_index(b, 1, &jgt_err_));
  JGT_OK(jg_builder_bool(b, true, &jgt_err_));
  JGT_OK(jg_builder_end_tuple(b, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  jg_array *a = snap(b);
  jg_builder_destroy(b);
  return a;
}

/* The same build with every misuse tried at each point; each fails, names the problem, and
 * leaves the builder as it was, so the final snapshot equals the reference. */
static void test_errors_state(void **state) {
  (void)state;
  jg_builder *b = NULL;
  jg_array *a = (jg_array *)&a;
  const int64_t two[] = {1, 2};
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  /* Nothing open. */
  EXPECT(JG_ESTATE, jg_builder_end_list(b, &e_), "no list is open");
  EXPECT(JG_ESTATE, jg_builder_end_record(b, &e_), "no record is open");
  EXPECT(JG_ESTATE, jg_builder_end_tuple(b, &e_), "no tuple is open");
  EXPECT(JG_ESTATE, jg_builder_field(b, "x", &e_), "no record is open");
  EXPECT(JG_ESTATE, jg_builder_index(b, 0, &e_), "no tuple is open");
  EXPECT(JG_EINVAL, jg_builder_begin_tuple(b, -1, &e_), "negative");

  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  /* A list is open. */
  EXPECT(JG_ESTATE, jg_builder_end_record(b, &e_), "innermost open container is a list");
  EXPECT(JG_ESTATE, jg_builder_end_tuple(b, &e_), "jg_builder_end_list");
  EXPECT(JG_ESTATE, jg_builder_field(b, "x", &e_), "not a record");
  EXPECT(JG_ESTATE, jg_builder_index(b, 0, &e_), "not a tuple");
  EXPECT(JG_ESTATE, jg_builder_snapshot(b, &a, &e_), "1 container is still open");
  assert_null(a);

  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  /* A record is open, no field selected. */
  EXPECT(JG_ESTATE, jg_builder_int64(b, 1, &e_), "no field is selected");
  assert_int_equal(e_.index, 0); /* record 0 */
  EXPECT(JG_ESTATE, jg_builder_null(b, &e_), "jg_builder_field");
  EXPECT(JG_ESTATE, jg_builder_begin_list(b, &e_), "no field is selected");
  EXPECT(JG_ESTATE, jg_builder_list_int64(b, two, 2, &e_), "no field is selected");
  EXPECT(JG_ESTATE, jg_builder_extend_int64(b, two, 0, &e_), "no field is selected");
  EXPECT(JG_ESTATE, jg_builder_end_list(b, &e_), "record 0, not a list");
  EXPECT(JG_ESTATE, jg_builder_end_tuple(b, &e_), "jg_builder_end_record");
  EXPECT(JG_ESTATE, jg_builder_index(b, 0, &e_), "not a tuple");
  EXPECT(JG_ESTATE, jg_builder_snapshot(b, &a, &e_), "2 containers are still open");
  EXPECT(JG_EINVAL, jg_builder_field(b, NULL, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_field(b, "", &e_), "empty");

  JGT_OK(jg_builder_field(b, "x", &jgt_err_));
  /* Field x selected, no value yet. */
  EXPECT(JG_ESTATE, jg_builder_field(b, "t", &e_), "field 'x' of record 0 was selected");
  EXPECT(JG_ESTATE, jg_builder_end_record(b, &e_), "given no value");
  EXPECT(JG_ESTATE, jg_builder_extend_int64(b, two, 2, &e_), "takes one value");
  EXPECT(JG_EINVAL, jg_builder_extend_int64(b, two, -1, &e_), "negative");
  EXPECT(JG_EINVAL, jg_builder_extend_int64(b, NULL, 1, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_list_float64(b, NULL, 3, &e_), "NULL");
  EXPECT(JG_EINVAL, jg_builder_list_int64(b, two, -2, &e_), "negative");
  JGT_OK(jg_builder_extend_int64(b, two, 0, &jgt_err_)); /* no-op: x still needs a value */
  EXPECT(JG_ESTATE, jg_builder_end_record(b, &e_), "given no value");
  JGT_OK(jg_builder_extend_int64(b, two, 1, &jgt_err_)); /* x = 1 */
  /* x has its value. */
  EXPECT(JG_ESTATE, jg_builder_int64(b, 5, &e_), "field 'x' of record 0 already has its value");
  EXPECT(JG_ESTATE, jg_builder_begin_list(b, &e_), "already has its value");
  EXPECT(JG_ESTATE, jg_builder_field(b, "x", &e_), "field 'x' already has a value in record 0");

  JGT_OK(jg_builder_field(b, "t", &jgt_err_));
  JGT_OK(jg_builder_begin_tuple(b, 2, &jgt_err_));
  /* A tuple of 2 is open. */
  EXPECT(JG_ESTATE, jg_builder_int64(b, 1, &e_), "no slot is selected");
  EXPECT(JG_ESTATE, jg_builder_field(b, "x", &e_), "tuple 0, not a record");
  EXPECT(JG_ESTATE, jg_builder_end_record(b, &e_), "jg_builder_end_tuple");
  EXPECT(JG_EINDEX, jg_builder_index(b, 2, &e_), "outside the 2 slots");
  assert_int_equal(e_.index, 2);
  EXPECT(JG_EINDEX, jg_builder_index(b, -1, &e_), "outside");
  JGT_OK(jg_builder_index(b, 0, &jgt_err_));
  EXPECT(JG_ESTATE, jg_builder_index(b, 1, &e_), "slot 0 of tuple 0 was selected");
  EXPECT(JG_ESTATE, jg_builder_end_tuple(b, &e_), "given no value");
  JGT_OK(jg_builder_int64(b, 2, &jgt_err_));
  EXPECT(JG_ESTATE, jg_builder_index(b, 0, &e_), "slot 0 already has a value in tuple 0");
  EXPECT(JG_ESTATE, jg_builder_bool(b, true, &e_), "already has its value");
  JGT_OK(jg_builder_index(b, 1, &jgt_err_));
  JGT_OK(jg_builder_bool(b, true, &jgt_err_));
  JGT_OK(jg_builder_end_tuple(b, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  JGT_OK(jg_builder_end_list(b, &jgt_err_));

  /* Type conflicts (would need unions) at the top level, which holds lists. */
  EXPECT(JG_EDTYPE, jg_builder_int64(b, 1, &e_), "cannot append an int64 where the builder holds lists");
  EXPECT(JG_EDTYPE, jg_builder_begin_record(b, &e_), "union");
  EXPECT(JG_EDTYPE, jg_builder_extend_float64(b, (const double[]){1.0}, 1, &e_), "a float64");
  JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  /* ... and inside the list, which holds records. */
  EXPECT(JG_EDTYPE, jg_builder_begin_list(b, &e_), "cannot append a list where the builder holds records");
  EXPECT(JG_EDTYPE, jg_builder_begin_tuple(b, 2, &e_), "a tuple of 2 slots");
  EXPECT(JG_EDTYPE, jg_builder_list_int64(b, two, 2, &e_), "holds records");
  EXPECT(JG_EDTYPE, jg_builder_bool(b, false, &e_), "a bool");
  JGT_OK(jg_builder_end_list(b, &jgt_err_));
  EXPECT(JG_ESTATE, jg_builder_end_list(b, &e_), "no list is open");

  a = snap(b);
  jg_array *ref = reference_records();
  assert_same(a, ref);
  jg_array_release(a);
  jg_array_release(ref);
  jg_builder_destroy(b);
}

/* Conflicts between number and bool types, records and tuples, tuple sizes; each leaves the
 * builder unchanged. */
static void test_errors_types(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  EXPECT(JG_EDTYPE, jg_builder_bool(b, true, &e_), "cannot append a bool where the builder holds int64 values");
  EXPECT(JG_EDTYPE, jg_builder_begin_list(b, &e_), "int64 values");
  EXPECT(JG_EDTYPE, jg_builder_list_float64(b, (const double[]){1.0}, 1, &e_), "a list");
  JGT_OK(jg_builder_null(b, &jgt_err_));
  /* Under an option the content's type still rules. */
  EXPECT(JG_EDTYPE, jg_builder_bool(b, true, &e_), "int64 values");
  jg_array *a = snap(b);
  I64S(INDEX(a, 0, -1), 1);
  jg_array_release(a);
  jg_builder_destroy(b);

  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_bool(b, false, &jgt_err_));
  EXPECT(JG_EDTYPE, jg_builder_float64(b, 1.0, &e_), "holds bool values");
  EXPECT(JG_EDTYPE, jg_builder_extend_int64(b, (const int64_t[]){1, 2}, 2, &e_), "an int64");
  a = snap(b);
  BOOLS(a, 0);
  jg_array_release(a);
  jg_builder_destroy(b);

  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_tuple(b, 1, &jgt_err_));
  JGT_OK(jg_builder_end_tuple(b, &jgt_err_));
  EXPECT(JG_EDTYPE, jg_builder_begin_tuple(b, 2, &e_), "holds tuples of 1 slots");
  EXPECT(JG_EDTYPE, jg_builder_begin_record(b, &e_), "a record");
  EXPECT(JG_EDTYPE, jg_builder_float64(b, 1.0, &e_), "tuples");
  a = snap(b);
  check_empty(INDEX(jg_array_child(a, 0), -1)); /* [(None,)] */
  assert_int_equal(jg_array_length(a), 1);
  jg_array_release(a);
  jg_builder_destroy(b);

  JGT_OK(jg_builder_create(&b, &jgt_err_));
  JGT_OK(jg_builder_begin_record(b, &jgt_err_));
  JGT_OK(jg_builder_end_record(b, &jgt_err_));
  EXPECT(JG_EDTYPE, jg_builder_begin_tuple(b, 0, &e_), "holds records");
  jg_builder_destroy(b);
}

/* Nesting deeper than JG_BUILDER_MAX_DEPTH is refused; the builder stays usable. */
static void test_errors_depth(void **state) {
  (void)state;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  for (int d = 0; d < JG_BUILDER_MAX_DEPTH; d++) JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  assert_int_equal(jg_builder_depth(b), JG_BUILDER_MAX_DEPTH);
  EXPECT(JG_ENOTSUP, jg_builder_begin_list(b, &e_), "nested");
  EXPECT(JG_ENOTSUP, jg_builder_begin_record(b, &e_), "nested");
  JGT_OK(jg_builder_list_int64(b, (const int64_t[]){9}, 1, &jgt_err_)); /* needs no push */
  for (int d = 0; d < JG_BUILDER_MAX_DEPTH; d++) JGT_OK(jg_builder_end_list(b, &jgt_err_));
  jg_array *a = snap(b);
  const jg_array *n = a;
  for (int d = 0; d < JG_BUILDER_MAX_DEPTH; d++) n = OFFSETS(n, 0, 1);
  I64S(OFFSETS(n, 0, 1), 9);
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* Lengths that would pass INT64_MAX, or buffers larger than any object, fail cleanly without
 * touching `values`' memory beyond what exists. */
static void test_errors_overflow(void **state) {
  (void)state;
  jg_builder *b = NULL;
  const int64_t one = 1;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  EXPECT(JG_ENOMEM, jg_builder_extend_int64(b, &one, INT64_MAX / 4, &e_), "largest object");
  EXPECT(JG_ENOMEM, jg_builder_list_int64(b, &one, INT64_MAX / 4, &e_), "largest object");
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  EXPECT(JG_EOVERFLOW, jg_builder_extend_int64(b, &one, INT64_MAX, &e_), "INT64_MAX");
  jg_array *a = snap(b);
  I64S(a, 1);
  jg_array_release(a);
  jg_builder_destroy(b);
}

/* ------------------------------------------------------------------------------------------ */
/* Out of memory                                                                               */
/* ------------------------------------------------------------------------------------------ */

/** A host resource that fails its `fail_at`-th allocation (counting from 0; -1: never) and
 *  counts the bytes outstanding. */
typedef struct failing {
  long count;
  long fail_at;
  long long outstanding;
  bool failed;
} failing;

static jg_status failing_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                  jg_stream stream, void **ptr, jg_error *err) {
  (void)stream;
  failing *f = mr->user_data;
  *ptr = NULL;
  if (bytes == 0) return JG_OK;
  const long n = f->count++;
  if (n == f->fail_at) {
    f->failed = true;
    return jg_error_set(err, JG_ENOMEM, -1, "injected failure");
  }
  void *p = NULL;
  if (posix_memalign(&p, alignment < 64 ? 64 : alignment, bytes) != 0) {
    return jg_error_set(err, JG_ENOMEM, -1, "posix_memalign failed");
  }
  f->outstanding += (long long)bytes;
  *ptr = p;
  return JG_OK;
}

static void failing_deallocate(jg_memory_resource *mr, void *ptr, size_t bytes,
                               jg_stream stream) {
  (void)stream;
  failing *f = mr->user_data;
  if (ptr == NULL) return;
  f->outstanding -= (long long)bytes;
  free(ptr);
}

/* Runs `expr` (which takes &e_); on the injected JG_ENOMEM checks the builder's depth and
 * length did not change, turns injection off and runs it again. */
#define STEP(expr)                                                                          \
  do {                                                                                      \
    jg_error_clear(&e_);                                                                    \
    const int depth_ = jg_builder_depth(b);                                                 \
    const jg_len length_ = jg_builder_length(b);                                            \
    jg_status st_ = (expr);                                                                 \
    if (st_ == JG_ENOMEM) {                                                                 \
      assert_true(f->failed);                                                               \
      JGT_CONTAINS(e_.message, "injected failure");                                         \
      assert_int_equal(jg_builder_depth(b), depth_);                                        \
      assert_int_equal(jg_builder_length(b), length_);                                      \
      f->fail_at = -1;                                                                      \
      jg_error_clear(&e_);                                                                  \
      st_ = (expr);                                                                         \
    }                                                                                       \
    if (st_ != JG_OK) print_error("%s: %s\n", #expr, e_.message);                           \
    assert_int_equal(st_, JG_OK);                                                           \
  } while (0)

/* A build touching every allocation site: promotion, option wrapping, new fields in later
 * records, several missing fields at one end_record, tuples, the fast paths, snapshots. */
static jg_array *oom_script(jg_builder *b, failing *f) {
  jg_array *mid = NULL;
  for (int e = 0; e < 6; e++) {
    STEP(jg_builder_begin_list(b, &e_));
    for (int j = 0; j < e % 3; j++) {
      STEP(jg_builder_begin_record(b, &e_));
      STEP(jg_builder_field(b, "pt", &e_));
      if (e == 4) {
        STEP(jg_builder_float64(b, 0.5 + j, &e_)); /* int64 -> float64 */
      } else {
        STEP(jg_builder_int64(b, e * 10 + j, &e_));
      }
      if (e >= 2) { /* a field first seen in a later record */
        STEP(jg_builder_field(b, "tags", &e_));
        STEP(jg_builder_list_int64(b, (const int64_t[]){e, j, 7}, 3 - j, &e_));
      }
      if (e != 4) {
        STEP(jg_builder_field(b, "pair", &e_));
        STEP(jg_builder_begin_tuple(b, 2, &e_));
        STEP(jg_builder_index(b, 1, &e_));
        STEP(jg_builder_bool(b, j == 0, &e_));
        STEP(jg_builder_end_tuple(b, &e_)); /* slot 0 missing: option */
      }
      STEP(jg_builder_end_record(b, &e_)); /* e == 4: tags... present, pair missing */
    }
    STEP(jg_builder_end_list(b, &e_));
    if (e == 1) STEP(jg_builder_null(b, &e_));
    if (e == 2) {
      STEP(jg_builder_snapshot(b, &mid, &e_));
      jg_array_release(mid);
    }
  }
  jg_array *a = NULL;
  STEP(jg_builder_snapshot(b, &a, &e_));
  return a;
}

static void test_out_of_memory_everywhere(void **state) {
  (void)state;
  jg_memory_resource mr;
  failing fs;
  failing *f = &fs;
  JGT_OK(jg_memory_resource_init_user(&mr, (jg_device){JG_DEVICE_CPU, 0}, true, false, false,
                                      failing_allocate, failing_deallocate, &fs, &jgt_err_));
  jg_builder_options opt;
  memset(&opt, 0, sizeof opt);
  opt.mr = &mr;
  opt.initial_capacity = 1; /* grow often */

  /* The reference run, with no failures. */
  memset(&fs, 0, sizeof fs);
  fs.fail_at = -1;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create_ex(&opt, &b, &jgt_err_));
  jg_array *ref = oom_script(b, f);
  const long allocations = fs.count;
  jg_builder_destroy(b);
  assert_true(allocations > 40);
  JGT_OK(jg_array_validate(ref, JG_VALIDATE_FULL, NULL, &jgt_err_));
  /* Spot checks of the reference: 6 events, option at the top (None after event 1). */
  jg_array *events = INDEX(ref, 0, 1, -1, 2, 3, 4, 5);
  jg_array *rec = OFFSETS(events, 0, 0, 1, 3, 3, 4, 6);
  assert_int_equal(jg_array_num_children(rec), 3);
  /* Fields in order of first appearance: pt and pair in record 0, tags in record 1. */
  F64S(field(rec, 0, "pt"), 10, 20, 21, 0.5, 50, 51);
  jg_array *pair = INDEX(field(rec, 1, "pair"), 0, 1, 2, -1, 3, 4);
  I64S(OFFSETS(INDEX(field(rec, 2, "tags"), -1, 0, 1, 2, 3, 4), 0, 3, 5, 8, 11, 13), 2, 0, 7, 2,
       1, 4, 0, 7, 5, 0, 7, 5, 1);
  check_empty(INDEX(jg_array_child(pair, 0), -1, -1, -1, -1, -1));
  BOOLS(jg_array_child(pair, 1), 1, 1, 0, 1, 0);
  jg_array_release(ref);
  assert_int_equal(fs.outstanding, 0);

  /* Fail each allocation in turn. */
  for (long k = 0; k < allocations; k++) {
    assert_int_equal(fs.outstanding, 0);
    fs.count = 0;
    fs.failed = false;
    fs.fail_at = k;
    b = NULL;
    jg_status st = jg_builder_create_ex(&opt, &b, &e_);
    if (st == JG_ENOMEM) {
      assert_int_equal(k, 0);
      assert_null(b);
      fs.fail_at = -1;
      JGT_OK(jg_builder_create_ex(&opt, &b, &jgt_err_));
    }
    jg_array *a = oom_script(b, f);
    assert_true(fs.failed);
    jg_builder_destroy(b);
    jg_array *again = NULL;
    /* Compare with a fresh reference (the first was released to check the byte count). */
    fs.fail_at = -1;
    JGT_OK(jg_builder_create_ex(&opt, &b, &jgt_err_));
    again = oom_script(b, f);
    jg_builder_destroy(b);
    assert_same(a, again);
    jg_array_release(a);
    jg_array_release(again);
    assert_int_equal(fs.outstanding, 0);
  }
}

/* Snapshot buffers come from the builder's resource and outlive the builder. */
static void test_resource_and_lifetime(void **state) {
  (void)state;
  jg_memory_resource mr;
  failing fs;
  memset(&fs, 0, sizeof fs);
  fs.fail_at = -1;
  JGT_OK(jg_memory_resource_init_user(&mr, (jg_device){JG_DEVICE_CPU, 0}, true, false, false,
                                      failing_allocate, failing_deallocate, &fs, &jgt_err_));
  jg_builder_options opt;
  memset(&opt, 0, sizeof opt);
  opt.version = sizeof opt;
  opt.mr = &mr;
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create_ex(&opt, &b, &jgt_err_));
  JGT_OK(jg_builder_list_float64(b, (const double[]){1.5, 2.5}, 2, &jgt_err_));
  jg_array *a = snap(b);
  jg_builder_destroy(b);
  assert_true(fs.outstanding > 0); /* the snapshot's two buffers */
  jg_view v = buffer0(a, JG_DTYPE_INT64);
  assert_ptr_equal(jg_buffer_resource(v.buffer), &mr);
  F64S(OFFSETS(a, 0, 2), 1.5, 2.5);
  jg_array_release(a);
  assert_int_equal(fs.outstanding, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_list_of_floats),
      cmocka_unit_test(test_header_example),
      cmocka_unit_test(test_nested_three_deep),
      cmocka_unit_test(test_empty_outer),
      cmocka_unit_test(test_empty_inner),
      cmocka_unit_test(test_muons),
      cmocka_unit_test(test_record_missing_fields),
      cmocka_unit_test(test_record_nesting),
      cmocka_unit_test(test_tuples),
      cmocka_unit_test(test_int_float_promotion),
      cmocka_unit_test(test_nulls_make_options),
      cmocka_unit_test(test_snapshot_twice),
      cmocka_unit_test(test_growth_million),
      cmocka_unit_test(test_errors_create),
      cmocka_unit_test(test_errors_null_builder),
      cmocka_unit_test(test_errors_state),
      cmocka_unit_test(test_errors_types),
      cmocka_unit_test(test_errors_depth),
      cmocka_unit_test(test_errors_overflow),
      cmocka_unit_test(test_out_of_memory_everywhere),
      cmocka_unit_test(test_resource_and_lifetime),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
