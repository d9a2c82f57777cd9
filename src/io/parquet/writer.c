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
 * into pages at row boundaries, encoded, compressed and written page by page. The footer
 * (FileMetaData) goes last.
 *
 * Every file is written by a jg_parquet_writer (the streaming API; jg_parquet_write and
 * jg_parquet_write_memory are one table through it, to a FILE or to memory). A file goes to a
 * temporary file beside its path (jgi_file.h), renamed onto the path by a successful close and
 * removed by any failure, so the path never holds a partial file and the writer never removes
 * anything but its own temporary file. Lifetimes: a
 * table's column tree and its emitted schema (a `wtable`) point into the table and live only
 * during its write; what the footer needs (the schema, each leaf's path_in_schema, every column
 * chunk's metadata) is copied into or allocated in the writer's own metadata arena. The first
 * table's schema is the file's; a later table's emitted schema is compared with it element by
 * element before anything of the table is written. */
#define _POSIX_C_SOURCE 200809L /* fdopen, fileno, fsync */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal/jgi_check.h"
#include "internal/jgi_file.h"
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
    case JG_PARQUET_LZ4_RAW:
      return true;
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
  JG_RETURN_IF(o->row_group_rows < 1, JG_EINVAL, err,
               "options->row_group_rows is %lld, must be >= 1", (long long)o->row_group_rows);
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
  const char *name;        /* schema name (field name, "element"), owned by the writer */
  const jg_array *opt;     /* outermost option node above this node, or NULL */
  int nopt;                /* options in the chain from opt down (one OPTIONAL level) */
  wlist list;              /* W_LIST, W_BYTES */
  wleaf leaf;              /* W_LEAF, W_BYTES (the uint8 content) */
  struct wnode **children; /* W_RECORD: nchildren; W_LIST: 1 */
  int nchildren;
} wnode;

/* One leaf column: its path of nodes from the top-level field and its schema facts. */
typedef struct wcolumn {
  const wnode *path[MAX_DEPTH + 1];
  int depth;    /* nodes in path */
  char *dotted; /* path_in_schema joined by dots, for messages */
  char **names; /* path_in_schema, in the table's arena */
  int nnames;
  int max_def, max_rep;
  int type;  /* physical type */
  int width; /* bytes of a PLAIN value (BOOLEAN 1 before packing; BYTE_ARRAY 0) */
} wcolumn;

/* The state of one table being written: its column tree, pointing into the table (valid while
 * the table is), and its schema as emitted. Made and freed by each write; nothing that outlives
 * the write (the footer's metadata) points into it. */
typedef struct wtable {
  wnode **nodes; /* every node made, for freeing */
  int nnodes, cap_nodes;
  void **owned; /* other allocations (names, dense copies) */
  int nowned, cap_owned;
  wcolumn *cols;
  int ncols, cap_cols;
  jgi_pq_file_meta meta; /* only schema / nschema are used, and its arena: the table's schema
                            elements and the columns' names */
} wtable;

static jg_status own(wtable *w, void *p, jg_error *err) {
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

static jg_status own_strdup(wtable *w, const char *s, const char **out, jg_error *err) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p != NULL) memcpy(p, s, n);
  JG_RETURN_NOT_OK(own(w, p, err));
  *out = p;
  return JG_OK;
}

static jg_status node_new(wtable *w, int kind, const char *name, wnode **out, jg_error *err) {
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

static jg_status build_node(wtable *w, const jg_array *a, const char *name, int depth, wnode **out,
                            jg_error *err);

/* A numeric node of ndim >= 2: its values copied densely (C order) into host memory, under one
 * regular list per inner axis. */
static jg_status build_dense(wtable *w, const jg_view *v, const char *name, wnode **out,
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
  JG_RETURN_NOT_OK(
      jg_layout_init(&l, v->layout.ndim, v->layout.shape, NULL, v->layout.itemsize, err));
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
static jg_status build_node(wtable *w, const jg_array *a, const char *name, int depth, wnode **out,
                            jg_error *err) {
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
                 "at least one field)",
                 name);
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
    return jg_error_set(err, JG_ENOTSUP, -1, "field '%s': layout node kind %d is not written", name,
                        (int)kind);
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
 * count_elems) and one wcolumn per leaf, both in the table's state. `path`/`names` hold the nodes
 * and schema names above. */
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
  wtable *w;
  const wnode *path[MAX_DEPTH + 1];
  const char *names[2 * MAX_DEPTH + 2];
  int depth, nnames, def, rep;
} emit_ctx;

static jgi_pq_schema_elem *elem_new(wtable *w, const char *name, jg_error *err) {
  jgi_pq_schema_elem *e = &w->meta.schema[w->meta.nschema++];
  memset(e, 0, sizeof *e);
  e->type = e->type_length = e->repetition = e->num_children = -1;
  e->converted_type = e->scale = e->precision = e->field_id = -1;
  e->name = jgi_pq_meta_strdup(&w->meta, name, (size_t)-1);
  if (e->name == NULL) jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
  return e;
}

