/* bench_ops.c: elementwise functions, masks and combinations of jagged arrays against the
 * bandwidth floor on the GPU and against plain C loops on the host (issue 5's benchmarks).
 *
 * Data: n lists (argv[1], default 5,000,000) with Poisson(3) counts of float32 values x, a second
 * array y with the same counts (its own offsets buffer), one float32 w per list, and the jagged
 * bool mask x > 100. Operations, each timed as the wall-clock median of 9 runs after 2 warm-ups,
 * including the wait for the result and the building of the result array:
 *   x * y         jg_array_ufunc2 (same counts: both offsets are read and compared)
 *   x * 2         jg_array_ufunc2_scalar
 *   x * w         jg_array_ufunc2, w repeated across each list
 *   x[mask]       jg_array_mask with the jagged bool mask
 *   "x * x"       jg_array_eval (float64 result)
 *   pairs         jg_array_combinations(x, 2)
 * The floor of an operation is the bytes it must read and write (values, masks, offsets, counted
 * once) divided by the measured device-to-device copy bandwidth; for combinations, the bytes of
 * its output alone (the measure). JG_BENCH_ONLY=TEXT times on the device only the
 * operations whose names contain TEXT (for a profiler); JG_BENCH_NO_HOST_POOL=1 turns the host
 * pool's cache off (jg_memory_resource_host_pool_set_limit(0): every host result then comes
 * fresh from the C library, as before the pool). Host references are plain loops over the
 * same buffers, single-threaded. The device results are checked against the host results. */
#include <stdio.h>
#include <string.h>

#include "bench_common.h"
#include "jagged/jagged.h"

typedef struct data {
  const jg_array *x, *y, *w, *mask;
} data;

typedef jg_status (*op_fn)(const data *d, jg_array **out, jg_error *err);

