/* parquet.h: reading Apache Parquet files into jagged arrays.
 *
 * Spec: the Apache Parquet format (parquet-format: parquet.thrift, Encodings.md,
 * Compression.md, LogicalTypes.md), implemented by jagged itself (no Parquet library); page
 * codecs come from the system's libraries (snappy, zlib, zstd, lz4, brotli), each optional at
 * build time. docs/parquet.md has the type mapping table and what is supported.
 *
 * A file opens once (jg_parquet_open: mapped read-only; or jg_parquet_open_memory over borrowed
 * bytes), answers metadata queries without reading data, and reads the whole file or a
 * selection (columns, row groups) into one record array of its top-level fields
 * (jg_parquet_read), or row group by row group / in batches (jg_parquet_reader_*).
 *
 * Errors name the file (its path, or "<memory>"), and for data errors the column (its dotted
 * path in the schema), the row group and the page. Bad input of any kind gives JG_ECORRUPT,
 * JG_ENOTSUP or JG_EIO; it never crashes, reads out of bounds or sizes an unbounded
 * allocation from a number in the file (a page may decode to at most 256 MiB or 4096 times its
 * stored size, whichever is more).
 *
 * Thread-safety: a jg_parquet_file is immutable once open: any number of threads may query and
 * read it at once. A jg_parquet_reader is used by one thread at a time. */
#ifndef JAGGED_PARQUET_H
#define JAGGED_PARQUET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jagged/array.h"
#include "jagged/memory.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An open Parquet file (opaque): its bytes, parsed footer and schema. */
typedef struct jg_parquet_file jg_parquet_file;

/* ------------------------------------------------------------------------------------------ */
/* Opening                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Opens the Parquet file at `path`: maps it read-only (or reads it into host memory where it
 *  cannot be mapped), checks the magic "PAR1" at both ends and the footer length against the
 *  file's size, parses the footer (FileMetaData) and the schema. `*out` receives the file (NULL
 *  on error); close it with jg_parquet_close. Nothing else is read until a read call.
 *  Errors, each message naming the file: JG_EINVAL (NULL path or out), JG_EIO (cannot open,
 *  stat or read the file; not a regular file: a directory, FIFO, device or socket, named as
 *  such and refused at once, never waited on), JG_ECORRUPT (shorter than 12 bytes, no "PAR1"
 *  at the start or end, a footer length past the start of the file, a footer that does not
 *  parse, a schema that does not add up, row groups whose columns do not match the schema),
 *  JG_ENOTSUP (an encrypted footer, "PARE"; a schema deeper than 64 levels or a type the reader
 *  does not map), JG_ENOMEM. */
JG_API jg_status jg_parquet_open(const char *path, jg_parquet_file **out, jg_error *err);

/** As jg_parquet_open, over `size` bytes at `data` (host memory), which are borrowed: they
 *  must stay valid and unchanged until jg_parquet_close, and outlive no array read from the
 *  file (read arrays own their memory and do not point into `data`). The file's name in
 *  messages is "<memory>". Errors: as jg_parquet_open but JG_EIO; JG_EINVAL also for NULL
 *  data with size > 0. */
JG_API jg_status jg_parquet_open_memory(const void *data, size_t size, jg_parquet_file **out,
                                        jg_error *err);

/** Unmaps and frees the file. Arrays already read stay valid. NULL is a no-op. */
JG_API void jg_parquet_close(jg_parquet_file *file);

/* ------------------------------------------------------------------------------------------ */
/* Metadata (no data read; NULL file gives 0, -1 or NULL)                                      */
/* ------------------------------------------------------------------------------------------ */

/** Rows (records) in the file: FileMetaData.num_rows (equal to the row groups' sum, checked at
 *  open). */
JG_API int64_t jg_parquet_num_rows(const jg_parquet_file *file);

/** Row groups in the file. */
JG_API int jg_parquet_num_row_groups(const jg_parquet_file *file);

/** Rows of row group `row_group` (0-based); -1 when out of range. */
JG_API int64_t jg_parquet_row_group_num_rows(const jg_parquet_file *file, int row_group);

/** Leaf columns (primitive fields of the schema, in schema order: one column chunk each per
 *  row group). */
