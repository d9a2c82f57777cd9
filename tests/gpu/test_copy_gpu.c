/* test_copy_gpu.c: jg_copy / jg_copy_async / jg_copy_ex with device, pinned, managed and pageable
 * memory: host to device, device to host, device to device and host to host through CUDA, over
 * the layout matrix of tests/jgt_copy_cases.h (C, F, permuted, reversed, stepped, broadcast;
 * 0-d, empty, 1-D to 5-D; itemsizes 1 to 16), plus large cases (a 4099 x 2053 transpose, a
 * reversed 1-D run, a batched transpose, misaligned 16-byte elements, a copy of more than 2^31
 * elements), and overlapping source and destination views in one arena (NumPy semantics, device
 * staging). Every destination arena is poisoned before the copy and compared byte for byte with
 * a brute-force host reference afterwards.
 *
 * Set JGT_COPY_QUICK=1 for a reduced matrix without the > 2^31-element case (for
 * compute-sanitizer runs). Exits 77 (skipped) without a usable GPU. */
#include "jg_test.h"
#include "jgt_copy_cases.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#define CUDA_OK(expr)                                         \
  do {                                                        \
    cudaError_t e_ = (expr);                                  \
    if (e_ != cudaSuccess) {                                  \
      print_error("%s: %s\n", #expr, cudaGetErrorString(e_)); \
      fail();                                                 \
    }                                                         \
  } while (0)

enum { MEM_PAGEABLE = 0, MEM_PINNED, MEM_MANAGED, MEM_DEVICE, MEM_COUNT };
static const char *const kMemName[MEM_COUNT] = {"pageable", "pinned", "managed", "device"};

#define ARENA_BYTES ((size_t)64 << 20)

typedef struct arena {
  int mem;
  jg_buffer *buf;
  uint8_t *ptr;
} arena;

/* Source and destination arenas of every memory kind, allocated once. */
static arena g_src[MEM_COUNT], g_dst[MEM_COUNT];
static jg_stream g_stream;
static bool g_quick;

static jg_memory_resource *resource_of(int mem) {
  jg_memory_resource *mr = jg_memory_resource_host();
  if (mem == MEM_PINNED) JGT_OK(jg_memory_resource_pinned(&mr, &jgt_err_));
  if (mem == MEM_MANAGED) JGT_OK(jg_memory_resource_managed(0, &mr, &jgt_err_));
  if (mem == MEM_DEVICE) JGT_OK(jg_memory_resource_device(0, &mr, &jgt_err_));
  return mr;
}

static void arena_alloc(arena *a, int mem, size_t bytes) {
  a->mem = mem;
  JGT_OK(jg_buffer_allocate(resource_of(mem), bytes, NULL, &a->buf, &jgt_err_));
  a->ptr = jg_buffer_data(a->buf);
  assert_non_null(a->ptr);
}

static void arena_free(arena *a) {
  jg_buffer_release(a->buf);
  a->buf = NULL;
  a->ptr = NULL;
}

/* Host bytes to the arena, arena to host bytes, poison: plain host code for host-accessible
 * kinds (after a device synchronisation), cudaMemcpy / cudaMemset for device memory. */
static void arena_put(uint8_t *a, int mem, const void *host, size_t n) {
  CUDA_OK(cudaDeviceSynchronize());
  if (mem == MEM_DEVICE) {
    CUDA_OK(cudaMemcpy(a, host, n, cudaMemcpyHostToDevice));
    /* cudaMemcpy from pageable memory may return before the DMA to the device is done, and the
     * copies under test run on g_stream, a non-blocking stream that does not wait for it. */
    CUDA_OK(cudaDeviceSynchronize());
  } else {
    memcpy(a, host, n);
  }
}

static void arena_get(void *host, const uint8_t *a, int mem, size_t n) {
  CUDA_OK(cudaDeviceSynchronize());
  if (mem == MEM_DEVICE)
    CUDA_OK(cudaMemcpy(host, a, n, cudaMemcpyDeviceToHost));
  else
    memcpy(host, a, n);
}

static void arena_poison(uint8_t *a, int mem, size_t n) {
  CUDA_OK(cudaDeviceSynchronize());
  if (mem == MEM_DEVICE)
    CUDA_OK(cudaMemset(a, 0xA5, n));
  else
    memset(a, 0xA5, n);
  CUDA_OK(cudaDeviceSynchronize());
}

static jg_dtype dtype_of_size(int64_t itemsize) {
  switch (itemsize) {
    case 1:
      return JG_DTYPE_UINT8;
    case 2:
      return JG_DTYPE_UINT16;
    case 4:
      return JG_DTYPE_FLOAT32;
    case 8:
      return JG_DTYPE_INT64;
    default:
      return JG_DTYPE_COMPLEX128;
  }
}

enum { VIA_COPY = 0, VIA_ASYNC, VIA_EX, VIA_COUNT };

/* Runs `via` on views dv <- sv, waiting for the stream afterwards. */
static jg_status do_copy(const jg_view *dv, const jg_view *sv, int via, jg_error *err) {
  if (via == VIA_COPY) return jg_copy(dv, sv, err);
  if (via == VIA_ASYNC) {
    jg_status st = jg_copy_async(dv, sv, g_stream, err);
    if (st != JG_OK) return st;
    return jg_stream_synchronize(g_stream, err);
  }
  size_t tb = 0;
  jg_status st = jg_copy_ex(dv, sv, NULL, &tb, g_stream, err);
  if (st != JG_OK) return st;
  assert_true(tb >= 1);
  void *temp = NULL;
  CUDA_OK(cudaMalloc(&temp, tb));
  st = jg_copy_ex(dv, sv, temp, &tb, g_stream, err);
  jg_status st2 = jg_stream_synchronize(g_stream, err);
  CUDA_OK(cudaFree(temp));
  return st != JG_OK ? st : st2;
}

/* One copy between layouts dl and sl placed `dmis` / `smis` bytes into the arenas of kinds dmem
 * and smem; returns 0 when the whole destination arena matches the reference. */
static int run_case_at(const jg_layout *dl, int dmem, size_t dmis, const jg_layout *sl, int smem,
                       size_t smis, int via, bool use_buffers, const char *what) {
  int okd = 0, oks = 0;
  const size_t isz = (size_t)dl->itemsize;
  const size_t nd = jgt_arena_elems(dl, &okd) * isz + dmis;
  const size_t ns = jgt_arena_elems(sl, &oks) * isz + smis;
  assert_true(okd && oks);
  assert_true(nd <= ARENA_BYTES && ns <= ARENA_BYTES);
  uint8_t *src_host = malloc(ns), *want = malloc(nd), *got = malloc(nd);
  assert_non_null(src_host);
  assert_non_null(want);
  assert_non_null(got);
  jgt_fill(src_host, ns, (uint32_t)(nd * 31 + ns + (size_t)via));
  memset(want, 0xA5, nd);
  jgt_ref_copy(want + dmis, dl, src_host + smis, sl);
  arena_put(g_src[smem].ptr, smem, src_host, ns);
  arena_poison(g_dst[dmem].ptr, dmem, nd);

  const jg_dtype dt = dtype_of_size(dl->itemsize);
  jg_view dv, sv;
  if (use_buffers && dmis == 0 && smis == 0) {
    JGT_OK(jg_view_from_buffer(&dv, g_dst[dmem].buf, dl, dt, false, &jgt_err_));
    JGT_OK(jg_view_from_buffer(&sv, g_src[smem].buf, sl, dt, true, &jgt_err_));
  } else {
    jg_pointer_attributes a;
    JGT_OK(jg_buffer_attributes(g_dst[dmem].buf, &a, &jgt_err_));
    JGT_OK(jg_view_from_pointer(&dv, g_dst[dmem].ptr + dmis, a.device, dl, dt, false, &jgt_err_));
    JGT_OK(jg_buffer_attributes(g_src[smem].buf, &a, &jgt_err_));
    JGT_OK(jg_view_from_pointer(&sv, g_src[smem].ptr + smis, a.device, sl, dt, true, &jgt_err_));
  }
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = do_copy(&dv, &sv, via, &err);
  arena_get(got, g_dst[dmem].ptr, dmem, nd);
  const int bad = st != JG_OK || memcmp(got, want, nd) != 0;
  if (bad) {
    size_t first = 0;
    while (first < nd && got[first] == want[first]) ++first;
    print_error("FAILED %s: %s -> %s, via %d: %s %s (first differing byte %zu of %zu)\n", what,
                kMemName[smem], kMemName[dmem], via, jg_status_name(st), err.message, first, nd);
  }
  free(src_host);
  free(want);
  free(got);
  return bad;
}

static int run_case(const jg_layout *dl, int dmem, const jg_layout *sl, int smem, int via,
                    const char *what) {
  return run_case_at(dl, dmem, 0, sl, smem, 0, via, true, what);
}

/* ------------------------------------------------------------------------------------------ */
/* The layout matrix                                                                           */
/* ------------------------------------------------------------------------------------------ */

typedef struct shape_case {
  int ndim;
  jg_len shape[5];
} shape_case;

static const shape_case kShapes[] = {
    {0, {0}},    {1, {7}},      {2, {3, 4}}, {3, {4, 1, 5}}, {3, {2, 3, 4}}, {5, {2, 3, 1, 2, 3}},
    {2, {0, 3}}, {2, {37, 45}},
};

/* (dst memory, src memory) pairs: every direction, each host-side kind. */
static const int kPairs[][2] = {
    {MEM_DEVICE, MEM_PAGEABLE},   {MEM_DEVICE, MEM_PINNED},   {MEM_DEVICE, MEM_MANAGED},
    {MEM_PAGEABLE, MEM_DEVICE},   {MEM_PINNED, MEM_DEVICE},   {MEM_MANAGED, MEM_DEVICE},
    {MEM_DEVICE, MEM_DEVICE},     {MEM_PAGEABLE, MEM_PINNED}, {MEM_PINNED, MEM_MANAGED},
    {MEM_PAGEABLE, MEM_PAGEABLE},
};

static void matrix_for_pair(int dmem, int smem) {
  static const int64_t all_sizes[] = {1, 2, 4, 8, 16};
  static const int64_t quick_sizes[] = {4, 16};
  const int64_t *sizes = g_quick ? quick_sizes : all_sizes;
  const size_t nsizes = g_quick ? 2 : 5;
  int failures = 0, cases = 0;
  for (size_t si = 0; si < sizeof kShapes / sizeof kShapes[0]; ++si) {
    for (size_t ii = 0; ii < nsizes; ++ii) {
      for (int dk = 0; dk < JGT_KIND_COUNT; ++dk) {
        if (dk == JGT_KIND_BCAST) continue;
        for (int sk = 0; sk < JGT_KIND_COUNT; ++sk) {
          if (g_quick && (dk + sk) % 2 == 1) continue;
          jg_layout dl, sl;
          JGT_OK(jgt_layout_kind(&dl, dk, kShapes[si].ndim, kShapes[si].shape, sizes[ii]));
          JGT_OK(jgt_layout_kind(&sl, sk, kShapes[si].ndim, kShapes[si].shape, sizes[ii]));
          char what[128];
          snprintf(what, sizeof what, "shape #%zu, itemsize %lld, dst %s, src %s", si,
                   (long long)sizes[ii], jgt_kind_name(dk), jgt_kind_name(sk));
          failures += run_case(&dl, dmem, &sl, smem, cases % VIA_COUNT, what);
          ++cases;
        }
      }
    }
  }
  assert_int_equal(failures, 0);
}

#define PAIR_TEST(i)                             \
  static void test_matrix_##i(void **state) {    \
    (void)state;                                 \
    matrix_for_pair(kPairs[i][0], kPairs[i][1]); \
  }
