/* device.c: CUDA devices and streams, and the internal CUDA helpers of jgi_cuda.h.
 *
 * CUDA is initialised once per process (pthread_once): the device count and, when it is 0, the
 * reason are computed by the first call that needs them and never change afterwards. Builds
 * without CUDA (JG_HAVE_CUDA undefined) compile the same functions and report "built without
 * CUDA". */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "jagged/device.h"

/* ------------------------------------------------------------------------------------------ */
/* One-time initialisation                                                                     */
/* ------------------------------------------------------------------------------------------ */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int device_count_value;   /* written once inside init_cuda, read-only afterwards */
static char unavailable[256];    /* "" when at least one device is usable */

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
static void init_cuda(void) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    const char *what = "CUDA initialisation failed";
    if (e == cudaErrorInsufficientDriver) {
      what = "no CUDA driver found, or the driver is older than the CUDA runtime";
    } else if (e == cudaErrorNoDevice) {
      what = "no CUDA-capable device";
    } else if (e == cudaErrorStubLibrary) {
      what = "only a stub CUDA driver library was found";
    }
    snprintf(unavailable, sizeof unavailable, "%s (%s: %s)", what, cudaGetErrorName(e),
             cudaGetErrorString(e));
    (void)cudaGetLastError();
    device_count_value = 0;
    return;
  }
  if (n <= 0) {
    snprintf(unavailable, sizeof unavailable, "%s", "no CUDA-capable device");
    device_count_value = 0;
    return;
  }
  unavailable[0] = '\0';
  device_count_value = n;
}
#else
static void init_cuda(void) {
  snprintf(unavailable, sizeof unavailable, "%s", "built without CUDA");
  device_count_value = 0;
}
#endif

/* Runs init_cuda exactly once; pthread_once only fails on invalid arguments. */
static int usable_device_count(void) {
  (void)pthread_once(&init_once, init_cuda);
  return device_count_value;
}

/* ------------------------------------------------------------------------------------------ */
/* Internal helpers (jgi_cuda.h)                                                               */
/* ------------------------------------------------------------------------------------------ */

jg_status jgi_cuda_require(jg_error *err) {
  if (JGI_LIKELY(usable_device_count() > 0)) return JG_OK;
  return jg_error_set(err, JG_ENODEV, -1, "CUDA unavailable: %s", unavailable);
}

jg_status jgi_cuda_check_device(int id, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_cuda_require(err));
  int n = usable_device_count();
  JG_RETURN_IF_AT(id < 0 || id >= n, JG_EINDEX, err, id,
                  "CUDA device %d does not exist (%d device%s)", id, n, n == 1 ? "" : "s");
  return JG_OK;
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
jg_status jgi_cuda_error(jg_error *err, cudaError_t e, const char *op) {
  if (e == cudaSuccess) return JG_OK;
  jg_status st;
  switch (e) {
    case cudaErrorMemoryAllocation:
      st = JG_EDEVMEM;
      break;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
    case cudaErrorDevicesUnavailable:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorInitializationError:
      st = JG_ENODEV;
      break;
    case cudaErrorInvalidDevice:
      st = JG_EINDEX;
      break;
    default:
      st = JG_ECUDA;
      break;
  }
  /* Clears the error if it is not sticky; a sticky error stays and is reported again. */
  (void)cudaGetLastError();
  return jg_error_set(err, st, -1, "%s: %s: %s", op != NULL ? op : "CUDA call",
                      cudaGetErrorName(e), cudaGetErrorString(e));
}

jg_status jgi_cuda_device_push(int id, int *prev, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_cuda_check_device(id, err));
  int cur = -1;
  JG_CUDA_RETURN_NOT_OK(cudaGetDevice(&cur), "cudaGetDevice", err);
  *prev = cur;
  if (cur != id) JG_CUDA_RETURN_NOT_OK(cudaSetDevice(id), "cudaSetDevice", err);
  return JG_OK;
}

