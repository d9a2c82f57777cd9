/* list_merge_pass_openmp.c: OpenMP host implementation of kernel "list_merge_pass"
 * (list_merge_pass.json): the reference's merge (list_merge_pass_cpu.c), lists split over
 * threads in dynamic chunks (lengths vary). Each list is merged exactly as by the reference, so
 * the output is identical. A single long list runs on one thread (its pass is one linear merge). */
#include "jgk_list_merge_pass.h"
#include "list_merge_pass/list_merge_pass_order.h"

#define MERGE_PASS(T, S)                                                                      \
  jg_status jgk_list_merge_pass_openmp_##S(                                                   \
      int64_t n, const int64_t *starts, const int64_t *offsets, int64_t total, int64_t width, \
      const T *content, int64_t has_option, const int64_t *optindex, int64_t descending,      \
      int64_t global, const int64_t *in_perm, int64_t *out_perm, jg_error *err) {             \
    (void)err;                                                                                \
    (void)total;                                                                              \
    if (width < 1) width = 1;                                                                 \
    _Pragma("omp parallel for schedule(dynamic, 256)")                                        \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t base = offsets[i], len = offsets[i + 1] - base;                           \
      const int64_t *src = in_perm + base;                                                    \
      int64_t *dst = out_perm + base;                                                         \
      const int64_t add = global != 0 ? starts[i] : 0;                                        \
      for (int64_t lo = 0; lo < len; lo += 2 * width) {                                       \
        const int64_t mid = lo + width < len ? lo + width : len;                              \
        const int64_t hi = mid + width < len ? mid + width : len;                             \
        int64_t a = lo, b = mid, o = lo;                                                      \
        int ca = 0, cb = 0;                                                                   \
        T va = 0, vb = 0;                                                                     \
        if (a < mid) JGK_MERGE_KEY(T, i, src[a], &ca, &va);                                   \
        if (b < hi) JGK_MERGE_KEY(T, i, src[b], &cb, &vb);                                    \
        while (a < mid && b < hi) {                                                           \
          if (JGK_MERGE_BEFORE(cb, vb, ca, va)) {                                             \
            dst[o++] = src[b++] + add;                                                        \
            if (b < hi) JGK_MERGE_KEY(T, i, src[b], &cb, &vb);                                \
          } else {                                                                            \
            dst[o++] = src[a++] + add;                                                        \
            if (a < mid) JGK_MERGE_KEY(T, i, src[a], &ca, &va);                               \
          }                                                                                   \
        }                                                                                     \
        while (a < mid) dst[o++] = src[a++] + add;                                            \
        while (b < hi) dst[o++] = src[b++] + add;                                             \
      }                                                                                       \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_LIST_MERGE_PASS_VARIANTS(MERGE_PASS)
