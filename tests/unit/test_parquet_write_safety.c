/* test_parquet_write_safety.c: what the Parquet writer does to the file system around its path.
 * The file is written under a temporary name beside the path and renamed onto it when complete,
 * so a failed or discarded write leaves an existing file byte for byte as it was and leaves no
 * temporary file; a path that is a device node, FIFO or folder is refused before anything is
 * written and is still there afterwards (never removed or replaced); a symbolic link keeps
 * pointing at the file it names, which is replaced; a replaced file keeps its permission bits.
 * Write failures come from the file size limit (RLIMIT_FSIZE, which binds root too), both in
 * the middle of a table and at the final flush of close. Device nodes are private copies made
 * with mknod in the test's folder (root only: skipped with a message otherwise); the FIFO case
 * runs under alarm() so that a writer that blocks fails the test instead of hanging it. */
#define _XOPEN_SOURCE 700 /* mkdtemp, mknod, symlink, setrlimit */
#define JGT_TMPDIR_NAME "parquet_write_safety"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "jagged/parquet.h"
#include "jagged/parquet_writer.h"
#include "jg_test.h"
#include "jgt_build.h"
#include "jgt_tmpdir.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* "<tmpdir>/<name>" into buf. */
static void in_tmp(char *buf, size_t size, const char *name) {
  const int n = snprintf(buf, size, "%s/%s", jgt_tmpdir, name);
  assert_true(n > 0 && (size_t)n < size);
}

/* A one-column table {v: int64} of n values start, start + 1, ... */
static jg_array *int_table(int64_t n, int64_t start) {
  int64_t *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
  assert_non_null(v);
  for (int64_t i = 0; i < n; i++) v[i] = start + i * 2654435761LL;
  jg_array *col = num(v, n, JG_DTYPE_INT64);
  free(v);
  const char *names[1] = {"v"};
  jg_array *t = NULL;
  JGT_OK(jg_array_record(1, &col, names, n, &t, &jgt_err_));
  jg_array_release(col);
  return t;
}

/* Options that make the file's size follow the table's (no compression, no dictionary). */
static jg_parquet_write_options plain_options(void) {
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.codec = JG_PARQUET_UNCOMPRESSED;
  o.dictionary = false;
  return o;
}

/* The bytes of the file at `path` (malloc'ed) and their number in *len. */
static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  const long n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  unsigned char *b = malloc((size_t)n + 1);
  assert_non_null(b);
  assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return b;
}

/* Asserts that the file at `path` holds exactly `want` (len bytes). */
static void assert_same_file(const char *path, const unsigned char *want, size_t len) {
  size_t n = 0;
  unsigned char *got = slurp(path, &n);
  assert_int_equal(n, len);
  assert_memory_equal(got, want, len);
  free(got);
}

/* Reads the file at `path` and asserts that it holds the rows of int_table(n, start). */
static void assert_table_file(const char *path, int64_t n, int64_t start) {
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
  jg_array *back = NULL;
  JGT_OK(jg_parquet_read(f, NULL, &back, &jgt_err_));
  jg_parquet_close(f);
  jg_array *want = int_table(n, start);
  char *a = show(back, false), *b = show(want, false);
  assert_string_equal(a, b);
  free(a);
  free(b);
  jg_array_release(back);
  jg_array_release(want);
}

/* A file size limit of `bytes` for this process (SIGXFSZ ignored, so writes past it fail with
 * EFBIG); restore_fsize undoes it. Root is bound by it too. */
static struct rlimit saved_fsize;
static void (*saved_xfsz)(int);

static void limit_fsize(rlim_t bytes) {
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved_fsize), 0);
  struct rlimit lim = saved_fsize;
  lim.rlim_cur = bytes;
  saved_xfsz = signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
}

static void restore_fsize(void) {
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved_fsize), 0);
  signal(SIGXFSZ, saved_xfsz);
}

/* Writes int_table(n, start) to `path` with plain options. */
static void write_good(const char *path, int64_t n, int64_t start) {
  jg_array *t = int_table(n, start);
  const jg_parquet_write_options o = plain_options();
  JGT_OK(jg_parquet_write(t, path, &o, &jgt_err_));
  jg_array_release(t);
}

