/* test_reliability_views.c: constructors that take a view check its layout and that it fits its
 * buffer, and jg_array_validate checks the same of every buffer view of a tree (a node edited
 * through the internal struct stands for one the public constructors would refuse).
 *
 * Each bad view is a valid 1-D view of 4 elements over a buffer of exactly 4 elements, with one
 * field changed: a stride of INT64_MAX over 3 elements, a negative extent, an extent past the
 * buffer, a slice offset before or past it, a base pointer moved past it, a negative stride
 * reaching below it, an ndim past JG_MAX_NDIM. Every constructor that takes a view gets every
 * bad view, for every buffer it takes; the expected statuses follow from the layout rules
 * (layout.h): invalid layouts are JG_EINVAL or JG_EOVERFLOW, elements outside the buffer
 * JG_ESHAPE. */
#include "internal/jgi_array.h"
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Bad views                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct bad_view {
  const char *name;
  jg_status status; /* what a constructor returns */
  const char *message;
} bad_view;

enum { kBadStride, kNegExtent, kPastEnd, kOffsetPast, kOffsetBefore, kBaseMoved, kNegStride,
       kBigNdim, kNumBad };

static const bad_view kBad[kNumBad] = {
    {"stride INT64_MAX over 3", JG_EOVERFLOW, "overflows int64"},
    {"extent -3", JG_EINVAL, "extents must be non-negative"},
    {"extent 5 over 4", JG_ESHAPE, "outside the buffer's"},
    {"slice offset 2, extent 3", JG_ESHAPE, "outside the buffer's"},
    {"slice offset -1", JG_ESHAPE, "outside the buffer's"},
    {"base moved 2 elements on", JG_ESHAPE, "outside the buffer's"},
    {"stride -1 from offset 0", JG_ESHAPE, "outside the buffer's"},
    {"ndim 65", JG_EINVAL, "ndim 65"},
};

/* A valid dense view of 4 elements of `dtype` (values 0, 1, 1, 2) over a host buffer of exactly
 * 4 elements; the caller releases v.buffer. */
static jg_view good_view(jg_dtype dtype) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), (size_t)(4 * isz), NULL, &buf, &jgt_err_));
  unsigned char *p = jg_buffer_data(buf);
  memset(p, 0, (size_t)(4 * isz));
  p[isz] = 1; /* little-endian low bytes: 0, 1, 1, 2 */
  p[2 * isz] = 1;
  p[3 * isz] = 2;
  const jg_len n = 4;
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, isz, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, buf, &l, dtype, false, &jgt_err_));
  return v;
}

/* `v` with bad change `k` applied. */
static jg_view make_bad(jg_view v, int k) {
  switch (k) {
    case kBadStride:
      v.layout.shape[0] = 3;
      v.layout.strides[0] = INT64_MAX;
      break;
    case kNegExtent:
      v.layout.shape[0] = -3;
      break;
    case kPastEnd:
      v.layout.shape[0] = 5;
      break;
    case kOffsetPast:
      v.layout.shape[0] = 3;
      v.layout.slice_offset = 2;
      break;
    case kOffsetBefore:
      v.layout.slice_offset = -1;
      break;
    case kBaseMoved:
      v.base = (char *)v.base + 2 * v.layout.itemsize;
      break;
    case kNegStride:
      v.layout.shape[0] = 2;
      v.layout.strides[0] = -1;
      break;
    case kBigNdim:
      v.layout.ndim = JG_MAX_NDIM + 1;
      break;
  }
  return v;
}

/* ------------------------------------------------------------------------------------------ */
/* Every constructor that takes a view                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Calls one constructor with `v` in the place under test (the other views good). */
typedef jg_status (*ctor_fn)(const jg_view *v, jg_array **out, jg_error *err);

