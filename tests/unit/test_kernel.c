/* test_kernel.c: the kernel catalog on the host (kernel.h): lookup, summary, argument checks,
 * host implementation choice (API, per thread, environment), the missing-CUDA policy, user
 * registration, the signature check and the parity helper. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jg_test.h"

static const jg_device host = JG_DEVICE_HOST_INIT;

static const jg_kernel *fill_kernel(void) {
  const jg_kernel *k = NULL;
  jg_error err;
  assert_int_equal(jg_catalog_find("fill", &k, &err), JG_OK);
  assert_non_null(k);
  return k;
}

static bool has_openmp(const jg_kernel *k) {
  for (size_t i = 0; i < jg_kernel_host_impl_count(k); ++i)
    if (strcmp(jg_kernel_host_impl_name(k, i), "openmp") == 0) return true;
  return false;
}

/* Runs `fn` in a child process (for tests that change the process state read once at start:
 * environment variables, registrations); the child's exit status must be 0. */
static void in_child(void (*fn)(void)) {
  fflush(NULL);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    fn();
    _exit(0);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
}

#define CHILD_CHECK(cond)                                                   \
  do {                                                                      \
    if (!(cond)) {                                                          \
      fprintf(stderr, "child check failed at line %d: %s\n", __LINE__, #cond); \
      _exit(1);                                                             \
    }                                                                       \
  } while (0)

/* ------------------------------------------------------------ lookup */

static void test_find_and_describe(void **state) {
  (void)state;
  const jg_kernel *k = fill_kernel();
  assert_string_equal(jg_kernel_name(k), "fill");
  assert_true(strlen(jg_kernel_doc(k)) > 0);
  assert_int_equal(jg_kernel_param_count(k), 3);
  const jg_kernel_param *p = jg_kernel_param_at(k, 2);
  assert_string_equal(p->name, "out");
  assert_int_equal(p->kind, JG_PARAM_ARRAY);
  assert_int_equal(p->dir, JG_PARAM_OUT);
  assert_int_equal(p->dtype, JG_DTYPE_INVALID);
  assert_string_equal(p->type_var, "T");
  assert_int_equal(p->min_length_param, 0);
  assert_null(jg_kernel_param_at(k, 3));
  assert_int_equal(jg_kernel_variant_count(k), 11);
  bool f64 = false;
  for (size_t v = 0; v < jg_kernel_variant_count(k); ++v) {
    if (strcmp(jg_kernel_variant_name(k, v), "float64") == 0) {
      f64 = true;
      assert_int_equal(jg_kernel_variant_dtype(k, v, 2), JG_DTYPE_FLOAT64);
      assert_int_equal(jg_kernel_variant_dtype(k, v, 0), JG_DTYPE_INT64);
    }
  }
  assert_true(f64);
  assert_null(jg_kernel_variant_name(k, 11));
  assert_int_equal(jg_kernel_variant_dtype(k, 11, 0), JG_DTYPE_INVALID);
  assert_string_equal(jg_kernel_host_impl_name(k, 0), "c");
  assert_string_equal(jg_kernel_cuda_path(k), "src/kernels/fill/fill_cuda.cu");
#if defined(JG_HAVE_CUDA)
  assert_true(jg_kernel_has_cuda(k));
#else
  assert_false(jg_kernel_has_cuda(k));
#endif
  /* The catalog lists the kernel, in name order. */
  bool listed = false;
  for (size_t i = 0; i < jg_catalog_size(); ++i) {
    listed |= jg_catalog_at(i) == k;
    if (i > 0) assert_true(strcmp(jg_kernel_name(jg_catalog_at(i - 1)),
                                  jg_kernel_name(jg_catalog_at(i))) < 0);
  }
  assert_true(listed);
  assert_null(jg_catalog_at(jg_catalog_size()));
}

static void test_find_errors(void **state) {
  (void)state;
  const jg_kernel *k = (const jg_kernel *)1;
  jg_error err;
  assert_int_equal(jg_catalog_find("no_such_kernel", &k, &err), JG_ENOTFOUND);
  assert_null(k);
  JGT_CONTAINS(err.message, "no kernel named 'no_such_kernel'");
  JGT_CONTAINS(err.message, "jagged kernels");
  assert_int_equal(jg_catalog_find(NULL, &k, &err), JG_EINVAL);
  assert_int_equal(jg_catalog_find("fill", NULL, &err), JG_EINVAL);
}

/* "CUDA kernels: N of M (missing: ...)" computed independently from jg_kernel_has_cuda. */
static void expected_summary(char *buf, size_t size, size_t max_missing) {
  size_t with = 0, n = jg_catalog_size();
  for (size_t i = 0; i < n; ++i) with += jg_kernel_has_cuda(jg_catalog_at(i));
  int w = snprintf(buf, size, "CUDA kernels: %zu of %zu", with, n);
  if (with == n) return;
  w += snprintf(buf + w, size - (size_t)w, " (missing: ");
  size_t named = 0;
  for (size_t i = 0; i < n; ++i) {
    const jg_kernel *k = jg_catalog_at(i);
    if (jg_kernel_has_cuda(k)) continue;
    if (max_missing && named == max_missing) {
      w += snprintf(buf + w, size - (size_t)w, ", ...");
      break;
    }
    w += snprintf(buf + w, size - (size_t)w, "%s%s", named++ ? ", " : "", jg_kernel_name(k));
  }
  snprintf(buf + w, size - (size_t)w, ")");
}

/* ------------------------------------------------------------- calls */

static void test_fill_host_every_variant(void **state) {
  (void)state;
  const jg_kernel *k = fill_kernel();
  for (size_t v = 0; v < jg_kernel_variant_count(k); ++v) {
    const jg_dtype dt = jg_kernel_variant_dtype(k, v, 2);
    const int64_t isz = jg_dtype_itemsize(dt);
    unsigned char buf[8 * 8];
    memset(buf, 0xAB, sizeof buf);
    const bool fl = dt == JG_DTYPE_FLOAT32 || dt == JG_DTYPE_FLOAT64;
    jg_kernel_arg args[3] = {jg_arg_i64(5),
                             fl ? jg_arg_f64(7.0) : jg_arg_i64(dt == JG_DTYPE_BOOL ? 1 : 7),
                             jg_arg_array(buf, 8, dt, host)};
    JGT_OK(jg_kernel_call(k, args, 3, NULL, &jgt_err_));
    for (int i = 0; i < 8; ++i) {
      const unsigned char *e = buf + i * isz;
      double got;
      switch (dt) {
        case JG_DTYPE_BOOL: got = *e; break; /* a byte: the untouched tail is not a valid bool */
        case JG_DTYPE_INT8: got = *(const int8_t *)e; break;
        case JG_DTYPE_INT16: got = *(const int16_t *)(const void *)e; break;
        case JG_DTYPE_INT32: got = *(const int32_t *)(const void *)e; break;
        case JG_DTYPE_INT64: got = (double)*(const int64_t *)(const void *)e; break;
        case JG_DTYPE_UINT8: got = *e; break;
        case JG_DTYPE_UINT16: got = *(const uint16_t *)(const void *)e; break;
        case JG_DTYPE_UINT32: got = *(const uint32_t *)(const void *)e; break;
        case JG_DTYPE_UINT64: got = (double)*(const uint64_t *)(const void *)e; break;
        case JG_DTYPE_FLOAT32: got = *(const float *)(const void *)e; break;
        default: got = *(const double *)(const void *)e; break;
      }
      if (i < 5) {
        assert_true(got == (dt == JG_DTYPE_BOOL ? 1.0 : 7.0));
      } else {
        for (int64_t b = 0; b < isz; ++b) assert_int_equal(e[b], 0xAB); /* untouched */
      }
    }
  }
}

static void test_call_argument_errors(void **state) {
  (void)state;
  const jg_kernel *k = fill_kernel();
  double out[4] = {0};
  jg_error err;
  jg_kernel_arg a[3] = {jg_arg_i64(4), jg_arg_f64(1.0),
                        jg_arg_array(out, 4, JG_DTYPE_FLOAT64, host)};
  /* count */
  assert_int_equal(jg_kernel_call(k, a, 2, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "takes 3 arguments, got 2");
  assert_int_equal(jg_kernel_call(NULL, a, 3, NULL, &err), JG_EINVAL);
  /* kind */
  jg_kernel_arg b[3] = {a[2], a[1], a[2]};
  assert_int_equal(jg_kernel_call(k, b, 3, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "parameter 'n' (0) takes a scalar, got an array");
  assert_int_equal(err.index, 0);
  /* NULL with a length, negative length */
  b[0] = a[0];
  b[2] = jg_arg_array(NULL, 4, JG_DTYPE_FLOAT64, host);
  assert_int_equal(jg_kernel_call(k, b, 3, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "parameter 'out' (2) is NULL with length 4");
  b[2] = jg_arg_array(out, -1, JG_DTYPE_FLOAT64, host);
  assert_int_equal(jg_kernel_call(k, b, 3, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "negative length");
  /* no variant for float16 */
  b[2] = jg_arg_array(out, 4, JG_DTYPE_FLOAT16, host);
  assert_int_equal(jg_kernel_call(k, b, 3, NULL, &err), JG_EDTYPE);
  JGT_CONTAINS(err.message, "parameter 'out' (2) cannot be float16 (variants: (bool), (int8)");
  /* float for an integer scalar */
  b[2] = a[2];
  b[0] = jg_arg_f64(4.0);
  assert_int_equal(jg_kernel_call(k, b, 3, NULL, &err), JG_EDTYPE);
  JGT_CONTAINS(err.message, "scalar 'n' (0) is int64; a float value cannot be passed");
  /* an integer for a float scalar is converted */
  b[0] = a[0];
  b[1] = jg_arg_i64(3);
  assert_int_equal(jg_kernel_call(k, b, 3, NULL, &err), JG_OK);
  assert_true(out[3] == 3.0);
  /* too short */
  b[0] = jg_arg_i64(5);
  assert_int_equal(jg_kernel_call(k, b, 3, NULL, &err), JG_ESHAPE);
  JGT_CONTAINS(err.message, "parameter 'out' (2) has 4 elements, needs at least 5 (n+0)");
  assert_int_equal(err.index, 2);
  /* the value has the array's type: checked to fit, never converted with undefined results */
  int8_t small[4];
  jg_kernel_arg c[3] = {jg_arg_i64(4), jg_arg_i64(300),
                        jg_arg_array(small, 4, JG_DTYPE_INT8, host)};
  assert_int_equal(jg_kernel_call(k, c, 3, NULL, &err), JG_EOVERFLOW);
  JGT_CONTAINS(err.message, "scalar 'value' (1) = 300 does not fit int8");
  c[1] = jg_arg_f64(1e10);
  assert_int_equal(jg_kernel_call(k, c, 3, NULL, &err), JG_EDTYPE);
  c[1] = jg_arg_i64(-128);
  assert_int_equal(jg_kernel_call(k, c, 3, NULL, &err), JG_OK);
  assert_int_equal(small[3], -128);
  /* an output overlapping another array of the call */
  /* n = 0 with an empty NULL array is fine */
  b[0] = jg_arg_i64(0);
  b[2] = jg_arg_array(NULL, 0, JG_DTYPE_FLOAT64, host);
  assert_int_equal(jg_kernel_call(k, b, 3, NULL, &err), JG_OK);
}

/* A registered kernel y[i] = scale * x[i] for i < n, with an int32 scalar to test ranges. */
static jg_status scale_host(const jg_kernel_arg *args, size_t n_args, void *user, jg_error *err) {
  (void)err;
  assert_int_equal(n_args, 4);
  int *calls = user;
  if (calls != NULL) ++*calls;
  const int64_t n = args[0].v.i64;
  const double s = args[1].v.f64;
  const double *x = args[2].v.array.data;
  double *y = args[3].v.array.data;
  for (int64_t i = 0; i < n; ++i) y[i] = s * x[i];
  return JG_OK;
}

static const jg_kernel_param scale_params[4] = {
    {"n", JG_PARAM_SCALAR, JG_PARAM_IN, JG_DTYPE_INT32, NULL, -1, 0},
    {"s", JG_PARAM_SCALAR, JG_PARAM_IN, JG_DTYPE_FLOAT64, NULL, -1, 0},
    {"x", JG_PARAM_ARRAY, JG_PARAM_IN, JG_DTYPE_FLOAT64, NULL, 0, 0},
    {"y", JG_PARAM_ARRAY, JG_PARAM_OUT, JG_DTYPE_FLOAT64, NULL, 0, 0},
};

static jg_kernel_desc scale_desc(const char *name, int *calls) {
  jg_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.version = JG_KERNEL_DESC_VERSION;
  d.name = name;
  d.doc = "y = s * x";
  d.params = scale_params;
  d.n_params = 4;
  d.host = scale_host;
  d.host_user = calls;
  d.threads_from = 0;
  d.cuda_path = "tests/unit/scale_cuda.cu";
  return d;
}

static void child_registered_kernel(void) {
  int calls = 0;
  jg_kernel_desc d = scale_desc("scale", &calls);
  const jg_kernel *k = NULL;
  jg_error err;
  CHILD_CHECK(jg_catalog_register(&d, &k, &err) == JG_OK);
  const jg_kernel *found = NULL;
  CHILD_CHECK(jg_catalog_find("scale", &found, &err) == JG_OK && found == k);
  CHILD_CHECK(jg_catalog_at(jg_catalog_size() - 1) == k);
  CHILD_CHECK(!jg_kernel_has_cuda(k));
  double x[3] = {1, 2, 3}, y[3] = {0};
  jg_kernel_arg a[4] = {jg_arg_i64(3), jg_arg_f64(2.5), jg_arg_array(x, 3, JG_DTYPE_FLOAT64, host),
                        jg_arg_array(y, 3, JG_DTYPE_FLOAT64, host)};
  CHILD_CHECK(jg_kernel_call(k, a, 4, NULL, &err) == JG_OK);
  CHILD_CHECK(y[0] == 2.5 && y[1] == 5.0 && y[2] == 7.5 && calls == 1);
  jg_kernel_stats s;
  jg_kernel_stats_get(k, &s);
  CHILD_CHECK(s.host_calls == 1 && s.cuda_calls == 0 && s.fallback_calls == 0);
  /* int32 range */
  a[0] = jg_arg_i64((int64_t)1 << 40);
  CHILD_CHECK(jg_kernel_call(k, a, 4, NULL, &err) == JG_EOVERFLOW);
  CHILD_CHECK(strstr(err.message, "scalar 'n' (0) = 1099511627776 does not fit int32") != NULL);
  a[0] = jg_arg_i64(3);
  /* mixed residency: the check names both parameters and the fixing calls */
  a[3].v.array.device = (jg_device){JG_DEVICE_CUDA, 0};
  CHILD_CHECK(jg_kernel_call(k, a, 4, NULL, &err) == JG_EBACKEND);
  CHILD_CHECK(strstr(err.message, "parameter 'y' (3) is on cuda:0 but parameter 'x' (2) is on "
                                  "cpu") != NULL);
  CHILD_CHECK(strstr(err.message, "jg_array_to_device") != NULL && err.index == 3);
  /* an output overlapping an input, and an unknown device type */
  double xy[4] = {1, 2, 3, 4};
  jg_kernel_arg o[4] = {jg_arg_i64(3), jg_arg_f64(2.0),
                        jg_arg_array(xy, 3, JG_DTYPE_FLOAT64, host),
                        jg_arg_array(xy + 1, 3, JG_DTYPE_FLOAT64, host)};
  CHILD_CHECK(jg_kernel_call(k, o, 4, NULL, &err) == JG_EINVAL);
  CHILD_CHECK(strstr(err.message, "output parameter 'y' (3) overlaps parameter 'x' (2)") != NULL);
  CHILD_CHECK(xy[1] == 2 && xy[3] == 4); /* nothing written */
  o[3] = jg_arg_array(y, 3, JG_DTYPE_FLOAT64, (jg_device){(jg_device_type)77, 0});
  CHILD_CHECK(jg_kernel_call(k, o, 4, NULL, &err) == JG_EINVAL);
  CHILD_CHECK(strstr(err.message, "has an unknown device type 77") != NULL);
  /* device arguments without CUDA code: the raise policy names the kernel and the file */
  a[2].v.array.device = (jg_device){JG_DEVICE_CUDA, 0};
  CHILD_CHECK(jg_kernel_call(k, a, 4, NULL, &err) == JG_ENOTSUP);
  CHILD_CHECK(strstr(err.message, "kernel 'scale' has no CUDA implementation (expected "
                                  "tests/unit/scale_cuda.cu)") != NULL);
  const char *sel = "x";
  CHILD_CHECK(jg_kernel_selected(k, JG_BACKEND_CUDA, &sel, &err) == JG_ENOTSUP && sel == NULL);
  /* fallback selected; without a GPU the call then needs one */
  CHILD_CHECK(jg_kernel_set_missing_cuda(k, JG_MISSING_CUDA_FALLBACK, &err) == JG_OK);
  CHILD_CHECK(jg_kernel_get_missing_cuda(k) == JG_MISSING_CUDA_FALLBACK);
  CHILD_CHECK(jg_kernel_selected(k, JG_BACKEND_CUDA, &sel, &err) == JG_OK);
  CHILD_CHECK(strcmp(sel, "fallback:c") == 0);
  int n_dev = 0;
  if (jg_device_count(&n_dev, NULL) != JG_OK || n_dev == 0) {
    CHILD_CHECK(jg_kernel_call(k, a, 4, NULL, &err) == JG_ENODEV);
  }
  /* the summary names it as missing */
  char got[4096], want[4096];
  jg_catalog_summary(got, sizeof got, 0);
  expected_summary(want, sizeof want, 0);
  CHILD_CHECK(strcmp(got, want) == 0);
  CHILD_CHECK(strstr(got, "scale") != NULL);
  /* a duplicate */
  CHILD_CHECK(jg_catalog_register(&d, NULL, &err) == JG_EINVAL);
  CHILD_CHECK(strstr(err.message, "a kernel named 'scale' is already registered") != NULL);
  d.name = "fill";
  CHILD_CHECK(jg_catalog_register(&d, NULL, &err) == JG_EINVAL);
}

static void test_registered_kernel(void **state) {
  (void)state;
  in_child(child_registered_kernel);
}

static void child_summary_truncation(void) {
  jg_error err;
  const char *names[3] = {"zz_a", "zz_b", "zz_c"};
  for (int i = 0; i < 3; ++i) {
    jg_kernel_desc d = scale_desc(names[i], NULL);
    CHILD_CHECK(jg_catalog_register(&d, NULL, &err) == JG_OK);
  }
  char got[4096], want[4096];
  jg_catalog_summary(got, sizeof got, 2);
  expected_summary(want, sizeof want, 2);
  CHILD_CHECK(strcmp(got, want) == 0);
  CHILD_CHECK(strstr(got, ", ...)") != NULL);
  /* the returned length is the whole line's, also into a short buffer */
  char small[10];
  const size_t need = jg_catalog_summary(small, sizeof small, 2);
  CHILD_CHECK(need == strlen(want) && strlen(small) == 9 && strncmp(small, want, 9) == 0);
  CHILD_CHECK(jg_catalog_summary(NULL, 0, 2) == need);
}

static void test_summary(void **state) {
  (void)state;
  char got[4096], want[4096];
  const size_t len = jg_catalog_summary(got, sizeof got, 0);
  expected_summary(want, sizeof want, 0);
  assert_string_equal(got, want);
  assert_int_equal(len, strlen(want));
#if defined(JG_HAVE_CUDA)
  /* every built-in kernel of a CUDA build has CUDA code */
  char all[64];
  snprintf(all, sizeof all, "CUDA kernels: %zu of %zu", jg_catalog_size(), jg_catalog_size());
  assert_string_equal(got, all);
#endif
  in_child(child_summary_truncation);
}

static void test_register_errors(void **state) {
  (void)state;
  jg_error err;
  assert_int_equal(jg_catalog_register(NULL, NULL, &err), JG_EINVAL);
  jg_kernel_desc d = scale_desc("bad name", NULL);
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "'bad name' is not [A-Za-z_][A-Za-z0-9_]*");
  d = scale_desc("ok_name", NULL);
  d.version = 99;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "desc.version is 99");
  d = scale_desc("ok_name", NULL);
  d.host = NULL;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "has no host function");
  d = scale_desc("ok_name", NULL);
  d.host_impl_name = "simd";
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "'simd' is not a host implementation name");
  jg_kernel_param p[2] = {scale_params[2], scale_params[2]};
  p[0].min_length_param = p[1].min_length_param = -1;
  d = scale_desc("ok_name", NULL);
  d.params = p;
  d.n_params = 2;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "parameter 'x' appears twice");
  p[1] = scale_params[0];
  p[1].dir = JG_PARAM_OUT;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "(scalars are IN)");
  p[1] = scale_params[3];
  p[1].min_length_param = -1;
  p[1].type_var = "T";
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "has a type variable; register one kernel per dtype");
  p[1] = scale_params[3];
  p[1].min_length_param = -1;
  p[1].dtype = JG_DTYPE_FLOAT16;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "has dtype float16");
  p[1] = scale_params[3];
  p[1].min_length_param = 0; /* 'x', an array */
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "min_length_param must be an integer scalar parameter or -1");
  d = scale_desc("ok_name", NULL);
  d.threads_from = 4;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "threads_from 4 is not a parameter");
  d = scale_desc("ok_name", NULL);
  d.block = 2048;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  d = scale_desc("ok_name", NULL);
  d.n_cuda_options = 2;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "cuda_options is NULL with n_cuda_options 2");
  const char *opts[2] = {"-DX=1", NULL};
  d.cuda_options = opts;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "cuda option 1 is NULL or empty");
  opts[1] = "";
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  d = scale_desc("ok_name", NULL);
  d.cuda_source = "extern \"C\" __global__ void k(long n) {}";
  const char *entries[3] = {"", "tk<double>", "k; int y"};
  for (int i = 0; i < 3; ++i) {
    d.cuda_entry = entries[i];
    assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
    JGT_CONTAINS(err.message, "must be the plain name of an extern \"C\" __global__ function");
  }
  d = scale_desc("ok_name", NULL);
  d.reserved[2] = 1;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "desc.reserved must be zero");
  char longname[80];
  memset(longname, 'a', 79);
  longname[79] = '\0';
  d = scale_desc(longname, NULL);
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "at most 64 characters (this one has 79)");
  d = scale_desc("ok_name", NULL);
  d.threads_from = 1; /* s, a float */
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "threads_from names a float scalar");
  jg_kernel_param pc[1] = {scale_params[1]};
  pc[0].dtype = JG_DTYPE_COMPLEX128;
  d = scale_desc("ok_name", NULL);
  d.params = pc;
  d.n_params = 1;
  d.threads_from = -1;
  assert_int_equal(jg_catalog_register(&d, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "has dtype complex128");
  /* none of these registered anything */
  const jg_kernel *k;
  assert_int_equal(jg_catalog_find("ok_name", &k, &err), JG_ENOTFOUND);
}

