/* metadata.c: Parquet's FileMetaData and PageHeader (parquet.thrift) read from and written to
 * the Thrift compact protocol (thrift.h), into and from the structs of jgi_parquet.h.
 *
 * Field ids are parquet.thrift's. Read: FileMetaData 1 version, 2 schema, 3 num_rows,
 * 4 row_groups, 5 key_value_metadata, 6 created_by; SchemaElement 1 type, 2 type_length,
 * 3 repetition_type, 4 name, 5 num_children, 6 converted_type, 7 scale, 8 precision, 9 field_id,
 * 10 logicalType; RowGroup 1 columns, 2 total_byte_size, 3 num_rows; ColumnChunk 1 file_path,
 * 2 file_offset, 3 meta_data; ColumnMetaData 1 type, 2 encodings, 3 path_in_schema, 4 codec,
 * 5 num_values, 6 total_uncompressed_size, 7 total_compressed_size, 9 data_page_offset,
 * 10 index_page_offset, 11 dictionary_page_offset; KeyValue 1 key, 2 value; PageHeader 1 type,
 * 2 uncompressed_page_size, 3 compressed_page_size, 4 crc, 5 data_page_header,
 * 7 dictionary_page_header, 8 data_page_header_v2. Everything else (statistics, column orders,
 * encoding stats, page indexes, bloom filters, sorting columns, encryption, ...) is skipped when
 * reading and not written. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/parquet/thrift.h"

/* ---- Arena --------------------------------------------------------------------------------- */

/* The metadata's memory: a list of zeroed chunks, bump-allocated; meta->arena is the head. A
 * request larger than a chunk gets a chunk of its own, linked behind the head. */
typedef struct arena_chunk {
  struct arena_chunk *next;
  size_t used, cap;
  max_align_t data[];
} arena_chunk;

enum { ARENA_CHUNK_BYTES = 64 * 1024 };

void *jgi_pq_meta_alloc(jgi_pq_file_meta *meta, size_t size) {
  const size_t align = _Alignof(max_align_t);
  if (size > SIZE_MAX - align - sizeof(arena_chunk)) return NULL;
  const size_t need = size == 0 ? align : (size + align - 1) / align * align;
  arena_chunk *head = meta->arena;
  if (head == NULL || head->cap - head->used < need) {
    const size_t cap = need > ARENA_CHUNK_BYTES ? need : ARENA_CHUNK_BYTES;
    arena_chunk *c = calloc(1, sizeof *c + cap);
    if (c == NULL) return NULL;
    c->cap = cap;
    if (head != NULL && need > ARENA_CHUNK_BYTES) {
      c->next = head->next;
      head->next = c;
      c->used = need;
      return c->data;
    }
    c->next = head;
    meta->arena = head = c;
  }
  void *p = (char *)head->data + head->used;
  head->used += need;
  return p;
}

