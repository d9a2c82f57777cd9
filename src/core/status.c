/* status.c: names and messages of statuses, and the jg_error helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
