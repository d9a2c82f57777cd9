/* test_kernels_builtin.c: the built-in kernels offsets_to_counts, local_index and take on host
 * arrays, through jg_kernel_call, under every host implementation the build has ("c", and
 * "openmp" where the kernel has one): hand-computed results (offsets not at 0, empty lists,
 * negative indices, every element type of take), every data error with its status, index and
 * message (the smallest bad position when there are several), the minimum lengths of the specs,
 * and jg_kernel_parity of "openmp" against "c" over the kernels' own parity cases. */
#include "jg_test.h"

#define HOST ((jg_device)JG_DEVICE_HOST_INIT)
#define SENTINEL (-777)

static const jg_kernel *kernel(const char *name) {
  const jg_kernel *k = NULL;
  JGT_OK(jg_catalog_find(name, &k, &jgt_err_));
  assert_non_null(k);
  return k;
}

static void fill_i64(int64_t *p, size_t n, int64_t v) {
  for (size_t i = 0; i < n; ++i) p[i] = v;
}

/* Runs `k` on `args` under host implementation `impl`; returns the status, error in *err. */
static jg_status call_with(const jg_kernel *k, const char *impl, jg_kernel_arg *args,
                           jg_error *err) {
  JGT_OK(jg_host_impl_push(impl, &jgt_err_));
  jg_error_clear(err);
  const jg_status st = jg_kernel_call(k, args, jg_kernel_param_count(k), NULL, err);
  JGT_OK(jg_host_impl_pop(&jgt_err_));
  return st;
}

/* Calls `k` under every host implementation and asserts the data error (status, index, and the
 * message "<kernel>: <message>"). */
static void expect_error(const jg_kernel *k, jg_kernel_arg *args, jg_status status, int64_t index,
                         const char *message) {
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_error err;
    const jg_status st = call_with(k, impl, args, &err);
    if (st != status || err.index != index || strstr(err.message, message) == NULL) {
      print_error("kernel %s, impl %s: got %s index %lld \"%s\"; expected %s index %lld \"%s\"\n",
                  jg_kernel_name(k), impl, jg_status_name(st), (long long)err.index, err.message,
                  jg_status_name(status), (long long)index, message);
      fail();
    }
  }
}

/* ------------------------------------------------------ offsets_to_counts */

static void test_offsets_to_counts_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("offsets_to_counts");
  assert_int_equal(jg_kernel_param_count(k), 3);
  assert_int_equal(jg_kernel_variant_count(k), 2);
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_error err;
    /* int32 offsets not at 0, an empty list in the middle; counts one longer than n. */
    int32_t o32[4] = {3, 5, 5, 9};
    int64_t counts[4];
    fill_i64(counts, 4, SENTINEL);
    jg_kernel_arg a[3] = {jg_arg_i64(3), jg_arg_array(o32, 4, JG_DTYPE_INT32, HOST),
                          jg_arg_array(counts, 4, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, a, &err), JG_OK);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 0);
    assert_int_equal(counts[2], 4);
    assert_int_equal(counts[3], SENTINEL);
    /* int64 offsets crossing zero, last list empty. */
    int64_t o64[5] = {-7, -2, 0, 1000000000000LL, 1000000000000LL};
    fill_i64(counts, 4, SENTINEL);
    jg_kernel_arg b[3] = {jg_arg_i64(4), jg_arg_array(o64, 5, JG_DTYPE_INT64, HOST),
                          jg_arg_array(counts, 4, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, b, &err), JG_OK);
    assert_int_equal(counts[0], 5);
    assert_int_equal(counts[1], 2);
    assert_int_equal(counts[2], 1000000000000LL);
    assert_int_equal(counts[3], 0);
    /* The widest list that fits: [INT64_MIN, -1] has INT64_MAX elements. */
    int64_t wide[2] = {INT64_MIN, -1};
    jg_kernel_arg c[3] = {jg_arg_i64(1), jg_arg_array(wide, 2, JG_DTYPE_INT64, HOST),
                          jg_arg_array(counts, 1, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, c, &err), JG_OK);
    assert_int_equal(counts[0], INT64_MAX);
    /* No lists: one offset, counts may be empty (NULL); nothing is written. */
    int32_t one[1] = {42};
    jg_kernel_arg d[3] = {jg_arg_i64(0), jg_arg_array(one, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_array(NULL, 0, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, d, &err), JG_OK);
  }
}