static jg_array *content8(void) {
  static const int64_t vals[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  jg_array *c = NULL;
  JGT_OK(jg_array_from_host(vals, 8, JG_DTYPE_INT64, &c, &jgt_err_));
  return c;
}

static jg_status ctor_numeric(const jg_view *v, jg_array **out, jg_error *err) {
  return jg_array_numeric(v, out, err);
}

static jg_status ctor_list_offset(const jg_view *v, jg_array **out, jg_error *err) {
  jg_array *c = content8();
  const jg_status st = jg_array_list_offset(v, c, out, err);
  jg_array_release(c);
  return st;
}

static jg_status ctor_list_starts(const jg_view *v, jg_array **out, jg_error *err) {
  jg_array *c = content8();
  jg_view stops = good_view(JG_DTYPE_INT64);
  const jg_status st = jg_array_list(v, &stops, c, out, err);
  jg_buffer_release(stops.buffer);
  jg_array_release(c);
  return st;
}

static jg_status ctor_list_stops(const jg_view *v, jg_array **out, jg_error *err) {
  jg_array *c = content8();
  jg_view starts = good_view(JG_DTYPE_INT64);
  starts.layout.shape[0] = 2; /* fewer starts than stops: a shorter bad stops still is checked */
  const jg_status st = jg_array_list(&starts, v, c, out, err);
  jg_buffer_release(starts.buffer);
  jg_array_release(c);
  return st;
}

static jg_status ctor_byte_masked(const jg_view *v, jg_array **out, jg_error *err) {
  jg_array *c = content8();
  const jg_status st = jg_array_byte_masked(v, true, c, out, err);
  jg_array_release(c);
  return st;
}

static jg_status ctor_bit_masked(const jg_view *v, jg_array **out, jg_error *err) {
  jg_array *c = content8();
  const jg_status st = jg_array_bit_masked(v, true, true, 8, c, out, err);
  jg_array_release(c);
  return st;
}

static jg_status ctor_indexed(const jg_view *v, jg_array **out, jg_error *err) {
  jg_array *c = content8();
  const jg_status st = jg_array_indexed_option(v, c, out, err);
  jg_array_release(c);
  return st;
}

static jg_status ctor_from_counts(const jg_view *v, jg_array **out, jg_error *err) {
  jg_array *c8 = content8(), *c = NULL; /* the good counts 0, 1, 1, 2 add up to 4 */
  JGT_OK(jg_array_slice(c8, 0, 4, &c, &jgt_err_));
  jg_array_release(c8);
  const jg_status st = jg_array_from_counts(v, c, NULL, out, err);
  jg_array_release(c);
  return st;
}

typedef struct ctor_case {
  const char *name;
  ctor_fn fn;
  jg_dtype dtype;
} ctor_case;

static const ctor_case kCtors[] = {
    {"jg_array_numeric", ctor_numeric, JG_DTYPE_FLOAT64},
    {"jg_array_list_offset", ctor_list_offset, JG_DTYPE_INT64},
    {"jg_array_list (starts)", ctor_list_starts, JG_DTYPE_INT64},
    {"jg_array_list (stops)", ctor_list_stops, JG_DTYPE_INT64},
    {"jg_array_byte_masked", ctor_byte_masked, JG_DTYPE_INT8},
    {"jg_array_bit_masked", ctor_bit_masked, JG_DTYPE_UINT8},
    {"jg_array_indexed_option", ctor_indexed, JG_DTYPE_INT32},
    {"jg_array_from_counts", ctor_from_counts, JG_DTYPE_INT64},
};

static void test_constructors_refuse_bad_views(void **state) {
  (void)state;
  for (size_t c = 0; c < sizeof kCtors / sizeof kCtors[0]; c++) {
    jg_view good = good_view(kCtors[c].dtype);
    /* The good view is accepted (control), with the buffer's reference count back after. */
    jg_array *a = NULL;
    jg_error err;
    jg_error_clear(&err);
    if (kCtors[c].fn(&good, &a, &err) != JG_OK) {
      print_error("%s refuses the good view: %s\n", kCtors[c].name, err.message);
      fail();
    }
    JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
    jg_array_release(a);
    for (int k = 0; k < kNumBad; k++) {
      const jg_view bad = make_bad(good, k);
      a = (jg_array *)&err; /* must be set to NULL */
      jg_error_clear(&err);
      const jg_status st = kCtors[c].fn(&bad, &a, &err);
      if (st != kBad[k].status || strstr(err.message, kBad[k].message) == NULL || a != NULL) {
        print_error("%s, %s: got %s \"%s\"; expected %s \"...%s...\"\n", kCtors[c].name,
                    kBad[k].name, jg_status_name(st), err.message, jg_status_name(kBad[k].status),
                    kBad[k].message);
        fail();
      }
    }
    jg_buffer_release(good.buffer);
  }
}

/* Counts are only read, so they may come without a buffer: then the layout is still checked. */
static void test_from_counts_pointer_view(void **state) {
  (void)state;
  int64_t counts[3] = {1, 0, 2};
  const jg_len n = 3;
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_pointer(&v, counts, (jg_device){JG_DEVICE_CPU, 0}, &l, JG_DTYPE_INT64,
                              true, &jgt_err_));
  jg_array *c = content8(), *a = NULL;
  jg_error err;
  v.layout.strides[0] = INT64_MAX;
  JGT_STATUS(JG_EOVERFLOW, jg_array_from_counts(&v, c, NULL, &a, &err));
  assert_null(a);
  v.layout.strides[0] = 1;
  v.layout.shape[0] = -3;
  JGT_STATUS(JG_EINVAL, jg_array_from_counts(&v, c, NULL, &a, &err));
  JGT_CONTAINS(err.message, "extents must be non-negative");
  assert_null(a);
  /* The content has 8 entries, the counts add up to 3: refused for the sum, not the layout. */
  v.layout.shape[0] = 3;
  JGT_STATUS(JG_EVALUE, jg_array_from_counts(&v, c, NULL, &a, &err));
  jg_array_release(c);
}

