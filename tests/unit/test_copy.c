/* test_copy.c: jg_copy / jg_copy_async / jg_copy_ex between host views: a matrix of layout pairs
 * (C, F, permuted, reversed, stepped, broadcast source) over shapes from 0-d to 5-D and every
 * itemsize, each checked byte for byte against a brute-force reference over the whole destination
 * arena (so writes outside the view are caught too); hand-checked values; every error path.
 * Runs everywhere; the "no GPU" cases are skipped when a GPU is present. */
#include "jg_test.h"
#include "jgt_copy_cases.h"

static const jg_device kHost = JG_DEVICE_HOST_INIT;

static bool have_gpu(void) {
  int n = 0;
  assert_int_equal(jg_device_count(&n, NULL), JG_OK);
  return n > 0;
}

/* A host view over `base` with layout `l`. */
static jg_view host_view(void *base, const jg_layout *l, jg_dtype dt, bool readonly) {
  jg_view v;
  JGT_OK(jg_view_from_pointer(&v, base, kHost, l, dt, readonly, &jgt_err_));
  return v;
}

static jg_dtype dtype_of_size(int64_t itemsize) {
  switch (itemsize) {
    case 1:
      return JG_DTYPE_UINT8;
    case 2:
      return JG_DTYPE_INT16;
    case 4:
      return JG_DTYPE_FLOAT32;
    case 8:
      return JG_DTYPE_FLOAT64;
    default:
      return JG_DTYPE_COMPLEX128;
  }
}

enum { VIA_COPY = 0, VIA_ASYNC = 1, VIA_EX = 2 };

/* Copies src layout `sl` into dst layout `dl` through `via` and compares the whole destination
 * arena with the reference. Returns 0 on a match (prints the case otherwise). */
static int check_pair(const jg_layout *dl, const jg_layout *sl, jg_dtype dt, int via,
                      const char *what) {
  int ok_d = 0, ok_s = 0;
  const size_t isz = (size_t)dl->itemsize;
  const size_t nd = jgt_arena_elems(dl, &ok_d) * isz;
  const size_t ns = jgt_arena_elems(sl, &ok_s) * isz;
  assert_true(ok_d && ok_s);
  uint8_t *dst = malloc(nd), *want = malloc(nd), *src = malloc(ns);
  assert_non_null(dst);
  assert_non_null(want);
  assert_non_null(src);
  jgt_fill(src, ns, (uint32_t)(ns + nd));
  memset(dst, 0xA5, nd);
  memset(want, 0xA5, nd);
  jgt_ref_copy(want, dl, src, sl);
  jg_view dv = host_view(dst, dl, dt, false);
  jg_view sv = host_view(src, sl, dt, true);
  jg_error err;
  jg_error_clear(&err);
  jg_status st;
  if (via == VIA_COPY) {
    st = jg_copy(&dv, &sv, &err);
  } else if (via == VIA_ASYNC) {
    st = jg_copy_async(&dv, &sv, NULL, &err);
  } else {
    size_t tb = 0;
    st = jg_copy_ex(&dv, &sv, NULL, &tb, NULL, &err);
    if (st == JG_OK) {
      assert_true(tb >= 1); /* host copies need no device staging; the query says 1 (CUB) */
      uint64_t dummy = 0;
      st = jg_copy_ex(&dv, &sv, &dummy, &tb, NULL, &err);
    }
  }
  int bad = st != JG_OK || memcmp(dst, want, nd) != 0;
  if (bad) {
    print_error("copy failed: %s: status %s (%s)\n", what, jg_status_name(st), err.message);
  }
  free(dst);
  free(want);
  free(src);
  return bad;
}

typedef struct shape_case {
  int ndim;
  jg_len shape[5];
} shape_case;

static const shape_case kShapes[] = {
    {0, {0}},    {1, {7}},    {2, {3, 4}},   {3, {4, 1, 5}}, {3, {2, 3, 4}}, {5, {2, 3, 1, 2, 3}},
    {2, {0, 3}}, {2, {1, 1}}, {2, {17, 33}}, {1, {1}},
};

/* Every (dst kind, src kind) pair over every shape and itemsize, through all three entry
 * points in turn. */
