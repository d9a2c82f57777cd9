/* test_parquet_read.c: the Parquet reader (include/jagged/parquet.h) on the two ADL sample
 * files and on files made here by a small generator (every encoding, codec, page version and
 * nesting form the reader takes), and its errors on bad input.
 *
 * Expected values of the sample files come from DuckDB v1.5.6 (npm @duckdb/node-api 1.5.6-r.1,
 * run from /work/tools/duckdb), with the queries quoted next to them. Generated files are
 * checked against the data the generator was given, walked by loops of the test itself. */
#define _POSIX_C_SOURCE 200809L /* mkfifo, getpid */
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal/jgi_parquet.h"
#include "io/parquet/pq_reader.h"
#include "jg_test.h"
#include "jagged/parquet.h"
#include "jagged/parquet_writer.h"

#define FLAT JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-1000.parquet"
#define RESTRUCTURED JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-restructured-1000.parquet"

/* ---- helpers ----------------------------------------------------------------------------- */

static jg_array *field(const jg_array *rec, const char *name) {
  int k = jg_array_field_index(rec, name);
  if (k < 0) print_error("no field '%s'\n", name);
  assert_true(k >= 0);
  return jg_array_child(rec, k);
}

/* The data of a 1-D contiguous buffer k of a node. */
static const void *buf_data(const jg_array *a, int k, jg_len *n) {
  jg_view v;
  JGT_OK(jg_array_buffer(a, k, &v, &jgt_err_));
  assert_int_equal(v.layout.ndim, 1);
  if (v.layout.shape[0] > 1) assert_int_equal(v.layout.strides[0], 1);
  if (n) *n = v.layout.shape[0];
  return jg_view_data(&v);
}

