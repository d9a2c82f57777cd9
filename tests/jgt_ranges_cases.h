/* jgt_ranges_cases.h: a table of adversarial list ranges and option indexes run through every
 * operation that reads them, shared by test_reliability_ranges.c (host) and
 * test_reliability_ranges_gpu.c (the same arrays after jg_array_to_device).
 *
 * Two kinds of cases:
 *  - bad arrays (jg_array_validate(FULL) refuses them): offsets that decrease or go negative in
 *    the middle, starts/stops that leave the content or run backwards, an inner level with a bad
 *    list, option indexes past their content. Every operation must refuse them with the
 *    kernels' status (JG_EVALUE for a list range, JG_EINDEX for an option index) and the
 *    offending list or entry in err.index, unless it refuses the node kinds anyway (then it
 *    must give the status it gives a valid array of the same kinds, the case's `twin`), or pass
 *    the bad node on unread (a view, a slice, a copy: the result is refused by
 *    jg_array_validate in turn). A result that validates is a wrong answer made from data that
 *    is not there;
 *  - valid edge arrays: empty lists that start past the content or below 0, offsets views with a
 *    stride other than 1. Every operation must give what it gives for the `twin`, the same
 *    values with the empty lists moved into the content and the offsets made dense (built
 *    independently, never through the edge array), compared as printouts.
 * Each case names its node kinds in the comment; every value is worked out in the builders. */
#ifndef JAGGED_TESTS_JGT_RANGES_CASES_H
#define JAGGED_TESTS_JGT_RANGES_CASES_H

#include <stdbool.h>

#include "jagged/arrow.h"
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Builders                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static const double jgt_rvals[6] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5};

/* float64 values jgt_rvals[0 .. n). */
static inline jg_array *jgt_rvalues(jg_len n) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(jgt_rvals, n, JG_DTYPE_FLOAT64, &a, &jgt_err_));
  return a;
}

/* A 1-D int64 view of v[0 .. n) with stride `stride` (>= 1: the entries sit `stride` apart in a
 * buffer filled with -99 between them; -1: stored backwards and viewed through a negative
 * stride). The view keeps the buffer alive through `*hold` (release it after use). */
static inline jg_view jgt_rindex_view(const int64_t *v, jg_len n, int stride, jg_array **hold) {
  const jg_len span = stride > 1 ? (n - 1) * stride + 1 : n;
  int64_t store[64];
  for (jg_len i = 0; i < span; ++i) store[i] = -99;
  for (jg_len i = 0; i < n; ++i) {
    if (stride >= 1) store[i * stride] = v[i];
    else store[n - 1 - i] = v[i];
  }
  JGT_OK(jg_array_from_host(store, span, JG_DTYPE_INT64, hold, &jgt_err_));
  jg_view full, out;
  JGT_OK(jg_array_buffer(*hold, 0, &full, &jgt_err_));
  const jg_slice s = stride >= 1 ? JG_SLICE(0, span, stride) : JG_SLICE(n - 1, JG_SLICE_NONE, -1);
  JGT_OK(jg_view_slice(&out, &full, 1, &s, &jgt_err_));
  return out;
}

/* Lists by offsets (n + 1 entries, any stride) over `content` (consumed). */
static inline jg_array *jgt_roffsets(const int64_t *offsets, jg_len n, int stride,
                                     jg_array *content) {
  jg_array *hold = NULL, *a = NULL;
  const jg_view v = jgt_rindex_view(offsets, n + 1, stride, &hold);
  JGT_OK(jg_array_list_offset(&v, content, &a, &jgt_err_));
  jg_array_release(hold);
  jg_array_release(content);
  return a;
}

/* Lists by starts and stops (n entries each) over `content` (consumed). */
static inline jg_array *jgt_rstartstop(const int64_t *starts, const int64_t *stops, jg_len n,
                                       jg_array *content) {
  jg_array *h1 = NULL, *h2 = NULL, *a = NULL;
  const jg_view s = jgt_rindex_view(starts, n, 1, &h1), t = jgt_rindex_view(stops, n, 1, &h2);
  JGT_OK(jg_array_list(&s, &t, content, &a, &jgt_err_));
  jg_array_release(h1);
  jg_array_release(h2);
  jg_array_release(content);
  return a;
}

