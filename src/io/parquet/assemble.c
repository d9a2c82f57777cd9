/* assemble.c: repetition and definition levels to jagged layouts (Dremel record assembly:
 * Melnik et al., "Dremel: Interactive Analysis of Web-Scale Datasets", VLDB 2010; parquet's
 * levels as in parquet-format's README "Nested Encoding").
 *
 * Terms. A leaf's path from the root crosses lists L1..Lk (REPEATED fields; Lj has repetition
 * level j and definition level dl[j]) and options (OPTIONAL fields, definition level d). The
 * "slots at depth j" are the entries of the layout nodes between Lj and L(j+1): records for
 * j = 0, the elements of Lj for j >= 1. Level entry i opens a slot at depth j when
 *     rep[i] <= j  and  def[i] >= dl[j]          (dl[0] = 0; for j = 0: rep[i] == 0)
 * i.e. it starts a new element of Lj (or a new record) and that element exists. Options do not
 * create slots (a byte-masked node's content has one entry per mask entry, nulls included), so:
 *   - the mask of an option of level d at depth j is def[i] >= d over the slots at depth j;
 *   - the offsets of L(j+1) count, per slot at depth j, the slots at depth j + 1 that follow it;
 *   - the leaf's values sit at the slots at depth k; a value is stored where def is the leaf's
 *     maximum, other slots are nulls (zeros, or empty byte arrays).
 * Every loop below is branch-free over the entries: slots are counted with increments, masks
 * and values are written at a running index that advances only on a slot (a write at a
 * non-slot entry is overwritten by the next slot's, or lands in one padding entry). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "io/parquet/pq_reader.h"

void jgi_pq_assembled_reset(jgi_pq_assembled *a) {
  if (a == NULL) return;
  for (int k = 0; k < a->nchain; k++) jg_buffer_release(a->chain_buf[k]);
  jg_buffer_release(a->values);
  jg_buffer_release(a->offsets);
  memset(a, 0, sizeof *a);
}

jg_status jgi_pq_view_1d(jg_buffer *buf, int64_t n, jg_dtype dtype, jg_view *v, jg_error *err) {
  jg_layout l;
  JG_RETURN_NOT_OK(jg_layout_init(&l, 1, &n, NULL, jg_dtype_itemsize(dtype), err));
  if (jg_buffer_get_mode(buf) == JG_BUFFER_OWNED)
    return jg_view_from_buffer(v, buf, &l, dtype, false, err);
  /* Memory handed over from the decoder (malloc'ed host memory): no pointer query needed. */
  JG_RETURN_NOT_OK(jg_view_from_pointer(v, jg_buffer_data(buf), (jg_device){JG_DEVICE_CPU, 0},
                                        &l, dtype, false, err));
  v->buffer = buf;
  return JG_OK;
}

static jg_status alloc(jg_memory_resource *mr, int64_t bytes, jg_buffer **out, jg_error *err) {
  JG_RETURN_IF(bytes < 0, JG_EOVERFLOW, err, "a buffer of %lld bytes", (long long)bytes);
  return jg_buffer_allocate(mr ? mr : jg_memory_resource_host(), (size_t)bytes, NULL, out, err);
}

static void free_release(void *owner, void *data, size_t bytes) {
  (void)data;
  (void)bytes;
  free(owner);
}

/* The first `bytes` bytes of b as a jg_buffer: handed over (b emptied) when mr is NULL, else
 * copied into memory from mr. */
static jg_status take(jgi_pq_buf *b, int64_t bytes, jg_memory_resource *mr, jg_buffer **out,
                      jg_error *err) {
  if (mr == NULL && b->data != NULL) {
    JG_RETURN_NOT_OK(jg_buffer_wrap_external(b->data, (size_t)bytes, b->data, free_release, out,
                                             err));
    memset(b, 0, sizeof *b);
    return JG_OK;
  }
  JG_RETURN_NOT_OK(alloc(mr, bytes, out, err));
  if (bytes > 0) memcpy(jg_buffer_data(*out), b->data, (size_t)bytes);
  return JG_OK;
}

/* ---- the loops ------------------------------------------------------------------------------ */

