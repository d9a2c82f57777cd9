/* structure.c: structure operations (structure.h): flatten, unflatten, singletons, pad_none,
 * fill_none, is_none, drop_none, concatenate, argsort, sort; Awkward Array 2.x's semantics.
 *
 * How: every operation is built from a few steps that run on the array's backend through
 * catalog kernels, so host and GPU give the same results:
 *  - lists of any layout (list-offset, list, regular, or an option over one of them, None lists
 *    counting as empty) are first normalised to int64 starts, stops and counts (kernel
 *    list_carry, which also checks every list against its content and pads the counts);
 *  - counts become offsets by an exclusive scan (a host loop, or CUB's scan on the GPU through
 *    src/kernels/scan/), whose total sizes the next buffer (one value read back);
 *  - the positions to gather are written by list_gather_index (flatten, pad_none, drop_none),
 *    list_concat_index (concatenate) or list_merge_pass (sort: a stable segmented merge sort);
 *  - contents are gathered by "carry" below: numbers with take, lists by gathering their starts
 *    and stops (list_carry: the nested content is shared, not copied), records field by field,
 *    options by composing their index (option_index, then fill_none as a gather that keeps -1).
 * The nodes above the level an operation works on are made again over their own buffers
 * (jgi_op_remake), so they are shared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_carry.h"
#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_ops.h"
#include "internal/jgi_transfer.h"
#include "jagged/kernel.h"
#include "jagged/ops.h"
#include "jagged/structure.h"
#include "kernels/scan/scan.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_list_carry;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_gather_index;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_concat_index;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_merge_pass;
extern JGI_HIDDEN const jg_kernel jgi_kernel_fill_none;
extern JGI_HIDDEN const jg_kernel jgi_kernel_cast;
extern JGI_HIDDEN const jg_kernel jgi_kernel_take;
extern JGI_HIDDEN const jg_kernel jgi_kernel_local_index;
extern JGI_HIDDEN const jg_kernel jgi_kernel_fill;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_minmax;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_sum;
extern JGI_HIDDEN const jg_kernel jgi_kernel_counts_equal;

/* Deepest recursion through nested nodes (records of lists of records ...). */
#define MAX_DEPTH 1000

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                               */
/* ------------------------------------------------------------------------------------------ */

static jg_kernel_arg arg_none(const jgi_op_ctx *c, jg_dtype dt) {
  return jg_arg_array(NULL, 0, dt, c->device);
}

/* The kernel argument of elements [first, first + count) of a dense view from jgi_op_alloc. */
static jg_kernel_arg sub_arg(const jg_view *v, jg_len first, jg_len count) {
  char *p = (char *)jg_view_data(v);
  if (p != NULL) p += first * v->layout.itemsize;
  return jg_arg_array(count == 0 ? NULL : p, count, v->dtype, v->device);
}

/* A view of elements [first, first + count) of a dense view from jgi_op_alloc. */
static jg_status sub_view(const jg_view *v, jg_len first, jg_len count, jg_view *out,
                          jg_error *err) {
  const jg_slice s = JG_SLICE(first, first + count, 1);
  return jg_view_slice(out, v, 1, &s, err);
}

/* A new int64 array on c's backend holding `n` values copied from the host. */
static jg_status upload_i64(jgi_op_ctx *c, const int64_t *values, jg_len n, jg_view *out,
                            jg_error *err) {
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, out, err));
  if (n == 0) return JG_OK;
  if (c->backend == JG_BACKEND_CPU) {
    memcpy(jg_view_data(out), values, (size_t)n * sizeof *values);
    return JG_OK;
  }
  jg_layout l;
  jg_view src;
  JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &n, NULL, 8, err));
  JG_RETURN_NOT_OK(jg_view_from_pointer(&src, (void *)values, (jg_device)JG_DEVICE_HOST_INIT, &l,
                                        JG_DTYPE_INT64, true, err));
  return jg_copy(out, &src, err); /* synchronous: `values` may go when it returns */
}

/* Element i of a 1-D integer view on c's backend (any stride), widened to int64 (one value
 * read back from a device). */
static jg_status read_i64(jgi_op_ctx *c, const jg_view *v, jg_len i, int64_t *out,
                          jg_error *err) {
  const jg_len zero = 0;
  return jgi_op_read_ints(c, jgi_view_element_ptr(v, i), v->dtype, &zero, 1, out,
                          "structure: a value", err);
}

/* Whether a dtype is one of the eleven the kernels take. */
static bool kernel_dtype(jg_dtype d) {
  return (d >= JG_DTYPE_BOOL && d <= JG_DTYPE_UINT64) || d == JG_DTYPE_FLOAT32 ||
         d == JG_DTYPE_FLOAT64;
}

static bool is_signed(jg_dtype d) { return d >= JG_DTYPE_INT8 && d <= JG_DTYPE_INT64; }
static bool is_unsigned(jg_dtype d) { return d >= JG_DTYPE_UINT8 && d <= JG_DTYPE_UINT64; }
static bool is_float(jg_dtype d) { return d == JG_DTYPE_FLOAT32 || d == JG_DTYPE_FLOAT64; }

static int bits(jg_dtype d) { return (int)jg_dtype_itemsize(d) * 8; }

static jg_dtype signed_of(int b) {
  return b <= 8 ? JG_DTYPE_INT8 : b <= 16 ? JG_DTYPE_INT16 : b <= 32 ? JG_DTYPE_INT32
                                                                      : JG_DTYPE_INT64;
}

/* NumPy's promotion of two kernel dtypes: equal dtypes stay; bool gives way to anything; two
 * signed (or two unsigned) integers give the wider; a signed and an unsigned one the smallest
 * signed type holding both (float64 for uint64 with a signed type); an integer of at most 16
 * bits with float32 gives float32, wider ones float64; two floats the wider. */
static jg_dtype promote(jg_dtype a, jg_dtype b) {
  if (a == b) return a;
  if (a == JG_DTYPE_BOOL) return b;
  if (b == JG_DTYPE_BOOL) return a;
  if (is_float(a) && is_float(b)) return JG_DTYPE_FLOAT64;
  if (is_float(a) || is_float(b)) {
    const jg_dtype f = is_float(a) ? a : b, i = is_float(a) ? b : a;
    return f == JG_DTYPE_FLOAT32 && bits(i) <= 16 ? JG_DTYPE_FLOAT32 : JG_DTYPE_FLOAT64;
  }
  if (is_signed(a) == is_signed(b)) return bits(a) >= bits(b) ? a : b;
  const jg_dtype s = is_signed(a) ? a : b, u = is_signed(a) ? b : a;
  if (bits(s) > bits(u)) return s;
  if (u == JG_DTYPE_UINT64) return JG_DTYPE_FLOAT64;
  return signed_of(2 * bits(u));
}

/* The remaining dims of a numeric node must be 1-D for the gathers here. */
static jg_status require_1d(const jg_array *a, jg_error *err) {
  JG_RETURN_IF(a->kind == JG_NODE_NUMERIC && a->buffers[0].layout.ndim > 1, JG_ENOTSUP, err,
               "numeric data of %d dimensions cannot be gathered in this version",
               (int)a->buffers[0].layout.ndim);
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Kernel steps                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* Option index of `opt`'s n entries (int64, -1 for None, else position in its content + shift)
 * and per-entry flags (valid when negate, else None): jgi_op_option_index. */
static jg_status option_index(jgi_op_ctx *c, const jg_array *opt, int64_t shift, bool negate,
                              jg_view *idx, jg_view *flags, jg_error *err) {
  return jgi_op_option_index(c, opt, shift, negate, idx, flags, err);
}

/* Lists normalised to int64. */
typedef struct lists {
  jg_len n;
  jg_view starts, stops, counts;
  const jg_array *content; /* borrowed */
  const jg_array *list;    /* the list node itself (below an option), borrowed */
} lists;

/* Whether `a` is a list-like node, or an option over one. */
static const jg_array *list_below(const jg_array *a) {
  if (jgi_node_is_option(a->kind)) a = a->children[0];
  return (jgi_node_is_list(a->kind) || a->kind == JG_NODE_REGULAR) ? a : NULL;
}

/* A list node's own starts/stops as kernel arguments (regular: made from counts of `size`). */
static jg_status raw_list_args(jgi_op_ctx *c, const jg_array *list, jg_len *nlists,
                               jg_kernel_arg *starts, jg_kernel_arg *stops, jg_error *err) {
  *nlists = list->length;
  if (list->kind != JG_NODE_REGULAR) return jgi_op_list_args(c, list, starts, stops, err);
  jg_view k, o;
  int64_t total = 0;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, list->length, JG_DTYPE_INT64, &k, err));
  const jg_kernel_arg fa[3] = {jg_arg_i64(list->length), jg_arg_i64(list->regular_size),
                               jgi_op_out_arg(&k)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, fa, 3, &c->launch, err));
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &k, list->length, &o, &total, err));
  *starts = sub_arg(&o, 0, list->length);
  *stops = sub_arg(&o, 1, list->length);
  return JG_OK;
}

