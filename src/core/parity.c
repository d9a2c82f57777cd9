/* parity.c: jg_kernel_parity, which runs two implementations of a kernel on the same generated
 * inputs and compares every output (kernel.h). The comparison goes through jg_kernel_call, so
 * it also exercises the dispatch each side takes in real use. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_kernel.h"
#include "internal/jgi_transfer.h"

#define MAX_PARAMS 32

struct jg_parity_ctx {
  const jg_kernel *k;
  size_t variant;
  int case_index;
  uint64_t rng;
  char name[96];
  void **allocs;
  size_t n_allocs;
  size_t cap;
  bool oom;
};

JGI_HIDDEN jg_status jgi_kernel_check_args(const jg_kernel *k, const jg_kernel_arg *args,
                                           size_t n_args, size_t *variant, jg_error *err);

void *jg_parity_alloc(jg_parity_ctx *ctx, jg_len count, jg_dtype dtype) {
  if (ctx == NULL) return NULL;
  const int64_t isz = jg_dtype_itemsize(dtype);
  size_t bytes;
  if (isz <= 0 || count < 0 || __builtin_mul_overflow((size_t)count, (size_t)isz, &bytes)) {
    ctx->oom = true;
    return NULL;
  }
  if (ctx->n_allocs == ctx->cap) {
    const size_t cap = ctx->cap ? 2 * ctx->cap : 16;
    void **a = realloc(ctx->allocs, cap * sizeof *a);
    if (a == NULL) {
      ctx->oom = true;
      return NULL;
    }
    ctx->allocs = a;
    ctx->cap = cap;
  }
  void *p = calloc(bytes > 0 ? bytes : 1, 1);
  if (p == NULL) {
    ctx->oom = true;
    return NULL;
  }
  ctx->allocs[ctx->n_allocs++] = p;
  return p;
}

uint64_t jg_parity_random(jg_parity_ctx *ctx) {
  /* SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014). */
  uint64_t z = (ctx->rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double jg_parity_uniform(jg_parity_ctx *ctx) {
  return (double)(jg_parity_random(ctx) >> 11) * (1.0 / 9007199254740992.0);
}

void jg_parity_case_name(jg_parity_ctx *ctx, const char *name) {
  if (ctx != NULL) snprintf(ctx->name, sizeof ctx->name, "%s", name != NULL ? name : "");
}

size_t jg_parity_variant(const jg_parity_ctx *ctx) { return ctx != NULL ? ctx->variant : 0; }

jg_dtype jg_parity_dtype(const jg_parity_ctx *ctx, size_t i) {
  return ctx != NULL ? jg_kernel_variant_dtype(ctx->k, ctx->variant, i) : JG_DTYPE_INVALID;
}

int jg_kernel_parity_case_count(const jg_kernel *k) {
  return k != NULL && k->parity != NULL ? k->n_parity_cases : 0;
}

static bool has_impl(const jg_kernel *k, const char *name) {
  for (size_t i = 0; i < k->n_host_impls; ++i)
    if (strcmp(k->host_impls[i], name) == 0) return true;
  return false;
}

static bool is_float(jg_dtype d) { return d == JG_DTYPE_FLOAT32 || d == JG_DTYPE_FLOAT64; }

static double as_double(const void *p, jg_dtype d, int64_t i) {
  return d == JG_DTYPE_FLOAT32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

/* Prints element i of an array of dtype d. */
static void show(char *buf, size_t size, const void *p, jg_dtype d, int64_t i) {
  const int64_t isz = jg_dtype_itemsize(d);
  if (is_float(d)) {
    snprintf(buf, size, "%.17g", as_double(p, d, i));
    return;
  }
  const unsigned char *b = (const unsigned char *)p + i * isz;
  int64_t sv = 0;
  uint64_t uv = 0;
  switch (d) {
    case JG_DTYPE_BOOL: case JG_DTYPE_UINT8: uv = *b; break;
    case JG_DTYPE_INT8: sv = *(const int8_t *)b; break;
    case JG_DTYPE_INT16: sv = *(const int16_t *)(const void *)b; break;
    case JG_DTYPE_UINT16: uv = *(const uint16_t *)(const void *)b; break;
    case JG_DTYPE_INT32: sv = *(const int32_t *)(const void *)b; break;
    case JG_DTYPE_UINT32: uv = *(const uint32_t *)(const void *)b; break;
    case JG_DTYPE_INT64: sv = *(const int64_t *)(const void *)b; break;
    default: uv = *(const uint64_t *)(const void *)b; break;
  }
  if (d == JG_DTYPE_INT8 || d == JG_DTYPE_INT16 || d == JG_DTYPE_INT32 || d == JG_DTYPE_INT64)
    snprintf(buf, size, "%lld", (long long)sv);
  else
    snprintf(buf, size, "%llu", (unsigned long long)uv);
}

/* First index where a and b differ (n elements of d), or -1. */
static int64_t first_difference(const void *a, const void *b, jg_dtype d, int64_t n, double rtol,
                                double atol) {
  if (is_float(d)) {
    for (int64_t i = 0; i < n; ++i) {
      const double x = as_double(a, d, i), y = as_double(b, d, i);
      if (isnan(x) && isnan(y)) continue;
      if (x == y) continue;
      if (!(fabs(x - y) <= atol + rtol * fabs(x))) return i;
    }
    return -1;
  }
  const int64_t isz = jg_dtype_itemsize(d);
  const unsigned char *p = a, *q = b;
  for (int64_t i = 0; i < n; ++i)
    if (memcmp(p + i * isz, q + i * isz, (size_t)isz) != 0) return i;
  return -1;
}

typedef struct side {
  jg_kernel_arg args[MAX_PARAMS];
  void *mem[MAX_PARAMS];
  bool device;
} side;

static void side_free(side *s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (s->mem[i] == NULL) continue;
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    if (s->device) {
      (void)cudaFree(s->mem[i]);
      continue;
    }
#endif
    free(s->mem[i]);
  }
  memset(s->mem, 0, sizeof s->mem);
}

/* Copies the host arguments `a` to side `s` (device memory of device `dev` or host memory). */
static jg_status side_make(side *s, const jg_kernel *k, const jg_kernel_arg *a, bool device,
                           int dev, jg_error *err) {
  memset(s, 0, sizeof *s);
  s->device = device;
  for (size_t i = 0; i < k->n_params; ++i) {
    s->args[i] = a[i];
    if (a[i].kind != JG_PARAM_ARRAY) continue;
    const size_t bytes = (size_t)a[i].v.array.length * (size_t)jg_dtype_itemsize(a[i].dtype);
    void *p = NULL;
    if (device) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
      JG_CUDA_RETURN_NOT_OK(cudaMalloc(&p, bytes > 0 ? bytes : 1), "parity: cudaMalloc", err);
      s->mem[i] = p;
      if (bytes > 0) {
        JG_CUDA_RETURN_NOT_OK(cudaMemcpy(p, a[i].v.array.data, bytes, cudaMemcpyHostToDevice),
                              "parity: cudaMemcpy to the device", err);
        jgi_transfer_record(JG_TRANSFER_TO_DEVICE, bytes, "jg_kernel_parity");
      }
      s->args[i].v.array.device.type = JG_DEVICE_CUDA;
      s->args[i].v.array.device.id = dev;
#else
      (void)dev;
      return jg_error_set(err, JG_ENODEV, -1, "parity: built without CUDA");
#endif
    } else {
      p = malloc(bytes > 0 ? bytes : 1);
      JG_RETURN_IF(p == NULL, JG_ENOMEM, err, "parity: out of host memory");
      s->mem[i] = p;
      if (bytes > 0) memcpy(p, a[i].v.array.data, bytes);
    }
    s->args[i].v.array.data = p;
  }
  return JG_OK;
}

