/* list_mask_offsets_cpu.c: host reference of kernel "list_mask_offsets" (list_mask_offsets.json):
 * one loop over the lists, checking each (back to back, equal counts, the same place in both
 * streams) and ranking its start in the flat stream with list_mask_select's rank words. */
#include "jgk_list_mask_offsets.h"

/* Elements per rank word. */
#define WORD 64

/* The kept elements before element p (0 <= p, (p - 1) / WORD < words) of the flat stream. */
static int64_t rank_at(const uint64_t *bits, const int64_t *pre, int64_t p) {
  if (p <= 0) return 0;
  const int64_t w = (p - 1) / WORD;
  const int hi = (int)(p - w * WORD); /* 1..64 bits of word w lie before p */
  const uint64_t below = hi == WORD ? ~0ULL : (1ULL << hi) - 1ULL;
  return pre[w] + (int64_t)__builtin_popcountll(bits[w] & below);
}

#define LIST_MASK_OFFSETS(I, S)                                                                \
  jg_status jgk_list_mask_offsets_c_##S(int64_t n, const I *x_starts, const I *x_stops,        \
                                        const I *mask_starts, const I *mask_stops,             \
                                        int64_t words, const uint64_t *bits,                   \
                                        const int64_t *pre, int64_t tiles, int64_t *offsets,   \
                                        int64_t *state, jg_error *err) {                       \
    (void)err;                                                                                 \
    (void)tiles;                                                                               \
    if (n <= 0) return JG_OK; /* no lists: nothing (the CUDA side is not even launched) */     \
    const int64_t x0 = (int64_t)x_starts[0], xe = (int64_t)x_stops[n - 1];                     \
    const int64_t m0 = (int64_t)mask_starts[0], me = (int64_t)mask_stops[n - 1];               \
    if (x0 < 0 || xe < x0 || m0 < 0 || me < m0 || me - m0 != xe - x0 ||                        \
        words < 0 || (uint64_t)(xe - x0) > (uint64_t)words * WORD) {                           \
      state[2] = 1;                                                                            \
      return JG_OK;                                                                            \
    }                                                                                          \
    bool bad = false;                                                                          \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const int64_t a = (int64_t)x_starts[i], b = (int64_t)x_stops[i];                         \
      const int64_t c = (int64_t)mask_starts[i], d = (int64_t)mask_stops[i];                   \
      const bool in_x = a >= x0 && a <= xe;                                                    \
      bool ok = in_x && b >= a && b <= xe && c >= m0 && d >= c && d <= me &&                   \
                b - a == d - c && c - m0 == a - x0;                                            \
      if (i + 1 < n)                                                                           \
        ok = ok && b == (int64_t)x_starts[i + 1] && d == (int64_t)mask_starts[i + 1];          \
      bad = bad || !ok;                                                                        \
      offsets[i] = in_x ? rank_at(bits, pre, a - x0) : 0;                                      \
    }                                                                                          \
    offsets[n] = rank_at(bits, pre, xe - x0);                                                  \
    if (bad) state[2] = 1;                                                                     \
    return JG_OK;                                                                              \
  }
JGK_LIST_MASK_OFFSETS_VARIANTS(LIST_MASK_OFFSETS)
