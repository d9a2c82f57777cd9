/* ufunc.c: elementwise functions of jagged arrays (ufunc.h): jg_ufunc_name, jg_ufunc_arity,
 * jg_dtype_promote, jg_array_ufunc1, jg_array_ufunc2, jg_array_ufunc2_scalar, jg_array_where.
 *
 * How: the inputs are broadcast (internal/jgi_broadcast.h: aligned dense leaves on the arrays'
 * backend, a scalar as one element), each leaf whose dtype is not the computation's type is
 * widened with the catalog kernel "cast", one kernel (ufunc_unary, ufunc_binary or where) writes
 * a new buffer of the broadcast length, and jgi_broadcast_wrap puts the broadcast structure back
 * around it. A scalar operand is converted to its final type on the host and copied to the
 * backend as a one-element array, so it needs no cast kernel.
 *
 * Fast paths (the simple binary functions: add, subtract, multiply, true_divide, minimum,
 * maximum, comparisons, logical, bitwise; results identical to the general path's, which runs
 * whenever a fast path does not apply or sees anything unusual, so errors and messages are the
 * general path's):
 *  - every simple function runs the kernel ufunc_binary_lists, which has no data errors (nothing
 *    waits for an error word) and takes a scalar by value (no copy to the device);
 *  - jagged x (a list-offset node with int64 offsets over a numeric leaf) op one value per list
 *    (a flat numeric array of x's length), either side: one kernel reads the offsets once and
 *    writes out[j] = f(x[j], w[list of j]) (no parents or index arrays), then one read-back of
 *    the first and last offsets and the smallest bad list;
 *  - jagged x op a scalar: the kernel runs over the whole content of x (when it is not much
 *    longer than the lists need: at most 8 elements per list + 4096) while the first and last
 *    offsets are read back in the same wait; the result shares x's offsets and, when they span
 *    the content, the whole output buffer. */
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_broadcast.h"
#include "jagged/ufunc.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include "internal/jgi_cuda.h"
#include "internal/jgi_transfer.h"
#endif

extern JGI_HIDDEN const jg_kernel jgi_kernel_cast;
extern JGI_HIDDEN const jg_kernel jgi_kernel_fill;
extern JGI_HIDDEN const jg_kernel jgi_kernel_offsets_to_counts;
extern JGI_HIDDEN const jg_kernel jgi_kernel_ufunc_binary_lists;
extern JGI_HIDDEN const jg_kernel jgi_kernel_ufunc_unary;
extern JGI_HIDDEN const jg_kernel jgi_kernel_ufunc_binary;
extern JGI_HIDDEN const jg_kernel jgi_kernel_where;
extern JGI_HIDDEN const jg_kernel jgi_kernel_take_option;

const char *jg_ufunc_name(jg_ufunc f) {
  switch (f) {
    case JG_UFUNC_ADD: return "add";
    case JG_UFUNC_SUBTRACT: return "subtract";
    case JG_UFUNC_MULTIPLY: return "multiply";
    case JG_UFUNC_TRUE_DIVIDE: return "true_divide";
    case JG_UFUNC_FLOOR_DIVIDE: return "floor_divide";
    case JG_UFUNC_REMAINDER: return "remainder";
    case JG_UFUNC_POWER: return "power";
    case JG_UFUNC_MINIMUM: return "minimum";
    case JG_UFUNC_MAXIMUM: return "maximum";
    case JG_UFUNC_ARCTAN2: return "arctan2";
    case JG_UFUNC_EQUAL: return "equal";
    case JG_UFUNC_NOT_EQUAL: return "not_equal";
    case JG_UFUNC_LESS: return "less";
    case JG_UFUNC_LESS_EQUAL: return "less_equal";
    case JG_UFUNC_GREATER: return "greater";
    case JG_UFUNC_GREATER_EQUAL: return "greater_equal";
    case JG_UFUNC_LOGICAL_AND: return "logical_and";
    case JG_UFUNC_LOGICAL_OR: return "logical_or";
    case JG_UFUNC_LOGICAL_XOR: return "logical_xor";
    case JG_UFUNC_BITWISE_AND: return "bitwise_and";
    case JG_UFUNC_BITWISE_OR: return "bitwise_or";
    case JG_UFUNC_BITWISE_XOR: return "bitwise_xor";
    case JG_UFUNC_NEGATIVE: return "negative";
    case JG_UFUNC_ABS: return "absolute";
    case JG_UFUNC_SQRT: return "sqrt";
    case JG_UFUNC_EXP: return "exp";
    case JG_UFUNC_LOG: return "log";
    case JG_UFUNC_SIN: return "sin";
    case JG_UFUNC_COS: return "cos";
    case JG_UFUNC_TAN: return "tan";
    case JG_UFUNC_ARCSIN: return "arcsin";
    case JG_UFUNC_ARCCOS: return "arccos";
    case JG_UFUNC_ARCTAN: return "arctan";
    case JG_UFUNC_SINH: return "sinh";
    case JG_UFUNC_COSH: return "cosh";
    case JG_UFUNC_TANH: return "tanh";
    case JG_UFUNC_FLOOR: return "floor";
    case JG_UFUNC_CEIL: return "ceil";
    case JG_UFUNC_ISNAN: return "isnan";
    case JG_UFUNC_ISFINITE: return "isfinite";
    case JG_UFUNC_ISINF: return "isinf";
    case JG_UFUNC_LOGICAL_NOT: return "logical_not";
    case JG_UFUNC_INVERT: return "invert";
  }
  return "unknown";
}

