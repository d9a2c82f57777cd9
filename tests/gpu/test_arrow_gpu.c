/* test_arrow_gpu.c: the Arrow C Device Data Interface with cuda arrays on a real GPU (arrow.h):
 * device export (device pointers, device_type/id, a recorded sync_event, reserved zeroed, the
 * bitmap and bit-packing kernels, compaction, the host detour of list and indexed-option nodes),
 * device import (zero-copy, the wait on the producer's event, the unpack kernel, release exactly
 * once), pinned (CUDA_HOST) import as a cpu array, and the error paths that must not take the
 * array. Skips (exit 77) without a usable device. Expected values are worked out by hand;
 * printouts compare against the same array built on the host. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <time.h>

#define CUDA_OK(expr) assert_int_equal((int)(expr), (int)cudaSuccess)

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static jg_view vec(jg_dtype dtype, jg_len n, const void *vals, jg_buffer **keep) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), (size_t)(n * isz), NULL, keep, &jgt_err_));
  if (n > 0) memcpy(jg_buffer_data(*keep), vals, (size_t)(n * isz));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, isz, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, *keep, &l, dtype, false, &jgt_err_));
  return v;
}

static jg_array *num(jg_dtype dtype, jg_len n, const void *vals) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(vals, n, dtype, &a, &jgt_err_));
  return a;
}

static jg_array *lo32(jg_len nofs, const int32_t *ofs, jg_array *content) {
  jg_buffer *b = NULL;
  jg_view v = vec(JG_DTYPE_INT32, nofs, ofs, &b);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&v, content, &a, &jgt_err_));
  jg_buffer_release(b);
  jg_array_release(content);
  return a;
}

static jg_array *bytem(jg_len n, const uint8_t *mask, jg_array *content) {
  jg_buffer *b = NULL;
  jg_view v = vec(JG_DTYPE_UINT8, n, mask, &b);
  jg_array *a = NULL;
  JGT_OK(jg_array_byte_masked(&v, true, content, &a, &jgt_err_));
  jg_buffer_release(b);
  jg_array_release(content);
  return a;
}

/* The printout of `a`, copied to the host on `st` (where the array's producers wrote it). */
static const char *str(const jg_array *a, jg_stream st) {
  static char buf[2][2048];
  static int which = 0;
  which ^= 1;
  jg_array *h = NULL;
  JGT_OK(jg_array_to_host(a, st, &h, &jgt_err_));
  JGT_OK(jg_array_to_string(h, 2000, buf[which], sizeof buf[which], NULL, &jgt_err_));
  jg_array_release(h);
  return buf[which];
}

static jg_array *to_dev(jg_array *h, jg_stream st) {
  jg_array *d = NULL;
  JGT_OK(jg_array_to_device(h, 0, st, &d, &jgt_err_));
  JGT_OK(jg_stream_synchronize(st, &jgt_err_));
  assert_int_equal(jg_array_backend(d), JG_BACKEND_CUDA);
  return d;
}

static void assert_device_pointer(const void *p) {
  struct cudaPointerAttributes attr;
  CUDA_OK(cudaPointerGetAttributes(&attr, p));
  assert_int_equal((int)attr.type, (int)cudaMemoryTypeDevice);
  assert_int_equal(attr.device, 0);
}

static uint8_t read_byte(const void *dev) {
  uint8_t b = 0;
  CUDA_OK(cudaMemcpy(&b, dev, 1, cudaMemcpyDeviceToHost));
  return b;
}

/* Export `d` (a cuda array) through the device interface, wait on the event, import back on
 * `st`, and compare the printout with `want`. */
