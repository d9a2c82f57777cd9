/* jgt_reduce_cases.h: the table of reductions (ops.h: jg_array_reduce, jg_array_num) run on the
 * host by tests/unit/test_reduce.c and on the GPU by tests/gpu/test_reduce_gpu.c (after
 * jg_array_to_device), with host input builders.
 *
 * Every expected value and type was worked out by hand from Awkward Array 2.x's semantics
 * (../shared/notes/awkward.md 6.4; ak.sum, ak.min, ak.argmax, ... at axis=-1): sum/prod of bool
 * and int8..int64 give int64, of uint8..uint64 uint64, float32 stays float32; min/max keep the
 * dtype; argmin/argmax give the first position of the extreme local to the list (a NaN wins);
 * count/count_nonzero give int64; any/all bool; mean float64. Empty lists give None for
 * min/max/argmin/argmax by default, or the identity with mask_identity -1 (+inf / the type's
 * maximum for min, -inf / the type's minimum for max, -1 for argmin/argmax; for bool, min true and
 * max false), and for the others their identity unless mask_identity is 1 (sum 0, prod 1, count
 * 0, any false, all true, mean NaN). Values print as jg_array_to_string writes them (integers in
 * full, floats in the fewest digits, True/False, None). */
#ifndef JAGGED_TESTS_JGT_REDUCE_CASES_H
#define JAGGED_TESTS_JGT_REDUCE_CASES_H

#include <math.h>

#include "jagged/ops.h"
#include "jgt_array_cases.h"

/* ------------------------------------------------------------------------------------------ */
/* Input builders (host arrays; each returns a new reference)                                  */
/* ------------------------------------------------------------------------------------------ */

/* A list-offset array: `noffsets` int64 offsets over `m` values of `dtype` (copied). */
static inline jg_array *jgt_rc_lists(const int64_t *offsets, jg_len noffsets, const void *content,
                                     jg_len m, jg_dtype dtype) {
  return jgt_offsets64(offsets, noffsets, jgt_numeric(content, m, dtype));
}

#define JGT_RC_LISTS(dtype, ctype, offsets, ...)                      \
  jgt_rc_lists(offsets, (jg_len)(sizeof offsets / sizeof offsets[0]), \
               (const ctype[]){__VA_ARGS__},                          \
               (jg_len)(sizeof((const ctype[]){__VA_ARGS__}) / sizeof(ctype)), dtype)

/* The issue's first case: [[0.8125], [-0.9375, 1.1875], [-0.6875, 1.3125, 21.3125]] as offsets
 * [1, 2, 4, 7] over 7 values; the first (-100) is unreachable and would be every minimum. */
static inline jg_array *jgt_rc_issue_a(void) {
  static const int64_t off[] = {1, 2, 4, 7};
  return JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, -100.0, 0.8125, -0.9375, 1.1875, -0.6875,
                      1.3125, 21.3125);
}

/* The issue's second case: offsets [0, 2, 4, 7, 10, 10] over 10 values, the last list empty:
 * [[1, 2], [-3, 5], [0, 1, 2], [-1, 0, 7], []]. */
static inline jg_array *jgt_rc_issue_b(void) {
  static const int64_t off[] = {0, 2, 4, 7, 10, 10};
  return JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1, 2, -3, 5, 0, 1, 2, -1, 0, 7);
}

/* The issue's any case: [[], [[F, F, T]], [], [[F], [T, F]], []]. */
static inline jg_array *jgt_rc_issue_any(void) {
  static const int64_t inner[] = {0, 3, 4, 6};
  static const int64_t outer[] = {0, 0, 1, 1, 3, 3};
  jg_array *in = JGT_RC_LISTS(JG_DTYPE_BOOL, bool, inner, false, false, true, false, true, false);
  return jgt_offsets64(outer, 6, in);
}

/* int32 [[3, 0, 3], [], [-5], [2, 2]]. */
static inline jg_array *jgt_rc_i32(void) {
  static const int64_t off[] = {0, 3, 3, 4, 6};
  return JGT_RC_LISTS(JG_DTYPE_INT32, int32_t, off, 3, 0, 3, -5, 2, 2);
}

/* uint8 [[200, 100], [], [0], [255, 3, 6]]. */
static inline jg_array *jgt_rc_u8(void) {
  static const int64_t off[] = {0, 2, 2, 3, 6};
  return JGT_RC_LISTS(JG_DTYPE_UINT8, uint8_t, off, 200, 100, 0, 255, 3, 6);
}

