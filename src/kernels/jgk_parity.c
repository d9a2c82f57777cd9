/* jgk_parity.c: helpers shared by the kernels' parity cases (jgk_parity.h). */
#include "jgk_parity.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void jgk_parity_put_index(void *a, jg_dtype dt, int64_t i, int64_t v) {
  if (dt == JG_DTYPE_INT32)
    ((int32_t *)a)[i] = (int32_t)v;
  else
    ((int64_t *)a)[i] = v;
}

int64_t jgk_parity_get_index(const void *a, jg_dtype dt, int64_t i) {
  return dt == JG_DTYPE_INT32 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

void jgk_parity_random_offsets(jg_parity_ctx *ctx, void *offsets, jg_dtype dt, int64_t n,
                               int64_t start, double p_empty, int64_t lo, int64_t hi) {
  int64_t at = start;
  jgk_parity_put_index(offsets, dt, 0, at);
  for (int64_t i = 0; i < n; ++i) {
    int64_t c = 0;
    if (jg_parity_uniform(ctx) >= p_empty)
      c = lo + (int64_t)(jg_parity_random(ctx) % (uint64_t)(hi - lo + 1));
    at += c;
    jgk_parity_put_index(offsets, dt, i + 1, at);
  }
}

/* ------------------------------------------------------------ reduction kernels */

int64_t jgk_parity_poisson(jg_parity_ctx *ctx, double lambda) {
  const double limit = exp(-lambda);
  int64_t k = 0;
  double p = jg_parity_uniform(ctx);
  while (p > limit) {
    ++k;
    p *= jg_parity_uniform(ctx);
  }
  return k;
}

int64_t jgk_parity_uniform_in(jg_parity_ctx *ctx, int64_t lo, int64_t hi) {
  return lo + (int64_t)(jg_parity_random(ctx) % (uint64_t)(hi - lo + 1));
}

/* Consecutive lists from `start` with Poisson(lambda) lengths, a fraction `p_long` of them
 * uniform in [long_lo, long_hi] instead; returns the end of the last list. */
static int64_t consecutive(jg_parity_ctx *ctx, jgk_parity_lists *l, jg_dtype dt, int64_t start,
                           double lambda, double p_long, int64_t long_lo, int64_t long_hi) {
  int64_t at = start;
  for (int64_t i = 0; i < l->n; ++i) {
    int64_t c;
    if (p_long > 0 && jg_parity_uniform(ctx) < p_long)
      c = jgk_parity_uniform_in(ctx, long_lo, long_hi);
    else
      c = jgk_parity_poisson(ctx, lambda);
    jgk_parity_put_index(l->starts, dt, i, at);
    at += c;
    jgk_parity_put_index(l->stops, dt, i, at);
  }
  return at;
}

static const char *const kLayoutNames[JGK_PARITY_LIST_LAYOUTS] = {
    "no lists",
    "no lists, content of 5",
    "one list",
    "all lists empty, starting anywhere",
    "last list empty",
    "offsets not at 0, content past the last list",
    "permuted and overlapping lists",
    "32 lists",
    "1024 lists of 0..100",
    "4096 lists, some long",
    "bad lists among a few warps' lists",
    "negative m",
    "2^20 + 1 lists",
    "one list of 2^22 + 3 between empty ones",
    "stops < starts late in 2^20 + 1 lists, a list past m later"};

jg_status jgk_parity_lists_make(jg_parity_ctx *ctx, int layout, jg_dtype dt, jgk_parity_lists *l,
                                jg_error *err) {
  static const int64_t sizes[JGK_PARITY_LIST_LAYOUTS] = {
      0, 0, 1, 1000, 33, 500, 3000, 32, 1024, 4096, 100, 3, (1 << 20) + 1, 3, (1 << 20) + 1};
  if (layout < 0 || layout >= JGK_PARITY_LIST_LAYOUTS) {
    return jg_error_set(err, JG_EINVAL, layout, "parity: no list layout %d", layout);
  }
  memset(l, 0, sizeof *l);
  l->n = sizes[layout];
  l->name = kLayoutNames[layout];
  l->starts = jg_parity_alloc(ctx, l->n, dt);
  l->stops = jg_parity_alloc(ctx, l->n, dt);
  if (l->starts == NULL || l->stops == NULL) {
    return jg_error_set(err, JG_ENOMEM, -1, "parity: out of memory");
  }
  const int64_t n = l->n;
  switch (layout) {
    case 0:
      l->m = 0;
      break;
    case 1:
      l->m = 5;
      break;
    case 2:
      jgk_parity_put_index(l->starts, dt, 0, 2);
      jgk_parity_put_index(l->stops, dt, 0, 9);
      l->m = 12;
      break;
    case 3:
      for (int64_t i = 0; i < n; ++i) {
        const int64_t s = jgk_parity_uniform_in(ctx, -INT32_MAX, INT32_MAX);
        jgk_parity_put_index(l->starts, dt, i, s);
        jgk_parity_put_index(l->stops, dt, i, s);
      }
      l->m = 10;
      break;
    case 4:
      l->m = consecutive(ctx, l, dt, 0, 4.0, 0.0, 0, 0);
      jgk_parity_put_index(l->stops, dt, n - 1, jgk_parity_get_index(l->starts, dt, n - 1));
      break;
    case 5:
      l->m = consecutive(ctx, l, dt, 777, 5.0, 0.0, 0, 0) + 100;
      break;
    case 6:
      l->m = 5000;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t c =
            jg_parity_uniform(ctx) < 0.05 ? jgk_parity_uniform_in(ctx, 0, 300)
                                          : jgk_parity_poisson(ctx, 6.0);
        const int64_t s = jgk_parity_uniform_in(ctx, 0, l->m - c);
        jgk_parity_put_index(l->starts, dt, i, s);
        jgk_parity_put_index(l->stops, dt, i, s + c);
      }
      break;
    case 7:
      l->m = consecutive(ctx, l, dt, 0, 3.0, 0.0, 0, 0);
      break;
    case 8:
      l->m = consecutive(ctx, l, dt, 0, 3.0, 1.0, 0, 100);
      break;
    case 9:
      l->m = consecutive(ctx, l, dt, 0, 3.0, 0.01, 500, 2000);
      break;
    case 10:
      l->m = consecutive(ctx, l, dt, 0, 3.0, 0.0, 0, 0);
      jgk_parity_put_index(l->starts, dt, 10, -100); /* empty: fine anywhere */
      jgk_parity_put_index(l->stops, dt, 10, -100);
      jgk_parity_put_index(l->stops, dt, 41, l->m + 3); /* past m: the first bad list */
      jgk_parity_put_index(l->starts, dt, 45, -1);      /* before 0 */
      jgk_parity_put_index(l->stops, dt, 60, jgk_parity_get_index(l->starts, dt, 60) - 2);
      break;
    case 11:
      jgk_parity_put_index(l->starts, dt, 1, 5);
      jgk_parity_put_index(l->stops, dt, 1, 5);
      jgk_parity_put_index(l->starts, dt, 2, 1);
      jgk_parity_put_index(l->stops, dt, 2, 2);
      l->m = -2;
      break;
    case 12:
      l->m = consecutive(ctx, l, dt, 0, 3.0, 0.0, 0, 0);
      break;
    case 13: {
      const int64_t len = ((int64_t)1 << 22) + 3;
      jgk_parity_put_index(l->starts, dt, 0, 5);
      jgk_parity_put_index(l->stops, dt, 0, 5);
      jgk_parity_put_index(l->starts, dt, 1, 5);
      jgk_parity_put_index(l->stops, dt, 1, 5 + len);
      jgk_parity_put_index(l->starts, dt, 2, 5 + len);
      jgk_parity_put_index(l->stops, dt, 2, 5 + len);
      l->m = 5 + len + 2;
      break;
    }
    default: /* 14 */
      l->m = consecutive(ctx, l, dt, 0, 2.0, 0.0, 0, 0);
      jgk_parity_put_index(l->stops, dt, 700000, jgk_parity_get_index(l->starts, dt, 700000) - 1);
      jgk_parity_put_index(l->stops, dt, 900000, l->m + 1);
      break;
  }
  l->content_length = l->m > 0 ? l->m : 0;
  return JG_OK;
}