static jg_status emit(emit_ctx *c, const wnode *n, jg_error *err) {
  wtable *w = c->w;
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

/* A scratch buffer reused from column to column (so that large level and index arrays are not
 * mapped and faulted in again for every chunk); its contents are not kept when it grows. */
typedef struct sbuf {
  void *p;
  size_t cap; /* bytes */
} sbuf;

static void *sbuf_get(sbuf *b, int64_t n, size_t size, jg_error *err) {
  if (n < 0 || (uint64_t)n > SIZE_MAX / 2 / (size ? size : 1)) {
    jg_error_set(err, JG_EOVERFLOW, -1, "a column chunk of %lld entries is too large",
                 (long long)n);
    return NULL;
  }
  const size_t bytes = n > 0 ? (size_t)n * size : 1;
  if (bytes > b->cap) {
    size_t cap = b->cap > 0 ? b->cap : 4096;
    while (cap < bytes) cap = cap > SIZE_MAX / 4 ? bytes : 2 * cap;
    void *q = malloc(cap);
    if (q == NULL) {
      jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
      return NULL;
    }
    free(b->p);
    b->p = q;
    b->cap = cap;
  }
  return b->p;
}

static void sbuf_free(sbuf *b) {
  free(b->p);
  b->p = NULL;
  b->cap = 0;
}

/* The slots of a walk: nslots level entries in order; rep NULL means all 0; def NULL means all
 * live, else def[k] < 0 marks a live slot and def[k] >= 0 a finished one. The nlive live slots,
 * in order, point at entries idx[j] of the current node, or start + j when idx is NULL. The
 * arrays live in two banks of scratch buffers (bank `cur` holds them; a list's expansion writes
 * the other bank and swaps), kept by the writer from column to column. */
typedef struct shred {
  int64_t nslots, nlive;
  int16_t *rep, *def;
  int64_t *idx;
  int64_t start;
  int cur;
  sbuf rep_b[2], def_b[2], idx_b[2], starts_b, stops_b;
} shred;

/* Forgets the walk (the buffers stay for the next one). */
static void shred_clear(shred *s) {
  s->nslots = s->nlive = s->start = 0;
  s->rep = s->def = NULL;
  s->idx = NULL;
}

static void shred_free(shred *s) {
  for (int b = 0; b < 2; b++) {
    sbuf_free(&s->rep_b[b]);
    sbuf_free(&s->def_b[b]);
    sbuf_free(&s->idx_b[b]);
  }
  sbuf_free(&s->starts_b);
  sbuf_free(&s->stops_b);
  memset(s, 0, sizeof *s);
}

/* Entry i of a 1-D integer view (int32 or int64; any stride). */
#define VIEW_I64(v, i)                                                             \
  ((v)->dtype == JG_DTYPE_INT32                                                    \
       ? (int64_t)((const int32_t *)jg_view_data(v))[(i) * (v)->layout.strides[0]] \
       : ((const int64_t *)jg_view_data(v))[(i) * (v)->layout.strides[0]])

/* Materialises s->idx when it is a range. */
static jg_status shred_idx(shred *s, jg_error *err) {
  if (s->idx != NULL) return JG_OK;
  s->idx = sbuf_get(&s->idx_b[s->cur], s->nlive, sizeof(int64_t), err);
  if (s->idx == NULL) return err ? err->status : JG_ENOMEM;
  for (int64_t j = 0; j < s->nlive; j++) s->idx[j] = s->start + j;
  return JG_OK;
}

/* Materialises s->def when every slot is live. */
static jg_status shred_def(shred *s, jg_error *err) {
  if (s->def != NULL) return JG_OK;
  s->def = sbuf_get(&s->def_b[s->cur], s->nslots, sizeof(int16_t), err);
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

/* Sets levels[0..n) to v, 64 bits at a time (no vectorisation is assumed of the compiler). */
static void levels_fill(int16_t *levels, int64_t n, int16_t v) {
  const uint64_t pat = (uint64_t)(uint16_t)v * UINT64_C(0x0001000100010001);
  int64_t k = 0;
  for (; k + 4 <= n; k += 4) memcpy(levels + k, &pat, sizeof pat);
  for (; k < n; k++) levels[k] = v;
}

/* Counts the entries of levels[0..n) (each in 0..2^15 - 1) equal to v, four at a time: adding
 * 0x7FFF to a lane of x ^ v sets its top bit exactly when the lane is not 0, and carries
 * nothing into the next lane; the multiplication sums the four top bits into the top lane. */
static int64_t levels_count(const int16_t *levels, int64_t n, int16_t v) {
  const uint64_t ones = UINT64_C(0x0001000100010001), pat = (uint64_t)(uint16_t)v * ones;
  const uint64_t low = UINT64_C(0x7FFF7FFF7FFF7FFF), high = UINT64_C(0x8000800080008000);
  int64_t k = 0, differ = 0;
  for (; k + 4 <= n; k += 4) {
    uint64_t x;
    memcpy(&x, levels + k, sizeof x);
    differ += (int64_t)(((((x ^ pat) + low) & high) >> 15) * ones >> 48);
  }
  int64_t same = k - differ;
  for (; k < n; k++) same += levels[k] == v;
  return same;
}

/* Replaces the negative entries of levels[0..n) (live slots, -1) by v >= 0, four at a time. */
static void levels_fill_live(int16_t *levels, int64_t n, int16_t v) {
  const uint64_t pat = (uint64_t)(uint16_t)v * UINT64_C(0x0001000100010001);
  const uint64_t high = UINT64_C(0x8000800080008000);
  int64_t k = 0;
  for (; k + 4 <= n; k += 4) {
    uint64_t x;
    memcpy(&x, levels + k, sizeof x);
    const uint64_t neg = ((x & high) >> 15) * 0xFFFF; /* all ones in the negative lanes */
    x = (x & ~neg) | (pat & neg);
    memcpy(levels + k, &x, sizeof x);
  }
  for (; k < n; k++) levels[k] = levels[k] < 0 ? v : levels[k];
}

/* The fast case of shred_list: every slot live (no levels yet) over a range of lists of a
 * list-offset node, whose entries are then a range too; no starts/stops arrays are made. */
#define SHRED_OFFSETS(T)                                                      \
  do {                                                                        \
    const T *p = (const T *)jg_view_data(&l->a) + s->start * sa;              \
    first = n > 0 ? (int64_t)p[0] : 0;                                        \
    nvalues = n > 0 ? (int64_t)p[n * sa] - first : 0;                         \
    if (pass == 0) {                                                          \
      for (int64_t j = 0; j < n; j++) nempty += p[(j + 1) * sa] == p[j * sa]; \
    } else {                                                                  \
      int64_t o = 0;                                                          \
      for (int64_t j = 0; j < n; j++) {                                       \
        const int64_t len = (int64_t)p[(j + 1) * sa] - (int64_t)p[j * sa];    \
        rep[o] = 0;                                                           \
        if (len == 0) def[o] = def_empty;                                     \
        o += len > 0 ? len : 1;                                               \
      }                                                                       \
    }                                                                         \
  } while (0)

static jg_status shred_list_offsets(shred *s, const wlist *l, int16_t def_empty, int16_t rep_level,
                                    jg_error *err) {
  const int64_t n = s->nlive, sa = l->a.layout.strides[0];
  const bool i64 = l->a.dtype == JG_DTYPE_INT64;
  int64_t first = 0, nvalues = 0, nempty = 0;
  int16_t *rep = NULL, *def = NULL;
  /* Pass 0 counts the empty lists (the slots' number), pass 1 marks where lists start. */
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      const int64_t nslots = nvalues + nempty;
      rep = sbuf_get(&s->rep_b[1 - s->cur], nslots, sizeof(int16_t), err);
      if (rep == NULL) return err ? err->status : JG_ENOMEM;
      levels_fill(rep, nslots, rep_level);
      if (nempty > 0) {
        def = sbuf_get(&s->def_b[1 - s->cur], nslots, sizeof(int16_t), err);
        if (def == NULL) return err ? err->status : JG_ENOMEM;
        levels_fill(def, nslots, -1);
      }
    }
    if (i64) {
      SHRED_OFFSETS(int64_t);
    } else {
      SHRED_OFFSETS(int32_t);
    }
  }
  s->rep = rep;
  s->def = def;
  s->idx = NULL;
  s->start = first;
  s->nslots = nvalues + nempty;
  s->nlive = nvalues;
  s->cur = 1 - s->cur;
  return JG_OK;
}
#undef SHRED_OFFSETS

/* Expands the live slots through list node `l`: an empty list finishes with definition level
 * `def_empty`; a list of n entries becomes n live slots, the first keeping the slot's
 * repetition level and the others getting `rep_level`. */
