/* device_view.h: a read-only view of a jagged array as plain pointers and integers, for the
 * user's own CUDA kernels and for host code alike.
 *
 * The design is Awkward Array's lookup table for Numba-CUDA
 * (scikit-hep/awkward src/awkward/_lookup.py), written for C: the tree of layout nodes of a
 * jg_array is flattened into one table of jg_dnode records (pointers already adjusted to element
 * 0, strides in elements, small integers), the table is copied to device memory once, and a
 * jg_dview { table, root, count } is passed BY VALUE as a kernel argument. Every accessor below
 * is a static inline function (JG_HD: __host__ __device__ under nvcc) that reads one or two table
 * entries and at most one or two buffer elements: O(1) per access, to any nesting depth.
 *
 * The part of this header that kernels use (the jg_dnode / jg_dview types and the jg_dview_*
 * accessors) needs only <stdint.h> and <stdbool.h>: it compiles as C11, as C++ and as CUDA
 * device code (also under NVRTC, where the host API part is left out). The host API that builds
 * views (jg_array_device_view_create and friends, and the count / scan / fill output helper) is
 * declared at the end; it includes jagged/array.h and compiles in C and under nvcc alike.
 *
 * Node numbering: a view's nodes are numbered 0 .. nnodes-1, the root first. The children of a
 * node are contiguous (first_child .. first_child + nchildren - 1), so record field k is one
 * addition away. A numeric node whose data has ndim > 1 becomes ndim - 1 regular nodes over one
 * numeric leaf (as Awkward's lookup does), so "2 * 3 * float64" reads like regular lists.
 *
 * Example: the scalar sum of muon pt per event, for events of type
 * "n * var * {pt: float32, eta: float32, phi: float32, charge: int32}":
 *
 *   // host: the array must be on cuda:0 (jg_array_to_device) before the view is made
 *   jg_device_view *h = NULL;
 *   CHECK(jg_array_device_view_create(events_on_gpu, 0, stream, &h, &err));
 *   int pt = jg_array_field_index(jg_array_child(events_on_gpu, 0), "pt");
 *   sum_pt<<<blocks, threads, 0, (cudaStream_t)stream>>>(jg_device_view_get(h), pt, d_out);
 *   ... synchronise the stream, then jg_device_view_destroy(h);
 *
 *   // device:
 *   __global__ void sum_pt(jg_dview ev, int pt_field, float *out) {
 *     int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
 *     if (i >= jg_dview_length(ev, ev.root)) return;
 *     jg_drange muons = jg_dview_list(ev, ev.root, i);        // this event's muons
 *     int32_t rec = jg_dview_content(ev, ev.root);            // the record node
 *     int32_t pt = jg_dview_field(ev, rec, pt_field);         // its "pt" field (numeric)
 *     float s = 0.0f;
 *     for (int64_t j = muons.start; j < muons.stop; ++j) s += jg_dview_get_f32(ev, pt, j);
 *     out[i] = s;
 *   }
 *
 * The same kernel body runs on the host over jg_array_host_view_create(events_on_cpu, ...):
 * see examples/muons.cu and examples/muons_host.c.
 *
 * Accessors do no bounds or kind checks (as NumPy's unchecked indexing): indexes must be in
 * range and nodes of the kind the accessor expects, else the result is undefined. Validate the
 * array first (jg_array_validate at JG_VALIDATE_FULL) when it comes from outside. */
#ifndef JAGGED_DEVICE_VIEW_H
#define JAGGED_DEVICE_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define JG_HD __host__ __device__
#else
#define JG_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Node kinds: the numbers of jg_node_kind (array.h), pinned. */
#define JG_DV_NUMERIC 1
#define JG_DV_EMPTY 2
#define JG_DV_LIST_OFFSET 3
#define JG_DV_LIST 4
#define JG_DV_REGULAR 5
#define JG_DV_RECORD 6
#define JG_DV_BYTE_MASKED 7
#define JG_DV_BIT_MASKED 8
#define JG_DV_INDEXED_OPTION 9

