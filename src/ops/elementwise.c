/* elementwise.c: user-defined elementwise functions on jagged arrays (elementwise.h):
 * jg_array_elementwise (a descriptor from the JG_ELEMENTWISE macros), jg_array_eval (a run-time
 * expression: src/ops/expr.c parses it, evaluates it on the host, and generates the CUDA C that
 * is compiled here with NVRTC), jg_expr_cuda_source and jg_expr_cache_clear.
 *
 * How: the arguments' numeric leaves are aligned by jgi_broadcast (Awkward's broadcasting through
 * lists, options and scalars), converted to float64 by the catalog's `cast` kernel where they
 * are not float64 already, the function runs once over the aligned elements where the data lives
 * (the host loop or interpreter on the host, the launcher or NVRTC kernel on the GPU), and the
 * float64 result is wrapped back into the broadcast structure.
 *
 * Compiled expressions stay loaded in a small in-process table keyed by generated source and
 * device (the on-disk cache of rtc.h saves the compile across processes; this table saves
 * loading the module and looking up the kernel on every call). */
#include "jagged/elementwise.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_broadcast.h"
#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_expr.h"
#include "internal/jgi_ops.h"
#include "jagged/kernel.h"
#include "jagged/rtc.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_cast;

/* ------------------------------------------------------------------------------------------ */
/* Arguments                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Checks the argument list; every argument on the first one's backend. */
static jg_status check_args(const char *fn, int nargs, const jg_array *const *args, jg_array **out,
                            jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(nargs < 1 || nargs > JG_ELEMENTWISE_MAX_ARGS, JG_EINVAL, err,
               "%s: nargs is %d; it must be in 1..%d", fn, nargs, JG_ELEMENTWISE_MAX_ARGS);
  JG_RETURN_IF(args == NULL, JG_EINVAL, err, "%s: args is NULL", fn);
  for (int k = 0; k < nargs; k++) {
    JG_RETURN_IF_AT(args[k] == NULL, JG_EINVAL, err, k, "%s: args[%d] is NULL", fn, k);
  }
  for (int k = 1; k < nargs; k++) {
    char what[32];
    snprintf(what, sizeof what, "args[%d]", k);
    const jg_status st = jg_array_check_same_backend(args[0], "args[0]", args[k], what, err);
    if (st != JG_OK) {
      if (err != NULL) err->index = k;
      return jgi_error_prefix(st, fn, err);
    }
  }
  return JG_OK;
}

/* JG_EDTYPE unless argument k's leaf has a dtype elementwise functions read. */
static jg_status check_leaf(int k, const jg_kernel_arg *leaf, jg_error *err) {
  JG_RETURN_IF_AT(!jgi_expr_dtype_ok(leaf->dtype), JG_EDTYPE, err, k,
                  "args[%d] has %s values; elementwise functions take bool, integer, float32 "
                  "and float64 values",
                  k, jg_dtype_name(leaf->dtype));
  return JG_OK;
}

/* `leaf` as float64 (for the macro form, whose functions take double arrays): itself, or
 * converted by the cast kernel into a temporary of c. */
static jg_status leaf_f64(jgi_op_ctx *c, int k, const jg_kernel_arg *leaf, jg_kernel_arg *out,
                          jg_error *err) {
  JG_RETURN_NOT_OK(check_leaf(k, leaf, err));
  if (leaf->dtype == JG_DTYPE_FLOAT64) {
    *out = *leaf;
    return JG_OK;
  }
  const jg_len n = leaf->v.array.length;
  jg_view v;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_FLOAT64, &v, err));
  const jg_kernel_arg a[3] = {jg_arg_i64(n), *leaf, jgi_op_out_arg(&v)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_cast, a, 3, &c->launch, err));
  *out = jgi_op_out_arg(&v);
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Compiled expressions (CUDA)                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Most compiled expressions kept loaded; beyond, each call loads and unloads its own. */
#define MAX_LOADED 256

typedef struct loaded_expr {
  char *source;
  int device;
  jg_rtc_module *module;
  jg_rtc_kernel *kernel;
} loaded_expr;

static pthread_mutex_t loaded_lock = PTHREAD_MUTEX_INITIALIZER;
static loaded_expr loaded[MAX_LOADED];
static int n_loaded;

static const char *const A_NAMES[JG_ELEMENTWISE_MAX_ARGS] = {"a0", "a1", "a2", "a3",
                                                             "a4", "a5", "a6", "a7"};
static const char *const S_NAMES[JG_ELEMENTWISE_MAX_ARGS] = {"s0", "s1", "s2", "s3",
                                                             "s4", "s5", "s6", "s7"};

/* The parameters of the generated kernel jg_expr(n, a0, s0, ..., out), a_k of dtypes[k]; returns
 * their number. */
