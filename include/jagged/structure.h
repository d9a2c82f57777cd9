/* structure.h: structure operations on jagged arrays (issue 5, "Structure"): flatten, unflatten,
 * singletons, pad_none, fill_none, is_none, drop_none, concatenate, argsort and sort.
 *
 * Semantics follow Awkward Array 2.x (ak.flatten, ak.unflatten, ak.singletons, ak.pad_none,
 * ak.fill_none, ak.is_none, ak.drop_none, ak.concatenate, ak.argsort, ak.sort) where this header
 * does not say otherwise. Every operation runs on the backend where its arrays live (cpu or
 * cuda:N) through kernels of the catalog (kernel.h: option_index, list_carry, list_gather_index,
 * list_concat_index, list_merge_pass, fill_none, cast, and the existing take, local_index, fill),
 * with identical results on both; arrays on different backends fail with JG_EBACKEND naming the
 * fixing call.
 *
 * Common rules of every function below:
 * - Inputs may have offsets not starting at 0, content past the last offset, list nodes with
 *   starts/stops in any order, slices (jg_array_slice), and any kind of option node (byte mask,
 *   bit mask in either bit order and at any bit offset, index).
 * - Results are new arrays (`*out` a new reference the caller releases; NULL on error). They
 *   share the inputs' buffers where nothing changes (immutable), and are otherwise made of new
 *   buffers on the inputs' backend (jg_memory_resource_host_pool(), or the device's pool
 *   jg_memory_resource_device_pool(N)).
 *   Offsets of new list nodes are int64 and start at 0; gathered lists become list nodes (int64
 *   starts/stops) over the shared content, so nested content is not copied.
 * - `stream`: the CUDA stream for device arrays (NULL: the legacy default stream). Each call
 *   synchronises it before returning (some read a total back to size a result), so results are
 *   ready on return. Thread-safe.
 * - Statuses common to all: JG_EINVAL (NULL argument or out), JG_EBACKEND (arrays on different
 *   backends: "... is on cuda:0, ... on cpu: copy it with jg_array_to_device"), JG_EVALUE (a list
 *   whose starts/stops leave its content, or offsets that decrease; err->index = the list; an
 *   empty list may start anywhere), JG_EINDEX (an indexed option's index past its content;
 *   err->index = its position), JG_ENOTSUP (a layout this
 *   version does not handle, named in the message: regular nodes or N-D numbers where a gather is
 *   needed, unions), JG_ENODEV / JG_EINDEX / JG_ECUDA / JG_EDEVMEM (device failures), JG_ENOMEM,
 *   JG_EOVERFLOW (sizes). Messages start with the function's name. */
#ifndef JAGGED_STRUCTURE_H
#define JAGGED_STRUCTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "jagged/array.h"
#include "jagged/export.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Awkward's axis=None (every level) for jg_array_flatten and jg_array_fill_none. */
#define JG_AXIS_ALL INT64_MIN

/** A scalar fill value: its dtype (bool, an integer type, float32 or float64) and the value in
 *  the member of that kind (b for bool, i for signed integers, u for unsigned ones, f for
 *  floats). Make one with jg_fill_value_i64 / _u64 / _f64 / _bool. */
typedef struct jg_fill_value {
  jg_dtype dtype;
  union {
    bool b;
    int64_t i;
    uint64_t u;
    double f;
  } v;
} jg_fill_value;

/** An int64 fill value. */
static inline jg_fill_value jg_fill_value_i64(int64_t x) {
  jg_fill_value s;
  s.dtype = JG_DTYPE_INT64;
  s.v.i = x;
  return s;
}
/** A uint64 fill value. */
static inline jg_fill_value jg_fill_value_u64(uint64_t x) {
  jg_fill_value s;
  s.dtype = JG_DTYPE_UINT64;
  s.v.u = x;
  return s;
}
/** A float64 fill value. */
static inline jg_fill_value jg_fill_value_f64(double x) {
  jg_fill_value s;
  s.dtype = JG_DTYPE_FLOAT64;
  s.v.f = x;
  return s;
}
/** A bool fill value. */
static inline jg_fill_value jg_fill_value_bool(bool x) {
  jg_fill_value s;
  s.dtype = JG_DTYPE_BOOL;
  s.v.b = x;
  return s;
}

