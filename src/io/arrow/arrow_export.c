/* arrow_export.c: jagged arrays to the Arrow C Data Interface and C Device Data Interface
 * (interface in include/jagged/arrow.h; the mapping table is there).
 *
 * Written from the Arrow specifications (docs/source/format/CDataInterface.rst, Columnar.rst,
 * CDeviceDataInterface.rst).
 *
 * Every exported level is one ArrowArray (and ArrowSchema) node with its own private data and
 * release callback; a parent's release releases its children that were not moved out. A level
 * whose buffers point into jagged buffers holds one reference to each; copies are made into new
 * buffers (host resource for cpu arrays, the device resource of the array's GPU for cuda arrays)
 * that the level owns. Every exported level has array.offset 0: windows of a jagged node (a
 * record's fields, a regular node's content, an option's content, numeric rows) are expressed by
 * moving buffer pointers, and validity bitmaps that do not start on a byte boundary are rebuilt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_transfer.h"
#include "io/arrow/arrow_internal.h"
#include "jagged/arrow.h"
#include "jagged/kernel.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_offsets_to_counts;

/** Longest field path kept for messages ("$.muons[].pt"); longer paths are truncated. */
#define PATH_SIZE 256

/* ------------------------------------------------------------------------------------------ */
/* Private data and release callbacks                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct array_private {
  const void *buffers[3];
  jg_buffer *keep[3]; /* references held for buffers[k] (NULL when none) */
  int64_t n_children;
  struct ArrowArray **child_ptrs;
  struct ArrowArray *child_arrays;
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  bool has_event; /* root of a cuda export: `event` is sync_event's target */
  cudaEvent_t event;
#endif
} array_private;

static void array_release(struct ArrowArray *arr) {
  if (arr == NULL || arr->release == NULL) return;
  array_private *p = (array_private *)arr->private_data;
  if (p != NULL) {
    for (int64_t k = 0; k < p->n_children; ++k) {
      struct ArrowArray *c = p->child_ptrs[k];
      if (c != NULL && c->release != NULL) c->release(c);
    }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    if (p->has_event) {
      (void)cudaEventDestroy(p->event);
      (void)cudaGetLastError();
    }
#endif
    for (int k = 0; k < 3; ++k) jg_buffer_release(p->keep[k]);
    free(p->child_arrays);
    free(p->child_ptrs);
    free(p);
  }
  arr->private_data = NULL;
  arr->release = NULL;
}

/* Fills `arr` as a level of `length` entries with `n_buffers` NULL buffers and `n_children`
 * released children, null_count 0, offset 0. */
static jg_status array_init(struct ArrowArray *arr, int64_t length, int64_t n_buffers,
                            int64_t n_children, jg_error *err) {
  memset(arr, 0, sizeof(*arr));
  array_private *p = (array_private *)calloc(1, sizeof(*p));
  JG_RETURN_IF(p == NULL, JG_ENOMEM, err, "out of host memory for an Arrow array");
  if (n_children > 0) {
    p->child_arrays = (struct ArrowArray *)calloc((size_t)n_children, sizeof(struct ArrowArray));
    p->child_ptrs = (struct ArrowArray **)calloc((size_t)n_children, sizeof(struct ArrowArray *));
    if (p->child_arrays == NULL || p->child_ptrs == NULL) {
      free(p->child_arrays);
      free(p->child_ptrs);
      free(p);
      return jg_error_set(err, JG_ENOMEM, -1, "out of host memory for %lld Arrow children",
                          (long long)n_children);
    }
    for (int64_t k = 0; k < n_children; ++k) p->child_ptrs[k] = &p->child_arrays[k];
  }
  p->n_children = n_children;
  arr->length = length;
  arr->null_count = 0;
  arr->offset = 0;
  arr->n_buffers = n_buffers;
  arr->n_children = n_children;
  arr->buffers = p->buffers;
  arr->children = n_children > 0 ? p->child_ptrs : NULL;
  arr->dictionary = NULL;
  arr->release = array_release;
  arr->private_data = p;
  return JG_OK;
}

/* Points buffer k of `arr` at `ptr`, holding a reference to `keep` (may be NULL). */
static void array_set_buffer(struct ArrowArray *arr, int k, const void *ptr, jg_buffer *keep) {
  array_private *p = (array_private *)arr->private_data;
  p->buffers[k] = ptr;
  jg_buffer_release(p->keep[k]);
  p->keep[k] = jg_buffer_retain(keep);
}

