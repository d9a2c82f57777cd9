/* memory.h: memory resources, buffers and pointer attributes.
 *
 * A jg_memory_resource allocates and frees bytes in one kind of memory (host, pinned host,
 * device, managed, a stream-ordered device pool, or a user hook). A jg_buffer is a reference-
 * counted span of bytes in one of three ownership modes, as in cuda.core's Buffer
 * (NVIDIA/cuda-python, cuda_core/_memory/_buffer.pyx; ../shared/notes/memory.md section 2):
 *   - owned:    allocated from a resource and freed by it, on the stream recorded at allocation;
 *   - external: foreign memory kept alive by an owner object and given back through a release
 *               callback (DLPack deleters, Arrow release callbacks, user memory);
 *   - borrowed: foreign memory the buffer neither frees nor keeps alive.
 * A resource and an owner are mutually exclusive. */
#ifndef JAGGED_MEMORY_H
#define JAGGED_MEMORY_H

#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Memory resources                                                                            */
/* ------------------------------------------------------------------------------------------ */

/** What a resource allocates. */
typedef enum jg_memory_kind {
  JG_MEMORY_HOST = 1,        /**< pageable host memory, aligned */
  JG_MEMORY_PINNED = 2,      /**< page-locked host memory (cudaMallocHost) */
  JG_MEMORY_DEVICE = 3,      /**< device memory (cudaMalloc) */
  JG_MEMORY_MANAGED = 4,     /**< managed memory (cudaMallocManaged, attach global) */
  JG_MEMORY_DEVICE_POOL = 5, /**< stream-ordered device pool (cudaMallocAsync / cudaFreeAsync) */
  JG_MEMORY_USER = 6         /**< a user-supplied allocator hook */
} jg_memory_kind;

typedef struct jg_memory_resource jg_memory_resource;

/** Allocation hook of a resource: writes to `*ptr` a block of at least `bytes` bytes aligned to
 *  `alignment` (a power of two), enqueued on `stream` for stream-ordered resources. `bytes` 0 may
 *  give NULL. Returns JG_OK, or JG_ENOMEM / JG_EDEVMEM / another status, filling `err`. */
typedef jg_status (*jg_allocate_fn)(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                    jg_stream stream, void **ptr, jg_error *err);
/** Deallocation hook: frees a block from the same resource's allocate, with its size, on
 *  `stream` for stream-ordered resources. Must accept NULL `ptr` (no-op) and must not fail. */
typedef void (*jg_deallocate_fn)(jg_memory_resource *mr, void *ptr, size_t bytes,
                                 jg_stream stream);

/** A memory resource: a small vtable plus where its memory lives.
 *  The built-in resources are static or library-owned; a user resource is caller-allocated and
 *  filled with jg_memory_resource_init_user. A resource must outlive every buffer it allocated. */
struct jg_memory_resource {
  uint32_t version;          /**< sizeof(jg_memory_resource) */
  jg_memory_kind kind;
  jg_device device;          /**< where allocations live (type and CUDA ordinal) */
  bool host_accessible;      /**< host code may dereference its pointers */
  bool device_accessible;    /**< CUDA kernels on `device.id` may dereference its pointers */
  bool stream_ordered;       /**< allocate/deallocate are ordered on the given stream */
  jg_allocate_fn allocate;
  jg_deallocate_fn deallocate;
  void *user_data;           /**< the hook's own state; the library never touches it */
  void *private_data;        /**< the library's state for built-in resources */
  uint8_t reserved[32];
};

/** The host resource: pageable memory aligned to at least 64 bytes. Static storage; never NULL;
 *  needs no CUDA. */
JG_API jg_memory_resource *jg_memory_resource_host(void);

/** The pinned-host resource (cudaMallocHost), host- and device-accessible.
 *  `*mr` receives a library-owned, process-lifetime resource. Errors: JG_EINVAL (NULL mr),
 *  JG_ENODEV without CUDA. */
JG_API jg_status jg_memory_resource_pinned(jg_memory_resource **mr, jg_error *err);