PAIR_TEST(0)
PAIR_TEST(1)
PAIR_TEST(2)
PAIR_TEST(3)
PAIR_TEST(4)
PAIR_TEST(5)
PAIR_TEST(6)
PAIR_TEST(7)
PAIR_TEST(8)
PAIR_TEST(9)
#undef PAIR_TEST

/* ------------------------------------------------------------------------------------------ */
/* Large and special cases                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* A 4099 x 2053 float32 transpose (tiled kernel; odd sizes leave partial tiles) both ways, on the
 * device and across host and device, sync and async. */
static void test_large_transpose(void **state) {
  (void)state;
  jg_layout c, t, c2;
  JGT_OK(jg_layout_init(&c, 2, (jg_len[]){4099, 2053}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&c2, 2, (jg_len[]){2053, 4099}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_permute(&t, &c2, (int[]){1, 0}, &jgt_err_)); /* (4099, 2053) F order */
  int failures = 0;
  static const int pairs[][2] = {{MEM_DEVICE, MEM_DEVICE},
                                 {MEM_DEVICE, MEM_PAGEABLE},
                                 {MEM_DEVICE, MEM_PINNED},
                                 {MEM_PAGEABLE, MEM_DEVICE},
                                 {MEM_PINNED, MEM_DEVICE}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
    const int via = (int)(i % VIA_COUNT);
    failures += run_case(&c, pairs[i][0], &t, pairs[i][1], via, "4099x2053 C <- F");
    failures +=
        run_case(&t, pairs[i][0], &c, pairs[i][1], (via + 1) % VIA_COUNT, "4099x2053 F <- C");
  }
  assert_int_equal(failures, 0);
}

/* Reversed 1-D runs (odd length, every itemsize), a stepped 1-D run, a batched 3-D transpose. */
static void test_large_misc(void **state) {
  (void)state;
  int failures = 0;
  for (int64_t isz = 1; isz <= 16; isz *= 2) {
    const jg_len n = (((jg_len)1 << 22) + 3) / isz;
    jg_layout c, r;
    JGT_OK(jg_layout_init(&c, 1, &n, NULL, isz, &jgt_err_));
    JGT_OK(jg_layout_slice(&r, &c, 1, (jg_slice[]){JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -1)},
                           &jgt_err_));
    failures += run_case(&c, MEM_DEVICE, &r, MEM_DEVICE, VIA_ASYNC, "reversed 1-D");
    failures += run_case(&r, MEM_DEVICE, &c, MEM_DEVICE, VIA_COPY, "1-D into reversed");
  }
  const jg_len big = 3000001;
  jg_layout c, s;
  JGT_OK(jg_layout_init(&c, 1, (jg_len[]){3 * big}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_slice(&s, &c, 1, (jg_slice[]){JG_SLICE(2, JG_SLICE_NONE, 3)}, &jgt_err_));
  JGT_OK(jg_layout_init(&c, 1, (jg_len[]){big}, NULL, 4, &jgt_err_));
  failures += run_case(&c, MEM_DEVICE, &s, MEM_DEVICE, VIA_EX, "stepped 1-D");
  failures += run_case(&c, MEM_DEVICE, &s, MEM_PINNED, VIA_ASYNC, "stepped 1-D from pinned");
  /* (7, 300, 257) float64 with axes 1 and 2 swapped: a batched tiled transpose. */
  jg_layout b, bp, bc;
  JGT_OK(jg_layout_init(&b, 3, (jg_len[]){7, 257, 300}, NULL, 8, &jgt_err_));
  JGT_OK(jg_layout_permute(&bp, &b, (int[]){0, 2, 1}, &jgt_err_));
  JGT_OK(jg_layout_init(&bc, 3, (jg_len[]){7, 300, 257}, NULL, 8, &jgt_err_));
  failures += run_case(&bc, MEM_DEVICE, &bp, MEM_DEVICE, VIA_COPY, "batched transpose");
  failures += run_case(&bp, MEM_DEVICE, &bc, MEM_DEVICE, VIA_ASYNC, "batched transpose back");
  /* Rows of 1000 float32 cut from rows of 1024: contiguous inner runs packed to 16 bytes. */
  jg_layout wide, cut, rows;
  JGT_OK(jg_layout_init(&wide, 2, (jg_len[]){513, 1024}, NULL, 4, &jgt_err_));
  JGT_OK(
      jg_layout_slice(&cut, &wide, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(8, 1008, 1)}, &jgt_err_));
  JGT_OK(jg_layout_init(&rows, 2, (jg_len[]){513, 1000}, NULL, 4, &jgt_err_));
  failures += run_case(&rows, MEM_DEVICE, &cut, MEM_DEVICE, VIA_COPY, "row cut");
  failures += run_case(&cut, MEM_DEVICE, &rows, MEM_DEVICE, VIA_EX, "row cut back");
  assert_int_equal(failures, 0);
}