/* ---- an existing file survives ----------------------------------------------------------- */

/* jg_parquet_write failing half way (the size limit hit while pages are written) and at the
 * final flush of close (the whole file in stdio's buffer, the limit below its size) leaves the
 * existing file as it was and no temporary file. */
static void test_failed_write_keeps_file(void **state) {
  (void)state;
  char path[512];
  in_tmp(path, sizeof path, "keep.parquet");
  write_good(path, 10, 7);
  size_t len = 0;
  unsigned char *orig = slurp(path, &len);
  const jg_parquet_write_options o = plain_options();
  struct {
    int64_t rows;
    rlim_t limit;
  } cases[2] = {{100000, 64 * 1024}, {20, 200}};
  for (int k = 0; k < 2; k++) {
    jg_array *big = int_table(cases[k].rows, 1);
    limit_fsize(cases[k].limit);
    jg_error err;
    const jg_status st = jg_parquet_write(big, path, &o, &err);
    restore_fsize();
    jg_array_release(big);
    assert_int_equal(st, JG_EIO);
    JGT_CONTAINS(err.message, path);
    assert_same_file(path, orig, len);
    assert_int_equal(jgt_tmp_leftovers(), 0);
  }
  assert_table_file(path, 10, 7);
  free(orig);
  remove(path);
}

/* The streaming writer on an existing file: discarded after a good table, failed mid-write
 * then closed or discarded, closed without a table: the file stays intact every time, and the
 * path keeps the old file until a successful close puts the new one in place. */
