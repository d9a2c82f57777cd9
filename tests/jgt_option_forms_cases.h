/* jgt_option_forms_cases.h: operations on arrays with None, each case run with its None in every
 * option representation (jgt_reform: the builder's indexed-option nodes, bit-masked nodes as
 * Arrow import makes them and the other bit order, byte-masked nodes), for
 * tests/unit/test_option_forms.c and tests/gpu/test_option_forms_gpu.c. Every representation
 * gives the same printout. Expected printouts are worked out by hand with Awkward's rules
 * (../shared/notes/awkward.md): None values pass through element-wise operations, are skipped by
 * reductions, sort last; None lists stay None. Include after jg_test.h, jgt_array_cases.h,
 * jgt_text.h and jgt_op_sweep.h. */
#ifndef JAGGED_TESTS_JGT_OPTION_FORMS_CASES_H
#define JAGGED_TESTS_JGT_OPTION_FORMS_CASES_H

typedef struct jgt_sweep_case {
  const char *name;
  jgt_op op;
  int64_t axis;
  const char *a;
  const char *b; /* the second array (NULL when the operation takes one) */
  const char *want;
} jgt_sweep_case;

static const jgt_sweep_case jgt_of_cases[] = {
    {"mask by None values and lists", JGT_OP_MASK, 0, "[[1, 2, 3], None, [4, 5]]",
     "[[true, None, false], None, [None, true]]", "[[1, None], None, [None, 5]]"},
    {"mask of None values", JGT_OP_MASK, 0, "[[1, None, 3], [4, 5]]",
     "[[true, true, false], [false, true]]", "[[1, None], [5]]"},
    {"event mask of None lists", JGT_OP_MASK, 0, "[[1], None, [2, None]]", "[true, true, false]",
     "[[1], None]"},
    {"take, jagged, None everywhere", JGT_OP_TAKE, 0, "[[1, None, 3], None, [4, 5]]",
     "[[2, 1], None, [None, 0]]", "[[3, None], None, [None, 4]]"},
    {"take, outer, None lists", JGT_OP_TAKE, 0, "[[1, 2], None, [3]]", "[2, 1, 0, 1]",
     "[[3], None, [1, 2], None]"},
    {"take, outer, None values", JGT_OP_TAKE, 0, "[1, None, 3]", "[1, 2, 1]", "[None, 3, None]"},
    {"slice 1: of None lists", JGT_OP_SLICE, 1, "[[1, None, 3], None, [4]]", NULL,
     "[[None, 3], None, []]"},
    {"firsts of None lists", JGT_OP_FIRSTS, 1, "[[1, 2], None, [], [None, 4]]", NULL,
     "[1, None, None, None]"},
    {"lasts of None lists", JGT_OP_LASTS, 1, "[[1, 2], None, [], [None, 4]]", NULL,
     "[2, None, None, 4]"},
    {"local_index of None lists", JGT_OP_LOCAL_INDEX, 1, "[[1, None], None, [3]]", NULL,
     "[[0, 1], None, [0]]"},
    {"sum skips None values", JGT_OP_SUM, 1, "[[1, None, 3], [None], [4, 5]]", NULL,
     "[4, 0, 9]"},
    {"min skips None values", JGT_OP_MIN, 1, "[[1, None, 3], [None], [4, 5]]", NULL,
     "[1, None, 4]"},
    {"argmax counts None positions", JGT_OP_ARGMAX, 1, "[[1, None, 3], [None], [5, 4]]", NULL,
     "[2, None, 0]"},
    {"count skips None values", JGT_OP_COUNT, 1, "[[1, None, 3], [None], []]", NULL,
     "[2, 0, 0]"},
    {"num of None lists", JGT_OP_NUM, 0, "[[1, None, 3], None, []]", NULL, "[3, None, 0]"},
    {"flatten drops None lists", JGT_OP_FLATTEN, 1, "[[1, None], None, [3]]", NULL,
     "[1, None, 3]"},
    {"flatten axis 0 drops None", JGT_OP_FLATTEN, 0, "[1, None, 3]", NULL, "[1, 3]"},
    {"unflatten None values", JGT_OP_UNFLATTEN, 0, "[1, None, 3]", "[2, 1]",
     "[[1, None], [3]]"},
    {"singletons", JGT_OP_SINGLETONS, 0, "[1, None, 3]", NULL, "[[1], [], [3]]"},
    {"pad_none of None lists", JGT_OP_PAD_NONE, 1, "[[1, None, 3], None, [4]]", NULL,
     "[[1, None, 3], None, [4, None]]"},
    {"fill_none of values", JGT_OP_FILL_NONE, -1, "[[1.5, None], None, [3.5]]", NULL,
     "[[1.5, 0.5], None, [3.5]]"},
    {"is_none of values", JGT_OP_IS_NONE, 1, "[[1, None], None, [3]]", NULL,
     "[[False, True], None, [False]]"},
    {"is_none of lists", JGT_OP_IS_NONE, 0, "[[1, None], None, [3]]", NULL,
     "[False, True, False]"},
    {"drop_none of values", JGT_OP_DROP_NONE, 1, "[[1, None], None, [3]]", NULL,
     "[[1], None, [3]]"},
    {"drop_none of lists", JGT_OP_DROP_NONE, 0, "[[1, None], None, [3]]", NULL,
     "[[1, None], [3]]"},
    {"concatenate None lists", JGT_OP_CONCAT, 0, "[[1, None], None]", "[[3]]",
     "[[1, None], None, [3]]"},
    {"argsort puts None last", JGT_OP_ARGSORT, -1, "[[3, None, 1], None, [None, 2]]", NULL,
     "[[2, 0, 1], None, [1, 0]]"},
    {"sort puts None last", JGT_OP_SORT, -1, "[[3, None, 1], None, [None, 2]]", NULL,
     "[[1, 3, None], None, [2, None]]"},
    {"combinations of None lists", JGT_OP_ARGCOMBINATIONS, 0, "[[1, 2, 3], None, [4]]", NULL,
     "[[(0, 1), (0, 2), (1, 2)], None, []]"},
    {"cartesian of None lists", JGT_OP_ARGCARTESIAN, 0, "[[1, 2], None]", "[[3], [4]]",
     "[[(0, 0), (1, 0)], None]"},
    {"combinations of None lists", JGT_OP_COMBINATIONS, 0, "[[1, 2, 3], None, [4]]", NULL,
     "[[(1, 2), (1, 3), (2, 3)], None, []]"},
    {"combinations of None values", JGT_OP_COMBINATIONS, 0, "[[1, None, 3], [None], []]", NULL,
     "[[(1, None), (1, 3), (None, 3)], [], []]"},
    {"argcombinations of None values", JGT_OP_ARGCOMBINATIONS, 0, "[[1, None, 3], [None]]",
     NULL, "[[(0, 1), (0, 2), (1, 2)], []]"},
    {"combinations of None lists of None values", JGT_OP_COMBINATIONS, 0,
     "[None, [None, 2.5], [1.5]]", NULL, "[None, [(None, 2.5)], []]"},
    {"cartesian of None values and lists", JGT_OP_CARTESIAN, 0, "[[1, None], [2], None]",
     "[[None], None, [3]]", "[[(1, None), (None, None)], None, None]"},
    {"cartesian of None values", JGT_OP_CARTESIAN, 0, "[[1, None], [2]]", "[[3, 4], [None]]",
     "[[(1, 3), (1, 4), (None, 3), (None, 4)], [(2, None)]]"},
    {"add with None", JGT_OP_ADD, 0, "[[1, None], None, [3]]", "[[1, 1], [2], [None]]",
     "[[2, None], None, [None]]"},
    {"add a scalar", JGT_OP_ADD_SCALAR, 0, "[[1, None], None]", NULL, "[[2, None], None]"},
    {"negative", JGT_OP_NEGATIVE, 0, "[[1, None], None]", NULL, "[[-1, None], None]"},
    {"where by a None condition", JGT_OP_WHERE, 0, "[[true, None], None]", "[[1, 2], [3]]",
     "[[1, None], None]"},
};

#define JGT_OF_COUNT (sizeof jgt_of_cases / sizeof jgt_of_cases[0])

#endif /* JAGGED_TESTS_JGT_OPTION_FORMS_CASES_H */