/* float32 [[1.5, -2.25], [], [0], [4, 0.5, 7.5]]. */
static inline jg_array *jgt_rc_f32(void) {
  static const int64_t off[] = {0, 2, 2, 3, 6};
  return JGT_RC_LISTS(JG_DTYPE_FLOAT32, float, off, 1.5f, -2.25f, 0.0f, 4.0f, 0.5f, 7.5f);
}

/* float64 [[1, nan, -1], [], [inf, -inf], [2.5]]. */
static inline jg_array *jgt_rc_f64(void) {
  static const int64_t off[] = {0, 3, 3, 5, 6};
  return JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1.0, NAN, -1.0, INFINITY, -INFINITY, 2.5);
}

/* bool [[T, F, T, F], [], [F], [T, T]]. */
static inline jg_array *jgt_rc_bool(void) {
  static const int64_t off[] = {0, 4, 4, 5, 7};
  return JGT_RC_LISTS(JG_DTYPE_BOOL, bool, off, true, false, true, false, false, true, true);
}

/* float64 [[1, 2, 3], [], [4, 5]]. */
static inline jg_array *jgt_rc_small(void) {
  static const int64_t off[] = {0, 3, 3, 5};
  return JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1, 2, 3, 4, 5);
}

/* int32 [[1, 2, 3], [], [4, 5]]. */
static inline jg_array *jgt_rc_small_i32(void) {
  static const int64_t off[] = {0, 3, 3, 5};
  return JGT_RC_LISTS(JG_DTYPE_INT32, int32_t, off, 1, 2, 3, 4, 5);
}

/* Sums that leave their type: int8 [[100, 100, 100], [-128, -128]]. */
static inline jg_array *jgt_rc_wide_i8(void) {
  static const int64_t off[] = {0, 3, 5};
  return JGT_RC_LISTS(JG_DTYPE_INT8, int8_t, off, 100, 100, 100, -128, -128);
}

/* int16 [[30000, 30000], [-32768]]. */
static inline jg_array *jgt_rc_wide_i16(void) {
  static const int64_t off[] = {0, 2, 3};
  return JGT_RC_LISTS(JG_DTYPE_INT16, int16_t, off, 30000, 30000, -32768);
}

/* int32 [[2147483647, 1], [65536, 65536]]. */
static inline jg_array *jgt_rc_wide_i32(void) {
  static const int64_t off[] = {0, 2, 4};
  return JGT_RC_LISTS(JG_DTYPE_INT32, int32_t, off, 2147483647, 1, 65536, 65536);
}

/* uint16 [[65535, 65535, 2]]. */
static inline jg_array *jgt_rc_wide_u16(void) {
  static const int64_t off[] = {0, 3};
  return JGT_RC_LISTS(JG_DTYPE_UINT16, uint16_t, off, 65535, 65535, 2);
}

/* int64 [[INT64_MAX, 1], [INT64_MIN, -1]]: sums wrap as NumPy's do. */
static inline jg_array *jgt_rc_wrap_i64(void) {
  static const int64_t off[] = {0, 2, 4};
  return JGT_RC_LISTS(JG_DTYPE_INT64, int64_t, off, INT64_MAX, 1, INT64_MIN, -1);
}

/* uint64 [[UINT64_MAX, 2]]. */
static inline jg_array *jgt_rc_wrap_u64(void) {
  static const int64_t off[] = {0, 2};
  return JGT_RC_LISTS(JG_DTYPE_UINT64, uint64_t, off, UINT64_MAX, 2);
}

/* A list node with out-of-order, overlapping lists and an empty list whose start (99) is outside
 * the content: int32 starts [3, 0, 2, 99], stops [5, 2, 4, 99, 7] (one more stop than needed)
 * over int64 [10, 20, 30, 40, 50]: [[40, 50], [10, 20], [30, 40], []]. */
static inline jg_array *jgt_rc_list_node(void) {
  static const int64_t content[] = {10, 20, 30, 40, 50};
  return jgt_list(JGT_I32(3, 0, 2, 99), JGT_I32(5, 2, 4, 99, 7), 4, 5, JG_DTYPE_INT32,
                  jgt_i64(content, 5));
}

/* A list node with strided starts (stride 2) and reversed stops (stride -1) over int64
 * [10, 20, 30, 40, 50]: starts [3, 0, 2], stops [5, 2, 4]: [[40, 50], [10, 20], [30, 40]]. */