/* Slots at depth j (see the top): entries with rep <= j and def >= dl. */
static int64_t count_slots(const int16_t *rep, const int16_t *def, int64_t n, int j, int dl) {
  int64_t s = 0;
  if (rep == NULL) { /* no list: every entry is a record */
    return n;
  }
  if (j == 0) {
    for (int64_t i = 0; i < n; i++) s += rep[i] == 0;
    return s;
  }
  for (int64_t i = 0; i < n; i++) s += (rep[i] <= j) & (def[i] >= dl);
  return s;
}

/* mask[s] = def >= d for the slots at depth j (mask has one padding entry). */
static void fill_mask(const int16_t *rep, const int16_t *def, int64_t n, int j, int dl, int d,
                      uint8_t *mask) {
  if (rep == NULL) {
    for (int64_t i = 0; i < n; i++) mask[i] = def[i] >= d;
    return;
  }
  int64_t s = 0;
  if (j == 0) {
    for (int64_t i = 0; i < n; i++) {
      mask[s] = def[i] >= d;
      s += rep[i] == 0;
    }
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    mask[s] = def[i] >= d;
    s += (rep[i] <= j) & (def[i] >= dl);
  }
}

/* The offsets of list L(j+1) (levels dc, j + 1) over the slots at depth j (level dl): counts
 * are added at offsets[1 + slot] and summed up. A child before the first parent (corrupt)
 * lands in offsets[0], which the caller checks is 0. */
static void fill_offsets(const int16_t *rep, const int16_t *def, int64_t n, int j, int dl,
                         int dc, int64_t nparents, int64_t *offsets) {
  memset(offsets, 0, sizeof(int64_t) * (size_t)(nparents + 1));
  int64_t *cnt = offsets + 1;
  int64_t s = -1;
  if (j == 0) {
    for (int64_t i = 0; i < n; i++) {
      s += rep[i] == 0;
      cnt[s] += (rep[i] <= 1) & (def[i] >= dc);
    }
  } else {
    for (int64_t i = 0; i < n; i++) {
      s += (rep[i] <= j) & (def[i] >= dl);
      cnt[s] += (rep[i] <= j + 1) & (def[i] >= dc);
    }
  }
  for (int64_t k = 0; k < nparents; k++) offsets[k + 1] += offsets[k];
}

/* Values spread to slots: out[s] = the next dense value where def == md, else zero. */
#define SPREAD_TYPED(T)                                                                        \
  static void spread_##T(const int16_t *rep, const int16_t *def, int64_t n, int j, int dl,    \
                         int md, const void *dense_, void *out_) {                            \
    const T *dense = dense_;                                                                   \
    T *out = out_;                                                                             \
    int64_t s = 0, v = 0;                                                                      \
    if (rep == NULL) {                                                                         \
      for (int64_t i = 0; i < n; i++) {                                                        \
        int valid = def[i] == md;                                                              \
        T x = dense[v];                                                                        \
        out[i] = valid ? x : (T)0;                                                             \
        v += valid;                                                                            \
      }                                                                                        \
      return;                                                                                  \
    }                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                          \
      int valid = def[i] == md;                                                                \
      T x = dense[v];                                                                          \
      out[s] = valid ? x : (T)0;                                                               \
      v += valid;                                                                              \
      s += (rep[i] <= j) & (def[i] >= dl);                                                     \
    }                                                                                          \
  }
SPREAD_TYPED(uint8_t)
SPREAD_TYPED(uint16_t)
SPREAD_TYPED(uint32_t)
SPREAD_TYPED(uint64_t)

static void spread_any(const int16_t *rep, const int16_t *def, int64_t n, int j, int dl, int md,
                       const uint8_t *dense, int w, uint8_t *out) {
  int64_t s = 0, v = 0;
  for (int64_t i = 0; i < n; i++) {
    bool slot = rep == NULL || ((rep[i] <= j) & (def[i] >= dl));
    if (def[i] == md) {
      memcpy(out + s * w, dense + v * w, (size_t)w);
      v++;
    } else if (slot) {
      memset(out + s * w, 0, (size_t)w);
    }
    s += slot;
  }
}

/* Byte-array offsets spread to slots: nulls get empty byte arrays. out has nslots + 2 entries;
 * out[0] = doff[0]. */
