/* jgt_elementwise_cases.h: the table of jg_array_eval cases (elementwise.h) run on the host by
 * tests/unit/test_elementwise.c and on the GPU by tests/gpu/test_elementwise_gpu.c (after
 * jg_array_to_device), with host input builders.
 *
 * Every expected value was worked out by hand from the expression and Awkward's broadcasting
 * rules (../shared/notes/awkward.md 6.2): scalars everywhere, one value per list repeated across
 * the list, equal counts elementwise, a shallower array repeated inside the deeper one's lists,
 * None lists and values propagating. The table uses only operations that are exact or correctly
 * rounded on both backends (+ - * / sqrt fmod floor ceil abs, comparisons, logic, where, min,
 * max), so the GPU must give the same printout; transcendental functions are tested apart with a
 * tolerance. Values print as jg_array_to_string writes them (fewest digits, None). */
#ifndef JAGGED_TESTS_JGT_ELEMENTWISE_CASES_H
#define JAGGED_TESTS_JGT_ELEMENTWISE_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "jagged/elementwise.h"
#include "jgt_array_cases.h"

/* ------------------------------------------------------------------------------------------ */
/* Builders (host arrays; each returns a new reference)                                        */
/* ------------------------------------------------------------------------------------------ */

#define JGT_EW_F64(...) ((const double[]){__VA_ARGS__})
#define JGT_EW_NF64(...) ((jg_len)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double)))

/* float64 [[1, 2, 3], [], [4, 5]] */
static inline jg_array *jgt_ew_x(void) {
  return JGT_OFFSETS(jgt_numeric(JGT_EW_F64(1, 2, 3, 4, 5), 5, JG_DTYPE_FLOAT64), 0, 3, 3, 5);
}

/* int32 [[1, 2, 3], [], [4, 5]] */
static inline jg_array *jgt_ew_x_i32(void) {
  return JGT_OFFSETS(jgt_numeric(JGT_I32(1, 2, 3, 4, 5), 5, JG_DTYPE_INT32), 0, 3, 3, 5);
}

/* float64 [[1.5, -2], [], [0.25]] */
static inline jg_array *jgt_ew_a(void) {
  return JGT_OFFSETS(jgt_numeric(JGT_EW_F64(1.5, -2, 0.25), 3, JG_DTYPE_FLOAT64), 0, 2, 2, 3);
}

/* float64 [[1, 2], [], [3]] */
static inline jg_array *jgt_ew_b(void) {
  return JGT_OFFSETS(jgt_numeric(JGT_EW_F64(1, 2, 3), 3, JG_DTYPE_FLOAT64), 0, 2, 2, 3);
}

/* int64 [10, 20, 30]: one value per list of jgt_ew_x */
static inline jg_array *jgt_ew_per_list(void) {
  return jgt_numeric(JGT_I64(10, 20, 30), 3, JG_DTYPE_INT64);
}

/* float64 [2.5]: a scalar */
static inline jg_array *jgt_ew_scalar(void) {
  return jgt_numeric(JGT_EW_F64(2.5), 1, JG_DTYPE_FLOAT64);
}

/* [[1, 2], [], [3]] as offsets [1, 3, 3, 4] over [100, 1, 2, 3, 200]: offsets not at 0, content
 * past the last list */
static inline jg_array *jgt_ew_offsets_not_zero(void) {
  return JGT_OFFSETS(jgt_numeric(JGT_EW_F64(100, 1, 2, 3, 200), 5, JG_DTYPE_FLOAT64), 1, 3, 3, 4);
}

/* A list node: starts [2, 0], stops [4, 1] over [1, 2, 3, 4]: [[3, 4], [1]] */
static inline jg_array *jgt_ew_list_node(void) {
  return jgt_list(JGT_I64(2, 0), JGT_I64(4, 1), 2, 2, JG_DTYPE_INT64,
                  jgt_numeric(JGT_EW_F64(1, 2, 3, 4), 4, JG_DTYPE_FLOAT64));
}

/* jgt_ew_x sliced to its lists 1..3: [[], [4, 5]] */
static inline jg_array *jgt_ew_sliced(void) {
  return jgt_slice(jgt_ew_x(), 1, 3);
}

/* [[1, 2], None, [3]]: a byte-masked option over lists */
static inline jg_array *jgt_ew_none_list(void) {
  jg_array *lists =
      JGT_OFFSETS(jgt_numeric(JGT_EW_F64(1, 2, 9, 3), 4, JG_DTYPE_FLOAT64), 0, 2, 3, 4);
  return jgt_byte_masked((const int8_t[]){1, 0, 1}, 3, true, lists);
}

/* [[1, None, 3]]: an option inside the list */
static inline jg_array *jgt_ew_none_value(void) {
  jg_array *vals = jgt_byte_masked((const int8_t[]){1, 0, 1}, 3, true,
                                   jgt_numeric(JGT_EW_F64(1, 7, 3), 3, JG_DTYPE_FLOAT64));
  return JGT_OFFSETS(vals, 0, 3);
}

