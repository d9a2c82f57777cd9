/* test_reliability_ranges_gpu.c: the table of jgt_ranges_cases.h on cuda:0: every case through
 * every operation after jg_array_to_device gives the host's outcome (the same status and index,
 * the same printed result), and the rule of the table holds there too (bad ranges and option
 * indexes refused from the kernels' error words, valid edge arrays equal to their twins), and a
 * device view of every case is made without reading a list. */
#include "jg_test.h"
#include "jagged/device_view.h"
#include "jgt_ranges_cases.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA

static jg_array *to_dev(jg_array *a) {
  jg_array *d = NULL;
  JGT_OK(jg_array_to_device(a, 0, NULL, &d, &jgt_err_));
  jg_array_release(a);
  return d;
}

static void run_case(void **state) {
  const jgt_rcase *c = *state;
  assert_int_equal(jgt_rcheck_validate(c, to_dev), 0);
  assert_int_equal(jgt_rcheck_case(c, to_dev), 0);
  /* the same outcome as on the host, operation by operation */
  int differ = 0;
  for (int k = 0; k < JGT_NROPS; ++k) {
    const jgt_rres h = jgt_rrun(&jgt_rops[k], c->make(), NULL);
    const jgt_rres d = jgt_rrun(&jgt_rops[k], c->make(), to_dev);
    if (h.st != d.st || h.index != d.index || strcmp(h.text, d.text) != 0) {
      print_error("case '%s', %s: host %s (index %lld) %s, cuda %s (index %lld: %s) %s\n",
                  c->name, jgt_rops[k].name, jg_status_name(h.st), (long long)h.index, h.text,
                  jg_status_name(d.st), (long long)d.index, d.msg, d.text);
      differ++;
    }
  }
  assert_int_equal(differ, 0);
  /* A device view reads no list: it is made for bad arrays too, over the same nodes (user
   * kernels get what the array holds; jg_array_validate is the check before them). */
  jg_array *d = to_dev(c->make());
  jg_device_view *v = NULL;
  JGT_OK(jg_array_device_view_create(d, 0, NULL, &v, &jgt_err_));
  const jg_dview t = jg_device_view_host_table(v);
  assert_int_equal(jg_dview_length(t, t.root), jg_array_length(d));
  jg_device_view_destroy(v);
  jg_array_release(d);
}

int main(void) {
  JGT_REQUIRE_GPU();
  struct CMUnitTest tests[JGT_NRCASES];
  for (int i = 0; i < JGT_NRCASES; ++i) {
    tests[i] = (struct CMUnitTest){jgt_rcases[i].name, run_case, NULL, NULL,
                                   (void *)&jgt_rcases[i]};
  }
  return JGT_RUN_TESTS(tests, NULL, NULL);
}

#else

int main(void) {
  JGT_REQUIRE_GPU();
  return 77;
}

#endif