static inline jg_array *jgt_rc_list_strided(void) {
  static const int64_t content[] = {10, 20, 30, 40, 50};
  const jg_len n = 3;
  const jg_stride two = 2, minus = -1;
  jg_view s = jgt_view_ex(JGT_I64(3, 77, 0, 77, 2), 5, JG_DTYPE_INT64, 1, &n, &two, 0);
  jg_view t = jgt_view_ex(JGT_I64(4, 2, 5), 3, JG_DTYPE_INT64, 1, &n, &minus, 2);
  jg_array *c = jgt_i64(content, 5), *a = NULL;
  JGT_OK(jg_array_list(&s, &t, c, &a, &jgt_err_));
  jg_buffer_release(s.buffer);
  jg_buffer_release(t.buffer);
  jg_array_release(c);
  return a;
}

/* float64 [[1, 2], [3], [4, 5, 6], [7]] sliced [1, 3): [[3], [4, 5, 6]] (offsets [2, 3, 6]). */
static inline jg_array *jgt_rc_sliced(void) {
  static const int64_t off[] = {0, 2, 3, 6, 7};
  return jgt_slice(JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1, 2, 3, 4, 5, 6, 7), 1, 3);
}

/* The same sliced to nothing: [2, 2), length 0. */
static inline jg_array *jgt_rc_sliced_empty(void) {
  static const int64_t off[] = {0, 2, 3, 6, 7};
  return jgt_slice(JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1, 2, 3, 4, 5, 6, 7), 2, 2);
}

/* [[1, 2], [3], [4, 5, 6]] with offsets [0, 2, 3, 6] read with stride 2 from
 * [0, 99, 2, 99, 3, 99, 6]. */
static inline jg_array *jgt_rc_offsets_stride2(void) {
  static const double content[] = {1, 2, 3, 4, 5, 6};
  const jg_len n = 4;
  const jg_stride two = 2;
  jg_view o = jgt_view_ex(JGT_I64(0, 99, 2, 99, 3, 99, 6), 7, JG_DTYPE_INT64, 1, &n, &two, 0);
  return jgt_list_offset_view(o, jgt_numeric(content, 6, JG_DTYPE_FLOAT64));
}

/* The same with int32 offsets read backwards from [6, 3, 2, 0] (stride -1, slice offset 3). */
static inline jg_array *jgt_rc_offsets_reversed(void) {
  static const double content[] = {1, 2, 3, 4, 5, 6};
  const jg_len n = 4;
  const jg_stride minus = -1;
  jg_view o = jgt_view_ex(JGT_I32(6, 3, 2, 0), 4, JG_DTYPE_INT32, 1, &n, &minus, 3);
  return jgt_list_offset_view(o, jgt_numeric(content, 6, JG_DTYPE_FLOAT64));
}

/* The same lists over content [1..6] read with stride 2 from [1, -1, 2, -1, ..., 6]. */
static inline jg_array *jgt_rc_content_stride2(void) {
  static const double buf[] = {1, -1, 2, -1, 3, -1, 4, -1, 5, -1, 6};
  const jg_len n = 6;
  const jg_stride two = 2;
  jg_array *c = jgt_numeric_view(jgt_view_ex(buf, 11, JG_DTYPE_FLOAT64, 1, &n, &two, 0));
  return JGT_OFFSETS(c, 0, 2, 3, 6);
}

/* The same over content [1..6] read backwards from [6, 5, 4, 3, 2, 1]. */
static inline jg_array *jgt_rc_content_reversed(void) {
  static const double buf[] = {6, 5, 4, 3, 2, 1};
  const jg_len n = 6;
  const jg_stride minus = -1;
  jg_array *c = jgt_numeric_view(jgt_view_ex(buf, 6, JG_DTYPE_FLOAT64, 1, &n, &minus, 5));
  return JGT_OFFSETS(c, 0, 2, 3, 6);
}

/* The same over content [1..6] that starts 2 elements into its buffer [-7, -7, 1, ..., 6]. */
static inline jg_array *jgt_rc_content_offset(void) {
  static const double buf[] = {-7, -7, 1, 2, 3, 4, 5, 6};
  const jg_len n = 6;
  jg_array *c = jgt_numeric_view(jgt_view_ex(buf, 8, JG_DTYPE_FLOAT64, 1, &n, NULL, 2));
  return JGT_OFFSETS(c, 0, 2, 3, 6);
}

/* None lists: index [0, -1, 2, 1] over [[1, 2], [3], []]: [[1, 2], None, [], [3]]. */
static inline jg_array *jgt_rc_indexed_none(void) {
  static const int64_t off[] = {0, 2, 3, 3};
  return jgt_indexed(JGT_I64(0, -1, 2, 1), 4, JG_DTYPE_INT64,
                     JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1, 2, 3));
}

