/* dlpack.h: DLPack 1.x import and export of strided views.
 *
 * The first half declares the DLPack 1.1 ABI (dmlc/dlpack, include/dlpack/dlpack.h) in jagged's
 * own words, inside the official header's include guard `DLPACK_DLPACK_H_`: a program that
 * includes the official dlpack.h before this file uses the official declarations (the layouts are
 * the same ABI), and one that includes it after gets nothing redefined. The second half, outside
 * that guard, is jagged's API: import a DLManagedTensorVersioned / DLManagedTensor (taking
 * ownership) or a bare DLTensor (borrowing), and export a jg_view as a managed tensor.
 *
 * Rules followed (DLPack's spec, NVIDIA cuda-python's StridedMemoryView in
 * cuda_core/cuda/core/_memoryview.pyx, and the fixes of cuda-python issues #285, #1043, #2592 and
 * dlpack issue #177):
 *   - strides are in ELEMENTS; byte_offset is in bytes and always honoured on import
 *     (element (0, ..., 0) is at data + byte_offset); exports put the address of element
 *     (0, ..., 0) in `data` and byte_offset 0, so negative strides need no negative offset;
 *   - NULL strides are accepted on import as C order; exports always write strides when ndim > 0,
 *     and NULL shape and strides when ndim == 0; a tensor of volume 0 may have data NULL, and
 *     exports of volume 0 write data NULL;
 *   - device types CPU, CUDA, CUDAHost (pinned) and CUDAManaged; device_id is the CUDA ordinal for
 *     CUDA and 0 for the other three on export;
 *   - the deleter of an imported tensor is called exactly once, when the last reference to the
 *     jg_buffer made by the import goes; an import that fails takes no ownership. */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#include <stddef.h>
#include <stdint.h>

/* Linkage helpers the official header also offers. */
#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif
#ifndef DLPACK_DLL
#define DLPACK_DLL
#endif

/** Major version of the DLPack ABI declared here. A different major version means a different
 *  struct layout: only the deleter of such a tensor may be touched. */
#define DLPACK_MAJOR_VERSION 1
/** Minor version declared here. Minor versions only add enum values and flags. */
#define DLPACK_MINOR_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/** A DLPack ABI version, the first field of DLManagedTensorVersioned. */
typedef struct {
  uint32_t major; /**< ABI-breaking changes */
  uint32_t minor; /**< additions only */
} DLPackVersion;

/** Where a tensor's memory lives. A 32-bit enum; every value is pinned by the spec. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,          /**< host memory from malloc or equivalent */
  kDLCUDA = 2,         /**< device memory of a CUDA GPU (cudaMalloc) */
  kDLCUDAHost = 3,     /**< page-locked host memory (cudaMallocHost, cudaHostRegister) */
  kDLOpenCL = 4,       /**< OpenCL device memory */
  kDLVulkan = 7,       /**< Vulkan buffer */
  kDLMetal = 8,        /**< Apple Metal buffer (data is a buffer object, not an address) */
  kDLVPI = 9,          /**< Verilog simulator buffer */
  kDLROCM = 10,        /**< AMD ROCm device memory */
  kDLROCMHost = 11,    /**< pinned host memory from hipMallocHost */
  kDLExtDev = 12,      /**< reserved for extension devices */
  kDLCUDAManaged = 13, /**< CUDA managed (unified) memory (cudaMallocManaged) */
  kDLOneAPI = 14,      /**< oneAPI unified shared memory */
  kDLWebGPU = 15,      /**< WebGPU buffer */
  kDLHexagon = 16,     /**< Qualcomm Hexagon DSP memory */
  kDLMAIA = 17,        /**< Microsoft MAIA device memory */
  kDLTrn = 18          /**< AWS Trainium device memory (added after 1.1; harmless here) */
} DLDeviceType;

