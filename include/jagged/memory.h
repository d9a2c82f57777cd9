/* memory.h: memory resources, buffers and pointer attributes.
 *
 * A jg_memory_resource allocates and frees bytes in one kind of memory (host, pinned host,
 * device, managed, a stream-ordered device pool, or a user hook). A jg_buffer is a reference-
 * counted span of bytes in one of three ownership modes, as in cuda.core's Buffer
 * (NVIDIA cuda-python, cuda_core/cuda/core/_memory/_buffer.pyx):
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
  JG_MEMORY_USER = 6,        /**< a user-supplied allocator hook */
  JG_MEMORY_HOST_POOL = 7    /**< pageable host memory with a cache of large freed blocks */
} jg_memory_kind;

typedef struct jg_memory_resource jg_memory_resource;

/** Allocation hook of a resource: writes to `*ptr` a block of at least `bytes` bytes aligned to
 *  `alignment` (a power of two), enqueued on `stream` for stream-ordered resources. `bytes` 0 may
 *  give NULL (every built-in hook does, without calling CUDA). Returns JG_OK, or JG_ENOMEM /
 *  JG_EDEVMEM / another status, filling `err` (which may be NULL; jg_error_set handles that).
 *  jg_buffer_allocate passes alignment 64 and its own `err`, and prefixes the hook's message with
 *  the size and the resource. The built-in hooks return JG_EINVAL for an alignment that is not a
 *  power of two; the CUDA ones JG_ENOTSUP above 256 (what CUDA allocations guarantee). */
typedef jg_status (*jg_allocate_fn)(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                    jg_stream stream, void **ptr, jg_error *err);
/** Deallocation hook: frees a block from the same resource's allocate, with its size, on
 *  `stream` for stream-ordered resources. Must accept NULL `ptr` (no-op) and must not fail: the
 *  built-in hooks clear and ignore CUDA errors. jg_buffer_release calls it once for every
 *  successful allocate, including those of 0 bytes. */
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

/** The host resource: pageable memory from posix_memalign, aligned to max(64, alignment) bytes,
 *  freed with free. 0 bytes give NULL. A size that, rounded up to the alignment, exceeds
 *  PTRDIFF_MAX gives JG_ENOMEM without asking the allocator; so does a failed posix_memalign.
 *  Device {JG_DEVICE_CPU, 0}, host-accessible only, not stream-ordered. Static storage; never
 *  NULL; needs no CUDA. */
JG_API jg_memory_resource *jg_memory_resource_host(void);

/** The library's host pool: the host resource (pageable memory, aligned to max(64, alignment)
 *  bytes) plus a cache of large freed blocks, as CuPy's memory pool does for device memory.
 *  A block of 1 MiB or more is allocated at its size class (the size rounded up to an eighth of
 *  its power of two, so at most 12.5% more; aligned to max(4096, alignment)) and, when released,
 *  kept for the next allocation of the same class instead of going back to the C library, so
 *  its pages are already mapped: a freshly allocated result costs no page faults. Smaller blocks
 *  are allocated and freed as by jg_memory_resource_host. The cache holds at most 1 GiB by
 *  default (jg_memory_resource_host_pool_set_limit), oldest blocks freed first; hand it back
 *  with jg_memory_resource_trim and see its size with jg_memory_resource_get_cached. When the C
 *  library cannot give a block and the cache holds at least its size class, the cache is freed
 *  and the allocation tried once more (a larger request fails without touching the cache). The
 *  operations of ops.h and the other operation headers allocate their host results from it.
 *  Errors of its allocate hook: as jg_memory_resource_host (JG_EINVAL for an alignment that is
 *  not a power of two, JG_ENOMEM above PTRDIFF_MAX or when memory is exhausted).
 *  Kind JG_MEMORY_HOST_POOL, device {JG_DEVICE_CPU, 0}, host-accessible only, not stream-ordered.
 *  Static storage; never NULL; needs no CUDA; thread-safe. */
JG_API jg_memory_resource *jg_memory_resource_host_pool(void);

/** Sets the most bytes the host pool (jg_memory_resource_host_pool) keeps cached, freeing the
 *  oldest cached blocks beyond it now, and returns the previous limit. 0 turns the cache off.
 *  Blocks in use are never affected. Thread-safe; never fails. */
JG_API size_t jg_memory_resource_host_pool_set_limit(size_t max_cached_bytes);

/** The pinned-host resource (cudaMallocHost, freed with cudaFreeHost), host- and device-
 *  accessible (portable: with unified addressing every device sees the host address). Device
 *  {JG_DEVICE_CUDA_HOST, 0}. Exhaustion gives JG_ENOMEM (it is host memory).
 *  `*mr` receives a library-owned, process-lifetime resource. Errors: JG_EINVAL (NULL mr),
 *  JG_ENODEV without CUDA. */
