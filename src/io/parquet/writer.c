/* writer.c: jagged arrays to Parquet files (include/jagged/parquet_writer.h).
 *
 * Spec: parquet-format (parquet.thrift: FileMetaData, SchemaElement, ColumnChunk, PageHeader;
 * Encodings.md: PLAIN, RLE / bit-packed hybrid levels, RLE_DICTIONARY; LogicalTypes.md: the
 * 3-level LIST), and Dremel's repetition and definition levels.
 *
 * Steps: the table's layout tree becomes a tree of `wnode`s (options folded into the node below
 * them as one OPTIONAL level; numeric inner dimensions become regular lists; lists of uint8
 * become BYTE_ARRAY leaves), which gives the schema and, per leaf, the path of nodes from the
 * top. Then, row group by row group and leaf by leaf, the path is walked over the row group's
 * rows ("shredding"): the walk keeps a sequence of level slots, each either finished (a None or
 * an empty list, with its definition level) or live (pointing at an entry of the current node),
 * and each list node expands its live slots into their entries. At the leaf the live entries'
 * values are gathered into the physical type, a dictionary is tried, and the column chunk is cut
 * into pages at row boundaries, encoded, compressed and written. The footer (FileMetaData) goes
 * last. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_parquet.h"
#include "jagged/array.h"
#include "jagged/parquet_writer.h"
#include "jagged/version.h"
#include "jagged/view.h"

/* Deepest nesting written (options, lists and records on the way to a leaf), as the reader's
 * limit. */
#define MAX_DEPTH 64

/* ---- Options ------------------------------------------------------------------------------ */

void jg_parquet_write_options_init(jg_parquet_write_options *o) {
  if (o == NULL) return;
  memset(o, 0, sizeof *o);
  o->version = (uint32_t)sizeof *o;
  o->codec = JG_PARQUET_SNAPPY;
  o->data_page_version = 1;
  o->dictionary = true;
  o->row_group_rows = JG_PARQUET_DEFAULT_ROW_GROUP_ROWS;
  o->page_size = JG_PARQUET_DEFAULT_PAGE_SIZE;
  o->dictionary_size = JG_PARQUET_DEFAULT_DICTIONARY_SIZE;
}

/* Whether the writer knows `codec` (a jg_parquet_codec, numbered as the spec's codecs). */
static bool codec_known(int codec) {
  switch (codec) {
    case JG_PARQUET_UNCOMPRESSED:
    case JG_PARQUET_SNAPPY:
    case JG_PARQUET_GZIP:
    case JG_PARQUET_BROTLI:
    case JG_PARQUET_ZSTD:
    case JG_PARQUET_LZ4_RAW: return true;
  }
  return false;
}

bool jg_parquet_codec_available(jg_parquet_codec codec) {
  return codec_known((int)codec) && jgi_pq_codec_available((int)codec);
}

/* Checks *in (NULL: defaults) and copies it to *o. */
static jg_status options_check(const jg_parquet_write_options *in, jg_parquet_write_options *o,
                               jg_error *err) {
  jg_parquet_write_options_init(o);
  if (in == NULL) return JG_OK;
  JG_RETURN_IF(in->version != 0 && in->version != sizeof *in, JG_EINVAL, err,
               "options->version is %u, expected %zu (call jg_parquet_write_options_init)",
               (unsigned)in->version, sizeof *in);
  *o = *in;
  o->version = (uint32_t)sizeof *o;
  for (size_t i = 0; i < sizeof o->reserved; i++)
    JG_RETURN_IF(o->reserved[i] != 0, JG_EINVAL, err, "options->reserved must be zero");
  JG_RETURN_IF(!codec_known((int)o->codec), JG_EINVAL, err,
               "options->codec %d is not a codec the writer knows", (int)o->codec);
  JG_RETURN_IF(!jg_parquet_codec_available(o->codec), JG_ENOTSUP, err,
               "codec %s is not built into this jagged (its library was not found at build "
               "time); choose another codec",
               jgi_pq_codec_name((int)o->codec));
  JG_RETURN_IF(o->data_page_version != 1 && o->data_page_version != 2, JG_EINVAL, err,
               "options->data_page_version is %d, expected 1 or 2", o->data_page_version);
  JG_RETURN_IF(o->row_group_rows < 1, JG_EINVAL, err, "options->row_group_rows is %lld, must be >= 1",
               (long long)o->row_group_rows);
  JG_RETURN_IF(o->page_size < 1, JG_EINVAL, err, "options->page_size is %lld, must be >= 1",
               (long long)o->page_size);
  JG_RETURN_IF(o->dictionary_size < 1, JG_EINVAL, err,
               "options->dictionary_size is %lld, must be >= 1", (long long)o->dictionary_size);
  return JG_OK;
}

/* ---- The column tree ---------------------------------------------------------------------- */

enum { W_LEAF, W_BYTES, W_EMPTY, W_LIST, W_RECORD };

/* Where a list node's entries are: offsets (list-offset), starts and stops (list), or a fixed
 * size (regular, and the inner dimensions of numeric data). */
typedef struct wlist {
  int kind; /* JG_NODE_LIST_OFFSET, JG_NODE_LIST, JG_NODE_REGULAR */
  jg_view a, b;
  int64_t size;
} wlist;

/* Flat 1-D values: entry i at base + i * stride (bytes). */
typedef struct wleaf {
  const uint8_t *base;
  int64_t stride;
  jg_dtype dtype;
} wleaf;

typedef struct wnode {
  int kind;
  const char *name;           /* schema name (field name, "element"), owned by the writer */
  const jg_array *opt;        /* outermost option node above this node, or NULL */
  int nopt;                   /* options in the chain from opt down (one OPTIONAL level) */
  wlist list;                 /* W_LIST, W_BYTES */
  wleaf leaf;                 /* W_LEAF, W_BYTES (the uint8 content) */
  struct wnode **children;    /* W_RECORD: nchildren; W_LIST: 1 */
  int nchildren;
} wnode;

/* One leaf column: its path of nodes from the top-level field and its schema facts. */
typedef struct wcolumn {
  const wnode *path[MAX_DEPTH + 1];
  int depth; /* nodes in path */
  char *dotted;   /* path_in_schema joined by dots, for messages */
  char **names;   /* path_in_schema, in the metadata arena */
  int nnames;
  int max_def, max_rep;
  int type;       /* physical type */
  int width;      /* bytes of a PLAIN value (BOOLEAN 1 before packing; BYTE_ARRAY 0) */
} wcolumn;

/* The writer's state for one call. */
typedef struct writer {
  jg_parquet_write_options o;
  wnode **nodes;  /* every node made, for freeing */
  int nnodes, cap_nodes;
  void **owned;   /* other allocations (names, dense copies) */
  int nowned, cap_owned;
  wcolumn *cols;
  int ncols, cap_cols;
  jgi_pq_file_meta meta;
} writer;

static jg_status own(writer *w, void *p, jg_error *err) {
  if (p == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
  if (w->nowned == w->cap_owned) {
    int cap = w->cap_owned ? 2 * w->cap_owned : 16;
    void **q = realloc(w->owned, (size_t)cap * sizeof *q);
    if (q == NULL) {
      free(p);
      return jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
    }
    w->owned = q;
    w->cap_owned = cap;
  }
  w->owned[w->nowned++] = p;
  return JG_OK;
}

static jg_status own_strdup(writer *w, const char *s, const char **out, jg_error *err) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p != NULL) memcpy(p, s, n);
  JG_RETURN_NOT_OK(own(w, p, err));
  *out = p;
  return JG_OK;
}

static jg_status node_new(writer *w, int kind, const char *name, wnode **out, jg_error *err) {
  if (w->nnodes == w->cap_nodes) {
    int cap = w->cap_nodes ? 2 * w->cap_nodes : 16;
    wnode **q = realloc(w->nodes, (size_t)cap * sizeof *q);
    JG_RETURN_IF(q == NULL, JG_ENOMEM, err, "out of host memory");
    w->nodes = q;
    w->cap_nodes = cap;
  }
  wnode *n = calloc(1, sizeof *n);
  JG_RETURN_IF(n == NULL, JG_ENOMEM, err, "out of host memory");
  w->nodes[w->nnodes++] = n;
  n->kind = kind;
  JG_RETURN_NOT_OK(own_strdup(w, name, &n->name, err));
  *out = n;
  return JG_OK;
}

