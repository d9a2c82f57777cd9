/* kernel.h: the kernel catalog. Every operation of jagged is a kernel with host implementations
 * and a CUDA implementation kept side by side, and this catalog knows them all.
 *
 * A kernel declares its parameters (name, kind scalar/array, element type, direction in/out/
 * inout), its host implementations by name ("c", the portable reference, always present;
 * "openmp" where one exists), its CUDA implementation (or that it has none yet, and the file
 * where it is expected), and launch defaults (block size, the parameter whose value or length
 * gives the number of threads). Kernels may be type-generic: one kernel, several variants, one
 * per binding of its type variables (e.g. `T` in f32, f64, i32, i64); a call picks the variant
 * from the dtypes of its arguments.
 *
 * The built-in kernels live one per folder, src/kernels/<name>/: <name>.json (the spec),
 * <name>_cpu.c (host), <name>_cuda.cu (CUDA, absent while unported), <name>_parity.c (parity
 * cases). The catalog is generated from the folders at build time and the sources are embedded
 * in the library, so an installed library can never lose its kernels. Applications register
 * their own kernels with jg_catalog_register.
 *
 * Dispatch (jg_kernel_call): all array arguments on the host run the selected host
 * implementation; all on one CUDA device run the CUDA implementation on that device; anything
 * else fails naming the parameter. A kernel without CUDA code called with device arrays follows
 * its policy: JG_MISSING_CUDA_RAISE (default; the error names the kernel and the file where its
 * CUDA code is expected) or JG_MISSING_CUDA_FALLBACK (copies the arrays to the host, runs the host
 * implementation, copies out/inout arrays back, warns once per kernel through the log callback
 * (log.h), and counts a JG_TRANSFER_FALLBACK event (transfer.h)). Out arrays are copied to the
 * host too, so that the elements a kernel does not write keep their values on the device.
 *
 * Host implementation choice: JG_HOST_IMPL (read once, at the first catalog call), the process
 * setting jg_host_impl_set, and a per-thread stack jg_host_impl_push/pop (innermost wins). A
 * chosen implementation that a kernel lacks is an error: it never silently runs another.
 *
 * The model is the host/CUDA kernel pairing of cunumpy (github.com/max-models/cunumpy) and the
 * one-kernel-two-sides folders of Awkward Array's kernels, done in C: types checked by the
 * compilers through generated prototypes, names and order checked by jg_catalog_check. */
#ifndef JAGGED_KERNEL_H
#define JAGGED_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jagged/export.h"
#include "jagged/status.h"
#include "jagged/transfer.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A kernel of the catalog. Opaque; built-in kernels and registered ones live until the process
 *  ends, so pointers to them never dangle. */
typedef struct jg_kernel jg_kernel;

/** Kind of a parameter. Numbers pinned. */
typedef enum jg_param_kind {
  JG_PARAM_SCALAR = 1, /**< one value passed by value */
  JG_PARAM_ARRAY = 2   /**< a contiguous array: data pointer + length in elements + device */
} jg_param_kind;

/** Direction of a parameter. Scalars are always JG_PARAM_IN. Numbers pinned. */
typedef enum jg_param_dir {
  JG_PARAM_IN = 1,   /**< read only (const in both implementations) */
  JG_PARAM_OUT = 2,  /**< written only; its prior content is not read */
  JG_PARAM_INOUT = 3 /**< read and written */
} jg_param_dir;

/** One parameter of a kernel. For a type-generic parameter `dtype` is JG_DTYPE_INVALID and
 *  `type_var` names the type variable ("T"); jg_kernel_variant_dtype gives its dtype in each
 *  variant. `min_length` (arrays only): the array must have at least the value of the scalar
 *  parameter `min_length_param` plus `min_length_add` elements (-1 = no requirement). */
typedef struct jg_kernel_param {
  const char *name;
  jg_param_kind kind;
  jg_param_dir dir;
  jg_dtype dtype;
  const char *type_var;
  int min_length_param;
  int64_t min_length_add;
} jg_kernel_param;