void jgi_cuda_device_pop(int prev, int id) {
  if (prev >= 0 && prev != id) {
    if (cudaSetDevice(prev) != cudaSuccess) (void)cudaGetLastError();
  }
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* Public API                                                                                  */
/* ------------------------------------------------------------------------------------------ */

bool jg_cuda_compiled(void) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

jg_status jg_device_count(int *count, jg_error *err) {
  JG_RETURN_IF(count == NULL, JG_EINVAL, err, "jg_device_count: count is NULL");
  *count = usable_device_count();
  return JG_OK;
}

const char *jg_cuda_unavailable_reason(void) {
  (void)usable_device_count();
  return unavailable;
}

jg_status jg_device_get_properties(int id, jg_device_properties *props, jg_error *err) {
  JG_RETURN_IF(props == NULL, JG_EINVAL, err, "jg_device_get_properties: props is NULL");
  JG_RETURN_NOT_OK(jgi_cuda_check_device(id, err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  struct cudaDeviceProp p;
  memset(&p, 0, sizeof p);
  JG_CUDA_RETURN_NOT_OK(cudaGetDeviceProperties(&p, id), "cudaGetDeviceProperties", err);
  memset(props, 0, sizeof *props);
  props->version = (uint32_t)sizeof *props;
  props->id = id;
  memcpy(props->name, p.name, sizeof props->name < sizeof p.name ? sizeof props->name
                                                                   : sizeof p.name);
  props->name[sizeof props->name - 1] = '\0';
  props->cc_major = p.major;
  props->cc_minor = p.minor;
  props->total_memory = (uint64_t)p.totalGlobalMem;
  props->multiprocessors = p.multiProcessorCount;
  props->warp_size = p.warpSize;
  props->max_threads_per_block = p.maxThreadsPerBlock;
  props->shared_memory_per_block = (uint64_t)p.sharedMemPerBlock;
  props->memory_pools_supported = p.memoryPoolsSupported != 0;
  props->managed_memory = p.managedMemory != 0;
  props->can_use_host_pointer_for_registered_mem = p.canUseHostPointerForRegisteredMem != 0;
  props->pci_bus_id = p.pciBusID;
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

jg_status jg_device_get_current(int *id, jg_error *err) {
  JG_RETURN_IF(id == NULL, JG_EINVAL, err, "jg_device_get_current: id is NULL");
  JG_RETURN_NOT_OK(jgi_cuda_require(err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int cur = -1;
  JG_CUDA_RETURN_NOT_OK(cudaGetDevice(&cur), "cudaGetDevice", err);
  *id = cur;
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

jg_status jg_device_set_current(int id, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_cuda_check_device(id, err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  JG_CUDA_RETURN_NOT_OK(cudaSetDevice(id), "cudaSetDevice", err);
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

jg_status jg_stream_create(jg_stream *stream, jg_error *err) {
  JG_RETURN_IF(stream == NULL, JG_EINVAL, err, "jg_stream_create: stream is NULL");
  *stream = NULL;
  JG_RETURN_NOT_OK(jgi_cuda_require(err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  cudaStream_t s = NULL;
  JG_CUDA_RETURN_NOT_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                        "cudaStreamCreateWithFlags", err);
  *stream = (jg_stream)s;
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}

void jg_stream_destroy(jg_stream stream) {
  if (stream == NULL) return;
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  if (usable_device_count() == 0) return;
  if (cudaStreamDestroy((cudaStream_t)stream) != cudaSuccess) (void)cudaGetLastError();
#endif
}

jg_status jg_stream_synchronize(jg_stream stream, jg_error *err) {
  if (stream == NULL && usable_device_count() == 0) return JG_OK; /* nothing can be pending */
  JG_RETURN_NOT_OK(jgi_cuda_require(err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  cudaStream_t s = stream != NULL ? (cudaStream_t)stream : cudaStreamLegacy;
  JG_CUDA_RETURN_NOT_OK(cudaStreamSynchronize(s), "cudaStreamSynchronize", err);
  return JG_OK;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "unreachable without CUDA");
#endif
}