typedef struct schema_private {
  char *format;
  char *name;
  int64_t n_children;
  struct ArrowSchema **child_ptrs;
  struct ArrowSchema *child_schemas;
} schema_private;

static void schema_release(struct ArrowSchema *s) {
  if (s == NULL || s->release == NULL) return;
  schema_private *p = (schema_private *)s->private_data;
  if (p != NULL) {
    for (int64_t k = 0; k < p->n_children; ++k) {
      struct ArrowSchema *c = p->child_ptrs[k];
      if (c != NULL && c->release != NULL) c->release(c);
    }
    free(p->format);
    free(p->name);
    free(p->child_schemas);
    free(p->child_ptrs);
    free(p);
  }
  s->private_data = NULL;
  s->release = NULL;
}

static char *dup_string(const char *s) {
  const size_t n = strlen(s) + 1;
  char *d = (char *)malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

static jg_status schema_init(struct ArrowSchema *s, const char *format, const char *name,
                             int64_t flags, int64_t n_children, jg_error *err) {
  memset(s, 0, sizeof(*s));
  schema_private *p = (schema_private *)calloc(1, sizeof(*p));
  JG_RETURN_IF(p == NULL, JG_ENOMEM, err, "out of host memory for an Arrow schema");
  p->format = dup_string(format);
  p->name = dup_string(name);
  if (n_children > 0) {
    p->child_schemas = (struct ArrowSchema *)calloc((size_t)n_children, sizeof(struct ArrowSchema));
    p->child_ptrs = (struct ArrowSchema **)calloc((size_t)n_children, sizeof(struct ArrowSchema *));
  }
  if (p->format == NULL || p->name == NULL ||
      (n_children > 0 && (p->child_schemas == NULL || p->child_ptrs == NULL))) {
    free(p->format);
    free(p->name);
    free(p->child_schemas);
    free(p->child_ptrs);
    free(p);
    return jg_error_set(err, JG_ENOMEM, -1, "out of host memory for an Arrow schema");
  }
  for (int64_t k = 0; k < n_children; ++k) p->child_ptrs[k] = &p->child_schemas[k];
  p->n_children = n_children;
  s->format = p->format;
  s->name = p->name;
  s->metadata = NULL;
  s->flags = flags;
  s->n_children = n_children;
  s->children = n_children > 0 ? p->child_ptrs : NULL;
  s->dictionary = NULL;
  s->release = schema_release;
  s->private_data = p;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Export context, copies and bitmaps                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct export_ctx {
  bool cuda; /* buffers are device memory of `device_id` */
  int device_id;
  jg_stream stream;       /* where device work goes (cuda only) */
  jg_memory_resource *mr; /* where copies go */
} export_ctx;

/* A validity bitmap for the level being exported: bit i for entry i of the level. */
typedef struct validity {
  const void *ptr;
  jg_buffer *keep;    /* the reference the level takes (retained again by the level) */
  int64_t null_count; /* -1 when unknown (device bitmaps) */
} validity;

static jg_status ctx_alloc(const export_ctx *ctx, size_t bytes, jg_buffer **buf, jg_error *err) {
  return jg_buffer_allocate(ctx->mr, bytes, ctx->cuda ? ctx->stream : NULL, buf, err);
}

/* A dense C-order copy of `src` in a new buffer (`*buf`, one reference for the caller). */
static jg_status compact(const export_ctx *ctx, const jg_view *src, jg_buffer **buf,
                         jg_error *err) {
  *buf = NULL;
  jg_layout dense;
  JG_RETURN_NOT_OK(jg_layout_dense(&dense, src->layout.ndim, src->layout.shape,
                                   src->layout.itemsize, JG_ORDER_C, NULL, err));
  size_t bytes = 0;
  JG_RETURN_NOT_OK(jg_layout_required_size(&dense, &bytes, err));
  JG_RETURN_NOT_OK(ctx_alloc(ctx, bytes, buf, err));
  jg_view dst;
  jg_status st = jg_view_from_buffer(&dst, *buf, &dense, src->dtype, false, err);
  if (st == JG_OK)
    st = ctx->cuda ? jg_copy_async(&dst, src, ctx->stream, err) : jg_copy(&dst, src, err);
  if (st != JG_OK) {
    jg_buffer_release(*buf);
    *buf = NULL;
  }
  return st;
}

/* A new bitmap of n bits (at least one byte, so that even an empty level has a non-NULL
 * bitmap) from the values at `first` + i * stride; `*set` gets the bits set (-1 on the GPU). */
static jg_status bits_from_values(const export_ctx *ctx, const void *first, int64_t stride,
                                  int elem_size, int mode, int64_t n, jg_buffer **buf, int64_t *set,
                                  jg_error *err) {
  const size_t bytes = n > 0 ? (size_t)(JGI_ARROW_BITMAP_BYTES(n)) : 1;
  JG_RETURN_NOT_OK(ctx_alloc(ctx, bytes, buf, err));
  uint8_t *out = (uint8_t *)jg_buffer_data(*buf);
  jg_status st = JG_OK;
  if (ctx->cuda) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    st = jgi_arrow_bits_from_values_cuda(first, stride, elem_size, mode, n, out, ctx->stream, err);
#else
    st = jgi_cuda_require(err);
#endif
    *set = -1;
  } else {
    out[0] = 0;
    *set = jgi_arrow_bits_from_values_host(first, stride, elem_size, mode, n, out);
  }
  if (st != JG_OK) {
    jg_buffer_release(*buf);
    *buf = NULL;
  }
  return st;
}

static jg_status bits_realign(const export_ctx *ctx, const uint8_t *first, int64_t byte_stride,
                              int64_t bit_offset, bool lsb, bool invert, int64_t n, jg_buffer **buf,
                              int64_t *set, jg_error *err) {
  const size_t bytes = n > 0 ? (size_t)(JGI_ARROW_BITMAP_BYTES(n)) : 1;
  JG_RETURN_NOT_OK(ctx_alloc(ctx, bytes, buf, err));
  uint8_t *out = (uint8_t *)jg_buffer_data(*buf);
  jg_status st = JG_OK;
  if (ctx->cuda) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    st = jgi_arrow_bits_realign_cuda(first, byte_stride, bit_offset, lsb, invert, n, out,
                                     ctx->stream, err);
#else
    st = jgi_cuda_require(err);
#endif
    *set = -1;
  } else {
    out[0] = 0;
    *set = jgi_arrow_bits_realign_host(first, byte_stride, bit_offset, lsb, invert, n, out);
  }
  if (st != JG_OK) {
    jg_buffer_release(*buf);
    *buf = NULL;
  }
  return st;
}

