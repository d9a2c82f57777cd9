/* jgt_copy_cases.h: layouts and a brute-force reference for the copy tests (host and GPU).
 *
 * The reference walks every multi-index in C order and moves itemsize bytes from
 * src + itemsize * (slice_offset + sum(i_k * stride_k)) to the same formula on dst. It shares no
 * code with the library's planner. Arenas are byte arrays that hold a layout's whole span, so a
 * comparison of the whole destination arena also catches writes outside the view. */
#ifndef JAGGED_TESTS_JGT_COPY_CASES_H
#define JAGGED_TESTS_JGT_COPY_CASES_H

#include <stdint.h>
#include <string.h>

#include "jagged/jagged.h"

/* Layout kinds of the copy matrix. */
enum {
  JGT_KIND_C = 0,    /* dense, C order */
  JGT_KIND_F,        /* dense, F order */
  JGT_KIND_PERM,     /* dense in a rotated axis order (a transpose for 2-D) */
  JGT_KIND_REV,      /* C order with every axis reversed (negative strides) */
  JGT_KIND_STEP,     /* every other element of a larger C array, starting at index 1 */
  JGT_KIND_STEP_NEG, /* as STEP, last axis walked backwards with step -3, F-ordered parent */
  JGT_KIND_BCAST,    /* stride 0 on even axes (a broadcast; only valid as a source) */
  JGT_KIND_COUNT
};

static inline const char *jgt_kind_name(int kind) {
  static const char *const names[] = {"C", "F", "perm", "rev", "step", "step-neg", "bcast"};
  return kind >= 0 && kind < JGT_KIND_COUNT ? names[kind] : "?";
}

/* Builds layout `kind` of `shape` (ndim axes) and `itemsize` into *out (jg_layout_init, then the
 * slice offset set directly). Returns the status of jg_layout_init. */
static inline jg_status jgt_layout_kind(jg_layout *out, int kind, int ndim, const jg_len *shape,
                                        int64_t itemsize) {
  jg_len ext[JG_MAX_NDIM];
  jg_len start[JG_MAX_NDIM];
  int64_t step[JG_MAX_NDIM];
  int order[JG_MAX_NDIM]; /* axes from the largest dense stride to the smallest */
  jg_stride dense[JG_MAX_NDIM] = {0};
  jg_stride strides[JG_MAX_NDIM] = {0};
  for (int k = 0; k < ndim; ++k) {
    ext[k] = shape[k];
    start[k] = 0;
    step[k] = 1;
    order[k] = k;
  }
  switch (kind) {
    case JGT_KIND_F:
      for (int k = 0; k < ndim; ++k) order[k] = ndim - 1 - k;
      break;
    case JGT_KIND_PERM:
      for (int k = 0; k < ndim; ++k) order[k] = (k + 1) % ndim;
      if (ndim >= 3) { /* not just a rotation: swap the first two */
        const int t = order[0];
        order[0] = order[1];
        order[1] = t;
      }
      break;
    case JGT_KIND_REV:
      for (int k = 0; k < ndim; ++k) {
        step[k] = -1;
        start[k] = shape[k] > 0 ? shape[k] - 1 : 0;
      }
      break;
    case JGT_KIND_STEP:
      for (int k = 0; k < ndim; ++k) {
        ext[k] = 2 * shape[k] + 1;
        step[k] = 2;
        start[k] = 1;
      }
      break;
    case JGT_KIND_STEP_NEG:
      for (int k = 0; k < ndim; ++k) {
        order[k] = ndim - 1 - k;
        ext[k] = 2 * shape[k] + 1;
        step[k] = 2;
        start[k] = 1;
      }
      if (ndim > 0) {
        const int l = ndim - 1;
        ext[l] = 3 * shape[l] + 2;
        step[l] = -3;
        start[l] = shape[l] > 0 ? 3 * (shape[l] - 1) + 1 : 0;
      }
      break;
    default:
      break;
  }
  jg_stride run = 1;
  for (int j = ndim - 1; j >= 0; --j) {
    dense[order[j]] = run;
    run *= ext[order[j]] > 0 ? ext[order[j]] : 1;
  }
  jg_offset off = 0;
  for (int k = 0; k < ndim; ++k) {
    strides[k] = dense[k] * step[k];
    off += start[k] * dense[k];
  }
  if (kind == JGT_KIND_BCAST) {
    /* Stride 0 on even axes, C order over the odd ones. */
    jg_stride r = 1;
    for (int k = ndim - 1; k >= 0; --k) {
      if (k % 2 == 0) {
        strides[k] = 0;
      } else {
        strides[k] = r;
        r *= shape[k] > 0 ? shape[k] : 1;
      }
    }
    off = 0;
  }
  jg_status st = jg_layout_init(out, ndim, shape, strides, itemsize, NULL);
  if (st != JG_OK) return st;
  jg_len volume = 1;
  for (int k = 0; k < ndim; ++k) volume *= shape[k];
  out->slice_offset = volume > 0 ? off : 0;
  return JG_OK;
}

/* Elements an arena needs for layout `l` (its largest offset + 1, at least 1); computed here
 * without the library. Sets *ok to false if some offset is negative. */
