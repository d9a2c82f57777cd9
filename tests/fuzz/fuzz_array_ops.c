/* fuzz_array_ops.c: structured libFuzzer target of the array constructors and operations.
 *
 * The input is read as a little program. A tree of layout nodes is decoded from it and built
 * through the public constructors only: numeric nodes over hand-edited views (odd strides,
 * extents and slice offsets, in range or not), list-offset and list nodes with arbitrary (also
 * invalid) offsets, starts and stops, option indexes in and out of range, byte and bit masks,
 * records and tuples, regular nodes. Then up to 12 operations run on it, each on the current
 * array (and a second decoded array where one is needed): validation, printing, type, slicing,
 * reductions, ufuncs, eval, masks, take, flatten, sort and argsort, combinations, concatenation,
 * histogram filling, Arrow export and import.
 *
 * Invariants, checked after every call (a violation aborts, so that libFuzzer keeps the input):
 * no crash or sanitizer report; every status is a listed one (jg_status_name is not
 * "JG_UNKNOWN"), and an error comes with a non-empty message and err.status equal to it; when
 * every input passed jg_array_validate(FULL), an operation that returns JG_OK returns an array
 * that passes it too. Inputs that do not validate may give any listed error, but no crash.
 * With JG_FUZZ_VALID_ONLY=1 in the environment, operations other than validation and printing
 * run only on inputs that validate (to look past known classes of invalid-input findings). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jagged/jagged.h"

/* ------------------------------------------------------------------------------------------ */
/* Reading the input                                                                           */
/* ------------------------------------------------------------------------------------------ */

typedef struct input {
  const uint8_t *p;
  size_t n;
} input;

static uint8_t u8(input *in) {
  if (in->n == 0) return 0;
  in->n--;
  return *in->p++;
}

/* A small signed value in [-lo, hi]. */
static int64_t small(input *in, int64_t lo, int64_t hi) {
  return (int64_t)(u8(in) % (uint8_t)(lo + hi + 1)) - lo;
}