/* The n lists of `a` (a list node, or an option over one: None lists are empty) as int64
 * starts/stops, checked against the content, with counts padded to `target` (clip: exactly). */
static jg_status get_lists(jgi_op_ctx *c, const jg_array *a, int64_t target, bool clip, lists *L,
                           jg_error *err) {
  const jg_array *list = list_below(a);
  JG_RETURN_IF(list == NULL, JG_EINTERNAL, err, "%s node is not a list",
               jgi_array_node_name(a->kind));
  L->n = a->length;
  L->list = list;
  L->content = list->children[0];
  jg_len nlists = 0;
  jg_kernel_arg st, sp, index = arg_none(c, JG_DTYPE_INT64);
  JG_RETURN_NOT_OK(raw_list_args(c, list, &nlists, &st, &sp, err));
  int64_t mode = 0;
  if (list != a) {
    jg_view idx;
    JG_RETURN_NOT_OK(option_index(c, a, 0, false, &idx, NULL, err));
    index = jgi_op_out_arg(&idx);
    mode = 1;
  }
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L->n, JG_DTYPE_INT64, &L->starts, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L->n, JG_DTYPE_INT64, &L->stops, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L->n, JG_DTYPE_INT64, &L->counts, err));
  const jg_kernel_arg args[14] = {
      jg_arg_i64(L->n),       jg_arg_i64(nlists),       jg_arg_i64(L->content->length),
      jg_arg_i64(mode),       st,                       sp,
      index,                  jg_arg_i64(target),       jg_arg_i64(clip ? 1 : 0),
      jg_arg_i64(0),          jg_arg_i64(0),            jgi_op_out_arg(&L->starts),
      jgi_op_out_arg(&L->stops), jgi_op_out_arg(&L->counts)};
  return jg_kernel_call(&jgi_kernel_list_carry, args, 14, &c->launch, err);
}

/* Positions gathered by n output lists of `offsets` (total entries) from lists starts/stops:
 * starts[i] + k, or -1 past a list's end. */
static jg_status gather_index(jgi_op_ctx *c, jg_len n, const jg_view *starts,
                              const jg_view *stops, const jg_view *offsets, int64_t total,
                              jg_view *out, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, out, err));
  const jg_kernel_arg args[6] = {jg_arg_i64(n),         jgi_op_out_arg(starts),
                                 jgi_op_out_arg(stops), jgi_op_out_arg(offsets),
                                 jg_arg_i64(total),     jgi_op_out_arg(out)};
  return jg_kernel_call(&jgi_kernel_list_gather_index, args, 6, &c->launch, err);
}

/* out[i] = index[i] < 0 ? value : content[index[i]] over a dense int64 content of m. */
static jg_status compose_index(jgi_op_ctx *c, const jg_view *index, jg_len n,
                               jg_kernel_arg content, jg_len m, jg_view *out, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, content.dtype, out, err));
  const jg_kernel_arg args[6] = {jg_arg_i64(n), jgi_op_out_arg(index), jg_arg_i64(m), content,
                                 jg_arg_i64(-1), jgi_op_out_arg(out)};
  return jg_kernel_call(&jgi_kernel_fill_none, args, 6, &c->launch, err);
}

/* Converts a dense numeric kernel argument of n elements to dtype `to` (new buffer). */
static jg_status cast_to(jgi_op_ctx *c, jg_kernel_arg in, jg_len n, jg_dtype to, jg_view *out,
                         jg_error *err) {
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, to, out, err));
  const jg_kernel_arg args[3] = {jg_arg_i64(n), in, jgi_op_out_arg(out)};
  return jg_kernel_call(&jgi_kernel_cast, args, 3, &c->launch, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Carry: node[index[i]] for n int64 positions, all valid                                      */
/* ------------------------------------------------------------------------------------------ */

static jg_status carry(jgi_op_ctx *c, const jg_array *a, const jg_view *index, jg_len n,
                       int depth, jg_array **out, jg_error *err);

static jg_status carry_record(jgi_op_ctx *c, const jg_array *a, const jg_view *index, jg_len n,
                              int depth, jg_array **out, jg_error *err) {
  const int nf = a->nchildren;
  jg_array **fields = calloc(nf > 0 ? (size_t)nf : 1, sizeof *fields);
  JG_RETURN_IF(fields == NULL, JG_ENOMEM, err, "out of memory");
  jg_status st = JG_OK;
  for (int k = 0; k < nf && st == JG_OK; k++) {
    st = carry(c, a->children[k], index, n, depth + 1, &fields[k], err);
  }
  if (st == JG_OK) {
    st = jg_array_record(nf, fields, (const char *const *)a->names, n, out, err);
  }
  for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
  free(fields);
  return st;
}

static jg_status carry(jgi_op_ctx *c, const jg_array *a, const jg_view *index, jg_len n,
                       int depth, jg_array **out, jg_error *err) {
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err, "nesting deeper than %d levels", MAX_DEPTH);
  switch (a->kind) {
    case JG_NODE_EMPTY:
      JG_RETURN_IF(n != 0, JG_EINTERNAL, err, "gathering %lld entries of an empty array",
                   (long long)n);
      *out = jg_array_retain((jg_array *)a);
      return JG_OK;
    case JG_NODE_NUMERIC: {
      JG_RETURN_NOT_OK(require_1d(a, err));
      const jg_view *dv = &a->buffers[0];
      JG_RETURN_IF(!kernel_dtype(dv->dtype), JG_EDTYPE, err, "cannot gather %s values",
                   jg_dtype_name(dv->dtype));
      jg_kernel_arg data;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, 0, a->length, &data, err));
      jg_view ov;
      JG_RETURN_NOT_OK(jgi_op_alloc(c, n, dv->dtype, &ov, err));
      const jg_kernel_arg args[5] = {jg_arg_i64(n), jg_arg_i64(a->length), data,
                                     jgi_op_out_arg(index), jgi_op_out_arg(&ov)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_take, args, 5, &c->launch, err));
      return jg_array_numeric(&ov, out, err);
    }
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST:
    case JG_NODE_REGULAR: {
      jg_len nlists = 0;
      jg_kernel_arg st, sp;
      JG_RETURN_NOT_OK(raw_list_args(c, a, &nlists, &st, &sp, err));
      jg_view s, e, k;
      JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &s, err));
      JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &e, err));
      JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &k, err));
      const jg_kernel_arg args[14] = {
          jg_arg_i64(n),         jg_arg_i64(nlists), jg_arg_i64(a->children[0]->length),
          jg_arg_i64(1),         st,                 sp,
          jgi_op_out_arg(index), jg_arg_i64(0),      jg_arg_i64(0),
          jg_arg_i64(0),         jg_arg_i64(0),      jgi_op_out_arg(&s),
          jgi_op_out_arg(&e),    jgi_op_out_arg(&k)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_carry, args, 14, &c->launch, err));
      return jg_array_list(&s, &e, a->children[0], out, err);
    }
    case JG_NODE_RECORD:
      return carry_record(c, a, index, n, depth, out, err);
    case JG_NODE_INDEXED_OPTION: {
      jg_kernel_arg ia;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, &a->buffers[0], 0, a->length, &ia, err));
      jg_view ni;
      JG_RETURN_NOT_OK(compose_index(c, index, n, ia, a->length, &ni, err));
      return jg_array_indexed_option(&ni, a->children[0], out, err);
    }
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED: {
      jg_view oi, ni;
      JG_RETURN_NOT_OK(option_index(c, a, 0, false, &oi, NULL, err));
      JG_RETURN_NOT_OK(compose_index(c, index, n, jgi_op_out_arg(&oi), a->length, &ni, err));
      return jg_array_indexed_option(&ni, a->children[0], out, err);
    }
  }
  return jg_error_set(err, JG_EINTERNAL, -1, "unknown node kind %d", (int)a->kind);
}

/* ------------------------------------------------------------------------------------------ */
/* Flatten, drop_none                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* The entries of n lists given as int64 starts/stops/counts over `content`, gathered in order. */
static jg_status gather_lists(jgi_op_ctx *c, const lists *L, jg_array **out, jg_error *err) {
  jg_view off, idx;
  int64_t total = 0;
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &L->counts, L->n, &off, &total, err));
  JG_RETURN_NOT_OK(gather_index(c, L->n, &L->starts, &L->stops, &off, total, &idx, err));
  JG_RETURN_NOT_OK(require_1d(L->content, err));
  return carry(c, L->content, &idx, total, 0, out, err);
}

static jg_status flatten1(jgi_op_ctx *c, const jg_array *a, int depth, jg_array **out,
                          jg_error *err);

