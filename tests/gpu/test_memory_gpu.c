/* test_memory_gpu.c: devices, streams, CUDA memory resources and pointer attributes on a real
 * GPU. Skips (exit 77) without a usable device. Expected values come from the CUDA runtime
 * queried directly (cudaDeviceGetAttribute, cudaHostGetDevicePointer) or from the CUDA docs. */
#define _POSIX_C_SOURCE 200809L

#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#define CUDA_OK(expr) assert_int_equal((int)(expr), (int)cudaSuccess)

static int device_count(void) {
  int n = 0;
  JGT_OK(jg_device_count(&n, NULL));
  return n;
}

static int attr(enum cudaDeviceAttr a, int dev) {
  int v = -1;
  CUDA_OK(cudaDeviceGetAttribute(&v, a, dev));
  return v;
}

/* Asserts that every byte of `n` bytes of device-accessible memory at `p` equals `v`. */
static void expect_bytes_on_device(const void *p, size_t n, unsigned char v) {
  unsigned char *h = malloc(n);
  assert_non_null(h);
  CUDA_OK(cudaMemcpy(h, p, n, cudaMemcpyDefault));
  for (size_t i = 0; i < n; ++i) {
    if (h[i] != v) {
      print_error("byte %zu is %u, expected %u\n", i, h[i], v);
      fail();
    }
  }
  free(h);
}

/* ------------------------------------------------------------------------------------------ */
/* Devices and streams                                                                         */
/* ------------------------------------------------------------------------------------------ */

static void test_properties(void **state) {
  (void)state;
  jg_device_properties p;
  memset(&p, 0xcd, sizeof p);
  JGT_OK(jg_device_get_properties(0, &p, NULL));
  assert_int_equal(p.version, sizeof p);
  assert_int_equal(p.id, 0);
  assert_true(strlen(p.name) > 0);
  assert_true(strlen(p.name) < sizeof p.name);
  assert_true(p.cc_major >= 7);
  assert_int_equal(p.cc_major, attr(cudaDevAttrComputeCapabilityMajor, 0));
  assert_int_equal(p.cc_minor, attr(cudaDevAttrComputeCapabilityMinor, 0));
  assert_true(p.total_memory > 0);
  size_t free_b = 0, total_b = 0;
  CUDA_OK(cudaSetDevice(0));
  CUDA_OK(cudaMemGetInfo(&free_b, &total_b));
  /* cudaMemGetInfo's total may leave out memory reserved by the driver: within 10% */
  assert_true(p.total_memory >= (uint64_t)1 << 30);
  assert_true(p.total_memory >= total_b - total_b / 10 && p.total_memory <= total_b + total_b / 10);
  assert_int_equal(p.multiprocessors, attr(cudaDevAttrMultiProcessorCount, 0));
  assert_true(p.multiprocessors > 0);
  assert_int_equal(p.warp_size, 32);
  assert_int_equal(p.max_threads_per_block, 1024);
  assert_int_equal(p.shared_memory_per_block, 48 * 1024); /* default limit since Kepler */
  assert_int_equal(p.memory_pools_supported, attr(cudaDevAttrMemoryPoolsSupported, 0) != 0);
  assert_int_equal(p.managed_memory, attr(cudaDevAttrManagedMemory, 0) != 0);
  assert_int_equal(p.can_use_host_pointer_for_registered_mem,
                   attr(cudaDevAttrCanUseHostPointerForRegisteredMem, 0) != 0);
  assert_int_equal(p.pci_bus_id, attr(cudaDevAttrPciBusId, 0));
  for (size_t i = 0; i < sizeof p.reserved; ++i) assert_int_equal(p.reserved[i], 0);

  int n = device_count();
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINDEX, jg_device_get_properties(n, &p, &err));
  assert_int_equal(err.index, n);
  JGT_STATUS(JG_EINDEX, jg_device_get_properties(-1, &p, &err));
  assert_int_equal(err.index, -1);
  JGT_CONTAINS(err.message, "device -1 does not exist");
  assert_string_equal(jg_cuda_unavailable_reason(), "");
}

