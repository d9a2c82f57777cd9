/* histogram.c: jg_histogram_fill (ops.h), a fixed-width 1-D histogram of every value of a numeric
 * or jagged array, on the array's backend, through the catalog kernel "hist1d".
 *
 * The values a histogram sees are the content elements the array's lists reach. For chains of
 * list-offset nodes these are one contiguous range of the innermost content: the range [a, b) of
 * the top level becomes [offsets[a], offsets[b]) one level down, and so on (offsets not at 0 and
 * content past the last offset are thus honoured). Offsets may have any stride (a strided slice
 * is made dense first); every list reached is checked (offsets_to_counts finds a decrease
 * anywhere), and the first and last offset per level are read (from the device for device
 * arrays). Lists that are all empty reach no values, wherever they start. Other node kinds (list nodes with starts/stops, options, records,
 * regular) are JG_ENOTSUP in this version. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_kernel.h"
#include "internal/jgi_ops.h"
#include "jagged/ops.h"
#include "jagged/view.h"

extern JGI_HIDDEN const jg_kernel jgi_kernel_hist1d;
extern JGI_HIDDEN const jg_kernel jgi_kernel_counts_equal;


/* Most bins whose private copies (counts and squared weights) fit the default 48 KiB of shared
 * memory of a block. */
#define SHARED_LIMIT (48 * 1024)

/* The leaf of `a` reached through list-offset nodes: the numeric node and the range [*lo, *hi)
 * of its elements; `levels` receives the number of list levels and `sizes` the range size at
 * each (for comparing weights with values). */
typedef struct reach {
  const jg_array *leaf;
  int64_t lo, hi;
  int levels;
  int64_t sizes[64];        /* lists at each level */
  jg_kernel_arg offsets[64]; /* each level's offsets of the lists reached, dense (sizes + 1) */
} reach;

static jg_status walk(jgi_op_ctx *c, const jg_array *a, const char *what, reach *r,
                      jg_error *err) {
  memset(r, 0, sizeof *r);
  int64_t lo = 0, hi = a->length;
  for (;;) {
    if (a->kind == JG_NODE_NUMERIC) break;
    JG_RETURN_IF(a->kind != JG_NODE_LIST_OFFSET, JG_ENOTSUP, err,
                 "jg_histogram_fill: %s has a %s node; this version histograms numeric arrays and "
                 "list-offset lists of them", what, jgi_array_node_name(a->kind));
    JG_RETURN_IF(r->levels == 64, JG_ENOTSUP, err, "jg_histogram_fill: %s is nested too deeply",
                 what);
    int64_t nlo = 0, nhi = 0;
    JG_RETURN_NOT_OK(
        jgi_op_offsets_range(c, a, lo, hi - lo, &nlo, &nhi, &r->offsets[r->levels], err));
    r->sizes[r->levels++] = hi - lo;
    lo = nlo;
    hi = nhi;
    a = a->children[0];
  }
  const jg_view *v = &a->buffers[0];
  JG_RETURN_IF(v->layout.ndim != 1, JG_ENOTSUP, err,
               "jg_histogram_fill: %s has %d-D numbers; histograms take 1-D ones", what,
               (int)v->layout.ndim);
  r->leaf = a;
  r->lo = lo;
  r->hi = hi;
  return JG_OK;
}

/* JG_OK when every list of level k has as many entries in `w` as in `v` (kernel counts_equal on
 * the arrays' backend). */
static jg_status same_counts(jgi_op_ctx *c, const reach *v, const reach *w, int k,
                             jg_error *err) {
  const int64_t n = v->sizes[k];
  if (n == 0) return JG_OK;
  const jg_kernel_arg *a = &v->offsets[k], *b = &w->offsets[k];
  jg_kernel_arg sa = *a, ta = *a, sb = *b, tb = *b;
  sa.v.array.length = ta.v.array.length = sb.v.array.length = tb.v.array.length = n;
  ta.v.array.data = (char *)a->v.array.data + jg_dtype_itemsize(a->dtype);
  tb.v.array.data = (char *)b->v.array.data + jg_dtype_itemsize(b->dtype);
  const jg_kernel_arg args[5] = {jg_arg_i64(n), sa, ta, sb, tb};
  jg_error e;
  const jg_status st = jg_kernel_call(&jgi_kernel_counts_equal, args, 5, &c->launch, &e);
  if (st == JG_ESHAPE) {
    return jg_error_set(err, JG_ESHAPE, e.index,
                        "jg_histogram_fill: list %lld at depth %d has a different length "
                        "in weights and values", (long long)e.index, k + 1);
  }
  if (st != JG_OK && err != NULL) *err = e;
  return st;
}

