/* jgt_reduce_none_cases.h: reductions of lists that hold None values (Awkward skips them), for
 * tests/unit/test_reduce_none.c (host) and tests/gpu/test_reduce_none_gpu.c (the same cases on
 * cuda:0, equal to the host and to the reference).
 *
 * One data set of seven lists of optional values, grouped into three events:
 *   [[None, 3, 1], [], [None, None]], [], [[2, None, 5, 0], [None], [-4], [1, 1, None, 7]]
 * built in every option representation (byte-masked valid when true or false, bit-masked LSB
 * or MSB first, indexed-option over its values in reverse order), under a list-offset node or a
 * list node whose lists start past two leading entries, with int64 or float64 values, and
 * with or without None lists: lists 0 and 5 made None by an option node of the same
 * representation over the seven lists (their data stays in the content and must be ignored). A
 * case is one input, one reducer, one axis (the innermost lists or axis 0 of the seven lists;
 * axis 2, 1 or 0 of the events), mask_identity -1/0/1 and keepdims. The expected result is
 * worked out here by a plain loop over the values that skips None values and None lists
 * (positions counted with the Nones, as Awkward's argmin of [None, 3, 1] is 2; left-aligned
 * merging at the outer axes), built as an array and compared with the reduction by their
 * printouts and types. Include after jg_test.h and jgt_array_cases.h. */
#ifndef JAGGED_TESTS_JGT_REDUCE_NONE_CASES_H
#define JAGGED_TESTS_JGT_REDUCE_NONE_CASES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* The data set: item values and validity, list counts, event offsets over the lists. */
#define JGT_RN_NLISTS 7
#define JGT_RN_NITEMS 15
#define JGT_RN_NEVENTS 3
static const int64_t jgt_rn_counts[JGT_RN_NLISTS] = {3, 0, 2, 4, 1, 1, 4};
static const int64_t jgt_rn_values[JGT_RN_NITEMS] = {0, 3, 1, 0, 0, 2, 0, 5,
                                                     0, 0, -4, 1, 1, 0, 7};
static const bool jgt_rn_valid[JGT_RN_NITEMS] = {false, true,  true,  false, false,
                                                 true,  false, true,  true,  false,
                                                 true,  true,  true,  false, true};
static const int64_t jgt_rn_events[JGT_RN_NEVENTS + 1] = {0, 3, 3, 7};
/* The lists that are None in the cases with None lists. */
static const bool jgt_rn_list_valid[JGT_RN_NLISTS] = {false, true, true, true, true, false, true};

/* Option representations. */
enum { JGT_RN_BYTE_T, JGT_RN_BYTE_F, JGT_RN_BIT_LSB, JGT_RN_BIT_MSB, JGT_RN_INDEXED, JGT_RN_NREPS };
/* Axes: the innermost lists and axis 0 of the seven lists (depth 2), and axes 2, 1, 0 of the
 * events. */
enum { JGT_RN_AX_LISTS, JGT_RN_AX_L0, JGT_RN_AX_2, JGT_RN_AX_1, JGT_RN_AX_0, JGT_RN_NAXES };

typedef struct jgt_rn_case {
  int rep;         /* JGT_RN_* representation */
  bool list_node;  /* lists as a list node (starts/stops) past two leading entries */
  bool f64;        /* float64 values, else int64 */
  bool none_lists; /* lists 0 and 5 None (jgt_rn_list_valid) */
  int axis;        /* JGT_RN_AX_* */
  jg_reducer r;
  int mask_identity;
  bool keepdims;
} jgt_rn_case;

static inline const char *jgt_rn_rep_name(int rep) {
  static const char *const names[] = {"byte-masked(valid_when=1)", "byte-masked(valid_when=0)",
                                      "bit-masked(lsb)", "bit-masked(msb,valid_when=0)",
                                      "indexed-option"};
  return names[rep];
}

/* The value of item k as a double and its validity (items past JGT_RN_NITEMS do not exist). */
static inline bool jgt_rn_item(int64_t k, double *v) {
  *v = (double)jgt_rn_values[k];
  return jgt_rn_valid[k];
}

/* ---- the input ---------------------------------------------------------------------------- */

/* An option node of representation `rep` over `len` entries of `content` (taken), entry e valid
 * where valid[e]; `index` is the indexed option's index (the others ignore it). */
