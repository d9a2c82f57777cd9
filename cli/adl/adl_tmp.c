/* adl_tmp.c: temporary names, and their removal when a signal ends the process (adl_tmp.h). */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include "adl_tmp.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { SLOTS = 8 };

/* A slot's name is written before its flag is raised and read by the handler only while the
 * flag is up, so the handler never sees a half-written name. */
static char tracked[SLOTS][PATH_MAX];
static volatile sig_atomic_t in_use[SLOTS];

bool adl_tmp_name(const char *path, char *out, size_t size) {
  const int n = snprintf(out, size, "%s.%ld.tmp", path, (long)getpid());
  return n > 0 && (size_t)n < size;
}

int adl_tmp_track(const char *tmp) {
  const size_t n = strlen(tmp);
  if (n >= PATH_MAX) return -1;
  for (int k = 0; k < SLOTS; k++) {
    if (in_use[k]) continue;
    memcpy(tracked[k], tmp, n + 1);
    in_use[k] = 1;
    return k;
  }
  return -1;
}

void adl_tmp_untrack(int slot) {
  if (slot >= 0 && slot < SLOTS) in_use[slot] = 0;
}

/* Removes the files being written (unlink is async-signal-safe), then ends the process by the
 * same signal with its default action. */
static void on_signal(int sig) {
  for (int k = 0; k < SLOTS; k++) {
    if (in_use[k]) unlink(tracked[k]);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void adl_tmp_remove_on_signal(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
  for (int k = 0; k < 3; k++) sigaddset(&sa.sa_mask, sigs[k]);
  for (int k = 0; k < 3; k++) sigaction(sigs[k], &sa, NULL);
}