static jg_status flatten_record(jgi_op_ctx *c, const jg_array *a, int depth, jg_array **out,
                                jg_error *err) {
  const int nf = a->nchildren;
  JG_RETURN_IF(nf == 0, JG_ESHAPE, err, "flatten at axis 1 needs lists; the array is a record "
               "of no fields");
  jg_array **fields = calloc((size_t)nf, sizeof *fields);
  JG_RETURN_IF(fields == NULL, JG_ENOMEM, err, "out of memory");
  jg_status st = JG_OK;
  for (int k = 0; k < nf && st == JG_OK; k++) {
    jg_array *f = NULL;
    st = jg_array_slice(a->children[k], 0, a->length, &f, err);
    if (st == JG_OK) st = flatten1(c, f, depth + 1, &fields[k], err);
    jg_array_release(f);
    if (st == JG_OK && k > 0 && fields[k]->length != fields[0]->length) {
      st = jg_error_set(err, JG_ENOTSUP, k,
                        "field %d ('%s') has %lld entries after flattening, field 0 %lld", k,
                        a->names != NULL ? a->names[k] : "", (long long)fields[k]->length,
                        (long long)fields[0]->length);
    }
  }
  if (st == JG_OK) {
    st = jg_array_record(nf, fields, (const char *const *)a->names, fields[0]->length, out, err);
  }
  for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
  free(fields);
  return st;
}

static jg_status flatten1(jgi_op_ctx *c, const jg_array *a, int depth, jg_array **out,
                          jg_error *err) {
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err, "nesting deeper than %d levels", MAX_DEPTH);
  if (a->kind == JG_NODE_RECORD) return flatten_record(c, a, depth, out, err);
  if (a->kind == JG_NODE_LIST_OFFSET) {
    /* Zero-copy: the content between the first and the last offset. */
    const jg_len n = a->length;
    const jg_array *content = a->children[0];
    int64_t first = 0, last = 0;
    JG_RETURN_NOT_OK(jgi_op_offsets_range(c, a, 0, n, &first, &last, NULL, err));
    return jg_array_slice(content, first, last, out, err);
  }
  if (a->kind == JG_NODE_REGULAR) {
    jg_len len = 0;
    JG_RETURN_IF(jgi_mul_overflow(a->length, a->regular_size, &len), JG_EOVERFLOW, err,
                 "regular size overflows");
    return jg_array_slice(a->children[0], 0, len, out, err);
  }
  if (list_below(a) == NULL) {
    char type[128];
    if (jg_array_type_string(a, type, sizeof type, NULL, NULL) != JG_OK) type[0] = '\0';
    return jg_error_set(err, JG_ESHAPE, -1,
                        "flatten at axis 1 needs lists; the array has type %s", type);
  }
  lists L;
  JG_RETURN_NOT_OK(get_lists(c, a, 0, false, &L, err));
  return gather_lists(c, &L, out, err);
}

/* The valid entries of the top-level option of `a` (a itself, retained, when it is none). */
static jg_status drop_none0(jgi_op_ctx *c, const jg_array *a, jg_array **out, jg_error *err) {
  if (!jgi_node_is_option(a->kind)) {
    *out = jg_array_retain((jg_array *)a);
    return JG_OK;
  }
  jg_view idx;
  JG_RETURN_NOT_OK(option_index(c, a, 0, false, &idx, NULL, err));
  lists L;
  L.n = a->length;
  L.content = a->children[0];
  L.list = NULL;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L.n, JG_DTYPE_INT64, &L.starts, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L.n, JG_DTYPE_INT64, &L.stops, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L.n, JG_DTYPE_INT64, &L.counts, err));
  const jg_kernel_arg args[14] = {
      jg_arg_i64(L.n),         jg_arg_i64(0),          jg_arg_i64(L.content->length),
      jg_arg_i64(3),           arg_none(c, JG_DTYPE_INT64), arg_none(c, JG_DTYPE_INT64),
      jgi_op_out_arg(&idx),    jg_arg_i64(0),          jg_arg_i64(0),
      jg_arg_i64(0),           jg_arg_i64(0),          jgi_op_out_arg(&L.starts),
      jgi_op_out_arg(&L.stops), jgi_op_out_arg(&L.counts)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_carry, args, 14, &c->launch, err));
  return gather_lists(c, &L, out, err);
}

/* Remakes the single-content node `above` (an option, or a list node) over `child`. */
static jg_status remake(const jg_array *above, jg_array *child, jg_array **out, jg_error *err) {
  const jg_status st = jgi_op_remake(above, child, out, err);
  jg_array_release(child);
  return st;
}

static jg_status flatten_all(jgi_op_ctx *c, const jg_array *a, jg_array **out, jg_error *err) {
  jg_array *x = jg_array_retain((jg_array *)a);
  for (int depth = 0;; depth++) {
    jg_array *next = NULL;
    jg_status st = JG_OK;
    if (depth > MAX_DEPTH) {
      st = jg_error_set(err, JG_ENOTSUP, -1, "nesting deeper than %d levels", MAX_DEPTH);
    } else if (jgi_node_is_option(x->kind)) {
      st = drop_none0(c, x, &next, err);
    } else if (jgi_node_is_list(x->kind) || x->kind == JG_NODE_REGULAR) {
      st = flatten1(c, x, depth, &next, err);
    } else if (x->kind == JG_NODE_RECORD) {
      st = jg_error_set(err, JG_ENOTSUP, -1,
                        "flattening records at every level (axis None) is not supported in this "
                        "version; flatten one field at a time (jg_array_field)");
    } else {
      *out = x;
      return JG_OK;
    }
    jg_array_release(x);
    if (st != JG_OK) return st;
    x = next;
  }
}

jg_status jg_array_flatten(const jg_array *a, int64_t axis, jg_stream stream, jg_array **out,
                           jg_error *err) {
  static const char fn[] = "jg_array_flatten";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(axis != 1 && axis != 0 && axis != JG_AXIS_ALL, JG_ENOTSUP, err,
               "%s: axis %lld: only 1 and all levels (0 or JG_AXIS_ALL) are supported", fn,
               (long long)axis);
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, a, stream, err));
  jg_array *res = NULL;
  jg_status st = axis == 1 ? flatten1(&c, a, 0, &res, err) : flatten_all(&c, a, &res, err);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

/* Below an option over lists, or a list node: applies `f` to the list node and remakes the
 * option above. */
typedef jg_status (*list_fn)(jgi_op_ctx *c, const jg_array *list, const void *arg,
                             jg_array **out, jg_error *err);

static jg_status at_lists(jgi_op_ctx *c, const jg_array *a, list_fn f, const void *arg,
                          const char *what, jg_array **out, jg_error *err) {
  const jg_array *list = list_below(a);
  if (list == NULL) {
    char type[128];
    if (jg_array_type_string(a, type, sizeof type, NULL, NULL) != JG_OK) type[0] = '\0';
    return jg_error_set(err, JG_ESHAPE, -1, "%s at axis 1 needs lists; the array has type %s",
                        what, type);
  }
  jg_array *inner = NULL;
  JG_RETURN_NOT_OK(f(c, list, arg, &inner, err));
  if (list == a) {
    *out = inner;
    return JG_OK;
  }
  return remake(a, inner, out, err);
}

/* drop_none inside the lists of `list`. */
static jg_status drop_none1(jgi_op_ctx *c, const jg_array *list, const void *arg, jg_array **out,
                            jg_error *err) {
  (void)arg;
  const jg_array *C = list->children[0];
  if (!jgi_node_is_option(C->kind)) {
    *out = jg_array_retain((jg_array *)list);
    return JG_OK;
  }
  lists L;
  jg_view off, gidx, optidx, sel, s, e, k, off2, kidx, newk, off3;
  int64_t total = 0, total2 = 0, total3 = 0;
  JG_RETURN_NOT_OK(get_lists(c, list, 0, false, &L, err));
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &L.counts, L.n, &off, &total, err));
  JG_RETURN_NOT_OK(gather_index(c, L.n, &L.starts, &L.stops, &off, total, &gidx, err));
  JG_RETURN_NOT_OK(option_index(c, C, 0, false, &optidx, NULL, err));
  JG_RETURN_NOT_OK(compose_index(c, &gidx, total, jgi_op_out_arg(&optidx), C->length, &sel, err));
  const jg_array *CC = C->children[0];
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &s, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &e, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &k, err));
  const jg_kernel_arg args[14] = {
      jg_arg_i64(total),   jg_arg_i64(0),         jg_arg_i64(CC->length),
      jg_arg_i64(3),       arg_none(c, JG_DTYPE_INT64), arg_none(c, JG_DTYPE_INT64),
      jgi_op_out_arg(&sel), jg_arg_i64(0),        jg_arg_i64(0),
      jg_arg_i64(0),       jg_arg_i64(0),         jgi_op_out_arg(&s),
      jgi_op_out_arg(&e),  jgi_op_out_arg(&k)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_carry, args, 14, &c->launch, err));
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &k, total, &off2, &total2, err));
  JG_RETURN_NOT_OK(gather_index(c, total, &s, &e, &off2, total2, &kidx, err));
  /* Valid entries per list: the 0/1 counts summed over each list's compact range. */
  JG_RETURN_NOT_OK(jgi_op_alloc(c, L.n, JG_DTYPE_INT64, &newk, err));
  const jg_kernel_arg sa[7] = {jg_arg_i64(L.n),     sub_arg(&off, 0, L.n), sub_arg(&off, 1, L.n),
                               jg_arg_i64(total),   jgi_op_out_arg(&k),    jg_arg_i64(0),
                               jgi_op_out_arg(&newk)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_sum, sa, 7, &c->launch, err));
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &newk, L.n, &off3, &total3, err));
  JG_RETURN_IF(total3 != total2, JG_EINTERNAL, err, "drop_none: %lld != %lld", (long long)total3,
               (long long)total2);
  jg_array *content = NULL;
  JG_RETURN_NOT_OK(require_1d(CC, err));
  JG_RETURN_NOT_OK(carry(c, CC, &kidx, total2, 0, &content, err));
  const jg_status st = jg_array_list_offset(&off3, content, out, err);
  jg_array_release(content);
  return st;
}

