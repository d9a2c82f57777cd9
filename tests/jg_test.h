/* jg_test.h: what every jagged test includes: cmocka, the public API, and small helpers. */
#ifndef JAGGED_TESTS_JG_TEST_H
#define JAGGED_TESTS_JG_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jagged/jagged.h"

/** Runs the cmocka group `tests` with `setup` and `teardown` (cmocka_run_group_tests); when the
 *  environment variable JGT_FILTER is set, only the tests whose names match it (cmocka's pattern:
 *  `*` and `?` wildcards), e.g. one test under compute-sanitizer racecheck, which is too slow for
 *  a whole GPU test file. */
#define JGT_RUN_TESTS(tests, setup, teardown) \
  (cmocka_set_test_filter(getenv("JGT_FILTER")), cmocka_run_group_tests(tests, setup, teardown))

/** Asserts that `expr` returns JG_OK, printing the status name and message otherwise. */
#define JGT_OK(expr)                                                                          \
  do {                                                                                        \
    jg_error jgt_err_;                                                                        \
    jg_error_clear(&jgt_err_);                                                                \
    jg_status jgt_st_ = (expr);                                                               \
    if (jgt_st_ != JG_OK) {                                                                   \
      print_error("%s failed: %s: %s\n", #expr, jg_status_name(jgt_st_), jgt_err_.message);   \
    }                                                                                         \
    assert_int_equal(jgt_st_, JG_OK);                                                         \
  } while (0)

/** Asserts that `expr` returns `status` (an expression that uses a jg_error named `err` can then
 *  check err.message). */
#define JGT_STATUS(status, expr) assert_int_equal((expr), (status))

/** Asserts that `haystack` contains `needle`. */
#define JGT_CONTAINS(haystack, needle)                                                        \
  do {                                                                                        \
    if (strstr((haystack), (needle)) == NULL) {                                               \
      print_error("\"%s\" does not contain \"%s\"\n", (haystack), (needle));                  \
      fail();                                                                                 \
    }                                                                                         \
  } while (0)

/** For GPU test programs: returns 77 (CTest's skip code) from main, after saying why, when no
 *  CUDA device is usable. */
#define JGT_REQUIRE_GPU()                                                                     \
  do {                                                                                        \
    int jgt_n_ = 0;                                                                           \
    if (jg_device_count(&jgt_n_, NULL) != JG_OK || jgt_n_ == 0) {                             \
      printf("[  SKIPPED ] all tests: no CUDA device (%s)\n", jg_cuda_unavailable_reason());  \
      return 77;                                                                              \
    }                                                                                         \
  } while (0)

/** For test programs that read the shared ADL sample (JG_TEST_DATA_DIR/adl: the two Parquet
 *  files and the reference CSVs, ../shared/data beside the checkout by default): returns 77
 *  (CTest's skip code) from main, after saying where it looked, when they are not there, so that
 *  a checkout without ../shared skips these programs instead of failing them. */
#define JGT_REQUIRE_DATA()                                                                    \
  do {                                                                                        \
    static const char *const jgt_files_[3] = {                                                \
        JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-1000.parquet",                               \
        JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-restructured-1000.parquet",                  \
        JG_TEST_DATA_DIR "/adl/reference/query-1.csv"};                                        \
    for (int jgt_k_ = 0; jgt_k_ < 3; jgt_k_++) {                                              \
      FILE *jgt_f_ = fopen(jgt_files_[jgt_k_], "rb");                                         \
      if (jgt_f_ == NULL) {                                                                   \
        printf("[  SKIPPED ] all tests: the shared sample data is missing (%s); configure "   \
               "with -DJG_TEST_DATA_DIR=<folder holding adl/>\n",                             \
               jgt_files_[jgt_k_]);                                                           \
        return 77;                                                                            \
      }                                                                                       \
      fclose(jgt_f_);                                                                         \
    }                                                                                         \
  } while (0)

/* ------------------------------------------------------------------------------------------ */
/* A device array without a GPU                                                                */
/* ------------------------------------------------------------------------------------------ */

static inline jg_status jgt_fake_alloc_(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                        jg_stream stream, void **ptr, jg_error *err) {
  static _Alignas(64) int64_t storage[8];
  (void)mr, (void)bytes, (void)alignment, (void)stream, (void)err;
  *ptr = storage;
  return JG_OK;
}

static inline void jgt_fake_free_(jg_memory_resource *mr, void *ptr, size_t bytes,
                                  jg_stream stream) {
  (void)mr, (void)ptr, (void)bytes, (void)stream;
}

/** A 1-D int64 array of n <= 8 elements whose buffer says it is device memory of cuda:0 (a
 *  user memory resource over host storage, never read): for the checks that refuse device
 *  arrays on a machine without a GPU. Release it as any array; the test fails on error. */
static inline jg_array *jgt_fake_device_int64(jg_len n) {
  static jg_memory_resource devlike; /* outlives the arrays made over it */
  static int ready;
  if (!ready) {
    JGT_OK(jg_memory_resource_init_user(&devlike, (jg_device){JG_DEVICE_CUDA, 0}, false, true,
                                        false, jgt_fake_alloc_, jgt_fake_free_, NULL, &jgt_err_));
    ready = 1;
  }
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(&devlike, 64, NULL, &b, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, b, &l, JG_DTYPE_INT64, true, &jgt_err_));
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  jg_buffer_release(b);
  return a;
}

