/* test_adl_cli.c: `jagged adl` on bad input, run as a user would (the tool, through the shell):
 * a missing file, a file that is not Parquet, a truncated one, a missing column, a column of the
 * wrong type, a file that is not an ADL file. Each gives exit status 1, one line on stderr that
 * names the problem, and no output file. And a good run leaves complete outputs and no temporary
 * files. The bad files are written here with the library's Parquet writer. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jagged/parquet_writer.h"
#include "jg_test.h"
#define JGT_TMPDIR_NAME "adl_cli"
#include "jgt_tmpdir.h"

#ifndef JG_CLI_PATH
#define JG_CLI_PATH ""
#endif

/* Whether the tool draws plots (a PNG and an SVG next to each CSV). */
static bool adl_plots_expected(void) {
#ifdef JG_HAVE_PLPLOT
  return true;
#else
  return false;
#endif
}

/* Runs `jagged adl ARGS --out TMP/out-NAME`; returns the exit status; stderr in TMP/err. */
static int run_adl(const char *name, const char *args) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' adl %s --device cpu --out '%s/out-%s' >'%s/out' 2>'%s/err'",
           JG_CLI_PATH, args, jgt_tmpdir, name, jgt_tmpdir, jgt_tmpdir);
  const int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The number of entries of TMP/out-NAME (0 when it does not exist). */
