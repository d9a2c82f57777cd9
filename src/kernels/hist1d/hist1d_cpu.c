/* hist1d_cpu.c: host reference of kernel "hist1d" (hist1d.json).
 *
 * counts (n_bins + 4 doubles): [0] underflow, [1..n_bins] bins, [n_bins+1] overflow,
 * [n_bins+2] entries (values in any bin), [n_bins+3] NaN values skipped. sumw2 (n_bins + 2):
 * summed squared weights per bin. Values are added to what the arrays hold. The bin of v is
 * computed in double precision as (v - lo) / w with w = (hi - lo) / n_bins, exactly as the CUDA
 * side does, so that both put every value in the same bin. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "jgk_hist1d.h"

/* The slot of v in counts (0 underflow, 1..n_bins, n_bins + 1 overflow), or -1 for NaN. */
static int64_t slot(double v, int64_t n_bins, double lo, double hi, double w) {
  if (isnan(v)) return -1;
  if (v < lo) return 0;
  if (v >= hi) return n_bins + 1;
  /* lo <= v < hi: the quotient is >= 0 and below about n_bins, so truncation is floor (and
   * needs no libm call on x86-64 without SSE4.1) */
  int64_t k = (int64_t)((v - lo) / w);
  if (k >= n_bins) k = n_bins - 1; /* rounding just below hi */
  if (k < 0) k = 0;
  return k + 1;
}

static jg_status axis_ok(int64_t n_bins, double lo, double hi, jg_error *err) {
  /* The bin width must be finite and positive too: hi - lo may overflow to inf (every value
   * would land in bin 0) and (hi - lo) / n_bins may underflow to 0 (NaN bins). */
  const double w = n_bins < 1 ? 0.0 : (hi - lo) / (double)n_bins;
  if (n_bins < 1 || !isfinite(lo) || !isfinite(hi) || !(lo < hi) || !isfinite(w) || !(w > 0.0)) {
    return jgk_hist1d_error(err, JGK_HIST1D_BAD_AXIS, n_bins);
  }
  return JG_OK;
}

/* Unweighted values of histograms of at most UNWEIGHTED_MAX_SLOTS - 3 bins are counted in
 * UNWEIGHTED_COPIES interleaved integer copies (value i in copy i mod COPIES: consecutive values
 * in one popular bin do not wait for each other's increment), flushed into the double arrays
 * every UNWEIGHTED_RUN values, before a uint32 could overflow. Slot n_bins + 2 of a copy takes
 * the NaN values. Counts are integers either way, so the result is the same as one by one. */
enum { UNWEIGHTED_COPIES = 4, UNWEIGHTED_MAX_SLOTS = 1024, UNWEIGHTED_RUN = 1 << 30 };

static void unweighted_flush(uint32_t sub[UNWEIGHTED_COPIES][UNWEIGHTED_MAX_SLOTS],
                             int64_t n_bins, double *counts, double *sumw2) {
  for (int64_t s = 0; s < n_bins + 2; ++s) {
    const double k = (double)sub[0][s] + (double)sub[1][s] + (double)sub[2][s] + (double)sub[3][s];
    counts[s] += k;
    sumw2[s] += k;
  }
  memset(sub, 0, sizeof(uint32_t) * UNWEIGHTED_COPIES * UNWEIGHTED_MAX_SLOTS);
}

#define HIST(T, W, S)                                                                           \
  jg_status jgk_hist1d_c_##S(int64_t n, const T *values, int64_t nw, const W *weights,          \
                             int64_t n_bins, double lo, double hi, int64_t use_shared,          \
                             double *counts, double *sumw2, jg_error *err) {                    \
    (void)use_shared;                                                                           \
    if (n == 0) return JG_OK; /* as the CUDA side, which launches nothing for no values */      \
    jg_status st = axis_ok(n_bins, lo, hi, err);                                                \
    if (st != JG_OK) return st;                                                                 \
    if (nw > 0 && nw < n) return jgk_hist1d_error(err, JGK_HIST1D_WEIGHTS_SHORT, nw);           \
    const double w = (hi - lo) / (double)n_bins;                                                \
    if (nw == 0 && n_bins + 3 <= UNWEIGHTED_MAX_SLOTS) {                                        \
      uint32_t sub[UNWEIGHTED_COPIES][UNWEIGHTED_MAX_SLOTS];                                    \
      int64_t nan = 0;                                                                          \
      memset(sub, 0, sizeof sub);                                                               \
      for (int64_t i0 = 0; i0 < n; i0 += UNWEIGHTED_RUN) {                                      \
        const int64_t i1 = n - i0 < UNWEIGHTED_RUN ? n : i0 + UNWEIGHTED_RUN;                   \
        for (int64_t i = i0; i < i1; ++i) {                                                     \
          const int64_t s = slot((double)values[i], n_bins, lo, hi, w);                         \
          nan += s < 0;                                                                         \
          sub[i & (UNWEIGHTED_COPIES - 1)][s < 0 ? n_bins + 2 : s]++;                           \
        }                                                                                       \
        unweighted_flush(sub, n_bins, counts, sumw2);                                           \
      }                                                                                         \
      counts[n_bins + 2] += (double)(n - nan);                                                  \
      counts[n_bins + 3] += (double)nan;                                                        \
      return JG_OK;                                                                             \
    }                                                                                           \
    for (int64_t i = 0; i < n; ++i) {                                                           \
      const int64_t s = slot((double)values[i], n_bins, lo, hi, w);                             \
      if (s < 0) {                                                                              \
        counts[n_bins + 3] += 1.0;                                                              \
        continue;                                                                               \
      }                                                                                         \
      const double wt = nw > 0 ? (double)weights[i] : 1.0;                                      \
      counts[s] += wt;                                                                          \
      sumw2[s] += wt * wt;                                                                      \
      counts[n_bins + 2] += 1.0;                                                                \
    }                                                                                           \
    return JG_OK;                                                                               \
  }
JGK_HIST1D_VARIANTS(HIST)