static void test_offsets_to_counts_errors(void **state) {
  (void)state;
  const jg_kernel *k = kernel("offsets_to_counts");
  int64_t counts[8];
  /* Decreases at lists 1 and 3: the first is reported. */
  int32_t o32[6] = {0, 2, 1, 5, 3, 3};
  jg_kernel_arg a[3] = {jg_arg_i64(5), jg_arg_array(o32, 6, JG_DTYPE_INT32, HOST),
                        jg_arg_array(counts, 8, JG_DTYPE_INT64, HOST)};
  expect_error(k, a, JG_EVALUE, 1, "offsets_to_counts: offsets decrease at list 1");
  /* A decrease at list 0. */
  int64_t o64[3] = {5, 4, 9};
  jg_kernel_arg b[3] = {jg_arg_i64(2), jg_arg_array(o64, 3, JG_DTYPE_INT64, HOST),
                        jg_arg_array(counts, 2, JG_DTYPE_INT64, HOST)};
  expect_error(k, b, JG_EVALUE, 0, "offsets_to_counts: offsets decrease at list 0");
  /* List 1 = [-5, INT64_MAX - 1] has INT64_MAX + 4 elements; a decrease follows at list 2. */
  int64_t big[4] = {-10, -5, INT64_MAX - 1, 0};
  jg_kernel_arg c[3] = {jg_arg_i64(3), jg_arg_array(big, 4, JG_DTYPE_INT64, HOST),
                        jg_arg_array(counts, 3, JG_DTYPE_INT64, HOST)};
  expect_error(k, c, JG_EOVERFLOW, 1, "offsets_to_counts: list 1 has more than 2^63 - 1 elements");
  /* [INT64_MIN, 0] has INT64_MAX + 1 elements: one too many. */
  int64_t edge[2] = {INT64_MIN, 0};
  jg_kernel_arg d[3] = {jg_arg_i64(1), jg_arg_array(edge, 2, JG_DTYPE_INT64, HOST),
                        jg_arg_array(counts, 1, JG_DTYPE_INT64, HOST)};
  expect_error(k, d, JG_EOVERFLOW, 0, "list 0 has more than 2^63 - 1 elements");
  /* The spec's minimum lengths: offsets needs n + 1, counts n. */
  jg_error err;
  jg_kernel_arg e[3] = {jg_arg_i64(5), jg_arg_array(o32, 5, JG_DTYPE_INT32, HOST),
                        jg_arg_array(counts, 8, JG_DTYPE_INT64, HOST)};
  assert_int_equal(jg_kernel_call(k, e, 3, NULL, &err), JG_ESHAPE);
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "offsets");
  jg_kernel_arg f[3] = {jg_arg_i64(5), jg_arg_array(o32, 6, JG_DTYPE_INT32, HOST),
                        jg_arg_array(counts, 4, JG_DTYPE_INT64, HOST)};
  assert_int_equal(jg_kernel_call(k, f, 3, NULL, &err), JG_ESHAPE);
  assert_int_equal(err.index, 2);
  /* No int16 variant; counts must be int64. */
  int16_t o16[2] = {0, 1};
  jg_kernel_arg g[3] = {jg_arg_i64(1), jg_arg_array(o16, 2, JG_DTYPE_INT16, HOST),
                        jg_arg_array(counts, 1, JG_DTYPE_INT64, HOST)};
  assert_int_equal(jg_kernel_call(k, g, 3, NULL, &err), JG_EDTYPE);
  jg_kernel_arg h[3] = {jg_arg_i64(1), jg_arg_array(o64, 2, JG_DTYPE_INT64, HOST),
                        jg_arg_array(counts, 1, JG_DTYPE_INT32, HOST)};
  assert_int_equal(jg_kernel_call(k, h, 3, NULL, &err), JG_EDTYPE);
}

/* ------------------------------------------------------------ local_index */

