/* arrow.h: exchange of jagged arrays through the Arrow C Data Interface and the Arrow C Device
 * Data Interface.
 *
 * The first half declares the two ABIs (apache/arrow docs/source/format/CDataInterface.rst and
 * CDeviceDataInterface.rst) in jagged's
 * own words, each inside the include guard the specification asks every copy to use verbatim
 * (`ARROW_C_DATA_INTERFACE`, `ARROW_C_DEVICE_DATA_INTERFACE`): a program that includes Arrow's
 * own abi.h or nanoarrow.h first gets their declarations (the same ABI), and one that includes
 * them afterwards gets nothing defined twice. The second half, outside those guards, is jagged's
 * API: export a jg_array into caller-allocated structs, and import an Arrow array (taking its
 * ArrowArray, borrowing its ArrowSchema).
 *
 * Layout mapping (Awkward's Arrow conversion, scikit-hep/awkward src/awkward/_connect/pyarrow; Arrow
 * Columnar.rst, "Variable-size List Layout"):
 *
 *   jagged node                       Arrow                       export copies?
 *   numeric int8..uint64, float16/32/64   c C s S i I l L e f g   no, when axis 0 is contiguous
 *                                                                 (stride 1); else compacted
 *   numeric bool                      b (bit-packed)              always (packing)
 *   numeric with inner dims (n, a, b) +w:a of +w:b of primitive   no, when the rows are
 *                                                                 C-contiguous; else compacted
 *   empty                             n (null type)               no (no buffers)
 *   list-offset int32 / int64         +l / +L                     no, when the offsets have
 *                                                                 stride 1; else compacted
 *   list (starts, stops)              +l / +L                     always: offsets are built, and
 *                                                                 the content is gathered when
 *                                                                 the lists are not contiguous
 *   regular (size N)                  +w:N                        no
 *   record / tuple                    +s (tuple fields "0", "1")  no
 *   bit-masked (lsb, valid_when 1)    validity bitmap of content  no, when the first entry
 *                                                                 starts a byte; else rebuilt
 *   bit-masked (msb or valid_when 0)  validity bitmap of content  the bitmap is built
 *   byte-masked                       validity bitmap of content  the bitmap is built
 *   indexed-option                    validity bitmap of content  the bitmap is built and the
 *                                                                 content gathered
 *   option over empty                 n (null type)               no
 *
 * Arrow offsets need not start at 0 and list content may extend past the last offset, as in
 * jagged, so list-offset nodes travel as they are (offsets exported with array.offset 0 and the
 * pointer of the view's first offset). Import maps each Arrow type back: +l / +L to list-offset
 * (int32 / int64), +w:N to regular, +s to record (a tuple when every field is named by its
 * position, "0", "1", ...), n to empty (length 0) or to an indexed-option of all-None entries
 * over empty (length > 0), b to numeric bool (unpacked: a copy), a validity bitmap with nulls to
 * a bit-masked option (lsb order, valid_when true) over the node, sharing the bitmap.
 * Arrow's array.offset is honoured everywhere on import: offsets and data views start at it,
 * validity bits at it (through the bit-masked node's bit offset), struct children and
 * fixed-size-list children are taken at the parent's offset.
 *
 * Not supported: dictionary-encoded arrays, and every format not listed above (strings, binary,
 * decimals, temporal types, list views, maps, unions, run-end encoded): import fails with
 * JG_ENOTSUP naming the format and the field path ("$" is the root, ".name" a struct field,
 * "[]" the items of a list or fixed-size list, e.g. "$.muons[].pt"); export of complex or
 * bfloat16 numeric data, and of an option directly over an option, fails with JG_ENOTSUP. */

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** ArrowSchema.flags bit: the dictionary's indices are ordered (dictionary-encoded arrays). */
#define ARROW_FLAG_DICTIONARY_ORDERED 1
/** ArrowSchema.flags bit: the field may hold nulls. */
#define ARROW_FLAG_NULLABLE 2
/** ArrowSchema.flags bit: the keys of a map are sorted within each entry. */
#define ARROW_FLAG_MAP_KEYS_SORTED 4

/** The type of one level of an Arrow array (and, as a field, its name). A tree: child k of a
 *  nested type is described by children[k]. Allocated by the consumer, filled by the producer;
 *  everything it points to belongs to the producer until `release` is called. */
