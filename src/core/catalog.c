/* catalog.c: the kernel catalog (kernel.h): lookup, host implementation choice, the missing-CUDA
 * policy, argument checks, dispatch by residency, the host fallback, and registration.
 *
 * Built-in kernels come from the generated tables (catalog_gen.c and <name>_catalog.c, written
 * by cmake/gen_catalog.py from src/kernels/<name>/); registered kernels are appended to a fixed
 * array of pointers published with an atomic count, so readers never lock. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_kernel.h"
#include "internal/jgi_transfer.h"
#include "jagged/rtc.h"

#define MAX_PARAMS 32
#define MAX_REGISTERED 4096
#define MAX_PUSHED 16
#define MAX_NAME 64

/* ------------------------------------------------------------- registry */

static const jg_kernel *registered[MAX_REGISTERED];
static atomic_size_t n_registered;
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;

size_t jg_catalog_size(void) {
  return jgi_builtin_kernel_count + atomic_load_explicit(&n_registered, memory_order_acquire);
}

const jg_kernel *jg_catalog_at(size_t i) {
  if (i < jgi_builtin_kernel_count) return jgi_builtin_kernels[i];
  i -= jgi_builtin_kernel_count;
  if (i < atomic_load_explicit(&n_registered, memory_order_acquire)) return registered[i];
  return NULL;
}

static const jg_kernel *find(const char *name) {
  const size_t n = jg_catalog_size();
  for (size_t i = 0; i < n; ++i) {
    const jg_kernel *k = jg_catalog_at(i);
    if (strcmp(k->name, name) == 0) return k;
  }
  return NULL;
}

jg_status jg_catalog_find(const char *name, const jg_kernel **out, jg_error *err) {
  JG_RETURN_IF(out == NULL || name == NULL, JG_EINVAL, err, "jg_catalog_find: NULL %s",
               out == NULL ? "out" : "name");
  *out = find(name);
  JG_RETURN_IF(*out == NULL, JG_ENOTFOUND, err,
               "no kernel named '%s' (the catalog has %zu kernels; `jagged kernels` lists them)",
               name, jg_catalog_size());
  return JG_OK;
}

/* Appends to buf at *len as snprintf does, tracking the length the whole text needs. */
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const size_t at = *len < size ? *len : size;
  const int w = vsnprintf(buf != NULL && size > 0 ? buf + at : NULL, size > at ? size - at : 0,
                          fmt, ap);
  va_end(ap);
  if (w > 0) *len += (size_t)w;
}

size_t jg_catalog_summary(char *buf, size_t size, size_t max_missing) {
  const size_t n = jg_catalog_size();
  size_t with = 0;
  for (size_t i = 0; i < n; ++i) with += jg_kernel_has_cuda(jg_catalog_at(i));
  size_t len = 0;
  if (buf != NULL && size > 0) buf[0] = '\0';
  put(buf, size, &len, "CUDA kernels: %zu of %zu", with, n);
  if (with < n) {
    put(buf, size, &len, " (missing: ");
    size_t named = 0;
    for (size_t i = 0; i < n; ++i) {
      const jg_kernel *k = jg_catalog_at(i);
      if (jg_kernel_has_cuda(k)) continue;
      if (max_missing > 0 && named == max_missing) {
        put(buf, size, &len, ", ...");
        break;
      }
      put(buf, size, &len, "%s%s", named > 0 ? ", " : "", k->name);
      ++named;
    }
    put(buf, size, &len, ")");
  }
  return len;
}

/* ------------------------------------------------------- one kernel */

const char *jg_kernel_name(const jg_kernel *k) { return k != NULL ? k->name : ""; }
const char *jg_kernel_doc(const jg_kernel *k) { return k != NULL && k->doc ? k->doc : ""; }
size_t jg_kernel_param_count(const jg_kernel *k) { return k != NULL ? k->n_params : 0; }

const jg_kernel_param *jg_kernel_param_at(const jg_kernel *k, size_t i) {
  return k != NULL && i < k->n_params ? &k->params[i] : NULL;
}

size_t jg_kernel_variant_count(const jg_kernel *k) { return k != NULL ? k->n_variants : 0; }

const char *jg_kernel_variant_name(const jg_kernel *k, size_t v) {
  return k != NULL && v < k->n_variants ? k->variants[v].name : NULL;
}

jg_dtype jg_kernel_variant_dtype(const jg_kernel *k, size_t v, size_t i) {
  if (k == NULL || v >= k->n_variants || i >= k->n_params) return JG_DTYPE_INVALID;
  return k->variants[v].dtypes[i];
}

size_t jg_kernel_host_impl_count(const jg_kernel *k) { return k != NULL ? k->n_host_impls : 0; }

const char *jg_kernel_host_impl_name(const jg_kernel *k, size_t i) {
  return k != NULL && i < k->n_host_impls ? k->host_impls[i] : NULL;
}

bool jg_kernel_has_cuda(const jg_kernel *k) {
  if (k == NULL) return false;
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  if (k->user_host != NULL) return k->cuda_source != NULL;
  return k->n_variants > 0 && k->variants[0].cuda != NULL;
#else
  return false;
#endif
}

const char *jg_kernel_cuda_path(const jg_kernel *k) {
  return k != NULL && k->cuda_path != NULL ? k->cuda_path : "";
}

void jg_kernel_stats_get(const jg_kernel *k, jg_kernel_stats *out) {
  if (out == NULL) return;
  memset(out, 0, sizeof *out);
  if (k == NULL) return;
  out->host_calls = atomic_load(&k->state->host_calls);
  out->cuda_calls = atomic_load(&k->state->cuda_calls);
  out->fallback_calls = atomic_load(&k->state->fallback_calls);
}

jg_status jgi_kernel_error_set(const jg_kernel *k, int code, int64_t index, jg_error *err) {
  if (code < 0 || (size_t)code >= k->n_errors) {
    return jg_error_set(err, JG_EINTERNAL, index, "%s: unknown data error code %d", k->name,
                        code);
  }
  char msg[JG_ERROR_MESSAGE_SIZE];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  snprintf(msg, sizeof msg, k->errors[code].message, (long long)index);
#pragma GCC diagnostic pop
  return jg_error_set(err, k->errors[code].status, index, "%s: %s", k->name, msg);
}

/* ---------------------------------------------------- policies and choice */

static const char *const known_impls[] = {"c", "openmp"};
#define N_KNOWN (sizeof known_impls / sizeof known_impls[0])

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
/* Process choice: index into known_impls, -1 automatic. */
static atomic_int process_impl = -1;
/* JG_HOST_IMPL held a value that is not a known implementation (cleared by jg_host_impl_set). */
static atomic_int env_impl_invalid;
static char env_impl_value[64];
static atomic_int default_policy = JG_MISSING_CUDA_RAISE;
static atomic_int env_policy_invalid;
static char env_policy_value[64];

