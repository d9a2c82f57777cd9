/* view.h: strided views (base pointer + layout + dtype + read-only flag + device) and copies
 * between any two of them, host or device.
 *
 * A jg_view is a borrowed descriptor: a plain struct with no destructor. It does not hold a
 * reference to its buffer; it must not outlive the memory it describes (keep the jg_buffer, or
 * whatever owns the memory, alive while the view is used). Element (i0, ..., in-1) is at byte
 * address base + itemsize * (layout.slice_offset + sum(ik * layout.strides[k])). */
#ifndef JAGGED_VIEW_H
#define JAGGED_VIEW_H

#include "jagged/layout.h"
#include "jagged/memory.h"
#include "jagged/transfer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A strided view of typed memory. */
typedef struct jg_view {
  void *base;          /**< the buffer's base address (host address for host-accessible
                            memory, device address otherwise) */
  jg_buffer *buffer;   /**< the buffer the view was made from, or NULL; not retained */
  jg_device device;    /**< where the memory lives */
  bool host_accessible;
  bool device_accessible;
  bool readonly;
  jg_dtype dtype;      /**< element type; layout.itemsize == jg_dtype_itemsize(dtype) */
  jg_layout layout;
} jg_view;

/** Views `buf` with `layout` and `dtype` (cuda.core's StridedMemoryView.from_buffer, NVIDIA
 *  cuda-python cuda_core/cuda/core/_memoryview.pyx). Checks: the layout is valid (layout.h: 0 <=
 *  ndim <= JG_MAX_NDIM, itemsize > 0, extents >= 0, volume and element offsets in int64) and its
 *  byte offsets fit in int64, layout.itemsize equals the dtype's itemsize, min offset >= 0, and
 *  jg_layout_required_size(layout) <= jg_buffer_size(buf) (so the slice offset prefix counts;
 *  an empty layout fits any buffer, a NULL 0-byte one included). `base` is jg_buffer_data(buf);
 *  the device and accessibility come from jg_buffer_attributes(buf). The view does not retain
 *  `buf` (keep a reference while the view is used).
 *  Errors: JG_EINVAL (NULL argument; invalid ndim or itemsize; a negative extent, "extents must
 *  be non-negative", index = axis; negative min offset: the message gives it), JG_EDTYPE
 *  (invalid dtype, itemsize mismatch), JG_ESHAPE (the layout needs more bytes than the buffer
 *  has; message gives both), JG_EOVERFLOW (the volume, an element offset or a byte offset
 *  overflows int64), JG_ECUDA (attribute query). */
JG_API jg_status jg_view_from_buffer(jg_view *view, jg_buffer *buf, const jg_layout *layout,
                                     jg_dtype dtype, bool readonly, jg_error *err);

/** Views raw memory at `base` that lives on `device`: CPU is host-accessible only, CUDA
 *  device-accessible only, CUDA_HOST and CUDA_MANAGED both. Nothing is dereferenced or queried,
 *  so no GPU is needed. No size or min-offset check is possible; the caller vouches for the
 *  extent. The layout is checked as by jg_view_from_buffer.
 *  Errors: JG_EINVAL (NULL view or layout; invalid ndim or itemsize; a negative extent, "extents
 *  must be non-negative", index = axis; NULL base with nonzero volume; unknown device type;
 *  negative id for a CUDA device type), JG_EDTYPE (invalid dtype, itemsize mismatch),
 *  JG_EOVERFLOW (the volume, an element offset, a byte offset offset * itemsize, or the byte
 *  span of the elements overflows int64). */
JG_API jg_status jg_view_from_pointer(jg_view *view, void *base, jg_device device,
                                      const jg_layout *layout, jg_dtype dtype, bool readonly,
                                      jg_error *err);

/** Address of element (0, ..., 0), i.e. base + slice_offset * itemsize (with negative strides
 *  that is not the view's lowest address: a[::-1] of (5,) gives base + 4 * itemsize). NULL for a
 *  NULL view or a NULL base (possible only with volume 0). */
