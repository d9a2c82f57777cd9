/* ufunc.h: elementwise functions of jagged arrays (NumPy's ufuncs through Awkward Array's
 * broadcasting): arithmetic, comparisons, logical and bitwise operations, math functions, and
 * where, with NumPy's dtype promotion.
 *
 * Broadcasting (Awkward 2.x, ../shared/notes/awkward.md 6.2): the inputs' structures are aligned
 * before the function runs on their numbers:
 *   - a scalar (jg_scalar, or a numeric array of length 1) goes everywhere:
 *     [[1, 2, 3], [], [4, 5]] + 10 = [[11, 12, 13], [], [14, 15]];
 *   - a flat array of one value per list is repeated across its list:
 *     [[1, 2, 3], [], [4, 5]] + [10, 20, 30] = [[11, 12, 13], [], [34, 35]];
 *   - jagged arrays of the same counts go elementwise; any differing count is JG_ESHAPE naming
 *     the list and both counts;
 *   - a shallower jagged array's values repeat inside the deeper one's innermost lists (on the
 *     right): [[1.1, 2.2, 3.3], [], [4.4, 5.5]] + [[[1], [1, 2], [1, 2, 3]], [], [[1, 2, 3, 4],
 *     [1, 2, 3, 4, 5]]] = [[[2.1], [3.2, 4.2], [4.3, 5.3, 6.3]], [], [[5.4, 6.4, 7.4, 8.4],
 *     [6.5, 7.5, 8.5, 9.5, 10.5]]];
 *   - an array of outer length 1 stretches along the outer dimension (NumPy's rule), and a
 *     regular dimension of size 1 stretches to any list length (a keepdims reduction broadcasts
 *     back against its input);
 *   - None propagates: a position is None in the result wherever any input is None there (None
 *     lists, None values; byte-masked, bit-masked and indexed options at any depth):
 *     [[1, 2, 3], None, [4, 5]] + [10, 20, 30] = [[11, 12, 13], None, [34, 35]].
 * Inputs may be list-offset arrays with offsets not starting at 0 and content past the last
 * list, list arrays (starts/stops in any order), regular arrays and options over numeric leaves
 * (bool, int8..int64, uint8..uint64, float32, float64). Results are compact: list-offset nodes
 * with offsets starting at 0 (an input's offsets are shared when they already are) and
 * byte-masked options (valid_when true) where the inputs had options, over a new numeric buffer;
 * regular inputs give var lists. Records are refused (apply the function to one field at a
 * time, jg_array_field), as Awkward does without a registered behaviour.
 *
 * Result dtypes follow NumPy (2.x): the inputs are promoted to one type first
 * (jg_dtype_promote), then comparisons, logical functions, isnan, isfinite and isinf give bool;
 * true_divide and arctan2 of integers give float64; the float functions (sqrt, exp, log, sin,
 * cos, tan, arcsin, arccos, arctan, sinh, cosh, tanh, floor, ceil) of bool and integers give
 * float64 (a deviation: NumPy gives float16 for bool, int8 and uint8 and float32 for int16 and
 * uint16; jagged has no float16 arithmetic) and keep float32 and float64. Integer arithmetic
 * wraps (two's complement), as NumPy's does; integer floor_divide and remainder by 0 give 0
 * (NumPy's result; NumPy also warns, jagged says nothing), floor_divide(INT_MIN, -1) gives
 * INT_MIN; floor_divide and remainder follow Python's sign rules (the remainder has the sign of
 * the divisor), for floats too (NumPy's npy_divmod); integer power with a negative exponent is
 * JG_EVALUE (NumPy raises "Integers to negative integer powers are not allowed"); minimum and
 * maximum propagate NaN. On bool: add is logical or, multiply logical and, subtract and negative
 * are JG_EDTYPE (as NumPy), floor_divide, remainder and power compute in int8 (as NumPy), invert
 * is logical not; bitwise functions of floats are JG_EDTYPE. Comparisons of int64 with uint64
 * compare as float64 (their promoted type). Values under None positions of the result are
 * unspecified (the function sees 0 there, so no error comes from them).
 *
 * Backends: every array argument must be on one backend (JG_EBACKEND otherwise, naming the
 * fixing call, jg_array_to_device / jg_array_to_host); the work runs there, as catalog kernels
 * (cast, ufunc_unary, ufunc_binary, where, and the broadcasting kernels), with no host round trip
 * per element. Each call is synchronous: it returns once the result is complete (it reads a few
 * single values back while broadcasting, and waits for `stream` at the end). Results are new
 * references that may share the inputs' offsets buffers (immutable) but never their values. */