static inline jg_array *jgt_rn_wrap(int rep, const bool *valid, const int64_t *index, jg_len len,
                                    jg_array *content) {
  switch (rep) {
    case JGT_RN_BYTE_T:
    case JGT_RN_BYTE_F: {
      int8_t m[JGT_RN_NITEMS + 8];
      for (jg_len e = 0; e < len; e++) m[e] = (int8_t)(valid[e] == (rep == JGT_RN_BYTE_T) ? 7 : 0);
      return jgt_byte_masked(m, len, rep == JGT_RN_BYTE_T, content);
    }
    case JGT_RN_BIT_LSB:
    case JGT_RN_BIT_MSB: {
      const bool lsb = rep == JGT_RN_BIT_LSB, when = lsb;
      uint8_t bytes[4] = {0, 0, 0, 0};
      for (jg_len e = 0; e < len; e++) {
        const bool bit = valid[e] == when;
        if (bit) bytes[e / 8] |= (uint8_t)(lsb ? 1u << (e % 8) : 0x80u >> (e % 8));
      }
      return jgt_bit_masked(bytes, (len + 7) / 8, when, lsb, len, content);
    }
    default:
      return jgt_indexed(index, len, JG_DTYPE_INT64, content);
  }
}

/* The option node over `len` entries: entry e < lead is a valid 99 (leading entries lists do
 * not reach), then the items, then one valid 99. */
static inline jg_array *jgt_rn_option(int rep, bool f64, jg_len lead) {
  const jg_len len = lead + JGT_RN_NITEMS + 1;
  bool valid[JGT_RN_NITEMS + 8];
  double val[JGT_RN_NITEMS + 8];
  for (jg_len e = 0; e < len; e++) {
    const jg_len k = e - lead;
    valid[e] = true;
    val[e] = 99;
    if (k >= 0 && k < JGT_RN_NITEMS) valid[e] = jgt_rn_item(k, &val[e]);
  }
  /* Content values: in entry order, or reversed for the indexed option. */
  double cv[JGT_RN_NITEMS + 8];
  int64_t iv[JGT_RN_NITEMS + 8], index[JGT_RN_NITEMS + 8];
  for (jg_len e = 0; e < len; e++) {
    const jg_len p = rep == JGT_RN_INDEXED ? len - 1 - e : e;
    cv[p] = valid[e] ? val[e] : -1000 - (double)e; /* garbage where None */
    iv[p] = (int64_t)cv[p];
    index[e] = valid[e] ? p : -1 - (e % 3);
  }
  jg_array *content = f64 ? jgt_numeric(cv, len, JG_DTYPE_FLOAT64) : jgt_i64(iv, len);
  return jgt_rn_wrap(rep, valid, index, len, content);
}

/* The seven lists over the option node (list-offset from 0, or a list node past 2 entries). */
static inline jg_array *jgt_rn_lists(int rep, bool list_node, bool f64) {
  const jg_len lead = list_node ? 2 : 0;
  jg_array *opt = jgt_rn_option(rep, f64, lead);
  int64_t off[JGT_RN_NLISTS + 1] = {0};
  for (int i = 0; i < JGT_RN_NLISTS; i++) off[i + 1] = off[i] + jgt_rn_counts[i];
  if (!list_node) return jgt_offsets64(off, JGT_RN_NLISTS + 1, opt);
  int64_t starts[JGT_RN_NLISTS], stops[JGT_RN_NLISTS];
  for (int i = 0; i < JGT_RN_NLISTS; i++) {
    starts[i] = off[i] + lead;
    stops[i] = off[i + 1] + lead;
  }
  return jgt_list(starts, stops, JGT_RN_NLISTS, JGT_RN_NLISTS, JG_DTYPE_INT64, opt);
}

static inline jg_array *jgt_rn_input(const jgt_rn_case *c) {
  jg_array *lists = jgt_rn_lists(c->rep, c->list_node, c->f64);
  if (c->none_lists) {
    int64_t index[JGT_RN_NLISTS];
    for (int i = 0; i < JGT_RN_NLISTS; i++) index[i] = jgt_rn_list_valid[i] ? i : -1 - i % 2;
    lists = jgt_rn_wrap(c->rep, jgt_rn_list_valid, index, JGT_RN_NLISTS, lists);
  }
  if (c->axis == JGT_RN_AX_LISTS || c->axis == JGT_RN_AX_L0) return lists;
  return jgt_offsets64(jgt_rn_events, JGT_RN_NEVENTS + 1, lists);
}