static void device_roundtrip(jg_array *d, jg_stream st, const char *want) {
  struct ArrowSchema s;
  struct ArrowDeviceArray da;
  JGT_OK(jg_array_export_arrow_device(d, st, &s, &da, &jgt_err_));
  assert_int_equal(da.device_type, ARROW_DEVICE_CUDA);
  assert_int_equal(da.device_id, 0);
  assert_non_null(da.sync_event);
  for (int k = 0; k < 3; ++k) assert_int_equal(da.reserved[k], 0);
  jg_array *b = NULL;
  JGT_OK(jg_array_import_arrow_device(&s, &da, st, &b, &jgt_err_));
  assert_null(da.array.release);
  s.release(&s);
  assert_int_equal(jg_array_backend(b), JG_BACKEND_CUDA);
  assert_string_equal(str(b, st), want);
  jg_array_release(b);
}

/* ------------------------------------------------------------------------------------------ */
/* Export                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* [[{pt: 2.5, ok: False}, None], [], [{pt: 4.5, ok: True}, {pt: 5.5, ok: False}]]: int32
 * offsets [1, 3, 3, 5] over a byte-masked record (mask 1 1 0 1 1) of float32 and bool. */
static jg_array *muons_host(void) {
  const float pt[] = {1.5f, 2.5f, 3.5f, 4.5f, 5.5f};
  const uint8_t ok[] = {1, 0, 1, 1, 0};
  const uint8_t mask[] = {1, 1, 0, 1, 1};
  const int32_t ofs[] = {1, 3, 3, 5};
  jg_array *fields[2] = {num(JG_DTYPE_FLOAT32, 5, pt), num(JG_DTYPE_BOOL, 5, ok)};
  const char *names[2] = {"pt", "ok"};
  jg_array *r = NULL;
  JGT_OK(jg_array_record(2, fields, names, -1, &r, &jgt_err_));
  jg_array_release(fields[0]);
  jg_array_release(fields[1]);
  return lo32(4, ofs, bytem(5, mask, r));
}

static void test_export_device_structs(void **state) {
  (void)state;
  jg_stream st = NULL;
  JGT_OK(jg_stream_create(&st, &jgt_err_));
  jg_array *h = muons_host();
  jg_array *d = to_dev(h, st);
  struct ArrowSchema s;
  struct ArrowDeviceArray da;
  memset(&da, 0x77, sizeof da);
  JGT_OK(jg_array_export_arrow_device(d, st, &s, &da, &jgt_err_));
  jg_array_release(d); /* the export keeps the device buffers alive */
  assert_int_equal(da.device_type, ARROW_DEVICE_CUDA);
  assert_int_equal(da.device_id, 0);
  for (int k = 0; k < 3; ++k) assert_int_equal(da.reserved[k], 0);
  assert_non_null(da.sync_event);
  const cudaEvent_t ev = *(const cudaEvent_t *)da.sync_event;
  CUDA_OK(cudaEventSynchronize(ev));
  CUDA_OK(cudaEventQuery(ev));

  const struct ArrowArray *a = &da.array;
  assert_string_equal(s.format, "+l");
  assert_int_equal(a->length, 3);
  assert_int_equal(a->offset, 0);
  assert_device_pointer(a->buffers[1]);
  int32_t ofs[4];
  CUDA_OK(cudaMemcpy(ofs, a->buffers[1], sizeof ofs, cudaMemcpyDeviceToHost));
  assert_int_equal(ofs[0], 1);
  assert_int_equal(ofs[3], 5);
  const struct ArrowArray *r = a->children[0];
  assert_string_equal(s.children[0]->format, "+s");
  assert_int_equal(r->length, 5);
  assert_int_equal(r->null_count, -1); /* not counted on the device */
  assert_device_pointer(r->buffers[0]);
  assert_int_equal(read_byte(r->buffers[0]) & 0x1F, 0x1B); /* mask 1 1 0 1 1 */
  assert_string_equal(s.children[0]->children[1]->format, "b");
  assert_device_pointer(r->children[1]->buffers[1]);
  assert_int_equal(read_byte(r->children[1]->buffers[1]) & 0x1F, 0x0D); /* 1 0 1 1 0 */
  float pt[5];
  CUDA_OK(cudaMemcpy(pt, r->children[0]->buffers[1], sizeof pt, cudaMemcpyDeviceToHost));
  assert_true(pt[4] == 5.5f);

  /* Import back on the stream: a cuda array equal to the original. */
  jg_array *b = NULL;
  JGT_OK(jg_array_import_arrow_device(&s, &da, st, &b, &jgt_err_));
  s.release(&s);
  assert_int_equal(jg_array_backend(b), JG_BACKEND_CUDA);
  char want[512];
  JGT_OK(jg_array_to_string(h, 2000, want, sizeof want, NULL, &jgt_err_));
  assert_string_equal(str(b, st), want);
  jg_array_release(b); /* releases the export: destroys the event, frees the bitmaps */
  jg_array_release(h);
  jg_stream_destroy(st);
}

