/* list_mask_select_cases.h: the parity cases shared by kernels "list_mask_select" and
 * "list_mask_offsets" (the two halves of the flat fused mask): one list level of x and of the
 * mask, built the same way for both, plus the rank words list_mask_offsets reads (computed here
 * on the host, as list_mask_select writes them). Included by the two <name>_parity.c files. */
#ifndef JGK_LIST_MASK_SELECT_CASES_H
#define JGK_LIST_MASK_SELECT_CASES_H

#include <string.h>

#include "jgk_parity.h"

#define LMS_CASES 16
#define LMS_TILE 4096
#define LMS_WORD 64

static const char *const lms_case_names[LMS_CASES] = {
    "no lists",
    "empty lists",
    "offsets not at 0",
    "sliced arrays (content on both sides)",
    "starts/stops not back to back (flag)",
    "unequal counts (flag)",
    "a list past its content (flag)",
    "unequal totals (flag)",
    "all-false mask",
    "all-true mask",
    "2^20 + 1 Poisson(3) lists",
    "one very long list",
    "a length a multiple of 4096 and of 64",
    "capacity below the total",
    "unaligned starts",
    "a length a multiple of 64, not of 4096"};

/** One built case: host arrays from jg_parity_alloc. */
typedef struct lms_case {
  int64_t n;
  jg_dtype ti, tt;
  void *xs, *xe, *ms, *me; /* n starts and stops of each side (index dtype) */
  int64_t x_length, mask_length;
  void *x;
  bool *mask;
  int64_t tiles, capacity, words;
  uint64_t *bits; /* the rank words of the flat stream (zero where it is not valid) */
  int64_t *pre;
  int64_t *state; /* tiles + 4, zero */
} lms_case;

/* Builds case c for the run's variant: index dtype `ti`, content dtype `tt` (JG_DTYPE_UINT8 for
 * list_mask_offsets, which has no content). */
static jg_status lms_build(jg_parity_ctx *ctx, int c, jg_dtype ti, jg_dtype tt, lms_case *k,
                           jg_error *err) {
  static const int64_t sizes[LMS_CASES] = {0,    1000, 777,  3000, 2000,          2000,
                                           1000, 1500, 4096, 4096, (1 << 20) + 1, 3,
                                           3072, 3000, 5000, 1000};
  jg_parity_case_name(ctx, lms_case_names[c]);
  const int64_t n = sizes[c];
  k->n = n;
  k->ti = ti;
  k->tt = tt;
  int64_t *cx = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  int64_t *cm = jg_parity_alloc(ctx, n + 1, JG_DTYPE_INT64);
  if (cx == NULL || cm == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  for (int64_t i = 0; i < n; ++i) {
    int64_t v;
    switch (c) {
      case 1:
        v = 0;
        break;
      case 11:
        v = i == 1 ? (1 << 20) + 5 : 0;
        break;
      case 12:
        v = 4; /* 3072 * 4 = 3 * 4096 */
        break;
      case 15:
        v = 64;
        break;
      default:
        v = jgk_parity_poisson(ctx, 3.0);
        break;
    }
    cx[i] = cm[i] = v;
  }
  if (c == 5) { /* list 700's counts differ; list 701's make the totals equal again */
    cm[700] += 1;
    cx[701] += 1;
  }
  if (c == 7) cm[n - 1] += 1;
  /* starts and stops: back to back from a base, with a gap at list 900 in case 4 */
  const int64_t xbase = c == 2 ? 100 : c == 3 ? 2 : c == 14 ? 3 : 0;
  const int64_t mbase = c == 2 ? 7 : c == 3 ? 5 : c == 14 ? 1 : 0;
  const int64_t xtail = c == 2 ? 13 : c == 3 ? 11 : 0, mtail = c == 2 ? 13 : c == 3 ? 6 : 0;
  k->xs = jg_parity_alloc(ctx, n, ti);
  k->xe = jg_parity_alloc(ctx, n, ti);
  k->ms = jg_parity_alloc(ctx, n, ti);
  k->me = jg_parity_alloc(ctx, n, ti);
  if (k->xs == NULL || k->xe == NULL || k->ms == NULL || k->me == NULL)
    return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  int64_t a = xbase, b = mbase;
  for (int64_t i = 0; i < n; ++i) {
    if (c == 4 && i == 900) { /* a gap of 2 in both: the totals still agree */
      a += 2;
      b += 2;
    }
    jgk_parity_put_index(k->xs, ti, i, a);
    jgk_parity_put_index(k->ms, ti, i, b);
    a += cx[i];
    b += cm[i];
    jgk_parity_put_index(k->xe, ti, i, a);
    jgk_parity_put_index(k->me, ti, i, b);
  }
  k->x_length = a + xtail;
  k->mask_length = b + mtail;
  if (c == 6) k->x_length = a > 0 ? a - 1 : 0; /* the last lists leave x's content */
  /* contents */
  const int64_t isz = jg_dtype_itemsize(tt);
  k->x = jg_parity_alloc(ctx, k->x_length, tt);
  k->mask = jg_parity_alloc(ctx, k->mask_length, JG_DTYPE_BOOL);
  if (k->x == NULL || k->mask == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  unsigned char *xb = k->x;
  for (int64_t j = 0; j < k->x_length * isz; ++j) xb[j] = (unsigned char)jg_parity_random(ctx);
  const double p_true = c == 8 ? 0.0 : c == 9 ? 1.0 : c == 11 ? 0.3 : 0.55;
  unsigned char *mb = (unsigned char *)k->mask;
  for (int64_t j = 0; j < k->mask_length; ++j) {
    /* any nonzero byte is true: some trues are other bytes than 1 */
    const bool t = jg_parity_uniform(ctx) < p_true;
    mb[j] = (unsigned char)(t ? (j % 5 == 0 ? 0x80 : 1) : 0);
  }
  /* sizes as the op picks them: bounds from the contents */
  const int64_t bound = k->x_length < k->mask_length ? k->x_length : k->mask_length;
  k->tiles = (bound + LMS_TILE - 1) / LMS_TILE;
  k->words = (bound + LMS_WORD - 1) / LMS_WORD + 1;
  int64_t kept = 0;
  const int64_t e_flat = a - xbase; /* the flat stream of the unflagged cases */
  for (int64_t j = 0; j < e_flat && mbase + j < k->mask_length; ++j) kept += mb[mbase + j] != 0;
  k->capacity = c == 13 ? kept / 4 : bound;
  k->bits = jg_parity_alloc(ctx, k->words, JG_DTYPE_UINT64);
  k->pre = jg_parity_alloc(ctx, k->words, JG_DTYPE_INT64);
  k->state = jg_parity_alloc(ctx, k->tiles + 4, JG_DTYPE_INT64);
  if (k->bits == NULL || k->pre == NULL || k->state == NULL)
    return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  /* the rank words (list_mask_offsets' input) over the valid part of the flat stream */
  int64_t run = 0;
  for (int64_t w = 0; w < k->words && w * LMS_WORD < e_flat; ++w) {
    uint64_t bw = 0;
    k->pre[w] = run;
    for (int64_t j = 0; j < LMS_WORD && w * LMS_WORD + j < e_flat; ++j) {
      const int64_t q = mbase + w * LMS_WORD + j;
      if (q < k->mask_length && mb[q] != 0) {
        bw |= 1ULL << j;
        ++run;
      }
    }
    k->bits[w] = bw;
  }
  return JG_OK;
}

#endif /* JGK_LIST_MASK_SELECT_CASES_H */
