/* device_view.c: flattening a jg_array into the node table of device_view.h, for kernels on one
 * CUDA device or for host code.
 *
 * The tree is walked twice: once to count the nodes (a numeric node of ndim d takes d slots), once
 * to fill them. Filling reserves the slots of all of a node's children together before descending
 * into them, so that children are contiguous (record field k = first_child + k); the root is
 * node 0 and every node's children come after it. */
#include "jagged/device_view.h"

#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_transfer.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

/* The header's numbers are the library's enums (pinned on both sides). */
_Static_assert(JG_DV_NUMERIC == JG_NODE_NUMERIC && JG_DV_EMPTY == JG_NODE_EMPTY &&
                   JG_DV_LIST_OFFSET == JG_NODE_LIST_OFFSET && JG_DV_LIST == JG_NODE_LIST &&
                   JG_DV_REGULAR == JG_NODE_REGULAR && JG_DV_RECORD == JG_NODE_RECORD &&
                   JG_DV_BYTE_MASKED == JG_NODE_BYTE_MASKED &&
                   JG_DV_BIT_MASKED == JG_NODE_BIT_MASKED &&
                   JG_DV_INDEXED_OPTION == JG_NODE_INDEXED_OPTION,
               "device_view.h node kinds differ from jg_node_kind");
_Static_assert(JG_DV_BOOL == JG_DTYPE_BOOL && JG_DV_INT8 == JG_DTYPE_INT8 &&
                   JG_DV_INT16 == JG_DTYPE_INT16 && JG_DV_INT32 == JG_DTYPE_INT32 &&
                   JG_DV_INT64 == JG_DTYPE_INT64 && JG_DV_UINT8 == JG_DTYPE_UINT8 &&
                   JG_DV_UINT16 == JG_DTYPE_UINT16 && JG_DV_UINT32 == JG_DTYPE_UINT32 &&
                   JG_DV_UINT64 == JG_DTYPE_UINT64 && JG_DV_FLOAT16 == JG_DTYPE_FLOAT16 &&
                   JG_DV_FLOAT32 == JG_DTYPE_FLOAT32 && JG_DV_FLOAT64 == JG_DTYPE_FLOAT64,
               "device_view.h dtypes differ from jg_dtype");
_Static_assert(sizeof(jg_dview) == 16, "jg_dview is a pointer and two int32");

/* Deepest tree the recursive walks accept (far beyond any real array; keeps the stack bounded). */
#define MAX_DEPTH 10000

struct jg_device_view {
  jg_array *array;      /* retained */
  jg_dnode *host_nodes; /* nnodes entries, malloc'd */
  int32_t nnodes;
  int device_id;        /* -1: host view */
  jg_buffer *table;     /* device copy of host_nodes (device views), else NULL */
  jg_dview view;        /* what jg_device_view_get returns */
};

typedef struct flatten_ctx {
  int device_id;        /* -1 for host views */
  const char *fn;
  jg_dnode *nodes;
  int32_t next;         /* next free slot */
} flatten_ctx;

/* ---- counting ---------------------------------------------------------------------------- */

static jg_status count_nodes(const jg_array *a, int depth, const char *fn, int64_t *count,
                             jg_error *err) {
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err, "%s: the array is nested deeper than %d levels",
               fn, MAX_DEPTH);
  int64_t self = 1;
  if (a->kind == JG_NODE_NUMERIC) {
    const int ndim = a->buffers[0].layout.ndim;
    JG_RETURN_IF(ndim < 1 || ndim > JG_DVIEW_MAX_NDIM, JG_ENOTSUP, err,
                 "%s: numeric data with %d axes (a device view takes 1 to %d)", fn, ndim,
                 JG_DVIEW_MAX_NDIM);
    self = ndim;
  }
  *count += self;
  JG_RETURN_IF(*count > INT32_MAX, JG_ENOTSUP, err, "%s: the array has more than %d nodes", fn,
               (int)INT32_MAX);
  for (int k = 0; k < a->nchildren; ++k)
    JG_RETURN_NOT_OK(count_nodes(a->children[k], depth + 1, fn, count, err));
  return JG_OK;
}