/* ------------------------------------------------ host implementation choice */

static void test_host_impl_choice(void **state) {
  (void)state;
  const jg_kernel *k = fill_kernel();
  const char *const *known;
  assert_int_equal(jg_host_impl_known(&known), 2);
  assert_string_equal(known[0], "c");
  assert_string_equal(known[1], "openmp");
  jg_error err;
  const char *sel = NULL;
  assert_null(jg_host_impl_get());
  JGT_OK(jg_kernel_selected(k, JG_BACKEND_CPU, &sel, &jgt_err_));
  assert_string_equal(sel, "c");
  assert_int_equal(jg_host_impl_set("simd", &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "'simd' is not a host implementation (known: c, openmp)");
  assert_null(jg_host_impl_get());
  /* process-wide, then a per-thread push wins, pop restores */
  JGT_OK(jg_host_impl_set("openmp", &jgt_err_));
  assert_string_equal(jg_host_impl_get(), "openmp");
  JGT_OK(jg_host_impl_push("c", &jgt_err_));
  assert_string_equal(jg_host_impl_get(), "c");
  JGT_OK(jg_host_impl_push(NULL, &jgt_err_)); /* automatic, overriding the process choice */
  assert_null(jg_host_impl_get());
  JGT_OK(jg_host_impl_pop(&jgt_err_));
  JGT_OK(jg_host_impl_pop(&jgt_err_));
  assert_string_equal(jg_host_impl_get(), "openmp");
  assert_int_equal(jg_host_impl_pop(&err), JG_ESTATE);
  JGT_CONTAINS(err.message, "no host implementation choice is pushed");
  if (has_openmp(k)) {
    JGT_OK(jg_kernel_selected(k, JG_BACKEND_CPU, &sel, &jgt_err_));
    assert_string_equal(sel, "openmp");
    double out[3] = {0};
    jg_kernel_arg a[3] = {jg_arg_i64(3), jg_arg_f64(4.0),
                          jg_arg_array(out, 3, JG_DTYPE_FLOAT64, host)};
    JGT_OK(jg_kernel_call(k, a, 3, NULL, &jgt_err_));
    assert_true(out[0] == 4.0 && out[2] == 4.0);
  } else {
    /* a chosen implementation that is missing is an error, never another one silently */
    double out[3] = {0};
    jg_kernel_arg a[3] = {jg_arg_i64(3), jg_arg_f64(4.0),
                          jg_arg_array(out, 3, JG_DTYPE_FLOAT64, host)};
    assert_int_equal(jg_kernel_call(k, a, 3, NULL, &err), JG_ENOTFOUND);
    JGT_CONTAINS(err.message, "kernel 'fill' has no 'openmp' host implementation (it has: c)");
    assert_true(out[0] == 0.0);
  }
  JGT_OK(jg_host_impl_set(NULL, &jgt_err_));
  assert_null(jg_host_impl_get());
  /* the stack is bounded */
  int pushed = 0;
  while (jg_host_impl_push("c", &err) == JG_OK) ++pushed;
  assert_int_equal(pushed, 16);
  assert_int_equal(err.status, JG_ESTATE);
  for (int i = 0; i < pushed; ++i) JGT_OK(jg_host_impl_pop(&jgt_err_));
}

static void *other_thread(void *arg) {
  const char **seen = arg;
  seen[0] = jg_host_impl_get(); /* the process choice, not the main thread's push */
  jg_error err;
  if (jg_host_impl_push("openmp", &err) != JG_OK) return NULL;
  seen[1] = jg_host_impl_get();
  (void)jg_host_impl_pop(&err);
  return NULL;
}

static void test_host_impl_per_thread(void **state) {
  (void)state;
  JGT_OK(jg_host_impl_push("c", &jgt_err_));
  const char *seen[2] = {"unset", "unset"};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, other_thread, seen), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  assert_null(seen[0]);
  assert_string_equal(seen[1], "openmp");
  assert_string_equal(jg_host_impl_get(), "c"); /* the other thread's push did not leak here */
  JGT_OK(jg_host_impl_pop(&jgt_err_));
}

