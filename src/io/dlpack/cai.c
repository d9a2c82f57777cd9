/* cai.c: CUDA Array Interface v3 import and export of jg_views.
 *
 * Written from the CAI specification (NVIDIA/numba-cuda docs/source/user/cuda_array_interface.rst),
 * with the import rules of NVIDIA cuda-python's StridedMemoryView
 * (cuda_core/cuda/core/_memoryview.pyx) and the fixes of cuda-python issues #1396 (zero-size
 * arrays) and #1429 (byte strides not divisible by the itemsize). */
#include "jagged/cai.h"

#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_layout.h"
#include "io/dlpack/foreign.h"
#include "jagged/device.h"

/* '<' on little-endian hosts, '>' on big-endian ones. */
static char native_order(void) {
  const uint16_t one = 1;
  unsigned char first_byte;
  memcpy(&first_byte, &one, 1);
  return first_byte == 1 ? '<' : '>';
}

/* The array-interface kind letter and itemsize of `dtype`; kind 0 when there is none. */
static char dtype_kind(jg_dtype dtype) {
  switch (dtype) {
    case JG_DTYPE_BOOL:
      return 'b';
    case JG_DTYPE_INT8:
    case JG_DTYPE_INT16:
    case JG_DTYPE_INT32:
    case JG_DTYPE_INT64:
      return 'i';
    case JG_DTYPE_UINT8:
    case JG_DTYPE_UINT16:
    case JG_DTYPE_UINT32:
    case JG_DTYPE_UINT64:
      return 'u';
    case JG_DTYPE_FLOAT16:
    case JG_DTYPE_FLOAT32:
    case JG_DTYPE_FLOAT64:
      return 'f';
    case JG_DTYPE_COMPLEX64:
    case JG_DTYPE_COMPLEX128:
      return 'c';
    case JG_DTYPE_BFLOAT16: /* no array-interface spelling */
    case JG_DTYPE_INVALID:
    case JG_DTYPE_COUNT_:
    default:
      return 0;
  }
}

static jg_dtype dtype_of(char kind, long size) {
  switch (kind) {
    case 'b':
      return size == 1 ? JG_DTYPE_BOOL : JG_DTYPE_INVALID;
    case 'i':
      return size == 1   ? JG_DTYPE_INT8
             : size == 2 ? JG_DTYPE_INT16
             : size == 4 ? JG_DTYPE_INT32
             : size == 8 ? JG_DTYPE_INT64
                         : JG_DTYPE_INVALID;
    case 'u':
      return size == 1   ? JG_DTYPE_UINT8
             : size == 2 ? JG_DTYPE_UINT16
             : size == 4 ? JG_DTYPE_UINT32
             : size == 8 ? JG_DTYPE_UINT64
                         : JG_DTYPE_INVALID;
    case 'f':
      return size == 2   ? JG_DTYPE_FLOAT16
             : size == 4 ? JG_DTYPE_FLOAT32
             : size == 8 ? JG_DTYPE_FLOAT64
                         : JG_DTYPE_INVALID;
    case 'c':
      return size == 8 ? JG_DTYPE_COMPLEX64 : size == 16 ? JG_DTYPE_COMPLEX128 : JG_DTYPE_INVALID;
    default:
      return JG_DTYPE_INVALID;
  }
}

jg_status jg_cai_typestr_parse(const char *typestr, jg_dtype *dtype, jg_error *err) {
  JG_RETURN_IF(typestr == NULL || dtype == NULL, JG_EINVAL, err, "jg_cai_typestr_parse: %s is NULL",
               typestr == NULL ? "typestr" : "dtype");
  const char *s = typestr;
  const char order = s[0];
  JG_RETURN_IF(order != '<' && order != '>' && order != '|', JG_EDTYPE, err,
               "typestr '%.16s' is malformed: it must start with a byte order '<', '>' or '|'",
               typestr);
  const char kind = s[1];
  JG_RETURN_IF(strchr("biufcmMOSUVat", kind) == NULL || kind == '\0', JG_EDTYPE, err,
               "typestr '%.16s' is malformed: unknown type kind", typestr);
  long size = 0;
  int digits = 0;
  for (const char *p = s + 2; *p != '\0'; ++p, ++digits) {
    JG_RETURN_IF(*p < '0' || *p > '9' || digits >= 4 || (digits == 0 && *p == '0'), JG_EDTYPE, err,
                 "typestr '%.16s' is malformed: the itemsize must be a positive decimal number",
                 typestr);
    size = size * 10 + (*p - '0');
  }
  JG_RETURN_IF(digits == 0, JG_EDTYPE, err, "typestr '%.16s' is malformed: no itemsize", typestr);
  const jg_dtype d = dtype_of(kind, size);
  JG_RETURN_IF(d == JG_DTYPE_INVALID, JG_EDTYPE, err,
               "typestr '%.16s' is not supported (jagged takes b1, i1-i8, u1-u8, f2-f8, c8, c16)",
               typestr);
  if (size > 1) {
    JG_RETURN_IF(
        order == '|', JG_EDTYPE, err,
        "typestr '%.16s': byte order '|' (not applicable) is only valid for one-byte types",
        typestr);
    JG_RETURN_IF(order != native_order(), JG_EDTYPE, err,
                 "typestr '%.16s' is %s-endian; jagged reads only native-endian (%s-endian) data",
                 typestr, order == '>' ? "big" : "little",
                 native_order() == '<' ? "little" : "big");
  }
  *dtype = d;
  return JG_OK;
}

