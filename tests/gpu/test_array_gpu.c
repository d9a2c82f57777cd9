/* test_array_gpu.c: jagged arrays on a real GPU: to_device / to_host round trips of nested list,
 * record and option arrays (sliced ones included) that must reproduce every buffer element and
 * layout; buffers already on the target shared, not copied; jg_array_from_counts on the device
 * (CUB scan) with every check; zip on device arrays; mixed-backend errors from a real device
 * array. Skips (exit 77) without a usable device. Expected values are worked out by hand. */
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* A dense 1-D host view over a fresh copy of `vals`; *keep gets the buffer. */
static jg_view host_view(const void *vals, jg_len n, jg_dtype dtype, jg_buffer **keep) {
  const int64_t isz = jg_dtype_itemsize(dtype);
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), (size_t)(n * isz), NULL, keep,
                            &jgt_err_));
  if (n > 0) memcpy(jg_buffer_data(*keep), vals, (size_t)(n * isz));
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, isz, &jgt_err_));
  jg_view v;
  JGT_OK(jg_view_from_buffer(&v, *keep, &l, dtype, false, &jgt_err_));
  return v;
}

static jg_array *numeric(const void *vals, jg_len n, jg_dtype dtype) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host(vals, n, dtype, &a, &jgt_err_));
  return a;
}

static jg_array *lists(const int64_t *offsets, jg_len n, const int64_t *content, jg_len nc) {
  jg_array *a = NULL;
  JGT_OK(jg_array_from_host_offsets(offsets, n, content, nc, JG_DTYPE_INT64, &a, &jgt_err_));
  return a;
}

/* Element i of a 1-D integer host view. */
static int64_t view_int(const jg_view *v, jg_len i) {
  const char *p = (const char *)v->base +
                  (v->layout.slice_offset + i * v->layout.strides[0]) * v->layout.itemsize;
  if (v->dtype == JG_DTYPE_INT32) {
    int32_t x;
    memcpy(&x, p, 4);
    return x;
  }
  int64_t x;
  memcpy(&x, p, 8);
  return x;
}

/* Asserts that two host views hold the same dtype, layout and element bytes. */
static void assert_same_view(const jg_view *a, const jg_view *b) {
  assert_true(a->host_accessible);
  assert_true(b->host_accessible);
  assert_int_equal(a->dtype, b->dtype);
  assert_true(jg_layout_equal(&a->layout, &b->layout));
  const jg_len vol = jg_layout_volume(&a->layout);
  const int nd = a->layout.ndim;
  jg_len idx[JG_MAX_NDIM] = {0};
  for (jg_len e = 0; e < vol; e++) {
    jg_offset off = a->layout.slice_offset;
    for (int k = 0; k < nd; k++) off += idx[k] * a->layout.strides[k];
    const size_t isz = (size_t)a->layout.itemsize;
    if (memcmp((const char *)a->base + off * a->layout.itemsize,
               (const char *)b->base + off * b->layout.itemsize, isz) != 0) {
      print_error("element %lld differs\n", (long long)e);
      fail();
    }
    for (int k = nd - 1; k >= 0; k--) {
      if (++idx[k] < a->layout.shape[k]) break;
      idx[k] = 0;
    }
  }
}

/* Asserts that two host trees are equal node by node. */
static void assert_same_tree(const jg_array *a, const jg_array *b) {
  assert_int_equal(jg_array_kind(a), jg_array_kind(b));
  assert_int_equal(jg_array_length(a), jg_array_length(b));
  assert_int_equal(jg_array_regular_size(a), jg_array_regular_size(b));
  assert_int_equal(jg_array_valid_when(a), jg_array_valid_when(b));
  assert_int_equal(jg_array_lsb_order(a), jg_array_lsb_order(b));
  assert_int_equal(jg_array_bit_offset(a), jg_array_bit_offset(b));
  assert_int_equal(jg_array_backend(b), JG_BACKEND_CPU);
  for (int k = 0; k < 2; k++) {
    jg_view va, vb;
    const jg_status sa = jg_array_buffer(a, k, &va, NULL);
    const jg_status sb = jg_array_buffer(b, k, &vb, NULL);
    assert_int_equal(sa, sb);
    if (sa == JG_OK) assert_same_view(&va, &vb);
  }
  assert_int_equal(jg_array_num_children(a), jg_array_num_children(b));
  for (int k = 0; k < jg_array_num_children(a); k++) {
    const char *na = jg_array_field_name(a, k), *nb = jg_array_field_name(b, k);
    assert_true((na == NULL) == (nb == NULL));
    if (na != NULL) assert_string_equal(na, nb);
    assert_same_tree(jg_array_child(a, k), jg_array_child(b, k));
  }
}

