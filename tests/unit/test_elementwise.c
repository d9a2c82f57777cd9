/* test_elementwise.c: user-defined elementwise functions on the host (elementwise.h): the case
 * table of jgt_elementwise_cases.h (jg_array_eval through jagged structure and broadcasting,
 * hand-worked values), long random inputs across the evaluator's 1024-element blocks checked
 * bit for bit against plain C loops of the same formulas, the macro form (a descriptor defined in
 * this C file: host loop, no launcher), every parser error with its column, the generated CUDA
 * source (and, where NVRTC can be loaded, that it compiles for sm_90 without a GPU), and the
 * argument errors. */
#include <math.h>

#include "jg_test.h"
#include "jgt_elementwise_cases.h"

/* Functions of the macro form, compiled here by the C compiler (no CUDA launcher). */
JG_ELEMENTWISE1(ew_square, x, x *x);
JG_ELEMENTWISE2(ew_hypot, a, b, sqrt(a *a + b * b));
JG_ELEMENTWISE3(ew_lerp, a, b, t, a + (b - a) * t);

static char g_text[8192];
static char g_type[512];

static const char *str(const jg_array *a) {
  JGT_OK(jg_array_to_string(a, 4000, g_text, sizeof g_text, NULL, &jgt_err_));
  return g_text;
}

static const char *type_of(const jg_array *a) {
  JGT_OK(jg_array_type_string(a, g_type, sizeof g_type, NULL, &jgt_err_));
  return g_type;
}

