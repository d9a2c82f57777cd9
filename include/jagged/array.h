/* array.h: jagged arrays: Awkward Array's layouts over jagged buffers, on one backend.
 *
 * A jg_array is an immutable, reference-counted tree of layout nodes (Awkward's terms,
 * scikit-hep/awkward src/awkward/contents/, the ListOffsetArray and ListArray docstrings):
 *
 *   kind                 buffers                          children   length
 *   JG_NODE_NUMERIC      data (a strided view, ndim >= 1) -          data.shape[0]
 *   JG_NODE_EMPTY        -                                -          0 (type "unknown")
 *   JG_NODE_LIST_OFFSET  offsets (int32|int64, length+1)  content    len(offsets) - 1
 *   JG_NODE_LIST         starts, stops (int32|int64)      content    len(starts)
 *   JG_NODE_REGULAR      - (a fixed `size`)               content    given (content/size)
 *   JG_NODE_RECORD       - (field names, or none: tuple)  fields     given (<= each field's)
 *   JG_NODE_BYTE_MASKED  mask (int8|bool, one per entry)  content    len(mask)
 *   JG_NODE_BIT_MASKED   mask (uint8 bits, LSB or MSB)    content    given
 *   JG_NODE_INDEXED_OPTION index (int32|int64, <0 = None) content    len(index)
 *
 * List i of a list-offset node is content[offsets[i] : offsets[i+1]]: offsets need not start at
 * 0, and content may extend past the last offset. Numeric data with ndim > 1 has regular inner
 * dimensions (NumPy-style), shown as "3 * float32" in the type.
 *
 * Backends: every buffer of an array lives on one backend and device: cpu (host-accessible
 * memory: pageable, pinned, registered and managed memory all count as cpu, since host code may
 * read them), or cuda:N (memory that only GPU N's kernels can read: view.host_accessible false,
 * view.device_accessible true, view.device.id N). A node's backend is that of its buffers and
 * children; a node with neither (an empty array, a record of 0 fields) is cpu when made by the
 * constructors and cuda:N after jg_array_to_device. Constructors check this from the views'
 * flags alone (they never dereference or query a pointer) and fail with JG_EBACKEND naming both
 * sides; nothing moves implicitly: copy whole arrays with jg_array_to_device / jg_array_to_host.
 *
 * Buffer views: constructors store a copy of each jg_view (a borrowed descriptor) and retain its
 * `buffer`. They do not trust a hand-made or edited view: each checks its layout as layout.h
 * says (ndim in [0, JG_MAX_NDIM], itemsize > 0 and matching the dtype, extents >= 0, volume and
 * element byte offsets within int64: JG_EINVAL or JG_EOVERFLOW naming the axis) and, for a view
 * with elements, that every element lies inside the view's buffer, [jg_buffer_data(buffer),
 * + jg_buffer_size(buffer)) (JG_ESHAPE "data reaches bytes [0, 48) from its buffer's start,
 * outside the buffer's 24 bytes"). They read only the view's fields (base, device,
 * accessibility flags, dtype, layout), never the memory. jg_array_validate checks the same at
 * every level.
 *
 * Lifetime: constructors return a new array with one reference; every node retains its buffers
 * and children, so the caller may release its own references to them right after. Retain and
 * release are thread-safe; arrays are immutable, so they may be shared across threads. */
#ifndef JAGGED_ARRAY_H
#define JAGGED_ARRAY_H

#include "jagged/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Layout node kinds. Numbers are pinned (ABI; also used by the device view, device_view.h). */
typedef enum jg_node_kind {
  JG_NODE_NUMERIC = 1,
  JG_NODE_EMPTY = 2,
  JG_NODE_LIST_OFFSET = 3,
  JG_NODE_LIST = 4,
  JG_NODE_REGULAR = 5,
  JG_NODE_RECORD = 6,
  JG_NODE_BYTE_MASKED = 7,
  JG_NODE_BIT_MASKED = 8,
  JG_NODE_INDEXED_OPTION = 9
} jg_node_kind;

