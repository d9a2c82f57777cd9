/* test_adl_generate.c: the toy event generator of `jagged generate` (cli/adl/adl_generate.c,
 * docs/adl.md "jagged generate"): byte-identical files for a seed whatever the thread count and
 * progress callback, different files for different seeds, the CMS sample's column names and
 * types, counters equal to the lists' lengths, the documented multiplicities, ranges and
 * thresholds, the Z and top peaks, empty files, row groups as asked, and no file left behind on
 * failure. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adl.h"
#include "jagged/parquet.h"
#include "jg_test.h"
#define JGT_TMPDIR_NAME "adl_generate"
#include "jgt_tmpdir.h"

/* The model's documented numbers (docs/adl.md, "jagged generate"). */
#define DOC_MEAN_NMUON 1.3
#define DOC_MEAN_NELECTRON 0.2
#define DOC_MEAN_NJET 1.7
#define DOC_Z_FRACTION 0.10
#define DOC_TOP_FRACTION 0.10
#define PI_F 3.14159265f

/** TMP/name into `buf`. */
static const char *tmp_path(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s/%s", jgt_tmpdir, name);
  return buf;
}

/** Whether `path` exists. */
static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/** The whole file at `path` (malloc'd) and its size; the test fails if it cannot be read. */
static unsigned char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  const long n = ftell(f);
  assert_true(n > 0);
  rewind(f);
  unsigned char *data = malloc((size_t)n);
  assert_non_null(data);
  assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *size = (size_t)n;
  return data;
}

/** Generates `n` events to TMP/name with `seed`, `threads`, `rows` and an optional progress. */
static void generate(const char *name, int64_t n, uint64_t seed, int threads, int64_t rows,
                     void (*progress)(int64_t, int64_t, void *), void *user) {
  char path[512];
  adl_generate_options o;
  memset(&o, 0, sizeof o);
  o.seed = seed;
  o.nthreads = threads;
  o.row_group_rows = rows;
  o.progress = progress;
  o.user = user;
  JGT_OK(adl_generate(tmp_path(path, sizeof path, name), n, &o, &jgt_err_));
  assert_int_equal(jgt_tmp_leftovers(), 0);
}

/** Whether TMP/a and TMP/b have the same bytes. */
static bool same_bytes(const char *a, const char *b) {
  char pa[512], pb[512];
  size_t na = 0, nb = 0;
  unsigned char *da = slurp(tmp_path(pa, sizeof pa, a), &na);
  unsigned char *db = slurp(tmp_path(pb, sizeof pb, b), &nb);
  const bool same = na == nb && memcmp(da, db, na) == 0;
  free(da);
  free(db);
  return same;
}

/** Progress calls as a test records them. */
typedef struct progress_log {
  int calls;
  int64_t last_done, last_total;
  bool increasing;
} progress_log;

static void record_progress(int64_t done, int64_t total, void *user) {
  progress_log *p = user;
  if (done != p->last_done + 1) p->increasing = false;
  p->calls++;
  p->last_done = done;
  p->last_total = total;
}

static void ignore_progress(int64_t done, int64_t total, void *user) {
  (void)done;
  (void)total;
  (void)user;
}

/* ------------------------------------------------------------------------------------------ */
/* Determinism                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The same seed gives the same bytes for 1, 2 and 3 threads and any progress callback; the
 * progress callback sees every row group in order. */
static void test_same_seed_same_bytes(void **state) {
  (void)state;
  progress_log log = {0, 0, 0, true};
  generate("t1.parquet", 30001, 7, 1, 6000, NULL, NULL);
  generate("t2.parquet", 30001, 7, 2, 6000, record_progress, &log);
  generate("t3.parquet", 30001, 7, 3, 6000, ignore_progress, NULL);
  generate("t8.parquet", 30001, 7, 8, 6000, NULL, NULL); /* more threads than row groups */
  assert_true(same_bytes("t1.parquet", "t2.parquet"));
  assert_true(same_bytes("t1.parquet", "t3.parquet"));
  assert_true(same_bytes("t1.parquet", "t8.parquet"));
  assert_int_equal(log.calls, 6);
  assert_true(log.increasing);
  assert_int_equal(log.last_done, 6);
  assert_int_equal(log.last_total, 6);
}

