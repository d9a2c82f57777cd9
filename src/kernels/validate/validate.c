/* validate.c: jg_array_validate (array.h): the tree walk, the MINIMAL and DEFAULT checks,
 * dispatch of the FULL-level scans to the host (validate_cpu.c) or the GPU (validate_cuda.cu),
 * and the messages.
 *
 * The walk visits nodes in pre-order (a node, then its children in order), twice:
 *   1. MINIMAL on every node: what needs no buffer reads (kinds, counts of buffers and children,
 *      dtypes, ranks, lengths against buffer extents and content lengths, devices);
 *   2. DEFAULT (first and last offsets of each list-offset node) or FULL (every offset, start,
 *      stop and index; FULL implies what DEFAULT checks, so DEFAULT's reads are skipped there).
 * The first failure in that order is reported, so a FULL scan names the first bad position of
 * the first bad node. On the host each scan runs as the walk meets it; for a cuda array the walk
 * collects the scans, runs them all on the GPU (one device word per scan, one synchronisation),
 * picks the first failing one in walk order and walks again to name it. Values quoted in
 * messages are read from the device one element at a time; whole buffers never move.
 *
 * Rules (Awkward, src/awkward/contents/listoffsetarray.py and listarray.py): offsets need not start at 0 and content may
 * extend past the last offset; a list with start == stop may have any start; otherwise
 * 0 <= start < stop <= len(content); an option index is None when negative, else below
 * len(content). */
#include "kernels/validate/validate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_layout.h"
#include "internal/jgi_transfer.h"

/* Deepest nesting the walk follows (a guard against runaway recursion on corrupt trees). */
#define MAX_DEPTH 1000
/* Bytes of the field path quoted in messages ("jets.pt"); longer paths end in "...". */
#define PATH_SIZE 160

/* ------------------------------------------------------------------------------------------ */
/* The walk                                                                                    */
/* ------------------------------------------------------------------------------------------ */

typedef struct visit {
  const jg_array *a;
  int depth;        /* Awkward's depth: 1 at the root, +1 below each list or regular node */
  int64_t ordinal;  /* pre-order position of the node */
  const char *path; /* record fields on the way down, joined with '.'; "" when none */
} visit;

typedef jg_status (*visit_fn)(void *state, const visit *v, jg_error *err);

typedef struct walker {
  visit_fn fn;
  void *state;
  int64_t ordinal;
  char path[PATH_SIZE];
} walker;

/* Formats a failure of node `v`: `status`, `index`, the message and " (<kind> at depth D)" or
 * " (<kind> at depth D, field <path>)". */
static jg_status vfail(jg_status status, const visit *v, int64_t index, jg_error *err,
                       const char *fmt, va_list ap) {
  if (err == NULL) return status;
  char msg[JG_ERROR_MESSAGE_SIZE];
  vsnprintf(msg, sizeof msg, fmt, ap);
  return jg_error_set(err, status, index, "%s (%s at depth %d%s%s)", msg,
                      jgi_array_node_name(v->a->kind), v->depth, v->path[0] ? ", field " : "",
                      v->path);
}

