/* types.h: scalar types, dtypes, devices and streams shared by every layer of jagged. */
#ifndef JAGGED_TYPES_H
#define JAGGED_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jagged/export.h"
#include "jagged/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A count of elements (lengths, extents, volumes). Signed 64-bit so that differences are safe;
 *  never negative when it describes a size. */
typedef int64_t jg_len;
/** A stride, in ELEMENTS (not bytes), between neighbours along one axis; may be negative or 0. */
typedef int64_t jg_stride;
/** An offset, in ELEMENTS from a base pointer, or an entry of a list-offsets buffer. */
typedef int64_t jg_offset;

/** Element types. Numbers are pinned (ABI). */
typedef enum jg_dtype {
  JG_DTYPE_INVALID = 0,
  JG_DTYPE_BOOL = 1, /**< one byte, 0 or 1 (a mask reads any byte other than 0 as true) */
  JG_DTYPE_INT8 = 2,
  JG_DTYPE_INT16 = 3,
  JG_DTYPE_INT32 = 4,
  JG_DTYPE_INT64 = 5,
  JG_DTYPE_UINT8 = 6,
  JG_DTYPE_UINT16 = 7,
  JG_DTYPE_UINT32 = 8,
  JG_DTYPE_UINT64 = 9,
  JG_DTYPE_FLOAT16 = 10, /**< IEEE 754 binary16, storage only */
  JG_DTYPE_FLOAT32 = 11,
  JG_DTYPE_FLOAT64 = 12,
  JG_DTYPE_COMPLEX64 = 13,  /**< two float32 */
  JG_DTYPE_COMPLEX128 = 14, /**< two float64 */
  JG_DTYPE_BFLOAT16 = 15,   /**< storage only */
  JG_DTYPE_COUNT_ = 16
} jg_dtype;

/** Size of one element of `dtype` in bytes; 0 for JG_DTYPE_INVALID or an unknown value. */
JG_API int64_t jg_dtype_itemsize(jg_dtype dtype);

/** Short lower-case name of `dtype` as Awkward and NumPy spell it ("int32", "float64", "bool");
 *  "invalid" for an unknown value. Static storage; never NULL. */
JG_API const char *jg_dtype_name(jg_dtype dtype);

/** Kinds of memory location. Numbers follow DLPack's DLDeviceType (DLPack 1.x, dlpack.h), so a
 *  jg_device converts to a DLDevice by value. */
typedef enum jg_device_type {
  JG_DEVICE_CPU = 1,           /**< pageable host memory */
  JG_DEVICE_CUDA = 2,          /**< device memory of one GPU */
  JG_DEVICE_CUDA_HOST = 3,     /**< pinned (page-locked) or registered host memory */
  JG_DEVICE_CUDA_MANAGED = 13  /**< CUDA managed (unified) memory */
} jg_device_type;

/** A memory location: the kind plus a device ordinal (0 for CPU and the host kinds unless a
 *  CUDA ordinal is meaningful). */
typedef struct jg_device {
  jg_device_type type;
  int32_t id;
} jg_device;

/** The host (CPU) device. */
#define JG_DEVICE_HOST_INIT {JG_DEVICE_CPU, 0}

/** Backends an array or kernel runs on: host code or CUDA code. */
typedef enum jg_backend {
  JG_BACKEND_CPU = 1,
  JG_BACKEND_CUDA = 2
} jg_backend;

/** An opaque CUDA stream (a cudaStream_t / CUstream). NULL is the legacy default stream.
 *  Functions that take a stream enqueue their device work on it and end in `_async`. */
typedef void *jg_stream;

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_TYPES_H */
