/* jgt_structure_cases.h: the table of structure operations (structure.h) run on the host by
 * tests/unit/test_structure.c and on the GPU by tests/gpu/test_structure_gpu.c (after
 * jg_array_to_device), with host input builders.
 *
 * Every expected value and type was worked out by hand from Awkward Array 2.x's semantics
 * (../shared/notes/awkward.md 6.1 and 6.5): flatten drops None lists (axis None every None),
 * unflatten's counts must add up, singletons, pad_none with and without clip, fill_none at the
 * option level with NumPy promotion, is_none, drop_none, concatenate at axis 1 (length-1
 * broadcast, int + float, records by field, options kept) and axis 0, argsort / sort (stable,
 * NaN after numbers, None last, descending). Inputs cover offsets not at 0, list nodes with
 * starts/stops out of order, sliced arrays, byte / bit / indexed options. Values print as
 * jg_array_to_string writes them. */
#ifndef JAGGED_TESTS_JGT_STRUCTURE_CASES_H
#define JAGGED_TESTS_JGT_STRUCTURE_CASES_H

#include <math.h>

#include "jagged/structure.h"
#include "jgt_array_cases.h"

/* ------------------------------------------------------------------------------------------ */
/* Input builders (host arrays; each returns a new reference)                                  */
/* ------------------------------------------------------------------------------------------ */

#define JGT_SC_I64(...)                                              \
  jgt_i64((const int64_t[]){__VA_ARGS__},                           \
          (jg_len)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define JGT_SC_F64(...)                                                                  \
  jgt_numeric((const double[]){__VA_ARGS__},                                            \
              (jg_len)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double)),         \
              JG_DTYPE_FLOAT64)
#define JGT_SC_OFF(content, ...)                                              \
  jgt_offsets64((const int64_t[]){__VA_ARGS__},                              \
                (jg_len)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), content)
#define JGT_SC_MASK(content, ...)                                                        \
  jgt_byte_masked((const int8_t[]){__VA_ARGS__},                                        \
                  (jg_len)(sizeof((const int8_t[]){__VA_ARGS__}) / sizeof(int8_t)), true, \
                  content)

/* [1, None, 3] (byte mask). */
static inline jg_array *jgt_sc_opt(void) { return JGT_SC_MASK(JGT_SC_I64(1, 99, 3), 1, 0, 1); }

/* [[1, None], None, [2]]: a byte-masked list-offset array of byte-masked int64. */
static inline jg_array *jgt_sc_none_lists(void) {
  jg_array *inner = JGT_SC_MASK(JGT_SC_I64(1, 99, 2), 1, 0, 1);
  return JGT_SC_MASK(JGT_SC_OFF(inner, 0, 2, 2, 3), 1, 0, 1);
}

/* [[1, 2, 3], [], [4, 5]] as offsets [2, 5, 5, 7] over 8 values (two before, one after). */
static inline jg_array *jgt_sc_offsets_not0(void) {
  return JGT_SC_OFF(JGT_SC_I64(-1, -1, 1, 2, 3, 4, 5, 99), 2, 5, 5, 7);
}

/* [[4, 5], [1, 2, 3], []] as a list node: starts [3, 0, 9], stops [5, 3, 9]. */
static inline jg_array *jgt_sc_list_node(void) {
  static const int64_t starts[] = {3, 0, 9}, stops[] = {5, 3, 9};
  return jgt_list(starts, stops, 3, 3, JG_DTYPE_INT64, JGT_SC_I64(1, 2, 3, 4, 5));
}

/* [[], [4, 5]]: jgt_sc_offsets_not0 sliced [1, 3). */
static inline jg_array *jgt_sc_sliced(void) { return jgt_slice(jgt_sc_offsets_not0(), 1, 3); }

/* [[], []] of float64 with offsets [3, 3, 3]. */
static inline jg_array *jgt_sc_all_empty(void) { return JGT_SC_OFF(JGT_SC_F64(1.5), 0, 0, 0); }

