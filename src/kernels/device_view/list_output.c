/* list_output.c: the count / scan / fill helper of device_view.h: new list-offset arrays written
 * by the user's kernels. The scan is the one of src/kernels/scan (scan.h): CUB's ExclusiveSum on
 * the device, a host loop on the host. */
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_transfer.h"
#include "jagged/device_view.h"
#include "kernels/scan/scan.h"

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

typedef enum output_state { BEGUN = 1, SCANNED = 2, FINISHED = 3 } output_state;

struct jg_list_output {
  output_state state;
  jg_len n;
  jg_dtype dtype;
  int device_id;            /* -1: host memory */
  jg_stream stream;
  jg_memory_resource *mr;   /* host or device resource (process-lifetime) */
  jg_buffer *counts;        /* n int64 */
  jg_buffer *offsets;       /* n + 1 int64, after the scan */
  jg_buffer *content;       /* total items of dtype, after the scan */
  jg_len total;             /* -1 before the scan */
};

static bool output_dtype_ok(jg_dtype dtype) {
  return dtype >= JG_DTYPE_BOOL && dtype <= JG_DTYPE_FLOAT64;
}

jg_status jg_list_output_begin(jg_len n, jg_dtype dtype, int device_id, jg_stream stream,
                               jg_list_output **out, jg_error *err) {
  static const char fn[] = "jg_list_output_begin";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: out is NULL", fn);
  *out = NULL;
  JG_RETURN_IF(n < 0, JG_EINVAL, err, "%s: negative number of lists %lld", fn, (long long)n);
  JG_RETURN_IF_AT(device_id < -1, JG_EINVAL, err, device_id, "%s: bad device id %d", fn,
                  device_id);
  JG_RETURN_IF(!output_dtype_ok(dtype), JG_EDTYPE, err,
               "%s: items of dtype %s cannot be output (bool, integers, float16/32/64)", fn,
               jg_dtype_name(dtype));
  int64_t offsets_bytes = 0;
  JG_RETURN_IF(jgi_add_overflow(n, (int64_t)1, &offsets_bytes) ||
                   jgi_mul_overflow(offsets_bytes, (int64_t)sizeof(int64_t), &offsets_bytes) ||
                   (uint64_t)offsets_bytes > SIZE_MAX,
               JG_EOVERFLOW, err, "%s: %lld lists need too many bytes of offsets", fn,
               (long long)n);
  jg_memory_resource *mr = jg_memory_resource_host();
  if (device_id >= 0) JG_RETURN_NOT_OK(jg_memory_resource_device(device_id, &mr, err));
  jg_list_output *o = calloc(1, sizeof *o);
  JG_RETURN_IF(o == NULL, JG_ENOMEM, err, "%s: cannot allocate the handle", fn);
  o->state = BEGUN;
  o->n = n;
  o->dtype = dtype;
  o->device_id = device_id;
  o->stream = stream;
  o->mr = mr;
  o->total = -1;
  const size_t bytes = (size_t)n * sizeof(int64_t);
  jg_status st = jg_buffer_allocate(mr, bytes, stream, &o->counts, err);
  if (st == JG_OK && bytes > 0) {
    if (device_id < 0) {
      memset(jg_buffer_data(o->counts), 0, bytes);
    } else {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
      int prev = 0;
      st = jgi_cuda_device_push(device_id, &prev, err);
      if (st == JG_OK) {
        st = jgi_cuda_error(err,
                            cudaMemsetAsync(jg_buffer_data(o->counts), 0, bytes,
                                            (cudaStream_t)stream),
                            "cudaMemsetAsync (list output counts)");
        jgi_cuda_device_pop(prev, device_id);
      }
#else
      st = jg_error_set(err, JG_ENODEV, -1, "%s: built without CUDA", fn);
#endif
    }
  }
  if (st != JG_OK) {
    jg_list_output_destroy(o);
    return st;
  }
  *out = o;
  return JG_OK;
}

int64_t *jg_list_output_counts(const jg_list_output *o) {
  return o == NULL ? NULL : (int64_t *)jg_buffer_data(o->counts);
}

int64_t *jg_list_output_offsets(const jg_list_output *o) {
  return o == NULL || o->state == BEGUN ? NULL : (int64_t *)jg_buffer_data(o->offsets);
}

