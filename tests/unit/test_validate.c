/* test_validate.c: jg_array_validate on host arrays: the case table of jgt_array_cases.h at every
 * level (valid edge cases: empty arrays, empty lists with any start, content past the last
 * offset, offsets not starting at 0, sliced, strided and reversed buffers; every DEFAULT and FULL
 * failure with the first bad position, node kind, depth and field path), then every MINIMAL
 * failure, made by corrupting one field of a valid node through the internal struct (the public
 * constructors refuse such nodes), at every level. Expected values are worked out by hand. */
#include "internal/jgi_array.h"
#include "jg_test.h"
#include "jgt_array_cases.h"

static const jg_validation_level kLevels[] = {JG_VALIDATE_MINIMAL, JG_VALIDATE_DEFAULT,
                                              JG_VALIDATE_FULL};

/* Asserts one level's outcome against an expectation. */
static void check_expect(const char *name, const jg_array *a, jg_validation_level level,
                         const jgt_expect *e) {
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = jg_array_validate(a, level, NULL, &err);
  if (st != e->status || (e->status != JG_OK && err.index != e->index) ||
      (e->message != NULL && strstr(err.message, e->message) == NULL)) {
    print_error("case \"%s\", level %d: got %s index %lld \"%s\"; expected %s index %lld \"%s\"\n",
                name, (int)level, jg_status_name(st), (long long)err.index, err.message,
                jg_status_name(e->status), (long long)e->index,
                e->message != NULL ? e->message : "");
    fail();
  }
  if (st == JG_OK) {
    assert_int_equal(err.status, JG_OK); /* untouched on success */
    assert_int_equal(err.index, -1);
  }
  /* The same status without an error struct. */
  assert_int_equal(jg_array_validate(a, level, NULL, NULL), e->status);
}

static void test_case_table(void **state) {
  (void)state;
  int n = 0;
  const jgt_vcase *cases = jgt_vcases(&n);
  assert_true(n > 30);
  const jgt_expect pass = JGT_PASS;
  for (int k = 0; k < n; k++) {
    jg_array *a = cases[k].build();
    assert_non_null(a);
    check_expect(cases[k].name, a, JG_VALIDATE_NONE, &pass);
    check_expect(cases[k].name, a, JG_VALIDATE_MINIMAL, &pass);
    check_expect(cases[k].name, a, JG_VALIDATE_DEFAULT, &cases[k].at_default);
    check_expect(cases[k].name, a, JG_VALIDATE_FULL, &cases[k].at_full);
    jg_array_release(a);
  }
}

static void test_arguments(void **state) {
  (void)state;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_array_validate(NULL, JG_VALIDATE_FULL, NULL, &err));
  JGT_CONTAINS(err.message, "a is NULL");
  JGT_STATUS(JG_EINVAL, jg_array_validate(NULL, JG_VALIDATE_NONE, NULL, &err));
  jg_array *a = jgt_iota(3);
  JGT_STATUS(JG_EINVAL, jg_array_validate(a, (jg_validation_level)4, NULL, &err));
  JGT_CONTAINS(err.message, "unknown validation level 4");
  JGT_STATUS(JG_EINVAL, jg_array_validate(a, (jg_validation_level)-1, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_array_validate(a, (jg_validation_level)4, NULL, NULL));
  jg_array_release(a);
}

/* A corrupted node fails MINIMAL, DEFAULT and FULL alike with `needle` and `index`, and passes
 * NONE. */
static void expect_structure_error(const jg_array *a, const char *needle, int64_t index) {
  for (size_t k = 0; k < sizeof kLevels / sizeof kLevels[0]; k++) {
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = jg_array_validate(a, kLevels[k], NULL, &err);
    if (st != JG_EVALUE || strstr(err.message, needle) == NULL || err.index != index) {
      print_error("level %d: got %s index %lld \"%s\"; expected JG_EVALUE index %lld \"%s\"\n",
                  (int)kLevels[k], jg_status_name(st), (long long)err.index, err.message,
                  (long long)index, needle);
      fail();
    }
  }
  JGT_OK(jg_array_validate(a, JG_VALIDATE_NONE, NULL, &jgt_err_));
}

