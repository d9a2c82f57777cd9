/* test_memory.c: devices without a GPU, host and user memory resources, buffers and their
 * ownership modes, pointer attributes of host memory. Runs everywhere; asserts that need "no
 * usable GPU" are skipped when one is present. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>

#include "jg_test.h"

/* The out-of-memory tests ask for absurd sizes on purpose: let AddressSanitizer's allocator
 * return NULL instead of aborting. */
#if defined(__SANITIZE_ADDRESS__)
#define JGT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JGT_ASAN 1
#endif
#endif
#ifdef JGT_ASAN
const char *__asan_default_options(void);
__attribute__((visibility("default"), used)) const char *__asan_default_options(void) {
  return "allocator_may_return_null=1";
}
#endif

static bool have_gpu(void) {
  int n = -1;
  assert_int_equal(jg_device_count(&n, NULL), JG_OK);
  assert_true(n >= 0);
  return n > 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Statuses, devices and streams                                                               */
/* ------------------------------------------------------------------------------------------ */

struct init_result {
  int count;
  const char *reason;
  jg_status st;
};

static void *init_thread(void *arg) {
  struct init_result *r = arg;
  r->st = jg_device_count(&r->count, NULL);
  r->reason = jg_cuda_unavailable_reason();
  return NULL;
}

/* Must run first: many threads race to the one-time CUDA initialisation. */
static void test_concurrent_first_init(void **state) {
  (void)state;
  enum { N = 8 };
  pthread_t t[N];
  struct init_result r[N];
  memset(r, 0, sizeof r);
  for (int i = 0; i < N; ++i) assert_int_equal(pthread_create(&t[i], NULL, init_thread, &r[i]), 0);
  for (int i = 0; i < N; ++i) assert_int_equal(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < N; ++i) {
    assert_int_equal(r[i].st, JG_OK);
    assert_int_equal(r[i].count, r[0].count);
    assert_ptr_equal(r[i].reason, r[0].reason); /* one static string */
  }
}

static void test_status_names(void **state) {
  (void)state;
  assert_string_equal(jg_status_name(JG_ENODEV), "JG_ENODEV");
  assert_string_equal(jg_status_name(JG_EDEVMEM), "JG_EDEVMEM");
  assert_string_equal(jg_status_name(JG_ENOMEM), "JG_ENOMEM");
  assert_string_equal(jg_status_name(JG_EINDEX), "JG_EINDEX");
  assert_int_equal(JG_ENOMEM, 2);
  assert_int_equal(JG_EDEVMEM, 3);
  assert_int_equal(JG_ENODEV, 4);
  assert_string_equal(jg_status_str(JG_ENODEV), "no usable CUDA device or driver");
  assert_string_equal(jg_status_str(JG_EDEVMEM), "out of device memory");
}

static void test_cuda_compiled_matches_build(void **state) {
  (void)state;
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  assert_true(jg_cuda_compiled());
#else
  assert_false(jg_cuda_compiled());
  assert_false(have_gpu());
  assert_string_equal(jg_cuda_unavailable_reason(), "built without CUDA");
#endif
}

static void test_device_count(void **state) {
  (void)state;
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINVAL, jg_device_count(NULL, &err));
  assert_int_equal(err.status, JG_EINVAL);
  JGT_CONTAINS(err.message, "count is NULL");

  int n = -1;
  JGT_OK(jg_device_count(&n, NULL));
  const char *reason = jg_cuda_unavailable_reason();
  assert_non_null(reason);
  if (n > 0) {
    assert_string_equal(reason, "");
    return;
  }
  assert_int_equal(n, 0);
  assert_true(strlen(reason) > 0);
  /* a second call answers the same (initialised once) */
  int n2 = -1;
  JGT_OK(jg_device_count(&n2, NULL));
  assert_int_equal(n2, 0);
  assert_ptr_equal(jg_cuda_unavailable_reason(), reason);
}

/* Asserts status JG_ENODEV with the unavailability reason in the message. */
static void expect_enodev(jg_status st, const jg_error *err) {
  assert_int_equal(st, JG_ENODEV);
  assert_int_equal(err->status, JG_ENODEV);
  assert_int_equal(err->index, -1);
  JGT_CONTAINS(err->message, jg_cuda_unavailable_reason());
}

