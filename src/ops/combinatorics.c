/* combinatorics.c: combinations and cartesian products of jagged lists (combinatorics.h), with
 * Awkward Array 2.x's semantics at axis=1 (ak.combinations, ak.argcombinations, ak.cartesian,
 * ak.argcartesian).
 *
 * How, on either backend (every step a catalog kernel or a copy on the array's stream):
 *  1. counts per list: combinations_counts (C(L, n) or C(L + n - 1, n), exact, overflow
 *     checked) or cartesian_counts (the product of the lists' lengths);
 *  2. offsets from 0 by an exclusive scan of the counts (src/kernels/scan on the GPU, as
 *     jg_array_from_counts does; a loop on the host), whose last entry (the total) is read back;
 *  3. k planes of `total` int64 positions: combinations_fill / cartesian_fill (on the GPU one
 *     thread per output tuple, so the writes are coalesced whatever the list lengths);
 *  4. the fields: the planes themselves (arg versions, local positions) or the items gathered
 *     through them with `take` (numbers; records field by field; options and lists by
 *     jgi_carry);
 *  5. a list-offset node over the offsets and a record / tuple of the fields, under a
 *     byte-masked node when lists were None.
 * Lists under an option node or regular lists are read as ranges first (list_range through
 * jgi_level_ranges, stops by ufunc_binary): a None list is empty there.
 *
 * Fast path (jg_array_combinations over lists of numbers of the 11 kernel dtypes, one dimension):
 * the values of the combinations are written straight into the fields, never through positions,
 * in two passes over tiles of COMB_TILE (1024) consecutive lists:
 *  1. combinations_tile_counts: each tile's number of combinations (-1 for a bad list or an
 *     overflow), then the exclusive scan of the tiles' sums with its one wait and read-back
 *     (the total, and the -1 seen as a negative count);
 *  2. combinations_values: each tile recounts its lists, writes the result offsets from its
 *     first position on, and the values of its combinations into k planes of one buffer of
 *     k * total values (the fields are the planes: each one dense).
 * Bad input (a -1 in pass 1, or a sum that overflows) runs the general path from step 1, which
 * reports the same error, index and message as always. Bytes on the GPU for n = 2 and float32:
 * pass 1 reads the starts and stops (the offsets once, through the cache), pass 2 reads them
 * again and the values, and writes the offsets and 8 bytes per pair. */
#include "jagged/combinatorics.h"

#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_carry.h"
#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_ops.h"
#include "internal/jgi_transfer.h"
#include "jagged/kernel.h"
#include "jagged/ufunc.h"
#include "kernels/scan/scan.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_combinations_counts;
extern JGI_HIDDEN const jg_kernel jgi_kernel_combinations_fill;
extern JGI_HIDDEN const jg_kernel jgi_kernel_cartesian_counts;
extern JGI_HIDDEN const jg_kernel jgi_kernel_cartesian_fill;
extern JGI_HIDDEN const jg_kernel jgi_kernel_take;
extern JGI_HIDDEN const jg_kernel jgi_kernel_ufunc_binary;
extern JGI_HIDDEN const jg_kernel jgi_kernel_combinations_tile_counts;
extern JGI_HIDDEN const jg_kernel jgi_kernel_combinations_values;

/* Lists per tile of the fast path (at most JGK_COMB_TILE, the CUDA kernels' shared memory). */
#define COMB_TILE 1024

/* ------------------------------------------------------------------------------------------ */
/* Shared steps                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* The top lists of an argument: starts/stops kernel arguments and the content; with None
 * lists (an option node on top), `valid` (bool per entry) and None lists empty. */
typedef struct top_lists {
  jg_kernel_arg starts, stops;
  const jg_array *content;
  bool has_valid;
  jg_view valid;
} top_lists;

/* out[i] = x[i] f y[i] for n entries (kernel ufunc_binary), into a new view of `dtype`. */
static jg_status binary(jgi_op_ctx *c, jg_ufunc f, jg_len n, jg_kernel_arg x, jg_kernel_arg y,
                        jg_dtype dtype, jg_view *out, jg_error *err) {
  JG_RETURN_NOT_OK(jgi_op_alloc(c, n, dtype, out, err));
  const jg_kernel_arg args[7] = {jg_arg_i64(n), jg_arg_i64((int64_t)f), jg_arg_i64(n), x,
                                 jg_arg_i64(n), y, jgi_op_out_arg(out)};
  return jg_kernel_call(&jgi_kernel_ufunc_binary, args, 7, &c->launch, err);
}

