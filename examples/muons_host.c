/* muons_host.c: the host twin of muons.cu: the same events, walked through a host view with the
 * same per-event functions (muons_data.h), and the same count / scan / fill steps with the
 * output helper in host memory (device -1). Prints what muons.cu prints (bar the "walked on"
 * line), so that the two outputs can be compared:
 *   diff <(example_muons_host | tail -n +2) <(example_muons | tail -n +2)
 *
 * Build: part of the CMake build (examples/). Run: build/<dir>/examples/example_muons_host */
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

int main(void) {
  jg_error err;
  jg_error_clear(&err);
  const jg_len n = 1000;
  const float cut = 20.0f;
  jg_array *events = NULL;
  CHECK(muons_make_events(n, &events, &err));
  const int pt_field = jg_array_field_index(jg_array_child(events, 0), "pt");

  /* A host view: the same table of nodes as a device view, with host addresses. */
  jg_device_view *view = NULL;
  CHECK(jg_array_host_view_create(events, &view, &err));
  const jg_dview ev = jg_device_view_get(view);
  float *sum = malloc((size_t)n * sizeof *sum), *lead = malloc((size_t)n * sizeof *lead);
  if (sum == NULL || lead == NULL) return 1;
  for (jg_len i = 0; i < n; ++i) muons_event_pt(ev, pt_field, i, &sum[i], &lead[i]);

  /* Count, scan, fill: the muons with pt > cut, as a new list-offset array. */
  jg_list_output *out = NULL;
  CHECK(jg_list_output_begin(n, JG_DTYPE_FLOAT32, -1, NULL, &out, &err));
  int64_t *counts = jg_list_output_counts(out);
  for (jg_len i = 0; i < n; ++i) counts[i] = muons_count_above(ev, pt_field, i, cut);
  CHECK(jg_list_output_scan(out, &err));
  const int64_t *offsets = jg_list_output_offsets(out);
  float *content = jg_list_output_content(out);
  for (jg_len i = 0; i < n; ++i) muons_fill_above(ev, pt_field, i, cut, content + offsets[i]);
  jg_array *selected = NULL;
  CHECK(jg_list_output_finish(out, &selected, &err));
  jg_list_output_destroy(out);

  printf("walked on cpu\n");
  CHECK(muons_print(events, sum, lead, selected, &err));

  jg_array_release(selected);
  jg_device_view_destroy(view);
  jg_array_release(events);
  free(sum);
  free(lead);
  return 0;
}