int jg_ufunc_arity(jg_ufunc f) {
  if (strcmp(jg_ufunc_name(f), "unknown") == 0) return 0;
  return (int)f < 40 ? 2 : 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Promotion                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static bool is_signed_int(jg_dtype d) { return d >= JG_DTYPE_INT8 && d <= JG_DTYPE_INT64; }
static bool is_unsigned_int(jg_dtype d) { return d >= JG_DTYPE_UINT8 && d <= JG_DTYPE_UINT64; }
static bool is_int(jg_dtype d) { return is_signed_int(d) || is_unsigned_int(d); }
static bool is_float(jg_dtype d) { return d == JG_DTYPE_FLOAT32 || d == JG_DTYPE_FLOAT64; }
static bool is_kernel_dtype(jg_dtype d) { return d == JG_DTYPE_BOOL || is_int(d) || is_float(d); }

jg_dtype jg_dtype_promote(jg_dtype a, jg_dtype b) {
  if (!is_kernel_dtype(a) || !is_kernel_dtype(b)) return JG_DTYPE_INVALID;
  if (a == b) return a;
  if (a == JG_DTYPE_BOOL) return b;
  if (b == JG_DTYPE_BOOL) return a;
  const int64_t sa = jg_dtype_itemsize(a), sb = jg_dtype_itemsize(b);
  if (is_float(a) || is_float(b)) {
    if (is_float(a) && is_float(b)) return JG_DTYPE_FLOAT64;
    const jg_dtype f = is_float(a) ? a : b;
    const int64_t other = is_float(a) ? sb : sa;
    if (f == JG_DTYPE_FLOAT64) return JG_DTYPE_FLOAT64;
    return other <= 2 ? JG_DTYPE_FLOAT32 : JG_DTYPE_FLOAT64;
  }
  if (is_signed_int(a) == is_signed_int(b)) return sa >= sb ? a : b;
  const jg_dtype s = is_signed_int(a) ? a : b, u = is_signed_int(a) ? b : a;
  const int64_t ss = jg_dtype_itemsize(s), su = jg_dtype_itemsize(u);
  if (ss > su) return s;
  switch (su) {
    case 1: return JG_DTYPE_INT16;
    case 2: return JG_DTYPE_INT32;
    case 4: return JG_DTYPE_INT64;
    default: return JG_DTYPE_FLOAT64;
  }
}

/* The dtype a weak scalar (a Python number) takes against an array of dtype `a` (NEP 50). */
static jg_dtype weak_dtype(const jg_scalar *s, jg_dtype a) {
  if (is_float(s->dtype)) return is_float(a) ? a : JG_DTYPE_FLOAT64;
  if (s->dtype == JG_DTYPE_BOOL) return a;
  /* a Python int */
  if (is_int(a) || is_float(a)) return a;
  return JG_DTYPE_INT64;
}

/* ------------------------------------------------------------------------------------------ */
/* Dtypes of each function                                                                     */
/* ------------------------------------------------------------------------------------------ */

static bool returns_bool(jg_ufunc f) {
  return (f >= JG_UFUNC_EQUAL && f <= JG_UFUNC_LOGICAL_XOR) || f == JG_UFUNC_ISNAN ||
         f == JG_UFUNC_ISFINITE || f == JG_UFUNC_ISINF || f == JG_UFUNC_LOGICAL_NOT;
}

/* The computation type of binary f on promoted type t, or JG_DTYPE_INVALID with a message. */
static jg_dtype binary_type(jg_ufunc f, jg_dtype t, const char *fn, jg_error *err) {
  switch (f) {
    case JG_UFUNC_TRUE_DIVIDE:
    case JG_UFUNC_ARCTAN2:
      return is_float(t) ? t : JG_DTYPE_FLOAT64;
    case JG_UFUNC_SUBTRACT:
      if (t == JG_DTYPE_BOOL) {
        jg_error_set(err, JG_EDTYPE, -1,
                     "%s: subtract of two bools is not supported (as in NumPy): use "
                     "logical_xor",
                     fn);
        return JG_DTYPE_INVALID;
      }
      return t;
    case JG_UFUNC_FLOOR_DIVIDE:
    case JG_UFUNC_REMAINDER:
    case JG_UFUNC_POWER:
      return t == JG_DTYPE_BOOL ? JG_DTYPE_INT8 : t;
    case JG_UFUNC_BITWISE_AND:
    case JG_UFUNC_BITWISE_OR:
    case JG_UFUNC_BITWISE_XOR:
      if (is_float(t)) {
        jg_error_set(err, JG_EDTYPE, -1, "%s: %s is not defined for %s (integers and bool only)",
                     fn, jg_ufunc_name(f), jg_dtype_name(t));
        return JG_DTYPE_INVALID;
      }
      return t;
    default:
      return t;
  }
}

static bool float_function(jg_ufunc f) { return f >= JG_UFUNC_SQRT && f <= JG_UFUNC_CEIL; }

/* ------------------------------------------------------------------------------------------ */
/* Kernel helpers                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* `leaf` (n elements, or 1 for a scalar) converted to `t` (a new temporary), or itself. */
static jg_status cast_leaf(jgi_op_ctx *c, const jg_kernel_arg *leaf, jg_dtype t,
                          jg_kernel_arg *out, jg_error *err) {
  if (leaf->dtype == t) {
    *out = *leaf;
    return JG_OK;
  }
  const jg_len n = leaf->v.array.length;
  jg_view v;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, t, &v, err));
  const jg_kernel_arg args[3] = {jg_arg_i64(n), *leaf, jgi_op_out_arg(&v)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_cast, args, 3, &c->launch, err));
  *out = jgi_op_out_arg(&v);
  return JG_OK;
}

/* The number of elements a leaf stands for: 1 for a scalar, else b->length. */
static jg_len leaf_len(const jgi_broadcast *b, int k) { return b->is_scalar[k] ? 1 : b->length; }

/* Runs `kernel` over args and wraps `ov` into b's structure; the common tail of every function. */
static jg_status run_and_wrap(jgi_op_ctx *c, const jgi_broadcast *b, const jg_kernel *kernel,
                              const jg_kernel_arg *args, size_t nargs, const jg_view *ov,
                              jg_array **out, jg_error *err) {
  JG_RETURN_NOT_OK(jg_kernel_call(kernel, args, nargs, &c->launch, err));
  return jgi_broadcast_wrap(b, ov, out, err);
}