#ifndef JAGGED_UFUNC_H
#define JAGGED_UFUNC_H

#include "jagged/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The elementwise functions. Numbers are pinned (ABI; also the op code of the ufunc kernels).
 *  Binary functions are 1..39, unary ones 40..79. */
typedef enum jg_ufunc {
  JG_UFUNC_ADD = 1,
  JG_UFUNC_SUBTRACT = 2,
  JG_UFUNC_MULTIPLY = 3,
  JG_UFUNC_TRUE_DIVIDE = 4,
  JG_UFUNC_FLOOR_DIVIDE = 5,
  JG_UFUNC_REMAINDER = 6, /**< NumPy's mod: the sign of the divisor */
  JG_UFUNC_POWER = 7,
  JG_UFUNC_MINIMUM = 8,
  JG_UFUNC_MAXIMUM = 9,
  JG_UFUNC_ARCTAN2 = 10,
  JG_UFUNC_EQUAL = 11,
  JG_UFUNC_NOT_EQUAL = 12,
  JG_UFUNC_LESS = 13,
  JG_UFUNC_LESS_EQUAL = 14,
  JG_UFUNC_GREATER = 15,
  JG_UFUNC_GREATER_EQUAL = 16,
  JG_UFUNC_LOGICAL_AND = 17,
  JG_UFUNC_LOGICAL_OR = 18,
  JG_UFUNC_LOGICAL_XOR = 19,
  JG_UFUNC_BITWISE_AND = 20,
  JG_UFUNC_BITWISE_OR = 21,
  JG_UFUNC_BITWISE_XOR = 22,
  JG_UFUNC_NEGATIVE = 40,
  JG_UFUNC_ABS = 41,
  JG_UFUNC_SQRT = 42,
  JG_UFUNC_EXP = 43,
  JG_UFUNC_LOG = 44,
  JG_UFUNC_SIN = 45,
  JG_UFUNC_COS = 46,
  JG_UFUNC_TAN = 47,
  JG_UFUNC_ARCSIN = 48,
  JG_UFUNC_ARCCOS = 49,
  JG_UFUNC_ARCTAN = 50,
  JG_UFUNC_SINH = 51,
  JG_UFUNC_COSH = 52,
  JG_UFUNC_TANH = 53,
  JG_UFUNC_FLOOR = 54,
  JG_UFUNC_CEIL = 55,
  JG_UFUNC_ISNAN = 56,
  JG_UFUNC_ISFINITE = 57,
  JG_UFUNC_ISINF = 58,
  JG_UFUNC_LOGICAL_NOT = 59,
  JG_UFUNC_INVERT = 60 /**< bitwise not of integers; logical not of bool */
} jg_ufunc;

/** NumPy's name of `f` ("add", "true_divide", "arctan2", "isfinite", ...); "unknown" for other
 *  values. Static storage. */
JG_API const char *jg_ufunc_name(jg_ufunc f);

/** The number of array arguments `f` takes: 1 (unary), 2 (binary), 0 for an unknown value. */
JG_API int jg_ufunc_arity(jg_ufunc f);

/** NumPy's common type of two dtypes among bool, int8..int64, uint8..uint64, float32 and
 *  float64 (np.result_type / np.promote_types): bool goes to the other type; two signed or two
 *  unsigned integers to the larger; a signed and an unsigned one to the signed type when it is
 *  larger, else to the next larger signed type (uint8 + int8 = int16, uint32 + int32 = int64),
 *  and int64 + uint64 = float64; integers of 1 or 2 bytes with float32 give float32, larger ones
 *  float64 (int32 + float32 = float64); float32 + float64 = float64. JG_DTYPE_INVALID for any
 *  other dtype (float16, complex, bfloat16, invalid values). */
