/* arrow_take.c: host conversions of jagged nodes that Arrow cannot carry as they are (interface
 * in arrow_internal.h): list (starts/stops) to list-offset, indexed-option to bit-masked, and the
 * gather ("carry", Awkward's term) they both need. Every buffer made here is host memory from
 * jg_memory_resource_host(). */
#include <stdlib.h>
#include <string.h>

#include "io/arrow/arrow_internal.h"

/* ---- small helpers ------------------------------------------------------------------------- */

/* A new dense host buffer of `ndim` axes `shape` of `dtype`, viewed in `*view`; `*data` is its
 * address (NULL for 0 elements). The caller owns `*buf` (one reference). */
static jg_status new_dense(jg_dtype dtype, int ndim, const jg_len *shape, jg_buffer **buf,
                           jg_view *view, void **data, jg_error *err) {
  *buf = NULL;
  jg_layout layout;
  JG_RETURN_NOT_OK(jg_layout_init(&layout, ndim, shape, NULL, jg_dtype_itemsize(dtype), err));
  size_t bytes = 0;
  JG_RETURN_NOT_OK(jg_layout_required_size(&layout, &bytes, err));
  JG_RETURN_NOT_OK(jg_buffer_allocate(jg_memory_resource_host(), bytes, NULL, buf, err));
  jg_status st = jg_view_from_buffer(view, *buf, &layout, dtype, false, err);
  if (st != JG_OK) {
    jg_buffer_release(*buf);
    *buf = NULL;
    return st;
  }
  if (data != NULL) *data = jg_buffer_data(*buf);
  return JG_OK;
}

static jg_status new_vector(jg_dtype dtype, jg_len n, jg_buffer **buf, jg_view *view, void **data,
                            jg_error *err) {
  return new_dense(dtype, 1, &n, buf, view, data, err);
}

static jg_status require_cpu(const jg_array *a, jg_error *err) {
  JG_RETURN_IF(a->backend != JG_BACKEND_CPU, JG_EBACKEND, err,
               "host conversion of a %s node needs a cpu array", jgi_array_node_name(a->kind));
  return JG_OK;
}

/* Whether entry `i` of a masked node is valid. */
static bool mask_valid(const jg_array *a, jg_len i) {
  const jg_view *m = &a->buffers[0];
  bool v;
  if (a->kind == JG_NODE_BYTE_MASKED) {
    v = jgi_view_get_index(m, i) != 0;
  } else {
    const int64_t bit = a->bit_offset + i;
    const int64_t byte = jgi_view_get_index(m, bit / 8);
    const int shift = a->lsb_order ? (int)(bit % 8) : 7 - (int)(bit % 8);
    v = ((byte >> shift) & 1) != 0;
  }
  return v == a->valid_when;
}

/* ---- take ---------------------------------------------------------------------------------- */

static jg_status take_numeric(const jg_array *a, const int64_t *idx, jg_len n, jg_array **out,
                              jg_error *err) {
  const jg_view *d = &a->buffers[0];
  const int ndim = d->layout.ndim;
  const int64_t itemsize = d->layout.itemsize;
  int64_t row = itemsize; /* bytes per entry (inner dimensions included) */
  for (int k = 1; k < ndim; ++k)
    JG_RETURN_IF(jgi_mul_overflow(row, d->layout.shape[k], &row), JG_EOVERFLOW, err,
                 "row size of numeric data overflows");
  jg_view src = *d;
  jg_buffer *tmp = NULL;
  jg_status st = JG_OK;
  if (!jg_layout_is_contiguous_c(&d->layout)) {
    st = new_dense(d->dtype, ndim, d->layout.shape, &tmp, &src, NULL, err);
    if (st == JG_OK) st = jg_copy(&src, d, err);
    if (st != JG_OK) {
      jg_buffer_release(tmp);
      return st;
    }
  }
  jg_len shape[JG_MAX_NDIM];
  memcpy(shape, d->layout.shape, sizeof(jg_len) * (size_t)ndim);
  shape[0] = n;
  jg_buffer *buf = NULL;
  jg_view view;
  void *data = NULL;
  st = new_dense(d->dtype, ndim, shape, &buf, &view, &data, err);
  if (st == JG_OK) {
    const char *first = (const char *)jg_view_data(&src);
    for (jg_len i = 0; i < n && st == JG_OK; ++i) {
      char *dst = (char *)data + i * row;
      if (idx[i] < 0) {
        memset(dst, 0, (size_t)row);
      } else if (idx[i] >= d->layout.shape[0]) {
        st = jg_error_set(err, JG_EVALUE, idx[i],
                          "index %lld is past the end of numeric data of length %lld",
                          (long long)idx[i], (long long)d->layout.shape[0]);
      } else {
        memcpy(dst, first + idx[i] * row, (size_t)row);
      }
    }
  }
  if (st == JG_OK) st = jg_array_numeric(&view, out, err);
  jg_buffer_release(buf);
  jg_buffer_release(tmp);
  return st;
}

