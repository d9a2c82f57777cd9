/* builder.c: the incremental host builder of builder.h.
 *
 * A builder is a tree of nodes, one per position of the type being discovered:
 *   NULL        unknown (nothing appended there yet); snapshots to an EMPTY node
 *   BK_BOOL     data: one byte per value (0 or 1)
 *   BK_INT64    data: int64 values
 *   BK_FLOAT64  data: double values
 *   BK_LIST     data: int64 offsets, length + 1 of them (offsets[0] = 0); content: a node
 *   BK_OPTION   data: int64 index, -1 for None; content: a node
 *   BK_RECORD   fields: nfields nodes (names, or none for tuples), length = records closed
 * Open lists, records and tuples sit on a stack of node pointers; a value goes to the
 * innermost one's content (list), selected field (record, tuple) or to the root.
 *
 * Every call that changes the tree runs in two phases. prepare() checks the call and makes
 * every allocation it needs (growing buffers in place, and making new nodes that are not yet
 * linked into the tree); it may fail, and then the tree is as it was (a grown buffer holds the
 * same values in more room). commit() links and writes; it cannot fail. So each call either
 * completes or leaves the builder as it was, JG_ENOMEM included.
 *
 * Nodes never move once linked (wrapping a node in an option moves the pointer to it, not the
 * node), and an open container is never wrapped (appends go inside it, not next to it), so the
 * stack's pointers stay valid. */
#include "jagged/builder.h"

#include <limits.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal/jgi_check.h"

typedef enum bkind {
  BK_BOOL = 1,
  BK_INT64 = 2,
  BK_FLOAT64 = 3,
  BK_LIST = 4,
  BK_RECORD = 5,
  BK_OPTION = 6
} bkind;

/** What a call appends. */
typedef enum event {
  EV_NULL = 0,
  EV_BOOL = 1,
  EV_INT64 = 2,
  EV_FLOAT64 = 3,
  EV_LIST = 4,
  EV_RECORD = 5,
  EV_TUPLE = 6
} event;

typedef struct bnode bnode;

/** The outcome of prepare(): what commit() links and where. */
typedef struct plan {
  bnode **slot;   /**< the position appended to */
  bnode **target; /**< where the non-option node lives: slot, or &option->content */
  bnode *wrap;    /**< EV_NULL on a non-option: a new option node to wrap *slot in */
  bnode *opt;     /**< the option node whose index gets the new entries */
  bnode *fresh;   /**< a new node to put where *target is unknown (NULL) */
  bnode *leaf;    /**< the existing node at *target */
} plan;

struct bnode {
  bkind kind;
  jg_len length;        /**< entries: values, closed lists, index entries, closed records */
  unsigned char *data;  /**< values, offsets or index (see the top); `cap` entries of room */
  jg_len cap;
  bnode *content;       /**< BK_LIST, BK_OPTION; NULL = unknown */
  /* BK_RECORD */
  bool is_tuple;
  int nfields;          /**< tuples: fixed at creation */
  int capfields;
  int current;          /**< the selected field of the open record, or -1 */
  void *block;          /**< one allocation holding the four arrays below */
  bnode **fields;       /**< nfields nodes (NULL = unknown) */
  char **names;         /**< nfields names (NULL entries for tuples) */
  plan *plans;          /**< scratch for end_record */
  bool *filled;         /**< whether field k has its value in the open record */
};

struct jg_builder {
  jg_memory_resource *mr;
  jg_len initial;       /**< entries of a buffer's first allocation */
  bnode *root;
  int depth;            /**< open containers */
  bnode *stack[JG_BUILDER_MAX_DEPTH];
};

/* ------------------------------------------------------------------------------------------ */
/* Memory                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static jg_status mem_alloc(jg_memory_resource *mr, size_t bytes, void **out, jg_error *err) {
  *out = NULL;
  if (bytes == 0) return JG_OK;
  jg_error inner;
  jg_error_clear(&inner);
  void *p = NULL;
  jg_status st = mr->allocate(mr, bytes, alignof(max_align_t), NULL, &p, &inner);
  if (st == JG_OK && p == NULL) st = JG_ENOMEM;
  if (st != JG_OK) {
    return jg_error_set(err, st, -1, "builder: cannot allocate %zu bytes: %s", bytes,
                        inner.message[0] != '\0' ? inner.message : jg_status_str(st));
  }
  *out = p;
  return JG_OK;
}

static void mem_free(jg_memory_resource *mr, void *p, size_t bytes) {
  if (p != NULL) mr->deallocate(mr, p, bytes, NULL);
}

static size_t item_size(bkind kind) { return kind == BK_BOOL ? 1 : 8; }

/** Entries of `data` in use. */
static jg_len used_entries(const bnode *n) {
  return n->kind == BK_LIST ? n->length + 1 : n->length;
}

static jg_len node_length(const bnode *n) { return n == NULL ? 0 : n->length; }

/** Makes room for `need` entries in n->data (geometric growth, x1.5). On failure n is
 *  unchanged. */
