/* test_dlpack_gpu.c: DLPack and CUDA Array Interface exchange of device, managed and pinned
 * memory on a real GPU. Skips (exit 77) without a usable device. Values are read back with
 * cudaMemcpy; expected values are worked out by hand (NumPy slicing semantics). */
#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#define CUDA_OK(expr) assert_int_equal((int)(expr), (int)cudaSuccess)

static int current_device(void) {
  int id = -1;
  JGT_OK(jg_device_get_current(&id, NULL));
  return id;
}

static float read_float(const void *p) {
  float x = -1.0f;
  CUDA_OK(cudaMemcpy(&x, p, sizeof x, cudaMemcpyDefault));
  return x;
}

/* Address of element `idx` of a view, by the documented formula. */
static const char *elem(const jg_view *v, const jg_len *idx) {
  int64_t off = v->layout.slice_offset;
  for (int k = 0; k < v->layout.ndim; ++k) off += idx[k] * v->layout.strides[k];
  return (const char *)v->base + off * v->layout.itemsize;
}

/* a = arange(24, dtype=float32).reshape(4, 6) in memory from `mr`; b = a[1:, ::-2] has shape
 * (3, 3), strides (6, -2), slice offset 6 + 5 = 11, and b[i, j] = 6 * (i + 1) + 5 - 2 * j.
 * Export b as DLPack, check the tensor, import it back and read every element. */
static void dlpack_roundtrip(jg_memory_resource *mr, int32_t dl_type, int32_t dl_id,
                             jg_device_type type, int32_t id, bool host_accessible) {
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_allocate(mr, 24 * sizeof(float), NULL, &buf, NULL));
  char *base = (char *)jg_buffer_data(buf);
  float h[24];
  for (int i = 0; i < 24; ++i) h[i] = (float)i;
  CUDA_OK(cudaMemcpy(base, h, sizeof h, cudaMemcpyDefault));

  jg_layout layout;
  const jg_len shape[2] = {4, 6};
  JGT_OK(jg_layout_init(&layout, 2, shape, NULL, 4, NULL));
  jg_view a;
  JGT_OK(jg_view_from_buffer(&a, buf, &layout, JG_DTYPE_FLOAT32, false, NULL));
  assert_int_equal(a.device.type, type);
  const jg_slice sl[2] = {JG_SLICE(1, JG_SLICE_NONE, JG_SLICE_NONE),
                          JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -2)};
  jg_view b;
  JGT_OK(jg_view_slice(&b, &a, 2, sl, NULL));
  assert_int_equal(b.layout.slice_offset, 11);

  DLManagedTensorVersioned *t = NULL;
  JGT_OK(jg_dlpack_export_versioned(&b, buf, &t, NULL));
  jg_buffer_release(buf); /* the export keeps it alive */
  assert_int_equal(t->dl_tensor.device.device_type, dl_type);
  assert_int_equal(t->dl_tensor.device.device_id, dl_id);
  assert_ptr_equal(t->dl_tensor.data, base + 11 * 4);
  assert_int_equal(t->dl_tensor.byte_offset, 0);
  assert_int_equal(t->dl_tensor.shape[0], 3);
  assert_int_equal(t->dl_tensor.shape[1], 3);
  assert_int_equal(t->dl_tensor.strides[0], 6);
  assert_int_equal(t->dl_tensor.strides[1], -2);
  assert_int_equal(t->dl_tensor.dtype.code, kDLFloat);
  assert_int_equal(t->dl_tensor.dtype.bits, 32);

  jg_buffer *imported = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(t, &imported, &w, NULL));
  assert_int_equal(w.device.type, type);
  assert_int_equal(w.device.id, id);
  assert_true(w.device_accessible);
  assert_int_equal(w.host_accessible, host_accessible);
  /* Lowest element b[0, 2] = a[1, 1] at offset 7; b[0, 0] is 4 elements above it. */
  assert_ptr_equal(w.base, base + 7 * 4);
  assert_int_equal(w.layout.slice_offset, 4);
  assert_int_equal(jg_buffer_size(imported), (23 - 7 + 1) * 4);
  for (jg_len i = 0; i < 3; ++i) {
    for (jg_len j = 0; j < 3; ++j) {
      const jg_len idx[2] = {i, j};
      assert_true(read_float(elem(&w, idx)) == (float)(6 * (i + 1) + 5 - 2 * j));
    }
  }
  if (host_accessible) {
    CUDA_OK(cudaDeviceSynchronize());
    const jg_len idx[2] = {2, 1};
    assert_true(*(const float *)elem(&w, idx) == 21.0f); /* direct host read */
  }

  /* The legacy path, too. */
  DLManagedTensor *tl = NULL;
  JGT_OK(jg_dlpack_export_legacy(&w, imported, &tl, NULL));
  assert_int_equal(tl->dl_tensor.device.device_type, dl_type);
  assert_int_equal(tl->dl_tensor.device.device_id, dl_id);
  assert_ptr_equal(tl->dl_tensor.data, base + 11 * 4);
  jg_buffer_release(imported); /* the legacy export still holds it */
  jg_buffer *again = NULL;
  jg_view x;
  JGT_OK(jg_dlpack_import_legacy(tl, &again, &x, NULL));
  const jg_len idx11[2] = {1, 1};
  assert_true(read_float(elem(&x, idx11)) == 15.0f);
  /* Last reference: legacy deleter -> imported buffer -> versioned deleter -> device buffer. */
  jg_buffer_release(again);
}

