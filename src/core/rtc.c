/* rtc.c: run-time compilation with NVRTC, loading with the CUDA driver API, checked launches, and
 * jg_catalog_compile_all (rtc.h).
 *
 * Nothing here is a link-time dependency. NVRTC is dlopen'ed at the first compile
 * (JG_NVRTC_LIBRARY, else libnvrtc.so.13, /usr/local/cuda/lib64/libnvrtc.so.13, libnvrtc.so) and
 * its few functions are declared here as function-pointer types (the NVRTC guide,
 * docs.nvidia.com/cuda/nvrtc, gives their signatures). The driver functions come from the
 * statically linked CUDA runtime through cudaGetDriverEntryPointByVersion; <cuda.h> provides only
 * the types. The on-disk cache lives in rtc_cache.c. A build without CUDA keeps every function and
 * reports JG_ENOTSUP. */
#define _POSIX_C_SOURCE 200809L

#include "jagged/rtc.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_kernel.h"
#include "internal/jgi_rtc.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#define RTC_CUDA 1
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#else
#define RTC_CUDA 0
#endif

#define NO_CUDA_MESSAGE "jagged was built without CUDA"

/* ------------------------------------------------------------------------------------------ */
/* Statistics and the per-thread log                                                           */
/* ------------------------------------------------------------------------------------------ */

static atomic_ullong stat_compiles, stat_hits, stat_misses, stat_corrupt;

void jg_rtc_stats_get(jg_rtc_stats *out) {
  if (out == NULL) return;
  out->compiles = atomic_load(&stat_compiles);
  out->cache_hits = atomic_load(&stat_hits);
  out->cache_misses = atomic_load(&stat_misses);
  out->cache_corrupt = atomic_load(&stat_corrupt);
}

/* The last failed compile's log of each thread: a malloc'd string under a pthread key (freed at
 * thread exit by the key's destructor). */
static pthread_once_t log_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t log_key;
static bool log_key_ok;

static void make_log_key(void) {
  log_key_ok = pthread_key_create(&log_key, free) == 0;
}

#if RTC_CUDA
/* Replaces the calling thread's log with `text` (owned; NULL: none). */
static void set_last_log(char *text) {
  (void)pthread_once(&log_key_once, make_log_key);
  if (!log_key_ok) {
    free(text);
    return;
  }
  free(pthread_getspecific(log_key));
  if (pthread_setspecific(log_key, text) != 0) free(text);
}
#endif

const char *jg_rtc_last_log(void) {
  (void)pthread_once(&log_key_once, make_log_key);
  if (!log_key_ok) return "";
  const char *s = pthread_getspecific(log_key);
  return s != NULL ? s : "";
}

#if RTC_CUDA
static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p != NULL) memcpy(p, s, n);
  return p;
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* Programs                                                                                    */
/* ------------------------------------------------------------------------------------------ */

struct jg_rtc_program {
  jgi_rtc_binary bin;
  char *log; /* "" when empty or cached */
  bool cached;
  int arch;
  char key[33];
};

const char *jg_rtc_program_log(const jg_rtc_program *p) {
  return p != NULL && p->log != NULL ? p->log : "";
}

bool jg_rtc_program_cached(const jg_rtc_program *p) {
  return p != NULL && p->cached;
}

const void *jg_rtc_program_cubin(const jg_rtc_program *p, size_t *size) {
  if (size != NULL) *size = p != NULL ? p->bin.cubin_size : 0;
  return p != NULL ? p->bin.cubin : NULL;
}

const char *jg_rtc_program_lowered_name(const jg_rtc_program *p, const char *name) {
  if (p == NULL || name == NULL) return NULL;
  for (size_t i = 0; i < p->bin.n_names; ++i) {
    if (strcmp(p->bin.names[i], name) == 0) return p->bin.lowered[i];
  }
  return NULL;
}

const char *jg_rtc_program_key(const jg_rtc_program *p) {
  return p != NULL ? p->key : "";
}

void jg_rtc_program_destroy(jg_rtc_program *p) {
  if (p == NULL) return;
  jgi_rtc_binary_free(&p->bin);
  free(p->log);
  free(p);
}

/* ------------------------------------------------------------------------------------------ */
/* Argument checks of a compile (every build)                                                  */
/* ------------------------------------------------------------------------------------------ */

static jg_status check_strings(const char *const *list, size_t n, const char *what,
                               bool allow_empty, jg_error *err) {
  JG_RETURN_IF(n > 0 && list == NULL, JG_EINVAL, err,
               "jg_rtc_compile: %zu %s but the array is NULL", n, what);
  for (size_t i = 0; i < n; ++i) {
    JG_RETURN_IF_AT(list[i] == NULL, JG_EINVAL, err, i, "jg_rtc_compile: %s %zu is NULL", what, i);
    JG_RETURN_IF_AT(!allow_empty && list[i][0] == '\0', JG_EINVAL, err, i,
                    "jg_rtc_compile: %s %zu is empty", what, i);
  }
  return JG_OK;
}

/* Checks the fields of `opt` (NULL allowed). */
static jg_status check_options(const jg_rtc_options *opt, jg_error *err) {
  if (opt == NULL) return JG_OK;
  JG_RETURN_IF(opt->arch < 0, JG_EINVAL, err,
               "jg_rtc_compile: arch %d is negative (90 for sm_90; 0: the current device)",
               opt->arch);
  JG_RETURN_IF(opt->cache != JG_RTC_CACHE_DEFAULT && opt->cache != JG_RTC_CACHE_OFF, JG_EINVAL, err,
               "jg_rtc_compile: unknown cache mode %d", (int)opt->cache);
  JG_RETURN_NOT_OK(
      check_strings(opt->include_dirs, opt->n_include_dirs, "include dir", false, err));
  return check_strings(opt->options, opt->n_options, "option", false, err);
}

static jg_status check_compile_args(const char *source, const char *const *names, size_t n_names,
                                    const jg_rtc_options *opt, const char *const *extra,
                                    size_t n_extra, size_t n_headers, const char *const *hsrc,
                                    const char *const *hname, jg_rtc_program **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_rtc_compile: out is NULL");
  *out = NULL;
  JG_RETURN_IF(source == NULL, JG_EINVAL, err, "jg_rtc_compile: source is NULL");
  JG_RETURN_NOT_OK(check_strings(names, n_names, "name expression", false, err));
  JG_RETURN_NOT_OK(check_options(opt, err));
  JG_RETURN_NOT_OK(check_strings(extra, n_extra, "extra option", false, err));
  JG_RETURN_NOT_OK(check_strings(hsrc, n_headers, "header source", true, err));
  JG_RETURN_NOT_OK(check_strings(hname, n_headers, "header name", false, err));
  return JG_OK;
}

#if RTC_CUDA
/* ------------------------------------------------------------------------------------------ */
/* NVRTC, loaded at run time                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* nvrtcResult is an enum whose values fit an int; nvrtcProgram an opaque pointer. */
typedef int nvrtc_result;
typedef struct nvrtc_program_opaque *nvrtc_program;
#define NVRTC_OK 0
#define NVRTC_OUT_OF_MEMORY 1

typedef nvrtc_result (*nvrtc_version_fn)(int *major, int *minor);
typedef nvrtc_result (*nvrtc_create_fn)(nvrtc_program *prog, const char *src, const char *name,
                                        int num_headers, const char *const *headers,
                                        const char *const *include_names);
typedef nvrtc_result (*nvrtc_destroy_fn)(nvrtc_program *prog);
typedef nvrtc_result (*nvrtc_add_name_fn)(nvrtc_program prog, const char *name_expression);
typedef nvrtc_result (*nvrtc_compile_fn)(nvrtc_program prog, int num_options,
                                         const char *const *options);
typedef nvrtc_result (*nvrtc_size_fn)(nvrtc_program prog, size_t *size);
typedef nvrtc_result (*nvrtc_get_fn)(nvrtc_program prog, char *out);
typedef nvrtc_result (*nvrtc_lowered_fn)(nvrtc_program prog, const char *name_expression,
                                         const char **lowered_name);
typedef const char *(*nvrtc_error_string_fn)(nvrtc_result result);

static struct {
  bool ok;
  char error[1024];
  void *lib;
  int major, minor;
  nvrtc_version_fn version;
  nvrtc_create_fn create;
  nvrtc_destroy_fn destroy;
  nvrtc_add_name_fn add_name;
  nvrtc_compile_fn compile;
  nvrtc_size_fn log_size;
  nvrtc_get_fn log;
  nvrtc_size_fn cubin_size;
  nvrtc_get_fn cubin;
  nvrtc_lowered_fn lowered;
  nvrtc_error_string_fn error_string;
} nv;
static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT;

/* Copies the address of symbol `name` of `lib` into the function pointer at `fn` (ISO C has no
 * conversion between object and function pointers; dlsym's contract makes the bytes valid). */