/* ---- pointers ---------------------------------------------------------------------------- */

static const char *device_name(jg_device d, char *buf, size_t size) {
  jg_device n = {JG_DEVICE_CPU, 0};
  if (d.type == JG_DEVICE_CUDA) n = d;
  return jgi_device_name(n, buf, size);
}

/* Address of element 0 of `view` for the view's side: the host address for host views (the
 * memory must be host-accessible), an address kernels on ctx->device_id may use for device
 * views. */
static jg_status element0(const flatten_ctx *ctx, const jg_view *view, const void **out,
                          jg_error *err) {
  const uintptr_t host_addr =
      (uintptr_t)view->base + (uintptr_t)(view->layout.itemsize * view->layout.slice_offset);
  char name[32];
  if (ctx->device_id < 0) {
    JG_RETURN_IF(!view->host_accessible, JG_EBACKEND, err,
                 "argument is on %s: copy it to the host first with jg_array_to_host",
                 device_name(view->device, name, sizeof name));
    *out = (const void *)host_addr;
    return JG_OK;
  }
  if (view->device.type == JG_DEVICE_CUDA) {
    JG_RETURN_IF(view->device.id != ctx->device_id, JG_EBACKEND, err,
                 "argument is on cuda:%d: copy it with jg_array_to_device(..., %d, ...)",
                 (int)view->device.id, ctx->device_id);
    *out = (const void *)host_addr;
    return JG_OK;
  }
  JG_RETURN_IF(!view->device_accessible || view->device.type == JG_DEVICE_CPU, JG_EBACKEND, err,
               "argument is on cpu: copy it to the device first with jg_array_to_device");
  /* Pinned or managed host memory: kernels use the runtime's device alias (the same address
   * wherever unified addressing lets host pointers be used, i.e. on every current GPU). */
  jg_pointer_attributes attrs;
  memset(&attrs, 0, sizeof attrs);
  if (view->buffer != NULL) JG_RETURN_NOT_OK(jg_buffer_attributes(view->buffer, &attrs, err));
  if (attrs.device_pointer != NULL && attrs.host_pointer != NULL &&
      attrs.device_pointer != attrs.host_pointer) {
    *out = (const void *)((uintptr_t)attrs.device_pointer +
                          (host_addr - (uintptr_t)attrs.host_pointer));
  } else {
    *out = (const void *)host_addr;
  }
  return JG_OK;
}

/* ---- filling ----------------------------------------------------------------------------- */

/* Whether C-order element j of a layout is at j * (*flat) for one stride, and which. */
static bool merge_strides(const jg_layout *l, int64_t *flat) {
  int last = -1;
  for (int a = l->ndim - 1; a >= 0; --a)
    if (l->shape[a] != 1) {
      last = a;
      break;
    }
  const int64_t f = last < 0 ? 1 : l->strides[last];
  *flat = f;
  for (int a = 0; a < l->ndim; ++a)
    if (l->shape[a] == 0) return true; /* no elements: any stride */
  int64_t inner = 1;                   /* product of the extents right of axis a */
  for (int a = l->ndim - 1; a >= 0; --a) {
    if (l->shape[a] != 1) {
      int64_t want = 0;
      if (jgi_mul_overflow(f, inner, &want) || l->strides[a] != want) return false;
    }
    if (jgi_mul_overflow(inner, l->shape[a], &inner)) return false;
  }
  return true;
}

static jg_status fill_node(flatten_ctx *ctx, const jg_array *a, int32_t slot, jg_error *err);