static const char *primitive_format(jg_dtype dtype) {
  switch (dtype) {
    case JG_DTYPE_BOOL:
      return "b";
    case JG_DTYPE_INT8:
      return "c";
    case JG_DTYPE_UINT8:
      return "C";
    case JG_DTYPE_INT16:
      return "s";
    case JG_DTYPE_UINT16:
      return "S";
    case JG_DTYPE_INT32:
      return "i";
    case JG_DTYPE_UINT32:
      return "I";
    case JG_DTYPE_INT64:
      return "l";
    case JG_DTYPE_UINT64:
      return "L";
    case JG_DTYPE_FLOAT16:
      return "e";
    case JG_DTYPE_FLOAT32:
      return "f";
    case JG_DTYPE_FLOAT64:
      return "g";
    default:
      return NULL;
  }
}

static void child_path(char *dst, const char *path, const char *suffix) {
  snprintf(dst, PATH_SIZE, "%s%s", path, suffix);
}

/* Sets the validity of a level that was just initialised. */
static void attach_validity(struct ArrowArray *arr, const validity *v) {
  if (v == NULL) return;
  array_set_buffer(arr, 0, v->ptr, v->keep);
  arr->null_count = v->null_count;
}

/* ------------------------------------------------------------------------------------------ */
/* The recursive export                                                                        */
/* ------------------------------------------------------------------------------------------ */

static jg_status export_node(const export_ctx *ctx, const jg_array *a, jg_len start, jg_len len,
                             const validity *valid, const char *name, const char *path,
                             struct ArrowSchema *schema, struct ArrowArray *array, jg_error *err);

/* A null-type level of `len` entries (all null). */
static jg_status export_null(jg_len len, const char *name, struct ArrowSchema *schema,
                             struct ArrowArray *array, jg_error *err) {
  JG_RETURN_NOT_OK(schema_init(schema, "n", name, ARROW_FLAG_NULLABLE, 0, err));
  JG_RETURN_NOT_OK(array_init(array, len, 0, 0, err));
  array->null_count = len;
  return JG_OK;
}

