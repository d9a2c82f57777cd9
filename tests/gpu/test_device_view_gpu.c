/* test_device_view_gpu.c: device views walked by kernels (device_view_kernels.cu) give exactly
 * what the same walk gives on the host over the host array (the host walks themselves are
 * checked against hand-written values in tests/unit/test_device_view.c); views of pinned and
 * managed host memory; the errors for arrays a device cannot read; and the count / scan / fill
 * output helper on the GPU (empty lists, n = 0, 2^20 + 1 lists, negative counts, overflow).
 * Skips (exit 77) without a usable device. */
#define _POSIX_C_SOURCE 200809L

#include "jg_test.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "gpu/device_view_kernels.h"
#include "jagged/device_view.h"
#include "jgt_dview_walk.h"

#define CUDA_OK(expr) assert_int_equal((int)(expr), (int)cudaSuccess)

/* ---- helpers ------------------------------------------------------------------------------ */

static jg_buffer *g_bufs[128];
static int g_nbufs;

static void release_bufs(void) {
  for (int i = 0; i < g_nbufs; ++i) jg_buffer_release(g_bufs[i]);
  g_nbufs = 0;
}

/* A 1-D view over a copy of `n` values of `dtype` in memory from `mr` (host-accessible). */
static jg_view mview(jg_memory_resource *mr, const void *values, jg_len n, jg_dtype dtype) {
  const size_t bytes = (size_t)n * (size_t)jg_dtype_itemsize(dtype);
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(mr, bytes, NULL, &b, &jgt_err_));
  if (bytes > 0) memcpy(jg_buffer_data(b), values, bytes);
  assert_true(g_nbufs < 128);
  g_bufs[g_nbufs++] = b;
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, jg_dtype_itemsize(dtype), &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, b, &l, dtype, true, &jgt_err_));
  return v;
}

static jg_memory_resource *g_mr; /* where the case builders put buffers (host by default) */

static jg_array *num(const void *values, jg_len n, jg_dtype dtype) {
  jg_view v = mview(g_mr, values, n, dtype);
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  return a;
}

/* list-offset over `content` (its reference is consumed). */
static jg_array *lofs(const void *offsets, jg_len n1, jg_dtype dtype, jg_array *content) {
  jg_view ov = mview(g_mr, offsets, n1, dtype);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&ov, content, &a, &jgt_err_));
  jg_array_release(content);
  return a;
}

/* ---- cases: every node kind, nested, sliced ----------------------------------------------- */

static jg_array *case_muons(void) {
  const float pt[] = {10.5f, 20.25f, 30, 40, 3.5f};
  const int8_t q[] = {1, -1, 1, -1, 1};
  const int32_t hits[] = {7, 8, 9};
  const int32_t hoff[] = {0, 2, 2, 3, 3, 3};
  jg_array *f[3] = {num(pt, 5, JG_DTYPE_FLOAT32), num(q, 5, JG_DTYPE_INT8),
                    lofs(hoff, 6, JG_DTYPE_INT32, num(hits, 3, JG_DTYPE_INT32))};
  jg_array *rec = NULL;
  JGT_OK(jg_array_record(3, f, (const char *const[]){"pt", "q", "hits"}, -1, &rec, &jgt_err_));
  for (int k = 0; k < 3; ++k) jg_array_release(f[k]);
  const int64_t eoff[] = {1, 4, 4, 5}; /* not starting at 0; muon 0 and nothing after 5 unused */
  return lofs(eoff, 4, JG_DTYPE_INT64, rec);
}

