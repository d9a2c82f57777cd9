/* array.c: jagged arrays (array.h): layout nodes, constructors, lifetime, inspection, slicing,
 * zip / field / unzip, and moving whole trees between backends.
 *
 * Validation, the type string and the printout live in array_print.c and src/kernels/validate/;
 * the node struct and the helpers other files share are in internal/jgi_array.h. */
#include "internal/jgi_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_carry.h"
#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_layout.h"
#include "internal/jgi_transfer.h"
#include "jagged/device.h"
#include "kernels/scan/scan.h"

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                               */
/* ------------------------------------------------------------------------------------------ */

const char *jgi_array_node_name(jg_node_kind kind) {
  switch (kind) {
    case JG_NODE_NUMERIC:
      return "numeric";
    case JG_NODE_EMPTY:
      return "empty";
    case JG_NODE_LIST_OFFSET:
      return "list-offset";
    case JG_NODE_LIST:
      return "list";
    case JG_NODE_REGULAR:
      return "regular";
    case JG_NODE_RECORD:
      return "record";
    case JG_NODE_BYTE_MASKED:
      return "byte-masked";
    case JG_NODE_BIT_MASKED:
      return "bit-masked";
    case JG_NODE_INDEXED_OPTION:
      return "indexed-option";
  }
  return "unknown";
}

const char *jgi_device_name(jg_device device, char *buf, size_t size) {
  if (buf == NULL || size == 0) return buf;
  if (device.type == JG_DEVICE_CUDA) {
    snprintf(buf, size, "cuda:%d", (int)device.id);
  } else {
    snprintf(buf, size, "cpu");
  }
  return buf;
}

bool jgi_device_equal(jg_device a, jg_device b) { return a.type == b.type && a.id == b.id; }

jg_status jgi_view_device(const jg_view *view, jg_device *out, jg_error *err) {
  if (view->host_accessible) {
    out->type = JG_DEVICE_CPU;
    out->id = 0;
    return JG_OK;
  }
  JG_RETURN_IF(!view->device_accessible, JG_EINVAL, err,
               "the memory at %p is neither host- nor device-accessible", view->base);
  out->type = JG_DEVICE_CUDA;
  out->id = view->device.id;
  return JG_OK;
}

void *jgi_view_element_ptr(const jg_view *view, jg_len i) {
  const int64_t off = view->layout.slice_offset + i * view->layout.strides[0];
  return (char *)view->base + off * view->layout.itemsize;
}

int64_t jgi_view_get_index(const jg_view *view, jg_len i) {
  return jgi_index_at(jgi_view_element_ptr(view, i), view->dtype);
}

void jgi_view_read_index(const jg_view *view, jg_len lo, jg_len n, int64_t *out) {
  const int64_t stride = view->layout.strides[0];
  const char *p = (const char *)jgi_view_element_ptr(view, lo);
#define JGI_READ_INDEX(T)                                                                       \
  for (jg_len i = 0; i < n; i++) out[i] = (int64_t)((const T *)(const void *)p)[i * stride]; \
  break
  switch (view->dtype) {
    case JG_DTYPE_BOOL:
    case JG_DTYPE_UINT8: JGI_READ_INDEX(uint8_t);
    case JG_DTYPE_INT8: JGI_READ_INDEX(int8_t);
    case JG_DTYPE_INT16: JGI_READ_INDEX(int16_t);
    case JG_DTYPE_UINT16: JGI_READ_INDEX(uint16_t);
    case JG_DTYPE_INT32: JGI_READ_INDEX(int32_t);
    case JG_DTYPE_UINT32: JGI_READ_INDEX(uint32_t);
    case JG_DTYPE_INT64: JGI_READ_INDEX(int64_t);
    case JG_DTYPE_UINT64: JGI_READ_INDEX(uint64_t);
    default:
      memset(out, 0, (size_t)n * sizeof *out);
      break;
  }
#undef JGI_READ_INDEX
}

int64_t jgi_index_at(const void *p, jg_dtype dtype) {
  switch (dtype) {
    case JG_DTYPE_BOOL:
    case JG_DTYPE_UINT8:
      return *(const uint8_t *)p;
    case JG_DTYPE_INT8:
      return *(const int8_t *)p;
    case JG_DTYPE_INT16:
      return *(const int16_t *)p;
    case JG_DTYPE_UINT16:
      return *(const uint16_t *)p;
    case JG_DTYPE_INT32:
      return *(const int32_t *)p;
    case JG_DTYPE_UINT32:
      return *(const uint32_t *)p;
    case JG_DTYPE_INT64:
      return *(const int64_t *)p;
    case JG_DTYPE_UINT64:
      return (int64_t) * (const uint64_t *)p;
    default:
      return 0;
  }
}

const char *jgi_array_buffer_name(jg_node_kind kind, int k) {
  switch (kind) {
    case JG_NODE_NUMERIC:
      return "data";
    case JG_NODE_LIST_OFFSET:
      return "offsets";
    case JG_NODE_LIST:
      return k == 0 ? "starts" : "stops";
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED:
      return "mask";
    case JG_NODE_INDEXED_OPTION:
      return "index";
    default:
      return "buffer";
  }
}