/* An indexed option over `content` (consumed). */
static inline jg_array *jgt_rindexed(const int64_t *index, jg_len n, jg_array *content) {
  jg_array *h = NULL, *a = NULL;
  const jg_view v = jgt_rindex_view(index, n, 1, &h);
  JGT_OK(jg_array_indexed_option(&v, content, &a, &jgt_err_));
  jg_array_release(h);
  jg_array_release(content);
  return a;
}

/* ------------------------------------------------------------------------------------------ */
/* The cases                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct jgt_rcase {
  const char *name;
  bool bad;             /* true: refused (`status` at `index`); false: a valid edge */
  jg_status status;     /* bad cases: JG_EVALUE for list ranges, JG_EINDEX for option indexes */
  jg_len index;         /* the offending list or option entry (bad cases), as the kernels
                           and jg_array_validate name it */
  jg_array *(*make)(void);
  jg_array *(*twin)(void); /* same node kinds: bad: a valid array; edge: the compact equivalent */
  bool deep;            /* the bad node is below the top lists: operations that only read the
                           top lists (jgt_rop.shallow) never reach it and may succeed */
} jgt_rcase;

/* [[1.5, 2.5, 3.5], [4.5]] whose list 1 is written [3, 1): offsets [0, 3, 1] over 5 values (the
 * issue's example: a + 1 gave a new array of 1 value). */
static inline jg_array *jgt_r_dec(void) {
  const int64_t o[3] = {0, 3, 1};
  return jgt_roffsets(o, 2, 1, jgt_rvalues(5));
}
static inline jg_array *jgt_r_dec_twin(void) {
  const int64_t o[3] = {0, 3, 4};
  return jgt_roffsets(o, 2, 1, jgt_rvalues(5));
}

/* Offsets [0, 2, 1, 4]: a decrease in the middle, the ends fine. */
static inline jg_array *jgt_r_mid(void) {
  const int64_t o[4] = {0, 2, 1, 4};
  return jgt_roffsets(o, 3, 1, jgt_rvalues(5));
}
static inline jg_array *jgt_r_mid_twin(void) {
  const int64_t o[4] = {0, 2, 2, 4};
  return jgt_roffsets(o, 3, 1, jgt_rvalues(5));
}

/* Offsets [0, 2, -1, 4] with stride 2: a negative offset in the middle (list 1 = [2, -1)). */
static inline jg_array *jgt_r_neg(void) {
  const int64_t o[4] = {0, 2, -1, 4};
  return jgt_roffsets(o, 3, 2, jgt_rvalues(5));
}
static inline jg_array *jgt_r_neg_twin(void) {
  const int64_t o[4] = {0, 2, 3, 4};
  return jgt_roffsets(o, 3, 2, jgt_rvalues(5));
}

/* starts [0, 4, 1], stops [2, 7, 3] over 5 values: list 1 runs past the content. */
static inline jg_array *jgt_r_ss_past(void) {
  const int64_t s[3] = {0, 4, 1}, t[3] = {2, 7, 3};
  return jgt_rstartstop(s, t, 3, jgt_rvalues(5));
}
static inline jg_array *jgt_r_ss_twin(void) {
  const int64_t s[3] = {0, 4, 1}, t[3] = {2, 5, 3};
  return jgt_rstartstop(s, t, 3, jgt_rvalues(5));
}

/* starts [0, 3, 1], stops [2, 1, 3]: list 1 runs backwards. */
static inline jg_array *jgt_r_ss_dec(void) {
  const int64_t s[3] = {0, 3, 1}, t[3] = {2, 1, 3};
  return jgt_rstartstop(s, t, 3, jgt_rvalues(5));
}

/* starts [0, -2, 1], stops [2, 1, 3]: list 1 starts below 0. */
static inline jg_array *jgt_r_ss_neg(void) {
  const int64_t s[3] = {0, -2, 1}, t[3] = {2, 1, 3};
  return jgt_rstartstop(s, t, 3, jgt_rvalues(5));
}

/* Two levels: outer offsets [0, 2, 3] fine, inner offsets [0, 2, 1, 4] bad at inner list 1. */
static inline jg_array *jgt_r_inner(void) {
  const int64_t outer[3] = {0, 2, 3}, inner[4] = {0, 2, 1, 4};
  return jgt_roffsets(outer, 2, 1, jgt_roffsets(inner, 3, 1, jgt_rvalues(5)));
}
static inline jg_array *jgt_r_inner_twin(void) {
  const int64_t outer[3] = {0, 2, 3}, inner[4] = {0, 2, 2, 4};
  return jgt_roffsets(outer, 2, 1, jgt_roffsets(inner, 3, 1, jgt_rvalues(5)));
}

