/* bench_parquet.c: Parquet decode throughput of jagged's reader (issue 6's benchmark).
 *
 *   bench_parquet FILE [THREADS...]        (default threads: 1 2)
 *
 * Reads the ADL benchmark's columns of FILE (MET_pt, MET_phi, the Jet_, Muon_ and Electron_
 * pt, eta, phi, mass columns, Jet_btag, Muon_charge, Electron_charge: the columns the eight
 * queries use) with jg_parquet_read into host memory, with each thread count, and prints the
 * wall-clock median of RUNS reads after 2 warm-ups and the throughput in MB/s of column data:
 * the selected column chunks' total_uncompressed_size summed (page headers, levels and values
 * as stored before compression; 1 MB = 10^6 bytes). The file is opened once (the footer parse is
 * not timed); every timed read decodes every page. bench/bench_parquet.sh runs it next to DuckDB
 * reading the same columns of the same file (bench/parquet_duckdb.mjs). */
#include <stdio.h>
#include <string.h>

#include "bench_common.h"
#include "jagged/jagged.h"

static const char *const adl_columns[] = {
    "MET_pt",      "MET_phi",      "Jet_pt",        "Jet_eta",         "Jet_phi",
    "Jet_mass",    "Jet_btag",     "Muon_pt",       "Muon_eta",        "Muon_phi",
    "Muon_mass",   "Muon_charge",  "Electron_pt",   "Electron_eta",    "Electron_phi",
    "Electron_mass", "Electron_charge"};
#define NADL ((int)(sizeof adl_columns / sizeof adl_columns[0]))

/* Whether leaf column `path` (dotted) lies under top-level field `name`. */
static int under(const char *path, const char *name) {
  const size_t n = strlen(name);
  return strncmp(path, name, n) == 0 && (path[n] == '\0' || path[n] == '.');
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_parquet FILE [THREADS...]\n");
    return 2;
  }
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
