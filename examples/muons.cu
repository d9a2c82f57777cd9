/* muons.cu: a user CUDA kernel walks events of muons (type n * var * {pt: float32, eta: float32,
 * phi: float32, charge: int32}) through a device view and writes one number per event: the
 * scalar sum of the muons' pt and the leading muon's pt (-1 without muons). Then two more
 * kernels and jagged's count / scan / fill helper build the list of muons with pt > 20 per event
 * on the GPU. The events are built on the host from C arrays (array.h) and copied to the device
 * with jg_array_to_device; results come back with cudaMemcpy and jg_array_to_host.
 * examples/muons_host.c does the same on the host and prints the same report.
 *
 * Build: part of the CMake build when CUDA is on. Run: build/<dir>/examples/example_muons */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "jagged/jagged.h"
#include "jagged/device_view.h"
#include "muons_data.h"

#define CHECK(expr)                                                                \
  do {                                                                             \
    jg_status st_ = (expr);                                                        \
    if (st_ != JG_OK) {                                                            \
      fprintf(stderr, "%s: %s: %s\n", #expr, jg_status_name(st_), err.message);    \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

#define CUDA_CHECK(expr)                                                           \
  do {                                                                             \
    cudaError_t ce_ = (expr);                                                      \
    if (ce_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s: %s\n", #expr, cudaGetErrorString(ce_));                 \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

/* One thread per event. */
__global__ void event_pt_kernel(jg_dview ev, int32_t pt_field, float *sum, float *lead) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < jg_dview_length(ev, ev.root)) muons_event_pt(ev, pt_field, i, &sum[i], &lead[i]);
}

/* Step 1 of count / scan / fill: how many items each event's list will have. */
__global__ void count_kernel(jg_dview ev, int32_t pt_field, float cut, int64_t *counts) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < jg_dview_length(ev, ev.root)) counts[i] = muons_count_above(ev, pt_field, i, cut);
}

/* Step 2 (after jg_list_output_scan): write them at their offsets. */
__global__ void fill_kernel(jg_dview ev, int32_t pt_field, float cut, const int64_t *offsets,
                            float *content) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < jg_dview_length(ev, ev.root)) muons_fill_above(ev, pt_field, i, cut, content + offsets[i]);
}

int main(void) {
  jg_error err;
  jg_error_clear(&err);
  const jg_len n = 1000;
  const float cut = 20.0f;
  const int device = 0;

  jg_array *events = NULL, *d_events = NULL;
  CHECK(muons_make_events(n, &events, &err));
  const int pt_field = jg_array_field_index(jg_array_child(events, 0), "pt");

  /* A host array cannot be read by kernels: creating a view of it fails and says why. */
  jg_device_view *view = NULL;
  if (jg_array_device_view_create(events, device, NULL, &view, &err) != JG_OK)
    fprintf(stderr, "as expected, the host array is refused: %s\n", err.message);

  jg_stream stream = NULL;
  CHECK(jg_stream_create(&stream, &err));
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  CHECK(jg_array_to_device(events, device, stream, &d_events, &err));
  CHECK(jg_array_device_view_create(d_events, device, stream, &view, &err));
  const jg_dview ev = jg_device_view_get(view); /* passed by value to the kernels */
  const unsigned threads = 256, blocks = static_cast<unsigned>((n + threads - 1) / threads);

  /* One number (two here) per event. */
  float *d_sum = NULL, *d_lead = NULL;
  CUDA_CHECK(cudaMalloc(&d_sum, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_lead, n * sizeof(float)));
  event_pt_kernel<<<blocks, threads, 0, s>>>(ev, pt_field, d_sum, d_lead);
  CUDA_CHECK(cudaGetLastError());
  float *sum = static_cast<float *>(malloc(n * sizeof(float)));
  float *lead = static_cast<float *>(malloc(n * sizeof(float)));
  if (sum == NULL || lead == NULL) return 1;
  CUDA_CHECK(cudaMemcpyAsync(sum, d_sum, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaMemcpyAsync(lead, d_lead, n * sizeof(float), cudaMemcpyDeviceToHost, s));

  /* Count, scan, fill: the muons with pt > cut per event, a new list-offset array on cuda:0. */
  jg_list_output *out = NULL;
  CHECK(jg_list_output_begin(n, JG_DTYPE_FLOAT32, device, stream, &out, &err));
  count_kernel<<<blocks, threads, 0, s>>>(ev, pt_field, cut, jg_list_output_counts(out));
  CUDA_CHECK(cudaGetLastError());
  CHECK(jg_list_output_scan(out, &err)); /* synchronises the stream: sum and lead are in */
  fill_kernel<<<blocks, threads, 0, s>>>(ev, pt_field, cut, jg_list_output_offsets(out),
                                         static_cast<float *>(jg_list_output_content(out)));
  CUDA_CHECK(cudaGetLastError());
  jg_array *d_selected = NULL, *selected = NULL;
  CHECK(jg_list_output_finish(out, &d_selected, &err));
  jg_list_output_destroy(out);
  CHECK(jg_array_to_host(d_selected, stream, &selected, &err)); /* synchronises the stream */

  char dev[16];
  printf("walked on %s\n", jg_array_device_name(d_events, dev, sizeof dev));
  CHECK(muons_print(events, sum, lead, selected, &err));

  jg_array_release(selected);
  jg_array_release(d_selected);
  jg_device_view_destroy(view); /* after the kernels that used it (the stream is synchronised) */
  CUDA_CHECK(cudaFree(d_sum));
  CUDA_CHECK(cudaFree(d_lead));
  jg_array_release(d_events);
  jg_array_release(events);
  jg_stream_destroy(stream);
  free(sum);
  free(lead);
  return 0;
}
