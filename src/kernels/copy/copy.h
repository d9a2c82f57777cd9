/* copy.h: internal interface between the copy planner (src/core/copy.c) and the strided copy
 * kernels (copy_cuda.cu).
 *
 * The planner reduces any pair of views to a co-iterated descriptor: one shape, and for each side
 * strides in elements of `itemsize` bytes and a pointer to element (0, ..., 0). The kernels copy
 * element (i0, ..., in-1) from src + sum(ik * src_strides[k]) to dst + sum(ik * dst_strides[k]).
 * The planner orders axes so that dst's strides shrink towards the last axis (the last axis is
 * the one to make coalesced on the destination side). */
#ifndef JAGGED_KERNELS_COPY_COPY_H
#define JAGGED_KERNELS_COPY_COPY_H

#include "internal/jgi_check.h"
#include "jagged/layout.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A co-iterated strided copy of `volume` elements (the product of `shape`). */
typedef struct jgi_copy_desc {
  int32_t ndim;                       /**< 1..JG_MAX_NDIM */
  int64_t itemsize;                   /**< 1, 2, 4, 8 or 16; both pointers aligned to it */
  jg_len shape[JG_MAX_NDIM];          /**< each >= 1 */
  jg_stride dst_strides[JG_MAX_NDIM]; /**< in elements of itemsize; dst must be unique */
  jg_stride src_strides[JG_MAX_NDIM]; /**< in elements of itemsize; 0 broadcasts */
} jgi_copy_desc;

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/** Enqueues the strided copy `desc` on `stream` (NULL: the legacy default stream) on the CURRENT
 *  device. `dst` and `src` are device-accessible addresses of element (0, ..., 0) on that device
 *  and must not overlap. Picks a 1-D kernel, a shared-memory tiled kernel when src's fastest axis
 *  differs from dst's (transposes), or the general n-d kernel. Returns after the launch; checks
 *  the launch with cudaGetLastError. The volume must be > 0.
 *  Errors: JG_EINVAL (bad itemsize or ndim), JG_ECUDA / JG_ENODEV (launch or query failed). */
JGI_HIDDEN jg_status jgi_copy_strided_cuda(void *dst, const void *src, const jgi_copy_desc *desc,
                                           jg_stream stream, jg_error *err);
#endif

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_KERNELS_COPY_COPY_H */