static jg_status check_axis01(const char *fn, const jg_array *a, int64_t axis, jg_array **out,
                              jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(axis != 0 && axis != 1, JG_ENOTSUP, err,
               "%s: axis %lld: only 0 and 1 are supported in this version", fn, (long long)axis);
  return JG_OK;
}

/* Runs `body` in a context and hands its result out. */
#define RUN_OP(fn, a, stream, body)                                  \
  do {                                                               \
    jgi_op_ctx c;                                                    \
    JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, (a), (stream), err));   \
    jg_array *res = NULL;                                            \
    jg_status st = (body);                                           \
    st = jgi_op_ctx_finish(&c, st, err);                             \
    if (st != JG_OK) {                                               \
      jg_array_release(res);                                         \
      return st;                                                     \
    }                                                                \
    *out = res;                                                      \
    return JG_OK;                                                    \
  } while (0)

jg_status jg_array_drop_none(const jg_array *a, int64_t axis, jg_stream stream, jg_array **out,
                             jg_error *err) {
  static const char fn[] = "jg_array_drop_none";
  JG_RETURN_NOT_OK(check_axis01(fn, a, axis, out, err));
  RUN_OP(fn, a, stream,
         axis == 0 ? drop_none0(&c, a, &res, err)
                   : at_lists(&c, a, drop_none1, NULL, "drop_none", &res, err));
}

/* ------------------------------------------------------------------------------------------ */
/* is_none, singletons                                                                         */
/* ------------------------------------------------------------------------------------------ */

static jg_status is_none0(jgi_op_ctx *c, const jg_array *a, jg_array **out, jg_error *err) {
  jg_view idx, flags;
  JG_RETURN_NOT_OK(option_index(c, a, 0, false, &idx, &flags, err));
  return jg_array_numeric(&flags, out, err);
}

static jg_status is_none1(jgi_op_ctx *c, const jg_array *list, const void *arg, jg_array **out,
                          jg_error *err) {
  (void)arg;
  jg_array *inner = NULL;
  JG_RETURN_NOT_OK(is_none0(c, list->children[0], &inner, err));
  return remake(list, inner, out, err);
}

jg_status jg_array_is_none(const jg_array *a, int64_t axis, jg_stream stream, jg_array **out,
                           jg_error *err) {
  static const char fn[] = "jg_array_is_none";
  JG_RETURN_NOT_OK(check_axis01(fn, a, axis, out, err));
  RUN_OP(fn, a, stream,
         axis == 0 ? is_none0(&c, a, &res, err)
                   : at_lists(&c, a, is_none1, NULL, "is_none", &res, err));
}

static jg_status singletons_at(jgi_op_ctx *c, const jg_array *a, int depth, jg_array **out,
                               jg_error *err) {
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err, "nesting deeper than %d levels", MAX_DEPTH);
  if (jgi_node_is_list(a->kind) || a->kind == JG_NODE_REGULAR) {
    jg_array *inner = NULL;
    JG_RETURN_NOT_OK(singletons_at(c, a->children[0], depth + 1, &inner, err));
    return remake(a, inner, out, err);
  }
  const bool opt = jgi_node_is_option(a->kind);
  const jg_array *content = opt ? a->children[0] : a;
  jg_view idx, s, e, k;
  JG_RETURN_NOT_OK(option_index(c, a, 0, false, &idx, NULL, err));
  const jg_len n = a->length;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &s, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &e, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &k, err));
  const jg_kernel_arg args[14] = {
      jg_arg_i64(n),       jg_arg_i64(0),        jg_arg_i64(content->length),
      jg_arg_i64(3),       arg_none(c, JG_DTYPE_INT64), arg_none(c, JG_DTYPE_INT64),
      jgi_op_out_arg(&idx), jg_arg_i64(0),       jg_arg_i64(0),
      jg_arg_i64(0),       jg_arg_i64(0),        jgi_op_out_arg(&s),
      jgi_op_out_arg(&e),  jgi_op_out_arg(&k)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_carry, args, 14, &c->launch, err));
  return jg_array_list(&s, &e, (jg_array *)content, out, err);
}

jg_status jg_array_singletons(const jg_array *a, jg_stream stream, jg_array **out,
                              jg_error *err) {
  static const char fn[] = "jg_array_singletons";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  RUN_OP(fn, a, stream, singletons_at(&c, a, 0, &res, err));
}

/* ------------------------------------------------------------------------------------------ */
/* pad_none                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* An indexed option over `a`'s content (looking through an option) from positions into `a`
 * (-1: None). */
static jg_status option_over(jgi_op_ctx *c, const jg_array *a, const jg_view *idx, jg_len n,
                             jg_array **out, jg_error *err) {
  if (!jgi_node_is_option(a->kind)) return jg_array_indexed_option(idx, (jg_array *)a, out, err);
  jg_view oi, ni;
  JG_RETURN_NOT_OK(option_index(c, a, 0, false, &oi, NULL, err));
  JG_RETURN_NOT_OK(compose_index(c, idx, n, jgi_op_out_arg(&oi), a->length, &ni, err));
  return jg_array_indexed_option(&ni, a->children[0], out, err);
}

typedef struct pad_arg {
  int64_t target;
  bool clip;
} pad_arg;

static jg_status pad1(jgi_op_ctx *c, const jg_array *list, const void *arg, jg_array **out,
                      jg_error *err) {
  const pad_arg *p = arg;
  lists L;
  jg_view off, idx;
  int64_t total = 0;
  JG_RETURN_NOT_OK(get_lists(c, list, p->target, p->clip, &L, err));
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &L.counts, L.n, &off, &total, err));
  JG_RETURN_NOT_OK(gather_index(c, L.n, &L.starts, &L.stops, &off, total, &idx, err));
  jg_array *content = NULL;
  JG_RETURN_NOT_OK(option_over(c, L.content, &idx, total, &content, err));
  const jg_status st = p->clip ? jg_array_regular(content, p->target, L.n, out, err)
                               : jg_array_list_offset(&off, content, out, err);
  jg_array_release(content);
  return st;
}

static jg_status pad0(jgi_op_ctx *c, const jg_array *a, int64_t target, bool clip,
                      jg_array **out, jg_error *err) {
  const jg_len n = a->length;
  const int64_t len = clip ? target : (n > target ? n : target);
  const int64_t se[3] = {0, n, 0};
  const int64_t offs[2] = {0, len};
  jg_view s, e, o, idx;
  JG_RETURN_NOT_OK(upload_i64(c, se, 1, &s, err));
  JG_RETURN_NOT_OK(upload_i64(c, se + 1, 1, &e, err));
  JG_RETURN_NOT_OK(upload_i64(c, offs, 2, &o, err));
  JG_RETURN_NOT_OK(gather_index(c, 1, &s, &e, &o, len, &idx, err));
  return option_over(c, a, &idx, len, out, err);
}

jg_status jg_array_pad_none(const jg_array *a, int64_t target, int64_t axis, bool clip,
                            jg_stream stream, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_pad_none";
  JG_RETURN_NOT_OK(check_axis01(fn, a, axis, out, err));
  JG_RETURN_IF(target < 0, JG_EINVAL, err, "%s: target %lld is negative", fn, (long long)target);
  const pad_arg p = {target, clip};
  RUN_OP(fn, a, stream,
         axis == 0 ? pad0(&c, a, target, clip, &res, err)
                   : at_lists(&c, a, pad1, &p, "pad_none", &res, err));
}

/* ------------------------------------------------------------------------------------------ */
/* fill_none                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* The fill value as a kernel argument of dtype `to`. */
static jg_status value_arg(jg_fill_value v, jg_dtype to, jg_kernel_arg *out, jg_error *err) {
  double f = 0.0;
  int64_t i = 0;
  switch (v.dtype) {
    case JG_DTYPE_BOOL:
      i = v.v.b ? 1 : 0;
      f = (double)i;
      break;
    case JG_DTYPE_FLOAT32:
    case JG_DTYPE_FLOAT64:
      f = v.v.f;
      break;
    default:
      if (is_unsigned(v.dtype)) {
        /* A float result takes any uint64 (int64 content + a uint64 value gives float64). */
        if (is_float(to)) {
          f = (double)v.v.u;
          break;
        }
        JG_RETURN_IF(v.v.u > (uint64_t)INT64_MAX, JG_EOVERFLOW, err,
                     "fill value %llu is above 2^63 - 1", (unsigned long long)v.v.u);
        i = (int64_t)v.v.u;
      } else {
        i = v.v.i;
      }
      f = (double)i;
      break;
  }
  *out = is_float(to) ? jg_arg_f64(f) : jg_arg_i64(i);
  return JG_OK;
}