static void test_matrix(void **state) {
  (void)state;
  static const int64_t itemsizes[] = {1, 2, 4, 8, 16};
  int failures = 0, cases = 0;
  for (size_t si = 0; si < sizeof kShapes / sizeof kShapes[0]; ++si) {
    const shape_case *sc = &kShapes[si];
    for (size_t ii = 0; ii < 5; ++ii) {
      const int64_t isz = itemsizes[ii];
      for (int dk = 0; dk < JGT_KIND_COUNT; ++dk) {
        if (dk == JGT_KIND_BCAST) continue; /* a broadcast dst is an error, tested below */
        for (int sk = 0; sk < JGT_KIND_COUNT; ++sk) {
          jg_layout dl, sl;
          JGT_OK(jgt_layout_kind(&dl, dk, sc->ndim, sc->shape, isz));
          JGT_OK(jgt_layout_kind(&sl, sk, sc->ndim, sc->shape, isz));
          char what[160];
          snprintf(what, sizeof what, "shape #%zu (%d-d), itemsize %lld, dst %s, src %s", si,
                   sc->ndim, (long long)isz, jgt_kind_name(dk), jgt_kind_name(sk));
          failures += check_pair(&dl, &sl, dtype_of_size(isz), cases % 3, what);
          ++cases;
        }
      }
    }
  }
  assert_int_equal(failures, 0);
  assert_true(cases > 1000);
}

/* Every permutation of 3 and 5 axes, as source and as destination, against C order. */
static void next_perm_rec(int *perm, int n, int k, int *count, int64_t itemsize,
                          const jg_len *shape, int *failures) {
  if (k == n) {
    jg_layout c, p;
    JGT_OK(jg_layout_dense(&c, n, shape, itemsize, JG_ORDER_C, NULL, &jgt_err_));
    JGT_OK(jg_layout_dense(&p, n, shape, itemsize, JG_ORDER_PERM, perm, &jgt_err_));
    char what[64];
    snprintf(what, sizeof what, "%d-d permutation #%d", n, *count);
    *failures += check_pair(&c, &p, dtype_of_size(itemsize), VIA_COPY, what);
    *failures += check_pair(&p, &c, dtype_of_size(itemsize), VIA_COPY, what);
    ++*count;
    return;
  }
  for (int i = k; i < n; ++i) {
    int t = perm[k];
    perm[k] = perm[i];
    perm[i] = t;
    next_perm_rec(perm, n, k + 1, count, itemsize, shape, failures);
    t = perm[k];
    perm[k] = perm[i];
    perm[i] = t;
  }
}

static void test_permutations(void **state) {
  (void)state;
  int failures = 0, count = 0;
  int p3[3] = {0, 1, 2};
  const jg_len s3[3] = {3, 4, 5};
  next_perm_rec(p3, 3, 0, &count, 4, s3, &failures);
  assert_int_equal(count, 6);
  int p5[5] = {0, 1, 2, 3, 4};
  const jg_len s5[5] = {2, 3, 4, 3, 2};
  count = 0;
  next_perm_rec(p5, 5, 0, &count, 8, s5, &failures);
  assert_int_equal(count, 120);
  assert_int_equal(failures, 0);
}