static _Thread_local int pushed[MAX_PUSHED];
static _Thread_local int n_pushed;

static int known_index(const char *name) {
  for (size_t i = 0; i < N_KNOWN; ++i)
    if (strcmp(known_impls[i], name) == 0) return (int)i;
  return -2;
}

/* Copies `s` trimmed and lower-cased into `out` (`size` bytes); a value too long to fit is
 * cut and marked with "..." (so that it matches no name and the message shows it was cut). */
static void trim_lower(const char *s, char *out, size_t size) {
  while (isspace((unsigned char)*s)) ++s;
  size_t len = strlen(s);
  while (len > 0 && isspace((unsigned char)s[len - 1])) --len;
  size_t n = 0;
  for (; n < len && n + 1 < size; ++n) out[n] = (char)tolower((unsigned char)s[n]);
  out[n] = '\0';
  if (n < len && size > 4) memcpy(out + size - 4, "...", 4);
}

static void read_env(void) {
  const char *v = getenv("JG_HOST_IMPL");
  if (v != NULL) {
    char t[64];
    trim_lower(v, t, sizeof t);
    if (t[0] != '\0') {
      const int i = known_index(t);
      if (i >= 0) {
        atomic_store(&process_impl, i);
      } else {
        snprintf(env_impl_value, sizeof env_impl_value, "%s", t);
        atomic_store(&env_impl_invalid, 1);
      }
    }
  }
  v = getenv("JG_MISSING_CUDA");
  if (v != NULL) {
    char t[64];
    trim_lower(v, t, sizeof t);
    if (strcmp(t, "raise") == 0) {
      atomic_store(&default_policy, JG_MISSING_CUDA_RAISE);
    } else if (strcmp(t, "fallback") == 0) {
      atomic_store(&default_policy, JG_MISSING_CUDA_FALLBACK);
    } else if (t[0] != '\0') {
      snprintf(env_policy_value, sizeof env_policy_value, "%s", t);
      atomic_store(&env_policy_invalid, 1);
    }
  }
}

static void ensure_env(void) { pthread_once(&env_once, read_env); }

/* JG_OK unless an environment variable read at start was invalid. */
static jg_status check_env(jg_error *err) {
  ensure_env();
  JG_RETURN_IF(atomic_load(&env_impl_invalid), JG_EINVAL, err,
               "JG_HOST_IMPL='%s' is not a host implementation (known: c, openmp); fix the "
               "variable or call jg_host_impl_set",
               env_impl_value);
  JG_RETURN_IF(atomic_load(&env_policy_invalid), JG_EINVAL, err,
               "JG_MISSING_CUDA='%s' is not a policy (raise or fallback); fix the variable or "
               "call jg_kernel_set_missing_cuda(NULL, ...)",
               env_policy_value);
  return JG_OK;
}

size_t jg_host_impl_known(const char *const **names) {
  if (names != NULL) *names = known_impls;
  return N_KNOWN;
}

static jg_status parse_choice(const char *name, int *out, jg_error *err) {
  if (name == NULL) {
    *out = -1;
    return JG_OK;
  }
  char folded[64];
  trim_lower(name, folded, sizeof folded); /* as JG_HOST_IMPL is read */
  *out = known_index(folded);
  JG_RETURN_IF(*out < 0, JG_EINVAL, err,
               "'%s' is not a host implementation (known: c, openmp)", name);
  return JG_OK;
}

jg_status jg_host_impl_set(const char *name, jg_error *err) {
  ensure_env();
  int i;
  JG_RETURN_NOT_OK(parse_choice(name, &i, err));
  atomic_store(&process_impl, i);
  atomic_store(&env_impl_invalid, 0);
  return JG_OK;
}

/* The effective choice on this thread: index into known_impls or -1. */
static int current_choice(void) {
  ensure_env();
  return n_pushed > 0 ? pushed[n_pushed - 1] : atomic_load(&process_impl);
}

const char *jg_host_impl_get(void) {
  const int i = current_choice();
  return i >= 0 ? known_impls[i] : NULL;
}

jg_status jg_host_impl_push(const char *name, jg_error *err) {
  int i;
  JG_RETURN_NOT_OK(parse_choice(name, &i, err));
  JG_RETURN_IF(n_pushed == MAX_PUSHED, JG_ESTATE, err,
               "jg_host_impl_push: %d choices are already pushed on this thread", MAX_PUSHED);
  pushed[n_pushed++] = i;
  return JG_OK;
}

jg_status jg_host_impl_pop(jg_error *err) {
  JG_RETURN_IF(n_pushed == 0, JG_ESTATE, err,
               "jg_host_impl_pop: no host implementation choice is pushed on this thread");
  --n_pushed;
  return JG_OK;
}

/* The host implementation index of `k` the choice selects. */
static jg_status select_host(const jg_kernel *k, size_t *impl, jg_error *err) {
  JG_RETURN_NOT_OK(check_env(err));
  const int c = current_choice();
  if (c < 0) {
    *impl = 0;
    return JG_OK;
  }
  for (size_t i = 0; i < k->n_host_impls; ++i) {
    if (strcmp(k->host_impls[i], known_impls[c]) == 0) {
      *impl = i;
      return JG_OK;
    }
  }
  char have[128] = "";
  size_t len = 0;
  for (size_t i = 0; i < k->n_host_impls; ++i)
    put(have, sizeof have, &len, "%s%s", i ? ", " : "", k->host_impls[i]);
  return jg_error_set(err, JG_ENOTFOUND, -1,
                      "kernel '%s' has no '%s' host implementation (it has: %s); a chosen "
                      "implementation never falls back to another: choose one it has or "
                      "automatic (jg_host_impl_set(NULL) / unset JG_HOST_IMPL)",
                      k->name, known_impls[c], have);
}

jg_status jg_kernel_set_missing_cuda(const jg_kernel *k, jg_missing_cuda policy, jg_error *err) {
  ensure_env();
  JG_RETURN_IF(policy != JG_MISSING_CUDA_DEFAULT && policy != JG_MISSING_CUDA_RAISE &&
                   policy != JG_MISSING_CUDA_FALLBACK,
               JG_EINVAL, err, "jg_kernel_set_missing_cuda: unknown policy %d", (int)policy);
  if (k == NULL) {
    JG_RETURN_IF(policy == JG_MISSING_CUDA_DEFAULT, JG_EINVAL, err,
                 "jg_kernel_set_missing_cuda: the process default must be RAISE or FALLBACK");
    atomic_store(&default_policy, (int)policy);
    atomic_store(&env_policy_invalid, 0);
    return JG_OK;
  }
  atomic_store(&k->state->missing_cuda, (int)policy);
  return JG_OK;
}

