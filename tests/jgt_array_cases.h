/* jgt_array_cases.h: host array builders for the printout and validation tests, and the table of
 * validation cases run on the host (tests/unit/test_validate.c) and on the GPU
 * (tests/gpu/test_validate_gpu.c, after jg_array_to_device).
 *
 * Builders assert success (cmocka), take ownership of the arrays passed in as content or fields
 * (they release the caller's reference), and return a new array with one reference. Expected
 * outcomes in the table are worked out by hand from Awkward's layout rules
 * (../shared/notes/awkward.md 6.1): list i of offsets is [offsets[i], offsets[i+1]); an empty
 * list may have any start; a non-empty one needs 0 <= start < stop <= len(content); an index is
 * None when negative, else must be below len(content). */
#ifndef JAGGED_TESTS_JGT_ARRAY_CASES_H
#define JAGGED_TESTS_JGT_ARRAY_CASES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jagged/array.h"

/* ------------------------------------------------------------------------------------------ */
/* Builders                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* A host view over a fresh copy of `nbuf` elements of `values`, with `ndim` axes of `shape`,
 * `strides` (elements; NULL: C order) and `slice_offset`. The caller releases view.buffer once
 * a node holds it. */
static inline jg_view jgt_view_ex(const void *values, jg_len nbuf, jg_dtype dtype, int ndim,
                                  const jg_len *shape, const jg_stride *strides,
                                  jg_offset slice_offset) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  jg_buffer *buf = NULL;
  JGT_OK(
      jg_buffer_allocate(jg_memory_resource_host(), (size_t)(nbuf * isz), NULL, &buf, &jgt_err_));
  if (nbuf > 0) memcpy(jg_buffer_data(buf), values, (size_t)(nbuf * isz));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, ndim, shape, strides, isz, &jgt_err_));
  l.slice_offset = slice_offset;
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, buf, &l, dtype, true, &jgt_err_));
  return v;
}

/* A dense 1-D host view over a copy of n elements. */
static inline jg_view jgt_view(const void *values, jg_len n, jg_dtype dtype) {
  return jgt_view_ex(values, n, dtype, 1, &n, NULL, 0);
}

static inline jg_array *jgt_numeric(const void *values, jg_len n, jg_dtype dtype) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(values, n, dtype, &a, &jgt_err_));
  return a;
}

/* A numeric array over a view (the view's buffer is released: the node holds it). */
static inline jg_array *jgt_numeric_view(jg_view v) {
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  return a;
}

static inline jg_array *jgt_i64(const int64_t *values, jg_len n) {
  return jgt_numeric(values, n, JG_DTYPE_INT64);
}

/* A list-offset array over an offsets view (its buffer released) and `content` (stolen). */
static inline jg_array *jgt_list_offset_view(jg_view offsets, jg_array *content) {
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&offsets, content, &a, &jgt_err_));
  jg_buffer_release(offsets.buffer);
  jg_array_release(content);
  return a;
}

/* A list-offset array with `noffsets` offsets of `dtype` (int32 or int64). */
static inline jg_array *jgt_list_offset(const void *offsets, jg_len noffsets, jg_dtype dtype,
                                        jg_array *content) {
  return jgt_list_offset_view(jgt_view(offsets, noffsets, dtype), content);
}

static inline jg_array *jgt_offsets64(const int64_t *offsets, jg_len noffsets, jg_array *content) {
  return jgt_list_offset(offsets, noffsets, JG_DTYPE_INT64, content);
}

/* A list array: n starts, nstops >= n stops, of `dtype`. */
static inline jg_array *jgt_list(const void *starts, const void *stops, jg_len n, jg_len nstops,
                                 jg_dtype dtype, jg_array *content) {
  jg_view s = jgt_view(starts, n, dtype), t = jgt_view(stops, nstops, dtype);
  jg_array *a = NULL;
  JGT_OK(jg_array_list(&s, &t, content, &a, &jgt_err_));
  jg_buffer_release(s.buffer);
  jg_buffer_release(t.buffer);
  jg_array_release(content);
  return a;
}

static inline jg_array *jgt_regular(jg_array *content, jg_len size, jg_len length) {
  jg_array *a = NULL;
  JGT_OK(jg_array_regular(content, size, length, &a, &jgt_err_));
  jg_array_release(content);
  return a;
}