static void spread_offsets(const int16_t *rep, const int16_t *def, int64_t n, int j, int dl,
                           int md, const int64_t *doff, int64_t *out) {
  int64_t s = 0, v = 0;
  out[0] = doff[0];
  for (int64_t i = 0; i < n; i++) {
    v += def[i] == md;
    out[s + 1] = doff[v];
    s += rep == NULL ? 1 : ((rep[i] <= j) & (def[i] >= dl));
  }
}


/* ---- fused loops: no list, or one list level --------------------------------------------- */

/* The common chains get one pass over (rep, def) that writes offsets, masks and values
 * together: a leaf under at most one list (max_rep <= 1) with at most one option above the
 * list (depth 0, level d0) and at most one below it (depth 1, level d1). An absent option's
 * mask is a one-byte sink written at index 0 (its index mask k is 0), so the loop has no
 * branch on the shape. Offsets are stored, not counted: offs[s0] = elements so far, where s0
 * counts the records begun (rep == 0), so the last store for each record is its end. */

/* Records (rep == 0, rep being 0 or 1) and elements (def >= dlist) of one list level. */
static void count_one_list(const int16_t *rep, const int16_t *def, int64_t n, int dlist,
                           int64_t *records, int64_t *elements) {
  *records = n - jgi_pq_count_ge(rep, n, 1);
  *elements = jgi_pq_count_ge(def, n, dlist);
}

/* One list level: m0 (k0 = -1, or a sink with k0 = 0) over the records, offs (ns0 + 1
 * entries), m1 (k1 likewise) and, when out is not NULL, the values over the elements (md: the
 * leaf's maximum definition level; nulls are zeros). Needs rep[0] == 0; every array has one
 * padding entry. */
#define FUSED_LIST(T)                                                                          \
  static void fused_list_##T(const int16_t *rep, const int16_t *def, int64_t n, int d0,       \
                             int dlist, int d1, int md, uint8_t *m0, int64_t k0, uint8_t *m1, \
                             int64_t k1, int64_t *offs, const void *dense_, void *out_) {      \
    const T *dense = dense_;                                                                   \
    T *out = out_;                                                                             \
    int64_t s0 = 0, s1 = 0, v = 0;                                                             \
    offs[0] = 0;                                                                               \
    for (int64_t i = 0; i < n; i++) {                                                          \
      int d = def[i];                                                                          \
      int valid = d == md;                                                                     \
      m0[s0 & k0] = (uint8_t)(d >= d0);                                                        \
      s0 += rep[i] == 0;                                                                       \
      m1[s1 & k1] = (uint8_t)(d >= d1);                                                       \
      T x = dense[v];                                                                          \
      out[s1] = valid ? x : (T)0;                                                              \
      v += valid;                                                                              \
      s1 += d >= dlist;                                                                        \
      offs[s0] = s1;                                                                           \
    }                                                                                          \
  }
FUSED_LIST(uint8_t)
FUSED_LIST(uint16_t)
FUSED_LIST(uint32_t)
FUSED_LIST(uint64_t)

/* The same without values (dense leaves, whose values are kept as decoded, and values the
 * generic loops spread). */
static void fused_list_none(const int16_t *rep, const int16_t *def, int64_t n, int d0,
                            int dlist, int d1, uint8_t *m0, int64_t k0, uint8_t *m1, int64_t k1,
                            int64_t *offs) {
  int64_t s0 = 0, s1 = 0;
  offs[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    int d = def[i];
    m0[s0 & k0] = (uint8_t)(d >= d0);
    s0 += rep[i] == 0;
    m1[s1 & k1] = (uint8_t)(d >= d1);
    s1 += d >= dlist;
    offs[s0] = s1;
  }
}

/* No list, one option (level d0): its mask and the values in one pass. */
#define FUSED_FLAT(T)                                                                          \
  static void fused_flat_##T(const int16_t *def, int64_t n, int d0, int md, uint8_t *m0,      \
                             const void *dense_, void *out_) {                                 \
    const T *dense = dense_;                                                                   \
    T *out = out_;                                                                             \
    int64_t v = 0;                                                                             \
    for (int64_t i = 0; i < n; i++) {                                                          \
      int d = def[i];                                                                          \
      int valid = d == md;                                                                     \
      m0[i] = (uint8_t)(d >= d0);                                                              \
      T x = dense[v];                                                                          \
      out[i] = valid ? x : (T)0;                                                               \
      v += valid;                                                                              \
    }                                                                                          \
  }