jg_missing_cuda jg_kernel_get_missing_cuda(const jg_kernel *k) {
  ensure_env();
  if (k != NULL) {
    const int p = atomic_load(&k->state->missing_cuda);
    if (p != JG_MISSING_CUDA_DEFAULT) return (jg_missing_cuda)p;
  }
  return (jg_missing_cuda)atomic_load(&default_policy);
}

static jg_status missing_cuda_error(const jg_kernel *k, jg_error *err) {
#if !(defined(JG_HAVE_CUDA) && JG_HAVE_CUDA)
  if (k->user_host == NULL || k->cuda_source != NULL) {
    return jg_error_set(err, JG_ENOTSUP, -1,
                        "kernel '%s': jagged was built without CUDA (-DJG_WITH_CUDA=OFF); copy "
                        "the arrays with jg_array_to_host, or set the fallback policy with "
                        "jg_kernel_set_missing_cuda or JG_MISSING_CUDA=fallback", k->name);
  }
#endif
  return jg_error_set(err, JG_ENOTSUP, -1,
                      "kernel '%s' has no CUDA implementation (expected %s); copy the arrays "
                      "with jg_array_to_host, or set the fallback policy with "
                      "jg_kernel_set_missing_cuda or JG_MISSING_CUDA=fallback",
                      k->name, jg_kernel_cuda_path(k));
}

jg_status jg_kernel_selected(const jg_kernel *k, jg_backend backend, const char **name,
                             jg_error *err) {
  JG_RETURN_IF(k == NULL || name == NULL, JG_EINVAL, err, "jg_kernel_selected: NULL argument");
  *name = NULL;
  JG_RETURN_IF(backend != JG_BACKEND_CPU && backend != JG_BACKEND_CUDA, JG_EINVAL, err,
               "jg_kernel_selected: unknown backend %d", (int)backend);
  if (backend == JG_BACKEND_CUDA) {
    JG_RETURN_NOT_OK(check_env(err));
    if (jg_kernel_has_cuda(k)) {
      *name = "cuda";
      return JG_OK;
    }
    if (jg_kernel_get_missing_cuda(k) == JG_MISSING_CUDA_RAISE) return missing_cuda_error(k, err);
  }
  size_t impl;
  JG_RETURN_NOT_OK(select_host(k, &impl, err));
  if (backend == JG_BACKEND_CPU) {
    *name = k->host_impls[impl];
    return JG_OK;
  }
  static const char *const fb[] = {"fallback:c", "fallback:openmp"};
  const int ki = known_index(k->host_impls[impl]);
  *name = ki >= 0 ? fb[ki] : "fallback";
  return JG_OK;
}

/* ----------------------------------------------------------- argument checks */

static const char *kind_name(jg_param_kind kind) {
  return kind == JG_PARAM_ARRAY ? "an array" : "a scalar";
}

static bool is_float(jg_dtype d) {
  return d == JG_DTYPE_FLOAT32 || d == JG_DTYPE_FLOAT64 || d == JG_DTYPE_FLOAT16 ||
         d == JG_DTYPE_BFLOAT16;
}

/* Range of an integer dtype for scalar checks. */
static void int_range(jg_dtype d, long double *lo, long double *hi) {
  switch (d) {
    case JG_DTYPE_BOOL: *lo = 0; *hi = 1; return;
    case JG_DTYPE_INT8: *lo = INT8_MIN; *hi = INT8_MAX; return;
    case JG_DTYPE_INT16: *lo = INT16_MIN; *hi = INT16_MAX; return;
    case JG_DTYPE_INT32: *lo = INT32_MIN; *hi = INT32_MAX; return;
    case JG_DTYPE_UINT8: *lo = 0; *hi = UINT8_MAX; return;
    case JG_DTYPE_UINT16: *lo = 0; *hi = UINT16_MAX; return;
    case JG_DTYPE_UINT32: *lo = 0; *hi = UINT32_MAX; return;
    case JG_DTYPE_UINT64: *lo = 0; *hi = (long double)INT64_MAX; return; /* passed as int64 */
    default: *lo = (long double)INT64_MIN; *hi = (long double)INT64_MAX; return;
  }
}

static bool host_device(jg_device d) {
  return d.type == JG_DEVICE_CPU || d.type == JG_DEVICE_CUDA_HOST ||
         d.type == JG_DEVICE_CUDA_MANAGED;
}

static const char *device_str(jg_device d, char *buf, size_t size) {
  if (host_device(d)) return "cpu";
  snprintf(buf, size, "cuda:%d", (int)d.id);
  return buf;
}

/* A checked call: the variant, the residency, and the arguments normalised to the parameter
 * types (floats for float scalars). */
typedef struct checked_call {
  size_t variant;
  bool on_device;
  int device;
  jg_kernel_arg args[MAX_PARAMS];
} checked_call;

static bool variant_matches(const jg_kernel *k, size_t v, const jg_kernel_arg *args,
                            size_t n_args) {
  const jg_dtype *d = k->variants[v].dtypes;
  for (size_t i = 0; i < n_args; ++i)
    if (args[i].kind == JG_PARAM_ARRAY && args[i].dtype != d[i]) return false;
  return true;
}

/* Checks `args` against `params` (kinds, counts, dtypes of non-generic params, scalars,
 * lengths, residency); `dtypes` (may be NULL) gives the dtypes of a variant to check against.
 * Shared by jg_kernel_call and parity. */