static void child_env_valid(void) {
  CHILD_CHECK(setenv("JG_HOST_IMPL", "  OpenMP ", 1) == 0);
  CHILD_CHECK(setenv("JG_MISSING_CUDA", "Fallback", 1) == 0);
  CHILD_CHECK(jg_host_impl_get() != NULL && strcmp(jg_host_impl_get(), "openmp") == 0);
  CHILD_CHECK(jg_kernel_get_missing_cuda(NULL) == JG_MISSING_CUDA_FALLBACK);
  /* read once: later changes have no effect */
  CHILD_CHECK(setenv("JG_HOST_IMPL", "c", 1) == 0);
  CHILD_CHECK(strcmp(jg_host_impl_get(), "openmp") == 0);
}

static void child_env_invalid(void) {
  CHILD_CHECK(setenv("JG_HOST_IMPL", "gpu", 1) == 0);
  const jg_kernel *k = NULL;
  jg_error err;
  CHILD_CHECK(jg_catalog_find("fill", &k, &err) == JG_OK);
  double out[2];
  jg_kernel_arg a[3] = {jg_arg_i64(2), jg_arg_f64(1.0),
                        jg_arg_array(out, 2, JG_DTYPE_FLOAT64, host)};
  CHILD_CHECK(jg_kernel_call(k, a, 3, NULL, &err) == JG_EINVAL);
  CHILD_CHECK(strstr(err.message, "JG_HOST_IMPL='gpu' is not a host implementation") != NULL);
  /* setting a choice repairs it */
  CHILD_CHECK(jg_host_impl_set("c", &err) == JG_OK);
  CHILD_CHECK(jg_kernel_call(k, a, 3, NULL, &err) == JG_OK && out[1] == 1.0);
}

