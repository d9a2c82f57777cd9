/* elementwise.h: user-defined elementwise functions applied straight to jagged arrays, on the
 * host or on the GPU, without flattening and unflattening: the function sees the numeric leaves
 * (as float64), the result keeps the (broadcast) jagged structure.
 *
 * Two forms:
 *
 * 1. One C source for host and device, through a macro, in the user's own file:
 *
 *      #include "jagged/elementwise.h"
 *      JG_ELEMENTWISE2(pt_of, px, py, sqrt(px * px + py * py));
 *
 *    defines `double pt_of_fn(double px, double py)` (usable on the host, and under nvcc on the
 *    device too: __host__ __device__), a host loop over dense float64 arrays, and, when the file
 *    is compiled by nvcc (a .cu file), a __global__ kernel and its launcher; and the descriptor
 *    `const jg_elementwise pt_of` to hand to jg_array_elementwise. Compiled by a C compiler the
 *    descriptor has no launcher (cuda NULL): it runs on host arrays only. Other files reach the
 *    descriptor through JG_ELEMENTWISE_DECLARE(pt_of).
 *
 * 2. A run-time expression: jg_array_eval("sqrt(px*px + py*py)", 2, names, args, ...) parses
 *    the text, evaluates it on the host with a vectorised interpreter, and on the GPU generates
 *    CUDA C from it, compiles it with NVRTC (rtc.h, with its on-disk cache) and launches it.
 *
 * The contract of both: every argument is converted to float64 (bool and integers exactly where
 * they fit in 53 bits, float32 exactly), the function computes in float64, the result is a
 * float64 array with the broadcast structure of the arguments (Awkward's broadcasting rules:
 * scalars, one value per list repeated across the list, equal counts, a shallower array repeated
 * inside the deeper one's lists; None propagates). The expression of a macro may use any
 * function of math.h that CUDA also provides on the device (sqrt, exp, log, sin, atan2, hypot,
 * fabs, floor, pow, ...), and any pure C expression of its arguments.
 *
 * Host and GPU results: + - * / sqrt fmod floor ceil fabs and comparisons are correctly rounded
 * (or exact) on both sides, so they agree bit for bit as long as no fused multiply-add is formed:
 * the expression form compiles with --fmad=false; a macro compiled by nvcc should be compiled
 * with -fmad=false too for bit-for-bit equality (nvcc contracts a * b + c into an FMA by
 * default). Transcendental functions (exp, log, sin, pow, atan2, hypot, ...) come from the host's
 * libm and from CUDA's math library, which may differ by a few ulp (CUDA documents at most 1 or
 * 2 ulp for the double-precision functions). */
#ifndef JAGGED_ELEMENTWISE_H
#define JAGGED_ELEMENTWISE_H

#include <stddef.h>
#include <stdint.h>

#include "jagged/array.h"
#include "jagged/export.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Current version of jg_elementwise (the macros fill it in). */
#define JG_ELEMENTWISE_VERSION 1

/** Most arguments of an elementwise function (the broadcast limit). */
#define JG_ELEMENTWISE_MAX_ARGS 8

/** A host loop: out[i] = f(in[0][i * step[0]], ..., in[nargs-1][i * step[nargs-1]]) for
 *  0 <= i < n. step[k] is 1 (in[k] holds n values) or 0 (in[k] holds one value for all). All
 *  pointers are host memory; `out` does not overlap the inputs. */
typedef void (*jg_elementwise_host_fn)(int64_t n, const double *const *in, const int64_t *step,
                                       double *out);

/** A CUDA launcher: enqueues the same computation as the host loop on `stream` (a cudaStream_t;
 *  NULL: the legacy default stream) of the current device, where in[k] and out are device
 *  pointers (the array `in` and `step` themselves are host memory, read during the call).
 *  Returns the cudaError_t of the launch as an int (0: success). */
typedef int (*jg_elementwise_cuda_fn)(int64_t n, const double *const *in, const int64_t *step,
                                      double *out, jg_stream stream);

/** Descriptor of a user-defined elementwise function (an ABI struct: filled by the
 *  JG_ELEMENTWISE macros, or by hand). */
typedef struct jg_elementwise {
  uint32_t version;            /**< JG_ELEMENTWISE_VERSION */
  const char *name;            /**< the function's name, for messages */
  int nargs;                   /**< 1 .. JG_ELEMENTWISE_MAX_ARGS */
  jg_elementwise_host_fn host; /**< required */
  jg_elementwise_cuda_fn cuda; /**< NULL when the defining file was not compiled by nvcc */
  uint64_t reserved[4];        /**< zero */
} jg_elementwise;

