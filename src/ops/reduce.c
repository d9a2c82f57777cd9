/* reduce.c: per-list reductions of jagged arrays (ops.h: jg_reducer_name, jg_array_reduce,
 * jg_array_num), with Awkward Array 2.x's semantics at axis -1 (ak.sum, ak.min, ak.argmax, ...).
 *
 * How: the array's tree is a chain of single-content nodes down to a leaf. The innermost list
 * node of the chain (list-offset or list) is reduced by one call of a catalog kernel (list_sum,
 * list_minmax, list_argminmax, list_count, list_count_nonzero, list_anyall, list_mean) that takes
 * the lists as starts and stops: a list-offset node passes offsets[0..n) and offsets[1..n+1) as
 * two pointers into its one buffer, a list node its starts and stops, so nothing is copied unless
 * a buffer is strided. The kernel runs where the array lives (host loop or CUDA), its outputs are
 * new buffers on that backend, and the nodes above the innermost list are made again over their
 * own buffers (shared, not copied) with the reduced values in its place. */
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_check.h"
#include "internal/jgi_ops.h"
#include "jagged/kernel.h"
#include "jagged/ops.h"

/* The reduction kernels of the catalog (generated descriptors, src/kernels/list_<name>/). */
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_sum;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_minmax;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_argminmax;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_count;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_count_nonzero;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_anyall;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_mean;
/* Middle-axis reductions (src/kernels/reduce_axis_*), with take, fill and list_count. */
extern JGI_HIDDEN const jg_kernel jgi_kernel_reduce_axis_start;
extern JGI_HIDDEN const jg_kernel jgi_kernel_reduce_axis_lengths;
extern JGI_HIDDEN const jg_kernel jgi_kernel_reduce_axis_children;
extern JGI_HIDDEN const jg_kernel jgi_kernel_reduce_axis_argpos;
extern JGI_HIDDEN const jg_kernel jgi_kernel_take;
extern JGI_HIDDEN const jg_kernel jgi_kernel_fill;
/* Skipping None values (drop_none): option_index (jgi_op_option_index), mask_flags, take,
 * scatter_kept and the counts-to-offsets scan. */
extern JGI_HIDDEN const jg_kernel jgi_kernel_mask_flags;
extern JGI_HIDDEN const jg_kernel jgi_kernel_scatter_kept;

const char *jg_reducer_name(jg_reducer r) {
  switch (r) {
    case JG_REDUCE_SUM:
      return "sum";
    case JG_REDUCE_PROD:
      return "prod";
    case JG_REDUCE_MIN:
      return "min";
    case JG_REDUCE_MAX:
      return "max";
    case JG_REDUCE_ARGMIN:
      return "argmin";
    case JG_REDUCE_ARGMAX:
      return "argmax";
    case JG_REDUCE_COUNT:
      return "count";
    case JG_REDUCE_COUNT_NONZERO:
      return "count_nonzero";
    case JG_REDUCE_ANY:
      return "any";
    case JG_REDUCE_ALL:
      return "all";
    case JG_REDUCE_MEAN:
      return "mean";
  }
  return "unknown";
}

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* The eleven dtypes the reduction kernels take as content. */
static bool is_reducible_dtype(jg_dtype d) {
  return (d >= JG_DTYPE_BOOL && d <= JG_DTYPE_UINT64) || d == JG_DTYPE_FLOAT32 ||
         d == JG_DTYPE_FLOAT64;
}

/* Result dtype of sum and prod (NumPy's accumulator types, as Awkward gives them). */
static jg_dtype sum_dtype(jg_dtype t) {
  switch (t) {
    case JG_DTYPE_BOOL:
    case JG_DTYPE_INT8:
    case JG_DTYPE_INT16:
    case JG_DTYPE_INT32:
    case JG_DTYPE_INT64:
      return JG_DTYPE_INT64;
    case JG_DTYPE_UINT8:
    case JG_DTYPE_UINT16:
    case JG_DTYPE_UINT32:
    case JG_DTYPE_UINT64:
      return JG_DTYPE_UINT64;
    default:
      return t;
  }
}

/* Whether a subtree has an axis of its own below its top level: a list or regular node, or
 * numeric data of ndim > 1 (records and options are looked through). Depth-capped: trees deeper
 * than 1000 levels count as having one, so they are refused. */
static bool has_inner_axis(const jg_array *a, int depth) {
  if (depth > 1000) return true;
  switch (a->kind) {
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST:
    case JG_NODE_REGULAR:
      return true;
    case JG_NODE_NUMERIC:
      return a->buffers[0].layout.ndim > 1;
    default:
      break;
  }
  for (int k = 0; k < a->nchildren; k++) {
    if (has_inner_axis(a->children[k], depth + 1)) return true;
  }
  return false;
}

/* ------------------------------------------------------------------------------------------ */
/* The walk: find the innermost list and check what is below it                                */
/* ------------------------------------------------------------------------------------------ */

/* The chain of single-content nodes from the root: chain[0] = root, chain[len - 1] = the leaf
 * (numeric, empty or record); chain[list_at] is the innermost list node. */
