/* rtc.h: run-time compilation of user CUDA kernels with NVRTC, an on-disk cache of the compiled
 * binaries, loading with the CUDA driver API, and launches with checked arguments.
 *
 * jagged loads NVRTC (libnvrtc.so.13, or what JG_NVRTC_LIBRARY names) and the driver entry
 * points at run time, so nothing here is a link-time dependency: on a machine without them every
 * call fails cleanly (JG_ENOTSUP naming the missing library, JG_ENODEV without a GPU). Compiling
 * needs no GPU when the target architecture is given (jg_rtc_options.arch); loading and launching
 * do.
 *
 * Cache: a compiled program is stored under the cache directory (jg_rtc_options.cache_dir, else
 * JG_CACHE_DIR, else $XDG_CACHE_HOME/jagged/kernels when that variable is an absolute path, else
 * $HOME/.cache/jagged/kernels; folders are created as needed), keyed by a 128-bit XXH3 hash of:
 * the source and its name; the in-memory headers (name and content); the full NVRTC option list;
 * the name expressions, in order; the architecture; the NVRTC version; jagged's version; the
 * cache format version; and the name and content of every header the source reaches,
 * recursively. Headers resolve as NVRTC resolves them: a quoted #include to an in-memory header
 * of that name, else the including file's folder, else the include directories in order; an
 * angle-bracket #include only to an in-memory header or a file in an include directory (other
 * angle-bracket headers are NVRTC's own, covered by its version). Editing a header therefore
 * misses the cache; where a header was found is not part of the key, only how the #include
 * spells it and what it contains. The environment is read at every compile.
 * Entries are CUBIN plus the lowered names of the requested name expressions, behind a header
 * with a magic number, format version, payload length and payload hash, in
 * <dir>/<first two hex digits of the key>/<key>.jgrtc; a file that is short, torn or fails any
 * check is a miss (counted in jg_rtc_stats.cache_corrupt, and replaced), never an error. Writes
 * go to a unique temporary file in the same folder, fsync(2), then rename(2), so concurrent
 * processes compiling the same program each end with a complete entry. Any failure to read or
 * write the cache only means no caching. JG_CACHE_DIR="" (or an empty cache_dir, or
 * jg_rtc_options.cache = JG_RTC_CACHE_OFF) disables it. */
#ifndef JAGGED_RTC_H
#define JAGGED_RTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jagged/export.h"
#include "jagged/kernel.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A compiled program (CUBIN for one architecture plus lowered names). Opaque, owned. */
typedef struct jg_rtc_program jg_rtc_program;
/** A program loaded on one device (a CUmodule). Opaque, owned. */
typedef struct jg_rtc_module jg_rtc_module;
/** A kernel of a loaded module with its declared parameters. Opaque, owned by its module. */
typedef struct jg_rtc_kernel jg_rtc_kernel;

/** Cache use of a compile. Numbers pinned. */
typedef enum jg_rtc_cache_mode {
  JG_RTC_CACHE_DEFAULT = 0, /**< read and write the cache directory (unless JG_CACHE_DIR="") */
  JG_RTC_CACHE_OFF = 1      /**< neither read nor write */
} jg_rtc_cache_mode;

/** Options of a compile; zero-initialise, then set what differs. */
typedef struct jg_rtc_options {
  const char *const *include_dirs; /**< searched for includes, in order (passed as -I<dir>) */
  size_t n_include_dirs;
  const char *const *options;      /**< extra NVRTC options, e.g. "-DN=4", "--use_fast_math" */
  size_t n_options;
  int arch;                        /**< compute capability as 10*major+minor (90 for sm_90); 0:
                                        that of the current CUDA device (needs a GPU) */
  jg_rtc_cache_mode cache;
  const char *cache_dir;           /**< overrides JG_CACHE_DIR for this compile; NULL: default;
                                        "": no cache */
} jg_rtc_options;

/** Compiles CUDA C++ `source` (NUL-terminated) named `source_name` (used in NVRTC messages and to
 *  resolve quoted includes: its folder is searched first, which for a bare name such as the
 *  default is the current directory, as NVRTC does; NULL: "kernel.cu") to CUBIN for
 *  `opt->arch`, requesting the lowered names of `n_names` name expressions (each a __global__
 *  function name, or a template instantiation such as "scale<float>", which NVRTC instantiates);
 *  `extern "C"` kernels may also be looked up later by plain name. NVRTC gets the options
 *  "--gpu-architecture=sm_<arch>", then "-I<dir>" per include directory, then opt->options.
 *  `opt` may be NULL (defaults: arch 0, cache on). The strings are only read during the call.
 *  On success *out owns the program (free with jg_rtc_program_destroy); *out is NULL on error.
 *  Errors: JG_EINVAL for NULL source/out, n_names > 0 with NULL names, a NULL or empty name
 *  (index = its position), a negative arch, an unknown cache mode, a NULL or empty include
 *  directory or option; JG_ENOTSUP when NVRTC cannot be loaded (the message names the library
 *  tried and JG_NVRTC_LIBRARY) or the build has no CUDA ("jagged was built without CUDA");
 *  JG_ENODEV when arch is 0 and no GPU is usable; JG_ECUDA when the compile fails (a source
 *  error, a name expression that names nothing, an unknown option or architecture): message
 *  "NVRTC: compiling <name> failed: <first error line of the log>", and the full log is
 *  available through jg_rtc_last_log on this thread; JG_ENOMEM. Cache failures are never
 *  errors. Thread-safe (independent programs compile in parallel). */
