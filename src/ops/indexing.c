/* indexing.c: boolean masks, integer indexing, slices along an axis, firsts/lasts and
 * local_index (indexing.h), with Awkward Array 2.x's semantics except that masks and jagged
 * indices must match the array's structure exactly.
 *
 * How masks and jagged indices work: the array `a` and the selector `s` (mask or index) are
 * walked down together, one list level at a time. At each level the entries in play are given
 * by two int64 position arrays (into a's node and s's node at that level; the identity at the
 * top): list_range reads the lists at those positions (looking through one option node above
 * them, None giving an empty, invalid list), counts_equal checks that the two have the same
 * counts (a None list on either side empties both), and a scan of the counts plus range_carry
 * give the level's offsets and the positions one level down. At the mask's bools, mask_flags
 * marks the kept entries (None counting as kept), a scan gives their new positions and
 * scatter_kept compacts a's positions; the offsets of the lowest list level are re-read through
 * the scan (take) and a's subtree below is carried (jgi_carry) by the kept positions. An index
 * instead maps its entries through list_take to positions in a's lists. The result is rebuilt
 * bottom up from the levels' offsets, with a byte-masked node where a level had None lists.
 * A one-level numeric array masked by a one-level bool mask takes a fused path instead (two
 * streaming kernels, list_mask_select and list_mask_offsets, when the lists lie back to back
 * with equal counts; else one kernel, list_mask: see mask_fast below), with the same results;
 * on bad data it falls back to the walk, which reports the error.
 *
 * Slices, firsts, lasts and local_index walk down to the level of `axis`, make that level anew
 * (list_range, then list_slice + range_carry + carry, list_pick + carry, or a scan +
 * local_index) and remake the nodes above it over their own buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_carry.h"
#include "jagged/indexing.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_take;
extern JGI_HIDDEN const jg_kernel jgi_kernel_counts_equal;
extern JGI_HIDDEN const jg_kernel jgi_kernel_mask_flags;
extern JGI_HIDDEN const jg_kernel jgi_kernel_scatter_kept;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_take;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_slice;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_pick;
extern JGI_HIDDEN const jg_kernel jgi_kernel_local_index;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_mask;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_mask_select;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_mask_offsets;
extern JGI_HIDDEN const jg_kernel jgi_kernel_fill;
extern JGI_HIDDEN const jg_kernel jgi_kernel_take_option;

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static jg_kernel_arg none_arg(const jgi_op_ctx *c, jg_dtype dtype) {
  return jg_arg_array(NULL, 0, dtype, c->device);
}

/* Checks shared by every entry point. */
static jg_status check_args(const char *fn, const jg_array *a, const jg_array *s,
                            const char *what, jg_array **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  if (what != NULL) {
    JG_RETURN_IF(s == NULL, JG_EINVAL, err, "%s: %s is NULL", fn, what);
    JG_RETURN_NOT_OK(
        jgi_error_prefix(jg_array_check_same_backend(a, "the array", s, what, err), fn, err));
  }
  return JG_OK;
}

/* The number of list levels of a selector and its node below them (the values, possibly under
 * one option node). */
static int selector_depth(const jg_array *s, const jg_array **leaf) {
  int d = 0;
  for (;;) {
    const jg_array *p = jgi_node_is_option(s->kind) ? s->children[0] : s;
    if (p->kind != JG_NODE_LIST_OFFSET && p->kind != JG_NODE_LIST && p->kind != JG_NODE_REGULAR)
      break;
    d++;
    s = p->children[0];
    if (d > 1000) break;
  }
  *leaf = s;
  return d;
}

/* List levels of an array from its top (options looked through; a record counts its fields'
 * smallest depth); with `inner`, the regular dimensions of numeric data (ndim - 1) count too, as
 * they do in the type ("var * 3 * float32" has two). */
static int dims_below(const jg_array *a, bool inner, int guard) {
  if (guard > 1000) return 0;
  switch (a->kind) {
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST:
    case JG_NODE_REGULAR:
      return 1 + dims_below(a->children[0], inner, guard + 1);
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED:
    case JG_NODE_INDEXED_OPTION:
      return dims_below(a->children[0], inner, guard + 1);
    case JG_NODE_RECORD: {
      int d = -1;
      for (int k = 0; k < a->nchildren; k++) {
        const int f = dims_below(a->children[k], inner, guard + 1);
        if (d < 0 || f < d) d = f;
      }
      return d < 0 ? 0 : d;
    }
    case JG_NODE_NUMERIC:
      return inner ? a->buffers[0].layout.ndim - 1 : 0;
    default:
      return 0;
  }
}

static int list_depth(const jg_array *a, int guard) { return dims_below(a, false, guard); }

/* The values of a selector's leaf: `leaf` is numeric or empty (lists that never got a value,
 * read as no values of `empty_dtype`), or an option above one, in any representation. Sets
 * *values to a 1-D view of *m values (one per leaf entry) and the option's kernel arguments
 * (valid_mode 0 without one): a byte-masked node is read as it is; a bit-masked or
 * indexed-option node becomes a byte mask of validity (option_index) over its values gathered
 * into entry order (take_option: 0 where None). */
static jg_status leaf_values(jgi_op_ctx *c, const jg_array *leaf, const char *what,
                             jg_dtype empty_dtype, jg_view *values, int64_t *valid_mode,
                             jg_kernel_arg *valid, jg_len *m, jg_error *err) {
  *valid_mode = 0;
  *valid = none_arg(c, JG_DTYPE_INT8);
  const jg_array *v = jgi_node_is_option(leaf->kind) ? leaf->children[0] : leaf;
  JG_RETURN_IF(v->kind != JG_NODE_NUMERIC && v->kind != JG_NODE_EMPTY, JG_ENOTSUP, err,
               "the %s's values are not numbers but a node of kind %s", what,
               jgi_array_node_name(v->kind));
  JG_RETURN_IF(v->kind == JG_NODE_NUMERIC && v->buffers[0].layout.ndim != 1, JG_ESHAPE, err,
               "the %s's values must be 1-D, not %d-D", what, (int)v->buffers[0].layout.ndim);
  *m = leaf->length;
  if (v->kind == JG_NODE_EMPTY && v == leaf) return jgi_op_alloc(c, 0, empty_dtype, values, err);
  if (v == leaf || leaf->kind == JG_NODE_BYTE_MASKED) {
    if (v != leaf) {
      *valid_mode = leaf->valid_when ? 1 : 2;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, &leaf->buffers[0], 0, leaf->length, valid, err));
      valid->dtype = JG_DTYPE_INT8;
    }
    if (v->kind == JG_NODE_EMPTY) return jgi_op_alloc(c, 0, empty_dtype, values, err);
    *values = v->buffers[0];
    return JG_OK;
  }
  jg_view idx, flags;
  JG_RETURN_NOT_OK(jgi_op_option_index(c, leaf, 0, true, &idx, &flags, err));
  jg_kernel_arg data = none_arg(c, empty_dtype);
  if (v->kind == JG_NODE_NUMERIC) {
    JG_RETURN_NOT_OK(
        jgi_op_view_arg(c, &v->buffers[0], 0, v->buffers[0].layout.shape[0], &data, err));
  }
  JG_RETURN_NOT_OK(jgi_op_alloc(c, leaf->length, data.dtype, values, err));
  const jg_kernel_arg args[5] = {jg_arg_i64(leaf->length), jg_arg_i64(data.v.array.length), data,
                                 jgi_op_out_arg(&idx), jgi_op_out_arg(values)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_take_option, args, 5, &c->launch, err));
  *valid_mode = 1;
  *valid = jgi_op_out_arg(&flags);
  valid->dtype = JG_DTYPE_INT8;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* The walk of masks and jagged indices                                                        */