static const int64_t *offsets_of(const jg_array *list) {
  assert_int_equal(jg_array_kind(list), JG_NODE_LIST_OFFSET);
  jg_view v;
  JGT_OK(jg_array_buffer(list, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, JG_DTYPE_INT64);
  return buf_data(list, 0, NULL);
}

static const void *values_of(const jg_array *numeric, jg_dtype dtype) {
  assert_int_equal(jg_array_kind(numeric), JG_NODE_NUMERIC);
  jg_view v;
  JGT_OK(jg_array_buffer(numeric, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, dtype);
  return buf_data(numeric, 0, NULL);
}

static const uint8_t *mask_of(const jg_array *opt) {
  assert_int_equal(jg_array_kind(opt), JG_NODE_BYTE_MASKED);
  assert_true(jg_array_valid_when(opt));
  return buf_data(opt, 0, NULL);
}

static void near(double got, double want) {
  if (fabs(got - want) > 1e-9 * fabs(want)) print_error("%.17g != %.17g\n", got, want);
  assert_true(fabs(got - want) <= 1e-9 * fabs(want));
}

static jg_parquet_file *open_ok(const char *path) {
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
  return f;
}

static jg_array *read_all(jg_parquet_file *f, const jg_parquet_read_options *o) {
  jg_array *a = NULL;
  JGT_OK(jg_parquet_read(f, o, &a, &jgt_err_));
  return a;
}

static char *slurp(const char *path, size_t *size) {
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *d = malloc((size_t)n);
  assert_non_null(d);
  assert_int_equal(fread(d, 1, (size_t)n, fp), (size_t)n);
  fclose(fp);
  *size = (size_t)n;
  return d;
}

/* ---- the flat sample file ---------------------------------------------------------------- */

static void test_flat_metadata(void **state) {
  (void)state;
  jg_parquet_file *f = open_ok(FLAT);
  /* DuckDB: SELECT created_by, num_rows, num_row_groups FROM parquet_file_metadata(FLAT) */
  assert_int_equal(jg_parquet_num_rows(f), 1000);
  assert_int_equal(jg_parquet_num_row_groups(f), 1);
  assert_int_equal(jg_parquet_row_group_num_rows(f, 0), 1000);
  assert_int_equal(jg_parquet_row_group_num_rows(f, 1), -1);
  assert_string_equal(jg_parquet_created_by(f),
                      "parquet-mr version 1.10.1 (build a89df8f9932b6ef6633d06069e50c9b7970bebd1)");
  /* 86 top-level fields, each one leaf (SELECT count(*) FROM parquet_schema(FLAT) WHERE
   * num_children IS NULL: 86). */
  assert_int_equal(jg_parquet_num_columns(f), 86);
  jg_parquet_column_info info = {0};
  JGT_OK(jg_parquet_column_info_get(f, 0, &info, &jgt_err_));
  /* DuckDB parquet_metadata: run INT32, "PLAIN_DICTIONARY, BIT_PACKED", SNAPPY, 78 bytes. */
  assert_string_equal(info.path, "run");
  assert_string_equal(info.physical_type, "INT32");
  assert_string_equal(info.codec, "SNAPPY");
  assert_string_equal(info.encodings, "PLAIN_DICTIONARY,BIT_PACKED");
  assert_int_equal(info.compressed_bytes, 78);
  assert_int_equal(info.dtype, JG_DTYPE_INT32);
  assert_int_equal(info.max_definition_level, 0);
  /* Muon_pt.list.element: FLOAT, "RLE, PLAIN", 5596 bytes; column 11. */
  JGT_OK(jg_parquet_column_info_get(f, 11, &info, &jgt_err_));
  assert_string_equal(info.path, "Muon_pt.list.element");
  assert_string_equal(info.field_path, "Muon_pt");
  assert_string_equal(info.physical_type, "FLOAT");
  assert_string_equal(info.encodings, "RLE,PLAIN");
  assert_int_equal(info.compressed_bytes, 5596);
  assert_int_equal(info.max_definition_level, 1);
  assert_int_equal(info.max_repetition_level, 1);
  jg_error err;
  JGT_STATUS(JG_EINDEX, jg_parquet_column_info_get(f, 86, &info, &err));
  info.version = 3;
  JGT_STATUS(JG_EINVAL, jg_parquet_column_info_get(f, 0, &info, &err));

  char buf[8192];
  size_t needed = 0;
  JGT_OK(jg_parquet_type_string(f, buf, sizeof buf, &needed, &jgt_err_));
  assert_int_equal(needed, strlen(buf));
  JGT_CONTAINS(buf, "1000 * {run: int32, luminosityBlock: int64, event: int64, "
                    "HLT_IsoMu24_eta2p1: bool, ");
  JGT_CONTAINS(buf, ", nMuon: int64, Muon_pt: var * float32, ");
  JGT_CONTAINS(buf, ", Muon_charge: var * int32, ");
  JGT_CONTAINS(buf, ", Jet_btag: var * float32}");
  /* Truncation as jg_array_type_string: NUL-terminated, needed the full length. */
  char small[8];
  size_t need2 = 0;
  JGT_OK(jg_parquet_type_string(f, small, sizeof small, &need2, &jgt_err_));
  assert_int_equal(need2, needed);
  assert_string_equal(small, "1000 * ");
  jg_parquet_close(f);
  jg_parquet_close(NULL);
}

/* Sums of the flat file, from DuckDB:
 *   SELECT count(*), sum(nMuon), sum(len(Muon_pt)),
 *     sum(list_sum(list_transform(Muon_pt, x -> x::DOUBLE))), sum(list_sum(Muon_charge)),
 *     sum(nJet), sum(len(Jet_pt)), sum(list_sum(list_transform(Jet_pt, x -> x::DOUBLE))),
 *     sum(list_sum(list_transform(Jet_btag, x -> x::DOUBLE))), sum(len(Electron_pt)),
 *     sum(list_sum(list_transform(Electron_eta, x -> x::DOUBLE))), sum(MET_pt::DOUBLE),
 *     sum(run), sum(luminosityBlock), sum(event), sum(HLT_IsoMu24::INT), sum(PV_npvs),
 *     sum(len(list_filter(Muon_tightId, x -> x))), sum(list_sum(Jet_puId::INT[])) FROM FLAT */
#define N_MUONS 1328
#define SUM_MUON_PT 39801.14274144173
#define SUM_MUON_CHARGE 54
#define N_JETS 1699
#define SUM_JET_PT 60461.62702560425
#define SUM_JET_BTAG -3659.1326209267136
#define N_ELECTRONS 195
#define SUM_ELECTRON_ETA -14.535527445492335
#define SUM_MET_PT 28467.610664397478
#define SUM_RUN 195080935
#define SUM_LUMI 226855
#define SUM_EVENT 201937043119LL
#define SUM_HLT_ISOMU24 630
#define SUM_PV_NPVS 10735
#define N_MUON_TIGHT 999
#define N_JET_PUID 1695

static double list_sum_f32(const jg_array *list, jg_len *count) {
  const int64_t *o = offsets_of(list);
  const float *v = values_of(jg_array_child(list, 0), JG_DTYPE_FLOAT32);
  jg_len n = jg_array_length(list);
  double s = 0;
  for (int64_t i = o[0]; i < o[n]; i++) s += v[i];
  if (count) *count = o[n] - o[0];
  return s;
}

/* Checks the fields of the flat file's record `a` (n rows from row `first` of the file). */
static void check_flat(const jg_array *a) {
  assert_int_equal(jg_array_kind(a), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(a), 1000);
  assert_int_equal(jg_array_num_children(a), 86);
  const int64_t *nmuon = values_of(field(a, "nMuon"), JG_DTYPE_INT64);
  const jg_array *mupt = field(a, "Muon_pt");
  const int64_t *mo = offsets_of(mupt);
  assert_int_equal(mo[0], 0);
  int64_t total = 0;
  for (int i = 0; i < 1000; i++) {
    assert_int_equal(mo[i + 1] - mo[i], nmuon[i]); /* counts per event */
    total += nmuon[i];
  }
  assert_int_equal(total, N_MUONS);
  jg_len cnt = 0;
  near(list_sum_f32(mupt, &cnt), SUM_MUON_PT);
  assert_int_equal(cnt, N_MUONS);
  near(list_sum_f32(field(a, "Jet_pt"), &cnt), SUM_JET_PT);
  assert_int_equal(cnt, N_JETS);
  near(list_sum_f32(field(a, "Jet_btag"), NULL), SUM_JET_BTAG);
  near(list_sum_f32(field(a, "Electron_eta"), &cnt), SUM_ELECTRON_ETA);
  assert_int_equal(cnt, N_ELECTRONS);
  const jg_array *q = field(a, "Muon_charge");
  const int32_t *qv = values_of(jg_array_child(q, 0), JG_DTYPE_INT32);
  int64_t qs = 0;
  for (int64_t i = 0; i < N_MUONS; i++) qs += qv[i];
  assert_int_equal(qs, SUM_MUON_CHARGE);
  const uint8_t *tight = values_of(jg_array_child(field(a, "Muon_tightId"), 0), JG_DTYPE_BOOL);
  int nt = 0;
  for (int64_t i = 0; i < N_MUONS; i++) nt += tight[i];
  assert_int_equal(nt, N_MUON_TIGHT);
  const jg_array *puid = field(a, "Jet_puId");
  const uint8_t *pv = values_of(jg_array_child(puid, 0), JG_DTYPE_BOOL);
  int np = 0;
  for (int64_t i = 0; i < N_JETS; i++) np += pv[i];
  assert_int_equal(np, N_JET_PUID);

  const float *met = values_of(field(a, "MET_pt"), JG_DTYPE_FLOAT32);
  const int32_t *run = values_of(field(a, "run"), JG_DTYPE_INT32);
  const int64_t *lumi = values_of(field(a, "luminosityBlock"), JG_DTYPE_INT64);
  const int64_t *event = values_of(field(a, "event"), JG_DTYPE_INT64);
  const uint8_t *hlt = values_of(field(a, "HLT_IsoMu24"), JG_DTYPE_BOOL);
  const int32_t *npv = values_of(field(a, "PV_npvs"), JG_DTYPE_INT32);
  double ms = 0;
  int64_t rs = 0, ls = 0, es = 0, hs = 0, ps = 0;
  for (int i = 0; i < 1000; i++) {
    ms += met[i];
    rs += run[i];
    ls += lumi[i];
    es += event[i];
    hs += hlt[i];
    ps += npv[i];
  }
  near(ms, SUM_MET_PT);
  assert_int_equal(rs, SUM_RUN);
  assert_int_equal(ls, SUM_LUMI);
  assert_int_equal(es, SUM_EVENT);
  assert_int_equal(hs, SUM_HLT_ISOMU24);
  assert_int_equal(ps, SUM_PV_NPVS);

  /* First and last events (DuckDB: SELECT run, luminosityBlock, event, MET_pt, Muon_pt, Jet_pt,
   * HLT_IsoMu24, PV_x FROM read_parquet(FLAT, file_row_number=true) WHERE file_row_number IN
   * (0, 999)). */
  assert_int_equal(run[0], 194711);
  assert_int_equal(lumi[0], 299);
  assert_int_equal(event[0], 263142897);
  assert_true(met[0] == (float)22.177032470703125);
  const float *mv = values_of(jg_array_child(mupt, 0), JG_DTYPE_FLOAT32);
  assert_int_equal(mo[1], 1);
  assert_true(mv[0] == (float)12.77709674835205);
  assert_int_equal(qv[0], -1);
  const jg_array *jet = field(a, "Jet_pt");
  const int64_t *jo = offsets_of(jet);
  const float *jv = values_of(jg_array_child(jet, 0), JG_DTYPE_FLOAT32);
  assert_int_equal(jo[1], 2);
  assert_true(jv[0] == (float)71.74247741699219 && jv[1] == (float)27.820533752441406);
  assert_false(hlt[0]);
  assert_true(((const float *)values_of(field(a, "PV_x"), JG_DTYPE_FLOAT32))[0] ==
              (float)0.07269524037837982);
  assert_int_equal(run[999], 195916);
  assert_int_equal(lumi[999], 64);
  assert_int_equal(event[999], 63043673);
  assert_true(met[999] == (float)24.182043075561523);
  assert_int_equal(mo[1000] - mo[999], 1);
  assert_true(mv[mo[999]] == (float)32.71795654296875);
  assert_int_equal(jo[1000] - jo[999], 3);
  assert_true(jv[jo[999]] == (float)20.88170623779297);
  assert_true(jv[jo[999] + 2] == (float)15.519116401672363);
  assert_true(hlt[999]);
}

static void test_flat_read(void **state) {
  (void)state;
  jg_parquet_file *f = open_ok(FLAT);
  jg_array *a = read_all(f, NULL);
  jg_parquet_close(f); /* arrays own their memory */
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  check_flat(a);
  jg_array_release(a);
}

static void test_open_memory_and_threads(void **state) {
  (void)state;
  size_t size = 0;
  char *d = slurp(FLAT, &size);
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open_memory(d, size, &f, &jgt_err_));
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  for (int nt = 0; nt <= 4; nt += 2) {
    o.nthreads = nt;
    jg_array *a = read_all(f, &o);
    check_flat(a);
    jg_array_release(a);
  }
  /* Pinned-free custom memory: the pool resource. */
  o.nthreads = 3;
  o.memory = jg_memory_resource_host_pool();
  jg_array *a = read_all(f, &o);
  check_flat(a);
  jg_array_release(a);
  jg_parquet_close(f);
  free(d);
}

/* ---- the restructured sample file -------------------------------------------------------- */

static void test_restructured(void **state) {
  (void)state;
  jg_parquet_file *f = open_ok(RESTRUCTURED);
  char buf[16384];
  JGT_OK(jg_parquet_type_string(f, buf, sizeof buf, NULL, &jgt_err_));
  JGT_CONTAINS(buf, "1000 * {run: ?int32, luminosityBlock: ?int64, event: ?int64, MET: {pt: "
                    "?float32, phi: ?float32, ");
  JGT_CONTAINS(buf, ", Muon: option[var * ?{pt: ?float32, eta: ?float32, ");
  JGT_CONTAINS(buf, ", HLT: {IsoMu24_eta2p1: ?bool, ");
  jg_array *r = read_all(f, NULL);
  jg_parquet_close(f);
  JGT_OK(jg_array_validate(r, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_parquet_file *g = open_ok(FLAT);
  jg_array *a = read_all(g, NULL);
  jg_parquet_close(g);

  /* MET.pt equals MET_pt, and no MET is null (DuckDB: sum((MET.pt IS NULL)::INT) = 0). */
  const jg_array *met = field(field(r, "MET"), "pt");
  const uint8_t *mm = mask_of(met);
  const float *mv = values_of(jg_array_child(met, 0), JG_DTYPE_FLOAT32);
  const float *fm = values_of(field(a, "MET_pt"), JG_DTYPE_FLOAT32);
  for (int i = 0; i < 1000; i++) {
    assert_true(mm[i]);
    assert_true(mv[i] == fm[i]);
  }
  /* Muon: option -> list -> option -> record -> option -> float32; equal to Muon_pt etc. */
  const jg_array *mu = field(r, "Muon");
  const uint8_t *mum = mask_of(mu);
  const jg_array *mul = jg_array_child(mu, 0);
  const int64_t *mo = offsets_of(mul);
  const int64_t *fo = offsets_of(field(a, "Muon_pt"));
  for (int i = 0; i <= 1000; i++) assert_int_equal(mo[i], fo[i]);
  for (int i = 0; i < 1000; i++) assert_true(mum[i]);
  const jg_array *elem = jg_array_child(mul, 0);
  const uint8_t *em = mask_of(elem);
  const jg_array *rec = jg_array_child(elem, 0);
  assert_int_equal(jg_array_kind(rec), JG_NODE_RECORD);
  assert_int_equal(jg_array_length(rec), N_MUONS);
  const char *names[] = {"pt", "eta", "phi", "mass"};
  const char *flat_names[] = {"Muon_pt", "Muon_eta", "Muon_phi", "Muon_mass"};
  for (int k = 0; k < 4; k++) {
    const jg_array *x = field(rec, names[k]);
    const uint8_t *xm = mask_of(x);
    const float *xv = values_of(jg_array_child(x, 0), JG_DTYPE_FLOAT32);
    const float *yv = values_of(jg_array_child(field(a, flat_names[k]), 0), JG_DTYPE_FLOAT32);
    for (int i = 0; i < N_MUONS; i++) {
      assert_true(em[i] && xm[i]);
      assert_true(xv[i] == yv[i]);
    }
  }
  const jg_array *ch = field(rec, "charge");
  const int32_t *cv = values_of(jg_array_child(ch, 0), JG_DTYPE_INT32);
  int64_t qs = 0;
  for (int i = 0; i < N_MUONS; i++) qs += cv[i];
  assert_int_equal(qs, SUM_MUON_CHARGE);
  /* DuckDB on RESTRUCTURED: sum(len(Jet)) = 1699, sum(list_sum(list_transform(Jet, x ->
   * x.pt::DOUBLE))) = 60461.62702560425, sum(len(Tau)) = 2462, sum(len(Photon)) = 434. */
  const jg_array *jet = jg_array_child(field(r, "Jet"), 0);
  const int64_t *jo = offsets_of(jet);
  assert_int_equal(jo[1000], N_JETS);
  const jg_array *jpt = field(jg_array_child(jg_array_child(jet, 0), 0), "pt");
  const float *jv = values_of(jg_array_child(jpt, 0), JG_DTYPE_FLOAT32);
  double js = 0;
  for (int i = 0; i < N_JETS; i++) js += jv[i];
  near(js, SUM_JET_PT);
  assert_int_equal(offsets_of(jg_array_child(field(r, "Tau"), 0))[1000], 2462);
  assert_int_equal(offsets_of(jg_array_child(field(r, "Photon"), 0))[1000], 434);
  jg_array_release(a);
  jg_array_release(r);
}

/* ---- projection, row groups, batches, NanoAOD --------------------------------------------- */

static void test_projection(void **state) {
  (void)state;
  jg_parquet_file *f = open_ok(FLAT);
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  const char *cols[] = {"Muon_pt", "nMuon", "MET_pt"};
  o.columns = cols;
  o.ncolumns = 3;
  jg_array *a = read_all(f, &o);
  char buf[512];
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  /* The file's order, not the request's. */
  assert_string_equal(buf, "1000 * {nMuon: int64, Muon_pt: var * float32, MET_pt: float32}");
  jg_len cnt = 0;
  near(list_sum_f32(field(a, "Muon_pt"), &cnt), SUM_MUON_PT);
  jg_array_release(a);
  /* Schema paths work too. */
  const char *by_path[] = {"Jet_pt.list.element"};
  o.columns = by_path;
  o.ncolumns = 1;
  a = read_all(f, &o);
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "1000 * {Jet_pt: var * float32}");
  jg_array_release(a);
  /* Unknown names. */
  const char *bad[] = {"Muon_pt", "Muon_ptt"};
  o.columns = bad;
  o.ncolumns = 2;
  jg_error err;
  jg_array *none = (jg_array *)&err;
  JGT_STATUS(JG_ENOTFOUND, jg_parquet_read(f, &o, &none, &err));
  assert_null(none);
  JGT_CONTAINS(err.message, "'Muon_ptt'");
  assert_int_equal(err.index, 1);
  const char *prefix_only[] = {"Muon"}; /* not a dotted prefix of "Muon_pt" */
  o.columns = prefix_only;
  o.ncolumns = 1;
  JGT_STATUS(JG_ENOTFOUND, jg_parquet_read(f, &o, &none, &err));
  jg_parquet_close(f);

  /* Dotted prefixes into records of the restructured file. */
  f = open_ok(RESTRUCTURED);
  const char *sub[] = {"Muon.pt", "MET.phi", "Muon.charge"};
  o.columns = sub;
  o.ncolumns = 3;
  a = read_all(f, &o);
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "1000 * {MET: {phi: ?float32}, Muon: option[var * ?{pt: ?float32, "
                           "charge: ?int32}]}");
  jg_array_release(a);
  jg_parquet_close(f);
}

static void test_row_group_range(void **state) {
  (void)state;
  jg_parquet_file *f = open_ok(FLAT);
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  o.row_group_begin = 1;
  o.row_group_end = 1;
  jg_array *a = read_all(f, &o);
  assert_int_equal(jg_array_length(a), 0);
  assert_int_equal(jg_array_num_children(a), 86);
  jg_array_release(a);
  o.row_group_begin = 0;
  o.row_group_end = 1;
  a = read_all(f, &o);
  check_flat(a);
  jg_array_release(a);
  jg_error err;
  o.row_group_end = 2;
  JGT_STATUS(JG_EINVAL, jg_parquet_read(f, &o, &a, &err));
  o.row_group_end = -1;
  o.row_group_begin = 2;
  JGT_STATUS(JG_EINVAL, jg_parquet_read(f, &o, &a, &err));
  jg_parquet_read_options_init(&o);
  o.nthreads = -1;
  JGT_STATUS(JG_EINVAL, jg_parquet_read(f, &o, &a, &err));
  jg_parquet_read_options_init(&o);
  o.reserved[3] = 1;
  JGT_STATUS(JG_EINVAL, jg_parquet_read(f, &o, &a, &err));
  o.reserved[3] = 0;
  o.version = 0;
  JGT_STATUS(JG_EINVAL, jg_parquet_read(f, &o, &a, &err));
  JGT_STATUS(JG_EINVAL, jg_parquet_read(NULL, NULL, &a, &err));
  JGT_STATUS(JG_EINVAL, jg_parquet_read(f, NULL, NULL, &err));
#if !JG_HAVE_CUDA
  jg_parquet_read_options_init(&o);
  o.device_id = 0;
  JGT_STATUS(JG_ENODEV, jg_parquet_read(f, &o, &a, &err));
#endif
  jg_parquet_close(f);
}

static void test_batches(void **state) {
  (void)state;
  jg_parquet_file *f = open_ok(FLAT);
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  const char *cols[] = {"Muon_pt", "MET_pt", "event"};
  o.columns = cols;
  o.ncolumns = 3;
  jg_array *whole = read_all(f, &o);
  const int64_t *wo = offsets_of(field(whole, "Muon_pt"));
  const float *wv = values_of(jg_array_child(field(whole, "Muon_pt"), 0), JG_DTYPE_FLOAT32);
  const float *wm = values_of(field(whole, "MET_pt"), JG_DTYPE_FLOAT32);
  const int64_t *we = values_of(field(whole, "event"), JG_DTYPE_INT64);
  const int64_t sizes[] = {1, 7, 1000, 4096, 0};
  for (int s = 0; s < 5; s++) {
    jg_parquet_reader *r = NULL;
    JGT_OK(jg_parquet_reader_open(f, &o, sizes[s], &r, &jgt_err_));
    int64_t row = 0;
    int nb = 0;
    for (;;) {
      jg_array *b = NULL;
      JGT_OK(jg_parquet_reader_next(r, &b, &jgt_err_));
      if (b == NULL) break;
      jg_len n = jg_array_length(b);
      int64_t want = sizes[s] == 0 ? 1000 : (1000 - row < sizes[s] ? 1000 - row : sizes[s]);
      assert_int_equal(n, want);
      /* Values through the slice's offsets (which need not start at 0). */
      const jg_array *mp = field(b, "Muon_pt");
      jg_view ov;
      JGT_OK(jg_array_buffer(mp, 0, &ov, &jgt_err_));
      const int64_t *bo = jg_view_data(&ov);
      const float *bv = values_of(jg_array_child(mp, 0), JG_DTYPE_FLOAT32);
      jg_view mv, ev;
      JGT_OK(jg_array_buffer(field(b, "MET_pt"), 0, &mv, &jgt_err_));
      JGT_OK(jg_array_buffer(field(b, "event"), 0, &ev, &jgt_err_));
      const float *bm = jg_view_data(&mv);
      const int64_t *be = jg_view_data(&ev);
      for (jg_len i = 0; i < n; i++) {
        assert_true(bm[i] == wm[row + i]);
        assert_int_equal(be[i], we[row + i]);
        assert_int_equal(bo[i + 1] - bo[i], wo[row + i + 1] - wo[row + i]);
        for (int64_t k = 0; k < bo[i + 1] - bo[i]; k++)
          assert_true(bv[bo[i] + k] == wv[wo[row + i] + k]);
      }
      row += n;
      nb++;
      jg_array_release(b);
    }
    assert_int_equal(row, 1000);
    assert_int_equal(nb, sizes[s] == 0 ? 1 : (1000 + sizes[s] - 1) / sizes[s]);
    jg_array *end = NULL;
    JGT_OK(jg_parquet_reader_next(r, &end, &jgt_err_)); /* stays at the end */
    assert_null(end);
    jg_parquet_reader_close(r);
  }
  jg_parquet_reader *r = NULL;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_parquet_reader_open(f, &o, -1, &r, &err));
  jg_parquet_reader_close(NULL);
  jg_array_release(whole);
  jg_parquet_close(f);
}

