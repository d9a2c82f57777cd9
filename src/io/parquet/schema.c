/* schema.c: Parquet's flat schema list (SchemaElement, depth first) to a tree of jagged fields.
 *
 * Spec: parquet.thrift (SchemaElement, FieldRepetitionType), LogicalTypes.md ("Nested Types":
 * LIST, MAP and the backward-compatibility rules for lists) and the Dremel levels: along a
 * leaf's path every OPTIONAL or REPEATED field adds one definition level, every REPEATED one a
 * repetition level. A REQUIRED field is its content, an OPTIONAL one an option (byte mask) over
 * it, a REPEATED one a list (int64 offsets) of it. */
#include <stdlib.h>
#include <string.h>

#include "io/parquet/pq_reader.h"

/* ---- a small arena: every node and string of the tree, freed together -------------------- */

typedef struct arena_block {
  struct arena_block *next;
  max_align_t align_;
} arena_block;

static void *arena_alloc(jgi_pq_schema *s, size_t size) {
  arena_block *b = calloc(1, sizeof(arena_block) + size);
  if (b == NULL) return NULL;
  b->next = s->arena;
  s->arena = b;
  return b + 1;
}

static char *arena_strcat3(jgi_pq_schema *s, const char *a, const char *sep, const char *b) {
  size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
  char *p = arena_alloc(s, la + ls + lb + 1);
  if (p == NULL) return NULL;
  memcpy(p, a, la);
  memcpy(p + la, sep, ls);
  memcpy(p + la + ls, b, lb + 1);
  return p;
}

void jgi_pq_schema_reset(jgi_pq_schema *s) {
  if (s == NULL) return;
  arena_block *b = s->arena;
  while (b != NULL) {
    arena_block *n = b->next;
    free(b);
    b = n;
  }
  free(s->leaves);
  memset(s, 0, sizeof *s);
}

/* ---- the raw tree: the list's nesting with each element's levels ------------------------- */

typedef struct snode {
  const jgi_pq_schema_elem *e;
  int def, rep, depth;
  int nchildren;
  struct snode **children;
  const char *path; /* dotted path from the root (excluded) */
} snode;

typedef struct build_ctx {
  const jgi_pq_file_meta *meta;
  jgi_pq_schema *s;
  int next;     /* next schema element to read */
  int nleaves;  /* leaves seen */
  int cap;      /* leaves allocated */
  jgi_pq_chain chain[JGI_PQ_MAX_DEPTH];
  int nchain;
  const char *fpath[JGI_PQ_MAX_DEPTH]; /* record field names on the way down */
  int nfpath;
  int top;
  jg_error *err;
} build_ctx;

static int by_name(const void *a, const void *b) {
  const snode *x = *(const snode *const *)a, *y = *(const snode *const *)b;
  return strcmp(x->e->name, y->e->name);
}

/* Checks that no two children of group n share a name (they would be one record field, one
 * projection name and one path_in_schema): JG_ECORRUPT naming both schema elements. Sorts a
 * copy of the children, so wide groups (thousands of NanoAOD columns) cost n log n. */
static jg_status unique_names(build_ctx *c, const snode *n) {
  if (n->nchildren < 2) return JG_OK;
  const snode **sorted = malloc(sizeof *sorted * (size_t)n->nchildren);
  JG_RETURN_IF(sorted == NULL, JG_ENOMEM, c->err, "out of memory building the schema tree");
  for (int k = 0; k < n->nchildren; k++) sorted[k] = n->children[k];
  qsort(sorted, (size_t)n->nchildren, sizeof *sorted, by_name);
  const snode *a = NULL, *b = NULL;
  for (int k = 1; k < n->nchildren && a == NULL; k++) {
    if (strcmp(sorted[k - 1]->e->name, sorted[k]->e->name) == 0) {
      a = sorted[k - 1];
      b = sorted[k];
    }
  }
  free(sorted);
  if (a == NULL) return JG_OK;
  const int ia = (int)(a->e - c->meta->schema), ib = (int)(b->e - c->meta->schema);
  return jg_error_set(c->err, JG_ECORRUPT, ia > ib ? ia : ib,
                      "schema elements %d and %d are both named '%s' (columns %s)",
                      ia < ib ? ia : ib, ia > ib ? ia : ib, a->e->name, a->path);
}

