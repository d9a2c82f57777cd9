/* bench_parquet.c: Parquet decode throughput of jagged's reader (issue 6's benchmark), and the
 * writer's encode throughput.
 *
 *   bench_parquet FILE [THREADS...]        (default threads: 1 2)
 *   bench_parquet --write [EVENTS [TABLE_EVENTS [DIR]]]   (defaults: 1000000 100000 /tmp)
 *
 * Reads the ADL benchmark's columns of FILE (MET_pt, MET_phi, the Jet_, Muon_ and Electron_
 * pt, eta, phi, mass columns, Jet_btag, Muon_charge, Electron_charge: the columns the eight
 * queries use) with jg_parquet_read into host memory, with each thread count, and prints the
 * wall-clock median of RUNS reads after 2 warm-ups and the throughput in MB/s of column data:
 * the selected column chunks' total_uncompressed_size summed (page headers, levels and values
 * as stored before compression; 1 MB = 10^6 bytes). The file is opened once (the footer parse is
 * not timed); every timed read decodes every page. bench/bench_parquet.sh runs it next to DuckDB
 * reading the same columns of the same file (bench/parquet_duckdb.mjs).
 *
 * --write builds a toy NanoAOD-like table in memory (the shape `jagged generate` writes): EVENTS
 * events of run, luminosityBlock (int32), event (int64), MET_pt, MET_phi (float32), and five
 * collections (Muon, Electron, Jet, Tau, Photon), each a counter nX (int32, Poisson(4)) and five
 * float32 list columns X_pt, X_eta, X_phi, X_mass, X_iso of random values (all distinct: the
 * dictionary fails on them; each list column has its own int64 offsets). It then times, with
 * default options (SNAPPY, dictionary on, v1 pages, row groups of 1 Mi rows), the median of 3
 * writes after 1 warm-up of: jg_parquet_write of the whole table to DIR,
 * jg_parquet_write_memory (with the dictionary on, then off), and the streaming writer
 * (jg_parquet_writer_*) fed slices of TABLE_EVENTS events to DIR (each slice a row group). It
 * prints the wall-clock and the thread's CPU time (the writer is single-threaded; on a shared
 * machine the CPU time is the steadier figure), and MB/s of the written file's column data
 * before compression (total_uncompressed_size summed over every column chunk, as for reading),
 * of the table's own bytes (values and offsets), and of column data per CPU second. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "jagged/jagged.h"

static const char *const adl_columns[] = {
    "MET_pt",      "MET_phi",      "Jet_pt",       "Jet_eta",       "Jet_phi",        "Jet_mass",
    "Jet_btag",    "Muon_pt",      "Muon_eta",     "Muon_phi",      "Muon_mass",      "Muon_charge",
    "Electron_pt", "Electron_eta", "Electron_phi", "Electron_mass", "Electron_charge"};
#define NADL ((int)(sizeof adl_columns / sizeof adl_columns[0]))

/* Whether leaf column `path` (dotted) lies under top-level field `name`. */
static int under(const char *path, const char *name) {
  const size_t n = strlen(name);
  return strncmp(path, name, n) == 0 && (path[n] == '\0' || path[n] == '.');
}

/* ---- Writing -------------------------------------------------------------------------------- */

#define WRUNS 3

static uint64_t g_rng = 0x9e3779b97f4a7c15ULL;

/* CPU time of this thread, in seconds (the writer is single-threaded: on a busy machine this
 * is steadier than the wall clock). */
static double cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A uniform double in [0, 1) from a 64-bit LCG. */
static double unif(void) {
  g_rng = g_rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(g_rng >> 11) / 9007199254740992.0;
}

/* A Poisson(mean) count by inversion. */
static int64_t poisson(double mean) {
  double u = unif(), p = exp(-mean), c = p;
  int64_t k = 0;
  while (u > c && k < 60) {
    ++k;
    p *= mean / (double)k;
    c += p;
  }
  return k;
}

