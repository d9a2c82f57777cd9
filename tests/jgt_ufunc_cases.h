/* jgt_ufunc_cases.h: the table of elementwise functions with broadcasting (ufunc.h:
 * jg_array_ufunc1, jg_array_ufunc2, jg_array_ufunc2_scalar, jg_array_where) run on the host by
 * tests/unit/test_ufunc.c and on the GPU by tests/gpu/test_ufunc_gpu.c (inputs copied with
 * jg_array_to_device, the result copied back), with host input builders.
 *
 * Every expected value and type was worked out by hand from Awkward Array 2.x's broadcasting
 * (../shared/notes/awkward.md 6.2, whose examples are cases here) and NumPy 2's ufuncs and
 * promotion: int8 + uint8 -> int16, int32 + float32 -> float64, int64 + uint64 -> float64,
 * true_divide and float functions of integers -> float64, comparisons -> bool, wrapping integer
 * arithmetic, Python's signs for floor_divide and remainder, 0 for integer division by 0.
 * Values print as jg_array_to_string writes them (floats in the fewest digits, None, True).
 *
 * Cases marked `approx` involve transcendental functions, whose last bits differ between the
 * host's libm and CUDA's math library (a few ulp): the GPU test compares their values with a
 * relative tolerance (JGT_UC_RTOL) instead of exactly. */
#ifndef JAGGED_TESTS_JGT_UFUNC_CASES_H
#define JAGGED_TESTS_JGT_UFUNC_CASES_H

#include <math.h>

#include "jagged/ufunc.h"
#include "jgt_array_cases.h"

/** Relative tolerance of the approx cases between host and device (float64 and float32
 *  results: CUDA's functions are within 2 ulp, glibc's within 1 ulp, so 4 ulp of float32). */
#define JGT_UC_RTOL 5e-7

/* ------------------------------------------------------------------------------------------ */
/* Builders (host arrays; each returns a new reference)                                        */
/* ------------------------------------------------------------------------------------------ */

#define JGT_UC_N(a) ((jg_len)(sizeof(a) / sizeof((a)[0])))

