/* test_parquet_read_gpu.c: the Parquet reader's device path (parquet.h, device_id >= 0): every
 * buffer of the result on the GPU, equal byte for byte to the host read once copied back; with
 * several threads, with the NanoAOD zip, with the batch reader, and with pinned output memory
 * on the host. Skips (exit 77) without a usable device. */
#include "jg_test.h"

#define FLAT JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-1000.parquet"
#define RESTRUCTURED JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-restructured-1000.parquet"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA

/* a and b (host arrays) have the same structure and equal buffers (compared by elements). */
static void same(const jg_array *a, const jg_array *b) {
  assert_int_equal(jg_array_kind(a), jg_array_kind(b));
  assert_int_equal(jg_array_length(a), jg_array_length(b));
  assert_int_equal(jg_array_num_children(a), jg_array_num_children(b));
  for (int k = 0; k < 2; k++) {
    jg_view va, vb;
    jg_error e1, e2;
    jg_status sa = jg_array_buffer(a, k, &va, &e1), sb = jg_array_buffer(b, k, &vb, &e2);
    assert_int_equal(sa, sb);
    if (sa != JG_OK) break;
    assert_int_equal(va.dtype, vb.dtype);
    assert_int_equal(va.layout.shape[0], vb.layout.shape[0]);
    size_t bytes = (size_t)(va.layout.shape[0] * va.layout.itemsize);
    if (bytes > 0) assert_memory_equal(jg_view_data(&va), jg_view_data(&vb), bytes);
  }
  for (int k = 0; k < jg_array_num_children(a); k++)
    same(jg_array_child(a, k), jg_array_child(b, k));
}

static void read_compare(const char *path, int nthreads, bool nanoaod, bool pinned) {
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(path, &f, &jgt_err_));
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  o.nanoaod = nanoaod;
  jg_array *h = NULL;
  JGT_OK(jg_parquet_read(f, &o, &h, &jgt_err_));
  o.nthreads = nthreads;
  jg_stream s = NULL;
  JGT_OK(jg_stream_create(&s, &jgt_err_));
  o.stream = s;
  if (pinned) {
    JGT_OK(jg_memory_resource_pinned(&o.memory, &jgt_err_));
  } else {
    o.device_id = 0;
  }
  jg_array *d = NULL;
  JGT_OK(jg_parquet_read(f, &o, &d, &jgt_err_));
  jg_parquet_close(f);
  char dn[32];
  assert_string_equal(jg_array_device_name(d, dn, sizeof dn), pinned ? "cpu" : "cuda:0");
  JGT_OK(jg_array_validate(d, JG_VALIDATE_FULL, s, &jgt_err_));
  jg_array *back = jgt_to_host(d);
  same(h, back);
  jg_array_release(back);
  jg_array_release(d);
  jg_array_release(h);
  jg_stream_destroy(s);
}

static void test_device_flat(void **state) {
  (void)state;
  read_compare(FLAT, 1, false, false);
  read_compare(FLAT, 4, false, false);
}

static void test_device_restructured(void **state) {
  (void)state;
  read_compare(RESTRUCTURED, 2, false, false);
}

static void test_device_nanoaod(void **state) {
  (void)state;
  read_compare(FLAT, 3, true, false);
}

static void test_pinned_host(void **state) {
  (void)state;
  read_compare(FLAT, 2, false, true);
}

static void test_device_batches(void **state) {
  (void)state;
  jg_parquet_file *f = NULL;
  JGT_OK(jg_parquet_open(FLAT, &f, &jgt_err_));
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  jg_array *h = NULL;
  JGT_OK(jg_parquet_read(f, &o, &h, &jgt_err_));
  o.device_id = 0;
  jg_parquet_reader *r = NULL;
  JGT_OK(jg_parquet_reader_open(f, &o, 300, &r, &jgt_err_));
  jg_len row = 0;
  for (;;) {
    jg_array *b = NULL;
    JGT_OK(jg_parquet_reader_next(r, &b, &jgt_err_));
    if (b == NULL) break;
    char dn[32];
    assert_string_equal(jg_array_device_name(b, dn, sizeof dn), "cuda:0");
    jg_array *bh = jgt_to_host(b);
    jg_array *want = NULL;
    JGT_OK(jg_array_slice(h, row, row + jg_array_length(b), &want, &jgt_err_));
    char s1[4096], s2[4096];
    JGT_OK(jg_array_to_string(bh, 4000, s1, sizeof s1, NULL, &jgt_err_));
    JGT_OK(jg_array_to_string(want, 4000, s2, sizeof s2, NULL, &jgt_err_));
    assert_string_equal(s1, s2);
    row += jg_array_length(b);
    jg_array_release(want);
    jg_array_release(bh);
    jg_array_release(b);
  }
  assert_int_equal(row, 1000);
  jg_parquet_reader_close(r);
  jg_error err;
  jg_array *d = NULL;
  o.device_id = 4096;
  JGT_STATUS(JG_EINDEX, jg_parquet_read(f, &o, &d, &err));
  jg_array_release(h);
  jg_parquet_close(f);
}
#endif

int main(void) {
  JGT_REQUIRE_GPU();
  JGT_REQUIRE_DATA();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_device_flat),     cmocka_unit_test(test_device_restructured),
      cmocka_unit_test(test_device_nanoaod),  cmocka_unit_test(test_pinned_host),
      cmocka_unit_test(test_device_batches),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
#else
  return 77;
#endif
}