static bool is_option(jg_node_kind k) {
  return k == JG_NODE_BYTE_MASKED || k == JG_NODE_BIT_MASKED || k == JG_NODE_INDEXED_OPTION;
}

static bool is_list(jg_node_kind k) {
  return k == JG_NODE_LIST_OFFSET || k == JG_NODE_LIST || k == JG_NODE_REGULAR;
}

/* A 1-D numeric node's values as a wleaf. */
static void leaf_of_view(const jg_view *v, wleaf *l) {
  l->base = jg_view_data(v);
  l->stride = v->layout.strides[0] * v->layout.itemsize;
  l->dtype = v->dtype;
}

static jg_status build_node(writer *w, const jg_array *a, const char *name, int depth,
                            wnode **out, jg_error *err);

/* A numeric node of ndim >= 2: its values copied densely (C order) into host memory, under one
 * regular list per inner axis. */
static jg_status build_dense(writer *w, const jg_view *v, const char *name, wnode **out,
                             jg_error *err) {
  int64_t total = 1;
  for (int k = 0; k < v->layout.ndim; k++)
    JG_RETURN_IF(jgi_mul_overflow(total, v->layout.shape[k], &total), JG_EOVERFLOW, err,
                 "field '%s': %d-dimensional data too large", name, (int)v->layout.ndim);
  int64_t bytes;
  JG_RETURN_IF(jgi_mul_overflow(total, v->layout.itemsize, &bytes), JG_EOVERFLOW, err,
               "field '%s': data too large", name);
  void *dense = malloc(bytes > 0 ? (size_t)bytes : 1);
  JG_RETURN_NOT_OK(own(w, dense, err));
  jg_layout l;
  JG_RETURN_NOT_OK(jg_layout_init(&l, v->layout.ndim, v->layout.shape, NULL, v->layout.itemsize,
                                  err));
  jg_view dst;
  jg_device host = JG_DEVICE_HOST_INIT;
  JG_RETURN_NOT_OK(jg_view_from_pointer(&dst, dense, host, &l, v->dtype, false, err));
  JG_RETURN_NOT_OK(jg_copy(&dst, v, err));
  wnode *top = NULL, *parent = NULL;
  for (int k = 1; k < v->layout.ndim; k++) {
    wnode *n = NULL;
    JG_RETURN_NOT_OK(node_new(w, W_LIST, k == 1 ? name : "element", &n, err));
    n->list.kind = JG_NODE_REGULAR;
    n->list.size = v->layout.shape[k];
    if (parent != NULL) {
      parent->children = (wnode **)calloc(1, sizeof(wnode *));
      JG_RETURN_NOT_OK(own(w, parent->children, err));
      parent->children[0] = n;
      parent->nchildren = 1;
    } else {
      top = n;
    }
    parent = n;
  }
  wnode *leaf = NULL;
  JG_RETURN_NOT_OK(node_new(w, W_LEAF, "element", &leaf, err));
  leaf->leaf.base = dense;
  leaf->leaf.stride = v->layout.itemsize;
  leaf->leaf.dtype = v->dtype;
  /* The innermost regular list of uint8 is a BYTE_ARRAY, as for any list of uint8. */
  if (v->dtype == JG_DTYPE_UINT8) {
    parent->kind = W_BYTES;
    parent->leaf = leaf->leaf;
  } else {
    parent->children = (wnode **)calloc(1, sizeof(wnode *));
    JG_RETURN_NOT_OK(own(w, parent->children, err));
    parent->children[0] = leaf;
    parent->nchildren = 1;
  }
  *out = top;
  return JG_OK;
}

static jg_status check_dtype(jg_dtype d, const char *name, jg_error *err) {
  JG_RETURN_IF(d == JG_DTYPE_COMPLEX64 || d == JG_DTYPE_COMPLEX128 || d == JG_DTYPE_BFLOAT16,
               JG_ENOTSUP, err,
               "field '%s': dtype %s has no Parquet type (convert it to float32 or float64, "
               "or split complex numbers into a record of two fields)",
               name, jg_dtype_name(d));
  return JG_OK;
}

/* Builds the wnode of `a` (and its options) named `name`. depth counts nodes from the top. */
static jg_status build_node(writer *w, const jg_array *a, const char *name, int depth,
                            wnode **out, jg_error *err) {
  JG_RETURN_IF(depth > MAX_DEPTH, JG_ENOTSUP, err,
               "field '%s': nesting deeper than %d levels is not written", name, MAX_DEPTH);
  const jg_array *opt = NULL;
  int nopt = 0;
  while (is_option(jg_array_kind(a))) {
    if (opt == NULL) opt = a;
    nopt++;
    a = jg_array_child(a, 0);
  }
  jg_node_kind kind = jg_array_kind(a);
  wnode *n = NULL;
  if (kind == JG_NODE_NUMERIC) {
    jg_view v;
    JG_RETURN_NOT_OK(jg_array_buffer(a, 0, &v, err));
    JG_RETURN_NOT_OK(check_dtype(v.dtype, name, err));
    if (v.layout.ndim > 1) {
      JG_RETURN_NOT_OK(build_dense(w, &v, name, &n, err));
    } else {
      JG_RETURN_NOT_OK(node_new(w, W_LEAF, name, &n, err));
      leaf_of_view(&v, &n->leaf);
    }
  } else if (kind == JG_NODE_EMPTY) {
    JG_RETURN_NOT_OK(node_new(w, W_EMPTY, name, &n, err));
  } else if (is_list(kind)) {
    const jg_array *content = jg_array_child(a, 0);
    bool bytes = false;
    jg_view cv;
    if (jg_array_kind(content) == JG_NODE_NUMERIC) {
      JG_RETURN_NOT_OK(jg_array_buffer(content, 0, &cv, err));
      bytes = cv.dtype == JG_DTYPE_UINT8 && cv.layout.ndim == 1;
    }
    JG_RETURN_NOT_OK(node_new(w, bytes ? W_BYTES : W_LIST, name, &n, err));
    n->list.kind = (int)kind;
    if (kind == JG_NODE_REGULAR) {
      n->list.size = jg_array_regular_size(a);
    } else {
      JG_RETURN_NOT_OK(jg_array_buffer(a, 0, &n->list.a, err));
      if (kind == JG_NODE_LIST) JG_RETURN_NOT_OK(jg_array_buffer(a, 1, &n->list.b, err));
    }
    if (bytes) {
      leaf_of_view(&cv, &n->leaf);
    } else {
      n->children = (wnode **)calloc(1, sizeof(wnode *));
      JG_RETURN_NOT_OK(own(w, n->children, err));
      n->nchildren = 1;
      JG_RETURN_NOT_OK(build_node(w, content, "element", depth + 2, &n->children[0], err));
    }
  } else if (kind == JG_NODE_RECORD) {
    int nf = jg_array_num_children(a);
    JG_RETURN_IF(nf == 0, JG_ENOTSUP, err,
                 "field '%s': a record of no fields cannot be written (a Parquet group needs "
                 "at least one field)", name);
    JG_RETURN_NOT_OK(node_new(w, W_RECORD, name, &n, err));
    n->children = (wnode **)calloc((size_t)nf, sizeof(wnode *));
    JG_RETURN_NOT_OK(own(w, n->children, err));
    n->nchildren = nf;
    for (int k = 0; k < nf; k++) {
      char num[24];
      const char *fname = jg_array_field_name(a, k);
      if (fname == NULL) {
        snprintf(num, sizeof num, "%d", k);
        fname = num;
      }
      JG_RETURN_NOT_OK(build_node(w, jg_array_child(a, k), fname, depth + 1, &n->children[k], err));
    }
  } else {
    return jg_error_set(err, JG_ENOTSUP, -1, "field '%s': layout node kind %d is not written",
                        name, (int)kind);
  }
  n->opt = opt;
  n->nopt = nopt;
  *out = n;
  return JG_OK;
}

