/* list_mask_cpu.c: host reference of kernel "list_mask" (list_mask.json): one loop over the lists
 * in order, copying each list's kept values with the branchless loop of a plain C mask (store,
 * then advance by the flag) when the list cannot pass `capacity`. It leaves `state` exactly as
 * the CUDA kernel does (block counters 0, the first bad list, the total, every tile's look-back
 * word), so that parity compares it too. */
#include "jgk_list_mask.h"

/* Lists per tile: the CUDA kernel's TILE. */
#define TILE 512
#define PREFIX_FLAG (2ULL << 62)

#define LIST_MASK(I, T, S)                                                                     \
  jg_status jgk_list_mask_c_##S(int64_t n, const I *x_starts, const I *x_stops,               \
                                int64_t x_length, const T *x, const I *mask_starts,           \
                                const I *mask_stops, int64_t mask_length, const bool *mask,   \
                                int64_t tiles, int64_t capacity, int64_t *offsets, T *out,    \
                                int64_t *state, jg_error *err) {                              \
    (void)err;                                                                                 \
    const uint8_t *flags = (const uint8_t *)mask;                                              \
    if (n < 0) n = 0;                                                                          \
    if (tiles < 0) tiles = 0;                                                                  \
    const int64_t n_eff = tiles >= n / TILE + 1 ? n : tiles * TILE;                            \
    int64_t bad = 0, pos = 0;                                                                  \
    for (int64_t i = 0; i < n_eff; ++i) {                                                      \
      const int64_t a = (int64_t)x_starts[i], b = (int64_t)x_stops[i];                         \
      const int64_t c = (int64_t)mask_starts[i], d = (int64_t)mask_stops[i];                   \
      const bool bad_x = b < a || (b > a && (a < 0 || b > x_length));                          \
      const bool bad_m = d < c || (d > c && (c < 0 || d > mask_length));                       \
      int64_t len = b - a < d - c ? b - a : d - c;                                             \
      if (bad_x || bad_m) len = 0;                                                             \
      if ((bad_x || bad_m || b - a != d - c) && bad == 0) bad = n - i;                         \
      offsets[i] = pos;                                                                        \
      const T *xv = len > 0 ? x + a : x;                                                       \
      const uint8_t *mv = len > 0 ? flags + c : flags;                                         \
      if (len == 0) {                                                                          \
      } else if (len <= capacity - pos) {                                                      \
        T *o = out + pos;                                                                      \
        int64_t k = 0;                                                                         \
        for (int64_t j = 0; j < len; ++j) {                                                    \
          o[k] = xv[j];                                                                        \
          k += mv[j] != 0;                                                                     \
        }                                                                                      \
        pos += k;                                                                              \
      } else {                                                                                 \
        for (int64_t j = 0; j < len; ++j) {                                                    \
          if (mv[j] == 0) continue;                                                            \
          if (pos < capacity) out[pos] = xv[j];                                                \
          ++pos;                                                                               \
        }                                                                                      \
      }                                                                                        \
      if ((i + 1) % TILE == 0 || i + 1 == n_eff)                                               \
        state[4 + i / TILE] = (int64_t)(PREFIX_FLAG | (uint64_t)pos);                          \
    }                                                                                          \
    offsets[n_eff] = pos;                                                                      \
    if (pos < capacity) out[pos] = (T)0; /* the branchless loop may have stored past the end */ \
    state[0] = 0;                                                                              \
    state[1] = 0;                                                                              \
    state[2] = bad;                                                                            \
    state[3] = pos;                                                                            \
    return JG_OK;                                                                              \
  }
JGK_LIST_MASK_VARIANTS(LIST_MASK)