static jg_status raw_tree(build_ctx *c, snode *parent, snode **out) {
  const jgi_pq_file_meta *m = c->meta;
  jg_error *err = c->err;
  JG_RETURN_IF(c->next >= m->nschema, JG_ECORRUPT, err,
               "schema list ends early: a group declares more children than there are "
               "elements (%d elements)",
               m->nschema);
  const jgi_pq_schema_elem *e = &m->schema[c->next++];
  snode *n = arena_alloc(c->s, sizeof *n);
  JG_RETURN_IF(n == NULL, JG_ENOMEM, err, "out of memory building the schema tree");
  n->e = e;
  JG_RETURN_IF(e->name == NULL, JG_ECORRUPT, err, "schema element %d has no name", c->next - 1);
  /* Every field below the root is named by its name (record fields, projection, path_in_schema):
   * an empty one cannot be. The root's name is never used. */
  JG_RETURN_IF_AT(parent != NULL && e->name[0] == '\0', JG_ECORRUPT, err, c->next - 1,
                  "schema element %d (a child of %s%s%s) has an empty name", c->next - 1,
                  parent != NULL && parent->path[0] ? "'" : "",
                  parent != NULL && parent->path[0] ? parent->path : "the root",
                  parent != NULL && parent->path[0] ? "'" : "");
  if (parent == NULL) {
    n->path = "";
    n->depth = 0;
  } else {
    n->depth = parent->depth + 1;
    JG_RETURN_IF(n->depth > JGI_PQ_MAX_DEPTH - 2, JG_ENOTSUP, err,
                 "schema nested deeper than %d levels at '%s'", JGI_PQ_MAX_DEPTH - 2, e->name);
    n->path = parent->path[0] ? arena_strcat3(c->s, parent->path, ".", e->name)
                              : arena_strcat3(c->s, "", "", e->name);
    JG_RETURN_IF(n->path == NULL, JG_ENOMEM, err, "out of memory building the schema tree");
    n->def = parent->def + (e->repetition == JGI_PQ_OPTIONAL || e->repetition == JGI_PQ_REPEATED);
    n->rep = parent->rep + (e->repetition == JGI_PQ_REPEATED);
  }
  if (e->type >= 0 && parent != NULL) {
    JG_RETURN_IF(e->num_children > 0, JG_ECORRUPT, err,
                 "schema element '%s' has a physical type and %d children", n->path,
                 e->num_children);
    JG_RETURN_IF(e->type > JGI_PQ_FIXED_LEN_BYTE_ARRAY, JG_ENOTSUP, err,
                 "column '%s' has an unknown physical type %d", n->path, e->type);
    JG_RETURN_IF(e->type == JGI_PQ_FIXED_LEN_BYTE_ARRAY && e->type_length <= 0, JG_ECORRUPT,
                 err, "column '%s' is a FIXED_LEN_BYTE_ARRAY without a positive type_length",
                 n->path);
    c->nleaves++;
    *out = n;
    return JG_OK;
  }
  JG_RETURN_IF(e->num_children <= 0, JG_ECORRUPT, err,
               "schema element '%s' is a group without children (num_children %d)",
               parent ? n->path : e->name, e->num_children);
  JG_RETURN_IF(e->num_children > m->nschema - c->next, JG_ECORRUPT, err,
               "schema element '%s' declares %d children but %d elements follow",
               parent ? n->path : e->name, e->num_children, m->nschema - c->next);
  n->nchildren = e->num_children;
  n->children = arena_alloc(c->s, sizeof(snode *) * (size_t)n->nchildren);
  JG_RETURN_IF(n->children == NULL, JG_ENOMEM, err, "out of memory building the schema tree");
  for (int k = 0; k < n->nchildren; k++) JG_RETURN_NOT_OK(raw_tree(c, n, &n->children[k]));
  JG_RETURN_NOT_OK(unique_names(c, n));
  *out = n;
  return JG_OK;
}

/* ---- the plan: records, lists, options and leaves ---------------------------------------- */

static bool is_list(const jgi_pq_schema_elem *e) {
  return e->converted_type == JGI_PQ_CT_LIST || e->logical.kind == JGI_PQ_LT_LIST;
}

