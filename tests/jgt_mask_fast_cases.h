/* jgt_mask_fast_cases.h: cases of jg_array_mask's fused path (one list level over numbers,
 * masked by one list level over bools: kernels list_mask_select and list_mask_offsets when the
 * lists lie back to back with equal counts, else kernel list_mask), run on the host by
 * tests/unit/test_mask_fast.c and on the GPU by tests/gpu/test_mask_fast_gpu.c.
 *
 * Every case builds the array x and the mask twice: once in a shape the fused path takes (both
 * lists int64, list-offset or starts/stops), once with the mask's lists as int32 (a shape it does
 * not take, so the general walk of indexing.c runs on the same data), and computes the expected
 * result with a plain reference loop over the logical lists. Both results must equal the
 * reference exactly (offsets from 0, int64; the values byte for byte; the same type string), and
 * on bad data both must fail with the same status, index and message. */
#ifndef JAGGED_TESTS_JGT_MASK_FAST_CASES_H
#define JAGGED_TESTS_JGT_MASK_FAST_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "jagged/indexing.h"
#include "jgt_array_cases.h"

/** How the lists lie in their contents. */
enum {
  JGT_MF_OFFSETS = 0, /* list-offset, x from x_base, the mask from m_base */
  JGT_MF_LISTS = 1,   /* list nodes (starts/stops) in a shuffled order, some empty lists
                         starting outside the content */
  JGT_MF_MIXED = 2,   /* x a shuffled list node, the mask list-offset */
  JGT_MF_SLICED = 3,  /* list-offset with 2 more lists before and 3 after, sliced off */
  JGT_MF_GAPS = 4,    /* list nodes in order from x_base / m_base, with a gap of one element
                         after list n / 2 in both contents (not back to back) */
  JGT_MF_IN_ORDER = 5 /* list nodes in order from x_base / m_base, back to back (offsets in
                         disguise) */
};

/** Kinds of counts. */
enum {
  JGT_MF_POISSON = 0, /* Poisson(3) */
  JGT_MF_EMPTY = 1,   /* all empty */
  JGT_MF_LAST_EMPTY = 2,
  JGT_MF_LONG = 3,    /* 2% of 500..3000, else Poisson(3): tiles of several chunks */
  JGT_MF_ONE_LONG = 4, /* list 1 of 1200001 elements, the others empty */
  JGT_MF_FOUR = 5      /* 4 each (3072 lists: 3 tiles of 4096 of the flat way exactly) */
};

typedef struct jgt_mf_case {
  const char *name;
  int64_t n;
  int counts;
  int layout;
  jg_dtype dtype;
  double p_true;     /* probability of a true mask value */
  int64_t x_base;    /* offsets' start (JGT_MF_OFFSETS) */
  int64_t m_base;
  int64_t bad_count; /* >= 0: the mask's list bad_count (and a later one) gets more entries */
  int same_totals;   /* with bad_count: instead, the mask's list bad_count gets one entry more
                        and x's next list one more, so that the contents' totals agree */
} jgt_mf_case;