/* Lists under an option node (any representation), or regular lists: per-entry ranges
 * (jgi_level_ranges: a None list is empty), stops = starts + counts. */
static jg_status get_ranges(jgi_op_ctx *c, const jg_array *a, top_lists *l, jg_error *err) {
  jgi_ranges r;
  const jg_array *list = NULL;
  JG_RETURN_NOT_OK(jgi_level_ranges(c, a, NULL, a->length, NULL, &r, &list, err));
  jg_view stops;
  JG_RETURN_NOT_OK(binary(c, JG_UFUNC_ADD, r.n, jgi_op_out_arg(&r.start),
                          jgi_op_out_arg(&r.count), JG_DTYPE_INT64, &stops, err));
  l->starts = jgi_op_out_arg(&r.start);
  l->stops = jgi_op_out_arg(&stops);
  l->content = list->children[0];
  l->has_valid = r.has_option;
  l->valid = r.valid;
  return JG_OK;
}

static jg_status get_lists(jgi_op_ctx *c, const jg_array *a, top_lists *l, jg_error *err) {
  l->has_valid = false;
  if (!jgi_node_is_list(a->kind) && jgi_is_list_level(a)) return get_ranges(c, a, l, err);
  if (!jgi_node_is_list(a->kind)) {
    char type[128];
    if (jg_array_type_string(a, type, sizeof type, NULL, NULL) != JG_OK) type[0] = '\0';
    return jg_error_set(err, JG_ESHAPE, -1, "needs lists at axis 1; the array has type %s",
                        type);
  }
  l->content = a->children[0];
  return jgi_op_list_args(c, a, &l->starts, &l->stops, err);
}

static jg_status check_fields(const char *const *fields, int k, jg_error *err) {
  if (fields == NULL) return JG_OK;
  for (int q = 0; q < k; q++) {
    JG_RETURN_IF_AT(fields[q] == NULL || fields[q][0] == '\0', JG_EINVAL, err, q,
                    "field name %d is NULL or empty", q);
    for (int r = 0; r < q; r++) {
      JG_RETURN_IF_AT(strcmp(fields[q], fields[r]) == 0, JG_EINVAL, err, q,
                      "field name '%s' is repeated (fields %d and %d)", fields[q], r, q);
    }
  }
  return JG_OK;
}

/* Plane q (total entries) of a k * total buffer of positions. */
static jg_status plane(const jg_view *all, int q, int64_t total, jg_view *out, jg_error *err) {
  const jg_slice s = JG_SLICE((jg_len)q * total, (jg_len)(q + 1) * total, 1);
  return jg_view_slice(out, all, 1, &s, err);
}

/* The items of `content` at the `total` positions of `index` (on c's backend): numbers through
 * `take`, records field by field; an empty node (which no index can reach) as it is. */
static jg_status gather(jgi_op_ctx *c, const jg_array *content, const jg_view *index, int64_t total,
                        int depth, jg_array **out, jg_error *err) {
  JG_RETURN_IF(depth > 64, JG_ENOTSUP, err, "records nested more than 64 deep");
  switch (content->kind) {
    case JG_NODE_NUMERIC: {
      const jg_view *dv = &content->buffers[0];
      JG_RETURN_IF(dv->layout.ndim != 1, JG_ENOTSUP, err,
                   "items that are numbers of %d dimensions are not supported in this version",
                   (int)dv->layout.ndim);
      JG_RETURN_IF(dv->dtype == JG_DTYPE_FLOAT16, JG_EDTYPE, err, "cannot gather %s items",
                   jg_dtype_name(dv->dtype));
      const jg_len m = dv->layout.shape[0];
      jg_kernel_arg data, idx;
      jg_view ov;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, 0, m, &data, err));
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, index, 0, total, &idx, err));
      JG_RETURN_NOT_OK(jgi_op_alloc(c, total, dv->dtype, &ov, err));
      const jg_kernel_arg args[5] = {jg_arg_i64(total), jg_arg_i64(m), data, idx,
                                     jgi_op_out_arg(&ov)};
      JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_take, args, 5, &c->launch, err));
      return jg_array_numeric(&ov, out, err);
    }
    case JG_NODE_EMPTY:
      JG_RETURN_IF(total != 0, JG_EINTERNAL, err, "positions into an empty node");
      *out = jg_array_retain((jg_array *)content);
      return JG_OK;
    case JG_NODE_RECORD: {
      const int nf = content->nchildren;
      jg_array **f = calloc(nf > 0 ? (size_t)nf : 1, sizeof *f);
      const char **names = calloc(nf > 0 ? (size_t)nf : 1, sizeof *names);
      jg_status st =
          f == NULL || names == NULL ? jg_error_set(err, JG_ENOMEM, -1, "out of memory") : JG_OK;
      for (int q = 0; st == JG_OK && q < nf; q++) {
        names[q] = content->names != NULL ? content->names[q] : NULL;
        st = gather(c, content->children[q], index, total, depth + 1, &f[q], err);
      }
      if (st == JG_OK) {
        st = jg_array_record(nf, f, content->names != NULL ? names : NULL, total, out, err);
      }
      for (int q = 0; f != NULL && q < nf; q++) jg_array_release(f[q]);
      free(f);
      free(names);
      return st;
    }
    default: { /* options (any representation) and lists: carried through the positions */
      jg_kernel_arg idx;
      JG_RETURN_NOT_OK(jgi_op_view_arg(c, index, 0, total, &idx, err));
      return jgi_carry(c, content, idx, out, err);
    }
  }
}

