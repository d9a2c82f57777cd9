/* indexing.h: boolean masks, integer indexing, slices, firsts/lasts and local_index of jagged
 * arrays (issue 5, "Structure"), on the backend where the array lives (host loops or CUDA
 * kernels of the catalog: list_range, range_carry, list_slice, list_pick, mask_flags,
 * scatter_kept, list_take, take, local_index, and the counts-to-offsets scan), with the same
 * results on both.
 *
 * Semantics follow Awkward Array 2.x (array[mask], array[index], array[:, a:b:c], ak.firsts,
 * ak.local_index) except that a mask or a jagged index must match the array's list structure
 * EXACTLY: where Awkward silently accepts a short mask, jagged reports JG_ESHAPE naming the list
 * and both lengths ("mask list 3 has 2 entries, the array's list 3 has 3").
 *
 * Depth: an array's list levels are counted from the top: level 1 is the first list level (the
 * lists of events, axis 1 in Awkward), level 2 the lists inside those, ...; option nodes (None)
 * are looked through, and records pass a level on to every field. Results are new arrays on the
 * array's backend; their list levels are list-offset nodes with int64 offsets starting at 0
 * (compact), except that nodes above the level an operation works at are made again over their
 * own buffers (shared, never written) and that None values selected by an option mask or index
 * come out as an indexed-option node over the selected level's content.
 *
 * Every function: `a` and the other array arguments must be on the same backend and device
 * (else JG_EBACKEND, naming the fixing call); `out` receives a new reference (release it), NULL
 * on error; kernels and copies run on `stream` (NULL: the legacy default stream) and the call
 * synchronises it before returning, so the result is ready on return (on the GPU the size of a
 * filtered or gathered level is read back: one 32-byte copy per level). Thread-safe. Common
 * errors: JG_EINVAL (a NULL argument), JG_ENODEV / JG_ECUDA / JG_EDEVMEM (device arrays),
 * JG_ENOMEM, JG_ENOTSUP (regular dimensions of numeric data are gathered, but not sliced).
 * Options may be in any representation (byte-masked, bit-masked as Arrow import makes them,
 * indexed), at any level. Messages start with the function's name. */
#ifndef JAGGED_INDEXING_H
#define JAGGED_INDEXING_H

#include <stdbool.h>
#include <stdint.h>