/* Different seeds give different files; seed 0 is the default seed 42. */
static void test_seeds_differ(void **state) {
  (void)state;
  generate("s1.parquet", 5000, 1, 2, 0, NULL, NULL);
  generate("s2.parquet", 5000, 2, 2, 0, NULL, NULL);
  generate("s0.parquet", 5000, 0, 2, 0, NULL, NULL);
  generate("s42.parquet", 5000, 42, 1, 0, NULL, NULL);
  assert_false(same_bytes("s1.parquet", "s2.parquet"));
  assert_true(same_bytes("s0.parquet", "s42.parquet"));
}

/* ------------------------------------------------------------------------------------------ */
/* Schema                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static const char *const expected_columns[] = {
    "run",         "luminosityBlock", "event",        "nMuon",         "Muon_pt",
    "Muon_eta",    "Muon_phi",        "Muon_mass",    "Muon_charge",   "nElectron",
    "Electron_pt", "Electron_eta",    "Electron_phi", "Electron_mass", "Electron_charge",
    "MET_pt",      "MET_phi",         "MET_sumet",    "nJet",          "Jet_pt",
    "Jet_eta",     "Jet_phi",         "Jet_mass",     "Jet_btag"};
#define NEXPECTED ((int)(sizeof expected_columns / sizeof expected_columns[0]))

/** Reads `path` whole (all columns, no zipping) into *out and returns the open file. */
static jg_parquet_file *read_all(const char *path, bool nanoaod, jg_array **out) {
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  o.nanoaod = nanoaod;
  o.nthreads = 2;
  JGT_OK(jg_parquet_read(f, &o, out, &jgt_err_));
  return f;
}

/** The jagged type of field `name` of record `rec` into buf. */
static void field_type(const jg_array *rec, const char *name, char *buf, size_t size) {
  const int k = jg_array_field_index(rec, name);
  if (k < 0) fail_msg("no field %s", name);
  JGT_OK(jg_array_type_string(jg_array_child(rec, k), buf, size, NULL, &jgt_err_));
}

/* The columns, in order, with the CMS sample's names and types (both read by jg_parquet_read). */
static void test_columns_match_cms_sample(void **state) {
  (void)state;
  char path[512], cms[512];
  generate("schema.parquet", 1000, 3, 2, 0, NULL, NULL);
  jg_array *mine = NULL, *ref = NULL;
  jg_parquet_file *fm = read_all(tmp_path(path, sizeof path, "schema.parquet"), false, &mine);
  snprintf(cms, sizeof cms, "%s/adl/Run2012B_SingleMu-1000.parquet", JG_TEST_DATA_DIR);
  jg_parquet_file *fr = read_all(cms, false, &ref);
  assert_int_equal(jg_array_length(mine), 1000);
  assert_int_equal(jg_array_num_children(mine), NEXPECTED);
  for (int k = 0; k < NEXPECTED; k++) {
    assert_string_equal(jg_array_field_name(mine, k), expected_columns[k]);
    char a[256], b[256];
    field_type(mine, expected_columns[k], a, sizeof a);
    field_type(ref, expected_columns[k], b, sizeof b);
    if (strcmp(a, b) != 0) fail_msg("%s: %s here, %s in the CMS sample", expected_columns[k], a, b);
  }
  /* and the leaf columns' physical types */
  for (int c = 0; c < jg_parquet_num_columns(fm); c++) {
    jg_parquet_column_info im, ir;
    memset(&im, 0, sizeof im);
    JGT_OK(jg_parquet_column_info_get(fm, c, &im, &jgt_err_));
    bool found = false;
    for (int d = 0; d < jg_parquet_num_columns(fr) && !found; d++) {
      memset(&ir, 0, sizeof ir);
      JGT_OK(jg_parquet_column_info_get(fr, d, &ir, &jgt_err_));
      found = strcmp(im.field_path, ir.field_path) == 0;
    }
    if (!found) fail_msg("column %s is not in the CMS sample", im.field_path);
    assert_string_equal(im.physical_type, ir.physical_type);
    assert_int_equal(im.dtype, ir.dtype);
  }
  jg_array_release(mine);
  jg_array_release(ref);
  jg_parquet_close(fm);
  jg_parquet_close(fr);
}