/* no lists: offsets [0] over nothing */
static inline jg_array *jgt_ew_empty(void) {
  return JGT_OFFSETS(jgt_numeric(NULL, 0, JG_DTYPE_FLOAT64), 0);
}

/* [[1, 2], [], [3]] whose last list is empty: [[1, 2], [3], []] */
static inline jg_array *jgt_ew_last_empty(void) {
  return JGT_OFFSETS(jgt_numeric(JGT_EW_F64(1, 2, 3), 3, JG_DTYPE_FLOAT64), 0, 2, 3, 3);
}

/* float64 [[1, 2], []] and [[[1], [1, 2]], []]: deeper into shallower */
static inline jg_array *jgt_ew_shallow(void) {
  return JGT_OFFSETS(jgt_numeric(JGT_EW_F64(1, 2), 2, JG_DTYPE_FLOAT64), 0, 2, 2);
}

static inline jg_array *jgt_ew_deep(void) {
  jg_array *inner = JGT_OFFSETS(jgt_numeric(JGT_EW_F64(1, 1, 2), 3, JG_DTYPE_FLOAT64), 0, 1, 3);
  return JGT_OFFSETS(inner, 0, 2, 2);
}

/* float32 [[0.5, 1.5], [], [2.25]], uint8 [2, 3, 4] (one per list), int16 3 (one value) */
static inline jg_array *jgt_ew_f32(void) {
  return JGT_OFFSETS(jgt_numeric((const float[]){0.5f, 1.5f, 2.25f}, 3, JG_DTYPE_FLOAT32), 0, 2, 2,
                     3);
}

static inline jg_array *jgt_ew_per_list_u8(void) {
  return jgt_numeric((const uint8_t[]){2, 3, 4}, 3, JG_DTYPE_UINT8);
}

static inline jg_array *jgt_ew_scalar_i16(void) {
  return jgt_numeric((const int16_t[]){3}, 1, JG_DTYPE_INT16);
}

/* bool [[true, false], [true]] */
static inline jg_array *jgt_ew_bool(void) {
  return JGT_OFFSETS(jgt_numeric((const bool[]){true, false, true}, 3, JG_DTYPE_BOOL), 0, 2, 3);
}

/* flat float64 [3, 5, -8, 0] and [4, 12, 6, 0] */
static inline jg_array *jgt_ew_px(void) {
  return jgt_numeric(JGT_EW_F64(3, 5, -8, 0), 4, JG_DTYPE_FLOAT64);
}

static inline jg_array *jgt_ew_py(void) {
  return jgt_numeric(JGT_EW_F64(4, 12, 6, 0), 4, JG_DTYPE_FLOAT64);
}

