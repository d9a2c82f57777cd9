/* test_generate_cli.c: `jagged generate` run as a user would (the tool, through the shell): bad
 * arguments give exit status 2, an unwritable --out exit status 1, each with one line on stderr
 * and no file left (nor a temporary one); an interrupt removes the temporary file; a good run
 * prints one summary line, leaves the file and no temporary, and gives the same bytes for any
 * --threads. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jg_test.h"
#define JGT_TMPDIR_NAME "generate_cli"
#include "jgt_tmpdir.h"

#ifndef JG_CLI_PATH
#define JG_CLI_PATH ""
#endif

/** Runs `jagged ARGS` with stdout in TMP/out and stderr in TMP/err; returns the exit status. */
static int run_tool(const char *args) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' %s >'%s/out' 2>'%s/err'", JG_CLI_PATH, args, jgt_tmpdir,
           jgt_tmpdir);
  const int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/** The number of lines of `s`. */
static int count_lines(const char *s) {
  int n = 0;
  for (const char *p = s; *p; p++) n += *p == '\n';
  return n;
}

/** Whether TMP/name exists. */
static bool exists(const char *name) {
  char path[512];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", jgt_tmpdir, name);
  return stat(path, &st) == 0;
}

/** `jagged generate ARGS --out TMP/x.parquet` (when with_out) exits with `want`, prints nothing on
 *  stdout and exactly one stderr line containing `what`, and leaves neither x.parquet nor
 *  a temporary file. */
static void expect_failure(const char *args, bool with_out, int want, const char *what) {
  char cmd[1024], out[4096], err[4096];
  if (with_out) {
    snprintf(cmd, sizeof cmd, "generate %s --out '%s/x.parquet'", args, jgt_tmpdir);
  } else {
    snprintf(cmd, sizeof cmd, "generate %s", args);
  }
  const int rc = run_tool(cmd);
  jgt_read_tmp("out", out, sizeof out);
  jgt_read_tmp("err", err, sizeof err);
  if (rc != want) fail_msg("generate %s: exit status %d, want %d; stderr: %s", args, rc, want, err);
  if (strstr(err, what) == NULL) fail_msg("generate %s: stderr lacks '%s': %s", args, what, err);
  if (count_lines(err) != 1)
    fail_msg("generate %s: %d lines on stderr: %s", args, count_lines(err), err);
  if (out[0] != '\0') fail_msg("generate %s: stdout not empty: %s", args, out);
  assert_false(exists("x.parquet"));
  assert_int_equal(jgt_tmp_leftovers(), 0);
}

static void test_bad_n(void **state) {
  (void)state;
  expect_failure("abc", true, 2, "'abc'");
  expect_failure("-5", true, 2, "N takes a number of events from 0 to 100000M");
  expect_failure("-1", true, 2, "'-1'");
  expect_failure("100001M", true, 2, "'100001M'");
  expect_failure("10x", true, 2, "'10x'");
  expect_failure("1.5M", true, 2, "'1.5M'");
  expect_failure("99999999999999999999", true, 2, "'99999999999999999999'");
  expect_failure("''", true, 2, "''");
  expect_failure("", true, 2, "N is missing");
  expect_failure("10 20", true, 2, "more than one N");
}

static void test_bad_options(void **state) {
  (void)state;
  expect_failure("10 --frobnicate", true, 2, "unknown option '--frobnicate'");
  expect_failure("10", false, 2, "--out FILE is missing");
  expect_failure("10 --threads -1", true, 2, "--threads");
  expect_failure("10 --threads many", true, 2, "--threads");
  expect_failure("10 --row-group-rows 0", true, 2, "--row-group-rows");
  expect_failure("10 --seed -3", true, 2, "--seed");
  expect_failure("10 --codec lzma", true, 2, "--codec");
  expect_failure("10 --out", false, 2, "--out needs a value");
}