/* ------------------------------------------------------------------------------------------ */
/* Physics                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** The data of numeric field `name` (dense, `dtype`) of `rec`; *n gets its length. */
static const void *scalars(const jg_array *rec, const char *name, jg_dtype dtype, int64_t *n) {
  const int k = jg_array_field_index(rec, name);
  if (k < 0) fail_msg("no field %s", name);
  const jg_array *a = jg_array_child(rec, k);
  assert_int_equal(jg_array_kind(a), JG_NODE_NUMERIC);
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, dtype);
  assert_true(jg_layout_is_contiguous_c(&v.layout));
  if (n != NULL) *n = jg_array_length(a);
  return jg_view_data(&v);
}

/** A list field of `rec`: its offsets (int64, length+1) and content data of `dtype`. */
typedef struct list_col {
  const int64_t *off;
  const void *data;
} list_col;

static list_col lists(const jg_array *rec, const char *name, jg_dtype dtype) {
  const int k = jg_array_field_index(rec, name);
  if (k < 0) fail_msg("no field %s", name);
  const jg_array *a = jg_array_child(rec, k);
  assert_int_equal(jg_array_kind(a), JG_NODE_LIST_OFFSET);
  jg_view o, v;
  JGT_OK(jg_array_buffer(a, 0, &o, &jgt_err_));
  assert_int_equal(o.dtype, JG_DTYPE_INT64);
  const jg_array *content = jg_array_child(a, 0);
  assert_int_equal(jg_array_kind(content), JG_NODE_NUMERIC);
  JGT_OK(jg_array_buffer(content, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, dtype);
  list_col l = {jg_view_data(&o), jg_view_data(&v)};
  return l;
}

/** One collection's columns. */
typedef struct collection {
  const int64_t *count;
  list_col pt, eta, phi, mass, extra; /* extra: charge (int32) or btag (float32) */
} collection;

static collection collection_get(const jg_array *rec, const char *name, bool jets) {
  char buf[64];
  collection c;
  snprintf(buf, sizeof buf, "n%s", name);
  c.count = scalars(rec, buf, JG_DTYPE_INT64, NULL);
  snprintf(buf, sizeof buf, "%s_pt", name);
  c.pt = lists(rec, buf, JG_DTYPE_FLOAT32);
  snprintf(buf, sizeof buf, "%s_eta", name);
  c.eta = lists(rec, buf, JG_DTYPE_FLOAT32);
  snprintf(buf, sizeof buf, "%s_phi", name);
  c.phi = lists(rec, buf, JG_DTYPE_FLOAT32);
  snprintf(buf, sizeof buf, "%s_mass", name);
  c.mass = lists(rec, buf, JG_DTYPE_FLOAT32);
  snprintf(buf, sizeof buf, jets ? "%s_btag" : "%s_charge", name);
  c.extra = lists(rec, buf, jets ? JG_DTYPE_FLOAT32 : JG_DTYPE_INT32);
  return c;
}

/** Checks a collection of `n` events: counts equal every list's length, pt >= pt_min,
 *  |eta| <= eta_max, |phi| <= pi, charges +-1 (leptons) or btag in [0, 1) (jets), pt sorted
 *  decreasing; then its mean count against `mean` within 4 standard errors. */
static void check_collection(const collection *c, int64_t n, const char *name, float pt_min,
                             float eta_max, bool jets, double mean) {
  double sum = 0, sum2 = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t k = c->count[i];
    const list_col *all[5] = {&c->pt, &c->eta, &c->phi, &c->mass, &c->extra};
    for (int a = 0; a < 5; a++) {
      if (all[a]->off[i + 1] - all[a]->off[i] != k) {
        fail_msg("%s: event %lld: n%s %lld, list %d has %lld", name, (long long)i, name,
                 (long long)k, a, (long long)(all[a]->off[i + 1] - all[a]->off[i]));
      }
    }
    sum += (double)k;
    sum2 += (double)k * (double)k;
    const float *pt = (const float *)c->pt.data + c->pt.off[i];
    const float *eta = (const float *)c->eta.data + c->eta.off[i];
    const float *phi = (const float *)c->phi.data + c->phi.off[i];
    const float *mass = (const float *)c->mass.data + c->mass.off[i];
    for (int64_t j = 0; j < k; j++) {
      if (!(pt[j] >= pt_min) || !(fabsf(eta[j]) <= eta_max) || !(fabsf(phi[j]) <= PI_F) ||
          !(mass[j] >= 0) || (j > 0 && pt[j] > pt[j - 1])) {
        fail_msg("%s: event %lld particle %lld: pt %g eta %g phi %g mass %g", name, (long long)i,
                 (long long)j, pt[j], eta[j], phi[j], mass[j]);
      }
      if (jets) {
        const float b = ((const float *)c->extra.data)[c->extra.off[i] + j];
        if (!(b >= 0.0f && b < 1.0f)) fail_msg("%s: btag %g", name, b);
      } else {
        const int32_t q = ((const int32_t *)c->extra.data)[c->extra.off[i] + j];
        if (q != 1 && q != -1) fail_msg("%s: charge %d", name, q);
      }
    }
  }
  const double m = sum / (double)n, var = sum2 / (double)n - m * m;
  const double se = sqrt(var / (double)n);
  if (fabs(m - mean) > 4 * se) {
    fail_msg("%s: mean multiplicity %.4f, documented %.2f (standard error %.4f)", name, m, mean,
             se);
  }
}

