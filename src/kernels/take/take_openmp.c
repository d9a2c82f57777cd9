/* take_openmp.c: OpenMP host implementation of kernel "take" (take.json): the reference's loop
 * split over threads. Each thread keeps the smallest bad position it saw; their minimum is the
 * position the reference stops at (its predicate depends on index[i] and m only), so the error
 * is the same. On error out is unspecified, as on the CUDA side. */
#include "jgk_take.h"

#define TAKE(T, S)                                                                            \
  jg_status jgk_take_openmp_##S(int64_t n, int64_t m, const T *content, const int64_t *index, \
                                T *out, jg_error *err) {                                      \
    int64_t bad = INT64_MAX;                                                                  \
    _Pragma("omp parallel for schedule(static) reduction(min : bad)")                         \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t j = index[i];                                                             \
      if (m > 0 && (j < 0 ? j >= -m : j < m)) {                                               \
        out[i] = content[j < 0 ? j + m : j];                                                  \
      } else if (i < bad) {                                                                   \
        bad = i;                                                                              \
      }                                                                                       \
    }                                                                                         \
    return bad == INT64_MAX ? JG_OK : jgk_take_error(err, JGK_TAKE_OUT_OF_RANGE, bad);        \
  }
JGK_TAKE_VARIANTS(TAKE)