static jg_status shred_list(shred *s, const wlist *l, int16_t def_empty, int16_t rep_level,
                            jg_error *err) {
  if (s->rep == NULL && s->def == NULL && s->idx == NULL && l->kind == JG_NODE_LIST_OFFSET)
    return shred_list_offsets(s, l, def_empty, rep_level, err);
  int64_t *starts = sbuf_get(&s->starts_b, s->nlive, sizeof(int64_t), err);
  int64_t *stops = sbuf_get(&s->stops_b, s->nlive, sizeof(int64_t), err);
  if (starts == NULL || stops == NULL) return err ? err->status : JG_ENOMEM;
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
  const int nxt = 1 - s->cur;
  int16_t *rep = sbuf_get(&s->rep_b[nxt], nslots, sizeof(int16_t), err), *def = NULL;
  int64_t *idx = NULL;
  if (rep == NULL) return err ? err->status : JG_ENOMEM;
  if (s->def != NULL || nempty > 0) {
    def = sbuf_get(&s->def_b[nxt], nslots, sizeof(int16_t), err);
    if (def == NULL) return err ? err->status : JG_ENOMEM;
  }
  if (!range) {
    idx = sbuf_get(&s->idx_b[nxt], nvalues, sizeof(int64_t), err);
    if (idx == NULL) return err ? err->status : JG_ENOMEM;
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
  s->rep = rep;
  s->def = def;
  s->idx = idx;
  s->start = range && s->nlive > 0 ? starts[0] : 0;
  s->nslots = nslots;
  s->nlive = nvalues;
  s->cur = nxt;
  return JG_OK;
}

/* Walks column `c` over rows [r0, r1) of the table; on return the slots are the leaf's levels
 * (def of live slots still -1) and the live entries index the leaf (for W_BYTES: the list
 * node). */
static jg_status shred_column(const wcolumn *c, int64_t r0, int64_t r1, shred *s, jg_error *err) {
  shred_clear(s);
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
  const uint8_t *fixed;   /* n values of `width` bytes (BOOLEAN: one byte each) */
  const int64_t *offsets; /* BYTE_ARRAY: n + 1 offsets into bytes */
  const uint8_t *bytes;
  sbuf fixed_b, offsets_b, bytes_b, starts_b; /* scratch for gathered values, kept by the
                                                 writer from column to column */
} values;

/* Forgets the values (the buffers stay). */
static void values_clear(values *v) {
  v->n = 0;
  v->fixed = v->bytes = NULL;
  v->offsets = NULL;
}

static void values_free(values *v) {
  sbuf_free(&v->fixed_b);
  sbuf_free(&v->offsets_b);
  sbuf_free(&v->bytes_b);
  sbuf_free(&v->starts_b);
  memset(v, 0, sizeof *v);
}

#define GATHER(SRC_T, DST_T)                               \
  do {                                                     \
    DST_T *o_ = (DST_T *)dst;                              \
    if (s->idx != NULL) {                                  \
      for (int64_t j = 0; j < n; j++) {                    \
        SRC_T x_;                                          \
        memcpy(&x_, base + s->idx[j] * stride, sizeof x_); \
        o_[j] = (DST_T)x_;                                 \
      }                                                    \
    } else {                                               \
      const uint8_t *b_ = base + s->start * stride;        \
      for (int64_t j = 0; j < n; j++) {                    \
        SRC_T x_;                                          \
        memcpy(&x_, b_ + j * stride, sizeof x_);           \
        o_[j] = (DST_T)x_;                                 \
      }                                                    \
    }                                                      \
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
  void *dst = sbuf_get(&v->fixed_b, bytes, 1, err);
  if (dst == NULL) return err ? err->status : JG_ENOMEM;
  v->fixed = dst;
  switch (d) {
    case JG_DTYPE_INT8:
      GATHER(int8_t, int32_t);
      break;
    case JG_DTYPE_INT16:
      GATHER(int16_t, int32_t);
      break;
    case JG_DTYPE_UINT8:
      GATHER(uint8_t, int32_t);
      break;
    case JG_DTYPE_UINT16:
      GATHER(uint16_t, int32_t);
      break;
    case JG_DTYPE_BOOL:
      GATHER(uint8_t, uint8_t);
      break;
    case JG_DTYPE_FLOAT16:
      GATHER(uint16_t, uint16_t);
      break;
    case JG_DTYPE_INT32:
    case JG_DTYPE_UINT32:
    case JG_DTYPE_FLOAT32:
      GATHER(uint32_t, uint32_t);
      break;
    default:
      GATHER(uint64_t, uint64_t);
      break;
  }
  return JG_OK;
}

/* BYTE_ARRAY values of a W_BYTES node: live entry j is list idx(j) of the node, its bytes
 * content[start, stop). Lists that follow each other over contiguous content are used in
 * place; others are gathered. */
static jg_status gather_bytes(const wnode *b, const shred *s, values *v, jg_error *err) {
  const int64_t n = s->nlive;
  v->n = n;
  int64_t *starts = sbuf_get(&v->starts_b, n, sizeof(int64_t), err);
  int64_t *offsets = sbuf_get(&v->offsets_b, n + 1, sizeof(int64_t), err);
  if (starts == NULL || offsets == NULL) return err ? err->status : JG_ENOMEM;
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
    return JG_OK;
  }
  uint8_t *bytes = sbuf_get(&v->bytes_b, total, 1, err);
  if (bytes == NULL) return err ? err->status : JG_ENOMEM;
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
  return JG_OK;
}

/* ---- Dictionary ----------------------------------------------------------------------------- */

/* A dictionary of a column chunk: ndict distinct values (PLAIN-encoded into `page`, in index
 * order) and the index of every value (in a scratch buffer of the writer's). */
typedef struct dict {
  int64_t ndict;
  uint32_t *indices;
  jgi_pq_buf page; /* the dictionary page's PLAIN values */
} dict;