static bool load_symbol(void *lib, const char *name, void *fn, size_t fn_size) {
  void *sym = dlsym(lib, name);
  if (sym == NULL) return false;
  _Static_assert(sizeof sym == sizeof(nvrtc_version_fn), "function and object pointers differ");
  if (fn_size != sizeof sym) return false;
  memcpy(fn, &sym, sizeof sym);
  return true;
}

static void nvrtc_load(void) {
  const char *env = getenv("JG_NVRTC_LIBRARY");
  static const char *const defaults[] = {"libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.13",
                                         "libnvrtc.so"};
  const char *used = NULL;
  if (env != NULL && env[0] != '\0') {
    nv.lib = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    if (nv.lib == NULL) {
      const char *why = dlerror();
      snprintf(nv.error, sizeof nv.error,
               "NVRTC cannot be loaded: JG_NVRTC_LIBRARY names '%s', which dlopen rejects (%s)",
               env, why != NULL ? why : "unknown error");
      return;
    }
    used = env;
  } else {
    size_t len = (size_t)snprintf(nv.error, sizeof nv.error,
                                  "NVRTC cannot be loaded (install the CUDA toolkit's NVRTC, or "
                                  "set JG_NVRTC_LIBRARY to the path of libnvrtc.so); tried");
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0] && nv.lib == NULL; ++i) {
      nv.lib = dlopen(defaults[i], RTLD_NOW | RTLD_LOCAL);
      if (nv.lib != NULL) {
        used = defaults[i];
        break;
      }
      const char *why = dlerror();
      if (len < sizeof nv.error) {
        int n = snprintf(nv.error + len, sizeof nv.error - len, "%s %s (%s)", i == 0 ? "" : ";",
                         defaults[i], why != NULL ? why : "unknown error");
        if (n > 0) len += (size_t)n;
      }
    }
    if (nv.lib == NULL) return;
  }
  struct {
    const char *name;
    void *fn;
    size_t size;
  } syms[] = {
      {"nvrtcVersion", &nv.version, sizeof nv.version},
      {"nvrtcCreateProgram", &nv.create, sizeof nv.create},
      {"nvrtcDestroyProgram", &nv.destroy, sizeof nv.destroy},
      {"nvrtcAddNameExpression", &nv.add_name, sizeof nv.add_name},
      {"nvrtcCompileProgram", &nv.compile, sizeof nv.compile},
      {"nvrtcGetProgramLogSize", &nv.log_size, sizeof nv.log_size},
      {"nvrtcGetProgramLog", &nv.log, sizeof nv.log},
      {"nvrtcGetCUBINSize", &nv.cubin_size, sizeof nv.cubin_size},
      {"nvrtcGetCUBIN", &nv.cubin, sizeof nv.cubin},
      {"nvrtcGetLoweredName", &nv.lowered, sizeof nv.lowered},
      {"nvrtcGetErrorString", &nv.error_string, sizeof nv.error_string},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; ++i) {
    if (!load_symbol(nv.lib, syms[i].name, syms[i].fn, syms[i].size)) {
      snprintf(nv.error, sizeof nv.error,
               "NVRTC cannot be used: '%s' lacks %s (NVRTC 11.2 or newer is needed; set "
               "JG_NVRTC_LIBRARY to another libnvrtc.so)",
               used, syms[i].name);
      (void)dlclose(nv.lib);
      nv.lib = NULL;
      return;
    }
  }
  if (nv.version(&nv.major, &nv.minor) != NVRTC_OK) {
    snprintf(nv.error, sizeof nv.error, "NVRTC cannot be used: nvrtcVersion failed in '%s'", used);
    (void)dlclose(nv.lib);
    nv.lib = NULL;
    return;
  }
  nv.error[0] = '\0';
  nv.ok = true;
}

static jg_status nvrtc_require(jg_error *err) {
  (void)pthread_once(&nvrtc_once, nvrtc_load);
  JG_RETURN_IF(!nv.ok, JG_ENOTSUP, err, "%s", nv.error);
  return JG_OK;
}

static const char *nvrtc_str(nvrtc_result r) {
  const char *s = nv.error_string != NULL ? nv.error_string(r) : NULL;
  return s != NULL ? s : "unknown NVRTC error";
}

/* ------------------------------------------------------------------------------------------ */
/* Compile                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* The current device's compute capability as 10*major+minor. */
static jg_status current_arch(int *arch, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_cuda_require(err));
  int dev = 0, major = 0, minor = 0;
  JG_CUDA_RETURN_NOT_OK(cudaGetDevice(&dev), "cudaGetDevice", err);
  JG_CUDA_RETURN_NOT_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev),
                        "cudaDeviceGetAttribute", err);
  JG_CUDA_RETURN_NOT_OK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev),
                        "cudaDeviceGetAttribute", err);
  *arch = 10 * major + minor;
  return JG_OK;
}

/* Copies the first line of `log` that mentions an error (else its first non-empty line) into
 * `buf`. */
