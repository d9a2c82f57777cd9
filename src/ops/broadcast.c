/* broadcast.c: broadcasting arrays against each other through jagged structure
 * (internal/jgi_broadcast.h), with Awkward Array 2.x's rules (../shared/notes/awkward.md 6.2).
 *
 * How. Every input is a chain of single-content nodes (lists, regular, options) down to a numeric
 * leaf. The walk goes down all the inputs together, one depth at a time, keeping for each input a
 * "carry": for every position of the output at this depth, the entry of the input's current node
 * it comes from (an int64 array, -1 for None), or, while that is a contiguous range, just its
 * first entry (`identity`: position i comes from base + i, no array at all). At each depth:
 *
 *  1. options: every option input ANDs its validity into one byte mask of the depth
 *     (option_carry op 0), then every input's carry becomes the position in its next node, -1
 *     wherever the mask is false (op 1): a None anywhere is None for all;
 *  2. lists: the inputs at a list node (list-offset, list, regular) must agree on every list's
 *     count (carry_counts checks them against the first one's; a regular node of size 1 stretches
 *     to any count, as NumPy's size-1 dimensions do); the output's compact offsets are the scan
 *     of the counts; list_parents gives each element its list, and broadcast_carry the carries of
 *     the next depth: into the lists for list inputs, the value repeated across the list for the
 *     others (a flat array of one value per list, or a shallower jagged array's values inside the
 *     deeper one's innermost lists);
 *  3. leaves: when no input has a list left, each input's values are gathered through its carry
 *     (take_option: 0 where None), or passed as they are when the carry is a range.
 *
 * The fast path that ufuncs on jagged arrays mostly take costs no kernel but one counts
 * comparison: inputs that are list-offset nodes reached through a range keep a range (their
 * elements are contiguous), their offsets are compared with counts_equal, one of them is shared
 * as the output's offsets when it starts at 0, and the leaves are the inputs' own buffers.
 *
 * A length-1 input without lists (one number) is a scalar: it is never walked and its leaf is its
 * one element. Other length-1 inputs broadcast along the outer dimension (NumPy's rule), through
 * a carry of zeros. Everything runs on the context's backend: kernels of the catalog, plus a
 * handful of single values read back (first offsets, totals, the counts a message quotes). */
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_broadcast.h"
#include "kernels/scan/scan.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include "internal/jgi_cuda.h"
#endif

extern JGI_HIDDEN const jg_kernel jgi_kernel_option_carry;
extern JGI_HIDDEN const jg_kernel jgi_kernel_carry_counts;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_parents;
extern JGI_HIDDEN const jg_kernel jgi_kernel_broadcast_carry;
extern JGI_HIDDEN const jg_kernel jgi_kernel_take_option;
extern JGI_HIDDEN const jg_kernel jgi_kernel_counts_equal;
extern JGI_HIDDEN const jg_kernel jgi_kernel_offsets_to_counts;
extern JGI_HIDDEN const jg_kernel jgi_kernel_fill;

/* Deepest structure walked (as the reductions and validation cap it). */
#define MAX_DEPTH 1000

/* One depth of the output: an optional validity mask (bool, true = valid) over its entries, then
 * optionally lists (compact offsets over the next depth). */
typedef struct level {
  bool has_mask;
  jg_view mask;
  bool is_list;
  jg_view offsets;
} level;

typedef struct priv_state {
  level *levels;
  int nlevels;
  int caplevels;
  jg_buffer **held; /* references kept on the buffers the levels' views use */
  int nheld;
  int capheld;
} priv_state;

/* The walk's state of one input. */
typedef struct input {
  const jg_array *node; /* current node; NULL for a scalar */
  bool identity;        /* position i -> entry base + i of node */
  int64_t base;
  jg_kernel_arg carry;  /* int64, L entries, when !identity (-1: None) */
} input;

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                               */
/* ------------------------------------------------------------------------------------------ */

static const char *default_name(int n, int k) {
  static const char *const two[] = {"x", "y"};
  static const char *const three[] = {"x", "y", "z"};
  static const char *const more[] = {"argument 0", "argument 1", "argument 2", "argument 3",
                                     "argument 4", "argument 5", "argument 6", "argument 7"};
  if (n == 1) return "x";
  if (n == 2) return two[k];
  if (n == 3) return three[k];
  return more[k];
}

static jg_status hold(priv_state *p, const jg_view *v, jg_error *err) {
  if (v->buffer == NULL) return JG_OK;
  if (p->nheld == p->capheld) {
    const int cap = p->capheld == 0 ? 8 : 2 * p->capheld;
    jg_buffer **h = realloc(p->held, (size_t)cap * sizeof *h);
    JG_RETURN_IF(h == NULL, JG_ENOMEM, err, "out of memory");
    p->held = h;
    p->capheld = cap;
  }
  p->held[p->nheld++] = jg_buffer_retain(v->buffer);
  return JG_OK;
}