static bool is_map(const jgi_pq_schema_elem *e) {
  return e->converted_type == JGI_PQ_CT_MAP || e->converted_type == JGI_PQ_CT_MAP_KEY_VALUE ||
         e->logical.kind == JGI_PQ_LT_MAP;
}

static jgi_pq_field *new_field(build_ctx *c, int kind, const char *name, int nchildren) {
  jgi_pq_field *f = arena_alloc(c->s, sizeof *f);
  if (f == NULL) return NULL;
  f->kind = kind;
  f->name = name;
  f->list_depth = 0;
  for (int k = 0; k < c->nchain; k++) f->list_depth += c->chain[k].kind == JGI_PQF_LIST;
  f->nchildren = nchildren;
  if (nchildren > 0) {
    f->children = arena_alloc(c->s, sizeof(jgi_pq_field *) * (size_t)nchildren);
    if (f->children == NULL) return NULL;
  }
  f->first_leaf = c->nleaves;
  return f;
}

/* The dtype and conversions of a leaf (the mapping table of docs/parquet.md). */
static jg_status leaf_types(jgi_pq_leaf *l, jg_error *err) {
  const jgi_pq_schema_elem *e = l->elem;
  const jgi_pq_logical *lt = &e->logical;
  int ct = e->converted_type;
  l->value_kind = JGI_PQV_NUMERIC;
  l->conversion = JGI_PQC_NONE;
  switch (e->type) {
    case JGI_PQ_BOOLEAN:
      l->dtype = JG_DTYPE_BOOL;
      l->raw_width = l->out_width = 1;
      break;
    case JGI_PQ_INT32: {
      l->dtype = JG_DTYPE_INT32;
      l->raw_width = l->out_width = 4;
      int bits = 32;
      bool is_signed = true;
      if (lt->kind == JGI_PQ_LT_INTEGER) {
        bits = lt->bit_width;
        is_signed = lt->is_signed;
      } else if (ct >= JGI_PQ_CT_UINT_8 && ct <= JGI_PQ_CT_INT_32 && ct != JGI_PQ_CT_UINT_64) {
        static const int ct_bits[] = {8, 16, 32, 64, 8, 16, 32};
        bits = ct_bits[ct - JGI_PQ_CT_UINT_8];
        is_signed = ct >= JGI_PQ_CT_INT_8;
      }
      if (bits == 8) {
        l->dtype = is_signed ? JG_DTYPE_INT8 : JG_DTYPE_UINT8;
        l->conversion = JGI_PQC_I8;
        l->out_width = 1;
      } else if (bits == 16) {
        l->dtype = is_signed ? JG_DTYPE_INT16 : JG_DTYPE_UINT16;
        l->conversion = JGI_PQC_I16;
        l->out_width = 2;
      } else if (!is_signed) {
        l->dtype = JG_DTYPE_UINT32;
      }
      break;
    }
    case JGI_PQ_INT64: {
      bool is_unsigned = (lt->kind == JGI_PQ_LT_INTEGER && !lt->is_signed) ||
                         (lt->kind != JGI_PQ_LT_INTEGER && ct == JGI_PQ_CT_UINT_64);
      l->dtype = is_unsigned ? JG_DTYPE_UINT64 : JG_DTYPE_INT64;
      l->raw_width = l->out_width = 8;
      break;
    }
    case JGI_PQ_INT96:
      l->dtype = JG_DTYPE_INT64;
      l->raw_width = 12;
      l->out_width = 8;
      l->conversion = JGI_PQC_INT96;
      break;
    case JGI_PQ_FLOAT:
      l->dtype = JG_DTYPE_FLOAT32;
      l->raw_width = l->out_width = 4;
      break;
    case JGI_PQ_DOUBLE:
      l->dtype = JG_DTYPE_FLOAT64;
      l->raw_width = l->out_width = 8;
      break;
    case JGI_PQ_BYTE_ARRAY:
      l->value_kind = JGI_PQV_BYTES;
      l->dtype = JG_DTYPE_UINT8;
      l->raw_width = l->out_width = 0;
      break;
    case JGI_PQ_FIXED_LEN_BYTE_ARRAY:
      l->raw_width = l->out_width = e->type_length;
      if (lt->kind == JGI_PQ_LT_FLOAT16 && e->type_length == 2) {
        l->dtype = JG_DTYPE_FLOAT16;
      } else {
        l->value_kind = JGI_PQV_FIXED;
        l->dtype = JG_DTYPE_UINT8;
      }
      break;
    default:
      return jg_error_set(err, JG_ENOTSUP, -1, "column '%s' has an unknown physical type %d",
                          l->path, e->type);
  }
  return JG_OK;
}

