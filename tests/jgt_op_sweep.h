/* jgt_op_sweep.h: one call of (almost) every public operation, picked by a case table entry, and
 * a rewrite of builder-made arrays into the other option representations. Shared by the sweeps
 * over option representations (jgt_option_forms_cases.h) and over empty inputs
 * (jgt_empty_inputs_cases.h), on the host and on the GPU. Include after jg_test.h,
 * jgt_array_cases.h and jgt_text.h. */
#ifndef JAGGED_TESTS_JGT_OP_SWEEP_H
#define JAGGED_TESTS_JGT_OP_SWEEP_H

#include <stdint.h>
#include <stdlib.h>

typedef enum {
  JGT_OP_MASK,        /* a[b] (b bool) */
  JGT_OP_TAKE,        /* a[b] (b integers) */
  JGT_OP_SLICE,       /* a[..., 1:] at `axis` */
  JGT_OP_FIRSTS,      /* ak.firsts(a, axis) */
  JGT_OP_LASTS,       /* ak.lasts(a, axis) (jagged's) */
  JGT_OP_LOCAL_INDEX, /* ak.local_index(a, axis) */
  JGT_OP_SUM,         /* ak.sum(a, axis) */
  JGT_OP_MIN,         /* ak.min(a, axis) */
  JGT_OP_ARGMAX,      /* ak.argmax(a, axis) */
  JGT_OP_COUNT,       /* ak.count(a, axis) */
  JGT_OP_ANY,         /* ak.any(a, axis) */
  JGT_OP_MEAN,        /* ak.mean(a, axis) */
  JGT_OP_NUM,         /* ak.num(a, -1) */
  JGT_OP_FLATTEN,     /* ak.flatten(a, axis) */
  JGT_OP_UNFLATTEN,   /* ak.unflatten(a, b, axis) */
  JGT_OP_SINGLETONS,  /* ak.singletons(a) */
  JGT_OP_PAD_NONE,    /* ak.pad_none(a, 2, axis) */
  JGT_OP_FILL_NONE,   /* ak.fill_none(a, 0.5, axis) */
  JGT_OP_IS_NONE,     /* ak.is_none(a, axis) */
  JGT_OP_DROP_NONE,   /* ak.drop_none(a, axis) */
  JGT_OP_CONCAT,      /* ak.concatenate([a, b], axis) */
  JGT_OP_ARGSORT,     /* ak.argsort(a, axis) */
  JGT_OP_SORT,        /* ak.sort(a, axis) */
  JGT_OP_COMBINATIONS,    /* ak.combinations(a, 2) */
  JGT_OP_ARGCOMBINATIONS, /* ak.argcombinations(a, 2) */
  JGT_OP_CARTESIAN,       /* ak.cartesian([a, b]) */
  JGT_OP_ARGCARTESIAN,    /* ak.argcartesian([a, b]) */
  JGT_OP_ADD,         /* a + b */
  JGT_OP_ADD_SCALAR,  /* a + 1 */
  JGT_OP_NEGATIVE,    /* -a */
  JGT_OP_WHERE        /* ak.where(a, b, 0 * b) with a bool */
} jgt_op;

