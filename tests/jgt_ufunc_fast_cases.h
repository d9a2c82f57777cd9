/* jgt_ufunc_fast_cases.h: the fast paths of the ufuncs (src/ops/ufunc.c: jagged op one value per
 * list, jagged op scalar, elementwise jagged op jagged through ufunc_binary_lists) against the
 * general broadcast path on the same lists, run on the host by tests/unit/test_ufunc_fast.c and
 * on the GPU by tests/gpu/test_ufunc_fast_gpu.c.
 *
 * Each case builds its jagged input twice: as a list-offset node with int64 offsets (the shape
 * the fast paths take) and as the same lists in a shape they do not take (int32 offsets, or a
 * list node with starts and stops), which runs the general path. The two results must print the
 * same (values, None, type) and have the same leaf bytes; the fast result's offsets start at 0
 * and are the input's own buffer when the input's offsets start at 0. Layouts: no lists, all
 * lists empty, offsets not starting at 0 (at 3; and at 8, on a 16-byte boundary of float32, with
 * a last list empty), a sliced array, one very long list (content far longer than 8 per list:
 * the path that reads the first and last offset first), 1000 lists with a last one empty, a
 * list node, a content longer than the lists need, 100000 lists. */
#ifndef JAGGED_TESTS_JGT_UFUNC_FAST_CASES_H
#define JAGGED_TESTS_JGT_UFUNC_FAST_CASES_H

#include <math.h>
#include <stdlib.h>

#include "jagged/ufunc.h"
#include "jgt_array_cases.h"

#define JGT_UFC_LAYOUTS 9

/* Counts and placement of layout k: n lists, counts[i], first offset `start`, `extra` values
 * after the last list. Deterministic. Returns n; fills *counts (malloc'd). */
static inline jg_len jgt_ufc_counts(int k, int64_t **counts, int64_t *start, int64_t *extra) {
  static const jg_len ns[JGT_UFC_LAYOUTS] = {0, 5, 4, 1000, 3, 1000, 1000, 50, 100000};
  const jg_len n = ns[k];
  int64_t *c = calloc((size_t)n + 1, sizeof *c);
  uint64_t seed = 12345u + (uint64_t)k;
  for (jg_len i = 0; i < n; i++) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    c[i] = (int64_t)((seed >> 33) % 7);
  }
  *start = 0;
  *extra = 0;
  if (k == 1) memset(c, 0, (size_t)n * sizeof *c);
  if (k == 2) {
    *start = 3;
    *extra = 4;
  }
  if (k == 4) {
    c[0] = 0;
    c[1] = 200000;
    c[2] = 0;
  }
  if (k == 5 || k == 6) c[n - 1] = 0;
  if (k == 6) *start = 8; /* not at 0, but on a 16-byte vector boundary of float32 */
  if (k == 7) *extra = 40;
  *counts = c;
  return n;
}

/* Value j of a content of dtype dt: small values with a NaN, -0.0 and an infinity for floats. */
static inline double jgt_ufc_value(int64_t j) {
  if (j % 97 == 5) return NAN;
  if (j % 89 == 7) return -0.0;
  if (j % 331 == 11) return INFINITY;
  return (double)((j * 37) % 23) * 0.5 - 5.0;
}

static inline void jgt_ufc_put(void *a, jg_dtype dt, int64_t i, double v) {
  switch (dt) {
    case JG_DTYPE_FLOAT32: ((float *)a)[i] = (float)v; break;
    case JG_DTYPE_FLOAT64: ((double *)a)[i] = v; break;
    case JG_DTYPE_INT32: ((int32_t *)a)[i] = isfinite(v) ? (int32_t)(v * 2) : 7; break;
    default: ((int64_t *)a)[i] = isfinite(v) ? (int64_t)(v * 2) : -7; break;
  }
}

/* Layout k's lists over values of dtype dt: shape 0 int64 offsets (fast), 1 int32 offsets, 2 a
 * list node (starts and stops, stored in reverse order). Layout 3 is a slice [100, 900) of
 * layout 3's full lists. */