/* Asserts that every buffer of a tree is device-only memory of GPU `id`. */
static void assert_on_device(const jg_array *a, int id) {
  assert_int_equal(jg_array_backend(a), JG_BACKEND_CUDA);
  assert_int_equal(jg_array_device(a).type, JG_DEVICE_CUDA);
  assert_int_equal(jg_array_device(a).id, id);
  for (int k = 0; k < 2; k++) {
    jg_view v;
    if (jg_array_buffer(a, k, &v, NULL) != JG_OK) continue;
    assert_false(v.host_accessible);
    assert_true(v.device_accessible);
    assert_int_equal(v.device.id, id);
  }
  for (int k = 0; k < jg_array_num_children(a); k++) assert_on_device(jg_array_child(a, k), id);
}

/* events = var * {pt: float32, q: ?int8 (bit mask), eta: ?float64 (byte mask), hits: var * int16
 * (int32 offsets), idx: ?int32 (index), jets: var * float64 (starts/stops), pair: 2 * float32,
 * m: 3 * float32 (2-D numeric)}; 7 muons in 3 events with offsets starting at 1. */
static jg_array *make_events(void) {
  jg_buffer *b = NULL;
  const float pt[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  jg_array *fpt = numeric(pt, 8, JG_DTYPE_FLOAT32);

  const int8_t q[7] = {1, -1, 1, 1, -1, -1, 1};
  jg_array *qc = numeric(q, 7, JG_DTYPE_INT8);
  const uint8_t qbits[1] = {0x6D};
  jg_view qv = host_view(qbits, 1, JG_DTYPE_UINT8, &b);
  jg_array *fq = NULL;
  JGT_OK(jg_array_bit_masked(&qv, true, true, 7, qc, &fq, &jgt_err_));
  jg_buffer_release(b);

  const double eta[7] = {0.5, -1.5, 2.25, 0, 1, -2, 3};
  jg_array *ec = numeric(eta, 7, JG_DTYPE_FLOAT64);
  const uint8_t emask[7] = {1, 1, 0, 1, 0, 1, 1};
  jg_view ev = host_view(emask, 7, JG_DTYPE_BOOL, &b);
  jg_array *feta = NULL;
  JGT_OK(jg_array_byte_masked(&ev, true, ec, &feta, &jgt_err_));
  jg_buffer_release(b);

  const int16_t hits[9] = {10, 11, 12, 13, 14, 15, 16, 17, 18};
  jg_array *hc = numeric(hits, 9, JG_DTYPE_INT16);
  const int32_t hoff[8] = {1, 3, 3, 4, 7, 7, 8, 9};
  jg_view hv = host_view(hoff, 8, JG_DTYPE_INT32, &b);
  jg_array *fhits = NULL;
  JGT_OK(jg_array_list_offset(&hv, hc, &fhits, &jgt_err_));
  jg_buffer_release(b);

  const int32_t ic[3] = {100, 200, 300};
  jg_array *icon = numeric(ic, 3, JG_DTYPE_INT32);
  const int64_t index[7] = {2, -1, 0, 1, -1, 2, 0};
  jg_view iv = host_view(index, 7, JG_DTYPE_INT64, &b);
  jg_array *fidx = NULL;
  JGT_OK(jg_array_indexed_option(&iv, icon, &fidx, &jgt_err_));
  jg_buffer_release(b);

  /* starts and stops as two views of ONE buffer (shared by the move) */
  const int64_t se[8] = {0, 2, 2, 3, 5, 5, 6, 7};
  jg_view sv = host_view(se, 8, JG_DTYPE_INT64, &b);
  jg_view starts = sv, stops = sv;
  const jg_slice s0 = JG_SLICE(0, 7, 1), s1 = JG_SLICE(1, 8, 1);
  JGT_OK(jg_view_slice(&starts, &sv, 1, &s0, &jgt_err_));
  JGT_OK(jg_view_slice(&stops, &sv, 1, &s1, &jgt_err_));
  const double jc[7] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
  jg_array *jcon = numeric(jc, 7, JG_DTYPE_FLOAT64);
  jg_array *fjets = NULL;
  JGT_OK(jg_array_list(&starts, &stops, jcon, &fjets, &jgt_err_));
  jg_buffer_release(b);

  float pr[15];
  for (int i = 0; i < 15; i++) pr[i] = (float)i * 0.5f;
  jg_array *pcon = numeric(pr, 15, JG_DTYPE_FLOAT32);
  jg_array *fpair = NULL;
  JGT_OK(jg_array_regular(pcon, 2, -1, &fpair, &jgt_err_));

  float m[21];
  for (int i = 0; i < 21; i++) m[i] = (float)i - 10.f;
  JGT_OK(jg_buffer_allocate(jg_memory_resource_host(), sizeof m, NULL, &b, &jgt_err_));
  memcpy(jg_buffer_data(b), m, sizeof m);
  jg_layout l;
  JGT_OK(jg_layout_init(&l, 2, (jg_len[]){7, 3}, NULL, 4, &jgt_err_));
  jg_view mv;
  JGT_OK(jg_view_from_buffer(&mv, b, &l, JG_DTYPE_FLOAT32, true, &jgt_err_));
  jg_array *fm = NULL;
  JGT_OK(jg_array_numeric(&mv, &fm, &jgt_err_));
  jg_buffer_release(b);

  jg_array *fields[8] = {fpt, fq, feta, fhits, fidx, fjets, fpair, fm};
  const char *names[8] = {"pt", "q", "eta", "hits", "idx", "jets", "pair", "m"};
  jg_array *rec = NULL;
  JGT_OK(jg_array_record(8, fields, names, 7, &rec, &jgt_err_));
  const int64_t eoff[4] = {1, 3, 3, 6}; /* muon 0 and 6 unused */
  jg_view eo = host_view(eoff, 4, JG_DTYPE_INT64, &b);
  jg_array *events = NULL;
  JGT_OK(jg_array_list_offset(&eo, rec, &events, &jgt_err_));
  jg_buffer_release(b);
  jg_array *all[] = {fpt, qc, fq, ec, feta, hc, fhits, icon, fidx, jcon, fjets, pcon, fpair,
                     fm, rec};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) jg_array_release(all[i]);
  return events;
}