static const jgt_mf_case jgt_mf_cases[] = {
    {"empty array", 0, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.5, 0, 0, -1, 0},
    {"one list", 1, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.5, 0, 0, -1, 0},
    {"all-empty lists", 1000, JGT_MF_EMPTY, JGT_MF_OFFSETS, JG_DTYPE_FLOAT64, 0.5, 0, 0, -1, 0},
    {"a last list empty", 33, JGT_MF_LAST_EMPTY, JGT_MF_OFFSETS, JG_DTYPE_INT32, 0.5, 0, 0, -1, 0},
    {"offsets not at 0", 777, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.5, 11, 4, -1, 0},
    {"32 lists", 32, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_INT64, 0.5, 0, 0, -1, 0},
    {"1024 lists, int8", 1024, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_INT8, 0.5, 0, 0, -1, 0},
    {"4096 lists, bool", 4096, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_BOOL, 0.5, 0, 0, -1, 0},
    {"2^20 + 1 lists", (1 << 20) + 1, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.6, 0, 0,
     -1, 0},
    {"one very long list", 3, JGT_MF_ONE_LONG, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.4, 0, 0, -1, 0},
    {"long lists across chunks", 4096, JGT_MF_LONG, JGT_MF_OFFSETS, JG_DTYPE_UINT16, 0.5, 3, 0,
     -1, 0},
    {"list nodes, shuffled", 5000, JGT_MF_POISSON, JGT_MF_LISTS, JG_DTYPE_FLOAT64, 0.5, 0, 0, -1,
     0},
    {"list node x, list-offset mask", 3000, JGT_MF_LONG, JGT_MF_MIXED, JG_DTYPE_FLOAT32, 0.5, 0, 0,
     -1, 0},
    {"sliced arrays", 2000, JGT_MF_POISSON, JGT_MF_SLICED, JG_DTYPE_INT64, 0.5, 0, 0, -1, 0},
    {"all-false mask", 4096, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.0, 0, 0, -1, 0},
    {"sparse mask (tight copy)", 20000, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT64, 0.05, 0,
     0, -1, 0},
    {"all-true mask", 4096, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 1.0, 0, 0, -1, 0},
    {"unequal counts", 2000, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.5, 0, 0, 300, 0},
    {"unequal counts in list nodes", 2000, JGT_MF_POISSON, JGT_MF_LISTS, JG_DTYPE_INT32, 0.5, 0, 0,
     1100, 0},
    {"unequal counts, same totals", 2000, JGT_MF_POISSON, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.5, 0,
     0, 300, 1},
    {"list nodes not back to back", 3000, JGT_MF_POISSON, JGT_MF_GAPS, JG_DTYPE_FLOAT32, 0.5, 3, 8,
     -1, 0},
    {"list nodes back to back", 3000, JGT_MF_LONG, JGT_MF_IN_ORDER, JG_DTYPE_UINT16, 0.5, 5, 2, -1,
     0},
    {"a length a multiple of 4096", 3072, JGT_MF_FOUR, JGT_MF_OFFSETS, JG_DTYPE_FLOAT32, 0.5, 0, 0,
     -1, 0},
};
#define JGT_MF_NCASES ((int)(sizeof jgt_mf_cases / sizeof jgt_mf_cases[0]))

/** A built case: the arrays (new references) and the reference result. */
typedef struct jgt_mf_input {
  jg_array *x, *mask, *mask_general;
  int64_t n;
  int64_t *ref_offsets; /* n + 1 */
  unsigned char *ref_values;
  int64_t ref_total;
  jg_dtype dtype;
  int64_t bad; /* the list the error names, or -1 */
} jgt_mf_input;

static inline uint64_t jgt_mf_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static inline double jgt_mf_uniform(uint64_t *s) {
  return (double)(jgt_mf_next(s) >> 11) * (1.0 / 9007199254740992.0);
}
static inline int64_t jgt_mf_poisson3(uint64_t *s) {
  const double limit = 0.049787068367863944; /* exp(-3) */
  int64_t k = 0;
  double p = jgt_mf_uniform(s);
  while (p > limit) {
    ++k;
    p *= jgt_mf_uniform(s);
  }
  return k;
}

/* Starts of n lists of `counts` placed in a shuffled order in a content of *length elements
 * (plus 7 unused at the end); every 9th empty list starts outside the content. */