static int fail(const char *what, const jg_error *err) {
  fprintf(stderr, "bench_parquet: %s: %s\n", what, err->message);
  return 1;
}

/* The toy NanoAOD-like table of `n` events (see the top of the file); *bytes gets its values'
 * and offsets' bytes. NULL on error (printed). */
static jg_array *toy_table(int64_t n, double *bytes) {
  static const char *const coll[] = {"Muon", "Electron", "Jet", "Tau", "Photon"};
  static const char *const var[] = {"pt", "eta", "phi", "mass", "iso"};
  enum { NCOLL = 5, NVAR = 5, NSCALAR = 5, NF = NSCALAR + NCOLL * (1 + NVAR) };
  static char names_buf[NF][32];
  const char *names[NF];
  jg_array *fields[NF] = {0};
  jg_error err;
  int nf = 0;
  *bytes = 0;
  int32_t *i32 = malloc((size_t)n * sizeof *i32);
  int64_t *i64 = malloc((size_t)n * sizeof *i64);
  float *f32 = malloc((size_t)n * sizeof *f32);
  int64_t *counts = malloc((size_t)n * sizeof *counts);
  if (!i32 || !i64 || !f32 || !counts) return NULL;
  for (int s = 0; s < NSCALAR; s++) {
    static const char *const sn[] = {"run", "luminosityBlock", "event", "MET_pt", "MET_phi"};
    snprintf(names_buf[nf], sizeof names_buf[nf], "%s", sn[s]);
    jg_status st;
    if (s < 2) {
      for (int64_t i = 0; i < n; i++) i32[i] = s == 0 ? 1 : (int32_t)(1 + i / 1000);
      st = jg_array_from_host(i32, n, JG_DTYPE_INT32, &fields[nf], &err);
      *bytes += 4.0 * (double)n;
    } else if (s == 2) {
      for (int64_t i = 0; i < n; i++) i64[i] = 1000000 + i;
      st = jg_array_from_host(i64, n, JG_DTYPE_INT64, &fields[nf], &err);
      *bytes += 8.0 * (double)n;
    } else {
      for (int64_t i = 0; i < n; i++)
        f32[i] = s == 3 ? (float)(-20.0 * log(1.0 - unif())) : (float)(6.283185 * unif() - 3.14159);
      st = jg_array_from_host(f32, n, JG_DTYPE_FLOAT32, &fields[nf], &err);
      *bytes += 4.0 * (double)n;
    }
    if (st != JG_OK) return fail("table", &err), NULL;
    nf++;
  }
  for (int c = 0; c < NCOLL; c++) {
    int64_t total = 0;
    for (int64_t i = 0; i < n; i++) {
      counts[i] = poisson(4.0);
      i32[i] = (int32_t)counts[i];
      total += counts[i];
    }
    snprintf(names_buf[nf], sizeof names_buf[nf], "n%s", coll[c]);
    if (jg_array_from_host(i32, n, JG_DTYPE_INT32, &fields[nf], &err) != JG_OK)
      return fail("table", &err), NULL;
    *bytes += 4.0 * (double)n;
    nf++;
    float *content = malloc((size_t)(total > 0 ? total : 1) * sizeof *content);
    if (content == NULL) return NULL;
    for (int v = 0; v < NVAR; v++) {
      for (int64_t k = 0; k < total; k++) {
        const double u = unif();
        content[k] = v == 0   ? (float)(5.0 - 25.0 * log(1.0 - u))
                     : v == 1 ? (float)(5.0 * u - 2.5)
                     : v == 2 ? (float)(6.283185 * u - 3.14159)
                     : v == 3 ? (float)(0.1 + 10.0 * u)
                              : (float)(u * u);
      }
      snprintf(names_buf[nf], sizeof names_buf[nf], "%s_%s", coll[c], var[v]);
      if (jg_array_from_host_counts(counts, n, content, total, JG_DTYPE_FLOAT32, &fields[nf],
                                    &err) != JG_OK)
        return fail("table", &err), NULL;
      *bytes += 4.0 * (double)total + 8.0 * (double)(n + 1);
      nf++;
    }
    free(content);
  }
  for (int k = 0; k < nf; k++) names[k] = names_buf[k];
  jg_array *t = NULL;
  if (jg_array_record(nf, fields, names, n, &t, &err) != JG_OK) return fail("table", &err), NULL;
  for (int k = 0; k < nf; k++) jg_array_release(fields[k]);
  free(i32);
  free(i64);
  free(f32);
  free(counts);
  return t;
}