typedef struct chain {
  const jg_array **nodes;
  size_t len;
  size_t list_at;
} chain;

/* Fills `c` for `a` and checks that its innermost lists can be reduced with `r`; `num` (the
 * counts of jg_array_num) reads no content, so it takes lists of anything without an axis. */
static jg_status walk(const jg_array *a, jg_reducer r, bool num, const char *fn, chain *c,
                      jg_error *err) {
  size_t len = 1;
  for (const jg_array *p = a; jgi_node_has_one_content(p->kind); p = p->children[0]) len++;
  c->nodes = malloc(len * sizeof *c->nodes);
  JG_RETURN_IF(c->nodes == NULL, JG_ENOMEM, err, "%s: out of memory", fn);
  c->len = len;
  size_t i = 0;
  bool found = false;
  for (const jg_array *p = a;; p = p->children[0]) {
    c->nodes[i] = p;
    if (jgi_node_is_list(p->kind)) {
      c->list_at = i;
      found = true;
    }
    if (!jgi_node_has_one_content(p->kind)) break;
    i++;
  }
  const jg_array *leaf = c->nodes[len - 1];

  /* The innermost axis: a regular node below the innermost list (or anywhere when there is
   * none), or regular dimensions of numeric data, cannot be reduced in this version. */
  for (size_t k = found ? c->list_at + 1 : 0; k < len; k++) {
    const jg_array *p = c->nodes[k];
    JG_RETURN_IF(p->kind == JG_NODE_REGULAR, JG_ENOTSUP, err,
                 "%s: the innermost axis is regular (size %lld); reducing a regular axis is not "
                 "supported in this version",
                 fn, (long long)p->regular_size);
  }
  if (leaf->kind == JG_NODE_NUMERIC && leaf->buffers[0].layout.ndim > 1) {
    const jg_layout *l = &leaf->buffers[0].layout;
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "%s: the innermost axis is regular (size %lld, numeric data of %d "
                        "dimensions); reducing a regular axis is not supported in this version",
                        fn, (long long)l->shape[l->ndim - 1], (int)l->ndim);
  }
  /* Records: only counted by num (their fields must then have no axis of their own). */
  if (leaf->kind == JG_NODE_RECORD && (!found || !num || has_inner_axis(leaf, 0))) {
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "%s: cannot %s records: reduce one field at a time (jg_array_field)", fn,
                        jg_reducer_name(r));
  }
  if (!found) {
    char type[128];
    if (jg_array_type_string(a, type, sizeof type, NULL, NULL) != JG_OK) type[0] = '\0';
    return jg_error_set(err, JG_ESHAPE, -1,
                        "%s: reducing along axis -1 needs a list; the array has type %s", fn, type);
  }
  if (num) return JG_OK; /* num reads no content */
  /* Options between the innermost list and the leaf (None values) are skipped by the
   * reduction (reduce_innermost). */
  JG_RETURN_IF(leaf->kind == JG_NODE_NUMERIC && !is_reducible_dtype(leaf->buffers[0].dtype),
               JG_EDTYPE, err, "%s: cannot %s %s values", fn, jg_reducer_name(r),
               jg_dtype_name(leaf->buffers[0].dtype));
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Buffers and kernel arguments                                                                */
/* ------------------------------------------------------------------------------------------ */

/* The most significant byte of every element of an int64 view, as an int8 view of the same
 * buffer: 0 for values in [0, 2^56) and -1 (0xff) for -1, so it is a byte mask that is valid where
 * the value is >= 0 (valid_when false). Argmin and argmax give positions local to a list (far
 * below 2^56) or -1 for an empty list, so this is their mask, with no kernel and no copy. */
static jg_status sign_byte_view(const jg_view *v, jg_view *out, jg_error *err) {
  const jg_len n = v->layout.shape[0];
  const jg_stride stride = 8;
  jg_layout l;
  JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &n, &stride, 1, err));
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
  if (n > 0) l.slice_offset = 7; /* little-endian: the high byte is the last one */
#endif
  return jg_view_from_buffer(out, v->buffer, &l, JG_DTYPE_INT8, false, err);
}

/* ------------------------------------------------------------------------------------------ */
/* The reduction of the innermost list node                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Whether empty lists give None. */
static bool masks_empty(jg_reducer r, int mask_identity) {
  if (mask_identity != 0) return mask_identity > 0;
  return r == JG_REDUCE_MIN || r == JG_REDUCE_MAX || r == JG_REDUCE_ARGMIN || r == JG_REDUCE_ARGMAX;
}

/* Reduces the lists of `list` (a list-offset or list node) with `r`: *out gets a numeric array
 * of one value per list, inside a byte-masked option when `masked` (empty lists give None).
 * Messages carry no function name (the caller prefixes it). */