JG_API jg_status jg_rtc_compile(const char *source, const char *source_name,
                                const char *const *names, size_t n_names,
                                const jg_rtc_options *opt, jg_rtc_program **out, jg_error *err);

/** As jg_rtc_compile with the source read from the file at `path`, which is also the source
 *  name (so its folder is searched first for quoted includes). Errors: as jg_rtc_compile;
 *  JG_EINVAL for a NULL path; JG_EIO when the file cannot be opened or read, or is not a
 *  regular file (the message names it). */
JG_API jg_status jg_rtc_compile_file(const char *path, const char *const *names, size_t n_names,
                                     const jg_rtc_options *opt, jg_rtc_program **out,
                                     jg_error *err);

/** The NVRTC log of the calling thread's last compile when it failed in NVRTC; "" when that
 *  compile succeeded, failed before NVRTC ran (bad arguments, no NVRTC), or there was none.
 *  Valid until the thread's next compile, which replaces it. Never NULL. */
JG_API const char *jg_rtc_last_log(void);

/** The compile log of a program (warnings; "" when empty, served from the cache, or `p` is
 *  NULL). Valid while `p` lives. */
JG_API const char *jg_rtc_program_log(const jg_rtc_program *p);

/** true when `p` was read from the cache rather than compiled (false for NULL). */
JG_API bool jg_rtc_program_cached(const jg_rtc_program *p);

/** The CUBIN (an ELF image) of `p`, owned by `p`; *size (when `size` is not NULL) receives its
 *  length in bytes. NULL, with *size 0, for a NULL `p`. */
JG_API const void *jg_rtc_program_cubin(const jg_rtc_program *p, size_t *size);

/** The lowered (mangled) name of name expression `name` given at compile time (owned by `p`;
 *  the plain name for an extern "C" kernel); NULL when it was not requested or for NULL
 *  arguments. */
JG_API const char *jg_rtc_program_lowered_name(const jg_rtc_program *p, const char *name);

/** Hex digest (32 lower-case characters + NUL, owned by `p`) of the program's cache key,
 *  computed whether or not the cache is used; "" for NULL. */
JG_API const char *jg_rtc_program_key(const jg_rtc_program *p);

/** Frees `p`; NULL allowed. */
JG_API void jg_rtc_program_destroy(jg_rtc_program *p);

/** Loads `p` on CUDA device `device` (its primary context, retained until the module is
 *  destroyed; the module keeps a copy of the lowered names, so `p` may be destroyed after the
 *  call). *out owns the module (free with jg_rtc_module_destroy before the process ends or the
 *  device is reset); *out is NULL on error. Errors: JG_EINVAL for NULL p/out; JG_ENOTSUP in a
 *  build without CUDA; JG_ENODEV without a GPU, or when the driver lacks a needed function;
 *  JG_EINDEX (index = device) for a device id out of range; JG_ECUDA when the driver rejects
 *  the CUBIN (e.g. built for another architecture: the message gives the program's and the
 *  device's); JG_EDEVMEM; JG_ENOMEM. Thread-safe. */
JG_API jg_status jg_rtc_module_load(const jg_rtc_program *p, int device, jg_rtc_module **out,
                                    jg_error *err);

/** Unloads `m`, frees its kernels and releases the device's primary context; NULL allowed. No
 *  launch of its kernels may be running in another thread; launches already queued on a stream
 *  are not waited for (synchronize first if they must finish). */
JG_API void jg_rtc_module_destroy(jg_rtc_module *m);

/** Looks up kernel `name` (a name expression given at compile time, or the plain name of an
 *  extern "C" kernel) in `m` and records its parameters (`n_params` entries, copied with their
 *  names). Parameters need a unique non-empty name, a valid kind, direction and dtype, and no
 *  type variable; scalars must be IN and of an integer, bool, float32 or float64 dtype; an
 *  array's min_length_param is -1 or the index of an integer scalar parameter (ignored for
 *  scalars). The count and the byte size of every parameter are checked against the compiled
 *  kernel (cuFuncGetParamInfo, CUDA 12.4+ drivers; skipped on older ones): arrays are 8-byte
 *  pointers, scalars the dtype's size. Each call makes a new handle; all live as long as the
 *  module (do not free them). Errors: JG_EINVAL for NULL m/name/out, an empty name, params NULL
 *  with n_params > 0, or bad params (index = the parameter); JG_ENOTSUP in a build without
 *  CUDA; JG_ENOTFOUND when the module has no such kernel; JG_ESHAPE when the compiled kernel
 *  takes a different number of parameters or a parameter of another size (the message names
 *  it; index = its position); JG_ECUDA; JG_ENOMEM. Thread-safe. */
