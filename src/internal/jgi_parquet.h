/* jgi_parquet.h: the Parquet reader's and writer's internal layers (src/io/parquet/).
 *
 * Spec: Apache Parquet format (parquet-format: parquet.thrift, Encodings.md, Compression.md,
 * LogicalTypes.md, and the nested encoding of Dremel: Melnik et al., VLDB 2010). Layers, each
 * one file, bottom up:
 *   thrift.c     Thrift compact protocol: bounded reader and growable writer;
 *   metadata.c   FileMetaData and PageHeader, parsed into and written from the structs below;
 *   codecs.c     the page codecs, through Debian's libraries (snappy, zlib, zstd, lz4, brotli);
 *   encodings.c  PLAIN, RLE / bit-packed hybrid, dictionary indices, DELTA_BINARY_PACKED,
 *                DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT: decode and encode;
 *   schema.c     the flat schema list to a tree, and the tree to jagged's layouts;
 *   column.c     one column chunk's pages to levels and values; assemble.c levels to offsets
 *                and validity;
 *   reader.c, writer.c: the public calls of include/jagged/parquet.h.
 * Every decoder takes the bytes it may read as (pointer, size) and never reads past them: a short
 * or corrupt input is JG_ECORRUPT with a message saying what ran out, never a read out of
 * bounds. Sizes read from a file are checked before they size an allocation. */
#ifndef JAGGED_JGI_PARQUET_H
#define JAGGED_JGI_PARQUET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal/jgi_check.h"
#include "jagged/status.h"

/* ---- Enums of parquet.thrift (numbers as in the spec) ---------------------------------- */

/** Physical types (parquet.thrift `Type`). */
enum {
  JGI_PQ_BOOLEAN = 0,
  JGI_PQ_INT32 = 1,
  JGI_PQ_INT64 = 2,
  JGI_PQ_INT96 = 3,
  JGI_PQ_FLOAT = 4,
  JGI_PQ_DOUBLE = 5,
  JGI_PQ_BYTE_ARRAY = 6,
  JGI_PQ_FIXED_LEN_BYTE_ARRAY = 7
};

/** Field repetition (`FieldRepetitionType`); -1 when absent (the root). */
enum { JGI_PQ_REQUIRED = 0, JGI_PQ_OPTIONAL = 1, JGI_PQ_REPEATED = 2 };

/** Encodings (`Encoding`). */
enum {
  JGI_PQ_PLAIN = 0,
  JGI_PQ_PLAIN_DICTIONARY = 2,
  JGI_PQ_RLE = 3,
  JGI_PQ_BIT_PACKED = 4,
  JGI_PQ_DELTA_BINARY_PACKED = 5,
  JGI_PQ_DELTA_LENGTH_BYTE_ARRAY = 6,
  JGI_PQ_DELTA_BYTE_ARRAY = 7,
  JGI_PQ_RLE_DICTIONARY = 8,
  JGI_PQ_BYTE_STREAM_SPLIT = 9
};

/** Codecs (`CompressionCodec`). */
enum {
  JGI_PQ_UNCOMPRESSED = 0,
  JGI_PQ_SNAPPY = 1,
  JGI_PQ_GZIP = 2,
  JGI_PQ_LZO = 3,
  JGI_PQ_BROTLI = 4,
  JGI_PQ_LZ4 = 5, /* Hadoop-framed LZ4 (deprecated); some writers put the raw or frame format */
  JGI_PQ_ZSTD = 6,
  JGI_PQ_LZ4_RAW = 7
};

/** Page types (`PageType`). */
enum {
  JGI_PQ_DATA_PAGE = 0,
  JGI_PQ_INDEX_PAGE = 1,
  JGI_PQ_DICTIONARY_PAGE = 2,
  JGI_PQ_DATA_PAGE_V2 = 3
};

/** Converted types (`ConvertedType`, the legacy annotations); -1 when absent. */
enum {
  JGI_PQ_CT_UTF8 = 0,
  JGI_PQ_CT_MAP = 1,
  JGI_PQ_CT_MAP_KEY_VALUE = 2,
  JGI_PQ_CT_LIST = 3,
  JGI_PQ_CT_ENUM = 4,
  JGI_PQ_CT_DECIMAL = 5,
  JGI_PQ_CT_DATE = 6,
  JGI_PQ_CT_TIME_MILLIS = 7,
  JGI_PQ_CT_TIME_MICROS = 8,
  JGI_PQ_CT_TIMESTAMP_MILLIS = 9,
  JGI_PQ_CT_TIMESTAMP_MICROS = 10,
  JGI_PQ_CT_UINT_8 = 11,
  JGI_PQ_CT_UINT_16 = 12,
  JGI_PQ_CT_UINT_32 = 13,
  JGI_PQ_CT_UINT_64 = 14,
  JGI_PQ_CT_INT_8 = 15,
  JGI_PQ_CT_INT_16 = 16,
  JGI_PQ_CT_INT_32 = 17,
  JGI_PQ_CT_INT_64 = 18,
  JGI_PQ_CT_JSON = 19,
  JGI_PQ_CT_BSON = 20,
  JGI_PQ_CT_INTERVAL = 21
};

