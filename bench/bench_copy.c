/* bench_copy.c: strided copies on the GPU as fractions of cudaMemcpy bandwidth.
 *
 * Device to device, about 1 GiB per side: a contiguous copy through jg_copy_async against
 * cudaMemcpyAsync, a 16384 x 16384 transpose of 4-byte elements, a reversed 1-D run, a batched
 * (0, 2, 1) permutation and rows cut from wider rows. Then host <-> device, 256 MiB: pinned and
 * pageable host memory through jg_copy_async against cudaMemcpyAsync from pinned memory, and a
 * transposing copy from pinned memory.
 *
 * Bandwidth counts bytes read plus bytes written for device-to-device copies and bytes moved for
 * host <-> device copies, divided by the median time of 20 runs measured with CUDA events on one
 * stream after 3 warm-up runs. Each strided result is spot-checked. Goals (issue 2): contiguous
 * copies at 95% of cudaMemcpy, 2-D transposes at 70% or more.
 *
 * Usage: bench_copy [runs]. Exits 77 without a usable GPU, 1 on an error or a wrong result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jagged/jagged.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>

#define CK(expr)                                                              \
  do {                                                                        \
    cudaError_t e_ = (expr);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      fprintf(stderr, "bench_copy: %s: %s\n", #expr, cudaGetErrorString(e_)); \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

#define JK(expr)                                                                          \
  do {                                                                                    \
    jg_error e_;                                                                          \
    jg_error_clear(&e_);                                                                  \
    jg_status s_ = (expr);                                                                \
    if (s_ != JG_OK) {                                                                    \
      fprintf(stderr, "bench_copy: %s: %s: %s\n", #expr, jg_status_name(s_), e_.message); \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

static int g_runs = 20;
static const int kWarmup = 3;
static cudaStream_t g_stream;

/* What one timed run does. */
typedef struct op {
  const jg_view *dst, *src; /* jg_copy_async(dst, src) when set */
  void *mdst;               /* else cudaMemcpyAsync(mdst, msrc, mbytes) */
  const void *msrc;
  size_t mbytes;
} op;

static void run_op(const op *o) {
  if (o->dst != NULL) {
    JK(jg_copy_async(o->dst, o->src, (jg_stream)g_stream, &e_));
  } else {
    CK(cudaMemcpyAsync(o->mdst, o->msrc, o->mbytes, cudaMemcpyDefault, g_stream));
  }
}

static int cmp_float(const void *a, const void *b) {
  const float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Median milliseconds of g_runs runs of `o`, each between two events on g_stream. */
static double median_ms(const op *o) {
  for (int i = 0; i < kWarmup; ++i) run_op(o);
  CK(cudaStreamSynchronize(g_stream));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  float *ms = malloc(sizeof(float) * (size_t)g_runs);
  if (ms == NULL) exit(1);
  for (int i = 0; i < g_runs; ++i) {
    CK(cudaEventRecord(a, g_stream));
    run_op(o);
    CK(cudaEventRecord(b, g_stream));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms[i], a, b));
  }
  qsort(ms, (size_t)g_runs, sizeof(float), cmp_float);
  const double med = g_runs % 2 ? ms[g_runs / 2] : 0.5 * (ms[g_runs / 2 - 1] + ms[g_runs / 2]);
  free(ms);
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return med;
}

static void row(const char *name, double bytes_counted, double ms, double ref_gbs,
                const char *goal) {
  const double gbs = bytes_counted / (ms * 1e-3) / 1e9;
  printf("%-46s %10.3f %10.1f %8.1f%%  %s\n", name, ms, gbs, 100.0 * gbs / ref_gbs, goal);
}

static jg_view dev_view(void *ptr, const jg_layout *l, bool readonly) {
  jg_view v;
  const jg_device d = {JG_DEVICE_CUDA, 0};
  JK(jg_view_from_pointer(&v, ptr, d, l, JG_DTYPE_FLOAT32, readonly, &e_));
  return v;
}

