/* status.c: names and messages of statuses, and the jg_error helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal/jgi_check.h"
#include "jagged/status.h"
#include "jagged/version.h"

const char *jg_status_name(jg_status status) {
  switch (status) {
#define JG_STATUS_NAME_(name, num, msg) \
  case JG_##name:                       \
    return "JG_" #name;
    JG_STATUS_MAP(JG_STATUS_NAME_)
#undef JG_STATUS_NAME_
  }
  return "JG_UNKNOWN";
}

const char *jg_status_str(jg_status status) {
  switch (status) {
#define JG_STATUS_STR_(name, num, msg) \
  case JG_##name:                      \
    return msg;
    JG_STATUS_MAP(JG_STATUS_STR_)
#undef JG_STATUS_STR_
  }
  return "unknown status";
}

void jg_error_clear(jg_error *err) {
  if (err == NULL) return;
  err->status = JG_OK;
  err->index = -1;
  err->message[0] = '\0';
}

jg_status jg_error_set(jg_error *err, jg_status status, int64_t index, const char *fmt, ...) {
  if (err == NULL) return status;
  err->status = status;
  err->index = index;
  if (fmt == NULL) {
    snprintf(err->message, sizeof err->message, "%s", jg_status_str(status));
    return status;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return status;
}

int jg_version(void) { return JG_VERSION_NUMBER; }

const char *jg_version_string(void) { return JG_VERSION_STRING; }

jg_status jgi_error_prefix(jg_status st, const char *fn, jg_error *err) {
  if (st == JG_OK || err == NULL) return st;
  const size_t cap = sizeof err->message - 1;
  const size_t plen = strlen(fn) + 2;
  if (plen >= cap) return st;
  size_t mlen = 0;
  while (mlen < cap && err->message[mlen] != '\0') mlen++;
  if (mlen > cap - plen) mlen = cap - plen;
  memmove(err->message + plen, err->message, mlen);
  memcpy(err->message, fn, plen - 2);
  err->message[plen - 2] = ':';
  err->message[plen - 1] = ' ';
  err->message[plen + mlen] = '\0';
  return st;
}

jg_status jgi_error_prefix_once(jg_status st, const char *fn, jg_error *err) {
  if (st == JG_OK || err == NULL || strncmp(err->message, fn, strlen(fn)) == 0) return st;
  return jgi_error_prefix(st, fn, err);
}
