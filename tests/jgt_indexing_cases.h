/* jgt_indexing_cases.h: the table of masks, integer indexing, slices, firsts/lasts and
 * local_index (indexing.h) run on the host by tests/unit/test_indexing.c and on the GPU by
 * tests/gpu/test_indexing_gpu.c (after jg_array_to_device of the array and the selector), with
 * host input builders.
 *
 * Every expected value, type and message was worked out by hand from Awkward Array 2.x's
 * semantics (../shared/notes/awkward.md 6.3 and 6.5: a[mask], a[index], a[:, start:stop:step],
 * ak.firsts, ak.local_index), except where issue 5 differs: a mask or jagged index whose list
 * lengths differ from the array's is an error (JG_ESHAPE naming the list and both lengths).
 * Values print as jg_array_to_string writes them. */
#ifndef JAGGED_TESTS_JGT_INDEXING_CASES_H
#define JAGGED_TESTS_JGT_INDEXING_CASES_H

#include <stdbool.h>

#include "jagged/indexing.h"
#include "jgt_array_cases.h"

/* ------------------------------------------------------------------------------------------ */
/* Builders (host arrays; each returns a new reference)                                        */
/* ------------------------------------------------------------------------------------------ */

#define JGT_BOOLS(...)                                                             \
  jgt_numeric((const bool[]){__VA_ARGS__},                                         \
              (jg_len)(sizeof((const bool[]){__VA_ARGS__}) / sizeof(bool)), JG_DTYPE_BOOL)
#define JGT_INTS(...) jgt_i64(JGT_I64(__VA_ARGS__), JGT_N(__VA_ARGS__))

/* [[1, 2, 3], [], [4, 5]] */
static inline jg_array *jgt_ix_small(void) {
  return JGT_OFFSETS(JGT_INTS(1, 2, 3, 4, 5), 0, 3, 3, 5);
}

/* The nested case [[[0, 1, 2]], [[], [3, 4]], [], [[5], [6, 7, 8, 9]]]. */
static inline jg_array *jgt_ix_nested(void) {
  jg_array *inner = JGT_OFFSETS(JGT_INTS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), 0, 3, 3, 5, 6, 10);
  return JGT_OFFSETS(inner, 0, 1, 3, 3, 5);
}

/* Its "is even" mask, computed from the same offsets by a plain loop over the values. */
static inline jg_array *jgt_ix_nested_even(void) {
  bool even[10];
  for (int k = 0; k < 10; k++) even[k] = k % 2 == 0;
  jg_array *inner = JGT_OFFSETS(jgt_numeric(even, 10, JG_DTYPE_BOOL), 0, 3, 3, 5, 6, 10);
  return JGT_OFFSETS(inner, 0, 1, 3, 3, 5);
}

/* The second case: [[0, 1, 2], [3, 4]] and the mask offsets [0, 3, 5] over
 * [T, F, F, T, T, F, F] (two values past the last list). */
static inline jg_array *jgt_ix_two(void) {
  return JGT_OFFSETS(JGT_INTS(0, 1, 2, 3, 4), 0, 3, 5);
}
static inline jg_array *jgt_ix_two_mask(void) {
  return JGT_OFFSETS(JGT_BOOLS(true, false, false, true, true, false, false), 0, 3, 5);
}

static inline jg_array *jgt_ix_event_mask(void) { return JGT_BOOLS(true, false, true); }
static inline jg_array *jgt_ix_event_short(void) { return JGT_BOOLS(true, false); }

/* [[T, None, F], [], [None, T]] (byte-masked, valid when nonzero). */
static inline jg_array *jgt_ix_option_mask(void) {
  static const int8_t valid[] = {1, 0, 1, 0, 1};
  return JGT_OFFSETS(jgt_byte_masked(valid, 5, true, JGT_BOOLS(true, true, false, false, true)),
                     0, 3, 3, 5);
}

/* [[{x: 1, y: 1.5}, {x: 2, y: 2.5}], [{x: 3, y: 3.5}], []] */
static inline jg_array *jgt_ix_records(void) {
  jg_array *f[2] = {JGT_INTS(1, 2, 3), jgt_numeric((const double[]){1.5, 2.5, 3.5}, 3,
                                                   JG_DTYPE_FLOAT64)};
  static const char *const names[2] = {"x", "y"};
  return JGT_OFFSETS(jgt_record(2, f, names, -1), 0, 2, 3, 3);
}
static inline jg_array *jgt_ix_records_mask(void) {
  return JGT_OFFSETS(JGT_BOOLS(false, true, true), 0, 2, 3, 3);
}