static void first_error_line(const char *log, char *buf, size_t size) {
  const char *pick = NULL, *pick_end = NULL, *first = NULL, *first_end = NULL;
  for (const char *p = log; *p != '\0';) {
    const char *e = strchr(p, '\n');
    if (e == NULL) e = p + strlen(p);
    const char *q = p;
    while (q < e && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
    if (q < e) {
      if (first == NULL) {
        first = p;
        first_end = e;
      }
      for (const char *s = p; s + 5 <= e; ++s) {
        if (memcmp(s, "error", 5) == 0) {
          pick = p;
          pick_end = e;
          break;
        }
      }
      if (pick != NULL) break;
    }
    p = *e == '\0' ? e : e + 1;
  }
  if (pick == NULL) {
    pick = first;
    pick_end = first_end;
  }
  if (pick == NULL) {
    buf[0] = '\0';
    return;
  }
  size_t n = (size_t)(pick_end - pick);
  while (n > 0 && (pick[n - 1] == '\r' || pick[n - 1] == ' ')) --n;
  if (n >= size) n = size - 1;
  memcpy(buf, pick, n);
  buf[n] = '\0';
}

/* The program's log (malloc'd; "" when empty). NULL when out of memory. */
static char *program_log(nvrtc_program prog) {
  size_t n = 0;
  if (nv.log_size(prog, &n) != NVRTC_OK || n == 0) return dup_str("");
  char *log = malloc(n + 1);
  if (log == NULL) return NULL;
  if (nv.log(prog, log) != NVRTC_OK) log[0] = '\0';
  log[n] = '\0';
  size_t len = strlen(log);
  while (len > 0 && (log[len - 1] == '\n' || log[len - 1] == ' ' || log[len - 1] == '\r')) {
    log[--len] = '\0';
  }
  return log;
}

/* Runs NVRTC; on success fills `bin` and *log. Errors leave the log on the thread. */
static jg_status run_nvrtc(const char *source, const char *source_name, const char *const *names,
                           size_t n_names, const char *const *options, size_t n_options,
                           size_t n_headers, const char *const *hsrc, const char *const *hname,
                           jgi_rtc_binary *bin, char **log_out, jg_error *err) {
  JG_RETURN_IF(n_headers > INT_MAX || n_options > INT_MAX, JG_EINVAL, err,
               "jg_rtc_compile: too many headers or options");
  atomic_fetch_add(&stat_compiles, 1);
  nvrtc_program prog = NULL;
  nvrtc_result r = nv.create(&prog, source, source_name, (int)n_headers,
                             n_headers > 0 ? hsrc : NULL, n_headers > 0 ? hname : NULL);
  if (r != NVRTC_OK) {
    return jg_error_set(err, r == NVRTC_OUT_OF_MEMORY ? JG_ENOMEM : JG_ECUDA, -1,
                        "NVRTC: creating program %s failed: %s", source_name, nvrtc_str(r));
  }
  jg_status st = JG_OK;
  for (size_t i = 0; i < n_names && st == JG_OK; ++i) {
    r = nv.add_name(prog, names[i]);
    if (r != NVRTC_OK) {
      st = jg_error_set(err, JG_ECUDA, (int64_t)i, "NVRTC: name expression '%s' rejected: %s",
                        names[i], nvrtc_str(r));
    }
  }
  if (st != JG_OK) {
    (void)nv.destroy(&prog);
    return st;
  }
  r = nv.compile(prog, (int)n_options, options);
  char *log = program_log(prog);
  if (log == NULL) {
    (void)nv.destroy(&prog);
    return jg_error_set(err, JG_ENOMEM, -1, "NVRTC: out of memory reading the log");
  }
  if (r != NVRTC_OK) {
    char line[JG_ERROR_MESSAGE_SIZE];
    first_error_line(log, line, sizeof line);
    st = jg_error_set(err, r == NVRTC_OUT_OF_MEMORY ? JG_ENOMEM : JG_ECUDA, -1,
                      "NVRTC: compiling %s failed: %s", source_name,
                      line[0] != '\0' ? line : nvrtc_str(r));
    if (log[0] == '\0') {
      free(log);
      log = dup_str(nvrtc_str(r));
    }
    set_last_log(log);
    (void)nv.destroy(&prog);
    return st;
  }
  memset(bin, 0, sizeof *bin);
  size_t size = 0;
  r = nv.cubin_size(prog, &size);
  if (r != NVRTC_OK || size == 0) {
    st = jg_error_set(err, JG_ECUDA, -1,
                      "NVRTC: no CUBIN for %s (%s); the architecture must be a real one (sm_XY)",
                      source_name, r != NVRTC_OK ? nvrtc_str(r) : "empty");
    goto fail;
  }
  bin->cubin = malloc(size);
  if (bin->cubin == NULL) goto nomem;
  bin->cubin_size = size;
  r = nv.cubin(prog, bin->cubin);
  if (r != NVRTC_OK) {
    st = jg_error_set(err, JG_ECUDA, -1, "NVRTC: nvrtcGetCUBIN failed: %s", nvrtc_str(r));
    goto fail;
  }
  if (n_names > 0) {
    bin->names = calloc(n_names, sizeof *bin->names);
    bin->lowered = calloc(n_names, sizeof *bin->lowered);
    if (bin->names == NULL || bin->lowered == NULL) goto nomem;
  }
  bin->n_names = n_names;
  for (size_t i = 0; i < n_names; ++i) {
    const char *lowered = NULL;
    r = nv.lowered(prog, names[i], &lowered);
    if (r != NVRTC_OK || lowered == NULL || lowered[0] == '\0') {
      st = jg_error_set(err, JG_ECUDA, (int64_t)i, "NVRTC: no lowered name for '%s': %s", names[i],
                        r != NVRTC_OK ? nvrtc_str(r) : "empty");
      goto fail;
    }
    bin->names[i] = dup_str(names[i]);
    bin->lowered[i] = dup_str(lowered);
    if (bin->names[i] == NULL || bin->lowered[i] == NULL) goto nomem;
  }
  (void)nv.destroy(&prog);
  *log_out = log;
  return JG_OK;
nomem:
  st = jg_error_set(err, JG_ENOMEM, -1, "NVRTC: out of memory copying the compiled program");
fail:
  jgi_rtc_binary_free(bin);
  free(log);
  (void)nv.destroy(&prog);
  return st;
}

/* Frees the option list built by build_options. */
static void free_options(char **opts, size_t n_owned) {
  if (opts == NULL) return;
  for (size_t i = 0; i < n_owned; ++i) free(opts[i]);
  free(opts);
}

/* The NVRTC options: --gpu-architecture=sm_<arch>, -I<dir> per include dir, opt->options, then
 * `extra`. The first 1 + n_include_dirs strings are owned (*n_owned). */
static jg_status build_options(int arch, const jg_rtc_options *opt, const char *const *extra,
                               size_t n_extra, char ***out, size_t *n_out, size_t *n_owned,
                               jg_error *err) {
  size_t n_inc = opt != NULL ? opt->n_include_dirs : 0;
  size_t n_user = opt != NULL ? opt->n_options : 0;
  size_t n = 0;
  JG_RETURN_IF(jgi_add_overflow(n_inc, n_user, &n) || jgi_add_overflow(n, n_extra, &n) ||
                   jgi_add_overflow(n, (size_t)1, &n) || n > INT_MAX,
               JG_EINVAL, err, "jg_rtc_compile: too many options");
  char **opts = calloc(n, sizeof *opts);
  JG_RETURN_IF(opts == NULL, JG_ENOMEM, err, "jg_rtc_compile: out of memory");
  size_t k = 0;
  char archbuf[48];
  snprintf(archbuf, sizeof archbuf, "--gpu-architecture=sm_%d", arch);
  opts[k] = dup_str(archbuf);
  if (opts[k++] == NULL) goto nomem;
  for (size_t i = 0; i < n_inc; ++i) {
    size_t len = strlen(opt->include_dirs[i]);
    opts[k] = malloc(len + 3);
    if (opts[k] == NULL) goto nomem;
    memcpy(opts[k], "-I", 2);
    memcpy(opts[k] + 2, opt->include_dirs[i], len + 1);
    ++k;
  }
  *n_owned = k;
  for (size_t i = 0; i < n_user; ++i) opts[k++] = (char *)opt->options[i];
  for (size_t i = 0; i < n_extra; ++i) opts[k++] = (char *)extra[i];
  *out = opts;
  *n_out = n;
  return JG_OK;
nomem:
  free_options(opts, k);
  return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_compile: out of memory");
}
#endif /* RTC_CUDA */

jg_status jgi_rtc_compile_ex(const char *source, const char *source_name, const char *const *names,
                             size_t n_names, const jg_rtc_options *opt,
                             const char *const *extra_options, size_t n_extra_options,
                             size_t n_headers, const char *const *header_sources,
                             const char *const *header_names, jg_rtc_program **out, jg_error *err) {
#if RTC_CUDA
  set_last_log(NULL); /* every compile starts a new log, even one that fails its checks */
#endif
  JG_RETURN_NOT_OK(check_compile_args(source, names, n_names, opt, extra_options, n_extra_options,
                                      n_headers, header_sources, header_names, out, err));
#if RTC_CUDA
  JG_RETURN_NOT_OK(nvrtc_require(err));
  if (source_name == NULL) source_name = "kernel.cu";
  int arch = opt != NULL ? opt->arch : 0;
  if (arch == 0) JG_RETURN_NOT_OK(current_arch(&arch, err));

  char **options = NULL;
  size_t n_options = 0, n_owned = 0;
  JG_RETURN_NOT_OK(build_options(arch, opt, extra_options, n_extra_options, &options, &n_options,
                                 &n_owned, err));
  jgi_rtc_key_input in;
  memset(&in, 0, sizeof in);
  in.source = source;
  in.source_name = source_name;
  in.include_dirs = opt != NULL ? opt->include_dirs : NULL;
  in.n_include_dirs = opt != NULL ? opt->n_include_dirs : 0;
  in.n_headers = n_headers;
  in.header_sources = header_sources;
  in.header_names = header_names;
  in.options = (const char *const *)options;
  in.n_options = n_options;
  in.names = names;
  in.n_names = n_names;
  in.arch = arch;
  in.nvrtc_major = nv.major;
  in.nvrtc_minor = nv.minor;
  jgi_rtc_key key = jgi_rtc_key_compute(&in);

  jg_rtc_program *p = calloc(1, sizeof *p);
  if (p == NULL) {
    free_options(options, n_owned);
    return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_compile: out of memory");
  }
  p->arch = arch;
  jgi_rtc_key_hex(&key, p->key);

  char dir[4096];
  bool use_cache = jgi_rtc_cache_dir(opt, dir, sizeof dir);
  if (use_cache) {
    jgi_rtc_lookup look = jgi_rtc_cache_read(dir, &key, arch, names, n_names, &p->bin);
    if (look == JGI_RTC_HIT) {
      p->log = dup_str("");
      if (p->log == NULL) {
        jg_rtc_program_destroy(p);
        free_options(options, n_owned);
        return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_compile: out of memory");
      }
      atomic_fetch_add(&stat_hits, 1);
      p->cached = true;
      free_options(options, n_owned);
      *out = p;
      return JG_OK;
    }
    atomic_fetch_add(&stat_misses, 1);
    if (look == JGI_RTC_CORRUPT) atomic_fetch_add(&stat_corrupt, 1);
  }
  jg_status st =
      run_nvrtc(source, source_name, names, n_names, (const char *const *)options, n_options,
                n_headers, header_sources, header_names, &p->bin, &p->log, err);
  free_options(options, n_owned);
  if (st != JG_OK) {
    jg_rtc_program_destroy(p);
    return st;
  }
  if (use_cache) (void)jgi_rtc_cache_write(dir, &key, arch, &p->bin);
  *out = p;
  return JG_OK;
#else
  (void)source_name;
  return jg_error_set(err, JG_ENOTSUP, -1, NO_CUDA_MESSAGE);
#endif
}

jg_status jg_rtc_compile(const char *source, const char *source_name, const char *const *names,
                         size_t n_names, const jg_rtc_options *opt, jg_rtc_program **out,
                         jg_error *err) {
  return jgi_rtc_compile_ex(source, source_name, names, n_names, opt, NULL, 0, 0, NULL, NULL, out,
                            err);
}

jg_status jg_rtc_compile_file(const char *path, const char *const *names, size_t n_names,
                              const jg_rtc_options *opt, jg_rtc_program **out, jg_error *err) {
#if RTC_CUDA
  set_last_log(NULL);
#endif
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_rtc_compile_file: out is NULL");
  *out = NULL;
  JG_RETURN_IF(path == NULL, JG_EINVAL, err, "jg_rtc_compile_file: path is NULL");
#if RTC_CUDA
  /* Opened non-blocking (a FIFO must not wait for a writer), then refused unless regular. */
  const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  JG_RETURN_IF(fd < 0, JG_EIO, err, "jg_rtc_compile_file: cannot open '%s': %s", path,
               strerror(errno));
  struct stat stt;
  if (fstat(fd, &stt) != 0 || !S_ISREG(stt.st_mode)) {
    close(fd);
    return jg_error_set(err, JG_EIO, -1, "jg_rtc_compile_file: '%s' is not a regular file", path);
  }
  FILE *f = fdopen(fd, "rb");
  if (f == NULL) {
    close(fd);
    return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_compile_file: cannot read '%s'", path);
  }
  size_t cap = 4096, len = 0;
  char *text = malloc(cap);
  for (;;) {
    if (text == NULL) {
      fclose(f);
      return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_compile_file: out of memory");
    }
    len += fread(text + len, 1, cap - 1 - len, f);
    if (len < cap - 1) break;
    char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(text, cap * 2);
    if (bigger == NULL) free(text);
    text = bigger;
    cap *= 2;
  }
  bool bad = ferror(f) != 0;
  fclose(f);
  if (bad) {
    free(text);
    return jg_error_set(err, JG_EIO, -1, "jg_rtc_compile_file: cannot read '%s'", path);
  }
  text[len] = '\0';
  jg_status st = jg_rtc_compile(text, path, names, n_names, opt, out, err);
  free(text);
  return st;
#else
  (void)names;
  (void)n_names;
  (void)opt;
  return jg_error_set(err, JG_ENOTSUP, -1, NO_CUDA_MESSAGE);
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* The driver API, through the runtime's entry points                                          */
/* ------------------------------------------------------------------------------------------ */

#if RTC_CUDA
typedef CUresult (*cu_module_load_data_fn)(CUmodule *module, const void *image);
typedef CUresult (*cu_module_unload_fn)(CUmodule module);
typedef CUresult (*cu_module_get_function_fn)(CUfunction *fn, CUmodule module, const char *name);
typedef CUresult (*cu_launch_kernel_fn)(CUfunction f, unsigned int gx, unsigned int gy,
                                        unsigned int gz, unsigned int bx, unsigned int by,
                                        unsigned int bz, unsigned int shared_bytes, CUstream stream,
                                        void **params, void **extra);
typedef CUresult (*cu_func_get_param_info_fn)(CUfunction f, size_t index, size_t *offset,
                                              size_t *size);
typedef CUresult (*cu_device_get_fn)(CUdevice *dev, int ordinal);
typedef CUresult (*cu_primary_ctx_retain_fn)(CUcontext *ctx, CUdevice dev);
typedef CUresult (*cu_primary_ctx_release_fn)(CUdevice dev);
typedef CUresult (*cu_ctx_push_fn)(CUcontext ctx);
typedef CUresult (*cu_ctx_pop_fn)(CUcontext *ctx);
typedef CUresult (*cu_func_get_attribute_fn)(int *value, CUfunction_attribute attr, CUfunction f);
typedef CUresult (*cu_func_set_attribute_fn)(CUfunction f, CUfunction_attribute attr, int value);
typedef CUresult (*cu_device_get_attribute_fn)(int *value, CUdevice_attribute attr, CUdevice dev);
typedef CUresult (*cu_get_error_fn)(CUresult r, const char **text);

static struct {
  bool ok;
  char error[256];
  cu_module_load_data_fn module_load_data;
  cu_module_unload_fn module_unload;
  cu_module_get_function_fn module_get_function;
  cu_launch_kernel_fn launch_kernel;
  cu_func_get_param_info_fn func_get_param_info; /* NULL before CUDA 12.4 drivers */
  cu_device_get_fn device_get;
  cu_primary_ctx_retain_fn primary_ctx_retain;
  cu_primary_ctx_release_fn primary_ctx_release;
  cu_ctx_push_fn ctx_push;
  cu_ctx_pop_fn ctx_pop;
  cu_func_get_attribute_fn func_get_attribute;
  cu_func_set_attribute_fn func_set_attribute;
  cu_device_get_attribute_fn device_get_attribute;
  cu_get_error_fn get_error_name;
  cu_get_error_fn get_error_string;
} drv;
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;

/* The driver function `name` in the ABI of CUDA `version` into the function pointer at `fn`. */
static bool driver_symbol(const char *name, unsigned int version, void *fn, size_t fn_size) {
  void *sym = NULL;
  enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t e = cudaGetDriverEntryPointByVersion(name, &sym, version, cudaEnableDefault, &q);
#else
  (void)version;
  cudaError_t e = cudaGetDriverEntryPoint(name, &sym, cudaEnableDefault, &q);
#endif
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || sym == NULL) {
    (void)cudaGetLastError();
    return false;
  }
  if (fn_size != sizeof sym) return false;
  memcpy(fn, &sym, sizeof sym);
  return true;
}

static void driver_load(void) {
  /* Versions: the CUDA release whose ABI the typedefs above follow (all unchanged since). */
  struct {
    const char *name;
    unsigned int version;
    void *fn;
    size_t size;
    bool required;
  } syms[] = {
      {"cuModuleLoadData", 12000, &drv.module_load_data, sizeof drv.module_load_data, true},
      {"cuModuleUnload", 12000, &drv.module_unload, sizeof drv.module_unload, true},
      {"cuModuleGetFunction", 12000, &drv.module_get_function, sizeof drv.module_get_function,
       true},
      {"cuLaunchKernel", 12000, &drv.launch_kernel, sizeof drv.launch_kernel, true},
      {"cuFuncGetParamInfo", 12040, &drv.func_get_param_info, sizeof drv.func_get_param_info,
       false},
      {"cuDeviceGet", 12000, &drv.device_get, sizeof drv.device_get, true},
      {"cuDevicePrimaryCtxRetain", 12000, &drv.primary_ctx_retain, sizeof drv.primary_ctx_retain,
       true},
      {"cuDevicePrimaryCtxRelease", 12000, &drv.primary_ctx_release, sizeof drv.primary_ctx_release,
       true},
      {"cuCtxPushCurrent", 12000, &drv.ctx_push, sizeof drv.ctx_push, true},
      {"cuCtxPopCurrent", 12000, &drv.ctx_pop, sizeof drv.ctx_pop, true},
      {"cuFuncGetAttribute", 12000, &drv.func_get_attribute, sizeof drv.func_get_attribute, true},
      {"cuFuncSetAttribute", 12000, &drv.func_set_attribute, sizeof drv.func_set_attribute, true},
      {"cuDeviceGetAttribute", 12000, &drv.device_get_attribute, sizeof drv.device_get_attribute,
       true},
      {"cuGetErrorName", 12000, &drv.get_error_name, sizeof drv.get_error_name, true},
      {"cuGetErrorString", 12000, &drv.get_error_string, sizeof drv.get_error_string, true},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; ++i) {
    if (!driver_symbol(syms[i].name, syms[i].version, syms[i].fn, syms[i].size) &&
        syms[i].required) {
      snprintf(drv.error, sizeof drv.error, "the CUDA driver does not offer %s", syms[i].name);
      return;
    }
  }
  drv.ok = true;
}

/* JG_OK when a GPU is usable and the driver functions are loaded. */
static jg_status driver_require(jg_error *err) {
  JG_RETURN_NOT_OK(jgi_cuda_require(err));
  (void)pthread_once(&driver_once, driver_load);
  JG_RETURN_IF(!drv.ok, JG_ENODEV, err, "CUDA unavailable: %s", drv.error);
  return JG_OK;
}

/* Formats a failed driver call: "<what>: <CUDA_ERROR_X>: <description><extra>". */
static jg_status cu_fail(jg_error *err, CUresult r, int64_t index, const char *what,
                         const char *extra) {
  const char *name = NULL, *text = NULL;
  if (drv.get_error_name == NULL || drv.get_error_name(r, &name) != CUDA_SUCCESS) name = NULL;
  if (drv.get_error_string == NULL || drv.get_error_string(r, &text) != CUDA_SUCCESS) text = NULL;
  jg_status st = JG_ECUDA;
  switch (r) {
    case CUDA_ERROR_OUT_OF_MEMORY:
      st = JG_EDEVMEM;
      break;
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_DEINITIALIZED:
      st = JG_ENODEV;
      break;
    case CUDA_ERROR_NOT_FOUND:
      st = JG_ENOTFOUND;
      break;
    default:
      break;
  }
  return jg_error_set(err, st, index, "%s: %s: %s%s", what, name != NULL ? name : "CUDA error",
                      text != NULL ? text : "unknown", extra != NULL ? extra : "");
}

static jg_status ctx_push(CUcontext ctx, jg_error *err) {
  CUresult r = drv.ctx_push(ctx);
  if (r != CUDA_SUCCESS) return cu_fail(err, r, -1, "cuCtxPushCurrent", NULL);
  return JG_OK;
}

static void ctx_pop(void) {
  CUcontext ignored = NULL;
  (void)drv.ctx_pop(&ignored);
}

struct jg_rtc_kernel {
  struct jg_rtc_kernel *next;
  jg_rtc_module *module;
  CUfunction fn;
  char *name;
  size_t n_params;
  jg_kernel_param *params; /* names owned (copies) */
  int max_threads;         /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
  int static_shared;       /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
  pthread_mutex_t lock;    /* guards dynamic_allowed and its opt-in */
  int dynamic_allowed;     /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
};

struct jg_rtc_module {
  CUmodule module;
  CUcontext ctx;
  CUdevice dev;
  int device;
  int arch;
  int shared_optin; /* CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
  int max_grid_x;   /* CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X */
  size_t n_names;
  char **names, **lowered;
  pthread_mutex_t lock; /* guards kernels */
  jg_rtc_kernel *kernels;
};
#else
struct jg_rtc_kernel {
  int unused;
};
struct jg_rtc_module {
  int unused;
};
#endif /* RTC_CUDA */

/* ------------------------------------------------------------------------------------------ */
/* Modules                                                                                     */
/* ------------------------------------------------------------------------------------------ */

jg_status jg_rtc_module_load(const jg_rtc_program *p, int device, jg_rtc_module **out,
                             jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_rtc_module_load: out is NULL");
  *out = NULL;
  JG_RETURN_IF(p == NULL, JG_EINVAL, err, "jg_rtc_module_load: program is NULL");
#if RTC_CUDA
  JG_RETURN_NOT_OK(jgi_cuda_check_device(device, err));
  JG_RETURN_NOT_OK(driver_require(err));
  jg_rtc_module *m = calloc(1, sizeof *m);
  JG_RETURN_IF(m == NULL, JG_ENOMEM, err, "jg_rtc_module_load: out of memory");
  m->device = device;
  m->arch = p->arch;
  CUresult r = drv.device_get(&m->dev, device);
  if (r != CUDA_SUCCESS) {
    free(m);
    return cu_fail(err, r, device, "cuDeviceGet", NULL);
  }
  r = drv.primary_ctx_retain(&m->ctx, m->dev);
  if (r != CUDA_SUCCESS) {
    free(m);
    return cu_fail(err, r, device, "cuDevicePrimaryCtxRetain", NULL);
  }
  jg_status st = ctx_push(m->ctx, err);
  if (st != JG_OK) {
    (void)drv.primary_ctx_release(m->dev);
    free(m);
    return st;
  }
  r = drv.module_load_data(&m->module, p->bin.cubin);
  ctx_pop();
  if (r != CUDA_SUCCESS) {
    int major = 0, minor = 0;
    (void)drv.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, m->dev);
    (void)drv.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, m->dev);
    char extra[160];
    snprintf(extra, sizeof extra, " (the program was compiled for sm_%d; device %d is sm_%d%d)",
             p->arch, device, major, minor);
    (void)drv.primary_ctx_release(m->dev);
    free(m);
    return cu_fail(err, r, -1, "cuModuleLoadData", extra);
  }
  if (drv.device_get_attribute(&m->shared_optin,
                               CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                               m->dev) != CUDA_SUCCESS) {
    m->shared_optin = 48 * 1024;
  }
  if (drv.device_get_attribute(&m->max_grid_x, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, m->dev) !=
      CUDA_SUCCESS) {
    m->max_grid_x = INT_MAX;
  }
  if (pthread_mutex_init(&m->lock, NULL) != 0) goto nomem_unload;
  if (p->bin.n_names > 0) {
    m->names = calloc(p->bin.n_names, sizeof *m->names);
    m->lowered = calloc(p->bin.n_names, sizeof *m->lowered);
    if (m->names == NULL || m->lowered == NULL) goto nomem;
  }
  m->n_names = p->bin.n_names;
  for (size_t i = 0; i < m->n_names; ++i) {
    m->names[i] = dup_str(p->bin.names[i]);
    m->lowered[i] = dup_str(p->bin.lowered[i]);
    if (m->names[i] == NULL || m->lowered[i] == NULL) goto nomem;
  }
  *out = m;
  return JG_OK;
