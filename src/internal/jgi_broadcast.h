/* jgi_broadcast.h: broadcasting arrays against each other through jagged structure (internal),
 * Awkward's rules (../shared/notes/awkward.md 6.2): scalars everywhere; a flat array of one value
 * per list repeated across its list; jagged arrays of the same counts elementwise; a shallower
 * array's values repeated inside the deeper one's innermost lists (on the right); None lists and
 * None values propagate (the result is None where any input is). Used by the ufuncs
 * (src/ops/ufunc.c), user-defined elementwise functions (src/ops/elementwise.c) and the physics
 * helpers: each aligns its inputs' numeric leaves here, runs one elementwise kernel over them,
 * and wraps the kernel's output back into the broadcast structure.
 *
 * Usage:
 *   jgi_broadcast b;
 *   st = jgi_broadcast_init(&c, 2, (const jg_array *[]){x, y}, &b, err);   // aligned leaves
 *   // b.leaves[k]: dense kernel argument of b.length elements (dtype of input k's leaf), or
 *   // a length-1 argument when input k is a scalar-like array (b.is_scalar[k])
 *   st = jgi_op_alloc(&c, b.length, out_dtype, &ov, err); ... kernel over the leaves ...
 *   st = jgi_broadcast_wrap(&b, &ov, &result, err);   // result has the broadcast structure
 *   jgi_broadcast_reset(&b);
 *
 * Owned by src/ops/broadcast.c. */
#ifndef JAGGED_JGI_BROADCAST_H
#define JAGGED_JGI_BROADCAST_H

#include "internal/jgi_ops.h"

/** Most arrays broadcast together in one call. */
#define JGI_BROADCAST_MAX 8

typedef struct jgi_broadcast {
  int n;                                   /**< inputs */
  jg_len length;                           /**< elements of every aligned leaf */
  jg_kernel_arg leaves[JGI_BROADCAST_MAX]; /**< input k's numeric values, aligned: element e of
                                                every leaf belongs to the same output position;
                                                dense, on the context's backend */
  bool is_scalar[JGI_BROADCAST_MAX];       /**< input k is one value for all (a length-1 array
                                                without lists): leaves[k] has 1 element */
  jg_array *shape;                         /**< private: the broadcast structure (the nodes
                                                above the leaf, with their masks) */
  void *priv;                              /**< private state of broadcast.c */
} jgi_broadcast;

/** Aligns the numeric leaves of `n` (1 <= n <= JGI_BROADCAST_MAX) arrays, all on c's backend
 *  (checked: JG_EBACKEND names the fixing call), made of list-offset, list, regular and option
 *  nodes over numeric 1-D leaves (or empty nodes). Errors (messages prefixed by c->fn):
 *  JG_ESHAPE "cannot broadcast: list 17 has 3 elements in x and 2 in y" for unequal counts (list
 *  index of the outermost mismatch, and both lengths), or outer lengths that differ ("x has
 *  length 5, y has length 4"); JG_ENOTSUP for records ("cannot broadcast records in <fn>: apply
 *  it to one field at a time") and numeric leaves of ndim > 1; JG_EVALUE for offsets outside
 *  their content; JG_ENOMEM / JG_EDEVMEM / JG_ECUDA. Work is queued on c->launch.stream. */
JGI_HIDDEN jg_status jgi_broadcast_init(jgi_op_ctx *c, int n, const jg_array *const *arrays,
                                        jgi_broadcast *b, jg_error *err);

/** Wraps `values` (a dense 1-D view of b->length elements, e.g. a kernel's output) into the
 *  broadcast structure: lists as the deepest input has them, None where any input is None.
 *  `*out` is a new reference that shares `values`' buffer. */
JGI_HIDDEN jg_status jgi_broadcast_wrap(const jgi_broadcast *b, const jg_view *values,
                                        jg_array **out, jg_error *err);

/** Releases what b holds (safe on a zeroed or failed b). */
JGI_HIDDEN void jgi_broadcast_reset(jgi_broadcast *b);

#endif /* JAGGED_JGI_BROADCAST_H */