/* Valid unusual layouts stay accepted: reversed, zero-stride, offset inside, empty anywhere. */
static void test_valid_layouts_accepted(void **state) {
  (void)state;
  jg_view v = good_view(JG_DTYPE_INT64);
  jg_array *a = NULL;
  jg_view r = v; /* reversed: elements 3, 2, 1, 0 */
  r.layout.strides[0] = -1;
  r.layout.slice_offset = 3;
  JGT_OK(jg_array_numeric(&r, &a, &jgt_err_));
  char buf[64];
  JGT_OK(jg_array_to_string(a, 0, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[2, 1, 1, 0]");
  jg_array_release(a);
  jg_view z = v; /* broadcast element 3 five times */
  z.layout.shape[0] = 5;
  z.layout.strides[0] = 0;
  z.layout.slice_offset = 3;
  JGT_OK(jg_array_numeric(&z, &a, &jgt_err_));
  JGT_OK(jg_array_to_string(a, 0, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[2, 2, 2, 2, 2]");
  jg_array_release(a);
  jg_view e = v; /* no elements: the offset and strides address nothing */
  e.layout.shape[0] = 0;
  e.layout.slice_offset = 1000;
  e.layout.strides[0] = INT64_MAX;
  JGT_OK(jg_array_numeric(&e, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 0);
  JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(a);
  jg_buffer_release(v.buffer);
}

/* ------------------------------------------------------------------------------------------ */
/* Validation of trees whose views were edited after construction                             */
/* ------------------------------------------------------------------------------------------ */

/* A valid array of kind `kind` whose buffer 0 is a good 4-element view. */
static jg_array *node_of_kind(jg_node_kind kind) {
  jg_view v;
  jg_array *a = NULL, *c = content8();
  switch (kind) {
    case JG_NODE_NUMERIC:
      v = good_view(JG_DTYPE_FLOAT32);
      JGT_OK(jg_array_numeric(&v, &a, &jgt_err_));
      break;
    case JG_NODE_LIST_OFFSET:
      v = good_view(JG_DTYPE_INT64);
      JGT_OK(jg_array_list_offset(&v, c, &a, &jgt_err_));
      break;
    case JG_NODE_LIST:
      v = good_view(JG_DTYPE_INT32);
      JGT_OK(jg_array_list(&v, &v, c, &a, &jgt_err_));
      break;
    case JG_NODE_BYTE_MASKED:
      v = good_view(JG_DTYPE_BOOL);
      JGT_OK(jg_array_byte_masked(&v, true, c, &a, &jgt_err_));
      break;
    case JG_NODE_BIT_MASKED:
      v = good_view(JG_DTYPE_UINT8);
      JGT_OK(jg_array_bit_masked(&v, true, true, 4, c, &a, &jgt_err_));
      break;
    default:
      v = good_view(JG_DTYPE_INT64);
      JGT_OK(jg_array_indexed_option(&v, c, &a, &jgt_err_));
      break;
  }
  jg_buffer_release(v.buffer);
  jg_array_release(c);
  return a;
}

static void test_validate_checks_views(void **state) {
  (void)state;
  static const jg_node_kind kinds[] = {JG_NODE_NUMERIC,     JG_NODE_LIST_OFFSET,
                                       JG_NODE_LIST,        JG_NODE_BYTE_MASKED,
                                       JG_NODE_BIT_MASKED,  JG_NODE_INDEXED_OPTION};
  static const jg_validation_level levels[] = {JG_VALIDATE_MINIMAL, JG_VALIDATE_DEFAULT,
                                               JG_VALIDATE_FULL};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    for (int k = 0; k < kNumBad; k++) {
      if (k == kNegExtent || k == kBigNdim) continue; /* messages checked with the constructors */
      jg_array *a = node_of_kind(kinds[i]);
      jg_array *outer = NULL; /* the bad node one list level down: depth 2 */
      JGT_OK(jg_array_regular(a, 1, -1, &outer, &jgt_err_));
      jg_array_release(a); /* outer holds it */
      /* Keep the lengths consistent so that only the view is wrong. */
      a->buffers[0] = make_bad(a->buffers[0], k);
      if (kinds[i] == JG_NODE_LIST) a->buffers[1] = make_bad(a->buffers[1], k);
      for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        jg_error err;
        jg_error_clear(&err);
        const jg_status st = jg_array_validate(outer, levels[l], NULL, &err);
        const char *want = k == kBadStride ? "overflows int64" : "outside the buffer's";
        if (st != JG_EVALUE || strstr(err.message, want) == NULL ||
            strstr(err.message, "at depth 2") == NULL) {
          print_error("%s, %s, level %d: got %s \"%s\"\n", jgi_array_node_name(kinds[i]),
                      kBad[k].name, (int)levels[l], jg_status_name(st), err.message);
          fail();
        }
      }
      /* The printout runs MINIMAL validation first, so it never reads the bad view. */
      char buf[128];
      jg_error err;
      JGT_STATUS(JG_EVALUE, jg_array_to_string(outer, 0, buf, sizeof buf, NULL, &err));
      jg_array_release(outer);
    }
  }
}

/* The numeric node of the issue: stride INT64_MAX over 3 elements, validated FULL and printed. */
static void test_validate_stride_int64_max(void **state) {
  (void)state;
  jg_array *a = node_of_kind(JG_NODE_NUMERIC);
  a->buffers[0] = make_bad(a->buffers[0], kBadStride);
  a->length = 3;
  jg_error err;
  JGT_STATUS(JG_EVALUE, jg_array_validate(a, JG_VALIDATE_FULL, NULL, &err));
  JGT_CONTAINS(err.message, "data");
  JGT_CONTAINS(err.message, "(numeric at depth 1)");
  char buf[64];
  JGT_STATUS(JG_EVALUE, jg_array_to_string(a, 0, buf, sizeof buf, NULL, &err));
  jg_array_release(a);
}

/* A cuda array's views are checked the same way, on the host, before any kernel runs (the
 * device memory here is a stand-in that is never read). */
static void test_validate_device_array_views(void **state) {
  (void)state;
  jg_array *a = jgt_fake_device_int64(4);
  a->buffers[0].layout.slice_offset = 5; /* elements 5..8 of a 64-byte buffer */
  jg_error err;
  JGT_STATUS(JG_EVALUE, jg_array_validate(a, JG_VALIDATE_MINIMAL, NULL, &err));
  JGT_CONTAINS(err.message, "reaches bytes [40, 72) from its buffer's start, outside the "
                            "buffer's 64 bytes (numeric at depth 1)");
  jg_array_release(a);
}

/* ------------------------------------------------------------------------------------------ */
/* Slicing at a regular dimension of numeric data under lists                                  */
/* ------------------------------------------------------------------------------------------ */

/* var * 3 * float32: [[[0, 1, 2], [3, 4, 5]], [], [[6, 7, 8]]]. */
static jg_array *var_3_float32(void) {
  float vals[9];
  for (int i = 0; i < 9; i++) vals[i] = (float)i;
  jg_buffer *buf = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), sizeof vals, NULL, &buf, &jgt_err_));
  memcpy(jg_buffer_data(buf), vals, sizeof vals);
  const jg_len shape[2] = {3, 3};
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, shape, NULL, 4, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, buf, &l, JG_DTYPE_FLOAT32, true, &jgt_err_));
  jg_array *data = NULL, *out = NULL;
  JGT_OK(jg_array_numeric(&v, &data, &jgt_err_));
  jg_buffer_release(buf);
  const int64_t offsets[4] = {0, 2, 2, 3};
  jg_buffer *ob = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), sizeof offsets, NULL, &ob, &jgt_err_));
  memcpy(jg_buffer_data(ob), offsets, sizeof offsets);
  const jg_len n = 4;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  JGT_OK(jg_view_from_buffer(&v, ob, &l, JG_DTYPE_INT64, true, &jgt_err_));
  JGT_OK(jg_array_list_offset(&v, data, &out, &jgt_err_));
  jg_buffer_release(ob);
  jg_array_release(data);
  return out;
}

