/* jgi_ops.h: what the array operations of src/ops/ share (internal): an operation context that
 * allocates new buffers on the backend of the array it works on and releases its temporaries at
 * the end, kernel arguments from views, starts/stops arguments from list nodes, remaking a node
 * over its own buffers with a new content, and the kinds of nodes in walks.
 *
 * Usage, in every operation:
 *
 *   jgi_op_ctx c;
 *   JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, "jg_array_flatten", a, stream, err));
 *   jg_status st = ...;                   // jgi_op_alloc, jgi_op_view_arg, jg_kernel_call(..,&c.launch,..)
 *   st = jgi_op_ctx_finish(&c, st, err); // waits for the stream, releases the temporaries
 *
 * Owned by src/ops/op_ctx.c. */
#ifndef JAGGED_JGI_OPS_H
#define JAGGED_JGI_OPS_H

#include <stdbool.h>

#include "internal/jgi_array.h"
#include "internal/jgi_check.h"
#include "jagged/kernel.h"
#include "jagged/memory.h"

/** The context of one operation on arrays of one backend. Zero it or jgi_op_ctx_init it. */
typedef struct jgi_op_ctx {
  const char *fn;          /**< the public function's name, the prefix of its messages */
  jg_device device;        /**< the normalised device of the arrays ({CPU,0} or {CUDA,N}) */
  jg_backend backend;      /**< JG_BACKEND_CPU or JG_BACKEND_CUDA */
  jg_memory_resource *mr;  /**< where new buffers come from: host, or the device's pool
                                (jg_memory_resource_device_pool) */
  jg_launch launch;        /**< stream of the kernels and copies (launch.stream) */
  jg_buffer **temps;       /**< buffers allocated here; released by jgi_op_ctx_finish (result
                                nodes hold their own references) */
  int ntemps;
  int captemps;
} jgi_op_ctx;

/** Starts an operation named `fn` (static string) on the backend of `a` (non-NULL), on `stream`
 *  (NULL: the legacy default stream). Errors: JG_ENODEV / JG_EINDEX / JG_ECUDA when the device
 *  resource cannot be had (prefixed with fn). */
JGI_HIDDEN jg_status jgi_op_ctx_init(jgi_op_ctx *c, const char *fn, const jg_array *a,
                                     jg_stream stream, jg_error *err);

/** Ends an operation whose work so far returned `st`: waits for the stream on the device (even
 *  after an error: copies and kernels may still use the temporaries), releases the temporaries,
 *  and returns `st`, or the synchronisation's error when `st` was JG_OK. Messages that do not
 *  start with c->fn get it as prefix. Safe on a zeroed context. */
JGI_HIDDEN jg_status jgi_op_ctx_finish(jgi_op_ctx *c, jg_status st, jg_error *err);

/** A new dense 1-D view of `n` (>= 0) elements of `dtype` from c->mr; the buffer is a temporary
 *  of `c` (a node made over the view retains it). Errors: JG_EOVERFLOW, JG_ENOMEM,
 *  JG_EDEVMEM. */
JGI_HIDDEN jg_status jgi_op_alloc(jgi_op_ctx *c, jg_len n, jg_dtype dtype, jg_view *out,
                                  jg_error *err);

/** A kernel argument of `count` elements of the 1-D view `v` from element `first` on: the
 *  view's own memory when those elements are dense (stride 1, or at most one element), else a
 *  dense copy made on c's backend and stream (jg_copy_async), ahead of the kernels. */
JGI_HIDDEN jg_status jgi_op_view_arg(jgi_op_ctx *c, const jg_view *v, jg_len first, jg_len count,
                                     jg_kernel_arg *arg, jg_error *err);

/** The kernel argument of a whole dense 1-D view (an output from jgi_op_alloc). */
JGI_HIDDEN jg_kernel_arg jgi_op_out_arg(const jg_view *v);

/** The lists of a list-offset or list node as `starts` and `stops` kernel arguments of
 *  list->length elements each: a list-offset node gives offsets[0..n) and offsets[1..n+1) (two
 *  pointers into its one buffer, no copy when it is dense), a list node its starts and stops. */
JGI_HIDDEN jg_status jgi_op_list_args(jgi_op_ctx *c, const jg_array *list, jg_kernel_arg *starts,
                                      jg_kernel_arg *stops, jg_error *err);

/** A copy of the single-content node `a` (list, regular or option) over the same buffers with
 *  the same length and flags, with `child` (retained) as its content. */
JGI_HIDDEN jg_status jgi_op_remake(const jg_array *a, jg_array *child, jg_array **out,
                                   jg_error *err);