/* ------------------------------------------------------------------------------------------ */

typedef struct level {
  jg_view offsets; /* int64, from 0 */
  bool option;     /* the level has None lists: wrap in a byte-masked node over valid */
  jg_view valid;
} level;

typedef struct walk {
  int depth;
  level *levels;
  const jg_array *a_node, *s_node; /* the nodes below the walked levels */
  bool identity;                   /* no level walked: positions are the identity */
  jg_view pa, ps;                  /* positions into a_node and s_node */
  jg_len n;                        /* entries in play */
} walk;

/* The lists of `a_node` and `s_node` at the positions in play, checked equal; None on either
 * side empties both. */
static jg_status level_pair(jgi_op_ctx *c, walk *w, const char *what, int at_depth,
                            jgi_ranges *ra, jgi_ranges *rs, const jg_array **la,
                            const jg_array **ls, jg_error *err) {
  jg_kernel_arg pa, ps;
  const jg_kernel_arg *ca = NULL, *cs = NULL;
  if (!w->identity) {
    pa = jgi_op_out_arg(&w->pa);
    ps = jgi_op_out_arg(&w->ps);
    ca = &pa;
    cs = &ps;
  }
  JG_RETURN_NOT_OK(jgi_level_ranges(c, w->a_node, ca, w->n, NULL, ra, la, err));
  jg_kernel_arg va = jgi_op_out_arg(&ra->valid);
  JG_RETURN_NOT_OK(
      jgi_level_ranges(c, w->s_node, cs, w->n, ra->has_option ? &va : NULL, rs, ls, err));
  if (rs->has_option) {
    jg_kernel_arg vs = jgi_op_out_arg(&rs->valid);
    JG_RETURN_NOT_OK(jgi_level_ranges(c, w->a_node, ca, w->n, &vs, ra, la, err));
    ra->has_option = true;
  }
  if (what == NULL) return JG_OK; /* the index's last level: its counts are its own */
  /* counts_equal compares stops - starts; with starts = the selector's counts on both sides it
   * compares a's counts minus the selector's with 0. */
  const jg_kernel_arg cnt_s = jgi_op_out_arg(&rs->count), cnt_a = jgi_op_out_arg(&ra->count);
  const jg_kernel_arg args[5] = {jg_arg_i64(w->n), cnt_s, cnt_a, cnt_s, cnt_s};
  jg_error e;
  const jg_status st = jg_kernel_call(&jgi_kernel_counts_equal, args, 5, &c->launch, &e);
  if (st == JG_ESHAPE && e.index >= 0) {
    int64_t na = 0, ns = 0;
    JG_RETURN_NOT_OK(jgi_read_at(c, cnt_a, e.index, &na, err));
    JG_RETURN_NOT_OK(jgi_read_at(c, cnt_s, e.index, &ns, err));
    char where[32] = "";
    if (at_depth > 1) snprintf(where, sizeof where, " at depth %d", at_depth);
    return jg_error_set(err, JG_ESHAPE, e.index, "%s list %lld%s has %lld %s, the array's "
                        "list %lld%s has %lld",
                        what, (long long)e.index, where, (long long)ns,
                        ns == 1 ? "entry" : "entries", (long long)e.index, where, (long long)na);
  }
  if (st != JG_OK && err != NULL) *err = e;
  return st;
}

/* Walks `depth` list levels of a and s (checking the counts at each), leaving the positions of
 * the entries one level down. */
static jg_status walk_levels(jgi_op_ctx *c, const jg_array *a, const jg_array *s, int depth,
                             const char *what, int s_depth, walk *w, jg_error *err) {
  memset(w, 0, sizeof *w);
  w->a_node = a;
  w->s_node = s;
  w->identity = true;
  w->n = a->length;
  w->levels = calloc(depth > 0 ? (size_t)depth : 1, sizeof *w->levels);
  JG_RETURN_IF(w->levels == NULL, JG_ENOMEM, err, "out of memory");
  for (int l = 0; l < depth; l++) {
    if (!jgi_is_list_level(w->a_node)) {
      return jg_error_set(err, JG_ESHAPE, -1, "the %s has %d list level%s, the array only %d",
                          what, s_depth, s_depth == 1 ? "" : "s", list_depth(a, 0));
    }
    jgi_ranges ra, rs;
    const jg_array *la = NULL, *ls = NULL;
    JG_RETURN_NOT_OK(level_pair(c, w, what, l + 1, &ra, &rs, &la, &ls, err));
    jg_view off_s, pa, ps;
    jg_len total = 0, total_s = 0;
    JG_RETURN_NOT_OK(jgi_ranges_expand(c, &ra, NULL, 1, &w->levels[l].offsets, &pa, &total, err));
    JG_RETURN_NOT_OK(jgi_ranges_expand(c, &rs, NULL, 1, &off_s, &ps, &total_s, err));
    w->levels[l].option = ra.has_option || rs.has_option;
    w->levels[l].valid = ra.valid;
    w->depth = l + 1;
    w->a_node = la->children[0];
    w->s_node = ls->children[0];
    w->identity = false;
    w->pa = pa;
    w->ps = ps;
    w->n = total;
  }
  return JG_OK;
}

/* The result of the walked levels from `res` (stolen) at the bottom up; `bottom` replaces the
 * offsets of the lowest level (NULL: keep them). */
