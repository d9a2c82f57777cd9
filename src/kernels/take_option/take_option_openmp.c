/* take_option_openmp.c: OpenMP host implementation of kernel "take_option" (take_option.json):
 * the reference's loop split over threads, each keeping the smallest bad position it saw, so the
 * error is the reference's (its predicate depends on index[i] and m only). */
#include "jgk_take_option.h"

#define TAKE_OPTION(T, S)                                                                      \
  jg_status jgk_take_option_openmp_##S(int64_t n, int64_t m, const T *content,                 \
                                       const int64_t *index, T *out, jg_error *err) {          \
    int64_t bad = INT64_MAX;                                                                   \
    _Pragma("omp parallel for schedule(static) reduction(min : bad)")                          \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t j = index[i];                                                              \
      if (j < m) {                                                                             \
        out[i] = j < 0 ? (T)0 : content[j];                                                    \
      } else if (i < bad) {                                                                    \
        bad = i;                                                                               \
      }                                                                                        \
    }                                                                                          \
    return bad == INT64_MAX ? JG_OK                                                            \
                            : jgk_take_option_error(err, JGK_TAKE_OPTION_OUT_OF_RANGE, bad);   \
  }
JGK_TAKE_OPTION_VARIANTS(TAKE_OPTION)