static jg_status fill_at(jgi_op_ctx *c, const jg_array *a, jg_fill_value v, bool all, int depth,
                         jg_array **out, jg_error *err) {
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err, "nesting deeper than %d levels", MAX_DEPTH);
  if (a->kind == JG_NODE_RECORD) {
    const int nf = a->nchildren;
    jg_array **fields = calloc(nf > 0 ? (size_t)nf : 1, sizeof *fields);
    JG_RETURN_IF(fields == NULL, JG_ENOMEM, err, "out of memory");
    jg_status st = JG_OK;
    for (int k = 0; k < nf && st == JG_OK; k++) {
      st = fill_at(c, a->children[k], v, all, depth + 1, &fields[k], err);
    }
    if (st == JG_OK) {
      st = jg_array_record(nf, fields, (const char *const *)a->names, a->length, out, err);
    }
    for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
    free(fields);
    return st;
  }
  if (jgi_node_is_option(a->kind) &&
      (a->children[0]->kind == JG_NODE_NUMERIC || a->children[0]->kind == JG_NODE_EMPTY)) {
    /* Numbers, or None only (an option over an empty node, type ?unknown: the value's type). */
    const jg_array *content = a->children[0];
    const bool empty = content->kind == JG_NODE_EMPTY;
    if (!empty) JG_RETURN_NOT_OK(require_1d(content, err));
    const jg_dtype t = empty ? v.dtype : content->buffers[0].dtype;
    JG_RETURN_IF(!kernel_dtype(t), JG_EDTYPE, err, "cannot fill %s values", jg_dtype_name(t));
    const jg_dtype r = promote(t, v.dtype);
    jg_kernel_arg data = arg_none(c, t), value;
    if (!empty) {
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, &content->buffers[0], 0, content->length, &data, err));
    }
    if (r != t) {
      jg_view cv;
      JG_RETURN_NOT_OK(cast_to(c, data, content->length, r, &cv, err));
      data = jgi_op_out_arg(&cv);
    }
    JG_RETURN_NOT_OK(value_arg(v, r, &value, err));
    jg_view idx, ov;
    JG_RETURN_NOT_OK(option_index(c, a, 0, false, &idx, NULL, err));
    JG_RETURN_NOT_OK(jgi_op_alloc(c, a->length, r, &ov, err));
    const jg_kernel_arg args[6] = {jg_arg_i64(a->length), jgi_op_out_arg(&idx),
                                   jg_arg_i64(content->length), data, value,
                                   jgi_op_out_arg(&ov)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill_none, args, 6, &c->launch, err));
    return jg_array_numeric(&ov, out, err);
  }
  if (jgi_node_is_option(a->kind) && all) {
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "filling None %s entries would need a union type (not supported)",
                        jgi_array_node_name(a->children[0]->kind));
  }
  if (jgi_node_has_one_content(a->kind)) {
    jg_array *inner = NULL;
    JG_RETURN_NOT_OK(fill_at(c, a->children[0], v, all, depth + 1, &inner, err));
    return remake(a, inner, out, err);
  }
  *out = jg_array_retain((jg_array *)a);
  return JG_OK;
}

jg_status jg_array_fill_none(const jg_array *a, jg_fill_value value, int64_t axis,
                             jg_stream stream, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_fill_none";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(axis != -1 && axis != JG_AXIS_ALL, JG_ENOTSUP, err,
               "%s: axis %lld: only -1 (innermost) and JG_AXIS_ALL are supported", fn,
               (long long)axis);
  JG_RETURN_IF(!kernel_dtype(value.dtype), JG_EDTYPE, err,
               "%s: the fill value's dtype %s is not bool, an integer or a float", fn,
               jg_dtype_name(value.dtype));
  RUN_OP(fn, a, stream, fill_at(&c, a, value, axis == JG_AXIS_ALL, 0, &res, err));
}

/* ------------------------------------------------------------------------------------------ */
/* unflatten                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Counts as a 1-D int32/int64 numeric node. */
static jg_status counts_view(const char *fn, const jg_array *counts, const jg_view **v,
                             jg_error *err) {
  JG_RETURN_IF(jgi_node_is_option(counts->kind), JG_ENOTSUP, err,
               "%s: counts with None (None lists) are not supported in this version", fn);
  JG_RETURN_IF(counts->kind != JG_NODE_NUMERIC || counts->buffers[0].layout.ndim != 1, JG_EDTYPE,
               err, "%s: counts must be a 1-D array of int32 or int64 numbers, not a %s node",
               fn, jgi_array_node_name(counts->kind));
  const jg_dtype d = counts->buffers[0].dtype;
  JG_RETURN_IF(d != JG_DTYPE_INT32 && d != JG_DTYPE_INT64, JG_EDTYPE, err,
               "%s: counts must be int32 or int64, not %s", fn, jg_dtype_name(d));
  *v = &counts->buffers[0];
  return JG_OK;
}

/* jg_array_from_counts with unflatten's statuses: counts that do not add up are JG_ESHAPE. */
static jg_status from_counts(const char *fn, const jg_view *counts, jg_array *content,
                             jg_stream stream, jg_array **out, jg_error *err) {
  jg_error e;
  memset(&e, 0, sizeof e);
  jg_status st = jg_array_from_counts(counts, content, stream, out, &e);
  if (st == JG_OK) return JG_OK;
  const char *msg = strstr(e.message, ": ");
  msg = msg != NULL ? msg + 2 : e.message;
  if (st == JG_EVALUE && (e.index < 0 || strstr(msg, "larger than") != NULL)) {
    st = JG_ESHAPE;
  }
  char text[sizeof e.message];
  const char *at = strstr(msg, "the content has");
  if (at != NULL) {
    snprintf(text, sizeof text, "%.*sthe array has%s", (int)(at - msg), msg,
             at + strlen("the content has"));
  } else {
    snprintf(text, sizeof text, "%s", msg);
  }
  return jg_error_set(err, st, e.index, "%s: %s", fn, text);
}

/* Counts of unknown type (an empty node: no counts, as the builder makes `[]`): no lists, so
 * `a` must have no entries either (else JG_ESHAPE from from_counts). */
static jg_status unflatten_no_counts(jgi_op_ctx *c, const char *fn, const jg_array *a,
                                     jg_array **out, jg_error *err) {
  jg_view none;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, 0, JG_DTYPE_INT64, &none, err));
  return from_counts(fn, &none, (jg_array *)(uintptr_t)a, c->launch.stream, out, err);
}

static jg_status unflatten1(jgi_op_ctx *c, const char *fn, const jg_array *a,
                            const jg_array *counts, jg_array **out, jg_error *err) {
  JG_RETURN_IF(list_below(a) == NULL || jgi_node_is_option(a->kind), JG_ESHAPE, err,
               "%s: axis 1 needs lists (without None) at the top of the array", fn);
  JG_RETURN_IF(!jgi_node_is_list(counts->kind), JG_ESHAPE, err,
               "%s: axis 1 needs counts as lists of integers, one list per list of the array",
               fn);
  JG_RETURN_IF_AT(counts->length != a->length, JG_ESHAPE, err, -1,
                  "%s: %lld lists of counts for %lld lists", fn, (long long)counts->length,
                  (long long)a->length);
  /* Per list: the sum of the counts must be the list's length. */
  jg_reduce_options ro;
  memset(&ro, 0, sizeof ro);
  ro.axis = -1;
  ro.mask_identity = -1;
  ro.stream = c->launch.stream;
  jg_array *sums = NULL, *flat_counts = NULL, *flat = NULL, *inner = NULL;
  lists L, LC;
  jg_view off_a, off_c, off_n;
  int64_t total_a = 0, total_c = 0, total_n = 0;
  jg_status st = jg_array_reduce(counts, JG_REDUCE_SUM, &ro, &sums, err);
  if (st == JG_OK) st = get_lists(c, a, 0, false, &L, err);
  if (st == JG_OK) st = jgi_op_counts_to_offsets(c, &L.counts, L.n, &off_a, &total_a, err);
  if (st == JG_OK) {
    st = jg_array_kind(sums) == JG_NODE_NUMERIC
             ? jgi_op_counts_to_offsets(c, &sums->buffers[0], L.n, &off_c, &total_c, err)
             : jg_error_set(err, JG_EINTERNAL, -1, "sums are not numbers");
  }
  if (st == JG_OK) {
    const jg_kernel_arg args[5] = {jg_arg_i64(L.n), sub_arg(&off_c, 0, L.n),
                                   sub_arg(&off_c, 1, L.n), sub_arg(&off_a, 0, L.n),
                                   sub_arg(&off_a, 1, L.n)};
    jg_error e;
    st = jg_kernel_call(&jgi_kernel_counts_equal, args, 5, &c->launch, &e);
    if (st == JG_ESHAPE) {
      int64_t want = 0, have = 0, s0 = 0, s1 = 0;
      if (read_i64(c, &off_a, e.index, &s0, err) == JG_OK &&
          read_i64(c, &off_a, e.index + 1, &s1, err) == JG_OK) {
        have = s1 - s0;
      }
      if (read_i64(c, &off_c, e.index, &s0, err) == JG_OK &&
          read_i64(c, &off_c, e.index + 1, &s1, err) == JG_OK) {
        want = s1 - s0;
      }
      st = jg_error_set(err, JG_ESHAPE, e.index,
                        "%s: the counts of list %lld add up to %lld but the list has %lld entries",
                        fn, (long long)e.index, (long long)want, (long long)have);
    } else if (st != JG_OK) {
      *err = e;
    }
  }
  if (st == JG_OK) st = flatten1(c, counts, 0, &flat_counts, err);
  if (st == JG_OK) st = gather_lists(c, &L, &flat, err);
  const jg_view *cv = NULL;
  if (st == JG_OK) st = counts_view(fn, flat_counts, &cv, err);
  if (st == JG_OK) st = from_counts(fn, cv, flat, c->launch.stream, &inner, err);
  /* The result's list i holds one sub-list per count of counts' list i: its offsets are the
   * scan of the numbers of counts (off_c, the scan of their sums, only checked the lengths). */
  if (st == JG_OK) st = get_lists(c, counts, 0, false, &LC, err);
  if (st == JG_OK) st = jgi_op_counts_to_offsets(c, &LC.counts, LC.n, &off_n, &total_n, err);
  if (st == JG_OK) st = jg_array_list_offset(&off_n, inner, out, err);
  jg_array_release(sums);
  jg_array_release(flat_counts);
  jg_array_release(flat);
  jg_array_release(inner);
  return st;
}