static jg_status check_args(const jg_kernel *k, const jg_kernel_arg *args, size_t n_args,
                            checked_call *c, jg_error *err) {
  JG_RETURN_IF(n_args != k->n_params, JG_EINVAL, err, "kernel '%s' takes %zu arguments, got %zu",
               k->name, k->n_params, n_args);
  JG_RETURN_IF(n_args > 0 && args == NULL, JG_EINVAL, err, "kernel '%s': NULL args", k->name);
  /* Kinds, arrays, residency. */
  int first_array = -1;
  for (size_t i = 0; i < n_args; ++i) {
    const jg_kernel_param *p = &k->params[i];
    const jg_kernel_arg *a = &args[i];
    JG_RETURN_IF_AT(a->kind != p->kind, JG_EINVAL, err, (int64_t)i,
                    "kernel '%s': parameter '%s' (%zu) takes %s, got %s", k->name, p->name, i,
                    kind_name(p->kind), a->kind == JG_PARAM_ARRAY || a->kind == JG_PARAM_SCALAR
                                            ? kind_name(a->kind) : "an invalid argument kind");
    if (p->kind != JG_PARAM_ARRAY) continue;
    const jg_device_type dt = a->v.array.device.type;
    JG_RETURN_IF_AT(dt != JG_DEVICE_CPU && dt != JG_DEVICE_CUDA && dt != JG_DEVICE_CUDA_HOST &&
                        dt != JG_DEVICE_CUDA_MANAGED,
                    JG_EINVAL, err, (int64_t)i,
                    "kernel '%s': parameter '%s' (%zu) has an unknown device type %d", k->name,
                    p->name, i, (int)dt);
    JG_RETURN_IF_AT(a->v.array.length < 0, JG_EINVAL, err, (int64_t)i,
                    "kernel '%s': parameter '%s' (%zu) has a negative length %lld", k->name,
                    p->name, i, (long long)a->v.array.length);
    JG_RETURN_IF_AT(a->v.array.data == NULL && a->v.array.length > 0, JG_EINVAL, err,
                    (int64_t)i, "kernel '%s': parameter '%s' (%zu) is NULL with length %lld",
                    k->name, p->name, i, (long long)a->v.array.length);
    if (first_array < 0) {
      first_array = (int)i;
      continue;
    }
    const jg_device d0 = args[first_array].v.array.device, d1 = a->v.array.device;
    const bool h0 = host_device(d0), h1 = host_device(d1);
    if (h0 != h1 || (!h0 && d0.id != d1.id)) {
      char b0[32], b1[32];
      return jg_error_set(err, JG_EBACKEND, (int64_t)i,
                          "kernel '%s': parameter '%s' (%zu) is on %s but parameter '%s' (%d) "
                          "is on %s; move whole arrays with jg_array_to_device or "
                          "jg_array_to_host (jg_copy for raw buffers) before the call",
                          k->name, p->name, i, device_str(d1, b1, sizeof b1),
                          k->params[first_array].name, first_array,
                          device_str(d0, b0, sizeof b0));
    }
  }
  c->on_device = first_array >= 0 && !host_device(args[first_array].v.array.device);
  c->device = c->on_device ? (int)args[first_array].v.array.device.id : -1;
  /* The variant: every array's dtype must match. The last one matched is tried first (calls
   * come in runs of one type), then all in order. */
  size_t v = atomic_load_explicit(&k->state->last_variant, memory_order_relaxed);
  if (v >= k->n_variants || !variant_matches(k, v, args, n_args)) {
    for (v = 0; v < k->n_variants && !variant_matches(k, v, args, n_args); ++v) {
    }
    if (v < k->n_variants) {
      atomic_store_explicit(&k->state->last_variant, (unsigned)v, memory_order_relaxed);
    }
  }
  if (v == k->n_variants) {
    /* Name the first array parameter whose dtype no variant has at that position, or list. */
    char list[256] = "";
    size_t len = 0;
    for (size_t w = 0; w < k->n_variants && w < 12; ++w)
      put(list, sizeof list, &len, "%s(%s)", w ? ", " : "", k->variants[w].name);
    if (k->n_variants > 12) put(list, sizeof list, &len, ", ...");
    for (size_t i = 0; i < n_args; ++i) {
      if (args[i].kind != JG_PARAM_ARRAY) continue;
      bool any = false;
      for (size_t w = 0; w < k->n_variants && !any; ++w)
        any = k->variants[w].dtypes[i] == args[i].dtype;
      if (!any) {
        return jg_error_set(err, JG_EDTYPE, (int64_t)i,
                            "kernel '%s': parameter '%s' (%zu) cannot be %s (variants: %s)",
                            k->name, k->params[i].name, i, jg_dtype_name(args[i].dtype),
                            k->n_variants > 1 ? list : jg_dtype_name(k->variants[0].dtypes[i]));
      }
    }
    return jg_error_set(err, JG_EDTYPE, -1,
                        "kernel '%s': no variant takes this combination of array dtypes "
                        "(variants: %s)", k->name, list);
  }
  c->variant = v;
  /* Scalars, normalised. */
  for (size_t i = 0; i < n_args; ++i) {
    c->args[i] = args[i];
    /* An empty host array may come with a NULL pointer, and host kernels offset their pointers
     * by 0 even then, which C leaves undefined for a null pointer: they get an address that is
     * never read or written instead. */
    static _Alignas(64) unsigned char empty_array[64];
    if (args[i].kind == JG_PARAM_ARRAY && args[i].v.array.data == NULL &&
        host_device(args[i].v.array.device)) {
      c->args[i].v.array.data = empty_array;
    }
    if (args[i].kind != JG_PARAM_SCALAR) continue;
    const jg_dtype want = k->variants[v].dtypes[i];
    const jg_kernel_param *p = &k->params[i];
    JG_RETURN_IF_AT(args[i].dtype != JG_DTYPE_INT64 && args[i].dtype != JG_DTYPE_FLOAT64,
                    JG_EDTYPE, err, (int64_t)i,
                    "kernel '%s': scalar '%s' (%zu) must be made with jg_arg_i64 or jg_arg_f64",
                    k->name, p->name, i);
    if (is_float(want)) {
      if (args[i].dtype == JG_DTYPE_INT64) {
        c->args[i].dtype = JG_DTYPE_FLOAT64;
        c->args[i].v.f64 = (double)args[i].v.i64;
      }
      continue;
    }
    JG_RETURN_IF_AT(args[i].dtype == JG_DTYPE_FLOAT64, JG_EDTYPE, err, (int64_t)i,
                    "kernel '%s': scalar '%s' (%zu) is %s; a float value cannot be passed "
                    "(use jg_arg_i64)", k->name, p->name, i, jg_dtype_name(want));
    long double lo, hi;
    int_range(want, &lo, &hi);
    const long double x = (long double)args[i].v.i64;
    JG_RETURN_IF_AT(x < lo || x > hi, JG_EOVERFLOW, err, (int64_t)i,
                    "kernel '%s': scalar '%s' (%zu) = %lld does not fit %s", k->name, p->name, i,
                    (long long)args[i].v.i64, jg_dtype_name(want));
  }
  /* An out or inout array must not overlap another array of the call: the implementations
   * read and write in different orders, so the result would depend on the backend. */
  for (size_t i = 0; i < n_args; ++i) {
    if (k->params[i].kind != JG_PARAM_ARRAY || k->params[i].dir == JG_PARAM_IN) continue;
    /* Addresses as integers: an empty argument may have a NULL pointer. */
    const uintptr_t b0 = (uintptr_t)args[i].v.array.data;
    const uintptr_t e0 =
        b0 + (uintptr_t)(args[i].v.array.length * jg_dtype_itemsize(args[i].dtype));
    for (size_t j = 0; j < n_args; ++j) {
      if (j == i || k->params[j].kind != JG_PARAM_ARRAY || b0 == e0) continue;
      const uintptr_t b1 = (uintptr_t)args[j].v.array.data;
      const uintptr_t e1 =
          b1 + (uintptr_t)(args[j].v.array.length * jg_dtype_itemsize(args[j].dtype));
      JG_RETURN_IF_AT(b1 < e0 && b0 < e1, JG_EINVAL, err, (int64_t)i,
                      "kernel '%s': output parameter '%s' (%zu) overlaps parameter '%s' (%zu); "
                      "write to a separate array", k->name, k->params[i].name, i,
                      k->params[j].name, j);
    }
  }
  /* Minimum lengths. */
  for (size_t i = 0; i < n_args; ++i) {
    const jg_kernel_param *p = &k->params[i];
    if (p->kind != JG_PARAM_ARRAY || p->min_length_param < 0) continue;
    const int64_t base = c->args[p->min_length_param].v.i64;
    int64_t need;
    if (__builtin_add_overflow(base, p->min_length_add, &need)) need = INT64_MAX;
    JG_RETURN_IF_AT(need > 0 && args[i].v.array.length < need, JG_ESHAPE, err, (int64_t)i,
                    "kernel '%s': parameter '%s' (%zu) has %lld elements, needs at least %lld "
                    "(%s%+lld)", k->name, p->name, i, (long long)args[i].v.array.length,
                    (long long)need, k->params[p->min_length_param].name,
                    (long long)p->min_length_add);
  }
  return JG_OK;
}

