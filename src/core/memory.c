/* memory.c: memory resources, reference-counted buffers and pointer attributes.
 *
 * Resources are small vtables (jg_memory_resource). The host resource is a static object; the
 * pinned, per-device and per-device managed resources are process-lifetime objects made once
 * when CUDA is usable; pools are created and destroyed by the caller. Buffers follow cuda.core's
 * three ownership modes (NVIDIA cuda-python, cuda_core/cuda/core/_memory/_buffer.pyx; the
 * owning mode as fixed by cuda-python PR #1625): owned (freed by the resource on the recorded
 * stream), external (release callback, called exactly once) and borrowed. Pointer
 * classification follows cuda.core's _query_memory_attrs in the same file. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "jagged/device.h"
#include "jagged/memory.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda.h> /* driver types only; the driver is reached through cudart's entry points */
#endif

/** Alignment every built-in resource guarantees at least, and jg_buffer_allocate asks for. */
#define MIN_ALIGNMENT ((size_t)64)
/** Alignment cudaMalloc, cudaMallocHost, cudaMallocManaged and pools guarantee. */
#define CUDA_ALIGNMENT ((size_t)256)

static bool is_pow2(size_t x) { return x != 0 && (x & (x - 1)) == 0; }

/* Whether `st` is one of the statuses of JG_STATUS_MAP (a user hook may return anything). */
static bool is_status(jg_status st) {
  switch (st) {
#define JGI_IS_STATUS_(name, num, msg) case JG_##name:
    JG_STATUS_MAP(JGI_IS_STATUS_)
#undef JGI_IS_STATUS_
    return true;
  }
  return false;
}

static const char *kind_name(jg_memory_kind kind) {
  switch (kind) {
    case JG_MEMORY_HOST: return "host";
    case JG_MEMORY_PINNED: return "pinned-host";
    case JG_MEMORY_DEVICE: return "device";
    case JG_MEMORY_MANAGED: return "managed";
    case JG_MEMORY_DEVICE_POOL: return "device-pool";
    case JG_MEMORY_USER: return "user";
    case JG_MEMORY_HOST_POOL: return "host-pool";
  }
  return "unknown";
}

/* "the device resource of CUDA device 0" etc., for error messages. */
static void describe_resource(const jg_memory_resource *mr, char *out, size_t n) {
  switch (mr->kind) {
    case JG_MEMORY_HOST:
    case JG_MEMORY_PINNED:
    case JG_MEMORY_HOST_POOL:
      snprintf(out, n, "the %s resource", kind_name(mr->kind));
      return;
    case JG_MEMORY_DEVICE:
    case JG_MEMORY_MANAGED:
    case JG_MEMORY_DEVICE_POOL:
      snprintf(out, n, "the %s resource of CUDA device %d", kind_name(mr->kind),
               (int)mr->device.id);
      return;
    case JG_MEMORY_USER:
      break;
  }
  snprintf(out, n, "a user resource (device type %d, id %d)", (int)mr->device.type,
           (int)mr->device.id);
}

/* ------------------------------------------------------------------------------------------ */
/* Host resource                                                                               */
/* ------------------------------------------------------------------------------------------ */

static jg_status host_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                               jg_stream stream, void **ptr, jg_error *err) {
  JG_RETURN_IF(ptr == NULL, JG_EINVAL, err, "host allocate: ptr is NULL");
  *ptr = NULL;
  JG_RETURN_IF(!is_pow2(alignment), JG_EINVAL, err, "alignment %zu is not a power of two",
               alignment);
  if (bytes == 0) return JG_OK;
  if (alignment < MIN_ALIGNMENT) alignment = MIN_ALIGNMENT;
  /* Objects larger than PTRDIFF_MAX cannot be indexed; refuse before asking the allocator. */
  size_t padded = 0;
  JG_RETURN_IF(jgi_add_overflow(bytes, alignment - 1, &padded) ||
                   (padded & ~(alignment - 1)) > (size_t)PTRDIFF_MAX,
               JG_ENOMEM, err, "size exceeds the largest object size (PTRDIFF_MAX)");
  void *p = NULL;
  int rc = posix_memalign(&p, alignment, bytes);
  JG_RETURN_IF(rc != 0 || p == NULL, JG_ENOMEM, err,
               "posix_memalign (alignment %zu) failed: out of host memory", alignment);
  *ptr = p;
  return JG_OK;
}

static void host_deallocate(jg_memory_resource *mr, void *ptr, size_t bytes, jg_stream stream) {
  free(ptr);
}

static jg_memory_resource host_resource = {
    .version = (uint32_t)sizeof(jg_memory_resource),
    .kind = JG_MEMORY_HOST,
    .device = {JG_DEVICE_CPU, 0},
    .host_accessible = true,
    .device_accessible = false,
    .stream_ordered = false,
    .allocate = host_allocate,
    .deallocate = host_deallocate,
    .user_data = NULL,
    .private_data = NULL,
};

jg_memory_resource *jg_memory_resource_host(void) { return &host_resource; }

/* ------------------------------------------------------------------------------------------ */
/* Host pool: the host resource plus a cache of large freed blocks                             */
/* ------------------------------------------------------------------------------------------ */

/* Blocks of at least HOST_POOL_MIN bytes are allocated at their size class (bytes rounded up to
 * an eighth of their power of two: at most 12.5% more), aligned to at least HOST_POOL_ALIGN, and
 * kept on release in host_pool.blocks (most recent last) while the cached bytes stay within the
 * limit; an allocation of the same class and a satisfied alignment takes the most recent one
 * back, its pages already mapped. Smaller blocks go to the host resource. */
#define HOST_POOL_MIN ((size_t)1 << 20)
#define HOST_POOL_ALIGN ((size_t)4096)
#define HOST_POOL_DEFAULT_LIMIT ((size_t)1 << 30)

