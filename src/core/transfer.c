/* transfer.c: transfer counters, the per-thread call-site stack and the process-wide totals
 * (transfer.h).
 *
 * State per thread (C11 _Thread_local): the innermost active counter (each counter links to the
 * one it was begun inside), the call-site stack of the wrapper macros, and the name of the
 * outermost public call in progress (jgi_call_enter). Nothing here takes a lock: counters belong
 * to one thread and the totals are relaxed atomics, so recording with no active counter costs
 * two atomic additions and a thread-local load. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_transfer.h"

/* ------------------------------------------------------------------------------------------ */
/* Per-thread state                                                                            */
/* ------------------------------------------------------------------------------------------ */

enum { SITE_STACK = 16 };

typedef struct site {
  const char *file;
  int line;
} site;

static _Thread_local jg_transfer_counter *tl_innermost;
static _Thread_local site tl_site;              /* current call site */
static _Thread_local site tl_saved[SITE_STACK]; /* sites saved by pushes */
static _Thread_local int tl_depth;              /* pushes not yet popped */
static _Thread_local const char *tl_call;       /* outermost jgi_call_enter name */
static _Thread_local int tl_call_depth;

static atomic_ullong g_count[JG_TRANSFER_KIND_COUNT];
static atomic_ullong g_bytes[JG_TRANSFER_KIND_COUNT];

void jg_callsite_push(const char *file, int line) {
  if (tl_depth < SITE_STACK) {
    tl_saved[tl_depth] = tl_site;
    tl_site.file = file;
    tl_site.line = file != NULL ? line : 0;
  }
  if (tl_depth < INT32_MAX) tl_depth++;
}

jg_status jg_callsite_pop(jg_status status) {
  if (tl_depth == 0) {
    tl_site.file = NULL;
    tl_site.line = 0;
    return status;
  }
  tl_depth--;
  if (tl_depth < SITE_STACK) tl_site = tl_saved[tl_depth];
  return status;
}

void jg_callsite_set(const char *file, int line) {
  tl_site.file = file;
  tl_site.line = file != NULL ? line : 0;
}

void jgi_call_enter(const char *name) {
  if (tl_call_depth == 0) tl_call = name;
  if (tl_call_depth < INT32_MAX) tl_call_depth++;
}

void jgi_call_leave(void) {
  if (tl_call_depth == 0) return;
  if (--tl_call_depth == 0) tl_call = NULL;
}

const char *jgi_call_name(const char *fallback) {
  return tl_call != NULL ? tl_call : fallback;
}

/* ------------------------------------------------------------------------------------------ */
/* Recording                                                                                   */
/* ------------------------------------------------------------------------------------------ */

void jg_transfer_record_at(jg_transfer_kind kind, uint64_t bytes, const char *what,
                           const char *file, int line) {
  if ((int)kind < 0 || (int)kind >= JG_TRANSFER_KIND_COUNT) return;
  atomic_fetch_add_explicit(&g_count[kind], 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&g_bytes[kind], bytes, memory_order_relaxed);
  jg_transfer_counter *c = tl_innermost;
  if (c == NULL) return;
  if (file == NULL) {
    file = tl_site.file;
    line = tl_site.line;
  }
  for (; c != NULL; c = c->outer_) {
    c->count[kind] += 1;
    c->bytes[kind] += bytes;
    if (c->events != NULL && c->n_events < c->capacity) {
      jg_transfer_event *e = &c->events[c->n_events++];
      e->kind = kind;
      e->bytes = bytes;
      e->what = what;
      e->file = file;
      e->line = file != NULL ? line : 0;
    } else {
      c->n_dropped += 1;
    }
  }
}

void jgi_transfer_record(jg_transfer_kind kind, uint64_t bytes, const char *what) {
  jg_transfer_record_at(kind, bytes, what, NULL, 0);
  if (jgi_log_enabled(JG_LOG_DEBUG)) {
    jgi_log(JG_LOG_DEBUG, "transfer %s, %llu bytes: %s", jg_transfer_kind_name(kind),
            (unsigned long long)bytes, what != NULL ? what : "");
  }
}

