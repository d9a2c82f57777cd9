/* cmd_adl.c: `jagged adl`: the eight IRIS-HEP ADL benchmark queries over a Parquet file of CMS
 * events (or the toy sample `jagged generate` makes), on the CPU or a GPU, streamed row group by
 * row group: a reader thread decodes (and on the GPU copies) the next batch while the queries run
 * on the current one. Writes a CSV and plots per histogram, a summary table on stdout, and with
 * --check compares the histograms with reference CSVs. On the CPU several threads run the query
 * on successive batches, each into its own histograms, added up at the end. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adl/adl.h"
#include "adl/adl_queries.h"
#include "adl/adl_tmp.h"
#include "args.h"
#include "cli.h"
#include "jagged/jagged.h"
#include "jagged/parquet.h"
#include "progress.h"

#define ADL_DEFAULT_EVENTS 1000000
#define ADL_DEFAULT_SEED 42
#define ADL_NBINS 100

static void adl_usage(FILE *out) {
  fprintf(out,
          "usage: jagged adl [FILE] [--query LIST|all] [--device cpu|cuda|auto] [--out DIR]\n"
          "                  [--check DIR] [--batch N] [--threads N]\n"
          "\n"
          "Runs the eight IRIS-HEP ADL benchmark queries (nine histograms; docs/adl.md) over\n"
          "the Parquet file FILE: NanoAOD's flat columns (MET_pt, nJet, Jet_pt, ...) or records\n"
          "(MET.pt, Jet: list of {pt, ...}). Without FILE, runs on the embedded default: %d toy\n"
          "events made once by `jagged generate` (seed %d) and kept in $XDG_CACHE_HOME/jagged\n"
          "(or ~/.cache/jagged).\n"
          "\n"
          "  --query LIST    queries to run: all (default) or a comma-separated list of 1..8\n"
          "  --device D      cpu, cuda, or auto (default: cuda when a GPU is usable, else cpu)\n"
          "  --out DIR       where query-N.csv, .png and .svg go (default adl-output)\n"
          "  --check DIR     compare each histogram with DIR/query-N.csv: prints same or the bins\n"
          "                  that differ; the exit status is 0 only when all match\n"
          "  --batch N       events per batch (default 0: one row group a batch)\n"
          "  --threads N     threads decoding Parquet and, on the CPU, running the queries on\n"
          "                  batches side by side (default 0: one per core)\n"
          "\n"
          "Prints one row per histogram: entries, time (the query's pass over the file: read,\n"
          "decode, copy and compute), events per second and device. A progress bar goes to\n"
          "stderr when it is a terminal and the run takes more than a second.\n",
          ADL_DEFAULT_EVENTS, ADL_DEFAULT_SEED);
}

/* ------------------------------------------------------------------------------------------ */
/* One pass: a reader thread hands batches to the query over a one-slot queue                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct pass {
  jg_parquet_reader *reader;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  jg_array *slot; /* the next batch, or NULL */
  bool full;      /* slot holds a batch (or the end) */
  bool end;       /* the reader is done (at the end or failed) */
  bool stop;      /* a consumer failed: the reader and the other consumers stop */
  jg_status st;   /* the reader's error */
  jg_error err;
  /* Progress, under mu: rows consumed, and the row groups they complete. */
  const jg_parquet_file *file;
  cli_progress *prog;
  const char *label;
  int64_t rows, rg_end;
  int rg, nrg;
} pass;

static void *reader_main(void *arg) {
  pass *p = arg;
  for (;;) {
    jg_array *b = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jg_parquet_reader_next(p->reader, &b, &err);
    pthread_mutex_lock(&p->mu);
    while (p->full && !p->stop) pthread_cond_wait(&p->cv, &p->mu);
    if (p->stop) {
      pthread_mutex_unlock(&p->mu);
      jg_array_release(b);
      return NULL;
    }
    p->slot = b;
    p->full = true;
    if (st != JG_OK || b == NULL) {
      p->end = true;
      p->st = st;
      p->err = err;
    }
    pthread_cond_broadcast(&p->cv);
    const bool end = p->end;
    pthread_mutex_unlock(&p->mu);
    if (end) return NULL;
  }
}

