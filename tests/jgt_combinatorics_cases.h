/* jgt_combinatorics_cases.h: the table of combinations and cartesian products
 * (combinatorics.h) run on the host by tests/unit/test_combinatorics.c and on the GPU by
 * tests/gpu/test_combinatorics_gpu.c (after jg_array_to_device), with host input builders.
 *
 * Every expected value and type was worked out by hand from Awkward Array 2.x's semantics
 * (../shared/notes/awkward.md 6.5: ak.combinations in lexicographic "upper triangle" order, with
 * replacement adding the diagonal; ak.cartesian with the first array slowest, nested grouping by
 * the first array's item). Values print as jg_array_to_string writes them: tuples "(1, 2)",
 * records "{x: 1, y: 2}". */
#ifndef JAGGED_TESTS_JGT_COMBINATORICS_CASES_H
#define JAGGED_TESTS_JGT_COMBINATORICS_CASES_H

#include "jagged/combinatorics.h"
#include "jgt_array_cases.h"

/* ------------------------------------------------------------------------------------------ */
/* Input builders (host arrays; each returns a new reference)                                  */
/* ------------------------------------------------------------------------------------------ */

/* The issue's case: float64 [[], [1.1, 2.1, 3.1]]. */
static inline jg_array *jgt_cc_issue(void) {
  static const double v[] = {1.1, 2.1, 3.1};
  return JGT_OFFSETS(jgt_numeric(v, 3, JG_DTYPE_FLOAT64), 0, 0, 3);
}

/* int64 [[1, 2, 3], [], [4], [5, 6]] as offsets [2, 5, 5, 6, 8] over 9 values whose first two
 * and last are unreachable. */
static inline jg_array *jgt_cc_ints(void) {
  static const int64_t v[] = {-1, -1, 1, 2, 3, 4, 5, 6, -9};
  return JGT_OFFSETS(jgt_i64(v, 9), 2, 5, 5, 6, 8);
}

/* int32 [[1, 2, 3, 4, 5], [6, 7, 8, 9]]. */
static inline jg_array *jgt_cc_five(void) {
  static const int32_t v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  return JGT_OFFSETS(jgt_numeric(v, 9, JG_DTYPE_INT32), 0, 5, 9);
}

/* A list node: int32 starts [3, 0, 9], stops [5, 3, 9] over int16 [10, 20, 30, 40, 50]:
 * [[40, 50], [10, 20, 30], []] (the empty list starts past the content, which is allowed). */
static inline jg_array *jgt_cc_list_node(void) {
  static const int16_t v[] = {10, 20, 30, 40, 50};
  return jgt_list(JGT_I32(3, 0, 9), JGT_I32(5, 3, 9), 3, 3, JG_DTYPE_INT32,
                  jgt_numeric(v, 5, JG_DTYPE_INT16));
}

/* float64 [[1], [2, 3, 4], [5, 6], [7]] sliced [1, 3): [[2, 3, 4], [5, 6]]. */
static inline jg_array *jgt_cc_sliced(void) {
  static const double v[] = {1, 2, 3, 4, 5, 6, 7};
  return jgt_slice(JGT_OFFSETS(jgt_numeric(v, 7, JG_DTYPE_FLOAT64), 0, 1, 4, 6, 7), 1, 3);
}

/* Muons: [[{pt: 10, eta: 0.5, phi: -1}, {pt: 20, eta: 1, phi: 0}, {pt: 30, eta: -2, phi: 3}],
 * [], [{pt: 40, eta: 0, phi: 1}]], pt and eta float32, phi float64. */
static inline jg_array *jgt_cc_muons(void) {
  static const float pt[] = {10, 20, 30, 40}, eta[] = {0.5f, 1, -2, 0};
  static const double phi[] = {-1, 0, 3, 1};
  static const char *const names[] = {"pt", "eta", "phi"};
  jg_array *f[3] = {jgt_numeric(pt, 4, JG_DTYPE_FLOAT32), jgt_numeric(eta, 4, JG_DTYPE_FLOAT32),
                    jgt_numeric(phi, 4, JG_DTYPE_FLOAT64)};
  return JGT_OFFSETS(jgt_record(3, f, names, -1), 0, 3, 3, 4);
}

/* No lists: one offset (4) over 3 float64 values. */
static inline jg_array *jgt_cc_no_lists(void) {
  static const double v[] = {1, 2, 3};
  return JGT_OFFSETS(jgt_numeric(v, 3, JG_DTYPE_FLOAT64), 4);
}

/* Two empty lists of an empty node (type 2 * var * unknown). */
static inline jg_array *jgt_cc_empty_content(void) {
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  return JGT_OFFSETS(e, 0, 0, 0);
}