void jgi_transfer_move(bool dst_device, bool src_device, uint64_t bytes, const char *what) {
  if (bytes == 0 || (!dst_device && !src_device)) return;
  const jg_transfer_kind kind = !src_device   ? JG_TRANSFER_TO_DEVICE
                                : !dst_device ? JG_TRANSFER_TO_HOST
                                              : JG_TRANSFER_DEVICE_COPY;
  jgi_transfer_record(kind, bytes, what);
}

void jg_transfer_totals(uint64_t *count, uint64_t *bytes) {
  for (int k = 0; k < JG_TRANSFER_KIND_COUNT; ++k) {
    if (count != NULL) count[k] = atomic_load_explicit(&g_count[k], memory_order_relaxed);
    if (bytes != NULL) bytes[k] = atomic_load_explicit(&g_bytes[k], memory_order_relaxed);
  }
}

const char *jg_transfer_kind_name(jg_transfer_kind kind) {
  switch (kind) {
    case JG_TRANSFER_TO_DEVICE:
      return "to_device";
    case JG_TRANSFER_TO_HOST:
      return "to_host";
    case JG_TRANSFER_DEVICE_COPY:
      return "device_copy";
    case JG_TRANSFER_FALLBACK:
      return "fallback";
    default:
      return "unknown";
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Counters and scopes                                                                         */
/* ------------------------------------------------------------------------------------------ */

void jg_transfer_counter_init(jg_transfer_counter *c, jg_transfer_event *events, size_t capacity) {
  if (c == NULL) return;
  memset(c, 0, sizeof *c);
  c->events = events;
  c->capacity = events != NULL ? capacity : 0;
}

jg_status jg_transfer_scope_begin(jg_transfer_counter *c, jg_error *err) {
  JG_RETURN_IF(c == NULL, JG_EINVAL, err, "jg_transfer_scope_begin: the counter is NULL");
  JG_RETURN_IF(c->active_, JG_ESTATE, err,
               "jg_transfer_scope_begin: the counter is already active (end its scope first)");
  c->outer_ = tl_innermost;
  c->active_ = 1;
  tl_innermost = c;
  return JG_OK;
}

jg_status jg_transfer_scope_end(jg_transfer_counter *c, jg_error *err) {
  JG_RETURN_IF(c == NULL, JG_EINVAL, err, "jg_transfer_scope_end: the counter is NULL");
  JG_RETURN_IF(!c->active_, JG_ESTATE, err, "jg_transfer_scope_end: the counter is not active");
  JG_RETURN_IF(tl_innermost != c, JG_ESTATE, err,
               "jg_transfer_scope_end: the counter is not the innermost active counter of this "
               "thread (end scopes in reverse order, on the thread that began them)");
  tl_innermost = c->outer_;
  c->outer_ = NULL;
  c->active_ = 0;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Report                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* snprintf-style appending: `len` counts every byte the full text needs; `buf` receives what
 * fits (NUL-terminated whenever size > 0). */
typedef struct out {
  char *buf;
  size_t size;
  size_t len;
} out;

static void out_printf(out *o, const char *fmt, ...) JGI_PRINTF(2, 3);
static void out_printf(out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *dst = NULL;
  size_t room = 0;
  if (o->buf != NULL && o->len < o->size) {
    dst = o->buf + o->len;
    room = o->size - o->len;
  }
  const int n = vsnprintf(dst, room, fmt, ap);
  va_end(ap);
  if (n > 0) o->len += (size_t)n;
}

static bool str_eq(const char *a, const char *b) {
  if (a == b) return true;
  if (a == NULL || b == NULL) return false;
  return strcmp(a, b) == 0;
}

/* One (kind, file, line, what) group of the event log. */
typedef struct group {
  const jg_transfer_event *first;
  uint64_t count;
  uint64_t bytes;
} group;

static bool same_group(const jg_transfer_event *a, const jg_transfer_event *b) {
  return a->kind == b->kind && a->line == b->line && str_eq(a->file, b->file) &&
         str_eq(a->what, b->what);
}

static bool in_mask(unsigned mask, int kind) {
  return mask == 0 || (mask >> kind & 1u) != 0;
}

static size_t report_impl(const jg_transfer_counter *c, unsigned mask, char *buf, size_t size) {
  out o = {buf, size, 0};
  if (buf != NULL && size > 0) buf[0] = '\0';
  bool any = false;
  for (int k = 0; c != NULL && k < JG_TRANSFER_KIND_COUNT; ++k) {
    if (!in_mask(mask, k) || c->count[k] == 0) continue;
    out_printf(&o, "%s%s: %llu event%s, %llu bytes", any ? "\n" : "",
               jg_transfer_kind_name((jg_transfer_kind)k), (unsigned long long)c->count[k],
               c->count[k] == 1 ? "" : "s", (unsigned long long)c->bytes[k]);
    any = true;
  }
  if (!any) {
    out_printf(&o, "no transfers");
    return o.len;
  }
  const size_t n = c->events != NULL ? (c->n_events < c->capacity ? c->n_events : c->capacity) : 0;
  if (n > 0) {
    group *g = malloc(n * sizeof *g);
    if (g == NULL) {
      out_printf(&o, "\n  (call sites unavailable: out of memory)");
    } else {
      size_t ng = 0;
      for (size_t i = 0; i < n; ++i) {
        const jg_transfer_event *e = &c->events[i];
        if (!in_mask(mask, (int)e->kind)) continue;
        size_t j = 0;
        while (j < ng && !same_group(g[j].first, e)) ++j;
        if (j == ng) {
          g[ng].first = e;
          g[ng].count = 0;
          g[ng].bytes = 0;
          ++ng;
        }
        g[j].count += 1;
        g[j].bytes += e->bytes;
      }
      for (int k = 0; k < JG_TRANSFER_KIND_COUNT; ++k) {
        for (size_t j = 0; j < ng; ++j) {
          const jg_transfer_event *e = g[j].first;
          if ((int)e->kind != k) continue;
          out_printf(&o, "\n  %s x%llu %llu bytes at ", jg_transfer_kind_name(e->kind),
                     (unsigned long long)g[j].count, (unsigned long long)g[j].bytes);
          if (e->file != NULL) {
            out_printf(&o, "%s:%d", e->file, e->line);
          } else {
            out_printf(&o, "unknown call site");
          }
          out_printf(&o, " (%s)", e->what != NULL ? e->what : "?");
        }
      }
      free(g);
    }
  }
  if (c->n_dropped > 0) {
    out_printf(&o, "\n  (%llu event%s not in the event log)", (unsigned long long)c->n_dropped,
               c->n_dropped == 1 ? "" : "s");
  }
  return o.len;
}

size_t jg_transfer_report(const jg_transfer_counter *c, char *buf, size_t size) {
  return report_impl(c, 0, buf, size);
}

jg_status jg_transfer_expect_none(const jg_transfer_counter *c, unsigned kinds_mask,
                                  jg_error *err) {
  JG_RETURN_IF(c == NULL, JG_EINVAL, err, "jg_transfer_expect_none: the counter is NULL");
  const unsigned all = (1u << JG_TRANSFER_KIND_COUNT) - 1u;
  const unsigned mask = kinds_mask == 0 ? all : kinds_mask & all;
  JG_RETURN_IF(mask == 0, JG_EINVAL, err,
               "jg_transfer_expect_none: kinds_mask 0x%x names no transfer kind (bits 0 to %d)",
               kinds_mask, JG_TRANSFER_KIND_COUNT - 1);
  uint64_t n = 0;
  for (int k = 0; k < JG_TRANSFER_KIND_COUNT; ++k) {
    if (mask >> k & 1u) n += c->count[k];
  }
  if (n == 0) return JG_OK;
  char kinds[64];
  out ko = {kinds, sizeof kinds, 0};
  kinds[0] = '\0';
  for (int k = 0; k < JG_TRANSFER_KIND_COUNT; ++k) {
    if (mask >> k & 1u) {
      out_printf(&ko, "%s%s", ko.len > 0 ? ", " : "", jg_transfer_kind_name((jg_transfer_kind)k));
    }
  }
  char report[JG_ERROR_MESSAGE_SIZE];
  (void)report_impl(c, mask, report, sizeof report);
  return jg_error_set(err, JG_ESTATE, (int64_t)n,
                      "expected no transfers (%s) but %llu %s recorded:\n%s", kinds,
                      (unsigned long long)n, n == 1 ? "was" : "were", report);
}
