/* jgt_reduce_axis_cases.h: the table of reductions at the outer and middle axes (ops.h:
 * jg_array_reduce with opt->axis) run on the host by tests/unit/test_reduce_axis.c and on the
 * GPU by tests/gpu/test_reduce_axis_gpu.c (after jg_array_to_device).
 *
 * Every expected value was worked out by hand from Awkward Array 2.x's left-aligned semantics
 * (../shared/notes/awkward.md 6.4): on x = [[[1, 2], [3]], [], [[4], [], [5, 6, 7]]], sum at
 * axis=1 merges the sublists of each outer list column by column ([[4, 2], [], [9, 6, 7]]), at
 * axis=0 the outer lists item by item ([[5, 2], [3], [5, 6, 7]]); argmin/argmax give the position
 * along the reduced axis; min/max/argmin/argmax (mask_identity by default) give option types,
 * though no merged position is ever empty. */
#ifndef JAGGED_TESTS_JGT_REDUCE_AXIS_CASES_H
#define JAGGED_TESTS_JGT_REDUCE_AXIS_CASES_H

#include "jgt_reduce_cases.h"

/* The issue's case: [[[2, 3, 5], [], [7, 11], [13]], [], [[17, 19], [23]]] as outer offsets
 * [1, 5, 5, 7] over inner lists [[99], [2, 3, 5], [], [7, 11], [13], [17, 19], [23]] (the first
 * unreachable) over int64 content whose last value (98) is unreachable. */
static inline jg_array *jgt_ra_issue(void) {
  static const int64_t v[] = {99, 2, 3, 5, 7, 11, 13, 17, 19, 23, 98};
  jg_array *inner = JGT_OFFSETS(jgt_i64(v, 11), 0, 1, 4, 4, 6, 7, 9, 10);
  return JGT_OFFSETS(inner, 1, 5, 5, 7);
}

/* The same structure with list nodes: outer starts [5, 0, 1], stops [7, 0, 5] (out of order,
 * the empty list starting at 0) over the same inner lists. */
static inline jg_array *jgt_ra_issue_list_node(void) {
  static const int64_t v[] = {99, 2, 3, 5, 7, 11, 13, 17, 19, 23, 98};
  jg_array *inner = JGT_OFFSETS(jgt_i64(v, 11), 0, 1, 4, 4, 6, 7, 9, 10);
  return jgt_list(JGT_I64(5, 0, 1), JGT_I64(7, 0, 5), 3, 3, JG_DTYPE_INT64, inner);
}

/* x with a None outer list: index [0, -1, 1, 2] over x: [[[1, 2], [3]], None, [], [[4], [],
 * [5, 6, 7]]]. */
static inline jg_array *jgt_ra_none(void) {
  return jgt_indexed(JGT_I64(0, -1, 1, 2), 4, JG_DTYPE_INT64, jgt_rc_nested());
}

/* float64 [[1.5, 2], [], [4, 5, 0.25]] (two levels). */
static inline jg_array *jgt_ra_two(void) {
  static const double v[] = {1.5, 2, 4, 5, 0.25};
  return JGT_OFFSETS(jgt_numeric(v, 5, JG_DTYPE_FLOAT64), 0, 2, 2, 5);
}

/* Four levels: [[[[1], [2, 3]], [[4, 5, 6]]], [[[7]]]] (int32). */
static inline jg_array *jgt_ra_four(void) {
  static const int32_t v[] = {1, 2, 3, 4, 5, 6, 7};
  jg_array *l3 = JGT_OFFSETS(jgt_numeric(v, 7, JG_DTYPE_INT32), 0, 1, 3, 6, 7);
  jg_array *l2 = JGT_OFFSETS(l3, 0, 2, 3, 4);
  return JGT_OFFSETS(l2, 0, 2, 3);
}

