/* take_cpu.c: host reference of kernel "take" (take.json).
 *
 * out[i] = content[index[i]] for 0 <= i < n (nothing for n <= 0); an index in [-m, 0) counts
 * from the end (content[index[i] + m]), as in NumPy and Awkward. The first position i whose
 * index lies outside [-m, m) (every index when m <= 0) is reported as OUT_OF_RANGE (JG_EINDEX),
 * with out[0..i) written (the CUDA side may have written any other position, so on error out is
 * unspecified). content is read only at checked positions; -m is formed only for m > 0. */
#include "jgk_take.h"

#define TAKE(T, S)                                                                            \
  jg_status jgk_take_c_##S(int64_t n, int64_t m, const T *content, const int64_t *index,      \
                           T *out, jg_error *err) {                                           \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t j = index[i];                                                             \
      if (!(m > 0 && (j < 0 ? j >= -m : j < m))) {                                            \
        return jgk_take_error(err, JGK_TAKE_OUT_OF_RANGE, i);                                 \
      }                                                                                       \
      out[i] = content[j < 0 ? j + m : j];                                                    \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_TAKE_VARIANTS(TAKE)