/** The massless pair mass of query 5. */
static double pair_mass(float pt1, float eta1, float phi1, float pt2, float eta2, float phi2) {
  return sqrt(2.0 * pt1 * pt2 * (cosh((double)eta1 - eta2) - cos((double)phi1 - phi2)));
}

/** The invariant mass of jets j of event i (n of them, indices idx). */
static double jets_mass(const collection *c, int64_t i, const int *idx, int n) {
  double e = 0, px = 0, py = 0, pz = 0;
  for (int k = 0; k < n; k++) {
    const int64_t at = c->pt.off[i] + idx[k];
    const double pt = ((const float *)c->pt.data)[at], eta = ((const float *)c->eta.data)[at];
    const double phi = ((const float *)c->phi.data)[at], m = ((const float *)c->mass.data)[at];
    px += pt * cos(phi);
    py += pt * sin(phi);
    pz += pt * sinh(eta);
    e += sqrt(pt * cosh(eta) * pt * cosh(eta) + m * m);
  }
  const double m2 = e * e - px * px - py * py - pz * pz;
  return m2 > 0 ? sqrt(m2) : 0;
}

/* 200,000 events: the counters, ranges, thresholds and documented multiplicities; the Z peak
 * (every Z event has an opposite-charge pair in [60, 120], and the pair masses peak at 91.19) and
 * the top peak (three-jet masses of 3-jet events peak at 172.5); MET, event numbers. */