static jg_status plan(build_ctx *c, const snode *n, jgi_pq_field **out);

static jg_status make_leaf(build_ctx *c, const snode *n, jgi_pq_field **out) {
  jg_error *err = c->err;
  jgi_pq_field *f = new_field(c, JGI_PQF_LEAF, n->e->name, 0);
  JG_RETURN_IF(f == NULL, JG_ENOMEM, err, "out of memory building the schema tree");
  JG_RETURN_IF(c->nleaves >= c->cap, JG_ECORRUPT, err, "schema has more leaves than counted");
  jgi_pq_leaf *l = &c->s->leaves[c->nleaves];
  memset(l, 0, sizeof *l);
  l->path = (char *)n->path;
  /* The record-field path: names of the records on the way down, then this leaf's name
   * unless it is a list's element (3-level "element", or a 2-level repeated primitive). */
  size_t len = 1;
  for (int k = 0; k < c->nfpath; k++) len += strlen(c->fpath[k]) + 1;
  l->field_path = arena_alloc(c->s, len);
  JG_RETURN_IF(l->field_path == NULL, JG_ENOMEM, err, "out of memory building the schema tree");
  for (int k = 0; k < c->nfpath; k++) {
    if (k > 0) strcat(l->field_path, ".");
    strcat(l->field_path, c->fpath[k]);
  }
  l->elem = n->e;
  l->physical = n->e->type;
  l->type_length = n->e->type_length;
  l->max_def = n->def;
  l->max_rep = n->rep;
  l->nchain = c->nchain;
  memcpy(l->chain, c->chain, sizeof(jgi_pq_chain) * (size_t)c->nchain);
  l->top = c->top;
  JG_RETURN_NOT_OK(leaf_types(l, err));
  f->leaf = c->nleaves;
  f->chain_pos = c->nchain;
  f->first_leaf = c->nleaves;
  f->nleaves = 1;
  c->nleaves++;
  *out = f;
  return JG_OK;
}

/* The field of n's content, n's own repetition left out. */
static jg_status plan_inner(build_ctx *c, const snode *n, jgi_pq_field **out) {
  jg_error *err = c->err;
  if (n->nchildren == 0) return make_leaf(c, n, out);
  const jgi_pq_schema_elem *e = n->e;
  if ((is_list(e) || is_map(e)) && n->nchildren == 1 &&
      n->children[0]->e->repetition == JGI_PQ_REPEATED) {
    /* LIST / MAP: the repeated child r is the list. LogicalTypes.md's backward-compatibility
     * rules: r is itself the element when it is a primitive, a group of more than one field,
     * or named "array" or "<name>_tuple" (and always for MAP: its key_value group); else r's
     * single child is the element (the 3-level form). */
    const snode *r = n->children[0];
    JG_RETURN_IF(c->nchain >= JGI_PQ_MAX_DEPTH, JG_ENOTSUP, err, "schema nested too deeply");
    jgi_pq_field *lf = new_field(c, JGI_PQF_LIST, e->name, 1);
    JG_RETURN_IF(lf == NULL, JG_ENOMEM, err, "out of memory building the schema tree");
    lf->def = r->def;
    lf->rep = r->rep;
    lf->chain_pos = c->nchain;
    c->chain[c->nchain++] = (jgi_pq_chain){JGI_PQF_LIST, r->def, r->rep, lf->list_depth};
    bool two_level = is_map(e) || r->nchildren != 1 || strcmp(r->e->name, "array") == 0;
    if (!two_level) {
      size_t ln = strlen(e->name), rn = strlen(r->e->name);
      two_level = rn == ln + 6 && strncmp(r->e->name, e->name, ln) == 0 &&
                  strcmp(r->e->name + ln, "_tuple") == 0;
    }
    jg_status st = two_level ? plan_inner(c, r, &lf->children[0])
                             : plan(c, r->children[0], &lf->children[0]);
    c->nchain--;
    JG_RETURN_NOT_OK(st);
    lf->nleaves = c->nleaves - lf->first_leaf;
    *out = lf;
    return JG_OK;
  }
  /* Any other group: a record of its children. */
  jgi_pq_field *rf = new_field(c, JGI_PQF_RECORD, e->name, n->nchildren);
  JG_RETURN_IF(rf == NULL, JG_ENOMEM, err, "out of memory building the schema tree");
  for (int k = 0; k < n->nchildren; k++) {
    c->fpath[c->nfpath++] = n->children[k]->e->name;
    jg_status st = plan(c, n->children[k], &rf->children[k]);
    c->nfpath--;
    JG_RETURN_NOT_OK(st);
  }
  rf->nleaves = c->nleaves - rf->first_leaf;
  *out = rf;
  return JG_OK;
}