/* Lists of options: offsets [0, 2, 4] over an indexed option [0, 5, -1, 1] over 3 values:
 * index 5 at position 1 is past the content. */
static inline jg_array *jgt_r_opt_in(void) {
  const int64_t o[3] = {0, 2, 4}, ix[4] = {0, 5, -1, 1};
  return jgt_roffsets(o, 2, 1, jgt_rindexed(ix, 4, jgt_rvalues(3)));
}
static inline jg_array *jgt_r_opt_in_twin(void) {
  const int64_t o[3] = {0, 2, 4}, ix[4] = {0, 2, -1, 1};
  return jgt_roffsets(o, 2, 1, jgt_rindexed(ix, 4, jgt_rvalues(3)));
}

/* An option of lists: indexed [1, 7, -1] over offsets [0, 1, 3, 3] over 3 values: index 7 at
 * position 1 is past the 3 lists. */
static inline jg_array *jgt_r_opt_out(void) {
  const int64_t ix[3] = {1, 7, -1}, o[4] = {0, 1, 3, 3};
  return jgt_rindexed(ix, 3, jgt_roffsets(o, 3, 1, jgt_rvalues(3)));
}
static inline jg_array *jgt_r_opt_out_twin(void) {
  const int64_t ix[3] = {1, 2, -1}, o[4] = {0, 1, 3, 3};
  return jgt_rindexed(ix, 3, jgt_roffsets(o, 3, 1, jgt_rvalues(3)));
}

/* Valid: offsets [5, 5, 5] over 1 value: two empty lists past the content; twin [0, 0, 0]. */
static inline jg_array *jgt_r_e_off(void) {
  const int64_t o[3] = {5, 5, 5};
  return jgt_roffsets(o, 2, 1, jgt_rvalues(1));
}
static inline jg_array *jgt_r_e_off_twin(void) {
  const int64_t o[3] = {0, 0, 0};
  return jgt_roffsets(o, 2, 1, jgt_rvalues(1));
}

/* Valid: starts [0, 1000, 1], stops [1, 1000, 2] over 2 values: [[1.5], [], [2.5]]. */
static inline jg_array *jgt_r_e_ss(void) {
  const int64_t s[3] = {0, 1000, 1}, t[3] = {1, 1000, 2};
  return jgt_rstartstop(s, t, 3, jgt_rvalues(2));
}
/* Valid: the empty list at -7 instead. */
static inline jg_array *jgt_r_e_ssneg(void) {
  const int64_t s[3] = {0, -7, 1}, t[3] = {1, -7, 2};
  return jgt_rstartstop(s, t, 3, jgt_rvalues(2));
}
static inline jg_array *jgt_r_e_ss_twin(void) {
  const int64_t s[3] = {0, 1, 1}, t[3] = {1, 1, 2};
  return jgt_rstartstop(s, t, 3, jgt_rvalues(2));
}

/* Valid, two levels: outer offsets [3, 3, 3] over 1 inner list [[1.5, 2.5]] (offsets [0, 2]):
 * [[], []] whose empty outer lists start past the inner lists. */
static inline jg_array *jgt_r_e_nest(void) {
  const int64_t outer[3] = {3, 3, 3}, inner[2] = {0, 2};
  return jgt_roffsets(outer, 2, 1, jgt_roffsets(inner, 1, 1, jgt_rvalues(5)));
}
static inline jg_array *jgt_r_e_nest_twin(void) {
  const int64_t outer[3] = {0, 0, 0}, inner[2] = {0, 2};
  return jgt_roffsets(outer, 2, 1, jgt_roffsets(inner, 1, 1, jgt_rvalues(5)));
}