/** Removes one level of lists, or all of them (ak.flatten).
 *  axis 1: `a` is n lists (list-offset, list or regular, possibly under an option: None lists
 *  are dropped, as empty lists are) of a content C; the result is the entries of the lists in
 *  order, of C's type: [[1, None], None, [2]] gives [1, None, 2]. A list-offset node at the top
 *  gives a zero-copy slice of C (offsets[0] .. offsets[n]; two offsets are read, copied back from
 *  a device); other layouts gather. Records whose fields are all lists are flattened field by
 *  field. axis JG_AXIS_ALL (or 0, taken as Awkward's axis=None): every list level is removed
 *  and every None, at any level, dropped: [[1, None], None, [2]] gives [1, 2]; an array without
 *  lists just loses its None entries. An all-empty input gives an empty array of C's type
 *  (Awkward gives an EmptyArray; jagged keeps the type).
 *  Errors: as the common rules; JG_ESHAPE when axis 1 meets no list at the top ("flatten at axis
 *  1 needs lists; the array has type ..."); JG_ENOTSUP for other axes, records under axis=None,
 *  field lists of different lengths (names the field). */
JG_API jg_status jg_array_flatten(const jg_array *a, int64_t axis, jg_stream stream,
                                  jg_array **out, jg_error *err);

/** Splits `a` into lists of the given lengths (ak.unflatten).
 *  axis 0: `counts` is a 1-D integer array (int32 or int64, a numeric node on a's backend) of k
 *  lengths, each >= 0, that add up to len(a): the result is k lists over `a` (zero-copy content,
 *  new int64 offsets); zero counts give empty lists; counts of unknown type (an empty node, as
 *  the builder makes []) are no counts (then `a` must be empty). axis 1: `a` has lists at the top (n of
 *  them) and `counts` is n lists of integers (a jagged array, e.g. [[0, 2, 1]]) whose list i
 *  adds up to the length of a's list i: the result's list i holds those sub-lists:
 *  unflatten([[1, 2, 3]], [[0, 2, 1]], axis 1) gives [[[], [1, 2], [3]]].
 *  Errors: as the common rules; JG_ESHAPE when the counts do not add up ("the counts add up to 5
 *  but the array has 6 entries", both numbers; at axis 1 per list, err->index = the first list
 *  that differs), or a count is larger than the length (index = that count); JG_EVALUE for a
 *  negative count (index = it); JG_EDTYPE for counts not int32/int64; JG_ENOTSUP for axis other
 *  than 0 and 1, option counts (None lists). */
JG_API jg_status jg_array_unflatten(const jg_array *a, const jg_array *counts, int64_t axis,
                                    jg_stream stream, jg_array **out, jg_error *err);

/** Turns the first option level of `a` (following lists from the top) into lists of length 0
 *  or 1 (ak.singletons): [1, None, 3] gives [[1], [], [3]]; [[1, None], []] gives
 *  [[[1], []], []]. Zero-copy content (a list node over the option's content). An array without
 *  options makes every entry a singleton. Errors: as the common rules. */
JG_API jg_status jg_array_singletons(const jg_array *a, jg_stream stream, jg_array **out,
                                     jg_error *err);

/** Pads lists with None to at least `target` entries (ak.pad_none).
 *  axis 1: `a` has lists at the top (list-offset, list or regular); without clip, list i gets
 *  max(len_i, target) entries (type var * ?T: longer lists are kept whole), with clip exactly
 *  `target` (type target * ?T: longer lists are cut). axis 0: the top level is padded to
 *  max(len(a), target) entries (clip: exactly target). The entries are an indexed-option node
 *  over a's content (shared; an option content is looked through, so options do not nest).
 *  Errors: as the common rules; JG_EINVAL for target < 0; JG_ESHAPE for axis 1 without lists;
 *  JG_ENOTSUP for other axes. */
JG_API jg_status jg_array_pad_none(const jg_array *a, int64_t target, int64_t axis, bool clip,
                                   jg_stream stream, jg_array **out, jg_error *err);

/** Replaces None by `value` (ak.fill_none). axis -1: the innermost option level (the option
 *  right above the numbers); JG_AXIS_ALL: every option level over numbers (options over lists or
 *  records would need a union type: JG_ENOTSUP). The values' dtype is promoted with the value's
 *  as NumPy does (int64 content + 0.5 gives float64; int32 content + an int64 value gives int64;
 *  a bool value into integers keeps the integers' type; uint64 with a signed type gives
 *  float64); an option of None only over an empty node (?unknown, what jagged's builder
 *  makes for nulls alone) takes the value's dtype. The structure above is kept (lists share
 *  their offsets). An array without options is returned as is (a new reference).
 *  Errors: as the common rules; JG_EDTYPE for a value dtype that is not bool, an integer or a
 *  float; JG_ENOTSUP for other axes. */