static void test_physics(void **state) {
  (void)state;
  const int64_t n = 200000;
  char path[512];
  generate("physics.parquet", n, 11, 0, 64000, NULL, NULL);
  jg_array *rec = NULL;
  jg_parquet_file *f = read_all(tmp_path(path, sizeof path, "physics.parquet"), false, &rec);
  assert_int_equal(jg_array_length(rec), n);
  assert_int_equal(jg_parquet_num_row_groups(f), 4);
  const collection mu = collection_get(rec, "Muon", false);
  const collection el = collection_get(rec, "Electron", false);
  const collection jet = collection_get(rec, "Jet", true);
  check_collection(&mu, n, "Muon", 3.0f, 2.4f, false, DOC_MEAN_NMUON);
  check_collection(&el, n, "Electron", 5.0f, 2.5f, false, DOC_MEAN_NELECTRON);
  check_collection(&jet, n, "Jet", 15.0f, 4.7f, true, DOC_MEAN_NJET);

  const int32_t *run = scalars(rec, "run", JG_DTYPE_INT32, NULL);
  const int64_t *lumi = scalars(rec, "luminosityBlock", JG_DTYPE_INT64, NULL);
  const int64_t *event = scalars(rec, "event", JG_DTYPE_INT64, NULL);
  const float *met = scalars(rec, "MET_pt", JG_DTYPE_FLOAT32, NULL);
  const float *met_phi = scalars(rec, "MET_phi", JG_DTYPE_FLOAT32, NULL);
  const float *sumet = scalars(rec, "MET_sumet", JG_DTYPE_FLOAT32, NULL);
  double met_sum = 0;
  for (int64_t i = 0; i < n; i++) {
    assert_int_equal(run[i], 1);
    assert_int_equal(event[i], i + 1);
    assert_true(lumi[i] >= 1 && (i == 0 || lumi[i] >= lumi[i - 1]));
    if (!(met[i] >= 0) || !(fabsf(met_phi[i]) <= PI_F) || !(sumet[i] >= 0)) {
      fail_msg("event %lld: MET %g phi %g sumet %g", (long long)i, met[i], met_phi[i], sumet[i]);
    }
    met_sum += met[i];
  }
  /* MET_pt ~ Gamma(2, 14 GeV): mean 28 */
  assert_true(fabs(met_sum / (double)n - 28.0) < 0.5);

  /* The Z: events with an opposite-charge muon pair of massless mass in [60, 120] (query 5's
   * selection) are the Z events (10%, all of them by construction) plus a few percent of random
   * pairs; the pairs' masses peak at the Z mass. */
  int64_t in_window = 0, peak = 0, sideband = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t o = mu.pt.off[i], k = mu.count[i];
    const float *pt = (const float *)mu.pt.data + o, *eta = (const float *)mu.eta.data + o;
    const float *phi = (const float *)mu.phi.data + o;
    const int32_t *q = (const int32_t *)mu.extra.data + o;
    bool any = false;
    for (int64_t a = 0; a < k; a++) {
      for (int64_t b = a + 1; b < k; b++) {
        if (q[a] == q[b]) continue;
        const double m = pair_mass(pt[a], eta[a], phi[a], pt[b], eta[b], phi[b]);
        any = any || (m >= 60 && m <= 120);
        peak += m >= 86.19 && m < 96.19;
        sideband += m >= 60 && m < 70;
      }
    }
    in_window += any;
  }
  const double z_frac = (double)in_window / (double)n;
  const double z_se = sqrt(DOC_Z_FRACTION * (1 - DOC_Z_FRACTION) / (double)n);
  if (z_frac < DOC_Z_FRACTION - 4 * z_se || z_frac > DOC_Z_FRACTION + 0.05) {
    fail_msg(
        "events with an opposite-charge pair in [60, 120]: %.4f, want the Z fraction %.2f "
        "plus a few percent of random pairs",
        z_frac, DOC_Z_FRACTION);
  }
  if (peak < 5 * sideband || (double)peak < 0.8 * DOC_Z_FRACTION * (double)n) {
    fail_msg("no Z peak: %lld pairs in [86.19, 96.19), %lld in [60, 70)", (long long)peak,
             (long long)sideband);
  }

  /* The top: the three-jet mass of events with exactly three jets peaks at 172.5. */
  int64_t top_peak = 0, top_side = 0, three = 0;
  const int idx[3] = {0, 1, 2};
  for (int64_t i = 0; i < n; i++) {
    if (jet.count[i] != 3) continue;
    three++;
    const double m = jets_mass(&jet, i, idx, 3);
    top_peak += fabs(m - 172.5) < 7.5;
    top_side += fabs(m - 202.5) < 7.5;
  }
  /* top events with no background jet: 10% * exp(-1.4) of all events */
  const double want = DOC_TOP_FRACTION * exp(-1.4) * (double)n;
  if ((double)top_peak < 0.9 * want || top_peak < 3 * top_side) {
    fail_msg(
        "no top peak: %lld of %lld three-jet events within 7.5 GeV of 172.5 (want >= %.0f), "
        "%lld within 7.5 of 202.5",
        (long long)top_peak, (long long)three, 0.9 * want, (long long)top_side);
  }
  jg_array_release(rec);
  jg_parquet_close(f);

  /* The NanoAOD zipping of the reader accepts the file (it checks every X_* list against nX). */
  jg_array *zipped = NULL;
  f = read_all(path, true, &zipped);
  assert_true(jg_array_field_index(zipped, "Muon") >= 0);
  jg_array_release(zipped);
  jg_parquet_close(f);
}