/* Valid, two levels: outer starts [0, 9], stops [1, 9] over [[1.5, 2.5]]: [[[1.5, 2.5]], []]. */
static inline jg_array *jgt_r_e_nest_ss(void) {
  const int64_t s[2] = {0, 9}, t[2] = {1, 9}, inner[2] = {0, 2};
  return jgt_rstartstop(s, t, 2, jgt_roffsets(inner, 1, 1, jgt_rvalues(5)));
}
static inline jg_array *jgt_r_e_nest_ss_twin(void) {
  const int64_t s[2] = {0, 1}, t[2] = {1, 1}, inner[2] = {0, 2};
  return jgt_rstartstop(s, t, 2, jgt_roffsets(inner, 1, 1, jgt_rvalues(5)));
}

/* Valid: offsets [0, 2, 2, 5] with stride 3, and stored backwards (stride -1): [[1.5, 2.5], [],
 * [3.5, 4.5, 5.5]]; twin dense. */
static inline jg_array *jgt_r_e_stride(void) {
  const int64_t o[4] = {0, 2, 2, 5};
  return jgt_roffsets(o, 3, 3, jgt_rvalues(6));
}
static inline jg_array *jgt_r_e_back(void) {
  const int64_t o[4] = {0, 2, 2, 5};
  return jgt_roffsets(o, 3, -1, jgt_rvalues(6));
}
static inline jg_array *jgt_r_e_stride_twin(void) {
  const int64_t o[4] = {0, 2, 2, 5};
  return jgt_roffsets(o, 3, 1, jgt_rvalues(6));
}

#define JGT_NRCASES 16
static const jgt_rcase jgt_rcases[JGT_NRCASES] = {
    {"offsets [0, 3, 1]", true, JG_EVALUE, 1, jgt_r_dec, jgt_r_dec_twin, false},
    {"offsets [0, 2, 1, 4]", true, JG_EVALUE, 1, jgt_r_mid, jgt_r_mid_twin, false},
    {"offsets [0, 2, -1, 4] stride 2", true, JG_EVALUE, 1, jgt_r_neg, jgt_r_neg_twin, false},
    {"starts/stops past the content", true, JG_EVALUE, 1, jgt_r_ss_past, jgt_r_ss_twin, false},
    {"starts/stops backwards", true, JG_EVALUE, 1, jgt_r_ss_dec, jgt_r_ss_twin, false},
    {"starts/stops below 0", true, JG_EVALUE, 1, jgt_r_ss_neg, jgt_r_ss_twin, false},
    {"inner offsets decrease", true, JG_EVALUE, 1, jgt_r_inner, jgt_r_inner_twin, true},
    {"option index past the content in lists", true, JG_EINDEX, 1, jgt_r_opt_in, jgt_r_opt_in_twin, true},
    {"option index past the lists", true, JG_EINDEX, 1, jgt_r_opt_out, jgt_r_opt_out_twin, false},
    {"empty lists at 5 over 1 value", false, JG_OK, -1, jgt_r_e_off, jgt_r_e_off_twin, false},
    {"empty list at 1000", false, JG_OK, -1, jgt_r_e_ss, jgt_r_e_ss_twin, false},
    {"empty list at -7", false, JG_OK, -1, jgt_r_e_ssneg, jgt_r_e_ss_twin, false},
    {"empty outer lists past the inner lists", false, JG_OK, -1, jgt_r_e_nest, jgt_r_e_nest_twin, false},
    {"empty outer list at 9 of starts/stops", false, JG_OK, -1, jgt_r_e_nest_ss, jgt_r_e_nest_ss_twin, false},
    {"offsets with stride 3", false, JG_OK, -1, jgt_r_e_stride, jgt_r_e_stride_twin, false},
    {"offsets with stride -1", false, JG_OK, -1, jgt_r_e_back, jgt_r_e_stride_twin, false}};

/* ------------------------------------------------------------------------------------------ */
/* The operations                                                                              */
/* ------------------------------------------------------------------------------------------ */

typedef jg_status (*jgt_rop_fn)(const jg_array *a, jg_stream s, jg_array **out, jg_error *err);

