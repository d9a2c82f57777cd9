/* jgt_builder_inputs_cases.h: operations that take a mask, an index or lists to sort, given
 * arrays made by jagged's own builder (None as indexed-option nodes, lists that never got a
 * value as empty nodes, nulls alone as ?unknown), for tests/unit/test_builder_inputs.c and
 * tests/gpu/test_builder_inputs_gpu.c. Expected printouts follow Awkward's rules
 * (../shared/notes/awkward.md 6.3-6.5): a None in a mask or an index gives None; lists of None
 * only sort to themselves (argsort: their positions); fill_none of ?unknown takes the value's
 * type. Include after jg_test.h and jgt_text.h. */
#ifndef JAGGED_TESTS_JGT_BUILDER_INPUTS_CASES_H
#define JAGGED_TESTS_JGT_BUILDER_INPUTS_CASES_H

typedef enum { JGT_BI_MASK, JGT_BI_TAKE, JGT_BI_ARGSORT, JGT_BI_SORT, JGT_BI_FILL } jgt_bi_op;

typedef struct jgt_bi_case {
  const char *name;
  jgt_bi_op op;
  const char *a;
  const char *s; /* the mask or index (NULL for the others) */
  const char *want;
} jgt_bi_case;

static const jgt_bi_case jgt_bi_cases[] = {
    {"mask, jagged, None values", JGT_BI_MASK, "[[1, 2, 3], [], [4, 5]]",
     "[[true, None, false], [], [None, true]]", "[[1, None], [], [None, 5]]"},
    {"mask, flat, None entry", JGT_BI_MASK, "[[1, 2, 3], [], [4, 5]]", "[true, None, false]",
     "[[1, 2, 3], None]"},
    {"mask of unknown lists by unknown lists", JGT_BI_MASK, "[[], [], []]", "[[], [], []]",
     "[[], [], []]"},
    {"mask, None values only", JGT_BI_MASK, "[[1, 2], [3]]", "[[None, None], [None]]",
     "[[None, None], [None]]"},
    {"take, jagged, None index", JGT_BI_TAKE, "[[1, 2, 3], [], [4, 5]]", "[[0, None], [], [1]]",
     "[[1, None], [], [5]]"},
    {"take, unknown index lists", JGT_BI_TAKE, "[[1, 2, 3], [], [4, 5]]", "[[], [], []]",
     "[[], [], []]"},
    {"argsort, None values only", JGT_BI_ARGSORT, "[[None], [], [None, None]]", NULL,
     "[[0], [], [0, 1]]"},
    {"sort, None values only", JGT_BI_SORT, "[[None], [], [None, None]]", NULL,
     "[[None], [], [None, None]]"},
    {"argsort, unknown lists", JGT_BI_ARGSORT, "[[], []]", NULL, "[[], []]"},
    {"argsort, None values", JGT_BI_ARGSORT, "[[3, None, 1], None, [None, 2]]", NULL,
     "[[2, 0, 1], None, [1, 0]]"},
    {"fill_none, None values only", JGT_BI_FILL, "[[None], [], [None, None]]", NULL,
     "[[0.5], [], [0.5, 0.5]]"},
};

#define JGT_BI_COUNT (sizeof jgt_bi_cases / sizeof jgt_bi_cases[0])

/* Runs case `c` on a (and s), on any backend. */
static inline jg_status jgt_bi_run(const jgt_bi_case *c, const jg_array *a, const jg_array *s,
                                   jg_array **out, jg_error *err) {
  switch (c->op) {
    case JGT_BI_MASK: return jg_array_mask(a, s, NULL, out, err);
    case JGT_BI_TAKE: return jg_array_take(a, s, NULL, out, err);
    case JGT_BI_ARGSORT: return jg_array_argsort(a, -1, true, true, NULL, out, err);
    case JGT_BI_SORT: return jg_array_sort(a, -1, true, true, NULL, out, err);
    default: return jg_array_fill_none(a, jg_fill_value_f64(0.5), -1, NULL, out, err);
  }
}

#endif /* JAGGED_TESTS_JGT_BUILDER_INPUTS_CASES_H */