static int count_outputs(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/out-%s", jgt_tmpdir, name);
  DIR *d = opendir(path);
  if (d == NULL) return 0;
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

/* Exit status 1, exactly one stderr line containing `what`, no output file. */
static void expect_failure(const char *name, const char *args, const char *what) {
  const int rc = run_adl(name, args);
  char err[4096];
  jgt_read_tmp("err", err, sizeof err);
  if (rc != 1) fail_msg("%s: exit status %d, want 1; stderr: %s", name, rc, err);
  if (strstr(err, what) == NULL) fail_msg("%s: stderr lacks '%s': %s", name, what, err);
  int lines = 0;
  for (const char *p = err; *p; p++) lines += *p == '\n';
  if (lines != 1) fail_msg("%s: %d lines on stderr, want 1: %s", name, lines, err);
  if (count_outputs(name) != 0) fail_msg("%s: output files were left", name);
}

/* Writes a one-row-group table of `n` events with the given float32/int32 scalar columns. */
static void write_table(const char *file, int ncols, const char *const *names,
                        const jg_dtype *dtypes) {
  jg_array *cols[8];
  const float f[4] = {10.0f, 25.0f, 3000.0f, 7.5f};
  const int32_t i[4] = {10, 25, 3000, 7};
  for (int c = 0; c < ncols; c++) {
    JGT_OK(jg_array_from_host(dtypes[c] == JG_DTYPE_INT32 ? (const void *)i : (const void *)f, 4,
                              dtypes[c], &cols[c], &jgt_err_));
  }
  jg_array *table = NULL;
  JGT_OK(jg_array_record(ncols, cols, names, -1, &table, &jgt_err_));
  char path[512];
  snprintf(path, sizeof path, "%s/%s", jgt_tmpdir, file);
  JGT_OK(jg_parquet_write(table, path, NULL, &jgt_err_));
  jg_array_release(table);
  for (int c = 0; c < ncols; c++) jg_array_release(cols[c]);
}

static void test_missing_file(void **state) {
  (void)state;
  char args[512];
  snprintf(args, sizeof args, "'%s/nonexistent.parquet'", jgt_tmpdir);
  expect_failure("missing", args, "nonexistent.parquet");
}

static void test_not_parquet(void **state) {
  (void)state;
  char path[512], args[600];
  snprintf(path, sizeof path, "%s/text.parquet", jgt_tmpdir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("run,event\n1,2\nthis is a CSV file, not Parquet\n", f);
  fclose(f);
  snprintf(args, sizeof args, "'%s'", path);
  expect_failure("text", args, "text.parquet");
}

static void test_truncated(void **state) {
  (void)state;
  char cmd[1024], args[600];
  snprintf(cmd, sizeof cmd,
           "head -c 100000 '%s/adl/Run2012B_SingleMu-1000.parquet' > '%s/cut.parquet'",
           JG_TEST_DATA_DIR, jgt_tmpdir);
  assert_int_equal(system(cmd), 0);
  snprintf(args, sizeof args, "'%s/cut.parquet'", jgt_tmpdir);
  expect_failure("truncated", args, "cut.parquet");
}

static void test_missing_column(void **state) {
  (void)state;
  const char *names[1] = {"MET_pt"};
  const jg_dtype dt[1] = {JG_DTYPE_FLOAT32};
  write_table("met_only.parquet", 1, names, dt);
  char args[600];
  /* query 1 alone works on it; query 2 needs the jets */
  snprintf(args, sizeof args, "'%s/met_only.parquet' --query 1", jgt_tmpdir);
  assert_int_equal(run_adl("met_only_q1", args), 0);
  /* a CSV, plus a PNG and an SVG unless the tool said why it drew none (a build without
   * PLplot, or a machine without its cairo driver) */
  char err[4096];
  jgt_read_tmp("err", err, sizeof err);
  const bool plots = strstr(err, "plots skipped") == NULL;
  if (adl_plots_expected() && !plots) print_message("note: %s", err);
  assert_int_equal(count_outputs("met_only_q1"), plots ? 3 : 1);
  if (!adl_plots_expected()) assert_false(plots);
  snprintf(args, sizeof args, "'%s/met_only.parquet' --query 1,2", jgt_tmpdir);
  expect_failure("met_only", args, "column Jet_pt, needed by query 2, is missing");
}

static void test_wrong_type(void **state) {
  (void)state;
  const char *names[1] = {"MET_pt"};
  const jg_dtype dt[1] = {JG_DTYPE_INT32};
  write_table("met_int.parquet", 1, names, dt);
  char args[600];
  snprintf(args, sizeof args, "'%s/met_int.parquet' --query 1", jgt_tmpdir);
  expect_failure("met_int", args, "column MET_pt (needed by query 1) holds int32 values");
}

static void test_not_adl(void **state) {
  (void)state;
  const char *names[2] = {"x", "y"};
  const jg_dtype dt[2] = {JG_DTYPE_FLOAT32, JG_DTYPE_INT32};
  write_table("xy.parquet", 2, names, dt);
  char args[600];
  snprintf(args, sizeof args, "'%s/xy.parquet'", jgt_tmpdir);
  expect_failure("xy", args, "neither a column MET_pt");
}

/* Runs `jagged adl ARGS` as given (no --out added); stdout in TMP/out, stderr in TMP/err. */
static int run_raw(const char *args) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' adl %s --device cpu >'%s/out' 2>'%s/err'", JG_CLI_PATH, args,
           jgt_tmpdir, jgt_tmpdir);
  const int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Exit status `want` and one stderr line containing `what`. */
static void expect_raw(const char *args, int want, const char *what) {
  const int rc = run_raw(args);
  char err[4096];
  jgt_read_tmp("err", err, sizeof err);
  if (rc != want) fail_msg("adl %s: exit status %d, want %d; stderr: %s", args, rc, want, err);
  if (strstr(err, what) == NULL) fail_msg("adl %s: stderr lacks '%s': %s", args, what, err);
  int lines = 0;
  for (const char *p = err; *p; p++) lines += *p == '\n';
  if (lines != 1) fail_msg("adl %s: %d lines on stderr, want 1: %s", args, lines, err);
}

/* --out and --check are checked before anything runs: the same folder for both (the outputs
 * would replace the references), a --check that is not a folder or lacks a reference, an --out
 * that is a file or empty. The references are never touched, and nothing is written. */
static void test_out_and_check(void **state) {
  (void)state;
  char cmd[2048], args[1024];
  const char *sample = JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-1000.parquet";
  snprintf(cmd, sizeof cmd,
           "mkdir -p '%s/ref' && cp '%s/adl/reference/'*.csv '%s/ref/' && chmod u+w '%s/ref/'*.csv "
           "&& sed -i 's/^10.0,346$/10.0,347/' '%s/ref/query-1.csv'",
           jgt_tmpdir, JG_TEST_DATA_DIR, jgt_tmpdir, jgt_tmpdir, jgt_tmpdir);
  assert_int_equal(system(cmd), 0);
  snprintf(args, sizeof args, "'%s' --query 1 --check '%s/ref' --out '%s/ref'", sample, jgt_tmpdir,
           jgt_tmpdir);
  expect_raw(args, 2, "--out and --check name the same directory");
  snprintf(cmd, sizeof cmd, "grep -q '^10.0,347$' '%s/ref/query-1.csv'", jgt_tmpdir);
  assert_int_equal(system(cmd), 0); /* the edited reference is still there */
  snprintf(args, sizeof args, "'%s' --check '%s/none' --out '%s/o1'", sample, jgt_tmpdir,
           jgt_tmpdir);
  expect_raw(args, 2, "is not a directory: No such file or directory");
  snprintf(args, sizeof args, "'%s' --check '%s/ref/query-1.csv' --out '%s/o1'", sample, jgt_tmpdir,
           jgt_tmpdir);
  expect_raw(args, 2, "is not a directory");
  snprintf(args, sizeof args, "'%s' --out '%s/ref/query-1.csv'", sample, jgt_tmpdir);
  expect_raw(args, 2, "exists and is not a directory");
  snprintf(args, sizeof args, "'%s' --out ''", sample);
  expect_raw(args, 2, "--out needs a directory name");
  /* a reference missing: found before any query runs; no output folder made */
  snprintf(cmd, sizeof cmd, "rm '%s/ref/query-5.csv'", jgt_tmpdir);
  assert_int_equal(system(cmd), 0);
  snprintf(args, sizeof args, "'%s' --check '%s/ref' --out '%s/o2'", sample, jgt_tmpdir,
           jgt_tmpdir);
  expect_raw(args, 1, "query-5.csv");
  struct stat st;
  char o2[512];
  snprintf(o2, sizeof o2, "%s/o2", jgt_tmpdir);
  assert_int_not_equal(stat(o2, &st), 0);
  char out[256];
  jgt_read_tmp("out", out, sizeof out);
  assert_string_equal(out, "");
}

/* A FIFO is refused at once (not waited on), a column of strings is named as such. */
static void test_not_a_file_and_strings(void **state) {
  (void)state;
  char fifo[512], args[600];
  snprintf(fifo, sizeof fifo, "%s/pipe.parquet", jgt_tmpdir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  snprintf(args, sizeof args, "'%s'", fifo);
  expect_failure("fifo", args, "is not a regular file (a FIFO)");
  /* MET_pt as byte strings (lists of uint8 are written as BYTE_ARRAY) */
  const int64_t off[3] = {0, 2, 5};
  const uint8_t chars[5] = {'1', '0', '2', '5', '0'};
  jg_array *col = NULL, *table = NULL;
  JGT_OK(jg_array_from_host_offsets(off, 2, chars, 5, JG_DTYPE_UINT8, &col, &jgt_err_));
  const char *names[1] = {"MET_pt"};
  JGT_OK(jg_array_record(1, &col, names, -1, &table, &jgt_err_));
  char path[512];
  snprintf(path, sizeof path, "%s/met_str.parquet", jgt_tmpdir);
  JGT_OK(jg_parquet_write(table, path, NULL, &jgt_err_));
  jg_array_release(table);
  jg_array_release(col);
  snprintf(args, sizeof args, "'%s' --query 1", path);
  expect_failure("met_str", args, "column MET_pt (needed by query 1) holds strings or bytes");
}

/* A cached default sample that does not open (a killed run, a full disk, an edit) is made
 * again, not a permanent failure. */
static void test_bad_cached_default(void **state) {
  (void)state;
  char cmd[2048], err[4096];
  snprintf(cmd, sizeof cmd,
           "mkdir -p '%s/cache/jagged' && echo junk > "
           "'%s/cache/jagged/adl-toy-v2-1000000-seed42.parquet'"
           " && XDG_CACHE_HOME='%s/cache' '%s' adl --query 1 --device cpu --out '%s/out-default' "
           ">'%s/out' 2>'%s/err'",
           jgt_tmpdir, jgt_tmpdir, jgt_tmpdir, JG_CLI_PATH, jgt_tmpdir, jgt_tmpdir, jgt_tmpdir);
  const int rc = system(cmd);
  jgt_read_tmp("err", err, sizeof err);
  if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0) fail_msg("exit status %d: %s", rc, err);
  JGT_CONTAINS(err, "is not usable");
  JGT_CONTAINS(err, "making it again");
  char out[8192];
  jgt_read_tmp("out", out, sizeof out);
  JGT_CONTAINS(out, "(1000000 events, 1 row group, flat NanoAOD columns)");
  assert_int_equal(jgt_tmp_leftovers(), 0);
}

static void test_bad_arguments(void **state) {
  (void)state;
  char args[600];
  snprintf(args, sizeof args, "'%s/adl/Run2012B_SingleMu-1000.parquet' --query 9",
           JG_TEST_DATA_DIR);
  assert_int_equal(run_adl("q9", args), 2);
  snprintf(args, sizeof args, "'%s/adl/Run2012B_SingleMu-1000.parquet' --batch -3",
           JG_TEST_DATA_DIR);
  assert_int_equal(run_adl("batch", args), 2);
  snprintf(args, sizeof args, "'%s/adl/Run2012B_SingleMu-1000.parquet' --devices cpu",
           JG_TEST_DATA_DIR);
  assert_int_equal(run_adl("devices", args), 2);
  const char *queries[] = {"1,,2", "1,", ",1", "''", "0", "1,9"};
  for (size_t k = 0; k < sizeof queries / sizeof queries[0]; k++) {
    snprintf(args, sizeof args, "'%s/adl/Run2012B_SingleMu-1000.parquet' --query %s",
             JG_TEST_DATA_DIR, queries[k]);
    assert_int_equal(run_adl("queries", args), 2);
  }
}

/* Both files of the sample, all nine histograms equal to the references, small batches too. */
static void test_sample_matches_references(void **state) {
  (void)state;
  const char *files[2] = {"Run2012B_SingleMu-1000.parquet",
                          "Run2012B_SingleMu-restructured-1000.parquet"};
  for (int k = 0; k < 2; k++) {
    char args[1024], out[8192];
    snprintf(args, sizeof args, "'%s/adl/%s' --check '%s/adl/reference' --batch %d",
             JG_TEST_DATA_DIR, files[k], JG_TEST_DATA_DIR, k == 0 ? 0 : 97);
    const int rc = run_adl(k == 0 ? "flat" : "records", args);
    jgt_read_tmp("out", out, sizeof out);
    if (rc != 0) fail_msg("%s: exit status %d: %s", files[k], rc, out);
    int same = 0;
    for (const char *p = out; (p = strstr(p, " same\n")) != NULL; p++) same++;
    assert_int_equal(same, 9);
    assert_non_null(strstr(out, "check: all histograms same as"));
  }
  /* nine CSVs (plus plots) and no temporary file left */
  char cmd[600];
  snprintf(cmd, sizeof cmd,
           "test $(ls '%s/out-flat' | grep -c '\\.csv$') -eq 9 && ! ls '%s/out-flat' | grep -q tmp",
           jgt_tmpdir, jgt_tmpdir);
  assert_int_equal(system(cmd), 0);
}

/* A None deep in the file, met by one of several query threads (batches of 50 events, three
 * threads): the pass stops, exit status 1, one stderr line naming the problem, no output. */
static void test_null_in_a_later_batch(void **state) {
  (void)state;
  enum { N = 1000 };
  float met[N];
  uint8_t valid[N];
  for (int i = 0; i < N; i++) {
    met[i] = (float)(i % 97);
    valid[i] = i != 777;
  }
  jg_array *values = NULL, *mask = NULL, *opt = NULL, *table = NULL;
  JGT_OK(jg_array_from_host(met, N, JG_DTYPE_FLOAT32, &values, &jgt_err_));
  JGT_OK(jg_array_from_host(valid, N, JG_DTYPE_UINT8, &mask, &jgt_err_));
  jg_view mv;
  JGT_OK(jg_array_buffer(mask, 0, &mv, &jgt_err_));
  JGT_OK(jg_array_byte_masked(&mv, true, values, &opt, &jgt_err_));
  const char *names[1] = {"MET_pt"};
  JGT_OK(jg_array_record(1, &opt, names, -1, &table, &jgt_err_));
  char path[512], args[700];
  snprintf(path, sizeof path, "%s/met_null.parquet", jgt_tmpdir);
  JGT_OK(jg_parquet_write(table, path, NULL, &jgt_err_));
  jg_array *all[] = {values, mask, opt, table};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) jg_array_release(all[i]);
  snprintf(args, sizeof args, "'%s' --query 1 --batch 50 --threads 3", path);
  expect_failure("met_null", args, "null values");
}