/* An empty leaf argument when the broadcast is empty (a kernel argument of 0 elements may be
 * NULL, but must have the leaf's dtype). */
static jg_kernel_arg leaf_arg(const jgi_broadcast *b, int k, const jg_kernel_arg *a) {
  jg_kernel_arg r = *a;
  if (!b->is_scalar[k] && b->length == 0) r.v.array.length = 0;
  return r;
}

/* Whether f is one of the simple binary functions of ufunc_binary_lists. */
static bool simple_binary(jg_ufunc f) {
  const int k = (int)f;
  return (k >= 1 && k <= 4) || k == 8 || k == 9 || (k >= 11 && k <= 22);
}

/* binary_type without a message (a fast path leaves the message to the general path). */
static jg_dtype binary_type_quiet(jg_ufunc f, jg_dtype t) {
  if (t == JG_DTYPE_INVALID) return t;
  return binary_type(f, t, "", NULL);
}

/* `count` (1..8) consecutive int64 values at the start of the dense view v on c's backend, read
 * back with one copy and one wait. */
static jg_status read_small(jgi_op_ctx *c, const jg_view *v, int count, int64_t *out,
                            jg_error *err) {
  const size_t bytes = (size_t)count * sizeof(int64_t);
  if (c->backend != JG_BACKEND_CUDA) {
    memcpy(out, jg_view_data(v), bytes);
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int prev = -1;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(c->device.id, &prev, err));
  const cudaStream_t s = (cudaStream_t)c->launch.stream;
  jg_status st = jgi_cuda_error(
      err, cudaMemcpyAsync(out, jg_view_data(v), bytes, cudaMemcpyDeviceToHost, s),
      "cudaMemcpyAsync (reading values back)");
  if (st == JG_OK) jgi_transfer_record(JG_TRANSFER_TO_HOST, (uint64_t)bytes, "ufunc: offsets");
  const jg_status sync = jgi_cuda_error(err, cudaStreamSynchronize(s), "cudaStreamSynchronize");
  jgi_cuda_device_pop(prev, c->device.id);
  return st != JG_OK ? st : sync;
#else
  return jg_error_set(err, JG_EINTERNAL, -1, "a cuda array in a build without CUDA");
#endif
}

/* The arguments vf, vi of ufunc_binary_lists for scalar s converted to t (scalar_store's
 * conversions): vf for floats, the bits vi for integers and bool (widened by jgi_index_at). */
static void scalar_store(const jg_scalar *s, jg_dtype t, void *p);
static void scalar_params(const jg_scalar *s, jg_dtype t, double *vf, int64_t *vi) {
  union { /* every type scalar_store may write */
    bool b;
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
  } h;
  memset(&h, 0, sizeof h);
  scalar_store(s, t, &h);
  *vf = t == JG_DTYPE_FLOAT32 ? h.f32 : t == JG_DTYPE_FLOAT64 ? h.f64 : 0;
  *vi = jgi_index_at(&h, t);
}

/* One call of ufunc_binary_lists (see its spec) with a grid for its mode: n / 2048 blocks of 256
 * for the dense modes (8 elements per thread: two 16-byte vectors of float32), one block per
 * tile of 1024 lists for mode 2, at least 1 (the kernel writes info even with nothing else to
 * do). */
typedef struct lists_call {
  int64_t n, nu, vmode, nv, nl, ninfo;
  bool swap;
  jg_kernel_arg u, v, offsets, info;
  double vf;
  int64_t vi;
} lists_call;

static jg_status call_lists(jgi_op_ctx *c, jg_ufunc f, const lists_call *q, const jg_view *ov,
                            jg_error *err) {
  const jg_kernel_arg args[15] = {
      jg_arg_i64(q->n),  jg_arg_i64((int64_t)f), jg_arg_i64(q->swap), jg_arg_i64(q->nu), q->u,
      jg_arg_i64(q->vmode), jg_arg_i64(q->nv), q->v, jg_arg_f64(q->vf), jg_arg_i64(q->vi),
      jg_arg_i64(q->nl), q->offsets, jg_arg_i64(q->ninfo), q->info, jgi_op_out_arg(ov)};
  jg_launch l = c->launch;
  const int64_t work = q->vmode == 2 ? (q->nl + 1023) / 1024 : (q->n + 2047) / 2048;
  l.grid = work < 1 ? 1 : work > ((int64_t)1 << 30) ? ((int64_t)1 << 30) : work;
  l.block = 256;
  return jg_kernel_call(&jgi_kernel_ufunc_binary_lists, args, 15, &l, err);
}

/* An empty argument of dtype d on c's device. */
static jg_kernel_arg empty_arg(const jgi_op_ctx *c, jg_dtype d) {
  return jg_arg_array(NULL, 0, d, c->device);
}

/* x is a list-offset node with int64 offsets over a 1-D numeric leaf of a kernel dtype. */
static bool jagged_one_level(const jg_array *x) {
  if (x->kind != JG_NODE_LIST_OFFSET || x->buffers[0].dtype != JG_DTYPE_INT64) return false;
  const jg_array *ct = x->children[0];
  return ct->kind == JG_NODE_NUMERIC && ct->buffers[0].layout.ndim == 1 &&
         is_kernel_dtype(ct->buffers[0].dtype);
}

/* x is a flat 1-D numeric array of a kernel dtype. */
static bool flat_numeric(const jg_array *x) {
  return x->kind == JG_NODE_NUMERIC && x->buffers[0].layout.ndim == 1 &&
         is_kernel_dtype(x->buffers[0].dtype);
}

/* The result of a fast path over list-offset node `J` (L lists whose first and last offsets are
 * lo and hi): values = positions [first, first + hi - lo) of `ov`, offsets J's own when lo is 0
 * (shared, as the general path shares them), else compact ones from the counts. */