static jg_array *case_options(void) {
  double x[11];
  for (int i = 0; i < 11; ++i) x[i] = 100 + i;
  const uint8_t bits[] = {0x2D, 0x06};
  jg_view bv = mview(g_mr, bits, 2, JG_DTYPE_UINT8);
  jg_array *c = num(x, 11, JG_DTYPE_FLOAT64), *bm = NULL, *s = NULL;
  JGT_OK(jg_array_bit_masked(&bv, true, false, 11, c, &bm, &jgt_err_));
  jg_array_release(c);
  JGT_OK(jg_array_slice(bm, 3, 11, &s, &jgt_err_)); /* bit offset 3 */
  jg_array_release(bm);
  const uint8_t m[] = {1, 0, 1, 1, 0, 1, 1, 0};
  jg_view mv = mview(g_mr, m, 8, JG_DTYPE_BOOL);
  jg_array *byte = NULL;
  JGT_OK(jg_array_byte_masked(&mv, false, s, &byte, &jgt_err_));
  jg_array_release(s);
  const int64_t off[] = {0, 3, 3, 8};
  jg_array *l = lofs(off, 4, JG_DTYPE_INT64, byte);
  const int32_t idx[] = {2, -1, 0, 1, 2};
  jg_view iv = mview(g_mr, idx, 5, JG_DTYPE_INT32);
  jg_array *o = NULL;
  JGT_OK(jg_array_indexed_option(&iv, l, &o, &jgt_err_));
  jg_array_release(l);
  return o; /* 5 * ?var * ??float64 */
}

static jg_array *case_lists_regular(void) {
  const uint16_t x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  jg_array *c = num(x, 9, JG_DTYPE_UINT16), *r = NULL, *a = NULL;
  JGT_OK(jg_array_regular(c, 3, -1, &r, &jgt_err_));
  jg_array_release(c);
  const int32_t starts[] = {2, 0, 1};
  const int32_t stops[] = {3, 2, 1};
  jg_view sv = mview(g_mr, starts, 3, JG_DTYPE_INT32);
  jg_view tv = mview(g_mr, stops, 3, JG_DTYPE_INT32);
  JGT_OK(jg_array_list(&sv, &tv, r, &a, &jgt_err_));
  jg_array_release(r);
  return a;
}

static jg_array *case_inner_dims(void) {
  double x[24];
  for (int i = 0; i < 24; ++i) x[i] = i * 0.5;
  jg_view v = mview(g_mr, x, 24, JG_DTYPE_FLOAT64);
  JGT_OK(jg_layout_init(&v.layout, 3, (jg_len[]){4, 3, 2}, (jg_stride[]){1, 8, 4}, 8,
                        &jgt_err_)); /* not mergeable: the non-flat path */
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
  const jg_slice s = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -1);
  jg_view w = mview(g_mr, x, 24, JG_DTYPE_FLOAT64);
  JGT_OK(jg_layout_init(&w.layout, 2, (jg_len[]){4, 6}, NULL, 8, &jgt_err_));
  JGT_OK(jg_view_slice(&w, &w, 1, &s, &jgt_err_)); /* reversed rows: negative stride */
  jg_array *b = NULL;
  JGT_OK(jg_array_numeric(&w, &b, &jgt_err_));
  jg_array *rec = NULL;
  JGT_OK(jg_array_record(2, (jg_array *[]){a, b}, NULL, -1, &rec, &jgt_err_));
  jg_array_release(a);
  jg_array_release(b);
  return rec;
}

static jg_array *case_dtypes(void) {
  const uint16_t h[] = {0x3C00, 0xC000, 0x0001, 0x3555};
  const uint64_t u[] = {UINT64_MAX, 1, (uint64_t)1 << 63, 0};
  const int16_t s[] = {-300, 7, 0, 1};
  const uint8_t b[] = {1, 0, 1, 0};
  jg_array *f[4] = {num(h, 4, JG_DTYPE_FLOAT16), num(u, 4, JG_DTYPE_UINT64),
                    num(s, 4, JG_DTYPE_INT16), num(b, 4, JG_DTYPE_BOOL)};
  jg_array *rec = NULL;
  JGT_OK(jg_array_record(4, f, (const char *const[]){"h", "u", "s", "b"}, -1, &rec, &jgt_err_));
  for (int k = 0; k < 4; ++k) jg_array_release(f[k]);
  return rec;
}

/* Six levels of lists, each level two lists of one item over the two entries below it:
 * [[[[[[[42]]]]]], [[[[[[43]]]]]]]. Every level's offsets stay within its content (an earlier
 * version used offsets [0, 2] over one-entry contents, an invalid array the walk overran). */
static jg_array *case_deep(void) {
  const int64_t x[] = {42, 43};
  const int64_t off[] = {0, 1, 2};
  jg_array *a = num(x, 2, JG_DTYPE_INT64);
  for (int d = 0; d < 6; ++d) a = lofs(off, 3, JG_DTYPE_INT64, a);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  return a;
}