static void test_unwritable_out(void **state) {
  (void)state;
  char args[1024], err[4096];
  snprintf(args, sizeof args, "generate 1000 --out '%s/no-such-dir/y.parquet'", jgt_tmpdir);
  assert_int_equal(run_tool(args), 1);
  jgt_read_tmp("err", err, sizeof err);
  assert_int_equal(count_lines(err), 1);
  JGT_CONTAINS(err, "no-such-dir/y.parquet");
  assert_false(exists("no-such-dir"));
  /* a directory in the way: nothing written, the directory and its file untouched */
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "mkdir '%s/d' && touch '%s/d/keep'", jgt_tmpdir, jgt_tmpdir);
  assert_int_equal(system(cmd), 0);
  snprintf(args, sizeof args, "generate 1000 --out '%s/d'", jgt_tmpdir);
  assert_int_equal(run_tool(args), 1);
  jgt_read_tmp("err", err, sizeof err);
  assert_int_equal(count_lines(err), 1);
  JGT_CONTAINS(err, "is not a regular file (a directory)");
  assert_int_equal(jgt_tmp_leftovers(), 0);
  assert_true(exists("d/keep"));
  /* a device in the way is refused, never replaced */
  assert_int_equal(run_tool("generate 10 --out /dev/null"), 1);
  jgt_read_tmp("err", err, sizeof err);
  JGT_CONTAINS(err, "'/dev/null' exists and is not a regular file");
  struct stat st;
  assert_int_equal(stat("/dev/null", &st), 0);
  assert_true(S_ISCHR(st.st_mode));
}

/* An interrupt (SIGINT, as Ctrl-C) during a long run ends it by that signal and removes the
 * temporary file: nothing is left. */
static void test_interrupted(void **state) {
  (void)state;
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "'%s' generate 100M --out '%s/big.parquet' >/dev/null 2>&1 & pid=$!; "
           "for i in $(seq 200); do ls '%s' | grep -q tmp && break; sleep 0.05; done; sleep 0.3; "
           "kill -INT $pid; wait $pid; echo $? > '%s/rc'",
           JG_CLI_PATH, jgt_tmpdir, jgt_tmpdir, jgt_tmpdir);
  assert_int_equal(system(cmd), 0);
  char rc[32];
  jgt_read_tmp("rc", rc, sizeof rc);
  assert_int_equal(atoi(rc), 128 + 2); /* ended by SIGINT */
  assert_false(exists("big.parquet"));
  assert_int_equal(jgt_tmp_leftovers(), 0);
}

/* One summary line; the file and no temporary; the same bytes for --threads 1 and 3; k suffix. */
static void test_good_run(void **state) {
  (void)state;
  char args[1024], out[4096], err[4096];
  snprintf(args, sizeof args,
           "generate 2k --out '%s/a.parquet' --row-group-rows 500 --seed 5 "
           "--threads 1",
           jgt_tmpdir);
  assert_int_equal(run_tool(args), 0);
  jgt_read_tmp("out", out, sizeof out);
  jgt_read_tmp("err", err, sizeof err);
  assert_int_equal(count_lines(out), 1);
  JGT_CONTAINS(out, "2000 events, 4 row groups, ");
  JGT_CONTAINS(out, " bytes, ");
  assert_string_equal(err, "");
  assert_true(exists("a.parquet"));
  assert_int_equal(jgt_tmp_leftovers(), 0);
  snprintf(args, sizeof args,
           "generate 2000 --out '%s/b.parquet' --row-group-rows 500 --seed 5 "
           "--threads 3",
           jgt_tmpdir);
  assert_int_equal(run_tool(args), 0);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cmp -s '%s/a.parquet' '%s/b.parquet'", jgt_tmpdir, jgt_tmpdir);
  assert_int_equal(system(cmd), 0);
  /* another codec, and 0 events */
  snprintf(args, sizeof args, "generate 1k --out '%s/z.parquet' --codec zstd", jgt_tmpdir);
  assert_int_equal(run_tool(args), 0);
  snprintf(args, sizeof args, "generate 0 --out '%s/e.parquet'", jgt_tmpdir);
  assert_int_equal(run_tool(args), 0);
  jgt_read_tmp("out", out, sizeof out);
  JGT_CONTAINS(out, "0 events, 0 row groups");
}

static void test_help(void **state) {
  (void)state;
  char out[8192];
  assert_int_equal(run_tool("generate --help"), 0);
  jgt_read_tmp("out", out, sizeof out);
  JGT_CONTAINS(out, "usage: jagged generate N --out FILE");
  assert_int_equal(run_tool("help"), 0);
  jgt_read_tmp("out", out, sizeof out);
  JGT_CONTAINS(out, "  generate ");
}

int main(void) {
  if (JG_CLI_PATH[0] == '\0') {
    printf("[  SKIPPED ] the jagged tool is not built (JG_BUILD_CLI=OFF)\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_n),          cmocka_unit_test(test_bad_options),
      cmocka_unit_test(test_unwritable_out), cmocka_unit_test(test_good_run),
      cmocka_unit_test(test_help),           cmocka_unit_test(test_interrupted),
  };
  return JGT_RUN_TESTS(tests, jgt_tmpdir_setup, jgt_tmpdir_teardown);
}