/* Batches shared by three query threads give the same histograms as one thread. */
static void test_query_threads(void **state) {
  (void)state;
  char args[1024], out[8192];
  for (int t = 1; t <= 3; t += 2) {
    snprintf(args, sizeof args,
             "'%s/adl/Run2012B_SingleMu-1000.parquet' --check '%s/adl/reference' "
             "--batch 61 --threads %d",
             JG_TEST_DATA_DIR, JG_TEST_DATA_DIR, t);
    const int rc = run_adl(t == 1 ? "threads1" : "threads3", args);
    jgt_read_tmp("out", out, sizeof out);
    if (rc != 0) fail_msg("--threads %d: exit status %d: %s", t, rc, out);
    assert_non_null(strstr(out, "check: all histograms same as"));
  }
}

/* A reference that differs: exit status 1 and the bin named. */
static void test_check_reports_differences(void **state) {
  (void)state;
  char cmd[4096], args[1024], out[8192];
  snprintf(
      cmd, sizeof cmd,
      "mkdir -p '%s/ref' && cp '%s/adl/reference/'*.csv '%s/ref/' && chmod u+w '%s/ref/'*.csv && "
      "sed -i 's/^10.0,346$/10.0,345/' '%s/ref/query-1.csv'",
      jgt_tmpdir, JG_TEST_DATA_DIR, jgt_tmpdir, jgt_tmpdir, jgt_tmpdir);
  assert_int_equal(system(cmd), 0);
  snprintf(args, sizeof args,
           "'%s/adl/Run2012B_SingleMu-1000.parquet' --query 1,2 --check '%s/ref'", JG_TEST_DATA_DIR,
           jgt_tmpdir);
  assert_int_equal(run_adl("differs", args), 1);
  jgt_read_tmp("out", out, sizeof out);
  assert_non_null(strstr(out, "DIFFERS"));
  assert_non_null(strstr(out, "x=10.0: 346 here, 345 in the reference"));
}