static void child_role(const jg_array *a, int k, char *buf, size_t size) {
  if (a->kind != JG_NODE_RECORD) {
    snprintf(buf, size, "content");
  } else if (a->names != NULL) {
    snprintf(buf, size, "field '%s'", a->names[k]);
  } else {
    snprintf(buf, size, "field %d", k);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Building nodes (jgi_array.h)                                                                */
/* ------------------------------------------------------------------------------------------ */

jg_status jgi_array_new(jg_node_kind kind, int nchildren, jg_array **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "out is NULL");
  *out = NULL;
  JG_RETURN_IF(nchildren < 0, JG_EINVAL, err, "negative number of children %d", nchildren);
  jg_array *a = calloc(1, sizeof *a);
  JG_RETURN_IF(a == NULL, JG_ENOMEM, err, "cannot allocate an array node");
  if (nchildren > 0) {
    a->children = calloc((size_t)nchildren, sizeof *a->children);
    if (a->children == NULL) {
      free(a);
      return jg_error_set(err, JG_ENOMEM, -1, "cannot allocate %d children", nchildren);
    }
  }
  atomic_init(&a->refcount, 1);
  a->kind = kind;
  a->length = 0;
  a->device.type = JG_DEVICE_CPU;
  a->device.id = 0;
  a->backend = JG_BACKEND_CPU;
  a->nbuffers = 0;
  a->regular_size = -1;
  a->bit_offset = 0;
  a->valid_when = false;
  a->lsb_order = false;
  a->nchildren = nchildren;
  a->names = NULL;
  *out = a;
  return JG_OK;
}

void jgi_array_set_buffer(jg_array *a, int k, const jg_view *view) {
  jg_buffer *old = a->buffers[k].buffer;
  a->buffers[k] = *view;
  jg_buffer_retain(view->buffer);
  jg_buffer_release(old);
  if (a->nbuffers < k + 1) a->nbuffers = k + 1;
}

void jgi_array_set_child(jg_array *a, int k, jg_array *child) {
  jg_array *old = a->children[k];
  a->children[k] = jg_array_retain(child);
  jg_array_release(old);
}

jg_status jgi_array_set_names(jg_array *a, const char *const *names, jg_error *err) {
  if (names == NULL || a->nchildren <= 0) return JG_OK;
  for (int k = 0; k < a->nchildren; k++) {
    JG_RETURN_IF_AT(names[k] == NULL || names[k][0] == '\0', JG_EINVAL, err, k,
                    "field name %d is %s", k, names[k] == NULL ? "NULL" : "empty");
    for (int j = 0; j < k; j++) {
      JG_RETURN_IF_AT(strcmp(names[j], names[k]) == 0, JG_EINVAL, err, k,
                      "field name '%s' is used by fields %d and %d", names[k], j, k);
    }
  }
  char **copy = calloc((size_t)a->nchildren, sizeof *copy);
  JG_RETURN_IF(copy == NULL, JG_ENOMEM, err, "cannot allocate %d field names", a->nchildren);
  for (int k = 0; k < a->nchildren; k++) {
    const size_t n = strlen(names[k]) + 1;
    copy[k] = malloc(n);
    if (copy[k] == NULL) {
      for (int j = 0; j < k; j++) free(copy[j]);
      free(copy);
      return jg_error_set(err, JG_ENOMEM, k, "cannot copy field name %d", k);
    }
    memcpy(copy[k], names[k], n);
  }
  a->names = copy;
  return JG_OK;
}

/* Formats the mixed-backend message of jg_array_check_same_backend. */
static jg_status backend_error(jg_device da, const char *what_a, jg_device db,
                               const char *what_b, jg_error *err) {
  char na[32], nb[32];
  jgi_device_name(da, na, sizeof na);
  jgi_device_name(db, nb, sizeof nb);
  return jg_error_set(err, JG_EBACKEND, -1, "%s is on %s, %s on %s: copy it with %s", what_b, nb,
                      what_a, na,
                      da.type == JG_DEVICE_CUDA ? "jg_array_to_device" : "jg_array_to_host");
}

jg_status jgi_array_finish(jg_array *a, jg_error *err) {
  bool have = false;
  jg_device first = a->device;
  char first_what[96] = "";
  for (int k = 0; k < a->nbuffers; k++) {
    JG_RETURN_IF(a->buffers[k].buffer == NULL, JG_EINVAL, err, "%s of a %s node is not set",
                 jgi_array_buffer_name(a->kind, k), jgi_array_node_name(a->kind));
    jg_device d = {JG_DEVICE_CPU, 0};
    JG_RETURN_NOT_OK(jgi_view_device(&a->buffers[k], &d, err));
    if (!have) {
      have = true;
      first = d;
      snprintf(first_what, sizeof first_what, "%s", jgi_array_buffer_name(a->kind, k));
    } else if (!jgi_device_equal(d, first)) {
      return backend_error(first, first_what, d, jgi_array_buffer_name(a->kind, k), err);
    }
  }
  for (int k = 0; k < a->nchildren; k++) {
    char what[96];
    child_role(a, k, what, sizeof what);
    JG_RETURN_IF_AT(a->children[k] == NULL, JG_EINVAL, err, k, "%s of a %s node is not set",
                    what, jgi_array_node_name(a->kind));
    const jg_device d = a->children[k]->device;
    if (!have) {
      have = true;
      first = d;
      snprintf(first_what, sizeof first_what, "%s", what);
    } else if (!jgi_device_equal(d, first)) {
      return backend_error(first, first_what, d, what, err);
    }
  }
  a->device = first;
  a->backend = first.type == JG_DEVICE_CUDA ? JG_BACKEND_CUDA : JG_BACKEND_CPU;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Lifetime                                                                                    */
/* ------------------------------------------------------------------------------------------ */

jg_array *jg_array_retain(jg_array *a) {
  if (a != NULL) atomic_fetch_add_explicit(&a->refcount, 1, memory_order_relaxed);
  return a;
}

void jg_array_release(jg_array *a) {
  if (a == NULL) return;
  if (atomic_fetch_sub_explicit(&a->refcount, 1, memory_order_acq_rel) != 1) return;
  for (int k = 0; k < JGI_ARRAY_MAX_BUFFERS; k++) jg_buffer_release(a->buffers[k].buffer);
  for (int k = 0; k < a->nchildren; k++) jg_array_release(a->children[k]);
  if (a->names != NULL) {
    for (int k = 0; k < a->nchildren; k++) free(a->names[k]);
  }
  free(a->names);
  free(a->children);
  free(a);
}

/* A new node with the same kind, scalars, buffers, children and names as `a`. */
static jg_status node_clone(const jg_array *a, jg_array **out, jg_error *err) {
  jg_array *c = NULL;
  JG_RETURN_NOT_OK(jgi_array_new(a->kind, a->nchildren, &c, err));
  c->length = a->length;
  c->device = a->device;
  c->backend = a->backend;
  c->regular_size = a->regular_size;
  c->bit_offset = a->bit_offset;
  c->valid_when = a->valid_when;
  c->lsb_order = a->lsb_order;
  for (int k = 0; k < a->nbuffers; k++) jgi_array_set_buffer(c, k, &a->buffers[k]);
  for (int k = 0; k < a->nchildren; k++) jgi_array_set_child(c, k, a->children[k]);
  jg_status st = jgi_array_set_names(c, (const char *const *)a->names, err);
  if (st != JG_OK) {
    jg_array_release(c);
    return st;
  }
  *out = c;
  return JG_OK;
}

/* Finishes `a` and hands it to *out, or releases it and prefixes the message with fn. */
static jg_status finish_node(jg_array *a, const char *fn, jg_array **out, jg_error *err) {
  jg_status st = jgi_array_finish(a, err);
  if (st != JG_OK) {
    jg_array_release(a);
    return jgi_error_prefix(st, fn, err);
  }
  *out = a;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Constructors from buffers                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Checks a buffer view given to a constructor: non-NULL with a buffer, a valid dtype matching
 * the layout's itemsize, a valid layout whose elements all lie inside the buffer
 * (jgi_view_check), and memory that is host- or device-accessible. */
static jg_status check_view(const jg_view *v, const char *fn, const char *what, jg_error *err) {
  JG_RETURN_IF(v == NULL, JG_EINVAL, err, "%s: %s is NULL", fn, what);
  JG_RETURN_IF(v->buffer == NULL, JG_EINVAL, err,
               "%s: %s has no buffer (the array retains it: make the view with "
               "jg_view_from_buffer)",
               fn, what);
  const int64_t itemsize = jg_dtype_itemsize(v->dtype);
  JG_RETURN_IF(itemsize == 0, JG_EDTYPE, err, "%s: %s has an invalid dtype %d", fn, what,
               (int)v->dtype);
  JG_RETURN_IF(v->layout.itemsize != itemsize, JG_EDTYPE, err,
               "%s: %s's layout itemsize %lld does not match its dtype %s", fn, what,
               (long long)v->layout.itemsize, jg_dtype_name(v->dtype));
  JG_RETURN_NOT_OK(jgi_view_check(v, fn, what, err));
  JG_RETURN_IF(!v->host_accessible && !v->device_accessible, JG_EINVAL, err,
               "%s: %s is neither host- nor device-accessible", fn, what);
  return JG_OK;
}

static bool is_index_dtype(jg_dtype d) { return d == JG_DTYPE_INT32 || d == JG_DTYPE_INT64; }

/* check_view plus: 1-D, dtype int32 or int64. */
static jg_status check_index_view(const jg_view *v, const char *fn, const char *what,
                                  jg_error *err) {
  JG_RETURN_NOT_OK(check_view(v, fn, what, err));
  JG_RETURN_IF(!is_index_dtype(v->dtype), JG_EDTYPE, err, "%s: %s must be int32 or int64, not %s",
               fn, what, jg_dtype_name(v->dtype));
  JG_RETURN_IF(v->layout.ndim != 1, JG_ESHAPE, err, "%s: %s must be 1-D, not %d-D", fn, what,
               (int)v->layout.ndim);
  return JG_OK;
}

static bool is_numeric_dtype(jg_dtype d) {
  return d >= JG_DTYPE_BOOL && d <= JG_DTYPE_FLOAT64;
}

jg_status jg_array_numeric(const jg_view *data, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_numeric";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_NOT_OK(check_view(data, fn, "data", err));
  JG_RETURN_IF(!is_numeric_dtype(data->dtype), JG_EDTYPE, err,
               "%s: dtype %s is not supported in arrays", fn, jg_dtype_name(data->dtype));
  JG_RETURN_IF(data->layout.ndim < 1, JG_EINVAL, err, "%s: data must have ndim >= 1, not 0", fn);
  jg_array *a = NULL;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_array_new(JG_NODE_NUMERIC, 0, &a, err), fn, err));
  a->length = data->layout.shape[0];
  jgi_array_set_buffer(a, 0, data);
  return finish_node(a, fn, out, err);
}

jg_status jg_array_empty(jg_array **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_array_empty: out is NULL");
  return jgi_error_prefix(jgi_array_new(JG_NODE_EMPTY, 0, out, err), "jg_array_empty", err);
}

jg_status jg_array_list_offset(const jg_view *offsets, jg_array *content, jg_array **out,
                               jg_error *err) {
  static const char fn[] = "jg_array_list_offset";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(content == NULL, JG_EINVAL, err, "%s: content is NULL", fn);
  JG_RETURN_NOT_OK(check_index_view(offsets, fn, "offsets", err));
  JG_RETURN_IF(offsets->layout.shape[0] < 1, JG_ESHAPE, err,
               "%s: offsets must have at least 1 entry (length + 1)", fn);
  jg_array *a = NULL;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_array_new(JG_NODE_LIST_OFFSET, 1, &a, err), fn, err));
  a->length = offsets->layout.shape[0] - 1;
  jgi_array_set_buffer(a, 0, offsets);
  jgi_array_set_child(a, 0, content);
  return finish_node(a, fn, out, err);
}

jg_status jg_array_list(const jg_view *starts, const jg_view *stops, jg_array *content,
                        jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_list";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(content == NULL, JG_EINVAL, err, "%s: content is NULL", fn);
  JG_RETURN_NOT_OK(check_index_view(starts, fn, "starts", err));
  JG_RETURN_NOT_OK(check_index_view(stops, fn, "stops", err));
  JG_RETURN_IF(starts->dtype != stops->dtype, JG_EDTYPE, err,
               "%s: starts (%s) and stops (%s) must have the same dtype", fn,
               jg_dtype_name(starts->dtype), jg_dtype_name(stops->dtype));
  JG_RETURN_IF(stops->layout.shape[0] < starts->layout.shape[0], JG_ESHAPE, err,
               "%s: stops has %lld entries, fewer than starts (%lld)", fn,
               (long long)stops->layout.shape[0], (long long)starts->layout.shape[0]);
  jg_array *a = NULL;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_array_new(JG_NODE_LIST, 1, &a, err), fn, err));
  a->length = starts->layout.shape[0];
  jgi_array_set_buffer(a, 0, starts);
  jgi_array_set_buffer(a, 1, stops);
  jgi_array_set_child(a, 0, content);
  return finish_node(a, fn, out, err);
}

jg_status jg_array_regular(jg_array *content, jg_len size, jg_len length, jg_array **out,
                           jg_error *err) {
  static const char fn[] = "jg_array_regular";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(content == NULL, JG_EINVAL, err, "%s: content is NULL", fn);
  JG_RETURN_IF(size < 0, JG_EINVAL, err, "%s: size %lld is negative", fn, (long long)size);
  JG_RETURN_IF(size == 0 && length < 0, JG_EINVAL, err,
               "%s: size 0 needs a length >= 0, got %lld", fn, (long long)length);
  jg_array *a = NULL;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_array_new(JG_NODE_REGULAR, 1, &a, err), fn, err));
  a->regular_size = size;
  a->length = size > 0 ? content->length / size : length;
  jgi_array_set_child(a, 0, content);
  return finish_node(a, fn, out, err);
}

jg_status jg_array_record(int nfields, jg_array *const *fields, const char *const *names,
                          jg_len length, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_record";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(nfields < 0, JG_EINVAL, err, "%s: nfields %d is negative", fn, nfields);
  JG_RETURN_IF(nfields > 0 && fields == NULL, JG_EINVAL, err, "%s: fields is NULL", fn);
  JG_RETURN_IF(length < -1, JG_EINVAL, err, "%s: length %lld is below -1", fn,
               (long long)length);
  JG_RETURN_IF(nfields == 0 && length == -1, JG_EINVAL, err,
               "%s: a record of 0 fields needs an explicit length", fn);
  jg_len shortest = -1;
  for (int k = 0; k < nfields; k++) {
    JG_RETURN_IF_AT(fields[k] == NULL, JG_EINVAL, err, k, "%s: field %d is NULL", fn, k);
    if (shortest < 0 || fields[k]->length < shortest) shortest = fields[k]->length;
  }
  const jg_len len = length >= 0 ? length : shortest;
  for (int k = 0; k < nfields; k++) {
    JG_RETURN_IF_AT(fields[k]->length < len, JG_ESHAPE, err, k,
                    "%s: field %d has length %lld, shorter than the record's %lld", fn, k,
                    (long long)fields[k]->length, (long long)len);
  }
  jg_array *a = NULL;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_array_new(JG_NODE_RECORD, nfields, &a, err), fn, err));
  a->length = len;
  for (int k = 0; k < nfields; k++) jgi_array_set_child(a, k, fields[k]);
  jg_status st = jgi_array_set_names(a, names, err);
  if (st != JG_OK) {
    jg_array_release(a);
    return jgi_error_prefix(st, fn, err);
  }
  return finish_node(a, fn, out, err);
}