/** An argument of a call: a scalar value or an array. Make them with jg_arg_array, jg_arg_i64,
 *  jg_arg_f64. For scalars `dtype` is JG_DTYPE_INT64 (value in v.i64) or JG_DTYPE_FLOAT64
 *  (v.f64): the call converts to the parameter's type, rejecting (JG_EDTYPE) a float for an
 *  integer parameter and (JG_EOVERFLOW) an integer outside the parameter type's range. */
typedef struct jg_kernel_arg {
  jg_param_kind kind;
  jg_dtype dtype; /**< arrays: the element type; scalars: INT64 or FLOAT64 */
  union {
    struct {
      void *data;        /**< first element; NULL allowed only when length is 0 */
      jg_len length;     /**< elements */
      jg_device device;  /**< where `data` lives (CPU, CUDA_HOST and CUDA_MANAGED count as
                              host for dispatch; CUDA as device id) */
    } array;
    int64_t i64;
    double f64;
  } v;
} jg_kernel_arg;

/** An array argument of `length` elements of `dtype` at `data` on `device`. */
static inline jg_kernel_arg jg_arg_array(void *data, jg_len length, jg_dtype dtype,
                                         jg_device device) {
  jg_kernel_arg a;
  a.kind = JG_PARAM_ARRAY;
  a.dtype = dtype;
  a.v.array.data = data;
  a.v.array.length = length;
  a.v.array.device = device;
  return a;
}

/** An integer scalar argument. */
static inline jg_kernel_arg jg_arg_i64(int64_t value) {
  jg_kernel_arg a;
  a.kind = JG_PARAM_SCALAR;
  a.dtype = JG_DTYPE_INT64;
  a.v.i64 = value;
  return a;
}

/** A floating-point scalar argument. */
static inline jg_kernel_arg jg_arg_f64(double value) {
  jg_kernel_arg a;
  a.kind = JG_PARAM_SCALAR;
  a.dtype = JG_DTYPE_FLOAT64;
  a.v.f64 = value;
  return a;
}

/** Launch settings of one call; NULL or all-zero fields take the kernel's defaults. Host
 *  implementations ignore everything but `stream` (they wait for it before running, so that
 *  earlier device work on managed or pinned memory is complete). */
typedef struct jg_launch {
  int64_t threads; /**< threads in total, 1-D; 0: from the kernel's threads-from parameter */
  int64_t grid;    /**< blocks; 0: ceil(threads / block). Kernels loop grid-stride, so any grid
                        >= 1 is correct. Wins over `threads` when both are set. */
  int block;       /**< threads per block; 0: the kernel's default. At most 1024. */
  size_t shared_bytes; /**< dynamic shared memory per block */
  jg_stream stream;    /**< CUDA stream; NULL: the legacy default stream */
} jg_launch;

/** What a kernel without CUDA code does when called with device arrays. Numbers pinned. */
typedef enum jg_missing_cuda {
  JG_MISSING_CUDA_DEFAULT = 0,  /**< per kernel: follow the process default */
  JG_MISSING_CUDA_RAISE = 1,    /**< fail with JG_ENOTSUP naming the kernel and expected file */
  JG_MISSING_CUDA_FALLBACK = 2  /**< copy to the host, run there, copy back, warn once */
} jg_missing_cuda;

/* ---------------------------------------------------------------- catalog */

/** Number of kernels in the catalog (built-in plus registered). */
JG_API size_t jg_catalog_size(void);

/** The i-th kernel, in name order for built-ins followed by registered kernels in registration
 *  order; NULL when i >= jg_catalog_size(). */
JG_API const jg_kernel *jg_catalog_at(size_t i);

/** Finds a kernel by name. Errors: JG_EINVAL for NULL `name` or `out`; JG_ENOTFOUND ("no kernel
 *  named 'x' (the catalog has N kernels; `jagged kernels` lists them)"). */
JG_API jg_status jg_catalog_find(const char *name, const jg_kernel **out, jg_error *err);

/** Writes "CUDA kernels: N of M" followed by " (missing: a, b, ...)" when some kernels have no
 *  CUDA implementation, naming at most `max_missing` of them then "..." (0 = name them all), into
 *  `buf` (`size` bytes, NUL-terminated when size > 0). Returns the length the whole line needs,
 *  excluding the NUL. */
JG_API size_t jg_catalog_summary(char *buf, size_t size, size_t max_missing);