/* Lists (list-offset or list) to a list node with gathered int64 starts and stops. */
static jg_status take_list(const jg_array *a, const int64_t *idx, jg_len n, jg_array **out,
                           jg_error *err) {
  jg_buffer *sb = NULL;
  jg_buffer *tb = NULL;
  jg_view sv;
  jg_view tv;
  int64_t *starts = NULL;
  int64_t *stops = NULL;
  jg_status st = new_vector(JG_DTYPE_INT64, n, &sb, &sv, (void **)&starts, err);
  if (st == JG_OK) st = new_vector(JG_DTYPE_INT64, n, &tb, &tv, (void **)&stops, err);
  for (jg_len i = 0; i < n && st == JG_OK; ++i) {
    const int64_t j = idx[i];
    if (j < 0) {
      starts[i] = stops[i] = 0;
    } else if (j >= a->length) {
      st = jg_error_set(err, JG_EVALUE, j, "index %lld is past the end of a %s node of length %lld",
                        (long long)j, jgi_array_node_name(a->kind), (long long)a->length);
    } else if (a->kind == JG_NODE_LIST_OFFSET) {
      starts[i] = jgi_view_get_index(&a->buffers[0], j);
      stops[i] = jgi_view_get_index(&a->buffers[0], j + 1);
    } else {
      starts[i] = jgi_view_get_index(&a->buffers[0], j);
      stops[i] = jgi_view_get_index(&a->buffers[1], j);
    }
  }
  if (st == JG_OK) st = jg_array_list(&sv, &tv, a->children[0], out, err);
  jg_buffer_release(sb);
  jg_buffer_release(tb);
  return st;
}

/* An indexed-option node over `content` with a copy of the `n` entries of `index`. */
static jg_status make_indexed(jg_array *content, const int64_t *index, jg_len n, jg_array **out,
                              jg_error *err) {
  jg_buffer *ib = NULL;
  jg_view iv;
  int64_t *data = NULL;
  JG_RETURN_NOT_OK(new_vector(JG_DTYPE_INT64, n, &ib, &iv, (void **)&data, err));
  if (n > 0) memcpy(data, index, (size_t)n * sizeof(int64_t));
  jg_status st = jg_array_indexed_option(&iv, content, out, err);
  jg_buffer_release(ib);
  return st;
}

static jg_status take_option(const jg_array *a, const int64_t *idx, jg_len n, jg_array **out,
                             jg_error *err) {
  int64_t *index = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  JG_RETURN_IF(index == NULL, JG_ENOMEM, err, "out of host memory for %lld indexes", (long long)n);
  jg_status st = JG_OK;
  for (jg_len i = 0; i < n && st == JG_OK; ++i) {
    const int64_t j = idx[i];
    if (j < 0) {
      index[i] = -1;
    } else if (j >= a->length) {
      st = jg_error_set(err, JG_EVALUE, j, "index %lld is past the end of a %s node of length %lld",
                        (long long)j, jgi_array_node_name(a->kind), (long long)a->length);
    } else if (a->kind == JG_NODE_INDEXED_OPTION) {
      const int64_t k = jgi_view_get_index(&a->buffers[0], j);
      index[i] = k < 0 ? -1 : k;
    } else {
      index[i] = mask_valid(a, j) ? j : -1;
    }
  }
  if (st == JG_OK) st = make_indexed(a->children[0], index, n, out, err);
  free(index);
  return st;
}

