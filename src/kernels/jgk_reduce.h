/* jgk_reduce.h: what the host implementations of the reduction kernels (list_sum, list_minmax,
 * list_argminmax, list_count, list_count_nonzero, list_anyall, list_mean) share: the list range
 * rule, a NaN test and the identities of min and max that work for every element type, and the
 * chunk size of their "openmp" implementations. The CUDA side has the same helpers in
 * jgk_common.cuh (jgk_list_bad, jgk_isnan, jgk_limits). */
#ifndef JGK_REDUCE_H
#define JGK_REDUCE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/** Lists per task of the "openmp" implementations: each task runs the "c" reference on 1024
 *  consecutive lists (schedule(dynamic, 1)), so both give bit-identical results, and the
 *  smallest failing task gives the reference's first bad list. */
#define JGK_REDUCE_CHUNK 1024

/** A list [start, stop) of a content of m elements is bad when stop < start, or when it is not
 *  empty and leaves [0, m): Awkward's rule (an empty list may start anywhere). Comparisons only,
 *  so no overflow whatever the values. */
static inline bool jgk_list_bad(int64_t start, int64_t stop, int64_t m) {
  return stop < start || (start < stop && (start < 0 || stop > m));
}

static inline bool jgk_isnan_f32(float x) { return isnan(x); }
static inline bool jgk_isnan_f64(double x) { return isnan(x); }
static inline bool jgk_isnan_never(double x) {
  (void)x;
  return false;
}

/** x is a NaN: isnan for float and double, false for bool and the integers (x != x would be
 *  the same, but GCC warns about self-comparisons of integers). */
#define JGK_ISNAN(x) \
  _Generic((x), float: jgk_isnan_f32, double: jgk_isnan_f64, default: jgk_isnan_never)(x)

/** The largest value of type T: the identity of min (+inf for floats, true for bool). */
#define JGK_HIGHEST(T)                                                                      \
  _Generic((T)0, bool: true, int8_t: INT8_MAX, int16_t: INT16_MAX, int32_t: INT32_MAX,      \
           int64_t: INT64_MAX, uint8_t: UINT8_MAX, uint16_t: UINT16_MAX, uint32_t: UINT32_MAX, \
           uint64_t: UINT64_MAX, float: INFINITY, double: (double)INFINITY)

/** The smallest value of type T: the identity of max (-inf for floats, false for bool). */
#define JGK_LOWEST(T)                                                                       \
  _Generic((T)0, bool: false, int8_t: INT8_MIN, int16_t: INT16_MIN, int32_t: INT32_MIN,     \
           int64_t: INT64_MIN, uint8_t: 0, uint16_t: 0, uint32_t: 0u, uint64_t: (uint64_t)0, \
           float: -INFINITY, double: -(double)INFINITY)


/** The body of an "openmp" list kernel: runs the "c" reference on chunks of JGK_REDUCE_CHUNK
 *  consecutive lists in parallel (dynamic schedule, as list lengths vary), so that every list is
 *  reduced in the same order and the results are bit-identical to the reference's. `CALL_C` is
 *  the reference call on the chunk: it may use `lo` (the chunk's first list), `len` (its lists)
 *  and `e` (a jg_error). A chunk stops at its first bad list; the smallest over all chunks is the
 *  list the reference stops at, reported with `ON_BAD` (an expression using `bad`). */
#define JGK_REDUCE_OPENMP_BODY(n, CALL_C, ON_BAD)                                                \
  const int64_t chunks = (n) > 0 ? ((n) - 1) / JGK_REDUCE_CHUNK + 1 : 0;                        \
  int64_t bad = INT64_MAX;                                                                      \
  _Pragma("omp parallel for schedule(dynamic, 1) reduction(min : bad)")                         \
  for (int64_t c = 0; c < chunks; ++c) {                                                        \
    const int64_t lo = c * JGK_REDUCE_CHUNK;                                                    \
    const int64_t len = (n) - lo < JGK_REDUCE_CHUNK ? (n) - lo : JGK_REDUCE_CHUNK;              \
    jg_error e;                                                                                 \
    jg_error_clear(&e);                                                                         \
    if ((CALL_C) != JG_OK && lo + e.index < bad) bad = lo + e.index;                            \
  }                                                                                             \
  if (bad == INT64_MAX) return JG_OK;                                                           \
  return (ON_BAD);

#endif /* JGK_REDUCE_H */