/* The field of n: its content wrapped by its repetition (OPTIONAL: an option, REPEATED: a list
 * of required elements, as LogicalTypes.md reads a repeated field outside a LIST). */
static jg_status plan(build_ctx *c, const snode *n, jgi_pq_field **out) {
  jg_error *err = c->err;
  int r = n->e->repetition;
  if (r != JGI_PQ_OPTIONAL && r != JGI_PQ_REPEATED) return plan_inner(c, n, out);
  JG_RETURN_IF(c->nchain >= JGI_PQ_MAX_DEPTH, JG_ENOTSUP, err, "schema nested too deeply");
  int kind = r == JGI_PQ_OPTIONAL ? JGI_PQF_OPTION : JGI_PQF_LIST;
  jgi_pq_field *w = new_field(c, kind, n->e->name, 1);
  JG_RETURN_IF(w == NULL, JG_ENOMEM, err, "out of memory building the schema tree");
  w->def = n->def;
  w->rep = kind == JGI_PQF_LIST ? n->rep : 0;
  w->chain_pos = c->nchain;
  c->chain[c->nchain++] = (jgi_pq_chain){kind, w->def, w->rep, w->list_depth};
  jg_status st = plan_inner(c, n, &w->children[0]);
  c->nchain--;
  JG_RETURN_NOT_OK(st);
  w->nleaves = c->nleaves - w->first_leaf;
  *out = w;
  return JG_OK;
}

static int count_leaves(const snode *n) {
  if (n->nchildren == 0) return 1;
  int t = 0;
  for (int k = 0; k < n->nchildren; k++) t += count_leaves(n->children[k]);
  return t;
}

jg_status jgi_pq_schema_build(const jgi_pq_file_meta *meta, jgi_pq_schema *s, jg_error *err) {
  memset(s, 0, sizeof *s);
  build_ctx c;
  memset(&c, 0, sizeof c);
  c.meta = meta;
  c.s = s;
  c.err = err;
  jg_status st = JG_OK;
  snode *root = NULL;
  if (meta->nschema < 1 || meta->schema == NULL) {
    st = jg_error_set(err, JG_ECORRUPT, -1, "the schema list is empty");
    goto fail;
  }
  st = raw_tree(&c, NULL, &root);
  if (st != JG_OK) goto fail;
  if (c.next != meta->nschema) {
    st = jg_error_set(err, JG_ECORRUPT, -1,
                      "the schema's root has %d children in all, but the list has %d more "
                      "elements",
                      c.next - 1, meta->nschema - c.next);
    goto fail;
  }
  c.cap = count_leaves(root);
  s->leaves = calloc((size_t)c.cap, sizeof(jgi_pq_leaf));
  if (s->leaves == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of memory for %d leaf columns", c.cap);
    goto fail;
  }
  c.nleaves = 0;
  s->root = new_field(&c, JGI_PQF_RECORD, "", root->nchildren);
  if (s->root == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of memory building the schema tree");
    goto fail;
  }
  for (int k = 0; k < root->nchildren; k++) {
    c.top = k;
    c.fpath[0] = root->children[k]->e->name;
    c.nfpath = 1;
    st = plan(&c, root->children[k], &s->root->children[k]);
    if (st != JG_OK) goto fail;
  }
  s->root->nleaves = c.nleaves;
  s->nleaves = c.nleaves;
  return JG_OK;
fail:
  jgi_pq_schema_reset(s);
  return st;
}
