/* layout.c: strided layouts with the semantics of cuda.core's StridedLayout (see layout.h; NVIDIA
 * cuda-python, cuda_core/cuda/core/_layout.pyx). Written from the specification, not from its
 * code.
 *
 * Every operation builds its result in a local jg_layout and copies it to `out` only at the end
 * (finish()), so `out == in` works and a failed call leaves `out` untouched. finish() also
 * enforces the invariants every layout carries: zero strides when the volume is 0, zeros past
 * ndim, and a volume and offset range that fit in int64 (so that jg_layout_offset_bounds and
 * friends, which cannot fail, never overflow). All operations are O(ndim), or O(ndim^2) where
 * the stride order is needed (ndim <= 64). */
#include "jagged/layout.h"

#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_layout.h"

/* ---------------------------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------------------------- */

static bool ndim_ok(int64_t ndim) {
  return ndim >= 0 && ndim <= JG_MAX_NDIM;
}

static jg_status check_layout(const jg_layout *l, const char *op, const char *name, jg_error *err) {
  return jgi_layout_check(l, op, name, err);
}

/* |x| without overflow (|INT64_MIN| is 2^63). */
static uint64_t magnitude(int64_t x) {
  return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
  while (b != 0) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Product of `n` non-negative extents; 0 as soon as one extent is 0 (so a zero-volume shape never
 * overflows). Returns false on overflow. */
static bool checked_volume(int n, const jg_len *shape, jg_len *volume) {
  jg_len v = 1;
  bool overflow = false;
  for (int i = 0; i < n; ++i) {
    if (shape[i] == 0) {
      *volume = 0;
      return true;
    }
    if (!overflow && jgi_mul_overflow(v, shape[i], &v)) overflow = true;
  }
  if (overflow) return false;
  *volume = v;
  return true;
}

/* Normalises a possibly negative axis against `n` axes; false when out of [-n, n). */
static bool normalize_axis(int64_t *axis, int64_t n) {
  if (*axis < -n || *axis >= n) return false;
  if (*axis < 0) *axis += n;
  return true;
}

/* Starts a result layout: everything zero, with the given ndim, itemsize and slice offset. */
static void start(jg_layout *t, int ndim, int64_t itemsize, jg_offset slice_offset) {
  memset(t, 0, sizeof *t);
  t->ndim = ndim;
  t->itemsize = itemsize;
  t->slice_offset = slice_offset;
}

static bool has_zero_extent(const jg_layout *l) {
  for (int i = 0; i < l->ndim; ++i) {
    if (l->shape[i] == 0) return true;
  }
  return false;
}

/* Offset bounds with overflow detection; volume-0 layouts give (0, -1). Returns false on
 * overflow (with the axis in *axis when `axis` is not NULL) and for a negative extent, so that
 * it never overflows whatever the input. */
static bool bounds_checked_at(const jg_layout *l, jg_offset *lo, jg_offset *hi, int *axis) {
  if (has_zero_extent(l)) {
    *lo = 0;
    *hi = -1;
    return true;
  }
  jg_offset mn = l->slice_offset, mx = l->slice_offset;
  for (int i = 0; i < l->ndim; ++i) {
    if (axis != NULL) *axis = i;
    if (l->shape[i] < 0) return false;
    jg_offset span; /* shape[i] >= 1 here, so shape[i] - 1 cannot overflow */
    if (jgi_mul_overflow(l->strides[i], l->shape[i] - 1, &span)) return false;
    if (l->strides[i] <= 0) {
      if (jgi_add_overflow(mn, span, &mn)) return false;
    } else {
      if (jgi_add_overflow(mx, span, &mx)) return false;
    }
  }
  *lo = mn;
  *hi = mx;
  return true;
}

static bool bounds_checked(const jg_layout *l, jg_offset *lo, jg_offset *hi) {
  return bounds_checked_at(l, lo, hi, NULL);
}

/* ---------------------------------------------------------------------------------------------
 * Validation of caller-supplied layouts (jgi_layout.h)
 * ------------------------------------------------------------------------------------------- */

typedef enum layout_fault {
  FAULT_NONE = 0,
  FAULT_NULL,
  FAULT_NDIM,
  FAULT_ITEMSIZE,
  FAULT_EXTENT, /* *axis: the first negative extent */
  FAULT_VOLUME,
  FAULT_OFFSET /* *axis: where an element offset overflowed */
} layout_fault;

static layout_fault layout_diagnose(const jg_layout *l, int *axis) {
  *axis = -1;
  if (l == NULL) return FAULT_NULL;
  if (!ndim_ok(l->ndim)) return FAULT_NDIM;
  if (l->itemsize <= 0) return FAULT_ITEMSIZE;
  for (int i = 0; i < l->ndim; ++i) {
    if (l->shape[i] < 0) {
      *axis = i;
      return FAULT_EXTENT;
    }
  }
  jg_len volume;
  if (!checked_volume(l->ndim, l->shape, &volume)) return FAULT_VOLUME;
  if (volume == 0) return FAULT_NONE;
  jg_offset lo, hi;
  if (!bounds_checked_at(l, &lo, &hi, axis)) return FAULT_OFFSET;
  *axis = -1;
  return FAULT_NONE;
}

bool jgi_layout_valid(const jg_layout *l) {
  int axis;
  return layout_diagnose(l, &axis) == FAULT_NONE;
}

jg_status jgi_layout_check(const jg_layout *l, const char *op, const char *name, jg_error *err) {
  int axis = -1;
  switch (layout_diagnose(l, &axis)) {
    case FAULT_NONE:
      return JG_OK;
    case FAULT_NULL:
      return jg_error_set(err, JG_EINVAL, -1, "%s: %s is NULL", op, name);
    case FAULT_NDIM:
      return jg_error_set(err, JG_EINVAL, -1, "%s: %s has ndim %d, not in [0, %d]", op, name,
                          (int)l->ndim, JG_MAX_NDIM);
    case FAULT_ITEMSIZE:
      return jg_error_set(err, JG_EINVAL, -1, "%s: %s has itemsize %lld, not positive", op, name,
                          (long long)l->itemsize);
    case FAULT_EXTENT:
      return jg_error_set(err, JG_EINVAL, axis,
                          "%s: %s has extent %lld at axis %d: extents must be non-negative", op,
                          name, (long long)l->shape[axis], axis);
    case FAULT_VOLUME:
      return jg_error_set(err, JG_EOVERFLOW, -1, "%s: the volume of %s overflows int64", op, name);
    case FAULT_OFFSET:
      return jg_error_set(err, JG_EOVERFLOW, axis,
                          "%s: an element offset of %s overflows int64 (at axis %d; slice offset "
                          "%lld)",
                          op, name, axis, (long long)l->slice_offset);
  }
  return jg_error_set(err, JG_EINTERNAL, -1, "%s: unreachable layout check", op);
}

jg_status jgi_layout_check_bytes(const jg_layout *l, const char *op, const char *name,
                                 jg_error *err) {
  JG_RETURN_NOT_OK(jgi_layout_check(l, op, name, err));
  jg_offset lo, hi;
  if (!bounds_checked(l, &lo, &hi) || hi < lo) return JG_OK; /* volume 0 (no overflow: checked) */
  int64_t a, b, span;
  const bool ovf = jgi_mul_overflow(lo, l->itemsize, &a) || jgi_add_overflow(hi, 1, &b) ||
                   jgi_mul_overflow(b, l->itemsize, &b) || jgi_sub_overflow(hi, lo, &span) ||
                   jgi_add_overflow(span, 1, &span) || jgi_mul_overflow(span, l->itemsize, &span);
  JG_RETURN_IF(ovf, JG_EOVERFLOW, err,
               "%s: byte offsets of %s overflow int64 (element offsets %lld..%lld of %lld bytes)",
               op, name, (long long)lo, (long long)hi, (long long)l->itemsize);
  return JG_OK;
}

/* Checks the invariants of a freshly built `t`, zeroes strides of a zero-volume layout, and
 * copies it to `out`. */
static jg_status finish(jg_layout *out, jg_layout *t, const char *op, jg_error *err) {
  jg_len volume;
  JG_RETURN_IF(!checked_volume(t->ndim, t->shape, &volume), JG_EOVERFLOW, err,
               "%s: the volume of the result overflows int64", op);
  if (volume == 0) {
    for (int i = 0; i < t->ndim; ++i) t->strides[i] = 0;
  }
  jg_offset lo, hi;
  JG_RETURN_IF(!bounds_checked(t, &lo, &hi), JG_EOVERFLOW, err,
               "%s: an element offset of the result overflows int64", op);
  *out = *t;
  return JG_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Construction
 * ------------------------------------------------------------------------------------------- */

/* C-order dense strides for a shape whose volume fits in int64; all 0 for volume 0. */
static void dense_strides_c(int ndim, const jg_len *shape, jg_stride *strides) {
  for (int i = 0; i < ndim; ++i) {
    if (shape[i] == 0) {
      for (int k = 0; k < ndim; ++k) strides[k] = 0;
      return;
    }
  }
  jg_stride s = 1; /* partial products of a volume that fits: no overflow */
  for (int i = ndim - 1; i >= 0; --i) {
    strides[i] = s;
    s *= shape[i];
  }
}

/* Validates `shape` (ndim extents >= 0; NULL only for ndim 0) into t->shape. */
static jg_status take_shape(jg_layout *t, int ndim, const jg_len *shape, const char *op,
                            jg_error *err) {
  JG_RETURN_IF(!ndim_ok(ndim), JG_EINVAL, err, "%s: ndim %d is not in [0, %d]", op, ndim,
               JG_MAX_NDIM);
  JG_RETURN_IF(ndim > 0 && shape == NULL, JG_EINVAL, err, "%s: shape is NULL", op);
  for (int i = 0; i < ndim; ++i) {
    JG_RETURN_IF_AT(shape[i] < 0, JG_EINVAL, err, i,
                    "%s: extents must be non-negative, got %lld at axis %d", op,
                    (long long)shape[i], i);
    t->shape[i] = shape[i];
  }
  jg_len volume;
  JG_RETURN_IF(!checked_volume(ndim, shape, &volume), JG_EOVERFLOW, err,
               "%s: the volume of the shape overflows int64", op);
  return JG_OK;
}

jg_status jg_layout_init(jg_layout *out, int ndim, const jg_len *shape, const jg_stride *strides,
                         int64_t itemsize, jg_error *err) {
  static const char op[] = "jg_layout_init";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_IF(itemsize <= 0, JG_EINVAL, err, "%s: itemsize must be positive, got %lld", op,
               (long long)itemsize);
  jg_layout t;
  start(&t, 0, itemsize, 0);
  JG_RETURN_NOT_OK(take_shape(&t, ndim, shape, op, err));
  t.ndim = ndim;
  if (strides == NULL) {
    dense_strides_c(ndim, t.shape, t.strides);
  } else {
    for (int i = 0; i < ndim; ++i) t.strides[i] = strides[i];
  }
  return finish(out, &t, op, err);
}

jg_status jg_layout_init_byte_strides(jg_layout *out, int ndim, const jg_len *shape,
                                      const int64_t *byte_strides, int64_t itemsize,
                                      jg_error *err) {
  static const char op[] = "jg_layout_init_byte_strides";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_IF(itemsize <= 0, JG_EINVAL, err, "%s: itemsize must be positive, got %lld", op,
               (long long)itemsize);
  JG_RETURN_IF(!ndim_ok(ndim), JG_EINVAL, err, "%s: ndim %d is not in [0, %d]", op, ndim,
               JG_MAX_NDIM);
  if (byte_strides == NULL) return jg_layout_init(out, ndim, shape, NULL, itemsize, err);
  jg_stride strides[JG_MAX_NDIM];
  for (int i = 0; i < ndim; ++i) {
    JG_RETURN_IF_AT(byte_strides[i] % itemsize != 0, JG_EINVAL, err, i,
                    "%s: strides must be divisible by itemsize: byte stride %lld of axis %d is "
                    "not a multiple of %lld",
                    op, (long long)byte_strides[i], i, (long long)itemsize);
    strides[i] = byte_strides[i] / itemsize;
  }
  return jg_layout_init(out, ndim, shape, strides, itemsize, err);
}

/* Checks that `perm` (ndim axes, negative allowed) is a permutation; writes it normalised. */
static jg_status take_perm(int ndim, const int *perm, int *norm, const char *op, jg_error *err) {
  JG_RETURN_IF(ndim > 0 && perm == NULL, JG_EINVAL, err, "%s: perm is NULL", op);
  uint64_t seen = 0;
  for (int i = 0; i < ndim; ++i) {
    int64_t a = perm[i];
    JG_RETURN_IF_AT(!normalize_axis(&a, ndim), JG_EINVAL, err, i,
                    "%s: invalid stride order: axis %d at position %d out of range for %d-d", op,
                    perm[i], i, ndim);
    JG_RETURN_IF_AT(seen & ((uint64_t)1 << a), JG_EINVAL, err, i,
                    "%s: the stride order must be a permutation: axis %d appears multiple times "
                    "(position %d)",
                    op, perm[i], i);
    seen |= (uint64_t)1 << a;
    norm[i] = (int)a;
  }
  return JG_OK;
}

/* Dense strides of t (shape set, volume known to fit, strides zero) in `order`. A zero-volume
 * shape keeps all strides 0 (partial products such as 4 * 2^62 in (0, 2^62, 4) could overflow). */
static jg_status dense_into(jg_layout *t, jg_order order, const int *perm, const char *op,
                            jg_error *err) {
  int p[JG_MAX_NDIM];
  if (order == JG_ORDER_PERM) {
    JG_RETURN_NOT_OK(take_perm(t->ndim, perm, p, op, err));
  } else {
    JG_RETURN_IF(order != JG_ORDER_C && order != JG_ORDER_F, JG_EINVAL, err,
                 "%s: order must be JG_ORDER_C, JG_ORDER_F or JG_ORDER_PERM, got %d", op,
                 (int)order);
    for (int i = 0; i < t->ndim; ++i) p[i] = order == JG_ORDER_C ? i : t->ndim - 1 - i;
  }
  if (has_zero_extent(t)) return JG_OK;
  jg_stride s = 1; /* partial products of a non-zero volume that fits: no overflow */
  for (int i = t->ndim - 1; i >= 0; --i) {
    t->strides[p[i]] = s;
    s *= t->shape[p[i]];
  }
  return JG_OK;
}

jg_status jg_layout_dense(jg_layout *out, int ndim, const jg_len *shape, int64_t itemsize,
                          jg_order order, const int *perm, jg_error *err) {
  static const char op[] = "jg_layout_dense";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_IF(itemsize <= 0, JG_EINVAL, err, "%s: itemsize must be positive, got %lld", op,
               (long long)itemsize);
  jg_layout t;
  start(&t, 0, itemsize, 0);
  JG_RETURN_NOT_OK(take_shape(&t, ndim, shape, op, err));
  t.ndim = ndim;
  JG_RETURN_NOT_OK(dense_into(&t, order, perm, op, err));
  return finish(out, &t, op, err);
}

jg_status jg_layout_dense_like(jg_layout *out, const jg_layout *in, jg_order order, const int *perm,
                               jg_error *err) {
  static const char op[] = "jg_layout_dense_like";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  int order_perm[JG_MAX_NDIM];
  if (order == JG_ORDER_K) {
    if (jg_layout_is_dense(in)) {
      *out = *in;
      return JG_OK;
    }
    jg_layout_stride_order(in, order_perm);
    order = JG_ORDER_PERM;
    perm = order_perm;
  } else if (order == JG_ORDER_C && jg_layout_is_dense(in) && jg_layout_is_contiguous_c(in)) {
    *out = *in;
    return JG_OK;
  } else if (order == JG_ORDER_F && jg_layout_is_dense(in) && jg_layout_is_contiguous_f(in)) {
    *out = *in;
    return JG_OK;
  }
  jg_layout t;
  start(&t, in->ndim, in->itemsize, 0);
  memcpy(t.shape, in->shape, sizeof(jg_len) * (size_t)in->ndim);
  JG_RETURN_NOT_OK(dense_into(&t, order, perm, op, err));
  return finish(out, &t, op, err);
}

jg_status jg_layout_to_dense(jg_layout *out, const jg_layout *in, jg_error *err) {
  return jg_layout_dense_like(out, in, JG_ORDER_K, NULL, err);
}

/* ---------------------------------------------------------------------------------------------
 * Properties
 * ------------------------------------------------------------------------------------------- */

jg_len jg_layout_volume(const jg_layout *l) {
  if (!jgi_layout_valid(l)) return -1;
  jg_len v;
  return checked_volume(l->ndim, l->shape, &v) ? v : -1;
}

jg_status jg_layout_strides_in_bytes(const jg_layout *l, int64_t *byte_strides, jg_error *err) {
  static const char op[] = "jg_layout_strides_in_bytes";
  JG_RETURN_NOT_OK(check_layout(l, op, "l", err));
  JG_RETURN_IF(l->ndim > 0 && byte_strides == NULL, JG_EINVAL, err, "%s: byte_strides is NULL", op);
  int64_t tmp[JG_MAX_NDIM];
  for (int i = 0; i < l->ndim; ++i) {
    JG_RETURN_IF_AT(jgi_mul_overflow(l->strides[i], l->itemsize, &tmp[i]), JG_EOVERFLOW, err, i,
                    "%s: stride %lld of axis %d times itemsize %lld overflows int64", op,
                    (long long)l->strides[i], i, (long long)l->itemsize);
  }
  for (int i = 0; i < l->ndim; ++i) byte_strides[i] = tmp[i];
  return JG_OK;
}

/* True when axis a sorts before axis b in the stride order. */
static bool order_before(const jg_layout *l, int a, int b) {
  uint64_t sa = magnitude(l->strides[a]), sb = magnitude(l->strides[b]);
  if (sa != sb) return sa > sb;
  if (l->shape[a] != l->shape[b]) return l->shape[a] > l->shape[b];
  return a < b;
}

void jg_layout_stride_order(const jg_layout *l, int *perm) {
  if (perm == NULL || !jgi_layout_valid(l)) return;
  /* Insertion sort: at most 64 axes, usually a handful, often already sorted. */
  for (int i = 0; i < l->ndim; ++i) {
    int axis = i, j = i;
    while (j > 0 && order_before(l, axis, perm[j - 1])) {
      perm[j] = perm[j - 1];
      --j;
    }
    perm[j] = axis;
  }
}

void jg_layout_offset_bounds(const jg_layout *l, jg_offset *min_offset, jg_offset *max_offset) {
  jg_offset lo = 0, hi = -1;
  /* A valid layout's bounds fit (that is part of validity), so bounds_checked succeeds; an
   * invalid layout is treated as NULL. */
  if (jgi_layout_valid(l)) (void)bounds_checked(l, &lo, &hi);
  if (min_offset != NULL) *min_offset = lo;
  if (max_offset != NULL) *max_offset = hi;
}

/* C-contiguity of the axes taken in the order axes[0..ndim) (slowest first). */
static bool contiguous_in_order(const jg_layout *l, const int *axes) {
  if (has_zero_extent(l)) return true;
  jg_stride expect = 1;
  for (int j = l->ndim - 1; j >= 0; --j) {
    int a = axes == NULL ? j : axes[j];
    if (l->shape[a] == 1) continue;
    if (l->strides[a] != expect) return false;
    if (jgi_mul_overflow(expect, l->shape[a], &expect)) return false;
  }
  return true;
}

bool jg_layout_is_contiguous_c(const jg_layout *l) {
  if (!jgi_layout_valid(l)) return false;
  return contiguous_in_order(l, NULL);
}

bool jg_layout_is_contiguous_f(const jg_layout *l) {
  if (!jgi_layout_valid(l)) return false;
  int axes[JG_MAX_NDIM];
  for (int i = 0; i < l->ndim; ++i) axes[i] = l->ndim - 1 - i;
  return contiguous_in_order(l, axes);
}

bool jg_layout_is_contiguous_any(const jg_layout *l) {
  if (!jgi_layout_valid(l)) return false;
  if (has_zero_extent(l)) return true;
  int order[JG_MAX_NDIM];
  jg_layout_stride_order(l, order);
  return contiguous_in_order(l, order);
}

bool jg_layout_is_dense(const jg_layout *l) {
  return l != NULL && l->slice_offset == 0 && jg_layout_is_contiguous_any(l);
}

bool jg_layout_is_unique(const jg_layout *l) {
  if (!jgi_layout_valid(l)) return false;
  if (has_zero_extent(l)) return true;
  int order[JG_MAX_NDIM];
  jg_layout_stride_order(l, order);
  /* From the smallest |stride| up, each stride must step past everything reachable so far. */
  uint64_t reach = 0;
  for (int j = l->ndim - 1; j >= 0; --j) {
    int a = order[j];
    if (l->shape[a] == 1) continue;
    uint64_t s = magnitude(l->strides[a]);
    if (reach >= s) return false;
    uint64_t span = s * (uint64_t)(l->shape[a] - 1);
    /* For a valid layout the total span is max_offset - min_offset < 2^64; give the
     * conservative answer if that is ever exceeded. */
    if (span / (uint64_t)(l->shape[a] - 1) != s || reach + span < reach) return false;
    reach += span;
  }
  return true;
}

jg_status jg_layout_required_size(const jg_layout *l, size_t *bytes, jg_error *err) {
  static const char op[] = "jg_layout_required_size";
  JG_RETURN_NOT_OK(check_layout(l, op, "l", err));
  JG_RETURN_IF(bytes == NULL, JG_EINVAL, err, "%s: bytes is NULL", op);
  jg_offset lo, hi;
  JG_RETURN_IF(!bounds_checked(l, &lo, &hi), JG_EOVERFLOW, err,
               "%s: an element offset overflows int64", op);
  JG_RETURN_IF(lo < 0, JG_EINVAL, err,
               "%s: the size of a layout that maps elements to negative offsets is ambiguous "
               "(min offset %lld)",
               op, (long long)lo);
  if (hi < lo) {
    *bytes = 0;
    return JG_OK;
  }
  int64_t n;
  JG_RETURN_IF(jgi_add_overflow(hi, (int64_t)1, &n) || jgi_mul_overflow(n, l->itemsize, &n),
               JG_EOVERFLOW, err, "%s: (max offset %lld + 1) * itemsize %lld overflows int64", op,
               (long long)hi, (long long)l->itemsize);
  JG_RETURN_IF((uint64_t)n > (uint64_t)SIZE_MAX, JG_EOVERFLOW, err,
               "%s: %lld bytes do not fit in size_t", op, (long long)n);
  *bytes = (size_t)n;
  return JG_OK;
}

bool jg_layout_equal(const jg_layout *a, const jg_layout *b) {
  if (!jgi_layout_valid(a) || !jgi_layout_valid(b)) return false;
  if (a->itemsize != b->itemsize || a->slice_offset != b->slice_offset || a->ndim != b->ndim) {
    return false;
  }
  for (int i = 0; i < a->ndim; ++i) {
    if (a->shape[i] != b->shape[i] || a->strides[i] != b->strides[i]) return false;
  }
  return true;
}

/* ---------------------------------------------------------------------------------------------
 * Flatten, reshape
 * ------------------------------------------------------------------------------------------- */

/* Whether axis i (>= 1) can merge into axis i - 1: strides[i-1] == strides[i] * shape[i]. */
static bool mergeable(const jg_len *shape, const jg_stride *strides, int i) {
  jg_stride s;
  return !jgi_mul_overflow(strides[i], shape[i], &s) && s == strides[i - 1];
}

/* Product of extents for a merged run; `zero` remembers a 0 extent so that a run such as
 * (2^40, 2^40, 0) of a zero-volume layout is 0 rather than an overflow. */
typedef struct run_extent {
  jg_len value;
  bool zero;
  bool overflow;
} run_extent;

static void run_begin(run_extent *r, jg_len e) {
  r->value = e;
  r->zero = e == 0;
  r->overflow = false;
}

static void run_times(run_extent *r, jg_len e) {
  if (e == 0) r->zero = true;
  if (!r->zero && !r->overflow && jgi_mul_overflow(r->value, e, &r->value)) r->overflow = true;
}

/* Merges runs of adjacent mergeable axes whose bits are set in `mask` (bit i: merge axis i into
 * axis i-1). Writes the merged axes (at most n; 1 for n == 0: shape (1,), stride (1,)) and
 * returns their number, or -1 when a merged extent overflows int64 (possible only for a
 * zero-volume layout whose zero extent lies outside the run, as when a mask keeps it apart). */
static int merge_axes(int n, const jg_len *shape, const jg_stride *strides, uint64_t mask,
                      jg_len *oshape, jg_stride *ostrides) {
  if (n == 0) {
    oshape[0] = 1;
    ostrides[0] = 1;
    return 1;
  }
  int m = 0;
  run_extent ext;
  run_begin(&ext, shape[0]);
  jg_stride str = strides[0];
  for (int i = 1; i <= n; ++i) {
    if (i < n && ((mask >> i) & 1u) && mergeable(shape, strides, i)) {
      run_times(&ext, shape[i]);
      str = strides[i];
      continue;
    }
    if (ext.overflow && !ext.zero) return -1;
    oshape[m] = ext.zero ? 0 : ext.value;
    ostrides[m] = str;
    ++m;
    if (i < n) {
      run_begin(&ext, shape[i]);
      str = strides[i];
    }
  }
  return m;
}

uint64_t jg_layout_flatten_mask(const jg_layout *l) {
  if (!jgi_layout_valid(l)) return 0;
  uint64_t mask = 0;
  for (int i = 1; i < l->ndim; ++i) {
    if (mergeable(l->shape, l->strides, i)) mask |= (uint64_t)1 << i;
  }
  return mask;
}

jg_status jg_layout_flatten(jg_layout *out, const jg_layout *in, int start_axis, int end_axis,
                            uint64_t mask, jg_error *err) {
  static const char op[] = "jg_layout_flatten";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  int n = in->ndim;
  if (!(start_axis == 0 && end_axis == -1)) {
    int64_t s = start_axis, e = end_axis;
    JG_RETURN_IF_AT(!normalize_axis(&s, n), JG_EINVAL, err, start_axis,
                    "%s: invalid start axis: %d out of range for %d-d", op, start_axis, n);
    JG_RETURN_IF_AT(!normalize_axis(&e, n), JG_EINVAL, err, end_axis,
                    "%s: invalid end axis: %d out of range for %d-d", op, end_axis, n);
    JG_RETURN_IF_AT(s > e, JG_EINVAL, err, start_axis, "%s: start axis %d comes after end axis %d",
                    op, start_axis, end_axis);
    /* Bits s+1 .. e: axes that may merge into their left neighbour inside [s, e]. */
    uint64_t upto_e = e >= 63 ? UINT64_MAX : (((uint64_t)1 << (e + 1)) - 1);
    uint64_t from_s1 = s >= 63 ? 0 : (UINT64_MAX << (s + 1));
    mask &= upto_e & from_s1;
  }
  jg_layout t;
  start(&t, 0, in->itemsize, in->slice_offset);
  int m = merge_axes(n, in->shape, in->strides, mask, t.shape, t.strides);
  JG_RETURN_IF(m < 0, JG_EOVERFLOW, err, "%s: a merged extent overflows int64", op);
  t.ndim = m;
  return finish(out, &t, op, err);
}

typedef enum split_result { SPLIT_OK, SPLIT_INCOMPATIBLE, SPLIT_OVERFLOW } split_result;

/* Splits the (merged) old axes into the new extents t->shape[0..t->ndim), from the right,
 * writing t->strides. Both volumes are equal and non-zero. */
static split_result split_axes(int n, const jg_len *shape, const jg_stride *strides, jg_layout *t) {
  int k = t->ndim - 1;
  for (int i = n - 1; i >= 0; --i) {
    jg_len covered = 1;          /* product of the new extents given to old axis i so far */
    jg_stride next = strides[i]; /* stride of the next new axis taken by old axis i */
    jg_len prev_extent = 0;      /* extent of the last new axis taken (0: none yet) */
    while (k >= 0) {
      jg_len e = t->shape[k];
      if (e != 1 && covered >= shape[i]) break;
      if (prev_extent != 0 && jgi_mul_overflow(next, prev_extent, &next)) return SPLIT_OVERFLOW;
      t->strides[k] = next;
      prev_extent = e;
      if (jgi_mul_overflow(covered, e, &covered)) return SPLIT_INCOMPATIBLE;
      --k;
    }
    if (covered != shape[i]) return SPLIT_INCOMPATIBLE;
  }
  return k < 0 ? SPLIT_OK : SPLIT_INCOMPATIBLE;
}

jg_status jg_layout_reshape(jg_layout *out, const jg_layout *in, int ndim, const jg_len *shape,
                            jg_error *err) {
  static const char op[] = "jg_layout_reshape";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  JG_RETURN_IF(!ndim_ok(ndim), JG_EINVAL, err, "%s: ndim %d is not in [0, %d]", op, ndim,
               JG_MAX_NDIM);
  JG_RETURN_IF(ndim > 0 && shape == NULL, JG_EINVAL, err, "%s: shape is NULL", op);

  jg_layout t;
  start(&t, ndim, in->itemsize, in->slice_offset);
  int inferred = -1;
  for (int i = 0; i < ndim; ++i) {
    JG_RETURN_IF_AT(shape[i] < -1, JG_EINVAL, err, i,
                    "%s: extents must be non-negative (or one -1), got %lld at position %d", op,
                    (long long)shape[i], i);
    if (shape[i] == -1) {
      JG_RETURN_IF_AT(inferred >= 0, JG_EINVAL, err, i,
                      "%s: there can be at most one -1 extent (positions %d and %d)", op, inferred,
                      i);
      inferred = i;
      t.shape[i] = 1;
    } else {
      t.shape[i] = shape[i];
    }
  }
  jg_len old_volume = jg_layout_volume(in), new_volume;
  JG_RETURN_IF(old_volume < 0, JG_EOVERFLOW, err, "%s: the volume of in overflows int64", op);
  JG_RETURN_IF(!checked_volume(ndim, t.shape, &new_volume), JG_EOVERFLOW, err,
               "%s: the volume of the new shape overflows int64", op);
  if (inferred < 0) {
    JG_RETURN_IF(new_volume != old_volume, JG_ESHAPE, err,
                 "%s: the original volume %lld and the new volume %lld must be equal", op,
                 (long long)old_volume, (long long)new_volume);
  } else {
    JG_RETURN_IF_AT(new_volume == 0, JG_EINVAL, err, inferred,
                    "%s: the -1 extent (position %d) is ambiguous when the specified sub-volume "
                    "is 0",
                    op, inferred);
    JG_RETURN_IF(old_volume % new_volume != 0, JG_ESHAPE, err,
                 "%s: the original volume %lld must be divisible by the specified sub-volume "
                 "%lld",
                 op, (long long)old_volume, (long long)new_volume);
    t.shape[inferred] = old_volume / new_volume;
  }
  if (old_volume == 0) return finish(out, &t, op, err); /* all strides 0 */

  /* cuda.core's rule: merge the old axes in C index order, then split them into the new
   * extents. If that fails, retry without the old extent-1 axes, whose strides carry no
   * information (NumPy's rule; cuda.core would fail, e.g. shape (3, 1, 4) strides (4, 1, 1)
   * to (12,)). Successful cuda.core results are thus unchanged. */
  jg_len mshape[JG_MAX_NDIM];
  jg_stride mstrides[JG_MAX_NDIM];
  /* The volume is non-zero and fits, so no merged extent overflows (merge_axes never fails). */
  int m = merge_axes(in->ndim, in->shape, in->strides, UINT64_MAX, mshape, mstrides);
  JG_DCHECK(m > 0);
  split_result r = split_axes(m, mshape, mstrides, &t);
  if (r == SPLIT_INCOMPATIBLE) {
    jg_len sshape[JG_MAX_NDIM];
    jg_stride sstrides[JG_MAX_NDIM];
    int s = 0;
    for (int i = 0; i < in->ndim; ++i) {
      if (in->shape[i] != 1) {
        sshape[s] = in->shape[i];
        sstrides[s] = in->strides[i];
        ++s;
      }
    }
    if (s != in->ndim) {
      m = merge_axes(s, sshape, sstrides, UINT64_MAX, mshape, mstrides);
      r = split_axes(m, mshape, mstrides, &t);
    }
  }
  JG_RETURN_IF(r == SPLIT_OVERFLOW, JG_EOVERFLOW, err,
               "%s: a stride of the reshaped layout overflows int64", op);
  JG_RETURN_IF(r != SPLIT_OK, JG_ESHAPE, err,
               "%s: layout strides are incompatible with the new shape (a copy is needed)", op);
  return finish(out, &t, op, err);
}

/* ---------------------------------------------------------------------------------------------
 * Permute, squeeze, unsqueeze, broadcast
 * ------------------------------------------------------------------------------------------- */

jg_status jg_layout_permute(jg_layout *out, const jg_layout *in, const int *axes, jg_error *err) {
  static const char op[] = "jg_layout_permute";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  int n = in->ndim;
  JG_RETURN_IF(n > 0 && axes == NULL, JG_EINVAL, err, "%s: axes is NULL", op);
  jg_layout t;
  start(&t, n, in->itemsize, in->slice_offset);
  uint64_t seen = 0;
  for (int i = 0; i < n; ++i) {
    int64_t a = axes[i];
    JG_RETURN_IF_AT(!normalize_axis(&a, n), JG_EINVAL, err, i,
                    "%s: invalid permutation: axis %d (position %d) out of range for %d-d", op,
                    axes[i], i, n);
    JG_RETURN_IF_AT(seen & ((uint64_t)1 << a), JG_EINVAL, err, i,
                    "%s: invalid permutation: axis %d (position %d) appears multiple times", op,
                    axes[i], i);
    seen |= (uint64_t)1 << a;
    t.shape[i] = in->shape[a];
    t.strides[i] = in->strides[a];
  }
  return finish(out, &t, op, err);
}

jg_status jg_layout_squeeze(jg_layout *out, const jg_layout *in, jg_error *err) {
  static const char op[] = "jg_layout_squeeze";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  jg_layout t;
  start(&t, 0, in->itemsize, in->slice_offset);
  if (has_zero_extent(in)) {
    t.ndim = 1; /* shape (0,), strides (0,) */
  } else {
    for (int i = 0; i < in->ndim; ++i) {
      if (in->shape[i] != 1) {
        t.shape[t.ndim] = in->shape[i];
        t.strides[t.ndim] = in->strides[i];
        ++t.ndim;
      }
    }
  }
  return finish(out, &t, op, err);
}

jg_status jg_layout_unsqueeze(jg_layout *out, const jg_layout *in, int naxes, const int *axes,
                              jg_error *err) {
  static const char op[] = "jg_layout_unsqueeze";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  JG_RETURN_IF(naxes < 0, JG_EINVAL, err, "%s: naxes must be non-negative, got %d", op, naxes);
  JG_RETURN_IF(naxes > 0 && axes == NULL, JG_EINVAL, err, "%s: axes is NULL", op);
  int n = in->ndim;
  /* n + naxes may overflow int (naxes up to INT_MAX): compare and print without forming it. */
  JG_RETURN_IF(naxes > JG_MAX_NDIM - n, JG_EINVAL, err,
               "%s: the result would have %d + %d = %lld axes, more than %d", op, n, naxes,
               (long long)n + (long long)naxes, JG_MAX_NDIM);
  int out_n = n + naxes;
  uint64_t inserted = 0;
  for (int i = 0; i < naxes; ++i) {
    int64_t a = axes[i];
    JG_RETURN_IF_AT(!normalize_axis(&a, out_n), JG_EINVAL, err, i,
                    "%s: invalid axis: %d (position %d) out of range for the %d-d result", op,
                    axes[i], i, out_n);
    JG_RETURN_IF_AT(inserted & ((uint64_t)1 << a), JG_EINVAL, err, i,
                    "%s: axis %d (position %d) appears multiple times", op, axes[i], i);
    inserted |= (uint64_t)1 << a;
  }
  jg_layout t;
  start(&t, out_n, in->itemsize, in->slice_offset);
  int src = 0;
  for (int i = 0; i < out_n; ++i) {
    if (inserted & ((uint64_t)1 << i)) {
      t.shape[i] = 1;
      if (src < n) {
        JG_RETURN_IF_AT(jgi_mul_overflow(in->shape[src], in->strides[src], &t.strides[i]),
                        JG_EOVERFLOW, err, i,
                        "%s: the stride of the inserted axis %d (extent %lld * stride %lld) "
                        "overflows int64",
                        op, i, (long long)in->shape[src], (long long)in->strides[src]);
      } else {
        t.strides[i] = n > 0 ? in->strides[n - 1] : 1;
      }
    } else {
      t.shape[i] = in->shape[src];
      t.strides[i] = in->strides[src];
      ++src;
    }
  }
  return finish(out, &t, op, err);
}

jg_status jg_layout_broadcast_to(jg_layout *out, const jg_layout *in, int ndim, const jg_len *shape,
                                 jg_error *err) {
  static const char op[] = "jg_layout_broadcast_to";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  JG_RETURN_IF(ndim < in->ndim, JG_EINVAL, err,
               "%s: the broadcast shape has %d axes; it must have at least the input's %d", op,
               ndim, (int)in->ndim);
  jg_layout t;
  start(&t, 0, in->itemsize, in->slice_offset);
  JG_RETURN_NOT_OK(take_shape(&t, ndim, shape, op, err));
  t.ndim = ndim;
  int diff = ndim - in->ndim;
  for (int i = 0; i < in->ndim; ++i) {
    int k = i + diff;
    if (in->shape[i] == t.shape[k]) {
      t.strides[k] = in->strides[i];
    } else {
      JG_RETURN_IF_AT(in->shape[i] != 1, JG_ESHAPE, err, k,
                      "%s: shapes cannot be broadcast together: extent %lld of input axis %d "
                      "must be 1 or equal %lld (axis %d of the new shape)",
                      op, (long long)in->shape[i], i, (long long)t.shape[k], k);
      t.strides[k] = 0;
    }
  }
  return finish(out, &t, op, err);
}

/* ---------------------------------------------------------------------------------------------
 * Repack
 * ------------------------------------------------------------------------------------------- */

jg_status jg_layout_repack(jg_layout *out, const jg_layout *in, int64_t new_itemsize,
                           uintptr_t data_ptr, int axis, bool keep_dim, jg_error *err) {
  static const char op[] = "jg_layout_repack";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  JG_RETURN_IF(new_itemsize <= 0, JG_EINVAL, err,
               "%s: new itemsize must be greater than zero, got %lld", op, (long long)new_itemsize);
  if (new_itemsize == in->itemsize) {
    *out = *in;
    return JG_OK;
  }
  int n = in->ndim;
  int64_t a = axis;
  JG_RETURN_IF_AT(!normalize_axis(&a, n), JG_EINVAL, err, axis,
                  "%s: invalid axis: %d out of range for %d-d", op, axis, n);
  bool pack = new_itemsize > in->itemsize;
  int64_t big = pack ? new_itemsize : in->itemsize, small = pack ? in->itemsize : new_itemsize;
  JG_RETURN_IF(big % small != 0, JG_EINVAL, err,
               "%s: itemsizes %lld and %lld are not multiples of each other", op,
               (long long)in->itemsize, (long long)new_itemsize);
  int64_t k = big / small;
  JG_RETURN_IF(pack && (uint64_t)data_ptr % (uint64_t)new_itemsize != 0, JG_EINVAL, err,
               "%s: the data pointer (0x%llx) must be aligned to the packed itemsize (%lld)", op,
               (unsigned long long)data_ptr, (long long)new_itemsize);
  JG_RETURN_IF_AT(in->shape[a] == 0, JG_EINVAL, err, a,
                  "%s: the axis %d extent must be non-zero, got 0", op, (int)a);
  JG_RETURN_IF_AT(in->strides[a] != 1, JG_EINVAL, err, a,
                  "%s: the axis %d stride must be 1, got %lld", op, (int)a,
                  (long long)in->strides[a]);

  jg_layout t;
  start(&t, 0, new_itemsize, 0);
  if (pack) {
    JG_RETURN_IF_AT(in->shape[a] % k != 0, JG_EINVAL, err, a,
                    "%s: the axis %d extent (%lld) must be divisible by %lld", op, (int)a,
                    (long long)in->shape[a], (long long)k);
    JG_RETURN_IF(in->slice_offset % k != 0, JG_EINVAL, err,
                 "%s: the slice offset (%lld) must be divisible by %lld", op,
                 (long long)in->slice_offset, (long long)k);
    t.slice_offset = in->slice_offset / k;
    for (int i = 0; i < n; ++i) {
      if (i == a) {
        jg_len packed = in->shape[a] / k;
        if (keep_dim || packed != 1) {
          t.shape[t.ndim] = packed;
          t.strides[t.ndim] = 1;
          ++t.ndim;
        }
      } else {
        JG_RETURN_IF_AT(in->strides[i] % k != 0, JG_EINVAL, err, i,
                        "%s: the axis %d stride (%lld) must be divisible by %lld", op, i,
                        (long long)in->strides[i], (long long)k);
        t.shape[t.ndim] = in->shape[i];
        t.strides[t.ndim] = in->strides[i] / k;
        ++t.ndim;
      }
    }
  } else {
    JG_RETURN_IF(jgi_mul_overflow(in->slice_offset, k, &t.slice_offset), JG_EOVERFLOW, err,
                 "%s: the slice offset %lld times %lld overflows int64", op,
                 (long long)in->slice_offset, (long long)k);
    t.ndim = n;
    for (int i = 0; i < n; ++i) {
      if (i == a) {
        JG_RETURN_IF_AT(jgi_mul_overflow(in->shape[i], k, &t.shape[i]), JG_EOVERFLOW, err, i,
                        "%s: the axis %d extent %lld times %lld overflows int64", op, i,
                        (long long)in->shape[i], (long long)k);
        t.strides[i] = 1;
      } else {
        t.shape[i] = in->shape[i];
        JG_RETURN_IF_AT(jgi_mul_overflow(in->strides[i], k, &t.strides[i]), JG_EOVERFLOW, err, i,
                        "%s: the axis %d stride %lld times %lld overflows int64", op, i,
                        (long long)in->strides[i], (long long)k);
      }
    }
  }
  return finish(out, &t, op, err);
}

jg_status jg_layout_max_compatible_itemsize(const jg_layout *l, int64_t max_itemsize,
                                            uintptr_t data_ptr, int axis, int64_t *itemsize,
                                            jg_error *err) {
  static const char op[] = "jg_layout_max_compatible_itemsize";
  JG_RETURN_NOT_OK(check_layout(l, op, "l", err));
  JG_RETURN_IF(itemsize == NULL, JG_EINVAL, err, "%s: itemsize is NULL", op);
  JG_RETURN_IF(max_itemsize <= 0, JG_EINVAL, err,
               "%s: max_itemsize must be greater than zero, got %lld", op, (long long)max_itemsize);
  JG_RETURN_IF(max_itemsize < l->itemsize, JG_EINVAL, err,
               "%s: max_itemsize (%lld) cannot be less than itemsize (%lld)", op,
               (long long)max_itemsize, (long long)l->itemsize);
  int64_t a = axis;
  JG_RETURN_IF_AT(!normalize_axis(&a, l->ndim), JG_EINVAL, err, axis,
                  "%s: invalid axis: %d out of range for %d-d", op, axis, (int)l->ndim);
  if (l->strides[a] != 1 || l->shape[a] == 0) {
    *itemsize = l->itemsize;
    return JG_OK;
  }
  uint64_t g = gcd_u64((uint64_t)max_itemsize, (uint64_t)data_ptr);
  int64_t v;
  JG_RETURN_IF(jgi_mul_overflow(l->slice_offset, l->itemsize, &v), JG_EOVERFLOW, err,
               "%s: slice offset %lld times itemsize %lld overflows int64", op,
               (long long)l->slice_offset, (long long)l->itemsize);
  g = gcd_u64(g, magnitude(v));
  JG_RETURN_IF_AT(jgi_mul_overflow(l->shape[a], l->itemsize, &v), JG_EOVERFLOW, err, a,
                  "%s: extent %lld of axis %d times itemsize %lld overflows int64", op,
                  (long long)l->shape[a], (int)a, (long long)l->itemsize);
  g = gcd_u64(g, magnitude(v));
  for (int i = 0; i < l->ndim; ++i) {
    if (i == a) continue;
    JG_RETURN_IF_AT(jgi_mul_overflow(l->strides[i], l->itemsize, &v), JG_EOVERFLOW, err, i,
                    "%s: stride %lld of axis %d times itemsize %lld overflows int64", op,
                    (long long)l->strides[i], i, (long long)l->itemsize);
    g = gcd_u64(g, magnitude(v));
  }
  /* g divides max_itemsize, so it fits. It is a multiple of the itemsize unless data_ptr or
   * max_itemsize is not; then no packing is possible. */
  *itemsize = g % (uint64_t)l->itemsize == 0 ? (int64_t)g : l->itemsize;
  return JG_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Slicing
 * ------------------------------------------------------------------------------------------- */

/* CPython's PySlice_Unpack + PySlice_AdjustIndices on an axis of `length` (step != 0 and not
 * JG_SLICE_NONE here). Returns the new extent; *start becomes the first index when it is > 0. */
static jg_len adjust_slice(jg_len length, int64_t *start, int64_t *stop, int64_t step) {
  int64_t b = *start, e = *stop;
  if (b == JG_SLICE_NONE) b = step < 0 ? INT64_MAX : 0;
  if (e == JG_SLICE_NONE) e = step < 0 ? INT64_MIN : INT64_MAX;
  if (b < 0) {
    b += length;
    if (b < 0) b = step < 0 ? -1 : 0;
  } else if (b >= length) {
    b = step < 0 ? length - 1 : length;
  }
  if (e < 0) {
    e += length;
    if (e < 0) e = step < 0 ? -1 : 0;
  } else if (e >= length) {
    e = step < 0 ? length - 1 : length;
  }
  *start = b;
  *stop = e;
  if (step < 0) return e < b ? (b - e - 1) / (-step) + 1 : 0;
  return b < e ? (e - b - 1) / step + 1 : 0;
}

jg_status jg_layout_slice(jg_layout *out, const jg_layout *in, int n, const jg_slice *slices,
                          jg_error *err) {
  static const char op[] = "jg_layout_slice";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", op);
  JG_RETURN_NOT_OK(check_layout(in, op, "in", err));
  JG_RETURN_IF(n < 0, JG_EINVAL, err, "%s: the number of slices must be non-negative, got %d", op,
               n);
  JG_RETURN_IF(n > 0 && slices == NULL, JG_EINVAL, err, "%s: slices is NULL", op);
  JG_RETURN_IF_AT(n > in->ndim, JG_EINVAL, err, in->ndim,
                  "%s: the number of slices (%d) is greater than the number of dimensions (%d)", op,
                  n, (int)in->ndim);
  jg_layout t;
  start(&t, 0, in->itemsize, 0);
  jg_offset offset = in->slice_offset;
  for (int i = 0; i < n; ++i) {
    const jg_slice *s = &slices[i];
    jg_len extent = in->shape[i];
    jg_stride stride = in->strides[i];
    jg_offset delta;
    if (s->is_index) {
      int64_t idx = s->start;
      JG_RETURN_IF_AT(idx == JG_SLICE_NONE || !normalize_axis(&idx, extent), JG_EINDEX, err, i,
                      "%s: invalid index: %lld out of range for axis %d with extent %lld", op,
                      (long long)s->start, i, (long long)extent);
      JG_RETURN_IF_AT(
          jgi_mul_overflow(idx, stride, &delta) || jgi_add_overflow(offset, delta, &offset),
          JG_EOVERFLOW, err, i, "%s: the slice offset overflows int64 at slice %d", op, i);
      continue;
    }
    int64_t step = s->step == JG_SLICE_NONE ? 1 : s->step;
    JG_RETURN_IF_AT(step == 0, JG_EINVAL, err, i, "%s: slice step cannot be zero (slice %d)", op,
                    i);
    int64_t b = s->start, e = s->stop;
    jg_len new_extent = adjust_slice(extent, &b, &e, step);
    if (new_extent > 0) {
      JG_RETURN_IF_AT(
          jgi_mul_overflow(b, stride, &delta) || jgi_add_overflow(offset, delta, &offset),
          JG_EOVERFLOW, err, i, "%s: the slice offset overflows int64 at slice %d", op, i);
    }
    t.shape[t.ndim] = new_extent;
    /* An axis of extent <= 1 is never stepped along, so its stride is free: where stride * step
     * overflows it keeps the original stride (NumPy and cuda.core would keep the product). */
    if (jgi_mul_overflow(stride, step, &t.strides[t.ndim])) {
      JG_RETURN_IF_AT(new_extent > 1, JG_EOVERFLOW, err, i,
                      "%s: stride %lld times step %lld overflows int64 (slice %d)", op,
                      (long long)stride, (long long)step, i);
      t.strides[t.ndim] = stride;
    }
    ++t.ndim;
  }
  for (int i = n; i < in->ndim; ++i) {
    t.shape[t.ndim] = in->shape[i];
    t.strides[t.ndim] = in->strides[i];
    ++t.ndim;
  }
  t.slice_offset = offset;
  return finish(out, &t, op, err);
}
