/* carry.c: carrying an int64 index down a layout tree, and the list-level steps of the indexing
 * operations (internal/jgi_carry.h). Kernels: take, list_range, range_carry (catalog) and the
 * internal counts-to-offsets scan (src/kernels/scan). */
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_carry.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_transfer.h"
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include "kernels/scan/scan.h"
#endif

extern JGI_HIDDEN const jg_kernel jgi_kernel_take;
extern JGI_HIDDEN const jg_kernel jgi_kernel_list_range;
extern JGI_HIDDEN const jg_kernel jgi_kernel_range_carry;

/* An empty array argument of `dtype` (for parameters a mode leaves unread). */
static jg_kernel_arg none_arg(const jgi_op_ctx *c, jg_dtype dtype) {
  return jg_arg_array(NULL, 0, dtype, c->device);
}


/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                               */
/* ------------------------------------------------------------------------------------------ */

jg_status jgi_small_i64(jgi_op_ctx *c, const int64_t *values, jg_len n, jg_view *out,
                        jg_error *err) {
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, out, err));
  if (n == 0) return JG_OK;
  if (c->backend == JG_BACKEND_CPU) {
    memcpy(jg_view_data(out), values, (size_t)n * sizeof *values);
    return JG_OK;
  }
  jg_layout l;
  jg_view src;
  const jg_device host = JG_DEVICE_HOST_INIT;
  JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &n, NULL, 8, err));
  JG_RETURN_NOT_OK(
      jg_view_from_pointer(&src, (void *)(uintptr_t)values, host, &l, JG_DTYPE_INT64, true, err));
  /* From pageable memory: blocking (view.h), so `values` may go right after. */
  return jg_copy_async(out, &src, c->launch.stream, err);
}

jg_status jgi_read_at(jgi_op_ctx *c, jg_kernel_arg a, jg_len i, int64_t *value, jg_error *err) {
  const int64_t isz = jg_dtype_itemsize(a.dtype);
  JG_RETURN_IF(i < 0 || i >= a.v.array.length || isz < 1 || isz > 8, JG_EINTERNAL, err,
               "reading element %lld of %lld", (long long)i, (long long)a.v.array.length);
  return jgi_op_read_ints(c, a.v.array.data, a.dtype, &i, 1, value, "carry: a value", err);
}

jg_status jgi_make_list(const jg_view *offsets, jg_array *content, const jg_view *valid,
                        jg_array **out, jg_error *err) {
  jg_array *list = NULL;
  JG_RETURN_NOT_OK(jg_array_list_offset(offsets, content, &list, err));
  if (valid == NULL) {
    *out = list;
    return JG_OK;
  }
  const jg_status st = jg_array_byte_masked(valid, true, list, out, err);
  jg_array_release(list);
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Counts to offsets                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------------------------ */
/* List levels                                                                                 */
/* ------------------------------------------------------------------------------------------ */

static bool is_list_like(jg_node_kind k) {
  return k == JG_NODE_LIST_OFFSET || k == JG_NODE_LIST || k == JG_NODE_REGULAR;
}

bool jgi_is_list_level(const jg_array *node) {
  if (jgi_node_is_option(node->kind)) node = node->children[0];
  return is_list_like(node->kind);
}

/* Gathers index[carry] of a 1-D integer view (its first `len` entries) into a new view of the
 * same dtype. */
static jg_status take_view(jgi_op_ctx *c, const jg_view *src, jg_len len, jg_kernel_arg carry,
                           jg_view *out, jg_error *err) {
  const jg_len n = carry.v.array.length;
  const jg_dtype raw = jgi_op_raw_dtype(jg_dtype_itemsize(src->dtype));
  JG_RETURN_IF(raw == JG_DTYPE_INVALID, JG_EDTYPE, err, "cannot gather %s values",
               jg_dtype_name(src->dtype));
  jg_kernel_arg data;
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, src, 0, len, &data, err));
  data.dtype = raw;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, src->dtype, out, err));
  jg_kernel_arg o = jgi_op_out_arg(out);
  o.dtype = raw;
  const jg_kernel_arg args[5] = {jg_arg_i64(n), jg_arg_i64(len), data, carry, o};
  return jg_kernel_call(&jgi_kernel_take, args, 5, &c->launch, err);
}

