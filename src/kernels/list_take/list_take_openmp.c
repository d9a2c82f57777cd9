/* list_take_openmp.c: OpenMP host implementation of kernel "list_take" (list_take.json): the
 * reference over chunks of lists in parallel (each chunk a call of the reference on its lists,
 * with its own slice of offsets, starts and counts; out is addressed from offsets[0] of the whole
 * call, so chunks write their own entries). The smallest bad list over all chunks, with its code,
 * is the reference's, since each list's verdict depends on that list alone, except BAD_OFFSETS,
 * whose bound is checked against the whole call first. On error out is unspecified. */
#include <string.h>

#include "jgk_list_take.h"

#define LIST_TAKE(J, S)                                                                         \
  jg_status jgk_list_take_openmp_##S(int64_t nlists, int64_t n, const int64_t *offsets,         \
                                     int64_t m, const J *index, int64_t identity,               \
                                     const int64_t *ipos, int64_t valid_mode,                   \
                                     const int8_t *valid, const int64_t *starts,                \
                                     const int64_t *counts, int64_t *out, jg_error *err) {      \
    if (nlists <= 0) return JG_OK;                                                              \
    const int64_t base = offsets[0];                                                            \
    int64_t bad = INT64_MAX;                                                                    \
    _Pragma("omp parallel for schedule(static) reduction(min : bad)")                           \
    for (int64_t i = 0; i < nlists; ++i) {                                                      \
      const int64_t a = offsets[i], b = offsets[i + 1];                                         \
      if (!(base <= a && a <= b && n >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)n) &&   \
          i < bad)                                                                              \
        bad = i;                                                                                \
    }                                                                                           \
    if (bad != INT64_MAX) return jgk_list_take_error(err, JGK_LIST_TAKE_BAD_OFFSETS, bad);      \
    const int64_t chunk = 4096;                                                                 \
    const int64_t nchunks = (nlists + chunk - 1) / chunk;                                       \
    int64_t first = INT64_MAX; /* (list << 8) | code of the first failure */                    \
    _Pragma("omp parallel for schedule(dynamic, 1) reduction(min : first)")                     \
    for (int64_t k = 0; k < nchunks; ++k) {                                                     \
      const int64_t lo = k * chunk, len = nlists - lo < chunk ? nlists - lo : chunk;            \
      const int64_t shift = offsets[lo] - base;                                                 \
      jg_error e;                                                                               \
      e.index = -1;                                                                             \
      /* The chunk's entries start at out + shift; its offsets are rebased by the reference. */ \
      /* With identity the values are addressed by entry: shift them with the entries. */     \
      const int64_t vs = identity ? shift : 0;                                                  \
      (void)jgk_list_take_c_##S(len, n - shift, offsets + lo, m - vs, vs ? index + vs : index, identity,\
                                identity ? ipos : ipos + shift, valid_mode,                     \
                                valid_mode != 0 ? valid + vs : valid, starts + lo, counts + lo, \
                                out + shift, &e);                                               \
      if (e.index >= 0) {                                                                       \
        const int64_t code = strstr(e.message, "reads the index") != NULL ? 1 : 2;              \
        const int64_t key = ((lo + e.index) << 8) | code;                                       \
        if (key < first) first = key;                                                           \
      }                                                                                         \
    }                                                                                           \
    return first == INT64_MAX ? JG_OK                                                           \
                              : jgk_list_take_error(err, (int)(first & 0xff), first >> 8);      \
  }
JGK_LIST_TAKE_VARIANTS(LIST_TAKE)