static void test_nanoaod(void **state) {
  (void)state;
  jg_parquet_file *f = open_ok(FLAT);
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  o.nanoaod = true;
  jg_array *z = read_all(f, &o);
  JGT_OK(jg_array_validate(z, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array *a = read_all(f, NULL);
  /* Muon, Electron, Tau, Photon, Jet zipped (15 + 14 + 21 + 8 + 6 columns into 5): 86 - 64 +
   * 5 = 27 fields; the counters stay. MET_* has no nMET: kept flat. */
  assert_int_equal(jg_array_num_children(z), 27);
  char buf[4096];
  JGT_OK(jg_array_type_string(field(z, "Muon"), buf, sizeof buf, NULL, &jgt_err_));
  JGT_CONTAINS(buf, "1000 * var * {pt: float32, eta: float32, phi: float32, mass: float32, "
                    "charge: int32, ");
  assert_int_equal(jg_array_field_index(z, "Muon_pt"), -1);
  assert_true(jg_array_field_index(z, "nMuon") >= 0);
  assert_true(jg_array_field_index(z, "MET_pt") >= 0);
  /* The zipped Muon.pt equals Muon_pt. */
  jg_array *zpt = NULL;
  JGT_OK(jg_array_field(field(z, "Muon"), "pt", &zpt, &jgt_err_));
  const jg_array *fpt = field(a, "Muon_pt");
  jg_view zo;
  JGT_OK(jg_array_buffer(zpt, 0, &zo, &jgt_err_));
  const int64_t *zov = jg_view_data(&zo);
  const int64_t *fo = offsets_of(fpt);
  for (int i = 0; i <= 1000; i++) assert_int_equal(zov[i], fo[i]);
  jg_array_release(zpt);
  /* The group name as a projection selects its counter and columns. */
  const char *cols[] = {"Jet"};
  o.columns = cols;
  o.ncolumns = 1;
  jg_array *j = read_all(f, &o);
  JGT_OK(jg_array_type_string(j, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "1000 * {nJet: int64, Jet: var * {pt: float32, eta: float32, phi: "
                           "float32, mass: float32, puId: bool, btag: float32}}");
  jg_array_release(j);
  jg_array_release(z);
  jg_array_release(a);
  jg_parquet_close(f);
}

/* ---- bad input ---------------------------------------------------------------------------- */

static void test_open_errors(void **state) {
  (void)state;
  jg_error err;
  jg_parquet_file *f = (jg_parquet_file *)&err; /* set to NULL on error */
  JGT_STATUS(JG_EIO, jg_parquet_open("/nonexistent/dir/file.parquet", &f, &err));
  assert_null(f);
  JGT_CONTAINS(err.message, "/nonexistent/dir/file.parquet");
  JGT_STATUS(JG_EIO, jg_parquet_open(JG_TEST_DATA_DIR "/adl", &f, &err));
  JGT_CONTAINS(err.message, "is not a regular file (a directory)");
  JGT_STATUS(JG_EIO, jg_parquet_open("/dev/null", &f, &err));
  JGT_CONTAINS(err.message, "(a character device)");
  /* a FIFO with no writer: refused at once, not waited on */
  char fifo[64];
  snprintf(fifo, sizeof fifo, "/tmp/jg_test_parquet_fifo_%d", (int)getpid());
  remove(fifo);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  JGT_STATUS(JG_EIO, jg_parquet_open(fifo, &f, &err));
  JGT_CONTAINS(err.message, "(a FIFO)");
  assert_null(f);
  remove(fifo);
  JGT_STATUS(JG_ECORRUPT, jg_parquet_open(JG_TEST_DATA_DIR "/adl/README.md", &f, &err));
  JGT_CONTAINS(err.message, "README.md");
  JGT_CONTAINS(err.message, "PAR1");
  JGT_STATUS(JG_EINVAL, jg_parquet_open(NULL, &f, &err));
  JGT_STATUS(JG_EINVAL, jg_parquet_open_memory(NULL, 5, &f, &err));
  JGT_STATUS(JG_ECORRUPT, jg_parquet_open_memory("", 0, &f, &err));
  JGT_STATUS(JG_ECORRUPT, jg_parquet_open_memory("PAR1PAR1", 8, &f, &err));
  static const uint8_t tiny[] = {'P', 'A', 'R', '1', 0, 0, 0, 0, 'P', 'A', 'R', '1'};
  JGT_STATUS(JG_ECORRUPT, jg_parquet_open_memory(tiny, sizeof tiny, &f, &err));
  static const uint8_t enc[] = {'P', 'A', 'R', '1', 0, 0, 0, 0, 'P', 'A', 'R', 'E'};
  JGT_STATUS(JG_ENOTSUP, jg_parquet_open_memory(enc, sizeof enc, &f, &err));
  static const uint8_t longfoot[] = {'P', 'A', 'R', '1', 9, 0, 0, 0, 'P', 'A', 'R', '1'};
  JGT_STATUS(JG_ECORRUPT, jg_parquet_open_memory(longfoot, sizeof longfoot, &f, &err));
  JGT_CONTAINS(err.message, "<memory>");
}

/* The file of `table` (written to memory) with its footer's metadata changed by edit(m, ctx),
 * in out (the caller resets it). */
static void edited_file(const jg_array *table, void (*edit)(jgi_pq_file_meta *, const void *),
                        const void *ctx, jgi_pq_buf *out) {
  void *data = NULL;
  size_t size = 0;
  JGT_OK(jg_parquet_write_memory(table, NULL, &data, &size, &jgt_err_));
  const uint8_t *d = data;
  uint32_t flen = 0;
  memcpy(&flen, d + size - 8, 4);
  const size_t body = size - 8 - flen;
  jgi_pq_file_meta m;
  memset(&m, 0, sizeof m);
  JGT_OK(jgi_pq_meta_parse(d + body, flen, &m, &jgt_err_));
  edit(&m, ctx);
  memset(out, 0, sizeof *out);
  JGT_OK(jgi_pq_buf_append(out, d, body, &jgt_err_));
  const size_t f0 = out->size;
  JGT_OK(jgi_pq_meta_write(&m, out, &jgt_err_));
  const uint32_t nlen = (uint32_t)(out->size - f0);
  JGT_OK(jgi_pq_buf_append(out, &nlen, 4, &jgt_err_));
  JGT_OK(jgi_pq_buf_append(out, "PAR1", 4, &jgt_err_));
  jgi_pq_meta_reset(&m);
  jg_parquet_memory_free(data);
}

/* Sets the first column chunk's path_in_schema to the one name ctx. */
static void edit_path(jgi_pq_file_meta *m, const void *ctx) {
  assert_int_equal(m->row_groups[0].columns[0].meta.npath, 1);
  m->row_groups[0].columns[0].meta.path[0] = jgi_pq_meta_strdup(m, ctx, (size_t)-1);
  assert_non_null(m->row_groups[0].columns[0].meta.path[0]);
}

/* path_in_schema naming another column than the schema's leaf: JG_ECORRUPT. A name longer than
 * the leaf's path is the case the fuzz target found reading past the path (run under ASan). */
static void test_path_in_schema_mismatch(void **state) {
  (void)state;
  const int32_t v[3] = {1, 2, 3};
  jg_array *col = NULL, *table = NULL;
  JGT_OK(jg_array_from_host(v, 3, JG_DTYPE_INT32, &col, &jgt_err_));
  const char *names[1] = {"a"};
  JGT_OK(jg_array_record(1, &col, names, 3, &table, &jgt_err_));
  const char *bad[] = {"a_name_much_longer_than_the_leaf_path", "b"};
  for (int k = 0; k < 2; ++k) {
    jgi_pq_buf out;
    edited_file(table, edit_path, bad[k], &out);
    jg_error err;
    jg_parquet_file *f = NULL;
    JGT_STATUS(JG_ECORRUPT, jg_parquet_open_memory(out.data, out.size, &f, &err));
    assert_null(f);
    JGT_CONTAINS(err.message, "path_in_schema");
    jgi_pq_buf_reset(&out);
  }
  jg_array_release(table);
  jg_array_release(col);
}

/* A schema element's new name. */
typedef struct rename_edit {
  int elem;
  const char *name;
} rename_edit;

/* Renames schema element ctx->elem to ctx->name, and path_in_schema with it (the tables of
 * these tests have all their names different), so that only the schema's names are wrong. */
static void edit_name(jgi_pq_file_meta *m, const void *ctx) {
  const rename_edit *r = ctx;
  assert_true(r->elem < m->nschema);
  const char *old = m->schema[r->elem].name;
  char *nn = jgi_pq_meta_strdup(m, r->name, (size_t)-1);
  assert_non_null(nn);
  for (int g = 0; g < m->nrow_groups; ++g) {
    for (int c = 0; c < m->row_groups[g].ncolumns; ++c) {
      jgi_pq_column_meta *cm = &m->row_groups[g].columns[c].meta;
      for (int e = 0; e < cm->npath; ++e) {
        if (strcmp(cm->path[e], old) == 0) cm->path[e] = nn;
      }
    }
  }
  m->schema[r->elem].name = nn;
}

/* Schema names that no jagged record can hold: an empty name, or two children of one group
 * with the same name, at the top and inside a nested record. The file is corrupt
 * (JG_ECORRUPT naming the schema element), not a caller's error (the JG_EINVAL that
 * jg_array_record gave before). Schema of {a: int32, r: {x: int32, y: int32}}: 0 the root, 1
 * a, 2 r, 3 r.x, 4 r.y. */
static void test_schema_names_corrupt(void **state) {
  (void)state;
  const int32_t v[3] = {1, 2, 3};
  jg_array *a = NULL, *x = NULL, *y = NULL, *r = NULL, *table = NULL;
  JGT_OK(jg_array_from_host(v, 3, JG_DTYPE_INT32, &a, &jgt_err_));
  JGT_OK(jg_array_from_host(v, 3, JG_DTYPE_INT32, &x, &jgt_err_));
  JGT_OK(jg_array_from_host(v, 3, JG_DTYPE_INT32, &y, &jgt_err_));
  jg_array *xy[2] = {x, y};
  const char *xy_names[2] = {"x", "y"};
  JGT_OK(jg_array_record(2, xy, xy_names, 3, &r, &jgt_err_));
  jg_array *top[2] = {a, r};
  const char *top_names[2] = {"a", "r"};
  JGT_OK(jg_array_record(2, top, top_names, 3, &table, &jgt_err_));
  const struct {
    int elem;
    const char *name, *want1, *want2;
    int64_t index;
  } cases[] = {
      {1, "", "schema element 1", "the root) has an empty name", 1},
      {3, "", "schema element 3", "'r') has an empty name", 3},
      {2, "a", "schema elements 1 and 2", "both named 'a'", 2},
      {4, "x", "schema elements 3 and 4", "both named 'x' (columns r.x)", 4},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    jgi_pq_buf out;
    const rename_edit edit = {cases[k].elem, cases[k].name};
    edited_file(table, edit_name, &edit, &out);
    jg_error err;
    jg_parquet_file *f = NULL;
    JGT_STATUS(JG_ECORRUPT, jg_parquet_open_memory(out.data, out.size, &f, &err));
    assert_null(f);
    JGT_CONTAINS(err.message, "<memory>");
    JGT_CONTAINS(err.message, cases[k].want1);
    JGT_CONTAINS(err.message, cases[k].want2);
    assert_int_equal(err.index, cases[k].index);
    jgi_pq_buf_reset(&out);
  }
  /* The same file with its names intact opens and reads back. */
  jgi_pq_buf out;
  const rename_edit same = {4, "y"};
  edited_file(table, edit_name, &same, &out);
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open_memory(out.data, out.size, &f, &jgt_err_));
  jg_array *back = NULL;
  JGT_OK(jg_parquet_read(f, NULL, &back, &jgt_err_));
  assert_int_equal(jg_array_length(back), 3);
  jg_array_release(back);
  jg_parquet_close(f);
  jgi_pq_buf_reset(&out);
  jg_array_release(table);
  jg_array_release(r);
  jg_array_release(a);
  jg_array_release(x);
  jg_array_release(y);
}

/* What a corrupt file makes a lower layer report (a constructor's or decoder's JG_EINVAL, a
 * count's JG_EOVERFLOW, ...) comes out of the reader as JG_ECORRUPT with the message kept, the
 * place prefixed and the original status named; the reader's own statuses pass unchanged. */
static void test_as_corrupt(void **state) {
  (void)state;
  const jg_status mapped[] = {JG_EINVAL, JG_ESHAPE, JG_EVALUE, JG_EINDEX, JG_EDTYPE, JG_EOVERFLOW};
  for (size_t k = 0; k < sizeof mapped / sizeof mapped[0]; ++k) {
    jg_error err;
    assert_int_equal(jg_error_set(&err, mapped[k], 5, "field name 0 is empty"), mapped[k]);
    assert_int_equal(jgi_pq_as_corrupt(mapped[k], "f.parquet: column a", &err), JG_ECORRUPT);
    assert_int_equal(err.status, JG_ECORRUPT);
    assert_int_equal(err.index, 5);
    JGT_CONTAINS(err.message, "f.parquet: column a: field name 0 is empty");
    JGT_CONTAINS(err.message, jg_status_name(mapped[k]));
    assert_int_equal(jgi_pq_as_corrupt(mapped[k], NULL, NULL), JG_ECORRUPT);
  }
  const jg_status kept[] = {JG_OK, JG_ECORRUPT, JG_EIO, JG_ENOMEM, JG_ENOTSUP, JG_EINTERNAL,
                            JG_ECUDA, JG_EDEVMEM};
  for (size_t k = 0; k < sizeof kept / sizeof kept[0]; ++k) {
    jg_error err;
    assert_int_equal(jg_error_set(&err, kept[k], -1, "as it was"), kept[k]);
    assert_int_equal(jgi_pq_as_corrupt(kept[k], "where", &err), kept[k]);
    assert_string_equal(err.message, "as it was");
  }
}

/* A read of every column of the file in `d` (size n): any status but a crash is fine for
 * corrupt input; returns it. */
static jg_status try_read(const void *d, size_t n, jg_error *err) {
  jg_parquet_file *f = NULL;
  jg_status st = jg_parquet_open_memory(d, n, &f, err);
  if (st != JG_OK) return st;
  jg_array *a = NULL;
  st = jg_parquet_read(f, NULL, &a, err);
  if (st == JG_OK) {
    st = jg_array_validate(a, JG_VALIDATE_FULL, NULL, err);
    jg_array_release(a);
  }
  jg_parquet_close(f);
  return st;
}

static void test_truncated(void **state) {
  (void)state;
  size_t size = 0;
  char *d = slurp(FLAT, &size);
  jg_error err;
  /* Cut at the end: every length up to 300 bytes short. */
  for (size_t cut = 1; cut <= 300; cut++) {
    jg_status st = try_read(d, size - cut, &err);
    assert_true(st == JG_ECORRUPT);
  }
  /* Cut in the middle of the data, the footer kept: the chunks run past the data. */
  uint32_t flen;
  memcpy(&flen, d + size - 8, 4);
  size_t foot = (size_t)flen + 8;
  char *t = malloc(size);
  for (size_t keep = 4; keep < size - foot; keep += 997) {
    memcpy(t, d, keep);
    memcpy(t + keep, d + size - foot, foot);
    jg_status st = try_read(t, keep + foot, &err);
    assert_true(st == JG_ECORRUPT);
    JGT_CONTAINS(err.message, "<memory>");
    JGT_CONTAINS(err.message, "column ");
  }
  free(t);
  free(d);
}

static void test_flipped_bytes(void **state) {
  (void)state;
  size_t size = 0;
  char *d = slurp(FLAT, &size);
  jg_error err;
  int failed = 0;
  /* Pages: one byte in every 211, flipped. */
  for (size_t pos = 4; pos < size - 8; pos += 211) {
    d[pos] ^= 0x5A;
    jg_status st = try_read(d, size, &err);
    assert_true(st == JG_OK || st == JG_ECORRUPT || st == JG_ENOTSUP);
    failed += st != JG_OK;
    d[pos] ^= 0x5A;
  }
  assert_true(failed > 0);
  /* The footer, more densely. */
  uint32_t flen;
  memcpy(&flen, d + size - 8, 4);
  for (size_t pos = size - 8 - flen; pos < size - 8; pos += 13) {
    d[pos] ^= 0xFF;
    jg_status st = try_read(d, size, &err);
    assert_true(st == JG_OK || st == JG_ECORRUPT || st == JG_ENOTSUP);
    d[pos] ^= 0xFF;
  }
  free(d);
}

/* ---- generated files -------------------------------------------------------------------- */

/* The generator: a tiny writer of its own (levels shredded by hand per field below, values
 * encoded with the jgi_pq_* encoders, pages and footer with the metadata writer), so that the
 * reader meets every encoding, codec, page version and nesting form of the spec. */

#define G_ROWS 40
#define G_CAP 8192

typedef struct gcol {
  int16_t rep[G_CAP], def[G_CAP];
  int64_t n;
  int64_t row_start[G_ROWS + 2];
  uint8_t vals[G_CAP * 12];
  int64_t nv;
  int64_t off[G_CAP + 1];
  uint8_t bytes[G_CAP * 16];
  int w; /* fixed width, 0 for byte arrays */
} gcol;

static void lv(gcol *c, int r, int d) {
  c->rep[c->n] = (int16_t)r;
  c->def[c->n] = (int16_t)d;
  c->n++;
}
static void vraw(gcol *c, const void *p, int w) {
  memcpy(c->vals + c->nv * w, p, (size_t)w);
  c->nv++;
}
static void vi32(gcol *c, int32_t v) { vraw(c, &v, 4); }
static void vi64(gcol *c, int64_t v) { vraw(c, &v, 8); }
static void vbytes(gcol *c, const char *str) {
  size_t n = strlen(str);
  memcpy(c->bytes + c->off[c->nv], str, n);
  c->off[c->nv + 1] = c->off[c->nv] + (int64_t)n;
  c->nv++;
}

/* The data, as functions of the row. */
static bool b_null(int i) { return i % 3 == 2; }
static bool s_null(int i) { return i % 4 == 1; }
static bool l2_null(int i) { return i % 5 == 0; }
static bool m_null(int i) { return i % 7 == 3; }
static bool ll_null(int i) { return i % 6 == 5; }
static bool h_null(int i) { return i % 2 == 1; }
static bool st_null(int i) { return i % 7 == 6; }
static bool bo_null(int i) { return i % 5 == 4; }

static void sh_a(gcol *c, int i) { lv(c, 0, 0); vi32(c, i * 7 - 50); }
static void sh_b(gcol *c, int i) {
  lv(c, 0, !b_null(i));
  if (!b_null(i)) {
    double v = i * 0.5;
    vraw(c, &v, 8);
  }
}
static void sh_s(gcol *c, int i) {
  lv(c, 0, !s_null(i));
  char t[32];
  snprintf(t, sizeof t, "s%d", i);
  if (!s_null(i)) vbytes(c, t);
}
static void sh_t(gcol *c, int i) {
  char t[32];
  snprintf(t, sizeof t, "prefix_%d", i / 3);
  lv(c, 0, 0);
  vbytes(c, t);
}
static void sh_l2(gcol *c, int i) {
  if (l2_null(i)) { lv(c, 0, 0); return; }
  if (i % 4 == 0) { lv(c, 0, 1); return; }
  for (int k = 0; k < i % 4; k++) {
    lv(c, k ? 1 : 0, 2);
    vi32(c, i * 10 + k);
  }
}
static void sh_mkey(gcol *c, int i) {
  if (m_null(i)) { lv(c, 0, 0); return; }
  if (i % 3 == 0) { lv(c, 0, 1); return; }
  for (int j = 0; j < i % 3; j++) {
    char t[8];
    snprintf(t, sizeof t, "k%d", j);
    lv(c, j ? 1 : 0, 2);
    vbytes(c, t);
  }
}
static void sh_mval(gcol *c, int i) {
  if (m_null(i)) { lv(c, 0, 0); return; }
  if (i % 3 == 0) { lv(c, 0, 1); return; }
  for (int j = 0; j < i % 3; j++) {
    lv(c, j ? 1 : 0, j == 1 ? 2 : 3);
    if (j != 1) vi32(c, i + j);
  }
}
static bool ll_elem_null(int j) { return j == 1; }
static int ll_inner(int i, int j) { return (i + j) % 3; }
static bool ll_val_null(int i, int j, int k) { return (i + j + k) % 4 == 3; }
static void sh_ll(gcol *c, int i) {
  if (ll_null(i)) { lv(c, 0, 0); return; }
  if (i % 3 == 0) { lv(c, 0, 1); return; }
  for (int j = 0; j < i % 3; j++) {
    int r0 = j ? 1 : 0;
    if (ll_elem_null(j)) {
      lv(c, r0, 2);
      continue;
    }
    if (ll_inner(i, j) == 0) {
      lv(c, r0, 3);
      continue;
    }
    for (int k = 0; k < ll_inner(i, j); k++) {
      int r = k ? 2 : r0;
      if (ll_val_null(i, j, k)) {
        lv(c, r, 4);
      } else {
        lv(c, r, 5);
        vi64(c, i * 100 + j * 10 + k);
      }
    }
  }
}
static void sh_r(gcol *c, int i) {
  if (i % 3 == 0) { lv(c, 0, 0); return; }
  for (int k = 0; k < i % 3; k++) {
    lv(c, k ? 1 : 0, 1);
    vi32(c, i + k);
  }
}
static void sh_u8(gcol *c, int i) { lv(c, 0, 0); vi32(c, (i * 37) % 256); }
static void sh_ts(gcol *c, int i) {
  uint8_t v[12];
  int64_t nanos = (int64_t)i * 1000;
  int32_t day = 2440588 + i - 20;
  memcpy(v, &nanos, 8);
  memcpy(v + 8, &day, 4);
  lv(c, 0, 0);
  vraw(c, v, 12);
}
static void sh_h(gcol *c, int i) {
  lv(c, 0, !h_null(i));
  uint16_t v = (uint16_t)(0x3C00 + i);
  if (!h_null(i)) vraw(c, &v, 2);
}
static void sh_fx(gcol *c, int i) {
  uint8_t v[3] = {(uint8_t)i, (uint8_t)(i + 1), (uint8_t)(i + 2)};
  lv(c, 0, 0);
  vraw(c, v, 3);
}
static void sh_stx(gcol *c, int i) {
  lv(c, 0, !st_null(i));
  if (!st_null(i)) vi32(c, i);
}
static void sh_sty(gcol *c, int i) {
  if (st_null(i)) { lv(c, 0, 0); return; }
  lv(c, 0, i % 2 ? 1 : 2);
  if (i % 2 == 0) vi64(c, i * 3);
}
static void sh_bo(gcol *c, int i) {
  lv(c, 0, !bo_null(i));
  uint8_t v = i % 3 == 0;
  if (!bo_null(i)) vraw(c, &v, 1);
}
/* A corrupt variant: a definition level above the column's maximum in row 3. */
static void sh_l2_bad(gcol *c, int i) {
  if (i == 3) {
    lv(c, 0, 3);
    return;
  }
  sh_l2(c, i);
}

typedef struct gleaf {
  const char *path;
  int type, width; /* width: bytes of a stored value (BOOLEAN 1), 0 for BYTE_ARRAY */
  int max_def, max_rep;
  int encoding, version, codec;
  void (*shred)(gcol *, int);
} gleaf;

enum { UNC = JGI_PQ_UNCOMPRESSED };

static gleaf g_leaves[] = {
    {"a", JGI_PQ_INT32, 4, 0, 0, JGI_PQ_DELTA_BINARY_PACKED, 2, JGI_PQ_ZSTD, sh_a},
    {"b", JGI_PQ_DOUBLE, 8, 1, 0, JGI_PQ_BYTE_STREAM_SPLIT, 1, JGI_PQ_SNAPPY, sh_b},
    {"s", JGI_PQ_BYTE_ARRAY, 0, 1, 0, JGI_PQ_DELTA_LENGTH_BYTE_ARRAY, 2, JGI_PQ_GZIP, sh_s},
    {"t", JGI_PQ_BYTE_ARRAY, 0, 0, 0, JGI_PQ_DELTA_BYTE_ARRAY, 1, UNC, sh_t},
    {"l2.array", JGI_PQ_INT32, 4, 2, 1, JGI_PQ_PLAIN, 1, JGI_PQ_SNAPPY, sh_l2},
    {"m.key_value.key", JGI_PQ_BYTE_ARRAY, 0, 2, 1, JGI_PQ_PLAIN, 2, JGI_PQ_SNAPPY, sh_mkey},
    {"m.key_value.value", JGI_PQ_INT32, 4, 3, 1, JGI_PQ_RLE_DICTIONARY, 2, JGI_PQ_LZ4_RAW,
     sh_mval},
    {"ll.list.element.list.element", JGI_PQ_INT64, 8, 5, 2, JGI_PQ_PLAIN, 1, JGI_PQ_ZSTD, sh_ll},
    {"r", JGI_PQ_INT32, 4, 1, 1, JGI_PQ_PLAIN, 2, UNC, sh_r},
    {"u8", JGI_PQ_INT32, 4, 0, 0, JGI_PQ_PLAIN, 1, JGI_PQ_BROTLI, sh_u8},
    {"ts", JGI_PQ_INT96, 12, 0, 0, JGI_PQ_PLAIN, 1, JGI_PQ_GZIP, sh_ts},
    {"h", JGI_PQ_FIXED_LEN_BYTE_ARRAY, 2, 1, 0, JGI_PQ_PLAIN, 2, JGI_PQ_SNAPPY, sh_h},
    {"fx", JGI_PQ_FIXED_LEN_BYTE_ARRAY, 3, 0, 0, JGI_PQ_DELTA_BYTE_ARRAY, 1, JGI_PQ_SNAPPY,
     sh_fx},
    {"st.x", JGI_PQ_INT32, 4, 1, 0, JGI_PQ_DELTA_BINARY_PACKED, 1, UNC, sh_stx},
    {"st.y", JGI_PQ_INT64, 8, 2, 0, JGI_PQ_PLAIN_DICTIONARY, 1, JGI_PQ_SNAPPY, sh_sty},
    {"bo", JGI_PQ_BOOLEAN, 1, 1, 0, JGI_PQ_RLE, 2, JGI_PQ_SNAPPY, sh_bo},
};
#define G_NLEAVES ((int)(sizeof g_leaves / sizeof g_leaves[0]))

static jgi_pq_schema_elem E(const char *name, int type, int rep, int nch, int ct) {
  jgi_pq_schema_elem e;
  memset(&e, 0, sizeof e);
  e.name = (char *)name;
  e.type = type;
  e.type_length = -1;
  e.repetition = rep;
  e.num_children = nch;
  e.converted_type = ct;
  e.scale = e.precision = e.field_id = -1;
  return e;
}

enum { REQ = JGI_PQ_REQUIRED, OPT = JGI_PQ_OPTIONAL, REP = JGI_PQ_REPEATED, GRP = -1 };

static int g_schema(jgi_pq_schema_elem *s) {
  int n = 0;
  s[n++] = E("schema", GRP, -1, 14, -1);
  s[n++] = E("a", JGI_PQ_INT32, REQ, -1, -1);
  s[n++] = E("b", JGI_PQ_DOUBLE, OPT, -1, -1);
  s[n++] = E("s", JGI_PQ_BYTE_ARRAY, OPT, -1, JGI_PQ_CT_UTF8);
  s[n - 1].logical.kind = JGI_PQ_LT_STRING;
  s[n++] = E("t", JGI_PQ_BYTE_ARRAY, REQ, -1, -1);
  s[n++] = E("l2", GRP, OPT, 1, JGI_PQ_CT_LIST); /* 2-level list: repeated primitive */
  s[n++] = E("array", JGI_PQ_INT32, REP, -1, -1);
  s[n++] = E("m", GRP, OPT, 1, JGI_PQ_CT_MAP);
  s[n++] = E("key_value", GRP, REP, 2, JGI_PQ_CT_MAP_KEY_VALUE);
  s[n++] = E("key", JGI_PQ_BYTE_ARRAY, REQ, -1, JGI_PQ_CT_UTF8);
  s[n++] = E("value", JGI_PQ_INT32, OPT, -1, -1);
  s[n++] = E("ll", GRP, OPT, 1, JGI_PQ_CT_LIST); /* list of lists, 3-level both */
  s[n++] = E("list", GRP, REP, 1, -1);
  s[n++] = E("element", GRP, OPT, 1, -1);
  s[n - 1].logical.kind = JGI_PQ_LT_LIST;
  s[n++] = E("list", GRP, REP, 1, -1);
  s[n++] = E("element", JGI_PQ_INT64, OPT, -1, -1);
  s[n++] = E("r", JGI_PQ_INT32, REP, -1, -1); /* repeated outside a LIST */
  s[n++] = E("u8", JGI_PQ_INT32, REQ, -1, JGI_PQ_CT_UINT_8);
  s[n++] = E("ts", JGI_PQ_INT96, REQ, -1, -1);
  s[n++] = E("h", JGI_PQ_FIXED_LEN_BYTE_ARRAY, OPT, -1, -1);
  s[n - 1].type_length = 2;
  s[n - 1].logical.kind = JGI_PQ_LT_FLOAT16;
  s[n++] = E("fx", JGI_PQ_FIXED_LEN_BYTE_ARRAY, REQ, -1, -1);
  s[n - 1].type_length = 3;
  s[n++] = E("st", GRP, OPT, 2, -1);
  s[n++] = E("x", JGI_PQ_INT32, REQ, -1, -1);
  s[n++] = E("y", JGI_PQ_INT64, OPT, -1, -1);
  s[n++] = E("bo", JGI_PQ_BOOLEAN, OPT, -1, -1);
  return n;
}

static void buf_ok(jg_status st) { assert_int_equal(st, JG_OK); }

/* Encodes values [v0, v1) of c with `enc` at the end of out. */
static void encode_values(const gleaf *l, const gcol *c, int64_t v0, int64_t v1, int enc,
                          jgi_pq_buf *out) {
  int64_t n = v1 - v0;
  int w = l->width;
  if (enc == JGI_PQ_PLAIN_DICTIONARY || enc == JGI_PQ_RLE_DICTIONARY) {
    /* The dictionary holds every value of the chunk: indices are positions. */
    uint32_t *idx = malloc(sizeof(uint32_t) * (size_t)(n + 1));
    for (int64_t i = 0; i < n; i++) idx[i] = (uint32_t)(v0 + i);
    int bw = jgi_pq_bit_width((uint64_t)(c->nv > 0 ? c->nv - 1 : 0));
    uint8_t b = (uint8_t)bw;
    buf_ok(jgi_pq_buf_append(out, &b, 1, NULL));
    buf_ok(jgi_pq_rle_encode(idx, n, bw, out, NULL));
    free(idx);
    return;
  }
  if (w == 0 || (enc == JGI_PQ_DELTA_BYTE_ARRAY)) {
    /* Byte arrays (or fixed ones as byte arrays), offsets rebased to the page. */
    int64_t *off = malloc(sizeof(int64_t) * (size_t)(n + 1));
    const uint8_t *base;
    if (w == 0) {
      for (int64_t i = 0; i <= n; i++) off[i] = c->off[v0 + i] - c->off[v0];
      base = c->bytes + c->off[v0];
    } else {
      for (int64_t i = 0; i <= n; i++) off[i] = i * w;
      base = c->vals + v0 * w;
    }
    if (enc == JGI_PQ_PLAIN) buf_ok(jgi_pq_plain_encode_bytes(off, base, n, out, NULL));
    else if (enc == JGI_PQ_DELTA_LENGTH_BYTE_ARRAY)
      buf_ok(jgi_pq_delta_length_encode(off, base, n, out, NULL));
    else if (enc == JGI_PQ_DELTA_BYTE_ARRAY)
      buf_ok(jgi_pq_delta_bytes_encode(off, base, n, out, NULL));
    else
      fail_msg("encoding %d for byte arrays", enc);
    free(off);
    return;
  }
  const uint8_t *p = c->vals + v0 * w;
  switch (enc) {
    case JGI_PQ_PLAIN:
      if (l->type == JGI_PQ_BOOLEAN) buf_ok(jgi_pq_plain_encode_bool(p, n, out, NULL));
      else buf_ok(jgi_pq_buf_append(out, p, (size_t)(n * w), NULL));
      break;
    case JGI_PQ_DELTA_BINARY_PACKED: buf_ok(jgi_pq_delta_encode(p, w, n, out, NULL)); break;
    case JGI_PQ_BYTE_STREAM_SPLIT:
      buf_ok(jgi_pq_byte_stream_split_encode(p, w, n, out, NULL));
      break;
    case JGI_PQ_RLE: { /* booleans: 4-byte length, then the hybrid of bit width 1 */
      uint32_t *v = malloc(sizeof(uint32_t) * (size_t)(n + 1));
      for (int64_t i = 0; i < n; i++) v[i] = p[i];
      jgi_pq_buf t = {0};
      buf_ok(jgi_pq_rle_encode(v, n, 1, &t, NULL));
      uint32_t len = (uint32_t)t.size;
      buf_ok(jgi_pq_buf_append(out, &len, 4, NULL));
      buf_ok(jgi_pq_buf_append(out, t.data, t.size, NULL));
      jgi_pq_buf_reset(&t);
      free(v);
      break;
    }
    default: fail_msg("encoding %d", enc);
  }
}

static void encode_levels(const int16_t *lv_, int64_t n, int max, jgi_pq_buf *out) {
  uint32_t *v = malloc(sizeof(uint32_t) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) v[i] = (uint32_t)lv_[i];
  buf_ok(jgi_pq_rle_encode(v, n, jgi_pq_bit_width((uint64_t)max), out, NULL));
  free(v);
}

static int codec_or_none(int codec) { return jgi_pq_codec_available(codec) ? codec : UNC; }

static void put_page(jgi_pq_buf *out, jgi_pq_page_header *h, const jgi_pq_buf *body,
                     int64_t *uncompressed_total) {
  h->compressed_size = (int32_t)body->size;
  size_t at = out->size;
  buf_ok(jgi_pq_page_header_write(h, out, NULL));
  *uncompressed_total += (int64_t)(out->size - at) + h->uncompressed_size;
  buf_ok(jgi_pq_buf_append(out, body->data, body->size, NULL));
}

/* A file of `leaves` (nleaves) under `schema` (nschema elements) with nrows rows, row groups
 * starting at rg_start[0..nrg) (rg_start[nrg] = nrows), 3 pages a chunk where rows allow. */
static uint8_t *gen_file(const jgi_pq_schema_elem *schema, int nschema, const gleaf *leaves,
                         int nleaves, int nrows, const int *rg_start, int nrg, size_t *size) {
  jgi_pq_buf out = {0};
  buf_ok(jgi_pq_buf_append(&out, "PAR1", 4, NULL));
  jgi_pq_file_meta m;
  memset(&m, 0, sizeof m);
  m.version = 1;
  m.num_rows = nrows;
  m.created_by = jgi_pq_meta_strdup(&m, "jagged test generator", (size_t)-1);
  m.nschema = nschema;
  m.schema = jgi_pq_meta_alloc(&m, sizeof(jgi_pq_schema_elem) * (size_t)nschema);
  for (int k = 0; k < nschema; k++) {
    m.schema[k] = schema[k];
    m.schema[k].name = jgi_pq_meta_strdup(&m, schema[k].name, (size_t)-1);
  }
  m.nrow_groups = nrg;
  m.row_groups = jgi_pq_meta_alloc(&m, sizeof(jgi_pq_row_group) * (size_t)nrg);
  gcol *c = malloc(sizeof *c);
  for (int g = 0; g < nrg; g++) {
    jgi_pq_row_group *rg = &m.row_groups[g];
    int r0 = rg_start[g], r1 = g + 1 < nrg ? rg_start[g + 1] : nrows;
    rg->num_rows = r1 - r0;
    rg->ncolumns = nleaves;
    rg->columns = jgi_pq_meta_alloc(&m, sizeof(jgi_pq_column_chunk) * (size_t)nleaves);
    for (int k = 0; k < nleaves; k++) {
      const gleaf *l = &leaves[k];
      memset(c, 0, sizeof *c);
      c->w = l->width;
      for (int i = r0; i < r1; i++) {
        c->row_start[i - r0] = c->n;
        l->shred(c, i);
      }
      c->row_start[r1 - r0] = c->n;
      int codec = codec_or_none(l->codec);
      jgi_pq_column_chunk *cc = &rg->columns[k];
      jgi_pq_column_meta *cm = &cc->meta;
      cc->has_meta = true;
      cc->file_offset = (int64_t)out.size;
      cm->type = l->type;
      cm->codec = codec;
      cm->num_values = c->n;
      cm->index_page_offset = -1;
      cm->dictionary_page_offset = -1;
      /* path */
      char tmp[128];
      snprintf(tmp, sizeof tmp, "%s", l->path);
      cm->path = jgi_pq_meta_alloc(&m, sizeof(char *) * 8);
      for (char *tok = strtok(tmp, "."); tok; tok = strtok(NULL, "."))
        cm->path[cm->npath++] = jgi_pq_meta_strdup(&m, tok, (size_t)-1);
      cm->encodings = jgi_pq_meta_alloc(&m, sizeof(int) * 3);
      cm->encodings[cm->nencodings++] = l->encoding;
      cm->encodings[cm->nencodings++] = JGI_PQ_RLE;
      int64_t start = (int64_t)out.size, uncompressed = 0;
      bool dict = l->encoding == JGI_PQ_PLAIN_DICTIONARY || l->encoding == JGI_PQ_RLE_DICTIONARY;
      if (dict) {
        cm->encodings[cm->nencodings++] = JGI_PQ_PLAIN;
        cm->dictionary_page_offset = (int64_t)out.size;
        jgi_pq_buf raw = {0}, body = {0};
        encode_values(l, c, 0, c->nv, JGI_PQ_PLAIN, &raw);
        buf_ok(jgi_pq_compress(codec, 0, raw.data, raw.size, &body, NULL));
        jgi_pq_page_header h;
        memset(&h, 0, sizeof h);
        h.type = JGI_PQ_DICTIONARY_PAGE;
        h.uncompressed_size = (int32_t)raw.size;
        h.dict.num_values = (int32_t)c->nv;
        h.dict.encoding = l->version == 1 ? JGI_PQ_PLAIN_DICTIONARY : JGI_PQ_PLAIN;
        put_page(&out, &h, &body, &uncompressed);
        jgi_pq_buf_reset(&raw);
        jgi_pq_buf_reset(&body);
      }
      cm->data_page_offset = (int64_t)out.size;
      /* Pages at record boundaries: thirds of the row group's rows. */
      int nr = r1 - r0;
      int64_t v0 = 0;
      for (int p = 0; p < 3; p++) {
        int a = nr * p / 3, b = nr * (p + 1) / 3;
        if (a == b) continue;
        int64_t e0 = c->row_start[a], e1 = c->row_start[b];
        int64_t nv = 0;
        for (int64_t e = e0; e < e1; e++) nv += c->def[e] == l->max_def;
        jgi_pq_buf rep = {0}, def = {0}, vals = {0}, body = {0};
        if (l->max_rep) encode_levels(c->rep + e0, e1 - e0, l->max_rep, &rep);
        if (l->max_def) encode_levels(c->def + e0, e1 - e0, l->max_def, &def);
        encode_values(l, c, v0, v0 + nv, l->encoding, &vals);
        jgi_pq_page_header h;
        memset(&h, 0, sizeof h);
        if (l->version == 1) {
          jgi_pq_buf raw = {0};
          if (l->max_rep) {
            uint32_t len = (uint32_t)rep.size;
            buf_ok(jgi_pq_buf_append(&raw, &len, 4, NULL));
            buf_ok(jgi_pq_buf_append(&raw, rep.data, rep.size, NULL));
          }
          if (l->max_def) {
            uint32_t len = (uint32_t)def.size;
            buf_ok(jgi_pq_buf_append(&raw, &len, 4, NULL));
            buf_ok(jgi_pq_buf_append(&raw, def.data, def.size, NULL));
          }
          buf_ok(jgi_pq_buf_append(&raw, vals.data, vals.size, NULL));
          buf_ok(jgi_pq_compress(codec, 0, raw.data, raw.size, &body, NULL));
          h.type = JGI_PQ_DATA_PAGE;
          h.uncompressed_size = (int32_t)raw.size;
          h.v1.num_values = (int32_t)(e1 - e0);
          h.v1.encoding = l->encoding;
          h.v1.def_encoding = JGI_PQ_RLE;
          h.v1.rep_encoding = JGI_PQ_RLE;
          jgi_pq_buf_reset(&raw);
        } else {
          buf_ok(jgi_pq_buf_append(&body, rep.data, rep.size, NULL));
          buf_ok(jgi_pq_buf_append(&body, def.data, def.size, NULL));
          buf_ok(jgi_pq_compress(codec, 0, vals.data, vals.size, &body, NULL));
          h.type = JGI_PQ_DATA_PAGE_V2;
          h.uncompressed_size = (int32_t)(rep.size + def.size + vals.size);
          h.v2.num_values = (int32_t)(e1 - e0);
          h.v2.num_nulls = (int32_t)(e1 - e0 - nv);
          h.v2.num_rows = b - a;
          h.v2.encoding = l->encoding;
          h.v2.rep_bytes = (int32_t)rep.size;
          h.v2.def_bytes = (int32_t)def.size;
          h.v2.is_compressed = codec != UNC;
        }
        put_page(&out, &h, &body, &uncompressed);
        v0 += nv;
        jgi_pq_buf_reset(&rep);
        jgi_pq_buf_reset(&def);
        jgi_pq_buf_reset(&vals);
        jgi_pq_buf_reset(&body);
      }
      cm->total_compressed_size = (int64_t)out.size - start;
      cm->total_uncompressed_size = uncompressed;
    }
  }
  free(c);
  jgi_pq_buf foot = {0};
  buf_ok(jgi_pq_meta_write(&m, &foot, NULL));
  buf_ok(jgi_pq_buf_append(&out, foot.data, foot.size, NULL));
  uint32_t flen = (uint32_t)foot.size;
  buf_ok(jgi_pq_buf_append(&out, &flen, 4, NULL));
  buf_ok(jgi_pq_buf_append(&out, "PAR1", 4, NULL));
  jgi_pq_buf_reset(&foot);
  jgi_pq_meta_reset(&m);
  *size = out.size;
  return out.data;
}

static const int g_rg[] = {0, 25};

static uint8_t *gen_main(size_t *size) {
  jgi_pq_schema_elem s[32];
  int n = g_schema(s);
  return gen_file(s, n, g_leaves, G_NLEAVES, G_ROWS, g_rg, 2, size);
}

static jg_parquet_file *open_gen(const uint8_t *d, size_t n) {
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open_memory(d, n, &f, &jgt_err_));
  return f;
}

static const char g_type[] =
    "40 * {a: int32, b: ?float64, s: option[var * uint8], t: var * uint8, l2: option[var * "
    "int32], m: option[var * {key: var * uint8, value: ?int32}], ll: option[var * option[var "
    "* ?int64]], r: var * int32, u8: uint8, ts: int64, h: ?float16, fx: 3 * uint8, st: ?{x: "
    "int32, y: ?int64}, bo: ?bool}";

static void test_generated_types(void **state) {
  (void)state;
  size_t n = 0;
  uint8_t *d = gen_main(&n);
  jg_parquet_file *f = open_gen(d, n);
  assert_int_equal(jg_parquet_num_rows(f), G_ROWS);
  assert_int_equal(jg_parquet_num_row_groups(f), 2);
  assert_int_equal(jg_parquet_row_group_num_rows(f, 1), 15);
  assert_int_equal(jg_parquet_num_columns(f), G_NLEAVES);
  assert_string_equal(jg_parquet_created_by(f), "jagged test generator");
  char buf[1024];
  JGT_OK(jg_parquet_type_string(f, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, g_type);
  jg_parquet_column_info info = {0};
  JGT_OK(jg_parquet_column_info_get(f, 7, &info, &jgt_err_));
  assert_string_equal(info.path, "ll.list.element.list.element");
  assert_string_equal(info.field_path, "ll");
  assert_int_equal(info.max_definition_level, 5);
  assert_int_equal(info.max_repetition_level, 2);
  JGT_OK(jg_parquet_column_info_get(f, 5, &info, &jgt_err_));
  assert_string_equal(info.field_path, "m.key");
  jg_array *a = read_all(f, NULL);
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, g_type);
  jg_array_release(a);
  jg_parquet_close(f);
  free(d);
}

/* Checks the record `a` of rows [r0, r0 + len) of the generated data. */
static void check_generated(const jg_array *a, int r0) {
  jg_len len = jg_array_length(a);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  const int32_t *av = values_of(field(a, "a"), JG_DTYPE_INT32);
  const jg_array *b = field(a, "b");
  const uint8_t *bm = mask_of(b);
  const double *bv = values_of(jg_array_child(b, 0), JG_DTYPE_FLOAT64);
  const jg_array *s = field(a, "s");
  const uint8_t *sm = mask_of(s);
  const int64_t *so = offsets_of(jg_array_child(s, 0));
  const char *sb = values_of(jg_array_child(jg_array_child(s, 0), 0), JG_DTYPE_UINT8);
  const jg_array *t = field(a, "t");
  const int64_t *to = offsets_of(t);
  const char *tb = values_of(jg_array_child(t, 0), JG_DTYPE_UINT8);
  const jg_array *l2 = field(a, "l2");
  const uint8_t *l2m = mask_of(l2);
  const int64_t *l2o = offsets_of(jg_array_child(l2, 0));
  const int32_t *l2v = values_of(jg_array_child(jg_array_child(l2, 0), 0), JG_DTYPE_INT32);
  const jg_array *m = field(a, "m");
  const uint8_t *mm = mask_of(m);
  const int64_t *mo = offsets_of(jg_array_child(m, 0));
  const jg_array *mrec = jg_array_child(jg_array_child(m, 0), 0);
  const int64_t *mko = offsets_of(field(mrec, "key"));
  const char *mkb = values_of(jg_array_child(field(mrec, "key"), 0), JG_DTYPE_UINT8);
  const uint8_t *mvm = mask_of(field(mrec, "value"));
  const int32_t *mvv = values_of(jg_array_child(field(mrec, "value"), 0), JG_DTYPE_INT32);
  const jg_array *ll = field(a, "ll");
  const uint8_t *llm = mask_of(ll);
  const int64_t *llo = offsets_of(jg_array_child(ll, 0));
  const jg_array *lle = jg_array_child(jg_array_child(ll, 0), 0);
  const uint8_t *llem = mask_of(lle);
  const int64_t *lleo = offsets_of(jg_array_child(lle, 0));
  const jg_array *llv = jg_array_child(jg_array_child(lle, 0), 0);
  const uint8_t *llvm = mask_of(llv);
  const int64_t *llvv = values_of(jg_array_child(llv, 0), JG_DTYPE_INT64);
  const jg_array *r = field(a, "r");
  const int64_t *ro = offsets_of(r);
  const int32_t *rv = values_of(jg_array_child(r, 0), JG_DTYPE_INT32);
  const uint8_t *u8 = values_of(field(a, "u8"), JG_DTYPE_UINT8);
  const int64_t *ts = values_of(field(a, "ts"), JG_DTYPE_INT64);
  const jg_array *h = field(a, "h");
  const uint8_t *hm = mask_of(h);
  const uint16_t *hv = values_of(jg_array_child(h, 0), JG_DTYPE_FLOAT16);
  const jg_array *fx = field(a, "fx");
  assert_int_equal(jg_array_kind(fx), JG_NODE_REGULAR);
  assert_int_equal(jg_array_regular_size(fx), 3);
  const uint8_t *fxv = values_of(jg_array_child(fx, 0), JG_DTYPE_UINT8);
  const jg_array *st = field(a, "st");
  const uint8_t *stm = mask_of(st);
  const jg_array *strec = jg_array_child(st, 0);
  const int32_t *stx = values_of(field(strec, "x"), JG_DTYPE_INT32);
  const uint8_t *stym = mask_of(field(strec, "y"));
  const int64_t *styv = values_of(jg_array_child(field(strec, "y"), 0), JG_DTYPE_INT64);
  const jg_array *bo = field(a, "bo");
  const uint8_t *bom = mask_of(bo);
  const uint8_t *bov = values_of(jg_array_child(bo, 0), JG_DTYPE_BOOL);
  int64_t lle_at = llo[0], mk_at = mo[0];
  int64_t llv_at = lleo[lle_at];
  for (jg_len q = 0; q < len; q++) {
    int i = (int)(r0 + q);
    char e[32];
    assert_int_equal(av[q], i * 7 - 50);
    assert_int_equal(bm[q], !b_null(i));
    assert_true(bv[q] == (b_null(i) ? 0.0 : i * 0.5));
    assert_int_equal(sm[q], !s_null(i));
    snprintf(e, sizeof e, "s%d", i);
    if (s_null(i)) {
      assert_int_equal(so[q + 1], so[q]);
    } else {
      assert_int_equal(so[q + 1] - so[q], (int64_t)strlen(e));
      assert_memory_equal(sb + so[q], e, strlen(e));
    }
    snprintf(e, sizeof e, "prefix_%d", i / 3);
    assert_int_equal(to[q + 1] - to[q], (int64_t)strlen(e));
    assert_memory_equal(tb + to[q], e, strlen(e));
    assert_int_equal(l2m[q], !l2_null(i));
    int nl2 = l2_null(i) ? 0 : i % 4;
    assert_int_equal(l2o[q + 1] - l2o[q], nl2);
    for (int k = 0; k < nl2; k++) assert_int_equal(l2v[l2o[q] + k], i * 10 + k);
    assert_int_equal(mm[q], !m_null(i));
    int nm = m_null(i) ? 0 : i % 3;
    assert_int_equal(mo[q + 1] - mo[q], nm);
    for (int j = 0; j < nm; j++, mk_at++) {
      snprintf(e, sizeof e, "k%d", j);
      assert_int_equal(mko[mk_at + 1] - mko[mk_at], 2);
      assert_memory_equal(mkb + mko[mk_at], e, 2);
      assert_int_equal(mvm[mk_at], j != 1);
      assert_int_equal(mvv[mk_at], j != 1 ? i + j : 0);
    }
    assert_int_equal(llm[q], !ll_null(i));
    int nll = ll_null(i) ? 0 : i % 3;
    assert_int_equal(llo[q + 1] - llo[q], nll);
    for (int j = 0; j < nll; j++, lle_at++) {
      assert_int_equal(llem[lle_at], !ll_elem_null(j));
      int ni = ll_elem_null(j) ? 0 : ll_inner(i, j);
      assert_int_equal(lleo[lle_at + 1] - lleo[lle_at], ni);
      for (int k = 0; k < ni; k++, llv_at++) {
        assert_int_equal(llvm[llv_at], !ll_val_null(i, j, k));
        assert_int_equal(llvv[llv_at], ll_val_null(i, j, k) ? 0 : i * 100 + j * 10 + k);
      }
    }
    assert_int_equal(ro[q + 1] - ro[q], i % 3);
    for (int k = 0; k < i % 3; k++) assert_int_equal(rv[ro[q] + k], i + k);
    assert_int_equal(u8[q], (i * 37) % 256);
    assert_int_equal(ts[q], (int64_t)(i - 20) * 86400000000000LL + (int64_t)i * 1000);
    assert_int_equal(hm[q], !h_null(i));
    assert_int_equal(hv[q], h_null(i) ? 0 : 0x3C00 + i);
    assert_int_equal(fxv[3 * q], (uint8_t)i);
    assert_int_equal(fxv[3 * q + 2], (uint8_t)(i + 2));
    assert_int_equal(stm[q], !st_null(i));
    assert_int_equal(stx[q], st_null(i) ? 0 : i);
    assert_int_equal(stym[q], !st_null(i) && i % 2 == 0);
    assert_int_equal(styv[q], !st_null(i) && i % 2 == 0 ? i * 3 : 0);
    assert_int_equal(bom[q], !bo_null(i));
    assert_int_equal(bov[q], !bo_null(i) && i % 3 == 0);
  }
}

static void test_generated_values(void **state) {
  (void)state;
  size_t n = 0;
  uint8_t *d = gen_main(&n);
  jg_parquet_file *f = open_gen(d, n);
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  for (int nt = 1; nt <= 3; nt += 2) {
    o.nthreads = nt;
    jg_array *a = read_all(f, &o);
    assert_int_equal(jg_array_length(a), G_ROWS);
    check_generated(a, 0);
    jg_array_release(a);
  }
  /* Each row group alone. */
  o.row_group_begin = 1;
  o.row_group_end = 2;
  jg_array *a = read_all(f, &o);
  assert_int_equal(jg_array_length(a), 15);
  check_generated(a, 25);
  jg_array_release(a);
  jg_parquet_close(f);
  free(d);
}

static void test_generated_batches(void **state) {
  (void)state;
  size_t n = 0;
  uint8_t *d = gen_main(&n);
  jg_parquet_file *f = open_gen(d, n);
  /* Batches of 0 (row groups) and 10: 25 + 15 rows give 10, 10, 5, 10, 5. */
  const int64_t sizes[] = {0, 10};
  const int64_t want0[] = {25, 15}, want10[] = {10, 10, 5, 10, 5};
  for (int s = 0; s < 2; s++) {
    jg_parquet_reader *r = NULL;
    JGT_OK(jg_parquet_reader_open(f, NULL, sizes[s], &r, &jgt_err_));
    int nb = 0, row = 0;
    for (;;) {
      jg_array *b = NULL;
      JGT_OK(jg_parquet_reader_next(r, &b, &jgt_err_));
      if (b == NULL) break;
      assert_int_equal(jg_array_length(b), s == 0 ? want0[nb] : want10[nb]);
      /* A whole row group's batch starts its offsets at 0; check those. */
      if (s == 0) check_generated(b, row);
      JGT_OK(jg_array_validate(b, JG_VALIDATE_FULL, NULL, &jgt_err_));
      row += (int)jg_array_length(b);
      nb++;
      jg_array_release(b);
    }
    assert_int_equal(nb, s == 0 ? 2 : 5);
    assert_int_equal(row, G_ROWS);
    jg_parquet_reader_close(r);
  }
  jg_parquet_close(f);
  free(d);
}

/* NanoAOD: X_a's counts differ from nX's in row 1. */
static void sh_nx(gcol *c, int i) { lv(c, 0, 0); vi64(c, i); }
static void sh_xa_bad(gcol *c, int i) {
  int n = i == 1 ? 3 : i;
  if (n == 0) { lv(c, 0, 0); return; }
  for (int k = 0; k < n; k++) {
    lv(c, k ? 1 : 0, 1);
    vi32(c, k);
  }
}
static void sh_xb(gcol *c, int i) {
  if (i == 0) { lv(c, 0, 0); return; }
  for (int k = 0; k < i; k++) {
    lv(c, k ? 1 : 0, 1);
    vi32(c, 10 * k);
  }
}

static void test_generated_nanoaod_mismatch(void **state) {
  (void)state;
  jgi_pq_schema_elem s[8];
  int ns = 0;
  s[ns++] = E("schema", GRP, -1, 3, -1);
  s[ns++] = E("nX", JGI_PQ_INT64, REQ, -1, -1);
  s[ns++] = E("X_b", GRP, REQ, 1, JGI_PQ_CT_LIST);
  s[ns++] = E("list", GRP, REP, 1, -1);
  s[ns++] = E("element", JGI_PQ_INT32, REQ, -1, -1);
  s[ns++] = E("X_a", GRP, REQ, 1, JGI_PQ_CT_LIST);
  s[ns++] = E("list", GRP, REP, 1, -1);
  s[ns++] = E("element", JGI_PQ_INT32, REQ, -1, -1);
  const gleaf leaves[] = {
      {"nX", JGI_PQ_INT64, 8, 0, 0, JGI_PQ_PLAIN, 1, UNC, sh_nx},
      {"X_b.list.element", JGI_PQ_INT32, 4, 1, 1, JGI_PQ_PLAIN, 1, UNC, sh_xb},
      {"X_a.list.element", JGI_PQ_INT32, 4, 1, 1, JGI_PQ_PLAIN, 2, UNC, sh_xa_bad},
  };
  const int rg[] = {0};
  size_t n = 0;
  uint8_t *d = gen_file(s, ns, leaves, 3, 4, rg, 1, &n);
  jg_parquet_file *f = open_gen(d, n);
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  /* Without X_a, X_b zips with nX. */
  const char *cols[] = {"nX", "X_b"};
  o.columns = cols;
  o.ncolumns = 2;
  o.nanoaod = true;
  jg_array *a = read_all(f, &o);
  char buf[256];
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "4 * {nX: int64, X: var * {b: int32}}");
  jg_array_release(a);
  o.columns = NULL;
  o.ncolumns = 0;
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_parquet_read(f, &o, &a, &err));
  JGT_CONTAINS(err.message, "X_a");
  JGT_CONTAINS(err.message, "row 1");
  assert_int_equal(err.index, 1);
  /* Without nanoaod the file reads as it is. */
  o.nanoaod = false;
  a = read_all(f, &o);
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "4 * {nX: int64, X_b: var * int32, X_a: var * int32}");
  jg_array_release(a);
  jg_parquet_close(f);
  free(d);
}

