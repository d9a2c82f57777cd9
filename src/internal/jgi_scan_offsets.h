/* jgi_scan_offsets.h: per-list counts to offsets from 0 on an operation's backend (internal;
 * defined in src/ops/combinatorics.c, used there and by the middle-axis reductions of
 * src/ops/reduce.c). */
#ifndef JAGGED_JGI_SCAN_OFFSETS_H
#define JAGGED_JGI_SCAN_OFFSETS_H

#include "internal/jgi_ops.h"

/** Offsets from 0 (n + 1 int64, a new temporary of `c`) of the n int64 counts of the dense 1-D
 *  view `counts` (on c's backend), and their sum, read back to the host into *total: a loop on
 *  the host; on the GPU the exclusive scan of src/kernels/scan (CUB) on c's stream, then one
 *  read-back of the total and the scan's status (recorded as a transfer). Counts are trusted to
 *  be >= 0. Errors: JG_EOVERFLOW when a running sum exceeds INT64_MAX (index: the list),
 *  JG_ENOMEM / JG_EDEVMEM / JG_ECUDA. */
JGI_HIDDEN jg_status jgi_op_counts_to_offsets(jgi_op_ctx *c, const jg_view *counts,
                                              jg_view *offsets, int64_t *total, jg_error *err);

#endif /* JAGGED_JGI_SCAN_OFFSETS_H */
