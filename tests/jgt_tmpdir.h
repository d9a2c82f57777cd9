/* jgt_tmpdir.h: a fresh temporary folder per test, for the tests that write files or run the
 * jagged tool: jgt_tmpdir_setup / jgt_tmpdir_teardown are cmocka group or test fixtures, and
 * jgt_read_tmp reads a file of the folder (the tool's captured stdout or stderr),
 * jgt_tmp_leftovers counts the temporary files left in it. Include after jg_test.h; POSIX
 * (mkdtemp, popen), so the including file defines _POSIX_C_SOURCE or _GNU_SOURCE. */
#ifndef JAGGED_TESTS_JGT_TMPDIR_H
#define JAGGED_TESTS_JGT_TMPDIR_H

#include <stdlib.h>

#include "jg_test.h"

/** The folder of the running test: /tmp/jg_test_<JGT_TMPDIR_NAME>_XXXXXX made unique. */
static char jgt_tmpdir[256];

#ifndef JGT_TMPDIR_NAME
#define JGT_TMPDIR_NAME "tmp"
#endif

/** Makes jgt_tmpdir (0, or -1 when it cannot be made: cmocka then fails the fixture). */
static inline int jgt_tmpdir_setup(void **state) {
  (void)state;
  snprintf(jgt_tmpdir, sizeof jgt_tmpdir, "/tmp/jg_test_%s_XXXXXX", JGT_TMPDIR_NAME);
  return mkdtemp(jgt_tmpdir) == NULL ? -1 : 0;
}

/** Removes jgt_tmpdir and everything in it. */
static inline int jgt_tmpdir_teardown(void **state) {
  (void)state;
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", jgt_tmpdir);
  return system(cmd) == 0 ? 0 : -1;
}

/** The text of jgt_tmpdir/name into buf (at most size - 1 bytes, NUL-terminated); the test
 *  fails when the file cannot be opened. */
static inline void jgt_read_tmp(const char *name, char *buf, size_t size) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", jgt_tmpdir, name);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  const size_t n = fread(buf, 1, size - 1, f);
  buf[n] = '\0';
  fclose(f);
}

/** The number of temporary files (names ending in ".tmp") left in jgt_tmpdir and its
 *  subfolders: an output written under a temporary name and renamed leaves none. */
static inline int jgt_tmp_leftovers(void) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "find '%s' -name '*.tmp' | wc -l", jgt_tmpdir);
  FILE *p = popen(cmd, "r");
  int n = -1;
  if (p != NULL) {
    if (fscanf(p, "%d", &n) != 1) n = -1;
    pclose(p);
  }
  return n;
}

#endif /* JAGGED_TESTS_JGT_TMPDIR_H */