static void test_current_device(void **state) {
  (void)state;
  int n = device_count();
  int id = -1;
  JGT_OK(jg_device_set_current(0, NULL));
  JGT_OK(jg_device_get_current(&id, NULL));
  assert_int_equal(id, 0);
  int cuda_cur = -1;
  CUDA_OK(cudaGetDevice(&cuda_cur));
  assert_int_equal(cuda_cur, 0);
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINDEX, jg_device_set_current(n, &err));
  assert_int_equal(err.index, n);
  JGT_STATUS(JG_EINDEX, jg_device_set_current(-3, &err));
  JGT_OK(jg_device_get_current(&id, NULL));
  assert_int_equal(id, 0); /* unchanged by the failures */
  if (n >= 2) {
    JGT_OK(jg_device_set_current(n - 1, NULL));
    JGT_OK(jg_device_get_current(&id, NULL));
    assert_int_equal(id, n - 1);
    JGT_OK(jg_device_set_current(0, NULL));
  }
}

static void test_streams(void **state) {
  (void)state;
  jg_stream s = NULL;
  JGT_OK(jg_stream_create(&s, NULL));
  assert_non_null(s);
  unsigned int flags = 0;
  CUDA_OK(cudaStreamGetFlags((cudaStream_t)s, &flags));
  assert_int_equal(flags, cudaStreamNonBlocking);
  void *d = NULL;
  CUDA_OK(cudaMalloc(&d, 1 << 20));
  CUDA_OK(cudaMemsetAsync(d, 0x11, 1 << 20, (cudaStream_t)s));
  JGT_OK(jg_stream_synchronize(s, NULL));
  CUDA_OK(cudaStreamQuery((cudaStream_t)s)); /* nothing pending after synchronize */
  expect_bytes_on_device(d, 1 << 20, 0x11);
  CUDA_OK(cudaFree(d));
  JGT_OK(jg_stream_synchronize(NULL, NULL));
  jg_stream_destroy(s);
  jg_stream_destroy(NULL);
  JGT_STATUS(JG_EINVAL, jg_stream_create(NULL, NULL));
}

/* ------------------------------------------------------------------------------------------ */
/* Resources                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void test_device_resource(void **state) {
  (void)state;
  JGT_OK(jg_device_set_current(0, NULL));
  jg_memory_resource *mr = NULL, *again = NULL;
  JGT_OK(jg_memory_resource_device(0, &mr, NULL));
  JGT_OK(jg_memory_resource_device(0, &again, NULL));
  assert_ptr_equal(mr, again);
  assert_int_equal(mr->kind, JG_MEMORY_DEVICE);
  assert_int_equal(mr->device.type, JG_DEVICE_CUDA);
  assert_int_equal(mr->device.id, 0);
  assert_false(mr->host_accessible);
  assert_true(mr->device_accessible);
  assert_false(mr->stream_ordered);

  const size_t n = (size_t)1 << 20;
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(mr, n, NULL, &b, NULL));
  void *d = jg_buffer_data(b);
  assert_non_null(d);
  assert_int_equal((uintptr_t)d % 256, 0);
  CUDA_OK(cudaMemset(d, 0xab, n));
  expect_bytes_on_device(d, n, 0xab);

  jg_pointer_attributes a;
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA);
  assert_int_equal(a.device.id, 0);
  assert_false(a.host_accessible);
  assert_true(a.device_accessible);
  assert_false(a.is_managed);
  assert_false(a.is_pinned);
  assert_false(a.is_pool);
  assert_null(a.host_pointer);
  assert_ptr_equal(a.device_pointer, d);

  /* the raw query agrees, also for an interior pointer */
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_pointer_get_attributes((char *)d + 100, 10, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA);
  assert_int_equal(a.device.id, 0);
  assert_false(a.host_accessible);
  assert_true(a.device_accessible);
  assert_false(a.is_managed);
  assert_false(a.is_pinned);
  assert_false(a.is_pool);
  assert_null(a.host_pointer);
  assert_ptr_equal(a.device_pointer, (char *)d + 100);
  jg_buffer_release(b);

  JGT_OK(jg_buffer_allocate(mr, 0, NULL, &b, NULL));
  assert_null(jg_buffer_data(b));
  jg_buffer_release(b);

  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINDEX, jg_memory_resource_device(device_count(), &mr, &err));
  assert_int_equal(err.index, device_count());

  /* another device: memory lands there, and the current device is restored */
  if (device_count() >= 2) {
    JGT_OK(jg_memory_resource_device(1, &mr, NULL));
    JGT_OK(jg_buffer_allocate(mr, 4096, NULL, &b, NULL));
    JGT_OK(jg_pointer_get_attributes(jg_buffer_data(b), 4096, &a, NULL));
    assert_int_equal(a.device.type, JG_DEVICE_CUDA);
    assert_int_equal(a.device.id, 1);
    int cur = -1;
    JGT_OK(jg_device_get_current(&cur, NULL));
    assert_int_equal(cur, 0);
    jg_buffer_release(b);
    JGT_OK(jg_device_get_current(&cur, NULL));
    assert_int_equal(cur, 0);
  }
}