FUSED_FLAT(uint8_t)
FUSED_FLAT(uint16_t)
FUSED_FLAT(uint32_t)
FUSED_FLAT(uint64_t)

/* Whether leaf's chain fits the fused loops; the option levels (0: absent) and their chain
 * positions (-1: absent). */
static bool fused_shape(const jgi_pq_leaf *leaf, int *d0, int *p0, int *d1, int *p1) {
  *d0 = *d1 = 0;
  *p0 = *p1 = -1;
  if (leaf->max_rep > 1 || leaf->max_def == 0) return false;
  int lists = 0;
  for (int p = 0; p < leaf->nchain; p++) {
    const jgi_pq_chain *ch = &leaf->chain[p];
    if (ch->kind == JGI_PQF_LIST) {
      lists++;
      continue;
    }
    if (ch->list_depth == 0) {
      if (*p0 >= 0) return false;
      *p0 = p;
      *d0 = ch->def;
    } else {
      if (*p1 >= 0) return false;
      *p1 = p;
      *d1 = ch->def;
    }
  }
  return lists == leaf->max_rep && (leaf->max_rep == 1 || *p0 >= 0);
}

/* ---- one leaf ------------------------------------------------------------------------------- */

static jg_status assemble(const jgi_pq_leaf *leaf, jgi_pq_column_data *cd, int64_t nrows,
                          jg_memory_resource *mr, bool allow_fused, jgi_pq_assembled *out,
                          jg_error *err) {
  int64_t n = cd->nlevels;
  const int16_t *rep = leaf->max_rep > 0 ? (const int16_t *)(void *)cd->rep.data : NULL;
  const int16_t *def = leaf->max_def > 0 ? (const int16_t *)(void *)cd->def.data : NULL;
  /* List definition levels by depth. */
  int dl[JGI_PQ_MAX_DEPTH + 1];
  int nlists = 0;
  dl[0] = 0;
  for (int p = 0; p < leaf->nchain; p++)
    if (leaf->chain[p].kind == JGI_PQF_LIST) dl[++nlists] = leaf->chain[p].def;
  JG_RETURN_IF(nlists != leaf->max_rep, JG_EINTERNAL, err,
               "the schema has %d lists above the leaf, its maximum repetition level is %d",
               nlists, leaf->max_rep);
  int64_t nslots[JGI_PQ_MAX_DEPTH + 1];
  if (n > 0 && rep != NULL)
    JG_RETURN_IF(rep[0] != 0, JG_ECORRUPT, err,
                 "the first repetition level is %d: a list continues before a record starts",
                 rep[0]);
  int d0 = 0, p0 = -1, d1 = 0, p1 = -1;
  bool fused = allow_fused && fused_shape(leaf, &d0, &p0, &d1, &p1);
  if (def == NULL) {
    for (int j = 0; j <= nlists; j++) nslots[j] = n;
  } else if (fused && nlists == 1) {
    count_one_list(rep, def, n, dl[1], &nslots[0], &nslots[1]);
  } else if (fused) {
    nslots[0] = n;
  } else {
    for (int j = 0; j <= nlists; j++) nslots[j] = count_slots(rep, def, n, j, dl[j]);
  }
  JG_RETURN_IF(nslots[0] != nrows, JG_ECORRUPT, err,
               "the pages hold %lld records, the row groups say %lld", (long long)nslots[0],
               (long long)nrows);

  /* Masks and offsets of the chain (the fused loops fill them below). */
  out->nchain = leaf->nchain;
  for (int p = 0; p < leaf->nchain; p++) {
    const jgi_pq_chain *ch = &leaf->chain[p];
    int j = ch->list_depth;
    int64_t ns = nslots[j];
    out->lengths[p] = ns;
    if (ch->kind == JGI_PQF_OPTION) {
      JG_RETURN_NOT_OK(alloc(mr, ns + 1, &out->chain_buf[p], err));
      if (!fused) fill_mask(rep, def, n, j, dl[j], ch->def, jg_buffer_data(out->chain_buf[p]));
    } else {
      int64_t bytes;
      JG_RETURN_IF(jgi_mul_overflow(ns + 1, (int64_t)8, &bytes), JG_EOVERFLOW, err,
                   "%lld lists", (long long)ns);
      JG_RETURN_NOT_OK(alloc(mr, bytes, &out->chain_buf[p], err));
      if (fused) continue;
      int64_t *offs = jg_buffer_data(out->chain_buf[p]);
      fill_offsets(rep, def, n, j, dl[j], ch->def, ns, offs);
      JG_RETURN_IF(offs[0] != 0, JG_ECORRUPT, err,
                   "a list element at depth %d comes before its list starts", j + 1);
      JG_RETURN_IF(offs[ns] != nslots[j + 1], JG_EINTERNAL, err,
                   "list offsets end at %lld, %lld elements counted", (long long)offs[ns],
                   (long long)nslots[j + 1]);
    }
  }

  /* The values at the leaf's slots. */
  int64_t ns = nslots[nlists];
  out->nslots = ns;
  bool dense = leaf->max_def == dl[nlists]; /* every slot holds a value */
  if (dense)
    JG_RETURN_IF(cd->nvalues != ns, JG_ECORRUPT, err,
                 "%lld values for %lld slots", (long long)cd->nvalues, (long long)ns);
  int w = leaf->out_width;
  static const uint64_t zero_values[8] = {0};
  const void *dv = cd->values.data != NULL ? (const void *)cd->values.data : zero_values;
  int md = leaf->max_def;
  if (fused) {
    uint8_t sink[1];
    uint8_t *m0 = p0 >= 0 ? jg_buffer_data(out->chain_buf[p0]) : sink;
    uint8_t *m1 = p1 >= 0 ? jg_buffer_data(out->chain_buf[p1]) : sink;
    int64_t k0 = p0 >= 0 ? -1 : 0, k1 = p1 >= 0 ? -1 : 0;
    /* The values go with the structure when they are spread at a width of 1, 2, 4 or 8. */
    bool with_values = !dense && leaf->value_kind != JGI_PQV_BYTES &&
                       (w == 1 || w == 2 || w == 4 || w == 8);
    void *o = NULL;
    if (with_values) {
      int64_t bytes;
      JG_RETURN_IF(jgi_mul_overflow(ns + 1, (int64_t)w, &bytes), JG_EOVERFLOW, err,
                   "%lld values", (long long)ns);
      JG_RETURN_NOT_OK(alloc(mr, bytes, &out->values, err));
      o = jg_buffer_data(out->values);
    }
    if (nlists == 1) {
      int64_t *offs = NULL;
      for (int p = 0; p < leaf->nchain; p++)
        if (leaf->chain[p].kind == JGI_PQF_LIST) offs = jg_buffer_data(out->chain_buf[p]);
      int dlist = dl[1];
      typedef void fused_fn(const int16_t *, const int16_t *, int64_t, int, int, int, int,
                            uint8_t *, int64_t, uint8_t *, int64_t, int64_t *, const void *,
                            void *);
      fused_fn *fn = NULL;
      switch (with_values ? w : 0) {
        case 1: fn = fused_list_uint8_t; break;
        case 2: fn = fused_list_uint16_t; break;
        case 4: fn = fused_list_uint32_t; break;
        case 8: fn = fused_list_uint64_t; break;
        default: break;
      }
      if (fn != NULL)
        fn(rep, def, n, d0, dlist, d1, md, m0, k0, m1, k1, offs, dv, o);
      else
        fused_list_none(rep, def, n, d0, dlist, d1, m0, k0, m1, k1, offs);
      JG_RETURN_IF(offs[nslots[0]] != nslots[1], JG_EINTERNAL, err,
                   "list offsets end at %lld, %lld elements counted",
                   (long long)offs[nslots[0]], (long long)nslots[1]);
    } else {
      switch (with_values ? w : 0) {
        case 1: fused_flat_uint8_t(def, n, d0, md, m0, dv, o); break;
        case 2: fused_flat_uint16_t(def, n, d0, md, m0, dv, o); break;
        case 4: fused_flat_uint32_t(def, n, d0, md, m0, dv, o); break;
        case 8: fused_flat_uint64_t(def, n, d0, md, m0, dv, o); break;
        default: fill_mask(NULL, def, n, 0, 0, d0, m0);
      }
    }
    if (with_values) return JG_OK;
  }
  if (leaf->value_kind == JGI_PQV_BYTES) {
    int64_t nbytes = (int64_t)cd->values.size;
    out->nbytes = nbytes;
    static const int64_t zero_offsets[1] = {0};
    const int64_t *doff = cd->offsets.size ? (const int64_t *)(void *)cd->offsets.data
                                           : zero_offsets;
    if (dense && cd->offsets.size) {
      JG_RETURN_NOT_OK(take(&cd->offsets, (ns + 1) * 8, mr, &out->offsets, err));
    } else {
      JG_RETURN_NOT_OK(alloc(mr, (ns + 2) * 8, &out->offsets, err));
      int64_t *o = jg_buffer_data(out->offsets);
      if (dense)
        o[0] = 0;
      else
        spread_offsets(rep, def, n, nlists, dl[nlists], leaf->max_def, doff, o);
    }
    return take(&cd->values, nbytes, mr, &out->values, err);
  }
  int64_t bytes;
  JG_RETURN_IF(jgi_mul_overflow(ns + 1, (int64_t)w, &bytes), JG_EOVERFLOW, err, "%lld values",
               (long long)ns);
  if (dense) return take(&cd->values, ns * w, mr, &out->values, err);
  JG_RETURN_NOT_OK(alloc(mr, bytes, &out->values, err));
  void *o = jg_buffer_data(out->values);
  int j = nlists, d = dl[nlists];
  switch (dv == (const void *)zero_values && w > 8 ? 0 : w) {
    case 1: spread_uint8_t(rep, def, n, j, d, md, dv, o); break;
    case 2: spread_uint16_t(rep, def, n, j, d, md, dv, o); break;
    case 4: spread_uint32_t(rep, def, n, j, d, md, dv, o); break;
    case 8: spread_uint64_t(rep, def, n, j, d, md, dv, o); break;
    default:
      if (cd->values.data == NULL)
        memset(o, 0, (size_t)bytes);
      else
        spread_any(rep, def, n, j, d, md, dv, w, o);
  }
  return JG_OK;
}