static jg_status reduce_lists(jgi_op_ctx *c, const jg_array *list, jg_reducer r, bool masked,
                              jg_array **out, jg_error *err) {
  const jg_len n = list->length;
  const jg_array *content = list->children[0];
  jg_kernel_arg starts, stops;
  JG_RETURN_NOT_OK(jgi_op_list_args(c, list, &starts, &stops, err));

  /* The content: numeric data (read through a dense pointer), or nothing (an empty node, read as
   * float64 of length 0, Awkward's type for reductions of unknown values). jg_array_num reads
   * none, and may have any content below its lists. */
  jg_kernel_arg data = jg_arg_array(NULL, 0, JG_DTYPE_FLOAT64, c->device);
  jg_len m = 0;
  bool numeric_content = content->kind == JG_NODE_EMPTY;
  if (content->kind == JG_NODE_NUMERIC && is_reducible_dtype(content->buffers[0].dtype)) {
    const jg_view *dv = &content->buffers[0];
    m = dv->layout.shape[0];
    JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, 0, m, &data, err));
    numeric_content = true;
  }
  const jg_dtype t = data.dtype;

  jg_dtype rdtype = JG_DTYPE_INT64;
  switch (r) {
    case JG_REDUCE_SUM:
    case JG_REDUCE_PROD:
      rdtype = sum_dtype(t);
      break;
    case JG_REDUCE_MIN:
    case JG_REDUCE_MAX:
      rdtype = t;
      break;
    case JG_REDUCE_ANY:
    case JG_REDUCE_ALL:
      rdtype = JG_DTYPE_BOOL;
      break;
    case JG_REDUCE_MEAN:
      rdtype = JG_DTYPE_FLOAT64;
      break;
    default:
      break;
  }
  jg_view ov, mv;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, rdtype, &ov, err));
  jg_kernel_arg args[8];
  size_t na = 0;
  args[na++] = jg_arg_i64(n);
  args[na++] = starts;
  args[na++] = stops;
  if (r != JG_REDUCE_COUNT) {
    args[na++] = jg_arg_i64(m);
    args[na++] = data;
  } else {
    args[na++] = jg_arg_i64(content->length); /* counted only, but checked against it */
  }
  const jg_kernel *k = NULL;
  bool mask_ready = false, valid_when = true;
  switch (r) {
    case JG_REDUCE_SUM:
    case JG_REDUCE_PROD:
      k = &jgi_kernel_list_sum;
      args[na++] = jg_arg_i64(r == JG_REDUCE_PROD);
      args[na++] = jgi_op_out_arg(&ov);
      break;
    case JG_REDUCE_MIN:
    case JG_REDUCE_MAX:
      k = &jgi_kernel_list_minmax;
      args[na++] = jg_arg_i64(r == JG_REDUCE_MAX);
      args[na++] = jgi_op_out_arg(&ov);
      JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_BOOL, &mv, err));
      args[na++] = jgi_op_out_arg(&mv);
      mask_ready = true;
      break;
    case JG_REDUCE_ARGMIN:
    case JG_REDUCE_ARGMAX:
      k = &jgi_kernel_list_argminmax;
      args[na++] = jg_arg_i64(r == JG_REDUCE_ARGMAX);
      args[na++] = jgi_op_out_arg(&ov);
      if (masked) JG_RETURN_NOT_OK(sign_byte_view(&ov, &mv, err));
      mask_ready = true;
      valid_when = false;
      break;
    case JG_REDUCE_COUNT:
      k = &jgi_kernel_list_count;
      args[na++] = jgi_op_out_arg(&ov);
      break;
    case JG_REDUCE_COUNT_NONZERO:
      k = &jgi_kernel_list_count_nonzero;
      args[na++] = jgi_op_out_arg(&ov);
      break;
    case JG_REDUCE_ANY:
    case JG_REDUCE_ALL:
      k = &jgi_kernel_list_anyall;
      args[na++] = jg_arg_i64(r == JG_REDUCE_ALL);
      args[na++] = jgi_op_out_arg(&ov);
      break;
    case JG_REDUCE_MEAN:
      k = &jgi_kernel_list_mean;
      args[na++] = jgi_op_out_arg(&ov);
      break;
  }
  JG_RETURN_NOT_OK(jg_kernel_call(k, args, na, &c->launch, err));

  if (masked && !mask_ready) {
    /* Reducers with an identity: the lists' emptiness comes from list_minmax's `valid` bytes
     * (one more pass over the content; its minima are discarded). */
    JG_RETURN_IF(!numeric_content, JG_EINTERNAL, err, "no numeric content to find empty lists in");
    jg_view discard;
    JG_RETURN_NOT_OK(jgi_op_alloc(c, n, t, &discard, err));
    JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_BOOL, &mv, err));
    const jg_kernel_arg margs[8] = {jg_arg_i64(n),
                                    starts,
                                    stops,
                                    jg_arg_i64(m),
                                    data,
                                    jg_arg_i64(0),
                                    jgi_op_out_arg(&discard),
                                    jgi_op_out_arg(&mv)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_minmax, margs, 8, &c->launch, err));
  }

  jg_array *values = NULL;
  JG_RETURN_NOT_OK(jg_array_numeric(&ov, &values, err));
  if (!masked) {
    *out = values;
    return JG_OK;
  }
  const jg_status st = jg_array_byte_masked(&mv, valid_when, values, out, err);
  jg_array_release(values);
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Reductions at the outer or a middle axis (left-aligned, as Awkward's)                       */
/* ------------------------------------------------------------------------------------------ */
/*
 * Reducing axis a of an array of depth D (a < D - 1) merges, for every entry p of the list
 * node at axis a (or, for a = 0, for the whole array), the subtrees of p's items, left-aligned:
 * the merged list at each level below is as long as the longest merged list, and each leaf
 * value of the result reduces the values found at its position in every item (in the order of
 * the items). The state is a set of slots (merged positions), each with its contributors in
 * order: R (slots + 1 offsets from 0), P (each contributor's position in the current node's
 * entries) and J (its position along the reduced axis, for argmin and argmax).
 *  - start: the slots are the lists of the node at axis a (a virtual list over the root for
 *    a = 0), their contributors the lists' items (reduce_axis_start);
 *  - one list level down: each slot's merged length is its longest contributor
 *    (reduce_axis_lengths, which checks the lists), the merged children are numbered by a scan
 *    of those (the level's new offsets), and each child's contributors are the items at its
 *    local index in every contributor long enough, in order (reduce_axis_children: count, scan,
 *    fill; one thread per child on the GPU, no atomics);
 *  - at the leaf: the contributors' values are gathered in slot order (take) and reduced as
 *    lists by the innermost-axis kernels over R (reduce_lists); argmin/argmax positions are
 *    mapped to J (reduce_axis_argpos).
 * An option node on the way down (None lists above a list level, or None values above the
 * leaf) drops its None contributors (drop_none), keeping J: a None list contributes nothing, so
 * a merged list none of whose contributors is a list is empty, and no result is None unless all
 * of a slot's values are None or dropped; with
 * mask_identity (the default of min, max, argmin, argmax) the values get an option type (all
 * valid but those), as in Awkward. The work of a slot is proportional to its number of
 * contributors times the depth: the whole array for axis 0 (one thread per merged position
 * there). */

typedef struct axis_state {
  jg_len n;      /* slots */
  jg_view R;     /* n + 1 int64 offsets from 0 */
  jg_view P, J;  /* total int64 each */
  int64_t total; /* contributors */
} axis_state;

/* The start state: the lists of `list` as slots (list NULL: one slot over the `length` entries
 * of the root). */
static jg_status axis_start(jgi_op_ctx *c, const jg_array *list, jg_len length, axis_state *s,
                            jg_error *err) {
  jg_kernel_arg starts, stops;
  if (list != NULL) {
    JG_RETURN_NOT_OK(jgi_op_list_args(c, list, &starts, &stops, err));
    jg_view counts;
    s->n = list->length;
    JG_RETURN_NOT_OK(jgi_op_alloc(c, s->n, JG_DTYPE_INT64, &counts, err));
    const jg_kernel_arg a[5] = {jg_arg_i64(s->n), starts, stops,
                                jg_arg_i64(list->children[0]->length), jgi_op_out_arg(&counts)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_count, a, 5, &c->launch, err));
    JG_RETURN_NOT_OK(
        jgi_op_counts_to_offsets(c, &counts, counts.layout.shape[0], &s->R, &s->total, err));
  } else {
    s->n = 1;
    s->total = length;
    jg_view zero;
    JG_RETURN_NOT_OK(jgi_op_alloc(c, 2, JG_DTYPE_INT64, &s->R, err));
    JG_RETURN_NOT_OK(jgi_op_alloc(c, 1, JG_DTYPE_INT64, &zero, err));
    int64_t *r = jg_view_data(&s->R);
    const jg_kernel_arg f0[3] = {jg_arg_i64(1), jg_arg_i64(0), jgi_op_out_arg(&zero)};
    const jg_kernel_arg f1[3] = {jg_arg_i64(1), jg_arg_i64(0),
                                 jg_arg_array(r, 1, JG_DTYPE_INT64, c->device)};
    const jg_kernel_arg f2[3] = {jg_arg_i64(1), jg_arg_i64(length),
                                 jg_arg_array(r + 1, 1, JG_DTYPE_INT64, c->device)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, f0, 3, &c->launch, err));
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, f1, 3, &c->launch, err));
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, f2, 3, &c->launch, err));
    starts = jgi_op_out_arg(&zero);
  }
  JG_RETURN_NOT_OK(jgi_op_alloc(c, s->total, JG_DTYPE_INT64, &s->P, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, s->total, JG_DTYPE_INT64, &s->J, err));
  const jg_kernel_arg a[6] = {jg_arg_i64(s->n),     jgi_op_out_arg(&s->R), starts,
                              jg_arg_i64(s->total), jgi_op_out_arg(&s->P), jgi_op_out_arg(&s->J)};
  return jg_kernel_call(&jgi_kernel_reduce_axis_start, a, 6, &c->launch, err);
}

