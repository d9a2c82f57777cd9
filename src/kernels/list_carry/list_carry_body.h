/* list_carry_body.h: the work of kernel "list_carry" (list_carry.json) for one output list,
 * shared by its host implementations (list_carry_cpu.c, list_carry_openmp.c; the CUDA side has the
 * same steps in list_carry_cuda.cu). Returns 0, or 1 + the error code for entry i. */
#ifndef JGK_LIST_CARRY_BODY_H
#define JGK_LIST_CARRY_BODY_H

#define JGK_LIST_CARRY_ONE(i, result)                                                         \
  do {                                                                                        \
    int64_t a = 0, b = 0;                                                                     \
    (result) = 0;                                                                             \
    if (mode == 3) {                                                                          \
      const int64_t j = index[i];                                                             \
      if (j >= m) {                                                                           \
        (result) = 1 + JGK_LIST_CARRY_BAD_INDEX;                                              \
      } else if (j >= 0) {                                                                    \
        a = j;                                                                                \
        b = j + 1;                                                                            \
      }                                                                                       \
    } else {                                                                                  \
      const int64_t j = mode == 0 ? (i) : mode == 2 ? 0 : index[i];                           \
      if (j >= nlists) {                                                                      \
        (result) = 1 + JGK_LIST_CARRY_BAD_INDEX;                                              \
      } else if (j >= 0) {                                                                    \
        a = (int64_t)starts[j];                                                               \
        b = (int64_t)stops[j];                                                                \
        if (b < a || (a < b && (a < 0 || b > m))) (result) = 1 + JGK_LIST_CARRY_BAD_RANGE;    \
        if (a == b) a = b = 0;                                                                \
      }                                                                                       \
    }                                                                                         \
    if ((result) == 0) {                                                                      \
      const int64_t len = b - a;                                                              \
      const int64_t padded = clip != 0 ? target : (len > target ? len : target);              \
      out_starts[i] = a + shift;                                                              \
      out_stops[i] = b + shift;                                                               \
      counts[i] = accumulate != 0 ? counts[i] + padded : padded;                              \
    }                                                                                         \
  } while (0)

#endif /* JGK_LIST_CARRY_BODY_H */
