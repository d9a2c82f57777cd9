/* test_validate_gpu.c: jg_array_validate on cuda arrays. Every case of jgt_array_cases.h (valid
 * edge cases, every DEFAULT and FULL failure, sliced, strided and reversed buffers, 2^20 + 1
 * entries with one bad offset near the end) is moved with jg_array_to_device and must give the
 * same status, err->index and message as the host at every level, and the expected ones. Then:
 * random bad offsets in large arrays (the kernel's atomic minimum must find the first), a
 * non-default stream, the current device left alone, and the printout refusing cuda arrays.
 * Skips (exit 77) without a usable device. */
#include "internal/jgi_array.h"
#include "jg_test.h"
#include "jgt_array_cases.h"

static jg_array *to_device(const jg_array *host) {
  jg_array *dev = NULL;
  JGT_OK(jg_array_to_device(host, 0, NULL, &dev, &jgt_err_));
  assert_int_equal(jg_array_backend(dev), JG_BACKEND_CUDA);
  return dev;
}

/* Validates `host` and `dev` at `level` on `stream`; asserts identical outcomes; returns the
 * device's status with its error in *out. */
static jg_status same_outcome(const char *name, const jg_array *host, const jg_array *dev,
                              jg_validation_level level, jg_stream stream, jg_error *out) {
  jg_error eh, ed;
  jg_error_clear(&eh);
  jg_error_clear(&ed);
  const jg_status sh = jg_array_validate(host, level, NULL, &eh);
  const jg_status sd = jg_array_validate(dev, level, stream, &ed);
  if (sh != sd || eh.index != ed.index || strcmp(eh.message, ed.message) != 0) {
    print_error("case \"%s\", level %d: host %s %lld \"%s\", device %s %lld \"%s\"\n", name,
                (int)level, jg_status_name(sh), (long long)eh.index, eh.message, jg_status_name(sd),
                (long long)ed.index, ed.message);
    fail();
  }
  *out = ed;
  return sd;
}

static void check_expect(const char *name, jg_status st, const jg_error *err, const jgt_expect *e) {
  if (st != e->status || (st != JG_OK && err->index != e->index) ||
      (e->message != NULL && strstr(err->message, e->message) == NULL)) {
    print_error("case \"%s\": got %s %lld \"%s\", expected %s %lld \"%s\"\n", name,
                jg_status_name(st), (long long)err->index, err->message, jg_status_name(e->status),
                (long long)e->index, e->message != NULL ? e->message : "");
    fail();
  }
}

static void test_case_table_on_device(void **state) {
  (void)state;
  int n = 0;
  const jgt_vcase *cases = jgt_vcases(&n);
  const jgt_expect pass = JGT_PASS;
  for (int k = 0; k < n; k++) {
    jg_array *host = cases[k].build();
    jg_array *dev = to_device(host);
    jg_error err;
    jg_status st = same_outcome(cases[k].name, host, dev, JG_VALIDATE_NONE, NULL, &err);
    check_expect(cases[k].name, st, &err, &pass);
    st = same_outcome(cases[k].name, host, dev, JG_VALIDATE_MINIMAL, NULL, &err);
    check_expect(cases[k].name, st, &err, &pass);
    st = same_outcome(cases[k].name, host, dev, JG_VALIDATE_DEFAULT, NULL, &err);
    check_expect(cases[k].name, st, &err, &cases[k].at_default);
    st = same_outcome(cases[k].name, host, dev, JG_VALIDATE_FULL, NULL, &err);
    check_expect(cases[k].name, st, &err, &cases[k].at_full);
    /* Without an error struct. */
    assert_int_equal(jg_array_validate(dev, JG_VALIDATE_FULL, NULL, NULL), cases[k].at_full.status);
    jg_array_release(dev);
    jg_array_release(host);
  }
}

/* A simple deterministic generator (64-bit LCG, Knuth's MMIX constants). */
static uint64_t next_random(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 33;
}

