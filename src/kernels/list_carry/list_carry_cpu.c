/* list_carry_cpu.c: host reference of kernel "list_carry" (list_carry.json).
 *
 * For each output list i < n: the source list j is i (mode 0), index[i] (mode 1; negative gives
 * an empty list), 0 (mode 2: a length-1 array broadcast), or the singleton [index[i],
 * index[i] + 1) of the content (mode 3; negative: empty). A source list must exist (j < nlists,
 * or index[i] < m in mode 3: BAD_INDEX) and lie in the content (stops >= starts, and a non-empty
 * list inside [0, m): BAD_RANGE, Awkward's rule). Empty lists are written as [0, 0) wherever
 * they started, so that outputs do not depend on unreachable values. out_starts/out_stops get
 * the list plus `shift`; counts[i] gets (or, with accumulate, adds) its length padded to
 * `target` (max(L, target), or exactly target when clip). `index` must have n entries in modes
 * 1 and 3; it is not read in modes 0 and 2. The first bad i is reported, with the lists before it
 * written. */
#include "jgk_list_carry.h"
#include "list_carry/list_carry_body.h"

#define LIST_CARRY(I, S)                                                                      \
  jg_status jgk_list_carry_c_##S(int64_t n, int64_t nlists, int64_t m, int64_t mode,          \
                                 const I *starts, const I *stops, const int64_t *index,      \
                                 int64_t target, int64_t clip, int64_t accumulate,           \
                                 int64_t shift, int64_t *out_starts, int64_t *out_stops,     \
                                 int64_t *counts, jg_error *err) {                           \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      int r;                                                                                  \
      JGK_LIST_CARRY_ONE(i, r);                                                               \
      if (r != 0) return jgk_list_carry_error(err, r - 1, i);                                 \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_LIST_CARRY_VARIANTS(LIST_CARRY)