jg_status jg_cai_typestr_format(jg_dtype dtype, char *out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_cai_typestr_format: out is NULL");
  const char kind = dtype_kind(dtype);
  JG_RETURN_IF(kind == 0, JG_EDTYPE, err, "dtype %s (%d) has no CUDA Array Interface typestr",
               jg_dtype_name(dtype), (int)dtype);
  const int64_t size = jg_dtype_itemsize(dtype);
  out[0] = size == 1 ? '|' : native_order();
  out[1] = kind;
  if (size >= 10) {
    out[2] = (char)('0' + size / 10);
    out[3] = (char)('0' + size % 10);
    out[4] = '\0';
  } else {
    out[2] = (char)('0' + size);
    out[3] = '\0';
  }
  return JG_OK;
}

jg_status jg_view_from_cai(const jg_cai *cai, jg_view *view, jg_error *err) {
  JG_RETURN_IF(cai == NULL || view == NULL, JG_EINVAL, err, "jg_view_from_cai: %s is NULL",
               cai == NULL ? "cai" : "view");
  JG_RETURN_IF(cai->version < JG_CAI_VERSION, JG_ENOTSUP, err,
               "CUDA Array Interface version %d is not supported (jagged needs version >= %d)",
               (int)cai->version, JG_CAI_VERSION);
  JG_RETURN_IF(cai->has_mask, JG_ENOTSUP, err,
               "masked CUDA Array Interface arrays ('mask' not None) are not supported");
  JG_RETURN_IF(cai->has_stream && cai->stream == 0, JG_EINVAL, err,
               "CUDA Array Interface 'stream' 0 is invalid (ambiguous); use 1 (legacy default), "
               "2 (per-thread default) or a stream handle");
  JG_RETURN_IF(memchr(cai->typestr, '\0', sizeof(cai->typestr)) == NULL, JG_EDTYPE, err,
               "CUDA Array Interface typestr is not NUL-terminated within %d bytes",
               JG_CAI_TYPESTR_SIZE);
  JG_RETURN_IF(cai->ndim < 0, JG_EINVAL, err, "CUDA Array Interface ndim %d is negative",
               (int)cai->ndim);
  JG_RETURN_IF(cai->ndim > JG_MAX_NDIM, JG_ENOTSUP, err,
               "CUDA Array Interface ndim %d exceeds jagged's limit of %d axes", (int)cai->ndim,
               JG_MAX_NDIM);
  jg_view v;
  memset(&v, 0, sizeof(v));
  JG_RETURN_NOT_OK(jg_cai_typestr_parse(cai->typestr, &v.dtype, err));
  /* Byte strides must be exact multiples of the itemsize (cuda-python issue #1429). */
  JG_RETURN_NOT_OK(jg_layout_init_byte_strides(&v.layout, (int)cai->ndim, cai->shape,
                                               cai->has_strides ? cai->strides : NULL,
                                               jg_dtype_itemsize(v.dtype), err));
  const jg_len volume = jg_layout_volume(&v.layout);
  JG_RETURN_IF(volume > 0 && cai->data == 0, JG_EINVAL, err,
               "CUDA Array Interface data pointer is 0 but the array has %lld elements",
               (long long)volume);
  uintptr_t lowest;
  size_t bytes;
  jg_offset min_offset;
  JG_RETURN_NOT_OK(jgi_foreign_span(&v.layout, cai->data, &lowest, &bytes, &min_offset, err));
  if (volume == 0) {
    /* Nothing will be dereferenced and the pointer may be 0: do not query it (cuda-python
     * issue #1396). The array belongs to the current device. */
    int current = 0;
    if (jg_device_get_current(&current, NULL) != JG_OK) current = 0;
    v.device.type = JG_DEVICE_CUDA;
    v.device.id = current;
    v.host_accessible = false;
    v.device_accessible = true;
  } else {
    jg_pointer_attributes attrs;
    JG_RETURN_NOT_OK(jg_pointer_get_attributes((const void *)lowest, bytes, &attrs, err));
    JG_RETURN_IF(!attrs.device_accessible, JG_EINVAL, err,
                 "CUDA Array Interface pointer %#llx is not device-accessible memory (CUDA "
                 "reports plain host memory%s)",
                 (unsigned long long)cai->data,
                 jg_cuda_compiled() ? "" : "; this build of jagged has no CUDA");
    v.device = attrs.device;
    v.device_accessible = true;
    /* The CAI hands out an address for kernels. If host code must use another address (the
     * device alias of registered memory), the view's base is not host-usable. */
    v.host_accessible = attrs.host_accessible &&
                        (attrs.host_pointer == NULL || attrs.host_pointer == attrs.device_pointer ||
                         attrs.device_pointer == NULL);
  }
  v.base = (void *)lowest;
  v.layout.slice_offset = -min_offset;
  v.buffer = NULL;
  v.readonly = cai->readonly;
  *view = v;
  return JG_OK;
}