/* ----------------------------------------------------------- running */

static jg_status run_host(const jg_kernel *k, size_t impl, const checked_call *c, jg_error *err) {
  if (k->user_host != NULL) return k->user_host(c->args, k->n_params, k->user_host_user, err);
  return k->variants[c->variant].host[impl](c->args, err);
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
jg_status jgi_cuda_launch(const void *fn, void **params, const jgi_launch_cfg *cfg,
                          const char *kernel, jg_error *err) {
  const dim3 grid = {(unsigned)cfg->grid, 1, 1}, block = {(unsigned)cfg->block, 1, 1};
  const cudaError_t e = cudaLaunchKernel(fn, grid, block, params, cfg->shared_bytes,
                                         (cudaStream_t)cfg->stream);
  if (e == cudaSuccess) return JG_OK;
  char op[128];
  snprintf(op, sizeof op, "kernel '%s': launch of %lld blocks of %d threads", kernel,
           (long long)cfg->grid, cfg->block);
  return jgi_cuda_error(err, e, op);
}
#endif

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/* Number of threads a CUDA call needs. */
static int64_t thread_count(const jg_kernel *k, const checked_call *c, const jg_launch *l) {
  if (l != NULL && l->threads > 0) return l->threads;
  int tf = k->threads_from;
  if (tf < 0) {
    for (size_t i = 0; i < k->n_params; ++i) {
      if (k->params[i].kind == JG_PARAM_ARRAY) {
        tf = (int)i;
        break;
      }
    }
    if (tf < 0) return 1;
  }
  int64_t most = 0;
  for (size_t i = 0; i < k->n_params; ++i) {
    if ((int)i != tf && (i >= 32 || !(k->threads_from_more >> i & 1u))) continue;
    const jg_kernel_arg *a = &c->args[i];
    const int64_t t = a->kind == JG_PARAM_ARRAY ? a->v.array.length : a->v.i64;
    if (t > most) most = t;
  }
  return most;
}

static jg_status launch_config(const jg_kernel *k, const checked_call *c, const jg_launch *l,
                               jgi_launch_cfg *cfg, bool *empty, jg_error *err) {
  const int block = l != NULL && l->block != 0 ? l->block : (k->block > 0 ? k->block : 256);
  JG_RETURN_IF(block < 1 || block > 1024, JG_EINVAL, err,
               "kernel '%s': block of %d threads is outside [1, 1024]", k->name, block);
  JG_RETURN_IF(l != NULL && (l->grid < 0 || l->threads < 0), JG_EINVAL, err,
               "kernel '%s': negative grid or threads", k->name);
  int64_t grid;
  if (l != NULL && l->grid > 0) {
    grid = l->grid;
  } else {
    const int64_t n = thread_count(k, c, l);
    grid = n / block + (n % block != 0);
  }
  JG_RETURN_IF(grid > INT32_MAX, JG_EINVAL, err, "kernel '%s': grid of %lld blocks is too large",
               k->name, (long long)grid);
  *empty = grid == 0;
  cfg->grid = grid;
  cfg->block = block;
  cfg->shared_bytes = l != NULL ? l->shared_bytes : 0;
  cfg->stream = l != NULL ? l->stream : NULL;
  cfg->device = c->device;
  return JG_OK;
}

static jg_status run_cuda_builtin(const jg_kernel *k, const checked_call *c, const jg_launch *l,
                                  jg_error *err) {
  jgi_launch_cfg cfg;
  bool empty = true;
  JG_RETURN_NOT_OK(launch_config(k, c, l, &cfg, &empty, err));
  if (empty) return JG_OK;
  const jgi_kernel_variant *v = &k->variants[c->variant];
  if (k->n_errors == 0) return v->cuda(c->args, &cfg, NULL, err);
  /* Kernels with data errors: a device word, reset to "none", read back after the launch. */
  cudaStream_t s = (cudaStream_t)cfg.stream;
  unsigned long long *word = NULL, host_word = ~0ULL;
  /* From the library's pool: the default pool's threshold of 0 would unmap and map the word's
   * memory again around every synchronisation (about 0.2 ms a call on an H200). */
  JG_RETURN_NOT_OK(jgi_scratch_alloc(cfg.device, sizeof *word, s, (void **)&word, err));
  jg_status st = jgi_cuda_error(err, cudaMemsetAsync(word, 0xff, sizeof *word, s),
                                "cudaMemsetAsync (kernel error word)");
  if (st == JG_OK) st = v->cuda(c->args, &cfg, word, err);
  if (st == JG_OK) {
    st = jgi_cuda_error(err, cudaMemcpyAsync(&host_word, word, sizeof host_word,
                                             cudaMemcpyDeviceToHost, s),
                        "cudaMemcpyAsync (kernel error word)");
  }
  jgi_scratch_free(word, s);
  if (st == JG_OK) {
    st = jgi_cuda_error(err, cudaStreamSynchronize(s), "cudaStreamSynchronize (kernel)");
  }
  if (st == JG_OK && host_word != ~0ULL) {
    st = jgi_kernel_error_set(k, (int)(host_word & 0xff), (int64_t)(host_word >> 8), err);
  }
  return st;
}

/* Registered kernels: their CUDA source compiled with NVRTC once per device. */
#define MAX_DEVICES 64
typedef struct user_cuda {
  pthread_mutex_t lock;
  jg_rtc_module *module[MAX_DEVICES];
  jg_rtc_kernel *kernel[MAX_DEVICES];
} user_cuda;

static jg_status run_cuda_user(const jg_kernel *k, const checked_call *c, const jg_launch *l,
                               jg_error *err) {
  user_cuda *u = (user_cuda *)k->state->rtc;
  JG_RETURN_IF(c->device < 0 || c->device >= MAX_DEVICES, JG_EINDEX, err,
               "kernel '%s': device %d out of range", k->name, c->device);
  pthread_mutex_lock(&u->lock);
  jg_status st = JG_OK;
  if (u->kernel[c->device] == NULL) {
    jg_rtc_options o;
    memset(&o, 0, sizeof o);
    o.options = k->cuda_options;
    o.n_options = k->n_cuda_options;
    jg_rtc_program *p = NULL;
    const char *entry = k->cuda_entry;
    int prev = -1;
    st = jgi_cuda_device_push(c->device, &prev, err);
    if (st == JG_OK) {
      st = jg_rtc_compile(k->cuda_source, k->cuda_source_name, &entry, 1, &o, &p, err);
      if (st == JG_OK) st = jg_rtc_module_load(p, c->device, &u->module[c->device], err);
      if (st == JG_OK) {
        st = jg_rtc_kernel_get(u->module[c->device], entry, k->params, k->n_params,
                               &u->kernel[c->device], err);
        if (st != JG_OK) {
          jg_rtc_module_destroy(u->module[c->device]);
          u->module[c->device] = NULL;
        }
      }
      jg_rtc_program_destroy(p);
      jgi_cuda_device_pop(prev, c->device);
    }
  }
  jg_rtc_kernel *rk = u->kernel[c->device];
  pthread_mutex_unlock(&u->lock);
  JG_RETURN_NOT_OK(st);
  jg_launch ll;
  memset(&ll, 0, sizeof ll);
  if (l != NULL) ll = *l;
  if (ll.grid == 0 && ll.threads == 0) ll.threads = thread_count(k, c, l);
  if (ll.block == 0) ll.block = k->block > 0 ? k->block : 256;
  if (ll.grid == 0 && ll.threads == 0) return JG_OK;
  return jg_rtc_launch(rk, c->args, k->n_params, &ll, err);
}

/* The host fallback: copies every array to the host (out arrays too, so that elements the kernel
 * does not write keep their values), runs the host implementation, copies out and inout arrays
 * back. Synchronous. */
static jg_status run_fallback(const jg_kernel *k, const checked_call *c, const jg_launch *l,
                              jg_error *err) {
  size_t impl;
  JG_RETURN_NOT_OK(select_host(k, &impl, err));
  if (!atomic_exchange(&k->state->warned, 1)) {
    jgi_log(JG_LOG_WARN,
            "kernel '%s' has no CUDA implementation (expected %s); running its '%s' host "
            "implementation, which copies its arrays to the host and back at every call",
            k->name, jg_kernel_cuda_path(k), k->host_impls[impl]);
  }
  cudaStream_t s = l != NULL ? (cudaStream_t)l->stream : cudaStreamLegacy;
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(c->device, &prev, err));
  checked_call h = *c;
  void *host[MAX_PARAMS] = {NULL};
  jg_status st = jgi_cuda_error(err, cudaStreamSynchronize(s), "fallback: cudaStreamSynchronize");
  for (size_t i = 0; i < k->n_params && st == JG_OK; ++i) {
    if (c->args[i].kind != JG_PARAM_ARRAY) continue;
    const size_t bytes = (size_t)c->args[i].v.array.length *
                         (size_t)jg_dtype_itemsize(c->args[i].dtype);
    host[i] = malloc(bytes > 0 ? bytes : 1);
    if (host[i] == NULL) {
      st = jg_error_set(err, JG_ENOMEM, (int64_t)i,
                        "kernel '%s' fallback: no host memory for %zu bytes of '%s'", k->name,
                        bytes, k->params[i].name);
      break;
    }
    if (bytes > 0) {
      st = jgi_cuda_error(err, cudaMemcpyAsync(host[i], c->args[i].v.array.data, bytes,
                                               cudaMemcpyDeviceToHost, s),
                          "fallback: cudaMemcpyAsync to the host");
      if (st == JG_OK) jgi_transfer_record(JG_TRANSFER_TO_HOST, bytes, k->fallback_what);
    }
    h.args[i].v.array.data = host[i];
    h.args[i].v.array.device = (jg_device)JG_DEVICE_HOST_INIT;
  }
  if (st == JG_OK) st = jgi_cuda_error(err, cudaStreamSynchronize(s), "fallback: synchronize");
  if (st == JG_OK) {
    jgi_transfer_record(JG_TRANSFER_FALLBACK, 0, k->fallback_what);
    atomic_fetch_add(&k->state->fallback_calls, 1);
    st = run_host(k, impl, &h, err);
  }
  for (size_t i = 0; i < k->n_params && st == JG_OK; ++i) {
    if (c->args[i].kind != JG_PARAM_ARRAY || k->params[i].dir == JG_PARAM_IN) continue;
    const size_t bytes = (size_t)c->args[i].v.array.length *
                         (size_t)jg_dtype_itemsize(c->args[i].dtype);
    if (bytes == 0) continue;
    st = jgi_cuda_error(err, cudaMemcpyAsync(c->args[i].v.array.data, host[i], bytes,
                                             cudaMemcpyHostToDevice, s),
                        "fallback: cudaMemcpyAsync to the device");
    if (st == JG_OK) jgi_transfer_record(JG_TRANSFER_TO_DEVICE, bytes, k->fallback_what);
  }
  if (st == JG_OK) st = jgi_cuda_error(err, cudaStreamSynchronize(s), "fallback: synchronize");
  for (size_t i = 0; i < k->n_params; ++i) free(host[i]);
  jgi_cuda_device_pop(prev, c->device);
  return st;
}
#endif

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/* A monotonic clock in microseconds, for the DEBUG log's call times (of CUDA calls only). */
static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}
#endif