/* flat float64 [-7, 7, 0.5, -0.5, nan, inf] */
static inline jg_array *jgt_ew_special(void) {
  return jgt_numeric(JGT_EW_F64(-7, 7, 0.5, -0.5, NAN, INFINITY), 6, JG_DTYPE_FLOAT64);
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef jg_array *(*jgt_ew_make_fn)(void);

typedef struct jgt_ew_case {
  const char *name;
  const char *expr;
  int nargs;
  const char *names[3];
  jgt_ew_make_fn make[3];
  const char *value; /* printout of the result */
  const char *type;  /* its type */
} jgt_ew_case;

static const jgt_ew_case jgt_ew_cases[] = {
    {"square", "x * x", 1, {"x"}, {jgt_ew_x}, "[[1, 4, 9], [], [16, 25]]", "3 * var * float64"},
    {"square of int32",
     "x * x",
     1,
     {"x"},
     {jgt_ew_x_i32},
     "[[1, 4, 9], [], [16, 25]]",
     "3 * var * float64"},
    {"x * x + y, equal counts",
     "x * x + y",
     2,
     {"x", "y"},
     {jgt_ew_a, jgt_ew_b},
     "[[3.25, 6], [], [3.0625]]",
     "3 * var * float64"},
    {"float32 times uint8 per list, each converted as it is read",
     "x * y",
     2,
     {"x", "y"},
     {jgt_ew_f32, jgt_ew_per_list_u8},
     "[[1, 3], [], [9]]",
     "3 * var * float64"},
    {"int32 plus an int16 scalar",
     "x + s",
     2,
     {"x", "s"},
     {jgt_ew_x_i32, jgt_ew_scalar_i16},
     "[[4, 5, 6], [], [7, 8]]",
     "3 * var * float64"},
    {"jagged times one value per list",
     "x * y",
     2,
     {"x", "y"},
     {jgt_ew_x_i32, jgt_ew_per_list},
     "[[10, 20, 30], [], [120, 150]]",
     "3 * var * float64"},
    {"one value per list on the left",
     "y - x",
     2,
     {"y", "x"},
     {jgt_ew_per_list, jgt_ew_x},
     "[[9, 8, 7], [], [26, 25]]",
     "3 * var * float64"},
    {"jagged times a scalar",
     "x * s",
     2,
     {"x", "s"},
     {jgt_ew_x, jgt_ew_scalar},
     "[[2.5, 5, 7.5], [], [10, 12.5]]",
     "3 * var * float64"},
    {"where",
     "where(x > 2, x, -x)",
     1,
     {"x"},
     {jgt_ew_x},
     "[[-1, -2, 3], [], [4, 5]]",
     "3 * var * float64"},
    {"offsets not at 0",
     "x + 1",
     1,
     {"x"},
     {jgt_ew_offsets_not_zero},
     "[[2, 3], [], [4]]",
     "3 * var * float64"},
    {"list node", "x - 1", 1, {"x"}, {jgt_ew_list_node}, "[[2, 3], [0]]", "2 * var * float64"},
    {"sliced", "x * 2", 1, {"x"}, {jgt_ew_sliced}, "[[], [8, 10]]", "2 * var * float64"},
    {"last list empty",
     "x / 4",
     1,
     {"x"},
     {jgt_ew_last_empty},
     "[[0.25, 0.5], [0.75], []]",
     "3 * var * float64"},
    {"no lists", "x * x", 1, {"x"}, {jgt_ew_empty}, "[]", "0 * var * float64"},
    {"None list",
     "x + y",
     2,
     {"x", "y"},
     {jgt_ew_none_list, jgt_ew_per_list},
     "[[11, 12], None, [33]]",
     "3 * option[var * float64]"},
    {"None value", "x + 1", 1, {"x"}, {jgt_ew_none_value}, "[[2, None, 4]]", "1 * var * ?float64"},
    {"shallower into deeper",
     "x + y",
     2,
     {"x", "y"},
     {jgt_ew_shallow, jgt_ew_deep},
     "[[[2], [3, 4]], []]",
     "2 * var * var * float64"},
    {"bool", "x + 1", 1, {"x"}, {jgt_ew_bool}, "[[2, 1], [2]]", "2 * var * float64"},
    {"sqrt(px*px + py*py)",
     "sqrt(px*px + py*py)",
     2,
     {"px", "py"},
     {jgt_ew_px, jgt_ew_py},
     "[5, 13, 10, 0]",
     "4 * float64"},
    {"precedence",
     "-px**2 + 2**3**2 - (1 + 2) * 3 % 4",
     1,
     {"px"},
     {jgt_ew_px},
     "[502, 486, 447, 511]",
     "4 * float64"},
    {"fmod keeps the dividend's sign",
     "x % 3",
     1,
     {"x"},
     {jgt_ew_special},
     "[-1, 1, 0.5, -0.5, nan, nan]",
     "6 * float64"},
    {"logic",
     "(x > 0 && x < 1) || !x",
     1,
     {"x"},
     {jgt_ew_special},
     "[0, 0, 1, 0, 0, 0]",
     "6 * float64"},
    {"comparisons",
     "(x == 7) + 2 * (x != 7) + 4 * (x <= -0.5) + 8 * (x >= 7)",
     1,
     {"x"},
     {jgt_ew_special},
     "[6, 9, 2, 6, 2, 10]",
     "6 * float64"},
    {"min and max propagate NaN",
     "min(x, 1) + 10 * max(x, 0)",
     1,
     {"x"},
     {jgt_ew_special},
     "[-7, 71, 5.5, -0.5, nan, inf]",
     "6 * float64"},
    {"isnan and isfinite",
     "isnan(x) + 2 * isfinite(x)",
     1,
     {"x"},
     {jgt_ew_special},
     "[2, 2, 2, 2, 1, 0]",
     "6 * float64"},
    {"abs floor ceil",
     "abs(x) + floor(x) * 100 + ceil(x) * 10000",
     1,
     {"x"},
     {jgt_ew_special},
     "[-70693, 70707, 10000.5, -99.5, nan, inf]",
     "6 * float64"},
    {"numbers",
     "1e-3 * 1000 + .5 + 2.5E1 + 0.125e+1",
     1,
     {"x"},
     {jgt_ew_px},
     "[27.75, 27.75, 27.75, 27.75]",
     "4 * float64"},
    {"pow with 2 is a product",
     "pow(x, 2) + x ** 2.0",
     1,
     {"x"},
     {jgt_ew_px},
     "[18, 50, 128, 0]",
     "4 * float64"},
};

/* Number of cases in jgt_ew_cases. */
#define JGT_EW_NCASES (sizeof jgt_ew_cases / sizeof jgt_ew_cases[0])

/* The case's arguments, made (new references). */
static inline void jgt_ew_make(const jgt_ew_case *c, jg_array **args) {
  for (int k = 0; k < c->nargs; k++) args[k] = c->make[k]();
}

static inline void jgt_ew_release(int n, jg_array **args) {
  for (int k = 0; k < n; k++) {
    jg_array_release(args[k]);
    args[k] = NULL;
  }
}

/* Runs case `c` over `args` (on any backend). */
static inline jg_status jgt_ew_run(const jgt_ew_case *c, jg_array *const *args, jg_stream stream,
                                   jg_array **out, jg_error *err) {
  return jg_array_eval(c->expr, c->nargs, c->names, (const jg_array *const *)args, stream, out,
                       err);
}

#endif /* JAGGED_TESTS_JGT_ELEMENTWISE_CASES_H */
