/* test_elementwise_gpu.c: user-defined elementwise functions on cuda arrays (elementwise.h).
 *
 * The acceptance test of issue 5: 5,000,000 lists with Poisson(3) counts of float64 (a seeded
 * generator here), squared on the GPU through the macro form (jgt_gpu_square, defined in
 * elementwise_kernels.cu and compiled by nvcc) and through the expression "x * x" (NVRTC), each
 * equal bit for bit to the host result, with the same structure. Then every case of
 * jgt_elementwise_cases.h on device 0 (on the legacy stream and on a created one: the same
 * printout and type as on the host, results on cuda:0), broadcasting through the macro form
 * (jagged times one value per list, times a scalar, three arguments, None), transcendental
 * functions within a documented tolerance (CUDA's math library may differ from the host's libm
 * by a few ulp), the in-process cache of compiled expressions, and the errors: a descriptor
 * compiled without nvcc, mixed backends. Skips (exit 77) without a usable device. */
#include <math.h>

#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "gpu/elementwise_kernels.h"
#include "jgt_elementwise_cases.h"

/* Compiled here by the C compiler: a host loop and no launcher. */
JG_ELEMENTWISE1(jgt_c_only, x, x + 1);

static char g_text[8192];
static char g_type[512];

static void describe(const jg_array *h) {
  JGT_OK(jg_array_to_string(h, 4000, g_text, sizeof g_text, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(h, g_type, sizeof g_type, NULL, &jgt_err_));
}

static void assert_on_cuda0(const jg_array *a) {
  const jg_device d = jg_array_device(a);
  assert_int_equal(d.type, JG_DEVICE_CUDA);
  assert_int_equal(d.id, 0);
}

/* The numeric leaf view of a host array (following first children). */
static jg_view leaf_view(const jg_array *a) {
  const jg_array *p = a;
  while (jg_array_kind(p) != JG_NODE_NUMERIC) {
    assert_true(jg_array_num_children(p) >= 1);
    p = jg_array_child(p, 0);
  }
  jg_view v;
  JGT_OK(jg_array_buffer(p, 0, &v, &jgt_err_));
  return v;
}

static double leaf_at(const jg_view *v, int64_t i) {
  return *(const double *)((const char *)v->base + v->layout.itemsize * (v->layout.slice_offset +
                                                                         i * v->layout.strides[0]));
}

/* Whether two host results have the same type and bit-identical float64 leaves. */
static bool same_result(const jg_array *a, const jg_array *b) {
  char ta[512], tb[512];
  JGT_OK(jg_array_type_string(a, ta, sizeof ta, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(b, tb, sizeof tb, NULL, &jgt_err_));
  if (strcmp(ta, tb) != 0) {
    print_error("types differ: %s and %s\n", ta, tb);
    return false;
  }
  const jg_view va = leaf_view(a), vb = leaf_view(b);
  if (va.layout.shape[0] != vb.layout.shape[0]) {
    print_error("%lld and %lld values\n", (long long)va.layout.shape[0],
                (long long)vb.layout.shape[0]);
    return false;
  }
  for (int64_t i = 0; i < va.layout.shape[0]; i++) {
    const double x = leaf_at(&va, i), y = leaf_at(&vb, i);
    if (memcmp(&x, &y, sizeof x) != 0) {
      print_error("value %lld: %.17g and %.17g\n", (long long)i, x, y);
      return false;
    }
  }
  return true;
}

/* ------------------------------------------------------------------------------------------ */
/* The acceptance test                                                                         */
/* ------------------------------------------------------------------------------------------ */

static uint64_t g_rng = 0x2545F4914F6CDD1Dull;

static uint64_t next_u64(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

static double uniform01(void) {
  return (double)(next_u64() >> 11) / 9007199254740992.0;
}

/* Poisson(3) by Knuth's product of uniforms. */
static int64_t poisson3(void) {
  const double limit = exp(-3.0);
  int64_t k = 0;
  double p = uniform01();
  while (p > limit) {
    k++;
    p *= uniform01();
  }
  return k;
}

static void test_acceptance_5m(void **state) {
  (void)state;
  enum { NLISTS = 5000000 };
  int64_t *counts = malloc(NLISTS * sizeof *counts);
  assert_non_null(counts);
  int64_t total = 0;
  for (int64_t i = 0; i < NLISTS; i++) total += counts[i] = poisson3();
  assert_true(total > 14000000 && total < 16000000);
  double *values = malloc((size_t)total * sizeof *values);
  assert_non_null(values);
  for (int64_t j = 0; j < total; j++) values[j] = (uniform01() - 0.5) * 1e3;
  jg_array *x = NULL;
  JGT_OK(jg_array_from_host_counts(counts, NLISTS, values, total, JG_DTYPE_FLOAT64, &x, &jgt_err_));
  free(values);
  free(counts);

  /* The host result (the expression; the macro's host loop must agree). */
  const char *names[] = {"x"};
  jg_array *host = NULL, *host_macro = NULL;
  JGT_OK(jg_array_eval("x * x", 1, names, (const jg_array *const[]){x}, NULL, &host, &jgt_err_));
  JGT_OK(jg_array_elementwise(&jgt_gpu_square, 1, (const jg_array *const[]){x}, NULL, &host_macro,
                              &jgt_err_));
  assert_true(same_result(host, host_macro));

  jg_array *dx = jgt_to_device_on(x, NULL), *dm = NULL, *de = NULL;
  JGT_OK(jg_array_elementwise(&jgt_gpu_square, 1, (const jg_array *const[]){dx}, NULL, &dm,
                              &jgt_err_));
  assert_on_cuda0(dm);
  JGT_OK(jg_array_eval("x * x", 1, names, (const jg_array *const[]){dx}, NULL, &de, &jgt_err_));
  assert_on_cuda0(de);
  jg_array *hm = jgt_to_host(dm), *he = jgt_to_host(de);
  assert_int_equal(jg_array_length(hm), NLISTS);
  assert_true(same_result(host, hm));
  assert_true(same_result(host, he));
  /* The lists themselves: the number of values per list is the input's. */
  jg_array *n_in = NULL, *n_out = NULL;
  JGT_OK(jg_array_num(x, &n_in, &jgt_err_));
  JGT_OK(jg_array_num(hm, &n_out, &jgt_err_));
  jg_view a = leaf_view(n_in), b = leaf_view(n_out);
  assert_int_equal(a.layout.shape[0], NLISTS);
  assert_int_equal(b.layout.shape[0], NLISTS);
  assert_memory_equal(jg_view_data(&a), jg_view_data(&b), NLISTS * sizeof(int64_t));
  jg_array_release(n_in);
  jg_array_release(n_out);
  jg_array_release(hm);
  jg_array_release(he);
  jg_array_release(dm);
  jg_array_release(de);
  jg_array_release(dx);
  jg_array_release(host);
  jg_array_release(host_macro);
  jg_array_release(x);
}

/* ------------------------------------------------------------------------------------------ */
/* The table and broadcasting on the device                                                    */
/* ------------------------------------------------------------------------------------------ */

static int run_table(jg_stream stream) {
  int failed = 0;
  for (size_t i = 0; i < JGT_EW_NCASES; i++) {
    const jgt_ew_case *c = &jgt_ew_cases[i];
    jg_array *args[3] = {NULL, NULL, NULL}, *dargs[3] = {NULL, NULL, NULL}, *dout = NULL;
    jgt_ew_make(c, args);
    for (int k = 0; k < c->nargs; k++) dargs[k] = jgt_to_device_on(args[k], stream);
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_ew_run(c, dargs, stream, &dout, &err);
    if (st != JG_OK) {
      print_error("case '%s' on the GPU: %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      assert_on_cuda0(dout);
      jg_array *h = jgt_to_host(dout);
      describe(h);
      if (strcmp(g_text, c->value) != 0 || strcmp(g_type, c->type) != 0) {
        print_error("case '%s' on the GPU: got %s of type %s, expected %s of type %s\n", c->name,
                    g_text, g_type, c->value, c->type);
        failed++;
      }
      jg_array_release(h);
    }
    jg_array_release(dout);
    jgt_ew_release(c->nargs, dargs);
    jgt_ew_release(c->nargs, args);
  }
  return failed;
}

static void test_table(void **state) {
  (void)state;
  assert_int_equal(run_table(NULL), 0);
  cudaStream_t s = NULL;
  assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
  assert_int_equal(run_table((jg_stream)s), 0);
  assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

/* Runs `f` on host arguments and on their device copies; the printouts must be equal. */
static void macro_both(const jg_elementwise *f, int n, jg_array *const *args,
                       const char *expected) {
  jg_array *out = NULL, *dargs[3] = {NULL, NULL, NULL}, *dout = NULL;
  JGT_OK(jg_array_elementwise(f, n, (const jg_array *const *)args, NULL, &out, &jgt_err_));
  describe(out);
  assert_string_equal(g_text, expected);
  for (int k = 0; k < n; k++) dargs[k] = jgt_to_device_on(args[k], NULL);
  JGT_OK(jg_array_elementwise(f, n, (const jg_array *const *)dargs, NULL, &dout, &jgt_err_));
  assert_on_cuda0(dout);
  jg_array *h = jgt_to_host(dout);
  describe(h);
  assert_string_equal(g_text, expected);
  assert_true(same_result(out, h));
  jg_array_release(h);
  jg_array_release(dout);
  jg_array_release(out);
  jgt_ew_release(n, dargs);
}

static void test_macro_broadcasting(void **state) {
  (void)state;
  jg_array *x = jgt_ew_x(), *xi = jgt_ew_x_i32(), *pl = jgt_ew_per_list(), *s = jgt_ew_scalar();
  jg_array *nl = jgt_ew_none_list(), *deep = jgt_ew_deep(), *shallow = jgt_ew_shallow();
  macro_both(&jgt_gpu_mul, 2, (jg_array *[]){x, pl}, "[[10, 20, 30], [], [120, 150]]");
  macro_both(&jgt_gpu_mul, 2, (jg_array *[]){pl, xi}, "[[10, 20, 30], [], [120, 150]]");
  macro_both(&jgt_gpu_mul, 2, (jg_array *[]){x, s}, "[[2.5, 5, 7.5], [], [10, 12.5]]");
  macro_both(&jgt_gpu_mul, 2, (jg_array *[]){nl, pl}, "[[10, 20], None, [90]]");
  macro_both(&jgt_gpu_mul, 2, (jg_array *[]){shallow, deep}, "[[[1], [2, 4]], []]");
  macro_both(&jgt_gpu_pick, 3, (jg_array *[]){x, pl, s}, "[[10, 10, 10], [], [30, 30]]");
  macro_both(&jgt_gpu_square, 1, (jg_array *[]){nl}, "[[1, 4], None, [9]]");
  jg_array_release(x);
  jg_array_release(xi);
  jg_array_release(pl);
  jg_array_release(s);
  jg_array_release(nl);
  jg_array_release(deep);
  jg_array_release(shallow);
}

/* ------------------------------------------------------------------------------------------ */
/* Transcendental functions: within a tolerance                                                */
/* ------------------------------------------------------------------------------------------ */

/* CUDA documents at most 1 or 2 ulp of error for the double-precision functions used here (and
 * glibc's are within an ulp); a sum of a few of them may therefore differ by some ulp of its
 * largest term: relative 1e-13 of the sum of the terms' magnitudes bounds that comfortably. */
static void test_transcendental(void **state) {
  (void)state;
  enum { N = 100003 };
  double *xv = malloc(N * sizeof *xv), *yv = malloc(N * sizeof *yv);
  assert_non_null(xv);
  assert_non_null(yv);
  for (int i = 0; i < N; i++) {
    xv[i] = (uniform01() - 0.5) * 20;
    yv[i] = (uniform01() - 0.5) * 6;
  }
  jg_array *x = jgt_numeric(xv, N, JG_DTYPE_FLOAT64), *y = jgt_numeric(yv, N, JG_DTYPE_FLOAT64);
  jg_array *dx = jgt_to_device_on(x, NULL), *dy = jgt_to_device_on(y, NULL);
  const char *names[] = {"x", "y"};
  static const char *const exprs[] = {
      "sin(x) * exp(-y) + atan2(y, x)",
      "cos(x) + tan(y / 2) + log(abs(x) + 1) + log10(abs(y) + 1) + pow(abs(y), 0.3)",
      "asin(y / 3) + acos(-y / 3) + atan(x) + sinh(y) + cosh(y) + tanh(x) + hypot(x, y)"};
  for (int e = 0; e < 4; e++) {
    jg_array *h = NULL, *d = NULL;
    if (e < 3) {
      JGT_OK(
          jg_array_eval(exprs[e], 2, names, (const jg_array *const[]){x, y}, NULL, &h, &jgt_err_));
      JGT_OK(jg_array_eval(exprs[e], 2, names, (const jg_array *const[]){dx, dy}, NULL, &d,
                           &jgt_err_));
    } else {
      JGT_OK(jg_array_elementwise(&jgt_gpu_trig, 2, (const jg_array *const[]){x, y}, NULL, &h,
                                  &jgt_err_));
      JGT_OK(jg_array_elementwise(&jgt_gpu_trig, 2, (const jg_array *const[]){dx, dy}, NULL, &d,
                                  &jgt_err_));
    }
    jg_array *dh = jgt_to_host(d);
    const jg_view a = leaf_view(h), b = leaf_view(dh);
    assert_int_equal(a.layout.shape[0], N);
    assert_int_equal(b.layout.shape[0], N);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      const double p = leaf_at(&a, i), q = leaf_at(&b, i);
      const double scale = fabs(p) + 100.0; /* the terms are at most about 100 */
      if (!(fabs(p - q) <= 1e-13 * scale) && bad++ < 3) {
        print_error("expression %d, value %d: host %.17g, GPU %.17g\n", e, i, p, q);
      }
    }
    assert_int_equal(bad, 0);
    jg_array_release(dh);
    jg_array_release(d);
    jg_array_release(h);
  }
  jg_array_release(dx);
  jg_array_release(dy);
  jg_array_release(x);
  jg_array_release(y);
  free(xv);
  free(yv);
}

/* ------------------------------------------------------------------------------------------ */
/* The cache of compiled expressions, and errors                                               */
/* ------------------------------------------------------------------------------------------ */

static void test_expression_cache(void **state) {
  (void)state;
  jg_array *x = jgt_ew_x(), *dx = jgt_to_device_on(x, NULL), *out = NULL;
  const char *names[] = {"x"};
  JGT_OK(
      jg_array_eval("x * 3 - 1", 1, names, (const jg_array *const[]){dx}, NULL, &out, &jgt_err_));
  jg_array_release(out);
  jg_rtc_stats before, after;
  jg_rtc_stats_get(&before);
  /* The same source (other names): no compile and no disk lookup, the loaded kernel is used. */
  JGT_OK(jg_array_eval("y * 3 - 1", 1, (const char *const[]){"y"}, (const jg_array *const[]){dx},
                       NULL, &out, &jgt_err_));
  jg_rtc_stats_get(&after);
  assert_true(after.compiles == before.compiles);
  assert_true(after.cache_hits + after.cache_misses == before.cache_hits + before.cache_misses);
  jg_array *h = jgt_to_host(out);
  describe(h);
  assert_string_equal(g_text, "[[2, 5, 8], [], [11, 14]]");
  jg_array_release(h);
  jg_array_release(out);
  /* After clearing, it is loaded again (from the disk cache or a new compile). */
  jg_expr_cache_clear();
  JGT_OK(
      jg_array_eval("x * 3 - 1", 1, names, (const jg_array *const[]){dx}, NULL, &out, &jgt_err_));
  h = jgt_to_host(out);
  describe(h);
  assert_string_equal(g_text, "[[2, 5, 8], [], [11, 14]]");
  jg_array_release(h);
  jg_array_release(out);
  jg_array_release(dx);
  jg_array_release(x);
}

static void test_errors(void **state) {
  (void)state;
  jg_array *x = jgt_ew_x(), *dx = jgt_to_device_on(x, NULL), *out = (jg_array *)1;
  jg_error err;
  /* A descriptor compiled by the C compiler has no launcher. */
  JGT_STATUS(JG_ENOTSUP,
             jg_array_elementwise(&jgt_c_only, 1, (const jg_array *const[]){dx}, NULL, &out, &err));
  assert_null(out);
  JGT_CONTAINS(err.message,
               "compile the file that defines 'jgt_c_only' with nvcc, or move the "
               "arrays to the host with jg_array_to_host");
  /* ... but it runs on the host. */
  JGT_OK(jg_array_elementwise(&jgt_c_only, 1, (const jg_array *const[]){x}, NULL, &out, &jgt_err_));
  jg_array_release(out);
  /* Mixed backends. */
  JGT_STATUS(JG_EBACKEND, jg_array_elementwise(&jgt_gpu_mul, 2, (const jg_array *const[]){dx, x},
                                               NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_elementwise");
  JGT_CONTAINS(err.message, "args[1]");
  assert_int_equal(err.index, 1);
  JGT_STATUS(JG_EBACKEND, jg_array_eval("x + y", 2, (const char *const[]){"x", "y"},
                                        (const jg_array *const[]){x, dx}, NULL, &out, &err));
  JGT_CONTAINS(err.message, "args[1] is on cuda:0, args[0] on cpu: copy it with jg_array_to_host");
  /* Unequal counts on the device. */
  jg_array *y = jgt_ew_last_empty(), *dy = jgt_to_device_on(y, NULL);
  JGT_STATUS(JG_ESHAPE, jg_array_eval("x + y", 2, (const char *const[]){"x", "y"},
                                      (const jg_array *const[]){dx, dy}, NULL, &out, &err));
  assert_null(out);
  jg_array_release(dy);
  jg_array_release(y);
  jg_array_release(dx);
  jg_array_release(x);
}

#endif /* JG_HAVE_CUDA */

int main(void) {
  JGT_REQUIRE_GPU();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_acceptance_5m),      cmocka_unit_test(test_table),
      cmocka_unit_test(test_macro_broadcasting), cmocka_unit_test(test_transcendental),
      cmocka_unit_test(test_expression_cache),   cmocka_unit_test(test_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
#else
  return 77;
#endif
}
