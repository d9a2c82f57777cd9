/* fuzz_parquet_write.c: libFuzzer target of the Parquet writer (issue 19).
 *
 * Each input is decoded into writer options and a table (decode_table): the codec (among those
 * built in), the page version, the dictionary, row_group_rows, page_size and dictionary_size;
 * 0..48 rows of 1..4 columns, each a tree (up to 4 deep) of numeric leaves (every writable dtype,
 * values taken from the input's bytes), list-offset lists (int32 or int64 offsets, not starting
 * at 0, content past the last list), byte-masked options (not directly over another option,
 * which the file cannot tell apart) and records. The table is written to memory
 * (jg_parquet_write_memory) and to a file in a temporary folder (jg_parquet_write, or the
 * streaming writer fed the table in two slices), and both are read back (jg_parquet_read) and
 * compared with the table: the same type string and the same full printout, which prints every
 * number in the fewest digits that read back to the same value, so a changed value shows. A
 * single-table file must also hold the same bytes as memory. Every table decoded is valid, so
 * any status but JG_OK, or any difference, traps (__builtin_trap): libFuzzer keeps the input.
 * Seeds (tests/fuzz/seeds_parquet_write/) are short synthetic byte strings. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jagged/jagged.h"
#include "jagged/parquet_writer.h"

#define MUST(cond)                \
  do {                            \
    if (!(cond)) __builtin_trap(); \
  } while (0)

/* ---- the input as a stream of bytes (zeros once it is used up) --------------------------- */

typedef struct bytes {
  const uint8_t *p;
  size_t n;
} bytes;

static uint8_t u8(bytes *b) {
  if (b->n == 0) return 0;
  b->n--;
  return *b->p++;
}

static void take(bytes *b, void *out, size_t n) {
  uint8_t *o = out;
  for (size_t k = 0; k < n; k++) o[k] = u8(b);
}

/* ---- building the table ------------------------------------------------------------------- */

enum { MAX_DEPTH = 4, MAX_ROWS = 48, MAX_ENTRIES = 4096 };

static const jg_dtype kDtypes[] = {JG_DTYPE_BOOL,   JG_DTYPE_INT8,    JG_DTYPE_INT16,
                                   JG_DTYPE_INT32,  JG_DTYPE_INT64,   JG_DTYPE_UINT8,
                                   JG_DTYPE_UINT16, JG_DTYPE_UINT32,  JG_DTYPE_UINT64,
                                   JG_DTYPE_FLOAT16, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT64};

/* A host view of n elements of `dtype` holding `vals` (a buffer of its own). */
static jg_view host_view(const void *vals, jg_len n, jg_dtype dtype) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  jg_buffer *buf = NULL;
  MUST(jg_buffer_allocate(jg_memory_resource_host(), (size_t)(n * isz) + 1, NULL, &buf, NULL) ==
       JG_OK);
  if (n > 0) memcpy(jg_buffer_data(buf), vals, (size_t)(n * isz));
  jg_layout l;
  MUST(jg_layout_init(&l, 1, &n, NULL, isz, NULL) == JG_OK);
  jg_view v;
  MUST(jg_view_from_buffer(&v, buf, &l, dtype, false, NULL) == JG_OK);
  return v;
}

static jg_array *node(bytes *b, jg_len n, int depth, bool under_option, jg_len *budget);

/* A numeric leaf of n values; bool values are 0 or 1. */
static jg_array *leaf(bytes *b, jg_len n) {
  const jg_dtype dt = kDtypes[u8(b) % (sizeof kDtypes / sizeof kDtypes[0])];
  const size_t isz = (size_t)jg_dtype_itemsize(dt);
  uint8_t *vals = calloc((size_t)n * isz + 1, 1);
  MUST(vals != NULL);
  take(b, vals, (size_t)n * isz);
  if (dt == JG_DTYPE_BOOL) {
    for (jg_len i = 0; i < n; i++) vals[i] &= 1;
  }
  jg_array *a = NULL;
  MUST(jg_array_from_host(vals, n, dt, &a, NULL) == JG_OK);
  free(vals);
  return a;
}

