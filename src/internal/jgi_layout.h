/* jgi_layout.h: validation of caller-supplied layouts (internal).
 *
 * jg_layout and jg_view are public structs that callers may fill or edit by hand, so the
 * invariants documented on jg_layout cannot be assumed. Every public function that takes a
 * layout, or a view built from one, checks it on entry with one of the functions below before
 * doing any arithmetic on it; the functions that cannot fail use jgi_layout_valid and return
 * their documented "NULL" value for an invalid layout. Implemented in src/core/layout.c. */
#ifndef JAGGED_JGI_LAYOUT_H
#define JAGGED_JGI_LAYOUT_H

#include <stdbool.h>

#include "internal/jgi_check.h"
#include "jagged/layout.h"
#include "jagged/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/** JG_OK when `l` satisfies the invariants every layout operation relies on: non-NULL,
 *  0 <= ndim <= JG_MAX_NDIM, itemsize > 0, every extent >= 0, the volume fits in int64, and (for
 *  a volume > 0) the smallest and largest element offsets, slice_offset included, fit in int64.
 *  The strides of a zero-volume layout are not looked at (they address nothing; the library's
 *  own zero-volume layouts have zero strides). Never overflows, whatever the input.
 *  Messages read "<op>: <name> ..." (e.g. "jg_copy: src has extent -3 at axis 1: extents must
 *  be non-negative").
 *  Errors: JG_EINVAL (NULL; ndim out of range; itemsize <= 0; a negative extent: "extents must
 *  be non-negative", index = axis), JG_EOVERFLOW (the volume, or an element offset, overflows
 *  int64; index = the axis where the offset overflowed, -1 for the volume). */
JGI_HIDDEN jg_status jgi_layout_check(const jg_layout *l, const char *op, const char *name,
                                      jg_error *err);

/** jgi_layout_check for the layout of a view, whose elements are addressed in bytes: also
 *  requires (for a volume > 0) that min_offset * itemsize, (max_offset + 1) * itemsize and the
 *  byte span (max_offset - min_offset + 1) * itemsize fit in int64, so that every byte offset of
 *  an element, from the base pointer or from any other element, is representable.
 *  Errors: as jgi_layout_check, and JG_EOVERFLOW "byte offsets overflow int64". */
JGI_HIDDEN jg_status jgi_layout_check_bytes(const jg_layout *l, const char *op, const char *name,
                                            jg_error *err);

/** Checks a caller-supplied view before an array keeps it: its layout passes
 *  jgi_layout_check_bytes, and when the view has elements and a `buffer`, every byte of every
 *  element lies inside the buffer's [data, data + size). Views without a buffer
 *  (jg_view_from_pointer) get the layout check only. Implemented in src/core/view.c.
 *  Messages read "<op>: <name> ...", e.g. "jg_array_numeric: data reaches bytes 0..48 from
 *  its buffer's start, outside the buffer's 24 bytes".
 *  Errors: as jgi_layout_check_bytes, and JG_ESHAPE (elements outside the buffer). */
JGI_HIDDEN jg_status jgi_view_check(const jg_view *v, const char *op, const char *name,
                                    jg_error *err);

/** True when jgi_layout_check(l, ...) would return JG_OK; no message. */
JGI_HIDDEN bool jgi_layout_valid(const jg_layout *l);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_JGI_LAYOUT_H */
