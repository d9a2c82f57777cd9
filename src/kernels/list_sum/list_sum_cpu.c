/* list_sum_cpu.c: host reference of kernel "list_sum" (list_sum.json).
 *
 * For every list i < n, [starts[i], stops[i]) of content (m elements): out[i] = the sum (op == 0)
 * or the product (any other op) of its elements; 0 and 1 for an empty list. Integer results
 * (int64 for bool and signed contents, uint64 for unsigned ones) are computed in uint64_t, where
 * additions and multiplications wrap modulo 2^64 without undefined behaviour, and converted to R
 * at the end (two's complement, as NumPy's wrapping sums); float results are accumulated in double
 * (float32 too, rounded to float once at the end), in element order. Nothing happens for n <= 0.
 *
 * The first bad list (jgk_list_bad: stops < starts, or a non-empty list outside [0, m)) is
 * reported as BAD_RANGE (JG_EVALUE) with out written for the lists before it (the CUDA and
 * OpenMP sides may have written any other list, so on error out is unspecified). Content is read
 * only inside good lists. */
#include "jgk_list_sum.h"
#include "jgk_reduce.h"

#define LIST_SUM(I, T, R, S)                                                                   \
  jg_status jgk_list_sum_c_##S(int64_t n, const I *starts, const I *stops, int64_t m,          \
                               const T *content, int64_t op, R *out, jg_error *err) {          \
    const bool real = (R)0.5 != (R)0; /* a float32/float64 result */                         \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      if (jgk_list_bad(a, b, m)) return jgk_list_sum_error(err, JGK_LIST_SUM_BAD_RANGE, i);   \
      if (real) {                                                                              \
        double acc = op == 0 ? 0.0 : 1.0;                                                      \
        if (op == 0)                                                                           \
          for (int64_t j = a; j < b; ++j) acc += (double)content[j];                           \
        else                                                                                   \
          for (int64_t j = a; j < b; ++j) acc *= (double)content[j];                           \
        out[i] = (R)acc;                                                                       \
      } else {                                                                                 \
        uint64_t acc = op == 0 ? 0 : 1;                                                        \
        if (op == 0)                                                                           \
          for (int64_t j = a; j < b; ++j) acc += (uint64_t)content[j];                         \
        else                                                                                   \
          for (int64_t j = a; j < b; ++j) acc *= (uint64_t)content[j];                         \
        out[i] = (R)acc;                                                                       \
      }                                                                                        \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_SUM_VARIANTS(LIST_SUM)