static inline jg_status jgt_op_flatten(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_flatten(a, 1, s, o, e);
}
static inline jg_status jgt_op_flatten_all(const jg_array *a, jg_stream s, jg_array **o,
                                           jg_error *e) {
  return jg_array_flatten(a, JG_AXIS_ALL, s, o, e);
}
static inline jg_status jgt_op_add1(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_ufunc2_scalar(JG_UFUNC_ADD, a, jg_scalar_float(1.0), false, s, o, e);
}
static inline jg_status jgt_op_neg(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_ufunc1(JG_UFUNC_NEGATIVE, a, s, o, e);
}
static inline jg_status jgt_op_add_self(const jg_array *a, jg_stream s, jg_array **o,
                                        jg_error *e) {
  return jg_array_ufunc2(JG_UFUNC_ADD, a, a, s, o, e);
}
static inline jg_status jgt_op_eval(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  const char *names[1] = {"x"};
  const jg_array *args[1] = {a};
  return jg_array_eval("x * 2 + 1", 1, names, args, s, o, e);
}
static inline jg_status jgt_op_hist(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  double counts[12] = {0}, sumw2[12] = {0};
  jg_hist1d h = {10, 0.0, 10.0, counts, sumw2, 0, 0};
  const jg_status st = jg_histogram_fill(&h, a, NULL, s, e);
  if (st != JG_OK) return st;
  double out[13];
  memcpy(out, counts, sizeof counts);
  out[12] = (double)h.entries;
  return jg_array_from_host(out, 13, JG_DTYPE_FLOAT64, o, e);
}
static inline jg_status jgt_op_sum(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  jg_reduce_options opt = {0};
  opt.stream = s;
  return jg_array_reduce(a, JG_REDUCE_SUM, &opt, o, e);
}
static inline jg_status jgt_op_num(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  (void)s;
  return jg_array_num(a, o, e);
}
/* int64 or bool values v[0 .. n) on the backend of `like`. */
static inline jg_status jgt_rnumbers_like(const jg_array *like, const void *v, jg_len n,
                                          jg_dtype dt, jg_array **o, jg_error *e) {
  jg_array *h = NULL;
  jg_status st = jg_array_from_host(v, n, dt, &h, e);
  if (st != JG_OK) return st;
  if (jg_array_backend(like) == JG_BACKEND_CUDA) {
    st = jg_array_to_device(h, jg_array_device(like).id, NULL, o, e);
  } else {
    *o = jg_array_retain(h);
  }
  jg_array_release(h);
  return st;
}
/* `a` with its numbers replaced by booleans (true, false, true, ...), the same nodes and index
 * buffers above them: a jagged mask of a's exact structure, bad lists included. */
static inline jg_status jgt_rboolify(const jg_array *a, jg_array **o, jg_error *e) {
  const jg_node_kind k = jg_array_kind(a);
  if (k == JG_NODE_NUMERIC) {
    bool b[16];
    const jg_len n = jg_array_length(a);
    for (jg_len i = 0; i < n; ++i) b[i] = i % 2 == 0;
    return jgt_rnumbers_like(a, b, n, JG_DTYPE_BOOL, o, e);
  }
  jg_view b0, b1;
  jg_array *child = NULL;
  jg_status st = jgt_rboolify(jg_array_child(a, 0), &child, e);
  if (st == JG_OK) st = jg_array_buffer(a, 0, &b0, e);
  if (st == JG_OK && k == JG_NODE_LIST) st = jg_array_buffer(a, 1, &b1, e);
  if (st == JG_OK) {
    st = k == JG_NODE_LIST_OFFSET ? jg_array_list_offset(&b0, child, o, e)
         : k == JG_NODE_LIST      ? jg_array_list(&b0, &b1, child, o, e)
                                  : jg_array_indexed_option(&b0, child, o, e);
  }
  jg_array_release(child);
  return st;
}
/* a[boolify(a)]: a jagged mask with a's own lists. */
static inline jg_status jgt_op_mask(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  jg_array *m = NULL;
  jg_status st = jgt_rboolify(a, &m, e);
  if (st == JG_OK) st = jg_array_mask(a, m, s, o, e);
  jg_array_release(m);
  return st;
}
/* a[[true, true, false, true, true, false, ...]]: an event mask that keeps entry 1 (the bad
 * entry of every bad case). */
static inline jg_status jgt_op_mask_ev(const jg_array *a, jg_stream s, jg_array **o,
                                       jg_error *e) {
  bool b[16];
  const jg_len n = jg_array_length(a);
  for (jg_len i = 0; i < n; ++i) b[i] = i % 3 != 2;
  jg_array *m = NULL;
  jg_status st = jgt_rnumbers_like(a, b, n, JG_DTYPE_BOOL, &m, e);
  if (st == JG_OK) st = jg_array_mask(a, m, s, o, e);
  jg_array_release(m);
  return st;
}
/* unflatten at axis 1 with one count per list, its length as jg_array_num gives it for a's top
 * lists over numbers (0 where num refuses them: then unflatten itself must find the bad list). */