static jg_status rebuild(const walk *w, const jg_view *bottom, jg_array *res, jg_array **out,
                         jg_error *err) {
  for (int l = w->depth; l-- > 0;) {
    const level *lv = &w->levels[l];
    jg_array *up = NULL;
    const jg_status st = jgi_make_list(l == w->depth - 1 && bottom != NULL ? bottom : &lv->offsets,
                                       res, lv->option ? &lv->valid : NULL, &up, err);
    jg_array_release(res);
    if (st != JG_OK) return st;
    res = up;
  }
  *out = res;
  return JG_OK;
}

/* The selected subtree: a_node carried by `positions`, or (when some are None, -1) an
 * indexed-option node over a_node. */
static jg_status select_subtree(jgi_op_ctx *c, const jg_array *a_node, const jg_view *positions,
                                bool with_none, jg_array **out, jg_error *err) {
  if (with_none) return jg_array_indexed_option(positions, (jg_array *)(uintptr_t)a_node, out, err);
  return jgi_carry(c, a_node, jgi_op_out_arg(positions), out, err);
}

/* ------------------------------------------------------------------------------------------ */
/* jg_array_mask                                                                               */
/* ------------------------------------------------------------------------------------------ */

static jg_status mask_run(jgi_op_ctx *c, const jg_array *a, const jg_array *mask, walk *w,
                          jg_array **out, jg_error *err) {
  const jg_array *leaf = NULL;
  const int d = selector_depth(mask, &leaf);
  jg_view values;
  int64_t valid_mode = 0;
  jg_kernel_arg valid;
  jg_len m = 0;
  JG_RETURN_NOT_OK(
      leaf_values(c, leaf, "mask", JG_DTYPE_BOOL, &values, &valid_mode, &valid, &m, err));
  JG_RETURN_IF(values.dtype != JG_DTYPE_BOOL, JG_EDTYPE, err,
               "the mask's values are %s; a mask must be bool", jg_dtype_name(values.dtype));
  JG_RETURN_IF(mask->length != a->length, JG_ESHAPE, err, "the mask has %lld entries, the array %lld",
               (long long)mask->length, (long long)a->length);
  JG_RETURN_NOT_OK(walk_levels(c, a, mask, d, "mask", d, w, err));
  const jg_len n = w->n;
  jg_kernel_arg mvals;
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, &values, 0, m, &mvals, err));
  jg_view keep, index, prefix, positions;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &keep, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &index, err));
  const jg_kernel_arg fargs[10] = {
      jg_arg_i64(n),
      jg_arg_i64(m),
      mvals,
      jg_arg_i64(w->identity),
      w->identity ? none_arg(c, JG_DTYPE_INT64) : jgi_op_out_arg(&w->ps),
      w->identity ? none_arg(c, JG_DTYPE_INT64) : jgi_op_out_arg(&w->pa),
      jg_arg_i64(valid_mode),
      valid,
      jgi_op_out_arg(&keep),
      jgi_op_out_arg(&index)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_mask_flags, fargs, 10, &c->launch, err));
  jg_len kept = 0;
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &keep, keep.layout.shape[0], &prefix, &kept, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, kept, JG_DTYPE_INT64, &positions, err));
  const jg_kernel_arg sargs[5] = {jg_arg_i64(n), jg_arg_i64(kept), jgi_op_out_arg(&prefix),
                                  jgi_op_out_arg(&index), jgi_op_out_arg(&positions)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_scatter_kept, sargs, 5, &c->launch, err));
  jg_array *res = NULL;
  JG_RETURN_NOT_OK(select_subtree(c, w->a_node, &positions, valid_mode != 0, &res, err));
  if (d == 0) {
    *out = res;
    return JG_OK;
  }
  /* The lowest level's new offsets: the kept counts before each of its lists. */
  const jg_view *low = &w->levels[d - 1].offsets;
  const jg_len nl = low->layout.shape[0];
  jg_view bottom;
  jg_status st = jgi_op_alloc(c, nl, JG_DTYPE_INT64, &bottom, err);
  if (st == JG_OK) {
    const jg_kernel_arg targs[5] = {jg_arg_i64(nl), jg_arg_i64(n + 1), jgi_op_out_arg(&prefix),
                                    jgi_op_out_arg(low), jgi_op_out_arg(&bottom)};
    st = jg_kernel_call(&jgi_kernel_take, targs, 5, &c->launch, err);
  }
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  return rebuild(w, &bottom, res, out, err);
}

/* The fused path for the common case: a one-level list (list-offset, or starts/stops) over a
 * 1-D numeric content, masked by a one-level list over 1-D bools, with the same number of lists
 * and the same index dtype, no options. Values are copied as raw bytes (any dtype of size 1, 2,
 * 4 or 8). Two ways, tried in order:
 *
 *  - flat (mask_flat): when the lists of both lie back to back with equal counts (the usual
 *    case: list-offset arrays, or starts/stops that are offsets in disguise), x[mask] is a
 *    stream compaction of the flat contents. Kernel list_mask_select compacts the kept values
 *    (a single-pass scan over tiles of 4096 elements with decoupled look-back on the GPU, over
 *    units of two tiles for values of at most 4 bytes) and leaves rank words (kept bits and
 *    kept-before counts of every 64 elements); kernel list_mask_offsets checks every list and
 *    writes the result offsets from the rank words. Either raises a flag when the data is not
 *    so laid out; the op reads back the flag and the total together (the one synchronisation).
 *  - by lists (mask_lists, kernel list_mask): one kernel checks the counts, numbers the kept
 *    values list by list, writes the result offsets and copies the kept values; the op again
 *    reads back the total and the error flag together.
 *
 * The values buffer is allocated before the total is known, at a capacity that bounds it (see
 * mask_fast), and copied to a tight buffer when the result would hold less than a quarter of
 * it. Any data error (unequal counts, a list outside its content) makes the caller rerun the
 * general path, which reports it with its usual message. */

/* Lists per tile of kernel list_mask (its TILE). */
#define LIST_MASK_TILE 512
/* Elements per tile of kernel list_mask_select (its TILE), and per rank word. */
#define LIST_MASK_SELECT_TILE 4096
#define LIST_MASK_WORD 64