/* ---- the reference ------------------------------------------------------------------------ */

/* Reduces m candidates (validity, value, position along the axis) with r: *valid false when
 * the result is None (masked and no valid candidate). */
typedef struct jgt_rn_acc {
  int64_t n;          /* valid candidates */
  double sum, prod;   /* exact: small integers */
  double best[2];     /* min, max */
  int64_t at[2];      /* positions of the first min and max */
  int64_t nonzero;
} jgt_rn_acc;

static inline void jgt_rn_acc_init(jgt_rn_acc *a) {
  memset(a, 0, sizeof *a);
  a->prod = 1;
  a->at[0] = a->at[1] = -1;
}

static inline void jgt_rn_acc_add(jgt_rn_acc *a, double v, int64_t pos) {
  if (a->n == 0 || v < a->best[0]) {
    a->best[0] = v;
    a->at[0] = pos;
  }
  if (a->n == 0 || v > a->best[1]) {
    a->best[1] = v;
    a->at[1] = pos;
  }
  a->n++;
  a->sum += v;
  a->prod *= v;
  a->nonzero += v != 0;
}

static inline bool jgt_rn_masks(jg_reducer r, int mask_identity) {
  if (mask_identity != 0) return mask_identity > 0;
  return r == JG_REDUCE_MIN || r == JG_REDUCE_MAX || r == JG_REDUCE_ARGMIN || r == JG_REDUCE_ARGMAX;
}

/* Result dtype of r on int64 or float64 values. */
static inline jg_dtype jgt_rn_dtype(jg_reducer r, bool f64) {
  switch (r) {
    case JG_REDUCE_SUM:
    case JG_REDUCE_PROD:
    case JG_REDUCE_MIN:
    case JG_REDUCE_MAX:
      return f64 ? JG_DTYPE_FLOAT64 : JG_DTYPE_INT64;
    case JG_REDUCE_ANY:
    case JG_REDUCE_ALL:
      return JG_DTYPE_BOOL;
    case JG_REDUCE_MEAN:
      return JG_DTYPE_FLOAT64;
    default:
      return JG_DTYPE_INT64;
  }
}

/* Writes the result of `a` for r at element k of `out` (of jgt_rn_dtype) and its validity. */
static inline void jgt_rn_acc_put(const jgt_rn_acc *a, jg_reducer r, bool f64, void *out,
                                  int64_t k, bool *valid, bool masked) {
  double d = 0;
  int64_t i = 0;
  bool b = false;
  switch (r) {
    case JG_REDUCE_SUM:
      d = a->sum;
      break;
    case JG_REDUCE_PROD:
      d = a->prod;
      break;
    case JG_REDUCE_MIN:
      d = a->n ? a->best[0] : (f64 ? INFINITY : (double)INT64_MAX);
      i = a->n ? (int64_t)a->best[0] : INT64_MAX;
      break;
    case JG_REDUCE_MAX:
      d = a->n ? a->best[1] : (f64 ? -INFINITY : (double)INT64_MIN);
      i = a->n ? (int64_t)a->best[1] : INT64_MIN;
      break;
    case JG_REDUCE_ARGMIN:
      i = a->at[0];
      break;
    case JG_REDUCE_ARGMAX:
      i = a->at[1];
      break;
    case JG_REDUCE_COUNT:
      i = a->n;
      break;
    case JG_REDUCE_COUNT_NONZERO:
      i = a->nonzero;
      break;
    case JG_REDUCE_ANY:
      b = a->nonzero > 0;
      break;
    case JG_REDUCE_ALL:
      b = a->nonzero == a->n;
      break;
    case JG_REDUCE_MEAN:
      d = a->n ? a->sum / (double)a->n : NAN;
      break;
  }
  if (r == JG_REDUCE_SUM || r == JG_REDUCE_PROD) i = (int64_t)d;
  const jg_dtype t = jgt_rn_dtype(r, f64);
  if (t == JG_DTYPE_FLOAT64) {
    ((double *)out)[k] = d;
  } else if (t == JG_DTYPE_BOOL) {
    ((bool *)out)[k] = b;
  } else {
    ((int64_t *)out)[k] = i;
  }
  *valid = !(masked && a->n == 0);
}