static void test_dlpack_device(void **state) {
  (void)state;
  const int cur = current_device();
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_device(cur, &mr, NULL));
  dlpack_roundtrip(mr, kDLCUDA, cur, JG_DEVICE_CUDA, cur, false);
}

static void test_dlpack_managed(void **state) {
  (void)state;
  const int cur = current_device();
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_managed(cur, &mr, NULL));
  /* Managed is exported as kDLCUDAManaged (never as pinned), device_id 0. */
  dlpack_roundtrip(mr, kDLCUDAManaged, 0, JG_DEVICE_CUDA_MANAGED, 0, true);
}

static void test_dlpack_pinned(void **state) {
  (void)state;
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_pinned(&mr, NULL));
  dlpack_roundtrip(mr, kDLCUDAHost, 0, JG_DEVICE_CUDA_HOST, 0, true);
}

/* A device array handed to a consumer as CAI gets its device from the pointer attributes. */
static void cai_roundtrip(jg_memory_resource *mr, jg_device_type type, bool check_id) {
  const int cur = current_device();
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_allocate(mr, 24 * sizeof(float), NULL, &buf, NULL));
  char *base = (char *)jg_buffer_data(buf);
  float h[24];
  for (int i = 0; i < 24; ++i) h[i] = (float)i;
  CUDA_OK(cudaMemcpy(base, h, sizeof h, cudaMemcpyDefault));
  jg_layout layout;
  const jg_len shape[2] = {4, 6};
  JGT_OK(jg_layout_init(&layout, 2, shape, NULL, 4, NULL));
  jg_view a;
  JGT_OK(jg_view_from_buffer(&a, buf, &layout, JG_DTYPE_FLOAT32, false, NULL));

  /* Whole array: C-contiguous, strides None. */
  jg_cai c;
  JGT_OK(jg_view_to_cai(&a, &c, NULL));
  assert_int_equal(c.data, (uintptr_t)base);
  assert_false(c.has_strides);
  assert_string_equal(c.typestr, "<f4");
  jg_view w;
  JGT_OK(jg_view_from_cai(&c, &w, NULL));
  assert_int_equal(w.device.type, type);
  if (check_id) assert_int_equal(w.device.id, cur);
  assert_true(w.device_accessible);
  assert_ptr_equal(w.base, base);
  assert_null(w.buffer);

  /* a[1:, ::-2]: byte strides (24, -8), data at a[1, 5]. */
  const jg_slice sl[2] = {JG_SLICE(1, JG_SLICE_NONE, JG_SLICE_NONE),
                          JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -2)};
  jg_view b;
  JGT_OK(jg_view_slice(&b, &a, 2, sl, NULL));
  JGT_OK(jg_view_to_cai(&b, &c, NULL));
  assert_int_equal(c.data, (uintptr_t)(base + 11 * 4));
  assert_true(c.has_strides);
  assert_int_equal(c.strides[0], 24);
  assert_int_equal(c.strides[1], -8);
  JGT_OK(jg_view_from_cai(&c, &w, NULL));
  assert_int_equal(w.device.type, type);
  if (check_id) assert_int_equal(w.device.id, cur);
  assert_ptr_equal(w.base, base + 7 * 4);
  for (jg_len i = 0; i < 3; ++i) {
    for (jg_len j = 0; j < 3; ++j) {
      const jg_len idx[2] = {i, j};
      assert_true(read_float(elem(&w, idx)) == (float)(6 * (i + 1) + 5 - 2 * j));
    }
  }
  jg_buffer_release(buf);
}

