/* op_ctx.c: the operation context of src/ops (internal/jgi_ops.h): buffers on the array's
 * backend, kernel arguments from views and list nodes, remade nodes, the end of an operation. */
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_cuda.h"
#include "internal/jgi_ops.h"
#include "internal/jgi_transfer.h"
#include "scan/scan.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_offsets_to_counts;

jg_status jgi_op_ctx_init(jgi_op_ctx *c, const char *fn, const jg_array *a, jg_stream stream,
                          jg_error *err) {
  memset(c, 0, sizeof *c);
  c->fn = fn;
  c->device = a->device;
  c->backend = a->backend;
  c->launch.stream = stream;
  if (a->backend == JG_BACKEND_CUDA) {
    /* Results come from the library's pool (no cudaMalloc per call), or from plain device
     * memory on a device without pools. */
    jg_status st = jg_memory_resource_device_pool(a->device.id, &c->mr, err);
    if (st == JG_ENOTSUP) st = jg_memory_resource_device(a->device.id, &c->mr, err);
    return jgi_error_prefix(st, fn, err);
  }
  c->mr = jg_memory_resource_host_pool(); /* large results reuse mapped pages */
  return JG_OK;
}

jg_status jgi_op_sync(const jgi_op_ctx *c, jg_error *err) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  if (c->device.type != JG_DEVICE_CUDA) return JG_OK;
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(c->device.id, &prev, err));
  const jg_status st = jgi_cuda_error(err, cudaStreamSynchronize((cudaStream_t)c->launch.stream),
                                      "cudaStreamSynchronize");
  jgi_cuda_device_pop(prev, c->device.id);
  return st;
#else
  (void)c;
  (void)err;
  return JG_OK;
#endif
}

jg_status jgi_op_ctx_finish(jgi_op_ctx *c, jg_status st, jg_error *err) {
  if (c->mr != NULL) {
    jg_error ignored;
    const jg_status sync = jgi_op_sync(c, st == JG_OK ? err : &ignored);
    if (st == JG_OK) st = sync;
  }
  for (int i = 0; i < c->ntemps; i++) jg_buffer_release(c->temps[i]);
  free(c->temps);
  c->temps = NULL;
  c->ntemps = c->captemps = 0;
  return c->fn != NULL ? jgi_error_prefix_once(st, c->fn, err) : st;
}

jg_status jgi_op_alloc(jgi_op_ctx *c, jg_len n, jg_dtype dtype, jg_view *out, jg_error *err) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  int64_t bytes = 0;
  JG_RETURN_IF(n < 0, JG_EINTERNAL, err, "negative length %lld", (long long)n);
  JG_RETURN_IF(jgi_mul_overflow(n, isz, &bytes), JG_EOVERFLOW, err,
               "%lld elements of %s overflow the size type", (long long)n, jg_dtype_name(dtype));
  if (c->ntemps == c->captemps) {
    const int cap = c->captemps == 0 ? 8 : 2 * c->captemps;
    jg_buffer **t = realloc(c->temps, (size_t)cap * sizeof *t);
    JG_RETURN_IF(t == NULL, JG_ENOMEM, err, "out of memory");
    c->temps = t;
    c->captemps = cap;
  }
  jg_buffer *b = NULL;
  /* Allocated in the order of c's stream; freed on the legacy default stream, since the result
   * may outlive c's stream (the operation synchronises c's stream before it returns). */
  JG_RETURN_NOT_OK(jg_buffer_allocate(c->mr, (size_t)bytes, c->launch.stream, &b, err));
  c->temps[c->ntemps++] = b;
  if (c->launch.stream != NULL) JG_RETURN_NOT_OK(jg_buffer_set_deallocation_stream(b, NULL, err));
  jg_layout l;
  JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &n, NULL, isz, err));
  return jg_view_from_buffer(out, b, &l, dtype, false, err);
}