static jg_status take_regular(const jg_array *a, const int64_t *idx, jg_len n, jg_array **out,
                              jg_error *err) {
  const jg_len size = a->regular_size;
  jg_len total;
  JG_RETURN_IF(jgi_mul_overflow(n, size, &total), JG_EOVERFLOW, err,
               "%lld lists of size %lld overflow", (long long)n, (long long)size);
  int64_t *inner = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
  JG_RETURN_IF(inner == NULL, JG_ENOMEM, err, "out of host memory for %lld indexes",
               (long long)total);
  jg_status st = JG_OK;
  for (jg_len i = 0; i < n && st == JG_OK; ++i) {
    const int64_t j = idx[i];
    if (j >= a->length) {
      st = jg_error_set(err, JG_EVALUE, j,
                        "index %lld is past the end of a regular node of length "
                        "%lld",
                        (long long)j, (long long)a->length);
      break;
    }
    for (jg_len k = 0; k < size; ++k) inner[i * size + k] = j < 0 ? -1 : j * size + k;
  }
  jg_array *content = NULL;
  if (st == JG_OK) st = jgi_arrow_take(a->children[0], inner, total, &content, err);
  free(inner);
  if (st == JG_OK) st = jg_array_regular(content, size, size > 0 ? -1 : n, out, err);
  jg_array_release(content);
  return st;
}

static jg_status take_record(const jg_array *a, const int64_t *idx, jg_len n, jg_array **out,
                             jg_error *err) {
  for (jg_len i = 0; i < n; ++i)
    JG_RETURN_IF_AT(idx[i] >= a->length, JG_EVALUE, err, idx[i],
                    "index %lld is past the end of a record node of length %lld", (long long)idx[i],
                    (long long)a->length);
  const int nf = a->nchildren;
  jg_array **fields = (jg_array **)calloc((size_t)(nf > 0 ? nf : 1), sizeof(jg_array *));
  JG_RETURN_IF(fields == NULL, JG_ENOMEM, err, "out of host memory for %d fields", nf);
  jg_status st = JG_OK;
  for (int k = 0; k < nf && st == JG_OK; ++k)
    st = jgi_arrow_take(a->children[k], idx, n, &fields[k], err);
  if (st == JG_OK) st = jg_array_record(nf, fields, (const char *const *)a->names, n, out, err);
  for (int k = 0; k < nf; ++k) jg_array_release(fields[k]);
  free(fields);
  return st;
}

jg_status jgi_arrow_take(const jg_array *a, const int64_t *idx, jg_len n, jg_array **out,
                         jg_error *err) {
  *out = NULL;
  JG_RETURN_NOT_OK(require_cpu(a, err));
  switch (a->kind) {
    case JG_NODE_NUMERIC:
      return take_numeric(a, idx, n, out, err);
    case JG_NODE_EMPTY: {
      for (jg_len i = 0; i < n; ++i)
        JG_RETURN_IF_AT(idx[i] >= 0, JG_EVALUE, err, idx[i],
                        "index %lld is past the end of an empty node", (long long)idx[i]);
      if (n == 0) return jg_array_empty(out, err);
      /* Placeholders of unknown type: None entries over the empty node. */
      int64_t *none = (int64_t *)malloc((size_t)n * sizeof(int64_t));
      JG_RETURN_IF(none == NULL, JG_ENOMEM, err, "out of host memory for %lld indexes",
                   (long long)n);
      for (jg_len i = 0; i < n; ++i) none[i] = -1;
      jg_status st = make_indexed((jg_array *)a, none, n, out, err);
      free(none);
      return st;
    }
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST:
      return take_list(a, idx, n, out, err);
    case JG_NODE_REGULAR:
      return take_regular(a, idx, n, out, err);
    case JG_NODE_RECORD:
      return take_record(a, idx, n, out, err);
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED:
    case JG_NODE_INDEXED_OPTION:
      return take_option(a, idx, n, out, err);
    default:
      return jg_error_set(err, JG_EINTERNAL, -1, "unknown node kind %d", (int)a->kind);
  }
}

/* ---- conversions --------------------------------------------------------------------------- */