static inline int64_t *jgt_mf_shuffled(const int64_t *counts, int64_t n, uint64_t *seed,
                                       int64_t *length) {
  int64_t *order = malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
  int64_t *starts = malloc((size_t)(n > 0 ? n : 1) * sizeof *starts);
  assert_non_null(order);
  assert_non_null(starts);
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    const int64_t j = (int64_t)(jgt_mf_next(seed) % (uint64_t)(i + 1));
    const int64_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  int64_t at = 5;
  for (int64_t k = 0; k < n; ++k) {
    starts[order[k]] = at;
    at += counts[order[k]];
  }
  *length = at + 7;
  for (int64_t i = 0; i < n; ++i)
    if (counts[i] == 0 && i % 9 == 0) starts[i] = i % 2 ? -4 : *length + 100;
  free(order);
  return starts;
}

/* A list node over `content` (stolen) with starts/stops of dtype (int32 or int64). */
static inline jg_array *jgt_mf_list(const int64_t *starts, const int64_t *counts, int64_t n,
                                    jg_dtype dt, jg_array *content) {
  const int64_t m = n > 0 ? n : 1;
  int64_t *a = malloc((size_t)m * 8), *b = malloc((size_t)m * 8);
  assert_non_null(a);
  assert_non_null(b);
  for (int64_t i = 0; i < n; ++i) {
    if (dt == JG_DTYPE_INT32) {
      ((int32_t *)a)[i] = (int32_t)starts[i];
      ((int32_t *)b)[i] = (int32_t)(starts[i] + counts[i]);
    } else {
      a[i] = starts[i];
      b[i] = starts[i] + counts[i];
    }
  }
  jg_view sv = jgt_view(a, n, dt), ev = jgt_view(b, n, dt);
  jg_array *l = NULL;
  JGT_OK(jg_array_list(&sv, &ev, content, &l, &jgt_err_));
  jg_buffer_release(sv.buffer);
  jg_buffer_release(ev.buffer);
  jg_array_release(content);
  free(a);
  free(b);
  return l;
}

/* A list-offset node over `content` (stolen): offsets from `base` by counts, of dtype dt. */
static inline jg_array *jgt_mf_offsets(const int64_t *counts, int64_t n, int64_t base,
                                       jg_dtype dt, jg_array *content) {
  int64_t *o = malloc((size_t)(n + 1) * 8);
  assert_non_null(o);
  int64_t at = base;
  for (int64_t i = 0; i <= n; ++i) {
    if (dt == JG_DTYPE_INT32)
      ((int32_t *)o)[i] = (int32_t)at;
    else
      o[i] = at;
    if (i < n) at += counts[i];
  }
  jg_array *l = jgt_list_offset(o, n + 1, dt, content);
  free(o);
  return l;
}