/* Item positions of the lists: first item of list i. */
static inline int64_t jgt_rn_first(int64_t list) {
  int64_t k = 0;
  for (int64_t i = 0; i < list; i++) k += jgt_rn_counts[i];
  return k;
}

/* Merges lists ids[0..nids) left-aligned, the list ids[q] counted at position pos[q] along the
 * reduced axis (or, with pos NULL, each list alone: the innermost axis), appending one value
 * per merged (or list) position to out/valid from *len on. Returns the merged length. */
static inline int64_t jgt_rn_merge(const jgt_rn_case *c, const int64_t *ids, const int64_t *pos,
                                   int64_t nids, void *out, bool *valid, int64_t *len) {
  const bool masked = jgt_rn_masks(c->r, c->mask_identity);
  int64_t most = 0;
  for (int64_t q = 0; q < nids; q++) {
    if (jgt_rn_counts[ids[q]] > most) most = jgt_rn_counts[ids[q]];
  }
  for (int64_t j = 0; j < most; j++) {
    jgt_rn_acc a;
    jgt_rn_acc_init(&a);
    for (int64_t q = 0; q < nids; q++) {
      double v = 0;
      if (j < jgt_rn_counts[ids[q]] && jgt_rn_item(jgt_rn_first(ids[q]) + j, &v)) {
        jgt_rn_acc_add(&a, v, pos[q]);
      }
    }
    jgt_rn_acc_put(&a, c->r, c->f64, out, *len, &valid[*len], masked);
    (*len)++;
  }
  return most;
}

/* The innermost reduction of list `id` into out/valid at *len. */
static inline void jgt_rn_one(const jgt_rn_case *c, int64_t id, void *out, bool *valid,
                              int64_t *len) {
  jgt_rn_acc a;
  jgt_rn_acc_init(&a);
  for (int64_t j = 0; j < jgt_rn_counts[id]; j++) {
    double v = 0;
    if (jgt_rn_item(jgt_rn_first(id) + j, &v)) jgt_rn_acc_add(&a, v, j);
  }
  jgt_rn_acc_put(&a, c->r, c->f64, out, *len, &valid[*len],
                 jgt_rn_masks(c->r, c->mask_identity));
  (*len)++;
}

/* The expected result of a case, as an array (numbers, in a byte-masked node when masked,
 * under list-offset nodes for the levels the axis leaves, regular of size 1 for keepdims). */
static inline jg_array *jgt_rn_expected(const jgt_rn_case *c) {
  double vals[64];
  bool valid[64];
  int64_t len = 0, offs[16] = {0}, noffs = 0;
  int64_t ids[JGT_RN_NLISTS], pos[JGT_RN_NLISTS];
  switch (c->axis) {
    case JGT_RN_AX_LISTS:
    case JGT_RN_AX_2:
      for (int64_t i = 0; i < JGT_RN_NLISTS; i++) jgt_rn_one(c, i, vals, valid, &len);
      break;
    case JGT_RN_AX_L0: { /* all the (valid) lists merged */
      int64_t n = 0;
      for (int64_t i = 0; i < JGT_RN_NLISTS; i++) {
        if (c->none_lists && !jgt_rn_list_valid[i]) continue;
        ids[n] = i;
        pos[n++] = i;
      }
      jgt_rn_merge(c, ids, pos, n, vals, valid, &len);
      break;
    }
    case JGT_RN_AX_1: /* each event's (valid) lists merged */
      for (int64_t e = 0; e < JGT_RN_NEVENTS; e++) {
        int64_t n = 0;
        for (int64_t i = jgt_rn_events[e]; i < jgt_rn_events[e + 1]; i++) {
          if (c->none_lists && !jgt_rn_list_valid[i]) continue;
          ids[n] = i;
          pos[n++] = i - jgt_rn_events[e];
        }
        offs[e + 1] = offs[e] + jgt_rn_merge(c, ids, pos, n, vals, valid, &len);
      }
      noffs = JGT_RN_NEVENTS + 1;
      break;
    case JGT_RN_AX_0: { /* list k of every event merged */
      int64_t most = 0;
      for (int64_t e = 0; e < JGT_RN_NEVENTS; e++) {
        const int64_t cnt = jgt_rn_events[e + 1] - jgt_rn_events[e];
        if (cnt > most) most = cnt;
      }
      for (int64_t k = 0; k < most; k++) {
        int64_t n = 0;
        for (int64_t e = 0; e < JGT_RN_NEVENTS; e++) {
          const int64_t i = jgt_rn_events[e] + k;
          if (i < jgt_rn_events[e + 1] && !(c->none_lists && !jgt_rn_list_valid[i])) {
            ids[n] = i;
            pos[n++] = e;
          }
        }
        offs[k + 1] = offs[k] + jgt_rn_merge(c, ids, pos, n, vals, valid, &len);
      }
      noffs = most + 1;
      break;
    }
  }
  jg_array *res = jgt_numeric(vals, len, jgt_rn_dtype(c->r, c->f64));
  if (jgt_rn_masks(c->r, c->mask_identity)) {
    int8_t m[64];
    for (int64_t k = 0; k < len; k++) m[k] = valid[k] ? 1 : 0;
    res = jgt_byte_masked(m, len, true, res);
  }
  if (c->axis == JGT_RN_AX_1 || c->axis == JGT_RN_AX_0) res = jgt_offsets64(offs, noffs, res);
  if (c->keepdims) {
    res = c->axis == JGT_RN_AX_0 || c->axis == JGT_RN_AX_L0
              ? jgt_regular(res, jg_array_length(res), 1)
              : jgt_regular(res, 1, -1);
  }
  /* Innermost axes: a None list's result is None (an option above the results). */
  if (c->none_lists && (c->axis == JGT_RN_AX_LISTS || c->axis == JGT_RN_AX_2)) {
    int8_t m[JGT_RN_NLISTS];
    for (int i = 0; i < JGT_RN_NLISTS; i++) m[i] = jgt_rn_list_valid[i];
    res = jgt_byte_masked(m, JGT_RN_NLISTS, true, res);
  }
  if (c->axis == JGT_RN_AX_2) res = jgt_offsets64(jgt_rn_events, JGT_RN_NEVENTS + 1, res);
  return res;
}