/* Runs `op` on a (and b) with `axis`, on a's backend. */
static inline jg_status jgt_op_run(jgt_op op, int64_t axis, const jg_array *a, const jg_array *b,
                                   jg_array **out, jg_error *err) {
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.has_axis = true;
  o.axis = axis;
  const jg_array *two[2] = {a, b};
  switch (op) {
    case JGT_OP_MASK: return jg_array_mask(a, b, NULL, out, err);
    case JGT_OP_TAKE: return jg_array_take(a, b, NULL, out, err);
    case JGT_OP_SLICE: return jg_array_slice_axis(a, axis, 1, 0, 1, JG_SLICE_START, NULL, out, err);
    case JGT_OP_FIRSTS: return jg_array_firsts(a, axis, NULL, out, err);
    case JGT_OP_LASTS: return jg_array_lasts(a, axis, NULL, out, err);
    case JGT_OP_LOCAL_INDEX: return jg_array_local_index(a, axis, NULL, out, err);
    case JGT_OP_SUM: return jg_array_reduce(a, JG_REDUCE_SUM, &o, out, err);
    case JGT_OP_MIN: return jg_array_reduce(a, JG_REDUCE_MIN, &o, out, err);
    case JGT_OP_ARGMAX: return jg_array_reduce(a, JG_REDUCE_ARGMAX, &o, out, err);
    case JGT_OP_COUNT: return jg_array_reduce(a, JG_REDUCE_COUNT, &o, out, err);
    case JGT_OP_ANY: return jg_array_reduce(a, JG_REDUCE_ANY, &o, out, err);
    case JGT_OP_MEAN: return jg_array_reduce(a, JG_REDUCE_MEAN, &o, out, err);
    case JGT_OP_NUM: return jg_array_num(a, out, err);
    case JGT_OP_FLATTEN: return jg_array_flatten(a, axis, NULL, out, err);
    case JGT_OP_UNFLATTEN: return jg_array_unflatten(a, b, axis, NULL, out, err);
    case JGT_OP_SINGLETONS: return jg_array_singletons(a, NULL, out, err);
    case JGT_OP_PAD_NONE: return jg_array_pad_none(a, 2, axis, false, NULL, out, err);
    case JGT_OP_FILL_NONE: return jg_array_fill_none(a, jg_fill_value_f64(0.5), axis, NULL, out, err);
    case JGT_OP_IS_NONE: return jg_array_is_none(a, axis, NULL, out, err);
    case JGT_OP_DROP_NONE: return jg_array_drop_none(a, axis, NULL, out, err);
    case JGT_OP_CONCAT: return jg_array_concatenate(2, two, axis, NULL, out, err);
    case JGT_OP_ARGSORT: return jg_array_argsort(a, axis, true, true, NULL, out, err);
    case JGT_OP_SORT: return jg_array_sort(a, axis, true, true, NULL, out, err);
    case JGT_OP_COMBINATIONS: return jg_array_combinations(a, 2, false, NULL, NULL, out, err);
    case JGT_OP_ARGCOMBINATIONS:
      return jg_array_argcombinations(a, 2, false, NULL, NULL, out, err);
    case JGT_OP_CARTESIAN: return jg_array_cartesian(2, two, false, NULL, NULL, out, err);
    case JGT_OP_ARGCARTESIAN: return jg_array_argcartesian(2, two, false, NULL, NULL, out, err);
    case JGT_OP_ADD: return jg_array_ufunc2(JG_UFUNC_ADD, a, b, NULL, out, err);
    case JGT_OP_ADD_SCALAR:
      return jg_array_ufunc2_scalar(JG_UFUNC_ADD, a, jg_scalar_int(1), false, NULL, out, err);
    case JGT_OP_NEGATIVE: return jg_array_ufunc1(JG_UFUNC_NEGATIVE, a, NULL, out, err);
    case JGT_OP_WHERE: {
      jg_array *zero = NULL;
      jg_status st = jg_array_ufunc2_scalar(JG_UFUNC_MULTIPLY, b, jg_scalar_int(0), false, NULL,
                                            &zero, err);
      if (st == JG_OK) st = jg_array_where(a, b, zero, NULL, out, err);
      jg_array_release(zero);
      return st;
    }
  }
  return JG_EINVAL;
}

/* One case of a sweep: `op` with `axis` on a (and b), written as text, and the printout
 * expected. */
typedef struct jgt_sweep_case {
  const char *name;
  jgt_op op;
  int64_t axis;
  const char *a;
  const char *b; /* the second array (NULL when the operation takes one) */
  const char *want;
} jgt_sweep_case;

/* Runs case `c` on the host arrays a and b (released here), on cuda:0 when `gpu` (copied
 * there first), and compares the printout; prints the difference (`form` names the option
 * representation, -1 none) and returns 1 when it fails, else 0. */
static inline int jgt_sweep_check(const jgt_sweep_case *c, int form, jg_array *a, jg_array *b,
                                  bool gpu) {
  jg_array *da = gpu ? jgt_to_device_on(a, NULL) : jg_array_retain(a);
  jg_array *db = gpu ? jgt_to_device_on(b, NULL) : b != NULL ? jg_array_retain(b) : NULL;
  jg_array *out = NULL;
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = jgt_op_run(c->op, c->axis, da, db, &out, &err);
  char buf[512] = "";
  if (st == JG_OK) {
    jg_array *back = gpu ? jgt_to_host(out) : jg_array_retain(out);
    JGT_OK(jg_array_to_string(back, 500, buf, sizeof buf, NULL, &jgt_err_));
    jg_array_release(back);
  }
  const int failed = st != JG_OK || strcmp(buf, c->want) != 0;
  if (failed) {
    print_error("%s (form %d)%s: %s %s (want %s)\n", c->name, form, gpu ? " on cuda:0" : "",
                st == JG_OK ? buf : jg_status_name(st), st == JG_OK ? "" : err.message, c->want);
  }
  jg_array_release(out);
  jg_array_release(db);
  jg_array_release(da);
  jg_array_release(b);
  jg_array_release(a);
  return failed;
}