JG_API int jg_parquet_num_columns(const jg_parquet_file *file);

/** The writer of the file (FileMetaData.created_by, e.g. "parquet-mr version 1.10.1 (build
 *  ...)"); "" when absent. Owned by the file. */
JG_API const char *jg_parquet_created_by(const jg_parquet_file *file);

/** What the footer says of one leaf column. Strings are owned by the file (valid until
 *  jg_parquet_close). */
typedef struct jg_parquet_column_info {
  uint32_t version;          /**< sizeof(jg_parquet_column_info), or 0 for the current size */
  const char *path;          /**< dotted path_in_schema, e.g. "Muon_pt.list.element" */
  const char *field_path;    /**< dotted names of the record fields on the way, as projections
                                  take them, e.g. "Muon_pt" or "Muon.pt" */
  const char *physical_type; /**< "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE",
                                  "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY" */
  const char *codec;         /**< of its first row group ("SNAPPY", ...); "" without row groups */
  const char *encodings;     /**< the encodings its chunks list, in first-seen order over the
                                  row groups, comma-separated: "PLAIN_DICTIONARY,BIT_PACKED" */
  int64_t compressed_bytes;  /**< total_compressed_size summed over the row groups */
  int64_t uncompressed_bytes;/**< total_uncompressed_size summed over the row groups */
  int64_t num_values;        /**< level entries (values and nulls) over the row groups */
  int max_definition_level;
  int max_repetition_level;
  jg_dtype dtype;            /**< the dtype of its values once read (uint8 for byte arrays) */
  uint8_t reserved[32];      /**< zeroed */
} jg_parquet_column_info;

/** Fills `info` for leaf column `column` (0 <= column < jg_parquet_num_columns). `info->version`
 *  must be 0 or sizeof(jg_parquet_column_info) on entry.
 *  Errors: JG_EINVAL (NULL argument, bad version), JG_EINDEX (no such column; index = column). */
JG_API jg_status jg_parquet_column_info_get(const jg_parquet_file *file, int column,
                                            jg_parquet_column_info *info, jg_error *err);

/** The jagged type of the whole file as jg_parquet_read gives it with default options, in
 *  jg_array_type_string's notation with the number of rows first, e.g.
 *  "1000 * {run: int32, Muon_pt: var * float32, MET: {pt: ?float32}}". Written like
 *  jg_array_type_string (`buf` of `size` bytes, NUL-terminated, truncated when short;
 *  `*needed`, may be NULL, gets the full length). Errors: JG_EINVAL (NULL file; NULL buf with
 *  size > 0), JG_ENOMEM. */
