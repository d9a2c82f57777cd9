/* jgk_comb_values.h: the host side's work on one tile of kernel "combinations_values", shared by
 * its "c" and "openmp" implementations (combinations_values_cpu.c, combinations_values_openmp.c).
 * Internal, header-only. */
#ifndef JGK_COMB_VALUES_H
#define JGK_COMB_VALUES_H

#include <stdint.h>

#include "combinations_values/jgk_comb_count.h"

/** Combinations of list [a, b) of a content of m items: 0 for a bad list (stops < starts, or not
 *  empty and outside [0, m)) or a count above INT64_MAX, else jgk_comb_count. */
static inline int64_t jgk_comb_list_count(int64_t a, int64_t b, int64_t m, int64_t k,
                                          int64_t replacement) {
  if (b < a || (a < b && (a < 0 || b > m))) return 0;
  const int64_t c = jgk_comb_count(b - a, k, replacement);
  return c < 0 ? 0 : c;
}

/** Tile t of kernel combinations_values, in the scope of its arguments (n, starts, stops, m,
 *  content, k, replacement, tile, tile_offsets, total, offsets, out), for element type T. The
 *  tile's sum wraps in uint64 as on the device (it only matters for inputs the operation never
 *  passes: a tile that does not fit writes nothing). */
#define JGK_COMB_VALUES_TILE(T, t)                                                             \
  do {                                                                                         \
    const int64_t first_ = (t) * tile, last_ = n - first_ < tile ? n : first_ + tile;          \
    const int64_t base_ = tile_offsets[t];                                                     \
    uint64_t sum_ = 0;                                                                         \
    for (int64_t i_ = first_; i_ < last_; ++i_) {                                              \
      sum_ += (uint64_t)jgk_comb_list_count((int64_t)starts[i_], (int64_t)stops[i_], m, k,     \
                                            replacement);                                      \
    }                                                                                          \
    const int64_t s_ = sum_ > (uint64_t)INT64_MAX ? -1 : (int64_t)sum_;                        \
    if (base_ < 0 || s_ < 0 || base_ > total - s_) break;                                      \
    int64_t pos_ = base_;                                                                      \
    for (int64_t i_ = first_; i_ < last_; ++i_) {                                              \
      const int64_t a_ = (int64_t)starts[i_], b_ = (int64_t)stops[i_];                         \
      const int64_t c_ = jgk_comb_list_count(a_, b_, m, k, replacement);                       \
      if (c_ > 0) {                                                                            \
        const T *v_ = content + a_;                                                            \
        const int64_t len_ = b_ - a_;                                                          \
        if (k == 2 && replacement == 0) {                                                      \
          T *o0_ = out + pos_, *o1_ = out + total + pos_;                                      \
          int64_t p_ = 0;                                                                      \
          for (int64_t x_ = 0; x_ < len_ - 1; ++x_) {                                          \
            const T vx_ = v_[x_];                                                              \
            for (int64_t y_ = x_ + 1; y_ < len_; ++y_, ++p_) {                                 \
              o0_[p_] = vx_;                                                                   \
              o1_[p_] = v_[y_];                                                                \
            }                                                                                  \
          }                                                                                    \
        } else {                                                                               \
          int64_t idx_[4];                                                                     \
          for (int64_t q_ = 0; q_ < k; ++q_) idx_[q_] = replacement != 0 ? 0 : q_;            \
          for (int64_t p_ = 0; p_ < c_; ++p_) {                                                \
            for (int64_t q_ = 0; q_ < k; ++q_) out[q_ * total + pos_ + p_] = v_[idx_[q_]];     \
            int64_t q_ = k - 1;                                                                \
            if (replacement != 0) {                                                            \
              while (q_ >= 0 && idx_[q_] == len_ - 1) q_--;                                    \
              if (q_ < 0) break;                                                               \
              idx_[q_]++;                                                                      \
              for (int64_t r_ = q_ + 1; r_ < k; ++r_) idx_[r_] = idx_[q_];                     \
            } else {                                                                           \
              while (q_ >= 0 && idx_[q_] == len_ - k + q_) q_--;                               \
              if (q_ < 0) break;                                                               \
              idx_[q_]++;                                                                      \
              for (int64_t r_ = q_ + 1; r_ < k; ++r_) idx_[r_] = idx_[r_ - 1] + 1;             \
            }                                                                                  \
          }                                                                                    \
        }                                                                                      \
        pos_ += c_;                                                                            \
      }                                                                                        \
      offsets[i_ + 1] = pos_;                                                                  \
    }                                                                                          \
  } while (0)

#endif /* JGK_COMB_VALUES_H */
