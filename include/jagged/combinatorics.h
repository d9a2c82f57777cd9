/* combinatorics.h: combinations and cartesian products of the items of jagged lists (issue 5),
 * following Awkward Array 2.x (ak.combinations, ak.argcombinations, ak.cartesian,
 * ak.argcartesian at axis=1). Each runs on the backend where its arrays live (cpu or cuda),
 * through the catalog kernels combinations_counts, combinations_fill, cartesian_counts and
 * cartesian_fill (kernel.h), with the same results on both.
 *
 * Input: arrays whose top node is a list-offset, list or regular node (n lists at axis 1;
 * offsets need not start at 0, content may extend past the last list, list nodes may hold lists
 * in any order), possibly under an option node of any representation (None lists: the result's
 * list is None). The items (the lists' content) may be numbers of any dtype but float16, records
 * (or tuples) of such numbers, such as muons with pt, eta, phi and mass, optional items in any
 * representation (tuples whose items may be None, as Awkward) and nested lists.
 *
 * Output: n list-offset lists, offsets compact from 0 (int64), of records (when `fields` names
 * them) or tuples (fields "0", "1", ...) whose k-th field holds the k-th selected item: the
 * gathered items themselves (combinations, cartesian: new buffers, copies of the items' values)
 * or their int64 positions local to their lists (argcombinations, argcartesian). */
#ifndef JAGGED_COMBINATORICS_H
#define JAGGED_COMBINATORICS_H

#include <stdbool.h>
#include <stdint.h>

#include "jagged/array.h"
#include "jagged/export.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The combinations of `n` items of every list of `a` (ak.combinations at axis=1): for a list
 *  of L items, the C(L, n) tuples (x[i1], ..., x[in]) with i1 < i2 < ... < in in lexicographic
 *  order, or with `replacement` the C(L + n - 1, n) tuples with i1 <= i2 <= ... <= in. A list
 *  with fewer than n items gives an empty list (no tuples); an empty array gives an empty typed
 *  result (0 * var * (T, T)). Result type: len(a) * var * (T, ..., T) (n fields), or
 *  len(a) * var * {f0: T, ...} when `fields` names them.
 *  - a: lists at the top (list-offset, list or regular node, or an option above one: None
 *    lists give None) of numbers, records, optional items or lists; any backend.
 *  - n: 1..4.
 *  - fields: NULL (a tuple: fields "0", "1", ...) or n distinct non-empty names (copied).
 *  - stream: CUDA stream of the kernels and copies for device arrays (NULL: the legacy default
 *    stream); the call synchronises it before returning, so the result is ready on return.
 *  - out: a new reference on a's backend (release it); NULL on error.
 *  Errors, in this order: JG_EINVAL for NULL `a` or `out`, n outside [1, 4] ("n = 5 is outside
 *  [1, 4]"), a NULL, empty or repeated field name; JG_ESHAPE when the top node of `a` is not a
 *  list node ("needs lists at axis 1; the array has type ..."); JG_ENOTSUP for N-D numeric
 *  items; JG_EDTYPE for float16 items; JG_EVALUE for a list whose
 *  starts/stops leave its content (err->index: the list); JG_EOVERFLOW when a list's number of
 *  combinations exceeds INT64_MAX (err->index: the list) or the total does; JG_ENODEV /
 *  JG_ECUDA / JG_EDEVMEM for device arrays; JG_ENOMEM. Thread-safe. */
JG_API jg_status jg_array_combinations(const jg_array *a, int n, bool replacement,
                                       const char *const *fields, jg_stream stream,
                                       jg_array **out, jg_error *err);

/** As jg_array_combinations, with each item replaced by its int64 position local to its list
 *  (ak.argcombinations): e.g. n = 2 over [[a, b, c], [], [d]] gives
 *  [[(0, 1), (0, 2), (1, 2)], [], []]. The items are never read, so `a`'s lists may hold
 *  anything (nested lists, options, any dtype). Errors as jg_array_combinations but for the
 *  item checks. */
JG_API jg_status jg_array_argcombinations(const jg_array *a, int n, bool replacement,
                                          const char *const *fields, jg_stream stream,
                                          jg_array **out, jg_error *err);

/** The cartesian product, list by list, of `narrays` (2 or 3) arrays of the same length
 *  (ak.cartesian at axis=1): for list i, the tuples (x[a], y[b]) or (x[a], y[b], z[c]) over
 *  every item of each array's list i, the first array varying slowest; e.g. [[1, 2], [], [3]]
 *  with [[a], [b], [c, d]] gives [[(1, a), (2, a)], [], [(3, c), (3, d)]].
 *  With `nested`, the tuples of each list are grouped by the first array's item, one more list
 *  level: [[[(1, a)], [(2, a)]], [], [[(3, c), (3, d)]]] (type n * var * var * (T, U)).
 *  - arrays: `narrays` arrays as for jg_array_combinations, all on one backend, of one length;
 *    items of each array may have their own type.
 *  - fields: NULL (tuple) or narrays distinct names.
 *  - stream, out: as jg_array_combinations.
 *  Errors: JG_EINVAL for NULL `arrays`, an array or `out`, narrays outside [2, 3], bad field
 *  names; JG_EBACKEND for arrays on different backends (jg_array_check_same_backend's message,
 *  naming the fixing call); JG_ESHAPE for an array without lists at the top, or lengths that
 *  differ ("cannot take the cartesian product of arrays of lengths 3 and 2 (array 1)");
 *  JG_ENOTSUP / JG_EDTYPE for items as jg_array_combinations; JG_EVALUE for a list that leaves
 *  its content (err->index: the list); JG_EOVERFLOW for a product above INT64_MAX; device and
 *  memory errors as above. */
JG_API jg_status jg_array_cartesian(int narrays, const jg_array *const *arrays, bool nested,
                                    const char *const *fields, jg_stream stream, jg_array **out,
                                    jg_error *err);

/** As jg_array_cartesian with int64 positions local to each list in place of the items
 *  (ak.argcartesian); the items are never read. */
JG_API jg_status jg_array_argcartesian(int narrays, const jg_array *const *arrays, bool nested,
                                       const char *const *fields, jg_stream stream,
                                       jg_array **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_COMBINATORICS_H */
