/* progress.h: the progress bar that `jagged adl` and `jagged generate` draw on stderr, and the
 * clock they time with. Internal to the command-line tool. */
#ifndef JAGGED_CLI_PROGRESS_H
#define JAGGED_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/** A progress bar of `done` over `total` units (row groups). It is drawn on stderr only when
 *  stderr is a terminal and the work has run for more than a second, at most ten times a second
 *  (and once more at the end); cli_progress_end clears it. Zero-initialise, then call
 *  cli_progress_start. Not thread-safe: one thread updates a bar. */
typedef struct cli_progress {
  bool tty;            /**< stderr is a terminal (set by cli_progress_start) */
  bool shown;          /**< the bar is on the screen */
  double start, last;  /**< cli_now_s() at the start and at the last drawing */
  int64_t done, total; /**< units done and in all */
  const char *unit;    /**< what is counted, e.g. "row groups" */
} cli_progress;

/** Seconds on a monotonic clock (CLOCK_MONOTONIC), for intervals. */
double cli_now_s(void);

/** Starts `p` counting `total` units named `unit` (a string that outlives `p`). */
void cli_progress_start(cli_progress *p, int64_t total, const char *unit);

/** Draws the bar with p->done and p->total, followed by `what` (a short label: the step or
 *  query), when the rules above allow it. */
void cli_progress_update(cli_progress *p, const char *what);

/** Erases the bar if it is shown (so that later lines start clean). */
void cli_progress_end(cli_progress *p);

#endif /* JAGGED_CLI_PROGRESS_H */