/** Checks, for every kernel, that its host and CUDA sources declare the parameters of its spec:
 *  the same names in the same order, the same types (type variables as such) and directions
 *  (a `const` pointer is IN, a non-const one OUT or INOUT). It parses the embedded sources: the
 *  host function jgk_<name>_<impl>[_<variant>] of each host implementation and the __global__
 *  function jgk_<name> of the CUDA source (for registered kernels, the CUDA source's entry; their
 *  host side is a function of the argument array, checked at each call instead). Writes one line per mismatch into `report` (`size`
 *  bytes, NUL-terminated; may be NULL with size 0), e.g. "kernel 'push': the spec takes (x, v,
 *  dt, n), the CUDA kernel (x, v, n, dt)". Returns JG_OK when all agree, else JG_EVALUE with the
 *  number of mismatches in err->index and the first one in its message. */
JG_API jg_status jg_catalog_check(char *report, size_t size, jg_error *err);

/* ------------------------------------------------------------ one kernel */

/** The kernel's name, e.g. "fill". Never NULL. */
JG_API const char *jg_kernel_name(const jg_kernel *k);

/** One-line description from the spec. Never NULL. */
JG_API const char *jg_kernel_doc(const jg_kernel *k);

/** Number of parameters. */
JG_API size_t jg_kernel_param_count(const jg_kernel *k);

/** Parameter `i` (0-based); NULL when out of range. */
JG_API const jg_kernel_param *jg_kernel_param_at(const jg_kernel *k, size_t i);

/** Number of variants (1 for a kernel without type variables). */
JG_API size_t jg_kernel_variant_count(const jg_kernel *k);

/** Name of variant `v`, the dtypes of its type variables joined by commas, e.g. "float64" or
 *  "int64,float32"; "" for the single variant of a non-generic kernel; NULL when out of range. */
JG_API const char *jg_kernel_variant_name(const jg_kernel *k, size_t v);

/** dtype of parameter `i` in variant `v`; JG_DTYPE_INVALID when either is out of range. */
JG_API jg_dtype jg_kernel_variant_dtype(const jg_kernel *k, size_t v, size_t i);

/** Number of host implementations (at least 1: "c"). */
JG_API size_t jg_kernel_host_impl_count(const jg_kernel *k);

/** Name of host implementation `i` ("c", "openmp", or a registered name); NULL when out of
 *  range. */
JG_API const char *jg_kernel_host_impl_name(const jg_kernel *k, size_t i);

/** true when the kernel has a CUDA implementation (built in with nvcc in a CUDA build, or
 *  registered CUDA source compiled with NVRTC at first use). A build without CUDA reports
 *  false for every kernel. */
JG_API bool jg_kernel_has_cuda(const jg_kernel *k);

/** Path, relative to the source tree, where the kernel's CUDA code is (or is expected), e.g.
 *  "src/kernels/fill/fill_cuda.cu"; for registered kernels what the registration gave. */
JG_API const char *jg_kernel_cuda_path(const jg_kernel *k);

/** Which implementation a call would run now on the calling thread: for `backend` CPU the host
 *  implementation name the selection rules pick ("c", "openmp"); for CUDA "cuda", or
 *  "fallback:<host impl>" under the fallback policy, or NULL under the raise policy with no CUDA
 *  code. Errors (`*name` set to NULL): JG_ENOTFOUND when the chosen host implementation is one
 *  this kernel lacks; JG_EINVAL for NULL arguments, an unknown backend, or an invalid
 *  JG_HOST_IMPL; JG_ENOTSUP for CUDA without CUDA code under the raise policy. */
JG_API jg_status jg_kernel_selected(const jg_kernel *k, jg_backend backend, const char **name,
                                    jg_error *err);

