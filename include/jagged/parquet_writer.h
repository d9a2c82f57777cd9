/* parquet_writer.h: writing jagged arrays to Apache Parquet files.
 *
 * Spec: the Apache Parquet format (parquet-format: parquet.thrift, Encodings.md,
 * Compression.md, LogicalTypes.md "Nested Types" for the 3-level LIST) and the nested
 * encoding of Dremel (Melnik et al., VLDB 2010: repetition and definition levels), written by
 * jagged itself; page codecs come from the system's libraries (snappy, zlib, zstd, lz4,
 * brotli), each optional at build time.
 *
 * A table is a record array in host memory: each field becomes one top-level column tree.
 * Layouts map to the schema as follows (docs/parquet.md, "Writing", has the table):
 *   numeric            REQUIRED leaf: bool BOOLEAN; int8/int16/int32 INT32 with
 *                      INTEGER(8/16/32, signed) (converted INT_8/16/32); uint8/16/32 INT32 with
 *                      INTEGER(.., unsigned) (UINT_8/16/32); int64 INT64; uint64 INT64 with
 *                      INTEGER(64, unsigned) (UINT_64); float32 FLOAT; float64 DOUBLE; float16
 *                      FIXED_LEN_BYTE_ARRAY(2) with FLOAT16. Inner dimensions (ndim > 1) are
 *                      written as regular lists, one per axis.
 *   list-offset, list  the standard 3-level LIST: `<name>` (LIST, converted LIST), `repeated
 *                      group list`, `element`.
 *   regular            the same as a list (Parquet has no fixed-size list; it reads back as
 *                      var).
 *   list, list-offset or regular of 1-D uint8 (no option in between)
 *                      one BYTE_ARRAY leaf, without a STRING annotation (jagged does not know
 *                      that bytes are text); it reads back as var * uint8.
 *   record             a group of its fields, in order (tuples: fields "0", "1", ...).
 *   byte-masked, bit-masked, indexed-option
 *                      the node below becomes OPTIONAL (an option of an option is one OPTIONAL
 *                      level: None at either level is None).
 *   empty (unknown)    OPTIONAL INT32 with the UNKNOWN (null) logical type.
 * Offsets need not start at 0, starts/stops lists may be in any order and overlap, and content
 * past the lists is not written. Values are PLAIN or dictionary encoded (RLE_DICTIONARY data
 * pages after a PLAIN dictionary page), levels RLE; statistics, page indexes and bloom filters
 * are not written. */
#ifndef JAGGED_PARQUET_WRITER_H
#define JAGGED_PARQUET_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jagged/array.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Page codecs (numbers as parquet.thrift's CompressionCodec). */
typedef enum jg_parquet_codec {
  JG_PARQUET_UNCOMPRESSED = 0,
  JG_PARQUET_SNAPPY = 1,
  JG_PARQUET_GZIP = 2,
  JG_PARQUET_BROTLI = 4,
  JG_PARQUET_ZSTD = 6,
  JG_PARQUET_LZ4_RAW = 7
} jg_parquet_codec;

/** Default rows per row group (as pyarrow's default). */
#define JG_PARQUET_DEFAULT_ROW_GROUP_ROWS (1024 * 1024)
/** Default target of a data page's size before compression, in bytes. */
#define JG_PARQUET_DEFAULT_PAGE_SIZE (1024 * 1024)
/** Default limit of a column chunk's dictionary page, in bytes. */
#define JG_PARQUET_DEFAULT_DICTIONARY_SIZE (1024 * 1024)

/** Options of jg_parquet_write and jg_parquet_write_memory. Initialise with
 *  jg_parquet_write_options_init, then set what you need. */