static void test_device_calls_without_gpu(void **state) {
  (void)state;
  jg_error err;
  jg_device_properties props;
  /* argument checks come first, GPU or not */
  jg_error_clear(&err);
  JGT_STATUS(JG_EINVAL, jg_device_get_properties(0, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_device_get_current(NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_stream_create(NULL, &err));
  if (have_gpu()) {
    skip();
  }
  jg_error_clear(&err);
  expect_enodev(jg_device_get_properties(0, &props, &err), &err);
  jg_error_clear(&err);
  int id = 12345;
  expect_enodev(jg_device_get_current(&id, &err), &err);
  assert_int_equal(id, 12345);
  jg_error_clear(&err);
  expect_enodev(jg_device_set_current(0, &err), &err);
  jg_error_clear(&err);
  jg_stream s = (jg_stream)&err;
  expect_enodev(jg_stream_create(&s, &err), &err);
  assert_null(s);
  /* a non-NULL stream cannot be synchronised; the default stream has nothing pending */
  jg_error_clear(&err);
  expect_enodev(jg_stream_synchronize((jg_stream)&err, &err), &err);
  JGT_OK(jg_stream_synchronize(NULL, NULL));
  jg_stream_destroy(NULL);
  /* NULL err is fine too */
  assert_int_equal(jg_device_set_current(0, NULL), JG_ENODEV);
}

static void test_cuda_resources_without_gpu(void **state) {
  (void)state;
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINVAL, jg_memory_resource_pinned(NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_memory_resource_device(0, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_memory_resource_managed(0, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_memory_resource_pool_create(0, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_memory_resource_device_pool(0, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_memory_resource_trim(NULL, 0, &err));
  /* trimming a resource that caches nothing does nothing */
  JGT_OK(jg_memory_resource_trim(jg_memory_resource_host(), 0, &err));
  /* a bad options version is an argument error before any device check */
  jg_pool_options opt;
  memset(&opt, 0, sizeof opt);
  opt.version = 3;
  jg_memory_resource *mr = jg_memory_resource_host();
  jg_error_clear(&err);
  JGT_STATUS(JG_EINVAL, jg_memory_resource_pool_create(0, &opt, &mr, &err));
  assert_null(mr);
  JGT_CONTAINS(err.message, "version is 3");
  if (have_gpu()) {
    skip();
  }
  mr = NULL;
  jg_error_clear(&err);
  expect_enodev(jg_memory_resource_pinned(&mr, &err), &err);
  assert_null(mr);
  jg_error_clear(&err);
  expect_enodev(jg_memory_resource_device(0, &mr, &err), &err);
  assert_null(mr);
  jg_error_clear(&err);
  expect_enodev(jg_memory_resource_managed(0, &mr, &err), &err);
  assert_null(mr);
  opt.version = 0;
  opt.release_threshold = 1 << 20;
  jg_error_clear(&err);
  expect_enodev(jg_memory_resource_pool_create(0, &opt, &mr, &err), &err);
  assert_null(mr);
  jg_error_clear(&err);
  opt.version = (uint32_t)sizeof opt;
  expect_enodev(jg_memory_resource_pool_create(0, &opt, &mr, &err), &err);
  jg_error_clear(&err);
  expect_enodev(jg_memory_resource_pool_create(0, NULL, &mr, &err), &err);
  assert_null(mr);
  jg_error_clear(&err);
  expect_enodev(jg_memory_resource_device_pool(0, &mr, &err), &err);
  assert_null(mr);
}

/* ------------------------------------------------------------------------------------------ */
/* Host resource                                                                               */
/* ------------------------------------------------------------------------------------------ */

static void test_host_resource(void **state) {
  (void)state;
  jg_memory_resource *mr = jg_memory_resource_host();
  assert_non_null(mr);
  assert_ptr_equal(jg_memory_resource_host(), mr);
  assert_int_equal(mr->version, sizeof(jg_memory_resource));
  assert_int_equal(mr->kind, JG_MEMORY_HOST);
  assert_int_equal(mr->device.type, JG_DEVICE_CPU);
  assert_int_equal(mr->device.id, 0);
  assert_true(mr->host_accessible);
  assert_false(mr->device_accessible);
  assert_false(mr->stream_ordered);

  const size_t sizes[] = {1, 3, 63, 64, 65, 1000, 4096, (size_t)1 << 20};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    jg_buffer *b = NULL;
    JGT_OK(jg_buffer_allocate(mr, sizes[i], NULL, &b, NULL));
    assert_non_null(b);
    assert_int_equal(jg_buffer_size(b), sizes[i]);
    assert_int_equal(jg_buffer_get_mode(b), JG_BUFFER_OWNED);
    assert_ptr_equal(jg_buffer_resource(b), mr);
    unsigned char *p = jg_buffer_data(b);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 64, 0);
    memset(p, 0x5a, sizes[i]); /* the whole span is writable (ASan checks the bounds) */
    assert_int_equal(p[sizes[i] - 1], 0x5a);

    jg_pointer_attributes a;
    memset(&a, 0xff, sizeof a);
    JGT_OK(jg_buffer_attributes(b, &a, NULL));
    assert_int_equal(a.device.type, JG_DEVICE_CPU);
    assert_int_equal(a.device.id, 0);
    assert_true(a.host_accessible);
    assert_false(a.device_accessible);
    assert_false(a.is_managed);
    assert_false(a.is_pinned);
    assert_false(a.is_pool);
    assert_ptr_equal(a.host_pointer, p);
    assert_null(a.device_pointer);
    jg_buffer_release(b);
  }

  /* size 0: valid, empty */
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(mr, 0, NULL, &b, NULL));
  assert_non_null(b);
  assert_int_equal(jg_buffer_size(b), 0);
  assert_null(jg_buffer_data(b));
  jg_buffer_release(b);

  /* the hook itself: larger alignments honoured, bad ones rejected */
  void *p = NULL;
  JGT_OK(mr->allocate(mr, 100, 4096, NULL, &p, NULL));
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % 4096, 0);
  mr->deallocate(mr, p, 100, NULL);
  JGT_OK(mr->allocate(mr, 8, 1, NULL, &p, NULL)); /* smaller alignment still gives 64 */
  assert_int_equal((uintptr_t)p % 64, 0);
  mr->deallocate(mr, p, 8, NULL);
  mr->deallocate(mr, NULL, 0, NULL); /* NULL is a no-op */
  jg_error err;
  jg_error_clear(&err);
  p = &err;
  JGT_STATUS(JG_EINVAL, mr->allocate(mr, 8, 48, NULL, &p, &err));
  assert_null(p);
  JGT_CONTAINS(err.message, "48 is not a power of two");
  JGT_STATUS(JG_EINVAL, mr->allocate(mr, 8, 0, NULL, &p, &err));
}

static void test_host_out_of_memory(void **state) {
  (void)state;
  jg_memory_resource *mr = jg_memory_resource_host();
  jg_error err;
  jg_buffer *b = (jg_buffer *)&err;
  jg_error_clear(&err);
  JGT_STATUS(JG_ENOMEM, jg_buffer_allocate(mr, SIZE_MAX / 2, NULL, &b, &err));
  assert_null(b);
  assert_int_equal(err.status, JG_ENOMEM);
  JGT_CONTAINS(err.message, "9223372036854775807 bytes"); /* SIZE_MAX / 2 on 64-bit */
  JGT_CONTAINS(err.message, "host resource");

  /* passes the size check and reaches posix_memalign, which cannot give 1 EiB */
  b = (jg_buffer *)&err;
  jg_error_clear(&err);
  JGT_STATUS(JG_ENOMEM, jg_buffer_allocate(mr, (size_t)1 << 60, NULL, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "1152921504606846976 bytes");
  JGT_CONTAINS(err.message, "posix_memalign");

  b = (jg_buffer *)&err;
  JGT_STATUS(JG_ENOMEM, jg_buffer_allocate(mr, SIZE_MAX, NULL, &b, NULL)); /* NULL err */
  assert_null(b);
}

/* ------------------------------------------------------------------------------------------ */
/* Host pool                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static size_t host_pool_cached(void) {
  size_t n = (size_t)-1;
  JGT_OK(jg_memory_resource_get_cached(jg_memory_resource_host_pool(), &n, NULL));
  return n;
}

static void test_host_pool_reuses_large_blocks(void **state) {
  (void)state;
  jg_memory_resource *mr = jg_memory_resource_host_pool();
  assert_non_null(mr);
  assert_ptr_equal(jg_memory_resource_host_pool(), mr);
  assert_int_equal(mr->kind, JG_MEMORY_HOST_POOL);
  assert_int_equal(mr->device.type, JG_DEVICE_CPU);
  assert_true(mr->host_accessible);
  assert_false(mr->device_accessible);
  assert_false(mr->stream_ordered);
  JGT_OK(jg_memory_resource_trim(mr, 0, NULL));
  assert_int_equal(host_pool_cached(), 0);

  /* 3 MiB + 1 byte: size class 3.25 MiB (steps of an eighth of 2 MiB, 256 KiB) */
  const size_t big = ((size_t)3 << 20) + 1, cls = (size_t)13 << 18;
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(mr, big, NULL, &b, NULL));
  assert_ptr_equal(jg_buffer_resource(b), mr);
  assert_int_equal(jg_buffer_size(b), big);
  unsigned char *p = jg_buffer_data(b);
  assert_int_equal((uintptr_t)p % 4096, 0);
  memset(p, 0x33, big);
  jg_buffer_release(b);
  assert_int_equal(host_pool_cached(), cls);

  /* the same class comes back from the cache; a neighbour class does not take it */
  jg_buffer *c = NULL;
  JGT_OK(jg_buffer_allocate(mr, (size_t)4 << 20, NULL, &c, NULL));
  assert_ptr_not_equal(jg_buffer_data(c), p);
  assert_int_equal(host_pool_cached(), cls);
  JGT_OK(jg_buffer_allocate(mr, ((size_t)13 << 18) - 5, NULL, &b, NULL));
  assert_ptr_equal(jg_buffer_data(b), p);
  assert_int_equal(p[12345], 0x33); /* the block's pages were kept */
  assert_int_equal(host_pool_cached(), 0);
  jg_buffer_release(b);
  jg_buffer_release(c);
  assert_int_equal(host_pool_cached(), cls + ((size_t)4 << 20));

  /* small blocks are not cached */
  JGT_OK(jg_buffer_allocate(mr, 1000, NULL, &b, NULL));
  assert_int_equal((uintptr_t)jg_buffer_data(b) % 64, 0);
  jg_buffer_release(b);
  assert_int_equal(host_pool_cached(), cls + ((size_t)4 << 20));

  /* trim keeps at most keep_bytes, oldest freed first */
  JGT_OK(jg_memory_resource_trim(mr, (size_t)4 << 20, NULL));
  assert_int_equal(host_pool_cached(), (size_t)4 << 20);
  JGT_OK(jg_memory_resource_trim(mr, 0, NULL));
  assert_int_equal(host_pool_cached(), 0);

  /* a large alignment through the hook */
  void *q = NULL;
  jg_error err;
  JGT_OK(mr->allocate(mr, (size_t)2 << 20, 1 << 16, NULL, &q, &err));
  assert_int_equal((uintptr_t)q % (1 << 16), 0);
  mr->deallocate(mr, q, (size_t)2 << 20, NULL);
  assert_int_equal(host_pool_cached(), (size_t)2 << 20);
  JGT_STATUS(JG_EINVAL, mr->allocate(mr, (size_t)2 << 20, 48, NULL, &q, &err));
  JGT_CONTAINS(err.message, "48 is not a power of two");
  mr->deallocate(mr, NULL, (size_t)2 << 20, NULL); /* no-op */
  JGT_OK(jg_memory_resource_trim(mr, 0, NULL));
}

static void test_host_pool_limit(void **state) {
  (void)state;
  jg_memory_resource *mr = jg_memory_resource_host_pool();
  JGT_OK(jg_memory_resource_trim(mr, 0, NULL));
  const size_t old = jg_memory_resource_host_pool_set_limit((size_t)5 << 20);
  assert_int_equal(old, (size_t)1 << 30); /* the documented default */
  jg_buffer *a = NULL, *b = NULL, *c = NULL;
  JGT_OK(jg_buffer_allocate(mr, (size_t)2 << 20, NULL, &a, NULL));
  JGT_OK(jg_buffer_allocate(mr, (size_t)2 << 20, NULL, &b, NULL));
  JGT_OK(jg_buffer_allocate(mr, (size_t)6 << 20, NULL, &c, NULL));
  const void *pb = jg_buffer_data(b);
  jg_buffer_release(a);
  jg_buffer_release(b);
  assert_int_equal(host_pool_cached(), (size_t)4 << 20);
  jg_buffer_release(c); /* larger than the limit: freed */
  assert_int_equal(host_pool_cached(), (size_t)4 << 20);
  /* a third 2 MiB block pushes the oldest out */
  JGT_OK(jg_buffer_allocate(mr, (size_t)3 << 20, NULL, &a, NULL));
  jg_buffer_release(a);
  assert_int_equal(host_pool_cached(), ((size_t)3 << 20) + ((size_t)2 << 20));
  JGT_OK(jg_buffer_allocate(mr, (size_t)2 << 20, NULL, &b, NULL));
  assert_ptr_equal(jg_buffer_data(b), pb); /* the newer 2 MiB block stayed */
  jg_buffer_release(b);
  /* lowering the limit frees now; 0 turns the cache off */
  assert_int_equal(jg_memory_resource_host_pool_set_limit(0), (size_t)5 << 20);
  assert_int_equal(host_pool_cached(), 0);
  JGT_OK(jg_buffer_allocate(mr, (size_t)2 << 20, NULL, &a, NULL));
  jg_buffer_release(a);
  assert_int_equal(host_pool_cached(), 0);
  jg_memory_resource_host_pool_set_limit(old);
}

static void test_host_pool_errors(void **state) {
  (void)state;
  jg_memory_resource *mr = jg_memory_resource_host_pool();
  jg_error err;
  jg_buffer *b = (jg_buffer *)&err;
  JGT_STATUS(JG_ENOMEM, jg_buffer_allocate(mr, SIZE_MAX / 2, NULL, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "host-pool resource");
  /* reaches posix_memalign with a block cached: a request larger than the whole cache fails
   * without giving the cache back */
  JGT_OK(jg_buffer_allocate(mr, (size_t)2 << 20, NULL, &b, NULL));
  jg_buffer_release(b);
  assert_int_equal(host_pool_cached(), (size_t)2 << 20);
  b = (jg_buffer *)&err;
  JGT_STATUS(JG_ENOMEM, jg_buffer_allocate(mr, (size_t)1 << 60, NULL, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "posix_memalign");
  JGT_CONTAINS(err.message, "out of host memory");
  assert_int_equal(host_pool_cached(), (size_t)2 << 20);
  JGT_OK(jg_memory_resource_trim(mr, 0, NULL));

  size_t n = 7;
  JGT_STATUS(JG_EINVAL, jg_memory_resource_get_cached(NULL, &n, &err));
  JGT_CONTAINS(err.message, "mr is NULL");
  assert_int_equal(n, 7);
  JGT_STATUS(JG_EINVAL, jg_memory_resource_get_cached(mr, NULL, &err));
  JGT_CONTAINS(err.message, "bytes is NULL");
  /* resources without a cache report 0 */
  JGT_OK(jg_memory_resource_get_cached(jg_memory_resource_host(), &n, NULL));
  assert_int_equal(n, 0);
}

#define POOL_THREADS 4
static void *pool_hammer(void *arg) {
  atomic_int *failures = arg;
  jg_memory_resource *mr = jg_memory_resource_host_pool();
  unsigned seed = 12345u;
  for (int i = 0; i < 200; ++i) {
    seed = seed * 1103515245u + 12345u;
    const size_t bytes = ((size_t)1 << 20) + (size_t)(seed >> 8) % ((size_t)3 << 20);
    jg_buffer *b = NULL;
    if (jg_buffer_allocate(mr, bytes, NULL, &b, NULL) != JG_OK) {
      atomic_fetch_add(failures, 1);
      continue;
    }
    unsigned char *p = jg_buffer_data(b);
    p[0] = (unsigned char)i;
    p[bytes - 1] = (unsigned char)i;
    if (p[0] != (unsigned char)i || p[bytes - 1] != (unsigned char)i) atomic_fetch_add(failures, 1);
    jg_buffer_release(b);
  }
  return NULL;
}

static void test_host_pool_threads(void **state) {
  (void)state;
  const size_t old = jg_memory_resource_host_pool_set_limit((size_t)16 << 20);
  atomic_int failures;
  atomic_init(&failures, 0);
  pthread_t t[POOL_THREADS];
  for (int i = 0; i < POOL_THREADS; ++i)
    assert_int_equal(pthread_create(&t[i], NULL, pool_hammer, &failures), 0);
  for (int i = 0; i < POOL_THREADS; ++i) assert_int_equal(pthread_join(t[i], NULL), 0);
  assert_int_equal(atomic_load(&failures), 0);
  assert_true(host_pool_cached() <= ((size_t)16 << 20));
  assert_true(host_pool_cached() > 0);
  jg_memory_resource_host_pool_set_limit(old);
  JGT_OK(jg_memory_resource_trim(jg_memory_resource_host_pool(), 0, NULL));
}

static void test_allocate_argument_errors(void **state) {
  (void)state;
  jg_error err;
  jg_error_clear(&err);
  jg_buffer *b = (jg_buffer *)&err;
  JGT_STATUS(JG_EINVAL, jg_buffer_allocate(NULL, 8, NULL, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "mr is NULL");
  JGT_STATUS(JG_EINVAL, jg_buffer_allocate(jg_memory_resource_host(), 8, NULL, NULL, &err));
  JGT_CONTAINS(err.message, "out is NULL");
  jg_memory_resource empty;
  memset(&empty, 0, sizeof empty);
  JGT_STATUS(JG_EINVAL, jg_buffer_allocate(&empty, 8, NULL, &b, &err));
  assert_null(b);
}

static void test_destroy_ignores_builtin_and_null(void **state) {
  (void)state;
  jg_memory_resource_destroy(NULL);
  jg_memory_resource_destroy(jg_memory_resource_host());
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), 16, NULL, &b, NULL));
  jg_buffer_release(b);
}

/* ------------------------------------------------------------------------------------------ */
/* User allocator hook                                                                         */
/* ------------------------------------------------------------------------------------------ */

typedef struct counting {
  int allocs, frees;
  size_t last_alloc_bytes, last_free_bytes, total_live;
  size_t last_alignment;
  jg_stream last_alloc_stream, last_free_stream;
  void *last_ptr, *last_freed;
  jg_status fail_with; /* JG_OK: succeed */
  int return_null;     /* succeed but give NULL */
  int misalign;        /* succeed with ptr + 8 */
  void *raw;           /* the malloc'd block behind a misaligned answer */
} counting;

static jg_status counting_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                   jg_stream stream, void **ptr, jg_error *err) {
  counting *c = mr->user_data;
  c->allocs++;
  c->last_alloc_bytes = bytes;
  c->last_alignment = alignment;
  c->last_alloc_stream = stream;
  *ptr = NULL;
  if (c->fail_with != JG_OK) {
    return jg_error_set(err, c->fail_with, -1, "user pool exhausted");
  }
  if (c->return_null) return JG_OK;
  if (bytes == 0) return JG_OK;
  void *p = NULL;
  if (posix_memalign(&p, alignment, bytes + 64) != 0) return jg_error_set(err, JG_ENOMEM, -1, "x");
  if (c->misalign) {
    c->raw = p;
    p = (char *)p + 8;
  }
  c->total_live += bytes;
  c->last_ptr = p;
  *ptr = p;
  return JG_OK;
}