static void dict_reset(dict *d) {
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

/* The early give-up of dict_build: after DICT_PROBE values, and again at every doubling of that
 * count, a dictionary to which more than 15/16 of the values seen so far added an entry is
 * abandoned. Values drawn at random from more than about 30000 distinct ones (measured floats,
 * unique ids) fail the first check; 4096 insertions into a table that stays in the cache then
 * decide a chunk of any length. */
#define DICT_PROBE 4096
#define DICT_GIVE_UP(ndict, seen) (16 * (ndict) > 15 * (seen))

/* The hash tables (open addressing, linear probing, a power-of-2 number of slots, at most half
 * full; they start small and double, so their memory follows the distinct values, not the
 * chunk's length). Values of up to 4 bytes: one uint64 a slot, the value's bits above its
 * index + 1 (0: empty). 8-byte values and byte arrays: a dslot of the value's bits (or the
 * byte array's hash) and its index + 1. */
typedef struct dslot {
  uint64_t key;
  uint64_t id1;
} dslot;

/* Slot of a value of up to 4 bytes in a table of 2^bits slots (Fibonacci hashing: the top bits
 * of the product with 2^64 / phi). */
static inline uint64_t hash32(uint32_t key, int bits) {
  return ((uint64_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits);
}

static jg_status grow32(uint64_t **tab, int64_t *cap, int *bits, jg_error *err) {
  const int64_t ncap = 2 * *cap;
  uint64_t *t = calloc((size_t)ncap, sizeof *t);
  JG_RETURN_IF(t == NULL, JG_ENOMEM, err, "out of host memory");
  const uint64_t mask = (uint64_t)ncap - 1;
  ++*bits;
  for (int64_t k = 0; k < *cap; k++) {
    const uint64_t e = (*tab)[k];
    if ((uint32_t)e == 0) continue;
    uint64_t at = hash32((uint32_t)(e >> 32), *bits);
    while (t[at] != 0) at = (at + 1) & mask;
    t[at] = e;
  }
  free(*tab);
  *tab = t;
  *cap = ncap;
  return JG_OK;
}

/* `hashed`: the key is already a hash (byte arrays), else the value's bits. */
static jg_status grow64(dslot **tab, int64_t *cap, bool hashed, jg_error *err) {
  const int64_t ncap = 2 * *cap;
  dslot *t = calloc((size_t)ncap, sizeof *t);
  JG_RETURN_IF(t == NULL, JG_ENOMEM, err, "out of host memory");
  const uint64_t mask = (uint64_t)ncap - 1;
  for (int64_t k = 0; k < *cap; k++) {
    const dslot e = (*tab)[k];
    if (e.id1 == 0) continue;
    uint64_t at = (hashed ? e.key : hash64(e.key)) & mask;
    while (t[at].id1 != 0) at = (at + 1) & mask;
    t[at] = e;
  }
  free(*tab);
  *tab = t;
  *cap = ncap;
  return JG_OK;
}

/* Tries to dictionary-encode v: *ok false (and d empty) when the dictionary would hold more
 * than a quarter of the values or pass `limit` bytes. The walk gives up at the first value that
 * breaks either bound, and early by DICT_GIVE_UP (a column of mostly distinct values then costs
 * DICT_PROBE hash insertions, not up to min(n / 4, limit / width); a chunk that starts with
 * that many distinct values and repeats few of them later is written PLAIN though a full walk
 * would have kept its dictionary). */
static jg_status dict_build(const wcolumn *c, const values *v, int64_t limit, sbuf *idx_b, dict *d,
                            bool *ok, jg_error *err) {
  memset(d, 0, sizeof *d);
  *ok = false;
  const int64_t n = v->n;
  const bool fixed = c->type != JGI_PQ_BYTE_ARRAY;
  const int width = c->width;
  /* Most entries the bounds allow: a quarter of the values, and limit / (bytes of an entry:
   * width, or at least the 4-byte length of a byte array). */
  int64_t max_dict = n / 4;
  const int64_t by_bytes = limit / (fixed ? width : 4);
  if (by_bytes < max_dict) max_dict = by_bytes;
  if (max_dict > INT32_MAX) max_dict = INT32_MAX;
  if (max_dict < 1) return JG_OK;
  jg_status st = JG_OK;
  int64_t cap = 1024, check = DICT_PROBE, ndict = 0, bytes = 0;
  int bits = 10; /* log2(cap) */
  uint64_t *tab32 = NULL;
  dslot *tab64 = NULL;
  int64_t *key_pos = NULL; /* byte arrays: the entry of v of each dictionary value */
  int64_t key_cap = 0;
  d->indices = sbuf_get(idx_b, n, sizeof(uint32_t), err);
  if (d->indices == NULL) {
    st = err ? err->status : JG_ENOMEM;
    goto fail;
  }
  if (fixed && width <= 4) {
    tab32 = calloc((size_t)cap, sizeof *tab32);
  } else {
    tab64 = calloc((size_t)cap, sizeof *tab64);
  }
  if (tab32 == NULL && tab64 == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
    goto fail;
  }
  if (fixed) {
    /* The dictionary page holds at most max_dict values: room for them once. */
    st = jgi_pq_buf_reserve(&d->page, (size_t)(max_dict * width), err);
    if (st != JG_OK) goto fail;
  }
  uint8_t *page = d->page.data;
  if (fixed && width <= 4) {
    uint32_t last_key = 0, last_id1 = 0; /* runs of one value skip the table */
    for (int64_t i = 0; i < n; i++) {
      uint32_t key;
      if (width == 4) { /* INT32, FLOAT; else FLOAT16 (2): constant-size loads */
        memcpy(&key, v->fixed + i * 4, 4);
      } else {
        uint16_t h;
        memcpy(&h, v->fixed + i * 2, 2);
        key = h;
      }
      uint32_t id1 = last_id1;
      if (key != last_key || id1 == 0) {
        const uint64_t mask = (uint64_t)cap - 1;
        uint64_t at = hash32(key, bits), e;
        while ((e = tab32[at]) != 0 && (uint32_t)(e >> 32) != key) at = (at + 1) & mask;
        id1 = (uint32_t)e;
        if (id1 == 0) {
          if (ndict == max_dict) goto give_up;
          if (width == 4) {
            memcpy(page + ndict * 4, &key, 4);
          } else {
            const uint16_t h = (uint16_t)key;
            memcpy(page + ndict * 2, &h, 2);
          }
          id1 = (uint32_t)++ndict;
          tab32[at] = (uint64_t)key << 32 | id1;
          if (2 * ndict > cap && (st = grow32(&tab32, &cap, &bits, err)) != JG_OK) goto fail;
        }
        last_key = key;
        last_id1 = id1;
      }
      d->indices[i] = id1 - 1;
      if (i + 1 == check) {
        if (DICT_GIVE_UP(ndict, check)) goto give_up;
        check *= 2;
      }
    }
  } else if (fixed) {
    for (int64_t i = 0; i < n; i++) {
      uint64_t key;
      memcpy(&key, v->fixed + i * width, sizeof key);
      const uint64_t mask = (uint64_t)cap - 1;
      uint64_t at = hash64(key) & mask;
      while (tab64[at].id1 != 0 && tab64[at].key != key) at = (at + 1) & mask;
      uint64_t id1 = tab64[at].id1;
      if (id1 == 0) {
        if (ndict == max_dict) goto give_up;
        memcpy(page + ndict * width, &key, sizeof key);
        tab64[at].key = key;
        tab64[at].id1 = id1 = (uint64_t)++ndict;
        if (2 * ndict > cap && (st = grow64(&tab64, &cap, false, err)) != JG_OK) goto fail;
      }
      d->indices[i] = (uint32_t)(id1 - 1);
      if (i + 1 == check) {
        if (DICT_GIVE_UP(ndict, check)) goto give_up;
        check *= 2;
      }
    }
  } else {
    for (int64_t i = 0; i < n; i++) {
      const uint8_t *p = v->bytes + v->offsets[i];
      const int64_t len = v->offsets[i + 1] - v->offsets[i];
      const uint64_t h = hash_bytes(p, len), mask = (uint64_t)cap - 1;
      uint64_t at = h & mask;
      for (; tab64[at].id1 != 0; at = (at + 1) & mask) {
        if (tab64[at].key != h) continue;
        const int64_t e = key_pos[tab64[at].id1 - 1];
        if (v->offsets[e + 1] - v->offsets[e] == len &&
            (len == 0 || memcmp(v->bytes + v->offsets[e], p, (size_t)len) == 0))
          break;
      }
      uint64_t id1 = tab64[at].id1;
      if (id1 == 0) {
        bytes += 4 + len;
        if (ndict == max_dict || bytes > limit) goto give_up;
        if (ndict == key_cap) {
          const int64_t ncap = key_cap ? 2 * key_cap : 1024;
          int64_t *q = realloc(key_pos, (size_t)ncap * sizeof *q);
          if (q == NULL) {
            st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
            goto fail;
          }
          key_pos = q;
          key_cap = ncap;
        }
        key_pos[ndict] = i;
        tab64[at].key = h;
        tab64[at].id1 = id1 = (uint64_t)++ndict;
        if (2 * ndict > cap && (st = grow64(&tab64, &cap, true, err)) != JG_OK) goto fail;
      }
      d->indices[i] = (uint32_t)(id1 - 1);
      if (i + 1 == check) {
        if (DICT_GIVE_UP(ndict, check)) goto give_up;
        check *= 2;
      }
    }
  }
  if (fixed) {
    d->page.size = (size_t)(ndict * width);
  } else {
    /* The dictionary page: the distinct values, PLAIN. */
    for (int64_t k = 0; k < ndict; k++) {
      st = jgi_pq_plain_encode_bytes(v->offsets + key_pos[k], v->bytes, 1, &d->page, err);
      if (st != JG_OK) goto fail;
    }
  }
  d->ndict = ndict;
  *ok = true;
  free(tab32);
  free(tab64);
  free(key_pos);
  return JG_OK;
give_up:
fail:
  free(tab32);
  free(tab64);
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
    JG_RETURN_IF(n > 0 && fwrite(p, 1, n, k->f) != n, JG_EIO, err, "cannot write '%s': %s", k->path,
                 strerror(errno));
  } else {
    JG_RETURN_NOT_OK(jgi_pq_buf_append(k->mem, p, n, err));
  }
  k->offset += (int64_t)n;
  return JG_OK;
}

/* The leaf columns' path_in_schema, kept by the writer for the footer (in its arena). */
typedef struct wpath {
  char **names;
  int nnames;
} wpath;

/* A streaming writer (the opaque jg_parquet_writer): the sink, the footer's metadata as it
 * grows, and buffers reused from page to page. The schema and the column paths are copied
 * from the first table into `meta`'s arena; every column chunk's metadata is allocated there
 * too, so nothing of it points into a table or a table's state. */
struct jg_parquet_writer {
  jg_parquet_write_options o;
  sink k;
  char *path;               /* file sinks: the path as the caller gave it (malloc'ed) */
  jgi_tmpfile tmp;          /* file sinks: the temporary file written, and its target */
  jgi_pq_buf mem;           /* memory sinks: the file's bytes */
  jgi_pq_file_meta meta;    /* the footer: schema (from the first table), created_by, version */
  jgi_pq_row_group *groups; /* malloc'ed (meta.row_groups points here only while the footer is
                               serialised); their columns live in meta's arena */
  int64_t ngroups, cap_groups;
  wpath *paths; /* ncols, in meta's arena */
  int ncols;
  bool has_schema;  /* a table was accepted */
  bool magic;       /* the leading "PAR1" is written */
  jg_status failed; /* JG_OK, or the status of a write that failed after writing began */
  int64_t num_rows;
  jgi_pq_buf hdr, raw, body, lev; /* page header, uncompressed page, compressed page, v2 levels */
  shred s;                        /* scratch of the column being written (kept for the next one) */
  values v;
  sbuf dict_idx;
};

/* Appends levels[k0, k1) (NULL: all `fill`) RLE-encoded with bit width `bw`, no prefix. */
static jg_status put_levels(const int16_t *levels, int16_t fill, int64_t k0, int64_t k1, int bw,
                            jgi_pq_buf *out, jg_error *err) {
  if (levels == NULL) return jgi_pq_rle_encode_run((uint32_t)fill, k1 - k0, bw, out, err);
  return jgi_pq_rle_encode_levels(levels + k0, k1 - k0, bw, out, err);
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

/* Writes a page header and its body (w->body) to the sink; sizes checked against int32. */
static jg_status put_page(jg_parquet_writer *w, jgi_pq_page_header *h, int64_t uncompressed,
                          int64_t *total_uncompressed, jg_error *err) {
  const jgi_pq_buf *body = &w->body;
  JG_RETURN_IF(uncompressed > INT32_MAX || body->size > INT32_MAX, JG_ENOTSUP, err,
               "a page of %lld bytes is larger than Parquet's 2^31 - 1 (lower the page size, "
               "or split long rows)",
               (long long)uncompressed);
  h->uncompressed_size = (int32_t)uncompressed;
  h->compressed_size = (int32_t)body->size;
  w->hdr.size = 0;
  JG_RETURN_NOT_OK(jgi_pq_page_header_write(h, &w->hdr, err));
  JG_RETURN_NOT_OK(sink_write(&w->k, w->hdr.data, w->hdr.size, err));
  JG_RETURN_NOT_OK(sink_write(&w->k, body->data, body->size, err));
  *total_uncompressed += (int64_t)w->hdr.size + uncompressed;
  return JG_OK;
}

/* Writes one column chunk (dictionary page, data pages) of column `c` to the sink, page by
 * page, and fills its metadata `m` (offsets in the file; path and encodings in the footer's
 * arena). */
static jg_status write_chunk(jg_parquet_writer *w, const wcolumn *c, const wpath *path,
                             const shred *s, const values *v, jgi_pq_column_meta *m,
                             jg_error *err) {
  const jg_parquet_write_options *o = &w->o;
  jgi_pq_buf *raw = &w->raw, *body = &w->body, *lev = &w->lev;
  jg_status st = JG_OK;
  dict d;
  memset(&d, 0, sizeof d);
  bool use_dict = false;
  const int64_t start = w->k.offset;
  if (o->dictionary && c->type != JGI_PQ_BOOLEAN) {
    st = dict_build(c, v, o->dictionary_size, &w->dict_idx, &d, &use_dict, err);
    if (st != JG_OK) goto done;
  }
  int64_t total_uncompressed = 0;
  m->dictionary_page_offset = -1;
  m->index_page_offset = -1;
  if (use_dict) {
    m->dictionary_page_offset = w->k.offset;
    jgi_pq_page_header h;
    memset(&h, 0, sizeof h);
    h.type = JGI_PQ_DICTIONARY_PAGE;
    h.dict.num_values = (int32_t)d.ndict;
    h.dict.encoding = JGI_PQ_PLAIN;
    body->size = 0;
    st = jgi_pq_compress((int)o->codec, o->compression_level, d.page.data, d.page.size, body, err);
    if (st == JG_OK) st = put_page(w, &h, (int64_t)d.page.size, &total_uncompressed, err);
    if (st != JG_OK) goto done;
  }
  m->data_page_offset = w->k.offset;
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
  const int16_t max_def = (int16_t)c->max_def;
  int64_t k0 = 0, v0 = 0;
  int npages = 0;
  while (k0 < s->nslots || npages == 0) {
    int64_t k1 = k0 + per_page < s->nslots ? k0 + per_page : s->nslots;
    if (s->rep != NULL)
      while (k1 < s->nslots && s->rep[k1] != 0) k1++;
    if (k1 - k0 > INT32_MAX) {
      st = jg_error_set(err, JG_ENOTSUP, -1,
                        "a row of %lld level entries does not fit in one page (at most 2^31 - 1)",
                        (long long)(k1 - k0));
      goto done;
    }
    const int64_t nv = s->def != NULL ? levels_count(s->def + k0, k1 - k0, max_def) : k1 - k0;
    const int64_t nrows = s->rep != NULL ? levels_count(s->rep + k0, k1 - k0, 0) : k1 - k0;
    const int64_t v1 = v0 + nv;
    jgi_pq_page_header h;
    memset(&h, 0, sizeof h);
    raw->size = 0;
    body->size = 0;
    lev->size = 0;
    if (o->data_page_version == 1) {
      h.type = JGI_PQ_DATA_PAGE;
      h.v1.num_values = (int32_t)(k1 - k0);
      h.v1.encoding = use_dict ? JGI_PQ_RLE_DICTIONARY : JGI_PQ_PLAIN;
      h.v1.def_encoding = JGI_PQ_RLE;
      h.v1.rep_encoding = JGI_PQ_RLE;
      const uint8_t zero4[4] = {0, 0, 0, 0};
      if (c->max_rep > 0) {
        size_t at = raw->size;
        st = jgi_pq_buf_append(raw, zero4, 4, err);
        if (st == JG_OK) st = put_levels(s->rep, 0, k0, k1, rep_bw, raw, err);
        if (st != JG_OK) goto done;
        put_u32(raw, at, (uint32_t)(raw->size - at - 4));
      }
      if (c->max_def > 0) {
        size_t at = raw->size;
        st = jgi_pq_buf_append(raw, zero4, 4, err);
        if (st == JG_OK) st = put_levels(s->def, max_def, k0, k1, def_bw, raw, err);
        if (st != JG_OK) goto done;
        put_u32(raw, at, (uint32_t)(raw->size - at - 4));
      }
      st = put_values(c, v, use_dict ? &d : NULL, v0, v1, raw, err);
      if (st == JG_OK)
        st = jgi_pq_compress((int)o->codec, o->compression_level, raw->data, raw->size, body, err);
      if (st == JG_OK) st = put_page(w, &h, (int64_t)raw->size, &total_uncompressed, err);
      if (st != JG_OK) goto done;
    } else {
      h.type = JGI_PQ_DATA_PAGE_V2;
      h.v2.num_values = (int32_t)(k1 - k0);
      h.v2.num_nulls = (int32_t)(k1 - k0 - nv);
      h.v2.num_rows = (int32_t)nrows;
      h.v2.encoding = use_dict ? JGI_PQ_RLE_DICTIONARY : JGI_PQ_PLAIN;
      h.v2.is_compressed = o->codec != JG_PARQUET_UNCOMPRESSED;
      if (c->max_rep > 0) {
        st = put_levels(s->rep, 0, k0, k1, rep_bw, lev, err);
        if (st != JG_OK) goto done;
      }
      h.v2.rep_bytes = (int32_t)lev->size;
      if (c->max_def > 0) {
        st = put_levels(s->def, max_def, k0, k1, def_bw, lev, err);
        if (st != JG_OK) goto done;
      }
      h.v2.def_bytes = (int32_t)(lev->size - (size_t)h.v2.rep_bytes);
      st = put_values(c, v, use_dict ? &d : NULL, v0, v1, raw, err);
      if (st == JG_OK) st = jgi_pq_buf_append(body, lev->data, lev->size, err);
      if (st == JG_OK)
        st = jgi_pq_compress((int)o->codec, o->compression_level, raw->data, raw->size, body, err);
      if (st == JG_OK)
        st = put_page(w, &h, (int64_t)(lev->size + raw->size), &total_uncompressed, err);
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
  m->total_compressed_size = w->k.offset - start;
  m->npath = path->nnames;
  m->path = path->names;
  m->encodings = jgi_pq_meta_alloc(&w->meta, 3 * sizeof(int));
  if (m->encodings == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
    goto done;
  }
  m->encodings[m->nencodings++] = JGI_PQ_PLAIN;
  m->encodings[m->nencodings++] = JGI_PQ_RLE;
  if (use_dict) m->encodings[m->nencodings++] = JGI_PQ_RLE_DICTIONARY;
done:
  dict_reset(&d);
  return st;
}

/* ---- One table's schema ------------------------------------------------------------------- */

static void wtable_reset(wtable *w) {
  for (int i = 0; i < w->nnodes; i++) free(w->nodes[i]);
  free(w->nodes);
  for (int i = 0; i < w->nowned; i++) free(w->owned[i]);
  free(w->owned);
  free(w->cols);
  jgi_pq_meta_reset(&w->meta);
  memset(w, 0, sizeof *w);
}

/* The column tree, the schema and the column list of `table` (a checked record). */
static jg_status wtable_build(wtable *w, const jg_array *table, jg_error *err) {
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

/* ---- Comparing a table's schema with the file's -------------------------------------------- */

/* The index after the subtree of schema element i (a well-formed pre-order list). */
static int subtree_end(const jgi_pq_schema_elem *e, int n, int i) {
  int todo = 1;
  while (todo > 0 && i < n) {
    todo--;
    if (e[i].num_children > 0) todo += e[i].num_children;
    i++;
  }
  return i;
}

/* A schema element's facts in words, for messages: "REQUIRED FLOAT", "OPTIONAL INT32
 * (INTEGER(8, signed))", "REQUIRED group (LIST) of 1 field". */
static void elem_describe(const jgi_pq_schema_elem *e, char *buf, size_t size) {
  const char *rep = e->repetition == JGI_PQ_REQUIRED   ? "REQUIRED"
                    : e->repetition == JGI_PQ_OPTIONAL ? "OPTIONAL"
                    : e->repetition == JGI_PQ_REPEATED ? "REPEATED"
                                                       : "";
  char ann[64] = "";
  const jgi_pq_logical *lt = &e->logical;
  if (lt->kind == JGI_PQ_LT_INTEGER) {
    snprintf(ann, sizeof ann, " (INTEGER(%d, %s))", lt->bit_width,
             lt->is_signed ? "signed" : "unsigned");
  } else if (lt->kind == JGI_PQ_LT_LIST) {
    snprintf(ann, sizeof ann, " (LIST)");
  } else if (lt->kind == JGI_PQ_LT_FLOAT16) {
    snprintf(ann, sizeof ann, " (FLOAT16)");
  } else if (lt->kind == JGI_PQ_LT_UNKNOWN) {
    snprintf(ann, sizeof ann, " (UNKNOWN)");
  } else if (lt->kind != JGI_PQ_LT_NONE || e->converted_type >= 0) {
    snprintf(ann, sizeof ann, " (logical type %d, converted type %d)", lt->kind, e->converted_type);
  }
  if (e->num_children >= 0) {
    snprintf(buf, size, "%s group%s of %d field%s", rep, ann, e->num_children,
             e->num_children == 1 ? "" : "s");
  } else if (e->type == JGI_PQ_FIXED_LEN_BYTE_ARRAY) {
    snprintf(buf, size, "%s FIXED_LEN_BYTE_ARRAY(%d)%s", rep, e->type_length, ann);
  } else {
    snprintf(buf, size, "%s %s%s", rep, jgi_pq_type_name(e->type), ann);
  }
}

/* Whether two schema elements state the same facts (the name aside). */
static bool elem_same(const jgi_pq_schema_elem *a, const jgi_pq_schema_elem *b) {
  return a->type == b->type && a->type_length == b->type_length && a->repetition == b->repetition &&
         a->num_children == b->num_children && a->converted_type == b->converted_type &&
         a->scale == b->scale && a->precision == b->precision && a->field_id == b->field_id &&
         a->logical.kind == b->logical.kind && a->logical.bit_width == b->logical.bit_width &&
         a->logical.is_signed == b->logical.is_signed && a->logical.unit == b->logical.unit &&
         a->logical.utc == b->logical.utc && a->logical.scale == b->logical.scale &&
         a->logical.precision == b->logical.precision;
}

typedef struct schema_cmp {
  const jgi_pq_schema_elem *f, *t; /* the file's schema and the table's */
  int nf, nt;
  char path[1024]; /* dotted path of the group being compared */
} schema_cmp;

/* Whether group g's children from child index `from` on (the child at element `at`) include
 * one named `name`. */
static bool sibling_named(const jgi_pq_schema_elem *e, int n, int g, int from, int at,
                          const char *name) {
  for (int k = from; k < e[g].num_children && at < n; k++) {
    if (strcmp(e[at].name, name) == 0) return true;
    at = subtree_end(e, n, at);
  }
  return false;
}

/* Compares the children of group fg of the file with those of group tg of the table (whose own
 * facts agree), depth first; JG_ESHAPE names the first column that differs. */
static jg_status schema_cmp_group(schema_cmp *c, int fg, int tg, jg_error *err) {
  const size_t plen = strlen(c->path);
  const int fn = c->f[fg].num_children, tn = c->t[tg].num_children;
  const char *dot = plen > 0 ? "." : "";
  int fi = fg + 1, ti = tg + 1;
  for (int k = 0; k < fn || k < tn; k++) {
    if (k >= tn)
      return jg_error_set(err, JG_ESHAPE, -1,
                          "the table has no field '%s%s%s' (the file's schema has it)", c->path,
                          dot, c->f[fi].name);
    if (k >= fn)
      return jg_error_set(err, JG_ESHAPE, -1,
                          "the table's field '%s%s%s' is not in the file's schema", c->path, dot,
                          c->t[ti].name);
    const jgi_pq_schema_elem *a = &c->f[fi], *b = &c->t[ti];
    if (strcmp(a->name, b->name) != 0) {
      /* Which of the two names the other side has further on tells what happened. */
      const bool b_later_in_file =
          sibling_named(c->f, c->nf, fg, k + 1, subtree_end(c->f, c->nf, fi), b->name);
      const bool a_later_in_table =
          sibling_named(c->t, c->nt, tg, k + 1, subtree_end(c->t, c->nt, ti), a->name);
      if (b_later_in_file && a_later_in_table)
        return jg_error_set(err, JG_ESHAPE, -1,
                            "the table has field '%s%s%s' where the file's schema has '%s%s%s' "
                            "(fields must come in the file's order)",
                            c->path, dot, b->name, c->path, dot, a->name);
      if (b_later_in_file)
        return jg_error_set(err, JG_ESHAPE, -1,
                            "the table has no field '%s%s%s' (the file's schema has it before "
                            "'%s')",
                            c->path, dot, a->name, b->name);
      if (a_later_in_table)
        return jg_error_set(err, JG_ESHAPE, -1,
                            "the table's field '%s%s%s' is not in the file's schema", c->path, dot,
                            b->name);
      return jg_error_set(err, JG_ESHAPE, -1,
                          "the table has field '%s%s%s' where the file's schema has '%s%s%s' "
                          "(fields must be the same, in the same order)",
                          c->path, dot, b->name, c->path, dot, a->name);
    }
    if (!elem_same(a, b)) {
      char da[160], db[160];
      elem_describe(a, da, sizeof da);
      elem_describe(b, db, sizeof db);
      return jg_error_set(err, JG_ESHAPE, -1,
                          "column '%s%s%s' differs from the file's schema: the file has %s, the "
                          "table %s",
                          c->path, dot, a->name, da, db);
    }
    if (a->num_children > 0) {
      JG_RETURN_IF(plen + 1 + strlen(a->name) + 1 > sizeof c->path, JG_ENOTSUP, err,
                   "field '%s%s%s': path too long to compare", c->path, dot, a->name);
      snprintf(c->path + plen, sizeof c->path - plen, "%s%s", dot, a->name);
      JG_RETURN_NOT_OK(schema_cmp_group(c, fi, ti, err));
      c->path[plen] = '\0';
    }
    fi = subtree_end(c->f, c->nf, fi);
    ti = subtree_end(c->t, c->nt, ti);
  }
  return JG_OK;
}

/* ---- The writer ----------------------------------------------------------------------------- */

/* Takes the schema and the leaf columns' paths of the first table into the footer's arena. */
static jg_status schema_adopt(jg_parquet_writer *w, const wtable *t, jg_error *err) {
  jgi_pq_file_meta *m = &w->meta;
  jgi_pq_schema_elem *e = jgi_pq_meta_alloc(m, (size_t)t->meta.nschema * sizeof *e);
  wpath *paths = jgi_pq_meta_alloc(m, (size_t)t->ncols * sizeof *paths);
  JG_RETURN_IF(e == NULL || paths == NULL, JG_ENOMEM, err, "out of host memory");
  for (int i = 0; i < t->meta.nschema; i++) {
    e[i] = t->meta.schema[i];
    e[i].name = jgi_pq_meta_strdup(m, t->meta.schema[i].name, (size_t)-1);
    JG_RETURN_IF(e[i].name == NULL, JG_ENOMEM, err, "out of host memory");
  }
  for (int ci = 0; ci < t->ncols; ci++) {
    const wcolumn *c = &t->cols[ci];
    paths[ci].nnames = c->nnames;
    paths[ci].names = jgi_pq_meta_alloc(m, (size_t)c->nnames * sizeof(char *));
    JG_RETURN_IF(paths[ci].names == NULL, JG_ENOMEM, err, "out of host memory");
    for (int k = 0; k < c->nnames; k++) {
      paths[ci].names[k] = jgi_pq_meta_strdup(m, c->names[k], (size_t)-1);
      JG_RETURN_IF(paths[ci].names[k] == NULL, JG_ENOMEM, err, "out of host memory");
    }
  }
  m->schema = e;
  m->nschema = t->meta.nschema;
  w->paths = paths;
  w->ncols = t->ncols;
  w->has_schema = true;
  return JG_OK;
}

/* A writer over the sink set up by the caller (k.f / k.path, or k.mem = &w->mem), with checked
 * options. */
static jg_status writer_new(const jg_parquet_write_options *o, jg_parquet_writer **out,
                            jg_error *err) {
  *out = NULL;
  jg_parquet_writer *w = calloc(1, sizeof *w);
  JG_RETURN_IF(w == NULL, JG_ENOMEM, err, "out of host memory");
  w->o = *o;
  w->meta.version = o->data_page_version == 2 ? 2 : 1;
  char created[64];
  snprintf(created, sizeof created, "jagged %s", jg_version_string());
  w->meta.created_by =
      jgi_pq_meta_strdup(&w->meta, o->created_by ? o->created_by : created, (size_t)-1);
  if (w->meta.created_by == NULL) {
    jgi_pq_meta_reset(&w->meta);
    free(w);
    return jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
  }
  w->o.created_by = NULL; /* copied: the caller's string need not outlive the call */
  *out = w;
  return JG_OK;
}

/* Frees the writer and what it holds, its temporary file removed if it is still there (the FILE,
 * if any, is the caller's to close first). */
static void writer_free(jg_parquet_writer *w) {
  if (w == NULL) return;
  jgi_tmpfile_abandon(&w->tmp);
  jgi_pq_meta_reset(&w->meta);
  free(w->groups);
  free(w->path);
  jgi_pq_buf_reset(&w->mem);
  jgi_pq_buf_reset(&w->hdr);
  jgi_pq_buf_reset(&w->raw);
  jgi_pq_buf_reset(&w->body);
  jgi_pq_buf_reset(&w->lev);
  shred_free(&w->s);
  values_free(&w->v);
  sbuf_free(&w->dict_idx);
  free(w);
}

/* Appends `table` (checked by check_table) as row groups. Errors before the first byte of the
 * table reaches the sink leave the writer as it was; errors after mark it failed. */
static jg_status writer_append(jg_parquet_writer *w, const jg_array *table, jg_error *err) {
  wtable t;
  memset(&t, 0, sizeof t);
  shred *s = &w->s;
  values *v = &w->v;
  jg_status st = wtable_build(&t, table, err);
  if (st == JG_OK && w->has_schema) {
    schema_cmp c;
    memset(&c, 0, sizeof c);
    c.f = w->meta.schema;
    c.nf = w->meta.nschema;
    c.t = t.meta.schema;
    c.nt = t.meta.nschema;
    st = schema_cmp_group(&c, 0, 0, err);
  }
  const int64_t nrows = jg_array_length(table), rgr = w->o.row_group_rows;
  const int64_t ngroups = nrows == 0 ? 0 : (nrows - 1) / rgr + 1;
  if (st == JG_OK && ngroups > INT32_MAX - w->ngroups)
    st = jg_error_set(err, JG_ENOTSUP, -1,
                      "%lld row groups are more than Parquet allows (2^31 - 1; raise "
                      "row_group_rows)",
                      (long long)(w->ngroups + ngroups));
  if (st == JG_OK && w->ngroups + ngroups > w->cap_groups) {
    int64_t cap = w->cap_groups ? 2 * w->cap_groups : 16;
    while (cap < w->ngroups + ngroups) cap *= 2;
    jgi_pq_row_group *q = realloc(w->groups, (size_t)cap * sizeof *q);
    if (q == NULL) {
      st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
    } else {
      w->groups = q;
      w->cap_groups = cap;
    }
  }
  if (st == JG_OK && !w->has_schema) st = schema_adopt(w, &t, err);
  if (st != JG_OK || nrows == 0) goto done;
  /* From here on bytes reach the sink: an error leaves the file unusable. */
  if (!w->magic) {
    st = sink_write(&w->k, "PAR1", 4, err);
    if (st != JG_OK) goto fail;
    w->magic = true;
  }
  for (int64_t g = 0; g < ngroups; g++) {
    const int64_t r0 = g * rgr, r1 = r0 + rgr < nrows ? r0 + rgr : nrows;
    jgi_pq_row_group *rg = &w->groups[w->ngroups];
    memset(rg, 0, sizeof *rg);
    rg->num_rows = r1 - r0;
    rg->ncolumns = w->ncols;
    rg->columns = jgi_pq_meta_alloc(&w->meta, (size_t)w->ncols * sizeof(jgi_pq_column_chunk));
    if (rg->columns == NULL) {
      st = jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
      goto fail;
    }
    for (int ci = 0; ci < w->ncols; ci++) {
      const wcolumn *c = &t.cols[ci];
      const wnode *leaf = c->path[c->depth - 1];
      jgi_pq_column_chunk *cc = &rg->columns[ci];
      st = shred_column(c, r0, r1, s, err);
      if (st == JG_OK) {
        if (s->def != NULL) /* live slots reach the leaf: the maximum level */
          levels_fill_live(s->def, s->nslots, (int16_t)c->max_def);
        st = leaf->kind == W_BYTES ? gather_bytes(leaf, s, v, err)
                                   : gather_fixed(c, leaf, s, v, err);
      }
      const int64_t at = w->k.offset;
      if (st == JG_OK) st = write_chunk(w, c, &w->paths[ci], s, v, &cc->meta, err);
      if (st != JG_OK) {
        char where[256];
        snprintf(where, sizeof where, "column '%s', row group %lld", c->dotted,
                 (long long)w->ngroups);
        jgi_error_prefix(st, where, err);
        goto fail;
      }
      cc->has_meta = true;
      cc->file_offset = at;
      rg->total_byte_size += cc->meta.total_uncompressed_size;
    }
    w->ngroups++;
  }
  w->num_rows += nrows;
  goto done;
fail:
  w->failed = st;
done:
  shred_clear(s);
  values_clear(v);
  wtable_reset(&t);
  return st;
}

/* Writes what is left of the file to the sink: the leading magic if no row group wrote it, the
 * footer, its length and the closing magic. */
static jg_status writer_finish(jg_parquet_writer *w, jg_error *err) {
  const char *what = w->path != NULL ? w->path : "<memory>";
  JG_RETURN_IF(w->failed != JG_OK, JG_ESTATE, err,
               "'%s': an earlier write failed (%s) after it began writing the file, so it is "
               "incomplete (not written; a file that was there is left as it was)",
               what, jg_status_name(w->failed));
  JG_RETURN_IF(!w->has_schema, JG_ESTATE, err,
               "'%s': no table was written, so the file has no schema (not written; a file that "
               "was there is left as it was)",
               what);
  /* writer_append keeps w->ngroups <= INT32_MAX */
  if (!w->magic) {
    JG_RETURN_NOT_OK(sink_write(&w->k, "PAR1", 4, err));
    w->magic = true;
  }
  jgi_pq_buf footer = {0};
  w->meta.num_rows = w->num_rows;
  w->meta.row_groups = w->groups;
  w->meta.nrow_groups = (int)w->ngroups;
  jg_status st = jgi_pq_meta_write(&w->meta, &footer, err);
  w->meta.row_groups = NULL;
  w->meta.nrow_groups = 0;
  if (st == JG_OK && footer.size > UINT32_MAX)
    st = jg_error_set(err, JG_ENOTSUP, -1, "the footer of %zu bytes passes 4 GiB", footer.size);
  if (st == JG_OK) {
    uint8_t tail[8] = {0, 0, 0, 0, 'P', 'A', 'R', '1'}; /* the footer's length, LE */
    for (int k = 0; k < 4; k++) tail[k] = (uint8_t)(footer.size >> (8 * k));
    st = sink_write(&w->k, footer.data, footer.size, err);
    if (st == JG_OK) st = sink_write(&w->k, tail, 8, err);
  }
  jgi_pq_buf_reset(&footer);
  if (st != JG_OK) w->failed = st;
  return st;
}

/* Closes the file of a file writer (NULL f: nothing) and, when `st` is JG_OK, renames it onto
 * its path (synced first when it replaces a file, so that a crash cannot leave the old name
 * empty); otherwise removes the temporary file and leaves the path as it was. Frees the writer;
 * returns st, or JG_EIO when flushing, closing or renaming fails. */
static jg_status writer_close_file(jg_parquet_writer *w, jg_status st, jg_error *err) {
  if (w->k.f != NULL) {
    if (st == JG_OK && (fflush(w->k.f) != 0 || (w->tmp.replaces && fsync(fileno(w->k.f)) != 0)))
      st = jg_error_set(err, JG_EIO, -1, "cannot write '%s': %s", w->path, strerror(errno));
    if (fclose(w->k.f) != 0 && st == JG_OK)
      st = jg_error_set(err, JG_EIO, -1, "cannot close '%s': %s", w->path, strerror(errno));
  }
  w->k.f = NULL;
  if (st == JG_OK && w->tmp.tmp != NULL) st = jgi_tmpfile_commit(&w->tmp, w->path, err);
  writer_free(w); /* removes the temporary file when it was not renamed */
  return st;
}

/* Opens a file writer for `path` with checked options: refuses a path that exists and is not a
 * regular file, and creates the temporary file beside it. */
static jg_status writer_open_file(const char *path, const jg_parquet_write_options *o,
                                  jg_parquet_writer **out, jg_error *err) {
  *out = NULL;
  jg_parquet_writer *w = NULL;
  JG_RETURN_NOT_OK(writer_new(o, &w, err));
  const size_t n = strlen(path) + 1;
  w->path = malloc(n);
  if (w->path == NULL) {
    writer_free(w);
    return jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
  }
  memcpy(w->path, path, n);
  w->k.path = w->path;
  int fd = -1;
  jg_status st = jgi_tmpfile_open(path, &w->tmp, &fd, err);
  if (st != JG_OK) {
    writer_free(w);
    return st;
  }
  w->k.f = fdopen(fd, "wb");
  if (w->k.f == NULL) {
    const int e = errno;
    close(fd);
    writer_free(w);
    return jg_error_set(err, JG_EIO, -1, "cannot open '%s' for writing: %s", path, strerror(e));
  }
  *out = w;
  return JG_OK;
}

/* Argument and table checks shared by every call that takes a table. */
static jg_status check_table(const jg_array *table, jg_error *err) {
  JG_RETURN_IF(table == NULL, JG_EINVAL, err, "table is NULL");
  JG_RETURN_IF(jg_array_backend(table) != JG_BACKEND_CPU, JG_EBACKEND, err,
               "the table is in device memory: copy it with jg_array_to_host first");
  JG_RETURN_IF(jg_array_kind(table) != JG_NODE_RECORD, JG_EINVAL, err,
               "the table must be a record array (one field per column; jg_array_record)");
  return jg_array_validate(table, JG_VALIDATE_FULL, NULL, err);
}

/* ---- Public calls ------------------------------------------------------------------------- */

jg_status jg_parquet_write(const jg_array *table, const char *path,
                           const jg_parquet_write_options *options, jg_error *err) {
  static const char fn[] = "jg_parquet_write";
  JG_RETURN_IF(path == NULL, JG_EINVAL, err, "%s: path is NULL", fn);
  jg_status st = check_table(table, err);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  jg_parquet_write_options o;
  st = options_check(options, &o, err);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  jg_parquet_writer *w = NULL;
  st = writer_open_file(path, &o, &w, err);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  st = writer_append(w, table, err);
  if (st == JG_OK) st = writer_finish(w, err);
  return jgi_error_prefix(writer_close_file(w, st, err), fn, err);
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
  jg_parquet_writer *w = NULL;
  st = writer_new(&o, &w, err);
  if (st != JG_OK) return jgi_error_prefix(st, fn, err);
  w->k.mem = &w->mem;
  st = writer_append(w, table, err);
  if (st == JG_OK) st = writer_finish(w, err);
  if (st == JG_OK) {
    *data = w->mem.data;
    *size = w->mem.size;
    memset(&w->mem, 0, sizeof w->mem);
  }
  writer_free(w);
  return jgi_error_prefix(st, fn, err);
}

void jg_parquet_memory_free(void *data) {
  free(data);
}

jg_status jg_parquet_writer_open(const char *path, const jg_parquet_write_options *options,
                                 jg_parquet_writer **out, jg_error *err) {
  static const char fn[] = "jg_parquet_writer_open";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(path == NULL, JG_EINVAL, err, "%s: path is NULL", fn);
  jg_parquet_write_options o;
  jg_status st = options_check(options, &o, err);
  if (st == JG_OK) st = writer_open_file(path, &o, out, err);
  return jgi_error_prefix(st, fn, err);
}

jg_status jg_parquet_writer_write(jg_parquet_writer *writer, const jg_array *table, jg_error *err) {
  static const char fn[] = "jg_parquet_writer_write";
  JG_RETURN_IF(writer == NULL, JG_EINVAL, err, "%s: writer is NULL", fn);
  JG_RETURN_IF(writer->failed != JG_OK, JG_ESTATE, err,
               "%s: an earlier write failed (%s) after it began writing '%s', so the file is "
               "incomplete; only jg_parquet_writer_discard is left to call",
               fn, jg_status_name(writer->failed), writer->path);
  jg_status st = check_table(table, err);
  if (st == JG_OK) st = writer_append(writer, table, err);
  return jgi_error_prefix(st, fn, err);
}

jg_status jg_parquet_writer_close(jg_parquet_writer *writer, jg_error *err) {
  static const char fn[] = "jg_parquet_writer_close";
  if (writer == NULL) return JG_OK;
  const jg_status st = writer_finish(writer, err);
  return jgi_error_prefix(writer_close_file(writer, st, err), fn, err);
}

void jg_parquet_writer_discard(jg_parquet_writer *writer) {
  if (writer == NULL) return;
  (void)writer_close_file(writer, JG_ESTATE, NULL); /* an error status: nothing is put in place */
}

const char *jg_parquet_writer_temp_path(const jg_parquet_writer *writer) {
  return writer == NULL ? NULL : writer->tmp.tmp;
}

int64_t jg_parquet_writer_num_rows(const jg_parquet_writer *writer) {
  return writer == NULL ? 0 : writer->num_rows;
}