static size_t expr_params(int nargs, const jg_dtype *dtypes, jg_kernel_param *p) {
  size_t np = 0;
  p[np++] = (jg_kernel_param){"n", JG_PARAM_SCALAR, JG_PARAM_IN, JG_DTYPE_INT64, NULL, -1, 0};
  for (int k = 0; k < nargs; k++) {
    p[np++] =
        (jg_kernel_param){A_NAMES[k], JG_PARAM_ARRAY, JG_PARAM_IN, dtypes[k], NULL, -1, 0};
    p[np++] =
        (jg_kernel_param){S_NAMES[k], JG_PARAM_SCALAR, JG_PARAM_IN, JG_DTYPE_INT64, NULL, -1, 0};
  }
  p[np++] = (jg_kernel_param){"out", JG_PARAM_ARRAY, JG_PARAM_OUT, JG_DTYPE_FLOAT64, NULL, 0, 0};
  return np;
}

/* The kernel of `source` on `device` (current): from the table, or compiled (NVRTC, through the
 * disk cache), loaded and added to it. When the table is full, *own gets the module, which the
 * caller destroys after the launch has finished. */
static jg_status expr_kernel(const char *source, int nargs, const jg_dtype *dtypes, int device,
                             jg_rtc_kernel **kernel, jg_rtc_module **own, jg_error *err) {
  *own = NULL;
  pthread_mutex_lock(&loaded_lock);
  for (int i = 0; i < n_loaded; i++) {
    if (loaded[i].device == device && strcmp(loaded[i].source, source) == 0) {
      *kernel = loaded[i].kernel;
      pthread_mutex_unlock(&loaded_lock);
      return JG_OK;
    }
  }
  pthread_mutex_unlock(&loaded_lock);

  static const char *const options[] = {"--fmad=false"};
  jg_rtc_options opt;
  memset(&opt, 0, sizeof opt);
  opt.options = options;
  opt.n_options = 1;
  jg_rtc_program *prog = NULL;
  JG_RETURN_NOT_OK(jg_rtc_compile(source, "jg_expr.cu", NULL, 0, &opt, &prog, err));
  jg_rtc_module *mod = NULL;
  jg_status st = jg_rtc_module_load(prog, device, &mod, err);
  jg_rtc_program_destroy(prog);
  JG_RETURN_NOT_OK(st);
  jg_kernel_param params[2 + 2 * JG_ELEMENTWISE_MAX_ARGS];
  const size_t np = expr_params(nargs, dtypes, params);
  jg_rtc_kernel *k = NULL;
  st = jg_rtc_kernel_get(mod, "jg_expr", params, np, &k, err);
  if (st != JG_OK) {
    jg_rtc_module_destroy(mod);
    return st;
  }
  char *copy = malloc(strlen(source) + 1);
  if (copy != NULL) strcpy(copy, source);
  pthread_mutex_lock(&loaded_lock);
  for (int i = 0; i < n_loaded; i++) { /* another thread may have loaded it meanwhile */
    if (loaded[i].device == device && strcmp(loaded[i].source, source) == 0) {
      *kernel = loaded[i].kernel;
      pthread_mutex_unlock(&loaded_lock);
      free(copy);
      jg_rtc_module_destroy(mod);
      return JG_OK;
    }
  }
  if (copy != NULL && n_loaded < MAX_LOADED) {
    loaded[n_loaded].source = copy;
    loaded[n_loaded].device = device;
    loaded[n_loaded].module = mod;
    loaded[n_loaded].kernel = k;
    n_loaded++;
  } else {
    free(copy);
    *own = mod;
  }
  pthread_mutex_unlock(&loaded_lock);
  *kernel = k;
  return JG_OK;
}

void jg_expr_cache_clear(void) {
  pthread_mutex_lock(&loaded_lock);
  for (int i = 0; i < n_loaded; i++) {
    jg_rtc_module_destroy(loaded[i].module);
    free(loaded[i].source);
    memset(&loaded[i], 0, sizeof loaded[i]);
  }
  n_loaded = 0;
  pthread_mutex_unlock(&loaded_lock);
}

/* Runs expression `e` on the device of c over the aligned leaves (any jgi_expr_dtype_ok dtype:
 * the generated kernel converts each value to float64 as it loads it). */