/* A contiguous view of elements [lo, hi) of the leaf: the leaf itself when its stride is 1,
 * else a dense copy in `*tmp` (same device). */
static jg_status dense_range(const reach *r, jg_buffer **tmp, void **data, jg_error *err) {
  const jg_view *v = &r->leaf->buffers[0];
  const int64_t n = r->hi - r->lo;
  *tmp = NULL;
  if (v->layout.strides[0] == 1 || n <= 1) {
    *data = n > 0 ? jgi_view_element_ptr(v, r->lo) : NULL;
    return JG_OK;
  }
  jg_memory_resource *mr = jg_memory_resource_host();
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  if (!v->host_accessible) JG_RETURN_NOT_OK(jg_memory_resource_device((int)v->device.id, &mr, err));
#endif
  JG_RETURN_NOT_OK(jg_buffer_allocate(mr, (size_t)(n * v->layout.itemsize), NULL, tmp, err));
  jg_view src = *v, dst;
  src.layout.slice_offset += r->lo * v->layout.strides[0];
  src.layout.shape[0] = n;
  jg_layout l;
  jg_status st = jg_layout_init(&l, 1, &n, NULL, v->layout.itemsize, err);
  if (st == JG_OK) st = jg_view_from_buffer(&dst, *tmp, &l, v->dtype, false, err);
  if (st == JG_OK) st = jg_copy(&dst, &src, err);
  if (st != JG_OK) {
    jg_buffer_release(*tmp);
    *tmp = NULL;
    return st;
  }
  *data = jg_buffer_data(*tmp);
  return JG_OK;
}

static bool numeric_dtype(jg_dtype d) {
  return d >= JG_DTYPE_BOOL && d <= JG_DTYPE_FLOAT64 && d != JG_DTYPE_FLOAT16;
}