/* Option representations: the builder's indexed-option nodes (0), bit-masked as Arrow makes them
 * (1: least significant bit first, valid when set), bit-masked the other way (2: most
 * significant bit first, valid when clear), byte-masked (3: valid when 0). */
enum { JGT_OPT_FORMS = 4 };

/* `a` (host, as jgt_text makes it) with every indexed-option node over a non-empty content
 * rewritten in option representation `form`: the content is gathered into entry order (None
 * entries take content[0]) and the mask built from the index. */
static inline jg_array *jgt_reform(const jg_array *a, int form) {
  const jg_node_kind k = jg_array_kind(a);
  jg_array *out = NULL;
  if (k == JG_NODE_LIST_OFFSET) {
    jg_view off;
    JGT_OK(jg_array_buffer(a, 0, &off, &jgt_err_));
    jg_array *child = jgt_reform(jg_array_child(a, 0), form);
    JGT_OK(jg_array_list_offset(&off, child, &out, &jgt_err_));
    jg_array_release(child);
    return out;
  }
  if (k == JG_NODE_RECORD) {
    const int nf = jg_array_num_children(a);
    jg_array *fields[16];
    const char *names[16];
    assert_true(nf <= 16);
    for (int f = 0; f < nf; f++) {
      fields[f] = jgt_reform(jg_array_child(a, f), form);
      names[f] = jg_array_field_name(a, f);
    }
    JGT_OK(jg_array_record(nf, fields, names, jg_array_length(a), &out, &jgt_err_));
    for (int f = 0; f < nf; f++) jg_array_release(fields[f]);
    return out;
  }
  if (k != JG_NODE_INDEXED_OPTION) return jg_array_retain((jg_array *)(uintptr_t)a);
  const jg_array *content = jg_array_child(a, 0);
  const jg_len n = jg_array_length(a);
  jg_view iv;
  JGT_OK(jg_array_buffer(a, 0, &iv, &jgt_err_));
  if (form == 0 || jg_array_length(content) == 0) {
    jg_array *child = jgt_reform(content, form);
    JGT_OK(jg_array_indexed_option(&iv, child, &out, &jgt_err_));
    jg_array_release(child);
    return out;
  }
  int64_t *pos = calloc((size_t)n + 1, sizeof *pos);
  uint8_t *bytes = calloc((size_t)n + 8, 1);
  assert_non_null(pos);
  assert_non_null(bytes);
  for (jg_len i = 0; i < n; i++) {
    const char *p = (const char *)jg_view_data(&iv) + i * iv.layout.strides[0] * iv.layout.itemsize;
    const int64_t x = iv.dtype == JG_DTYPE_INT32 ? *(const int32_t *)p : *(const int64_t *)p;
    const bool valid = x >= 0;
    pos[i] = valid ? x : 0;
    if (form == 3) {
      bytes[i] = valid ? 0 : 1;
    } else if (valid == (form == 1)) {
      bytes[i / 8] |= (uint8_t)(form == 1 ? 1u << (i % 8) : 0x80u >> (i % 8));
    }
  }
  jg_array *where = NULL, *gathered = NULL;
  JGT_OK(jg_array_from_host(pos, n, JG_DTYPE_INT64, &where, &jgt_err_));
  JGT_OK(jg_array_take(content, where, NULL, &gathered, &jgt_err_));
  jg_array *child = jgt_reform(gathered, form);
  if (form == 3) {
    jg_view m = jgt_view(bytes, n, JG_DTYPE_INT8);
    JGT_OK(jg_array_byte_masked(&m, false, child, &out, &jgt_err_));
    jg_buffer_release(m.buffer);
  } else {
    jg_view m = jgt_view(bytes, (n + 7) / 8 > 0 ? (n + 7) / 8 : 1, JG_DTYPE_UINT8);
    JGT_OK(jg_array_bit_masked(&m, form == 1, form == 1, n, child, &out, &jgt_err_));
    jg_buffer_release(m.buffer);
  }
  jg_array_release(child);
  jg_array_release(gathered);
  jg_array_release(where);
  free(bytes);
  free(pos);
  return out;
}

/* The array of `text` (jgt_text) in option representation `form`. */
static inline jg_array *jgt_text_form(const char *text, int form) {
  jg_array *a = jgt_text(text);
  jg_array *r = jgt_reform(a, form);
  jg_array_release(a);
  return r;
}

#endif /* JAGGED_TESTS_JGT_OP_SWEEP_H */