jg_status jg_array_byte_masked(const jg_view *mask, bool valid_when, jg_array *content,
                               jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_byte_masked";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(content == NULL, JG_EINVAL, err, "%s: content is NULL", fn);
  JG_RETURN_NOT_OK(check_view(mask, fn, "mask", err));
  JG_RETURN_IF(mask->dtype != JG_DTYPE_INT8 && mask->dtype != JG_DTYPE_UINT8 &&
                   mask->dtype != JG_DTYPE_BOOL,
               JG_EDTYPE, err, "%s: mask must be int8, uint8 or bool, not %s", fn,
               jg_dtype_name(mask->dtype));
  JG_RETURN_IF(mask->layout.ndim != 1, JG_ESHAPE, err, "%s: mask must be 1-D, not %d-D", fn,
               (int)mask->layout.ndim);
  JG_RETURN_IF(content->length < mask->layout.shape[0], JG_ESHAPE, err,
               "%s: content has %lld entries, fewer than the mask's %lld", fn,
               (long long)content->length, (long long)mask->layout.shape[0]);
  jg_array *a = NULL;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_array_new(JG_NODE_BYTE_MASKED, 1, &a, err), fn, err));
  a->length = mask->layout.shape[0];
  a->valid_when = valid_when;
  jgi_array_set_buffer(a, 0, mask);
  jgi_array_set_child(a, 0, content);
  return finish_node(a, fn, out, err);
}

jg_status jg_array_bit_masked(const jg_view *mask, bool valid_when, bool lsb_order,
                              jg_len length, jg_array *content, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_bit_masked";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(content == NULL, JG_EINVAL, err, "%s: content is NULL", fn);
  JG_RETURN_IF(length < 0, JG_EINVAL, err, "%s: length %lld is negative", fn, (long long)length);
  JG_RETURN_NOT_OK(check_view(mask, fn, "mask", err));
  JG_RETURN_IF(mask->dtype != JG_DTYPE_UINT8, JG_EDTYPE, err, "%s: mask must be uint8, not %s",
               fn, jg_dtype_name(mask->dtype));
  JG_RETURN_IF(mask->layout.ndim != 1, JG_ESHAPE, err, "%s: mask must be 1-D, not %d-D", fn,
               (int)mask->layout.ndim);
  const jg_len bytes = length / 8 + (length % 8 != 0);
  JG_RETURN_IF(mask->layout.shape[0] < bytes, JG_ESHAPE, err,
               "%s: %lld entries need %lld mask bytes, the mask has %lld", fn, (long long)length,
               (long long)bytes, (long long)mask->layout.shape[0]);
  JG_RETURN_IF(content->length < length, JG_ESHAPE, err,
               "%s: content has %lld entries, fewer than the length %lld", fn,
               (long long)content->length, (long long)length);
  jg_array *a = NULL;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_array_new(JG_NODE_BIT_MASKED, 1, &a, err), fn, err));
  a->length = length;
  a->valid_when = valid_when;
  a->lsb_order = lsb_order;
  jgi_array_set_buffer(a, 0, mask);
  jgi_array_set_child(a, 0, content);
  return finish_node(a, fn, out, err);
}

jg_status jg_array_indexed_option(const jg_view *index, jg_array *content, jg_array **out,
                                  jg_error *err) {
  static const char fn[] = "jg_array_indexed_option";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(content == NULL, JG_EINVAL, err, "%s: content is NULL", fn);
  JG_RETURN_NOT_OK(check_index_view(index, fn, "index", err));
  jg_array *a = NULL;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_array_new(JG_NODE_INDEXED_OPTION, 1, &a, err), fn, err));
  a->length = index->layout.shape[0];
  jgi_array_set_buffer(a, 0, index);
  jgi_array_set_child(a, 0, content);
  return finish_node(a, fn, out, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Constructors from host C arrays                                                             */
/* ------------------------------------------------------------------------------------------ */

/* A new host buffer of n elements of `dtype`, filled from `src` (may be NULL when n is 0), and
 * a dense 1-D view of it. The caller releases *buf. */
static jg_status host_copy(const void *src, jg_len n, jg_dtype dtype, const char *fn,
                           jg_buffer **buf, jg_view *view, jg_error *err) {
  const int64_t itemsize = jg_dtype_itemsize(dtype);
  int64_t bytes = 0;
  JG_RETURN_IF(jgi_mul_overflow(n, itemsize, &bytes) || (uint64_t)bytes > SIZE_MAX,
               JG_EOVERFLOW, err, "%s: %lld elements of %s overflow a size", fn, (long long)n,
               jg_dtype_name(dtype));
  JG_RETURN_NOT_OK(
      jgi_error_prefix(jg_buffer_allocate(jg_memory_resource_host(), (size_t)bytes, NULL, buf, err),
                  fn, err));
  if (bytes > 0) memcpy(jg_buffer_data(*buf), src, (size_t)bytes);
  jg_layout l;
  jg_status st = jg_layout_init(&l, 1, &n, NULL, itemsize, err);
  if (st == JG_OK) st = jg_view_from_buffer(view, *buf, &l, dtype, false, err);
  if (st != JG_OK) {
    jg_buffer_release(*buf);
    *buf = NULL;
    return jgi_error_prefix(st, fn, err);
  }
  return JG_OK;
}

/* Checks of the from_host family on one values array. */
static jg_status check_host_values(const void *values, jg_len n, jg_dtype dtype, const char *fn,
                                   const char *what, jg_error *err) {
  JG_RETURN_IF(n < 0, JG_EINVAL, err, "%s: %s length %lld is negative", fn, what, (long long)n);
  JG_RETURN_IF(values == NULL && n > 0, JG_EINVAL, err, "%s: %s is NULL but has %lld entries",
               fn, what, (long long)n);
  JG_RETURN_IF(!is_numeric_dtype(dtype), JG_EDTYPE, err,
               "%s: dtype %s is not supported in arrays", fn, jg_dtype_name(dtype));
  return JG_OK;
}

/* A numeric array over a fresh host copy of `values`. */
static jg_status numeric_from_host(const void *values, jg_len n, jg_dtype dtype, const char *fn,
                                   jg_array **out, jg_error *err) {
  jg_buffer *buf = NULL;
  jg_view v;
  JG_RETURN_NOT_OK(host_copy(values, n, dtype, fn, &buf, &v, err));
  jg_status st = jg_array_numeric(&v, out, err);
  jg_buffer_release(buf);
  return st;
}

jg_status jg_array_from_host(const void *values, jg_len length, jg_dtype dtype, jg_array **out,
                             jg_error *err) {
  static const char fn[] = "jg_array_from_host";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_NOT_OK(check_host_values(values, length, dtype, fn, "values", err));
  return numeric_from_host(values, length, dtype, fn, out, err);
}

/* list-offset over host copies of int64 offsets (n + 1) and content. */
static jg_status list_from_host(const int64_t *offsets, jg_len n, const void *content,
                                jg_len content_length, jg_dtype dtype, const char *fn,
                                jg_array **out, jg_error *err) {
  jg_array *c = NULL;
  JG_RETURN_NOT_OK(numeric_from_host(content, content_length, dtype, fn, &c, err));
  jg_buffer *ob = NULL;
  jg_view ov;
  jg_status st = host_copy(offsets, n + 1, JG_DTYPE_INT64, fn, &ob, &ov, err);
  if (st == JG_OK) st = jg_array_list_offset(&ov, c, out, err);
  jg_buffer_release(ob);
  jg_array_release(c);
  return st;
}

jg_status jg_array_from_host_offsets(const int64_t *offsets, jg_len n, const void *content,
                                     jg_len content_length, jg_dtype dtype, jg_array **out,
                                     jg_error *err) {
  static const char fn[] = "jg_array_from_host_offsets";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(n < 0 || n == INT64_MAX, JG_EINVAL, err, "%s: n %lld is out of range", fn,
               (long long)n);
  JG_RETURN_IF(offsets == NULL, JG_EINVAL, err, "%s: offsets is NULL", fn);
  JG_RETURN_NOT_OK(check_host_values(content, content_length, dtype, fn, "content", err));
  for (jg_len i = 0; n > 0 && i <= n; i++) {
    JG_RETURN_IF_AT(offsets[i] < 0, JG_EVALUE, err, i, "%s: offsets[%lld] = %lld is negative",
                    fn, (long long)i, (long long)offsets[i]);
    JG_RETURN_IF_AT(i > 0 && offsets[i] < offsets[i - 1], JG_EVALUE, err, i,
                    "%s: offsets not monotonic at %lld (%lld after %lld)", fn, (long long)i,
                    (long long)offsets[i], (long long)offsets[i - 1]);
    JG_RETURN_IF_AT(offsets[i] > content_length, JG_EVALUE, err, i,
                    "%s: offsets[%lld] = %lld is past the content's length %lld", fn,
                    (long long)i, (long long)offsets[i], (long long)content_length);
  }
  return list_from_host(offsets, n, content, content_length, dtype, fn, out, err);
}

/* A 1-D host view over caller memory (never retained; only read during the call). */
static jg_status host_view(jg_view *v, const void *p, jg_len n, jg_dtype dtype, jg_error *err) {
  jg_layout l;
  JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &n, NULL, jg_dtype_itemsize(dtype), err));
  const jg_device host = JG_DEVICE_HOST_INIT;
  return jg_view_from_pointer(v, (void *)(uintptr_t)p, host, &l, dtype, true, err);
}

