/* take_option_cpu.c: host reference of kernel "take_option" (take_option.json).
 *
 * out[i] = content[index[i]] for 0 <= i < n when index[i] >= 0, and out[i] = 0 (false) when
 * index[i] < 0, a None position (unlike take, a negative index never counts from the end). The
 * zero keeps later elementwise work on None positions harmless (no integer division by a stale
 * value, no negative power). The first i with index[i] >= m is OUT_OF_RANGE (JG_EINDEX), with
 * out[0..i) written (unspecified on error on the other sides). */
#include "jgk_take_option.h"

#define TAKE_OPTION(T, S)                                                                     \
  jg_status jgk_take_option_c_##S(int64_t n, int64_t m, const T *content, const int64_t *index, \
                                  T *out, jg_error *err) {                                    \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t j = index[i];                                                             \
      if (j >= m) return jgk_take_option_error(err, JGK_TAKE_OPTION_OUT_OF_RANGE, i);         \
      out[i] = j < 0 ? (T)0 : content[j];                                                     \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_TAKE_OPTION_VARIANTS(TAKE_OPTION)