static void test_local_index_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("local_index");
  assert_int_equal(jg_kernel_param_count(k), 4);
  assert_int_equal(jg_kernel_variant_count(k), 2);
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_error err;
    /* offsets [2, 4, 4, 7]: lists of 2, 0 and 3 elements -> [0, 1, 0, 1, 2]. */
    int32_t o32[4] = {2, 4, 4, 7};
    int64_t out[8];
    fill_i64(out, 8, SENTINEL);
    jg_kernel_arg a[4] = {jg_arg_i64(3), jg_arg_i64(5), jg_arg_array(o32, 4, JG_DTYPE_INT32, HOST),
                          jg_arg_array(out, 6, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, a, &err), JG_OK);
    const int64_t want[6] = {0, 1, 0, 1, 2, SENTINEL};
    for (int i = 0; i < 6; ++i) assert_int_equal(out[i], want[i]);
    /* int64, first and last list empty, one list of 4. */
    int64_t o64[4] = {100, 100, 104, 104};
    fill_i64(out, 8, SENTINEL);
    jg_kernel_arg b[4] = {jg_arg_i64(3), jg_arg_i64(4), jg_arg_array(o64, 4, JG_DTYPE_INT64, HOST),
                          jg_arg_array(out, 4, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, b, &err), JG_OK);
    for (int i = 0; i < 4; ++i) assert_int_equal(out[i], i);
    assert_int_equal(out[4], SENTINEL);
    /* m larger than the lists cover: out[2..4) stays. */
    int64_t short_[2] = {-3, -1};
    fill_i64(out, 8, SENTINEL);
    jg_kernel_arg c[4] = {jg_arg_i64(1), jg_arg_i64(4),
                          jg_arg_array(short_, 2, JG_DTYPE_INT64, HOST),
                          jg_arg_array(out, 4, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, c, &err), JG_OK);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 1);
    assert_int_equal(out[2], SENTINEL);
    assert_int_equal(out[3], SENTINEL);
    /* No lists; all lists empty with m = 0 (out may be NULL). */
    int32_t flat[4] = {9, 9, 9, 9};
    jg_kernel_arg d[4] = {jg_arg_i64(0), jg_arg_i64(0), jg_arg_array(flat, 1, JG_DTYPE_INT32, HOST),
                          jg_arg_array(NULL, 0, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, d, &err), JG_OK);
    jg_kernel_arg e[4] = {jg_arg_i64(3), jg_arg_i64(0), jg_arg_array(flat, 4, JG_DTYPE_INT32, HOST),
                          jg_arg_array(NULL, 0, JG_DTYPE_INT64, HOST)};
    assert_int_equal(call_with(k, impl, e, &err), JG_OK);
  }
}

static void test_local_index_errors(void **state) {
  (void)state;
  const jg_kernel *k = kernel("local_index");
  int64_t out[16];
  const char *msg1 =
      "local_index: offsets decrease or leave [offsets[0], offsets[0] + m] at list 1";
  /* A decrease at list 1, another at list 3. */
  int64_t dec[5] = {0, 3, 2, 5, 4};
  jg_kernel_arg a[4] = {jg_arg_i64(4), jg_arg_i64(5), jg_arg_array(dec, 5, JG_DTYPE_INT64, HOST),
                        jg_arg_array(out, 5, JG_DTYPE_INT64, HOST)};
  expect_error(k, a, JG_EVALUE, 1, msg1);
  /* List 1 ends at 6 > offsets[0] + m = 5 (offsets need not start at 0: 10 + 5). */
  int32_t past[4] = {10, 12, 16, 16};
  jg_kernel_arg b[4] = {jg_arg_i64(3), jg_arg_i64(5), jg_arg_array(past, 4, JG_DTYPE_INT32, HOST),
                        jg_arg_array(out, 5, JG_DTYPE_INT64, HOST)};
  expect_error(k, b, JG_EVALUE, 1, msg1);
  /* m = 0 with all lists empty but a decrease at list 1. */
  int32_t flat[4] = {4, 4, 3, 3};
  jg_kernel_arg c[4] = {jg_arg_i64(3), jg_arg_i64(0), jg_arg_array(flat, 4, JG_DTYPE_INT32, HOST),
                        jg_arg_array(NULL, 0, JG_DTYPE_INT64, HOST)};
  expect_error(k, c, JG_EVALUE, 1, msg1);
  /* A negative m: no list fits, even an empty one. */
  int64_t empty[2] = {0, 0};
  jg_kernel_arg d[4] = {jg_arg_i64(1), jg_arg_i64(-1), jg_arg_array(empty, 2, JG_DTYPE_INT64, HOST),
                        jg_arg_array(NULL, 0, JG_DTYPE_INT64, HOST)};
  expect_error(k, d, JG_EVALUE, 0,
               "local_index: offsets decrease or leave [offsets[0], offsets[0] + m] at list 0");
  /* Offsets spanning more than INT64_MAX: list 0 leaves [offsets[0], offsets[0] + m]. */
  int64_t huge[2] = {INT64_MIN, INT64_MAX};
  jg_kernel_arg e[4] = {jg_arg_i64(1), jg_arg_i64(16), jg_arg_array(huge, 2, JG_DTYPE_INT64, HOST),
                        jg_arg_array(out, 16, JG_DTYPE_INT64, HOST)};
  expect_error(k, e, JG_EVALUE, 0, "at list 0");
  /* Minimum lengths: out needs m elements. */
  jg_error err;
  jg_kernel_arg f[4] = {jg_arg_i64(4), jg_arg_i64(5), jg_arg_array(dec, 5, JG_DTYPE_INT64, HOST),
                        jg_arg_array(out, 4, JG_DTYPE_INT64, HOST)};
  assert_int_equal(jg_kernel_call(k, f, 4, NULL, &err), JG_ESHAPE);
  assert_int_equal(err.index, 3);
}