/* Byte-masked lists: mask [1, 0, 1] over [[1, 2], [9, 9], [3]]: [[1, 2], None, [3]]. */
static inline jg_array *jgt_rc_byte_masked(void) {
  static const int64_t off[] = {0, 2, 4, 5};
  static const int8_t mask[] = {1, 0, 1};
  return jgt_byte_masked(mask, 3, true, JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1, 2, 9, 9, 3));
}

/* Bit-masked lists, LSB order, valid when set: bits 0b101 over the same lists. */
static inline jg_array *jgt_rc_bit_masked(void) {
  static const int64_t off[] = {0, 2, 4, 5};
  static const uint8_t bits[] = {0x05};
  return jgt_bit_masked(bits, 1, true, true, 3,
                        JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1, 2, 9, 9, 3));
}

/* int64 [[[1, 2], [3]], [], [[4], [], [5, 6, 7]]] (awkward.md 6.4's axis example). */
static inline jg_array *jgt_rc_nested(void) {
  static const int64_t inner[] = {0, 2, 3, 4, 4, 7};
  static const int64_t outer[] = {0, 2, 2, 5};
  return jgt_offsets64(outer, 4, JGT_RC_LISTS(JG_DTYPE_INT64, int64_t, inner, 1, 2, 3, 4, 5, 6, 7));
}

/* A regular outer level: int64 [[1], [2, 3], [], [4]] in lists of 2:
 * [[[1], [2, 3]], [[], [4]]]. */
static inline jg_array *jgt_rc_regular_outer(void) {
  static const int64_t off[] = {0, 1, 3, 3, 4};
  return jgt_regular(JGT_RC_LISTS(JG_DTYPE_INT64, int64_t, off, 1, 2, 3, 4), 2, -1);
}

/* Two empty lists of an empty node (type 2 * var * unknown). */
static inline jg_array *jgt_rc_empty_content(void) {
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  return JGT_OFFSETS(e, 0, 0, 0);
}

/* No lists at all: one offset (5, which no list uses) over 3 float64 values. */
static inline jg_array *jgt_rc_no_lists(void) {
  static const int64_t off[] = {5};
  return JGT_RC_LISTS(JG_DTYPE_FLOAT64, double, off, 1, 2, 3);
}

/* Lists of records {x: int64}: [[{x: 1}, {x: 2}], [], [{x: 3}]]. */
static inline jg_array *jgt_rc_records(void) {
  static const int64_t x[] = {1, 2, 3};
  static const char *const names[] = {"x"};
  jg_array *f[1] = {jgt_i64(x, 3)};
  return JGT_OFFSETS(jgt_record(1, f, names, -1), 0, 2, 2, 3);
}