static void counting_deallocate(jg_memory_resource *mr, void *ptr, size_t bytes,
                                jg_stream stream) {
  counting *c = mr->user_data;
  c->frees++;
  c->last_free_bytes = bytes;
  c->last_free_stream = stream;
  c->last_freed = ptr;
  if (ptr == NULL) return;
  c->total_live -= bytes;
  if (c->misalign) {
    assert_ptr_equal(ptr, (char *)c->raw + 8);
    free(c->raw);
  } else {
    free(ptr);
  }
}

static void test_user_resource_init_errors(void **state) {
  (void)state;
  jg_memory_resource mr;
  jg_device cpu = JG_DEVICE_HOST_INIT;
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINVAL, jg_memory_resource_init_user(NULL, cpu, true, false, false,
                                                     counting_allocate, counting_deallocate,
                                                     NULL, &err));
  JGT_CONTAINS(err.message, "mr is NULL");
  JGT_STATUS(JG_EINVAL, jg_memory_resource_init_user(&mr, cpu, true, false, false, NULL,
                                                     counting_deallocate, NULL, &err));
  JGT_CONTAINS(err.message, "allocate is NULL");
  JGT_STATUS(JG_EINVAL, jg_memory_resource_init_user(&mr, cpu, true, false, false,
                                                     counting_allocate, NULL, NULL, &err));
  JGT_CONTAINS(err.message, "deallocate is NULL");
  jg_device bad = {(jg_device_type)7, 0};
  JGT_STATUS(JG_EINVAL, jg_memory_resource_init_user(&mr, bad, true, false, false,
                                                     counting_allocate, counting_deallocate,
                                                     NULL, &err));
  JGT_CONTAINS(err.message, "unknown device type 7");
  jg_device neg = {JG_DEVICE_CUDA, -1};
  JGT_STATUS(JG_EINVAL, jg_memory_resource_init_user(&mr, neg, false, true, false,
                                                     counting_allocate, counting_deallocate,
                                                     NULL, &err));
}

