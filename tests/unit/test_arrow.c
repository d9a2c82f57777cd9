/* test_arrow.c: Arrow C Data Interface export and import of cpu arrays (arrow.h), and the
 * ArrowDeviceArray forms of both for cpu arrays.
 *
 * Exports are checked field by field against the Arrow specification (CDataInterface.rst,
 * Columnar.rst): formats, lengths, offsets, buffer pointers (zero-copy where promised) and
 * buffer contents, with expected values worked out by hand. Imports use hand-built ArrowArrays
 * whose release callbacks count their calls, so "released exactly once, and only once the last
 * jagged reference is gone" is checked, as is "not taken on error". Round trips compare
 * Awkward-style printouts and type strings before and after. */
#include "internal/jgi_array.h"
#include "io/arrow/arrow_internal.h"
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Building jagged arrays                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* A dense 1-D host view of n elements of dtype copied from vals; *keep gets the buffer. */
static jg_view vec(jg_dtype dtype, jg_len n, const void *vals, jg_buffer **keep) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), (size_t)(n * isz), NULL, keep, &jgt_err_));
  if (n > 0) memcpy(jg_buffer_data(*keep), vals, (size_t)(n * isz));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, isz, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, *keep, &l, dtype, false, &jgt_err_));
  return v;
}

static jg_array *num(jg_dtype dtype, jg_len n, const void *vals) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(vals, n, dtype, &a, &jgt_err_));
  return a;
}

static jg_array *i64s(jg_len n, const int64_t *vals) {
  return num(JG_DTYPE_INT64, n, vals);
}

/* List-offset node with `nofs` offsets of dtype odt over `content` (consumed). */
static jg_array *lo(jg_dtype odt, jg_len nofs, const void *ofs, jg_array *content) {
  jg_buffer *b = NULL;
  jg_view v = vec(odt, nofs, ofs, &b);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&v, content, &a, &jgt_err_));
  jg_buffer_release(b);
  jg_array_release(content);
  return a;
}

static jg_array *lst(jg_len n, const int64_t *starts, const int64_t *stops, jg_array *content) {
  jg_buffer *b1 = NULL;
  jg_buffer *b2 = NULL;
  jg_view s = vec(JG_DTYPE_INT64, n, starts, &b1);
  jg_view t = vec(JG_DTYPE_INT64, n, stops, &b2);
  jg_array *a = NULL;
  JGT_OK(jg_array_list(&s, &t, content, &a, &jgt_err_));
  jg_buffer_release(b1);
  jg_buffer_release(b2);
  jg_array_release(content);
  return a;
}

static jg_array *reg(jg_array *content, jg_len size) {
  jg_array *a = NULL;
  JGT_OK(jg_array_regular(content, size, -1, &a, &jgt_err_));
  jg_array_release(content);
  return a;
}

/* A record of two fields (consumed); names NULL for a tuple. */
static jg_array *rec2(const char *n0, jg_array *f0, const char *n1, jg_array *f1) {
  jg_array *fields[2] = {f0, f1};
  const char *names[2] = {n0, n1};
  jg_array *a = NULL;
  JGT_OK(jg_array_record(2, fields, n0 != NULL ? names : NULL, -1, &a, &jgt_err_));
  jg_array_release(f0);
  jg_array_release(f1);
  return a;
}

static jg_array *bytem(jg_len n, const uint8_t *mask, bool valid_when, jg_array *content) {
  jg_buffer *b = NULL;
  jg_view v = vec(JG_DTYPE_UINT8, n, mask, &b);
  jg_array *a = NULL;
  JGT_OK(jg_array_byte_masked(&v, valid_when, content, &a, &jgt_err_));
  jg_buffer_release(b);
  jg_array_release(content);
  return a;
}

static jg_array *bitm(jg_len nbytes, const uint8_t *mask, bool valid_when, bool lsb, jg_len len,
                      jg_array *content) {
  jg_buffer *b = NULL;
  jg_view v = vec(JG_DTYPE_UINT8, nbytes, mask, &b);
  jg_array *a = NULL;
  JGT_OK(jg_array_bit_masked(&v, valid_when, lsb, len, content, &a, &jgt_err_));
  jg_buffer_release(b);
  jg_array_release(content);
  return a;
}

static jg_array *idxo(jg_len n, const int64_t *index, jg_array *content) {
  jg_buffer *b = NULL;
  jg_view v = vec(JG_DTYPE_INT64, n, index, &b);
  jg_array *a = NULL;
  JGT_OK(jg_array_indexed_option(&v, content, &a, &jgt_err_));
  jg_buffer_release(b);
  jg_array_release(content);
  return a;
}

static jg_array *slice(jg_array *a, jg_len start, jg_len stop) {
  jg_array *s = NULL;
  JGT_OK(jg_array_slice(a, start, stop, &s, &jgt_err_));
  return s;
}

/* Printout and type of an array (static storage; each call overwrites its own buffer). */
static const char *str(const jg_array *a) {
  static char buf[2048];
  JGT_OK(jg_array_to_string(a, 2000, buf, sizeof buf, NULL, &jgt_err_));
  return buf;
}

static const char *typ(const jg_array *a) {
  static char buf[512];
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  return buf;
}

/* Element i of a 1-D integer view, through its layout. */
static int64_t view_int(const jg_view *v, jg_len i) {
  return jgi_view_get_index(v, i);
}

/* ------------------------------------------------------------------------------------------ */
/* Reading exports                                                                             */
/* ------------------------------------------------------------------------------------------ */

static void release_export(struct ArrowSchema *s, struct ArrowArray *a) {
  assert_non_null(s->release);
  assert_non_null(a->release);
  s->release(s);
  a->release(a);
  assert_null(s->release);
  assert_null(a->release);
}

static const int64_t *i64_buf(const struct ArrowArray *a, int k) {
  return (const int64_t *)a->buffers[k];
}

static bool bit(const void *bitmap, int64_t i) {
  return ((((const uint8_t *)bitmap)[i / 8] >> (i % 8)) & 1) != 0;
}

/* Checks the invariants every exported level satisfies, recursively. */
static void check_level(const struct ArrowSchema *s, const struct ArrowArray *a) {
  assert_non_null(s->format);
  assert_non_null(s->release);
  assert_non_null(a->release);
  assert_int_equal(a->offset, 0);
  assert_int_equal(s->n_children, a->n_children);
  assert_null(s->dictionary);
  assert_null(a->dictionary);
  if (a->null_count != 0) assert_non_null(a->buffers[0]);
  for (int64_t k = 0; k < a->n_children; ++k) check_level(s->children[k], a->children[k]);
}

/* ------------------------------------------------------------------------------------------ */
/* Export                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void test_export_numeric_zero_copy(void **state) {
  (void)state;
  const int32_t v[] = {7, -1, 42};
  jg_array *a = num(JG_DTYPE_INT32, 3, v);
  jg_view data;
  JGT_OK(jg_array_buffer(a, 0, &data, &jgt_err_));
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  jg_array_release(a); /* the export keeps the data alive */
  check_level(&s, &arr);
  assert_string_equal(s.format, "i");
  assert_string_equal(s.name, "");
  assert_null(s.metadata);
  assert_int_equal(s.flags, 0);
  assert_int_equal(arr.length, 3);
  assert_int_equal(arr.null_count, 0);
  assert_int_equal(arr.n_buffers, 2);
  assert_int_equal(arr.n_children, 0);
  assert_null(arr.buffers[0]);
  assert_ptr_equal(arr.buffers[1], jg_view_data(&data));
  const int32_t *d = (const int32_t *)arr.buffers[1];
  assert_int_equal(d[0], 7);
  assert_int_equal(d[1], -1);
  assert_int_equal(d[2], 42);
  release_export(&s, &arr);
}