/* ------------------------------------------------------------------------------------------ */
/* Round trips and sharing                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void test_round_trip(void **state) {
  (void)state;
  jg_array *events = make_events();
  jg_array *d = NULL, *h = NULL;
  JGT_OK(jg_array_to_device(events, 0, NULL, &d, &jgt_err_));
  assert_on_device(d, 0);
  char name[16];
  assert_string_equal(jg_array_device_name(d, name, sizeof name), "cuda:0");
  JGT_OK(jg_array_to_host(d, NULL, &h, &jgt_err_));
  assert_same_tree(events, h);
  /* starts and stops still share one buffer, 8 bytes apart, on both sides */
  jg_array *jets = NULL;
  JGT_OK(jg_array_field(d, "jets", &jets, &jgt_err_));
  jg_view s, e;
  JGT_OK(jg_array_buffer(jg_array_child(jets, 0), 0, &s, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(jets, 0), 1, &e, &jgt_err_));
  assert_ptr_equal(s.buffer, e.buffer);
  assert_int_equal(e.layout.slice_offset - s.layout.slice_offset, 1);
  jg_array_release(jets);
  jg_array_release(h);

  /* On a stream, and through pinned memory. */
  jg_stream st = NULL;
  JGT_OK(jg_stream_create(&st, &jgt_err_));
  jg_array *d2 = NULL;
  JGT_OK(jg_array_to_device(events, 0, st, &d2, &jgt_err_));
  jg_memory_resource *pinned = NULL;
  JGT_OK(jg_memory_resource_pinned(&pinned, &jgt_err_));
  JGT_OK(jg_array_to_host_ex(d2, pinned, st, &h, &jgt_err_));
  assert_same_tree(events, h);
  jg_view pv;
  JGT_OK(jg_array_buffer(h, 0, &pv, &jgt_err_));
  assert_int_equal(pv.device.type, JG_DEVICE_CUDA_HOST);
  /* pinned memory is cpu: to_host shares it, to_device copies it */
  jg_array *h2 = NULL;
  JGT_OK(jg_array_to_host(h, NULL, &h2, &jgt_err_));
  assert_ptr_equal(h2, h);
  jg_array_release(h2);
  jg_array *d3 = NULL;
  JGT_OK(jg_array_to_device(h, 0, st, &d3, &jgt_err_));
  assert_on_device(d3, 0);
  JGT_OK(jg_stream_synchronize(st, &jgt_err_)); /* pinned sources are read asynchronously */
  jg_array_release(d3);
  jg_array_release(h);
  jg_array_release(d2);
  jg_stream_destroy(st);

  /* Sliced: offsets keep their slice offset, values come back. */
  jg_array *sl = NULL, *dsl = NULL;
  JGT_OK(jg_array_slice(events, 1, 3, &sl, &jgt_err_));
  JGT_OK(jg_array_to_device(sl, 0, NULL, &dsl, &jgt_err_));
  jg_view ov;
  JGT_OK(jg_array_buffer(dsl, 0, &ov, &jgt_err_));
  assert_int_equal(ov.layout.slice_offset, 1);
  assert_int_equal(ov.layout.shape[0], 3);
  JGT_OK(jg_array_to_host(dsl, NULL, &h, &jgt_err_));
  assert_same_tree(sl, h);
  JGT_OK(jg_array_buffer(h, 0, &ov, &jgt_err_));
  assert_int_equal(view_int(&ov, 0), 3);
  assert_int_equal(view_int(&ov, 2), 6);
  jg_array_release(h);

  /* Slicing a device array reads nothing and moves back the same. */
  jg_array *ds = NULL;
  JGT_OK(jg_array_slice(d, 1, 3, &ds, &jgt_err_));
  assert_on_device(ds, 0);
  JGT_OK(jg_array_to_host(ds, NULL, &h, &jgt_err_));
  assert_same_tree(sl, h);
  jg_array_release(h);
  jg_array_release(ds);
  jg_array_release(dsl);
  jg_array_release(sl);
  jg_array_release(d);
  jg_array_release(events);
}

