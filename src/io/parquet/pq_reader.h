/* pq_reader.h: the Parquet reader's own layers (internal), over jgi_parquet.h:
 *   schema.c    the flat schema list to a tree of fields (records, lists, options, leaves) with
 *               their definition and repetition levels, following LogicalTypes.md (LIST and MAP,
 *               and the backward-compatibility rules for lists);
 *   column.c    one leaf column's chunks (of the selected row groups) to levels and dense values;
 *   assemble.c  levels to offsets (int64, one array per list) and validity (bool, one array per
 *               option), the dense values spread to their slots (Dremel: Melnik et al. 2010);
 *   reader.c    the public calls of include/jagged/parquet.h.
 * The file is read-only mapped (or borrowed) memory, so every column may be decoded on its own
 * thread: nothing here writes shared state. */
#ifndef JAGGED_PQ_READER_H
#define JAGGED_PQ_READER_H

#include <string.h>

#include "internal/jgi_parquet.h"
#include "jagged/array.h"
#include "jagged/memory.h"

/** Deepest schema accepted (groups within groups); deeper is JG_ENOTSUP. It bounds recursion
 *  and keeps definition and repetition levels in int16. */
#define JGI_PQ_MAX_DEPTH 64

/** Most bytes one page may decode to, unless its stored size times JGI_PQ_EXPAND_RATIO is more
 *  (runs of the RLE hybrid encode millions of values in a few bytes, so a page's own header
 *  cannot bound its values; this keeps a corrupt count from sizing a huge allocation). */
#define JGI_PQ_PAGE_EXPAND_MIN ((int64_t)256 << 20)
#define JGI_PQ_EXPAND_RATIO 4096

/* ---- Schema (schema.c) ------------------------------------------------------------------- */

/** Kinds of fields of the tree. */
enum { JGI_PQF_LEAF = 1, JGI_PQF_RECORD = 2, JGI_PQF_LIST = 3, JGI_PQF_OPTION = 4 };

/** How a leaf's physical values become its jagged layout. */
enum {
  JGI_PQV_NUMERIC = 1, /* numeric array of `dtype` (width out_width) */
  JGI_PQV_BYTES = 2,   /* BYTE_ARRAY: list-offset (int64) of uint8 */
  JGI_PQV_FIXED = 3    /* FIXED_LEN_BYTE_ARRAY: regular of type_length uint8 */
};

/** How decoded physical values are converted to the leaf's values. */
enum {
  JGI_PQC_NONE = 0, /* stored as read (width = out_width) */
  JGI_PQC_I8,       /* INT32 narrowed to 1 byte (INT_8, UINT_8) */
  JGI_PQC_I16,      /* INT32 narrowed to 2 bytes (INT_16, UINT_16) */
  JGI_PQC_INT96     /* 12-byte Impala timestamp to int64 nanoseconds since the epoch */
};

/** One node of the layout plan. OPTION and LIST nodes have one child (their content), RECORD
 *  nodes `nchildren` named fields, LEAF nodes none. */
typedef struct jgi_pq_field {
  int kind;
  const char *name;  /* the schema element's name (a record's field name) */
  int def, rep;      /* OPTION: present when def >= def; LIST: an element exists when def >= def,
                        and rep = its repetition level */
  int chain_pos;     /* OPTION, LIST: index in the leaves' chains; LEAF: the chain length */
  int list_depth;    /* lists above this node (its entries are the slots at this depth) */
  int nchildren;
  struct jgi_pq_field **children;
  int first_leaf, nleaves; /* the leaves under this node: [first_leaf, first_leaf + nleaves) */
  int leaf;                /* LEAF: its index */
} jgi_pq_field;

/** One OPTION or LIST node on a leaf's path from the root. */
typedef struct jgi_pq_chain {
  int kind; /* JGI_PQF_OPTION or JGI_PQF_LIST */
  int def, rep, list_depth;
} jgi_pq_chain;

/** A leaf column (one per column chunk of each row group, in schema order). */
typedef struct jgi_pq_leaf {
  char *path;       /* dotted path_in_schema, e.g. "Muon_pt.list.element" */
  char *field_path; /* dotted record-field names, e.g. "Muon_pt" or "Muon.pt" */
  const jgi_pq_schema_elem *elem;
  int physical, type_length;
  int max_def, max_rep;
  int value_kind;   /* JGI_PQV_* */
  int conversion;   /* JGI_PQC_* */
  int raw_width;    /* bytes of one stored value (BOOLEAN: 1 after decoding; BYTE_ARRAY: 0) */
  int out_width;    /* bytes of one output value (BYTE_ARRAY: 0) */
  jg_dtype dtype;   /* NUMERIC: the dtype; FIXED: uint8 or float16 (FLOAT16: NUMERIC) */
  int nchain;
  jgi_pq_chain chain[JGI_PQ_MAX_DEPTH];
  int top;          /* the top-level field it belongs to */
} jgi_pq_leaf;

