/* jgi_check.h: one-line checks used throughout the library (internal). */
#ifndef JAGGED_JGI_CHECK_H
#define JAGGED_JGI_CHECK_H

#include "jagged/status.h"

#if defined(__GNUC__) || defined(__clang__)
#define JGI_HIDDEN __attribute__((visibility("hidden")))
#define JGI_LIKELY(x) __builtin_expect(!!(x), 1)
#define JGI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define JGI_HIDDEN
#define JGI_LIKELY(x) (x)
#define JGI_UNLIKELY(x) (x)
#endif

/** Returns `status` with a formatted message in `err` when `cond` holds. index is -1. */
#define JG_RETURN_IF(cond, status, err, ...)                                                   \
  do {                                                                                         \
    if (JGI_UNLIKELY(cond)) return jg_error_set((err), (status), -1, __VA_ARGS__);             \
  } while (0)

/** As JG_RETURN_IF, with the offending index recorded in err->index. */
#define JG_RETURN_IF_AT(cond, status, err, index, ...)                                         \
  do {                                                                                         \
    if (JGI_UNLIKELY(cond)) return jg_error_set((err), (status), (int64_t)(index), __VA_ARGS__); \
  } while (0)

/** Returns the status of `expr` when it is not JG_OK (the callee filled err). */
#define JG_RETURN_NOT_OK(expr)                                                                 \
  do {                                                                                         \
    jg_status jgi_st_ = (expr);                                                                \
    if (JGI_UNLIKELY(jgi_st_ != JG_OK)) return jgi_st_;                                        \
  } while (0)

/** Internal invariant; compiled out unless JG_DEBUG. Never aborts in release builds. */
#if defined(JG_DEBUG)
#include <assert.h>
#define JG_DCHECK(cond) assert(cond)
#else
#define JG_DCHECK(cond) ((void)0)
#endif

/* Overflow-checked int64 arithmetic: return true on overflow. */
#define jgi_add_overflow(a, b, out) __builtin_add_overflow((a), (b), (out))
#define jgi_sub_overflow(a, b, out) __builtin_sub_overflow((a), (b), (out))
#define jgi_mul_overflow(a, b, out) __builtin_mul_overflow((a), (b), (out))


/** Prepends "fn: " to err's message when `st` is an error (after a callee that does not know the
 *  public name of the call); returns `st`. No-op for JG_OK or a NULL err; a message that would
 *  not fit is cut at the end. */
JGI_HIDDEN jg_status jgi_error_prefix(jg_status st, const char *fn, jg_error *err);

/** As jgi_error_prefix, unless the message already starts with `fn` (a callee that knew it). */
JGI_HIDDEN jg_status jgi_error_prefix_once(jg_status st, const char *fn, jg_error *err);

#endif /* JAGGED_JGI_CHECK_H */