/** Logical types: the field id of the member set in the `LogicalType` union; 0 when absent. */
enum {
  JGI_PQ_LT_NONE = 0,
  JGI_PQ_LT_STRING = 1,
  JGI_PQ_LT_MAP = 2,
  JGI_PQ_LT_LIST = 3,
  JGI_PQ_LT_ENUM = 4,
  JGI_PQ_LT_DECIMAL = 5,
  JGI_PQ_LT_DATE = 6,
  JGI_PQ_LT_TIME = 7,
  JGI_PQ_LT_TIMESTAMP = 8,
  JGI_PQ_LT_INTEGER = 10,
  JGI_PQ_LT_UNKNOWN = 11, /* "NullType": always null */
  JGI_PQ_LT_JSON = 12,
  JGI_PQ_LT_BSON = 13,
  JGI_PQ_LT_UUID = 14,
  JGI_PQ_LT_FLOAT16 = 15
};

/** Time units of TIME and TIMESTAMP logical types. */
enum { JGI_PQ_MILLIS = 0, JGI_PQ_MICROS = 1, JGI_PQ_NANOS = 2 };

/* ---- Growable byte buffer (host memory, malloc'ed) --------------------------------------- */

/** A growable host byte buffer; zero-initialise, then append; jgi_pq_buf_reset frees. */
typedef struct jgi_pq_buf {
  uint8_t *data;
  size_t size, cap;
} jgi_pq_buf;

/** Makes room for `extra` more bytes (size unchanged). JG_ENOMEM, JG_EOVERFLOW. */
JGI_HIDDEN jg_status jgi_pq_buf_reserve(jgi_pq_buf *b, size_t extra, jg_error *err);
/** Appends n bytes of p (p may be NULL when n is 0). JG_ENOMEM, JG_EOVERFLOW. */
JGI_HIDDEN jg_status jgi_pq_buf_append(jgi_pq_buf *b, const void *p, size_t n, jg_error *err);
/** Frees the bytes and zeroes *b; NULL allowed. */
JGI_HIDDEN void jgi_pq_buf_reset(jgi_pq_buf *b);

/* ---- Metadata (metadata.c, over thrift.c) ------------------------------------------------ */

/** `LogicalType`, flattened. kind is a JGI_PQ_LT_* value. */
typedef struct jgi_pq_logical {
  int kind;
  int bit_width;        /* INTEGER: 8, 16, 32, 64 */
  bool is_signed;       /* INTEGER */
  int unit;             /* TIME, TIMESTAMP: JGI_PQ_MILLIS / MICROS / NANOS */
  bool utc;             /* TIME, TIMESTAMP: isAdjustedToUTC */
  int scale, precision; /* DECIMAL */
} jgi_pq_logical;

/** `SchemaElement`. Absent optional integers are -1 (type -1: a group). */
typedef struct jgi_pq_schema_elem {
  char *name;                     /* NUL-terminated, in the metadata's arena */
  int type;                       /* JGI_PQ_BOOLEAN.. or -1 for a group */
  int type_length;                /* FIXED_LEN_BYTE_ARRAY: bytes a value; else -1 */
  int repetition;                 /* JGI_PQ_REQUIRED / OPTIONAL / REPEATED, -1 when absent */
  int num_children;               /* groups: >= 0; leaves: -1 */
  int converted_type;             /* JGI_PQ_CT_*, -1 */
  int scale, precision, field_id; /* -1 when absent */
  jgi_pq_logical logical;
} jgi_pq_schema_elem;

/** `ColumnMetaData` (statistics and the rest are skipped when reading, not written). */
typedef struct jgi_pq_column_meta {
  int type;       /* physical type */
  int *encodings; /* nencodings, in the arena */
  int nencodings;
  char **path; /* path_in_schema: npath names, in the arena */
  int npath;
  int codec;
  int64_t num_values, total_uncompressed_size, total_compressed_size;
  int64_t data_page_offset;
  int64_t index_page_offset;      /* -1 when absent */
  int64_t dictionary_page_offset; /* -1 when absent */
} jgi_pq_column_meta;

