/* arrow_internal.h: what the files of src/io/arrow/ share (internal): host bitmap helpers
 * (arrow_bits.c, twins of the kernels in arrow_cuda.h) and host conversions of jagged nodes that
 * Arrow cannot carry as they are (arrow_take.c). */
#ifndef JAGGED_IO_ARROW_ARROW_INTERNAL_H
#define JAGGED_IO_ARROW_ARROW_INTERNAL_H

#include <stdbool.h>

#include "internal/jgi_array.h"
#include "io/arrow/arrow_cuda.h"
#include "jagged/arrow.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- bitmaps on the host (arrow_bits.c) ---------------------------------------------------- */

/** Host twin of jgi_arrow_bits_from_values_cuda: writes ceil(n / 8) bytes of Arrow bitmap to
 *  `out` and returns the number of bits set. elem_size 1, 4 or 8 (anything else reads as 8);
 *  `stride` in elements. */
JGI_HIDDEN int64_t jgi_arrow_bits_from_values_host(const void *first, int64_t stride, int elem_size,
                                                   int mode, int64_t n, uint8_t *out);

/** Host twin of jgi_arrow_bits_realign_cuda; returns the number of bits set. */
JGI_HIDDEN int64_t jgi_arrow_bits_realign_host(const uint8_t *first, int64_t byte_stride,
                                               int64_t bit_offset, bool lsb, bool invert, int64_t n,
                                               uint8_t *out);

/** Host twin of jgi_arrow_bits_unpack_cuda. */
JGI_HIDDEN void jgi_arrow_bits_unpack_host(const uint8_t *bits, int64_t bit_offset, int64_t n,
                                           uint8_t *out);

/** Number of bits set among bits [0, n) of an Arrow bitmap. */
JGI_HIDDEN int64_t jgi_arrow_bits_count_host(const uint8_t *bits, int64_t n);

/* ---- host conversions (arrow_take.c); every input and output is a cpu array ---------------- */

/** Entries idx[0..n) of `a` as a new array of length n (Awkward's "carry"): idx[i] in
 *  [0, len(a)) picks entry idx[i]; idx[i] < 0 asks for a placeholder (zeros, empty lists,
 *  None), used under null slots. Numeric data is copied; list nodes become list (starts/stops)
 *  nodes sharing their content; option nodes become indexed-option nodes sharing their content;
 *  regular and record nodes recurse. Errors: JG_EVALUE (an index past the node, e.g. from an
 *  invalid indexed-option), JG_EBACKEND (not a cpu array), JG_ENOMEM, JG_EOVERFLOW. */
JGI_HIDDEN jg_status jgi_arrow_take(const jg_array *a, const int64_t *idx, jg_len n, jg_array **out,
                                    jg_error *err);

/** Entries [start, start + len) of a LIST node as a LIST_OFFSET node: offsets copied from the
 *  starts and stops when the lists are contiguous (starts[i + 1] == stops[i]), sharing the
 *  content; else the content is gathered (jgi_arrow_take) and offsets start at 0. The offsets
 *  keep the starts' dtype when the values fit. Errors: JG_EVALUE (stops < starts, or a list past
 *  the content), JG_ENOMEM, JG_EOVERFLOW. */
JGI_HIDDEN jg_status jgi_arrow_convert_list(const jg_array *a, jg_len start, jg_len len,
                                            jg_array **out, jg_error *err);

/** Entries [start, start + len) of an INDEXED_OPTION node as a BIT_MASKED node (lsb order,
 *  valid_when true, bit offset 0) over the gathered content. Errors: as jgi_arrow_take. */
JGI_HIDDEN jg_status jgi_arrow_convert_indexed(const jg_array *a, jg_len start, jg_len len,
                                               jg_array **out, jg_error *err);

/** The same array without LIST or INDEXED_OPTION nodes anywhere (each converted as above; other
 *  nodes rebuilt around converted children, or shared when nothing below them changed).
 *  Errors: as the conversions. */
JGI_HIDDEN jg_status jgi_arrow_normalize(const jg_array *a, jg_array **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_IO_ARROW_ARROW_INTERNAL_H */