/** An immutable, reference-counted jagged array (the root of a tree of layout nodes). */
typedef struct jg_array jg_array;

/** Validation depth (nanoarrow's levels): NONE checks nothing; MINIMAL checks only what needs no
 *  buffer reads (lengths, counts of buffers and children, dtypes, backends); DEFAULT also reads
 *  the first and last offsets (copying two values from the device when needed); FULL checks
 *  every offset is monotonic and in range and every index in range, on the array's backend (a
 *  kernel on the GPU), naming the first bad position. */
typedef enum jg_validation_level {
  JG_VALIDATE_NONE = 0,
  JG_VALIDATE_MINIMAL = 1,
  JG_VALIDATE_DEFAULT = 2,
  JG_VALIDATE_FULL = 3
} jg_validation_level;

/* ------------------------------------------------------------------------------------------ */
/* Constructors from buffers (zero-copy). Each view's `buffer` must be non-NULL: the node      */
/* retains it. Each checks every view's layout and that it fits its buffer (top of the file;   */
/* errors JG_EINVAL, JG_EOVERFLOW, JG_ESHAPE) and runs MINIMAL validation; call               */
/* jg_array_validate for more.                                                                 */
/* ------------------------------------------------------------------------------------------ */

/** A numeric array over `data` (ndim >= 1; dtype bool, int8..int64, uint8..uint64, float16,
 *  float32, float64; any strides, negative and zero included). Length data.shape[0] (0 is fine);
 *  inner axes are regular dimensions. Errors: JG_EINVAL (NULL data or out, data.buffer NULL,
 *  ndim 0, memory neither host- nor device-accessible, an invalid layout such as a negative
 *  extent: index = axis), JG_EOVERFLOW (an element's byte offset overflows int64, e.g. a stride of
 *  INT64_MAX over 3 elements), JG_ESHAPE (an element outside data.buffer), JG_EDTYPE (complex,
 *  bfloat16, invalid dtype, or a layout itemsize that does not match the dtype). */
JG_API jg_status jg_array_numeric(const jg_view *data, jg_array **out, jg_error *err);

/** An empty array (length 0, type "unknown") on the host. Never fails but for NULL `out`. */
JG_API jg_status jg_array_empty(jg_array **out, jg_error *err);

/** A list-offset array of n lists: `offsets` 1-D int32 or int64 of length n+1 >= 1 (any stride),
 *  on the same backend as `content`. The values are not read (MINIMAL validation): offsets[0]
 *  need not be 0 and content may extend past offsets[n]. Errors: JG_EINVAL (NULL argument,
 *  offsets.buffer NULL), JG_EDTYPE (offsets not int32/int64), JG_ESHAPE (offsets not 1-D or
 *  empty), JG_EBACKEND (offsets and content on different backends or devices: "content is on
 *  cuda:0, offsets on cpu: copy it with jg_array_to_host"). */
JG_API jg_status jg_array_list_offset(const jg_view *offsets, jg_array *content, jg_array **out,
                                      jg_error *err);

/** A list array: `starts` and `stops` 1-D of one integer dtype (int32|int64), len(stops) >=
 *  len(starts) = length; list i is content[starts[i] : stops[i]]. Values are not read.
 *  Errors as jg_array_list_offset, and JG_EDTYPE when the two dtypes differ, JG_ESHAPE when stops
 *  is shorter than starts. */
JG_API jg_status jg_array_list(const jg_view *starts, const jg_view *stops, jg_array *content,
                               jg_array **out, jg_error *err);

/** A regular array of lists of fixed `size` >= 0: length = len(content) / size (rounded down)
 *  when size > 0, else `length` (ignored when size > 0; pass -1). Errors: JG_EINVAL (NULL
 *  content or out, negative size, size 0 with negative length). */