/** The schema as a tree of fields over the file's metadata (which must outlive it). */
typedef struct jgi_pq_schema {
  jgi_pq_field *root; /* RECORD of the top-level fields */
  jgi_pq_leaf *leaves;
  int nleaves;
  void *arena; /* private to schema.c */
} jgi_pq_schema;

/** Builds the field tree of meta's schema list. JG_ECORRUPT for a malformed list (counts that
 *  do not add up, a group without children, a leaf without a type, a FIXED_LEN_BYTE_ARRAY
 *  without a length); JG_ENOTSUP for deeper than JGI_PQ_MAX_DEPTH levels or a type the reader
 *  does not map (the message names the column). JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_pq_schema_build(const jgi_pq_file_meta *meta, jgi_pq_schema *s,
                                         jg_error *err);
/** Frees what jgi_pq_schema_build made; NULL allowed. */
JGI_HIDDEN void jgi_pq_schema_reset(jgi_pq_schema *s);

/* ---- Column chunks (column.c) ------------------------------------------------------------ */

/** Where messages say they are: "<file>: column <path>, row group <g>, page <p>". */
typedef struct jgi_pq_where {
  const char *file;
  const char *column;
  int row_group;
  int page; /* -1: the chunk as a whole */
} jgi_pq_where;

/** One leaf column's decoded chunks, accumulated over row groups: levels (int16, absent when
 *  their maximum is 0) and the dense non-null values (converted to the leaf's output width; or,
 *  for BYTE_ARRAY, int64 offsets of nvalues + 1 entries starting at 0 and the bytes). Every
 *  buffer keeps JGI_PQ_PAD spare bytes past its size, so the branch-free spreading loops may
 *  read one value past the end. Zero-initialise; jgi_pq_column_data_reset frees. */
typedef struct jgi_pq_column_data {
  jgi_pq_buf rep, def;
  int64_t nlevels;
  jgi_pq_buf values;
  jgi_pq_buf offsets;
  int64_t nvalues;
  jgi_pq_buf page, raw; /* scratch of jgi_pq_column_read, kept from chunk to chunk */
} jgi_pq_column_data;

/** Empties *cd for the next leaf but keeps its buffers' memory (levels, values and offsets
 *  not taken by the assembly, the page scratch), so that the next leaf's decoding reuses
 *  pages already touched instead of faulting in fresh ones. */
JGI_HIDDEN void jgi_pq_column_data_clear(jgi_pq_column_data *cd);

#define JGI_PQ_PAD 64

/** Decodes the column chunk of `leaf` in row group `rg` of the file bytes data[0..size) (the
 *  region before the footer) and appends its levels and values to *cd. Pages are read from the
 *  dictionary page offset (or the first data page) over total_compressed_size, never past it:
 *  an optional dictionary page first, then data pages v1 and v2 (index pages skipped).
 *  Errors (the message names file, column, row group and page): JG_ECORRUPT (bounds, sizes,
 *  counts, levels above their maximum, values that do not decode, a page count that disagrees
 *  with the chunk's), JG_ENOTSUP (an encoding not defined for the type, an unknown encoding or
 *  codec, a chunk in another file, a page past the expansion limit), JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_pq_column_read(const uint8_t *data, size_t size,
                                        const jgi_pq_file_meta *meta, const jgi_pq_leaf *leaf,
                                        int leaf_index, int rg, const char *file,
                                        jgi_pq_column_data *cd, jg_error *err);
/** Frees the buffers of *cd and zeroes it; NULL allowed. */
JGI_HIDDEN void jgi_pq_column_data_reset(jgi_pq_column_data *cd);

/** Reserves room in *cd for the values of leaf's chunks in row groups [rg_begin, rg_end) as
 *  their metadata counts them, so that appending page after page does not move the buffers
 *  (realloc copies). A hint: counts above 64 a stored byte are not trusted and reserve
 *  nothing; chunks without metadata are skipped. Errors: JG_ENOMEM, JG_EOVERFLOW. */
JGI_HIDDEN jg_status jgi_pq_column_reserve(const jgi_pq_file_meta *meta, const jgi_pq_leaf *leaf,
                                           int leaf_index, int rg_begin, int rg_end,
                                           jgi_pq_column_data *cd, jg_error *err);

/** Entries of levels x[0..n) that are >= t, for levels and t in [0, 0x7fff]: four 16-bit lanes a
 *  64-bit word (bit 15 of x + 0x8000 - t), lane counts folded every 65535 words. */
