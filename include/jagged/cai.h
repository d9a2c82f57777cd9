/* cai.h: the CUDA Array Interface (CAI) version 3 as a C struct, and strided views to and from it.
 *
 * The CAI (NVIDIA/numba-cuda, docs/source/user/cuda_array_interface.rst) is a Python dict `__cuda_array_interface__`. jg_cai mirrors
 * that dict field by field so that a binding can fill it from the dict (or build the dict from it)
 * without jagged touching Python:
 *
 *   "shape"   -> ndim, shape          "typestr" -> typestr      "data" -> (data, readonly)
 *   "strides" -> has_strides, strides (BYTES; None or absent: has_strides false, C order)
 *   "version" -> version              "stream"  -> has_stream, stream
 *   "mask"    -> has_mask (must be false: masked arrays are not supported)
 *   "descr"   -> not represented (only needed for structured types, which are not supported)
 *
 * Lifetime: the CAI has no owner slot. A view made from a jg_cai does not keep the memory alive;
 * the caller must keep the producer object alive while the view is used. */
#ifndef JAGGED_CAI_H
#define JAGGED_CAI_H

#include "jagged/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Room for a typestr such as "<f8" or "<c16", including the terminating NUL. */
#define JG_CAI_TYPESTR_SIZE 8

/** The CAI version jg_view_to_cai writes and the lowest jg_view_from_cai accepts. */
#define JG_CAI_VERSION 3

/** The "stream" value meaning the legacy default stream (cudaStreamLegacy). */
#define JG_CAI_STREAM_LEGACY 1
/** The "stream" value meaning the per-thread default stream (cudaStreamPerThread). */
#define JG_CAI_STREAM_PER_THREAD 2

/** One `__cuda_array_interface__` dict. A plain value (about 1 KiB); zero-initialise, then fill.
 *  Entries of shape and strides past ndim are ignored. */
typedef struct jg_cai {
  int32_t version; /**< "version": must be >= 3 */
  uintptr_t data;  /**< "data"[0]: device-accessible address of element (0, ..., 0);
                        0 is allowed (and usual) when the volume is 0 */
  bool readonly;   /**< "data"[1] */
  char typestr[JG_CAI_TYPESTR_SIZE]; /**< "typestr": NumPy array-interface type string,
                                          NUL-terminated, e.g. "<f4", "|b1", "<c16" */
  int32_t ndim;                      /**< len("shape"), 0..JG_MAX_NDIM */
  int64_t shape[JG_MAX_NDIM];        /**< "shape" */
  bool has_strides;                  /**< "strides" present and not None */
  int64_t strides[JG_MAX_NDIM]; /**< "strides" in BYTES (unlike DLPack); may be negative or 0 */
  bool has_stream;              /**< "stream" present and not None */
  intptr_t stream;              /**< "stream": 1 legacy default, 2 per-thread default, any other
                                     nonzero value a cudaStream_t; 0 is invalid (ambiguous) */
  bool has_mask;                /**< "mask" present and not None (always rejected) */
  uint8_t reserved[32];         /**< zero; room for later fields (jg_view_to_cai zeroes it) */
} jg_cai;

/** Parses a NumPy array-interface type string into a dtype.
 *  Grammar: one byte-order character ('<' little-endian, '>' big-endian, '|' not applicable), one
 *  kind character, and the itemsize in decimal, nothing else: "<f8", "|b1", "<i4", "|u1", "<c16".
 *  Accepted: b1 (bool), i1 i2 i4 i8, u1 u2 u4 u8, f2 f4 f8, c8 c16. Byte order: for one-byte
 *  types any of the three; for wider types only the host's native order ('<' on little-endian
 *  hosts), since jagged never byte-swaps.
 *  Errors: JG_EINVAL (`typestr` or `dtype` NULL); JG_EDTYPE, quoting the string, for a malformed
 *  string ("garbage"), a non-native byte order ("'>f4' is big-endian"), '|' on a multi-byte
 *  type, or an unsupported kind or size (structured 'V', strings 'S'/'U', datetimes 'M'/'m',
 *  objects 'O', "f16", ...). */
JG_API jg_status jg_cai_typestr_parse(const char *typestr, jg_dtype *dtype, jg_error *err);

/** Writes the type string of `dtype` to `out` (JG_CAI_TYPESTR_SIZE bytes): "|b1", "|i1", "|u1",
 *  and '<' (native little-endian; '>' on big-endian hosts) plus kind and size for wider types,
 *  e.g. "<f4", "<c16". Errors: JG_EINVAL (`out` NULL), JG_EDTYPE (JG_DTYPE_INVALID, unknown
 *  values, and bfloat16, which has no array-interface type string). */