/* Element types: the numbers of jg_dtype (types.h), pinned. */
#define JG_DV_BOOL 1
#define JG_DV_INT8 2
#define JG_DV_INT16 3
#define JG_DV_INT32 4
#define JG_DV_INT64 5
#define JG_DV_UINT8 6
#define JG_DV_UINT16 7
#define JG_DV_UINT32 8
#define JG_DV_UINT64 9
#define JG_DV_FLOAT16 10
#define JG_DV_FLOAT32 11
#define JG_DV_FLOAT64 12

/* jg_dnode.flags bits. */
#define JG_DV_VALID_WHEN 1u /**< masked: an entry is valid when its mask value is nonzero / 1 */
#define JG_DV_LSB_ORDER 2u  /**< bit-masked: bits counted from the least significant bit */
#define JG_DV_FLAT 4u       /**< numeric: element j is at ptr + j * stride (see jg_dnode) */

/** Most axes of a numeric node's data in a view (jg_array_device_view_create refuses more). */
#define JG_DVIEW_MAX_NDIM 8

/** One node of a flattened array. Plain data: every pointer is an address the view's side (the
 *  device for a device view, the host for a host view) may dereference, already moved to the
 *  node's element 0 (the buffer's slice offset applied). Strides are in ELEMENTS of `itemsize`
 *  bytes and may be negative or 0. Fields that do not apply to a kind are 0 (NULL).
 *
 *    kind            ptr            stops    dtype / itemsize      other fields
 *    NUMERIC         data           -        element type          ndim, shape, strides, stride,
 *                                                                  flags & JG_DV_FLAT
 *    EMPTY           -              -        -                     (length 0)
 *    LIST_OFFSET     offsets[0]     -        int32|int64 / 4|8     stride (of offsets)
 *    LIST            starts[0]      stops[0] int32|int64 / 4|8     stride, stops_stride
 *    REGULAR         -              -        -                     size
 *    RECORD          -              -        -                     (fields are the children)
 *    BYTE_MASKED     mask[0]        -        bool|int8|uint8 / 1   stride, flags VALID_WHEN
 *    BIT_MASKED      mask byte 0    -        uint8 / 1             stride (of bytes), bit_offset,
 *                                                                  flags VALID_WHEN, LSB_ORDER
 *    INDEXED_OPTION  index[0]       -        int32|int64 / 4|8     stride
 *
 *  Numeric nodes are the leaves. `length` is the number of elements over all `ndim` axes of the
 *  data (shape[0] * ... * shape[ndim-1]); element j is the C-order j-th element, at element
 *  offset sum(idx[a] * strides[a]) from ptr where idx is j unravelled over shape. When that
 *  mapping is j * stride for one stride (1-D data, or inner axes that merge), JG_DV_FLAT is set
 *  and `stride` holds it. The array's own numeric node with ndim d > 1 is represented by d - 1
 *  REGULAR nodes (sizes shape[1], ..., shape[d-1]) above the leaf. */
typedef struct jg_dnode {
  int32_t kind;        /**< JG_DV_NUMERIC ... JG_DV_INDEXED_OPTION */
  int32_t dtype;       /**< JG_DV_* element type of ptr's buffer (table above), 0 if none */
  int32_t itemsize;    /**< bytes per element of dtype (the offsets / index width: 4 or 8) */
  uint32_t flags;      /**< JG_DV_VALID_WHEN | JG_DV_LSB_ORDER | JG_DV_FLAT */
  int64_t length;      /**< entries of this node */
  const void *ptr;     /**< data / offsets / starts / mask / index at element 0 */
  const void *stops;   /**< LIST: stops at element 0 */
  int64_t stride;      /**< stride of ptr's buffer in elements (numeric: when JG_DV_FLAT) */
  int64_t stops_stride;/**< LIST: stride of stops in elements */
  int64_t size;        /**< REGULAR: list size (>= 0); 0 otherwise */
  int64_t bit_offset;  /**< BIT_MASKED: bit of entry 0 in byte 0, in [0, 8) */
  int32_t first_child; /**< node number of child 0 (content, or field 0); -1 when none */
  int32_t nchildren;   /**< 1 for lists, regular and options, nfields for records, else 0 */
  int32_t ndim;        /**< NUMERIC: axes of the data, 1 .. JG_DVIEW_MAX_NDIM */
  int32_t reserved;
  int64_t shape[JG_DVIEW_MAX_NDIM];   /**< NUMERIC: extents of the data's axes */
  int64_t strides[JG_DVIEW_MAX_NDIM]; /**< NUMERIC: strides of the data's axes, in elements */
} jg_dnode;