static inline jg_array *jgt_ufc_jagged(int k, jg_dtype dt, int shape) {
  int64_t *counts, start, extra;
  const jg_len n = jgt_ufc_counts(k, &counts, &start, &extra);
  int64_t *off = malloc(((size_t)n + 1) * sizeof *off);
  int32_t *off32 = malloc(((size_t)n + 1) * sizeof *off32);
  off[0] = start;
  for (jg_len i = 0; i < n; i++) off[i + 1] = off[i] + counts[i];
  const jg_len m = off[n] + extra;
  void *vals = malloc((size_t)(m > 0 ? m : 1) * 8);
  for (jg_len j = 0; j < m; j++) jgt_ufc_put(vals, dt, j, jgt_ufc_value(j));
  for (jg_len i = 0; i <= n; i++) off32[i] = (int32_t)off[i];
  jg_array *a;
  if (shape == 2) {
    /* Lists stored in reverse order: list i's values copied to the back. */
    void *rv = malloc((size_t)(m > 0 ? m : 1) * 8);
    int64_t *starts = malloc(((size_t)n + 1) * sizeof *starts);
    int64_t *stops = malloc(((size_t)n + 1) * sizeof *stops);
    const int64_t isz = jg_dtype_itemsize(dt);
    int64_t pos = m;
    for (jg_len i = 0; i < n; i++) {
      pos -= counts[i];
      starts[i] = pos;
      stops[i] = pos + counts[i];
      memcpy((char *)rv + isz * pos, (char *)vals + isz * off[i], (size_t)(isz * counts[i]));
    }
    a = jgt_list(starts, stops, n, n, JG_DTYPE_INT64, jgt_numeric(rv, m, dt));
    free(rv);
    free(starts);
    free(stops);
  } else if (shape == 1) {
    a = jgt_list_offset(off32, n + 1, JG_DTYPE_INT32, jgt_numeric(vals, m, dt));
  } else {
    a = jgt_offsets64(off, n + 1, jgt_numeric(vals, m, dt));
  }
  free(counts);
  free(off);
  free(off32);
  free(vals);
  if (k == 3) a = jgt_slice(a, 100, 900);
  return a;
}

/* One value per list of layout k (after its slice), dtype dt, `more` extra values. */
static inline jg_array *jgt_ufc_per_list(int k, jg_dtype dt, jg_len more) {
  int64_t *counts, start, extra;
  jg_len n = jgt_ufc_counts(k, &counts, &start, &extra);
  free(counts);
  if (k == 3) n = 800;
  n += more;
  void *vals = malloc((size_t)(n > 0 ? n : 1) * 8);
  for (jg_len i = 0; i < n; i++) jgt_ufc_put(vals, dt, i, jgt_ufc_value(3 * i + 1) + 0.25);
  jg_array *a = jgt_numeric(vals, n, dt);
  free(vals);
  return a;
}

/* The operations: 0 x op w, 1 w op x, 2 x op scalar, 3 scalar op x. */
typedef struct jgt_ufc_op {
  const char *name;
  int kind;
  jg_ufunc f;
  jg_dtype xdt, wdt; /* content and per-list dtypes */
  jg_scalar s;
} jgt_ufc_op;

static inline const jgt_ufc_op *jgt_ufc_ops(int *count) {
  static jgt_ufc_op ops[12];
  static int n = 0;
  if (n == 0) {
    ops[n++] = (jgt_ufc_op){"x * w", 0, JG_UFUNC_MULTIPLY, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT32,
                            jg_scalar_float(0)};
    ops[n++] = (jgt_ufc_op){"w - x", 1, JG_UFUNC_SUBTRACT, JG_DTYPE_FLOAT64, JG_DTYPE_FLOAT64,
                            jg_scalar_float(0)};
    ops[n++] = (jgt_ufc_op){"x < w", 0, JG_UFUNC_LESS, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT32,
                            jg_scalar_float(0)};
    ops[n++] = (jgt_ufc_op){"minimum(w, x)", 1, JG_UFUNC_MINIMUM, JG_DTYPE_FLOAT32,
                            JG_DTYPE_FLOAT32, jg_scalar_float(0)};
    ops[n++] = (jgt_ufc_op){"x / w (float64 x, float32 w cast)", 0, JG_UFUNC_TRUE_DIVIDE,
                            JG_DTYPE_FLOAT64, JG_DTYPE_FLOAT32, jg_scalar_float(0)};
    ops[n++] = (jgt_ufc_op){"x & w (int32)", 0, JG_UFUNC_BITWISE_AND, JG_DTYPE_INT32,
                            JG_DTYPE_INT32, jg_scalar_float(0)};
    ops[n++] = (jgt_ufc_op){"x + w (int64 x, float32 w: promoted, general)", 0, JG_UFUNC_ADD,
                            JG_DTYPE_INT64, JG_DTYPE_FLOAT32, jg_scalar_float(0)};
    ops[n++] = (jgt_ufc_op){"x * 2", 2, JG_UFUNC_MULTIPLY, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT32,
                            jg_scalar_float(2.0)};
    ops[n++] = (jgt_ufc_op){"1.5 - x", 3, JG_UFUNC_SUBTRACT, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT32,
                            jg_scalar_float(1.5)};
    ops[n++] = (jgt_ufc_op){"x >= -2 (int64)", 2, JG_UFUNC_GREATER_EQUAL, JG_DTYPE_INT64,
                            JG_DTYPE_INT64, jg_scalar_int(-2)};
    ops[n++] = (jgt_ufc_op){"x ^ 5 (int32)", 2, JG_UFUNC_BITWISE_XOR, JG_DTYPE_INT32,
                            JG_DTYPE_INT32, jg_scalar_int(5)};
    ops[n++] = (jgt_ufc_op){"x * 0.1 (int32 x: float64 result)", 2, JG_UFUNC_MULTIPLY,
                            JG_DTYPE_INT32, JG_DTYPE_INT32, jg_scalar_float(0.1)};
  }
  *count = n;
  return ops;
}