static jg_status node_reserve(jg_builder *b, bnode *n, jg_len need, jg_error *err) {
  if (need <= n->cap) return JG_OK;
  const size_t isz = item_size(n->kind);
  const jg_len limit = (jg_len)(PTRDIFF_MAX / (ptrdiff_t)isz);
  JG_RETURN_IF(need > limit, JG_ENOMEM, err,
               "builder: a buffer of %lld entries of %zu bytes exceeds the largest object size",
               (long long)need, isz);
  jg_len cap = 0;
  if (jgi_add_overflow(n->cap, n->cap / 2, &cap) || cap > limit) cap = limit;
  if (cap < need) cap = need;
  if (cap < b->initial && b->initial <= limit) cap = b->initial;
  void *p = NULL;
  JG_RETURN_NOT_OK(mem_alloc(b->mr, (size_t)cap * isz, &p, err));
  const jg_len used = n->data == NULL ? 0 : used_entries(n); /* a new list has no offsets */
  if (used > 0) memcpy(p, n->data, (size_t)used * isz);
  mem_free(b->mr, n->data, (size_t)n->cap * isz);
  n->data = p;
  n->cap = cap;
  return JG_OK;
}

/** Byte offsets of the four arrays of a record block of `cap` fields, and its size. */
static bool block_layout(int cap, size_t off[4], size_t *total) {
  const size_t a = alignof(max_align_t);
  const size_t sizes[4] = {sizeof(bnode *), sizeof(char *), sizeof(plan), sizeof(bool)};
  size_t at = 0;
  for (int k = 0; k < 4; k++) {
    size_t bytes = 0;
    if (jgi_mul_overflow((size_t)cap, sizes[k], &bytes)) return false;
    if (jgi_add_overflow(bytes, a - 1, &bytes)) return false;
    bytes = bytes / a * a;
    off[k] = at;
    if (jgi_add_overflow(at, bytes, &at)) return false;
  }
  *total = at;
  return true;
}

/** A zeroed record block of `cap` fields. */
static jg_status block_new(jg_builder *b, int cap, void **out, jg_error *err) {
  size_t off[4];
  size_t total = 0;
  JG_RETURN_IF(!block_layout(cap, off, &total), JG_ENOMEM, err,
               "builder: a record of %d fields is too large", cap);
  JG_RETURN_NOT_OK(mem_alloc(b->mr, total, out, err));
  if (total > 0) memset(*out, 0, total);
  return JG_OK;
}

/** Points n's arrays into `block` of `cap` fields (nfields entries are kept by the caller). */
static void block_attach(bnode *n, void *block, int cap) {
  size_t off[4];
  size_t total = 0;
  (void)block_layout(cap, off, &total); /* checked by block_new */
  unsigned char *base = block;
  n->block = block;
  n->capfields = cap;
  n->fields = block != NULL ? (bnode **)(void *)(base + off[0]) : NULL;
  n->names = block != NULL ? (char **)(void *)(base + off[1]) : NULL;
  n->plans = block != NULL ? (plan *)(void *)(base + off[2]) : NULL;
  n->filled = block != NULL ? (bool *)(void *)(base + off[3]) : NULL;
}

static void block_free(jg_builder *b, bnode *n) {
  if (n->block == NULL) return;
  size_t off[4];
  size_t total = 0;
  (void)block_layout(n->capfields, off, &total);
  mem_free(b->mr, n->block, total);
}

static jg_status node_new(jg_builder *b, bkind kind, bnode **out, jg_error *err) {
  void *p = NULL;
  *out = NULL;
  JG_RETURN_NOT_OK(mem_alloc(b->mr, sizeof(bnode), &p, err));
  if (p == NULL) return jg_error_set(err, JG_EINTERNAL, -1, "builder: node allocation gave NULL");
  bnode *n = p;
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->current = -1;
  *out = n;
  return JG_OK;
}

/** Frees a node and everything under it (recursion depth is bounded by twice
 *  JG_BUILDER_MAX_DEPTH: each open container adds one level and at most one option). */
static void node_free(jg_builder *b, bnode *n) {
  if (n == NULL) return;
  mem_free(b->mr, n->data, (size_t)n->cap * item_size(n->kind));
  node_free(b, n->content);
  if (n->kind == BK_RECORD) {
    for (int k = 0; k < n->nfields; k++) {
      node_free(b, n->fields[k]);
      if (n->names[k] != NULL) mem_free(b->mr, n->names[k], strlen(n->names[k]) + 1);
    }
    block_free(b, n);
  }
  mem_free(b->mr, n, sizeof *n);
}

/* ------------------------------------------------------------------------------------------ */
/* Messages                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static const char *node_desc(const bnode *n, char *buf, size_t size) {
  switch (n->kind) {
    case BK_BOOL: return "bool values";
    case BK_INT64: return "int64 values";
    case BK_FLOAT64: return "float64 values";
    case BK_LIST: return "lists";
    case BK_OPTION: return "options";
    case BK_RECORD:
      if (!n->is_tuple) return "records";
      snprintf(buf, size, "tuples of %d slots", n->nfields);
      return buf;
  }
  return "?";
}

static const char *event_desc(event ev, int nslots, char *buf, size_t size) {
  switch (ev) {
    case EV_NULL: return "a null";
    case EV_BOOL: return "a bool";
    case EV_INT64: return "an int64";
    case EV_FLOAT64: return "a float64";
    case EV_LIST: return "a list";
    case EV_RECORD: return "a record";
    case EV_TUPLE: snprintf(buf, size, "a tuple of %d slots", nslots); return buf;
  }
  return "?";
}

/** "record" or "tuple", for messages about an open record node. */
static const char *rec_word(const bnode *r) { return r->is_tuple ? "tuple" : "record"; }