/* Hand-checked values (no reference involved). */
static void test_transpose_values(void **state) {
  (void)state;
  int32_t a[6] = {0, 1, 2, 3, 4, 5}; /* [[0, 1, 2], [3, 4, 5]] */
  int32_t out[6] = {-1, -1, -1, -1, -1, -1};
  jg_layout rows, t, dense;
  JGT_OK(jg_layout_init(&rows, 2, (jg_len[]){2, 3}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_permute(&t, &rows, (int[]){1, 0}, &jgt_err_)); /* (3, 2), strides (1, 3) */
  JGT_OK(jg_layout_init(&dense, 2, (jg_len[]){3, 2}, NULL, 4, &jgt_err_));
  jg_view sv = host_view(a, &t, JG_DTYPE_INT32, true);
  jg_view dv = host_view(out, &dense, JG_DTYPE_INT32, false);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  const int32_t want[6] = {0, 3, 1, 4, 2, 5};
  assert_memory_equal(out, want, sizeof want);
}

static void test_reversed_stepped_values(void **state) {
  (void)state;
  int32_t a[10];
  for (int i = 0; i < 10; ++i) a[i] = i;
  jg_layout l, r;
  JGT_OK(jg_layout_init(&l, 1, (jg_len[]){10}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_slice(&r, &l, 1, (jg_slice[]){JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -2)},
                         &jgt_err_)); /* a[::-2] = 9, 7, 5, 3, 1 */
  int32_t out[5] = {0};
  jg_layout d;
  JGT_OK(jg_layout_init(&d, 1, (jg_len[]){5}, NULL, 4, &jgt_err_));
  jg_view sv = host_view(a, &r, JG_DTYPE_INT32, true);
  jg_view dv = host_view(out, &d, JG_DTYPE_INT32, false);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  const int32_t want[5] = {9, 7, 5, 3, 1};
  assert_memory_equal(out, want, sizeof want);

  /* Reversed into reversed: out[::-1] = a[::-1] of 5 elements is a plain copy. */
  int32_t out2[5] = {0};
  jg_layout d5, r5;
  JGT_OK(jg_layout_init(&d5, 1, (jg_len[]){5}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_slice(&r5, &d5, 1, (jg_slice[]){JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -1)},
                         &jgt_err_));
  jg_view s5 = host_view(a, &r5, JG_DTYPE_INT32, true);
  jg_view d5v = host_view(out2, &r5, JG_DTYPE_INT32, false);
  JGT_OK(jg_copy(&d5v, &s5, &jgt_err_));
  const int32_t want2[5] = {0, 1, 2, 3, 4};
  assert_memory_equal(out2, want2, sizeof want2);
}

static void test_broadcast_values(void **state) {
  (void)state;
  /* A scalar broadcast to (2, 3), and a row (3,) broadcast to (2, 3). */
  double seven = 7.0;
  double row[3] = {1.5, 2.5, 3.5};
  double out[6];
  jg_layout scalar, rowl, dense;
  JGT_OK(jg_layout_init(&scalar, 2, (jg_len[]){2, 3}, (jg_stride[]){0, 0}, 8, &jgt_err_));
  JGT_OK(jg_layout_init(&rowl, 2, (jg_len[]){2, 3}, (jg_stride[]){0, 1}, 8, &jgt_err_));
  JGT_OK(jg_layout_init(&dense, 2, (jg_len[]){2, 3}, NULL, 8, &jgt_err_));
  jg_view dv = host_view(out, &dense, JG_DTYPE_FLOAT64, false);
  jg_view sv = host_view(&seven, &scalar, JG_DTYPE_FLOAT64, true);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  for (int i = 0; i < 6; ++i) assert_true(out[i] == 7.0);
  sv = host_view(row, &rowl, JG_DTYPE_FLOAT64, true);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  const double want[6] = {1.5, 2.5, 3.5, 1.5, 2.5, 3.5};
  assert_memory_equal(out, want, sizeof want);
}

static void test_zero_d(void **state) {
  (void)state;
  int64_t a = 42, b = -1;
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 0, NULL, NULL, 8, &jgt_err_));
  jg_view sv = host_view(&a, &l, JG_DTYPE_INT64, true);
  jg_view dv = host_view(&b, &l, JG_DTYPE_INT64, false);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  assert_int_equal(b, 42);
}

/* Empty views are a no-op whatever their strides (numba issue #8477), even with NULL bases. */
static void test_empty_mismatched_strides(void **state) {
  (void)state;
  uint8_t dst[64];
  memset(dst, 0x5A, sizeof dst);
  uint8_t src[64];
  memset(src, 0x11, sizeof src);
  jg_layout dl, sl;
  JGT_OK(jg_layout_init(&dl, 2, (jg_len[]){0, 3}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&sl, 2, (jg_len[]){0, 3}, NULL, 4, &jgt_err_));
  /* Strides a foreign producer might report for empty arrays. */
  dl.strides[0] = 12;
  dl.strides[1] = 4;
  sl.strides[0] = 1;
  sl.strides[1] = -7;
  jg_view dv = host_view(dst, &dl, JG_DTYPE_FLOAT32, false);
  jg_view sv = host_view(src, &sl, JG_DTYPE_FLOAT32, true);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  JGT_OK(jg_copy_async(&dv, &sv, NULL, &jgt_err_));
  size_t tb = 0;
  JGT_OK(jg_copy_ex(&dv, &sv, NULL, &tb, NULL, &jgt_err_));
  assert_int_equal(tb, 1);
  for (size_t i = 0; i < sizeof dst; ++i) assert_int_equal(dst[i], 0x5A);
  /* NULL bases are fine for empty views. */
  jg_view dn = host_view(NULL, &dl, JG_DTYPE_FLOAT32, false);
  jg_view sn = host_view(NULL, &sl, JG_DTYPE_FLOAT32, true);
  JGT_OK(jg_copy(&dn, &sn, &jgt_err_));
  /* An empty device view needs no GPU. */
  jg_view dd;
  JGT_OK(jg_view_from_pointer(&dd, NULL, (jg_device){JG_DEVICE_CUDA, 0}, &dl, JG_DTYPE_FLOAT32,
                              false, &jgt_err_));
  JGT_OK(jg_copy(&dd, &sv, &jgt_err_));
}