static void test_export_device_conversions(void **state) {
  (void)state;
  jg_stream st = NULL;
  JGT_OK(jg_stream_create(&st, &jgt_err_));
  const int64_t v[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

  /* list (starts/stops), out of order: the host detour. */
  jg_buffer *b1 = NULL;
  jg_buffer *b2 = NULL;
  jg_view sv = vec(JG_DTYPE_INT64, 3, (const int64_t[]){5, 0, 2}, &b1);
  jg_view tv = vec(JG_DTYPE_INT64, 3, (const int64_t[]){7, 2, 2}, &b2);
  jg_array *content = num(JG_DTYPE_INT64, 10, v);
  jg_array *l = NULL;
  JGT_OK(jg_array_list(&sv, &tv, content, &l, &jgt_err_));
  jg_array *d = to_dev(l, st);
  device_roundtrip(d, st, "[[5, 6], [0, 1], []]");
  jg_array_release(d);
  jg_array_release(l);

  /* indexed-option over int64: the host detour, gathering. */
  jg_buffer *b3 = NULL;
  jg_view iv = vec(JG_DTYPE_INT64, 4, (const int64_t[]){9, -1, 0, 3}, &b3);
  jg_array *o = NULL;
  JGT_OK(jg_array_indexed_option(&iv, content, &o, &jgt_err_));
  d = to_dev(o, st);
  device_roundtrip(d, st, "[9, None, 0, 3]");
  jg_array_release(d);
  jg_array_release(o);

  /* bit-masked (msb order) sliced off a byte boundary: the realign kernel. */
  jg_buffer *b4 = NULL;
  jg_view mv = vec(JG_DTYPE_UINT8, 2, (const uint8_t[]){0xA5, 0x80}, &b4);
  jg_array *bm = NULL;
  JGT_OK(jg_array_bit_masked(&mv, true, false, 10, content, &bm, &jgt_err_));
  jg_array *bms = NULL;
  JGT_OK(jg_array_slice(bm, 3, 9, &bms, &jgt_err_));
  /* msb bits of 0xA5 0x80: 1 0 1 0 0 1 0 1 | 1 0 -> entries 3..8: 0 0 1 0 1 1 */
  d = to_dev(bms, st);
  device_roundtrip(d, st, "[None, None, 5, None, 7, 8]");
  jg_array_release(d);
  jg_array_release(bms);
  jg_array_release(bm);

  /* strided numeric data: compaction on the device. */
  jg_view cv;
  JGT_OK(jg_array_buffer(content, 0, &cv, &jgt_err_));
  const jg_slice step = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, 3);
  jg_view strided;
  JGT_OK(jg_view_slice(&strided, &cv, 1, &step, &jgt_err_));
  jg_array *sa = NULL;
  JGT_OK(jg_array_numeric(&strided, &sa, &jgt_err_));
  d = to_dev(sa, st);
  jg_array_release(sa);
  jg_view dv;
  JGT_OK(jg_array_buffer(d, 0, &dv, &jgt_err_));
  if (dv.layout.strides[0] != 1) {
    struct ArrowSchema s;
    struct ArrowDeviceArray da;
    JGT_OK(jg_array_export_arrow_device(d, st, &s, &da, &jgt_err_));
    CUDA_OK(cudaEventSynchronize(*(cudaEvent_t *)da.sync_event));
    int64_t out[4];
    CUDA_OK(cudaMemcpy(out, da.array.buffers[1], sizeof out, cudaMemcpyDeviceToHost));
    assert_int_equal(out[0], 0);
    assert_int_equal(out[3], 9);
    da.array.release(&da.array);
    s.release(&s);
  }
  device_roundtrip(d, st, "[0, 3, 6, 9]");
  jg_array_release(d);

  /* Empty and zero-length arrays. */
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  d = to_dev(e, st);
  device_roundtrip(d, st, "[]");
  jg_array_release(d);
  jg_array_release(e);

  jg_array_release(content);
  jg_buffer_release(b1);
  jg_buffer_release(b2);
  jg_buffer_release(b3);
  jg_buffer_release(b4);
  jg_stream_destroy(st);
}