static inline jg_status jgt_op_unflatten(const jg_array *a, jg_stream s, jg_array **o,
                                         jg_error *e) {
  const jg_len n = jg_array_length(a);
  int64_t len[16] = {0}, off[17];
  jg_array *num = NULL, *numh = NULL, *counts = NULL, *cv = NULL;
  jg_error ne;
  const jg_node_kind k = jg_array_kind(a);
  jg_array *top = NULL, *zeros = NULL;
  if (k == JG_NODE_LIST_OFFSET || k == JG_NODE_LIST) {
    const int64_t z[16] = {0};
    jg_view b0, b1;
    if (jgt_rnumbers_like(a, z, jg_array_length(jg_array_child(a, 0)), JG_DTYPE_INT64, &zeros,
                          &ne) == JG_OK &&
        jg_array_buffer(a, 0, &b0, &ne) == JG_OK &&
        (k == JG_NODE_LIST_OFFSET || jg_array_buffer(a, 1, &b1, &ne) == JG_OK)) {
      (void)(k == JG_NODE_LIST_OFFSET ? jg_array_list_offset(&b0, zeros, &top, &ne)
                                      : jg_array_list(&b0, &b1, zeros, &top, &ne));
    }
  }
  if (top != NULL && jg_array_num(top, &num, &ne) == JG_OK &&
      jg_array_to_host(num, NULL, &numh, &ne) == JG_OK) {
    jg_view v;
    if (jg_array_buffer(numh, 0, &v, &ne) == JG_OK) memcpy(len, jg_view_data(&v), 8 * (size_t)n);
  }
  jg_array_release(num);
  jg_array_release(numh);
  jg_array_release(top);
  jg_array_release(zeros);
  for (jg_len i = 0; i <= n; ++i) off[i] = i;
  jg_status st = jgt_rnumbers_like(a, len, n, JG_DTYPE_INT64, &cv, e);
  jg_array *ov = NULL;
  if (st == JG_OK) st = jgt_rnumbers_like(a, off, n + 1, JG_DTYPE_INT64, &ov, e);
  jg_view offv;
  if (st == JG_OK) st = jg_array_buffer(ov, 0, &offv, e);
  if (st == JG_OK) st = jg_array_list_offset(&offv, cv, &counts, e);
  if (st == JG_OK) st = jg_array_unflatten(a, counts, 1, s, o, e);
  jg_array_release(ov);
  jg_array_release(cv);
  jg_array_release(counts);
  return st;
}
/* unflatten at axis 0 into one list of every entry. */
static inline jg_status jgt_op_unflatten0(const jg_array *a, jg_stream s, jg_array **o,
                                          jg_error *e) {
  const int64_t n = jg_array_length(a);
  jg_array *cv = NULL;
  jg_status st = jgt_rnumbers_like(a, &n, 1, JG_DTYPE_INT64, &cv, e);
  if (st == JG_OK) st = jg_array_unflatten(a, cv, 0, s, o, e);
  jg_array_release(cv);
  return st;
}
static inline jg_status jgt_op_max0(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  jg_reduce_options opt = {0};
  opt.stream = s;
  opt.has_axis = true;
  opt.axis = 0;
  return jg_array_reduce(a, JG_REDUCE_MAX, &opt, o, e);
}
static inline jg_status jgt_op_argsort(const jg_array *a, jg_stream s, jg_array **o,
                                       jg_error *e) {
  return jg_array_argsort(a, -1, false, true, s, o, e);
}
static inline jg_status jgt_op_sort(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_sort(a, -1, true, false, s, o, e);
}
static inline jg_status jgt_op_firsts(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_firsts(a, 1, s, o, e);
}
static inline jg_status jgt_op_local(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_local_index(a, -1, s, o, e);
}
static inline jg_status jgt_op_comb(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_argcombinations(a, 2, true, NULL, s, o, e);
}
static inline jg_status jgt_op_cart(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  const jg_array *two[2] = {a, a};
  return jg_array_cartesian(2, two, false, NULL, s, o, e);
}
static inline jg_status jgt_op_pad(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_pad_none(a, 2, 1, false, s, o, e);
}
static inline jg_status jgt_op_fill(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  jg_fill_value v;
  v.dtype = JG_DTYPE_FLOAT64;
  v.v.f = -1.0;
  return jg_array_fill_none(a, v, -1, s, o, e);
}
static inline jg_status jgt_op_isnone(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_is_none(a, 1, s, o, e);
}
static inline jg_status jgt_op_dropnone(const jg_array *a, jg_stream s, jg_array **o,
                                        jg_error *e) {
  return jg_array_drop_none(a, 1, s, o, e);
}
static inline jg_status jgt_op_concat(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  const jg_array *two[2] = {a, a};
  return jg_array_concatenate(2, two, 1, s, o, e);
}
static inline jg_status jgt_op_slice(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  return jg_array_slice_axis(a, 1, 0, 1, 1, JG_SLICE_START | JG_SLICE_STOP, s, o, e);
}
static inline jg_status jgt_op_take(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  /* an outer gather of every entry, backwards (int64 [n-1, ..., 0] on a's backend) */
  const jg_len n = jg_array_length(a);
  int64_t ix[16];
  for (jg_len i = 0; i < n; ++i) ix[i] = n - 1 - i;
  jg_array *h = NULL, *idx = NULL;
  jg_status st = jg_array_from_host(ix, n, JG_DTYPE_INT64, &h, e);
  if (st != JG_OK) return st;
  if (jg_array_backend(a) == JG_BACKEND_CUDA) {
    st = jg_array_to_device(h, jg_array_device(a).id, s, &idx, e);
  } else {
    idx = jg_array_retain(h);
  }
  if (st == JG_OK) st = jg_array_take(a, idx, s, o, e);
  jg_array_release(h);
  jg_array_release(idx);
  return st;
}
static inline jg_status jgt_op_to_host(const jg_array *a, jg_stream s, jg_array **o,
                                       jg_error *e) {
  return jg_array_to_host(a, s, o, e);
}
/* Arrow export and import back (the import checks what Arrow's spec requires). */
static inline jg_status jgt_op_arrow(const jg_array *a, jg_stream s, jg_array **o, jg_error *e) {
  struct ArrowSchema schema;
  struct ArrowDeviceArray arr;
  jg_status st = jg_array_export_arrow_device(a, s, &schema, &arr, e);
  if (st != JG_OK) return st;
  st = jg_array_import_arrow_device(&schema, &arr, s, o, e);
  /* the schema stays ours; the array is moved on success, ours to release on error */
  schema.release(&schema);
  if (arr.array.release != NULL) arr.array.release(&arr.array);
  return st;
}