/** A device: the kind plus an ordinal. For CUDA the ordinal is the CUDA device number; it is 0
 *  for plain CPU, pinned and managed memory. */
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/** Category of an element type (DLDataType.code). An 8-bit value; every number is pinned. */
#ifdef __cplusplus
typedef enum : uint8_t {
#else
typedef enum {
#endif
  kDLInt = 0,          /**< two's-complement signed integer */
  kDLUInt = 1,         /**< unsigned integer */
  kDLFloat = 2,        /**< IEEE 754 binary floating point */
  kDLOpaqueHandle = 3, /**< an opaque handle (not an arithmetic type) */
  kDLBfloat = 4,       /**< bfloat16 (8-bit exponent, 7-bit mantissa) */
  kDLComplex = 5,      /**< complex: real then imaginary part; `bits` is the total size */
  kDLBool = 6,         /**< boolean, stored in `bits` bits (8 in practice) */
  kDLFloat8_e3m4 = 7,  /**< 8-bit floats, named by exponent and mantissa bits ... */
  kDLFloat8_e4m3 = 8,
  kDLFloat8_e4m3b11fnuz = 9,
  kDLFloat8_e4m3fn = 10,
  kDLFloat8_e4m3fnuz = 11,
  kDLFloat8_e5m2 = 12,
  kDLFloat8_e5m2fnuz = 13,
  kDLFloat8_e8m0fnu = 14,
  kDLFloat6_e2m3fn = 15, /**< 6-bit floats (bits must be 6) */
  kDLFloat6_e3m2fn = 16,
  kDLFloat4_e2m1fn = 17 /**< 4-bit float (bits must be 4) */
} DLDataTypeCode;

/** An element type: `lanes` vector lanes of `bits` bits each, of category `code`. A scalar
 *  float32 is {kDLFloat, 32, 1}; complex64 is {kDLComplex, 64, 1}; bool is {kDLBool, 8, 1}.
 *  Data is in the machine's native byte order. */
typedef struct {
  uint8_t code;   /**< a DLDataTypeCode */
  uint8_t bits;   /**< bits per lane */
  uint16_t lanes; /**< 1 for scalars */
} DLDataType;

/** A strided tensor descriptor (borrowed: it owns nothing).
 *  Element (i0, ..., in-1) is at byte address
 *  data + byte_offset + (i0 * strides[0] + ... + in-1 * strides[n-1]) * (bits * lanes / 8). */
typedef struct {
  /** Base address: a host pointer for kDLCPU, a device pointer for kDLCUDA, etc. The spec asks
   *  for 256-byte alignment but many producers do not align; consumers must not rely on it.
   *  May be NULL when the tensor has no elements. */
  void *data;
  DLDevice device;  /**< where `data` lives */
  int32_t ndim;     /**< number of axes, >= 0 */
  DLDataType dtype; /**< element type */
  /** Extents, ndim entries (NULL allowed when ndim == 0). */
  int64_t *shape;
  /** Strides in ELEMENTS (not bytes), ndim entries; may be negative or 0. NULL meant compact
   *  row-major (C order) before DLPack 1.2; since 1.2 it must not be NULL when ndim != 0. */
  int64_t *strides;
  /** Bytes from `data` to element (0, ..., 0). Unsigned: a negative offset cannot be expressed,
   *  so producers of negative strides put element (0, ..., 0)'s address in data + byte_offset. */
  uint64_t byte_offset;
} DLTensor;

/** A tensor with an owner, in the pre-1.0 (unversioned, "legacy") form. It cannot say that the
 *  data is read-only. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor; /**< the descriptor */
  void *manager_ctx;  /**< the producer's state, for the deleter */
  /** Frees the producer's resources and, for heap-allocated tensors, the struct itself. Called
   *  once by the consumer when done; may be NULL when nothing needs freeing. */
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

/** Flag: the consumer must not write through the tensor. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
/** Flag: the producer made a copy for this exchange; the consumer owns it exclusively until it
 *  calls the deleter. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)
/** Flag (1.1): elements of sub-byte types are padded to a byte each instead of packed. */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (UINT64_C(1) << 2)

/** A tensor with an owner, versioned form (DLPack >= 1.0). The fields before `dl_tensor` keep
 *  their layout across major versions, so the deleter can always be called. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version; /**< the ABI version the producer wrote */
  void *manager_ctx;     /**< the producer's state, for the deleter */
  /** Frees manager_ctx's resources and the struct itself; called once by the consumer. May be
   *  NULL when nothing needs freeing. */
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;     /**< DLPACK_FLAG_BITMASK_* bits */
  DLTensor dl_tensor; /**< the descriptor */
} DLManagedTensorVersioned;

#ifdef __cplusplus
}
#endif

#endif /* DLPACK_DLPACK_H_ */

/* ------------------------------------------------------------------------------------------ */
/* jagged's DLPack API                                                                         */
/* ------------------------------------------------------------------------------------------ */
#ifndef JAGGED_DLPACK_H
#define JAGGED_DLPACK_H

#include "jagged/view.h"

#if !defined(DLPACK_MAJOR_VERSION) || DLPACK_MAJOR_VERSION < 1
#error "jagged/dlpack.h needs DLPack 1.x declarations; an older dlpack.h was included first"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** What an import learnt beyond the view (see jg_dlpack_import_versioned_ex). Output only: the
 *  library overwrites all of it. */
typedef struct jg_dlpack_info {
  DLPackVersion version; /**< the producer's version; {0, 0} for a legacy tensor */
  uint64_t flags;        /**< the producer's flags as given (0 for a legacy tensor), including
                              DLPACK_FLAG_BITMASK_IS_COPIED and bits jagged does not know */
  DLDevice device;       /**< the device exactly as the producer declared it */
  bool versioned;        /**< true for DLManagedTensorVersioned */
  uint8_t reserved[32];  /**< zeroed by the library; room for later fields */
} jg_dlpack_info;