/* The float64 data of a flat or one-level list-offset host result (its leaf buffer). */
static const double *leaf_data(const jg_array *a, jg_len *n) {
  const jg_array *p = a;
  while (jg_array_kind(p) != JG_NODE_NUMERIC) p = jg_array_child(p, 0);
  jg_view v;
  JGT_OK(jg_array_buffer(p, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, JG_DTYPE_FLOAT64);
  assert_int_equal(v.layout.strides[0], 1);
  *n = v.layout.shape[0];
  return (const double *)jg_view_data(&v);
}

static bool same_bits(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void test_table(void **state) {
  (void)state;
  int failed = 0;
  for (size_t i = 0; i < JGT_EW_NCASES; i++) {
    const jgt_ew_case *c = &jgt_ew_cases[i];
    jg_array *args[3] = {NULL, NULL, NULL}, *out = NULL;
    jgt_ew_make(c, args);
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jgt_ew_run(c, args, NULL, &out, &err);
    if (st != JG_OK) {
      print_error("case '%s': %s: %s\n", c->name, jg_status_name(st), err.message);
      failed++;
    } else {
      const char *v = str(out), *t = type_of(out);
      if (strcmp(v, c->value) != 0 || strcmp(t, c->type) != 0) {
        print_error("case '%s': got %s of type %s, expected %s of type %s\n", c->name, v, t,
                    c->value, c->type);
        failed++;
      }
      assert_int_equal(jg_array_backend(out), JG_BACKEND_CPU);
    }
    jg_array_release(out);
    jgt_ew_release(c->nargs, args);
  }
  assert_int_equal(failed, 0);
}

/* The inputs are not written and the result shares nothing writable with them. */
static void test_inputs_untouched(void **state) {
  (void)state;
  jg_array *x = jgt_ew_x(), *out = NULL;
  const char *names[] = {"x"};
  JGT_OK(jg_array_eval("x * 10", 1, names, (const jg_array *const[]){x}, NULL, &out, &jgt_err_));
  assert_string_equal(str(x), "[[1, 2, 3], [], [4, 5]]");
  assert_string_equal(str(out), "[[10, 20, 30], [], [40, 50]]");
  jg_array_release(x);
  jg_array_release(out);
}

/* ------------------------------------------------------------------------------------------ */
/* Long inputs: the block loop and the libm functions, bit for bit                             */
/* ------------------------------------------------------------------------------------------ */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;

static double uniform(double lo, double hi) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return lo + (hi - lo) * ((double)(g_rng >> 11) / 9007199254740992.0);
}

static void test_long_random(void **state) {
  (void)state;
  /* 1000 lists of 0..6 elements (about 3000 values: two full blocks and a partial one), offsets
   * starting at 7 over content with 7 unreachable values first. */
  enum { NL = 1000 };
  int64_t *off = malloc((NL + 1) * sizeof *off);
  assert_non_null(off);
  off[0] = 7;
  for (int i = 0; i < NL; i++) off[i + 1] = off[i] + (int64_t)uniform(0, 7);
  const int64_t m = off[NL];
  double *xv = malloc((size_t)m * sizeof *xv), *yv = malloc((size_t)m * sizeof *yv);
  double *pl = malloc(NL * sizeof *pl);
  assert_non_null(xv);
  assert_non_null(yv);
  assert_non_null(pl);
  for (int64_t j = 0; j < m; j++) {
    xv[j] = uniform(-10, 10);
    yv[j] = uniform(-3, 3);
  }
  for (int i = 0; i < NL; i++) pl[i] = uniform(0.5, 2);
  jg_array *x = NULL, *y = NULL, *p = NULL, *s = jgt_numeric(JGT_EW_F64(1.75), 1, JG_DTYPE_FLOAT64);
  JGT_OK(jg_array_from_host_offsets(off, NL, xv, m, JG_DTYPE_FLOAT64, &x, &jgt_err_));
  JGT_OK(jg_array_from_host_offsets(off, NL, yv, m, JG_DTYPE_FLOAT64, &y, &jgt_err_));
  p = jgt_numeric(pl, NL, JG_DTYPE_FLOAT64);
  const char *names[] = {"x", "y", "p", "s"};
  const jg_array *args[] = {x, y, p, s};
  static const char *const exprs[] = {
      "x * x + y",
      "sin(x) * exp(-y) + atan2(y, x) + hypot(x, y) + log(abs(x) + 1) + pow(abs(y), 0.3)",
      "where(x > y, cos(x) / p, tanh(y) * s) - sqrt(abs(x)) * p + cosh(y) - sinh(y)",
      "log10(abs(x) + 0.5) + asin(y / 3) + acos(-y / 3) + atan(x) + tan(y / 2) + x % s"};
  for (int e = 0; e < 4; e++) {
    jg_array *out = NULL;
    JGT_OK(jg_array_eval(exprs[e], 4, names, args, NULL, &out, &jgt_err_));
    assert_string_equal(type_of(out), "1000 * var * float64");
    jg_len n = 0;
    const double *o = leaf_data(out, &n);
    assert_int_equal(n, m - 7);
    int bad = 0;
    for (int i = 0; i < NL; i++) {
      for (int64_t j = off[i]; j < off[i + 1]; j++) {
        const double xx = xv[j], yy = yv[j], pp = pl[i], ss = 1.75;
        double want;
        switch (e) {
          case 0:
            want = xx * xx + yy;
            break;
          case 1:
            want = sin(xx) * exp(-yy) + atan2(yy, xx) + hypot(xx, yy) + log(fabs(xx) + 1) +
                   pow(fabs(yy), 0.3);
            break;
          case 2:
            want = (xx > yy ? cos(xx) / pp : tanh(yy) * ss) - sqrt(fabs(xx)) * pp + cosh(yy) -
                   sinh(yy);
            break;
          default:
            want = log10(fabs(xx) + 0.5) + asin(yy / 3) + acos(-yy / 3) + atan(xx) + tan(yy / 2) +
                   fmod(xx, ss);
            break;
        }
        if (!same_bits(o[j - 7], want) && bad++ < 3) {
          print_error("expression %d, list %d element %lld: %.17g, expected %.17g\n", e, i,
                      (long long)(j - off[i]), o[j - 7], want);
        }
      }
    }
    assert_int_equal(bad, 0);
    jg_array_release(out);
  }
  jg_array_release(x);
  jg_array_release(y);
  jg_array_release(p);
  jg_array_release(s);
  free(off);
  free(xv);
  free(yv);
  free(pl);
}

/* float32 and int32 inputs over several blocks of the host evaluator: each value is converted
 * to float64 as it is read, block by block, with the same result as converting first. */
static void test_long_other_dtypes(void **state) {
  (void)state;
  enum { M = 3000 };
  float *xv = malloc(M * sizeof *xv);
  int32_t *yv = malloc(M * sizeof *yv);
  assert_non_null(xv);
  assert_non_null(yv);
  for (int j = 0; j < M; j++) {
    xv[j] = (float)uniform(-10, 10);
    yv[j] = (int32_t)uniform(-1e6, 1e6);
  }
  jg_array *x = jgt_numeric(xv, M, JG_DTYPE_FLOAT32), *y = jgt_numeric(yv, M, JG_DTYPE_INT32);
  jg_array *k = jgt_numeric((const int64_t[]){-3}, 1, JG_DTYPE_INT64);
  const char *names[] = {"x", "y", "k"};
  const jg_array *args[] = {x, y, k};
  jg_array *out = NULL;
  JGT_OK(jg_array_eval("x * x + y * k", 3, names, args, NULL, &out, &jgt_err_));
  jg_len n = 0;
  const double *o = leaf_data(out, &n);
  assert_int_equal(n, M);
  int bad = 0;
  for (int j = 0; j < M; j++) {
    const double want = (double)xv[j] * (double)xv[j] + (double)yv[j] * -3.0;
    if (!same_bits(o[j], want) && bad++ < 3) {
      print_error("element %d: %.17g, expected %.17g\n", j, o[j], want);
    }
  }
  assert_int_equal(bad, 0);
  jg_array_release(out);
  jg_array_release(x);
  jg_array_release(y);
  jg_array_release(k);
  free(xv);
  free(yv);
}

/* ------------------------------------------------------------------------------------------ */
/* The macro form                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void test_macro_descriptor(void **state) {
  (void)state;
  assert_int_equal(ew_hypot.version, JG_ELEMENTWISE_VERSION);
  assert_string_equal(ew_hypot.name, "ew_hypot");
  assert_int_equal(ew_hypot.nargs, 2);
  assert_non_null(ew_hypot.host);
  assert_null(ew_hypot.cuda); /* compiled by the C compiler */
  assert_true(ew_hypot_fn(3, 4) == 5.0);
  assert_true(ew_square_fn(-1.5) == 2.25);
  assert_true(ew_lerp_fn(1, 3, 0.25) == 1.5);
  double out[3];
  const double a[3] = {3, 5, 8}, b[1] = {4};
  ew_hypot.host(3, (const double *const[]){a, b}, (const int64_t[]){1, 0}, out);
  assert_true(out[0] == 5.0 && out[1] == sqrt(41.0) && out[2] == sqrt(80.0));
}