/* One list level down: `s` becomes the merged children of its slots; *offsets gets the level's
 * offsets (s->n + 1 from 0, over the new slots). */
static jg_status axis_descend(jgi_op_ctx *c, const jg_array *list, axis_state *s, jg_view *offsets,
                              jg_error *err) {
  jg_kernel_arg starts, stops;
  JG_RETURN_NOT_OK(jgi_op_list_args(c, list, &starts, &stops, err));
  jg_view most, counts, dummy_p, dummy_j;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, s->n, JG_DTYPE_INT64, &most, err));
  const jg_kernel_arg a[9] = {jg_arg_i64(s->n),
                              jgi_op_out_arg(&s->R),
                              jg_arg_i64(s->total),
                              jgi_op_out_arg(&s->P),
                              jg_arg_i64(list->length),
                              starts,
                              stops,
                              jg_arg_i64(list->children[0]->length),
                              jgi_op_out_arg(&most)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_reduce_axis_lengths, a, 9, &c->launch, err));
  int64_t nchild = 0;
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &most, most.layout.shape[0], offsets, &nchild, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, nchild, JG_DTYPE_INT64, &counts, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, 1, JG_DTYPE_INT64, &dummy_p, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, 1, JG_DTYPE_INT64, &dummy_j, err));
  const jg_kernel_arg b[12] = {jg_arg_i64(nchild),
                               jg_arg_i64(s->n),
                               jgi_op_out_arg(offsets),
                               jgi_op_out_arg(&s->R),
                               jgi_op_out_arg(&s->P),
                               jgi_op_out_arg(&s->J),
                               starts,
                               stops,
                               jg_arg_i64(0),
                               jgi_op_out_arg(&counts),
                               jgi_op_out_arg(&dummy_p),
                               jgi_op_out_arg(&dummy_j)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_reduce_axis_children, b, 12, &c->launch, err));
  axis_state t;
  t.n = nchild;
  JG_RETURN_NOT_OK(
      jgi_op_counts_to_offsets(c, &counts, counts.layout.shape[0], &t.R, &t.total, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, t.total, JG_DTYPE_INT64, &t.P, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, t.total, JG_DTYPE_INT64, &t.J, err));
  const jg_kernel_arg f[12] = {jg_arg_i64(nchild),
                               jg_arg_i64(s->n),
                               jgi_op_out_arg(offsets),
                               jgi_op_out_arg(&s->R),
                               jgi_op_out_arg(&s->P),
                               jgi_op_out_arg(&s->J),
                               starts,
                               stops,
                               jg_arg_i64(1),
                               jgi_op_out_arg(&t.R),
                               jgi_op_out_arg(&t.P),
                               jgi_op_out_arg(&t.J)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_reduce_axis_children, f, 12, &c->launch, err));
  *s = t;
  return JG_OK;
}

