/* ufunc.c: elementwise functions of jagged arrays (ufunc.h): jg_ufunc_name, jg_ufunc_arity,
 * jg_dtype_promote, jg_array_ufunc1, jg_array_ufunc2, jg_array_ufunc2_scalar, jg_array_where.
 *
 * How: the inputs are broadcast (internal/jgi_broadcast.h: aligned dense leaves on the arrays'
 * backend, a scalar as one element), each leaf whose dtype is not the computation's type is
 * widened with the catalog kernel "cast", one kernel (ufunc_unary, ufunc_binary or where) writes
 * a new buffer of the broadcast length, and jgi_broadcast_wrap puts the broadcast structure back
 * around it. A scalar operand is converted to its final type on the host and copied to the
 * backend as a one-element array, so it needs no cast kernel. */
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_broadcast.h"
#include "jagged/ufunc.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_cast;
extern JGI_HIDDEN const jg_kernel jgi_kernel_ufunc_unary;
extern JGI_HIDDEN const jg_kernel jgi_kernel_ufunc_binary;
extern JGI_HIDDEN const jg_kernel jgi_kernel_where;

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
  jg_status st = jgi_broadcast_init(&c, 2, (const jg_array *const[]){x, y}, &b, err);
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
  jg_status st = scalar_array(&c, &s, sd, &sa, err);
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
  static const char *const names[3] = {"condition", "x", "y"};
  jgi_broadcast b;
  jg_array *res = NULL;
  jg_status st =
      jgi_broadcast_init_named(&c, 3, (const jg_array *const[]){condition, x, y}, names, &b, err);
  if (st == JG_OK) {
    if (b.leaves[0].dtype != JG_DTYPE_BOOL) {
      st = jg_error_set(err, JG_EDTYPE, -1,
                        "the condition must be bool, not %s: compare it first (e.g. "
                        "jg_array_ufunc2_scalar with JG_UFUNC_NOT_EQUAL and jg_scalar_int(0))",
                        jg_dtype_name(b.leaves[0].dtype));
    }
    const jg_dtype t = jg_dtype_promote(b.leaves[1].dtype, b.leaves[2].dtype);
    jg_kernel_arg xa, ya;
    if (st == JG_OK) st = cast_leaf(&c, &b.leaves[1], t, &xa, err);
    if (st == JG_OK) st = cast_leaf(&c, &b.leaves[2], t, &ya, err);
    jg_view ov;
    if (st == JG_OK) st = jgi_op_alloc(&c, b.length, t, &ov, err);
    if (st == JG_OK) {
      const jg_kernel_arg args[8] = {
          jg_arg_i64(b.length),       jg_arg_i64(leaf_len(&b, 0)), leaf_arg(&b, 0, &b.leaves[0]),
          jg_arg_i64(leaf_len(&b, 1)), leaf_arg(&b, 1, &xa),       jg_arg_i64(leaf_len(&b, 2)),
          leaf_arg(&b, 2, &ya),       jgi_op_out_arg(&ov)};
      st = run_and_wrap(&c, &b, &jgi_kernel_where, args, 8, &ov, &res, err);
    }
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