JG_API jg_status jg_cai_typestr_format(jg_dtype dtype, char *out, jg_error *err);

/** Views the memory described by a CAI v3 dict. Borrowed: view->buffer is NULL and nothing keeps
 *  the producer's memory alive.
 *
 *  The view: dtype from typestr; shape as given; strides = byte strides / itemsize (C order when
 *  has_strides is false); element (0, ..., 0) at `data`. view->base is the lowest address any
 *  element occupies and layout.slice_offset the element distance from it to element (0, ..., 0)
 *  (as jg_view_from_dltensor). readonly from the dict.
 *  Device: for a non-empty array, from jg_pointer_get_attributes on the span the elements occupy
 *  (CUDA device memory -> {JG_DEVICE_CUDA, ordinal}, managed -> JG_DEVICE_CUDA_MANAGED, pinned or
 *  registered host memory -> JG_DEVICE_CUDA_HOST, with the accessibility the query reports). For
 *  an empty array (volume 0) the pointer, which may be 0, is NOT queried (cuda-python issue
 *  #1396): the device is {JG_DEVICE_CUDA, the calling thread's current device}, or ordinal 0 when
 *  CUDA is unavailable (nothing will ever be dereferenced), device-accessible only; base is
 *  `data` and all strides are 0.
 *  Streams: this call does not synchronise. If has_stream is set, work on that stream may still
 *  be writing the data: use jg_cai_wait_async to order the consumer's stream after it.
 *
 *  Errors (`view` untouched on error):
 *  - JG_EINVAL: `cai` or `view` NULL; ndim < 0; a negative extent (index = axis); a byte stride
 *    not divisible by the itemsize (index = axis; cuda-python issue #1429); data 0 with volume
 *    > 0; has_stream with stream 0; a pointer that CUDA does not report as device-accessible
 *    (plain host memory, or any memory in a build or on a machine without CUDA); elements below
 *    address 0 or past the address space;
 *  - JG_ENOTSUP: version < 3 (the message gives it); has_mask; ndim > JG_MAX_NDIM;
 *  - JG_EDTYPE: as jg_cai_typestr_parse;
 *  - JG_EOVERFLOW: the volume, an offset or the byte span overflows int64;
 *  - JG_ECUDA: the pointer query failed. */
JG_API jg_status jg_view_from_cai(const jg_cai *cai, jg_view *view, jg_error *err);

/** Describes `view` as a CAI v3 dict in `*out` (fully overwritten).
 *  version 3; data = address of element (0, ..., 0), or 0 when the volume is 0; readonly =
 *  view->readonly; typestr from jg_cai_typestr_format; shape as the view's; strides in BYTES,
 *  with has_strides false when the view is C-contiguous (extent-1 axes ignored; always for volume
 *  0 and for 0-d views), else the exact byte strides (negative and zero included); has_stream
 *  false (a view has no stream: a producer with pending work sets has_stream/stream itself);
 *  has_mask false. Nothing is retained: the dict is valid while the view's memory is.
 *  Errors (`*out` unspecified on error): JG_EINVAL (`view` or `out` NULL; an invalid layout:
 *  ndim outside [0, JG_MAX_NDIM], itemsize <= 0, a negative extent ("extents must be
 *  non-negative", index = axis); base NULL with volume > 0); JG_ENOTSUP (the view is not
 *  device-accessible: the CAI requires device-accessible memory); JG_EDTYPE (as
 *  jg_cai_typestr_format, or itemsize mismatch); JG_EOVERFLOW (the volume, an element offset or
 *  its byte offset, a byte stride or the element address overflows). */
JG_API jg_status jg_view_to_cai(const jg_view *view, jg_cai *out, jg_error *err);

/** Orders `stream` (the consumer's stream; NULL is the legacy default stream) after the work the
 *  producer declared in cai->stream, as CAI v3 asks of consumers: an event is recorded on the
 *  producer stream and waited on by `stream` (cudaStreamWaitEvent), so the host never blocks.
 *  Does nothing when has_stream is false or both name the same stream (a producer stream of 1
 *  with a NULL consumer stream included). Sentinels: 1 is cudaStreamLegacy, 2 is
 *  cudaStreamPerThread; any other value is a cudaStream_t that must be valid and on the current
 *  device.
 *  Errors: JG_EINVAL (`cai` NULL; has_stream with stream 0); JG_ENODEV (a stream is declared but
 *  CUDA is unavailable); JG_ECUDA (event creation, record or wait failed). */
JG_API jg_status jg_cai_wait_async(const jg_cai *cai, jg_stream stream, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_CAI_H */