/* The values of the leaf `leaf` (numeric or empty) at the contributors of `s`, reduced per
 * slot with `r`: a numeric array of s->n values, in a byte-masked option when `masked`. */
static jg_status axis_leaf(jgi_op_ctx *c, const jg_array *leaf, const axis_state *s, jg_reducer r,
                           bool masked, jg_array **out, jg_error *err) {
  jg_array *values = NULL, *lists = NULL, *red = NULL;
  jg_status st = JG_OK;
  if (leaf->kind == JG_NODE_NUMERIC) {
    const jg_view *dv = &leaf->buffers[0];
    const jg_len m = dv->layout.shape[0];
    jg_kernel_arg data, idx;
    jg_view gv;
    JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, 0, m, &data, err));
    JG_RETURN_NOT_OK(jgi_op_view_arg(c, &s->P, 0, s->total, &idx, err));
    JG_RETURN_NOT_OK(jgi_op_alloc(c, s->total, dv->dtype, &gv, err));
    const jg_kernel_arg a[5] = {jg_arg_i64(s->total), jg_arg_i64(m), data, idx,
                                jgi_op_out_arg(&gv)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_take, a, 5, &c->launch, err));
    JG_RETURN_NOT_OK(jg_array_numeric(&gv, &values, err));
  } else {
    values = jg_array_retain((jg_array *)leaf); /* empty: no contributors */
  }
  st = jg_array_list_offset(&s->R, values, &lists, err);
  jg_array_release(values);
  const bool arg = r == JG_REDUCE_ARGMIN || r == JG_REDUCE_ARGMAX;
  if (st == JG_OK) st = reduce_lists(c, lists, r, masked && !arg, arg ? &red : out, err);
  jg_array_release(lists);
  if (st != JG_OK || !arg) {
    jg_array_release(red);
    return st;
  }
  /* Positions among the slot's contributors -> positions along the reduced axis. */
  jg_view pos, mapped, mask;
  jg_array *mv = NULL;
  st = jg_array_buffer(red, 0, &pos, err);
  if (st == JG_OK) st = jgi_op_alloc(c, s->n, JG_DTYPE_INT64, &mapped, err);
  if (st == JG_OK) {
    const jg_kernel_arg a[6] = {jg_arg_i64(s->n),     jgi_op_out_arg(&s->R),
                                jg_arg_i64(s->total), jgi_op_out_arg(&s->J),
                                jgi_op_out_arg(&pos), jgi_op_out_arg(&mapped)};
    st = jg_kernel_call(&jgi_kernel_reduce_axis_argpos, a, 6, &c->launch, err);
  }
  jg_array_release(red);
  if (st == JG_OK) st = jg_array_numeric(&mapped, &mv, err);
  if (st == JG_OK && !masked) {
    *out = mv;
    return JG_OK;
  }
  if (st == JG_OK) st = sign_byte_view(&mapped, &mask, err);
  if (st == JG_OK) st = jg_array_byte_masked(&mask, false, mv, out, err);
  jg_array_release(mv);
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* None values inside the reduced lists (skipped, as Awkward does)                             */
/* ------------------------------------------------------------------------------------------ */
/*
 * Lists whose values are optional (an option node between the innermost list and the leaf) are
 * reduced as the lists of their valid values: the contributors of an axis_state that are None
 * are dropped, in order, and the others are carried through the option to its content, keeping
 * their positions along the reduced axis (J), so argmin and argmax count the Nones: the argmin
 * of [None, 3, 1] is 2. A list of Nones only is then empty (sum 0, min None, argmin None or -1
 * by mask_identity). Kernels: option_index gives each option entry's validity and content
 * position; mask_flags reads the validity at the contributors (0/1 counts); a scan of those
 * numbers the kept ones; take maps the slot offsets and contributor positions through it and
 * scatter_kept compacts P and J. One scan, so one wait on the GPU, per option level. */

