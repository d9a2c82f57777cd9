/* arrow_import.c: Arrow C Data Interface and C Device Data Interface arrays to jagged arrays
 * (interface in include/jagged/arrow.h).
 *
 * Written from the Arrow specifications (docs/source/format/CDataInterface.rst, Columnar.rst,
 * CDeviceDataInterface.rst).
 *
 * Ownership: one `import_owner` per import holds the moved ArrowArray and a reference count: one
 * reference for the import itself while it runs, one per jagged buffer wrapping an Arrow buffer
 * (an external buffer whose release callback drops it). When the count reaches zero the array's
 * release is called, if the import succeeded (`taken`), and the owner freed. A failed import
 * releases what it built (dropping those references) and then its own without calling release:
 * the caller keeps the array. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_transfer.h"
#include "io/arrow/arrow_internal.h"
#include "jagged/arrow.h"

/** Longest field path kept for messages; longer ones are truncated. */
#define PATH_SIZE 256
/** Deepest nesting accepted (guards the recursion against hostile input): the limit of
 *  jg_array_validate, so that every tree the library validates (the builder's deepest
 *  included) comes back from its own export. */
#define MAX_DEPTH 1000

/* ------------------------------------------------------------------------------------------ */
/* Ownership                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct import_owner {
  atomic_size_t refs;
  bool taken; /* `array` holds the moved ArrowArray */
  struct ArrowArray array;
} import_owner;

static void owner_unref(import_owner *o) {
  if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) == 1) {
    if (o->taken && o->array.release != NULL) o->array.release(&o->array);
    free(o);
  }
}

static void owner_buffer_release(void *owner, void *data, size_t bytes) {
  (void)data;
  (void)bytes;
  owner_unref((import_owner *)owner);
}

/* ------------------------------------------------------------------------------------------ */
/* Context and buffers                                                                         */
/* ------------------------------------------------------------------------------------------ */

typedef struct import_ctx {
  import_owner *owner;
  jg_device view_device; /* where Arrow's buffers live (for jg_view_from_pointer) */
  jg_device node_device; /* the normalised device of the result */
  bool host_readable;    /* Arrow's buffers may be read by host code */
  bool cuda;             /* the result is a cuda array: new buffers on the device */
  int device_id;
  jg_stream stream;
  jg_memory_resource *mr; /* where new buffers come from */
  bool pending;           /* kernels reading Arrow's buffers were enqueued on `stream` */
} import_ctx;

/* A 1-D read-only view of `n` elements of `dtype`, starting at element `first` of the Arrow
 * buffer `ptr` (which must hold first + n elements), in a new external buffer `*buf` that holds
 * one owner reference. */
static jg_status arrow_view(import_ctx *ctx, const void *ptr, jg_dtype dtype, int64_t first,
                            int64_t n, const char *path, jg_view *view, jg_buffer **buf,
                            jg_error *err) {
  *buf = NULL;
  const int64_t itemsize = jg_dtype_itemsize(dtype);
  int64_t end = 0;
  int64_t bytes = 0;
  if (n == 0) first = 0; /* nothing is read: claim no bytes */
  JG_RETURN_IF(jgi_add_overflow(first, n, &end) || jgi_mul_overflow(end, itemsize, &bytes) ||
                   (uint64_t)bytes > (uint64_t)SIZE_MAX,
               JG_EOVERFLOW, err, "buffer extent of %lld + %lld elements overflows at %s",
               (long long)first, (long long)n, path);
  jg_layout layout;
  JG_RETURN_NOT_OK(jg_layout_init(&layout, 1, &n, NULL, itemsize, err));
  layout.slice_offset = n > 0 ? first : 0;
  JG_RETURN_NOT_OK(
      jg_view_from_pointer(view, (void *)ptr, ctx->view_device, &layout, dtype, true, err));
  atomic_fetch_add_explicit(&ctx->owner->refs, 1, memory_order_relaxed);
  jg_status st = jg_buffer_wrap_external((void *)ptr, ptr != NULL ? (size_t)bytes : 0, ctx->owner,
                                         owner_buffer_release, buf, err);
  if (st != JG_OK) {
    /* The import's own reference is still held: this cannot reach zero. */
    atomic_fetch_sub_explicit(&ctx->owner->refs, 1, memory_order_relaxed);
    return st;
  }
  view->buffer = *buf;
  return JG_OK;
}