/* The counter check past its first chunk of rows: 3000 rows, nX says one entry too few in row
 * 2500 of X_a only (X_b agrees); the reader names that row, and reads the good file zipped. */
static void test_nanoaod_counter_mismatch_far(void **state) {
  (void)state;
  enum { N = 3000, BAD = 2500 };
  int32_t *nx = malloc(N * sizeof *nx);
  int64_t *counts = malloc(N * sizeof *counts), *bad_counts = malloc(N * sizeof *bad_counts);
  int32_t *values = malloc(4 * N * sizeof *values);
  int64_t total = 0;
  for (int i = 0; i < N; i++) {
    nx[i] = i % 4;
    counts[i] = bad_counts[i] = i % 4;
    total += i % 4;
  }
  bad_counts[BAD] += 1;
  for (int64_t j = 0; j < total + 1; j++) values[j] = (int32_t)j;
  for (int variant = 0; variant < 2; variant++) {
    jg_array *f[3] = {NULL, NULL, NULL}, *table = NULL;
    JGT_OK(jg_array_from_host(nx, N, JG_DTYPE_INT32, &f[0], &jgt_err_));
    JGT_OK(jg_array_from_host_counts(counts, N, values, total, JG_DTYPE_INT32, &f[1], &jgt_err_));
    JGT_OK(jg_array_from_host_counts(variant ? bad_counts : counts, N, values, total + variant,
                                     JG_DTYPE_INT32, &f[2], &jgt_err_));
    const char *names[3] = {"nX", "X_b", "X_a"};
    JGT_OK(jg_array_record(3, f, names, N, &table, &jgt_err_));
    void *d = NULL;
    size_t size = 0;
    JGT_OK(jg_parquet_write_memory(table, NULL, &d, &size, &jgt_err_));
    jg_parquet_file *file = NULL;
    JGT_OK(jg_parquet_open_memory(d, size, &file, &jgt_err_));
    jg_parquet_read_options o;
    jg_parquet_read_options_init(&o);
    o.nanoaod = true;
    jg_array *a = NULL;
    jg_error err;
    if (variant == 0) {
      JGT_OK(jg_parquet_read(file, &o, &a, &jgt_err_));
      char buf[256];
      JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
      assert_string_equal(buf, "3000 * {nX: int32, X: var * {b: int32, a: int32}}");
      jg_array_release(a);
    } else {
      JGT_STATUS(JG_ESHAPE, jg_parquet_read(file, &o, &a, &err));
      assert_null(a);
      assert_int_equal(err.index, BAD);
      JGT_CONTAINS(err.message, "column X_a has 1 entries in row 2500, its counter nX says 0");
    }
    jg_parquet_close(file);
    free(d);
    jg_array_release(table);
    for (int k = 0; k < 3; k++) jg_array_release(f[k]);
  }
  free(nx);
  free(counts);
  free(bad_counts);
  free(values);
}