/* Element addresses aligned below the element size: 16-byte elements at 8-byte offsets, 8-byte
 * at 4, 4-byte at 2, on the device and across host and device. */
static void test_misaligned(void **state) {
  (void)state;
  int failures = 0;
  for (int64_t isz = 4; isz <= 16; isz *= 2) {
    jg_layout c, t, c2;
    JGT_OK(jg_layout_init(&c, 2, (jg_len[]){67, 45}, NULL, isz, &jgt_err_));
    JGT_OK(jg_layout_init(&c2, 2, (jg_len[]){45, 67}, NULL, isz, &jgt_err_));
    JGT_OK(jg_layout_permute(&t, &c2, (int[]){1, 0}, &jgt_err_));
    const size_t mis = (size_t)isz / 2;
    failures +=
        run_case_at(&c, MEM_DEVICE, mis, &t, MEM_DEVICE, 0, VIA_COPY, false, "misaligned dst");
    failures +=
        run_case_at(&c, MEM_DEVICE, 0, &t, MEM_DEVICE, mis, VIA_ASYNC, false, "misaligned src");
    failures +=
        run_case_at(&c, MEM_DEVICE, mis, &c, MEM_DEVICE, mis, VIA_EX, false, "misaligned memcpy");
    failures +=
        run_case_at(&c, MEM_DEVICE, mis, &t, MEM_PAGEABLE, 0, VIA_COPY, false, "misaligned H2D");
    failures +=
        run_case_at(&t, MEM_PINNED, 0, &c, MEM_DEVICE, mis, VIA_ASYNC, false, "misaligned D2H");
  }
  assert_int_equal(failures, 0);
}