typedef struct host_block {
  void *p;
  size_t size; /* the size class */
} host_block;

static struct {
  pthread_mutex_t lock;
  host_block *blocks;
  size_t count, capacity;
  size_t cached; /* bytes in blocks */
  size_t limit;  /* most bytes kept */
} host_pool = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0, HOST_POOL_DEFAULT_LIMIT};

/* The size class of `bytes` (>= HOST_POOL_MIN) in *cls; false when it would overflow. */
static bool host_pool_class(size_t bytes, size_t *cls) {
  int k = 0;
  while (k < 63 && ((size_t)1 << (k + 1)) <= bytes) ++k;
  const size_t step = (size_t)1 << (k - 3);
  size_t padded = 0;
  if (jgi_add_overflow(bytes, step - 1, &padded)) return false;
  *cls = padded & ~(step - 1);
  return *cls <= (size_t)PTRDIFF_MAX;
}

/* Frees cached blocks, most recent last, until at most `keep` bytes stay. Holds the lock. */
static void host_pool_shrink_locked(size_t keep) {
  size_t i = 0;
  /* oldest first: they are the least likely to be asked for again */
  while (i < host_pool.count && host_pool.cached > keep) {
    host_pool.cached -= host_pool.blocks[i].size;
    free(host_pool.blocks[i].p);
    ++i;
  }
  if (i == 0) return;
  memmove(host_pool.blocks, host_pool.blocks + i, (host_pool.count - i) * sizeof *host_pool.blocks);
  host_pool.count -= i;
}

static jg_status host_pool_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                    jg_stream stream, void **ptr, jg_error *err) {
  if (bytes < HOST_POOL_MIN || ptr == NULL || !is_pow2(alignment))
    return host_allocate(mr, bytes, alignment, stream, ptr, err);
  *ptr = NULL;
  size_t cls = 0;
  JG_RETURN_IF(!host_pool_class(bytes, &cls), JG_ENOMEM, err,
               "size exceeds the largest object size (PTRDIFF_MAX)");
  pthread_mutex_lock(&host_pool.lock);
  for (size_t i = host_pool.count; i-- > 0;) {
    const host_block b = host_pool.blocks[i];
    if (b.size == cls && ((uintptr_t)b.p & (alignment - 1)) == 0) {
      memmove(host_pool.blocks + i, host_pool.blocks + i + 1,
              (host_pool.count - i - 1) * sizeof *host_pool.blocks);
      host_pool.count -= 1;
      host_pool.cached -= cls;
      pthread_mutex_unlock(&host_pool.lock);
      *ptr = b.p;
      return JG_OK;
    }
  }
  pthread_mutex_unlock(&host_pool.lock);
  const size_t align = alignment > HOST_POOL_ALIGN ? alignment : HOST_POOL_ALIGN;
  void *p = NULL;
  if (posix_memalign(&p, align, cls) != 0 || p == NULL) {
    /* the cache may be what is missing (when it could cover the block): give it back and try
     * once more; a block larger than the whole cache leaves it alone */
    pthread_mutex_lock(&host_pool.lock);
    const bool had = host_pool.cached >= cls;
    if (had) host_pool_shrink_locked(0);
    pthread_mutex_unlock(&host_pool.lock);
    p = NULL;
    JG_RETURN_IF(!had || posix_memalign(&p, align, cls) != 0 || p == NULL, JG_ENOMEM, err,
                 "posix_memalign (%zu bytes, alignment %zu) failed: out of host memory", cls,
                 align);
  }
  *ptr = p;
  return JG_OK;
}

static void host_pool_deallocate(jg_memory_resource *mr, void *ptr, size_t bytes,
                                 jg_stream stream) {
  size_t cls = 0;
  if (ptr == NULL || bytes < HOST_POOL_MIN || !host_pool_class(bytes, &cls)) {
    host_deallocate(mr, ptr, bytes, stream);
    return;
  }
  pthread_mutex_lock(&host_pool.lock);
  bool kept = false;
  if (cls <= host_pool.limit) {
    host_pool_shrink_locked(host_pool.limit - cls);
    if (host_pool.count == host_pool.capacity) {
      const size_t cap = host_pool.capacity ? 2 * host_pool.capacity : 16;
      host_block *nb = realloc(host_pool.blocks, cap * sizeof *nb);
      if (nb != NULL) {
        host_pool.blocks = nb;
        host_pool.capacity = cap;
      }
    }
    if (host_pool.count < host_pool.capacity) {
      host_pool.blocks[host_pool.count].p = ptr;
      host_pool.blocks[host_pool.count].size = cls;
      host_pool.count += 1;
      host_pool.cached += cls;
      kept = true;
    }
  }
  pthread_mutex_unlock(&host_pool.lock);
  if (!kept) free(ptr);
}

static jg_memory_resource host_pool_resource = {
    .version = (uint32_t)sizeof(jg_memory_resource),
    .kind = JG_MEMORY_HOST_POOL,
    .device = {JG_DEVICE_CPU, 0},
    .host_accessible = true,
    .device_accessible = false,
    .stream_ordered = false,
    .allocate = host_pool_allocate,
    .deallocate = host_pool_deallocate,
    .user_data = NULL,
    .private_data = NULL,
};

jg_memory_resource *jg_memory_resource_host_pool(void) { return &host_pool_resource; }

size_t jg_memory_resource_host_pool_set_limit(size_t max_cached_bytes) {
  pthread_mutex_lock(&host_pool.lock);
  const size_t old = host_pool.limit;
  host_pool.limit = max_cached_bytes;
  host_pool_shrink_locked(max_cached_bytes);
  pthread_mutex_unlock(&host_pool.lock);
  return old;
}

/* ------------------------------------------------------------------------------------------ */
/* CUDA resources                                                                              */
/* ------------------------------------------------------------------------------------------ */

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA

/* Checks shared by the CUDA hooks; returns JG_OK with *done set when nothing is to be done. */
static jg_status cuda_hook_prologue(size_t bytes, size_t alignment, void **ptr, bool *done,
                                    jg_error *err) {
  JG_RETURN_IF(ptr == NULL, JG_EINVAL, err, "allocate: ptr is NULL");
  *ptr = NULL;
  JG_RETURN_IF(!is_pow2(alignment), JG_EINVAL, err, "alignment %zu is not a power of two",
               alignment);
  JG_RETURN_IF(alignment > CUDA_ALIGNMENT, JG_ENOTSUP, err,
               "alignment %zu exceeds the %zu bytes CUDA allocations guarantee", alignment,
               CUDA_ALIGNMENT);
  *done = bytes == 0;
  return JG_OK;
}

static jg_status pinned_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                 jg_stream stream, void **ptr, jg_error *err) {
  bool done = false;
  JG_RETURN_NOT_OK(cuda_hook_prologue(bytes, alignment, ptr, &done, err));
  if (done) return JG_OK;
  void *p = NULL;
  cudaError_t e = cudaMallocHost(&p, bytes);
  if (e != cudaSuccess) {
    jg_status st = jgi_cuda_error(err, e, "cudaMallocHost");
    if (st == JG_EDEVMEM) { /* page-locked memory is host memory */
      st = JG_ENOMEM;
      if (err != NULL) err->status = st;
    }
    return st;
  }
  *ptr = p;
  return JG_OK;
}

static void pinned_deallocate(jg_memory_resource *mr, void *ptr, size_t bytes,
                              jg_stream stream) {
  if (ptr == NULL) return;
  if (cudaFreeHost(ptr) != cudaSuccess) (void)cudaGetLastError();
}

static jg_status device_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                 jg_stream stream, void **ptr, jg_error *err) {
  bool done = false;
  JG_RETURN_NOT_OK(cuda_hook_prologue(bytes, alignment, ptr, &done, err));
  if (done) return JG_OK;
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(mr->device.id, &prev, err));
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, bytes);
  jgi_cuda_device_pop(prev, mr->device.id);
  JG_CUDA_RETURN_NOT_OK(e, "cudaMalloc", err);
  *ptr = p;
  return JG_OK;
}

static void device_deallocate(jg_memory_resource *mr, void *ptr, size_t bytes,
                              jg_stream stream) {
  if (ptr == NULL) return;
  int prev = -1;
  bool pushed = jgi_cuda_device_push(mr->device.id, &prev, NULL) == JG_OK;
  if (cudaFree(ptr) != cudaSuccess) (void)cudaGetLastError();
  if (pushed) jgi_cuda_device_pop(prev, mr->device.id);
}

static jg_status managed_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                  jg_stream stream, void **ptr, jg_error *err) {
  bool done = false;
  JG_RETURN_NOT_OK(cuda_hook_prologue(bytes, alignment, ptr, &done, err));
  if (done) return JG_OK;
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(mr->device.id, &prev, err));
  void *p = NULL;
  cudaError_t e = cudaMallocManaged(&p, bytes, cudaMemAttachGlobal);
  jgi_cuda_device_pop(prev, mr->device.id);
  JG_CUDA_RETURN_NOT_OK(e, "cudaMallocManaged", err);
  *ptr = p;
  return JG_OK;
}

/* A stream-ordered pool: the resource first, so that a jg_memory_resource * is the struct. Its
 * private_data points to itself, which is how jg_memory_resource_destroy recognises it. */
typedef struct pool_resource {
  jg_memory_resource mr;
  cudaMemPool_t pool;
} pool_resource;

static jg_status pool_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                               jg_stream stream, void **ptr, jg_error *err) {
  bool done = false;
  JG_RETURN_NOT_OK(cuda_hook_prologue(bytes, alignment, ptr, &done, err));
  if (done) return JG_OK;
  pool_resource *pr = (pool_resource *)mr;
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(mr->device.id, &prev, err));
  void *p = NULL;
  cudaError_t e = cudaMallocFromPoolAsync(&p, bytes, pr->pool, (cudaStream_t)stream);
  jgi_cuda_device_pop(prev, mr->device.id);
  JG_CUDA_RETURN_NOT_OK(e, "cudaMallocFromPoolAsync", err);
  *ptr = p;
  return JG_OK;
}

static void pool_deallocate(jg_memory_resource *mr, void *ptr, size_t bytes, jg_stream stream) {
  if (ptr == NULL) return;
  int prev = -1;
  bool pushed = jgi_cuda_device_push(mr->device.id, &prev, NULL) == JG_OK;
  if (cudaFreeAsync(ptr, (cudaStream_t)stream) != cudaSuccess) (void)cudaGetLastError();
  if (pushed) jgi_cuda_device_pop(prev, mr->device.id);
}

static jg_memory_resource pinned_resource = {
    .version = (uint32_t)sizeof(jg_memory_resource),
    .kind = JG_MEMORY_PINNED,
    .device = {JG_DEVICE_CUDA_HOST, 0},
    .host_accessible = true,
    .device_accessible = true,
    .stream_ordered = false,
    .allocate = pinned_allocate,
    .deallocate = pinned_deallocate,
    .user_data = NULL,
    .private_data = NULL,
};

/* Per-device resources, made once (the device count never changes in a process). */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static jg_memory_resource *device_table;  /* [table_count] */
static jg_memory_resource *managed_table; /* [table_count] */
static int table_count;                   /* 0 until made; stays 0 if calloc failed */