/* A record (names) or tuple (names NULL) of n fields (stolen); length -1: the shortest. */
static inline jg_array *jgt_record(int n, jg_array **fields, const char *const *names,
                                   jg_len length) {
  jg_array *a = NULL;
  JGT_OK(jg_array_record(n, fields, names, length, &a, &jgt_err_));
  for (int k = 0; k < n; k++) jg_array_release(fields[k]);
  return a;
}

static inline jg_array *jgt_byte_masked(const int8_t *mask, jg_len n, bool valid_when,
                                        jg_array *content) {
  jg_view m = jgt_view(mask, n, JG_DTYPE_INT8);
  jg_array *a = NULL;
  JGT_OK(jg_array_byte_masked(&m, valid_when, content, &a, &jgt_err_));
  jg_buffer_release(m.buffer);
  jg_array_release(content);
  return a;
}

static inline jg_array *jgt_bit_masked(const uint8_t *bytes, jg_len nbytes, bool valid_when,
                                       bool lsb_order, jg_len length, jg_array *content) {
  jg_view m = jgt_view(bytes, nbytes, JG_DTYPE_UINT8);
  jg_array *a = NULL;
  JGT_OK(jg_array_bit_masked(&m, valid_when, lsb_order, length, content, &a, &jgt_err_));
  jg_buffer_release(m.buffer);
  jg_array_release(content);
  return a;
}

