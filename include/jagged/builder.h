/* builder.h: build jagged arrays on the host one value at a time, discovering the type as it
 * goes (the role of Awkward Array's ArrayBuilder), with typed calls that append whole runs of
 * numbers at once (the role of Awkward's LayoutBuilder).
 *
 * A jg_builder holds a tree of growable host buffers. Calls append to the innermost open list,
 * record or tuple (or to the top level when none is open); jg_builder_snapshot turns what was
 * appended so far into an immutable jg_array (array.h) and may be called any number of times.
 *
 *   jg_builder *b;  jg_builder_create(&b, err);
 *   jg_builder_begin_list(b, err);                          // [
 *   jg_builder_float64(b, 1.1, err);                        //   1.1,
 *   jg_builder_float64(b, 2.2, err);                        //   2.2
 *   jg_builder_end_list(b, err);                            // ],
 *   jg_builder_begin_list(b, err); jg_builder_end_list(b, err);   // [],
 *   jg_builder_list_float64(b, (double[]){3.3}, 1, err);   // [3.3]
 *   jg_array *a;  jg_builder_snapshot(b, &a, err);         // 3 * var * float64
 *   jg_builder_destroy(b);  ...  jg_array_release(a);
 *
 * Type inference (Awkward's ArrayBuilder rules, scikit-hep/awkward src/awkward/highlevel.py ArrayBuilder; the
 * "unknown", "?" and "var" notation is Awkward's type notation):
 *   - A position that has received nothing has type unknown: a builder with nothing in it
 *     snapshots to an empty array ("0 * unknown"), and lists that never received an element
 *     have content of type unknown (an EMPTY node, "var * unknown").
 *   - The first value fixes the type: bool, int64, float64, list, record or tuple.
 *   - int64 then float64, or float64 then int64, gives float64 (the int64 values already
 *     appended are converted in place; values beyond 2^53 may round, as in Awkward).
 *   - A null anywhere makes that position an option ("?int64", "option[var * float64]"), kept
 *     as an INDEXED_OPTION node with an int64 index (-1 for None, else the position of the
 *     value in the content), as Awkward's ArrayBuilder does. Nulls alone give "?unknown"
 *     (an indexed-option node over an EMPTY node).
 *   - Records: the fields of a record position are the union of the fields named in all its
 *     records, in order of first appearance. A field missing from some records is an option
 *     holding None in those records (also in the records before the field first appeared),
 *     as in Awkward. Names are compared byte for byte. Records have no name parameter.
 *   - Tuples have a fixed number of slots set by the first jg_builder_begin_tuple at that
 *     position; a slot not filled in some tuple holds None there (an option).
 *   - Anything else (a bool where int64s are, a list where numbers are, a record where a tuple
 *     is, tuples of different sizes) would need a union type in Awkward: jagged has none, so the
 *     call fails with JG_EDTYPE and changes nothing.
 *
 * Snapshots: numbers become NUMERIC nodes (dtype bool, int64 or float64), lists LIST_OFFSET
 * nodes with int64 offsets starting at 0, records and tuples RECORD nodes, options
 * INDEXED_OPTION nodes with int64 indexes. Every buffer of a snapshot is a new copy (from the
 * builder's memory resource), so a snapshot never changes when the builder goes on, and it
 * outlives the builder.
 *
 * Errors never corrupt a builder: every call either completes, or fails and leaves the builder
 * exactly as it was (same values, same types, same open containers), so that the caller may
 * fix the cause and go on. That includes JG_ENOMEM: each call reserves all the memory it needs
 * before it changes anything. Buffers grow geometrically (by x1.5, from
 * jg_builder_options.initial_capacity elements), so n appends cost amortised O(1) each.
 *
 * Memory: every byte the builder allocates, bookkeeping included, and every buffer of its
 * snapshots comes from one host-accessible memory resource (jg_memory_resource_host() unless
 * jg_builder_create_ex is given another).
 *
 * Thread-safety: a builder is not thread-safe: calls on one builder, jg_builder_snapshot
 * included, must not run concurrently (use one builder per thread, or a lock). Distinct
 * builders are independent. Snapshots are ordinary jg_arrays and may be shared across threads.
 *
 * Every function that takes `jg_error *err` accepts NULL there, and fills it on failure with
 * the status, a message and, where one applies, an index (given with each error below); every
 * function taking a builder fails with JG_EINVAL when it is NULL. */
#ifndef JAGGED_BUILDER_H
#define JAGGED_BUILDER_H

#include "jagged/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most containers (lists, records, tuples) that may be open at once. A begin call beyond it
 *  fails with JG_ENOTSUP. It bounds the depth of the trees a builder makes. */
#define JG_BUILDER_MAX_DEPTH 256

