/* parquet_write_sample.c: writes Parquet files with jg_parquet_write for the cross-checks by
 * other readers (tests/gpu/parquet_pyarrow.py with pyarrow, tests/unit/parquet_duckdb.js with
 * DuckDB). Usage: parquet_write_sample OUTDIR. Writes OUTDIR/flat-<variant>.parquet and
 * OUTDIR/nested-<variant>.parquet for several codec / page version / dictionary / row group
 * variants (codecs not built in are left out). The checkers compute the same values on their
 * side from the formulas below (row i of N = 1000):
 *   flat:   i int64 = i; x float64 = i / 2; f float32 = i % 17 - 8; b bool = i % 3 == 0;
 *           s int16 = i % 200 - 100; u uint32 = (i * 2654435761) mod 2^32; u8 uint8 = i % 256
 *   nested: v var * float64 = [i + j / 4 for j < i % 5];
 *           o ?var * int32 = None if i % 7 == 0 else [i + j for j < i % 3];
 *           ov var * ?int64 = [None if (i + j) % 3 == 0 else 10 i + j for j < i % 4];
 *           r {a: int32 = i, b: var * int64 = [i] * (i % 3)};
 *           p var * {pt: float32 = i + j, eta: float64 = j - 1} for j < i % 3;
 *           name bytes = "row<i>"; ll var * var * int16 = [[k] * k for k < i % 3].
 * Exit status 0 on success, 1 with a message on stderr otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jagged/jagged.h"

#define N 1000

static jg_error g_err;
static int g_failed;

#define CHECK(expr)                                                                           \
  do {                                                                                        \
    if (!g_failed && (expr) != JG_OK) {                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, g_err.message);          \
      g_failed = 1;                                                                           \
    }                                                                                         \
  } while (0)

static jg_array *from_host(const void *v, jg_len n, jg_dtype d) {
  jg_array *a = NULL;
  CHECK(jg_array_from_host(v, n, d, &a, &g_err));
  return a;
}

/* Lists from counts over content (takes the content's reference). */
static jg_array *lists(const int64_t *counts, jg_len n, jg_array *content) {
  jg_layout l;
  CHECK(jg_layout_init(&l, 1, &n, NULL, 8, &g_err));
  jg_view v;
  jg_device host = JG_DEVICE_HOST_INIT;
  CHECK(jg_view_from_pointer(&v, (void *)counts, host, &l, JG_DTYPE_INT64, true, &g_err));
  jg_array *a = NULL;
  CHECK(jg_array_from_counts(&v, content, NULL, &a, &g_err));
  jg_array_release(content);
  return a;
}

static jg_array *record(int n, jg_array **fields, const char **names) {
  jg_array *a = NULL;
  CHECK(jg_array_record(n, fields, names, -1, &a, &g_err));
  for (int k = 0; k < n; k++) jg_array_release(fields[k]);
  return a;
}

static jg_array *byte_mask(const int8_t *mask, jg_len n, jg_array *content) {
  jg_array *m = from_host(mask, n, JG_DTYPE_INT8);
  jg_view v;
  CHECK(jg_array_buffer(m, 0, &v, &g_err));
  jg_array *a = NULL;
  CHECK(jg_array_byte_masked(&v, true, content, &a, &g_err));
  jg_array_release(m);
  jg_array_release(content);
  return a;
}

static jg_array *make_flat(void) {
  static int64_t i64[N];
  static double x[N];
  static float f[N];
  static uint8_t b[N], u8[N];
  static int16_t s[N];
  static uint32_t u[N];
  for (int i = 0; i < N; i++) {
    i64[i] = i;
    x[i] = i / 2.0;
    f[i] = (float)(i % 17 - 8);
    b[i] = i % 3 == 0;
    s[i] = (int16_t)(i % 200 - 100);
    u[i] = (uint32_t)((uint64_t)i * 2654435761u);
    u8[i] = (uint8_t)(i % 256);
  }
  jg_array *fields[] = {from_host(i64, N, JG_DTYPE_INT64), from_host(x, N, JG_DTYPE_FLOAT64),
                        from_host(f, N, JG_DTYPE_FLOAT32), from_host(b, N, JG_DTYPE_BOOL),
                        from_host(s, N, JG_DTYPE_INT16),   from_host(u, N, JG_DTYPE_UINT32),
                        from_host(u8, N, JG_DTYPE_UINT8)};
  const char *names[] = {"i", "x", "f", "b", "s", "u", "u8"};
  return record(7, fields, names);
}

