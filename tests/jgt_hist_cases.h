/* jgt_hist_cases.h: arrays and expected histograms shared by test_histogram.c (host) and
 * test_histogram_gpu.c (the same cases after jg_array_to_device). Expected counts are worked out
 * by hand in the comments. */
#ifndef JAGGED_TESTS_JGT_HIST_CASES_H
#define JAGGED_TESTS_JGT_HIST_CASES_H

#include <math.h>

#include "jg_test.h"

/* A histogram over caller storage (n_bins <= 64), zeroed. */
typedef struct jgt_hist {
  jg_hist1d h;
  double counts[66];
  double sumw2[66];
} jgt_hist;

static inline void jgt_hist_init(jgt_hist *t, int64_t n_bins, double lo, double hi) {
  memset(t, 0, sizeof *t);
  t->h.n_bins = n_bins;
  t->h.lo = lo;
  t->h.hi = hi;
  t->h.counts = t->counts;
  t->h.sumw2 = t->sumw2;
}

/* Flat float64 values over 10 bins of [0, 10):
 *   -1 -> underflow; 0 and 0.5 -> bin 0; 9.99 -> bin 9; 10 and 10.5 -> overflow; NaN -> nan. */
static const double jgt_flat_values[7] = {-1.0, 0.0, 0.5, 9.99, 10.0, 10.5, NAN};

static inline jg_array *jgt_flat(void) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(jgt_flat_values, 7, JG_DTYPE_FLOAT64, &a, &jgt_err_));
  return a;
}

static inline void jgt_check_flat(const jgt_hist *t) {
  const double want[12] = {1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2};
  for (int i = 0; i < 12; ++i) assert_true(t->counts[i] == want[i]);
  assert_int_equal(t->h.entries, 6);
  assert_int_equal(t->h.nan, 1);
}

/* Jagged float32 lists [[1, 2], [], [3, 4, 5]] stored as offsets [1, 3, 3, 6] over
 * [100, 1, 2, 3, 4, 5, 100]: the 100s are unreachable. Over 5 bins of [0.5, 5.5) each value
 * fills its own bin: counts [0, 1, 1, 1, 1, 1, 0]. */
static const int64_t jgt_jagged_offsets[4] = {1, 3, 3, 6};
static const float jgt_jagged_content[7] = {100, 1, 2, 3, 4, 5, 100};

static inline jg_array *jgt_jagged(void) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host_offsets(jgt_jagged_offsets, 3, jgt_jagged_content, 7,
                                    JG_DTYPE_FLOAT32, &a, &jgt_err_));
  return a;
}

/* Weights of the same structure: [[0.5, 1.5], [], [2, 2, 3]] over [9, 0.5, 1.5, 2, 2, 3, 9]. */
static const double jgt_weight_content[7] = {9, 0.5, 1.5, 2, 2, 3, 9};

static inline jg_array *jgt_weights(void) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host_offsets(jgt_jagged_offsets, 3, jgt_weight_content, 7,
                                    JG_DTYPE_FLOAT64, &a, &jgt_err_));
  return a;
}

/* A two-level array [[[7], [8, 9]], [], [[10]]] of int32 over 4 bins of [7, 11). */
static inline jg_array *jgt_nested(void) {
  const int32_t content[4] = {7, 8, 9, 10};
  const int64_t inner[5] = {0, 1, 3, 3, 4}; /* [7], [8, 9], [], [10] */
  jg_array *lists = NULL, *outer = NULL;
  JGT_OK(jg_array_from_host_offsets(inner, 4, content, 4, JG_DTYPE_INT32, &lists, &jgt_err_));
  const int64_t outer_offsets[4] = {0, 2, 2, 4};
  /* the outer level: [[7], [8, 9]], [], [[], [10]] -> lists 0-1, none, lists 2-3 */
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), sizeof outer_offsets, NULL, &b, &jgt_err_));
  memcpy(jg_buffer_data(b), outer_offsets, sizeof outer_offsets);
  jg_layout l;
  const jg_len n = 4;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, b, &l, JG_DTYPE_INT64, false, &jgt_err_));
  JGT_OK(jg_array_list_offset(&v, lists, &outer, &jgt_err_));
  jg_buffer_release(b);
  jg_array_release(lists);
  return outer;
}

#endif /* JAGGED_TESTS_JGT_HIST_CASES_H */