static jg_status assemble_at(const jgi_pq_leaf *leaf, jgi_pq_column_data *cd, int64_t nrows,
                             jg_memory_resource *mr, bool allow_fused, const jgi_pq_where *where,
                             jgi_pq_assembled *out, jg_error *err) {
  memset(out, 0, sizeof *out);
  jg_status st = assemble(leaf, cd, nrows, mr, allow_fused, out, err);
  if (st != JG_OK) {
    jgi_pq_assembled_reset(out);
    char w[320];
    snprintf(w, sizeof w, "%s: column %s", where->file, where->column);
    return jgi_error_prefix(st, w, err);
  }
  return JG_OK;
}

jg_status jgi_pq_assemble(const jgi_pq_leaf *leaf, jgi_pq_column_data *cd, int64_t nrows,
                          jg_memory_resource *mr, const jgi_pq_where *where,
                          jgi_pq_assembled *out, jg_error *err) {
  return assemble_at(leaf, cd, nrows, mr, true, where, out, err);
}

jg_status jgi_pq_assemble_generic(const jgi_pq_leaf *leaf, jgi_pq_column_data *cd,
                                  int64_t nrows, jg_memory_resource *mr,
                                  const jgi_pq_where *where, jgi_pq_assembled *out,
                                  jg_error *err) {
  return assemble_at(leaf, cd, nrows, mr, false, where, out, err);
}