static void test_user_resource(void **state) {
  (void)state;
  counting c;
  memset(&c, 0, sizeof c);
  jg_memory_resource mr;
  memset(&mr, 0xab, sizeof mr);
  jg_device cpu = JG_DEVICE_HOST_INIT;
  JGT_OK(jg_memory_resource_init_user(&mr, cpu, true, false, true, counting_allocate,
                                      counting_deallocate, &c, NULL));
  assert_int_equal(mr.version, sizeof mr);
  assert_int_equal(mr.kind, JG_MEMORY_USER);
  assert_int_equal(mr.device.type, JG_DEVICE_CPU);
  assert_true(mr.host_accessible);
  assert_false(mr.device_accessible);
  assert_true(mr.stream_ordered);
  assert_ptr_equal(mr.user_data, &c);
  assert_null(mr.private_data);

  jg_stream s1 = (jg_stream)(uintptr_t)0x1000, s2 = (jg_stream)(uintptr_t)0x2000;
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(&mr, 1000, s1, &b, NULL));
  assert_int_equal(c.allocs, 1);
  assert_int_equal(c.last_alloc_bytes, 1000);
  assert_int_equal(c.last_alignment, 64);
  assert_ptr_equal(c.last_alloc_stream, s1);
  assert_ptr_equal(jg_buffer_data(b), c.last_ptr);
  assert_ptr_equal(jg_buffer_resource(b), &mr);
  assert_int_equal(c.total_live, 1000);

  /* retains keep it alive; the last release frees once, on the recorded stream */
  assert_ptr_equal(jg_buffer_retain(b), b);
  jg_buffer_release(b);
  assert_int_equal(c.frees, 0);
  jg_buffer_release(b);
  assert_int_equal(c.frees, 1);
  assert_ptr_equal(c.last_freed, c.last_ptr);
  assert_int_equal(c.last_free_bytes, 1000);
  assert_ptr_equal(c.last_free_stream, s1);
  assert_int_equal(c.total_live, 0);

  /* a changed deallocation stream is used */
  JGT_OK(jg_buffer_allocate(&mr, 24, s1, &b, NULL));
  JGT_OK(jg_buffer_set_deallocation_stream(b, s2, NULL));
  jg_buffer_release(b);
  assert_int_equal(c.allocs, 2);
  assert_int_equal(c.frees, 2);
  assert_ptr_equal(c.last_free_stream, s2);
  assert_int_equal(c.last_free_bytes, 24);

  /* zero bytes: the hook is asked (and may give NULL); deallocate pairs with it */
  JGT_OK(jg_buffer_allocate(&mr, 0, NULL, &b, NULL));
  assert_int_equal(c.allocs, 3);
  assert_int_equal(c.last_alloc_bytes, 0);
  assert_null(jg_buffer_data(b));
  jg_buffer_release(b);
  assert_int_equal(c.frees, 3);
  assert_null(c.last_freed);

  /* destroy ignores a user resource: still usable afterwards */
  jg_memory_resource_destroy(&mr);
  JGT_OK(jg_buffer_allocate(&mr, 8, NULL, &b, NULL));
  jg_buffer_release(b);
  assert_int_equal(c.allocs, 4);
  assert_int_equal(c.frees, 4);
}