static void test_shared_on_target(void **state) {
  (void)state;
  jg_array *events = make_events();
  jg_array *d = NULL, *d2 = NULL;
  JGT_OK(jg_array_to_device(events, 0, NULL, &d, &jgt_err_));
  /* already there: the same tree, the same pointers */
  JGT_OK(jg_array_to_device(d, 0, NULL, &d2, &jgt_err_));
  assert_ptr_equal(d2, d);
  jg_array_release(d2);
  /* a new node over a device subtree: only the new buffer is copied */
  jg_array *rec = jg_array_child(d, 0);
  const int64_t off[3] = {0, 2, 7};
  jg_array *dd = NULL;
  JGT_OK(jg_array_to_device(rec, 0, NULL, &dd, &jgt_err_));
  assert_ptr_equal(dd, rec);
  jg_array_release(dd);
  /* the offsets go to the device through a small host array, the record stays shared */
  jg_array *hoffs = NULL;
  JGT_OK(jg_array_from_host(off, 3, JG_DTYPE_INT64, &hoffs, &jgt_err_));
  jg_array *doffs = NULL;
  JGT_OK(jg_array_to_device(hoffs, 0, NULL, &doffs, &jgt_err_));
  jg_view dov;
  JGT_OK(jg_array_buffer(doffs, 0, &dov, &jgt_err_));
  jg_array *l2 = NULL;
  JGT_OK(jg_array_list_offset(&dov, rec, &l2, &jgt_err_));
  JGT_OK(jg_array_to_device(l2, 0, NULL, &dd, &jgt_err_));
  assert_ptr_equal(dd, l2);
  jg_array_release(dd);
  jg_array_release(l2);
  jg_array_release(doffs);
  jg_array_release(hoffs);
  /* no such device */
  int n = 0;
  JGT_OK(jg_device_count(&n, &jgt_err_));
  jg_error err;
  JGT_STATUS(JG_EINDEX, jg_array_to_device(events, n, NULL, &dd, &err));
  assert_null(dd);
  jg_array_release(d);
  jg_array_release(events);
}

static void test_mixed_backend_errors(void **state) {
  (void)state;
  const int64_t c[3] = {1, 2, 3};
  jg_array *hc = numeric(c, 3, JG_DTYPE_INT64);
  jg_array *dc = NULL;
  JGT_OK(jg_array_to_device(hc, 0, NULL, &dc, &jgt_err_));
  const int64_t off[3] = {0, 1, 3};
  jg_buffer *ob = NULL;
  jg_view hv = host_view(off, 3, JG_DTYPE_INT64, &ob);
  jg_array *a = NULL;
  jg_error err;
  JGT_STATUS(JG_EBACKEND, jg_array_list_offset(&hv, dc, &a, &err));
  assert_null(a);
  assert_string_equal(err.message, "jg_array_list_offset: content is on cuda:0, offsets on cpu: "
                                   "copy it with jg_array_to_host");
  JGT_STATUS(JG_EBACKEND, jg_array_check_same_backend(dc, "argument 1", hc, "argument 2", &err));
  assert_string_equal(err.message, "argument 2 is on cpu, argument 1 on cuda:0: copy it with "
                                   "jg_array_to_device");
  jg_array *f[2] = {dc, hc};
  JGT_STATUS(JG_EBACKEND, jg_array_zip(2, f, NULL, -1, &a, &err));
  assert_string_equal(err.message, "jg_array_zip: field 1 is on cpu, field 0 on cuda:0: copy it "
                                   "with jg_array_to_device");
  jg_buffer_release(ob);
  jg_array_release(dc);
  jg_array_release(hc);
}

/* ------------------------------------------------------------------------------------------ */
/* from_counts on the device                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Counts and content on the device, from host values; *counts_arr keeps the counts alive. */
static jg_view device_counts(const void *counts, jg_len n, jg_dtype dtype, jg_array **keep) {
  jg_array *h = numeric(counts, n, dtype);
  JGT_OK(jg_array_to_device(h, 0, NULL, keep, &jgt_err_));
  jg_array_release(h);
  jg_view v;
  JGT_OK(jg_array_buffer(*keep, 0, &v, &jgt_err_));
  return v;
}