/* The physical type of a leaf node, its PLAIN width, and the schema element's annotations. */
static void leaf_schema(const wnode *n, jgi_pq_schema_elem *e, int *width) {
  jgi_pq_logical *lt = &e->logical;
  if (n->kind == W_BYTES) {
    e->type = JGI_PQ_BYTE_ARRAY;
    *width = 0;
    return;
  }
  if (n->kind == W_EMPTY) {
    e->type = JGI_PQ_INT32;
    lt->kind = JGI_PQ_LT_UNKNOWN;
    *width = 4;
    return;
  }
  static const struct {
    int type, width, bits, is_signed, ct;
  } map[JG_DTYPE_COUNT_] = {
      [JG_DTYPE_BOOL] = {JGI_PQ_BOOLEAN, 1, 0, 0, -1},
      [JG_DTYPE_INT8] = {JGI_PQ_INT32, 4, 8, 1, JGI_PQ_CT_INT_8},
      [JG_DTYPE_INT16] = {JGI_PQ_INT32, 4, 16, 1, JGI_PQ_CT_INT_16},
      [JG_DTYPE_INT32] = {JGI_PQ_INT32, 4, 32, 1, JGI_PQ_CT_INT_32},
      [JG_DTYPE_INT64] = {JGI_PQ_INT64, 8, 0, 0, -1},
      [JG_DTYPE_UINT8] = {JGI_PQ_INT32, 4, 8, 0, JGI_PQ_CT_UINT_8},
      [JG_DTYPE_UINT16] = {JGI_PQ_INT32, 4, 16, 0, JGI_PQ_CT_UINT_16},
      [JG_DTYPE_UINT32] = {JGI_PQ_INT32, 4, 32, 0, JGI_PQ_CT_UINT_32},
      [JG_DTYPE_UINT64] = {JGI_PQ_INT64, 8, 64, 0, JGI_PQ_CT_UINT_64},
      [JG_DTYPE_FLOAT16] = {JGI_PQ_FIXED_LEN_BYTE_ARRAY, 2, 0, 0, -1},
      [JG_DTYPE_FLOAT32] = {JGI_PQ_FLOAT, 4, 0, 0, -1},
      [JG_DTYPE_FLOAT64] = {JGI_PQ_DOUBLE, 8, 0, 0, -1},
  };
  const jg_dtype d = n->leaf.dtype;
  e->type = map[d].type;
  *width = map[d].width;
  if (map[d].bits > 0) {
    lt->kind = JGI_PQ_LT_INTEGER;
    lt->bit_width = map[d].bits;
    lt->is_signed = map[d].is_signed != 0;
    e->converted_type = map[d].ct;
  }
  if (d == JG_DTYPE_FLOAT16) {
    e->type_length = 2;
    lt->kind = JGI_PQ_LT_FLOAT16;
  }
}

/* Schema emission: a pre-order walk appending SchemaElements to w->meta.schema (sized by
 * count_elems) and one wcolumn per leaf. `path`/`names` hold the nodes and schema names above. */
static int count_elems(const wnode *n) {
  if (n->kind == W_RECORD) {
    int c = 1;
    for (int k = 0; k < n->nchildren; k++) c += count_elems(n->children[k]);
    return c;
  }
  if (n->kind == W_LIST) return 2 + count_elems(n->children[0]);
  return 1;
}

typedef struct emit_ctx {
  writer *w;
  const wnode *path[MAX_DEPTH + 1];
  const char *names[2 * MAX_DEPTH + 2];
  int depth, nnames, def, rep;
} emit_ctx;

static jgi_pq_schema_elem *elem_new(writer *w, const char *name, jg_error *err) {
  jgi_pq_schema_elem *e = &w->meta.schema[w->meta.nschema++];
  memset(e, 0, sizeof *e);
  e->type = e->type_length = e->repetition = e->num_children = -1;
  e->converted_type = e->scale = e->precision = e->field_id = -1;
  e->name = jgi_pq_meta_strdup(&w->meta, name, (size_t)-1);
  if (e->name == NULL) jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
  return e;
}

static jg_status emit(emit_ctx *c, const wnode *n, jg_error *err) {
  writer *w = c->w;
  JG_RETURN_IF(c->depth >= MAX_DEPTH || c->nnames + 2 >= 2 * MAX_DEPTH + 2, JG_ENOTSUP, err,
               "field '%s': nesting deeper than %d levels is not written", n->name, MAX_DEPTH);
  const int saved_def = c->def, saved_rep = c->rep, saved_names = c->nnames;
  c->path[c->depth++] = n;
  c->names[c->nnames++] = n->name;
  jgi_pq_schema_elem *e = elem_new(w, n->name, err);
  JG_RETURN_IF(e->name == NULL, JG_ENOMEM, err, "out of host memory");
  const bool optional = n->opt != NULL || n->kind == W_EMPTY;
  e->repetition = optional ? JGI_PQ_OPTIONAL : JGI_PQ_REQUIRED;
  if (optional) c->def++;
  if (n->kind == W_RECORD) {
    e->num_children = n->nchildren;
    for (int k = 0; k < n->nchildren; k++) JG_RETURN_NOT_OK(emit(c, n->children[k], err));
  } else if (n->kind == W_LIST) {
    e->num_children = 1;
    e->converted_type = JGI_PQ_CT_LIST;
    e->logical.kind = JGI_PQ_LT_LIST;
    jgi_pq_schema_elem *r = elem_new(w, "list", err);
    JG_RETURN_IF(r->name == NULL, JG_ENOMEM, err, "out of host memory");
    r->repetition = JGI_PQ_REPEATED;
    r->num_children = 1;
    c->names[c->nnames++] = "list";
    c->def++;
    c->rep++;
    JG_RETURN_NOT_OK(emit(c, n->children[0], err));
  } else {
    int width = 0;
    leaf_schema(n, e, &width);
    if (w->ncols == w->cap_cols) {
      int cap = w->cap_cols ? 2 * w->cap_cols : 16;
      wcolumn *q = realloc(w->cols, (size_t)cap * sizeof *q);
      JG_RETURN_IF(q == NULL, JG_ENOMEM, err, "out of host memory");
      w->cols = q;
      w->cap_cols = cap;
    }
    wcolumn *col = &w->cols[w->ncols++];
    memset(col, 0, sizeof *col);
    memcpy(col->path, c->path, (size_t)c->depth * sizeof c->path[0]);
    col->depth = c->depth;
    col->max_def = c->def;
    col->max_rep = c->rep;
    col->type = e->type;
    col->width = width;
    col->nnames = c->nnames;
    col->names = jgi_pq_meta_alloc(&w->meta, (size_t)c->nnames * sizeof(char *));
    JG_RETURN_IF(col->names == NULL, JG_ENOMEM, err, "out of host memory");
    size_t len = 0;
    for (int k = 0; k < c->nnames; k++) {
      col->names[k] = jgi_pq_meta_strdup(&w->meta, c->names[k], (size_t)-1);
      JG_RETURN_IF(col->names[k] == NULL, JG_ENOMEM, err, "out of host memory");
      len += strlen(c->names[k]) + 1;
    }
    col->dotted = jgi_pq_meta_alloc(&w->meta, len + 1);
    JG_RETURN_IF(col->dotted == NULL, JG_ENOMEM, err, "out of host memory");
    for (int k = 0; k < c->nnames; k++) {
      if (k > 0) strcat(col->dotted, ".");
      strcat(col->dotted, c->names[k]);
    }
  }
  c->depth--;
  c->nnames = saved_names;
  c->def = saved_def;
  c->rep = saved_rep;
  return JG_OK;
}

/* ---- Shredding: levels and the live entries of one leaf over one row group ----------------- */

/* The slots of a walk: nslots level entries in order; rep NULL means all 0; def NULL means all
 * live, else def[k] < 0 marks a live slot and def[k] >= 0 a finished one. The nlive live slots,
 * in order, point at entries idx[j] of the current node, or start + j when idx is NULL. */
typedef struct shred {
  int64_t nslots, nlive;
  int16_t *rep, *def;
  int64_t *idx;
  int64_t start;
} shred;

static void shred_reset(shred *s) {
  free(s->rep);
  free(s->def);
  free(s->idx);
  memset(s, 0, sizeof *s);
}

static void *alloc_n(int64_t n, size_t size, jg_error *err) {
  if (n < 0 || (uint64_t)n > SIZE_MAX / 2 / (size ? size : 1)) {
    jg_error_set(err, JG_EOVERFLOW, -1, "a column chunk of %lld entries is too large",
                 (long long)n);
    return NULL;
  }
  void *p = malloc(n > 0 ? (size_t)n * size : 1);
  if (p == NULL) jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
  return p;
}