struct ArrowSchema {
  /** Format string of this level only, NUL-terminated (e.g. "i" int32, "+l" list, "+w:3"
   *  fixed-size list of 3, "+s" struct). Never NULL. */
  const char *format;
  /** Field name, NUL-terminated, or NULL; optional. */
  const char *name;
  /** Key/value metadata in the binary encoding of the specification, or NULL when absent. */
  const char *metadata;
  /** Bitwise OR of ARROW_FLAG_* values (0 for none). */
  int64_t flags;
  /** Number of children (>= 0). */
  int64_t n_children;
  /** n_children non-NULL pointers to the children's schemas (NULL when n_children is 0). */
  struct ArrowSchema **children;
  /** The dictionary's value type for a dictionary-encoded field, else NULL. */
  struct ArrowSchema *dictionary;
  /** Frees what the producer allocated for this schema, its children and dictionary, then sets
   *  `release` to NULL. NULL means the struct is released (or was moved from). The consumer
   *  calls it on the root only, exactly once. */
  void (*release)(struct ArrowSchema *);
  /** The producer's bookkeeping; opaque to consumers. */
  void *private_data;
};

/** The data of one level of an Arrow array: buffers plus child arrays, in the layout that the
 *  matching ArrowSchema's format prescribes. Allocated by the consumer, filled by the producer.
 *  Moving it is a bitwise copy followed by setting the source's `release` to NULL. */
struct ArrowArray {
  /** Logical number of entries (>= 0). */
  int64_t length;
  /** Number of null entries, or -1 when not computed. */
  int64_t null_count;
  /** Logical index of entry 0 in every buffer (>= 0): entry i lives at buffer index offset + i,
   *  validity bits included. Buffers must cover offset + length entries. */
  int64_t offset;
  /** Number of buffers the format prescribes (validity first where the layout has one). */
  int64_t n_buffers;
  /** Number of children (>= 0). */
  int64_t n_children;
  /** n_buffers pointers. The validity bitmap may be NULL when null_count is 0, and any buffer
   *  whose size would be 0 may be NULL. For the Device interface these are device pointers. */
  const void **buffers;
  /** n_children non-NULL pointers to child arrays. */
  struct ArrowArray **children;
  /** The dictionary's values for a dictionary-encoded array, else NULL. */
  struct ArrowArray *dictionary;
  /** Releases the data (children and dictionary included) and sets `release` to NULL. NULL
   *  means released. The consumer calls it on the root only, exactly once. */
  void (*release)(struct ArrowArray *);
  /** The producer's bookkeeping; opaque to consumers. */
  void *private_data;
};

#ifdef __cplusplus
}
#endif

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_DEVICE_DATA_INTERFACE
#define ARROW_C_DEVICE_DATA_INTERFACE

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Where the buffers of an ArrowDeviceArray live. A 32-bit integer whose values equal DLPack's
 *  DLDeviceType (macros rather than an enum so the ABI does not depend on the compiler). */
typedef int32_t ArrowDeviceType;

#define ARROW_DEVICE_CPU 1           /**< host memory; the same as a plain ArrowArray */
#define ARROW_DEVICE_CUDA 2          /**< device memory of a CUDA GPU */
#define ARROW_DEVICE_CUDA_HOST 3     /**< pinned host memory (cudaMallocHost) */
#define ARROW_DEVICE_OPENCL 4        /**< OpenCL */
#define ARROW_DEVICE_VULKAN 7        /**< Vulkan buffer */
#define ARROW_DEVICE_METAL 8         /**< Apple Metal */
#define ARROW_DEVICE_VPI 9           /**< Verilog simulator buffer */
#define ARROW_DEVICE_ROCM 10         /**< AMD ROCm GPU */
#define ARROW_DEVICE_ROCM_HOST 11    /**< pinned host memory of ROCm (hipMallocHost) */
#define ARROW_DEVICE_EXT_DEV 12      /**< reserved for extension devices */
#define ARROW_DEVICE_CUDA_MANAGED 13 /**< CUDA managed (unified) memory */
#define ARROW_DEVICE_ONEAPI 14       /**< oneAPI unified shared memory */
#define ARROW_DEVICE_WEBGPU 15       /**< WebGPU */
#define ARROW_DEVICE_HEXAGON 16      /**< Qualcomm Hexagon DSP */

/** An ArrowArray whose buffers may live on a device, plus where and how to synchronise.
 *  The struct itself, `array.buffers`, the children and their buffer-pointer arrays live in host
 *  memory; the buffers they point to live on the device. There is no separate release: the
 *  embedded array's release frees everything, the event included. Moved like an ArrowArray. */