/* One call of list_range into fresh views of n entries. */
static jg_status run_list_range(jgi_op_ctx *c, jg_len n, jg_len nlists, jg_len m,
                                jg_len regular_size, jg_kernel_arg starts, jg_kernel_arg stops,
                                const jg_kernel_arg *carry, int64_t mask_mode, jg_kernel_arg mask,
                                const jg_kernel_arg *gate, jgi_ranges *r, jg_error *err) {
  memset(r, 0, sizeof *r);
  r->n = n;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &r->start, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &r->count, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_BOOL, &r->valid, err));
  const jg_kernel_arg args[15] = {jg_arg_i64(n),
                                  jg_arg_i64(nlists),
                                  jg_arg_i64(m),
                                  jg_arg_i64(regular_size),
                                  starts,
                                  stops,
                                  jg_arg_i64(carry != NULL),
                                  carry != NULL ? *carry : none_arg(c, JG_DTYPE_INT64),
                                  jg_arg_i64(mask_mode),
                                  mask,
                                  jg_arg_i64(gate != NULL),
                                  gate != NULL ? *gate : none_arg(c, JG_DTYPE_BOOL),
                                  jgi_op_out_arg(&r->start),
                                  jgi_op_out_arg(&r->count),
                                  jgi_op_out_arg(&r->valid)};
  return jg_kernel_call(&jgi_kernel_list_range, args, 15, &c->launch, err);
}

jg_status jgi_level_ranges(jgi_op_ctx *c, const jg_array *node, const jg_kernel_arg *carry,
                           jg_len n, const jg_kernel_arg *gate, jgi_ranges *r,
                           const jg_array **list, jg_error *err) {
  const jg_array *opt = NULL, *l = node;
  if (jgi_node_is_option(node->kind)) {
    opt = node;
    l = node->children[0];
  }
  JG_RETURN_IF(!is_list_like(l->kind), JG_ESHAPE, err, "a %s node where a list level is needed",
               jgi_array_node_name(l->kind));
  jg_kernel_arg carg = carry != NULL ? *carry : none_arg(c, JG_DTYPE_INT64);
  bool use_carry = carry != NULL;
  int64_t mask_mode = 0;
  jg_kernel_arg mask = none_arg(c, JG_DTYPE_INT8);
  if (opt != NULL && opt->kind == JG_NODE_BYTE_MASKED) {
    mask_mode = opt->valid_when ? 1 : 2;
    JG_RETURN_NOT_OK(jgi_op_view_arg(c, &opt->buffers[0], 0, opt->length, &mask, err));
    mask.dtype = JG_DTYPE_INT8;
  } else if (opt != NULL) { /* indexed or bit-masked option: positions through its index */
    jg_view bits_index;
    const jg_view *iv = &opt->buffers[0];
    if (opt->kind == JG_NODE_BIT_MASKED) {
      JG_RETURN_NOT_OK(jgi_op_option_index(c, opt, 0, false, &bits_index, NULL, err));
      iv = &bits_index;
    }
    if (carry != NULL) {
      jg_view taken;
      JG_RETURN_NOT_OK(take_view(c, iv, opt->length, *carry, &taken, err));
      carg = jgi_op_out_arg(&taken);
    } else {
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, iv, 0, opt->length, &carg, err));
    }
    use_carry = true;
  }
  jg_kernel_arg starts = none_arg(c, JG_DTYPE_INT64), stops = starts;
  jg_len regular_size = -1;
  if (l->kind == JG_NODE_REGULAR) {
    regular_size = l->regular_size;
  } else {
    JG_RETURN_NOT_OK(jgi_op_list_args(c, l, &starts, &stops, err));
  }
  *list = l;
  JG_RETURN_NOT_OK(run_list_range(c, n, l->length, l->children[0]->length, regular_size, starts,
                                  stops, use_carry ? &carg : NULL, mask_mode, mask, gate, r,
                                  err));
  r->has_option = opt != NULL;
  return JG_OK;
}