static void test_stream_keeps_file(void **state) {
  (void)state;
  char path[512];
  in_tmp(path, sizeof path, "stream.parquet");
  write_good(path, 10, 7);
  size_t len = 0;
  unsigned char *orig = slurp(path, &len);
  const jg_parquet_write_options o = plain_options();
  jg_array *small = int_table(5, 100), *big = int_table(100000, 1);
  for (int ending = 0; ending < 4; ending++) {
    jg_parquet_writer *w = NULL;
    JGT_OK(jg_parquet_writer_open(path, &o, &w, &jgt_err_));
    jg_error err;
    if (ending == 0) {
      JGT_OK(jg_parquet_writer_write(w, small, &jgt_err_));
      assert_same_file(path, orig, len); /* still the old file while writing */
      jg_parquet_writer_discard(w);
    } else if (ending == 3) {
      JGT_STATUS(JG_ESTATE, jg_parquet_writer_close(w, &err));
      JGT_CONTAINS(err.message, "no table was written");
    } else {
      JGT_OK(jg_parquet_writer_write(w, small, &jgt_err_));
      limit_fsize(64 * 1024);
      const jg_status st = jg_parquet_writer_write(w, big, &err);
      restore_fsize();
      assert_int_equal(st, JG_EIO);
      if (ending == 1) {
        JGT_STATUS(JG_ESTATE, jg_parquet_writer_close(w, &err));
        JGT_CONTAINS(err.message, "left as it was");
      } else {
        jg_parquet_writer_discard(w);
      }
    }
    assert_same_file(path, orig, len);
    assert_int_equal(jgt_tmp_leftovers(), 0);
  }
  /* A successful close replaces it. */
  jg_parquet_writer *w = NULL;
  JGT_OK(jg_parquet_writer_open(path, &o, &w, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(w, small, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(w, &jgt_err_));
  assert_table_file(path, 5, 100);
  assert_int_equal(jgt_tmp_leftovers(), 0);
  jg_array_release(small);
  jg_array_release(big);
  free(orig);
  remove(path);
}

/* ---- paths that are not regular files ---------------------------------------------------- */

/* Both writers refuse `path` with JG_EIO naming it and `kind`, and leave it as it is (its
 * st_mode and st_rdev unchanged); no temporary file is made. */
static void assert_refused(const char *path, const char *kind) {
  struct stat before, after;
  assert_int_equal(lstat(path, &before), 0);
  jg_array *t = int_table(3, 0);
  jg_error err;
  JGT_STATUS(JG_EIO, jg_parquet_write(t, path, NULL, &err));
  JGT_CONTAINS(err.message, "jg_parquet_write");
  JGT_CONTAINS(err.message, path);
  JGT_CONTAINS(err.message, "not a regular file");
  JGT_CONTAINS(err.message, kind);
  jg_parquet_writer *w = (jg_parquet_writer *)&err;
  JGT_STATUS(JG_EIO, jg_parquet_writer_open(path, NULL, &w, &err));
  assert_null(w);
  JGT_CONTAINS(err.message, kind);
  jg_array_release(t);
  assert_int_equal(lstat(path, &after), 0);
  assert_int_equal(after.st_mode, before.st_mode);
  assert_int_equal(after.st_rdev, before.st_rdev);
  assert_int_equal(after.st_ino, before.st_ino);
  assert_int_equal(jgt_tmp_leftovers(), 0);
}

/* A private copy of /dev/full (char 1,7) and of /dev/null (char 1,3): refused up front and
 * still there. Root only. */
static void test_device_node_refused(void **state) {
  (void)state;
  if (geteuid() != 0) {
    printf("[  SKIPPED ] test_device_node_refused: mknod needs root\n");
    skip();
  }
  const struct {
    const char *name;
    unsigned minor;
  } nodes[2] = {{"full", 7}, {"null", 3}};
  for (int k = 0; k < 2; k++) {
    char path[512];
    in_tmp(path, sizeof path, nodes[k].name);
    assert_int_equal(mknod(path, S_IFCHR | 0666, makedev(1, nodes[k].minor)), 0);
    assert_refused(path, "a character device");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(minor(st.st_rdev), nodes[k].minor);
    /* A symbolic link to the node is followed to it, and refused the same way. */
    char link[512];
    in_tmp(link, sizeof link, "link-to-device");
    assert_int_equal(symlink(path, link), 0);
    assert_refused(link, "a character device");
    assert_int_equal(unlink(link), 0);
    assert_int_equal(unlink(path), 0);
  }
}

static void on_alarm(int sig) {
  (void)sig;
  const char msg[] = "test_fifo_refused: the writer blocked on a FIFO\n";
  if (write(2, msg, sizeof msg - 1) < 0) _exit(3);
  _exit(2);
}

/* A FIFO with no reader is refused at once (a writer that opened it would block forever: the
 * alarm ends the test then), and still exists. */
static void test_fifo_refused(void **state) {
  (void)state;
  char path[512];
  in_tmp(path, sizeof path, "fifo");
  assert_int_equal(mkfifo(path, 0600), 0);
  void (*prev)(int) = signal(SIGALRM, on_alarm);
  alarm(20);
  assert_refused(path, "a FIFO");
  alarm(0);
  signal(SIGALRM, prev);
  struct stat st;
  assert_int_equal(lstat(path, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  assert_int_equal(unlink(path), 0);
}

/* A folder is refused and left with what it holds. */
static void test_directory_refused(void **state) {
  (void)state;
  char path[512], inner[600];
  in_tmp(path, sizeof path, "folder.parquet");
  assert_int_equal(mkdir(path, 0755), 0);
  snprintf(inner, sizeof inner, "%s/keep", path);
  write_good(inner, 2, 0);
  assert_refused(path, "a directory");
  assert_table_file(inner, 2, 0);
  assert_int_equal(unlink(inner), 0);
  assert_int_equal(rmdir(path), 0);
}

/* ---- what the rename keeps ------------------------------------------------------------------ */

/* A symbolic link to a regular file stays a link, and the file it names gets the new
 * contents; a dangling link is refused and left. */
static void test_symlink_target_replaced(void **state) {
  (void)state;
  char target[512], link[512], dangling[512], nowhere[512];
  in_tmp(target, sizeof target, "real.parquet");
  in_tmp(link, sizeof link, "alias.parquet");
  write_good(target, 4, 1);
  assert_int_equal(symlink("real.parquet", link), 0); /* relative, as links often are */
  write_good(link, 6, 50);
  struct stat st;
  assert_int_equal(lstat(link, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_table_file(target, 6, 50);
  assert_int_equal(jgt_tmp_leftovers(), 0);

  in_tmp(dangling, sizeof dangling, "dangling.parquet");
  in_tmp(nowhere, sizeof nowhere, "missing/none.parquet");
  assert_int_equal(symlink(nowhere, dangling), 0);
  jg_array *t = int_table(3, 0);
  jg_error err;
  JGT_STATUS(JG_EIO, jg_parquet_write(t, dangling, NULL, &err));
  JGT_CONTAINS(err.message, dangling);
  jg_array_release(t);
  assert_int_equal(lstat(dangling, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_int_equal(jgt_tmp_leftovers(), 0);
  assert_int_equal(unlink(dangling), 0);
  assert_int_equal(unlink(link), 0);
  assert_int_equal(unlink(target), 0);
}

/* A replaced file's permission bits pass to the new file; a new file gets 0666 less the umask;
 * a folder that does not exist, or an empty path, is JG_EIO and makes nothing. */
static void test_mode_kept_and_missing_folder(void **state) {
  (void)state;
  char path[512];
  in_tmp(path, sizeof path, "mode.parquet");
  write_good(path, 2, 0);
  assert_int_equal(chmod(path, 0640), 0);
  write_good(path, 3, 0);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 07777, 0640);
  assert_int_equal(unlink(path), 0);
  const mode_t mask = umask(022);
  write_good(path, 3, 0);
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 07777, 0644);
  umask(mask);
  assert_int_equal(unlink(path), 0);

  char missing[512];
  in_tmp(missing, sizeof missing, "no-such-folder/x.parquet");
  jg_array *t = int_table(3, 0);
  jg_error err;
  JGT_STATUS(JG_EIO, jg_parquet_write(t, missing, NULL, &err));
  JGT_CONTAINS(err.message, missing);
  JGT_STATUS(JG_EIO, jg_parquet_write(t, "", NULL, &err)); /* nothing made in the current folder */
  JGT_CONTAINS(err.message, "''");
  jg_array_release(t);
  assert_int_equal(access(missing, F_OK), -1);
  assert_int_equal(jgt_tmp_leftovers(), 0);
}

/* Two writers of one path at once write different temporary files (the process id and a
 * counter), each complete file lands whole, and the last close wins. */
static void test_concurrent_writers(void **state) {
  (void)state;
  char path[512];
  in_tmp(path, sizeof path, "twice.parquet");
  const jg_parquet_write_options o = plain_options();
  jg_parquet_writer *a = NULL, *b = NULL;
  JGT_OK(jg_parquet_writer_open(path, &o, &a, &jgt_err_));
  JGT_OK(jg_parquet_writer_open(path, &o, &b, &jgt_err_));
  assert_string_not_equal(jg_parquet_writer_temp_path(a), jg_parquet_writer_temp_path(b));
  assert_null(jg_parquet_writer_temp_path(NULL));
  jg_array *ta = int_table(3, 10), *tb = int_table(4, 20);
  JGT_OK(jg_parquet_writer_write(a, ta, &jgt_err_));
  JGT_OK(jg_parquet_writer_write(b, tb, &jgt_err_));
  JGT_OK(jg_parquet_writer_close(b, &jgt_err_));
  assert_table_file(path, 4, 20);
  JGT_OK(jg_parquet_writer_close(a, &jgt_err_));
  assert_table_file(path, 3, 10);
  assert_int_equal(jgt_tmp_leftovers(), 0);
  jg_array_release(ta);
  jg_array_release(tb);
  assert_int_equal(unlink(path), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_failed_write_keeps_file),
      cmocka_unit_test(test_stream_keeps_file),
      cmocka_unit_test(test_device_node_refused),
      cmocka_unit_test(test_fifo_refused),
      cmocka_unit_test(test_directory_refused),
      cmocka_unit_test(test_symlink_target_replaced),
      cmocka_unit_test(test_mode_kept_and_missing_folder),
      cmocka_unit_test(test_concurrent_writers),
  };
  return JGT_RUN_TESTS(tests, jgt_tmpdir_setup, jgt_tmpdir_teardown);
}