/* [[1], [2, 3], [4, 5, 6]] as offsets [1, 2, 4, 7] over 7 values (the first unreachable). */
static inline jg_array *jgt_ix_offsets_not_zero(void) {
  return JGT_OFFSETS(JGT_INTS(99, 1, 2, 3, 4, 5, 6), 1, 2, 4, 7);
}
static inline jg_array *jgt_ix_offsets_not_zero_mask(void) {
  return JGT_OFFSETS(JGT_BOOLS(false, true, false, true, true, false), 0, 1, 3, 6);
}

/* [[1, 2, 3], [], [4, 5], [6]][1:3] = [[], [4, 5]] */
static inline jg_array *jgt_ix_sliced(void) {
  return jgt_slice(JGT_OFFSETS(JGT_INTS(1, 2, 3, 4, 5, 6), 0, 3, 3, 5, 6), 1, 3);
}
static inline jg_array *jgt_ix_sliced_mask(void) {
  return JGT_OFFSETS(JGT_BOOLS(false, true), 0, 0, 2);
}

/* A list node, starts [3, 0, 2] and stops [5, 2, 2] over [10, 11, 12, 13, 14]:
 * [[13, 14], [10, 11], []]. */
static inline jg_array *jgt_ix_list_node(void) {
  return jgt_list(JGT_I64(3, 0, 2), JGT_I64(5, 2, 2), 3, 3, JG_DTYPE_INT64,
                  JGT_INTS(10, 11, 12, 13, 14));
}
static inline jg_array *jgt_ix_list_node_mask(void) {
  return JGT_OFFSETS(JGT_BOOLS(true, false, false, true), 0, 2, 4, 4);
}

/* [[1, 2], None, [3]]: a byte mask over [[1, 2], [9], [3]]. */
static inline jg_array *jgt_ix_none_list(void) {
  static const int8_t valid[] = {1, 0, 1};
  return jgt_byte_masked(valid, 3, true, JGT_OFFSETS(JGT_INTS(1, 2, 9, 3), 0, 2, 3, 4));
}
/* [[F, T], [], [T]] (the None list's mask list is empty) */
static inline jg_array *jgt_ix_none_list_mask(void) {
  return JGT_OFFSETS(JGT_BOOLS(false, true, true), 0, 2, 2, 3);
}

/* Masks that do not fit [[1, 2, 3], [], [4, 5]]. */
static inline jg_array *jgt_ix_short_mask(void) {
  return JGT_OFFSETS(JGT_BOOLS(true, false, true, true), 0, 2, 2, 4);
}
static inline jg_array *jgt_ix_long_mask(void) {
  return JGT_OFFSETS(JGT_BOOLS(true, false, true, true, true, false), 0, 3, 3, 6);
}
static inline jg_array *jgt_ix_int_mask(void) {
  return JGT_OFFSETS(jgt_numeric((const int32_t[]){1, 0, 1, 1, 1}, 5, JG_DTYPE_INT32), 0, 3, 3,
                     5);
}
static inline jg_array *jgt_ix_deep_mask(void) {
  jg_array *inner = JGT_OFFSETS(JGT_BOOLS(true, false, true, true, false), 0, 1, 2, 3, 4, 5);
  return JGT_OFFSETS(inner, 0, 3, 3, 5);
}
/* A mask list too short at depth 2 of the nested case: list 1 of level 2 has 0 entries, not 0;
 * list 2 (of level 2) has 1 entry where the array has 2. */
static inline jg_array *jgt_ix_nested_short(void) {
  jg_array *inner = JGT_OFFSETS(JGT_BOOLS(true, true, true, true, true, true, true, true, true),
                                0, 3, 3, 4, 5, 9);
  return JGT_OFFSETS(inner, 0, 1, 3, 3, 5);
}