#include "jagged/array.h"
#include "jagged/export.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Filters `a` by the boolean `mask` (Awkward's a[mask]). `mask` has a's list structure down to
 *  some depth d >= 0 and bool values there (numeric, 1-D, dtype bool):
 *    - d = 0, an event mask: len(mask) == len(a); the result keeps the entries i of `a` (whole
 *      subtrees) where mask[i] is true;
 *    - d >= 1, a jagged mask: at levels 1..d the mask's lists have exactly as many entries as
 *      a's; the result has a's structure with each level-d list holding only the entries where
 *      the mask is true (levels above keep all their lists).
 *  A mask value that is None (a byte-masked, bit-masked or indexed-option node above the
 *  mask's bools, as jagged's builder makes them) keeps its entry as None; lists of the mask
 *  that never got a value (an empty node, type var * unknown) select nothing, e.g. [[1, 2, 3], [],
 *  [4, 5]] masked by [[T, None, F], [], [None, T]] gives [[1, None], [], [None, 5]]. Where the list
 *  of `a` or of the mask is None (at any of levels 1..d), the result's list is None and the other
 *  one's list is not compared. The cases: [[[0, 1, 2]], [[], [3, 4]], [], [[5], [6, 7, 8,
 *  9]]] filtered by its own "is even" mask gives [[[0, 2]], [[], [4]], [], [[], [6, 8]]]; a mask
 *  stored as offsets [0, 3, 5] over [T, F, F, T, T, F, F] on [[0, 1, 2], [3, 4]] gives [[0], [3,
 *  4]]. Arrays: any tree below the masked level (numbers of any dtype and dimension, records,
 *  lists, byte-masked and indexed options); list levels above it may be list-offset, list (starts
 *  and stops in any order) or regular nodes with an option node (any representation) on top.
 *  Errors: JG_EDTYPE (the mask's values are not bool: "the mask's values are int32; a mask must be
 *  bool"); JG_ESHAPE: the event mask's length differs ("the mask has 2 entries, the array 3"), a
 *  mask list's length differs (err->index = the list, counted at its level: "mask list 3
 *  has 2 entries, the array's list 3 has 3" with "at depth 2" for inner levels), the mask is
 *  deeper than the array ("the mask has 3 list levels, the array only 2"), or the mask's values
 *  are not 1-D; JG_ENOTSUP (a record inside the mask); JG_EVALUE (a list of either array that leaves its content; err->index = the entry). */
JG_API jg_status jg_array_mask(const jg_array *a, const jg_array *mask, jg_stream stream,
                               jg_array **out, jg_error *err);

/** Integer indexing (Awkward's a[index]). `index` holds int32 or int64 values:
 *    - 1-D (a numeric array): an outer gather, result entry k = a[index[k]] (a whole subtree;
 *      negative values count from the end);
 *    - jagged, with a's list structure down to depth d >= 1: at levels 1..d-1 the index's lists
 *      have exactly as many entries as a's (else JG_ESHAPE as jg_array_mask); at level d, index
 *      list i holds positions local to a's list i (negative from its end), and the result's
 *      list i has one entry per index entry: [[1, 2, 3], [], [4, 5]] indexed by
 *      [[2, 0], [], [1]] gives [[3, 1], [], [5]]. The index's level d may be a regular node:
 *      argmax with keepdims (type n * 1 * ?int64) selects each list's extreme, and its None
 *      (an empty list) gives None: [[1, 2, 3], [], [4, 5]] indexed by [[2], [None], [1]] gives
 *      [[3], [None], [5]].
 *  None values of the index (a byte-masked, bit-masked or indexed-option node above its
 *  integers) give None; index lists of unknown type (an empty node) select nothing; None lists of
 *  either array give None lists.
 *  Errors: JG_EINDEX for a value outside [-len, len) of its list (err->index = the list: "index
 *  3 is out of range for list 0 of 3 entries"; 1-D: "index 5 is out of range for an array of
 *  3 entries", err->index = its position); JG_EDTYPE (values not int32/int64); JG_ESHAPE
 *  (structure, depth); JG_ENOTSUP and JG_EVALUE as jg_array_mask. */
JG_API jg_status jg_array_take(const jg_array *a, const jg_array *index, jg_stream stream,
                               jg_array **out, jg_error *err);

/** Flags of jg_array_slice_axis: which bounds are given (absent bounds take Python's defaults,
 *  which depend on the step's sign). */
typedef enum jg_slice_flags {
  JG_SLICE_START = 1, /**< `start` is given */
  JG_SLICE_STOP = 2   /**< `stop` is given */
} jg_slice_flags;

/** Slices every list at one level with Python's slice semantics (Awkward's a[:, start:stop:step]
 *  for axis 1, a[:, :, start:stop:step] for axis 2, ...): per list of length c, the selected
 *  positions are range(*slice(start, stop, step).indices(c)): negative bounds count from the
 *  end, bounds are clamped, a negative step walks backwards (its absent bounds are the last
 *  element and "before the first"). `axis`: 0 slices the top level (a[start:stop:step]), 1 the
 *  first list level, ...; negative counts from the innermost list level (-1). `flags`: an OR of
 *  jg_slice_flags. E.g. [[1, 2, 3], [], [4, 5]] with axis 1 and [:1] gives [[1], [], [4]]; with
 *  [::-1] [[3, 2, 1], [], [5, 4]]. None lists stay None; the sliced level becomes list-offset
 *  (var) even when it was regular. The regular dimensions of numeric data count as levels, as
 *  in the type: for "var * 3 * float32", axis 2 (or -1) slices the 3, zero-copy, and it stays
 *  regular ("var * 2 * float32" for [1:]). Errors: JG_EINVAL (step 0); JG_ESHAPE (axis beyond
 *  the depth: "axis 3 exceeds the depth of the nested list structure (which is 2)"); JG_EVALUE
 *  (lists outside their content). jg_array_firsts, jg_array_lasts and jg_array_local_index
 *  count depth the same way and give JG_ENOTSUP at a regular dimension of numeric data. */
JG_API jg_status jg_array_slice_axis(const jg_array *a, int64_t axis, int64_t start, int64_t stop,
                                     int64_t step, unsigned flags, jg_stream stream,
                                     jg_array **out, jg_error *err);

/** The first element of every list at level `axis` (>= 1, or negative from the innermost list
 *  level), or None for an empty or None list (Awkward's ak.firsts): [[1, 2, 3], [], [4, 5],
 *  None] gives [1, None, 4, None], of type 4 * ?int64. The level's lists are replaced by a
 *  byte-masked option over their first elements (an indexed-option node with every entry None
 *  when the level has no elements at all); a None list directly above merges into it (one option,
 *  not two). Errors: JG_EINVAL (axis 0), JG_ESHAPE (axis beyond the depth), JG_EVALUE. */
JG_API jg_status jg_array_firsts(const jg_array *a, int64_t axis, jg_stream stream,
                                 jg_array **out, jg_error *err);

/** As jg_array_firsts with the last element of every list (Awkward: a[:, -1:] then firsts). */
JG_API jg_status jg_array_lasts(const jg_array *a, int64_t axis, jg_stream stream,
                                jg_array **out, jg_error *err);

/** The position of every element inside its list at level `axis` (Awkward's ak.local_index):
 *  [[1, 2, 3], [], [4, 5], None] gives [[0, 1, 2], [], [0, 1], None] (int64). The level's
 *  lists become list-offset lists of int64 positions (what was below them is dropped); axis 0
 *  gives 0, 1, ..., len(a) - 1. Errors: JG_ESHAPE (axis beyond the depth), JG_EVALUE. */
JG_API jg_status jg_array_local_index(const jg_array *a, int64_t axis, jg_stream stream,
                                      jg_array **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_INDEXING_H */