static void test_device_out_of_memory(void **state) {
  (void)state;
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_device(0, &mr, NULL));
  jg_error err;
  jg_error_clear(&err);
  jg_buffer *b = (jg_buffer *)&err;
  const size_t huge = (size_t)1 << 50; /* 1 PiB */
  JGT_STATUS(JG_EDEVMEM, jg_buffer_allocate(mr, huge, NULL, &b, &err));
  assert_null(b);
  assert_int_equal(err.status, JG_EDEVMEM);
  JGT_CONTAINS(err.message, "1125899906842624 bytes");
  JGT_CONTAINS(err.message, "cudaErrorMemoryAllocation");
  JGT_CONTAINS(err.message, "device resource of CUDA device 0");
  /* not sticky: the next allocation works and the last error is clear */
  assert_int_equal((int)cudaGetLastError(), (int)cudaSuccess);
  JGT_OK(jg_buffer_allocate(mr, 1024, NULL, &b, NULL));
  jg_buffer_release(b);
}

static void test_pinned_resource(void **state) {
  (void)state;
  JGT_OK(jg_device_set_current(0, NULL));
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_pinned(&mr, NULL));
  assert_int_equal(mr->kind, JG_MEMORY_PINNED);
  assert_int_equal(mr->device.type, JG_DEVICE_CUDA_HOST);
  assert_true(mr->host_accessible);
  assert_true(mr->device_accessible);

  const size_t n = 4096 * 3;
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(mr, n, NULL, &b, NULL));
  unsigned char *h = jg_buffer_data(b);
  assert_non_null(h);
  memset(h, 0x3c, n); /* host-writable */
  expect_bytes_on_device(h, n, 0x3c);

  jg_pointer_attributes a;
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA_HOST);
  assert_true(a.host_accessible);
  assert_true(a.device_accessible);
  assert_true(a.is_pinned);
  assert_false(a.is_managed);
  assert_false(a.is_pool);
  assert_ptr_equal(a.host_pointer, h);

  void *dp = NULL;
  CUDA_OK(cudaHostGetDevicePointer(&dp, h, 0));
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_pointer_get_attributes(h, n, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA_HOST);
  assert_int_equal(a.device.id, 0); /* current at allocation */
  assert_true(a.host_accessible);
  assert_true(a.device_accessible);
  assert_true(a.is_pinned);
  assert_false(a.is_managed);
  assert_false(a.is_pool);
  assert_ptr_equal(a.host_pointer, h);
  assert_ptr_equal(a.device_pointer, dp);
  jg_buffer_release(b);
}

