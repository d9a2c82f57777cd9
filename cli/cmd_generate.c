/* cmd_generate.c: `jagged generate`: writes toy NanoAOD-like events (adl_generate, the model in
 * docs/adl.md "jagged generate") to a Parquet file, with a one-line summary on stdout and a
 * progress bar on stderr when it is a terminal. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adl/adl.h"
#include "adl/adl_tmp.h"
#include "args.h"
#include "cli.h"
#include "jagged/jagged.h"
#include "progress.h"

#define GENERATE_DEFAULT_SEED 42
#define GENERATE_DEFAULT_ROWS 1000000
#define GENERATE_MAX_EVENTS ((int64_t)100000 * 1000000) /* 10^11: about 8 TB of file */

static void generate_usage(FILE *out) {
  fprintf(out,
          "usage: jagged generate N --out FILE [--seed S] [--threads T] [--row-group-rows R]\n"
          "                       [--codec NAME]\n"
          "\n"
          "Writes N toy NanoAOD-like events (docs/adl.md, \"jagged generate\": Poisson muons,\n"
          "electrons and jets with falling pt spectra, Z -> mu mu and top-like three-jet decays,\n"
          "MET) to the Parquet file FILE, in the flat columns of the CMS sample (run, event,\n"
          "nMuon, Muon_pt, ..., Jet_btag, MET_pt), which `jagged adl FILE` reads. The file is\n"
          "written to FILE.<pid>.tmp and renamed at the end; on failure or an interrupt nothing\n"
          "is left. FILE must not be a directory or a device.\n"
          "\n"
          "  N                   events: a number, or one with the suffix k (x 1000) or M\n"
          "                      (x 1000000), e.g. 50M; at most 100000M\n"
          "  --out FILE          the file to write (required)\n"
          "  --seed S            the random seed (default %d; 0 means %d). The file's bytes\n"
          "                      depend on S, N, R and the codec only, not on T\n"
          "  --threads T         generating threads (default 0: one per online core); the\n"
          "                      calling thread writes\n"
          "  --row-group-rows R  events per row group (default %d)\n"
          "  --codec NAME        page codec: snappy (default), zstd, gzip, lz4, brotli or\n"
          "                      uncompressed\n"
          "\n"
          "Prints one line: events, row groups, bytes and seconds. A progress bar goes to stderr\n"
          "when it is a terminal and the run takes more than a second. Exit status: 0 on success,\n"
          "1 when the file cannot be written (one line on stderr), 2 for bad arguments.\n",
          GENERATE_DEFAULT_SEED, GENERATE_DEFAULT_SEED, GENERATE_DEFAULT_ROWS);
}

/** Parses a number of events: digits, optionally followed by k or K (x 1000) or M (x 10^6). */
static bool parse_events(const char *s, int64_t *out) {
  if (s[0] < '0' || s[0] > '9') return false; /* no sign, no blanks */
  char *end = NULL;
  errno = 0;
  const unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || end == s) return false;
  uint64_t scale = 1;
  if (*end == 'k' || *end == 'K') {
    scale = 1000;
    end++;
  } else if (*end == 'M') {
    scale = 1000000;
    end++;
  }
  if (*end != '\0' || v > (unsigned long long)INT64_MAX / scale) return false;
  *out = (int64_t)(v * scale);
  return true;
}

/** Parses an unsigned 64-bit seed (decimal, the whole string). */
static bool parse_seed(const char *s, uint64_t *out) {
  if (s[0] < '0' || s[0] > '9') return false;
  char *end = NULL;
  errno = 0;
  const unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0') return false;
  *out = (uint64_t)v;
  return true;
}

/** The codec named `s` (lower case). */
static bool parse_codec(const char *s, jg_parquet_codec *out) {
  static const struct {
    const char *name;
    jg_parquet_codec codec;
  } names[] = {{"uncompressed", JG_PARQUET_UNCOMPRESSED},
               {"snappy", JG_PARQUET_SNAPPY},
               {"gzip", JG_PARQUET_GZIP},
               {"brotli", JG_PARQUET_BROTLI},
               {"zstd", JG_PARQUET_ZSTD},
               {"lz4", JG_PARQUET_LZ4_RAW}};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    if (strcmp(s, names[k].name) == 0) {
      *out = names[k].codec;
      return true;
    }
  }
  return false;
}

/** adl_generate's progress callback: row groups written, on the bar `user`. */
static void on_progress(int64_t done, int64_t total, void *user) {
  cli_progress *p = user;
  p->done = done;
  p->total = total;
  cli_progress_update(p, "generating");
}