/* Identical source and destination (same memory, same layout) is a no-op. */
static void test_identical_views(void **state) {
  (void)state;
  float a[12];
  for (int i = 0; i < 12; ++i) a[i] = (float)i;
  jg_layout l, t;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){3, 4}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_permute(&t, &l, (int[]){1, 0}, &jgt_err_));
  jg_view v = host_view(a, &t, JG_DTYPE_FLOAT32, false);
  JGT_OK(jg_copy(&v, &v, &jgt_err_));
  for (int i = 0; i < 12; ++i) assert_true(a[i] == (float)i);
}

/* ------------------------------------------------------------------------------------------ */
/* Overlapping source and destination                                                          */
/* ------------------------------------------------------------------------------------------ */

/* a = a.T in place (one pointer; src strides (1, 4), dst C order), values checked by hand. Before
 * the fix the planner's host loop read elements it had already overwritten (6 of 16 wrong). */
static void test_overlap_transpose_values(void **state) {
  (void)state;
  for (int via = VIA_COPY; via <= VIA_EX; ++via) {
    float b[16];
    for (int i = 0; i < 16; ++i) b[i] = (float)i;
    jg_layout c, t;
    JGT_OK(jg_layout_init(&c, 2, (jg_len[]){4, 4}, NULL, 4, &jgt_err_));
    JGT_OK(jg_layout_init(&t, 2, (jg_len[]){4, 4}, (jg_stride[]){1, 4}, 4, &jgt_err_));
    jg_view dv = host_view(b, &c, JG_DTYPE_FLOAT32, false);
    jg_view sv = host_view(b, &t, JG_DTYPE_FLOAT32, true);
    if (via == VIA_COPY) {
      JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
    } else if (via == VIA_ASYNC) {
      JGT_OK(jg_copy_async(&dv, &sv, NULL, &jgt_err_));
    } else {
      size_t tb = 0;
      JGT_OK(jg_copy_ex(&dv, &sv, NULL, &tb, NULL, &jgt_err_));
      assert_int_equal(tb, 1); /* host staging only: no device bytes */
      JGT_OK(jg_copy_ex(&dv, &sv, &(uint64_t){0}, &tb, NULL, &jgt_err_));
    }
    /* b[i][j] == old b[j][i] == 4 * j + i. */
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) assert_true(b[i * 4 + j] == (float)(4 * j + i));
    }
  }
}

/* Shifts by one, both directions (a memmove), and a strided shift (staged), by hand:
 * a[1:] = a[:-1] gives 0, 0, 1, ..., 30; a[:-1] = a[1:] gives 1, 2, ..., 31, 31;
 * a[2::2] = a[:-2:2] on 0..31 gives a[2k] = 2k - 2 for k >= 1, odd elements unchanged. */
static void test_overlap_shift_values(void **state) {
  (void)state;
  int32_t a[32];
  jg_layout l31, l15s2;
  JGT_OK(jg_layout_init(&l31, 1, (jg_len[]){31}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&l15s2, 1, (jg_len[]){15}, (jg_stride[]){2}, 4, &jgt_err_));
  for (int i = 0; i < 32; ++i) a[i] = i;
  jg_view dv = host_view(a + 1, &l31, JG_DTYPE_INT32, false);
  jg_view sv = host_view(a, &l31, JG_DTYPE_INT32, true);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  assert_int_equal(a[0], 0);
  for (int i = 1; i < 32; ++i) assert_int_equal(a[i], i - 1);
  for (int i = 0; i < 32; ++i) a[i] = i;
  dv = host_view(a, &l31, JG_DTYPE_INT32, false);
  sv = host_view(a + 1, &l31, JG_DTYPE_INT32, true);
  JGT_OK(jg_copy_async(&dv, &sv, NULL, &jgt_err_));
  for (int i = 0; i < 31; ++i) assert_int_equal(a[i], i + 1);
  assert_int_equal(a[31], 31);
  for (int i = 0; i < 32; ++i) a[i] = i;
  dv = host_view(a + 2, &l15s2, JG_DTYPE_INT32, false);
  sv = host_view(a, &l15s2, JG_DTYPE_INT32, true);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  for (int i = 0; i < 32; ++i) assert_int_equal(a[i], i % 2 == 1 || i == 0 ? i : i - 2);
  /* a[1::2] = a[::2]: interleaved views share no element; every pair becomes (2k, 2k). */
  for (int i = 0; i < 32; ++i) a[i] = i;
  jg_layout l16s2;
  JGT_OK(jg_layout_init(&l16s2, 1, (jg_len[]){16}, (jg_stride[]){2}, 4, &jgt_err_));
  dv = host_view(a + 1, &l16s2, JG_DTYPE_INT32, false);
  sv = host_view(a, &l16s2, JG_DTYPE_INT32, true);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  for (int i = 0; i < 32; ++i) assert_int_equal(a[i], i - i % 2);
}