static jg_status export_numeric(const export_ctx *ctx, const jg_array *a, jg_len start, jg_len len,
                                const validity *valid, const char *name, const char *path,
                                struct ArrowSchema *schema, struct ArrowArray *array,
                                jg_error *err) {
  const jg_view *d = &a->buffers[0];
  const char *fmt = primitive_format(d->dtype);
  JG_RETURN_IF(fmt == NULL, JG_ENOTSUP, err,
               "numeric data of dtype %s at %s has no Arrow equivalent in jagged's export",
               jg_dtype_name(d->dtype), path);
  const jg_slice rows = JG_SLICE(start, start + len, 1);
  jg_view w;
  JG_RETURN_NOT_OK(jg_view_slice(&w, d, 1, &rows, err));
  const int ndim = w.layout.ndim;
  const jg_len volume = jg_layout_volume(&w.layout);
  const bool contiguous = jg_layout_is_contiguous_c(&w.layout);

  jg_buffer *own = NULL; /* a copy made here, if any */
  const void *ptr = NULL;
  jg_buffer *keep = NULL;
  jg_status st = JG_OK;
  if (d->dtype == JG_DTYPE_BOOL) {
    /* Arrow booleans are bits: pack (from the strided view directly when 1-D). */
    const void *first = jg_view_data(&w);
    int64_t stride = ndim == 1 ? w.layout.strides[0] : 1;
    jg_buffer *dense = NULL;
    if (ndim > 1 && !contiguous) {
      st = compact(ctx, &w, &dense, err);
      first = jg_buffer_data(dense);
    }
    int64_t set = 0;
    if (st == JG_OK)
      st = bits_from_values(ctx, first, stride, 1, JGI_ARROW_BITS_NONZERO, volume, &own, &set, err);
    jg_buffer_release(dense);
    if (st != JG_OK) return st;
    ptr = jg_buffer_data(own);
    keep = own;
  } else if (contiguous) {
    ptr = volume > 0 ? jg_view_data(&w) : NULL;
    keep = d->buffer;
  } else {
    JG_RETURN_NOT_OK(compact(ctx, &w, &own, err));
    ptr = jg_buffer_data(own);
    keep = own;
  }

  /* Inner dimensions become nested fixed-size lists; the validity goes on the top level. */
  struct ArrowSchema *s = schema;
  struct ArrowArray *arr = array;
  jg_len count = len;
  const char *nm = name;
  const int64_t top_flags = valid != NULL ? ARROW_FLAG_NULLABLE : 0;
  for (int k = 1; k < ndim && st == JG_OK; ++k) {
    char fmtbuf[32];
    snprintf(fmtbuf, sizeof(fmtbuf), "+w:%lld", (long long)w.layout.shape[k]);
    st = schema_init(s, fmtbuf, nm, k == 1 ? top_flags : 0, 1, err);
    if (st == JG_OK) st = array_init(arr, count, 1, 1, err);
    if (st != JG_OK) break;
    if (k == 1) attach_validity(arr, valid);
    s = s->children[0];
    arr = arr->children[0];
    count *= w.layout.shape[k]; /* <= volume: no overflow */
    nm = "item";
  }
  if (st == JG_OK) st = schema_init(s, fmt, nm, ndim == 1 ? top_flags : 0, 0, err);
  if (st == JG_OK) st = array_init(arr, count, 2, 0, err);
  if (st == JG_OK) {
    if (ndim == 1) attach_validity(arr, valid);
    array_set_buffer(arr, 1, ptr, keep);
  }
  jg_buffer_release(own);
  return st;
}

/* Checks the len + 1 dense offsets at *ptr (lists start .. start + len - 1 of the list-offset
 * node `a`, on ctx's device) with the rule jg_array_validate applies, as Arrow requires them:
 * none decreases (offsets_to_counts, its error word), and the lists that hold values stay within
 * the content, which is exported whole. Lists that are all empty carry no data wherever they
 * start: their offsets become zeros (a new buffer in *own, *ptr and *keep pointing at it), which
 * Arrow accepts over any child. Errors: JG_EVALUE naming the list. */