/* Reserves contiguous slots for a's children in `n` and fills them. */
static jg_status fill_children(flatten_ctx *ctx, const jg_array *a, jg_dnode *n,
                               jg_error *err) {
  n->nchildren = a->nchildren;
  n->first_child = a->nchildren > 0 ? ctx->next : -1;
  const int32_t first = ctx->next;
  ctx->next += a->nchildren; /* count_nodes bounded the total by INT32_MAX */
  for (int k = 0; k < a->nchildren; ++k)
    JG_RETURN_NOT_OK(fill_node(ctx, a->children[k], first + k, err));
  return JG_OK;
}

static jg_status fill_numeric(flatten_ctx *ctx, const jg_array *a, int32_t slot,
                              jg_error *err) {
  const jg_view *data = &a->buffers[0];
  const jg_layout *l = &data->layout;
  const void *ptr = NULL;
  JG_RETURN_NOT_OK(element0(ctx, data, &ptr, err));
  /* Axes 1 .. ndim-1 become regular nodes above the leaf: slot, then one new slot each. */
  int64_t outer = a->length;
  for (int ax = 1; ax < l->ndim; ++ax) {
    jg_dnode *r = &ctx->nodes[slot];
    r->kind = JG_DV_REGULAR;
    r->length = outer;
    r->size = l->shape[ax];
    r->first_child = ctx->next;
    r->nchildren = 1;
    slot = ctx->next++;
    outer *= l->shape[ax]; /* <= the layout's volume, which fits int64 */
  }
  jg_dnode *n = &ctx->nodes[slot];
  n->kind = JG_DV_NUMERIC;
  n->dtype = (int32_t)data->dtype;
  n->itemsize = (int32_t)l->itemsize;
  n->length = outer;
  n->ptr = ptr;
  n->ndim = l->ndim;
  n->first_child = -1;
  for (int ax = 0; ax < l->ndim; ++ax) {
    n->shape[ax] = ax == 0 ? a->length : l->shape[ax];
    n->strides[ax] = l->strides[ax];
  }
  int64_t flat = 0;
  if (l->ndim == 1 || merge_strides(l, &flat)) {
    n->flags |= JG_DV_FLAT;
    n->stride = l->ndim == 1 ? l->strides[0] : flat;
  }
  return JG_OK;
}

static jg_status fill_node(flatten_ctx *ctx, const jg_array *a, int32_t slot, jg_error *err) {
  if (a->kind == JG_NODE_NUMERIC) return fill_numeric(ctx, a, slot, err);
  jg_dnode *n = &ctx->nodes[slot];
  n->kind = (int32_t)a->kind;
  n->length = a->length;
  n->first_child = -1;
  switch (a->kind) {
    case JG_NODE_EMPTY:
      break;
    case JG_NODE_LIST:
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_INDEXED_OPTION:
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED: {
      const jg_view *b = &a->buffers[0];
      JG_RETURN_NOT_OK(element0(ctx, b, &n->ptr, err));
      n->dtype = (int32_t)b->dtype;
      n->itemsize = (int32_t)b->layout.itemsize;
      n->stride = b->layout.strides[0];
      if (a->kind == JG_NODE_LIST) { /* starts are read like offsets; stops alike */
        JG_RETURN_NOT_OK(element0(ctx, &a->buffers[1], &n->stops, err));
        n->stops_stride = a->buffers[1].layout.strides[0];
      }
      if (a->kind == JG_NODE_BYTE_MASKED || a->kind == JG_NODE_BIT_MASKED) {
        if (a->valid_when) n->flags |= JG_DV_VALID_WHEN;
        if (a->kind == JG_NODE_BIT_MASKED) {
          if (a->lsb_order) n->flags |= JG_DV_LSB_ORDER;
          n->bit_offset = a->bit_offset;
        }
      }
      break;
    }
    case JG_NODE_REGULAR:
      n->size = a->regular_size;
      break;
    case JG_NODE_RECORD:
      break;
    default:
      return jg_error_set(err, JG_EINTERNAL, -1, "%s: unknown node kind %d", ctx->fn,
                          (int)a->kind);
  }
  return fill_children(ctx, a, n, err);
}

/* ---- handles ----------------------------------------------------------------------------- */

