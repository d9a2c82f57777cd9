/* parquet_writer.h: writing jagged arrays to Apache Parquet files.
 *
 * Spec: the Apache Parquet format (parquet-format: parquet.thrift, Encodings.md,
 * Compression.md, LogicalTypes.md "Nested Types" for the 3-level LIST) and the nested
 * encoding of Dremel (Melnik et al., VLDB 2010: repetition and definition levels), written by
 * jagged itself; page codecs come from the system's libraries (snappy, zlib, zstd, lz4,
 * brotli), each optional at build time.
 *
 * A file is written from one table (jg_parquet_write, jg_parquet_write_memory), or table by
 * table (jg_parquet_writer_open, _write, _close: each table appends row groups, the first one
 * fixes the schema). A table is a record array in host memory: each field becomes one
 * top-level column tree.
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

/** Options of jg_parquet_write, jg_parquet_write_memory and jg_parquet_writer_open. Initialise
 *  with jg_parquet_write_options_init, then set what you need. */
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
                                which case that chunk is PLAIN. The attempt stops at the first
                                value that breaks either bound, and early when, after 4096
                                values (and at every doubling of that count), more than 15/16
                                of the values seen were new: values drawn from more than
                                about 30000 distinct ones (measured floats, unique ids) are
                                then PLAIN at the cost of 4096 hash insertions a chunk */
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

/** Writes `table` to a Parquet file at `path` (made, or replacing a regular file there).
 *  table: a record array (each field one column tree; the file has length(table) rows) whose
 *  every buffer is in host memory (backend cpu). It is checked with jg_array_validate at FULL
 *  level first, so every offset, start, stop and index read is in range; the table is only
 *  read. `options` NULL: defaults. The file is written as it is built, page by page (memory:
 *  one row group of one column's levels and values, plus a page), to a temporary file beside
 *  `path` ("<path>.<pid>.<n>.tmp", created exclusively), which is renamed onto `path` when it
 *  is complete: the file appears at `path` atomically, whole, and on any error `path` is left
 *  exactly as it was (absent, or the old file) and the temporary file is removed. The rename
 *  keeps what the name meant: a symbolic link at `path` stays and the file it leads to is
 *  replaced; a replaced file's permission bits (and owner and group, where the process may set
 *  them) pass to the new one, and a file the caller may not write is not replaced (JG_EIO);
 *  other hard links to a replaced file keep the old contents. A path that exists and is not a
 *  regular file (a directory, FIFO, device, socket) is refused before anything is written,
 *  and the writer never removes anything but its own temporary file. The same as
 *  jg_parquet_writer_open, one jg_parquet_writer_write and jg_parquet_writer_close (the same
 *  bytes). Synchronous; thread-safe (calls share no state).
 *  Errors: JG_EINVAL (NULL table or path; table not a record; options with a bad version,
 *  data_page_version not 1 or 2, row_group_rows, page_size or dictionary_size < 1, an unknown
 *  codec, non-zero reserved bytes), JG_EBACKEND (a table with device buffers: "copy it with
 *  jg_array_to_host first"), JG_EVALUE (the table fails validation: the message of
 *  jg_array_validate), JG_ENOTSUP (a codec not built in; a record of no fields, the table's
 *  included; a complex or bfloat16 dtype; a page whose levels or bytes pass 2^31 - 1; the
 *  message names the column's path), JG_EIO (`path` exists and is not a regular file, or is a
 *  symbolic link that leads nowhere; the temporary file cannot be created, written, closed or
 *  renamed, e.g. the disk is full: the message names `path` and the system's reason),
 *  JG_EOVERFLOW, JG_ENOMEM. */
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

/** A Parquet file being written table by table (opaque): each jg_parquet_writer_write call
 *  appends its table's rows as one or more row groups, so a file of any size is written in the
 *  memory of one table at a time (jagged generate writes its events this way). jg_parquet_write
 *  is one open, one write and one close of this writer. Not thread-safe: one thread uses a
 *  writer at a time (different writers share no state). Typical use:
 *
 *      jg_parquet_writer *w = NULL;
 *      if (jg_parquet_writer_open("events.parquet", NULL, &w, &err) != JG_OK) return ...;
 *      for (each batch) {
 *        jg_array *t = make_batch(...);            // a host record array
 *        jg_status st = jg_parquet_writer_write(w, t, &err);
 *        jg_array_release(t);                      // the writer keeps nothing of it
 *        if (st != JG_OK) { jg_parquet_writer_discard(w); return ...; }
 *      }
 *      if (jg_parquet_writer_close(w, &err) != JG_OK) return ...;  // footer; w is freed */
typedef struct jg_parquet_writer jg_parquet_writer;