JG_API void *jg_view_data(const jg_view *view);

/** Applies `n` slices to a view (jg_layout_slice on its layout; base, buffer, device, dtype and
 *  read-only flag are kept); `out` may equal `in`. On error `out` is unchanged.
 *  Errors: JG_EINVAL (NULL out or in), and those of jg_layout_slice. */
JG_API jg_status jg_view_slice(jg_view *out, const jg_view *in, int n, const jg_slice *slices,
                               jg_error *err);

/** Copies every element of `src` into `dst` and waits for the copy to finish.
 *
 *  Shapes and dtypes must be equal; strides may be anything on either side, negative and zero
 *  included: a zero-stride source broadcasts, a destination that is not unique
 *  (jg_layout_is_unique false, e.g. a broadcast) is an error. Host to host, host to device,
 *  device to host and device to device all work; "host" is any host-accessible memory (pageable,
 *  pinned, registered, managed), "device" is device-only memory. Empty views are a no-op whatever
 *  their strides and base pointers (as numba issue #8477 asks of copies of empty arrays). Both
 *  views' layouts are checked as by jg_view_from_pointer (views are public structs).
 *
 *  Aliasing: source and destination may overlap. Overlapping views are handled as if the source
 *  were read completely before the destination is written (NumPy's semantics for dst[...] = src):
 *  an in-place transpose a = a.T, a shift a[1:] = a[:-1], a reversal a = a[::-1] all give the
 *  NumPy result. When the views are the same elements in the same order nothing is copied.
 *  Otherwise, when the byte ranges of their elements (from the lowest element's first byte to the
 *  highest element's last byte) intersect within one memory space (both host-accessible, or both
 *  device memory of the same device), the source is copied into a dense temporary and the
 *  temporary into the destination: on the host (from jg_memory_resource_host(); a contiguous
 *  copy is a memmove instead) or on that device (device staging, which jg_copy_ex reports and
 *  takes from `temp`). Views that interleave without sharing an element (a[::2] and a[1::2]) have
 *  intersecting ranges and are staged too. Views in different memory spaces are never considered
 *  to overlap (registered host memory seen through a separate device alias is not detected).
 *
 *  How (the design of NVIDIA cuda-python PR #1367): both layouts drop extent-1 axes,
 *  are permuted by dst's stride order (with dst's negative axes walked forwards) and flattened
 *  alike. If that leaves one run with stride 1 on both sides, the copy is one memcpy
 *  (cudaMemcpyAsync when CUDA is involved). Otherwise host <-> host is a strided host loop;
 *  device -> device a strided CUDA kernel (tiled through shared memory for transposes); and
 *  host <-> device stages through a dense temporary: the source's span is moved in bulk and
 *  reordered by the kernel when it is no larger than the data (transposed, reversed or broadcast
 *  sources), else the host side is packed or unpacked by the host loop, with the device-side
 *  reorder done by the kernel where the device side is not dense.
 *
 *  Devices: device memory must live on an existing CUDA device, which is made current during the
 *  call; strided copies between two different devices are supported only when the source's
 *  elements fill their span (else JG_ENOTSUP; contiguous copies between devices always work).
 *  Pinned or managed views used when no GPU is usable are copied by host code.
 *  Thread-safety: concurrent copies into distinct destinations are safe.
 *  Errors: JG_EINVAL (NULL view; a view with elements but a NULL base; memory neither host- nor
 *  device-accessible), JG_ESHAPE (ndim or extents differ; index = first differing axis),
 *  JG_EDTYPE (dtypes differ, or a layout's itemsize does not match its dtype), JG_EREADONLY (dst
 *  read-only; checked even for empty views), JG_EVALUE (dst not unique), JG_ENODEV (device memory
 *  and no usable GPU; the message gives the reason), JG_EINDEX (no such CUDA device), JG_ENOTSUP
 *  (see Devices), JG_EDEVMEM / JG_ENOMEM (staging), JG_ECUDA; and the layout errors of
 *  jg_view_from_pointer for either view (JG_EINVAL for a bad ndim, itemsize or a negative extent,
 *  index = axis; JG_EOVERFLOW when the volume, an element offset, a byte offset or the byte span
 *  of a view's elements overflows int64, e.g. strides (2^62, -2^62) over shape (2, 2), or stride
 *  2^61 of 8-byte elements). */
