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
 *  description (about 70 characters fit the 800-pixel width), `xlabel` the quantity with its
 *  unit, `ylabel` what is counted, usually "events" or "jets". The three texts are PLplot text:
 *  "#d"/"#u" move down/up half a line (sub- and superscripts: "E#dT#u#umiss#d [GeV]" for
 *  E_T^miss), "#g" + a letter is a Greek one ("#gy" eta, "#gm" mu, "#gS" Sigma), "##" a '#';
 *  plain text works too. NULL texts are drawn as empty. */
typedef struct adl_plot_info {
  const char *name;
  const char *title;
  const char *xlabel;
  const char *ylabel;
} adl_plot_info;

/** One reference histogram read from a CSV in the reference format: header `x,y`, then rows
 *  `x,y` (bin centre, count) of the non-empty bins in increasing x. */
typedef struct adl_csv {
  int64_t n; /**< rows */
  double *x; /**< n bin centres (malloc'd; free with adl_csv_free) */
  double *y; /**< n counts */
} adl_csv;

/** Writes `h` as a CSV in the reference format to `path`: header "x,y", one row per non-empty bin
 *  (count != 0; underflow centred at lo - w/2, bin k = 0 .. n_bins - 1 at lo + (k + 1/2) w,
 *  overflow at hi + w/2; w = (hi - lo) / n_bins; a centre within 1e-12 of the range from 0 is
 *  written 0.0) in increasing x, each line ending in "\n"; x printed with up to 12 significant
 *  digits and at least one decimal ("10.0", "15.225", "-0.005"), y as an integer when it is one
 *  ("346"), else with up to 12 significant digits. Equal histograms give the published reference
 *  files byte for byte. Numbers use the C locale's decimal point (the tool never calls
 *  setlocale).
 *
 *  Atomic: written to `path`.tmp (a leftover file or link of that name is removed first; a link
 *  is never followed), flushed to disk (fsync), then renamed over `path`; on any failure the .tmp
 *  is removed and `path` is untouched, so a file under `path` is always complete.
 *
 *  Errors: JG_EINVAL (NULL h or path; counts NULL, n_bins outside 1 .. 2^40, non-finite or
 *  unordered edges, a count that is NaN or infinite: nothing is written); JG_ENOMEM; JG_EIO
 *  (cannot create, write or rename: names the file and the system's reason, e.g. a missing
 *  directory). Thread-safe for distinct paths. */
jg_status adl_write_csv(const jg_hist1d *h, const char *path, jg_error *err);

/** Reads a CSV in the reference format into `out` (overwritten; free with adl_csv_free).
 *  Accepted: "\n" or "\r\n" line endings, a last line without a newline, a UTF-8 byte order
 *  mark before the header, spaces or tabs around the numbers, empty lines after the last row,
 *  a header alone (n = 0). Each row must be two finite numbers "x,y" (any strtod syntax; y
 *  need not be an integer but must not be negative: a count), x strictly increasing. Limits, so that a file that is not a
 *  histogram fails fast: lines of at most 256 characters, at most 2^20 rows.
 *
 *  Errors: JG_EINVAL (NULL path or out); JG_EIO (cannot open or read: names the path and the
 *  system's reason); JG_ECORRUPT ("PATH, line N: ..." with err->index = N: an empty file, a
 *  header other than x,y, a row that is not two finite numbers with y >= 0 (quoted, control
 *  bytes as '?'),
 *  x not increasing, an empty line between rows, a NUL byte, a line or row count over the
 *  limits); JG_ENOMEM. On error `out` is zeroed (nothing to free). Thread-safe. */
jg_status adl_read_csv(const char *path, adl_csv *out, jg_error *err);

/** Frees what adl_read_csv allocated in `c` and zeroes it; NULL and a zeroed `c` are allowed. */
void adl_csv_free(adl_csv *c);

/** Compares `h` (as adl_write_csv would write it: its non-empty bins, underflow and overflow
 *  included) with `ref` (rows in increasing x, as adl_read_csv gives them): bins match when
 *  their centres agree within 1e-9 of the range (hi - lo) and their counts are equal; a bin on
 *  one side only counts 0 on the other (so a reference row with y = 0 matches an empty bin).
 *  Returns the number of differing bins (0: same), or -1 for a NULL or invalid `h` (as
 *  adl_write_csv checks it) or `ref`. When `report` is non-NULL, writes one line per differing
 *  bin to it, in increasing x ("  x=15.225: 96 here, 95 in the reference", x and the counts as
 *  the CSV writes them), at most `max_lines` lines (0 or less: none), then "  ... and N more"
 *  when N bins were left out. */
int64_t adl_compare(const jg_hist1d *h, const adl_csv *ref, FILE *report, int max_lines);

/** True when this process can draw plots: the build has PLplot (JG_HAVE_PLPLOT) and, at run
 *  time, PLplot lists its pngcairo device (package plplot-driver-cairo) and its svg device, and
 *  both load (an empty page drawn to /dev/null on each). The drivers are plug-ins that PLplot
 *  loads at run time (from PLPLOT_DRV_DIR when set), so a machine without plplot-driver-cairo
 *  gets false here, and adl_plot's JG_ENOTSUP message says why; nothing is printed. Probed once
 *  per process (the first call takes tens of milliseconds), then cached. Main thread only, like
 *  adl_plot. */