JG_API jg_status jg_memory_resource_pinned(jg_memory_resource **mr, jg_error *err);

/** The device resource of CUDA device `device_id` (cudaMalloc with that device made current for
 *  the call and restored after, freed with cudaFree). Device {JG_DEVICE_CUDA, device_id},
 *  device-accessible only, not stream-ordered; exhaustion gives JG_EDEVMEM. The same pointer on
 *  every call. Library-owned, process-lifetime.
 *  Errors: JG_EINVAL (NULL mr), JG_ENODEV, JG_EINDEX (id not in [0, count); index = id),
 *  JG_ENOMEM (the per-device table could not be allocated). */
JG_API jg_status jg_memory_resource_device(int device_id, jg_memory_resource **mr,
                                           jg_error *err);

/** The managed resource of device `device_id` (cudaMallocManaged, cudaMemAttachGlobal, with that
 *  device current; freed with cudaFree), host- and device-accessible, device
 *  {JG_DEVICE_CUDA_MANAGED, device_id}. Library-owned, process-lifetime. Errors: JG_EINVAL,
 *  JG_ENODEV, JG_EINDEX, JG_ENOTSUP if the device lacks managed memory
 *  (cudaDevAttrManagedMemory is 0), JG_ECUDA, JG_ENOMEM as jg_memory_resource_device. */
JG_API jg_status jg_memory_resource_managed(int device_id, jg_memory_resource **mr,
                                            jg_error *err);

/** Options of a stream-ordered pool. Zero-initialise, then set what you need. */
typedef struct jg_pool_options {
  uint32_t version;          /**< sizeof(jg_pool_options), or 0 for the current size */
  uint64_t release_threshold;/**< bytes the pool keeps cached across synchronisations; 0 = none */
  uint64_t max_size;         /**< 0 = unlimited (cudaMemPoolProps maxSize) */
  uint8_t reserved[32];
} jg_pool_options;

/** Creates a stream-ordered device pool on `device_id` (cudaMemPoolCreate, pinned device
 *  memory located on `device_id`; allocations with cudaMallocFromPoolAsync on the given stream,
 *  frees with cudaFreeAsync on the buffer's recorded stream; a NULL stream is the legacy default
 *  stream of `device_id`). The memory is device-accessible on `device_id` only; device
 *  {JG_DEVICE_CUDA, device_id}; stream_ordered is true. Exhaustion (or going past max_size)
 *  gives JG_EDEVMEM. `options` may be NULL for defaults (threshold 0, no size limit).
 *  `*mr` receives a new resource owned by the caller (NULL on error): destroy it with
 *  jg_memory_resource_destroy after every buffer from it is released.
 *  Errors, in the order checked: JG_EINVAL (NULL mr; options->version neither 0 nor
 *  sizeof(jg_pool_options)), JG_ENODEV, JG_EINDEX (index = device_id), JG_ENOTSUP (device without
 *  pool support, or max_size set with a CUDA older than 12.2 at build time), JG_EINVAL (max_size
 *  beyond SIZE_MAX), JG_ENOMEM, JG_ECUDA (pool creation or the threshold attribute failed). */
JG_API jg_status jg_memory_resource_pool_create(int device_id, const jg_pool_options *options,
                                                jg_memory_resource **mr, jg_error *err);

/** The library's own stream-ordered pool on CUDA device `device_id`, made on first use
 *  (cudaMemPoolCreate, as jg_memory_resource_pool_create) with a release threshold of
 *  UINT64_MAX: memory given back to it stays cached for the next allocation instead of going
 *  back to the driver at every synchronisation, as CuPy's memory pool does; hand it back with
 *  jg_memory_resource_trim. The operations of ops.h and the other operation headers allocate
 *  their device results from it (on the operation's stream; freed on the legacy default stream),
 *  so that a call costs no cudaMalloc. Device {JG_DEVICE_CUDA, device_id}, device-accessible
 *  only, stream_ordered true. Library-owned, process-lifetime: jg_memory_resource_destroy
 *  ignores it. Thread-safe.
 *  Errors: JG_EINVAL (NULL mr), JG_ENODEV, JG_EINDEX (index = device_id), JG_ENOTSUP (a device
 *  without memory pools), JG_ENOMEM, JG_ECUDA (pool creation failed). */
JG_API jg_status jg_memory_resource_device_pool(int device_id, jg_memory_resource **mr,
                                                jg_error *err);

