/* physics.c: four-vector helpers (physics.h): sums of two or three four-vectors, the mass and
 * pt of a sum, deltaPhi, deltaR and the transverse mass, on records with pt, eta, phi, mass.
 *
 * How: the fields each operation reads are taken out of the records (jg_array_field: zero-copy,
 * keeping the structure above the record), all of them are aligned by one jgi_broadcast call (at
 * most 8: the two vectors of a sum), and one call of the catalog kernel `fourvec` computes the
 * results over the aligned elements, on the data's backend. A sum of three vectors is two calls:
 * the first two vectors' Cartesian sum (float64, op 1) is wrapped into the broadcast structure,
 * then broadcast with the third vector's fields (op 4..7). The results are wrapped back into the
 * broadcast structure: a numeric array, or for a sum a record of pt, eta, phi, mass placed where
 * the numeric leaf would be (the nodes above remade over their own buffers). */
#include "jagged/physics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_broadcast.h"
#include "internal/jgi_check.h"
#include "internal/jgi_ops.h"
#include "jagged/kernel.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_fourvec;
extern JGI_HIDDEN const jg_kernel jgi_kernel_cast;

/* The fourvec kernel's operation codes (fourvec.json). */
enum {
  OP_SUM = 0,      /* vector + vector, + kind: 0 pt/eta/phi/mass, 1 Cartesian, 2 mass, 3 pt */
  OP_CART_SUM = 4, /* Cartesian + vector, + kind */
  OP_DELTA_PHI = 8,
  OP_DELTA_R = 9,
  OP_MT = 10
};
enum { KIND_VECTOR = 0, KIND_CARTESIAN = 1, KIND_MASS = 2, KIND_PT = 3 };

static const char *const VECTOR_FIELDS[4] = {"pt", "eta", "phi", "mass"};

/* The broadcast inputs' names in messages. */
static const char *const NAMES_V01[8] = {"v[0].pt", "v[0].eta", "v[0].phi", "v[0].mass",
                                         "v[1].pt", "v[1].eta", "v[1].phi", "v[1].mass"};
static const char *const NAMES_V012[8] = {"v[0] + v[1]", "v[0] + v[1]", "v[0] + v[1]",
                                          "v[0] + v[1]", "v[2].pt",     "v[2].eta",
                                          "v[2].phi",    "v[2].mass"};
static const char *const NAMES_PHI[2] = {"a.phi", "b.phi"};
static const char *const NAMES_ETA_PHI[4] = {"a.eta", "a.phi", "b.eta", "b.phi"};
static const char *const NAMES_PT_PHI[4] = {"a.pt", "a.phi", "b.pt", "b.phi"};

/* ------------------------------------------------------------------------------------------ */
/* Arguments                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static jg_status read_options(const char *fn, const jg_fourvec_options *opt, jg_dtype *dtype,
                              jg_stream *stream, jg_error *err) {
  *dtype = JG_DTYPE_FLOAT64;
  *stream = NULL;
  if (opt == NULL) return JG_OK;
  JG_RETURN_IF(opt->dtype != JG_DTYPE_INVALID && opt->dtype != JG_DTYPE_FLOAT64 &&
                   opt->dtype != JG_DTYPE_FLOAT32,
               JG_EINVAL, err, "%s: the result dtype must be float64 or float32, not %s", fn,
               jg_dtype_name(opt->dtype));
  if (opt->dtype == JG_DTYPE_FLOAT32) *dtype = JG_DTYPE_FLOAT32;
  *stream = opt->stream;
  return JG_OK;
}

/* The first record node below `a` through single-content nodes, or NULL. */
static const jg_array *find_record(const jg_array *a) {
  for (int depth = 0; a != NULL && depth < 1000; depth++) {
    if (a->kind == JG_NODE_RECORD) return a;
    if (!jgi_node_has_one_content(a->kind)) return NULL;
    a = a->children[0];
  }
  return NULL;
}

/* The fields `names[0..nf)` of the records of `v` (named `what` in messages) into outs (new
 * references; released by the caller, also on error). */
