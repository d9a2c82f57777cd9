/* log.c: the log callback (log.h) and jgi_log.
 *
 * The callback, its user pointer and the minimum level change together: writers take a spin
 * flag and publish the three under a sequence counter (odd while a write is in progress);
 * readers retry until they read the three between two equal, even counter values (a seqlock).
 * The fast path of jgi_log is one acquire load of the callback (NULL: return) and one of the
 * level, with no formatting. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "internal/jgi_transfer.h"

/** Size of the message buffer of jgi_log, including the NUL (log.h promises 1023 bytes). */
enum { LOG_MESSAGE_SIZE = 1024 };

static _Atomic(jg_log_fn) g_fn;
static _Atomic(void *) g_user;
static atomic_int g_level = JG_LOG_WARN;
static atomic_uint g_seq;
static atomic_flag g_write_lock = ATOMIC_FLAG_INIT;

void jg_log_set_callback(jg_log_fn fn, void *user, jg_log_level min_level) {
  while (atomic_flag_test_and_set_explicit(&g_write_lock, memory_order_acquire)) {
  }
  const unsigned s = atomic_load_explicit(&g_seq, memory_order_relaxed);
  atomic_store_explicit(&g_seq, s + 1u, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&g_user, user, memory_order_relaxed);
  atomic_store_explicit(&g_level, (int)min_level, memory_order_relaxed);
  atomic_store_explicit(&g_fn, fn, memory_order_relaxed);
  atomic_store_explicit(&g_seq, s + 2u, memory_order_release);
  atomic_flag_clear_explicit(&g_write_lock, memory_order_release);
}

/* A consistent snapshot of the three values. */
static void load_config(jg_log_fn *fn, void **user, int *level) {
  for (;;) {
    const unsigned s1 = atomic_load_explicit(&g_seq, memory_order_acquire);
    if (s1 & 1u) continue; /* a write is in progress */
    *fn = atomic_load_explicit(&g_fn, memory_order_relaxed);
    *user = atomic_load_explicit(&g_user, memory_order_relaxed);
    *level = atomic_load_explicit(&g_level, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&g_seq, memory_order_relaxed) == s1) return;
  }
}

void jg_log_get_callback(jg_log_fn *fn, void **user, jg_log_level *min_level) {
  jg_log_fn f = NULL;
  void *u = NULL;
  int level = 0;
  load_config(&f, &u, &level);
  if (fn != NULL) *fn = f;
  if (user != NULL) *user = u;
  if (min_level != NULL) *min_level = (jg_log_level)level;
}

const char *jg_log_level_name(jg_log_level level) {
  switch (level) {
    case JG_LOG_DEBUG:
      return "debug";
    case JG_LOG_INFO:
      return "info";
    case JG_LOG_WARN:
      return "warning";
    case JG_LOG_ERROR:
      return "error";
    default:
      return "unknown";
  }
}

bool jgi_log_enabled(jg_log_level level) {
  if (atomic_load_explicit(&g_fn, memory_order_acquire) == NULL) return false;
  return (int)level >= atomic_load_explicit(&g_level, memory_order_relaxed);
}

void jgi_log(jg_log_level level, const char *fmt, ...) {
  if (!jgi_log_enabled(level)) return;
  jg_log_fn fn = NULL;
  void *user = NULL;
  int min_level = 0;
  load_config(&fn, &user, &min_level);
  if (fn == NULL || (int)level < min_level) return;
  char msg[LOG_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(msg, sizeof msg, fmt != NULL ? fmt : "", ap);
  va_end(ap);
  if (n < 0) {
    msg[0] = '\0';
  } else if ((size_t)n >= sizeof msg) {
    memcpy(msg + sizeof msg - 4, "...", 4);
  }
  fn(level, msg, user);
}
