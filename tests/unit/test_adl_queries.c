/* test_adl_queries.c: the ADL queries of `jagged adl` (cli/adl/adl_queries.c) against an
 * independent plain-C implementation of their definitions (tests/jgt_adl_cases.h), bin for bin,
 * on random events: empty batches, single events, many events, and a slice whose offsets do not
 * start at 0; plus the schema and column checks on the shared sample. */
#include "jgt_adl_cases.h"

#include "jagged/parquet.h"

/* Every query on events [i0, i1) of `e` (ev: those events as arrays) equals the reference. */
static void check_all(const jgt_events *e, const adl_events *ev, int64_t i0, int64_t i1) {
  for (int q = 1; q <= 8; q++) {
    jg_hist1d h[2];
    jgt_adl_run(ev, q, NULL, h);
    double ref0[102] = {0}, ref1[102] = {0};
    jgt_adl_reference(e, i0, i1, q, ref0, ref1);
    for (int b = 0; b < 102; b++) {
      if (h[0].counts[b] != ref0[b]) fail_msg("query %d bin %d: %g, want %g", q, b, h[0].counts[b], ref0[b]);
      if (q == 6 && h[1].counts[b] != ref1[b]) {
        fail_msg("query 6-2 bin %d: %g, want %g", b, h[1].counts[b], ref1[b]);
      }
    }
    free(h[0].counts);
    free(h[1].counts);
  }
}

static void check_events(int64_t n, uint64_t seed) {
  jgt_events e;
  jgt_events_make(&e, n, seed);
  adl_events ev;
  jgt_events_arrays(&e, &ev);
  check_all(&e, &ev, 0, n);
  adl_events_release(&ev);
  jgt_events_free(&e);
}

static void test_queries_match_reference(void **state) {
  (void)state;
  check_events(3000, 1);
  check_events(2500, 2);
}

static void test_queries_empty_and_single(void **state) {
  (void)state;
  check_events(0, 3);
  for (uint64_t seed = 10; seed < 20; seed++) check_events(1, seed);
}

/* A batch that is a slice of a larger array: offsets that do not start at 0. */
static void test_queries_sliced(void **state) {
  (void)state;
  jgt_events e;
  jgt_events_make(&e, 2000, 7);
  adl_events whole, ev;
  jgt_events_arrays(&e, &whole);
  memset(&ev, 0, sizeof ev);
  ev.n = 1500 - 333;
  assert_int_equal(jg_array_slice(whole.met, 333, 1500, &ev.met, NULL), JG_OK);
  assert_int_equal(jg_array_slice(whole.jet, 333, 1500, &ev.jet, NULL), JG_OK);
  assert_int_equal(jg_array_slice(whole.muon, 333, 1500, &ev.muon, NULL), JG_OK);
  assert_int_equal(jg_array_slice(whole.electron, 333, 1500, &ev.electron, NULL), JG_OK);
  check_all(&e, &ev, 333, 1500);
  adl_events_release(&ev);
  adl_events_release(&whole);
  jgt_events_free(&e);
}

/* The reference's own sanity: the random events reach the interesting cases. */
static void test_reference_is_not_trivial(void **state) {
  (void)state;
  jgt_events e;
  jgt_events_make(&e, 3000, 1);
  for (int q = 1; q <= 8; q++) {
    double h0[102] = {0}, h1[102] = {0};
    jgt_adl_reference(&e, 0, e.n, q, h0, h1);
    int nonzero = 0;
    double total = 0;
    for (int b = 0; b < 102; b++) {
      nonzero += h0[b] != 0;
      total += h0[b];
    }
    if (nonzero < 3 || total < 30) fail_msg("query %d fills %d bins with %g entries", q, nonzero, total);
  }
  jgt_events_free(&e);
}

static void open_sample(const char *name, jg_parquet_file **f) {
  char path[1024];
  snprintf(path, sizeof path, "%s/adl/%s", JG_TEST_DATA_DIR, name);
  jg_error err;
  if (jg_parquet_open(path, f, &err) != JG_OK) fail_msg("%s: %s", path, err.message);
}

static void test_schema_and_columns(void **state) {
  (void)state;
  jg_parquet_file *flat = NULL, *rec = NULL;
  open_sample("Run2012B_SingleMu-1000.parquet", &flat);
  open_sample("Run2012B_SingleMu-restructured-1000.parquet", &rec);
  adl_schema s = 0;
  assert_int_equal(adl_schema_detect(flat, &s, NULL), JG_OK);
  assert_int_equal(s, ADL_SCHEMA_FLAT);
  assert_int_equal(adl_schema_detect(rec, &s, NULL), JG_OK);
  assert_int_equal(s, ADL_SCHEMA_RECORDS);
  char storage[ADL_MAX_COLUMNS][64];
  const char *names[ADL_MAX_COLUMNS];
  int n = 0;
  /* query 4 reads Jet.pt and MET.pt: with the counter nJet in the flat layout */
  assert_int_equal(adl_query_columns(adl_query_find("4"), flat, ADL_SCHEMA_FLAT, storage, names,
                                     &n, NULL),
                   JG_OK);
  assert_int_equal(n, 3);
  assert_string_equal(names[0], "nJet");
  assert_string_equal(names[1], "Jet_pt");
  assert_string_equal(names[2], "MET_pt");
  assert_int_equal(adl_query_columns(adl_query_find("4"), rec, ADL_SCHEMA_RECORDS, storage,
                                     names, &n, NULL),
                   JG_OK);
  assert_int_equal(n, 2);
  assert_string_equal(names[0], "Jet.pt");
  assert_string_equal(names[1], "MET.pt");
  /* the flat file read as records lacks the columns, named in the message */
  jg_error err;
  assert_int_equal(adl_query_columns(adl_query_find("2"), flat, ADL_SCHEMA_RECORDS, storage,
                                     names, &n, &err),
                   JG_ENOTFOUND);
  assert_non_null(strstr(err.message, "Jet.pt"));
  assert_non_null(strstr(err.message, "query 2"));
  jg_parquet_close(flat);
  jg_parquet_close(rec);
}

int main(void) {
  JGT_REQUIRE_DATA();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_queries_match_reference),
      cmocka_unit_test(test_queries_empty_and_single),
      cmocka_unit_test(test_queries_sliced),
      cmocka_unit_test(test_reference_is_not_trivial),
      cmocka_unit_test(test_schema_and_columns),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