static void child_env_invalid_policy(void) {
  CHILD_CHECK(setenv("JG_MISSING_CUDA", "maybe", 1) == 0);
  const jg_kernel *k = NULL;
  jg_error err;
  CHILD_CHECK(jg_catalog_find("fill", &k, &err) == JG_OK);
  double out[2];
  jg_kernel_arg a[3] = {jg_arg_i64(2), jg_arg_f64(1.0),
                        jg_arg_array(out, 2, JG_DTYPE_FLOAT64, host)};
  CHILD_CHECK(jg_kernel_call(k, a, 3, NULL, &err) == JG_EINVAL);
  CHILD_CHECK(strstr(err.message, "JG_MISSING_CUDA='maybe' is not a policy") != NULL);
  CHILD_CHECK(jg_kernel_set_missing_cuda(NULL, JG_MISSING_CUDA_RAISE, &err) == JG_OK);
  CHILD_CHECK(jg_kernel_call(k, a, 3, NULL, &err) == JG_OK);
}

static void test_environment(void **state) {
  (void)state;
  in_child(child_env_valid);
  in_child(child_env_invalid);
  in_child(child_env_invalid_policy);
}

static void test_missing_cuda_policy(void **state) {
  (void)state;
  const jg_kernel *k = fill_kernel();
  jg_error err;
  assert_int_equal(jg_kernel_get_missing_cuda(NULL), JG_MISSING_CUDA_RAISE);
  assert_int_equal(jg_kernel_get_missing_cuda(k), JG_MISSING_CUDA_RAISE);
  JGT_OK(jg_kernel_set_missing_cuda(NULL, JG_MISSING_CUDA_FALLBACK, &jgt_err_));
  assert_int_equal(jg_kernel_get_missing_cuda(k), JG_MISSING_CUDA_FALLBACK);
  JGT_OK(jg_kernel_set_missing_cuda(k, JG_MISSING_CUDA_RAISE, &jgt_err_));
  assert_int_equal(jg_kernel_get_missing_cuda(k), JG_MISSING_CUDA_RAISE);
  JGT_OK(jg_kernel_set_missing_cuda(k, JG_MISSING_CUDA_DEFAULT, &jgt_err_));
  assert_int_equal(jg_kernel_get_missing_cuda(k), JG_MISSING_CUDA_FALLBACK);
  assert_int_equal(jg_kernel_set_missing_cuda(NULL, JG_MISSING_CUDA_DEFAULT, &err), JG_EINVAL);
  assert_int_equal(jg_kernel_set_missing_cuda(k, (jg_missing_cuda)7, &err), JG_EINVAL);
  JGT_OK(jg_kernel_set_missing_cuda(NULL, JG_MISSING_CUDA_RAISE, &jgt_err_));
  const char *sel = NULL;
#if defined(JG_HAVE_CUDA)
  JGT_OK(jg_kernel_selected(k, JG_BACKEND_CUDA, &sel, &jgt_err_));
  assert_string_equal(sel, "cuda");
#else
  assert_int_equal(jg_kernel_selected(k, JG_BACKEND_CUDA, &sel, &err), JG_ENOTSUP);
  JGT_CONTAINS(err.message, "kernel 'fill': jagged was built without CUDA (-DJG_WITH_CUDA=OFF)");
#endif
  assert_int_equal(jg_kernel_selected(k, (jg_backend)9, &sel, &err), JG_EINVAL);
  assert_int_equal(jg_kernel_selected(NULL, JG_BACKEND_CPU, &sel, &err), JG_EINVAL);
}