jg_status jg_array_unflatten(const jg_array *a, const jg_array *counts, int64_t axis,
                             jg_stream stream, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_unflatten";
  JG_RETURN_NOT_OK(check_axis01(fn, a, axis, out, err));
  JG_RETURN_IF(counts == NULL, JG_EINVAL, err, "%s: counts is NULL", fn);
  JG_RETURN_NOT_OK(jgi_error_prefix(jg_array_check_same_backend(a, "a", counts, "counts", err),
                                    fn, err));
  if (axis == 0 && counts->kind == JG_NODE_EMPTY) {
    RUN_OP(fn, a, stream, unflatten_no_counts(&c, fn, a, &res, err));
  }
  if (axis == 0) {
    const jg_view *cv = NULL;
    JG_RETURN_NOT_OK(counts_view(fn, counts, &cv, err));
    return from_counts(fn, cv, (jg_array *)a, stream, out, err);
  }
  RUN_OP(fn, a, stream, unflatten1(&c, fn, a, counts, &res, err));
}

/* ------------------------------------------------------------------------------------------ */
/* concatenate                                                                                 */
/* ------------------------------------------------------------------------------------------ */

static jg_status join0(jgi_op_ctx *c, int k, const jg_array *const *xs, int depth,
                       jg_array **out, jg_error *err);

static jg_status join_numeric(jgi_op_ctx *c, int k, const jg_array *const *xs, jg_len total,
                              jg_array **out, jg_error *err) {
  jg_dtype r = JG_DTYPE_BOOL;
  bool first = true;
  for (int j = 0; j < k; j++) {
    if (xs[j]->kind == JG_NODE_EMPTY) continue;
    JG_RETURN_NOT_OK(require_1d(xs[j], err));
    const jg_dtype d = xs[j]->buffers[0].dtype;
    JG_RETURN_IF_AT(!kernel_dtype(d), JG_EDTYPE, err, j, "cannot join %s values",
                    jg_dtype_name(d));
    r = first ? d : promote(r, d);
    first = false;
  }
  if (first) return jgi_op_empty(c, out, err); /* all empty */
  jg_view ov;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, r, &ov, err));
  jg_len at = 0;
  for (int j = 0; j < k; j++) {
    const jg_len n = xs[j]->length;
    if (xs[j]->kind == JG_NODE_EMPTY || n == 0) continue;
    const jg_view *src = &xs[j]->buffers[0];
    if (src->dtype == r) {
      jg_view dst, s;
      JG_RETURN_NOT_OK(sub_view(&ov, at, n, &dst, err));
      const jg_slice sl = JG_SLICE(0, n, 1);
      JG_RETURN_NOT_OK(jg_view_slice(&s, src, 1, &sl, err));
      JG_RETURN_NOT_OK(jg_copy_async(&dst, &s, c->launch.stream, err));
    } else {
      jg_kernel_arg in;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, src, 0, n, &in, err));
      const jg_kernel_arg args[3] = {jg_arg_i64(n), in, sub_arg(&ov, at, n)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_cast, args, 3, &c->launch, err));
    }
    at += n;
  }
  return jg_array_numeric(&ov, out, err);
}

static jg_status join_options(jgi_op_ctx *c, int k, const jg_array *const *xs, jg_len total,
                              int depth, jg_array **out, jg_error *err) {
  const jg_array **inner = calloc((size_t)k, sizeof *inner);
  JG_RETURN_IF(inner == NULL, JG_ENOMEM, err, "out of memory");
  jg_view idx;
  jg_status st = jgi_op_alloc(c, total, JG_DTYPE_INT64, &idx, err);
  jg_len at = 0, base = 0;
  for (int j = 0; j < k && st == JG_OK; j++) {
    const jg_array *x = xs[j];
    inner[j] = jgi_node_is_option(x->kind) ? x->children[0] : x;
    jg_view oi;
    st = option_index(c, x, base, false, &oi, NULL, err);
    if (st == JG_OK && x->length > 0) {
      jg_view dst;
      st = sub_view(&idx, at, x->length, &dst, err);
      if (st == JG_OK) st = jg_copy_async(&dst, &oi, c->launch.stream, err);
    }
    at += x->length;
    base += inner[j]->length;
  }
  jg_array *content = NULL;
  if (st == JG_OK) st = join0(c, k, inner, depth + 1, &content, err);
  if (st == JG_OK) st = jg_array_indexed_option(&idx, content, out, err);
  jg_array_release(content);
  free(inner);
  return st;
}

static jg_status join_lists(jgi_op_ctx *c, int k, const jg_array *const *xs, jg_len total,
                            int depth, jg_array **out, jg_error *err) {
  const jg_array **inner = calloc((size_t)k, sizeof *inner);
  JG_RETURN_IF(inner == NULL, JG_ENOMEM, err, "out of memory");
  jg_view s, e, cnt;
  jg_status st = jgi_op_alloc(c, total, JG_DTYPE_INT64, &s, err);
  if (st == JG_OK) st = jgi_op_alloc(c, total, JG_DTYPE_INT64, &e, err);
  if (st == JG_OK) st = jgi_op_alloc(c, total, JG_DTYPE_INT64, &cnt, err);
  jg_len at = 0, base = 0;
  for (int j = 0; j < k && st == JG_OK; j++) {
    const jg_array *x = xs[j];
    inner[j] = x->children[0];
    const jg_len n = x->length;
    jg_len nlists = 0;
    jg_kernel_arg st_a, sp_a;
    st = raw_list_args(c, x, &nlists, &st_a, &sp_a, err);
    if (st == JG_OK && n > 0) {
      const jg_kernel_arg args[14] = {
          jg_arg_i64(n),       jg_arg_i64(nlists),  jg_arg_i64(inner[j]->length),
          jg_arg_i64(0),       st_a,                sp_a,
          arg_none(c, JG_DTYPE_INT64), jg_arg_i64(0), jg_arg_i64(0),
          jg_arg_i64(0),       jg_arg_i64(base),    sub_arg(&s, at, n),
          sub_arg(&e, at, n),  sub_arg(&cnt, at, n)};
      st = jg_kernel_call(&jgi_kernel_list_carry, args, 14, &c->launch, err);
    }
    at += n;
    base += inner[j]->length;
  }
  jg_array *content = NULL;
  if (st == JG_OK) st = join0(c, k, inner, depth + 1, &content, err);
  if (st == JG_OK) st = jg_array_list(&s, &e, content, out, err);
  jg_array_release(content);
  free(inner);
  return st;
}