static jg_status list_offsets_for_arrow(const export_ctx *ctx, const jg_array *a, jg_len start,
                                        jg_len len, const char *path, const void **ptr,
                                        jg_buffer **keep, jg_buffer **own, jg_error *err) {
  if (len == 0) return JG_OK;
  const jg_dtype dt = a->buffers[0].dtype;
  const int64_t isz = jg_dtype_itemsize(dt), m = a->children[0]->length;
  const jg_device dev = ctx->cuda ? (jg_device){JG_DEVICE_CUDA, ctx->device_id}
                                  : (jg_device)JG_DEVICE_HOST_INIT;
  jg_buffer *counts = NULL;
  JG_RETURN_NOT_OK(ctx_alloc(ctx, (size_t)len * sizeof(int64_t), &counts, err));
  jg_launch l;
  memset(&l, 0, sizeof l);
  l.stream = ctx->stream;
  const jg_kernel_arg args[3] = {jg_arg_i64(len), jg_arg_array((void *)*ptr, len + 1, dt, dev),
                                 jg_arg_array(jg_buffer_data(counts), len, JG_DTYPE_INT64, dev)};
  jg_error e;
  jg_status st = jg_kernel_call(&jgi_kernel_offsets_to_counts, args, 3, ctx->cuda ? &l : NULL, &e);
  jg_buffer_release(counts);
  if (st == JG_EVALUE && e.index >= 0) {
    return jg_error_set(err, JG_EVALUE, start + e.index,
                        "list %lld of the list-offset node at %s: offsets decrease",
                        (long long)(start + e.index), path);
  }
  if (st != JG_OK) {
    if (err != NULL) *err = e;
    return st;
  }
  int64_t ends[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    const char *p = (const char *)*ptr + (k == 0 ? 0 : len * isz);
    int32_t narrow = 0;
    void *dst = dt == JG_DTYPE_INT32 ? (void *)&narrow : (void *)&ends[k];
    if (ctx->cuda) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
      JG_CUDA_RETURN_NOT_OK(cudaMemcpy(dst, p, (size_t)isz, cudaMemcpyDeviceToHost),
                            "reading an offset", err);
#endif
    } else {
      memcpy(dst, p, (size_t)isz);
    }
    if (dt == JG_DTYPE_INT32) ends[k] = narrow;
  }
  if (ends[1] > ends[0]) {
    JG_RETURN_IF_AT(ends[0] < 0 || ends[1] > m, JG_EVALUE, err, ends[0] < 0 ? start : start + len - 1,
                    "lists %lld..%lld of the list-offset node at %s cover [%lld, %lld), outside "
                    "the content of %lld entries",
                    (long long)start, (long long)(start + len - 1), path, (long long)ends[0],
                    (long long)ends[1], (long long)m);
    return JG_OK;
  }
  if (ends[0] == 0) return JG_OK;
  /* Empty lists away from 0: zeros. */
  jg_buffer_release(*own);
  *own = NULL;
  JG_RETURN_NOT_OK(ctx_alloc(ctx, (size_t)((len + 1) * isz), own, err));
  if (ctx->cuda) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    st = jgi_cuda_error(err, cudaMemsetAsync(jg_buffer_data(*own), 0, (size_t)((len + 1) * isz),
                                             (cudaStream_t)ctx->stream),
                        "cudaMemsetAsync");
#endif
  } else {
    memset(jg_buffer_data(*own), 0, (size_t)((len + 1) * isz));
  }
  *ptr = jg_buffer_data(*own);
  *keep = *own;
  return st;
}

static jg_status export_list_offset(const export_ctx *ctx, const jg_array *a, jg_len start,
                                    jg_len len, const validity *valid, const char *name,
                                    const char *path, struct ArrowSchema *schema,
                                    struct ArrowArray *array, jg_error *err) {
  const jg_view *o = &a->buffers[0];
  const jg_slice sl = JG_SLICE(start, start + len + 1, 1);
  jg_view w;
  JG_RETURN_NOT_OK(jg_view_slice(&w, o, 1, &sl, err));
  jg_buffer *own = NULL;
  const void *ptr;
  jg_buffer *keep;
  if (jg_layout_is_contiguous_c(&w.layout)) {
    ptr = jg_view_data(&w);
    keep = o->buffer;
  } else {
    JG_RETURN_NOT_OK(compact(ctx, &w, &own, err));
    ptr = jg_buffer_data(own);
    keep = own;
  }
  jg_status st = list_offsets_for_arrow(ctx, a, start, len, path, &ptr, &keep, &own, err);
  if (st != JG_OK) {
    jg_buffer_release(own);
    return st;
  }
  const char *fmt = o->dtype == JG_DTYPE_INT32 ? "+l" : "+L";
  st = schema_init(schema, fmt, name, valid != NULL ? ARROW_FLAG_NULLABLE : 0, 1, err);
  if (st == JG_OK) st = array_init(array, len, 2, 1, err);
  if (st == JG_OK) {
    attach_validity(array, valid);
    array_set_buffer(array, 1, ptr, keep);
  }
  jg_buffer_release(own);
  if (st != JG_OK) return st;
  char cpath[PATH_SIZE];
  child_path(cpath, path, "[]");
  const jg_array *content = a->children[0];
  return export_node(ctx, content, 0, content->length, NULL, "item", cpath, schema->children[0],
                     array->children[0], err);
}