/** A description of the open container `top` for ESTATE messages, e.g. "record 3". */
static const char *open_desc(const bnode *top, char *buf, size_t size) {
  if (top->kind == BK_LIST) return "a list";
  snprintf(buf, size, "%s %lld", rec_word(top), (long long)top->length);
  return buf;
}

/** The name of field k in messages ("x", or the slot number of a tuple). */
static const char *field_desc(const bnode *r, int k, char *buf, size_t size) {
  if (r->is_tuple) {
    snprintf(buf, size, "slot %d", k);
  } else {
    snprintf(buf, size, "field '%s'", r->names[k]);
  }
  return buf;
}

/* ------------------------------------------------------------------------------------------ */
/* Prepare and commit                                                                          */
/* ------------------------------------------------------------------------------------------ */

static void plan_discard(jg_builder *b, plan *p) {
  node_free(b, p->wrap); /* its content is linked only by commit */
  node_free(b, p->fresh);
  p->wrap = NULL;
  p->fresh = NULL;
}

static bool compatible(const bnode *n, event ev, int nslots) {
  switch (ev) {
    case EV_BOOL: return n->kind == BK_BOOL;
    case EV_INT64:
    case EV_FLOAT64: return n->kind == BK_INT64 || n->kind == BK_FLOAT64;
    case EV_LIST: return n->kind == BK_LIST;
    case EV_RECORD: return n->kind == BK_RECORD && !n->is_tuple;
    case EV_TUPLE: return n->kind == BK_RECORD && n->is_tuple && n->nfields == nslots;
    case EV_NULL: return true;
  }
  return false;
}

/** A new node for the first `count` entries of `ev` at an unknown position. */
static jg_status fresh_node(jg_builder *b, event ev, jg_len count, int nslots, bnode **out,
                            jg_error *err) {
  static const bkind kinds[] = {BK_OPTION, BK_BOOL, BK_INT64, BK_FLOAT64,
                                BK_LIST,   BK_RECORD, BK_RECORD};
  bnode *n = NULL;
  JG_RETURN_NOT_OK(node_new(b, kinds[ev], &n, err));
  jg_status st = JG_OK;
  switch (ev) {
    case EV_BOOL:
    case EV_INT64:
    case EV_FLOAT64: st = node_reserve(b, n, count, err); break;
    case EV_LIST:
      st = node_reserve(b, n, 2, err); /* offsets[0] and the one end_list writes */
      if (st == JG_OK) memset(n->data, 0, sizeof(int64_t));
      break;
    case EV_TUPLE: {
      void *block = NULL;
      st = block_new(b, nslots, &block, err);
      if (st == JG_OK) {
        block_attach(n, block, nslots);
        n->nfields = nslots;
        n->is_tuple = true;
      }
      break;
    }
    case EV_RECORD:
    case EV_NULL: break;
  }
  if (st != JG_OK) {
    node_free(b, n);
    return st;
  }
  *out = n;
  return JG_OK;
}

/** Checks that `count` entries of `ev` may be appended at *slot and reserves what that needs
 *  (see the top of the file). On failure nothing observable changed and `p` holds nothing. */
static jg_status prepare(jg_builder *b, bnode **slot, event ev, jg_len count, int nslots,
                         plan *p, jg_error *err) {
  memset(p, 0, sizeof *p);
  p->slot = slot;
  p->target = slot;
  bnode *n = *slot;
  jg_len need = 0;
  if (ev == EV_NULL) {
    JG_RETURN_IF(jgi_add_overflow(node_length(n), count, &need), JG_EOVERFLOW, err,
                 "builder: the length would pass INT64_MAX");
    if (n != NULL && n->kind == BK_OPTION) {
      JG_RETURN_NOT_OK(node_reserve(b, n, need, err));
      p->opt = n;
      return JG_OK;
    }
    bnode *w = NULL;
    JG_RETURN_NOT_OK(node_new(b, BK_OPTION, &w, err));
    jg_status st = node_reserve(b, w, need, err);
    if (st != JG_OK) {
      node_free(b, w);
      return st;
    }
    const jg_len len = node_length(n);
    for (jg_len i = 0; i < len; i++) {
      const int64_t v = i;
      memcpy(w->data + 8 * i, &v, 8);
    }
    w->length = len;
    p->wrap = w;
    return JG_OK;
  }
  if (n != NULL && n->kind == BK_OPTION) {
    JG_RETURN_IF(jgi_add_overflow(n->length, count, &need), JG_EOVERFLOW, err,
                 "builder: the length would pass INT64_MAX");
    JG_RETURN_NOT_OK(node_reserve(b, n, need, err));
    p->opt = n;
    p->target = &n->content;
    n = n->content;
  }
  if (n == NULL) return fresh_node(b, ev, count, nslots, &p->fresh, err);
  if (!compatible(n, ev, nslots)) {
    char b1[48], b2[48];
    return jg_error_set(err, JG_EDTYPE, -1,
                        "cannot append %s where the builder holds %s (%d containers open): "
                        "that needs a union type, which jagged does not support",
                        event_desc(ev, nslots, b1, sizeof b1), node_desc(n, b2, sizeof b2),
                        b->depth);
  }
  JG_RETURN_IF(jgi_add_overflow(used_entries(n), count, &need), JG_EOVERFLOW, err,
               "builder: the length would pass INT64_MAX");
  if (n->kind != BK_RECORD) JG_RETURN_NOT_OK(node_reserve(b, n, need, err));
  p->leaf = n;
  return JG_OK;
}