static jg_status fast_result(jgi_op_ctx *c, const jg_array *J, int64_t lo, int64_t hi,
                             const jg_view *ov, int64_t first, jg_array **out, jg_error *err) {
  const jg_len L = J->length;
  jg_view vals = *ov, offsets;
  if (first != 0 || hi - lo != ov->layout.shape[0]) {
    const jg_slice sl = JG_SLICE(first, first + (hi - lo), 1);
    JG_RETURN_NOT_OK(jg_view_slice(&vals, ov, 1, &sl, err));
  }
  if (lo == 0) {
    offsets = J->buffers[0];
  } else {
    jg_kernel_arg oa;
    jg_view counts;
    JG_RETURN_NOT_OK(jgi_op_view_arg(c, &J->buffers[0], 0, L + 1, &oa, err));
    JG_RETURN_NOT_OK(jgi_op_alloc(c, L, JG_DTYPE_INT64, &counts, err));
    const jg_kernel_arg args[3] = {jg_arg_i64(L), oa, jgi_op_out_arg(&counts)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_offsets_to_counts, args, 3, &c->launch, err));
    int64_t t = 0;
    JG_RETURN_NOT_OK(jgi_op_counts_to_offsets(c, &counts, L, &offsets, &t, err));
  }
  jg_array *num = NULL;
  JG_RETURN_NOT_OK(jg_array_numeric(&vals, &num, err));
  const jg_status st = jg_array_list_offset(&offsets, num, out, err);
  jg_array_release(num);
  return st;
}

/* Most elements a fast path computes speculatively over a content of L lists. */
static bool content_fits(jg_len m, jg_len L) { return m <= 8 * L + 4096; }

/* Jagged x op one value per list (or the reverse): *out stays NULL when the pattern does not
 * apply or the data is unusual (bad offsets: the general path then gives the error). */
static jg_status per_list_fast(jgi_op_ctx *c, jg_ufunc f, const jg_array *x, const jg_array *y,
                               jg_array **out, jg_error *err) {
  *out = NULL;
  if (!simple_binary(f)) return JG_OK;
  const jg_array *J, *W;
  bool swap;
  if (jagged_one_level(x) && flat_numeric(y)) {
    J = x;
    W = y;
    swap = false;
  } else if (jagged_one_level(y) && flat_numeric(x)) {
    J = y;
    W = x;
    swap = true;
  } else {
    return JG_OK;
  }
  const jg_len L = J->length;
  if (W->length != L || L == 1) return JG_OK;
  const jg_view *dv = &J->children[0]->buffers[0], *wv = &W->buffers[0];
  const jg_len m = dv->layout.shape[0];
  const jg_dtype t = binary_type_quiet(f, jg_dtype_promote(dv->dtype, wv->dtype));
  if (t == JG_DTYPE_INVALID || t != dv->dtype) return JG_OK;
  const jg_dtype r = returns_bool(f) ? JG_DTYPE_BOOL : t;
  lists_call q;
  memset(&q, 0, sizeof q);
  q.vmode = 2;
  q.swap = swap;
  q.nl = L;
  q.nv = L;
  q.nu = m;
  q.ninfo = 3;
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, &J->buffers[0], 0, L + 1, &q.offsets, err));
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, 0, m, &q.u, err));
  jg_kernel_arg w0;
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, wv, 0, L, &w0, err));
  JG_RETURN_NOT_OK(cast_leaf(c, &w0, t, &q.v, err));
  q.n = m;
  if (!content_fits(m, L)) {
    const jg_len ends[2] = {0, L};
    int64_t lohi[2];
    JG_RETURN_NOT_OK(jgi_op_read_ints(c, q.offsets.v.array.data, JG_DTYPE_INT64, ends, 2, lohi,
                                      "ufunc: first and last offset", err));
    if (lohi[0] < 0 || lohi[1] < lohi[0] || lohi[1] > m) return JG_OK;
    q.n = lohi[1] - lohi[0];
  }
  jg_view info, ov;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, 3, JG_DTYPE_INT64, &info, err));
  const jg_kernel_arg fargs[3] = {jg_arg_i64(3), jg_arg_i64(-1), jgi_op_out_arg(&info)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_fill, fargs, 3, &c->launch, err));
  q.info = jgi_op_out_arg(&info);
  JG_RETURN_NOT_OK(jgi_op_alloc(c, q.n, r, &ov, err));
  JG_RETURN_NOT_OK(call_lists(c, f, &q, &ov, err));
  int64_t got[3];
  JG_RETURN_NOT_OK(read_small(c, &info, 3, got, err));
  const int64_t lo = got[0], hi = got[1];
  if (got[2] != -1 || lo < 0 || hi < lo || hi > m || hi - lo > q.n) return JG_OK;
  return fast_result(c, J, lo, hi, &ov, 0, out, err);
}

/* Jagged x (one level) op a scalar over x's whole content, the first and last offsets read back
 * after the kernel: *out stays NULL when the pattern does not apply. */
static jg_status scalar_fast(jgi_op_ctx *c, jg_ufunc f, const jg_array *x, const jg_scalar *s,
                             jg_dtype sd, bool swap, jg_array **out, jg_error *err) {
  *out = NULL;
  if (!simple_binary(f) || !jagged_one_level(x)) return JG_OK;
  const jg_view *dv = &x->children[0]->buffers[0];
  const jg_len L = x->length, m = dv->layout.shape[0];
  if (!content_fits(m, L)) return JG_OK;
  const jg_dtype t = binary_type_quiet(f, jg_dtype_promote(dv->dtype, sd));
  if (t == JG_DTYPE_INVALID || t != dv->dtype) return JG_OK;
  const jg_dtype r = returns_bool(f) ? JG_DTYPE_BOOL : t;
  lists_call q;
  memset(&q, 0, sizeof q);
  q.vmode = 1;
  q.swap = swap;
  q.n = q.nu = m;
  q.nl = L;
  q.ninfo = 2;
  q.v = empty_arg(c, t);
  scalar_params(s, t, &q.vf, &q.vi);
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, &x->buffers[0], 0, L + 1, &q.offsets, err));
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, 0, m, &q.u, err));
  jg_view info, ov;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, 2, JG_DTYPE_INT64, &info, err));
  q.info = jgi_op_out_arg(&info);
  JG_RETURN_NOT_OK(jgi_op_alloc(c, m, r, &ov, err));
  JG_RETURN_NOT_OK(call_lists(c, f, &q, &ov, err));
  int64_t got[2];
  JG_RETURN_NOT_OK(read_small(c, &info, 2, got, err));
  const int64_t lo = got[0], hi = got[1];
  if (lo < 0 || hi < lo || hi > m) return JG_OK;
  return fast_result(c, x, lo, hi, &ov, lo, out, err);
}