/* No usable plotting devices (PLplot's driver folder empty, as on a machine without its drivers;
 * or a build without PLplot): the CSVs are written, exit status 0, and one stderr line says why
 * the plots were skipped, naming the packages; PLplot prints nothing and does not exit. */
static void test_plots_skipped_without_devices(void **state) {
  (void)state;
  char cmd[2048], err[4096];
  snprintf(
      cmd, sizeof cmd,
      "mkdir -p '%s/no-drivers' && PLPLOT_DRV_DIR='%s/no-drivers' '%s' adl "
      "'%s/adl/Run2012B_SingleMu-1000.parquet' --query 1,6 --device cpu --out '%s/out-noplots' "
      ">'%s/out' 2>'%s/err'",
      jgt_tmpdir, jgt_tmpdir, JG_CLI_PATH, JG_TEST_DATA_DIR, jgt_tmpdir, jgt_tmpdir, jgt_tmpdir);
  const int rc = system(cmd);
  jgt_read_tmp("err", err, sizeof err);
  if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0) fail_msg("exit status %d: %s", rc, err);
  assert_non_null(strstr(err, "jagged adl: plots skipped: "));
  assert_non_null(strstr(err, adl_plots_expected() ? "plplot-driver-cairo" : "libplplot-dev"));
  int lines = 0;
  for (const char *p = err; *p; p++) lines += *p == '\n';
  if (lines != 1) fail_msg("%d lines on stderr, want 1: %s", lines, err);
  assert_int_equal(count_outputs("noplots"), 3); /* query-1.csv, query-6-1.csv, query-6-2.csv */
}

int main(void) {
  if (JG_CLI_PATH[0] == '\0') {
    printf("[  SKIPPED ] the jagged tool is not built (JG_BUILD_CLI=OFF)\n");
    return 77;
  }
  JGT_REQUIRE_DATA();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_missing_file),
      cmocka_unit_test(test_not_parquet),
      cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_missing_column),
      cmocka_unit_test(test_wrong_type),
      cmocka_unit_test(test_not_adl),
      cmocka_unit_test(test_bad_arguments),
      cmocka_unit_test(test_sample_matches_references),
      cmocka_unit_test(test_check_reports_differences),
      cmocka_unit_test(test_null_in_a_later_batch),
      cmocka_unit_test(test_out_and_check),
      cmocka_unit_test(test_not_a_file_and_strings),
      cmocka_unit_test(test_bad_cached_default),
      cmocka_unit_test(test_query_threads),
      cmocka_unit_test(test_plots_skipped_without_devices),
  };
  return JGT_RUN_TESTS(tests, jgt_tmpdir_setup, jgt_tmpdir_teardown);
}
