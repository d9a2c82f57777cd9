/* dlpack.c: DLPack 1.x import (versioned, legacy, borrowed DLTensor) and export of jg_views.
 *
 * Written from the DLPack specification (dmlc/dlpack include/dlpack/dlpack.h and
 * docs/source/python_spec.rst), with the import and export rules of NVIDIA cuda-python's
 * StridedMemoryView (cuda_core/cuda/core/_memoryview.pyx) and the fixes of the issues cited in
 * dlpack.h. */
#include "jagged/dlpack.h"

#include <stdlib.h>
#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_layout.h"
#include "io/dlpack/foreign.h"

/* ------------------------------------------------------------------------------------------ */
/* Shared with cai.c                                                                           */
/* ------------------------------------------------------------------------------------------ */

jg_status jgi_foreign_span(const jg_layout *layout, uintptr_t first, uintptr_t *lowest,
                           size_t *bytes, jg_offset *min_offset, jg_error *err) {
  if (jg_layout_volume(layout) == 0) {
    *lowest = first;
    *bytes = 0;
    *min_offset = 0;
    return JG_OK;
  }
  int64_t lo = 0;
  int64_t hi = 0;
  for (int k = 0; k < layout->ndim; ++k) {
    int64_t reach;
    JG_RETURN_IF_AT(jgi_mul_overflow(layout->shape[k] - 1, layout->strides[k], &reach),
                    JG_EOVERFLOW, err, k,
                    "offset of the last element along axis %d overflows int64", k);
    bool overflow = reach < 0 ? jgi_add_overflow(lo, reach, &lo) : jgi_add_overflow(hi, reach, &hi);
    JG_RETURN_IF_AT(overflow, JG_EOVERFLOW, err, k, "element offsets overflow int64 (at axis %d)",
                    k);
  }
  const int64_t itemsize = layout->itemsize;
  int64_t count; /* elements from the lowest to the highest, inclusive */
  int64_t span;  /* bytes from the lowest address to one past the highest element */
  int64_t below; /* bytes from the lowest address up to element (0, ..., 0) */
  int64_t above; /* bytes from element (0, ..., 0) to one past the highest element */
  JG_RETURN_IF(jgi_sub_overflow(hi, lo, &count) || jgi_add_overflow(count, 1, &count) ||
                   jgi_mul_overflow(count, itemsize, &span) ||
                   jgi_mul_overflow(lo, itemsize, &below) ||
                   jgi_sub_overflow((int64_t)0, below, &below) || jgi_add_overflow(hi, 1, &above) ||
                   jgi_mul_overflow(above, itemsize, &above),
               JG_EOVERFLOW, err, "the byte span of the elements overflows int64");
  JG_RETURN_IF((uint64_t)span > (uint64_t)SIZE_MAX, JG_EOVERFLOW, err,
               "the byte span of the elements (%lld bytes) does not fit in size_t",
               (long long)span);
  JG_RETURN_IF((uint64_t)below > (uint64_t)first, JG_EINVAL, err,
               "negative strides reach %lld bytes below element (0, ..., 0) at address %#llx, "
               "below address 0",
               (long long)below, (unsigned long long)first);
  JG_RETURN_IF((uint64_t)above > (uint64_t)(UINTPTR_MAX - first), JG_EINVAL, err,
               "elements reach past the end of the address space (%lld bytes from %#llx)",
               (long long)above, (unsigned long long)first);
  *lowest = first - (uintptr_t)below;
  *bytes = (size_t)span;
  *min_offset = lo;
  return JG_OK;
}