/* The smallest and largest value of an integer dtype, as int64 / uint64 bit patterns. */
static void int_range(jg_dtype dt, int64_t *lo, uint64_t *hi) {
  switch (dt) {
    case JG_DTYPE_INT8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case JG_DTYPE_INT16: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case JG_DTYPE_INT32: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case JG_DTYPE_INT64: *lo = INT64_MIN; *hi = INT64_MAX; break;
    case JG_DTYPE_UINT8: *lo = 0; *hi = UINT8_MAX; break;
    case JG_DTYPE_UINT16: *lo = 0; *hi = UINT16_MAX; break;
    case JG_DTYPE_UINT32: *lo = 0; *hi = UINT32_MAX; break;
    default: *lo = 0; *hi = UINT64_MAX; break;
  }
}

static double float_value(uint64_t r, jgk_parity_values kind) {
  if (kind == JGK_VALUES_UNITS) {
    switch (r % 512) {
      case 0: return NAN;
      case 1: return 2.0;
      case 2: return 0.5;
      case 3: return -2.0;
      case 4: return -0.5;
      default: return (r >> 32) & 1 ? 1.0 : -1.0;
    }
  }
  if (kind == JGK_VALUES_SPARSE) {
    if (r % 32 != 0) return 0.0;
    r >>= 5;
  }
  switch (r % 1000) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return -0.0;
    default: return (double)((int64_t)((r >> 16) % 33) - 16) / 4.0;
  }
}

