/* jgi_transfer.h: how library code reports transfers (transfer.h) and log messages (log.h).
 *
 * Rules for callers:
 * - Record every move of bytes between host and device memory once, where it is made (the
 *   cudaMemcpyAsync or copy kernel), not in the functions above it: jgi_transfer_move classifies
 *   by the two sides, jgi_transfer_record takes an explicit kind.
 * - Record only moves that were enqueued successfully.
 * - Public functions that transfer through other library calls wrap their body in
 *   jgi_call_enter / jgi_call_leave with their public name, so that the events of the whole call
 *   carry that name (the outermost entered name wins).
 * Usable from C and CUDA (.cu) sources. */
#ifndef JAGGED_JGI_TRANSFER_H
#define JAGGED_JGI_TRANSFER_H

#include <stdbool.h>
#include <stdint.h>

#include "internal/jgi_check.h"
#include "jagged/log.h"
#include "jagged/transfer.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define JGI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define JGI_PRINTF(f, a)
#endif

/** Records one event of `kind` and `bytes` with the calling thread's current call site (the
 *  innermost jg_callsite_push or jg_callsite_set) into the thread's active counters and the
 *  process-wide totals. `what` is a static string. Unknown kinds are ignored. */
JGI_HIDDEN void jgi_transfer_record(jg_transfer_kind kind, uint64_t bytes, const char *what);

/** Records a move of `bytes` from memory on the device side (`src_device`: device-only memory)
 *  or the host side (host-accessible memory) to `dst_device`'s side: TO_DEVICE, TO_HOST or
 *  DEVICE_COPY; a host-to-host move records nothing, and so does a move of 0 bytes. `what` as in
 *  jgi_transfer_record. */
JGI_HIDDEN void jgi_transfer_move(bool dst_device, bool src_device, uint64_t bytes,
                                  const char *what);

/** Marks the calling thread as inside the public call `name` (a static string) until the
 *  matching jgi_call_leave. Calls nest; the outermost name is the one jgi_call_name returns. */
JGI_HIDDEN void jgi_call_enter(const char *name);

/** Ends the innermost jgi_call_enter of the calling thread (no-op when none). */
JGI_HIDDEN void jgi_call_leave(void);

/** The outermost entered call's name on the calling thread, or `fallback` outside any. */
JGI_HIDDEN const char *jgi_call_name(const char *fallback);

/** Whether a message of `level` would reach a log callback now (one or two atomic loads): lets a
 *  caller skip work that only builds a message. */
JGI_HIDDEN bool jgi_log_enabled(jg_log_level level);

/** Formats a message (printf-style, at most 1023 bytes; longer ones end in "...") into a stack
 *  buffer and hands it to the installed log callback. A no-op that formats nothing when no
 *  callback is installed or `level` is below its minimum level. */
JGI_HIDDEN void jgi_log(jg_log_level level, const char *fmt, ...) JGI_PRINTF(2, 3);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_JGI_TRANSFER_H */