/** Runs kernel `k` on `args` (`n_args` of them, one per parameter, in order).
 *
 *  Checks, each failing with the parameter's name and position (err->index) in the message:
 *  JG_EINVAL for NULL `k`/`args` with n_args > 0, a wrong argument count, a scalar where an array
 *  is expected or the reverse, a NULL array with a non-zero length, a negative length, an unknown
 *  device type, an out or inout array that overlaps another array of the call (the backends
 *  read and write in different orders: write to a separate array);
 *  JG_EDTYPE when the array dtypes match no variant (the message lists the variants) or a float
 *  goes to an integer scalar; JG_EOVERFLOW for an integer scalar out of its type's range;
 *  JG_ESHAPE for an array shorter than its spec's minimum length; JG_EBACKEND when array
 *  arguments are on different backends or devices (names both parameters and the fixing call:
 *  jg_array_to_device / jg_array_to_host / jg_copy).
 *
 *  Host arguments: runs the selected host implementation synchronously (after waiting for
 *  launch->stream). Device arguments (all on CUDA device d): launches the CUDA implementation on
 *  device d and stream launch->stream; asynchronous, except for kernels that can report data
 *  errors, whose call waits for the stream to read the error word. Without CUDA code the missing-
 *  CUDA policy applies (JG_ENOTSUP under raise: "kernel 'x' has no CUDA implementation (expected
 *  src/kernels/x/x_cuda.cu); copy the arrays with jg_array_to_host, or set the fallback policy
 *  with jg_kernel_set_missing_cuda"); the fallback synchronizes.
 *
 *  Other errors: the host implementation's own (data errors carry the element index in
 *  err->index, with the same status, index and message on both backends); JG_ENOTFOUND when the
 *  selected host implementation is missing for this kernel; JG_ENODEV without a usable GPU for
 *  device arrays; JG_ECUDA / JG_EDEVMEM from the launch; JG_EINVAL for a block > 1024 or < 0
 *  or a negative grid or thread count (device calls; host calls ignore `launch` but its
 *  stream); JG_EINVAL when JG_HOST_IMPL or JG_MISSING_CUDA held an invalid value at start (every
 *  call, until jg_host_impl_set / jg_kernel_set_missing_cuda(NULL, ...) sets a valid one).
 *  Thread-safe. A call with zero threads launches nothing and succeeds; the built-in kernels
 *  treat a negative count (n) as zero. */
JG_API jg_status jg_kernel_call(const jg_kernel *k, const jg_kernel_arg *args, size_t n_args,
                                const jg_launch *launch, jg_error *err);

/** Sets the missing-CUDA policy of kernel `k`, or the process default when `k` is NULL (the
 *  default starts as JG_MISSING_CUDA_RAISE, or what JG_MISSING_CUDA=raise|fallback says, read
 *  once). JG_MISSING_CUDA_DEFAULT for a kernel means "follow the process default". Errors:
 *  JG_EINVAL for an unknown policy, or DEFAULT as the process default. Thread-safe (atomic). */
JG_API jg_status jg_kernel_set_missing_cuda(const jg_kernel *k, jg_missing_cuda policy,
                                            jg_error *err);

/** The policy in effect for `k` (never DEFAULT), or the process default for NULL. */
JG_API jg_missing_cuda jg_kernel_get_missing_cuda(const jg_kernel *k);

/** Per-kernel call counters since start (all threads). */
typedef struct jg_kernel_stats {
  uint64_t host_calls;     /**< calls that ran a host implementation on host arguments */
  uint64_t cuda_calls;     /**< calls that ran the CUDA implementation */
  uint64_t fallback_calls; /**< device calls that ran on the host under the fallback policy */
} jg_kernel_stats;

/** Fills `out` with the counters of `k`; zeroes it for a NULL `k`. */
JG_API void jg_kernel_stats_get(const jg_kernel *k, jg_kernel_stats *out);

/* ------------------------------------------------ host implementation choice */

/** Names of every host implementation the library knows ({"c", "openmp"}), in order of
 *  preference for the automatic choice; returns their number and sets *names (static). */
JG_API size_t jg_host_impl_known(const char *const **names);

/** Sets the process-wide host implementation choice: a known name, or NULL for automatic (each
 *  kernel's first implementation, "c"). Overrides JG_HOST_IMPL. Errors: JG_EINVAL for a name
 *  that is not known (the message lists the known ones). Thread-safe. */
JG_API jg_status jg_host_impl_set(const char *name, jg_error *err);

/** The choice in effect on the calling thread: the innermost pushed one, else the process-wide
 *  one (jg_host_impl_set or JG_HOST_IMPL); NULL for automatic. Static storage. */
JG_API const char *jg_host_impl_get(void);