static jg_status push_level(priv_state *p, const level *lv, jg_error *err) {
  if (p->nlevels == p->caplevels) {
    const int cap = p->caplevels == 0 ? 4 : 2 * p->caplevels;
    level *l = realloc(p->levels, (size_t)cap * sizeof *l);
    JG_RETURN_IF(l == NULL, JG_ENOMEM, err, "out of memory");
    p->levels = l;
    p->caplevels = cap;
  }
  if (lv->has_mask) JG_RETURN_NOT_OK(hold(p, &lv->mask, err));
  if (lv->is_list) JG_RETURN_NOT_OK(hold(p, &lv->offsets, err));
  p->levels[p->nlevels++] = *lv;
  return JG_OK;
}

/* An empty array argument of `dtype` on c's device (for parameters a call does not read). */
static jg_kernel_arg none_arg(const jgi_op_ctx *c, jg_dtype dtype) {
  return jg_arg_array(NULL, 0, dtype, c->device);
}

static jg_kernel_arg carry_arg(const jgi_op_ctx *c, const input *in) {
  return in->identity ? none_arg(c, JG_DTYPE_INT64) : in->carry;
}

/* Element i of the int32/int64 array at `data` on c's backend, widened (one value read back from
 * a device). */
static jg_status read_index(jgi_op_ctx *c, const void *data, jg_dtype dtype, jg_len i,
                            int64_t *out, jg_error *err) {
  return jgi_op_read_ints(c, data, dtype, &i, 1, out, "broadcast: a value", err);
}

/* Offsets `lo .. lo + count` (count + 1 entries) of a list-offset node as a 1-D view sharing its
 * buffer. */
static jg_status offsets_slice(const jg_array *node, jg_len lo, jg_len count, jg_view *out,
                               jg_error *err) {
  const jg_slice s = JG_SLICE(lo, lo + count + 1, 1);
  return jg_view_slice(out, &node->buffers[0], 1, &s, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Checks of the inputs                                                                        */
/* ------------------------------------------------------------------------------------------ */

static bool kernel_dtype(jg_dtype d) {
  return (d >= JG_DTYPE_BOOL && d <= JG_DTYPE_UINT64) || d == JG_DTYPE_FLOAT32 ||
         d == JG_DTYPE_FLOAT64;
}

static jg_status check_tree(const jgi_op_ctx *c, const jg_array *a, const char *name,
                            jg_error *err) {
  int depth = 0;
  const jg_array *p = a;
  for (; jgi_node_has_one_content(p->kind); p = p->children[0]) {
    JG_RETURN_IF(++depth > MAX_DEPTH, JG_ENOTSUP, err,
                 "cannot broadcast %s: nested deeper than %d levels", name, MAX_DEPTH);
  }
  if (p->kind == JG_NODE_RECORD) {
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "cannot broadcast records in %s: apply it to one field at a time "
                        "(jg_array_field); %s holds records",
                        c->fn, name);
  }
  if (p->kind == JG_NODE_NUMERIC) {
    const jg_view *d = &p->buffers[0];
    JG_RETURN_IF(d->layout.ndim != 1, JG_ENOTSUP, err,
                 "cannot broadcast %s: numeric data of %d dimensions (regular inner dimensions "
                 "of numeric data are not supported in this version)",
                 name, (int)d->layout.ndim);
    JG_RETURN_IF(!kernel_dtype(d->dtype), JG_EDTYPE, err, "cannot broadcast %s: %s values", name,
                 jg_dtype_name(d->dtype));
    return JG_OK;
  }
  JG_RETURN_IF(p->kind != JG_NODE_EMPTY, JG_EINVAL, err, "cannot broadcast %s: a %s node", name,
               jgi_array_node_name(p->kind));
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* The walk                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static bool is_list_like(jg_node_kind k) { return jgi_node_is_list(k) || k == JG_NODE_REGULAR; }

/* A carry of L zeros (a length-1 input along an outer dimension of L). */
static jg_status zeros_carry(jgi_op_ctx *c, jg_len L, input *in, jg_error *err) {
  jg_view v;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L, JG_DTYPE_INT64, &v, err));
  const jg_kernel_arg args[3] = {jg_arg_i64(L), jg_arg_i64(0), jgi_op_out_arg(&v)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, args, 3, &c->launch, err));
  in->identity = false;
  in->base = 0;
  in->carry = jgi_op_out_arg(&v);
  return JG_OK;
}