/** The DLPack element type of `dtype`, written to `*out` (lanes 1):
 *  bool {kDLBool, 8}, intN {kDLInt, N}, uintN {kDLUInt, N}, float16/32/64 {kDLFloat, 16/32/64},
 *  bfloat16 {kDLBfloat, 16}, complex64 {kDLComplex, 64}, complex128 {kDLComplex, 128}.
 *  Errors: JG_EINVAL (`out` NULL), JG_EDTYPE (JG_DTYPE_INVALID or an unknown value). */
JG_API jg_status jg_dtype_to_dlpack(jg_dtype dtype, DLDataType *out, jg_error *err);

/** The jagged dtype of DLPack element type `dt`, written to `*out`: the inverse of
 *  jg_dtype_to_dlpack. bits * lanes must be a whole number of bytes and lanes must be 1;
 *  {kDLUInt, 8} is uint8 (not bool), {kDLInt, 8} is int8.
 *  Errors: JG_EINVAL (`out` NULL), JG_EDTYPE naming code, bits and lanes (vector lanes, sub-byte
 *  or non-whole-byte sizes, FP8/FP6/FP4, opaque handles, unknown codes, unsupported widths). */
JG_API jg_status jg_dtype_from_dlpack(DLDataType dt, jg_dtype *out, jg_error *err);

/** Views the memory of a borrowed DLTensor. Nothing is owned or retained: the view is valid only
 *  while the producer keeps the memory alive, and view->buffer is NULL.
 *
 *  The view: dtype from t->dtype (jg_dtype_from_dlpack); shape as given; strides in elements as
 *  given, or C order when t->strides is NULL; element (0, ..., 0) at t->data + t->byte_offset.
 *  view->base is the LOWEST address any element occupies (with negative strides that is below
 *  element (0, ..., 0)) and layout.slice_offset the element distance from it to element
 *  (0, ..., 0), so the layout's min offset is 0 and jg_layout_required_size gives the span. For a
 *  tensor of volume 0, base = data + byte_offset (NULL when data is NULL), slice_offset 0 and all
 *  strides 0. Device (read from t->device, never queried): kDLCPU -> {JG_DEVICE_CPU, 0}, host
 *  only; kDLCUDA -> {JG_DEVICE_CUDA, id}, device only; kDLCUDAHost -> {JG_DEVICE_CUDA_HOST, id}
 *  and kDLCUDAManaged -> {JG_DEVICE_CUDA_MANAGED, id}, both host- and device-accessible.
 *  readonly is false (a bare DLTensor has no flags). No CUDA call is made.
 *
 *  Errors (`view` is untouched on error):
 *  - JG_EINVAL: `t` or `view` NULL; ndim < 0; shape NULL with ndim > 0; a negative extent
 *    (index = axis); data NULL with volume > 0; negative device_id for a CUDA device type;
 *    elements below address 0 or above the address space;
 *  - JG_ENOTSUP: ndim > JG_MAX_NDIM; a device type other than the four above (the message
 *    names it, e.g. "kDLROCM (10)");
 *  - JG_EDTYPE: as jg_dtype_from_dlpack;
 *  - JG_EOVERFLOW: volume, offsets or the byte span overflow int64, or data + byte_offset
 *    overflows the address space. */
JG_API jg_status jg_view_from_dltensor(const DLTensor *t, jg_view *view, jg_error *err);

/** Imports a versioned DLPack tensor, taking ownership of it on success.
 *
 *  On success `*buffer` receives a new external jg_buffer (one reference) spanning exactly the
 *  bytes the elements occupy, from view->base; its release callback calls t->deleter(t) exactly
 *  once (if the deleter is not NULL) when the last reference goes, from whichever thread drops
 *  it. `*view` is filled as by jg_view_from_dltensor(&t->dl_tensor, ...) and views *buffer:
 *  view->buffer == *buffer, NOT retained (the view borrows it; keep the buffer alive while the
 *  view is used, then jg_buffer_release it once). view->readonly is true when
 *  t->flags has DLPACK_FLAG_BITMASK_READ_ONLY. DLPACK_FLAG_BITMASK_IS_COPIED and other flags are
 *  reported by jg_dlpack_import_versioned_ex. Any minor version of major version 1 is accepted.
 *  Ownership is decided by the struct type, never by what was asked of the producer (as
 *  NVIDIA cuda-python issue #285 concluded): pass legacy tensors to jg_dlpack_import_legacy.
 *
 *  On error NO ownership is taken: the deleter is not called, `*buffer` is set to NULL (when
 *  `buffer` is not NULL), `*view` is untouched, and the caller still owns `t` (and should call
 *  its deleter itself). Per the spec nothing but version and deleter is read when the major
 *  version differs.
 *
 *  Errors: JG_EINVAL (`t`, `buffer` or `view` NULL, and the DLTensor errors of
 *  jg_view_from_dltensor); JG_ENOTSUP (major version != 1, the message gives the version; an
 *  unsupported device type; ndim > JG_MAX_NDIM); JG_EDTYPE; JG_EOVERFLOW; JG_ENOMEM (the buffer
 *  could not be allocated). */