/* Staging sizes reported by the jg_copy_ex query, and a too-small temp. */
static void test_copy_ex_sizes(void **state) {
  (void)state;
  jg_layout c, t, c2, step, big;
  JGT_OK(jg_layout_init(&c, 2, (jg_len[]){64, 48}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_init(&c2, 2, (jg_len[]){48, 64}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_permute(&t, &c2, (int[]){1, 0}, &jgt_err_));
  JGT_OK(jg_layout_init(&big, 2, (jg_len[]){128, 96}, NULL, 4, &jgt_err_));
  JGT_OK(jg_layout_slice(&step, &big, 2,
                         (jg_slice[]){JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, 2),
                                      JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, 2)},
                         &jgt_err_));
  jg_view dev_c, dev_t, host_c, host_t, host_step;
  JGT_OK(
      jg_view_from_buffer(&dev_c, g_dst[MEM_DEVICE].buf, &c, JG_DTYPE_FLOAT32, false, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&dev_t, g_src[MEM_DEVICE].buf, &t, JG_DTYPE_FLOAT32, true, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&host_c, g_dst[MEM_PAGEABLE].buf, &c, JG_DTYPE_FLOAT32, false,
                             &jgt_err_));
  JGT_OK(
      jg_view_from_buffer(&host_t, g_src[MEM_PAGEABLE].buf, &t, JG_DTYPE_FLOAT32, true, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&host_step, g_src[MEM_PAGEABLE].buf, &step, JG_DTYPE_FLOAT32, true,
                             &jgt_err_));
  const size_t bytes = 64 * 48 * 4;
  size_t tb = 0;
  /* Device to device: no staging (the query says 1, as CUB does). */
  JGT_OK(jg_copy_ex(&dev_c, &dev_t, NULL, &tb, NULL, &jgt_err_));
  assert_int_equal(tb, 1);
  /* Host to device from a transposed (dense) source: its span goes to a device temporary. */
  JGT_OK(jg_copy_ex(&dev_c, &host_t, NULL, &tb, NULL, &jgt_err_));
  assert_int_equal(tb, bytes);
  /* Host to a dense device destination from a sparse source: host pack, no device staging. */
  JGT_OK(jg_copy_ex(&dev_c, &host_step, NULL, &tb, NULL, &jgt_err_));
  assert_int_equal(tb, 1);
  /* Device to a dense host destination from a transposed source: a dense device temporary. */
  JGT_OK(jg_copy_ex(&host_c, &dev_t, NULL, &tb, NULL, &jgt_err_));
  assert_int_equal(tb, bytes);
  /* Contiguous host to device: one memcpy. */
  JGT_OK(jg_copy_ex(&dev_c, &host_c, NULL, &tb, NULL, &jgt_err_));
  assert_int_equal(tb, 1);
  /* Too small a temp. */
  void *temp = NULL;
  CUDA_OK(cudaMalloc(&temp, bytes));
  size_t small = bytes - 1;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_copy_ex(&dev_c, &host_t, temp, &small, NULL, &err));
  JGT_CONTAINS(err.message, "temp_bytes");
  CUDA_OK(cudaFree(temp));
}