static inline jg_status jgt_ufc_run(const jgt_ufc_op *op, const jg_array *x, const jg_array *w,
                                    jg_stream stream, jg_array **out, jg_error *err) {
  switch (op->kind) {
    case 0: return jg_array_ufunc2(op->f, x, w, stream, out, err);
    case 1: return jg_array_ufunc2(op->f, w, x, stream, out, err);
    case 2: return jg_array_ufunc2_scalar(op->f, x, op->s, false, stream, out, err);
    default: return jg_array_ufunc2_scalar(op->f, x, op->s, true, stream, out, err);
  }
}

/* Whether two host results are the same: printed values, type, and the leaf's bytes. */
static inline bool jgt_ufc_same(const jg_array *a, const jg_array *b) {
  static char t1[1 << 16], t2[1 << 16];
  if (jg_array_to_string(a, sizeof t1 - 1, t1, sizeof t1, NULL, NULL) != JG_OK) return false;
  if (jg_array_to_string(b, sizeof t2 - 1, t2, sizeof t2, NULL, NULL) != JG_OK) return false;
  if (strcmp(t1, t2) != 0) return false;
  if (jg_array_type_string(a, t1, sizeof t1, NULL, NULL) != JG_OK) return false;
  if (jg_array_type_string(b, t2, sizeof t2, NULL, NULL) != JG_OK) return false;
  if (strcmp(t1, t2) != 0) return false;
  const jg_array *la = a, *lb = b;
  while (jg_array_num_children(la) == 1) la = jg_array_child(la, 0);
  while (jg_array_num_children(lb) == 1) lb = jg_array_child(lb, 0);
  jg_view va, vb;
  if (jg_array_buffer(la, 0, &va, NULL) != JG_OK || jg_array_buffer(lb, 0, &vb, NULL) != JG_OK)
    return false;
  if (va.dtype != vb.dtype || va.layout.shape[0] != vb.layout.shape[0]) return false;
  const jg_len n = va.layout.shape[0];
  const void *pa = jg_view_data(&va), *pb = jg_view_data(&vb);
  /* Floats: the same bits, except that any NaN equals any NaN (the GPU's arithmetic returns
   * its canonical NaN, x86 propagates the operand's payload: IEEE 754 leaves it open). */
  if (va.dtype == JG_DTYPE_FLOAT32 || va.dtype == JG_DTYPE_FLOAT64) {
    for (jg_len i = 0; i < n; i++) {
      const bool f32 = va.dtype == JG_DTYPE_FLOAT32;
      const double x = f32 ? (double)((const float *)pa)[i] : ((const double *)pa)[i];
      const double y = f32 ? (double)((const float *)pb)[i] : ((const double *)pb)[i];
      if (isnan(x) && isnan(y)) continue;
      const size_t w = f32 ? 4 : 8;
      if (memcmp((const char *)pa + w * (size_t)i, (const char *)pb + w * (size_t)i, w) != 0)
        return false;
    }
    return true;
  }
  const size_t bytes = (size_t)(n * jg_dtype_itemsize(va.dtype));
  return bytes == 0 || memcmp(pa, pb, bytes) == 0;
}

/* Calls of kernel `name` so far (host + CUDA + fallback). */
static inline uint64_t jgt_ufc_calls(const char *name) {
  const jg_kernel *k = NULL;
  if (jg_catalog_find(name, &k, NULL) != JG_OK) return 0;
  jg_kernel_stats st;
  jg_kernel_stats_get(k, &st);
  return st.host_calls + st.cuda_calls + st.fallback_calls;
}

#endif /* JAGGED_TESTS_JGT_UFUNC_FAST_CASES_H */