jg_status jgi_pq_assemble_empty(const jgi_pq_leaf *leaf, jgi_pq_assembled *out, jg_error *err) {
  jgi_pq_column_data cd;
  memset(&cd, 0, sizeof cd);
  memset(out, 0, sizeof *out);
  jg_status st = assemble(leaf, &cd, 0, NULL, true, out, err);
  jgi_pq_column_data_reset(&cd);
  if (st != JG_OK) jgi_pq_assembled_reset(out);
  return st;
}

/* ---- assembled leaves to a jagged array ------------------------------------------------------ */

typedef struct build_ctx {
  const jgi_pq_schema *s;
  const jgi_pq_assembled *leaves;
  const bool *selected;
  const char *file;
  jg_error *err;
} build_ctx;

static int first_selected(const build_ctx *c, const jgi_pq_field *f) {
  for (int k = f->first_leaf; k < f->first_leaf + f->nleaves; k++)
    if (c->selected[k]) return k;
  return -1;
}

/* The chain buffer at f->chain_pos of the first selected leaf under f, checked equal in every
 * other selected leaf under f (bytes of `elem` each, length + extra entries). */
static jg_status shared_buffer(const build_ctx *c, const jgi_pq_field *f, int elem, int extra,
                               jg_buffer **buf, int64_t *length) {
  int first = first_selected(c, f);
  const jgi_pq_assembled *a = &c->leaves[first];
  *buf = a->chain_buf[f->chain_pos];
  *length = a->lengths[f->chain_pos];
  size_t bytes = (size_t)(*length + extra) * (size_t)elem;
  for (int k = first + 1; k < f->first_leaf + f->nleaves; k++) {
    if (!c->selected[k]) continue;
    const jgi_pq_assembled *b = &c->leaves[k];
    bool same = b->lengths[f->chain_pos] == *length &&
                (bytes == 0 || memcmp(jg_buffer_data(b->chain_buf[f->chain_pos]),
                                      jg_buffer_data(*buf), bytes) == 0);
    JG_RETURN_IF(!same, JG_ECORRUPT, c->err,
                 "%s: columns %s and %s disagree on the %s of field '%s'", c->file,
                 c->s->leaves[first].path, c->s->leaves[k].path,
                 f->kind == JGI_PQF_LIST ? "list offsets" : "validity", f->name);
  }
  return JG_OK;
}

