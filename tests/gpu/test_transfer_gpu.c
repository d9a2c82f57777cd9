/* test_transfer_gpu.c: transfer counting (transfer.h) of the library's real copies on a GPU:
 * jg_copy host to device, device to host and device to device (one event each, with the bytes
 * and this file's line through the call-site macros), strided copies that stage (each move
 * counted once, host packing not counted), jg_array_to_device / jg_array_to_host of a small
 * jagged array (the exact bytes of its buffers), the small reads of jg_array_validate,
 * jg_array_from_counts, jg_list_output_scan and the device view table upload, no stale call
 * site after a wrapped call, and jg_transfer_expect_none over a device-only block. Expected
 * byte counts are worked out by hand from the sizes of the arrays. Skips (exit 77) without a
 * usable device. */
#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "kernels/scan/scan.h"

#define CUDA_OK(expr)                                         \
  do {                                                        \
    cudaError_t e_ = (expr);                                  \
    if (e_ != cudaSuccess) {                                  \
      print_error("%s: %s\n", #expr, cudaGetErrorString(e_)); \
      fail();                                                 \
    }                                                         \
  } while (0)

enum { N_DOUBLES = 128, N_BYTES = N_DOUBLES * 8 };

/* Runs `stmt` and stores the line of this invocation in `line`: the line that __FILE__/__LINE__
 * macros inside `stmt` (the call-site wrappers, jg_transfer_record) expand to. */
#define AT_LINE(line, stmt) \
  do {                      \
    (line) = __LINE__;      \
    stmt;                   \
  } while (0)

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct counted {
  jg_transfer_counter c;
  jg_transfer_event ev[16];
} counted;

static void count_begin(counted *k) {
  jg_transfer_counter_init(&k->c, k->ev, 16);
  JGT_OK(jg_transfer_scope_begin(&k->c, &jgt_err_));
}

static void count_end(counted *k) {
  JGT_OK(jg_transfer_scope_end(&k->c, &jgt_err_));
}

static uint64_t total_events(const jg_transfer_counter *c) {
  uint64_t n = 0;
  for (int k = 0; k < JG_TRANSFER_KIND_COUNT; ++k) n += c->count[k];
  return n;
}

static void assert_event(const jg_transfer_event *e, jg_transfer_kind kind, uint64_t bytes,
                         const char *what, const char *file, int line) {
  assert_int_equal(e->kind, kind);
  assert_int_equal(e->bytes, bytes);
  assert_non_null(e->what);
  assert_string_equal(e->what, what);
  if (file == NULL) {
    assert_null(e->file);
  } else {
    assert_non_null(e->file);
    assert_string_equal(e->file, file);
  }
  assert_int_equal(e->line, file != NULL ? line : 0);
}

/* A buffer of `bytes` from `mr` and a 1-D float64 view of `n` elements with stride `stride`. */
static jg_view view_over(jg_memory_resource *mr, size_t bytes, jg_len n, jg_stride stride,
                         jg_buffer **keep) {
  JGT_OK(jg_buffer_allocate(mr, bytes, NULL, keep, &jgt_err_));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, &stride, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, *keep, &l, JG_DTYPE_FLOAT64, false, &jgt_err_));
  return v;
}

static jg_memory_resource *device_mr(void) {
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_device(0, &mr, &jgt_err_));
  return mr;
}

/* Host bytes of a view's buffer, whatever memory it is in. */
static void read_back(void *host, jg_buffer *buf, size_t bytes) {
  jg_buffer *h = NULL;
  jg_layout l;
  const jg_len n = (jg_len)bytes;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 1, &jgt_err_));
  jg_view hv, sv;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), bytes, NULL, &h, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&hv, h, &l, JG_DTYPE_UINT8, false, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&sv, buf, &l, JG_DTYPE_UINT8, false, &jgt_err_));
  JGT_OK(jg_copy(&hv, &sv, &jgt_err_));
  memcpy(host, jg_buffer_data(h), bytes);
  jg_buffer_release(h);
}

