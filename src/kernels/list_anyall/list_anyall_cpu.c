/* list_anyall_cpu.c: host reference of kernel "list_anyall" (list_anyall.json).
 *
 * For every list i < n, [starts[i], stops[i]) of content (m elements): out[i] = whether any
 * (op == 0) or all (any other op) of its elements compare unequal to 0 (a NaN does, -0.0 does
 * not); an empty list gives false for any and true for all (their identities). The scan stops
 * at the first element that decides. Nothing happens for n <= 0. The first bad list
 * (jgk_list_bad) is reported as BAD_RANGE (JG_EVALUE), with out written for the lists before it
 * (unspecified on error on the other sides). */
#include "jgk_list_anyall.h"
#include "jgk_reduce.h"

#define LIST_ANYALL(I, T, S)                                                                   \
  jg_status jgk_list_anyall_c_##S(int64_t n, const I *starts, const I *stops, int64_t m,       \
                                  const T *content, int64_t op, bool *out, jg_error *err) {    \
    const bool all = op != 0;                                                                  \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];                             \
      if (jgk_list_bad(a, b, m)) {                                                             \
        return jgk_list_anyall_error(err, JGK_LIST_ANYALL_BAD_RANGE, i);                       \
      }                                                                                        \
      /* any: true at the first nonzero; all: false at the first zero. */                      \
      bool r = all;                                                                            \
      for (int64_t j = a; j < b; ++j) {                                                        \
        if ((content[j] != 0) != all) {                                                        \
          r = !all;                                                                            \
          break;                                                                               \
        }                                                                                      \
      }                                                                                        \
      out[i] = r;                                                                              \
    }                                                                                          \
    return JG_OK;                                                                              \
  }
JGK_LIST_ANYALL_VARIANTS(LIST_ANYALL)
