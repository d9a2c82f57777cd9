/* jgt_empty_inputs_cases.h: operations on arrays of no entries, `0 * unknown` ("[]", as jagged's
 * builder makes it) and `0 * var * unknown` ("var": one offset over an empty node), for
 * tests/unit/test_empty_inputs.c and tests/gpu/test_empty_inputs_gpu.c. Awkward gives empty
 * results (awkward.md 6.1: EmptyArray broadcasts and merges with anything; 6.5: combinatorics of
 * empty arrays are empty), except pad_none at axis 0, which pads [] with None to the target.
 * Include after jg_test.h, jgt_array_cases.h, jgt_text.h and jgt_op_sweep.h. */
#ifndef JAGGED_TESTS_JGT_EMPTY_INPUTS_CASES_H
#define JAGGED_TESTS_JGT_EMPTY_INPUTS_CASES_H

/* "[]" is 0 * unknown, "var" 0 * var * unknown, "var var" 0 * var * var * unknown. */
static inline jg_array *jgt_empty_input(const char *text) {
  if (strncmp(text, "var", 3) != 0) return jgt_text(text);
  jg_array *inner = jgt_empty_input(text[3] == ' ' ? text + 4 : "[]"), *out = NULL;
  const int64_t zero = 0;
  jg_view off = jgt_view(&zero, 1, JG_DTYPE_INT64);
  JGT_OK(jg_array_list_offset(&off, inner, &out, &jgt_err_));
  jg_buffer_release(off.buffer);
  jg_array_release(inner);
  return out;
}

static const jgt_sweep_case jgt_ei_cases[] = {
    {"argsort", JGT_OP_ARGSORT, -1, "[]", NULL, "[]"},
    {"sort", JGT_OP_SORT, -1, "[]", NULL, "[]"},
    {"argsort of lists", JGT_OP_ARGSORT, -1, "var", NULL, "[]"},
    {"sort of lists", JGT_OP_SORT, -1, "var var", NULL, "[]"},
    {"mask", JGT_OP_MASK, 0, "[]", "[]", "[]"},
    {"mask of lists", JGT_OP_MASK, 0, "var", "var", "[]"},
    {"take", JGT_OP_TAKE, 0, "[]", "[]", "[]"},
    {"take of lists", JGT_OP_TAKE, 0, "var", "var", "[]"},
    {"slice", JGT_OP_SLICE, 0, "[]", NULL, "[]"},
    {"slice of lists", JGT_OP_SLICE, 1, "var", NULL, "[]"},
    {"firsts of lists", JGT_OP_FIRSTS, 1, "var", NULL, "[]"},
    {"lasts of lists", JGT_OP_LASTS, 1, "var", NULL, "[]"},
    {"local_index", JGT_OP_LOCAL_INDEX, 0, "[]", NULL, "[]"},
    {"local_index of lists", JGT_OP_LOCAL_INDEX, 1, "var", NULL, "[]"},
    {"sum of lists", JGT_OP_SUM, -1, "var", NULL, "[]"},
    {"sum of lists at axis 0", JGT_OP_SUM, 0, "var", NULL, "[]"},
    {"sum of lists of lists at axis 1", JGT_OP_SUM, 1, "var var", NULL, "[]"},
    {"min of lists", JGT_OP_MIN, -1, "var", NULL, "[]"},
    {"argmax of lists", JGT_OP_ARGMAX, -1, "var", NULL, "[]"},
    {"count of lists", JGT_OP_COUNT, -1, "var", NULL, "[]"},
    {"any of lists", JGT_OP_ANY, -1, "var", NULL, "[]"},
    {"mean of lists", JGT_OP_MEAN, -1, "var", NULL, "[]"},
    {"num of lists", JGT_OP_NUM, 0, "var", NULL, "[]"},
    {"flatten", JGT_OP_FLATTEN, 0, "[]", NULL, "[]"},
    {"flatten of lists", JGT_OP_FLATTEN, 1, "var", NULL, "[]"},
    {"unflatten", JGT_OP_UNFLATTEN, 0, "[]", "[]", "[]"},
    {"singletons", JGT_OP_SINGLETONS, 0, "[]", NULL, "[]"},
    {"pad_none pads with None", JGT_OP_PAD_NONE, 0, "[]", NULL, "[None, None]"},
    {"pad_none of lists", JGT_OP_PAD_NONE, 1, "var", NULL, "[]"},
    {"fill_none", JGT_OP_FILL_NONE, -1, "[]", NULL, "[]"},
    {"fill_none of lists", JGT_OP_FILL_NONE, -1, "var", NULL, "[]"},
    {"is_none", JGT_OP_IS_NONE, 0, "[]", NULL, "[]"},
    {"is_none of lists", JGT_OP_IS_NONE, 1, "var", NULL, "[]"},
    {"drop_none", JGT_OP_DROP_NONE, 0, "[]", NULL, "[]"},
    {"drop_none of lists", JGT_OP_DROP_NONE, 1, "var", NULL, "[]"},
    {"concatenate", JGT_OP_CONCAT, 0, "[]", "[]", "[]"},
    {"concatenate lists", JGT_OP_CONCAT, 1, "var", "var", "[]"},
    {"combinations of lists", JGT_OP_COMBINATIONS, 0, "var", NULL, "[]"},
    {"argcombinations of lists", JGT_OP_ARGCOMBINATIONS, 0, "var", NULL, "[]"},
    {"cartesian of lists", JGT_OP_CARTESIAN, 0, "var", "var", "[]"},
    {"argcartesian of lists", JGT_OP_ARGCARTESIAN, 0, "var", "var", "[]"},
    {"add", JGT_OP_ADD, 0, "[]", "[]", "[]"},
    {"add lists", JGT_OP_ADD, 0, "var", "var", "[]"},
    {"add a scalar", JGT_OP_ADD_SCALAR, 0, "[]", NULL, "[]"},
    {"add a scalar to lists", JGT_OP_ADD_SCALAR, 0, "var", NULL, "[]"},
    {"negative", JGT_OP_NEGATIVE, 0, "[]", NULL, "[]"},
    {"where", JGT_OP_WHERE, 0, "[]", "[]", "[]"},
    {"where of lists", JGT_OP_WHERE, 0, "var", "var", "[]"},
};

#define JGT_EI_COUNT (sizeof jgt_ei_cases / sizeof jgt_ei_cases[0])

#endif /* JAGGED_TESTS_JGT_EMPTY_INPUTS_CASES_H */