/** Default of jg_builder_options.initial_capacity (Awkward's ArrayBuilder uses the same). */
#define JG_BUILDER_DEFAULT_INITIAL_CAPACITY 1024

/** An incremental array builder (opaque). Made by jg_builder_create, freed by
 *  jg_builder_destroy. */
typedef struct jg_builder jg_builder;

/** Options of jg_builder_create_ex. Zero-initialise, then set what you need. */
typedef struct jg_builder_options {
  uint32_t version;          /**< sizeof(jg_builder_options), or 0 for the current size */
  jg_memory_resource *mr;    /**< where every allocation of the builder and every buffer of its
                                  snapshots comes from; must be host-accessible (host, pinned,
                                  managed, or a user resource saying so) and must outlive the
                                  builder and its snapshots. NULL: jg_memory_resource_host() */
  jg_len initial_capacity;   /**< elements a buffer gets when it is first allocated (it then
                                  grows by x1.5); 0: JG_BUILDER_DEFAULT_INITIAL_CAPACITY */
  uint8_t reserved[32];      /**< must be zero */
} jg_builder_options;

/* ------------------------------------------------------------------------------------------ */
/* Lifetime                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/** Creates an empty builder with default options: `*out` receives it (NULL on error). It
 *  snapshots to an empty array of type "0 * unknown" until something is appended.
 *  Errors: JG_EINVAL (NULL out), JG_ENOMEM. */
JG_API jg_status jg_builder_create(jg_builder **out, jg_error *err);

/** As jg_builder_create, with `options` (NULL: defaults).
 *  Errors: JG_EINVAL (NULL out; options->version neither 0 nor sizeof(jg_builder_options); a
 *  resource that is not host-accessible or lacks hooks; a negative initial_capacity; non-zero
 *  reserved bytes), JG_ENOMEM, or whatever the resource's allocate hook returns. */
JG_API jg_status jg_builder_create_ex(const jg_builder_options *options, jg_builder **out,
                                      jg_error *err);

/** Frees a builder and all its buffers, whatever its state (open containers are dropped).
 *  Snapshots taken from it are unaffected. NULL is a no-op. */
JG_API void jg_builder_destroy(jg_builder *b);

/* ------------------------------------------------------------------------------------------ */
/* Values                                                                                      */
/*                                                                                             */
/* Each appends one entry to the current position: the innermost open list, the selected      */
/* field of the innermost open record (jg_builder_field) or slot of the innermost open tuple   */
/* (jg_builder_index), or the top level when nothing is open. Common errors (nothing is        */
/* changed on any of them):                                                                    */
/*   JG_EINVAL  NULL builder.                                                                  */
/*   JG_ESTATE  the innermost open container is a record with no field selected (or a tuple   */
/*              with no slot selected), or the selected field already has its value; index =   */
/*              the record's position in its record node (0 for the first record there).     */
/*   JG_EDTYPE  the position holds a type the value cannot join (see the type rules above);    */
/*              the message names both types.                                                  */
/*   JG_ENOMEM  (or the resource's error) when a buffer cannot grow.                           */
/*   JG_EOVERFLOW when a length would pass INT64_MAX.                                          */
/* ------------------------------------------------------------------------------------------ */

/** Appends a null (None): the position becomes an option (see the type rules). */
JG_API jg_status jg_builder_null(jg_builder *b, jg_error *err);
/** Appends a boolean (dtype bool). */
JG_API jg_status jg_builder_bool(jg_builder *b, bool value, jg_error *err);
/** Appends an integer (dtype int64, or float64 where float64s already are). */
JG_API jg_status jg_builder_int64(jg_builder *b, int64_t value, jg_error *err);
/** Appends a floating-point number (dtype float64; int64s already at the position are
 *  converted to float64). */