/** A view: the node table and the root's number. Pass it to kernels by value (16 bytes). The
 *  table lives on the side the view was made for; it is owned by the jg_device_view handle and
 *  must not be used after jg_device_view_destroy. */
typedef struct jg_dview {
  const jg_dnode *nodes; /**< nnodes entries (device memory for a device view) */
  int32_t root;          /**< number of the root node (0 for views made by jagged) */
  int32_t nnodes;
} jg_dview;

/** A half-open range [start, stop) of positions in a node's content. */
typedef struct jg_drange {
  int64_t start;
  int64_t stop;
} jg_drange;

/* ---- reading one integer of an index buffer ------------------------------------------------ */

/** Entry i of an int32 (width 4) or int64 (width 8) buffer at `p` with `stride` (elements). */
static inline JG_HD int64_t jg_dview_read_index(const void *p, int32_t width, int64_t stride,
                                                int64_t i) {
  return width == 4 ? (int64_t)((const int32_t *)p)[i * stride]
                    : ((const int64_t *)p)[i * stride];
}

/* ---- structure --------------------------------------------------------------------------- */

/** The node numbered `node`. */
static inline JG_HD const jg_dnode *jg_dview_node(jg_dview v, int32_t node) {
  return v.nodes + node;
}

/** The node's kind (JG_DV_*). */
static inline JG_HD int32_t jg_dview_kind(jg_dview v, int32_t node) {
  return v.nodes[node].kind;
}

/** Number of entries of `node` (the root's is the array's length). */
static inline JG_HD int64_t jg_dview_length(jg_dview v, int32_t node) {
  return v.nodes[node].length;
}

/** List i of a LIST_OFFSET (offsets[i], offsets[i+1]), LIST (starts[i], stops[i]) or REGULAR
 *  (i * size, (i + 1) * size) node: positions in jg_dview_content(v, node). */
static inline JG_HD jg_drange jg_dview_list(jg_dview v, int32_t node, int64_t i) {
  const jg_dnode *n = v.nodes + node;
  jg_drange r;
  if (n->kind == JG_DV_LIST_OFFSET) {
    r.start = jg_dview_read_index(n->ptr, n->itemsize, n->stride, i);
    r.stop = jg_dview_read_index(n->ptr, n->itemsize, n->stride, i + 1);
  } else if (n->kind == JG_DV_LIST) {
    r.start = jg_dview_read_index(n->ptr, n->itemsize, n->stride, i);
    r.stop = jg_dview_read_index(n->stops, n->itemsize, n->stops_stride, i);
  } else {
    r.start = i * n->size;
    r.stop = r.start + n->size;
  }
  return r;
}

/** The content of a list, regular or option node (its only child); field 0 of a record. */
static inline JG_HD int32_t jg_dview_content(jg_dview v, int32_t node) {
  return v.nodes[node].first_child;
}

/** Number of fields of a RECORD node (children of any other kind). */
static inline JG_HD int32_t jg_dview_nfields(jg_dview v, int32_t node) {
  return v.nodes[node].nchildren;
}

/** Field k (0 <= k < nfields, in the record's field order: jg_array_field_index gives it by
 *  name) of a RECORD node. Entry i of the record is entry i of each field. */
static inline JG_HD int32_t jg_dview_field(jg_dview v, int32_t node, int32_t k) {
  return v.nodes[node].first_child + k;
}

/* ---- options ----------------------------------------------------------------------------- */

/** Whether entry i of an option node holds a value (byte-masked: (mask[i] != 0) == valid_when;
 *  bit-masked: bit (bit_offset + i) == valid_when; indexed: index[i] >= 0). True for every other
 *  kind, so generic code may ask any node. */
