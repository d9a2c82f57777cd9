/* adl_tmp.h: the temporary files of `jagged adl` and `jagged generate`. Every output (a CSV, a
 * plot, a generated Parquet file) is written under a temporary name beside its final one and
 * renamed when complete, so a file under a final name is always whole. The temporary name holds
 * the process id, so that two runs writing the same output never write into one temporary file
 * (the last rename wins, and each file it puts in place is complete), and the files being
 * written are tracked, so that an interrupted run (SIGINT, SIGTERM, SIGHUP) removes them before
 * it ends. Internal to the command-line tool. */
#ifndef JAGGED_CLI_ADL_TMP_H
#define JAGGED_CLI_ADL_TMP_H

#include <stdbool.h>
#include <stddef.h>

/** Writes the temporary name of `path` ("PATH.<pid>.tmp") into out[0 .. size); false when it
 *  does not fit. */
bool adl_tmp_name(const char *path, char *out, size_t size);

/** Marks `tmp` (a name from adl_tmp_name) as being written: an interrupting signal removes it.
 *  Returns a slot for adl_tmp_untrack, or -1 when all slots are taken (the file is then simply
 *  not removed on a signal). Up to 8 files at once; not for concurrent use from several
 *  threads. */
int adl_tmp_track(const char *tmp);

/** Ends the tracking of slot `slot` (after the rename or the removal); -1 is a no-op. */
void adl_tmp_untrack(int slot);

/** Installs the handlers of SIGINT, SIGTERM and SIGHUP that remove the tracked files, then end
 *  the process by the same signal (its default action). Once per process; the CLI calls it
 *  before writing anything. */
void adl_tmp_remove_on_signal(void);

#endif /* JAGGED_CLI_ADL_TMP_H */
