/* bench_adl.c: the ADL benchmark queries (cli/adl/adl_queries.c, issue 7) with the data already
 * in memory, on the host or on the GPU.
 *
 *   bench_adl FILE [cpu|cuda]          (default: cuda when a GPU is usable, else cpu)
 *
 * For each query: reads the columns it needs (the same projection as `jagged adl`) from FILE
 * into one batch on the device (not timed), then times the query's run over the whole batch:
 * the median of RUNS runs after 2 warm-ups, each from zeroed histograms to the histograms filled
 * (the stream synchronised). Prints per query: the events, the bytes of the columns it reads as
 * they lie in memory (values, offsets), the median time, events per second, and on the GPU the
 * bandwidth floor (those bytes read once at the measured device-to-device copy bandwidth,
 * bench_copy_bandwidth) and the ratio time / floor (issue 7's goal: at most 3). The histograms'
 * entries are printed so that a run can be compared with `jagged adl` on the same file.
 * End-to-end times from the file are `jagged adl`'s own table. ADL_QUERY=N runs query N only;
 * ADL_PROFILE=1 adds each query's time per step and its host-device transfers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adl_queries.h"
#include "bench_common.h"
#include "jagged/jagged.h"
#include "jagged/parquet.h"

/* Bytes of every buffer of `a` and its children, as they lie in memory. */
static double array_bytes(const jg_array *a) {
  double total = 0;
  for (int k = 0;; k++) {
    jg_view v;
    if (jg_array_buffer(a, k, &v, NULL) != JG_OK) break;
    double n = (double)v.layout.itemsize;
    for (int d = 0; d < v.layout.ndim; d++) n *= (double)v.layout.shape[d];
    total += n;
  }
  for (int c = 0; c < jg_array_num_children(a); c++) total += array_bytes(jg_array_child(a, c));
  return total;
}

/* ADL_PROFILE set: one more run of the query with each step timed (adl_profile_enable) and the
 * host-device transfers counted; prints the steps that take at least 2% of the run, then the
 * transfers by call site. */
static int profile_one(const adl_query *q, const adl_events *ev, jg_hist1d *const *hp,
                       jg_stream stream) {
  jg_error err;
  jg_error_clear(&err);
  static jg_transfer_event events[4096];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, events, sizeof events / sizeof events[0]);
  adl_profile_enable(true);
  jg_transfer_scope_begin(&c, NULL);
  const double s = now_s();
  const jg_status st = q->run(ev, hp, stream, &err);
  const double total = now_s() - s;
  jg_transfer_scope_end(&c, NULL);
  if (st != JG_OK) {
    fprintf(stderr, "bench_adl: query %s (profiled): %s\n", q->id, err.message);
    adl_profile_enable(false);
    return 1;
  }
  const adl_profile_step *steps = NULL;
  const int n = adl_profile_steps(&steps);
  printf("  profile of query %s: %.3f ms in %d steps (synchronised after each)\n", q->id,
         1e3 * total, n);
  for (int k = 0; k < n; k++) {
    if (steps[k].seconds >= 0.02 * total)
      printf("    step %3d %-18s %9.3f ms\n", k, steps[k].what, 1e3 * steps[k].seconds);
  }
  static char report[1 << 16];
  jg_transfer_report(&c, report, sizeof report);
  printf("  transfers of query %s:\n%s\n", q->id, report[0] != '\0' ? report : "  none");
  adl_profile_enable(false);
  return 0;
}