static jg_array *device_content(jg_len n) {
  float *vals = calloc((size_t)(n > 0 ? n : 1), sizeof *vals);
  for (jg_len i = 0; i < n; i++) vals[i] = (float)i;
  jg_array *h = numeric(vals, n, JG_DTYPE_FLOAT32), *d = NULL;
  JGT_OK(jg_array_to_device(h, 0, NULL, &d, &jgt_err_));
  jg_array_release(h);
  free(vals);
  return d;
}

static void assert_offsets(const jg_array *a, const int64_t *want, jg_len n) {
  jg_array *h = NULL;
  JGT_OK(jg_array_to_host(a, NULL, &h, &jgt_err_));
  jg_view v;
  JGT_OK(jg_array_buffer(h, 0, &v, &jgt_err_));
  assert_int_equal(v.dtype, JG_DTYPE_INT64);
  assert_int_equal(v.layout.shape[0], n + 1);
  for (jg_len i = 0; i <= n; i++) assert_int_equal(view_int(&v, i), want[i]);
  jg_array_release(h);
}

static void test_from_counts_device(void **state) {
  (void)state;
  jg_array *ck = NULL, *a = NULL;
  jg_array *content = device_content(6);
  jg_view cv = device_counts((const int32_t[]){3, 0, 2, 1}, 4, JG_DTYPE_INT32, &ck);
  JGT_OK(jg_array_from_counts(&cv, content, NULL, &a, &jgt_err_));
  assert_on_device(a, 0);
  assert_int_equal(jg_array_length(a), 4);
  assert_offsets(a, (const int64_t[]){0, 3, 3, 5, 6}, 4);
  jg_array_release(a);
  /* strided and reversed: 1, 2, 0, 3 -> every other one reversed... use step -1: 1, 2, 0, 3 */
  const jg_slice rev = JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, -1);
  jg_view rv;
  JGT_OK(jg_view_slice(&rv, &cv, 1, &rev, &jgt_err_));
  jg_stream st = NULL;
  JGT_OK(jg_stream_create(&st, &jgt_err_));
  JGT_OK(jg_array_from_counts(&rv, content, st, &a, &jgt_err_));
  assert_offsets(a, (const int64_t[]){0, 1, 3, 3, 6}, 4);
  jg_array_release(a);
  jg_stream_destroy(st);
  jg_array_release(ck);

  jg_error err;
  /* negative (index 2 first, though 1 is too large), too large, sum mismatch */
  cv = device_counts((const int64_t[]){3, 9, -1, 1}, 4, JG_DTYPE_INT64, &ck);
  JGT_STATUS(JG_EVALUE, jg_array_from_counts(&cv, content, NULL, &a, &err));
  assert_int_equal(err.index, 2);
  JGT_CONTAINS(err.message, "counts[2] is negative");
  jg_array_release(ck);
  cv = device_counts((const int64_t[]){3, 9, 1, 1}, 4, JG_DTYPE_INT64, &ck);
  JGT_STATUS(JG_EVALUE, jg_array_from_counts(&cv, content, NULL, &a, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "larger than the content's length 6");
  jg_array_release(ck);
  cv = device_counts((const int64_t[]){3, 1, 1}, 3, JG_DTYPE_INT64, &ck);
  JGT_STATUS(JG_EVALUE, jg_array_from_counts(&cv, content, NULL, &a, &err));
  assert_int_equal(err.index, -1);
  JGT_CONTAINS(err.message, "the counts add up to 5 but the content has 6 entries");
  /* zero counts over empty content */
  jg_view zv = cv;
  zv.layout.shape[0] = 0;
  zv.layout.strides[0] = 0;
  jg_array *empty = device_content(0);
  JGT_OK(jg_array_from_counts(&zv, empty, NULL, &a, &jgt_err_));
  assert_int_equal(jg_array_length(a), 0);
  assert_offsets(a, (const int64_t[]){0}, 0);
  jg_array_release(a);
  jg_array_release(empty);
  jg_array_release(ck);

  /* many lists: 1 << 20 counts of (i % 3), several blocks */
  const jg_len n = (jg_len)1 << 20;
  int32_t *many = malloc((size_t)n * sizeof *many);
  int64_t total = 0;
  for (jg_len i = 0; i < n; i++) {
    many[i] = (int32_t)(i % 3);
    total += many[i];
  }
  cv = device_counts(many, n, JG_DTYPE_INT32, &ck);
  jg_array *big = device_content(total);
  JGT_OK(jg_array_from_counts(&cv, big, NULL, &a, &jgt_err_));
  jg_array *h = NULL;
  JGT_OK(jg_array_to_host(a, NULL, &h, &jgt_err_));
  jg_view ov;
  JGT_OK(jg_array_buffer(h, 0, &ov, &jgt_err_));
  int64_t sum = 0;
  for (jg_len i = 0; i < n; i++) {
    if (view_int(&ov, i) != sum) fail_msg("offset %lld", (long long)i);
    sum += many[i];
  }
  assert_int_equal(view_int(&ov, n), total);
  jg_array_release(h);
  jg_array_release(a);
  /* a negative count deep inside */
  many[n - 7] = -4;
  jg_array_release(ck);
  cv = device_counts(many, n, JG_DTYPE_INT32, &ck);
  JGT_STATUS(JG_EVALUE, jg_array_from_counts(&cv, big, NULL, &a, &err));
  assert_int_equal(err.index, n - 7);
  jg_array_release(ck);
  jg_array_release(big);
  free(many);

  /* int64 overflow of the running sum over a broadcast content of 2^62 entries */
  jg_array *one = device_content(1);
  jg_view data;
  JGT_OK(jg_array_buffer(one, 0, &data, &jgt_err_));
  const jg_len huge = (jg_len)1 << 62;
  JGT_OK(jg_layout_init(&data.layout, 1, &huge, (const jg_stride[]){0}, 4, &jgt_err_));
  jg_array *bcast = NULL;
  JGT_OK(jg_array_numeric(&data, &bcast, &jgt_err_));
  cv = device_counts((const int64_t[]){huge, huge, huge, huge}, 4, JG_DTYPE_INT64, &ck);
  JGT_STATUS(JG_EOVERFLOW, jg_array_from_counts(&cv, bcast, NULL, &a, &err));
  assert_int_equal(err.index, 1);
  cv.layout.shape[0] = 1; /* 2^62 alone adds up */
  JGT_OK(jg_array_from_counts(&cv, bcast, NULL, &a, &jgt_err_));
  assert_offsets(a, (const int64_t[]){0, huge}, 1);
  jg_array_release(a);
  jg_array_release(ck);
  jg_array_release(bcast);
  jg_array_release(one);

  /* counts on the device, content on the host */
  cv = device_counts((const int64_t[]){1}, 1, JG_DTYPE_INT64, &ck);
  jg_array *hcon = numeric((const float[]){1}, 1, JG_DTYPE_FLOAT32);
  JGT_STATUS(JG_EBACKEND, jg_array_from_counts(&cv, hcon, NULL, &a, &err));
  assert_string_equal(err.message, "jg_array_from_counts: counts is on cuda:0, content on cpu: "
                                   "copy it with jg_array_to_host");
  jg_array_release(hcon);
  jg_array_release(ck);
  jg_array_release(content);
}