/* ------------------------------------------------------------------------------------------ */
/* jg_copy                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void test_copy_directions(void **state) {
  (void)state;
  jg_buffer *hb = NULL, *db = NULL, *db2 = NULL, *hb2 = NULL;
  jg_view hv = view_over(jg_memory_resource_host(), N_BYTES, N_DOUBLES, 1, &hb);
  jg_view dv = view_over(device_mr(), N_BYTES, N_DOUBLES, 1, &db);
  jg_view dv2 = view_over(device_mr(), N_BYTES, N_DOUBLES, 1, &db2);
  jg_view hv2 = view_over(jg_memory_resource_host(), N_BYTES, N_DOUBLES, 1, &hb2);
  double *h = jg_buffer_data(hb);
  for (int i = 0; i < N_DOUBLES; ++i) h[i] = 0.5 * i;
  memset(jg_buffer_data(hb2), 0, N_BYTES);
  char expected[256];
  char report[1024];

  /* Host to device: one to_device event of N_BYTES at this line. */
  counted k;
  count_begin(&k);
  int l_h2d = 0;
  AT_LINE(l_h2d, JGT_OK(jg_copy(&dv, &hv, &jgt_err_)));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 1);
  assert_int_equal(k.c.count[JG_TRANSFER_TO_DEVICE], 1);
  assert_int_equal(k.c.bytes[JG_TRANSFER_TO_DEVICE], N_BYTES);
  assert_int_equal(k.c.n_events, 1);
  assert_event(&k.ev[0], JG_TRANSFER_TO_DEVICE, N_BYTES, "jg_copy", __FILE__, l_h2d);
  snprintf(expected, sizeof expected,
           "to_device: 1 event, %d bytes\n  to_device x1 %d bytes at %s:%d (jg_copy)", N_BYTES,
           N_BYTES, __FILE__, l_h2d);
  jg_transfer_report(&k.c, report, sizeof report);
  assert_string_equal(report, expected);

  /* Device to device: one device_copy; no host<->device transfer. */
  count_begin(&k);
  int l_d2d = 0;
  AT_LINE(l_d2d, JGT_OK(jg_copy(&dv2, &dv, &jgt_err_)));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 1);
  assert_event(&k.ev[0], JG_TRANSFER_DEVICE_COPY, N_BYTES, "jg_copy", __FILE__, l_d2d);
  JGT_OK(jg_transfer_expect_none(
      &k.c, JG_TRANSFER_MASK(JG_TRANSFER_TO_HOST) | JG_TRANSFER_MASK(JG_TRANSFER_TO_DEVICE),
      &jgt_err_));
  jg_error err;
  JGT_STATUS(JG_ESTATE, jg_transfer_expect_none(&k.c, 0, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "device_copy x1");

  /* Device to host, with jg_copy_async: one to_host event named after it. */
  count_begin(&k);
  int l_d2h = 0;
  AT_LINE(l_d2h, JGT_OK(jg_copy_async(&hv2, &dv2, NULL, &jgt_err_)));
  JGT_OK(jg_stream_synchronize(NULL, &jgt_err_));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 1);
  assert_event(&k.ev[0], JG_TRANSFER_TO_HOST, N_BYTES, "jg_copy_async", __FILE__, l_d2h);
  assert_memory_equal(jg_buffer_data(hb2), h, N_BYTES);

  /* The call site does not outlive the call: a later event has none. */
  count_begin(&k);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 1, "later", NULL, 0);
  count_end(&k);
  assert_null(k.ev[0].file);

  /* (jg_copy)(...) bypasses the macro: no call site. */
  count_begin(&k);
  JGT_OK((jg_copy)(&dv, &hv, &jgt_err_));
  count_end(&k);
  assert_event(&k.ev[0], JG_TRANSFER_TO_DEVICE, N_BYTES, "jg_copy", NULL, 0);

  /* Host to host is not a transfer. */
  count_begin(&k);
  JGT_OK(jg_copy(&hv2, &hv, &jgt_err_));
  count_end(&k);
  JGT_OK(jg_transfer_expect_none(&k.c, 0, &jgt_err_));

  jg_buffer_release(hb);
  jg_buffer_release(hb2);
  jg_buffer_release(db);
  jg_buffer_release(db2);
}