/* ------------------------------------------------------- signature check */

static void test_check_builtin(void **state) {
  (void)state;
  char report[8192];
  jg_error err;
  const jg_status st = jg_catalog_check(report, sizeof report, &err);
  if (st != JG_OK) print_error("%s", report);
  assert_int_equal(st, JG_OK);
  assert_string_equal(report, "");
}

static const char swapped_cuda[] =
    "// a comment mentioning __global__ void scale_k(int bogus)\n"
    "extern \"C\" __global__ void scale_k(int n, double s, double *y,\n"
    "                                     const double *x) {}\n";
static const char nonconst_cuda[] =
    "extern \"C\" __global__ void scale_k(int n, double s, double *x, double *y) {}\n";
static const char renamed_cuda[] =
    "extern \"C\" __global__ void other(int n, double s, const double *x, double *y) {}\n";
static const char good_cuda[] =
    "/* fine */ extern \"C\" __global__ void scale_k(int32_t n, double s,\n"
    "    const double *__restrict__ x, double *__restrict__ y) {\n"
    "  for (int i = 0; i < n; ++i) y[i] = s * x[i];\n}\n";

static void child_check_mismatches(void) {
  jg_error err;
  const char *srcs[4] = {swapped_cuda, nonconst_cuda, renamed_cuda, good_cuda};
  const char *names[4] = {"chk_swapped", "chk_nonconst", "chk_renamed", "chk_good"};
  for (int i = 0; i < 4; ++i) {
    jg_kernel_desc d = scale_desc(names[i], NULL);
    d.cuda_source = srcs[i];
    d.cuda_entry = "scale_k";
    CHILD_CHECK(jg_catalog_register(&d, NULL, &err) == JG_OK);
  }
  char report[8192];
  CHILD_CHECK(jg_catalog_check(report, sizeof report, &err) == JG_EVALUE);
  CHILD_CHECK(err.index == 3); /* every mismatch, not only the first */
  CHILD_CHECK(strstr(report, "kernel 'chk_swapped': the spec takes (n, s, x, y), the CUDA kernel "
                             "(n, s, y, x)\n") != NULL);
  CHILD_CHECK(strstr(report, "kernel 'chk_nonconst': parameter 'x' is not const in the CUDA "
                             "kernel but in (const) in the spec\n") != NULL);
  CHILD_CHECK(strstr(report, "kernel 'chk_renamed': the CUDA source has no __global__ function "
                             "scale_k\n") != NULL);
  /* `int` spells int32_t: no type complaint */
  CHILD_CHECK(strstr(report, "kernel 'chk_swapped': parameter") == NULL);
  CHILD_CHECK(strstr(report, "has type int") == NULL);
  CHILD_CHECK(strstr(report, "chk_good") == NULL);
  CHILD_CHECK(strstr(err.message, "kernel 'chk_swapped'") != NULL);
}