JG_API jg_status jg_array_fill_none(const jg_array *a, jg_fill_value value, int64_t axis,
                                    jg_stream stream, jg_array **out, jg_error *err);

/** Whether each entry at depth `axis` is None (ak.is_none): axis 0 gives n bools for the top
 *  level (all false when it is no option); axis 1 goes into the lists at the top (lists keep
 *  their offsets, a None list above stays None). Errors: as the common rules; JG_ESHAPE when
 *  there are fewer than `axis` list levels; JG_ENOTSUP for axis < 0 or > 1. */
JG_API jg_status jg_array_is_none(const jg_array *a, int64_t axis, jg_stream stream,
                                  jg_array **out, jg_error *err);

/** Removes the None entries at depth `axis` (ak.drop_none): axis 0 drops None entries of the
 *  top level (result: the option's content, gathered); axis 1 drops None entries inside the
 *  lists at the top ([[1, None, 2], [], [None]] gives [[1, 2], [], []]; new int64 offsets). An
 *  array without options at that depth is returned as is. Errors: as is_none. */
JG_API jg_status jg_array_drop_none(const jg_array *a, int64_t axis, jg_stream stream,
                                    jg_array **out, jg_error *err);

/** Joins `narrays` >= 1 arrays (ak.concatenate).
 *  axis 1: list by list: list i of the result is list i of arrays[0], then of arrays[1], ...
 *  (muons with electrons). Every array has lists at the top (under an option: None lists count
 *  as empty) and the same length n, except that an array of length 1 is repeated for every list
 *  (Awkward's broadcast): concatenate([[1, 2, 3], [], [4, 5]], [[9]]) gives [[1, 2, 3, 9], [9],
 *  [4, 5, 9]]. axis 0: the arrays one after the other (length the sum). Contents are joined
 *  node by node: numbers of different dtypes promote (as jg_array_fill_none: int + float gives
 *  float64), records by field name (the same names, in any order; the result has the first
 *  array's order), lists recursively, options kept (an option in any array makes the joined
 *  level optional).
 *  Errors: as the common rules; JG_EINVAL for narrays < 1 or a NULL array; JG_EBACKEND (index =
 *  the array); JG_ESHAPE for different lengths at axis 1 (index = the array), records whose
 *  fields differ ("array 1 has no field 'pt'", index = array), contents of different kinds
 *  (lists with numbers); JG_ENOTSUP for axes other than 0 and 1, regular contents, N-D numbers. */
JG_API jg_status jg_array_concatenate(int narrays, const jg_array *const *arrays, int64_t axis,
                                      jg_stream stream, jg_array **out, jg_error *err);

/** Positions (int64, local to each list) that sort every innermost list of `a` (ak.argsort at
 *  axis -1): numbers ascending (descending when !ascending), NaN after every number, None after
 *  NaN; equal values keep their order (stable, in both directions), so [[3, 1, 3, 1]] gives
 *  [[1, 3, 0, 2]] ascending and [[0, 2, 1, 3]] descending. `a` has the innermost lists over
 *  numbers or optional numbers (in any option representation), or over an empty node or an
 *  option over one (lists of unknown type, or of None only, as the builder makes them: they
 *  sort to themselves), any outer structure (kept, sharing offsets). An array with no list
 *  level (numbers, optional numbers, or no entries at all: 0 * unknown) is sorted as one list,
 *  as Awkward sorts a 1-D array: [3, 1, 2] gives [1, 2, 0], [] gives [] (0 * int64). Each call is a
 *  segmented stable merge sort: ceil(log2(longest list)) passes of kernel list_merge_pass.
 *  `stable` must be true (every sort here is stable). Errors: as the common rules; JG_EINVAL for
 *  axis other than -1, or stable false; JG_ENOTSUP for records or lists
 *  inside the innermost lists; JG_EDTYPE for float16. */
JG_API jg_status jg_array_argsort(const jg_array *a, int64_t axis, bool ascending, bool stable,
                                  jg_stream stream, jg_array **out, jg_error *err);

/** The innermost lists of `a` sorted (ak.sort at axis -1), in the order of jg_array_argsort;
 *  the values are gathered into new buffers (an option content becomes an indexed option over
 *  the shared values). Errors: as jg_array_argsort. */
JG_API jg_status jg_array_sort(const jg_array *a, int64_t axis, bool ascending, bool stable,
                               jg_stream stream, jg_array **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_STRUCTURE_H */
