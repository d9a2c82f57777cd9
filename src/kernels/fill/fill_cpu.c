/* fill_cpu.c: host reference of kernel "fill" (fill.json). */
#include "jgk_fill.h"

#define FILL(T, S)                                                                     \
  jg_status jgk_fill_c_##S(int64_t n, T value, T *out, jg_error *err) {              \
    (void)err;                                                                         \
    for (int64_t i = 0; i < n; ++i) out[i] = value;                                        \
    return JG_OK;                                                                      \
  }
JGK_FILL_VARIANTS(FILL)