/* Strided copies that stage: every move is counted once, the host packing is not. */
static void test_copy_staged(void **state) {
  (void)state;
  enum { HALF = N_DOUBLES / 2, HALF_BYTES = HALF * 8 };
  jg_buffer *hb = NULL, *db = NULL, *hdense = NULL, *ddense = NULL;
  jg_view hstrided = view_over(jg_memory_resource_host(), N_BYTES, HALF, 2, &hb);
  jg_view dstrided = view_over(device_mr(), N_BYTES, HALF, 2, &db);
  jg_view hd = view_over(jg_memory_resource_host(), HALF_BYTES, HALF, 1, &hdense);
  jg_view dd = view_over(device_mr(), HALF_BYTES, HALF, 1, &ddense);
  double *h = jg_buffer_data(hb);
  for (int i = 0; i < N_DOUBLES; ++i) h[i] = i;

  /* Host (every other element) to a dense device view: packed on the host (its span, 1016
   * bytes, is larger than the data), then one to_device of the 512 packed bytes. */
  counted k;
  count_begin(&k);
  int l1 = 0;
  AT_LINE(l1, JGT_OK(jg_copy(&dd, &hstrided, &jgt_err_)));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 1);
  assert_event(&k.ev[0], JG_TRANSFER_TO_DEVICE, HALF_BYTES, "jg_copy", __FILE__, l1);

  /* Dense device to a strided device view: the strided kernel, one device_copy. */
  count_begin(&k);
  int l2 = 0;
  AT_LINE(l2, JGT_OK(jg_copy(&dstrided, &dd, &jgt_err_)));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 1);
  assert_event(&k.ev[0], JG_TRANSFER_DEVICE_COPY, HALF_BYTES, "jg_copy", __FILE__, l2);

  /* Strided device to a dense host view: the kernel packs into a device temporary
   * (device_copy), then one to_host. */
  memset(jg_buffer_data(hdense), 0, HALF_BYTES);
  count_begin(&k);
  int l3 = 0;
  AT_LINE(l3, JGT_OK(jg_copy(&hd, &dstrided, &jgt_err_)));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 2);
  assert_event(&k.ev[0], JG_TRANSFER_DEVICE_COPY, HALF_BYTES, "jg_copy", __FILE__, l3);
  assert_event(&k.ev[1], JG_TRANSFER_TO_HOST, HALF_BYTES, "jg_copy", __FILE__, l3);
  const double *got = jg_buffer_data(hdense);
  for (int i = 0; i < HALF; ++i) assert_true(got[i] == 2.0 * i);

  jg_buffer_release(hb);
  jg_buffer_release(db);
  jg_buffer_release(hdense);
  jg_buffer_release(ddense);
}

/* ------------------------------------------------------------------------------------------ */
/* Arrays                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* [[1, 2], [], [3, 4, 5]]: offsets 4 x int64 = 32 bytes, content 5 x float64 = 40 bytes. */
static const int64_t kOffsets[4] = {0, 2, 2, 5};
static const double kContent[5] = {1, 2, 3, 4, 5};

static void assert_two_buffers(const jg_transfer_counter *c, const jg_transfer_event *ev,
                               jg_transfer_kind kind, const char *what, const char *file,
                               int line) {
  assert_int_equal(total_events(c), 2);
  assert_int_equal(c->count[kind], 2);
  assert_int_equal(c->bytes[kind], 32 + 40);
  assert_int_equal(c->n_events, 2);
  /* Children move before their parent: content, then offsets. */
  assert_event(&ev[0], kind, 40, what, file, line);
  assert_event(&ev[1], kind, 32, what, file, line);
}