/** The device resource of CUDA device `device_id` (cudaMalloc, freed with cudaFree).
 *  Library-owned, process-lifetime. Errors: JG_EINVAL, JG_ENODEV, JG_EINDEX (bad id). */
JG_API jg_status jg_memory_resource_device(int device_id, jg_memory_resource **mr,
                                           jg_error *err);

/** The managed resource of device `device_id` (cudaMallocManaged, cudaMemAttachGlobal), host-
 *  and device-accessible. Library-owned. Errors: JG_EINVAL, JG_ENODEV, JG_EINDEX, JG_ENOTSUP if
 *  the device lacks managed memory. */
JG_API jg_status jg_memory_resource_managed(int device_id, jg_memory_resource **mr,
                                            jg_error *err);

/** Options of a stream-ordered pool. Zero-initialise, then set what you need. */
typedef struct jg_pool_options {
  uint32_t version;          /**< sizeof(jg_pool_options), or 0 for the current size */
  uint64_t release_threshold;/**< bytes the pool keeps cached across synchronisations; 0 = none */
  uint64_t max_size;         /**< 0 = unlimited (cudaMemPoolProps maxSize) */
  uint8_t reserved[32];
} jg_pool_options;

/** Creates a stream-ordered device pool on `device_id` (cudaMemPoolCreate; allocations with
 *  cudaMallocFromPoolAsync, frees with cudaFreeAsync on the buffer's recorded stream).
 *  `options` may be NULL for defaults. `*mr` receives a new resource owned by the caller: destroy
 *  it with jg_memory_resource_destroy after every buffer from it is released.
 *  Errors: JG_EINVAL, JG_ENODEV, JG_EINDEX, JG_ENOTSUP (device without pool support),
 *  JG_ECUDA, JG_ENOMEM. */
JG_API jg_status jg_memory_resource_pool_create(int device_id, const jg_pool_options *options,
                                                jg_memory_resource **mr, jg_error *err);

/** Destroys a resource made by jg_memory_resource_pool_create. NULL and the built-in process-
 *  lifetime resources are accepted and ignored. */
JG_API void jg_memory_resource_destroy(jg_memory_resource *mr);

/** Fills a caller-allocated resource with a user allocator hook. `device`, `host_accessible`,
 *  `device_accessible` and `stream_ordered` describe the memory the hook returns; the library
 *  trusts them (they drive dispatch and copies). `user_data` is passed back through
 *  mr->user_data. Errors: JG_EINVAL if `mr`, `allocate` or `deallocate` is NULL or the device
 *  type is unknown. */