static inline JG_HD bool jg_dview_is_valid(jg_dview v, int32_t node, int64_t i) {
  const jg_dnode *n = v.nodes + node;
  const bool vw = (n->flags & JG_DV_VALID_WHEN) != 0;
  switch (n->kind) {
    case JG_DV_BYTE_MASKED:
      return (((const uint8_t *)n->ptr)[i * n->stride] != 0) == vw;
    case JG_DV_BIT_MASKED: {
      const int64_t b = n->bit_offset + i;
      const unsigned byte = ((const uint8_t *)n->ptr)[(b >> 3) * n->stride];
      const unsigned bit = (n->flags & JG_DV_LSB_ORDER) ? (byte >> (b & 7)) & 1u
                                                         : (byte >> (7 - (b & 7))) & 1u;
      return (bit != 0) == vw;
    }
    case JG_DV_INDEXED_OPTION:
      return jg_dview_read_index(n->ptr, n->itemsize, n->stride, i) >= 0;
    default:
      return true;
  }
}

/** Position in jg_dview_content(v, node) of entry i of an option node, or -1 when the entry is
 *  None: index[i] for indexed options, i for masked ones. i itself for any other kind. */
static inline JG_HD int64_t jg_dview_option_index(jg_dview v, int32_t node, int64_t i) {
  const jg_dnode *n = v.nodes + node;
  if (n->kind == JG_DV_INDEXED_OPTION) {
    const int64_t k = jg_dview_read_index(n->ptr, n->itemsize, n->stride, i);
    return k < 0 ? -1 : k;
  }
  return jg_dview_is_valid(v, node, i) ? i : -1;
}

/* ---- numbers ----------------------------------------------------------------------------- */

/** Element offset (in elements of itemsize) of element j of a NUMERIC node from its ptr. */
static inline JG_HD int64_t jg_dview_element_offset(const jg_dnode *n, int64_t j) {
  if (n->flags & JG_DV_FLAT) return j * n->stride;
  int64_t off = 0;
  for (int32_t a = n->ndim - 1; a > 0; --a) {
    const int64_t e = n->shape[a];
    off += (j % e) * n->strides[a];
    j /= e;
  }
  return off + j * n->strides[0];
}

/** Address of element j of a NUMERIC node. */
static inline JG_HD const void *jg_dview_element_ptr(jg_dview v, int32_t node, int64_t j) {
  const jg_dnode *n = v.nodes + node;
  return (const char *)n->ptr + n->itemsize * jg_dview_element_offset(n, j);
}

/** IEEE binary16 bits to float (exact: every half is a float). */
static inline JG_HD float jg_dview_half_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1fu) {
    bits = sign | 0x7f800000u | (mant << 13); /* inf, nan */
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign; /* +-0 */
  } else {       /* subnormal: normalise */
    exp = 113u;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
  }
  union {
    uint32_t u;
    float f;
  } c;
  c.u = bits;
  return c.f;
}

/** Element j of a NUMERIC node as double (integers converted as C does; float16 widened). */
static inline JG_HD double jg_dview_get_f64(jg_dview v, int32_t node, int64_t j) {
  const void *p = jg_dview_element_ptr(v, node, j);
  switch (v.nodes[node].dtype) {
    case JG_DV_BOOL: return *(const uint8_t *)p != 0 ? 1.0 : 0.0;
    case JG_DV_INT8: return (double)*(const int8_t *)p;
    case JG_DV_INT16: return (double)*(const int16_t *)p;
    case JG_DV_INT32: return (double)*(const int32_t *)p;
    case JG_DV_INT64: return (double)*(const int64_t *)p;
    case JG_DV_UINT8: return (double)*(const uint8_t *)p;
    case JG_DV_UINT16: return (double)*(const uint16_t *)p;
    case JG_DV_UINT32: return (double)*(const uint32_t *)p;
    case JG_DV_UINT64: return (double)*(const uint64_t *)p;
    case JG_DV_FLOAT16: return (double)jg_dview_half_to_float(*(const uint16_t *)p);
    case JG_DV_FLOAT32: return (double)*(const float *)p;
    default: return *(const double *)p;
  }
}

