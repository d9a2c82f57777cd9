/* jgk_parity.h: helpers shared by the kernels' parity cases (<name>_parity.c): index arrays of
 * either width and offsets drawn from the list-length regimes the cases cover. */
#ifndef JGK_PARITY_H
#define JGK_PARITY_H

#include <stdint.h>

#include "internal/jgi_check.h"
#include "jagged/kernel.h"

/** a[i] = v in an array of `dt` (int32 or int64; v must fit). */
JGI_HIDDEN void jgk_parity_put_index(void *a, jg_dtype dt, int64_t i, int64_t v);

/** a[i] of an array of `dt` (int32 or int64), widened. */
JGI_HIDDEN int64_t jgk_parity_get_index(const void *a, jg_dtype dt, int64_t i);

/** Fills n + 1 offsets of `dt` from `start` with random counts: 0 with probability p_empty,
 *  else uniform in [lo, hi] (lo <= hi), from the case's random stream. */
JGI_HIDDEN void jgk_parity_random_offsets(jg_parity_ctx *ctx, void *offsets, jg_dtype dt,
                                          int64_t n, int64_t start, double p_empty, int64_t lo,
                                          int64_t hi);

#endif /* JGK_PARITY_H */