/* The work of jg_histogram_fill once its arguments are checked (temporaries in `c`). */
static jg_status fill(jgi_op_ctx *c, jg_hist1d *h, const jg_array *values,
                      const jg_array *weights, jg_stream stream, jg_error *err) {
  reach rv, rw;
  JG_RETURN_NOT_OK(walk(c, values, "values", &rv, err));
  const jg_dtype vt = rv.leaf->buffers[0].dtype;
  JG_RETURN_IF(!numeric_dtype(vt), JG_EDTYPE, err,
               "jg_histogram_fill: values are %s; histograms take integers, bools and floats",
               jg_dtype_name(vt));
  jg_dtype wt = JG_DTYPE_FLOAT64;
  if (weights != NULL) {
    JG_RETURN_NOT_OK(walk(c, weights, "weights", &rw, err));
    JG_RETURN_IF(rw.levels != rv.levels, JG_ESHAPE, err,
                 "jg_histogram_fill: weights have %d list levels, values %d", rw.levels,
                 rv.levels);
    for (int k = 0; k < rv.levels; ++k) {
      JG_RETURN_IF(rw.sizes[k] != rv.sizes[k], JG_ESHAPE, err,
                   "jg_histogram_fill: at depth %d weights have %lld entries, values %lld",
                   k + 1, (long long)rw.sizes[k], (long long)rv.sizes[k]);
    }
    for (int k = 0; k < rv.levels; ++k) JG_RETURN_NOT_OK(same_counts(c, &rv, &rw, k, err));
    JG_RETURN_IF(rw.hi - rw.lo != rv.hi - rv.lo, JG_ESHAPE, err,
                 "jg_histogram_fill: weights have %lld numbers, values %lld",
                 (long long)(rw.hi - rw.lo), (long long)(rv.hi - rv.lo));
    wt = rw.leaf->buffers[0].dtype;
    JG_RETURN_IF(wt != JG_DTYPE_FLOAT32 && wt != JG_DTYPE_FLOAT64, JG_EDTYPE, err,
                 "jg_histogram_fill: weights are %s; this version takes float32 or float64",
                 jg_dtype_name(wt));
  }
  const int64_t n = rv.hi - rv.lo, nw = weights != NULL ? n : 0;
  const int64_t nb = h->n_bins;
  jg_buffer *vtmp = NULL, *wtmp = NULL;
  void *vdata = NULL, *wdata = NULL;
  jg_status st = dense_range(&rv, &vtmp, &vdata, err);
  if (st == JG_OK && weights != NULL) st = dense_range(&rw, &wtmp, &wdata, err);
  const jg_device dev = jg_array_device(values);
  const bool on_device = dev.type == JG_DEVICE_CUDA;
  /* counts and sumw2 for the kernel: counts has two more slots (entries, NaN). */
  double *hc = NULL, *hs = NULL;
  if (st == JG_OK) {
    hc = calloc((size_t)(nb + 4), sizeof *hc);
    hs = calloc((size_t)(nb + 2), sizeof *hs);
    if (hc == NULL || hs == NULL) st = jg_error_set(err, JG_ENOMEM, -1, "jg_histogram_fill: out of host memory");
  }
  jg_kernel_arg args[10];
  if (st == JG_OK) {
    memcpy(hc, h->counts, (size_t)(nb + 2) * sizeof *hc);
    if (h->sumw2 != NULL) memcpy(hs, h->sumw2, (size_t)(nb + 2) * sizeof *hs);
    const jg_device host = JG_DEVICE_HOST_INIT;
    args[0] = jg_arg_i64(n);
    args[1] = jg_arg_array(vdata, n, vt, on_device ? dev : host);
    args[2] = jg_arg_i64(nw);
    args[3] = jg_arg_array(wdata, nw, wt, on_device ? dev : host);
    args[4] = jg_arg_i64(nb);
    args[5] = jg_arg_f64(h->lo);
    args[6] = jg_arg_f64(h->hi);
    args[7] = jg_arg_i64(1);
    args[8] = jg_arg_array(hc, nb + 4, JG_DTYPE_FLOAT64, host);
    args[9] = jg_arg_array(hs, nb + 2, JG_DTYPE_FLOAT64, host);
  }
  if (st == JG_OK && !on_device) {
    st = jg_kernel_call(&jgi_kernel_hist1d, args, 10, NULL, err);
  } else if (st == JG_OK) {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    /* One zeroed device array holds both histogram arrays (counts, then sumw2); the kernel
     * counts this call's values into it, one copy brings it back, and the host adds it to what
     * the histogram held (integer counts: exact in any order). */
    double *dc = NULL, *ds = NULL, *back = NULL;
    int prev = -1;
    st = jgi_cuda_device_push((int)dev.id, &prev, err);
    if (st == JG_OK) {
      cudaStream_t s = (cudaStream_t)stream;
      const size_t bc = (size_t)(nb + 4) * sizeof(double), bs = (size_t)(nb + 2) * sizeof(double);
      back = malloc(bc + bs);
      if (back == NULL) st = jg_error_set(err, JG_ENOMEM, -1, "jg_histogram_fill: out of host memory");
      if (st == JG_OK) st = jgi_scratch_alloc((int)dev.id, bc + bs, s, (void **)&dc, err);
      if (st == JG_OK) {
        ds = dc + (nb + 4);
        st = jgi_cuda_error(err, cudaMemsetAsync(dc, 0, bc + bs, s), "jg_histogram_fill: cudaMemsetAsync");
      }
      if (st == JG_OK) {
        args[8] = jg_arg_array(dc, nb + 4, JG_DTYPE_FLOAT64, dev);
        args[9] = jg_arg_array(ds, nb + 2, JG_DTYPE_FLOAT64, dev);
        jg_launch l;
        memset(&l, 0, sizeof l);
        l.stream = stream;
        const size_t shared = (size_t)(nb + 2) * 2 * sizeof(double);
        l.shared_bytes = shared <= SHARED_LIMIT ? shared : 0;
        /* Enough blocks to fill the GPU, each counting many values into its private copy. */
        l.grid = n / (256 * 16) + 1;
        if (l.grid > 4096) l.grid = 4096;
        st = jg_kernel_call(&jgi_kernel_hist1d, args, 10, &l, err);
      }
      if (st == JG_OK) st = jgi_cuda_error(err, cudaMemcpyAsync(back, dc, bc + bs, cudaMemcpyDeviceToHost, s), "jg_histogram_fill: cudaMemcpyAsync");
      if (dc != NULL) jgi_scratch_free(dc, s);
      const jg_status sync = jgi_cuda_error(err, cudaStreamSynchronize(s), "jg_histogram_fill: cudaStreamSynchronize");
      if (st == JG_OK) st = sync;
      if (st == JG_OK) {
        for (int64_t k = 0; k < nb + 4; k++) hc[k] += back[k];
        for (int64_t k = 0; k < nb + 2; k++) hs[k] += back[nb + 4 + k];
      }
      jgi_cuda_device_pop(prev, (int)dev.id);
    }
    free(back);
#else
    (void)stream;
    st = jg_error_set(err, JG_ENODEV, -1, "jg_histogram_fill: built without CUDA");
#endif
  }
  if (st == JG_OK) {
    memcpy(h->counts, hc, (size_t)(nb + 2) * sizeof *hc);
    if (h->sumw2 != NULL) memcpy(h->sumw2, hs, (size_t)(nb + 2) * sizeof *hs);
    h->entries += (int64_t)hc[nb + 2];
    h->nan += (int64_t)hc[nb + 3];
  }
  free(hc);
  free(hs);
  jg_buffer_release(vtmp);
  jg_buffer_release(wtmp);
  return st;
}