typedef struct jgt_rop {
  const char *name;
  jgt_rop_fn fn;
  bool shallow; /* reads the top lists only (their ranges, not the items in them) */
  bool by_entry; /* names the entry of its gather whose list is bad, not the list (take;
                    cartesian, whose items are lists gathered by jgi_carry) */
} jgt_rop;

#define JGT_NROPS 29
static const jgt_rop jgt_rops[JGT_NROPS] = {
    {"flatten", jgt_op_flatten, false, false},      {"flatten all", jgt_op_flatten_all, false, false},
    {"add 1", jgt_op_add1, false, false},           {"negative", jgt_op_neg, false, false},
    {"add self", jgt_op_add_self, false, false},    {"eval", jgt_op_eval, false, false},
    {"histogram", jgt_op_hist, false, false},       {"sum", jgt_op_sum, false, false},
    {"max axis 0", jgt_op_max0, false, false},      {"num", jgt_op_num, true, false},
    {"argsort", jgt_op_argsort, false, false},      {"sort", jgt_op_sort, false, false},
    {"firsts", jgt_op_firsts, true, false},        {"local_index", jgt_op_local, true, false},
    {"argcombinations", jgt_op_comb, true, false}, {"cartesian", jgt_op_cart, false, true},
    {"pad_none", jgt_op_pad, false, false},         {"fill_none", jgt_op_fill, false, false},
    {"is_none", jgt_op_isnone, true, false},       {"drop_none", jgt_op_dropnone, false, false},
    {"concatenate", jgt_op_concat, false, false},   {"slice", jgt_op_slice, true, false},
    {"take", jgt_op_take, false, true},            {"arrow", jgt_op_arrow, false, false},
    {"to_host", jgt_op_to_host, false, false},
    {"mask jagged", jgt_op_mask, false, false},     {"mask events", jgt_op_mask_ev, false, false},
    {"unflatten axis 1", jgt_op_unflatten, true, false},
    {"unflatten axis 0", jgt_op_unflatten0, false, false}};