/** `ColumnChunk`. */
typedef struct jgi_pq_column_chunk {
  char *file_path; /* NULL: this file (the reader refuses others: JG_ENOTSUP) */
  int64_t file_offset;
  bool has_meta; /* meta_data present (the reader requires it) */
  jgi_pq_column_meta meta;
} jgi_pq_column_chunk;

/** `RowGroup`. */
typedef struct jgi_pq_row_group {
  jgi_pq_column_chunk *columns; /* ncolumns, in the arena */
  int ncolumns;
  int64_t total_byte_size, num_rows;
} jgi_pq_row_group;

/** `KeyValue`. */
typedef struct jgi_pq_key_value {
  char *key, *value; /* value NULL when absent */
} jgi_pq_key_value;

/** `FileMetaData`. Everything it points to lives in `arena` (one allocation list freed by
 *  jgi_pq_meta_reset). Zero-initialise before parsing. */
typedef struct jgi_pq_file_meta {
  int32_t version;
  jgi_pq_schema_elem *schema; /* nschema elements, depth first; schema[0] is the root */
  int nschema;
  int64_t num_rows;
  jgi_pq_row_group *row_groups;
  int nrow_groups;
  jgi_pq_key_value *kv;
  int nkv;
  char *created_by; /* NULL when absent */
  void *arena;      /* private to metadata.c */
} jgi_pq_file_meta;

/** Parses the footer's FileMetaData (the `n` bytes before the footer's length and "PAR1").
 *  Unknown fields are skipped; nesting deeper than 64 structs, lists longer than the bytes left,
 *  negative sizes or counts, and missing required fields (schema, num_rows, row_groups; a
 *  column's type, codec, path, num_values, sizes, data_page_offset) are JG_ECORRUPT, the message
 *  naming the field. JG_ENOMEM. On failure *meta holds nothing (reset). */
JGI_HIDDEN jg_status jgi_pq_meta_parse(const uint8_t *buf, size_t n, jgi_pq_file_meta *meta,
                                       jg_error *err);
/** Frees everything parsed or built into *meta and zeroes it; NULL allowed. */
JGI_HIDDEN void jgi_pq_meta_reset(jgi_pq_file_meta *meta);
/** Copies a NUL-terminated string (or n bytes of it with a NUL added: n = (size_t)-1 for all)
 *  into meta's arena, for building metadata to write. NULL on out of memory. */
JGI_HIDDEN char *jgi_pq_meta_strdup(jgi_pq_file_meta *meta, const char *s, size_t n);
/** Zeroed memory of `size` bytes in meta's arena (freed with it); NULL on out of memory. */
JGI_HIDDEN void *jgi_pq_meta_alloc(jgi_pq_file_meta *meta, size_t size);
/** Serialises *meta as FileMetaData (compact protocol) at the end of *out. JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_pq_meta_write(const jgi_pq_file_meta *meta, jgi_pq_buf *out,
                                       jg_error *err);

/** `PageHeader`, flattened: the member of the page's type is filled, the others zero. */
typedef struct jgi_pq_page_header {
  int type; /* JGI_PQ_DATA_PAGE, ... */
  int32_t uncompressed_size, compressed_size;
  bool has_crc;
  int32_t crc;
  struct {
    int32_t num_values;
    int encoding, def_encoding, rep_encoding;
  } v1; /* DATA_PAGE */
  struct {
    int32_t num_values;
    int encoding;
    bool is_sorted;
  } dict; /* DICTIONARY_PAGE */
  struct {
    int32_t num_values, num_nulls, num_rows;
    int encoding;
    int32_t def_bytes, rep_bytes; /* definition_ / repetition_levels_byte_length */
    bool is_compressed;           /* default true */
  } v2;                           /* DATA_PAGE_V2 */
} jgi_pq_page_header;

/** Parses one PageHeader from the start of buf[0..n); *header_size gets its length in bytes.
 *  Negative sizes or counts, a missing page-type member for a data or dictionary page, or a
 *  header longer than n: JG_ECORRUPT. */
JGI_HIDDEN jg_status jgi_pq_page_header_parse(const uint8_t *buf, size_t n, jgi_pq_page_header *h,
                                              size_t *header_size, jg_error *err);
/** Serialises *h at the end of *out. JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_pq_page_header_write(const jgi_pq_page_header *h, jgi_pq_buf *out,
                                              jg_error *err);

/** Spec names of the enums above, for messages ("SNAPPY", "RLE_DICTIONARY", "INT96", ...);
 *  "unknown" for other values. */