static jg_status export_regular(const export_ctx *ctx, const jg_array *a, jg_len start, jg_len len,
                                const validity *valid, const char *name, const char *path,
                                struct ArrowSchema *schema, struct ArrowArray *array,
                                jg_error *err) {
  const jg_len size = a->regular_size;
  jg_len cstart;
  jg_len clen;
  JG_RETURN_IF(jgi_mul_overflow(start, size, &cstart) || jgi_mul_overflow(len, size, &clen),
               JG_EOVERFLOW, err, "regular content window overflows at %s", path);
  char fmt[32];
  snprintf(fmt, sizeof(fmt), "+w:%lld", (long long)size);
  JG_RETURN_NOT_OK(schema_init(schema, fmt, name, valid != NULL ? ARROW_FLAG_NULLABLE : 0, 1, err));
  JG_RETURN_NOT_OK(array_init(array, len, 1, 1, err));
  attach_validity(array, valid);
  char cpath[PATH_SIZE];
  child_path(cpath, path, "[]");
  return export_node(ctx, a->children[0], cstart, clen, NULL, "item", cpath, schema->children[0],
                     array->children[0], err);
}

static jg_status export_record(const export_ctx *ctx, const jg_array *a, jg_len start, jg_len len,
                               const validity *valid, const char *name, const char *path,
                               struct ArrowSchema *schema, struct ArrowArray *array,
                               jg_error *err) {
  const int nf = a->nchildren;
  JG_RETURN_NOT_OK(
      schema_init(schema, "+s", name, valid != NULL ? ARROW_FLAG_NULLABLE : 0, nf, err));
  JG_RETURN_NOT_OK(array_init(array, len, 1, nf, err));
  attach_validity(array, valid);
  for (int k = 0; k < nf; ++k) {
    char digits[24];
    snprintf(digits, sizeof(digits), "%d", k);
    const char *fname = a->names != NULL ? a->names[k] : digits;
    char cpath[PATH_SIZE];
    snprintf(cpath, sizeof(cpath), "%s.%s", path, fname);
    JG_RETURN_NOT_OK(export_node(ctx, a->children[k], start, len, NULL, fname, cpath,
                                 schema->children[k], array->children[k], err));
  }
  return JG_OK;
}

/* LIST and INDEXED_OPTION nodes are converted (jgi_arrow_convert_*) and the result exported.
 * On the GPU the node goes to the host and back: copy, convert, remove any list or
 * indexed-option below (jgi_arrow_normalize), copy back on the stream. */
static jg_status export_converted(const export_ctx *ctx, const jg_array *a, jg_len start,
                                  jg_len len, const validity *valid, const char *name,
                                  const char *path, struct ArrowSchema *schema,
                                  struct ArrowArray *array, jg_error *err) {
  const jg_array *src = a;
  jg_array *host = NULL;
  jg_array *conv = NULL;
  jg_status st = JG_OK;
  if (ctx->cuda) {
    st = jg_array_to_host(a, ctx->stream, &host, err);
    src = host;
  }
  if (st == JG_OK) {
    st = a->kind == JG_NODE_LIST ? jgi_arrow_convert_list(src, start, len, &conv, err)
                                 : jgi_arrow_convert_indexed(src, start, len, &conv, err);
  }
  if (st == JG_OK && ctx->cuda) {
    jg_array *norm = NULL;
    st = jgi_arrow_normalize(conv, &norm, err);
    jg_array *dev = NULL;
    if (st == JG_OK) st = jg_array_to_device(norm, ctx->device_id, ctx->stream, &dev, err);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    /* The host arrays go away below: let the copies out of them finish first. */
    if (st == JG_OK)
      st = jgi_cuda_error(err, cudaStreamSynchronize((cudaStream_t)ctx->stream),
                          "cudaStreamSynchronize");
#endif
    jg_array_release(norm);
    jg_array_release(conv);
    conv = dev;
  }
  if (st == JG_OK) st = export_node(ctx, conv, 0, len, valid, name, path, schema, array, err);
  jg_array_release(conv);
  jg_array_release(host);
  return st;
}

