/* transfer.h: counting host<->device transfers, with the caller's file and line.
 *
 * Every copy that jagged makes between host and device memory is reported here, at the lowest
 * level (each bulk move, once): jg_copy and its variants, jg_array_to_device / jg_array_to_host,
 * Arrow export and import that stage through the host, the small reads of status words and
 * offsets that some calls make, and the host fallback of the kernel catalog (kernel.h). A counter
 * collects the events made on its thread while it is active; counters nest (an event is recorded
 * in every active counter of the thread, innermost to outermost), so a test can assert that a
 * block of code made no transfer at all (jg_transfer_expect_none) and a profile can group them
 * by call site (jg_transfer_report). The model is cunumpy's count_transfers / TransferCounter
 * (github.com/max-models/cunumpy), per thread and with the call site taken from macros instead
 * of the stack.
 *
 * What one event is: one move of contiguous bytes between two memories, classified by where the
 * source and the destination live: host (pageable, pinned or managed memory: anything host code
 * can touch) or device (device-only memory). Host to device is JG_TRANSFER_TO_DEVICE, device to
 * host JG_TRANSFER_TO_HOST, device to device JG_TRANSFER_DEVICE_COPY (a cudaMemcpyAsync or
 * jagged's strided copy kernel, on one GPU or between two); host to host is not a transfer and
 * is never recorded. A jg_copy that stages through a temporary records each of its moves: a
 * strided device-to-host copy, for example, is one DEVICE_COPY (the kernel packing the source
 * into a dense device temporary) and one TO_HOST. Empty copies and copies of a view onto itself
 * record nothing.
 *
 * Call sites: the public calls that can transfer (jg_copy, jg_copy_async, jg_copy_ex,
 * jg_array_to_device, jg_array_to_host, jg_array_to_host_ex, jg_kernel_call) are wrapped by
 * function-like macros of the same name,
 *     #define jg_copy(...) (jg_callsite_push(__FILE__, __LINE__), \
 *                           jg_callsite_pop(jg_copy(__VA_ARGS__)))
 * so events name the user's line, not the library's. The call site is a per-thread stack: the
 * push makes the caller's line current for the duration of the call, and the pop restores the
 * site that was current before (none, outside any wrapped call), so an event recorded after the
 * call returns never inherits a stale site, and a wrapped call made inside another one (from a
 * registered kernel or an allocator hook) names its own line and then gives the outer one back.
 * Define JG_NO_CALLSITE_MACROS before including jagged headers to turn the wrappers off;
 * `(jg_copy)(...)` also calls the function directly. Without a site an event's `file` is NULL.
 *
 * `what`: the name of the outermost jagged call of the thread that made the move ("jg_copy",
 * "jg_array_to_device" for the copies inside jg_array_to_device, "jg_array_export_arrow_device",
 * ...), or a description of a small internal read ("validate: error words").
 *
 * Not counted: copies made by other libraries or by raw CUDA calls in user code (report those
 * with jg_transfer_record), and copies on threads other than the one whose counter is active
 * (counters are per thread; the process-wide totals count every thread). */
#ifndef JAGGED_TRANSFER_H
#define JAGGED_TRANSFER_H

#include <stddef.h>
#include <stdint.h>

#include "jagged/export.h"
#include "jagged/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What moved. Numbers pinned. */
typedef enum jg_transfer_kind {
  JG_TRANSFER_TO_DEVICE = 0,   /**< host (pageable, pinned or managed) to device memory */
  JG_TRANSFER_TO_HOST = 1,     /**< device memory to host memory */
  JG_TRANSFER_DEVICE_COPY = 2, /**< device to device (same or another GPU) */
  JG_TRANSFER_FALLBACK = 3,    /**< one kernel call that ran on the host for device arguments; its
                                    copies are counted separately as TO_HOST / TO_DEVICE */
  JG_TRANSFER_KIND_COUNT = 4
} jg_transfer_kind;

/** One recorded event. `file` and `what` point to static strings (a __FILE__ literal and the
 *  library's description, e.g. "jg_copy", "fallback of kernel 'fill'"); `file` is NULL when the
 *  call site is unknown (a call made with the macros turned off), `line` then 0. */
typedef struct jg_transfer_event {
  jg_transfer_kind kind;
  uint64_t bytes; /**< bytes moved; 0 for JG_TRANSFER_FALLBACK */
  const char *what;
  const char *file;
  int line;
} jg_transfer_event;

/** A counter, caller-allocated (on the stack is fine). Initialise with jg_transfer_counter_init;
 *  read the public fields after (or, on its thread, during) a scope; never copy or free an
 *  active counter. */
typedef struct jg_transfer_counter {
  uint64_t count[JG_TRANSFER_KIND_COUNT]; /**< events per kind */
  uint64_t bytes[JG_TRANSFER_KIND_COUNT]; /**< bytes per kind */
  jg_transfer_event *events;              /**< caller's array for the event log, may be NULL */
  size_t capacity;                        /**< elements of `events` */
  size_t n_events;                        /**< events stored (at most capacity), in order */
  uint64_t n_dropped;                     /**< events counted but not stored (log full, or no
                                               log); n_events + n_dropped = all events */
  struct jg_transfer_counter *outer_;     /**< private: the enclosing active counter */
  int active_;                            /**< private: 1 between begin and end */
} jg_transfer_counter;