JG_API jg_status jg_parquet_type_string(const jg_parquet_file *file, char *buf, size_t size,
                                        size_t *needed, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Reading                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Options of jg_parquet_read and jg_parquet_reader_open. Initialise with
 *  jg_parquet_read_options_init, then set what you need. */
typedef struct jg_parquet_read_options {
  uint32_t version;          /**< sizeof(jg_parquet_read_options) (set by the init function) */
  const char *const *columns;/**< ncolumns names of fields to read, or NULL for all: a
                                  top-level field name ("Muon_pt"), or a dotted prefix of the
                                  record-field path or of the schema path ("MET.pt",
                                  "Muon.pt", "Muon.list.element.pt"), matched at dots; records
                                  keep only the fields selected; the output keeps the file's
                                  field order. With nanoaod, a name X that matches no column but
                                  has a counter nX selects nX and every X_* column. Only read
                                  during the call (jg_parquet_reader_open copies what it needs) */
  int ncolumns;
  int row_group_begin;       /**< first row group to read (default 0) */
  int row_group_end;         /**< one past the last; -1 (default) for the end of the file */
  int nthreads;              /**< threads decoding columns (pthreads): 1 (default) = the calling
                                  thread only; 0 = one per online core */
  jg_memory_resource *memory;/**< where the output buffers come from (host-accessible: host,
                                  pinned, managed); NULL (default): jg_memory_resource_host(),
                                  or pinned memory when device_id >= 0 */
  int device_id;             /**< -1 (default): the arrays stay in host memory; >= 0: each
                                  top-level field is copied to that CUDA device as soon as it is
                                  decoded (jg_array_to_device on `stream`, from pinned memory so
                                  that decoding the next field overlaps the copy); all copies
                                  are finished when the call returns */
  jg_stream stream;          /**< the stream of the device copies (NULL: legacy default) */
  bool nanoaod;              /**< zip NanoAOD's flat columns X_a, X_b, ... (lists) whose counter
                                  nX is read too into one field X: var * {a, b, ...}, at the
                                  place of the first X_* column; every X_* list's counts must
                                  equal nX's values; nX itself is kept (default false) */
  uint8_t reserved[64];      /**< zero */
} jg_parquet_read_options;

/** Sets `options` to the defaults listed above (version set, everything else zero but
 *  row_group_end = -1, nthreads = 1, device_id = -1). NULL is a no-op. */
JG_API void jg_parquet_read_options_init(jg_parquet_read_options *options);

/** Reads the selected fields of the selected row groups into `*out`: a record array (one field
 *  per top-level field selected, the file's names and order) of length = the rows of those row
 *  groups. Layouts (docs/parquet.md): REQUIRED values are numeric arrays, OPTIONAL fields
 *  byte-masked options (bool mask, valid when true; nulls hold zeros), REPEATED fields and
 *  LIST / MAP groups list-offset arrays with int64 offsets starting at 0 (maps: lists of
 *  records {key, value}), groups records, BYTE_ARRAY (strings too) lists of uint8,
 *  FIXED_LEN_BYTE_ARRAY regular arrays of uint8 (FLOAT16: float16). `options` NULL: defaults.
 *  The arrays are new (the caller releases *out) and own their memory: closing the file does
 *  not invalidate them. With device_id >= 0 every buffer is on that device (backend cuda) when
 *  the call returns; else in host memory from options->memory.
 *  Errors: JG_EINVAL (NULL file or out; bad options: version, a row group range outside the
 *  file or empty-reversed, nthreads < 0, ncolumns < 0 or NULL columns with ncolumns > 0,
 *  non-zero reserved bytes, a memory resource that is not host-accessible), JG_ENOTFOUND (a
 *  column name that matches no field; the message names it), JG_ECORRUPT / JG_ENOTSUP (data
 *  errors, naming file, column, row group and page), JG_ESHAPE (nanoaod: an X_* list whose
 *  count differs from nX's in some row; message names both columns and the row, index = row),
 *  JG_ENODEV (device_id >= 0 without a usable GPU), JG_EINDEX (no such device), JG_EDEVMEM,
 *  JG_ECUDA, JG_ENOMEM. On error *out is NULL. */
JG_API jg_status jg_parquet_read(jg_parquet_file *file, const jg_parquet_read_options *options,
                                 jg_array **out, jg_error *err);

/** A batch reader (opaque): reads row group by row group, so that only one row group's decoded
 *  columns are in memory at a time. */
typedef struct jg_parquet_reader jg_parquet_reader;

/** Opens a batch reader over `file` (which must outlive it) with `options` (as jg_parquet_read;
 *  copied, the column names resolved now) giving batches of `batch_rows` rows: 0 gives one
 *  whole row group a batch; N > 0 gives slices of at most N rows of one row group (a row group
 *  is decoded whole, then handed out in slices sharing its buffers; a batch never spans two
 *  row groups, so it may be shorter than N). Errors: as jg_parquet_read's option checks,
 *  JG_EINVAL also for batch_rows < 0; JG_ENOTFOUND; JG_ENOMEM. */
JG_API jg_status jg_parquet_reader_open(jg_parquet_file *file,
                                        const jg_parquet_read_options *options,
                                        int64_t batch_rows, jg_parquet_reader **out,
                                        jg_error *err);

/** The next batch in `*out` (a new reference, a record array as jg_parquet_read gives), or
 *  NULL at the end (JG_OK). Row groups of 0 rows are skipped. Errors: as jg_parquet_read;
 *  after an error the reader stays at the failed row group (the next call tries it again). */
JG_API jg_status jg_parquet_reader_next(jg_parquet_reader *reader, jg_array **out,
                                        jg_error *err);

/** Frees the reader (batches already returned stay valid). NULL is a no-op. */
JG_API void jg_parquet_reader_close(jg_parquet_reader *reader);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_PARQUET_H */