static void test_export_formats(void **state) {
  (void)state;
  static const struct {
    jg_dtype dtype;
    const char *format;
  } cases[] = {{JG_DTYPE_INT8, "c"},    {JG_DTYPE_UINT8, "C"},   {JG_DTYPE_INT16, "s"},
               {JG_DTYPE_UINT16, "S"},  {JG_DTYPE_INT32, "i"},   {JG_DTYPE_UINT32, "I"},
               {JG_DTYPE_INT64, "l"},   {JG_DTYPE_UINT64, "L"},  {JG_DTYPE_FLOAT16, "e"},
               {JG_DTYPE_FLOAT32, "f"}, {JG_DTYPE_FLOAT64, "g"}, {JG_DTYPE_BOOL, "b"}};
  const uint8_t bytes[16] = {1, 0, 1, 1, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    const jg_len n = 16 / jg_dtype_itemsize(cases[c].dtype);
    jg_array *a = num(cases[c].dtype, n, bytes);
    struct ArrowSchema s;
    struct ArrowArray arr;
    JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
    assert_string_equal(s.format, cases[c].format);
    assert_int_equal(arr.length, n);
    if (cases[c].dtype != JG_DTYPE_BOOL) {
      assert_memory_equal(arr.buffers[1], bytes, 16);
    }
    release_export(&s, &arr);
    jg_array_release(a);
  }
}

static void test_export_bool_bits(void **state) {
  (void)state;
  /* [T, F, T, T, F, F, F, F, T] packs to 0b00001101, 0b00000001. */
  const uint8_t v[] = {1, 0, 1, 1, 0, 0, 0, 0, 1};
  jg_array *a = num(JG_DTYPE_BOOL, 9, v);
  jg_array *s3 = slice(a, 1, 9); /* [F, T, T, F, F, F, F, T] -> 0b10000110 */
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  assert_string_equal(s.format, "b");
  assert_int_equal(arr.length, 9);
  const uint8_t *bits = (const uint8_t *)arr.buffers[1];
  assert_int_equal(bits[0], 0x0D);
  assert_int_equal(bits[1] & 0x01, 0x01);
  release_export(&s, &arr);
  JGT_OK(jg_array_export_arrow(s3, &s, &arr, &jgt_err_));
  assert_int_equal(arr.length, 8);
  assert_int_equal(((const uint8_t *)arr.buffers[1])[0], 0x86);
  release_export(&s, &arr);
  jg_array_release(s3);
  jg_array_release(a);
}

static void test_export_strided_compacts(void **state) {
  (void)state;
  /* data[::2] of [0, 1, ..., 9] as float64 is [0, 2, 4, 6, 8]; reversed [9, 8, ..., 0]. */
  double v[10];
  for (int i = 0; i < 10; ++i) v[i] = i;
  jg_buffer *b = NULL;
  jg_view full = vec(JG_DTYPE_FLOAT64, 10, v, &b);
  const jg_slice step2 = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, 2);
  jg_view strided;
  JGT_OK(jg_view_slice(&strided, &full, 1, &step2, &jgt_err_));
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&strided, &a, &jgt_err_));
  jg_buffer_release(b);
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  assert_int_equal(arr.length, 5);
  const double *d = (const double *)arr.buffers[1];
  assert_true(d != (const double *)full.base);
  for (int i = 0; i < 5; ++i) assert_true(d[i] == 2.0 * i);
  release_export(&s, &arr);
  jg_array_release(a);
}

static void test_export_inner_dims(void **state) {
  (void)state;
  /* A (3, 2) int64 array becomes +w:2 of l (length 6), zero-copy; the transposed (2, 3) view
   * of it is compacted: rows [0, 2, 4] and [1, 3, 5]. */
  int64_t v[6] = {0, 1, 2, 3, 4, 5};
  jg_buffer *b = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), sizeof v, NULL, &b, &jgt_err_));
  memcpy(jg_buffer_data(b), v, sizeof v);
  const jg_len shape[2] = {3, 2};
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, shape, NULL, 8, &jgt_err_));
  jg_view view;
  JGT_OK(jg_view_from_buffer(&view, b, &l, JG_DTYPE_INT64, false, &jgt_err_));
  jg_array *a = NULL;
  JGT_OK(jg_array_numeric(&view, &a, &jgt_err_));
  assert_string_equal(typ(a), "3 * 2 * int64");
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  assert_string_equal(s.format, "+w:2");
  assert_int_equal(arr.length, 3);
  assert_int_equal(arr.n_buffers, 1);
  assert_string_equal(s.children[0]->format, "l");
  assert_string_equal(s.children[0]->name, "item");
  assert_int_equal(arr.children[0]->length, 6);
  assert_ptr_equal(arr.children[0]->buffers[1], jg_buffer_data(b));
  release_export(&s, &arr);

  const int perm[2] = {1, 0};
  jg_view t = view;
  JGT_OK(jg_layout_permute(&t.layout, &view.layout, perm, &jgt_err_));
  jg_array *ta = NULL;
  JGT_OK(jg_array_numeric(&t, &ta, &jgt_err_));
  JGT_OK(jg_array_export_arrow(ta, &s, &arr, &jgt_err_));
  assert_string_equal(s.format, "+w:3");
  assert_int_equal(arr.length, 2);
  const int64_t *d = i64_buf(arr.children[0], 1);
  const int64_t want[6] = {0, 2, 4, 1, 3, 5};
  assert_memory_equal(d, want, sizeof want);
  release_export(&s, &arr);
  jg_array_release(ta);
  jg_array_release(a);
  jg_buffer_release(b);
}

static void test_export_list_offset(void **state) {
  (void)state;
  /* Offsets [2, 4, 4, 7] (not starting at 0) over 9 values: [[2, 3], [], [4, 5, 6]]; the
   * content extends past the last offset (entries 7, 8). */
  const int64_t ofs[] = {2, 4, 4, 7};
  const double c[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  jg_array *a = lo(JG_DTYPE_INT64, 4, ofs, num(JG_DTYPE_FLOAT64, 9, c));
  jg_view ov;
  JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  assert_string_equal(s.format, "+L");
  assert_int_equal(arr.length, 3);
  assert_int_equal(arr.n_buffers, 2);
  assert_null(arr.buffers[0]);
  assert_ptr_equal(arr.buffers[1], jg_view_data(&ov)); /* zero-copy */
  assert_int_equal(i64_buf(&arr, 1)[0], 2);
  assert_int_equal(i64_buf(&arr, 1)[3], 7);
  assert_string_equal(s.children[0]->format, "g");
  assert_int_equal(arr.children[0]->length, 9);
  release_export(&s, &arr);

  /* int32 offsets give "+l"; a slice [1:3] exports offsets from the second one on. */
  const int32_t ofs32[] = {0, 1, 3, 6};
  jg_array *b = lo(JG_DTYPE_INT32, 4, ofs32, num(JG_DTYPE_FLOAT64, 6, c));
  jg_array *bs = slice(b, 1, 3);
  JGT_OK(jg_array_buffer(b, 0, &ov, &jgt_err_));
  JGT_OK(jg_array_export_arrow(bs, &s, &arr, &jgt_err_));
  assert_string_equal(s.format, "+l");
  assert_int_equal(arr.length, 2);
  assert_int_equal(arr.offset, 0);
  assert_ptr_equal(arr.buffers[1], (const int32_t *)jg_view_data(&ov) + 1);
  assert_int_equal(((const int32_t *)arr.buffers[1])[0], 1);
  assert_int_equal(((const int32_t *)arr.buffers[1])[2], 6);
  release_export(&s, &arr);
  jg_array_release(bs);
  jg_array_release(b);
  jg_array_release(a);
}

static void test_export_strided_offsets(void **state) {
  (void)state;
  /* Offsets viewed with stride 2: [0, 2, 5] picked from [0, 1, 2, 4, 5]. */
  const int64_t raw[] = {0, 1, 2, 4, 5};
  jg_buffer *b = NULL;
  jg_view full = vec(JG_DTYPE_INT64, 5, raw, &b);
  const jg_slice step = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, 2);
  jg_view ov;
  JGT_OK(jg_view_slice(&ov, &full, 1, &step, &jgt_err_));
  const int64_t c[] = {10, 11, 12, 13, 14};
  jg_array *content = i64s(5, c);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&ov, content, &a, &jgt_err_));
  jg_array_release(content);
  jg_buffer_release(b);
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  assert_int_equal(arr.length, 2);
  const int64_t want[] = {0, 2, 5};
  assert_memory_equal(arr.buffers[1], want, sizeof want);
  assert_true(arr.buffers[1] != full.base);
  release_export(&s, &arr);
  jg_array_release(a);
}