jg_status jgi_ranges_expand(jgi_op_ctx *c, const jgi_ranges *r, const jg_view *start,
                            int64_t step, jg_view *offsets, jg_view *positions, jg_len *total,
                            jg_error *err) {
  JG_RETURN_NOT_OK(
      jgi_op_counts_to_offsets(c, &r->count, r->count.layout.shape[0], offsets, total, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, *total, JG_DTYPE_INT64, positions, err));
  const jg_kernel_arg args[6] = {jg_arg_i64(r->n), jg_arg_i64(*total), jgi_op_out_arg(offsets),
                                 jgi_op_out_arg(start != NULL ? start : &r->start),
                                 jg_arg_i64(step), jgi_op_out_arg(positions)};
  return jg_kernel_call(&jgi_kernel_range_carry, args, 6, &c->launch, err);
}

/* ------------------------------------------------------------------------------------------ */
/* The carry                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Positions carry[i] * size + k (k < size) of n regular lists of `size` over m elements. */
static jg_status expand_regular(jgi_op_ctx *c, jg_kernel_arg carry, jg_len nlists, jg_len size,
                                jg_len m, jg_view *positions, jg_len *total, jg_error *err) {
  jgi_ranges r;
  const jg_kernel_arg none = none_arg(c, JG_DTYPE_INT64);
  JG_RETURN_NOT_OK(run_list_range(c, carry.v.array.length, nlists, m, size, none, none, &carry,
                                  0, none_arg(c, JG_DTYPE_INT8), NULL, &r, err));
  jg_view offsets;
  return jgi_ranges_expand(c, &r, NULL, 1, &offsets, positions, total, err);
}

static jg_status carry_numeric(jgi_op_ctx *c, const jg_array *a, jg_kernel_arg carry,
                               jg_array **out, jg_error *err) {
  const jg_view *dv = &a->buffers[0];
  const jg_len n = carry.v.array.length, len = a->length;
  const int ndim = (int)dv->layout.ndim;
  if (ndim == 1) {
    jg_view ov;
    JG_RETURN_NOT_OK(take_view(c, dv, len, carry, &ov, err));
    return jg_array_numeric(&ov, out, err);
  }
  /* N-D: rows of v = shape[1] * ... elements, gathered element by element from a C-ordered
   * copy (or the data itself when it is C-contiguous). */
  jg_len v = 1, shape[JG_MAX_NDIM];
  for (int k = 1; k < ndim; k++) {
    JG_RETURN_IF(jgi_mul_overflow(v, dv->layout.shape[k], &v), JG_EOVERFLOW, err,
                 "row size overflows");
    shape[k] = dv->layout.shape[k];
  }
  shape[0] = n;
  jg_len flat_len = 0, out_len = 0;
  JG_RETURN_IF(jgi_mul_overflow(len, v, &flat_len) || jgi_mul_overflow(n, v, &out_len),
               JG_EOVERFLOW, err, "%lld rows of %lld elements overflow", (long long)len,
               (long long)v);
  const int64_t isz = dv->layout.itemsize;
  const jg_dtype raw = jgi_op_raw_dtype(isz);
  JG_RETURN_IF(raw == JG_DTYPE_INVALID, JG_EDTYPE, err, "cannot gather %s values",
               jg_dtype_name(dv->dtype));
  void *flat = jg_view_data(dv);
  if (!jg_layout_is_contiguous_c(&dv->layout)) {
    jg_view dense1, dense;
    jg_layout l;
    JG_RETURN_NOT_OK(jgi_op_alloc(c, flat_len, dv->dtype, &dense1, err));
    JG_RETURN_NOT_OK(jg_layout_init(&l, ndim, dv->layout.shape, NULL, isz, err));
    JG_RETURN_NOT_OK(jg_view_from_buffer(&dense, dense1.buffer, &l, dv->dtype, false, err));
    JG_RETURN_NOT_OK(jg_copy_async(&dense, dv, c->launch.stream, err));
    flat = jg_view_data(&dense1);
  }
  jg_view positions, ov1, ov;
  jg_len total = 0;
  JG_RETURN_NOT_OK(expand_regular(c, carry, len, v, flat_len, &positions, &total, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, out_len, dv->dtype, &ov1, err));
  const jg_kernel_arg args[5] = {jg_arg_i64(out_len), jg_arg_i64(flat_len),
                                 jg_arg_array(flat_len > 0 ? flat : NULL, flat_len, raw, c->device),
                                 jgi_op_out_arg(&positions),
                                 jg_arg_array(jg_view_data(&ov1), out_len, raw, c->device)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_take, args, 5, &c->launch, err));
  jg_layout l;
  JG_RETURN_NOT_OK(jg_layout_init(&l, ndim, shape, NULL, isz, err));
  JG_RETURN_NOT_OK(jg_view_from_buffer(&ov, ov1.buffer, &l, dv->dtype, false, err));
  return jg_array_numeric(&ov, out, err);
}