static jg_status run_expr_cuda(jgi_op_ctx *c, const jgi_expr *e, int64_t n, const jg_kernel_arg *in,
                               const int64_t *step, const jg_kernel_arg *out, jg_error *err) {
  jg_dtype dtypes[JG_ELEMENTWISE_MAX_ARGS];
  for (int k = 0; k < e->nargs; k++) dtypes[k] = in[k].dtype;
  char *source = NULL;
  JG_RETURN_NOT_OK(jgi_expr_cuda_source(e, dtypes, &source, err));
  jg_status st = JG_OK;
  int prev = -1;
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  st = jgi_cuda_device_push(c->device.id, &prev, err);
#endif
  if (st == JG_OK) {
    jg_rtc_kernel *k = NULL;
    jg_rtc_module *own = NULL;
    st = expr_kernel(source, e->nargs, dtypes, c->device.id, &k, &own, err);
    if (st == JG_OK) {
      jg_kernel_arg args[2 + 2 * JG_ELEMENTWISE_MAX_ARGS];
      size_t na = 0;
      args[na++] = jg_arg_i64(n);
      for (int j = 0; j < e->nargs; j++) {
        args[na++] = in[j];
        args[na++] = jg_arg_i64(step[j]);
      }
      args[na++] = *out;
      jg_launch l;
      memset(&l, 0, sizeof l);
      l.threads = n;
      l.stream = c->launch.stream;
      st = jg_rtc_launch(k, args, na, &l, err);
    }
    if (own != NULL) {
      jg_error ignored;
      const jg_status sync = jgi_op_sync(c, st == JG_OK ? err : &ignored);
      if (st == JG_OK) st = sync;
      jg_rtc_module_destroy(own);
    }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    jgi_cuda_device_pop(prev, c->device.id);
#else
    (void)prev;
#endif
  }
  free(source);
  return st;
}

/* Runs the launcher of descriptor `f` on the device of c. */
static jg_status run_macro_cuda(jgi_op_ctx *c, const jg_elementwise *f, int64_t n,
                                const double *const *in, const int64_t *step, double *out,
                                jg_error *err) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(c->device.id, &prev, err));
  const int code = f->cuda(n, in, step, out, c->launch.stream);
  jgi_cuda_device_pop(prev, c->device.id);
  if (code != 0) {
    char op[96];
    snprintf(op, sizeof op, "launching elementwise function '%.60s'",
             f->name != NULL ? f->name : "?");
    return jgi_cuda_error(err, (cudaError_t)code, op);
  }
  return JG_OK;
#else
  (void)c;
  (void)f;
  (void)n;
  (void)in;
  (void)step;
  (void)out;
  return jg_error_set(err, JG_ENOTSUP, -1, "jagged was built without CUDA");
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* The operation                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Applies `f` (a descriptor) or `e` (an expression) to args (checked). */
static jg_status apply(const char *fn, const jg_elementwise *f, const jgi_expr *e, int nargs,
                       const jg_array *const *args, const char *const *names, jg_stream stream,
                       jg_array **out, jg_error *err) {
  if (f != NULL && jg_array_backend(args[0]) == JG_BACKEND_CUDA && f->cuda == NULL) {
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "%s: elementwise function '%.60s' has no CUDA code, and the arrays are "
                        "on the GPU: compile the file that defines '%.60s' with nvcc, or move "
                        "the arrays to the host with jg_array_to_host",
                        fn, f->name != NULL ? f->name : "?", f->name != NULL ? f->name : "?");
  }
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, args[0], stream, err));
  jgi_broadcast b;
  memset(&b, 0, sizeof b);
  jg_array *res = NULL;
  jg_status st = jgi_broadcast_init_named(&c, nargs, args, names, &b, err);
  const int64_t n = st == JG_OK ? b.length : 0;
  /* The macro form reads float64 arrays (other dtypes converted first); expressions read
   * every leaf as it is, converting each value as they load it (no converted copies). */
  jg_kernel_arg in[JG_ELEMENTWISE_MAX_ARGS];
  const void *inp[JG_ELEMENTWISE_MAX_ARGS];
  const double *inp_f64[JG_ELEMENTWISE_MAX_ARGS]; /* the macro form's float64 leaves */
  jg_dtype dtypes[JG_ELEMENTWISE_MAX_ARGS];
  int64_t step[JG_ELEMENTWISE_MAX_ARGS];
  for (int k = 0; k < nargs && st == JG_OK; k++) {
    if (f != NULL) {
      st = leaf_f64(&c, k, &b.leaves[k], &in[k], err);
    } else {
      st = check_leaf(k, &b.leaves[k], err);
      in[k] = b.leaves[k];
    }
    inp[k] = st == JG_OK ? in[k].v.array.data : NULL;
    inp_f64[k] = f != NULL ? (const double *)inp[k] : NULL;
    dtypes[k] = st == JG_OK ? in[k].dtype : JG_DTYPE_FLOAT64;
    step[k] = b.is_scalar[k] ? 0 : 1;
  }
  jg_view ov;
  if (st == JG_OK) st = jgi_op_alloc(&c, n, JG_DTYPE_FLOAT64, &ov, err);
  if (st == JG_OK && n > 0) {
    double *o = (double *)jg_view_data(&ov);
    if (c.backend == JG_BACKEND_CPU) {
      if (f != NULL) {
        st = jgi_op_sync(&c, err); /* earlier work on the stream (managed memory) */
        if (st == JG_OK) f->host(n, inp_f64, step, o);
      } else {
        st = jgi_op_sync(&c, err);
        if (st == JG_OK) st = jgi_expr_eval_host(e, n, inp, dtypes, step, o, err);
      }
    } else if (f != NULL) {
      st = run_macro_cuda(&c, f, n, inp_f64, step, o, err);
    } else {
      const jg_kernel_arg oa = jgi_op_out_arg(&ov);
      st = run_expr_cuda(&c, e, n, in, step, &oa, err);
    }
  }
  if (st == JG_OK) st = jgi_broadcast_wrap(&b, &ov, &res, err);
  jgi_broadcast_reset(&b);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

