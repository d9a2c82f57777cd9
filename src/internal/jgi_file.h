/* jgi_file.h: files the library writes (internal; src/core/file.c). A file is written under a
 * temporary name beside its target and renamed onto the target when complete, so the target is
 * either its old self or the whole new file, never a partial one; the library removes only the
 * temporary files it created itself, never the target. A target that exists and is not a regular
 * file (a directory, FIFO, device or socket) is refused before anything is written. */
#ifndef JAGGED_JGI_FILE_H
#define JAGGED_JGI_FILE_H

#include <stdbool.h>

#include "internal/jgi_check.h"

/** What a non-regular file is, for messages ("a directory", "a FIFO", "a character device", "a
 *  block device", "a socket", "a symbolic link", "not a plain file"); `mode` is a stat st_mode. */
JGI_HIDDEN const char *jgi_file_kind(unsigned mode);

/** A file being written under a temporary name (jgi_tmpfile_open .. _commit or _abandon). */
typedef struct jgi_tmpfile {
  char *target;   /* malloc'ed: the file to make or replace (a symbolic link at the path given is
                     followed, so the link stays and the file it names is replaced) */
  char *tmp;      /* malloc'ed: "<target>.<pid>.<n>.tmp", created by jgi_tmpfile_open */
  bool replaces;  /* the target existed (a regular file) when the temporary file was made */
} jgi_tmpfile;

/** Checks `path` (absent, or a regular file, possibly through symbolic links) and creates its
 *  temporary file beside the target (O_CREAT | O_EXCL, a name unique to this process and call:
 *  the process id and a counter), with the replaced file's permission bits (and owner and group
 *  where the process may set them) or 0666 less the umask for a new file. Returns in *fd the
 *  file's descriptor (close-on-exec, write-only), which the caller closes before
 *  jgi_tmpfile_commit. Errors, each naming `path` (nothing is then created and *t is empty):
 *  JG_EIO (path is a directory, FIFO, device, socket or a dangling symbolic link; the temporary
 *  file cannot be created, e.g. the folder is missing or not writable), JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_tmpfile_open(const char *path, jgi_tmpfile *t, int *fd, jg_error *err);

/** Renames the (closed, complete) temporary file onto the target, after checking again that the
 *  target is absent or a regular file; on any error the temporary file is removed instead and
 *  the target is left as it is. Frees the names either way. Errors: JG_EIO naming `path` (the
 *  name the caller gave) and the reason. */
JGI_HIDDEN jg_status jgi_tmpfile_commit(jgi_tmpfile *t, const char *path, jg_error *err);

/** Removes the temporary file (the caller closed it) and frees the names; the target is left as
 *  it is. An empty or already finished *t is a no-op. */
JGI_HIDDEN void jgi_tmpfile_abandon(jgi_tmpfile *t);

#endif /* JAGGED_JGI_FILE_H */