static jg_status take_fields(const char *fn, const char *what, int index, const jg_array *v, int nf,
                             const char *const *names, jg_array **outs, jg_error *err) {
  const jg_array *rec = find_record(v);
  if (rec == NULL) {
    char type[160];
    if (jg_array_type_string(v, type, sizeof type, NULL, NULL) != JG_OK) type[0] = '\0';
    return jg_error_set(err, JG_EINVAL, index,
                        "%s: %s is not an array of records with fields %s (its type is %s)", fn,
                        what,
                        nf == 1   ? "phi"
                        : nf == 4 ? "pt, eta, phi, mass"
                                  : (strcmp(names[0], "pt") == 0 ? "pt, phi" : "eta, phi"),
                        type);
  }
  for (int k = 0; k < nf; k++) {
    if (jg_array_field_index(rec, names[k]) < 0) {
      char list[200];
      size_t w = 0;
      list[0] = '\0';
      for (int j = 0; j < rec->nchildren && w + 40 < sizeof list; j++) {
        const char *nm = jg_array_field_name(rec, j);
        char num[16];
        if (nm == NULL) {
          snprintf(num, sizeof num, "%d", j);
          nm = num;
        }
        const int c = snprintf(list + w, sizeof list - w, "%s%.32s", j == 0 ? "" : ", ", nm);
        if (c > 0) w += (size_t)c;
      }
      return jg_error_set(err, JG_EINVAL, index, "%s: %s has no field '%s' (its fields: %s)", fn,
                          what, names[k], rec->nchildren == 0 ? "none" : list);
    }
    jg_status st = jg_array_field(v, names[k], &outs[k], err);
    if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  }
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* One kernel call over broadcast fields                                                       */
/* ------------------------------------------------------------------------------------------ */

/* `leaf` as float64 (the cast kernel) unless it is already. */
static jg_status leaf_f64(jgi_op_ctx *c, const jg_kernel_arg *leaf, jg_kernel_arg *out,
                          jg_error *err) {
  if (leaf->dtype == JG_DTYPE_FLOAT64) {
    *out = *leaf;
    return JG_OK;
  }
  const jg_dtype d = leaf->dtype;
  const bool castable = (d >= JG_DTYPE_BOOL && d <= JG_DTYPE_UINT64) || d == JG_DTYPE_FLOAT32;
  JG_RETURN_IF(!castable, JG_EDTYPE, err,
               "four-vector fields must be numbers (bool, integers, float32 or float64), not %s",
               jg_dtype_name(d));
  const jg_len n = leaf->v.array.length;
  jg_view v;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, JG_DTYPE_FLOAT64, &v, err));
  const jg_kernel_arg a[3] = {jg_arg_i64(n), *leaf, jgi_op_out_arg(&v)};
  JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_cast, a, 3, &c->launch, err));
  *out = jgi_op_out_arg(&v);
  return JG_OK;
}

/* Broadcasts `nin` (<= 8) field arrays into *b (reset by the caller) and runs fourvec `op` over
 * them into `nout` (1 or 4) new views of `rdtype`. */
static jg_status run_fourvec(jgi_op_ctx *c, int64_t op, int nin, const jg_array *const *inputs,
                             const char *const *names, jg_dtype rdtype, int nout, jgi_broadcast *b,
                             jg_view *outs, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_broadcast_init_named(c, nin, inputs, names, b, err));
  const int64_t n = b->length;
  /* One input type for the kernel: the leaves' common float dtype, else float64. */
  jg_dtype t = b->leaves[0].dtype;
  for (int k = 1; k < nin; k++) {
    if (b->leaves[k].dtype != t) t = JG_DTYPE_INVALID;
  }
  if (t != JG_DTYPE_FLOAT32 && t != JG_DTYPE_FLOAT64) t = JG_DTYPE_FLOAT64;
  jg_kernel_arg args[15];
  int64_t full = 0;
  for (int k = 0; k < 8; k++) {
    if (k < nin) {
      if (t == JG_DTYPE_FLOAT64) {
        JG_RETURN_NOT_OK(leaf_f64(c, &b->leaves[k], &args[3 + k], err));
      } else {
        args[3 + k] = b->leaves[k];
      }
      if (!b->is_scalar[k]) full |= (int64_t)1 << k;
    } else {
      args[3 + k] = jg_arg_array(NULL, 0, t, c->device);
    }
  }
  for (int k = 0; k < 4; k++) {
    if (k < nout) {
      JG_RETURN_NOT_OK(jgi_op_alloc(c, n, rdtype, &outs[k], err));
      args[11 + k] = jgi_op_out_arg(&outs[k]);
    } else {
      args[11 + k] = jg_arg_array(NULL, 0, rdtype, c->device);
    }
  }
  args[0] = jg_arg_i64(n);
  args[1] = jg_arg_i64(op);
  args[2] = jg_arg_i64(full);
  return jg_kernel_call(&jgi_kernel_fourvec, args, 15, &c->launch, err);
}