/** Zeroes `c` and gives it an event log of `capacity` elements at `events` (NULL or 0: count
 *  only; the caller keeps ownership of `events`, which must outlive the counter's use). No-op
 *  for a NULL `c`. Must not be called on an active counter. */
JG_API void jg_transfer_counter_init(jg_transfer_counter *c, jg_transfer_event *events,
                                     size_t capacity);

/** Starts counting on the calling thread: `c` (initialised) becomes the innermost active
 *  counter. Errors: JG_EINVAL for NULL `c`; JG_ESTATE if `c` is already active (on any thread).
 *  Counts and the log accumulate across scopes until jg_transfer_counter_init is called again. */
JG_API jg_status jg_transfer_scope_begin(jg_transfer_counter *c, jg_error *err);

/** Stops counting into `c`. Errors: JG_EINVAL for NULL; JG_ESTATE if `c` is not the innermost
 *  active counter of the calling thread (scopes must end in reverse order of their beginning,
 *  on the thread that began them; a counter that is not active fails the same way); nothing
 *  changes then. */
JG_API jg_status jg_transfer_scope_end(jg_transfer_counter *c, jg_error *err);

/** Records one event of `kind` and `bytes` into every active counter of the calling thread and
 *  into the process-wide totals, with the call site `file`:`line` (`file` NULL: the calling
 *  thread's current call site, see jg_callsite_push, or none). For applications that move memory
 *  themselves and want it counted with jagged's. `what` and `file` must be static strings
 *  (`what` may be NULL). Unknown kinds are ignored. Thread-safe; never fails. */
JG_API void jg_transfer_record_at(jg_transfer_kind kind, uint64_t bytes, const char *what,
                                  const char *file, int line);

/** jg_transfer_record_at at the caller's line. */
#define jg_transfer_record(kind, bytes, what) \
  jg_transfer_record_at((kind), (bytes), (what), __FILE__, __LINE__)

/** Writes a report of `c` into `buf` (`size` bytes, always NUL-terminated when size > 0; `buf`
 *  may be NULL when size is 0), lines separated by '\n' with none after the last:
 *  first one line per kind with events, in kind order,
 *      "to_device: 3 events, 24576 bytes"   ("1 event" when there is one),
 *  then one line per (kind, call site, what) group of the event log, by kind and then in order of
 *  first appearance,
 *      "  to_device x2 16384 bytes at main.c:41 (jg_array_to_device)"
 *  ("at unknown call site" without a file; `what` NULL prints as "?"), and, when events were
 *  dropped, "  (N events not in the event log)". The file is printed as recorded (__FILE__, so
 *  possibly a full path). An empty counter (or NULL `c`) gives "no transfers". Returns the length
 *  the full report needs, excluding the NUL (as snprintf), so a caller can size a buffer. When
 *  grouping memory cannot be allocated the group lines are replaced by "  (call sites
 *  unavailable: out of memory)". */
JG_API size_t jg_transfer_report(const jg_transfer_counter *c, char *buf, size_t size);

/** Test helper: JG_OK (`err` untouched) when `c` recorded no event of the kinds in `kinds_mask`
 *  (bit 1 << kind, JG_TRANSFER_MASK; 0 means all kinds; bits of unknown kinds are ignored); else
 *  JG_ESTATE with index = the number of such events and the message "expected no transfers
 *  (<kind names, comma-separated>) but N were recorded:" followed by a newline and a report
 *  limited to those kinds (as jg_transfer_report, truncated to fit the message). JG_EINVAL for
 *  NULL `c`, or a non-zero `kinds_mask` without any known kind's bit. */
JG_API jg_status jg_transfer_expect_none(const jg_transfer_counter *c, unsigned kinds_mask,
                                         jg_error *err);

/** Bit of kind `k` in a kinds mask of jg_transfer_expect_none. */
#define JG_TRANSFER_MASK(k) (1u << (unsigned)(k))

/** Process-wide totals since start (all threads, counted whether or not a counter is active):
 *  fills `count` and `bytes` (each JG_TRANSFER_KIND_COUNT elements; either may be NULL).
 *  Thread-safe (each value is read atomically; the set is not a snapshot). */
JG_API void jg_transfer_totals(uint64_t *count, uint64_t *bytes);

/** Name of a kind: "to_device", "to_host", "device_copy", "fallback"; "unknown" otherwise.
 *  Static storage. */
JG_API const char *jg_transfer_kind_name(jg_transfer_kind kind);

/** Pushes `file`:`line` (a static `file` string, e.g. __FILE__) as the calling thread's current
 *  call site, saving the previous one; the wrapper macros call it before the wrapped function.
 *  The stack keeps 16 levels; deeper pushes are counted but leave the current site unchanged.
 *  Never fails. */
JG_API void jg_callsite_push(const char *file, int line);

/** Pops the calling thread's call site, restoring the one current before the matching
 *  jg_callsite_push (with nothing pushed it clears the site), and returns `status` unchanged, so
 *  that a wrapper macro can pass the wrapped call's result through. */
JG_API jg_status jg_callsite_pop(jg_status status);

/** Replaces the calling thread's current call site with `file`:`line` (NULL `file`: no site)
 *  without pushing; events recorded until the next set, push or pop use it. For code that
 *  reports its own transfers (jg_transfer_record_at with a NULL file). */
JG_API void jg_callsite_set(const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_TRANSFER_H */