/* ------------------------------------------------------------------------------------------ */
/* The functions                                                                               */
/* ------------------------------------------------------------------------------------------ */

static jg_status ufunc1(jgi_op_ctx *c, jg_ufunc f, const jg_array *x, jg_array **out,
                        jg_error *err) {
  jgi_broadcast b;
  JG_RETURN_NOT_OK(jgi_broadcast_init(c, 1, (const jg_array *const[]){x}, &b, err));
  jg_status st = JG_OK;
  const jg_dtype dx = b.leaves[0].dtype;
  jg_dtype t = dx;
  if (float_function(f) && !is_float(dx)) t = JG_DTYPE_FLOAT64;
  if (f == JG_UFUNC_NEGATIVE && dx == JG_DTYPE_BOOL) {
    st = jg_error_set(err, JG_EDTYPE, -1,
                      "negative of bool is not supported (as in NumPy): use logical_not");
  } else if (f == JG_UFUNC_INVERT && is_float(dx)) {
    st = jg_error_set(err, JG_EDTYPE, -1, "invert is not defined for %s (integers and bool only)",
                      jg_dtype_name(dx));
  }
  jg_kernel_arg xa;
  if (st == JG_OK) st = cast_leaf(c, &b.leaves[0], t, &xa, err);
  jg_view ov;
  const jg_dtype r = returns_bool(f) ? JG_DTYPE_BOOL : t;
  const jg_len n = leaf_len(&b, 0);
  if (st == JG_OK) st = jgi_op_alloc(c, n, r, &ov, err);
  if (st == JG_OK) {
    const jg_kernel_arg args[4] = {jg_arg_i64(n), jg_arg_i64((int64_t)f), leaf_arg(&b, 0, &xa),
                                   jgi_op_out_arg(&ov)};
    st = run_and_wrap(c, &b, &jgi_kernel_ufunc_unary, args, 4, &ov, out, err);
  }
  jgi_broadcast_reset(&b);
  return st;
}

jg_status jg_array_ufunc1(jg_ufunc f, const jg_array *x, jg_stream stream, jg_array **out,
                          jg_error *err) {
  static const char fn[] = "jg_array_ufunc1";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(x == NULL, JG_EINVAL, err, "%s: x is NULL", fn);
  JG_RETURN_IF(jg_ufunc_arity(f) != 1, JG_EINVAL, err, "%s: %d is not a unary function (%s)", fn,
               (int)f, jg_ufunc_name(f));
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, x, stream, err));
  jg_array *res = NULL;
  jg_status st = ufunc1(&c, f, x, &res, err);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

/* f(x, y) over broadcast b of two inputs whose promoted dtype is `promoted`. */
static jg_status binary_on(jgi_op_ctx *c, jg_ufunc f, const jgi_broadcast *b, jg_dtype promoted,
                           jg_array **out, jg_error *err) {
  const jg_dtype t = binary_type(f, promoted, c->fn, err);
  if (t == JG_DTYPE_INVALID) return err != NULL ? err->status : JG_EDTYPE;
  jg_kernel_arg xa, ya;
  JG_RETURN_NOT_OK(cast_leaf(c, &b->leaves[0], t, &xa, err));
  JG_RETURN_NOT_OK(cast_leaf(c, &b->leaves[1], t, &ya, err));
  const jg_dtype r = returns_bool(f) ? JG_DTYPE_BOOL : t;
  jg_view ov;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, b->length, r, &ov, err));
  if (simple_binary(f) && !b->is_scalar[0] && !b->is_scalar[1]) {
    lists_call q;
    memset(&q, 0, sizeof q);
    q.n = q.nu = q.nv = b->length;
    q.u = leaf_arg(b, 0, &xa);
    q.v = leaf_arg(b, 1, &ya);
    q.nl = -1;
    q.offsets = q.info = empty_arg(c, JG_DTYPE_INT64);
    JG_RETURN_NOT_OK(call_lists(c, f, &q, &ov, err));
    return jgi_broadcast_wrap(b, &ov, out, err);
  }
  const jg_kernel_arg args[7] = {jg_arg_i64(b->length),      jg_arg_i64((int64_t)f),
                                 jg_arg_i64(leaf_len(b, 0)), leaf_arg(b, 0, &xa),
                                 jg_arg_i64(leaf_len(b, 1)), leaf_arg(b, 1, &ya),
                                 jgi_op_out_arg(&ov)};
  return run_and_wrap(c, b, &jgi_kernel_ufunc_binary, args, 7, &ov, out, err);
}

