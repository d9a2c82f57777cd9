/* list_mask_select_cpu.c: host reference of kernel "list_mask_select" (list_mask_select.json):
 * one loop over the flat stream in words of 64 elements, copying the kept values with the
 * branchless loop of a plain C mask (store, then advance by the flag) when the word cannot pass
 * `capacity`, and writing each word's rank bits and prefix as it goes. It leaves `state` exactly
 * as the CUDA kernel does (the flag, the total, every look-back unit's word: a unit is two tiles
 * for values of at most 4 bytes, one for 8-byte values), so that parity compares it too. */
#include "jgk_list_mask_select.h"

/* Elements per tile (the CUDA kernel's TILE) and per rank word; rank words per look-back unit
 * (the CUDA kernel's LMS_UNIT) of values of type T. */
#define TILE 4096
#define WORD 64
#define UNIT_WORDS(T) ((int64_t)(sizeof(T) <= 4 ? 2 * TILE : TILE) / WORD)
#define PREFIX_FLAG (2ULL << 62)

#define LIST_MASK_SELECT(I, T, S)                                                              \
  jg_status jgk_list_mask_select_c_##S(                                                        \
      int64_t n, const I *x_starts, const I *x_stops, int64_t x_length, const T *x,            \
      const I *mask_starts, const I *mask_stops, int64_t mask_length, const bool *mask,        \
      int64_t tiles, int64_t capacity, T *out, int64_t words, uint64_t *bits, int64_t *pre,    \
      int64_t *state, jg_error *err) {                                                         \
    (void)err;                                                                                 \
    if (n <= 0) {                                                                              \
      state[2] = 1;                                                                            \
      return JG_OK;                                                                            \
    }                                                                                          \
    const int64_t x0 = (int64_t)x_starts[0], xe = (int64_t)x_stops[n - 1];                     \
    const int64_t m0 = (int64_t)mask_starts[0], me = (int64_t)mask_stops[n - 1];               \
    if (x0 < 0 || xe < x0 || xe > x_length || m0 < 0 || me < m0 || me > mask_length ||         \
        me - m0 != xe - x0 || tiles < 0 || words < 0 ||                                        \
        (uint64_t)(xe - x0) > (uint64_t)tiles * TILE ||                                        \
        (uint64_t)(xe - x0) > (uint64_t)words * WORD) {                                        \
      state[2] = 1;                                                                            \
      return JG_OK;                                                                            \
    }                                                                                          \
    if (capacity < 0) capacity = 0;                                                            \
    const int64_t e_total = xe - x0;                                                           \
    const T *xv = x + x0;                                                                      \
    const uint8_t *f = (const uint8_t *)mask + m0;                                             \
    int64_t pos = 0;                                                                           \
    for (int64_t w = 0; w * WORD < e_total; ++w) {                                             \
      const int64_t lo = w * WORD;                                                             \
      const int64_t hi = lo + WORD < e_total ? lo + WORD : e_total;                            \
      uint64_t b = 0;                                                                          \
      pre[w] = pos;                                                                            \
      if (hi - lo == WORD && WORD <= capacity - pos) {                                         \
        T *o = out + pos;                                                                      \
        int64_t k = 0;                                                                         \
        for (int j = 0; j < WORD; ++j) {                                                       \
          const uint64_t kf = f[lo + j] != 0;                                                  \
          o[k] = xv[lo + j];                                                                   \
          k += (int64_t)kf;                                                                    \
          b |= kf << j;                                                                        \
        }                                                                                      \
        pos += k;                                                                              \
      } else {                                                                                 \
        for (int64_t j = lo; j < hi; ++j) {                                                    \
          if (f[j] == 0) continue;                                                             \
          b |= 1ULL << (j - lo);                                                               \
          if (pos < capacity) out[pos] = xv[j];                                                \
          ++pos;                                                                               \
        }                                                                                      \
      }                                                                                        \
      bits[w] = b;                                                                             \
      if ((w + 1) % UNIT_WORDS(T) == 0 || hi == e_total)                                       \
        state[4 + w / UNIT_WORDS(T)] = (int64_t)(PREFIX_FLAG | (uint64_t)pos);                 \
    }                                                                                          \
    if (pos < capacity) out[pos] = (T)0; /* the branchless loop may have stored there */       \
    state[3] = pos;                                                                            \
    return JG_OK;                                                                              \
  }
JGK_LIST_MASK_SELECT_VARIANTS(LIST_MASK_SELECT)