static void expect_slice(const jg_array *a, int64_t axis, int64_t start, int64_t stop,
                         int64_t step, unsigned flags, const char *want, const char *type) {
  jg_array *out = NULL;
  JGT_OK(jg_array_slice_axis(a, axis, start, stop, step, flags, NULL, &out, &jgt_err_));
  char buf[160];
  JGT_OK(jg_array_to_string(out, 0, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, want);
  JGT_OK(jg_array_type_string(out, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, type);
  JGT_OK(jg_array_validate(out, JG_VALIDATE_FULL, NULL, &jgt_err_));
  jg_array_release(out);
}

static void test_slice_inner_numeric_dimension(void **state) {
  (void)state;
  jg_array *a = var_3_float32();
  char buf[160];
  JGT_OK(jg_array_type_string(a, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "3 * var * 3 * float32");
  /* a[:, :, 1:] and a[..., ::-2]: the inner dimension stays regular (NumPy's slice of it). */
  expect_slice(a, 2, 1, 0, 1, JG_SLICE_START, "[[[1, 2], [4, 5]], [], [[7, 8]]]",
               "3 * var * 2 * float32");
  expect_slice(a, -1, 0, 0, -2, 0, "[[[2, 0], [5, 3]], [], [[8, 6]]]", "3 * var * 2 * float32");
  /* Axis 1 (-2 from the inside) is still the list level. */
  expect_slice(a, -2, 0, 1, 1, JG_SLICE_STOP, "[[[0, 1, 2]], [], [[6, 7, 8]]]",
               "3 * var * 3 * float32");
  /* Past the last dimension: the depth counts the numeric dimension, as the type does. */
  jg_array *out = NULL;
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_array_slice_axis(a, 3, 0, 1, 1, 3, NULL, &out, &err));
  JGT_CONTAINS(err.message, "axis 3 exceeds the depth of the nested list structure (which is 2)");
  /* firsts at a regular numeric dimension is refused with a message that names it as such. */
  JGT_STATUS(JG_ENOTSUP, jg_array_firsts(a, 2, NULL, &out, &err));
  JGT_CONTAINS(err.message, "regular dimension of numeric data");
  assert_null(out);
  jg_array_release(a);
}

/* ------------------------------------------------------------------------------------------ */
/* Arrow: import takes back every depth export writes                                          */
/* ------------------------------------------------------------------------------------------ */

/* The whole printout of `a`, malloc'ed. */
static char *printout(const jg_array *a) {
  size_t needed = 0;
  JGT_OK(jg_array_to_string(a, 1u << 20, NULL, 0, &needed, &jgt_err_));
  char *buf = malloc(needed + 1);
  assert_non_null(buf);
  JGT_OK(jg_array_to_string(a, 1u << 20, buf, needed + 1, NULL, &jgt_err_));
  return buf;
}

/* The printout of `a` after an Arrow export and import. */
static char *arrow_round_trip(const jg_array *a, jg_status *st) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  JGT_OK(jg_array_export_arrow(a, &schema, &array, &jgt_err_));
  jg_array *back = NULL;
  jg_error err;
  *st = jg_array_import_arrow(&schema, &array, &back, &err);
  if (*st != JG_OK) {
    print_error("import: %s\n", err.message);
    array.release(&array);
    schema.release(&schema);
    return NULL;
  }
  schema.release(&schema);
  JGT_OK(jg_array_validate(back, JG_VALIDATE_FULL, NULL, &jgt_err_));
  char *buf = printout(back);
  jg_array_release(back);
  return buf;
}

/* `depth` nested lists around [1, 2], with a None beside every level when `nulls`:
 * [[[1, 2]]] or [[[1, 2], None], None] ... built with the builder. */
static jg_array *builder_nested(int depth, bool nulls) {
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  for (int d = 0; d < depth; d++) JGT_OK(jg_builder_begin_list(b, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 1, &jgt_err_));
  JGT_OK(jg_builder_int64(b, 2, &jgt_err_));
  for (int d = 0; d < depth; d++) {
    JGT_OK(jg_builder_end_list(b, &jgt_err_));
    if (nulls) JGT_OK(jg_builder_null(b, &jgt_err_));
  }
  jg_array *a = NULL;
  JGT_OK(jg_builder_snapshot(b, &a, &jgt_err_));
  jg_builder_destroy(b);
  return a;
}

/* `depth` list-offset levels of one list each around [7]: the deepest tree validate accepts
 * has 1000 levels below the root. */
static jg_array *offsets_nested(int depth) {
  static const int64_t one[1] = {7};
  static const int64_t offs[2] = {0, 1};
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(one, 1, JG_DTYPE_INT64, &a, &jgt_err_));
  jg_buffer *ob = NULL;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), sizeof offs, NULL, &ob, &jgt_err_));
  memcpy(jg_buffer_data(ob), offs, sizeof offs);
  const jg_len n = 2;
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, ob, &l, JG_DTYPE_INT64, true, &jgt_err_));
  for (int d = 0; d < depth; d++) {
    jg_array *up = NULL;
    JGT_OK(jg_array_list_offset(&v, a, &up, &jgt_err_));
    jg_array_release(a);
    a = up;
  }
  jg_buffer_release(ob);
  return a;
}

