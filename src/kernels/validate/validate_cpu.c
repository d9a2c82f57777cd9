/* validate_cpu.c: the host reference of the FULL-level index scans (interface in validate.h).
 * Sequential loops that stop at the first failing entry, so the key they return is the smallest
 * one, as the CUDA kernels' atomic minimum finds. */
#include "kernels/validate/validate.h"

static inline int64_t load(const void *p, int32_t itemsize, jg_len i, jg_stride stride) {
  if (itemsize == 4) return ((const int32_t *)p)[i * stride];
  return ((const int64_t *)p)[i * stride];
}

static inline uint64_t key_of(jg_len i, jgi_validate_code code) {
  return (uint64_t)i * JGI_VALIDATE_NCODES + (uint64_t)code;
}

/* The first failing check of a list [start, stop) over a content of `len` entries, or -1. */
static inline int list_code(int64_t start, int64_t stop, jg_len len) {
  if (stop < start) return JGI_VALIDATE_DECREASING;
  if (start != stop) {
    if (start < 0) return JGI_VALIDATE_START_BELOW;
    if (stop > len) return JGI_VALIDATE_STOP_PAST;
  }
  return -1;
}

uint64_t jgi_validate_scan_cpu(const jgi_validate_task *t) {
  const jg_len n = t->n, len = t->content_length;
  switch (t->check) {
    case JGI_VALIDATE_OFFSETS: {
      if (n <= 0) break;
      int64_t start = load(t->a, t->itemsize, 0, t->stride_a);
      for (jg_len i = 0; i < n; i++) {
        const int64_t stop = load(t->a, t->itemsize, i + 1, t->stride_a);
        const int code = list_code(start, stop, len);
        if (code >= 0) return key_of(i, (jgi_validate_code)code);
        start = stop;
      }
      break;
    }
    case JGI_VALIDATE_STARTS_STOPS:
      for (jg_len i = 0; i < n; i++) {
        const int code = list_code(load(t->a, t->itemsize, i, t->stride_a),
                                   load(t->b, t->itemsize, i, t->stride_b), len);
        if (code >= 0) return key_of(i, (jgi_validate_code)code);
      }
      break;
    case JGI_VALIDATE_INDEX:
      for (jg_len i = 0; i < n; i++) {
        if (load(t->a, t->itemsize, i, t->stride_a) >= len) {
          return key_of(i, JGI_VALIDATE_INDEX_PAST);
        }
      }
      break;
  }
  return JGI_VALIDATE_OK_KEY;
}