/* The option step at one depth (see the top). */
static jg_status option_step(jgi_op_ctx *c, int n, input *ins, jg_len L, level *lv,
                             jg_error *err) {
  for (;;) {
    bool any = false;
    for (int k = 0; k < n; k++) any |= ins[k].node != NULL && jgi_node_is_option(ins[k].node->kind);
    if (!any) return JG_OK;
    if (!lv->has_mask) {
      JG_RETURN_NOT_OK(jgi_op_alloc(c, L, JG_DTYPE_BOOL, &lv->mask, err));
      const jg_kernel_arg fargs[3] = {jg_arg_i64(L), jg_arg_i64(1), jgi_op_out_arg(&lv->mask)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, fargs, 3, &c->launch, err));
      lv->has_mask = true;
    }
    for (int op = 0; op < 2; op++) {
      for (int k = 0; k < n; k++) {
        input *in = &ins[k];
        if (in->node == NULL) continue;
        const jg_array *node = in->node;
        const bool opt = jgi_node_is_option(node->kind);
        if (op == 0 && !opt) continue;
        int64_t kind = 3, m = 0;
        jg_kernel_arg mask = none_arg(c, JG_DTYPE_BOOL);
        if (opt) {
          kind = node->kind == JG_NODE_BYTE_MASKED ? 0 : node->kind == JG_NODE_BIT_MASKED ? 1 : 2;
          const jg_view *mv = &node->buffers[0];
          JG_RETURN_NOT_OK(jgi_op_view_arg(c, mv, 0, mv->layout.shape[0], &mask, err));
          m = node->children[0]->length;
        }
        jg_view out;
        jg_kernel_arg oarg = none_arg(c, JG_DTYPE_INT64);
        if (op == 1) {
          JG_RETURN_NOT_OK(jgi_op_alloc(c, L, JG_DTYPE_INT64, &out, err));
          oarg = jgi_op_out_arg(&out);
        }
        const jg_kernel_arg args[14] = {
            jg_arg_i64(L),           jg_arg_i64(op),         jg_arg_i64(kind),
            jg_arg_i64(node->valid_when), jg_arg_i64(node->bit_offset),
            jg_arg_i64(node->lsb_order), jg_arg_i64(in->identity), jg_arg_i64(in->base),
            carry_arg(c, in),        jg_arg_i64(node->length), mask,
            jg_arg_i64(m),           jgi_op_out_arg(&lv->mask), oarg};
        JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_option_carry, args, 14, &c->launch, err));
        if (op == 1) {
          in->identity = false;
          in->base = 0;
          in->carry = oarg;
          if (opt) in->node = node->children[0];
        }
      }
    }
  }
}

/* Starts and stops arguments of a list-like node (dummies for a regular node). */
static jg_status list_args(jgi_op_ctx *c, const jg_array *node, jg_kernel_arg *starts,
                           jg_kernel_arg *stops, jg_error *err) {
  if (node->kind == JG_NODE_REGULAR) {
    *starts = *stops = none_arg(c, JG_DTYPE_INT64);
    return JG_OK;
  }
  return jgi_op_list_args(c, node, starts, stops, err);
}

/* counts[i] of input `in` at a list depth (carry_counts), optionally checked against `expect`. */
static jg_status input_counts(jgi_op_ctx *c, const input *in, jg_len L, const jg_view *expect,
                              jg_view *counts, jg_error *err) {
  const jg_array *node = in->node;
  jg_kernel_arg starts, stops;
  JG_RETURN_NOT_OK(list_args(c, node, &starts, &stops, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L, JG_DTYPE_INT64, counts, err));
  const jg_kernel_arg args[12] = {
      jg_arg_i64(L),
      jg_arg_i64(in->identity),
      jg_arg_i64(in->base),
      carry_arg(c, in),
      jg_arg_i64(node->kind == JG_NODE_REGULAR ? node->regular_size : -1),
      jg_arg_i64(node->length),
      starts,
      stops,
      jg_arg_i64(node->children[0]->length),
      jg_arg_i64(expect != NULL),
      expect != NULL ? jgi_op_out_arg(expect) : none_arg(c, JG_DTYPE_INT64),
      jgi_op_out_arg(counts)};
  return jg_kernel_call(&jgi_kernel_carry_counts, args, 12, &c->launch, err);
}

/* The ESHAPE message for list `i` (at depth `depth`) whose counts differ between inputs a and b. */
static jg_status counts_error(jg_len i, int depth, int64_t ka, const char *na, int64_t kb,
                              const char *nb, jg_error *err) {
  if (depth == 1) {
    return jg_error_set(err, JG_ESHAPE, i,
                        "cannot broadcast: list %lld has %lld elements in %s and %lld in %s",
                        (long long)i, (long long)ka, na, (long long)kb, nb);
  }
  return jg_error_set(err, JG_ESHAPE, i,
                      "cannot broadcast: list %lld at depth %d has %lld elements in %s and %lld "
                      "in %s",
                      (long long)i, depth, (long long)ka, na, (long long)kb, nb);
}