jg_status jg_array_from_host_counts(const int64_t *counts, jg_len n, const void *content,
                                    jg_len content_length, jg_dtype dtype, jg_array **out,
                                    jg_error *err) {
  static const char fn[] = "jg_array_from_host_counts";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(n < 0 || n == INT64_MAX, JG_EINVAL, err, "%s: n %lld is out of range", fn,
               (long long)n);
  JG_RETURN_IF(counts == NULL && n > 0, JG_EINVAL, err, "%s: counts is NULL", fn);
  JG_RETURN_NOT_OK(check_host_values(content, content_length, dtype, fn, "content", err));
  jg_view cv;
  JG_RETURN_NOT_OK(jgi_error_prefix(host_view(&cv, counts, n, JG_DTYPE_INT64, err), fn, err));
  int64_t bytes = 0;
  JG_RETURN_IF(jgi_mul_overflow(n + 1, (int64_t)sizeof(int64_t), &bytes) ||
                   (uint64_t)bytes > SIZE_MAX,
               JG_EOVERFLOW, err, "%s: %lld offsets overflow a size", fn, (long long)(n + 1));
  int64_t *offsets = malloc((size_t)bytes);
  JG_RETURN_IF(offsets == NULL, JG_ENOMEM, err, "%s: cannot allocate %lld bytes of offsets", fn,
               (long long)bytes);
  jg_status st = jgi_counts_to_offsets_cpu(&cv, content_length, offsets, fn, err);
  if (st == JG_OK) {
    st = list_from_host(offsets, n, content, content_length, dtype, fn, out, err);
  }
  free(offsets);
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* jg_array_from_counts                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* A dense 1-D int64 view of n + 1 entries over `buf`. */
static jg_status offsets_view(jg_buffer *buf, jg_len n, jg_view *v, jg_error *err) {
  jg_layout l;
  const jg_len len = n + 1;
  JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &len, NULL, 8, err));
  return jg_view_from_buffer(v, buf, &l, JG_DTYPE_INT64, false, err);
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/* The device path of jg_array_from_counts, with device `dev` current: fills the n + 1 offsets in
 * `offsets` (device memory of dev) and checks them against `total`. */
static jg_status counts_scan_device(const jg_view *counts, jg_len total, int dev, jg_buffer *ob,
                                    jg_stream stream, const char *fn, jg_error *err) {
  const jg_len n = counts->layout.shape[0];
  size_t temp_bytes = 0;
  int64_t *offsets = jg_buffer_data(ob);
  JG_RETURN_NOT_OK(jgi_error_prefix(
      jgi_counts_to_offsets_cuda(jg_view_data(counts), counts->layout.strides[0], counts->dtype,
                                 n, total, offsets, NULL, NULL, &temp_bytes, stream, err),
      fn, err));
  /* One scratch buffer: the status words first (256-byte aligned by the resource), then CUB's
   * temporary storage at the next 256-byte boundary. */
  const size_t head = 256;
  JG_RETURN_IF(temp_bytes > SIZE_MAX - head, JG_EOVERFLOW, err, "%s: temporary size overflows",
               fn);
  jg_memory_resource *mr = NULL;
  /* Scratch from the library's pool (no cudaMalloc per call), or plain device memory. */
  jg_status pst = jg_memory_resource_device_pool(dev, &mr, err);
  if (pst == JG_ENOTSUP) pst = jg_memory_resource_device(dev, &mr, err);
  JG_RETURN_NOT_OK(jgi_error_prefix(pst, fn, err));
  jg_buffer *scratch = NULL;
  JG_RETURN_NOT_OK(
      jgi_error_prefix(jg_buffer_allocate(mr, head + temp_bytes, stream, &scratch, err), fn, err));
  char *base = jg_buffer_data(scratch);
  jgi_scan_status *d_status = (jgi_scan_status *)(void *)base;
  jg_status st = jgi_counts_to_offsets_cuda(jg_view_data(counts), counts->layout.strides[0],
                                            counts->dtype, n, total, offsets, d_status,
                                            base + head, &temp_bytes, stream, err);
  jgi_scan_status h_status;
  int64_t sum = 0;
  cudaStream_t s = (cudaStream_t)stream;
  if (st == JG_OK) {
    st = jgi_cuda_error(err,
                        cudaMemcpyAsync(&h_status, d_status, sizeof h_status,
                                        cudaMemcpyDeviceToHost, s),
                        "cudaMemcpyAsync (scan status)");
    if (st == JG_OK) {
      jgi_transfer_record(JG_TRANSFER_TO_HOST, sizeof h_status,
                          "jg_array_from_counts: scan status");
    }
  }
  if (st == JG_OK) {
    st = jgi_cuda_error(err,
                        cudaMemcpyAsync(&sum, offsets + n, sizeof sum, cudaMemcpyDeviceToHost, s),
                        "cudaMemcpyAsync (last offset)");
    if (st == JG_OK) {
      jgi_transfer_record(JG_TRANSFER_TO_HOST, sizeof sum, "jg_array_from_counts: last offset");
    }
  }
  /* Always wait before the scratch buffer goes: kernels may be in flight even after an error. */
  jg_status sync = jgi_cuda_error(err, cudaStreamSynchronize(s), "cudaStreamSynchronize");
  if (st == JG_OK) st = sync;
  jg_buffer_release(scratch);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  JG_RETURN_IF_AT(h_status.first_negative != UINT64_MAX, JG_EVALUE, err,
                  h_status.first_negative, "%s: counts[%llu] is negative", fn,
                  h_status.first_negative);
  JG_RETURN_IF_AT(h_status.first_too_large != UINT64_MAX, JG_EVALUE, err,
                  h_status.first_too_large,
                  "%s: counts[%llu] is larger than the content's length %lld", fn,
                  h_status.first_too_large, (long long)total);
  JG_RETURN_IF_AT(h_status.first_overflow != UINT64_MAX, JG_EOVERFLOW, err,
                  h_status.first_overflow, "%s: the sum of counts[0..%llu] overflows int64", fn,
                  h_status.first_overflow);
  JG_RETURN_IF(sum != total, JG_EVALUE, err,
               "%s: the counts add up to %lld but the content has %lld entries", fn,
               (long long)sum, (long long)total);
  return JG_OK;
}
#endif

jg_status jg_array_from_counts(const jg_view *counts, jg_array *content, jg_stream stream,
                               jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_from_counts";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(content == NULL, JG_EINVAL, err, "%s: content is NULL", fn);
  JG_RETURN_IF(counts == NULL, JG_EINVAL, err, "%s: counts is NULL", fn);
  /* The counts are only read, so they need no buffer. */
  JG_RETURN_IF(!is_index_dtype(counts->dtype), JG_EDTYPE, err,
               "%s: counts must be int32 or int64, not %s", fn, jg_dtype_name(counts->dtype));
  JG_RETURN_IF(counts->layout.itemsize != jg_dtype_itemsize(counts->dtype), JG_EDTYPE, err,
               "%s: counts' layout itemsize %lld does not match its dtype %s", fn,
               (long long)counts->layout.itemsize, jg_dtype_name(counts->dtype));
  JG_RETURN_NOT_OK(jgi_view_check(counts, fn, "counts", err));
  JG_RETURN_IF(counts->layout.ndim != 1, JG_ESHAPE, err, "%s: counts must be 1-D, not %d-D", fn,
               (int)counts->layout.ndim);
  jg_device dev = {JG_DEVICE_CPU, 0};
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_view_device(counts, &dev, err), fn, err));
  if (!jgi_device_equal(dev, content->device)) {
    return jgi_error_prefix(backend_error(content->device, "content", dev, "counts", err), fn, err);
  }
  const jg_len n = counts->layout.shape[0];
  JG_RETURN_IF(n == INT64_MAX || n + 1 > INT64_MAX / 8, JG_EOVERFLOW, err,
               "%s: %lld offsets overflow a size", fn, (long long)n);
  const size_t bytes = (size_t)(n + 1) * 8;
  jg_buffer *ob = NULL;
  jg_status st = JG_OK;
  if (dev.type == JG_DEVICE_CPU) {
    JG_RETURN_NOT_OK(
        jgi_error_prefix(jg_buffer_allocate(jg_memory_resource_host(), bytes, NULL, &ob, err), fn,
                    err));
    st = jgi_counts_to_offsets_cpu(counts, content->length, jg_buffer_data(ob), fn, err);
  } else {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    int prev = 0;
    JG_RETURN_NOT_OK(jgi_error_prefix(jgi_cuda_device_push(dev.id, &prev, err), fn, err));
    jg_memory_resource *mr = NULL;
    st = jg_memory_resource_device(dev.id, &mr, err);
    if (st == JG_OK) st = jg_buffer_allocate(mr, bytes, stream, &ob, err);
    if (st != JG_OK) {
      st = jgi_error_prefix(st, fn, err);
    } else {
      st = counts_scan_device(counts, content->length, dev.id, ob, stream, fn, err);
    }
    jgi_cuda_device_pop(prev, dev.id);
#else
    st = jgi_error_prefix(jgi_cuda_require(err), fn, err);
    if (st == JG_OK) st = jg_error_set(err, JG_EINTERNAL, -1, "%s: built without CUDA", fn);
#endif
  }
  jg_view ov;
  if (st == JG_OK) st = jgi_error_prefix(offsets_view(ob, n, &ov, err), fn, err);
  if (st == JG_OK) st = jg_array_list_offset(&ov, content, out, err);
  jg_buffer_release(ob);
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Inspection                                                                                  */
/* ------------------------------------------------------------------------------------------ */

jg_node_kind jg_array_kind(const jg_array *a) { return a != NULL ? a->kind : (jg_node_kind)0; }

jg_len jg_array_length(const jg_array *a) { return a != NULL ? a->length : 0; }

jg_backend jg_array_backend(const jg_array *a) { return a != NULL ? a->backend : (jg_backend)0; }

jg_device jg_array_device(const jg_array *a) {
  if (a != NULL) return a->device;
  jg_device none = {(jg_device_type)0, 0};
  return none;
}