/* [[[1, 2], [3]], [], [[4]]]. */
static inline jg_array *jgt_sc_nested(void) {
  return JGT_SC_OFF(JGT_SC_OFF(JGT_SC_I64(1, 2, 3, 4), 0, 2, 3, 4), 0, 2, 2, 3);
}

/* [[1, None], [], [None, 3]]: lists of a bit-masked option (LSB, valid when set). */
static inline jg_array *jgt_sc_inner_none(void) {
  static const uint8_t bits[] = {0x9}; /* entries 0 and 3 valid */
  jg_array *o = jgt_bit_masked(bits, 1, true, true, 4, JGT_SC_I64(1, 7, 8, 3));
  return JGT_SC_OFF(o, 0, 2, 2, 4);
}

/* [[1, None, 2], [], [None]]: lists of an indexed option. */
static inline jg_array *jgt_sc_inner_indexed(void) {
  static const int64_t idx[] = {0, -1, 2, -1};
  jg_array *o = jgt_indexed(idx, 4, JG_DTYPE_INT64, JGT_SC_I64(1, 99, 2));
  return JGT_SC_OFF(o, 0, 3, 3, 4);
}

/* [[3, 1, 2], [], [2, nan, 1, None]] as float64 with a byte mask. */
static inline jg_array *jgt_sc_sortable(void) {
  jg_array *o = JGT_SC_MASK(JGT_SC_F64(3, 1, 2, 2, NAN, 1, 0), 1, 1, 1, 1, 1, 1, 0);
  return JGT_SC_OFF(o, 0, 3, 3, 7);
}

/* [[3, 1, 3, 1]] int32 (ties) */
static inline jg_array *jgt_sc_ties(void) {
  static const int32_t v[] = {3, 1, 3, 1};
  return JGT_SC_OFF(jgt_numeric(v, 4, JG_DTYPE_INT32), 0, 4);
}

/* [[[3, 1], [2]], [], [[5, 4, 6]]]. */
static inline jg_array *jgt_sc_nested_sort(void) {
  return JGT_SC_OFF(JGT_SC_OFF(JGT_SC_I64(3, 1, 2, 5, 4, 6), 0, 2, 3, 6), 0, 2, 2, 3);
}