/* Entry i of a 1-D integer view (int32 or int64; any stride). */
#define VIEW_I64(v, i)                                                                        \
  ((v)->dtype == JG_DTYPE_INT32                                                               \
       ? (int64_t)((const int32_t *)jg_view_data(v))[(i) * (v)->layout.strides[0]]            \
       : ((const int64_t *)jg_view_data(v))[(i) * (v)->layout.strides[0]])

/* Materialises s->idx when it is a range. */
static jg_status shred_idx(shred *s, jg_error *err) {
  if (s->idx != NULL) return JG_OK;
  s->idx = alloc_n(s->nlive, sizeof(int64_t), err);
  if (s->idx == NULL) return err ? err->status : JG_ENOMEM;
  for (int64_t j = 0; j < s->nlive; j++) s->idx[j] = s->start + j;
  return JG_OK;
}

/* Materialises s->def when every slot is live. */
static jg_status shred_def(shred *s, jg_error *err) {
  if (s->def != NULL) return JG_OK;
  s->def = alloc_n(s->nslots, sizeof(int16_t), err);
  if (s->def == NULL) return err ? err->status : JG_ENOMEM;
  for (int64_t k = 0; k < s->nslots; k++) s->def[k] = -1;
  return JG_OK;
}

/* An option node's facts, read once before its loop. */
typedef struct wopt {
  jg_node_kind kind;
  jg_view m; /* mask or index */
  const uint8_t *mask;
  int64_t stride;
  bool valid_when, lsb;
  int64_t bit_offset;
} wopt;

static jg_status wopt_init(const jg_array *o, wopt *w, jg_error *err) {
  w->kind = jg_array_kind(o);
  JG_RETURN_NOT_OK(jg_array_buffer(o, 0, &w->m, err));
  w->mask = jg_view_data(&w->m);
  w->stride = w->m.layout.strides[0];
  w->valid_when = jg_array_valid_when(o);
  w->lsb = jg_array_lsb_order(o);
  w->bit_offset = jg_array_bit_offset(o);
  return JG_OK;
}

/* Whether entry i of option `o` is valid; *to gets the content index of a valid entry. */
static inline bool option_valid(const wopt *o, int64_t i, int64_t *to) {
  if (o->kind == JG_NODE_BYTE_MASKED) {
    *to = i;
    return (o->mask[i * o->stride] != 0) == o->valid_when;
  }
  if (o->kind == JG_NODE_BIT_MASKED) {
    const int64_t bit = o->bit_offset + i;
    const int sh = o->lsb ? (int)(bit & 7) : 7 - (int)(bit & 7);
    *to = i;
    return (((o->mask[(bit >> 3) * o->stride] >> sh) & 1) != 0) == o->valid_when;
  }
  const int64_t k = VIEW_I64(&o->m, i);
  *to = k;
  return k >= 0;
}

/* Applies one option node: live slots whose entry is None finish with definition level
 * `def_none`; the others now point into the option's content. */
static jg_status shred_option(shred *s, const jg_array *node, int16_t def_none, jg_error *err) {
  wopt o;
  JG_RETURN_NOT_OK(wopt_init(node, &o, err));
  const bool indexed = o.kind == JG_NODE_INDEXED_OPTION;
  /* First pass: count the valid entries; all valid masked entries change nothing. */
  int64_t nvalid = 0;
  for (int64_t j = 0; j < s->nlive; j++) {
    int64_t i = s->idx ? s->idx[j] : s->start + j, to;
    nvalid += option_valid(&o, i, &to);
  }
  if (nvalid == s->nlive && !indexed) return JG_OK;
  JG_RETURN_NOT_OK(shred_idx(s, err));
  if (nvalid < s->nlive) JG_RETURN_NOT_OK(shred_def(s, err));
  int64_t j = 0, q = 0;
  for (int64_t k = 0; k < s->nslots; k++) {
    if (s->def != NULL && s->def[k] >= 0) continue;
    int64_t to;
    if (option_valid(&o, s->idx[j], &to)) {
      s->idx[q++] = to;
    } else {
      s->def[k] = def_none;
    }
    j++;
  }
  s->nlive = q;
  return JG_OK;
}

/* The [start, stop) of the live lists of list node `l` into st / sp (nlive each). */
static void list_ranges(const shred *s, const wlist *l, int64_t *st, int64_t *sp) {
  const int64_t n = s->nlive;
  if (l->kind == JG_NODE_REGULAR) {
    for (int64_t j = 0; j < n; j++) {
      int64_t i = s->idx ? s->idx[j] : s->start + j;
      st[j] = i * l->size;
      sp[j] = st[j] + l->size;
    }
    return;
  }
  const jg_view *a = &l->a;
  const jg_view *b = l->kind == JG_NODE_LIST ? &l->b : &l->a;
  const int64_t shift = l->kind == JG_NODE_LIST ? 0 : 1;
  const int64_t sa = a->layout.strides[0], sb = b->layout.strides[0];
  if (a->dtype == JG_DTYPE_INT64) {
    const int64_t *pa = jg_view_data(a), *pb = jg_view_data(b);
    for (int64_t j = 0; j < n; j++) {
      int64_t i = s->idx ? s->idx[j] : s->start + j;
      st[j] = pa[i * sa];
      sp[j] = pb[(i + shift) * sb];
    }
  } else {
    const int32_t *pa = jg_view_data(a), *pb = jg_view_data(b);
    for (int64_t j = 0; j < n; j++) {
      int64_t i = s->idx ? s->idx[j] : s->start + j;
      st[j] = pa[i * sa];
      sp[j] = pb[(i + shift) * sb];
    }
  }
}

/* Expands the live slots through list node `l`: an empty list finishes with definition level
 * `def_empty`; a list of n entries becomes n live slots, the first keeping the slot's
 * repetition level and the others getting `rep_level`. */
static jg_status shred_list(shred *s, const wlist *l, int16_t def_empty, int16_t rep_level,
                            jg_error *err) {
  jg_status st = JG_OK;
  int64_t *starts = alloc_n(s->nlive, sizeof(int64_t), err);
  int64_t *stops = alloc_n(s->nlive, sizeof(int64_t), err);
  int16_t *rep = NULL, *def = NULL;
  int64_t *idx = NULL;
  if (starts == NULL || stops == NULL) {
    st = err ? err->status : JG_ENOMEM;
    goto done;
  }
  list_ranges(s, l, starts, stops);
  int64_t nvalues = 0, nempty = 0;
  for (int64_t j = 0; j < s->nlive; j++) {
    int64_t len = stops[j] - starts[j];
    nvalues += len;
    nempty += len == 0;
  }
  const int64_t nslots = s->nslots - s->nlive + nvalues + nempty;
  /* The live entries stay a range when the lists follow each other (list-offset or regular
   * over a range). */
  const bool range = s->idx == NULL && l->kind != JG_NODE_LIST;
  rep = alloc_n(nslots, sizeof(int16_t), err);
  if (rep == NULL) goto fail;
  if (s->def != NULL || nempty > 0) {
    def = alloc_n(nslots, sizeof(int16_t), err);
    if (def == NULL) goto fail;
  }
  if (!range) {
    idx = alloc_n(nvalues, sizeof(int64_t), err);
    if (idx == NULL) goto fail;
  }
  int64_t o = 0, q = 0, j = 0;
  for (int64_t k = 0; k < s->nslots; k++) {
    const int16_t r = s->rep ? s->rep[k] : 0;
    if (s->def != NULL && s->def[k] >= 0) {
      rep[o] = r;
      def[o++] = s->def[k];
      continue;
    }
    const int64_t b = starts[j], len = stops[j] - starts[j];
    j++;
    if (len == 0) {
      rep[o] = r;
      def[o++] = def_empty;
      continue;
    }
    rep[o] = r;
    for (int64_t t = 1; t < len; t++) rep[o + t] = rep_level;
    if (def != NULL)
      for (int64_t t = 0; t < len; t++) def[o + t] = -1;
    if (idx != NULL)
      for (int64_t t = 0; t < len; t++) idx[q + t] = b + t;
    o += len;
    q += len;
  }
  const int64_t start = range && s->nlive > 0 ? starts[0] : 0;
  free(s->rep);
  free(s->def);
  free(s->idx);
  s->rep = rep;
  s->def = def;
  s->idx = idx;
  s->start = start;
  s->nslots = nslots;
  s->nlive = nvalues;
  goto done;
fail:
  st = err ? err->status : JG_ENOMEM;
  free(rep);
  free(def);
  free(idx);
done:
  free(starts);
  free(stops);
  return st;
}