JG_API jg_status jg_dlpack_import_versioned(DLManagedTensorVersioned *t, jg_buffer **buffer,
                                            jg_view *view, jg_error *err);

/** As jg_dlpack_import_versioned, and also fills `*info` (may be NULL) on success with the
 *  producer's version, flags (DLPACK_FLAG_BITMASK_IS_COPIED tells that the consumer owns a private
 *  copy) and declared device. Errors and ownership as jg_dlpack_import_versioned. */
JG_API jg_status jg_dlpack_import_versioned_ex(DLManagedTensorVersioned *t, jg_buffer **buffer,
                                               jg_view *view, jg_dlpack_info *info, jg_error *err);

/** Imports an unversioned (legacy, pre-1.0) DLPack tensor, taking ownership on success: the
 *  same contract as jg_dlpack_import_versioned, with t->deleter(t) called exactly once when the
 *  buffer's last reference goes. A legacy tensor carries no flags and no version, so the view is
 *  never read-only. On error no ownership is taken and the deleter is not called.
 *  Errors: JG_EINVAL, JG_ENOTSUP, JG_EDTYPE, JG_EOVERFLOW, JG_ENOMEM as for
 *  jg_dlpack_import_versioned (without the version check). */
JG_API jg_status jg_dlpack_import_legacy(DLManagedTensor *t, jg_buffer **buffer, jg_view *view,
                                         jg_error *err);

/** Exports `view` as a new versioned DLPack tensor, written to `*out`.
 *
 *  The tensor: version {1, 1}; flags DLPACK_FLAG_BITMASK_READ_ONLY when view->readonly, else 0;
 *  data = the address of element (0, ..., 0) (view->base + slice_offset * itemsize, which may lie
 *  above the lowest element for negative strides), or NULL when the volume is 0; byte_offset 0;
 *  ndim = layout.ndim; shape and strides (in elements, exactly the view's, negative and zero
 *  included) for ndim > 0, both NULL for ndim == 0; dtype from jg_dtype_to_dlpack; device
 *  {kDLCUDA, view->device.id} for CUDA memory, {kDLCUDAHost, 0} for pinned, {kDLCUDAManaged, 0}
 *  for managed and {kDLCPU, 0} for host memory (from view->device.type, which for buffer views
 *  comes from the allocating resource, so managed memory is never reported as pinned).
 *
 *  Ownership: the tensor and its shape/strides are one host allocation owned by the consumer, who
 *  must call (*out)->deleter(*out) exactly once. `keep_alive` (may be NULL; usually the buffer
 *  the view was made from) is retained here and released by the deleter, which may run on any
 *  thread. The view itself is not referenced after the call. No data is copied and no CUDA call
 *  is made; the exporter does not synchronise any stream (callers must order pending work
 *  themselves). On error `*out` is NULL and keep_alive is not retained.
 *
 *  Errors: JG_EINVAL (`view` or `out` NULL; an invalid layout: ndim outside [0, JG_MAX_NDIM],
 *  itemsize <= 0, a negative extent ("extents must be non-negative", index = axis); base NULL
 *  with volume > 0); JG_EDTYPE (invalid dtype, or layout.itemsize != the dtype's itemsize);
 *  JG_ENOTSUP (a device type other than the four above); JG_EOVERFLOW (the volume, an element
 *  offset or its byte offset overflows int64, or the element address overflows); JG_ENOMEM. */
JG_API jg_status jg_dlpack_export_versioned(const jg_view *view, jg_buffer *keep_alive,
                                            DLManagedTensorVersioned **out, jg_error *err);

/** Exports `view` as a new unversioned (legacy) DLPack tensor, for consumers that predate
 *  DLPack 1.0. Same fields, ownership and errors as jg_dlpack_export_versioned, except that the
 *  legacy struct cannot carry the read-only flag: a read-only view is refused with JG_EREADONLY
 *  (as NumPy does) rather than handed out as writable. */
JG_API jg_status jg_dlpack_export_legacy(const jg_view *view, jg_buffer *keep_alive,
                                         DLManagedTensor **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_DLPACK_H */