/* Every overlap case of jgt_copy_cases.h, every itemsize, all three entry points, as pageable
 * host memory and (without a GPU) as managed-labelled memory; the whole arena is compared with
 * NumPy's result, so writes outside dst are caught too. */
static void test_overlap_cases(void **state) {
  (void)state;
  static const int64_t itemsizes[] = {1, 2, 4, 8, 16};
  const int nlabels = have_gpu() ? 1 : 2; /* fake managed labels only without a GPU */
  int failures = 0;
  for (size_t ci = 0; ci < JGT_OVERLAP_COUNT; ++ci) {
    const jgt_overlap_case *c = &jgt_overlap_cases[ci];
    for (size_t ii = 0; ii < sizeof itemsizes / sizeof itemsizes[0]; ++ii) {
      for (int via = VIA_COPY; via <= VIA_EX; ++via) {
        for (int label = 0; label < nlabels; ++label) {
          const int64_t isz = itemsizes[ii];
          jg_layout dl, sl;
          JGT_OK(jgt_overlap_layouts(c, isz, &dl, &sl));
          const size_t n = c->arena * (size_t)isz;
          uint8_t *arena = malloc(n), *before = malloc(n), *want = malloc(n);
          assert_non_null(arena);
          assert_non_null(before);
          assert_non_null(want);
          jgt_fill(before, n, (uint32_t)(ci * 131 + ii * 7 + (size_t)via));
          memcpy(arena, before, n);
          jgt_overlap_expect(want, before, n, &dl, &sl);
          const jg_device dev = label == 0 ? kHost : (jg_device){JG_DEVICE_CUDA_MANAGED, 0};
          const jg_dtype dt = dtype_of_size(isz);
          jg_view dv, sv;
          JGT_OK(jg_view_from_pointer(&dv, arena, dev, &dl, dt, false, &jgt_err_));
          JGT_OK(jg_view_from_pointer(&sv, arena, dev, &sl, dt, true, &jgt_err_));
          jg_error err;
          jg_error_clear(&err);
          jg_status st;
          if (via == VIA_COPY) {
            st = jg_copy(&dv, &sv, &err);
          } else if (via == VIA_ASYNC) {
            st = jg_copy_async(&dv, &sv, NULL, &err);
          } else {
            size_t tb = 0;
            st = jg_copy_ex(&dv, &sv, NULL, &tb, NULL, &err);
            if (st == JG_OK) st = jg_copy_ex(&dv, &sv, &(uint64_t){0}, &tb, NULL, &err);
          }
          if (st != JG_OK || memcmp(arena, want, n) != 0) {
            print_error("overlap case '%s', itemsize %lld, via %d, label %d: %s (%s)\n", c->name,
                        (long long)isz, via, label, jg_status_name(st), err.message);
            ++failures;
          }
          free(arena);
          free(before);
          free(want);
        }
      }
    }
  }
  assert_int_equal(failures, 0);
}

/* The same elements described differently (an extent-1 axis with another stride, a 2-D view
 * against its 1-D flattening) are recognised as identical: a no-op that cannot fail. */
static void test_overlap_identical_noop(void **state) {
  (void)state;
  float a[6] = {0, 1, 2, 3, 4, 5};
  jg_layout l1;
  JGT_OK(jg_layout_init(&l1, 3, (jg_len[]){2, 1, 3}, (jg_stride[]){3, 3, 1}, 4, &jgt_err_));
  jg_view dv = host_view(a, &l1, JG_DTYPE_FLOAT32, false);
  jg_view sv = host_view(a, &l1, JG_DTYPE_FLOAT32, true);
  sv.layout.strides[1] = 12345; /* an extent-1 axis: its stride addresses nothing */
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  size_t tb = 0;
  JGT_OK(jg_copy_ex(&dv, &sv, NULL, &tb, NULL, &jgt_err_));
  assert_int_equal(tb, 1);
  for (int i = 0; i < 6; ++i) assert_true(a[i] == (float)i);
}

