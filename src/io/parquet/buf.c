/* buf.c: the growable host byte buffer of the Parquet layers (jgi_pq_buf, jgi_parquet.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_parquet.h"

jg_status jgi_pq_buf_reserve(jgi_pq_buf *b, size_t extra, jg_error *err) {
  size_t need;
  JG_RETURN_IF(jgi_add_overflow(b->size, extra, &need), JG_EOVERFLOW, err,
               "byte buffer: %zu + %zu bytes overflow size_t", b->size, extra);
  if (need <= b->cap) return JG_OK;
  /* Grow by half again (at least 64 bytes) so that appends are amortised O(1). */
  size_t cap = b->cap < 64 ? 64 : b->cap;
  while (cap < need) cap = cap > SIZE_MAX - cap / 2 ? need : cap + cap / 2;
  uint8_t *p = realloc(b->data, cap);
  JG_RETURN_IF(p == NULL, JG_ENOMEM, err, "byte buffer: cannot grow to %zu bytes", cap);
  b->data = p;
  b->cap = cap;
  return JG_OK;
}

jg_status jgi_pq_buf_append(jgi_pq_buf *b, const void *p, size_t n, jg_error *err) {
  if (n == 0) return JG_OK;
  JG_RETURN_NOT_OK(jgi_pq_buf_reserve(b, n, err));
  memcpy(b->data + b->size, p, n);
  b->size += n;
  return JG_OK;
}

void jgi_pq_buf_reset(jgi_pq_buf *b) {
  if (b == NULL) return;
  free(b->data);
  b->data = NULL;
  b->size = b->cap = 0;
}
