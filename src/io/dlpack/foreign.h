/* foreign.h: shared by dlpack.c and cai.c (internal): views of memory described by a foreign
 * protocol, where the address of element (0, ..., 0) is known and strides may be negative. */
#ifndef JAGGED_IO_DLPACK_FOREIGN_H
#define JAGGED_IO_DLPACK_FOREIGN_H

#include "internal/jgi_check.h"
#include "jagged/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where the elements of `layout` (slice_offset must be 0) lie when element (0, ..., 0) is at
 *  address `first`: `*lowest` receives the lowest address an element occupies, `*bytes` the
 *  span from there to one past the last byte of the highest element, and `*min_offset` the
 *  (non-positive) element offset of the lowest element from element (0, ..., 0). Volume 0 gives
 *  (first, 0, 0). All arithmetic is checked.
 *  Errors: JG_EOVERFLOW (offsets or span overflow int64), JG_EINVAL (elements would lie below
 *  address 0 or past the end of the address space). */
JGI_HIDDEN jg_status jgi_foreign_span(const jg_layout *layout, uintptr_t first, uintptr_t *lowest,
                                      size_t *bytes, jg_offset *min_offset, jg_error *err);

/** The address of element (0, ..., 0) of `view`: base + slice_offset * itemsize, computed with
 *  overflow checks (slice_offset may be negative). Errors: JG_EOVERFLOW. */
JGI_HIDDEN jg_status jgi_foreign_first(const jg_view *view, uintptr_t *first, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_IO_DLPACK_FOREIGN_H */