static void child_check_literals(void) {
  jg_error err;
  /* A character literal holding a quote, and (another kernel) a source ending inside a string:
   * the first is fine, the second has no parsable kernel; neither may crash the check. */
  jg_kernel_desc d = scale_desc("chk_quote", NULL);
  d.cuda_source = "__device__ const char q = '\"';\n"
                  "extern \"C\" __global__ void scale_k(int n, double s, const double *x,\n"
                  "                                     double *y) { (void)q; }\n";
  d.cuda_entry = "scale_k";
  CHILD_CHECK(jg_catalog_register(&d, NULL, &err) == JG_OK);
  char report[8192];
  CHILD_CHECK(jg_catalog_check(report, sizeof report, &err) == JG_OK);
  d = scale_desc("chk_unterminated", NULL);
  d.cuda_source = "__global__ void scale_k(int n, double s, const double *x, double *y) {}\"";
  d.cuda_entry = "scale_k";
  CHILD_CHECK(jg_catalog_register(&d, NULL, &err) == JG_OK);
  CHILD_CHECK(jg_catalog_check(report, sizeof report, &err) == JG_OK);
  d = scale_desc("chk_open", NULL);
  d.cuda_source = "__global__ void scale_k(int n, \"double s, const double *x, double *y) {}";
  d.cuda_entry = "scale_k";
  CHILD_CHECK(jg_catalog_register(&d, NULL, &err) == JG_OK);
  CHILD_CHECK(jg_catalog_check(report, sizeof report, &err) == JG_EVALUE);
  CHILD_CHECK(strstr(report, "kernel 'chk_open'") != NULL);
}