/* ------------------------------------------------------------------------------------------ */
/* Hand-made views: invalid layouts and byte-offset overflow                                   */
/* ------------------------------------------------------------------------------------------ */

static void test_errors_handmade_layouts(void **state) {
  (void)state;
  double a[4] = {1, 2, 3, 4}, c[4] = {0, 0, 0, 0};
  jg_layout l2, l22;
  JGT_OK(jg_layout_init(&l2, 1, (jg_len[]){2}, NULL, 8, &jgt_err_));
  JGT_OK(jg_layout_init(&l22, 2, (jg_len[]){2, 2}, NULL, 8, &jgt_err_));
  const jg_view d2 = host_view(c, &l2, JG_DTYPE_FLOAT64, false);
  const jg_view s2 = host_view(a, &l2, JG_DTYPE_FLOAT64, true);
  jg_error err;
  size_t tb = 0;
  /* dst shape (2) stride 2^61 of float64: element offsets fit, byte offsets (2^64) do not. */
  jg_view d = d2;
  d.layout.strides[0] = INT64_C(1) << 61;
  JGT_STATUS(JG_EOVERFLOW, jg_copy(&d, &s2, &err));
  JGT_CONTAINS(err.message, "dst");
  JGT_STATUS(JG_EOVERFLOW, jg_copy_ex(&d, &s2, NULL, &tb, NULL, &err));
  assert_true(c[0] == 0 && c[1] == 0);
  /* src strides (2^62, -2^62) over (2, 2) bytes: offsets -2^62..2^62, a span of 2^63 + 1. */
  uint8_t ub[4] = {1, 2, 3, 4}, uc[4] = {0, 0, 0, 0};
  jg_layout u22;
  JGT_OK(jg_layout_init(&u22, 2, (jg_len[]){2, 2}, NULL, 1, &jgt_err_));
  jg_view ud = host_view(uc, &u22, JG_DTYPE_UINT8, false);
  jg_view us = host_view(ub, &u22, JG_DTYPE_UINT8, true);
  us.layout.strides[0] = INT64_C(1) << 62;
  us.layout.strides[1] = -(INT64_C(1) << 62);
  JGT_STATUS(JG_EOVERFLOW, jg_copy_ex(&ud, &us, NULL, &tb, NULL, &err));
  JGT_CONTAINS(err.message, "src");
  JGT_STATUS(JG_EOVERFLOW, jg_copy(&ud, &us, &err));
  /* Negative extents: (-2, -4) would multiply to a volume of 8. */
  jg_view nd = host_view(c, &l22, JG_DTYPE_FLOAT64, false);
  jg_view ns = host_view(a, &l22, JG_DTYPE_FLOAT64, true);
  nd.layout.shape[0] = -2;
  nd.layout.shape[1] = -2;
  ns.layout.shape[0] = -2;
  ns.layout.shape[1] = -2;
  JGT_STATUS(JG_EINVAL, jg_copy(&nd, &ns, &err));
  assert_int_equal(err.index, 0);
  JGT_CONTAINS(err.message, "extents must be non-negative");
  ns = host_view(a, &l22, JG_DTYPE_FLOAT64, true);
  ns.layout.shape[1] = INT64_MIN;
  nd = host_view(c, &l22, JG_DTYPE_FLOAT64, false);
  nd.layout.shape[1] = INT64_MIN;
  JGT_STATUS(JG_EINVAL, jg_copy_async(&nd, &ns, NULL, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "extents must be non-negative");
  for (int i = 0; i < 4; ++i) assert_true(c[i] == 0);
}

/* Pinned- or managed-labelled host memory needs no GPU to be copied by the host. */
static void test_host_accessible_device_types(void **state) {
  (void)state;
  int32_t a[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
  jg_layout rows, t, dense;
  JGT_OK(jg_layout_init(&rows, 2, (jg_len[]){2, 3}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_permute(&t, &rows, (int[]){1, 0}, &jgt_err_));
  JGT_OK(jg_layout_init(&dense, 2, (jg_len[]){3, 2}, NULL, 4, &jgt_err_));
  jg_view sv, dv;
  JGT_OK(jg_view_from_pointer(&sv, a, (jg_device){JG_DEVICE_CUDA_HOST, 0}, &t, JG_DTYPE_INT32, true,
                              &jgt_err_));
  JGT_OK(jg_view_from_pointer(&dv, out, (jg_device){JG_DEVICE_CUDA_MANAGED, 0}, &dense,
                              JG_DTYPE_INT32, false, &jgt_err_));
  if (have_gpu()) skip(); /* these are not real pinned/managed allocations */
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  const int32_t want[6] = {1, 4, 2, 5, 3, 6};
  assert_memory_equal(out, want, sizeof want);
}

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void test_errors_args(void **state) {
  (void)state;
  float a[12] = {0}, b[12] = {0};
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){3, 4}, NULL, 4, &jgt_err_));
  jg_view dv = host_view(a, &l, JG_DTYPE_FLOAT32, false);
  jg_view sv = host_view(b, &l, JG_DTYPE_FLOAT32, true);
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_copy(NULL, &sv, &err));
  JGT_CONTAINS(err.message, "dst is NULL");
  JGT_STATUS(JG_EINVAL, jg_copy(&dv, NULL, &err));
  JGT_CONTAINS(err.message, "src is NULL");
  JGT_STATUS(JG_EINVAL, jg_copy_async(NULL, &sv, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_copy_ex(&dv, &sv, NULL, NULL, NULL, &err));
  JGT_CONTAINS(err.message, "temp_bytes is NULL");
  assert_int_equal(jg_copy(&dv, &sv, NULL), JG_OK); /* err may be NULL */
  assert_int_equal(jg_copy(NULL, &sv, NULL), JG_EINVAL);

  /* A NULL base with elements (a hand-made view). */
  jg_view bad = dv;
  bad.base = NULL;
  JGT_STATUS(JG_EINVAL, jg_copy(&bad, &sv, &err));
  JGT_CONTAINS(err.message, "NULL base");
  /* Memory neither host- nor device-accessible. */
  bad = sv;
  bad.host_accessible = false;
  bad.device_accessible = false;
  JGT_STATUS(JG_EINVAL, jg_copy(&dv, &bad, &err));
  JGT_CONTAINS(err.message, "neither");
  /* ndim out of range. */
  bad = dv;
  bad.layout.ndim = JG_MAX_NDIM + 1;
  JGT_STATUS(JG_EINVAL, jg_copy(&bad, &sv, &err));
}