jg_status jg_array_elementwise(const jg_elementwise *f, int nargs, const jg_array *const *args,
                               jg_stream stream, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_elementwise";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(f == NULL, JG_EINVAL, err, "%s: f is NULL", fn);
  JG_RETURN_IF(f->version != JG_ELEMENTWISE_VERSION, JG_EINVAL, err,
               "%s: f has version %u; this library takes version %d (rebuild the file that "
               "defines it against this jagged)",
               fn, (unsigned)f->version, JG_ELEMENTWISE_VERSION);
  JG_RETURN_IF(f->host == NULL, JG_EINVAL, err, "%s: f has no host loop", fn);
  JG_RETURN_IF(f->nargs != nargs, JG_EINVAL, err, "%s: '%.60s' takes %d argument%s; %d given", fn,
               f->name != NULL ? f->name : "?", f->nargs, f->nargs == 1 ? "" : "s", nargs);
  JG_RETURN_NOT_OK(check_args(fn, nargs, args, out, err));
  static const char *const arg_names[JG_ELEMENTWISE_MAX_ARGS] = {
      "args[0]", "args[1]", "args[2]", "args[3]", "args[4]", "args[5]", "args[6]", "args[7]"};
  return apply(fn, f, NULL, nargs, args, arg_names, stream, out, err);
}

jg_status jg_array_eval(const char *expr, int nargs, const char *const *names,
                        const jg_array *const *args, jg_stream stream, jg_array **out,
                        jg_error *err) {
  static const char fn[] = "jg_array_eval";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(expr == NULL, JG_EINVAL, err, "%s: expr is NULL", fn);
  JG_RETURN_IF(names == NULL, JG_EINVAL, err, "%s: names is NULL", fn);
  JG_RETURN_NOT_OK(check_args(fn, nargs, args, out, err));
  jgi_expr e;
  JG_RETURN_NOT_OK(jgi_expr_parse(fn, expr, nargs, names, &e, err));
  const jg_status st = apply(fn, NULL, &e, nargs, args, names, stream, out, err);
  jgi_expr_reset(&e);
  return st;
}

jg_status jg_expr_cuda_source(const char *expr, int nargs, const char *const *names, char *buf,
                              size_t size, size_t *needed, jg_error *err) {
  static const char fn[] = "jg_expr_cuda_source";
  if (needed != NULL) *needed = 0;
  if (buf != NULL && size > 0) buf[0] = '\0';
  JG_RETURN_IF(buf == NULL && size > 0, JG_EINVAL, err, "%s: buf is NULL", fn);
  JG_RETURN_IF(expr == NULL, JG_EINVAL, err, "%s: expr is NULL", fn);
  JG_RETURN_IF(nargs < 1 || nargs > JG_ELEMENTWISE_MAX_ARGS, JG_EINVAL, err,
               "%s: nargs is %d; it must be in 1..%d", fn, nargs, JG_ELEMENTWISE_MAX_ARGS);
  JG_RETURN_IF(names == NULL, JG_EINVAL, err, "%s: names is NULL", fn);
  jgi_expr e;
  JG_RETURN_NOT_OK(jgi_expr_parse(fn, expr, nargs, names, &e, err));
  char *source = NULL;
  const jg_status st = jgi_expr_cuda_source(&e, NULL, &source, err);
  jgi_expr_reset(&e);
  JG_RETURN_NOT_OK(jgi_error_prefix(st, fn, err));
  const size_t len = strlen(source);
  if (needed != NULL) *needed = len;
  if (size > 0) {
    const size_t w = len < size - 1 ? len : size - 1;
    memcpy(buf, source, w);
    buf[w] = '\0';
  }
  free(source);
  return JG_OK;
}
