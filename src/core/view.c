/* view.c: strided views: construction from a buffer or a raw pointer, data pointer, slicing.
 * Copies between views live in copy.c. */
#include "jagged/view.h"

#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_layout.h"

/* Checks that `layout` is valid (jgi_layout_check_bytes: a view addresses bytes) and matches
 * `dtype`; fills nothing. */
static jg_status check_layout_dtype(const jg_layout *layout, jg_dtype dtype, const char *fn,
                                    jg_error *err) {
  JG_RETURN_NOT_OK(jgi_layout_check_bytes(layout, fn, "layout", err));
  const int64_t itemsize = jg_dtype_itemsize(dtype);
  JG_RETURN_IF(itemsize == 0, JG_EDTYPE, err, "%s: invalid dtype %d", fn, (int)dtype);
  JG_RETURN_IF(layout->itemsize != itemsize, JG_EDTYPE, err,
               "%s: layout itemsize %lld does not match dtype %s (%lld bytes)", fn,
               (long long)layout->itemsize, jg_dtype_name(dtype), (long long)itemsize);
  return JG_OK;
}

jg_status jg_view_from_buffer(jg_view *view, jg_buffer *buf, const jg_layout *layout,
                              jg_dtype dtype, bool readonly, jg_error *err) {
  static const char fn[] = "jg_view_from_buffer";
  JG_RETURN_IF(view == NULL, JG_EINVAL, err, "%s: view is NULL", fn);
  JG_RETURN_IF(buf == NULL, JG_EINVAL, err, "%s: buf is NULL", fn);
  JG_RETURN_IF(layout == NULL, JG_EINVAL, err, "%s: layout is NULL", fn);
  JG_RETURN_NOT_OK(check_layout_dtype(layout, dtype, fn, err));
  jg_offset lo = 0, hi = -1;
  jg_layout_offset_bounds(layout, &lo, &hi);
  JG_RETURN_IF(lo < 0, JG_EINVAL, err,
               "%s: the layout maps an element to offset %lld, before the buffer's start", fn,
               (long long)lo);
  size_t need = 0;
  JG_RETURN_NOT_OK(jg_layout_required_size(layout, &need, err));
  const size_t have = jg_buffer_size(buf);
  JG_RETURN_IF(need > have, JG_ESHAPE, err,
               "%s: the layout needs %zu bytes from the buffer's start but the buffer has %zu", fn,
               need, have);
  jg_pointer_attributes attrs;
  memset(&attrs, 0, sizeof attrs);
  JG_RETURN_NOT_OK(jg_buffer_attributes(buf, &attrs, err));
  jg_view v;
  memset(&v, 0, sizeof v);
  v.base = jg_buffer_data(buf);
  v.buffer = buf;
  v.device = attrs.device;
  v.host_accessible = attrs.host_accessible;
  v.device_accessible = attrs.device_accessible;
  v.readonly = readonly;
  v.dtype = dtype;
  v.layout = *layout;
  *view = v;
  return JG_OK;
}

jg_status jg_view_from_pointer(jg_view *view, void *base, jg_device device, const jg_layout *layout,
                               jg_dtype dtype, bool readonly, jg_error *err) {
  static const char fn[] = "jg_view_from_pointer";
  JG_RETURN_IF(view == NULL, JG_EINVAL, err, "%s: view is NULL", fn);
  JG_RETURN_IF(layout == NULL, JG_EINVAL, err, "%s: layout is NULL", fn);
  JG_RETURN_NOT_OK(check_layout_dtype(layout, dtype, fn, err));
  bool host = false, dev = false;
  switch (device.type) {
    case JG_DEVICE_CPU:
      host = true;
      break;
    case JG_DEVICE_CUDA:
      dev = true;
      break;
    case JG_DEVICE_CUDA_HOST:
    case JG_DEVICE_CUDA_MANAGED:
      host = true;
      dev = true;
      break;
    default:
      return jg_error_set(err, JG_EINVAL, -1, "%s: unknown device type %d", fn, (int)device.type);
  }
  JG_RETURN_IF(dev && device.id < 0, JG_EINVAL, err, "%s: CUDA device id %d is negative", fn,
               (int)device.id);
  JG_RETURN_IF(base == NULL && jg_layout_volume(layout) != 0, JG_EINVAL, err,
               "%s: base is NULL but the layout has %lld elements", fn,
               (long long)jg_layout_volume(layout));
  jg_view v;
  memset(&v, 0, sizeof v);
  v.base = base;
  v.buffer = NULL;
  v.device = device;
  v.host_accessible = host;
  v.device_accessible = dev;
  v.readonly = readonly;
  v.dtype = dtype;
  v.layout = *layout;
  *view = v;
  return JG_OK;
}

void *jg_view_data(const jg_view *view) {
  if (view == NULL || view->base == NULL) return NULL;
  /* Element (0, ..., 0) may lie below base + min offset but never outside the allocation of a
   * view with elements; compute through integers so that an empty view's offset is harmless. */
  const uintptr_t b = (uintptr_t)view->base;
  const uintptr_t delta = (uintptr_t)view->layout.slice_offset * (uintptr_t)view->layout.itemsize;
  return (void *)(b + delta);
}

jg_status jg_view_slice(jg_view *out, const jg_view *in, int n, const jg_slice *slices,
                        jg_error *err) {
  JG_RETURN_IF(out == NULL || in == NULL, JG_EINVAL, err, "jg_view_slice: %s is NULL",
               out == NULL ? "out" : "in");
  jg_layout l;
  JG_RETURN_NOT_OK(jg_layout_slice(&l, &in->layout, n, slices, err));
  if (out != in) *out = *in;
  out->layout = l;
  return JG_OK;
}

jg_status jgi_view_check(const jg_view *v, const char *op, const char *name, jg_error *err) {
  JG_RETURN_IF(v == NULL, JG_EINVAL, err, "%s: %s is NULL", op, name);
  JG_RETURN_NOT_OK(jgi_layout_check_bytes(&v->layout, op, name, err));
  jg_offset lo = 0, hi = -1;
  jg_layout_offset_bounds(&v->layout, &lo, &hi);
  if (v->buffer == NULL || hi < lo) return JG_OK; /* no buffer to fit, or no element */
  /* Byte distance from the buffer's start to the base pointer, as a signed 64-bit value. */
  const uintptr_t data = (uintptr_t)jg_buffer_data(v->buffer);
  const uintptr_t base = (uintptr_t)v->base;
  const uint64_t gap = base >= data ? (uint64_t)(base - data) : (uint64_t)(data - base);
  const size_t size = jg_buffer_size(v->buffer);
  int64_t first = 0, end = 0;
  bool ovf = gap > (uint64_t)INT64_MAX;
  if (!ovf) {
    const int64_t delta = base >= data ? (int64_t)gap : -(int64_t)gap;
    /* jgi_layout_check_bytes guarantees lo * itemsize and (hi + 1) * itemsize fit. */
    ovf = jgi_add_overflow(delta, lo * v->layout.itemsize, &first) ||
          jgi_add_overflow(delta, (hi + 1) * v->layout.itemsize, &end);
  }
  JG_RETURN_IF(ovf, JG_ESHAPE, err,
               "%s: %s's base pointer is too far from its buffer's start to address it", op, name);
  JG_RETURN_IF(first < 0 || (uint64_t)end > (uint64_t)size, JG_ESHAPE, err,
               "%s: %s reaches bytes [%lld, %lld) from its buffer's start, outside the buffer's "
               "%zu bytes",
               op, name, (long long)first, (long long)end, size);
  return JG_OK;
}
