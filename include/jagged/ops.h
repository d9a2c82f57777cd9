/* ops.h: operations on jagged arrays that a columnar analysis is written in (issue 5, in
 * progress): per-list reductions, num, and 1-D histograms. Each runs on the backend where its
 * array lives (cpu or cuda), through kernels of the catalog (kernel.h), with the same results on
 * both; arrays on different backends fail with JG_EBACKEND naming the fixing call.
 *
 * Semantics follow Awkward Array 2.x (ak.sum, ak.min, ak.argmax, ak.num, ...) where this header
 * does not say otherwise. Reductions run along any axis (jg_reduce_options.axis). */
#ifndef JAGGED_OPS_H
#define JAGGED_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "jagged/array.h"
#include "jagged/export.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A reducer. Numbers pinned. */
typedef enum jg_reducer {
  JG_REDUCE_SUM = 1,           /**< identity 0; bool/int8..int64 sum to int64, uint8..uint64 to
                                    uint64 (wrapping, as NumPy), float32 stays float32 */
  JG_REDUCE_PROD = 2,          /**< identity 1; result dtypes as SUM */
  JG_REDUCE_MIN = 3,           /**< same dtype; empty: None, or +inf / the type's maximum; a NaN in
                                    the list gives NaN (NumPy) */
  JG_REDUCE_MAX = 4,           /**< same dtype; empty: None, or -inf / the type's minimum */
  JG_REDUCE_ARGMIN = 5,        /**< int64 position local to the list of the first minimum (the
                                    first NaN if any); empty: None, or -1 */
  JG_REDUCE_ARGMAX = 6,        /**< as ARGMIN for the maximum */
  JG_REDUCE_COUNT = 7,         /**< int64 number of elements (None values not counted) */
  JG_REDUCE_COUNT_NONZERO = 8, /**< int64 number of elements != 0 (NaN counts) */
  JG_REDUCE_ANY = 9,           /**< bool; empty: false */
  JG_REDUCE_ALL = 10,          /**< bool; empty: true */
  JG_REDUCE_MEAN = 11          /**< float64 sum / count (float32 sums in double); empty: NaN */
} jg_reducer;

/** Name of a reducer ("sum", "argmax", ...); "unknown" otherwise. Static storage. */
JG_API const char *jg_reducer_name(jg_reducer r);

/** Options of jg_array_reduce; zero-initialise (all defaults), then set what differs. */
typedef struct jg_reduce_options {
  bool has_axis;      /**< false (the zeroed default): reduce the innermost lists (axis -1),
                           whatever `axis` holds; true: reduce along `axis` */
  int64_t axis;       /**< with has_axis, the axis to reduce, as Awkward's: 0 the outer
                           dimension (across the array's entries, left-aligned), 1 the first list
                           level, ..., depth - 1 the innermost lists; negative values count from
                           the innermost (-1, the innermost lists; -depth, the outer dimension).
                           The depth is 1 plus the number of list and regular levels */
  bool keepdims;      /**< wrap each result in a length-1 regular list (type n * 1 * T), the form
                           to index with (argmax with keepdims as a jagged index) */
  int mask_identity;  /**< 0: the reducer's default (true for min, max, argmin, argmax; false
                           for the others); 1: empty lists give None; -1: they give the identity */
  jg_stream stream;   /**< CUDA stream for device arrays (NULL: the legacy default stream) */
} jg_reduce_options;