/* The k fields of the result: planes of `pos` (local positions) or the items of contents[q]
 * gathered through them (global positions); then records or tuples over them, in lists. */
static jg_status build(jgi_op_ctx *c, int k, const jg_array *const *contents, bool arg,
                       const jg_view *pos, int64_t total, const char *const *fields, jg_array **out,
                       jg_error *err) {
  jg_array *f[4] = {NULL, NULL, NULL, NULL};
  jg_status st = JG_OK;
  for (int q = 0; st == JG_OK && q < k; q++) {
    jg_view pv;
    st = plane(pos, q, total, &pv, err);
    if (st != JG_OK) break;
    st =
        arg ? jg_array_numeric(&pv, &f[q], err) : gather(c, contents[q], &pv, total, 0, &f[q], err);
  }
  if (st == JG_OK) st = jg_array_record(k, f, fields, total, out, err);
  for (int q = 0; q < k; q++) jg_array_release(f[q]);
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Combinations                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* The content the fast path takes: numbers of one dimension of a kernel dtype. */
static bool fast_content(const jg_array *content) {
  if (content->kind != JG_NODE_NUMERIC) return false;
  const jg_view *dv = &content->buffers[0];
  if (dv->layout.ndim != 1 || dv->layout.shape[0] < content->length) return false;
  switch (dv->dtype) {
    case JG_DTYPE_BOOL:
    case JG_DTYPE_INT8:
    case JG_DTYPE_INT16:
    case JG_DTYPE_INT32:
    case JG_DTYPE_INT64:
    case JG_DTYPE_UINT8:
    case JG_DTYPE_UINT16:
    case JG_DTYPE_UINT32:
    case JG_DTYPE_UINT64:
    case JG_DTYPE_FLOAT32:
    case JG_DTYPE_FLOAT64:
      return true;
    default:
      return false;
  }
}

/* The fast path (see the top of the file) for the nl >= 1 lists `l` of numbers. *retry is set
 * when the input is bad (a bad list, an overflowing count or sum): the caller then runs the
 * general path, which reports the error exactly. */
static jg_status combinations_fast(jgi_op_ctx *c, jg_len nl, const top_lists *l, int n,
                                   bool replacement, const char *const *fields, jg_array **out,
                                   bool *retry, jg_error *err) {
  *retry = false;
  const jg_array *content = l->content;
  const jg_view *dv = &content->buffers[0];
  const jg_len m = content->length;
  const int64_t ntiles = (nl - 1) / COMB_TILE + 1;
  jg_launch launch = c->launch;
  launch.threads = 0;
  launch.block = 0;
  launch.grid = ntiles < ((int64_t)1 << 24) ? ntiles : ((int64_t)1 << 24);
  jg_view sums, tile_offsets, offsets, values;
  int64_t total = 0;
  JG_RETURN_NOT_OK(jgi_op_alloc(c, ntiles, JG_DTYPE_INT64, &sums, err));
  {
    const jg_kernel_arg args[9] = {jg_arg_i64(nl),     l->starts,
                                   l->stops,           jg_arg_i64(m),
                                   jg_arg_i64(n),      jg_arg_i64(replacement ? 1 : 0),
                                   jg_arg_i64(COMB_TILE), jg_arg_i64(ntiles),
                                   jgi_op_out_arg(&sums)};
    JG_RETURN_NOT_OK(
        jg_kernel_call(&jgi_kernel_combinations_tile_counts, args, 9, &launch, err));
  }
  jg_status st = jgi_op_counts_to_offsets(c, &sums, ntiles, &tile_offsets, &total, err);
  if (st == JG_EVALUE || st == JG_EOVERFLOW) {
    *retry = true;
    return st;
  }
  JG_RETURN_NOT_OK(st);
  int64_t size = 0;
  JG_RETURN_IF(jgi_mul_overflow(total, n, &size), JG_EOVERFLOW, err,
               "%lld combinations of %d overflow a size", (long long)total, n);
  JG_RETURN_NOT_OK(jgi_op_alloc(c, nl + 1, JG_DTYPE_INT64, &offsets, err));
  JG_RETURN_NOT_OK(jgi_op_alloc(c, size, dv->dtype, &values, err));
  jg_kernel_arg data;
  JG_RETURN_NOT_OK(jgi_op_view_arg(c, dv, 0, m, &data, err));
  {
    const jg_kernel_arg args[13] = {jg_arg_i64(nl),
                                    l->starts,
                                    l->stops,
                                    jg_arg_i64(m),
                                    data,
                                    jg_arg_i64(n),
                                    jg_arg_i64(replacement ? 1 : 0),
                                    jg_arg_i64(COMB_TILE),
                                    jg_arg_i64(ntiles),
                                    jgi_op_out_arg(&tile_offsets),
                                    jg_arg_i64(total),
                                    jgi_op_out_arg(&offsets),
                                    jgi_op_out_arg(&values)};
    JG_RETURN_NOT_OK(jg_kernel_call(&jgi_kernel_combinations_values, args, 13, &launch, err));
  }
  jg_array *f[4] = {NULL, NULL, NULL, NULL}, *rec = NULL;
  for (int q = 0; st == JG_OK && q < n; q++) {
    jg_view pv;
    st = plane(&values, q, total, &pv, err);
    if (st == JG_OK) st = jg_array_numeric(&pv, &f[q], err);
  }
  if (st == JG_OK) st = jg_array_record(n, f, fields, total, &rec, err);
  for (int q = 0; q < n; q++) jg_array_release(f[q]);
  if (st == JG_OK) st = jg_array_list_offset(&offsets, rec, out, err);
  jg_array_release(rec);
  return st;
}

static jg_status combinations(const char *fn, const jg_array *a, int n, bool replacement,
                              const char *const *fields, jg_stream stream, bool arg, jg_array **out,
                              jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(n < 1 || n > 4, JG_EINVAL, err, "%s: n = %d is outside [1, 4]", fn, n);
  JG_RETURN_NOT_OK(jgi_error_prefix(check_fields(fields, n, err), fn, err));

  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, a, stream, err));
  top_lists l;
  jg_status st = get_lists(&c, a, &l, err);
  const jg_len nl = a->length;
  if (st == JG_OK && !arg && nl > 0 && !l.has_valid && fast_content(l.content)) {
    jg_array *res = NULL;
    bool retry = false;
    st = combinations_fast(&c, nl, &l, n, replacement, fields, &res, &retry, err);
    if (!retry) {
      st = jgi_op_ctx_finish(&c, st, err);
      if (st != JG_OK) {
        jg_array_release(res);
        return st;
      }
      *out = res;
      return JG_OK;
    }
    /* Bad input: the general path below finds the error and reports it as it always has. */
    jg_error_clear(err);
    st = JG_OK;
  }
  jg_view counts, offsets, pos;
  int64_t total = 0;
  if (st == JG_OK) st = jgi_op_alloc(&c, nl, JG_DTYPE_INT64, &counts, err);
  if (st == JG_OK) {
    const jg_kernel_arg args[7] = {jg_arg_i64(nl),
                                   l.starts,
                                   l.stops,
                                   jg_arg_i64(l.content->length),
                                   jg_arg_i64(n),
                                   jg_arg_i64(replacement ? 1 : 0),
                                   jgi_op_out_arg(&counts)};
    st = jg_kernel_call(&jgi_kernel_combinations_counts, args, 7, &c.launch, err);
  }
  if (st == JG_OK)
    st = jgi_op_counts_to_offsets(&c, &counts, counts.layout.shape[0], &offsets, &total, err);
  int64_t size = 0;
  if (st == JG_OK && jgi_mul_overflow(total, n, &size)) {
    st = jg_error_set(err, JG_EOVERFLOW, -1, "%lld combinations of %d overflow a size",
                      (long long)total, n);
  }
  if (st == JG_OK) st = jgi_op_alloc(&c, size, JG_DTYPE_INT64, &pos, err);
  if (st == JG_OK) {
    const jg_kernel_arg args[9] = {
        jg_arg_i64(nl),           l.starts,          l.stops,
        jgi_op_out_arg(&offsets), jg_arg_i64(n),     jg_arg_i64(replacement ? 1 : 0),
        jg_arg_i64(arg),          jg_arg_i64(total), jgi_op_out_arg(&pos)};
    st = jg_kernel_call(&jgi_kernel_combinations_fill, args, 9, &c.launch, err);
  }
  jg_array *rec = NULL, *res = NULL;
  if (st == JG_OK) {
    const jg_array *contents[4] = {l.content, l.content, l.content, l.content};
    st = build(&c, n, contents, arg, &pos, total, fields, &rec, err);
  }
  if (st == JG_OK) st = jgi_make_list(&offsets, rec, l.has_valid ? &l.valid : NULL, &res, err);
  jg_array_release(rec);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

