/* validate.h: internal interface between jg_array_validate (validate.c: the tree walk, the
 * MINIMAL and DEFAULT checks, dispatch and messages) and the FULL-level scans over index buffers
 * (validate_cpu.c on the host, validate_cuda.cu on the GPU).
 *
 * A scan checks one node's index buffers against the length of its content and condenses the
 * outcome into one 64-bit key: UINT64_MAX when every entry is fine, else
 *   key = entry * JGI_VALIDATE_NCODES + code
 * for the first failing entry (and, within it, the first failing check in code order). Keys
 * order failures the way a sequential host loop meets them, so the smallest key wins: the host
 * scan stops at its first failure, the CUDA kernel atomicMin's every failure into one device
 * word. Both backends therefore report the same entry and code for the same buffers. */
#ifndef JAGGED_KERNELS_VALIDATE_VALIDATE_H
#define JAGGED_KERNELS_VALIDATE_VALIDATE_H

#include "internal/jgi_check.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a scan checks (Awkward's ListOffsetArray / ListArray / IndexedOptionArray rules,
 *  scikit-hep/awkward src/awkward/contents/). For entry i, with start/stop the list bounds:
 *    OFFSETS:      start = a[i], stop = a[i + 1] (a has n + 1 entries)
 *    STARTS_STOPS: start = a[i], stop = b[i]
 *    INDEX:        a[i] (negative = None) */
typedef enum jgi_validate_check {
  JGI_VALIDATE_OFFSETS = 1,
  JGI_VALIDATE_STARTS_STOPS = 2,
  JGI_VALIDATE_INDEX = 3
} jgi_validate_check;

/** Failure codes, in the order each entry is checked. A list with start == stop is empty and may
 *  have any start (codes 1 and 2 apply only to non-empty lists). */
typedef enum jgi_validate_code {
  JGI_VALIDATE_DECREASING = 0,  /**< stop < start (offsets: not monotonic) */
  JGI_VALIDATE_START_BELOW = 1, /**< start < 0 in a non-empty list */
  JGI_VALIDATE_STOP_PAST = 2,   /**< stop > len(content) in a non-empty list */
  JGI_VALIDATE_INDEX_PAST = 3   /**< index >= len(content) */
} jgi_validate_code;

/** Codes per entry in a key. */
#define JGI_VALIDATE_NCODES 4
/** The key of a scan that found nothing. */
#define JGI_VALIDATE_OK_KEY UINT64_MAX

/** One scan. Pointers address element 0 of each 1-D buffer (base + itemsize * slice_offset), on
 *  the host for validate_cpu.c, on the current CUDA device for validate_cuda.cu; element i is at
 *  a + itemsize * i * stride_a. Both buffers have the same itemsize. */
typedef struct jgi_validate_task {
  jgi_validate_check check;
  int32_t itemsize;      /**< 4 (int32) or 8 (int64) */
  const void *a;         /**< offsets (n + 1 entries), starts or index (n entries) */
  const void *b;         /**< stops (n entries) for STARTS_STOPS, else NULL */
  jg_stride stride_a;    /**< in elements */
  jg_stride stride_b;    /**< in elements */
  jg_len n;              /**< entries (lists or index entries) to check, >= 0 */
  jg_len content_length; /**< len(content), >= 0 */
} jgi_validate_task;

/** Runs `task` on the host (its pointers host-accessible) and returns its key (see above). */
JGI_HIDDEN uint64_t jgi_validate_scan_cpu(const jgi_validate_task *task);

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/** Runs `ntasks` (>= 1) scans on the CURRENT CUDA device on `stream` (NULL: the legacy default
 *  stream), each with its pointers device-accessible there, and writes their keys to the host
 *  array `keys` (ntasks entries). One device word per task (stream-ordered allocation where the
 *  device supports it, else cudaMalloc), set to JGI_VALIDATE_OK_KEY; one kernel per task with
 *  n > 0, each atomicMin'ing the keys of its failing entries into its word; the words are copied
 *  back and the stream synchronised before returning. Copies back 8 bytes per task, never a
 *  buffer. Errors: JG_EINVAL (bad task), JG_EDEVMEM, JG_ECUDA / JG_ENODEV (launch, copy or
 *  synchronisation failed; then `keys` is undefined). */
JGI_HIDDEN jg_status jgi_validate_scan_cuda(const jgi_validate_task *tasks, int ntasks,
                                            jg_stream stream, uint64_t *keys, jg_error *err);
#endif

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_KERNELS_VALIDATE_VALIDATE_H */