static void child_check_types(void) {
  jg_error err;
  jg_kernel_desc d = scale_desc("chk_types", NULL);
  d.cuda_source = "extern \"C\" __global__ void scale_k(long n, float s, const double *x,\n"
                  "                                     double *y) {}\n";
  d.cuda_entry = "scale_k";
  CHILD_CHECK(jg_catalog_register(&d, NULL, &err) == JG_OK);
  char report[8192];
  CHILD_CHECK(jg_catalog_check(report, sizeof report, &err) == JG_EVALUE);
  CHILD_CHECK(err.index == 2);
  CHILD_CHECK(strstr(report, "kernel 'chk_types': parameter 'n' has type long in the CUDA kernel, "
                             "the spec says int32_t\n") != NULL);
  CHILD_CHECK(strstr(report, "kernel 'chk_types': parameter 's' has type float in the CUDA "
                             "kernel, the spec says double\n") != NULL);
}

static void test_check_mismatches(void **state) {
  (void)state;
  in_child(child_check_mismatches);
  in_child(child_check_types);
  in_child(child_check_literals);
}

/* ------------------------------------------------------------ parity */

static void test_parity_host_impls(void **state) {
  (void)state;
  const jg_kernel *k = fill_kernel();
  assert_int_equal(jg_kernel_parity_case_count(k), 6);
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.other = "openmp";
  jg_parity_result r;
  jg_error err;
  if (has_openmp(k)) {
    JGT_OK(jg_kernel_parity(k, &o, &r, &jgt_err_));
    assert_int_equal(r.cases_run, 6 * 11);
    assert_int_equal(r.cases_failed, 0);
    assert_string_equal(r.first_failure, "");
  } else {
    assert_int_equal(jg_kernel_parity(k, &o, &r, &err), JG_ENOTFOUND);
  }
  o.other = "simd";
  assert_int_equal(jg_kernel_parity(k, &o, &r, &err), JG_ENOTFOUND);
  o.other = NULL; /* cuda */
  const jg_status st = jg_kernel_parity(k, &o, &r, &err);
  int n_dev = 0;
  if (jg_device_count(&n_dev, NULL) != JG_OK || n_dev == 0) {
#if defined(JG_HAVE_CUDA)
    assert_int_equal(st, JG_ENODEV);
#else
    assert_int_equal(st, JG_ENOTSUP);
#endif
    assert_int_equal(r.cases_run, 0);
  }
}