void *jg_list_output_content(const jg_list_output *o) {
  return o == NULL || o->state == BEGUN ? NULL : jg_buffer_data(o->content);
}

jg_len jg_list_output_total(const jg_list_output *o) { return o == NULL ? -1 : o->total; }

static const char scan_fn[] = "jg_list_output_scan";

/* Host scan: offsets[0] = 0, offsets[i + 1] = offsets[i] + counts[i], checked. */
static jg_status scan_host(jg_list_output *o, jg_error *err) {
  const int64_t *c = (const int64_t *)jg_buffer_data(o->counts);
  int64_t *off = (int64_t *)jg_buffer_data(o->offsets);
  for (jg_len i = 0; i < o->n; ++i)
    JG_RETURN_IF_AT(c[i] < 0, JG_EVALUE, err, i, "%s: counts[%lld] = %lld is negative", scan_fn,
                    (long long)i, (long long)c[i]);
  int64_t sum = 0;
  off[0] = 0;
  for (jg_len i = 0; i < o->n; ++i) {
    JG_RETURN_IF_AT(jgi_add_overflow(sum, c[i], &sum), JG_EOVERFLOW, err, i,
                    "%s: the sum of counts[0..%lld] overflows int64", scan_fn, (long long)i);
    off[i + 1] = sum;
  }
  o->total = sum;
  return JG_OK;
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
/* Device scan on the current device (pushed by the caller). */
static jg_status scan_device(jg_list_output *o, jg_error *err) {
  const int64_t *counts = (const int64_t *)jg_buffer_data(o->counts);
  int64_t *off = (int64_t *)jg_buffer_data(o->offsets);
  cudaStream_t s = (cudaStream_t)o->stream;
  /* total = INT64_MAX: no count is "too large"; the overflow pass still runs (scan.h). */
  size_t temp_bytes = 0;
  JG_RETURN_NOT_OK(jgi_counts_to_offsets_cuda(counts, 1, JG_DTYPE_INT64, o->n, INT64_MAX, off,
                                              NULL, NULL, &temp_bytes, o->stream, err));
  /* One allocation: the status words, then CUB's storage 256 bytes in (CUB's alignment). */
  enum { TEMP_AT = 256 };
  jg_buffer *work = NULL;
  JG_RETURN_NOT_OK(jg_buffer_allocate(o->mr, TEMP_AT + temp_bytes, o->stream, &work, err));
  char *w = (char *)jg_buffer_data(work);
  jgi_scan_status *dstatus = (jgi_scan_status *)w;
  jgi_scan_status status;
  int64_t total = 0;
  jg_status st = jgi_counts_to_offsets_cuda(counts, 1, JG_DTYPE_INT64, o->n, INT64_MAX, off,
                                            dstatus, w + TEMP_AT, &temp_bytes, o->stream, err);
  if (st == JG_OK) {
    st = jgi_cuda_error(err, cudaMemcpyAsync(&status, dstatus, sizeof status,
                                             cudaMemcpyDeviceToHost, s),
                        "cudaMemcpyAsync (scan status)");
    if (st == JG_OK)
      jgi_transfer_record(JG_TRANSFER_TO_HOST, sizeof status, "list output: scan status");
  }
  if (st == JG_OK) {
    st = jgi_cuda_error(err, cudaMemcpyAsync(&total, off + o->n, sizeof total,
                                             cudaMemcpyDeviceToHost, s),
                        "cudaMemcpyAsync (total)");
    if (st == JG_OK) jgi_transfer_record(JG_TRANSFER_TO_HOST, sizeof total, "list output: total");
  }
  if (st == JG_OK)
    st = jgi_cuda_error(err, cudaStreamSynchronize(s), "cudaStreamSynchronize (list output)");
  jg_buffer_release(work);
  JG_RETURN_NOT_OK(st);
  if (status.first_negative != UINT64_MAX) {
    const jg_len i = (jg_len)status.first_negative;
    int64_t c = 0;
    JG_CUDA_RETURN_NOT_OK(cudaMemcpy(&c, counts + i, sizeof c, cudaMemcpyDeviceToHost),
                          "cudaMemcpy (a count)", err);
    jgi_transfer_record(JG_TRANSFER_TO_HOST, sizeof c, "list output: negative count");
    return jg_error_set(err, JG_EVALUE, i, "%s: counts[%lld] = %lld is negative", scan_fn,
                        (long long)i, (long long)c);
  }
  JG_RETURN_IF_AT(status.first_overflow != UINT64_MAX, JG_EOVERFLOW, err,
                  (int64_t)status.first_overflow,
                  "%s: the sum of counts[0..%lld] overflows int64", scan_fn,
                  (long long)status.first_overflow);
  o->total = total;
  return JG_OK;
}
#endif

jg_status jg_list_output_scan(jg_list_output *o, jg_error *err) {
  JG_RETURN_IF(o == NULL, JG_EINVAL, err, "%s: the handle is NULL", scan_fn);
  JG_RETURN_IF(o->state != BEGUN, JG_ESTATE, err, "%s: the counts were already scanned",
               scan_fn);
  if (o->offsets == NULL)
    JG_RETURN_NOT_OK(jg_buffer_allocate(o->mr, (size_t)(o->n + 1) * sizeof(int64_t), o->stream,
                                        &o->offsets, err));
  if (o->device_id < 0) {
    JG_RETURN_NOT_OK(scan_host(o, err));
  } else {
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
    int prev = 0;
    JG_RETURN_NOT_OK(jgi_cuda_device_push(o->device_id, &prev, err));
    const jg_status st = scan_device(o, err);
    jgi_cuda_device_pop(prev, o->device_id);
    JG_RETURN_NOT_OK(st);
#else
    return jg_error_set(err, JG_ENODEV, -1, "%s: built without CUDA", scan_fn);
#endif
  }
  const int64_t itemsize = jg_dtype_itemsize(o->dtype);
  int64_t bytes = 0;
  if (jgi_mul_overflow(o->total, itemsize, &bytes) || (uint64_t)bytes > SIZE_MAX) {
    const jg_len total = o->total;
    o->total = -1;
    return jg_error_set(err, JG_EOVERFLOW, -1, "%s: %lld items of %s need too many bytes",
                        scan_fn, (long long)total, jg_dtype_name(o->dtype));
  }
  const jg_status st = jg_buffer_allocate(o->mr, (size_t)bytes, o->stream, &o->content, err);
  if (st != JG_OK) {
    o->total = -1;
    return st;
  }
  o->state = SCANNED;
  return JG_OK;
}

jg_status jg_list_output_finish(jg_list_output *o, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_list_output_finish";
  JG_RETURN_IF(o == NULL || out == NULL, JG_EINVAL, err, "%s: NULL argument", fn);
  *out = NULL;
  JG_RETURN_IF(o->state == BEGUN, JG_ESTATE, err,
               "%s: call jg_list_output_scan (and fill the content) first", fn);
  JG_RETURN_IF(o->state == FINISHED, JG_ESTATE, err, "%s: the output was already finished", fn);
  jg_layout ol, cl;
  const jg_len n1 = o->n + 1;
  JG_RETURN_NOT_OK(jg_layout_init(&ol, 1, &n1, NULL, (int64_t)sizeof(int64_t), err));
  JG_RETURN_NOT_OK(jg_layout_init(&cl, 1, &o->total, NULL, jg_dtype_itemsize(o->dtype), err));
  jg_view ov, cv;
  JG_RETURN_NOT_OK(jg_view_from_buffer(&ov, o->offsets, &ol, JG_DTYPE_INT64, true, err));
  JG_RETURN_NOT_OK(jg_view_from_buffer(&cv, o->content, &cl, o->dtype, true, err));
  jg_array *content = NULL;
  JG_RETURN_NOT_OK(jg_array_numeric(&cv, &content, err));
  const jg_status st = jg_array_list_offset(&ov, content, out, err);
  jg_array_release(content);
  JG_RETURN_NOT_OK(st);
  o->state = FINISHED;
  return JG_OK;
}

void jg_list_output_destroy(jg_list_output *o) {
  if (o == NULL) return;
  jg_buffer_release(o->counts);
  jg_buffer_release(o->offsets);
  jg_buffer_release(o->content);
  free(o);
}
