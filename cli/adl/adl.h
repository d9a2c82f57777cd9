/* adl.h: the pieces of `jagged adl` and `jagged generate` (the IRIS-HEP ADL benchmark queries on
 * NanoAOD-like Parquet files, issue 7). Internal to the command-line tool: the queries are written
 * with the library's public operations only (masks, combinations, reductions, four-vectors,
 * histograms), so that they show how an analysis uses jagged.
 *
 * Functions return a jg_status and fill an optional jg_error, as the library does; they never print
 * (the commands, cmd_adl.c and cmd_generate.c, do). */
#ifndef JAGGED_CLI_ADL_H
#define JAGGED_CLI_ADL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "jagged/jagged.h"

/* ------------------------------------------------------------------------------------------ */
/* Histogram outputs (adl_output.c)                                                             */
/* ------------------------------------------------------------------------------------------ */

/** What a plot shows: `name` is the output's base name ("query-6-1"), `title` a one-line
 *  description, `xlabel` the quantity with its unit ("E#dT#u#urmiss#d [GeV]" is PLplot escape
 *  text; plain text works too), `ylabel` usually "events" or "jets". */
typedef struct adl_plot_info {
  const char *name;
  const char *title;
  const char *xlabel;
  const char *ylabel;
} adl_plot_info;

/** One reference histogram read from a CSV in the reference format: header `x,y`, then rows
 *  `x,y` (bin centre, count) of the non-empty bins in increasing x. */
typedef struct adl_csv {
  int64_t n;     /**< rows */
  double *x;     /**< n bin centres (malloc'd; free with adl_csv_free) */
  double *y;     /**< n counts */
} adl_csv;

/** Writes `h` as a CSV in the reference format to `path`: header "x,y", one row per non-empty bin
 *  (underflow centred at lo - w/2, bins at lo + (k + 1/2) w, overflow at hi + w/2; w = (hi - lo) /
 *  n_bins) in increasing x; x printed with up to 12 significant digits and at least one decimal
 *  ("10.0", "15.225"), y as an integer when it is one. Written to `path`.tmp then renamed, so a
 *  failure never leaves a partial file under `path`. Errors: JG_EINVAL (NULL), JG_EIO (naming the
 *  path and the system's reason). */
jg_status adl_write_csv(const jg_hist1d *h, const char *path, jg_error *err);

/** Reads a CSV in the reference format. Errors: JG_EIO (cannot open/read: names the path),
 *  JG_ECORRUPT (bad header, a row that is not two numbers, x not increasing: names path and line),
 *  JG_ENOMEM. `out` is zeroed on error. */
jg_status adl_read_csv(const char *path, adl_csv *out, jg_error *err);
void adl_csv_free(adl_csv *c);

/** Compares `h` (as adl_write_csv would write it) with `ref`: bins match when their centres agree
 *  within 1e-9 relative (of the range) and their counts are equal. Returns the number of
 *  differing bins (0: same); when `report` is non-NULL, writes one line per differing bin to it
 *  ("  x=15.225: 96 here, 95 in the reference"; a bin missing on one side counts 0), at most
 *  `max_lines` lines then "  ... and N more". */
int64_t adl_compare(const jg_hist1d *h, const adl_csv *ref, FILE *report, int max_lines);

/** True when this build can draw plots (PLplot was found at build time). */
bool adl_plot_available(void);

/** Draws `h` as a step histogram (the 100 bins; underflow/overflow noted in the legend text, not
 *  drawn) with axis labels and title from `info`, into `png_path` (PNG, 800 x 600) and `svg_path`
 *  (SVG); either path may be NULL to skip it. Each file is written to PATH.tmp then renamed.
 *  Errors: JG_EINVAL (NULL h/info), JG_ENOTSUP (built without PLplot: "plots need PLplot
 *  (libplplot-dev, plplot-driver-cairo)"), JG_EIO (the plotting library failed; names the path). */
jg_status adl_plot(const jg_hist1d *h, const adl_plot_info *info, const char *png_path,
                   const char *svg_path, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* The toy generator (adl_generate.c)                                                          */
/* ------------------------------------------------------------------------------------------ */

/** Options of adl_generate; zero-initialise, then set. */
typedef struct adl_generate_options {
  uint64_t seed;            /**< 0 means the default seed, 42 */
  int64_t row_group_rows;   /**< events per row group; 0: 1,000,000 (last one shorter) */
  int nthreads;             /**< generating threads; 0: one per online core */
  bool has_codec;           /**< false: SNAPPY (the writer's default); true: `codec` */
  jg_parquet_codec codec;
  void (*progress)(int64_t done, int64_t total, void *user); /**< called after each row group */
  void *user;
} adl_generate_options;

/** Writes `nevents` toy NanoAOD-like events to the Parquet file `path` (flat schema, the same
 *  column names and types as the CMS sample: run, luminosityBlock, event, MET_pt, MET_phi,
 *  MET_sumet, nMuon, Muon_pt/eta/phi/mass/charge/..., nElectron, Electron_*, nJet, Jet_pt/eta/
 *  phi/mass/btag/...), deterministic for a seed whatever nthreads is. Written to path.tmp, renamed
 *  at the end. Memory is bounded by one row group. docs/adl.md describes the physics model.
 *  Errors: JG_EINVAL (NULL path, nevents < 0), JG_EIO, JG_ENOMEM. */
jg_status adl_generate(const char *path, int64_t nevents, const adl_generate_options *opt,
                       jg_error *err);

#endif /* JAGGED_CLI_ADL_H */