jg_status jgi_foreign_first(const jg_view *view, uintptr_t *first, jg_error *err) {
  const uintptr_t base = (uintptr_t)view->base;
  int64_t delta;
  JG_RETURN_IF(jgi_mul_overflow(view->layout.slice_offset, view->layout.itemsize, &delta),
               JG_EOVERFLOW, err, "slice_offset * itemsize overflows int64");
  if (delta >= 0) {
    JG_RETURN_IF((uint64_t)delta > (uint64_t)(UINTPTR_MAX - base), JG_EOVERFLOW, err,
                 "base + slice_offset * itemsize overflows the address space");
    *first = base + (uintptr_t)delta;
  } else {
    JG_RETURN_IF(delta == INT64_MIN || (uint64_t)(-delta) > (uint64_t)base, JG_EOVERFLOW, err,
                 "base + slice_offset * itemsize is below address 0");
    *first = base - (uintptr_t)(-delta);
  }
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Names for messages                                                                          */
/* ------------------------------------------------------------------------------------------ */

static const char *device_type_name(int32_t type) {
  switch (type) {
    case kDLCPU:
      return "kDLCPU";
    case kDLCUDA:
      return "kDLCUDA";
    case kDLCUDAHost:
      return "kDLCUDAHost";
    case kDLOpenCL:
      return "kDLOpenCL";
    case kDLVulkan:
      return "kDLVulkan";
    case kDLMetal:
      return "kDLMetal";
    case kDLVPI:
      return "kDLVPI";
    case kDLROCM:
      return "kDLROCM";
    case kDLROCMHost:
      return "kDLROCMHost";
    case kDLExtDev:
      return "kDLExtDev";
    case kDLCUDAManaged:
      return "kDLCUDAManaged";
    case kDLOneAPI:
      return "kDLOneAPI";
    case kDLWebGPU:
      return "kDLWebGPU";
    case kDLHexagon:
      return "kDLHexagon";
    case kDLMAIA:
      return "kDLMAIA";
    case kDLTrn:
      return "kDLTrn";
    default:
      return "unknown device type";
  }
}

static const char *type_code_name(uint8_t code) {
  switch (code) {
    case kDLInt:
      return "kDLInt";
    case kDLUInt:
      return "kDLUInt";
    case kDLFloat:
      return "kDLFloat";
    case kDLOpaqueHandle:
      return "kDLOpaqueHandle";
    case kDLBfloat:
      return "kDLBfloat";
    case kDLComplex:
      return "kDLComplex";
    case kDLBool:
      return "kDLBool";
    case kDLFloat8_e3m4:
      return "kDLFloat8_e3m4";
    case kDLFloat8_e4m3:
      return "kDLFloat8_e4m3";
    case kDLFloat8_e4m3b11fnuz:
      return "kDLFloat8_e4m3b11fnuz";
    case kDLFloat8_e4m3fn:
      return "kDLFloat8_e4m3fn";
    case kDLFloat8_e4m3fnuz:
      return "kDLFloat8_e4m3fnuz";
    case kDLFloat8_e5m2:
      return "kDLFloat8_e5m2";
    case kDLFloat8_e5m2fnuz:
      return "kDLFloat8_e5m2fnuz";
    case kDLFloat8_e8m0fnu:
      return "kDLFloat8_e8m0fnu";
    case kDLFloat6_e2m3fn:
      return "kDLFloat6_e2m3fn";
    case kDLFloat6_e3m2fn:
      return "kDLFloat6_e3m2fn";
    case kDLFloat4_e2m1fn:
      return "kDLFloat4_e2m1fn";
    default:
      return "unknown type code";
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Data types                                                                                  */
/* ------------------------------------------------------------------------------------------ */

jg_status jg_dtype_to_dlpack(jg_dtype dtype, DLDataType *out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_dtype_to_dlpack: out is NULL");
  uint8_t code;
  switch (dtype) {
    case JG_DTYPE_BOOL:
      code = kDLBool;
      break;
    case JG_DTYPE_INT8:
    case JG_DTYPE_INT16:
    case JG_DTYPE_INT32:
    case JG_DTYPE_INT64:
      code = kDLInt;
      break;
    case JG_DTYPE_UINT8:
    case JG_DTYPE_UINT16:
    case JG_DTYPE_UINT32:
    case JG_DTYPE_UINT64:
      code = kDLUInt;
      break;
    case JG_DTYPE_FLOAT16:
    case JG_DTYPE_FLOAT32:
    case JG_DTYPE_FLOAT64:
      code = kDLFloat;
      break;
    case JG_DTYPE_COMPLEX64:
    case JG_DTYPE_COMPLEX128:
      code = kDLComplex;
      break;
    case JG_DTYPE_BFLOAT16:
      code = kDLBfloat;
      break;
    case JG_DTYPE_INVALID:
    case JG_DTYPE_COUNT_:
    default:
      return jg_error_set(err, JG_EDTYPE, -1, "dtype %d has no DLPack equivalent", (int)dtype);
  }
  out->code = code;
  out->bits = (uint8_t)(jg_dtype_itemsize(dtype) * 8);
  out->lanes = 1;
  return JG_OK;
}

jg_status jg_dtype_from_dlpack(DLDataType dt, jg_dtype *out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_dtype_from_dlpack: out is NULL");
  const unsigned code = dt.code;
  const unsigned bits = dt.bits;
  const unsigned lanes = dt.lanes;
  const uint32_t total = (uint32_t)bits * (uint32_t)lanes;
#define DTYPE_FAIL(why)                                                                     \
  jg_error_set(err, JG_EDTYPE, -1,                                                          \
               "DLPack dtype {code %u (%s), bits %u, lanes %u} is not supported: %s", code, \
               type_code_name(dt.code), bits, lanes, (why))
  if (total == 0 || total % 8 != 0)
    return DTYPE_FAIL("bits * lanes is not a whole number of bytes");
  if (lanes != 1) return DTYPE_FAIL("vector types (lanes != 1) are not supported");
  jg_dtype d = JG_DTYPE_INVALID;
  switch (code) {
    case kDLInt:
      d = bits == 8    ? JG_DTYPE_INT8
          : bits == 16 ? JG_DTYPE_INT16
          : bits == 32 ? JG_DTYPE_INT32
          : bits == 64 ? JG_DTYPE_INT64
                       : JG_DTYPE_INVALID;
      break;
    case kDLUInt:
      d = bits == 8    ? JG_DTYPE_UINT8
          : bits == 16 ? JG_DTYPE_UINT16
          : bits == 32 ? JG_DTYPE_UINT32
          : bits == 64 ? JG_DTYPE_UINT64
                       : JG_DTYPE_INVALID;
      break;
    case kDLFloat:
      d = bits == 16   ? JG_DTYPE_FLOAT16
          : bits == 32 ? JG_DTYPE_FLOAT32
          : bits == 64 ? JG_DTYPE_FLOAT64
                       : JG_DTYPE_INVALID;
      break;
    case kDLBfloat:
      d = bits == 16 ? JG_DTYPE_BFLOAT16 : JG_DTYPE_INVALID;
      break;
    case kDLComplex:
      d = bits == 64 ? JG_DTYPE_COMPLEX64 : bits == 128 ? JG_DTYPE_COMPLEX128 : JG_DTYPE_INVALID;
      break;
    case kDLBool:
      d = bits == 8 ? JG_DTYPE_BOOL : JG_DTYPE_INVALID;
      break;
    default:
      return DTYPE_FAIL("no jagged dtype for this type code");
  }
  if (d == JG_DTYPE_INVALID) return DTYPE_FAIL("no jagged dtype of this width");
#undef DTYPE_FAIL
  *out = d;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Import                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Maps a DLPack device onto jagged's; CPU, CUDA, CUDAHost and CUDAManaged only. */
static jg_status device_from_dlpack(DLDevice dl, jg_device *device, bool *host_accessible,
                                    bool *device_accessible, jg_error *err) {
  const int32_t type = (int32_t)dl.device_type;
  switch (type) {
    case kDLCPU:
      device->type = JG_DEVICE_CPU;
      device->id = 0;
      *host_accessible = true;
      *device_accessible = false;
      return JG_OK;
    case kDLCUDA:
    case kDLCUDAHost:
    case kDLCUDAManaged:
      JG_RETURN_IF(dl.device_id < 0, JG_EINVAL, err, "DLPack device %s has negative device_id %d",
                   device_type_name(type), (int)dl.device_id);
      device->type = (jg_device_type)type; /* jg_device_type numbers are DLPack's */
      device->id = dl.device_id;
      *host_accessible = type != kDLCUDA;
      *device_accessible = true;
      return JG_OK;
    default:
      return jg_error_set(err, JG_ENOTSUP, -1,
                          "DLPack device type %s (%d) is not supported (jagged takes kDLCPU, "
                          "kDLCUDA, kDLCUDAHost and kDLCUDAManaged)",
                          device_type_name(type), (int)type);
  }
}

/* Builds the view of `t` (buffer NULL) into `*view` and the byte span into `*span`. */
static jg_status view_from_tensor(const DLTensor *t, bool readonly, jg_view *view, size_t *span,
                                  jg_error *err) {
  JG_RETURN_IF(t->ndim < 0, JG_EINVAL, err, "DLTensor ndim %d is negative", (int)t->ndim);
  JG_RETURN_IF(t->ndim > JG_MAX_NDIM, JG_ENOTSUP, err,
               "DLTensor ndim %d exceeds jagged's limit of %d axes", (int)t->ndim, JG_MAX_NDIM);
  JG_RETURN_IF(t->ndim > 0 && t->shape == NULL, JG_EINVAL, err,
               "DLTensor shape is NULL with ndim %d", (int)t->ndim);
  jg_view v;
  memset(&v, 0, sizeof(v));
  JG_RETURN_NOT_OK(
      device_from_dlpack(t->device, &v.device, &v.host_accessible, &v.device_accessible, err));
  JG_RETURN_NOT_OK(jg_dtype_from_dlpack(t->dtype, &v.dtype, err));
  /* NULL strides: compact row-major (DLPack < 1.2; accepted whatever the version). */
  JG_RETURN_NOT_OK(jg_layout_init(&v.layout, (int)t->ndim, t->shape, t->strides,
                                  jg_dtype_itemsize(v.dtype), err));
  const jg_len volume = jg_layout_volume(&v.layout);
  JG_RETURN_IF(volume > 0 && t->data == NULL, JG_EINVAL, err,
               "DLTensor data is NULL but the tensor has %lld elements", (long long)volume);
  uintptr_t first = 0;
  if (t->data != NULL) {
    const uintptr_t data = (uintptr_t)t->data;
    JG_RETURN_IF(t->byte_offset > (uint64_t)(UINTPTR_MAX - data), JG_EOVERFLOW, err,
                 "DLTensor data + byte_offset (%llu) overflows the address space",
                 (unsigned long long)t->byte_offset);
    first = data + (uintptr_t)t->byte_offset; /* byte_offset is always honoured */
  }
  uintptr_t lowest;
  jg_offset min_offset;
  JG_RETURN_NOT_OK(jgi_foreign_span(&v.layout, first, &lowest, span, &min_offset, err));
  v.base = (void *)lowest;
  v.layout.slice_offset = -min_offset;
  v.buffer = NULL;
  v.readonly = readonly;
  *view = v;
  return JG_OK;
}

jg_status jg_view_from_dltensor(const DLTensor *t, jg_view *view, jg_error *err) {
  JG_RETURN_IF(t == NULL || view == NULL, JG_EINVAL, err, "jg_view_from_dltensor: %s is NULL",
               t == NULL ? "t" : "view");
  size_t span;
  return view_from_tensor(t, false, view, &span, err);
}

static void release_versioned(void *owner, void *data, size_t bytes) {
  (void)data;
  (void)bytes;
  DLManagedTensorVersioned *t = (DLManagedTensorVersioned *)owner;
  if (t != NULL && t->deleter != NULL) t->deleter(t);
}

static void release_legacy(void *owner, void *data, size_t bytes) {
  (void)data;
  (void)bytes;
  DLManagedTensor *t = (DLManagedTensor *)owner;
  if (t != NULL && t->deleter != NULL) t->deleter(t);
}

/* The owning part of both imports: wrap the span in an external buffer whose release calls the
 * tensor's deleter. On failure nothing is owned. */
static jg_status import_owned(const DLTensor *t, bool readonly, void *owner, jg_release_fn release,
                              jg_buffer **buffer, jg_view *view, jg_error *err) {
  jg_view v;
  size_t span;
  JG_RETURN_NOT_OK(view_from_tensor(t, readonly, &v, &span, err));
  jg_buffer *buf = NULL;
  JG_RETURN_NOT_OK(jg_buffer_wrap_external(v.base, span, owner, release, &buf, err));
  v.buffer = buf;
  *buffer = buf;
  *view = v;
  return JG_OK;
}

jg_status jg_dlpack_import_versioned_ex(DLManagedTensorVersioned *t, jg_buffer **buffer,
                                        jg_view *view, jg_dlpack_info *info, jg_error *err) {
  if (buffer != NULL) *buffer = NULL;
  JG_RETURN_IF(t == NULL || buffer == NULL || view == NULL, JG_EINVAL, err,
               "jg_dlpack_import_versioned: %s is NULL",
               t == NULL        ? "t"
               : buffer == NULL ? "buffer"
                                : "view");
  /* A different major version may lay the struct out differently: read nothing else. */
  JG_RETURN_IF(t->version.major != DLPACK_MAJOR_VERSION, JG_ENOTSUP, err,
               "DLPack version %u.%u is not supported (jagged reads major version %d)",
               (unsigned)t->version.major, (unsigned)t->version.minor, DLPACK_MAJOR_VERSION);
  const bool readonly = (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  JG_RETURN_NOT_OK(import_owned(&t->dl_tensor, readonly, t, release_versioned, buffer, view, err));
  if (info != NULL) {
    memset(info, 0, sizeof(*info));
    info->version = t->version;
    info->flags = t->flags;
    info->device = t->dl_tensor.device;
    info->versioned = true;
  }
  return JG_OK;
}

jg_status jg_dlpack_import_versioned(DLManagedTensorVersioned *t, jg_buffer **buffer, jg_view *view,
                                     jg_error *err) {
  return jg_dlpack_import_versioned_ex(t, buffer, view, NULL, err);
}

jg_status jg_dlpack_import_legacy(DLManagedTensor *t, jg_buffer **buffer, jg_view *view,
                                  jg_error *err) {
  if (buffer != NULL) *buffer = NULL;
  JG_RETURN_IF(t == NULL || buffer == NULL || view == NULL, JG_EINVAL, err,
               "jg_dlpack_import_legacy: %s is NULL",
               t == NULL        ? "t"
               : buffer == NULL ? "buffer"
                                : "view");
  return import_owned(&t->dl_tensor, false, t, release_legacy, buffer, view, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Export                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* One host allocation per exported tensor: the struct handed out comes first, so the deleter can
 * recover the whole block from `self`; shape and strides follow. */
typedef struct export_versioned {
  DLManagedTensorVersioned tensor;
  jg_buffer *keep_alive;
  int64_t dims[]; /* shape[ndim], then strides[ndim] */
} export_versioned;

typedef struct export_legacy {
  DLManagedTensor tensor;
  jg_buffer *keep_alive;
  int64_t dims[];
} export_legacy;

static void delete_versioned(DLManagedTensorVersioned *self) {
  if (self == NULL) return;
  export_versioned *block = (export_versioned *)self->manager_ctx;
  jg_buffer_release(block->keep_alive);
  free(block);
}

static void delete_legacy(DLManagedTensor *self) {
  if (self == NULL) return;
  export_legacy *block = (export_legacy *)self->manager_ctx;
  jg_buffer_release(block->keep_alive);
  free(block);
}

/* Checks `view` and fills every field of `*t` except shape and strides. */
static jg_status export_describe(const jg_view *view, DLTensor *t, jg_error *err) {
  const jg_layout *l = &view->layout;
  JG_RETURN_NOT_OK(jgi_layout_check_bytes(l, "DLPack export", "the view's layout", err));
  DLDataType dt;
  JG_RETURN_NOT_OK(jg_dtype_to_dlpack(view->dtype, &dt, err));
  JG_RETURN_IF(l->itemsize != jg_dtype_itemsize(view->dtype), JG_EDTYPE, err,
               "view itemsize %lld does not match dtype %s (%lld bytes)", (long long)l->itemsize,
               jg_dtype_name(view->dtype), (long long)jg_dtype_itemsize(view->dtype));
  DLDevice dev;
  switch (view->device.type) {
    case JG_DEVICE_CPU:
      dev.device_type = kDLCPU;
      dev.device_id = 0;
      break;
    case JG_DEVICE_CUDA:
      dev.device_type = kDLCUDA;
      dev.device_id = view->device.id;
      break;
    case JG_DEVICE_CUDA_HOST:
      dev.device_type = kDLCUDAHost;
      dev.device_id = 0;
      break;
    case JG_DEVICE_CUDA_MANAGED:
      dev.device_type = kDLCUDAManaged;
      dev.device_id = 0;
      break;
    default:
      return jg_error_set(err, JG_ENOTSUP, -1, "view device type %d cannot be exported to DLPack",
                          (int)view->device.type);
  }
  const jg_len volume = jg_layout_volume(l);
  uintptr_t first = 0;
  if (volume > 0) {
    JG_RETURN_IF(view->base == NULL, JG_EINVAL, err,
                 "view base is NULL but the view has %lld elements", (long long)volume);
    JG_RETURN_NOT_OK(jgi_foreign_first(view, &first, err));
  }
  t->data = (void *)first; /* element (0, ..., 0); NULL for volume 0 */
  t->device = dev;
  t->ndim = l->ndim;
  t->dtype = dt;
  t->shape = NULL;
  t->strides = NULL;
  t->byte_offset = 0;
  return JG_OK;
}

/* Points t->shape and t->strides into `dims` (2 * ndim entries) and fills them. */
static void export_dims(const jg_layout *l, DLTensor *t, int64_t *dims) {
  if (l->ndim == 0) return; /* 0-d: shape and strides stay NULL */
  t->shape = dims;
  t->strides = dims + l->ndim;
  for (int k = 0; k < l->ndim; ++k) {
    t->shape[k] = l->shape[k];
    t->strides[k] = l->strides[k]; /* always written, negative and zero included */
  }
}

jg_status jg_dlpack_export_versioned(const jg_view *view, jg_buffer *keep_alive,
                                     DLManagedTensorVersioned **out, jg_error *err) {
  if (out != NULL) *out = NULL;
  JG_RETURN_IF(view == NULL || out == NULL, JG_EINVAL, err,
               "jg_dlpack_export_versioned: %s is NULL", view == NULL ? "view" : "out");
  DLTensor t;
  JG_RETURN_NOT_OK(export_describe(view, &t, err));
  const size_t ndim = (size_t)view->layout.ndim;
  export_versioned *block =
      (export_versioned *)malloc(sizeof(export_versioned) + 2 * ndim * sizeof(int64_t));
  JG_RETURN_IF(block == NULL, JG_ENOMEM, err, "out of host memory for a DLPack tensor");
  memset(block, 0, sizeof(*block));
  export_dims(&view->layout, &t, block->dims);
  block->tensor.version.major = DLPACK_MAJOR_VERSION;
  block->tensor.version.minor = DLPACK_MINOR_VERSION;
  block->tensor.manager_ctx = block;
  block->tensor.deleter = delete_versioned;
  block->tensor.flags = view->readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  block->tensor.dl_tensor = t;
  block->keep_alive = jg_buffer_retain(keep_alive);
  *out = &block->tensor;
  return JG_OK;
}

jg_status jg_dlpack_export_legacy(const jg_view *view, jg_buffer *keep_alive, DLManagedTensor **out,
                                  jg_error *err) {
  if (out != NULL) *out = NULL;
  JG_RETURN_IF(view == NULL || out == NULL, JG_EINVAL, err, "jg_dlpack_export_legacy: %s is NULL",
               view == NULL ? "view" : "out");
  DLTensor t;
  JG_RETURN_NOT_OK(export_describe(view, &t, err));
  JG_RETURN_IF(view->readonly, JG_EREADONLY, err,
               "a read-only view cannot be exported as a legacy (unversioned) DLPack tensor, "
               "which has no read-only flag; export it versioned");
  const size_t ndim = (size_t)view->layout.ndim;
  export_legacy *block =
      (export_legacy *)malloc(sizeof(export_legacy) + 2 * ndim * sizeof(int64_t));
  JG_RETURN_IF(block == NULL, JG_ENOMEM, err, "out of host memory for a DLPack tensor");
  memset(block, 0, sizeof(*block));
  export_dims(&view->layout, &t, block->dims);
  block->tensor.manager_ctx = block;
  block->tensor.deleter = delete_legacy;
  block->tensor.dl_tensor = t;
  block->keep_alive = jg_buffer_retain(keep_alive);
  *out = &block->tensor;
  return JG_OK;
}