static jg_status build(const build_ctx *c, const jgi_pq_field *f, int64_t length,
                       jg_array **out);

static jg_status build_leaf(const build_ctx *c, const jgi_pq_field *f, int64_t length,
                            jg_array **out) {
  const jgi_pq_leaf *l = &c->s->leaves[f->leaf];
  const jgi_pq_assembled *a = &c->leaves[f->leaf];
  jg_error *err = c->err;
  JG_RETURN_IF(a->nslots != length, JG_ECORRUPT, err,
               "%s: column %s has %lld entries where its parent has %lld", c->file, l->path,
               (long long)a->nslots, (long long)length);
  jg_view v;
  if (l->value_kind == JGI_PQV_NUMERIC) {
    JG_RETURN_NOT_OK(jgi_pq_view_1d(a->values, length, l->dtype, &v, err));
    return jg_array_numeric(&v, out, err);
  }
  jg_array *content = NULL;
  if (l->value_kind == JGI_PQV_BYTES) {
    JG_RETURN_NOT_OK(jgi_pq_view_1d(a->values, a->nbytes, JG_DTYPE_UINT8, &v, err));
    JG_RETURN_NOT_OK(jg_array_numeric(&v, &content, err));
    jg_view ov;
    jg_status st = jgi_pq_view_1d(a->offsets, length + 1, JG_DTYPE_INT64, &ov, err);
    if (st == JG_OK) st = jg_array_list_offset(&ov, content, out, err);
    jg_array_release(content);
    return st;
  }
  /* FIXED_LEN_BYTE_ARRAY: regular lists of type_length bytes. */
  int64_t nbytes;
  JG_RETURN_IF(jgi_mul_overflow(length, (int64_t)l->type_length, &nbytes), JG_EOVERFLOW, err,
               "%lld values of %d bytes", (long long)length, l->type_length);
  JG_RETURN_NOT_OK(jgi_pq_view_1d(a->values, nbytes, JG_DTYPE_UINT8, &v, err));
  JG_RETURN_NOT_OK(jg_array_numeric(&v, &content, err));
  jg_status st = jg_array_regular(content, l->type_length, -1, out, err);
  jg_array_release(content);
  return st;
}

jg_status jgi_pq_as_corrupt(jg_status st, const char *where, jg_error *err) {
  switch (st) {
    case JG_EINVAL:
    case JG_ESHAPE:
    case JG_EVALUE:
    case JG_EINDEX:
    case JG_EDTYPE:
    case JG_EOVERFLOW:
      break;
    default:
      return st;
  }
  if (err != NULL) {
    const size_t n = strlen(err->message);
    const char *name = jg_status_name(st);
    if (n + strlen(name) + 3 < sizeof err->message)
      snprintf(err->message + n, sizeof err->message - n, " (%s)", name);
    if (where != NULL) jgi_error_prefix(st, where, err);
    err->status = JG_ECORRUPT;
  }
  return JG_ECORRUPT;
}