static inline jg_array *jgt_indexed(const void *index, jg_len n, jg_dtype dtype,
                                    jg_array *content) {
  jg_view v = jgt_view(index, n, dtype);
  jg_array *a = NULL;
  JGT_OK(jg_array_indexed_option(&v, content, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

/* Entries [start, stop) of `a` (stolen). */
static inline jg_array *jgt_slice(jg_array *a, jg_len start, jg_len stop) {
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, start, stop, &s, &jgt_err_));
  jg_array_release(a);
  return s;
}

/* A numeric int64 array 0, 1, ..., n-1. */
static inline jg_array *jgt_iota(jg_len n) {
  int64_t *v = malloc(sizeof *v * (size_t)(n > 0 ? n : 1));
  assert_non_null(v);
  for (jg_len i = 0; i < n; i++) v[i] = i;
  jg_array *a = jgt_i64(v, n);
  free(v);
  return a;
}

/* ------------------------------------------------------------------------------------------ */
/* Validation cases                                                                            */
/* ------------------------------------------------------------------------------------------ */

#define JGT_I64(...) ((const int64_t[]){__VA_ARGS__})
#define JGT_I32(...) ((const int32_t[]){__VA_ARGS__})
#define JGT_N(...) ((jg_len)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define JGT_N32(...) ((jg_len)(sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t)))
/* A list-offset array of int64 offsets given inline over `content`. */
#define JGT_OFFSETS(content, ...) jgt_offsets64(JGT_I64(__VA_ARGS__), JGT_N(__VA_ARGS__), (content))

/* 2^20 + 1 lists, one element each (offsets[k] = k), with `nbad` offsets replaced:
 * offsets[at[j]] = value[j]. */
static inline jg_array *jgt_big_offsets(int nbad, const int64_t *at, const int64_t *value) {
  const jg_len n = ((jg_len)1 << 20) + 1;
  int64_t *off = malloc(sizeof *off * (size_t)(n + 1));
  assert_non_null(off);
  for (jg_len k = 0; k <= n; k++) off[k] = k;
  for (int j = 0; j < nbad; j++) off[at[j]] = value[j];
  jg_array *a = jgt_offsets64(off, n + 1, jgt_iota(n));
  free(off);
  return a;
}

/* The builders of the table (each a valid or invalid host array). */
static inline jg_array *jgt_vc_empty(void) {
  jg_array *a = NULL;
  JGT_OK(jg_array_empty(&a, &jgt_err_));
  return a;
}
static inline jg_array *jgt_vc_numeric(void) {
  return jgt_iota(5);
}
static inline jg_array *jgt_vc_offsets_zero(void) {
  return JGT_OFFSETS(jgt_iota(5), 0, 2, 2, 5);
}
static inline jg_array *jgt_vc_offsets_not_zero(void) {
  /* starts at 3, content (10) extends past the last offset (6) */
  return JGT_OFFSETS(jgt_iota(10), 3, 5, 5, 6);
}
static inline jg_array *jgt_vc_offsets_length0(void) {
  return JGT_OFFSETS(jgt_iota(0), 42);
}
static inline jg_array *jgt_vc_empty_lists_past_end(void) {
  return JGT_OFFSETS(jgt_iota(3), 7, 7, 7);
}
static inline jg_array *jgt_vc_empty_lists_negative(void) {
  return JGT_OFFSETS(jgt_iota(0), -4, -4, -4);
}
static inline jg_array *jgt_vc_sliced(void) {
  /* lists [0,1) [1,3) [3,6) [6,6) [6,10): entries 1..3 have offsets [1, 3, 6, 6] */
  return jgt_slice(JGT_OFFSETS(jgt_iota(10), 0, 1, 3, 6, 6, 10), 1, 4);
}
static inline jg_array *jgt_vc_sliced_hides_bad(void) {
  /* offsets[2] = 1 < offsets[1] = 3, but entries 2..3 only use offsets [1, 4, 6] */
  return jgt_slice(JGT_OFFSETS(jgt_iota(6), 0, 3, 1, 4, 6), 2, 4);
}
static inline jg_array *jgt_vc_sliced_keeps_bad(void) {
  return jgt_slice(JGT_OFFSETS(jgt_iota(6), 0, 3, 1, 4, 6), 0, 2);
}
static inline jg_array *jgt_vc_int32_offsets(void) {
  return jgt_list_offset(JGT_I32(1, 1, 4), 3, JG_DTYPE_INT32, jgt_iota(4));
}
static inline jg_array *jgt_vc_strided_offsets(void) {
  /* every other element of {0, 99, 2, -99, 5}: offsets [0, 2, 5] */
  const jg_len n = 3;
  const jg_stride s = 2;
  return jgt_list_offset_view(
      jgt_view_ex(JGT_I64(0, 99, 2, -99, 5), 5, JG_DTYPE_INT64, 1, &n, &s, 0), jgt_iota(5));
}
static inline jg_array *jgt_vc_reversed_offsets_bad(void) {
  /* {9, 4, 6, 0} read backwards: offsets [0, 6, 4, 9]: 4 < 6 at 2 */
  const jg_len n = 4;
  const jg_stride s = -1;
  return jgt_list_offset_view(jgt_view_ex(JGT_I64(9, 4, 6, 0), 4, JG_DTYPE_INT64, 1, &n, &s, 3),
                              jgt_iota(9));
}
static inline jg_array *jgt_vc_list_valid(void) {
  /* out of order, overlapping, empty lists with any start; stops longer than starts */
  return jgt_list(JGT_I64(4, 0, 99, -5, 2), JGT_I64(6, 3, 99, -5, 5, 1000), 5, 6, JG_DTYPE_INT64,
                  jgt_iota(6));
}
static inline jg_array *jgt_vc_indexed_valid(void) {
  return jgt_indexed(JGT_I64(-1, 0, 2, -7), 4, JG_DTYPE_INT64, jgt_iota(3));
}
static inline jg_array *jgt_vc_nested_valid(void) {
  /* var * ?{x: var * int64, y: int64}, with int32 inner offsets */
  jg_array *fields[2] = {jgt_list_offset(JGT_I32(0, 2, 2, 3), 4, JG_DTYPE_INT32, jgt_iota(3)),
                         jgt_i64(JGT_I64(7, 8, 9), 3)};
  static const char *const names[2] = {"x", "y"};
  jg_array *rec = jgt_record(2, fields, names, -1);
  jg_array *opt = jgt_byte_masked((const int8_t[]){1, 0, 1}, 3, true, rec);
  return JGT_OFFSETS(opt, 0, 2, 3);
}
static inline jg_array *jgt_vc_decrease_middle(void) {
  return JGT_OFFSETS(jgt_iota(6), 0, 5, 3, 6);
}
static inline jg_array *jgt_vc_first_above_last(void) {
  return JGT_OFFSETS(jgt_iota(10), 5, 7, 3);
}
static inline jg_array *jgt_vc_negative_first(void) {
  return JGT_OFFSETS(jgt_iota(3), -1, 2);
}
static inline jg_array *jgt_vc_last_past_end(void) {
  return JGT_OFFSETS(jgt_iota(3), 0, 2, 4);
}
static inline jg_array *jgt_vc_empty_then_past(void) {
  return JGT_OFFSETS(jgt_iota(4), 2, 2, 5);
}
static inline jg_array *jgt_vc_int32_decreasing(void) {
  return jgt_list_offset(JGT_I32(0, 4, 1, 8), 4, JG_DTYPE_INT32, jgt_iota(8));
}
static inline jg_array *jgt_vc_two_failures(void) {
  return JGT_OFFSETS(jgt_iota(5), 0, 3, 1, 4, 2, 9);
}
static inline jg_array *jgt_vc_list_start_above_stop(void) {
  return jgt_list(JGT_I64(0, 3), JGT_I64(2, 1), 2, 2, JG_DTYPE_INT64, jgt_iota(4));
}
static inline jg_array *jgt_vc_list_negative_start(void) {
  return jgt_list(JGT_I64(0, -1), JGT_I64(1, 2), 2, 2, JG_DTYPE_INT64, jgt_iota(4));
}
static inline jg_array *jgt_vc_list_stop_past(void) {
  return jgt_list(JGT_I32(0, 1, 2), JGT_I32(1, 9, 2), 3, 3, JG_DTYPE_INT32, jgt_iota(4));
}
static inline jg_array *jgt_vc_index_past(void) {
  return jgt_indexed(JGT_I32(0, -1, 3), 3, JG_DTYPE_INT32, jgt_iota(3));
}
static inline jg_array *jgt_vc_inner_bad(void) {
  return JGT_OFFSETS(JGT_OFFSETS(jgt_iota(3), 0, 1, 0), 0, 2);
}
static inline jg_array *jgt_vc_field_bad(void) {
  jg_array *fields[2] = {jgt_iota(1), JGT_OFFSETS(jgt_iota(2), 0, 2, 1)};
  static const char *const names[2] = {"a", "jets"};
  return JGT_OFFSETS(jgt_record(2, fields, names, -1), 0, 1);
}
static inline jg_array *jgt_vc_tuple_bad(void) {
  jg_array *fields[2] = {jgt_iota(2), jgt_indexed(JGT_I64(1, 5), 2, JG_DTYPE_INT64, jgt_iota(2))};
  return jgt_record(2, fields, NULL, -1);
}
static inline jg_array *jgt_vc_parent_and_child_bad(void) {
  return JGT_OFFSETS(JGT_OFFSETS(jgt_iota(3), 0, 1, 0), 0, 5);
}
static inline jg_array *jgt_vc_option_of_bad_list(void) {
  return jgt_byte_masked((const int8_t[]){0, 1}, 2, false, JGT_OFFSETS(jgt_iota(4), 0, 3, 2));
}
static inline jg_array *jgt_vc_big_valid(void) {
  return jgt_big_offsets(0, NULL, NULL);
}
static inline jg_array *jgt_vc_big_bad_near_end(void) {
  const int64_t n = ((int64_t)1 << 20) + 1;
  return jgt_big_offsets(1, JGT_I64(n - 3), JGT_I64(n - 5));
}
static inline jg_array *jgt_vc_big_two_bad(void) {
  const int64_t n = ((int64_t)1 << 20) + 1;
  return jgt_big_offsets(2, JGT_I64(1000, n - 3), JGT_I64(0, n - 5));
}
static inline jg_array *jgt_vc_big_last_past(void) {
  const int64_t n = ((int64_t)1 << 20) + 1;
  return jgt_big_offsets(1, JGT_I64(n), JGT_I64(n + 1));
}
static inline jg_array *jgt_vc_big_index(void) {
  const jg_len n = ((jg_len)1 << 20) + 1;
  int64_t *idx = malloc(sizeof *idx * (size_t)n);
  assert_non_null(idx);
  for (jg_len k = 0; k < n; k++) idx[k] = k % 3 == 0 ? -1 : k;
  idx[n - 2] = n; /* one past the end */
  jg_array *a = jgt_indexed(idx, n, JG_DTYPE_INT64, jgt_iota(n));
  free(idx);
  return a;
}

/* Expected outcome of one level: status, err->index and a message fragment (NULL when OK). */
typedef struct jgt_expect {
  jg_status status;
  int64_t index;
  const char *message;
} jgt_expect;

typedef struct jgt_vcase {
  const char *name;
  jg_array *(*build)(void);
  jgt_expect at_default; /* JG_VALIDATE_DEFAULT (MINIMAL passes for every case) */
  jgt_expect at_full;    /* JG_VALIDATE_FULL */
} jgt_vcase;

#define JGT_PASS \
  { JG_OK, -1, NULL }
#define JGT_FAIL(index, message) \
  { JG_EVALUE, (index), (message) }
/* An option index past its content: JG_EINDEX at the entry. */
#define JGT_FAIL_INDEX(index, message) \
  { JG_EINDEX, (index), (message) }
#define JGT_BIG_N (((int64_t)1 << 20) + 1)

static inline const jgt_vcase *jgt_vcases(int *count) {
  static const jgt_vcase cases[] = {
      {"empty array", jgt_vc_empty, JGT_PASS, JGT_PASS},
      {"numeric", jgt_vc_numeric, JGT_PASS, JGT_PASS},
      {"offsets from 0", jgt_vc_offsets_zero, JGT_PASS, JGT_PASS},
      {"offsets not from 0, content past the last", jgt_vc_offsets_not_zero, JGT_PASS, JGT_PASS},
      {"length 0 with an arbitrary offset", jgt_vc_offsets_length0, JGT_PASS, JGT_PASS},
      {"empty lists past the content", jgt_vc_empty_lists_past_end, JGT_PASS, JGT_PASS},
      {"empty lists at negative offsets", jgt_vc_empty_lists_negative, JGT_PASS, JGT_PASS},
      {"sliced", jgt_vc_sliced, JGT_PASS, JGT_PASS},
      {"slice hides a bad offset", jgt_vc_sliced_hides_bad, JGT_PASS, JGT_PASS},
      {"slice keeps a bad offset", jgt_vc_sliced_keeps_bad, JGT_PASS,
       JGT_FAIL(1,
                "offsets not monotonic at list 1: offsets[2] = 1 is below offsets[1] = 3 "
                "(list-offset at depth 1)")},
      {"int32 offsets", jgt_vc_int32_offsets, JGT_PASS, JGT_PASS},
      {"strided offsets", jgt_vc_strided_offsets, JGT_PASS, JGT_PASS},
      {"reversed offsets", jgt_vc_reversed_offsets_bad, JGT_PASS,
       JGT_FAIL(1, "offsets not monotonic at list 1: offsets[2] = 4 is below offsets[1] = 6")},
      {"list: any order, overlaps, empty anywhere", jgt_vc_list_valid, JGT_PASS, JGT_PASS},
      {"indexed with None", jgt_vc_indexed_valid, JGT_PASS, JGT_PASS},
      {"nested valid", jgt_vc_nested_valid, JGT_PASS, JGT_PASS},
      {"decrease in the middle", jgt_vc_decrease_middle, JGT_PASS,
       JGT_FAIL(1, "offsets not monotonic at list 1: offsets[2] = 3 is below offsets[1] = 5")},
      {"first offset above the last", jgt_vc_first_above_last,
       JGT_FAIL(1, "offsets not monotonic in lists 0..1: offsets[2] = 3 is below offsets[0] = 5"),
       JGT_FAIL(1, "offsets not monotonic at list 1: offsets[2] = 3 is below offsets[1] = 7")},
      {"negative first offset", jgt_vc_negative_first,
       JGT_FAIL(0, "offset out of range at list 0: offsets[0] = -1 is negative"),
       JGT_FAIL(0,
                "offset out of range at list 0: offsets[0] = -1 is negative and starts a "
                "non-empty list")},
      {"last offset past the content", jgt_vc_last_past_end,
       JGT_FAIL(1,
                "offset out of range at list 1: offsets[2] = 4 is past the end of the content "
                "(3 entries)"),
       JGT_FAIL(1,
                "offset out of range at list 1: offsets[2] = 4 is past the end of the content "
                "(3 entries)")},
      {"empty lists, then past the content", jgt_vc_empty_then_past,
       JGT_FAIL(1, "offsets[2] = 5 is past the end"), JGT_FAIL(1, "offsets[2] = 5 is past")},
      {"int32 offsets decreasing", jgt_vc_int32_decreasing, JGT_PASS,
       JGT_FAIL(1, "offsets not monotonic at list 1: offsets[2] = 1 is below offsets[1] = 4")},
      {"two failures: levels differ, FULL names the first", jgt_vc_two_failures,
       JGT_FAIL(4, "offsets[5] = 9 is past the end of the content (5 entries)"),
       JGT_FAIL(1, "offsets not monotonic at list 1: offsets[2] = 1 is below offsets[1] = 3")},
      {"list: start above stop", jgt_vc_list_start_above_stop, JGT_PASS,
       JGT_FAIL(1, "start above stop at 1: starts[1] = 3 > stops[1] = 1 (list at depth 1)")},
      {"list: negative start", jgt_vc_list_negative_start, JGT_PASS,
       JGT_FAIL(1, "start out of range at 1: starts[1] = -1 is negative in a non-empty list")},
      {"list: stop past the content", jgt_vc_list_stop_past, JGT_PASS,
       JGT_FAIL(1,
                "stop out of range at 1: stops[1] = 9 is past the end of the content "
                "(4 entries)")},
      {"index past the content", jgt_vc_index_past, JGT_PASS,
       JGT_FAIL_INDEX(2,
                "index out of range at 2: index[2] = 3 is past the end of the content "
                "(3 entries) (indexed-option at depth 1)")},
      {"inner offsets bad", jgt_vc_inner_bad, JGT_PASS,
       JGT_FAIL(1,
                "offsets not monotonic at list 1: offsets[2] = 0 is below offsets[1] = 1 "
                "(list-offset at depth 2)")},
      {"record field bad", jgt_vc_field_bad, JGT_PASS,
       JGT_FAIL(1,
                "offsets not monotonic at list 1: offsets[2] = 1 is below offsets[1] = 2 "
                "(list-offset at depth 2, field jets)")},
      {"tuple field bad", jgt_vc_tuple_bad, JGT_PASS,
       JGT_FAIL_INDEX(1,
                "index[1] = 5 is past the end of the content (2 entries) "
                "(indexed-option at depth 1, field 1)")},
      {"parent and child bad: the parent first", jgt_vc_parent_and_child_bad,
       JGT_FAIL(0,
                "offsets[1] = 5 is past the end of the content (2 entries) "
                "(list-offset at depth 1)"),
       JGT_FAIL(0,
                "offset out of range at list 0: offsets[1] = 5 is past the end of the content "
                "(2 entries) (list-offset at depth 1)")},
      {"option of a bad list", jgt_vc_option_of_bad_list, JGT_PASS,
       JGT_FAIL(1, "offsets[2] = 2 is below offsets[1] = 3 (list-offset at depth 1)")},
      {"2^20+1 lists", jgt_vc_big_valid, JGT_PASS, JGT_PASS},
      {"2^20+1 lists, one bad offset near the end", jgt_vc_big_bad_near_end, JGT_PASS,
       JGT_FAIL(JGT_BIG_N - 4,
                "offsets not monotonic at list 1048573: offsets[1048574] = 1048572 "
                "is below offsets[1048573] = 1048573")},
      {"2^20+1 lists, two bad offsets", jgt_vc_big_two_bad, JGT_PASS,
       JGT_FAIL(999,
                "offsets not monotonic at list 999: offsets[1000] = 0 is below "
                "offsets[999] = 999")},
      {"2^20+1 lists, last offset past the content", jgt_vc_big_last_past,
       JGT_FAIL(JGT_BIG_N - 1, "offset out of range at list 1048576: offsets[1048577] = 1048578"),
       JGT_FAIL(JGT_BIG_N - 1, "offset out of range at list 1048576: offsets[1048577] = 1048578")},
      {"2^20+1 indexes, one past the end", jgt_vc_big_index, JGT_PASS,
       JGT_FAIL_INDEX(JGT_BIG_N - 2, "index out of range at 1048575: index[1048575] = 1048577")},
  };
  *count = (int)(sizeof cases / sizeof cases[0]);
  return cases;
}

#endif /* JAGGED_TESTS_JGT_ARRAY_CASES_H */