/* One overlapping copy: dl and sl over ONE arena of kind `mem` (the dst arena); the whole arena
 * is compared with NumPy's dst[...] = src (jgt_overlap_expect). For device memory the jg_copy_ex
 * query must ask for the whole volume of device staging. Returns 0 on a match. */
static int run_overlap(const jg_layout *dl, const jg_layout *sl, size_t arena_elems, int mem,
                       int via, const char *what) {
  const size_t n = arena_elems * (size_t)dl->itemsize;
  assert_true(n <= ARENA_BYTES);
  uint8_t *before = malloc(n), *want = malloc(n), *got = malloc(n);
  assert_non_null(before);
  assert_non_null(want);
  assert_non_null(got);
  jgt_fill(before, n, (uint32_t)(n * 7 + (size_t)via + (size_t)mem));
  jgt_overlap_expect(want, before, n, dl, sl);
  arena_put(g_dst[mem].ptr, mem, before, n);
  const jg_dtype dt = dtype_of_size(dl->itemsize);
  jg_view dv, sv;
  JGT_OK(jg_view_from_buffer(&dv, g_dst[mem].buf, dl, dt, false, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&sv, g_dst[mem].buf, sl, dt, true, &jgt_err_));
  int bad = 0;
  if (mem == MEM_DEVICE) {
    size_t tb = 0;
    JGT_OK(jg_copy_ex(&dv, &sv, NULL, &tb, NULL, &jgt_err_));
    const size_t bytes = (size_t)jg_layout_volume(dl) * (size_t)dl->itemsize;
    if (tb != bytes) {
      print_error("FAILED %s: the jg_copy_ex query says %zu bytes, want %zu\n", what, tb, bytes);
      bad = 1;
    }
  }
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = do_copy(&dv, &sv, via, &err);
  arena_get(got, g_dst[mem].ptr, mem, n);
  if (st != JG_OK || memcmp(got, want, n) != 0) {
    size_t first = 0;
    while (first < n && got[first] == want[first]) ++first;
    print_error("FAILED %s (%s, via %d): %s %s (first differing byte %zu of %zu)\n", what,
                kMemName[mem], via, jg_status_name(st), err.message, first, n);
    bad = 1;
  }
  free(before);
  free(want);
  free(got);
  return bad;
}