static bool mask_fast_fits(const jg_array *a, const jg_array *mask) {
  if (!jgi_node_is_list(a->kind) || !jgi_node_is_list(mask->kind)) return false;
  if (a->length != mask->length || a->buffers[0].dtype != mask->buffers[0].dtype) return false;
  if (a->kind == JG_NODE_LIST && a->buffers[1].dtype != a->buffers[0].dtype) return false;
  if (mask->kind == JG_NODE_LIST && mask->buffers[1].dtype != mask->buffers[0].dtype) return false;
  const jg_array *xv = a->children[0], *mv = mask->children[0];
  if (xv->kind != JG_NODE_NUMERIC || mv->kind != JG_NODE_NUMERIC) return false;
  if (xv->buffers[0].layout.ndim != 1 || mv->buffers[0].layout.ndim != 1) return false;
  if (mv->buffers[0].dtype != JG_DTYPE_BOOL) return false;
  return jgi_op_raw_dtype(jg_dtype_itemsize(xv->buffers[0].dtype)) != JG_DTYPE_INVALID;
}

/* A grid of `blocks` blocks, at least 1 and at most 2^30. */
static int64_t mask_grid(int64_t blocks) {
  return blocks < 1 ? 1 : blocks < ((int64_t)1 << 30) ? blocks : ((int64_t)1 << 30);
}

/* Reads back the fused kernels' flag (state[2]) and total (state[3]) together: the fused path's
 * one synchronisation. */
static jg_status mask_read_state(jgi_op_ctx *c, const jg_view *state, int64_t *flag,
                                 int64_t *total, jg_error *err) {
  const jg_len idx[2] = {2, 3};
  int64_t got[2] = {0, 0};
  JG_RETURN_NOT_OK(jgi_op_read_ints(c, jg_view_data(state), JG_DTYPE_INT64, idx, 2, got,
                                    "jg_array_mask: error flag and total", err));
  *flag = got[0];
  *total = got[1];
  return JG_OK;
}

/* Runs list_mask once into `values` (capacity elements); reads back the total and the flag. */
static jg_status mask_fast_call(jgi_op_ctx *c, jg_len n, const jg_kernel_arg *lists,
                                jg_kernel_arg xv, jg_kernel_arg mv, jg_len tiles, jg_len capacity,
                                const jg_view *offsets, const jg_view *values,
                                const jg_view *state, int64_t *bad, int64_t *total,
                                jg_error *err) {
  const jg_kernel_arg fargs[3] = {jg_arg_i64(tiles + 4), jg_arg_i64(0), jgi_op_out_arg(state)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, fargs, 3, &c->launch, err));
  jg_kernel_arg out = jgi_op_out_arg(values);
  out.dtype = xv.dtype;
  const jg_kernel_arg args[14] = {
      jg_arg_i64(n),        lists[0],          lists[1], jg_arg_i64(xv.v.array.length), xv,
      lists[2],             lists[3],          jg_arg_i64(mv.v.array.length),            mv,
      jg_arg_i64(tiles),    jg_arg_i64(capacity), jgi_op_out_arg(offsets),               out,
      jgi_op_out_arg(state)};
  jg_launch l = c->launch;
  l.threads = 0;
  l.block = 256;
  /* One block per tile: blocks take tiles from the kernel's counter in the order they start. */
  l.grid = mask_grid(tiles);
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_mask, args, 14, &l, err));
  return mask_read_state(c, state, bad, total, err);
}

/* Runs list_mask_select and list_mask_offsets once into `values` (capacity elements), state
 * zeroed first; reads back the flag and the total. */
static jg_status mask_flat_call(jgi_op_ctx *c, jg_len n, const jg_kernel_arg *lists,
                                jg_kernel_arg xv, jg_kernel_arg mv, jg_len tiles, jg_len words,
                                jg_len capacity, const jg_view *offsets, const jg_view *values,
                                const jg_view *bits, const jg_view *pre, const jg_view *state,
                                int64_t *flag, int64_t *total, jg_error *err) {
  const jg_kernel_arg fargs[3] = {jg_arg_i64(tiles + 4), jg_arg_i64(0), jgi_op_out_arg(state)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, fargs, 3, &c->launch, err));
  jg_kernel_arg out = jgi_op_out_arg(values);
  out.dtype = xv.dtype;
  const jg_kernel_arg sargs[16] = {
      jg_arg_i64(n),          lists[0],           lists[1], jg_arg_i64(xv.v.array.length), xv,
      lists[2],               lists[3],           jg_arg_i64(mv.v.array.length),           mv,
      jg_arg_i64(tiles),      jg_arg_i64(capacity), out,    jg_arg_i64(words),
      jgi_op_out_arg(bits),   jgi_op_out_arg(pre), jgi_op_out_arg(state)};
  jg_launch l = c->launch;
  l.threads = 0;
  l.block = 256;
  /* One block per look-back unit (two tiles for values of at most 4 bytes, one for 8-byte
   * values), numbered by blockIdx.x (a smaller grid gives each block a run of units; any grid is
   * correct); the kernel's tiles are at most `tiles`, the bound's. */
  l.grid = mask_grid(jg_dtype_itemsize(xv.dtype) <= 4 ? tiles / 2 + tiles % 2 : tiles);
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_mask_select, sargs, 16, &l, err));
  const jg_kernel_arg oargs[11] = {
      jg_arg_i64(n),         lists[0],           lists[1],          lists[2],
      lists[3],              jg_arg_i64(words),  jgi_op_out_arg(bits), jgi_op_out_arg(pre),
      jg_arg_i64(tiles),     jgi_op_out_arg(offsets), jgi_op_out_arg(state)};
  /* A block of 256 takes 512 lists a round (two a thread, the kernel's LMO_LISTS), two rounds
   * with this grid (any grid is correct). */
  l.grid = mask_grid((n + 1023) / 1024);
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_mask_offsets, oargs, 11, &l, err));
  return mask_read_state(c, state, flag, total, err);
}

/* The flat way (list_mask_select, list_mask_offsets) over at most `bound` elements of each
 * content (bound >= the lists' flat length when they lie back to back, and <= *capacity). Sets
 * *taken, *offsets, *values and *total when it took the data; *taken false (and nothing to
 * release: the buffers are the context's temporaries) when the lists are not back to back with
 * equal counts, or there are none. */
