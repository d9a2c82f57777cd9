/* local_index_cpu.c: host reference of kernel "local_index" (local_index.json).
 *
 * n lists given by offsets[0..n] (offsets[0] need not be 0) over m content elements: for every
 * list i and j in [offsets[i], offsets[i+1]), out[j - offsets[0]] = j - offsets[i]. m is the
 * length of the content the lists index, normally offsets[n] - offsets[0]; when the lists cover
 * less, out[offsets[n] - offsets[0] .. m) is left untouched. Nothing happens for n <= 0.
 *
 * List i is bad unless offsets[0] <= offsets[i] <= offsets[i+1] <= offsets[0] + m (m >= 0); the
 * first bad list is reported as BAD_OFFSETS (JG_EVALUE), with out written for the lists before it
 * (the CUDA side may have written any element of out[0..m), so on error out is unspecified). The
 * bound is compared as offsets[i+1] - offsets[0] <= m in uint64, which is exact once
 * offsets[i+1] >= offsets[0] and cannot overflow. */
#include "jgk_local_index.h"

#define LOCAL_INDEX(I, S)                                                                     \
  jg_status jgk_local_index_c_##S(int64_t n, int64_t m, const I *offsets, int64_t *out,       \
                                  jg_error *err) {                                            \
    if (n <= 0) return JG_OK;                                                                 \
    const int64_t base = (int64_t)offsets[0];                                                 \
    for (int64_t i = 0; i < n; ++i) {                                                         \
      const int64_t a = (int64_t)offsets[i], b = (int64_t)offsets[i + 1];                     \
      if (!(base <= a && a <= b && m >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)m)) {  \
        return jgk_local_index_error(err, JGK_LOCAL_INDEX_BAD_OFFSETS, i);                    \
      }                                                                                       \
      int64_t *o = out + ((uint64_t)a - (uint64_t)base);                                      \
      const int64_t len = b - a;                                                              \
      for (int64_t j = 0; j < len; ++j) o[j] = j;                                             \
    }                                                                                         \
    return JG_OK;                                                                             \
  }
JGK_LOCAL_INDEX_VARIANTS(LOCAL_INDEX)