JG_API jg_dtype jg_dtype_promote(jg_dtype a, jg_dtype b);

/** One number with a dtype: the operand of jg_array_ufunc2_scalar. Make it with the
 *  constructors below. A "weak" scalar (jg_scalar_int, jg_scalar_float) stands for a Python
 *  number and takes the array's type where it fits, as in NumPy 2 (NEP 50): int8 array + int 1
 *  is int8; an int with a float array keeps the float type; a float with an integer or bool
 *  array gives float64, with a float32 array float32. A typed scalar (jg_scalar_i64,
 *  jg_scalar_f32, ...) promotes like an array of its dtype. */
typedef struct jg_scalar {
  jg_dtype dtype; /**< bool, int8..int64, uint8..uint64, float32 or float64 */
  bool weak;      /**< a Python-like number: see above */
  union {
    int64_t i64;  /**< bool (0/1) and signed integer dtypes */
    uint64_t u64; /**< unsigned integer dtypes */
    double f64;   /**< float32 and float64 (float32 values are exact in double) */
  } v;
} jg_scalar;

static inline jg_scalar jg_scalar_bool(bool value) {
  jg_scalar s;
  s.dtype = JG_DTYPE_BOOL;
  s.weak = false;
  s.v.i64 = value ? 1 : 0;
  return s;
}
static inline jg_scalar jg_scalar_i32(int32_t value) {
  jg_scalar s;
  s.dtype = JG_DTYPE_INT32;
  s.weak = false;
  s.v.i64 = value;
  return s;
}
static inline jg_scalar jg_scalar_i64(int64_t value) {
  jg_scalar s;
  s.dtype = JG_DTYPE_INT64;
  s.weak = false;
  s.v.i64 = value;
  return s;
}
static inline jg_scalar jg_scalar_u64(uint64_t value) {
  jg_scalar s;
  s.dtype = JG_DTYPE_UINT64;
  s.weak = false;
  s.v.u64 = value;
  return s;
}
static inline jg_scalar jg_scalar_f32(float value) {
  jg_scalar s;
  s.dtype = JG_DTYPE_FLOAT32;
  s.weak = false;
  s.v.f64 = (double)value;
  return s;
}
static inline jg_scalar jg_scalar_f64(double value) {
  jg_scalar s;
  s.dtype = JG_DTYPE_FLOAT64;
  s.weak = false;
  s.v.f64 = value;
  return s;
}
/** A Python int (weak int64): converted to the array's integer type (wrapping) when the array
 *  is an integer array, to its float type when a float array, int64 with a bool array. */
static inline jg_scalar jg_scalar_int(int64_t value) {
  jg_scalar s = jg_scalar_i64(value);
  s.weak = true;
  return s;
}
/** A Python float (weak float64): the float type of a float array, float64 otherwise. */
static inline jg_scalar jg_scalar_float(double value) {
  jg_scalar s = jg_scalar_f64(value);
  s.weak = true;
  return s;
}

/** y = f(x) elementwise for a unary `f` (40..79), keeping x's structure (its lists become
 *  compact list-offset lists; None stays None).
 *  x: any array of lists, regular lists and options over a numeric leaf (see the top), on the
 *  cpu or a cuda backend; the result is on the same backend, `*out` a new reference.
 *  dtypes: negative, abs and invert keep x's dtype; isnan, isfinite, isinf and logical_not give
 *  bool; the float functions keep float32/float64 and give float64 for bool and integers.
 *  `stream`: the CUDA stream of the work (NULL: the legacy default stream; ignored on the host);
 *  the call waits for it before returning.
 *  Errors: JG_EINVAL (NULL argument; f not a unary function), JG_EDTYPE (negative of bool,
 *  invert of floats, a leaf dtype outside the list above), JG_ENOTSUP (records; numeric data of
 *  ndim > 1), JG_EVALUE (lists or option indexes outside their content), JG_ENOMEM,
 *  JG_EDEVMEM, JG_ECUDA. Messages start with "jg_array_ufunc1". Follows NumPy's ufuncs on
 *  awkward arrays (ak.Array.__array_ufunc__). */