static jg_status mask_flat(jgi_op_ctx *c, jg_len n, const jg_kernel_arg *lists, jg_kernel_arg xv,
                           jg_kernel_arg mv, jg_dtype dt, jg_len bound, jg_len *capacity,
                           bool *taken, jg_view *offsets, jg_view *values, int64_t *total,
                           jg_error *err) {
  *taken = false;
  if (n == 0) return JG_OK; /* list_mask_select would only raise its flag */
  const jg_len tiles = bound / LIST_MASK_SELECT_TILE + (bound % LIST_MASK_SELECT_TILE != 0);
  const jg_len words = bound / LIST_MASK_WORD + (bound % LIST_MASK_WORD != 0) + 1;
  jg_view state, bits, pre;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n + 1, JG_DTYPE_INT64, offsets, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, tiles + 4, JG_DTYPE_INT64, &state, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, words, JG_DTYPE_UINT64, &bits, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, words, JG_DTYPE_INT64, &pre, err));
  for (int attempt = 0;; ++attempt) {
    int64_t flag = 0;
    JG_RETURN_NOT_OK(jgi_op_alloc(c, *capacity, dt, values, err));
    JG_RETURN_NOT_OK(mask_flat_call(c, n, lists, xv, mv, tiles, words, *capacity, offsets,
                                    values, &bits, &pre, &state, &flag, total, err));
    if (flag != 0) return JG_OK;
    if (*total <= *capacity) break;
    /* not with a capacity of at least the bound, which the flat length never passes */
    JG_RETURN_IF(attempt > 0, JG_EINTERNAL, err, "list_mask_select: %lld kept values past %lld",
                 (long long)*total, (long long)*capacity);
    *capacity = *total;
  }
  *taken = true;
  return JG_OK;
}

/* The way by lists (list_mask), for any lists; *general set when the data has an error. */
static jg_status mask_lists(jgi_op_ctx *c, jg_len n, const jg_kernel_arg *lists,
                            jg_kernel_arg xv, jg_kernel_arg mv, jg_dtype dt, jg_len *capacity,
                            bool *general, jg_view *offsets, jg_view *values, int64_t *total,
                            jg_error *err) {
  const jg_len tiles = n / LIST_MASK_TILE + (n % LIST_MASK_TILE != 0);
  jg_view state;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n + 1, JG_DTYPE_INT64, offsets, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, tiles + 4, JG_DTYPE_INT64, &state, err));
  int64_t bad = 0;
  for (int attempt = 0;; ++attempt) {
    JG_RETURN_NOT_OK(jgi_op_alloc(c, *capacity, dt, values, err));
    JG_RETURN_NOT_OK(mask_fast_call(c, n, lists, xv, mv, tiles, *capacity, offsets, values,
                                    &state, &bad, total, err));
    if (bad != 0) {
      *general = true;
      return JG_OK;
    }
    if (*total <= *capacity) break;
    JG_RETURN_IF(attempt > 0, JG_EINTERNAL, err, "list_mask: %lld kept values past %lld",
                 (long long)*total, (long long)*capacity);
    *capacity = *total;
  }
  return JG_OK;
}

/* The fused path: the flat way, else by lists; *general set (and nothing made) when the data
 * has an error for the general path to report. */
static jg_status mask_fast(jgi_op_ctx *c, const jg_array *a, const jg_array *mask, bool *general,
                           jg_array **out, jg_error *err) {
  *general = false;
  const jg_len n = a->length;
  const jg_array *xn = a->children[0], *mn = mask->children[0];
  const jg_dtype dt = xn->buffers[0].dtype;
  jg_kernel_arg lists[4], xv, mv;
  JG_RETURN_NOT_OK(jgi_op_list_args(c, a, &lists[0], &lists[1], err));
  JG_RETURN_NOT_OK(jgi_op_list_args(c, mask, &lists[2], &lists[3], err));
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, &xn->buffers[0], 0, xn->length, &xv, err));
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, &mn->buffers[0], 0, mn->length, &mv, err));
  xv.dtype = jgi_op_raw_dtype(jg_dtype_itemsize(dt));
  /* Capacity: a list-offset side walks at most its content (a list node's lists may overlap, so
   * its content is only a guess, and a total past it reruns the kernel with the exact total).
   * A content much longer than its lists need (a slice of a big array) is replaced by the exact
   * bound, offsets[n] - offsets[0], read back. */
  jg_len capacity = xn->length;
  if (a->kind == JG_NODE_LIST_OFFSET) {
    if (n > 0 && capacity / 64 > n + 4096) {
      const jg_len idx[2] = {0, n};
      int64_t ends[2] = {0, 0};
      JG_RETURN_NOT_OK(jgi_op_read_ints(c, lists[0].v.array.data, lists[0].dtype, idx, 2, ends,
                                        "jg_array_mask: first and last offsets", err));
      if (ends[1] >= ends[0] && ends[1] - ends[0] < capacity) capacity = ends[1] - ends[0];
    }
  } else if (mask->kind == JG_NODE_LIST_OFFSET || mn->length < capacity) {
    capacity = mn->length;
  }
  /* The flat way's bound: its stream lies inside both contents, and inside [offsets[0],
   * offsets[n]) when that was read back. */
  jg_len bound = xn->length < mn->length ? xn->length : mn->length;
  if (capacity < bound) bound = capacity;
  jg_view offsets, values;
  int64_t total = 0;
  bool flat = false;
  JG_RETURN_NOT_OK(mask_flat(c, n, lists, xv, mv, dt, bound, &capacity, &flat, &offsets, &values,
                             &total, err));
  if (!flat) {
    JG_RETURN_NOT_OK(mask_lists(c, n, lists, xv, mv, dt, &capacity, general, &offsets, &values,
                                &total, err));
    if (*general) return JG_OK;
  }
  jg_view kept;
  const jg_slice sl = JG_SLICE(0, total, 1);
  JG_RETURN_NOT_OK(jg_view_slice(&kept, &values, 1, &sl, err));
  if (total < capacity / 4) { /* do not hold on to a mostly unused buffer */
    jg_view tight;
    JG_RETURN_NOT_OK(jgi_op_alloc(c, total, dt, &tight, err));
    if (total > 0) JG_RETURN_NOT_OK(jg_copy_async(&tight, &kept, c->launch.stream, err));
    kept = tight;
  }
  jg_array *content = NULL;
  JG_RETURN_NOT_OK(jg_array_numeric(&kept, &content, err));
  const jg_status st = jgi_make_list(&offsets, content, NULL, out, err);
  jg_array_release(content);
  return st;
}