/** Links and writes what `p` prepared; returns the node the values go to (NULL for EV_NULL).
 *  Cannot fail. */
static bnode *commit(plan *p, event ev, jg_len count) {
  if (p->wrap != NULL) {
    p->wrap->content = *p->slot;
    *p->slot = p->wrap;
    p->opt = p->wrap;
    p->wrap = NULL;
  }
  if (p->opt != NULL) {
    bnode *o = p->opt;
    const jg_len base = node_length(o->content);
    for (jg_len i = 0; i < count; i++) {
      const int64_t v = ev == EV_NULL ? -1 : base + i;
      memcpy(o->data + 8 * (o->length + i), &v, 8);
    }
    o->length += count;
  }
  if (ev == EV_NULL) return NULL;
  if (p->fresh != NULL) {
    *p->target = p->fresh;
    p->leaf = p->fresh;
    p->fresh = NULL;
  }
  bnode *leaf = p->leaf;
  if (ev == EV_FLOAT64 && leaf->kind == BK_INT64) {
    for (jg_len i = 0; i < leaf->length; i++) {
      int64_t v;
      memcpy(&v, leaf->data + 8 * i, 8);
      const double d = (double)v;
      memcpy(leaf->data + 8 * i, &d, 8);
    }
    leaf->kind = BK_FLOAT64;
  }
  return leaf;
}

/** Writes `count` values of `ev` (bool, int64_t or double) at the end of `leaf`. */
static void write_values(bnode *leaf, event ev, const void *values, jg_len count) {
  unsigned char *dst = leaf->data + (size_t)leaf->length * item_size(leaf->kind);
  if (leaf->kind == BK_BOOL) {
    const bool *v = values;
    for (jg_len i = 0; i < count; i++) dst[i] = v[i] ? 1 : 0;
  } else if (leaf->kind == BK_FLOAT64 && ev == EV_INT64) {
    const int64_t *v = values;
    for (jg_len i = 0; i < count; i++) {
      const double d = (double)v[i];
      memcpy(dst + 8 * i, &d, 8);
    }
  } else {
    memcpy(dst, values, (size_t)count * 8);
  }
  leaf->length += count;
}

/* ------------------------------------------------------------------------------------------ */
/* Positions                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/** Where the next entry goes. */
typedef struct position {
  bnode **slot;
  bnode *record; /**< the open record or tuple whose selected field `slot` is, or NULL */
} position;

static jg_status position_get(jg_builder *b, const char *fn, position *pos, jg_error *err) {
  pos->record = NULL;
  if (b->depth == 0) {
    pos->slot = &b->root;
    return JG_OK;
  }
  bnode *top = b->stack[b->depth - 1];
  if (top->kind == BK_LIST) {
    pos->slot = &top->content;
    return JG_OK;
  }
  char buf[64];
  JG_RETURN_IF_AT(top->current < 0, JG_ESTATE, err, top->length,
                  "%s: %s %lld is open and no %s is selected: call %s first", fn,
                  rec_word(top), (long long)top->length, top->is_tuple ? "slot" : "field",
                  top->is_tuple ? "jg_builder_index" : "jg_builder_field");
  JG_RETURN_IF_AT(top->filled[top->current], JG_ESTATE, err, top->length,
                  "%s: %s of %s %lld already has its value: select another or call %s", fn,
                  field_desc(top, top->current, buf, sizeof buf), rec_word(top),
                  (long long)top->length,
                  top->is_tuple ? "jg_builder_end_tuple" : "jg_builder_end_record");
  pos->slot = &top->fields[top->current];
  pos->record = top;
  return JG_OK;
}

static void position_done(position *pos) {
  if (pos->record != NULL) pos->record->filled[pos->record->current] = true;
}

/* ------------------------------------------------------------------------------------------ */
/* Lifetime                                                                                    */
/* ------------------------------------------------------------------------------------------ */