static jg_array *make_nested(void) {
  static int64_t cv[N], co[N], cov[N], crb[N], cp[N], cname[N], cll[N], cinner[3 * N];
  static double v[5 * N], eta[3 * N];
  static int32_t o[3 * N], ra[N];
  static int64_t ov[4 * N], rb[3 * N];
  static int8_t ovalid[4 * N], omask[N];
  static float pt[3 * N];
  static uint8_t name[16 * N];
  static int16_t ll[3 * N];
  int64_t nv = 0, no = 0, nov = 0, nrb = 0, np = 0, nname = 0, nll = 0, ninner = 0;
  for (int i = 0; i < N; i++) {
    cv[i] = i % 5;
    for (int j = 0; j < i % 5; j++) v[nv++] = i + j / 4.0;
    omask[i] = i % 7 != 0;
    co[i] = i % 7 == 0 ? 0 : i % 3;
    for (int j = 0; j < co[i]; j++) o[no++] = i + j;
    cov[i] = i % 4;
    for (int j = 0; j < i % 4; j++) {
      const bool valid = (i + j) % 3 != 0;
      ovalid[nov] = valid;
      ov[nov++] = valid ? 10 * (int64_t)i + j : -1;
    }
    ra[i] = i;
    crb[i] = i % 3;
    for (int j = 0; j < i % 3; j++) rb[nrb++] = i;
    cp[i] = i % 3;
    for (int j = 0; j < i % 3; j++) {
      pt[np] = (float)(i + j);
      eta[np++] = j - 1.0;
    }
    char buf[16];
    int len = snprintf(buf, sizeof buf, "row%d", i);
    memcpy(name + nname, buf, (size_t)len);
    nname += len;
    cname[i] = len;
    cll[i] = i % 3;
    for (int k = 0; k < i % 3; k++) {
      cinner[ninner++] = k;
      for (int t = 0; t < k; t++) ll[nll++] = (int16_t)k;
    }
  }
  jg_array *rfields[] = {from_host(ra, N, JG_DTYPE_INT32),
                         lists(crb, N, from_host(rb, nrb, JG_DTYPE_INT64))};
  const char *rnames[] = {"a", "b"};
  jg_array *pfields[] = {from_host(pt, np, JG_DTYPE_FLOAT32), from_host(eta, np, JG_DTYPE_FLOAT64)};
  const char *pnames[] = {"pt", "eta"};
  jg_array *fields[] = {
      lists(cv, N, from_host(v, nv, JG_DTYPE_FLOAT64)),
      byte_mask(omask, N, lists(co, N, from_host(o, no, JG_DTYPE_INT32))),
      lists(cov, N, byte_mask(ovalid, nov, from_host(ov, nov, JG_DTYPE_INT64))),
      record(2, rfields, rnames),
      lists(cp, N, record(2, pfields, pnames)),
      lists(cname, N, from_host(name, nname, JG_DTYPE_UINT8)),
      lists(cll, N, lists(cinner, ninner, from_host(ll, nll, JG_DTYPE_INT16))),
  };
  const char *names[] = {"v", "o", "ov", "r", "p", "name", "ll"};
  return record(7, fields, names);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  jg_array *tables[2] = {make_flat(), make_nested()};
  const char *kinds[2] = {"flat", "nested"};
  const struct {
    jg_parquet_codec codec;
    const char *name;
    int page_version;
    bool dictionary;
    int64_t row_group_rows, page_size;
  } variants[] = {
      {JG_PARQUET_UNCOMPRESSED, "uncompressed", 1, false, N, JG_PARQUET_DEFAULT_PAGE_SIZE},
      {JG_PARQUET_SNAPPY, "snappy", 1, true, N, JG_PARQUET_DEFAULT_PAGE_SIZE},
      {JG_PARQUET_SNAPPY, "snappy", 2, true, 7, JG_PARQUET_DEFAULT_PAGE_SIZE},
      {JG_PARQUET_ZSTD, "zstd", 2, false, 333, 256},
      {JG_PARQUET_ZSTD, "zstd", 1, true, 1, JG_PARQUET_DEFAULT_PAGE_SIZE},
      {JG_PARQUET_GZIP, "gzip", 1, true, 100, 512},
      {JG_PARQUET_LZ4_RAW, "lz4raw", 2, true, N, 1024},
      {JG_PARQUET_BROTLI, "brotli", 1, false, 250, JG_PARQUET_DEFAULT_PAGE_SIZE},
  };
  int written = 0;
  for (size_t k = 0; k < sizeof variants / sizeof variants[0] && !g_failed; k++) {
    if (!jg_parquet_codec_available(variants[k].codec)) continue;
    jg_parquet_write_options o;
    jg_parquet_write_options_init(&o);
    o.codec = variants[k].codec;
    o.data_page_version = variants[k].page_version;
    o.dictionary = variants[k].dictionary;
    o.row_group_rows = variants[k].row_group_rows;
    o.page_size = variants[k].page_size;
    for (int t = 0; t < 2 && !g_failed; t++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s-%s-v%d-%s-rg%lld-page%lld.parquet", argv[1], kinds[t],
               variants[k].name, variants[k].page_version,
               variants[k].dictionary ? "dict" : "plain",
               (long long)variants[k].row_group_rows, (long long)variants[k].page_size);
      CHECK(jg_parquet_write(tables[t], path, &o, &g_err));
      written += !g_failed;
    }
  }
  jg_array_release(tables[0]);
  jg_array_release(tables[1]);
  if (!g_failed) printf("wrote %d files to %s\n", written, argv[1]);
  return g_failed;
}