jg_status jg_array_mask(const jg_array *a, const jg_array *mask, jg_stream stream,
                        jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_mask";
  JG_RETURN_NOT_OK(check_args(fn, a, mask, "the mask", out, err));
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, a, stream, err));
  walk w;
  memset(&w, 0, sizeof w);
  jg_array *res = NULL;
  bool general = true;
  jg_status st = JG_OK;
  if (mask_fast_fits(a, mask)) st = mask_fast(&c, a, mask, &general, &res, err);
  if (st == JG_OK && general) st = mask_run(&c, a, mask, &w, &res, err);
  free(w.levels);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* jg_array_take                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* The message of an index out of range in index list `i` (err->index): finds the value. */
static jg_status take_range_error(jgi_op_ctx *c, jg_kernel_arg offsets, jg_kernel_arg ipos,
                                  bool identity, jg_kernel_arg values, jg_kernel_arg counts,
                                  jg_len i, int d, jg_error *err) {
  int64_t lo = 0, hi = 0, cnt = 0;
  JG_RETURN_NOT_OK(jgi_read_at(c, offsets, i, &lo, err));
  JG_RETURN_NOT_OK(jgi_read_at(c, offsets, i + 1, &hi, err));
  JG_RETURN_NOT_OK(jgi_read_at(c, counts, i, &cnt, err));
  for (int64_t p = lo; p < hi && p - lo < 100000; p++) {
    int64_t q = p, v = 0;
    if (!identity) JG_RETURN_NOT_OK(jgi_read_at(c, ipos, p, &q, err));
    if (q < 0 || q >= values.v.array.length) break;
    JG_RETURN_NOT_OK(jgi_read_at(c, values, q, &v, err));
    if (!(cnt > 0 && (v < 0 ? v >= -cnt : v < cnt))) {
      if (d == 0) {
        return jg_error_set(err, JG_EINDEX, p,
                            "index %lld at position %lld is out of range for an array of %lld "
                            "entries",
                            (long long)v, (long long)p, (long long)cnt);
      }
      char where[32] = "";
      if (d > 1) snprintf(where, sizeof where, " at depth %d", d);
      return jg_error_set(err, JG_EINDEX, i,
                          "index %lld is out of range for list %lld%s of %lld entries",
                          (long long)v, (long long)i, where, (long long)cnt);
    }
  }
  return jg_error_set(err, JG_EINDEX, i, "list %lld has an index out of range", (long long)i);
}

static jg_status take_run(jgi_op_ctx *c, const jg_array *a, const jg_array *index, walk *w,
                          jg_array **out, jg_error *err) {
  const jg_array *leaf = NULL;
  const int d = selector_depth(index, &leaf);
  jg_view values;
  int64_t valid_mode = 0;
  jg_kernel_arg valid;
  jg_len m = 0;
  JG_RETURN_NOT_OK(
      leaf_values(c, leaf, "index", JG_DTYPE_INT64, &values, &valid_mode, &valid, &m, err));
  const jg_dtype vt = values.dtype;
  JG_RETURN_IF(vt != JG_DTYPE_INT32 && vt != JG_DTYPE_INT64, JG_EDTYPE, err,
               "the index's values are %s; an index must be int32 or int64", jg_dtype_name(vt));
  jg_kernel_arg ivals;
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, &values, 0, m, &ivals, err));
  jg_view offsets, ipos, starts, counts, positions;
  const jg_array *target = a;
  level last;
  memset(&last, 0, sizeof last);
  bool identity = true;
  jg_len nlists = 1, n = 0;
  if (d == 0) {
    n = index->length;
    const int64_t off[2] = {0, n}, st0[1] = {0}, cnt0[1] = {a->length};
    JG_RETURN_NOT_OK(jgi_small_i64(c, off, 2, &offsets, err));
    JG_RETURN_NOT_OK(jgi_small_i64(c, st0, 1, &starts, err));
    JG_RETURN_NOT_OK(jgi_small_i64(c, cnt0, 1, &counts, err));
  } else {
    JG_RETURN_IF(index->length != a->length, JG_ESHAPE, err,
                 "the index has %lld lists, the array %lld", (long long)index->length,
                 (long long)a->length);
    JG_RETURN_NOT_OK(walk_levels(c, a, index, d - 1, "index", d, w, err));
    if (!jgi_is_list_level(w->a_node)) {
      return jg_error_set(err, JG_ESHAPE, -1, "the index has %d list level%s, the array only %d",
                          d, d == 1 ? "" : "s", list_depth(a, 0));
    }
    jgi_ranges ra, ri;
    const jg_array *la = NULL, *li = NULL;
    JG_RETURN_NOT_OK(level_pair(c, w, NULL, d, &ra, &ri, &la, &li, err));
    jg_len total = 0;
    JG_RETURN_NOT_OK(jgi_ranges_expand(c, &ri, NULL, 1, &offsets, &ipos, &total, err));
    starts = ra.start;
    counts = ra.count;
    last.option = ra.has_option || ri.has_option;
    last.valid = ra.valid;
    target = la->children[0];
    identity = false;
    nlists = w->n;
    n = total;
  }
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &positions, err));
  const jg_kernel_arg ipos_arg = identity ? none_arg(c, JG_DTYPE_INT64) : jgi_op_out_arg(&ipos);
  const jg_kernel_arg args[12] = {jg_arg_i64(nlists),        jg_arg_i64(n),
                                  jgi_op_out_arg(&offsets),  jg_arg_i64(m),
                                  ivals,                     jg_arg_i64(identity),
                                  ipos_arg,                  jg_arg_i64(valid_mode),
                                  valid,                     jgi_op_out_arg(&starts),
                                  jgi_op_out_arg(&counts),   jgi_op_out_arg(&positions)};
  jg_error e;
  jg_status st = jg_kernel_call(&jgi_kernel_list_take, args, 12, &c->launch, &e);
  if (st == JG_EINDEX && e.index >= 0 && strstr(e.message, "out of range") != NULL) {
    return take_range_error(c, jgi_op_out_arg(&offsets), ipos_arg, identity, ivals,
                            jgi_op_out_arg(&counts), e.index, d, err);
  }
  if (st != JG_OK) {
    if (err != NULL) *err = e;
    return st;
  }
  jg_array *res = NULL;
  JG_RETURN_NOT_OK(select_subtree(c, target, &positions, valid_mode != 0, &res, err));
  if (d == 0) {
    *out = res;
    return JG_OK;
  }
  jg_array *up = NULL;
  st = jgi_make_list(&offsets, res, last.option ? &last.valid : NULL, &up, err);
  jg_array_release(res);
  JG_RETURN_NOT_OK(st);
  return rebuild(w, NULL, up, out, err);
}