/* Lists of optional values: [[5, None], [6]]. */
static inline jg_array *jgt_rc_options(void) {
  static const int64_t v[] = {5, 6};
  return JGT_OFFSETS(jgt_indexed(JGT_I64(0, -1, 1), 3, JG_DTYPE_INT64, jgt_i64(v, 2)), 0, 2, 3);
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* A reducer value outside jg_reducer for the table's jg_array_num rows. */
#define JGT_NUM ((jg_reducer)0)

typedef struct jgt_rcase {
  const char *name;
  jg_array *(*make)(void);
  jg_reducer r; /* JGT_NUM: jg_array_num */
  int mask_identity;
  bool keepdims;
  const char *value; /* jg_array_to_string of the result */
  const char *type;  /* jg_array_type_string of the result */
} jgt_rcase;

/* The rows of one input for all eleven reducers, default options; s, p, mn and mx are
 * JGT_RC_VT(value, type) pairs. */
#define JGT_RC_ALL(name, make, s, p, mn, mx, amn, amx, c, cnz, an, al, me)                \
  {name " sum", make, JG_REDUCE_SUM, 0, false, s},                                        \
      {name " prod", make, JG_REDUCE_PROD, 0, false, p},                                  \
      {name " min", make, JG_REDUCE_MIN, 0, false, mn},                                   \
      {name " max", make, JG_REDUCE_MAX, 0, false, mx},                                   \
      {name " argmin", make, JG_REDUCE_ARGMIN, 0, false, amn, "4 * ?int64"},              \
      {name " argmax", make, JG_REDUCE_ARGMAX, 0, false, amx, "4 * ?int64"},              \
      {name " count", make, JG_REDUCE_COUNT, 0, false, c, "4 * int64"},                   \
      {name " count_nonzero", make, JG_REDUCE_COUNT_NONZERO, 0, false, cnz, "4 * int64"}, \
      {name " any", make, JG_REDUCE_ANY, 0, false, an, "4 * bool"},                       \
      {name " all", make, JG_REDUCE_ALL, 0, false, al, "4 * bool"}, {                     \
    name " mean", make, JG_REDUCE_MEAN, 0, false, me, "4 * float64"                       \
  }

/* A value and its type, as two initialisers of a row. */
#define JGT_RC_VT(value, type) value, type

static inline const jgt_rcase *jgt_reduce_cases(size_t *count) {
  static const jgt_rcase cases[] = {
      /* The cases of issue 5. */
      {"issue offsets [1,2,4,7] argmax", jgt_rc_issue_a, JG_REDUCE_ARGMAX, 0, false, "[0, 1, 2]",
       "3 * ?int64"},
      {"issue offsets [1,2,4,7] argmin", jgt_rc_issue_a, JG_REDUCE_ARGMIN, 0, false, "[0, 0, 0]",
       "3 * ?int64"},
      {"issue last list empty argmin", jgt_rc_issue_b, JG_REDUCE_ARGMIN, 0, false,
       "[0, 0, 0, 0, None]", "5 * ?int64"},
      {"issue last list empty argmax", jgt_rc_issue_b, JG_REDUCE_ARGMAX, 0, false,
       "[1, 1, 2, 2, None]", "5 * ?int64"},
      {"issue last list empty argmin identity", jgt_rc_issue_b, JG_REDUCE_ARGMIN, -1, false,
       "[0, 0, 0, 0, -1]", "5 * int64"},
      {"issue last list empty argmax identity", jgt_rc_issue_b, JG_REDUCE_ARGMAX, -1, false,
       "[1, 1, 2, 2, -1]", "5 * int64"},
      {"issue any innermost", jgt_rc_issue_any, JG_REDUCE_ANY, 0, false,
       "[[], [True], [], [False, True], []]", "5 * var * bool"},

      /* Every reducer on five dtypes, default options. */
      JGT_RC_ALL("int32", jgt_rc_i32, JGT_RC_VT("[6, 0, -5, 4]", "4 * int64"),
                 JGT_RC_VT("[0, 1, -5, 4]", "4 * int64"),
                 JGT_RC_VT("[0, None, -5, 2]", "4 * ?int32"),
                 JGT_RC_VT("[3, None, -5, 2]", "4 * ?int32"), "[1, None, 0, 0]", "[0, None, 0, 0]",
                 "[3, 0, 1, 2]", "[2, 0, 1, 2]", "[True, False, True, True]",
                 "[False, True, True, True]", "[2, nan, -5, 2]"),
      JGT_RC_ALL("uint8", jgt_rc_u8, JGT_RC_VT("[300, 0, 0, 264]", "4 * uint64"),
                 JGT_RC_VT("[20000, 1, 0, 4590]", "4 * uint64"),
                 JGT_RC_VT("[100, None, 0, 3]", "4 * ?uint8"),
                 JGT_RC_VT("[200, None, 0, 255]", "4 * ?uint8"), "[1, None, 0, 1]",
                 "[0, None, 0, 0]", "[2, 0, 1, 3]", "[2, 0, 0, 3]", "[True, False, False, True]",
                 "[True, True, False, True]", "[150, nan, 0, 88]"),
      JGT_RC_ALL("float32", jgt_rc_f32, JGT_RC_VT("[-0.75, 0, 0, 12]", "4 * float32"),
                 JGT_RC_VT("[-3.375, 1, 0, 15]", "4 * float32"),
                 JGT_RC_VT("[-2.25, None, 0, 0.5]", "4 * ?float32"),
                 JGT_RC_VT("[1.5, None, 0, 7.5]", "4 * ?float32"), "[1, None, 0, 1]",
                 "[0, None, 0, 2]", "[2, 0, 1, 3]", "[2, 0, 0, 3]", "[True, False, False, True]",
                 "[True, True, False, True]", "[-0.375, nan, 0, 4]"),
      JGT_RC_ALL("float64 nan inf", jgt_rc_f64, JGT_RC_VT("[nan, 0, nan, 2.5]", "4 * float64"),
                 JGT_RC_VT("[nan, 1, -inf, 2.5]", "4 * float64"),
                 JGT_RC_VT("[nan, None, -inf, 2.5]", "4 * ?float64"),
                 JGT_RC_VT("[nan, None, inf, 2.5]", "4 * ?float64"), "[1, None, 1, 0]",
                 "[1, None, 0, 0]", "[3, 0, 2, 1]", "[3, 0, 2, 1]", "[True, False, True, True]",
                 "[True, True, True, True]", "[nan, nan, nan, 2.5]"),
      JGT_RC_ALL("bool", jgt_rc_bool, JGT_RC_VT("[2, 0, 0, 2]", "4 * int64"),
                 JGT_RC_VT("[0, 1, 0, 1]", "4 * int64"),
                 JGT_RC_VT("[False, None, False, True]", "4 * ?bool"),
                 JGT_RC_VT("[True, None, False, True]", "4 * ?bool"), "[1, None, 0, 0]",
                 "[0, None, 0, 0]", "[4, 0, 1, 2]", "[2, 0, 0, 2]", "[True, False, False, True]",
                 "[False, True, False, True]", "[0.5, nan, 0, 1]"),

      /* Identities instead of None (mask_identity -1). */
      {"int32 min identity", jgt_rc_small_i32, JG_REDUCE_MIN, -1, false, "[1, 2147483647, 4]",
       "3 * int32"},
      {"int32 max identity", jgt_rc_small_i32, JG_REDUCE_MAX, -1, false, "[3, -2147483648, 5]",
       "3 * int32"},
      {"uint8 min identity", jgt_rc_u8, JG_REDUCE_MIN, -1, false, "[100, 255, 0, 3]", "4 * uint8"},
      {"uint8 max identity", jgt_rc_u8, JG_REDUCE_MAX, -1, false, "[200, 0, 0, 255]", "4 * uint8"},
      {"float32 min identity", jgt_rc_f32, JG_REDUCE_MIN, -1, false, "[-2.25, inf, 0, 0.5]",
       "4 * float32"},
      {"float64 min identity", jgt_rc_small, JG_REDUCE_MIN, -1, false, "[1, inf, 4]",
       "3 * float64"},
      {"float64 max identity", jgt_rc_small, JG_REDUCE_MAX, -1, false, "[3, -inf, 5]",
       "3 * float64"},
      {"bool min identity", jgt_rc_bool, JG_REDUCE_MIN, -1, false, "[False, True, False, True]",
       "4 * bool"},
      {"bool max identity", jgt_rc_bool, JG_REDUCE_MAX, -1, false, "[True, False, False, True]",
       "4 * bool"},
      {"argmin identity", jgt_rc_small, JG_REDUCE_ARGMIN, -1, false, "[0, -1, 0]", "3 * int64"},
      {"sum identity asked", jgt_rc_small, JG_REDUCE_SUM, -1, false, "[6, 0, 9]", "3 * float64"},

      /* None instead of identities (mask_identity 1). */
      {"sum None", jgt_rc_small, JG_REDUCE_SUM, 1, false, "[6, None, 9]", "3 * ?float64"},
      {"prod None", jgt_rc_small, JG_REDUCE_PROD, 1, false, "[6, None, 20]", "3 * ?float64"},
      {"count None", jgt_rc_small, JG_REDUCE_COUNT, 1, false, "[3, None, 2]", "3 * ?int64"},
      {"count_nonzero None", jgt_rc_small, JG_REDUCE_COUNT_NONZERO, 1, false, "[3, None, 2]",
       "3 * ?int64"},
      {"any None", jgt_rc_small, JG_REDUCE_ANY, 1, false, "[True, None, True]", "3 * ?bool"},
      {"all None", jgt_rc_small, JG_REDUCE_ALL, 1, false, "[True, None, True]", "3 * ?bool"},
      {"mean None", jgt_rc_small, JG_REDUCE_MEAN, 1, false, "[2, None, 4.5]", "3 * ?float64"},
      {"min None asked", jgt_rc_small, JG_REDUCE_MIN, 1, false, "[1, None, 4]", "3 * ?float64"},
      {"uint8 sum None", jgt_rc_u8, JG_REDUCE_SUM, 1, false, "[300, None, 0, 264]", "4 * ?uint64"},

      /* keepdims. */
      {"sum keepdims", jgt_rc_small, JG_REDUCE_SUM, 0, true, "[[6], [0], [9]]", "3 * 1 * float64"},
      {"argmax keepdims", jgt_rc_small, JG_REDUCE_ARGMAX, 0, true, "[[2], [None], [1]]",
       "3 * 1 * ?int64"},
      {"min identity keepdims", jgt_rc_small, JG_REDUCE_MIN, -1, true, "[[1], [inf], [4]]",
       "3 * 1 * float64"},
      {"mean None keepdims", jgt_rc_small, JG_REDUCE_MEAN, 1, true, "[[2], [None], [4.5]]",
       "3 * 1 * ?float64"},
      {"nested sum keepdims", jgt_rc_nested, JG_REDUCE_SUM, 0, true,
       "[[[3], [3]], [], [[4], [0], [18]]]", "3 * var * 1 * int64"},

      /* Sums of small integers widen; 64-bit sums wrap. */
      {"int8 sum widens", jgt_rc_wide_i8, JG_REDUCE_SUM, 0, false, "[300, -256]", "2 * int64"},
      {"int8 prod widens", jgt_rc_wide_i8, JG_REDUCE_PROD, 0, false, "[1000000, 16384]",
       "2 * int64"},
      {"int16 sum widens", jgt_rc_wide_i16, JG_REDUCE_SUM, 0, false, "[60000, -32768]",
       "2 * int64"},
      {"int32 sum widens", jgt_rc_wide_i32, JG_REDUCE_SUM, 0, false, "[2147483648, 131072]",
       "2 * int64"},
      {"int32 prod widens", jgt_rc_wide_i32, JG_REDUCE_PROD, 0, false, "[2147483647, 4294967296]",
       "2 * int64"},
      {"uint16 sum widens", jgt_rc_wide_u16, JG_REDUCE_SUM, 0, false, "[131072]", "1 * uint64"},
      {"int64 sum wraps", jgt_rc_wrap_i64, JG_REDUCE_SUM, 0, false,
       "[-9223372036854775808, 9223372036854775807]", "2 * int64"},
      {"uint64 sum wraps", jgt_rc_wrap_u64, JG_REDUCE_SUM, 0, false, "[1]", "1 * uint64"},

      /* Layouts: list nodes, slices, strided and offset buffers. */
      {"list node sum", jgt_rc_list_node, JG_REDUCE_SUM, 0, false, "[90, 30, 70, 0]", "4 * int64"},
      {"list node max", jgt_rc_list_node, JG_REDUCE_MAX, 0, false, "[50, 20, 40, None]",
       "4 * ?int64"},
      {"list node argmax", jgt_rc_list_node, JG_REDUCE_ARGMAX, 0, false, "[1, 1, 1, None]",
       "4 * ?int64"},
      {"list node count", jgt_rc_list_node, JG_REDUCE_COUNT, 0, false, "[2, 2, 2, 0]", "4 * int64"},
      {"list node mean", jgt_rc_list_node, JG_REDUCE_MEAN, 0, false, "[45, 15, 35, nan]",
       "4 * float64"},
      {"list node strided sum", jgt_rc_list_strided, JG_REDUCE_SUM, 0, false, "[90, 30, 70]",
       "3 * int64"},
      {"sliced sum", jgt_rc_sliced, JG_REDUCE_SUM, 0, false, "[3, 15]", "2 * float64"},
      {"sliced argmax", jgt_rc_sliced, JG_REDUCE_ARGMAX, 0, false, "[0, 2]", "2 * ?int64"},
      {"sliced min", jgt_rc_sliced, JG_REDUCE_MIN, 0, false, "[3, 4]", "2 * ?float64"},
      {"sliced to nothing sum", jgt_rc_sliced_empty, JG_REDUCE_SUM, 0, false, "[]", "0 * float64"},
      {"no lists argmin", jgt_rc_no_lists, JG_REDUCE_ARGMIN, 0, false, "[]", "0 * ?int64"},
      {"no lists sum keepdims", jgt_rc_no_lists, JG_REDUCE_SUM, 0, true, "[]", "0 * 1 * float64"},
      {"offsets stride 2 sum", jgt_rc_offsets_stride2, JG_REDUCE_SUM, 0, false, "[3, 3, 15]",
       "3 * float64"},
      {"offsets stride 2 argmax", jgt_rc_offsets_stride2, JG_REDUCE_ARGMAX, 0, false, "[1, 0, 2]",
       "3 * ?int64"},
      {"offsets reversed int32 sum", jgt_rc_offsets_reversed, JG_REDUCE_SUM, 0, false, "[3, 3, 15]",
       "3 * float64"},
      {"content stride 2 sum", jgt_rc_content_stride2, JG_REDUCE_SUM, 0, false, "[3, 3, 15]",
       "3 * float64"},
      {"content stride 2 min", jgt_rc_content_stride2, JG_REDUCE_MIN, 0, false, "[1, 3, 4]",
       "3 * ?float64"},
      {"content reversed argmin", jgt_rc_content_reversed, JG_REDUCE_ARGMIN, 0, false, "[0, 0, 0]",
       "3 * ?int64"},
      {"content reversed sum", jgt_rc_content_reversed, JG_REDUCE_SUM, 0, false, "[3, 3, 15]",
       "3 * float64"},
      {"content offset sum", jgt_rc_content_offset, JG_REDUCE_SUM, 0, false, "[3, 3, 15]",
       "3 * float64"},
      {"content offset max", jgt_rc_content_offset, JG_REDUCE_MAX, 0, false, "[2, 3, 6]",
       "3 * ?float64"},

      /* Structure above the innermost lists is kept. */
      {"None lists sum", jgt_rc_indexed_none, JG_REDUCE_SUM, 0, false, "[3, None, 0, 3]",
       "4 * ?float64"},
      {"None lists min", jgt_rc_indexed_none, JG_REDUCE_MIN, 0, false, "[1, None, None, 3]",
       "4 * ??float64"},
      {"None lists num", jgt_rc_indexed_none, JGT_NUM, 0, false, "[2, None, 0, 1]", "4 * ?int64"},
      {"byte-masked lists sum", jgt_rc_byte_masked, JG_REDUCE_SUM, 0, false, "[3, None, 3]",
       "3 * ?float64"},
      {"byte-masked lists argmax", jgt_rc_byte_masked, JG_REDUCE_ARGMAX, 0, false, "[1, None, 0]",
       "3 * ??int64"},
      {"bit-masked lists sum", jgt_rc_bit_masked, JG_REDUCE_SUM, 0, false, "[3, None, 3]",
       "3 * ?float64"},
      {"nested sum", jgt_rc_nested, JG_REDUCE_SUM, 0, false, "[[3, 3], [], [4, 0, 18]]",
       "3 * var * int64"},
      {"nested max", jgt_rc_nested, JG_REDUCE_MAX, 0, false, "[[2, 3], [], [4, None, 7]]",
       "3 * var * ?int64"},
      {"nested num", jgt_rc_nested, JGT_NUM, 0, false, "[[2, 1], [], [1, 0, 3]]",
       "3 * var * int64"},
      {"regular outer sum", jgt_rc_regular_outer, JG_REDUCE_SUM, 0, false, "[[1, 5], [0, 4]]",
       "2 * 2 * int64"},

      /* Content without values, records and options (num only). */
      {"empty content sum", jgt_rc_empty_content, JG_REDUCE_SUM, 0, false, "[0, 0]", "2 * float64"},
      {"empty content min", jgt_rc_empty_content, JG_REDUCE_MIN, 0, false, "[None, None]",
       "2 * ?float64"},
      {"empty content argmax", jgt_rc_empty_content, JG_REDUCE_ARGMAX, 0, false, "[None, None]",
       "2 * ?int64"},
      {"empty content mean", jgt_rc_empty_content, JG_REDUCE_MEAN, 0, false, "[nan, nan]",
       "2 * float64"},
      {"empty content sum None", jgt_rc_empty_content, JG_REDUCE_SUM, 1, false, "[None, None]",
       "2 * ?float64"},
      {"num", jgt_rc_small, JGT_NUM, 0, false, "[3, 0, 2]", "3 * int64"},
      {"num of records", jgt_rc_records, JGT_NUM, 0, false, "[2, 0, 1]", "3 * int64"},
      {"num of options", jgt_rc_options, JGT_NUM, 0, false, "[2, 1]", "2 * int64"},
  };
  *count = sizeof cases / sizeof cases[0];
  return cases;
}

/* Runs one row on `a` (the row's input, on any backend): jg_array_num for JGT_NUM rows. */
static inline jg_status jgt_rc_run(const jgt_rcase *c, const jg_array *a, jg_stream stream,
                                   jg_array **out, jg_error *err) {
  if (c->r == JGT_NUM) {
    /* jg_array_num takes no stream (it runs on the legacy default stream): the array, copied to
     * the device on `stream` (maybe a non-blocking one), must be complete before it is read. */
    if (stream != NULL) {
      const jg_status sync = jg_stream_synchronize(stream, err);
      if (sync != JG_OK) return sync;
    }
    return jg_array_num(a, out, err);
  }
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.axis = -1;
  o.mask_identity = c->mask_identity;
  o.keepdims = c->keepdims;
  o.stream = stream;
  return jg_array_reduce(a, c->r, &o, out, err);
}

#endif /* JAGGED_TESTS_JGT_REDUCE_CASES_H */
