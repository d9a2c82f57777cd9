/* log.h: the library's one way of telling the user something that is not an error.
 *
 * jagged never prints. Warnings (for example "kernel 'x' has no CUDA implementation; running the
 * host one" when the fallback policy is on) go to a log callback that the application installs;
 * without one they are dropped. The CLI installs a callback that writes to stderr. */
#ifndef JAGGED_LOG_H
#define JAGGED_LOG_H

#include "jagged/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Severity of a log message; numbers pinned. */
typedef enum jg_log_level {
  JG_LOG_DEBUG = 10,
  JG_LOG_INFO = 20,
  JG_LOG_WARN = 30,
  JG_LOG_ERROR = 40
} jg_log_level;

/** A log sink. `message` is one NUL-terminated line without a trailing newline, valid only during
 *  the call; `user` is the pointer given to jg_log_set_callback. May be called from any thread
 *  that calls into jagged (the callback must be thread-safe if the application is threaded); it
 *  must not call back into jagged's log functions. */
typedef void (*jg_log_fn)(jg_log_level level, const char *message, void *user);

/** Installs `fn` (NULL: drop every message, the default) with its `user` pointer, process-wide,
 *  and sets the least severe level passed on (messages below `min_level` are dropped before
 *  formatting; any value is accepted, e.g. JG_LOG_ERROR + 1 drops everything). The three values
 *  change together: a message is delivered with a consistent (fn, user, min_level). Thread-safe
 *  (an atomic swap); a message being delivered on another thread may still reach the previous
 *  callback. Never fails. Messages are at most 1023 bytes; longer ones are cut and end in
 *  "...". */
JG_API void jg_log_set_callback(jg_log_fn fn, void *user, jg_log_level min_level);

/** The installed callback, its user pointer and minimum level; any out pointer may be NULL.
 *  Before any jg_log_set_callback: NULL, NULL and JG_LOG_WARN. */
JG_API void jg_log_get_callback(jg_log_fn *fn, void **user, jg_log_level *min_level);

/** Name of a level: "debug", "info", "warning", "error"; "unknown" otherwise. Static storage. */
JG_API const char *jg_log_level_name(jg_log_level level);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_LOG_H */