/* Whether input `in` at a list depth takes part in the count agreement (a regular node of size
 * 1 stretches when another input has other lists). */
static bool stretches(const input *in) {
  return in->node->kind == JG_NODE_REGULAR && in->node->regular_size == 1;
}

typedef struct walk {
  jgi_op_ctx *c;
  int n;
  input *ins;
  const char *const *names;
  priv_state *p;
} walk;

/* The list step at one depth: returns the length of the next depth in *next. */
static jg_status list_step(walk *w, jg_len L, int depth, level *lv, jg_len *next,
                           jg_error *err) {
  jgi_op_ctx *c = w->c;
  input *ins = w->ins;
  const int n = w->n;
  bool driver[JGI_BROADCAST_MAX] = {false};
  bool any_nonstretch = false;
  for (int k = 0; k < n; k++) {
    if (ins[k].node != NULL && is_list_like(ins[k].node->kind) && !stretches(&ins[k]))
      any_nonstretch = true;
  }
  int first = -1;
  bool fast = true;
  for (int k = 0; k < n; k++) {
    if (ins[k].node == NULL || !is_list_like(ins[k].node->kind)) continue;
    if (any_nonstretch && stretches(&ins[k])) continue;
    driver[k] = true;
    if (first < 0) first = k;
    if (!(ins[k].identity && ins[k].node->kind == JG_NODE_LIST_OFFSET)) fast = false;
  }

  jg_view offsets;
  jg_len total = 0;
  bool need_parents = false;
  int64_t new_base[JGI_BROADCAST_MAX] = {0};

  if (fast) {
    /* Every driver is a list-offset node reached through a range: lists base..base+L. */
    int share = -1;
    int64_t lo0 = 0, hi0 = 0;
    for (int k = 0; k < n; k++) {
      if (!driver[k]) continue;
      const jg_array *node = ins[k].node;
      const jg_view *ov = &node->buffers[0];
      JG_RETURN_IF(ins[k].base < 0 || ins[k].base + L > node->length, JG_EINTERNAL, err,
                   "broadcast range [%lld, %lld) outside %lld lists", (long long)ins[k].base,
                   (long long)(ins[k].base + L), (long long)node->length);
      jg_kernel_arg oa;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, ov, ins[k].base, L + 1, &oa, err));
      const jg_len ends[2] = {0, L};
      int64_t lohi[2] = {0, 0};
      JG_RETURN_NOT_OK(jgi_op_read_ints(c, oa.v.array.data, ov->dtype, ends, 2, lohi,
                                        "broadcast: first and last offset", err));
      const int64_t lo = lohi[0], hi = lohi[1];
      JG_RETURN_IF(hi < lo || (hi > lo && (lo < 0 || hi > node->children[0]->length)), JG_EVALUE,
                   err,
                   "%s: offsets [%lld, %lld] of lists %lld..%lld at depth %d leave the content "
                   "of %lld elements (or decrease)",
                   w->names[k], (long long)lo, (long long)hi, (long long)ins[k].base,
                   (long long)(ins[k].base + L), depth, (long long)node->children[0]->length);
      if (k == first) {
        lo0 = lo;
        hi0 = hi;
      } else {
        const jg_array *fn = ins[first].node;
        const bool same = fn->buffers[0].buffer == ov->buffer &&
                          jg_view_data(&fn->buffers[0]) == jg_view_data(ov) &&
                          fn->buffers[0].dtype == ov->dtype &&
                          fn->buffers[0].layout.strides[0] == ov->layout.strides[0] &&
                          ins[first].base == ins[k].base;
        if (!same) {
          jg_kernel_arg sa, ta, sb, tb;
          jg_view fv;
          JG_RETURN_NOT_OK(offsets_slice(fn, ins[first].base, L, &fv, err));
          JG_RETURN_NOT_OK(jgi_op_view_arg(c, &fv, 0, L + 1, &sa, err));
          ta = sa;
          ta.v.array.data = (char *)sa.v.array.data + fv.layout.itemsize * (L > 0 ? 1 : 0);
          sa.v.array.length = ta.v.array.length = L;
          sb = oa;
          tb = oa;
          tb.v.array.data = (char *)oa.v.array.data + ov->layout.itemsize * (L > 0 ? 1 : 0);
          sb.v.array.length = tb.v.array.length = L;
          const jg_kernel_arg args[5] = {jg_arg_i64(L), sa, ta, sb, tb};
          jg_error e2;
          const jg_status st = jg_kernel_call(&jgi_kernel_counts_equal, args, 5, &c->launch, &e2);
          if (st == JG_ESHAPE && e2.index >= 0 && e2.index < L) {
            const jg_len i = e2.index;
            int64_t a0, a1, b0, b1;
            JG_RETURN_NOT_OK(read_index(c, sa.v.array.data, sa.dtype, i, &a0, err));
            JG_RETURN_NOT_OK(read_index(c, sa.v.array.data, sa.dtype, i + 1, &a1, err));
            JG_RETURN_NOT_OK(read_index(c, sb.v.array.data, sb.dtype, i, &b0, err));
            JG_RETURN_NOT_OK(read_index(c, sb.v.array.data, sb.dtype, i + 1, &b1, err));
            return counts_error(i, depth, a1 - a0, w->names[first], b1 - b0, w->names[k], err);
          }
          if (st != JG_OK) {
            if (err != NULL) *err = e2;
            return st;
          }
        }
      }
      /* Empty lists carry no data wherever they start (an empty list may start past the
       * content): the next depth then walks an empty range from 0. */
      new_base[k] = hi > lo ? lo : 0;
      if (share < 0 && lo == 0) share = k;
    }
    total = hi0 - lo0;
    if (share >= 0) {
      JG_RETURN_NOT_OK(offsets_slice(ins[share].node, ins[share].base, L, &offsets, err));
    } else {
      /* Counts of the first driver, then their scan. */
      jg_view fv, counts;
      jg_kernel_arg oa;
      JG_RETURN_NOT_OK(offsets_slice(ins[first].node, ins[first].base, L, &fv, err));
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, &fv, 0, L + 1, &oa, err));
      JG_RETURN_NOT_OK(jgi_op_alloc(c, L, JG_DTYPE_INT64, &counts, err));
      const jg_kernel_arg args[3] = {jg_arg_i64(L), oa, jgi_op_out_arg(&counts)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_offsets_to_counts, args, 3, &c->launch, err));
      int64_t t = 0;
      JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &counts, L, &offsets, &t, err));
      JG_RETURN_IF(t != total, JG_EVALUE, err, "%s: offsets decrease at depth %d",
                   w->names[first], depth);
    }
    for (int k = 0; k < n; k++) {
      if (ins[k].node != NULL && !driver[k]) need_parents = true;
    }
  } else {
    jg_view counts0;
    JG_RETURN_NOT_OK(input_counts(c, &ins[first], L, NULL, &counts0, err));
    for (int k = first + 1; k < n; k++) {
      if (!driver[k]) continue;
      jg_view ck;
      jg_error e2;
      jg_status st = input_counts(c, &ins[k], L, &counts0, &ck, &e2);
      if (st == JG_ESHAPE && e2.index >= 0 && e2.index < L) {
        const jg_len i = e2.index;
        JG_RETURN_NOT_OK(input_counts(c, &ins[k], L, NULL, &ck, err));
        int64_t ka = 0, kb = 0;
        JG_RETURN_NOT_OK(read_index(c, jg_view_data(&counts0), JG_DTYPE_INT64, i, &ka, err));
        JG_RETURN_NOT_OK(read_index(c, jg_view_data(&ck), JG_DTYPE_INT64, i, &kb, err));
        return counts_error(i, depth, ka, w->names[first], kb, w->names[k], err);
      }
      if (st != JG_OK) {
        if (err != NULL) *err = e2;
        return jgi_error_prefix(st, w->names[k], err);
      }
    }
    JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &counts0, L, &offsets, &total, err));
    need_parents = true;
  }

  /* The next depth's carries. */
  jg_kernel_arg parents = none_arg(c, JG_DTYPE_INT64);
  jg_kernel_arg oarg;
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, &offsets, 0, L + 1, &oarg, err));
  jg_view off64 = offsets;
  jg_kernel_arg off64arg = oarg;
  if (need_parents && total > 0) {
    jg_view pv;
    JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &pv, err));
    const jg_kernel_arg args[4] = {jg_arg_i64(L), jg_arg_i64(total), oarg, jgi_op_out_arg(&pv)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_parents, args, 4, &c->launch, err));
    parents = jgi_op_out_arg(&pv);
    if (offsets.dtype != JG_DTYPE_INT64) {
      /* broadcast_carry takes int64 offsets: widen a shared int32 slice (rare: a fast path with a
       * repeated input over int32 offsets). */
      jg_view counts;
      JG_RETURN_NOT_OK(jgi_op_alloc(c, L, JG_DTYPE_INT64, &counts, err));
      const jg_kernel_arg cargs[3] = {jg_arg_i64(L), oarg, jgi_op_out_arg(&counts)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_offsets_to_counts, cargs, 3, &c->launch, err));
      int64_t t = 0;
      JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &counts, L, &off64, &t, err));
      off64arg = jgi_op_out_arg(&off64);
    }
  }
  for (int k = 0; k < n; k++) {
    input *in = &ins[k];
    if (in->node == NULL) continue;
    const jg_array *node = in->node;
    const bool into = driver[k];
    if (fast && into) {
      in->identity = true;
      in->base = new_base[k];
      in->node = node->children[0];
      continue;
    }
    if (!into && in->identity && in->base == 0 && total > 0) {
      in->carry = parents; /* the value of list p repeated across it: carry = parents */
      in->identity = false;
    } else if (total == 0) {
      in->identity = true;
      in->base = 0;
    } else {
      jg_kernel_arg starts = none_arg(c, JG_DTYPE_INT64), stops;
      if (into && node->kind != JG_NODE_REGULAR) {
        JG_RETURN_NOT_OK(jgi_op_list_args(c, node, &starts, &stops, err));
      }
      jg_view out;
      JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &out, err));
      const jg_kernel_arg args[11] = {
          jg_arg_i64(total),
          jg_arg_i64(L),
          parents,
          off64arg,
          jg_arg_i64(in->identity),
          jg_arg_i64(in->base),
          carry_arg(c, in),
          jg_arg_i64(into),
          jg_arg_i64(node->kind == JG_NODE_REGULAR ? node->regular_size : -1),
          starts,
          jgi_op_out_arg(&out)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_broadcast_carry, args, 11, &c->launch, err));
      in->carry = jgi_op_out_arg(&out);
      in->identity = false;
      in->base = 0;
    }
    /* List inputs go into their content; a stretched size-1 regular node too (its one element
     * per list is at position c * 1 + 0 = c, the repeated carry). */
    if (is_list_like(node->kind)) in->node = node->children[0];
  }
  lv->is_list = true;
  lv->offsets = offsets;
  *next = total;
  return JG_OK;
}