/* Drops the contributors of `s` (positions in the entries of the option node `opt`) that are
 * None; the others get the position of their value in opt's content. `idx` and `valid` are
 * opt's option index and validity (jgi_op_option_index with negate). */
static jg_status drop_none_with(jgi_op_ctx *c, const jg_array *opt, const jg_view *idx,
                                const jg_view *valid, axis_state *s, jg_error *err) {
  const jg_len len = opt->length, n = s->n, total = s->total;
  jg_view keep, unused, prefix, idxp;
  axis_state t;
  t.n = n;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &keep, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &unused, err));
  const jg_kernel_arg fa[10] = {jg_arg_i64(total),
                                jg_arg_i64(len),
                                jgi_op_out_arg(valid),
                                jg_arg_i64(0),
                                jgi_op_out_arg(&s->P),
                                jgi_op_out_arg(&s->P),
                                jg_arg_i64(0),
                                jg_arg_array(NULL, 0, JG_DTYPE_INT8, c->device),
                                jgi_op_out_arg(&keep),
                                jgi_op_out_arg(&unused)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_mask_flags, fa, 10, &c->launch, err));
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &keep, total, &prefix, &t.total, err));
  /* The slot offsets through the scan: the kept contributors before each slot boundary. */
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n + 1, JG_DTYPE_INT64, &t.R, err));
  const jg_kernel_arg ra[5] = {jg_arg_i64(n + 1), jg_arg_i64(total + 1), jgi_op_out_arg(&prefix),
                               jgi_op_out_arg(&s->R), jgi_op_out_arg(&t.R)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_take, ra, 5, &c->launch, err));
  /* The content positions of every contributor (-1 for None, never kept), compacted. */
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &idxp, err));
  const jg_kernel_arg pa[5] = {jg_arg_i64(total), jg_arg_i64(len), jgi_op_out_arg(idx),
                               jgi_op_out_arg(&s->P), jgi_op_out_arg(&idxp)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_take, pa, 5, &c->launch, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, t.total, JG_DTYPE_INT64, &t.P, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, t.total, JG_DTYPE_INT64, &t.J, err));
  const jg_kernel_arg sp[5] = {jg_arg_i64(total), jg_arg_i64(t.total), jgi_op_out_arg(&prefix),
                               jgi_op_out_arg(&idxp), jgi_op_out_arg(&t.P)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_scatter_kept, sp, 5, &c->launch, err));
  const jg_kernel_arg sj[5] = {jg_arg_i64(total), jg_arg_i64(t.total), jgi_op_out_arg(&prefix),
                               jgi_op_out_arg(&s->J), jgi_op_out_arg(&t.J)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_scatter_kept, sj, 5, &c->launch, err));
  *s = t;
  return JG_OK;
}

/* drop_none_with, with the option index of `opt` made here. */
static jg_status drop_none(jgi_op_ctx *c, const jg_array *opt, axis_state *s, jg_error *err) {
  jg_view idx, valid;
  JG_RETURN_NOT_OK(jgi_op_option_index(c, opt, 0, true, &idx, &valid, err));
  return drop_none_with(c, opt, &idx, &valid, s, err);
}

/* Reduces the innermost lists of the chain `ch` with `r` (as reduce_lists), skipping None
 * values when the lists hold an option: then the lists are checked against the option node
 * (list_count_nonzero over its validity: BAD_RANGE names the first bad list), become the slots
 * of an axis_state whose contributors are their items (axis_start), lose their None items
 * (drop_none, once per option level) and are reduced by axis_leaf. */