JG_API jg_status jg_array_regular(jg_array *content, jg_len size, jg_len length, jg_array **out,
                                  jg_error *err);

/** A record array of `nfields` >= 0 fields (`fields[k]`, each retained) named `names[k]`
 *  (copied), or a tuple when `names` is NULL (fields "0", "1", ...). length: the common length
 *  to use, or -1 for the shortest field's length (0 fields need an explicit length).
 *  Errors: JG_EINVAL (NULL field, duplicate or empty name, length < -1, no fields and length
 *  -1), JG_ESHAPE (a field shorter than `length`; index = field), JG_EBACKEND. */
JG_API jg_status jg_array_record(int nfields, jg_array *const *fields, const char *const *names,
                                 jg_len length, jg_array **out, jg_error *err);

/** An option array from a byte mask (1-D int8/uint8/bool, one per entry; entry i is valid when
 *  (mask[i] != 0) == valid_when). len(content) >= len(mask). Errors: JG_EINVAL (NULL argument),
 *  JG_EDTYPE, JG_ESHAPE (mask not 1-D, content shorter than the mask), JG_EBACKEND. */
JG_API jg_status jg_array_byte_masked(const jg_view *mask, bool valid_when, jg_array *content,
                                      jg_array **out, jg_error *err);

/** An option array from a bit mask (1-D uint8 of ceil(length/8) bytes or more; bit i is bit
 *  (i % 8) of byte i / 8 counted from the least significant bit when lsb_order, else from the
 *  most significant; entry i is valid when the bit equals valid_when). Arrow validity bitmaps
 *  are valid_when = true, lsb_order = true. len(content) >= length. A slice that does not start
 *  on a byte keeps the mask and records the first bit (jg_array_bit_offset).
 *  Errors: JG_EINVAL (NULL argument, negative length), JG_EDTYPE (mask not uint8), JG_ESHAPE
 *  (mask not 1-D or too short, content too short), JG_EBACKEND. */
JG_API jg_status jg_array_bit_masked(const jg_view *mask, bool valid_when, bool lsb_order,
                                     jg_len length, jg_array *content, jg_array **out,
                                     jg_error *err);

/** An option array from an index (1-D int32|int64): entry i is None when index[i] < 0, else
 *  content[index[i]]. Values are not read. Errors: JG_EINVAL (NULL argument), JG_EDTYPE,
 *  JG_ESHAPE (index not 1-D), JG_EBACKEND. */
