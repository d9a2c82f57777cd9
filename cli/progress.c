/* progress.c: the progress bar of the command-line tool on stderr (progress.h). */
#define _POSIX_C_SOURCE 200809L

#include "progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 30
#define LINE_WIDTH 70

double cli_now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void cli_progress_start(cli_progress *p, int64_t total, const char *unit) {
  p->tty = isatty(2) != 0;
  p->shown = false;
  p->start = cli_now_s();
  p->last = 0;
  p->done = 0;
  p->total = total;
  p->unit = unit;
}

void cli_progress_update(cli_progress *p, const char *what) {
  if (!p->tty) return;
  const double t = cli_now_s();
  if (t - p->start < 1.0 || (t - p->last < 0.1 && p->done < p->total)) return;
  p->last = t;
  p->shown = true;
  const int filled = p->total > 0 ? (int)(BAR_WIDTH * p->done / p->total) : BAR_WIDTH;
  char bar[BAR_WIDTH + 1];
  for (int i = 0; i < BAR_WIDTH; i++) bar[i] = i < filled ? '#' : '.';
  bar[BAR_WIDTH] = '\0';
  fprintf(stderr, "\r[%s] %" PRId64 "/%" PRId64 " %s  %-12s", bar, p->done, p->total,
          p->unit != NULL ? p->unit : "", what != NULL ? what : "");
  fflush(stderr);
}

void cli_progress_end(cli_progress *p) {
  if (p->shown) fprintf(stderr, "\r%*s\r", LINE_WIDTH, "");
  p->shown = false;
}