/** Pushes a choice for the calling thread (NULL: automatic, overriding the process choice) until
 *  the matching jg_host_impl_pop. Errors: JG_EINVAL for an unknown name; JG_ESTATE when 16
 *  choices are already pushed. */
JG_API jg_status jg_host_impl_push(const char *name, jg_error *err);

/** Pops the calling thread's innermost choice. Errors: JG_ESTATE when none is pushed. */
JG_API jg_status jg_host_impl_pop(jg_error *err);

/* ------------------------------------------------------ registered kernels */

/** A host implementation of a registered kernel: receives the host arguments in parameter order
 *  (arrays on the host; under the fallback policy, host copies of device arrays) and reports
 *  data errors through `err` like the library does. */
typedef jg_status (*jg_host_kernel_fn)(const jg_kernel_arg *args, size_t n_args, void *user,
                                       jg_error *err);

/** Current version of jg_kernel_desc; set desc.version to it. */
#define JG_KERNEL_DESC_VERSION 1

/** Description of a kernel an application registers. Strings and the params array are copied;
 *  the caller may free them after the call. Generic parameters are not supported here (register
 *  one kernel per type). */
typedef struct jg_kernel_desc {
  uint32_t version;                /**< JG_KERNEL_DESC_VERSION */
  const char *name;                /**< [A-Za-z_][A-Za-z0-9_]*, unique in the catalog */
  const char *doc;                 /**< one line, may be NULL */
  const jg_kernel_param *params;   /**< n_params entries (type_var must be NULL) */
  size_t n_params;
  const char *host_impl_name;      /**< name of `host` (NULL: "c") */
  jg_host_kernel_fn host;          /**< required */
  void *host_user;                 /**< passed to `host` */
  const char *cuda_source;         /**< CUDA C source with `extern "C" __global__ void <cuda
                                        entry>(...)` (optional: NULL = no CUDA implementation);
                                        compiled with NVRTC on first device use on each device
                                        (rtc.h), and checked by jg_catalog_check */
  const char *cuda_entry;          /**< the __global__ function's name (NULL: the kernel name) */
  const char *cuda_path;           /**< where CUDA code is expected (for messages; may be NULL) */
  int block;                       /**< default threads per block (0: 256) */
  int threads_from;                /**< parameter index giving the thread count: a scalar's
                                        value or an array's length; -1: first array */
  jg_missing_cuda missing_cuda;    /**< policy for this kernel (DEFAULT: process default) */
  const char *const *cuda_options; /**< extra NVRTC options, n_cuda_options of them */
  size_t n_cuda_options;
  uint64_t reserved[4];            /**< zero */
} jg_kernel_desc;

/** Adds a kernel to the catalog; *out (may be NULL) receives it. Errors: JG_EINVAL for a NULL or
 *  wrong-version desc, a missing name or host function, a bad name, a duplicate name ("a kernel
 *  named 'x' is already registered"), a host implementation name that is not known
 *  (jg_host_impl_known), parameter problems (empty or duplicate names, bad kind, direction or
 *  dtype, a scalar that is not IN, type_var set, more than 32 parameters, threads_from out of
 *  range), a block outside [0, 1024]; JG_ENOMEM; JG_ENOTSUP when 4096 kernels are already
 *  registered. Thread-safe. Registered kernels cannot be removed. */
JG_API jg_status jg_catalog_register(const jg_kernel_desc *desc, const jg_kernel **out,
                                     jg_error *err);

/* ----------------------------------------------------------------- parity */

/** State of one parity run, handed to the argument maker. Opaque. */
typedef struct jg_parity_ctx jg_parity_ctx;

/** Builds the host arguments of parity case `case_index` (0-based) into `args` (one per
 *  parameter), allocating arrays with jg_parity_alloc; scalars with jg_arg_i64/jg_arg_f64.
 *  Returns JG_OK, or an error that stops the run. jg_parity_case_name may name the case. */
typedef jg_status (*jg_parity_make_args_fn)(jg_parity_ctx *ctx, int case_index,
                                            jg_kernel_arg *args, void *user, jg_error *err);

/** A zeroed host array of `count` elements of `dtype`, freed by the parity helper after the case;
 *  NULL when out of memory or for a bad dtype/count (the case then fails with JG_ENOMEM). A
 *  count of 0 gives a valid non-NULL pointer. */
