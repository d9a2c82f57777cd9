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

/** Views `buf` with `layout` and `dtype`. Checks: layout.itemsize equals the dtype's itemsize,
 *  min offset >= 0, and jg_layout_required_size(layout) <= jg_buffer_size(buf). The device and
 *  accessibility come from jg_buffer_attributes(buf). The view does not retain `buf`.
 *  Errors: JG_EINVAL (NULL argument, negative min offset), JG_EDTYPE (itemsize mismatch),
 *  JG_ESHAPE (the layout needs more bytes than the buffer has; message gives both), JG_ECUDA. */
JG_API jg_status jg_view_from_buffer(jg_view *view, jg_buffer *buf, const jg_layout *layout,
                                     jg_dtype dtype, bool readonly, jg_error *err);

/** Views raw memory at `base` that lives on `device` (host- and device-accessibility derived from
 *  the device type). No size check is possible; the caller vouches for the extent.
 *  Errors: JG_EINVAL (NULL view or layout, NULL base with nonzero volume), JG_EDTYPE. */
JG_API jg_status jg_view_from_pointer(jg_view *view, void *base, jg_device device,
                                      const jg_layout *layout, jg_dtype dtype, bool readonly,
                                      jg_error *err);

/** Address of element (0, ..., 0), i.e. base + slice_offset * itemsize (may be below base +
 *  min offset for negative strides). NULL for a view of volume 0 with a NULL base. */
JG_API void *jg_view_data(const jg_view *view);

/** Applies slices to a view (jg_layout_slice on its layout); `out` may equal `in`.
 *  Errors: as jg_layout_slice. */
JG_API jg_status jg_view_slice(jg_view *out, const jg_view *in, int n, const jg_slice *slices,
                               jg_error *err);

/** Copies every element of `src` into `dst`, synchronously. Shapes must be equal and dtypes
 *  equal; strides may be anything on either side, negative and zero included (a zero-stride
 *  source broadcasts; a non-unique destination is an error). Host to host, host to device, device
 *  to host and device to device (same device or peers) all work; empty views are a no-op
 *  whatever their strides. When both views are contiguous alike the copy is one memcpy; otherwise
 *  a strided loop (host) or kernel (device), staging through a contiguous temporary when crossing
 *  between host and device. Source and destination must not overlap unless they are identical.
 *  Errors: JG_EINVAL (NULL), JG_ESHAPE (shapes differ; index = first differing axis), JG_EDTYPE
 *  (dtypes differ), JG_EREADONLY (dst read-only), JG_EVALUE (dst not unique), JG_ENODEV (device
 *  memory without a usable GPU), JG_EDEVMEM / JG_ENOMEM (staging), JG_ECUDA. */
JG_API jg_status jg_copy(const jg_view *dst, const jg_view *src, jg_error *err);

/** As jg_copy, but enqueued on `stream` and returning without waiting where it can: device to
 *  device copies and copies from or into pinned or managed memory are fully asynchronous;
 *  copies touching pageable host memory may block while staging. `temp` is unused when NULL
 *  (staging memory then comes from the device's default resource; see jg_copy_ex for
 *  caller-owned staging). The views' memory must stay valid until the stream reaches the copy.
 *  Errors: as jg_copy. */
JG_API jg_status jg_copy_async(const jg_view *dst, const jg_view *src, jg_stream stream,
                               jg_error *err);

/** jg_copy_async with caller-owned staging memory (CUB's two-phase contract): with `temp` NULL
 *  it only writes to `*temp_bytes` the device bytes staging needs for these views (0 when none)
 *  and copies nothing; with `temp` non-NULL (device memory of `*temp_bytes` bytes on dst's or
 *  src's device) it copies using it and allocates no device memory. Host-side staging, when
 *  needed, uses the host resource. Errors: as jg_copy, and JG_EINVAL if *temp_bytes is too
 *  small. */
JG_API jg_status jg_copy_ex(const jg_view *dst, const jg_view *src, void *temp,
                            size_t *temp_bytes, jg_stream stream, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_VIEW_H */