JGI_HIDDEN const char *jgi_pq_codec_name(int codec);
JGI_HIDDEN const char *jgi_pq_encoding_name(int encoding);
JGI_HIDDEN const char *jgi_pq_type_name(int type);

/* ---- Codecs (codecs.c) ------------------------------------------------------------------- */

/** Whether `codec` can be decompressed (and, for SNAPPY, GZIP, ZSTD, LZ4_RAW, BROTLI,
 *  compressed) by this build: UNCOMPRESSED always; each library codec when it was found at
 *  build time. LZO never. */
JGI_HIDDEN bool jgi_pq_codec_available(int codec);

/** Decompresses src[0..src_size) into exactly dst_size bytes at dst (the page header's
 *  uncompressed size). GZIP takes gzip or zlib streams (and concatenated gzip members); LZ4
 *  takes Hadoop's framing (big-endian decompressed and compressed sizes before each block),
 *  falling back to a raw LZ4 block and then to the LZ4 frame format as other writers do.
 *  JG_ECORRUPT when the data does not decode or decodes to another size than dst_size;
 *  JG_ENOTSUP for a codec not built in (the message names the codec and the Debian package:
 *  libsnappy-dev, zlib1g-dev, libzstd-dev, liblz4-dev, libbrotli-dev). */
JGI_HIDDEN jg_status jgi_pq_decompress(int codec, const uint8_t *src, size_t src_size, uint8_t *dst,
                                       size_t dst_size, jg_error *err);

/** Compresses src[0..n) with codec (UNCOMPRESSED copies) at the end of *out; level 0 is the
 *  library's default. JG_ENOTSUP for a codec not built in or not writable (LZO, LZ4 Hadoop
 *  framing), JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_pq_compress(int codec, int level, const uint8_t *src, size_t n,
                                     jgi_pq_buf *out, jg_error *err);

/* ---- Encodings (encodings.c) ------------------------------------------------------------- */
/* Decoders write exactly `count` values and set *used (where taken) to the bytes consumed. Data
 * that ends early, a bit width above the type's, or an index past the dictionary is
 * JG_ECORRUPT. Encoders append to a jgi_pq_buf (JG_ENOMEM). */

/** Bits needed for values up to max_value (0 for 0). */
JGI_HIDDEN int jgi_pq_bit_width(uint64_t max_value);

/** RLE / bit-packed hybrid (Encodings.md "RLE"), without a length prefix, bit width 0..32:
 *  `count` values into out. Runs past `count` inside the data are allowed (the last bit-packed
 *  group is padded), values past count are dropped. */
JGI_HIDDEN jg_status jgi_pq_rle_decode(const uint8_t *p, size_t n, int bit_width, int64_t count,
                                       uint32_t *out, size_t *used, jg_error *err);
/** The same for levels (bit width 0..16) into int16. */
JGI_HIDDEN jg_status jgi_pq_rle_decode_levels(const uint8_t *p, size_t n, int bit_width,
                                              int64_t count, int16_t *out, size_t *used,
                                              jg_error *err);
/** The deprecated BIT_PACKED level encoding (most significant bit first). */
JGI_HIDDEN jg_status jgi_pq_bitpacked_decode_levels(const uint8_t *p, size_t n, int bit_width,
                                                    int64_t count, int16_t *out, size_t *used,
                                                    jg_error *err);
/** Encodes values[0..count) (each < 2^bit_width) as the RLE / bit-packed hybrid, no prefix. */
JGI_HIDDEN jg_status jgi_pq_rle_encode(const uint32_t *values, int64_t count, int bit_width,
                                       jgi_pq_buf *out, jg_error *err);
/** The same for levels (bit width 0..16; a negative level is JG_EINVAL), without a copy to
 *  uint32: the bytes are those jgi_pq_rle_encode gives for the same values. */
JGI_HIDDEN jg_status jgi_pq_rle_encode_levels(const int16_t *levels, int64_t count, int bit_width,
                                              jgi_pq_buf *out, jg_error *err);
/** `count` copies of `value` (< 2^bit_width) as RLE runs (one per 2^31 - 1 values; none for
 *  count 0), without a values array. */
JGI_HIDDEN jg_status jgi_pq_rle_encode_run(uint32_t value, int64_t count, int bit_width,
                                           jgi_pq_buf *out, jg_error *err);

/** PLAIN of a fixed-width type: `count` values of `width` bytes (4, 8, 12 for INT96, or a
 *  FIXED_LEN_BYTE_ARRAY's length), copied little-endian as stored. */
JGI_HIDDEN jg_status jgi_pq_plain_decode_fixed(const uint8_t *p, size_t n, int width, int64_t count,
                                               void *out, size_t *used, jg_error *err);
