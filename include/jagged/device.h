/* device.h: CUDA devices and streams as seen by jagged.
 *
 * Every function here works on a machine with no GPU or no CUDA driver, and in a build without
 * CUDA: jg_device_count reports 0 devices and says why, and calls that need a device return
 * JG_ENODEV with the message "CUDA unavailable: <jg_cuda_unavailable_reason()>".
 * CUDA is initialised once per process (pthread_once), by the first call of any function here or
 * in memory.h that needs to know; the device count never changes afterwards. All functions are
 * thread-safe; the current device is per thread, as in CUDA. */
#ifndef JAGGED_DEVICE_H
#define JAGGED_DEVICE_H

#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Whether this build of jagged was compiled with CUDA support (nvcc found at configure time).
 *  A true answer does not mean a GPU is present: see jg_device_count. */
JG_API bool jg_cuda_compiled(void);

/** Number of usable CUDA devices (cudaGetDeviceCount), written to `*count` (>= 0).
 *  Returns JG_OK with *count = 0 when the build has no CUDA, when no driver is installed, when
 *  the driver is too old, or when the driver sees no device; jg_cuda_unavailable_reason() then
 *  says which. Errors: JG_EINVAL if `count` is NULL. Thread-safe; the first call initialises
 *  CUDA (once, whatever the number of racing threads). */
JG_API jg_status jg_device_count(int *count, jg_error *err);

/** Why CUDA is unusable in this process, or "" when at least one device is usable. One of
 *  "built without CUDA"; "no CUDA driver found, or the driver is older than the CUDA runtime
 *  (cudaErrorInsufficientDriver: <CUDA's description>)"; "no CUDA-capable device" (optionally
 *  followed by "(cudaErrorNoDevice: ...)"); "only a stub CUDA driver library was found (...)";
 *  "CUDA initialisation failed (<cudaError name>: <description>)". Static storage that never
 *  changes after the first call; never NULL. Initialises CUDA like jg_device_count. */
JG_API const char *jg_cuda_unavailable_reason(void);

/** Properties of one CUDA device. */
typedef struct jg_device_properties {
  uint32_t version;          /**< set by the library: sizeof(jg_device_properties) */
  int32_t id;                /**< CUDA ordinal */
  char name[256];            /**< e.g. "NVIDIA H200" */
  int32_t cc_major;          /**< compute capability, e.g. 9 */
  int32_t cc_minor;          /**< e.g. 0 */
  uint64_t total_memory;     /**< bytes of device memory */
  int32_t multiprocessors;   /**< SM count */
  int32_t warp_size;         /**< threads */
  int32_t max_threads_per_block;
  uint64_t shared_memory_per_block; /**< bytes, default (non opt-in) limit */
  int32_t memory_pools_supported;   /**< 1 if cudaMallocAsync pools work */
  int32_t managed_memory;           /**< 1 if managed memory is supported */
  int32_t can_use_host_pointer_for_registered_mem; /**< 0: kernels need the device alias */
  int32_t pci_bus_id;
  uint8_t reserved[64];
} jg_device_properties;

/** Fills `props` for CUDA device `id` (cudaGetDeviceProperties); reserved bytes are zeroed.
 *  Errors: JG_EINVAL if `props` is NULL; JG_ENODEV if CUDA is unavailable (message gives
 *  jg_cuda_unavailable_reason()); JG_EINDEX if `id` is not in [0, count) (index = id);
 *  JG_ECUDA if the query fails. */
JG_API jg_status jg_device_get_properties(int id, jg_device_properties *props, jg_error *err);

/** The calling thread's current CUDA device ordinal (cudaGetDevice), written to `*id`; `*id` is
 *  untouched on error. Errors: JG_EINVAL if `id` is NULL; JG_ENODEV without a usable device;
 *  JG_ECUDA. */
JG_API jg_status jg_device_get_current(int *id, jg_error *err);

/** Makes device `id` current for the calling thread (cudaSetDevice).
 *  Errors: JG_ENODEV without a usable device; JG_EINDEX if `id` is not in [0, count)
 *  (index = id; the current device is unchanged); JG_ECUDA. */
JG_API jg_status jg_device_set_current(int id, jg_error *err);

/** Creates a non-blocking CUDA stream (cudaStreamNonBlocking: no implicit synchronisation with
 *  the legacy default stream) on the calling thread's current device; `*stream` receives it, or
 *  NULL on error. Ownership: the caller destroys it with jg_stream_destroy.
 *  Errors: JG_EINVAL (NULL `stream`), JG_ENODEV, JG_ECUDA. */
JG_API jg_status jg_stream_create(jg_stream *stream, jg_error *err);

/** Destroys a stream made by jg_stream_create (cudaStreamDestroy: returns at once, resources go
 *  once its enqueued work is done). NULL is a no-op, and so is any stream when CUDA is
 *  unavailable. Never fails. */
JG_API void jg_stream_destroy(jg_stream stream);

/** Waits until all work enqueued on `stream` (NULL: the legacy default stream of the current
 *  device) has finished and reports the first asynchronous error (cudaStreamSynchronize).
 *  Without a usable device, NULL returns JG_OK at once (no device work can be pending) and any
 *  other stream gives JG_ENODEV. Errors: JG_ENODEV, JG_ECUDA (message names the CUDA error). */
JG_API jg_status jg_stream_synchronize(jg_stream stream, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_DEVICE_H */
