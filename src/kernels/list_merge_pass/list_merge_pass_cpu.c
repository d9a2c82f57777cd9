/* list_merge_pass_cpu.c: host reference of kernel "list_merge_pass" (list_merge_pass.json).
 *
 * For each list i (entries in_perm[offsets[i] .. offsets[i+1]), positions local to the list,
 * already sorted in runs of `width`), the runs [2r*width, (2r+1)*width) and [(2r+1)*width,
 * (2r+2)*width) are merged with the classic two-finger merge: the right run's entry goes first
 * only when it comes strictly before the left's (list_merge_pass_order.h), so equal keys keep
 * their order (stable). A run without a partner is copied. out_perm gets local positions, or
 * starts[i] + position when `global` (the last pass of a sort: positions to gather). A sort is
 * ceil(log2(longest list)) passes (at least one) of widths 1, 2, 4, ... from local_index's
 * 0, 1, 2, .... The caller guarantees the keys' positions are in range (content: starts[i] + l,
 * through optindex when has_option). No data errors. */
#include "jgk_list_merge_pass.h"
#include "list_merge_pass/list_merge_pass_order.h"

#define MERGE_LIST(T, i)                                                                      \
  do {                                                                                        \
    const int64_t base = offsets[i], len = offsets[(i) + 1] - base;                           \
    const int64_t *src = in_perm + base;                                                      \
    int64_t *dst = out_perm + base;                                                           \
    const int64_t add = global != 0 ? starts[i] : 0;                                          \
    for (int64_t lo = 0; lo < len; lo += 2 * width) {                                         \
      const int64_t mid = lo + width < len ? lo + width : len;                                \
      const int64_t hi = mid + width < len ? mid + width : len;                               \
      int64_t a = lo, b = mid, o = lo;                                                        \
      int ca = 0, cb = 0;                                                                     \
      T va = 0, vb = 0;                                                                       \
      if (a < mid) JGK_MERGE_KEY(T, i, src[a], &ca, &va);                                     \
      if (b < hi) JGK_MERGE_KEY(T, i, src[b], &cb, &vb);                                      \
      while (a < mid && b < hi) {                                                             \
        if (JGK_MERGE_BEFORE(cb, vb, ca, va)) {                                               \
          dst[o++] = src[b++] + add;                                                          \
          if (b < hi) JGK_MERGE_KEY(T, i, src[b], &cb, &vb);                                  \
        } else {                                                                              \
          dst[o++] = src[a++] + add;                                                          \
          if (a < mid) JGK_MERGE_KEY(T, i, src[a], &ca, &va);                                 \
        }                                                                                     \
      }                                                                                       \
      while (a < mid) dst[o++] = src[a++] + add;                                              \
      while (b < hi) dst[o++] = src[b++] + add;                                               \
    }                                                                                         \
  } while (0)

#define MERGE_PASS(T, S)                                                                      \
  jg_status jgk_list_merge_pass_c_##S(                                                        \
      int64_t n, const int64_t *starts, const int64_t *offsets, int64_t total, int64_t width, \
      const T *content, int64_t has_option, const int64_t *optindex, int64_t descending,      \
      int64_t global, const int64_t *in_perm, int64_t *out_perm, jg_error *err) {             \
    (void)err;                                                                                \
    (void)total;                                                                              \
    if (width < 1) width = 1;                                                                 \
    for (int64_t i = 0; i < n; ++i) MERGE_LIST(T, i);                                         \
    return JG_OK;                                                                             \
  }
JGK_LIST_MERGE_PASS_VARIANTS(MERGE_PASS)
