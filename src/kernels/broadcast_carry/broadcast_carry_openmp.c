/* broadcast_carry_openmp.c: OpenMP host implementation of kernel "broadcast_carry"
 * (broadcast_carry.json), the step of broadcasting from one list level to the next.
 *
 * The reference's loop (broadcast_carry_cpu.c) split over threads: every element is
 * independent. */
#include "jgk_broadcast_carry.h"

#define BROADCAST_CARRY(I, S)                                                                  \
  jg_status jgk_broadcast_carry_openmp_##S(int64_t total, int64_t n, const int64_t *parents,       \
                                      const int64_t *offsets, int64_t identity, int64_t base, \
                                      const int64_t *carry, int64_t mode, int64_t size,       \
                                      const I *starts, int64_t *out, jg_error *err) {         \
    (void)err;                                                                                 \
    (void)n;                                                                                   \
    if (total <= 0) return JG_OK;                                                              \
    const int64_t o0 = offsets[0];                                                             \
    _Pragma("omp parallel for schedule(static)")                                      \
    for (int64_t j = 0; j < total; ++j) {                                                      \
      const int64_t p = parents[j];                                                            \
      const int64_t c = identity != 0 ? base + p : carry[p];                                   \
      if (c < 0) {                                                                             \
        out[j] = -1;                                                                           \
      } else if (mode == 0) {                                                                  \
        out[j] = c;                                                                            \
      } else {                                                                                 \
        const int64_t s = size >= 0 ? c * size : (int64_t)starts[c];                           \
        out[j] = s + (j - (offsets[p] - o0));                                                  \
      }                                                                                        \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_BROADCAST_CARRY_VARIANTS(BROADCAST_CARRY)