/* An integer value of `kind` for a type with range [lo, hi], as a 64-bit pattern. */
static uint64_t int_value(uint64_t r, jgk_parity_values kind, bool is_signed, int64_t lo,
                          uint64_t hi) {
  const uint64_t small = is_signed ? (uint64_t)((int64_t)((r >> 8) % 13) - 6) : (r >> 8) % 13;
  switch (kind) {
    case JGK_VALUES_SMALL:
      return small;
    case JGK_VALUES_UNITS:
      if (r % 16 == 0) return small;
      return !is_signed || (r >> 40) & 1 ? 1 : (uint64_t)-1;
    case JGK_VALUES_SPARSE:
      if (r % 32 != 0) return 0;
      return int_value(r >> 5, JGK_VALUES_MIXED, is_signed, lo, hi);
    default:
      switch (r % 32) {
        case 0: return (uint64_t)lo;
        case 1: return hi;
        default: return small;
      }
  }
}

void *jgk_parity_content(jg_parity_ctx *ctx, jg_dtype dt, int64_t length, jgk_parity_values kind) {
  void *a = jg_parity_alloc(ctx, length, dt);
  if (a == NULL) return NULL;
  int64_t lo = 0;
  uint64_t hi = 0;
  int_range(dt, &lo, &hi);
  const bool is_signed = lo < 0;
  for (int64_t i = 0; i < length; ++i) {
    const uint64_t r = jg_parity_random(ctx);
    switch (dt) {
      case JG_DTYPE_BOOL: {
        bool v;
        if (kind == JGK_VALUES_UNITS)
          v = r % 32 != 0;
        else if (kind == JGK_VALUES_SPARSE)
          v = r % 32 == 0;
        else
          v = (r >> 8) & 1;
        ((bool *)a)[i] = v;
        break;
      }
      case JG_DTYPE_FLOAT32: ((float *)a)[i] = (float)float_value(r, kind); break;
      case JG_DTYPE_FLOAT64: ((double *)a)[i] = float_value(r, kind); break;
      default: {
        const uint64_t v = int_value(r, kind, is_signed, lo, hi);
        switch (dt) {
          case JG_DTYPE_INT8: ((int8_t *)a)[i] = (int8_t)(int64_t)v; break;
          case JG_DTYPE_INT16: ((int16_t *)a)[i] = (int16_t)(int64_t)v; break;
          case JG_DTYPE_INT32: ((int32_t *)a)[i] = (int32_t)(int64_t)v; break;
          case JG_DTYPE_INT64: ((int64_t *)a)[i] = (int64_t)v; break;
          case JG_DTYPE_UINT8: ((uint8_t *)a)[i] = (uint8_t)v; break;
          case JG_DTYPE_UINT16: ((uint16_t *)a)[i] = (uint16_t)v; break;
          case JG_DTYPE_UINT32: ((uint32_t *)a)[i] = (uint32_t)v; break;
          default: ((uint64_t *)a)[i] = v; break;
        }
        break;
      }
    }
  }
  return a;
}