static jg_status export_option(const export_ctx *ctx, const jg_array *a, jg_len start, jg_len len,
                               const validity *valid, const char *name, const char *path,
                               struct ArrowSchema *schema, struct ArrowArray *array,
                               jg_error *err) {
  JG_RETURN_IF(valid != NULL, JG_ENOTSUP, err,
               "an option directly over an option (%s node at %s) has no Arrow equivalent",
               jgi_array_node_name(a->kind), path);
  const jg_array *content = a->children[0];
  if (content->kind == JG_NODE_EMPTY) return export_null(len, name, schema, array, err);
  if (a->kind == JG_NODE_INDEXED_OPTION)
    return export_converted(ctx, a, start, len, NULL, name, path, schema, array, err);

  const jg_view *m = &a->buffers[0];
  validity v = {NULL, NULL, 0};
  jg_buffer *own = NULL;
  int64_t set = 0;
  if (a->kind == JG_NODE_BYTE_MASKED) {
    const void *first = len > 0 ? jgi_view_element_ptr(m, start) : NULL;
    JG_RETURN_NOT_OK(bits_from_values(ctx, first, m->layout.strides[0], 1,
                                      a->valid_when ? JGI_ARROW_BITS_NONZERO : JGI_ARROW_BITS_ZERO,
                                      len, &own, &set, err));
    v.ptr = jg_buffer_data(own);
    v.keep = own;
  } else { /* BIT_MASKED */
    const int64_t bit0 = a->bit_offset + start;
    const jg_len nbytes = JGI_ARROW_BITMAP_BYTES(len);
    const bool arrow_bits = a->lsb_order && a->valid_when && bit0 % 8 == 0 &&
                            (m->layout.strides[0] == 1 || nbytes <= 1) && len > 0;
    if (arrow_bits) {
      v.ptr = jgi_view_element_ptr(m, bit0 / 8);
      v.keep = m->buffer;
      set = ctx->cuda ? -1 : jgi_arrow_bits_count_host((const uint8_t *)v.ptr, len);
    } else {
      const uint8_t *first = len > 0 ? (const uint8_t *)jgi_view_element_ptr(m, 0) : NULL;
      JG_RETURN_NOT_OK(bits_realign(ctx, first, m->layout.strides[0], bit0, a->lsb_order,
                                    !a->valid_when, len, &own, &set, err));
      v.ptr = jg_buffer_data(own);
      v.keep = own;
    }
  }
  v.null_count = set < 0 ? -1 : len - set;
  jg_status st = export_node(ctx, content, start, len, &v, name, path, schema, array, err);
  jg_buffer_release(own);
  return st;
}