static void test_export_list_starts_stops(void **state) {
  (void)state;
  const int64_t c[] = {0, 1, 2, 3, 4, 5, 6};
  /* Contiguous: starts [1, 3, 3], stops [3, 3, 6] -> offsets [1, 3, 3, 6], content shared. */
  const int64_t s1[] = {1, 3, 3};
  const int64_t t1[] = {3, 3, 6};
  jg_array *a = lst(3, s1, t1, i64s(7, c));
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  assert_string_equal(s.format, "+L");
  const int64_t want1[] = {1, 3, 3, 6};
  assert_memory_equal(arr.buffers[1], want1, sizeof want1);
  assert_int_equal(arr.children[0]->length, 7);
  assert_ptr_equal(arr.children[0]->buffers[1], jg_view_data(&jg_array_child(a, 0)->buffers[0]));
  release_export(&s, &arr);
  jg_array_release(a);

  /* Out of order and overlapping: [[4, 5], [0, 1], [], [1, 2]] -> gathered content. */
  const int64_t s2[] = {4, 0, 2, 1};
  const int64_t t2[] = {6, 2, 2, 3};
  a = lst(4, s2, t2, i64s(7, c));
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  const int64_t want2[] = {0, 2, 4, 4, 6};
  assert_memory_equal(arr.buffers[1], want2, sizeof want2);
  assert_int_equal(arr.children[0]->length, 6);
  const int64_t vals2[] = {4, 5, 0, 1, 1, 2};
  assert_memory_equal(arr.children[0]->buffers[1], vals2, sizeof vals2);
  release_export(&s, &arr);
  jg_array_release(a);

  /* stops < starts is reported, not read past. */
  const int64_t s3[] = {3};
  const int64_t t3[] = {2};
  a = lst(1, s3, t3, i64s(7, c));
  jg_error err;
  JGT_STATUS(JG_EVALUE, jg_array_export_arrow(a, &s, &arr, &err));
  assert_null(s.release);
  assert_null(arr.release);
  jg_array_release(a);
}

static void test_export_regular(void **state) {
  (void)state;
  /* size 3 over 7 values: 2 lists, the 7th value is not exported; sliced [1:2] starts at 3. */
  const int64_t c[] = {0, 1, 2, 3, 4, 5, 6};
  jg_array *a = reg(i64s(7, c), 3);
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  assert_string_equal(s.format, "+w:3");
  assert_int_equal(arr.length, 2);
  assert_int_equal(arr.n_buffers, 1);
  assert_int_equal(arr.children[0]->length, 6);
  release_export(&s, &arr);
  jg_array *b = slice(a, 1, 2);
  JGT_OK(jg_array_export_arrow(b, &s, &arr, &jgt_err_));
  assert_int_equal(arr.length, 1);
  assert_int_equal(arr.children[0]->length, 3);
  assert_int_equal(i64_buf(arr.children[0], 1)[0], 3);
  release_export(&s, &arr);
  jg_array_release(b);
  jg_array_release(a);
}