/* ------------------------------------------------------------------- take */

static void test_take_values(void **state) {
  (void)state;
  const jg_kernel *k = kernel("take");
  assert_int_equal(jg_kernel_variant_count(k), 11);
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h) {
    const char *impl = jg_kernel_host_impl_name(k, h);
    jg_error err;
    /* float64: negative indices count from the end. */
    double content[4] = {10.5, 20.5, 30.5, 40.5};
    int64_t index[5] = {0, -1, 2, -4, 3};
    double out[6] = {-1, -1, -1, -1, -1, -1};
    jg_kernel_arg a[5] = {
        jg_arg_i64(5), jg_arg_i64(4), jg_arg_array(content, 4, JG_DTYPE_FLOAT64, HOST),
        jg_arg_array(index, 5, JG_DTYPE_INT64, HOST), jg_arg_array(out, 6, JG_DTYPE_FLOAT64, HOST)};
    assert_int_equal(call_with(k, impl, a, &err), JG_OK);
    const double want[6] = {10.5, 40.5, 30.5, 10.5, 40.5, -1};
    for (int i = 0; i < 6; ++i) assert_true(out[i] == want[i]);
    /* bool, int8, uint64 (values past INT64_MAX), float32. */
    bool bc[3] = {true, false, true}, bo[4] = {false, true, false, true};
    int64_t bi[4] = {1, -1, 0, -2};
    jg_kernel_arg b[5] = {jg_arg_i64(4), jg_arg_i64(3), jg_arg_array(bc, 3, JG_DTYPE_BOOL, HOST),
                          jg_arg_array(bi, 4, JG_DTYPE_INT64, HOST),
                          jg_arg_array(bo, 4, JG_DTYPE_BOOL, HOST)};
    assert_int_equal(call_with(k, impl, b, &err), JG_OK);
    assert_true(!bo[0] && bo[1] && bo[2] && !bo[3]);
    int8_t ic[3] = {-128, 0, 127}, io[4] = {0, 0, 0, 0};
    jg_kernel_arg c[5] = {jg_arg_i64(4), jg_arg_i64(3), jg_arg_array(ic, 3, JG_DTYPE_INT8, HOST),
                          jg_arg_array(bi, 4, JG_DTYPE_INT64, HOST),
                          jg_arg_array(io, 4, JG_DTYPE_INT8, HOST)};
    assert_int_equal(call_with(k, impl, c, &err), JG_OK);
    assert_int_equal(io[0], 0);
    assert_int_equal(io[1], 127);
    assert_int_equal(io[2], -128);
    assert_int_equal(io[3], 0);
    uint64_t uc[2] = {UINT64_MAX, 9223372036854775809ULL}, uo[3] = {0, 0, 0};
    int64_t ui[3] = {1, -2, -1};
    jg_kernel_arg d[5] = {jg_arg_i64(3), jg_arg_i64(2), jg_arg_array(uc, 2, JG_DTYPE_UINT64, HOST),
                          jg_arg_array(ui, 3, JG_DTYPE_INT64, HOST),
                          jg_arg_array(uo, 3, JG_DTYPE_UINT64, HOST)};
    assert_int_equal(call_with(k, impl, d, &err), JG_OK);
    assert_true(uo[0] == 9223372036854775809ULL && uo[1] == UINT64_MAX &&
                uo[2] == 9223372036854775809ULL);
    float fc[1] = {-0.25f}, fo[2] = {0, 0};
    int64_t fi[2] = {0, -1};
    jg_kernel_arg e[5] = {jg_arg_i64(2), jg_arg_i64(1), jg_arg_array(fc, 1, JG_DTYPE_FLOAT32, HOST),
                          jg_arg_array(fi, 2, JG_DTYPE_INT64, HOST),
                          jg_arg_array(fo, 2, JG_DTYPE_FLOAT32, HOST)};
    assert_int_equal(call_with(k, impl, e, &err), JG_OK);
    assert_true(fo[0] == -0.25f && fo[1] == -0.25f);
    /* No positions: content and index may be empty. */
    jg_kernel_arg f[5] = {jg_arg_i64(0), jg_arg_i64(0), jg_arg_array(NULL, 0, JG_DTYPE_INT32, HOST),
                          jg_arg_array(NULL, 0, JG_DTYPE_INT64, HOST),
                          jg_arg_array(NULL, 0, JG_DTYPE_INT32, HOST)};
    assert_int_equal(call_with(k, impl, f, &err), JG_OK);
  }
}