/** Gives the memory a stream-ordered pool resource (jg_memory_resource_device_pool or
 *  jg_memory_resource_pool_create) holds cached beyond `keep_bytes` back to the driver
 *  (cudaMemPoolTrimTo: memory of live allocations is never freed; call after synchronising the
 *  streams that freed memory); for the host pool (jg_memory_resource_host_pool), frees its
 *  oldest cached blocks until at most `keep_bytes` stay. Other resources: nothing to do, JG_OK.
 *  Errors: JG_EINVAL (NULL mr), JG_ECUDA. */
JG_API jg_status jg_memory_resource_trim(jg_memory_resource *mr, size_t keep_bytes,
                                         jg_error *err);

/** Writes to *bytes the memory `mr` holds cached for later allocations, not in use: for the
 *  host pool (jg_memory_resource_host_pool) its cached blocks; for a stream-ordered device pool
 *  the memory reserved from the driver minus the memory in use (cudaMemPoolAttrReservedMemCurrent
 *  - cudaMemPoolAttrUsedMemCurrent: freed blocks whose stream work may still be pending count as
 *  in use until then); 0 for every other resource. Errors: JG_EINVAL (NULL mr or bytes; *bytes
 *  is left untouched), JG_ECUDA (the pool attributes could not be read; *bytes is then 0). */
JG_API jg_status jg_memory_resource_get_cached(jg_memory_resource *mr, size_t *bytes,
                                               jg_error *err);

/** Destroys a resource made by jg_memory_resource_pool_create (cudaMemPoolDestroy; should a
 *  buffer still be outstanding, CUDA keeps its memory until it is freed, but releasing that buffer
 *  afterwards is undefined: release first). NULL, the built-in process-lifetime resources and
 *  user resources (caller-allocated) are accepted and ignored. Never fails. */
JG_API void jg_memory_resource_destroy(jg_memory_resource *mr);

/** Fills a caller-allocated resource (kind JG_MEMORY_USER) with a user allocator hook. `device`,
 *  `host_accessible`, `device_accessible` and `stream_ordered` describe the memory the hook
 *  returns; the library trusts them (they drive dispatch, copies and jg_buffer_attributes of
 *  owned buffers, where device type CUDA_MANAGED means is_managed, CUDA_HOST means is_pinned and
 *  stream_ordered means is_pool). `user_data` is passed back through mr->user_data. The resource
 *  must outlive its buffers; nothing needs destroying.
 *  Errors: JG_EINVAL if `mr`, `allocate` or `deallocate` is NULL, the device type is not a
 *  jg_device_type value, or the device id is negative (`*mr` is then untouched). */