jg_status jgk_parity_reduce_args(jg_parity_ctx *ctx, int layout, jgk_parity_values kind,
                                 const char *suffix, jg_kernel_arg *args, int64_t *n,
                                 jg_error *err) {
  const jg_dtype idt = jg_parity_dtype(ctx, 1), cdt = jg_parity_dtype(ctx, 4);
  jgk_parity_lists l;
  JG_RETURN_NOT_OK(jgk_parity_lists_make(ctx, layout, idt, &l, err));
  void *content = jgk_parity_content(ctx, cdt, l.content_length, kind);
  if (content == NULL) return jg_error_set(err, JG_ENOMEM, -1, "parity: out of memory");
  char name[160];
  snprintf(name, sizeof name, "%s%s", l.name, suffix != NULL ? suffix : "");
  jg_parity_case_name(ctx, name);
  const jg_device host = JG_DEVICE_HOST_INIT;
  args[0] = jg_arg_i64(l.n);
  args[1] = jg_arg_array(l.starts, l.n, idt, host);
  args[2] = jg_arg_array(l.stops, l.n, idt, host);
  args[3] = jg_arg_i64(l.m);
  args[4] = jg_arg_array(content, l.content_length, cdt, host);
  *n = l.n;
  return JG_OK;
}

int64_t jgk_parity_alternate(const jg_parity_ctx *ctx, int case_index) {
  return (int64_t)(((size_t)case_index + jg_parity_variant(ctx)) & 1u);
}

/* The cases of kernels that map lists given as offsets to one int64 per element (local_index,
 * list_parents): the list-length regimes and data errors described in jgk_parity.h. */
#define N_ELEMENT_CASES 15

