/* test_parquet_writer_stream.c: the streaming Parquet writer (jg_parquet_writer_* of
 * parquet_writer.h). Several tables are written to one file, read back with jg_parquet_read
 * and compared, value by value (the full printout) and by type, with the concatenation of the
 * inputs (jg_array_concatenate); the footer's row groups are checked against row_group_rows.
 * Then the edge cases: empty tables, many small ones, slices, the schema rule (JG_ESHAPE naming
 * the column, the writer staying usable), close without a table, discard, open errors, NULL
 * arguments, device tables, and a write that fails with an I/O error half way (the file size
 * limit, RLIMIT_FSIZE), after which the writer is failed (JG_ESTATE). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, setrlimit */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "jagged/parquet.h"
#include "jagged/parquet_writer.h"
#include "jg_test.h"
#include "jgt_build.h"

/* ------------------------------------------------------------------------------------------ */
/* Building arrays (every helper takes ownership of the child arrays it is given)             */
/* ------------------------------------------------------------------------------------------ */

/* A list-offset array of n lists with offsets `off` (n + 1, int64 or int32). */
static jg_array *lo(const void *off, jg_len n, jg_dtype odt, jg_array *content) {
  jg_view v = host_view(off, n + 1, odt);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&v, content, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

static jg_array *bytemask(const int8_t *m, jg_len n, jg_array *content) {
  jg_view v = host_view(m, n, JG_DTYPE_INT8);
  jg_array *a = NULL;
  JGT_OK(jg_array_byte_masked(&v, true, content, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

static jg_array *rec(int n, jg_array **fields, const char *const *names, jg_len length) {
  jg_array *a = NULL;
  JGT_OK(jg_array_record(n, fields, names, length, &a, &jgt_err_));
  for (int k = 0; k < n; k++) jg_array_release(fields[k]);
  return a;
}

/* One part of the test data: `n` rows, values derived from `seed`, of the fields
 *   id: int64, pt: var * float32 (offsets not starting at 0), q: ?int32 (None every third),
 *   nest: var * var * int16, rec: {x: float64, name: var * uint8 (bytes)}, flag: bool.
 * variant 1 gives the same Parquet schema through other layouts: pt's offsets int32, nest's
 * inner lists as starts/stops over content with values outside the lists. */
static jg_array *make_part(int64_t seed, int64_t n, int variant) {
  int64_t *id = calloc((size_t)n + 1, sizeof *id);
  int64_t *poff = calloc((size_t)n + 1, sizeof *poff);
  int32_t *poff32 = calloc((size_t)n + 1, sizeof *poff32);
  float *pt = calloc((size_t)(3 * n + 3), sizeof *pt);
  int32_t *q = calloc((size_t)n + 1, sizeof *q);
  int8_t *qm = calloc((size_t)n + 1, sizeof *qm);
  int64_t *inner = calloc((size_t)(2 * n + 1), sizeof *inner);
  int64_t *outer = calloc((size_t)n + 1, sizeof *outer);
  int16_t *nv = calloc((size_t)(6 * n + 1), sizeof *nv);
  double *x = calloc((size_t)n + 1, sizeof *x);
  int64_t *boff = calloc((size_t)n + 1, sizeof *boff);
  uint8_t *bytes = calloc((size_t)(3 * n + 1), 1);
  uint8_t *flag = calloc((size_t)n + 1, 1);
  assert_true(id && poff && poff32 && pt && q && qm && inner && outer && nv && x && boff && bytes &&
              flag);
  /* pt: 2 junk values first, then list i has i % 4 values. */
  int64_t np = 2;
  pt[0] = pt[1] = -999.0f;
  int64_t ninner = 0, nn = 0, nb = 0;
  poff[0] = np;
  inner[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t r = seed * 1000 + i;
    id[i] = r;
    for (int64_t k = 0; k < (i + seed) % 4; k++) pt[np++] = (float)r + 0.25f * (float)k;
    poff[i + 1] = np;
    q[i] = (int32_t)(r * 7 - 50);
    qm[i] = (int8_t)((i + seed) % 3 != 0);
    /* nest: (i % 3) inner lists of (i + k) % 3 values */
    outer[i] = ninner;
    for (int64_t k = 0; k < (i + seed) % 3; k++) {
      for (int64_t t = 0; t < (i + k) % 3; t++) nv[nn++] = (int16_t)(r % 1000 - 10 * t);
      inner[++ninner] = nn;
    }
    x[i] = (double)r / 8.0;
    boff[i] = nb;
    for (int64_t k = 0; k < (i + seed) % 4 && k < 3; k++)
      bytes[nb++] = (uint8_t)('a' + (r + k) % 26);
    flag[i] = (uint8_t)((r % 5) == 1);
  }
  outer[n] = ninner;
  boff[n] = nb;
  for (int64_t i = 0; i <= n; i++) poff32[i] = (int32_t)poff[i];
  jg_array *fields[6];
  fields[0] = num(id, n, JG_DTYPE_INT64);
  jg_array *ptc = num(pt, np, JG_DTYPE_FLOAT32);
  fields[1] = variant == 1 ? lo(poff32, n, JG_DTYPE_INT32, ptc) : lo(poff, n, JG_DTYPE_INT64, ptc);
  fields[2] = bytemask(qm, n, num(q, n, JG_DTYPE_INT32));
  jg_array *inl = lo(inner, ninner, JG_DTYPE_INT64, num(nv, nn, JG_DTYPE_INT16));
  if (variant == 1) {
    /* The same inner lists as starts/stops, over content with a junk value before each. */
    jg_array_release(inl);
    int64_t *st = calloc((size_t)ninner + 1, sizeof *st);
    int64_t *sp = calloc((size_t)ninner + 1, sizeof *sp);
    int16_t *padded = calloc((size_t)(ninner + nn + 1), sizeof *padded);
    assert_true(st && sp && padded);
    int64_t at = 0;
    for (int64_t j = 0; j < ninner; j++) {
      padded[at++] = 12345; /* inside no list */
      st[j] = at;
      for (int64_t t = inner[j]; t < inner[j + 1]; t++) padded[at++] = nv[t];
      sp[j] = at;
    }
    inl = lss(st, sp, ninner, num(padded, at, JG_DTYPE_INT16));
    free(st);
    free(sp);
    free(padded);
  }
  fields[3] = lo(outer, n, JG_DTYPE_INT64, inl);
  jg_array *rf[2] = {num(x, n, JG_DTYPE_FLOAT64),
                     lo(boff, n, JG_DTYPE_INT64, num(bytes, nb, JG_DTYPE_UINT8))};
  const char *rn[] = {"x", "name"};
  fields[4] = rec(2, rf, rn, n);
  fields[5] = num(flag, n, JG_DTYPE_BOOL);
  const char *names[] = {"id", "pt", "q", "nest", "rec", "flag"};
  jg_array *t = rec(6, fields, names, n);
  free(id);
  free(poff);
  free(poff32);
  free(pt);
  free(q);
  free(qm);
  free(inner);
  free(outer);
  free(nv);
  free(x);
  free(boff);
  free(bytes);
  free(flag);
  return t;
}

/* A table of one field. */
static jg_array *table1(const char *name, jg_array *field) {
  return rec(1, &field, &name, -1);
}

/* ------------------------------------------------------------------------------------------ */
/* Files and comparisons                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* A fresh path in /tmp that does not exist (unique per call and process). */
static void tmp_path(char *buf, size_t size) {
  snprintf(buf, size, "/tmp/jg_pq_stream_XXXXXX");
  const int fd = mkstemp(buf);
  assert_true(fd >= 0);
  close(fd);
  remove(buf);
}

static bool file_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return false;
  fclose(f);
  return true;
}

/* Reads the whole file at `path`; the caller releases the array. */
static jg_array *read_all(const char *path) {
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
  jg_array *t = NULL;
  JGT_OK(jg_parquet_read(f, NULL, &t, &jgt_err_));
  jg_parquet_close(f);
  return t;
}

/* Asserts that the file at `path` holds the concatenation of parts[0..n) (values and type) in
 * row groups of the given sizes (ngroups of them; group_rows NULL: not checked). */
static void check_file(const char *path, jg_array *const *parts, int n, int ngroups,
                       const int64_t *group_rows) {
  jg_array *want = NULL;
  JGT_OK(jg_array_concatenate(n, (const jg_array *const *)parts, 0, NULL, &want, &jgt_err_));
  jg_array *got = read_all(path);
  char *a = show(want, false), *b = show(got, false);
  if (strcmp(a, b) != 0) print_error("written %s\nread    %s\n", a, b);
  assert_string_equal(a, b);
  free(a);
  free(b);
  a = show(want, true);
  b = show(got, true);
  assert_string_equal(a, b);
  free(a);
  free(b);
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
  assert_int_equal(jg_parquet_num_rows(f), jg_array_length(want));
  if (ngroups >= 0) assert_int_equal(jg_parquet_num_row_groups(f), ngroups);
  if (group_rows != NULL)
    for (int g = 0; g < ngroups; g++)
      assert_int_equal(jg_parquet_row_group_num_rows(f, g), group_rows[g]);
  jg_parquet_close(f);
  jg_array_release(got);
  jg_array_release(want);
}

/* ------------------------------------------------------------------------------------------ */
/* Round trips                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Three tables (5, 0 and 7 rows; the second of other layouts with the same schema) in row
 * groups of 3 rows, over page versions, dictionaries and codecs. */
static void test_several_tables(void **state) {
  (void)state;
  const jg_parquet_codec codecs[] = {JG_PARQUET_SNAPPY, JG_PARQUET_ZSTD, JG_PARQUET_UNCOMPRESSED};
  int tried = 0;
  for (int version = 1; version <= 2; version++)
    for (int dict = 0; dict <= 1; dict++)
      for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
        if (!jg_parquet_codec_available(codecs[c])) continue;
        jg_array *parts[3] = {make_part(1, 5, 0), make_part(2, 0, 1), make_part(3, 7, 1)};
        jg_parquet_write_options o;
        jg_parquet_write_options_init(&o);
        o.row_group_rows = 3;
        o.data_page_version = version;
        o.dictionary = dict != 0;
        o.codec = codecs[c];
        o.page_size = c == 2 ? 16 : JG_PARQUET_DEFAULT_PAGE_SIZE; /* many pages too */
        char path[64];
        tmp_path(path, sizeof path);
        jg_parquet_writer *w = NULL;
        JGT_OK(jg_parquet_writer_open(path, &o, &w, &jgt_err_));
        assert_non_null(w);
        assert_int_equal(jg_parquet_writer_num_rows(w), 0);
        const int64_t total[3] = {5, 5, 12};
        for (int k = 0; k < 3; k++) {
          JGT_OK(jg_parquet_writer_write(w, parts[k], &jgt_err_));
          assert_int_equal(jg_parquet_writer_num_rows(w), total[k]);
        }
        JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
        const int64_t groups[] = {3, 2, 3, 3, 1}; /* each table cut separately */
        check_file(path, parts, 3, 5, groups);
        /* The columns' metadata (paths in the footer) survived the tables. */
        jg_parquet_file *f = NULL;
        JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
        assert_int_equal(jg_parquet_num_columns(f), 7);
        jg_parquet_column_info info;
        info.version = 0;
        JGT_OK(jg_parquet_column_info_get(f, 1, &info, &jgt_err_));
        assert_string_equal(info.path, "pt.list.element");
        JGT_OK(jg_parquet_column_info_get(f, 3, &info, &jgt_err_));
        assert_string_equal(info.path, "nest.list.element.list.element");
        JGT_OK(jg_parquet_column_info_get(f, 5, &info, &jgt_err_));
        assert_string_equal(info.path, "rec.name");
        assert_string_equal(info.physical_type, "BYTE_ARRAY");
        jg_parquet_close(f);
        remove(path);
        for (int k = 0; k < 3; k++) jg_array_release(parts[k]);
        tried++;
      }
  assert_true(tried >= 8);
}

/* One table through the streaming writer is the same file, byte for byte, as jg_parquet_write
 * and jg_parquet_write_memory give (one machinery). */
static void test_same_bytes_as_write(void **state) {
  (void)state;
  jg_array *t = make_part(4, 40, 0);
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.row_group_rows = 16;
  char p1[64], p2[64];
  tmp_path(p1, sizeof p1);
  tmp_path(p2, sizeof p2);
  JGT_OK(jg_parquet_write(t, p1, &o, &jgt_err_));
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(p2, &o, &w, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  void *mem = NULL;
  size_t size = 0;
  JGT_OK(jg_parquet_write_memory(t, &o, &mem, &size, &jgt_err_));
  const char *paths[] = {p1, p2};
  for (int k = 0; k < 2; k++) {
    FILE *f = fopen(paths[k], "rb");
    assert_non_null(f);
    uint8_t *buf = malloc(size + 16);
    assert_non_null(buf);
    const size_t got = fread(buf, 1, size + 16, f);
    fclose(f);
    assert_int_equal(got, size);
    assert_memory_equal(buf, mem, size);
    free(buf);
    remove(paths[k]);
  }
  jg_parquet_memory_free(mem);
  jg_array_release(t);
}

/* row_group_rows smaller than a table: 10 rows in groups of 4, 4, 2; and of 1 row each. */
static void test_row_groups_smaller_than_table(void **state) {
  (void)state;
  jg_array *t = make_part(5, 10, 0);
  for (int g = 0; g < 2; g++) {
    jg_parquet_write_options o;
    jg_parquet_write_options_init(&o);
    o.row_group_rows = g == 0 ? 4 : 1;
    char path[64];
    tmp_path(path, sizeof path);
    jg_parquet_writer *w = NULL;
    JGT_OK(jg_parquet_writer_open(path, &o, &w, &jgt_err_));
    JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
    JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
    JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
    jg_array *parts[2] = {t, t};
    const int64_t four[] = {4, 4, 2, 4, 4, 2};
    const int64_t ones[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    check_file(path, parts, 2, g == 0 ? 6 : 20, g == 0 ? four : ones);
    remove(path);
  }
  jg_array_release(t);
}

/* Many small tables: 120 slices of 1 to 3 rows of one table (offsets never starting at 0), each
 * its own row group; the file equals the table. */
static void test_many_small_tables(void **state) {
  (void)state;
  jg_array *t = make_part(6, 240, 0);
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  int64_t rows[240];
  int ngroups = 0;
  int64_t r = 0;
  while (r < 240) {
    const int64_t len = 1 + ngroups % 3, stop = r + len < 240 ? r + len : 240;
    jg_array *s = NULL;
    JGT_OK(jg_array_slice(t, r, stop, &s, &jgt_err_));
    JGT_OK(jg_parquet_writer_write(w, s, &jgt_err_));
    jg_array_release(s); /* released right away: the writer keeps nothing of it */
    rows[ngroups++] = stop - r;
    r = stop;
  }
  assert_int_equal(jg_parquet_writer_num_rows(w), 240);
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  check_file(path, &t, 1, ngroups, rows);
  remove(path);
  jg_array_release(t);
}

/* Slices: the middle of a table (offsets, masks and bytes not starting at 0), then a table
 * whose lists' offsets start at 5 in their own buffer. */
static void test_slices(void **state) {
  (void)state;
  jg_array *t = make_part(7, 30, 0);
  jg_array *s1 = NULL, *s2 = NULL;
  JGT_OK(jg_array_slice(t, 7, 19, &s1, &jgt_err_));
  JGT_OK(jg_array_slice(t, 25, 30, &s2, &jgt_err_));
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, s1, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, s2, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  jg_array *parts[] = {s1, s2};
  const int64_t groups[] = {12, 5};
  check_file(path, parts, 2, 2, groups);
  remove(path);
  /* Offsets from 5: [[1.5, 2.5], [], [3.5]] then from 0: [[4.5]]. */
  const float v[] = {9, 9, 9, 9, 9, 1.5f, 2.5f, 3.5f};
  const int64_t off5[] = {5, 7, 7, 8}, off0[] = {0, 1};
  const float v0[] = {4.5f};
  jg_array *a = table1("l", lo(off5, 3, JG_DTYPE_INT64, num(v, 8, JG_DTYPE_FLOAT32)));
  jg_array *b = table1("l", lo(off0, 1, JG_DTYPE_INT64, num(v0, 1, JG_DTYPE_FLOAT32)));
  tmp_path(path, sizeof path);
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, a, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, b, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  jg_array *back = read_all(path);
  char *str = show(back, false);
  assert_string_equal(str, "[{l: [1.5, 2.5]}, {l: []}, {l: [3.5]}, {l: [4.5]}]");
  free(str);
  jg_array_release(back);
  remove(path);
  jg_array_release(a);
  jg_array_release(b);
  /* Offsets read through strided views (every other entry; int32 and int64; a negative
   * stride): the same lists [[1.5, 2.5], [], [3.5]]. */
  const int64_t soff64[] = {5, -1, 7, -1, 7, -1, 8};
  const int32_t soff32[] = {5, -1, 7, -1, 7, -1, 8};
  const int64_t roff64[] = {8, -1, 7, -1, 7, -1, 5}; /* reversed: read from the end */
  for (int k = 0; k < 3; k++) {
    jg_view base = k == 1 ? host_view(soff32, 7, JG_DTYPE_INT32)
                          : host_view(k == 0 ? soff64 : roff64, 7, JG_DTYPE_INT64);
    const jg_len four = 4;
    const jg_stride stride = k == 2 ? -2 : 2;
    jg_layout l;
    JGT_OK(jg_layout_init(&l, 1, &four, &stride, k == 1 ? 4 : 8, &jgt_err_));
    if (k == 2) l.slice_offset = 6; /* the first entry read is the last one stored */
    jg_view ov;
    JGT_OK(jg_view_from_buffer(&ov, base.buffer, &l, base.dtype, false, &jgt_err_));
    jg_array *la = NULL;
    jg_array *content = num(v, 8, JG_DTYPE_FLOAT32);
    JGT_OK(jg_array_list_offset(&ov, content, &la, &jgt_err_));
    jg_array_release(content);
    jg_buffer_release(base.buffer);
    jg_array *ta = table1("l", la);
    tmp_path(path, sizeof path);
    JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
    JGT_OK(jg_parquet_writer_write(w, ta, &jgt_err_));
    JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
    back = read_all(path);
    str = show(back, false);
    assert_string_equal(str, "[{l: [1.5, 2.5]}, {l: []}, {l: [3.5]}]");
    free(str);
    jg_array_release(back);
    remove(path);
    jg_array_release(ta);
  }
  jg_array_release(s1);
  jg_array_release(s2);
  jg_array_release(t);
}

/* Empty tables: no row group, but a first empty table fixes the schema (a later table that
 * differs is refused); a file of only empty tables is valid with 0 rows. */
static void test_empty_tables(void **state) {
  (void)state;
  jg_array *e = make_part(8, 0, 0), *t = make_part(8, 4, 0);
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, e, &jgt_err_));
  const int32_t one = 1;
  jg_array *other = table1("id", num(&one, 1, JG_DTYPE_INT32));
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_parquet_writer_write(w, other, &err));
  JGT_CONTAINS(err.message, "'id'");
  JGT_OK(jg_parquet_writer_write(w, e, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, e, &jgt_err_));
  assert_int_equal(jg_parquet_writer_num_rows(w), 4);
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  jg_array *parts[] = {e, t, e};
  const int64_t groups[] = {4};
  check_file(path, parts, 3, 1, groups);
  remove(path);
  /* Only empty tables: 0 rows, 0 row groups, the schema of the table. */
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, e, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
  assert_int_equal(jg_parquet_num_rows(f), 0);
  assert_int_equal(jg_parquet_num_row_groups(f), 0);
  char type[256];
  JGT_OK(jg_parquet_type_string(f, type, sizeof type, NULL, &jgt_err_));
  char *want = show(e, true);
  assert_string_equal(type, want);
  free(want);
  jg_parquet_close(f);
  check_file(path, &e, 1, 0, NULL);
  remove(path);
  jg_array_release(other);
  jg_array_release(e);
  jg_array_release(t);
}

/* ------------------------------------------------------------------------------------------ */
/* The schema rule                                                                             */
/* ------------------------------------------------------------------------------------------ */

/* A table {a: int32, b: var * float32} of 2 rows (rows start at `base`), with one change:
 * 0 none, 1 a int64, 2 no b, 3 a optional, 4 b's elements optional, 5 an extra field c,
 * 6 the fields swapped, 7 b a float32 scalar, 8 a renamed to z, 9 b's elements float64,
 * 10 a uint32, 11 a field c between a and b, 12 no a. */
static jg_array *ab_table(int change, int32_t base) {
  const int32_t a32[] = {base, base + 1};
  const int64_t a64[] = {base, base + 1};
  const float bv[] = {1.5f, 2.5f, 3.5f};
  const double bd[] = {1.5, 2.5, 3.5};
  const int64_t boff[] = {0, 2, 3};
  const int8_t mask[] = {1, 0, 1};
  jg_array *a = change == 1    ? num(a64, 2, JG_DTYPE_INT64)
                : change == 10 ? num(a32, 2, JG_DTYPE_UINT32)
                               : num(a32, 2, JG_DTYPE_INT32);
  if (change == 3) a = bytemask((const int8_t[]){1, 0}, 2, a);
  jg_array *bc = change == 9 ? num(bd, 3, JG_DTYPE_FLOAT64) : num(bv, 3, JG_DTYPE_FLOAT32);
  if (change == 4) bc = bytemask(mask, 3, bc);
  jg_array *b = change == 7 ? num(bv, 2, JG_DTYPE_FLOAT32) : lo(boff, 2, JG_DTYPE_INT64, bc);
  if (change == 7) jg_array_release(bc);
  jg_array *fields[3] = {a, b, num(a32, 2, JG_DTYPE_INT32)};
  const char *names[3] = {change == 8 ? "z" : "a", "b", "c"};
  if (change == 12) {
    jg_array_release(fields[0]);
    jg_array_release(fields[2]);
    return rec(1, &fields[1], &names[1], 2);
  }
  if (change == 2) {
    jg_array_release(fields[1]);
    jg_array_release(fields[2]);
    return rec(1, fields, names, 2);
  }
  if (change == 5) return rec(3, fields, names, 2);
  if (change == 11) {
    jg_array *mid[3] = {a, fields[2], b};
    const char *mn[3] = {"a", "c", "b"};
    return rec(3, mid, mn, 2);
  }
  jg_array_release(fields[2]);
  if (change == 6) {
    jg_array *sw[2] = {b, a};
    const char *sn[2] = {"b", "a"};
    return rec(2, sw, sn, 2);
  }
  return rec(2, fields, names, 2);
}

static void test_schema_mismatch(void **state) {
  (void)state;
  static const struct {
    int change;
    const char *column, *detail;
  } cases[] = {
      {1, "column 'a'", "INT64"},
      {2, "no field 'b'", "the file's schema has it"},
      {3, "column 'a'", "OPTIONAL INT32"},
      {4, "column 'b.list.element'", "OPTIONAL FLOAT"},
      {5, "field 'c'", "not in the file's schema"},
      {6, "field 'b' where the file's schema has 'a'", "in the file's order"},
      {7, "column 'b'", "REQUIRED FLOAT"},
      {8, "field 'z'", "'a'"},
      {9, "column 'b.list.element'", "DOUBLE"},
      {10, "column 'a'", "INTEGER(32, unsigned)"},
      {11, "field 'c'", "not in the file's schema"},
      {12, "no field 'a'", "before 'b'"},
  };
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  jg_array *first = ab_table(0, 0);
  JGT_OK(jg_parquet_writer_write(w, first, &jgt_err_));
  jg_array *good = ab_table(0, 100);
  int32_t base = 10;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    jg_array *bad = ab_table(cases[k].change, base);
    jg_error err;
    JGT_STATUS(JG_ESHAPE, jg_parquet_writer_write(w, bad, &err));
    JGT_CONTAINS(err.message, "jg_parquet_writer_write");
    JGT_CONTAINS(err.message, cases[k].column);
    JGT_CONTAINS(err.message, cases[k].detail);
    assert_int_equal(jg_parquet_writer_num_rows(w), 2);
    jg_array_release(bad);
  }
  /* The writer stays usable: a correct table, then close, give a valid file of both. */
  JGT_OK(jg_parquet_writer_write(w, good, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  jg_array *parts[] = {first, good};
  const int64_t groups[] = {2, 2};
  check_file(path, parts, 2, 2, groups);
  remove(path);
  jg_array_release(first);
  jg_array_release(good);
}

/* Other layouts of the same schema are accepted: list-offset with int32 offsets, starts/stops,
 * regular lists, a bit-masked option for a byte-masked one. */
static void test_schema_same_other_layouts(void **state) {
  (void)state;
  const float v[] = {1, 2, 3, 4};
  const int64_t off[] = {0, 2, 4};
  const int32_t off32[] = {0, 1, 4};
  const int64_t st[] = {2, 0}, sp[] = {4, 2};
  jg_array *r = NULL, *c = num(v, 4, JG_DTYPE_FLOAT32);
  JGT_OK(jg_array_regular(c, 2, -1, &r, &jgt_err_));
  jg_array_release(c);
  jg_array *tables[] = {table1("l", lo(off, 2, JG_DTYPE_INT64, num(v, 4, JG_DTYPE_FLOAT32))),
                        table1("l", lo(off32, 2, JG_DTYPE_INT32, num(v, 4, JG_DTYPE_FLOAT32))),
                        table1("l", lss(st, sp, 2, num(v, 4, JG_DTYPE_FLOAT32))), table1("l", r)};
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  for (int k = 0; k < 4; k++) JGT_OK(jg_parquet_writer_write(w, tables[k], &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  jg_array *back = read_all(path);
  char *s = show(back, false);
  assert_string_equal(s,
                      "[{l: [1, 2]}, {l: [3, 4]}, {l: [1]}, {l: [2, 3, 4]}, {l: [3, 4]}, "
                      "{l: [1, 2]}, {l: [1, 2]}, {l: [3, 4]}]");
  free(s);
  s = show(back, true);
  assert_string_equal(s, "8 * {l: var * float32}");
  free(s);
  jg_array_release(back);
  remove(path);
  for (int k = 0; k < 4; k++) jg_array_release(tables[k]);
}

/* ------------------------------------------------------------------------------------------ */
/* Errors and states                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* Close without a table: JG_ESTATE, and no file; the same after a refused first table. */
static void test_close_without_table(void **state) {
  (void)state;
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  assert_false(file_exists(path)); /* open makes only the temporary file beside it */
  char tmp[128];
  snprintf(tmp, sizeof tmp, "%s", jg_parquet_writer_temp_path(w));
  assert_true(strncmp(tmp, path, strlen(path)) == 0);
  assert_true(file_exists(tmp));
  jg_error err;
  JGT_STATUS(JG_ESTATE, jg_parquet_writer_close(w, &err));
  JGT_CONTAINS(err.message, "no table was written");
  JGT_CONTAINS(err.message, path);
  assert_false(file_exists(path));
  assert_false(file_exists(tmp));
  /* A first table refused by validation fixes no schema. */
  const int64_t bad_off[] = {0, 5};
  const int64_t one = 1;
  jg_array *tb = table1("bad", lo(bad_off, 1, JG_DTYPE_INT64, num(&one, 1, JG_DTYPE_INT64)));
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  JGT_STATUS(JG_EVALUE, jg_parquet_writer_write(w, tb, &err));
  JGT_STATUS(JG_ESTATE, jg_parquet_writer_close(w, &err));
  assert_false(file_exists(path));
  /* ... and a writer that refused one goes on with a good table, whose schema counts. */
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  JGT_STATUS(JG_EVALUE, jg_parquet_writer_write(w, tb, &err));
  jg_array *t = ab_table(0, 0);
  JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  check_file(path, &t, 1, 1, NULL);
  remove(path);
  jg_array_release(t);
  jg_array_release(tb);
}

/* Discard removes the temporary file, whatever was written, and makes no file at the path;
 * NULL is a no-op. */
static void test_discard(void **state) {
  (void)state;
  char path[64], tmp[128];
  tmp_path(path, sizeof path);
  jg_array *t = make_part(9, 50, 0);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
  snprintf(tmp, sizeof tmp, "%s", jg_parquet_writer_temp_path(w));
  assert_true(file_exists(tmp));
  assert_false(file_exists(path)); /* the file appears at close only */
  jg_parquet_writer_discard(w);
  assert_false(file_exists(path));
  assert_false(file_exists(tmp));
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  snprintf(tmp, sizeof tmp, "%s", jg_parquet_writer_temp_path(w));
  jg_parquet_writer_discard(w); /* nothing written */
  assert_false(file_exists(path));
  assert_false(file_exists(tmp));
  jg_parquet_writer_discard(NULL);
  jg_array_release(t);
}

/* Open: a nonexistent directory is JG_EIO naming the path; bad options are refused before any
 * file is made; NULL arguments. */
static void test_open_errors(void **state) {
  (void)state;
  jg_error err;
  jg_parquet_writer *w = (jg_parquet_writer *)&err; /* must be set to NULL */
  JGT_STATUS(JG_EIO, jg_parquet_writer_open("/nonexistent-dir/x.parquet", NULL, &w, &err));
  assert_null(w);
  JGT_CONTAINS(err.message, "/nonexistent-dir/x.parquet");
  JGT_CONTAINS(err.message, "jg_parquet_writer_open");
  assert_false(file_exists("/nonexistent-dir/x.parquet"));
  char path[64];
  tmp_path(path, sizeof path);
  w = (jg_parquet_writer *)&err;
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_open(NULL, NULL, &w, &err));
  assert_null(w);
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_open(path, NULL, NULL, &err));
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.row_group_rows = 0;
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_open(path, &o, &w, &err));
  JGT_CONTAINS(err.message, "row_group_rows");
  assert_null(w);
  jg_parquet_write_options_init(&o);
  o.data_page_version = 3;
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_open(path, &o, &w, &err));
  jg_parquet_write_options_init(&o);
  o.codec = (jg_parquet_codec)3; /* LZO */
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_open(path, &o, &w, &err));
  assert_false(file_exists(path));
}