/* Muons [[{pt: 1, eta: 0.5}], []] and electrons [[{eta: 1.5, pt: 2}], [{eta: 2.5, pt: 3}]]. */
static inline jg_array *jgt_sc_muons(void) {
  static const char *const names[] = {"pt", "eta"};
  jg_array *f[2] = {JGT_SC_I64(1), JGT_SC_F64(0.5)};
  return JGT_SC_OFF(jgt_record(2, f, names, -1), 0, 1, 1);
}
static inline jg_array *jgt_sc_electrons(void) {
  static const char *const names[] = {"eta", "pt"};
  jg_array *f[2] = {JGT_SC_F64(1.5, 2.5), JGT_SC_I64(2, 3)};
  return JGT_SC_OFF(jgt_record(2, f, names, -1), 0, 1, 2);
}
static inline jg_array *jgt_sc_no_eta(void) {
  static const char *const names[] = {"pt", "phi"};
  jg_array *f[2] = {JGT_SC_I64(2, 3), JGT_SC_F64(1.5, 2.5)};
  return JGT_SC_OFF(jgt_record(2, f, names, -1), 0, 1, 2);
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Operations of the table. */
typedef enum jgt_sop {
  JGT_FLATTEN1,
  JGT_FLATTEN_ALL,
  JGT_UNFLATTEN0,
  JGT_UNFLATTEN1,
  JGT_SINGLETONS,
  JGT_PAD,      /* p0 target, p1 axis, p2 clip */
  JGT_FILL,     /* p0 int value, or fv float value when p1 = 1; p2 = 1: all levels */
  JGT_IS_NONE,  /* p0 axis */
  JGT_DROP,     /* p0 axis */
  JGT_CONCAT,   /* p0 axis */
  JGT_ARGSORT,  /* p0 = 1: descending */
  JGT_SORT
} jgt_sop;

typedef struct jgt_scase {
  const char *name;
  jgt_sop op;
  jg_array *(*in0)(void);
  jg_array *(*in1)(void); /* second input (counts, or a second array to concatenate), or NULL */
  int64_t p0, p1, p2;
  double fv;
  jg_status status;  /* expected */
  const char *value; /* expected printout, or a part of the message when status is not JG_OK */
  const char *type;
} jgt_scase;

static inline jg_array *jgt_sc_counts_2031(void) { return JGT_SC_I64(2, 0, 3, 1); }
static inline jg_array *jgt_sc_counts_23(void) { return JGT_SC_I64(2, 3); }
static inline jg_array *jgt_sc_counts_neg(void) { return JGT_SC_I64(7, -1); }
static inline jg_array *jgt_sc_six(void) { return JGT_SC_I64(1, 2, 3, 4, 5, 6); }
static inline jg_array *jgt_sc_one_list(void) { return JGT_SC_OFF(JGT_SC_I64(1, 2, 3), 0, 3); }
static inline jg_array *jgt_sc_counts_021(void) { return JGT_SC_OFF(JGT_SC_I64(0, 2, 1), 0, 3); }
static inline jg_array *jgt_sc_counts_022(void) { return JGT_SC_OFF(JGT_SC_I64(0, 2, 2), 0, 3); }
/* Regression: unflatten at axis 1 of several lists, where a list's number of counts differs
 * from their sum (the result's outer offsets once came from the sums): jgt_sc_offsets_not0
 * ([[1, 2, 3], [], [4, 5]]) by [[1, 2], [], [0, 2]], the counts also as a list node with
 * starts/stops out of order (starts [3, 9, 0], stops [5, 9, 2] over [0, 2, 9, 1, 2]). */
static inline jg_array *jgt_sc_counts_12_0_02(void) {
  return JGT_SC_OFF(JGT_SC_I64(1, 2, 0, 2), 0, 2, 2, 4);
}
static inline jg_array *jgt_sc_counts_11_03(void) {
  return JGT_SC_OFF(JGT_SC_I64(1, 1, 0, 3), 0, 2, 4, 4);
}
static inline jg_array *jgt_sc_counts_list_node(void) {
  static const int64_t starts[] = {3, 9, 0}, stops[] = {5, 9, 2};
  return jgt_list(starts, stops, 3, 3, JG_DTYPE_INT64, JGT_SC_I64(0, 2, 9, 1, 2));
}
static inline jg_array *jgt_sc_nine(void) { return JGT_SC_OFF(JGT_SC_I64(9), 0, 1); }
static inline jg_array *jgt_sc_ints(void) { return JGT_SC_OFF(JGT_SC_I64(1, 2), 0, 1, 2); }
static inline jg_array *jgt_sc_floats(void) { return JGT_SC_OFF(JGT_SC_F64(0.5), 0, 1, 1); }
static inline jg_array *jgt_sc_one_none(void) {
  return JGT_SC_OFF(JGT_SC_MASK(JGT_SC_I64(1, 0), 1, 0), 0, 2);
}
static inline jg_array *jgt_sc_sliced_3(void) {
  return jgt_slice(JGT_SC_OFF(JGT_SC_I64(0, 1, 2, 3, 4, 5), 0, 1, 1, 4, 6), 1, 4);
}
static inline jg_array *jgt_sc_two(void) { return JGT_SC_OFF(JGT_SC_I64(2), 0, 1); }
static inline jg_array *jgt_sc_pair(void) { return JGT_SC_I64(1, 2); }
static inline jg_array *jgt_sc_flat312(void) { return JGT_SC_I64(3, 1, 2); }
static inline jg_array *jgt_sc_none_list_outer(void) {
  return JGT_SC_MASK(JGT_SC_OFF(JGT_SC_MASK(JGT_SC_I64(1, 0), 1, 0), 0, 2, 2), 1, 0);
}
static inline jg_array *jgt_sc_nested_opt(void) {
  return JGT_SC_OFF(JGT_SC_MASK(JGT_SC_I64(1, 0), 1, 0), 0, 2, 2);
}

static inline const jgt_scase *jgt_structure_cases(size_t *count) {
  static const jgt_scase cases[] = {
      /* flatten */
      {"flatten drops None lists", JGT_FLATTEN1, jgt_sc_none_lists, NULL, 0, 0, 0, 0, JG_OK,
       "[1, None, 2]", "3 * ?int64"},
      {"flatten axis None", JGT_FLATTEN_ALL, jgt_sc_none_lists, NULL, 0, 0, 0, 0, JG_OK, "[1, 2]",
       "2 * int64"},
      {"flatten offsets not at 0", JGT_FLATTEN1, jgt_sc_offsets_not0, NULL, 0, 0, 0, 0, JG_OK,
       "[1, 2, 3, 4, 5]", "5 * int64"},
      {"flatten list node", JGT_FLATTEN1, jgt_sc_list_node, NULL, 0, 0, 0, 0, JG_OK,
       "[4, 5, 1, 2, 3]", "5 * int64"},
      {"flatten sliced", JGT_FLATTEN1, jgt_sc_sliced, NULL, 0, 0, 0, 0, JG_OK, "[4, 5]",
       "2 * int64"},
      {"flatten all empty", JGT_FLATTEN1, jgt_sc_all_empty, NULL, 0, 0, 0, 0, JG_OK, "[]",
       "0 * float64"},
      {"flatten nested one level", JGT_FLATTEN1, jgt_sc_nested, NULL, 0, 0, 0, 0, JG_OK,
       "[[1, 2], [3], [4]]", "3 * var * int64"},
      {"flatten nested all", JGT_FLATTEN_ALL, jgt_sc_nested, NULL, 0, 0, 0, 0, JG_OK,
       "[1, 2, 3, 4]", "4 * int64"},
      {"flatten no lists", JGT_FLATTEN1, jgt_sc_pair, NULL, 0, 0, 0, 0, JG_ESHAPE,
       "needs lists", ""},
      /* unflatten */
      {"unflatten", JGT_UNFLATTEN0, jgt_sc_six, jgt_sc_counts_2031, 0, 0, 0, 0, JG_OK,
       "[[1, 2], [], [3, 4, 5], [6]]", "4 * var * int64"},
      {"unflatten counts do not add up", JGT_UNFLATTEN0, jgt_sc_six, jgt_sc_counts_23, 0, 0, 0, 0,
       JG_ESHAPE, "add up to 5 but the array has 6", ""},
      {"unflatten negative count", JGT_UNFLATTEN0, jgt_sc_six, jgt_sc_counts_neg, 0, 0, 0, 0,
       JG_EVALUE, "negative", ""},
      {"unflatten axis 1", JGT_UNFLATTEN1, jgt_sc_one_list, jgt_sc_counts_021, 0, 0, 0, 0, JG_OK,
       "[[[], [1, 2], [3]]]", "1 * var * var * int64"},
      {"unflatten axis 1 does not add up", JGT_UNFLATTEN1, jgt_sc_one_list, jgt_sc_counts_022, 0,
       0, 0, 0, JG_ESHAPE, "add up to 4 but the list has 3", ""},
      {"unflatten axis 1, several lists", JGT_UNFLATTEN1, jgt_sc_offsets_not0,
       jgt_sc_counts_12_0_02, 0, 0, 0, 0, JG_OK, "[[[1], [2, 3]], [], [[], [4, 5]]]",
       "3 * var * var * int64"},
      {"unflatten axis 1, counts as a list node", JGT_UNFLATTEN1, jgt_sc_offsets_not0,
       jgt_sc_counts_list_node, 0, 0, 0, 0, JG_OK, "[[[1], [2, 3]], [], [[], [4, 5]]]",
       "3 * var * var * int64"},
      {"unflatten axis 1 of a list node", JGT_UNFLATTEN1, jgt_sc_list_node,
       jgt_sc_counts_11_03, 0, 0, 0, 0, JG_OK, "[[[4], [5]], [[], [1, 2, 3]], []]",
       "3 * var * var * int64"},
      /* singletons */
      {"singletons", JGT_SINGLETONS, jgt_sc_opt, NULL, 0, 0, 0, 0, JG_OK, "[[1], [], [3]]",
       "3 * var * int64"},
      {"singletons in lists", JGT_SINGLETONS, jgt_sc_nested_opt, NULL, 0, 0, 0, 0, JG_OK,
       "[[[1], []], []]", "2 * var * var * int64"},
      /* pad_none */
      {"pad_none", JGT_PAD, jgt_sc_offsets_not0, NULL, 2, 1, 0, 0, JG_OK,
       "[[1, 2, 3], [None, None], [4, 5]]", "3 * var * ?int64"},
      {"pad_none clip", JGT_PAD, jgt_sc_offsets_not0, NULL, 2, 1, 1, 0, JG_OK,
       "[[1, 2], [None, None], [4, 5]]", "3 * 2 * ?int64"},
      {"pad_none list node, options inside", JGT_PAD, jgt_sc_inner_none, NULL, 3, 1, 1, 0, JG_OK,
       "[[1, None, None], [None, None, None], [None, 3, None]]", "3 * 3 * ?int64"},
      {"pad_none axis 0", JGT_PAD, jgt_sc_pair, NULL, 3, 0, 0, 0, JG_OK, "[1, 2, None]",
       "3 * ?int64"},
      {"pad_none negative target", JGT_PAD, jgt_sc_pair, NULL, -1, 0, 0, 0, JG_EINVAL,
       "negative", ""},
      /* fill_none */
      {"fill_none -1", JGT_FILL, jgt_sc_inner_none, NULL, -1, 0, 0, 0, JG_OK,
       "[[1, -1], [], [-1, 3]]", "3 * var * int64"},
      {"fill_none 0.5 promotes", JGT_FILL, jgt_sc_inner_none, NULL, 0, 1, 0, 0.5, JG_OK,
       "[[1, 0.5], [], [0.5, 3]]", "3 * var * float64"},
      {"fill_none keeps None lists", JGT_FILL, jgt_sc_none_list_outer, NULL, -1, 0, 0, 0, JG_OK,
       "[[1, -1], None]", "2 * option[var * int64]"},
      {"fill_none all levels over lists", JGT_FILL, jgt_sc_none_list_outer, NULL, -1, 0, 1, 0,
       JG_ENOTSUP, "union", ""},
      /* is_none, drop_none */
      {"is_none", JGT_IS_NONE, jgt_sc_opt, NULL, 0, 0, 0, 0, JG_OK, "[False, True, False]",
       "3 * bool"},
      {"is_none axis 1", JGT_IS_NONE, jgt_sc_inner_indexed, NULL, 1, 0, 0, 0, JG_OK,
       "[[False, True, False], [], [True]]", "3 * var * bool"},
      {"is_none no option", JGT_IS_NONE, jgt_sc_pair, NULL, 0, 0, 0, 0, JG_OK, "[False, False]",
       "2 * bool"},
      {"drop_none", JGT_DROP, jgt_sc_opt, NULL, 0, 0, 0, 0, JG_OK, "[1, 3]", "2 * int64"},
      {"drop_none axis 1", JGT_DROP, jgt_sc_inner_indexed, NULL, 1, 0, 0, 0, JG_OK,
       "[[1, 2], [], []]", "3 * var * int64"},
      {"drop_none axis 1 bit mask", JGT_DROP, jgt_sc_inner_none, NULL, 1, 0, 0, 0, JG_OK,
       "[[1], [], [3]]", "3 * var * int64"},
      {"drop_none axis 2", JGT_DROP, jgt_sc_opt, NULL, 2, 0, 0, 0, JG_ENOTSUP, "axis 2", ""},
      /* concatenate */
      {"concatenate broadcast", JGT_CONCAT, jgt_sc_offsets_not0, jgt_sc_nine, 1, 0, 0, 0, JG_OK,
       "[[1, 2, 3, 9], [9], [4, 5, 9]]", "3 * var * int64"},
      {"concatenate list node", JGT_CONCAT, jgt_sc_list_node, jgt_sc_sliced_3, 1, 0, 0, 0, JG_OK,
       "[[4, 5], [1, 2, 3, 1, 2, 3], [4, 5]]", "3 * var * int64"},
      {"concatenate int and float", JGT_CONCAT, jgt_sc_ints, jgt_sc_floats, 1, 0, 0, 0, JG_OK,
       "[[1, 0.5], [2]]", "2 * var * float64"},
      {"concatenate records", JGT_CONCAT, jgt_sc_muons, jgt_sc_electrons, 1, 0, 0, 0, JG_OK,
       "[[{pt: 1, eta: 0.5}, {pt: 2, eta: 1.5}], [{pt: 3, eta: 2.5}]]",
       "2 * var * {pt: int64, eta: float64}"},
      {"concatenate records, a field missing", JGT_CONCAT, jgt_sc_muons, jgt_sc_no_eta, 1, 0, 0,
       0, JG_ESHAPE, "array 1 has no field 'eta'", ""},
      {"concatenate options", JGT_CONCAT, jgt_sc_one_none, jgt_sc_two, 1, 0, 0, 0, JG_OK,
       "[[1, None, 2]]", "1 * var * ?int64"},
      {"concatenate lengths differ", JGT_CONCAT, jgt_sc_offsets_not0, jgt_sc_ints, 1, 0, 0, 0,
       JG_ESHAPE, "array 1 has 2 lists", ""},
      {"concatenate axis 0", JGT_CONCAT, jgt_sc_ints, jgt_sc_nine, 0, 0, 0, 0, JG_OK,
       "[[1], [2], [9]]", "3 * var * int64"},
      /* sort */
      {"sort", JGT_SORT, jgt_sc_sortable, NULL, 0, 0, 0, 0, JG_OK,
       "[[1, 2, 3], [], [1, 2, nan, None]]", "3 * var * ?float64"},
      {"sort descending", JGT_SORT, jgt_sc_sortable, NULL, 1, 0, 0, 0, JG_OK,
       "[[3, 2, 1], [], [2, 1, nan, None]]", "3 * var * ?float64"},
      {"argsort", JGT_ARGSORT, jgt_sc_sortable, NULL, 0, 0, 0, 0, JG_OK,
       "[[1, 2, 0], [], [2, 0, 1, 3]]", "3 * var * int64"},
      {"argsort descending", JGT_ARGSORT, jgt_sc_sortable, NULL, 1, 0, 0, 0, JG_OK,
       "[[0, 2, 1], [], [0, 2, 1, 3]]", "3 * var * int64"},
      {"argsort ties stable", JGT_ARGSORT, jgt_sc_ties, NULL, 0, 0, 0, 0, JG_OK, "[[1, 3, 0, 2]]",
       "1 * var * int64"},
      {"argsort ties stable descending", JGT_ARGSORT, jgt_sc_ties, NULL, 1, 0, 0, 0, JG_OK,
       "[[0, 2, 1, 3]]", "1 * var * int64"},
      {"sort list node descending", JGT_SORT, jgt_sc_list_node, NULL, 1, 0, 0, 0, JG_OK,
       "[[5, 4], [3, 2, 1], []]", "3 * var * int64"},
      {"sort sliced", JGT_SORT, jgt_sc_sliced, NULL, 1, 0, 0, 0, JG_OK, "[[], [5, 4]]",
       "2 * var * int64"},
      {"sort nested", JGT_SORT, jgt_sc_nested_sort, NULL, 0, 0, 0, 0, JG_OK,
       "[[[1, 3], [2]], [], [[4, 5, 6]]]", "3 * var * var * int64"},
      {"sort all empty", JGT_SORT, jgt_sc_all_empty, NULL, 0, 0, 0, 0, JG_OK, "[[], []]",
       "2 * var * float64"},
      {"sort records", JGT_SORT, jgt_sc_muons, NULL, 0, 0, 0, 0, JG_ENOTSUP, "record", ""},
      {"sort no lists: one list", JGT_SORT, jgt_sc_flat312, NULL, 0, 0, 0, 0, JG_OK, "[1, 2, 3]",
       "3 * int64"},
      {"argsort no lists: one list", JGT_ARGSORT, jgt_sc_flat312, NULL, 0, 0, 0, 0, JG_OK,
       "[1, 2, 0]", "3 * int64"},
  };
  *count = sizeof cases / sizeof cases[0];
  return cases;
}

/* Runs case `c` on inputs a (and b) on `stream`. */
static inline jg_status jgt_sc_run(const jgt_scase *c, const jg_array *a, const jg_array *b,
                                   jg_stream stream, jg_array **out, jg_error *err) {
  switch (c->op) {
    case JGT_FLATTEN1:
      return jg_array_flatten(a, 1, stream, out, err);
    case JGT_FLATTEN_ALL:
      return jg_array_flatten(a, JG_AXIS_ALL, stream, out, err);
    case JGT_UNFLATTEN0:
      return jg_array_unflatten(a, b, 0, stream, out, err);
    case JGT_UNFLATTEN1:
      return jg_array_unflatten(a, b, 1, stream, out, err);
    case JGT_SINGLETONS:
      return jg_array_singletons(a, stream, out, err);
    case JGT_PAD:
      return jg_array_pad_none(a, c->p0, c->p1, c->p2 != 0, stream, out, err);
    case JGT_FILL:
      return jg_array_fill_none(a, c->p1 ? jg_fill_value_f64(c->fv) : jg_fill_value_i64(c->p0),
                                c->p2 ? JG_AXIS_ALL : -1, stream, out, err);
    case JGT_IS_NONE:
      return jg_array_is_none(a, c->p0, stream, out, err);
    case JGT_DROP:
      return jg_array_drop_none(a, c->p0, stream, out, err);
    case JGT_CONCAT: {
      const jg_array *xs[2] = {a, b};
      return jg_array_concatenate(2, xs, c->p0, stream, out, err);
    }
    case JGT_ARGSORT:
      return jg_array_argsort(a, -1, c->p0 == 0, true, stream, out, err);
    case JGT_SORT:
      return jg_array_sort(a, -1, c->p0 == 0, true, stream, out, err);
  }
  return JG_EINVAL;
}

/* ------------------------------------------------------------------------------------------ */
/* Large inputs                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* 2^20 + 1 float64 values in lists of 0..7 (seeded; values with ties, NaN and None), and one
 * list of 2^20 + 1 values at the end when `long_list`. Returned as lists of a byte-masked
 * option. *total gets the number of values. */
static inline jg_array *jgt_sc_big(bool long_list, jg_len *total) {
  const jg_len m = ((jg_len)1 << 20) + 1;
  const jg_len nlists_max = long_list ? 2 : m;
  double *v = malloc(sizeof *v * (size_t)m);
  int8_t *mask = malloc((size_t)m);
  int64_t *off = malloc(sizeof *off * (size_t)(nlists_max + 1));
  assert_non_null(v);
  assert_non_null(mask);
  assert_non_null(off);
  uint64_t s = 12345;
  for (jg_len i = 0; i < m; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint64_t r = s >> 33;
    v[i] = (double)(r % 50) / 4.0 - 5.0;
    if (r % 97 == 0) v[i] = NAN;
    mask[i] = (int8_t)(r % 89 != 0);
  }
  jg_len n = 0;
  off[0] = 0;
  if (long_list) {
    off[1] = 3;
    off[2] = m;
    n = 2;
  } else {
    jg_len at = 0;
    while (at < m) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      jg_len len = (jg_len)((s >> 33) % 8);
      if (len > m - at) len = m - at;
      at += len;
      off[++n] = at;
    }
  }
  jg_array *o = jgt_byte_masked(mask, m, true, jgt_numeric(v, m, JG_DTYPE_FLOAT64));
  jg_array *a = jgt_offsets64(off, n + 1, o);
  free(v);
  free(mask);
  free(off);
  *total = m;
  return a;
}

#endif /* JAGGED_TESTS_JGT_STRUCTURE_CASES_H */