/* ------------------------------------------------------------------------------------------ */
/* zip on device arrays (offsets copied back for the count check)                              */
/* ------------------------------------------------------------------------------------------ */

static void test_zip_device(void **state) {
  (void)state;
  const int64_t xc[3] = {1, 2, 3}, yc[7] = {-1, -2, -3, 10, 20, 30, -4}, wc[4] = {1, 2, 3, 4};
  jg_array *hx = lists((const int64_t[]){0, 2, 2, 3}, 3, xc, 3);
  jg_array *hy = lists((const int64_t[]){3, 5, 5, 6}, 3, yc, 7);
  jg_array *hw = lists((const int64_t[]){0, 2, 2, 4}, 3, wc, 4);
  jg_array *x = NULL, *y = NULL, *w = NULL;
  JGT_OK(jg_array_to_device(hx, 0, NULL, &x, &jgt_err_));
  JGT_OK(jg_array_to_device(hy, 0, NULL, &y, &jgt_err_));
  JGT_OK(jg_array_to_device(hw, 0, NULL, &w, &jgt_err_));
  jg_array *f[2] = {x, y};
  const char *names[2] = {"x", "y"};
  jg_array *z = NULL;
  JGT_OK(jg_array_zip(2, f, names, -1, &z, &jgt_err_));
  assert_on_device(z, 0);
  jg_array *fy = NULL, *h = NULL;
  JGT_OK(jg_array_field(z, "y", &fy, &jgt_err_));
  JGT_OK(jg_array_to_host(fy, NULL, &h, &jgt_err_));
  jg_view ov, cv;
  JGT_OK(jg_array_buffer(h, 0, &ov, &jgt_err_));
  JGT_OK(jg_array_buffer(jg_array_child(h, 0), 0, &cv, &jgt_err_));
  const int64_t want[3] = {10, 20, 30};
  jg_len k = 0;
  for (jg_len i = 0; i < 3; i++) {
    for (int64_t j = view_int(&ov, i); j < view_int(&ov, i + 1); j++) {
      assert_int_equal(view_int(&cv, j), want[k++]);
    }
  }
  assert_int_equal(k, 3);
  jg_array_release(h);
  jg_array_release(fy);
  jg_array_release(z);
  jg_array *bad[2] = {x, w};
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_array_zip(2, bad, names, -1, &z, &err));
  assert_int_equal(err.index, 2);
  assert_string_equal(err.message, "jg_array_zip: field 1 ('y') has 2 entries in list 2 at "
                                   "depth 1, field 0 ('x') has 1");
  jg_array *all[] = {hx, hy, hw, x, y, w};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) jg_array_release(all[i]);
}

