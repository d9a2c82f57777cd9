/* status.h: status codes and the optional error detail struct of jagged.
 *
 * Every fallible function of jagged returns a jg_status (JG_OK == 0) and, where it takes one,
 * fills an optional caller-owned jg_error with a message and the offending index or name. The
 * library never aborts and never prints; all detail travels through these two. */
#ifndef JAGGED_STATUS_H
#define JAGGED_STATUS_H

#include <stdint.h>

#include "jagged/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The one list of statuses: X(NAME, number, message). Numbers are pinned and never reused; new
 *  statuses are appended. */
#define JG_STATUS_MAP(X)                                                                       \
  X(OK, 0, "success")                                                                          \
  X(EINVAL, 1, "invalid argument")                                                             \
  X(ENOMEM, 2, "out of host memory")                                                           \
  X(EDEVMEM, 3, "out of device memory")                                                        \
  X(ENODEV, 4, "no usable CUDA device or driver")                                              \
  X(ENOTSUP, 5, "operation not supported")                                                     \
  X(EOVERFLOW, 6, "integer overflow in a size or offset")                                      \
  X(ESHAPE, 7, "shapes or lengths do not match")                                               \
  X(EDTYPE, 8, "unsupported or mismatched dtype")                                              \
  X(EBACKEND, 9, "arguments live on different backends or devices")                            \
  X(ECUDA, 10, "CUDA runtime or driver error")                                                 \
  X(EINDEX, 11, "index out of range")                                                          \
  X(EREADONLY, 12, "destination is read-only")                                                 \
  X(EIO, 13, "input/output error")                                                             \
  X(ECORRUPT, 14, "corrupt or malformed input")                                                \
  X(EVALUE, 15, "invalid value in data")                                                       \
  X(ESTATE, 16, "object is in the wrong state for this call")                                  \
  X(ENOTFOUND, 17, "not found")                                                                \
  X(EINTERNAL, 18, "internal error in jagged")

/** Status of a jagged call. JG_OK is 0; every other value is an error. */
typedef enum jg_status {
#define JG_STATUS_ENUM_(name, num, msg) JG_##name = num,
  JG_STATUS_MAP(JG_STATUS_ENUM_)
#undef JG_STATUS_ENUM_
} jg_status;

/** Size of the message buffer in jg_error, including the terminating NUL. */
#define JG_ERROR_MESSAGE_SIZE 512

/** Optional detail of a failed call, allocated by the caller (on the stack is fine).
 *  Functions that take `jg_error *err` accept NULL and then report only the status. On failure
 *  they set `status`, a NUL-terminated `message` (truncated to fit), and `index` (the offending
 *  element, row, axis or argument position, or -1 when none applies). On success they leave it
 *  untouched. Not thread-safe: one jg_error per thread. */
typedef struct jg_error {
  jg_status status;
  int64_t index;
  char message[JG_ERROR_MESSAGE_SIZE];
} jg_error;

/** The symbolic name of a status, e.g. "JG_EINVAL"; "JG_UNKNOWN" for a number not in the list.
 *  Static storage; never NULL. */
JG_API const char *jg_status_name(jg_status status);

/** A one-line English description of a status; "unknown status" for a number not in the list.
 *  Static storage; never NULL. */
JG_API const char *jg_status_str(jg_status status);

/** Resets `err` to status JG_OK, index -1 and an empty message. NULL is allowed (no-op). */
JG_API void jg_error_clear(jg_error *err);

/** Fills `err` (may be NULL) with `status`, `index` and a printf-style message; returns `status`
 *  so that a caller can write `return jg_error_set(err, JG_EINVAL, -1, "...")`. Messages longer
 *  than JG_ERROR_MESSAGE_SIZE - 1 bytes are truncated. Exposed so that user callbacks (allocator
 *  hooks, release callbacks) can report errors the same way the library does. */
JG_API jg_status jg_error_set(jg_error *err, jg_status status, int64_t index, const char *fmt,
                              ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_STATUS_H */