/* Walks column `c` over rows [r0, r1) of the table; on return the slots are the leaf's levels
 * (def of live slots still -1) and the live entries index the leaf (for W_BYTES: the list
 * node). */
static jg_status shred_column(const wcolumn *c, int64_t r0, int64_t r1, shred *s,
                              jg_error *err) {
  memset(s, 0, sizeof *s);
  s->nslots = s->nlive = r1 - r0;
  s->start = r0;
  int16_t def = 0, rep = 0;
  for (int d = 0; d < c->depth; d++) {
    const wnode *n = c->path[d];
    if (n->opt != NULL || n->kind == W_EMPTY) {
      const jg_array *o = n->opt;
      for (int t = 0; t < n->nopt; t++, o = jg_array_child(o, 0))
        JG_RETURN_NOT_OK(shred_option(s, o, def, err));
      def++;
    }
    if (n->kind == W_LIST) {
      JG_RETURN_NOT_OK(shred_list(s, &n->list, def, (int16_t)(rep + 1), err));
      def++;
      rep++;
    }
  }
  return JG_OK;
}

/* ---- Values: the live entries of a leaf in their physical type ---------------------------- */

typedef struct values {
  int64_t n;
  const uint8_t *fixed;  /* n values of `width` bytes (BOOLEAN: one byte each) */
  const int64_t *offsets; /* BYTE_ARRAY: n + 1 offsets into bytes */
  const uint8_t *bytes;
  void *own_fixed, *own_offsets, *own_bytes; /* what of the above is ours */
} values;

static void values_reset(values *v) {
  free(v->own_fixed);
  free(v->own_offsets);
  free(v->own_bytes);
  memset(v, 0, sizeof *v);
}

#define GATHER(SRC_T, DST_T)                                                                   \
  do {                                                                                        \
    DST_T *o_ = (DST_T *)dst;                                                                 \
    if (s->idx != NULL) {                                                                     \
      for (int64_t j = 0; j < n; j++) {                                                       \
        SRC_T x_;                                                                             \
        memcpy(&x_, base + s->idx[j] * stride, sizeof x_);                                    \
        o_[j] = (DST_T)x_;                                                                    \
      }                                                                                       \
    } else {                                                                                  \
      const uint8_t *b_ = base + s->start * stride;                                           \
      for (int64_t j = 0; j < n; j++) {                                                       \
        SRC_T x_;                                                                             \
        memcpy(&x_, b_ + j * stride, sizeof x_);                                              \
        o_[j] = (DST_T)x_;                                                                    \
      }                                                                                       \
    }                                                                                         \
  } while (0)

/* Fixed-width values of a W_LEAF: a pointer into the array when they are contiguous and need
 * no conversion, else gathered and widened (int8/16, uint8/16 to INT32). */
static jg_status gather_fixed(const wcolumn *c, const wnode *leaf, const shred *s, values *v,
                              jg_error *err) {
  const int64_t n = s->nlive;
  v->n = n;
  if (leaf->kind == W_EMPTY || n == 0) {
    v->fixed = (const uint8_t *)"";
    return JG_OK;
  }
  const jg_dtype d = leaf->leaf.dtype;
  const uint8_t *base = leaf->leaf.base;
  const int64_t stride = leaf->leaf.stride;
  const int64_t isz = jg_dtype_itemsize(d);
  if (isz == c->width && s->idx == NULL && stride == isz) {
    v->fixed = base + s->start * stride;
    return JG_OK;
  }
  int64_t bytes;
  JG_RETURN_IF(jgi_mul_overflow(n, (int64_t)c->width, &bytes), JG_EOVERFLOW, err,
               "column chunk too large");
  void *dst = alloc_n(bytes, 1, err);
  if (dst == NULL) return err ? err->status : JG_ENOMEM;
  v->own_fixed = dst;
  v->fixed = dst;
  switch (d) {
    case JG_DTYPE_INT8: GATHER(int8_t, int32_t); break;
    case JG_DTYPE_INT16: GATHER(int16_t, int32_t); break;
    case JG_DTYPE_UINT8: GATHER(uint8_t, int32_t); break;
    case JG_DTYPE_UINT16: GATHER(uint16_t, int32_t); break;
    case JG_DTYPE_BOOL: GATHER(uint8_t, uint8_t); break;
    case JG_DTYPE_FLOAT16: GATHER(uint16_t, uint16_t); break;
    case JG_DTYPE_INT32:
    case JG_DTYPE_UINT32:
    case JG_DTYPE_FLOAT32: GATHER(uint32_t, uint32_t); break;
    default: GATHER(uint64_t, uint64_t); break;
  }
  return JG_OK;
}

/* BYTE_ARRAY values of a W_BYTES node: live entry j is list idx(j) of the node, its bytes
 * content[start, stop). Lists that follow each other over contiguous content are used in
 * place; others are gathered. */
static jg_status gather_bytes(const wnode *b, const shred *s, values *v, jg_error *err) {
  const int64_t n = s->nlive;
  v->n = n;
  int64_t *starts = alloc_n(n, sizeof(int64_t), err);
  int64_t *offsets = alloc_n(n + 1, sizeof(int64_t), err);
  jg_status st = JG_OK;
  if (starts == NULL || offsets == NULL) {
    st = err ? err->status : JG_ENOMEM;
    free(starts);
    free(offsets);
    return st;
  }
  v->own_offsets = offsets;
  v->offsets = offsets;
  list_ranges(s, &b->list, starts, offsets + 1);
  bool in_place = b->leaf.stride == 1;
  int64_t total = 0;
  for (int64_t j = 0; j < n; j++) {
    in_place &= j == 0 || starts[j] == offsets[j];
    total += offsets[j + 1] - starts[j];
  }
  if (in_place) {
    offsets[0] = n > 0 ? starts[0] : 0;
    v->bytes = b->leaf.base;
    free(starts);
    return JG_OK;
  }
  uint8_t *bytes = alloc_n(total, 1, err);
  if (bytes == NULL) {
    free(starts);
    return err ? err->status : JG_ENOMEM;
  }
  v->own_bytes = bytes;
  v->bytes = bytes;
  int64_t pos = 0;
  for (int64_t j = 0; j < n; j++) {
    const int64_t len = offsets[j + 1] - starts[j];
    const uint8_t *src = b->leaf.base + starts[j] * b->leaf.stride;
    if (b->leaf.stride == 1) {
      if (len > 0) memcpy(bytes + pos, src, (size_t)len);
    } else {
      for (int64_t t = 0; t < len; t++) bytes[pos + t] = src[t * b->leaf.stride];
    }
    offsets[j] = pos;
    pos += len;
  }
  offsets[n] = pos;
  free(starts);
  return JG_OK;
}

/* ---- Dictionary ----------------------------------------------------------------------------- */

/* A dictionary of a column chunk: ndict distinct values (PLAIN-encoded into `page`) and the
 * index of every value. */
typedef struct dict {
  int64_t ndict;
  uint32_t *indices;
  jgi_pq_buf page; /* the dictionary page's PLAIN values */
} dict;

static void dict_reset(dict *d) {
  free(d->indices);
  jgi_pq_buf_reset(&d->page);
  memset(d, 0, sizeof *d);
}

static inline uint64_t hash64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

static inline uint64_t hash_bytes(const uint8_t *p, int64_t n) {
  uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)n;
  for (int64_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
  return hash64(h);
}

/* Tries to dictionary-encode v: *ok false (and d empty) when the dictionary would hold more
 * than a quarter of the values or pass `limit` bytes. */