jg_status jgi_op_view_arg(jgi_op_ctx *c, const jg_view *v, jg_len first, jg_len count,
                          jg_kernel_arg *arg, jg_error *err) {
  if (count == 0) {
    *arg = jg_arg_array(NULL, 0, v->dtype, c->device);
    return JG_OK;
  }
  if (count == 1 || v->layout.strides[0] == 1) {
    char *p = (char *)v->base +
              v->layout.itemsize * (v->layout.slice_offset + first * v->layout.strides[0]);
    *arg = jg_arg_array(p, count, v->dtype, v->device);
    return JG_OK;
  }
  const jg_slice s = JG_SLICE(first, first + count, 1);
  jg_view src, dst;
  JG_RETURN_NOT_OK(jg_view_slice(&src, v, 1, &s, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, count, v->dtype, &dst, err));
  JG_RETURN_NOT_OK(jg_copy_async(&dst, &src, c->launch.stream, err));
  *arg = jg_arg_array(jg_view_data(&dst), count, v->dtype, dst.device);
  return JG_OK;
}

jg_kernel_arg jgi_op_out_arg(const jg_view *v) {
  return jg_arg_array(jg_view_data(v), v->layout.shape[0], v->dtype, v->device);
}

jg_status jgi_op_list_args(jgi_op_ctx *c, const jg_array *list, jg_kernel_arg *starts,
                           jg_kernel_arg *stops, jg_error *err) {
  const jg_len n = list->length;
  if (list->kind == JG_NODE_LIST_OFFSET) {
    const jg_view *ov = &list->buffers[0];
    JG_RETURN_NOT_OK(jgi_op_view_arg(c, ov, 0, n == 0 ? 0 : n + 1, starts, err));
    *stops = *starts;
    if (n > 0) stops->v.array.data = (char *)starts->v.array.data + ov->layout.itemsize;
    starts->v.array.length = stops->v.array.length = n;
    return JG_OK;
  }
  JG_RETURN_IF(list->kind != JG_NODE_LIST, JG_EINTERNAL, err, "%s node is not a list",
               jgi_array_node_name(list->kind));
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, &list->buffers[0], 0, n, starts, err));
  return jgi_op_view_arg(c, &list->buffers[1], 0, n, stops, err);
}

jg_status jgi_op_remake(const jg_array *a, jg_array *child, jg_array **out, jg_error *err) {
  jg_array *c = NULL;
  JG_RETURN_NOT_OK(jgi_array_new(a->kind, 1, &c, err));
  c->length = a->length;
  c->device = a->device;
  c->backend = a->backend;
  c->regular_size = a->regular_size;
  c->bit_offset = a->bit_offset;
  c->valid_when = a->valid_when;
  c->lsb_order = a->lsb_order;
  for (int k = 0; k < a->nbuffers; k++) jgi_array_set_buffer(c, k, &a->buffers[k]);
  jgi_array_set_child(c, 0, child);
  const jg_status st = jgi_array_finish(c, err);
  if (st != JG_OK) {
    jg_array_release(c);
    return st;
  }
  *out = c;
  return JG_OK;
}

jg_status jgi_op_read_ints(jgi_op_ctx *c, const void *data, jg_dtype dtype, const jg_len *idx,
                           int count, int64_t *out, const char *what, jg_error *err) {
  JG_RETURN_IF(count < 1 || count > 8, JG_EINVAL, err, "cannot read %d values at once", count);
  const int64_t isz = jg_dtype_itemsize(dtype);
  if (c->backend != JG_BACKEND_CUDA) {
    for (int k = 0; k < count; k++) out[k] = jgi_index_at((const char *)data + isz * idx[k], dtype);
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int64_t raw[8];
  memset(raw, 0, sizeof raw);
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(c->device.id, &prev, err));
  jg_status st = JG_OK;
  for (int k = 0; k < count && st == JG_OK; k++) {
    st = jgi_cuda_error(err,
                        cudaMemcpyAsync(&raw[k], (const char *)data + isz * idx[k], (size_t)isz,
                                        cudaMemcpyDeviceToHost, (cudaStream_t)c->launch.stream),
                        "cudaMemcpyAsync (reading a value back)");
    if (st == JG_OK) jgi_transfer_record(JG_TRANSFER_TO_HOST, (uint64_t)isz, what);
  }
  /* Wait even after an error: an earlier copy may still be writing into raw. */
  const jg_status sync = jgi_cuda_error(err, cudaStreamSynchronize((cudaStream_t)c->launch.stream),
                                        "cudaStreamSynchronize");
  jgi_cuda_device_pop(prev, c->device.id);
  if (st == JG_OK) st = sync;
  JG_RETURN_NOT_OK(st);
  for (int k = 0; k < count; k++) out[k] = jgi_index_at(&raw[k], dtype);
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "a cuda array in a build without CUDA");
#endif
}