JG_API jg_status jg_memory_resource_init_user(jg_memory_resource *mr, jg_device device,
                                              bool host_accessible, bool device_accessible,
                                              bool stream_ordered, jg_allocate_fn allocate,
                                              jg_deallocate_fn deallocate, void *user_data,
                                              jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Pointer attributes                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** What CUDA says about a pointer (cudaPointerGetAttributes), classified as cuda.core does
 *  (NVIDIA cuda-python, _query_memory_attrs in cuda_core/cuda/core/_memory/_buffer.pyx): managed
 *  before memory type, pinned and registered host memory alike, device id of host kinds = the
 *  device current at allocation/registration. */
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

/** Classifies `ptr` (which spans `bytes` bytes; interior pointers are fine) with
 *  cudaPointerGetAttributes, in this order:
 *    - `ptr` NULL with `bytes` 0 (valid everywhere), or CUDA unusable (not compiled, no driver or
 *      no device), or memory type Unregistered: plain host memory, device {JG_DEVICE_CPU, 0},
 *      host-accessible only, host_pointer = ptr, device_pointer NULL;
 *    - type Managed: {JG_DEVICE_CUDA_MANAGED, device current at allocation}, both sides,
 *      is_managed;
 *    - type Host (cudaMallocHost / cudaHostAlloc / cudaHostRegister): {JG_DEVICE_CUDA_HOST,
 *      device current at allocation or registration}, is_pinned, host-accessible, and
 *      device_pointer = the device alias for kernels on that device (the runtime's
 *      devicePointer, asked with that device current); device_accessible is false only when no
 *      alias exists;
 *    - type Device: {JG_DEVICE_CUDA, owning device}, device-accessible only.
 *  is_pool comes from the driver's CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE (through cudart's driver
 *  entry point; false when the driver does not offer it). Nothing is cached: the same address may
 *  change class (cudaHostRegister); jg_buffer_attributes caches per buffer. The current device
 *  is unchanged on return. Thread-safe.
 *  Errors: JG_EINVAL (NULL attrs, NULL ptr with bytes > 0), JG_ECUDA (the query failed, or an
 *  unknown memory type). */
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

/** Allocates `bytes` bytes (0 allowed: data may then be NULL; the hook is still called) from
 *  `mr`, aligned to at least 64 bytes, on `stream` for stream-ordered resources; `stream` is
 *  recorded as the deallocation stream and must still exist when the last reference goes (or be
 *  replaced with jg_buffer_set_deallocation_stream). `*out` receives an owned buffer with one
 *  reference. The memory is uninitialised.
 *  Errors: JG_EINVAL (NULL mr or out, a resource without hooks, a hook that returned a pointer
 *  not aligned to 64 bytes: it is given back), whatever the hook returns, with the message
 *  "cannot allocate <bytes> bytes from <resource>: <hook's message>": JG_ENOMEM / JG_EDEVMEM
 *  when the resource is exhausted (also when a hook returns NULL for bytes > 0: JG_ENOMEM for
 *  CPU and CUDA_HOST resources, else JG_EDEVMEM), JG_ENODEV, JG_ENOTSUP, JG_ECUDA; JG_ENOMEM if
 *  the buffer header cannot be allocated; JG_EINTERNAL when the hook returns a number that is not
 *  a jg_status (the message gives the number, then the hook's own message if it wrote one). On
 *  error *out is NULL. */
JG_API jg_status jg_buffer_allocate(jg_memory_resource *mr, size_t bytes, jg_stream stream,
                                    jg_buffer **out, jg_error *err);

/** Wraps foreign memory kept alive by `owner` and given back by `release(owner, data, bytes)`
 *  when the last reference goes (exactly once, on the thread that drops it). `release` may be
 *  NULL (then `owner` is only carried along). `data` may be a host or device address; its
 *  attributes are queried lazily (jg_buffer_attributes). `data` NULL needs `bytes` 0.
 *  On error the callback is NOT called: the caller still owns the memory, and *out is NULL.
 *  Errors: JG_EINVAL (NULL out, NULL data with bytes > 0, a span that wraps past the end of the
 *  address space: data + bytes > UINTPTR_MAX + 1), JG_ENOMEM (buffer header). */
JG_API jg_status jg_buffer_wrap_external(void *data, size_t bytes, void *owner,
                                         jg_release_fn release, jg_buffer **out, jg_error *err);

/** Wraps memory the buffer neither frees nor keeps alive; the caller guarantees it outlives
 *  every reference. Errors as jg_buffer_wrap_external. */
JG_API jg_status jg_buffer_wrap_borrowed(void *data, size_t bytes, jg_buffer **out,
                                         jg_error *err);

/** Adds a reference to `buf` and returns it; NULL gives NULL. */
JG_API jg_buffer *jg_buffer_retain(jg_buffer *buf);

/** Drops a reference; the last one frees owned memory through its resource's deallocate hook
 *  on the recorded deallocation stream (stream-ordered: the free is enqueued, not waited for), or
 *  calls an external buffer's release callback; borrowed memory is left alone. NULL is a no-op.
 *  Thread-safe (atomic count); releasing more references than were taken is undefined. */
JG_API void jg_buffer_release(jg_buffer *buf);

/** The buffer's base address (host or device address as allocated; may be NULL for 0 bytes);
 *  NULL for a NULL buffer. */
JG_API void *jg_buffer_data(const jg_buffer *buf);

/** The buffer's size in bytes; 0 for a NULL buffer. */
JG_API size_t jg_buffer_size(const jg_buffer *buf);

/** The buffer's ownership mode; 0 (no mode) for a NULL buffer. */
JG_API jg_buffer_mode jg_buffer_get_mode(const jg_buffer *buf);

/** The resource of an owned buffer, NULL for external and borrowed buffers. */
JG_API jg_memory_resource *jg_buffer_resource(const jg_buffer *buf);

/** The buffer's pointer attributes. Owned buffers: from the resource (device, accessibility;
 *  is_managed for MANAGED resources or device type CUDA_MANAGED, is_pinned for PINNED or
 *  CUDA_HOST, is_pool for stream-ordered resources; host_pointer / device_pointer = data on the
 *  accessible sides), since pool-allocated managed memory may not report IS_MANAGED. External
 *  and borrowed buffers: queried through jg_pointer_get_attributes on first use and cached in
 *  the buffer (thread-safe, lock-free; a failed query is not cached), so a buffer keeps its
 *  answer if the memory is registered later: wrap it again to re-query.
 *  Errors: JG_EINVAL (NULL buf or attrs), JG_ECUDA. */
JG_API jg_status jg_buffer_attributes(jg_buffer *buf, jg_pointer_attributes *attrs,
                                      jg_error *err);

/** Changes the stream an owned buffer is freed on (for stream-ordered resources; NULL is the
 *  legacy default stream). No effect on external or borrowed buffers. Thread-safe (atomic).
 *  Errors: JG_EINVAL (NULL buf). */
JG_API jg_status jg_buffer_set_deallocation_stream(jg_buffer *buf, jg_stream stream,
                                                   jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_MEMORY_H */