jg_status jg_array_ufunc2(jg_ufunc f, const jg_array *x, const jg_array *y, jg_stream stream,
                          jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_ufunc2";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(x == NULL || y == NULL, JG_EINVAL, err, "%s: %s is NULL", fn,
               x == NULL ? "x" : "y");
  JG_RETURN_IF(jg_ufunc_arity(f) != 2, JG_EINVAL, err, "%s: %d is not a binary function (%s)", fn,
               (int)f, jg_ufunc_name(f));
  if (jg_array_check_same_backend(x, "x", y, "y", err) != JG_OK) {
    if (err != NULL) err->index = 1;
    return jgi_error_prefix(JG_EBACKEND, fn, err);
  }
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, x, stream, err));
  jgi_broadcast b;
  jg_array *res = NULL;
  jg_status st = per_list_fast(&c, f, x, y, &res, err);
  if (st == JG_OK && res != NULL) {
    st = jgi_op_ctx_finish(&c, st, err);
    if (st != JG_OK) {
      jg_array_release(res);
      return st;
    }
    *out = res;
    return JG_OK;
  }
  if (st == JG_OK) st = jgi_broadcast_init(&c, 2, (const jg_array *const[]){x, y}, &b, err);
  if (st == JG_OK) {
    st = binary_on(&c, f, &b, jg_dtype_promote(b.leaves[0].dtype, b.leaves[1].dtype), &res, err);
    jgi_broadcast_reset(&b);
  }
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

/* Stores scalar `s` converted to dtype `t` at `p` (C's conversions: integers wrap modulo the
 * width as two's complement, floats round). */
static void scalar_store(const jg_scalar *s, jg_dtype t, void *p) {
  const bool u = is_unsigned_int(s->dtype);
  const bool fl = is_float(s->dtype);
  const int64_t i = fl ? (int64_t)s->v.f64 : (int64_t)s->v.u64;
  const uint64_t w = fl ? (uint64_t)(int64_t)s->v.f64 : s->v.u64;
  const double d = fl ? s->v.f64 : u ? (double)s->v.u64 : (double)s->v.i64;
  switch (t) {
    case JG_DTYPE_BOOL: *(bool *)p = fl ? s->v.f64 != 0 : s->v.u64 != 0; break;
    case JG_DTYPE_INT8: *(int8_t *)p = (int8_t)(uint8_t)w; break;
    case JG_DTYPE_INT16: *(int16_t *)p = (int16_t)(uint16_t)w; break;
    case JG_DTYPE_INT32: *(int32_t *)p = (int32_t)(uint32_t)w; break;
    case JG_DTYPE_INT64: *(int64_t *)p = i; break;
    case JG_DTYPE_UINT8: *(uint8_t *)p = (uint8_t)w; break;
    case JG_DTYPE_UINT16: *(uint16_t *)p = (uint16_t)w; break;
    case JG_DTYPE_UINT32: *(uint32_t *)p = (uint32_t)w; break;
    case JG_DTYPE_UINT64: *(uint64_t *)p = w; break;
    case JG_DTYPE_FLOAT32: *(float *)p = (float)d; break;
    default: *(double *)p = d; break;
  }
}

/* A numeric array of one element of dtype t holding s, on c's backend. */
static jg_status scalar_array(jgi_op_ctx *c, const jg_scalar *s, jg_dtype t, jg_array **out,
                              jg_error *err) {
  unsigned char host[8] = {0};
  scalar_store(s, t, host);
  jg_view v;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, 1, t, &v, err));
  if (c->backend == JG_BACKEND_CUDA) {
    jg_view src;
    const jg_len one = 1;
    jg_layout l;
    JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &one, NULL, jg_dtype_itemsize(t), err));
    const jg_device host_dev = JG_DEVICE_HOST_INIT;
    JG_RETURN_NOT_OK(jg_view_from_pointer(&src, host, host_dev, &l, t, true, err));
    /* Pageable source: the copy is done when this returns, so `host` may go. */
    JG_RETURN_NOT_OK(jg_copy_async(&v, &src, c->launch.stream, err));
  } else {
    memcpy(jg_view_data(&v), host, (size_t)jg_dtype_itemsize(t));
  }
  return jg_array_numeric(&v, out, err);
}

/* The dtype of x's numeric leaf (bool for an empty tree), for the weak-scalar rule. */
static jg_dtype leaf_dtype(const jg_array *x) {
  const jg_array *p = x;
  while (jgi_node_has_one_content(p->kind)) p = p->children[0];
  return p->kind == JG_NODE_NUMERIC ? p->buffers[0].dtype : JG_DTYPE_FLOAT64;
}

/* x op scalar s (or s op x when swap) for a simple f through the general broadcast of x alone,
 * the scalar passed to the kernel by value. */
static jg_status scalar_simple(jgi_op_ctx *c, jg_ufunc f, const jg_array *x, const jg_scalar *s,
                               jg_dtype sd, bool swap, jg_array **out, jg_error *err) {
  jgi_broadcast b;
  static const char *const names[1] = {"x"};
  JG_RETURN_NOT_OK(jgi_broadcast_init_named(c, 1, (const jg_array *const[]){x}, names, &b, err));
  jg_status st = JG_OK;
  const jg_dtype t = binary_type(f, jg_dtype_promote(b.leaves[0].dtype, sd), c->fn, err);
  if (t == JG_DTYPE_INVALID) st = err != NULL ? err->status : JG_EDTYPE;
  jg_kernel_arg xa;
  jg_view ov;
  if (st == JG_OK) st = cast_leaf(c, &b.leaves[0], t, &xa, err);
  const jg_dtype r = returns_bool(f) ? JG_DTYPE_BOOL : t;
  const jg_len n = leaf_len(&b, 0);
  if (st == JG_OK) st = jgi_op_alloc(c, n, r, &ov, err);
  if (st == JG_OK) {
    lists_call q;
    memset(&q, 0, sizeof q);
    q.n = q.nu = n;
    q.u = leaf_arg(&b, 0, &xa);
    q.vmode = 1;
    q.swap = swap;
    q.v = empty_arg(c, t);
    scalar_params(s, t, &q.vf, &q.vi);
    q.nl = -1;
    q.offsets = q.info = empty_arg(c, JG_DTYPE_INT64);
    st = call_lists(c, f, &q, &ov, err);
  }
  if (st == JG_OK) st = jgi_broadcast_wrap(&b, &ov, out, err);
  jgi_broadcast_reset(&b);
  return st;
}

