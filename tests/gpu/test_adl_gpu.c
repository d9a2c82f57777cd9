/* test_adl_gpu.c: the ADL queries of `jagged adl` on device arrays: the same histograms as on the
 * host and as the independent implementation (tests/jgt_adl_cases.h), for empty, single, sliced
 * and large batches. Skips (exit 77) without a usable device. */
#include "jgt_adl_cases.h"

static void to_device(const adl_events *h, adl_events *d) {
  memset(d, 0, sizeof *d);
  d->n = h->n;
  JGT_OK(jg_array_to_device(h->met, 0, NULL, &d->met, &jgt_err_));
  JGT_OK(jg_array_to_device(h->jet, 0, NULL, &d->jet, &jgt_err_));
  JGT_OK(jg_array_to_device(h->muon, 0, NULL, &d->muon, &jgt_err_));
  JGT_OK(jg_array_to_device(h->electron, 0, NULL, &d->electron, &jgt_err_));
}

/* Every query on the device equals the host's result and the reference. */
static void check_parity(const jgt_events *e, const adl_events *host, int64_t i0, int64_t i1) {
  adl_events dev;
  to_device(host, &dev);
  jg_stream stream = NULL;
  JGT_OK(jg_stream_create(&stream, &jgt_err_));
  for (int q = 1; q <= 8; q++) {
    jg_hist1d hh[2], hd[2];
    jgt_adl_run(host, q, NULL, hh);
    jgt_adl_run(&dev, q, stream, hd);
    double ref0[102] = {0}, ref1[102] = {0};
    jgt_adl_reference(e, i0, i1, q, ref0, ref1);
    for (int b = 0; b < 102; b++) {
      if (hd[0].counts[b] != hh[0].counts[b] || hd[0].counts[b] != ref0[b]) {
        fail_msg("query %d bin %d: cuda %g, cpu %g, reference %g", q, b, hd[0].counts[b],
                 hh[0].counts[b], ref0[b]);
      }
      if (q == 6 && (hd[1].counts[b] != hh[1].counts[b] || hd[1].counts[b] != ref1[b])) {
        fail_msg("query 6-2 bin %d: cuda %g, cpu %g, reference %g", b, hd[1].counts[b],
                 hh[1].counts[b], ref1[b]);
      }
    }
    for (int k = 0; k < 2; k++) {
      free(hh[k].counts);
      free(hd[k].counts);
    }
  }
  jg_stream_destroy(stream);
  adl_events_release(&dev);
}

static void check_events(int64_t n, uint64_t seed) {
  jgt_events e;
  jgt_events_make(&e, n, seed);
  adl_events ev;
  jgt_events_arrays(&e, &ev);
  check_parity(&e, &ev, 0, n);
  adl_events_release(&ev);
  jgt_events_free(&e);
}

static void test_parity_small(void **state) {
  (void)state;
  check_events(0, 3);
  check_events(1, 11);
  check_events(3000, 1);
}

/* Many events: blocks of every kernel see full and partial tiles. */
static void test_parity_large(void **state) {
  (void)state;
  check_events(300000, 5);
}

static void test_parity_sliced(void **state) {
  (void)state;
  jgt_events e;
  jgt_events_make(&e, 20000, 7);
  adl_events whole, ev;
  jgt_events_arrays(&e, &whole);
  memset(&ev, 0, sizeof ev);
  ev.n = 17777 - 1234;
  JGT_OK(jg_array_slice(whole.met, 1234, 17777, &ev.met, &jgt_err_));
  JGT_OK(jg_array_slice(whole.jet, 1234, 17777, &ev.jet, &jgt_err_));
  JGT_OK(jg_array_slice(whole.muon, 1234, 17777, &ev.muon, &jgt_err_));
  JGT_OK(jg_array_slice(whole.electron, 1234, 17777, &ev.electron, &jgt_err_));
  check_parity(&e, &ev, 1234, 17777);
  adl_events_release(&ev);
  adl_events_release(&whole);
  jgt_events_free(&e);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parity_small),
      cmocka_unit_test(test_parity_large),
      cmocka_unit_test(test_parity_sliced),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