/** Reduces `a` with `r` along opt->axis (Awkward's ak.sum, ak.min, ak.argmax, ... with axis=).
 *
 *  None values inside the reduced lists (an option node, byte-masked, bit-masked or
 *  indexed-option, between the innermost list and the numbers) are skipped at every axis, as in
 *  Awkward: the lists reduce as the lists of their valid values, and argmin/argmax positions
 *  count the Nones (the argmin of [None, 3, 1] is 2); a list of Nones only reduces as an empty
 *  list. They are dropped by catalog kernels (option_index, mask_flags, take, scatter_kept)
 *  and one scan per option level, whose total is read back (one wait on the GPU).
 *
 *  The innermost axis (axis -1 or depth - 1, and NULL options): every innermost list of `a`
 *  (type n * var * T, any number of outer list, regular or option levels above it) is replaced
 *  by one value: the result has the outer structure of `a`, type n * R, or n * ?R when empty
 *  lists give None (a byte-masked option), or n * 1 * R / n * 1 * ?R with keepdims (a regular
 *  node of size 1 in place of the innermost list). Lists may have offsets not starting at 0,
 *  content past the last offset, or starts/stops in any order (list nodes). The nodes above the
 *  innermost list are made again over the same buffers (shared, not copied), so a None list
 *  above it stays None; the reduced values and the mask are new buffers on the array's backend
 *  (host memory from jg_memory_resource_host_pool(), or the device's pool
 *  jg_memory_resource_device_pool(N) for cuda:N).
 *  Lists of an empty node (type var * unknown) reduce as float64 lists with no values. The mask
 *  of argmin and argmax is the sign byte of their output (no extra buffer); under
 *  mask_identity 1 the other reducers take it from list_minmax's `valid` (one more pass over the
 *  content).
 *
 *  The outer axis (0) and middle axes (1 .. depth - 2), left-aligned as in Awkward: for every
 *  entry of the list level at the axis (for axis 0: for the whole array), the items of its list
 *  are merged position by position at every level below; a merged list is as long as the
 *  longest of the lists it merges, and each leaf value reduces the values at its position in
 *  every item, in the items' order. E.g. on x = [[[1, 2], [3]], [], [[4], [], [5, 6, 7]]], sum
 *  at axis 1 gives [[4, 2], [], [9, 6, 7]] and at axis 0 [[5, 2], [3], [5, 6, 7]]. The result
 *  has one level less than `a`: the levels above the axis are made again over their buffers
 *  (None lists above the axis stay None), the levels below get new compact offsets. argmin and
 *  argmax give the position along the reduced axis (the item's index in its list, or the entry's
 *  index for axis 0). None lists at or below the axis (an option above a list level, as in
 *  ?var * T at axis 0) contribute nothing, but are counted by argmin and argmax positions
 *  ([[5, 2], None, [1]] gives [2, 0] at axis 0); a merged list that only None lists reach is
 *  empty. No value is None unless all of a merged position's values are None values or in None
 *  lists; with mask_identity (the default of min, max, argmin, argmax)
 *  the values get an option type, as in Awkward. keepdims wraps each merged result in a length-1
 *  regular list (type n * 1 * var * ...; for axis 0 the whole result: 1 * len * ...). Results are
 *  computed by catalog kernels on the array's backend (reduce_axis_start, reduce_axis_lengths,
 *  reduce_axis_children, take, the per-list reducers, reduce_axis_argpos); each level's merged
 *  sizes are scanned and read back to the host (a transfer per level). Floating-point sums,
 *  products and means reduce the values of a merged position in item order on the host and with the
 *  per-list kernels' order on the GPU, so they may differ in the last bits, as at axis -1. Work per
 *  merged position is proportional to the number of items merged: at axis 0 the whole array (fine
 *  for a few merged positions, slow for arrays whose lists are all long).
 *
 *  `opt` may be NULL (all defaults, axis -1). `a` and the result live on the same backend;
 *  `*out` is a new reference (release it); on error it is NULL.
 *  Errors, in this order: JG_EINVAL for NULL `a` or `out`, an unknown reducer or a
 *  mask_identity outside {-1, 0, 1}; JG_ESHAPE for an axis beyond the depth ("axis=3 exceeds the
 *  depth of the nested list structure (which is 3)"). At the innermost axis: JG_ENOTSUP for a
 *  regular innermost axis (a regular node below the innermost list, or numeric data of ndim > 1:
 *  the message says so) and for records; JG_ESHAPE for an array without list levels
 *  ("reducing along axis -1 needs a list; the array has type ..."). At other axes: JG_ENOTSUP for
 *  a regular level at or below the reduced axis, records, or numeric data of ndim > 1. Both:
 *  JG_EDTYPE for float16 content (bfloat16 and complex arrays cannot be made); JG_EVALUE for lists whose starts/stops leave the content (the kernel's
 *  BAD_RANGE: the first bad list in err->index); JG_ENODEV / JG_EINDEX / JG_ECUDA / JG_EDEVMEM for
 *  device arrays; JG_EOVERFLOW / JG_ENOMEM. Kernels and copies run on `opt->stream`; the call
 *  synchronises it before returning, so the result is ready on return. Thread-safe. */