/* "printout :: type" of `a` into buf (returned). */
static inline const char *jgt_rn_desc(const jg_array *a, char *buf, size_t size) {
  char v[3000], t[512];
  JGT_OK(jg_array_to_string(a, 2900, v, sizeof v, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(a, t, sizeof t, NULL, &jgt_err_));
  snprintf(buf, size, "%s :: %s", v, t);
  return buf;
}

/* Runs a case's reduction on `a` (its input, on any backend). */
static inline jg_status jgt_rn_run(const jgt_rn_case *c, const jg_array *a, jg_stream stream,
                                   jg_array **out, jg_error *err) {
  static const int64_t axes[JGT_RN_NAXES] = {-1, 0, 2, 1, 0};
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  o.axis = axes[c->axis];
  o.mask_identity = c->mask_identity;
  o.keepdims = c->keepdims;
  o.stream = stream;
  return jg_array_reduce(a, c->r, &o, out, err);
}

/* Case number i of JGT_RN_COUNT (every combination), in *c; a name into buf. */
#define JGT_RN_COUNT (JGT_RN_NREPS * 2 * 2 * 2 * JGT_RN_NAXES * 11 * 3 * 2)
static inline void jgt_rn_case_at(int i, jgt_rn_case *c, char *buf, size_t size) {
  c->keepdims = i % 2;
  i /= 2;
  c->mask_identity = i % 3 - 1;
  i /= 3;
  c->r = (jg_reducer)(JG_REDUCE_SUM + i % 11);
  i /= 11;
  c->axis = i % JGT_RN_NAXES;
  i /= JGT_RN_NAXES;
  c->f64 = i % 2;
  i /= 2;
  c->list_node = i % 2;
  i /= 2;
  c->none_lists = i % 2;
  i /= 2;
  c->rep = i;
  static const char *const axes[JGT_RN_NAXES] = {"-1 of lists", "0 of lists", "2", "1", "0"};
  snprintf(buf, size, "%s %s %s%s %s axis %s mask_identity %d keepdims %d",
           jg_reducer_name(c->r), jgt_rn_rep_name(c->rep), c->list_node ? "list" : "list-offset",
           c->none_lists ? " (None lists)" : "", c->f64 ? "float64" : "int64", axes[c->axis],
           c->mask_identity, (int)c->keepdims);
}

#endif /* JAGGED_TESTS_JGT_REDUCE_NONE_CASES_H */