/* The leaf step: each input's values aligned to L positions. */
static jg_status leaf_step(walk *w, jg_len L, jgi_broadcast *b, jg_error *err) {
  jgi_op_ctx *c = w->c;
  for (int k = 0; k < w->n; k++) {
    input *in = &w->ins[k];
    if (in->node == NULL) continue;
    const jg_array *node = in->node;
    jg_kernel_arg content = none_arg(c, JG_DTYPE_FLOAT64);
    jg_len m = 0;
    if (node->kind == JG_NODE_NUMERIC) {
      const jg_view *dv = &node->buffers[0];
      m = dv->layout.shape[0];
      if (in->identity) {
        JG_RETURN_IF(L > 0 && (in->base < 0 || in->base + L > m), JG_EVALUE, err,
                     "%s: its lists reach elements [%lld, %lld) of a content of %lld",
                     w->names[k], (long long)in->base, (long long)(in->base + L), (long long)m);
        JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, in->base, L, &b->leaves[k], err));
        if (L == 0) b->leaves[k] = none_arg(c, dv->dtype);
        continue;
      }
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, 0, m, &content, err));
    } else if (in->identity) {
      JG_RETURN_IF(L > 0, JG_EVALUE, err, "%s: its lists reach %lld elements of empty content",
                   w->names[k], (long long)L);
      b->leaves[k] = none_arg(c, JG_DTYPE_FLOAT64);
      continue;
    }
    jg_view out;
    JG_RETURN_NOT_OK(jgi_op_alloc(c, L, content.dtype, &out, err));
    const jg_kernel_arg args[5] = {jg_arg_i64(L), jg_arg_i64(m), content, in->carry,
                                   jgi_op_out_arg(&out)};
    jg_error e2;
    const jg_status st = jg_kernel_call(&jgi_kernel_take_option, args, 5, &c->launch, &e2);
    if (st != JG_OK) {
      if (err != NULL) *err = e2;
      return jgi_error_prefix(st == JG_EINDEX ? JG_EVALUE : st, w->names[k], err);
    }
    b->leaves[k] = jgi_op_out_arg(&out);
  }
  return JG_OK;
}