static void fill_builtin(jg_memory_resource *mr, jg_memory_kind kind, jg_device_type type,
                         int id, bool host_accessible, jg_allocate_fn allocate,
                         jg_deallocate_fn deallocate) {
  memset(mr, 0, sizeof *mr);
  mr->version = (uint32_t)sizeof *mr;
  mr->kind = kind;
  mr->device.type = type;
  mr->device.id = id;
  mr->host_accessible = host_accessible;
  mr->device_accessible = true;
  mr->stream_ordered = false;
  mr->allocate = allocate;
  mr->deallocate = deallocate;
}

static void make_tables(void) {
  int n = 0;
  if (jg_device_count(&n, NULL) != JG_OK || n <= 0) return;
  jg_memory_resource *d = calloc((size_t)n, sizeof *d);
  jg_memory_resource *m = calloc((size_t)n, sizeof *m);
  if (d == NULL || m == NULL) {
    free(d);
    free(m);
    return;
  }
  for (int i = 0; i < n; ++i) {
    fill_builtin(&d[i], JG_MEMORY_DEVICE, JG_DEVICE_CUDA, i, false, device_allocate,
                 device_deallocate);
    /* managed memory is freed with cudaFree, like device memory */
    fill_builtin(&m[i], JG_MEMORY_MANAGED, JG_DEVICE_CUDA_MANAGED, i, true, managed_allocate,
                 device_deallocate);
  }
  device_table = d;
  managed_table = m;
  table_count = n;
}

static jg_status get_tables(jg_error *err) {
  (void)pthread_once(&tables_once, make_tables);
  JG_RETURN_IF(table_count == 0, JG_ENOMEM, err,
               "cannot allocate the table of per-device memory resources");
  return JG_OK;
}

/* cuPointerGetAttribute through cudart's driver entry point, for
 * CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE (the runtime API does not report pools). NULL when the
 * driver does not offer it; pool detection of raw pointers is then "unknown" (false). */
typedef CUresult (*pointer_get_attribute_fn)(void *data, CUpointer_attribute attribute,
                                             CUdeviceptr ptr);
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
static pointer_get_attribute_fn driver_pointer_get_attribute;

static void load_driver_entry_points(void) {
  void *sym = NULL;
  enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuPointerGetAttribute", &sym, 12000,
                                                   cudaEnableDefault, &q);
#elif CUDART_VERSION >= 12000
  cudaError_t e = cudaGetDriverEntryPoint("cuPointerGetAttribute", &sym, cudaEnableDefault, &q);
#else
  cudaError_t e = cudaErrorNotSupported;
#endif
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || sym == NULL) {
    (void)cudaGetLastError();
    return;
  }
  _Static_assert(sizeof(sym) == sizeof(driver_pointer_get_attribute),
                 "function and object pointers differ in size");
  memcpy(&driver_pointer_get_attribute, &sym, sizeof sym); /* ISO C: no direct cast */
}

/* Whether `ptr` came from a stream-ordered memory pool (false when unknown). */
static bool pointer_in_pool(const void *ptr) {
  (void)pthread_once(&driver_once, load_driver_entry_points);
  if (driver_pointer_get_attribute == NULL) return false;
  CUmemoryPool pool = NULL;
  CUresult r = driver_pointer_get_attribute(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                                            (CUdeviceptr)(uintptr_t)ptr);
  return r == CUDA_SUCCESS && pool != NULL;
}

#endif /* JG_HAVE_CUDA */