static void test_user_resource_failures(void **state) {
  (void)state;
  counting c;
  memset(&c, 0, sizeof c);
  jg_memory_resource mr;
  jg_device cpu = JG_DEVICE_HOST_INIT;
  JGT_OK(jg_memory_resource_init_user(&mr, cpu, true, false, false, counting_allocate,
                                      counting_deallocate, &c, NULL));
  jg_error err;
  jg_buffer *b;

  /* the hook's status and message come back, with the size */
  const jg_status fails[] = {JG_ENOMEM, JG_EDEVMEM, JG_ECUDA};
  for (size_t i = 0; i < 3; ++i) {
    c.fail_with = fails[i];
    b = (jg_buffer *)&err;
    jg_error_clear(&err);
    JGT_STATUS(fails[i], jg_buffer_allocate(&mr, 4242, NULL, &b, &err));
    assert_null(b);
    assert_int_equal(err.status, fails[i]);
    JGT_CONTAINS(err.message, "4242 bytes");
    JGT_CONTAINS(err.message, "user pool exhausted");
    JGT_CONTAINS(err.message, "user resource");
  }
  assert_int_equal(c.allocs, 3);
  assert_int_equal(c.frees, 0); /* nothing to free after a failure */
  c.fail_with = JG_OK;

  /* a hook that gives NULL for a non-empty block: out of memory of its kind */
  c.return_null = 1;
  jg_error_clear(&err);
  b = (jg_buffer *)&err;
  JGT_STATUS(JG_ENOMEM, jg_buffer_allocate(&mr, 77, NULL, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "77 bytes");
  JGT_CONTAINS(err.message, "returned NULL");
  jg_memory_resource dev_mr;
  jg_device cuda0 = {JG_DEVICE_CUDA, 0};
  JGT_OK(jg_memory_resource_init_user(&dev_mr, cuda0, false, true, false, counting_allocate,
                                      counting_deallocate, &c, NULL));
  JGT_STATUS(JG_EDEVMEM, jg_buffer_allocate(&dev_mr, 77, NULL, &b, &err));
  assert_int_equal(c.frees, 0);
  c.return_null = 0;

  /* a misaligned answer is given back and refused */
  c.misalign = 1;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINVAL, jg_buffer_allocate(&mr, 128, NULL, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "not aligned to 64 bytes");
  assert_int_equal(c.frees, 1);
  assert_int_equal(c.last_free_bytes, 128);
  assert_int_equal(c.total_live, 0);
}

/* A hook returning a number that is not a jg_status, with or without a message. */
static jg_status bogus_allocate(jg_memory_resource *mr, size_t bytes, size_t alignment,
                                jg_stream stream, void **ptr, jg_error *err) {
  (void)bytes;
  (void)alignment;
  (void)stream;
  *ptr = NULL;
  const int *with_message = mr->user_data;
  if (*with_message) return jg_error_set(err, (jg_status)12345, -1, "quota of tenant 7 used up");
  return (jg_status)12345;
}

static void test_user_resource_unknown_status(void **state) {
  (void)state;
  int with_message = 0;
  jg_memory_resource mr;
  jg_device cpu = JG_DEVICE_HOST_INIT;
  JGT_OK(jg_memory_resource_init_user(&mr, cpu, true, false, false, bogus_allocate,
                                      counting_deallocate, &with_message, NULL));
  jg_error err;
  jg_error_clear(&err);
  jg_buffer *b = (jg_buffer *)&err;
  /* Reported as an internal error naming the number (it used to read "unknown status"). */
  JGT_STATUS(JG_EINTERNAL, jg_buffer_allocate(&mr, 96, NULL, &b, &err));
  assert_null(b);
  assert_int_equal(err.status, JG_EINTERNAL);
  JGT_CONTAINS(err.message, "96 bytes");
  JGT_CONTAINS(err.message, "returned 12345, which is not a jg_status");
  assert_null(strstr(err.message, "unknown status"));
  /* The hook's own message is kept. */
  with_message = 1;
  JGT_STATUS(JG_EINTERNAL, jg_buffer_allocate(&mr, 96, NULL, &b, &err));
  JGT_CONTAINS(err.message, "returned 12345, which is not a jg_status: quota of tenant 7 used up");
  /* err may be NULL. */
  assert_int_equal(jg_buffer_allocate(&mr, 8, NULL, &b, NULL), JG_EINTERNAL);
}

static void test_user_resource_attributes_trusted(void **state) {
  (void)state;
  /* host memory that the hook claims is managed on device 2: owned buffers trust the resource
   * (cuda.core: managed pools may not report IS_MANAGED), raw queries do not */
  counting c;
  memset(&c, 0, sizeof c);
  jg_memory_resource mr;
  jg_device managed2 = {JG_DEVICE_CUDA_MANAGED, 2};
  JGT_OK(jg_memory_resource_init_user(&mr, managed2, true, true, true, counting_allocate,
                                      counting_deallocate, &c, NULL));
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(&mr, 256, NULL, &b, NULL));
  jg_pointer_attributes a;
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA_MANAGED);
  assert_int_equal(a.device.id, 2);
  assert_true(a.host_accessible);
  assert_true(a.device_accessible);
  assert_true(a.is_managed);
  assert_false(a.is_pinned);
  assert_true(a.is_pool); /* stream-ordered */
  assert_ptr_equal(a.host_pointer, jg_buffer_data(b));
  assert_ptr_equal(a.device_pointer, jg_buffer_data(b));
  JGT_OK(jg_pointer_get_attributes(jg_buffer_data(b), 256, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CPU);
  assert_false(a.is_managed);
  jg_buffer_release(b);

  jg_device pinned1 = {JG_DEVICE_CUDA_HOST, 1};
  JGT_OK(jg_memory_resource_init_user(&mr, pinned1, true, true, false, counting_allocate,
                                      counting_deallocate, &c, NULL));
  JGT_OK(jg_buffer_allocate(&mr, 8, NULL, &b, NULL));
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_int_equal(a.device.type, JG_DEVICE_CUDA_HOST);
  assert_int_equal(a.device.id, 1);
  assert_true(a.is_pinned);
  assert_false(a.is_managed);
  assert_false(a.is_pool);
  jg_buffer_release(b);
  assert_int_equal(c.allocs, 2);
  assert_int_equal(c.frees, 2);
}