jg_status jg_builder_create_ex(const jg_builder_options *options, jg_builder **out,
                               jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_builder_create: out is NULL");
  *out = NULL;
  jg_memory_resource *mr = jg_memory_resource_host();
  jg_len initial = JG_BUILDER_DEFAULT_INITIAL_CAPACITY;
  if (options != NULL) {
    JG_RETURN_IF(options->version != 0 && options->version != sizeof(jg_builder_options),
                 JG_EINVAL, err, "jg_builder_create_ex: options->version is %u, expected 0 or %zu",
                 (unsigned)options->version, sizeof(jg_builder_options));
    for (size_t k = 0; k < sizeof options->reserved; k++) {
      JG_RETURN_IF_AT(options->reserved[k] != 0, JG_EINVAL, err, (int64_t)k,
                      "jg_builder_create_ex: options->reserved[%zu] is not zero", k);
    }
    JG_RETURN_IF(options->initial_capacity < 0, JG_EINVAL, err,
                 "jg_builder_create_ex: initial_capacity %lld is negative",
                 (long long)options->initial_capacity);
    if (options->initial_capacity > 0) initial = options->initial_capacity;
    if (options->mr != NULL) {
      mr = options->mr;
      JG_RETURN_IF(mr->allocate == NULL || mr->deallocate == NULL, JG_EINVAL, err,
                   "jg_builder_create_ex: the memory resource has no allocate/deallocate hook");
      JG_RETURN_IF(!mr->host_accessible, JG_EINVAL, err,
                   "jg_builder_create_ex: the memory resource is not host-accessible (a "
                   "builder writes its buffers from the host)");
    }
  }
  void *p = NULL;
  JG_RETURN_NOT_OK(mem_alloc(mr, sizeof(jg_builder), &p, err));
  jg_builder *b = p;
  memset(b, 0, sizeof *b);
  b->mr = mr;
  b->initial = initial;
  *out = b;
  return JG_OK;
}

jg_status jg_builder_create(jg_builder **out, jg_error *err) {
  return jg_builder_create_ex(NULL, out, err);
}

void jg_builder_destroy(jg_builder *b) {
  if (b == NULL) return;
  node_free(b, b->root);
  mem_free(b->mr, b, sizeof *b);
}

/* ------------------------------------------------------------------------------------------ */
/* Values                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/** Appends `n` values (one list of them when `as_list`) of `ev` from `values`. */
static jg_status append_values(jg_builder *b, const char *fn, event ev, const void *values,
                               jg_len n, bool as_list, jg_error *err) {
  JG_RETURN_IF(b == NULL, JG_EINVAL, err, "%s: the builder is NULL", fn);
  JG_RETURN_IF(n < 0, JG_EINVAL, err, "%s: n = %lld is negative", fn, (long long)n);
  JG_RETURN_IF(values == NULL && n > 0, JG_EINVAL, err, "%s: values is NULL with n = %lld", fn,
               (long long)n);
  position pos = {NULL, NULL};
  JG_RETURN_NOT_OK(position_get(b, fn, &pos, err));
  if (!as_list) {
    JG_RETURN_IF_AT(pos.record != NULL && n > 1, JG_ESTATE, err, pos.record->length,
                    "%s: a %s %s takes one value, not %lld", fn, rec_word(pos.record),
                    pos.record->is_tuple ? "slot" : "field", (long long)n);
    if (n == 0) return JG_OK;
    plan p;
    JG_RETURN_NOT_OK(prepare(b, pos.slot, ev, n, 0, &p, err));
    write_values(commit(&p, ev, n), ev, values, n);
    position_done(&pos);
    return JG_OK;
  }
  plan outer;
  plan inner;
  JG_RETURN_NOT_OK(prepare(b, pos.slot, EV_LIST, 1, 0, &outer, err));
  bnode *list = outer.fresh != NULL ? outer.fresh : outer.leaf;
  if (n > 0) {
    jg_status st = prepare(b, &list->content, ev, n, 0, &inner, err);
    if (st != JG_OK) {
      plan_discard(b, &outer);
      return st;
    }
  }
  list = commit(&outer, EV_LIST, 1);
  if (n > 0) write_values(commit(&inner, ev, n), ev, values, n);
  const int64_t stop = node_length(list->content);
  memcpy(list->data + 8 * (list->length + 1), &stop, 8);
  list->length += 1;
  position_done(&pos);
  return JG_OK;
}

jg_status jg_builder_null(jg_builder *b, jg_error *err) {
  JG_RETURN_IF(b == NULL, JG_EINVAL, err, "jg_builder_null: the builder is NULL");
  position pos = {NULL, NULL};
  JG_RETURN_NOT_OK(position_get(b, "jg_builder_null", &pos, err));
  plan p;
  JG_RETURN_NOT_OK(prepare(b, pos.slot, EV_NULL, 1, 0, &p, err));
  (void)commit(&p, EV_NULL, 1);
  position_done(&pos);
  return JG_OK;
}

jg_status jg_builder_bool(jg_builder *b, bool value, jg_error *err) {
  return append_values(b, "jg_builder_bool", EV_BOOL, &value, 1, false, err);
}

jg_status jg_builder_int64(jg_builder *b, int64_t value, jg_error *err) {
  return append_values(b, "jg_builder_int64", EV_INT64, &value, 1, false, err);
}

jg_status jg_builder_float64(jg_builder *b, double value, jg_error *err) {
  return append_values(b, "jg_builder_float64", EV_FLOAT64, &value, 1, false, err);
}