/* Overlapping source and destination (jgt_overlap_cases: in-place transposes, shifts by one
 * both ways, strided shifts, a[1::2] = a[::2], in-place reversal, a 2-D row shift, a broadcast
 * row, C = F in place) in device memory (staged through a device temporary, on the stream) and
 * in pinned, managed and pageable memory (host code), every entry point; plus large device
 * cases: a 4 Mi-element shift by one (two device memcpys) and a 1000 x 1000 in-place transpose
 * (two tiled kernel launches). */
static void test_overlap(void **state) {
  (void)state;
  static const int mems[] = {MEM_DEVICE, MEM_PINNED, MEM_MANAGED, MEM_PAGEABLE};
  static const int64_t all_sizes[] = {1, 2, 4, 8, 16};
  static const int64_t quick_sizes[] = {4, 16};
  const int64_t *sizes = g_quick ? quick_sizes : all_sizes;
  const size_t nsizes = g_quick ? 2 : 5;
  int failures = 0, cases = 0;
  for (size_t mi = 0; mi < sizeof mems / sizeof mems[0]; ++mi) {
    for (size_t ci = 0; ci < JGT_OVERLAP_COUNT; ++ci) {
      for (size_t ii = 0; ii < nsizes; ++ii) {
        const jgt_overlap_case *c = &jgt_overlap_cases[ci];
        jg_layout dl, sl;
        JGT_OK(jgt_overlap_layouts(c, sizes[ii], &dl, &sl));
        char what[128];
        snprintf(what, sizeof what, "overlap '%s', itemsize %lld", c->name, (long long)sizes[ii]);
        failures += run_overlap(&dl, &sl, c->arena, mems[mi], cases % VIA_COUNT, what);
        ++cases;
      }
    }
  }
  const jg_len big = ((jg_len)1 << 22) - 1;
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &big, NULL, 4, &jgt_err_));
  jg_layout right = l, left = l;
  right.slice_offset = 1;
  for (int via = 0; via < VIA_COUNT; ++via) {
    failures += run_overlap(&right, &l, (size_t)big + 1, MEM_DEVICE, via, "4 Mi shift right");
    failures += run_overlap(&left, &right, (size_t)big + 1, MEM_DEVICE, via, "4 Mi shift left");
  }
  jg_layout c1000, t1000;
  JGT_OK(jg_layout_init(&c1000, 2, (jg_len[]){1000, 1000}, NULL, 8, &jgt_err_));
  JGT_OK(jg_layout_permute(&t1000, &c1000, (int[]){1, 0}, &jgt_err_));
  for (int via = 0; via < VIA_COUNT; ++via) {
    failures += run_overlap(&c1000, &t1000, 1000 * 1000, MEM_DEVICE, via, "1000^2 in place .T");
  }
  assert_int_equal(failures, 0);
}