jg_status jg_array_take(const jg_array *a, const jg_array *index, jg_stream stream,
                        jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_take";
  JG_RETURN_NOT_OK(check_args(fn, a, index, "the index", out, err));
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, a, stream, err));
  walk w;
  memset(&w, 0, sizeof w);
  jg_array *res = NULL;
  jg_status st = take_run(&c, a, index, &w, &res, err);
  free(w.levels);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Operations at one axis                                                                      */
/* ------------------------------------------------------------------------------------------ */

typedef enum axis_kind { AXIS_SLICE, AXIS_FIRST, AXIS_LAST, AXIS_LOCAL } axis_kind;

typedef struct axis_op {
  axis_kind kind;
  int64_t start, stop, step;
  unsigned flags;
} axis_op;

/* Slices lists given by ranges: the positions of the selected elements and the new offsets. */
static jg_status slice_ranges(jgi_op_ctx *c, const jgi_ranges *r, const axis_op *op,
                              jg_view *offsets, jg_view *positions, jg_error *err) {
  jgi_ranges s = *r;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, r->n, JG_DTYPE_INT64, &s.start, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, r->n, JG_DTYPE_INT64, &s.count, err));
  const jg_kernel_arg args[10] = {jg_arg_i64(r->n),
                                  jgi_op_out_arg(&r->start),
                                  jgi_op_out_arg(&r->count),
                                  jg_arg_i64(op->start),
                                  jg_arg_i64(op->stop),
                                  jg_arg_i64(op->step),
                                  jg_arg_i64((op->flags & JG_SLICE_START) != 0),
                                  jg_arg_i64((op->flags & JG_SLICE_STOP) != 0),
                                  jgi_op_out_arg(&s.start),
                                  jgi_op_out_arg(&s.count)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_slice, args, 10, &c->launch, err));
  jg_len total = 0;
  return jgi_ranges_expand(c, &s, NULL, op->step, offsets, positions, &total, err);
}

/* Applies `op` to the list level `node` (a list-like node, or for firsts/lasts an option above
 * one), whose lists are replaced. */
static jg_status apply_here(jgi_op_ctx *c, const jg_array *node, const axis_op *op,
                            jg_array **out, jg_error *err) {
  jgi_ranges r;
  const jg_array *l = NULL;
  JG_RETURN_NOT_OK(jgi_level_ranges(c, node, NULL, node->length, NULL, &r, &l, err));
  const jg_array *content = l->children[0];
  switch (op->kind) {
    case AXIS_SLICE: {
      jg_view offsets, positions;
      JG_RETURN_NOT_OK(slice_ranges(c, &r, op, &offsets, &positions, err));
      jg_array *sub = NULL;
      JG_RETURN_NOT_OK(jgi_carry(c, content, jgi_op_out_arg(&positions), &sub, err));
      const jg_status st = jgi_make_list(&offsets, sub, NULL, out, err);
      jg_array_release(sub);
      return st;
    }
    case AXIS_FIRST:
    case AXIS_LAST: {
      const jg_len n = r.n;
      const bool none_only = content->length == 0;
      jg_view pos, ok;
      JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &pos, err));
      JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_BOOL, &ok, err));
      const jg_kernel_arg args[8] = {jg_arg_i64(n),
                                     jgi_op_out_arg(&r.start),
                                     jgi_op_out_arg(&r.count),
                                     jgi_op_out_arg(&r.valid),
                                     jg_arg_i64(op->kind == AXIS_LAST),
                                     jg_arg_i64(none_only ? -1 : 0),
                                     jgi_op_out_arg(&pos),
                                     jgi_op_out_arg(&ok)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_pick, args, 8, &c->launch, err));
      if (none_only) return jg_array_indexed_option(&pos, (jg_array *)(uintptr_t)content, out, err);
      jg_array *vals = NULL;
      JG_RETURN_NOT_OK(jgi_carry(c, content, jgi_op_out_arg(&pos), &vals, err));
      const jg_status st = jg_array_byte_masked(&ok, true, vals, out, err);
      jg_array_release(vals);
      return st;
    }
    case AXIS_LOCAL: {
      jg_view offsets, values;
      jg_len total = 0;
      JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &r.count, r.count.layout.shape[0], &offsets,
                                                &total, err));
      JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &values, err));
      const jg_kernel_arg args[4] = {jg_arg_i64(r.n), jg_arg_i64(total), jgi_op_out_arg(&offsets),
                                     jgi_op_out_arg(&values)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_local_index, args, 4, &c->launch, err));
      jg_array *num = NULL;
      JG_RETURN_NOT_OK(jg_array_numeric(&values, &num, err));
      const jg_status st = jgi_make_list(&offsets, num, r.has_option ? &r.valid : NULL, out, err);
      jg_array_release(num);
      return st;
    }
  }
  return jg_error_set(err, JG_EINTERNAL, -1, "unknown operation");
}

/* Whether `node` (list-like) is the level of `axis` (>= 1: the first list level below here is
 * axis 1; < 0: counted from the innermost). */
static bool is_target(const jg_array *node, int64_t axis) {
  return axis > 0 ? axis == 1 : dims_below(node, true, 0) == -axis;
}

/* A slice along a regular dimension of numeric data (ndim > 1): `axis` (>= 1 from the node's
 * entries, or < 0 from its last dimension) names a data axis in [1, ndim); the view is sliced in
 * place (zero-copy), so the dimension stays regular. Other axis operations there: JG_ENOTSUP. */
static jg_status apply_numeric(const jg_array *node, int64_t axis, const axis_op *op,
                               jg_array **out, jg_error *err) {
  const jg_view *v = &node->buffers[0];
  const int ndim = v->layout.ndim;
  const int64_t k = axis > 0 ? axis : ndim + axis;
  JG_RETURN_IF(ndim < 2 || k < 1 || k >= ndim, JG_ESHAPE, err,
               "axis %lld reaches numeric data of %d dimension%s, which has no lists",
               (long long)axis, ndim, ndim == 1 ? "" : "s");
  JG_RETURN_IF(op->kind != AXIS_SLICE, JG_ENOTSUP, err,
               "axis %lld is a regular dimension of numeric data (%lld * ...): firsts, lasts and "
               "local_index need a list level there",
               (long long)axis, (long long)v->layout.shape[k]);
  jg_slice sl[JG_MAX_NDIM];
  for (int64_t d = 0; d < k; d++) sl[d] = JG_SLICE_ALL;
  sl[k] = JG_SLICE((op->flags & JG_SLICE_START) ? op->start : JG_SLICE_NONE,
                   (op->flags & JG_SLICE_STOP) ? op->stop : JG_SLICE_NONE, op->step);
  jg_view sliced;
  JG_RETURN_NOT_OK(jg_view_slice(&sliced, v, (int)k + 1, sl, err));
  return jg_array_numeric(&sliced, out, err);
}