static void test_generated_corrupt(void **state) {
  (void)state;
  /* A definition level above the maximum: named with file, column, row group and page. */
  gleaf bad[G_NLEAVES];
  memcpy(bad, g_leaves, sizeof bad);
  bad[4].shred = sh_l2_bad;
  jgi_pq_schema_elem s[32];
  int ns = g_schema(s);
  size_t n = 0;
  uint8_t *d = gen_file(s, ns, bad, G_NLEAVES, G_ROWS, g_rg, 2, &n);
  jg_parquet_file *f = open_gen(d, n);
  jg_array *a = NULL;
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jg_parquet_read(f, NULL, &a, &err));
  JGT_CONTAINS(err.message, "<memory>: column l2.array, row group 0, page 0");
  JGT_CONTAINS(err.message, "definition level 3");
  /* Only the other columns: fine. */
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  const char *cols[] = {"a", "ll", "m"};
  o.columns = cols;
  o.ncolumns = 3;
  a = read_all(f, &o);
  jg_array_release(a);
  jg_parquet_close(f);
  free(d);

  /* Every byte of a generated file flipped in turn: any status, never a crash. */
  d = gen_main(&n);
  int failed = 0;
  for (size_t pos = 0; pos < n; pos++) {
    d[pos] ^= 0xA5;
    jg_status st = try_read(d, n, &err);
    assert_true(st == JG_OK || st == JG_ECORRUPT || st == JG_ENOTSUP);
    failed += st != JG_OK;
    d[pos] ^= 0xA5;
  }
  assert_true(failed > 0);
  /* Every length cut from the end, the footer moved to stay: pages run short. */
  free(d);
}

int main(void) {
  JGT_REQUIRE_DATA();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flat_metadata),
      cmocka_unit_test(test_flat_read),
      cmocka_unit_test(test_open_memory_and_threads),
      cmocka_unit_test(test_restructured),
      cmocka_unit_test(test_projection),
      cmocka_unit_test(test_row_group_range),
      cmocka_unit_test(test_batches),
      cmocka_unit_test(test_nanoaod),
      cmocka_unit_test(test_open_errors),
      cmocka_unit_test(test_path_in_schema_mismatch),
      cmocka_unit_test(test_schema_names_corrupt),
      cmocka_unit_test(test_as_corrupt),
      cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_flipped_bytes),
      cmocka_unit_test(test_generated_types),
      cmocka_unit_test(test_generated_values),
      cmocka_unit_test(test_generated_batches),
      cmocka_unit_test(test_generated_nanoaod_mismatch),
      cmocka_unit_test(test_nanoaod_counter_mismatch_far),
      cmocka_unit_test(test_generated_corrupt),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