/* The number of regular dimensions of `a` when it is purely regular (regular nodes down to a
 * 1-D numeric or empty leaf: NumPy-like), else -1. */
static int regular_depth(const jg_array *a) {
  int d = 0;
  for (; a->kind == JG_NODE_REGULAR; a = a->children[0]) d++;
  if (a->kind == JG_NODE_EMPTY || (a->kind == JG_NODE_NUMERIC && a->buffers[0].layout.ndim == 1))
    return d;
  return -1;
}

/* NumPy's right alignment of purely regular inputs (Awkward's left broadcasting): when every
 * input that is not a scalar is purely regular, the shallower ones get length-1 regular
 * dimensions on the left (a regular node of size len(x) and length 1 per missing dimension), so
 * that shapes (3,) and (2, 3) meet as (1, 3) and (2, 3). pad[k] gets the new node (released by
 * the caller) or NULL; arrays[k] is replaced by it. */
static jg_status left_pad(int n, const jg_array **arrays, jg_array **pad, jg_error *err) {
  int depth[JGI_BROADCAST_MAX], maxd = 0, walked = 0;
  for (int k = 0; k < n; k++) pad[k] = NULL;
  for (int k = 0; k < n; k++) {
    depth[k] = -2; /* a scalar: not walked */
    if (arrays[k]->kind == JG_NODE_NUMERIC && arrays[k]->length == 1) continue;
    depth[k] = regular_depth(arrays[k]);
    if (depth[k] < 0) return JG_OK; /* var lists or options: Awkward aligns on the left */
    if (depth[k] > maxd) maxd = depth[k];
    walked++;
  }
  if (walked < 2) return JG_OK;
  for (int k = 0; k < n; k++) {
    for (int d = depth[k]; d >= 0 && d < maxd; d++) {
      jg_array *content = pad[k] != NULL ? pad[k] : (jg_array *)arrays[k];
      jg_array *up = NULL;
      const jg_len size = content->length;
      const jg_status st = jg_array_regular(content, size, 1, &up, err);
      jg_array_release(pad[k]);
      pad[k] = up;
      if (st != JG_OK) return st;
      /* size 0 gives length 1 as asked; size > 0 gives len / size = 1 */
    }
    if (pad[k] != NULL) arrays[k] = pad[k];
  }
  return JG_OK;
}

