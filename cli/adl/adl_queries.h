/* adl_queries.h: the eight IRIS-HEP ADL benchmark queries (nine histograms), each written with
 * jagged's public operations over one batch of events, on the batch's backend (cpu or cuda).
 * Definitions: /work/shared/data/adl/README.md (the ADL benchmark list and the RumbleDB SQL
 * implementations of Graur et al., PVLDB 15(2), 2022), summarised in docs/adl.md. */
#ifndef JAGGED_CLI_ADL_QUERIES_H
#define JAGGED_CLI_ADL_QUERIES_H

#include "adl.h"

/** The two Parquet layouts of the ADL sample: NanoAOD's flat columns (MET_pt, nJet, Jet_pt,
 *  ...) or records (MET.pt, Jet: list of {pt, ...}). */
typedef enum adl_schema { ADL_SCHEMA_FLAT = 1, ADL_SCHEMA_RECORDS = 2 } adl_schema;

/** One histogram of a query: its output name, binning (100 bins over [lo, hi)) and labels. */
typedef struct adl_hist_spec {
  adl_plot_info plot; /**< name ("query-6-1"), title, axis labels */
  double lo, hi;
} adl_hist_spec;

#define ADL_NQUERIES 8
#define ADL_MAX_HISTS 2
#define ADL_MAX_COLUMNS 24

/** One batch of events as the queries see it, whatever the schema: each collection is an array
 *  of n lists of records ({pt, eta, ...}, only the fields the query asked for), MET an array of
 *  n records {pt, phi}; NULL where the query did not ask for it. All on one backend. */
typedef struct adl_events {
  int64_t n;
  jg_array *met, *jet, *muon, *electron;
} adl_events;

/** A query: `needs` is a space-separated list of Collection.field it reads ("MET.pt Jet.pt");
 *  `run` fills hists[0 .. nhists - 1] (adding to them) from one batch, running on `stream` for
 *  device batches. */
typedef struct adl_query {
  const char *id; /**< "1" .. "8" */
  const char *description;
  int nhists;
  adl_hist_spec hists[ADL_MAX_HISTS];
  const char *needs;
  jg_status (*run)(const adl_events *ev, jg_hist1d *const *hists, jg_stream stream,
                   jg_error *err);
} adl_query;

/** The eight queries, in order. */
extern const adl_query adl_queries[ADL_NQUERIES];

/** The query with id `id` ("1" .. "8"), or NULL. */
const adl_query *adl_query_find(const char *id);

/** Which layout `file` has: FLAT when it has a column MET_pt, RECORDS when it has MET.pt;
 *  JG_ENOTFOUND ("... has neither MET_pt (NanoAOD flat columns) nor MET.pt (records)")
 *  otherwise. */
jg_status adl_schema_detect(const jg_parquet_file *file, adl_schema *schema, jg_error *err);

/** The Parquet columns (projection names for jg_parquet_read_options.columns) that query `q`
 *  reads in `schema`: for flat files nJet and Jet_pt for Jet.pt (the reader zips them with its
 *  nanoaod option), MET_pt for MET.pt; for records Jet.pt, MET.pt. Each needed leaf is checked in
 *  the footer: JG_ENOTFOUND names a missing column and the query; JG_EDTYPE a column of the
 *  wrong type (pt, eta, phi, mass, btag must be floating point, charge and counters integers)
 *  or of the wrong shape (a particle field that is not a list, MET that is one). `names` gets
 *  pointers to static or `storage` strings; `*ncolumns` their count. */
jg_status adl_query_columns(const adl_query *q, const jg_parquet_file *file, adl_schema schema,
                            char storage[ADL_MAX_COLUMNS][64], const char *names[ADL_MAX_COLUMNS],
                            int *ncolumns, jg_error *err);

/** Turns one batch read with adl_query_columns' projection (and nanoaod zipping for flat
 *  files) into `ev` (new references; release with adl_events_release). Record files mark every
 *  field optional: their option nodes are removed when they hold no None (checked on the host,
 *  one small copy per option node for device batches; `stream` orders it). Errors: JG_ENOTFOUND
 *  when an expected field is absent; JG_ENOTSUP for a null value; JG_ENOMEM. */
jg_status adl_events_from_batch(const jg_array *batch, adl_schema schema, jg_stream stream,
                                adl_events *ev, jg_error *err);
void adl_events_release(adl_events *ev);

/** One step of a query's profile: the operation's helper ("mask", "combinations", "fill", ...),
 *  its time in seconds summed over `calls` batches (the stream synchronised before and after). */
typedef struct adl_profile_step {
  const char *what;
  double seconds;
  int64_t calls;
} adl_profile_step;

#define ADL_PROFILE_MAX_STEPS 128

/** Turns the profile on or off and clears it. On, every operation of a query synchronises the
 *  stream and adds its time to step k of the profile (k: its position in the query), so a run of
 *  one query over several batches sums per step. For bench_adl; not thread-safe; off by
 *  default, when it costs nothing. */
void adl_profile_enable(bool on);

/** The steps recorded since adl_profile_enable (their count; *steps points to static storage). */
int adl_profile_steps(const adl_profile_step **steps);

#endif /* JAGGED_CLI_ADL_QUERIES_H */
