/* device_view_kernels.h: launchers of the test kernels in device_view_kernels.cu (compiled into
 * test_device_view_gpu when CUDA is on). Every pointer is device memory of the current device
 * (or managed / pinned memory it can reach); each launcher enqueues on `stream` and returns the
 * cudaError_t of the launch as an int (0 = success). */
#ifndef JAGGED_TESTS_GPU_DEVICE_VIEW_KERNELS_H
#define JAGGED_TESTS_GPU_DEVICE_VIEW_KERNELS_H

#include "jagged/device_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One thread walks entries [first, last) of the root (jgt_walk_into) into out (capacity cap);
 *  result[0] = the number of values (-1: too deep), result[1] = their sum as bits of a double. */
int jgt_launch_walk(jg_dview v, int64_t first, int64_t last, double *out, int64_t cap,
                    int64_t *result, void *stream);

/** Thread i in [0, n) walks entry i alone: counts[i] = its number of values, sums[i] = their
 *  sum (of values that are not None). */
int jgt_launch_walk_each(jg_dview v, int64_t n, int64_t *counts, double *sums, void *stream);

/** Events of muons (list-offset of records, n events): out[i] = the scalar sum of field
 *  `pt_field` (float32 arithmetic, in order) over event i's muons. */
int jgt_launch_sum_pt(jg_dview v, int64_t n, int32_t pt_field, float *out, void *stream);

/** counts[i] = i % mod for i in [0, n) (so every mod-th list is empty). */
int jgt_launch_count_mod(int64_t *counts, int64_t n, int64_t mod, void *stream);

/** `items` threads each atomicAdd 1 to counts[(t * 7) % n]. */
int jgt_launch_count_atomic(int64_t *counts, int64_t n, int64_t items, void *stream);

/** content[offsets[i] + k] = i * 1000 + k for k in [0, offsets[i+1] - offsets[i]). */
int jgt_launch_fill(const int64_t *offsets, int64_t n, int64_t *content, void *stream);

/** p[i] = value (one thread). */
int jgt_launch_store(int64_t *p, int64_t i, int64_t value, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_TESTS_GPU_DEVICE_VIEW_KERNELS_H */