/* ------------------------------------------------------------------------------------------ */
/* External and borrowed buffers                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct release_log {
  int calls;
  void *owner;
  void *data;
  size_t bytes;
} release_log;

static void log_release(void *owner, void *data, size_t bytes) {
  release_log *log = owner;
  log->calls++;
  log->owner = owner;
  log->data = data;
  log->bytes = bytes;
}

static void test_external_release_once(void **state) {
  (void)state;
  release_log log;
  memset(&log, 0, sizeof log);
  double payload[10];
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_external(payload, sizeof payload, &log, log_release, &b, NULL));
  assert_int_equal(jg_buffer_get_mode(b), JG_BUFFER_EXTERNAL);
  assert_ptr_equal(jg_buffer_data(b), payload);
  assert_int_equal(jg_buffer_size(b), 80);
  assert_null(jg_buffer_resource(b));

  jg_buffer *r1 = jg_buffer_retain(b);
  jg_buffer *r2 = jg_buffer_retain(b);
  jg_buffer *r3 = jg_buffer_retain(r1);
  assert_ptr_equal(r1, b);
  assert_ptr_equal(r2, b);
  assert_ptr_equal(r3, b);
  jg_buffer_release(r2);
  jg_buffer_release(b);
  assert_int_equal(log.calls, 0);
  jg_buffer_release(r3);
  assert_int_equal(log.calls, 0);
  jg_buffer_release(r1); /* the fourth release of four references */
  assert_int_equal(log.calls, 1);
  assert_ptr_equal(log.owner, &log);
  assert_ptr_equal(log.data, payload);
  assert_int_equal(log.bytes, 80);

  /* set_deallocation_stream has no effect on external buffers, but is accepted */
  JGT_OK(jg_buffer_wrap_external(payload, 8, &log, log_release, &b, NULL));
  JGT_OK(jg_buffer_set_deallocation_stream(b, (jg_stream)&log, NULL));
  jg_buffer_release(b);
  assert_int_equal(log.calls, 2);
  assert_int_equal(log.bytes, 8);

  /* a NULL callback: owner only carried along */
  JGT_OK(jg_buffer_wrap_external(payload, 8, &log, NULL, &b, NULL));
  jg_buffer_release(b);
  assert_int_equal(log.calls, 2);

  /* zero size, NULL data: valid; the callback still runs once */
  JGT_OK(jg_buffer_wrap_external(NULL, 0, &log, log_release, &b, NULL));
  assert_null(jg_buffer_data(b));
  assert_int_equal(jg_buffer_size(b), 0);
  jg_buffer_release(b);
  assert_int_equal(log.calls, 3);
  assert_null(log.data);
  assert_int_equal(log.bytes, 0);
}