static void test_take_errors(void **state) {
  (void)state;
  const jg_kernel *k = kernel("take");
  int32_t content[4] = {1, 2, 3, 4}, out[8];
  /* index m at position 2, -m - 1 at position 4: the first is reported. */
  int64_t i1[5] = {0, -4, 4, 1, -5};
  jg_kernel_arg a[5] = {
      jg_arg_i64(5), jg_arg_i64(4), jg_arg_array(content, 4, JG_DTYPE_INT32, HOST),
      jg_arg_array(i1, 5, JG_DTYPE_INT64, HOST), jg_arg_array(out, 5, JG_DTYPE_INT32, HOST)};
  expect_error(k, a, JG_EINDEX, 2, "take: index at position 2 is out of range");
  /* -m - 1 at position 0. */
  int64_t i2[2] = {-5, 0};
  jg_kernel_arg b[5] = {
      jg_arg_i64(2), jg_arg_i64(4), jg_arg_array(content, 4, JG_DTYPE_INT32, HOST),
      jg_arg_array(i2, 2, JG_DTYPE_INT64, HOST), jg_arg_array(out, 2, JG_DTYPE_INT32, HOST)};
  expect_error(k, b, JG_EINDEX, 0, "take: index at position 0 is out of range");
  /* INT64_MIN and INT64_MAX (no overflow forming -m or index + m). */
  int64_t i3[3] = {3, INT64_MIN, INT64_MAX};
  jg_kernel_arg c[5] = {
      jg_arg_i64(3), jg_arg_i64(4), jg_arg_array(content, 4, JG_DTYPE_INT32, HOST),
      jg_arg_array(i3, 3, JG_DTYPE_INT64, HOST), jg_arg_array(out, 3, JG_DTYPE_INT32, HOST)};
  expect_error(k, c, JG_EINDEX, 1, "take: index at position 1 is out of range");
  /* Empty content: every index is out of range, 0 included. */
  int64_t i4[1] = {0};
  jg_kernel_arg d[5] = {jg_arg_i64(1), jg_arg_i64(0), jg_arg_array(NULL, 0, JG_DTYPE_INT32, HOST),
                        jg_arg_array(i4, 1, JG_DTYPE_INT64, HOST),
                        jg_arg_array(out, 1, JG_DTYPE_INT32, HOST)};
  expect_error(k, d, JG_EINDEX, 0, "take: index at position 0 is out of range");
  /* A negative m behaves as empty content. */
  jg_kernel_arg e[5] = {jg_arg_i64(1), jg_arg_i64(-3), jg_arg_array(NULL, 0, JG_DTYPE_INT32, HOST),
                        jg_arg_array(i4, 1, JG_DTYPE_INT64, HOST),
                        jg_arg_array(out, 1, JG_DTYPE_INT32, HOST)};
  expect_error(k, e, JG_EINDEX, 0, "take: index at position 0 is out of range");
  /* Minimum lengths (content m, index n, out n) and matching content/out dtypes. */
  jg_error err;
  jg_kernel_arg f[5] = {
      jg_arg_i64(5), jg_arg_i64(5), jg_arg_array(content, 4, JG_DTYPE_INT32, HOST),
      jg_arg_array(i1, 5, JG_DTYPE_INT64, HOST), jg_arg_array(out, 5, JG_DTYPE_INT32, HOST)};
  assert_int_equal(jg_kernel_call(k, f, 5, NULL, &err), JG_ESHAPE);
  assert_int_equal(err.index, 2);
  jg_kernel_arg g[5] = {
      jg_arg_i64(5), jg_arg_i64(4), jg_arg_array(content, 4, JG_DTYPE_INT32, HOST),
      jg_arg_array(i1, 5, JG_DTYPE_INT64, HOST), jg_arg_array(out, 4, JG_DTYPE_INT32, HOST)};
  assert_int_equal(jg_kernel_call(k, g, 5, NULL, &err), JG_ESHAPE);
  assert_int_equal(err.index, 4);
  jg_kernel_arg h[5] = {
      jg_arg_i64(5), jg_arg_i64(4), jg_arg_array(content, 4, JG_DTYPE_INT32, HOST),
      jg_arg_array(i1, 5, JG_DTYPE_INT64, HOST), jg_arg_array(out, 5, JG_DTYPE_UINT32, HOST)};
  assert_int_equal(jg_kernel_call(k, h, 5, NULL, &err), JG_EDTYPE);
}

