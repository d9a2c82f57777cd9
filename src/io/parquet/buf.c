/* buf.c: the growable host byte buffer of the Parquet layers (jgi_pq_buf, jgi_parquet.h). */
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_parquet.h"

jg_status jgi_pq_buf_reserve(jgi_pq_buf *b, size_t extra, jg_error *err) {
  size_t need;
  JG_RETURN_IF(jgi_add_overflow(b->size, extra, &need), JG_EOVERFLOW, err,
               "Parquet buffer: %zu + %zu bytes overflow", b->size, extra);
  if (need <= b->cap && b->data != NULL) return JG_OK; /* data is never NULL after a reserve */
  /* Grow by half again at least, so that appends are amortised constant time. */
  size_t cap = b->cap + b->cap / 2;
  if (cap < need) cap = need;
  if (cap < 64) cap = 64;
  uint8_t *data = (uint8_t *)realloc(b->data, cap);
  JG_RETURN_IF(data == NULL, JG_ENOMEM, err, "Parquet buffer: cannot grow to %zu bytes", cap);
  b->data = data;
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
  b->size = 0;
  b->cap = 0;
}