JG_API jg_status jg_copy(const jg_view *dst, const jg_view *src, jg_error *err);

#if !defined(JG_BUILDING_LIBRARY) && !defined(JG_NO_CALLSITE_MACROS)
/* Call-site wrapper (transfer.h): transfer events of this call name the caller's file and line. */
#define jg_copy(...) (jg_callsite_push(__FILE__, __LINE__), jg_callsite_pop(jg_copy(__VA_ARGS__)))
#endif

/** As jg_copy, but enqueued on `stream` (NULL: the legacy default stream; a non-NULL stream must
 *  belong to the device of the device-side memory) and returning without waiting where it can.
 *  Fully asynchronous: device to device (overlapping views on one device included: they are
 *  staged on the device); one memcpy to or from pinned or managed memory; host to
 *  device when the source's span moves in bulk (its host memory must then stay unchanged until
 *  the stream reaches the copy); device to host into a dense pinned or managed destination.
 *  Blocking: copies touching pageable memory (as cudaMemcpyAsync is); copies that pack or unpack
 *  the host side with the host loop (they wait for the stream first when that memory is
 *  device-accessible, so that they see earlier work on the stream, and wait again before
 *  freeing host staging); host to host copies of pageable memory, which run at once on the
 *  calling thread; overlapping host-accessible views, copied by host code after waiting for the
 *  stream. Device staging is allocated with cudaMallocAsync on `stream` and freed with
 *  cudaFreeAsync (cudaMalloc/cudaFree after a stream synchronisation where pools are not
 *  supported); host staging comes from jg_memory_resource_host(). The views' memory must stay
 *  valid until the stream reaches the copy. Errors: as jg_copy. */
JG_API jg_status jg_copy_async(const jg_view *dst, const jg_view *src, jg_stream stream,
                               jg_error *err);

#if !defined(JG_BUILDING_LIBRARY) && !defined(JG_NO_CALLSITE_MACROS)
/* Call-site wrapper (transfer.h): transfer events of this call name the caller's file and line. */
#define jg_copy_async(...) \
  (jg_callsite_push(__FILE__, __LINE__), jg_callsite_pop(jg_copy_async(__VA_ARGS__)))
#endif

/** jg_copy_async with caller-owned device staging memory (the two-phase temporary-storage
 *  contract of NVIDIA CCCL's CUB device-wide algorithms). With `temp` NULL it checks the views,
 *  writes to `*temp_bytes` the device bytes staging needs for them, at least 1 (as CUB does, so
 *  that the second call of the idiom never passes NULL again), and copies nothing. With `temp`
 *  non-NULL (device memory of `*temp_bytes` bytes on the device of the device-side view, any
 *  alignment) it copies using it and allocates no device memory; `temp` must stay untouched
 *  until the stream reaches the copy. Overlapping device views (see jg_copy) need the whole volume in bytes
 *  of staging. Host-side staging, when needed, still comes from jg_memory_resource_host(). The
 *  size depends only on the views' layouts, addresses (overlap) and kinds of memory.
 *  Errors: as jg_copy, JG_EINVAL if `temp_bytes` is NULL or *temp_bytes is smaller than needed
 *  (the message gives both). */
JG_API jg_status jg_copy_ex(const jg_view *dst, const jg_view *src, void *temp,
                            size_t *temp_bytes, jg_stream stream, jg_error *err);

#if !defined(JG_BUILDING_LIBRARY) && !defined(JG_NO_CALLSITE_MACROS)
/* Call-site wrapper (transfer.h): transfer events of this call name the caller's file and line. */
#define jg_copy_ex(...) \
  (jg_callsite_push(__FILE__, __LINE__), jg_callsite_pop(jg_copy_ex(__VA_ARGS__)))
#endif

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_VIEW_H */