/* n lists of 0..3 entries each, offsets from a start of 0..3, content 0..2 entries longer. */
static jg_array *list(bytes *b, jg_len n, int depth, jg_len *budget) {
  const uint8_t how = u8(b);
  int64_t *off = malloc(sizeof *off * (size_t)(n + 1));
  MUST(off != NULL);
  off[0] = how & 3;
  for (jg_len i = 0; i < n; i++) {
    int64_t c = u8(b) & 3;
    if (*budget < c) c = 0;
    *budget -= c;
    off[i + 1] = off[i] + c;
  }
  const jg_len len = off[n] + ((how >> 2) % 3);
  jg_array *content = node(b, len, depth + 1, false, budget);
  jg_view v;
  if (how & 0x10) {
    int32_t *o32 = malloc(sizeof *o32 * (size_t)(n + 1));
    MUST(o32 != NULL);
    for (jg_len i = 0; i <= n; i++) o32[i] = (int32_t)off[i];
    v = host_view(o32, n + 1, JG_DTYPE_INT32);
    free(o32);
  } else {
    v = host_view(off, n + 1, JG_DTYPE_INT64);
  }
  free(off);
  jg_array *a = NULL;
  MUST(jg_array_list_offset(&v, content, &a, NULL) == JG_OK);
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

/* A byte-masked option over n entries (valid when the mask byte is 1). */
static jg_array *option(bytes *b, jg_len n, int depth, jg_len *budget) {
  int8_t *m = malloc((size_t)n + 1);
  MUST(m != NULL);
  for (jg_len i = 0; i < n; i++) m[i] = (int8_t)((u8(b) & 3) != 0);
  jg_array *content = node(b, n, depth + 1, true, budget);
  jg_view v = host_view(m, n, JG_DTYPE_INT8);
  free(m);
  jg_array *a = NULL;
  MUST(jg_array_byte_masked(&v, true, content, &a, NULL) == JG_OK);
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

/* A record of nf >= 1 fields "f0", "f1", ... of n entries each. */
static jg_array *record(bytes *b, jg_len n, int nf, int depth, jg_len *budget) {
  jg_array *fields[4];
  char names_buf[4][8];
  const char *names[4];
  for (int k = 0; k < nf; k++) {
    fields[k] = node(b, n, depth + 1, false, budget);
    snprintf(names_buf[k], sizeof names_buf[k], "f%d", k);
    names[k] = names_buf[k];
  }
  jg_array *a = NULL;
  MUST(jg_array_record(nf, fields, names, n, &a, NULL) == JG_OK);
  for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
  return a;
}

static jg_array *node(bytes *b, jg_len n, int depth, bool under_option, jg_len *budget) {
  const uint8_t kind = depth >= MAX_DEPTH ? 0 : u8(b) % 4;
  if (kind == 1) return list(b, n, depth, budget);
  if (kind == 2 && !under_option) return option(b, n, depth, budget);
  if (kind == 3) return record(b, n, 1 + u8(b) % 3, depth, budget);
  return leaf(b, n);
}

/* The options and the table (a record of 1..4 columns "c0", ...) that `b` describes. */
static jg_array *decode_table(bytes *b, jg_parquet_write_options *o, bool *stream) {
  static const jg_parquet_codec codecs[] = {JG_PARQUET_UNCOMPRESSED, JG_PARQUET_SNAPPY,
                                            JG_PARQUET_GZIP,         JG_PARQUET_BROTLI,
                                            JG_PARQUET_ZSTD,         JG_PARQUET_LZ4_RAW};
  jg_parquet_write_options_init(o);
  const uint8_t flags = u8(b);
  o->codec = codecs[(flags & 7) % 6];
  if (!jg_parquet_codec_available(o->codec)) o->codec = JG_PARQUET_UNCOMPRESSED;
  o->data_page_version = (flags & 8) ? 2 : 1;
  o->dictionary = (flags & 16) != 0;
  *stream = (flags & 32) != 0;
  o->row_group_rows = 1 + u8(b) % 64;
  o->page_size = 1 + (int64_t)u8(b) * 16;
  o->dictionary_size = 1 + (int64_t)u8(b) * 16;
  const jg_len rows = u8(b) % (MAX_ROWS + 1);
  const int ncols = 1 + u8(b) % 4;
  jg_len budget = MAX_ENTRIES;
  jg_array *cols[4];
  char names_buf[4][8];
  const char *names[4];
  for (int k = 0; k < ncols; k++) {
    cols[k] = node(b, rows, 1, false, &budget);
    snprintf(names_buf[k], sizeof names_buf[k], "c%d", k);
    names[k] = names_buf[k];
  }
  jg_array *t = NULL;
  MUST(jg_array_record(ncols, cols, names, rows, &t, NULL) == JG_OK);
  for (int k = 0; k < ncols; k++) jg_array_release(cols[k]);
  MUST(jg_array_validate(t, JG_VALIDATE_FULL, NULL, NULL) == JG_OK);
  return t;
}

/* ---- comparing ---------------------------------------------------------------------------- */

/* The whole printout (type: the type string) of `a`, malloc'ed. */
static char *show(const jg_array *a, bool type) {
  size_t needed = 0;
  const size_t width = (size_t)1 << 40;
  jg_status st = type ? jg_array_type_string(a, NULL, 0, &needed, NULL)
                      : jg_array_to_string(a, width, NULL, 0, &needed, NULL);
  MUST(st == JG_OK);
  char *s = malloc(needed + 1);
  MUST(s != NULL);
  st = type ? jg_array_type_string(a, s, needed + 1, NULL, NULL)
            : jg_array_to_string(a, width, s, needed + 1, NULL, NULL);
  MUST(st == JG_OK);
  return s;
}

/* Reads the whole file `f` and checks it against `want_type` and `want_values`. */
static void check_file(jg_parquet_file *f, const char *want_type, const char *want_values) {
  jg_array *back = NULL;
  jg_error err;
  MUST(jg_parquet_read(f, NULL, &back, &err) == JG_OK);
  MUST(jg_array_validate(back, JG_VALIDATE_FULL, NULL, NULL) == JG_OK);
  char *t = show(back, true), *v = show(back, false);
  MUST(strcmp(t, want_type) == 0);
  MUST(strcmp(v, want_values) == 0);
  free(t);
  free(v);
  jg_array_release(back);
  jg_parquet_close(f);
}

/* The bytes of the file at `path` (malloc'ed) and their number in *n. */
static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  MUST(f != NULL);
  MUST(fseek(f, 0, SEEK_END) == 0);
  const long len = ftell(f);
  MUST(len >= 0);
  rewind(f);
  uint8_t *d = malloc((size_t)len + 1);
  MUST(d != NULL);
  MUST(fread(d, 1, (size_t)len, f) == (size_t)len);
  fclose(f);
  *n = (size_t)len;
  return d;
}

/* The number of names in folder `dir` (without . and ..): the writer leaves no temporary file. */
static int count_names(const char *dir) {
  DIR *d = opendir(dir);
  MUST(d != NULL);
  int n = 0;
  for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

/* The folder of this process's files (made once, removed at exit). */
static char folder[64];
static char file_path[96];

static void remove_folder(void) {
  unlink(file_path);
  rmdir(folder);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (folder[0] == '\0') {
    snprintf(folder, sizeof folder, "/tmp/jg_fuzz_write_XXXXXX");
    MUST(mkdtemp(folder) != NULL);
    snprintf(file_path, sizeof file_path, "%s/t.parquet", folder);
    atexit(remove_folder);
  }
  bytes b = {data, size};
  jg_parquet_write_options o;
  bool stream = false;
  jg_array *table = decode_table(&b, &o, &stream);
  char *want_type = show(table, true), *want_values = show(table, false);
  jg_error err;

  void *mem = NULL;
  size_t mem_size = 0;
  MUST(jg_parquet_write_memory(table, &o, &mem, &mem_size, &err) == JG_OK);
  jg_parquet_file *f = NULL;
  MUST(jg_parquet_open_memory(mem, mem_size, &f, &err) == JG_OK);
  check_file(f, want_type, want_values);

  if (stream) {
    /* Two slices through the streaming writer: the same rows, other row groups. */
    const jg_len rows = jg_array_length(table), cut = rows / 2;
    jg_array *s1 = NULL, *s2 = NULL;
    MUST(jg_array_slice(table, 0, cut, &s1, &err) == JG_OK);
    MUST(jg_array_slice(table, cut, rows, &s2, &err) == JG_OK);
    jg_parquet_writer *w = NULL;
    MUST(jg_parquet_writer_open(file_path, &o, &w, &err) == JG_OK);
    MUST(jg_parquet_writer_write(w, s1, &err) == JG_OK);
    MUST(jg_parquet_writer_write(w, s2, &err) == JG_OK);
    MUST(jg_parquet_writer_close(w, &err) == JG_OK);
    jg_array_release(s1);
    jg_array_release(s2);
  } else {
    MUST(jg_parquet_write(table, file_path, &o, &err) == JG_OK);
    size_t n = 0;
    uint8_t *d = slurp(file_path, &n);
    MUST(n == mem_size && memcmp(d, mem, n) == 0);
    free(d);
  }
  MUST(count_names(folder) == 1); /* the file, and no temporary file */
  MUST(jg_parquet_open(file_path, &f, &err) == JG_OK);
  check_file(f, want_type, want_values);

  jg_parquet_memory_free(mem);
  free(want_type);
  free(want_values);
  jg_array_release(table);
  return 0;
}