int jg_cmd_generate(int argc, char **argv) {
  const char *n_arg = NULL, *out = NULL;
  int64_t nevents = 0, threads = 0, rows = GENERATE_DEFAULT_ROWS;
  uint64_t seed = GENERATE_DEFAULT_SEED;
  bool has_codec = false;
  jg_parquet_codec codec = JG_PARQUET_SNAPPY;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      generate_usage(stdout);
      return 0;
    }
    const bool takes = strcmp(a, "--out") == 0 || strcmp(a, "--seed") == 0 ||
                       strcmp(a, "--threads") == 0 || strcmp(a, "--row-group-rows") == 0 ||
                       strcmp(a, "--codec") == 0;
    if (takes && i + 1 >= argc) {
      fprintf(stderr, "jagged generate: %s needs a value (see jagged generate --help)\n", a);
      return 2;
    }
    if (strcmp(a, "--out") == 0) {
      out = argv[++i];
    } else if (strcmp(a, "--seed") == 0) {
      if (!parse_seed(argv[++i], &seed)) {
        fprintf(stderr, "jagged generate: --seed takes an integer in 0..2^64-1, not '%s'\n",
                argv[i]);
        return 2;
      }
    } else if (strcmp(a, "--threads") == 0) {
      if (!cli_parse_int(argv[++i], 0, 1024, &threads)) {
        fprintf(stderr, "jagged generate: --threads takes a number in 0..1024, not '%s'\n",
                argv[i]);
        return 2;
      }
    } else if (strcmp(a, "--row-group-rows") == 0) {
      if (!cli_parse_int(argv[++i], 1, INT64_MAX, &rows)) {
        fprintf(stderr,
                "jagged generate: --row-group-rows takes a number of events >= 1, not "
                "'%s'\n",
                argv[i]);
        return 2;
      }
    } else if (strcmp(a, "--codec") == 0) {
      if (!parse_codec(argv[++i], &codec)) {
        fprintf(stderr,
                "jagged generate: --codec takes snappy, zstd, gzip, lz4, brotli or "
                "uncompressed, not '%s'\n",
                argv[i]);
        return 2;
      }
      has_codec = true;
    } else if (a[0] == '-' && a[1] != '\0' && (a[1] < '0' || a[1] > '9')) {
      fprintf(stderr, "jagged generate: unknown option '%s' (see jagged generate --help)\n", a);
      return 2;
    } else if (n_arg == NULL) { /* "-1" is a (bad) N, refused below */
      n_arg = a;
    } else {
      fprintf(stderr, "jagged generate: more than one N ('%s' and '%s')\n", n_arg, a);
      return 2;
    }
  }
  if (n_arg == NULL) {
    fprintf(stderr,
            "jagged generate: the number of events N is missing (see jagged generate "
            "--help)\n");
    return 2;
  }
  if (!parse_events(n_arg, &nevents) || nevents > GENERATE_MAX_EVENTS) {
    fprintf(stderr,
            "jagged generate: N takes a number of events from 0 to 100000M, optionally with "
            "the suffix k or M (e.g. 50M), not '%s'\n",
            n_arg);
    return 2;
  }
  if (out == NULL || out[0] == '\0') {
    fprintf(stderr, "jagged generate: --out FILE is missing (see jagged generate --help)\n");
    return 2;
  }
  adl_tmp_remove_on_signal(); /* an interrupted run leaves no temporary file */
  const int64_t nrg = nevents / rows + (nevents % rows != 0);
  cli_progress prog;
  cli_progress_start(&prog, nrg, "row groups");
  adl_generate_options o;
  memset(&o, 0, sizeof o);
  o.seed = seed;
  o.row_group_rows = rows;
  o.nthreads = (int)threads;
  o.has_codec = has_codec;
  o.codec = codec;
  o.progress = on_progress;
  o.user = &prog;
  jg_error err;
  jg_error_clear(&err);
  const double t0 = cli_now_s();
  const jg_status st = adl_generate(out, nevents, &o, &err);
  const double seconds = cli_now_s() - t0;
  cli_progress_end(&prog);
  if (st != JG_OK) {
    fprintf(stderr, "jagged generate: %s\n", err.message);
    return 1;
  }
  struct stat sb;
  const long long bytes = stat(out, &sb) == 0 ? (long long)sb.st_size : -1;
  printf("jagged generate: %" PRId64 " events, %" PRId64 " row groups, %lld bytes, %.2f s: %s\n",
         nevents, nrg, bytes, seconds, out);
  return 0;
}