/* Zip broadcasting on the device: a field without lists is repeated into the lists of the others
 * (jgi_carry on the GPU), at one and two depths; the device result, copied back, prints as the
 * host one and as Awkward's example does. */
static void test_zip_device_broadcast(void **state) {
  (void)state;
  const int64_t xc[3] = {1, 2, 3}, yc[2] = {10, 20}, wc[2] = {100, 200};
  const int64_t ic[4] = {4, 5, 6, 7};
  jg_array *hx = lists((const int64_t[]){0, 2, 3}, 2, xc, 3);
  jg_array *hy = NULL, *hw = NULL, *hin = NULL, *hdeep = NULL;
  JGT_OK(jg_array_from_host(yc, 2, JG_DTYPE_INT64, &hy, &jgt_err_));
  JGT_OK(jg_array_from_host(wc, 2, JG_DTYPE_INT64, &hw, &jgt_err_));
  /* deep = [[[4], [5, 6]], [[7]]]: inner lists under x's outer offsets */
  hin = lists((const int64_t[]){0, 1, 3, 4}, 3, ic, 4);
  jg_buffer *ob = NULL;
  const int64_t outer[3] = {0, 2, 3};
  jg_view ov = host_view(outer, 3, JG_DTYPE_INT64, &ob);
  JGT_OK(jg_array_list_offset(&ov, hin, &hdeep, &jgt_err_));
  jg_array *hv = lists((const int64_t[]){0, 1, 3}, 2, ic, 3); /* counts 1, 2 against x's 2, 1 */
  jg_array *h[5] = {hx, hy, hw, hdeep, hv}, *d[5] = {NULL, NULL, NULL, NULL, NULL};
  for (int i = 0; i < 5; i++) JGT_OK(jg_array_to_device(h[i], 0, NULL, &d[i], &jgt_err_));
  const char *names[3] = {"x", "y", "w"};
  static const struct {
    int idx[3];
    int n;
    const char *want;
  } cases[] = {
      {{0, 1, 0}, 2, "[[{x: 1, y: 10}, {x: 2, y: 10}], [{x: 3, y: 20}]]"},
      {{1, 0, 0}, 2, "[[{x: 10, y: 1}, {x: 10, y: 2}], [{x: 20, y: 3}]]"},
      {{3, 1, 0}, 3, "[[[{x: 4, y: 10, w: 1}], [{x: 5, y: 10, w: 2}, {x: 6, y: 10, w: 2}]], "
                     "[[{x: 7, y: 20, w: 3}]]]"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    jg_array *hf[3], *df[3];
    for (int k = 0; k < cases[c].n; k++) {
      hf[k] = h[cases[c].idx[k]];
      df[k] = d[cases[c].idx[k]];
    }
    jg_array *hz = NULL, *dz = NULL, *back = NULL;
    JGT_OK(jg_array_zip(cases[c].n, hf, names, -1, &hz, &jgt_err_));
    JGT_OK(jg_array_zip(cases[c].n, df, names, -1, &dz, &jgt_err_));
    assert_on_device(dz, 0);
    JGT_OK(jg_array_validate(dz, JG_VALIDATE_FULL, NULL, &jgt_err_));
    JGT_OK(jg_array_to_host(dz, NULL, &back, &jgt_err_));
    char hs[256], ds[256];
    JGT_OK(jg_array_to_string(hz, 250, hs, sizeof hs, NULL, &jgt_err_));
    JGT_OK(jg_array_to_string(back, 250, ds, sizeof ds, NULL, &jgt_err_));
    assert_string_equal(hs, cases[c].want);
    assert_string_equal(ds, hs);
    jg_array_release(back);
    jg_array_release(dz);
    jg_array_release(hz);
  }
  /* Counts that differ are an error naming the list on both backends. */
  jg_array *bad[3] = {d[1], d[0], d[4]};
  jg_array *z = NULL;
  jg_error err;
  JGT_STATUS(JG_ESHAPE, jg_array_zip(3, bad, names, -1, &z, &err));
  assert_int_equal(err.index, 0);
  assert_string_equal(err.message, "jg_array_zip: field 2 ('w') has 1 entries in list 0 at depth "
                                   "1, field 1 ('y') has 2");
  for (int i = 0; i < 5; i++) {
    jg_array_release(d[i]);
    jg_array_release(h[i]);
  }
  jg_array_release(hin);
  jg_buffer_release(ob);
}

/* Fields that share one offsets buffer (two fields of a record, and a slice of them whose offsets
 * do not start at 0): zip checks nothing and reads back only the range's two ends. */
static void test_zip_device_shared_offsets(void **state) {
  (void)state;
  const int64_t off[5] = {0, 2, 2, 5, 6};
  const float a[6] = {1, 2, 3, 4, 5, 6};
  const int32_t b[6] = {10, 20, 30, 40, 50, 60};
  jg_array *ha = NULL, *hb = NULL, *hl = NULL, *d = NULL;
  JGT_OK(jg_array_from_host_offsets(off, 4, a, 6, JG_DTYPE_FLOAT32, &ha, &jgt_err_));
  JGT_OK(jg_array_from_host_offsets(off, 4, b, 6, JG_DTYPE_INT32, &hb, &jgt_err_));
  jg_array *rf[2] = {ha, hb};
  const char *rn[2] = {"a", "b"};
  JGT_OK(jg_array_zip(2, rf, rn, -1, &hl, &jgt_err_)); /* lists of {a, b}: one offsets buffer */
  JGT_OK(jg_array_to_device(hl, 0, NULL, &d, &jgt_err_));
  for (int sliced = 0; sliced < 2; sliced++) {
    jg_array *src = NULL, *fa = NULL, *fb = NULL, *z = NULL;
    JGT_OK(jg_array_slice(d, sliced ? 2 : 0, 4, &src, &jgt_err_));
    JGT_OK(jg_array_field(src, "a", &fa, &jgt_err_));
    JGT_OK(jg_array_field(src, "b", &fb, &jgt_err_));
    jg_array *f[2] = {fb, fa};
    const char *names[2] = {"b", "a"};
    jg_transfer_counter c;
    jg_transfer_counter_init(&c, NULL, 0);
    JGT_OK(jg_transfer_scope_begin(&c, &jgt_err_));
    JGT_OK(jg_array_zip(2, f, names, -1, &z, &jgt_err_));
    JGT_OK(jg_transfer_scope_end(&c, &jgt_err_));
    /* the first and last offset of the range, nothing else */
    assert_int_equal(c.count[JG_TRANSFER_TO_HOST], 2);
    assert_int_equal(c.bytes[JG_TRANSFER_TO_HOST], 16);
    assert_int_equal(c.count[JG_TRANSFER_TO_DEVICE], 0);
    assert_on_device(z, 0);
    jg_array *hz = NULL, *za = NULL, *zb = NULL;
    JGT_OK(jg_array_to_host(z, NULL, &hz, &jgt_err_));
    JGT_OK(jg_array_field(hz, "a", &za, &jgt_err_));
    JGT_OK(jg_array_field(hz, "b", &zb, &jgt_err_));
    assert_int_equal(jg_array_length(hz), sliced ? 2 : 4);
    jg_view ov, av, bv;
    JGT_OK(jg_array_buffer(za, 0, &ov, &jgt_err_));
    JGT_OK(jg_array_buffer(jg_array_child(za, 0), 0, &av, &jgt_err_));
    JGT_OK(jg_array_buffer(jg_array_child(zb, 0), 0, &bv, &jgt_err_));
    const jg_len first = sliced ? 2 : 0;
    for (jg_len i = 0; i < jg_array_length(hz); i++) {
      const int64_t s0 = view_int(&ov, i), s1 = view_int(&ov, i + 1);
      assert_int_equal(s1 - s0, off[first + i + 1] - off[first + i]);
      for (int64_t j = s0; j < s1; j++) {
        const int64_t want = off[first + i] + (j - s0);
        assert_true(((const float *)jg_view_data(&av))[j] == a[want]);
        assert_int_equal(((const int32_t *)jg_view_data(&bv))[j], b[want]);
      }
    }
    jg_array *all[] = {src, fa, fb, z, hz, za, zb};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) jg_array_release(all[i]);
  }
  jg_array *all[] = {ha, hb, hl, d};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) jg_array_release(all[i]);
}

int main(void) {
  JGT_REQUIRE_GPU();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_shared_on_target),
      cmocka_unit_test(test_mixed_backend_errors),
      cmocka_unit_test(test_from_counts_device),
      cmocka_unit_test(test_zip_device),
      cmocka_unit_test(test_zip_device_shared_offsets),
      cmocka_unit_test(test_zip_device_broadcast),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