static void test_export_record_and_tuple(void **state) {
  (void)state;
  const int64_t x[] = {1, 2, 3};
  const double y[] = {0.5, 1.5, 2.5};
  jg_array *r = rec2("x", i64s(3, x), "y", num(JG_DTYPE_FLOAT64, 3, y));
  jg_array *rs = slice(r, 1, 3);
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(rs, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  assert_string_equal(s.format, "+s");
  assert_int_equal(arr.n_buffers, 1);
  assert_int_equal(arr.length, 2);
  assert_int_equal(s.n_children, 2);
  assert_string_equal(s.children[0]->name, "x");
  assert_string_equal(s.children[1]->name, "y");
  assert_string_equal(s.children[0]->format, "l");
  assert_string_equal(s.children[1]->format, "g");
  assert_int_equal(arr.children[0]->length, 2);
  assert_int_equal(i64_buf(arr.children[0], 1)[0], 2);
  assert_true(((const double *)arr.children[1]->buffers[1])[1] == 2.5);
  release_export(&s, &arr);
  jg_array_release(rs);
  jg_array_release(r);

  jg_array *t = rec2(NULL, i64s(3, x), NULL, num(JG_DTYPE_FLOAT64, 3, y));
  JGT_OK(jg_array_export_arrow(t, &s, &arr, &jgt_err_));
  assert_string_equal(s.children[0]->name, "0");
  assert_string_equal(s.children[1]->name, "1");
  release_export(&s, &arr);
  jg_array_release(t);
}

static void test_export_byte_masked(void **state) {
  (void)state;
  const int64_t c[] = {10, 20, 30, 40};
  const uint8_t m[] = {1, 0, 1, 1};
  jg_array *a = bytem(4, m, true, i64s(4, c));
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  assert_string_equal(s.format, "l");
  assert_int_equal(s.flags, ARROW_FLAG_NULLABLE);
  assert_int_equal(arr.null_count, 1);
  assert_int_equal(((const uint8_t *)arr.buffers[0])[0] & 0x0F, 0x0D);
  assert_int_equal(i64_buf(&arr, 1)[3], 40);
  release_export(&s, &arr);
  jg_array_release(a);

  /* valid_when false, sliced [1:4]: mask [0, 1, 1] means valid, None, None. */
  jg_array *b = bytem(4, m, false, i64s(4, c));
  jg_array *bs = slice(b, 1, 4);
  JGT_OK(jg_array_export_arrow(bs, &s, &arr, &jgt_err_));
  assert_int_equal(arr.length, 3);
  assert_int_equal(arr.null_count, 2);
  assert_true(bit(arr.buffers[0], 0));
  assert_false(bit(arr.buffers[0], 1));
  assert_false(bit(arr.buffers[0], 2));
  assert_int_equal(i64_buf(&arr, 1)[0], 20);
  release_export(&s, &arr);
  jg_array_release(bs);
  jg_array_release(b);
}

static void test_export_bit_masked(void **state) {
  (void)state;
  const int64_t c[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const uint8_t m[] = {0xB5, 0x02}; /* lsb bits: 1 0 1 0 1 1 0 1 | 0 1 */
  jg_array *a = bitm(2, m, true, true, 10, i64s(10, c));
  jg_view mv;
  JGT_OK(jg_array_buffer(a, 0, &mv, &jgt_err_));
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  assert_ptr_equal(arr.buffers[0], jg_view_data(&mv)); /* Arrow's own layout: shared */
  assert_int_equal(arr.null_count, 4);
  release_export(&s, &arr);

  /* Sliced [3:10]: bits 3.. = 0 1 1 0 1 0 1 -> rebuilt starting at bit 0. */
  jg_array *as = slice(a, 3, 10);
  JGT_OK(jg_array_export_arrow(as, &s, &arr, &jgt_err_));
  assert_int_equal(arr.length, 7);
  assert_int_equal(((const uint8_t *)arr.buffers[0])[0], 0x56);
  assert_int_equal(arr.null_count, 3);
  assert_int_equal(i64_buf(&arr, 1)[0], 3);
  release_export(&s, &arr);
  /* Sliced [8:10] starts on a byte: the second mask byte is shared. */
  jg_array *as8 = slice(a, 8, 10);
  JGT_OK(jg_array_export_arrow(as8, &s, &arr, &jgt_err_));
  assert_ptr_equal(arr.buffers[0], (const uint8_t *)jg_view_data(&mv) + 1);
  assert_int_equal(arr.null_count, 1);
  release_export(&s, &arr);
  jg_array_release(as8);
  jg_array_release(as);
  jg_array_release(a);

  /* MSB order and valid_when false: 0b01100000 msb-first = 0 1 1 0 0 0 0 0, inverted. */
  const uint8_t m2[] = {0x60};
  jg_array *b = bitm(1, m2, false, false, 4, i64s(4, c));
  JGT_OK(jg_array_export_arrow(b, &s, &arr, &jgt_err_));
  assert_int_equal(((const uint8_t *)arr.buffers[0])[0], 0x09); /* valid, None, None, valid */
  assert_int_equal(arr.null_count, 2);
  release_export(&s, &arr);
  jg_array_release(b);
}

static void test_export_indexed_option(void **state) {
  (void)state;
  /* [30, None, 10, 30] from index [2, -1, 0, 2] over [10, 20, 30]. */
  const int64_t c[] = {10, 20, 30};
  const int64_t ix[] = {2, -1, 0, 2};
  jg_array *a = idxo(4, ix, i64s(3, c));
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  assert_string_equal(s.format, "l");
  assert_int_equal(arr.length, 4);
  assert_int_equal(arr.null_count, 1);
  assert_int_equal(((const uint8_t *)arr.buffers[0])[0] & 0x0F, 0x0D);
  const int64_t *d = i64_buf(&arr, 1);
  assert_int_equal(d[0], 30);
  assert_int_equal(d[2], 10);
  assert_int_equal(d[3], 30);
  release_export(&s, &arr);
  jg_array_release(a);

  /* Over lists: [[3], None, [0, 1, 2]] gathers the content. */
  const int64_t ofs[] = {0, 3, 4};
  const int64_t vals[] = {0, 1, 2, 3};
  const int64_t ix2[] = {1, -1, 0};
  jg_array *b = idxo(3, ix2, lo(JG_DTYPE_INT64, 3, ofs, i64s(4, vals)));
  assert_string_equal(str(b), "[[3], None, [0, 1, 2]]");
  JGT_OK(jg_array_export_arrow(b, &s, &arr, &jgt_err_));
  assert_string_equal(s.format, "+L");
  const int64_t wofs[] = {0, 1, 1, 4};
  assert_memory_equal(arr.buffers[1], wofs, sizeof wofs);
  const int64_t wvals[] = {3, 0, 1, 2};
  assert_memory_equal(arr.children[0]->buffers[1], wvals, sizeof wvals);
  release_export(&s, &arr);
  jg_array_release(b);

  /* An index past the content is reported, at its position, as the kernels do. */
  const int64_t bad[] = {0, 5};
  jg_array *e = idxo(2, bad, i64s(3, c));
  jg_error err;
  JGT_STATUS(JG_EINDEX, jg_array_export_arrow(e, &s, &arr, &err));
  assert_int_equal(err.index, 1);
  assert_null(s.release);
  assert_null(arr.release);
  jg_array_release(e);
}

static void test_export_empty(void **state) {
  (void)state;
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(e, &s, &arr, &jgt_err_));
  assert_string_equal(s.format, "n");
  assert_int_equal(arr.length, 0);
  assert_int_equal(arr.n_buffers, 0);
  release_export(&s, &arr);
  /* An option over empty (all None) is the null type of its length. */
  const int64_t ix[] = {-1, -1};
  jg_array *o = idxo(2, ix, e);
  JGT_OK(jg_array_export_arrow(o, &s, &arr, &jgt_err_));
  assert_string_equal(s.format, "n");
  assert_int_equal(arr.length, 2);
  assert_int_equal(arr.null_count, 2);
  release_export(&s, &arr);
  jg_array_release(o);

  /* Zero-length numeric and list arrays, and a list array of empty lists. */
  jg_array *z = num(JG_DTYPE_FLOAT32, 0, NULL);
  JGT_OK(jg_array_export_arrow(z, &s, &arr, &jgt_err_));
  assert_string_equal(s.format, "f");
  assert_int_equal(arr.length, 0);
  release_export(&s, &arr);
  jg_array_release(z);
  const int64_t ofs[] = {0, 0, 0};
  jg_array *l = lo(JG_DTYPE_INT64, 3, ofs, num(JG_DTYPE_FLOAT32, 0, NULL));
  JGT_OK(jg_array_export_arrow(l, &s, &arr, &jgt_err_));
  assert_int_equal(arr.length, 2);
  assert_int_equal(i64_buf(&arr, 1)[2], 0);
  assert_int_equal(arr.children[0]->length, 0);
  release_export(&s, &arr);
  jg_array *l0 = slice(l, 2, 2);
  JGT_OK(jg_array_export_arrow(l0, &s, &arr, &jgt_err_));
  assert_int_equal(arr.length, 0);
  assert_non_null(arr.buffers[1]); /* one offset, friendlier than none */
  release_export(&s, &arr);
  jg_array_release(l0);
  jg_array_release(l);
}

static void test_export_errors(void **state) {
  (void)state;
  struct ArrowSchema s;
  struct ArrowArray arr;
  jg_error err;
  const int64_t c[] = {1, 2};
  jg_array *a = i64s(2, c);
  JGT_STATUS(JG_EINVAL, jg_array_export_arrow(NULL, &s, &arr, &err));
  JGT_STATUS(JG_EINVAL, jg_array_export_arrow(a, NULL, &arr, &err));
  JGT_STATUS(JG_EINVAL, jg_array_export_arrow(a, &s, NULL, &err));
  struct ArrowDeviceArray da;
  JGT_STATUS(JG_EINVAL, jg_array_export_arrow_device(a, NULL, NULL, &da, &err));
  /* Option over option. */
  const uint8_t m[] = {1, 1};
  jg_array *o = bytem(2, m, true, bytem(2, m, true, jg_array_retain(a)));
  JGT_STATUS(JG_ENOTSUP, jg_array_export_arrow(o, &s, &arr, &err));
  JGT_CONTAINS(err.message, "option");
  JGT_CONTAINS(err.message, "$");
  assert_null(s.release);
  assert_null(arr.release);
  jg_array_release(o);
  /* The same inside a record: the path names the field. */
  jg_array *r = rec2("pt", jg_array_retain(a), "z",
                     bytem(2, m, true, bytem(2, m, false, jg_array_retain(a))));
  JGT_STATUS(JG_ENOTSUP, jg_array_export_arrow(r, &s, &arr, &err));
  JGT_CONTAINS(err.message, "$.z");
  assert_null(s.release);
  assert_null(arr.release);
  jg_array_release(r);
  jg_array_release(a);
}

/* Releasing children moved out of the parent leaves them usable (spec: move child arrays out,
 * then release the parent). */
static void test_export_move_child(void **state) {
  (void)state;
  const int64_t x[] = {1, 2, 3};
  const int64_t y[] = {4, 5, 6};
  jg_array *r = rec2("x", i64s(3, x), "y", i64s(3, y));
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(r, &s, &arr, &jgt_err_));
  jg_array_release(r);
  struct ArrowArray moved = *arr.children[1];
  arr.children[1]->release = NULL;
  arr.release(&arr);
  s.release(&s);
  assert_non_null(moved.release);
  assert_int_equal(((const int64_t *)moved.buffers[1])[2], 6);
  moved.release(&moved);
  assert_null(moved.release);
}

static void test_export_device_cpu(void **state) {
  (void)state;
  const int64_t c[] = {5, 6};
  jg_array *a = i64s(2, c);
  struct ArrowSchema s;
  struct ArrowDeviceArray da;
  memset(&da, 0x5A, sizeof da);
  JGT_OK(jg_array_export_arrow_device(a, NULL, &s, &da, &jgt_err_));
  assert_int_equal(da.device_type, ARROW_DEVICE_CPU);
  assert_int_equal(da.device_id, -1);
  assert_null(da.sync_event);
  for (int k = 0; k < 3; ++k) assert_int_equal(da.reserved[k], 0);
  assert_int_equal(da.array.length, 2);
  assert_int_equal(i64_buf(&da.array, 1)[1], 6);

  /* And back through the device import (CPU device type). */
  jg_array *b = NULL;
  JGT_OK(jg_array_import_arrow_device(&s, &da, NULL, &b, &jgt_err_));
  assert_null(da.array.release);
  assert_string_equal(str(b), "[5, 6]");
  assert_int_equal(jg_array_backend(b), JG_BACKEND_CPU);
  s.release(&s);
  jg_array_release(b);
  jg_array_release(a);

  /* Unsupported device types are refused without taking the array. */
  a = i64s(2, c);
  JGT_OK(jg_array_export_arrow_device(a, NULL, &s, &da, &jgt_err_));
  da.device_type = ARROW_DEVICE_METAL;
  jg_error err;
  JGT_STATUS(JG_ENOTSUP, jg_array_import_arrow_device(&s, &da, NULL, &b, &err));
  JGT_CONTAINS(err.message, "ARROW_DEVICE_METAL");
  assert_non_null(da.array.release);
  da.array.release(&da.array);
  s.release(&s);
  jg_array_release(a);
}