char *jgi_pq_meta_strdup(jgi_pq_file_meta *meta, const char *s, size_t n) {
  if (n == (size_t)-1) n = strlen(s);
  if (n == SIZE_MAX) return NULL;
  char *d = jgi_pq_meta_alloc(meta, n + 1);
  if (d == NULL) return NULL;
  if (n > 0) memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

void jgi_pq_meta_reset(jgi_pq_file_meta *meta) {
  if (meta == NULL) return;
  arena_chunk *c = meta->arena;
  while (c != NULL) {
    arena_chunk *next = c->next;
    free(c);
    c = next;
  }
  memset(meta, 0, sizeof *meta);
}

/* ---- Names --------------------------------------------------------------------------------- */

const char *jgi_pq_codec_name(int codec) {
  switch (codec) {
    case JGI_PQ_UNCOMPRESSED:
      return "UNCOMPRESSED";
    case JGI_PQ_SNAPPY:
      return "SNAPPY";
    case JGI_PQ_GZIP:
      return "GZIP";
    case JGI_PQ_LZO:
      return "LZO";
    case JGI_PQ_BROTLI:
      return "BROTLI";
    case JGI_PQ_LZ4:
      return "LZ4";
    case JGI_PQ_ZSTD:
      return "ZSTD";
    case JGI_PQ_LZ4_RAW:
      return "LZ4_RAW";
    default:
      return "unknown";
  }
}

const char *jgi_pq_encoding_name(int encoding) {
  switch (encoding) {
    case JGI_PQ_PLAIN:
      return "PLAIN";
    case JGI_PQ_PLAIN_DICTIONARY:
      return "PLAIN_DICTIONARY";
    case JGI_PQ_RLE:
      return "RLE";
    case JGI_PQ_BIT_PACKED:
      return "BIT_PACKED";
    case JGI_PQ_DELTA_BINARY_PACKED:
      return "DELTA_BINARY_PACKED";
    case JGI_PQ_DELTA_LENGTH_BYTE_ARRAY:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case JGI_PQ_DELTA_BYTE_ARRAY:
      return "DELTA_BYTE_ARRAY";
    case JGI_PQ_RLE_DICTIONARY:
      return "RLE_DICTIONARY";
    case JGI_PQ_BYTE_STREAM_SPLIT:
      return "BYTE_STREAM_SPLIT";
    default:
      return "unknown";
  }
}

const char *jgi_pq_type_name(int type) {
  switch (type) {
    case JGI_PQ_BOOLEAN:
      return "BOOLEAN";
    case JGI_PQ_INT32:
      return "INT32";
    case JGI_PQ_INT64:
      return "INT64";
    case JGI_PQ_INT96:
      return "INT96";
    case JGI_PQ_FLOAT:
      return "FLOAT";
    case JGI_PQ_DOUBLE:
      return "DOUBLE";
    case JGI_PQ_BYTE_ARRAY:
      return "BYTE_ARRAY";
    case JGI_PQ_FIXED_LEN_BYTE_ARRAY:
      return "FIXED_LEN_BYTE_ARRAY";
    default:
      return "unknown";
  }
}

/* ---- Reading: typed field values ----------------------------------------------------------- */

typedef struct parser {
  jgi_tc_reader r;
  jgi_pq_file_meta *meta; /* NULL for page headers */
  jg_error *err;
} parser;

/* Prepends a formatted context ("row group 3") to err's message when st is an error. */
static jg_status prefixf(jg_status st, jg_error *err, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static jg_status prefixf(jg_status st, jg_error *err, const char *fmt, ...) {
  if (st == JG_OK || err == NULL) return st;
  char ctx[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx, sizeof ctx, fmt, ap);
  va_end(ap);
  return jgi_error_prefix(st, ctx, err);
}

static jg_status wrong_type(const parser *ps, const char *field, int got, const char *want) {
  const size_t at = jgi_tc_offset(&ps->r);
  return jg_error_set(ps->err, JG_ECORRUPT, (int64_t)at,
                      "%s: wire type %s, expected %s (before byte %zu)", field,
                      jgi_tc_type_name(got), want, at);
}

static jg_status missing(const parser *ps, const char *field) {
  return jg_error_set(ps->err, JG_ECORRUPT, -1, "%s: missing (a required field)", field);
}

static jg_status nomem(const parser *ps, const char *field) {
  return jg_error_set(ps->err, JG_ENOMEM, -1, "%s: out of memory", field);
}

static jg_status get_i32(parser *ps, int type, const char *field, int32_t *v) {
  if (type != JGI_TC_I32) return wrong_type(ps, field, type, "i32");
  return jgi_error_prefix(jgi_tc_read_i32(&ps->r, v, ps->err), field, ps->err);
}

static jg_status get_i64(parser *ps, int type, const char *field, int64_t *v) {
  if (type != JGI_TC_I64) return wrong_type(ps, field, type, "i64");
  return jgi_error_prefix(jgi_tc_read_i64(&ps->r, v, ps->err), field, ps->err);
}

/* An i32 size, count or enum: negative is corrupt. */
static jg_status get_nonneg_i32(parser *ps, int type, const char *field, int32_t *v) {
  JG_RETURN_NOT_OK(get_i32(ps, type, field, v));
  JG_RETURN_IF(*v < 0, JG_ECORRUPT, ps->err, "%s: %d is negative", field, (int)*v);
  return JG_OK;
}

static jg_status get_nonneg_int(parser *ps, int type, const char *field, int *v) {
  int32_t x;
  JG_RETURN_NOT_OK(get_nonneg_i32(ps, type, field, &x));
  *v = x;
  return JG_OK;
}

static jg_status get_nonneg_i64(parser *ps, int type, const char *field, int64_t *v) {
  JG_RETURN_NOT_OK(get_i64(ps, type, field, v));
  JG_RETURN_IF(*v < 0, JG_ECORRUPT, ps->err, "%s: %lld is negative", field, (long long)*v);
  return JG_OK;
}

/* A physical type: 0..7. */
static jg_status get_physical_type(parser *ps, int type, const char *field, int *v) {
  JG_RETURN_NOT_OK(get_nonneg_int(ps, type, field, v));
  JG_RETURN_IF(*v > JGI_PQ_FIXED_LEN_BYTE_ARRAY, JG_ECORRUPT, ps->err,
               "%s: %d is not a physical type of the spec (0..7)", field, *v);
  return JG_OK;
}

static jg_status get_bool(parser *ps, int type, const char *field, bool *v) {
  if (type != JGI_TC_TRUE && type != JGI_TC_FALSE) return wrong_type(ps, field, type, "bool");
  *v = type == JGI_TC_TRUE;
  return JG_OK;
}

static jg_status get_string(parser *ps, int type, const char *field, char **s) {
  if (type != JGI_TC_BINARY) return wrong_type(ps, field, type, "binary");
  const uint8_t *p;
  size_t n;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_tc_read_binary(&ps->r, &p, &n, ps->err), field, ps->err));
  *s = jgi_pq_meta_strdup(ps->meta, (const char *)p, n);
  return *s == NULL ? nomem(ps, field) : JG_OK;
}

/* A list (or set) field's header; its elements must be of compact type `elem`. */
static jg_status get_list(parser *ps, int type, const char *field, int elem, int32_t *n) {
  if (type != JGI_TC_LIST && type != JGI_TC_SET) return wrong_type(ps, field, type, "list");
  int et;
  JG_RETURN_NOT_OK(jgi_error_prefix(jgi_tc_read_list(&ps->r, &et, n, ps->err), field, ps->err));
  JG_RETURN_IF(et != elem, JG_ECORRUPT, ps->err, "%s: a list of %s, expected a list of %s", field,
               jgi_tc_type_name(et), jgi_tc_type_name(elem));
  return JG_OK;
}

/* Zeroed room for n elements of `size` bytes in the metadata's arena (n <= bytes left, checked
 * by the list header, so the allocation is bounded by the input's size). */
static jg_status alloc_array(parser *ps, const char *field, int32_t n, size_t size, void **out) {
  size_t bytes;
  JG_RETURN_IF(jgi_mul_overflow((size_t)n, size, &bytes), JG_EOVERFLOW, ps->err,
               "%s: %d elements overflow size_t", field, (int)n);
  *out = jgi_pq_meta_alloc(ps->meta, bytes);
  return *out == NULL ? nomem(ps, field) : JG_OK;
}

static jg_status skip_field(parser *ps, const char *strct, int16_t id, int type) {
  return prefixf(jgi_tc_skip(&ps->r, type, false, ps->err), ps->err, "%s field %d (%s)", strct,
                 (int)id, jgi_tc_type_name(type));
}

/* Opens a struct value of field `field` whose wire type is `type`. */
static jg_status open_struct(parser *ps, int type, const char *field, int16_t *last) {
  if (type != JGI_TC_STRUCT) return wrong_type(ps, field, type, "struct");
  return jgi_error_prefix(jgi_tc_struct_begin(&ps->r, last, ps->err), field, ps->err);
}

/* The next field of an open struct; *type is JGI_TC_STOP at its end. */
static jg_status next_field(parser *ps, const char *strct, int16_t *last, int *type, int16_t *id) {
  return jgi_error_prefix(jgi_tc_read_field(&ps->r, last, type, id, ps->err), strct, ps->err);
}