static jg_status op_mul(const data *d, jg_array **out, jg_error *err) {
  return jg_array_ufunc2(JG_UFUNC_MULTIPLY, d->x, d->y, NULL, out, err);
}
static jg_status op_scalar(const data *d, jg_array **out, jg_error *err) {
  return jg_array_ufunc2_scalar(JG_UFUNC_MULTIPLY, d->x, jg_scalar_float(2.0), false, NULL, out,
                                err);
}
static jg_status op_per_list(const data *d, jg_array **out, jg_error *err) {
  return jg_array_ufunc2(JG_UFUNC_MULTIPLY, d->x, d->w, NULL, out, err);
}
static jg_status op_mask(const data *d, jg_array **out, jg_error *err) {
  return jg_array_mask(d->x, d->mask, NULL, out, err);
}
static jg_status op_eval(const data *d, jg_array **out, jg_error *err) {
  const char *names[1] = {"x"};
  const jg_array *args[1] = {d->x};
  return jg_array_eval("x * x", 1, names, args, NULL, out, err);
}
static jg_status op_pairs(const data *d, jg_array **out, jg_error *err) {
  return jg_array_combinations(d->x, 2, false, NULL, NULL, out, err);
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/* JG_BENCH_TRACE=1: one traced call of each device operation, every kernel call and transfer
 * with its time since the operation began (the library's DEBUG log). */
static double g_trace_t0;
static void trace_line(jg_log_level level, const char *message, void *user) {
  (void)level;
  (void)user;
  printf("    %+9.1f us  %s\n", 1e6 * (now_s() - g_trace_t0), message);
}

static void trace_op(op_fn op, const data *d, const char *name) {
  jg_error err;
  jg_array *out = NULL;
  printf("  trace of %s:\n", name);
  jg_log_set_callback(trace_line, NULL, JG_LOG_DEBUG);
  g_trace_t0 = now_s();
  const jg_status st = op(d, &out, &err);
  const double t = now_s() - g_trace_t0;
  jg_log_set_callback(NULL, NULL, JG_LOG_WARN);
  printf("    %+9.1f us  returned %s\n", 1e6 * t, jg_status_name(st));
  jg_array_release(out);
}

#endif

/* Median time of `op` on `d`; the last result stays in *last. */
static double time_op(op_fn op, const data *d, jg_array **last, const char *name) {
  double t[RUNS];
  jg_error err;
  for (int r = -2; r < RUNS; ++r) {
    jg_array *out = NULL;
    const double s = now_s();
    if (op(d, &out, &err) != JG_OK) {
      fprintf(stderr, "bench_ops: %s: %s\n", name, err.message);
      exit(1);
    }
    if (r >= 0) t[r] = now_s() - s;
    if (r == RUNS - 1) {
      *last = out;
    } else {
      jg_array_release(out);
    }
  }
  return median(t);
}

/* A checksum of every number an array's leaves hold (host arrays), for comparing backends. */
static double checksum(const jg_array *a) {
  double s = 0;
  const int nc = jg_array_num_children(a);
  for (int k = 0; k < nc; ++k) s += checksum(jg_array_child(a, k));
  if (jg_array_kind(a) == JG_NODE_NUMERIC) {
    jg_view v;
    if (jg_array_buffer(a, 0, &v, NULL) != JG_OK) return NAN;
    const jg_len n = v.layout.shape[0];
    for (jg_len i = 0; i < n; ++i) {
      const char *p = (const char *)v.base +
                      v.layout.itemsize * (v.layout.slice_offset + i * v.layout.strides[0]);
      switch (v.dtype) {
        case JG_DTYPE_FLOAT32:
          s += *(const float *)p;
          break;
        case JG_DTYPE_FLOAT64:
          s += *(const double *)p;
          break;
        case JG_DTYPE_INT64:
          s += (double)*(const int64_t *)p;
          break;
        case JG_DTYPE_BOOL:
          s += *(const bool *)p;
          break;
        default:
          break;
      }
    }
  }
  return s;
}

int main(int argc, char **argv) {
  const int64_t n = argc > 1 ? atoll(argv[1]) : 5000000;
  if (n < 1) return 2;
  int64_t *offsets = malloc((size_t)(n + 1) * sizeof *offsets);
  if (offsets == NULL) return 1;
  uint64_t seed = 42;
  offsets[0] = 0;
  int64_t pairs = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = poisson3(&seed);
    offsets[i + 1] = offsets[i] + k;
    pairs += k * (k - 1) / 2;
  }
  const int64_t m = offsets[n];
  float *x = malloc((size_t)m * sizeof *x), *y = malloc((size_t)m * sizeof *y);
  float *w = malloc((size_t)n * sizeof *w), *z = malloc((size_t)m * sizeof *z);
  bool *mask = malloc((size_t)m);
  int64_t *zoff = malloc((size_t)(n + 1) * sizeof *zoff);
  if (!x || !y || !w || !z || !mask || !zoff) return 1;
  int64_t kept = 0;
  for (int64_t j = 0; j < m; ++j) {
    x[j] = (float)(j % 1000) * 0.25f;
    y[j] = (float)(j % 7) - 3.0f;
    mask[j] = x[j] > 100.0f;
    kept += mask[j];
  }
  for (int64_t i = 0; i < n; ++i) w[i] = (float)(i % 13);
  jg_error err;
  jg_array *hx = NULL, *hy = NULL, *hw = NULL, *hm = NULL;
  if (jg_array_from_host_offsets(offsets, n, x, m, JG_DTYPE_FLOAT32, &hx, &err) != JG_OK ||
      jg_array_from_host_offsets(offsets, n, y, m, JG_DTYPE_FLOAT32, &hy, &err) != JG_OK ||
      jg_array_from_host(w, n, JG_DTYPE_FLOAT32, &hw, &err) != JG_OK ||
      jg_array_from_host_offsets(offsets, n, mask, m, JG_DTYPE_BOOL, &hm, &err) != JG_OK) {
    fprintf(stderr, "bench_ops: %s\n", err.message);
    return 1;
  }
  const double ob = (double)(n + 1) * 8, vb = (double)m * 4;
  struct {
    const char *name;
    op_fn op;
    double bytes; /* the floor's bytes */
  } ops[] = {
      {"x * y (same counts)", op_mul, 3 * vb + 2 * ob},
      {"x * 2 (scalar)", op_scalar, 2 * vb},
      {"x * w (one value per list)", op_per_list, 2 * vb + (double)n * 4 + ob},
      {"x[mask] (jagged bool mask)", op_mask, vb + (double)m + 2 * ob + (double)kept * 4 + ob},
      {"eval \"x * x\" (float64 result)", op_eval, vb + (double)m * 8},
      {"combinations(x, 2) (output bytes)", op_pairs, (double)pairs * 8 + ob},
  };
  const int nops = (int)(sizeof ops / sizeof ops[0]);
  printf(
      "bench_ops: %lld lists, %lld float32 values (Poisson(3) counts), %lld kept by the mask, "
      "%lld pairs\n",
      (long long)n, (long long)m, (long long)kept, (long long)pairs);

  /* Host: plain loops (references), then jagged (JG_BENCH_DEVICE_ONLY=1 skips the timing, not the
   * host results the device is checked against). */
  const bool host_timing = getenv("JG_BENCH_DEVICE_ONLY") == NULL;
  if (getenv("JG_BENCH_NO_HOST_POOL") != NULL) (void)jg_memory_resource_host_pool_set_limit(0);
  double t[RUNS], ref[6] = {NAN, NAN, NAN, NAN, NAN, NAN};
  if (host_timing) {
    for (int r = -2; r < RUNS; ++r) {
      double s = now_s();
      for (int64_t j = 0; j < m; ++j) z[j] = x[j] * y[j];
      if (r >= 0) t[r] = now_s() - s;
    }
    ref[0] = median(t);
    for (int r = -2; r < RUNS; ++r) {
      double s = now_s();
      for (int64_t j = 0; j < m; ++j) z[j] = x[j] * 2.0f;
      if (r >= 0) t[r] = now_s() - s;
    }
    ref[1] = median(t);
    for (int r = -2; r < RUNS; ++r) {
      double s = now_s();
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = offsets[i]; j < offsets[i + 1]; ++j) z[j] = x[j] * w[i];
      if (r >= 0) t[r] = now_s() - s;
    }
    ref[2] = median(t);
    for (int r = -2; r < RUNS; ++r) {
      double s = now_s();
      int64_t o = 0;
      zoff[0] = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = offsets[i]; j < offsets[i + 1]; ++j) {
          z[o] = x[j];
          o += mask[j];
        }
        zoff[i + 1] = o;
      }
      if (r >= 0) t[r] = now_s() - s;
    }
    ref[3] = median(t);
    double *z64 = malloc((size_t)m * sizeof *z64);
    if (z64 == NULL) return 1;
    for (int r = -2; r < RUNS; ++r) {
      double s = now_s();
      for (int64_t j = 0; j < m; ++j) z64[j] = (double)x[j] * (double)x[j];
      if (r >= 0) t[r] = now_s() - s;
    }
    ref[4] = median(t);
    free(z64);
    float *p0 = malloc((size_t)pairs * sizeof *p0), *p1 = malloc((size_t)pairs * sizeof *p1);
    if (p0 == NULL || p1 == NULL) return 1;
    for (int r = -2; r < RUNS; ++r) {
      double s = now_s();
      int64_t o = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t a = offsets[i]; a < offsets[i + 1]; ++a)
          for (int64_t b = a + 1; b < offsets[i + 1]; ++b) {
            p0[o] = x[a];
            p1[o] = x[b];
            ++o;
          }
        zoff[i + 1] = o;
      }
      if (r >= 0) t[r] = now_s() - s;
    }
    ref[5] = median(t);
    free(p0);
    free(p1);
  }

  const data hd = {hx, hy, hw, hm};
  double host_sum[6];
  printf("\n%-36s %12s %12s %8s\n", "host (one thread)", "C loop ms", "jagged ms", "ratio");
  for (int k = 0; k < nops; ++k) {
    jg_array *res = NULL;
    double th = NAN;
    if (host_timing) {
      th = time_op(ops[k].op, &hd, &res, ops[k].name);
    } else if (ops[k].op(&hd, &res, &err) != JG_OK) {
      fprintf(stderr, "bench_ops: %s: %s\n", ops[k].name, err.message);
      return 1;
    }
    host_sum[k] = checksum(res);
    jg_array_release(res);
    printf("%-36s %12.2f %12.2f %8.2f\n", ops[k].name, 1e3 * ref[k], 1e3 * th, th / ref[k]);
  }
  int bad = 0;
  (void)host_sum; /* compared with the device results only */
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    printf("\ndevice part skipped: no CUDA device\n");
  } else {
    jg_array *dx = NULL, *dy = NULL, *dw = NULL, *dm = NULL;
    if (jg_array_to_device(hx, 0, NULL, &dx, &err) != JG_OK ||
        jg_array_to_device(hy, 0, NULL, &dy, &err) != JG_OK ||
        jg_array_to_device(hw, 0, NULL, &dw, &err) != JG_OK ||
        jg_array_to_device(hm, 0, NULL, &dm, &err) != JG_OK) {
      fprintf(stderr, "bench_ops: %s\n", err.message);
      return 1;
    }
    const double bw = bench_copy_bandwidth();
    const data dd = {dx, dy, dw, dm};
    printf("\n%-36s %10s %10s %10s %9s\n", "device (data on the GPU)", "floor ms", "ms", "GB/s",
           "of floor");
    printf("D2D copy bandwidth: %.1f GB/s\n", bw / 1e9);
    const char *only = getenv("JG_BENCH_ONLY");
    for (int k = 0; k < nops; ++k) {
      if (only != NULL && strstr(ops[k].name, only) == NULL) continue;
      jg_array *res = NULL, *back = NULL;
      const double td = time_op(ops[k].op, &dd, &res, ops[k].name);
      if (jg_array_to_host(res, NULL, &back, &err) != JG_OK) return 1;
      const double s = checksum(back);
      const bool same = fabs(s - host_sum[k]) <= 1e-9 * fabs(host_sum[k]);
      bad |= !same;
      jg_array_release(back);
      jg_array_release(res);
      const double fl = ops[k].bytes / bw;
      if (getenv("JG_BENCH_TRACE") != NULL) trace_op(ops[k].op, &dd, ops[k].name);
      printf("%-36s %10.3f %10.3f %10.1f %8.1f%%%s\n", ops[k].name, 1e3 * fl, 1e3 * td,
             ops[k].bytes / td / 1e9, 100.0 * fl / td, same ? "" : "  (result differs!)");
    }
    jg_array_release(dx);
    jg_array_release(dy);
    jg_array_release(dw);
    jg_array_release(dm);
  }
#endif
  jg_array_release(hx);
  jg_array_release(hy);
  jg_array_release(hw);
  jg_array_release(hm);
  free(offsets);
  free(x);
  free(y);
  free(w);
  free(z);
  free(mask);
  free(zoff);
  if (bad) fprintf(stderr, "bench_ops: a device result differs from the host result\n");
  return bad;
}