jg_status jg_view_to_cai(const jg_view *view, jg_cai *out, jg_error *err) {
  JG_RETURN_IF(view == NULL || out == NULL, JG_EINVAL, err, "jg_view_to_cai: %s is NULL",
               view == NULL ? "view" : "out");
  const jg_layout *l = &view->layout;
  JG_RETURN_NOT_OK(
      jgi_layout_check_bytes(l, "CUDA Array Interface export", "the view's layout", err));
  JG_RETURN_IF(!view->device_accessible, JG_ENOTSUP, err,
               "the CUDA Array Interface needs device-accessible memory; this view is host-only");
  memset(out, 0, sizeof(*out));
  JG_RETURN_NOT_OK(jg_cai_typestr_format(view->dtype, out->typestr, err));
  JG_RETURN_IF(l->itemsize != jg_dtype_itemsize(view->dtype), JG_EDTYPE, err,
               "view itemsize %lld does not match dtype %s (%lld bytes)", (long long)l->itemsize,
               jg_dtype_name(view->dtype), (long long)jg_dtype_itemsize(view->dtype));
  const jg_len volume = jg_layout_volume(l);
  uintptr_t first = 0;
  if (volume > 0) {
    JG_RETURN_IF(view->base == NULL, JG_EINVAL, err,
                 "view base is NULL but the view has %lld elements", (long long)volume);
    JG_RETURN_NOT_OK(jgi_foreign_first(view, &first, err));
  }
  out->version = JG_CAI_VERSION;
  out->data = first; /* 0 for zero-size arrays (CAI v2) */
  out->readonly = view->readonly;
  out->ndim = l->ndim;
  for (int k = 0; k < l->ndim; ++k) out->shape[k] = l->shape[k];
  if (l->ndim > 0 && !jg_layout_is_contiguous_c(l)) {
    out->has_strides = true;
    JG_RETURN_NOT_OK(jg_layout_strides_in_bytes(l, out->strides, err));
  }
  out->has_stream = false;
  out->stream = 0;
  out->has_mask = false;
  return JG_OK;
}

jg_status jg_cai_wait_async(const jg_cai *cai, jg_stream stream, jg_error *err) {
  JG_RETURN_IF(cai == NULL, JG_EINVAL, err, "jg_cai_wait_async: cai is NULL");
  if (!cai->has_stream) return JG_OK;
  JG_RETURN_IF(cai->stream == 0, JG_EINVAL, err,
               "CUDA Array Interface 'stream' 0 is invalid (ambiguous)");
  /* The legacy default stream has two spellings: jagged's NULL and the CAI's 1. */
  if ((void *)cai->stream == stream || (cai->stream == JG_CAI_STREAM_LEGACY && stream == NULL)) {
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  JG_RETURN_NOT_OK(jgi_cuda_require(err));
  cudaStream_t producer = cai->stream == JG_CAI_STREAM_LEGACY       ? cudaStreamLegacy
                          : cai->stream == JG_CAI_STREAM_PER_THREAD ? cudaStreamPerThread
                                                                    : (cudaStream_t)cai->stream;
  cudaStream_t consumer = (cudaStream_t)stream;
  cudaEvent_t event;
  JG_CUDA_RETURN_NOT_OK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
                        "cudaEventCreateWithFlags", err);
  cudaError_t e = cudaEventRecord(event, producer);
  const char *op = "cudaEventRecord (CUDA Array Interface producer stream)";
  if (e == cudaSuccess) {
    e = cudaStreamWaitEvent(consumer, event, 0);
    op = "cudaStreamWaitEvent";
  }
  /* Destroying an event with a pending wait is allowed: its resources go once it completes. */
  cudaEventDestroy(event);
  if (e != cudaSuccess) return jgi_cuda_error(err, e, op);
  return JG_OK;
#else
  return jgi_cuda_require(err);
#endif
}
