/* thrift.h: the Thrift compact protocol, as Parquet uses it for its footer and page headers
 * (internal to src/io/parquet/).
 *
 * Spec: Apache Thrift, doc/specs/thrift-compact-protocol.md. Integers other than i8 are zigzag
 * varints (ULEB128 of (n << 1) ^ (n >> 63)); i8 is one byte; double is 8 bytes little-endian;
 * binary and string are a varint length and the bytes. A struct is a sequence of fields ended by a
 * STOP byte (0); a field header is one byte, the field id's delta from the previous field of the
 * same struct (1..15) in the high nibble and the type in the low nibble, or, with a high nibble of
 * 0, the type followed by the id as a zigzag varint (the "long form"). A boolean field carries its
 * value in the type (1 true, 2 false) and has no value bytes. A list or set starts with one byte,
 * size (0..14) in the high nibble and element type in the low nibble, or 15 in the high nibble and
 * the size as a varint after; a boolean element is one byte. A map is a varint size and, when the
 * size is not 0, one byte of key type (high nibble) and value type (low nibble).
 *
 * The reader works over (pointer, size) and never reads past the end: a value that runs past it,
 * a varint longer than 10 bytes, a length or count larger than the bytes left, an unknown type or
 * nesting deeper than JGI_TC_MAX_DEPTH is JG_ECORRUPT with a message giving the byte offset. The
 * writer appends to a jgi_pq_buf and keeps the first failure (JG_ENOMEM, ...) so that a sequence
 * of writes is checked once at the end. */
#ifndef JAGGED_IO_PARQUET_THRIFT_H
#define JAGGED_IO_PARQUET_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal/jgi_parquet.h"

/** Compact protocol types (field header low nibble, list element types). */
enum {
  JGI_TC_STOP = 0,
  JGI_TC_TRUE = 1, /* a boolean field whose value is true; in lists: the boolean element type */
  JGI_TC_FALSE = 2,
  JGI_TC_BYTE = 3,
  JGI_TC_I16 = 4,
  JGI_TC_I32 = 5,
  JGI_TC_I64 = 6,
  JGI_TC_DOUBLE = 7,
  JGI_TC_BINARY = 8,
  JGI_TC_LIST = 9,
  JGI_TC_SET = 10,
  JGI_TC_MAP = 11,
  JGI_TC_STRUCT = 12,
  JGI_TC_UUID = 13
};

/** Most structs and containers open at once, in the reader and in the writer. */
#define JGI_TC_MAX_DEPTH 64

/** The name of a compact type ("i32", "struct", ...), for messages; "unknown" otherwise. */
JGI_HIDDEN const char *jgi_tc_type_name(int type);

/* ---- Reader ------------------------------------------------------------------------------- */

/** A bounded reader over buf[0..n). Initialise with jgi_tc_reader_init. */
typedef struct jgi_tc_reader {
  const uint8_t *base, *p, *end;
  int depth; /* structs and containers open */
} jgi_tc_reader;

/** Starts reading buf[0..n) (buf may be NULL when n is 0). */
JGI_HIDDEN void jgi_tc_reader_init(jgi_tc_reader *r, const uint8_t *buf, size_t n);

/** Bytes consumed so far. */
static inline size_t jgi_tc_offset(const jgi_tc_reader *r) {
  return (size_t)(r->p - r->base);
}

/** Bytes left. */
static inline size_t jgi_tc_left(const jgi_tc_reader *r) {
  return (size_t)(r->end - r->p);
}

/** An unsigned ULEB128 varint of at most 10 bytes (64 bits). */
JGI_HIDDEN jg_status jgi_tc_read_varint(jgi_tc_reader *r, uint64_t *v, jg_error *err);
/** Zigzag varints: i64, and i32 / i16 (a value outside the type's range is JG_ECORRUPT). */
JGI_HIDDEN jg_status jgi_tc_read_i64(jgi_tc_reader *r, int64_t *v, jg_error *err);
JGI_HIDDEN jg_status jgi_tc_read_i32(jgi_tc_reader *r, int32_t *v, jg_error *err);
JGI_HIDDEN jg_status jgi_tc_read_i16(jgi_tc_reader *r, int16_t *v, jg_error *err);
/** One byte as i8. */
JGI_HIDDEN jg_status jgi_tc_read_byte(jgi_tc_reader *r, int8_t *v, jg_error *err);
/** 8 bytes, little-endian IEEE 754. */
JGI_HIDDEN jg_status jgi_tc_read_double(jgi_tc_reader *r, double *v, jg_error *err);
/** A binary or string: *p points into the reader's buffer (not NUL-terminated), *n bytes. */
JGI_HIDDEN jg_status jgi_tc_read_binary(jgi_tc_reader *r, const uint8_t **p, size_t *n,
                                        jg_error *err);

