/* fill_none_cpu.c: host reference of kernel "fill_none" (fill_none.json): out[i] = value for a
 * negative index[i] (None), content[index[i]] for an index in [0, m); the first position with an
 * index >= m is reported as OUT_OF_RANGE with out[0..i) written. */
#include "jgk_fill_none.h"

#define FILL_NONE(T, S)                                                                       \
  jg_status jgk_fill_none_c_##S(int64_t n, const int64_t *index, int64_t m, const T *content, \
                                T value, T *out, jg_error *err) {                             \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t j = index[i];                                                             \
      if (j >= m) return jgk_fill_none_error(err, JGK_FILL_NONE_OUT_OF_RANGE, i);             \
      out[i] = j < 0 ? value : content[j];                                                    \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_FILL_NONE_VARIANTS(FILL_NONE)