/** Applies `f` to `nargs` arrays (nargs == f->nargs), broadcast against each other through their
 *  jagged structure: args[k] is a numeric array (bool, integer or float leaves) made of
 *  list-offset, list, regular and option nodes, or a length-1 flat array that acts as a scalar;
 *  all on one backend. The leaves are aligned (jgi_broadcast), converted to float64, and f's host
 *  loop (host arrays) or CUDA launcher (cuda:N arrays, run on device N) computes one float64
 *  per aligned element. `*out` is a new reference: a float64 array with the broadcast structure
 *  (the deepest argument's lists, None where any argument is None), on the arguments' backend;
 *  NULL on error. The inputs are never written. `stream` orders the device work (NULL: the
 *  legacy default stream); the call synchronises it, so the result is ready on return.
 *  Follows Awkward's ak.transform / numba-vectorised ufuncs applied to arrays.
 *  Errors: JG_EINVAL for NULL f/args/out or a NULL argument (index = it), f->version not
 *  JG_ELEMENTWISE_VERSION, f->host NULL, nargs outside 1..JG_ELEMENTWISE_MAX_ARGS or not
 *  f->nargs; JG_EBACKEND when the arguments are on different backends (names the fixing call);
 *  JG_ENOTSUP for device arrays when f has no launcher ("compile the file that defines 'f' with
 *  nvcc, or move the arrays to the host with jg_array_to_host"), and for records or numeric
 *  leaves of ndim > 1 (apply it field by field); JG_ESHAPE when the structures do not broadcast
 *  (unequal counts: the list index and both lengths; outer lengths that differ); JG_EDTYPE for
 *  float16 leaves; JG_ECUDA when the launch fails (the message names f and the CUDA error);
 *  JG_ENODEV / JG_EDEVMEM / JG_ENOMEM. Thread-safe as far as f is. */
JG_API jg_status jg_array_elementwise(const jg_elementwise *f, int nargs,
                                      const jg_array *const *args, jg_stream stream, jg_array **out,
                                      jg_error *err);

/** Evaluates the expression `expr` over `nargs` (1..JG_ELEMENTWISE_MAX_ARGS) arrays named
 *  `names[k]` (identifiers [A-Za-z_][A-Za-z0-9_]*, distinct), broadcast and converted to
 *  float64 as jg_array_elementwise does; `*out` is a new float64 array with the broadcast
 *  structure (NULL on error).
 *
 *  The language (all values float64; true is 1.0, false 0.0, any non-zero value is true):
 *    numbers       1, 2.5, .5, 1e-3, 6.02E23 (decimal, correctly rounded)
 *    names         the arguments; `pi`, `e`, `inf` and `nan` when no argument has that name
 *    operators     by increasing precedence: `||`; `&&`; `==` `!=`; `<` `<=` `>` `>=`; binary
 *                  `+` `-`; `*` `/` `%` (C's fmod: the sign of the dividend); unary `-` `+` `!`;
 *                  `**` (power, right-associative, binding tighter than a unary minus on its
 *                  left: -x**2 is -(x**2)); parentheses
 *    functions     abs sqrt exp log log10 sin cos tan asin acos atan sinh cosh tanh floor ceil
 *                  isnan isfinite (one argument); atan2(y, x) pow(x, y) min max hypot (two);
 *                  where(cond, a, b) (three: a where cond is true, else b)
 *  `&&` and `||` evaluate both sides (elementwise, as NumPy's logical_and); min and max give NaN
 *  when either argument is NaN (NumPy's minimum and maximum); x ** 2 and pow(x, 2) are x * x.
 *
 *  Host arrays: the expression is parsed into a tree and evaluated node by node over blocks of
 *  1024 elements (the interpreter's overhead is paid once per block), in float64 with the C
 *  library's math functions. cuda:N arrays: CUDA C is generated from the tree (one kernel over
 *  dense double arrays; jg_expr_cuda_source shows it), compiled with NVRTC for device N with
 *  --fmad=false (no fused multiply-add: + - * / and sqrt give the host's bits exactly;
 *  transcendental functions may differ by a few ulp, see the top of this header), cached on
 *  disk by rtc.h and in the process by source and device (jg_expr_cache_clear frees the loaded
 *  modules), and launched on `stream`. The call synchronises `stream` before returning.
 *
 *  Errors: JG_EINVAL for NULL expr/names/args/out or a NULL argument or name (index = it), nargs
 *  out of range, a bad or repeated name (index = it), and every problem of the expression, with
 *  the column (1-based; err->index = column - 1): a syntax error ("expected ')' at column 11 of
 *  \"x * (y + 1\""), an unknown name ("unknown name 'z' at column 5 ...; the arguments are x,
 *  y"), an unknown function, a wrong number of arguments ("atan2 takes 2 arguments, not 1 at
 *  column 1 ..."), an expression nested deeper than 200 levels or longer than 65536 bytes;
 *  JG_ENOTSUP for device arrays when NVRTC cannot be loaded (the message names the library
 *  tried and JG_NVRTC_LIBRARY, or says the build has no CUDA); JG_ECUDA when NVRTC fails to
 *  compile the generated code or the launch fails; otherwise as jg_array_elementwise.
 *  Thread-safe. */