static void test_minimal_numeric(void **state) {
  (void)state;
  jg_array *a = jgt_iota(5);
  a->kind = (jg_node_kind)42;
  expect_structure_error(a, "unknown node kind 42 (unknown at depth 1)", -1);
  a->kind = JG_NODE_NUMERIC;
  a->length = -1;
  expect_structure_error(a, "negative length -1 (numeric at depth 1)", -1);
  a->length = 4;
  expect_structure_error(a, "data has 5 entries, not the length 4", -1);
  a->length = 5;
  a->buffers[0].dtype = JG_DTYPE_COMPLEX64; /* same itemsize as int64 */
  expect_structure_error(a, "data has dtype complex64, not supported in arrays", -1);
  a->buffers[0].dtype = JG_DTYPE_INT32;
  expect_structure_error(a, "data has dtype int32 but itemsize 8", -1);
  a->buffers[0].dtype = JG_DTYPE_INT64;
  a->buffers[0].layout.ndim = 0;
  expect_structure_error(a, "data is 0-D", -1);
  a->buffers[0].layout.ndim = 1;
  a->nbuffers = 0;
  expect_structure_error(a, "0 buffers where 1 are needed", -1);
  a->nbuffers = 1;
  jg_buffer *b = a->buffers[0].buffer;
  a->buffers[0].buffer = NULL;
  expect_structure_error(a, "data has no buffer", -1);
  a->buffers[0].buffer = b;
  a->backend = JG_BACKEND_CUDA;
  expect_structure_error(a, "backend 2 does not match device type 1 id 0", -1);
  a->backend = JG_BACKEND_CPU;
  a->buffers[0].host_accessible = false;
  expect_structure_error(a, "data is neither host- nor device-accessible", -1);
  a->buffers[0].host_accessible = true;
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);

  jg_array *e = jgt_vc_empty();
  e->length = 3;
  expect_structure_error(e, "length 3, not 0 (empty at depth 1)", -1);
  e->length = 0;
  e->nchildren = 1; /* with no children array */
  expect_structure_error(e, "1 children where 0 are needed", -1);
  e->nchildren = 0;
  jg_array_release(e);
}

static void test_minimal_list_offset(void **state) {
  (void)state;
  jg_array *a = JGT_OFFSETS(jgt_iota(5), 0, 2, 2, 5);
  a->length = 2;
  expect_structure_error(a, "offsets has 4 entries, not length + 1 = 3", -1);
  a->length = 3;
  a->buffers[0].dtype = JG_DTYPE_FLOAT64;
  expect_structure_error(a, "offsets has dtype float64, not int32 or int64", -1);
  a->buffers[0].dtype = JG_DTYPE_UINT64;
  expect_structure_error(a, "offsets has dtype uint64, not int32 or int64", -1);
  a->buffers[0].dtype = JG_DTYPE_INT64;
  a->buffers[0].layout.ndim = 2;
  expect_structure_error(a, "offsets is 2-D, not 1-D", -1);
  a->buffers[0].layout.ndim = 1;
  a->nchildren = 0;
  expect_structure_error(a, "0 children where 1 are needed", -1);
  a->nchildren = 1;
  jg_array *child = a->children[0];
  a->children[0] = NULL;
  expect_structure_error(a, "child 0 is NULL", 0);
  a->children[0] = child;
  /* A child on another device than its parent (the parent is named). */
  child->device.type = JG_DEVICE_CUDA;
  child->backend = JG_BACKEND_CUDA;
  expect_structure_error(a, "child 0 is on cuda:0, the node on cpu (list-offset at depth 1)", 0);
  child->device.type = JG_DEVICE_CPU;
  child->backend = JG_BACKEND_CPU;
  /* A problem in the child, named by depth. */
  child->length = 6;
  expect_structure_error(a, "data has 5 entries, not the length 6 (numeric at depth 2)", -1);
  child->length = 5;
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
}