/* ------------------------------------------------------------------------------------------ */
/* Import of hand-built device arrays                                                          */
/* ------------------------------------------------------------------------------------------ */

static int g_releases;

typedef struct hnode {
  struct ArrowSchema s;
  struct ArrowArray a;
  const void *bufs[3];
  struct ArrowSchema *cs[2];
  struct ArrowArray *ca[2];
} hnode;

static void child_schema_release(struct ArrowSchema *s) {
  s->release = NULL;
}
static void child_array_release(struct ArrowArray *a) {
  for (int64_t k = 0; k < a->n_children; ++k)
    if (a->children[k]->release != NULL) a->children[k]->release(a->children[k]);
  a->release = NULL;
}
static void root_schema_release(struct ArrowSchema *s) {
  for (int64_t k = 0; k < s->n_children; ++k) s->children[k]->release = NULL;
  s->release = NULL;
}
static void root_array_release(struct ArrowArray *a) {
  child_array_release(a);
  ++g_releases;
}

static void hinit(hnode *h, const char *format, int64_t length, int64_t offset, int64_t n_buffers,
                  const void *b0, const void *b1) {
  memset(h, 0, sizeof *h);
  h->bufs[0] = b0;
  h->bufs[1] = b1;
  h->s.format = format;
  h->s.release = child_schema_release;
  h->s.children = h->cs;
  h->a.length = length;
  h->a.offset = offset;
  h->a.n_buffers = n_buffers;
  h->a.buffers = h->bufs;
  h->a.children = h->ca;
  h->a.release = child_array_release;
}

static void hadd(hnode *h, hnode *c) {
  h->cs[h->s.n_children++] = &c->s;
  h->ca[h->a.n_children++] = &c->a;
}

static void hroot(hnode *h, struct ArrowDeviceArray *da, ArrowDeviceType type, int64_t id,
                  void *sync_event) {
  h->s.release = root_schema_release;
  h->a.release = root_array_release;
  memset(da, 0, sizeof *da);
  da->array = h->a; /* moved into the device array */
  h->a.release = NULL;
  da->device_type = type;
  da->device_id = id;
  da->sync_event = sync_event;
  g_releases = 0;
}

typedef struct slow_fill {
  double *pinned;
  int n;
} slow_fill;

/* A host function on the producer stream: sleeps, then writes the values the copy after it will
 * move to the device. Without the consumer's wait on the event, the consumer would read the
 * device buffer before that copy. */
static void CUDART_CB slow_fill_fn(void *p) {
  slow_fill *f = (slow_fill *)p;
  const struct timespec ts = {0, 200 * 1000 * 1000};
  nanosleep(&ts, NULL);
  for (int i = 0; i < f->n; ++i) f->pinned[i] = 10.0 + i;
}