static void test_cai_device(void **state) {
  (void)state;
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_device(current_device(), &mr, NULL));
  cai_roundtrip(mr, JG_DEVICE_CUDA, true);
}

static void test_cai_managed(void **state) {
  (void)state;
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_managed(current_device(), &mr, NULL));
  cai_roundtrip(mr, JG_DEVICE_CUDA_MANAGED, false);
}

static void test_cai_pinned(void **state) {
  (void)state;
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_pinned(&mr, NULL));
  cai_roundtrip(mr, JG_DEVICE_CUDA_HOST, false);
}

/* A zero-size CAI array with ptr 0 takes the current device, without a pointer query. */
static void test_cai_zero_size(void **state) {
  (void)state;
  jg_cai c;
  memset(&c, 0, sizeof c);
  c.version = 3;
  snprintf(c.typestr, sizeof c.typestr, "<f4");
  c.ndim = 1;
  c.shape[0] = 0;
  jg_view w;
  JGT_OK(jg_view_from_cai(&c, &w, NULL));
  assert_int_equal(w.device.type, JG_DEVICE_CUDA);
  assert_int_equal(w.device.id, current_device());
  assert_null(w.base);
}

/* The consumer stream waits for the producer's declared stream: a large memset on the producer
 * stream must be complete when a copy enqueued on the consumer stream reads the memory. */
static void test_cai_wait(void **state) {
  (void)state;
  const size_t n = (size_t)64 << 20;
  unsigned char *d = NULL;
  unsigned char *h = NULL;
  CUDA_OK(cudaMalloc((void **)&d, n));
  CUDA_OK(cudaMallocHost((void **)&h, n));
  CUDA_OK(cudaMemset(d, 0, n));
  CUDA_OK(cudaDeviceSynchronize());
  jg_stream producer = NULL;
  jg_stream consumer = NULL;
  JGT_OK(jg_stream_create(&producer, NULL));
  JGT_OK(jg_stream_create(&consumer, NULL));
  for (int round = 0; round < 4; ++round) {
    const unsigned char v = (unsigned char)(0x51 + round);
    CUDA_OK(cudaMemsetAsync(d, v, n, (cudaStream_t)producer));
    jg_cai c;
    memset(&c, 0, sizeof c);
    c.version = 3;
    c.has_stream = true;
    c.stream = (intptr_t)producer;
    JGT_OK(jg_cai_wait_async(&c, consumer, NULL));
    CUDA_OK(cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, (cudaStream_t)consumer));
    JGT_OK(jg_stream_synchronize(consumer, NULL));
    for (size_t i = 0; i < n; i += 4093) assert_int_equal(h[i], v);
    assert_int_equal(h[n - 1], v);
  }
  /* Sentinels and the same-stream shortcut. */
  jg_cai c;
  memset(&c, 0, sizeof c);
  c.version = 3;
  c.has_stream = true;
  c.stream = JG_CAI_STREAM_LEGACY;
  JGT_OK(jg_cai_wait_async(&c, consumer, NULL));
  c.stream = JG_CAI_STREAM_PER_THREAD;
  JGT_OK(jg_cai_wait_async(&c, consumer, NULL));
  JGT_OK(jg_cai_wait_async(&c, NULL, NULL));
  c.stream = (intptr_t)consumer;
  JGT_OK(jg_cai_wait_async(&c, consumer, NULL));
  JGT_OK(jg_stream_synchronize(consumer, NULL));
  jg_stream_destroy(producer);
  jg_stream_destroy(consumer);
  CUDA_OK(cudaFreeHost(h));
  CUDA_OK(cudaFree(d));
}
#endif

int main(void) {
  JGT_REQUIRE_GPU();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dlpack_device), cmocka_unit_test(test_dlpack_managed),
      cmocka_unit_test(test_dlpack_pinned), cmocka_unit_test(test_cai_device),
      cmocka_unit_test(test_cai_managed),   cmocka_unit_test(test_cai_pinned),
      cmocka_unit_test(test_cai_zero_size), cmocka_unit_test(test_cai_wait),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
#else
  return 77;
#endif
}