jg_status jgi_broadcast_init_named(jgi_op_ctx *c, int n, const jg_array *const *arrays,
                                   const char *const *names, jgi_broadcast *b, jg_error *err) {
  memset(b, 0, sizeof *b);
  JG_RETURN_IF(n < 1 || n > JGI_BROADCAST_MAX || arrays == NULL, JG_EINVAL, err,
               "%s: %d arrays to broadcast (1..%d)", c->fn, n, JGI_BROADCAST_MAX);
  const char *nm[JGI_BROADCAST_MAX];
  for (int k = 0; k < n; k++) {
    nm[k] = names != NULL && names[k] != NULL ? names[k] : default_name(n, k);
    JG_RETURN_IF(arrays[k] == NULL, JG_EINVAL, err, "%s: %s is NULL", c->fn, nm[k]);
  }
  for (int k = 0; k < n; k++) {
    if (!jgi_device_equal(arrays[k]->device, c->device)) {
      int other = k == 0 ? -1 : 0;
      for (int j = 0; j < n && other < 0; j++) {
        if (j != k) other = j;
      }
      jg_status st = JG_EBACKEND;
      if (other >= 0 && jgi_device_equal(arrays[other]->device, c->device)) {
        st = jg_array_check_same_backend(arrays[other], nm[other], arrays[k], nm[k], err);
      } else {
        char d1[32], d2[32];
        st = jg_error_set(err, JG_EBACKEND, k, "%s is on %s, the operation on %s: copy it with %s",
                          nm[k], jgi_device_name(arrays[k]->device, d1, sizeof d1),
                          jgi_device_name(c->device, d2, sizeof d2),
                          c->device.type == JG_DEVICE_CPU ? "jg_array_to_host"
                                                          : "jg_array_to_device");
      }
      if (err != NULL) err->index = k;
      return jgi_error_prefix_once(st == JG_OK ? JG_EBACKEND : st, c->fn, err);
    }
    JG_RETURN_NOT_OK(jgi_error_prefix_once(check_tree(c, arrays[k], nm[k], err), c->fn, err));
  }

  const jg_array *arr[JGI_BROADCAST_MAX];
  jg_array *pad[JGI_BROADCAST_MAX];
  for (int k = 0; k < n; k++) arr[k] = arrays[k];
  jg_status pst = left_pad(n, arr, pad, err);
  priv_state *p = pst == JG_OK ? calloc(1, sizeof *p) : NULL;
  if (p == NULL) {
    for (int k = 0; k < n; k++) jg_array_release(pad[k]);
    JG_RETURN_NOT_OK(jgi_error_prefix_once(pst, c->fn, err));
    return jg_error_set(err, JG_ENOMEM, -1, "%s: out of memory", c->fn);
  }
  arrays = arr;
  b->priv = p;
  b->n = n;
  input ins[JGI_BROADCAST_MAX];
  memset(ins, 0, sizeof ins);

  /* Scalars, and the outer length. */
  jg_len L = -1;
  int Lk = -1;
  jg_status st = JG_OK;
  for (int k = 0; k < n && st == JG_OK; k++) {
    const jg_array *a = arrays[k];
    if (a->kind == JG_NODE_NUMERIC && a->length == 1) {
      b->is_scalar[k] = true;
      st = jgi_op_view_arg(c, &a->buffers[0], 0, 1, &b->leaves[k], err);
      continue;
    }
    ins[k].node = a;
    ins[k].identity = true;
    if (a->length == 1) continue;
    if (L < 0) {
      L = a->length;
      Lk = k;
    } else if (a->length != L) {
      st = jg_error_set(err, JG_ESHAPE, -1, "cannot broadcast: %s has length %lld, %s has length %lld",
                        nm[Lk], (long long)L, nm[k], (long long)a->length);
    }
  }
  if (L < 0) L = 1; /* every input has length 1 */
  for (int k = 0; k < n && st == JG_OK; k++) {
    if (ins[k].node != NULL && ins[k].node->length == 1 && L != 1) {
      st = zeros_carry(c, L, &ins[k], err);
    }
  }

  walk w = {c, n, ins, nm, p};
  for (int depth = 0; st == JG_OK; depth++) {
    if (depth > MAX_DEPTH) {
      st = jg_error_set(err, JG_ENOTSUP, -1, "nesting deeper than %d levels", MAX_DEPTH);
      break;
    }
    level lv;
    memset(&lv, 0, sizeof lv);
    st = option_step(c, n, ins, L, &lv, err);
    bool any_list = false;
    for (int k = 0; k < n; k++) {
      any_list |= ins[k].node != NULL && is_list_like(ins[k].node->kind);
    }
    if (st == JG_OK && any_list) {
      jg_len next = 0;
      st = list_step(&w, L, depth + 1, &lv, &next, err);
      if (st == JG_OK) st = push_level(p, &lv, err);
      L = next;
      continue;
    }
    if (st == JG_OK) st = leaf_step(&w, L, b, err);
    if (st == JG_OK) st = push_level(p, &lv, err);
    break;
  }
  b->length = L;
  for (int k = 0; k < n; k++) jg_array_release(pad[k]);
  if (st != JG_OK) {
    jgi_broadcast_reset(b);
    memset(b, 0, sizeof *b);
    return jgi_error_prefix_once(st, c->fn, err);
  }
  return JG_OK;
}