/* An int64 that is mostly small, sometimes an edge value. */
static int64_t wide(input *in) {
  const uint8_t k = u8(in);
  switch (k % 16) {
    case 0:
      return INT64_MAX;
    case 1:
      return INT64_MIN;
    case 2:
      return INT32_MAX;
    case 3:
      return -(int64_t)(u8(in)) * 1000003;
    default:
      return (int64_t)(k / 16) - 4;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Invariants                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* A status must be a listed one; an error must be described in err. */
static jg_status checked(jg_status st, const jg_error *err) {
  if (strcmp(jg_status_name(st), "JG_UNKNOWN") == 0) abort();
  if (st != JG_OK && (err->status != st || err->message[0] == '\0')) abort();
  return st;
}

static bool valid(const jg_array *a) {
  jg_error err;
  return jg_array_validate(a, JG_VALIDATE_FULL, NULL, &err) == JG_OK;
}

/* A result of an operation on valid inputs must itself be valid. */
static void check_result(jg_status st, const jg_array *out, bool inputs_valid) {
  if (st == JG_OK && out != NULL && inputs_valid && !valid(out)) abort();
}

/* ------------------------------------------------------------------------------------------ */
/* Building arrays                                                                             */
/* ------------------------------------------------------------------------------------------ */

static const jg_dtype kDtypes[] = {JG_DTYPE_INT64,  JG_DTYPE_FLOAT64, JG_DTYPE_INT32,
                                   JG_DTYPE_FLOAT32, JG_DTYPE_BOOL,   JG_DTYPE_UINT8,
                                   JG_DTYPE_INT8,   JG_DTYPE_UINT16};

/* A host buffer of `count` elements of `dtype` filled from the input, and a dense 1-D view of
 * it. The caller releases v->buffer. */
static bool buffer_view(input *in, jg_len count, jg_dtype dtype, jg_view *v) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  jg_buffer *buf = NULL;
  jg_error err;
  if (jg_buffer_allocate(jg_memory_resource_host(), (size_t)(count * isz), NULL, &buf, &err) !=
      JG_OK) {
    return false;
  }
  uint8_t *p = jg_buffer_data(buf);
  for (jg_len i = 0; i < count * isz; i++) p[i] = u8(in);
  if (dtype == JG_DTYPE_BOOL) {
    for (jg_len i = 0; i < count; i++) p[i] &= 1;
  }
  jg_layout l;
  if (jg_layout_init(&l, 1, &count, NULL, isz, &err) != JG_OK ||
      jg_view_from_buffer(v, buf, &l, dtype, false, &err) != JG_OK) {
    jg_buffer_release(buf);
    return false;
  }
  return true;
}

/* An index buffer (int32 or int64) of `count` values in [-2, limit + 2], mostly increasing
 * when `increasing` (offsets), with the occasional odd value. */
static bool index_view(input *in, jg_len count, jg_len limit, bool increasing, jg_view *v) {
  const jg_dtype dtype = u8(in) & 1 ? JG_DTYPE_INT32 : JG_DTYPE_INT64;
  if (!buffer_view(in, count, dtype, v)) return false;
  int64_t prev = 0;
  for (jg_len i = 0; i < count; i++) {
    const uint8_t k = u8(in);
    int64_t x;
    if (increasing && k % 8 != 0) {
      x = prev + (k / 8) % 3;
      if (x > limit) x = limit;
    } else if (k % 16 == 1) {
      x = wide(in);
    } else {
      x = (int64_t)(k % (uint8_t)(limit + 5 > 250 ? 250 : limit + 5)) - 2;
    }
    if (dtype == JG_DTYPE_INT32) {
      ((int32_t *)jg_view_data(v))[i] = (int32_t)x;
    } else {
      ((int64_t *)jg_view_data(v))[i] = x;
    }
    prev = x;
  }
  return true;
}

/* Edits a dense 1-D view's layout by hand: strides, slice offset and extents from the input. */
static void edit_layout(input *in, jg_view *v) {
  const uint8_t k = u8(in);
  jg_layout *l = &v->layout;
  switch (k % 8) {
    case 0: /* reversed */
      l->strides[0] = -1;
      l->slice_offset = l->shape[0] - 1;
      break;
    case 1: /* every other element */
      l->strides[0] = 2;
      l->shape[0] = (l->shape[0] + 1) / 2;
      break;
    case 2: /* broadcast */
      l->strides[0] = 0;
      break;
    case 3: /* offset inside */
      l->slice_offset = small(in, 0, 3);
      l->shape[0] = l->shape[0] - l->slice_offset < 0 ? 0 : l->shape[0] - l->slice_offset;
      break;
    case 4: /* anything */
      l->strides[0] = wide(in);
      l->slice_offset = wide(in);
      l->shape[0] = small(in, 4, 12);
      break;
    case 5: /* 2-D */
      if (l->shape[0] % 2 == 0) {
        l->ndim = 2;
        l->shape[1] = 2;
        l->shape[0] /= 2;
        l->strides[0] = 2;
        l->strides[1] = 1;
      }
      break;
    default: /* as it is */
      break;
  }
}

static jg_array *build(input *in, int depth);

static jg_array *build_numeric(input *in) {
  const jg_dtype dtype = kDtypes[u8(in) % 8];
  const jg_len count = u8(in) % 17;
  jg_view v;
  if (!buffer_view(in, count, dtype, &v)) return NULL;
  edit_layout(in, &v);
  jg_array *a = NULL;
  jg_error err;
  checked(jg_array_numeric(&v, &a, &err), &err);
  jg_buffer_release(v.buffer);
  return a;
}

static jg_array *build(input *in, int depth) {
  const uint8_t kind = depth >= 4 ? 0 : u8(in) % 10;
  jg_error err;
  jg_array *a = NULL, *c = NULL;
  jg_view v, w;
  v.buffer = NULL;
  w.buffer = NULL;
  if (kind == 0 || kind >= 8) return build_numeric(in);
  if (kind == 4) { /* record */
    const int nf = 1 + u8(in) % 3;
    jg_array *fields[3] = {NULL, NULL, NULL};
    static const char *const names[3] = {"x", "y", "z"};
    bool ok = true;
    for (int k = 0; k < nf; k++) ok = ok && (fields[k] = build(in, depth + 1)) != NULL;
    if (ok) {
      checked(jg_array_record(nf, fields, u8(in) & 1 ? names : NULL, small(in, 1, 3), &a, &err),
              &err);
    }
    for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
    return a;
  }
  c = build(in, depth + 1);
  if (c == NULL) return NULL;
  const jg_len len = jg_array_length(c);
  const jg_len n = u8(in) % 9;
  switch (kind) {
    case 1:
      if (index_view(in, n + 1, len, true, &v)) {
        if (u8(in) % 4 == 0) edit_layout(in, &v);
        checked(jg_array_list_offset(&v, c, &a, &err), &err);
      }
      break;
    case 2:
      if (index_view(in, n, len, true, &v) && index_view(in, n + u8(in) % 2, len, true, &w)) {
        checked(jg_array_list(&v, &w, c, &a, &err), &err);
      }
      break;
    case 3:
      checked(jg_array_regular(c, small(in, 1, 3), small(in, 1, 5), &a, &err), &err);
      break;
    case 5:
      if (buffer_view(in, n, u8(in) & 1 ? JG_DTYPE_BOOL : JG_DTYPE_INT8, &v)) {
        checked(jg_array_byte_masked(&v, u8(in) & 1, c, &a, &err), &err);
      }
      break;
    case 6:
      if (buffer_view(in, n, JG_DTYPE_UINT8, &v)) {
        checked(jg_array_bit_masked(&v, u8(in) & 1, u8(in) & 1, small(in, 1, 8 * n + 1), c, &a,
                                    &err),
                &err);
      }
      break;
    default:
      if (index_view(in, n, len, false, &v)) {
        checked(jg_array_indexed_option(&v, c, &a, &err), &err);
      }
      break;
  }
  jg_buffer_release(v.buffer);
  jg_buffer_release(w.buffer);
  jg_array_release(c);
  return a;
}

/* ------------------------------------------------------------------------------------------ */
/* Operations                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* Exports `a` to Arrow and imports it back. */
static jg_status arrow_round_trip(const jg_array *a, jg_array **out, jg_error *err) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  memset(&schema, 0, sizeof schema);
  memset(&array, 0, sizeof array);
  jg_status st = jg_array_export_arrow(a, &schema, &array, err);
  if (st != JG_OK) return st;
  st = jg_array_import_arrow(&schema, &array, out, err);
  if (schema.release != NULL) schema.release(&schema);
  if (array.release != NULL) array.release(&array);
  return st;
}