static jg_array *case_empty(void) {
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  const int32_t off[] = {0, 0, 0};
  return lofs(off, 3, JG_DTYPE_INT32, e);
}

/* Many events of random muons (fixed seed): var * {pt: float32, eta: float32}. */
static jg_array *case_many(jg_len nev) {
  uint64_t seed = 12345;
  int64_t *off = malloc((size_t)(nev + 1) * sizeof *off);
  assert_non_null(off);
  off[0] = 0;
  for (jg_len i = 0; i < nev; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    off[i + 1] = off[i] + (int64_t)((seed >> 33) % 5);
  }
  const jg_len nmu = off[nev];
  float *pt = malloc((size_t)(nmu + 1) * sizeof *pt), *eta = malloc((size_t)(nmu + 1) * sizeof *eta);
  assert_non_null(pt);
  assert_non_null(eta);
  for (jg_len j = 0; j < nmu; ++j) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    pt[j] = (float)((seed >> 40) % 10000) / 100.0f;
    eta[j] = (float)((int64_t)((seed >> 20) % 500) - 250) / 100.0f;
  }
  jg_array *f[2] = {num(pt, nmu, JG_DTYPE_FLOAT32), num(eta, nmu, JG_DTYPE_FLOAT32)};
  jg_array *rec = NULL;
  JGT_OK(jg_array_record(2, f, (const char *const[]){"pt", "eta"}, -1, &rec, &jgt_err_));
  jg_array_release(f[0]);
  jg_array_release(f[1]);
  jg_array *ev = lofs(off, nev + 1, JG_DTYPE_INT64, rec);
  free(off);
  free(pt);
  free(eta);
  return ev;
}

/* ---- comparing walks ---------------------------------------------------------------------- */

/* Walks `host` (a cpu array) on the host and `dev` (readable from device 0) with a kernel, whole
 * and entry by entry, and asserts equal results. */