nomem:
  jg_rtc_module_destroy(m);
  return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_module_load: out of memory");
nomem_unload:
  if (ctx_push(m->ctx, NULL) == JG_OK) {
    (void)drv.module_unload(m->module);
    ctx_pop();
  }
  (void)drv.primary_ctx_release(m->dev);
  free(m);
  return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_module_load: cannot create a mutex");
#else
  (void)device;
  return jg_error_set(err, JG_ENOTSUP, -1, NO_CUDA_MESSAGE);
#endif
}

void jg_rtc_module_destroy(jg_rtc_module *m) {
  if (m == NULL) return;
#if RTC_CUDA
  for (jg_rtc_kernel *k = m->kernels; k != NULL;) {
    jg_rtc_kernel *next = k->next;
    for (size_t i = 0; i < k->n_params; ++i) free((char *)k->params[i].name);
    free(k->params);
    free(k->name);
    (void)pthread_mutex_destroy(&k->lock);
    free(k);
    k = next;
  }
  for (size_t i = 0; i < m->n_names; ++i) {
    free(m->names[i]);
    free(m->lowered[i]);
  }
  free(m->names);
  free(m->lowered);
  if (ctx_push(m->ctx, NULL) == JG_OK) {
    (void)drv.module_unload(m->module);
    ctx_pop();
  }
  (void)drv.primary_ctx_release(m->dev);
  (void)pthread_mutex_destroy(&m->lock);
#endif
  free(m);
}

