/* jgi_array.h: the layout node behind jg_array (array.h) and helpers shared by the files that
 * build or read nodes: src/core/array.c (constructors, slice, zip, backends), array_print.c,
 * builder.c, device_view.c, src/kernels/validate/, src/io/arrow/ (internal).
 *
 * Owned by src/core/array.c. Readers may look at every field; only the jgi_array_* helpers
 * below should create nodes or change them (a node is immutable once jgi_array_finish returned
 * JG_OK and it was handed out).
 *
 * The struct is visible to C only (its reference count is a C11 _Atomic); CUDA (.cu) sources get
 * the helper declarations, which take the node through pointers. */
#ifndef JAGGED_JGI_ARRAY_H
#define JAGGED_JGI_ARRAY_H

#include "internal/jgi_check.h"
#include "jagged/array.h"

#ifndef __cplusplus
#include <stdatomic.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Most buffers one node holds (list: starts and stops). */
#define JGI_ARRAY_MAX_BUFFERS 2

#ifndef __cplusplus
/** One layout node (see the table at the top of array.h).
 *
 *  buffers, by kind (nbuffers of them; unused slots are zeroed):
 *    NUMERIC         [0] data: ndim >= 1, any strides, length = shape[0]
 *    EMPTY           none
 *    LIST_OFFSET     [0] offsets: 1-D int32|int64, length + 1 entries
 *    LIST            [0] starts, [1] stops: 1-D, same dtype int32|int64, len(stops) >= length
 *    REGULAR         none (regular_size >= 0)
 *    RECORD          none (nchildren fields; names[k] or NULL names for a tuple)
 *    BYTE_MASKED     [0] mask: 1-D int8|uint8|bool, >= length entries
 *    BIT_MASKED      [0] mask: 1-D uint8; entry i is bit (bit_offset + i) of the mask, bits
 *                    counted from the LSB of each byte when lsb_order, else from the MSB, so
 *                    the mask has >= ceil((bit_offset + length) / 8) bytes
 *    INDEXED_OPTION  [0] index: 1-D int32|int64, length entries, < 0 is None
 *  Every buffers[k].buffer is non-NULL and holds one reference owned by the node. Views may be
 *  sliced (slice_offset != 0, any stride), so read elements through the layout (see
 *  jgi_view_get_index), never as base[i].
 *
 *  children: 1 for LIST_OFFSET, LIST, REGULAR and the three options (the content), nchildren
 *  fields for RECORD, none for NUMERIC and EMPTY; each holds one reference owned by the node.
 *  Content lengths: list-offset and list contents may be longer than needed; regular content has
 *  >= length * regular_size entries; record fields >= length; byte-masked and bit-masked
 *  content >= length; indexed-option content any length (indexes point into it).
 *
 *  Backend and device: `device` is normalised to {JG_DEVICE_CPU, 0} (backend cpu: every buffer
 *  is host-accessible: pageable, pinned, registered or managed memory) or {JG_DEVICE_CUDA, N}
 *  (backend cuda: device-only memory of GPU N). Every buffer and child of a node has the node's
 *  device; a node without buffers or children (EMPTY, a record of 0 fields) has the device it was
 *  made with (cpu from the public constructors, cuda:N after jg_array_to_device). */
struct jg_array {
  atomic_size_t refcount;      /**< references; the last jg_array_release frees the node */
  jg_node_kind kind;
  jg_len length;               /**< entries at this level */
  jg_device device;            /**< {CPU, 0} or {CUDA, N}, see above */
  jg_backend backend;          /**< JG_BACKEND_CPU or JG_BACKEND_CUDA, matching device */
  jg_view buffers[JGI_ARRAY_MAX_BUFFERS]; /**< see above; each .buffer retained */
  int nbuffers;
  jg_len regular_size;         /**< REGULAR: the list size (>= 0); -1 for other kinds */
  jg_len bit_offset;           /**< BIT_MASKED: bit of entry 0, in [0, 8) (non-zero after a slice
                                    that does not start on a byte); 0 for other kinds */
  bool valid_when;             /**< BYTE_MASKED, BIT_MASKED: the mask value meaning "valid" */
  bool lsb_order;              /**< BIT_MASKED: bit order; false for other kinds */
  int nchildren;
  jg_array **children;         /**< nchildren entries, each retained; NULL when nchildren is 0 */
  char **names;                /**< RECORD: nchildren NUL-terminated names (owned, malloc'd);
                                    NULL for tuples and other kinds */
};
#endif /* !__cplusplus */

/* ---- building nodes (src/core/array.c) ---------------------------------------------------- */