const char *jg_array_device_name(const jg_array *a, char *buf, size_t size) {
  if (a == NULL) {
    jg_device host = JG_DEVICE_HOST_INIT;
    return jgi_device_name(host, buf, size);
  }
  return jgi_device_name(a->device, buf, size);
}

int jg_array_num_children(const jg_array *a) { return a != NULL ? a->nchildren : 0; }

jg_array *jg_array_child(const jg_array *a, int k) {
  if (a == NULL || k < 0 || k >= a->nchildren) return NULL;
  return a->children[k];
}

const char *jg_array_field_name(const jg_array *a, int k) {
  if (a == NULL || a->kind != JG_NODE_RECORD || a->names == NULL || k < 0 || k >= a->nchildren)
    return NULL;
  return a->names[k];
}

int jg_array_field_index(const jg_array *a, const char *name) {
  if (a == NULL || name == NULL || a->kind != JG_NODE_RECORD) return -1;
  if (a->names != NULL) {
    for (int k = 0; k < a->nchildren; k++) {
      if (strcmp(a->names[k], name) == 0) return k;
    }
    return -1;
  }
  /* A tuple: fields are "0", "1", ... written without sign or leading zeros. */
  if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1] != '\0')) return -1;
  long k = 0;
  for (const char *p = name; *p != '\0'; p++) {
    if (*p < '0' || *p > '9') return -1;
    k = k * 10 + (*p - '0');
    if (k >= a->nchildren) return -1;
  }
  return (int)k;
}

jg_status jg_array_buffer(const jg_array *a, int k, jg_view *view, jg_error *err) {
  JG_RETURN_IF(a == NULL || view == NULL, JG_EINVAL, err, "jg_array_buffer: %s is NULL",
               a == NULL ? "a" : "view");
  JG_RETURN_IF_AT(k < 0 || k >= a->nbuffers, JG_EINDEX, err, k,
                  "jg_array_buffer: a %s node has no buffer %d (it has %d)",
                  jgi_array_node_name(a->kind), k, a->nbuffers);
  *view = a->buffers[k];
  return JG_OK;
}

jg_len jg_array_regular_size(const jg_array *a) {
  return a != NULL && a->kind == JG_NODE_REGULAR ? a->regular_size : -1;
}

bool jg_array_valid_when(const jg_array *a) {
  return a != NULL && (a->kind == JG_NODE_BYTE_MASKED || a->kind == JG_NODE_BIT_MASKED) &&
         a->valid_when;
}

bool jg_array_lsb_order(const jg_array *a) {
  return a != NULL && a->kind == JG_NODE_BIT_MASKED && a->lsb_order;
}