/* The records pt, eta, phi, mass over views[0..4) in the broadcast structure of b. */
static jg_status wrap_vectors(const jgi_broadcast *b, const jg_view *views, jg_array **out,
                              jg_error *err) {
  jg_array *w = NULL;
  JG_RETURN_NOT_OK(jgi_broadcast_wrap(b, &views[0], &w, err));
  /* The chain of single-content nodes above the numeric leaf made over views[0]. */
  const jg_array *chain[1024];
  int len = 0;
  const jg_array *p = w;
  while (len < 1023 && jgi_node_has_one_content(p->kind)) {
    chain[len++] = p;
    p = p->children[0];
  }
  jg_status st = JG_OK;
  jg_array *fields[4] = {NULL, NULL, NULL, NULL};
  jg_array *cur = NULL;
  if (p->kind == JG_NODE_NUMERIC && p->length == b->length &&
      jg_view_data(&p->buffers[0]) == jg_view_data(&views[0])) {
    for (int k = 0; k < 4 && st == JG_OK; k++) st = jg_array_numeric(&views[k], &fields[k], err);
    if (st == JG_OK) st = jg_array_record(4, fields, VECTOR_FIELDS, b->length, &cur, err);
    for (int i = len - 1; i >= 0 && st == JG_OK; i--) {
      jg_array *up = NULL;
      st = jgi_op_remake(chain[i], cur, &up, err);
      jg_array_release(cur);
      cur = up;
    }
  } else {
    /* Another shape of wrap: zip the four wrapped fields (same structure, shared lists). */
    fields[0] = jg_array_retain(w);
    for (int k = 1; k < 4 && st == JG_OK; k++)
      st = jgi_broadcast_wrap(b, &views[k], &fields[k], err);
    if (st == JG_OK) st = jg_array_zip(4, fields, VECTOR_FIELDS, -1, &cur, err);
  }
  for (int k = 0; k < 4; k++) jg_array_release(fields[k]);
  jg_array_release(w);
  if (st != JG_OK) {
    jg_array_release(cur);
    return st;
  }
  *out = cur;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* The operations                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void release_all(jg_array **a, int n) {
  for (int k = 0; k < n; k++) {
    jg_array_release(a[k]);
    a[k] = NULL;
  }
}

static jg_status check_backends(const char *fn, int n, const jg_array *const *v,
                                const char *const *what, jg_error *err) {
  for (int k = 1; k < n; k++) {
    const jg_status st = jg_array_check_same_backend(v[0], what[0], v[k], what[k], err);
    if (st != JG_OK) {
      if (err != NULL) err->index = k;
      return jgi_error_prefix(st, fn, err);
    }
  }
  return JG_OK;
}

/* Sum (kind KIND_VECTOR), mass or pt of the sum of n vectors. */
static jg_status vector_sum(const char *fn, int n, const jg_array *const *v, int kind,
                            const jg_fourvec_options *opt, jg_array **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(v == NULL, JG_EINVAL, err, "%s: v is NULL", fn);
  JG_RETURN_IF(n != 2 && n != 3, JG_EINVAL, err, "%s: n is %d; sums take 2 or 3 four-vectors", fn,
               n);
  static const char *const what[3] = {"v[0]", "v[1]", "v[2]"};
  for (int k = 0; k < n; k++) {
    JG_RETURN_IF_AT(v[k] == NULL, JG_EINVAL, err, k, "%s: v[%d] is NULL", fn, k);
  }
  jg_dtype rdtype;
  jg_stream stream;
  JG_RETURN_NOT_OK(read_options(fn, opt, &rdtype, &stream, err));
  JG_RETURN_NOT_OK(check_backends(fn, n, v, what, err));

  jg_array *fields[12] = {NULL};
  jg_status st = JG_OK;
  for (int k = 0; k < n && st == JG_OK; k++) {
    st = take_fields(fn, what[k], k, v[k], 4, VECTOR_FIELDS, &fields[4 * k], err);
  }
  if (st != JG_OK) {
    release_all(fields, 12);
    return st;
  }
  jgi_op_ctx c;
  st = jgi_op_ctx_init(&c, fn, v[0], stream, err);
  if (st != JG_OK) {
    release_all(fields, 12);
    return st;
  }
  const int nout = kind == KIND_VECTOR ? 4 : 1;
  jgi_broadcast b;
  memset(&b, 0, sizeof b);
  jg_view outs[4];
  jg_array *res = NULL;
  if (n == 2) {
    st = run_fourvec(&c, OP_SUM + kind, 8, (const jg_array *const *)fields, NAMES_V01, rdtype, nout,
                     &b, outs, err);
  } else {
    /* The first two vectors' Cartesian sum, in float64, in their broadcast structure. */
    jg_view cart[4];
    jg_array *inputs[8] = {NULL};
    st = run_fourvec(&c, OP_SUM + KIND_CARTESIAN, 8, (const jg_array *const *)fields, NAMES_V01,
                     JG_DTYPE_FLOAT64, 4, &b, cart, err);
    for (int k = 0; k < 4 && st == JG_OK; k++)
      st = jgi_broadcast_wrap(&b, &cart[k], &inputs[k], err);
    jgi_broadcast_reset(&b);
    memset(&b, 0, sizeof b);
    for (int k = 0; k < 4; k++) inputs[4 + k] = jg_array_retain(fields[8 + k]);
    if (st == JG_OK) {
      st = run_fourvec(&c, OP_CART_SUM + kind, 8, (const jg_array *const *)inputs, NAMES_V012,
                       rdtype, nout, &b, outs, err);
    }
    release_all(inputs, 8);
  }
  if (st == JG_OK) {
    st = kind == KIND_VECTOR ? wrap_vectors(&b, outs, &res, err)
                             : jgi_broadcast_wrap(&b, &outs[0], &res, err);
  }
  jgi_broadcast_reset(&b);
  release_all(fields, 12);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

/* deltaPhi, deltaR or mT of a and b. */
static jg_status pair_op(const char *fn, const jg_array *a, const jg_array *b, int64_t op,
                         const jg_fourvec_options *opt, jg_array **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF_AT(a == NULL, JG_EINVAL, err, 0, "%s: a is NULL", fn);
  JG_RETURN_IF_AT(b == NULL, JG_EINVAL, err, 1, "%s: b is NULL", fn);
  jg_dtype rdtype;
  jg_stream stream;
  JG_RETURN_NOT_OK(read_options(fn, opt, &rdtype, &stream, err));
  static const char *const what[2] = {"a", "b"};
  const jg_array *v[2] = {a, b};
  JG_RETURN_NOT_OK(check_backends(fn, 2, v, what, err));
  static const char *const phi[1] = {"phi"};
  static const char *const eta_phi[2] = {"eta", "phi"};
  static const char *const pt_phi[2] = {"pt", "phi"};
  const int nf = op == OP_DELTA_PHI ? 1 : 2;
  const char *const *names = op == OP_DELTA_PHI ? phi : op == OP_DELTA_R ? eta_phi : pt_phi;
  jg_array *fields[4] = {NULL};
  jg_status st = take_fields(fn, "a", 0, a, nf, names, &fields[0], err);
  if (st == JG_OK) st = take_fields(fn, "b", 1, b, nf, names, &fields[nf], err);
  if (st != JG_OK) {
    release_all(fields, 4);
    return st;
  }
  jgi_op_ctx c;
  st = jgi_op_ctx_init(&c, fn, a, stream, err);
  if (st != JG_OK) {
    release_all(fields, 4);
    return st;
  }
  jgi_broadcast bc;
  memset(&bc, 0, sizeof bc);
  jg_view o;
  jg_array *res = NULL;
  const char *const *bnames = op == OP_DELTA_PHI ? NAMES_PHI
                              : op == OP_DELTA_R ? NAMES_ETA_PHI
                                                 : NAMES_PT_PHI;
  st =
      run_fourvec(&c, op, 2 * nf, (const jg_array *const *)fields, bnames, rdtype, 1, &bc, &o, err);
  if (st == JG_OK) st = jgi_broadcast_wrap(&bc, &o, &res, err);
  jgi_broadcast_reset(&bc);
  release_all(fields, 4);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

jg_status jg_fourvec_sum(int n, const jg_array *const *v, const jg_fourvec_options *opt,
                         jg_array **out, jg_error *err) {
  return vector_sum("jg_fourvec_sum", n, v, KIND_VECTOR, opt, out, err);
}

jg_status jg_fourvec_mass(int n, const jg_array *const *v, const jg_fourvec_options *opt,
                          jg_array **out, jg_error *err) {
  return vector_sum("jg_fourvec_mass", n, v, KIND_MASS, opt, out, err);
}

jg_status jg_fourvec_pt(int n, const jg_array *const *v, const jg_fourvec_options *opt,
                        jg_array **out, jg_error *err) {
  return vector_sum("jg_fourvec_pt", n, v, KIND_PT, opt, out, err);
}

jg_status jg_fourvec_delta_phi(const jg_array *a, const jg_array *b, const jg_fourvec_options *opt,
                               jg_array **out, jg_error *err) {
  return pair_op("jg_fourvec_delta_phi", a, b, OP_DELTA_PHI, opt, out, err);
}

jg_status jg_fourvec_delta_r(const jg_array *a, const jg_array *b, const jg_fourvec_options *opt,
                             jg_array **out, jg_error *err) {
  return pair_op("jg_fourvec_delta_r", a, b, OP_DELTA_R, opt, out, err);
}

jg_status jg_fourvec_mt(const jg_array *a, const jg_array *b, const jg_fourvec_options *opt,
                        jg_array **out, jg_error *err) {
  return pair_op("jg_fourvec_mt", a, b, OP_MT, opt, out, err);
}