bool adl_plot_available(void);

/** Draws `h` as a step histogram of its n_bins bins (outlined and filled; the underflow,
 *  overflow, entries and, when there are any, NaN counts written above the frame, not drawn)
 *  with the title and axis labels of `info`, into `png_path` (PNG, 800 x 600 pixels, PLplot's
 *  pngcairo device) and `svg_path` (SVG 800 x 600 pt, PLplot's svg device: text stays text);
 *  either path may be NULL to skip it (both NULL: only the checks). The y axis is logarithmic
 *  when the largest bin is at least 100 times the smallest non-empty one, else linear from 0.
 *  Each file is written to PATH.tmp, checked complete (a PNG ending in its IEND chunk, an SVG in
 *  "</svg>"), flushed to disk, then renamed over PATH; on failure the .tmp is removed.
 *
 *  PLplot never prints nor exits the process: while it runs, descriptors 1 and 2 point at a
 *  temporary file (its last line goes into error messages), and its abort and exit handlers
 *  catch its errors (the exit handler jumps back out of PLplot; the stream is then ended). So
 *  this is for the main thread only, at a time when no other thread prints.
 *
 *  Errors: JG_EINVAL (NULL h or info; an invalid `h` as adl_write_csv checks it; more than
 *  1,000,000 bins); JG_ENOTSUP when adl_plot_available() is false, saying why and naming the
 *  packages ("this build has no PLplot (install libplplot-dev and plplot-driver-cairo, then
 *  rebuild)", "PLplot has no pngcairo device here (install plplot-driver-cairo)", "PLplot's
 *  pngcairo device does not load: ..."); JG_ENOMEM; JG_EIO (a file cannot be created or renamed,
 *  or PLplot failed or left it incomplete: names the path, and PLplot's message). */
jg_status adl_plot(const jg_hist1d *h, const adl_plot_info *info, const char *png_path,
                   const char *svg_path, jg_error *err);

/* ------------------------------------------------------------------------------------------ */
/* The toy generator (adl_generate.c)                                                          */
/* ------------------------------------------------------------------------------------------ */

/** Options of adl_generate; zero-initialise, then set. */
typedef struct adl_generate_options {
  uint64_t seed;          /**< 0 means the default seed, 42 */
  int64_t row_group_rows; /**< events per row group; 0: 1,000,000 (last one shorter) */
  int nthreads;           /**< generating threads; 0: one per online core (the calling
                               thread writes the file meanwhile) */
  bool has_codec;         /**< false: SNAPPY (the writer's default); true: `codec` */
  jg_parquet_codec codec;
  void (*progress)(int64_t done, int64_t total, void *user); /**< called on the calling thread
                                 after each row group is written: row groups done, in all */
  void *user;
} adl_generate_options;

/** Writes `nevents` toy NanoAOD-like events to the Parquet file `path`, in the flat schema of the
 *  CMS sample, with its column names and types, in its order: run (int32), luminosityBlock,
 *  event (int64), nMuon (int64), Muon_pt/eta/phi/mass (lists of float32), Muon_charge (list of
 *  int32), nElectron, Electron_* (likewise), MET_pt, MET_phi, MET_sumet (float32), nJet,
 *  Jet_pt/eta/phi/mass/btag (lists of float32). docs/adl.md ("jagged generate") describes the
 *  physics model. Row groups of opt->row_group_rows events, PLAIN values, the codec asked for.
 *
 *  Deterministic: the file's bytes depend only on the seed, nevents, row_group_rows and the
 *  codec, whatever nthreads is (row group k is drawn from random streams keyed by (seed, k)).
 *  The generating threads make row groups in parallel while the calling thread writes them in
 *  order through the streaming writer, so memory is bounded by nthreads + 1 row groups (each
 *  thread holds one, the writer one), whatever nevents is; their buffers come from the host
 *  pool (jg_memory_resource_host_pool), whose cache is trimmed to 0 at the end.
 *
 *  Written to `path`.<pid>.tmp (adl_tmp.h: removed if a signal ends the process) and renamed to
 *  `path` at the end: on any error neither is left (a file already at `path` is untouched), and
 *  two runs writing the same path never share a temporary file. An existing `path` that is not
 *  a regular file (a directory, a device such as /dev/null) is refused, never replaced. 0 events give a valid file of every column and no row
 *  group. `opt` NULL: the defaults.
 *
 *  Errors: JG_EINVAL (NULL or empty path, nevents < 0, negative row_group_rows or nthreads,
 *  `path` an existing non-regular file), JG_EIO (the temporary file cannot be created or written, or the rename fails: the message names the
 *  path and the system's reason), JG_ENOTSUP (a codec not built in), JG_ENOMEM, JG_EOVERFLOW (a
 *  row group too large for memory sizes). */
jg_status adl_generate(const char *path, int64_t nevents, const adl_generate_options *opt,
                       jg_error *err);

#endif /* JAGGED_CLI_ADL_H */