static void test_arrow_round_trip_every_depth(void **state) {
  (void)state;
  static const int depths[] = {1, 2, 3, 64, 127, 128, 129, 200, JG_BUILDER_MAX_DEPTH};
  for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
    for (int nulls = 0; nulls < 2; nulls++) {
      jg_array *a = builder_nested(depths[i], nulls != 0);
      char *want = printout(a);
      jg_status st;
      char *got = arrow_round_trip(a, &st);
      if (st != JG_OK) {
        print_error("depth %d (nulls %d) does not come back\n", depths[i], nulls);
        fail();
      }
      assert_string_equal(got, want);
      free(got);
      free(want);
      jg_array_release(a);
    }
  }
  /* Up to the deepest tree jg_array_validate accepts (1000 levels below the root). */
  static const int deep[] = {500, 999};
  for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
    jg_array *a = offsets_nested(deep[i]);
    JGT_OK(jg_array_validate(a, JG_VALIDATE_FULL, NULL, &jgt_err_));
    char *want = printout(a);
    jg_status st;
    char *got = arrow_round_trip(a, &st);
    assert_int_equal(st, JG_OK);
    assert_string_equal(got, want);
    free(got);
    free(want);
    jg_array_release(a);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Empty buffers (NULL data) through the kernels (fuzz_array_ops findings, seen under UBSan)    */