/* [[1, 2, 3], [], [4, 5]] int64, offsets from 0. */
static inline jg_array *jgt_uc_x3(void) {
  static const int64_t off[] = {0, 3, 3, 5};
  static const int64_t v[] = {1, 2, 3, 4, 5};
  return jgt_offsets64(off, 4, jgt_i64(v, 5));
}
/* The same lists stored with offsets [2, 5, 5, 7] over 9 values. */
static inline jg_array *jgt_uc_x3_shifted(void) {
  static const int64_t off[] = {2, 5, 5, 7};
  static const int64_t v[] = {-9, -9, 1, 2, 3, 4, 5, -9, -9};
  return jgt_offsets64(off, 4, jgt_i64(v, 9));
}
/* The same lists as a list node, stored out of order: starts [2, 0, 7], stops [5, 0, 9]. */
static inline jg_array *jgt_uc_x3_list(void) {
  static const int64_t starts[] = {2, 0, 7};
  static const int64_t stops[] = {5, 0, 9};
  static const int64_t v[] = {-9, -9, 1, 2, 3, -9, -9, 4, 5};
  return jgt_list(starts, stops, 3, 3, JG_DTYPE_INT64, jgt_i64(v, 9));
}
/* [[10, 20, 30], [], [40, 50]] */
static inline jg_array *jgt_uc_y3(void) {
  static const int64_t off[] = {0, 3, 3, 5};
  static const int64_t v[] = {10, 20, 30, 40, 50};
  return jgt_offsets64(off, 4, jgt_i64(v, 5));
}
/* [[1, 2, 3], [], [4, 5, 6]]: list 2 differs from x3's */
static inline jg_array *jgt_uc_y3_bad(void) {
  static const int64_t off[] = {0, 3, 3, 6};
  static const int64_t v[] = {1, 2, 3, 4, 5, 6};
  return jgt_offsets64(off, 4, jgt_i64(v, 6));
}
/* [10, 20, 30] */
static inline jg_array *jgt_uc_per3(void) {
  static const int64_t v[] = {10, 20, 30};
  return jgt_i64(v, 3);
}
/* [[1, 2, 3], [4, 5]] */
static inline jg_array *jgt_uc_x2(void) {
  static const int64_t off[] = {0, 3, 5};
  static const int64_t v[] = {1, 2, 3, 4, 5};
  return jgt_offsets64(off, 3, jgt_i64(v, 5));
}
/* [[1.1, 2.2, 3.3], [], [4.4, 5.5]] */
static inline jg_array *jgt_uc_f3(void) {
  static const int64_t off[] = {0, 3, 3, 5};
  static const double v[] = {1.1, 2.2, 3.3, 4.4, 5.5};
  return jgt_offsets64(off, 4, jgt_numeric(v, 5, JG_DTYPE_FLOAT64));
}
/* [[[1], [1, 2], [1, 2, 3]], [], [[1, 2, 3, 4], [1, 2, 3, 4, 5]]] */
static inline jg_array *jgt_uc_deep(void) {
  static const int64_t inner[] = {0, 1, 3, 6, 10, 15};
  static const int64_t outer[] = {0, 3, 3, 5};
  static const int64_t v[] = {1, 1, 2, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4, 5};
  return jgt_offsets64(outer, 4, jgt_offsets64(inner, 6, jgt_i64(v, 15)));
}
/* [[1, 2, 3], None, [4, 5]] (byte-masked lists over offsets [0, 3, 5, 7]) */
static inline jg_array *jgt_uc_none_list(void) {
  static const int8_t mask[] = {1, 0, 1};
  static const int64_t off[] = {0, 3, 5, 7};
  static const int64_t v[] = {1, 2, 3, 8, 8, 4, 5};
  return jgt_byte_masked(mask, 3, true, jgt_offsets64(off, 4, jgt_i64(v, 7)));
}
/* [[1, None, 3]] (indexed option values) */
static inline jg_array *jgt_uc_none_value(void) {
  static const int64_t idx[] = {0, -1, 1};
  static const int64_t v[] = {1, 3};
  static const int64_t off[] = {0, 3};
  return jgt_offsets64(off, 2, jgt_indexed(idx, 3, JG_DTYPE_INT64, jgt_i64(v, 2)));
}
/* [[10, None, 30], [], [40, None]]: bit-masked values (LSB order, valid_when false) */
static inline jg_array *jgt_uc_none_bits(void) {
  static const uint8_t bits[] = {0x12};
  static const int64_t w[] = {10, 20, 30, 40, 50};
  static const int64_t off[] = {0, 3, 3, 5};
  return jgt_offsets64(off, 4, jgt_bit_masked(bits, 1, false, true, 5, jgt_i64(w, 5)));
}
static inline jg_array *jgt_uc_one(void) {
  static const int64_t v[] = {1};
  return jgt_i64(v, 1);
}
/* where's example: [[T, F], [T]], [[1, 2], [3]], [100, 200] */
static inline jg_array *jgt_uc_cond(void) {
  static const int64_t off[] = {0, 2, 3};
  static const bool v[] = {true, false, true};
  return jgt_offsets64(off, 3, jgt_numeric(v, 3, JG_DTYPE_BOOL));
}
static inline jg_array *jgt_uc_wx(void) {
  static const int64_t off[] = {0, 2, 3};
  static const int64_t v[] = {1, 2, 3};
  return jgt_offsets64(off, 3, jgt_i64(v, 3));
}
static inline jg_array *jgt_uc_wy(void) {
  static const int64_t v[] = {100, 200};
  return jgt_i64(v, 2);
}
static inline jg_array *jgt_uc_wy_f(void) {
  static const double v[] = {0.5, 1.5};
  return jgt_numeric(v, 2, JG_DTYPE_FLOAT64);
}
/* A record of one field: refused. */
static inline jg_array *jgt_uc_record(void) {
  jg_array *f[1] = {jgt_uc_per3()};
  return jgt_record(1, f, (const char *const[]){"a"}, -1);
}
/* x3()[1:3] = [[], [4, 5]] and [5, 6] */
static inline jg_array *jgt_uc_sliced(void) { return jgt_slice(jgt_uc_x3(), 1, 3); }
static inline jg_array *jgt_uc_56(void) {
  static const int64_t v[] = {5, 6};
  return jgt_i64(v, 2);
}
/* No lists (one offset, 5) over nothing */
static inline jg_array *jgt_uc_empty_lists(void) {
  static const int64_t off[] = {5};
  return jgt_offsets64(off, 1, jgt_i64(NULL, 0));
}
/* [[3], [0], [5]] regular of size 1 (a keepdims reduction's shape) */
static inline jg_array *jgt_uc_keepdims(void) {
  static const int64_t v[] = {3, 0, 5};
  return jgt_regular(jgt_i64(v, 3), 1, -1);
}
/* flat arrays of several dtypes */
static inline jg_array *jgt_uc_i8(void) {
  static const int8_t v[] = {127, -128, -3, 5};
  return jgt_numeric(v, 4, JG_DTYPE_INT8);
}
static inline jg_array *jgt_uc_u8(void) {
  static const uint8_t v[] = {1, 255, 200, 0};
  return jgt_numeric(v, 4, JG_DTYPE_UINT8);
}
static inline jg_array *jgt_uc_i32(void) {
  static const int32_t v[] = {1, -2, 3, 16777217};
  return jgt_numeric(v, 4, JG_DTYPE_INT32);
}
static inline jg_array *jgt_uc_f32(void) {
  static const float v[] = {0.5f, -1.25f, 4.0f, 2.0f};
  return jgt_numeric(v, 4, JG_DTYPE_FLOAT32);
}
static inline jg_array *jgt_uc_i64(void) {
  static const int64_t v[] = {-1, 2, INT64_MAX, 4};
  return jgt_i64(v, 4);
}
static inline jg_array *jgt_uc_u64(void) {
  static const uint64_t v[] = {1, 2, 3, UINT64_MAX};
  return jgt_numeric(v, 4, JG_DTYPE_UINT64);
}
static inline jg_array *jgt_uc_bools(void) {
  static const bool v[] = {true, true, false, false};
  return jgt_numeric(v, 4, JG_DTYPE_BOOL);
}
static inline jg_array *jgt_uc_bools2(void) {
  static const bool v[] = {true, false, true, false};
  return jgt_numeric(v, 4, JG_DTYPE_BOOL);
}
/* floor_divide / remainder operands (int64) */
static inline jg_array *jgt_uc_num(void) {
  static const int64_t v[] = {7, -7, 7, -7, 5, INT64_MIN, 6};
  return jgt_i64(v, 7);
}
static inline jg_array *jgt_uc_den(void) {
  static const int64_t v[] = {2, 2, -2, -2, 0, -1, -1};
  return jgt_i64(v, 7);
}
static inline jg_array *jgt_uc_fnum(void) {
  static const double v[] = {7.5, -7.5, 7.5, 1.0, 0.0, -0.0};
  return jgt_numeric(v, 6, JG_DTYPE_FLOAT64);
}
static inline jg_array *jgt_uc_fden(void) {
  static const double v[] = {2, 2, -2, 0, 0, 3};
  return jgt_numeric(v, 6, JG_DTYPE_FLOAT64);
}
static inline jg_array *jgt_uc_base(void) {
  static const int64_t v[] = {2, 3, -2, 0, 7};
  return jgt_i64(v, 5);
}
static inline jg_array *jgt_uc_expo(void) {
  static const int64_t v[] = {10, 0, 3, 0, 64};
  return jgt_i64(v, 5);
}
static inline jg_array *jgt_uc_expo_neg(void) {
  static const int64_t v[] = {10, 0, 3, -1, -2};
  return jgt_i64(v, 5);
}
/* floats with NaN and infinities */
static inline jg_array *jgt_uc_fspecial(void) {
  static const int64_t off[] = {0, 3, 5};
  static const double v[] = {1.5, NAN, -INFINITY, -2.5, 0.0};
  return jgt_offsets64(off, 3, jgt_numeric(v, 5, JG_DTYPE_FLOAT64));
}
static inline jg_array *jgt_uc_fother(void) {
  static const int64_t off[] = {0, 3, 5};
  static const double v[] = {2.0, 1.0, 3.0, NAN, -1.0};
  return jgt_offsets64(off, 3, jgt_numeric(v, 5, JG_DTYPE_FLOAT64));
}
/* transcendental inputs: [[0.5, 1, 2], [], [0.25]] float64 and float32 */
static inline jg_array *jgt_uc_trans(void) {
  static const int64_t off[] = {0, 3, 3, 4};
  static const double v[] = {0.5, 1.0, 2.0, 0.25};
  return jgt_offsets64(off, 4, jgt_numeric(v, 4, JG_DTYPE_FLOAT64));
}
static inline jg_array *jgt_uc_trans32(void) {
  static const int64_t off[] = {0, 3, 3, 4};
  static const float v[] = {0.5f, 1.0f, 2.0f, 0.25f};
  return jgt_offsets64(off, 4, jgt_numeric(v, 4, JG_DTYPE_FLOAT32));
}
/* int32 [[1, 4, 9], [], [16]] for float functions of integers */
static inline jg_array *jgt_uc_squares(void) {
  static const int64_t off[] = {0, 3, 3, 4};
  static const int32_t v[] = {1, 4, 9, 16};
  return jgt_offsets64(off, 4, jgt_numeric(v, 4, JG_DTYPE_INT32));
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef enum jgt_uc_kind {
  JGT_UC_UNARY = 1,  /**< jg_array_ufunc1(f, a) */
  JGT_UC_BINARY = 2, /**< jg_array_ufunc2(f, a, b) */
  JGT_UC_SCALAR = 3, /**< jg_array_ufunc2_scalar(f, a, s, left) */
  JGT_UC_WHERE = 4   /**< jg_array_where(a, b, c) */
} jgt_uc_kind;

typedef struct jgt_ucase {
  const char *name;
  jgt_uc_kind kind;
  jg_ufunc f;
  jg_array *(*a)(void);
  jg_array *(*b)(void);
  jg_array *(*c)(void);
  jg_scalar s;
  bool left;
  const char *value; /**< expected jg_array_to_string (NULL: error case) */
  const char *type;  /**< expected jg_array_type_string */
  jg_status status;  /**< error cases: the status, message fragment and err.index */
  const char *message;
  int64_t index;
  bool approx; /**< transcendental: host and device compared with JGT_UC_RTOL */
} jgt_ucase;

/* Runs case `c` on the given inputs (any backend). */
static inline jg_status jgt_uc_run(const jgt_ucase *c, const jg_array *a, const jg_array *b,
                                   const jg_array *cc, jg_stream stream, jg_array **out,
                                   jg_error *err) {
  switch (c->kind) {
    case JGT_UC_UNARY:
      return jg_array_ufunc1(c->f, a, stream, out, err);
    case JGT_UC_BINARY:
      return jg_array_ufunc2(c->f, a, b, stream, out, err);
    case JGT_UC_SCALAR:
      return jg_array_ufunc2_scalar(c->f, a, c->s, c->left, stream, out, err);
    default:
      return jg_array_where(a, b, cc, stream, out, err);
  }
}

#define JGT_UC_OK(name, kind, f, a, b, value, type) \
  {name, kind, f, a, b, NULL, {0}, false, value, type, JG_OK, NULL, 0, false}
#define JGT_UC_S(name, f, a, s, left, value, type) \
  {name, JGT_UC_SCALAR, f, a, NULL, NULL, s, left, value, type, JG_OK, NULL, 0, false}
#define JGT_UC_ERR(name, kind, f, a, b, status, message, index) \
  {name, kind, f, a, b, NULL, {0}, false, NULL, NULL, status, message, index, false}
#define JGT_UC_APPROX(name, kind, f, a, b, value, type) \
  {name, kind, f, a, b, NULL, {0}, false, value, type, JG_OK, NULL, 0, true}

static inline const jgt_ucase *jgt_ufunc_cases(size_t *n) {
  static jgt_ucase cases[96];
  static size_t count = 0;
  if (count == 0) {
    const jgt_ucase t[] = {
        /* awkward.md 6.2 */
        JGT_UC_S("jagged + scalar", JG_UFUNC_ADD, jgt_uc_x3, jg_scalar_int(10), false,
                 "[[11, 12, 13], [], [14, 15]]", "3 * var * int64"),
        JGT_UC_S("scalar - jagged", JG_UFUNC_SUBTRACT, jgt_uc_x3, jg_scalar_int(10), true,
                 "[[9, 8, 7], [], [6, 5]]", "3 * var * int64"),
        JGT_UC_OK("jagged + length-1 array", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_x3, jgt_uc_one,
                  "[[2, 3, 4], [], [5, 6]]", "3 * var * int64"),
        JGT_UC_OK("jagged + per-list", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_x3, jgt_uc_per3,
                  "[[11, 12, 13], [], [34, 35]]", "3 * var * int64"),
        JGT_UC_OK("per-list * jagged", JGT_UC_BINARY, JG_UFUNC_MULTIPLY, jgt_uc_per3, jgt_uc_x3,
                  "[[10, 20, 30], [], [120, 150]]", "3 * var * int64"),
        JGT_UC_OK("same counts", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_x3, jgt_uc_y3,
                  "[[11, 22, 33], [], [44, 55]]", "3 * var * int64"),
        JGT_UC_OK("deeper into shallower", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_f3, jgt_uc_deep,
                  "[[[2.1], [3.2, 4.2], [4.3, 5.3, 6.3]], [], [[5.4, 6.4, 7.4, 8.4], [6.5, 7.5, "
                  "8.5, 9.5, 10.5]]]",
                  "3 * var * var * float64"),
        JGT_UC_OK("None list + per-list", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_none_list,
                  jgt_uc_per3, "[[11, 12, 13], None, [34, 35]]", "3 * option[var * int64]"),
        JGT_UC_OK("None list + jagged", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_x3, jgt_uc_none_list,
                  "[[2, 4, 6], None, [8, 10]]", "3 * option[var * int64]"),
        JGT_UC_S("None value + 1", JG_UFUNC_ADD, jgt_uc_none_value, jg_scalar_int(1), false,
                 "[[2, None, 4]]", "1 * var * ?int64"),
        JGT_UC_OK("bit-masked values * jagged", JGT_UC_BINARY, JG_UFUNC_MULTIPLY, jgt_uc_x3,
                  jgt_uc_none_bits, "[[10, None, 90], [], [160, None]]", "3 * var * ?int64"),
        {"where", JGT_UC_WHERE, JG_UFUNC_ADD, jgt_uc_cond, jgt_uc_wx, jgt_uc_wy, {0}, false,
         "[[1, 100], [3]]", "2 * var * int64", JG_OK, NULL, 0, false},
        {"where promotes", JGT_UC_WHERE, JG_UFUNC_ADD, jgt_uc_cond, jgt_uc_wx, jgt_uc_wy_f, {0},
         false, "[[1, 0.5], [3]]", "2 * var * float64", JG_OK, NULL, 0, false},
        /* layouts */
        JGT_UC_OK("offsets not at 0 * list node", JGT_UC_BINARY, JG_UFUNC_MULTIPLY,
                  jgt_uc_x3_shifted, jgt_uc_x3_list, "[[1, 4, 9], [], [16, 25]]",
                  "3 * var * int64"),
        JGT_UC_S("list node - 1", JG_UFUNC_SUBTRACT, jgt_uc_x3_list, jg_scalar_int(1), false,
                 "[[0, 1, 2], [], [3, 4]]", "3 * var * int64"),
        JGT_UC_OK("sliced + per-list", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_sliced, jgt_uc_56,
                  "[[], [10, 11]]", "2 * var * int64"),
        JGT_UC_S("no lists + 1", JG_UFUNC_ADD, jgt_uc_empty_lists, jg_scalar_int(1), false, "[]",
                 "0 * var * int64"),
        JGT_UC_OK("keepdims regular size 1 stretches", JGT_UC_BINARY, JG_UFUNC_SUBTRACT,
                  jgt_uc_x3, jgt_uc_keepdims, "[[-2, -1, 0], [], [-1, 0]]", "3 * var * int64"),
        /* promotion */
        JGT_UC_OK("int8 + uint8 -> int16", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_i8, jgt_uc_u8,
                  "[128, 127, 197, 5]", "4 * int16"),
        JGT_UC_OK("int32 + float32 -> float64", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_i32,
                  jgt_uc_f32, "[1.5, -3.25, 7, 16777219]", "4 * float64"),
        JGT_UC_OK("int64 + uint64 -> float64", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_i64,
                  jgt_uc_u64, "[0, 4, 9.223372036854776e+18, 1.8446744073709552e+19]",
                  "4 * float64"),
        JGT_UC_S("uint8 + weak int stays uint8", JG_UFUNC_ADD, jgt_uc_u8, jg_scalar_int(1), false,
                 "[2, 0, 201, 1]", "4 * uint8"),
        JGT_UC_S("uint8 + int64 scalar -> int64", JG_UFUNC_ADD, jgt_uc_u8, jg_scalar_i64(1),
                 false, "[2, 256, 201, 1]", "4 * int64"),
        JGT_UC_S("int8 * weak float -> float64", JG_UFUNC_MULTIPLY, jgt_uc_i8,
                 jg_scalar_float(0.5), false, "[63.5, -64, -1.5, 2.5]", "4 * float64"),
        JGT_UC_S("float32 * weak float stays float32", JG_UFUNC_MULTIPLY, jgt_uc_f32,
                 jg_scalar_float(2.0), false, "[1, -2.5, 8, 4]", "4 * float32"),
        JGT_UC_OK("bool + bool is or", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_bools, jgt_uc_bools2,
                  "[True, True, True, False]", "4 * bool"),
        JGT_UC_OK("bool * bool is and", JGT_UC_BINARY, JG_UFUNC_MULTIPLY, jgt_uc_bools,
                  jgt_uc_bools2, "[True, False, False, False]", "4 * bool"),
        JGT_UC_OK("bool + int8 -> int8", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_bools, jgt_uc_i8,
                  "[-128, -127, -3, 5]", "4 * int8"),
        JGT_UC_OK("int / int -> float64", JGT_UC_BINARY, JG_UFUNC_TRUE_DIVIDE, jgt_uc_x3,
                  jgt_uc_per3, "[[0.1, 0.2, 0.3], [], [0.13333333333333333, 0.16666666666666666]]",
                  "3 * var * float64"),
        /* arithmetic rules */
        JGT_UC_S("int8 overflow wraps", JG_UFUNC_ADD, jgt_uc_i8, jg_scalar_int(1), false,
                 "[-128, -127, -2, 6]", "4 * int8"),
        JGT_UC_OK("floor_divide ints", JGT_UC_BINARY, JG_UFUNC_FLOOR_DIVIDE, jgt_uc_num,
                  jgt_uc_den, "[3, -4, -4, 3, 0, -9223372036854775808, -6]", "7 * int64"),
        JGT_UC_OK("remainder ints", JGT_UC_BINARY, JG_UFUNC_REMAINDER, jgt_uc_num, jgt_uc_den,
                  "[1, 1, -1, -1, 0, 0, 0]", "7 * int64"),
        JGT_UC_OK("floor_divide floats", JGT_UC_BINARY, JG_UFUNC_FLOOR_DIVIDE, jgt_uc_fnum,
                  jgt_uc_fden, "[3, -4, -4, inf, nan, -0]", "6 * float64"),
        JGT_UC_OK("remainder floats", JGT_UC_BINARY, JG_UFUNC_REMAINDER, jgt_uc_fnum, jgt_uc_fden,
                  "[1.5, 0.5, -0.5, nan, nan, 0]", "6 * float64"),
        JGT_UC_OK("power ints", JGT_UC_BINARY, JG_UFUNC_POWER, jgt_uc_base, jgt_uc_expo,
                  "[1024, 1, -8, 1, 1843124298495784449]", "5 * int64"),
        JGT_UC_ERR("power ints, negative exponent", JGT_UC_BINARY, JG_UFUNC_POWER, jgt_uc_base,
                   jgt_uc_expo_neg, JG_EVALUE, "negative integer powers", 3),
        JGT_UC_OK("minimum with NaN", JGT_UC_BINARY, JG_UFUNC_MINIMUM, jgt_uc_fspecial,
                  jgt_uc_fother, "[[1.5, nan, -inf], [nan, -1]]", "2 * var * float64"),
        JGT_UC_OK("maximum with NaN", JGT_UC_BINARY, JG_UFUNC_MAXIMUM, jgt_uc_fspecial,
                  jgt_uc_fother, "[[2, nan, 3], [nan, 0]]", "2 * var * float64"),
        JGT_UC_S("greater", JG_UFUNC_GREATER, jgt_uc_x3, jg_scalar_int(2), false,
                 "[[False, False, True], [], [True, True]]", "3 * var * bool"),
        JGT_UC_OK("less_equal per-list", JGT_UC_BINARY, JG_UFUNC_LESS_EQUAL, jgt_uc_x3,
                  jgt_uc_one, "[[True, False, False], [], [False, False]]", "3 * var * bool"),
        JGT_UC_OK("equal", JGT_UC_BINARY, JG_UFUNC_EQUAL, jgt_uc_x3_list, jgt_uc_x3,
                  "[[True, True, True], [], [True, True]]", "3 * var * bool"),
        JGT_UC_OK("not_equal with NaN", JGT_UC_BINARY, JG_UFUNC_NOT_EQUAL, jgt_uc_fspecial,
                  jgt_uc_fspecial, "[[False, True, False], [False, False]]", "2 * var * bool"),
        JGT_UC_OK("logical_and", JGT_UC_BINARY, JG_UFUNC_LOGICAL_AND, jgt_uc_i8, jgt_uc_u8,
                  "[True, True, True, False]", "4 * bool"),
        JGT_UC_OK("logical_xor", JGT_UC_BINARY, JG_UFUNC_LOGICAL_XOR, jgt_uc_bools,
                  jgt_uc_bools2, "[False, True, True, False]", "4 * bool"),
        JGT_UC_OK("bitwise_and int8 & uint8", JGT_UC_BINARY, JG_UFUNC_BITWISE_AND, jgt_uc_i8,
                  jgt_uc_u8, "[1, 128, 200, 0]", "4 * int16"),
        /* unary */
        JGT_UC_OK("negative", JGT_UC_UNARY, JG_UFUNC_NEGATIVE, jgt_uc_x3_shifted, NULL,
                  "[[-1, -2, -3], [], [-4, -5]]", "3 * var * int64"),
        JGT_UC_OK("abs int8 wraps at -128", JGT_UC_UNARY, JG_UFUNC_ABS, jgt_uc_i8, NULL,
                  "[127, -128, 3, 5]", "4 * int8"),
        JGT_UC_OK("invert int8", JGT_UC_UNARY, JG_UFUNC_INVERT, jgt_uc_i8, NULL,
                  "[-128, 127, 2, -6]", "4 * int8"),
        JGT_UC_OK("sqrt int32 -> float64", JGT_UC_UNARY, JG_UFUNC_SQRT, jgt_uc_squares, NULL,
                  "[[1, 2, 3], [], [4]]", "3 * var * float64"),
        JGT_UC_OK("sqrt float32 stays float32", JGT_UC_UNARY, JG_UFUNC_SQRT, jgt_uc_f32, NULL,
                  "[0.70710677, nan, 2, 1.4142135]", "4 * float32"),
        JGT_UC_OK("floor", JGT_UC_UNARY, JG_UFUNC_FLOOR, jgt_uc_fspecial, NULL,
                  "[[1, nan, -inf], [-3, 0]]", "2 * var * float64"),
        JGT_UC_OK("ceil", JGT_UC_UNARY, JG_UFUNC_CEIL, jgt_uc_fspecial, NULL,
                  "[[2, nan, -inf], [-2, 0]]", "2 * var * float64"),
        JGT_UC_OK("isnan", JGT_UC_UNARY, JG_UFUNC_ISNAN, jgt_uc_fspecial, NULL,
                  "[[False, True, False], [False, False]]", "2 * var * bool"),
        JGT_UC_OK("isfinite", JGT_UC_UNARY, JG_UFUNC_ISFINITE, jgt_uc_fspecial, NULL,
                  "[[True, False, False], [True, True]]", "2 * var * bool"),
        JGT_UC_OK("isinf", JGT_UC_UNARY, JG_UFUNC_ISINF, jgt_uc_fspecial, NULL,
                  "[[False, False, True], [False, False]]", "2 * var * bool"),
        JGT_UC_OK("isnan of ints", JGT_UC_UNARY, JG_UFUNC_ISNAN, jgt_uc_x3, NULL,
                  "[[False, False, False], [], [False, False]]", "3 * var * bool"),
        JGT_UC_OK("logical_not", JGT_UC_UNARY, JG_UFUNC_LOGICAL_NOT, jgt_uc_i8, NULL,
                  "[False, False, False, False]", "4 * bool"),
        JGT_UC_OK("abs through None", JGT_UC_UNARY, JG_UFUNC_NEGATIVE, jgt_uc_none_list, NULL,
                  "[[-1, -2, -3], None, [-4, -5]]", "3 * option[var * int64]"),
        /* transcendental (approx on the GPU) */
        JGT_UC_APPROX("exp", JGT_UC_UNARY, JG_UFUNC_EXP, jgt_uc_trans, NULL,
                      "[[1.6487212707001282, 2.718281828459045, 7.38905609893065], [], "
                      "[1.2840254166877414]]",
                      "3 * var * float64"),
        JGT_UC_APPROX("log", JGT_UC_UNARY, JG_UFUNC_LOG, jgt_uc_trans, NULL,
                      "[[-0.6931471805599453, 0, 0.6931471805599453], [], [-1.3862943611198906]]",
                      "3 * var * float64"),
        JGT_UC_APPROX("sin float32", JGT_UC_UNARY, JG_UFUNC_SIN, jgt_uc_trans32, NULL,
                      "[[0.47942555, 0.84147096, 0.9092974], [], [0.24740396]]",
                      "3 * var * float32"),
        JGT_UC_APPROX("arctan2", JGT_UC_BINARY, JG_UFUNC_ARCTAN2, jgt_uc_trans, jgt_uc_per3,
                      "[[0.04995839572194276, 0.09966865249116202, 0.19739555984988075], [], "
                      "[0.008333140440135918]]",
                      "3 * var * float64"),
        /* errors */
        JGT_UC_ERR("unequal counts", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_x3, jgt_uc_y3_bad,
                   JG_ESHAPE, "list 2 has 2 elements in x and 3 in y", 2),
        JGT_UC_ERR("unequal counts, list node", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_y3_bad,
                   jgt_uc_x3_list, JG_ESHAPE, "list 2 has 3 elements in x and 2 in y", 2),
        JGT_UC_ERR("outer length mismatch", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_x2, jgt_uc_per3,
                   JG_ESHAPE, "x has length 2, y has length 3", -1),
        JGT_UC_ERR("records refused", JGT_UC_BINARY, JG_UFUNC_ADD, jgt_uc_per3, jgt_uc_record,
                   JG_ENOTSUP, "cannot broadcast records", -1),
        JGT_UC_ERR("subtract bools", JGT_UC_BINARY, JG_UFUNC_SUBTRACT, jgt_uc_bools,
                   jgt_uc_bools2, JG_EDTYPE, "subtract of two bools", -1),
        JGT_UC_ERR("bitwise of floats", JGT_UC_BINARY, JG_UFUNC_BITWISE_OR, jgt_uc_f32,
                   jgt_uc_i8, JG_EDTYPE, "bitwise_or is not defined for float32", -1),
        JGT_UC_ERR("negative of bool", JGT_UC_UNARY, JG_UFUNC_NEGATIVE, jgt_uc_bools, NULL,
                   JG_EDTYPE, "negative of bool", -1),
        JGT_UC_ERR("unary function as binary", JGT_UC_BINARY, JG_UFUNC_SQRT, jgt_uc_x3,
                   jgt_uc_x3, JG_EINVAL, "is not a binary function", -1),
        {"where needs a bool condition", JGT_UC_WHERE, JG_UFUNC_ADD, jgt_uc_wx, jgt_uc_wx,
         jgt_uc_wy, {0}, false, NULL, NULL, JG_EDTYPE, "the condition must be bool", -1, false},
        {"where: counts differ", JGT_UC_WHERE, JG_UFUNC_ADD, jgt_uc_cond, jgt_uc_wx, jgt_uc_x2,
         {0}, false, NULL, NULL, JG_ESHAPE, "list 0 has 2 elements in condition and 3 in y", 0,
         false},
    };
    count = sizeof t / sizeof t[0];
    memcpy(cases, t, sizeof t);
  }
  *n = count;
  return cases;
}

#endif /* JAGGED_TESTS_JGT_UFUNC_CASES_H */