/** Opens a struct: checks the depth and sets *last_id to 0 (the field-id delta's base). */
JGI_HIDDEN jg_status jgi_tc_struct_begin(jgi_tc_reader *r, int16_t *last_id, jg_error *err);
/** Reads the next field header of the open struct: *type is its compact type (JGI_TC_TRUE or
 *  JGI_TC_FALSE for a boolean, the value), *id its field id. At the STOP byte *type is
 *  JGI_TC_STOP and the struct is closed. */
JGI_HIDDEN jg_status jgi_tc_read_field(jgi_tc_reader *r, int16_t *last_id, int *type, int16_t *id,
                                       jg_error *err);
/** Reads a list or set header: element type and size (0 <= size <= bytes left, since every
 *  element takes at least one byte). Does not change the depth. */
JGI_HIDDEN jg_status jgi_tc_read_list(jgi_tc_reader *r, int *elem_type, int32_t *size,
                                      jg_error *err);
/** Skips one value of compact type `type`: a field's value (booleans have none) when
 *  in_container is false, a list, set or map element (booleans are one byte) when true. Nested
 *  structs and containers count toward the depth limit. */
JGI_HIDDEN jg_status jgi_tc_skip(jgi_tc_reader *r, int type, bool in_container, jg_error *err);

/* ---- Writer ------------------------------------------------------------------------------- */

/** Appends compact protocol to *out. The first failure is kept in `status` (and err); later
 *  writes do nothing. Initialise with jgi_tc_writer_init; check jgi_tc_writer_status at the end. */
typedef struct jgi_tc_writer {
  jgi_pq_buf *out;
  jg_error *err;
  jg_status status;
  int depth;
  int16_t last_id[JGI_TC_MAX_DEPTH + 1];
} jgi_tc_writer;

JGI_HIDDEN void jgi_tc_writer_init(jgi_tc_writer *w, jgi_pq_buf *out, jg_error *err);
/** The first failure of the writes so far (JG_OK if none). */
static inline jg_status jgi_tc_writer_status(const jgi_tc_writer *w) {
  return w->status;
}

/** Values without a field header (list elements, or after jgi_tc_write_field). */
JGI_HIDDEN void jgi_tc_write_varint(jgi_tc_writer *w, uint64_t v);
JGI_HIDDEN void jgi_tc_write_i64(jgi_tc_writer *w, int64_t v); /* zigzag; also i32, i16 */
JGI_HIDDEN void jgi_tc_write_byte(jgi_tc_writer *w, int8_t v);
JGI_HIDDEN void jgi_tc_write_double(jgi_tc_writer *w, double v);
JGI_HIDDEN void jgi_tc_write_binary(jgi_tc_writer *w, const void *p, size_t n);
/** A list (or set) header of `size` elements of compact type elem_type (JGI_TC_TRUE for
 *  booleans, each then written as one byte 1 or 2 by jgi_tc_write_byte). */
JGI_HIDDEN void jgi_tc_write_list(jgi_tc_writer *w, int elem_type, int64_t size);
/** Opens a struct (a top-level one, a list element, or after a JGI_TC_STRUCT field header). */
JGI_HIDDEN void jgi_tc_write_struct_begin(jgi_tc_writer *w);
/** Writes the STOP byte and closes the struct. */
JGI_HIDDEN void jgi_tc_write_struct_end(jgi_tc_writer *w);
/** A field header of the open struct: the short form when id is 1..15 above the previous
 *  field's, else the long form. For a boolean field use jgi_tc_write_field_bool. */
JGI_HIDDEN void jgi_tc_write_field(jgi_tc_writer *w, int16_t id, int type);
/** Field header and value in one call. */
JGI_HIDDEN void jgi_tc_write_field_bool(jgi_tc_writer *w, int16_t id, bool v);
JGI_HIDDEN void jgi_tc_write_field_i32(jgi_tc_writer *w, int16_t id, int32_t v);
JGI_HIDDEN void jgi_tc_write_field_i64(jgi_tc_writer *w, int16_t id, int64_t v);
JGI_HIDDEN void jgi_tc_write_field_binary(jgi_tc_writer *w, int16_t id, const void *p, size_t n);
/** A NUL-terminated string field. */
JGI_HIDDEN void jgi_tc_write_field_string(jgi_tc_writer *w, int16_t id, const char *s);

#endif /* JAGGED_IO_PARQUET_THRIFT_H */