/* The next batch (NULL at the end, on the reader's error, *st says which, or once a consumer
 * failed, *st JG_OK). */
static jg_array *pass_next(pass *p, jg_status *st, jg_error *err) {
  pthread_mutex_lock(&p->mu);
  while (!p->full && !p->stop) pthread_cond_wait(&p->cv, &p->mu);
  jg_array *b = NULL;
  *st = JG_OK;
  if (!p->stop) {
    b = p->slot;
    p->slot = NULL;
    p->full = p->end; /* at the end the slot stays "full" of nothing */
    *st = b == NULL ? p->st : JG_OK;
    if (b == NULL && p->st != JG_OK && err != NULL) *err = p->err;
  }
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  return b;
}

typedef struct run_config {
  const char *path;
  jg_parquet_file *file;
  adl_schema schema;
  int device;       /* -1: cpu */
  jg_stream stream; /* the queries' stream (cuda) */
  jg_stream copy;   /* the reader's copies (cuda) */
  int64_t batch;
  int threads;
  int consumers; /* threads running the query on batches (1 on the GPU: one stream) */
} run_config;

/* One consumer of a pass: runs the query on batch after batch into its own histograms until the
 * end, an error (it stops the pass) or another consumer's error. */
typedef struct consumer {
  pass *p;
  const run_config *cfg;
  const adl_query *q;
  jg_hist1d h[ADL_MAX_HISTS];
  double counts[ADL_MAX_HISTS][ADL_NBINS + 2];
  jg_status st;
  jg_error err;
} consumer;

static void *consumer_main(void *arg) {
  consumer *c = arg;
  pass *p = c->p;
  jg_hist1d *hp[ADL_MAX_HISTS] = {&c->h[0], &c->h[1]};
  jg_error_clear(&c->err);
  for (;;) {
    jg_status st = JG_OK;
    jg_array *batch = pass_next(p, &st, &c->err);
    if (batch == NULL) {
      c->st = st;
      break;
    }
    adl_events ev;
    st = adl_events_from_batch(batch, c->cfg->schema, c->cfg->stream, &ev, &c->err);
    if (st == JG_OK) {
      st = c->q->run(&ev, hp, c->cfg->stream, &c->err);
      adl_events_release(&ev);
    }
    const int64_t n = jg_array_length(batch);
    jg_array_release(batch);
    pthread_mutex_lock(&p->mu);
    if (st != JG_OK) {
      p->stop = true;
      pthread_cond_broadcast(&p->cv);
    } else {
      p->rows += n;
      while (p->rg < p->nrg && p->rows >= p->rg_end) {
        p->rg++;
        p->prog->done++;
        if (p->rg < p->nrg) p->rg_end += jg_parquet_row_group_num_rows(p->file, p->rg);
      }
      cli_progress_update(p->prog, p->label);
    }
    pthread_mutex_unlock(&p->mu);
    if (st != JG_OK) {
      c->st = st;
      break;
    }
  }
  return NULL;
}