/* ---- Reading: logical types ---------------------------------------------------------------- */

static jg_status parse_decimal(parser *ps, int type, jgi_pq_logical *lt) {
  int16_t last, id;
  int t;
  bool has_scale = false, has_precision = false;
  JG_RETURN_NOT_OK(open_struct(ps, type, "LogicalType.DECIMAL", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "DecimalType", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    if (id == 1) {
      JG_RETURN_NOT_OK(get_nonneg_int(ps, t, "DecimalType.scale", &lt->scale));
      has_scale = true;
    } else if (id == 2) {
      JG_RETURN_NOT_OK(get_nonneg_int(ps, t, "DecimalType.precision", &lt->precision));
      has_precision = true;
    } else {
      JG_RETURN_NOT_OK(skip_field(ps, "DecimalType", id, t));
    }
  }
  if (!has_scale) return missing(ps, "DecimalType.scale");
  if (!has_precision) return missing(ps, "DecimalType.precision");
  return JG_OK;
}

/* TimeUnit: a union of three empty structs, MILLIS (1), MICROS (2), NANOS (3). */
static jg_status parse_time_unit(parser *ps, int type, const char *field, int *unit) {
  int16_t last, id;
  int t, members = 0;
  JG_RETURN_NOT_OK(open_struct(ps, type, field, &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "TimeUnit", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    JG_RETURN_IF(id < 1 || id > 3, JG_ECORRUPT, ps->err,
                 "%s: TimeUnit member %d is not MILLIS (1), MICROS (2) or NANOS (3)", field,
                 (int)id);
    if (t != JGI_TC_STRUCT) return wrong_type(ps, field, t, "struct");
    JG_RETURN_NOT_OK(skip_field(ps, "TimeUnit", id, t));
    *unit = id == 1 ? JGI_PQ_MILLIS : id == 2 ? JGI_PQ_MICROS : JGI_PQ_NANOS;
    members++;
  }
  JG_RETURN_IF(members != 1, JG_ECORRUPT, ps->err, "%s: TimeUnit has %d members set, not 1", field,
               members);
  return JG_OK;
}

/* TimeType and TimestampType: 1 isAdjustedToUTC, 2 unit. */
static jg_status parse_time(parser *ps, int type, const char *strct, jgi_pq_logical *lt) {
  int16_t last, id;
  int t;
  bool has_utc = false, has_unit = false;
  JG_RETURN_NOT_OK(open_struct(ps, type, strct, &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, strct, &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    if (id == 1) {
      JG_RETURN_NOT_OK(get_bool(ps, t, "isAdjustedToUTC", &lt->utc));
      has_utc = true;
    } else if (id == 2) {
      JG_RETURN_NOT_OK(prefixf(parse_time_unit(ps, t, "unit", &lt->unit), ps->err, "%s", strct));
      has_unit = true;
    } else {
      JG_RETURN_NOT_OK(skip_field(ps, strct, id, t));
    }
  }
  if (!has_utc) return prefixf(missing(ps, "isAdjustedToUTC"), ps->err, "%s", strct);
  if (!has_unit) return prefixf(missing(ps, "unit"), ps->err, "%s", strct);
  return JG_OK;
}

/* IntType: 1 bitWidth (i8), 2 isSigned. */
static jg_status parse_int_type(parser *ps, int type, jgi_pq_logical *lt) {
  int16_t last, id;
  int t;
  bool has_width = false, has_signed = false;
  JG_RETURN_NOT_OK(open_struct(ps, type, "LogicalType.INTEGER", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "IntType", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    if (id == 1) {
      if (t != JGI_TC_BYTE) return wrong_type(ps, "IntType.bitWidth", t, "i8");
      int8_t w;
      JG_RETURN_NOT_OK(jgi_tc_read_byte(&ps->r, &w, ps->err));
      JG_RETURN_IF(w != 8 && w != 16 && w != 32 && w != 64, JG_ECORRUPT, ps->err,
                   "IntType.bitWidth: %d is not 8, 16, 32 or 64", (int)w);
      lt->bit_width = w;
      has_width = true;
    } else if (id == 2) {
      JG_RETURN_NOT_OK(get_bool(ps, t, "IntType.isSigned", &lt->is_signed));
      has_signed = true;
    } else {
      JG_RETURN_NOT_OK(skip_field(ps, "IntType", id, t));
    }
  }
  if (!has_width) return missing(ps, "IntType.bitWidth");
  if (!has_signed) return missing(ps, "IntType.isSigned");
  return JG_OK;
}

/* LogicalType: a union; kind is the id of its member. A member this code does not know (VARIANT,
 * GEOMETRY, ...) keeps its id as kind and its content is skipped. */
static jg_status parse_logical(parser *ps, int type, jgi_pq_logical *lt) {
  int16_t last, id;
  int t, members = 0;
  memset(lt, 0, sizeof *lt);
  JG_RETURN_NOT_OK(open_struct(ps, type, "SchemaElement.logicalType", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "LogicalType", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    JG_RETURN_IF(id <= 0, JG_ECORRUPT, ps->err, "LogicalType: member %d is not in the spec",
                 (int)id);
    switch (id) {
      case JGI_PQ_LT_DECIMAL:
        JG_RETURN_NOT_OK(parse_decimal(ps, t, lt));
        break;
      case JGI_PQ_LT_TIME:
        JG_RETURN_NOT_OK(parse_time(ps, t, "TimeType", lt));
        break;
      case JGI_PQ_LT_TIMESTAMP:
        JG_RETURN_NOT_OK(parse_time(ps, t, "TimestampType", lt));
        break;
      case JGI_PQ_LT_INTEGER:
        JG_RETURN_NOT_OK(parse_int_type(ps, t, lt));
        break;
      default:
        if (t != JGI_TC_STRUCT) return wrong_type(ps, "LogicalType member", t, "struct");
        JG_RETURN_NOT_OK(skip_field(ps, "LogicalType", id, t));
    }
    lt->kind = id;
    members++;
  }
  JG_RETURN_IF(members > 1, JG_ECORRUPT, ps->err,
               "LogicalType: a union with %d members set (at most one)", members);
  return JG_OK;
}

/* ---- Reading: FileMetaData ----------------------------------------------------------------- */

static jg_status parse_schema_elem(parser *ps, jgi_pq_schema_elem *e) {
  int16_t last, id;
  int t;
  e->type = e->type_length = e->repetition = e->num_children = e->converted_type = -1;
  e->scale = e->precision = e->field_id = -1;
  JG_RETURN_NOT_OK(open_struct(ps, JGI_TC_STRUCT, "SchemaElement", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "SchemaElement", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1:
        st = get_physical_type(ps, t, "SchemaElement.type", &e->type);
        break;
      case 2:
        st = get_nonneg_int(ps, t, "SchemaElement.type_length", &e->type_length);
        break;
      case 3:
        st = get_nonneg_int(ps, t, "SchemaElement.repetition_type", &e->repetition);
        break;
      case 4:
        st = get_string(ps, t, "SchemaElement.name", &e->name);
        break;
      case 5:
        st = get_nonneg_int(ps, t, "SchemaElement.num_children", &e->num_children);
        break;
      case 6:
        st = get_nonneg_int(ps, t, "SchemaElement.converted_type", &e->converted_type);
        break;
      case 7:
        st = get_nonneg_int(ps, t, "SchemaElement.scale", &e->scale);
        break;
      case 8:
        st = get_nonneg_int(ps, t, "SchemaElement.precision", &e->precision);
        break;
      case 9: {
        int32_t v;
        st = get_i32(ps, t, "SchemaElement.field_id", &v);
        e->field_id = v;
        break;
      }
      case 10:
        st = parse_logical(ps, t, &e->logical);
        break;
      default:
        st = skip_field(ps, "SchemaElement", id, t);
    }
    JG_RETURN_NOT_OK(st);
  }
  if (e->name == NULL) return missing(ps, "SchemaElement.name");
  return JG_OK;
}

static jg_status parse_column_meta(parser *ps, int type, jgi_pq_column_meta *m) {
  int16_t last, id;
  int t;
  enum { TYPE = 1, CODEC = 2, PATH = 4, NVALUES = 8, USIZE = 16, CSIZE = 32, DATA = 64 };
  unsigned seen = 0;
  m->index_page_offset = m->dictionary_page_offset = -1;
  JG_RETURN_NOT_OK(open_struct(ps, type, "ColumnChunk.meta_data", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "ColumnMetaData", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1:
        st = get_physical_type(ps, t, "ColumnMetaData.type", &m->type);
        seen |= TYPE;
        break;
      case 2: {
        int32_t n;
        JG_RETURN_NOT_OK(get_list(ps, t, "ColumnMetaData.encodings", JGI_TC_I32, &n));
        void *a;
        JG_RETURN_NOT_OK(alloc_array(ps, "ColumnMetaData.encodings", n, sizeof(int), &a));
        m->encodings = a;
        m->nencodings = n;
        for (int32_t i = 0; i < n && st == JG_OK; i++) {
          st = get_nonneg_int(ps, JGI_TC_I32, "ColumnMetaData.encodings", &m->encodings[i]);
        }
        break;
      }
      case 3: {
        int32_t n;
        JG_RETURN_NOT_OK(get_list(ps, t, "ColumnMetaData.path_in_schema", JGI_TC_BINARY, &n));
        void *a;
        JG_RETURN_NOT_OK(alloc_array(ps, "ColumnMetaData.path_in_schema", n, sizeof(char *), &a));
        m->path = a;
        m->npath = n;
        for (int32_t i = 0; i < n && st == JG_OK; i++) {
          st = get_string(ps, JGI_TC_BINARY, "ColumnMetaData.path_in_schema", &m->path[i]);
        }
        seen |= PATH;
        break;
      }
      case 4:
        st = get_nonneg_int(ps, t, "ColumnMetaData.codec", &m->codec);
        seen |= CODEC;
        break;
      case 5:
        st = get_nonneg_i64(ps, t, "ColumnMetaData.num_values", &m->num_values);
        seen |= NVALUES;
        break;
      case 6:
        st = get_nonneg_i64(ps, t, "ColumnMetaData.total_uncompressed_size",
                            &m->total_uncompressed_size);
        seen |= USIZE;
        break;
      case 7:
        st = get_nonneg_i64(ps, t, "ColumnMetaData.total_compressed_size",
                            &m->total_compressed_size);
        seen |= CSIZE;
        break;
      case 9:
        st = get_nonneg_i64(ps, t, "ColumnMetaData.data_page_offset", &m->data_page_offset);
        seen |= DATA;
        break;
      case 10:
        st = get_nonneg_i64(ps, t, "ColumnMetaData.index_page_offset", &m->index_page_offset);
        break;
      case 11:
        st = get_nonneg_i64(ps, t, "ColumnMetaData.dictionary_page_offset",
                            &m->dictionary_page_offset);
        break;
      default:
        st = skip_field(ps, "ColumnMetaData", id, t);
    }
    JG_RETURN_NOT_OK(st);
  }
  if (!(seen & TYPE)) return missing(ps, "ColumnMetaData.type");
  if (!(seen & PATH)) return missing(ps, "ColumnMetaData.path_in_schema");
  if (!(seen & CODEC)) return missing(ps, "ColumnMetaData.codec");
  if (!(seen & NVALUES)) return missing(ps, "ColumnMetaData.num_values");
  if (!(seen & USIZE)) return missing(ps, "ColumnMetaData.total_uncompressed_size");
  if (!(seen & CSIZE)) return missing(ps, "ColumnMetaData.total_compressed_size");
  if (!(seen & DATA)) return missing(ps, "ColumnMetaData.data_page_offset");
  return JG_OK;
}

static jg_status parse_column_chunk(parser *ps, jgi_pq_column_chunk *c) {
  int16_t last, id;
  int t;
  JG_RETURN_NOT_OK(open_struct(ps, JGI_TC_STRUCT, "ColumnChunk", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "ColumnChunk", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1:
        st = get_string(ps, t, "ColumnChunk.file_path", &c->file_path);
        break;
      case 2:
        st = get_i64(ps, t, "ColumnChunk.file_offset", &c->file_offset);
        break;
      case 3:
        st = parse_column_meta(ps, t, &c->meta);
        c->has_meta = true;
        break;
      default:
        st = skip_field(ps, "ColumnChunk", id, t);
    }
    JG_RETURN_NOT_OK(st);
  }
  return JG_OK;
}

static jg_status parse_row_group(parser *ps, jgi_pq_row_group *g) {
  int16_t last, id;
  int t;
  bool has_columns = false, has_rows = false;
  JG_RETURN_NOT_OK(open_struct(ps, JGI_TC_STRUCT, "RowGroup", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "RowGroup", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1: {
        int32_t n;
        void *a;
        JG_RETURN_NOT_OK(get_list(ps, t, "RowGroup.columns", JGI_TC_STRUCT, &n));
        JG_RETURN_NOT_OK(alloc_array(ps, "RowGroup.columns", n, sizeof *g->columns, &a));
        g->columns = a;
        g->ncolumns = n;
        for (int32_t i = 0; i < n && st == JG_OK; i++) {
          st = prefixf(parse_column_chunk(ps, &g->columns[i]), ps->err, "column chunk %d", (int)i);
        }
        has_columns = true;
        break;
      }
      case 2:
        st = get_nonneg_i64(ps, t, "RowGroup.total_byte_size", &g->total_byte_size);
        break;
      case 3:
        st = get_nonneg_i64(ps, t, "RowGroup.num_rows", &g->num_rows);
        has_rows = true;
        break;
      default:
        st = skip_field(ps, "RowGroup", id, t);
    }
    JG_RETURN_NOT_OK(st);
  }
  if (!has_columns) return missing(ps, "RowGroup.columns");
  if (!has_rows) return missing(ps, "RowGroup.num_rows");
  return JG_OK;
}

static jg_status parse_key_value(parser *ps, jgi_pq_key_value *kv) {
  int16_t last, id;
  int t;
  JG_RETURN_NOT_OK(open_struct(ps, JGI_TC_STRUCT, "KeyValue", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "KeyValue", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1:
        st = get_string(ps, t, "KeyValue.key", &kv->key);
        break;
      case 2:
        st = get_string(ps, t, "KeyValue.value", &kv->value);
        break;
      default:
        st = skip_field(ps, "KeyValue", id, t);
    }
    JG_RETURN_NOT_OK(st);
  }
  if (kv->key == NULL) return missing(ps, "KeyValue.key");
  return JG_OK;
}

static jg_status parse_file_meta(parser *ps) {
  jgi_pq_file_meta *m = ps->meta;
  int16_t last, id;
  int t;
  bool has_schema = false, has_rows = false, has_groups = false;
  JG_RETURN_NOT_OK(open_struct(ps, JGI_TC_STRUCT, "FileMetaData", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "FileMetaData", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    int32_t n;
    void *a;
    switch (id) {
      case 1:
        st = get_i32(ps, t, "FileMetaData.version", &m->version);
        break;
      case 2:
        JG_RETURN_NOT_OK(get_list(ps, t, "FileMetaData.schema", JGI_TC_STRUCT, &n));
        JG_RETURN_NOT_OK(alloc_array(ps, "FileMetaData.schema", n, sizeof *m->schema, &a));
        m->schema = a;
        m->nschema = n;
        for (int32_t i = 0; i < n && st == JG_OK; i++) {
          st = prefixf(parse_schema_elem(ps, &m->schema[i]), ps->err, "schema element %d", (int)i);
        }
        has_schema = true;
        break;
      case 3:
        st = get_nonneg_i64(ps, t, "FileMetaData.num_rows", &m->num_rows);
        has_rows = true;
        break;
      case 4:
        JG_RETURN_NOT_OK(get_list(ps, t, "FileMetaData.row_groups", JGI_TC_STRUCT, &n));
        JG_RETURN_NOT_OK(alloc_array(ps, "FileMetaData.row_groups", n, sizeof *m->row_groups, &a));
        m->row_groups = a;
        m->nrow_groups = n;
        for (int32_t i = 0; i < n && st == JG_OK; i++) {
          st = prefixf(parse_row_group(ps, &m->row_groups[i]), ps->err, "row group %d", (int)i);
        }
        has_groups = true;
        break;
      case 5:
        JG_RETURN_NOT_OK(get_list(ps, t, "FileMetaData.key_value_metadata", JGI_TC_STRUCT, &n));
        JG_RETURN_NOT_OK(alloc_array(ps, "FileMetaData.key_value_metadata", n, sizeof *m->kv, &a));
        m->kv = a;
        m->nkv = n;
        for (int32_t i = 0; i < n && st == JG_OK; i++) {
          st = prefixf(parse_key_value(ps, &m->kv[i]), ps->err, "key_value_metadata %d", (int)i);
        }
        break;
      case 6:
        st = get_string(ps, t, "FileMetaData.created_by", &m->created_by);
        break;
      default:
        st = skip_field(ps, "FileMetaData", id, t);
    }
    JG_RETURN_NOT_OK(st);
  }
  if (!has_schema) return missing(ps, "FileMetaData.schema");
  if (!has_rows) return missing(ps, "FileMetaData.num_rows");
  if (!has_groups) return missing(ps, "FileMetaData.row_groups");
  JG_RETURN_IF(m->nschema == 0, JG_ECORRUPT, ps->err,
               "FileMetaData.schema: empty (the root element is required)");
  return JG_OK;
}

jg_status jgi_pq_meta_parse(const uint8_t *buf, size_t n, jgi_pq_file_meta *meta, jg_error *err) {
  parser ps = {.meta = meta, .err = err};
  jgi_tc_reader_init(&ps.r, buf, n);
  jg_status st = parse_file_meta(&ps);
  if (st != JG_OK) {
    jgi_pq_meta_reset(meta);
    return jgi_error_prefix(st, "Parquet footer", err);
  }
  return JG_OK;
}

/* ---- Reading: PageHeader ------------------------------------------------------------------- */

static jg_status parse_data_page_v1(parser *ps, int type, jgi_pq_page_header *h) {
  int16_t last, id;
  int t;
  unsigned seen = 0;
  JG_RETURN_NOT_OK(open_struct(ps, type, "PageHeader.data_page_header", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "DataPageHeader", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1:
        st = get_nonneg_i32(ps, t, "DataPageHeader.num_values", &h->v1.num_values);
        break;
      case 2:
        st = get_nonneg_int(ps, t, "DataPageHeader.encoding", &h->v1.encoding);
        break;
      case 3:
        st = get_nonneg_int(ps, t, "DataPageHeader.definition_level_encoding", &h->v1.def_encoding);
        break;
      case 4:
        st = get_nonneg_int(ps, t, "DataPageHeader.repetition_level_encoding", &h->v1.rep_encoding);
        break;
      default:
        st = skip_field(ps, "DataPageHeader", id, t);
    }
    JG_RETURN_NOT_OK(st);
    if (id >= 1 && id <= 4) seen |= 1u << id;
  }
  if (!(seen & 2)) return missing(ps, "DataPageHeader.num_values");
  if (!(seen & 4)) return missing(ps, "DataPageHeader.encoding");
  if (!(seen & 8)) return missing(ps, "DataPageHeader.definition_level_encoding");
  if (!(seen & 16)) return missing(ps, "DataPageHeader.repetition_level_encoding");
  return JG_OK;
}

static jg_status parse_dict_page(parser *ps, int type, jgi_pq_page_header *h) {
  int16_t last, id;
  int t;
  unsigned seen = 0;
  JG_RETURN_NOT_OK(open_struct(ps, type, "PageHeader.dictionary_page_header", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "DictionaryPageHeader", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1:
        st = get_nonneg_i32(ps, t, "DictionaryPageHeader.num_values", &h->dict.num_values);
        break;
      case 2:
        st = get_nonneg_int(ps, t, "DictionaryPageHeader.encoding", &h->dict.encoding);
        break;
      case 3:
        st = get_bool(ps, t, "DictionaryPageHeader.is_sorted", &h->dict.is_sorted);
        break;
      default:
        st = skip_field(ps, "DictionaryPageHeader", id, t);
    }
    JG_RETURN_NOT_OK(st);
    if (id >= 1 && id <= 2) seen |= 1u << id;
  }
  if (!(seen & 2)) return missing(ps, "DictionaryPageHeader.num_values");
  if (!(seen & 4)) return missing(ps, "DictionaryPageHeader.encoding");
  return JG_OK;
}

static jg_status parse_data_page_v2(parser *ps, int type, jgi_pq_page_header *h) {
  static const char *const names[7] = {
      NULL,
      "DataPageHeaderV2.num_values",
      "DataPageHeaderV2.num_nulls",
      "DataPageHeaderV2.num_rows",
      "DataPageHeaderV2.encoding",
      "DataPageHeaderV2.definition_levels_byte_length",
      "DataPageHeaderV2.repetition_levels_byte_length",
  };
  int16_t last, id;
  int t;
  unsigned seen = 0;
  JG_RETURN_NOT_OK(open_struct(ps, type, "PageHeader.data_page_header_v2", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "DataPageHeaderV2", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1:
        st = get_nonneg_i32(ps, t, names[1], &h->v2.num_values);
        break;
      case 2:
        st = get_nonneg_i32(ps, t, names[2], &h->v2.num_nulls);
        break;
      case 3:
        st = get_nonneg_i32(ps, t, names[3], &h->v2.num_rows);
        break;
      case 4:
        st = get_nonneg_int(ps, t, names[4], &h->v2.encoding);
        break;
      case 5:
        st = get_nonneg_i32(ps, t, names[5], &h->v2.def_bytes);
        break;
      case 6:
        st = get_nonneg_i32(ps, t, names[6], &h->v2.rep_bytes);
        break;
      case 7:
        st = get_bool(ps, t, "DataPageHeaderV2.is_compressed", &h->v2.is_compressed);
        break;
      default:
        st = skip_field(ps, "DataPageHeaderV2", id, t);
    }
    JG_RETURN_NOT_OK(st);
    if (id >= 1 && id <= 6) seen |= 1u << id;
  }
  for (int i = 1; i <= 6; i++) {
    if (!(seen & (1u << i))) return missing(ps, names[i]);
  }
  return JG_OK;
}

static jg_status parse_page_header(parser *ps, jgi_pq_page_header *h) {
  int16_t last, id;
  int t;
  bool has_type = false, has_usize = false, has_csize = false;
  bool has_v1 = false, has_dict = false, has_v2 = false;
  JG_RETURN_NOT_OK(open_struct(ps, JGI_TC_STRUCT, "PageHeader", &last));
  for (;;) {
    JG_RETURN_NOT_OK(next_field(ps, "PageHeader", &last, &t, &id));
    if (t == JGI_TC_STOP) break;
    jg_status st = JG_OK;
    switch (id) {
      case 1:
        st = get_nonneg_int(ps, t, "PageHeader.type", &h->type);
        has_type = true;
        break;
      case 2:
        st = get_nonneg_i32(ps, t, "PageHeader.uncompressed_page_size", &h->uncompressed_size);
        has_usize = true;
        break;
      case 3:
        st = get_nonneg_i32(ps, t, "PageHeader.compressed_page_size", &h->compressed_size);
        has_csize = true;
        break;
      case 4:
        st = get_i32(ps, t, "PageHeader.crc", &h->crc);
        h->has_crc = true;
        break;
      case 5:
        st = parse_data_page_v1(ps, t, h);
        has_v1 = true;
        break;
      case 7:
        st = parse_dict_page(ps, t, h);
        has_dict = true;
        break;
      case 8:
        st = parse_data_page_v2(ps, t, h);
        has_v2 = true;
        break;
      default:
        st = skip_field(ps, "PageHeader", id, t);
    }
    JG_RETURN_NOT_OK(st);
  }
  if (!has_type) return missing(ps, "PageHeader.type");
  if (!has_usize) return missing(ps, "PageHeader.uncompressed_page_size");
  if (!has_csize) return missing(ps, "PageHeader.compressed_page_size");
  JG_RETURN_IF(h->type == JGI_PQ_DATA_PAGE && !has_v1, JG_ECORRUPT, ps->err,
               "PageHeader: a DATA_PAGE without its data_page_header");
  JG_RETURN_IF(h->type == JGI_PQ_DICTIONARY_PAGE && !has_dict, JG_ECORRUPT, ps->err,
               "PageHeader: a DICTIONARY_PAGE without its dictionary_page_header");
  JG_RETURN_IF(h->type == JGI_PQ_DATA_PAGE_V2 && !has_v2, JG_ECORRUPT, ps->err,
               "PageHeader: a DATA_PAGE_V2 without its data_page_header_v2");
  /* Only the member of the page's type is kept. */
  if (h->type != JGI_PQ_DATA_PAGE) memset(&h->v1, 0, sizeof h->v1);
  if (h->type != JGI_PQ_DICTIONARY_PAGE) memset(&h->dict, 0, sizeof h->dict);
  if (h->type != JGI_PQ_DATA_PAGE_V2) memset(&h->v2, 0, sizeof h->v2);
  return JG_OK;
}

jg_status jgi_pq_page_header_parse(const uint8_t *buf, size_t n, jgi_pq_page_header *h,
                                   size_t *header_size, jg_error *err) {
  parser ps = {.meta = NULL, .err = err};
  jgi_tc_reader_init(&ps.r, buf, n);
  memset(h, 0, sizeof *h);
  h->v2.is_compressed = true;
  jg_status st = parse_page_header(&ps, h);
  if (st != JG_OK) return jgi_error_prefix(st, "page header", err);
  *header_size = jgi_tc_offset(&ps.r);
  return JG_OK;
}

/* ---- Writing ------------------------------------------------------------------------------- */

static void write_logical(jgi_tc_writer *w, const jgi_pq_logical *lt) {
  jgi_tc_write_field(w, 10, JGI_TC_STRUCT); /* SchemaElement.logicalType */
  jgi_tc_write_struct_begin(w);
  jgi_tc_write_field(w, (int16_t)lt->kind, JGI_TC_STRUCT);
  jgi_tc_write_struct_begin(w);
  switch (lt->kind) {
    case JGI_PQ_LT_DECIMAL:
      jgi_tc_write_field_i32(w, 1, lt->scale);
      jgi_tc_write_field_i32(w, 2, lt->precision);
      break;
    case JGI_PQ_LT_TIME:
    case JGI_PQ_LT_TIMESTAMP:
      jgi_tc_write_field_bool(w, 1, lt->utc);
      jgi_tc_write_field(w, 2, JGI_TC_STRUCT); /* unit: TimeUnit */
      jgi_tc_write_struct_begin(w);
      jgi_tc_write_field(w, (int16_t)(lt->unit + 1), JGI_TC_STRUCT); /* MILLIS 1, ... */
      jgi_tc_write_struct_begin(w);
      jgi_tc_write_struct_end(w);
      jgi_tc_write_struct_end(w);
      break;
    case JGI_PQ_LT_INTEGER:
      jgi_tc_write_field(w, 1, JGI_TC_BYTE);
      jgi_tc_write_byte(w, (int8_t)lt->bit_width);
      jgi_tc_write_field_bool(w, 2, lt->is_signed);
      break;
    default:
      break; /* the other members are empty structs */
  }
  jgi_tc_write_struct_end(w);
  jgi_tc_write_struct_end(w);
}

static void write_schema_elem(jgi_tc_writer *w, const jgi_pq_schema_elem *e) {
  jgi_tc_write_struct_begin(w);
  if (e->type >= 0) jgi_tc_write_field_i32(w, 1, e->type);
  if (e->type_length >= 0) jgi_tc_write_field_i32(w, 2, e->type_length);
  if (e->repetition >= 0) jgi_tc_write_field_i32(w, 3, e->repetition);
  jgi_tc_write_field_string(w, 4, e->name != NULL ? e->name : "");
  if (e->num_children >= 0) jgi_tc_write_field_i32(w, 5, e->num_children);
  if (e->converted_type >= 0) jgi_tc_write_field_i32(w, 6, e->converted_type);
  if (e->scale >= 0) jgi_tc_write_field_i32(w, 7, e->scale);
  if (e->precision >= 0) jgi_tc_write_field_i32(w, 8, e->precision);
  if (e->field_id >= 0) jgi_tc_write_field_i32(w, 9, e->field_id);
  if (e->logical.kind != JGI_PQ_LT_NONE) write_logical(w, &e->logical);
  jgi_tc_write_struct_end(w);
}

static void write_column_meta(jgi_tc_writer *w, const jgi_pq_column_meta *m) {
  jgi_tc_write_field(w, 3, JGI_TC_STRUCT); /* ColumnChunk.meta_data */
  jgi_tc_write_struct_begin(w);
  jgi_tc_write_field_i32(w, 1, m->type);
  jgi_tc_write_field(w, 2, JGI_TC_LIST);
  jgi_tc_write_list(w, JGI_TC_I32, m->nencodings);
  for (int i = 0; i < m->nencodings; i++) jgi_tc_write_i64(w, m->encodings[i]);
  jgi_tc_write_field(w, 3, JGI_TC_LIST);
  jgi_tc_write_list(w, JGI_TC_BINARY, m->npath);
  for (int i = 0; i < m->npath; i++) jgi_tc_write_binary(w, m->path[i], strlen(m->path[i]));
  jgi_tc_write_field_i32(w, 4, m->codec);
  jgi_tc_write_field_i64(w, 5, m->num_values);
  jgi_tc_write_field_i64(w, 6, m->total_uncompressed_size);
  jgi_tc_write_field_i64(w, 7, m->total_compressed_size);
  jgi_tc_write_field_i64(w, 9, m->data_page_offset);
  if (m->index_page_offset >= 0) jgi_tc_write_field_i64(w, 10, m->index_page_offset);
  if (m->dictionary_page_offset >= 0) jgi_tc_write_field_i64(w, 11, m->dictionary_page_offset);
  jgi_tc_write_struct_end(w);
}

static void write_row_group(jgi_tc_writer *w, const jgi_pq_row_group *g) {
  jgi_tc_write_struct_begin(w);
  jgi_tc_write_field(w, 1, JGI_TC_LIST);
  jgi_tc_write_list(w, JGI_TC_STRUCT, g->ncolumns);
  for (int i = 0; i < g->ncolumns; i++) {
    const jgi_pq_column_chunk *c = &g->columns[i];
    jgi_tc_write_struct_begin(w);
    if (c->file_path != NULL) jgi_tc_write_field_string(w, 1, c->file_path);
    jgi_tc_write_field_i64(w, 2, c->file_offset);
    if (c->has_meta) write_column_meta(w, &c->meta);
    jgi_tc_write_struct_end(w);
  }
  jgi_tc_write_field_i64(w, 2, g->total_byte_size);
  jgi_tc_write_field_i64(w, 3, g->num_rows);
  jgi_tc_write_struct_end(w);
}

jg_status jgi_pq_meta_write(const jgi_pq_file_meta *meta, jgi_pq_buf *out, jg_error *err) {
  jgi_tc_writer w;
  jgi_tc_writer_init(&w, out, err);
  jgi_tc_write_struct_begin(&w);
  jgi_tc_write_field_i32(&w, 1, meta->version);
  jgi_tc_write_field(&w, 2, JGI_TC_LIST);
  jgi_tc_write_list(&w, JGI_TC_STRUCT, meta->nschema);
  for (int i = 0; i < meta->nschema; i++) write_schema_elem(&w, &meta->schema[i]);
  jgi_tc_write_field_i64(&w, 3, meta->num_rows);
  jgi_tc_write_field(&w, 4, JGI_TC_LIST);
  jgi_tc_write_list(&w, JGI_TC_STRUCT, meta->nrow_groups);
  for (int i = 0; i < meta->nrow_groups; i++) write_row_group(&w, &meta->row_groups[i]);
  if (meta->nkv > 0) {
    jgi_tc_write_field(&w, 5, JGI_TC_LIST);
    jgi_tc_write_list(&w, JGI_TC_STRUCT, meta->nkv);
    for (int i = 0; i < meta->nkv; i++) {
      jgi_tc_write_struct_begin(&w);
      jgi_tc_write_field_string(&w, 1, meta->kv[i].key != NULL ? meta->kv[i].key : "");
      if (meta->kv[i].value != NULL) jgi_tc_write_field_string(&w, 2, meta->kv[i].value);
      jgi_tc_write_struct_end(&w);
    }
  }
  if (meta->created_by != NULL) jgi_tc_write_field_string(&w, 6, meta->created_by);
  jgi_tc_write_struct_end(&w);
  return jgi_error_prefix(jgi_tc_writer_status(&w), "writing the Parquet footer", err);
}

jg_status jgi_pq_page_header_write(const jgi_pq_page_header *h, jgi_pq_buf *out, jg_error *err) {
  jgi_tc_writer w;
  jgi_tc_writer_init(&w, out, err);
  jgi_tc_write_struct_begin(&w);
  jgi_tc_write_field_i32(&w, 1, h->type);
  jgi_tc_write_field_i32(&w, 2, h->uncompressed_size);
  jgi_tc_write_field_i32(&w, 3, h->compressed_size);
  if (h->has_crc) jgi_tc_write_field_i32(&w, 4, h->crc);
  switch (h->type) {
    case JGI_PQ_DATA_PAGE:
      jgi_tc_write_field(&w, 5, JGI_TC_STRUCT);
      jgi_tc_write_struct_begin(&w);
      jgi_tc_write_field_i32(&w, 1, h->v1.num_values);
      jgi_tc_write_field_i32(&w, 2, h->v1.encoding);
      jgi_tc_write_field_i32(&w, 3, h->v1.def_encoding);
      jgi_tc_write_field_i32(&w, 4, h->v1.rep_encoding);
      jgi_tc_write_struct_end(&w);
      break;
    case JGI_PQ_INDEX_PAGE:
      jgi_tc_write_field(&w, 6, JGI_TC_STRUCT);
      jgi_tc_write_struct_begin(&w);
      jgi_tc_write_struct_end(&w);
      break;
    case JGI_PQ_DICTIONARY_PAGE:
      jgi_tc_write_field(&w, 7, JGI_TC_STRUCT);
      jgi_tc_write_struct_begin(&w);
      jgi_tc_write_field_i32(&w, 1, h->dict.num_values);
      jgi_tc_write_field_i32(&w, 2, h->dict.encoding);
      if (h->dict.is_sorted) jgi_tc_write_field_bool(&w, 3, true);
      jgi_tc_write_struct_end(&w);
      break;
    case JGI_PQ_DATA_PAGE_V2:
      jgi_tc_write_field(&w, 8, JGI_TC_STRUCT);
      jgi_tc_write_struct_begin(&w);
      jgi_tc_write_field_i32(&w, 1, h->v2.num_values);
      jgi_tc_write_field_i32(&w, 2, h->v2.num_nulls);
      jgi_tc_write_field_i32(&w, 3, h->v2.num_rows);
      jgi_tc_write_field_i32(&w, 4, h->v2.encoding);
      jgi_tc_write_field_i32(&w, 5, h->v2.def_bytes);
      jgi_tc_write_field_i32(&w, 6, h->v2.rep_bytes);
      jgi_tc_write_field_bool(&w, 7, h->v2.is_compressed);
      jgi_tc_write_struct_end(&w);
      break;
    default:
      break;
  }
  jgi_tc_write_struct_end(&w);
  return jgi_error_prefix(jgi_tc_writer_status(&w), "writing a page header", err);
}