static void test_borrowed_never_frees(void **state) {
  (void)state;
  /* heap: the test frees the block itself afterwards (ASan would catch a double free) */
  unsigned char *heap = malloc(256);
  assert_non_null(heap);
  memset(heap, 7, 256);
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(heap, 256, &b, NULL));
  assert_int_equal(jg_buffer_get_mode(b), JG_BUFFER_BORROWED);
  assert_null(jg_buffer_resource(b));
  jg_buffer_retain(b);
  jg_buffer_release(b);
  jg_buffer_release(b);
  assert_int_equal(heap[255], 7); /* still ours and intact */
  free(heap);

  /* stack memory: freeing it would crash */
  int local[4] = {1, 2, 3, 4};
  JGT_OK(jg_buffer_wrap_borrowed(local, sizeof local, &b, NULL));
  assert_ptr_equal(jg_buffer_data(b), local);
  jg_buffer_release(b);
  assert_int_equal(local[3], 4);

  JGT_OK(jg_buffer_wrap_borrowed(NULL, 0, &b, NULL));
  assert_null(jg_buffer_data(b));
  jg_buffer_release(b);
}

static void test_wrap_errors(void **state) {
  (void)state;
  release_log log;
  memset(&log, 0, sizeof log);
  jg_error err;
  jg_error_clear(&err);
  jg_buffer *b = (jg_buffer *)&log;
  JGT_STATUS(JG_EINVAL, jg_buffer_wrap_external(NULL, 16, &log, log_release, &b, &err));
  assert_null(b);
  assert_int_equal(err.status, JG_EINVAL);
  JGT_CONTAINS(err.message, "NULL data with 16 bytes");
  char data[4];
  JGT_STATUS(JG_EINVAL, jg_buffer_wrap_external(data, 4, &log, log_release, NULL, &err));
  JGT_CONTAINS(err.message, "out is NULL");
  assert_int_equal(log.calls, 0); /* the caller still owns the memory */

  b = (jg_buffer *)&log;
  JGT_STATUS(JG_EINVAL, jg_buffer_wrap_borrowed(NULL, 1, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "jg_buffer_wrap_borrowed");
  JGT_STATUS(JG_EINVAL, jg_buffer_wrap_borrowed(data, 4, NULL, NULL));

  /* A span that wraps past the end of the address space. */
  void *high = (void *)(uintptr_t)0x10;
  b = (jg_buffer *)&log;
  JGT_STATUS(JG_EINVAL, jg_buffer_wrap_borrowed(high, SIZE_MAX, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "wrap past the end of the address space");
  void *top = (void *)(UINTPTR_MAX - 15);
  JGT_STATUS(JG_EINVAL, jg_buffer_wrap_external(top, 17, &log, log_release, &b, &err));
  assert_null(b);
  JGT_CONTAINS(err.message, "jg_buffer_wrap_external");
  assert_int_equal(log.calls, 0);
  /* ... while a span that ends exactly at the top (data + bytes == 2^N) is fine. */
  JGT_OK(jg_buffer_wrap_external(top, 16, &log, log_release, &b, NULL));
  assert_int_equal(jg_buffer_size(b), 16);
  jg_buffer_release(b);
  assert_int_equal(log.calls, 1);
  JGT_OK(jg_buffer_wrap_borrowed(high, SIZE_MAX - 15, &b, NULL));
  jg_buffer_release(b);
}

static void test_null_buffer_accessors(void **state) {
  (void)state;
  assert_null(jg_buffer_retain(NULL));
  jg_buffer_release(NULL);
  assert_null(jg_buffer_data(NULL));
  assert_int_equal(jg_buffer_size(NULL), 0);
  assert_int_equal(jg_buffer_get_mode(NULL), 0);
  assert_null(jg_buffer_resource(NULL));
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINVAL, jg_buffer_set_deallocation_stream(NULL, NULL, &err));
  JGT_CONTAINS(err.message, "buf is NULL");
  jg_pointer_attributes a;
  JGT_STATUS(JG_EINVAL, jg_buffer_attributes(NULL, &a, &err));
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(NULL, 0, &b, NULL));
  JGT_STATUS(JG_EINVAL, jg_buffer_attributes(b, NULL, &err));
  JGT_CONTAINS(err.message, "attrs is NULL");
  jg_buffer_release(b);
}