static jg_status export_node(const export_ctx *ctx, const jg_array *a, jg_len start, jg_len len,
                             const validity *valid, const char *name, const char *path,
                             struct ArrowSchema *schema, struct ArrowArray *array, jg_error *err) {
  switch (a->kind) {
    case JG_NODE_NUMERIC:
      return export_numeric(ctx, a, start, len, valid, name, path, schema, array, err);
    case JG_NODE_EMPTY:
      return export_null(len, name, schema, array, err);
    case JG_NODE_LIST_OFFSET:
      return export_list_offset(ctx, a, start, len, valid, name, path, schema, array, err);
    case JG_NODE_LIST:
      return export_converted(ctx, a, start, len, valid, name, path, schema, array, err);
    case JG_NODE_REGULAR:
      return export_regular(ctx, a, start, len, valid, name, path, schema, array, err);
    case JG_NODE_RECORD:
      return export_record(ctx, a, start, len, valid, name, path, schema, array, err);
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED:
    case JG_NODE_INDEXED_OPTION:
      return export_option(ctx, a, start, len, valid, name, path, schema, array, err);
    default:
      return jg_error_set(err, JG_EINTERNAL, -1, "unknown node kind %d at %s", (int)a->kind, path);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Public entry points                                                                         */
/* ------------------------------------------------------------------------------------------ */

static void release_both(struct ArrowSchema *schema, struct ArrowArray *array) {
  if (schema != NULL && schema->release != NULL) schema->release(schema);
  if (array != NULL && array->release != NULL) array->release(array);
}

static jg_status export_root(const export_ctx *ctx, const jg_array *a, struct ArrowSchema *schema,
                             struct ArrowArray *array, jg_error *err) {
  jg_status st = export_node(ctx, a, 0, a->length, NULL, "", "$", schema, array, err);
  if (st != JG_OK) release_both(schema, array);
  return st;
}

jg_status jg_array_export_arrow(const jg_array *a, struct ArrowSchema *schema,
                                struct ArrowArray *array, jg_error *err) {
  if (schema != NULL) schema->release = NULL;
  if (array != NULL) array->release = NULL;
  JG_RETURN_IF(a == NULL || schema == NULL || array == NULL, JG_EINVAL, err,
               "jg_array_export_arrow: %s is NULL",
               a == NULL        ? "a"
               : schema == NULL ? "schema"
                                : "array");
  if (a->backend != JG_BACKEND_CPU) {
    char dev[32];
    return jg_error_set(err, JG_EBACKEND, -1,
                        "jg_array_export_arrow: the array is on %s: copy it with "
                        "jg_array_to_host, or use jg_array_export_arrow_device",
                        jgi_device_name(a->device, dev, sizeof(dev)));
  }
  export_ctx ctx = {false, 0, NULL, jg_memory_resource_host()};
  return export_root(&ctx, a, schema, array, err);
}

static jg_status export_arrow_device(const jg_array *a, jg_stream stream,
                                     struct ArrowSchema *schema,
                                     struct ArrowDeviceArray *device_array, jg_error *err) {
  if (schema != NULL) schema->release = NULL;
  if (device_array != NULL) {
    memset(device_array, 0, sizeof(*device_array));
    device_array->array.release = NULL;
  }
  JG_RETURN_IF(a == NULL || schema == NULL || device_array == NULL, JG_EINVAL, err,
               "jg_array_export_arrow_device: %s is NULL",
               a == NULL        ? "a"
               : schema == NULL ? "schema"
                                : "device_array");
  if (a->backend == JG_BACKEND_CPU) {
    export_ctx ctx = {false, 0, NULL, jg_memory_resource_host()};
    JG_RETURN_NOT_OK(export_root(&ctx, a, schema, &device_array->array, err));
    device_array->device_type = ARROW_DEVICE_CPU;
    device_array->device_id = -1;
    device_array->sync_event = NULL;
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const int id = (int)a->device.id;
  export_ctx ctx = {true, id, stream, NULL};
  JG_RETURN_NOT_OK(jg_memory_resource_device(id, &ctx.mr, err));
  int prev = 0;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(id, &prev, err));
  jg_status st = export_root(&ctx, a, schema, &device_array->array, err);
  if (st == JG_OK) {
    array_private *p = (array_private *)device_array->array.private_data;
    cudaEvent_t ev = NULL;
    st = jgi_cuda_error(err, cudaEventCreateWithFlags(&ev, cudaEventDisableTiming),
                        "cudaEventCreateWithFlags");
    if (st == JG_OK) {
      p->event = ev;
      p->has_event = true; /* the release destroys it from now on */
      st = jgi_cuda_error(err, cudaEventRecord(ev, (cudaStream_t)stream), "cudaEventRecord");
    }
    if (st != JG_OK) {
      release_both(schema, &device_array->array);
    } else {
      device_array->device_type = ARROW_DEVICE_CUDA;
      device_array->device_id = id;
      device_array->sync_event = &p->event;
    }
  }
  jgi_cuda_device_pop(prev, id);
  return st;
#else
  (void)stream;
  return jgi_cuda_require(err);
#endif
}

/* The copies that stage through the host (export_converted) record their transfers under this
 * call's name (jgi_transfer.h). */
jg_status jg_array_export_arrow_device(const jg_array *a, jg_stream stream,
                                       struct ArrowSchema *schema,
                                       struct ArrowDeviceArray *device_array, jg_error *err) {
  jgi_call_enter("jg_array_export_arrow_device");
  const jg_status st = export_arrow_device(a, stream, schema, device_array, err);
  jgi_call_leave();
  return st;
}