static jg_status view_create(const jg_array *a, int device_id, jg_stream stream,
                             jg_device_view **out, const char *fn, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: the array is NULL", fn);
  JG_RETURN_IF_AT(device_id < -1, JG_EINVAL, err, device_id, "%s: bad device id %d", fn,
                  device_id);
  int64_t count = 0;
  JG_RETURN_NOT_OK(count_nodes(a, 0, fn, &count, err));
  jg_dnode *nodes = calloc((size_t)count, sizeof *nodes);
  JG_RETURN_IF(nodes == NULL, JG_ENOMEM, err, "%s: cannot allocate %lld nodes", fn,
               (long long)count);
  flatten_ctx ctx = {device_id, fn, nodes, 1};
  jg_status st = fill_node(&ctx, a, 0, err);
  if (st != JG_OK) {
    free(nodes);
    return st;
  }
  JG_DCHECK(ctx.next == count);
  jg_device_view *h = calloc(1, sizeof *h);
  if (h == NULL) {
    free(nodes);
    return jg_error_set(err, JG_ENOMEM, -1, "%s: cannot allocate the handle", fn);
  }
  h->host_nodes = nodes;
  h->nnodes = (int32_t)count;
  h->device_id = device_id;
  h->view.nodes = nodes;
  h->view.root = 0;
  h->view.nnodes = (int32_t)count;
  if (device_id >= 0) {
    const size_t bytes = (size_t)count * sizeof *nodes;
    jg_memory_resource *mr = NULL;
    st = jg_memory_resource_device(device_id, &mr, err);
    if (st == JG_OK) st = jg_buffer_allocate(mr, bytes, stream, &h->table, err);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    if (st == JG_OK) {
      int prev = 0;
      st = jgi_cuda_device_push(device_id, &prev, err);
      if (st == JG_OK) {
        st = jgi_cuda_error(err,
                            cudaMemcpyAsync(jg_buffer_data(h->table), nodes, bytes,
                                            cudaMemcpyHostToDevice, (cudaStream_t)stream),
                            "cudaMemcpyAsync (device view table)");
        if (st == JG_OK) {
          jgi_transfer_record(JG_TRANSFER_TO_DEVICE, bytes, "device view: node table");
        }
        jgi_cuda_device_pop(prev, device_id);
      }
    }
#else
    if (st == JG_OK) st = jg_error_set(err, JG_ENODEV, -1, "%s: built without CUDA", fn);
#endif
    if (st != JG_OK) {
      jg_device_view_destroy(h);
      return st;
    }
    h->view.nodes = (const jg_dnode *)jg_buffer_data(h->table);
  }
  h->array = jg_array_retain((jg_array *)a); /* immutable; the count is atomic */
  *out = h;
  return JG_OK;
}

jg_status jg_array_device_view_create(const jg_array *a, int device_id, jg_stream stream,
                                      jg_device_view **out, jg_error *err) {
  return view_create(a, device_id, stream, out, "jg_array_device_view_create", err);
}

jg_status jg_array_host_view_create(const jg_array *a, jg_device_view **out, jg_error *err) {
  return view_create(a, -1, NULL, out, "jg_array_host_view_create", err);
}

jg_dview jg_device_view_get(const jg_device_view *h) {
  jg_dview none = {NULL, 0, 0};
  return h == NULL ? none : h->view;
}

jg_dview jg_device_view_host_table(const jg_device_view *h) {
  jg_dview none = {NULL, 0, 0};
  if (h == NULL) return none;
  jg_dview v = {h->host_nodes, 0, h->nnodes};
  return v;
}

int jg_device_view_device(const jg_device_view *h) { return h == NULL ? -1 : h->device_id; }

const jg_array *jg_device_view_array(const jg_device_view *h) {
  return h == NULL ? NULL : h->array;
}

void jg_device_view_destroy(jg_device_view *h) {
  if (h == NULL) return;
  jg_buffer_release(h->table);
  free(h->host_nodes);
  jg_array_release(h->array);
  free(h);
}
