/* transpose.c: a strided view of a row-major matrix, transposed without copying, then
 * materialised with jg_copy, on the GPU when there is one and on the host otherwise.
 *
 * Build: part of the CMake build (examples/). Run: build/<dir>/examples/example_transpose */
#include <stdio.h>

#include "jagged/jagged.h"

#define CHECK(expr)                                                                \
  do {                                                                             \
    jg_status st_ = (expr);                                                        \
    if (st_ != JG_OK) {                                                            \
      fprintf(stderr, "%s: %s: %s\n", #expr, jg_status_name(st_), err.message);    \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

int main(void) {
  jg_error err;
  jg_error_clear(&err);
  enum { ROWS = 3, COLS = 4 };
  float host[ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; ++i) host[i] = (float)i;

  /* A (3, 4) C-order layout, then its transpose (4, 3) with strides (1, 4): no data moves. */
  jg_layout rowmajor, transposed;
  CHECK(jg_layout_init(&rowmajor, 2, (jg_len[]){ROWS, COLS}, NULL, sizeof(float), &err));
  CHECK(jg_layout_permute(&transposed, &rowmajor, (int[]){1, 0}, &err));

  jg_buffer *hbuf = NULL;
  CHECK(jg_buffer_wrap_borrowed(host, sizeof host, &hbuf, &err));
  jg_view src;
  CHECK(jg_view_from_buffer(&src, hbuf, &transposed, JG_DTYPE_FLOAT32, true, &err));

  /* Destination: a dense (4, 3) array on the GPU if one is usable, else on the host. */
  int ndev = 0;
  CHECK(jg_device_count(&ndev, &err));
  jg_memory_resource *mr = jg_memory_resource_host();
  if (ndev > 0) CHECK(jg_memory_resource_device(0, &mr, &err));
  jg_layout dense;
  CHECK(jg_layout_init(&dense, 2, (jg_len[]){COLS, ROWS}, NULL, sizeof(float), &err));
  jg_buffer *dbuf = NULL;
  CHECK(jg_buffer_allocate(mr, sizeof host, NULL, &dbuf, &err));
  jg_view dst;
  CHECK(jg_view_from_buffer(&dst, dbuf, &dense, JG_DTYPE_FLOAT32, false, &err));
  CHECK(jg_copy(&dst, &src, &err));

  /* Back to the host to print it. */
  float out[ROWS * COLS];
  jg_buffer *obuf = NULL;
  CHECK(jg_buffer_wrap_borrowed(out, sizeof out, &obuf, &err));
  jg_view back;
  CHECK(jg_view_from_buffer(&back, obuf, &dense, JG_DTYPE_FLOAT32, false, &err));
  CHECK(jg_copy(&back, &dst, &err));
  printf("transposed on %s:\n", ndev > 0 ? "cuda:0" : "cpu");
  for (int r = 0; r < COLS; ++r) {
    for (int c = 0; c < ROWS; ++c) printf(" %4.0f", (double)out[r * ROWS + c]);
    printf("\n");
  }
  jg_buffer_release(obuf);
  jg_buffer_release(dbuf);
  jg_buffer_release(hbuf);
  return 0;
}
