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

/** JG_OK when at least one CUDA device is usable; else JG_ENODEV with the reason in `err`
 *  (built without CUDA, no driver, no device). Cheap after the first call. */
JGI_HIDDEN jg_status jgi_cuda_require(jg_error *err);

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

/** Turns a CUDA runtime error into a status and message "<op>: <cudaErrorName>: <description>".
 *  cudaErrorMemoryAllocation gives JG_EDEVMEM; no device or driver gives JG_ENODEV; an invalid
 *  device ordinal gives JG_EINDEX; anything else JG_ECUDA. cudaSuccess gives JG_OK. Clears the
 *  sticky last error of non-sticky failures (cudaGetLastError). */
JGI_HIDDEN jg_status jgi_cuda_error(jg_error *err, cudaError_t e, const char *op);

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
