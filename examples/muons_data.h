/* muons_data.h: shared by examples/muons.cu (a CUDA kernel per event) and examples/muons_host.c
 * (the same per-event code in a host loop): deterministic events of muons, built on the host
 * from C arrays, and the per-event functions, written once for both sides with JG_HD. */
#ifndef JAGGED_EXAMPLES_MUONS_DATA_H
#define JAGGED_EXAMPLES_MUONS_DATA_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "jagged/device_view.h"

/* ---- per-event code: host and device ------------------------------------------------------ */

/* The pt field of the muon records of `ev` (type n * var * {pt, ...}), field `pt_field`. */
static inline JG_HD int32_t muons_pt_node(jg_dview ev, int32_t pt_field) {
  return jg_dview_field(ev, jg_dview_content(ev, ev.root), pt_field);
}

/* Event i: the scalar sum of its muons' pt, and the leading (largest) pt or -1 without muons. */
static inline JG_HD void muons_event_pt(jg_dview ev, int32_t pt_field, int64_t i, float *sum,
                                        float *lead) {
  const jg_drange mu = jg_dview_list(ev, ev.root, i);
  const int32_t pt = muons_pt_node(ev, pt_field);
  float s = 0.0f, best = -1.0f;
  for (int64_t j = mu.start; j < mu.stop; ++j) {
    const float p = jg_dview_get_f32(ev, pt, j);
    s += p;
    if (p > best) best = p;
  }
  *sum = s;
  *lead = best;
}

/* How many muons of event i have pt > cut. */
static inline JG_HD int64_t muons_count_above(jg_dview ev, int32_t pt_field, int64_t i,
                                              float cut) {
  const jg_drange mu = jg_dview_list(ev, ev.root, i);
  const int32_t pt = muons_pt_node(ev, pt_field);
  int64_t n = 0;
  for (int64_t j = mu.start; j < mu.stop; ++j) n += jg_dview_get_f32(ev, pt, j) > cut;
  return n;
}

/* Writes the pt of event i's muons with pt > cut to dst[0], dst[1], ... */
static inline JG_HD void muons_fill_above(jg_dview ev, int32_t pt_field, int64_t i, float cut,
                                          float *dst) {
  const jg_drange mu = jg_dview_list(ev, ev.root, i);
  const int32_t pt = muons_pt_node(ev, pt_field);
  int64_t k = 0;
  for (int64_t j = mu.start; j < mu.stop; ++j) {
    const float p = jg_dview_get_f32(ev, pt, j);
    if (p > cut) dst[k++] = p;
  }
}

/* ---- building the events on the host ------------------------------------------------------ */

/* A 64-bit LCG (Knuth's MMIX constants): uniform in [0, 1) from the top 24 bits. */
static float muons_uniform(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (float)(*state >> 40) / 16777216.0f;
}

/* `nevents` events with 0 to 4 muons each: a list-offset array over a record array
 * {pt: float32 in [5, 80), eta: float32 in [-2.4, 2.4), phi: float32 in [-pi, pi),
 * charge: int32 +-1}, every buffer in host memory. */
static jg_status muons_make_events(jg_len nevents, jg_array **out, jg_error *err) {
  uint64_t state = 2024;
  int64_t *offsets = (int64_t *)malloc((size_t)(nevents + 1) * sizeof *offsets);
  if (offsets == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  offsets[0] = 0;
  for (jg_len i = 0; i < nevents; ++i)
    offsets[i + 1] = offsets[i] + (int64_t)(muons_uniform(&state) * 5.0f);
  const jg_len nmuons = offsets[nevents];
  float *pt = (float *)malloc((size_t)(nmuons + 1) * sizeof(float));
  float *eta = (float *)malloc((size_t)(nmuons + 1) * sizeof(float));
  float *phi = (float *)malloc((size_t)(nmuons + 1) * sizeof(float));
  int32_t *charge = (int32_t *)malloc((size_t)(nmuons + 1) * sizeof(int32_t));
  jg_status st = JG_OK;
  if (pt == NULL || eta == NULL || phi == NULL || charge == NULL)
    st = jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  for (jg_len j = 0; st == JG_OK && j < nmuons; ++j) {
    pt[j] = 5.0f + 75.0f * muons_uniform(&state);
    eta[j] = -2.4f + 4.8f * muons_uniform(&state);
    phi[j] = -3.14159265f + 6.2831853f * muons_uniform(&state);
    charge[j] = muons_uniform(&state) < 0.5f ? -1 : 1;
  }
  /* One numeric array per field, a record of them, and the events' offsets over it. */
  jg_array *fields[4] = {NULL, NULL, NULL, NULL};
  const char *const names[4] = {"pt", "eta", "phi", "charge"};
  jg_array *muons = NULL, *off = NULL;
  if (st == JG_OK) st = jg_array_from_host(pt, nmuons, JG_DTYPE_FLOAT32, &fields[0], err);
  if (st == JG_OK) st = jg_array_from_host(eta, nmuons, JG_DTYPE_FLOAT32, &fields[1], err);
  if (st == JG_OK) st = jg_array_from_host(phi, nmuons, JG_DTYPE_FLOAT32, &fields[2], err);
  if (st == JG_OK) st = jg_array_from_host(charge, nmuons, JG_DTYPE_INT32, &fields[3], err);
  if (st == JG_OK) st = jg_array_record(4, fields, names, -1, &muons, err);
  if (st == JG_OK) st = jg_array_from_host(offsets, nevents + 1, JG_DTYPE_INT64, &off, err);
  jg_view offsets_view;
  if (st == JG_OK) st = jg_array_buffer(off, 0, &offsets_view, err);
  if (st == JG_OK) st = jg_array_list_offset(&offsets_view, muons, out, err);
  for (int k = 0; k < 4; ++k) jg_array_release(fields[k]);
  jg_array_release(muons); /* the events hold their own references */
  jg_array_release(off);
  free(offsets);
  free(pt);
  free(eta);
  free(phi);
  free(charge);
  return st;
}

/* ---- the report, the same from both programs ---------------------------------------------- */

/* Prints the type of `events`, the first events' sums and leading pt, a checksum over all of
 * them, and the selected muons (`selected`: a host array, n * var * float32). */
static jg_status muons_print(const jg_array *events, const float *sum, const float *lead,
                             const jg_array *selected, jg_error *err) {
  char text[512];
  jg_status st = jg_array_type_string(events, text, sizeof text, NULL, err);
  if (st != JG_OK) return st;
  printf("events: %s\n", text);
  const jg_len n = jg_array_length(events);
  printf("event  sum_pt   leading_pt\n");
  for (jg_len i = 0; i < n && i < 8; ++i)
    printf("%5lld  %7.3f  %7.3f\n", (long long)i, (double)sum[i], (double)lead[i]);
  double total = 0.0;
  jg_len with_muons = 0;
  for (jg_len i = 0; i < n; ++i) {
    total += sum[i];
    with_muons += lead[i] >= 0.0f;
  }
  printf("all %lld events: %lld with muons, sum of sum_pt %.3f\n", (long long)n,
         (long long)with_muons, total);
  st = jg_array_type_string(selected, text, sizeof text, NULL, err);
  if (st != JG_OK) return st;
  printf("muons with pt > 20: %s, %lld in all\n", text,
         (long long)jg_array_length(jg_array_child(selected, 0)));
  st = jg_array_to_string(selected, 100, text, sizeof text, NULL, err);
  if (st != JG_OK) return st;
  printf("%s\n", text);
  return JG_OK;
}

#endif /* JAGGED_EXAMPLES_MUONS_DATA_H */