static void test_managed_resource(void **state) {
  (void)state;
  if (!attr(cudaDevAttrManagedMemory, 0)) skip();
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_managed(0, &mr, NULL));
  assert_int_equal(mr->kind, JG_MEMORY_MANAGED);
  assert_int_equal(mr->device.type, JG_DEVICE_CUDA_MANAGED);
  assert_int_equal(mr->device.id, 0);
  assert_true(mr->host_accessible);
  assert_true(mr->device_accessible);

  const size_t n = (size_t)1 << 20;
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(mr, n, NULL, &b, NULL));
  unsigned char *m = jg_buffer_data(b);
  assert_non_null(m);
  CUDA_OK(cudaMemset(m, 0x42, n));
  CUDA_OK(cudaDeviceSynchronize());
  for (size_t i = 0; i < n; i += 4093) assert_int_equal(m[i], 0x42); /* host reads */

  jg_pointer_attributes a;
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA_MANAGED);
  assert_int_equal(a.device.id, 0);
  assert_true(a.host_accessible);
  assert_true(a.device_accessible);
  assert_true(a.is_managed);
  assert_false(a.is_pinned);
  assert_false(a.is_pool);

  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_pointer_get_attributes(m, n, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA_MANAGED);
  assert_int_equal(a.device.id, 0);
  assert_true(a.host_accessible);
  assert_true(a.device_accessible);
  assert_true(a.is_managed);
  assert_false(a.is_pinned);
  assert_false(a.is_pool);
  assert_ptr_equal(a.host_pointer, m);
  assert_ptr_equal(a.device_pointer, m);
  jg_buffer_release(b);
}

static void test_pool_resource(void **state) {
  (void)state;
  if (!attr(cudaDevAttrMemoryPoolsSupported, 0)) skip();
  jg_pool_options opt;
  memset(&opt, 0, sizeof opt);
  opt.version = (uint32_t)sizeof opt;
  opt.release_threshold = (uint64_t)64 << 20;
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_pool_create(0, &opt, &mr, NULL));
  assert_non_null(mr);
  assert_int_equal(mr->kind, JG_MEMORY_DEVICE_POOL);
  assert_int_equal(mr->device.type, JG_DEVICE_CUDA);
  assert_int_equal(mr->device.id, 0);
  assert_false(mr->host_accessible);
  assert_true(mr->device_accessible);
  assert_true(mr->stream_ordered);

  jg_stream s = NULL;
  JGT_OK(jg_stream_create(&s, NULL));
  const size_t n = (size_t)1 << 20;
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(mr, n, s, &b, NULL));
  void *d = jg_buffer_data(b);
  assert_non_null(d);
  CUDA_OK(cudaMemsetAsync(d, 0x77, n, (cudaStream_t)s));
  unsigned char *h = malloc(n);
  assert_non_null(h);
  CUDA_OK(cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, (cudaStream_t)s));
  JGT_OK(jg_stream_synchronize(s, NULL));
  for (size_t i = 0; i < n; ++i) {
    if (h[i] != 0x77) fail_msg("byte %zu is %u", i, h[i]);
  }
  free(h);

  jg_pointer_attributes a;
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA);
  assert_int_equal(a.device.id, 0);
  assert_false(a.host_accessible);
  assert_true(a.device_accessible);
  assert_true(a.is_pool);
  assert_false(a.is_managed);
  assert_false(a.is_pinned);
  assert_ptr_equal(a.device_pointer, d);

  /* the raw query finds the pool through the driver's MEMPOOL_HANDLE attribute */
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_pointer_get_attributes(d, n, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA);
  assert_int_equal(a.device.id, 0);
  assert_false(a.host_accessible);
  assert_true(a.device_accessible);
  assert_true(a.is_pool);
  assert_ptr_equal(a.device_pointer, d);
  jg_buffer_release(b); /* cudaFreeAsync on s */

  /* a plain cudaMalloc pointer is not from a pool */
  void *plain = NULL;
  CUDA_OK(cudaMalloc(&plain, 256));
  JGT_OK(jg_pointer_get_attributes(plain, 256, &a, NULL));
  assert_false(a.is_pool);
  CUDA_OK(cudaFree(plain));

  /* deallocation stream changed to the legacy default stream */
  JGT_OK(jg_buffer_allocate(mr, 4096, s, &b, NULL));
  JGT_OK(jg_stream_synchronize(s, NULL));
  JGT_OK(jg_buffer_set_deallocation_stream(b, NULL, NULL));
  jg_buffer_release(b);
  JGT_OK(jg_stream_synchronize(NULL, NULL));

  /* impossible size from the pool */
  jg_error err;
  jg_error_clear(&err);
  b = (jg_buffer *)&err;
  JGT_STATUS(JG_EDEVMEM, jg_buffer_allocate(mr, (size_t)1 << 50, s, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "1125899906842624 bytes");
  JGT_CONTAINS(err.message, "device-pool resource of CUDA device 0");

  /* zero bytes: NULL, nothing enqueued */
  JGT_OK(jg_buffer_allocate(mr, 0, s, &b, NULL));
  assert_null(jg_buffer_data(b));
  jg_buffer_release(b);

  JGT_OK(jg_stream_synchronize(s, NULL));
  jg_stream_destroy(s);
  jg_memory_resource_destroy(mr);
}