/** Builds case `c` (host arrays and reference). */
static inline void jgt_mf_build(const jgt_mf_case *c, jgt_mf_input *in) {
  memset(in, 0, sizeof *in);
  uint64_t seed = 1234 + (uint64_t)c->n;
  const bool sliced = c->layout == JGT_MF_SLICED;
  const int64_t n = c->n, nb = sliced ? n + 5 : n; /* lists built */
  const int64_t first = sliced ? 2 : 0;
  int64_t *cx = malloc((size_t)(nb + 1) * 8), *cm = malloc((size_t)(nb + 1) * 8);
  assert_non_null(cx);
  assert_non_null(cm);
  for (int64_t i = 0; i < nb; ++i) {
    int64_t k;
    switch (c->counts) {
      case JGT_MF_EMPTY:
        k = 0;
        break;
      case JGT_MF_LAST_EMPTY:
        k = i + 1 == nb ? 0 : (int64_t)(jgt_mf_next(&seed) % 41);
        break;
      case JGT_MF_LONG:
        k = jgt_mf_uniform(&seed) < 0.02 ? 500 + (int64_t)(jgt_mf_next(&seed) % 2501)
                                         : jgt_mf_poisson3(&seed);
        break;
      case JGT_MF_ONE_LONG:
        k = i == 1 ? 1200001 : 0;
        break;
      case JGT_MF_FOUR:
        k = 4;
        break;
      default:
        k = jgt_mf_poisson3(&seed);
        break;
    }
    cx[i] = cm[i] = k;
  }
  in->bad = -1;
  if (c->bad_count >= 0 && c->same_totals) {
    cm[c->bad_count] += 1;
    cx[c->bad_count + 1] += 1;
    in->bad = c->bad_count;
  } else if (c->bad_count >= 0) {
    cm[c->bad_count + (nb - c->bad_count) / 2] += 1; /* a later one too */
    cm[c->bad_count] += 2;
    in->bad = c->bad_count;
  }
  /* placements */
  int64_t sx = 0, sm = 0;
  for (int64_t i = 0; i < nb; ++i) {
    sx += cx[i];
    sm += cm[i];
  }
  int64_t xlen, mlen;
  int64_t *xs = NULL, *ms = NULL;
  const bool in_order = c->layout == JGT_MF_GAPS || c->layout == JGT_MF_IN_ORDER;
  const bool x_list = c->layout == JGT_MF_LISTS || c->layout == JGT_MF_MIXED || in_order;
  const bool m_list = c->layout == JGT_MF_LISTS || in_order;
  const int64_t gap_after = c->layout == JGT_MF_GAPS ? nb / 2 : -1;
  if (x_list && !in_order) {
    xs = jgt_mf_shuffled(cx, nb, &seed, &xlen);
  } else {
    xs = malloc((size_t)(nb + 1) * 8);
    assert_non_null(xs);
    int64_t at = c->x_base;
    for (int64_t i = 0; i < nb; ++i) {
      xs[i] = at;
      at += cx[i] + (i == gap_after);
    }
    xlen = at + (c->x_base > 0 ? 5 : 0);
  }
  if (m_list && !in_order) {
    ms = jgt_mf_shuffled(cm, nb, &seed, &mlen);
  } else {
    ms = malloc((size_t)(nb + 1) * 8);
    assert_non_null(ms);
    int64_t at = c->m_base;
    for (int64_t i = 0; i < nb; ++i) {
      ms[i] = at;
      at += cm[i] + (i == gap_after);
    }
    mlen = at + (c->m_base > 0 ? 3 : 0);
  }
  /* contents */
  const int64_t isz = jg_dtype_itemsize(c->dtype);
  unsigned char *xv = malloc((size_t)(xlen * isz + 1));
  bool *mv = malloc((size_t)(mlen + 1));
  assert_non_null(xv);
  assert_non_null(mv);
  for (int64_t j = 0; j < xlen * isz; ++j) xv[j] = (unsigned char)jgt_mf_next(&seed);
  if (c->dtype == JG_DTYPE_BOOL)
    for (int64_t j = 0; j < xlen; ++j) xv[j] &= 1;
  if (c->dtype == JG_DTYPE_FLOAT32 || c->dtype == JG_DTYPE_FLOAT64) { /* tame values */
    for (int64_t j = 0; j < xlen; ++j) {
      if (c->dtype == JG_DTYPE_FLOAT32) {
        const float f = (float)(j % 1000) * 0.25f - 7.0f;
        memcpy(xv + j * isz, &f, 4);
      } else {
        const double f = (double)(j % 977) * 0.5 - 3.0;
        memcpy(xv + j * isz, &f, 8);
      }
    }
  }
  for (int64_t j = 0; j < mlen; ++j) mv[j] = jgt_mf_uniform(&seed) < c->p_true;
  /* the arrays */
  jg_array *xc = jgt_numeric(xv, xlen, c->dtype);
  jg_array *mc = jgt_numeric(mv, mlen, JG_DTYPE_BOOL);
  jg_array *x, *m, *mg;
  jg_array_retain(mc);
  if (x_list)
    x = jgt_mf_list(xs, cx, nb, JG_DTYPE_INT64, xc);
  else
    x = jgt_mf_offsets(cx, nb, c->x_base, JG_DTYPE_INT64, xc);
  if (m_list) {
    m = jgt_mf_list(ms, cm, nb, JG_DTYPE_INT64, mc);
    mg = jgt_mf_list(ms, cm, nb, JG_DTYPE_INT32, jg_array_retain(mc));
  } else {
    m = jgt_mf_offsets(cm, nb, c->m_base, JG_DTYPE_INT64, mc);
    mg = jgt_mf_offsets(cm, nb, c->m_base, JG_DTYPE_INT32, jg_array_retain(mc));
  }
  jg_array_release(mc); /* the extra reference taken above */
  if (sliced) {
    in->x = jgt_slice(x, first, first + n);
    in->mask = jgt_slice(m, first, first + n);
    in->mask_general = jgt_slice(mg, first, first + n);
  } else {
    in->x = x;
    in->mask = m;
    in->mask_general = mg;
  }
  /* the reference */
  in->n = n;
  in->dtype = c->dtype;
  in->ref_offsets = malloc((size_t)(n + 1) * 8);
  in->ref_values = malloc((size_t)(sx * isz + 1));
  assert_non_null(in->ref_offsets);
  assert_non_null(in->ref_values);
  int64_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t li = first + i;
    in->ref_offsets[i] = pos;
    const int64_t len = cx[li] < cm[li] ? cx[li] : cm[li];
    for (int64_t j = 0; j < len; ++j) {
      if (!mv[ms[li] + j]) continue;
      memcpy(in->ref_values + pos * isz, xv + (xs[li] + j) * isz, (size_t)isz);
      ++pos;
    }
  }
  in->ref_offsets[n] = pos;
  in->ref_total = pos;
  free(cx);
  free(cm);
  free(xs);
  free(ms);
  free(xv);
  free(mv);
}