static void test_errors_dtype(void **state) {
  (void)state;
  float a[12] = {0};
  int32_t b[12] = {0};
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){3, 4}, NULL, 4, &jgt_err_));
  jg_view dv = host_view(a, &l, JG_DTYPE_FLOAT32, false);
  jg_view sv = host_view(b, &l, JG_DTYPE_INT32, true);
  jg_error err;
  JGT_STATUS(JG_EDTYPE, jg_copy(&dv, &sv, &err));
  JGT_CONTAINS(err.message, "float32");
  JGT_CONTAINS(err.message, "int32");
  JGT_STATUS(JG_EDTYPE, jg_copy_ex(&dv, &sv, NULL, &(size_t){0}, NULL, &err));
  /* A layout itemsize that disagrees with the dtype (hand-made view). */
  jg_view bad = sv;
  bad.dtype = JG_DTYPE_FLOAT64;
  JGT_STATUS(JG_EDTYPE, jg_copy(&dv, &bad, &err));
  JGT_CONTAINS(err.message, "itemsize");
  bad.dtype = JG_DTYPE_INVALID;
  JGT_STATUS(JG_EDTYPE, jg_copy(&dv, &bad, &err));
  JGT_CONTAINS(err.message, "invalid dtype");
}

static void test_errors_shape(void **state) {
  (void)state;
  float a[64] = {0}, b[64] = {0};
  jg_layout l34, l35, l341, l0;
  JGT_OK(jg_layout_init(&l34, 2, (jg_len[]){3, 4}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&l35, 2, (jg_len[]){3, 5}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&l341, 3, (jg_len[]){3, 4, 1}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&l0, 2, (jg_len[]){0, 4}, NULL, 4, &jgt_err_));
  jg_view d34 = host_view(a, &l34, JG_DTYPE_FLOAT32, false);
  jg_view s35 = host_view(b, &l35, JG_DTYPE_FLOAT32, true);
  jg_view s341 = host_view(b, &l341, JG_DTYPE_FLOAT32, true);
  jg_view s0 = host_view(b, &l0, JG_DTYPE_FLOAT32, true);
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_copy(&d34, &s35, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "axis 1");
  JGT_STATUS(JG_ESHAPE, jg_copy(&d34, &s341, &err));
  assert_int_equal(err.index, 2);
  JGT_CONTAINS(err.message, "axes");
  /* An empty source does not match a non-empty destination. */
  JGT_STATUS(JG_ESHAPE, jg_copy(&d34, &s0, &err));
  assert_int_equal(err.index, 0);
}