static void test_macro_apply(void **state) {
  (void)state;
  jg_array *x = jgt_ew_x(), *xi = jgt_ew_x_i32(), *pl = jgt_ew_per_list(), *s = jgt_ew_scalar();
  jg_array *out = NULL;
  JGT_OK(jg_array_elementwise(&ew_square, 1, (const jg_array *const[]){xi}, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[1, 4, 9], [], [16, 25]]");
  assert_string_equal(type_of(out), "3 * var * float64");
  jg_array_release(out);
  /* jagged with one value per list: sqrt(x^2 + p^2) */
  JGT_OK(
      jg_array_elementwise(&ew_hypot, 2, (const jg_array *const[]){x, pl}, NULL, &out, &jgt_err_));
  jg_len n = 0;
  const double *o = leaf_data(out, &n);
  assert_int_equal(n, 5);
  const double want[5] = {sqrt(101.0), sqrt(104.0), sqrt(109.0), sqrt(916.0), sqrt(925.0)};
  for (int i = 0; i < 5; i++) assert_true(same_bits(o[i], want[i]));
  assert_string_equal(type_of(out), "3 * var * float64");
  jg_array_release(out);
  /* three arguments with a scalar: x + (p - x) * 2.5 */
  JGT_OK(jg_array_elementwise(&ew_lerp, 3, (const jg_array *const[]){x, pl, s}, NULL, &out,
                              &jgt_err_));
  assert_string_equal(str(out), "[[23.5, 22, 20.5], [], [69, 67.5]]");
  jg_array_release(out);
  /* None lists and values propagate */
  jg_array *nl = jgt_ew_none_list(), *nv = jgt_ew_none_value();
  JGT_OK(jg_array_elementwise(&ew_square, 1, (const jg_array *const[]){nl}, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[1, 4], None, [9]]");
  jg_array_release(out);
  JGT_OK(jg_array_elementwise(&ew_square, 1, (const jg_array *const[]){nv}, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[1, None, 9]]");
  jg_array_release(out);
  jg_array_release(nl);
  jg_array_release(nv);
  jg_array_release(x);
  jg_array_release(xi);
  jg_array_release(pl);
  jg_array_release(s);
}

static void test_macro_errors(void **state) {
  (void)state;
  jg_array *x = jgt_ew_x(), *out = (jg_array *)1;
  const jg_array *one[] = {x};
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(NULL, 1, one, NULL, &out, &err));
  assert_null(out);
  JGT_CONTAINS(err.message, "jg_array_elementwise: f is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(&ew_square, 1, one, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(&ew_square, 2, (const jg_array *const[]){x, x}, NULL,
                                             &out, &err));
  JGT_CONTAINS(err.message, "'ew_square' takes 1 argument; 2 given");
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(&ew_square, 1, NULL, NULL, &out, &err));
  JGT_CONTAINS(err.message, "args is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(&ew_hypot, 2, (const jg_array *const[]){x, NULL}, NULL,
                                             &out, &err));
  JGT_CONTAINS(err.message, "args[1] is NULL");
  assert_int_equal(err.index, 1);
  jg_elementwise bad = ew_square;
  bad.version = 99;
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(&bad, 1, one, NULL, &out, &err));
  JGT_CONTAINS(err.message, "version 99");
  bad = ew_square;
  bad.host = NULL;
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(&bad, 1, one, NULL, &out, &err));
  JGT_CONTAINS(err.message, "no host loop");
  bad = ew_square;
  bad.nargs = 0;
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(&bad, 0, one, NULL, &out, &err));
  JGT_CONTAINS(err.message, "nargs is 0");
  bad.nargs = 9;
  JGT_STATUS(JG_EINVAL, jg_array_elementwise(&bad, 9, one, NULL, &out, &err));
  JGT_CONTAINS(err.message, "nargs is 9");
  /* unequal counts */
  jg_array *y = jgt_ew_last_empty();
  JGT_STATUS(JG_ESHAPE,
             jg_array_elementwise(&ew_hypot, 2, (const jg_array *const[]){x, y}, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_elementwise");
  JGT_CONTAINS(err.message, "list 0 has 3 elements in args[0] and 2 in args[1]");
  assert_int_equal(err.index, 0);
  assert_null(out);
  JGT_STATUS(JG_ESHAPE, jg_array_eval("pt * eta", 2, (const char *const[]){"pt", "eta"},
                                      (const jg_array *const[]){x, y}, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_eval");
  JGT_CONTAINS(err.message, "in pt and 2 in eta");
  jg_array_release(y);
  jg_array_release(x);
}

/* ------------------------------------------------------------------------------------------ */
/* Parser errors                                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct bad_expr {
  const char *expr;
  const char *message;
  int64_t index; /* column - 1 */
} bad_expr;

static void test_parse_errors(void **state) {
  (void)state;
  static const bad_expr cases[] = {
      {"x * (y + 1", "expected ')' at column 11 of \"x * (y + 1\"", 10},
      {"x +", "expected a number, a name or '(' at column 4 of \"x +\"", 3},
      {"x y", "expected an operator or the end, found 'y' at column 3", 2},
      {"z * 2", "unknown name 'z' (the arguments are x, y) at column 1 of \"z * 2\"", 0},
      {"x + foo(y)", "unknown function 'foo'", 4},
      {"atan2(x)", "atan2 takes 2 arguments, not 1 at column 1", 0},
      {"sqrt(x, y)", "sqrt takes 1 argument, not 2 at column 1", 0},
      {"where(x, y)", "where takes 3 arguments, not 2", 0},
      {"min()", "min takes 2 arguments, not 0", 0},
      {"", "empty expression at column 1", 0},
      {"   ", "empty expression", 0},
      {"1e + x", "unexpected '1e' at column 1", 0},
      {"x $ y", "unexpected '$' at column 3", 2},
      {"2x", "unexpected '2x' at column 1", 0},
      {"x = y", "unexpected '=' at column 3", 2},
      {"x & y", "unexpected '&' at column 3", 2},
      {"(x))", "expected an operator or the end, found ')' at column 4", 3},
      {"sqrt(x", "expected ',' or ')' at column 7", 6},
      {"x ** ", "expected a number, a name or '(' at column 6", 5},
      {"x,y", "expected an operator or the end, found ','", 1},
  };
  const char *names[] = {"x", "y"};
  jg_array *x = jgt_ew_x();
  const jg_array *args[] = {x, x};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    jg_error err;
    jg_array *out = (jg_array *)1;
    const jg_status st = jg_array_eval(cases[i].expr, 2, names, args, NULL, &out, &err);
    if (st != JG_EINVAL || strstr(err.message, cases[i].message) == NULL ||
        err.index != cases[i].index) {
      print_error("\"%s\": %s (index %lld): %s\n", cases[i].expr, jg_status_name(st),
                  (long long)err.index, err.message);
      fail();
    }
    JGT_CONTAINS(err.message, "jg_array_eval: ");
    assert_null(out);
  }
  /* The unknown name lists the arguments. */
  jg_error err;
  jg_array *out = NULL;
  JGT_STATUS(JG_EINVAL, jg_array_eval("x + q", 2, names, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "unknown name 'q' (the arguments are x, y) at column 5");
  /* Too deep, too long. */
  char deep[1024];
  size_t k = 0;
  for (int i = 0; i < 300; i++) deep[k++] = '(';
  deep[k++] = 'x';
  for (int i = 0; i < 300; i++) deep[k++] = ')';
  deep[k] = '\0';
  JGT_STATUS(JG_EINVAL, jg_array_eval(deep, 2, names, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "nested too deeply");
  for (k = 0; k < 300; k++) deep[k] = '-';
  deep[k++] = 'x';
  deep[k] = '\0';
  JGT_STATUS(JG_EINVAL, jg_array_eval(deep, 2, names, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "nested too deeply");
  /* 150 levels are fine: -(-(...x...)) */
  k = 0;
  for (int i = 0; i < 150; i++) deep[k++] = '(';
  deep[k++] = 'x';
  for (int i = 0; i < 150; i++) deep[k++] = ')';
  deep[k] = '\0';
  JGT_OK(jg_array_eval(deep, 2, names, args, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[1, 2, 3], [], [4, 5]]");
  jg_array_release(out);
  char *huge = malloc(70001);
  assert_non_null(huge);
  for (k = 0; k < 70000; k++) huge[k] = k % 2 == 0 ? 'x' : '+';
  huge[69999] = 'x';
  huge[70000] = '\0';
  JGT_STATUS(JG_EINVAL, jg_array_eval(huge, 2, names, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "70000 bytes long");
  /* A long expression below the limit works (a left-deep sum of 10001 terms). */
  huge[20001] = '\0';
  JGT_OK(jg_array_eval(huge, 2, names, args, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[10001, 20002, 30003], [], [40004, 50005]]");
  jg_array_release(out);
  free(huge);
  jg_array_release(x);
}

static void test_names_and_args(void **state) {
  (void)state;
  jg_array *x = jgt_ew_x(), *out = NULL;
  const jg_array *args[] = {x, x};
  jg_error err;
  JGT_STATUS(JG_EINVAL,
             jg_array_eval("x", 2, (const char *const[]){"x", NULL}, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "names[1] is NULL");
  assert_int_equal(err.index, 1);
  JGT_STATUS(JG_EINVAL,
             jg_array_eval("x", 2, (const char *const[]){"x", "1y"}, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "names[1] '1y' is not a name");
  JGT_STATUS(JG_EINVAL,
             jg_array_eval("x", 2, (const char *const[]){"x", ""}, args, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL,
             jg_array_eval("x", 2, (const char *const[]){"x", "x"}, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "names[0] and names[1] are both 'x'");
  JGT_STATUS(JG_EINVAL, jg_array_eval(NULL, 1, (const char *const[]){"x"}, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "expr is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_eval("x", 1, NULL, args, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_eval("x", 0, (const char *const[]){"x"}, args, NULL, &out, &err));
  JGT_CONTAINS(err.message, "nargs is 0; it must be in 1..8");
  JGT_STATUS(JG_EINVAL, jg_array_eval("x", 1, (const char *const[]){"x"}, args, NULL, NULL, &err));
  /* Constants, and a name that shadows one. */
  JGT_OK(jg_array_eval("pi + e - pi - e + inf - inf", 1, (const char *const[]){"x"}, args, NULL,
                       &out, &jgt_err_));
  assert_string_equal(str(out), "[[nan, nan, nan], [], [nan, nan]]");
  jg_array_release(out);
  JGT_OK(jg_array_eval("e * 2", 1, (const char *const[]){"e"}, args, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[2, 4, 6], [], [8, 10]]");
  jg_array_release(out);
  /* An expression without arguments still has the arguments' structure. */
  JGT_OK(jg_array_eval("1 + 2", 1, (const char *const[]){"x"}, args, NULL, &out, &jgt_err_));
  assert_string_equal(str(out), "[[3, 3, 3], [], [3, 3]]");
  jg_array_release(out);
  /* Records are not broadcast. */
  jg_array *f[1] = {jgt_numeric(JGT_EW_F64(1, 2), 2, JG_DTYPE_FLOAT64)};
  jg_array *rec = jgt_record(1, f, (const char *const[]){"pt"}, -1);
  JGT_STATUS(JG_ENOTSUP, jg_array_eval("x", 1, (const char *const[]){"x"},
                                       (const jg_array *const[]){rec}, NULL, &out, &err));
  JGT_CONTAINS(err.message, "jg_array_eval");
  jg_array_release(rec);
  jg_array_release(x);
}

/* ------------------------------------------------------------------------------------------ */
/* Generated CUDA                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void test_cuda_source(void **state) {
  (void)state;
  char buf[4096];
  size_t needed = 0;
  const char *names[] = {"x", "y"};
  JGT_OK(jg_expr_cuda_source("x * x + y", 2, names, buf, sizeof buf, &needed, &jgt_err_));
  assert_int_equal(needed, strlen(buf));
  JGT_CONTAINS(buf,
               "extern \"C\" __global__ void jg_expr(long long n, const double *__restrict__ "
               "a0, long long s0, const double *__restrict__ a1, long long s1, double "
               "*__restrict__ out)");
  JGT_CONTAINS(buf, "const double t0 = (double)a0[i * s0];");
  JGT_CONTAINS(buf, "const double t2 = t0 * t1;");
  JGT_CONTAINS(buf, "const double t4 = t2 + t3;");
  JGT_CONTAINS(buf, "out[i] = t4;");
  /* The source does not depend on the arguments' names (one compile for both). */
  char other[4096];
  JGT_OK(jg_expr_cuda_source("a * a + b", 2, (const char *const[]){"a", "b"}, other, sizeof other,
                             NULL, &jgt_err_));
  assert_string_equal(buf, other);
  /* Constants are exact bit patterns; x ** 2 is a product. */
  JGT_OK(jg_expr_cuda_source("x ** 2 + 0.1", 1, names, buf, sizeof buf, NULL, &jgt_err_));
  JGT_CONTAINS(buf, "__longlong_as_double(0x3fb999999999999aLL)");
  JGT_CONTAINS(buf, "t0 * t0");
  assert_null(strstr(buf, "pow"));
  /* Truncation and the size query. */
  char small[16];
  JGT_OK(jg_expr_cuda_source("x", 1, names, small, sizeof small, &needed, &jgt_err_));
  assert_int_equal(strlen(small), 15);
  assert_true(needed > 100);
  JGT_OK(jg_expr_cuda_source("x", 1, names, NULL, 0, &needed, &jgt_err_));
  assert_true(needed > 100);
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_expr_cuda_source("x +", 1, names, buf, sizeof buf, NULL, &err));
  JGT_CONTAINS(err.message, "jg_expr_cuda_source: expected a number");
  assert_string_equal(buf, "");
  JGT_STATUS(JG_EINVAL, jg_expr_cuda_source("x", 1, names, NULL, 5, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_expr_cuda_source("x", 9, names, buf, sizeof buf, NULL, &err));
}

/* Every operation in one expression, compiled by NVRTC for sm_90 (no GPU needed): skipped where
 * NVRTC cannot be loaded or the build has no CUDA. */
static void test_cuda_source_compiles(void **state) {
  (void)state;
  const char *expr =
      "-x + y - x * y / (x % y) ** 3 + !x + (x < y) + (x <= y) + (x > y) + (x >= y) + (x == y) + "
      "(x != y) + (x && y) + (x || y) + abs(x) + sqrt(x) + exp(x) + log(x) + log10(x) + sin(x) + "
      "cos(x) + tan(x) + asin(x) + acos(x) + atan(x) + sinh(x) + cosh(x) + tanh(x) + floor(x) + "
      "ceil(x) + isnan(x) + isfinite(x) + atan2(y, x) + pow(x, y) + min(x, y) + max(x, y) + "
      "hypot(x, y) + where(x, y, z) + pi + 1e-300";
  const char *names[] = {"x", "y", "z"};
  size_t needed = 0;
  JGT_OK(jg_expr_cuda_source(expr, 3, names, NULL, 0, &needed, &jgt_err_));
  char *src = malloc(needed + 1);
  assert_non_null(src);
  JGT_OK(jg_expr_cuda_source(expr, 3, names, src, needed + 1, NULL, &jgt_err_));
  jg_rtc_options opt;
  memset(&opt, 0, sizeof opt);
  opt.arch = 90;
  opt.cache = JG_RTC_CACHE_OFF;
  static const char *const options[] = {"--fmad=false"};
  opt.options = options;
  opt.n_options = 1;
  jg_rtc_program *prog = NULL;
  jg_error err;
  const jg_status st = jg_rtc_compile(src, "jg_expr.cu", NULL, 0, &opt, &prog, &err);
  if (st == JG_ENOTSUP) {
    printf("[  SKIPPED ] NVRTC: %s\n", err.message);
  } else {
    if (st != JG_OK) print_error("%s\n%s\n%s\n", err.message, jg_rtc_last_log(), src);
    assert_int_equal(st, JG_OK);
    assert_non_null(jg_rtc_program_lowered_name(prog, "jg_expr") == NULL ? "" : "x");
  }
  jg_rtc_program_destroy(prog);
  free(src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),        cmocka_unit_test(test_inputs_untouched),
      cmocka_unit_test(test_long_random),  cmocka_unit_test(test_long_other_dtypes),
      cmocka_unit_test(test_macro_descriptor),
      cmocka_unit_test(test_macro_apply),  cmocka_unit_test(test_macro_errors),
      cmocka_unit_test(test_parse_errors), cmocka_unit_test(test_names_and_args),
      cmocka_unit_test(test_cuda_source),  cmocka_unit_test(test_cuda_source_compiles),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