/** PLAIN BOOLEAN: bit-packed, least significant bit first; one byte 0/1 a value in out. */
JGI_HIDDEN jg_status jgi_pq_plain_decode_bool(const uint8_t *p, size_t n, int64_t count,
                                              uint8_t *out, size_t *used, jg_error *err);
/** PLAIN BYTE_ARRAY (4-byte little-endian length, then the bytes): appends the bytes to *bytes
 *  and writes offsets[1..count] (offsets[0] must already be set: the running end of *bytes,
 *  relative to where the caller's offsets start counting). */
JGI_HIDDEN jg_status jgi_pq_plain_decode_bytes(const uint8_t *p, size_t n, int64_t count,
                                               int64_t *offsets, jgi_pq_buf *bytes, size_t *used,
                                               jg_error *err);
/** Dictionary gather: out[i] = dict[idx[i]] for `width`-byte values; an index >= ndict is
 *  JG_ECORRUPT with the index in err->index. */
JGI_HIDDEN jg_status jgi_pq_dict_gather(const void *dict, int64_t ndict, int width,
                                        const uint32_t *idx, int64_t count, void *out,
                                        jg_error *err);
/** Dictionary gather of byte arrays: dict given by its offsets (ndict + 1) and bytes; appends
 *  to *bytes and writes offsets[1..count] as jgi_pq_plain_decode_bytes. */
JGI_HIDDEN jg_status jgi_pq_dict_gather_bytes(const int64_t *dict_offsets, const uint8_t *dict,
                                              int64_t ndict, const uint32_t *idx, int64_t count,
                                              int64_t *offsets, jgi_pq_buf *bytes, jg_error *err);
/** DELTA_BINARY_PACKED of INT32 (width 4) or INT64 (width 8): `count` values into out. The
 *  page's values are at most the header's total count; *used is the bytes of the whole stream
 *  (its last miniblock included), as DELTA_BYTE_ARRAY needs. Arithmetic wraps as the spec says. */
JGI_HIDDEN jg_status jgi_pq_delta_decode(const uint8_t *p, size_t n, int width, int64_t count,
                                         void *out, size_t *used, jg_error *err);
/** DELTA_LENGTH_BYTE_ARRAY: lengths (DELTA_BINARY_PACKED), then the bytes back to back. */
JGI_HIDDEN jg_status jgi_pq_delta_length_decode(const uint8_t *p, size_t n, int64_t count,
                                                int64_t *offsets, jgi_pq_buf *bytes, size_t *used,
                                                jg_error *err);
/** DELTA_BYTE_ARRAY: prefix lengths (DELTA_BINARY_PACKED), then the suffixes as
 *  DELTA_LENGTH_BYTE_ARRAY. For FIXED_LEN_BYTE_ARRAY the caller checks every value's length. */
JGI_HIDDEN jg_status jgi_pq_delta_bytes_decode(const uint8_t *p, size_t n, int64_t count,
                                               int64_t *offsets, jgi_pq_buf *bytes, size_t *used,
                                               jg_error *err);
/** BYTE_STREAM_SPLIT of `count` values of `width` bytes (n must be count * width). */
JGI_HIDDEN jg_status jgi_pq_byte_stream_split_decode(const uint8_t *p, size_t n, int width,
                                                     int64_t count, void *out, jg_error *err);
/** Encoders for the writer and for tests (same layouts as the decoders). */
JGI_HIDDEN jg_status jgi_pq_delta_encode(const void *values, int width, int64_t count,
                                         jgi_pq_buf *out, jg_error *err);
JGI_HIDDEN jg_status jgi_pq_delta_length_encode(const int64_t *offsets, const uint8_t *bytes,
                                                int64_t count, jgi_pq_buf *out, jg_error *err);
JGI_HIDDEN jg_status jgi_pq_delta_bytes_encode(const int64_t *offsets, const uint8_t *bytes,
                                               int64_t count, jgi_pq_buf *out, jg_error *err);
JGI_HIDDEN jg_status jgi_pq_byte_stream_split_encode(const void *values, int width, int64_t count,
                                                     jgi_pq_buf *out, jg_error *err);
JGI_HIDDEN jg_status jgi_pq_plain_encode_bool(const uint8_t *values, int64_t count, jgi_pq_buf *out,
                                              jg_error *err);
JGI_HIDDEN jg_status jgi_pq_plain_encode_bytes(const int64_t *offsets, const uint8_t *bytes,
                                               int64_t count, jgi_pq_buf *out, jg_error *err);

#endif /* JAGGED_JGI_PARQUET_H */
