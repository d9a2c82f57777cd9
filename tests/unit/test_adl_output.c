/* test_adl_output.c: the histogram outputs of `jagged adl` (cli/adl/adl_output.c): CSVs in the
 * reference format (bins known by construction, every shared reference CSV written back byte for
 * byte, atomic writes), reading corrupt CSVs, adl_compare's count and report, and the plots
 * (PNG 800 x 600 and SVG when PLplot and its devices are there; JG_ENOTSUP naming the packages
 * when not; PLplot's devices missing or broken at run time, in a child process with a made-up
 * PLPLOT_DRV_DIR: a clean "not available", nothing printed, the process alive). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adl.h"
#include "adl_tmp.h"
#include "jg_test.h"
#define JGT_TMPDIR_NAME "adl_output"
#include "jgt_tmpdir.h"

/* TMP/name. */
static void tmp_path(const char *name, char *buf, size_t size) {
  snprintf(buf, size, "%s/%s", jgt_tmpdir, name);
}

/* The whole file at `path` (malloc'd, NUL-terminated; *len its size); the test fails when it
 * cannot be read. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) fail_msg("cannot open %s", path);
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  assert_non_null(buf);
  for (size_t got; (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
    n += got;
    if (cap - n - 1 == 0) {
      cap *= 2;
      buf = realloc(buf, cap);
      assert_non_null(buf);
    }
  }
  fclose(f);
  buf[n] = '\0';
  if (len != NULL) *len = n;
  return buf;
}

/* Writes `len` bytes of `text` to TMP/name; returns the path in buf. */
static void write_bytes(const char *name, const char *text, size_t len, char *buf, size_t size) {
  tmp_path(name, buf, size);
  FILE *f = fopen(buf, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}

/* Whether anything (a link included) is at `path`. */
static bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

/* The number of entries of directory `dir` whose name contains `part` (all with ""). */
static int count_entries(const char *dir, const char *part) {
  DIR *d = opendir(dir);
  if (d == NULL) return 0;
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    n += e->d_name[0] != '.' && strstr(e->d_name, part) != NULL;
  }
  closedir(d);
  return n;
}

/* Compares `got` with `want` line by line, naming the first line that differs. */
static void expect_lines(const char *what, const char *got, const char *want) {
  int line = 1;
  const char *g = got, *w = want;
  while (*g != '\0' || *w != '\0') {
    const size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");
    if (gl != wl || memcmp(g, w, gl) != 0 || (g[gl] == '\n') != (w[wl] == '\n')) {
      fail_msg("%s, line %d: '%.*s', want '%.*s'", what, line, (int)gl, g, (int)wl, w);
    }
    g += gl + (g[gl] == '\n');
    w += wl + (w[wl] == '\n');
    line++;
  }
}

/* A histogram of `n` zeroed bins over [lo, hi). */
static jg_hist1d hist_new(int64_t n, double lo, double hi) {
  jg_hist1d h;
  memset(&h, 0, sizeof h);
  h.n_bins = n;
  h.lo = lo;
  h.hi = hi;
  h.counts = calloc((size_t)n + 2, sizeof(double));
  assert_non_null(h.counts);
  return h;
}

/* Fills `h` with the library's histogram (jg_histogram_fill) from `n` float64 values. */
static void hist_fill(jg_hist1d *h, const double *v, int64_t n) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(v, n, JG_DTYPE_FLOAT64, &a, &jgt_err_));
  JGT_OK(jg_histogram_fill(h, a, NULL, NULL, &jgt_err_));
  jg_array_release(a);
}

