/* file.c: temporary files beside their targets, renamed into place when complete (jgi_file.h). */
#define _XOPEN_SOURCE 700 /* realpath, fchown, lstat */

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal/jgi_file.h"

const char *jgi_file_kind(unsigned mode) {
  const mode_t m = (mode_t)mode;
  return S_ISDIR(m)    ? "a directory"
         : S_ISFIFO(m) ? "a FIFO"
         : S_ISCHR(m)  ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISSOCK(m) ? "a socket"
         : S_ISLNK(m)  ? "a symbolic link"
                       : "not a plain file";
}

/* Calls in this process so far: with the process id, makes every temporary name unique. */
static atomic_ulong tmp_counter;

static char *dup_string(const char *s) {
  const size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p != NULL) memcpy(p, s, n);
  return p;
}

/* The target of `path` in *target (malloc'ed) and its status in *st; *exists when it exists. */
static jg_status resolve_target(const char *path, char **target, struct stat *st, bool *exists,
                                jg_error *err) {
  *target = NULL;
  *exists = false;
  JG_RETURN_IF(path[0] == '\0', JG_EIO, err, "cannot open '' for writing: %s", strerror(ENOENT));
  struct stat ls;
  if (lstat(path, &ls) != 0) {
    const int e = errno;
    JG_RETURN_IF(e != ENOENT, JG_EIO, err, "cannot open '%s' for writing: %s", path, strerror(e));
    *target = dup_string(path);
    JG_RETURN_IF(*target == NULL, JG_ENOMEM, err, "out of host memory");
    return JG_OK;
  }
  if (S_ISLNK(ls.st_mode)) {
    *target = realpath(path, NULL);
    if (*target == NULL) {
      const int e = errno;
      return jg_error_set(err, e == ENOMEM ? JG_ENOMEM : JG_EIO, -1,
                          "'%s' is a symbolic link that does not lead to a file: %s", path,
                          strerror(e));
    }
    if (stat(*target, st) != 0) {
      const int e = errno;
      free(*target);
      *target = NULL;
      return jg_error_set(err, JG_EIO, -1, "cannot open '%s' for writing: %s", path, strerror(e));
    }
  } else {
    *st = ls;
    *target = dup_string(path);
    JG_RETURN_IF(*target == NULL, JG_ENOMEM, err, "out of host memory");
  }
  *exists = true;
  if (!S_ISREG(st->st_mode)) {
    free(*target);
    *target = NULL;
    return jg_error_set(err, JG_EIO, -1,
                        "'%s' exists and is not a regular file (%s): it is left as it is", path,
                        jgi_file_kind((unsigned)st->st_mode));
  }
  if (access(*target, W_OK) != 0) {
    /* Replacing needs only the folder's permission: a file the caller may not write is kept,
     * as opening it for writing would have refused. */
    const int e = errno;
    free(*target);
    *target = NULL;
    return jg_error_set(err, JG_EIO, -1, "cannot open '%s' for writing: %s", path, strerror(e));
  }
  return JG_OK;
}

jg_status jgi_tmpfile_open(const char *path, jgi_tmpfile *t, int *fd, jg_error *err) {
  memset(t, 0, sizeof *t);
  *fd = -1;
  struct stat st;
  memset(&st, 0, sizeof st);
  bool exists = false;
  JG_RETURN_NOT_OK(resolve_target(path, &t->target, &st, &exists, err));
  const size_t cap = strlen(t->target) + 64;
  t->tmp = malloc(cap);
  if (t->tmp == NULL) {
    jgi_tmpfile_abandon(t);
    return jg_error_set(err, JG_ENOMEM, -1, "out of host memory");
  }
  int e = EEXIST;
  for (int attempt = 0; attempt < 64 && *fd < 0 && e == EEXIST; attempt++) {
    const unsigned long n = atomic_fetch_add(&tmp_counter, 1ul);
    snprintf(t->tmp, cap, "%s.%ld.%lu.tmp", t->target, (long)getpid(), n);
    *fd = open(t->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    e = *fd < 0 ? errno : 0;
  }
  if (*fd < 0) {
    free(t->tmp);
    t->tmp = NULL; /* not created: nothing to remove */
    jgi_tmpfile_abandon(t);
    return jg_error_set(err, JG_EIO, -1, "cannot create a temporary file beside '%s': %s", path,
                        strerror(e));
  }
  if (exists) {
    t->replaces = true;
    /* The replaced file's owner (where permitted: root, or the owner's own group) and mode. */
    if (fchown(*fd, st.st_uid, st.st_gid) != 0) {
      /* not permitted: the new file belongs to the writing process's user */
    }
    (void)fchmod(*fd, st.st_mode & 07777);
  }
  return JG_OK;
}

jg_status jgi_tmpfile_commit(jgi_tmpfile *t, const char *path, jg_error *err) {
  struct stat ls;
  if (lstat(t->target, &ls) == 0 && !S_ISREG(ls.st_mode)) {
    const mode_t m = ls.st_mode;
    jgi_tmpfile_abandon(t);
    return jg_error_set(err, JG_EIO, -1,
                        "'%s' became %s while it was written: it is left as it is and the new "
                        "file is removed",
                        path, jgi_file_kind((unsigned)m));
  }
  if (rename(t->tmp, t->target) != 0) {
    const int e = errno;
    jgi_tmpfile_abandon(t);
    return jg_error_set(err, JG_EIO, -1, "cannot put '%s' in place: %s", path, strerror(e));
  }
  free(t->tmp);
  free(t->target);
  memset(t, 0, sizeof *t);
  return JG_OK;
}

void jgi_tmpfile_abandon(jgi_tmpfile *t) {
  if (t == NULL) return;
  if (t->tmp != NULL) (void)unlink(t->tmp);
  free(t->tmp);
  free(t->target);
  memset(t, 0, sizeof *t);
}
