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
  jg_array *shape;                         /**< reserved (NULL): the broadcast structure (offsets
                                                and masks of every depth) lives in priv */
  void *priv;                              /**< private state of broadcast.c */
} jgi_broadcast;

/** Aligns the numeric leaves of `n` (1 <= n <= JGI_BROADCAST_MAX) arrays, all on c's backend
 *  (checked: JG_EBACKEND names the fixing call, err->index = the input), made of list-offset,
 *  list, regular and option nodes (byte-masked, bit-masked, indexed-option, at any depth) over
 *  numeric 1-D leaves of the 11 kernel dtypes (bool, int8..uint64, float32, float64) or empty
 *  nodes (read as float64 of length 0). Inputs are named "x" (n = 1), "x", "y" (n = 2), "x",
 *  "y", "z" (n = 3), "argument k" otherwise in messages; jgi_broadcast_init_named names them.
 *
 *  Rules: a numeric array of length 1 is a scalar (is_scalar); when every other input is purely
 *  regular (regular nodes over a 1-D leaf), the shallower ones first get length-1 regular
 *  dimensions on the left (NumPy's right alignment); other arrays have one outer
 *  length, or length 1 (repeated along it, NumPy's rule); lists of equal counts go elementwise;
 *  an input with no list left at a depth where others have lists is repeated across each list
 *  (flat per-list arrays, shallower jagged arrays into deeper ones, on the right); a regular node
 *  of size 1 stretches to any count; a position is None in the result where any input is None
 *  (and its leaves hold 0 there, so elementwise kernels see a harmless value). All outputs are
 *  compact: list-offset nodes whose offsets start at 0 (shared with an input when one already
 *  does), byte-masked options (valid_when true) where inputs had options. Regular inputs give
 *  list-offset lists.
 *
 *  Errors (messages prefixed by c->fn): JG_ESHAPE "cannot broadcast: list 17 has 3 elements in x
 *  and 2 in y" for unequal counts (err->index = the list at the outermost mismatching depth,
 *  counted among the broadcast lists of that depth; " at depth d" is added below depth 1), or
 *  outer lengths that differ ("cannot broadcast: x has length 5, y has length 4"); JG_ENOTSUP
 *  for records ("cannot broadcast records in <fn>: apply it to one field at a time") and numeric
 *  leaves of ndim > 1; JG_EDTYPE for float16, bfloat16 and complex leaves; JG_EVALUE for lists
 *  or option indexes outside their content; JG_EINVAL for n out of range or NULL arrays;
 *  JG_EOVERFLOW; JG_ENOMEM / JG_EDEVMEM / JG_ECUDA. Work is queued on c->launch.stream; a few
 *  single values are read back (first offsets, totals, the counts a message quotes), which
 *  synchronises the stream on a device. On error *b is zeroed (nothing to reset). */
JGI_HIDDEN jg_status jgi_broadcast_init(jgi_op_ctx *c, int n, const jg_array *const *arrays,
                                        jgi_broadcast *b, jg_error *err);

/** jgi_broadcast_init with the inputs' names in messages: `names` (NULL, or n entries, each
 *  NULL for the default name) are static strings such as "condition". */
JGI_HIDDEN jg_status jgi_broadcast_init_named(jgi_op_ctx *c, int n,
                                              const jg_array *const *arrays,
                                              const char *const *names, jgi_broadcast *b,
                                              jg_error *err);

/** Wraps `values` (a 1-D view of b->length elements with a buffer, e.g. a kernel's output from
 *  jgi_op_alloc) into the broadcast structure: lists as the deepest input has them, None where
 *  any input is None. `*out` is a new reference that shares `values`' buffer and the structure's
 *  offsets and masks. May be called more than once (one result per call). Errors: JG_EINVAL
 *  (NULL argument, a failed b), JG_ESHAPE (values of another length), constructor errors. */
JGI_HIDDEN jg_status jgi_broadcast_wrap(const jgi_broadcast *b, const jg_view *values,
                                        jg_array **out, jg_error *err);

/** Releases what b holds (safe on a zeroed or failed b). */
JGI_HIDDEN void jgi_broadcast_reset(jgi_broadcast *b);

#endif /* JAGGED_JGI_BROADCAST_H */