/* A kernel whose host side answers differently on every call: parity must catch it. */
static jg_status drifting_host(const jg_kernel_arg *args, size_t n_args, void *user,
                               jg_error *err) {
  (void)n_args;
  (void)err;
  int *calls = user;
  ++*calls;
  int64_t *y = args[1].v.array.data;
  for (int64_t i = 0; i < args[0].v.i64; ++i) y[i] = i == 5 && *calls % 2 == 0 ? -1 : 2 * i;
  return JG_OK;
}

static jg_status drifting_args(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                               void *user, jg_error *err) {
  (void)user;
  (void)err;
  jg_parity_case_name(ctx, case_index == 0 ? "short" : "long");
  const int64_t n = case_index == 0 ? 3 : 10;
  void *y = jg_parity_alloc(ctx, n, JG_DTYPE_INT64);
  if (y == NULL) return JG_ENOMEM;
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_array(y, n, JG_DTYPE_INT64, host);
  return JG_OK;
}

static const jg_kernel_param drifting_params[2] = {
    {"n", JG_PARAM_SCALAR, JG_PARAM_IN, JG_DTYPE_INT64, NULL, -1, 0},
    {"y", JG_PARAM_ARRAY, JG_PARAM_OUT, JG_DTYPE_INT64, NULL, 0, 0},
};

static void child_parity_mismatch(void) {
  static int calls = 0;
  jg_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.version = JG_KERNEL_DESC_VERSION;
  d.name = "drifting";
  d.params = drifting_params;
  d.n_params = 2;
  d.host = drifting_host;
  d.host_user = &calls;
  d.threads_from = -1;
  const jg_kernel *k;
  jg_error err;
  CHILD_CHECK(jg_catalog_register(&d, &k, &err) == JG_OK);
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.make_args = drifting_args;
  o.n_cases = 2;
  o.other = "c";
  jg_parity_result r;
  CHILD_CHECK(jg_kernel_parity(k, &o, &r, &err) == JG_EVALUE);
  CHILD_CHECK(r.cases_run == 2 && r.cases_failed == 1);
  CHILD_CHECK(strcmp(r.first_failure, err.message) == 0);
  CHILD_CHECK(strstr(err.message, "kernel 'drifting' case 1 (long): parameter 'y' differs at "
                                  "index 5: c 10, c -1") != NULL);
  /* without cases or make_args */
  o.make_args = NULL;
  o.n_cases = 0;
  CHILD_CHECK(jg_kernel_parity(k, &o, &r, &err) == JG_ENOTSUP);
  CHILD_CHECK(strstr(err.message, "kernel 'drifting' has no parity cases of its own (registered "
                                  "kernels need jg_parity_options.make_args)") != NULL);
}

static void test_parity_detects_differences(void **state) {
  (void)state;
  in_child(child_parity_mismatch);
}

static void test_parity_random_is_deterministic(void **state) {
  (void)state;
  /* Two runs with one seed see the same inputs: the drifting kernel's cases are deterministic
   * and fill's "random value" case must agree between two runs of c vs c. */
  const jg_kernel *k = fill_kernel();
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  o.other = "c";
  o.seed = 42;
  jg_parity_result r;
  JGT_OK(jg_kernel_parity(k, &o, &r, &jgt_err_));
  assert_int_equal(r.cases_run, 66);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      /* first: the children must be forked before this process reads the environment */
      cmocka_unit_test(test_environment),
      cmocka_unit_test(test_find_and_describe),
      cmocka_unit_test(test_find_errors),
      cmocka_unit_test(test_fill_host_every_variant),
      cmocka_unit_test(test_call_argument_errors),
      cmocka_unit_test(test_registered_kernel),
      cmocka_unit_test(test_summary),
      cmocka_unit_test(test_register_errors),
      cmocka_unit_test(test_host_impl_choice),
      cmocka_unit_test(test_host_impl_per_thread),
      cmocka_unit_test(test_missing_cuda_policy),
      cmocka_unit_test(test_check_builtin),
      cmocka_unit_test(test_check_mismatches),
      cmocka_unit_test(test_parity_host_impls),
      cmocka_unit_test(test_parity_detects_differences),
      cmocka_unit_test(test_parity_random_is_deterministic),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