jg_status jg_memory_resource_pinned(jg_memory_resource **mr, jg_error *err) {
  JG_RETURN_IF(mr == NULL, JG_EINVAL, err, "jg_memory_resource_pinned: mr is NULL");
  JG_RETURN_NOT_OK(jgi_cuda_require(err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  *mr = &pinned_resource;
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

jg_status jg_memory_resource_device(int device_id, jg_memory_resource **mr, jg_error *err) {
  JG_RETURN_IF(mr == NULL, JG_EINVAL, err, "jg_memory_resource_device: mr is NULL");
  JG_RETURN_NOT_OK(jgi_cuda_check_device(device_id, err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  JG_RETURN_NOT_OK(get_tables(err));
  *mr = &device_table[device_id];
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

jg_status jg_memory_resource_managed(int device_id, jg_memory_resource **mr, jg_error *err) {
  JG_RETURN_IF(mr == NULL, JG_EINVAL, err, "jg_memory_resource_managed: mr is NULL");
  JG_RETURN_NOT_OK(jgi_cuda_check_device(device_id, err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int supported = 0;
  JG_CUDA_RETURN_NOT_OK(cudaDeviceGetAttribute(&supported, cudaDevAttrManagedMemory, device_id),
                        "cudaDeviceGetAttribute(cudaDevAttrManagedMemory)", err);
  JG_RETURN_IF(!supported, JG_ENOTSUP, err, "CUDA device %d does not support managed memory",
               device_id);
  JG_RETURN_NOT_OK(get_tables(err));
  *mr = &managed_table[device_id];
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/* A new pool resource on `device_id` (checked by the caller) with the given release threshold
 * and size limit (0: none). */
static jg_status make_pool(int device_id, uint64_t release_threshold, uint64_t max_size,
                           pool_resource **out, jg_error *err) {
  int supported = 0;
  JG_CUDA_RETURN_NOT_OK(
      cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device_id),
      "cudaDeviceGetAttribute(cudaDevAttrMemoryPoolsSupported)", err);
  JG_RETURN_IF(!supported, JG_ENOTSUP, err,
               "CUDA device %d does not support stream-ordered memory pools", device_id);
  JG_RETURN_IF(max_size > (uint64_t)SIZE_MAX, JG_EINVAL, err,
               "max_size %llu does not fit in size_t", (unsigned long long)max_size);

  struct cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device_id;
#if CUDART_VERSION >= 12020
  props.maxSize = (size_t)max_size;
#else
  JG_RETURN_IF(max_size != 0, JG_ENOTSUP, err,
               "a pool max_size needs CUDA 12.2 or newer at build time");
#endif

  pool_resource *pr = calloc(1, sizeof *pr);
  JG_RETURN_IF(pr == NULL, JG_ENOMEM, err, "cannot allocate %zu bytes for a pool resource",
               sizeof *pr);
  cudaError_t e = cudaMemPoolCreate(&pr->pool, &props);
  if (e != cudaSuccess) {
    free(pr);
    return jgi_cuda_error(err, e, "cudaMemPoolCreate");
  }
  unsigned long long threshold = (unsigned long long)release_threshold;
  e = cudaMemPoolSetAttribute(pr->pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  if (e != cudaSuccess) {
    jg_status st = jgi_cuda_error(err, e, "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
    (void)cudaMemPoolDestroy(pr->pool);
    (void)cudaGetLastError();
    free(pr);
    return st;
  }
  fill_builtin(&pr->mr, JG_MEMORY_DEVICE_POOL, JG_DEVICE_CUDA, device_id, false, pool_allocate,
               pool_deallocate);
  pr->mr.stream_ordered = true;
  pr->mr.private_data = pr;
  *out = pr;
  return JG_OK;
}

/* The operations' pools, one per device, made on first use (ops_pool_lock guards the table). */
static pthread_mutex_t ops_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pool_resource **ops_pools; /* [table_count] */
#endif

jg_status jg_memory_resource_pool_create(int device_id, const jg_pool_options *options,
                                         jg_memory_resource **mr, jg_error *err) {
  JG_RETURN_IF(mr == NULL, JG_EINVAL, err, "jg_memory_resource_pool_create: mr is NULL");
  *mr = NULL;
  JG_RETURN_IF(options != NULL && options->version != 0 &&
                   options->version != (uint32_t)sizeof(jg_pool_options),
               JG_EINVAL, err, "jg_pool_options.version is %u, expected 0 or %zu",
               (unsigned)options->version, sizeof(jg_pool_options));
  JG_RETURN_NOT_OK(jgi_cuda_check_device(device_id, err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  uint64_t release_threshold = options != NULL ? options->release_threshold : 0;
  uint64_t max_size = options != NULL ? options->max_size : 0;
  pool_resource *pr = NULL;
  JG_RETURN_NOT_OK(make_pool(device_id, release_threshold, max_size, &pr, err));
  *mr = &pr->mr;
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

jg_status jg_memory_resource_device_pool(int device_id, jg_memory_resource **mr, jg_error *err) {
  JG_RETURN_IF(mr == NULL, JG_EINVAL, err, "jg_memory_resource_device_pool: mr is NULL");
  *mr = NULL;
  JG_RETURN_NOT_OK(jgi_cuda_check_device(device_id, err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  JG_RETURN_NOT_OK(get_tables(err));
  pthread_mutex_lock(&ops_pool_lock);
  jg_status st = JG_OK;
  if (ops_pools == NULL) {
    ops_pools = calloc((size_t)table_count, sizeof *ops_pools);
    if (ops_pools == NULL) {
      st = jg_error_set(err, JG_ENOMEM, -1, "cannot allocate the table of per-device pools");
    }
  }
  if (st == JG_OK && ops_pools[device_id] == NULL) {
    st = make_pool(device_id, UINT64_MAX, 0, &ops_pools[device_id], err);
    /* Library-owned: a private_data other than itself keeps jg_memory_resource_destroy off. */
    if (st == JG_OK) ops_pools[device_id]->mr.private_data = (void *)&ops_pools;
  }
  if (st == JG_OK) *mr = &ops_pools[device_id]->mr;
  pthread_mutex_unlock(&ops_pool_lock);
  return st;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
jg_status jgi_scratch_alloc(int device, size_t bytes, cudaStream_t stream, void **p,
                            jg_error *err) {
  *p = NULL;
  jg_memory_resource *mr = NULL;
  jg_error ignored;
  cudaError_t e;
  if (jg_memory_resource_device_pool(device, &mr, &ignored) == JG_OK) {
    e = cudaMallocFromPoolAsync(p, bytes, ((pool_resource *)mr)->pool, stream);
  } else {
    e = cudaMallocAsync(p, bytes, stream);
  }
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    return jg_error_set(err, JG_EDEVMEM, -1, "cannot allocate %zu bytes of scratch memory on CUDA device %d", bytes, device);
  }
  return jgi_cuda_error(err, e, "cudaMallocFromPoolAsync (scratch)");
}

void jgi_scratch_free(void *p, cudaStream_t stream) {
  if (p != NULL && cudaFreeAsync(p, stream) != cudaSuccess) (void)cudaGetLastError();
}

#endif

jg_status jg_memory_resource_trim(jg_memory_resource *mr, size_t keep_bytes, jg_error *err) {
  JG_RETURN_IF(mr == NULL, JG_EINVAL, err, "jg_memory_resource_trim: mr is NULL");
  if (mr == &host_pool_resource) {
    pthread_mutex_lock(&host_pool.lock);
    host_pool_shrink_locked(keep_bytes);
    pthread_mutex_unlock(&host_pool.lock);
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  /* Pools made here: user pools (private_data is the resource) and the library's own. */
  if (mr->kind != JG_MEMORY_DEVICE_POOL || mr->allocate != pool_allocate) return JG_OK;
  const pool_resource *pr = (const pool_resource *)mr;
  JG_CUDA_RETURN_NOT_OK(cudaMemPoolTrimTo(pr->pool, keep_bytes), "cudaMemPoolTrimTo", err);
#else
  (void)keep_bytes;
#endif
  return JG_OK;
}

jg_status jg_memory_resource_get_cached(jg_memory_resource *mr, size_t *bytes, jg_error *err) {
  JG_RETURN_IF(mr == NULL || bytes == NULL, JG_EINVAL, err,
               "jg_memory_resource_get_cached: %s is NULL", mr == NULL ? "mr" : "bytes");
  *bytes = 0;
  if (mr == &host_pool_resource) {
    pthread_mutex_lock(&host_pool.lock);
    *bytes = host_pool.cached;
    pthread_mutex_unlock(&host_pool.lock);
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  if (mr->kind == JG_MEMORY_DEVICE_POOL && mr->allocate == pool_allocate) {
    const pool_resource *pr = (const pool_resource *)mr;
    unsigned long long reserved = 0, used = 0;
    JG_CUDA_RETURN_NOT_OK(
        cudaMemPoolGetAttribute(pr->pool, cudaMemPoolAttrReservedMemCurrent, &reserved),
        "cudaMemPoolGetAttribute(cudaMemPoolAttrReservedMemCurrent)", err);
    JG_CUDA_RETURN_NOT_OK(cudaMemPoolGetAttribute(pr->pool, cudaMemPoolAttrUsedMemCurrent, &used),
                          "cudaMemPoolGetAttribute(cudaMemPoolAttrUsedMemCurrent)", err);
    *bytes = reserved > used ? (size_t)(reserved - used) : 0;
  }
#endif
  return JG_OK;
}

void jg_memory_resource_destroy(jg_memory_resource *mr) {
  if (mr == NULL) return;
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  if (mr->kind != JG_MEMORY_DEVICE_POOL || mr->private_data != (void *)mr) return;
  pool_resource *pr = (pool_resource *)mr;
  /* Outstanding allocations keep the pool's memory alive until they are freed (CUDA docs). */
  if (cudaMemPoolDestroy(pr->pool) != cudaSuccess) (void)cudaGetLastError();
  free(pr);
#endif
}

jg_status jg_memory_resource_init_user(jg_memory_resource *mr, jg_device device,
                                       bool host_accessible, bool device_accessible,
                                       bool stream_ordered, jg_allocate_fn allocate,
                                       jg_deallocate_fn deallocate, void *user_data,
                                       jg_error *err) {
  JG_RETURN_IF(mr == NULL, JG_EINVAL, err, "jg_memory_resource_init_user: mr is NULL");
  JG_RETURN_IF(allocate == NULL, JG_EINVAL, err, "jg_memory_resource_init_user: allocate is NULL");
  JG_RETURN_IF(deallocate == NULL, JG_EINVAL, err,
               "jg_memory_resource_init_user: deallocate is NULL");
  JG_RETURN_IF(device.type != JG_DEVICE_CPU && device.type != JG_DEVICE_CUDA &&
                   device.type != JG_DEVICE_CUDA_HOST && device.type != JG_DEVICE_CUDA_MANAGED,
               JG_EINVAL, err, "jg_memory_resource_init_user: unknown device type %d",
               (int)device.type);
  JG_RETURN_IF(device.id < 0, JG_EINVAL, err,
               "jg_memory_resource_init_user: negative device id %d", (int)device.id);
  memset(mr, 0, sizeof *mr);
  mr->version = (uint32_t)sizeof *mr;
  mr->kind = JG_MEMORY_USER;
  mr->device = device;
  mr->host_accessible = host_accessible;
  mr->device_accessible = device_accessible;
  mr->stream_ordered = stream_ordered;
  mr->allocate = allocate;
  mr->deallocate = deallocate;
  mr->user_data = user_data;
  mr->private_data = NULL;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Pointer attributes                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* Plain (pageable, unregistered) host memory. */
static void plain_host(const void *ptr, jg_pointer_attributes *attrs) {
  memset(attrs, 0, sizeof *attrs);
  attrs->device.type = JG_DEVICE_CPU;
  attrs->device.id = 0;
  attrs->host_accessible = true;
  attrs->host_pointer = (void *)(uintptr_t)ptr;
}

/* What a resource says about memory it allocated (section 2.3: the resource is trusted). */
static void resource_attributes(const jg_memory_resource *mr, void *data,
                                jg_pointer_attributes *attrs) {
  memset(attrs, 0, sizeof *attrs);
  attrs->device = mr->device;
  attrs->host_accessible = mr->host_accessible;
  attrs->device_accessible = mr->device_accessible;
  attrs->is_managed = mr->kind == JG_MEMORY_MANAGED || mr->device.type == JG_DEVICE_CUDA_MANAGED;
  attrs->is_pinned = mr->kind == JG_MEMORY_PINNED || mr->device.type == JG_DEVICE_CUDA_HOST;
  attrs->is_pool = mr->kind == JG_MEMORY_DEVICE_POOL || mr->stream_ordered;
  attrs->host_pointer = mr->host_accessible ? data : NULL;
  attrs->device_pointer = mr->device_accessible ? data : NULL;
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/* The device alias of page-locked host memory for kernels on device `dev` (section 3.3):
 * cudaPointerGetAttributes reports devicePointer for the CURRENT device, so ask again with `dev`
 * current when another device is. NULL when the memory is not mapped for `dev`. */
static void *registered_alias(const void *ptr, const struct cudaPointerAttributes *a) {
  int cur = -1;
  if (cudaGetDevice(&cur) != cudaSuccess) {
    (void)cudaGetLastError();
    return a->devicePointer;
  }
  if (a->device < 0 || cur == a->device) return a->devicePointer;
  int prev = -1;
  if (jgi_cuda_device_push(a->device, &prev, NULL) != JG_OK) return a->devicePointer;
  struct cudaPointerAttributes b;
  memset(&b, 0, sizeof b);
  void *alias = a->devicePointer;
  if (cudaPointerGetAttributes(&b, ptr) == cudaSuccess) {
    alias = b.devicePointer;
  } else {
    (void)cudaGetLastError();
  }
  jgi_cuda_device_pop(prev, a->device);
  return alias;
}
#endif

jg_status jg_pointer_get_attributes(const void *ptr, size_t bytes, jg_pointer_attributes *attrs,
                                    jg_error *err) {
  JG_RETURN_IF(attrs == NULL, JG_EINVAL, err, "jg_pointer_get_attributes: attrs is NULL");
  JG_RETURN_IF(ptr == NULL && bytes > 0, JG_EINVAL, err,
               "jg_pointer_get_attributes: NULL pointer with %zu bytes", bytes);
  int n = 0;
  if (ptr == NULL || jg_device_count(&n, NULL) != JG_OK || n == 0) {
    plain_host(ptr, attrs); /* rule 1 (NULL with size 0) and the no-CUDA case */
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  struct cudaPointerAttributes a;
  memset(&a, 0, sizeof a);
  cudaError_t e = cudaPointerGetAttributes(&a, ptr);
  if (e == cudaErrorInvalidValue) { /* CUDA < 11 reported unregistered host memory this way */
    (void)cudaGetLastError();
    plain_host(ptr, attrs);
    return JG_OK;
  }
  JG_CUDA_RETURN_NOT_OK(e, "cudaPointerGetAttributes", err);

  jg_pointer_attributes r;
  memset(&r, 0, sizeof r);
  void *p = (void *)(uintptr_t)ptr;
  switch (a.type) {
    case cudaMemoryTypeUnregistered:
      plain_host(ptr, attrs);
      return JG_OK;
    case cudaMemoryTypeManaged: /* checked before the memory type proper (section 3.4) */
      r.device.type = JG_DEVICE_CUDA_MANAGED;
      r.device.id = a.device;
      r.host_accessible = true;
      r.device_accessible = true;
      r.is_managed = true;
      r.host_pointer = a.hostPointer != NULL ? a.hostPointer : p;
      r.device_pointer = a.devicePointer != NULL ? a.devicePointer : p;
      break;
    case cudaMemoryTypeHost: /* pinned or registered: both sides, device alias for kernels */
      r.device.type = JG_DEVICE_CUDA_HOST;
      r.device.id = a.device;
      r.host_accessible = true;
      r.is_pinned = true;
      r.host_pointer = a.hostPointer != NULL ? a.hostPointer : p;
      r.device_pointer = registered_alias(ptr, &a);
      r.device_accessible = r.device_pointer != NULL;
      break;
    case cudaMemoryTypeDevice:
      r.device.type = JG_DEVICE_CUDA;
      r.device.id = a.device;
      r.device_accessible = true;
      r.device_pointer = a.devicePointer != NULL ? a.devicePointer : p;
      break;
    default:
      return jg_error_set(err, JG_ECUDA, -1,
                          "cudaPointerGetAttributes: unknown memory type %d for %p",
                          (int)a.type, ptr);
  }
  r.is_pool = pointer_in_pool(ptr);
  *attrs = r;
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* Buffers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

enum { ATTRS_NONE = 0, ATTRS_WRITING = 1, ATTRS_READY = 2 };

struct jg_buffer {
  atomic_size_t refs;
  jg_buffer_mode mode;
  void *data;
  size_t bytes;
  jg_memory_resource *mr;     /* owned only */
  _Atomic(jg_stream) stream;  /* owned only: the deallocation stream */
  void *owner;                /* external only */
  jg_release_fn release;      /* external only; may be NULL */
  atomic_int attrs_state;     /* external and borrowed: ATTRS_* */
  jg_pointer_attributes attrs;
};

static jg_buffer *new_buffer(jg_buffer_mode mode, void *data, size_t bytes) {
  jg_buffer *b = calloc(1, sizeof *b);
  if (b == NULL) return NULL;
  atomic_init(&b->refs, 1);
  b->mode = mode;
  b->data = data;
  b->bytes = bytes;
  atomic_init(&b->stream, NULL);
  atomic_init(&b->attrs_state, ATTRS_NONE);
  return b;
}

jg_status jg_buffer_allocate(jg_memory_resource *mr, size_t bytes, jg_stream stream,
                             jg_buffer **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_buffer_allocate: out is NULL");
  *out = NULL;
  JG_RETURN_IF(mr == NULL, JG_EINVAL, err, "jg_buffer_allocate: mr is NULL");
  JG_RETURN_IF(mr->allocate == NULL || mr->deallocate == NULL, JG_EINVAL, err,
               "jg_buffer_allocate: resource without allocate/deallocate hooks");
  char what[96];
  describe_resource(mr, what, sizeof what);

  jg_buffer *b = new_buffer(JG_BUFFER_OWNED, NULL, bytes);
  JG_RETURN_IF(b == NULL, JG_ENOMEM, err, "cannot allocate %zu bytes for a buffer header",
               sizeof(jg_buffer));
  void *p = NULL;
  jg_error inner;
  jg_error_clear(&inner);
  jg_status st = mr->allocate(mr, bytes, MIN_ALIGNMENT, stream, &p, &inner);
  if (st != JG_OK) {
    free(b);
    if (!is_status(st)) {
      /* Not a jg_status: report it as ours to interpret, keeping the number and any message. */
      return jg_error_set(err, JG_EINTERNAL, -1,
                          "cannot allocate %zu bytes from %s: its allocate hook returned %d, which "
                          "is not a jg_status%s%s",
                          bytes, what, (int)st, inner.message[0] != '\0' ? ": " : "",
                          inner.message);
    }
    return jg_error_set(err, st, -1, "cannot allocate %zu bytes from %s: %s", bytes, what,
                        inner.message[0] != '\0' ? inner.message : jg_status_str(st));
  }
  if (p == NULL && bytes > 0) {
    free(b);
    st = (mr->device.type == JG_DEVICE_CPU || mr->device.type == JG_DEVICE_CUDA_HOST)
             ? JG_ENOMEM
             : JG_EDEVMEM;
    return jg_error_set(err, st, -1, "cannot allocate %zu bytes from %s: it returned NULL",
                        bytes, what);
  }
  if (((uintptr_t)p & (MIN_ALIGNMENT - 1)) != 0) {
    mr->deallocate(mr, p, bytes, stream);
    free(b);
    return jg_error_set(err, JG_EINVAL, -1,
                        "%s returned %p for %zu bytes, not aligned to %zu bytes", what, p, bytes,
                        MIN_ALIGNMENT);
  }
  b->data = p;
  b->mr = mr;
  atomic_store_explicit(&b->stream, stream, memory_order_relaxed);
  *out = b;
  return JG_OK;
}

static jg_status wrap(jg_buffer_mode mode, void *data, size_t bytes, void *owner,
                      jg_release_fn release, jg_buffer **out, jg_error *err) {
  const char *fn = mode == JG_BUFFER_EXTERNAL ? "jg_buffer_wrap_external"
                                              : "jg_buffer_wrap_borrowed";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(data == NULL && bytes > 0, JG_EINVAL, err, "%s: NULL data with %zu bytes", fn,
               bytes);
  /* [data, data + bytes) must be a span of the address space: data + bytes may be one past its
   * last byte (UINTPTR_MAX + 1 for a span that ends there) but must not wrap further. */
  JG_RETURN_IF(bytes > 0 && (uintptr_t)bytes - 1 > UINTPTR_MAX - (uintptr_t)data, JG_EINVAL, err,
               "%s: %zu bytes at %p wrap past the end of the address space", fn, bytes, data);
  jg_buffer *b = new_buffer(mode, data, bytes);
  JG_RETURN_IF(b == NULL, JG_ENOMEM, err, "%s: cannot allocate %zu bytes for a buffer header",
               fn, sizeof(jg_buffer));
  b->owner = owner;
  b->release = release;
  *out = b;
  return JG_OK;
}

jg_status jg_buffer_wrap_external(void *data, size_t bytes, void *owner, jg_release_fn release,
                                  jg_buffer **out, jg_error *err) {
  return wrap(JG_BUFFER_EXTERNAL, data, bytes, owner, release, out, err);
}

jg_status jg_buffer_wrap_borrowed(void *data, size_t bytes, jg_buffer **out, jg_error *err) {
  return wrap(JG_BUFFER_BORROWED, data, bytes, NULL, NULL, out, err);
}

jg_buffer *jg_buffer_retain(jg_buffer *buf) {
  if (buf != NULL) atomic_fetch_add_explicit(&buf->refs, 1, memory_order_relaxed);
  return buf;
}

void jg_buffer_release(jg_buffer *buf) {
  if (buf == NULL) return;
  /* acq_rel: every prior use of the buffer by other holders happens before the free */
  if (atomic_fetch_sub_explicit(&buf->refs, 1, memory_order_acq_rel) != 1) return;
  switch (buf->mode) {
    case JG_BUFFER_OWNED:
      buf->mr->deallocate(buf->mr, buf->data, buf->bytes,
                          atomic_load_explicit(&buf->stream, memory_order_relaxed));
      break;
    case JG_BUFFER_EXTERNAL:
      if (buf->release != NULL) buf->release(buf->owner, buf->data, buf->bytes);
      break;
    case JG_BUFFER_BORROWED:
      break;
  }
  free(buf);
}

void *jg_buffer_data(const jg_buffer *buf) { return buf != NULL ? buf->data : NULL; }

size_t jg_buffer_size(const jg_buffer *buf) { return buf != NULL ? buf->bytes : 0; }

jg_buffer_mode jg_buffer_get_mode(const jg_buffer *buf) {
  return buf != NULL ? buf->mode : (jg_buffer_mode)0;
}

jg_memory_resource *jg_buffer_resource(const jg_buffer *buf) {
  return buf != NULL && buf->mode == JG_BUFFER_OWNED ? buf->mr : NULL;
}

jg_status jg_buffer_attributes(jg_buffer *buf, jg_pointer_attributes *attrs, jg_error *err) {
  JG_RETURN_IF(buf == NULL, JG_EINVAL, err, "jg_buffer_attributes: buf is NULL");
  JG_RETURN_IF(attrs == NULL, JG_EINVAL, err, "jg_buffer_attributes: attrs is NULL");
  if (buf->mode == JG_BUFFER_OWNED) {
    resource_attributes(buf->mr, buf->data, attrs);
    return JG_OK;
  }
  if (atomic_load_explicit(&buf->attrs_state, memory_order_acquire) == ATTRS_READY) {
    *attrs = buf->attrs;
    return JG_OK;
  }
  /* Query without a lock; the first thread to finish publishes its answer, the others return
   * their own (equal unless the memory changed class meanwhile). */
  jg_pointer_attributes a;
  JG_RETURN_NOT_OK(jg_pointer_get_attributes(buf->data, buf->bytes, &a, err));
  int expected = ATTRS_NONE;
  if (atomic_compare_exchange_strong_explicit(&buf->attrs_state, &expected, ATTRS_WRITING,
                                              memory_order_acquire, memory_order_acquire)) {
    buf->attrs = a;
    atomic_store_explicit(&buf->attrs_state, ATTRS_READY, memory_order_release);
  }
  *attrs = a;
  return JG_OK;
}

jg_status jg_buffer_set_deallocation_stream(jg_buffer *buf, jg_stream stream, jg_error *err) {
  JG_RETURN_IF(buf == NULL, JG_EINVAL, err, "jg_buffer_set_deallocation_stream: buf is NULL");
  if (buf->mode == JG_BUFFER_OWNED) {
    atomic_store_explicit(&buf->stream, stream, memory_order_relaxed);
  }
  return JG_OK;
}