jg_status jg_kernel_call(const jg_kernel *k, const jg_kernel_arg *args, size_t n_args,
                         const jg_launch *launch, jg_error *err) {
  JG_RETURN_IF(k == NULL, JG_EINVAL, err, "jg_kernel_call: NULL kernel");
  JG_RETURN_NOT_OK(check_env(err));
  checked_call c;
  JG_RETURN_NOT_OK(check_args(k, args, n_args, &c, err));
  if (!c.on_device) {
    size_t impl;
    JG_RETURN_NOT_OK(select_host(k, &impl, err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    if (launch != NULL && launch->stream != NULL) {
      JG_CUDA_RETURN_NOT_OK(cudaStreamSynchronize((cudaStream_t)launch->stream),
                            "cudaStreamSynchronize (before a host kernel)", err);
    }
#endif
    atomic_fetch_add(&k->state->host_calls, 1);
    return run_host(k, impl, &c, err);
  }
  /* Without CUDA code the raise policy answers before the GPU is even looked at. */
  if (!jg_kernel_has_cuda(k) && jg_kernel_get_missing_cuda(k) == JG_MISSING_CUDA_RAISE) {
    return missing_cuda_error(k, err);
  }
  JG_RETURN_NOT_OK(jgi_cuda_check_device(c.device, err));
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  if (jg_kernel_has_cuda(k)) {
    int prev = -1;
    JG_RETURN_NOT_OK(jgi_cuda_device_push(c.device, &prev, err));
    atomic_fetch_add(&k->state->cuda_calls, 1);
    const bool trace = jgi_log_enabled(JG_LOG_DEBUG);
    const double t0 = trace ? now_us() : 0;
    const jg_status st = k->user_host != NULL ? run_cuda_user(k, &c, launch, err)
                                              : run_cuda_builtin(k, &c, launch, err);
    jgi_cuda_device_pop(prev, c.device);
    /* The host time of the call: the launch, plus the wait for the data-error word of kernels
     * that have data errors (the kernel's own time then). */
    if (trace) {
      jgi_log(JG_LOG_DEBUG, "kernel '%s' on cuda:%d: %s, %.1f us%s", k->name, c.device,
              jg_status_name(st), now_us() - t0,
              k->n_errors > 0 ? " (waited for its error word)" : " (launch only)");
    }
    return st;
  }
  return run_fallback(k, &c, launch, err);
#else
  return missing_cuda_error(k, err); /* not reached: jgi_cuda_check_device fails first */
#endif
}

/* --------------------------------------------------------- registration */

static char *dup_str(const char *s) {
  if (s == NULL) return NULL;
  const size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

static bool valid_name(const char *s) {
  if (s == NULL || !(isalpha((unsigned char)*s) || *s == '_')) return false;
  for (; *s != '\0'; ++s)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
  return true;
}

static bool valid_dtype(jg_dtype d) {
  return d > JG_DTYPE_INVALID && d < JG_DTYPE_COUNT_ && d != JG_DTYPE_FLOAT16 &&
         d != JG_DTYPE_BFLOAT16 && d != JG_DTYPE_COMPLEX64 && d != JG_DTYPE_COMPLEX128;
}

/* One allocation per registered kernel; never freed (kernels live until the process ends). */
typedef struct user_kernel {
  jg_kernel k;
  jgi_kernel_state state;
  jgi_kernel_variant variant;
  jg_kernel_param params[MAX_PARAMS];
  jg_dtype dtypes[MAX_PARAMS];
  const char *impls[1];
  char *strings[8 + MAX_PARAMS];
  char **options;
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  user_cuda cuda;
#endif
} user_kernel;

static void free_user(user_kernel *u) {
  if (u == NULL) return;
  for (size_t i = 0; i < sizeof u->strings / sizeof u->strings[0]; ++i) free(u->strings[i]);
  if (u->options != NULL) {
    for (size_t i = 0; i < u->k.n_cuda_options; ++i) free(u->options[i]);
    free(u->options);
  }
  free(u);
}

jg_status jg_catalog_register(const jg_kernel_desc *d, const jg_kernel **out, jg_error *err) {
  JG_RETURN_IF(d == NULL, JG_EINVAL, err, "jg_catalog_register: NULL desc");
  JG_RETURN_IF(d->version != JG_KERNEL_DESC_VERSION, JG_EINVAL, err,
               "jg_catalog_register: desc.version is %u, this jagged knows %d", d->version,
               JG_KERNEL_DESC_VERSION);
  JG_RETURN_IF(!valid_name(d->name), JG_EINVAL, err,
               "jg_catalog_register: the name '%s' is not [A-Za-z_][A-Za-z0-9_]*",
               d->name != NULL ? d->name : "(null)");
  JG_RETURN_IF(strlen(d->name) > MAX_NAME, JG_EINVAL, err,
               "jg_catalog_register: a kernel name has at most %d characters (this one has %zu)",
               MAX_NAME, strlen(d->name));
  JG_RETURN_IF(d->host == NULL, JG_EINVAL, err,
               "jg_catalog_register: kernel '%s' has no host function", d->name);
  for (size_t i = 0; i < sizeof d->reserved / sizeof d->reserved[0]; ++i)
    JG_RETURN_IF(d->reserved[i] != 0, JG_EINVAL, err,
                 "jg_catalog_register: kernel '%s': desc.reserved must be zero", d->name);
  JG_RETURN_IF(d->cuda_entry != NULL && (!valid_name(d->cuda_entry) ||
                                         strlen(d->cuda_entry) > MAX_NAME),
               JG_EINVAL, err,
               "jg_catalog_register: kernel '%s': cuda_entry '%s' must be the plain name of an "
               "extern \"C\" __global__ function ([A-Za-z_][A-Za-z0-9_]*, at most %d characters; "
               "no templates)", d->name, d->cuda_entry, MAX_NAME);
  JG_RETURN_IF(d->n_cuda_options > 0 && d->cuda_options == NULL, JG_EINVAL, err,
               "jg_catalog_register: kernel '%s': cuda_options is NULL with n_cuda_options %zu",
               d->name, d->n_cuda_options);
  for (size_t i = 0; i < d->n_cuda_options; ++i)
    JG_RETURN_IF(d->cuda_options[i] == NULL || d->cuda_options[i][0] == '\0', JG_EINVAL, err,
                 "jg_catalog_register: kernel '%s': cuda option %zu is NULL or empty", d->name,
                 i);
  const char *impl = d->host_impl_name != NULL ? d->host_impl_name : "c";
  JG_RETURN_IF(known_index(impl) < 0, JG_EINVAL, err,
               "jg_catalog_register: kernel '%s': '%s' is not a host implementation name "
               "(known: c, openmp)", d->name, impl);
  JG_RETURN_IF(d->n_params > MAX_PARAMS || (d->n_params > 0 && d->params == NULL), JG_EINVAL,
               err, "jg_catalog_register: kernel '%s': %zu parameters (at most %d, non-NULL)",
               d->name, d->n_params, MAX_PARAMS);
  JG_RETURN_IF(d->block < 0 || d->block > 1024, JG_EINVAL, err,
               "jg_catalog_register: kernel '%s': block %d is outside [0, 1024]", d->name,
               d->block);
  JG_RETURN_IF(d->threads_from < -1 || d->threads_from >= (int)d->n_params, JG_EINVAL, err,
               "jg_catalog_register: kernel '%s': threads_from %d is not a parameter", d->name,
               d->threads_from);
  JG_RETURN_IF(d->threads_from >= 0 && d->params != NULL &&
                   d->params[d->threads_from].kind == JG_PARAM_SCALAR &&
                   is_float(d->params[d->threads_from].dtype),
               JG_EINVAL, err,
               "jg_catalog_register: kernel '%s': threads_from names a float scalar; it needs an "
               "integer scalar or an array", d->name);
  JG_RETURN_IF(d->missing_cuda < JG_MISSING_CUDA_DEFAULT ||
                   d->missing_cuda > JG_MISSING_CUDA_FALLBACK,
               JG_EINVAL, err, "jg_catalog_register: kernel '%s': unknown policy %d", d->name,
               (int)d->missing_cuda);
  for (size_t i = 0; i < d->n_params; ++i) {
    const jg_kernel_param *p = &d->params[i];
    JG_RETURN_IF_AT(!valid_name(p->name), JG_EINVAL, err, (int64_t)i,
                    "jg_catalog_register: kernel '%s': parameter %zu has no valid name",
                    d->name, i);
    for (size_t j = 0; j < i; ++j)
      JG_RETURN_IF_AT(strcmp(d->params[j].name, p->name) == 0, JG_EINVAL, err, (int64_t)i,
                      "jg_catalog_register: kernel '%s': parameter '%s' appears twice",
                      d->name, p->name);
    JG_RETURN_IF_AT(p->kind != JG_PARAM_SCALAR && p->kind != JG_PARAM_ARRAY, JG_EINVAL, err,
                    (int64_t)i, "jg_catalog_register: kernel '%s': parameter '%s' has kind %d",
                    d->name, p->name, (int)p->kind);
    JG_RETURN_IF_AT(p->dir < JG_PARAM_IN || p->dir > JG_PARAM_INOUT ||
                        (p->kind == JG_PARAM_SCALAR && p->dir != JG_PARAM_IN),
                    JG_EINVAL, err, (int64_t)i,
                    "jg_catalog_register: kernel '%s': parameter '%s' has direction %d "
                    "(scalars are IN)", d->name, p->name, (int)p->dir);
    JG_RETURN_IF_AT(p->type_var != NULL, JG_EINVAL, err, (int64_t)i,
                    "jg_catalog_register: kernel '%s': parameter '%s' has a type variable; "
                    "register one kernel per dtype", d->name, p->name);
    JG_RETURN_IF_AT(!valid_dtype(p->dtype), JG_EINVAL, err, (int64_t)i,
                    "jg_catalog_register: kernel '%s': parameter '%s' has dtype %s; kernels take "
                    "bool, integers, float32 and float64", d->name, p->name,
                    jg_dtype_name(p->dtype));
    JG_RETURN_IF_AT(p->min_length_param >= (int)d->n_params ||
                        (p->min_length_param >= 0 &&
                         (d->params[p->min_length_param].kind != JG_PARAM_SCALAR ||
                          is_float(d->params[p->min_length_param].dtype))),
                    JG_EINVAL, err, (int64_t)i,
                    "jg_catalog_register: kernel '%s': parameter '%s': min_length_param must "
                    "be an integer scalar parameter or -1", d->name, p->name);
  }
  user_kernel *u = calloc(1, sizeof *u);
  JG_RETURN_IF(u == NULL, JG_ENOMEM, err, "jg_catalog_register: out of host memory");
  size_t ns = 0;
  bool oom = false;
#define DUP(dst, src)                                 \
  do {                                                \
    if ((src) != NULL) {                              \
      u->strings[ns] = dup_str(src);                  \
      oom |= u->strings[ns] == NULL;                  \
      (dst) = u->strings[ns++];                       \
    }                                                 \
  } while (0)
  DUP(u->k.name, d->name);
  DUP(u->k.doc, d->doc);
  DUP(u->k.cuda_source, d->cuda_source);
  DUP(u->k.cuda_entry, d->cuda_entry != NULL ? d->cuda_entry : d->name);
  DUP(u->k.cuda_path, d->cuda_path != NULL ? d->cuda_path : "(registered kernel)");
  char label[MAX_NAME + 32];
  snprintf(label, sizeof label, "%s.cu", d->name);
  DUP(u->k.cuda_source_name, label);
  snprintf(label, sizeof label, "fallback of kernel '%s'", d->name);
  DUP(u->k.fallback_what, label);
  DUP(u->impls[0], impl);
  for (size_t i = 0; i < d->n_params; ++i) {
    u->params[i] = d->params[i];
    u->params[i].type_var = NULL;
    DUP(u->params[i].name, d->params[i].name);
    u->dtypes[i] = d->params[i].dtype;
  }
#undef DUP
  if (d->n_cuda_options > 0) {
    u->options = calloc(d->n_cuda_options, sizeof *u->options);
    oom |= u->options == NULL;
    for (size_t i = 0; !oom && i < d->n_cuda_options; ++i) {
      u->options[i] = dup_str(d->cuda_options[i]);
      oom |= u->options[i] == NULL;
      u->k.n_cuda_options = i + 1;
    }
  }
  if (oom) {
    free_user(u);
    return jg_error_set(err, JG_ENOMEM, -1, "jg_catalog_register: out of host memory");
  }
  u->variant.name = "";
  u->variant.dtypes = u->dtypes;
  u->variant.cuda_name = u->k.cuda_entry;
  u->k.params = u->params;
  u->k.n_params = d->n_params;
  u->k.host_impls = u->impls;
  u->k.n_host_impls = 1;
  u->k.variants = &u->variant;
  u->k.n_variants = 1;
  u->k.host_source = NULL;
  u->k.block = d->block > 0 ? d->block : 256;
  u->k.threads_from = d->threads_from;
  u->k.user_host = d->host;
  u->k.user_host_user = d->host_user;
  u->k.cuda_options = (const char *const *)u->options;
  u->k.state = &u->state;
  atomic_store(&u->state.missing_cuda, (int)d->missing_cuda);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  pthread_mutex_init(&u->cuda.lock, NULL);
  u->state.rtc = &u->cuda;
#endif
  pthread_mutex_lock(&register_lock);
  jg_status st = JG_OK;
  if (find(d->name) != NULL) {
    st = jg_error_set(err, JG_EINVAL, -1, "a kernel named '%s' is already registered",
                      d->name);
  } else if (atomic_load(&n_registered) == MAX_REGISTERED) {
    st = jg_error_set(err, JG_ENOTSUP, -1, "jg_catalog_register: %d kernels are registered "
                      "already (the limit)", MAX_REGISTERED);
  } else {
    const size_t i = atomic_load(&n_registered);
    registered[i] = &u->k;
    atomic_store_explicit(&n_registered, i + 1, memory_order_release);
  }
  pthread_mutex_unlock(&register_lock);
  if (st != JG_OK) {
    free_user(u);
    return st;
  }
  if (out != NULL) *out = &u->k;
  return JG_OK;
}

/* ----------------------------------------------------- for parity.c */

JGI_HIDDEN jg_status jgi_kernel_check_args(const jg_kernel *k, const jg_kernel_arg *args,
                                           size_t n_args, size_t *variant, jg_error *err);
jg_status jgi_kernel_check_args(const jg_kernel *k, const jg_kernel_arg *args, size_t n_args,
                                size_t *variant, jg_error *err) {
  checked_call c;
  JG_RETURN_NOT_OK(check_args(k, args, n_args, &c, err));
  *variant = c.variant;
  return JG_OK;
}