jg_status jgi_arrow_convert_list(const jg_array *a, jg_len start, jg_len len, jg_array **out,
                                 jg_error *err) {
  *out = NULL;
  JG_RETURN_NOT_OK(require_cpu(a, err));
  const jg_view *sv = &a->buffers[0];
  const jg_view *tv = &a->buffers[1];
  const jg_array *content = a->children[0];
  const jg_len clen = content->length;
  bool contiguous = true;
  jg_len total = 0;
  for (jg_len i = 0; i < len; ++i) {
    const int64_t s = jgi_view_get_index(sv, start + i);
    const int64_t t = jgi_view_get_index(tv, start + i);
    /* Awkward's rule, as jg_array_validate: an empty list may start anywhere. */
    JG_RETURN_IF_AT(t < s || (s < t && (s < 0 || t > clen)), JG_EVALUE, err, start + i,
                    "list %lld spans [%lld, %lld), not within the content's %lld entries",
                    (long long)(start + i), (long long)s, (long long)t, (long long)clen);
    if (i > 0 && s != jgi_view_get_index(tv, start + i - 1)) contiguous = false;
    JG_RETURN_IF(jgi_add_overflow(total, t - s, &total), JG_EOVERFLOW, err,
                 "total list length overflows int64");
  }
  /* Lists that are all empty are written from 0, wherever they start (the gather below, of
   * nothing). */
  if (total == 0) contiguous = false;
  /* Offsets keep int32 when their values fit. */
  int64_t maxval = total;
  if (contiguous && len > 0) maxval = jgi_view_get_index(tv, start + len - 1);
  const jg_dtype odt =
      sv->dtype == JG_DTYPE_INT32 && maxval <= INT32_MAX ? JG_DTYPE_INT32 : JG_DTYPE_INT64;
  jg_len nofs;
  JG_RETURN_IF(jgi_add_overflow(len, (jg_len)1, &nofs), JG_EOVERFLOW, err, "length overflows");
  jg_buffer *ob = NULL;
  jg_view ov;
  void *odata = NULL;
  JG_RETURN_NOT_OK(new_vector(odt, nofs, &ob, &ov, &odata, err));
  jg_status st = JG_OK;
  jg_array *gathered = NULL;
  int64_t *gidx = NULL;
  if (!contiguous) {
    gidx = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
    if (gidx == NULL)
      st =
          jg_error_set(err, JG_ENOMEM, -1, "out of host memory for %lld indexes", (long long)total);
  }
  int64_t pos = 0;
  for (jg_len i = 0; i <= len && st == JG_OK; ++i) {
    int64_t v;
    if (contiguous) {
      v = i == 0 ? (len > 0 ? jgi_view_get_index(sv, start) : 0)
                 : jgi_view_get_index(tv, start + i - 1);
    } else {
      v = pos;
      if (i < len) {
        const int64_t s = jgi_view_get_index(sv, start + i);
        const int64_t t = jgi_view_get_index(tv, start + i);
        for (int64_t k = s; k < t; ++k) gidx[pos++] = k;
      }
    }
    if (odt == JG_DTYPE_INT32)
      ((int32_t *)odata)[i] = (int32_t)v;
    else
      ((int64_t *)odata)[i] = v;
  }
  if (st == JG_OK && !contiguous) st = jgi_arrow_take(content, gidx, total, &gathered, err);
  if (st == JG_OK) st = jg_array_list_offset(&ov, contiguous ? a->children[0] : gathered, out, err);
  free(gidx);
  jg_array_release(gathered);
  jg_buffer_release(ob);
  return st;
}