/* ------------------------------------------------------------------------------------------ */
/* Hand-built Arrow arrays for import                                                          */
/* ------------------------------------------------------------------------------------------ */

static int g_array_releases;
static int g_schema_releases;

typedef struct hnode {
  struct ArrowSchema s;
  struct ArrowArray a;
  const void *bufs[3];
  struct ArrowSchema *cs[4];
  struct ArrowArray *ca[4];
} hnode;

static void child_schema_release(struct ArrowSchema *s) {
  for (int64_t k = 0; k < s->n_children; ++k)
    if (s->children[k]->release != NULL) s->children[k]->release(s->children[k]);
  s->release = NULL;
}

static void child_array_release(struct ArrowArray *a) {
  for (int64_t k = 0; k < a->n_children; ++k)
    if (a->children[k]->release != NULL) a->children[k]->release(a->children[k]);
  a->release = NULL;
}

static void root_schema_release(struct ArrowSchema *s) {
  child_schema_release(s);
  ++g_schema_releases;
}

static void root_array_release(struct ArrowArray *a) {
  child_array_release(a);
  ++g_array_releases;
}

static void hinit(hnode *h, const char *format, const char *name, int64_t length, int64_t offset,
                  int64_t null_count, int64_t n_buffers, const void *b0, const void *b1) {
  memset(h, 0, sizeof *h);
  h->bufs[0] = b0;
  h->bufs[1] = b1;
  h->s.format = format;
  h->s.name = name;
  h->s.release = child_schema_release;
  h->s.children = h->cs;
  h->a.length = length;
  h->a.offset = offset;
  h->a.null_count = null_count;
  h->a.n_buffers = n_buffers;
  h->a.buffers = h->bufs;
  h->a.children = h->ca;
  h->a.release = child_array_release;
}

static void hadd(hnode *h, hnode *child) {
  h->cs[h->s.n_children++] = &child->s;
  h->ca[h->a.n_children++] = &child->a;
}

static void hroot(hnode *h) {
  h->s.release = root_schema_release;
  h->a.release = root_array_release;
  g_array_releases = 0;
  g_schema_releases = 0;
}

/* Imports h; the schema stays the caller's and is released here right away (allowed). */
static jg_array *import_ok(hnode *h) {
  jg_array *out = NULL;
  JGT_OK(jg_array_import_arrow(&h->s, &h->a, &out, &jgt_err_));
  assert_null(h->a.release); /* moved */
  assert_non_null(h->s.release);
  h->s.release(&h->s);
  assert_int_equal(g_schema_releases, 1);
  return out;
}

/* Expects an import failure that takes nothing; releases the struct afterwards itself. */
static void import_fails(hnode *h, jg_status status, const char *needle) {
  jg_array *out = (jg_array *)(uintptr_t)1;
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(status, jg_array_import_arrow(&h->s, &h->a, &out, &err));
  if (needle != NULL) JGT_CONTAINS(err.message, needle);
  assert_null(out);
  assert_int_equal(g_array_releases, 0);
  assert_non_null(h->a.release); /* not taken */
  h->a.release(&h->a);
  h->s.release(&h->s);
  assert_int_equal(g_array_releases, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Import                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void test_import_primitive_release_once(void **state) {
  (void)state;
  const int32_t data[] = {9, 1, 2, 3, 9};
  hnode h;
  hinit(&h, "i", "x", 3, 1, 0, 2, NULL, data); /* offset 1: [1, 2, 3] */
  hroot(&h);
  jg_array *a = import_ok(&h);
  assert_int_equal(g_array_releases, 0);
  assert_int_equal(jg_array_kind(a), JG_NODE_NUMERIC);
  assert_int_equal(jg_array_length(a), 3);
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, JG_DTYPE_INT32);
  assert_ptr_equal(jg_view_data(&v), &data[1]); /* zero-copy, offset honoured */
  assert_int_equal(view_int(&v, 2), 3);
  /* A slice keeps the Arrow memory alive after the original is gone. */
  jg_array *s = slice(a, 1, 3);
  jg_array_release(a);
  assert_int_equal(g_array_releases, 0);
  assert_string_equal(str(s), "[2, 3]");
  jg_array_release(s);
  assert_int_equal(g_array_releases, 1);
}

static void test_import_all_primitives(void **state) {
  (void)state;
  static const struct {
    const char *format;
    jg_dtype dtype;
  } cases[] = {{"c", JG_DTYPE_INT8},    {"C", JG_DTYPE_UINT8},  {"s", JG_DTYPE_INT16},
               {"S", JG_DTYPE_UINT16},  {"i", JG_DTYPE_INT32},  {"I", JG_DTYPE_UINT32},
               {"l", JG_DTYPE_INT64},   {"L", JG_DTYPE_UINT64}, {"e", JG_DTYPE_FLOAT16},
               {"f", JG_DTYPE_FLOAT32}, {"g", JG_DTYPE_FLOAT64}};
  const uint8_t bytes[16] = {0};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    hnode h;
    hinit(&h, cases[c].format, NULL, 16 / jg_dtype_itemsize(cases[c].dtype), 0, 0, 2, NULL, bytes);
    hroot(&h);
    jg_array *a = import_ok(&h);
    jg_view v;
    JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
    assert_int_equal(v.dtype, cases[c].dtype);
    assert_int_equal(jg_array_length(a), 16 / jg_dtype_itemsize(cases[c].dtype));
    jg_array_release(a);
    assert_int_equal(g_array_releases, 1);
  }
}

static void test_import_bool(void **state) {
  (void)state;
  /* bits 0b10110100 0b00000001, offset 2, length 7: bits 2..8 = 1 0 1 1 0 1 1. */
  const uint8_t bits[] = {0xB4, 0x01};
  hnode h;
  hinit(&h, "b", NULL, 7, 2, 0, 2, NULL, bits);
  hroot(&h);
  jg_array *a = import_ok(&h);
  /* Unpacked into a new buffer: the Arrow array is not needed any more. */
  assert_int_equal(g_array_releases, 1);
  assert_string_equal(str(a), "[True, False, True, True, False, True, True]");
  jg_array_release(a);
}

static void test_import_validity_with_offset(void **state) {
  (void)state;
  /* validity 0b10110110 (bits 1, 2, 4, 5, 7 set), offset 3, length 5: entries 3..7 ->
   * valid: 0, 1, 1, 0, 1 */
  const uint8_t valid[] = {0xB6};
  const int64_t data[] = {0, 1, 2, 3, 4, 5, 6, 7};
  hnode h;
  hinit(&h, "l", NULL, 5, 3, 2, 2, valid, data);
  hroot(&h);
  jg_array *a = import_ok(&h);
  assert_int_equal(jg_array_kind(a), JG_NODE_BIT_MASKED);
  assert_true(jg_array_valid_when(a));
  assert_true(jg_array_lsb_order(a));
  assert_int_equal(a->bit_offset, 3);
  assert_string_equal(str(a), "[None, 4, 5, None, 7]");
  assert_string_equal(typ(a), "5 * ?int64");
  /* Export again: the bitmap is rebuilt from bit 0 (0b10110 = 0x16). */
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  assert_int_equal(((const uint8_t *)arr.buffers[0])[0], 0x16);
  assert_int_equal(arr.null_count, 2);
  assert_int_equal(i64_buf(&arr, 1)[0], 3);
  jg_array_release(a);
  assert_int_equal(g_array_releases, 0); /* the export still points into the Arrow data */
  release_export(&s, &arr);
  assert_int_equal(g_array_releases, 1);

  /* null_count 0 with a NULL bitmap: no option. */
  hinit(&h, "l", NULL, 2, 0, 0, 2, NULL, data);
  hroot(&h);
  a = import_ok(&h);
  assert_int_equal(jg_array_kind(a), JG_NODE_NUMERIC);
  jg_array_release(a);
  /* null_count -1 (unknown) with a NULL bitmap: no nulls either. */
  hinit(&h, "l", NULL, 2, 0, -1, 2, NULL, data);
  hroot(&h);
  a = import_ok(&h);
  assert_int_equal(jg_array_kind(a), JG_NODE_NUMERIC);
  jg_array_release(a);
}