/* Writes `h` to TMP/name and expects the file to read `want`, line by line. */
static void expect_csv(const jg_hist1d *h, const char *name, const char *want) {
  char path[512];
  tmp_path(name, path, sizeof path);
  JGT_OK(adl_write_csv(h, path, &jgt_err_));
  char *got = slurp(path, NULL);
  expect_lines(name, got, want);
  assert_string_equal(got, want);
  free(got);
  assert_int_equal(jgt_tmp_leftovers(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Writing                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Values whose bins are known: under- and overflow, both edges of a bin, v == hi (overflow, as
 * the references count it), centres printed as the references print them. */
static void test_csv_known_bins(void **state) {
  (void)state;
  /* query 1's binning: 100 bins of 20 over [0, 2000) */
  jg_hist1d h = hist_new(100, 0, 2000);
  const double v1[] = {-0.5, 0, 19.999, 20, 5, 1999.9, 2000, 2000.5, 1e9, 150};
  hist_fill(&h, v1, 10);
  assert_int_equal(h.entries, 10);
  assert_true(h.counts[0] == 1 && h.counts[1] == 3 && h.counts[2] == 1 && h.counts[8] == 1);
  assert_true(h.counts[100] == 1 && h.counts[101] == 3);
  expect_csv(&h, "q1.csv",
             "x,y\n"
             "-10.0,1\n"    /* -0.5: underflow, centred at lo - w/2 */
             "10.0,3\n"     /* 0 (the lower edge), 19.999, 5 */
             "30.0,1\n"     /* 20: the next bin's lower edge */
             "150.0,1\n"    /* 150: bin [140, 160) */
             "1990.0,1\n"   /* 1999.9 */
             "2010.0,3\n"); /* 2000 == hi, 2000.5, 1e9: overflow, centred at hi + w/2 */
  free(h.counts);

  /* query 2's binning: width 0.45 over [15, 60), centres with three decimals */
  h = hist_new(100, 15, 60);
  const double v2[] = {15, 15.44, 15.46, 59.99, 60, 14.99};
  hist_fill(&h, v2, 6);
  expect_csv(&h, "q2.csv", "x,y\n14.775,1\n15.225,2\n15.675,1\n59.775,1\n60.225,1\n");
  free(h.counts);

  /* query 6-2's: [0, 1), the underflow at -0.005; and a bin centred at 0 prints 0.0 */
  h = hist_new(100, 0, 1);
  const double v3[] = {-1, 0.01, 0.999};
  hist_fill(&h, v3, 3);
  expect_csv(&h, "q62.csv", "x,y\n-0.005,1\n0.015,1\n0.995,1\n");
  free(h.counts);
  h = hist_new(3, -1.5, 1.5);
  const double v4[] = {0, -0.2, 1.4};
  hist_fill(&h, v4, 3);
  expect_csv(&h, "zero.csv", "x,y\n0.0,2\n1.0,1\n");

  /* weights: a count that is not an integer keeps its decimals; an empty histogram is a header */
  h.counts[2] = 2.5;
  expect_csv(&h, "weighted.csv", "x,y\n0.0,2.5\n1.0,1\n");
  memset(h.counts, 0, 5 * sizeof(double));
  expect_csv(&h, "empty.csv", "x,y\n");
  free(h.counts);
}

/* The histograms of the reference bin convention of each shared reference file. */
static const struct {
  const char *name;
  double lo, hi;
} ref_binning[] = {
    {"query-1", 0, 2000}, {"query-2", 15, 60},  {"query-3", 15, 60},
    {"query-4", 0, 2000}, {"query-5", 0, 2000}, {"query-6-1", 15, 40},
    {"query-6-2", 0, 1},  {"query-7", 15, 200}, {"query-8", 15, 250},
};
#define N_REFS ((int)(sizeof ref_binning / sizeof ref_binning[0]))

/* The histogram (100 bins) that reference CSV `c` of binning `r` describes. */
static jg_hist1d hist_from_csv(const adl_csv *c, int r) {
  jg_hist1d h = hist_new(100, ref_binning[r].lo, ref_binning[r].hi);
  const double w = (h.hi - h.lo) / 100;
  for (int64_t i = 0; i < c->n; i++) {
    const double k = (c->x[i] - h.lo) / w + 0.5; /* x = lo + (k - 1/2) w */
    const int64_t kk = (int64_t)llround(k);
    if (fabs(k - (double)kk) > 1e-6 || kk < 0 || kk > 101) {
      fail_msg("%s: x = %g is not a bin centre", ref_binning[r].name, c->x[i]);
    }
    h.counts[kk] = c->y[i];
    h.entries += (int64_t)c->y[i];
  }
  return h;
}

/* The reference CSV of entry r: its path in buf, and read into *c. */
static void read_ref(int r, adl_csv *c, char *buf, size_t size) {
  snprintf(buf, size, "%s/adl/reference/%s.csv", JG_TEST_DATA_DIR, ref_binning[r].name);
  JGT_OK(adl_read_csv(buf, c, &jgt_err_));
}

/* Every shared reference read, rebuilt as a histogram, written back: the same bytes; and
 * adl_compare finds them equal. */
static void test_csv_references_round_trip(void **state) {
  (void)state;
  char dir[512];
  snprintf(dir, sizeof dir, "%s/adl/reference", JG_TEST_DATA_DIR);
  assert_int_equal(count_entries(dir, ".csv"), N_REFS);
  for (int r = 0; r < N_REFS; r++) {
    char ref_path[512], out[512];
    adl_csv c;
    read_ref(r, &c, ref_path, sizeof ref_path);
    assert_true(c.n > 0);
    jg_hist1d h = hist_from_csv(&c, r);
    assert_int_equal(adl_compare(&h, &c, NULL, 0), 0);
    snprintf(out, sizeof out, "%s/%s.csv", jgt_tmpdir, ref_binning[r].name);
    JGT_OK(adl_write_csv(&h, out, &jgt_err_));
    size_t nref = 0, nout = 0;
    char *want = slurp(ref_path, &nref);
    char *got = slurp(out, &nout);
    expect_lines(ref_binning[r].name, got, want);
    assert_int_equal(nout, nref);
    assert_memory_equal(got, want, nref);
    free(want);
    free(got);
    free(h.counts);
    adl_csv_free(&c);
    assert_null(c.x);
    assert_int_equal(c.n, 0);
  }
  /* the first rows of query 1 and 6-2, as numbers */
  char p[512];
  adl_csv c;
  read_ref(0, &c, p, sizeof p);
  assert_int_equal(c.n, 7);
  assert_true(c.x[0] == 10.0 && c.y[0] == 346 && c.x[6] == 130.0 && c.y[6] == 1);
  adl_csv_free(&c);
  read_ref(6, &c, p, sizeof p);
  assert_true(c.x[0] == -0.005 && c.y[0] == 23 && c.x[c.n - 1] == 0.995 && c.y[c.n - 1] == 33);
  adl_csv_free(&c);
}

/* Failures leave nothing: a missing directory, a path that is a directory, bad histograms. */
static void test_csv_write_errors(void **state) {
  (void)state;
  jg_hist1d h = hist_new(100, 0, 2000);
  h.counts[1] = 3;
  char path[512];
  jg_error err;
  tmp_path("no/such/dir/query-1.csv", path, sizeof path);
  JGT_STATUS(JG_EIO, adl_write_csv(&h, path, &err));
  JGT_CONTAINS(err.message, "no/such/dir/query-1.csv");
  JGT_CONTAINS(err.message, "No such file or directory");
  assert_false(exists(path));
  assert_int_equal(count_entries(jgt_tmpdir, ""), 0);

  /* the final name is a directory: the rename fails, the temporary file is removed */
  tmp_path("adir", path, sizeof path);
  assert_int_equal(mkdir(path, 0777), 0);
  JGT_STATUS(JG_EIO, adl_write_csv(&h, path, &err));
  JGT_CONTAINS(err.message, "cannot rename");
  JGT_CONTAINS(err.message, path);
  assert_int_equal(count_entries(jgt_tmpdir, ".tmp"), 0);
  assert_int_equal(rmdir(path), 0);

  tmp_path("bad.csv", path, sizeof path);
  JGT_STATUS(JG_EINVAL, adl_write_csv(NULL, path, &err));
  JGT_STATUS(JG_EINVAL, adl_write_csv(&h, NULL, &err));
  h.counts[5] = NAN;
  JGT_STATUS(JG_EINVAL, adl_write_csv(&h, path, &err));
  JGT_CONTAINS(err.message, "bin 5");
  h.counts[5] = 0;
  h.hi = h.lo;
  JGT_STATUS(JG_EINVAL, adl_write_csv(&h, path, &err));
  h.hi = 2000;
  h.n_bins = 0;
  JGT_STATUS(JG_EINVAL, adl_write_csv(&h, path, &err));
  h.n_bins = 100;
  double *counts = h.counts;
  h.counts = NULL;
  JGT_STATUS(JG_EINVAL, adl_write_csv(&h, path, &err));
  h.counts = counts;
  assert_int_equal(count_entries(jgt_tmpdir, ""), 0);
  free(h.counts);
}

/* A file under the final name is replaced whole; a leftover temporary file of this process's
 * name (PATH.<pid>.tmp), even a link, is replaced (the link not followed). */
static void test_csv_write_replaces(void **state) {
  (void)state;
  jg_hist1d h = hist_new(100, 0, 2000);
  h.counts[1] = 7;
  char path[512], tmp[560], target[512];
  write_bytes("old.csv", "x,y\n10.0,1\n30.0,2\n", 18, path, sizeof path);
  write_bytes("target", "keep", 4, target, sizeof target);
  assert_true(adl_tmp_name(path, tmp, sizeof tmp));
  assert_int_equal(symlink(target, tmp), 0);
  JGT_OK(adl_write_csv(&h, path, &jgt_err_));
  char *got = slurp(path, NULL);
  assert_string_equal(got, "x,y\n10.0,7\n");
  free(got);
  got = slurp(target, NULL);
  assert_string_equal(got, "keep");
  free(got);
  assert_false(exists(tmp));
  free(h.counts);
}

/* ------------------------------------------------------------------------------------------ */
/* Reading                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Line endings, a missing last newline, a byte order mark, blank lines at the end, spaces, a
 * header alone: all read. */
static void test_csv_read_tolerant(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int64_t n;
  } cases[] = {
      {"x,y\r\n10.0,346\r\n30.0,427\r\n", 2},
      {"x,y\n10.0,346\n30.0,427", 2},
      {"x,y\r\n10.0,346\r\n30.0,427", 2},
      {"\xEF\xBB\xBFx,y\n10.0,346\n30.0,427\n", 2},
      {"x,y\n10.0,346\n30.0,427\n\n\n", 2},
      {"x,y\n 10.0 , 346\n30.0,\t427 \n", 2},
      {"x,y\n", 0},
      {"x,y", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[512];
    write_bytes("ok.csv", cases[i].text, strlen(cases[i].text), path, sizeof path);
    adl_csv c;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = adl_read_csv(path, &c, &err);
    if (st != JG_OK) fail_msg("case %zu: %s", i, err.message);
    assert_int_equal(c.n, cases[i].n);
    if (c.n == 2) {
      assert_true(c.x[0] == 10.0 && c.y[0] == 346 && c.x[1] == 30.0 && c.y[1] == 427);
    }
    adl_csv_free(&c);
  }
  adl_csv_free(NULL);
}

/* Each corrupt file: JG_ECORRUPT naming the path and the line, `out` zeroed. */
static void test_csv_read_corrupt(void **state) {
  (void)state;
  static const struct {
    const char *text;
    size_t len; /* 0: strlen */
    const char *what;
  } cases[] = {
      {"", 0, "line 1: the file is empty"},
      {"a,b\n10.0,1\n", 0, "line 1: the header is 'a,b', not x,y"},
      {"10.0,346\n30.0,427\n", 0, "line 1: the header is '10.0,346'"},
      {"x,y,z\n", 0, "line 1: the header is 'x,y,z'"},
      {"x,y\n10.0,1\nhello,2\n", 0, "line 3: 'hello,2' is not a row x,y of two finite numbers"},
      {"x,y\n10.0,1,2\n", 0, "line 2: '10.0,1,2' is not a row"},
      {"x,y\n10.0,\n", 0, "line 2: '10.0,' is not a row"},
      {"x,y\n10.0\n", 0, "line 2: '10.0' is not a row"},
      {"x,y\n10.0;5\n", 0, "line 2: '10.0;5' is not a row"},
      {"x,y\nnan,1\n", 0, "line 2: 'nan,1' is not a row"},
      {"x,y\n10.0,inf\n", 0, "line 2: '10.0,inf' is not a row"},
      {"x,y\n10.0,1e999\n", 0, "line 2: '10.0,1e999' is not a row"},
      {"x,y\n0.5,-3\n", 0, "line 2: '0.5,-3' is not a row"}, /* a count is never negative */
      {"x,y\r\n10.0,1\r\n30.0,2\r\n30.0,3\r\n", 0, "line 4: x = 30.0 after x = 30.0"},
      {"x,y\n30.0,1\n10.0,2", 0, "line 3: x = 10.0 after x = 30.0"},
      {"x,y\n10.0,1\n\n30.0,2\n", 0, "line 3: an empty line inside the table"},
      {"x,y\n10.0,\0\n", 11, "line 2: a NUL byte"},
      {"x,y\n10.0,1\x01\n", 0, "line 2: '10.0,1?' is not a row"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[512];
    const size_t len = cases[i].len != 0 ? cases[i].len : strlen(cases[i].text);
    write_bytes("bad.csv", cases[i].text, len, path, sizeof path);
    adl_csv c;
    memset(&c, 0xff, sizeof c);
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = adl_read_csv(path, &c, &err);
    if (st != JG_ECORRUPT) fail_msg("case %zu: %s, want JG_ECORRUPT", i, jg_status_name(st));
    JGT_CONTAINS(err.message, path);
    JGT_CONTAINS(err.message, cases[i].what);
    assert_int_equal(c.n, 0);
    assert_null(c.x);
    assert_null(c.y);
  }
}

/* Huge files stop early: one line longer than the limit, and more rows than any histogram. */
static void test_csv_read_huge(void **state) {
  (void)state;
  char path[512];
  tmp_path("long.csv", path, sizeof path);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs("x,y\n10.0,", f);
  for (int i = 0; i < 1 << 20; i++) fputs("1111111111", f); /* a 10 MB line, no newline */
  assert_int_equal(fclose(f), 0);
  adl_csv c;
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, adl_read_csv(path, &c, &err));
  JGT_CONTAINS(err.message, "line 2: longer than 256 characters");
  assert_int_equal(err.index, 2);
  assert_null(c.x);

  tmp_path("rows.csv", path, sizeof path);
  f = fopen(path, "wb");
  assert_non_null(f);
  fputs("x,y\n", f);
  for (int i = 0; i <= 1 << 20; i++) fprintf(f, "%d.0,1\n", i);
  assert_int_equal(fclose(f), 0);
  JGT_STATUS(JG_ECORRUPT, adl_read_csv(path, &c, &err));
  JGT_CONTAINS(err.message, path);
  JGT_CONTAINS(err.message, "line 1048578: more than 1048576 rows");
  assert_int_equal(c.n, 0);
  assert_null(c.x);
}

/* A file that cannot be opened or read: JG_EIO naming it. */
static void test_csv_read_io_errors(void **state) {
  (void)state;
  char path[512];
  adl_csv c;
  jg_error err;
  tmp_path("nonexistent.csv", path, sizeof path);
  JGT_STATUS(JG_EIO, adl_read_csv(path, &c, &err));
  JGT_CONTAINS(err.message, "cannot open");
  JGT_CONTAINS(err.message, "nonexistent.csv");
  JGT_CONTAINS(err.message, "No such file or directory");
  assert_int_equal(c.n, 0);
  JGT_STATUS(JG_EIO, adl_read_csv(jgt_tmpdir, &c, &err));
  JGT_CONTAINS(err.message, jgt_tmpdir);
  JGT_STATUS(JG_EINVAL, adl_read_csv(NULL, &c, &err));
  JGT_STATUS(JG_EINVAL, adl_read_csv(path, NULL, &err));
}

/* ------------------------------------------------------------------------------------------ */
/* Comparing                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* adl_compare's report of `h` against `ref` with `max_lines` (malloc'd); *n the count. */
static char *compare_report(const jg_hist1d *h, const adl_csv *ref, int max_lines, int64_t *n) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  *n = adl_compare(h, ref, f, max_lines);
  assert_int_equal(fclose(f), 0);
  return buf;
}

/* adl_compare: equal, each kind of difference with its report line, the cut after max_lines,
 * an empty reference, bad arguments, and the tolerance on bin centres. */
static void test_compare(void **state) {
  (void)state;
  char p[512];
  adl_csv ref;
  read_ref(1, &ref, p, sizeof p); /* query 2: 100 rows, 15.225 (96), 15.675 (76), ... */
  jg_hist1d h = hist_from_csv(&ref, 1);
  int64_t n = -2;
  char *rep = compare_report(&h, &ref, 20, &n);
  assert_int_equal(n, 0);
  assert_string_equal(rep, "");
  free(rep);

  /* one count off, a bin the reference lacks, a reference row the histogram lacks */
  h.counts[1] = 95; /* 15.225: 96 in the reference */
  h.counts[0] = 4;  /* underflow 14.775: not in the reference */
  ref.y[2] = 0;     /* 16.125: the reference says 0, the histogram 55 */
  const double ref_y1 = ref.y[1];
  h.counts[2] = 0; /* 15.675: the histogram has none, the reference 76 */
  rep = compare_report(&h, &ref, 20, &n);
  assert_int_equal(n, 4);
  assert_string_equal(rep,
                      "  x=14.775: 4 here, 0 in the reference\n"
                      "  x=15.225: 95 here, 96 in the reference\n"
                      "  x=15.675: 0 here, 76 in the reference\n"
                      "  x=16.125: 55 here, 0 in the reference\n");
  free(rep);
  assert_int_equal(adl_compare(&h, &ref, NULL, 0), 4);

  /* the cut after max_lines */
  rep = compare_report(&h, &ref, 2, &n);
  assert_int_equal(n, 4);
  assert_string_equal(rep,
                      "  x=14.775: 4 here, 0 in the reference\n"
                      "  x=15.225: 95 here, 96 in the reference\n"
                      "  ... and 2 more\n");
  free(rep);
  rep = compare_report(&h, &ref, 0, &n);
  assert_int_equal(n, 4);
  assert_string_equal(rep, "  ... and 4 more\n");
  free(rep);
  ref.y[1] = ref_y1;

  /* 25 bins off by one: 20 lines and the rest counted */
  memcpy(h.counts, (double[3]){0, 96, 76}, 3 * sizeof(double));
  ref.y[2] = 55;
  assert_int_equal(adl_compare(&h, &ref, NULL, 0), 0);
  for (int k = 40; k < 65; k++) h.counts[k] += 1;
  rep = compare_report(&h, &ref, 20, &n);
  assert_int_equal(n, 25);
  int lines = 0;
  for (const char *s = rep; *s != '\0'; s++) lines += *s == '\n';
  assert_int_equal(lines, 21);
  JGT_CONTAINS(rep, "  ... and 5 more\n");
  free(rep);

  /* an empty reference: every non-empty bin differs */
  adl_csv none = {0, NULL, NULL};
  assert_int_equal(adl_compare(&h, &none, NULL, 0), 100 + 1);
  assert_int_equal(adl_compare(NULL, &ref, NULL, 0), -1);
  assert_int_equal(adl_compare(&h, NULL, NULL, 0), -1);
  free(h.counts);
  adl_csv_free(&ref);

  /* centres within 1e-9 of the range match; further apart they do not */
  jg_hist1d g = hist_new(100, 0, 2000);
  g.counts[1] = 5;
  double x = 10.0 + 1e-7, y = 5;
  adl_csv near = {1, &x, &y};
  assert_int_equal(adl_compare(&g, &near, NULL, 0), 0);
  x = 10.0 + 1e-5;
  assert_int_equal(adl_compare(&g, &near, NULL, 0), 2);
  free(g.counts);
}

/* ------------------------------------------------------------------------------------------ */
/* Plots                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* Query 2's labels, as adl_queries.c has them. */
static const adl_plot_info q2_info = {"query-2", "Q2: transverse momentum of every jet",
                                      "jet p#dT#u [GeV]", "jets"};

/* The SVG's text: numeric character references decoded, tags dropped (malloc'd). */
static char *svg_text(const char *svg) {
  char *out = malloc(strlen(svg) + 1);
  assert_non_null(out);
  size_t n = 0;
  bool tag = false;
  for (const char *s = svg; *s != '\0'; s++) {
    if (*s == '<') {
      tag = true;
    } else if (*s == '>') {
      tag = false;
    } else if (!tag && strncmp(s, "&#x", 3) == 0) {
      char *end = NULL;
      const long c = strtol(s + 3, &end, 16);
      if (*end == ';' && c > 0 && c < 128) {
        out[n++] = (char)c;
        s = end;
      }
    } else if (!tag && *s != '\n') {
      out[n++] = *s;
    }
  }
  out[n] = '\0';
  return out;
}

/* Runs adl_plot with descriptors 1 and 2 sent to files; fails when anything was printed. */
static jg_status plot_silently(const jg_hist1d *h, const adl_plot_info *info, const char *png,
                               const char *svg, jg_error *err) {
  static const char *const names[2] = {"stdout", "stderr"};
  char paths[2][512];
  int saved[2];
  fflush(stdout);
  fflush(stderr);
  for (int i = 0; i < 2; i++) {
    tmp_path(names[i], paths[i], sizeof paths[i]);
    saved[i] = dup(i + 1);
    const int fd = open(paths[i], O_WRONLY | O_CREAT | O_TRUNC, 0666);
    assert_true(saved[i] >= 0 && fd >= 0);
    dup2(fd, i + 1);
    close(fd);
  }
  const jg_status st = adl_plot(h, info, png, svg, err);
  fflush(stdout);
  fflush(stderr);
  for (int i = 0; i < 2; i++) {
    dup2(saved[i], i + 1);
    close(saved[i]);
  }
  for (int i = 0; i < 2; i++) {
    size_t len = 0;
    char *printed = slurp(paths[i], &len);
    if (len != 0) fail_msg("adl_plot printed on %s: %s", names[i], printed);
    free(printed);
    unlink(paths[i]);
  }
  return st;
}

/* When available: a PNG of 800 x 600 and an SVG with the labels, complete, nothing left over;
 * when not: JG_ENOTSUP naming the packages. */
static void test_plot(void **state) {
  (void)state;
  char p[512], png[512], svg[512];
  adl_csv ref;
  read_ref(1, &ref, p, sizeof p);
  jg_hist1d h = hist_from_csv(&ref, 1);
  adl_csv_free(&ref);
  tmp_path("query-2.png", png, sizeof png);
  tmp_path("query-2.svg", svg, sizeof svg);
  jg_error err;
  jg_error_clear(&err);
  if (!adl_plot_available()) {
#ifdef JG_HAVE_PLPLOT
    printf("[  SKIPPED ] plots: PLplot's devices are not usable here\n");
#endif
    JGT_STATUS(JG_ENOTSUP, adl_plot(&h, &q2_info, png, svg, &err));
#ifndef JG_HAVE_PLPLOT
    JGT_CONTAINS(err.message, "this build has no PLplot");
    JGT_CONTAINS(err.message, "libplplot-dev");
    JGT_CONTAINS(err.message, "plplot-driver-cairo");
#else
    /* the package to install: the cairo driver, or PLplot's own for its svg device */
    assert_true(strstr(err.message, "plplot-driver-cairo") != NULL ||
                strstr(err.message, "libplplot-dev") != NULL);
#endif
    assert_int_equal(count_entries(jgt_tmpdir, ""), 0);
    free(h.counts);
    return;
  }
  JGT_OK(plot_silently(&h, &q2_info, png, svg, &jgt_err_));
  size_t len = 0;
  char *data = slurp(png, &len);
  assert_true(len > 1000);
  assert_memory_equal(data, "\x89PNG\r\n\x1a\n", 8);
  assert_memory_equal(data + 12, "IHDR", 4);
  const unsigned char *u = (const unsigned char *)data;
  assert_int_equal((u[16] << 24) | (u[17] << 16) | (u[18] << 8) | u[19], 800);
  assert_int_equal((u[20] << 24) | (u[21] << 16) | (u[22] << 8) | u[23], 600);
  assert_memory_equal(data + len - 8, "IEND\xae\x42\x60\x82", 8);
  free(data);
  data = slurp(svg, &len);
  JGT_CONTAINS(data, "<svg");
  JGT_CONTAINS(data, "</svg>");
  char *text = svg_text(data);
  JGT_CONTAINS(text, "Q2: transverse momentum of every jet");
  JGT_CONTAINS(text, "jet pT [GeV]"); /* p#dT#u: the T a subscript (a tspan of its own) */
  JGT_CONTAINS(text, "jets");
  JGT_CONTAINS(text, "entries 1699"); /* the legend: entries, underflow, overflow */
  JGT_CONTAINS(text, "overflow 208");
  free(text);
  free(data);
  assert_int_equal(count_entries(jgt_tmpdir, ".tmp"), 0);

  /* a log scale (query 1's counts span 1 .. 427), one file only, and again (the stream reused) */
  jg_hist1d g = hist_new(100, 0, 2000);
  g.counts[1] = 346, g.counts[2] = 427, g.counts[7] = 1, g.entries = 774;
  const adl_plot_info q1 = {"query-1", "Q1", "E#dT#u#umiss#d [GeV]", "events"};
  for (int i = 0; i < 3; i++) JGT_OK(plot_silently(&g, &q1, png, NULL, &jgt_err_));
  JGT_OK(plot_silently(&g, &q1, NULL, svg, &jgt_err_));
  JGT_OK(plot_silently(&g, &q1, NULL, NULL, &jgt_err_));
  data = slurp(svg, &len);
  text = svg_text(data);
  JGT_CONTAINS(text, "ETmiss [GeV]");
  free(text);
  free(data);

  /* into a missing directory: JG_EIO naming the path, nothing written */
  tmp_path("missing/query-1.png", png, sizeof png);
  JGT_STATUS(JG_EIO, plot_silently(&g, &q1, png, NULL, &err));
  JGT_CONTAINS(err.message, png);
  assert_false(exists(png));
  JGT_STATUS(JG_EINVAL, adl_plot(NULL, &q1, png, NULL, &err));
  JGT_STATUS(JG_EINVAL, adl_plot(&g, NULL, png, NULL, &err));
  g.counts[3] = NAN;
  JGT_STATUS(JG_EINVAL, adl_plot(&g, &q1, png, NULL, &err));
  assert_int_equal(count_entries(jgt_tmpdir, ".tmp"), 0);
  free(g.counts);
  free(h.counts);
}

/* The child's side of test_plot_devices_missing (this program run with --plot-child DIR):
 * prints whether plots are available and what adl_plot says, drawing into DIR. */
static int plot_child(const char *dir) {
  jg_hist1d h = hist_new(10, 0, 1);
  h.counts[3] = 2;
  char png[512], svg[512];
  snprintf(png, sizeof png, "%s/c.png", dir);
  snprintf(svg, sizeof svg, "%s/c.svg", dir);
  jg_error err;
  jg_error_clear(&err);
  const bool available = adl_plot_available();
  const jg_status st = adl_plot(&h, &q2_info, png, svg, &err);
  printf("available=%d status=%s message=%s\n", available, jg_status_name(st), err.message);
  free(h.counts);
  return 0;
}

#ifdef JG_HAVE_PLPLOT
/* Runs this program with --plot-child in a fresh process with PLPLOT_DRV_DIR=TMP/drivers:
 * returns its stdout; its stderr must stay empty and its exit status 0. */
static char *run_child(void) {
  char out[512], err[512], drv[512], dir[512];
  tmp_path("child.out", out, sizeof out);
  tmp_path("child.err", err, sizeof err);
  tmp_path("drivers", drv, sizeof drv);
  tmp_path("plots", dir, sizeof dir);
  mkdir(dir, 0777);
  fflush(stdout);
  fflush(stderr);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    const int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    const int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(100);
    setenv("PLPLOT_DRV_DIR", drv, 1);
    execl("/proc/self/exe", "test_adl_output", "--plot-child", dir, (char *)NULL);
    _exit(101);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  char *printed = slurp(err, NULL);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fail_msg("the child ended with status %d: %s", status, printed);
  }
  if (printed[0] != '\0') fail_msg("the child printed on stderr: %s", printed);
  free(printed);
  assert_int_equal(count_entries(dir, ""), 0);
  return slurp(out, NULL);
}
#endif

/* PLplot built in, but its devices missing or broken at run time: not available, adl_plot says
 * why with JG_ENOTSUP naming the package, nothing printed, no file left, no exit. */
static void test_plot_devices_missing(void **state) {
  (void)state;
#ifndef JG_HAVE_PLPLOT
  skip(); /* the build has no PLplot: test_plot checks JG_ENOTSUP */
#else
  char drv[512], p[600];
  tmp_path("drivers", drv, sizeof drv);
  assert_int_equal(mkdir(drv, 0777), 0);
  /* no drivers at all: PLplot's fatal "No device drivers found" is caught */
  char *out = run_child();
  JGT_CONTAINS(out, "available=0 status=JG_ENOTSUP");
  JGT_CONTAINS(out, "libplplot-dev");
  free(out);
  /* svg only: no pngcairo (as without plplot-driver-cairo) */
  snprintf(p, sizeof p, "%s/svg.driver_info", drv);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs("svg:Scalable Vector Graphics (SVG 1.1):1:svg:57:svg\n", f);
  fclose(f);
  out = run_child();
  JGT_CONTAINS(out,
               "available=0 status=JG_ENOTSUP message=PLplot has no pngcairo device here "
               "(install plplot-driver-cairo)");
  free(out);
  /* pngcairo listed, but its plug-in does not load: PLplot's fatal error is caught */
  snprintf(p, sizeof p, "%s/cairo.driver_info", drv);
  f = fopen(p, "w");
  assert_non_null(f);
  fputs("pngcairo:Cairo PNG Driver:0:cairo:105:pngcairo\n", f);
  fclose(f);
  snprintf(p, sizeof p, "%s/cairo.so", drv);
  f = fopen(p, "w");
  assert_non_null(f);
  fputs("not a shared object\n", f);
  fclose(f);
  out = run_child();
  JGT_CONTAINS(out,
               "available=0 status=JG_ENOTSUP message=PLplot's pngcairo device does not "
               "load: ");
  JGT_CONTAINS(out, "plplot-driver-cairo");
  free(out);
#endif
}

/* The tests; with --plot-child DIR, the child of test_plot_devices_missing instead. */
int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--plot-child") == 0) return plot_child(argv[2]);
  JGT_REQUIRE_DATA();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_csv_known_bins, jgt_tmpdir_setup, jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_csv_references_round_trip, jgt_tmpdir_setup,
                                      jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_csv_write_errors, jgt_tmpdir_setup, jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_csv_write_replaces, jgt_tmpdir_setup,
                                      jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_csv_read_tolerant, jgt_tmpdir_setup,
                                      jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_csv_read_corrupt, jgt_tmpdir_setup, jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_csv_read_huge, jgt_tmpdir_setup, jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_csv_read_io_errors, jgt_tmpdir_setup,
                                      jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_compare, jgt_tmpdir_setup, jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_plot, jgt_tmpdir_setup, jgt_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(test_plot_devices_missing, jgt_tmpdir_setup,
                                      jgt_tmpdir_teardown),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