jg_status jgi_arrow_convert_indexed(const jg_array *a, jg_len start, jg_len len, jg_array **out,
                                    jg_error *err) {
  *out = NULL;
  JG_RETURN_NOT_OK(require_cpu(a, err));
  int64_t *idx = (int64_t *)malloc((size_t)(len > 0 ? len : 1) * sizeof(int64_t));
  JG_RETURN_IF(idx == NULL, JG_ENOMEM, err, "out of host memory for %lld indexes", (long long)len);
  jg_buffer *mb = NULL;
  jg_view mv;
  uint8_t *bits = NULL;
  const jg_len nbytes = JGI_ARROW_BITMAP_BYTES(len);
  jg_status st = new_vector(JG_DTYPE_UINT8, nbytes, &mb, &mv, (void **)&bits, err);
  if (st == JG_OK) {
    if (nbytes > 0) memset(bits, 0, (size_t)nbytes);
    const jg_len m = a->children[0]->length;
    for (jg_len i = 0; i < len && st == JG_OK; ++i) {
      const int64_t k = jgi_view_get_index(&a->buffers[0], start + i);
      idx[i] = k < 0 ? -1 : k;
      if (k >= 0) bits[i / 8] |= (uint8_t)(1u << (i % 8));
      if (k >= m) {
        st = jg_error_set(err, JG_EINDEX, start + i,
                          "the option index at position %lld points past the content (index "
                          "%lld, %lld entries)",
                          (long long)(start + i), (long long)k, (long long)m);
      }
    }
  }
  jg_array *content = NULL;
  if (st == JG_OK) st = jgi_arrow_take(a->children[0], idx, len, &content, err);
  if (st == JG_OK) st = jg_array_bit_masked(&mv, true, true, len, content, out, err);
  jg_array_release(content);
  jg_buffer_release(mb);
  free(idx);
  return st;
}

/* A copy of node `a` (same kind, fields and buffers) with children `kids`. */
static jg_status rebuild(const jg_array *a, jg_array *const *kids, jg_array **out, jg_error *err) {
  jg_array *b = NULL;
  JG_RETURN_NOT_OK(jgi_array_new(a->kind, a->nchildren, &b, err));
  b->length = a->length;
  b->device = a->device;
  b->backend = a->backend;
  b->regular_size = a->regular_size;
  b->bit_offset = a->bit_offset;
  b->valid_when = a->valid_when;
  b->lsb_order = a->lsb_order;
  for (int k = 0; k < a->nbuffers; ++k) jgi_array_set_buffer(b, k, &a->buffers[k]);
  for (int k = 0; k < a->nchildren; ++k) jgi_array_set_child(b, k, kids[k]);
  jg_status st = JG_OK;
  if (a->kind == JG_NODE_RECORD && a->names != NULL)
    st = jgi_array_set_names(b, (const char *const *)a->names, err);
  if (st == JG_OK) st = jgi_array_finish(b, err);
  if (st != JG_OK) {
    jg_array_release(b);
    return st;
  }
  *out = b;
  return JG_OK;
}

jg_status jgi_arrow_normalize(const jg_array *a, jg_array **out, jg_error *err) {
  *out = NULL;
  jg_array *top = NULL;
  if (a->kind == JG_NODE_LIST) {
    JG_RETURN_NOT_OK(jgi_arrow_convert_list(a, 0, a->length, &top, err));
  } else if (a->kind == JG_NODE_INDEXED_OPTION) {
    JG_RETURN_NOT_OK(jgi_arrow_convert_indexed(a, 0, a->length, &top, err));
  } else {
    top = jg_array_retain((jg_array *)a);
  }
  const int nk = top->nchildren;
  if (nk == 0) {
    *out = top;
    return JG_OK;
  }
  jg_array **kids = (jg_array **)calloc((size_t)nk, sizeof(jg_array *));
  if (kids == NULL) {
    jg_array_release(top);
    return jg_error_set(err, JG_ENOMEM, -1, "out of host memory for %d children", nk);
  }
  jg_status st = JG_OK;
  bool changed = false;
  for (int k = 0; k < nk && st == JG_OK; ++k) {
    st = jgi_arrow_normalize(top->children[k], &kids[k], err);
    if (st == JG_OK && kids[k] != top->children[k]) changed = true;
  }
  if (st == JG_OK && changed) {
    jg_array *b = NULL;
    st = rebuild(top, kids, &b, err);
    if (st == JG_OK) {
      jg_array_release(top);
      top = b;
    }
  }
  for (int k = 0; k < nk; ++k) jg_array_release(kids[k]);
  free(kids);
  if (st != JG_OK) {
    jg_array_release(top);
    return st;
  }
  *out = top;
  return JG_OK;
}