/* Lists of lists (items that are lists): [[[1], [2, 3]], [[4]]]. */
static inline jg_array *jgt_cc_nested_items(void) {
  static const int64_t v[] = {1, 2, 3, 4};
  return JGT_OFFSETS(JGT_OFFSETS(jgt_i64(v, 4), 0, 1, 3, 4), 0, 2, 3);
}

/* Cartesian inputs: a = int64 [[1, 2], [], [3]], b = int64 [[10], [20], [30, 40]] (offsets not
 * at 0), c = float64 [[100, 200], [300], []]. */
static inline jg_array *jgt_cc_cart_a(void) {
  static const int64_t v[] = {1, 2, 3};
  return JGT_OFFSETS(jgt_i64(v, 3), 0, 2, 2, 3);
}
static inline jg_array *jgt_cc_cart_b(void) {
  static const int64_t v[] = {0, 10, 20, 30, 40, 0};
  return JGT_OFFSETS(jgt_i64(v, 6), 1, 2, 3, 5);
}
static inline jg_array *jgt_cc_cart_c(void) {
  static const double v[] = {100, 200, 300};
  return JGT_OFFSETS(jgt_numeric(v, 3, JG_DTYPE_FLOAT64), 0, 2, 3, 3);
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef enum jgt_cc_op {
  JGT_CC_COMB = 0,
  JGT_CC_ARGCOMB = 1,
  JGT_CC_CART = 2,
  JGT_CC_ARGCART = 3
} jgt_cc_op;

typedef struct jgt_ccase {
  const char *name;
  jgt_cc_op op;
  jg_array *(*make[3])(void); /* the input (combinations) or the 2 or 3 arrays (cartesian) */
  int n;                      /* n (combinations) or narrays (cartesian) */
  bool flag;                  /* replacement (combinations) or nested (cartesian) */
  const char *const *fields;  /* NULL: tuples */
  const char *value;          /* jg_array_to_string of the result */
  const char *type;           /* jg_array_type_string of the result */
} jgt_ccase;

static const char *const jgt_cc_xy[] = {"x", "y"};
static const char *const jgt_cc_mu[] = {"mu1", "mu2"};
static const char *const jgt_cc_abc[] = {"a", "b", "c"};

static inline const jgt_ccase *jgt_combinatorics_cases(size_t *count) {
  static const jgt_ccase cases[] = {
      /* The issue's input. */
      {"issue n=3", JGT_CC_COMB, {jgt_cc_issue}, 3, false, NULL, "[[], [(1.1, 2.1, 3.1)]]",
       "2 * var * (float64, float64, float64)"},
      {"issue n=2", JGT_CC_COMB, {jgt_cc_issue}, 2, false, NULL,
       "[[], [(1.1, 2.1), (1.1, 3.1), (2.1, 3.1)]]", "2 * var * (float64, float64)"},
      {"issue n=4 (list too short)", JGT_CC_COMB, {jgt_cc_issue}, 4, false, NULL, "[[], []]",
       "2 * var * (float64, float64, float64, float64)"},

      /* n = 1..4, offsets not at 0, lists shorter than n, a last list of 2. */
      {"ints n=1", JGT_CC_COMB, {jgt_cc_ints}, 1, false, NULL, "[[(1), (2), (3)], [], [(4)], [(5), (6)]]",
       "4 * var * (int64)"},
      {"ints n=2", JGT_CC_COMB, {jgt_cc_ints}, 2, false, NULL,
       "[[(1, 2), (1, 3), (2, 3)], [], [], [(5, 6)]]", "4 * var * (int64, int64)"},
      {"ints n=2 records", JGT_CC_COMB, {jgt_cc_ints}, 2, false, jgt_cc_xy,
       "[[{x: 1, y: 2}, {x: 1, y: 3}, {x: 2, y: 3}], [], [], [{x: 5, y: 6}]]",
       "4 * var * {x: int64, y: int64}"},
      {"ints n=2 replacement", JGT_CC_COMB, {jgt_cc_ints}, 2, true, NULL,
       "[[(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3)], [], [(4, 4)], [(5, 5), (5, 6), (6, 6)]]",
       "4 * var * (int64, int64)"},
      {"ints n=3", JGT_CC_COMB, {jgt_cc_ints}, 3, false, NULL, "[[(1, 2, 3)], [], [], []]",
       "4 * var * (int64, int64, int64)"},
      {"ints n=3 replacement", JGT_CC_COMB, {jgt_cc_ints}, 3, true, NULL,
       "[[(1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 2, 2), (1, 2, 3), (1, 3, 3), (2, 2, 2), "
       "(2, 2, 3), (2, 3, 3), (3, 3, 3)], [], [(4, 4, 4)], [(5, 5, 5), (5, 5, 6), (5, 6, 6), "
       "(6, 6, 6)]]",
       "4 * var * (int64, int64, int64)"},
      {"ints argcombinations n=2", JGT_CC_ARGCOMB, {jgt_cc_ints}, 2, false, NULL,
       "[[(0, 1), (0, 2), (1, 2)], [], [], [(0, 1)]]", "4 * var * (int64, int64)"},
      {"ints argcombinations n=2 replacement", JGT_CC_ARGCOMB, {jgt_cc_ints}, 2, true, jgt_cc_xy,
       "[[{x: 0, y: 0}, {x: 0, y: 1}, {x: 0, y: 2}, {x: 1, y: 1}, {x: 1, y: 2}, {x: 2, y: 2}], "
       "[], [{x: 0, y: 0}], [{x: 0, y: 0}, {x: 0, y: 1}, {x: 1, y: 1}]]",
       "4 * var * {x: int64, y: int64}"},
      {"five n=4", JGT_CC_COMB, {jgt_cc_five}, 4, false, NULL,
       "[[(1, 2, 3, 4), (1, 2, 3, 5), (1, 2, 4, 5), (1, 3, 4, 5), (2, 3, 4, 5)], "
       "[(6, 7, 8, 9)]]",
       "2 * var * (int32, int32, int32, int32)"},
      {"five n=3", JGT_CC_COMB, {jgt_cc_five}, 3, false, NULL,
       "[[(1, 2, 3), (1, 2, 4), (1, 2, 5), (1, 3, 4), (1, 3, 5), (1, 4, 5), (2, 3, 4), "
       "(2, 3, 5), (2, 4, 5), (3, 4, 5)], [(6, 7, 8), (6, 7, 9), (6, 8, 9), (7, 8, 9)]]",
       "2 * var * (int32, int32, int32)"},
      {"sliced argcombinations n=4 replacement", JGT_CC_ARGCOMB, {jgt_cc_sliced}, 4,
       true, NULL,
       "[[(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 0, 2), (0, 0, 1, 1), (0, 0, 1, 2), (0, 0, 2, 2), "
       "(0, 1, 1, 1), (0, 1, 1, 2), (0, 1, 2, 2), (0, 2, 2, 2), (1, 1, 1, 1), (1, 1, 1, 2), "
       "(1, 1, 2, 2), (1, 2, 2, 2), (2, 2, 2, 2)], [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1), "
       "(0, 1, 1, 1), (1, 1, 1, 1)]]",
       "2 * var * (int64, int64, int64, int64)"},

      /* Layouts. */
      {"list node n=2", JGT_CC_COMB, {jgt_cc_list_node}, 2, false, NULL,
       "[[(40, 50)], [(10, 20), (10, 30), (20, 30)], []]", "3 * var * (int16, int16)"},
      {"list node argcombinations n=2", JGT_CC_ARGCOMB, {jgt_cc_list_node}, 2, false, NULL,
       "[[(0, 1)], [(0, 1), (0, 2), (1, 2)], []]", "3 * var * (int64, int64)"},
      {"sliced n=2", JGT_CC_COMB, {jgt_cc_sliced}, 2, false, NULL,
       "[[(2, 3), (2, 4), (3, 4)], [(5, 6)]]", "2 * var * (float64, float64)"},

      /* Records as items. */
      {"muon pairs", JGT_CC_COMB, {jgt_cc_muons}, 2, false, jgt_cc_mu,
       "[[{mu1: {pt: 10, eta: 0.5, phi: -1}, mu2: {pt: 20, eta: 1, phi: 0}}, "
       "{mu1: {pt: 10, eta: 0.5, phi: -1}, mu2: {pt: 30, eta: -2, phi: 3}}, "
       "{mu1: {pt: 20, eta: 1, phi: 0}, mu2: {pt: 30, eta: -2, phi: 3}}], [], []]",
       "3 * var * {mu1: {pt: float32, eta: float32, phi: float64}, mu2: {pt: float32, eta: "
       "float32, phi: float64}}"},

      /* Empty arrays and lists: typed empty results. */
      {"no lists n=2", JGT_CC_COMB, {jgt_cc_no_lists}, 2, false, NULL, "[]",
       "0 * var * (float64, float64)"},
      {"no lists argcombinations n=3", JGT_CC_ARGCOMB, {jgt_cc_no_lists}, 3, false, NULL, "[]",
       "0 * var * (int64, int64, int64)"},
      {"empty content n=2", JGT_CC_COMB, {jgt_cc_empty_content}, 2, true, NULL, "[[], []]",
       "2 * var * (unknown, unknown)"},
      {"lists of lists argcombinations", JGT_CC_ARGCOMB, {jgt_cc_nested_items}, 2, false, NULL,
       "[[(0, 1)], []]", "2 * var * (int64, int64)"},

      /* Cartesian products. */
      {"cartesian 2", JGT_CC_CART, {jgt_cc_cart_a, jgt_cc_cart_b}, 2, false, NULL,
       "[[(1, 10), (2, 10)], [], [(3, 30), (3, 40)]]", "3 * var * (int64, int64)"},
      {"cartesian 2 nested", JGT_CC_CART, {jgt_cc_cart_a, jgt_cc_cart_b}, 2, true, NULL,
       "[[[(1, 10)], [(2, 10)]], [], [[(3, 30), (3, 40)]]]", "3 * var * var * (int64, int64)"},
      {"cartesian 3", JGT_CC_CART, {jgt_cc_cart_a, jgt_cc_cart_b, jgt_cc_cart_c}, 3, false,
       jgt_cc_abc,
       "[[{a: 1, b: 10, c: 100}, {a: 1, b: 10, c: 200}, {a: 2, b: 10, c: 100}, "
       "{a: 2, b: 10, c: 200}], [], []]",
       "3 * var * {a: int64, b: int64, c: float64}"},
      {"cartesian 3 nested", JGT_CC_CART, {jgt_cc_cart_a, jgt_cc_cart_b, jgt_cc_cart_c}, 3, true,
       NULL,
       "[[[(1, 10, 100), (1, 10, 200)], [(2, 10, 100), (2, 10, 200)]], [], [[]]]",
       "3 * var * var * (int64, int64, float64)"},
      {"cartesian of one array with itself", JGT_CC_CART, {jgt_cc_cart_b, jgt_cc_cart_b}, 2,
       false, NULL, "[[(10, 10)], [(20, 20)], [(30, 30), (30, 40), (40, 30), (40, 40)]]",
       "3 * var * (int64, int64)"},
      {"argcartesian 2", JGT_CC_ARGCART, {jgt_cc_cart_b, jgt_cc_cart_a}, 2, false, NULL,
       "[[(0, 0), (0, 1)], [], [(0, 0), (1, 0)]]", "3 * var * (int64, int64)"},
      {"argcartesian 3 nested", JGT_CC_ARGCART, {jgt_cc_cart_a, jgt_cc_cart_b, jgt_cc_cart_b}, 3,
       true, NULL,
       "[[[(0, 0, 0)], [(1, 0, 0)]], [], [[(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]]]",
       "3 * var * var * (int64, int64, int64)"},
      {"cartesian muons with a list node", JGT_CC_CART, {jgt_cc_muons, jgt_cc_list_node}, 2,
       false, jgt_cc_xy,
       "[[{x: {pt: 10, eta: 0.5, phi: -1}, y: 40}, {x: {pt: 10, eta: 0.5, phi: -1}, y: 50}, "
       "{x: {pt: 20, eta: 1, phi: 0}, y: 40}, {x: {pt: 20, eta: 1, phi: 0}, y: 50}, "
       "{x: {pt: 30, eta: -2, phi: 3}, y: 40}, {x: {pt: 30, eta: -2, phi: 3}, y: 50}], [], []]",
       "3 * var * {x: {pt: float32, eta: float32, phi: float64}, y: int16}"},
      {"cartesian no lists", JGT_CC_CART, {jgt_cc_no_lists, jgt_cc_no_lists}, 2, true, NULL, "[]",
       "0 * var * var * (float64, float64)"},
  };
  *count = sizeof cases / sizeof cases[0];
  return cases;
}

/* Runs one row on `in` (its 1, 2 or 3 inputs, on any backend). */
static inline jg_status jgt_cc_run(const jgt_ccase *c, jg_array *const *in, jg_stream stream,
                                   jg_array **out, jg_error *err) {
  switch (c->op) {
    case JGT_CC_COMB:
      return jg_array_combinations(in[0], c->n, c->flag, c->fields, stream, out, err);
    case JGT_CC_ARGCOMB:
      return jg_array_argcombinations(in[0], c->n, c->flag, c->fields, stream, out, err);
    case JGT_CC_CART:
      return jg_array_cartesian(c->n, (const jg_array *const *)in, c->flag, c->fields, stream,
                                out, err);
    default:
      return jg_array_argcartesian(c->n, (const jg_array *const *)in, c->flag, c->fields, stream,
                                   out, err);
  }
}

/* Number of inputs of a row. */
static inline int jgt_cc_ninputs(const jgt_ccase *c) {
  return c->op == JGT_CC_COMB || c->op == JGT_CC_ARGCOMB ? 1 : c->n;
}

#endif /* JAGGED_TESTS_JGT_COMBINATORICS_CASES_H */