static void test_minimal_buffer_device(void **state) {
  (void)state;
  /* Offsets whose view says device memory of GPU 1 in a cpu node. Nothing is dereferenced. */
  int64_t fake[3] = {0, 1, 2};
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(fake, sizeof fake, &buf, &jgt_err_));
  jg_layout l;
  const jg_len n = 3;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  jg_view dv;
  JGT_OK(jg_view_from_pointer(&dv, fake, (jg_device){JG_DEVICE_CUDA, 1}, &l, JG_DTYPE_INT64, true,
                              &jgt_err_));
  dv.buffer = buf;
  jg_array *a = JGT_OFFSETS(jgt_iota(2), 0, 1, 2);
  jg_view keep = a->buffers[0];
  jg_buffer_retain(keep.buffer);
  jgi_array_set_buffer(a, 0, &dv);
  expect_structure_error(a, "offsets is on cuda:1, the node on cpu", -1);
  jgi_array_set_buffer(a, 0, &keep);
  jg_buffer_release(keep.buffer);
  jg_buffer_release(buf);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
}

static void test_minimal_list(void **state) {
  (void)state;
  jg_array *a = jgt_list(JGT_I64(0, 2), JGT_I64(1, 3), 2, 2, JG_DTYPE_INT64, jgt_iota(4));
  a->length = 3;
  expect_structure_error(a, "starts has 2 entries, not the length 3 (list at depth 1)", -1);
  a->length = 2;
  a->buffers[1].layout.shape[0] = 1;
  expect_structure_error(a, "stops has 1 entries, fewer than the length 2", -1);
  a->buffers[1].layout.shape[0] = 2;
  a->buffers[1].dtype = JG_DTYPE_INT32;
  a->buffers[1].layout.itemsize = 4;
  expect_structure_error(a, "starts (int64) and stops (int32) differ in dtype", -1);
  a->buffers[1].dtype = JG_DTYPE_INT64;
  a->buffers[1].layout.itemsize = 8;
  a->buffers[0].dtype = JG_DTYPE_INT8;
  a->buffers[0].layout.itemsize = 1;
  expect_structure_error(a, "starts has dtype int8, not int32 or int64", -1);
  a->buffers[0].dtype = JG_DTYPE_INT64;
  a->buffers[0].layout.itemsize = 8;
  a->nbuffers = 1;
  expect_structure_error(a, "1 buffers where 2 are needed", -1);
  a->nbuffers = 2;
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
}

static void test_minimal_regular(void **state) {
  (void)state;
  jg_array *a = jgt_regular(jgt_iota(6), 3, -1);
  assert_int_equal(a->length, 2);
  a->length = 3;
  expect_structure_error(a, "content has 6 entries, fewer than the 9 needed (regular at depth 1)",
                         -1);
  a->length = 2;
  a->regular_size = -2;
  expect_structure_error(a, "negative size -2", -1);
  a->regular_size = 3;
  a->length = INT64_MAX / 2;
  expect_structure_error(a, "overflows", -1);
  a->length = 2;
  a->nbuffers = 1; /* a regular node has no buffers */
  expect_structure_error(a, "1 buffers where 0 are needed", -1);
  a->nbuffers = 0;
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
  /* Size 0: any length, any content. */
  a = jgt_regular(jgt_iota(0), 0, 7);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
}