static inline size_t jgt_arena_elems(const jg_layout *l, int *ok) {
  jg_len volume = 1;
  for (int k = 0; k < l->ndim; ++k) volume *= l->shape[k];
  *ok = 1;
  if (volume == 0) return 1;
  jg_offset lo = l->slice_offset, hi = l->slice_offset;
  for (int k = 0; k < l->ndim; ++k) {
    const jg_offset e = l->strides[k] * (l->shape[k] - 1);
    if (e < 0)
      lo += e;
    else
      hi += e;
  }
  if (lo < 0) *ok = 0;
  return (size_t)hi + 1;
}

/* Fills n bytes with a pattern that differs from byte to byte (xorshift32 from seed). */
static inline void jgt_fill(uint8_t *a, size_t n, uint32_t seed) {
  uint32_t x = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    a[i] = (uint8_t)(x >> 24);
  }
}

/* The reference copy: every element of src (layout sl, arena s) to dst (layout dl, arena d),
 * visiting multi-indices in C order. The shapes must be equal. */
static inline void jgt_ref_copy(uint8_t *d, const jg_layout *dl, const uint8_t *s,
                                const jg_layout *sl) {
  const int n = dl->ndim;
  const int64_t isz = dl->itemsize;
  jg_len volume = 1;
  for (int k = 0; k < n; ++k) volume *= dl->shape[k];
  jg_len idx[JG_MAX_NDIM] = {0};
  for (jg_len e = 0; e < volume; ++e) {
    jg_offset od = dl->slice_offset, os = sl->slice_offset;
    for (int k = 0; k < n; ++k) {
      od += idx[k] * dl->strides[k];
      os += idx[k] * sl->strides[k];
    }
    memcpy(d + od * isz, s + os * isz, (size_t)isz);
    for (int k = n - 1; k >= 0; --k) {
      if (++idx[k] < dl->shape[k]) break;
      idx[k] = 0;
    }
  }
}

/* Overlapping copies: dst and src are two layouts over ONE arena of `arena` elements. The
 * expected result is NumPy's dst[...] = src, i.e. the reference copy reading a snapshot of the
 * arena taken before the copy (jgt_overlap_expect). */
typedef struct jgt_overlap_case {
  const char *name;
  int ndim;
  jg_len shape[3];
  jg_stride dst_strides[3];
  jg_offset dst_offset;
  jg_stride src_strides[3];
  jg_offset src_offset;
  size_t arena; /* elements */
} jgt_overlap_case;

static const jgt_overlap_case jgt_overlap_cases[] = {
    /* a = a.T in place, 4 x 4 (a small tile) and 33 x 33 (the tiled kernel's partial tiles). */
    {"in-place transpose 4x4", 2, {4, 4}, {4, 1}, 0, {1, 4}, 0, 16},
    {"in-place transpose 33x33", 2, {33, 33}, {33, 1}, 0, {1, 33}, 0, 33 * 33},
    /* a[1:] = a[:-1] and a[:-1] = a[1:]: one contiguous run each (memmove on the host). */
    {"shift right by 1", 1, {1023}, {1}, 1, {1}, 0, 1024},
    {"shift left by 1", 1, {1023}, {1}, 0, {1}, 1, 1024},
    /* a[2::2] = a[:-2:2] and back: strided, overlapping elements. */
    {"strided shift right", 1, {15}, {2}, 2, {2}, 0, 32},
    {"strided shift left", 1, {15}, {2}, 0, {2}, 2, 32},
    /* a[1::2] = a[::2]: interleaved, no shared element, but intersecting byte ranges. */
    {"interleaved a[1::2] = a[::2]", 1, {16}, {2}, 1, {2}, 0, 32},
    /* a[:] = a[::-1]: the same elements in another order. */
    {"in-place reversal", 1, {33}, {1}, 0, {-1}, 32, 33},
    /* rows 1..3 of a 4 x 5 matrix (first 4 columns) = rows 0..2: a 2-D shift. */
    {"2-D row shift", 2, {3, 4}, {5, 1}, 5, {5, 1}, 0, 20},
    /* every row of a 4 x 4 matrix = its row 1 (a broadcast source inside dst). */
    {"broadcast row into its matrix", 2, {4, 4}, {4, 1}, 0, {0, 1}, 4, 16},
    /* (2, 3, 4) C order = the same memory read in F order. */
    {"3-D C = F in place", 3, {2, 3, 4}, {12, 4, 1}, 0, {1, 2, 6}, 0, 24},
};

#define JGT_OVERLAP_COUNT (sizeof jgt_overlap_cases / sizeof jgt_overlap_cases[0])

/* The dst and src layouts of overlap case `c` with `itemsize`. */
static inline jg_status jgt_overlap_layouts(const jgt_overlap_case *c, int64_t itemsize,
                                            jg_layout *dl, jg_layout *sl) {
  jg_status st = jg_layout_init(dl, c->ndim, c->shape, c->dst_strides, itemsize, NULL);
  if (st != JG_OK) return st;
  st = jg_layout_init(sl, c->ndim, c->shape, c->src_strides, itemsize, NULL);
  if (st != JG_OK) return st;
  dl->slice_offset = c->dst_offset;
  sl->slice_offset = c->src_offset;
  return JG_OK;
}

/* want = the arena after dst[...] = src with NumPy's semantics; `before` is the arena before the
 * copy (n bytes); want must not alias it. */
static inline void jgt_overlap_expect(uint8_t *want, const uint8_t *before, size_t n,
                                      const jg_layout *dl, const jg_layout *sl) {
  memcpy(want, before, n);
  jgt_ref_copy(want, dl, before, sl);
}

#endif /* JAGGED_TESTS_JGT_COPY_CASES_H */