jg_status jg_array_combinations(const jg_array *a, int n, bool replacement,
                                const char *const *fields, jg_stream stream, jg_array **out,
                                jg_error *err) {
  return combinations("jg_array_combinations", a, n, replacement, fields, stream, false, out, err);
}

jg_status jg_array_argcombinations(const jg_array *a, int n, bool replacement,
                                   const char *const *fields, jg_stream stream, jg_array **out,
                                   jg_error *err) {
  return combinations("jg_array_argcombinations", a, n, replacement, fields, stream, true, out,
                      err);
}

/* ------------------------------------------------------------------------------------------ */
/* Cartesian products                                                                          */
/* ------------------------------------------------------------------------------------------ */

static jg_status cartesian(const char *fn, int narrays, const jg_array *const *arrays, bool nested,
                           const char *const *fields, jg_stream stream, bool arg, jg_array **out,
                           jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(narrays < 2 || narrays > 3, JG_EINVAL, err, "%s: narrays = %d is outside [2, 3]", fn,
               narrays);
  JG_RETURN_IF(arrays == NULL, JG_EINVAL, err, "%s: arrays is NULL", fn);
  for (int q = 0; q < narrays; q++) {
    JG_RETURN_IF_AT(arrays[q] == NULL, JG_EINVAL, err, q, "%s: arrays[%d] is NULL", fn, q);
  }
  JG_RETURN_NOT_OK(jgi_error_prefix(check_fields(fields, narrays, err), fn, err));
  static const char *const names[3] = {"arrays[0]", "arrays[1]", "arrays[2]"};
  for (int q = 1; q < narrays; q++) {
    JG_RETURN_NOT_OK(jgi_error_prefix(
        jg_array_check_same_backend(arrays[0], names[0], arrays[q], names[q], err), fn, err));
  }
  for (int q = 1; q < narrays; q++) {
    JG_RETURN_IF_AT(arrays[q]->length != arrays[0]->length, JG_ESHAPE, err, q,
                    "%s: cannot take the cartesian product of arrays of lengths %lld and %lld "
                    "(array %d)",
                    fn, (long long)arrays[0]->length, (long long)arrays[q]->length, q);
  }

  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, fn, arrays[0], stream, err));
  top_lists l[3];
  jg_status st = JG_OK;
  for (int q = 0; st == JG_OK && q < narrays; q++) st = get_lists(&c, arrays[q], &l[q], err);
  if (st == JG_OK && narrays == 2) l[2] = l[1];
  const jg_len nl = arrays[0]->length;
  jg_view counts, counts0, offsets, offsets0, pos, inner;
  int64_t total = 0, ninner = 0;
  if (st == JG_OK) st = jgi_op_alloc(&c, nl, JG_DTYPE_INT64, &counts, err);
  if (st == JG_OK) st = jgi_op_alloc(&c, nl, JG_DTYPE_INT64, &counts0, err);
  if (st == JG_OK) {
    const jg_kernel_arg args[13] = {jg_arg_i64(nl),
                                    jg_arg_i64(narrays),
                                    l[0].starts,
                                    l[0].stops,
                                    jg_arg_i64(l[0].content->length),
                                    l[1].starts,
                                    l[1].stops,
                                    jg_arg_i64(l[1].content->length),
                                    l[2].starts,
                                    l[2].stops,
                                    jg_arg_i64(l[2].content->length),
                                    jgi_op_out_arg(&counts),
                                    jgi_op_out_arg(&counts0)};
    st = jg_kernel_call(&jgi_kernel_cartesian_counts, args, 13, &c.launch, err);
  }
  if (st == JG_OK)
    st = jgi_op_counts_to_offsets(&c, &counts, counts.layout.shape[0], &offsets, &total, err);
  if (st == JG_OK && nested)
    st = jgi_op_counts_to_offsets(&c, &counts0, counts0.layout.shape[0], &offsets0, &ninner, err);
  if (st == JG_OK && !nested) offsets0 = offsets;
  int64_t size = 0;
  if (st == JG_OK && jgi_mul_overflow(total, narrays, &size)) {
    st = jg_error_set(err, JG_EOVERFLOW, -1, "%lld tuples of %d overflow a size", (long long)total,
                      narrays);
  }
  if (st == JG_OK) st = jgi_op_alloc(&c, size, JG_DTYPE_INT64, &pos, err);
  if (st == JG_OK) st = jgi_op_alloc(&c, ninner + 1, JG_DTYPE_INT64, &inner, err);
  if (st == JG_OK) {
    const jg_kernel_arg args[15] = {jg_arg_i64(nl),
                                    jg_arg_i64(narrays),
                                    l[0].starts,
                                    l[0].stops,
                                    l[1].starts,
                                    l[1].stops,
                                    l[2].starts,
                                    l[2].stops,
                                    jgi_op_out_arg(&offsets),
                                    jg_arg_i64(total),
                                    jg_arg_i64(arg),
                                    jgi_op_out_arg(&pos),
                                    jg_arg_i64(nested),
                                    jgi_op_out_arg(&offsets0),
                                    jgi_op_out_arg(&inner)};
    st = jg_kernel_call(&jgi_kernel_cartesian_fill, args, 15, &c.launch, err);
  }
  /* None where any array's list is None. */
  jg_view valid;
  bool has_valid = false;
  for (int q = 0; st == JG_OK && q < narrays; q++) {
    if (!l[q].has_valid) continue;
    if (has_valid) {
      st = binary(&c, JG_UFUNC_LOGICAL_AND, nl, jgi_op_out_arg(&valid),
                  jgi_op_out_arg(&l[q].valid), JG_DTYPE_BOOL, &valid, err);
    } else {
      valid = l[q].valid;
    }
    has_valid = true;
  }
  jg_array *rec = NULL, *mid = NULL, *res = NULL;
  if (st == JG_OK) {
    const jg_array *contents[3] = {l[0].content, l[1].content, l[2].content};
    st = build(&c, narrays, contents, arg, &pos, total, fields, &rec, err);
  }
  if (st == JG_OK && nested) {
    st = jg_array_list_offset(&inner, rec, &mid, err);
    if (st == JG_OK) st = jgi_make_list(&offsets0, mid, has_valid ? &valid : NULL, &res, err);
  } else if (st == JG_OK) {
    st = jgi_make_list(&offsets, rec, has_valid ? &valid : NULL, &res, err);
  }
  jg_array_release(rec);
  jg_array_release(mid);
  st = jgi_op_ctx_finish(&c, st, err);
  if (st != JG_OK) {
    jg_array_release(res);
    return st;
  }
  *out = res;
  return JG_OK;
}

jg_status jg_array_cartesian(int narrays, const jg_array *const *arrays, bool nested,
                             const char *const *fields, jg_stream stream, jg_array **out,
                             jg_error *err) {
  return cartesian("jg_array_cartesian", narrays, arrays, nested, fields, stream, false, out, err);
}

jg_status jg_array_argcartesian(int narrays, const jg_array *const *arrays, bool nested,
                                const char *const *fields, jg_stream stream, jg_array **out,
                                jg_error *err) {
  return cartesian("jg_array_argcartesian", narrays, arrays, nested, fields, stream, true, out,
                   err);
}