/* Runs query `q` over the whole file into hists (zeroed here). */
static jg_status run_query(const run_config *cfg, const adl_query *q, jg_hist1d *const *hists,
                           cli_progress *prog, jg_error *err) {
  for (int k = 0; k < q->nhists; k++) {
    memset(hists[k]->counts, 0, (size_t)(ADL_NBINS + 2) * sizeof(double));
    hists[k]->entries = 0;
    hists[k]->nan = 0;
  }
  char storage[ADL_MAX_COLUMNS][64];
  const char *names[ADL_MAX_COLUMNS];
  int ncolumns = 0;
  jg_status st = adl_query_columns(q, cfg->file, cfg->schema, storage, names, &ncolumns, err);
  if (st != JG_OK) return st;
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  o.columns = names;
  o.ncolumns = ncolumns;
  o.nanoaod = cfg->schema == ADL_SCHEMA_FLAT;
  o.nthreads = cfg->threads;
  o.device_id = cfg->device;
  o.stream = cfg->copy;
  pass p;
  memset(&p, 0, sizeof p);
  st = jg_parquet_reader_open(cfg->file, &o, cfg->batch, &p.reader, err);
  if (st != JG_OK) return st;
  pthread_mutex_init(&p.mu, NULL);
  pthread_cond_init(&p.cv, NULL);
  pthread_t thread;
  if (pthread_create(&thread, NULL, reader_main, &p) != 0) {
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    jg_parquet_reader_close(p.reader);
    return jg_error_set(err, JG_ENOMEM, -1, "cannot start the reader thread");
  }
  /* Row groups are counted as their last row is consumed. */
  p.file = cfg->file;
  p.prog = prog;
  p.label = q->hists[0].plot.name;
  p.nrg = jg_parquet_num_row_groups(cfg->file);
  p.rg_end = p.nrg > 0 ? jg_parquet_row_group_num_rows(cfg->file, 0) : 0;
  /* The consumers: each fills its own histograms (unweighted counts, so their sum does not
   * depend on which consumer took which batch); the first runs on this thread. */
  const int nc = cfg->consumers > 1 ? cfg->consumers : 1;
  consumer *cs = calloc((size_t)nc, sizeof *cs);
  pthread_t *threads = calloc((size_t)nc, sizeof *threads);
  int started = 1;
  if (cs == NULL || threads == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of memory for %d query threads", nc);
  } else {
    for (int c = 0; c < nc; c++) {
      cs[c].p = &p;
      cs[c].cfg = cfg;
      cs[c].q = q;
      for (int k = 0; k < ADL_MAX_HISTS; k++) {
        cs[c].h[k] = *hists[k < q->nhists ? k : 0];
        cs[c].h[k].counts = cs[c].counts[k];
      }
    }
    for (; started < nc; started++) {
      if (pthread_create(&threads[started], NULL, consumer_main, &cs[started]) != 0) break;
    }
    consumer_main(&cs[0]);
    for (int c = 1; c < started; c++) pthread_join(threads[c], NULL);
    for (int c = 0; c < nc && st == JG_OK; c++) {
      if (c < started && cs[c].st != JG_OK) {
        st = cs[c].st;
        if (err != NULL) *err = cs[c].err;
      }
    }
    for (int c = 0; c < started; c++) {
      for (int k = 0; k < q->nhists; k++) {
        for (int b = 0; b < ADL_NBINS + 2; b++) hists[k]->counts[b] += cs[c].counts[k][b];
        hists[k]->entries += cs[c].h[k].entries;
        hists[k]->nan += cs[c].h[k].nan;
      }
    }
  }
  free(cs);
  free(threads);
  pthread_mutex_lock(&p.mu);
  p.stop = true;
  pthread_cond_broadcast(&p.cv);
  pthread_mutex_unlock(&p.mu);
  pthread_join(thread, NULL);
  jg_array_release(p.slot);
  pthread_cond_destroy(&p.cv);
  pthread_mutex_destroy(&p.mu);
  jg_parquet_reader_close(p.reader);
  prog->done += p.nrg - p.rg; /* empty row groups and the rest after an error */
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* The embedded default sample                                                                 */
/* ------------------------------------------------------------------------------------------ */

static int mkdir_p(const char *path) {
  char buf[PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return ENAMETOOLONG;
  for (char *s = buf + 1; *s != '\0'; s++) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return errno;
    *s = '/';
  }
  if (mkdir(buf, 0777) != 0 && errno != EEXIST) return errno;
  return 0;
}

/* adl_generate's progress callback: row groups written, on the bar `user`. */
static void generate_progress(int64_t done, int64_t total, void *user) {
  cli_progress *p = user;
  p->done = done;
  p->total = total;
  cli_progress_update(p, "generating");
}

/* The default sample's path in `path`, made when it does not exist or when `remake` (a cached
 * file that did not open as the default sample: the caller found that out). */
static int default_sample(char *path, size_t size, bool remake) {
  const char *cache = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  char dir[PATH_MAX];
  if (cache != NULL && cache[0] == '/') {
    snprintf(dir, sizeof dir, "%s/jagged", cache);
  } else if (home != NULL && home[0] == '/') {
    snprintf(dir, sizeof dir, "%s/.cache/jagged", home);
  } else {
    snprintf(dir, sizeof dir, "/tmp/jagged-cache");
  }
  if ((size_t)snprintf(path, size, "%s/adl-toy-v2-%d-seed%d.parquet", dir, ADL_DEFAULT_EVENTS,
                       ADL_DEFAULT_SEED) >= size) {
    fprintf(stderr, "jagged adl: the cache path %s is too long\n", dir);
    return 1;
  }
  struct stat stt;
  if (stat(path, &stt) == 0) {
    if (!remake) return 0;
    if (S_ISREG(stt.st_mode)) remove(path);
  }
  const int e = mkdir_p(dir);
  if (e != 0) {
    fprintf(stderr, "jagged adl: cannot create %s for the default sample: %s\n", dir, strerror(e));
    return 1;
  }
  fprintf(stderr, "jagged adl: making the default sample: jagged generate %d --seed %d --out %s\n",
          ADL_DEFAULT_EVENTS, ADL_DEFAULT_SEED, path);
  cli_progress prog;
  cli_progress_start(&prog, 0, "row groups");
  adl_generate_options go;
  memset(&go, 0, sizeof go);
  go.seed = ADL_DEFAULT_SEED;
  go.progress = generate_progress;
  go.user = &prog;
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = adl_generate(path, ADL_DEFAULT_EVENTS, &go, &err);
  cli_progress_end(&prog);
  if (st != JG_OK) {
    fprintf(stderr, "jagged adl: making the default sample failed: %s\n", err.message);
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The command                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Parses "all" or "1,3,6" into selected[0..7]. */
static bool parse_queries(const char *s, bool selected[ADL_NQUERIES]) {
  memset(selected, 0, ADL_NQUERIES * sizeof(bool));
  if (strcmp(s, "all") == 0) {
    for (int q = 0; q < ADL_NQUERIES; q++) selected[q] = true;
    return true;
  }
  /* Every item between commas must name a query: "1,,2", "1," and "" are refused. */
  const char *p = s;
  for (;;) {
    const char *comma = strchr(p, ',');
    const size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
    char item[8];
    if (len == 0 || len >= sizeof item) return false;
    memcpy(item, p, len);
    item[len] = '\0';
    const adl_query *q = adl_query_find(item);
    if (q == NULL) return false;
    selected[q - adl_queries] = true;
    if (comma == NULL) return true;
    p = comma + 1;
  }
}

/* Prints `line` without its trailing blanks, then a newline. */
static void print_trimmed(char *line) {
  size_t n = strlen(line);
  while (n > 0 && line[n - 1] == ' ') line[--n] = '\0';
  puts(line);
}

static void human_rate(double v, char *buf, size_t size) {
  if (v >= 1e9)
    snprintf(buf, size, "%.2f G", v / 1e9);
  else if (v >= 1e6)
    snprintf(buf, size, "%.2f M", v / 1e6);
  else if (v >= 1e3)
    snprintf(buf, size, "%.2f k", v / 1e3);
  else
    snprintf(buf, size, "%.0f", v);
}

int jg_cmd_adl(int argc, char **argv) {
  const char *file_arg = NULL, *out_dir = "adl-output", *check_dir = NULL;
  const char *device_arg = "auto", *query_arg = "all";
  int64_t batch = 0, threads = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      adl_usage(stdout);
      return 0;
    }
    const bool takes = strcmp(a, "--query") == 0 || strcmp(a, "--device") == 0 ||
                       strcmp(a, "--out") == 0 || strcmp(a, "--check") == 0 ||
                       strcmp(a, "--batch") == 0 || strcmp(a, "--threads") == 0;
    if (takes && i + 1 >= argc) {
      fprintf(stderr, "jagged adl: %s needs a value (see jagged adl --help)\n", a);
      return 2;
    }
    if (strcmp(a, "--query") == 0) {
      query_arg = argv[++i];
    } else if (strcmp(a, "--device") == 0) {
      device_arg = argv[++i];
    } else if (strcmp(a, "--out") == 0) {
      out_dir = argv[++i];
    } else if (strcmp(a, "--check") == 0) {
      check_dir = argv[++i];
    } else if (strcmp(a, "--batch") == 0) {
      if (!cli_parse_int(argv[++i], 0, INT64_MAX, &batch)) {
        fprintf(stderr, "jagged adl: --batch takes a number of events >= 0, not '%s'\n", argv[i]);
        return 2;
      }
    } else if (strcmp(a, "--threads") == 0) {
      if (!cli_parse_int(argv[++i], 0, 1024, &threads)) {
        fprintf(stderr, "jagged adl: --threads takes a number in 0..1024, not '%s'\n", argv[i]);
        return 2;
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "jagged adl: unknown option '%s' (see jagged adl --help)\n", a);
      return 2;
    } else if (file_arg == NULL) {
      file_arg = a;
    } else {
      fprintf(stderr, "jagged adl: more than one FILE ('%s' and '%s')\n", file_arg, a);
      return 2;
    }
  }
  bool selected[ADL_NQUERIES];
  if (!parse_queries(query_arg, selected)) {
    fprintf(stderr, "jagged adl: --query takes all or a comma-separated list of 1..8, not '%s'\n",
            query_arg);
    return 2;
  }
  /* --out and --check are checked before anything runs: an output folder that cannot be one,
   * a reference folder that is not one, or the two naming the same folder (the outputs would
   * replace the references before the comparison) are bad arguments. */
  struct stat os, cs;
  const bool out_exists = out_dir[0] != '\0' && stat(out_dir, &os) == 0;
  if (out_dir[0] == '\0' || (out_exists && !S_ISDIR(os.st_mode))) {
    if (out_dir[0] == '\0') {
      fprintf(stderr, "jagged adl: --out needs a directory name, not ''\n");
    } else {
      fprintf(stderr, "jagged adl: --out '%s' exists and is not a directory\n", out_dir);
    }
    return 2;
  }
  if (check_dir != NULL) {
    const int ce = check_dir[0] == '\0' ? ENOENT : stat(check_dir, &cs) != 0 ? errno : 0;
    if (ce != 0 || !S_ISDIR(cs.st_mode)) {
      fprintf(stderr, "jagged adl: --check '%s' is not a directory%s%s\n", check_dir,
              ce != 0 ? ": " : "", ce != 0 ? strerror(ce) : "");
      return 2;
    }
    if (out_exists && os.st_dev == cs.st_dev && os.st_ino == cs.st_ino) {
      fprintf(stderr,
              "jagged adl: --out and --check name the same directory (%s): the outputs would "
              "replace the references; write the outputs elsewhere\n",
              out_dir);
      return 2;
    }
  }
  int ndev = 0;
  run_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.device = -1;
  cfg.batch = batch;
  cfg.threads = (int)threads;
  jg_error err;
  jg_error_clear(&err);
  if (strcmp(device_arg, "cpu") != 0 && strcmp(device_arg, "cuda") != 0 &&
      strcmp(device_arg, "auto") != 0) {
    fprintf(stderr, "jagged adl: --device takes cpu, cuda or auto, not '%s'\n", device_arg);
    return 2;
  }
  if (strcmp(device_arg, "cpu") != 0) {
    jg_device_count(&ndev, NULL);
    if (ndev > 0) {
      cfg.device = 0;
    } else if (strcmp(device_arg, "cuda") == 0) {
      fprintf(stderr, "jagged adl: --device cuda: no usable GPU (%s); use --device cpu\n",
              jg_cuda_unavailable_reason());
      return 1;
    }
  }
  /* On the CPU, --threads threads (0: one per core, at most 16) run the query on successive
   * batches side by side; on the GPU one thread feeds the one stream. */
  if (cfg.device < 0) {
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cfg.consumers = threads > 0 ? (int)threads : cores > 0 ? (int)cores : 1;
    if (cfg.consumers > 16) cfg.consumers = 16;
  } else {
    cfg.consumers = 1;
  }
  adl_tmp_remove_on_signal(); /* an interrupted run leaves no temporary file */
  char default_path[PATH_MAX];
  const bool use_default = file_arg == NULL;
  if (use_default) {
    if (default_sample(default_path, sizeof default_path, false) != 0) return 1;
    file_arg = default_path;
  }
  cfg.path = file_arg;
  jg_status ost = jg_parquet_open(file_arg, &cfg.file, &err);
  if (use_default && (ost != JG_OK || jg_parquet_num_rows(cfg.file) != ADL_DEFAULT_EVENTS)) {
    /* A cached file that does not open as the default sample (a run killed while renaming, a
     * disk that filled up, a user's edit) is made again rather than failing every run. */
    fprintf(stderr,
            "jagged adl: the cached default sample %s is not usable (%s); making it again\n",
            file_arg, ost != JG_OK ? err.message : "not the expected file");
    jg_parquet_close(cfg.file);
    cfg.file = NULL;
    if (default_sample(default_path, sizeof default_path, true) != 0) return 1;
    jg_error_clear(&err);
    ost = jg_parquet_open(file_arg, &cfg.file, &err);
  }
  if (ost != JG_OK) {
    fprintf(stderr, "jagged adl: %s\n", err.message);
    return 1;
  }
  int rc = 0;
  bool made_out = false;
  jg_hist1d hists[ADL_NQUERIES][ADL_MAX_HISTS];
  memset(hists, 0, sizeof hists);
  adl_csv refs[ADL_NQUERIES][ADL_MAX_HISTS];
  memset(refs, 0, sizeof refs);
  double times[ADL_NQUERIES] = {0};
  bool ran[ADL_NQUERIES] = {false};
  if (adl_schema_detect(cfg.file, &cfg.schema, &err) != JG_OK) {
    fprintf(stderr, "jagged adl: %s: %s\n", file_arg, err.message);
    rc = 1;
    goto done;
  }
  /* Every selected query's columns are checked before any runs: a missing or mistyped column
   * fails at once, with no output written. */
  for (int q = 0; q < ADL_NQUERIES && rc == 0; q++) {
    if (!selected[q]) continue;
    char storage[ADL_MAX_COLUMNS][64];
    const char *names[ADL_MAX_COLUMNS];
    int n = 0;
    if (adl_query_columns(&adl_queries[q], cfg.file, cfg.schema, storage, names, &n, &err) !=
        JG_OK) {
      fprintf(stderr, "jagged adl: %s: %s\n", file_arg, err.message);
      rc = 1;
    }
  }
  if (rc != 0) goto done;
  if (cfg.device >= 0 && (jg_device_set_current(cfg.device, &err) != JG_OK ||
                          jg_stream_create(&cfg.stream, &err) != JG_OK ||
                          jg_stream_create(&cfg.copy, &err) != JG_OK)) {
    fprintf(stderr, "jagged adl: cannot set up cuda:%d: %s\n", cfg.device, err.message);
    rc = 1;
    goto done;
  }
  /* The references of the selected queries, read (and checked) before any query runs. */
  for (int q = 0; q < ADL_NQUERIES && rc == 0 && check_dir != NULL; q++) {
    for (int k = 0; selected[q] && k < adl_queries[q].nhists && rc == 0; k++) {
      char refpath[PATH_MAX];
      snprintf(refpath, sizeof refpath, "%s/%s.csv", check_dir, adl_queries[q].hists[k].plot.name);
      if (adl_read_csv(refpath, &refs[q][k], &err) != JG_OK) {
        fprintf(stderr, "jagged adl: --check: %s\n", err.message);
        rc = 1;
      }
    }
  }
  if (rc != 0) goto done;
  const int e = mkdir_p(out_dir);
  if (e != 0 || access(out_dir, W_OK | X_OK) != 0) {
    fprintf(stderr, "jagged adl: cannot %s the output directory %s: %s\n",
            e != 0 ? "create" : "write to", out_dir, strerror(e != 0 ? e : errno));
    rc = 1;
    goto done;
  }
  made_out = !out_exists;
  for (int q = 0; q < ADL_NQUERIES; q++) {
    for (int k = 0; k < adl_queries[q].nhists; k++) {
      jg_hist1d *h = &hists[q][k];
      h->n_bins = ADL_NBINS;
      h->lo = adl_queries[q].hists[k].lo;
      h->hi = adl_queries[q].hists[k].hi;
      h->counts = calloc(ADL_NBINS + 2, sizeof(double));
      if (h->counts == NULL) {
        fprintf(stderr, "jagged adl: out of memory\n");
        rc = 1;
        goto done;
      }
    }
  }
  int nselected = 0;
  for (int q = 0; q < ADL_NQUERIES; q++) nselected += selected[q];
  cli_progress prog;
  cli_progress_start(&prog, (int64_t)nselected * jg_parquet_num_row_groups(cfg.file), "row groups");
  const bool plots = adl_plot_available();
  for (int q = 0; q < ADL_NQUERIES && rc == 0; q++) {
    if (!selected[q]) continue;
    const adl_query *query = &adl_queries[q];
    jg_hist1d *hp[ADL_MAX_HISTS] = {&hists[q][0], &hists[q][1]};
    const double t0 = cli_now_s();
    const jg_status st = run_query(&cfg, query, hp, &prog, &err);
    times[q] = cli_now_s() - t0;
    if (st != JG_OK) {
      cli_progress_end(&prog);
      fprintf(stderr, "jagged adl: query %s on %s: %s\n", query->id, file_arg, err.message);
      rc = 1;
      break;
    }
    ran[q] = true;
    for (int k = 0; k < query->nhists && rc == 0; k++) {
      const adl_plot_info *info = &query->hists[k].plot;
      char csv[PATH_MAX], png[PATH_MAX], svg[PATH_MAX];
      snprintf(csv, sizeof csv, "%s/%s.csv", out_dir, info->name);
      snprintf(png, sizeof png, "%s/%s.png", out_dir, info->name);
      snprintf(svg, sizeof svg, "%s/%s.svg", out_dir, info->name);
      if (adl_write_csv(&hists[q][k], csv, &err) != JG_OK ||
          (plots && adl_plot(&hists[q][k], info, png, svg, &err) != JG_OK)) {
        cli_progress_end(&prog);
        fprintf(stderr, "jagged adl: %s\n", err.message);
        rc = 1;
      }
    }
  }
  cli_progress_end(&prog);
  if (!plots && rc == 0) {
    /* why: a build without PLplot, or PLplot's devices missing or broken on this machine */
    jg_error why;
    jg_error_clear(&why);
    adl_plot(&hists[0][0], &adl_queries[0].hists[0].plot, NULL, NULL, &why);
    fprintf(stderr, "jagged adl: plots skipped: %s\n", why.message);
  }
  /* The summary. */
  char devname[32];
  if (cfg.device >= 0)
    snprintf(devname, sizeof devname, "cuda:%d", cfg.device);
  else
    snprintf(devname, sizeof devname, "cpu");
  const int64_t nevents = jg_parquet_num_rows(cfg.file);
  int nran = 0;
  for (int q = 0; q < ADL_NQUERIES; q++) nran += ran[q];
  if (nran == 0) goto done; /* the first query failed: its line on stderr says it all */
  const int nrg = jg_parquet_num_row_groups(cfg.file);
  printf("jagged adl: %s (%" PRId64 " events, %d row group%s, %s columns)\n", file_arg, nevents,
         nrg, nrg == 1 ? "" : "s", cfg.schema == ADL_SCHEMA_FLAT ? "flat NanoAOD" : "record");
  char head[160];
  snprintf(head, sizeof head, "%-6s %-10s %12s %12s %12s  %-7s  %s", "query", "histogram",
           "entries", "time [ms]", "events/s", "device", check_dir != NULL ? "check" : "");
  print_trimmed(head);
  int ndiffer = 0;
  int64_t diffs[ADL_NQUERIES][ADL_MAX_HISTS] = {{0}}; /* differing bins, under --check */
  for (int q = 0; q < ADL_NQUERIES; q++) {
    if (!ran[q]) continue;
    const adl_query *query = &adl_queries[q];
    for (int k = 0; k < query->nhists; k++) {
      char rate[32], ms[32];
      human_rate(times[q] > 0 ? (double)nevents / times[q] : 0, rate, sizeof rate);
      snprintf(ms, sizeof ms, "%.1f", 1e3 * times[q]);
      const char *verdict = "";
      if (check_dir != NULL) {
        diffs[q][k] = adl_compare(&hists[q][k], &refs[q][k], NULL, 0);
        verdict = diffs[q][k] == 0 ? "same" : "DIFFERS";
        if (diffs[q][k] != 0) ndiffer++;
      }
      char row[160];
      snprintf(row, sizeof row, "%-6s %-10s %12" PRId64 " %12s %12s  %-7s  %s",
               k == 0 ? query->id : "", query->hists[k].plot.name + 6, hists[q][k].entries,
               k == 0 ? ms : "(same)", k == 0 ? rate : "", devname, verdict);
      print_trimmed(row);
    }
  }
  /* The differing bins, after the table. */
  if (check_dir != NULL) {
    for (int q = 0; q < ADL_NQUERIES; q++) {
      if (!ran[q]) continue;
      for (int k = 0; k < adl_queries[q].nhists; k++) {
        const char *name = adl_queries[q].hists[k].plot.name;
        if (diffs[q][k] != 0) {
          printf("%s: differs from %s/%s.csv:\n", name, check_dir, name);
          adl_compare(&hists[q][k], &refs[q][k], stdout, 20);
        }
      }
    }
    if (rc == 0) {
      if (ndiffer == 0)
        printf("check: all histograms same as %s\n", check_dir);
      else
        printf("check: %d histogram(s) differ from %s\n", ndiffer, check_dir);
    }
    if (ndiffer != 0 && rc == 0) rc = 1;
  }
  if (rc == 0) printf("outputs: %s/\n", out_dir);
done:
  /* A failed run leaves no output folder that it made and did not fill (rmdir refuses a
   * folder that holds files). */
  if (rc != 0 && made_out) rmdir(out_dir);
  for (int q = 0; q < ADL_NQUERIES; q++) {
    for (int k = 0; k < ADL_MAX_HISTS; k++) {
      free(hists[q][k].counts);
      adl_csv_free(&refs[q][k]);
    }
  }
  if (cfg.stream != NULL) jg_stream_destroy(cfg.stream);
  if (cfg.copy != NULL) jg_stream_destroy(cfg.copy);
  jg_parquet_close(cfg.file);
  return rc;
}
