/* test_layout.c: strided layouts (include/jagged/layout.h), every operation over its edge cases
 * and error paths, plus a seeded randomized self-consistency test that brute-forces element
 * offsets.
 *
 * Expected values: NumPy is not available here, so every expected shape, stride and offset below
 * was derived by hand from NumPy / CPython semantics (C-order strides are products of the extents
 * to the right; a[start:stop:step] follows range(*slice(start, stop, step).indices(n)); byte
 * strides divided by the itemsize) or taken from the docstring examples of cuda.core's
 * _StridedLayout, as the comments say. Strides are in elements unless a name says bytes. */
#include <limits.h>

#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

#define SH(...) ((const jg_len[]){__VA_ARGS__})
#define ST(...) ((const jg_stride[]){__VA_ARGS__})
#define AX(...) ((const int[]){__VA_ARGS__})
#define NONE JG_SLICE_NONE

/* Asserts every field of `l`, and that entries past ndim are zero (a documented invariant). */
static void expect_layout(const jg_layout *l, int ndim, const jg_len *shape,
                          const jg_stride *strides, jg_offset slice_offset, int64_t itemsize) {
  assert_int_equal(l->ndim, ndim);
  assert_int_equal(l->itemsize, itemsize);
  assert_int_equal(l->slice_offset, slice_offset);
  for (int i = 0; i < ndim; ++i) {
    if (l->shape[i] != shape[i] || l->strides[i] != strides[i]) {
      print_error("axis %d: got extent %lld stride %lld, want %lld %lld\n", i,
                  (long long)l->shape[i], (long long)l->strides[i], (long long)shape[i],
                  (long long)strides[i]);
      fail();
    }
  }
  for (int i = ndim; i < JG_MAX_NDIM; ++i) {
    assert_int_equal(l->shape[i], 0);
    assert_int_equal(l->strides[i], 0);
  }
}

/* Asserts a failed call: its status, err's status and index, and a piece of the message. */
static void expect_err(jg_status got, const jg_error *err, jg_status want, int64_t index,
                       const char *needle) {
  if (got != want) print_error("status %s, want %s\n", jg_status_name(got), jg_status_name(want));
  assert_int_equal(got, want);
  assert_int_equal(err->status, want);
  assert_int_equal(err->index, index);
  if (needle != NULL) JGT_CONTAINS(err->message, needle);
}

/* A layout from init that must succeed. */
static jg_layout mk(int ndim, const jg_len *shape, const jg_stride *strides, int64_t itemsize) {
  jg_layout l;
  JGT_OK(jg_layout_init(&l, ndim, shape, strides, itemsize, &jgt_err_));
  return l;
}

/* A sentinel layout to detect that a failed call left `out` untouched. */
static jg_layout sentinel(void) {
  jg_layout s;
  memset(&s, 0x5A, sizeof s);
  return s;
}

static void expect_untouched(const jg_layout *out) {
  jg_layout s = sentinel();
  assert_memory_equal(out, &s, sizeof s);
}

static void expect_bounds(const jg_layout *l, jg_offset lo, jg_offset hi) {
  jg_offset a = 123, b = 456;
  jg_layout_offset_bounds(l, &a, &b);
  assert_int_equal(a, lo);
  assert_int_equal(b, hi);
}

static void expect_flags(const jg_layout *l, bool c, bool f, bool any, bool dense, bool unique) {
  assert_int_equal(jg_layout_is_contiguous_c(l), c);
  assert_int_equal(jg_layout_is_contiguous_f(l), f);
  assert_int_equal(jg_layout_is_contiguous_any(l), any);
  assert_int_equal(jg_layout_is_dense(l), dense);
  assert_int_equal(jg_layout_is_unique(l), unique);
}

static size_t required(const jg_layout *l) {
  size_t n = 0;
  JGT_OK(jg_layout_required_size(l, &n, &jgt_err_));
  return n;
}

static jg_layout sliced(const jg_layout *in, int n, const jg_slice *s) {
  jg_layout out;
  JGT_OK(jg_layout_slice(&out, in, n, s, &jgt_err_));
  return out;
}

/* ------------------------------------------------------------------------------------------ */
/* Construction                                                                                */
/* ------------------------------------------------------------------------------------------ */

static void test_init_0d(void **state) {
  (void)state;
  jg_layout l = mk(0, NULL, NULL, 4);
  expect_layout(&l, 0, NULL, NULL, 0, 4);
  assert_int_equal(jg_layout_volume(&l), 1); /* np.empty(()).size == 1 */
  expect_bounds(&l, 0, 0);
  expect_flags(&l, true, true, true, true, true);
  assert_int_equal(required(&l), 4);
  /* Explicit (empty) strides are the same layout. */
  jg_layout e = mk(0, SH(7), ST(9), 4); /* shape/strides ignored for ndim 0 */
  assert_true(jg_layout_equal(&l, &e));
  int64_t bytes[1] = {99};
  JGT_OK(jg_layout_strides_in_bytes(&l, NULL, &jgt_err_));
  JGT_OK(jg_layout_strides_in_bytes(&l, bytes, &jgt_err_));
  assert_int_equal(bytes[0], 99); /* nothing written */
}

static void test_init_c_order(void **state) {
  (void)state;
  /* np.empty((5, 3, 7), np.float32).strides == (84, 28, 4) -> (21, 7, 1) elements. */
  jg_layout l = mk(3, SH(5, 3, 7), NULL, 4);
  expect_layout(&l, 3, SH(5, 3, 7), ST(21, 7, 1), 0, 4);
  assert_int_equal(jg_layout_volume(&l), 105);
  int64_t b[3];
  JGT_OK(jg_layout_strides_in_bytes(&l, b, &jgt_err_));
  assert_int_equal(b[0], 84);
  assert_int_equal(b[1], 28);
  assert_int_equal(b[2], 4);
  /* NULL strides and explicit C strides are the same layout (NVIDIA cuda-python issue #1417). */
  jg_layout e = mk(3, SH(5, 3, 7), ST(21, 7, 1), 4);
  assert_true(jg_layout_equal(&l, &e));
  expect_flags(&l, true, false, true, true, true);
  expect_bounds(&l, 0, 104);
  assert_int_equal(required(&l), 420);
  /* Extent 1: any stride is allowed and kept. */
  jg_layout one = mk(2, SH(1, 4), ST(1000, 1), 2);
  expect_layout(&one, 2, SH(1, 4), ST(1000, 1), 0, 2);
  expect_flags(&one, true, true, true, true, true);
  expect_bounds(&one, 0, 3);
  /* Negative and zero strides are accepted. */
  jg_layout neg = mk(2, SH(2, 3), ST(-3, 0), 8);
  expect_layout(&neg, 2, SH(2, 3), ST(-3, 0), 0, 8);
  expect_bounds(&neg, -3, 0);
  expect_flags(&neg, false, false, false, false, false);
}

static void test_init_zero_size(void **state) {
  (void)state;
  /* Zero-volume layouts get all strides 0, whatever was passed (cuda.core's tests expect zero
   * strides_in_bytes for them, and CuPy >= 11 reports 0 strides). */
  jg_layout a = mk(1, SH(0), ST(5), 4);
  expect_layout(&a, 1, SH(0), ST(0), 0, 4);
  jg_layout b = mk(3, SH(3, 0, 3), NULL, 4);
  expect_layout(&b, 3, SH(3, 0, 3), ST(0, 0, 0), 0, 4);
  jg_layout c = mk(5, SH(1, 2, 3, 0, 5), ST(-7, 3, 100, 1, 9), 2);
  expect_layout(&c, 5, SH(1, 2, 3, 0, 5), ST(0, 0, 0, 0, 0), 0, 2);
  const jg_layout *all[] = {&a, &b, &c};
  for (int i = 0; i < 3; ++i) {
    assert_int_equal(jg_layout_volume(all[i]), 0);
    expect_bounds(all[i], 0, -1);
    expect_flags(all[i], true, true, true, true, true);
    assert_int_equal(required(all[i]), 0);
    int64_t bytes[5] = {9, 9, 9, 9, 9};
    JGT_OK(jg_layout_strides_in_bytes(all[i], bytes, &jgt_err_));
    for (int k = 0; k < all[i]->ndim; ++k) assert_int_equal(bytes[k], 0);
  }
  /* onnxruntime #27450: (1, 8, 0, 128) is contiguous. */
  jg_layout d = mk(4, SH(1, 8, 0, 128), ST(1024, 128, 128, 1), 4);
  expect_flags(&d, true, true, true, true, true);
  /* A zero extent keeps huge extents from overflowing the volume. */
  jg_layout h = mk(3, SH(INT64_C(1) << 62, INT64_C(1) << 62, 0), NULL, 8);
  expect_layout(&h, 3, SH(INT64_C(1) << 62, INT64_C(1) << 62, 0), ST(0, 0, 0), 0, 8);
  assert_int_equal(jg_layout_volume(&h), 0);
}