/* Integer indices of [[1, 2, 3], [], [4, 5]]. */
static inline jg_array *jgt_ix_index(void) { return JGT_OFFSETS(JGT_INTS(2, 0, 1), 0, 2, 2, 3); }
static inline jg_array *jgt_ix_index_neg(void) {
  return JGT_OFFSETS(JGT_INTS(-1, -2, 0), 0, 1, 1, 3);
}
static inline jg_array *jgt_ix_index_i32(void) {
  return JGT_OFFSETS(jgt_numeric((const int32_t[]){0, 0, -1}, 3, JG_DTYPE_INT32), 0, 2, 2, 3);
}
static inline jg_array *jgt_ix_index_oor(void) { return JGT_OFFSETS(JGT_INTS(3, 1), 0, 1, 1, 2); }
static inline jg_array *jgt_ix_index_oor_neg(void) {
  return JGT_OFFSETS(JGT_INTS(0, -3), 0, 1, 1, 2);
}
/* argmax with keepdims: [[2], [None], [1]] (regular of size 1 over a byte-masked int64). */
static inline jg_array *jgt_ix_keepdims(void) {
  static const int8_t valid[] = {1, 0, 1};
  return jgt_regular(jgt_byte_masked(valid, 3, true, JGT_INTS(2, -1, 1)), 1, -1);
}
static inline jg_array *jgt_ix_outer(void) { return JGT_INTS(2, 0, -1); }
static inline jg_array *jgt_ix_outer_oor(void) { return JGT_INTS(1, 3); }
static inline jg_array *jgt_ix_float_index(void) {
  return jgt_numeric((const double[]){0.0}, 1, JG_DTYPE_FLOAT64);
}
/* Index [[1], [], [0]] into the list node [[13, 14], [10, 11], []]: list 2 is empty. */
static inline jg_array *jgt_ix_list_node_index(void) {
  return JGT_OFFSETS(JGT_INTS(1, -1, 0), 0, 2, 3, 3);
}
/* [[0], None-list's [], [0]] on [[1, 2], None, [3]]: gives [[1], None, [3]]. */
static inline jg_array *jgt_ix_none_list_index(void) {
  return JGT_OFFSETS(JGT_INTS(0, 0), 0, 1, 1, 2);
}
/* Depth-2 index of the nested case: [[[2]], [[], [-1]], [], [[0], [3, 0]]]. */
static inline jg_array *jgt_ix_nested_index(void) {
  jg_array *inner = JGT_OFFSETS(JGT_INTS(2, -1, 0, 3, 0), 0, 1, 1, 2, 3, 5);
  return JGT_OFFSETS(inner, 0, 1, 3, 3, 5);
}

/* [[[1, 2, 3], [4]], [], [[5, 6]]] */
static inline jg_array *jgt_ix_deep(void) {
  jg_array *inner = JGT_OFFSETS(JGT_INTS(1, 2, 3, 4, 5, 6), 0, 3, 4, 6);
  return JGT_OFFSETS(inner, 0, 2, 2, 3);
}