jg_status jg_builder_extend_int64(jg_builder *b, const int64_t *values, jg_len n,
                                  jg_error *err) {
  return append_values(b, "jg_builder_extend_int64", EV_INT64, values, n, false, err);
}

jg_status jg_builder_extend_float64(jg_builder *b, const double *values, jg_len n,
                                    jg_error *err) {
  return append_values(b, "jg_builder_extend_float64", EV_FLOAT64, values, n, false, err);
}

jg_status jg_builder_list_int64(jg_builder *b, const int64_t *values, jg_len n, jg_error *err) {
  return append_values(b, "jg_builder_list_int64", EV_INT64, values, n, true, err);
}

jg_status jg_builder_list_float64(jg_builder *b, const double *values, jg_len n,
                                  jg_error *err) {
  return append_values(b, "jg_builder_list_float64", EV_FLOAT64, values, n, true, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Containers                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static jg_status begin(jg_builder *b, const char *fn, event ev, int nslots, jg_error *err) {
  JG_RETURN_IF(b == NULL, JG_EINVAL, err, "%s: the builder is NULL", fn);
  position pos = {NULL, NULL};
  JG_RETURN_NOT_OK(position_get(b, fn, &pos, err));
  JG_RETURN_IF(b->depth >= JG_BUILDER_MAX_DEPTH, JG_ENOTSUP, err,
               "%s: more than %d nested containers are not supported", fn,
               JG_BUILDER_MAX_DEPTH);
  plan p;
  JG_RETURN_NOT_OK(prepare(b, pos.slot, ev, 1, nslots, &p, err));
  bnode *c = commit(&p, ev, 1);
  c->current = -1;
  b->stack[b->depth++] = c;
  position_done(&pos);
  return JG_OK;
}

jg_status jg_builder_begin_list(jg_builder *b, jg_error *err) {
  return begin(b, "jg_builder_begin_list", EV_LIST, 0, err);
}

jg_status jg_builder_begin_record(jg_builder *b, jg_error *err) {
  return begin(b, "jg_builder_begin_record", EV_RECORD, 0, err);
}

jg_status jg_builder_begin_tuple(jg_builder *b, int nslots, jg_error *err) {
  JG_RETURN_IF(b == NULL, JG_EINVAL, err, "jg_builder_begin_tuple: the builder is NULL");
  JG_RETURN_IF(nslots < 0, JG_EINVAL, err, "jg_builder_begin_tuple: nslots = %d is negative",
               nslots);
  return begin(b, "jg_builder_begin_tuple", EV_TUPLE, nslots, err);
}

/** The innermost open container, checked to be of `kind` (and a tuple or not). */
static jg_status top_get(jg_builder *b, const char *fn, bkind kind, bool tuple, bnode **top,
                         jg_error *err) {
  const char *want = kind == BK_LIST ? "list" : tuple ? "tuple" : "record";
  JG_RETURN_IF(b == NULL, JG_EINVAL, err, "%s: the builder is NULL", fn);
  JG_RETURN_IF(b->depth == 0, JG_ESTATE, err, "%s: no %s is open (nothing is open)", fn, want);
  bnode *t = b->stack[b->depth - 1];
  if (t->kind != kind || (kind == BK_RECORD && t->is_tuple != tuple)) {
    char buf[64];
    const char *closer = t->kind == BK_LIST  ? "jg_builder_end_list"
                         : t->is_tuple      ? "jg_builder_end_tuple"
                                            : "jg_builder_end_record";
    return jg_error_set(err, JG_ESTATE, t->kind == BK_LIST ? -1 : t->length,
                        "%s: the innermost open container is %s, not a %s (close it with %s "
                        "first)",
                        fn, open_desc(t, buf, sizeof buf), want, closer);
  }
  *top = t;
  return JG_OK;
}

jg_status jg_builder_end_list(jg_builder *b, jg_error *err) {
  bnode *top = NULL;
  JG_RETURN_NOT_OK(top_get(b, "jg_builder_end_list", BK_LIST, false, &top, err));
  const int64_t stop = node_length(top->content);
  memcpy(top->data + 8 * (top->length + 1), &stop, 8); /* room reserved by begin_list */
  top->length += 1;
  b->depth--;
  return JG_OK;
}

/** Fails when the selected field of `top` is still waiting for its value. */
static jg_status check_selected_filled(const bnode *top, const char *fn, jg_error *err) {
  if (top->current < 0 || top->filled[top->current]) return JG_OK;
  char buf[64];
  return jg_error_set(err, JG_ESTATE, top->length,
                      "%s: %s of %s %lld was selected but given no value", fn,
                      field_desc(top, top->current, buf, sizeof buf), rec_word(top),
                      (long long)top->length);
}

static jg_status end_record(jg_builder *b, const char *fn, bool tuple, jg_error *err) {
  bnode *top = NULL;
  JG_RETURN_NOT_OK(top_get(b, fn, BK_RECORD, tuple, &top, err));
  JG_RETURN_NOT_OK(check_selected_filled(top, fn, err));
  int k = 0;
  jg_status st = JG_OK;
  for (; k < top->nfields; k++) {
    if (top->filled[k]) continue;
    st = prepare(b, &top->fields[k], EV_NULL, 1, 0, &top->plans[k], err);
    if (st != JG_OK) break;
  }
  if (st != JG_OK) {
    for (int j = 0; j < k; j++) {
      if (!top->filled[j]) plan_discard(b, &top->plans[j]);
    }
    return st;
  }
  for (k = 0; k < top->nfields; k++) {
    if (!top->filled[k]) (void)commit(&top->plans[k], EV_NULL, 1);
    top->filled[k] = false;
  }
  top->current = -1;
  top->length += 1;
  b->depth--;
  return JG_OK;
}

jg_status jg_builder_end_record(jg_builder *b, jg_error *err) {
  return end_record(b, "jg_builder_end_record", false, err);
}

jg_status jg_builder_end_tuple(jg_builder *b, jg_error *err) {
  return end_record(b, "jg_builder_end_tuple", true, err);
}

static int find_field(const bnode *r, const char *name) {
  const int guess = r->current + 1; /* records usually repeat one field order */
  if (guess < r->nfields && strcmp(r->names[guess], name) == 0) return guess;
  for (int k = 0; k < r->nfields; k++) {
    if (strcmp(r->names[k], name) == 0) return k;
  }
  return -1;
}

/** Adds field `name` to the open record `r` and selects it; it holds None in the r->length
 *  records already closed. */
static jg_status add_field(jg_builder *b, bnode *r, const char *name, jg_error *err) {
  JG_RETURN_IF(r->nfields == INT_MAX, JG_EOVERFLOW, err,
               "jg_builder_field: a record cannot have more than %d fields", INT_MAX);
  void *block = NULL;
  int newcap = r->capfields;
  if (r->nfields == r->capfields) {
    newcap = r->capfields < 4 ? 4 : r->capfields <= INT_MAX / 3 * 2 ? r->capfields / 2 * 3
                                                                     : INT_MAX;
    JG_RETURN_NOT_OK(block_new(b, newcap, &block, err));
  }
  const size_t len = strlen(name) + 1;
  void *copy = NULL;
  jg_status st = mem_alloc(b->mr, len, &copy, err);
  bnode *field = NULL;
  plan p;
  if (st == JG_OK && r->length > 0) st = prepare(b, &field, EV_NULL, r->length, 0, &p, err);
  if (st != JG_OK) {
    mem_free(b->mr, copy, len);
    if (block != NULL) {
      bnode tmp;
      memset(&tmp, 0, sizeof tmp);
      block_attach(&tmp, block, newcap);
      block_free(b, &tmp);
    }
    return st;
  }
  /* Commit. */
  memcpy(copy, name, len);
  if (r->length > 0) (void)commit(&p, EV_NULL, r->length); /* field = option of Nones */
  if (block != NULL) {
    bnode old = *r;
    block_attach(r, block, newcap);
    if (old.nfields > 0) {
      memcpy(r->fields, old.fields, sizeof(bnode *) * (size_t)old.nfields);
      memcpy(r->names, old.names, sizeof(char *) * (size_t)old.nfields);
      memcpy(r->filled, old.filled, sizeof(bool) * (size_t)old.nfields);
    }
    block_free(b, &old);
  }
  const int k = r->nfields++;
  r->fields[k] = field;
  r->names[k] = copy;
  r->filled[k] = false;
  r->current = k;
  return JG_OK;
}

jg_status jg_builder_field(jg_builder *b, const char *name, jg_error *err) {
  static const char fn[] = "jg_builder_field";
  JG_RETURN_IF(name == NULL, JG_EINVAL, err, "%s: name is NULL", fn);
  JG_RETURN_IF(name[0] == '\0', JG_EINVAL, err, "%s: the field name is empty", fn);
  bnode *top = NULL;
  JG_RETURN_NOT_OK(top_get(b, fn, BK_RECORD, false, &top, err));
  JG_RETURN_NOT_OK(check_selected_filled(top, fn, err));
  const int k = find_field(top, name);
  if (k < 0) return add_field(b, top, name, err);
  JG_RETURN_IF_AT(top->filled[k], JG_ESTATE, err, top->length,
                  "%s: field '%s' already has a value in record %lld", fn, name,
                  (long long)top->length);
  top->current = k;
  return JG_OK;
}

jg_status jg_builder_index(jg_builder *b, int i, jg_error *err) {
  static const char fn[] = "jg_builder_index";
  bnode *top = NULL;
  JG_RETURN_NOT_OK(top_get(b, fn, BK_RECORD, true, &top, err));
  JG_RETURN_NOT_OK(check_selected_filled(top, fn, err));
  JG_RETURN_IF_AT(i < 0 || i >= top->nfields, JG_EINDEX, err, i,
                  "%s: slot %d is outside the %d slots of the tuple", fn, i, top->nfields);
  JG_RETURN_IF_AT(top->filled[i], JG_ESTATE, err, top->length,
                  "%s: slot %d already has a value in tuple %lld", fn, i,
                  (long long)top->length);
  top->current = i;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* State and snapshots                                                                         */
/* ------------------------------------------------------------------------------------------ */

jg_len jg_builder_length(const jg_builder *b) {
  if (b == NULL || b->root == NULL) return 0;
  /* An option at the top got the open top-level container's index entry at its begin. */
  if (b->root->kind == BK_OPTION && b->depth > 0) return b->root->length - 1;
  return b->root->length;
}

int jg_builder_depth(const jg_builder *b) { return b == NULL ? 0 : b->depth; }

/** A new 1-D buffer and view holding a copy of `n` values of `dtype` at `src`. */
static jg_status copy_out(const jg_builder *b, const void *src, jg_len n, jg_dtype dtype,
                          jg_buffer **buf, jg_view *view, jg_error *err) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  const size_t bytes = (size_t)n * (size_t)isz; /* fits: the builder holds that many */
  JG_RETURN_NOT_OK(jg_buffer_allocate(b->mr, bytes, NULL, buf, err));
  if (bytes > 0) memcpy(jg_buffer_data(*buf), src, bytes);
  jg_layout layout;
  jg_status st = jg_layout_init(&layout, 1, &n, NULL, isz, err);
  if (st == JG_OK) st = jg_view_from_buffer(view, *buf, &layout, dtype, false, err);
  if (st != JG_OK) {
    jg_buffer_release(*buf);
    *buf = NULL;
  }
  return st;
}

static jg_status snap_node(const jg_builder *b, const bnode *n, jg_array **out, jg_error *err);

/** A node with one buffer (`dtype`, `count` entries of n->data) and maybe a content. */
static jg_status snap_simple(const jg_builder *b, const bnode *n, jg_dtype dtype, jg_len count,
                             jg_array **out, jg_error *err) {
  jg_array *content = NULL;
  if (n->kind == BK_LIST || n->kind == BK_OPTION) {
    JG_RETURN_NOT_OK(snap_node(b, n->content, &content, err));
  }
  jg_buffer *buf = NULL;
  jg_view view;
  jg_status st = copy_out(b, n->data, count, dtype, &buf, &view, err);
  if (st == JG_OK) {
    switch (n->kind) {
      case BK_LIST: st = jg_array_list_offset(&view, content, out, err); break;
      case BK_OPTION: st = jg_array_indexed_option(&view, content, out, err); break;
      default: st = jg_array_numeric(&view, out, err); break;
    }
  }
  jg_buffer_release(buf);
  jg_array_release(content);
  return st;
}

static jg_status snap_record(const jg_builder *b, const bnode *n, jg_array **out,
                             jg_error *err) {
  const size_t bytes = sizeof(jg_array *) * (size_t)n->nfields;
  void *p = NULL;
  JG_RETURN_NOT_OK(mem_alloc(b->mr, bytes, &p, err));
  jg_array **fields = p;
  int k = 0;
  jg_status st = JG_OK;
  for (; k < n->nfields && st == JG_OK; k++) st = snap_node(b, n->fields[k], &fields[k], err);
  if (st == JG_OK) {
    /* A record of no fields still needs a (non-NULL) names array to not be a tuple. */
    static const char *const no_names[1] = {NULL};
    const char *const *names = n->is_tuple        ? NULL
                               : n->nfields == 0 ? no_names
                                                 : (const char *const *)n->names;
    st = jg_array_record(n->nfields, fields, names, n->length, out, err);
  } else {
    k--; /* fields[k] failed and holds nothing */
  }
  for (int j = 0; j < k; j++) jg_array_release(fields[j]);
  mem_free(b->mr, p, bytes);
  return st;
}

static jg_status snap_node(const jg_builder *b, const bnode *n, jg_array **out, jg_error *err) {
  *out = NULL;
  if (n == NULL) return jg_array_empty(out, err);
  switch (n->kind) {
    case BK_BOOL: return snap_simple(b, n, JG_DTYPE_BOOL, n->length, out, err);
    case BK_INT64: return snap_simple(b, n, JG_DTYPE_INT64, n->length, out, err);
    case BK_FLOAT64: return snap_simple(b, n, JG_DTYPE_FLOAT64, n->length, out, err);
    case BK_LIST: return snap_simple(b, n, JG_DTYPE_INT64, n->length + 1, out, err);
    case BK_OPTION: return snap_simple(b, n, JG_DTYPE_INT64, n->length, out, err);
    case BK_RECORD: return snap_record(b, n, out, err);
  }
  return jg_error_set(err, JG_EINTERNAL, -1, "builder: unknown node kind %d", (int)n->kind);
}

jg_status jg_builder_snapshot(const jg_builder *b, jg_array **out, jg_error *err) {
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "jg_builder_snapshot: out is NULL");
  *out = NULL;
  JG_RETURN_IF(b == NULL, JG_EINVAL, err, "jg_builder_snapshot: the builder is NULL");
  if (b->depth > 0) {
    char buf[64];
    const bnode *top = b->stack[b->depth - 1];
    return jg_error_set(err, JG_ESTATE, b->depth,
                        "jg_builder_snapshot: %d container%s still open (the innermost is %s): "
                        "close %s first",
                        b->depth, b->depth == 1 ? " is" : "s are",
                        open_desc(top, buf, sizeof buf), b->depth == 1 ? "it" : "them");
  }
  return snap_node(b, b->root, out, err);
}