/** Element j of a NUMERIC node as float (float64 and 64-bit integers rounded as C does). */
static inline JG_HD float jg_dview_get_f32(jg_dview v, int32_t node, int64_t j) {
  const void *p = jg_dview_element_ptr(v, node, j);
  switch (v.nodes[node].dtype) {
    case JG_DV_FLOAT32: return *(const float *)p;
    case JG_DV_FLOAT16: return jg_dview_half_to_float(*(const uint16_t *)p);
    case JG_DV_INT64: return (float)*(const int64_t *)p;
    case JG_DV_UINT64: return (float)*(const uint64_t *)p;
    default: return (float)jg_dview_get_f64(v, node, j);
  }
}

/** Element j of a NUMERIC node as int64: integers widened (uint64 above INT64_MAX wraps), bool
 *  as 0 / 1, floating-point values truncated toward zero (they must fit int64: as in C, NaN or
 *  out-of-range values give an undefined result). */
static inline JG_HD int64_t jg_dview_get_i64(jg_dview v, int32_t node, int64_t j) {
  const void *p = jg_dview_element_ptr(v, node, j);
  switch (v.nodes[node].dtype) {
    case JG_DV_BOOL: return *(const uint8_t *)p != 0;
    case JG_DV_INT8: return *(const int8_t *)p;
    case JG_DV_INT16: return *(const int16_t *)p;
    case JG_DV_INT32: return *(const int32_t *)p;
    case JG_DV_INT64: return *(const int64_t *)p;
    case JG_DV_UINT8: return *(const uint8_t *)p;
    case JG_DV_UINT16: return *(const uint16_t *)p;
    case JG_DV_UINT32: return *(const uint32_t *)p;
    case JG_DV_UINT64: return (int64_t)*(const uint64_t *)p;
    case JG_DV_FLOAT16: return (int64_t)jg_dview_half_to_float(*(const uint16_t *)p);
    case JG_DV_FLOAT32: return (int64_t)*(const float *)p;
    default: return (int64_t)*(const double *)p;
  }
}

/** Element j of a NUMERIC node as int32: jg_dview_get_i64 narrowed (two's complement wrap). */
static inline JG_HD int32_t jg_dview_get_i32(jg_dview v, int32_t node, int64_t j) {
  return (int32_t)(uint32_t)(uint64_t)jg_dview_get_i64(v, node, j);
}

/** Element j of a NUMERIC node as bool: nonzero (NaN included) is true. */
static inline JG_HD bool jg_dview_get_bool(jg_dview v, int32_t node, int64_t j) {
  const int32_t dt = v.nodes[node].dtype;
  if (dt == JG_DV_FLOAT16 || dt == JG_DV_FLOAT32 || dt == JG_DV_FLOAT64)
    return jg_dview_get_f64(v, node, j) != 0.0;
  return jg_dview_get_i64(v, node, j) != 0;
}

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* Host API: building views, and output from device code (not under NVRTC)                     */
/* ------------------------------------------------------------------------------------------ */
#if !defined(__CUDACC_RTC__) && !defined(JG_DVIEW_NO_HOST_API)

#include "jagged/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A view handle: owns the node table (a host copy, plus a device copy for device views) and a
 *  reference to the array, whose buffers the table points into. */
typedef struct jg_device_view jg_device_view;