jg_status jgk_parity_element_cases(const char *kernel, jg_parity_ctx *ctx, int case_index,
                                   jg_kernel_arg *args, jg_error *err) {
  static const int64_t sizes[N_ELEMENT_CASES] = {
      0, 0, 1, 1000, 33, 32, 1024, 4096, (1 << 20) + 1, 3, 100, (1 << 20) + 1, 4096, 5000, 2};
  static const char *const names[N_ELEMENT_CASES] = {"no lists, no content",
                                             "no lists, m = 3",
                                             "one list",
                                             "all lists empty",
                                             "last list empty",
                                             "offsets not at 0",
                                             "1024 lists, mostly empty",
                                             "4096 lists of 0..64",
                                             "2^20 + 1 random lists",
                                             "one list of 2^22 + 3 between empty ones",
                                             "m larger than the lists cover",
                                             "a decrease late in 2^20 + 1 lists, another later",
                                             "lists run past offsets[0] + m, a decrease later",
                                             "a decrease among empty lists, m = 0",
                                             "negative m"};
  if (case_index < 0 || case_index >= N_ELEMENT_CASES) {
    return jg_error_set(err, JG_EINVAL, case_index, "%s parity: no case %d", kernel, case_index);
  }
  const int64_t n = sizes[case_index];
  jg_parity_case_name(ctx, names[case_index]);
  const jg_dtype dt = jg_parity_dtype(ctx, 2);
  void *offsets = jg_parity_alloc(ctx, n + 1, dt);
  if (offsets == NULL) return jg_error_set(err, JG_ENOMEM, -1, "%s parity: out of memory", kernel);
  int64_t extra = 0; /* m - (offsets[n] - offsets[0]) */
  switch (case_index) {
    case 0:
      jgk_parity_put_index(offsets, dt, 0, 7);
      break;
    case 1:
      jgk_parity_put_index(offsets, dt, 0, 7);
      extra = 3;
      break;
    case 2:
      jgk_parity_put_index(offsets, dt, 0, 2);
      jgk_parity_put_index(offsets, dt, 1, 7);
      break;
    case 3:
      for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(offsets, dt, i, 4);
      break;
    case 4:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.0, 0, 4);
      jgk_parity_put_index(offsets, dt, n, jgk_parity_get_index(offsets, dt, n - 1));
      break;
    case 5:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 1000, 0.0, 0, 9);
      break;
    case 6:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.9, 1, 20);
      break;
    case 7:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 17, 0.0, 0, 64);
      break;
    case 8:
      jgk_parity_random_offsets(ctx, offsets, dt, n, (int64_t)(jg_parity_random(ctx) % 1000), 0.1, 1, 7);
      break;
    case 9:
      jgk_parity_put_index(offsets, dt, 0, 11);
      jgk_parity_put_index(offsets, dt, 1, 11);
      jgk_parity_put_index(offsets, dt, 2, 11 + ((int64_t)1 << 22) + 3);
      jgk_parity_put_index(offsets, dt, 3, jgk_parity_get_index(offsets, dt, 2));
      break;
    case 10:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 5, 0.0, 0, 6);
      extra = 50;
      break;
    case 11:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 0, 0.0, 0, 7);
      jgk_parity_put_index(offsets, dt, 700001, jgk_parity_get_index(offsets, dt, 700000) - 1);
      jgk_parity_put_index(offsets, dt, 900001, jgk_parity_get_index(offsets, dt, 900000) - 1);
      break;
    case 12:
      jgk_parity_random_offsets(ctx, offsets, dt, n, 3, 0.0, 0, 7);
      jgk_parity_put_index(offsets, dt, 3001, jgk_parity_get_index(offsets, dt, 3000) - 1);
      /* m = offsets[2000] - offsets[0]: the first non-empty list from 2000 on runs past it. */
      extra = -(jgk_parity_get_index(offsets, dt, n) - jgk_parity_get_index(offsets, dt, 2000));
      break;
    case 13:
      for (int64_t i = 0; i <= n; ++i) jgk_parity_put_index(offsets, dt, i, 4);
      jgk_parity_put_index(offsets, dt, 4001, 3);
      break;
    default: /* 14 */
      jgk_parity_put_index(offsets, dt, 0, 0);
      jgk_parity_put_index(offsets, dt, 1, 0);
      jgk_parity_put_index(offsets, dt, 2, 1);
      extra = -2;
      break;
  }
  /* Cases 11 and 13 have m = offsets[n] - offsets[0] with the decreases counted in. */
  int64_t m = jgk_parity_get_index(offsets, dt, n) - jgk_parity_get_index(offsets, dt, 0) + extra;
  if (case_index == 13) m = 0;
  const int64_t out_len = (m > 0 ? m : 0) + 3;
  int64_t *out = jg_parity_alloc(ctx, out_len, JG_DTYPE_INT64);
  if (out == NULL) return jg_error_set(err, JG_ENOMEM, -1, "%s parity: out of memory", kernel);
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(m);
  args[2] = jg_arg_array(offsets, n + 1, dt, (jg_device)JG_DEVICE_HOST_INIT);
  args[3] = jg_arg_array(out, out_len, JG_DTYPE_INT64, (jg_device)JG_DEVICE_HOST_INIT);
  return JG_OK;
}