/* NULL and wrong arguments of write, close and num_rows; the writer stays usable. */
static void test_null_arguments(void **state) {
  (void)state;
  jg_error err;
  jg_array *t = ab_table(0, 0);
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_write(NULL, t, &err));
  JGT_CONTAINS(err.message, "writer is NULL");
  JGT_OK(jg_parquet_writer_close(NULL, &err));
  assert_int_equal(jg_parquet_writer_num_rows(NULL), 0);
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_write(w, NULL, &err));
  JGT_CONTAINS(err.message, "table is NULL");
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_write(w, jg_array_child(t, 0), &err)); /* no record */
  JGT_CONTAINS(err.message, "record");
  JGT_STATUS(JG_EINVAL, jg_parquet_writer_write(w, NULL, NULL)); /* err may be NULL */
  /* A record of no fields: JG_ENOTSUP, nothing fixed. */
  jg_array *r0 = NULL;
  JGT_OK(jg_array_record(0, NULL, NULL, 3, &r0, &jgt_err_));
  JGT_STATUS(JG_ENOTSUP, jg_parquet_writer_write(w, r0, &err));
  jg_array_release(r0);
  JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, NULL));
  check_file(path, &t, 1, 1, NULL);
  remove(path);
  jg_array_release(t);
}

/* The options' created_by is copied at open: the caller's string may change or go. */
static void test_created_by_copied(void **state) {
  (void)state;
  char name[32] = "generator 1.0";
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.created_by = name;
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, &o, &w, &jgt_err_));
  memcpy(name, "overwritten!!", 14);
  jg_array *t = ab_table(0, 0);
  JGT_OK(jg_parquet_writer_write(w, t, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
  assert_string_equal(jg_parquet_created_by(f), "generator 1.0");
  jg_parquet_close(f);
  remove(path);
  jg_array_release(t);
}

/* Device tables: JG_EBACKEND (a fake device buffer, never read); the writer stays usable. */
static void test_device_table(void **state) {
  (void)state;
  jg_array *a = jgt_fake_device_int64(4);
  jg_array *t = table1("d", a);
  char path[64];
  tmp_path(path, sizeof path);
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, NULL, &w, &jgt_err_));
  jg_error err;
  JGT_STATUS(JG_EBACKEND, jg_parquet_writer_write(w, t, &err));
  JGT_CONTAINS(err.message, "jg_array_to_host");
  const int64_t vals[] = {1, 2, 3, 4};
  jg_array *h = table1("d", num(vals, 4, JG_DTYPE_INT64));
  JGT_OK(jg_parquet_writer_write(w, h, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  check_file(path, &h, 1, 1, NULL);
  remove(path);
  jg_array_release(h);
  jg_array_release(t);
}

/* An I/O error half way through a table (the process's file size limit, RLIMIT_FSIZE, with
 * SIGXFSZ ignored: writes past it fail with EFBIG) fails the writer: JG_EIO naming the file,
 * then JG_ESTATE for every later write and for close, which removes the partial file. */
static void test_io_error_fails_writer(void **state) {
  (void)state;
  const int64_t n = 100000; /* 800 KB of int64 */
  int64_t *vals = malloc((size_t)n * sizeof *vals);
  assert_non_null(vals);
  for (int64_t i = 0; i < n; i++) vals[i] = i * 2654435761LL;
  jg_array *t = table1("v", num(vals, n, JG_DTYPE_INT64));
  free(vals);
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.codec = JG_PARQUET_UNCOMPRESSED;
  o.dictionary = false;
  for (int ending = 0; ending < 2; ending++) {
    char path[64];
    tmp_path(path, sizeof path);
    jg_parquet_writer *w = NULL;
    JGT_OK(jg_parquet_writer_open(path, &o, &w, &jgt_err_));
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s", jg_parquet_writer_temp_path(w));
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 64 * 1024;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    jg_error err;
    const jg_status st = jg_parquet_writer_write(w, t, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    assert_int_equal(st, JG_EIO);
    JGT_CONTAINS(err.message, path);
    JGT_CONTAINS(err.message, "column 'v'");
    JGT_STATUS(JG_ESTATE, jg_parquet_writer_write(w, t, &err));
    JGT_CONTAINS(err.message, "jg_parquet_writer_discard");
    JGT_CONTAINS(err.message, "JG_EIO");
    assert_int_equal(jg_parquet_writer_num_rows(w), 0);
    if (ending == 0) {
      JGT_STATUS(JG_ESTATE, jg_parquet_writer_close(w, &err));
      JGT_CONTAINS(err.message, "incomplete");
    } else {
      jg_parquet_writer_discard(w);
    }
    assert_false(file_exists(path));
    assert_false(file_exists(tmp));
  }
  jg_array_release(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_several_tables),
      cmocka_unit_test(test_same_bytes_as_write),
      cmocka_unit_test(test_row_groups_smaller_than_table),
      cmocka_unit_test(test_many_small_tables),
      cmocka_unit_test(test_slices),
      cmocka_unit_test(test_empty_tables),
      cmocka_unit_test(test_schema_mismatch),
      cmocka_unit_test(test_schema_same_other_layouts),
      cmocka_unit_test(test_close_without_table),
      cmocka_unit_test(test_discard),
      cmocka_unit_test(test_open_errors),
      cmocka_unit_test(test_null_arguments),
      cmocka_unit_test(test_created_by_copied),
      cmocka_unit_test(test_device_table),
      cmocka_unit_test(test_io_error_fails_writer),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