/* Column data of the file at `path` (or in data[0..size) when path is NULL) before compression
 * (sum of total_uncompressed_size). */
static double file_column_bytes(const char *path, const void *data, size_t size) {
  jg_parquet_file *f = NULL;
  jg_error err;
  if ((path ? jg_parquet_open(path, &f, &err) : jg_parquet_open_memory(data, size, &f, &err)) !=
      JG_OK)
    return 0;
  double b = 0;
  for (int c = 0; c < jg_parquet_num_columns(f); ++c) {
    jg_parquet_column_info info;
    info.version = 0;
    if (jg_parquet_column_info_get(f, c, &info, &err) == JG_OK)
      b += (double)info.uncompressed_bytes;
  }
  jg_parquet_close(f);
  return b;
}

/* The streaming writer over slices of `per` rows of t. */
static jg_status write_stream(const jg_array *t, int64_t per, const char *path, jg_error *err) {
  jg_parquet_writer *w = NULL;
  jg_status st = jg_parquet_writer_open(path, NULL, &w, err);
  if (st != JG_OK) return st;
  const int64_t n = jg_array_length(t);
  for (int64_t r = 0; r < n && st == JG_OK; r += per) {
    jg_array *s = NULL;
    st = jg_array_slice(t, r, r + per < n ? r + per : n, &s, err);
    if (st == JG_OK) st = jg_parquet_writer_write(w, s, err);
    jg_array_release(s);
  }
  if (st != JG_OK) {
    jg_parquet_writer_discard(w);
    return st;
  }
  return jg_parquet_writer_close(w, err);
}