JG_API jg_status jg_array_eval(const char *expr, int nargs, const char *const *names,
                               const jg_array *const *args, jg_stream stream, jg_array **out,
                               jg_error *err);

/** Writes the CUDA C source that jg_array_eval compiles for `expr` over the arguments `names`
 *  into `buf` (capacity `size`, NUL-terminated, truncated when short; buf may be NULL when size
 *  is 0); `*needed` (may be NULL) gets the full length without the NUL. The kernel is
 *  `extern "C" __global__ void jg_expr(long long n, const double *a0, long long s0, ...,
 *  double *out)`: out[i] = expr((double)a0[i * s0], ...) for i < n, grid-stride, where s_k is
 *  1, or 0 for an argument of one value. (jg_array_eval generates the same kernel with each a_k
 *  of its argument's own dtype, converted to double as it is loaded.) Needs neither a GPU nor
 *  NVRTC. Errors: as jg_array_eval's for the expression and names. */
JG_API jg_status jg_expr_cuda_source(const char *expr, int nargs, const char *const *names,
                                     char *buf, size_t size, size_t *needed, jg_error *err);

/** Frees the compiled expressions jg_array_eval keeps loaded (per source and device); the next
 *  use of an expression loads it again (from the disk cache when it is there). No expression may
 *  be running in another thread during the call. */
JG_API void jg_expr_cache_clear(void);

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* The macros                                                                                  */
/* ------------------------------------------------------------------------------------------ */

#ifdef __CUDACC__
#define JG_ELEMENTWISE_HD_ __host__ __device__
#else
#define JG_ELEMENTWISE_HD_
#endif

#ifdef __cplusplus
#define JG_ELEMENTWISE_LINKAGE_ extern "C"
#else
#define JG_ELEMENTWISE_LINKAGE_
#endif

/** Declares the descriptor `name` defined by a JG_ELEMENTWISE macro in another file. */
#define JG_ELEMENTWISE_DECLARE(name) JG_ELEMENTWISE_LINKAGE_ extern const jg_elementwise name

/* The descriptor (the macros' last line; the user's semicolon ends it). */
#define JG_ELEMENTWISE_DESC_(name, nargs)                                    \
  JG_ELEMENTWISE_LINKAGE_ const jg_elementwise name = {                      \
      JG_ELEMENTWISE_VERSION,         #name,       nargs, name##_host_loop_, \
      JG_ELEMENTWISE_LAUNCHER_(name), {0, 0, 0, 0}}

#ifdef __CUDACC__
/* Blocks of a launch of n (> 0) threads of 256 (grid-stride kernels: any grid is correct). */
static inline unsigned int jg_elementwise_grid_(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (unsigned int)(b > 1048576 ? 1048576 : b);
}
#define JG_ELEMENTWISE_FOR_(i, n)                                           \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += (int64_t)blockDim.x * gridDim.x)
#define JG_ELEMENTWISE_LAUNCHER_(name) name##_launch_
#define JG_ELEMENTWISE_CUDA1_(name)                                                               \
  static __global__ void name##_kernel_(int64_t n, const double *__restrict__ a, int64_t sa,      \
                                        double *__restrict__ out) {                               \
    JG_ELEMENTWISE_FOR_(i, n) out[i] = name##_fn(a[i * sa]);                                      \
  }                                                                                               \
  static int name##_launch_(int64_t n, const double *const *in, const int64_t *step, double *out, \
                            jg_stream stream) {                                                   \
    if (n <= 0) return 0;                                                                         \
    name##_kernel_<<<jg_elementwise_grid_(n), 256, 0, (cudaStream_t)stream>>>(n, in[0], step[0],  \
                                                                              out);               \
    return (int)cudaGetLastError();                                                               \
  }
#define JG_ELEMENTWISE_CUDA2_(name)                                                               \
  static __global__ void name##_kernel_(int64_t n, const double *__restrict__ a, int64_t sa,      \
                                        const double *__restrict__ b, int64_t sb,                 \
                                        double *__restrict__ out) {                               \
    JG_ELEMENTWISE_FOR_(i, n) out[i] = name##_fn(a[i * sa], b[i * sb]);                           \
  }                                                                                               \
  static int name##_launch_(int64_t n, const double *const *in, const int64_t *step, double *out, \
                            jg_stream stream) {                                                   \
    if (n <= 0) return 0;                                                                         \
    name##_kernel_<<<jg_elementwise_grid_(n), 256, 0, (cudaStream_t)stream>>>(                    \
        n, in[0], step[0], in[1], step[1], out);                                                  \
    return (int)cudaGetLastError();                                                               \
  }