static jg_status dict_build(const wcolumn *c, const values *v, int64_t limit, dict *d, bool *ok,
                            jg_error *err) {
  memset(d, 0, sizeof *d);
  *ok = false;
  const int64_t n = v->n;
  const int64_t max_dict = n / 4;
  if (max_dict < 1) return JG_OK;
  int64_t cap = 16;
  while (cap < 2 * max_dict + 2) cap *= 2;
  int64_t *slots = alloc_n(cap, sizeof(int64_t), err); /* dictionary index + 1; 0 empty */
  uint64_t *keys = NULL;
  int64_t *key_pos = NULL; /* byte arrays: entry of v of each dictionary value */
  d->indices = alloc_n(n, sizeof(uint32_t), err);
  jg_status st = JG_OK;
  if (slots == NULL || d->indices == NULL) goto fail;
  memset(slots, 0, (size_t)cap * sizeof *slots);
  const bool fixed = c->type != JGI_PQ_BYTE_ARRAY;
  if (fixed) {
    keys = alloc_n(max_dict, sizeof(uint64_t), err);
  } else {
    key_pos = alloc_n(max_dict, sizeof(int64_t), err);
  }
  if (keys == NULL && key_pos == NULL) goto fail;
  const int width = c->width;
  int64_t ndict = 0, bytes = 0;
  for (int64_t i = 0; i < n; i++) {
    uint64_t key = 0, h;
    const uint8_t *p = NULL;
    int64_t len = 0;
    if (fixed) {
      memcpy(&key, v->fixed + i * width, (size_t)width);
      h = hash64(key);
    } else {
      p = v->bytes + v->offsets[i];
      len = v->offsets[i + 1] - v->offsets[i];
      h = hash_bytes(p, len);
    }
    int64_t at = (int64_t)(h & (uint64_t)(cap - 1));
    for (;;) {
      int64_t e = slots[at];
      if (e == 0) break;
      if (fixed ? keys[e - 1] == key
                : (v->offsets[key_pos[e - 1] + 1] - v->offsets[key_pos[e - 1]] == len &&
                   (len == 0 ||
                    memcmp(v->bytes + v->offsets[key_pos[e - 1]], p, (size_t)len) == 0)))
        break;
      at = (at + 1) & (cap - 1);
    }
    if (slots[at] == 0) {
      bytes += fixed ? width : 4 + len;
      if (ndict == max_dict || bytes > limit) goto give_up;
      if (fixed) {
        keys[ndict] = key;
      } else {
        key_pos[ndict] = i;
      }
      slots[at] = ++ndict;
    }
    d->indices[i] = (uint32_t)(slots[at] - 1);
  }
  /* The dictionary page: the distinct values, PLAIN. */
  if (fixed) {
    st = jgi_pq_buf_reserve(&d->page, (size_t)(ndict * width), err);
    if (st != JG_OK) goto fail_st;
    for (int64_t k = 0; k < ndict; k++)
      memcpy(d->page.data + k * width, &keys[k], (size_t)width);
    d->page.size = (size_t)(ndict * width);
  } else {
    for (int64_t k = 0; k < ndict; k++) {
      st = jgi_pq_plain_encode_bytes(v->offsets + key_pos[k], v->bytes, 1, &d->page, err);
      if (st != JG_OK) goto fail_st;
    }
  }
  d->ndict = ndict;
  *ok = true;
  free(slots);
  free(keys);
  free(key_pos);
  return JG_OK;
give_up:
  free(slots);
  free(keys);
  free(key_pos);
  dict_reset(d);
  return JG_OK;
fail:
  st = err ? err->status : JG_ENOMEM;
fail_st:
  free(slots);
  free(keys);
  free(key_pos);
  dict_reset(d);
  return st;
}

/* ---- Pages and column chunks ------------------------------------------------------------ */

/* Where the file goes: a FILE or a memory buffer; `offset` counts bytes written. */
typedef struct sink {
  FILE *f;
  const char *path;
  jgi_pq_buf *mem;
  int64_t offset;
} sink;

static jg_status sink_write(sink *k, const void *p, size_t n, jg_error *err) {
  if (k->f != NULL) {
    JG_RETURN_IF(n > 0 && fwrite(p, 1, n, k->f) != n, JG_EIO, err, "cannot write '%s': %s",
                 k->path, strerror(errno));
  } else {
    JG_RETURN_NOT_OK(jgi_pq_buf_append(k->mem, p, n, err));
  }
  k->offset += (int64_t)n;
  return JG_OK;
}

/* Appends levels[k0, k1) (NULL: all `fill`) RLE-encoded with bit width `bw`, no prefix. */
static jg_status put_levels(const int16_t *levels, int16_t fill, int64_t k0, int64_t k1, int bw,
                            uint32_t *scratch, jgi_pq_buf *out, jg_error *err) {
  const int64_t n = k1 - k0;
  if (levels != NULL) {
    for (int64_t k = 0; k < n; k++) scratch[k] = (uint32_t)levels[k0 + k];
  } else {
    for (int64_t k = 0; k < n; k++) scratch[k] = (uint32_t)fill;
  }
  return jgi_pq_rle_encode(scratch, n, bw, out, err);
}

static void put_u32(jgi_pq_buf *b, size_t at, uint32_t x) {
  uint8_t le[4] = {(uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24)};
  memcpy(b->data + at, le, 4);
}

/* Appends v's values [v0, v1) to out: dictionary indices (a bit-width byte, then the hybrid)
 * when d is non-NULL, else PLAIN. */
static jg_status put_values(const wcolumn *c, const values *v, const dict *d, int64_t v0,
                            int64_t v1, jgi_pq_buf *out, jg_error *err) {
  if (d != NULL) {
    int bw = jgi_pq_bit_width((uint64_t)(d->ndict > 1 ? d->ndict - 1 : 1));
    uint8_t b = (uint8_t)bw;
    JG_RETURN_NOT_OK(jgi_pq_buf_append(out, &b, 1, err));
    return jgi_pq_rle_encode(d->indices + v0, v1 - v0, bw, out, err);
  }
  if (c->type == JGI_PQ_BOOLEAN) return jgi_pq_plain_encode_bool(v->fixed + v0, v1 - v0, out, err);
  if (c->type == JGI_PQ_BYTE_ARRAY)
    return jgi_pq_plain_encode_bytes(v->offsets + v0, v->bytes, v1 - v0, out, err);
  return jgi_pq_buf_append(out, v->fixed + v0 * c->width, (size_t)((v1 - v0) * c->width), err);
}

/* Appends a page header and its body to `chunk`; sizes checked against int32. */
static jg_status put_page(jgi_pq_page_header *h, const jgi_pq_buf *body, int64_t uncompressed,
                          jgi_pq_buf *chunk, int64_t *total_uncompressed, jg_error *err) {
  JG_RETURN_IF(uncompressed > INT32_MAX || body->size > INT32_MAX, JG_ENOTSUP, err,
               "a page of %lld bytes is larger than Parquet's 2^31 - 1 (lower the page size, "
               "or split long rows)",
               (long long)uncompressed);
  h->uncompressed_size = (int32_t)uncompressed;
  h->compressed_size = (int32_t)body->size;
  const size_t before = chunk->size;
  JG_RETURN_NOT_OK(jgi_pq_page_header_write(h, chunk, err));
  *total_uncompressed += (int64_t)(chunk->size - before) + uncompressed;
  return jgi_pq_buf_append(chunk, body->data, body->size, err);
}

/* Builds one column chunk (dictionary page, data pages) into `chunk` and fills its metadata
 * (offsets relative to the chunk's start: the caller adds the file offset). */