/* The library's own pool: one per device, cached memory, ignored by destroy, trimmed on request. */
static void test_device_pool(void **state) {
  (void)state;
  if (!attr(cudaDevAttrMemoryPoolsSupported, 0)) skip();
  jg_memory_resource *mr = NULL, *again = NULL;
  JGT_OK(jg_memory_resource_device_pool(0, &mr, NULL));
  JGT_OK(jg_memory_resource_device_pool(0, &again, NULL));
  assert_ptr_equal(mr, again);
  assert_int_equal(mr->kind, JG_MEMORY_DEVICE_POOL);
  assert_int_equal(mr->device.type, JG_DEVICE_CUDA);
  assert_int_equal(mr->device.id, 0);
  assert_true(mr->stream_ordered);
  int count = 0;
  JGT_OK(jg_device_count(&count, NULL));
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINDEX, jg_memory_resource_device_pool(count, &again, &err));
  assert_null(again);

  jg_buffer *b = NULL;
  const size_t n = (size_t)8 << 20;
  JGT_OK(jg_buffer_allocate(mr, n, NULL, &b, NULL));
  void *first = jg_buffer_data(b);
  CUDA_OK(cudaMemsetAsync(first, 0x5a, n, 0));
  unsigned char h[16];
  CUDA_OK(cudaMemcpy(h, (char *)first + n - 16, 16, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 16; ++i) assert_int_equal(h[i], 0x5a);
  jg_pointer_attributes a;
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_true(a.is_pool);
  jg_buffer_release(b);
  CUDA_OK(cudaDeviceSynchronize());
  /* the memory stays cached: the next allocation of the same size reuses it */
  JGT_OK(jg_buffer_allocate(mr, n, NULL, &b, NULL));
  assert_ptr_equal(jg_buffer_data(b), first);
  size_t cached = 0;
  JGT_OK(jg_memory_resource_get_cached(mr, &cached, NULL));
  const size_t in_use_cached = cached; /* whatever else the pool holds */
  jg_buffer_release(b);
  CUDA_OK(cudaDeviceSynchronize());
  JGT_OK(jg_memory_resource_get_cached(mr, &cached, NULL));
  assert_true(cached >= in_use_cached + n); /* reserved minus used: the freed block */
  JGT_OK(jg_memory_resource_trim(mr, 0, NULL));
  JGT_OK(jg_memory_resource_get_cached(mr, &cached, NULL));
  assert_true(cached < n); /* handed back to the driver */
  jg_memory_resource_destroy(mr); /* ignored: library-owned */
  JGT_OK(jg_buffer_allocate(mr, 64, NULL, &b, NULL));
  jg_buffer_release(b);
  CUDA_OK(cudaDeviceSynchronize());
}