static void test_init_errors(void **state) {
  (void)state;
  jg_error err;
  jg_layout out = sentinel();
  expect_err(jg_layout_init(NULL, 1, SH(3), NULL, 4, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_init(&out, -1, SH(3), NULL, 4, &err), &err, JG_EINVAL, -1, "ndim");
  expect_err(jg_layout_init(&out, 65, SH(3), NULL, 4, &err), &err, JG_EINVAL, -1, "ndim");
  expect_err(jg_layout_init(&out, 1, NULL, NULL, 4, &err), &err, JG_EINVAL, -1, "shape");
  expect_err(jg_layout_init(&out, 3, SH(2, -1, 2), NULL, 4, &err), &err, JG_EINVAL, 1,
             "extents must be non-negative");
  expect_err(jg_layout_init(&out, 1, SH(3), NULL, 0, &err), &err, JG_EINVAL, -1, "itemsize");
  expect_err(jg_layout_init(&out, 1, SH(3), NULL, -4, &err), &err, JG_EINVAL, -1, "itemsize");
  /* 2^32 * 2^32 = 2^64 does not fit in int64. */
  expect_err(jg_layout_init(&out, 2, SH(INT64_C(1) << 32, INT64_C(1) << 32), NULL, 1, &err), &err,
             JG_EOVERFLOW, -1, "volume");
  /* (3,) with stride INT64_MAX: element 2 is at 2 * INT64_MAX. (2,) fits exactly. */
  expect_err(jg_layout_init(&out, 1, SH(3), ST(INT64_MAX), 1, &err), &err, JG_EOVERFLOW, -1,
             "offset");
  jg_layout ok = mk(1, SH(2), ST(INT64_MAX), 1);
  expect_bounds(&ok, 0, INT64_MAX);
  /* Two axes whose maxima add past INT64_MAX. */
  const jg_stride half = INT64_MAX / 2 + 1; /* 2^62 */
  expect_err(jg_layout_init(&out, 2, SH(2, 2), ST(half, half), 1, &err), &err, JG_EOVERFLOW, -1,
             NULL);
  /* Negative side: 2 * (INT64_MIN / 2) == INT64_MIN fits; one more does not. */
  jg_layout lo = mk(1, SH(3), ST(INT64_MIN / 2), 1);
  expect_bounds(&lo, INT64_MIN, 0);
  expect_err(jg_layout_init(&out, 1, SH(3), ST(INT64_MIN / 2 - 1), 1, &err), &err, JG_EOVERFLOW, -1,
             NULL);
  expect_untouched(&out);
  /* err may be NULL. */
  assert_int_equal(jg_layout_init(&out, 1, SH(-1), NULL, 4, NULL), JG_EINVAL);
  expect_untouched(&out);
}

static void test_init_byte_strides(void **state) {
  (void)state;
  jg_error err;
  jg_layout l;
  /* np.zeros((2, 3), np.int32).strides == (12, 4). */
  JGT_OK(jg_layout_init_byte_strides(&l, 2, SH(2, 3), ST(12, 4), 4, &jgt_err_));
  expect_layout(&l, 2, SH(2, 3), ST(3, 1), 0, 4);
  /* a[:, ::-1] of int32 (2, 3): byte strides (12, -4). */
  JGT_OK(jg_layout_init_byte_strides(&l, 2, SH(2, 3), ST(12, -4), 4, &jgt_err_));
  expect_layout(&l, 2, SH(2, 3), ST(3, -1), 0, 4);
  /* NULL byte strides: C order. */
  JGT_OK(jg_layout_init_byte_strides(&l, 2, SH(2, 3), NULL, 8, &jgt_err_));
  expect_layout(&l, 2, SH(2, 3), ST(3, 1), 0, 8);
  /* cuda-python #1429: field "b" of a packed structured array, itemsize 8, byte stride 12. */
  jg_layout out = sentinel();
  expect_err(jg_layout_init_byte_strides(&out, 1, SH(4), ST(12), 8, &err), &err, JG_EINVAL, 0,
             "strides must be divisible by itemsize");
  expect_err(jg_layout_init_byte_strides(&out, 2, SH(2, 3), ST(12, 6), 4, &err), &err, JG_EINVAL, 1,
             "divisible");
  /* Checked even when the volume is 0 (NVIDIA cuda-python issue #1429). */
  expect_err(jg_layout_init_byte_strides(&out, 2, SH(0, 3), ST(12, 6), 4, &err), &err, JG_EINVAL, 1,
             "divisible");
  /* The init errors apply too. */
  expect_err(jg_layout_init_byte_strides(&out, 1, SH(4), ST(4), 0, &err), &err, JG_EINVAL, -1,
             "itemsize");
  expect_err(jg_layout_init_byte_strides(&out, 65, SH(4), ST(4), 4, &err), &err, JG_EINVAL, -1,
             "ndim");
  expect_err(jg_layout_init_byte_strides(&out, 1, SH(-4), ST(4), 4, &err), &err, JG_EINVAL, 0,
             "non-negative");
  expect_err(jg_layout_init_byte_strides(NULL, 1, SH(4), ST(4), 4, &err), &err, JG_EINVAL, -1,
             NULL);
  expect_untouched(&out);
}

/* 64 axes: shape[i] = 2 when i % 3 == 0 (22 axes), else 1; volume 2^22. */
static void long_shape(jg_len *shape) {
  for (int i = 0; i < JG_MAX_NDIM; ++i) shape[i] = i % 3 == 0 ? 2 : 1;
}

static void test_init_64_dims(void **state) {
  (void)state;
  jg_len shape[JG_MAX_NDIM];
  long_shape(shape);
  jg_layout l = mk(JG_MAX_NDIM, shape, NULL, 1);
  /* C strides: the product of the extents to the right, computed here independently. */
  jg_stride expect[JG_MAX_NDIM];
  jg_stride p = 1;
  for (int i = JG_MAX_NDIM - 1; i >= 0; --i) {
    expect[i] = p;
    p *= shape[i];
  }
  assert_int_equal(p, INT64_C(1) << 22);
  expect_layout(&l, JG_MAX_NDIM, shape, expect, 0, 1);
  assert_int_equal(jg_layout_volume(&l), INT64_C(1) << 22);
  expect_flags(&l, true, false, true, true, true);
  expect_bounds(&l, 0, (INT64_C(1) << 22) - 1);
  /* 65 axes are rejected everywhere a rank is passed. */
  jg_len shape65[JG_MAX_NDIM + 1];
  for (int i = 0; i <= JG_MAX_NDIM; ++i) shape65[i] = 1;
  jg_error err;
  jg_layout out = sentinel();
  expect_err(jg_layout_init(&out, JG_MAX_NDIM + 1, shape65, NULL, 1, &err), &err, JG_EINVAL, -1,
             "ndim");
  expect_err(jg_layout_dense(&out, JG_MAX_NDIM + 1, shape65, 1, JG_ORDER_C, NULL, &err), &err,
             JG_EINVAL, -1, NULL);
  expect_err(jg_layout_reshape(&out, &l, JG_MAX_NDIM + 1, shape65, &err), &err, JG_EINVAL, -1,
             NULL);
  expect_err(jg_layout_broadcast_to(&out, &l, JG_MAX_NDIM + 1, shape65, &err), &err, JG_EINVAL, -1,
             NULL);
  expect_err(jg_layout_unsqueeze(&out, &l, 1, AX(0), &err), &err, JG_EINVAL, -1, "more than");
  expect_untouched(&out);
  /* 64 slices reverse every axis: strides negate; the slice offset is the offset of the last
   * element, volume - 1, so the offset range is unchanged. */
  jg_slice rev[JG_MAX_NDIM];
  for (int i = 0; i < JG_MAX_NDIM; ++i) rev[i] = JG_SLICE(NONE, NONE, -1);
  jg_layout r = sliced(&l, JG_MAX_NDIM, rev);
  jg_stride neg[JG_MAX_NDIM];
  for (int i = 0; i < JG_MAX_NDIM; ++i) neg[i] = -expect[i];
  expect_layout(&r, JG_MAX_NDIM, shape, neg, (INT64_C(1) << 22) - 1, 1);
  expect_bounds(&r, 0, (INT64_C(1) << 22) - 1);
  expect_flags(&r, false, false, false, false, true);
  /* Reversing again restores the original. */
  jg_layout rr = sliced(&r, JG_MAX_NDIM, rev);
  assert_true(jg_layout_equal(&rr, &l));
  /* 64 extra slices are too many for 64 axes... and 65 too. */
  jg_slice rev65[JG_MAX_NDIM + 1];
  for (int i = 0; i <= JG_MAX_NDIM; ++i) rev65[i] = JG_SLICE_ALL;
  expect_err(jg_layout_slice(&out, &l, JG_MAX_NDIM + 1, rev65, &err), &err, JG_EINVAL, JG_MAX_NDIM,
             "greater than the number of dimensions");
  /* Full flatten of the 64-d dense layout: one axis; from axis 1 on: (2, 2^21). */
  JGT_OK(jg_layout_flatten(&out, &l, 0, JG_MAX_NDIM - 1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 1, SH(INT64_C(1) << 22), ST(1), 0, 1);
  JGT_OK(jg_layout_flatten(&out, &l, 1, 63, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 2, SH(2, INT64_C(1) << 21), ST(INT64_C(1) << 21, 1), 0, 1);
  /* The all-reversed one flattens too (every stride is -(next stride * next extent)). */
  JGT_OK(jg_layout_flatten(&out, &r, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 1, SH(INT64_C(1) << 22), ST(-1), (INT64_C(1) << 22) - 1, 1);
  /* Squeeze keeps the 22 axes of extent 2. */
  JGT_OK(jg_layout_squeeze(&out, &l, &jgt_err_));
  assert_int_equal(out.ndim, 22);
  for (int i = 0; i < 22; ++i) {
    assert_int_equal(out.shape[i], 2);
    assert_int_equal(out.strides[i], INT64_C(1) << (21 - i));
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Dense layouts and stride order                                                             */
/* ------------------------------------------------------------------------------------------ */

static void expect_order(const jg_layout *l, const int *want) {
  int perm[JG_MAX_NDIM];
  for (int i = 0; i < JG_MAX_NDIM; ++i) perm[i] = -7;
  jg_layout_stride_order(l, perm);
  for (int i = 0; i < l->ndim; ++i) assert_int_equal(perm[i], want[i]);
  assert_int_equal(perm[l->ndim], -7); /* nothing past ndim written */
}

static void test_dense(void **state) {
  (void)state;
  jg_layout l;
  /* The docstring examples of cuda.core's dense() for shape (5, 3, 7). */
  JGT_OK(jg_layout_dense(&l, 3, SH(5, 3, 7), 1, JG_ORDER_C, NULL, &jgt_err_));
  expect_layout(&l, 3, SH(5, 3, 7), ST(21, 7, 1), 0, 1);
  expect_order(&l, AX(0, 1, 2));
  expect_flags(&l, true, false, true, true, true);
  JGT_OK(jg_layout_dense(&l, 3, SH(5, 3, 7), 1, JG_ORDER_F, NULL, &jgt_err_));
  expect_layout(&l, 3, SH(5, 3, 7), ST(1, 5, 15), 0, 1);
  expect_order(&l, AX(2, 1, 0));
  expect_flags(&l, false, true, true, true, true);
  JGT_OK(jg_layout_dense(&l, 3, SH(5, 3, 7), 1, JG_ORDER_PERM, AX(2, 0, 1), &jgt_err_));
  expect_layout(&l, 3, SH(5, 3, 7), ST(3, 1, 15), 0, 1);
  expect_order(&l, AX(2, 0, 1));
  expect_flags(&l, false, false, true, true, true);
  expect_bounds(&l, 0, 104);
  /* Negative axes in the permutation count from the end: (-1, 0, 1) is (2, 0, 1). */
  jg_layout m;
  JGT_OK(jg_layout_dense(&m, 3, SH(5, 3, 7), 1, JG_ORDER_PERM, AX(-1, -3, -2), &jgt_err_));
  assert_true(jg_layout_equal(&l, &m));
  /* perm is ignored for C and F. */
  JGT_OK(jg_layout_dense(&m, 3, SH(5, 3, 7), 1, JG_ORDER_C, AX(9, 9, 9), &jgt_err_));
  expect_layout(&m, 3, SH(5, 3, 7), ST(21, 7, 1), 0, 1);
  /* Zero volume: all strides 0 in every order. */
  JGT_OK(jg_layout_dense(&l, 3, SH(3, 0, 3), 4, JG_ORDER_F, NULL, &jgt_err_));
  expect_layout(&l, 3, SH(3, 0, 3), ST(0, 0, 0), 0, 4);
  JGT_OK(jg_layout_dense(&l, 3, SH(3, 0, 3), 4, JG_ORDER_PERM, AX(1, 2, 0), &jgt_err_));
  expect_layout(&l, 3, SH(3, 0, 3), ST(0, 0, 0), 0, 4);
  /* 0-d, any order. */
  JGT_OK(jg_layout_dense(&l, 0, NULL, 2, JG_ORDER_PERM, NULL, &jgt_err_));
  expect_layout(&l, 0, NULL, NULL, 0, 2);
  JGT_OK(jg_layout_dense(&l, 0, NULL, 2, JG_ORDER_F, NULL, &jgt_err_));
  expect_layout(&l, 0, NULL, NULL, 0, 2);
  /* Errors. */
  jg_error err;
  jg_layout out = sentinel();
  expect_err(jg_layout_dense(&out, 3, SH(5, 3, 7), 1, JG_ORDER_K, NULL, &err), &err, JG_EINVAL, -1,
             "order");
  expect_err(jg_layout_dense(&out, 3, SH(5, 3, 7), 1, (jg_order)99, NULL, &err), &err, JG_EINVAL,
             -1, "order");
  expect_err(jg_layout_dense(&out, 3, SH(5, 3, 7), 1, JG_ORDER_PERM, NULL, &err), &err, JG_EINVAL,
             -1, "perm");
  expect_err(jg_layout_dense(&out, 3, SH(5, 3, 7), 1, JG_ORDER_PERM, AX(0, 3, 1), &err), &err,
             JG_EINVAL, 1, "out of range");
  expect_err(jg_layout_dense(&out, 3, SH(5, 3, 7), 1, JG_ORDER_PERM, AX(0, 1, -4), &err), &err,
             JG_EINVAL, 2, "out of range");
  expect_err(jg_layout_dense(&out, 3, SH(5, 3, 7), 1, JG_ORDER_PERM, AX(0, 1, -3), &err), &err,
             JG_EINVAL, 2, "multiple times");
  expect_err(
      jg_layout_dense(&out, 2, SH(INT64_C(1) << 40, INT64_C(1) << 40), 1, JG_ORDER_F, NULL, &err),
      &err, JG_EOVERFLOW, -1, NULL);
  expect_err(jg_layout_dense(&out, 1, SH(3), 0, JG_ORDER_C, NULL, &err), &err, JG_EINVAL, -1,
             "itemsize");
  expect_err(jg_layout_dense(&out, 1, SH(-3), 1, JG_ORDER_C, NULL, &err), &err, JG_EINVAL, 0, NULL);
  expect_err(jg_layout_dense(NULL, 1, SH(3), 1, JG_ORDER_C, NULL, &err), &err, JG_EINVAL, -1, NULL);
  expect_untouched(&out);
}

static void test_dense_like(void **state) {
  (void)state;
  jg_layout out;
  /* cuda.core's dense_like docstring: dense((5, 3, 7)).permuted((2, 0, 1)) is (7, 5, 3) with
   * strides (1, 21, 7); K keeps it; C gives (15, 3, 1); F gives (1, 7, 35). */
  jg_layout p;
  jg_layout d = mk(3, SH(5, 3, 7), NULL, 1);
  JGT_OK(jg_layout_permute(&p, &d, AX(2, 0, 1), &jgt_err_));
  expect_layout(&p, 3, SH(7, 5, 3), ST(1, 21, 7), 0, 1);
  JGT_OK(jg_layout_dense_like(&out, &p, JG_ORDER_K, NULL, &jgt_err_));
  assert_true(jg_layout_equal(&out, &p));
  JGT_OK(jg_layout_to_dense(&out, &p, &jgt_err_));
  assert_true(jg_layout_equal(&out, &p));
  JGT_OK(jg_layout_dense_like(&out, &p, JG_ORDER_C, NULL, &jgt_err_));
  expect_layout(&out, 3, SH(7, 5, 3), ST(15, 3, 1), 0, 1);
  JGT_OK(jg_layout_dense_like(&out, &p, JG_ORDER_F, NULL, &jgt_err_));
  expect_layout(&out, 3, SH(7, 5, 3), ST(1, 7, 35), 0, 1);
  /* PERM always recomputes: (1, 2, 0): axis 0 gets stride 1, axis 2 gets 7, axis 1 gets 21. */
  JGT_OK(jg_layout_dense_like(&out, &p, JG_ORDER_PERM, AX(1, 2, 0), &jgt_err_));
  expect_layout(&out, 3, SH(7, 5, 3), ST(1, 21, 7), 0, 1);
  /* A sliced layout: (4, 6)[1:3, ::-2] has shape (2, 3), strides (6, -2) and slice offset
   * 1 * 6 + 5 * 1 = 11 (the reversed slice starts at index 5). K keeps the order (0, 1) and
   * gives C strides; F gives (1, 2); the slice offset becomes 0. This is x.copy(order=...). */
  jg_layout base = mk(2, SH(4, 6), NULL, 4);
  jg_layout s = sliced(&base, 2, (jg_slice[]){JG_SLICE(1, 3, NONE), JG_SLICE(NONE, NONE, -2)});
  expect_layout(&s, 2, SH(2, 3), ST(6, -2), 11, 4);
  JGT_OK(jg_layout_to_dense(&out, &s, &jgt_err_));
  expect_layout(&out, 2, SH(2, 3), ST(3, 1), 0, 4);
  JGT_OK(jg_layout_dense_like(&out, &s, JG_ORDER_F, NULL, &jgt_err_));
  expect_layout(&out, 2, SH(2, 3), ST(1, 2), 0, 4);
  /* K on a sliced F-ordered layout keeps F order: (4, 6) F strides (1, 4), [:3] -> (3, 6) with
   * strides (1, 4) has gaps; its stride order is (1, 0), so the dense copy has strides (1, 3). */
  jg_layout fb;
  JGT_OK(jg_layout_dense(&fb, 2, SH(4, 6), 4, JG_ORDER_F, NULL, &jgt_err_));
  jg_layout fs = sliced(&fb, 1, (jg_slice[]){JG_SLICE(NONE, 3, NONE)});
  expect_layout(&fs, 2, SH(3, 6), ST(1, 4), 0, 4);
  assert_false(jg_layout_is_dense(&fs));
  JGT_OK(jg_layout_to_dense(&out, &fs, &jgt_err_));
  expect_layout(&out, 2, SH(3, 6), ST(1, 3), 0, 4);
  /* Dense with odd strides on extent-1 axes is returned unchanged for K, C and F alike (cuda.core
   * returns `other` itself; pytorch PR #163282: keep the true strides). */
  jg_layout one = mk(2, SH(1, 4), ST(7, 1), 2);
  JGT_OK(jg_layout_dense_like(&out, &one, JG_ORDER_K, NULL, &jgt_err_));
  expect_layout(&out, 2, SH(1, 4), ST(7, 1), 0, 2);
  JGT_OK(jg_layout_dense_like(&out, &one, JG_ORDER_C, NULL, &jgt_err_));
  expect_layout(&out, 2, SH(1, 4), ST(7, 1), 0, 2);
  JGT_OK(jg_layout_dense_like(&out, &one, JG_ORDER_F, NULL, &jgt_err_));
  expect_layout(&out, 2, SH(1, 4), ST(7, 1), 0, 2);
  /* ...but PERM recomputes: (0, 1) is C order, (1, 4) -> (4, 1). */
  JGT_OK(jg_layout_dense_like(&out, &one, JG_ORDER_PERM, AX(0, 1), &jgt_err_));
  expect_layout(&out, 2, SH(1, 4), ST(4, 1), 0, 2);
  /* Dense but not C: C recomputes. F-dense (2, 3) strides (1, 2) -> C (3, 1). */
  jg_layout f = mk(2, SH(2, 3), ST(1, 2), 8);
  JGT_OK(jg_layout_dense_like(&out, &f, JG_ORDER_C, NULL, &jgt_err_));
  expect_layout(&out, 2, SH(2, 3), ST(3, 1), 0, 8);
  JGT_OK(jg_layout_dense_like(&out, &f, JG_ORDER_F, NULL, &jgt_err_));
  expect_layout(&out, 2, SH(2, 3), ST(1, 2), 0, 8);
  /* Reversed (5,)[::-1] (stride -1, offset 4) is not dense: K gives (1,), offset 0. */
  jg_layout v = mk(1, SH(5), NULL, 4);
  jg_layout rv = sliced(&v, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -1)});
  JGT_OK(jg_layout_to_dense(&out, &rv, &jgt_err_));
  expect_layout(&out, 1, SH(5), ST(1), 0, 4);
  /* Zero volume with a slice offset: (5,)[2:][0:0] has offset 2 and is not dense (offset != 0);
   * its dense form is (0,), strides (0,), offset 0. */
  jg_layout z = sliced(&v, 1, (jg_slice[]){JG_SLICE(2, NONE, NONE)});
  z = sliced(&z, 1, (jg_slice[]){JG_SLICE(0, 0, NONE)});
  expect_layout(&z, 1, SH(0), ST(0), 2, 4);
  assert_true(jg_layout_is_contiguous_any(&z));
  assert_false(jg_layout_is_dense(&z));
  JGT_OK(jg_layout_to_dense(&out, &z, &jgt_err_));
  expect_layout(&out, 1, SH(0), ST(0), 0, 4);
  /* Broadcast (3, 4) strides (0, 1): |1| > |0|, so the stride order is (1, 0) and the dense
   * copy is F-like: strides (1, 3). */
  jg_layout b = mk(2, SH(3, 4), ST(0, 1), 4);
  expect_order(&b, AX(1, 0));
  JGT_OK(jg_layout_to_dense(&out, &b, &jgt_err_));
  expect_layout(&out, 2, SH(3, 4), ST(1, 3), 0, 4);
  /* 0-d. */
  jg_layout z0 = mk(0, NULL, NULL, 4);
  JGT_OK(jg_layout_to_dense(&out, &z0, &jgt_err_));
  expect_layout(&out, 0, NULL, NULL, 0, 4);
  /* Errors. */
  jg_error err;
  jg_layout o = sentinel();
  expect_err(jg_layout_dense_like(&o, &s, (jg_order)0, NULL, &err), &err, JG_EINVAL, -1, "order");
  expect_err(jg_layout_dense_like(&o, &s, JG_ORDER_PERM, NULL, &err), &err, JG_EINVAL, -1, "perm");
  expect_err(jg_layout_dense_like(&o, &s, JG_ORDER_PERM, AX(1, 1), &err), &err, JG_EINVAL, 1,
             "multiple");
  expect_err(jg_layout_dense_like(&o, NULL, JG_ORDER_K, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_dense_like(NULL, &s, JG_ORDER_K, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  jg_layout bad = s;
  bad.ndim = 65;
  expect_err(jg_layout_to_dense(&o, &bad, &err), &err, JG_EINVAL, -1, "ndim");
  bad = s;
  bad.itemsize = 0;
  expect_err(jg_layout_to_dense(&o, &bad, &err), &err, JG_EINVAL, -1, "itemsize");
  expect_untouched(&o);
}

static void test_stride_order(void **state) {
  (void)state;
  /* |stride| descending; ties: larger extent first, then the lower axis. */
  jg_layout l = mk(3, SH(2, 3, 4), ST(1, 1, 1), 1);
  expect_order(&l, AX(2, 1, 0));
  l = mk(2, SH(3, 3), ST(1, 1), 1);
  expect_order(&l, AX(0, 1));
  l = mk(3, SH(5, 2, 5), ST(2, 10, 2), 1);
  expect_order(&l, AX(1, 0, 2));
  l = mk(3, SH(5, 2, 5), ST(-2, 10, 2), 1); /* the sign does not matter */
  expect_order(&l, AX(1, 0, 2));
  l = mk(3, SH(2, 3, 4), ST(-12, 4, -1), 1);
  expect_order(&l, AX(0, 1, 2));
  l = mk(2, SH(4, 2), ST(0, 0), 1);
  expect_order(&l, AX(0, 1));
  l = mk(2, SH(2, 4), ST(0, 0), 1);
  expect_order(&l, AX(1, 0));
  /* Extent-1 axes sort by their stride like any other. */
  l = mk(3, SH(1, 4, 1), ST(100, 1, 4), 1);
  expect_order(&l, AX(0, 2, 1));
  /* NULL arguments do nothing. */
  int perm[2] = {-1, -1};
  jg_layout_stride_order(NULL, perm);
  assert_int_equal(perm[0], -1);
  jg_layout_stride_order(&l, NULL);
  jg_layout z = mk(0, NULL, NULL, 1);
  jg_layout_stride_order(&z, perm);
  assert_int_equal(perm[0], -1);
}

/* ------------------------------------------------------------------------------------------ */
/* Properties                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static void test_contiguity(void **state) {
  (void)state;
  /* pytorch #163282 / TVM #13121: (1, 128) with strides (128, 1) or (1, 1) is C-contiguous (and
   * F-contiguous too: NumPy flags a (1, 128) array both ways). */
  jg_layout a = mk(2, SH(1, 128), ST(128, 1), 2);
  jg_layout b = mk(2, SH(1, 128), ST(1, 1), 2);
  expect_flags(&a, true, true, true, true, true);
  expect_flags(&b, true, true, true, true, true);
  /* And the mirror image, (128, 1) with any stride on the extent-1 axis. */
  jg_layout c = mk(2, SH(128, 1), ST(1, 5), 2);
  expect_flags(&c, true, true, true, true, true);
  /* is_contiguous_f skips extent-1 axes: (3, 1, 2) strides (1, 99, 3). */
  jg_layout f = mk(3, SH(3, 1, 2), ST(1, 99, 3), 4);
  expect_flags(&f, false, true, true, true, true);
  /* (3, 1, 2) strides (1, 99, 4): a gap between the two groups. */
  jg_layout g = mk(3, SH(3, 1, 2), ST(1, 99, 4), 4);
  expect_flags(&g, false, false, false, false, true);
  /* Reversed arrays are not contiguous (negative strides never are)... */
  jg_layout v = mk(1, SH(5), NULL, 4);
  jg_layout r = sliced(&v, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -1)});
  expect_flags(&r, false, false, false, false, true);
  jg_layout r2 = mk(2, SH(2, 3), ST(3, -1), 4);
  expect_flags(&r2, false, false, false, false, true);
  /* ...unless the reversed axis has extent 1. */
  jg_layout r1 = mk(2, SH(1, 3), ST(-1, 1), 4);
  expect_flags(&r1, true, true, true, true, true);
  /* cuda.core's example: (5, 3, 7)[:, :, :-1] is neither C, F nor any. */
  jg_layout d = mk(3, SH(5, 3, 7), NULL, 1);
  jg_layout s = sliced(&d, 3, (jg_slice[]){JG_SLICE_ALL, JG_SLICE_ALL, JG_SLICE(NONE, -1, NONE)});
  expect_layout(&s, 3, SH(5, 3, 6), ST(21, 7, 1), 0, 1);
  expect_flags(&s, false, false, false, false, true);
  /* Contiguous but offset: (4,)[1:] is C-contiguous but not dense. */
  jg_layout o = sliced(&v, 1, (jg_slice[]){JG_SLICE(1, NONE, NONE)});
  expect_layout(&o, 1, SH(4), ST(1), 1, 4);
  expect_flags(&o, true, true, true, false, true);
  /* Broadcast: not contiguous, not unique. */
  jg_layout bc = mk(1, SH(3), ST(0), 4);
  expect_flags(&bc, false, false, false, false, false);
  /* Stride 2 everywhere: C-order shape, but gaps. */
  jg_layout gap = mk(2, SH(2, 3), ST(6, 2), 4);
  expect_flags(&gap, false, false, false, false, true);
  /* NULL and invalid layouts are nothing. */
  expect_flags(NULL, false, false, false, false, false);
  jg_layout bad = d;
  bad.ndim = -1;
  expect_flags(&bad, false, false, false, false, false);
}

static void test_bounds_and_required_size(void **state) {
  (void)state;
  jg_error err;
  /* a[::-1] of (5,): strides (-1,), slice offset 4, bounds (0, 4), 5 elements needed. */
  jg_layout v = mk(1, SH(5), NULL, 8);
  jg_layout r = sliced(&v, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -1)});
  expect_layout(&r, 1, SH(5), ST(-1), 4, 8);
  expect_bounds(&r, 0, 4);
  assert_int_equal(required(&r), 40);
  /* (3, 4)[1:, 1:3]: shape (2, 2), strides (4, 1), offset 4 + 1 = 5; max 5 + 4 + 1 = 10; the
   * required size counts the prefix: 11 elements. */
  jg_layout m = mk(2, SH(3, 4), NULL, 8);
  jg_layout ms = sliced(&m, 2, (jg_slice[]){JG_SLICE(1, NONE, NONE), JG_SLICE(1, 3, NONE)});
  expect_layout(&ms, 2, SH(2, 2), ST(4, 1), 5, 8);
  expect_bounds(&ms, 5, 10);
  assert_int_equal(required(&ms), 88);
  /* Either output may be NULL. */
  jg_offset lo = 1;
  jg_layout_offset_bounds(&ms, &lo, NULL);
  assert_int_equal(lo, 5);
  jg_offset hi = 1;
  jg_layout_offset_bounds(&ms, NULL, &hi);
  assert_int_equal(hi, 10);
  /* NULL layout: the empty range. */
  expect_bounds(NULL, 0, -1);
  /* Negative offsets: (3,) stride -2 maps to -4, -2, 0: bounds (-4, 0); the size is ambiguous. */
  jg_layout n = mk(1, SH(3), ST(-2), 4);
  expect_bounds(&n, -4, 0);
  size_t bytes = 77;
  expect_err(jg_layout_required_size(&n, &bytes, &err), &err, JG_EINVAL, -1,
             "negative offsets is ambiguous");
  assert_int_equal(bytes, 77);
  /* Mixed signs: (2, 3) strides (-3, 2): bounds (-3, 4). */
  jg_layout mx = mk(2, SH(2, 3), ST(-3, 2), 4);
  expect_bounds(&mx, -3, 4);
  /* Zero volume needs 0 bytes; 0-d needs one element. */
  jg_layout z = mk(2, SH(4, 0), NULL, 8);
  assert_int_equal(required(&z), 0);
  jg_layout z0 = mk(0, NULL, NULL, 16);
  assert_int_equal(required(&z0), 16);
  /* Overflow: max offset INT64_MAX (+1 overflows), or (2^62 + 1) * 4. */
  jg_layout big = mk(1, SH(2), ST(INT64_MAX), 1);
  expect_err(jg_layout_required_size(&big, &bytes, &err), &err, JG_EOVERFLOW, -1, NULL);
  jg_layout big4 = mk(1, SH(2), ST(INT64_C(1) << 62), 4);
  expect_err(jg_layout_required_size(&big4, &bytes, &err), &err, JG_EOVERFLOW, -1, NULL);
  assert_int_equal(bytes, 77);
  /* (2^62,) with stride 1 and itemsize 1 is fine: 2^62 bytes (a size, not an allocation). */
  jg_layout huge = mk(1, SH(INT64_C(1) << 62), NULL, 1);
  assert_int_equal(required(&huge), (size_t)1 << 62);
  expect_err(jg_layout_required_size(&huge, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_required_size(NULL, &bytes, &err), &err, JG_EINVAL, -1, "NULL");
  /* strides_in_bytes: overflow leaves the output untouched and names the axis. */
  int64_t sb[2] = {5, 5};
  jg_layout ov = mk(2, SH(1, 2), ST(1, INT64_C(1) << 62), 4);
  expect_err(jg_layout_strides_in_bytes(&ov, sb, &err), &err, JG_EOVERFLOW, 1, "overflows");
  assert_int_equal(sb[0], 5);
  assert_int_equal(sb[1], 5);
  expect_err(jg_layout_strides_in_bytes(&ov, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_strides_in_bytes(NULL, sb, &err), &err, JG_EINVAL, -1, "NULL");
  /* Negative strides in bytes. */
  JGT_OK(jg_layout_strides_in_bytes(&mx, sb, &jgt_err_));
  assert_int_equal(sb[0], -12);
  assert_int_equal(sb[1], 8);
  /* Volume: -1 for NULL or an invalid rank. */
  assert_int_equal(jg_layout_volume(NULL), -1);
  jg_layout bad = mx;
  bad.ndim = 65;
  assert_int_equal(jg_layout_volume(&bad), -1);
}

static void test_is_unique(void **state) {
  (void)state;
  jg_layout l = mk(2, SH(3, 4), ST(0, 1), 4); /* broadcast rows */
  assert_false(jg_layout_is_unique(&l));
  l = mk(2, SH(2, 2), ST(1, 1), 4); /* offsets 0, 1, 1, 2 */
  assert_false(jg_layout_is_unique(&l));
  l = mk(2, SH(2, 2), ST(2, 1), 4);
  assert_true(jg_layout_is_unique(&l));
  /* (2, 2) strides (3, 2): offsets 0, 2, 3, 5; the test passes (2 > 0, then 3 > 2). */
  l = mk(2, SH(2, 2), ST(3, 2), 4);
  assert_true(jg_layout_is_unique(&l));
  /* (3, 2) strides (2, 3): offsets 0, 3, 2, 5, 4, 7 are distinct, but the cheap test says false
   * (after the stride-2 axis the reach is 4 >= 3): documented as possible. */
  l = mk(2, SH(3, 2), ST(2, 3), 4);
  assert_false(jg_layout_is_unique(&l));
  /* Stride 0 on an extent-1 axis is fine. */
  l = mk(2, SH(1, 3), ST(0, 1), 4);
  assert_true(jg_layout_is_unique(&l));
  /* Negative strides: (2, 3) strides (-3, -1). */
  l = mk(2, SH(2, 3), ST(-3, -1), 4);
  assert_true(jg_layout_is_unique(&l));
  /* Overlap through a negative stride: (2, 3) strides (-2, 1): offsets {0,1,2} and {-2,-1,0}. */
  l = mk(2, SH(2, 3), ST(-2, 1), 4);
  assert_false(jg_layout_is_unique(&l));
  /* Extremes: (2, 2) strides (INT64_MIN, 2^62) is unique; its total span is 2^63 + 2^62. */
  l = mk(2, SH(2, 2), ST(INT64_MIN, INT64_C(1) << 62), 1);
  assert_true(jg_layout_is_unique(&l));
  l = mk(0, NULL, NULL, 4);
  assert_true(jg_layout_is_unique(&l));
  l = mk(2, SH(5, 0), NULL, 4);
  assert_true(jg_layout_is_unique(&l));
  assert_false(jg_layout_is_unique(NULL));
}

/* ------------------------------------------------------------------------------------------ */
/* Reshape                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static jg_layout reshaped(const jg_layout *in, int ndim, const jg_len *shape) {
  jg_layout out;
  JGT_OK(jg_layout_reshape(&out, in, ndim, shape, &jgt_err_));
  return out;
}

static void expect_reshape_err(const jg_layout *in, int ndim, const jg_len *shape, jg_status st,
                               int64_t index, const char *needle) {
  jg_error err;
  jg_layout out = sentinel();
  expect_err(jg_layout_reshape(&out, in, ndim, shape, &err), &err, st, index, needle);
  expect_untouched(&out);
}

static void test_reshape_table(void **state) {
  (void)state;
  jg_layout r;
  /* () <-> (1,); NumPy: np.array(1.).reshape(1).strides == (8,) -> (1,). */
  jg_layout z0 = mk(0, NULL, NULL, 8);
  r = reshaped(&z0, 1, SH(1));
  expect_layout(&r, 1, SH(1), ST(1), 0, 8);
  r = reshaped(&r, 0, NULL);
  expect_layout(&r, 0, NULL, NULL, 0, 8);
  jg_layout one5 = mk(1, SH(1), ST(5), 8); /* the stride of an extent-1 axis is dropped */
  r = reshaped(&one5, 0, NULL);
  expect_layout(&r, 0, NULL, NULL, 0, 8);
  r = reshaped(&z0, 1, SH(-1));
  expect_layout(&r, 1, SH(1), ST(1), 0, 8);
  r = reshaped(&z0, 3, SH(1, -1, 1));
  expect_layout(&r, 3, SH(1, 1, 1), ST(1, 1, 1), 0, 8);
  /* (12,): (-1,), (1, -1, 1) (np.arange(12).reshape(1, -1, 1).strides == (96, 8, 8)), (3, 4),
   * (2, -1, 3), and (2, 1, 3) (np.arange(6).reshape(2, 1, 3).strides == (24, 24, 8)). */
  jg_layout a = mk(1, SH(12), NULL, 8);
  r = reshaped(&a, 1, SH(-1));
  expect_layout(&r, 1, SH(12), ST(1), 0, 8);
  r = reshaped(&a, 3, SH(1, -1, 1));
  expect_layout(&r, 3, SH(1, 12, 1), ST(12, 1, 1), 0, 8);
  r = reshaped(&a, 2, SH(3, 4));
  expect_layout(&r, 2, SH(3, 4), ST(4, 1), 0, 8);
  r = reshaped(&a, 3, SH(2, -1, 3));
  expect_layout(&r, 3, SH(2, 2, 3), ST(6, 3, 1), 0, 8);
  jg_layout six = mk(1, SH(6), NULL, 8);
  r = reshaped(&six, 3, SH(2, 1, 3));
  expect_layout(&r, 3, SH(2, 1, 3), ST(3, 3, 1), 0, 8);
  /* Zero volume: (0,) -> (1, -1) is (1, 0); (0,) -> (0, -1) is ambiguous. */
  jg_layout e = mk(1, SH(0), NULL, 4);
  r = reshaped(&e, 2, SH(1, -1));
  expect_layout(&r, 2, SH(1, 0), ST(0, 0), 0, 4);
  expect_reshape_err(&e, 2, SH(0, -1), JG_EINVAL, 1, "ambiguous");
  expect_reshape_err(&e, 2, SH(-1, 0), JG_EINVAL, 0, "ambiguous");
  /* (3, 0, 3) -> (2, 3, 4, 5, 6, 7, 0, 12) and -> (-1,). */
  jg_layout e3 = mk(3, SH(3, 0, 3), NULL, 4);
  r = reshaped(&e3, 8, SH(2, 3, 4, 5, 6, 7, 0, 12));
  expect_layout(&r, 8, SH(2, 3, 4, 5, 6, 7, 0, 12), ST(0, 0, 0, 0, 0, 0, 0, 0), 0, 4);
  r = reshaped(&e3, 1, SH(-1));
  expect_layout(&r, 1, SH(0), ST(0), 0, 4);
  expect_reshape_err(&e3, 3, SH(5, -1, 0), JG_EINVAL, 1, "ambiguous");
  expect_reshape_err(&e3, 1, SH(5), JG_ESHAPE, -1, "must be equal");
  /* (12, 4)[:, :-1]: shape (12, 3), strides (4, 1). (6, 2, 3) works with strides (8, 4, 1)
   * (np.arange(48).reshape(12, 4)[:, :-1].reshape(6, 2, 3) is a view); (6, 6) needs a copy. */
  jg_layout g = mk(2, SH(12, 4), NULL, 8);
  jg_layout gs = sliced(&g, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(NONE, -1, NONE)});
  expect_layout(&gs, 2, SH(12, 3), ST(4, 1), 0, 8);
  r = reshaped(&gs, 3, SH(6, 2, 3));
  expect_layout(&r, 3, SH(6, 2, 3), ST(8, 4, 1), 0, 8);
  expect_reshape_err(&gs, 2, SH(6, 6), JG_ESHAPE, -1, "incompatible with the new shape");
  expect_reshape_err(&gs, 1, SH(-1), JG_ESHAPE, -1, "incompatible");
  /* Dense (2, 3, 2) with stride order (2, 0, 1): strides (3, 1, 6). Merged in C index order it
   * is (6, 2) with strides (1, 6): (6, 2) works, (2, 6) does not. The same layout comes from
   * permuting C-dense (2, 2, 3) by (1, 2, 0). */
  jg_layout p;
  JGT_OK(jg_layout_dense(&p, 3, SH(2, 3, 2), 4, JG_ORDER_PERM, AX(2, 0, 1), &jgt_err_));
  expect_layout(&p, 3, SH(2, 3, 2), ST(3, 1, 6), 0, 4);
  jg_layout p2;
  jg_layout c223 = mk(3, SH(2, 2, 3), NULL, 4);
  JGT_OK(jg_layout_permute(&p2, &c223, AX(1, 2, 0), &jgt_err_));
  assert_true(jg_layout_equal(&p, &p2));
  r = reshaped(&p, 2, SH(6, 2));
  expect_layout(&r, 2, SH(6, 2), ST(1, 6), 0, 4);
  expect_reshape_err(&p, 2, SH(2, 6), JG_ESHAPE, -1, "incompatible");
  /* cuda.core's reshaped() docstring with dense (5, 3, 4). */
  jg_layout d = mk(3, SH(5, 3, 4), NULL, 1);
  r = reshaped(&d, 2, SH(20, 3));
  expect_layout(&r, 2, SH(20, 3), ST(3, 1), 0, 1);
  r = reshaped(&d, 2, SH(4, -1));
  expect_layout(&r, 2, SH(4, 15), ST(15, 1), 0, 1);
  jg_layout dp;
  JGT_OK(jg_layout_permute(&dp, &d, AX(2, 0, 1), &jgt_err_));
  expect_layout(&dp, 3, SH(4, 5, 3), ST(1, 12, 4), 0, 1);
  r = reshaped(&dp, 2, SH(4, 15));
  expect_layout(&r, 2, SH(4, 15), ST(1, 4), 0, 1);
  expect_reshape_err(&dp, 2, SH(20, 3), JG_ESHAPE, -1, "incompatible");
  /* (10, 10, 10)[::-1, ::-1, :]: strides (-100, -10, 1), offset 9 * 100 + 9 * 10 = 990. The
   * first two axes merge (-100 == -10 * 10): (100, 10) works with strides (-10, 1); (10, 100)
   * and (1000,) do not. */
  jg_layout t = mk(3, SH(10, 10, 10), NULL, 2);
  jg_layout ts =
      sliced(&t, 3, (jg_slice[]){JG_SLICE(NONE, NONE, -1), JG_SLICE(NONE, NONE, -1), JG_SLICE_ALL});
  expect_layout(&ts, 3, SH(10, 10, 10), ST(-100, -10, 1), 990, 2);
  r = reshaped(&ts, 2, SH(100, 10));
  expect_layout(&r, 2, SH(100, 10), ST(-10, 1), 990, 2);
  expect_reshape_err(&ts, 2, SH(10, 100), JG_ESHAPE, -1, "incompatible");
  expect_reshape_err(&ts, 1, SH(1000), JG_ESHAPE, -1, "incompatible");
  /* NumPy drops extent-1 axes first: (3, 1, 4) strides (4, 1, 1) -> (12,) works here (cuda.core
   * alone would refuse), and -> (3, 4) works without that retry. */
  jg_layout w = mk(3, SH(3, 1, 4), ST(4, 1, 1), 4);
  r = reshaped(&w, 1, SH(12));
  expect_layout(&r, 1, SH(12), ST(1), 0, 4);
  r = reshaped(&w, 2, SH(3, 4));
  expect_layout(&r, 2, SH(3, 4), ST(4, 1), 0, 4);
  /* (4, 6)[:, ::2]: (4, 3) strides (6, 2) -> (2, 2, 3) strides (12, 6, 2); and -> (12,) with
   * stride 2, since 6 == 2 * 3 (every even offset). (4, 6)[:, ::4] is (4, 2) with strides
   * (6, 4): -> (2, 2, 2) strides (12, 6, 4) works, -> (8,) does not (6 != 4 * 2). */
  jg_layout h = mk(2, SH(4, 6), NULL, 4);
  jg_layout hs = sliced(&h, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(NONE, NONE, 2)});
  r = reshaped(&hs, 3, SH(2, 2, 3));
  expect_layout(&r, 3, SH(2, 2, 3), ST(12, 6, 2), 0, 4);
  r = reshaped(&hs, 1, SH(12));
  expect_layout(&r, 1, SH(12), ST(2), 0, 4);
  jg_layout h4 = sliced(&h, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(NONE, NONE, 4)});
  expect_layout(&h4, 2, SH(4, 2), ST(6, 4), 0, 4);
  r = reshaped(&h4, 3, SH(2, 2, 2));
  expect_layout(&r, 3, SH(2, 2, 2), ST(12, 6, 4), 0, 4);
  expect_reshape_err(&h4, 1, SH(8), JG_ESHAPE, -1, "incompatible");
  /* The slice offset is kept: (3, 4)[1:] has offset 4. */
  jg_layout m = mk(2, SH(3, 4), NULL, 4);
  jg_layout m1 = sliced(&m, 1, (jg_slice[]){JG_SLICE(1, NONE, NONE)});
  r = reshaped(&m1, 1, SH(8));
  expect_layout(&r, 1, SH(8), ST(1), 4, 4);
  /* Errors on the new shape. */
  expect_reshape_err(&a, 2, SH(-1, -1), JG_EINVAL, 1, "at most one -1");
  expect_reshape_err(&a, 2, SH(-2, -6), JG_EINVAL, 0, "non-negative");
  expect_reshape_err(&a, 1, SH(5), JG_ESHAPE, -1, "must be equal");
  expect_reshape_err(&a, 2, SH(5, -1), JG_ESHAPE, -1, "divisible");
  expect_reshape_err(&a, 2, SH(INT64_C(1) << 32, INT64_C(1) << 32), JG_EOVERFLOW, -1, NULL);
  expect_reshape_err(&a, 3, SH(INT64_C(1) << 32, INT64_C(1) << 32, -1), JG_EOVERFLOW, -1, NULL);
  expect_reshape_err(&a, 1, NULL, JG_EINVAL, -1, "NULL");
  expect_reshape_err(&a, -1, SH(12), JG_EINVAL, -1, "ndim");
  expect_reshape_err(NULL, 1, SH(12), JG_EINVAL, -1, "NULL");
  jg_error err;
  expect_err(jg_layout_reshape(NULL, &a, 1, SH(12), &err), &err, JG_EINVAL, -1, "NULL");
  /* A stride an extent-1 axis would get can overflow: (2,) stride 2^62 to (1, 2) would put
   * 2 * 2^62 on the new leading axis (documented JG_EOVERFLOW); (2, 1) is fine. */
  jg_layout s62 = mk(1, SH(2), ST(INT64_C(1) << 62), 1);
  expect_reshape_err(&s62, 2, SH(1, 2), JG_EOVERFLOW, -1, "overflows");
  r = reshaped(&s62, 2, SH(2, 1));
  expect_layout(&r, 2, SH(2, 1), ST(INT64_C(1) << 62, INT64_C(1) << 62), 0, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Permute, flatten, squeeze, unsqueeze, broadcast                                             */
/* ------------------------------------------------------------------------------------------ */

static void test_permute(void **state) {
  (void)state;
  jg_layout l = mk(3, SH(2, 3, 4), NULL, 4);
  jg_layout out;
  JGT_OK(jg_layout_permute(&out, &l, AX(2, 0, 1), &jgt_err_));
  expect_layout(&out, 3, SH(4, 2, 3), ST(1, 12, 4), 0, 4);
  jg_layout neg;
  JGT_OK(jg_layout_permute(&neg, &l, AX(-1, -3, 1), &jgt_err_));
  assert_true(jg_layout_equal(&out, &neg));
  /* Transpose of the reversed (5,)[::-1] keeps the slice offset. */
  jg_layout v = mk(2, SH(5, 2), NULL, 4);
  jg_layout rv = sliced(&v, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -1)});
  JGT_OK(jg_layout_permute(&out, &rv, AX(1, 0), &jgt_err_));
  expect_layout(&out, 2, SH(2, 5), ST(1, -2), 8, 4);
  /* 0-d: axes may be NULL. */
  jg_layout z = mk(0, NULL, NULL, 4);
  JGT_OK(jg_layout_permute(&out, &z, NULL, &jgt_err_));
  expect_layout(&out, 0, NULL, NULL, 0, 4);
  /* Errors. */
  jg_error err;
  jg_layout o = sentinel();
  expect_err(jg_layout_permute(&o, &l, AX(0, 0, 1), &err), &err, JG_EINVAL, 1, "multiple");
  expect_err(jg_layout_permute(&o, &l, AX(0, 1, -3), &err), &err, JG_EINVAL, 2, "multiple");
  expect_err(jg_layout_permute(&o, &l, AX(3, 0, 1), &err), &err, JG_EINVAL, 0, "out of range");
  expect_err(jg_layout_permute(&o, &l, AX(0, -4, 1), &err), &err, JG_EINVAL, 1, "out of range");
  expect_err(jg_layout_permute(&o, &l, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_permute(&o, NULL, AX(0), &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_permute(NULL, &l, AX(0, 1, 2), &err), &err, JG_EINVAL, -1, "NULL");
  expect_untouched(&o);
}

static void test_flatten(void **state) {
  (void)state;
  jg_layout out;
  /* (5, 1, 2, 4, 3) C strides (24, 24, 12, 3, 1); [..., ::-2] picks indices 2, 0 of the last
   * axis: extent 2, stride -2, slice offset 2. */
  jg_layout base = mk(5, SH(5, 1, 2, 4, 3), NULL, 4);
  jg_layout s = sliced(&base, 5,
                       (jg_slice[]){JG_SLICE_ALL, JG_SLICE_ALL, JG_SLICE_ALL, JG_SLICE_ALL,
                                    JG_SLICE(NONE, NONE, -2)});
  expect_layout(&s, 5, SH(5, 1, 2, 4, 2), ST(24, 24, 12, 3, -2), 2, 4);
  /* Bits 1..3 merge (24 == 24 * 1, 24 == 12 * 2, 12 == 3 * 4); bit 4 not (3 != -2 * 2). */
  assert_int_equal(jg_layout_flatten_mask(&s), 0xE);
  JGT_OK(jg_layout_flatten(&out, &s, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 2, SH(40, 2), ST(3, -2), 2, 4);
  JGT_OK(jg_layout_flatten(&out, &s, 0, 2, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 3, SH(10, 4, 2), ST(12, 3, -2), 2, 4);
  JGT_OK(jg_layout_flatten(&out, &s, -5, -3, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 3, SH(10, 4, 2), ST(12, 3, -2), 2, 4);
  /* Axes 1..3 only: axis 0 stays apart (cuda.core's range mask would merge it too). */
  JGT_OK(jg_layout_flatten(&out, &s, 1, 3, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 3, SH(5, 8, 2), ST(24, 3, -2), 2, 4);
  /* One axis: nothing merges. */
  JGT_OK(jg_layout_flatten(&out, &s, 2, 2, UINT64_MAX, &jgt_err_));
  assert_true(jg_layout_equal(&out, &s));
  /* A mask: only bit 2 (axis 2 into axis 1). */
  JGT_OK(jg_layout_flatten(&out, &s, 0, -1, 0x4, &jgt_err_));
  expect_layout(&out, 4, SH(5, 2, 4, 2), ST(24, 12, 3, -2), 2, 4);
  JGT_OK(jg_layout_flatten(&out, &s, 0, -1, 0, &jgt_err_));
  assert_true(jg_layout_equal(&out, &s));
  /* 0-d flattens to (1,), strides (1,); the slice offset stays. Its mask is 0. */
  jg_layout z = mk(0, NULL, NULL, 4);
  jg_layout zi = mk(1, SH(3), NULL, 4);
  zi = sliced(&zi, 1, (jg_slice[]){JG_INDEX(2)});
  expect_layout(&zi, 0, NULL, NULL, 2, 4);
  JGT_OK(jg_layout_flatten(&out, &z, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 1, SH(1), ST(1), 0, 4);
  JGT_OK(jg_layout_flatten(&out, &zi, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 1, SH(1), ST(1), 2, 4);
  assert_int_equal(jg_layout_flatten_mask(&z), 0);
  /* cuda.core's flattened() docstring: (3, 2) strides (2, 1) -> (6,), (1,); strides (1, 3) stay. */
  jg_layout a = mk(2, SH(3, 2), ST(2, 1), 1);
  JGT_OK(jg_layout_flatten(&out, &a, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 1, SH(6), ST(1), 0, 1);
  jg_layout b = mk(2, SH(3, 2), ST(1, 3), 1);
  JGT_OK(jg_layout_flatten(&out, &b, 0, -1, UINT64_MAX, &jgt_err_));
  assert_true(jg_layout_equal(&out, &b));
  /* Two layouts flattened with ANDed masks agree (cuda.core's docstring): dense (4, 5, 3) and
   * (4, 5, 3) with strides (1, 12, 4); masks 0b110 and 0b100. */
  jg_layout l1 = mk(3, SH(4, 5, 3), NULL, 4);
  jg_layout l2 = mk(3, SH(4, 5, 3), ST(1, 12, 4), 4);
  JGT_OK(jg_layout_flatten(&out, &l1, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 1, SH(60), ST(1), 0, 4);
  JGT_OK(jg_layout_flatten(&out, &l2, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 2, SH(4, 15), ST(1, 4), 0, 4);
  uint64_t m1 = jg_layout_flatten_mask(&l1), m2 = jg_layout_flatten_mask(&l2);
  assert_int_equal(m1, 0x6);
  assert_int_equal(m2, 0x4);
  JGT_OK(jg_layout_flatten(&out, &l1, 0, -1, m1 & m2, &jgt_err_));
  expect_layout(&out, 2, SH(4, 15), ST(15, 1), 0, 4);
  JGT_OK(jg_layout_flatten(&out, &l2, 0, -1, m1 & m2, &jgt_err_));
  expect_layout(&out, 2, SH(4, 15), ST(1, 4), 0, 4);
  /* Zero volume: every axis merges (all strides 0). */
  jg_layout e3 = mk(3, SH(3, 0, 3), NULL, 4);
  assert_int_equal(jg_layout_flatten_mask(&e3), 0x6);
  JGT_OK(jg_layout_flatten(&out, &e3, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 1, SH(0), ST(0), 0, 4);
  /* Zero volume with huge extents: merging (2^40, 2^40) apart from the 0 would overflow. */
  const jg_len t40 = INT64_C(1) << 40;
  jg_layout hz = mk(3, SH(t40, t40, 0), NULL, 4);
  JGT_OK(jg_layout_flatten(&out, &hz, 0, -1, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 1, SH(0), ST(0), 0, 4);
  JGT_OK(jg_layout_flatten(&out, &hz, 1, 2, UINT64_MAX, &jgt_err_));
  expect_layout(&out, 2, SH(t40, 0), ST(0, 0), 0, 4);
  jg_error err;
  jg_layout o = sentinel();
  expect_err(jg_layout_flatten(&o, &hz, 0, -1, 0x2, &err), &err, JG_EOVERFLOW, -1, "overflows");
  expect_err(jg_layout_flatten(&o, &hz, 0, 1, UINT64_MAX, &err), &err, JG_EOVERFLOW, -1, NULL);
  /* Errors. */
  expect_err(jg_layout_flatten(&o, &s, 5, -1, UINT64_MAX, &err), &err, JG_EINVAL, 5, "start axis");
  expect_err(jg_layout_flatten(&o, &s, -6, -1, UINT64_MAX, &err), &err, JG_EINVAL, -6,
             "start axis");
  expect_err(jg_layout_flatten(&o, &s, 0, 5, UINT64_MAX, &err), &err, JG_EINVAL, 5, "end axis");
  expect_err(jg_layout_flatten(&o, &s, 3, 1, UINT64_MAX, &err), &err, JG_EINVAL, 3, "after");
  expect_err(jg_layout_flatten(&o, &s, -1, 0, UINT64_MAX, &err), &err, JG_EINVAL, -1, "after");
  expect_err(jg_layout_flatten(&o, &z, 0, 0, UINT64_MAX, &err), &err, JG_EINVAL, 0, "start");
  expect_err(jg_layout_flatten(&o, NULL, 0, -1, UINT64_MAX, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_flatten(NULL, &s, 0, -1, UINT64_MAX, &err), &err, JG_EINVAL, -1, "NULL");
  expect_untouched(&o);
  assert_int_equal(jg_layout_flatten_mask(NULL), 0);
}

static void test_squeeze(void **state) {
  (void)state;
  jg_layout out;
  jg_layout l = mk(4, SH(1, 3, 1, 4), ST(99, 4, 7, 1), 4);
  JGT_OK(jg_layout_squeeze(&out, &l, &jgt_err_));
  expect_layout(&out, 2, SH(3, 4), ST(4, 1), 0, 4);
  /* (3, 4)[1:2] is (1, 4) with offset 4; squeezed (4,), offset kept. */
  jg_layout m = mk(2, SH(3, 4), NULL, 4);
  jg_layout ms = sliced(&m, 1, (jg_slice[]){JG_SLICE(1, 2, NONE)});
  expect_layout(&ms, 2, SH(1, 4), ST(4, 1), 4, 4);
  JGT_OK(jg_layout_squeeze(&out, &ms, &jgt_err_));
  expect_layout(&out, 1, SH(4), ST(1), 4, 4);
  /* All ones: 0-d. */
  jg_layout ones = mk(2, SH(1, 1), ST(3, 8), 4);
  JGT_OK(jg_layout_squeeze(&out, &ones, &jgt_err_));
  expect_layout(&out, 0, NULL, NULL, 0, 4);
  /* Zero volume: (0,), strides (0,). */
  jg_layout e = mk(3, SH(3, 0, 1), NULL, 4);
  JGT_OK(jg_layout_squeeze(&out, &e, &jgt_err_));
  expect_layout(&out, 1, SH(0), ST(0), 0, 4);
  jg_layout e5 = mk(5, SH(1, 2, 3, 0, 5), NULL, 4);
  JGT_OK(jg_layout_squeeze(&out, &e5, &jgt_err_));
  expect_layout(&out, 1, SH(0), ST(0), 0, 4);
  jg_layout z = mk(0, NULL, NULL, 4);
  JGT_OK(jg_layout_squeeze(&out, &z, &jgt_err_));
  expect_layout(&out, 0, NULL, NULL, 0, 4);
  jg_error err;
  jg_layout o = sentinel();
  expect_err(jg_layout_squeeze(&o, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_squeeze(NULL, &l, &err), &err, JG_EINVAL, -1, "NULL");
  expect_untouched(&o);
}

static void test_unsqueeze(void **state) {
  (void)state;
  jg_layout out;
  /* np.expand_dims on a C-contiguous (3, 4): the inserted stride is the next axis's stride
   * times its extent (leading/middle), or the last stride (trailing), as NumPy's reshape gives:
   * expand_dims(a, 0).strides == (96, 32, 8) for float64, i.e. (12, 4, 1). */
  jg_layout l = mk(2, SH(3, 4), NULL, 8);
  JGT_OK(jg_layout_unsqueeze(&out, &l, 1, AX(0), &jgt_err_));
  expect_layout(&out, 3, SH(1, 3, 4), ST(12, 4, 1), 0, 8);
  JGT_OK(jg_layout_unsqueeze(&out, &l, 1, AX(1), &jgt_err_));
  expect_layout(&out, 3, SH(3, 1, 4), ST(4, 4, 1), 0, 8);
  JGT_OK(jg_layout_unsqueeze(&out, &l, 1, AX(2), &jgt_err_));
  expect_layout(&out, 3, SH(3, 4, 1), ST(4, 1, 1), 0, 8);
  JGT_OK(jg_layout_unsqueeze(&out, &l, 1, AX(-1), &jgt_err_));
  expect_layout(&out, 3, SH(3, 4, 1), ST(4, 1, 1), 0, 8);
  JGT_OK(jg_layout_unsqueeze(&out, &l, 1, AX(-3), &jgt_err_));
  expect_layout(&out, 3, SH(1, 3, 4), ST(12, 4, 1), 0, 8);
  /* Several axes, in the output rank (4): (0, -1) -> (1, 3, 4, 1); (0, 1) -> (1, 1, 3, 4);
   * (3, 1) -> (3, 1, 4, 1). */
  JGT_OK(jg_layout_unsqueeze(&out, &l, 2, AX(0, -1), &jgt_err_));
  expect_layout(&out, 4, SH(1, 3, 4, 1), ST(12, 4, 1, 1), 0, 8);
  JGT_OK(jg_layout_unsqueeze(&out, &l, 2, AX(0, 1), &jgt_err_));
  expect_layout(&out, 4, SH(1, 1, 3, 4), ST(12, 12, 4, 1), 0, 8);
  JGT_OK(jg_layout_unsqueeze(&out, &l, 2, AX(3, 1), &jgt_err_));
  expect_layout(&out, 4, SH(3, 1, 4, 1), ST(4, 4, 1, 1), 0, 8);
  /* naxes 0 copies. */
  JGT_OK(jg_layout_unsqueeze(&out, &l, 0, NULL, &jgt_err_));
  assert_true(jg_layout_equal(&out, &l));
  /* 0-d: stride 1. */
  jg_layout z = mk(0, NULL, NULL, 4);
  JGT_OK(jg_layout_unsqueeze(&out, &z, 1, AX(0), &jgt_err_));
  expect_layout(&out, 1, SH(1), ST(1), 0, 4);
  JGT_OK(jg_layout_unsqueeze(&out, &z, 2, AX(-1, 0), &jgt_err_));
  expect_layout(&out, 2, SH(1, 1), ST(1, 1), 0, 4);
  /* Reversed (5,)[::-1] (stride -1, offset 4): the new leading axis gets 5 * -1. */
  jg_layout v = mk(1, SH(5), NULL, 4);
  jg_layout rv = sliced(&v, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -1)});
  JGT_OK(jg_layout_unsqueeze(&out, &rv, 1, AX(0), &jgt_err_));
  expect_layout(&out, 2, SH(1, 5), ST(-5, -1), 4, 4);
  /* Zero volume stays all-zero. */
  jg_layout e = mk(2, SH(3, 0), NULL, 4);
  JGT_OK(jg_layout_unsqueeze(&out, &e, 1, AX(1), &jgt_err_));
  expect_layout(&out, 3, SH(3, 1, 0), ST(0, 0, 0), 0, 4);
  /* Errors: repeated axis (0 and -3 are both 0 in rank 3), out of range, NULL, rank > 64,
   * overflow of the inserted stride (2 * 2^62). */
  jg_error err;
  jg_layout o = sentinel();
  expect_err(jg_layout_unsqueeze(&o, &l, 2, AX(0, -4), &err), &err, JG_EINVAL, 1, "multiple");
  expect_err(jg_layout_unsqueeze(&o, &l, 1, AX(3), &err), &err, JG_EINVAL, 0, "out of range");
  expect_err(jg_layout_unsqueeze(&o, &l, 1, AX(-4), &err), &err, JG_EINVAL, 0, "out of range");
  expect_err(jg_layout_unsqueeze(&o, &l, 2, AX(1, 4), &err), &err, JG_EINVAL, 1, "out of range");
  expect_err(jg_layout_unsqueeze(&o, &l, -1, AX(0), &err), &err, JG_EINVAL, -1, "naxes");
  expect_err(jg_layout_unsqueeze(&o, &l, 1, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_unsqueeze(&o, NULL, 1, AX(0), &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_unsqueeze(NULL, &l, 1, AX(0), &err), &err, JG_EINVAL, -1, "NULL");
  int many[JG_MAX_NDIM];
  for (int i = 0; i < JG_MAX_NDIM; ++i) many[i] = i;
  expect_err(jg_layout_unsqueeze(&o, &l, JG_MAX_NDIM - 1, many, &err), &err, JG_EINVAL, -1,
             "more than");
  /* naxes near INT_MAX: the rank n + naxes would overflow int; reported without forming it. */
  expect_err(jg_layout_unsqueeze(&o, &l, INT_MAX, many, &err), &err, JG_EINVAL, -1,
             "2 + 2147483647 = 2147483649 axes, more than 64");
  expect_err(jg_layout_unsqueeze(&o, &l, INT_MIN, many, &err), &err, JG_EINVAL, -1, "naxes");
  jg_layout s62 = mk(1, SH(2), ST(INT64_C(1) << 62), 1);
  expect_err(jg_layout_unsqueeze(&o, &s62, 1, AX(0), &err), &err, JG_EOVERFLOW, 0, "overflows");
  expect_untouched(&o);
  /* Appending after the last axis copies its stride: no overflow there. */
  JGT_OK(jg_layout_unsqueeze(&out, &s62, 1, AX(1), &jgt_err_));
  expect_layout(&out, 2, SH(2, 1), ST(INT64_C(1) << 62, INT64_C(1) << 62), 0, 1);
  /* 62 axes added to a 2-d layout make 64: allowed. */
  JGT_OK(jg_layout_unsqueeze(&out, &l, JG_MAX_NDIM - 2, many, &jgt_err_));
  assert_int_equal(out.ndim, JG_MAX_NDIM);
  assert_int_equal(out.shape[62], 3);
  assert_int_equal(out.strides[62], 4);
  assert_int_equal(out.shape[63], 4);
  assert_int_equal(out.strides[0], 12);
}

static void test_broadcast(void **state) {
  (void)state;
  jg_layout out;
  /* np.broadcast_to(np.zeros((3, 1)), (2, 3, 4)).strides == (0, 8, 0) -> (0, 1, 0). */
  jg_layout l = mk(2, SH(3, 1), NULL, 8);
  JGT_OK(jg_layout_broadcast_to(&out, &l, 3, SH(2, 3, 4), &jgt_err_));
  expect_layout(&out, 3, SH(2, 3, 4), ST(0, 1, 0), 0, 8);
  assert_false(jg_layout_is_unique(&out));
  /* Nothing stretched: unique; the same shape gives the same layout. */
  JGT_OK(jg_layout_broadcast_to(&out, &l, 2, SH(3, 1), &jgt_err_));
  assert_true(jg_layout_equal(&out, &l));
  jg_layout r = mk(1, SH(3), NULL, 8);
  JGT_OK(jg_layout_broadcast_to(&out, &r, 2, SH(1, 3), &jgt_err_));
  expect_layout(&out, 2, SH(1, 3), ST(0, 1), 0, 8);
  assert_true(jg_layout_is_unique(&out));
  /* 0-d to anything; 0-d to (). */
  jg_layout z = mk(0, NULL, NULL, 4);
  JGT_OK(jg_layout_broadcast_to(&out, &z, 2, SH(2, 2), &jgt_err_));
  expect_layout(&out, 2, SH(2, 2), ST(0, 0), 0, 4);
  JGT_OK(jg_layout_broadcast_to(&out, &z, 0, NULL, &jgt_err_));
  expect_layout(&out, 0, NULL, NULL, 0, 4);
  /* Zero-volume results: all strides 0, unique. (1,) -> (5, 0); (0,) -> (2, 0). */
  jg_layout one = mk(1, SH(1), ST(7), 4);
  JGT_OK(jg_layout_broadcast_to(&out, &one, 2, SH(5, 0), &jgt_err_));
  expect_layout(&out, 2, SH(5, 0), ST(0, 0), 0, 4);
  assert_true(jg_layout_is_unique(&out));
  jg_layout e = mk(1, SH(0), NULL, 4);
  JGT_OK(jg_layout_broadcast_to(&out, &e, 2, SH(2, 0), &jgt_err_));
  expect_layout(&out, 2, SH(2, 0), ST(0, 0), 0, 4);
  /* The slice offset is kept: (4,)[1:2] has offset 1. */
  jg_layout v = mk(1, SH(4), NULL, 4);
  jg_layout vs = sliced(&v, 1, (jg_slice[]){JG_SLICE(1, 2, NONE)});
  JGT_OK(jg_layout_broadcast_to(&out, &vs, 1, SH(3), &jgt_err_));
  expect_layout(&out, 1, SH(3), ST(0), 1, 4);
  expect_bounds(&out, 1, 1);
  /* Errors. */
  jg_error err;
  jg_layout o = sentinel();
  expect_err(jg_layout_broadcast_to(&o, &l, 1, SH(3), &err), &err, JG_EINVAL, -1, "at least");
  expect_err(jg_layout_broadcast_to(&o, &r, 1, SH(4), &err), &err, JG_ESHAPE, 0,
             "cannot be broadcast");
  expect_err(jg_layout_broadcast_to(&o, &l, 3, SH(2, 4, 1), &err), &err, JG_ESHAPE, 1,
             "cannot be broadcast");
  expect_err(jg_layout_broadcast_to(&o, &e, 2, SH(2, 5), &err), &err, JG_ESHAPE, 1, NULL);
  expect_err(jg_layout_broadcast_to(&o, &r, 2, SH(-1, 3), &err), &err, JG_EINVAL, 0,
             "non-negative");
  jg_layout ones = mk(2, SH(1, 1), NULL, 4);
  expect_err(jg_layout_broadcast_to(&o, &ones, 2, SH(INT64_C(1) << 32, INT64_C(1) << 32), &err),
             &err, JG_EOVERFLOW, -1, NULL);
  expect_err(jg_layout_broadcast_to(&o, &r, 1, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_broadcast_to(&o, NULL, 1, SH(3), &err), &err, JG_EINVAL, -1, "NULL");
  expect_err(jg_layout_broadcast_to(NULL, &r, 1, SH(3), &err), &err, JG_EINVAL, -1, "NULL");
  expect_untouched(&o);
}

/* ------------------------------------------------------------------------------------------ */
/* Repack                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static jg_layout repacked(const jg_layout *in, int64_t itemsize, uintptr_t ptr, int axis,
                          bool keep_dim) {
  jg_layout out;
  JGT_OK(jg_layout_repack(&out, in, itemsize, ptr, axis, keep_dim, &jgt_err_));
  return out;
}

static void expect_repack_err(const jg_layout *in, int64_t itemsize, uintptr_t ptr, int axis,
                              jg_status st, int64_t index, const char *needle) {
  jg_error err;
  jg_layout out = sentinel();
  expect_err(jg_layout_repack(&out, in, itemsize, ptr, axis, true, &err), &err, st, index, needle);
  expect_untouched(&out);
}

static void test_repack(void **state) {
  (void)state;
  jg_layout r;
  /* float32 (5, 6) viewed as complex64 (8 bytes) is (5, 3); as float16 (2 bytes) (5, 12). */
  jg_layout f = mk(2, SH(5, 6), NULL, 4);
  r = repacked(&f, 8, 0, -1, true);
  expect_layout(&r, 2, SH(5, 3), ST(3, 1), 0, 8);
  r = repacked(&f, 2, 0, -1, true);
  expect_layout(&r, 2, SH(5, 12), ST(12, 1), 0, 2);
  expect_repack_err(&f, 16, 0, -1, JG_EINVAL, 1, "divisible by 4");
  /* cuda.core's repacked() docstring: dense (5, 4) itemsize 4 to 2, 8, 16, and 16 without the
   * packed axis. */
  jg_layout d = mk(2, SH(5, 4), NULL, 4);
  r = repacked(&d, 2, 0, -1, true);
  expect_layout(&r, 2, SH(5, 8), ST(8, 1), 0, 2);
  r = repacked(&d, 8, 0, -1, true);
  expect_layout(&r, 2, SH(5, 2), ST(2, 1), 0, 8);
  r = repacked(&d, 16, 0, -1, true);
  expect_layout(&r, 2, SH(5, 1), ST(1, 1), 0, 16);
  r = repacked(&d, 16, 0, -1, false);
  expect_layout(&r, 1, SH(5), ST(1), 0, 16);
  r = repacked(&d, 8, 0, -1, false); /* extent 2 is kept */
  expect_layout(&r, 2, SH(5, 2), ST(2, 1), 0, 8);
  /* Transposed (a.T of float32 (5, 6)): shape (6, 5), strides (1, 6); pack along axis 0. */
  jg_layout t;
  JGT_OK(jg_layout_permute(&t, &f, AX(1, 0), &jgt_err_));
  r = repacked(&t, 8, 0, 0, true);
  expect_layout(&r, 2, SH(3, 5), ST(1, 3), 0, 8);
  r = repacked(&t, 8, 0, -2, false);
  expect_layout(&r, 2, SH(3, 5), ST(1, 3), 0, 8);
  expect_repack_err(&t, 8, 0, -1, JG_EINVAL, 1, "stride must be 1");
  /* Reversed rows (5, 6)[::-1]: strides (-6, 1), offset 24 -> (-3, 1), offset 12. */
  jg_layout rr = sliced(&f, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -1)});
  r = repacked(&rr, 8, 0, -1, true);
  expect_layout(&r, 2, SH(5, 3), ST(-3, 1), 12, 8);
  /* A broadcast axis (stride 0) is divisible by anything. */
  jg_layout b = mk(2, SH(3, 4), ST(0, 1), 4);
  r = repacked(&b, 8, 0, -1, true);
  expect_layout(&r, 2, SH(3, 2), ST(0, 1), 0, 8);
  /* The data pointer must be aligned to the new itemsize when packing. */
  expect_repack_err(&f, 8, 4, -1, JG_EINVAL, -1, "aligned");
  r = repacked(&f, 8, 0x1008, -1, true);
  expect_layout(&r, 2, SH(5, 3), ST(3, 1), 0, 8);
  /* Stride on the axis != 1: (5, 6)[:, ::2]. */
  jg_layout s2 = sliced(&f, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(NONE, NONE, 2)});
  expect_repack_err(&s2, 8, 0, -1, JG_EINVAL, 1, "stride must be 1");
  expect_repack_err(&s2, 2, 0, -1, JG_EINVAL, 1, "stride must be 1");
  /* Extent not divisible: (5, 3) float32 to 8 bytes. */
  jg_layout f3 = mk(2, SH(5, 3), NULL, 4);
  expect_repack_err(&f3, 8, 0, -1, JG_EINVAL, 1, "extent (3) must be divisible by 2");
  /* Slice offset: (5, 6)[:, 1:5] has offset 1 (no); [:, 2:6] has offset 2 (yes -> 1). */
  jg_layout o1 = sliced(&f, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(1, 5, NONE)});
  expect_repack_err(&o1, 8, 0, -1, JG_EINVAL, -1, "slice offset (1)");
  jg_layout o2 = sliced(&f, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(2, 6, NONE)});
  r = repacked(&o2, 8, 0, -1, true);
  expect_layout(&r, 2, SH(5, 2), ST(3, 1), 1, 8);
  /* Another stride not divisible: (5, 7)[:, :6] has strides (7, 1). */
  jg_layout f7 = mk(2, SH(5, 7), NULL, 4);
  jg_layout f76 = sliced(&f7, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(NONE, 6, NONE)});
  expect_repack_err(&f76, 8, 0, -1, JG_EINVAL, 0, "stride (7) must be divisible by 2");
  /* Zero extent on the axis. */
  jg_layout z = mk(2, SH(5, 0), NULL, 4);
  expect_repack_err(&z, 8, 0, -1, JG_EINVAL, 1, "must be non-zero");
  expect_repack_err(&z, 2, 0, -1, JG_EINVAL, 1, "must be non-zero");
  /* Itemsizes. */
  expect_repack_err(&f, 0, 0, -1, JG_EINVAL, -1, "greater than zero");
  expect_repack_err(&f, -8, 0, -1, JG_EINVAL, -1, "greater than zero");
  expect_repack_err(&f, 6, 0, -1, JG_EINVAL, -1, "multiples");
  expect_repack_err(&f, 3, 0, -1, JG_EINVAL, -1, "multiples");
  /* Axis. */
  expect_repack_err(&f, 8, 0, 2, JG_EINVAL, 2, "axis");
  expect_repack_err(&f, 8, 0, -3, JG_EINVAL, -3, "axis");
  jg_layout z0 = mk(0, NULL, NULL, 4);
  expect_repack_err(&z0, 8, 0, 0, JG_EINVAL, 0, "axis");
  /* cupy issue #5427: a[1:0:-1] of a 2-element uint16 array has extent 1 and stride
   * -1; it cannot be re-viewed as bytes (stride 1 is required, even on an extent-1 axis). */
  jg_layout u = mk(1, SH(2), NULL, 2);
  jg_layout u1 = sliced(&u, 1, (jg_slice[]){JG_SLICE(1, 0, -1)});
  expect_layout(&u1, 1, SH(1), ST(-1), 1, 2);
  expect_repack_err(&u1, 1, 0, -1, JG_EINVAL, 0, "stride must be 1");
  expect_repack_err(&u1, 4, 0, -1, JG_EINVAL, 0, "stride must be 1");
  /* Same itemsize: a copy, with no check at all. */
  r = repacked(&s2, 4, 3, 99, false);
  assert_true(jg_layout_equal(&r, &s2));
  /* Unpacking 8 -> 4 multiplies the other strides and the slice offset; data_ptr is unused. */
  jg_layout c = mk(2, SH(5, 3), NULL, 8);
  r = repacked(&c, 4, 3, -1, true);
  expect_layout(&r, 2, SH(5, 6), ST(6, 1), 0, 4);
  jg_layout c1 = sliced(&c, 1, (jg_slice[]){JG_SLICE(1, NONE, NONE)});
  expect_layout(&c1, 2, SH(4, 3), ST(3, 1), 3, 8);
  r = repacked(&c1, 4, 0, -1, true);
  expect_layout(&r, 2, SH(4, 6), ST(6, 1), 6, 4);
  r = repacked(&c, 1, 0, 1, true);
  expect_layout(&r, 2, SH(5, 24), ST(24, 1), 0, 1);
  /* Unpacking overflows: a stride (2^61 * 8), the extent (2^61 * 8), the offset (2^61 * 8). */
  const jg_stride s61 = INT64_C(1) << 61;
  jg_layout big = mk(2, SH(2, 1), ST(s61, 1), 8);
  expect_repack_err(&big, 1, 0, -1, JG_EOVERFLOW, 0, "overflows");
  jg_layout bigx = mk(1, SH(s61), NULL, 8);
  expect_repack_err(&bigx, 1, 0, -1, JG_EOVERFLOW, 0, "overflows");
  jg_layout bigo = sliced(&big, 1, (jg_slice[]){JG_SLICE(1, NONE, NONE)});
  expect_layout(&bigo, 2, SH(1, 1), ST(s61, 1), s61, 8);
  expect_repack_err(&bigo, 1, 0, -1, JG_EOVERFLOW, -1, "slice offset");
  /* NULL arguments. */
  expect_repack_err(NULL, 8, 0, -1, JG_EINVAL, -1, "NULL");
  jg_error err;
  expect_err(jg_layout_repack(NULL, &f, 8, 0, -1, true, &err), &err, JG_EINVAL, -1, "NULL");
}

static int64_t max_itemsize(const jg_layout *l, int64_t max, uintptr_t ptr, int axis) {
  int64_t out = -1;
  JGT_OK(jg_layout_max_compatible_itemsize(l, max, ptr, axis, &out, &jgt_err_));
  return out;
}

static void test_max_compatible_itemsize(void **state) {
  (void)state;
  /* float32 (12,): gcd(16, 12 * 4) = 16. */
  jg_layout a = mk(1, SH(12), NULL, 4);
  assert_int_equal(max_itemsize(&a, 16, 0, -1), 16);
  assert_int_equal(max_itemsize(&a, 8, 0, -1), 8);
  assert_int_equal(max_itemsize(&a, 4, 0, 0), 4);
  assert_int_equal(max_itemsize(&a, 12, 0, 0), 12); /* gcd(12, 48); repack to 12 works */
  jg_layout r = repacked(&a, 12, 0, 0, true);
  expect_layout(&r, 1, SH(4), ST(1), 0, 12);
  assert_int_equal(max_itemsize(&a, 6, 0, 0), 4); /* gcd 6 is not a multiple of 4 */
  /* The data pointer: 8-aligned gives 8; 2 gives gcd 2 (not a multiple of 4): the itemsize. */
  assert_int_equal(max_itemsize(&a, 16, 0x1008, -1), 8);
  assert_int_equal(max_itemsize(&a, 16, 0x1004, -1), 4);
  assert_int_equal(max_itemsize(&a, 16, 2, -1), 4);
  /* int16 (16, 5, 4, 6) along the last axis: gcd(16, 12, 48, 240, 12... ) = 4. */
  jg_layout b = mk(4, SH(16, 5, 4, 6), NULL, 2);
  assert_int_equal(max_itemsize(&b, 16, 0, -1), 4);
  r = repacked(&b, 4, 0, -1, true);
  expect_layout(&r, 4, SH(16, 5, 4, 3), ST(60, 12, 3, 1), 0, 4);
  /* Along axis 0 the stride is 120: the itemsize. */
  assert_int_equal(max_itemsize(&b, 16, 0, 0), 2);
  /* Slice offsets: (12,)[1:] has offset 1 (4 bytes): 4; [2:] has 8 bytes: gcd(16, 8, 40) = 8. */
  jg_layout a1 = sliced(&a, 1, (jg_slice[]){JG_SLICE(1, NONE, NONE)});
  assert_int_equal(max_itemsize(&a1, 16, 0, -1), 4);
  jg_layout a2 = sliced(&a, 1, (jg_slice[]){JG_SLICE(2, NONE, NONE)});
  assert_int_equal(max_itemsize(&a2, 16, 0, -1), 8);
  /* Stride != 1 on the axis, or extent 0: the itemsize. */
  jg_layout a3 = sliced(&a, 1, (jg_slice[]){JG_SLICE(NONE, NONE, 2)});
  assert_int_equal(max_itemsize(&a3, 16, 0, -1), 4);
  jg_layout e = mk(2, SH(4, 0), NULL, 4);
  assert_int_equal(max_itemsize(&e, 16, 0, -1), 4);
  /* Negative other strides count by magnitude: (4, 8)[::-1] float32 -> strides (-8, 1),
   * offset 24 (96 bytes): gcd(16, 96, 32, 32) = 16. */
  jg_layout m = mk(2, SH(4, 8), NULL, 4);
  jg_layout mr = sliced(&m, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -1)});
  assert_int_equal(max_itemsize(&mr, 16, 0, -1), 16);
  r = repacked(&mr, 16, 0, -1, true);
  expect_layout(&r, 2, SH(4, 2), ST(-2, 1), 6, 16);
  /* Errors. */
  jg_error err;
  int64_t out = -5;
  expect_err(jg_layout_max_compatible_itemsize(&a, 0, 0, -1, &out, &err), &err, JG_EINVAL, -1,
             "greater than zero");
  expect_err(jg_layout_max_compatible_itemsize(&a, 2, 0, -1, &out, &err), &err, JG_EINVAL, -1,
             "cannot be less than itemsize");
  expect_err(jg_layout_max_compatible_itemsize(&a, 16, 0, 1, &out, &err), &err, JG_EINVAL, 1,
             "axis");
  jg_layout z0 = mk(0, NULL, NULL, 4);
  expect_err(jg_layout_max_compatible_itemsize(&z0, 16, 0, -1, &out, &err), &err, JG_EINVAL, -1,
             "axis");
  expect_err(jg_layout_max_compatible_itemsize(&a, 16, 0, -1, NULL, &err), &err, JG_EINVAL, -1,
             "NULL");
  expect_err(jg_layout_max_compatible_itemsize(NULL, 16, 0, -1, &out, &err), &err, JG_EINVAL, -1,
             "NULL");
  /* Overflows: the slice offset in bytes (2^61 * 8), another stride in bytes. */
  const jg_stride s61 = INT64_C(1) << 61;
  jg_layout big = mk(2, SH(2, 1), ST(s61, 1), 8);
  expect_err(jg_layout_max_compatible_itemsize(&big, 16, 0, -1, &out, &err), &err, JG_EOVERFLOW, 0,
             "overflows");
  jg_layout bigo = sliced(&big, 1, (jg_slice[]){JG_SLICE(1, NONE, NONE)});
  expect_err(jg_layout_max_compatible_itemsize(&bigo, 16, 0, -1, &out, &err), &err, JG_EOVERFLOW,
             -1, "overflows");
  assert_int_equal(out, -5);
}

/* ------------------------------------------------------------------------------------------ */
/* Slicing and equality                                                                        */
/* ------------------------------------------------------------------------------------------ */

static jg_layout slice1(const jg_layout *in, int64_t start, int64_t stop, int64_t step) {
  return sliced(in, 1, (jg_slice[]){JG_SLICE(start, stop, step)});
}

static void expect_slice_err(const jg_layout *in, int n, const jg_slice *s, jg_status st,
                             int64_t index, const char *needle) {
  jg_error err;
  jg_layout out = sentinel();
  expect_err(jg_layout_slice(&out, in, n, s, &err), &err, st, index, needle);
  expect_untouched(&out);
}

static void test_slice(void **state) {
  (void)state;
  jg_layout r;
  jg_layout a = mk(1, SH(5), NULL, 4);
  /* a[::-1]: strides (-1,), slice offset 4, min offset 0. */
  r = slice1(&a, NONE, NONE, -1);
  expect_layout(&r, 1, SH(5), ST(-1), 4, 4);
  expect_bounds(&r, 0, 4);
  /* a[::-1][::-1] == a. */
  jg_layout rr = slice1(&r, NONE, NONE, -1);
  assert_true(jg_layout_equal(&rr, &a));
  /* a[::-1][3:] picks original indices 1, 0: the offset moves backwards to 1. */
  jg_layout r3 = slice1(&r, 3, NONE, NONE);
  expect_layout(&r3, 1, SH(2), ST(-1), 1, 4);
  expect_bounds(&r3, 0, 1);
  /* list(range(10))[-3:2:-2] == [7, 5, 3]; list(range(5))[-3:2:-2] == []. */
  jg_layout t = mk(1, SH(10), NULL, 4);
  r = slice1(&t, -3, 2, -2);
  expect_layout(&r, 1, SH(3), ST(-2), 7, 4);
  expect_bounds(&r, 3, 7);
  r = slice1(&a, -3, 2, -2);
  expect_layout(&r, 1, SH(0), ST(0), 0, 4);
  /* [5:4] is empty; [1:4:2] is [1, 3]. */
  r = slice1(&t, 5, 4, NONE);
  expect_layout(&r, 1, SH(0), ST(0), 0, 4);
  r = slice1(&t, 1, 4, 2);
  expect_layout(&r, 1, SH(2), ST(2), 1, 4);
  /* Clipping: [-100:100] is everything; [100:] nothing; [100::-1] and [:-100:-1] are a[::-1];
   * [-100::-1] is empty. */
  r = slice1(&a, -100, 100, NONE);
  assert_true(jg_layout_equal(&r, &a));
  r = slice1(&a, 100, NONE, NONE);
  expect_layout(&r, 1, SH(0), ST(0), 0, 4);
  r = slice1(&a, 100, NONE, -1);
  expect_layout(&r, 1, SH(5), ST(-1), 4, 4);
  r = slice1(&a, NONE, -100, -1);
  expect_layout(&r, 1, SH(5), ST(-1), 4, 4);
  r = slice1(&a, -100, NONE, -1);
  expect_layout(&r, 1, SH(0), ST(0), 0, 4);
  /* Huge steps: one element. [::-INT64_MAX] starts at the last element. */
  r = slice1(&a, NONE, NONE, INT64_MAX);
  expect_layout(&r, 1, SH(1), ST(INT64_MAX), 0, 4);
  r = slice1(&a, NONE, NONE, -INT64_MAX);
  expect_layout(&r, 1, SH(1), ST(-INT64_MAX), 4, 4);
  /* Bounds at the int64 extremes behave as None would. */
  r = slice1(&a, INT64_MIN + 1, INT64_MAX, 1);
  assert_true(jg_layout_equal(&r, &a));
  /* 2-d: (4, 6) C strides (6, 1). */
  jg_layout m = mk(2, SH(4, 6), NULL, 4);
  r = sliced(&m, 2, (jg_slice[]){JG_INDEX(1), JG_SLICE(NONE, NONE, 2)});
  expect_layout(&r, 1, SH(3), ST(2), 6, 4);
  r = sliced(&m, 1, (jg_slice[]){JG_INDEX(-1)});
  expect_layout(&r, 1, SH(6), ST(1), 18, 4);
  r = sliced(&m, 2, (jg_slice[]){JG_SLICE(1, 3, NONE), JG_INDEX(-1)});
  expect_layout(&r, 1, SH(2), ST(6), 11, 4);
  r = sliced(&m, 2, (jg_slice[]){JG_INDEX(-4), JG_INDEX(-6)});
  expect_layout(&r, 0, NULL, NULL, 0, 4);
  r = sliced(&m, 2, (jg_slice[]){JG_INDEX(3), JG_INDEX(5)});
  expect_layout(&r, 0, NULL, NULL, 23, 4);
  /* An empty axis zeroes every stride; offsets of non-empty slices still count. */
  r = sliced(&m, 2, (jg_slice[]){JG_SLICE(1, 3, NONE), JG_SLICE(2, 2, NONE)});
  expect_layout(&r, 2, SH(2, 0), ST(0, 0), 6, 4);
  /* Slicing a zero-volume layout. */
  jg_layout e = mk(3, SH(3, 0, 3), NULL, 4);
  r = slice1(&e, 1, NONE, NONE);
  expect_layout(&r, 3, SH(2, 0, 3), ST(0, 0, 0), 0, 4);
  /* No slices: a copy (slices may be NULL). */
  r = sliced(&m, 0, NULL);
  assert_true(jg_layout_equal(&r, &m));
  jg_layout z0 = mk(0, NULL, NULL, 4);
  r = sliced(&z0, 0, NULL);
  assert_true(jg_layout_equal(&r, &z0));
  /* Errors. */
  expect_slice_err(&m, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(NONE, NONE, 0)}, JG_EINVAL, 1,
                   "step cannot be zero");
  expect_slice_err(&a, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE_ALL}, JG_EINVAL, 1,
                   "greater than the number of dimensions");
  expect_slice_err(&z0, 1, (jg_slice[]){JG_INDEX(0)}, JG_EINVAL, 0, "greater than");
  jg_layout three = mk(1, SH(3), NULL, 4);
  expect_slice_err(&three, 1, (jg_slice[]){JG_INDEX(5)}, JG_EINDEX, 0, "out of range");
  expect_slice_err(&three, 1, (jg_slice[]){JG_INDEX(-42)}, JG_EINDEX, 0, "out of range");
  expect_slice_err(&three, 1, (jg_slice[]){JG_INDEX(3)}, JG_EINDEX, 0, "out of range");
  expect_slice_err(&three, 1, (jg_slice[]){JG_INDEX(-4)}, JG_EINDEX, 0, "out of range");
  expect_slice_err(&three, 1, (jg_slice[]){JG_INDEX(NONE)}, JG_EINDEX, 0, NULL);
  r = sliced(&three, 1, (jg_slice[]){JG_INDEX(-3)});
  expect_layout(&r, 0, NULL, NULL, 0, 4);
  expect_slice_err(&m, 2, (jg_slice[]){JG_SLICE_ALL, JG_INDEX(6)}, JG_EINDEX, 1, "axis 1");
  expect_slice_err(&e, 2, (jg_slice[]){JG_SLICE_ALL, JG_INDEX(0)}, JG_EINDEX, 1, NULL);
  expect_slice_err(&m, -1, NULL, JG_EINVAL, -1, "non-negative");
  expect_slice_err(&m, 1, NULL, JG_EINVAL, -1, "NULL");
  expect_slice_err(NULL, 0, NULL, JG_EINVAL, -1, "NULL");
  jg_error err;
  expect_err(jg_layout_slice(NULL, &m, 0, NULL, &err), &err, JG_EINVAL, -1, "NULL");
  /* stride 2 times step INT64_MAX overflows, but the result has extent 1, whose stride is never
   * used: the original stride is kept (NumPy would keep the product 2 * INT64_MAX). */
  jg_layout two = mk(1, SH(5), ST(2), 4);
  r = slice1(&two, NONE, NONE, INT64_MAX);
  expect_layout(&r, 1, SH(1), ST(2), 0, 4);
  r = slice1(&two, NONE, NONE, -INT64_MAX); /* starts at the last element: offset 4 * 2 */
  expect_layout(&r, 1, SH(1), ST(2), 8, 4);
  r = slice1(&two, 1, NONE, INT64_MAX - 1);
  expect_layout(&r, 1, SH(1), ST(2), 2, 4);
  /* The same on a large-stride axis: offsets 0 and 2^62, [::INT64_MAX] picks element 0. */
  jg_layout big2 = mk(1, SH(2), ST(INT64_C(1) << 62), 1);
  r = slice1(&big2, NONE, NONE, INT64_MAX);
  expect_layout(&r, 1, SH(1), ST(INT64_C(1) << 62), 0, 1);
  /* With extent 2 the product is a real stride: (3,) strides (-2^62) [::-2] picks offsets -2^63
   * and 0 (from slice offset 0), a stride of +2^63, which does not fit. */
  jg_layout neg = mk(1, SH(3), ST(-(INT64_C(1) << 62)), 1);
  expect_bounds(&neg, INT64_MIN, 0);
  expect_slice_err(&neg, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -2)}, JG_EOVERFLOW, 0, "overflows");
  jg_layout wide = mk(2, SH(2, 2), ST(INT64_C(1) << 62, INT64_C(1) << 61), 1);
  jg_layout w1 = sliced(&wide, 1, (jg_slice[]){JG_INDEX(1)});
  expect_layout(&w1, 1, SH(2), ST(INT64_C(1) << 61), INT64_C(1) << 62, 1);
  /* The slice offset of a result is an element offset of the input, which fits for a valid
   * layout; here it reaches 2^62 + 2^61. (Its overflow check cannot fire on valid layouts.) */
  r = sliced(&w1, 1, (jg_slice[]){JG_INDEX(1)});
  expect_layout(&r, 0, NULL, NULL, (INT64_C(1) << 62) + (INT64_C(1) << 61), 1);
}

static void test_equal(void **state) {
  (void)state;
  jg_layout a = mk(2, SH(2, 3), NULL, 4);
  jg_layout b = a;
  assert_true(jg_layout_equal(&a, &b));
  assert_true(jg_layout_equal(&a, &a));
  b.itemsize = 8;
  assert_false(jg_layout_equal(&a, &b));
  b = a;
  b.slice_offset = 1;
  assert_false(jg_layout_equal(&a, &b));
  b = a;
  b.strides[1] = 2;
  assert_false(jg_layout_equal(&a, &b));
  b = a;
  b.shape[0] = 3;
  assert_false(jg_layout_equal(&a, &b));
  /* Different rank, same leading entries. */
  jg_layout c = mk(1, SH(2), ST(3), 4);
  assert_false(jg_layout_equal(&a, &c));
  /* Only the first ndim entries count. */
  b = a;
  b.shape[5] = 9;
  b.strides[7] = -1;
  assert_true(jg_layout_equal(&a, &b));
  /* Same memory, different description: F (2, 3) vs C (2, 3). */
  jg_layout f = mk(2, SH(2, 3), ST(1, 2), 4);
  assert_false(jg_layout_equal(&a, &f));
  assert_false(jg_layout_equal(&a, NULL));
  assert_false(jg_layout_equal(NULL, &a));
  assert_false(jg_layout_equal(NULL, NULL));
  jg_layout z1 = mk(0, NULL, NULL, 4), z2 = mk(0, NULL, NULL, 4);
  assert_true(jg_layout_equal(&z1, &z2));
}

/* Every operation with out == in gives what it gives out of place. */
static void test_in_place(void **state) {
  (void)state;
  jg_layout base = mk(3, SH(4, 6, 2), NULL, 4);
  jg_layout in = sliced(&base, 2, (jg_slice[]){JG_SLICE(NONE, NONE, -1), JG_SLICE(1, 5, NONE)});
  expect_layout(&in, 3, SH(4, 4, 2), ST(-12, 2, 1), 38, 4);
  jg_layout want, x;
#define JGT_SAME(call_out, call_in)          \
  do {                                       \
    JGT_OK(call_out);                        \
    x = in;                                  \
    JGT_OK(call_in);                         \
    assert_true(jg_layout_equal(&x, &want)); \
  } while (0)
  JGT_SAME(jg_layout_dense_like(&want, &in, JG_ORDER_F, NULL, &jgt_err_),
           jg_layout_dense_like(&x, &x, JG_ORDER_F, NULL, &jgt_err_));
  JGT_SAME(jg_layout_dense_like(&want, &in, JG_ORDER_PERM, AX(1, 2, 0), &jgt_err_),
           jg_layout_dense_like(&x, &x, JG_ORDER_PERM, AX(1, 2, 0), &jgt_err_));
  JGT_SAME(jg_layout_to_dense(&want, &in, &jgt_err_), jg_layout_to_dense(&x, &x, &jgt_err_));
  JGT_SAME(jg_layout_reshape(&want, &in, 2, SH(4, 8), &jgt_err_),
           jg_layout_reshape(&x, &x, 2, SH(4, 8), &jgt_err_));
  JGT_SAME(jg_layout_permute(&want, &in, AX(2, 0, 1), &jgt_err_),
           jg_layout_permute(&x, &x, AX(2, 0, 1), &jgt_err_));
  JGT_SAME(jg_layout_flatten(&want, &in, 0, -1, UINT64_MAX, &jgt_err_),
           jg_layout_flatten(&x, &x, 0, -1, UINT64_MAX, &jgt_err_));
  JGT_SAME(jg_layout_squeeze(&want, &in, &jgt_err_), jg_layout_squeeze(&x, &x, &jgt_err_));
  JGT_SAME(jg_layout_unsqueeze(&want, &in, 2, AX(0, 4), &jgt_err_),
           jg_layout_unsqueeze(&x, &x, 2, AX(0, 4), &jgt_err_));
  JGT_SAME(jg_layout_broadcast_to(&want, &in, 4, SH(3, 4, 4, 2), &jgt_err_),
           jg_layout_broadcast_to(&x, &x, 4, SH(3, 4, 4, 2), &jgt_err_));
  JGT_SAME(jg_layout_repack(&want, &in, 8, 0, -1, false, &jgt_err_),
           jg_layout_repack(&x, &x, 8, 0, -1, false, &jgt_err_));
  JGT_SAME(jg_layout_repack(&want, &in, 2, 0, -1, true, &jgt_err_),
           jg_layout_repack(&x, &x, 2, 0, -1, true, &jgt_err_));
  JGT_SAME(
      jg_layout_slice(&want, &in, 2, (jg_slice[]){JG_INDEX(2), JG_SLICE(NONE, NONE, -2)},
                      &jgt_err_),
      jg_layout_slice(&x, &x, 2, (jg_slice[]){JG_INDEX(2), JG_SLICE(NONE, NONE, -2)}, &jgt_err_));
#undef JGT_SAME
  /* Spot-check two of those by hand. The reshape: (4, 4, 2) strides (-12, 2, 1) merges its
   * last two axes (2 == 1 * 2) into (4, 8) strides (-12, 1). */
  JGT_OK(jg_layout_reshape(&x, &in, 2, SH(4, 8), &jgt_err_));
  expect_layout(&x, 2, SH(4, 8), ST(-12, 1), 38, 4);
  /* Packing to 8 bytes without keep_dim: the last axis (extent 2) disappears; offset 19. */
  JGT_OK(jg_layout_repack(&x, &in, 8, 0, -1, false, &jgt_err_));
  expect_layout(&x, 2, SH(4, 4), ST(-6, 1), 19, 8);
  /* Failing in place leaves the layout as it was. */
  x = in;
  jg_error err;
  expect_err(jg_layout_reshape(&x, &x, 1, SH(5), &err), &err, JG_ESHAPE, -1, NULL);
  assert_true(jg_layout_equal(&x, &in));
  expect_err(jg_layout_slice(&x, &x, 1, (jg_slice[]){JG_INDEX(9)}, &err), &err, JG_EINDEX, 0, NULL);
  assert_true(jg_layout_equal(&x, &in));
}

/* A layout that breaks the basic invariants is rejected by every operation. */
static void test_invalid_layouts(void **state) {
  (void)state;
  jg_layout good = mk(2, SH(2, 3), NULL, 4);
  jg_layout bad_rank = good, bad_item = good;
  bad_rank.ndim = JG_MAX_NDIM + 1;
  bad_item.itemsize = 0;
  const jg_layout *bads[] = {&bad_rank, &bad_item};
  for (int i = 0; i < 2; ++i) {
    const jg_layout *b = bads[i];
    jg_layout o = sentinel();
    jg_error err;
    size_t bytes;
    int64_t sb[JG_MAX_NDIM + 1], isz;
    const char *what = i == 0 ? "ndim" : "itemsize";
    expect_err(jg_layout_dense_like(&o, b, JG_ORDER_C, NULL, &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_strides_in_bytes(b, sb, &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_required_size(b, &bytes, &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_reshape(&o, b, 1, SH(6), &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_permute(&o, b, AX(1, 0), &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_flatten(&o, b, 0, -1, UINT64_MAX, &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_squeeze(&o, b, &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_unsqueeze(&o, b, 1, AX(0), &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_broadcast_to(&o, b, 2, SH(2, 3), &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_repack(&o, b, 8, 0, -1, true, &err), &err, JG_EINVAL, -1, what);
    expect_err(jg_layout_max_compatible_itemsize(b, 16, 0, -1, &isz, &err), &err, JG_EINVAL, -1,
               what);
    expect_err(jg_layout_slice(&o, b, 0, NULL, &err), &err, JG_EINVAL, -1, what);
    expect_untouched(&o);
  }
  /* The functions that cannot fail. */
  assert_int_equal(jg_layout_volume(&bad_rank), -1);
  assert_int_equal(jg_layout_flatten_mask(&bad_rank), 0);
  expect_bounds(&bad_rank, 0, -1);
  assert_false(jg_layout_equal(&bad_rank, &bad_rank));
  int perm[2] = {-1, -1};
  jg_layout_stride_order(&bad_rank, perm);
  assert_int_equal(perm[0], -1);
}

/* Hand-filled layouts (jg_layout is a public struct) that break the other invariants: negative
 * extents, an overflowing volume, overflowing element offsets. Every function that takes a
 * layout rejects them on entry; the ones that cannot fail treat them as NULL. */
static void test_invalid_handmade(void **state) {
  (void)state;
  jg_layout good = mk(2, SH(2, 3), NULL, 4);
  jg_layout neg_min = good, neg_100 = good, neg_both = good, vol = good, off = good;
  neg_min.shape[0] = INT64_MIN;
  neg_100.shape[1] = -100;
  neg_both.shape[0] = -2; /* (-2) * (-3) would be a volume of 6 */
  neg_both.shape[1] = -3;
  vol.shape[0] = INT64_C(1) << 62; /* volume 2^62 * 3 */
  vol.strides[0] = 0;
  vol.strides[1] = 0;
  off.strides[0] = INT64_MAX; /* offsets 0, INT64_MAX, then INT64_MAX + 2 on axis 1 */
  off.strides[1] = 1;
  const struct {
    const jg_layout *l;
    jg_status st;
    int64_t index;
    const char *needle;
  } bad[] = {
      {&neg_min, JG_EINVAL, 0, "extents must be non-negative"},
      {&neg_100, JG_EINVAL, 1, "extent -100 at axis 1: extents must be non-negative"},
      {&neg_both, JG_EINVAL, 0, "extents must be non-negative"},
      {&vol, JG_EOVERFLOW, -1, "volume"},
      {&off, JG_EOVERFLOW, 1, "element offset"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    const jg_layout *b = bad[i].l;
    const jg_status st = bad[i].st;
    const int64_t ix = bad[i].index;
    const char *nd = bad[i].needle;
    jg_layout o = sentinel();
    jg_error err;
    size_t bytes;
    int64_t sb[JG_MAX_NDIM], isz;
    expect_err(jg_layout_dense_like(&o, b, JG_ORDER_C, NULL, &err), &err, st, ix, nd);
    expect_err(jg_layout_to_dense(&o, b, &err), &err, st, ix, nd);
    expect_err(jg_layout_strides_in_bytes(b, sb, &err), &err, st, ix, nd);
    expect_err(jg_layout_required_size(b, &bytes, &err), &err, st, ix, nd);
    expect_err(jg_layout_reshape(&o, b, 1, SH(6), &err), &err, st, ix, nd);
    expect_err(jg_layout_permute(&o, b, AX(1, 0), &err), &err, st, ix, nd);
    expect_err(jg_layout_flatten(&o, b, 0, -1, UINT64_MAX, &err), &err, st, ix, nd);
    expect_err(jg_layout_squeeze(&o, b, &err), &err, st, ix, nd);
    expect_err(jg_layout_unsqueeze(&o, b, 1, AX(0), &err), &err, st, ix, nd);
    expect_err(jg_layout_broadcast_to(&o, b, 2, SH(2, 3), &err), &err, st, ix, nd);
    expect_err(jg_layout_repack(&o, b, 8, 0, -1, true, &err), &err, st, ix, nd);
    expect_err(jg_layout_max_compatible_itemsize(b, 16, 0, -1, &isz, &err), &err, st, ix, nd);
    expect_err(jg_layout_slice(&o, b, 0, NULL, &err), &err, st, ix, nd);
    expect_err(jg_layout_slice(&o, b, 1, (jg_slice[]){JG_SLICE(NONE, NONE, -1)}, &err), &err, st,
               ix, nd);
    expect_untouched(&o);
    /* Cannot fail: the NULL answers, and no overflow computing them (UBSan checks). */
    assert_int_equal(jg_layout_volume(b), -1);
    expect_bounds(b, 0, -1);
    expect_flags(b, false, false, false, false, false);
    assert_int_equal(jg_layout_flatten_mask(b), 0);
    assert_false(jg_layout_equal(b, b));
    int perm[2] = {-7, -7};
    jg_layout_stride_order(b, perm);
    assert_int_equal(perm[0], -7);
  }
  /* A zero-volume layout with non-zero strides is accepted (its strides address nothing); the
   * results get zero strides. Offsets that would overflow are not computed for it. */
  jg_layout zs = good;
  zs.shape[0] = 0;
  zs.strides[0] = INT64_MAX;
  zs.strides[1] = INT64_MIN;
  assert_int_equal(jg_layout_volume(&zs), 0);
  expect_bounds(&zs, 0, -1);
  jg_layout o;
  JGT_OK(jg_layout_squeeze(&o, &zs, &jgt_err_));
  expect_layout(&o, 1, SH(0), ST(0), 0, 4);
}

/* ------------------------------------------------------------------------------------------ */
/* Randomized self-consistency (seeded): brute-force every element offset                     */
/* ------------------------------------------------------------------------------------------ */

#define RMAXV 8192        /* most elements a random layout (or its broadcast) may have */
#define RMAXB (1024 * 16) /* most bytes compared for repack: volume <= 1024, itemsize <= 16 */

static uint64_t rng_state;

static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static int64_t rnd_in(int64_t lo, int64_t hi) {
  return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static void random_perm(int n, int *p) {
  for (int i = 0; i < n; ++i) p[i] = i;
  for (int i = n - 1; i > 0; --i) {
    int j = (int)rnd_in(0, i), t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static int64_t offset_of(const jg_layout *l, const int64_t *idx) {
  int64_t off = l->slice_offset;
  for (int k = 0; k < l->ndim; ++k) off += idx[k] * l->strides[k];
  return off;
}

/* Advances idx in C order (f_order: F order); false after the last index. */
static bool next_index(const jg_layout *l, int64_t *idx, bool f_order) {
  for (int j = 0; j < l->ndim; ++j) {
    int k = f_order ? j : l->ndim - 1 - j;
    if (++idx[k] < l->shape[k]) return true;
    idx[k] = 0;
  }
  return false;
}

/* Every element offset, in C (or F) index order; returns the volume. */
static int64_t all_offsets(const jg_layout *l, bool f_order, int64_t *out) {
  int64_t v = jg_layout_volume(l);
  assert_true(v >= 0 && v <= RMAXV);
  if (v == 0) return 0;
  int64_t idx[JG_MAX_NDIM] = {0};
  int64_t n = 0;
  do {
    out[n++] = offset_of(l, idx);
  } while (next_index(l, idx, f_order));
  assert_int_equal(n, v);
  return v;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void expect_same_sequence(const jg_layout *l, const int64_t *want, int64_t v) {
  static int64_t got[RMAXV];
  assert_int_equal(all_offsets(l, false, got), v);
  for (int64_t i = 0; i < v; ++i) {
    if (got[i] != want[i]) {
      print_error("element %lld (C order): offset %lld, want %lld\n", (long long)i,
                  (long long)got[i], (long long)want[i]);
      fail();
    }
  }
}

/* The indices a[start:stop:step] picks on an axis of extent n: Python's
 * range(*slice(start, stop, step).indices(n)), written out as a loop. */
static int64_t py_slice_indices(int64_t n, int64_t start, int64_t stop, int64_t step,
                                int64_t *out) {
  if (step == NONE) step = 1;
  int64_t first, last, c = 0;
  if (step > 0) {
    first = start == NONE ? 0
            : start < 0   ? (start + n < 0 ? 0 : start + n)
                          : (start < n ? start : n);
    last = stop == NONE ? n : stop < 0 ? (stop + n < 0 ? 0 : stop + n) : (stop < n ? stop : n);
    for (int64_t i = first; i < last; i += step) out[c++] = i;
  } else {
    first = start == NONE ? n - 1
            : start < 0   ? (start + n < -1 ? -1 : start + n)
                          : (start < n - 1 ? start : n - 1);
    last = stop == NONE ? -1
           : stop < 0   ? (stop + n < -1 ? -1 : stop + n)
                        : (stop < n - 1 ? stop : n - 1);
    for (int64_t i = first; i > last; i += step) out[c++] = i;
  }
  return c;
}

static jg_slice random_slice(jg_len extent, bool allow_index) {
  if (allow_index && extent > 0 && rnd() % 5 == 0) return JG_INDEX(rnd_in(-extent, extent - 1));
  static const int64_t steps[] = {NONE, 1, 1, 2, 3, -1, -1, -2, -3};
  int64_t start = rnd() % 2 == 0 ? NONE : rnd_in(-6, 6);
  int64_t stop = rnd() % 2 == 0 ? NONE : rnd_in(-6, 6);
  return JG_SLICE(start, stop, steps[rnd() % 9]);
}

typedef struct rcase {
  jg_layout l;
  int64_t base_volume; /* volume of the dense layout it was cut from */
  bool derived;        /* from a dense layout by permute and slice (so unique, in [0, base)) */
} rcase;

static rcase random_case(void) {
  rcase c;
  int ndim = (int)rnd_in(0, 5);
  jg_len shape[8];
  for (int k = 0; k < ndim; ++k) shape[k] = rnd() % 20 == 0 ? 0 : rnd_in(1, 4);
  int64_t itemsize = INT64_C(1) << rnd_in(0, 3);
  if (rnd() % 4 == 0) { /* arbitrary strides: overlaps, zeros, negatives */
    jg_stride strides[8];
    for (int k = 0; k < ndim; ++k) strides[k] = rnd_in(-6, 6);
    JGT_OK(jg_layout_init(&c.l, ndim, shape, strides, itemsize, &jgt_err_));
    c.derived = false;
    c.base_volume = -1;
    return c;
  }
  int perm[8];
  random_perm(ndim, perm);
  static const jg_order orders[] = {JG_ORDER_C, JG_ORDER_F, JG_ORDER_PERM};
  JGT_OK(jg_layout_dense(&c.l, ndim, shape, itemsize, orders[rnd() % 3], perm, &jgt_err_));
  c.base_volume = jg_layout_volume(&c.l);
  c.derived = true;
  if (rnd() % 2) {
    random_perm(ndim, perm);
    JGT_OK(jg_layout_permute(&c.l, &c.l, perm, &jgt_err_));
  }
  int n = rnd() % 3 == 0 ? 0 : (int)rnd_in(0, ndim);
  jg_slice s[8];
  for (int i = 0; i < n; ++i) s[i] = random_slice(c.l.shape[i], true);
  JGT_OK(jg_layout_slice(&c.l, &c.l, n, s, &jgt_err_));
  return c;
}

static int64_t buf_c[RMAXV], buf_f[RMAXV], buf_s[RMAXV];

/* Bounds, uniqueness, contiguity, stride order and required size against brute force. */
static void check_properties(const rcase *c) {
  const jg_layout *l = &c->l;
  int64_t v = all_offsets(l, false, buf_c);
  all_offsets(l, true, buf_f);
  jg_offset lo, hi;
  jg_layout_offset_bounds(l, &lo, &hi);
  memcpy(buf_s, buf_c, sizeof(int64_t) * (size_t)v);
  qsort(buf_s, (size_t)v, sizeof(int64_t), cmp_i64);
  if (v == 0) {
    assert_int_equal(lo, 0);
    assert_int_equal(hi, -1);
  } else {
    assert_int_equal(lo, buf_s[0]); /* the bounds are attained */
    assert_int_equal(hi, buf_s[v - 1]);
  }
  bool distinct = true;
  for (int64_t i = 1; i < v; ++i) distinct = distinct && buf_s[i] != buf_s[i - 1];
  bool unique = jg_layout_is_unique(l);
  if (unique) assert_true(distinct);
  bool stretched = false;
  for (int k = 0; k < l->ndim; ++k)
    stretched = stretched || (l->shape[k] > 1 && l->strides[k] == 0);
  if (stretched && v > 0) assert_false(unique);
  if (c->derived) {
    assert_true(unique); /* cuda.core: anything cut from a dense layout is reported unique */
    if (v > 0) {
      assert_true(lo >= 0);
      assert_true(hi <= c->base_volume - 1);
    }
  }
  if (lo >= 0) assert_int_equal(required(l), v == 0 ? 0 : (size_t)((hi + 1) * l->itemsize));
  /* C-contiguous <=> consecutive offsets in C index order; F likewise. */
  bool cons_c = true, cons_f = true;
  for (int64_t i = 1; i < v; ++i) {
    cons_c = cons_c && buf_c[i] == buf_c[i - 1] + 1;
    cons_f = cons_f && buf_f[i] == buf_f[i - 1] + 1;
  }
  bool cc = jg_layout_is_contiguous_c(l), cf = jg_layout_is_contiguous_f(l);
  bool any = jg_layout_is_contiguous_any(l);
  assert_int_equal(cc, cons_c);
  assert_int_equal(cf, cons_f);
  if (cc || cf) assert_true(any);
  bool fills = v == 0 || (distinct && buf_s[v - 1] - buf_s[0] == v - 1);
  if (any) assert_true(fills);
  bool positive = true;
  for (int k = 0; k < l->ndim; ++k) positive = positive && (l->shape[k] <= 1 || l->strides[k] > 0);
  if (fills && positive) assert_true(any); /* a bijection onto a range, all strides positive */
  assert_int_equal(jg_layout_is_dense(l), any && l->slice_offset == 0);
  if (jg_layout_is_dense(l) && v > 0) assert_int_equal(buf_s[0], 0);
  /* The stride order: a permutation sorted by the documented rule. */
  int perm[JG_MAX_NDIM];
  jg_layout_stride_order(l, perm);
  uint64_t seen = 0;
  for (int i = 0; i < l->ndim; ++i) {
    assert_true(perm[i] >= 0 && perm[i] < l->ndim);
    seen |= UINT64_C(1) << perm[i];
  }
  assert_int_equal(seen, l->ndim == 0 ? 0 : (UINT64_C(1) << l->ndim) - 1);
  for (int i = 0; i + 1 < l->ndim; ++i) {
    int a = perm[i], b = perm[i + 1];
    int64_t sa = llabs(l->strides[a]), sb = llabs(l->strides[b]);
    bool ok = sa > sb ||
              (sa == sb && (l->shape[a] > l->shape[b] || (l->shape[a] == l->shape[b] && a < b)));
    assert_true(ok);
  }
}

/* A random shape of volume v (v <= 1024): its prime factors spread over up to 4 axes, extra
 * extent-1 axes, sometimes one -1. For v == 0, one axis is 0. Returns ndim. */
static int random_shape_of(int64_t v, jg_len *shape, bool *used_minus1) {
  int ndim = (int)rnd_in(v == 1 ? 0 : 1, 4);
  for (int k = 0; k < ndim; ++k) shape[k] = 1;
  *used_minus1 = false;
  if (v == 0) {
    for (int k = 0; k < ndim; ++k) shape[k] = rnd_in(0, 3);
    shape[rnd_in(0, ndim - 1)] = 0;
    return ndim;
  }
  int64_t rest = v;
  for (int64_t p = 2; rest > 1; ++p) {
    while (rest % p == 0) {
      shape[rnd_in(0, ndim - 1)] *= p;
      rest /= p;
    }
  }
  if (ndim > 0 && rnd() % 3 == 0) {
    shape[rnd_in(0, ndim - 1)] = -1;
    *used_minus1 = true;
  }
  return ndim;
}

/* Whether some strides give `shape` the C-order offset sequence `seq` (brute force: the
 * stride of each axis must be the step to index 1 along it; then check every element). */
static bool sequence_reshapable(const int64_t *seq, int64_t v, int ndim, const jg_len *shape) {
  if (v == 0) return true;
  jg_layout t;
  memset(&t, 0, sizeof t);
  t.ndim = ndim;
  t.itemsize = 1;
  t.slice_offset = seq[0];
  int64_t place = 1;
  for (int k = ndim - 1; k >= 0; --k) {
    t.shape[k] = shape[k];
    t.strides[k] = shape[k] > 1 ? seq[place] - seq[0] : 0;
    place *= shape[k];
  }
  int64_t idx[JG_MAX_NDIM] = {0};
  int64_t n = 0;
  do {
    if (offset_of(&t, idx) != seq[n]) return false;
    ++n;
  } while (next_index(&t, idx, false));
  return true;
}

/* The covered bytes (element offset * itemsize + 0 .. itemsize-1), sorted. */
static int64_t covered_bytes(const jg_layout *l, int64_t *out) {
  static int64_t offs[RMAXV];
  int64_t v = all_offsets(l, false, offs), n = 0;
  assert_true(v * l->itemsize <= RMAXB);
  for (int64_t i = 0; i < v; ++i) {
    for (int64_t b = 0; b < l->itemsize; ++b) out[n++] = offs[i] * l->itemsize + b;
  }
  qsort(out, (size_t)n, sizeof(int64_t), cmp_i64);
  return n;
}

static void expect_same_bytes(const jg_layout *a, const jg_layout *b) {
  static int64_t ba[RMAXB], bb[RMAXB];
  int64_t na = covered_bytes(a, ba), nb = covered_bytes(b, bb);
  assert_int_equal(na, nb);
  assert_memory_equal(ba, bb, sizeof(int64_t) * (size_t)na);
}

/* Whatever is made from a layout cut from a dense one stays unique (layout.h) and inside the
 * dense layout's bytes (cuda.core's envelope check). */
static void expect_unique_if(const rcase *c, const jg_layout *r) {
  if (!c->derived) return;
  assert_true(jg_layout_is_unique(r));
  jg_offset lo, hi;
  jg_layout_offset_bounds(r, &lo, &hi);
  if (jg_layout_volume(r) > 0) {
    assert_true(lo >= 0);
    assert_true((hi + 1) * r->itemsize <= c->base_volume * c->l.itemsize);
  }
}

/* Each operation against brute force on the element offsets (the order NumPy defines). */
static void check_operations(const rcase *c) {
  const jg_layout *l = &c->l;
  const int n = l->ndim;
  const int64_t v = all_offsets(l, false, buf_c);
  jg_layout r;
  int64_t idx[JG_MAX_NDIM], in_idx[JG_MAX_NDIM];

  /* permute: out[j] is in[i] with i[axes[k]] = j[k]; negative axes half the time. */
  int axes[8];
  random_perm(n, axes);
  int raw_axes[8];
  for (int k = 0; k < n; ++k) raw_axes[k] = rnd() % 2 ? axes[k] - n : axes[k];
  JGT_OK(jg_layout_permute(&r, l, raw_axes, &jgt_err_));
  if (v > 0) {
    memset(idx, 0, sizeof idx);
    do {
      for (int k = 0; k < n; ++k) in_idx[axes[k]] = idx[k];
      assert_int_equal(offset_of(&r, idx), offset_of(l, in_idx));
    } while (next_index(&r, idx, false));
  }

  /* flatten: the same C-order sequence; nothing left to merge after a full flatten. */
  JGT_OK(jg_layout_flatten(&r, l, 0, -1, UINT64_MAX, &jgt_err_));
  expect_same_sequence(&r, buf_c, v);
  expect_unique_if(c, &r);
  assert_int_equal(jg_layout_flatten_mask(&r), 0);
  assert_true(r.ndim <= (n == 0 ? 1 : n));
  jg_layout flat = r;
  if (n > 0) {
    int s = (int)rnd_in(0, n - 1), e = (int)rnd_in(s, n - 1);
    JGT_OK(jg_layout_flatten(&r, l, s - (rnd() % 2 ? n : 0), e - (rnd() % 2 ? n : 0), rnd(),
                             &jgt_err_));
    expect_same_sequence(&r, buf_c, v);
    assert_true(r.ndim >= s + 1 && r.ndim <= n);
    for (int k = 0; k < s; ++k) assert_int_equal(r.shape[k], l->shape[k]); /* untouched */
  }
  /* Flattening with ANDed masks: l, its C-dense twin and its dense copy end up alike. */
  jg_layout twin, dcopy, f1, f2, f3;
  JGT_OK(jg_layout_dense(&twin, n, l->shape, l->itemsize, JG_ORDER_F, NULL, &jgt_err_));
  JGT_OK(jg_layout_to_dense(&dcopy, l, &jgt_err_));
  uint64_t m =
      jg_layout_flatten_mask(l) & jg_layout_flatten_mask(&twin) & jg_layout_flatten_mask(&dcopy);
  JGT_OK(jg_layout_flatten(&f1, l, 0, -1, m, &jgt_err_));
  JGT_OK(jg_layout_flatten(&f2, &twin, 0, -1, m, &jgt_err_));
  JGT_OK(jg_layout_flatten(&f3, &dcopy, 0, -1, m, &jgt_err_));
  expect_same_sequence(&f1, buf_c, v);
  assert_int_equal(f1.ndim, f2.ndim);
  assert_int_equal(f1.ndim, f3.ndim);
  assert_memory_equal(f1.shape, f2.shape, sizeof(jg_len) * (size_t)f1.ndim);
  assert_memory_equal(f1.shape, f3.shape, sizeof(jg_len) * (size_t)f1.ndim);

  /* dense_like: dense, same shape; K returns l itself when l is dense. */
  assert_true(jg_layout_is_dense(&dcopy));
  assert_int_equal(dcopy.ndim, n);
  assert_memory_equal(dcopy.shape, l->shape, sizeof(jg_len) * (size_t)n);
  if (jg_layout_is_dense(l)) assert_true(jg_layout_equal(&dcopy, l));
  JGT_OK(jg_layout_dense_like(&r, l, JG_ORDER_C, NULL, &jgt_err_));
  assert_true(jg_layout_is_dense(&r) && jg_layout_is_contiguous_c(&r));
  JGT_OK(jg_layout_dense_like(&r, l, JG_ORDER_F, NULL, &jgt_err_));
  assert_true(jg_layout_is_dense(&r) && jg_layout_is_contiguous_f(&r));

  /* reshape to the flattened shape always works; a random shape works exactly when some strides
   * reproduce the C-order sequence (checked for unique layouts; overlapping ones only one way). */
  JGT_OK(jg_layout_reshape(&r, l, flat.ndim, flat.shape, &jgt_err_));
  expect_same_sequence(&r, buf_c, v);
  for (int t = 0; t < 3; ++t) {
    jg_len shape[8];
    bool minus1;
    int nd = random_shape_of(v, shape, &minus1);
    jg_error err;
    jg_status st = jg_layout_reshape(&r, l, nd, shape, &err);
    jg_len resolved[8];
    for (int k = 0; k < nd; ++k) resolved[k] = shape[k] == -1 ? 1 : shape[k];
    if (minus1) {
      int64_t rest = 1;
      for (int k = 0; k < nd; ++k) rest *= resolved[k];
      for (int k = 0; k < nd; ++k) {
        if (shape[k] == -1) resolved[k] = v / rest;
      }
    }
    bool possible = sequence_reshapable(buf_c, v, nd, resolved);
    if (st == JG_OK) {
      assert_true(possible);
      assert_int_equal(r.ndim, nd);
      assert_memory_equal(r.shape, resolved, sizeof(jg_len) * (size_t)nd);
      assert_int_equal(r.slice_offset, l->slice_offset);
      expect_same_sequence(&r, buf_c, v);
      expect_unique_if(c, &r);
    } else {
      assert_int_equal(st, JG_ESHAPE);
      if (c->derived || v == 0) {
        if (possible) {
          print_error("reshape to a %d-d shape refused: %s\n", nd, err.message);
        }
        assert_false(possible);
      }
    }
  }

  /* squeeze: same sequence, no extent-1 axes left. */
  JGT_OK(jg_layout_squeeze(&r, l, &jgt_err_));
  expect_same_sequence(&r, buf_c, v);
  expect_unique_if(c, &r);
  for (int k = 0; k < r.ndim; ++k) assert_true(r.shape[k] != 1);

  /* unsqueeze: same sequence; flattening gives what flattening l gives. */
  if (n < 8) {
    int na = (int)rnd_in(0, 2), pos[2];
    int out_n = n + na;
    pos[0] = (int)rnd_in(0, out_n - 1 < 0 ? 0 : out_n - 1);
    do {
      pos[1] = (int)rnd_in(0, out_n - 1 < 0 ? 0 : out_n - 1);
    } while (na == 2 && pos[1] == pos[0]);
    int raw[2] = {rnd() % 2 ? pos[0] - out_n : pos[0], rnd() % 2 ? pos[1] - out_n : pos[1]};
    JGT_OK(jg_layout_unsqueeze(&r, l, na, raw, &jgt_err_));
    assert_int_equal(r.ndim, out_n);
    expect_same_sequence(&r, buf_c, v);
    expect_unique_if(c, &r);
    jg_layout rf;
    JGT_OK(jg_layout_flatten(&rf, &r, 0, -1, UINT64_MAX, &jgt_err_));
    assert_true(jg_layout_equal(&rf, &flat));
  }

  /* slice: out[j] is in[picked indices]; Python range semantics computed independently. */
  {
    int ns = (int)rnd_in(0, n);
    jg_slice s[8];
    static int64_t picks[8][8];
    int64_t npick[8];
    for (int i = 0; i < ns; ++i) {
      s[i] = random_slice(l->shape[i], true);
      if (!s[i].is_index) {
        npick[i] = py_slice_indices(l->shape[i], s[i].start, s[i].stop, s[i].step, picks[i]);
      }
    }
    JGT_OK(jg_layout_slice(&r, l, ns, s, &jgt_err_));
    expect_unique_if(c, &r);
    int64_t rv = jg_layout_volume(&r);
    int o = 0;
    for (int i = 0; i < n; ++i) {
      if (i < ns && s[i].is_index) continue;
      assert_int_equal(r.shape[o], i < ns ? npick[i] : l->shape[i]);
      ++o;
    }
    assert_int_equal(r.ndim, o);
    if (rv == 0) {
      for (int k = 0; k < r.ndim; ++k) assert_int_equal(r.strides[k], 0);
    } else {
      memset(idx, 0, sizeof idx);
      do {
        int ok = 0;
        for (int i = 0; i < n; ++i) {
          if (i < ns && s[i].is_index) {
            in_idx[i] = s[i].start < 0 ? s[i].start + l->shape[i] : s[i].start;
          } else {
            in_idx[i] = i < ns ? picks[i][idx[ok]] : idx[ok];
            ++ok;
          }
        }
        assert_int_equal(offset_of(&r, idx), offset_of(l, in_idx));
      } while (next_index(&r, idx, false));
    }
  }

  /* broadcast_to: new leading axes and stretched extent-1 axes repeat the same offsets. */
  {
    int extra = (int)rnd_in(0, 2);
    jg_len shape[10];
    int64_t vol = 1;
    for (int k = 0; k < extra; ++k) shape[k] = rnd_in(0, 3);
    for (int k = 0; k < n; ++k) {
      shape[extra + k] = l->shape[k] == 1 ? rnd_in(0, 3) : l->shape[k];
    }
    for (int k = 0; k < extra + n; ++k) vol *= shape[k];
    if (vol <= RMAXV) {
      JGT_OK(jg_layout_broadcast_to(&r, l, extra + n, shape, &jgt_err_));
      bool stretched = false;
      for (int k = 0; k < extra + n; ++k) {
        bool was_one = k < extra || l->shape[k - extra] == 1;
        stretched = stretched || (was_one && shape[k] > 1);
      }
      if (vol > 0) {
        assert_int_equal(jg_layout_is_unique(&r), jg_layout_is_unique(l) && !stretched);
        memset(idx, 0, sizeof idx);
        do {
          for (int k = 0; k < n; ++k) in_idx[k] = l->shape[k] == 1 ? 0 : idx[extra + k];
          assert_int_equal(offset_of(&r, idx), offset_of(l, in_idx));
        } while (next_index(&r, idx, false));
      } else {
        for (int k = 0; k < r.ndim; ++k) assert_int_equal(r.strides[k], 0);
      }
    }
  }

  /* repack: pack to the largest compatible itemsize, then unpack back: the same bytes, and
   * the round trip restores l. Unpack by 2 and pack back likewise. */
  if (n > 0) {
    static const uintptr_t ptrs[] = {0, 0, 2, 4, 8, 16, 48};
    uintptr_t ptr = ptrs[rnd() % 7];
    int64_t best;
    JGT_OK(jg_layout_max_compatible_itemsize(l, 16, ptr, -1, &best, &jgt_err_));
    assert_true(best >= l->itemsize && best <= 16 && best % l->itemsize == 0);
    if (best > l->itemsize) {
      jg_layout p, back;
      JGT_OK(jg_layout_repack(&p, l, best, ptr, -1, true, &jgt_err_));
      expect_same_bytes(&p, l);
      expect_unique_if(c, &p);
      JGT_OK(jg_layout_repack(&back, &p, l->itemsize, 0, -1, true, &jgt_err_));
      assert_true(jg_layout_equal(&back, l));
      JGT_OK(jg_layout_repack(&p, l, best, ptr, -1, false, &jgt_err_));
      expect_same_bytes(&p, l);
      /* Nothing larger than `best` (up to 16) packs. */
      for (int64_t big = best * 2; big <= 16; big *= 2) {
        jg_error err;
        assert_int_equal(jg_layout_repack(&p, l, big, ptr, -1, true, &err), JG_EINVAL);
      }
    }
    if (l->itemsize >= 2 && l->strides[n - 1] == 1 && l->shape[n - 1] > 0) {
      jg_layout u, back;
      JGT_OK(jg_layout_repack(&u, l, l->itemsize / 2, 7, -1, true, &jgt_err_));
      expect_same_bytes(&u, l);
      expect_unique_if(c, &u);
      JGT_OK(jg_layout_repack(&back, &u, l->itemsize, 0, -1, true, &jgt_err_));
      assert_true(jg_layout_equal(&back, l));
    }
  }

  /* In place gives the same as out of place. */
  jg_layout x = *l;
  JGT_OK(jg_layout_flatten(&x, &x, 0, -1, UINT64_MAX, &jgt_err_));
  assert_true(jg_layout_equal(&x, &flat));
}

static void test_random_consistency(void **state) {
  (void)state;
  rng_state = UINT64_C(20251129);
  for (int i = 0; i < 20000; ++i) {
    rcase c = random_case();
    check_properties(&c);
    check_operations(&c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_init_0d),
      cmocka_unit_test(test_init_c_order),
      cmocka_unit_test(test_init_zero_size),
      cmocka_unit_test(test_init_errors),
      cmocka_unit_test(test_init_byte_strides),
      cmocka_unit_test(test_init_64_dims),
      cmocka_unit_test(test_dense),
      cmocka_unit_test(test_dense_like),
      cmocka_unit_test(test_stride_order),
      cmocka_unit_test(test_contiguity),
      cmocka_unit_test(test_bounds_and_required_size),
      cmocka_unit_test(test_is_unique),
      cmocka_unit_test(test_reshape_table),
      cmocka_unit_test(test_permute),
      cmocka_unit_test(test_flatten),
      cmocka_unit_test(test_squeeze),
      cmocka_unit_test(test_unsqueeze),
      cmocka_unit_test(test_broadcast),
      cmocka_unit_test(test_repack),
      cmocka_unit_test(test_max_compatible_itemsize),
      cmocka_unit_test(test_slice),
      cmocka_unit_test(test_equal),
      cmocka_unit_test(test_in_place),
      cmocka_unit_test(test_invalid_layouts),
      cmocka_unit_test(test_invalid_handmade),
      cmocka_unit_test(test_random_consistency),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