JG_API jg_status jg_array_ufunc1(jg_ufunc f, const jg_array *x, jg_stream stream, jg_array **out,
                                 jg_error *err);

/** z = f(x, y) elementwise for a binary `f` (1..39), x and y broadcast against each other (see
 *  the top): the result has the structure of the deeper input, None where either is None.
 *  x, y: arrays on one backend (cpu, or the same cuda device); `*out` a new reference there.
 *  dtypes: x and y are promoted to jg_dtype_promote(x, y) (true_divide and arctan2 of integers:
 *  float64; floor_divide, remainder and power of two bools: int8); comparisons and logical
 *  functions give bool, the others the promoted type.
 *  Errors: JG_EINVAL (NULL argument; f not binary), JG_EBACKEND (x and y on different backends
 *  or devices; err->index = the argument, 0 or 1), JG_ESHAPE (outer lengths differ: "cannot
 *  broadcast: x has length 5, y has length 4"; or counts differ: "cannot broadcast: list 17 has
 *  3 elements in x and 2 in y", err->index = the list), JG_EDTYPE (unsupported dtypes or
 *  functions of them: subtract of bools, bitwise functions of floats), JG_EVALUE (an integer
 *  power with a negative exponent: "... at position 12", err->index = the position among the
 *  broadcast leaf values; lists or indexes outside their content), JG_ENOTSUP (records, ndim >
 *  1), JG_ENOMEM, JG_EDEVMEM, JG_ECUDA. Messages start with "jg_array_ufunc2". Synchronous on
 *  `stream` as jg_array_ufunc1. Follows NumPy's ufuncs on awkward arrays (np.add(x, y), ...). */
JG_API jg_status jg_array_ufunc2(jg_ufunc f, const jg_array *x, const jg_array *y,
                                 jg_stream stream, jg_array **out, jg_error *err);

/** jg_array_ufunc2 with a scalar operand: f(x, s), or f(s, x) when `scalar_on_left`. The scalar
 *  goes to x's backend (one tiny copy on a device). Promotion as jg_array_ufunc2, a weak scalar
 *  taking x's type (see jg_scalar). Errors: as jg_array_ufunc2, JG_EDTYPE for a scalar of
 *  another dtype; messages start with "jg_array_ufunc2_scalar". */
JG_API jg_status jg_array_ufunc2_scalar(jg_ufunc f, const jg_array *x, jg_scalar s,
                                        bool scalar_on_left, jg_stream stream, jg_array **out,
                                        jg_error *err);

/** out = condition ? x : y elementwise, the three broadcast against each other (ak.where):
 *  where([[T, F], [T]], [[1, 2], [3]], [100, 200]) = [[1, 100], [3]]. condition must be bool
 *  or of unknown type with no values (0 * unknown, lists of unknown: an empty result) (compare first, e.g. jg_array_ufunc2_scalar(JG_UFUNC_NOT_EQUAL, c, jg_scalar_int(0), ...));
 *  x and y are promoted to their common dtype. None, as Awkward: each position holds the value
 *  of the branch it chooses, None only when that value is None (where([T, F], [1, None],
 *  [None, 5]) = [1, 5]); None where the condition is None, and where a list of any of the three
 *  is None (broadcasting). When x or y hold None values (an option directly above their
 *  numbers) the result gets a byte-masked option over its numbers (under the condition's own
 *  option, if any: then ??T), else none. All three on one backend; `*out` a new reference there.
 *  Errors: as jg_array_ufunc2 (inputs named "condition", "x", "y"; err->index 0..2 for
 *  JG_EBACKEND), JG_EDTYPE for a non-bool condition. Messages start with "jg_array_where".
 *  Synchronous on `stream`. */
JG_API jg_status jg_array_where(const jg_array *condition, const jg_array *x, const jg_array *y,
                                jg_stream stream, jg_array **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_UFUNC_H */