static void expect_same_walks(const jg_array *host, const jg_array *dev, jg_stream stream) {
  jg_device_view *hh = NULL, *dh = NULL;
  JGT_OK(jg_array_host_view_create(host, &hh, &jgt_err_));
  JGT_OK(jg_array_device_view_create(dev, 0, stream, &dh, &jgt_err_));
  const jg_dview hv = jg_device_view_get(hh), dv = jg_device_view_get(dh);
  const int64_t n = jg_dview_length(hv, hv.root);
  assert_int_equal(jg_array_length(dev), n);
  jgt_sink s = {NULL, 0, 0, 0.0};
  assert_true(jgt_walk_into(hv, 0, n, &s));
  const int64_t total = s.count;
  double *want = malloc((size_t)(total + 1) * sizeof *want);
  assert_non_null(want);
  assert_int_equal(jgt_walk(hv, 0, n, want, total), total);

  double *d_out = NULL, *d_sums = NULL;
  int64_t *d_res = NULL, *d_counts = NULL;
  CUDA_OK(cudaMalloc((void **)&d_out, (size_t)(total + 1) * sizeof(double)));
  CUDA_OK(cudaMalloc((void **)&d_res, 2 * sizeof(int64_t)));
  CUDA_OK(cudaMalloc((void **)&d_counts, (size_t)(n + 1) * sizeof(int64_t)));
  CUDA_OK(cudaMalloc((void **)&d_sums, (size_t)(n + 1) * sizeof(double)));
  assert_int_equal(jgt_launch_walk(dv, 0, n, d_out, total, d_res, stream), 0);
  assert_int_equal(jgt_launch_walk_each(dv, n, d_counts, d_sums, stream), 0);
  JGT_OK(jg_stream_synchronize(stream, &jgt_err_));
  int64_t res[2];
  double *got = malloc((size_t)(total + 1) * sizeof *got);
  int64_t *counts = malloc((size_t)(n + 1) * sizeof *counts);
  double *sums = malloc((size_t)(n + 1) * sizeof *sums);
  assert_true(got != NULL && counts != NULL && sums != NULL);
  CUDA_OK(cudaMemcpy(res, d_res, sizeof res, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(got, d_out, (size_t)total * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(counts, d_counts, (size_t)n * sizeof(int64_t), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(sums, d_sums, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
  assert_int_equal(res[0], total);
  double dsum;
  memcpy(&dsum, &res[1], sizeof dsum);
  assert_true(dsum == s.sum);
  for (int64_t i = 0; i < total; ++i) {
    if (got[i] != want[i]) {
      print_error("value %lld: device %.17g, host %.17g\n", (long long)i, got[i], want[i]);
      fail();
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    jgt_sink e = {NULL, 0, 0, 0.0};
    assert_true(jgt_walk_into(hv, i, i + 1, &e));
    if (counts[i] != e.count || sums[i] != e.sum) {
      print_error("entry %lld: device %lld values sum %.17g, host %lld sum %.17g\n",
                  (long long)i, (long long)counts[i], sums[i], (long long)e.count, e.sum);
      fail();
    }
  }
  CUDA_OK(cudaFree(d_out));
  CUDA_OK(cudaFree(d_res));
  CUDA_OK(cudaFree(d_counts));
  CUDA_OK(cudaFree(d_sums));
  free(want);
  free(got);
  free(counts);
  free(sums);
  jg_device_view_destroy(hh);
  jg_device_view_destroy(dh);
}

typedef jg_array *(*case_fn)(void);

static jg_array *case_many_small(void) { return case_many(1000); }

static const case_fn g_cases[] = {case_muons, case_options,      case_lists_regular,
                                  case_inner_dims, case_dtypes, case_deep,
                                  case_empty,      case_many_small};

static void test_walks_match_host(void **state) {
  (void)state;
  g_mr = jg_memory_resource_host();
  for (size_t k = 0; k < sizeof g_cases / sizeof g_cases[0]; ++k) {
    jg_array *h = g_cases[k](), *d = NULL;
    JGT_OK(jg_array_validate(h, JG_VALIDATE_FULL, NULL, &jgt_err_)); /* walks do not check */
    JGT_OK(jg_array_to_device(h, 0, NULL, &d, &jgt_err_));
    assert_int_equal(jg_array_backend(d), JG_BACKEND_CUDA);
    expect_same_walks(h, d, NULL);
    /* a slice taken on the device shares the device buffers: offsets not at 0 */
    const jg_len n = jg_array_length(h);
    jg_array *hs = NULL, *ds = NULL;
    JGT_OK(jg_array_slice(h, n / 3, n - n / 4, &hs, &jgt_err_));
    JGT_OK(jg_array_slice(d, n / 3, n - n / 4, &ds, &jgt_err_));
    expect_same_walks(hs, ds, NULL);
    jg_array_release(hs);
    jg_array_release(ds);
    jg_array_release(h);
    jg_array_release(d);
  }
  release_bufs();
}

/* A big array on a stream of our own; the table copy and the kernels share the stream. */
static void test_walks_large_on_stream(void **state) {
  (void)state;
  g_mr = jg_memory_resource_host();
  jg_stream s = NULL;
  JGT_OK(jg_stream_create(&s, &jgt_err_));
  jg_array *h = case_many(200000), *d = NULL;
  JGT_OK(jg_array_to_device(h, 0, s, &d, &jgt_err_));
  expect_same_walks(h, d, s);
  jg_array_release(h);
  jg_array_release(d);
  jg_stream_destroy(s);
  release_bufs();
}

/* Buffers in pinned or managed host memory are readable from the device as they are. */
static void test_pinned_and_managed(void **state) {
  (void)state;
  jg_memory_resource *pinned = NULL, *managed = NULL;
  JGT_OK(jg_memory_resource_pinned(&pinned, &jgt_err_));
  g_mr = pinned;
  jg_array *p = case_muons(), *h = NULL;
  g_mr = jg_memory_resource_host();
  h = case_muons();
  assert_int_equal(jg_array_backend(p), JG_BACKEND_CPU);
  expect_same_walks(h, p, NULL);
  jg_array_release(p);
  int have_managed = 0;
  CUDA_OK(cudaDeviceGetAttribute(&have_managed, cudaDevAttrManagedMemory, 0));
  if (have_managed) {
    JGT_OK(jg_memory_resource_managed(0, &managed, &jgt_err_));
    g_mr = managed;
    jg_array *m = case_options(), *ho = NULL;
    g_mr = jg_memory_resource_host();
    ho = case_options();
    expect_same_walks(ho, m, NULL);
    jg_array_release(m);
    jg_array_release(ho);
  }
  jg_array_release(h);
  release_bufs();
}

/* The muon kernel of examples/muons.cu: sum of pt per event, against the host loop. */
static void test_sum_pt(void **state) {
  (void)state;
  g_mr = jg_memory_resource_host();
  jg_array *h = case_many(50000), *d = NULL;
  JGT_OK(jg_array_to_device(h, 0, NULL, &d, &jgt_err_));
  jg_device_view *dh = NULL, *hh = NULL;
  JGT_OK(jg_array_device_view_create(d, 0, NULL, &dh, &jgt_err_));
  JGT_OK(jg_array_host_view_create(h, &hh, &jgt_err_));
  const int pt = jg_array_field_index(jg_array_child(d, 0), "pt");
  assert_int_equal(pt, 0);
  const jg_len n = jg_array_length(d);
  float *d_out = NULL;
  CUDA_OK(cudaMalloc((void **)&d_out, (size_t)n * sizeof(float)));
  assert_int_equal(jgt_launch_sum_pt(jg_device_view_get(dh), n, pt, d_out, NULL), 0);
  float *got = malloc((size_t)n * sizeof *got);
  assert_non_null(got);
  CUDA_OK(cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
  const jg_dview v = jg_device_view_get(hh);
  const int32_t ptn = jg_dview_field(v, jg_dview_content(v, v.root), pt);
  int nonzero = 0;
  for (jg_len i = 0; i < n; ++i) {
    const jg_drange r = jg_dview_list(v, v.root, i);
    float sum = 0.0f;
    for (int64_t j = r.start; j < r.stop; ++j) sum += jg_dview_get_f32(v, ptn, j);
    nonzero += sum != 0.0f;
    if (got[i] != sum) {
      print_error("event %lld: device %g, host %g\n", (long long)i, (double)got[i],
                  (double)sum);
      fail();
    }
  }
  assert_true(nonzero > n / 2);
  free(got);
  CUDA_OK(cudaFree(d_out));
  jg_device_view_destroy(dh);
  jg_device_view_destroy(hh);
  jg_array_release(h);
  jg_array_release(d);
  release_bufs();
}

/* ---- errors ------------------------------------------------------------------------------- */

static void test_errors(void **state) {
  (void)state;
  g_mr = jg_memory_resource_host();
  jg_error err;
  jg_error_clear(&err);
  jg_array *h = case_muons(), *d = NULL;
  jg_device_view *v = (jg_device_view *)&err;
  JGT_STATUS(JG_EBACKEND, jg_array_device_view_create(h, 0, NULL, &v, &err));
  assert_null(v);
  assert_string_equal(err.message,
                      "argument is on cpu: copy it to the device first with jg_array_to_device");
  JGT_OK(jg_array_to_device(h, 0, NULL, &d, &jgt_err_));
  JGT_STATUS(JG_EBACKEND, jg_array_host_view_create(d, &v, &err));
  assert_string_equal(err.message,
                      "argument is on cuda:0: copy it to the host first with jg_array_to_host");
  int ndev = 0;
  JGT_OK(jg_device_count(&ndev, &jgt_err_));
  /* a device that does not exist: the cuda:0 buffers are refused first (another device) */
  JGT_STATUS(JG_EBACKEND, jg_array_device_view_create(d, ndev, NULL, &v, &err));
  JGT_CONTAINS(err.message, "argument is on cuda:0");
  /* an array without buffers on a device that does not exist */
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  JGT_STATUS(JG_EINDEX, jg_array_device_view_create(e, ndev, NULL, &v, &err));
  assert_int_equal(err.index, ndev);
  JGT_OK(jg_array_device_view_create(e, 0, NULL, &v, &jgt_err_)); /* fine on a real one */
  jg_device_view_destroy(v);
  jg_array_release(e);
  jg_array_release(h);
  jg_array_release(d);
  release_bufs();
}

/* ---- count / scan / fill ------------------------------------------------------------------ */

/* Checks a finished output of n lists with counts[i] = expect_count(i) and content i*1000 + k,
 * by copying it to the host. */
static void expect_output(jg_array *a, jg_len n, int64_t (*expect_count)(int64_t, void *),
                          void *ctx) {
  assert_int_equal(jg_array_kind(a), JG_NODE_LIST_OFFSET);
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  assert_int_equal(jg_array_device(a).id, 0);
  assert_int_equal(jg_array_length(a), n);
  jg_array *h = NULL;
  JGT_OK(jg_array_to_host(a, NULL, &h, &jgt_err_));
  jg_device_view *hh = NULL;
  JGT_OK(jg_array_host_view_create(h, &hh, &jgt_err_));
  const jg_dview v = jg_device_view_get(hh);
  const int32_t c = jg_dview_content(v, v.root);
  int64_t at = 0;
  for (int64_t i = 0; i < n; ++i) {
    const jg_drange r = jg_dview_list(v, v.root, i);
    const int64_t want = expect_count(i, ctx);
    if (r.start != at || r.stop - r.start != want) {
      print_error("list %lld: [%lld, %lld), expected [%lld, %lld)\n", (long long)i,
                  (long long)r.start, (long long)r.stop, (long long)at, (long long)(at + want));
      fail();
    }
    for (int64_t k = 0; k < want; ++k) {
      if (jg_dview_get_i64(v, c, at + k) != i * 1000 + k) {
        print_error("list %lld item %lld: %lld\n", (long long)i, (long long)k,
                    (long long)jg_dview_get_i64(v, c, at + k));
        fail();
      }
    }
    at += want;
  }
  assert_int_equal(jg_dview_length(v, c), at);
  jg_device_view_destroy(hh);
  jg_array_release(h);
}

static int64_t count_mod5(int64_t i, void *ctx) {
  (void)ctx;
  return i % 5;
}

static int64_t count_zero(int64_t i, void *ctx) {
  (void)i;
  (void)ctx;
  return 0;
}

/* n lists with counts i % mod, filled and finished; returns the array. */
static jg_array *output_mod(jg_len n, int64_t mod, jg_stream s) {
  jg_list_output *o = NULL;
  JGT_OK(jg_list_output_begin(n, JG_DTYPE_INT64, 0, s, &o, &jgt_err_));
  assert_int_equal(jgt_launch_count_mod(jg_list_output_counts(o), n, mod, s), 0);
  assert_null(jg_list_output_offsets(o));
  JGT_OK(jg_list_output_scan(o, &jgt_err_));
  int64_t want_total = 0;
  for (int64_t i = 0; i < n; ++i) want_total += i % mod;
  assert_int_equal(jg_list_output_total(o), want_total);
  assert_int_equal(jgt_launch_fill(jg_list_output_offsets(o), n,
                                   (int64_t *)jg_list_output_content(o), s),
                   0);
  jg_array *a = NULL;
  JGT_OK(jg_list_output_finish(o, &a, &jgt_err_));
  jg_list_output_destroy(o);
  JGT_OK(jg_stream_synchronize(s, &jgt_err_));
  return a;
}

static void test_output_big(void **state) {
  (void)state;
  const jg_len n = ((jg_len)1 << 20) + 1;
  jg_stream s = NULL;
  JGT_OK(jg_stream_create(&s, &jgt_err_));
  jg_array *a = output_mod(n, 5, s);
  expect_output(a, n, count_mod5, NULL);
  /* the output is an ordinary cuda array: view it from a kernel again */
  jg_array *h = NULL;
  JGT_OK(jg_array_to_host(a, NULL, &h, &jgt_err_));
  jg_array *hs = NULL, *as = NULL;
  JGT_OK(jg_array_slice(h, 0, 4099, &hs, &jgt_err_));
  JGT_OK(jg_array_slice(a, 0, 4099, &as, &jgt_err_));
  expect_same_walks(hs, as, s);
  jg_array_release(hs);
  jg_array_release(as);
  jg_array_release(h);
  jg_array_release(a);
  jg_stream_destroy(s);
}

static void test_output_empty(void **state) {
  (void)state;
  /* n = 0 */
  jg_array *a = output_mod(0, 5, NULL);
  expect_output(a, 0, count_zero, NULL);
  jg_array_release(a);
  /* every list empty: total 0, no content */
  a = output_mod(1000, 1, NULL);
  expect_output(a, 1000, count_zero, NULL);
  jg_array_release(a);
  jg_list_output *o = NULL;
  JGT_OK(jg_list_output_begin(3, JG_DTYPE_FLOAT32, 0, NULL, &o, &jgt_err_));
  JGT_OK(jg_list_output_scan(o, &jgt_err_)); /* counts zeroed by begin */
  assert_int_equal(jg_list_output_total(o), 0);
  assert_null(jg_list_output_content(o));
  jg_list_output_destroy(o);
}

static int64_t count_atomic(int64_t i, void *ctx) {
  const int64_t *p = ctx; /* {n, items}: list (t * 7) % n gets one per thread t < items */
  int64_t c = 0;
  for (int64_t t = 0; t < p[1]; ++t) c += (t * 7) % p[0] == i;
  return c;
}

static void test_output_atomic(void **state) {
  (void)state;
  const int64_t p[2] = {1000, 2500}; /* 7 and 1000 coprime: lists get 2 or 3 */
  jg_list_output *o = NULL;
  JGT_OK(jg_list_output_begin(p[0], JG_DTYPE_INT64, 0, NULL, &o, &jgt_err_));
  assert_int_equal(jgt_launch_count_atomic(jg_list_output_counts(o), p[0], p[1], NULL), 0);
  JGT_OK(jg_list_output_scan(o, &jgt_err_));
  assert_int_equal(jg_list_output_total(o), p[1]);
  assert_int_equal(jgt_launch_fill(jg_list_output_offsets(o), p[0],
                                   (int64_t *)jg_list_output_content(o), NULL),
                   0);
  jg_array *a = NULL;
  JGT_OK(jg_list_output_finish(o, &a, &jgt_err_));
  jg_list_output_destroy(o);
  expect_output(a, p[0], count_atomic, (void *)p);
  jg_array_release(a);
}

static void test_output_errors(void **state) {
  (void)state;
  jg_error err;
  jg_error_clear(&err);
  const jg_len n = 100000;
  jg_list_output *o = NULL;
  JGT_OK(jg_list_output_begin(n, JG_DTYPE_INT64, 0, NULL, &o, &jgt_err_));
  int64_t *counts = jg_list_output_counts(o);
  assert_int_equal(jgt_launch_count_mod(counts, n, 3, NULL), 0);
  assert_int_equal(jgt_launch_store(counts, 70001, -3, NULL), 0);
  assert_int_equal(jgt_launch_store(counts, 12345, -9, NULL), 0);
  JGT_STATUS(JG_EVALUE, jg_list_output_scan(o, &err));
  assert_int_equal(err.index, 12345); /* the first negative count */
  JGT_CONTAINS(err.message, "counts[12345] = -9 is negative");
  assert_int_equal(jg_list_output_total(o), -1);
  /* fixed counts, then an overflowing sum */
  assert_int_equal(jgt_launch_count_mod(counts, n, 3, NULL), 0);
  assert_int_equal(jgt_launch_store(counts, 5, INT64_MAX - 3, NULL), 0);
  JGT_STATUS(JG_EOVERFLOW, jg_list_output_scan(o, &err));
  assert_int_equal(err.index, 5); /* 0 + 1 + 2 + 0 + 1 + (INT64_MAX - 3) */
  assert_int_equal(jgt_launch_store(counts, 5, 2, NULL), 0);
  JGT_OK(jg_list_output_scan(o, &jgt_err_));
  jg_list_output_destroy(o);
  int ndev = 0;
  JGT_OK(jg_device_count(&ndev, &jgt_err_));
  JGT_STATUS(JG_EINDEX, jg_list_output_begin(4, JG_DTYPE_INT64, ndev, NULL, &o, &err));
  assert_null(o);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_walks_match_host), cmocka_unit_test(test_walks_large_on_stream),
      cmocka_unit_test(test_pinned_and_managed), cmocka_unit_test(test_sum_pt),
      cmocka_unit_test(test_errors),           cmocka_unit_test(test_output_big),
      cmocka_unit_test(test_output_empty),     cmocka_unit_test(test_output_atomic),
      cmocka_unit_test(test_output_errors),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}

#else /* built without CUDA: nothing can run */

int main(void) {
  JGT_REQUIRE_GPU();
  return 0;
}

#endif