JG_API jg_status jg_builder_float64(jg_builder *b, double value, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Lists                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/** Opens a variable-length list at the current position; what is appended until the matching
 *  jg_builder_end_list goes into it. Errors: as for values, and JG_ENOTSUP when
 *  JG_BUILDER_MAX_DEPTH containers are already open. */
JG_API jg_status jg_builder_begin_list(jg_builder *b, jg_error *err);

/** Closes the innermost open container, which must be a list.
 *  Errors: JG_EINVAL (NULL b), JG_ESTATE (no container is open, or the innermost is a record
 *  or tuple: the message says which; index = that record's position). Never fails otherwise
 *  (begin_list reserved the memory). */
JG_API jg_status jg_builder_end_list(jg_builder *b, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Records and tuples                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** Opens a record at the current position. Select each field with jg_builder_field, append
 *  its value (one value, list, record or tuple), then close it with jg_builder_end_record.
 *  Errors: as jg_builder_begin_list. */
JG_API jg_status jg_builder_begin_record(jg_builder *b, jg_error *err);

/** Selects field `name` (a non-empty NUL-terminated string, copied) of the innermost open
 *  record: the next value goes there. A name not seen before at this record position adds a
 *  field, which holds None in the records already completed there.
 *  Errors: JG_EINVAL (NULL b or name, empty name), JG_ESTATE (the innermost open container is
 *  not a record, or none is open; the previously selected field has not received its value;
 *  `name` already has a value in this record; index = the record's position), JG_ENOMEM. */
JG_API jg_status jg_builder_field(jg_builder *b, const char *name, jg_error *err);

/** Closes the innermost open container, which must be a record. Fields that received no value
 *  in it get None (making them options).
 *  Errors: JG_EINVAL (NULL b), JG_ESTATE (no container open; the innermost is a list or tuple;
 *  a field was selected but given no value; index = the record's position), JG_ENOMEM (a field
 *  had to become an option and could not; the record stays open and unchanged). */
JG_API jg_status jg_builder_end_record(jg_builder *b, jg_error *err);

/** Opens a tuple of `nslots` >= 0 slots at the current position: select a slot with
 *  jg_builder_index, append its value, and close with jg_builder_end_tuple. Tuples snapshot to
 *  RECORD nodes without names (fields "0", "1", ...).
 *  Errors: as jg_builder_begin_list; JG_EINVAL (nslots < 0); JG_EDTYPE (the position holds
 *  tuples of another size, or records). */
JG_API jg_status jg_builder_begin_tuple(jg_builder *b, int nslots, jg_error *err);

/** Selects slot `i` of the innermost open tuple: the next value goes there.
 *  Errors: JG_EINVAL (NULL b), JG_ESTATE (the innermost open container is not a tuple; the
 *  previously selected slot has not received its value; slot i already has a value; index =
 *  the tuple's position), JG_EINDEX (i outside [0, nslots); index = i). */
JG_API jg_status jg_builder_index(jg_builder *b, int i, jg_error *err);

/** Closes the innermost open container, which must be a tuple; unfilled slots get None.
 *  Errors: as jg_builder_end_record, for tuples. */
JG_API jg_status jg_builder_end_tuple(jg_builder *b, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Typed runs (LayoutBuilder's role): many values in one call, one reservation and one copy    */
/* ------------------------------------------------------------------------------------------ */

/** Appends `n` >= 0 values from the host array `values` to the current position, exactly as n
 *  calls of jg_builder_int64 would (n = 0 changes nothing). At a record field or tuple slot,
 *  which takes one value, n must be at most 1. `values` may be NULL when n is 0.
 *  Errors: as for values; JG_EINVAL (negative n; NULL values with n > 0); JG_ESTATE (n > 1 at
 *  a record field or tuple slot). Atomic: on error nothing was appended. */
JG_API jg_status jg_builder_extend_int64(jg_builder *b, const int64_t *values, jg_len n,
                                         jg_error *err);

/** As jg_builder_extend_int64 for float64 values (jg_builder_float64 n times). */
JG_API jg_status jg_builder_extend_float64(jg_builder *b, const double *values, jg_len n,
                                           jg_error *err);

/** Appends one list holding the `n` >= 0 values of `values` at the current position, exactly
 *  as begin_list, n calls of jg_builder_int64 and end_list would (so n = 0 appends an empty
 *  list and leaves the content's type as it was). `values` may be NULL when n is 0.
 *  Errors: as for values; JG_EINVAL (negative n; NULL values with n > 0). Atomic. */
JG_API jg_status jg_builder_list_int64(jg_builder *b, const int64_t *values, jg_len n,
                                       jg_error *err);

/** As jg_builder_list_int64 for float64 values. */
JG_API jg_status jg_builder_list_float64(jg_builder *b, const double *values, jg_len n,
                                         jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* State and snapshots                                                                         */
/* ------------------------------------------------------------------------------------------ */

/** Number of complete entries at the top level (an open top-level list or record is not
 *  counted until it is closed); 0 for NULL. */
JG_API jg_len jg_builder_length(const jg_builder *b);

/** Number of containers open (0 at the top level, up to JG_BUILDER_MAX_DEPTH); 0 for NULL. */
JG_API int jg_builder_depth(const jg_builder *b);

/** A new host array holding everything appended so far (see Snapshots above): `*out` receives
 *  it with one reference (NULL on error); release it with jg_array_release. The builder is
 *  unchanged and may go on; the snapshot shares nothing with it.
 *  Errors: JG_EINVAL (NULL b or out), JG_ESTATE (a container is open: snapshots need every
 *  list, record and tuple closed; the message names the innermost; index = number open),
 *  JG_ENOMEM (or the resource's error) when a buffer cannot be allocated. */
JG_API jg_status jg_builder_snapshot(const jg_builder *b, jg_array **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_BUILDER_H */