/** Returns a writer for a Parquet file at `path` in `*out`: it creates the temporary file
 *  beside `path` that the tables go to (as jg_parquet_write: "<path>.<pid>.<n>.tmp", created
 *  exclusively); `path` itself is not touched until jg_parquet_writer_close renames the
 *  complete file onto it, atomically. Until then an existing file at `path` stays as it is, and
 *  a failed write, a failed close or jg_parquet_writer_discard leave it so (only the temporary
 *  file is removed). A `path` that exists and is not a regular file (a directory, FIFO, device,
 *  socket) is refused here, before anything is written. `options` as for jg_parquet_write
 *  (NULL: defaults), checked here and copied (created_by too: the caller's string need not
 *  outlive the call); they hold for every table. Errors: JG_EINVAL (NULL path or out; bad
 *  options as in jg_parquet_write), JG_ENOTSUP (a codec not built in), JG_EIO (`path` is not a
 *  regular file, or a regular file the caller may not write; the temporary file cannot be
 *  created, e.g. the directory does not exist: the message names `path` and the system's
 *  reason), JG_ENOMEM. On error `*out` is NULL (when out is not) and no file is made (bad
 *  options are refused before the file is opened). */
JG_API jg_status jg_parquet_writer_open(const char *path, const jg_parquet_write_options *options,
                                        jg_parquet_writer **out, jg_error *err);

/** Appends the rows of `table` to the file as ceil(length(table) / row_group_rows) row groups:
 *  row_group_rows cuts each table on its own (a table of 10 rows with row_group_rows 4 gives
 *  groups of 4, 4 and 2; a table of fewer rows makes one shorter group; tables are never
 *  merged into one group), so the caller's table size sets the row group size when it is
 *  below row_group_rows.
 *  table: a record array in host memory, checked as jg_parquet_write checks it (full
 *  validation); a slice (offsets, masks and content not starting at 0) is written as its own
 *  rows. It is only read and may be released as soon as the call returns.
 *  Schema: the first table accepted fixes the file's schema, also when it has 0 rows (an empty
 *  table makes no row group but counts as written). Every later table must map to the same
 *  Parquet schema element by element (names, physical and logical types, repetition, children;
 *  i.e. the same fields in the same order, the same dtypes, lists and options), or the call
 *  fails with JG_ESHAPE naming the first column that differs and how ("column 'Muon_pt.list.
 *  element' differs from the file's schema: the file has REQUIRED FLOAT, the table REQUIRED
 *  DOUBLE"; "the table has no field 'b'"; "the table's field 'c' is not in the file's
 *  schema"). Layouts that map to the same schema are accepted together: int32 or int64
 *  offsets, list-offset, starts/stops and regular lists, any kind of option node.
 *  Errors that are found before anything is written leave the file as it was and the writer
 *  usable (a later correct table is appended as if the refused one had not been offered):
 *  JG_EINVAL (NULL writer or table; a table that is not a record), JG_EBACKEND (device
 *  buffers), JG_EVALUE (validation), JG_ENOTSUP (a layout or dtype that cannot be written; a
 *  file that would pass 2^31 - 1 row groups), JG_ESHAPE (the schema rule), JG_ENOMEM (building
 *  the table's schema). Any error after the table's first byte was written (JG_EIO, naming the
 *  file, the column and the row group; JG_ENOMEM, JG_EOVERFLOW, JG_ENOTSUP for a page past
 *  2^31 - 1 bytes) leaves a partial row group in the file: the writer is then failed, every
 *  later write returns JG_ESTATE (naming the first error), and only jg_parquet_writer_close
 *  (JG_ESTATE, nothing put in place) or jg_parquet_writer_discard are left to call. */
JG_API jg_status jg_parquet_writer_write(jg_parquet_writer *writer, const jg_array *table,
                                         jg_error *err);

/** Writes the footer, closes the temporary file, renames it onto the writer's path (synced to
 *  disk first when it replaces a file) and frees the writer (even on error: the writer must not
 *  be used again). The file at the path is then complete: the rows of every table accepted, in
 *  order (a file whose tables all had 0 rows is valid: the schema and no row group). Errors
 *  (the temporary file is then removed and the path left as it was): JG_ESTATE for a writer to which no table was written (it has no schema:
 *  "no table was written") or that failed mid-write, JG_EIO (writing or closing failed),
 *  JG_ENOMEM, JG_ENOTSUP (a footer of more than 4 GiB); JG_EIO also when the path became a
 *  directory, FIFO, device or socket while the file was written (it is left as it is). NULL is
 *  a no-op returning JG_OK. */
JG_API jg_status jg_parquet_writer_close(jg_parquet_writer *writer, jg_error *err);

/** Abandons the file: closes and removes the temporary file and frees the writer, whatever
 *  was written and whatever state the writer is in; the writer's path is left as it was (a
 *  file there before the writer opened is kept intact). For error paths (a generator that
 *  failed halfway leaves no file that looks complete). NULL is a no-op. */
JG_API void jg_parquet_writer_discard(jg_parquet_writer *writer);

/** The temporary file the writer is writing ("<path>.<pid>.<n>.tmp", beside its target), owned
 *  by the writer and valid until close or discard; NULL for NULL. For a program that must
 *  remove it from a signal handler when it is interrupted (jagged generate does): the library
 *  itself removes it on every error path, close and discard. */
JG_API const char *jg_parquet_writer_temp_path(const jg_parquet_writer *writer);

/** Rows written so far: the sum of the lengths of the tables accepted (refused tables do not
 *  count); 0 for NULL. */
JG_API int64_t jg_parquet_writer_num_rows(const jg_parquet_writer *writer);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_PARQUET_WRITER_H */