/* bool [[[T, F], [F]], [[F, F, T]], []]. */
static inline jg_array *jgt_ra_bool(void) {
  static const bool v[] = {true, false, false, false, false, true};
  jg_array *inner = JGT_OFFSETS(jgt_numeric(v, 6, JG_DTYPE_BOOL), 0, 2, 3, 6);
  return JGT_OFFSETS(inner, 0, 2, 3, 3);
}

/* No lists (an empty array of lists of lists of float64). */
static inline jg_array *jgt_ra_empty(void) {
  static const double v[] = {1};
  jg_array *inner = JGT_OFFSETS(jgt_numeric(v, 1, JG_DTYPE_FLOAT64), 0, 1);
  return JGT_OFFSETS(inner, 1);
}

typedef struct jgt_racase {
  const char *name;
  jg_array *(*make)(void);
  jg_reducer r;
  int64_t axis;
  int mask_identity;
  bool keepdims;
  const char *value;
  const char *type;
} jgt_racase;

static inline const jgt_racase *jgt_reduce_axis_cases(size_t *count) {
  static const jgt_racase cases[] = {
      /* The issue's case. */
      {"issue prod axis 1", jgt_ra_issue, JG_REDUCE_PROD, 1, 0, false, "[[182, 33, 5], [], [391, 19]]",
       "3 * var * int64"},
      {"issue prod axis -2", jgt_ra_issue, JG_REDUCE_PROD, -2, 0, false,
       "[[182, 33, 5], [], [391, 19]]", "3 * var * int64"},
      {"issue prod axis 1, list node", jgt_ra_issue_list_node, JG_REDUCE_PROD, 1, 0, false,
       "[[391, 19], [], [182, 33, 5]]", "3 * var * int64"},
      {"issue prod axis 0", jgt_ra_issue, JG_REDUCE_PROD, 0, 0, false,
       "[[34, 57, 5], [23], [7, 11], [13]]", "4 * var * int64"},

      /* awkward.md 6.4's axis examples. */
      {"x sum axis 2", jgt_rc_nested, JG_REDUCE_SUM, 2, 0, false, "[[3, 3], [], [4, 0, 18]]",
       "3 * var * int64"},
      {"x sum axis -1", jgt_rc_nested, JG_REDUCE_SUM, -1, 0, false, "[[3, 3], [], [4, 0, 18]]",
       "3 * var * int64"},
      {"x sum axis 1", jgt_rc_nested, JG_REDUCE_SUM, 1, 0, false, "[[4, 2], [], [9, 6, 7]]",
       "3 * var * int64"},
      {"x sum axis -2", jgt_rc_nested, JG_REDUCE_SUM, -2, 0, false, "[[4, 2], [], [9, 6, 7]]",
       "3 * var * int64"},
      {"x sum axis 0", jgt_rc_nested, JG_REDUCE_SUM, 0, 0, false, "[[5, 2], [3], [5, 6, 7]]",
       "3 * var * int64"},
      {"x sum axis -3", jgt_rc_nested, JG_REDUCE_SUM, -3, 0, false, "[[5, 2], [3], [5, 6, 7]]",
       "3 * var * int64"},

      /* Every reducer at axis 1 and axis 0 on x (empty lists at both levels). */
      {"x prod axis 1", jgt_rc_nested, JG_REDUCE_PROD, 1, 0, false, "[[3, 2], [], [20, 6, 7]]",
       "3 * var * int64"},
      {"x prod axis 0", jgt_rc_nested, JG_REDUCE_PROD, 0, 0, false, "[[4, 2], [3], [5, 6, 7]]",
       "3 * var * int64"},
      {"x min axis 1", jgt_rc_nested, JG_REDUCE_MIN, 1, 0, false, "[[1, 2], [], [4, 6, 7]]",
       "3 * var * ?int64"},
      {"x min axis 0", jgt_rc_nested, JG_REDUCE_MIN, 0, 0, false, "[[1, 2], [3], [5, 6, 7]]",
       "3 * var * ?int64"},
      {"x max axis 1", jgt_rc_nested, JG_REDUCE_MAX, 1, 0, false, "[[3, 2], [], [5, 6, 7]]",
       "3 * var * ?int64"},
      {"x max axis 0", jgt_rc_nested, JG_REDUCE_MAX, 0, 0, false, "[[4, 2], [3], [5, 6, 7]]",
       "3 * var * ?int64"},
      {"x argmin axis 1", jgt_rc_nested, JG_REDUCE_ARGMIN, 1, 0, false, "[[0, 0], [], [0, 2, 2]]",
       "3 * var * ?int64"},
      {"x argmax axis 1", jgt_rc_nested, JG_REDUCE_ARGMAX, 1, 0, false, "[[1, 0], [], [2, 2, 2]]",
       "3 * var * ?int64"},
      {"x argmin axis 0", jgt_rc_nested, JG_REDUCE_ARGMIN, 0, 0, false, "[[0, 0], [0], [2, 2, 2]]",
       "3 * var * ?int64"},
      {"x argmax axis 0", jgt_rc_nested, JG_REDUCE_ARGMAX, 0, 0, false, "[[2, 0], [0], [2, 2, 2]]",
       "3 * var * ?int64"},
      {"x count axis 1", jgt_rc_nested, JG_REDUCE_COUNT, 1, 0, false, "[[2, 1], [], [2, 1, 1]]",
       "3 * var * int64"},
      {"x count axis 0", jgt_rc_nested, JG_REDUCE_COUNT, 0, 0, false, "[[2, 1], [1], [1, 1, 1]]",
       "3 * var * int64"},
      {"x count_nonzero axis 1", jgt_rc_nested, JG_REDUCE_COUNT_NONZERO, 1, 0, false,
       "[[2, 1], [], [2, 1, 1]]", "3 * var * int64"},
      {"x any axis 0", jgt_rc_nested, JG_REDUCE_ANY, 0, 0, false,
       "[[True, True], [True], [True, True, True]]", "3 * var * bool"},
      {"x all axis 1", jgt_rc_nested, JG_REDUCE_ALL, 1, 0, false,
       "[[True, True], [], [True, True, True]]", "3 * var * bool"},
      {"x mean axis 1", jgt_rc_nested, JG_REDUCE_MEAN, 1, 0, false, "[[2, 2], [], [4.5, 6, 7]]",
       "3 * var * float64"},
      {"x mean axis 0", jgt_rc_nested, JG_REDUCE_MEAN, 0, 0, false, "[[2.5, 2], [3], [5, 6, 7]]",
       "3 * var * float64"},
      {"bool any axis 1", jgt_ra_bool, JG_REDUCE_ANY, 1, 0, false, "[[True, False], [False, False, True], []]",
       "3 * var * bool"},
      {"bool all axis 1", jgt_ra_bool, JG_REDUCE_ALL, 1, 0, false, "[[False, False], [False, False, True], []]",
       "3 * var * bool"},
      {"bool count_nonzero axis 0", jgt_ra_bool, JG_REDUCE_COUNT_NONZERO, 0, 0, false,
       "[[1, 0, 1], [0]]", "2 * var * int64"},
      {"bool sum axis 0", jgt_ra_bool, JG_REDUCE_SUM, 0, 0, false, "[[1, 0, 1], [0]]",
       "2 * var * int64"},

      /* mask_identity and keepdims. */
      {"x min axis 1 identity", jgt_rc_nested, JG_REDUCE_MIN, 1, -1, false,
       "[[1, 2], [], [4, 6, 7]]", "3 * var * int64"},
      {"x argmax axis 0 identity", jgt_rc_nested, JG_REDUCE_ARGMAX, 0, -1, false,
       "[[2, 0], [0], [2, 2, 2]]", "3 * var * int64"},
      {"x sum axis 1 None", jgt_rc_nested, JG_REDUCE_SUM, 1, 1, false, "[[4, 2], [], [9, 6, 7]]",
       "3 * var * ?int64"},
      {"x sum axis 1 keepdims", jgt_rc_nested, JG_REDUCE_SUM, 1, 0, true,
       "[[[4, 2]], [[]], [[9, 6, 7]]]", "3 * 1 * var * int64"},
      {"x argmax axis 1 keepdims", jgt_rc_nested, JG_REDUCE_ARGMAX, 1, 0, true,
       "[[[1, 0]], [[]], [[2, 2, 2]]]", "3 * 1 * var * ?int64"},
      {"x sum axis 0 keepdims", jgt_rc_nested, JG_REDUCE_SUM, 0, 0, true,
       "[[[5, 2], [3], [5, 6, 7]]]", "1 * 3 * var * int64"},

      /* Two levels at axis 0; four levels at axis 1; no lists. */
      {"two sum axis 0", jgt_ra_two, JG_REDUCE_SUM, 0, 0, false, "[5.5, 7, 0.25]", "3 * float64"},
      {"two argmax axis 0", jgt_ra_two, JG_REDUCE_ARGMAX, 0, 0, false, "[2, 2, 2]", "3 * ?int64"},
      {"two min axis 0 keepdims", jgt_ra_two, JG_REDUCE_MIN, 0, 0, true, "[[1.5, 2, 0.25]]",
       "1 * 3 * ?float64"},
      {"small int32 sum axis 0", jgt_rc_small_i32, JG_REDUCE_SUM, 0, 0, false, "[5, 7, 3]",
       "3 * int64"},
      {"four sum axis 1", jgt_ra_four, JG_REDUCE_SUM, 1, 0, false, "[[[5, 5, 6], [2, 3]], [[7]]]",
       "2 * var * var * int64"},
      {"four max axis 0", jgt_ra_four, JG_REDUCE_MAX, 0, 0, false, "[[[7], [2, 3]], [[4, 5, 6]]]",
       "2 * var * var * ?int32"},
      {"four sum axis 2", jgt_ra_four, JG_REDUCE_SUM, 2, 0, false, "[[[3, 3], [4, 5, 6]], [[7]]]",
       "2 * var * var * int64"},
      {"no lists sum axis 0", jgt_ra_empty, JG_REDUCE_SUM, 0, 0, false, "[]", "0 * var * float64"},
      {"no lists argmax axis 1", jgt_ra_empty, JG_REDUCE_ARGMAX, 1, 0, false, "[]",
       "0 * var * ?int64"},

      /* None lists above the axis stay None. */
      {"None sum axis 1", jgt_ra_none, JG_REDUCE_SUM, 1, 0, false,
       "[[4, 2], None, [], [9, 6, 7]]", "4 * option[var * int64]"},
      {"None argmin axis 1", jgt_ra_none, JG_REDUCE_ARGMIN, 1, 0, false,
       "[[0, 0], None, [], [0, 2, 2]]", "4 * option[var * ?int64]"},
      /* None lists at the axis contribute nothing; positions count them. */
      {"None sum axis 0", jgt_ra_none, JG_REDUCE_SUM, 0, 0, false, "[[5, 2], [3], [5, 6, 7]]",
       "3 * var * int64"},
      {"None argmax axis 0", jgt_ra_none, JG_REDUCE_ARGMAX, 0, 0, false,
       "[[3, 0], [0], [3, 3, 3]]", "3 * var * ?int64"},
      {"None min axis 0 keepdims", jgt_ra_none, JG_REDUCE_MIN, 0, -1, true,
       "[[[1, 2], [3], [5, 6, 7]]]", "1 * 3 * var * int64"},
  };
  *count = sizeof cases / sizeof cases[0];
  return cases;
}

static inline jg_status jgt_ra_run(const jgt_racase *c, const jg_array *a, jg_stream stream,
                                   jg_array **out, jg_error *err) {
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  o.axis = c->axis;
  o.mask_identity = c->mask_identity;
  o.keepdims = c->keepdims;
  o.stream = stream;
  return jg_array_reduce(a, c->r, &o, out, err);
}

#endif /* JAGGED_TESTS_JGT_REDUCE_AXIS_CASES_H */