JG_API jg_status jg_memory_resource_init_user(jg_memory_resource *mr, jg_device device,
                                              bool host_accessible, bool device_accessible,
                                              bool stream_ordered, jg_allocate_fn allocate,
                                              jg_deallocate_fn deallocate, void *user_data,
                                              jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Pointer attributes                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** What CUDA says about a pointer (cudaPointerGetAttributes), classified as in
 *  ../shared/notes/memory.md section 3: managed before memory type, pinned and registered host
 *  memory alike, device id of host kinds = the device current at allocation/registration. */
typedef struct jg_pointer_attributes {
  jg_device device;       /**< CPU for plain host memory; CUDA / CUDA_HOST / CUDA_MANAGED */
  bool host_accessible;
  bool device_accessible;
  bool is_managed;
  bool is_pinned;         /**< page-locked: cudaMallocHost or cudaHostRegister */
  bool is_pool;           /**< came from a stream-ordered pool (when known) */
  void *host_pointer;     /**< address for host code, NULL when not host-accessible */
  void *device_pointer;   /**< address for kernels on `device.id`; differs from the host address
                               for registered memory on devices where
                               CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM is 0; NULL when not
                               device-accessible */
} jg_pointer_attributes;

/** Classifies `ptr` (which spans `bytes` bytes). Without CUDA (not compiled, no driver or no
 *  device) every pointer is plain host memory. `ptr` NULL with `bytes` 0 is valid and reports
 *  host memory without asking CUDA; NULL with `bytes` > 0 is JG_EINVAL.
 *  Errors: JG_EINVAL (NULL out, NULL ptr with bytes > 0), JG_ECUDA (the query failed). */
JG_API jg_status jg_pointer_get_attributes(const void *ptr, size_t bytes,
                                           jg_pointer_attributes *attrs, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Buffers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** A reference-counted span of bytes. Opaque; created by the jg_buffer_* constructors below with
 *  one reference, shared with jg_buffer_retain, dropped with jg_buffer_release. Retain and
 *  release are thread-safe (atomic count). */
typedef struct jg_buffer jg_buffer;

/** Ownership mode of a buffer. */
typedef enum jg_buffer_mode {
  JG_BUFFER_OWNED = 1,
  JG_BUFFER_EXTERNAL = 2,
  JG_BUFFER_BORROWED = 3
} jg_buffer_mode;

/** Release callback of an external buffer: called exactly once, when the last reference goes,
 *  with the owner, data pointer and size given at wrap time. Must not fail. */
typedef void (*jg_release_fn)(void *owner, void *data, size_t bytes);

/** Allocates `bytes` bytes (0 allowed: data may then be NULL) from `mr`, aligned to at least 64
 *  bytes, on `stream` for stream-ordered resources; `stream` is recorded as the deallocation
 *  stream. `*out` receives an owned buffer with one reference.
 *  Errors: JG_EINVAL (NULL mr or out), JG_ENOMEM / JG_EDEVMEM when the resource is exhausted
 *  (message gives the size and resource), JG_ENODEV, JG_ECUDA. On error *out is NULL. */
JG_API jg_status jg_buffer_allocate(jg_memory_resource *mr, size_t bytes, jg_stream stream,
                                    jg_buffer **out, jg_error *err);

/** Wraps foreign memory kept alive by `owner` and given back by `release(owner, data, bytes)`
 *  when the last reference goes. `release` may be NULL (then `owner` is only carried along). The
 *  pointer's attributes are queried lazily (jg_buffer_attributes). `data` NULL needs `bytes` 0.
 *  On error the callback is NOT called: the caller still owns the memory.
 *  Errors: JG_EINVAL (NULL out, NULL data with bytes > 0), JG_ENOMEM. */
JG_API jg_status jg_buffer_wrap_external(void *data, size_t bytes, void *owner,
                                         jg_release_fn release, jg_buffer **out, jg_error *err);

/** Wraps memory the buffer neither frees nor keeps alive; the caller guarantees it outlives
 *  every reference. Errors as jg_buffer_wrap_external. */
JG_API jg_status jg_buffer_wrap_borrowed(void *data, size_t bytes, jg_buffer **out,
                                         jg_error *err);

/** Adds a reference to `buf` and returns it; NULL gives NULL. */
JG_API jg_buffer *jg_buffer_retain(jg_buffer *buf);

/** Drops a reference; the last one frees owned memory through its resource on the recorded
 *  deallocation stream, or calls an external buffer's release callback. NULL is a no-op. */
JG_API void jg_buffer_release(jg_buffer *buf);

/** The buffer's base address (host or device address as allocated; NULL for 0 bytes allowed). */
JG_API void *jg_buffer_data(const jg_buffer *buf);

/** The buffer's size in bytes. */
JG_API size_t jg_buffer_size(const jg_buffer *buf);

/** The buffer's ownership mode. */
JG_API jg_buffer_mode jg_buffer_get_mode(const jg_buffer *buf);

/** The resource of an owned buffer, NULL for external and borrowed buffers. */
JG_API jg_memory_resource *jg_buffer_resource(const jg_buffer *buf);

/** The buffer's pointer attributes: from its resource for owned buffers, else queried once
 *  through jg_pointer_get_attributes and cached in the buffer (thread-safe). Errors: JG_EINVAL,
 *  JG_ECUDA. */
JG_API jg_status jg_buffer_attributes(jg_buffer *buf, jg_pointer_attributes *attrs,
                                      jg_error *err);

/** Changes the stream an owned buffer is freed on (for stream-ordered resources). No effect on
 *  external or borrowed buffers. Errors: JG_EINVAL (NULL buf). */
JG_API jg_status jg_buffer_set_deallocation_stream(jg_buffer *buf, jg_stream stream,
                                                   jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_MEMORY_H */
