/* jgi_kernel.h: the internal form of a catalog kernel (include/jagged/kernel.h).
 *
 * Built-in kernels are described by tables that cmake/gen_catalog.py generates at build time from
 * src/kernels/<name>/<name>.json; registered kernels are filled in by jg_catalog_register. The
 * dispatch code (src/core/catalog.c) reads only this struct. */
#ifndef JAGGED_JGI_KERNEL_H
#define JAGGED_JGI_KERNEL_H

#include "internal/jgi_check.h"
#include "jagged/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Resolved launch of one CUDA call (block > 0, grid > 0; the device is current). */
typedef struct jgi_launch_cfg {
  int64_t grid;
  int block;
  size_t shared_bytes;
  jg_stream stream;
  int device;
} jgi_launch_cfg;

/** A host implementation of one variant: unpacks `args` (already checked, on the host) and calls
 *  the typed function jgk_<name>_<impl>[_<variant>]. */
typedef jg_status (*jgi_host_thunk)(const jg_kernel_arg *args, jg_error *err);

/** The CUDA implementation of one variant: unpacks `args` (checked, on cfg->device) and launches
 *  the __global__ function with cfg; `error_word` is the device word of kernels with data errors
 *  (NULL otherwise). Asynchronous. */
typedef jg_status (*jgi_cuda_thunk)(const jg_kernel_arg *args, const jgi_launch_cfg *cfg,
                                    unsigned long long *error_word, jg_error *err);

/** One variant: a binding of the kernel's type variables. */
typedef struct jgi_kernel_variant {
  const char *name;          /**< "float64", "int64,float32"; "" when not generic */
  const jg_dtype *dtypes;    /**< n_params entries: the dtype of every parameter */
  const jgi_host_thunk *host;/**< n_host_impls entries, parallel to jg_kernel.host_impls */
  jgi_cuda_thunk cuda;       /**< NULL without CUDA code (or in a build without CUDA) */
  const char *cuda_name;     /**< NVRTC name expression, e.g. "jgk_fill<double>"; NULL if none */
} jgi_kernel_variant;

/** A data error a kernel can report: code = position in jg_kernel.errors. The message is a
 *  printf format taking the element index as long long, e.g. "index %lld is out of range". */
typedef struct jgi_kernel_error {
  jg_status status;
  const char *message;
} jgi_kernel_error;

#ifndef __cplusplus
#include <stdatomic.h>

/** Mutable per-kernel state (zero-initialised statics for built-ins). */
typedef struct jgi_kernel_state {
  atomic_int missing_cuda;      /**< jg_missing_cuda set for this kernel (0 = DEFAULT) */
  atomic_int warned;            /**< fallback warning given */
  atomic_ullong host_calls, cuda_calls, fallback_calls;
  atomic_uint last_variant;     /**< the variant the last call matched: tried first */
  void *rtc;                    /**< registered kernels: per-device compiled modules */
} jgi_kernel_state;

struct jg_kernel {
  const char *name;
  const char *doc;
  const jg_kernel_param *params;
  size_t n_params;
  const char *const *host_impls;     /**< names, "c" first */
  size_t n_host_impls;
  const jgi_kernel_variant *variants;
  size_t n_variants;
  const char *cuda_path;             /**< "src/kernels/<name>/<name>_cuda.cu" */
  const char *fallback_what;         /**< "fallback of kernel '<name>'": transfer events */
  const char *cuda_source;           /**< embedded CUDA source, NUL-terminated; NULL if none */
  const char *host_source;           /**< embedded host sources, NUL-terminated; NULL if none */
  int block;                         /**< default threads per block */
  int threads_from;                  /**< parameter index, or -1: the first array */
  uint32_t threads_from_more;        /**< more such parameters, bit i = parameter i: the launch
                                          takes the largest count among them (0: none) */
  const jgi_kernel_error *errors;    /**< data errors; non-empty => CUDA entry takes a word */
  size_t n_errors;
  jg_parity_make_args_fn parity;     /**< built-in parity cases (NULL if none) */
  int n_parity_cases;
  double parity_rtol32;              /**< parity tolerance for float32 outputs (0: 1e-12) */
  double parity_rtol64;              /**< parity tolerance for float64 outputs (0: 1e-12) */
  /* Registered kernels only (NULL/0 for built-ins). */
  jg_host_kernel_fn user_host;
  void *user_host_user;
  const char *cuda_entry;
  const char *cuda_source_name;      /**< NVRTC's name of the source ("<name>.cu") */
  const char *const *cuda_options;
  size_t n_cuda_options;
  jgi_kernel_state *state;
};

/** The built-in kernels, sorted by name (generated: catalog_gen.c). */
extern JGI_HIDDEN const jg_kernel *const jgi_builtin_kernels[];
extern JGI_HIDDEN const size_t jgi_builtin_kernel_count;
/** Embedded text of src/kernels/jgk_common.cuh, for NVRTC compiles of built-in kernels. */
extern JGI_HIDDEN const char jgi_kernel_common_cuh[];

/** Formats data error `code` of `k` at element `index` into `err` ("<kernel>: <message>", index
 *  set); returns its status (JG_EINTERNAL for an unknown code). */
JGI_HIDDEN jg_status jgi_kernel_error_set(const jg_kernel *k, int code, int64_t index,
                                          jg_error *err);
#endif /* !__cplusplus */

/** Launches `fn` (a __global__ function's host stub) with cfg and the kernel parameter pointers
 *  `params` (cudaLaunchKernel); maps a launch error to a status naming `kernel`. */
JGI_HIDDEN jg_status jgi_cuda_launch(const void *fn, void **params, const jgi_launch_cfg *cfg,
                                     const char *kernel, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_JGI_KERNEL_H */
