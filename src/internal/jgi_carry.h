/* jgi_carry.h: carrying an index down a layout tree, and the list-level steps the indexing
 * operations are built from (internal; src/ops/carry.c). Everything runs on the backend of the
 * operation context (host loops or CUDA kernels of the catalog) and allocates from it.
 *
 * The carry: jgi_carry(c, a, carry) is the array whose entry i is a[carry[i]] (Awkward's
 * "carry"): a numeric node gathers its rows (the `take` kernel), a list node gets new int64
 * offsets from the carried lists' counts (starting at 0) and carries its content by the
 * positions of those lists (list_range, a scan, range_carry), a regular node carries its content
 * by carry[i] * size + k, a record carries every field, a byte-masked node its mask and content,
 * an indexed-option node only its index (a new index over the same content), a bit-masked node
 * its bits read as such an index (option_index) over its content. So the result is
 * compact everywhere except below indexed-option nodes, and shares no buffer the caller could
 * later write.
 *
 * Shapes: "an int64 argument of n entries" is a dense kernel argument (jg_kernel_arg) on c's
 * backend, e.g. jgi_op_out_arg of a view from jgi_op_alloc. */
#ifndef JAGGED_JGI_CARRY_H
#define JAGGED_JGI_CARRY_H

#include "internal/jgi_ops.h"

/** The lists an array level selects, one entry per selected list: its first content position,
 *  its number of elements, and whether it is a list at all (false: None, start and count 0).
 *  Dense int64, int64 and bool views of n entries from jgi_op_alloc. */
typedef struct jgi_ranges {
  jg_len n;
  jg_view start;
  jg_view count;
  jg_view valid;
  bool has_option; /**< the level had an option node above its list (valid may hold false) */
} jgi_ranges;

/** a[carry[i]] for each of the n entries of `carry` (int64, each in [0, len(a)); checked: an
 *  entry outside gives JG_EINDEX from the kernel that meets it). Supported nodes: numeric (any
 *  dtype, 1-D or N-D), empty (n must be 0), list-offset, list, regular, record, byte-masked,
 *  indexed-option, bit-masked (carried as an indexed-option node over its content). *out is a
 *  new reference on c's backend. */
JGI_HIDDEN jg_status jgi_carry(jgi_op_ctx *c, const jg_array *a, jg_kernel_arg carry,
                               jg_array **out, jg_error *err);

/** The lists selected from one level of a tree: `node` is a list-offset, list or regular node,
 *  or an option node (any representation) directly above one (then None entries come out with
 *  valid false). Entry i selects position carry[i] of `node` (carry: int64 of n entries, a
 *  negative value selecting None), or position i when `carry` is NULL (n <= len(node)). `gate`
 *  (bool of n entries, or NULL) turns entries with gate[i] false into None. *list gets the
 *  list node (borrowed). Errors: JG_ESHAPE (`node` has no list
 *  level: the message names its kind), JG_EINDEX / JG_EVALUE from the list_range kernel. */
JGI_HIDDEN jg_status jgi_level_ranges(jgi_op_ctx *c, const jg_array *node,
                                      const jg_kernel_arg *carry, jg_len n,
                                      const jg_kernel_arg *gate, jgi_ranges *r,
                                      const jg_array **list, jg_error *err);

/** Whether jgi_level_ranges can read `node` as a list level (a list-offset, list or regular
 *  node, possibly below one byte-masked, bit-masked or indexed-option node). */
JGI_HIDDEN bool jgi_is_list_level(const jg_array *node);

/** Expands ranges into positions: *offsets (int64, r->n + 1 from 0) from the counts and
 *  *positions (int64, *total entries): list i contributes start[i] + j * step for j < count[i].
 *  `start` may be NULL (r->start is used). */
JGI_HIDDEN jg_status jgi_ranges_expand(jgi_op_ctx *c, const jgi_ranges *r, const jg_view *start,
                                       int64_t step, jg_view *offsets, jg_view *positions,
                                       jg_len *total, jg_error *err);

/** A new int64 view of n entries on c's backend holding `values` (host memory; copied). */
JGI_HIDDEN jg_status jgi_small_i64(jgi_op_ctx *c, const int64_t *values, jg_len n, jg_view *out,
                                   jg_error *err);

/** Element i of the integer kernel argument `a` (int8..int64, bool), read on the host: on the
 *  GPU after waiting for c's stream (one small copy). For error messages and sizes. */
JGI_HIDDEN jg_status jgi_read_at(jgi_op_ctx *c, jg_kernel_arg a, jg_len i, int64_t *value,
                                 jg_error *err);

/** A list-offset node over int64 `offsets` (a view from jgi_op_alloc) and `content` (retained),
 *  wrapped in a byte-masked node over `valid` (bool, valid when true) when valid is not NULL. */
JGI_HIDDEN jg_status jgi_make_list(const jg_view *offsets, jg_array *content,
                                   const jg_view *valid, jg_array **out, jg_error *err);

#endif /* JAGGED_JGI_CARRY_H */