/** Flattens `a` into a node table for kernels on CUDA device `device_id` and copies the table to
 *  device memory of that device, enqueued on `stream` (NULL: the legacy default stream; a
 *  non-NULL stream must belong to `device_id`). Launch the kernels that use the view on `stream`,
 *  or synchronise it first. `device_id` -1 makes a host view instead (jg_array_host_view_create).
 *
 *  Every buffer of `a` must be dereferenceable by kernels on `device_id`: device memory of that
 *  device (a cuda:N array), or pinned or managed host memory (their device addresses are used).
 *  `*out` receives a new handle (NULL on error); it retains `a` and holds the table until
 *  jg_device_view_destroy. Not thread-safe on one handle; distinct handles are independent.
 *  The view reads no buffer: its lists, offsets and option indexes are the array's as they are
 *  (O(nodes) to make, no check of the data); for an array from an untrusted source, run
 *  jg_array_validate(JG_VALIDATE_FULL) before the kernels that read through the view.
 *  Errors, in the order checked: JG_EINVAL (NULL a or out; device_id < -1), JG_ENOTSUP (data
 *  with more than JG_DVIEW_MAX_NDIM axes; more than INT32_MAX nodes), JG_EBACKEND ("argument is
 *  on cpu: copy it to the device first with jg_array_to_device" for pageable host memory;
 *  "argument is on cuda:M: copy it with jg_array_to_device(..., N, ...)" for device memory of
 *  another device), JG_ENODEV / JG_EINDEX (no such device), JG_EDEVMEM, JG_ENOMEM, JG_ECUDA. */
JG_API jg_status jg_array_device_view_create(const jg_array *a, int device_id, jg_stream stream,
                                             jg_device_view **out, jg_error *err);

/** A host view of `a`: the same table in host memory, with host addresses, so that the jg_dview
 *  accessors work in host code. Every buffer must be host-accessible (a cpu array). Needs no GPU.
 *  Errors: JG_EINVAL (NULL a or out), JG_ENOTSUP (as above), JG_EBACKEND ("argument is on
 *  cuda:N: copy it to the host first with jg_array_to_host"), JG_ENOMEM. */
JG_API jg_status jg_array_host_view_create(const jg_array *a, jg_device_view **out,
                                           jg_error *err);

/** The view to pass to kernels (device views) or to use in host code (host views), by value.
 *  Its table is valid until jg_device_view_destroy. A NULL handle gives {NULL, 0, 0}. */
JG_API jg_dview jg_device_view_get(const jg_device_view *h);

/** The same table in host memory, for inspecting a device view's structure on the host (kinds,
 *  lengths, children); its pointers are those of the view's side, so for a device view the
 *  buffers must not be read through it. A NULL handle gives {NULL, 0, 0}. */
JG_API jg_dview jg_device_view_host_table(const jg_device_view *h);

/** The device the view was made for, or -1 for a host view (and for NULL). */
JG_API int jg_device_view_device(const jg_device_view *h);

/** The array the view reads (borrowed: valid while the handle is). NULL for NULL. */
JG_API const jg_array *jg_device_view_array(const jg_device_view *h);

/** Frees the table (device memory with cudaFree: call it once the kernels that use the view have
 *  finished) and releases the array. NULL is a no-op. */
JG_API void jg_device_view_destroy(jg_device_view *h);

/* ------------------------------------------------------------------------------------------ */
/* Output from device code: count, scan, fill                                                  */
/* ------------------------------------------------------------------------------------------ */

/** Building a new list-offset array on the GPU from kernels, in three steps:
 *
 *    1. jg_list_output_begin(n, dtype, device_id, stream, &out, &err) allocates n int64 counts
 *       on `device_id`, zeroed on `stream`. The user's first kernel writes, for each list i in
 *       [0, n), how many items list i will have into counts[i] (jg_list_output_counts(out)),
 *       plainly or with atomicAdd.
 *    2. jg_list_output_scan(out, &err) turns them into n + 1 int64 offsets (offsets[0] = 0,
 *       offsets[i + 1] = offsets[i] + counts[i]: cub::DeviceScan::ExclusiveSum on `stream`),
 *       copies the total (offsets[n]) back, and allocates a content buffer of that many items of
 *       `dtype`. The user's second kernel writes the items of list i to
 *       content[offsets[i] .. offsets[i + 1]) (jg_list_output_offsets / jg_list_output_content).
 *    3. jg_list_output_finish(out, &array, &err) wraps offsets and content into a list-offset
 *       jg_array on cuda:device_id ("n * var * dtype") without copying; then
 *       jg_list_output_destroy(out) (always, also after errors).
 *
 *  Example (muons with pt > 20 per event; examples/muons.cu has it in full):
 *
 *    jg_list_output *o = NULL;
 *    CHECK(jg_list_output_begin(n, JG_DTYPE_FLOAT32, 0, stream, &o, &err));
 *    count_kernel<<<g, b, 0, s>>>(view, jg_list_output_counts(o));       // counts[i] = ...
 *    CHECK(jg_list_output_scan(o, &err));                                 // synchronises
 *    fill_kernel<<<g, b, 0, s>>>(view, jg_list_output_offsets(o),
 *                                (float *)jg_list_output_content(o));    // content[...] = ...
 *    CHECK(jg_list_output_finish(o, &selected, &err));
 *    jg_list_output_destroy(o);
 *
 *  `device_id` -1 does the same with host memory (counts, offsets and content in pageable host
 *  memory, a host loop for the scan, a cpu array), so the steps can be written and tested on the
 *  host. Every call is stream-ordered on `stream`; scan waits for it (to read the total back).
 *  The result's buffers are complete when `stream` reaches finish: use the array on `stream` or
 *  synchronise it. A handle is used by one thread at a time. */
