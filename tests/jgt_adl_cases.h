/* jgt_adl_cases.h: random events for the ADL queries (cli/adl/adl_queries.c) and an independent
 * implementation of each query as plain C loops over them, written from the definitions in
 * ../shared/data/adl/README.md, to compare the queries' histograms with, bin for bin, on the
 * host (tests/unit/test_adl_queries.c) and on the GPU (tests/gpu/test_adl_gpu.c). */
#ifndef JGT_ADL_CASES_H
#define JGT_ADL_CASES_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/adl/adl_queries.h"
#include "jg_test.h"

#define JGT_PI 3.14159265358979323846

/* One collection: counts per event and float32 fields (charge int32). */
typedef struct jgt_coll {
  int64_t *counts;
  int64_t total;
  float *pt, *eta, *phi, *mass, *btag;
  int32_t *charge;
} jgt_coll;

typedef struct jgt_events {
  int64_t n;
  float *met_pt, *met_phi;
  jgt_coll jet, muon, electron;
} jgt_events;

static uint64_t jgt_adl_rng_state;
static double jgt_adl_uniform(void) {
  jgt_adl_rng_state = jgt_adl_rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(jgt_adl_rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static void jgt_coll_make(jgt_coll *c, int64_t n, int max_count, double pt_lo, double pt_hi,
                          double mass, bool charged) {
  c->counts = calloc((size_t)n + 1, sizeof(int64_t));
  c->total = 0;
  for (int64_t i = 0; i < n; i++) {
    /* more empty and short lists than long ones */
    const double u = jgt_adl_uniform();
    c->counts[i] = (int64_t)(u * u * (max_count + 1));
    c->total += c->counts[i];
  }
  const size_t m = (size_t)c->total + 1;
  c->pt = malloc(m * sizeof(float));
  c->eta = malloc(m * sizeof(float));
  c->phi = malloc(m * sizeof(float));
  c->mass = malloc(m * sizeof(float));
  c->btag = malloc(m * sizeof(float));
  c->charge = malloc(m * sizeof(int32_t));
  for (int64_t k = 0; k < c->total; k++) {
    c->pt[k] = (float)(pt_lo + (pt_hi - pt_lo) * jgt_adl_uniform() * jgt_adl_uniform());
    c->eta[k] = (float)(-3.0 + 6.0 * jgt_adl_uniform());
    c->phi[k] = (float)(-JGT_PI + 2 * JGT_PI * jgt_adl_uniform());
    c->mass[k] = mass >= 0 ? (float)mass : (float)(20.0 * jgt_adl_uniform());
    c->btag[k] = (float)(jgt_adl_uniform() < 0.1 ? -1.0 : jgt_adl_uniform());
    c->charge[k] = charged ? (jgt_adl_uniform() < 0.5 ? -1 : 1) : 0;
  }
}

static void jgt_coll_free(jgt_coll *c) {
  free(c->counts);
  free(c->pt);
  free(c->eta);
  free(c->phi);
  free(c->mass);
  free(c->btag);
  free(c->charge);
}

/* n random events: up to 7 jets (pt 10..150), 5 muons and 4 electrons (pt 3..120), MET 0..400;
 * pair masses spread over the Z window, so that every query fills many bins. */
static void jgt_events_make(jgt_events *e, int64_t n, uint64_t seed) {
  jgt_adl_rng_state = seed;
  e->n = n;
  e->met_pt = malloc(((size_t)n + 1) * sizeof(float));
  e->met_phi = malloc(((size_t)n + 1) * sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    e->met_pt[i] = (float)(400.0 * jgt_adl_uniform() * jgt_adl_uniform());
    e->met_phi[i] = (float)(-JGT_PI + 2 * JGT_PI * jgt_adl_uniform());
  }
  jgt_coll_make(&e->jet, n, 7, 10, 150, -1, false);
  jgt_coll_make(&e->muon, n, 5, 3, 120, 0.1057, true);
  jgt_coll_make(&e->electron, n, 4, 3, 120, 0.000511, true);
}

static void jgt_events_free(jgt_events *e) {
  free(e->met_pt);
  free(e->met_phi);
  jgt_coll_free(&e->jet);
  jgt_coll_free(&e->muon);
  jgt_coll_free(&e->electron);
}

/* The collection as jagged lists of records {pt, eta, phi, mass, charge, btag}: built from
 * counts (host), zipped. */
static jg_array *jgt_coll_array(const jgt_coll *c, int64_t n) {
  const void *values[6] = {c->pt, c->eta, c->phi, c->mass, c->charge, c->btag};
  const jg_dtype dt[6] = {JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT32, JG_DTYPE_FLOAT32,
                          JG_DTYPE_FLOAT32, JG_DTYPE_INT32,   JG_DTYPE_FLOAT32};
  const char *names[6] = {"pt", "eta", "phi", "mass", "charge", "btag"};
  jg_array *f[6];
  for (int k = 0; k < 6; k++) {
    assert_int_equal(jg_array_from_host_counts(c->counts, n, values[k], c->total, dt[k], &f[k],
                                               NULL),
                     JG_OK);
  }
  jg_array *z = NULL;
  assert_int_equal(jg_array_zip(6, f, names, -1, &z, NULL), JG_OK);
  for (int k = 0; k < 6; k++) jg_array_release(f[k]);
  return z;
}

/* The events as the queries take them (host arrays). */
static void jgt_events_arrays(const jgt_events *e, adl_events *ev) {
  memset(ev, 0, sizeof *ev);
  ev->n = e->n;
  jg_array *f[2];
  assert_int_equal(jg_array_from_host(e->met_pt, e->n, JG_DTYPE_FLOAT32, &f[0], NULL), JG_OK);
  assert_int_equal(jg_array_from_host(e->met_phi, e->n, JG_DTYPE_FLOAT32, &f[1], NULL), JG_OK);
  const char *names[2] = {"pt", "phi"};
  assert_int_equal(jg_array_record(2, f, names, e->n, &ev->met, NULL), JG_OK);
  jg_array_release(f[0]);
  jg_array_release(f[1]);
  ev->jet = jgt_coll_array(&e->jet, e->n);
  ev->muon = jgt_coll_array(&e->muon, e->n);
  ev->electron = jgt_coll_array(&e->electron, e->n);
}

/* ---- the independent implementation ---- */

static void jgt_fill(double *counts, double lo, double hi, double v) {
  const double w = (hi - lo) / 100;
  int64_t b;
  if (v < lo) b = 0;
  else if (v >= hi) b = 101;
  else {
    b = 1 + (int64_t)floor((v - lo) / w);
    if (b > 100) b = 100;
  }
  counts[b] += 1;
}

typedef struct jgt_p4 {
  double px, py, pz, e;
} jgt_p4;

static jgt_p4 jgt_p4_of(const jgt_coll *c, int64_t k) {
  const double pt = c->pt[k], eta = c->eta[k], phi = c->phi[k], m = c->mass[k];
  jgt_p4 p = {pt * cos(phi), pt * sin(phi), pt * sinh(eta), 0};
  p.e = sqrt(pow(pt * cosh(eta), 2) + m * m);
  return p;
}
static jgt_p4 jgt_p4_add(jgt_p4 a, jgt_p4 b) {
  jgt_p4 s = {a.px + b.px, a.py + b.py, a.pz + b.pz, a.e + b.e};
  return s;
}
static double jgt_p4_mass(jgt_p4 p) {
  return sqrt(p.e * p.e - p.px * p.px - p.py * p.py - p.pz * p.pz);
}
static double jgt_dphi(double a, double b) {
  double d = fmod(a - b, 2 * JGT_PI);
  if (d < -JGT_PI) d += 2 * JGT_PI;
  if (d > JGT_PI) d -= 2 * JGT_PI;
  return d;
}

/* Fills h0 (and h1 for query 6) with query `q` (1..8) over events [i0, i1) of e, as README.md
 * defines it. */
static void jgt_adl_reference(const jgt_events *e, int64_t i0, int64_t i1, int q, double *h0,
                              double *h1) {
  int64_t jo = 0, mo = 0, eo = 0; /* offsets of the event's jets, muons, electrons */
  for (int64_t i = 0; i < e->n; i++) {
    const int64_t nj = e->jet.counts[i], nm = e->muon.counts[i], ne = e->electron.counts[i];
    const jgt_coll *J = &e->jet, *M = &e->muon, *E = &e->electron;
    const bool in = i >= i0 && i < i1;
    if (in && q == 1) jgt_fill(h0, 0, 2000, e->met_pt[i]);
    if (in && q == 2) {
      for (int64_t a = jo; a < jo + nj; a++) jgt_fill(h0, 15, 60, J->pt[a]);
    }
    if (in && q == 3) {
      for (int64_t a = jo; a < jo + nj; a++) {
        if (fabs((double)J->eta[a]) < 1) jgt_fill(h0, 15, 60, J->pt[a]);
      }
    }
    if (in && q == 4) {
      int c = 0;
      for (int64_t a = jo; a < jo + nj; a++) c += J->pt[a] > 40;
      if (c >= 2) jgt_fill(h0, 0, 2000, e->met_pt[i]);
    }
    if (in && q == 5) {
      bool found = false;
      for (int64_t a = mo; a < mo + nm; a++) {
        for (int64_t b = a + 1; b < mo + nm; b++) {
          const double m = sqrt(2.0 * M->pt[a] * M->pt[b] *
                                (cosh((double)M->eta[a] - M->eta[b]) -
                                 cos((double)M->phi[a] - M->phi[b])));
          if (M->charge[a] != M->charge[b] && m >= 60 && m <= 120) found = true;
        }
      }
      if (found) jgt_fill(h0, 0, 2000, e->met_pt[i]);
    }
    if (in && q == 6 && nj >= 3) {
      double best = INFINITY, pt = 0, btag = 0;
      for (int64_t a = jo; a < jo + nj; a++) {
        for (int64_t b = a + 1; b < jo + nj; b++) {
          for (int64_t c = b + 1; c < jo + nj; c++) {
            const jgt_p4 s =
                jgt_p4_add(jgt_p4_add(jgt_p4_of(J, a), jgt_p4_of(J, b)), jgt_p4_of(J, c));
            const double d = fabs(jgt_p4_mass(s) - 172.5);
            if (d < best) {
              best = d;
              pt = sqrt(s.px * s.px + s.py * s.py);
              btag = fmax(fmax(J->btag[a], J->btag[b]), J->btag[c]);
            }
          }
        }
      }
      jgt_fill(h0, 15, 40, pt);
      jgt_fill(h1, 0, 1, btag);
    }
    if (in && q == 7) {
      double sum = 0;
      int kept = 0;
      for (int64_t a = jo; a < jo + nj; a++) {
        if (!(J->pt[a] > 30)) continue;
        bool isolated = true;
        for (int l = 0; l < 2; l++) {
          const jgt_coll *L = l == 0 ? M : E;
          const int64_t lo = l == 0 ? mo : eo, nl = l == 0 ? nm : ne;
          for (int64_t b = lo; b < lo + nl; b++) {
            if (!(L->pt[b] > 10)) continue;
            const double dphi = jgt_dphi(J->phi[a], L->phi[b]);
            const double deta = (double)J->eta[a] - L->eta[b];
            if (sqrt(deta * deta + dphi * dphi) < 0.4) isolated = false;
          }
        }
        if (isolated) {
          sum += J->pt[a];
          kept++;
        }
      }
      if (kept > 0) jgt_fill(h0, 15, 200, sum);
    }
    if (in && q == 8 && nm + ne >= 3) {
      const int64_t nl = nm + ne;
      double best = INFINITY;
      int64_t bi = -1, bj = -1;
      /* lepton k: muon k (k < nm) or electron k - nm */
#define JGT_LEP(k) ((k) < nm ? M : E)
#define JGT_IDX(k) ((k) < nm ? mo + (k) : eo + (k) - nm)
      for (int64_t a = 0; a < nl; a++) {
        for (int64_t b = a + 1; b < nl; b++) {
          if ((a < nm) != (b < nm)) continue;
          if (JGT_LEP(a)->charge[JGT_IDX(a)] == JGT_LEP(b)->charge[JGT_IDX(b)]) continue;
          const double m = jgt_p4_mass(
              jgt_p4_add(jgt_p4_of(JGT_LEP(a), JGT_IDX(a)), jgt_p4_of(JGT_LEP(b), JGT_IDX(b))));
          if (fabs(m - 91.2) < best) {
            best = fabs(m - 91.2);
            bi = a;
            bj = b;
          }
        }
      }
      if (bi >= 0) {
        int64_t third = -1;
        for (int64_t k = 0; k < nl; k++) {
          if (k == bi || k == bj) continue;
          if (third < 0 || JGT_LEP(k)->pt[JGT_IDX(k)] > JGT_LEP(third)->pt[JGT_IDX(third)]) {
            third = k;
          }
        }
        const double pt3 = JGT_LEP(third)->pt[JGT_IDX(third)];
        const double phi3 = JGT_LEP(third)->phi[JGT_IDX(third)];
        const double mt = sqrt(2.0 * e->met_pt[i] * pt3 * (1 - cos(jgt_dphi(e->met_phi[i], phi3))));
        jgt_fill(h0, 15, 250, mt);
      }
#undef JGT_LEP
#undef JGT_IDX
    }
    jo += nj;
    mo += nm;
    eo += ne;
  }
}

/* Runs query q (1..8) of the table on ev into fresh histograms h[0..1] (counts allocated here). */
static void jgt_adl_run(const adl_events *ev, int q, jg_stream stream, jg_hist1d h[2]) {
  const adl_query *query = adl_query_find((char[2]){(char)('0' + q), 0});
  assert_non_null(query);
  jg_hist1d *hp[2] = {&h[0], &h[1]};
  for (int k = 0; k < 2; k++) {
    memset(&h[k], 0, sizeof h[k]);
    h[k].n_bins = 100;
    h[k].lo = query->hists[k < query->nhists ? k : 0].lo;
    h[k].hi = query->hists[k < query->nhists ? k : 0].hi;
    h[k].counts = calloc(102, sizeof(double));
  }
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = query->run(ev, hp, stream, &err);
  if (st != JG_OK) fail_msg("query %d: %s", q, err.message);
}

#endif /* JGT_ADL_CASES_H */