static jg_status reduce_innermost(jgi_op_ctx *c, const chain *ch, jg_reducer r, bool masked,
                                  jg_array **out, jg_error *err) {
  const jg_array *list = ch->nodes[ch->list_at];
  size_t k = ch->list_at + 1;
  const jg_array *opt = ch->nodes[k];
  if (!jgi_node_is_option(opt->kind)) return reduce_lists(c, list, r, masked, out, err);
  jg_view idx, valid, counted;
  JG_RETURN_NOT_OK(jgi_op_option_index(c, opt, 0, true, &idx, &valid, err));
  jg_kernel_arg starts, stops;
  JG_RETURN_NOT_OK(jgi_op_list_args(c, list, &starts, &stops, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, list->length, JG_DTYPE_INT64, &counted, err));
  const jg_kernel_arg ca[6] = {jg_arg_i64(list->length), starts,
                               stops,                    jg_arg_i64(opt->length),
                               jgi_op_out_arg(&valid),   jgi_op_out_arg(&counted)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_count_nonzero, ca, 6, &c->launch, err));
  axis_state s;
  JG_RETURN_NOT_OK(axis_start(c, list, 0, &s, err));
  JG_RETURN_NOT_OK(drop_none_with(c, opt, &idx, &valid, &s, err));
  for (k++; jgi_node_is_option(ch->nodes[k]->kind); k++) {
    JG_RETURN_NOT_OK(drop_none(c, ch->nodes[k], &s, err));
  }
  return axis_leaf(c, ch->nodes[k], &s, r, masked, out, err);
}

/* Reduces `a` (its chain in `ch`) at axis `ax` (0 <= ax < depth - 1), where the node of that
 * axis is ch->nodes[at] (unused for ax 0). */