/** Calls of the fused path's kernels so far (host calls, or CUDA calls when `cuda`). */
typedef struct jgt_mf_calls {
  uint64_t select, offsets, lists;
} jgt_mf_calls;

static inline void jgt_mf_calls_get(bool cuda, jgt_mf_calls *out) {
  static const char *const names[3] = {"list_mask_select", "list_mask_offsets", "list_mask"};
  uint64_t *dst[3] = {&out->select, &out->offsets, &out->lists};
  for (int i = 0; i < 3; ++i) {
    const jg_kernel *k = NULL;
    JGT_OK(jg_catalog_find(names[i], &k, &jgt_err_));
    jg_kernel_stats st;
    jg_kernel_stats_get(k, &st);
    *dst[i] = cuda ? st.cuda_calls : st.host_calls;
  }
}

/** Whether case c's fused call takes the flat way (list_mask_select and list_mask_offsets, no
 *  list_mask): lists back to back with equal counts, and at least one. */
static inline bool jgt_mf_expect_flat(const jgt_mf_case *c) {
  return c->n > 0 && c->bad_count < 0 &&
         (c->layout == JGT_MF_OFFSETS || c->layout == JGT_MF_SLICED ||
          c->layout == JGT_MF_IN_ORDER);
}

/** Returns 0 when the kernel calls between `before` and `after` (one fused call of case c) are
 *  the expected ones: the flat kernels once each unless there are no lists, list_mask once when
 *  the flat way did not take the data; else prints why and returns 1. */
static inline int jgt_mf_check_path(const jgt_mf_case *c, const jgt_mf_calls *before,
                                    const jgt_mf_calls *after) {
  const uint64_t flat = c->n > 0 ? 1 : 0, lists = jgt_mf_expect_flat(c) ? 0 : 1;
  const uint64_t ds = after->select - before->select, dof = after->offsets - before->offsets;
  const uint64_t dl = after->lists - before->lists;
  if (ds != flat || dof != flat || dl != lists) {
    print_error("%s: calls list_mask_select %llu, list_mask_offsets %llu, list_mask %llu; "
                "expected %llu, %llu, %llu\n",
                c->name, (unsigned long long)ds, (unsigned long long)dof,
                (unsigned long long)dl, (unsigned long long)flat, (unsigned long long)flat,
                (unsigned long long)lists);
    return 1;
  }
  return 0;
}