JG_API jg_status jg_array_reduce(const jg_array *a, jg_reducer r, const jg_reduce_options *opt,
                                 jg_array **out, jg_error *err);

/** Number of elements of every innermost list of `a` (Awkward's num at axis -1): as
 *  jg_array_reduce with JG_REDUCE_COUNT and no options (opt NULL), e.g. [[1, 2], [], [3]] gives
 *  [2, 0, 1] (int64), except that the content is never read, so that lists of anything without
 *  an axis of its own are counted: records whose fields have no lists (the jets of events),
 *  optional values (None entries count, as in ak.num), numbers of any dtype (float16 too).
 *  A None list gives None. Errors as jg_array_reduce (but none for records, options or dtypes
 *  below the innermost lists), with "jg_array_num" in the messages. */
JG_API jg_status jg_array_num(const jg_array *a, jg_array **out, jg_error *err);

/** A fixed-width 1-D histogram: `n_bins` bins of width w = (hi - lo) / n_bins over [lo, hi),
 *  plus an underflow and an overflow bin. A value v < lo goes to underflow; v >= hi to overflow;
 *  otherwise to bin k = floor((v - lo) / w) (computed in double precision exactly as written, so
 *  that host and GPU put every value in the same bin; k is clamped to n_bins - 1 against
 *  rounding). NaN values are counted apart (`nan`) and in no bin. */
typedef struct jg_hist1d {
  int64_t n_bins;
  double lo;
  double hi;
  double *counts;   /**< host memory, n_bins + 2 entries: [0] underflow, [1..n_bins] the bins,
                         [n_bins + 1] overflow; summed weights (1 per entry without weights) */
  double *sumw2;    /**< host memory, n_bins + 2 entries or NULL: summed squared weights */
  int64_t entries;  /**< values counted (all bins, not NaN) */
  int64_t nan;      /**< NaN values skipped */
} jg_hist1d;

/** Fills `h` (adding to what counts/sumw2 hold: zero them for a fresh histogram) with every
 *  value of `values`: a 1-D numeric array (bool, integers or floats, converted to double), or
 *  list-offset lists of them at any depth (flattened: the values the lists reach, so offsets not
 *  at 0 and content past the last offset are honoured), weighted by the matching value of
 *  `weights` (NULL: weight 1; else float32 or float64 numbers with the structure of `values`:
 *  the same number of list levels and entries at each, on the same backend). Offsets may have any
 *  stride; every list reached is checked (Awkward's rule, as jg_array_validate: lists that are
 *  all empty carry no values wherever they start). On the GPU each
 *  block counts into a private copy of the histogram in shared memory (up to about 3000 bins;
 *  more go straight to global memory), merged with atomic adds; unweighted counts are exact
 *  integers, so host and GPU agree bit for bit; weighted sums may differ in the last bits (the
 *  order of additions differs). `stream` orders the device work (NULL: the legacy stream).
 *  Errors: JG_EINVAL for NULL h/values/h->counts, n_bins < 1 or > 2^40, lo >= hi, a
 *  non-finite edge or a bin width (hi - lo) / n_bins that overflows or underflows to 0;
 *  JG_ESHAPE when weights' levels or entry counts differ from values' (names the level);
 *  JG_EBACKEND for weights on another backend; JG_EDTYPE for non-numeric values or
 *  weights other than float32/float64; JG_ENOTSUP for list nodes with starts/stops, options,
 *  records, regular lists or N-D numbers in this version; JG_EVALUE for offsets that decrease or leave
 *  their content (index = the list); JG_ENODEV / JG_ECUDA / JG_EDEVMEM for device arrays; JG_ENOMEM. Synchronous. */
JG_API jg_status jg_histogram_fill(jg_hist1d *h, const jg_array *values, const jg_array *weights,
                                   jg_stream stream, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_OPS_H */