static jg_status write_chunk(writer *w, const wcolumn *c, shred *s, const values *v,
                             jgi_pq_buf *chunk, jgi_pq_column_meta *m, jg_error *err) {
  const jg_parquet_write_options *o = &w->o;
  jg_status st = JG_OK;
  dict d;
  memset(&d, 0, sizeof d);
  bool use_dict = false;
  jgi_pq_buf body = {0}, raw = {0}, lev = {0};
  uint32_t *scratch = NULL;
  if (o->dictionary && c->type != JGI_PQ_BOOLEAN) {
    st = dict_build(c, v, o->dictionary_size, &d, &use_dict, err);
    if (st != JG_OK) goto done;
  }
  int64_t total_uncompressed = 0;
  m->dictionary_page_offset = -1;
  m->index_page_offset = -1;
  if (use_dict) {
    m->dictionary_page_offset = (int64_t)chunk->size;
    jgi_pq_page_header h;
    memset(&h, 0, sizeof h);
    h.type = JGI_PQ_DICTIONARY_PAGE;
    h.dict.num_values = (int32_t)d.ndict;
    h.dict.encoding = JGI_PQ_PLAIN;
    st = jgi_pq_compress((int)o->codec, o->compression_level, d.page.data, d.page.size, &body,
                         err);
    if (st == JG_OK)
      st = put_page(&h, &body, (int64_t)d.page.size, chunk, &total_uncompressed, err);
    if (st != JG_OK) goto done;
  }
  m->data_page_offset = (int64_t)chunk->size;
  /* Page cuts: about page_size bytes of levels and values, moved on to a row start. */
  const int def_bw = jgi_pq_bit_width((uint64_t)c->max_def);
  const int rep_bw = jgi_pq_bit_width((uint64_t)c->max_rep);
  double value_bytes;
  if (use_dict) {
    value_bytes = (double)v->n * jgi_pq_bit_width((uint64_t)d.ndict) / 8.0;
  } else if (c->type == JGI_PQ_BYTE_ARRAY) {
    value_bytes = v->n > 0 ? (double)(v->offsets[v->n] - v->offsets[0]) + 4.0 * (double)v->n : 0;
  } else if (c->type == JGI_PQ_BOOLEAN) {
    value_bytes = (double)v->n / 8.0;
  } else {
    value_bytes = (double)v->n * c->width;
  }
  const double total = value_bytes + (double)s->nslots * (def_bw + rep_bw) / 8.0;
  int64_t per_page = s->nslots;
  if (total > (double)o->page_size && s->nslots > 0)
    per_page = (int64_t)((double)s->nslots * (double)o->page_size / total);
  if (per_page < 1) per_page = 1;
  if (per_page > (INT32_MAX >> 1)) per_page = INT32_MAX >> 1;
  if (s->nslots > 0) {
    scratch = alloc_n(s->nslots < per_page ? s->nslots : per_page, sizeof(uint32_t), err);
    if (scratch == NULL) {
      st = err ? err->status : JG_ENOMEM;
      goto done;
    }
  }
  const int16_t max_def = (int16_t)c->max_def;
  int64_t k0 = 0, v0 = 0;
  int npages = 0;
  while (k0 < s->nslots || npages == 0) {
    int64_t k1 = k0 + per_page < s->nslots ? k0 + per_page : s->nslots;
    if (s->rep != NULL)
      while (k1 < s->nslots && s->rep[k1] != 0) k1++;
    if (k1 - k0 > per_page) {
      /* A row longer than a page: the scratch buffer grows to it. */
      uint32_t *q = realloc(scratch, (size_t)(k1 - k0) * sizeof *q);
      if (q == NULL) {
        st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
        goto done;
      }
      scratch = q;
    }
    if (k1 - k0 > INT32_MAX) {
      st = jg_error_set(err, JG_ENOTSUP, -1,
                        "a row of %lld level entries does not fit in one page (at most 2^31 - 1)",
                        (long long)(k1 - k0));
      goto done;
    }
    int64_t nv = k1 - k0, nrows = k1 - k0;
    if (s->def != NULL) {
      nv = 0;
      for (int64_t k = k0; k < k1; k++) nv += s->def[k] == max_def;
    }
    if (s->rep != NULL) {
      nrows = 0;
      for (int64_t k = k0; k < k1; k++) nrows += s->rep[k] == 0;
    }
    const int64_t v1 = v0 + nv;
    jgi_pq_page_header h;
    memset(&h, 0, sizeof h);
    raw.size = 0;
    body.size = 0;
    lev.size = 0;
    if (o->data_page_version == 1) {
      h.type = JGI_PQ_DATA_PAGE;
      h.v1.num_values = (int32_t)(k1 - k0);
      h.v1.encoding = use_dict ? JGI_PQ_RLE_DICTIONARY : JGI_PQ_PLAIN;
      h.v1.def_encoding = JGI_PQ_RLE;
      h.v1.rep_encoding = JGI_PQ_RLE;
      const uint8_t zero4[4] = {0, 0, 0, 0};
      if (c->max_rep > 0) {
        size_t at = raw.size;
        st = jgi_pq_buf_append(&raw, zero4, 4, err);
        if (st == JG_OK) st = put_levels(s->rep, 0, k0, k1, rep_bw, scratch, &raw, err);
        if (st != JG_OK) goto done;
        put_u32(&raw, at, (uint32_t)(raw.size - at - 4));
      }
      if (c->max_def > 0) {
        size_t at = raw.size;
        st = jgi_pq_buf_append(&raw, zero4, 4, err);
        if (st == JG_OK) st = put_levels(s->def, max_def, k0, k1, def_bw, scratch, &raw, err);
        if (st != JG_OK) goto done;
        put_u32(&raw, at, (uint32_t)(raw.size - at - 4));
      }
      st = put_values(c, v, use_dict ? &d : NULL, v0, v1, &raw, err);
      if (st == JG_OK)
        st = jgi_pq_compress((int)o->codec, o->compression_level, raw.data, raw.size, &body, err);
      if (st == JG_OK) st = put_page(&h, &body, (int64_t)raw.size, chunk, &total_uncompressed, err);
      if (st != JG_OK) goto done;
    } else {
      h.type = JGI_PQ_DATA_PAGE_V2;
      h.v2.num_values = (int32_t)(k1 - k0);
      h.v2.num_nulls = (int32_t)(k1 - k0 - nv);
      h.v2.num_rows = (int32_t)nrows;
      h.v2.encoding = use_dict ? JGI_PQ_RLE_DICTIONARY : JGI_PQ_PLAIN;
      h.v2.is_compressed = o->codec != JG_PARQUET_UNCOMPRESSED;
      if (c->max_rep > 0) {
        st = put_levels(s->rep, 0, k0, k1, rep_bw, scratch, &lev, err);
        if (st != JG_OK) goto done;
      }
      h.v2.rep_bytes = (int32_t)lev.size;
      if (c->max_def > 0) {
        st = put_levels(s->def, max_def, k0, k1, def_bw, scratch, &lev, err);
        if (st != JG_OK) goto done;
      }
      h.v2.def_bytes = (int32_t)(lev.size - (size_t)h.v2.rep_bytes);
      st = put_values(c, v, use_dict ? &d : NULL, v0, v1, &raw, err);
      if (st == JG_OK) st = jgi_pq_buf_append(&body, lev.data, lev.size, err);
      if (st == JG_OK)
        st = jgi_pq_compress((int)o->codec, o->compression_level, raw.data, raw.size, &body, err);
      if (st == JG_OK)
        st = put_page(&h, &body, (int64_t)(lev.size + raw.size), chunk, &total_uncompressed, err);
      if (st != JG_OK) goto done;
    }
    npages++;
    k0 = k1;
    v0 = v1;
  }
  m->type = c->type;
  m->codec = (int)o->codec;
  m->num_values = s->nslots;
  m->total_uncompressed_size = total_uncompressed;
  m->total_compressed_size = (int64_t)chunk->size;
  m->npath = c->nnames;
  m->path = c->names;
  m->encodings = jgi_pq_meta_alloc(&w->meta, 3 * sizeof(int));
  if (m->encodings == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
    goto done;
  }
  m->encodings[m->nencodings++] = JGI_PQ_PLAIN;
  m->encodings[m->nencodings++] = JGI_PQ_RLE;
  if (use_dict) m->encodings[m->nencodings++] = JGI_PQ_RLE_DICTIONARY;
done:
  free(scratch);
  jgi_pq_buf_reset(&body);
  jgi_pq_buf_reset(&raw);
  jgi_pq_buf_reset(&lev);
  dict_reset(&d);
  return st;
}

/* ---- The file ----------------------------------------------------------------------------- */

static void writer_reset(writer *w) {
  for (int i = 0; i < w->nnodes; i++) free(w->nodes[i]);
  free(w->nodes);
  for (int i = 0; i < w->nowned; i++) free(w->owned[i]);
  free(w->owned);
  free(w->cols);
  jgi_pq_meta_reset(&w->meta);
  memset(w, 0, sizeof *w);
}