static jg_status join_records(jgi_op_ctx *c, int k, const jg_array *const *xs, jg_len total,
                              int depth, jg_array **out, jg_error *err) {
  const jg_array *r0 = xs[0];
  const int nf = r0->nchildren;
  for (int j = 1; j < k; j++) {
    JG_RETURN_IF_AT(xs[j]->nchildren != nf, JG_ESHAPE, err, j,
                    "array %d has records of %d fields, array 0 of %d", j, xs[j]->nchildren, nf);
  }
  jg_array **fields = calloc(nf > 0 ? (size_t)nf : 1, sizeof *fields);
  jg_array **parts = calloc((size_t)k, sizeof *parts);
  jg_status st = (fields == NULL || parts == NULL)
                     ? jg_error_set(err, JG_ENOMEM, -1, "out of memory")
                     : JG_OK;
  for (int f = 0; f < nf && st == JG_OK; f++) {
    const char *name = r0->names != NULL ? r0->names[f] : NULL;
    char num[24];
    if (name == NULL) {
      snprintf(num, sizeof num, "%d", f);
      name = num;
    }
    for (int j = 0; j < k && st == JG_OK; j++) {
      const int fi = jg_array_field_index(xs[j], name);
      if (fi < 0) {
        st = jg_error_set(err, JG_ESHAPE, j, "array %d has no field '%s'", j, name);
      } else {
        st = jg_array_slice(xs[j]->children[fi], 0, xs[j]->length, &parts[j], err);
      }
    }
    if (st == JG_OK) st = join0(c, k, (const jg_array *const *)parts, depth + 1, &fields[f], err);
    for (int j = 0; j < k; j++) {
      jg_array_release(parts[j]);
      parts[j] = NULL;
    }
  }
  if (st == JG_OK) {
    st = jg_array_record(nf, fields, (const char *const *)r0->names, total, out, err);
  }
  for (int f = 0; fields != NULL && f < nf; f++) jg_array_release(fields[f]);
  free(fields);
  free(parts);
  return st;
}

/* The arrays one after the other (axis 0), joined node by node. */
static jg_status join0(jgi_op_ctx *c, int k, const jg_array *const *xs, int depth,
                       jg_array **out, jg_error *err) {
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err, "nesting deeper than %d levels", MAX_DEPTH);
  jg_len total = 0;
  bool any_option = false, all_lists = true, all_records = true, all_numeric = true;
  int nonempty = 0;
  for (int j = 0; j < k; j++) {
    const jg_array *x = xs[j];
    JG_RETURN_IF_AT(jgi_add_overflow(total, x->length, &total), JG_EOVERFLOW, err, j,
                    "the lengths overflow");
    if (x->kind == JG_NODE_EMPTY) continue;
    nonempty++;
    const jg_node_kind kk = x->kind;
    any_option = any_option || jgi_node_is_option(kk);
    all_lists = all_lists && (jgi_node_is_list(kk) || kk == JG_NODE_REGULAR);
    all_records = all_records && kk == JG_NODE_RECORD;
    all_numeric = all_numeric && kk == JG_NODE_NUMERIC;
  }
  if (nonempty == 0) return jgi_op_empty(c, out, err);
  if (nonempty < k) {
    /* Empty arrays (type unknown) join with anything: leave them out. */
    const jg_array **rest = calloc((size_t)nonempty, sizeof *rest);
    JG_RETURN_IF(rest == NULL, JG_ENOMEM, err, "out of memory");
    int m = 0;
    for (int j = 0; j < k; j++) {
      if (xs[j]->kind != JG_NODE_EMPTY) rest[m++] = xs[j];
    }
    const jg_status st = join0(c, m, rest, depth + 1, out, err);
    free(rest);
    return st;
  }
  if (any_option) return join_options(c, k, xs, total, depth, out, err);
  if (all_numeric) return join_numeric(c, k, xs, total, out, err);
  if (all_lists) return join_lists(c, k, xs, total, depth, out, err);
  if (all_records) return join_records(c, k, xs, total, depth, out, err);
  return jg_error_set(err, JG_ESHAPE, -1,
                      "cannot join %s and %s contents (the arrays' types differ)",
                      jgi_array_node_name(xs[0]->kind), jgi_array_node_name(xs[k - 1]->kind));
}

static jg_status concat1(jgi_op_ctx *c, int k, const jg_array *const *xs, jg_array **out,
                         jg_error *err) {
  jg_len n = 1;
  int jn = 0; /* the first array whose length is not 1 (broadcast) gives n */
  for (int j = k - 1; j >= 0; j--) {
    if (xs[j]->length != 1) {
      n = xs[j]->length;
      jn = j;
    }
  }
  for (int j = 0; j < k; j++) {
    const jg_array *x = xs[j];
    if (list_below(x) == NULL) {
      char type[128];
      if (jg_array_type_string(x, type, sizeof type, NULL, NULL) != JG_OK) type[0] = '\0';
      return jg_error_set(err, JG_ESHAPE, j,
                          "axis 1 needs lists in every array; array %d has type %s", j, type);
    }
    JG_RETURN_IF_AT(x->length != n && x->length != 1, JG_ESHAPE, err, j,
                    "array %d has %lld lists, array %d has %lld", j, (long long)x->length, jn,
                    (long long)n);
  }
  jg_len kn = 0;
  JG_RETURN_IF(jgi_mul_overflow((jg_len)k, n, &kn), JG_EOVERFLOW, err, "sizes overflow");
  jg_view sm, em, cnt, off, base_v, idx;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, kn, JG_DTYPE_INT64, &sm, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, kn, JG_DTYPE_INT64, &em, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &cnt, err));
  int64_t *base = calloc((size_t)k, sizeof *base);
  const jg_array **contents = calloc((size_t)k, sizeof *contents);
  jg_status st = (base == NULL || contents == NULL)
                     ? jg_error_set(err, JG_ENOMEM, -1, "out of memory")
                     : JG_OK;
  int64_t b = 0;
  for (int j = 0; j < k && st == JG_OK; j++) {
    lists L;
    st = get_lists(c, xs[j], 0, false, &L, err);
    if (st != JG_OK) break;
    contents[j] = L.content;
    base[j] = b;
    b += L.content->length;
    if (n == 0) continue;
    const jg_kernel_arg args[14] = {
        jg_arg_i64(n),          jg_arg_i64(L.n),      jg_arg_i64(L.content->length),
        jg_arg_i64(L.n == n ? 0 : 2), jgi_op_out_arg(&L.starts), jgi_op_out_arg(&L.stops),
        arg_none(c, JG_DTYPE_INT64), jg_arg_i64(0),   jg_arg_i64(0),
        jg_arg_i64(j > 0 ? 1 : 0), jg_arg_i64(0),    sub_arg(&sm, (jg_len)j * n, n),
        sub_arg(&em, (jg_len)j * n, n), jgi_op_out_arg(&cnt)};
    st = jg_kernel_call(&jgi_kernel_list_carry, args, 14, &c->launch, err);
  }
  int64_t total = 0;
  if (st == JG_OK && n == 0) {
    const jg_kernel_arg fa[3] = {jg_arg_i64(0), jg_arg_i64(0), jgi_op_out_arg(&cnt)};
    st = jg_kernel_call(&jgi_kernel_fill, fa, 3, &c->launch, err);
  }
  if (st == JG_OK) st = jgi_op_counts_to_offsets(c, &cnt, n, &off, &total, err);
  if (st == JG_OK) st = upload_i64(c, base, k, &base_v, err);
  if (st == JG_OK) st = jgi_op_alloc(c, total, JG_DTYPE_INT64, &idx, err);
  if (st == JG_OK) {
    const jg_kernel_arg args[8] = {jg_arg_i64(n),          jg_arg_i64(k),
                                   jgi_op_out_arg(&sm),    jgi_op_out_arg(&em),
                                   jgi_op_out_arg(&base_v), jgi_op_out_arg(&off),
                                   jg_arg_i64(total),      jgi_op_out_arg(&idx)};
    st = jg_kernel_call(&jgi_kernel_list_concat_index, args, 8, &c->launch, err);
  }
  jg_array *joined = NULL, *content = NULL;
  if (st == JG_OK) st = join0(c, k, contents, 0, &joined, err);
  if (st == JG_OK) st = require_1d(joined, err);
  if (st == JG_OK) st = carry(c, joined, &idx, total, 0, &content, err);
  if (st == JG_OK) st = jg_array_list_offset(&off, content, out, err);
  jg_array_release(joined);
  jg_array_release(content);
  free(base);
  free(contents);
  return st;
}

jg_status jg_array_concatenate(int narrays, const jg_array *const *arrays, int64_t axis,
                               jg_stream stream, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_concatenate";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(narrays < 1 || arrays == NULL, JG_EINVAL, err,
               "%s: needs at least one array (narrays %d)", fn, narrays);
  for (int j = 0; j < narrays; j++) {
    JG_RETURN_IF_AT(arrays[j] == NULL, JG_EINVAL, err, j, "%s: array %d is NULL", fn, j);
    if (j > 0) {
      char what[32];
      snprintf(what, sizeof what, "array %d", j);
      const jg_status st = jg_array_check_same_backend(arrays[0], "array 0", arrays[j], what, err);
      if (st != JG_OK) {
        if (err != NULL) err->index = j;
        return jgi_error_prefix(st, fn, err);
      }
    }
  }
  JG_RETURN_IF(axis != 0 && axis != 1, JG_ENOTSUP, err,
               "%s: axis %lld: only 0 and 1 are supported in this version", fn, (long long)axis);
  RUN_OP(fn, arrays[0], stream,
         axis == 0 ? join0(&c, narrays, arrays, 0, &res, err)
                   : concat1(&c, narrays, arrays, &res, err));
}