static void test_pool_max_size(void **state) {
  (void)state;
  if (!attr(cudaDevAttrMemoryPoolsSupported, 0)) skip();
  jg_pool_options opt;
  memset(&opt, 0, sizeof opt); /* version 0: the current size */
  opt.max_size = (uint64_t)64 << 20;
  jg_memory_resource *mr = NULL;
  JGT_OK(jg_memory_resource_pool_create(0, &opt, &mr, NULL));
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(mr, (size_t)1 << 20, NULL, &b, NULL));
  jg_buffer *big = NULL;
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EDEVMEM, jg_buffer_allocate(mr, (size_t)256 << 20, NULL, &big, &err));
  assert_null(big);
  JGT_CONTAINS(err.message, "268435456 bytes");
  jg_buffer_release(b);
  JGT_OK(jg_stream_synchronize(NULL, NULL));
  jg_memory_resource_destroy(mr);

  jg_error_clear(&err);
  JGT_STATUS(JG_EINDEX, jg_memory_resource_pool_create(device_count(), NULL, &mr, &err));
  assert_null(mr);
}

/* ------------------------------------------------------------------------------------------ */
/* Registered host memory: the same address changes class, attributes are cached per buffer    */
/* ------------------------------------------------------------------------------------------ */

static void test_registered_host_memory(void **state) {
  (void)state;
  JGT_OK(jg_device_set_current(0, NULL));
  const size_t n = (size_t)1 << 16;
  void *p = NULL;
  assert_int_equal(posix_memalign(&p, 4096, n), 0);
  memset(p, 0, n);

  jg_buffer *before = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(p, n, &before, NULL));
  jg_pointer_attributes a;
  JGT_OK(jg_buffer_attributes(before, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CPU);
  assert_true(a.host_accessible);
  assert_false(a.device_accessible);
  assert_false(a.is_pinned);
  assert_null(a.device_pointer);

  CUDA_OK(cudaHostRegister(p, n, cudaHostRegisterDefault));
  void *dp = NULL;
  CUDA_OK(cudaHostGetDevicePointer(&dp, p, 0));
  assert_non_null(dp);

  /* the old buffer keeps its cached answer */
  JGT_OK(jg_buffer_attributes(before, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CPU);
  assert_false(a.device_accessible);

  /* a new buffer over the same address sees registered memory with its device alias */
  jg_buffer *after = NULL;
  JGT_OK(jg_buffer_wrap_external(p, n, NULL, NULL, &after, NULL));
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_buffer_attributes(after, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA_HOST);
  assert_int_equal(a.device.id, 0);
  assert_true(a.host_accessible);
  assert_true(a.device_accessible);
  assert_true(a.is_pinned);
  assert_false(a.is_managed);
  assert_false(a.is_pool);
  assert_ptr_equal(a.host_pointer, p);
  assert_ptr_equal(a.device_pointer, dp);

  /* the alias works for device copies */
  CUDA_OK(cudaMemset(dp, 0x5e, n));
  CUDA_OK(cudaDeviceSynchronize());
  assert_int_equal(((unsigned char *)p)[n - 1], 0x5e);

  jg_buffer_release(after);
  jg_buffer_release(before);
  CUDA_OK(cudaHostUnregister(p));
  JGT_OK(jg_pointer_get_attributes(p, n, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CPU);
  assert_false(a.device_accessible);
  free(p);
}

static void test_null_and_host_with_gpu(void **state) {
  (void)state;
  jg_pointer_attributes a;
  JGT_OK(jg_pointer_get_attributes(NULL, 0, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CPU);
  assert_true(a.host_accessible);
  assert_false(a.device_accessible);
  int local = 0;
  JGT_OK(jg_pointer_get_attributes(&local, sizeof local, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CPU);
  assert_false(a.device_accessible);
  assert_ptr_equal(a.host_pointer, &local);
  assert_null(a.device_pointer);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_properties),
      cmocka_unit_test(test_current_device),
      cmocka_unit_test(test_streams),
      cmocka_unit_test(test_device_resource),
      cmocka_unit_test(test_device_out_of_memory),
      cmocka_unit_test(test_pinned_resource),
      cmocka_unit_test(test_managed_resource),
      cmocka_unit_test(test_pool_resource),
      cmocka_unit_test(test_device_pool),
      cmocka_unit_test(test_pool_max_size),
      cmocka_unit_test(test_registered_host_memory),
      cmocka_unit_test(test_null_and_host_with_gpu),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}

#else /* built without CUDA: nothing can run */

int main(void) {
  JGT_REQUIRE_GPU();
  return 0;
}

#endif