jg_status jg_array_ufunc2_scalar(jg_ufunc f, const jg_array *x, jg_scalar s, bool scalar_on_left,
                                 jg_stream stream, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_ufunc2_scalar";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(x == NULL, JG_EINVAL, err, "%s: x is NULL", fn);
  JG_RETURN_IF(jg_ufunc_arity(f) != 2, JG_EINVAL, err, "%s: %d is not a binary function (%s)", fn,
               (int)f, jg_ufunc_name(f));
  JG_RETURN_IF(!is_kernel_dtype(s.dtype), JG_EDTYPE, err,
               "%s: a scalar of dtype %s (bool, int8..uint64, float32, float64 only)", fn,
               jg_dtype_name(s.dtype));
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, x, stream, err));
  const jg_dtype dx = leaf_dtype(x);
  const jg_dtype sd = s.weak ? weak_dtype(&s, dx) : s.dtype;
  jg_array *sa = NULL, *res = NULL;
  jgi_broadcast b;
  memset(&b, 0, sizeof b);
  jg_status st = JG_OK;
  if (simple_binary(f)) {
    st = scalar_fast(&c, f, x, &s, sd, scalar_on_left, &res, err);
    if (st == JG_OK && res == NULL) st = scalar_simple(&c, f, x, &s, sd, scalar_on_left, &res, err);
    st = jgi_op_ctx_finish(&c, st, err);
    if (st != JG_OK) {
      jg_array_release(res);
      return st;
    }
    *out = res;
    return JG_OK;
  }
  st = scalar_array(&c, &s, sd, &sa, err);
  if (st == JG_OK) {
    const jg_array *in[2] = {scalar_on_left ? sa : x, scalar_on_left ? x : sa};
    static const char *const names_l[2] = {"the scalar", "x"};
    static const char *const names_r[2] = {"x", "the scalar"};
    st = jgi_broadcast_init_named(&c, 2, in, scalar_on_left ? names_l : names_r, &b, err);
  }
  if (st == JG_OK) {
    st = binary_on(&c, f, &b, jg_dtype_promote(b.leaves[0].dtype, b.leaves[1].dtype), &res, err);
  }
  jgi_broadcast_reset(&b);
  jg_array_release(sa);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* where: the chosen value, None or not                                                         */
/* ------------------------------------------------------------------------------------------ */
/*
 * ak.where picks x's or y's value at each position, so a None of the branch not chosen does not
 * matter (where([True, False], [1, None], [None, 5]) is [1, 5]); None lists of x and y, and None
 * anywhere in the condition, are None in the result as broadcasting makes them. So the option
 * directly above x's (or y's) numbers is taken out before broadcasting: the input becomes its
 * values (take_option: 0 where None) and, as one more input, its validity (bool) with the
 * same structure (a true scalar for an input without one); the where kernel runs on the values and
 * on the validities, and the result gets a byte-masked option over its numbers from the chosen
 * validity. */

/* The option node directly above the numeric (or empty) leaf of `a`'s chain, or NULL. */
static const jg_array *leaf_option(const jg_array *a) {
  const jg_array *p = a, *opt = NULL;
  while (jgi_node_has_one_content(p->kind)) {
    opt = jgi_node_is_option(p->kind) ? p : NULL;
    p = p->children[0];
  }
  if (p->kind == JG_NODE_EMPTY) return opt;
  return p->kind == JG_NODE_NUMERIC && p->buffers[0].layout.ndim == 1 &&
                 is_kernel_dtype(p->buffers[0].dtype)
             ? opt
             : NULL;
}

/* Whether the leaf of `a`'s chain is an empty node (type unknown: no values). */
static bool leaf_is_unknown(const jg_array *a) {
  while (jgi_node_has_one_content(a->kind)) a = a->children[0];
  return a->kind == JG_NODE_EMPTY;
}

/* `a` with the node `at` of its chain replaced by `leaf` (the nodes above it remade over their
 * own buffers). */
static jg_status replace_below(const jg_array *a, const jg_array *at, jg_array *leaf,
                               jg_array **out, jg_error *err) {
  if (a == at) {
    *out = jg_array_retain(leaf);
    return JG_OK;
  }
  jg_array *child = NULL;
  JG_RETURN_NOT_OK(replace_below(a->children[0], at, leaf, &child, err));
  const jg_status st = jgi_op_remake(a, child, out, err);
  jg_array_release(child);
  return st;
}

/* `a` without its leaf option `opt`: *values (opt's values, 0 where None) and *valid (bool),
 * each with a's structure above opt. */
static jg_status split_leaf_option(jgi_op_ctx *c, const jg_array *a, const jg_array *opt,
                                   jg_array **values, jg_array **valid, jg_error *err) {
  const jg_array *leaf = opt->children[0];
  jg_view idx, flags, vv;
  JG_RETURN_NOT_OK(jgi_op_option_index(c, opt, 0, true, &idx, &flags, err));
  jg_kernel_arg data = jg_arg_array(NULL, 0, JG_DTYPE_FLOAT64, c->device);
  if (leaf->kind == JG_NODE_NUMERIC) {
    JG_RETURN_NOT_OK(
        jgi_op_view_arg(c, &leaf->buffers[0], 0, leaf->buffers[0].layout.shape[0], &data, err));
  }
  JG_RETURN_NOT_OK(jgi_op_alloc(c, opt->length, data.dtype, &vv, err));
  const jg_kernel_arg args[5] = {jg_arg_i64(opt->length), jg_arg_i64(data.v.array.length), data,
                                 jgi_op_out_arg(&idx), jgi_op_out_arg(&vv)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_take_option, args, 5, &c->launch, err));
  jg_array *vn = NULL, *fn = NULL;
  jg_status st = jg_array_numeric(&vv, &vn, err);
  if (st == JG_OK) st = jg_array_numeric(&flags, &fn, err);
  if (st == JG_OK) st = replace_below(a, opt, vn, values, err);
  if (st == JG_OK) st = replace_below(a, opt, fn, valid, err);
  jg_array_release(vn);
  jg_array_release(fn);
  return st;
}