static void test_import_list(void **state) {
  (void)state;
  /* list<float64>: offsets [9, 3, 5, 5, 8] with offset 1, length 3 -> [[3, 4], [], [5, 6, 7]];
   * the child has 10 values (past the last offset too). */
  const int32_t ofs[] = {9, 3, 5, 5, 8};
  const double vals[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  hnode h;
  hnode c;
  hinit(&h, "+l", "", 3, 1, 0, 2, NULL, ofs);
  hinit(&c, "g", "item", 10, 0, 0, 2, NULL, vals);
  hadd(&h, &c);
  hroot(&h);
  jg_array *a = import_ok(&h);
  assert_int_equal(jg_array_kind(a), JG_NODE_LIST_OFFSET);
  assert_string_equal(str(a), "[[3, 4], [], [5, 6, 7]]");
  jg_view ov;
  JGT_OK(jg_array_buffer(a, 0, &ov, &jgt_err_));
  assert_int_equal(ov.dtype, JG_DTYPE_INT32);
  assert_ptr_equal(jg_view_data(&ov), &ofs[1]);
  assert_int_equal(jg_array_length(jg_array_child(a, 0)), 10);
  jg_array_release(a);
  assert_int_equal(g_array_releases, 1);

  /* large list "+L", empty lists only. */
  const int64_t ofs64[] = {4, 4, 4};
  hinit(&h, "+L", NULL, 2, 0, 0, 2, NULL, ofs64);
  hinit(&c, "g", NULL, 10, 0, 0, 2, NULL, vals);
  hadd(&h, &c);
  hroot(&h);
  a = import_ok(&h);
  assert_string_equal(str(a), "[[], []]");
  jg_view ov64;
  JGT_OK(jg_array_buffer(a, 0, &ov64, &jgt_err_));
  assert_int_equal(ov64.dtype, JG_DTYPE_INT64);
  jg_array_release(a);

  /* An empty list array without an offsets buffer gets the single offset 0. */
  hinit(&h, "+L", NULL, 0, 0, 0, 2, NULL, NULL);
  hinit(&c, "g", NULL, 0, 0, 0, 2, NULL, NULL);
  hadd(&h, &c);
  hroot(&h);
  a = import_ok(&h);
  assert_int_equal(jg_array_length(a), 0);
  JGT_OK(jg_array_buffer(a, 0, &ov64, &jgt_err_));
  assert_int_equal(ov64.layout.shape[0], 1);
  assert_int_equal(view_int(&ov64, 0), 0);
  assert_string_equal(typ(a), "0 * var * float64");
  jg_array_release(a);
  assert_int_equal(g_array_releases, 1);
}

static void test_import_fixed_size_list(void **state) {
  (void)state;
  /* +w:2 with offset 1, length 2 over [0..7]: [[2, 3], [4, 5]]. */
  const int16_t vals[] = {0, 1, 2, 3, 4, 5, 6, 7};
  hnode h;
  hnode c;
  hinit(&h, "+w:2", NULL, 2, 1, 0, 1, NULL, NULL);
  hinit(&c, "s", NULL, 8, 0, 0, 2, NULL, vals);
  hadd(&h, &c);
  hroot(&h);
  jg_array *a = import_ok(&h);
  assert_int_equal(jg_array_kind(a), JG_NODE_REGULAR);
  assert_int_equal(jg_array_regular_size(a), 2);
  assert_string_equal(str(a), "[[2, 3], [4, 5]]");
  assert_string_equal(typ(a), "2 * 2 * int16");
  jg_array_release(a);
  /* +w:0 keeps its length. */
  hinit(&h, "+w:0", NULL, 3, 0, 0, 1, NULL, NULL);
  hinit(&c, "s", NULL, 0, 0, 0, 2, NULL, NULL);
  hadd(&h, &c);
  hroot(&h);
  a = import_ok(&h);
  assert_int_equal(jg_array_length(a), 3);
  assert_string_equal(str(a), "[[], [], []]");
  jg_array_release(a);
}

static void test_import_struct(void **state) {
  (void)state;
  /* struct<x: int64, y: float64> with offset 1, length 2; child y has its own offset 1. */
  const int64_t x[] = {1, 2, 3};
  const double y[] = {-1, 0.5, 1.5, 2.5};
  hnode h;
  hnode cx;
  hnode cy;
  hinit(&h, "+s", NULL, 2, 1, 0, 1, NULL, NULL);
  hinit(&cx, "l", "x", 3, 0, 0, 2, NULL, x);
  hinit(&cy, "g", "y", 3, 1, 0, 2, NULL, y);
  hadd(&h, &cx);
  hadd(&h, &cy);
  hroot(&h);
  jg_array *a = import_ok(&h);
  assert_int_equal(jg_array_kind(a), JG_NODE_RECORD);
  assert_string_equal(jg_array_field_name(a, 1), "y");
  assert_string_equal(str(a), "[{x: 2, y: 1.5}, {x: 3, y: 2.5}]");
  jg_array_release(a);
  assert_int_equal(g_array_releases, 1);

  /* Fields named "0", "1" (or unnamed) make a tuple. */
  hinit(&h, "+s", NULL, 3, 0, 0, 1, NULL, NULL);
  hinit(&cx, "l", "0", 3, 0, 0, 2, NULL, x);
  hinit(&cy, "g", NULL, 3, 0, 0, 2, NULL, y);
  hadd(&h, &cx);
  hadd(&h, &cy);
  hroot(&h);
  a = import_ok(&h);
  assert_null(jg_array_field_name(a, 0));
  assert_string_equal(typ(a), "3 * (int64, float64)");
  jg_array_release(a);

  /* A struct of no fields keeps its length. */
  hinit(&h, "+s", NULL, 4, 0, 0, 1, NULL, NULL);
  hroot(&h);
  a = import_ok(&h);
  assert_int_equal(jg_array_length(a), 4);
  assert_int_equal(jg_array_num_children(a), 0);
  jg_array_release(a);
  assert_int_equal(g_array_releases, 1);
}

static void test_import_null(void **state) {
  (void)state;
  hnode h;
  hinit(&h, "n", NULL, 3, 0, 3, 0, NULL, NULL);
  hroot(&h);
  jg_array *a = import_ok(&h);
  assert_int_equal(g_array_releases, 1); /* no buffer points into it: released at once */
  assert_int_equal(jg_array_kind(a), JG_NODE_INDEXED_OPTION);
  assert_string_equal(str(a), "[None, None, None]");
  assert_string_equal(typ(a), "3 * ?unknown");
  jg_array_release(a);
  hinit(&h, "n", NULL, 0, 0, 0, 0, NULL, NULL);
  hroot(&h);
  a = import_ok(&h);
  assert_int_equal(jg_array_kind(a), JG_NODE_EMPTY);
  jg_array_release(a);
}

/* list<struct<pt: float32, q: int8>> where the struct has validity, and the list too:
 * [[{1.5, 1}, None], None, [], [{4.5, -1}]], with the list sliced by offset 1. */
static void test_import_nested_lists_of_records(void **state) {
  (void)state;
  const int32_t ofs[] = {0, 0, 2, 2, 2, 3};
  const uint8_t list_valid[] = {0x1B}; /* entries 0..4: 1 1 0 1 1 -> offset 1: 1 0 1 1 */
  const uint8_t rec_valid[] = {0x05};  /* records 0..2: 1 0 1 */
  const float pt[] = {1.5f, 99.0f, 4.5f};
  const int8_t q[] = {1, 0, -1};
  hnode l;
  hnode r;
  hnode cpt;
  hnode cq;
  hinit(&l, "+l", NULL, 4, 1, 1, 2, list_valid, ofs);
  hinit(&r, "+s", "item", 3, 0, 1, 1, rec_valid, NULL);
  hinit(&cpt, "f", "pt", 3, 0, 0, 2, NULL, pt);
  hinit(&cq, "c", "q", 3, 0, 0, 2, NULL, q);
  hadd(&r, &cpt);
  hadd(&r, &cq);
  hadd(&l, &r);
  hroot(&l);
  jg_array *a = import_ok(&l);
  assert_string_equal(typ(a), "4 * option[var * ?{pt: float32, q: int8}]");
  assert_string_equal(str(a), "[[{pt: 1.5, q: 1}, None], None, [], [{pt: 4.5, q: -1}]]");

  /* Round trip through Arrow and back. */
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  assert_string_equal(s.format, "+l");
  assert_string_equal(s.children[0]->format, "+s");
  assert_int_equal(arr.null_count, 1);
  assert_int_equal(arr.children[0]->null_count, 1);
  jg_array *b = NULL;
  JGT_OK(jg_array_import_arrow(&s, &arr, &b, &jgt_err_));
  s.release(&s);
  assert_string_equal(str(b), "[[{pt: 1.5, q: 1}, None], None, [], [{pt: 4.5, q: -1}]]");
  jg_array_release(a);
  assert_int_equal(g_array_releases, 0);
  jg_array_release(b);
  assert_int_equal(g_array_releases, 1);
}

static void test_import_errors(void **state) {
  (void)state;
  const int64_t data[] = {1, 2, 3, 4};
  const int32_t ofs[] = {0, 2, 9};
  hnode h;
  hnode c;
  hnode c2;
  jg_array *out = NULL;
  jg_error err;

  /* NULL arguments and released structs. */
  hinit(&h, "l", NULL, 2, 0, 0, 2, NULL, data);
  hroot(&h);
  JGT_STATUS(JG_EINVAL, jg_array_import_arrow(NULL, &h.a, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_import_arrow(&h.s, NULL, &out, &err));
  JGT_STATUS(JG_EINVAL, jg_array_import_arrow(&h.s, &h.a, NULL, &err));
  h.a.release = NULL;
  JGT_STATUS(JG_EINVAL, jg_array_import_arrow(&h.s, &h.a, &out, &err));
  JGT_CONTAINS(err.message, "released");

  /* Unsupported formats name the format and the path. */
  hinit(&h, "u", NULL, 2, 0, 0, 3, NULL, data);
  hroot(&h);
  import_fails(&h, JG_ENOTSUP, "\"u\" at $");
  hinit(&h, "+s", NULL, 2, 0, 0, 1, NULL, NULL);
  hinit(&c, "l", "pt", 2, 0, 0, 2, NULL, data);
  hinit(&c2, "tdD", "when", 2, 0, 0, 2, NULL, data);
  hadd(&h, &c);
  hadd(&h, &c2);
  hroot(&h);
  import_fails(&h, JG_ENOTSUP, "\"tdD\" at $.when");
  hinit(&h, "+L", NULL, 1, 0, 0, 2, NULL, data);
  hinit(&c, "+vl", NULL, 0, 0, 0, 3, NULL, NULL);
  hadd(&h, &c);
  hroot(&h);
  import_fails(&h, JG_ENOTSUP, "$[]");
  /* Dictionary-encoded. */
  hinit(&h, "i", NULL, 2, 0, 0, 2, NULL, data);
  struct ArrowSchema dict;
  memset(&dict, 0, sizeof dict);
  h.s.dictionary = &dict;
  hroot(&h);
  import_fails(&h, JG_ENOTSUP, "dictionary");

  /* Bad structures. */
  hinit(&h, "l", NULL, 2, 0, 0, 1, NULL, data); /* n_buffers 1 */
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "buffers");
  hinit(&h, "l", NULL, 2, 0, 0, 2, NULL, NULL); /* NULL data */
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "NULL");
  hinit(&h, "l", NULL, -1, 0, 0, 2, NULL, data); /* negative length */
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "negative length");
  hinit(&h, "l", NULL, 1, -2, 0, 2, NULL, data); /* negative offset */
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "negative offset");
  hinit(&h, "l", NULL, 2, 0, 1, 2, NULL, data); /* nulls without a bitmap */
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "validity");
  hinit(&h, "+w:x", NULL, 1, 0, 0, 1, NULL, NULL);
  hinit(&c, "l", NULL, 2, 0, 0, 2, NULL, data);
  hadd(&h, &c);
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "+w:x");
  hinit(&h, "+l", NULL, 2, 0, 0, 2, NULL, ofs); /* last offset 9 past the child's 4 */
  hinit(&c, "l", NULL, 4, 0, 0, 2, NULL, data);
  hadd(&h, &c);
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "offsets");
  hinit(&h, "+l", NULL, 1, 0, 0, 2, NULL, NULL); /* NULL offsets with a list */
  hinit(&c, "l", NULL, 4, 0, 0, 2, NULL, data);
  hadd(&h, &c);
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "offsets buffer");
  hinit(&h, "+l", NULL, 1, 0, 0, 2, NULL, ofs); /* no child */
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "children");
  hinit(&h, "+s", NULL, 3, 0, 0, 1, NULL, NULL); /* field shorter than the struct */
  hinit(&c, "l", "a", 2, 0, 0, 2, NULL, data);
  hadd(&h, &c);
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "$.a");
  hinit(&h, "+w:3", NULL, 2, 0, 0, 1, NULL, NULL); /* child of 4 < 2 * 3 */
  hinit(&c, "l", NULL, 4, 0, 0, 2, NULL, data);
  hadd(&h, &c);
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "$[]");
  hinit(&h, "+s", NULL, 2, 0, 0, 1, NULL, NULL); /* duplicate names */
  hinit(&c, "l", "a", 2, 0, 0, 2, NULL, data);
  hinit(&c2, "l", "a", 2, 0, 0, 2, NULL, data);
  hadd(&h, &c);
  hadd(&h, &c2);
  hroot(&h);
  import_fails(&h, JG_ENOTSUP, "\"a\"");
  /* Schema and array disagree on the children. */
  hinit(&h, "+s", NULL, 2, 0, 0, 1, NULL, NULL);
  hinit(&c, "l", "a", 2, 0, 0, 2, NULL, data);
  hadd(&h, &c);
  h.s.n_children = 0;
  hroot(&h);
  import_fails(&h, JG_ECORRUPT, "children");
  /* A failure deep inside, after buffers were wrapped, still takes nothing. */
  hinit(&h, "+s", NULL, 2, 0, 0, 1, NULL, NULL);
  hinit(&c, "l", "a", 2, 0, 0, 2, NULL, data);
  hinit(&c2, "z", "b", 2, 0, 0, 3, NULL, data);
  hadd(&h, &c);
  hadd(&h, &c2);
  hroot(&h);
  import_fails(&h, JG_ENOTSUP, "$.b");
}