static int bench_write(int argc, char **argv) {
  const int64_t n = argc > 0 ? atoll(argv[0]) : 1000000;
  const int64_t per = argc > 1 ? atoll(argv[1]) : 100000;
  const char *dir = argc > 2 ? argv[2] : "/tmp";
  double table_bytes = 0;
  const double t0 = now_s();
  jg_array *t = toy_table(n, &table_bytes);
  if (t == NULL) return 1;
  printf(
      "bench_parquet --write: %lld events, %d columns, %.1f MB of table data (built in %.1f s)\n",
      (long long)n, jg_array_num_children(t), table_bytes / 1e6, now_s() - t0);
  char path[4096];
  snprintf(path, sizeof path, "%s/bench_parquet_write.parquet", dir);
  printf("%-28s %9s %9s %11s %11s %11s %8s\n", "call", "ms", "cpu ms", "MB/s(file)", "MB/s(table)",
         "cpu MB/s", "file MB");
  for (int mode = 0; mode < 4; mode++) {
    double tm[WRUNS], tc[WRUNS];
    jg_error err;
    double fbytes = 0, fsize = 0;
    for (int r = -1; r < WRUNS; ++r) {
      const double s = now_s(), sc = cpu_s();
      jg_status st;
      void *data = NULL;
      size_t size = 0;
      if (mode == 0) {
        st = jg_parquet_write(t, path, NULL, &err);
      } else if (mode == 1 || mode == 2) {
        jg_parquet_write_options o;
        jg_parquet_write_options_init(&o);
        o.dictionary = mode == 1;
        st = jg_parquet_write_memory(t, &o, &data, &size, &err);
      } else {
        st = write_stream(t, per, path, &err);
      }
      const double e = now_s() - s, ec = cpu_s() - sc;
      if (st != JG_OK) return fail("write", &err);
      if (mode == 1 || mode == 2) {
        fsize = (double)size;
        fbytes = file_column_bytes(NULL, data, size);
        jg_parquet_memory_free(data);
      } else {
        fbytes = file_column_bytes(path, NULL, 0);
        FILE *fp = fopen(path, "rb");
        if (fp != NULL) {
          fseek(fp, 0, SEEK_END);
          fsize = (double)ftell(fp);
          fclose(fp);
        }
      }
      if (r >= 0) tm[r] = e, tc[r] = ec;
    }
    qsort(tm, WRUNS, sizeof tm[0], bench_cmp_double);
    qsort(tc, WRUNS, sizeof tc[0], bench_cmp_double);
    const double m = tm[WRUNS / 2], mc = tc[WRUNS / 2];
    static const char *const what[] = {"jg_parquet_write", "jg_parquet_write_memory",
                                       "  the same, dictionary off",
                                       "jg_parquet_writer_* (slices)"};
    printf("%-28s %9.1f %9.1f %11.1f %11.1f %11.1f %8.1f\n", what[mode], m * 1e3, mc * 1e3,
           fbytes / m / 1e6, table_bytes / m / 1e6, fbytes / mc / 1e6, fsize / 1e6);
  }
  remove(path);
  jg_array_release(t);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: bench_parquet FILE [THREADS...]\n"
            "       bench_parquet --write [EVENTS [TABLE_EVENTS [DIR]]]\n");
    return 2;
  }
  if (strcmp(argv[1], "--write") == 0) return bench_write(argc - 2, argv + 2);
  jg_error err;
  jg_parquet_file *file = NULL;
  if (jg_parquet_open(argv[1], &file, &err) != JG_OK) {
    fprintf(stderr, "bench_parquet: %s\n", err.message);
    return 1;
  }
  double bytes = 0;
  for (int c = 0; c < jg_parquet_num_columns(file); ++c) {
    jg_parquet_column_info info;
    info.version = 0;
    if (jg_parquet_column_info_get(file, c, &info, &err) != JG_OK) {
      fprintf(stderr, "bench_parquet: %s\n", err.message);
      return 1;
    }
    for (int k = 0; k < NADL; ++k)
      if (under(info.path, adl_columns[k])) bytes += (double)info.uncompressed_bytes;
  }
  printf("bench_parquet: %s: %lld rows, %d row groups, %d ADL columns, %.1f MB of column data\n",
         argv[1], (long long)jg_parquet_num_rows(file), jg_parquet_num_row_groups(file), NADL,
         bytes / 1e6);
  printf("%-8s %10s %10s\n", "threads", "ms", "MB/s");
  int default_threads[2] = {1, 2};
  const int nt = argc > 2 ? argc - 2 : 2;
  for (int i = 0; i < nt; ++i) {
    jg_parquet_read_options o;
    jg_parquet_read_options_init(&o);
    o.columns = adl_columns;
    o.ncolumns = NADL;
    o.nthreads = argc > 2 ? atoi(argv[2 + i]) : default_threads[i];
    double t[RUNS];
    for (int r = -2; r < RUNS; ++r) {
      jg_array *a = NULL;
      const double s = now_s();
      if (jg_parquet_read(file, &o, &a, &err) != JG_OK) {
        fprintf(stderr, "bench_parquet: %s\n", err.message);
        return 1;
      }
      const double e = now_s() - s;
      jg_array_release(a);
      if (r >= 0) t[r] = e;
    }
    const double m = median(t);
    printf("%-8d %10.1f %10.1f\n", o.nthreads, m * 1e3, bytes / m / 1e6);
  }
  jg_parquet_close(file);
  return 0;
}