/* Reads element `i` (4 bytes) of device or host memory. */
static uint32_t peek(const void *p, int64_t i) {
  uint32_t v = 0;
  CK(cudaMemcpy(&v, (const char *)p + 4 * i, 4, cudaMemcpyDefault));
  return v;
}

static int g_wrong;
static void expect(const char *what, uint32_t got, uint32_t want) {
  if (got != want) {
    fprintf(stderr, "bench_copy: %s: wrong result (got %u, want %u)\n", what, got, want);
    g_wrong = 1;
  }
}

static const char *verdict(double frac, double goal) {
  return frac >= goal ? "goal met" : "BELOW GOAL";
}

int main(int argc, char **argv) {
  if (argc > 1) g_runs = atoi(argv[1]) > 0 ? atoi(argv[1]) : 20;
  int ndev = 0;
  if (jg_device_count(&ndev, NULL) != JG_OK || ndev == 0) {
    printf("bench_copy: skipped, no CUDA device (%s)\n", jg_cuda_unavailable_reason());
    return 77;
  }
  jg_device_properties props;
  JK(jg_device_get_properties(0, &props, &e_));
  CK(cudaSetDevice(0));
  CK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
  printf("bench_copy on %s (cc %d.%d, %d SMs), median of %d runs after %d warm-up\n", props.name,
         props.cc_major, props.cc_minor, props.multiprocessors, g_runs, kWarmup);

  /* ---- device to device, 1 GiB per side ---- */
  const int64_t n = 16384;
  const size_t bytes = (size_t)n * (size_t)n * 4; /* 1 GiB */
  uint32_t *host = malloc(bytes);
  if (host == NULL) {
    fprintf(stderr, "bench_copy: cannot allocate %zu host bytes\n", bytes);
    return 1;
  }
  for (size_t i = 0; i < bytes / 4; ++i) host[i] = (uint32_t)i;
  void *src = NULL, *dst = NULL;
  CK(cudaMalloc(&src, bytes));
  CK(cudaMalloc(&dst, bytes));
  CK(cudaMemcpy(src, host, bytes, cudaMemcpyHostToDevice));

  printf("\n%-46s %10s %10s %9s\n", "device to device (bytes read + written)", "ms", "GB/s",
         "of memcpy");
  op ref = {NULL, NULL, dst, src, bytes};
  const double ref_ms = median_ms(&ref);
  const double ref_gbs = 2.0 * (double)bytes / (ref_ms * 1e-3) / 1e9;
  row("cudaMemcpyAsync 1 GiB", 2.0 * (double)bytes, ref_ms, ref_gbs, "reference");

  jg_layout lin, sq, sqt, rev;
  const jg_len vol = n * n;
  JK(jg_layout_init(&lin, 1, &vol, NULL, 4, &e_));
  JK(jg_layout_init(&sq, 2, (jg_len[]){n, n}, NULL, 4, &e_));
  JK(jg_layout_permute(&sqt, &sq, (int[]){1, 0}, &e_));
  JK(jg_layout_slice(&rev, &lin, 1, (jg_slice[]){JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -1)}, &e_));

  jg_view dlin = dev_view(dst, &lin, false), slin = dev_view(src, &lin, true);
  op contig = {&dlin, &slin, NULL, NULL, 0};
  double ms = median_ms(&contig);
  double frac = (2.0 * (double)bytes / (ms * 1e-3) / 1e9) / ref_gbs;
  row("jg_copy_async contiguous 1 GiB", 2.0 * (double)bytes, ms, ref_gbs, verdict(frac, 0.95));
  expect("contiguous", peek(dst, 123456789), 123456789u);

  jg_view dsq = dev_view(dst, &sq, false), ssqt = dev_view(src, &sqt, true);
  op transpose = {&dsq, &ssqt, NULL, NULL, 0};
  ms = median_ms(&transpose);
  frac = (2.0 * (double)bytes / (ms * 1e-3) / 1e9) / ref_gbs;
  row("transpose 16384 x 16384, 4-byte", 2.0 * (double)bytes, ms, ref_gbs, verdict(frac, 0.70));
  expect("transpose", peek(dst, 5 * n + 7), (uint32_t)(7 * n + 5));
  expect("transpose", peek(dst, (n - 1) * n + 3), (uint32_t)(3 * n + n - 1));

  jg_view srev = dev_view(src, &rev, true);
  op reversed = {&dlin, &srev, NULL, NULL, 0};
  ms = median_ms(&reversed);
  row("reversed 1-D, 2^28 x 4-byte", 2.0 * (double)bytes, ms, ref_gbs, "");
  expect("reversed", peek(dst, 0), (uint32_t)(vol - 1));
  expect("reversed", peek(dst, vol - 10), 9u);

  /* (64, 2048, 2048) with the last two axes swapped. */
  jg_layout b3, b3p, b3c;
  JK(jg_layout_init(&b3, 3, (jg_len[]){64, 2048, 2048}, NULL, 4, &e_));
  JK(jg_layout_permute(&b3p, &b3, (int[]){0, 2, 1}, &e_));
  JK(jg_layout_init(&b3c, 3, (jg_len[]){64, 2048, 2048}, NULL, 4, &e_));
  jg_view db3 = dev_view(dst, &b3c, false), sb3 = dev_view(src, &b3p, true);
  op batched = {&db3, &sb3, NULL, NULL, 0};
  ms = median_ms(&batched);
  row("batched transpose (64, 2048, 2048) axes 0,2,1", 2.0 * (double)bytes, ms, ref_gbs, "");
  expect("batched", peek(dst, (int64_t)5 * 2048 * 2048 + 3 * 2048 + 11),
         (uint32_t)((int64_t)5 * 2048 * 2048 + 11 * 2048 + 3));

  /* Rows of 1000 cut from rows of 1024 (262144 rows). */
  const jg_len nrows = (jg_len)(bytes / 4 / 1024);
  jg_layout wide, cut, rows;
  JK(jg_layout_init(&wide, 2, (jg_len[]){nrows, 1024}, NULL, 4, &e_));
  JK(jg_layout_slice(&cut, &wide, 2, (jg_slice[]){JG_SLICE_ALL, JG_SLICE(8, 1008, 1)}, &e_));
  JK(jg_layout_init(&rows, 2, (jg_len[]){nrows, 1000}, NULL, 4, &e_));
  jg_view drows = dev_view(dst, &rows, false), scut = dev_view(src, &cut, true);
  op rowcut = {&drows, &scut, NULL, NULL, 0};
  ms = median_ms(&rowcut);
  const double cut_bytes = 2.0 * (double)nrows * 1000.0 * 4.0;
  row("rows 1000 of 1024, 4-byte, 262144 rows", cut_bytes, ms, ref_gbs, "");
  expect("row cut", peek(dst, 1000 * 77 + 5), (uint32_t)(1024 * 77 + 8 + 5));

  /* ---- host <-> device, 256 MiB ---- */
  const size_t hbytes = (size_t)256 << 20;
  jg_memory_resource *pinned_mr = NULL;
  JK(jg_memory_resource_pinned(&pinned_mr, &e_));
  jg_buffer *pinned_buf = NULL;
  JK(jg_buffer_allocate(pinned_mr, hbytes, NULL, &pinned_buf, &e_));
  void *pinned = jg_buffer_data(pinned_buf);
  memcpy(pinned, host, hbytes);
  void *pageable = host; /* malloc'd and touched above */
  jg_layout hl, hsq, hsqt;
  const jg_len hvol = (jg_len)(hbytes / 4);
  JK(jg_layout_init(&hl, 1, &hvol, NULL, 4, &e_));
  JK(jg_layout_init(&hsq, 2, (jg_len[]){4096, 16384}, NULL, 4, &e_));
  jg_layout hsq2;
  JK(jg_layout_init(&hsq2, 2, (jg_len[]){16384, 4096}, NULL, 4, &e_));
  JK(jg_layout_permute(&hsqt, &hsq2, (int[]){1, 0}, &e_));
  jg_view d_h = dev_view(dst, &hl, false), s_h = dev_view(src, &hl, true);
  jg_view pin_src, pin_dst, page_src, page_dst, pin_t;
  const jg_device hostdev = JG_DEVICE_HOST_INIT, pindev = {JG_DEVICE_CUDA_HOST, 0};
  JK(jg_view_from_pointer(&pin_src, pinned, pindev, &hl, JG_DTYPE_FLOAT32, true, &e_));
  JK(jg_view_from_pointer(&pin_dst, pinned, pindev, &hl, JG_DTYPE_FLOAT32, false, &e_));
  JK(jg_view_from_pointer(&page_src, pageable, hostdev, &hl, JG_DTYPE_FLOAT32, true, &e_));
  JK(jg_view_from_pointer(&page_dst, pageable, hostdev, &hl, JG_DTYPE_FLOAT32, false, &e_));
  JK(jg_view_from_pointer(&pin_t, pinned, pindev, &hsqt, JG_DTYPE_FLOAT32, true, &e_));

  printf("\n%-46s %10s %10s %9s\n", "host <-> device, 256 MiB (bytes moved)", "ms", "GB/s",
         "of ref");
  op h2d_ref = {NULL, NULL, dst, pinned, hbytes};
  const double h2d_ms = median_ms(&h2d_ref);
  const double h2d_gbs = (double)hbytes / (h2d_ms * 1e-3) / 1e9;
  row("cudaMemcpyAsync pinned -> device", (double)hbytes, h2d_ms, h2d_gbs, "reference");
  op h2d_pin = {&d_h, &pin_src, NULL, NULL, 0};
  row("jg_copy_async pinned -> device", (double)hbytes, median_ms(&h2d_pin), h2d_gbs, "");
  op h2d_page = {&d_h, &page_src, NULL, NULL, 0};
  row("jg_copy_async pageable -> device", (double)hbytes, median_ms(&h2d_page), h2d_gbs, "");
  jg_view d_sq = dev_view(dst, &hsq, false);
  op h2d_t = {&d_sq, &pin_t, NULL, NULL, 0};
  row("jg_copy_async pinned transposed -> device", (double)hbytes, median_ms(&h2d_t), h2d_gbs, "");
  expect("H2D transpose", peek(dst, 3 * 16384 + 9), (uint32_t)(9 * 4096 + 3));

  CK(cudaMemcpy(src, host, hbytes, cudaMemcpyHostToDevice));
  op d2h_ref = {NULL, NULL, pinned, src, hbytes};
  const double d2h_ms = median_ms(&d2h_ref);
  const double d2h_gbs = (double)hbytes / (d2h_ms * 1e-3) / 1e9;
  row("cudaMemcpyAsync device -> pinned", (double)hbytes, d2h_ms, d2h_gbs, "reference");
  op d2h_pin = {&pin_dst, &s_h, NULL, NULL, 0};
  row("jg_copy_async device -> pinned", (double)hbytes, median_ms(&d2h_pin), d2h_gbs, "");
  memset(pageable, 0, hbytes);
  op d2h_page = {&page_dst, &s_h, NULL, NULL, 0};
  row("jg_copy_async device -> pageable", (double)hbytes, median_ms(&d2h_page), d2h_gbs, "");
  expect("D2H pageable", ((uint32_t *)pageable)[4242], 4242u);

  jg_buffer_release(pinned_buf);
  CK(cudaFree(src));
  CK(cudaFree(dst));
  CK(cudaStreamDestroy(g_stream));
  free(host);
  if (g_wrong) {
    fprintf(stderr, "bench_copy: some results were wrong\n");
    return 1;
  }
  return 0;
}

#else /* built without CUDA */

int main(void) {
  printf("bench_copy: skipped, jagged was built without CUDA\n");
  return 77;
}

#endif