jg_status jg_histogram_fill(jg_hist1d *h, const jg_array *values, const jg_array *weights,
                            jg_stream stream, jg_error *err) {
  JG_RETURN_IF(h == NULL || values == NULL, JG_EINVAL, err, "jg_histogram_fill: NULL %s",
               h == NULL ? "histogram" : "values");
  JG_RETURN_IF(h->counts == NULL, JG_EINVAL, err, "jg_histogram_fill: h->counts is NULL");
  JG_RETURN_IF(h->n_bins < 1 || !isfinite(h->lo) || !isfinite(h->hi) || !(h->lo < h->hi),
               JG_EINVAL, err,
               "jg_histogram_fill: the axis needs n_bins >= 1 and finite lo < hi (n_bins %lld, "
               "lo %g, hi %g)", (long long)h->n_bins, h->lo, h->hi);
  JG_RETURN_IF(h->n_bins > ((int64_t)1 << 40), JG_EINVAL, err,
               "jg_histogram_fill: %lld bins is too many", (long long)h->n_bins);
  {
    /* hi - lo may overflow to inf (every value would go to bin 0), (hi - lo) / n_bins
     * underflow to 0 (NaN bins), as NumPy's "cannot create finite-sized bins". */
    const double w = (h->hi - h->lo) / (double)h->n_bins;
    JG_RETURN_IF(!isfinite(w) || !(w > 0.0), JG_EINVAL, err,
                 "jg_histogram_fill: the bin width (hi - lo) / n_bins = %g is not a finite, "
                 "non-zero number (n_bins %lld, lo %g, hi %g)",
                 w, (long long)h->n_bins, h->lo, h->hi);
  }
  if (weights != NULL) {
    JG_RETURN_NOT_OK(jg_array_check_same_backend(values, "values", weights, "weights", err));
  }
  jgi_op_ctx c;
  JG_RETURN_NOT_OK(jgi_op_ctx_init(&c, "jg_histogram_fill", values, stream, err));
  return jgi_op_ctx_finish(&c, fill(&c, h, values, weights, stream, err), err);
}