static int run_one(jg_parquet_file *file, adl_schema schema, const adl_query *q, int device,
                   jg_stream stream, double bandwidth) {
  jg_error err;
  jg_error_clear(&err);
  char storage[ADL_MAX_COLUMNS][64];
  const char *names[ADL_MAX_COLUMNS];
  int ncolumns = 0;
  if (adl_query_columns(q, file, schema, storage, names, &ncolumns, &err) != JG_OK) {
    fprintf(stderr, "bench_adl: query %s: %s\n", q->id, err.message);
    return 1;
  }
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  o.columns = names;
  o.ncolumns = ncolumns;
  o.nanoaod = schema == ADL_SCHEMA_FLAT;
  o.device_id = device;
  o.stream = stream;
  jg_array *batch = NULL;
  adl_events ev;
  memset(&ev, 0, sizeof ev);
  if (jg_parquet_read(file, &o, &batch, &err) != JG_OK ||
      adl_events_from_batch(batch, schema, stream, &ev, &err) != JG_OK) {
    fprintf(stderr, "bench_adl: query %s: reading %d columns: %s\n", q->id, ncolumns, err.message);
    jg_array_release(batch);
    return 1;
  }
  const double bytes = array_bytes(batch);
  double counts[ADL_MAX_HISTS][102];
  jg_hist1d h[ADL_MAX_HISTS];
  jg_hist1d *hp[ADL_MAX_HISTS];
  for (int k = 0; k < ADL_MAX_HISTS; k++) {
    memset(&h[k], 0, sizeof h[k]);
    h[k].n_bins = 100;
    h[k].lo = q->hists[k < q->nhists ? k : 0].lo;
    h[k].hi = q->hists[k < q->nhists ? k : 0].hi;
    h[k].counts = counts[k];
    hp[k] = &h[k];
  }
  double t[RUNS];
  int rc = 0;
  for (int r = -2; r < RUNS && rc == 0; r++) {
    for (int k = 0; k < ADL_MAX_HISTS; k++) {
      memset(counts[k], 0, sizeof counts[k]);
      h[k].entries = 0;
      h[k].nan = 0;
    }
    const double s = now_s();
    if (q->run(&ev, hp, stream, &err) != JG_OK ||
        (stream != NULL && jg_stream_synchronize(stream, &err) != JG_OK)) {
      fprintf(stderr, "bench_adl: query %s: %s\n", q->id, err.message);
      rc = 1;
    }
    if (r >= 0) t[r] = now_s() - s;
  }
  if (rc == 0) {
    const double m = median(t);
    printf("%-6s %10" PRId64 " %10" PRId64 " %10.1f %10.3f %10.1f", q->id, ev.n, h[0].entries,
           bytes / 1e6, 1e3 * m, (double)ev.n / m / 1e6);
    if (bandwidth > 0) {
      const double floor_s = bytes / bandwidth;
      printf(" %10.3f %8.1f", 1e3 * floor_s, m / floor_s);
    }
    printf("\n");
  }
  if (rc == 0 && getenv("ADL_PROFILE") != NULL) rc = profile_one(q, &ev, hp, stream);
  adl_events_release(&ev);
  jg_array_release(batch);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: bench_adl FILE [cpu|cuda]\n");
    return 2;
  }
  int ndev = 0;
  jg_device_count(&ndev, NULL);
  int device = ndev > 0 ? 0 : -1;
  if (argc == 3 && strcmp(argv[2], "cpu") == 0)
    device = -1;
  else if (argc == 3 && strcmp(argv[2], "cuda") == 0 && ndev == 0) {
    fprintf(stderr, "bench_adl: no usable GPU (%s)\n", jg_cuda_unavailable_reason());
    return 77;
  } else if (argc == 3 && strcmp(argv[2], "cuda") != 0 && strcmp(argv[2], "cpu") != 0) {
    fprintf(stderr, "usage: bench_adl FILE [cpu|cuda]\n");
    return 2;
  }
  jg_error err;
  jg_error_clear(&err);
  jg_parquet_file *file = NULL;
  adl_schema schema;
  if (jg_parquet_open(argv[1], &file, &err) != JG_OK ||
      adl_schema_detect(file, &schema, &err) != JG_OK) {
    fprintf(stderr, "bench_adl: %s: %s\n", argv[1], err.message);
    jg_parquet_close(file);
    return 1;
  }
  jg_stream stream = NULL;
  double bandwidth = 0;
  if (device >= 0) {
    if (jg_device_set_current(device, &err) != JG_OK || jg_stream_create(&stream, &err) != JG_OK) {
      fprintf(stderr, "bench_adl: cuda:%d: %s\n", device, err.message);
      jg_parquet_close(file);
      return 1;
    }
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    bandwidth = bench_copy_bandwidth();
#endif
  }
  printf("bench_adl: %s, %" PRId64 " events, on %s%s", argv[1], jg_parquet_num_rows(file),
         device >= 0 ? "cuda:0" : "cpu", bandwidth > 0 ? "" : "\n");
  if (bandwidth > 0) printf(", copy bandwidth %.0f GB/s (read + written)\n", bandwidth / 1e9);
  printf("%-6s %10s %10s %10s %10s %10s%s\n", "query", "events", "entries", "MB read", "time [ms]",
         "Mevents/s", bandwidth > 0 ? "  floor [ms]  ratio" : "");
  int rc = 0;
  const char *only = getenv("ADL_QUERY"); /* one query's id, e.g. for a profiler */
  for (int q = 0; q < ADL_NQUERIES; q++) {
    if (only != NULL && strcmp(only, adl_queries[q].id) != 0) continue;
    rc |= run_one(file, schema, &adl_queries[q], device, stream, bandwidth);
  }
  if (stream != NULL) jg_stream_destroy(stream);
  jg_parquet_close(file);
  return rc;
}