static inline int64_t jgi_pq_count_ge(const int16_t *x, int64_t n, int t) {
  const uint64_t high = 0x8000800080008000ULL;
  const uint64_t add = (uint64_t)(0x8000 - t) * 0x0001000100010001ULL;
  int64_t total = 0, i = 0;
  while (n - i >= 4) {
    int64_t words = (n - i) / 4;
    if (words > 65535) words = 65535;
    uint64_t acc = 0;
    for (int64_t k = 0; k < words; k++, i += 4) {
      uint64_t w;
      memcpy(&w, x + i, 8);
      acc += ((w + add) & high) >> 15;
    }
    total += (int64_t)((acc & 0xffff) + (acc >> 16 & 0xffff) + (acc >> 32 & 0xffff) + (acc >> 48));
  }
  for (; i < n; i++) total += x[i] >= t;
  return total;
}

/* ---- Levels to layouts (assemble.c) ------------------------------------------------------ */

/** One leaf assembled: per chain node, its mask (OPTION: bool, `lengths[k]` entries) or offsets
 *  (LIST: int64, lengths[k] + 1 entries); then the values at the leaf's slots (nslots of them):
 *  NUMERIC and FIXED `values` (nslots * out_width bytes; nulls hold zeros), BYTES `offsets`
 *  (nslots + 1 int64, nulls empty) over `values` (the bytes, nbytes). Buffers come from the
 *  given resource, except values kept from the decoder (wrapped). */
typedef struct jgi_pq_assembled {
  int nchain;
  jg_buffer *chain_buf[JGI_PQ_MAX_DEPTH];
  int64_t lengths[JGI_PQ_MAX_DEPTH];
  jg_buffer *values;
  jg_buffer *offsets;
  int64_t nslots, nbytes;
} jgi_pq_assembled;

/** Turns cd's levels into the masks and offsets of leaf's chain and its values into slots, with
 *  `nrows` records expected. Buffers come from `mr` (NULL: the decoder's host memory is kept and
 *  handed over, the rest from jg_memory_resource_host()); *cd's value buffers may be taken
 *  (left empty). Errors: JG_ECORRUPT (another number of records than nrows, a list element
 *  continued before its list started, value and level counts that disagree), JG_ENOMEM and the
 *  resource's errors. The message names the column (`where`). */
JGI_HIDDEN jg_status jgi_pq_assemble(const jgi_pq_leaf *leaf, jgi_pq_column_data *cd,
                                     int64_t nrows, jg_memory_resource *mr,
                                     const jgi_pq_where *where, jgi_pq_assembled *out,
                                     jg_error *err);
/** jgi_pq_assemble through the generic loops only (one pass per depth and per chain node),
 *  never the fused single-pass loops of the common chains: the reference the tests compare
 *  the fused loops with. Same contract. */
JGI_HIDDEN jg_status jgi_pq_assemble_generic(const jgi_pq_leaf *leaf, jgi_pq_column_data *cd,
                                             int64_t nrows, jg_memory_resource *mr,
                                             const jgi_pq_where *where, jgi_pq_assembled *out,
                                             jg_error *err);
/** An empty assembly of `leaf` (every length 0), for the type of a file without reading it. */
JGI_HIDDEN jg_status jgi_pq_assemble_empty(const jgi_pq_leaf *leaf, jgi_pq_assembled *out,
                                           jg_error *err);
/** Releases the buffers of *a and zeroes it; NULL allowed. */
JGI_HIDDEN void jgi_pq_assembled_reset(jgi_pq_assembled *a);

/** A 1-D view of `n` elements of `dtype` over the start of `buf`. */
JGI_HIDDEN jg_status jgi_pq_view_1d(jg_buffer *buf, int64_t n, jg_dtype dtype, jg_view *v,
                                    jg_error *err);

/** The jagged array of field `f` from the assembled leaves (selected[leaf] true for those to
 *  keep; records keep only fields with a selected leaf), of `length` entries. Structure shared
 *  by several leaves (a record's option, its lists) is taken from the first selected leaf and
 *  compared with the others' (JG_ECORRUPT naming both columns when they differ). */
JGI_HIDDEN jg_status jgi_pq_build_array(const jgi_pq_field *f, const jgi_pq_schema *s,
                                        const jgi_pq_assembled *leaves, const bool *selected,
                                        int64_t length, const char *file, jg_array **out,
                                        jg_error *err);

/** The reader's status for what a corrupt file made a lower layer report: a layer that does
 *  not know that its input came from a file (an array constructor's JG_EINVAL, JG_ESHAPE,
 *  JG_EVALUE, JG_EINDEX or JG_EDTYPE, a decoder's JG_EINVAL, a count's JG_EOVERFLOW) becomes
 *  JG_ECORRUPT, its message prefixed with `where` (NULL: nothing) and ending with the original
 *  status's name; the reader's own statuses (JG_ECORRUPT, JG_EIO, JG_ENOMEM, JG_ENOTSUP) and
 *  the others (device errors, JG_EINTERNAL) pass unchanged. Returns the status. */
JGI_HIDDEN jg_status jgi_pq_as_corrupt(jg_status st, const char *where, jg_error *err);

#endif /* JAGGED_PQ_READER_H */