struct ArrowDeviceArray {
  /** The array; its buffers are addresses on `device_type` / `device_id`. */
  struct ArrowArray array;
  /** Which device of `device_type` (the CUDA ordinal for CUDA; hardware-dependent otherwise). */
  int64_t device_id;
  /** One of the ARROW_DEVICE_* values. */
  ArrowDeviceType device_type;
  /** NULL, or a pointer TO an event of the device's API (for CUDA a `cudaEvent_t *`) that the
   *  producer recorded after the work that writes the buffers. A consumer must make its own
   *  work wait on it (cudaStreamWaitEvent) before touching the buffers. Owned by the producer,
   *  freed by the release callback. */
  void *sync_event;
  /** Reserved for future use; producers set every entry to 0. */
  int64_t reserved[3];
};

#ifdef __cplusplus
}
#endif

#endif /* ARROW_C_DEVICE_DATA_INTERFACE */

#ifndef JAGGED_ARROW_H
#define JAGGED_ARROW_H

#include "jagged/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Exports a cpu array as an Arrow array and its type, zero-copy where the table at the top of
 *  this header says so.
 *
 *  `schema` and `array` are caller-allocated structs (their previous contents are ignored and
 *  overwritten); on success each holds a release callback that the caller must call exactly
 *  once (the children's callbacks are called by the parent's). The array keeps every jagged
 *  buffer it points into alive (one reference per buffer, held by the private data of the Arrow
 *  node that points into it), plus the buffers it had to allocate for copies, so `a` may be
 *  released right after the call; the release callback drops those references. A child array
 *  moved out of its parent stays valid on its own. The exported top level has array.offset 0;
 *  list offsets keep their values (the first need not be 0), list children are the whole
 *  content; every exported list is checked with jg_array_validate's rule, and lists that are all
 *  empty (which may start anywhere, e.g. past the content) are written as zeros, so that Arrow
 *  and jg_array_import_arrow accept them. Null counts are exact. Field names: "" at the root, "item" for list items, the
 *  record's names for struct fields ("0", "1", ... for tuples). ARROW_FLAG_NULLABLE is set on
 *  fields that carry a validity bitmap (and on null-type fields).
 *
 *  Host-only: the array must be on the cpu backend (use jg_array_export_arrow_device for cuda
 *  arrays). Synchronous; thread-safe for distinct outputs (arrays are immutable).
 *  Errors: JG_EINVAL (NULL argument), JG_EBACKEND (a cuda array: "copy it with
 *  jg_array_to_host, or use jg_array_export_arrow_device"), JG_ENOTSUP (complex or bfloat16 data,
 *  an option directly over an option; the message gives the node's path), JG_EVALUE (a list
 *  whose offsets decrease or that leaves its content; index = the list), JG_EINDEX (an indexed
 *  option's index past its content; index = its position), JG_ENOMEM, JG_EOVERFLOW. On error both structs are left released (release NULL) and nothing leaks. */
JG_API jg_status jg_array_export_arrow(const jg_array *a, struct ArrowSchema *schema,
                                       struct ArrowArray *array, jg_error *err);

/** Exports an array of either backend through the C Device Data Interface.
 *
 *  cuda:N arrays: device_type ARROW_DEVICE_CUDA, device_id N, buffers are device pointers of GPU
 *  N. `stream` is a stream of device N (NULL: the legacy default stream); device N is current
 *  during the call and the caller's current device is restored afterwards. The copies that the
 *  table at the top of this header lists run on the GPU, on `stream` (compaction through
 *  jg_copy_async, bit packing and bitmaps by small kernels, into new device buffers of N's
 *  device resource); list (starts/stops) and indexed-option nodes go through the host (the
 *  subtree is copied to the host, converted there and copied back, synchronising `stream`).
 *  sync_event points to a cudaEvent_t (created on device N without timing) recorded on `stream`
 *  after that work; the consumer must wait on it before reading. The release callback destroys
 *  the event and frees the copies (cudaFree, which waits for the device), and drops the
 *  references to shared buffers.
 *  cpu arrays: exported exactly as jg_array_export_arrow does, with device_type
 *  ARROW_DEVICE_CPU, device_id -1 (the CPU has no ordinal; nanoarrow and Arrow C++ use -1) and
 *  sync_event NULL; `stream` is ignored and CUDA is not needed.
 *  reserved[] is zeroed in both cases.
 *
 *  `schema` and `device_array` are caller-allocated and overwritten; ownership and lifetime are
 *  those of jg_array_export_arrow. Errors: as jg_array_export_arrow (without JG_EBACKEND), and
 *  JG_ENODEV, JG_EDEVMEM, JG_ECUDA for cuda arrays. On error both structs are left released. */
JG_API jg_status jg_array_export_arrow_device(const jg_array *a, jg_stream stream,
                                              struct ArrowSchema *schema,
                                              struct ArrowDeviceArray *device_array, jg_error *err);

/** Imports an Arrow array (host memory) as a cpu jg_array, zero-copy but for the cases listed
 *  in the mapping above (bool data is unpacked to one byte per value; a null-type array of
 *  length > 0 gets a new index of -1 entries; an empty list array without an offsets buffer gets
 *  a new single 0 offset).
 *
 *  Ownership: on success the ArrowArray is MOVED into jagged (`array->release` is set to NULL,
 *  as the move rule of the specification says): its release callback is called exactly once,
 *  by whichever thread drops the last jagged buffer that points into it (through
 *  jg_array_release of `*out` and of every array derived from it), or before this call returns
 *  if no buffer of the result points into it (e.g. a null-type array). The ArrowSchema is only
 *  read: it stays the caller's, who releases it whenever convenient (even right after the call).
 *  On error nothing is taken: `array` is untouched and still owned by the caller (who must
 *  release it), and `*out` is NULL.
 *
 *  Checks (nothing but what follows is validated; use jg_array_validate for more): the schema
 *  and array trees have the same shape (n_children per level), n_buffers matches the format,
 *  required buffers are non-NULL (data and offsets buffers may be NULL only when offset + length
 *  is 0; a NULL validity bitmap means no nulls when null_count is 0 or -1), lengths, offsets and
 *  null counts are in range, children are long enough for their parent (struct fields: offset +
 *  length entries; fixed-size list: (offset + length) * N), and list offsets at both ends of the
 *  range are within [0, child length] with first <= last (two reads).
 *  Supported formats: n, b, c C s S i I l L, e f g, +l, +L, +w:N, +s; validity bitmaps on every
 *  type but n. Metadata and flags are ignored.
 *  Nesting: up to 1000 levels (jg_array_validate's limit), so every array jagged exports,
 *  the builder's deepest included, imports back.
 *  Errors: JG_EINVAL (NULL argument, a released schema or array), JG_ENOTSUP (an unsupported
 *  format or a dictionary; the message names the format and the field path; nesting deeper
 *  than 1000 levels), JG_ECORRUPT (bad
 *  structure: n_buffers or n_children wrong, a NULL buffer or child where one is required, a
 *  negative length, offset or null count, a child too short, offsets out of range; the message
 *  names the path), JG_ENOMEM, JG_EOVERFLOW. Thread-safety: do not share `array` meanwhile. */
JG_API jg_status jg_array_import_arrow(struct ArrowSchema *schema, struct ArrowArray *array,
                                       jg_array **out, jg_error *err);

/** Imports an ArrowDeviceArray. ARROW_DEVICE_CPU, ARROW_DEVICE_CUDA_HOST and
 *  ARROW_DEVICE_CUDA_MANAGED arrays become cpu arrays (their memory is host-accessible);
 *  ARROW_DEVICE_CUDA arrays become cuda:device_id arrays whose buffers are the producer's device
 *  pointers (no copy). Other device types give JG_ENOTSUP.
 *
 *  Synchronisation: when sync_event is non-NULL (a `cudaEvent_t *`), a cuda result makes
 *  `stream` wait on the event (cudaStreamWaitEvent) before anything else is enqueued, so work
 *  on `stream` sees the data; a cpu result (CUDA_HOST, CUDA_MANAGED) waits for the event on the
 *  host (cudaEventSynchronize), so host code sees it. sync_event is ignored for ARROW_DEVICE_CPU.
 *  `stream` is a stream of device device_id (NULL: the legacy default stream); it is ignored
 *  for host-accessible device types. Use a cuda result on `stream` (or after synchronising
 *  with it). No buffer is copied and no
 *  value is read from device memory (the child lengths Arrow carries are enough); the few
 *  buffers an import makes (bool unpacking, the index of a null-type array, the offset of an
 *  offsets-less empty list) are written on `stream`, on device device_id.
 *
 *  Ownership: as jg_array_import_arrow, for device_array->array (moved on success, untouched on
 *  error; the event stays the producer's and is freed by that release). Checks: as
 *  jg_array_import_arrow, except that offsets in device memory are not read.
 *  Errors: as jg_array_import_arrow, and JG_EINVAL (negative device_id for CUDA device types),
 *  JG_ENODEV, JG_EINDEX (no such CUDA device), JG_EDEVMEM, JG_ECUDA. */
JG_API jg_status jg_array_import_arrow_device(struct ArrowSchema *schema,
                                              struct ArrowDeviceArray *device_array,
                                              jg_stream stream, jg_array **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_ARROW_H */