static void test_import_device_waits_event(void **state) {
  (void)state;
  jg_stream producer = NULL;
  jg_stream consumer = NULL;
  JGT_OK(jg_stream_create(&producer, &jgt_err_));
  JGT_OK(jg_stream_create(&consumer, &jgt_err_));
  /* list<double>: offsets [0, 2, 2, 4] (int32), values written late by the producer. */
  const int32_t hofs[] = {0, 2, 2, 4};
  int32_t *dofs = NULL;
  double *dvals = NULL;
  double *pinned = NULL;
  CUDA_OK(cudaMalloc((void **)&dofs, sizeof hofs));
  CUDA_OK(cudaMalloc((void **)&dvals, 4 * sizeof(double)));
  CUDA_OK(cudaMallocHost((void **)&pinned, 4 * sizeof(double)));
  CUDA_OK(cudaMemcpy(dofs, hofs, sizeof hofs, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dvals, 0, 4 * sizeof(double)));
  slow_fill fill = {pinned, 4};
  CUDA_OK(cudaLaunchHostFunc((cudaStream_t)producer, slow_fill_fn, &fill));
  CUDA_OK(cudaMemcpyAsync(dvals, pinned, 4 * sizeof(double), cudaMemcpyHostToDevice,
                          (cudaStream_t)producer));
  cudaEvent_t ev;
  CUDA_OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  CUDA_OK(cudaEventRecord(ev, (cudaStream_t)producer));

  hnode l;
  hnode c;
  hinit(&l, "+l", 3, 0, 2, NULL, dofs);
  hinit(&c, "g", 4, 0, 2, NULL, dvals);
  hadd(&l, &c);
  struct ArrowDeviceArray da;
  hroot(&l, &da, ARROW_DEVICE_CUDA, 0, &ev);
  jg_array *a = NULL;
  JGT_OK(jg_array_import_arrow_device(&l.s, &da, consumer, &a, &jgt_err_));
  assert_null(da.array.release);
  l.s.release(&l.s);
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  jg_view ov;
  JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
  assert_ptr_equal(jg_view_data(&ov), dofs); /* zero-copy */
  /* jg_array_to_host copies on the consumer stream, which waits on the producer's event. */
  jg_array *h = NULL;
  JGT_OK(jg_array_to_host(a, consumer, &h, &jgt_err_));
  char out[256];
  JGT_OK(jg_array_to_string(h, 0, out, sizeof out, NULL, &jgt_err_));
  assert_string_equal(out, "[[10, 11], [], [12, 13]]");
  jg_array_release(h);
  assert_int_equal(g_releases, 0);
  jg_array_release(a);
  assert_int_equal(g_releases, 1);

  CUDA_OK(cudaStreamSynchronize((cudaStream_t)producer));
  CUDA_OK(cudaEventDestroy(ev));
  CUDA_OK(cudaFree(dofs));
  CUDA_OK(cudaFree(dvals));
  CUDA_OK(cudaFreeHost(pinned));
  jg_stream_destroy(producer);
  jg_stream_destroy(consumer);
}