/* More than 2^31 elements: the n-d kernel's 64-bit index path. (N, 3) uint8 rows cut from
 * (N, 4) rows on the device. */
static void test_large_64bit_index(void **state) {
  (void)state;
  if (g_quick) skip();
  const jg_len n = 716000000; /* 3n > 2^31 */
  jg_layout wide, cut, dense;
  JGT_OK(jg_layout_init(&wide, 2, (jg_len[]){n, 4}, NULL, 1, &jgt_err_));
  JGT_OK(jg_layout_slice(&cut, &wide, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(0, 3, 1)}, &jgt_err_));
  JGT_OK(jg_layout_init(&dense, 2, (jg_len[]){n, 3}, NULL, 1, &jgt_err_));
  const size_t ns = (size_t)n * 4, nd = (size_t)n * 3;
  uint8_t *h = malloc(ns);
  assert_non_null(h);
  for (size_t i = 0; i < ns; ++i) h[i] = (uint8_t)((i * 2654435761u) >> 13);
  uint8_t *ds = NULL, *dd = NULL;
  CUDA_OK(cudaMalloc((void **)&ds, ns));
  CUDA_OK(cudaMalloc((void **)&dd, nd));
  CUDA_OK(cudaMemcpy(ds, h, ns, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dd, 0xA5, nd));
  jg_view dv, sv;
  const jg_device dev = {JG_DEVICE_CUDA, 0};
  JGT_OK(jg_view_from_pointer(&dv, dd, dev, &dense, JG_DTYPE_UINT8, false, &jgt_err_));
  JGT_OK(jg_view_from_pointer(&sv, ds, dev, &cut, JG_DTYPE_UINT8, true, &jgt_err_));
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_));
  uint8_t *got = malloc(nd);
  assert_non_null(got);
  CUDA_OK(cudaMemcpy(got, dd, nd, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t r = 0; r < (size_t)n; ++r) {
    for (size_t j = 0; j < 3; ++j) bad += got[r * 3 + j] != h[r * 4 + j];
  }
  assert_int_equal(bad, 0);
  free(got);
  free(h);
  CUDA_OK(cudaFree(ds));
  CUDA_OK(cudaFree(dd));
}

static int setup(void **state) {
  (void)state;
  const char *q = getenv("JGT_COPY_QUICK");
  g_quick = q != NULL && q[0] != '\0' && q[0] != '0';
  for (int m = 0; m < MEM_COUNT; ++m) {
    arena_alloc(&g_src[m], m, ARENA_BYTES);
    arena_alloc(&g_dst[m], m, ARENA_BYTES);
  }
  JGT_OK(jg_stream_create(&g_stream, &jgt_err_));
  return 0;
}

static int teardown(void **state) {
  (void)state;
  jg_stream_destroy(g_stream);
  for (int m = 0; m < MEM_COUNT; ++m) {
    arena_free(&g_src[m]);
    arena_free(&g_dst[m]);
  }
  return 0;
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matrix_0),          cmocka_unit_test(test_matrix_1),
      cmocka_unit_test(test_matrix_2),          cmocka_unit_test(test_matrix_3),
      cmocka_unit_test(test_matrix_4),          cmocka_unit_test(test_matrix_5),
      cmocka_unit_test(test_matrix_6),          cmocka_unit_test(test_matrix_7),
      cmocka_unit_test(test_matrix_8),          cmocka_unit_test(test_matrix_9),
      cmocka_unit_test(test_large_transpose),   cmocka_unit_test(test_large_misc),
      cmocka_unit_test(test_misaligned),        cmocka_unit_test(test_copy_ex_sizes),
      cmocka_unit_test(test_large_64bit_index), cmocka_unit_test(test_overlap),
  };
  return JGT_RUN_TESTS(tests, setup, teardown);
}

#else /* no CUDA in this build */

int main(void) {
  JGT_REQUIRE_GPU();
  printf("[  SKIPPED ] built without CUDA\n");
  return 77;
}

#endif