/* vfail with JG_EVALUE: a malformed node or a bad list. */
static jg_status fail(const visit *v, int64_t index, jg_error *err, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static jg_status fail(const visit *v, int64_t index, jg_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const jg_status st = vfail(JG_EVALUE, v, index, err, fmt, ap);
  va_end(ap);
  return st;
}

/* vfail with JG_EINDEX: an option index past its content (the kernels' status for it). */
static jg_status fail_index(const visit *v, int64_t index, jg_error *err, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static jg_status fail_index(const visit *v, int64_t index, jg_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const jg_status st = vfail(JG_EINDEX, v, index, err, fmt, ap);
  va_end(ap);
  return st;
}

/* Appends ".name" (or "name" at the start) to the path; returns the old length (a NUL written
 * there undoes the push). A path that no longer fits ends in "...". */
static size_t path_push(walker *w, const char *name) {
  const size_t old = strlen(w->path);
  if (old + 4 >= sizeof w->path) return old; /* already ends in "..." */
  int n = snprintf(w->path + old, sizeof w->path - old, "%s%s", old > 0 ? "." : "", name);
  if (n < 0 || (size_t)n >= sizeof w->path - old) {
    memcpy(w->path + sizeof w->path - 4, "...", 4);
  }
  return old;
}

static jg_status walk(walker *w, const jg_array *a, int nesting, int depth, jg_error *err) {
  const visit v = {a, depth, w->ordinal++, w->path};
  if (nesting > MAX_DEPTH) return fail(&v, -1, err, "nested deeper than %d levels", MAX_DEPTH);
  const bool list = a->kind == JG_NODE_LIST_OFFSET || a->kind == JG_NODE_LIST ||
                    a->kind == JG_NODE_REGULAR;
  JG_RETURN_NOT_OK(w->fn(w->state, &v, err));
  for (int k = 0; k < a->nchildren; k++) {
    size_t old = 0;
    const bool field = a->kind == JG_NODE_RECORD;
    if (field) {
      char digits[16];
      snprintf(digits, sizeof digits, "%d", k);
      old = path_push(w, a->names != NULL ? a->names[k] : digits);
    }
    const jg_status st = walk(w, a->children[k], nesting + 1, depth + (list ? 1 : 0), err);
    if (field) w->path[old] = '\0';
    JG_RETURN_NOT_OK(st);
  }
  return JG_OK;
}

static jg_status walk_tree(const jg_array *root, visit_fn fn, void *state, jg_error *err) {
  walker w;
  w.fn = fn;
  w.state = state;
  w.ordinal = 0;
  w.path[0] = '\0';
  return walk(&w, root, 0, 1, err);
}

/* ------------------------------------------------------------------------------------------ */
/* MINIMAL                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static bool is_index_dtype(jg_dtype d) {
  return d == JG_DTYPE_INT32 || d == JG_DTYPE_INT64;
}

/* Buffers and children (-1: any number) each kind has. */
static void expected_counts(jg_node_kind kind, int *nbuffers, int *nchildren) {
  *nbuffers = 0;
  *nchildren = 1;
  switch (kind) {
    case JG_NODE_NUMERIC:
      *nbuffers = 1;
      *nchildren = 0;
      break;
    case JG_NODE_EMPTY:
      *nchildren = 0;
      break;
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED:
    case JG_NODE_INDEXED_OPTION:
      *nbuffers = 1;
      break;
    case JG_NODE_LIST:
      *nbuffers = 2;
      break;
    case JG_NODE_RECORD:
      *nchildren = -1;
      break;
    case JG_NODE_REGULAR:
      break;
  }
}

/* A 1-D view with an index dtype (what the offsets, starts, stops and index buffers need). */
static jg_status check_index_buffer(const visit *v, int k, jg_error *err) {
  const jg_view *b = &v->a->buffers[k];
  const char *name = jgi_array_buffer_name(v->a->kind, k);
  if (b->layout.ndim != 1) return fail(v, -1, err, "%s is %d-D, not 1-D", name, b->layout.ndim);
  if (!is_index_dtype(b->dtype)) {
    return fail(v, -1, err, "%s has dtype %s, not int32 or int64", name, jg_dtype_name(b->dtype));
  }
  return JG_OK;
}

static jg_status check_mask_buffer(const visit *v, bool bytes_only, jg_error *err) {
  const jg_view *b = &v->a->buffers[0];
  if (b->layout.ndim != 1) return fail(v, -1, err, "mask is %d-D, not 1-D", b->layout.ndim);
  const bool ok = bytes_only ? b->dtype == JG_DTYPE_UINT8
                             : (b->dtype == JG_DTYPE_INT8 || b->dtype == JG_DTYPE_UINT8 ||
                                b->dtype == JG_DTYPE_BOOL);
  if (!ok) {
    return fail(v, -1, err, "mask has dtype %s, not %s", jg_dtype_name(b->dtype),
                bytes_only ? "uint8" : "int8, uint8 or bool");
  }
  return JG_OK;
}

static jg_status check_content_length(const visit *v, jg_len need, jg_error *err) {
  const jg_len have = v->a->children[0]->length;
  if (have < need) {
    return fail(v, -1, err, "content has %lld entries, fewer than the %lld needed", (long long)have,
                (long long)need);
  }
  return JG_OK;
}

static jg_status minimal_node(void *state, const visit *v, jg_error *err) {
  (void)state;
  const jg_array *a = v->a;
  char dn[32], dn2[32];
  if (a->kind < JG_NODE_NUMERIC || a->kind > JG_NODE_INDEXED_OPTION) {
    return fail(v, -1, err, "unknown node kind %d", (int)a->kind);
  }
  if (a->length < 0) return fail(v, -1, err, "negative length %lld", (long long)a->length);

  /* Counts of buffers and children. */
  int nbuf = 0, nchild = 0;
  expected_counts(a->kind, &nbuf, &nchild);
  if (a->nbuffers != nbuf) {
    return fail(v, -1, err, "%d buffers where %d are needed", a->nbuffers, nbuf);
  }
  if (nchild >= 0 ? a->nchildren != nchild : a->nchildren < 0) {
    return fail(v, -1, err, "%d children where %d are needed", a->nchildren, nchild);
  }
  if (a->nchildren > 0 && a->children == NULL) return fail(v, -1, err, "children missing");
  for (int k = 0; k < a->nchildren; k++) {
    if (a->children[k] == NULL) return fail(v, k, err, "child %d is NULL", k);
  }
  if (a->kind == JG_NODE_RECORD && a->names != NULL) {
    for (int k = 0; k < a->nchildren; k++) {
      if (a->names[k] == NULL) return fail(v, k, err, "name of field %d is NULL", k);
    }
  }

  /* Backend and device: one device for the node, its buffers and its children. */
  const bool cuda = a->device.type == JG_DEVICE_CUDA;
  if ((!cuda && a->device.type != JG_DEVICE_CPU) ||
      a->backend != (cuda ? JG_BACKEND_CUDA : JG_BACKEND_CPU) || (!cuda && a->device.id != 0) ||
      a->device.id < 0) {
    return fail(v, -1, err, "backend %d does not match device type %d id %d", (int)a->backend,
                (int)a->device.type, (int)a->device.id);
  }
  for (int k = 0; k < a->nbuffers; k++) {
    const jg_view *b = &a->buffers[k];
    const char *name = jgi_array_buffer_name(a->kind, k);
    if (b->buffer == NULL) return fail(v, -1, err, "%s has no buffer", name);
    const int64_t itemsize = jg_dtype_itemsize(b->dtype);
    if (itemsize == 0 || b->layout.itemsize != itemsize) {
      return fail(v, -1, err, "%s has dtype %s but itemsize %lld", name, jg_dtype_name(b->dtype),
                  (long long)b->layout.itemsize);
    }
    jg_error layout_err;
    if (jgi_view_check(b, "layout", name, &layout_err) != JG_OK) {
      /* "layout: <name> ..." without the prefix: the node is named at the end instead */
      return fail(v, -1, err, "%s", layout_err.message + strlen("layout: "));
    }
    jg_device d;
    if (jgi_view_device(b, &d, NULL) != JG_OK) {
      return fail(v, -1, err, "%s is neither host- nor device-accessible", name);
    }
    if (!jgi_device_equal(d, a->device)) {
      return fail(v, -1, err, "%s is on %s, the node on %s", name,
                  jgi_device_name(d, dn, sizeof dn), jgi_device_name(a->device, dn2, sizeof dn2));
    }
  }
  for (int k = 0; k < a->nchildren; k++) {
    const jg_device d = a->children[k]->device;
    if (!jgi_device_equal(d, a->device)) {
      return fail(v, k, err, "child %d is on %s, the node on %s", k,
                  jgi_device_name(d, dn, sizeof dn), jgi_device_name(a->device, dn2, sizeof dn2));
    }
  }

  /* Per kind: ranks, dtypes, extents and content lengths. */
  const jg_len n = a->length;
  switch (a->kind) {
    case JG_NODE_NUMERIC: {
      const jg_view *b = &a->buffers[0];
      if (b->layout.ndim < 1) return fail(v, -1, err, "data is 0-D");
      if (b->dtype < JG_DTYPE_BOOL || b->dtype > JG_DTYPE_FLOAT64) {
        return fail(v, -1, err, "data has dtype %s, not supported in arrays",
                    jg_dtype_name(b->dtype));
      }
      if (b->layout.shape[0] != n) {
        return fail(v, -1, err, "data has %lld entries, not the length %lld",
                    (long long)b->layout.shape[0], (long long)n);
      }
      break;
    }
    case JG_NODE_EMPTY:
      if (n != 0) return fail(v, -1, err, "length %lld, not 0", (long long)n);
      break;
    case JG_NODE_LIST_OFFSET: {
      JG_RETURN_NOT_OK(check_index_buffer(v, 0, err));
      const jg_len m = a->buffers[0].layout.shape[0];
      if (m - 1 != n) {
        return fail(v, -1, err, "offsets has %lld entries, not length + 1 = %lld", (long long)m,
                    (long long)n + 1);
      }
      break;
    }
    case JG_NODE_LIST: {
      JG_RETURN_NOT_OK(check_index_buffer(v, 0, err));
      JG_RETURN_NOT_OK(check_index_buffer(v, 1, err));
      if (a->buffers[0].dtype != a->buffers[1].dtype) {
        return fail(v, -1, err, "starts (%s) and stops (%s) differ in dtype",
                    jg_dtype_name(a->buffers[0].dtype), jg_dtype_name(a->buffers[1].dtype));
      }
      if (a->buffers[0].layout.shape[0] != n) {
        return fail(v, -1, err, "starts has %lld entries, not the length %lld",
                    (long long)a->buffers[0].layout.shape[0], (long long)n);
      }
      if (a->buffers[1].layout.shape[0] < n) {
        return fail(v, -1, err, "stops has %lld entries, fewer than the length %lld",
                    (long long)a->buffers[1].layout.shape[0], (long long)n);
      }
      break;
    }
    case JG_NODE_REGULAR: {
      jg_len need = 0;
      if (a->regular_size < 0) {
        return fail(v, -1, err, "negative size %lld", (long long)a->regular_size);
      }
      if (jgi_mul_overflow(n, a->regular_size, &need)) {
        return fail(v, -1, err, "length %lld times size %lld overflows", (long long)n,
                    (long long)a->regular_size);
      }
      JG_RETURN_NOT_OK(check_content_length(v, need, err));
      break;
    }
    case JG_NODE_RECORD:
      for (int k = 0; k < a->nchildren; k++) {
        const jg_len have = a->children[k]->length;
        if (have < n) {
          if (a->names != NULL) {
            return fail(v, k, err, "field %s has %lld entries, fewer than the length %lld",
                        a->names[k], (long long)have, (long long)n);
          }
          return fail(v, k, err, "field %d has %lld entries, fewer than the length %lld", k,
                      (long long)have, (long long)n);
        }
      }
      break;
    case JG_NODE_BYTE_MASKED:
      JG_RETURN_NOT_OK(check_mask_buffer(v, false, err));
      if (a->buffers[0].layout.shape[0] < n) {
        return fail(v, -1, err, "mask has %lld entries, fewer than the length %lld",
                    (long long)a->buffers[0].layout.shape[0], (long long)n);
      }
      JG_RETURN_NOT_OK(check_content_length(v, n, err));
      break;
    case JG_NODE_BIT_MASKED: {
      JG_RETURN_NOT_OK(check_mask_buffer(v, true, err));
      if (a->bit_offset < 0 || a->bit_offset > 7) {
        return fail(v, -1, err, "bit offset %lld is not in [0, 8)", (long long)a->bit_offset);
      }
      /* ceil((bit_offset + n) / 8) bytes, without overflow; none for no entries */
      const jg_len need = n == 0 ? 0 : n / 8 + ((n % 8) + a->bit_offset + 7) / 8;
      if (a->buffers[0].layout.shape[0] < need) {
        return fail(v, -1, err, "mask has %lld bytes, %lld entries from bit %lld need %lld",
                    (long long)a->buffers[0].layout.shape[0], (long long)n,
                    (long long)a->bit_offset, (long long)need);
      }
      JG_RETURN_NOT_OK(check_content_length(v, n, err));
      break;
    }
    case JG_NODE_INDEXED_OPTION:
      JG_RETURN_NOT_OK(check_index_buffer(v, 0, err));
      if (a->buffers[0].layout.shape[0] != n) {
        return fail(v, -1, err, "index has %lld entries, not the length %lld",
                    (long long)a->buffers[0].layout.shape[0], (long long)n);
      }
      break;
  }
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Reading single values (host, or one small copy from the device)                             */
/* ------------------------------------------------------------------------------------------ */

typedef struct reader {
  bool cuda;
  jg_stream stream;
} reader;

/* Element i of a 1-D int32/int64 view (0 <= i < shape[0]) of a node on the reader's backend. */
static jg_status read_value(const reader *r, const jg_view *view, jg_len i, int64_t *out,
                            jg_error *err) {
  if (!r->cuda) {
    *out = jgi_view_get_index(view, i);
    return JG_OK;
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int64_t v64 = 0;
  int32_t v32 = 0;
  const bool wide = view->layout.itemsize == 8;
  void *dst = wide ? (void *)&v64 : (void *)&v32;
  const cudaStream_t s = (cudaStream_t)r->stream;
  JG_CUDA_RETURN_NOT_OK(cudaMemcpyAsync(dst, jgi_view_element_ptr(view, i),
                                        (size_t)view->layout.itemsize, cudaMemcpyDeviceToHost, s),
                        "validate: reading a value from the device", err);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, (uint64_t)view->layout.itemsize, "validate: a value");
  JG_CUDA_RETURN_NOT_OK(cudaStreamSynchronize(s), "validate: cudaStreamSynchronize", err);
  *out = wide ? v64 : v32;
  return JG_OK;
#else
  (void)view;
  (void)i;
  (void)out;
  return jgi_cuda_require(err);
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* DEFAULT: first and last offsets                                                             */
/* ------------------------------------------------------------------------------------------ */

static jg_status default_node(void *state, const visit *v, jg_error *err) {
  const reader *r = state;
  const jg_array *a = v->a;
  if (a->kind != JG_NODE_LIST_OFFSET || a->length == 0) return JG_OK;
  const jg_len n = a->length, len = a->children[0]->length;
  int64_t first = 0, last = 0;
  JG_RETURN_NOT_OK(read_value(r, &a->buffers[0], 0, &first, err));
  JG_RETURN_NOT_OK(read_value(r, &a->buffers[0], n, &last, err));
  /* Only the ends are read: a failure names the last list (the first for a negative start),
   * as the operations' check of a range of lists does. */
  if (last < first) {
    return fail(v, n - 1, err,
                "offsets not monotonic in lists 0..%lld: offsets[%lld] = %lld is below "
                "offsets[0] = %lld",
                (long long)(n - 1), (long long)n, (long long)last, (long long)first);
  }
  if (first == last) return JG_OK; /* only empty lists: any start */
  if (first < 0) {
    return fail(v, 0, err, "offset out of range at list 0: offsets[0] = %lld is negative",
                (long long)first);
  }
  if (last > len) {
    return fail(v, n - 1, err,
                "offset out of range at list %lld: offsets[%lld] = %lld is past the end "
                "of the content (%lld entries)",
                (long long)(n - 1), (long long)n, (long long)last, (long long)len);
  }
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* FULL: scans                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The scan of a node, if it has one with entries to check. */
static bool node_task(const jg_array *a, jgi_validate_task *t) {
  if (a->length == 0) return false;
  memset(t, 0, sizeof *t);
  switch (a->kind) {
    case JG_NODE_LIST_OFFSET:
      t->check = JGI_VALIDATE_OFFSETS;
      break;
    case JG_NODE_LIST:
      t->check = JGI_VALIDATE_STARTS_STOPS;
      break;
    case JG_NODE_INDEXED_OPTION:
      t->check = JGI_VALIDATE_INDEX;
      break;
    default:
      return false;
  }
  const jg_view *va = &a->buffers[0];
  t->itemsize = (int32_t)va->layout.itemsize;
  t->a = jgi_view_element_ptr(va, 0);
  t->stride_a = va->layout.strides[0];
  if (t->check == JGI_VALIDATE_STARTS_STOPS) {
    t->b = jgi_view_element_ptr(&a->buffers[1], 0);
    t->stride_b = a->buffers[1].layout.strides[0];
  }
  t->n = a->length;
  t->content_length = a->children[0]->length;
  return true;
}

/* Turns a failing key of node v's scan into JG_EVALUE naming the list (JG_EINDEX naming the
 * entry for an option index) and a message quoting the values. */
static jg_status report_key(const reader *r, const visit *v, uint64_t key, jg_error *err) {
  const jg_array *a = v->a;
  const long long i = (long long)(key / JGI_VALIDATE_NCODES);
  const jgi_validate_code code = (jgi_validate_code)(key % JGI_VALIDATE_NCODES);
  const long long len = (long long)a->children[0]->length;
  int64_t x = 0, y = 0;
  if (a->kind == JG_NODE_LIST_OFFSET) {
    JG_RETURN_NOT_OK(read_value(r, &a->buffers[0], i, &x, err));
    JG_RETURN_NOT_OK(read_value(r, &a->buffers[0], i + 1, &y, err));
    switch (code) {
      case JGI_VALIDATE_DECREASING:
        return fail(v, i, err,
                    "offsets not monotonic at list %lld: offsets[%lld] = %lld is below "
                    "offsets[%lld] = %lld",
                    i, i + 1, (long long)y, i, (long long)x);
      case JGI_VALIDATE_START_BELOW:
        return fail(v, i, err,
                    "offset out of range at list %lld: offsets[%lld] = %lld is negative "
                    "and starts a non-empty list",
                    i, i, (long long)x);
      default:
        return fail(v, i, err,
                    "offset out of range at list %lld: offsets[%lld] = %lld is past "
                    "the end of the content (%lld entries)",
                    i, i + 1, (long long)y, len);
    }
  }
  if (a->kind == JG_NODE_LIST) {
    JG_RETURN_NOT_OK(read_value(r, &a->buffers[0], i, &x, err));
    JG_RETURN_NOT_OK(read_value(r, &a->buffers[1], i, &y, err));
    switch (code) {
      case JGI_VALIDATE_DECREASING:
        return fail(v, i, err,
                    "start above stop at %lld: starts[%lld] = %lld > stops[%lld] = "
                    "%lld",
                    i, i, (long long)x, i, (long long)y);
      case JGI_VALIDATE_START_BELOW:
        return fail(v, i, err,
                    "start out of range at %lld: starts[%lld] = %lld is negative in "
                    "a non-empty list",
                    i, i, (long long)x);
      default:
        return fail(v, i, err,
                    "stop out of range at %lld: stops[%lld] = %lld is past the end "
                    "of the content (%lld entries)",
                    i, i, (long long)y, len);
    }
  }
  JG_RETURN_NOT_OK(read_value(r, &a->buffers[0], i, &x, err));
  return fail_index(v, i, err,
              "index out of range at %lld: index[%lld] = %lld is past the end of the "
              "content (%lld entries)",
              i, i, (long long)x, len);
}

static jg_status full_node_cpu(void *state, const visit *v, jg_error *err) {
  jgi_validate_task t;
  if (!node_task(v->a, &t)) return JG_OK;
  const uint64_t key = jgi_validate_scan_cpu(&t);
  return key == JGI_VALIDATE_OK_KEY ? JG_OK : report_key(state, v, key, err);
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/* The scans of a cuda array, collected in walk order. */
typedef struct task_list {
  jgi_validate_task *tasks;
  int64_t *ordinals;
  int count, capacity;
} task_list;

static jg_status collect_node(void *state, const visit *v, jg_error *err) {
  task_list *l = state;
  jgi_validate_task t;
  if (!node_task(v->a, &t)) return JG_OK;
  if (l->count == l->capacity) {
    JG_RETURN_IF(l->capacity > (1 << 24), JG_ENOMEM, err, "validate: too many nodes to scan");
    const int cap = l->capacity == 0 ? 8 : 2 * l->capacity;
    jgi_validate_task *nt = realloc(l->tasks, sizeof *nt * (size_t)cap);
    if (nt != NULL) l->tasks = nt;
    int64_t *no = nt != NULL ? realloc(l->ordinals, sizeof *no * (size_t)cap) : NULL;
    if (no != NULL) l->ordinals = no;
    JG_RETURN_IF(nt == NULL || no == NULL, JG_ENOMEM, err,
                 "validate: cannot allocate the list of scans");
    l->capacity = cap;
  }
  l->tasks[l->count] = t;
  l->ordinals[l->count] = v->ordinal;
  l->count++;
  return JG_OK;
}

/* Reports the failure `key` of the node at pre-order position `ordinal`. */
typedef struct reporter {
  const reader *r;
  int64_t ordinal;
  uint64_t key;
} reporter;

static jg_status report_node(void *state, const visit *v, jg_error *err) {
  const reporter *p = state;
  return v->ordinal == p->ordinal ? report_key(p->r, v, p->key, err) : JG_OK;
}

static jg_status full_cuda(const jg_array *root, const reader *r, jg_error *err) {
  task_list l = {NULL, NULL, 0, 0};
  uint64_t *keys = NULL;
  jg_status st = walk_tree(root, collect_node, &l, err);
  if (st == JG_OK && l.count > 0) {
    keys = malloc(sizeof *keys * (size_t)l.count);
    st = keys != NULL
             ? jgi_validate_scan_cuda(l.tasks, l.count, r->stream, keys, err)
             : jg_error_set(err, JG_ENOMEM, -1, "validate: cannot allocate %d keys", l.count);
  }
  for (int k = 0; st == JG_OK && k < l.count; k++) {
    if (keys[k] != JGI_VALIDATE_OK_KEY) {
      reporter p = {r, l.ordinals[k], keys[k]};
      st = walk_tree(root, report_node, &p, err);
      break;
    }
  }
  free(keys);
  free(l.tasks);
  free(l.ordinals);
  return st;
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* Public API                                                                                  */
/* ------------------------------------------------------------------------------------------ */

jg_status jg_array_validate(const jg_array *a, jg_validation_level level, jg_stream stream,
                            jg_error *err) {
  static const char fn[] = "jg_array_validate";
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(level < JG_VALIDATE_NONE || level > JG_VALIDATE_FULL, JG_EINVAL, err,
               "%s: unknown validation level %d", fn, (int)level);
  if (level == JG_VALIDATE_NONE) return JG_OK;
  JG_RETURN_NOT_OK(walk_tree(a, minimal_node, NULL, err));
  if (level == JG_VALIDATE_MINIMAL) return JG_OK;

  reader r = {a->backend == JG_BACKEND_CUDA, stream};
  if (!r.cuda) {
    return walk_tree(a, level == JG_VALIDATE_FULL ? full_node_cpu : default_node, &r, err);
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int prev = -1;
  const int dev = (int)a->device.id;
  JG_RETURN_NOT_OK(jgi_cuda_device_push(dev, &prev, err));
  const jg_status st =
      level == JG_VALIDATE_FULL ? full_cuda(a, &r, err) : walk_tree(a, default_node, &r, err);
  jgi_cuda_device_pop(prev, dev);
  return st;
#else
  return jgi_cuda_require(err);
#endif
}