static inline void jgt_mf_free(jgt_mf_input *in) {
  jg_array_release(in->x);
  jg_array_release(in->mask);
  jg_array_release(in->mask_general);
  free(in->ref_offsets);
  free(in->ref_values);
  memset(in, 0, sizeof *in);
}

/** Returns 0 when host result `r` equals the reference, else prints why and returns 1. */
static inline int jgt_mf_check(const char *name, const char *path, const jgt_mf_input *in,
                               const jg_array *r) {
  jg_error e;
  if (jg_array_kind(r) != JG_NODE_LIST_OFFSET || jg_array_length(r) != in->n) {
    print_error("%s (%s): not a list-offset array of %lld lists\n", name, path,
                (long long)in->n);
    return 1;
  }
  jg_view ov, vv;
  const jg_array *content = jg_array_child(r, 0);
  if (jg_array_buffer(r, 0, &ov, &e) != JG_OK || jg_array_kind(content) != JG_NODE_NUMERIC ||
      jg_array_buffer(content, 0, &vv, &e) != JG_OK || ov.dtype != JG_DTYPE_INT64 ||
      vv.dtype != in->dtype || jg_array_length(content) != in->ref_total) {
    print_error("%s (%s): wrong structure (content length %lld, expected %lld)\n", name, path,
                (long long)jg_array_length(content), (long long)in->ref_total);
    return 1;
  }
  const int64_t *o = jg_view_data(&ov);
  for (int64_t i = 0; i <= in->n; ++i) {
    const int64_t got = o[i * ov.layout.strides[0]];
    if (got != in->ref_offsets[i]) {
      print_error("%s (%s): offsets[%lld] = %lld, expected %lld\n", name, path, (long long)i,
                  (long long)got, (long long)in->ref_offsets[i]);
      return 1;
    }
  }
  const int64_t isz = jg_dtype_itemsize(in->dtype);
  if (in->ref_total > 0 &&
      (vv.layout.strides[0] != 1 ||
       memcmp(jg_view_data(&vv), in->ref_values, (size_t)(in->ref_total * isz)) != 0)) {
    print_error("%s (%s): values differ\n", name, path);
    return 1;
  }
  return 0;
}

/* x[mask] with a last list that leaves its content by nearly the whole int64 range (found by a
 * newcomer's probe: the flat way's rank-word bound overflowed and read far past its buffer). x is
 * a list-offset array over 8 float32 values with offsets {0, 3, last} (list nodes: starts {5, 6},
 * stops {6, last}), the mask the same over 8 bools. jg_array_mask (on device copies when
 * `device`) must fail with JG_EVALUE and the message of a list leaving its content, and make
 * nothing. */
static inline void jgt_mf_huge_last(bool device, bool lists, int64_t last) {
  static const float xv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  static const bool mv[8] = {true, false, true, true, false, true, true, true};
  const int64_t off[3] = {0, 3, last}, starts[2] = {5, 6}, stops[2] = {6, last};
  jg_array *xs[2] = {NULL, NULL};
  for (int k = 0; k < 2; ++k) {
    jg_array *content = k == 0 ? jgt_numeric(xv, 8, JG_DTYPE_FLOAT32)
                               : jgt_numeric(mv, 8, JG_DTYPE_BOOL);
    if (lists) {
      jg_view sv = jgt_view(starts, 2, JG_DTYPE_INT64), ev = jgt_view(stops, 2, JG_DTYPE_INT64);
      JGT_OK(jg_array_list(&sv, &ev, content, &xs[k], &jgt_err_));
      jg_buffer_release(sv.buffer);
      jg_buffer_release(ev.buffer);
    } else {
      jg_view ov = jgt_view(off, 3, JG_DTYPE_INT64);
      JGT_OK(jg_array_list_offset(&ov, content, &xs[k], &jgt_err_));
      jg_buffer_release(ov.buffer);
    }
    jg_array_release(content);
    if (device) {
      jg_array *d = jgt_to_device_on(xs[k], NULL);
      jg_array_release(xs[k]);
      xs[k] = d;
    }
  }
  jg_array *out = NULL;
  jg_error e;
  jg_error_clear(&e);
  assert_int_equal(jg_array_mask(xs[0], xs[1], NULL, &out, &e), JG_EVALUE);
  assert_null(out);
  JGT_CONTAINS(e.message, "jg_array_mask");
  JGT_CONTAINS(e.message, "leaves its content");
  jg_array_release(xs[0]);
  jg_array_release(xs[1]);
}