#define JG_ELEMENTWISE_CUDA3_(name)                                                               \
  static __global__ void name##_kernel_(                                                          \
      int64_t n, const double *__restrict__ a, int64_t sa, const double *__restrict__ b,          \
      int64_t sb, const double *__restrict__ c, int64_t sc, double *__restrict__ out) {           \
    JG_ELEMENTWISE_FOR_(i, n) out[i] = name##_fn(a[i * sa], b[i * sb], c[i * sc]);                \
  }                                                                                               \
  static int name##_launch_(int64_t n, const double *const *in, const int64_t *step, double *out, \
                            jg_stream stream) {                                                   \
    if (n <= 0) return 0;                                                                         \
    name##_kernel_<<<jg_elementwise_grid_(n), 256, 0, (cudaStream_t)stream>>>(                    \
        n, in[0], step[0], in[1], step[1], in[2], step[2], out);                                  \
    return (int)cudaGetLastError();                                                               \
  }
#else
#define JG_ELEMENTWISE_LAUNCHER_(name) NULL
#define JG_ELEMENTWISE_CUDA1_(name)
#define JG_ELEMENTWISE_CUDA2_(name)
#define JG_ELEMENTWISE_CUDA3_(name)
#endif

/** Defines `double name##_fn(double x)` returning `expr` (host and, under nvcc, device), its
 *  host loop and (under nvcc) kernel and launcher, and the descriptor `const jg_elementwise
 *  name` (external linkage, C linkage in C++). Use at file scope, followed by a semicolon:
 *  JG_ELEMENTWISE1(square, x, x * x); */
#define JG_ELEMENTWISE1(name, x, expr)                                                   \
  static JG_ELEMENTWISE_HD_ inline double name##_fn(double x) {                          \
    return (expr);                                                                       \
  }                                                                                      \
  static void name##_host_loop_(int64_t n, const double *const *in, const int64_t *step, \
                                double *out) {                                           \
    const double *a = in[0];                                                             \
    if (step[0] == 1) {                                                                  \
      for (int64_t i = 0; i < n; ++i) out[i] = name##_fn(a[i]);                          \
    } else {                                                                             \
      for (int64_t i = 0; i < n; ++i) out[i] = name##_fn(a[i * step[0]]);                \
    }                                                                                    \
  }                                                                                      \
  JG_ELEMENTWISE_CUDA1_(name)                                                            \
  JG_ELEMENTWISE_DESC_(name, 1)

/** As JG_ELEMENTWISE1 for two arguments: `double name##_fn(double x, double y)`. */
#define JG_ELEMENTWISE2(name, x, y, expr)                                                 \
  static JG_ELEMENTWISE_HD_ inline double name##_fn(double x, double y) {                 \
    return (expr);                                                                        \
  }                                                                                       \
  static void name##_host_loop_(int64_t n, const double *const *in, const int64_t *step,  \
                                double *out) {                                            \
    const double *a = in[0], *b = in[1];                                                  \
    if (step[0] == 1 && step[1] == 1) {                                                   \
      for (int64_t i = 0; i < n; ++i) out[i] = name##_fn(a[i], b[i]);                     \
    } else {                                                                              \
      for (int64_t i = 0; i < n; ++i) out[i] = name##_fn(a[i * step[0]], b[i * step[1]]); \
    }                                                                                     \
  }                                                                                       \
  JG_ELEMENTWISE_CUDA2_(name)                                                             \
  JG_ELEMENTWISE_DESC_(name, 2)

/** As JG_ELEMENTWISE1 for three arguments: `double name##_fn(double x, double y, double z)`. */
#define JG_ELEMENTWISE3(name, x, y, z, expr)                                             \
  static JG_ELEMENTWISE_HD_ inline double name##_fn(double x, double y, double z) {      \
    return (expr);                                                                       \
  }                                                                                      \
  static void name##_host_loop_(int64_t n, const double *const *in, const int64_t *step, \
                                double *out) {                                           \
    const double *a = in[0], *b = in[1], *c = in[2];                                     \
    if (step[0] == 1 && step[1] == 1 && step[2] == 1) {                                  \
      for (int64_t i = 0; i < n; ++i) out[i] = name##_fn(a[i], b[i], c[i]);              \
    } else {                                                                             \
      for (int64_t i = 0; i < n; ++i)                                                    \
        out[i] = name##_fn(a[i * step[0]], b[i * step[1]], c[i * step[2]]);              \
    }                                                                                    \
  }                                                                                      \
  JG_ELEMENTWISE_CUDA3_(name)                                                            \
  JG_ELEMENTWISE_DESC_(name, 3)

#endif /* JAGGED_ELEMENTWISE_H */