/* The schema and the column list of `table`. */
static jg_status writer_schema(writer *w, const jg_array *table, jg_error *err) {
  const int nf = jg_array_num_children(table);
  JG_RETURN_IF(nf == 0, JG_ENOTSUP, err,
               "the table has no fields (a Parquet schema needs at least one column)");
  wnode **fields = calloc((size_t)nf, sizeof *fields);
  JG_RETURN_NOT_OK(own(w, fields, err));
  int nelems = 1;
  for (int k = 0; k < nf; k++) {
    char num[24];
    const char *name = jg_array_field_name(table, k);
    if (name == NULL) {
      snprintf(num, sizeof num, "%d", k);
      name = num;
    }
    JG_RETURN_NOT_OK(build_node(w, jg_array_child(table, k), name, 1, &fields[k], err));
    nelems += count_elems(fields[k]);
  }
  w->meta.schema = jgi_pq_meta_alloc(&w->meta, (size_t)nelems * sizeof(jgi_pq_schema_elem));
  JG_RETURN_IF(w->meta.schema == NULL, JG_ENOMEM, err, "out of host memory");
  jgi_pq_schema_elem *root = elem_new(w, "schema", err);
  JG_RETURN_IF(root->name == NULL, JG_ENOMEM, err, "out of host memory");
  root->num_children = nf;
  emit_ctx *c = calloc(1, sizeof *c);
  JG_RETURN_NOT_OK(own(w, c, err));
  c->w = w;
  for (int k = 0; k < nf; k++) JG_RETURN_NOT_OK(emit(c, fields[k], err));
  return JG_OK;
}

/* Writes the whole file to k; opts are checked (options_check). */
static jg_status write_file(const jg_array *table, const jg_parquet_write_options *opts,
                            sink *k, jg_error *err) {
  writer w;
  memset(&w, 0, sizeof w);
  w.o = *opts;
  jg_status st = JG_OK;
  jgi_pq_buf chunk = {0}, footer = {0};
  shred s;
  values v;
  memset(&s, 0, sizeof s);
  memset(&v, 0, sizeof v);
  st = writer_schema(&w, table, err);
  if (st != JG_OK) goto done;
  const int64_t nrows = jg_array_length(table);
  const int64_t rgr = w.o.row_group_rows;
  const int64_t ngroups = nrows == 0 ? 0 : (nrows - 1) / rgr + 1;
  if (ngroups > INT32_MAX) {
    st = jg_error_set(err, JG_ENOTSUP, -1, "%lld row groups are more than Parquet allows",
                      (long long)ngroups);
    goto done;
  }
  w.meta.version = w.o.data_page_version == 2 ? 2 : 1;
  w.meta.num_rows = nrows;
  char created[64];
  snprintf(created, sizeof created, "jagged %s", jg_version_string());
  w.meta.created_by =
      jgi_pq_meta_strdup(&w.meta, w.o.created_by ? w.o.created_by : created, (size_t)-1);
  w.meta.nrow_groups = (int)ngroups;
  w.meta.row_groups = jgi_pq_meta_alloc(&w.meta, (size_t)(ngroups ? ngroups : 1) *
                                                     sizeof(jgi_pq_row_group));
  if (w.meta.created_by == NULL || w.meta.row_groups == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
    goto done;
  }
  st = sink_write(k, "PAR1", 4, err);
  if (st != JG_OK) goto done;
  for (int64_t g = 0; g < ngroups; g++) {
    const int64_t r0 = g * rgr, r1 = r0 + rgr < nrows ? r0 + rgr : nrows;
    jgi_pq_row_group *rg = &w.meta.row_groups[g];
    rg->num_rows = r1 - r0;
    rg->ncolumns = w.ncols;
    rg->columns = jgi_pq_meta_alloc(&w.meta, (size_t)w.ncols * sizeof(jgi_pq_column_chunk));
    if (rg->columns == NULL) {
      st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
      goto done;
    }
    for (int ci = 0; ci < w.ncols; ci++) {
      const wcolumn *c = &w.cols[ci];
      const wnode *leaf = c->path[c->depth - 1];
      jgi_pq_column_chunk *cc = &rg->columns[ci];
      st = shred_column(c, r0, r1, &s, err);
      if (st == JG_OK) {
        if (s.def != NULL) /* live slots reach the leaf: the maximum level */
          for (int64_t t = 0; t < s.nslots; t++)
            s.def[t] = s.def[t] < 0 ? (int16_t)c->max_def : s.def[t];
        st = leaf->kind == W_BYTES ? gather_bytes(leaf, &s, &v, err)
                                   : gather_fixed(c, leaf, &s, &v, err);
      }
      chunk.size = 0;
      if (st == JG_OK) st = write_chunk(&w, c, &s, &v, &chunk, &cc->meta, err);
      const int64_t at = k->offset;
      if (st == JG_OK) st = sink_write(k, chunk.data, chunk.size, err);
      if (st != JG_OK) {
        char where[256];
        snprintf(where, sizeof where, "column '%s', row group %lld", c->dotted, (long long)g);
        jgi_error_prefix(st, where, err);
        goto done;
      }
      cc->has_meta = true;
      cc->file_offset = at;
      cc->meta.data_page_offset += at;
      if (cc->meta.dictionary_page_offset >= 0) cc->meta.dictionary_page_offset += at;
      rg->total_byte_size += cc->meta.total_uncompressed_size;
      shred_reset(&s);
      values_reset(&v);
    }
  }
  st = jgi_pq_meta_write(&w.meta, &footer, err);
  if (st != JG_OK) goto done;
  if (footer.size > UINT32_MAX) {
    st = jg_error_set(err, JG_ENOTSUP, -1, "the footer of %zu bytes passes 4 GiB", footer.size);
    goto done;
  }
  uint8_t tail[8] = {(uint8_t)footer.size, (uint8_t)(footer.size >> 8),
                     (uint8_t)(footer.size >> 16), (uint8_t)(footer.size >> 24), 'P', 'A', 'R',
                     '1'};
  st = sink_write(k, footer.data, footer.size, err);
  if (st == JG_OK) st = sink_write(k, tail, 8, err);
done:
  shred_reset(&s);
  values_reset(&v);
  jgi_pq_buf_reset(&chunk);
  jgi_pq_buf_reset(&footer);
  writer_reset(&w);
  return st;
}

/* Argument and table checks shared by both calls. */
static jg_status check_table(const jg_array *table, jg_error *err) {
  JG_RETURN_IF(table == NULL, JG_EINVAL, err, "table is NULL");
  JG_RETURN_IF(jg_array_backend(table) != JG_BACKEND_CPU, JG_EBACKEND, err,
               "the table is in device memory: copy it with jg_array_to_host first");
  JG_RETURN_IF(jg_array_kind(table) != JG_NODE_RECORD, JG_EINVAL, err,
               "the table must be a record array (one field per column; jg_array_record)");
  return jg_array_validate(table, JG_VALIDATE_FULL, NULL, err);
}

jg_status jg_parquet_write(const jg_array *table, const char *path,
                           const jg_parquet_write_options *options, jg_error *err) {
  static const char fn[] = "jg_parquet_write";
  JG_RETURN_IF(path == NULL, JG_EINVAL, err, "%s: path is NULL", fn);
  jg_status st = check_table(table, err);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  jg_parquet_write_options o;
  st = options_check(options, &o, err);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  sink k = {0};
  k.path = path;
  k.f = fopen(path, "wb");
  if (k.f == NULL)
    return jg_error_set(err, JG_EIO, -1, "%s: cannot open '%s' for writing: %s", fn, path,
                        strerror(errno));
  st = write_file(table, &o, &k, err);
  if (fclose(k.f) != 0 && st == JG_OK)
    st = jg_error_set(err, JG_EIO, -1, "cannot close '%s': %s", path, strerror(errno));
  if (st != JG_OK) remove(path);
  return jgi_error_prefix(st, fn, err);
}

jg_status jg_parquet_write_memory(const jg_array *table, const jg_parquet_write_options *options,
                                  void **data, size_t *size, jg_error *err) {
  static const char fn[] = "jg_parquet_write_memory";
  JG_RETURN_IF(data == NULL || size == NULL, JG_EINVAL, err, "%s: data or size is NULL", fn);
  *data = NULL;
  *size = 0;
  jg_status st = check_table(table, err);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  jg_parquet_write_options o;
  st = options_check(options, &o, err);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  jgi_pq_buf mem = {0};
  sink k = {0};
  k.mem = &mem;
  st = write_file(table, &o, &k, err);
  if (st != JG_OK) {
    jgi_pq_buf_reset(&mem);
    return jgi_error_prefix(st, fn, err);
  }
  *data = mem.data;
  *size = mem.size;
  return JG_OK;
}

void jg_parquet_memory_free(void *data) { free(data); }