JG_API void *jg_parity_alloc(jg_parity_ctx *ctx, jg_len count, jg_dtype dtype);

/** The next value of the case's deterministic random stream (SplitMix64 seeded from the run's
 *  seed and the case index). */
JG_API uint64_t jg_parity_random(jg_parity_ctx *ctx);

/** A uniform double in [0, 1) from the case's stream. */
JG_API double jg_parity_uniform(jg_parity_ctx *ctx);

/** Names the current case in reports ("empty", "offsets not at 0", ...); `name` is copied. */
JG_API void jg_parity_case_name(jg_parity_ctx *ctx, const char *name);

/** Options of a parity run; zero-initialise, then set what differs. */
typedef struct jg_parity_options {
  jg_parity_make_args_fn make_args; /**< NULL: the kernel's own parity cases */
  void *user;                       /**< passed to make_args */
  int n_cases;                      /**< cases 0..n_cases-1; 0 with own cases: all of them */
  uint64_t seed;                    /**< random seed (0 is a valid seed) */
  double rtol;                      /**< relative tolerance for floats (0: the kernel's own,
                                         "parity_rtol" in its spec, else 1e-12) */
  double atol;                      /**< absolute tolerance for floats (0: 0) */
  const char *reference;            /**< host implementation used as the reference (NULL: "c") */
  const char *other;                /**< implementation compared with it: "cuda" (NULL) or
                                         another host implementation's name */
  const jg_launch *launch;          /**< launch settings of the CUDA side (NULL: defaults) */
} jg_parity_options;

/** Outcome of a parity run (on JG_EVALUE, err->index is the number of failing cases too). */
typedef struct jg_parity_result {
  int cases_run;
  int cases_failed;
  char first_failure[JG_ERROR_MESSAGE_SIZE]; /**< "" when none failed */
} jg_parity_result;

/** Runs `k` with the reference host implementation and with `other` on the same generated inputs
 *  (device copies of every array for "cuda") and compares every out and inout array afterwards:
 *  exactly for integers and bools, within rtol/atol for floats (NaN equals NaN), and the
 *  statuses (a case where the reference fails must fail the same way, same status and index).
 *  A mismatch is reported as "kernel 'x' variant float64 case 3 (offsets not at 0): parameter
 *  'out' differs at index 17: reference 1.5, cuda 1.25".
 *  Returns JG_OK when all cases agree; JG_EVALUE when some differ (the first in err and in
 *  res->first_failure); JG_ENODEV when `other` is "cuda" and no GPU is usable (nothing run);
 *  JG_ENOTSUP when the kernel has no CUDA code, or no parity cases and no make_args; JG_ENOTFOUND
 *  for an implementation the kernel lacks; JG_ENOMEM; errors of make_args. Every variant of a
 *  generic kernel is run (make_args sees the variant through the dtypes it must produce:
 *  jg_parity_variant). `res` may be NULL. */
JG_API jg_status jg_kernel_parity(const jg_kernel *k, const jg_parity_options *opt,
                                  jg_parity_result *res, jg_error *err);

/** The variant being run (index for jg_kernel_variant_dtype). */
JG_API size_t jg_parity_variant(const jg_parity_ctx *ctx);

/** dtype of parameter `i` in the variant being run (jg_kernel_variant_dtype of the run's kernel
 *  and variant); JG_DTYPE_INVALID when i is out of range. */
JG_API jg_dtype jg_parity_dtype(const jg_parity_ctx *ctx, size_t i);

/** Number of built-in parity cases of `k` (0 when it has none). */
JG_API int jg_kernel_parity_case_count(const jg_kernel *k);

/* -------------------------------------------------------- call-site macro */

#if !defined(JG_BUILDING_LIBRARY) && !defined(JG_NO_CALLSITE_MACROS)
/* Makes the caller's file and line the call site of the transfer events (transfer.h) made by this
 * call, and restores the previous site when it returns. */
#define jg_kernel_call(...) \
  (jg_callsite_push(__FILE__, __LINE__), jg_callsite_pop(jg_kernel_call(__VA_ARGS__)))
#endif

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_KERNEL_H */