/* ------------------------------------------------------------------------------------------ */
/* Kernels                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static bool dtype_is_integer(jg_dtype d) {
  switch (d) {
    case JG_DTYPE_BOOL:
    case JG_DTYPE_INT8:
    case JG_DTYPE_INT16:
    case JG_DTYPE_INT32:
    case JG_DTYPE_INT64:
    case JG_DTYPE_UINT8:
    case JG_DTYPE_UINT16:
    case JG_DTYPE_UINT32:
    case JG_DTYPE_UINT64:
      return true;
    default:
      return false;
  }
}

/* Checks a parameter table given to jg_rtc_kernel_get. */
static jg_status check_params(const jg_kernel_param *params, size_t n, jg_error *err) {
  JG_RETURN_IF(n > 0 && params == NULL, JG_EINVAL, err,
               "jg_rtc_kernel_get: %zu parameters but params is NULL", n);
  JG_RETURN_IF(n > 4096, JG_EINVAL, err, "jg_rtc_kernel_get: %zu parameters (at most 4096)", n);
  for (size_t i = 0; i < n; ++i) {
    const jg_kernel_param *p = &params[i];
    JG_RETURN_IF_AT(p->name == NULL || p->name[0] == '\0', JG_EINVAL, err, i,
                    "jg_rtc_kernel_get: parameter %zu has no name", i);
    for (size_t j = 0; j < i; ++j) {
      JG_RETURN_IF_AT(strcmp(params[j].name, p->name) == 0, JG_EINVAL, err, i,
                      "jg_rtc_kernel_get: parameters %zu and %zu are both named '%s'", j, i,
                      p->name);
    }
    JG_RETURN_IF_AT(p->kind != JG_PARAM_SCALAR && p->kind != JG_PARAM_ARRAY, JG_EINVAL, err, i,
                    "jg_rtc_kernel_get: parameter '%s' (position %zu) has unknown kind %d", p->name,
                    i, (int)p->kind);
    JG_RETURN_IF_AT(p->dir != JG_PARAM_IN && p->dir != JG_PARAM_OUT && p->dir != JG_PARAM_INOUT,
                    JG_EINVAL, err, i,
                    "jg_rtc_kernel_get: parameter '%s' (position %zu) has unknown direction %d",
                    p->name, i, (int)p->dir);
    JG_RETURN_IF_AT(p->type_var != NULL, JG_EINVAL, err, i,
                    "jg_rtc_kernel_get: parameter '%s' (position %zu) is generic (type variable "
                    "'%s'); give its dtype",
                    p->name, i, p->type_var);
    JG_RETURN_IF_AT(jg_dtype_itemsize(p->dtype) <= 0, JG_EINVAL, err, i,
                    "jg_rtc_kernel_get: parameter '%s' (position %zu) has invalid dtype %d",
                    p->name, i, (int)p->dtype);
    if (p->kind == JG_PARAM_SCALAR) {
      JG_RETURN_IF_AT(p->dir != JG_PARAM_IN, JG_EINVAL, err, i,
                      "jg_rtc_kernel_get: scalar parameter '%s' (position %zu) must be IN", p->name,
                      i);
      JG_RETURN_IF_AT(!dtype_is_integer(p->dtype) && p->dtype != JG_DTYPE_FLOAT32 &&
                          p->dtype != JG_DTYPE_FLOAT64,
                      JG_EINVAL, err, i,
                      "jg_rtc_kernel_get: scalar parameter '%s' (position %zu) is %s: scalars "
                      "must be integers, bool, float32 or float64 (pass others in an array)",
                      p->name, i, jg_dtype_name(p->dtype));
    } else if (p->min_length_param != -1) {
      int mp = p->min_length_param;
      JG_RETURN_IF_AT(mp < 0 || (size_t)mp >= n || params[mp].kind != JG_PARAM_SCALAR ||
                          !dtype_is_integer(params[mp].dtype),
                      JG_EINVAL, err, i,
                      "jg_rtc_kernel_get: array parameter '%s' (position %zu): min_length_param "
                      "%d is not an integer scalar parameter (-1: no minimum length)",
                      p->name, i, mp);
    }
  }
  return JG_OK;
}