/* ------------------------------------------------------- catalog, parity */

static const char *const kMine[3] = {"local_index", "offsets_to_counts", "take"};

static void test_catalog_entries(void **state) {
  (void)state;
  char report[4096];
  jg_error err;
  (void)jg_catalog_check(report, sizeof report, &err);
  for (int i = 0; i < 3; ++i) {
    const jg_kernel *k = kernel(kMine[i]);
    char path[128], quoted[64];
    snprintf(path, sizeof path, "src/kernels/%s/%s_cuda.cu", kMine[i], kMine[i]);
    assert_string_equal(jg_kernel_cuda_path(k), path);
    assert_string_equal(jg_kernel_host_impl_name(k, 0), "c");
    assert_true(jg_kernel_parity_case_count(k) >= 8);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    assert_true(jg_kernel_has_cuda(k));
#else
    assert_false(jg_kernel_has_cuda(k));
#endif
    /* jg_catalog_check finds no mismatch in these kernels (others are not this test's). */
    snprintf(quoted, sizeof quoted, "kernel '%s'", kMine[i]);
    if (strstr(report, quoted) != NULL) {
      print_error("jg_catalog_check:\n%s\n", report);
      fail();
    }
  }
}

static bool has_host_impl(const jg_kernel *k, const char *name) {
  for (size_t h = 0; h < jg_kernel_host_impl_count(k); ++h)
    if (strcmp(jg_kernel_host_impl_name(k, h), name) == 0) return true;
  return false;
}

static void test_parity_openmp(void **state) {
  (void)state;
  int ran = 0;
  for (int i = 0; i < 3; ++i) {
    const jg_kernel *k = kernel(kMine[i]);
    if (!has_host_impl(k, "openmp")) continue; /* no openmp implementation, or not built */
    jg_parity_options o;
    memset(&o, 0, sizeof o);
    o.other = "openmp";
    o.seed = 12345;
    jgt_parity_ok(k, &o, kMine[i]);
    ++ran;
  }
  if (ran == 0) skip();
}

/* The parity cases run and agree with themselves ("c" against "c"), so every case builds valid
 * arguments for every variant, in builds without OpenMP or CUDA too. */
static void test_parity_cases_build(void **state) {
  (void)state;
  for (int i = 0; i < 3; ++i) {
    const jg_kernel *k = kernel(kMine[i]);
    jg_parity_options o;
    memset(&o, 0, sizeof o);
    o.other = "c";
    jgt_parity_ok(k, &o, kMine[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_offsets_to_counts_values),
      cmocka_unit_test(test_offsets_to_counts_errors),
      cmocka_unit_test(test_local_index_values),
      cmocka_unit_test(test_local_index_errors),
      cmocka_unit_test(test_take_values),
      cmocka_unit_test(test_take_errors),
      cmocka_unit_test(test_catalog_entries),
      cmocka_unit_test(test_parity_openmp),
      cmocka_unit_test(test_parity_cases_build),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