static void test_random_bad_offsets(void **state) {
  (void)state;
  /* 3 * 2^20 + 7 lists of int32 offsets (one element each) with a few offsets lowered at random
   * positions: the first lowered offset is the first bad position. */
  const jg_len n = 3 * ((jg_len)1 << 20) + 7;
  int32_t *off = malloc(sizeof *off * (size_t)(n + 1));
  assert_non_null(off);
  jg_array *content = jgt_iota(n);
  uint64_t seed = 12345;
  for (int round = 0; round < 8; round++) {
    for (jg_len k = 0; k <= n; k++) off[k] = (int32_t)k;
    jg_len first = n + 1;
    const int nbad = 1 + (int)(next_random(&seed) % 40);
    for (int j = 0; j < nbad; j++) {
      const jg_len at = 1 + (jg_len)(next_random(&seed) % (uint64_t)(n - 1));
      off[at] = (int32_t)(at - 2); /* below offsets[at - 1] = at - 1 */
      if (at < first) first = at;
    }
    jg_array *host = jgt_list_offset(off, n + 1, JG_DTYPE_INT32, jg_array_retain(content));
    jg_array *dev = to_device(host);
    jg_error err;
    JGT_STATUS(JG_EVALUE, same_outcome("random", host, dev, JG_VALIDATE_FULL, NULL, &err));
    assert_int_equal(err.index, first - 1); /* the list that ends at the first bad offset */
    JGT_CONTAINS(err.message, "offsets not monotonic at list");
    JGT_OK(same_outcome("random", host, dev, JG_VALIDATE_DEFAULT, NULL, &err));
    jg_array_release(dev);
    jg_array_release(host);
  }
  jg_array_release(content);
  free(off);
}

static void test_stream_and_current_device(void **state) {
  (void)state;
  jg_stream stream = NULL;
  JGT_OK(jg_stream_create(&stream, &jgt_err_));
  int before = -1, after = -1;
  JGT_OK(jg_device_get_current(&before, &jgt_err_));
  jg_array *bad_host = jgt_vc_big_bad_near_end();
  jg_array *good_host = jgt_vc_nested_valid();
  jg_array *bad = to_device(bad_host), *good = to_device(good_host);
  jg_error err;
  for (int level = JG_VALIDATE_NONE; level <= JG_VALIDATE_FULL; level++) {
    JGT_OK(same_outcome("stream", good_host, good, (jg_validation_level)level, stream, &err));
  }
  JGT_STATUS(JG_EVALUE, same_outcome("stream", bad_host, bad, JG_VALIDATE_FULL, stream, &err));
  assert_int_equal(err.index, JGT_BIG_N - 4); /* the list before the bad offset */
  JGT_OK(jg_device_get_current(&after, &jgt_err_));
  assert_int_equal(before, after);
  JGT_OK(jg_stream_synchronize(stream, &jgt_err_));
  jg_stream_destroy(stream);
  jg_array_release(bad);
  jg_array_release(good);
  jg_array_release(bad_host);
  jg_array_release(good_host);
}

static void test_print_device_arrays(void **state) {
  (void)state;
  jg_array *host = jgt_vc_nested_valid();
  jg_array *dev = to_device(host);
  char th[256], td[256], buf[256];
  JGT_OK(jg_array_type_string(host, th, sizeof th, NULL, &jgt_err_));
  JGT_OK(jg_array_type_string(dev, td, sizeof td, NULL, &jgt_err_));
  assert_string_equal(th, td);
  assert_string_equal(td, "2 * var * ?{x: var * int64, y: int64}");
  jg_error err;
  JGT_STATUS(JG_EBACKEND, jg_array_to_string(dev, 0, buf, sizeof buf, NULL, &err));
  JGT_CONTAINS(err.message, "copy it with jg_array_to_host first");
  jg_array *back = NULL;
  JGT_OK(jg_array_to_host(dev, NULL, &back, &jgt_err_));
  JGT_OK(jg_array_to_string(back, 0, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[[{x: [0, 1], y: 7}, None], [{x: [2], y: 9}]]");
  jg_array_release(back);
  jg_array_release(dev);
  jg_array_release(host);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_case_table_on_device),
      cmocka_unit_test(test_random_bad_offsets),
      cmocka_unit_test(test_stream_and_current_device),
      cmocka_unit_test(test_print_device_arrays),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