/* ------------------------------------------------------------------------------------------ */
/* Pointer attributes                                                                          */
/* ------------------------------------------------------------------------------------------ */

static void assert_plain_host(const jg_pointer_attributes *a, const void *ptr) {
  assert_int_equal(a->device.type, JG_DEVICE_CPU);
  assert_int_equal(a->device.id, 0);
  assert_true(a->host_accessible);
  assert_false(a->device_accessible);
  assert_false(a->is_managed);
  assert_false(a->is_pinned);
  assert_false(a->is_pool);
  assert_ptr_equal(a->host_pointer, ptr);
  assert_null(a->device_pointer);
}

static void test_pointer_attributes_host(void **state) {
  (void)state;
  jg_pointer_attributes a;
  char *heap = malloc(1000);
  assert_non_null(heap);
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_pointer_get_attributes(heap, 1000, &a, NULL));
  assert_plain_host(&a, heap);
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_pointer_get_attributes(heap + 10, 5, &a, NULL)); /* interior pointer */
  assert_plain_host(&a, heap + 10);
  int local = 3;
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_pointer_get_attributes(&local, sizeof local, &a, NULL));
  assert_plain_host(&a, &local);

  /* external buffer: queried and cached; the same answer twice */
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_external(heap, 1000, NULL, NULL, &b, NULL));
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_plain_host(&a, heap);
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_plain_host(&a, heap);
  jg_buffer_release(b);
  free(heap);
}

static void test_pointer_attributes_null(void **state) {
  (void)state;
  jg_pointer_attributes a;
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_pointer_get_attributes(NULL, 0, &a, NULL));
  assert_plain_host(&a, NULL);

  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(NULL, 0, &b, NULL));
  memset(&a, 0xee, sizeof a);
  JGT_OK(jg_buffer_attributes(b, &a, NULL));
  assert_plain_host(&a, NULL);
  jg_buffer_release(b);

  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(JG_EINVAL, jg_pointer_get_attributes(NULL, 5, &a, &err));
  JGT_CONTAINS(err.message, "NULL pointer with 5 bytes");
  JGT_STATUS(JG_EINVAL, jg_pointer_get_attributes(&err, 5, NULL, &err));
  JGT_CONTAINS(err.message, "attrs is NULL");
}

/* ------------------------------------------------------------------------------------------ */
/* Thread safety                                                                               */
/* ------------------------------------------------------------------------------------------ */

enum { THREADS = 8, ROUNDS = 20000 };

typedef struct shared_buf {
  jg_buffer *buf;
  void *data;
  atomic_int failures;
} shared_buf;

static void *hammer(void *arg) {
  shared_buf *s = arg;
  for (int i = 0; i < ROUNDS; ++i) {
    jg_buffer *r = jg_buffer_retain(s->buf);
    if (i % 1000 == 0) {
      jg_pointer_attributes a;
      if (jg_buffer_attributes(r, &a, NULL) != JG_OK || a.host_pointer != s->data ||
          a.device_accessible) {
        atomic_fetch_add(&s->failures, 1);
      }
    }
    jg_buffer_release(r);
  }
  /* every thread leaves one reference it took before starting */
  jg_buffer_release(s->buf);
  return NULL;
}

static atomic_int release_calls;
static void count_release(void *owner, void *data, size_t bytes) {
  atomic_fetch_add(&release_calls, 1);
  free(data);
}

static void test_retain_release_threads(void **state) {
  (void)state;
  atomic_store(&release_calls, 0);
  shared_buf s;
  s.data = malloc(64);
  assert_non_null(s.data);
  atomic_init(&s.failures, 0);
  JGT_OK(jg_buffer_wrap_external(s.data, 64, NULL, count_release, &s.buf, NULL));
  for (int i = 0; i < THREADS; ++i) jg_buffer_retain(s.buf);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; ++i) assert_int_equal(pthread_create(&t[i], NULL, hammer, &s), 0);
  for (int i = 0; i < THREADS; ++i) assert_int_equal(pthread_join(t[i], NULL), 0);
  assert_int_equal(atomic_load(&s.failures), 0);
  assert_int_equal(atomic_load(&release_calls), 0); /* ours is left */
  jg_buffer_release(s.buf);
  assert_int_equal(atomic_load(&release_calls), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_concurrent_first_init),
      cmocka_unit_test(test_status_names),
      cmocka_unit_test(test_cuda_compiled_matches_build),
      cmocka_unit_test(test_device_count),
      cmocka_unit_test(test_device_calls_without_gpu),
      cmocka_unit_test(test_cuda_resources_without_gpu),
      cmocka_unit_test(test_host_resource),
      cmocka_unit_test(test_host_out_of_memory),
      cmocka_unit_test(test_host_pool_reuses_large_blocks),
      cmocka_unit_test(test_host_pool_limit),
      cmocka_unit_test(test_host_pool_errors),
      cmocka_unit_test(test_host_pool_threads),
      cmocka_unit_test(test_allocate_argument_errors),
      cmocka_unit_test(test_destroy_ignores_builtin_and_null),
      cmocka_unit_test(test_user_resource_init_errors),
      cmocka_unit_test(test_user_resource),
      cmocka_unit_test(test_user_resource_failures),
      cmocka_unit_test(test_user_resource_unknown_status),
      cmocka_unit_test(test_user_resource_attributes_trusted),
      cmocka_unit_test(test_external_release_once),
      cmocka_unit_test(test_borrowed_never_frees),
      cmocka_unit_test(test_wrap_errors),
      cmocka_unit_test(test_null_buffer_accessors),
      cmocka_unit_test(test_pointer_attributes_host),
      cmocka_unit_test(test_pointer_attributes_null),
      cmocka_unit_test(test_retain_release_threads),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