jg_status jgi_broadcast_init(jgi_op_ctx *c, int n, const jg_array *const *arrays,
                             jgi_broadcast *b, jg_error *err) {
  return jgi_broadcast_init_named(c, n, arrays, NULL, b, err);
}

jg_status jgi_broadcast_wrap(const jgi_broadcast *b, const jg_view *values, jg_array **out,
                             jg_error *err) {
  JG_RETURN_IF(b == NULL || b->priv == NULL || values == NULL || out == NULL, JG_EINVAL, err,
               "jgi_broadcast_wrap: NULL argument or a failed broadcast");
  *out = NULL;
  const priv_state *p = b->priv;
  JG_RETURN_IF(values->layout.ndim != 1 || values->layout.shape[0] != b->length, JG_ESHAPE, err,
               "jgi_broadcast_wrap: %lld values for %lld positions",
               (long long)(values->layout.ndim == 1 ? values->layout.shape[0] : -1),
               (long long)b->length);
  jg_array *res = NULL;
  JG_RETURN_NOT_OK(jg_array_numeric(values, &res, err));
  for (int d = p->nlevels - 1; d >= 0; d--) {
    const level *lv = &p->levels[d];
    jg_array *up = NULL;
    jg_status st = JG_OK;
    if (lv->is_list) {
      st = jg_array_list_offset(&lv->offsets, res, &up, err);
      jg_array_release(res);
      res = up;
      if (st != JG_OK) return st;
    }
    if (lv->has_mask) {
      st = jg_array_byte_masked(&lv->mask, true, res, &up, err);
      jg_array_release(res);
      res = up;
      if (st != JG_OK) return st;
    }
  }
  *out = res;
  return JG_OK;
}

void jgi_broadcast_reset(jgi_broadcast *b) {
  if (b == NULL) return;
  priv_state *p = b->priv;
  if (p != NULL) {
    for (int i = 0; i < p->nheld; i++) jg_buffer_release(p->held[i]);
    free(p->held);
    free(p->levels);
    free(p);
  }
  if (b->shape != NULL) jg_array_release(b->shape);
  b->priv = NULL;
  b->shape = NULL;
}