static void test_import_device_new_buffers(void **state) {
  (void)state;
  jg_stream st = NULL;
  JGT_OK(jg_stream_create(&st, &jgt_err_));
  /* "b" with offset 3, length 6 over bits 0b01011000 0b00000011: bits 3..8 = 1 1 0 1 0 1. */
  const uint8_t hbits[] = {0x58, 0x03};
  uint8_t *dbits = NULL;
  CUDA_OK(cudaMalloc((void **)&dbits, sizeof hbits));
  CUDA_OK(cudaMemcpy(dbits, hbits, sizeof hbits, cudaMemcpyHostToDevice));
  hnode h;
  hinit(&h, "b", 6, 3, 2, NULL, dbits);
  struct ArrowDeviceArray da;
  hroot(&h, &da, ARROW_DEVICE_CUDA, 0, NULL);
  jg_array *a = NULL;
  JGT_OK(jg_array_import_arrow_device(&h.s, &da, st, &a, &jgt_err_));
  assert_int_equal(g_releases, 1); /* unpacked (and synchronised): nothing points into it */
  assert_string_equal(str(a, st), "[True, True, False, True, False, True]");
  jg_array_release(a);

  /* null type of length 2 and an offsets-less empty list, made on the device. */
  hinit(&h, "n", 2, 0, 0, NULL, NULL);
  hroot(&h, &da, ARROW_DEVICE_CUDA, 0, NULL);
  JGT_OK(jg_array_import_arrow_device(&h.s, &da, st, &a, &jgt_err_));
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  assert_string_equal(str(a, st), "[None, None]");
  jg_array_release(a);
  hnode c;
  hinit(&h, "+L", 0, 0, 2, NULL, NULL);
  hinit(&c, "g", 0, 0, 2, NULL, NULL);
  hadd(&h, &c);
  hroot(&h, &da, ARROW_DEVICE_CUDA, 0, NULL);
  JGT_OK(jg_array_import_arrow_device(&h.s, &da, st, &a, &jgt_err_));
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  assert_string_equal(str(a, st), "[]");
  jg_array_release(a);

  /* Errors take nothing: a negative or unknown CUDA device id. */
  hinit(&h, "b", 6, 3, 2, NULL, dbits);
  hroot(&h, &da, ARROW_DEVICE_CUDA, -1, NULL);
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_import_arrow_device(&h.s, &da, st, &a, &err));
  assert_non_null(da.array.release);
  da.device_id = 4096;
  JGT_STATUS(JG_EINDEX, jg_array_import_arrow_device(&h.s, &da, st, &a, &err));
  assert_non_null(da.array.release);
  da.array.release(&da.array);
  assert_int_equal(g_releases, 1);
  CUDA_OK(cudaFree(dbits));
  jg_stream_destroy(st);
}

static void test_import_cuda_host(void **state) {
  (void)state;
  /* Pinned memory (ARROW_DEVICE_CUDA_HOST) becomes a cpu array, after the event. */
  int64_t *pinned = NULL;
  CUDA_OK(cudaMallocHost((void **)&pinned, 3 * sizeof(int64_t)));
  pinned[0] = 4;
  pinned[1] = 5;
  pinned[2] = 6;
  cudaEvent_t ev;
  CUDA_OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  CUDA_OK(cudaEventRecord(ev, NULL));
  hnode h;
  hinit(&h, "l", 2, 1, 2, NULL, pinned);
  struct ArrowDeviceArray da;
  hroot(&h, &da, ARROW_DEVICE_CUDA_HOST, 0, &ev);
  jg_array *a = NULL;
  JGT_OK(jg_array_import_arrow_device(&h.s, &da, NULL, &a, &jgt_err_));
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CPU);
  char out[64];
  JGT_OK(jg_array_to_string(a, 0, out, sizeof out, NULL, &jgt_err_));
  assert_string_equal(out, "[5, 6]");
  jg_array_release(a);
  assert_int_equal(g_releases, 1);
  CUDA_OK(cudaEventDestroy(ev));
  CUDA_OK(cudaFreeHost(pinned));
}

static void test_export_host_array_needs_device_call(void **state) {
  (void)state;
  jg_array *h = muons_host();
  jg_array *d = to_dev(h, NULL);
  struct ArrowSchema s;
  struct ArrowArray a;
  jg_error err;
  JGT_STATUS(JG_EBACKEND, jg_array_export_arrow(d, &s, &a, &err));
  JGT_CONTAINS(err.message, "cuda:0");
  JGT_CONTAINS(err.message, "jg_array_export_arrow_device");
  assert_null(s.release);
  assert_null(a.release);
  jg_array_release(d);
  jg_array_release(h);
}
#endif

int main(void) {
  JGT_REQUIRE_GPU();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_export_device_structs),
      cmocka_unit_test(test_export_device_conversions),
      cmocka_unit_test(test_import_device_waits_event),
      cmocka_unit_test(test_import_device_new_buffers),
      cmocka_unit_test(test_import_cuda_host),
      cmocka_unit_test(test_export_host_array_needs_device_call),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
#else
  return 77;
#endif
}