/* ------------------------------------------------------------------------------------------ */
/* Files                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* 0 events: a valid file with every column and no rows. */
static void test_empty(void **state) {
  (void)state;
  char path[512];
  generate("empty.parquet", 0, 1, 2, 0, NULL, NULL);
  jg_array *rec = NULL;
  jg_parquet_file *f = read_all(tmp_path(path, sizeof path, "empty.parquet"), false, &rec);
  assert_int_equal(jg_parquet_num_rows(f), 0);
  assert_int_equal(jg_array_length(rec), 0);
  assert_int_equal(jg_array_num_children(rec), NEXPECTED);
  for (int k = 0; k < NEXPECTED; k++)
    assert_string_equal(jg_array_field_name(rec, k), expected_columns[k]);
  jg_array_release(rec);
  jg_parquet_close(f);
}

/* Row groups of the requested size, the last one shorter. */
static void test_row_groups(void **state) {
  (void)state;
  char path[512];
  generate("rg.parquet", 25, 1, 2, 10, NULL, NULL);
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(tmp_path(path, sizeof path, "rg.parquet"), &f, &jgt_err_));
  assert_int_equal(jg_parquet_num_rows(f), 25);
  assert_int_equal(jg_parquet_num_row_groups(f), 3);
  assert_int_equal(jg_parquet_row_group_num_rows(f, 0), 10);
  assert_int_equal(jg_parquet_row_group_num_rows(f, 1), 10);
  assert_int_equal(jg_parquet_row_group_num_rows(f, 2), 5);
  jg_parquet_close(f);
  /* the default: one row group of up to 1,000,000 events */
  generate("rg1.parquet", 1234, 1, 1, 0, NULL, NULL);
  JGT_OK(jg_parquet_open(tmp_path(path, sizeof path, "rg1.parquet"), &f, &jgt_err_));
  assert_int_equal(jg_parquet_num_row_groups(f), 1);
  assert_int_equal(jg_parquet_row_group_num_rows(f, 0), 1234);
  jg_parquet_close(f);
}

/* A path that cannot be written: JG_EIO naming it, and neither the file nor a temporary one is
 * left; a directory or a device in the way: JG_EINVAL, untouched; bad arguments: JG_EINVAL. */
static void test_bad_path(void **state) {
  (void)state;
  char path[512];
  jg_error err;
  jg_error_clear(&err);
  snprintf(path, sizeof path, "%s/no-such-dir/x.parquet", jgt_tmpdir);
  assert_int_equal(adl_generate(path, 100, NULL, &err), JG_EIO);
  JGT_CONTAINS(err.message, "no-such-dir/x.parquet");
  assert_false(exists(path));
  assert_int_equal(jgt_tmp_leftovers(), 0);
  /* a directory in the way: refused, it and its file untouched */
  snprintf(path, sizeof path, "%s/a-directory", jgt_tmpdir);
  assert_int_equal(mkdir(path, 0777), 0);
  char inside[600];
  snprintf(inside, sizeof inside, "%s/keep", path);
  FILE *keep = fopen(inside, "w");
  assert_non_null(keep);
  fclose(keep);
  jg_error_clear(&err);
  assert_int_equal(adl_generate(path, 100, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "a-directory' exists and is not a regular file (a directory)");
  assert_int_equal(jgt_tmp_leftovers(), 0);
  assert_true(exists(inside));
  jg_error_clear(&err);
  assert_int_equal(adl_generate("/dev/null", 100, NULL, &err), JG_EINVAL);
  JGT_CONTAINS(err.message, "'/dev/null' exists and is not a regular file");
  /* bad arguments */
  assert_int_equal(adl_generate(NULL, 10, NULL, &err), JG_EINVAL);
  assert_int_equal(adl_generate(tmp_path(path, sizeof path, "neg.parquet"), -1, NULL, &err),
                   JG_EINVAL);
  adl_generate_options o;
  memset(&o, 0, sizeof o);
  o.row_group_rows = -5;
  assert_int_equal(adl_generate(path, 10, &o, &err), JG_EINVAL);
  assert_false(exists(path));
}

int main(void) {
  JGT_REQUIRE_DATA();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_seed_same_bytes),
      cmocka_unit_test(test_seeds_differ),
      cmocka_unit_test(test_columns_match_cms_sample),
      cmocka_unit_test(test_physics),
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_row_groups),
      cmocka_unit_test(test_bad_path),
  };
  return JGT_RUN_TESTS(tests, jgt_tmpdir_setup, jgt_tmpdir_teardown);
}