/* jgt_mf_huge_last for offsets and list nodes, with the last stop at INT64_MAX, 62 below it (the
 * flat length's rank words overflow int64) and 64 below it. */
static inline void jgt_mf_huge_lasts(bool device) {
  const int64_t lasts[3] = {INT64_MAX, INT64_MAX - 62, INT64_MAX - 64};
  for (int k = 0; k < 3; ++k) {
    jgt_mf_huge_last(device, false, lasts[k]);
    jgt_mf_huge_last(device, true, lasts[k]);
  }
}

/* Mask bytes other than 0 and 1 (2, 255) count as true on every path: the fused path (a jagged
 * mask of list offsets), the general walk (the same mask with int32 offsets) and an event mask
 * (one byte per list), on device copies when `device`. */
static inline void jgt_mf_odd_bools(bool device) {
  static const int64_t off[3] = {0, 3, 5}, xv[5] = {10, 11, 12, 13, 14};
  static const int32_t off32[3] = {0, 3, 5};
  static const uint8_t mv[5] = {2, 0, 255, 1, 0}, ev[2] = {2, 0};
  jg_view ov = jgt_view(off, 3, JG_DTYPE_INT64), ov32 = jgt_view(off32, 3, JG_DTYPE_INT32);
  jg_array *x = NULL, *ms[3] = {NULL, NULL, NULL};
  jg_array *xc = jgt_numeric(xv, 5, JG_DTYPE_INT64), *mc = jgt_numeric(mv, 5, JG_DTYPE_BOOL);
  JGT_OK(jg_array_list_offset(&ov, xc, &x, &jgt_err_));
  JGT_OK(jg_array_list_offset(&ov, mc, &ms[0], &jgt_err_));
  JGT_OK(jg_array_list_offset(&ov32, mc, &ms[1], &jgt_err_));
  ms[2] = jgt_numeric(ev, 2, JG_DTYPE_BOOL);
  jg_buffer_release(ov.buffer);
  jg_buffer_release(ov32.buffer);
  jg_array_release(xc);
  jg_array_release(mc);
  if (device) {
    jg_array *d = jgt_to_device_on(x, NULL);
    jg_array_release(x);
    x = d;
    for (int k = 0; k < 3; ++k) {
      d = jgt_to_device_on(ms[k], NULL);
      jg_array_release(ms[k]);
      ms[k] = d;
    }
  }
  static const char *const want[3] = {"[[10, 12], [13]]", "[[10, 12], [13]]", "[[10, 11, 12]]"};
  for (int k = 0; k < 3; ++k) {
    jg_array *out = NULL;
    JGT_OK(jg_array_mask(x, ms[k], NULL, &out, &jgt_err_));
    jg_array *h = device ? jgt_to_host(out) : jg_array_retain(out);
    char text[64];
    JGT_OK(jg_array_to_string(h, 60, text, sizeof text, NULL, &jgt_err_));
    assert_string_equal(text, want[k]);
    jg_array_release(h);
    jg_array_release(out);
    jg_array_release(ms[k]);
  }
  jg_array_release(x);
}

#endif /* JAGGED_TESTS_JGT_MASK_FAST_CASES_H */