static jg_status apply_axis(jgi_op_ctx *c, const jg_array *node, int64_t axis, const axis_op *op,
                            jg_array **out, jg_error *err) {
  switch (node->kind) {
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST:
    case JG_NODE_REGULAR: {
      if (is_target(node, axis)) return apply_here(c, node, op, out, err);
      jg_array *child = NULL;
      JG_RETURN_NOT_OK(apply_axis(c, node->children[0], axis > 0 ? axis - 1 : axis, op, &child, err));
      const jg_status st = jgi_op_remake(node, child, out, err);
      jg_array_release(child);
      return st;
    }
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED:
    case JG_NODE_INDEXED_OPTION: {
      const jg_array *inner = node->children[0];
      /* firsts/lasts and local_index read a None list directly above their level as None. */
      if (op->kind != AXIS_SLICE && jgi_is_list_level(node) && is_target(inner, axis)) {
        return apply_here(c, node, op, out, err);
      }
      jg_array *child = NULL;
      JG_RETURN_NOT_OK(apply_axis(c, inner, axis, op, &child, err));
      const jg_status st = jgi_op_remake(node, child, out, err);
      jg_array_release(child);
      return st;
    }
    case JG_NODE_RECORD: {
      const int nf = node->nchildren;
      jg_array **fields = calloc(nf > 0 ? (size_t)nf : 1, sizeof *fields);
      JG_RETURN_IF(fields == NULL, JG_ENOMEM, err, "out of memory");
      jg_status st = JG_OK;
      for (int k = 0; st == JG_OK && k < nf; k++) {
        st = apply_axis(c, node->children[k], axis, op, &fields[k], err);
      }
      if (st == JG_OK) {
        st = jg_array_record(nf, fields, (const char *const *)node->names, node->length, out,
                             err);
      }
      for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
      free(fields);
      return st;
    }
    case JG_NODE_NUMERIC:
      return apply_numeric(node, axis, op, out, err);
    default:
      return jg_error_set(err, JG_ESHAPE, -1, "axis %lld reaches a %s node, which has no lists",
                          (long long)axis, jgi_array_node_name(node->kind));
  }
}

static jg_status axis_entry(const char *fn, const jg_array *a, int64_t axis, const axis_op *op,
                            jg_stream stream, jg_array **out, jg_error *err) {
  JG_RETURN_NOT_OK(check_args(fn, a, NULL, NULL, out, err));
  JG_RETURN_IF(op->kind == AXIS_SLICE && op->step == 0, JG_EINVAL, err, "%s: slice step is 0",
               fn);
  JG_RETURN_IF(op->kind == AXIS_SLICE && (op->flags & ~3u) != 0, JG_EINVAL, err,
               "%s: unknown flags 0x%x", fn, op->flags);
  JG_RETURN_IF((op->kind == AXIS_FIRST || op->kind == AXIS_LAST) && axis == 0, JG_EINVAL, err,
               "%s: axis 0 has no lists to take an element of (use axis 1 or more)", fn);
  const int depth = dims_below(a, true, 0);
  if (axis > 0 ? axis > depth : axis < 0 && axis < -(int64_t)depth) { /* no -axis: INT64_MIN */
    return jg_error_set(err, JG_ESHAPE, -1,
                        "%s: axis %lld exceeds the depth of the nested list structure (which "
                        "is %d)",
                        fn, (long long)axis, depth);
  }
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, a, stream, err));
  jg_array *res = NULL;
  jg_status st = JG_OK;
  if (axis == 0) {
    /* The top level as one list [0, len). */
    jgi_ranges r;
    memset(&r, 0, sizeof r);
    r.n = 1;
    const int64_t zero = 0, len = a->length;
    st = jgi_small_i64(&c, &zero, 1, &r.start, err);
    if (st == JG_OK) st = jgi_small_i64(&c, &len, 1, &r.count, err);
    if (st == JG_OK && op->kind == AXIS_SLICE) {
      jg_view offsets, positions;
      st = slice_ranges(&c, &r, op, &offsets, &positions, err);
      if (st == JG_OK) st = jgi_carry(&c, a, jgi_op_out_arg(&positions), &res, err);
    } else if (st == JG_OK) { /* local index at axis 0: 0, 1, ..., len - 1 */
      jg_view offsets, values;
      const int64_t off[2] = {0, len};
      st = jgi_small_i64(&c, off, 2, &offsets, err);
      if (st == JG_OK) st = jgi_op_alloc(&c, len, JG_DTYPE_INT64, &values, err);
      if (st == JG_OK) {
        const jg_kernel_arg args[4] = {jg_arg_i64(1), jg_arg_i64(len), jgi_op_out_arg(&offsets),
                                       jgi_op_out_arg(&values)};
        st = jg_kernel_call(&jgi_kernel_local_index, args, 4, &c.launch, err);
      }
      if (st == JG_OK) st = jg_array_numeric(&values, &res, err);
    }
  } else {
    st = apply_axis(&c, a, axis, op, &res, err);
  }
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

jg_status jg_array_slice_axis(const jg_array *a, int64_t axis, int64_t start, int64_t stop,
                              int64_t step, unsigned flags, jg_stream stream, jg_array **out,
                              jg_error *err) {
  const axis_op op = {AXIS_SLICE, start, stop, step, flags};
  return axis_entry("jg_array_slice_axis", a, axis, &op, stream, out, err);
}

jg_status jg_array_firsts(const jg_array *a, int64_t axis, jg_stream stream, jg_array **out,
                          jg_error *err) {
  const axis_op op = {AXIS_FIRST, 0, 0, 1, 0};
  return axis_entry("jg_array_firsts", a, axis, &op, stream, out, err);
}

jg_status jg_array_lasts(const jg_array *a, int64_t axis, jg_stream stream, jg_array **out,
                         jg_error *err) {
  const axis_op op = {AXIS_LAST, 0, 0, 1, 0};
  return axis_entry("jg_array_lasts", a, axis, &op, stream, out, err);
}

jg_status jg_array_local_index(const jg_array *a, int64_t axis, jg_stream stream,
                               jg_array **out, jg_error *err) {
  const axis_op op = {AXIS_LOCAL, 0, 0, 1, 0};
  return axis_entry("jg_array_local_index", a, axis, &op, stream, out, err);
}