jg_status jg_rtc_kernel_get(jg_rtc_module *m, const char *name, const jg_kernel_param *params,
                            size_t n_params, jg_rtc_kernel **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_rtc_kernel_get: out is NULL");
  *out = NULL;
  JG_RETURN_IF(m == NULL, JG_EINVAL, err, "jg_rtc_kernel_get: module is NULL");
  JG_RETURN_IF(name == NULL || name[0] == '\0', JG_EINVAL, err,
               "jg_rtc_kernel_get: the kernel name is NULL or empty");
  JG_RETURN_NOT_OK(check_params(params, n_params, err));
#if RTC_CUDA
  const char *symbol = name;
  for (size_t i = 0; i < m->n_names; ++i) {
    if (strcmp(m->names[i], name) == 0) symbol = m->lowered[i];
  }
  JG_RETURN_NOT_OK(ctx_push(m->ctx, err));
  CUfunction fn = NULL;
  CUresult r = drv.module_get_function(&fn, m->module, symbol);
  if (r != CUDA_SUCCESS) {
    ctx_pop();
    if (r == CUDA_ERROR_NOT_FOUND) {
      return jg_error_set(err, JG_ENOTFOUND, -1,
                          "the module has no kernel '%s' (give template instantiations as name "
                          "expressions at compile time; extern \"C\" kernels go by their name)",
                          name);
    }
    return cu_fail(err, r, -1, "cuModuleGetFunction", NULL);
  }
  int max_threads = 1024, static_shared = 0, dynamic_allowed = 48 * 1024;
  (void)drv.func_get_attribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
  (void)drv.func_get_attribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
  (void)drv.func_get_attribute(&dynamic_allowed, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               fn);
  ctx_pop();
  if (drv.func_get_param_info != NULL) {
    for (size_t i = 0; i < n_params; ++i) {
      size_t offset = 0, size = 0;
      r = drv.func_get_param_info(fn, i, &offset, &size);
      if (r != CUDA_SUCCESS) {
        return jg_error_set(err, JG_ESHAPE, (int64_t)i,
                            "kernel '%s' takes %zu parameter%s, %zu were declared", name, i,
                            i == 1 ? "" : "s", n_params);
      }
      const jg_kernel_param *p = &params[i];
      size_t want =
          p->kind == JG_PARAM_ARRAY ? sizeof(void *) : (size_t)jg_dtype_itemsize(p->dtype);
      if (size != want) {
        return jg_error_set(err, JG_ESHAPE, (int64_t)i,
                            "kernel '%s': parameter '%s' (position %zu) is %zu bytes in the "
                            "compiled kernel, but declared as %s %s (%zu bytes)",
                            name, p->name, i, size, jg_dtype_name(p->dtype),
                            p->kind == JG_PARAM_ARRAY ? "array (a pointer)" : "scalar", want);
      }
    }
    size_t offset = 0, size = 0;
    if (drv.func_get_param_info(fn, n_params, &offset, &size) == CUDA_SUCCESS) {
      size_t count = n_params + 1;
      while (count < 4096 && drv.func_get_param_info(fn, count, &offset, &size) == CUDA_SUCCESS) {
        ++count;
      }
      return jg_error_set(err, JG_ESHAPE, (int64_t)n_params,
                          "kernel '%s' takes %zu parameters, %zu were declared", name, count,
                          n_params);
    }
  }
  jg_rtc_kernel *k = calloc(1, sizeof *k);
  JG_RETURN_IF(k == NULL, JG_ENOMEM, err, "jg_rtc_kernel_get: out of memory");
  k->module = m;
  k->fn = fn;
  k->n_params = n_params;
  k->max_threads = max_threads > 0 ? max_threads : 1024;
  k->static_shared = static_shared;
  k->dynamic_allowed = dynamic_allowed;
  k->name = dup_str(name);
  k->params = n_params > 0 ? calloc(n_params, sizeof *k->params) : NULL;
  bool ok = k->name != NULL && (n_params == 0 || k->params != NULL);
  for (size_t i = 0; ok && i < n_params; ++i) {
    k->params[i] = params[i];
    k->params[i].name = dup_str(params[i].name);
    ok = k->params[i].name != NULL;
  }
  if (!ok || pthread_mutex_init(&k->lock, NULL) != 0) {
    if (k->params != NULL) {
      for (size_t i = 0; i < n_params; ++i) free((char *)k->params[i].name);
    }
    free(k->params);
    free(k->name);
    free(k);
    return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_kernel_get: out of memory");
  }
  (void)pthread_mutex_lock(&m->lock);
  k->next = m->kernels;
  m->kernels = k;
  (void)pthread_mutex_unlock(&m->lock);
  *out = k;
  return JG_OK;
#else
  return jg_error_set(err, JG_ENOTSUP, -1, NO_CUDA_MESSAGE);
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* Launch                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#if RTC_CUDA
/* One kernel argument's bytes; cuLaunchKernel reads the parameter's size from its start. */
typedef union arg_value {
  void *ptr;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  float f32;
  double f64;
} arg_value;

static const char *device_type_name(jg_device_type t) {
  switch (t) {
    case JG_DEVICE_CPU:
      return "host memory";
    case JG_DEVICE_CUDA_HOST:
      return "pinned host memory";
    case JG_DEVICE_CUDA:
      return "CUDA device memory";
    case JG_DEVICE_CUDA_MANAGED:
      return "managed memory";
    default:
      return "memory of an unknown device type";
  }
}

/* Converts scalar argument `a` to parameter `p`'s type into *v. */
static jg_status convert_scalar(const jg_rtc_kernel *k, size_t i, const jg_kernel_arg *a,
                                arg_value *v, jg_error *err) {
  const jg_kernel_param *p = &k->params[i];
  JG_RETURN_IF_AT(a->dtype != JG_DTYPE_INT64 && a->dtype != JG_DTYPE_FLOAT64, JG_EINVAL, err, i,
                  "kernel '%s': scalar argument '%s' (position %zu) has dtype %s; make scalars "
                  "with jg_arg_i64 or jg_arg_f64",
                  k->name, p->name, i, jg_dtype_name(a->dtype));
  if (p->dtype == JG_DTYPE_FLOAT64) {
    v->f64 = a->dtype == JG_DTYPE_INT64 ? (double)a->v.i64 : a->v.f64;
    return JG_OK;
  }
  if (p->dtype == JG_DTYPE_FLOAT32) {
    v->f32 = a->dtype == JG_DTYPE_INT64 ? (float)a->v.i64 : (float)a->v.f64;
    return JG_OK;
  }
  JG_RETURN_IF_AT(a->dtype == JG_DTYPE_FLOAT64, JG_EDTYPE, err, i,
                  "kernel '%s': parameter '%s' (position %zu) is %s; a float cannot be passed "
                  "(use jg_arg_i64)",
                  k->name, p->name, i, jg_dtype_name(p->dtype));
  int64_t x = a->v.i64, lo = 0, hi = INT64_MAX;
  switch (p->dtype) {
    case JG_DTYPE_BOOL:
      hi = 1;
      break;
    case JG_DTYPE_INT8:
      lo = INT8_MIN;
      hi = INT8_MAX;
      break;
    case JG_DTYPE_INT16:
      lo = INT16_MIN;
      hi = INT16_MAX;
      break;
    case JG_DTYPE_INT32:
      lo = INT32_MIN;
      hi = INT32_MAX;
      break;
    case JG_DTYPE_INT64:
      lo = INT64_MIN;
      break;
    case JG_DTYPE_UINT8:
      hi = UINT8_MAX;
      break;
    case JG_DTYPE_UINT16:
      hi = UINT16_MAX;
      break;
    case JG_DTYPE_UINT32:
      hi = UINT32_MAX;
      break;
    case JG_DTYPE_UINT64:
      break;
    default:
      return jg_error_set(err, JG_EINTERNAL, (int64_t)i, "kernel '%s': parameter '%s' has dtype %s",
                          k->name, p->name, jg_dtype_name(p->dtype));
  }
  JG_RETURN_IF_AT(x < lo || x > hi, JG_EOVERFLOW, err, i,
                  "kernel '%s': %lld is out of range for parameter '%s' (position %zu, %s)",
                  k->name, (long long)x, p->name, i, jg_dtype_name(p->dtype));
  switch (p->dtype) {
    case JG_DTYPE_BOOL:
    case JG_DTYPE_UINT8:
      v->u8 = (uint8_t)x;
      break;
    case JG_DTYPE_INT8:
      v->i8 = (int8_t)x;
      break;
    case JG_DTYPE_INT16:
      v->i16 = (int16_t)x;
      break;
    case JG_DTYPE_INT32:
      v->i32 = (int32_t)x;
      break;
    case JG_DTYPE_UINT16:
      v->u16 = (uint16_t)x;
      break;
    case JG_DTYPE_UINT32:
      v->u32 = (uint32_t)x;
      break;
    case JG_DTYPE_UINT64:
      v->u64 = (uint64_t)x;
      break;
    default:
      v->i64 = x;
      break;
  }
  return JG_OK;
}

/* The checks of jg_kernel_call for a kernel loaded on one device; fills values. */
static jg_status check_args(const jg_rtc_kernel *k, const jg_kernel_arg *args, arg_value *values,
                            jg_error *err) {
  int dev = k->module->device;
  for (size_t i = 0; i < k->n_params; ++i) {
    const jg_kernel_param *p = &k->params[i];
    const jg_kernel_arg *a = &args[i];
    JG_RETURN_IF_AT(a->kind != p->kind, JG_EINVAL, err, i,
                    "kernel '%s': parameter '%s' (position %zu) is %s, the argument %s", k->name,
                    p->name, i, p->kind == JG_PARAM_ARRAY ? "an array" : "a scalar",
                    a->kind == JG_PARAM_ARRAY    ? "an array"
                    : a->kind == JG_PARAM_SCALAR ? "a scalar"
                                                 : "of unknown kind");
    if (p->kind == JG_PARAM_SCALAR) {
      JG_RETURN_NOT_OK(convert_scalar(k, i, a, &values[i], err));
      continue;
    }
    JG_RETURN_IF_AT(a->v.array.length < 0, JG_EINVAL, err, i,
                    "kernel '%s': array '%s' (position %zu) has negative length %lld", k->name,
                    p->name, i, (long long)a->v.array.length);
    JG_RETURN_IF_AT(a->v.array.data == NULL && a->v.array.length > 0, JG_EINVAL, err, i,
                    "kernel '%s': array '%s' (position %zu) is NULL with length %lld", k->name,
                    p->name, i, (long long)a->v.array.length);
    JG_RETURN_IF_AT(a->dtype != p->dtype, JG_EDTYPE, err, i,
                    "kernel '%s': array '%s' (position %zu) must be %s, not %s", k->name, p->name,
                    i, jg_dtype_name(p->dtype), jg_dtype_name(a->dtype));
    jg_device d = a->v.array.device;
    if (d.type == JG_DEVICE_CUDA) {
      JG_RETURN_IF_AT(d.id != dev, JG_EBACKEND, err, i,
                      "kernel '%s': array '%s' (position %zu) is on CUDA device %d, the kernel is "
                      "loaded on device %d (copy it with jg_copy)",
                      k->name, p->name, i, (int)d.id, dev);
    } else {
      JG_RETURN_IF_AT(d.type != JG_DEVICE_CUDA_MANAGED, JG_EBACKEND, err, i,
                      "kernel '%s': array '%s' (position %zu) is in %s: arrays are never copied "
                      "to the device here: use jg_array_to_device or jg_copy",
                      k->name, p->name, i, device_type_name(d.type));
    }
    values[i].ptr = a->v.array.data;
  }
  for (size_t i = 0; i < k->n_params; ++i) {
    const jg_kernel_param *p = &k->params[i];
    if (p->kind != JG_PARAM_ARRAY || p->min_length_param < 0) continue;
    int64_t need = 0;
    int64_t base = args[p->min_length_param].v.i64;
    JG_RETURN_IF_AT(jgi_add_overflow(base, p->min_length_add, &need), JG_EOVERFLOW, err, i,
                    "kernel '%s': the minimum length of '%s' (position %zu) overflows", k->name,
                    p->name, i);
    JG_RETURN_IF_AT(args[i].v.array.length < need, JG_ESHAPE, err, i,
                    "kernel '%s': array '%s' (position %zu) has %lld elements, needs at least "
                    "%lld (%s%+lld)",
                    k->name, p->name, i, (long long)args[i].v.array.length, (long long)need,
                    k->params[p->min_length_param].name, (long long)p->min_length_add);
  }
  return JG_OK;
}
#endif /* RTC_CUDA */

jg_status jg_rtc_launch(const jg_rtc_kernel *k, const jg_kernel_arg *args, size_t n_args,
                        const jg_launch *launch, jg_error *err) {
  JG_RETURN_IF(k == NULL, JG_EINVAL, err, "jg_rtc_launch: kernel is NULL");
  JG_RETURN_IF(n_args > 0 && args == NULL, JG_EINVAL, err,
               "jg_rtc_launch: %zu arguments but args is NULL", n_args);
#if RTC_CUDA
  JG_RETURN_IF(n_args != k->n_params, JG_EINVAL, err, "kernel '%s' takes %zu argument%s, %zu given",
               k->name, k->n_params, k->n_params == 1 ? "" : "s", n_args);
  jg_launch none;
  memset(&none, 0, sizeof none);
  if (launch == NULL) launch = &none;
  JG_RETURN_IF(launch->block < 0 || launch->block > 1024, JG_EINVAL, err,
               "kernel '%s': block of %d threads (1 to 1024; 0: default)", k->name, launch->block);
  JG_RETURN_IF(launch->threads < 0 || launch->grid < 0, JG_EINVAL, err,
               "kernel '%s': negative threads (%lld) or grid (%lld)", k->name,
               (long long)launch->threads, (long long)launch->grid);

  arg_value small[32];
  arg_value *values = small;
  void *small_ptrs[32];
  void **ptrs = small_ptrs;
  if (n_args > 32) {
    values = calloc(n_args, sizeof *values);
    ptrs = calloc(n_args, sizeof *ptrs);
    if (values == NULL || ptrs == NULL) {
      free(values);
      free(ptrs);
      return jg_error_set(err, JG_ENOMEM, -1, "jg_rtc_launch: out of memory");
    }
  }
  jg_status st = check_args(k, args, values, err);
  if (st != JG_OK) goto done;

  int block = launch->block;
  if (block == 0) block = k->max_threads < 256 ? k->max_threads : 256;
  if (block > k->max_threads) {
    st = jg_error_set(err, JG_EINVAL, -1,
                      "kernel '%s': block of %d threads exceeds its limit of %d (registers or "
                      "__launch_bounds__)",
                      k->name, block, k->max_threads);
    goto done;
  }
  int64_t grid = launch->grid;
  if (grid == 0) {
    int64_t threads = launch->threads;
    if (threads == 0) {
      size_t first = k->n_params;
      for (size_t i = 0; i < k->n_params && first == k->n_params; ++i) {
        if (k->params[i].kind == JG_PARAM_ARRAY) first = i;
      }
      if (first == k->n_params) {
        st = jg_error_set(err, JG_EINVAL, -1,
                          "kernel '%s': set launch->threads or launch->grid (it has no array "
                          "parameter to take the thread count from)",
                          k->name);
        goto done;
      }
      threads = args[first].v.array.length;
    }
    if (threads == 0) goto done; /* nothing to do: launches nothing */
    grid = threads / block + (threads % block != 0);
  }
  if (grid > k->module->max_grid_x) {
    st = jg_error_set(err, JG_EINVAL, -1,
                      "kernel '%s': a grid of %lld blocks exceeds device %d's limit of %d", k->name,
                      (long long)grid, k->module->device, k->module->max_grid_x);
    goto done;
  }
  size_t dyn = launch->shared_bytes;
  size_t limit = k->module->shared_optin > 0 ? (size_t)k->module->shared_optin : 0;
  if (dyn > limit || (size_t)k->static_shared > limit - dyn) {
    st = jg_error_set(err, JG_EINVAL, -1,
                      "kernel '%s': %d bytes of static plus %zu of dynamic shared memory exceed "
                      "device %d's limit of %zu bytes per block",
                      k->name, k->static_shared, dyn, k->module->device, limit);
    goto done;
  }
  jg_rtc_kernel *mk = (jg_rtc_kernel *)k; /* the opt-in state is guarded by k->lock */
  st = ctx_push(k->module->ctx, err);
  if (st != JG_OK) goto done;
  if (dyn > 0) {
    (void)pthread_mutex_lock(&mk->lock);
    if ((int)dyn > mk->dynamic_allowed) {
      CUresult r =
          drv.func_set_attribute(k->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn);
      if (r == CUDA_SUCCESS) {
        mk->dynamic_allowed = (int)dyn;
      } else {
        st = cu_fail(err, r, -1, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", NULL);
      }
    }
    (void)pthread_mutex_unlock(&mk->lock);
    if (st != JG_OK) {
      ctx_pop();
      goto done;
    }
  }
  for (size_t i = 0; i < n_args; ++i) ptrs[i] = &values[i];
  CUstream stream = launch->stream != NULL ? (CUstream)launch->stream : CU_STREAM_LEGACY;
  CUresult r = drv.launch_kernel(k->fn, (unsigned int)grid, 1, 1, (unsigned int)block, 1, 1,
                                 (unsigned int)dyn, stream, n_args > 0 ? ptrs : NULL, NULL);
  ctx_pop();
  if (r != CUDA_SUCCESS) {
    char what[256];
    snprintf(what, sizeof what, "cuLaunchKernel (kernel '%s', grid %lld, block %d)", k->name,
             (long long)grid, block);
    st = cu_fail(err, r, -1, what, NULL);
  }
done:
  if (values != small) free(values);
  if (ptrs != small_ptrs) free(ptrs);
  return st;
#else
  (void)launch;
  return jg_error_set(err, JG_ENOTSUP, -1, NO_CUDA_MESSAGE);
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* jg_catalog_compile_all                                                                      */
/* ------------------------------------------------------------------------------------------ */

void jg_compile_report_free(jg_compile_report *report) {
  if (report == NULL) return;
  free(report->log);
  memset(report, 0, sizeof *report);
}

#if RTC_CUDA
/* One NVRTC program of the catalog and its outcome. */
typedef struct compile_task {
  const jg_kernel *kernel;
  const char **names;
  size_t n_names;
  const char *single_name; /* registered kernels: the entry name */
  bool builtin;
  jg_status status;
  bool cached;
  char *log; /* failures: the NVRTC log, else the error message */
  char message[JG_ERROR_MESSAGE_SIZE];
} compile_task;

typedef struct compile_pool {
  compile_task *tasks;
  size_t n;
  atomic_size_t next;
  const jg_rtc_options *opt;
} compile_pool;

static void run_task(compile_task *t, const jg_rtc_options *opt) {
  static const char *const common_names[] = {"jgk_common.cuh"};
  const char *const common_sources[] = {jgi_kernel_common_cuh};
  const jg_kernel *k = t->kernel;
  jg_error err;
  jg_error_clear(&err);
  jg_rtc_program *p = NULL;
  if (t->builtin) {
    t->status = jgi_rtc_compile_ex(k->cuda_source, k->cuda_path, t->names, t->n_names, opt, NULL, 0,
                                   1, common_sources, common_names, &p, &err);
  } else {
    t->status = jgi_rtc_compile_ex(k->cuda_source, k->cuda_path, &t->single_name, 1, opt,
                                   k->cuda_options, k->n_cuda_options, 0, NULL, NULL, &p, &err);
  }
  if (t->status == JG_OK) {
    t->cached = jg_rtc_program_cached(p);
  } else {
    snprintf(t->message, sizeof t->message, "%s", err.message);
    const char *log = jg_rtc_last_log();
    t->log = dup_str(log[0] != '\0' ? log : err.message);
  }
  jg_rtc_program_destroy(p);
}

static void *pool_worker(void *arg) {
  compile_pool *pool = arg;
  for (;;) {
    size_t i = atomic_fetch_add(&pool->next, 1);
    if (i >= pool->n) break;
    run_task(&pool->tasks[i], pool->opt);
  }
  return NULL;
}
#endif /* RTC_CUDA */

jg_status jg_catalog_compile_all(int jobs, const jg_rtc_options *opt, jg_compile_report *report,
                                 jg_error *err) {
  JG_RETURN_IF(report == NULL, JG_EINVAL, err, "jg_catalog_compile_all: report is NULL");
  memset(report, 0, sizeof *report);
  JG_RETURN_IF(jobs < 0, JG_EINVAL, err, "jg_catalog_compile_all: jobs is %d (0: one per CPU)",
               jobs);
  JG_RETURN_NOT_OK(check_options(opt, err));
#if RTC_CUDA
  JG_RETURN_NOT_OK(nvrtc_require(err));
  /* The arch is resolved here: worker threads have their own current device. */
  jg_rtc_options o;
  memset(&o, 0, sizeof o);
  if (opt != NULL) o = *opt;
  if (o.arch == 0) JG_RETURN_NOT_OK(current_arch(&o.arch, err));

  size_t total = jg_catalog_size();
  compile_task *tasks = total > 0 ? calloc(total, sizeof *tasks) : NULL;
  JG_RETURN_IF(total > 0 && tasks == NULL, JG_ENOMEM, err, "jg_catalog_compile_all: out of memory");
  size_t n = 0;
  jg_status st = JG_OK;
  for (size_t i = 0; i < total; ++i) {
    const jg_kernel *k = jg_catalog_at(i);
    if (k == NULL || k->cuda_source == NULL) {
      report->skipped++;
      continue;
    }
    compile_task *t = &tasks[n++];
    t->kernel = k;
    t->builtin = k->user_host == NULL;
    if (t->builtin) {
      if (k->n_variants > 0) {
        t->names = calloc(k->n_variants, sizeof *t->names);
        if (t->names == NULL) {
          st = jg_error_set(err, JG_ENOMEM, -1, "jg_catalog_compile_all: out of memory");
          break;
        }
      }
      for (size_t v = 0; v < k->n_variants; ++v) {
        const char *cn = k->variants[v].cuda_name;
        bool seen = cn == NULL;
        for (size_t j = 0; j < t->n_names && !seen; ++j) seen = strcmp(t->names[j], cn) == 0;
        if (!seen) t->names[t->n_names++] = cn;
      }
    } else {
      t->single_name = k->cuda_entry != NULL ? k->cuda_entry : k->name;
    }
  }
  if (st == JG_OK && n > 0) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t workers = jobs > 0 ? (size_t)jobs : (cpus > 0 ? (size_t)cpus : 1);
    if (workers > n) workers = n;
    if (workers > 256) workers = 256;
    compile_pool pool;
    pool.tasks = tasks;
    pool.n = n;
    atomic_init(&pool.next, 0);
    pool.opt = &o;
    pthread_t threads[256];
    size_t started = 0;
    for (size_t w = 1; w < workers; ++w) {
      if (pthread_create(&threads[started], NULL, pool_worker, &pool) != 0) break;
      ++started;
    }
    (void)pool_worker(&pool); /* the calling thread works too */
    for (size_t w = 0; w < started; ++w) (void)pthread_join(threads[w], NULL);

    size_t log_len = 0;
    const compile_task *first_fail = NULL;
    for (size_t i = 0; i < n; ++i) {
      const compile_task *t = &tasks[i];
      if (t->status == JG_OK) {
        report->compiled++;
        if (t->cached) report->cached++;
      } else {
        report->failed++;
        if (first_fail == NULL) first_fail = t;
        log_len += strlen(t->kernel->name) + (t->log != NULL ? strlen(t->log) : 0) + 16;
      }
    }
    if (report->failed > 0) {
      report->log = malloc(log_len + 1);
      if (report->log != NULL) {
        size_t pos = 0;
        for (size_t i = 0; i < n; ++i) {
          const compile_task *t = &tasks[i];
          if (t->status == JG_OK) continue;
          int w = snprintf(report->log + pos, log_len + 1 - pos, "kernel '%s': %s\n",
                           t->kernel->name, t->log != NULL ? t->log : "out of memory");
          if (w > 0) pos += (size_t)w;
        }
      }
      st = jg_error_set(err, JG_ECUDA, (int64_t)report->failed,
                        "%zu of %zu CUDA kernels failed to compile; first: kernel '%s': %s",
                        report->failed, n, first_fail->kernel->name, first_fail->message);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    free(tasks[i].names);
    free(tasks[i].log);
  }
  free(tasks);
  return st;
#else
  return jg_error_set(err, JG_ENOTSUP, -1, NO_CUDA_MESSAGE);
#endif
}
