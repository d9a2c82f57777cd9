/* jgt_build.h: small builders of host arrays for the Parquet writer's tests (test_parquet_write,
 * test_parquet_writer_stream): a host view over copied values, numbers, list (starts/stops)
 * nodes, and an array's whole printout. Every builder of a node takes ownership of the child
 * arrays it is given; the test fails on any error. Include after jg_test.h. */
#ifndef JAGGED_TESTS_JGT_BUILD_H
#define JAGGED_TESTS_JGT_BUILD_H

#include "jg_test.h"

static inline jg_view host_view(const void *vals, jg_len n, jg_dtype dtype) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  jg_buffer *keep = NULL;
  JGT_OK(
      jg_buffer_allocate(jg_memory_resource_host(), (size_t)(n * isz) + 1, NULL, &keep, &jgt_err_));
  if (n > 0) memcpy(jg_buffer_data(keep), vals, (size_t)(n * isz));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, isz, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, keep, &l, dtype, false, &jgt_err_));
  return v; /* the array made from it retains the buffer; released with it below */
}

static inline jg_array *num(const void *vals, jg_len n, jg_dtype d) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(vals, n, d, &a, &jgt_err_));
  return a;
}

static inline jg_array *lss(const int64_t *starts, const int64_t *stops, jg_len n,
                            jg_array *content) {
  jg_view a = host_view(starts, n, JG_DTYPE_INT64), b = host_view(stops, n, JG_DTYPE_INT64);
  jg_array *out = NULL;
  JGT_OK(jg_array_list(&a, &b, content, &out, &jgt_err_));
  jg_buffer_release(a.buffer);
  jg_buffer_release(b.buffer);
  jg_array_release(content);
  return out;
}

/* The whole printout (no elision) or the type of `a`, malloc'ed. */
static inline char *show(const jg_array *a, bool type) {
  size_t needed = 0;
  const size_t width = (size_t)1 << 40;
  if (type) {
    JGT_OK(jg_array_type_string(a, NULL, 0, &needed, &jgt_err_));
  } else {
    JGT_OK(jg_array_to_string(a, width, NULL, 0, &needed, &jgt_err_));
  }
  char *buf = malloc(needed + 1);
  assert_non_null(buf);
  if (type) {
    JGT_OK(jg_array_type_string(a, buf, needed + 1, NULL, &jgt_err_));
  } else {
    JGT_OK(jg_array_to_string(a, width, buf, needed + 1, NULL, &jgt_err_));
  }
  return buf;
}

#endif /* JAGGED_TESTS_JGT_BUILD_H */