jg_status jgi_op_counts_to_offsets(jgi_op_ctx *c, const jg_view *counts, jg_len n, jg_view *offsets,
                                   int64_t *total, jg_error *err) {
  JG_RETURN_IF(n < 0 || n == INT64_MAX, JG_EOVERFLOW, err, "%lld lists overflow a size",
               (long long)n);
  JG_RETURN_IF(n > 0 && (counts->dtype != JG_DTYPE_INT64 || counts->layout.shape[0] < n),
               JG_EINTERNAL, err, "counts must be %lld int64 values", (long long)n);
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n + 1, JG_DTYPE_INT64, offsets, err));
  int64_t *o = jg_view_data(offsets);
  const int64_t *k = n > 0 ? jg_view_data(counts) : NULL;
  if (c->backend != JG_BACKEND_CUDA) {
    int64_t sum = 0;
    o[0] = 0;
    for (jg_len i = 0; i < n; i++) {
      JG_RETURN_IF_AT(k[i] < 0, JG_EVALUE, err, i, "count %lld is negative", (long long)i);
      JG_RETURN_IF_AT(jgi_add_overflow(sum, k[i], &sum), JG_EOVERFLOW, err, i,
                      "the sum of counts[0..%lld] overflows int64", (long long)i);
      o[i + 1] = sum;
    }
    *total = sum;
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  /* One scratch buffer: the status words, then CUB's storage at the next 256 bytes. */
  const size_t head = 256;
  size_t temp_bytes = 0;
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(c->device.id, &prev, err));
  jg_status st = jgi_counts_to_offsets_cuda(k, 1, JG_DTYPE_INT64, n, INT64_MAX, o, NULL, NULL,
                                            &temp_bytes, c->launch.stream, err);
  if (st == JG_OK && temp_bytes > (size_t)INT64_MAX - head) {
    st = jg_error_set(err, JG_EOVERFLOW, -1, "temporary size overflows");
  }
  jg_view scratch;
  if (st == JG_OK) st = jgi_op_alloc(c, (jg_len)(head + temp_bytes), JG_DTYPE_UINT8, &scratch, err);
  jgi_scan_status h_status;
  int64_t sum = 0;
  if (st == JG_OK) {
    char *base = jg_view_data(&scratch);
    jgi_scan_status *d_status = (jgi_scan_status *)(void *)base;
    cudaStream_t s = (cudaStream_t)c->launch.stream;
    st = jgi_counts_to_offsets_cuda(k, 1, JG_DTYPE_INT64, n, INT64_MAX, o, d_status, base + head,
                                    &temp_bytes, c->launch.stream, err);
    if (st == JG_OK) {
      st = jgi_cuda_error(
          err, cudaMemcpyAsync(&h_status, d_status, sizeof h_status, cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync (scan status)");
    }
    if (st == JG_OK) {
      st = jgi_cuda_error(err, cudaMemcpyAsync(&sum, o + n, sizeof sum, cudaMemcpyDeviceToHost, s),
                          "cudaMemcpyAsync (total)");
    }
    /* Wait even after an error: a copy may still be writing into h_status or sum. */
    const jg_status sync = jgi_cuda_error(err, cudaStreamSynchronize(s), "cudaStreamSynchronize");
    if (st == JG_OK) st = sync;
  }
  jgi_cuda_device_pop(prev, c->device.id);
  JG_RETURN_NOT_OK(st);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, sizeof h_status + sizeof sum,
                      "counts to offsets: the scan's status and total");
  JG_RETURN_IF_AT(h_status.first_negative != UINT64_MAX, JG_EVALUE, err,
                  (int64_t)h_status.first_negative, "count %llu is negative",
                  h_status.first_negative);
  JG_RETURN_IF_AT(h_status.first_overflow != UINT64_MAX, JG_EOVERFLOW, err,
                  (int64_t)h_status.first_overflow, "the sum of counts[0..%llu] overflows int64",
                  h_status.first_overflow);
  *total = sum;
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "a cuda array in a build without CUDA");
#endif
}

jg_dtype jgi_op_raw_dtype(int64_t itemsize) {
  switch (itemsize) {
    case 1:
      return JG_DTYPE_UINT8;
    case 2:
      return JG_DTYPE_UINT16;
    case 4:
      return JG_DTYPE_UINT32;
    case 8:
      return JG_DTYPE_UINT64;
    default:
      return JG_DTYPE_INVALID;
  }
}

