/* fill_none_openmp.c: OpenMP host implementation of kernel "fill_none" (fill_none.json): the
 * reference's loop split over threads; the smallest bad position is reported, as by the
 * reference. */
#include "jgk_fill_none.h"

#define FILL_NONE(T, S)                                                                       \
  jg_status jgk_fill_none_openmp_##S(int64_t n, const int64_t *index, int64_t m,              \
                                     const T *content, T value, T *out, jg_error *err) {      \
    int64_t bad = INT64_MAX;                                                                  \
    _Pragma("omp parallel for schedule(static) reduction(min : bad)")                         \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t j = index[i];                                                             \
      if (j >= m) {                                                                           \
        if (i < bad) bad = i;                                                                 \
      } else {                                                                                \
        out[i] = j < 0 ? value : content[j];                                                  \
      }                                                                                       \
    }                                                                                         \
    return bad == INT64_MAX ? JG_OK : jgk_fill_none_error(err, JGK_FILL_NONE_OUT_OF_RANGE, bad); \
  }
JGK_FILL_NONE_VARIANTS(FILL_NONE)