typedef struct jg_list_output jg_list_output;

/** Step 1: a new handle for `n` >= 0 lists of items of `dtype` (bool, int8..uint64, float16,
 *  float32, float64) on CUDA device `device_id` (or -1: host memory), with n zeroed int64 counts.
 *  Errors: JG_EINVAL (NULL out, n < 0, device_id < -1), JG_EDTYPE, JG_EOVERFLOW ((n + 1) * 8
 *  bytes overflow), JG_ENODEV, JG_EINDEX, JG_EDEVMEM, JG_ENOMEM, JG_ECUDA. `*out` NULL on error. */
JG_API jg_status jg_list_output_begin(jg_len n, jg_dtype dtype, int device_id, jg_stream stream,
                                      jg_list_output **out, jg_error *err);

/** The n counts (int64, memory of the handle's device: write them from kernels there; NULL when
 *  n is 0). Valid until jg_list_output_destroy. NULL for a NULL handle. */
JG_API int64_t *jg_list_output_counts(const jg_list_output *o);

/** Step 2: scans the counts into offsets, synchronises the stream, reads the total and allocates
 *  the content. Errors: JG_EINVAL (NULL), JG_ESTATE (already scanned), JG_EVALUE (a negative
 *  count; index = the first such list, the message gives its value), JG_EOVERFLOW (the running
 *  sum leaves int64, index = the list; or total * itemsize bytes overflow), JG_EDEVMEM,
 *  JG_ENOMEM, JG_ECUDA (also an earlier asynchronous error of the user's kernels on `stream`). */
JG_API jg_status jg_list_output_scan(jg_list_output *o, jg_error *err);

/** The n + 1 offsets (int64, the handle's device), valid after jg_list_output_scan; else NULL. */
JG_API int64_t *jg_list_output_offsets(const jg_list_output *o);

/** The content: total items of the handle's dtype (the handle's device; NULL before the scan
 *  and when the total is 0). */
JG_API void *jg_list_output_content(const jg_list_output *o);

/** The total number of items (offsets[n]) after the scan; -1 before it (and for NULL). */
JG_API jg_len jg_list_output_total(const jg_list_output *o);

/** Step 3: a new list-offset array (one reference, to release) over the offsets and content,
 *  sharing them (the handle keeps no way to write them afterwards: the pointers above must not
 *  be written once finish was called). Errors: JG_EINVAL (NULL), JG_ESTATE (not scanned yet, or
 *  already finished), JG_ENOMEM, and those of jg_array_numeric / jg_array_list_offset. */
JG_API jg_status jg_list_output_finish(jg_list_output *o, jg_array **out, jg_error *err);

/** Frees the handle and drops its references to the buffers (those shared with a finished array
 *  live on with it). Counts and offsets not wrapped into an array are freed. NULL is a no-op. */
JG_API void jg_list_output_destroy(jg_list_output *o);

#ifdef __cplusplus
}
#endif

#endif /* host API */

#endif /* JAGGED_DEVICE_VIEW_H */