jg_status jgi_op_offsets_range(jgi_op_ctx *c, const jg_array *list, jg_len lo, jg_len n,
                               int64_t *first, int64_t *last, jg_kernel_arg *dense,
                               jg_error *err) {
  const jg_view *ov = &list->buffers[0];
  const int64_t m = list->children[0]->length;
  jg_kernel_arg arg;
  *first = *last = 0;
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, ov, lo, n + 1, &arg, err));
  if (dense != NULL) *dense = arg;
  if (n == 0) return JG_OK;
  /* A decrease anywhere: the kernel's DECREASING names the first list. */
  jg_view counts;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, &counts, err));
  const jg_kernel_arg cargs[3] = {jg_arg_i64(n), arg, jgi_op_out_arg(&counts)};
  jg_error e;
  const jg_status st = jg_kernel_call(&jgi_kernel_offsets_to_counts, cargs, 3, &c->launch, &e);
  if (st == JG_EVALUE && e.index >= 0) {
    return jg_error_set(err, JG_EVALUE, lo + e.index, "%s: offsets decrease at list %lld", c->fn,
                        (long long)(lo + e.index));
  }
  if (st != JG_OK) {
    if (err != NULL) *err = e;
    return st;
  }
  const jg_len ends[2] = {0, n};
  int64_t v[2] = {0, 0};
  JG_RETURN_NOT_OK(
      jgi_op_read_ints(c, arg.v.array.data, ov->dtype, ends, 2, v, "first and last offset", err));
  if (v[1] == v[0]) return JG_OK; /* empty lists only: no data, wherever they start */
  JG_RETURN_IF_AT(v[0] < 0 || v[1] > m, JG_EVALUE, err, v[0] < 0 ? lo : lo + n - 1,
                  "%s: lists %lld..%lld cover [%lld, %lld), outside the content of %lld entries",
                  c->fn, (long long)lo, (long long)(lo + n - 1), (long long)v[0],
                  (long long)v[1], (long long)m);
  *first = v[0];
  *last = v[1];
  return JG_OK;
}

extern JGI_HIDDEN const jg_kernel jgi_kernel_option_index;

jg_status jgi_op_option_index(jgi_op_ctx *c, const jg_array *opt, int64_t shift, bool negate,
                              jg_view *idx, jg_view *flags, jg_error *err) {
  const jg_len n = opt->length;
  int64_t kind = 4;
  jg_kernel_arg mask = jg_arg_array(NULL, 0, JG_DTYPE_BOOL, c->device);
  switch (opt->kind) {
    case JG_NODE_BYTE_MASKED:
      kind = 0;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, &opt->buffers[0], 0, n, &mask, err));
      break;
    case JG_NODE_BIT_MASKED: {
      kind = opt->lsb_order ? 1 : 2;
      const jg_len bytes = (opt->bit_offset + n + 7) / 8;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, &opt->buffers[0], 0, n == 0 ? 0 : bytes, &mask, err));
      break;
    }
    case JG_NODE_INDEXED_OPTION:
      kind = 3;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, &opt->buffers[0], 0, n, &mask, err));
      break;
    default:
      break;
  }
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_INT64, idx, err));
  jg_view fl;
  if (flags == NULL) flags = &fl;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_BOOL, flags, err));
  const jg_len m = kind == 3 ? opt->children[0]->length : 0;
  const jg_kernel_arg args[10] = {jg_arg_i64(n),
                                 jg_arg_i64(kind),
                                 jg_arg_i64(opt->valid_when ? 1 : 0),
                                 jg_arg_i64(opt->bit_offset),
                                 jg_arg_i64(shift),
                                 jg_arg_i64(negate ? 1 : 0),
                                 jg_arg_i64(m),
                                 mask,
                                 jgi_op_out_arg(idx),
                                 jgi_op_out_arg(flags)};
  return jg_kernel_call(&jgi_kernel_option_index, args, 10, &c->launch, err);
}

jg_status jgi_op_empty(const jgi_op_ctx *c, jg_array **out, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_array_new(JG_NODE_EMPTY, 0, out, err));
  (*out)->device = c->device;
  (*out)->backend = c->backend;
  return JG_OK;
}