/* The numeric leaf of `values`' chain wrapped in a byte-masked node over the numeric leaf of
 * `valid`'s (the same structure: two wraps of one broadcast). */
static jg_status mask_leaf(const jg_array *values, const jg_array *valid, jg_array **out,
                           jg_error *err) {
  const jg_array *p = values, *q = valid;
  while (jgi_node_has_one_content(p->kind)) {
    p = p->children[0];
    q = q->children[0];
  }
  jg_array *masked = NULL;
  JG_RETURN_NOT_OK(jg_array_byte_masked(&q->buffers[0], true, (jg_array *)(uintptr_t)p, &masked,
                                        err));
  const jg_status st = replace_below(values, p, masked, out, err);
  jg_array_release(masked);
  return st;
}

/* where over the broadcast `b` of (condition, x, y[, x valid, y valid]): the chosen values,
 * masked by the chosen validity when `split`. */
static jg_status where_on(jgi_op_ctx *c, jgi_broadcast *b, bool split, bool cond_unknown,
                          jg_array **out, jg_error *err) {
  jg_kernel_arg ca = b->leaves[0];
  /* A condition of unknown type (0 * unknown, var * unknown) has no values: no bool to read. */
  if (cond_unknown && ca.v.array.length == 0) ca.dtype = JG_DTYPE_BOOL;
  JG_RETURN_IF(ca.dtype != JG_DTYPE_BOOL, JG_EDTYPE, err,
               "the condition must be bool, not %s: compare it first (e.g. "
               "jg_array_ufunc2_scalar with JG_UFUNC_NOT_EQUAL and jg_scalar_int(0))",
               jg_dtype_name(b->leaves[0].dtype));
  const jg_dtype t = jg_dtype_promote(b->leaves[1].dtype, b->leaves[2].dtype);
  jg_kernel_arg xa, ya;
  JG_RETURN_NOT_OK(cast_leaf(c, &b->leaves[1], t, &xa, err));
  JG_RETURN_NOT_OK(cast_leaf(c, &b->leaves[2], t, &ya, err));
  jg_view ov, vv;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, b->length, t, &ov, err));
  const jg_kernel_arg args[8] = {
      jg_arg_i64(b->length),        jg_arg_i64(leaf_len(b, 0)), leaf_arg(b, 0, &ca),
      jg_arg_i64(leaf_len(b, 1)),   leaf_arg(b, 1, &xa),        jg_arg_i64(leaf_len(b, 2)),
      leaf_arg(b, 2, &ya),          jgi_op_out_arg(&ov)};
  if (!split) return run_and_wrap(c, b, &jgi_kernel_where, args, 8, &ov, out, err);
  JG_RETURN_NOT_OK(jgi_op_alloc(c, b->length, JG_DTYPE_BOOL, &vv, err));
  const jg_kernel_arg vargs[8] = {
      jg_arg_i64(b->length),      jg_arg_i64(leaf_len(b, 0)), leaf_arg(b, 0, &ca),
      jg_arg_i64(leaf_len(b, 3)), leaf_arg(b, 3, &b->leaves[3]), jg_arg_i64(leaf_len(b, 4)),
      leaf_arg(b, 4, &b->leaves[4]), jgi_op_out_arg(&vv)};
  jg_array *values = NULL, *valid = NULL;
  jg_status st = run_and_wrap(c, b, &jgi_kernel_where, args, 8, &ov, &values, err);
  if (st == JG_OK) st = run_and_wrap(c, b, &jgi_kernel_where, vargs, 8, &vv, &valid, err);
  if (st == JG_OK) st = mask_leaf(values, valid, out, err);
  jg_array_release(values);
  jg_array_release(valid);
  return st;
}

jg_status jg_array_where(const jg_array *condition, const jg_array *x, const jg_array *y,
                         jg_stream stream, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_where";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(condition == NULL || x == NULL || y == NULL, JG_EINVAL, err, "%s: %s is NULL", fn,
               condition == NULL ? "condition" : x == NULL ? "x" : "y");
  const jg_array *in[3] = {condition, x, y};
  static const char *const what[3] = {"condition", "x", "y"};
  for (int k = 1; k < 3; k++) {
    if (jg_array_check_same_backend(condition, what[0], in[k], what[k], err) != JG_OK) {
      if (err != NULL) err->index = k;
      return jgi_error_prefix(JG_EBACKEND, fn, err);
    }
  }
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, condition, stream, err));
  static const char *const names[5] = {"condition", "x", "y", "x", "y"};
  jgi_broadcast b;
  memset(&b, 0, sizeof b);
  jg_array *res = NULL, *parts[5] = {(jg_array *)(uintptr_t)condition, NULL, NULL, NULL, NULL};
  const jg_array *opts[2] = {leaf_option(x), leaf_option(y)};
  const bool split = opts[0] != NULL || opts[1] != NULL;
  jg_status st = JG_OK;
  for (int k = 0; st == JG_OK && k < 2; k++) {
    if (opts[k] != NULL) {
      st = split_leaf_option(&c, in[k + 1], opts[k], &parts[k + 1], &parts[k + 3], err);
    } else {
      parts[k + 1] = jg_array_retain((jg_array *)(uintptr_t)in[k + 1]);
      if (split) { /* every value valid: one true, broadcast as a scalar */
        const jg_scalar yes = jg_scalar_bool(true);
        st = scalar_array(&c, &yes, JG_DTYPE_BOOL, &parts[k + 3], err);
      }
    }
  }
  if (st == JG_OK) {
    st = jgi_broadcast_init_named(&c, split ? 5 : 3, (const jg_array *const *)parts, names, &b,
                                  err);
  }
  if (st == JG_OK) st = where_on(&c, &b, split, leaf_is_unknown(condition), &res, err);
  jgi_broadcast_reset(&b);
  for (int k = 1; k < 5; k++) jg_array_release(parts[k]);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}