static jg_status carry_record(jgi_op_ctx *c, const jg_array *a, jg_kernel_arg carry,
                              jg_array **out, jg_error *err) {
  const int nf = a->nchildren;
  jg_array **fields = calloc(nf > 0 ? (size_t)nf : 1, sizeof *fields);
  JG_RETURN_IF(fields == NULL, JG_ENOMEM, err, "out of memory");
  jg_status st = JG_OK;
  for (int k = 0; st == JG_OK && k < nf; k++) {
    st = jgi_carry(c, a->children[k], carry, &fields[k], err);
  }
  if (st == JG_OK) {
    st = jg_array_record(nf, fields, (const char *const *)a->names, carry.v.array.length, out,
                         err);
  }
  for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
  free(fields);
  return st;
}

jg_status jgi_carry(jgi_op_ctx *c, const jg_array *a, jg_kernel_arg carry, jg_array **out,
                    jg_error *err) {
  *out = NULL;
  const jg_len n = carry.v.array.length;
  switch (a->kind) {
    case JG_NODE_NUMERIC:
      return carry_numeric(c, a, carry, out, err);
    case JG_NODE_EMPTY:
      JG_RETURN_IF(n > 0, JG_EINDEX, err, "cannot take %lld entries of an empty array",
                   (long long)n);
      *out = jg_array_retain((jg_array *)(uintptr_t)a);
      return JG_OK;
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST:
    case JG_NODE_REGULAR: {
      jgi_ranges r;
      const jg_array *l = NULL;
      JG_RETURN_NOT_OK(jgi_level_ranges(c, a, &carry, n, NULL, &r, &l, err));
      jg_view offsets, positions;
      jg_len total = 0;
      JG_RETURN_NOT_OK(jgi_ranges_expand(c, &r, NULL, 1, &offsets, &positions, &total, err));
      jg_array *content = NULL;
      JG_RETURN_NOT_OK(jgi_carry(c, a->children[0], jgi_op_out_arg(&positions), &content, err));
      jg_status st;
      if (a->kind == JG_NODE_REGULAR) {
        st = jg_array_regular(content, a->regular_size, n, out, err);
      } else {
        st = jgi_make_list(&offsets, content, NULL, out, err);
      }
      jg_array_release(content);
      return st;
    }
    case JG_NODE_RECORD:
      return carry_record(c, a, carry, out, err);
    case JG_NODE_BYTE_MASKED: {
      jg_view mask;
      JG_RETURN_NOT_OK(take_view(c, &a->buffers[0], a->length, carry, &mask, err));
      jg_array *content = NULL;
      JG_RETURN_NOT_OK(jgi_carry(c, a->children[0], carry, &content, err));
      const jg_status st = jg_array_byte_masked(&mask, a->valid_when, content, out, err);
      jg_array_release(content);
      return st;
    }
    case JG_NODE_INDEXED_OPTION: {
      jg_view index;
      JG_RETURN_NOT_OK(take_view(c, &a->buffers[0], a->length, carry, &index, err));
      return jg_array_indexed_option(&index, a->children[0], out, err);
    }
    case JG_NODE_BIT_MASKED: { /* carried as the indexed option of its bits */
      jg_view bits_index, index;
      JG_RETURN_NOT_OK(jgi_op_option_index(c, a, 0, false, &bits_index, NULL, err));
      JG_RETURN_NOT_OK(take_view(c, &bits_index, a->length, carry, &index, err));
      return jg_array_indexed_option(&index, a->children[0], out, err);
    }
  }
  return jg_error_set(err, JG_EINTERNAL, -1, "unknown node kind %d", (int)a->kind);
}