/** Reads `count` (1..8) elements idx[0..count) of the int8..int64 / uint8..uint64 array at
 *  `data` (dense, on c's backend) widened to int64 into out[0..count): on the device with one
 *  cudaMemcpyAsync per element on c's stream and one wait for all (each counted as a transfer to
 *  the host, named `what`). Indexes are not checked. Errors: JG_EINVAL (count outside 1..8),
 *  JG_ECUDA. */
JGI_HIDDEN jg_status jgi_op_read_ints(jgi_op_ctx *c, const void *data, jg_dtype dtype,
                                      const jg_len *idx, int count, int64_t *out,
                                      const char *what, jg_error *err);

/** The unsigned integer dtype of `itemsize` bytes (1, 2, 4, 8; else JG_DTYPE_INVALID): kernels
 *  that only move values (gathers, masks) copy them as these raw bytes, whatever their type. */
JGI_HIDDEN jg_dtype jgi_op_raw_dtype(int64_t itemsize);

/** Offsets from 0 (n + 1 int64, a new temporary of `c`) of the first n int64 counts of the dense
 *  1-D view `counts` (on c's backend), and their sum in *total: a loop on the host; on the GPU
 *  the exclusive scan of src/kernels/scan (CUB) on c's stream, then the scan's status and the
 *  total read back after one wait (recorded as one transfer to the host). Errors: JG_EVALUE
 *  "count 3 is negative" (index: the list), JG_EOVERFLOW "the sum of counts[0..7] overflows
 *  int64" (index: the list where the running sum leaves int64), JG_ENOMEM / JG_EDEVMEM /
 *  JG_ECUDA. */
JGI_HIDDEN jg_status jgi_op_counts_to_offsets(jgi_op_ctx *c, const jg_view *counts, jg_len n,
                                              jg_view *offsets, int64_t *total, jg_error *err);

/** Checks the lists [lo, lo + n) of the list-offset node `list` (offsets of any stride, on c's
 *  backend) with Awkward's rule, the one jg_array_validate applies: no list decreases, and a
 *  non-empty list stays inside the content (an empty list may start anywhere). Sets
 *  [*first, *last) to the content range the lists cover: offsets[lo] and offsets[lo + n], or
 *  [0, 0) when every list is empty, wherever they start; `dense` (may be NULL) gets the n + 1
 *  offsets as a dense kernel argument. On the device one kernel (offsets_to_counts, its error
 *  word) and one read of the two ends, each with its wait. Errors: JG_EVALUE "offsets decrease
 *  at list 7" (index = the first such list), "lists 0..5 cover [-1, 4), outside the content of
 *  3 entries" (index = the range's first list when it starts below 0, else its last);
 *  JG_ENOMEM / JG_EDEVMEM / JG_ECUDA. */
JGI_HIDDEN jg_status jgi_op_offsets_range(jgi_op_ctx *c, const jg_array *list, jg_len lo,
                                          jg_len n, int64_t *first, int64_t *last,
                                          jg_kernel_arg *dense, jg_error *err);

/** The option index of the n = opt->length entries of `opt` (byte-masked, bit-masked or
 *  indexed-option; any other node counts every entry valid at position i): *idx gets int64
 *  (entry valid ? its position in opt's content + shift : -1) and *flags (NULL: not kept) bool
 *  (negate ? valid : None), both new temporaries of `c` (kernel option_index). Errors:
 *  JG_EINDEX (an indexed option's index at or past its content; index: the first such entry),
 *  JG_ENOMEM / JG_EDEVMEM / JG_EOVERFLOW, the kernel's. */
JGI_HIDDEN jg_status jgi_op_option_index(jgi_op_ctx *c, const jg_array *opt, int64_t shift,
                                         bool negate, jg_view *idx, jg_view *flags,
                                         jg_error *err);

/** A new empty node (length 0, type "unknown") on c's backend and device, so that it can be the
 *  content of nodes over c's buffers. Errors: JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_op_empty(const jgi_op_ctx *c, jg_array **out, jg_error *err);

/** Waits until the work queued on c->launch.stream is done (no-op on the host). */
JGI_HIDDEN jg_status jgi_op_sync(const jgi_op_ctx *c, jg_error *err);

static inline bool jgi_node_is_list(jg_node_kind k) {
  return k == JG_NODE_LIST_OFFSET || k == JG_NODE_LIST;
}

static inline bool jgi_node_is_option(jg_node_kind k) {
  return k == JG_NODE_BYTE_MASKED || k == JG_NODE_BIT_MASKED || k == JG_NODE_INDEXED_OPTION;
}

/** Nodes with exactly one content (lists, regular, options), which walks down a tree follow. */
static inline bool jgi_node_has_one_content(jg_node_kind k) {
  return jgi_node_is_list(k) || jgi_node_is_option(k) || k == JG_NODE_REGULAR;
}

#endif /* JAGGED_JGI_OPS_H */