/* ------------------------------------------------------------------------------------------ */
/* argsort, sort                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* The longest of n int64 counts (0 when n is 0). */
static jg_status max_count(jgi_op_ctx *c, const jg_view *counts, jg_len n, int64_t *out,
                           jg_error *err) {
  *out = 0;
  if (n == 0) return JG_OK;
  if (c->backend == JG_BACKEND_CPU) {
    const int64_t *k = jg_view_data(counts);
    int64_t m = 0;
    for (jg_len i = 0; i < n; i++) m = k[i] > m ? k[i] : m;
    *out = m;
    return JG_OK;
  }
  const int64_t se[2] = {0, n};
  jg_view s, e, mx, valid;
  JG_RETURN_NOT_OK(upload_i64(c, se, 1, &s, err));
  JG_RETURN_NOT_OK(upload_i64(c, se + 1, 1, &e, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, 1, JG_DTYPE_INT64, &mx, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, 1, JG_DTYPE_BOOL, &valid, err));
  const jg_kernel_arg args[8] = {jg_arg_i64(1),           jgi_op_out_arg(&s),
                                 jgi_op_out_arg(&e),      jg_arg_i64(n),
                                 jgi_op_out_arg(counts),  jg_arg_i64(1),
                                 jgi_op_out_arg(&mx),     jgi_op_out_arg(&valid)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_minmax, args, 8, &c->launch, err));
  return read_i64(c, &mx, 0, out, err);
}

/* Sorts the lists of `list` (content: numbers, or an option over numbers). */
static jg_status sort_lists(jgi_op_ctx *c, const jg_array *list, bool ascending, bool arg,
                            jg_array **out, jg_error *err) {
  const jg_array *C = list->children[0];
  const bool opt = jgi_node_is_option(C->kind);
  const jg_array *leaf = opt ? C->children[0] : C;
  if (leaf->kind == JG_NODE_EMPTY) {
    /* Lists of nothing (every list empty), or of None only (an option over an empty node, as
     * the builder makes for nulls alone): no value is read. */
  } else {
    JG_RETURN_IF(leaf->kind != JG_NODE_NUMERIC, JG_ENOTSUP, err,
                 "sorting lists of %s nodes is not supported in this version (sort numbers, "
                 "one field at a time)",
                 jgi_array_node_name(leaf->kind));
    JG_RETURN_NOT_OK(require_1d(leaf, err));
    JG_RETURN_IF(!kernel_dtype(leaf->buffers[0].dtype), JG_EDTYPE, err, "cannot sort %s values",
                 jg_dtype_name(leaf->buffers[0].dtype));
  }
  lists L;
  jg_view off, p0, p1, optidx;
  int64_t total = 0, longest = 0;
  JG_RETURN_NOT_OK(get_lists(c, list, 0, false, &L, err));
  JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &L.counts, L.n, &off, &total, err));
  JG_RETURN_NOT_OK(max_count(c, &L.counts, L.n, &longest, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &p0, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, total, JG_DTYPE_INT64, &p1, err));
  const jg_kernel_arg la[4] = {jg_arg_i64(L.n), jg_arg_i64(total), jgi_op_out_arg(&off),
                               jgi_op_out_arg(&p0)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_local_index, la, 4, &c->launch, err));
  jg_kernel_arg data = jg_arg_array(NULL, 0, JG_DTYPE_FLOAT64, c->device);
  jg_kernel_arg oi = arg_none(c, JG_DTYPE_INT64);
  if (leaf->kind == JG_NODE_NUMERIC) {
    JG_RETURN_NOT_OK(jgi_op_view_arg(c, &leaf->buffers[0], 0, leaf->length, &data, err));
  }
  if (opt) {
    JG_RETURN_NOT_OK(option_index(c, C, 0, false, &optidx, NULL, err));
    oi = jgi_op_out_arg(&optidx);
  }
  jg_view *in = &p0, *res = &p1;
  for (int64_t width = 1;; width *= 2) {
    const bool last = width * 2 >= longest || width > INT64_MAX / 4;
    const jg_kernel_arg args[12] = {
        jg_arg_i64(L.n),          jgi_op_out_arg(&L.starts), jgi_op_out_arg(&off),
        jg_arg_i64(total),        jg_arg_i64(width),         data,
        jg_arg_i64(opt ? 1 : 0),  oi,                        jg_arg_i64(ascending ? 0 : 1),
        jg_arg_i64(last && !arg ? 1 : 0), jgi_op_out_arg(in), jgi_op_out_arg(res)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_list_merge_pass, args, 12, &c->launch, err));
    jg_view *t = in;
    in = res;
    res = t;
    if (last) break;
  }
  /* `in` holds the result: local positions (argsort) or positions into C (sort). */
  jg_array *content = NULL;
  if (arg) {
    JG_RETURN_NOT_OK(jg_array_numeric(in, &content, err));
  } else {
    JG_RETURN_NOT_OK(carry(c, C, in, total, 0, &content, err));
  }
  const jg_status st = jg_array_list_offset(&off, content, out, err);
  jg_array_release(content);
  return st;
}

static jg_status sort_at(jgi_op_ctx *c, const jg_array *a, bool ascending, bool arg, int depth,
                         jg_array **out, jg_error *err) {
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err, "nesting deeper than %d levels", MAX_DEPTH);
  const bool is_list = jgi_node_is_list(a->kind) || a->kind == JG_NODE_REGULAR;
  if (is_list) {
    const jg_array *ch = a->children[0];
    const jg_array *below = jgi_node_is_option(ch->kind) ? ch->children[0] : ch;
    if (!(jgi_node_is_list(below->kind) || below->kind == JG_NODE_REGULAR)) {
      return sort_lists(c, a, ascending, arg, out, err);
    }
  }
  if (jgi_node_has_one_content(a->kind)) {
    jg_array *inner = NULL;
    JG_RETURN_NOT_OK(sort_at(c, a->children[0], ascending, arg, depth + 1, &inner, err));
    return remake(a, inner, out, err);
  }
  if (a->kind == JG_NODE_RECORD) {
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "sorting records is not supported in this version (sort one field)");
  }
  char type[128];
  if (jg_array_type_string(a, type, sizeof type, NULL, NULL) != JG_OK) type[0] = '\0';
  return jg_error_set(err, JG_ESHAPE, -1, "sorting along axis -1 needs lists; found %s", type);
}

/* Whether `a` has a list level below the options on top of it. */
static bool has_list_level(const jg_array *a) {
  while (jgi_node_is_option(a->kind)) a = a->children[0];
  return jgi_node_is_list(a->kind) || a->kind == JG_NODE_REGULAR;
}

/* Sorts an array with no list level (numbers, None among them, or no entries at all: 0 *
 * unknown) as one list, as Awkward sorts a 1-D array at axis -1. */
static jg_status sort_flat(jgi_op_ctx *c, const jg_array *a, bool ascending, bool arg,
                           jg_array **out, jg_error *err) {
  const int64_t bounds[2] = {0, a->length};
  jg_view off;
  JG_RETURN_NOT_OK(jgi_small_i64(c, bounds, 2, &off, err));
  jg_array *one = NULL, *sorted = NULL;
  JG_RETURN_NOT_OK(jg_array_list_offset(&off, (jg_array *)(uintptr_t)a, &one, err));
  const jg_status st = sort_lists(c, one, ascending, arg, &sorted, err);
  if (st == JG_OK) *out = jg_array_retain(sorted->children[0]);
  jg_array_release(sorted);
  jg_array_release(one);
  return st;
}

static jg_status sort_common(const char *fn, const jg_array *a, int64_t axis, bool ascending,
                             bool stable, bool arg, jg_stream stream, jg_array **out,
                             jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(axis != -1, JG_EINVAL, err, "%s: axis %lld: only -1 (the innermost lists) is "
               "supported", fn, (long long)axis);
  JG_RETURN_IF(!stable, JG_EINVAL, err, "%s: stable must be true (every sort here is stable)",
               fn);
  if (a->kind != JG_NODE_RECORD && !has_list_level(a)) {
    RUN_OP(fn, a, stream, sort_flat(&c, a, ascending, arg, &res, err));
  }
  if (!(jgi_node_has_one_content(a->kind))) {
    char type[128];
    if (jg_array_type_string(a, type, sizeof type, NULL, NULL) != JG_OK) type[0] = '\0';
    return jg_error_set(err, JG_ESHAPE, -1, "%s: sorting along axis -1 needs lists; the array "
                        "has type %s", fn, type);
  }
  RUN_OP(fn, a, stream, sort_at(&c, a, ascending, arg, 0, &res, err));
}

jg_status jg_array_argsort(const jg_array *a, int64_t axis, bool ascending, bool stable,
                           jg_stream stream, jg_array **out, jg_error *err) {
  return sort_common("jg_array_argsort", a, axis, ascending, stable, true, stream, out, err);
}

jg_status jg_array_sort(const jg_array *a, int64_t axis, bool ascending, bool stable,
                        jg_stream stream, jg_array **out, jg_error *err) {
  return sort_common("jg_array_sort", a, axis, ascending, stable, false, stream, out, err);
}