static void test_array_round_trip(void **state) {
  (void)state;
  jg_array *a = NULL, *dev = NULL, *back = NULL;
  JGT_OK(jg_array_from_host_offsets(kOffsets, 3, kContent, 5, JG_DTYPE_FLOAT64, &a, &jgt_err_));

  counted k;
  count_begin(&k);
  int l_to_dev = 0;
  AT_LINE(l_to_dev, JGT_OK(jg_array_to_device(a, 0, NULL, &dev, &jgt_err_)));
  count_end(&k);
  assert_two_buffers(&k.c, k.ev, JG_TRANSFER_TO_DEVICE, "jg_array_to_device", __FILE__, l_to_dev);
  char expected[256], report[1024];
  snprintf(expected, sizeof expected,
           "to_device: 2 events, 72 bytes\n"
           "  to_device x2 72 bytes at %s:%d (jg_array_to_device)",
           __FILE__, l_to_dev);
  jg_transfer_report(&k.c, report, sizeof report);
  assert_string_equal(report, expected);

  count_begin(&k);
  int l_to_host = 0;
  AT_LINE(l_to_host, JGT_OK(jg_array_to_host(dev, NULL, &back, &jgt_err_)));
  count_end(&k);
  assert_two_buffers(&k.c, k.ev, JG_TRANSFER_TO_HOST, "jg_array_to_host", __FILE__, l_to_host);
  jg_view ov, cv;
  JGT_OK(jg_array_buffer(back, 0, &ov, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(back, 0), 0, &cv, &jgt_err_));
  assert_memory_equal(ov.base, kOffsets, sizeof kOffsets);
  assert_memory_equal(cv.base, kContent, sizeof kContent);

  /* Already on the target: shared, nothing moves. */
  jg_array *same = NULL;
  count_begin(&k);
  JGT_OK(jg_array_to_device(dev, 0, NULL, &same, &jgt_err_));
  count_end(&k);
  assert_ptr_equal(same, dev);
  JGT_OK(jg_transfer_expect_none(&k.c, 0, &jgt_err_));
  jg_array_release(same);

  /* Nested counters: the outer one sees both moves. */
  counted outer, inner;
  jg_array *dev2 = NULL, *back2 = NULL;
  count_begin(&outer);
  count_begin(&inner);
  JGT_OK(jg_array_to_device(a, 0, NULL, &dev2, &jgt_err_));
  count_end(&inner);
  JGT_OK(jg_array_to_host(dev2, NULL, &back2, &jgt_err_));
  count_end(&outer);
  assert_int_equal(inner.c.count[JG_TRANSFER_TO_DEVICE], 2);
  assert_int_equal(inner.c.count[JG_TRANSFER_TO_HOST], 0);
  assert_int_equal(outer.c.count[JG_TRANSFER_TO_DEVICE], 2);
  assert_int_equal(outer.c.count[JG_TRANSFER_TO_HOST], 2);
  assert_int_equal(outer.c.bytes[JG_TRANSFER_TO_HOST], 72);

  jg_array_release(back2);
  jg_array_release(dev2);
  jg_array_release(back);
  jg_array_release(dev);
  jg_array_release(a);
}

/* Small reads of status words and single values, with no stale call site: the previous wrapped
 * call has returned, and these calls are not wrapped. */
static void test_small_reads(void **state) {
  (void)state;
  jg_array *a = NULL, *dev = NULL;
  JGT_OK(jg_array_from_host_offsets(kOffsets, 3, kContent, 5, JG_DTYPE_FLOAT64, &a, &jgt_err_));
  JGT_OK(jg_array_to_device(a, 0, NULL, &dev, &jgt_err_));
  JGT_OK(jg_stream_synchronize(NULL, &jgt_err_));

  /* FULL: one scan on the GPU, one 8-byte error word read back. */
  counted k;
  count_begin(&k);
  JGT_OK(jg_array_validate(dev, JG_VALIDATE_FULL, NULL, &jgt_err_));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 1);
  assert_event(&k.ev[0], JG_TRANSFER_TO_HOST, 8, "validate: error words", NULL, 0);

  /* DEFAULT: the first and last offsets, 8 bytes each. */
  count_begin(&k);
  JGT_OK(jg_array_validate(dev, JG_VALIDATE_DEFAULT, NULL, &jgt_err_));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 2);
  assert_event(&k.ev[0], JG_TRANSFER_TO_HOST, 8, "validate: a value", NULL, 0);
  assert_event(&k.ev[1], JG_TRANSFER_TO_HOST, 8, "validate: a value", NULL, 0);

  /* MINIMAL reads nothing. */
  count_begin(&k);
  JGT_OK(jg_array_validate(dev, JG_VALIDATE_MINIMAL, NULL, &jgt_err_));
  count_end(&k);
  JGT_OK(jg_transfer_expect_none(&k.c, 0, &jgt_err_));

  /* The device view's node table: 2 nodes (list, numeric) uploaded. */
  jg_device_view *h = NULL;
  count_begin(&k);
  JGT_OK(jg_array_device_view_create(dev, 0, NULL, &h, &jgt_err_));
  count_end(&k);
  assert_int_equal(jg_device_view_host_table(h).nnodes, 2);
  assert_int_equal(total_events(&k.c), 1);
  assert_event(&k.ev[0], JG_TRANSFER_TO_DEVICE, 2 * sizeof(jg_dnode), "device view: node table",
               NULL, 0);
  JGT_OK(jg_stream_synchronize(NULL, &jgt_err_));
  jg_device_view_destroy(h);

  /* jg_array_from_counts on the device: the scan status and the last offset. */
  const int64_t counts[3] = {2, 0, 3};
  jg_array *hc = NULL, *dc = NULL, *content = NULL, *built = NULL;
  JGT_OK(jg_array_from_host(counts, 3, JG_DTYPE_INT64, &hc, &jgt_err_));
  JGT_OK(jg_array_to_device(hc, 0, NULL, &dc, &jgt_err_));
  JGT_OK(jg_array_to_device(jg_array_child(a, 0), 0, NULL, &content, &jgt_err_));
  jg_view cv;
  JGT_OK(jg_array_buffer(dc, 0, &cv, &jgt_err_));
  count_begin(&k);
  JGT_OK(jg_array_from_counts(&cv, content, NULL, &built, &jgt_err_));
  count_end(&k);
  assert_int_equal(total_events(&k.c), 2);
  assert_int_equal(k.c.bytes[JG_TRANSFER_TO_HOST], sizeof(jgi_scan_status) + 8);
  assert_event(&k.ev[0], JG_TRANSFER_TO_HOST, sizeof(jgi_scan_status),
               "jg_array_from_counts: scan status", NULL, 0);
  assert_event(&k.ev[1], JG_TRANSFER_TO_HOST, 8, "jg_array_from_counts: last offset", NULL, 0);

  /* jg_list_output_scan: its status and the total. */
  jg_list_output *o = NULL;
  JGT_OK(jg_list_output_begin(3, JG_DTYPE_FLOAT64, 0, NULL, &o, &jgt_err_));
  CUDA_OK(cudaMemcpy(jg_list_output_counts(o), counts, sizeof counts, cudaMemcpyHostToDevice));
  count_begin(&k);
  JGT_OK(jg_list_output_scan(o, &jgt_err_));
  count_end(&k);
  assert_int_equal(jg_list_output_total(o), 5);
  assert_int_equal(total_events(&k.c), 2);
  assert_event(&k.ev[0], JG_TRANSFER_TO_HOST, sizeof(jgi_scan_status), "list output: scan status",
               NULL, 0);
  assert_event(&k.ev[1], JG_TRANSFER_TO_HOST, 8, "list output: total", NULL, 0);
  jg_list_output_destroy(o);

  jg_array_release(built);
  jg_array_release(content);
  jg_array_release(dc);
  jg_array_release(hc);
  jg_array_release(dev);
  jg_array_release(a);
}