jg_len jg_array_bit_offset(const jg_array *a) {
  return a != NULL && a->kind == JG_NODE_BIT_MASKED ? a->bit_offset : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Slicing                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static jg_status slice_view(jg_view *v, jg_len start, jg_len stop, jg_error *err) {
  const jg_slice s = JG_SLICE(start, stop, 1);
  return jg_view_slice(v, v, 1, &s, err);
}

/* Entries [start, stop) of `a`, 0 <= start <= stop <= a->length, sharing every buffer. */
static jg_status slice_node(jg_array *a, jg_len start, jg_len stop, jg_array **out,
                            jg_error *err) {
  if ((start == 0 && stop == a->length) || a->kind == JG_NODE_EMPTY) {
    *out = jg_array_retain(a);
    return JG_OK;
  }
  jg_array *c = NULL;
  JG_RETURN_NOT_OK(node_clone(a, &c, err));
  jg_status st = JG_OK;
  jg_array *child = NULL;
  c->length = stop - start;
  switch (a->kind) {
    case JG_NODE_NUMERIC:
    case JG_NODE_INDEXED_OPTION:
      st = slice_view(&c->buffers[0], start, stop, err);
      break;
    case JG_NODE_LIST_OFFSET:
      st = slice_view(&c->buffers[0], start, stop + 1, err);
      break;
    case JG_NODE_LIST:
      st = slice_view(&c->buffers[0], start, stop, err);
      if (st == JG_OK) st = slice_view(&c->buffers[1], start, stop, err);
      break;
    case JG_NODE_REGULAR:
      if (a->regular_size > 0) {
        st = slice_node(a->children[0], start * a->regular_size, stop * a->regular_size, &child,
                        err);
      }
      break;
    case JG_NODE_RECORD:
      for (int k = 0; k < a->nchildren && st == JG_OK; k++) {
        st = slice_node(a->children[k], start, stop, &child, err);
        if (st == JG_OK) {
          jgi_array_set_child(c, k, child);
          jg_array_release(child);
          child = NULL;
        }
      }
      break;
    case JG_NODE_BYTE_MASKED:
      st = slice_view(&c->buffers[0], start, stop, err);
      if (st == JG_OK) st = slice_node(a->children[0], start, stop, &child, err);
      break;
    case JG_NODE_BIT_MASKED: {
      const jg_len first = a->bit_offset + start, end = a->bit_offset + stop;
      c->bit_offset = first % 8;
      st = slice_view(&c->buffers[0], first / 8, end / 8 + (end % 8 != 0), err);
      if (st == JG_OK) st = slice_node(a->children[0], start, stop, &child, err);
      break;
    }
    default:
      break;
  }
  if (st == JG_OK && child != NULL) jgi_array_set_child(c, 0, child);
  jg_array_release(child);
  if (st != JG_OK) {
    jg_array_release(c);
    return st;
  }
  *out = c;
  return JG_OK;
}

/* Python's slice bound adjustment for step 1. */
static jg_len clip_bound(jg_len i, jg_len n) {
  if (i < 0) {
    i += n;
    if (i < 0) i = 0;
  } else if (i > n) {
    i = n;
  }
  return i;
}

jg_status jg_array_slice(const jg_array *a, jg_len start, jg_len stop, jg_array **out,
                         jg_error *err) {
  static const char fn[] = "jg_array_slice";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  const jg_len n = a->length;
  start = clip_bound(start, n);
  stop = clip_bound(stop, n);
  if (stop < start) stop = start;
  return jgi_error_prefix(slice_node((jg_array *)a, start, stop, out, err), fn, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Reading list structure on the host (zip)                                                    */
/* ------------------------------------------------------------------------------------------ */

/* A host-readable copy of a node's index buffers: the views themselves for host memory, else
 * dense host copies made with jg_copy (the "copy the offsets back" design of zip). */
typedef struct host_index {
  jg_view v[JGI_ARRAY_MAX_BUFFERS];
  jg_buffer *tmp[JGI_ARRAY_MAX_BUFFERS];
  int n;
} host_index;

static void host_index_reset(host_index *h) {
  for (int k = 0; k < JGI_ARRAY_MAX_BUFFERS; k++) jg_buffer_release(h->tmp[k]);
  memset(h, 0, sizeof *h);
}

static jg_status host_index_init(host_index *h, const jg_array *a, jg_error *err) {
  memset(h, 0, sizeof *h);
  if (a->kind != JG_NODE_LIST_OFFSET && a->kind != JG_NODE_LIST) return JG_OK;
  h->n = a->nbuffers;
  for (int k = 0; k < a->nbuffers; k++) {
    const jg_view *src = &a->buffers[k];
    if (src->host_accessible) {
      h->v[k] = *src;
      continue;
    }
    jg_layout l;
    JG_RETURN_NOT_OK(jg_layout_init(&l, 1, src->layout.shape, NULL, src->layout.itemsize, err));
    size_t bytes = 0;
    JG_RETURN_NOT_OK(jg_layout_required_size(&l, &bytes, err));
    JG_RETURN_NOT_OK(jg_buffer_allocate(jg_memory_resource_host(), bytes, NULL, &h->tmp[k], err));
    JG_RETURN_NOT_OK(jg_view_from_buffer(&h->v[k], h->tmp[k], &l, src->dtype, false, err));
    JG_RETURN_NOT_OK(jg_copy(&h->v[k], src, err));
  }
  return JG_OK;
}

/* List i of a list-type node as [start, stop) into its content. */
static void list_bounds(const jg_array *a, const host_index *h, jg_len i, jg_len *start,
                        jg_len *stop) {
  switch (a->kind) {
    case JG_NODE_LIST_OFFSET:
      *start = jgi_view_get_index(&h->v[0], i);
      *stop = jgi_view_get_index(&h->v[0], i + 1);
      break;
    case JG_NODE_LIST:
      *start = jgi_view_get_index(&h->v[0], i);
      *stop = jgi_view_get_index(&h->v[1], i);
      break;
    default: /* regular */
      *start = i * a->regular_size;
      *stop = (i + 1) * a->regular_size;
      break;
  }
}

static bool is_list_kind(jg_node_kind k) {
  return k == JG_NODE_LIST_OFFSET || k == JG_NODE_LIST || k == JG_NODE_REGULAR;
}

/* A growing list of entry ranges [lo, hi) (the entries of one level that lists above reach). */
typedef struct ranges {
  jg_len *lohi;
  size_t n, cap;
} ranges;

static jg_status ranges_push(ranges *r, jg_len lo, jg_len hi, jg_error *err) {
  if (lo >= hi) return JG_OK;
  if (r->n > 0 && r->lohi[2 * r->n - 1] == lo) {
    r->lohi[2 * r->n - 1] = hi;
    return JG_OK;
  }
  if (r->n == r->cap) {
    const size_t cap = r->cap ? 2 * r->cap : 16;
    jg_len *p = realloc(r->lohi, cap * 2 * sizeof *p);
    JG_RETURN_IF(p == NULL, JG_ENOMEM, err, "cannot allocate %zu ranges", cap);
    r->lohi = p;
    r->cap = cap;
  }
  r->lohi[2 * r->n] = lo;
  r->lohi[2 * r->n + 1] = hi;
  r->n++;
  return JG_OK;
}

/* The fast form of zip_level's check on one range [lo, hi) of list-offset nodes: field 0's
 * offsets do not decrease and every field's offsets sit at a constant distance from field 0's
 * (so counts agree on every list). Offsets are read in chunks (jgi_view_read_index). Sets shift
 * and seen as the general loop would; false sends the caller to the general loop, which also
 * words the errors. */
static bool offsets_shifted(const host_index *h, int nf, jg_len lo, jg_len hi, jg_len *shift,
                            bool *seen) {
  enum { CHUNK = 1024 };
  int64_t a[CHUNK], b[CHUNK];
  const int64_t first0 = jgi_view_get_index(&h[0].v[0], lo);
  const int64_t last0 = jgi_view_get_index(&h[0].v[0], hi);
  int64_t prev = first0;
  for (jg_len i = lo; i <= hi; i += CHUNK) {
    const jg_len n = hi + 1 - i < CHUNK ? hi + 1 - i : CHUNK;
    jgi_view_read_index(&h[0].v[0], i, n, a);
    int64_t down = 0;
    for (jg_len j = 0; j < n; j++) {
      down |= a[j] < prev;
      prev = a[j];
    }
    if (down) return false;
  }
  for (int k = 1; k < nf; k++) {
    const int64_t d = jgi_view_get_index(&h[k].v[0], lo) - first0;
    for (jg_len i = lo; i <= hi; i += CHUNK) {
      const jg_len n = hi + 1 - i < CHUNK ? hi + 1 - i : CHUNK;
      jgi_view_read_index(&h[0].v[0], i, n, a);
      jgi_view_read_index(&h[k].v[0], i, n, b);
      int64_t off = 0;
      for (jg_len j = 0; j < n; j++) off |= (b[j] - a[j]) ^ d;
      if (off != 0) return false;
    }
    if (last0 > first0) {
      seen[k] = true;
      shift[k] = d;
    }
  }
  return true;
}

/* Whether the list-offset nodes a and b use the same offsets: the same memory, element type and
 * stride (so every list of one has the counts of the other, at distance 0). */
static bool same_offsets(const jg_array *a, const jg_array *b) {
  const jg_view *u = &a->buffers[0], *v = &b->buffers[0];
  return a->kind == JG_NODE_LIST_OFFSET && b->kind == JG_NODE_LIST_OFFSET &&
         jg_view_data(u) == jg_view_data(v) && u->dtype == v->dtype &&
         u->layout.ndim == 1 && v->layout.ndim == 1 && u->layout.shape[0] == v->layout.shape[0] &&
         u->layout.strides[0] == v->layout.strides[0] && jgi_device_equal(u->device, v->device);
}

/* Entry i of a 1-D index view in host or device memory (a one-element copy for the latter). */
static jg_status read_offset(const jg_view *v, jg_len i, int64_t *out, jg_error *err) {
  if (v->host_accessible) {
    *out = jgi_view_get_index(v, i);
    return JG_OK;
  }
  const jg_slice s = JG_SLICE(i, i + 1, 1);
  jg_view one, dst;
  JG_RETURN_NOT_OK(jg_view_slice(&one, v, 1, &s, err));
  int64_t word = 0;
  const jg_len shape[1] = {1};
  jg_layout l;
  JG_RETURN_NOT_OK(jg_layout_init(&l, 1, shape, NULL, v->layout.itemsize, err));
  JG_RETURN_NOT_OK(
      jg_view_from_pointer(&dst, &word, (jg_device){JG_DEVICE_CPU, 0}, &l, v->dtype, false, err));
  JG_RETURN_NOT_OK(jg_copy(&dst, &one, err));
  *out = jgi_index_at(&word, v->dtype);
  return JG_OK;
}

static void field_label(const char *const *names, int k, char *buf, size_t size) {
  if (names != NULL) {
    snprintf(buf, size, "field %d ('%s')", k, names[k]);
  } else {
    snprintf(buf, size, "field %d", k);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* zip                                                                                         */
/* ------------------------------------------------------------------------------------------ */

typedef struct zip_ctx {
  int nfields;
  const char *const *names;
  int depth_limit;
} zip_ctx;

/* Whether no list level is left in `a` (numbers, options of them, records of them): such a field
 * is repeated into the lists of the others. */
static bool list_free(const jg_array *a) {
  switch (a->kind) {
    case JG_NODE_NUMERIC:
      return a->buffers[0].layout.ndim == 1;
    case JG_NODE_EMPTY:
      return true;
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED:
    case JG_NODE_INDEXED_OPTION:
      return list_free(a->children[0]);
    case JG_NODE_RECORD:
      for (int k = 0; k < a->nchildren; k++) {
        if (!list_free(a->children[k])) return false;
      }
      return true;
    default:
      return false;
  }
}

/* next[k] for every field k without lists at this depth: fields[k] carried (jgi_carry, on its
 * backend) so that its entry p, for p < `length`, is the entry of the list of fields[ref]
 * (host index h[ref]) in `active` that reaches position p of ref's content; positions that no
 * reached list covers take entry 0. */
static jg_status repeat_fields(const zip_ctx *z, jg_array *const *fields, const host_index *h,
                               int ref, const ranges *active, jg_len length, jg_array **next,
                               jg_error *err) {
  jg_len len_r = 0;
  for (int k = 0; k < z->nfields; k++) {
    if (!is_list_kind(fields[k]->kind)) len_r = fields[k]->length;
  }
  /* The fields have one length (checked above: active lists lie within every field). */
  if (len_r == 0) length = 0;
  int64_t *parents = calloc(length > 0 ? (size_t)length : 1, sizeof *parents);
  JG_RETURN_IF(parents == NULL, JG_ENOMEM, err, "cannot allocate %lld list parents",
               (long long)length);
  for (size_t r = 0; r < active->n; r++) {
    for (jg_len i = active->lohi[2 * r]; i < active->lohi[2 * r + 1]; i++) {
      jg_len s, e;
      list_bounds(fields[ref], &h[ref], i, &s, &e);
      for (jg_len p = s < 0 ? 0 : s; p < e && p < length; p++) parents[p] = i;
    }
  }
  jgi_op_ctx c;
  jg_status st = jgi_op_ctx_init(&c, "jg_array_zip", fields[ref], NULL, err);
  if (st != JG_OK) {
    free(parents);
    return st;
  }
  jg_view pv;
  st = jgi_small_i64(&c, parents, length, &pv, err);
  for (int k = 0; k < z->nfields && st == JG_OK; k++) {
    if (is_list_kind(fields[k]->kind)) continue;
    st = jgi_carry(&c, fields[k], jgi_op_out_arg(&pv), &next[k], err);
  }
  st = jgi_op_ctx_finish(&c, st, err);
  free(parents);
  return st;
}

/* Zips `fields` at `depth` (1 = the top), where `active` lists the entries that the lists above
 * reach (in the coordinates of every field: the contents were aligned by slicing) and `base0`
 * is the entry of field 0's original node that entry 0 here corresponds to (for messages). */
static jg_status zip_level(const zip_ctx *z, jg_array **fields, int depth, const ranges *active,
                           jg_len base0, jg_array **out, jg_error *err) {
  const int nf = z->nfields;
  /* Zip goes down while some field has lists here and every other field has none left (it is
   * repeated into each list, as ak.zip broadcasts a value per list against lists). */
  bool descend = z->depth_limit < 0 || depth < z->depth_limit;
  int d0 = -1;
  for (int k = 0; k < nf && descend; k++) {
    if (is_list_kind(fields[k]->kind)) {
      if (d0 < 0) d0 = k;
    } else {
      descend = list_free(fields[k]);
    }
  }
  if (!descend || d0 < 0) return jg_array_record(nf, fields, z->names, -1, out, err);
  bool repeat = false;
  for (int k = 0; k < nf; k++) repeat |= !is_list_kind(fields[k]->kind);

  jg_status st = JG_OK;
  host_index *h = calloc((size_t)nf, sizeof *h);
  jg_len *shift = calloc((size_t)nf, sizeof *shift);
  bool *seen = calloc((size_t)nf, sizeof *seen);
  jg_array **next = calloc((size_t)nf, sizeof *next);
  ranges below = {NULL, 0, 0};
  if (h == NULL || shift == NULL || seen == NULL || next == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "cannot allocate zip state for %d fields", nf);
  }
  /* Lists above that reach past a field's end (an invalid input) would read out of bounds. */
  for (size_t r = 0; r < active->n && st == JG_OK; r++) {
    for (int k = 0; k < nf && st == JG_OK; k++) {
      if (active->lohi[2 * r + 1] > fields[k]->length) {
        char lk[96];
        field_label(z->names, k, lk, sizeof lk);
        st = jg_error_set(err, JG_EVALUE, k, "the lists above depth %d reach entry %lld of %s, "
                          "which has %lld", depth, (long long)(active->lohi[2 * r + 1] - 1),
                          lk, (long long)fields[k]->length);
      }
    }
  }
  /* Fields that share field 0's offsets (the fields of one record, and what elementwise
   * operations made from them) agree with it on every list at distance 0: nothing to check,
   * and nothing to copy back from a device; only the range below is read. */
  bool shared = st == JG_OK && active->n == 1 && !repeat;
  for (int k = 1; k < nf && shared; k++) shared = same_offsets(fields[0], fields[k]);
  if (shared && nf > 1) {
    int64_t lo = 0, hi = 0;
    st = read_offset(&fields[0]->buffers[0], active->lohi[0], &lo, err);
    if (st == JG_OK) st = read_offset(&fields[0]->buffers[0], active->lohi[1], &hi, err);
    if (st == JG_OK) st = ranges_push(&below, lo, hi, err);
  } else {
    shared = false;
  }
  for (int k = 0; k < nf && st == JG_OK && !shared; k++) {
    st = host_index_init(&h[k], fields[k], err);
  }
  /* Counts must agree on every reached list; the lists of field k must sit at a constant
   * distance shift[k] from those of field 0 so that one slice of its content aligns it. One
   * range of list-offset nodes (NanoAOD's columns, zipped as they are read) is checked in bulk;
   * anything else, or a failure there, takes the loop over lists. */
  bool bulk = st == JG_OK && active->n == 1 && !shared && !repeat;
  for (int k = 0; k < nf && bulk; k++) bulk = fields[k]->kind == JG_NODE_LIST_OFFSET;
  if (bulk) bulk = offsets_shifted(h, nf, active->lohi[0], active->lohi[1], shift, seen);
  if (bulk) {
    st = ranges_push(&below, jgi_view_get_index(&h[0].v[0], active->lohi[0]),
                     jgi_view_get_index(&h[0].v[0], active->lohi[1]), err);
  }
  for (size_t r = 0; r < active->n && st == JG_OK && !bulk && !shared; r++) {
    for (jg_len i = active->lohi[2 * r]; i < active->lohi[2 * r + 1] && st == JG_OK; i++) {
      jg_len s0, e0;
      list_bounds(fields[d0], &h[d0], i, &s0, &e0);
      for (int k = d0 + 1; k < nf && st == JG_OK; k++) {
        if (!is_list_kind(fields[k]->kind)) continue;
        jg_len sk, ek;
        list_bounds(fields[k], &h[k], i, &sk, &ek);
        if (ek - sk != e0 - s0) {
          char lk[96], l0[96];
          field_label(z->names, k, lk, sizeof lk);
          field_label(z->names, d0, l0, sizeof l0);
          st = jg_error_set(err, JG_ESHAPE, base0 + i,
                            "%s has %lld entries in list %lld at depth %d, %s has %lld", lk,
                            (long long)(ek - sk), (long long)(base0 + i), depth, l0,
                            (long long)(e0 - s0));
        } else if (e0 > s0) {
          if (!seen[k]) {
            seen[k] = true;
            shift[k] = sk - s0;
          } else if (sk - s0 != shift[k]) {
            char lk[96], l0[96];
            field_label(z->names, k, lk, sizeof lk);
            field_label(z->names, d0, l0, sizeof l0);
            st = jg_error_set(err, JG_ENOTSUP, base0 + i,
                              "the lists of %s are not laid out like those of %s (list "
                              "%lld at depth %d): compact them first",
                              lk, l0, (long long)(base0 + i), depth);
          }
        }
      }
      if (st == JG_OK) st = ranges_push(&below, s0, e0, err);
    }
  }
  /* The field with the smallest shift gives the list structure; the others' contents are
   * sliced so that entry j of each lines up with entry j of its content. */
  int ref = d0;
  for (int k = d0 + 1; k < nf; k++) {
    if (is_list_kind(fields[k]->kind) && shift[k] < shift[ref]) ref = k;
  }
  const jg_len m = shift[ref];
  for (int k = 0; k < nf && st == JG_OK; k++) {
    if (!is_list_kind(fields[k]->kind)) continue;
    jg_array *content = fields[k]->children[0];
    const jg_len from = shift[k] - m;
    if (from > content->length) {
      char lk[96];
      field_label(z->names, k, lk, sizeof lk);
      st = jg_error_set(err, JG_EVALUE, k, "%s: its lists point past its content at depth %d", lk,
                        depth);
    } else {
      st = slice_node(content, from, content->length, &next[k], err);
    }
  }
  /* Entries below are in field 0's content coordinates; shift them to the reference's. */
  for (size_t r = 0; r < below.n; r++) {
    below.lohi[2 * r] += m;
    below.lohi[2 * r + 1] += m;
  }
  /* Fields without lists here are repeated into each list: entry p of the next depth (in the
   * coordinates of ref's content) takes the entry of the list that reaches it. */
  if (st == JG_OK && repeat) {
    st = repeat_fields(z, fields, h, ref, active, fields[ref]->children[0]->length, next, err);
  }
  for (int k = 0; k < nf; k++) host_index_reset(&h[k]);
  jg_array *zipped = NULL;
  if (st == JG_OK) st = zip_level(z, next, depth + 1, &below, -m, &zipped, err);
  jg_array *node = NULL;
  if (st == JG_OK) st = node_clone(fields[ref], &node, err);
  if (st == JG_OK) {
    jgi_array_set_child(node, 0, zipped);
    *out = node;
  }
  jg_array_release(zipped);
  for (int k = 0; next != NULL && k < nf; k++) jg_array_release(next[k]);
  free(below.lohi);
  free(next);
  free(seen);
  free(shift);
  free(h);
  return st;
}

jg_status jg_array_zip(int nfields, jg_array *const *fields, const char *const *names,
                       int depth_limit, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_zip";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(nfields < 1, JG_EINVAL, err, "%s: nfields %d must be at least 1", fn, nfields);
  JG_RETURN_IF(fields == NULL, JG_EINVAL, err, "%s: fields is NULL", fn);
  JG_RETURN_IF(depth_limit == 0 || depth_limit < -1, JG_EINVAL, err,
               "%s: depth_limit %d must be -1 or >= 1", fn, depth_limit);
  for (int k = 0; k < nfields; k++) {
    JG_RETURN_IF_AT(fields[k] == NULL, JG_EINVAL, err, k, "%s: field %d is NULL", fn, k);
  }
  for (int k = 1; k < nfields; k++) {
    char lk[96], l0[96];
    field_label(names, k, lk, sizeof lk);
    field_label(names, 0, l0, sizeof l0);
    jg_status st = jg_array_check_same_backend(fields[0], l0, fields[k], lk, err);
    if (st != JG_OK) {
      if (err != NULL) err->index = k;
      return jgi_error_prefix(st, fn, err);
    }
    JG_RETURN_IF_AT(fields[k]->length != fields[0]->length, JG_ESHAPE, err, k,
                    "%s: %s has length %lld, %s has length %lld", fn, lk,
                    (long long)fields[k]->length, l0, (long long)fields[0]->length);
  }
  zip_ctx z = {nfields, names, depth_limit};
  ranges top = {NULL, 0, 0};
  JG_RETURN_NOT_OK(jgi_error_prefix(ranges_push(&top, 0, fields[0]->length, err), fn, err));
  jg_status st = zip_level(&z, (jg_array **)fields, 1, &top, 0, out, err);
  free(top.lohi);
  return jgi_error_prefix_once(st, fn, err);
}

/* ------------------------------------------------------------------------------------------ */
/* field and unzip                                                                             */
/* ------------------------------------------------------------------------------------------ */

static bool has_one_content(jg_node_kind k) {
  return k == JG_NODE_LIST_OFFSET || k == JG_NODE_LIST || k == JG_NODE_REGULAR ||
         k == JG_NODE_BYTE_MASKED || k == JG_NODE_BIT_MASKED || k == JG_NODE_INDEXED_OPTION;
}

/* The first record below `a` through single-content nodes, or NULL. */
static const jg_array *find_record(const jg_array *a) {
  while (a != NULL && has_one_content(a->kind)) a = a->children[0];
  return a != NULL && a->kind == JG_NODE_RECORD ? a : NULL;
}

/* Field k of the record below `a`, with the structure above the record kept. */
static jg_status extract_field(const jg_array *a, int k, jg_array **out, jg_error *err) {
  if (a->kind == JG_NODE_RECORD) {
    /* A record may be shorter than its fields: keep only its entries (zero-copy). */
    return slice_node(a->children[k], 0, a->length, out, err);
  }
  jg_array *inner = NULL;
  JG_RETURN_NOT_OK(extract_field(a->children[0], k, &inner, err));
  jg_array *c = NULL;
  jg_status st = node_clone(a, &c, err);
  if (st == JG_OK) {
    jgi_array_set_child(c, 0, inner);
    *out = c;
  }
  jg_array_release(inner);
  return st;
}

jg_status jg_array_field(const jg_array *a, const char *name, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_array_field";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL || name == NULL, JG_EINVAL, err, "%s: %s is NULL", fn,
               a == NULL ? "a" : "name");
  const jg_array *rec = find_record(a);
  JG_RETURN_IF(rec == NULL, JG_EINVAL, err, "%s: the array has no record (no field '%s')", fn,
               name);
  const int k = jg_array_field_index(rec, name);
  if (k < 0) {
    char list[256] = "";
    size_t used = 0;
    for (int j = 0; j < rec->nchildren && used < sizeof list; j++) {
      int w;
      if (rec->names != NULL) {
        w = snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", rec->names[j]);
      } else {
        w = snprintf(list + used, sizeof list - used, "%s%d", j ? ", " : "", j);
      }
      if (w < 0) break;
      used += (size_t)w;
    }
    return jg_error_set(err, JG_ENOTFOUND, -1, "%s: no field '%s' in %s {%s}", fn, name,
                        rec->names != NULL ? "the record's fields" : "the tuple's fields", list);
  }
  return jgi_error_prefix(extract_field(a, k, out, err), fn, err);
}

jg_status jg_array_unzip(const jg_array *a, int capacity, jg_array **outs, int *nfields,
                         jg_error *err) {
  static const char fn[] = "jg_array_unzip";
  JG_RETURN_IF(a == NULL || nfields == NULL, JG_EINVAL, err, "%s: %s is NULL", fn,
               a == NULL ? "a" : "nfields");
  JG_RETURN_IF(capacity < 0 || (capacity > 0 && outs == NULL), JG_EINVAL, err,
               "%s: outs is NULL or capacity %d is negative", fn, capacity);
  const jg_array *rec = find_record(a);
  JG_RETURN_IF(rec == NULL, JG_EINVAL, err, "%s: the array has no record", fn);
  *nfields = rec->nchildren;
  JG_RETURN_IF(capacity < rec->nchildren, JG_ESHAPE, err,
               "%s: the record has %d fields but outs holds only %d", fn, rec->nchildren,
               capacity);
  for (int k = 0; k < rec->nchildren; k++) outs[k] = NULL;
  for (int k = 0; k < rec->nchildren; k++) {
    jg_status st = extract_field(a, k, &outs[k], err);
    if (st != JG_OK) {
      for (int j = 0; j < k; j++) {
        jg_array_release(outs[j]);
        outs[j] = NULL;
      }
      return jgi_error_prefix(st, fn, err);
    }
  }
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Backends                                                                                    */
/* ------------------------------------------------------------------------------------------ */

jg_status jg_array_check_same_backend(const jg_array *a, const char *what_a, const jg_array *b,
                                      const char *what_b, jg_error *err) {
  JG_RETURN_IF(a == NULL || b == NULL, JG_EINVAL, err, "jg_array_check_same_backend: %s is NULL",
               a == NULL ? "a" : "b");
  if (jgi_device_equal(a->device, b->device)) return JG_OK;
  return backend_error(a->device, what_a != NULL ? what_a : "argument 1", b->device,
                       what_b != NULL ? what_b : "argument 2", err);
}

/* One buffer copied during a move, so that a buffer seen twice is copied once. */
typedef struct moved_buffer {
  jg_buffer *src;
  jg_buffer *dst;
} moved_buffer;

typedef struct mover {
  jg_device target;         /* normalised: {CPU, 0} or {CUDA, id} */
  jg_memory_resource *mr;   /* where copies go */
  jg_stream stream;
  moved_buffer *moved;
  size_t nmoved, cap;
  int ncopies;              /* copies enqueued */
  uint64_t src_devices;     /* bit d: a copy read device memory of GPU d (to_host) */
  bool src_devices_high;    /* some source GPU >= 64 */
} mover;

static bool view_on_target(const mover *m, const jg_view *v) {
  if (m->target.type == JG_DEVICE_CPU) return v->host_accessible;
  jg_device d = {JG_DEVICE_CPU, 0};
  if (jgi_view_device(v, &d, NULL) != JG_OK) return false;
  return jgi_device_equal(d, m->target);
}

/* The byte range of `v`'s memory to copy: its whole buffer when the view's base lies in it,
 * else the view's own span from its base. */
static jg_status source_range(const jg_view *v, char **start, size_t *bytes, bool *whole,
                              jg_error *err) {
  char *data = jg_buffer_data(v->buffer);
  const size_t size = jg_buffer_size(v->buffer);
  const uintptr_t b = (uintptr_t)v->base, d = (uintptr_t)data;
  if (v->base == data || (data != NULL && b >= d && b - d <= size)) {
    *start = data;
    *bytes = size;
    *whole = true;
    return JG_OK;
  }
  JG_RETURN_NOT_OK(jg_layout_required_size(&v->layout, bytes, err));
  *start = v->base;
  *whole = false;
  return JG_OK;
}

/* A view like `v` over a copy of its memory on the mover's target. */
static jg_status move_view(mover *m, const jg_view *v, jg_view *out, jg_error *err) {
  char *start = NULL;
  size_t bytes = 0;
  bool whole = false;
  JG_RETURN_NOT_OK(source_range(v, &start, &bytes, &whole, err));
  jg_buffer *dst = NULL;
  for (size_t i = 0; whole && i < m->nmoved; i++) {
    if (m->moved[i].src == v->buffer) dst = m->moved[i].dst;
  }
  if (dst == NULL) {
    JG_RETURN_NOT_OK(jg_buffer_allocate(m->mr, bytes, m->stream, &dst, err));
    if (m->nmoved == m->cap) {
      const size_t cap = m->cap ? 2 * m->cap : 8;
      moved_buffer *p = realloc(m->moved, cap * sizeof *p);
      if (p == NULL) {
        jg_buffer_release(dst);
        return jg_error_set(err, JG_ENOMEM, -1, "cannot allocate the buffer map");
      }
      m->moved = p;
      m->cap = cap;
    }
    /* The map owns the new buffer's first reference until the move ends. */
    m->moved[m->nmoved].src = whole ? v->buffer : NULL;
    m->moved[m->nmoved].dst = dst;
    m->nmoved++;
    if (bytes > 0) {
      jg_layout l;
      const jg_len n = (jg_len)bytes;
      JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &n, NULL, 1, err));
      jg_view s = *v, d;
      s.base = start;
      s.dtype = JG_DTYPE_UINT8;
      s.layout = l;
      JG_RETURN_NOT_OK(jg_view_from_buffer(&d, dst, &l, JG_DTYPE_UINT8, false, err));
      JG_RETURN_NOT_OK(jg_copy_async(&d, &s, m->stream, err));
      m->ncopies++;
      if (!v->host_accessible) {
        if (v->device.id >= 0 && v->device.id < 64) {
          m->src_devices |= (uint64_t)1 << v->device.id;
        } else {
          m->src_devices_high = true;
        }
      }
    }
  }
  jg_pointer_attributes attrs;
  memset(&attrs, 0, sizeof attrs);
  JG_RETURN_NOT_OK(jg_buffer_attributes(dst, &attrs, err));
  *out = *v;
  out->base = (char *)jg_buffer_data(dst) + ((char *)v->base - start);
  out->buffer = dst;
  out->device = attrs.device;
  out->host_accessible = attrs.host_accessible;
  out->device_accessible = attrs.device_accessible;
  return JG_OK;
}

/* The tree of `a` on the mover's target; subtrees already there are shared. */
static jg_status move_node(mover *m, jg_array *a, jg_array **out, jg_error *err) {
  bool same = jgi_device_equal(a->device, m->target);
  jg_array *kids[1] = {NULL};
  jg_array **moved_kids = a->nchildren <= 1 ? kids : calloc((size_t)a->nchildren, sizeof *kids);
  JG_RETURN_IF(moved_kids == NULL, JG_ENOMEM, err, "cannot allocate %d children", a->nchildren);
  jg_status st = JG_OK;
  for (int k = 0; k < a->nchildren && st == JG_OK; k++) {
    st = move_node(m, a->children[k], &moved_kids[k], err);
    if (st == JG_OK && moved_kids[k] != a->children[k]) same = false;
  }
  for (int k = 0; k < a->nbuffers; k++) {
    if (!view_on_target(m, &a->buffers[k])) same = false;
  }
  jg_array *c = NULL;
  if (st == JG_OK && same) {
    c = jg_array_retain(a);
  } else if (st == JG_OK) {
    st = node_clone(a, &c, err);
    for (int k = 0; k < a->nbuffers && st == JG_OK; k++) {
      if (view_on_target(m, &a->buffers[k])) continue;
      jg_view v;
      st = move_view(m, &a->buffers[k], &v, err);
      if (st == JG_OK) jgi_array_set_buffer(c, k, &v);
    }
    for (int k = 0; k < a->nchildren && st == JG_OK; k++) jgi_array_set_child(c, k, moved_kids[k]);
    if (st == JG_OK) {
      c->device = m->target;
      st = jgi_array_finish(c, err);
    }
    if (st != JG_OK) {
      jg_array_release(c);
      c = NULL;
    }
  }
  for (int k = 0; k < a->nchildren; k++) jg_array_release(moved_kids[k]);
  if (moved_kids != kids) free(moved_kids);
  *out = c;
  return st;
}

/* Waits for the copies of a move: the given stream, or with the legacy default stream the
 * default stream of every source device. */
static jg_status mover_sync(mover *m, jg_error *err) {
  if (m->ncopies == 0) return JG_OK;
  if (m->stream != NULL || m->target.type == JG_DEVICE_CUDA) {
    return jg_stream_synchronize(m->stream, err);
  }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  int count = 0;
  JG_RETURN_NOT_OK(jg_device_count(&count, err));
  for (int d = 0; d < count; d++) {
    if (d < 64 ? !(m->src_devices >> d & 1) : !m->src_devices_high) continue;
    int prev = 0;
    JG_RETURN_NOT_OK(jgi_cuda_device_push(d, &prev, err));
    jg_status st = jg_stream_synchronize(NULL, err);
    jgi_cuda_device_pop(prev, d);
    JG_RETURN_NOT_OK(st);
  }
  return JG_OK;
#else
  return jg_stream_synchronize(NULL, err);
#endif
}

static jg_status move_tree(mover *m, const jg_array *a, bool sync, const char *fn,
                           jg_array **out, jg_error *err) {
  jg_status st = move_node(m, (jg_array *)a, out, err);
  if (st != JG_OK) {
    /* Copies may still read or write buffers about to be freed: wait for them first. */
    (void)mover_sync(m, NULL);
  } else if (sync) {
    st = mover_sync(m, err);
    if (st != JG_OK) {
      jg_array_release(*out);
      *out = NULL;
    }
  }
  for (size_t i = 0; i < m->nmoved; i++) jg_buffer_release(m->moved[i].dst);
  free(m->moved);
  return jgi_error_prefix(st, fn, err);
}

jg_status jg_array_to_device(const jg_array *a, int device_id, jg_stream stream, jg_array **out,
                             jg_error *err) {
  static const char fn[] = "jg_array_to_device";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_cuda_check_device(device_id, err), fn, err));
  mover m;
  memset(&m, 0, sizeof m);
  m.target.type = JG_DEVICE_CUDA;
  m.target.id = device_id;
  m.stream = stream;
  JG_RETURN_NOT_OK(jgi_error_prefix(jg_memory_resource_device(device_id, &m.mr, err), fn, err));
  /* The copies (jg_copy_async) record their transfers under this call's name. */
  jgi_call_enter(fn);
  const jg_status st = move_tree(&m, a, false, fn, out, err);
  jgi_call_leave();
  return st;
}

static jg_status to_host_impl(const jg_array *a, jg_memory_resource *mr, jg_stream stream,
                              const char *fn, jg_array **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(a == NULL || mr == NULL, JG_EINVAL, err, "%s: %s is NULL", fn,
               a == NULL ? "a" : "mr");
  JG_RETURN_IF(!mr->host_accessible, JG_EINVAL, err,
               "%s: the memory resource is not host-accessible", fn);
  mover m;
  memset(&m, 0, sizeof m);
  m.target.type = JG_DEVICE_CPU;
  m.target.id = 0;
  m.stream = stream;
  m.mr = mr;
  jgi_call_enter(fn);
  const jg_status st = move_tree(&m, a, true, fn, out, err);
  jgi_call_leave();
  return st;
}

jg_status jg_array_to_host_ex(const jg_array *a, jg_memory_resource *mr, jg_stream stream,
                              jg_array **out, jg_error *err) {
  return to_host_impl(a, mr, stream, "jg_array_to_host_ex", out, err);
}

jg_status jg_array_to_host(const jg_array *a, jg_stream stream, jg_array **out, jg_error *err) {
  return to_host_impl(a, jg_memory_resource_host(), stream, "jg_array_to_host", out, err);
}