static jg_status build_node(const build_ctx *c, const jgi_pq_field *f, int64_t length,
                            jg_array **out);

/* build_node, with a refusal of what the file holds named as corruption of the field's first
 * selected column. */
static jg_status build(const build_ctx *c, const jgi_pq_field *f, int64_t length,
                       jg_array **out) {
  jg_status st = build_node(c, f, length, out);
  if (st == JG_OK || st == JG_ECORRUPT) return st;
  const int leaf = first_selected(c, f);
  char where[512];
  snprintf(where, sizeof where, "%s: column %s", c->file,
           leaf >= 0 ? c->s->leaves[leaf].path : f->name);
  return jgi_pq_as_corrupt(st, where, c->err);
}

static jg_status build_node(const build_ctx *c, const jgi_pq_field *f, int64_t length,
                            jg_array **out) {
  jg_error *err = c->err;
  *out = NULL;
  switch (f->kind) {
    case JGI_PQF_LEAF:
      return build_leaf(c, f, length, out);
    case JGI_PQF_OPTION: {
      jg_buffer *buf;
      int64_t n;
      JG_RETURN_NOT_OK(shared_buffer(c, f, 1, 0, &buf, &n));
      JG_RETURN_IF(n != length, JG_ECORRUPT, err,
                   "%s: field '%s' has %lld entries where its parent has %lld", c->file,
                   f->name, (long long)n, (long long)length);
      jg_array *content = NULL;
      JG_RETURN_NOT_OK(build(c, f->children[0], length, &content));
      jg_view mv;
      jg_status st = jgi_pq_view_1d(buf, length, JG_DTYPE_BOOL, &mv, err);
      if (st == JG_OK) st = jg_array_byte_masked(&mv, true, content, out, err);
      jg_array_release(content);
      return st;
    }
    case JGI_PQF_LIST: {
      jg_buffer *buf;
      int64_t n;
      JG_RETURN_NOT_OK(shared_buffer(c, f, 8, 1, &buf, &n));
      JG_RETURN_IF(n != length, JG_ECORRUPT, err,
                   "%s: field '%s' has %lld lists where its parent has %lld entries", c->file,
                   f->name, (long long)n, (long long)length);
      const int64_t *offs = jg_buffer_data(buf);
      jg_array *content = NULL;
      JG_RETURN_NOT_OK(build(c, f->children[0], offs[length], &content));
      jg_view ov;
      jg_status st = jgi_pq_view_1d(buf, length + 1, JG_DTYPE_INT64, &ov, err);
      if (st == JG_OK) st = jg_array_list_offset(&ov, content, out, err);
      jg_array_release(content);
      return st;
    }
    case JGI_PQF_RECORD: {
      int nf = 0;
      jg_array **fields = calloc((size_t)f->nchildren + 1, sizeof(jg_array *));
      const char **names = calloc((size_t)f->nchildren + 1, sizeof(char *));
      jg_status st = fields && names ? JG_OK
                                     : jg_error_set(err, JG_ENOMEM, -1, "out of memory");
      for (int k = 0; st == JG_OK && k < f->nchildren; k++) {
        const jgi_pq_field *ch = f->children[k];
        if (first_selected(c, ch) < 0) continue;
        names[nf] = ch->name;
        st = build(c, ch, length, &fields[nf]);
        if (st == JG_OK) nf++;
      }
      if (st == JG_OK) st = jg_array_record(nf, fields, names, length, out, err);
      for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
      free(fields);
      free(names);
      return st;
    }
    default:
      return jg_error_set(err, JG_EINTERNAL, -1, "unknown field kind %d", f->kind);
  }
}

jg_status jgi_pq_build_array(const jgi_pq_field *f, const jgi_pq_schema *s,
                             const jgi_pq_assembled *leaves, const bool *selected,
                             int64_t length, const char *file, jg_array **out, jg_error *err) {
  build_ctx c = {s, leaves, selected, file, err};
  if (first_selected(&c, f) < 0 && f->kind != JGI_PQF_RECORD)
    return jg_error_set(err, JG_EINTERNAL, -1, "field '%s' has no selected column", f->name);
  return build(&c, f, length, out);
}