/* [[1, 2, 3], [], [4, 5], None] */
static inline jg_array *jgt_ix_with_none(void) {
  static const int8_t valid[] = {1, 1, 1, 0};
  return jgt_byte_masked(valid, 4, true, JGT_OFFSETS(JGT_INTS(1, 2, 3, 4, 5, 7), 0, 3, 3, 5, 6));
}
/* [[], []] with no values at all */
static inline jg_array *jgt_ix_all_empty(void) { return JGT_OFFSETS(JGT_INTS(0), 0, 0, 0); }
/* [[[1, 2], []], [[3]]] */
static inline jg_array *jgt_ix_two_deep(void) {
  jg_array *inner = JGT_OFFSETS(JGT_INTS(1, 2, 3), 0, 2, 2, 3);
  return JGT_OFFSETS(inner, 0, 2, 3);
}
/* [[1.5, 2.5], [3.5]] of 2-D float32 rows [[a, b], ...]: numeric data of shape (3, 2). */
static inline jg_array *jgt_ix_rows(void) {
  const float v[6] = {1, 2, 3, 4, 5, 6};
  const jg_len shape[2] = {3, 2};
  jg_array *num = jgt_numeric_view(jgt_view_ex(v, 6, JG_DTYPE_FLOAT32, 2, shape, NULL, 0));
  return JGT_OFFSETS(num, 0, 2, 3);
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef enum jgt_ix_op {
  JGT_IX_MASK,
  JGT_IX_TAKE,
  JGT_IX_SLICE,
  JGT_IX_FIRSTS,
  JGT_IX_LASTS,
  JGT_IX_LOCAL
} jgt_ix_op;

typedef struct jgt_ixcase {
  const char *name;
  jgt_ix_op op;
  jg_array *(*make)(void);
  jg_array *(*sel)(void); /* mask or index; NULL for the axis operations */
  int64_t axis, start, stop, step;
  unsigned flags;
  jg_status status;
  const char *value; /* the result's jg_array_to_string, or a part of the error message */
  const char *type;  /* the result's type, or NULL for errors */
  int64_t index;     /* err.index for errors */
} jgt_ixcase;

#define JGT_IX_OK(name, op, make, sel, value, type) \
  {name, op, make, sel, 0, 0, 0, 1, 0, JG_OK, value, type, -1}
#define JGT_IX_AXIS(name, op, make, axis, value, type) \
  {name, op, make, NULL, axis, 0, 0, 1, 0, JG_OK, value, type, -1}
#define JGT_IX_SL(name, make, axis, start, stop, step, flags, value, type) \
  {name, JGT_IX_SLICE, make, NULL, axis, start, stop, step, flags, JG_OK, value, type, -1}
#define JGT_IX_ERR(name, op, make, sel, status, msg, index) \
  {name, op, make, sel, 0, 0, 0, 1, 0, status, msg, NULL, index}

#define JGT_SS (JG_SLICE_START | JG_SLICE_STOP)

static inline const jgt_ixcase *jgt_indexing_cases(size_t *count) {
  static const jgt_ixcase cases[] = {
      /* The cases. */
      JGT_IX_OK("issue: nested filtered by its own is-even mask", JGT_IX_MASK, jgt_ix_nested,
                jgt_ix_nested_even, "[[[0, 2]], [[], [4]], [], [[], [6, 8]]]",
                "4 * var * var * int64"),
      JGT_IX_OK("issue: mask offsets [0, 3, 5] over 7 bools", JGT_IX_MASK, jgt_ix_two,
                jgt_ix_two_mask, "[[0], [3, 4]]", "2 * var * int64"),
      /* Masks. */
      JGT_IX_OK("event mask", JGT_IX_MASK, jgt_ix_small, jgt_ix_event_mask,
                "[[1, 2, 3], [4, 5]]", "2 * var * int64"),
      JGT_IX_OK("mask with None", JGT_IX_MASK, jgt_ix_small, jgt_ix_option_mask,
                "[[1, None], [], [None, 5]]", "3 * var * ?int64"),
      JGT_IX_OK("records through a mask", JGT_IX_MASK, jgt_ix_records, jgt_ix_records_mask,
                "[[{x: 2, y: 2.5}], [{x: 3, y: 3.5}], []]", "3 * var * {x: int64, y: float64}"),
      JGT_IX_OK("offsets not at 0", JGT_IX_MASK, jgt_ix_offsets_not_zero,
                jgt_ix_offsets_not_zero_mask, "[[], [2], [4, 5]]", "3 * var * int64"),
      JGT_IX_OK("sliced array", JGT_IX_MASK, jgt_ix_sliced, jgt_ix_sliced_mask, "[[], [5]]",
                "2 * var * int64"),
      JGT_IX_OK("list node, starts in any order", JGT_IX_MASK, jgt_ix_list_node,
                jgt_ix_list_node_mask, "[[13], [11], []]", "3 * var * int64"),
      JGT_IX_OK("None list stays None", JGT_IX_MASK, jgt_ix_none_list, jgt_ix_none_list_mask,
                "[[2], None, [3]]", "3 * option[var * int64]"),
      JGT_IX_OK("event mask on records", JGT_IX_MASK, jgt_ix_records, jgt_ix_event_mask,
                "[[{x: 1, y: 1.5}, {x: 2, y: 2.5}], []]", "2 * var * {x: int64, y: float64}"),
      JGT_IX_OK("event mask on 2-D rows", JGT_IX_MASK, jgt_ix_rows, jgt_ix_event_short,
                "[[[1, 2], [3, 4]]]", "1 * var * 2 * float32"),
      JGT_IX_ERR("short mask list", JGT_IX_MASK, jgt_ix_small, jgt_ix_short_mask, JG_ESHAPE,
                 "mask list 0 has 2 entries, the array's list 0 has 3", 0),
      JGT_IX_ERR("long mask list", JGT_IX_MASK, jgt_ix_small, jgt_ix_long_mask, JG_ESHAPE,
                 "mask list 2 has 3 entries, the array's list 2 has 2", 2),
      JGT_IX_ERR("short event mask", JGT_IX_MASK, jgt_ix_small, jgt_ix_event_short, JG_ESHAPE,
                 "the mask has 2 entries, the array 3", -1),
      JGT_IX_ERR("short mask at depth 2", JGT_IX_MASK, jgt_ix_nested, jgt_ix_nested_short,
                 JG_ESHAPE, "mask list 2 at depth 2 has 1 entry, the array's list 2 at depth 2 "
                 "has 2", 2),
      JGT_IX_ERR("int32 mask", JGT_IX_MASK, jgt_ix_small, jgt_ix_int_mask, JG_EDTYPE,
                 "the mask's values are int32; a mask must be bool", -1),
      JGT_IX_ERR("mask deeper than the array", JGT_IX_MASK, jgt_ix_small, jgt_ix_deep_mask,
                 JG_ESHAPE, "the mask has 2 list levels, the array only 1", -1),
      /* Integer indices. */
      JGT_IX_OK("jagged index", JGT_IX_TAKE, jgt_ix_small, jgt_ix_index, "[[3, 1], [], [5]]",
                "3 * var * int64"),
      JGT_IX_OK("negative jagged index", JGT_IX_TAKE, jgt_ix_small, jgt_ix_index_neg,
                "[[3], [], [4, 4]]", "3 * var * int64"),
      JGT_IX_OK("int32 jagged index", JGT_IX_TAKE, jgt_ix_small, jgt_ix_index_i32,
                "[[1, 1], [], [5]]", "3 * var * int64"),
      JGT_IX_OK("argmax keepdims as an index", JGT_IX_TAKE, jgt_ix_small, jgt_ix_keepdims,
                "[[3], [None], [5]]", "3 * var * ?int64"),
      JGT_IX_OK("outer gather", JGT_IX_TAKE, jgt_ix_small, jgt_ix_outer,
                "[[4, 5], [1, 2, 3], [4, 5]]", "3 * var * int64"),
      JGT_IX_OK("index into a list node", JGT_IX_TAKE, jgt_ix_list_node, jgt_ix_list_node_index,
                "[[14, 14], [10], []]", "3 * var * int64"),
      JGT_IX_OK("index of a None list", JGT_IX_TAKE, jgt_ix_none_list, jgt_ix_none_list_index,
                "[[1], None, [3]]", "3 * option[var * int64]"),
      JGT_IX_OK("depth-2 index", JGT_IX_TAKE, jgt_ix_nested, jgt_ix_nested_index,
                "[[[2]], [[], [4]], [], [[5], [9, 6]]]", "4 * var * var * int64"),
      JGT_IX_OK("records through an index", JGT_IX_TAKE, jgt_ix_records, jgt_ix_outer,
                "[[], [{x: 1, y: 1.5}, {x: 2, y: 2.5}], []]",
                "3 * var * {x: int64, y: float64}"),
      JGT_IX_ERR("index out of range", JGT_IX_TAKE, jgt_ix_small, jgt_ix_index_oor, JG_EINDEX,
                 "index 3 is out of range for list 0 of 3 entries", 0),
      JGT_IX_ERR("negative index out of range", JGT_IX_TAKE, jgt_ix_small, jgt_ix_index_oor_neg,
                 JG_EINDEX, "index -3 is out of range for list 2 of 2 entries", 2),
      JGT_IX_ERR("outer index out of range", JGT_IX_TAKE, jgt_ix_small, jgt_ix_outer_oor,
                 JG_EINDEX, "index 3 at position 1 is out of range for an array of 3 entries",
                 1),
      JGT_IX_ERR("float index", JGT_IX_TAKE, jgt_ix_small, jgt_ix_float_index, JG_EDTYPE,
                 "an index must be int32 or int64", -1),
      JGT_IX_ERR("short jagged index", JGT_IX_TAKE, jgt_ix_small, jgt_ix_event_short, JG_EDTYPE,
                 "the index's values are bool", -1),
      /* Slices. */
      JGT_IX_SL("x[:, :1]", jgt_ix_small, 1, 0, 1, 1, JG_SLICE_STOP, "[[1], [], [4]]",
                "3 * var * int64"),
      JGT_IX_SL("x[:, ::-1]", jgt_ix_small, 1, 0, 0, -1, 0, "[[3, 2, 1], [], [5, 4]]",
                "3 * var * int64"),
      JGT_IX_SL("x[:, 1:]", jgt_ix_small, 1, 1, 0, 1, JG_SLICE_START, "[[2, 3], [], [5]]",
                "3 * var * int64"),
      JGT_IX_SL("x[:, -2:]", jgt_ix_small, 1, -2, 0, 1, JG_SLICE_START, "[[2, 3], [], [4, 5]]",
                "3 * var * int64"),
      JGT_IX_SL("x[:, ::2]", jgt_ix_small, 1, 0, 0, 2, 0, "[[1, 3], [], [4]]", "3 * var * int64"),
      JGT_IX_SL("x[:, -1::-2]", jgt_ix_small, -1, -1, 0, -2, JG_SLICE_START, "[[3, 1], [], [5]]",
                "3 * var * int64"),
      JGT_IX_SL("x[:, 5:10]", jgt_ix_small, 1, 5, 10, 1, JGT_SS, "[[], [], []]",
                "3 * var * int64"),
      JGT_IX_SL("x[:, 2:0:-1]", jgt_ix_small, 1, 2, 0, -1, JGT_SS, "[[3, 2], [], [5]]",
                "3 * var * int64"),
      JGT_IX_SL("depth 2 x[:, :, ::-1]", jgt_ix_deep, 2, 0, 0, -1, 0,
                "[[[3, 2, 1], [4]], [], [[6, 5]]]", "3 * var * var * int64"),
      JGT_IX_SL("depth 2 axis -1 [1::-1]", jgt_ix_deep, -1, 1, 0, -1, JG_SLICE_START,
                "[[[2, 1], [4]], [], [[6, 5]]]", "3 * var * var * int64"),
      JGT_IX_SL("depth 2 x[:, ::-1]", jgt_ix_deep, 1, 0, 0, -1, 0,
                "[[[4], [1, 2, 3]], [], [[5, 6]]]", "3 * var * var * int64"),
      JGT_IX_SL("axis 0 [::-1]", jgt_ix_deep, 0, 0, 0, -1, 0,
                "[[[5, 6]], [], [[1, 2, 3], [4]]]", "3 * var * var * int64"),
      JGT_IX_SL("offsets not at 0 [:, 1:]", jgt_ix_offsets_not_zero, 1, 1, 0, 1, JG_SLICE_START,
                "[[], [3], [5, 6]]", "3 * var * int64"),
      JGT_IX_SL("list node [:, ::-1]", jgt_ix_list_node, 1, 0, 0, -1, 0,
                "[[14, 13], [11, 10], []]", "3 * var * int64"),
      JGT_IX_SL("None list [:, :1]", jgt_ix_with_none, 1, 0, 1, 1, JG_SLICE_STOP,
                "[[1], [], [4], None]", "4 * option[var * int64]"),
      JGT_IX_SL("records [:, 1:]", jgt_ix_records, 1, 1, 0, 1, JG_SLICE_START,
                "[[{x: 2, y: 2.5}], [], []]", "3 * var * {x: int64, y: float64}"),
      {"step 0", JGT_IX_SLICE, jgt_ix_small, NULL, 1, 0, 0, 0, 0, JG_EINVAL, "slice step is 0",
       NULL, -1},
      {"axis beyond the depth", JGT_IX_SLICE, jgt_ix_deep, NULL, 3, 0, 0, 1, 0, JG_ESHAPE,
       "axis 3 exceeds the depth of the nested list structure (which is 2)", NULL, -1},
      /* The regular dimension of numeric data under lists counts as a level (var * 2 * T). */
      JGT_IX_SL("2-D rows [:, :, 1:]", jgt_ix_rows, 2, 1, 0, 1, JG_SLICE_START,
                "[[[2], [4]], [[6]]]", "2 * var * 1 * float32"),
      JGT_IX_SL("2-D rows [..., ::-1]", jgt_ix_rows, -1, 0, 0, -1, 0,
                "[[[2, 1], [4, 3]], [[6, 5]]]", "2 * var * 2 * float32"),
      JGT_IX_SL("2-D rows axis -2 [:, 1:]", jgt_ix_rows, -2, 1, 0, 1, JG_SLICE_START,
                "[[[3, 4]], []]", "2 * var * 2 * float32"),
      {"2-D rows axis beyond the depth", JGT_IX_SLICE, jgt_ix_rows, NULL, 3, 0, 0, 1, 0,
       JG_ESHAPE, "axis 3 exceeds the depth of the nested list structure (which is 2)", NULL,
       -1},
      {"firsts at a numeric dimension", JGT_IX_FIRSTS, jgt_ix_rows, NULL, 2, 0, 0, 1, 0,
       JG_ENOTSUP, "regular dimension of numeric data", NULL, -1},
      /* firsts, lasts. */
      JGT_IX_AXIS("firsts", JGT_IX_FIRSTS, jgt_ix_with_none, 1, "[1, None, 4, None]",
                  "4 * ?int64"),
      JGT_IX_AXIS("lasts", JGT_IX_LASTS, jgt_ix_with_none, 1, "[3, None, 5, None]",
                  "4 * ?int64"),
      JGT_IX_AXIS("firsts axis -1", JGT_IX_FIRSTS, jgt_ix_small, -1, "[1, None, 4]",
                  "3 * ?int64"),
      JGT_IX_AXIS("firsts axis 2", JGT_IX_FIRSTS, jgt_ix_two_deep, 2, "[[1, None], [3]]",
                  "2 * var * ?int64"),
      JGT_IX_AXIS("lasts of a list node", JGT_IX_LASTS, jgt_ix_list_node, 1, "[14, 11, None]",
                  "3 * ?int64"),
      JGT_IX_AXIS("firsts of records", JGT_IX_FIRSTS, jgt_ix_records, 1,
                  "[{x: 1, y: 1.5}, {x: 3, y: 3.5}, None]", "3 * ?{x: int64, y: float64}"),
      JGT_IX_AXIS("firsts with no values", JGT_IX_FIRSTS, jgt_ix_all_empty, 1, "[None, None]",
                  "2 * ?int64"),
      {"firsts axis 0", JGT_IX_FIRSTS, jgt_ix_small, NULL, 0, 0, 0, 1, 0, JG_EINVAL,
       "axis 0 has no lists", NULL, -1},
      /* local_index. */
      JGT_IX_AXIS("local_index", JGT_IX_LOCAL, jgt_ix_with_none, 1, "[[0, 1, 2], [], [0, 1], None]",
                  "4 * option[var * int64]"),
      JGT_IX_AXIS("local_index axis 0", JGT_IX_LOCAL, jgt_ix_with_none, 0, "[0, 1, 2, 3]",
                  "4 * int64"),
      JGT_IX_AXIS("local_index axis -1, depth 2", JGT_IX_LOCAL, jgt_ix_deep, -1,
                  "[[[0, 1, 2], [0]], [], [[0, 1]]]", "3 * var * var * int64"),
      JGT_IX_AXIS("local_index axis 1, depth 2", JGT_IX_LOCAL, jgt_ix_deep, 1,
                  "[[0, 1], [], [0]]", "3 * var * int64"),
      JGT_IX_AXIS("local_index of a list node", JGT_IX_LOCAL, jgt_ix_list_node, 1,
                  "[[0, 1], [0, 1], []]", "3 * var * int64"),
      JGT_IX_AXIS("local_index of a sliced array", JGT_IX_LOCAL, jgt_ix_sliced, 1,
                  "[[], [0, 1]]", "2 * var * int64"),
  };
  *count = sizeof cases / sizeof cases[0];
  return cases;
}

/* Runs case `c` on `a` and `s` (the selector, may be NULL). */
static inline jg_status jgt_ix_run(const jgt_ixcase *c, const jg_array *a, const jg_array *s,
                                   jg_stream stream, jg_array **out, jg_error *err) {
  switch (c->op) {
    case JGT_IX_MASK:
      return jg_array_mask(a, s, stream, out, err);
    case JGT_IX_TAKE:
      return jg_array_take(a, s, stream, out, err);
    case JGT_IX_SLICE:
      return jg_array_slice_axis(a, c->axis, c->start, c->stop, c->step, c->flags, stream, out,
                                 err);
    case JGT_IX_FIRSTS:
      return jg_array_firsts(a, c->axis, stream, out, err);
    case JGT_IX_LASTS:
      return jg_array_lasts(a, c->axis, stream, out, err);
    case JGT_IX_LOCAL:
      return jg_array_local_index(a, c->axis, stream, out, err);
  }
  return JG_EINVAL;
}

#endif /* JAGGED_TESTS_JGT_INDEXING_CASES_H */