static void test_errors_readonly_unique(void **state) {
  (void)state;
  float a[12] = {0}, b[12] = {0};
  jg_layout l, bc, e;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){3, 4}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&bc, 2, (jg_len[]){3, 4}, (jg_stride[]){0, 1}, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&e, 2, (jg_len[]){0, 4}, NULL, 4, &jgt_err_));
  jg_view ro = host_view(a, &l, JG_DTYPE_FLOAT32, true);
  jg_view sv = host_view(b, &l, JG_DTYPE_FLOAT32, true);
  jg_error err;
  JGT_STATUS(JG_EREADONLY, jg_copy(&ro, &sv, &err));
  JGT_CONTAINS(err.message, "read-only");
  JGT_STATUS(JG_EREADONLY, jg_copy_async(&ro, &sv, NULL, &err));
  /* Read-only is checked even for empty views. */
  jg_view ro_empty = host_view(a, &e, JG_DTYPE_FLOAT32, true);
  jg_view s_empty = host_view(b, &e, JG_DTYPE_FLOAT32, true);
  JGT_STATUS(JG_EREADONLY, jg_copy(&ro_empty, &s_empty, &err));
  /* A broadcast destination is not unique. */
  jg_view bdst = host_view(a, &bc, JG_DTYPE_FLOAT32, false);
  JGT_STATUS(JG_EVALUE, jg_copy(&bdst, &sv, &err));
  JGT_CONTAINS(err.message, "not unique");
  /* ... while a broadcast source is fine. */
  jg_view dv = host_view(a, &l, JG_DTYPE_FLOAT32, false);
  jg_view bsrc = host_view(b, &bc, JG_DTYPE_FLOAT32, true);
  for (int i = 0; i < 12; ++i) b[i] = (float)(i % 4);
  JGT_OK(jg_copy(&dv, &bsrc, &jgt_err_));
  for (int i = 0; i < 12; ++i) assert_true(a[i] == (float)(i % 4));
}

static void test_errors_no_gpu(void **state) {
  (void)state;
  if (have_gpu()) skip();
  float a[12] = {0};
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){3, 4}, NULL, 4, &jgt_err_));
  /* A device view whose pointer is never dereferenced: there is no GPU to run the copy. */
  void *fake = (void *)(uintptr_t)0x10000;
  jg_view dev, host;
  JGT_OK(jg_view_from_pointer(&dev, fake, (jg_device){JG_DEVICE_CUDA, 0}, &l, JG_DTYPE_FLOAT32,
                              false, &jgt_err_));
  host = host_view(a, &l, JG_DTYPE_FLOAT32, false);
  jg_error err;
  JGT_STATUS(JG_ENODEV, jg_copy(&dev, &host, &err));
  JGT_CONTAINS(err.message, jg_cuda_unavailable_reason());
  JGT_STATUS(JG_ENODEV, jg_copy(&host, &dev, &err));
  JGT_STATUS(JG_ENODEV, jg_copy(&dev, &dev, &err));
  JGT_STATUS(JG_ENODEV, jg_copy_async(&dev, &host, NULL, &err));
  size_t tb = 0;
  JGT_STATUS(JG_ENODEV, jg_copy_ex(&dev, &host, NULL, &tb, NULL, &err));
  /* Argument errors are reported before the missing device. */
  jg_view rdev = dev;
  rdev.readonly = true;
  JGT_STATUS(JG_EREADONLY, jg_copy(&rdev, &host, &err));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matrix),
      cmocka_unit_test(test_permutations),
      cmocka_unit_test(test_transpose_values),
      cmocka_unit_test(test_reversed_stepped_values),
      cmocka_unit_test(test_broadcast_values),
      cmocka_unit_test(test_zero_d),
      cmocka_unit_test(test_empty_mismatched_strides),
      cmocka_unit_test(test_identical_views),
      cmocka_unit_test(test_host_accessible_device_types),
      cmocka_unit_test(test_errors_args),
      cmocka_unit_test(test_errors_dtype),
      cmocka_unit_test(test_errors_shape),
      cmocka_unit_test(test_errors_readonly_unique),
      cmocka_unit_test(test_errors_no_gpu),
      cmocka_unit_test(test_overlap_transpose_values),
      cmocka_unit_test(test_overlap_shift_values),
      cmocka_unit_test(test_overlap_cases),
      cmocka_unit_test(test_overlap_identical_noop),
      cmocka_unit_test(test_errors_handmade_layouts),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