/* Runs operation `op` on `a` (and `b`); the result, if any, goes to *out. */
static jg_status run_op(input *in, uint8_t op, const jg_array *a, const jg_array *b,
                        jg_array **out, jg_error *err) {
  const int64_t axis = small(in, 2, 2);
  switch (op % 24) {
    case 0: {
      char buf[256];
      return jg_array_to_string(a, u8(in) % 100, buf, sizeof buf, NULL, err);
    }
    case 1: {
      char buf[256];
      return jg_array_type_string(a, buf, u8(in) % 2 ? sizeof buf : 4, NULL, err);
    }
    case 2: {
      jg_reduce_options o;
      memset(&o, 0, sizeof o);
      o.has_axis = u8(in) & 1;
      o.axis = axis;
      return jg_array_reduce(a, (jg_reducer)(1 + u8(in) % 11), &o, out, err);
    }
    case 3:
      return jg_array_num(a, out, err);
    case 4:
      return jg_array_ufunc1((jg_ufunc)(u8(in) % 64), a, NULL, out, err);
    case 5:
      return jg_array_ufunc2((jg_ufunc)(u8(in) % 64), a, b, NULL, out, err);
    case 6: {
      const char *names[2] = {"x", "y"};
      const jg_array *args[2] = {a, b};
      static const char *const exprs[] = {"x + y", "x * 2 - y", "sqrt(x) + y", "x > y",
                                          "x / y", "-x"};
      return jg_array_eval(exprs[u8(in) % 6], 2, names, args, NULL, out, err);
    }
    case 7:
      return jg_array_mask(a, b, NULL, out, err);
    case 8:
      return jg_array_take(a, b, NULL, out, err);
    case 9:
      return jg_array_flatten(a, axis, NULL, out, err);
    case 10:
      return jg_array_sort(a, axis, u8(in) & 1, u8(in) & 1, NULL, out, err);
    case 11:
      return jg_array_argsort(a, axis, u8(in) & 1, u8(in) & 1, NULL, out, err);
    case 12:
      return jg_array_combinations(a, 1 + u8(in) % 3, u8(in) & 1, NULL, NULL, out, err);
    case 13: {
      const jg_array *args[2] = {a, b};
      return jg_array_concatenate(2, args, axis, NULL, out, err);
    }
    case 14: {
      double counts[12] = {0}, sumw2[12] = {0};
      jg_hist1d h = {1 + u8(in) % 10, -1.0, 10.0, counts, sumw2, 0, 0};
      return jg_histogram_fill(&h, a, u8(in) & 1 ? b : NULL, NULL, err);
    }
    case 15:
      return arrow_round_trip(a, out, err);
    case 16:
      return jg_array_slice(a, wide(in), wide(in), out, err);
    case 17:
      return jg_array_slice_axis(a, axis, wide(in), wide(in), small(in, 2, 2), 0, NULL, out, err);
    case 18:
      return jg_array_firsts(a, axis, NULL, out, err);
    case 19:
      return jg_array_local_index(a, axis, NULL, out, err);
    case 20:
      return jg_array_is_none(a, axis, NULL, out, err);
    case 21:
      return jg_array_drop_none(a, axis, NULL, out, err);
    case 22:
      return jg_array_pad_none(a, small(in, 1, 4), axis, u8(in) & 1, NULL, out, err);
    default: {
      const jg_array *args[2] = {a, b};
      return jg_array_cartesian(2, args, u8(in) & 1, NULL, NULL, out, err);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  jg_array *a = build(&in, 0);
  jg_array *b = build(&in, 0);
  if (a == NULL || b == NULL) {
    jg_array_release(a);
    jg_array_release(b);
    return 0;
  }
  for (int step = 0; step < 12 && in.n > 0; step++) {
    const uint8_t op = u8(&in);
    const bool inputs_valid = valid(a) && valid(b);
    static int valid_only = -1;
    if (valid_only < 0) {
      const char *e = getenv("JG_FUZZ_VALID_ONLY");
      valid_only = e != NULL && e[0] == '1';
    }
    if (valid_only && !inputs_valid && op % 24 > 1) break;
    jg_error err;
    jg_error_clear(&err);
    jg_array *out = NULL;
    const jg_status st = checked(run_op(&in, op, a, b, &out, &err), &err);
    check_result(st, out, inputs_valid);
    if (st == JG_OK && out != NULL) {
      /* Go on with the result, or swap the operands. */
      if (u8(&in) & 1) {
        jg_array_release(a);
        a = out;
      } else {
        jg_array_release(b);
        b = out;
      }
    } else if (u8(&in) & 1) {
      jg_array *t = a;
      a = b;
      b = t;
    }
  }
  jg_array_release(a);
  jg_array_release(b);
  return 0;
}