JG_API jg_status jg_array_indexed_option(const jg_view *index, jg_array *content,
                                         jg_array **out, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Constructors from host C arrays (copied into new host buffers)                              */
/* ------------------------------------------------------------------------------------------ */

/** A 1-D numeric array of `length` elements of `dtype` copied from the host array `values`
 *  (dtypes as jg_array_numeric) into a new buffer from jg_memory_resource_host(). `values` may
 *  be NULL when length is 0. Errors: JG_EINVAL (NULL out, NULL values with length > 0, negative
 *  length), JG_EDTYPE, JG_EOVERFLOW (length * itemsize), JG_ENOMEM. */
JG_API jg_status jg_array_from_host(const void *values, jg_len length, jg_dtype dtype,
                                    jg_array **out, jg_error *err);

/** A list-offset array of n lists of numbers copied from host arrays: `offsets` (int64, n+1
 *  entries, non-decreasing, offsets[0] need not be 0) over `content` (`content_length` values of
 *  `dtype`, all copied, also those outside [offsets[0], offsets[n])). When n is 0 the single
 *  offset may be any value (Awkward's rule for length-0 lists). Errors: as jg_array_from_host,
 *  JG_EINVAL (NULL offsets, n < 0), JG_EVALUE (for n > 0: an offset negative, smaller than the
 *  one before, or past content_length; index = position). */
JG_API jg_status jg_array_from_host_offsets(const int64_t *offsets, jg_len n,
                                            const void *content, jg_len content_length,
                                            jg_dtype dtype, jg_array **out, jg_error *err);

/** A list-offset array of numbers copied from host arrays, from per-list `counts` (n entries,
 *  each >= 0; NULL allowed when n is 0) over `content` (sum(counts) values). The offsets are
 *  int64 and start at 0. Errors, in this order: as jg_array_from_host (JG_EINVAL also for n < 0
 *  and NULL counts with n > 0), JG_EVALUE (a negative count, then a count larger than
 *  content_length; index = the first such list), JG_EOVERFLOW (the running sum overflows int64;
 *  index = list), JG_EVALUE (the counts do not add up to content_length; index -1). */
JG_API jg_status jg_array_from_host_counts(const int64_t *counts, jg_len n, const void *content,
                                           jg_len content_length, jg_dtype dtype,
                                           jg_array **out, jg_error *err);

/** A list-offset array from device or host buffers: per-list `counts` (1-D int32|int64 view of n
 *  entries, any stride; only read, so counts.buffer may be NULL; its layout is checked, and
 *  that it fits its buffer when it has one, as for the constructors above) are scanned into new int64
 *  offsets (n + 1 entries starting at 0) on the counts' backend, over `content` (retained).
 *  cpu: a host loop; offsets from jg_memory_resource_host(). cuda:N: offsets from
 *  jg_memory_resource_device(N); a check kernel and cub::DeviceScan::ExclusiveSum on `stream`
 *  (NULL: the legacy default stream) with temporary storage from the same resource; the call
 *  then copies the check results and the last offset back and synchronises `stream`, so it
 *  blocks. The checks and their order are those of jg_array_from_host_counts, with len(content)
 *  for content_length, and give the same status and index on both backends.
 *  Errors: JG_EINVAL (NULL argument, invalid layout), JG_EDTYPE, JG_ESHAPE (counts not 1-D or
 *  outside its buffer), JG_EOVERFLOW (byte offsets of the layout), JG_EBACKEND (counts
 *  and content on different backends), JG_EVALUE, JG_EOVERFLOW, JG_ENODEV, JG_EDEVMEM, JG_ENOMEM,
 *  JG_ECUDA. */
JG_API jg_status jg_array_from_counts(const jg_view *counts, jg_array *content, jg_stream stream,
                                      jg_array **out, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Lifetime                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/** Adds a reference; returns `a` (NULL gives NULL). */
JG_API jg_array *jg_array_retain(jg_array *a);
/** Drops a reference; the last frees the node and releases its buffers and children. NULL ok. */
JG_API void jg_array_release(jg_array *a);

/* ------------------------------------------------------------------------------------------ */
/* Inspection (never fail on a valid array; NULL `a` gives 0 / NULL)                           */
/* ------------------------------------------------------------------------------------------ */

/** The kind of the top node of `a` (jg_node_kind); 0 for NULL. Host-side metadata: never reads
 *  the array's buffers, so it works for cuda arrays too. */
JG_API jg_node_kind jg_array_kind(const jg_array *a);
/** Number of entries at the top level. */
JG_API jg_len jg_array_length(const jg_array *a);
/** The backend (cpu or cuda) of every buffer in the tree (cpu for buffer-less trees); 0 for NULL. */
JG_API jg_backend jg_array_backend(const jg_array *a);
/** The device of every buffer in the tree, normalised: {JG_DEVICE_CPU, 0} for the cpu backend
 *  (pageable, pinned, registered or managed memory), {JG_DEVICE_CUDA, N} for device memory of
 *  GPU N; {0, 0} for NULL. */
JG_API jg_device jg_array_device(const jg_array *a);
/** "cpu" or "cuda:N" into `buf` (at least 16 bytes); returns buf. */
JG_API const char *jg_array_device_name(const jg_array *a, char *buf, size_t size);
/** Number of children: 1 for lists, regular and options, nfields for records, 0 otherwise. */
JG_API int jg_array_num_children(const jg_array *a);
/** Child k (borrowed: valid while `a` is), NULL when out of range. */
JG_API jg_array *jg_array_child(const jg_array *a, int k);
/** Field name k of a record (borrowed), NULL for tuples or out of range. */
JG_API const char *jg_array_field_name(const jg_array *a, int k);
/** Index of the field named `name` in a record; for a tuple, `name` is the field number in
 *  decimal ("0", "1", ...; no sign or leading zeros). -1 when there is no such field, `a` is not
 *  a record, or an argument is NULL. */
JG_API int jg_array_field_index(const jg_array *a, const char *name);
/** Buffer view k of a node (borrowed descriptor, valid while `a` is): numeric 0 = data;
 *  list-offset 0 = offsets; list 0 = starts, 1 = stops; masked 0 = mask; indexed 0 = index.
 *  Errors: JG_EINVAL (NULL), JG_EINDEX (no such buffer). */
JG_API jg_status jg_array_buffer(const jg_array *a, int k, jg_view *view, jg_error *err);
/** Regular size (JG_NODE_REGULAR), or -1. */
JG_API jg_len jg_array_regular_size(const jg_array *a);
/** valid_when of byte- and bit-masked nodes: the mask value that means "valid"; false for other
 *  kinds and NULL. */
JG_API bool jg_array_valid_when(const jg_array *a);
/** Bit order of a bit-masked node's mask: true when entry i is counted from the least
 *  significant bit of its byte (Arrow's order); false for MSB order, other kinds and NULL. */
JG_API bool jg_array_lsb_order(const jg_array *a);
/** Bit-masked nodes: the bit of the mask (buffer 0) that holds entry 0, in [0, 8): 0 unless the
 *  node is a slice that does not start on a byte; entry i is bit (bit_offset + i). 0 for other
 *  kinds and NULL. */
JG_API jg_len jg_array_bit_offset(const jg_array *a);

/* ------------------------------------------------------------------------------------------ */
/* Structure                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/** Entries [start, stop) of the top level with Python slice semantics (negative values count from
 *  the end, bounds clipped; step 1; stop <= start gives length 0). Shares every buffer (no copy;
 *  the result retains them): a list-offset node gets offsets[start : stop + 1] (so its offsets
 *  no longer start at 0), a list node sliced starts and stops, a numeric node a sliced data view,
 *  a regular node its content's [start * size, stop * size), a record slices every field,
 *  byte-masked nodes slice mask and content, indexed-option nodes the index, and bit-masked nodes
 *  the mask from byte (bit_offset + start) / 8 with the bit offset kept (jg_array_bit_offset).
 *  The whole range returns `a` itself with a new reference. Errors: JG_EINVAL (NULL argument),
 *  JG_ENOMEM. */
JG_API jg_status jg_array_slice(const jg_array *a, jg_len start, jg_len stop, jg_array **out,
                                jg_error *err);

/** Zips `nfields` >= 1 arrays of equal length into records, broadcasting as ak.zip does:
 *  depth 1 is the top level; while the depth is below `depth_limit` (-1: no limit; 1: records
 *  of the inputs as they are), some field is a list node (list-offset, list or regular) and
 *  every other field has no list level left (numbers, 1-D; options or records of such), zip
 *  goes one list level down, and each field without lists is repeated across the lists: entry i
 *  fills every position of list i (ak.zip({x: [[1, 2], [3]], y: [10, 20]}) gives
 *  [[{x: 1, y: 10}, {x: 2, y: 10}], [{x: 3, y: 20}]]). Repeated fields are carried (a gather
 *  on the fields' backend, new buffers); the list fields are shared: the result has the list
 *  nodes of one list field at each level (sharing its offsets, or starts and stops) and, at the
 *  bottom, a record of the fields' contents named by `names` (copied; NULL: a tuple), each
 *  sliced (zero-copy) so that its entries line up with the shared lists. Options over lists and
 *  numeric nodes with ndim > 1 stop the descent, and the list fields must have, in every
 *  reached list, equal counts. Fields whose list-offset node uses the very offsets of field 0's (the
 *  fields of one record, and elementwise results made from them) need no check: only the
 *  first and last offset of the reached range are read. Otherwise checking counts reads
 *  offsets, starts and stops on the host: cuda arrays have them copied back (jg_copy,
 *  synchronous), one transfer per list level and field.
 *  Errors: JG_EINVAL (nfields < 1, NULL field, depth_limit 0 or below -1, bad names as in
 *  jg_array_record), JG_EBACKEND (index = field), JG_ESHAPE (lengths differ: index = field, or
 *  counts differ: "field 1 ('y') has 3 entries in list 2 at depth 1, field 0 ('x') has 2",
 *  index = the list), JG_ENOTSUP (list nodes whose lists are not at a constant distance from
 *  those of the first list field, e.g. permuted starts: index = the list; a repeated field with
 *  a bit-masked option), JG_EVALUE (invalid inputs whose lists point past their content; index =
 *  field), JG_ENOMEM / JG_EDEVMEM, and copy and kernel errors. */
JG_API jg_status jg_array_zip(int nfields, jg_array *const *fields, const char *const *names,
                              int depth_limit, jg_array **out, jg_error *err);

/** Field `name` of the records in `a`, keeping the list and option structure above the record
 *  (Awkward's array["name"] / array.name): the first record found by following single contents
 *  (lists, regular, options) from the top. The field is cut to the record's length (zero-copy);
 *  every node above is shared or re-made over the same buffers. Tuples take "0", "1", ....
 *  Errors: JG_EINVAL (NULL argument; no record in the tree), JG_ENOTFOUND (no such field; the
 *  message lists the fields). */
JG_API jg_status jg_array_field(const jg_array *a, const char *name, jg_array **out,
                                jg_error *err);

/** The fields of the records in `a`, each with the structure above the record (as
 *  jg_array_field): `*nfields` gets the count and `outs` (capacity `capacity`) the arrays, each
 *  a new reference the caller releases. Errors: JG_EINVAL (NULL a or nfields, NULL outs with
 *  capacity > 0, negative capacity, no record), JG_ESHAPE (capacity too small; *nfields still
 *  set, outs untouched). On error no reference is left in outs. */
JG_API jg_status jg_array_unzip(const jg_array *a, int capacity, jg_array **outs, int *nfields,
                                jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Backends                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/** The same array with every buffer on CUDA device `device_id` (backend cuda:device_id): buffers
 *  already there (device-only memory of that GPU) are shared, and subtrees made only of them are
 *  shared whole; every other buffer (host, pinned, managed, or another GPU's) is copied whole,
 *  once even when several views use it, into a new buffer from
 *  jg_memory_resource_device(device_id), with jg_copy_async of 1-D uint8 views on `stream`
 *  (NULL: the legacy default stream). Views keep their layouts (a sliced view stays sliced).
 *  The call returns once the copies are enqueued: the result may be used on `stream` at once;
 *  copies from pageable memory are done when it returns, but pinned or managed sources are read
 *  asynchronously and must stay valid and unchanged until `stream` reaches the copies.
 *  Errors: JG_EINVAL (NULL argument), JG_ENODEV, JG_EINDEX (no such device), JG_EDEVMEM,
 *  JG_ENOMEM, JG_ECUDA. */
JG_API jg_status jg_array_to_device(const jg_array *a, int device_id, jg_stream stream,
                                    jg_array **out, jg_error *err);

#if !defined(JG_BUILDING_LIBRARY) && !defined(JG_NO_CALLSITE_MACROS)
/* Call-site wrapper (transfer.h): transfer events of this call name the caller's file and line. */
#define jg_array_to_device(...) \
  (jg_callsite_push(__FILE__, __LINE__), jg_callsite_pop(jg_array_to_device(__VA_ARGS__)))
#endif

/** The same array with every buffer in host memory (backend cpu; pageable, from the host
 *  resource; pass a pinned resource with jg_array_to_host_ex). Buffers already host-accessible
 *  (pageable, pinned, managed) are shared, like subtrees made only of them; device buffers are
 *  copied whole, once each, keeping the views' layouts, with jg_copy_async on `stream` (NULL:
 *  the legacy default stream of each source device). Synchronises before returning, so the
 *  result is readable at once. Errors: JG_EINVAL (NULL argument), JG_ENODEV (device buffers and
 *  no usable GPU), JG_ENOMEM, JG_ECUDA. */
JG_API jg_status jg_array_to_host(const jg_array *a, jg_stream stream, jg_array **out,
                                  jg_error *err);

#if !defined(JG_BUILDING_LIBRARY) && !defined(JG_NO_CALLSITE_MACROS)
/* Call-site wrapper (transfer.h): transfer events of this call name the caller's file and line. */
#define jg_array_to_host(...) \
  (jg_callsite_push(__FILE__, __LINE__), jg_callsite_pop(jg_array_to_host(__VA_ARGS__)))
#endif

/** jg_array_to_host into buffers from `mr` (host-accessible: host, pinned or managed).
 *  Errors: as jg_array_to_host, JG_EINVAL if `mr` is not host-accessible. */
JG_API jg_status jg_array_to_host_ex(const jg_array *a, jg_memory_resource *mr, jg_stream stream,
                                     jg_array **out, jg_error *err);

#if !defined(JG_BUILDING_LIBRARY) && !defined(JG_NO_CALLSITE_MACROS)
/* Call-site wrapper (transfer.h): transfer events of this call name the caller's file and line. */
#define jg_array_to_host_ex(...) \
  (jg_callsite_push(__FILE__, __LINE__), jg_callsite_pop(jg_array_to_host_ex(__VA_ARGS__)))
#endif

/** JG_OK when `a` and `b` are on the same backend and device; else JG_EBACKEND with the message
 *  "<what_b> is on <dev b>, <what_a> on <dev a>: copy it with jg_array_to_device" (or
 *  jg_array_to_host when `a` is on the host). Operations call it for every array argument. */
JG_API jg_status jg_array_check_same_backend(const jg_array *a, const char *what_a,
                                             const jg_array *b, const char *what_b,
                                             jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Validation, type and printing                                                               */
/* ------------------------------------------------------------------------------------------ */

/** Checks `a` to `level` (see jg_validation_level) on its own backend, visiting the nodes in
 *  pre-order (a node, then its children) and reporting the first failure met.
 *  MINIMAL (every node, no buffer reads): a known kind; length >= 0; the kind's number of
 *  buffers and children, none NULL; record names non-NULL; every buffer and child on the node's
 *  device; every buffer view's layout valid and inside its buffer (as the constructors check);
 *  buffer ranks and dtypes as the table above; data.shape[0] = length, offsets =
 *  length + 1 entries, starts = length and stops >= length entries, index = length entries, a
 *  byte mask >= length entries, a bit mask >= ceil((bit_offset + length) / 8) bytes with
 *  bit_offset in [0, 8); regular size >= 0 and content >= length * size; record fields and
 *  masked contents >= length. DEFAULT adds, for each list-offset node of length > 0, its first
 *  and last offsets (two values copied back from a cuda array): first <= last and, unless they
 *  are equal (only empty lists), 0 <= first and last <= len(content). FULL replaces those reads
 *  by a scan of every entry (host loop, or one kernel per node on the GPU whose first failure
 *  is found with an atomic minimum; no buffer is copied back, only the values quoted): offsets
 *  non-decreasing; for list nodes start <= stop; for every non-empty list 0 <= start and stop <=
 *  len(content) (an empty list may have any start, offsets need not start at 0, content may
 *  extend past the last offset); index < len(content) (negative: None). A cuda array's scans
 *  run on `stream` (NULL: the legacy default stream) on its device, which is made current for
 *  the call; the call synchronises the stream. NONE checks nothing.
 *  Errors: JG_EINVAL (NULL a, unknown level); JG_EVALUE for a failed check, with a message
 *  naming the problem, the node kind, its depth (Awkward's: 1 at the root, +1 below each
 *  list or regular node; docs/operations.md) and the record fields on the way
 *  down, e.g. "offsets not monotonic at list 1233: offsets[1234] = 5 is below offsets[1233] = 9
 *  (list-offset at depth 1)" or "... (list-offset at depth 2, field jets)", and err->index = the
 *  bad list (as the kernels and operations name it: list i of offsets is [offsets[i],
 *  offsets[i + 1]); DEFAULT, which reads only the two ends, names the last list, or list 0 for
 *  a negative first offset), the field for a short record field, -1 for other structure
 *  problems; trees nested deeper than 1000 levels are refused the same way. JG_EINDEX for an
 *  option index at or past its content (err->index = the entry, as the kernels report it).
 *  JG_ENODEV (a cuda array, DEFAULT or FULL, without a usable CUDA), JG_EINDEX (no such
 *  device), JG_EDEVMEM, JG_ECUDA on device failures.
 *  Thread-safe. */
JG_API jg_status jg_array_validate(const jg_array *a, jg_validation_level level,
                                   jg_stream stream, jg_error *err);

/** The type in Awkward's notation, e.g. "1000 * var * {pt: float32, eta: float32}", "3 * ?int64",
 *  "2 * 3 * float64", "0 * unknown", tuples "(int64, var * float32)". Written to `buf` (capacity
 *  `size`, NUL-terminated, truncated when short); `*needed` (may be NULL) gets the full length
 *  excluding the NUL (0 on error, when buf gets ""). Options of list and regular types print as
 *  "option[var * int64]", other options as "?T"; field names other than [A-Za-z_][A-Za-z0-9_]*
 *  are quoted as JSON strings with ASCII output, as Python's json.dumps writes them. Reads no
 *  buffer, so cuda arrays work too. Errors: JG_EINVAL (NULL a; NULL buf with size > 0; a
 *  corrupt tree: a node without its content, an unknown kind, nesting deeper than 1000
 *  levels). */
JG_API jg_status jg_array_type_string(const jg_array *a, char *buf, size_t size, size_t *needed,
                                      jg_error *err);

/** A short value printout like Awkward's str(): "[[1.1, 2.2], [], [3.3]]", None for missing
 *  values, {x: 1, y: [2, 3]} for records ('my field': 1 for names that are not identifiers),
 *  (1, 2) for tuples, True / False for booleans, integers in full, floating-point numbers in the
 *  fewest significant digits that read back to the same value of their type, %g style (1.0
 *  prints "1", 0.1 "0.1", 1e20 "1e+20"; nan, inf, -inf). A list that does not fit keeps entries
 *  from its front and back, taken alternately while they fit, with "..." for the middle, e.g.
 *  "[1, 2, 3, ..., 98, 99]" at width 22; records that do not fit end in "...". The text fits in
 *  `max_width` characters (0: 80) except that one entry, or "[...]", is always shown. Runs
 *  MINIMAL validation first and checks every list range and index it follows, so entries left
 *  out are never read. Host arrays only. Written like jg_array_type_string.
 *  Errors: JG_EINVAL (NULL a; NULL buf with size > 0), JG_EBACKEND for a cuda array ("copy it
 *  with jg_array_to_host first"), JG_EVALUE (MINIMAL validation failed, or a printed list or
 *  index points outside its content; index = that entry), JG_ENOMEM. */
JG_API jg_status jg_array_to_string(const jg_array *a, size_t max_width, char *buf, size_t size,
                                    size_t *needed, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_ARRAY_H */