static jg_status reduce_axis(jgi_op_ctx *c, const chain *ch, int64_t ax, size_t at, jg_reducer r,
                             const jg_reduce_options *o, jg_array **out, jg_error *err) {
  axis_state s;
  size_t k = ax == 0 ? 0 : at + 1;
  JG_RETURN_NOT_OK(axis_start(c, ax == 0 ? NULL : ch->nodes[at], ch->nodes[0]->length, &s, err));
  jg_view levels[64];
  int nlevels = 0;
  /* Lists merge one level down; options drop their None contributors (None lists and None
   * values alike), keeping J, so argmin and argmax count them. */
  for (; jgi_node_is_list(ch->nodes[k]->kind) || jgi_node_is_option(ch->nodes[k]->kind); k++) {
    if (jgi_node_is_option(ch->nodes[k]->kind)) {
      JG_RETURN_NOT_OK(drop_none(c, ch->nodes[k], &s, err));
      continue;
    }
    JG_RETURN_IF(nlevels == 64, JG_ENOTSUP, err, "more than 64 list levels below the axis");
    JG_RETURN_NOT_OK(axis_descend(c, ch->nodes[k], &s, &levels[nlevels], err));
    nlevels++;
  }
  jg_array *res = NULL;
  JG_RETURN_NOT_OK(axis_leaf(c, ch->nodes[k], &s, r, masks_empty(r, o->mask_identity), &res, err));
  jg_status st = JG_OK;
  for (int lv = nlevels - 1; st == JG_OK && lv >= (ax == 0 ? 1 : 0); lv--) {
    jg_array *up = NULL;
    st = jg_array_list_offset(&levels[lv], res, &up, err);
    jg_array_release(res);
    res = up;
  }
  if (st == JG_OK && o->keepdims) {
    jg_array *up = NULL;
    st = ax == 0 ? jg_array_regular(res, res->length, 1, &up, err)
                 : jg_array_regular(res, 1, -1, &up, err);
    jg_array_release(res);
    res = up;
  }
  for (size_t i = ax == 0 ? 0 : at; st == JG_OK && i-- > 0;) {
    jg_array *up = NULL;
    st = jgi_op_remake(ch->nodes[i], res, &up, err);
    jg_array_release(res);
    res = up;
  }
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

/* Resolves opt->axis for `a`: *ax in [0, depth) counted from the outside (depth = 1 + the list
 * and regular levels of the chain), *innermost when it is the innermost axis (the per-list
 * path), else *at = the chain index of the axis' node, with the structure below it checked. */
static jg_status resolve_axis(const char *fn, const jg_array *a, int64_t axis, jg_reducer r,
                              int64_t *ax, bool *innermost, size_t *at, chain *ch, jg_error *err) {
  int64_t depth = 1;
  for (const jg_array *p = a; jgi_node_has_one_content(p->kind); p = p->children[0]) {
    if (jgi_node_is_list(p->kind) || p->kind == JG_NODE_REGULAR) depth++;
  }
  const int64_t v = axis >= 0 ? axis : depth + axis;
  JG_RETURN_IF(axis == INT64_MIN || v < 0 || v >= depth, JG_ESHAPE, err,
               "%s: axis=%lld exceeds the depth of the nested list structure (which is %lld)", fn,
               (long long)axis, (long long)depth);
  *ax = v;
  *innermost = v == depth - 1;
  if (*innermost) return JG_OK;
  /* The chain, and the node of axis v. */
  size_t len = 1;
  for (const jg_array *p = a; jgi_node_has_one_content(p->kind); p = p->children[0]) len++;
  ch->nodes = malloc(len * sizeof *ch->nodes);
  JG_RETURN_IF(ch->nodes == NULL, JG_ENOMEM, err, "%s: out of memory", fn);
  ch->len = len;
  size_t i = 0, found = 0;
  int64_t level = 0;
  for (const jg_array *p = a;; p = p->children[0], i++) {
    ch->nodes[i] = p;
    if (jgi_node_is_list(p->kind) || p->kind == JG_NODE_REGULAR) {
      level++;
      if (level == v) found = i;
    }
    if (!jgi_node_has_one_content(p->kind)) break;
  }
  *at = found;
  const size_t from = v == 0 ? 0 : found;
  for (size_t k = from; k < len; k++) {
    const jg_array *p = ch->nodes[k];
    JG_RETURN_IF(p->kind == JG_NODE_REGULAR, JG_ENOTSUP, err,
                 "%s: axis %lld: a regular level (size %lld) at or below the reduced axis is not "
                 "supported in this version",
                 fn, (long long)axis, (long long)p->regular_size);
    /* Options (None lists and None values) are skipped by reduce_axis (drop_none). */
  }
  const jg_array *leaf = ch->nodes[len - 1];
  JG_RETURN_IF(leaf->kind == JG_NODE_RECORD, JG_ENOTSUP, err,
               "%s: cannot %s records: reduce one field at a time (jg_array_field)", fn,
               jg_reducer_name(r));
  JG_RETURN_IF(leaf->kind == JG_NODE_NUMERIC && leaf->buffers[0].layout.ndim > 1, JG_ENOTSUP, err,
               "%s: numeric data of %d dimensions is not supported at axis %lld in this version",
               fn, (int)leaf->buffers[0].layout.ndim, (long long)axis);
  JG_RETURN_IF(leaf->kind == JG_NODE_NUMERIC && !is_reducible_dtype(leaf->buffers[0].dtype),
               JG_EDTYPE, err, "%s: cannot %s %s values", fn, jg_reducer_name(r),
               jg_dtype_name(leaf->buffers[0].dtype));
  return JG_OK;
}

static jg_status reduce(const char *fn, const jg_array *a, jg_reducer r, bool num,
                        const jg_reduce_options *opt, jg_array **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(r < JG_REDUCE_SUM || r > JG_REDUCE_MEAN, JG_EINVAL, err, "%s: unknown reducer %d",
               fn, (int)r);
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  if (opt != NULL) o = *opt;
  JG_RETURN_IF(o.mask_identity < -1 || o.mask_identity > 1, JG_EINVAL, err,
               "%s: mask_identity is %d; it must be -1 (identity), 0 (the reducer's default) or "
               "1 (None)",
               fn, o.mask_identity);
  if (!o.has_axis) o.axis = -1;

  chain ch = {NULL, 0, 0};
  if (!num) {
    int64_t ax = 0;
    bool innermost = true;
    size_t at = 0;
    jg_status st = resolve_axis(fn, a, o.axis, r, &ax, &innermost, &at, &ch, err);
    if (st == JG_OK && !innermost) {
      jgi_op_ctx c;
      memset(&c, 0, sizeof c);
      jg_array *res = NULL;
      st = jgi_op_ctx_init(&c, fn, a, o.stream, err);
      if (st == JG_OK) st = reduce_axis(&c, &ch, ax, at, r, &o, &res, err);
      st = jgi_op_ctx_finish(&c, st, err);
      if (st == JG_OK) {
        *out = res;
      } else {
        jg_array_release(res);
      }
    }
    if (st != JG_OK || !innermost) {
      free(ch.nodes);
      return st;
    }
  }
  jg_status st = walk(a, r, num, fn, &ch, err);
  jgi_op_ctx c;
  memset(&c, 0, sizeof c);
  if (st == JG_OK) st = jgi_op_ctx_init(&c, fn, a, o.stream, err);
  jg_array *res = NULL;
  if (st == JG_OK) {
    st = jgi_error_prefix(
        num ? reduce_lists(&c, ch.nodes[ch.list_at], r, false, &res, err)
            : reduce_innermost(&c, &ch, r, masks_empty(r, o.mask_identity), &res, err),
        fn,
        err);
  }
  if (st == JG_OK && o.keepdims) {
    jg_array *wrapped = NULL;
    st = jgi_error_prefix(jg_array_regular(res, 1, -1, &wrapped, err), fn, err);
    jg_array_release(res);
    res = wrapped;
  }
  /* The nodes above the innermost list, bottom up, over their own buffers. */
  for (size_t i = ch.list_at; st == JG_OK && i-- > 0;) {
    jg_array *up = NULL;
    st = jgi_error_prefix(jgi_op_remake(ch.nodes[i], res, &up, err), fn, err);
    jg_array_release(res);
    res = up;
  }
  st = jgi_op_ctx_finish(&c, st, err);
  free(ch.nodes);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

jg_status jg_array_reduce(const jg_array *a, jg_reducer r, const jg_reduce_options *opt,
                          jg_array **out, jg_error *err) {
  return reduce("jg_array_reduce", a, r, false, opt, out, err);
}

jg_status jg_array_num(const jg_array *a, jg_array **out, jg_error *err) {
  return reduce("jg_array_num", a, JG_REDUCE_COUNT, true, NULL, out, err);
}