/* ------------------------------------------------------------------------------------------ */
/* Round trips jagged -> Arrow -> jagged                                                       */
/* ------------------------------------------------------------------------------------------ */

/* Exports `a`, imports the result, and checks the printouts and types agree; then exports the
 * import again and checks the formats agree with the first export. Consumes `a`. */
static void roundtrip(jg_array *a, const char *want_str, const char *want_type) {
  char s0[2048];
  char t0[512];
  snprintf(s0, sizeof s0, "%s", str(a));
  snprintf(t0, sizeof t0, "%s", typ(a));
  if (want_str != NULL) assert_string_equal(s0, want_str);
  if (want_type != NULL) assert_string_equal(t0, want_type);
  struct ArrowSchema s;
  struct ArrowArray arr;
  JGT_OK(jg_array_export_arrow(a, &s, &arr, &jgt_err_));
  check_level(&s, &arr);
  jg_array_release(a);
  jg_array *b = NULL;
  JGT_OK(jg_array_import_arrow(&s, &arr, &b, &jgt_err_));
  assert_string_equal(str(b), s0);
  assert_string_equal(typ(b), t0);
  struct ArrowSchema s2;
  struct ArrowArray arr2;
  JGT_OK(jg_array_export_arrow(b, &s2, &arr2, &jgt_err_));
  assert_string_equal(s2.format, s.format);
  assert_int_equal(arr2.length, b->length);
  s.release(&s);
  s2.release(&s2);
  arr2.release(&arr2);
  jg_array_release(b);
}