/** A new node of `kind` with one reference, length 0, device cpu, regular_size -1, bit_offset 0,
 *  valid_when and lsb_order false, no buffers and `nchildren` (>= 0) NULL child slots (fill
 *  them all with jgi_array_set_child before jgi_array_finish). `*out` is NULL on error.
 *  Errors: JG_EINVAL (NULL out, nchildren < 0), JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_array_new(jg_node_kind kind, int nchildren, jg_array **out,
                                   jg_error *err);

/** Stores a copy of `view` as buffer `k` (< JGI_ARRAY_MAX_BUFFERS) of a node under construction,
 *  retaining view->buffer (must be non-NULL) and releasing what slot k held; nbuffers becomes
 *  at least k + 1. Never fails given valid arguments. */
JGI_HIDDEN void jgi_array_set_buffer(jg_array *a, int k, const jg_view *view);

/** Stores `child` (non-NULL, retained) as child `k` (< nchildren) of a node under construction,
 *  releasing what slot k held. */
JGI_HIDDEN void jgi_array_set_child(jg_array *a, int k, jg_array *child);

/** Copies the nchildren field names of a RECORD node under construction (NULL `names`: a
 *  tuple, names stays NULL). Errors: JG_EINVAL (a NULL or empty name, or a duplicate; index =
 *  field), JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_array_set_names(jg_array *a, const char *const *names, jg_error *err);

/** Completes a node: derives `device` and `backend` from its buffers (jgi_view_device) and
 *  children, and checks they all agree; a node with neither keeps the device it has. Call it
 *  once everything is set. Does no other validation (the constructors do MINIMAL checks
 *  themselves). Errors: JG_EINVAL (a child slot still NULL; a buffer neither host- nor
 *  device-accessible), JG_EBACKEND (two buffers or children on different devices; the message
 *  names both, e.g. "content is on cuda:0, offsets on cpu"). The caller releases the node on
 *  error. */
JGI_HIDDEN jg_status jgi_array_finish(jg_array *a, jg_error *err);

/* ---- reading nodes ----------------------------------------------------------------------- */

/** The normalised device of the memory a view describes: {JG_DEVICE_CPU, 0} when it is
 *  host-accessible (pageable, pinned, registered, managed), {JG_DEVICE_CUDA, device.id} when it
 *  is only device-accessible. Errors: JG_EINVAL (neither). Reads no memory. */
JGI_HIDDEN jg_status jgi_view_device(const jg_view *view, jg_device *out, jg_error *err);

/** Element `i` of a 1-D integer view (int8..int64, uint8..uint64, bool) widened to int64
 *  (uint64 values above INT64_MAX wrap). The view must be host-accessible and 0 <= i <
 *  shape[0]: nothing is checked (callers check first). Honours slice_offset and strides. */
JGI_HIDDEN int64_t jgi_view_get_index(const jg_view *view, jg_len i);

/** Entries lo .. lo + n - 1 of a host-accessible 1-D integer view, widened to int64 as
 *  jgi_view_get_index does, into out[0 .. n-1]: the dtype is looked at once, not per entry, so
 *  loops over offsets and counters read them in chunks through this. Not checked. */
JGI_HIDDEN void jgi_view_read_index(const jg_view *view, jg_len lo, jg_len n, int64_t *out);

/** The integer of `dtype` (int8..int64, uint8..uint64, bool) stored at host address `p`, widened
 *  to int64 (uint64 values above INT64_MAX wrap); 0 for other dtypes. Nothing is checked. */
JGI_HIDDEN int64_t jgi_index_at(const void *p, jg_dtype dtype);

/** Address of element `i` along axis 0 of a host-accessible view (ndim >= 1): base + itemsize *
 *  (slice_offset + i * strides[0]). Not checked. */
JGI_HIDDEN void *jgi_view_element_ptr(const jg_view *view, jg_len i);

/** The kind's name in messages: "numeric", "empty", "list-offset", "list", "regular", "record",
 *  "byte-masked", "bit-masked", "indexed-option"; "unknown" otherwise. Static storage. */
JGI_HIDDEN const char *jgi_array_node_name(jg_node_kind kind);

/** The name of buffer `k` of a node of `kind` in messages: "data", "offsets", "starts" (k 0) /
 *  "stops" (k 1), "mask", "index"; "buffer" for kinds without buffers. Static storage. */
JGI_HIDDEN const char *jgi_array_buffer_name(jg_node_kind kind, int k);

/** "cpu" or "cuda:N" for a normalised device into `buf` (size >= 16 recommended; truncated and
 *  NUL-terminated when shorter; nothing written when size is 0); returns buf. */
JGI_HIDDEN const char *jgi_device_name(jg_device device, char *buf, size_t size);

/** Whether two normalised devices are the same (type and id). */
JGI_HIDDEN bool jgi_device_equal(jg_device a, jg_device b);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_JGI_ARRAY_H */