typedef struct jg_parquet_write_options {
  uint32_t version;        /**< sizeof(jg_parquet_write_options) (set by the init function), or
                                0 for the current size */
  jg_parquet_codec codec;  /**< default JG_PARQUET_SNAPPY; a codec this build lacks is refused
                                (jg_parquet_codec_available) */
  int compression_level;   /**< the codec library's level; 0 (default): its default level */
  int data_page_version;   /**< 1 (default): DataPage (levels and values compressed together,
                                levels with a 4-byte length prefix); 2: DataPageV2 (levels
                                uncompressed, their lengths in the header) */
  bool dictionary;         /**< default true: dictionary-encode each column chunk (not BOOLEAN)
                                unless its dictionary would pass dictionary_size bytes or hold
                                more distinct values than a quarter of the chunk's values, in
                                which case that chunk is PLAIN */
  int64_t row_group_rows;  /**< top-level rows per row group (the last may have fewer); default
                                JG_PARQUET_DEFAULT_ROW_GROUP_ROWS; must be >= 1 */
  int64_t page_size;       /**< target bytes of a data page before compression (levels and
                                values); pages end at the first row boundary past it, so one
                                long row makes one large page; default
                                JG_PARQUET_DEFAULT_PAGE_SIZE; must be >= 1 */
  int64_t dictionary_size; /**< limit of a dictionary page in bytes (PLAIN size); default
                                JG_PARQUET_DEFAULT_DICTIONARY_SIZE; must be >= 1 */
  const char *created_by;  /**< FileMetaData.created_by; NULL (default): "jagged <version>" */
  uint8_t reserved[32];    /**< zero */
} jg_parquet_write_options;

/** Sets `options` to the defaults listed above (version set, everything else zero but codec
 *  SNAPPY, data_page_version 1, dictionary true, row_group_rows, page_size and
 *  dictionary_size their defaults). NULL is a no-op. */
JG_API void jg_parquet_write_options_init(jg_parquet_write_options *options);

/** Whether this build can write pages with `codec` (UNCOMPRESSED always; the others when their
 *  library was found at build time). */
JG_API bool jg_parquet_codec_available(jg_parquet_codec codec);

/** Writes `table` to a new Parquet file at `path` (created or truncated).
 *  table: a record array (each field one column tree; the file has length(table) rows) whose
 *  every buffer is in host memory (backend cpu). It is checked with jg_array_validate at FULL
 *  level first, so every offset, start, stop and index read is in range; the table is only
 *  read. `options` NULL: defaults. The file is written as it is built, one column chunk at a
 *  time (memory: about one row group's column chunk, plus one row group of levels); on any
 *  error the partial file is removed. Synchronous; thread-safe (calls share no state).
 *  Errors: JG_EINVAL (NULL table or path; table not a record; options with a bad version,
 *  data_page_version not 1 or 2, row_group_rows, page_size or dictionary_size < 1, an unknown
 *  codec, non-zero reserved bytes), JG_EBACKEND (a table with device buffers: "copy it with
 *  jg_array_to_host first"), JG_EVALUE (the table fails validation: the message of
 *  jg_array_validate), JG_ENOTSUP (a codec not built in; a record of no fields, the table's
 *  included; a complex or bfloat16 dtype; a page whose levels or bytes pass 2^31 - 1; the
 *  message names the column's path), JG_EIO (the file cannot be opened, written or closed: the
 *  message names `path` and the system's reason), JG_EOVERFLOW, JG_ENOMEM. */
JG_API jg_status jg_parquet_write(const jg_array *table, const char *path,
                                  const jg_parquet_write_options *options, jg_error *err);

/** As jg_parquet_write, into host memory: `*data` receives a malloc'ed buffer of `*size`
 *  bytes holding the whole file, owned by the caller, who frees it with
 *  jg_parquet_memory_free. On error *data is NULL and *size 0.
 *  Errors: as jg_parquet_write but JG_EIO; JG_EINVAL also for NULL data or size. */
JG_API jg_status jg_parquet_write_memory(const jg_array *table,
                                         const jg_parquet_write_options *options, void **data,
                                         size_t *size, jg_error *err);

/** Frees a buffer of jg_parquet_write_memory; NULL allowed. */
JG_API void jg_parquet_memory_free(void *data);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_PARQUET_WRITER_H */
