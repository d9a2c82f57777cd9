/* args.c: argument parsing shared by the subcommands (args.h). */
#include "args.h"

#include <errno.h>
#include <stdlib.h>

bool cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out) {
  char *end = NULL;
  errno = 0;
  const long long v = strtoll(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) return false;
  *out = v;
  return true;
}
