/* scan.h: per-list counts to list offsets (an exclusive prefix sum with checks), on the host and
 * on a CUDA device (internal; used by jg_array_from_counts and jg_array_from_host_counts).
 *
 * Given n counts c[0..n), the offsets are o[0] = 0 and o[i+1] = o[i] + c[i], n + 1 entries, with
 * these checks, in this order of priority when several fail:
 *   1. a negative count: JG_EVALUE, index = the first such i;
 *   2. a count larger than `total` (the content length the offsets must end at): JG_EVALUE,
 *      index = the first such i (the sum cannot then equal `total`);
 *   3. a running sum beyond INT64_MAX: JG_EOVERFLOW, index = the first list where it happens;
 *   4. o[n] != total: JG_EVALUE (index -1).
 * Both sides give the same status and index for the same counts. */
#ifndef JAGGED_KERNELS_SCAN_SCAN_H
#define JAGGED_KERNELS_SCAN_SCAN_H

#include "internal/jgi_check.h"
#include "jagged/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Host reference: reads the n = counts->layout.shape[0] counts of the 1-D int32|int64
 *  host-accessible view `counts` (any stride) and writes n + 1 offsets to `offsets` (host memory,
 *  n + 1 int64), checking as above against `total` (>= 0). `offsets` may be partly written on
 *  error. Errors: as above (the message starts with `fn`). */
JGI_HIDDEN jg_status jgi_counts_to_offsets_cpu(const jg_view *counts, jg_len total,
                                               int64_t *offsets, const char *fn, jg_error *err);

/** Device words the CUDA path reports through (set by the launcher; read back by the caller once
 *  the stream is synchronised): the first index of checks 1, 2 and 3 above, or UINT64_MAX. */
typedef struct jgi_scan_status {
  unsigned long long first_negative;
  unsigned long long first_too_large;
  unsigned long long first_overflow;
} jgi_scan_status;

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/** Device path, CUB's two-phase temporary-storage contract (docs/cub/device_wide.rst): with
 *  `temp` NULL it only writes to `*temp_bytes` the device bytes it needs for n counts (at least
 *  1) and launches nothing. Otherwise, on `stream` and the CURRENT device (all pointers are
 *  device memory of it): resets `*status` (device memory) to "no error", checks the counts
 *  (checks 1-2; check 3 with a second pass over the offsets only when n * total may exceed
 *  INT64_MAX), and writes the n + 1 offsets with cub::DeviceScan::ExclusiveSum over the n counts
 *  followed by one 0 (so o[n] is the sum). `counts` points at count 0 of dtype int32|int64 and
 *  count i is counts[i * stride] (stride in elements, any sign). Returns after the launches; the
 *  caller synchronises, reads *status and o[n] back, and compares o[n] with total (check 4).
 *  Errors: JG_EINVAL (NULL temp_bytes, *temp_bytes too small, dtype not int32|int64, n < 0),
 *  JG_ECUDA / JG_ENODEV (a launch or CUB call failed). */
JGI_HIDDEN jg_status jgi_counts_to_offsets_cuda(const void *counts, jg_stride stride,
                                                jg_dtype dtype, jg_len n, jg_len total,
                                                int64_t *offsets, jgi_scan_status *status,
                                                void *temp, size_t *temp_bytes, jg_stream stream,
                                                jg_error *err);
#endif

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_KERNELS_SCAN_SCAN_H */
