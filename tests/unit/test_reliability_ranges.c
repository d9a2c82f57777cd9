/* test_reliability_ranges.c: every operation that reads list ranges or option indexes, on the
 * host, over the table of jgt_ranges_cases.h: bad ranges and indexes are refused with the
 * validator's status and the offending position, valid edge arrays (empty lists past the content,
 * strided offsets) give what their compact twins give. */
#include "jg_test.h"
#include "jgt_ranges_cases.h"

/* Each case through every operation, one cmocka test per case. */
static void run_case(void **state) {
  const jgt_rcase *c = *state;
  assert_int_equal(jgt_rcheck_validate(c, NULL), 0);
  assert_int_equal(jgt_rcheck_case(c, NULL), 0);
}

int main(void) {
  struct CMUnitTest tests[JGT_NRCASES];
  for (int i = 0; i < JGT_NRCASES; ++i) {
    tests[i] = (struct CMUnitTest){jgt_rcases[i].name, run_case, NULL, NULL,
                                   (void *)&jgt_rcases[i]};
  }
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