static void test_minimal_record(void **state) {
  (void)state;
  jg_array *fields[2] = {jgt_iota(3), jgt_iota(2)};
  static const char *const names[2] = {"x", "y"};
  jg_array *r = jgt_record(2, fields, names, -1);
  assert_int_equal(r->length, 2);
  r->length = 3;
  expect_structure_error(r, "field y has 2 entries, fewer than the length 3 (record at depth 1)",
                         1);
  r->length = 2;
  char *name = r->names[0];
  r->names[0] = NULL;
  expect_structure_error(r, "name of field 0 is NULL", 0);
  r->names[0] = name;
  /* A problem inside a field names the field. */
  r->children[1]->length = 3;
  expect_structure_error(r, "data has 2 entries, not the length 3 (numeric at depth 1, field y)",
                         -1);
  r->children[1]->length = 2;
  JGT_OK(jg_array_validate(r, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(r);

  jg_array *tf[2] = {jgt_iota(3), jgt_iota(2)};
  jg_array *t = jgt_record(2, tf, NULL, -1);
  t->length = 3;
  expect_structure_error(t, "field 1 has 2 entries, fewer than the length 3", 1);
  t->length = 2;
  JGT_OK(jg_array_validate(t, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(t);

  /* No fields: any length. */
  jg_array *z = jgt_record(0, NULL, NULL, 4);
  JGT_OK(jg_array_validate(z, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(z);
}

static void test_minimal_masks(void **state) {
  (void)state;
  jg_array *a = jgt_byte_masked((const int8_t[]){1, 0, 1}, 3, true, jgt_iota(3));
  a->length = 4;
  expect_structure_error(a, "mask has 3 entries, fewer than the length 4 (byte-masked at depth 1)",
                         -1);
  a->length = 3;
  /* Content shorter than the length. */
  jg_array *content = jg_array_retain(a->children[0]);
  jg_array *short_content = jgt_iota(2);
  jgi_array_set_child(a, 0, short_content);
  jg_array_release(short_content);
  expect_structure_error(a, "content has 2 entries, fewer than the 3 needed", -1);
  jgi_array_set_child(a, 0, content);
  jg_array_release(content);
  /* A mask of int32. */
  jg_view keep = a->buffers[0];
  jg_buffer_retain(keep.buffer);
  jg_view wide = jgt_view(JGT_I32(1, 0, 1), 3, JG_DTYPE_INT32);
  jgi_array_set_buffer(a, 0, &wide);
  jg_buffer_release(wide.buffer);
  expect_structure_error(a, "mask has dtype int32, not int8, uint8 or bool", -1);
  jgi_array_set_buffer(a, 0, &keep);
  jg_buffer_release(keep.buffer);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);

  /* Bit-masked: 8 entries in 1 byte. */
  jg_array *b = jgt_bit_masked((const uint8_t[]){0xA5}, 1, true, true, 8, jgt_iota(9));
  b->length = 9;
  expect_structure_error(b, "mask has 1 bytes, 9 entries from bit 0 need 2 (bit-masked at depth 1)",
                         -1);
  b->length = 8;
  b->bit_offset = 7;
  expect_structure_error(b, "mask has 1 bytes, 8 entries from bit 7 need 2", -1);
  b->bit_offset = 8;
  expect_structure_error(b, "bit offset 8 is not in [0, 8)", -1);
  b->bit_offset = 0;
  b->buffers[0].dtype = JG_DTYPE_INT8;
  expect_structure_error(b, "mask has dtype int8, not uint8", -1);
  b->buffers[0].dtype = JG_DTYPE_UINT8;
  b->buffers[0].layout.ndim = 2;
  expect_structure_error(b, "mask is 2-D, not 1-D", -1);
  b->buffers[0].layout.ndim = 1;
  b->length = 0;
  b->bit_offset = 5; /* no entries need no bytes */
  JGT_OK(jg_array_validate(b, JG_VALIDATE_FULL, NULL, &jgt_err_));
  b->length = 8;
  b->bit_offset = 0;
  jg_array *bc = jg_array_retain(b->children[0]);
  jg_array *tiny = jgt_iota(7);
  jgi_array_set_child(b, 0, tiny);
  jg_array_release(tiny);
  expect_structure_error(b, "content has 7 entries, fewer than the 8 needed", -1);
  jgi_array_set_child(b, 0, bc);
  jg_array_release(bc);
  JGT_OK(jg_array_validate(b, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(b);
}

static void test_minimal_indexed(void **state) {
  (void)state;
  jg_array *a = jgt_indexed(JGT_I64(0, -1, 2), 3, JG_DTYPE_INT64, jgt_iota(3));
  a->length = 2;
  expect_structure_error(a, "index has 3 entries, not the length 2 (indexed-option at depth 1)",
                         -1);
  a->length = 3;
  a->buffers[0].dtype = JG_DTYPE_FLOAT64;
  expect_structure_error(a, "index has dtype float64, not int32 or int64", -1);
  a->buffers[0].dtype = JG_DTYPE_INT64;
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
}

static void test_depth_limit_and_long_paths(void **state) {
  (void)state;
  /* 1001 nested regular nodes: depths 0..1001, one past the limit of 1000. */
  jg_array *a = jgt_iota(1);
  for (int k = 0; k < 1001; k++) a = jgt_regular(a, 1, -1);
  jg_error err;
  JGT_STATUS(JG_EVALUE, jg_array_validate(a, JG_VALIDATE_MINIMAL, NULL, &err));
  JGT_CONTAINS(err.message, "nested deeper than 1000 levels");
  jg_array_release(a);
  a = jgt_iota(1);
  for (int k = 0; k < 1000; k++) a = jgt_regular(a, 1, -1);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);

  /* Field paths longer than the message keeps end in "...". */
  char name[61];
  memset(name, 'n', 60);
  name[60] = '\0';
  const char *const names[1] = {name};
  jg_array *r = JGT_OFFSETS(jgt_iota(2), 0, 2, 1);
  for (int k = 0; k < 4; k++) {
    jg_array *f[1] = {r};
    r = jgt_record(1, f, names, -1);
  }
  JGT_STATUS(JG_EVALUE, jg_array_validate(r, JG_VALIDATE_FULL, NULL, &err));
  JGT_CONTAINS(err.message, "(list-offset at depth 1, field nnnnnnnnnn");
  JGT_CONTAINS(err.message, "...)");
  assert_int_equal(err.index, 1); /* list 1: offsets [2, 1) */
  jg_array_release(r);
}

static void test_cuda_array_without_gpu(void **state) {
  (void)state;
  int count = 0;
  if (jg_device_count(&count, NULL) == JG_OK && count > 0) {
    skip(); /* the fake device pointers below must not reach a real GPU */
  }
  int64_t fake_off[3] = {0, 1, 2}, fake_data[2] = {0, 0};
  jg_buffer *bo = NULL, *bd = NULL;
  JGT_OK(jg_buffer_wrap_borrowed(fake_off, sizeof fake_off, &bo, &jgt_err_));
  JGT_OK(jg_buffer_wrap_borrowed(fake_data, sizeof fake_data, &bd, &jgt_err_));
  jg_layout lo, ld;
  JGT_OK(jg_layout_init(&lo, 1, (jg_len[]){3}, NULL, 8, &jgt_err_));
  JGT_OK(jg_layout_init(&ld, 1, (jg_len[]){2}, NULL, 8, &jgt_err_));
  const jg_device gpu = {JG_DEVICE_CUDA, 0};
  jg_view vo, vd;
  JGT_OK(jg_view_from_pointer(&vo, fake_off, gpu, &lo, JG_DTYPE_INT64, true, &jgt_err_));
  JGT_OK(jg_view_from_pointer(&vd, fake_data, gpu, &ld, JG_DTYPE_INT64, true, &jgt_err_));
  vo.buffer = bo;
  vd.buffer = bd;
  jg_array *content = NULL, *a = NULL;
  JGT_OK(jg_array_numeric(&vd, &content, &jgt_err_));
  JGT_OK(jg_array_list_offset(&vo, content, &a, &jgt_err_));
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  /* MINIMAL reads nothing; DEFAULT and FULL need the GPU. */
  JGT_OK(jg_array_validate(a, JG_VALIDATE_MINIMAL, NULL, &jgt_err_));
  jg_error err;
  JGT_STATUS(JG_ENODEV, jg_array_validate(a, JG_VALIDATE_DEFAULT, NULL, &err));
  JGT_STATUS(JG_ENODEV, jg_array_validate(a, JG_VALIDATE_FULL, NULL, &err));
  jg_array_release(a);
  jg_array_release(content);
  jg_buffer_release(bo);
  jg_buffer_release(bd);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_case_table),
      cmocka_unit_test(test_arguments),
      cmocka_unit_test(test_minimal_numeric),
      cmocka_unit_test(test_minimal_list_offset),
      cmocka_unit_test(test_minimal_buffer_device),
      cmocka_unit_test(test_minimal_list),
      cmocka_unit_test(test_minimal_regular),
      cmocka_unit_test(test_minimal_record),
      cmocka_unit_test(test_minimal_masks),
      cmocka_unit_test(test_minimal_indexed),
      cmocka_unit_test(test_depth_limit_and_long_paths),
      cmocka_unit_test(test_cuda_array_without_gpu),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