JG_API jg_status jg_rtc_kernel_get(jg_rtc_module *m, const char *name,
                                   const jg_kernel_param *params, size_t n_params,
                                   jg_rtc_kernel **out, jg_error *err);

/** Launches `k` (1-D) with `args` (`n_args`, one per parameter, in order) checked against its
 *  parameters as jg_kernel_call checks them: JG_EINVAL for a wrong count, NULL args with
 *  n_args > 0, a scalar for an array or the reverse, a scalar argument whose dtype is not INT64
 *  or FLOAT64, a negative length, a NULL array with a non-zero length; JG_EDTYPE for an array of
 *  another dtype or a float for an integer scalar; JG_EOVERFLOW for an integer out of the
 *  parameter type's range; JG_ESHAPE for an array shorter than its minimum length; each with
 *  the parameter's name and position (err->index). Scalars are converted to the parameter's
 *  type. Every array must be device memory of the module's device (JG_DEVICE_CUDA with its id)
 *  or managed memory: host or pinned memory is JG_EBACKEND ("arrays are never copied to the
 *  device here: use jg_array_to_device or jg_copy"), and so is another device's memory (only
 *  the arguments' device tags are read).
 *  Size (launch may be NULL: all defaults): block = launch->block, or 256 capped at the
 *  kernel's limit; grid = launch->grid when set, else ceil(threads / block) with threads =
 *  launch->threads when set, else the first array parameter's length. Zero threads (an empty
 *  first array) launches nothing and succeeds. Dynamic shared memory above the kernel's current
 *  allowance (48 KiB by default) is opted into once (cuFuncSetAttribute). Asynchronous on
 *  launch->stream (NULL: the legacy default stream).
 *  Other errors: JG_EINVAL for NULL k, a block < 0, > 1024 or above the kernel's limit
 *  (registers, __launch_bounds__), negative threads or grid, a grid above the device's limit,
 *  static plus dynamic shared memory above the device's opt-in limit, or no size at all (no
 *  threads, no grid and no array parameter); JG_ENOTSUP in a build without CUDA; JG_ECUDA /
 *  JG_EDEVMEM from the driver (the message names the kernel, grid and block). Thread-safe. */
JG_API jg_status jg_rtc_launch(const jg_rtc_kernel *k, const jg_kernel_arg *args, size_t n_args,
                               const jg_launch *launch, jg_error *err);

/** Compile statistics since start, process-wide (atomic counters). Lookups happen only when the
 *  cache is enabled. */
typedef struct jg_rtc_stats {
  uint64_t compiles;     /**< NVRTC compiles run (failed ones included) */
  uint64_t cache_hits;   /**< programs read from the cache */
  uint64_t cache_misses; /**< lookups that found nothing usable (corrupt entries included) */
  uint64_t cache_corrupt;/**< entries found but rejected by a check */
} jg_rtc_stats;

/** Fills `out` with the statistics; NULL allowed (no-op). */
JG_API void jg_rtc_stats_get(jg_rtc_stats *out);

/** Outcome of jg_catalog_compile_all. */
typedef struct jg_compile_report {
  size_t compiled;   /**< kernels compiled (or read from the cache) */
  size_t cached;     /**< of those, read from the cache */
  size_t failed;     /**< kernels whose compile failed */
  size_t skipped;    /**< kernels without CUDA source (not compiled) */
  char *log;         /**< malloc'd text: one block per failure, "kernel 'x': <NVRTC log>";
                          NULL when none failed; free with jg_compile_report_free */
} jg_compile_report;

/** Compiles the CUDA source of every kernel of the catalog with NVRTC, for `opt->arch` (0: the
 *  calling thread's current device), with opt's include directories, options and cache
 *  settings (`opt` may be NULL), using `jobs` threads (0: the number of CPUs; the calling thread
 *  is one of them). Built-in kernels: their embedded source, once per kernel, with the name
 *  expression of every variant and src/kernels/jgk_common.cuh given as the in-memory header
 *  "jgk_common.cuh"; registered kernels with CUDA source: the entry name (cuda_entry, else the
 *  kernel's name) with their cuda_options after opt->options. The binaries only fill the
 *  cache; nothing is loaded. Every kernel is compiled even when some fail. *report is zeroed,
 *  then filled (free report->log with jg_compile_report_free). Returns JG_OK when all compiled,
 *  else JG_ECUDA with the number of failures in err->index, the first in the message, and every
 *  failure with its log in report->log. Other errors: JG_EINVAL for jobs < 0, a NULL report, or
 *  bad options (as jg_rtc_compile); JG_ENOTSUP without NVRTC or CUDA; JG_ENODEV when arch is 0
 *  and no GPU is usable; JG_ENOMEM. Useful to warm the cache and to check that the CUDA sources
 *  compile for an architecture the library was not built for. Thread-safe. */
JG_API jg_status jg_catalog_compile_all(int jobs, const jg_rtc_options *opt,
                                        jg_compile_report *report, jg_error *err);

/** Frees report->log and zeroes it; NULL allowed. */
JG_API void jg_compile_report_free(jg_compile_report *report);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_RTC_H */