/* ------------------------------------------------------------------------------------------ */
/* The runner                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* The outcome of one operation: status, error index, and the result printed (on the host). */
typedef struct jgt_rres {
  jg_status st;
  jg_len index;
  char msg[512];
  char text[512];
  bool carried; /* JG_OK with a result that jg_array_validate(FULL) refuses: the bad range or
                   index was passed on unread (views, slices, copies), never turned into values */
} jgt_rres;

/* Moves a host array to the backend under test (consumes it); identity on the host. */
typedef jg_array *(*jgt_rprep_fn)(jg_array *a);

static inline jgt_rres jgt_rrun(const jgt_rop *op, jg_array *host_a, jgt_rprep_fn prep) {
  jgt_rres r;
  memset(&r, 0, sizeof r);
  jg_array *a = prep != NULL ? prep(host_a) : host_a;
  jg_array *out = NULL;
  jg_error e;
  jg_error_clear(&e);
  r.st = op->fn(a, NULL, &out, &e);
  r.index = e.index;
  snprintf(r.msg, sizeof r.msg, "%s", e.message);
  if (r.st == JG_OK) {
    jg_array *h = NULL;
    JGT_OK(jg_array_to_host(out, NULL, &h, &jgt_err_));
    jg_error ve;
    r.carried = jg_array_validate(out, JG_VALIDATE_FULL, NULL, &ve) != JG_OK;
    jg_error pe;
    const jg_status ps = jg_array_to_string(h, 500, r.text, sizeof r.text, NULL, &pe);
    if (ps != JG_OK) snprintf(r.text, sizeof r.text, "<print failed: %.400s>", pe.message);
    jg_array_release(h);
  }
  jg_array_release(out);
  jg_array_release(a);
  return r;
}

/* Runs case `c` through every operation on the backend `prep` moves arrays to, and checks the
 * rule at the top; a failure prints the case, the operation and both outcomes. Returns the
 * number of failures. */
static inline int jgt_rcheck_case(const jgt_rcase *c, jgt_rprep_fn prep) {
  int failures = 0;
  for (int k = 0; k < JGT_NROPS; ++k) {
    const jgt_rop *op = &jgt_rops[k];
    const jgt_rres got = jgt_rrun(op, c->make(), prep);
    const jgt_rres want = jgt_rrun(op, c->twin(), prep);
    bool ok;
    if (c->bad) {
      ok = (got.st == c->status && (got.index == c->index || (op->by_entry && got.index >= 0))) ||
           (want.st != JG_OK && got.st == want.st) ||
           (got.st == JG_OK && (got.carried || (c->deep && op->shallow)));
    } else {
      ok = got.st == want.st && (got.st != JG_OK || strcmp(got.text, want.text) == 0);
    }
    if (!ok) {
      print_error("case '%s', %s: got %s (index %lld: %s) %s; want %s%s (twin: %s) %s\n",
                  c->name, op->name, jg_status_name(got.st), (long long)got.index, got.msg,
                  got.text, c->bad ? "JG_EVALUE at the position or the twin's " : "",
                  jg_status_name(want.st), want.msg, want.text);
      failures++;
    }
  }
  return failures;
}

/* jg_array_validate(FULL) agrees with the table: bad cases fail with the case's status at its
 * index (the operations' convention), edge cases pass. */
static inline int jgt_rcheck_validate(const jgt_rcase *c, jgt_rprep_fn prep) {
  jg_array *a = prep != NULL ? prep(c->make()) : c->make();
  jg_error e;
  const jg_status st = jg_array_validate(a, JG_VALIDATE_FULL, NULL, &e);
  jg_array_release(a);
  const bool ok = c->bad ? st == c->status && e.index == c->index : st == JG_OK;
  if (!ok) {
    print_error("case '%s': validate gives %s (index %lld: %s)\n", c->name, jg_status_name(st),
                (long long)e.index, st == JG_OK ? "" : e.message);
  }
  return ok ? 0 : 1;
}

#endif /* JAGGED_TESTS_JGT_RANGES_CASES_H */