static void test_roundtrip_every_kind(void **state) {
  (void)state;
  const int64_t v[] = {0, 1, 2, 3, 4, 5, 6, 7};
  const double d[] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
  const int64_t ofs[] = {1, 3, 3, 6};
  const uint8_t bools[] = {1, 0, 0, 1};
  roundtrip(i64s(3, v), "[0, 1, 2]", "3 * int64");
  roundtrip(num(JG_DTYPE_BOOL, 4, bools), "[True, False, False, True]", "4 * bool");
  roundtrip(lo(JG_DTYPE_INT64, 4, ofs, num(JG_DTYPE_FLOAT64, 6, d)),
            "[[2.5, 3.5], [], [4.5, 5.5, 6.5]]", "3 * var * float64");
  const int64_t s1[] = {4, 0};
  const int64_t t1[] = {6, 1};
  roundtrip(lst(2, s1, t1, i64s(8, v)), "[[4, 5], [0]]", "2 * var * int64");
  roundtrip(reg(i64s(6, v), 2), "[[0, 1], [2, 3], [4, 5]]", "3 * 2 * int64");
  roundtrip(rec2("a", i64s(2, v), "b", num(JG_DTYPE_FLOAT64, 2, d)),
            "[{a: 0, b: 1.5}, {a: 1, b: 2.5}]", "2 * {a: int64, b: float64}");
  roundtrip(rec2(NULL, i64s(2, v), NULL, num(JG_DTYPE_FLOAT64, 2, d)), "[(0, 1.5), (1, 2.5)]",
            "2 * (int64, float64)");
  const uint8_t m[] = {0, 1, 1};
  roundtrip(bytem(3, m, true, i64s(3, v)), "[None, 1, 2]", "3 * ?int64");
  const uint8_t bm[] = {0x05};
  roundtrip(bitm(1, bm, true, true, 3, i64s(3, v)), "[0, None, 2]", "3 * ?int64");
  const int64_t ix[] = {-1, 2};
  roundtrip(idxo(2, ix, i64s(3, v)), "[None, 2]", "2 * ?int64");
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  roundtrip(e, "[]", "0 * unknown");
  /* Sliced arrays of every list kind, and empty ones. */
  jg_array *l = lo(JG_DTYPE_INT64, 4, ofs, num(JG_DTYPE_FLOAT64, 6, d));
  roundtrip(slice(l, 1, 3), "[[], [4.5, 5.5, 6.5]]", NULL);
  roundtrip(slice(l, 3, 3), "[]", "0 * var * float64");
  jg_array_release(l);
}

static void test_roundtrip_options_over_lists_and_records(void **state) {
  (void)state;
  const int64_t v[] = {0, 1, 2, 3, 4, 5};
  const int64_t ofs[] = {0, 2, 2, 5};
  const uint8_t m[] = {1, 0, 1};
  roundtrip(bytem(3, m, true, lo(JG_DTYPE_INT64, 4, ofs, i64s(6, v))), "[[0, 1], None, [2, 3, 4]]",
            "3 * option[var * int64]");
  roundtrip(bytem(3, m, true, rec2("x", i64s(3, v), "y", i64s(3, v + 3))),
            "[{x: 0, y: 3}, None, {x: 2, y: 5}]", "3 * ?{x: int64, y: int64}");
  roundtrip(bytem(3, m, true, reg(i64s(6, v), 2)), "[[0, 1], None, [4, 5]]",
            "3 * option[2 * int64]");
  /* var * ?int64 inside a record inside a list. */
  const uint8_t m6[] = {1, 1, 0, 1, 0, 1};
  jg_array *inner = lo(JG_DTYPE_INT64, 4, ofs, bytem(6, m6, true, i64s(6, v)));
  jg_array *r = rec2("v", inner, "w", num(JG_DTYPE_FLOAT64, 3, (const double[]){1, 2, 3}));
  const int64_t outer[] = {0, 1, 3};
  roundtrip(lo(JG_DTYPE_INT64, 3, outer, r),
            "[[{v: [0, 1], w: 1}], [{v: [], w: 2}, {v: [None, 3, None], w: 3}]]",
            "2 * var * {v: var * ?int64, w: float64}");
}

static void test_host_bit_helpers(void **state) {
  (void)state;
  /* Values -> bits: int32 index [3, -1, 0, -7, 2] with stride 1 -> NONNEG 0b10101. */
  const int32_t ix[] = {3, -1, 0, -7, 2};
  uint8_t out[2] = {0xFF, 0xFF};
  assert_int_equal(jgi_arrow_bits_from_values_host(ix, 1, 4, JGI_ARROW_BITS_NONNEG, 5, out), 3);
  assert_int_equal(out[0], 0x15);
  /* Strided bytes (every other) with ZERO: [0, 5, 0, 0] -> 1 0 1 1. */
  const int8_t by[] = {0, 9, 5, 9, 0, 9, 0};
  assert_int_equal(jgi_arrow_bits_from_values_host(by, 2, 1, JGI_ARROW_BITS_ZERO, 4, out), 3);
  assert_int_equal(out[0], 0x0D);
  /* int64 with a negative stride: from the last element backwards. */
  const int64_t v8[] = {0, 0, 7};
  assert_int_equal(jgi_arrow_bits_from_values_host(&v8[2], -1, 8, JGI_ARROW_BITS_NONZERO, 3, out),
                   1);
  assert_int_equal(out[0], 0x01);
  /* Realign: bits 5.. of 0b11100000 0b00000101 (lsb) = 1 1 1 1 0 1 0 -> 0x2F. */
  const uint8_t src[] = {0xE0, 0x05};
  assert_int_equal(jgi_arrow_bits_realign_host(src, 1, 5, true, false, 7, out), 5);
  assert_int_equal(out[0], 0x2F);
  assert_int_equal(jgi_arrow_bits_realign_host(src, 1, 5, true, true, 7, out), 2);
  assert_int_equal(out[0], 0x50);
  /* MSB order: bits 0..3 of 0xA0 msb-first = 1 0 1 0 -> 0b0101. */
  const uint8_t msb[] = {0xA0};
  jgi_arrow_bits_realign_host(msb, 1, 0, false, false, 4, out);
  assert_int_equal(out[0], 0x05);
  /* Unpack and count. */
  uint8_t bytes[9];
  jgi_arrow_bits_unpack_host(src, 4, 9, bytes);
  const uint8_t want[9] = {0, 1, 1, 1, 1, 0, 1, 0, 0};
  assert_memory_equal(bytes, want, 9);
  assert_int_equal(jgi_arrow_bits_count_host(src, 16), 5);
  assert_int_equal(jgi_arrow_bits_count_host(src, 0), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_export_numeric_zero_copy),
      cmocka_unit_test(test_export_formats),
      cmocka_unit_test(test_export_bool_bits),
      cmocka_unit_test(test_export_strided_compacts),
      cmocka_unit_test(test_export_inner_dims),
      cmocka_unit_test(test_export_list_offset),
      cmocka_unit_test(test_export_strided_offsets),
      cmocka_unit_test(test_export_list_starts_stops),
      cmocka_unit_test(test_export_regular),
      cmocka_unit_test(test_export_record_and_tuple),
      cmocka_unit_test(test_export_byte_masked),
      cmocka_unit_test(test_export_bit_masked),
      cmocka_unit_test(test_export_indexed_option),
      cmocka_unit_test(test_export_empty),
      cmocka_unit_test(test_export_errors),
      cmocka_unit_test(test_export_move_child),
      cmocka_unit_test(test_export_device_cpu),
      cmocka_unit_test(test_import_primitive_release_once),
      cmocka_unit_test(test_import_all_primitives),
      cmocka_unit_test(test_import_bool),
      cmocka_unit_test(test_import_validity_with_offset),
      cmocka_unit_test(test_import_list),
      cmocka_unit_test(test_import_fixed_size_list),
      cmocka_unit_test(test_import_struct),
      cmocka_unit_test(test_import_null),
      cmocka_unit_test(test_import_nested_lists_of_records),
      cmocka_unit_test(test_import_errors),
      cmocka_unit_test(test_roundtrip_every_kind),
      cmocka_unit_test(test_roundtrip_options_over_lists_and_records),
      cmocka_unit_test(test_host_bit_helpers),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
