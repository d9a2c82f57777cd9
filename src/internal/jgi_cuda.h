/* jgi_cuda.h: internal helpers around the CUDA runtime (C and CUDA sources alike).
 *
 * jagged links the CUDA runtime statically (cudart_static), which loads the driver at run time:
 * on a machine without a driver or GPU every call fails cleanly and jgi_cuda_require reports
 * JG_ENODEV with the reason. Builds without CUDA compile the same callers; only code inside
 * `#if JG_HAVE_CUDA` touches the runtime. */
#ifndef JAGGED_JGI_CUDA_H
#define JAGGED_JGI_CUDA_H

#include "internal/jgi_check.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** JG_OK when at least one CUDA device is usable; else JG_ENODEV with the message
 *  "CUDA unavailable: <jg_cuda_unavailable_reason()>" in `err` (built without CUDA, no driver,
 *  no device). The first call initialises CUDA (pthread_once); later calls are one load. */
JGI_HIDDEN jg_status jgi_cuda_require(jg_error *err);

/** JG_OK when CUDA device `id` exists: JG_ENODEV as jgi_cuda_require, JG_EINDEX (index = id) when
 *  `id` is not in [0, device count). */
JGI_HIDDEN jg_status jgi_cuda_check_device(int id, jg_error *err);

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

/** Turns a CUDA runtime error into a status and message "<op>: <cudaErrorName>: <description>"
 *  (index -1). cudaErrorMemoryAllocation gives JG_EDEVMEM; no device or driver
 *  (cudaErrorNoDevice, InsufficientDriver, StubLibrary, DevicesUnavailable, SystemDriverMismatch,
 *  InitializationError) gives JG_ENODEV; cudaErrorInvalidDevice gives JG_EINDEX; anything else
 *  JG_ECUDA. cudaSuccess gives JG_OK and leaves `err` alone. Clears the runtime's last error
 *  (cudaGetLastError), which only sticky errors survive. */
JGI_HIDDEN jg_status jgi_cuda_error(jg_error *err, cudaError_t e, const char *op);

/** Makes device `id` current for the calling thread after checking it (jgi_cuda_check_device)
 *  and writes the device that was current before to `*prev`; undo with jgi_cuda_device_pop. */
JGI_HIDDEN jg_status jgi_cuda_device_push(int id, int *prev, jg_error *err);

/** Restores `prev` as the current device after jgi_cuda_device_push(id, &prev); never fails (an
 *  error from cudaSetDevice is cleared and ignored). */
JGI_HIDDEN void jgi_cuda_device_pop(int prev, int id);

/** Device scratch memory of `bytes` on the current device `device`, ordered on `stream`: from
 *  the library's pool of that device (jg_memory_resource_device_pool, whose freed memory stays
 *  cached, so that small per-call allocations such as kernels' error words cost no page
 *  mapping), or cudaMallocAsync from the device's default pool where pools are unsupported.
 *  Free it with jgi_scratch_free on a stream ordered after its last use. Errors: JG_EDEVMEM,
 *  JG_ECUDA. */
JGI_HIDDEN jg_status jgi_scratch_alloc(int device, size_t bytes, cudaStream_t stream, void **p,
                                       jg_error *err);

/** Gives back memory from jgi_scratch_alloc (NULL: nothing), ordered on `stream`. */
JGI_HIDDEN void jgi_scratch_free(void *p, cudaStream_t stream);

/** Returns the mapped status when the CUDA call `expr` fails. */
#define JG_CUDA_RETURN_NOT_OK(expr, op, err)                                                   \
  do {                                                                                         \
    cudaError_t jgi_ce_ = (expr);                                                              \
    if (JGI_UNLIKELY(jgi_ce_ != cudaSuccess)) return jgi_cuda_error((err), jgi_ce_, (op));     \
  } while (0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_JGI_CUDA_H */