/* Runs `k` on side `s` with implementation `impl` ("cuda" or a host name). */
static jg_status side_run(const jg_kernel *k, side *s, const char *impl, const jg_launch *launch,
                          jg_error *err) {
  if (s->device) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    jg_status st = jg_kernel_call(k, s->args, k->n_params, launch, err);
    if (st == JG_OK) st = jgi_cuda_error(err, cudaDeviceSynchronize(), "parity: synchronize");
    return st;
#else
    (void)launch;
    return jg_error_set(err, JG_ENODEV, -1, "parity: built without CUDA");
#endif
  }
  JG_RETURN_NOT_OK(jg_host_impl_push(impl, err));
  const jg_status st = jg_kernel_call(k, s->args, k->n_params, NULL, err);
  jg_error ignore;
  (void)jg_host_impl_pop(&ignore);
  return st;
}

/* Host pointer to array i of side `s` (copied back from the device into `tmp`). */
static jg_status side_host_data(const side *s, size_t i, void **tmp, const void **out,
                                jg_error *err) {
  *tmp = NULL;
  if (!s->device) {
    *out = s->args[i].v.array.data;
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const size_t bytes =
      (size_t)s->args[i].v.array.length * (size_t)jg_dtype_itemsize(s->args[i].dtype);
  *tmp = malloc(bytes > 0 ? bytes : 1);
  JG_RETURN_IF(*tmp == NULL, JG_ENOMEM, err, "parity: out of host memory");
  if (bytes > 0) {
    JG_CUDA_RETURN_NOT_OK(cudaMemcpy(*tmp, s->args[i].v.array.data, bytes, cudaMemcpyDeviceToHost),
                          "parity: cudaMemcpy to the host", err);
    jgi_transfer_record(JG_TRANSFER_TO_HOST, bytes, "jg_kernel_parity");
  }
  *out = *tmp;
  return JG_OK;
#else
  return jg_error_set(err, JG_ENODEV, -1, "parity: built without CUDA");
#endif
}

static void ctx_reset(jg_parity_ctx *ctx) {
  for (size_t i = 0; i < ctx->n_allocs; ++i) free(ctx->allocs[i]);
  ctx->n_allocs = 0;
  ctx->oom = false;
  ctx->name[0] = '\0';
}

/* Runs one case; JG_OK when it ran (the comparison outcome goes to *differs and msg), else an
 * error that stops the run. */
static jg_status run_case(const jg_kernel *k, jg_parity_ctx *ctx, const jg_parity_options *o,
                          const char *ref, const char *other, int dev, bool *differs,
                          char *msg, size_t msg_size, jg_error *err) {
  const jg_parity_make_args_fn make = o->make_args != NULL ? o->make_args : k->parity;
  jg_kernel_arg args[MAX_PARAMS];
  memset(args, 0, sizeof args);
  jg_status st = make(ctx, ctx->case_index, args, o->user, err);
  if (st == JG_OK && ctx->oom) st = jg_error_set(err, JG_ENOMEM, -1, "parity: out of memory");
  if (st != JG_OK) return st;
  size_t v;
  st = jgi_kernel_check_args(k, args, k->n_params, &v, err);
  if (st != JG_OK) return st;
  JG_RETURN_IF(v != ctx->variant, JG_EINVAL, err,
               "parity of kernel '%s': case %d for variant %s made arguments of variant %s",
               k->name, ctx->case_index, k->variants[ctx->variant].name, k->variants[v].name);
  const bool cuda = strcmp(other, "cuda") == 0;
  side a, b;
  st = side_make(&a, k, args, false, -1, err);
  if (st == JG_OK) st = side_make(&b, k, args, cuda, dev, err);
  if (st != JG_OK) {
    side_free(&a, k->n_params);
    side_free(&b, k->n_params);
    return st;
  }
  jg_error ea, eb;
  jg_error_clear(&ea);
  jg_error_clear(&eb);
  const jg_status sa = side_run(k, &a, ref, NULL, &ea);
  const jg_status sb = side_run(k, &b, other, o->launch, &eb);
  const double atol = o->atol > 0 ? o->atol : 0;
  char where[200];
  snprintf(where, sizeof where, "kernel '%s'%s%s case %d%s%s%s", k->name,
           k->variants[ctx->variant].name[0] ? " variant " : "", k->variants[ctx->variant].name,
           ctx->case_index, ctx->name[0] ? " (" : "", ctx->name, ctx->name[0] ? ")" : "");
  *differs = false;
  if (sa != sb || (sa != JG_OK && ea.index != eb.index)) {
    *differs = true;
    snprintf(msg, msg_size,
             "%.180s: %s returned %s (index %lld: %.120s), %s returned %s (index %lld: %.120s)",
             where, ref, jg_status_name(sa), (long long)ea.index, ea.message, other,
             jg_status_name(sb), (long long)eb.index, eb.message);
  } else if (sa == JG_OK) {
    for (size_t i = 0; i < k->n_params && !*differs && st == JG_OK; ++i) {
      if (args[i].kind != JG_PARAM_ARRAY || k->params[i].dir == JG_PARAM_IN) continue;
      void *tmp = NULL;
      const void *pb = NULL;
      st = side_host_data(&b, i, &tmp, &pb, err);
      if (st == JG_OK) {
        const jg_dtype d = args[i].dtype;
        /* The caller's tolerance, else the kernel's for this dtype (parity_rtol in its spec). */
        const double krtol = d == JG_DTYPE_FLOAT32 ? k->parity_rtol32 : k->parity_rtol64;
        const double rtol = o->rtol > 0 ? o->rtol : krtol > 0 ? krtol : 1e-12;
        const int64_t at = first_difference(a.args[i].v.array.data, pb, d,
                                            args[i].v.array.length, rtol, atol);
        if (at >= 0) {
          char va[48], vb[48];
          show(va, sizeof va, a.args[i].v.array.data, d, at);
          show(vb, sizeof vb, pb, d, at);
          *differs = true;
          snprintf(msg, msg_size, "%.200s: parameter '%s' differs at index %lld: %s %s, %s %s",
                   where, k->params[i].name, (long long)at, ref, va, other, vb);
        }
      }
      free(tmp);
    }
  }
  side_free(&a, k->n_params);
  side_free(&b, k->n_params);
  return st;
}

jg_status jg_kernel_parity(const jg_kernel *k, const jg_parity_options *opt,
                           jg_parity_result *res, jg_error *err) {
  jg_parity_options o;
  memset(&o, 0, sizeof o);
  if (opt != NULL) o = *opt;
  if (res != NULL) memset(res, 0, sizeof *res);
  JG_RETURN_IF(k == NULL, JG_EINVAL, err, "jg_kernel_parity: NULL kernel");
  JG_RETURN_IF(k->n_params > MAX_PARAMS, JG_ENOTSUP, err, "jg_kernel_parity: too many parameters");
  const char *ref = o.reference != NULL ? o.reference : "c";
  const char *other = o.other != NULL ? o.other : "cuda";
  JG_RETURN_IF(!has_impl(k, ref), JG_ENOTFOUND, err,
               "kernel '%s' has no '%s' host implementation", k->name, ref);
  const bool cuda = strcmp(other, "cuda") == 0;
  int dev = 0;
  if (cuda) {
    JG_RETURN_IF(!jg_kernel_has_cuda(k), JG_ENOTSUP, err,
                 "kernel '%s' has no CUDA implementation (expected %s)", k->name,
                 jg_kernel_cuda_path(k));
    JG_RETURN_NOT_OK(jgi_cuda_require(err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    JG_CUDA_RETURN_NOT_OK(cudaGetDevice(&dev), "parity: cudaGetDevice", err);
#endif
  } else {
    JG_RETURN_IF(!has_impl(k, other), JG_ENOTFOUND, err,
                 "kernel '%s' has no '%s' host implementation", k->name, other);
  }
  if (o.make_args == NULL && k->parity == NULL) {
    if (k->user_host != NULL) {
      return jg_error_set(err, JG_ENOTSUP, -1,
                          "kernel '%s' has no parity cases of its own (registered kernels "
                          "need jg_parity_options.make_args)", k->name);
    }
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "kernel '%s' has no parity cases (add src/kernels/%s/%s_parity.c and "
                        "\"parity_cases\" to %s.json)", k->name, k->name, k->name, k->name);
  }
  int n_cases = o.n_cases;
  if (n_cases <= 0) n_cases = o.make_args == NULL ? k->n_parity_cases : 0;
  JG_RETURN_IF(n_cases <= 0, JG_EINVAL, err, "jg_kernel_parity: n_cases must be positive");
  jg_parity_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.k = k;
  jg_status st = JG_OK;
  int run = 0, failed = 0;
  char first[JG_ERROR_MESSAGE_SIZE] = "";
  for (size_t v = 0; v < k->n_variants && st == JG_OK; ++v) {
    for (int c = 0; c < n_cases && st == JG_OK; ++c) {
      ctx_reset(&ctx);
      ctx.variant = v;
      ctx.case_index = c;
      ctx.rng = o.seed ^ (0x632be59bd9b4e019ULL * (v + 1)) ^ (0x85157af5ULL * (uint64_t)(c + 1));
      bool differs = false;
      char msg[JG_ERROR_MESSAGE_SIZE];
      st = run_case(k, &ctx, &o, ref, other, dev, &differs, msg, sizeof msg, err);
      if (st != JG_OK) break;
      ++run;
      if (differs) {
        if (failed++ == 0) memcpy(first, msg, sizeof first);
      }
    }
  }
  ctx_reset(&ctx);
  free(ctx.allocs);
  if (res != NULL) {
    res->cases_run = run;
    res->cases_failed = failed;
    snprintf(res->first_failure, sizeof res->first_failure, "%s", first);
  }
  JG_RETURN_NOT_OK(st);
  if (failed > 0) return jg_error_set(err, JG_EVALUE, failed, "%s", first);
  return JG_OK;
}