/* ------------------------------------------------------------------------------------------ */
/* For GPU test programs                                                                       */
/* ------------------------------------------------------------------------------------------ */

/** `a` copied to CUDA device 0 on `stream` (NULL for a NULL `a`); the test fails on error. */
static inline jg_array *jgt_to_device_on(const jg_array *a, jg_stream stream) {
  if (a == NULL) return NULL;
  jg_array *d = NULL;
  JGT_OK(jg_array_to_device(a, 0, stream, &d, &jgt_err_));
  return d;
}

/** `d` copied to the host (legacy default stream); the test fails on error. */
static inline jg_array *jgt_to_host(const jg_array *d) {
  jg_array *h = NULL;
  JGT_OK(jg_array_to_host(d, NULL, &h, &jgt_err_));
  return h;
}

/** Runs `k`'s parity cases with `o` (NULL: the defaults) and asserts that the run succeeded, that
 *  every case ran (every variant; o->n_cases of them when set, else all the kernel's) and that
 *  none failed; `what` names the run in what is printed on failure. */
static inline void jgt_parity_ok(const jg_kernel *k, const jg_parity_options *o,
                                 const char *what) {
  jg_parity_result res;
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = jg_kernel_parity(k, o, &res, &err);
  if (st != JG_OK) print_error("parity of %s: %s: %s\n", what, jg_status_name(st), err.message);
  assert_int_equal(st, JG_OK);
  const int per_variant =
      o != NULL && o->n_cases > 0 ? o->n_cases : jg_kernel_parity_case_count(k);
  assert_true(res.cases_run > 0);
  assert_int_equal(res.cases_run, (int)jg_kernel_variant_count(k) * per_variant);
  if (res.cases_failed != 0) print_error("%s\n", res.first_failure);
  assert_int_equal(res.cases_failed, 0);
  assert_string_equal(res.first_failure, "");
}

/** Defines the cmocka tests test_table_default_stream and test_table_created_stream, which
 *  expect `run_table(stream)` (returning the number of failed cases) to return 0 on the legacy
 *  default stream and on a non-blocking stream of device 0 made for the test. */
#define JGT_STREAM_TABLE_TESTS(run_table)                                                     \
  static void test_table_default_stream(void **state) {                                       \
    (void)state;                                                                              \
    assert_int_equal(run_table(NULL), 0);                                                     \
  }                                                                                           \
  static void test_table_created_stream(void **state) {                                       \
    (void)state;                                                                              \
    jg_stream s = NULL;                                                                       \
    JGT_OK(jg_device_set_current(0, &jgt_err_));                                              \
    JGT_OK(jg_stream_create(&s, &jgt_err_));                                                  \
    assert_int_equal(run_table(s), 0);                                                        \
    jg_stream_destroy(s);                                                                     \
  }

#endif /* JAGGED_TESTS_JG_TEST_H */