/* A block that only works on the device passes expect_none masked to host<->device kinds, while
 * the process totals still grow. */
static void test_device_only_block(void **state) {
  (void)state;
  jg_buffer *a = NULL, *b = NULL;
  jg_view av = view_over(device_mr(), N_BYTES, N_DOUBLES, 1, &a);
  jg_view bv = view_over(device_mr(), N_BYTES, N_DOUBLES, 1, &b);
  uint64_t before[JG_TRANSFER_KIND_COUNT], after[JG_TRANSFER_KIND_COUNT];
  jg_transfer_totals(before, NULL);
  counted k;
  count_begin(&k);
  for (int i = 0; i < 3; ++i) {
    JGT_OK(jg_copy(&bv, &av, &jgt_err_));
    JGT_OK(jg_copy(&av, &bv, &jgt_err_));
  }
  count_end(&k);
  jg_transfer_totals(after, NULL);
  JGT_OK(jg_transfer_expect_none(
      &k.c, JG_TRANSFER_MASK(JG_TRANSFER_TO_HOST) | JG_TRANSFER_MASK(JG_TRANSFER_TO_DEVICE),
      &jgt_err_));
  assert_int_equal(k.c.count[JG_TRANSFER_DEVICE_COPY], 6);
  assert_int_equal(k.c.bytes[JG_TRANSFER_DEVICE_COPY], 6 * N_BYTES);
  assert_int_equal(after[JG_TRANSFER_DEVICE_COPY] - before[JG_TRANSFER_DEVICE_COPY], 6);
  uint8_t check[N_BYTES];
  read_back(check, b, N_BYTES); /* the buffers stayed usable */
  jg_buffer_release(a);
  jg_buffer_release(b);
}

#endif /* JG_HAVE_CUDA */

int main(void) {
  JGT_REQUIRE_GPU();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_copy_directions),   cmocka_unit_test(test_copy_staged),
      cmocka_unit_test(test_array_round_trip),  cmocka_unit_test(test_small_reads),
      cmocka_unit_test(test_device_only_block),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
#else
  return 77;
#endif
}