/* A new buffer of n elements of `dtype` for the result (host, or device memory of the GPU). */
static jg_status new_buffer(const import_ctx *ctx, jg_dtype dtype, int64_t n, jg_view *view,
                            jg_buffer **buf, jg_error *err) {
  *buf = NULL;
  jg_layout layout;
  JG_RETURN_NOT_OK(jg_layout_init(&layout, 1, &n, NULL, jg_dtype_itemsize(dtype), err));
  size_t bytes = 0;
  JG_RETURN_NOT_OK(jg_layout_required_size(&layout, &bytes, err));
  JG_RETURN_NOT_OK(jg_buffer_allocate(ctx->mr, bytes, ctx->cuda ? ctx->stream : NULL, buf, err));
  jg_status st = jg_view_from_buffer(view, *buf, &layout, dtype, false, err);
  if (st != JG_OK) {
    jg_buffer_release(*buf);
    *buf = NULL;
  }
  return st;
}

/* Sets every byte of a new buffer to `value` (on the stream for device memory). */
static jg_status fill_bytes(const import_ctx *ctx, jg_buffer *buf, int value, jg_error *err) {
  void *p = jg_buffer_data(buf);
  const size_t bytes = jg_buffer_size(buf);
  if (bytes == 0) return JG_OK;
  if (!ctx->cuda) {
    memset(p, value, bytes);
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  JG_CUDA_RETURN_NOT_OK(cudaMemsetAsync(p, value, bytes, (cudaStream_t)ctx->stream),
                        "cudaMemsetAsync", err);
  return JG_OK;
#else
  return jgi_cuda_require(err);
#endif
}

/* A node without buffers or children (empty, a record of no fields) on the result's device. */
static jg_status leaf_node(const import_ctx *ctx, jg_node_kind kind, int nchildren, jg_array **out,
                           jg_error *err) {
  JG_RETURN_NOT_OK(jgi_array_new(kind, nchildren, out, err));
  (*out)->device = ctx->node_device;
  (*out)->backend = ctx->cuda ? JG_BACKEND_CUDA : JG_BACKEND_CPU;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Formats                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static jg_dtype primitive_dtype(const char *f) {
  if (f[0] == '\0' || f[1] != '\0') return JG_DTYPE_INVALID;
  switch (f[0]) {
    case 'b':
      return JG_DTYPE_BOOL;
    case 'c':
      return JG_DTYPE_INT8;
    case 'C':
      return JG_DTYPE_UINT8;
    case 's':
      return JG_DTYPE_INT16;
    case 'S':
      return JG_DTYPE_UINT16;
    case 'i':
      return JG_DTYPE_INT32;
    case 'I':
      return JG_DTYPE_UINT32;
    case 'l':
      return JG_DTYPE_INT64;
    case 'L':
      return JG_DTYPE_UINT64;
    case 'e':
      return JG_DTYPE_FLOAT16;
    case 'f':
      return JG_DTYPE_FLOAT32;
    case 'g':
      return JG_DTYPE_FLOAT64;
    default:
      return JG_DTYPE_INVALID;
  }
}

/* Parses the N of "+w:N" into *size; false when malformed. */
static bool parse_fixed_size(const char *f, int64_t *size) {
  const char *p = f + 3;
  if (*p == '\0') return false;
  int64_t v = 0;
  for (; *p != '\0'; ++p) {
    if (*p < '0' || *p > '9') return false;
    if (jgi_mul_overflow(v, (int64_t)10, &v) || jgi_add_overflow(v, (int64_t)(*p - '0'), &v))
      return false;
  }
  *size = v;
  return true;
}

/* ------------------------------------------------------------------------------------------ */
/* The recursive import                                                                        */
/* ------------------------------------------------------------------------------------------ */

static jg_status import_node(import_ctx *ctx, const struct ArrowSchema *schema,
                             const struct ArrowArray *array, int64_t ws, int64_t wl,
                             const char *path, int depth, jg_array **out, jg_error *err);

/* Child k of a nested level, checked. */
static jg_status get_child(const struct ArrowSchema *schema, const struct ArrowArray *array,
                           int64_t k, const char *path, const struct ArrowSchema **cs,
                           const struct ArrowArray **ca, jg_error *err) {
  *cs = schema->children[k];
  *ca = array->children[k];
  JG_RETURN_IF_AT(*cs == NULL || *ca == NULL, JG_ECORRUPT, err, k,
                  "child %lld of the Arrow %s at %s is NULL", (long long)k,
                  *cs == NULL ? "schema" : "array", path);
  return JG_OK;
}

static jg_status import_null(import_ctx *ctx, int64_t wl, jg_array **out, jg_error *err) {
  jg_array *empty = NULL;
  JG_RETURN_NOT_OK(leaf_node(ctx, JG_NODE_EMPTY, 0, &empty, err));
  jg_status st = jgi_array_finish(empty, err);
  if (st != JG_OK || wl == 0) {
    if (st != JG_OK)
      jg_array_release(empty);
    else
      *out = empty;
    return st;
  }
  /* wl null entries: an indexed-option of -1 indexes (all bytes 0xFF) over the empty node. */
  jg_view iv;
  jg_buffer *ib = NULL;
  st = new_buffer(ctx, JG_DTYPE_INT64, wl, &iv, &ib, err);
  if (st == JG_OK) st = fill_bytes(ctx, ib, 0xFF, err);
  if (st == JG_OK) st = jg_array_indexed_option(&iv, empty, out, err);
  jg_buffer_release(ib);
  jg_array_release(empty);
  return st;
}

static jg_status import_primitive(import_ctx *ctx, const struct ArrowArray *array, jg_dtype dtype,
                                  int64_t off, int64_t wl, const char *path, jg_array **out,
                                  jg_error *err) {
  const void *data = array->buffers[1];
  JG_RETURN_IF(wl > 0 && data == NULL, JG_ECORRUPT, err,
               "the data buffer of the Arrow array at %s is NULL but %lld entries are needed", path,
               (long long)wl);
  jg_view view;
  jg_buffer *buf = NULL;
  jg_status st;
  if (dtype == JG_DTYPE_BOOL) {
    /* Arrow booleans are bits; jagged's are bytes: unpack. */
    st = new_buffer(ctx, JG_DTYPE_BOOL, wl, &view, &buf, err);
    if (st == JG_OK && wl > 0) {
      uint8_t *dst = (uint8_t *)jg_buffer_data(buf);
      if (!ctx->cuda) {
        jgi_arrow_bits_unpack_host((const uint8_t *)data, off, wl, dst);
      } else {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
        st = jgi_arrow_bits_unpack_cuda((const uint8_t *)data, off, wl, dst, ctx->stream, err);
        ctx->pending = true;
#else
        st = jgi_cuda_require(err);
#endif
      }
    }
  } else {
    st = arrow_view(ctx, data, dtype, off, wl, path, &view, &buf, err);
  }
  if (st == JG_OK) st = jg_array_numeric(&view, out, err);
  jg_buffer_release(buf);
  return st;
}

static jg_status import_list(import_ctx *ctx, const struct ArrowSchema *schema,
                             const struct ArrowArray *array, jg_dtype odt, int64_t off, int64_t wl,
                             const char *path, int depth, jg_array **out, jg_error *err) {
  const struct ArrowSchema *cs;
  const struct ArrowArray *ca;
  JG_RETURN_NOT_OK(get_child(schema, array, 0, path, &cs, &ca, err));
  char cpath[PATH_SIZE];
  snprintf(cpath, sizeof(cpath), "%s[]", path);
  JG_RETURN_IF(ca->length < 0, JG_ECORRUPT, err, "the Arrow array at %s has negative length %lld",
               cpath, (long long)ca->length);
  jg_array *content = NULL;
  JG_RETURN_NOT_OK(import_node(ctx, cs, ca, 0, ca->length, cpath, depth + 1, &content, err));
  const void *offsets = array->buffers[1];
  jg_view ov;
  jg_buffer *ob = NULL;
  jg_status st = JG_OK;
  if (offsets == NULL) {
    /* Allowed only for a list array with no entries: make the single offset 0. */
    if (wl > 0)
      st = jg_error_set(err, JG_ECORRUPT, -1,
                        "the offsets buffer of the Arrow list at %s is NULL but %lld lists "
                        "are needed",
                        path, (long long)wl);
    if (st == JG_OK) st = new_buffer(ctx, odt, 1, &ov, &ob, err);
    if (st == JG_OK) st = fill_bytes(ctx, ob, 0, err);
  } else {
    st = arrow_view(ctx, offsets, odt, off, wl + 1, path, &ov, &ob, err);
    if (st == JG_OK && ctx->host_readable) {
      const int64_t first = jgi_view_get_index(&ov, 0);
      const int64_t last = jgi_view_get_index(&ov, wl);
      if (first < 0 || last < first || last > ca->length)
        st = jg_error_set(err, JG_ECORRUPT, off,
                          "the offsets of the Arrow list at %s run from %lld to %lld, not "
                          "within the child's %lld entries",
                          path, (long long)first, (long long)last, (long long)ca->length);
    }
  }
  if (st == JG_OK) st = jg_array_list_offset(&ov, content, out, err);
  jg_buffer_release(ob);
  jg_array_release(content);
  return st;
}

static jg_status import_fixed_size_list(import_ctx *ctx, const struct ArrowSchema *schema,
                                        const struct ArrowArray *array, int64_t size, int64_t off,
                                        int64_t wl, const char *path, int depth, jg_array **out,
                                        jg_error *err) {
  const struct ArrowSchema *cs;
  const struct ArrowArray *ca;
  JG_RETURN_NOT_OK(get_child(schema, array, 0, path, &cs, &ca, err));
  int64_t cstart;
  int64_t clen;
  JG_RETURN_IF(jgi_mul_overflow(off, size, &cstart) || jgi_mul_overflow(wl, size, &clen),
               JG_EOVERFLOW, err, "the child window of the fixed-size list at %s overflows", path);
  char cpath[PATH_SIZE];
  snprintf(cpath, sizeof(cpath), "%s[]", path);
  jg_array *content = NULL;
  JG_RETURN_NOT_OK(import_node(ctx, cs, ca, cstart, clen, cpath, depth + 1, &content, err));
  jg_status st = jg_array_regular(content, size, size > 0 ? -1 : wl, out, err);
  jg_array_release(content);
  return st;
}

static jg_status import_struct(import_ctx *ctx, const struct ArrowSchema *schema,
                               const struct ArrowArray *array, int64_t off, int64_t wl,
                               const char *path, int depth, jg_array **out, jg_error *err) {
  JG_RETURN_IF(array->n_children > 1000000, JG_ENOTSUP, err,
               "the Arrow struct at %s has %lld fields, more than jagged takes", path,
               (long long)array->n_children);
  const int nf = (int)array->n_children;
  char **names = (char **)calloc((size_t)(nf > 0 ? nf : 1), sizeof(char *));
  JG_RETURN_IF(names == NULL, JG_ENOMEM, err, "out of host memory for %d field names", nf);
  jg_array *rec = NULL;
  jg_status st = leaf_node(ctx, JG_NODE_RECORD, nf, &rec, err);
  bool tuple = true;
  for (int k = 0; k < nf && st == JG_OK; ++k) {
    const struct ArrowSchema *cs;
    const struct ArrowArray *ca;
    st = get_child(schema, array, k, path, &cs, &ca, err);
    if (st != JG_OK) break;
    char digits[24];
    snprintf(digits, sizeof(digits), "%d", k);
    const char *nm = cs->name != NULL && cs->name[0] != '\0' ? cs->name : digits;
    if (strcmp(nm, digits) != 0) tuple = false;
    for (int j = 0; j < k && st == JG_OK; ++j)
      if (strcmp(names[j], nm) == 0)
        st = jg_error_set(err, JG_ENOTSUP, k,
                          "the Arrow struct at %s has two fields named \"%s\" (fields %d and "
                          "%d); jagged records need distinct names",
                          path, nm, j, k);
    if (st != JG_OK) break;
    const size_t n = strlen(nm) + 1;
    names[k] = (char *)malloc(n);
    if (names[k] == NULL) {
      st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory for a field name");
      break;
    }
    memcpy(names[k], nm, n);
    char cpath[PATH_SIZE];
    snprintf(cpath, sizeof(cpath), "%s.%s", path, nm);
    jg_array *field = NULL;
    st = import_node(ctx, cs, ca, off, wl, cpath, depth + 1, &field, err);
    if (st == JG_OK) {
      jgi_array_set_child(rec, k, field);
      jg_array_release(field);
    }
  }
  if (st == JG_OK) {
    rec->length = wl;
    if (!tuple) st = jgi_array_set_names(rec, (const char *const *)names, err);
  }
  if (st == JG_OK) st = jgi_array_finish(rec, err);
  for (int k = 0; k < nf; ++k) free(names[k]);
  free(names);
  if (st != JG_OK) {
    jg_array_release(rec);
    return st;
  }
  *out = rec;
  return JG_OK;
}

/* Wraps `*node` (wl entries) in a bit-masked option over the Arrow validity bitmap. */
static jg_status wrap_validity(import_ctx *ctx, const void *bitmap, int64_t off, int64_t wl,
                               const char *path, jg_array **node, jg_error *err) {
  const int64_t bit0 = wl > 0 ? off % 8 : 0;
  const int64_t byte0 = wl > 0 ? off / 8 : 0;
  const int64_t nbytes = wl > 0 ? JGI_ARROW_BITMAP_BYTES(bit0 + wl) : 0; /* <= end */
  jg_view mv;
  jg_buffer *mb = NULL;
  JG_RETURN_NOT_OK(arrow_view(ctx, bitmap, JG_DTYPE_UINT8, byte0, nbytes, path, &mv, &mb, err));
  jg_array *opt = NULL;
  jg_status st = jgi_array_new(JG_NODE_BIT_MASKED, 1, &opt, err);
  if (st == JG_OK) {
    jgi_array_set_buffer(opt, 0, &mv);
    jgi_array_set_child(opt, 0, *node);
    opt->length = wl;
    opt->bit_offset = bit0;
    opt->valid_when = true;
    opt->lsb_order = true;
    st = jgi_array_finish(opt, err);
  }
  jg_buffer_release(mb);
  if (st != JG_OK) {
    jg_array_release(opt);
    return st;
  }
  jg_array_release(*node);
  *node = opt;
  return JG_OK;
}

static jg_status import_node(import_ctx *ctx, const struct ArrowSchema *schema,
                             const struct ArrowArray *array, int64_t ws, int64_t wl,
                             const char *path, int depth, jg_array **out, jg_error *err) {
  *out = NULL;
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err,
               "the Arrow array nests deeper than %d levels at %s", MAX_DEPTH, path);
  JG_RETURN_IF(schema->format == NULL, JG_ECORRUPT, err, "the Arrow schema at %s has no format",
               path);
  const char *f = schema->format;
  JG_RETURN_IF(schema->dictionary != NULL || array->dictionary != NULL, JG_ENOTSUP, err,
               "dictionary-encoded Arrow arrays are not supported (format \"%s\" at %s)", f, path);
  JG_RETURN_IF(array->length < 0 || array->offset < 0, JG_ECORRUPT, err,
               "the Arrow array at %s has a negative %s (%lld)", path,
               array->length < 0 ? "length" : "offset",
               (long long)(array->length < 0 ? array->length : array->offset));
  JG_RETURN_IF(array->null_count < -1, JG_ECORRUPT, err,
               "the Arrow array at %s has null_count %lld", path, (long long)array->null_count);
  JG_RETURN_IF(array->n_buffers < 0 || array->n_children < 0 || schema->n_children < 0, JG_ECORRUPT,
               err, "the Arrow array or schema at %s has a negative count", path);
  JG_RETURN_IF(schema->n_children != array->n_children, JG_ECORRUPT, err,
               "the Arrow schema at %s has %lld children but the array has %lld", path,
               (long long)schema->n_children, (long long)array->n_children);
  JG_RETURN_IF(array->n_buffers > 0 && array->buffers == NULL, JG_ECORRUPT, err,
               "the Arrow array at %s has %lld buffers but a NULL buffers pointer", path,
               (long long)array->n_buffers);
  JG_RETURN_IF(array->n_children > 0 && (array->children == NULL || schema->children == NULL),
               JG_ECORRUPT, err,
               "the Arrow %s at %s has %lld children but a NULL children "
               "pointer",
               array->children == NULL ? "array" : "schema", path, (long long)array->n_children);
  int64_t need;
  JG_RETURN_IF(jgi_add_overflow(ws, wl, &need), JG_EOVERFLOW, err,
               "the window of the Arrow array at %s overflows", path);
  JG_RETURN_IF(need > array->length, JG_ECORRUPT, err,
               "the Arrow array at %s has length %lld but its parent needs %lld entries", path,
               (long long)array->length, (long long)need);
  int64_t off;
  int64_t end;
  JG_RETURN_IF(jgi_add_overflow(array->offset, ws, &off) || jgi_add_overflow(off, wl, &end),
               JG_EOVERFLOW, err, "offset + length of the Arrow array at %s overflows", path);

  /* Expected buffer and child counts per format. */
  int64_t nbuf;
  int64_t nchild = -1; /* -1: any (struct) */
  jg_dtype dtype = primitive_dtype(f);
  int64_t fixed = 0;
  if (strcmp(f, "n") == 0) {
    JG_RETURN_IF(array->n_buffers > 1 || array->n_children != 0, JG_ECORRUPT, err,
                 "the Arrow null array at %s has %lld buffers and %lld children (expected 0 "
                 "and 0)",
                 path, (long long)array->n_buffers, (long long)array->n_children);
    return import_null(ctx, wl, out, err);
  } else if (dtype != JG_DTYPE_INVALID) {
    nbuf = 2;
    nchild = 0;
  } else if (strcmp(f, "+l") == 0 || strcmp(f, "+L") == 0) {
    nbuf = 2;
    nchild = 1;
  } else if (strncmp(f, "+w:", 3) == 0) {
    JG_RETURN_IF(!parse_fixed_size(f, &fixed), JG_ECORRUPT, err,
                 "malformed Arrow format \"%s\" at %s", f, path);
    nbuf = 1;
    nchild = 1;
  } else if (strcmp(f, "+s") == 0) {
    nbuf = 1;
  } else {
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "the Arrow format \"%s\" at %s is not supported (jagged takes n, b, c, "
                        "C, s, S, i, I, l, L, e, f, g, +l, +L, +w:N and +s)",
                        f, path);
  }
  JG_RETURN_IF(array->n_buffers != nbuf, JG_ECORRUPT, err,
               "the Arrow array at %s (format \"%s\") has %lld buffers, expected %lld", path, f,
               (long long)array->n_buffers, (long long)nbuf);
  JG_RETURN_IF(nchild >= 0 && array->n_children != nchild, JG_ECORRUPT, err,
               "the Arrow array at %s (format \"%s\") has %lld children, expected %lld", path, f,
               (long long)array->n_children, (long long)nchild);
  const void *bitmap = array->buffers[0];
  JG_RETURN_IF(bitmap == NULL && array->null_count > 0, JG_ECORRUPT, err,
               "the Arrow array at %s has null_count %lld but no validity bitmap", path,
               (long long)array->null_count);

  jg_array *node = NULL;
  jg_status st;
  if (dtype != JG_DTYPE_INVALID) {
    st = import_primitive(ctx, array, dtype, off, wl, path, &node, err);
  } else if (f[1] == 'l' || f[1] == 'L') {
    st = import_list(ctx, schema, array, f[1] == 'l' ? JG_DTYPE_INT32 : JG_DTYPE_INT64, off, wl,
                     path, depth, &node, err);
  } else if (f[1] == 'w') {
    st = import_fixed_size_list(ctx, schema, array, fixed, off, wl, path, depth, &node, err);
  } else {
    st = import_struct(ctx, schema, array, off, wl, path, depth, &node, err);
  }
  if (st == JG_OK && bitmap != NULL) st = wrap_validity(ctx, bitmap, off, wl, path, &node, err);
  if (st != JG_OK) {
    jg_array_release(node);
    return st;
  }
  *out = node;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Public entry points                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Builds the result; on success moves `array` into the owner, on failure leaves it alone. */
static jg_status import_root(import_ctx *ctx, struct ArrowSchema *schema, struct ArrowArray *array,
                             jg_array **out, jg_error *err) {
  import_owner *owner = (import_owner *)calloc(1, sizeof(*owner));
  JG_RETURN_IF(owner == NULL, JG_ENOMEM, err, "out of host memory for an Arrow import");
  atomic_init(&owner->refs, 1);
  owner->taken = false;
  ctx->owner = owner;
  jg_array *node = NULL;
  jg_status st = import_node(ctx, schema, array, 0, array->length, "$", 0, &node, err);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  if (ctx->pending) {
    /* Kernels still read the producer's memory: let them finish before anything can release
     * it (the caller on failure, or the owner below when no buffer keeps it). */
    jg_status sst = jgi_cuda_error(err, cudaStreamSynchronize((cudaStream_t)ctx->stream),
                                   "cudaStreamSynchronize");
    if (st == JG_OK) st = sst;
  }
#endif
  if (st != JG_OK) {
    jg_array_release(node); /* drops the buffer references; `taken` is false: no release */
    owner_unref(owner);
    return st;
  }
  owner->array = *array; /* move: bitwise copy, then mark the source released */
  array->release = NULL;
  owner->taken = true;
  owner_unref(owner); /* calls release at once when no buffer points into the array */
  *out = node;
  return JG_OK;
}

jg_status jg_array_import_arrow(struct ArrowSchema *schema, struct ArrowArray *array,
                                jg_array **out, jg_error *err) {
  if (out != NULL) *out = NULL;
  JG_RETURN_IF(schema == NULL || array == NULL || out == NULL, JG_EINVAL, err,
               "jg_array_import_arrow: %s is NULL",
               schema == NULL  ? "schema"
               : array == NULL ? "array"
                               : "out");
  JG_RETURN_IF(schema->release == NULL, JG_EINVAL, err,
               "jg_array_import_arrow: the schema is released");
  JG_RETURN_IF(array->release == NULL, JG_EINVAL, err,
               "jg_array_import_arrow: the array is released");
  import_ctx ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.view_device.type = JG_DEVICE_CPU;
  ctx.view_device.id = 0;
  ctx.node_device = ctx.view_device;
  ctx.host_readable = true;
  ctx.cuda = false;
  ctx.mr = jg_memory_resource_host();
  return import_root(&ctx, schema, array, out, err);
}

static const char *arrow_device_name(ArrowDeviceType t) {
  switch (t) {
    case ARROW_DEVICE_CPU:
      return "ARROW_DEVICE_CPU";
    case ARROW_DEVICE_CUDA:
      return "ARROW_DEVICE_CUDA";
    case ARROW_DEVICE_CUDA_HOST:
      return "ARROW_DEVICE_CUDA_HOST";
    case ARROW_DEVICE_OPENCL:
      return "ARROW_DEVICE_OPENCL";
    case ARROW_DEVICE_VULKAN:
      return "ARROW_DEVICE_VULKAN";
    case ARROW_DEVICE_METAL:
      return "ARROW_DEVICE_METAL";
    case ARROW_DEVICE_VPI:
      return "ARROW_DEVICE_VPI";
    case ARROW_DEVICE_ROCM:
      return "ARROW_DEVICE_ROCM";
    case ARROW_DEVICE_ROCM_HOST:
      return "ARROW_DEVICE_ROCM_HOST";
    case ARROW_DEVICE_EXT_DEV:
      return "ARROW_DEVICE_EXT_DEV";
    case ARROW_DEVICE_CUDA_MANAGED:
      return "ARROW_DEVICE_CUDA_MANAGED";
    case ARROW_DEVICE_ONEAPI:
      return "ARROW_DEVICE_ONEAPI";
    case ARROW_DEVICE_WEBGPU:
      return "ARROW_DEVICE_WEBGPU";
    case ARROW_DEVICE_HEXAGON:
      return "ARROW_DEVICE_HEXAGON";
    default:
      return "an unknown device type";
  }
}

static jg_status import_arrow_device(struct ArrowSchema *schema,
                                     struct ArrowDeviceArray *device_array, jg_stream stream,
                                     jg_array **out, jg_error *err) {
  if (out != NULL) *out = NULL;
  JG_RETURN_IF(schema == NULL || device_array == NULL || out == NULL, JG_EINVAL, err,
               "jg_array_import_arrow_device: %s is NULL",
               schema == NULL         ? "schema"
               : device_array == NULL ? "device_array"
                                      : "out");
  JG_RETURN_IF(schema->release == NULL, JG_EINVAL, err,
               "jg_array_import_arrow_device: the schema is released");
  JG_RETURN_IF(device_array->array.release == NULL, JG_EINVAL, err,
               "jg_array_import_arrow_device: the array is released");
  const ArrowDeviceType type = device_array->device_type;
  import_ctx ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.node_device.type = JG_DEVICE_CPU;
  ctx.node_device.id = 0;
  ctx.mr = jg_memory_resource_host();
  ctx.host_readable = true;
  if (type == ARROW_DEVICE_CPU) {
    ctx.view_device = ctx.node_device; /* sync_event has no meaning for the CPU: ignored */
    return import_root(&ctx, schema, &device_array->array, out, err);
  }
  JG_RETURN_IF(type != ARROW_DEVICE_CUDA && type != ARROW_DEVICE_CUDA_HOST &&
                   type != ARROW_DEVICE_CUDA_MANAGED,
               JG_ENOTSUP, err,
               "Arrow device type %s (%d) is not supported (jagged takes ARROW_DEVICE_CPU, "
               "ARROW_DEVICE_CUDA, ARROW_DEVICE_CUDA_HOST and ARROW_DEVICE_CUDA_MANAGED)",
               arrow_device_name(type), (int)type);
  const int64_t id64 = device_array->device_id;
  JG_RETURN_IF(type == ARROW_DEVICE_CUDA && (id64 < 0 || id64 > INT32_MAX), JG_EINVAL, err,
               "ArrowDeviceArray device_id %lld is not a CUDA device ordinal", (long long)id64);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const int id = id64 >= 0 && id64 <= INT32_MAX ? (int)id64 : 0;
  JG_RETURN_NOT_OK(jgi_cuda_check_device(id, err));
  int prev = 0;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(id, &prev, err));
  jg_status st = JG_OK;
  const cudaEvent_t *ev = (const cudaEvent_t *)device_array->sync_event;
  if (type == ARROW_DEVICE_CUDA) {
    ctx.view_device.type = JG_DEVICE_CUDA;
    ctx.view_device.id = id;
    ctx.node_device = ctx.view_device;
    ctx.host_readable = false;
    ctx.cuda = true;
    ctx.device_id = id;
    ctx.stream = stream;
    st = jg_memory_resource_device(id, &ctx.mr, err);
    if (st == JG_OK && ev != NULL)
      st = jgi_cuda_error(err, cudaStreamWaitEvent((cudaStream_t)stream, *ev, 0),
                          "cudaStreamWaitEvent");
  } else {
    ctx.view_device.type =
        type == ARROW_DEVICE_CUDA_HOST ? JG_DEVICE_CUDA_HOST : JG_DEVICE_CUDA_MANAGED;
    ctx.view_device.id = id;
    if (ev != NULL) st = jgi_cuda_error(err, cudaEventSynchronize(*ev), "cudaEventSynchronize");
  }
  if (st == JG_OK) st = import_root(&ctx, schema, &device_array->array, out, err);
  jgi_cuda_device_pop(prev, id);
  return st;
#else
  (void)stream;
  return jgi_cuda_require(err);
#endif
}

/* Any copy the import makes records its transfers under this call's name (jgi_transfer.h). */
jg_status jg_array_import_arrow_device(struct ArrowSchema *schema,
                                       struct ArrowDeviceArray *device_array, jg_stream stream,
                                       jg_array **out, jg_error *err) {
  jgi_call_enter("jg_array_import_arrow_device");
  const jg_status st = import_arrow_device(schema, device_array, stream, out, err);
  jgi_call_leave();
  return st;
}