/* ------------------------------------------------------------------------------------------ */

static void test_empty_null_buffers_through_kernels(void **state) {
  (void)state;
  /* [[], []] over an empty content whose buffer has no memory (0 bytes: data NULL). */
  jg_array *content = NULL, *a = NULL, *out = NULL;
  JGT_OK(jg_array_from_host(NULL, 0, JG_DTYPE_FLOAT32, &content, &jgt_err_));
  jg_view cv;
  JGT_OK(jg_array_buffer(content, 0, &cv, &jgt_err_));
  assert_null(jg_view_data(&cv));
  static const int64_t offsets[3] = {0, 0, 0};
  JGT_OK(jg_array_from_host_offsets(offsets, 2, NULL, 0, JG_DTYPE_FLOAT32, &a, &jgt_err_));
  char buf[64];
  JGT_OK(jg_array_local_index(a, 1, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_to_string(out, 0, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[[], []]");
  jg_array_release(out);
  JGT_OK(jg_array_argsort(a, -1, true, true, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_to_string(out, 0, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[[], []]");
  jg_array_release(out);
  const jg_array *both[2] = {a, a};
  JGT_OK(jg_array_concatenate(2, both, 1, NULL, &out, &jgt_err_));
  JGT_OK(jg_array_to_string(out, 0, buf, sizeof buf, NULL, &jgt_err_));
  assert_string_equal(buf, "[[], []]");
  jg_array_release(out);
  JGT_OK(jg_array_flatten(a, 1, NULL, &out, &jgt_err_));
  assert_int_equal(jg_array_length(out), 0);
  jg_array_release(out);
  jg_array_release(content);
  jg_array_release(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_constructors_refuse_bad_views),
      cmocka_unit_test(test_from_counts_pointer_view),
      cmocka_unit_test(test_valid_layouts_accepted),
      cmocka_unit_test(test_validate_checks_views),
      cmocka_unit_test(test_validate_stride_int64_max),
      cmocka_unit_test(test_validate_device_array_views),
      cmocka_unit_test(test_slice_inner_numeric_dimension),
      cmocka_unit_test(test_arrow_round_trip_every_depth),
      cmocka_unit_test(test_empty_null_buffers_through_kernels),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
