/* jgt_physics_cases.h: four-vector cases (physics.h) run on the host by tests/unit/test_physics.c
 * and on the GPU by tests/gpu/test_physics_gpu.c (after jg_array_to_device), with their host
 * inputs and the expected values computed independently here, with plain formulas from the
 * definitions (px = pt cos phi, py = pt sin phi, pz = pt sinh eta, E = sqrt(p^2 + m^2); sums
 * add components; mass = sqrt(E^2 - p^2); deltaPhi wrapped into [-pi, pi]; deltaR; mT =
 * sqrt(2 pt1 pt2 (1 - cos dphi))).
 *
 * The events: three events of muons (float32 records pt, eta, phi, mass, NanoAOD-like): two
 * muons, none, three; their pairs as combinations would make them (a list of tuples whose two
 * fields are muon records: event 0 (0, 1), event 2 (0, 1), (0, 2), (1, 2)); one MET record per
 * event (float64 pt, phi); one jet per event (float64, fields in another order plus an extra
 * one); electrons with the muons' counts (float64, an extra field first). */
#ifndef JAGGED_TESTS_JGT_PHYSICS_CASES_H
#define JAGGED_TESTS_JGT_PHYSICS_CASES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "jagged/physics.h"
#include "jgt_array_cases.h"

/* ------------------------------------------------------------------------------------------ */
/* The events                                                                                  */
/* ------------------------------------------------------------------------------------------ */

#define JGT_PC_NMU 5
static const int64_t jgt_pc_mu_off[4] = {0, 2, 2, 5};
static const float jgt_pc_mu[4][JGT_PC_NMU] = {{45.5f, 30.25f, 20.0f, 15.5f, 60.0f},    /* pt */
                                               {0.5f, -1.2f, 2.1f, -0.4f, 0.0f},        /* eta */
                                               {0.3f, 2.9f, -3.0f, 1.0f, -1.5f},        /* phi */
                                               {0.105f, 0.105f, 0.105f, 0.105f, 0.0f}}; /* mass */
static const double jgt_pc_met[2][3] = {{35.0, 12.0, 50.5}, {-2.5, 0.1, 3.1}}; /* pt, phi */
static const double jgt_pc_jet[4][3] = {{120.0, 80.5, 33.0},                   /* pt */
                                        {-0.7, 1.9, 0.0},                      /* eta */
                                        {1.2, -2.2, 3.0},                      /* phi */
                                        {12.0, 9.5, 0.0}};                     /* mass */
static const double jgt_pc_ele_q[JGT_PC_NMU] = {-1, 1, 1, -1, 1};
static const double jgt_pc_ele[4][JGT_PC_NMU] = {{25.0, 41.0, 18.5, 70.25, 9.0},
                                                 {-2.0, 0.1, 1.4, -0.9, 2.3},
                                                 {-0.5, 1.7, 2.8, -2.9, 0.2},
                                                 {0.000511, 0.000511, 0.000511, 0.0, 0.000511}};
/* Pairs (first, second) as indexes into the muons. */
#define JGT_PC_NPAIRS 4
static const int jgt_pc_pair[2][JGT_PC_NPAIRS] = {{0, 2, 2, 3}, {1, 3, 4, 4}};
static const int64_t jgt_pc_pair_off[4] = {0, 1, 1, 4};
static const char *const jgt_pc_fields[4] = {"pt", "eta", "phi", "mass"};

/* A record of float32 fields from rows of jgt_pc_mu picked by `idx` (n of them; NULL: all). */
static inline jg_array *jgt_pc_mu_record(const int *idx, int n) {
  jg_array *f[4];
  for (int k = 0; k < 4; k++) {
    float v[16];
    for (int i = 0; i < n; i++) v[i] = jgt_pc_mu[k][idx != NULL ? idx[i] : i];
    f[k] = jgt_numeric(v, n, JG_DTYPE_FLOAT32);
  }
  return jgt_record(4, f, jgt_pc_fields, -1);
}

/* Muons: 3 * var * {pt, eta, phi, mass: float32} */
static inline jg_array *jgt_pc_muons(void) {
  return jgt_offsets64(jgt_pc_mu_off, 4, jgt_pc_mu_record(NULL, JGT_PC_NMU));
}

/* Pairs of muons: 3 * var * ({muon}, {muon}) */
static inline jg_array *jgt_pc_pairs(void) {
  jg_array *f[2] = {jgt_pc_mu_record(jgt_pc_pair[0], JGT_PC_NPAIRS),
                    jgt_pc_mu_record(jgt_pc_pair[1], JGT_PC_NPAIRS)};
  return jgt_offsets64(jgt_pc_pair_off, 4, jgt_record(2, f, NULL, -1));
}

/* Field "0" or "1" of the pairs (what a user passes). */
static inline jg_array *jgt_pc_pair_half(int h) {
  jg_array *p = jgt_pc_pairs(), *out = NULL;
  JGT_OK(jg_array_field(p, h == 0 ? "0" : "1", &out, &jgt_err_));
  jg_array_release(p);
  return out;
}

static inline jg_array *jgt_pc_first(void) {
  return jgt_pc_pair_half(0);
}

static inline jg_array *jgt_pc_second(void) {
  return jgt_pc_pair_half(1);
}

/* MET: 3 * {pt: float64, phi: float64} */
static inline jg_array *jgt_pc_met_records(void) {
  jg_array *f[2] = {jgt_numeric(jgt_pc_met[0], 3, JG_DTYPE_FLOAT64),
                    jgt_numeric(jgt_pc_met[1], 3, JG_DTYPE_FLOAT64)};
  return jgt_record(2, f, (const char *const[]){"pt", "phi"}, -1);
}

/* One jet per event: 3 * {mass, phi, tag, eta, pt} (another order, an extra field). */
static inline jg_array *jgt_pc_jets(void) {
  jg_array *f[5] = {jgt_numeric(jgt_pc_jet[3], 3, JG_DTYPE_FLOAT64),
                    jgt_numeric(jgt_pc_jet[2], 3, JG_DTYPE_FLOAT64),
                    jgt_numeric((const int32_t[]){1, 0, 1}, 3, JG_DTYPE_INT32),
                    jgt_numeric(jgt_pc_jet[1], 3, JG_DTYPE_FLOAT64),
                    jgt_numeric(jgt_pc_jet[0], 3, JG_DTYPE_FLOAT64)};
  return jgt_record(5, f, (const char *const[]){"mass", "phi", "tag", "eta", "pt"}, -1);
}

/* Electrons with the muons' counts: 3 * var * {charge, pt, eta, phi, mass: float64} */
static inline jg_array *jgt_pc_electrons(void) {
  jg_array *f[5] = {jgt_numeric(jgt_pc_ele_q, JGT_PC_NMU, JG_DTYPE_FLOAT64)};
  for (int k = 0; k < 4; k++) f[k + 1] = jgt_numeric(jgt_pc_ele[k], JGT_PC_NMU, JG_DTYPE_FLOAT64);
  jg_array *rec = jgt_record(5, f, (const char *const[]){"charge", "pt", "eta", "phi", "mass"}, -1);
  return jgt_offsets64(jgt_pc_mu_off, 4, rec);
}

/* Muons of events 1..3 of [ev2, ev0, ev1, ev2] (offsets not at 0 after the slice). */
static inline jg_array *jgt_pc_muons_sliced(void) {
  static const int64_t off[5] = {0, 3, 5, 5, 8};
  static const int idx[8] = {2, 3, 4, 0, 1, 2, 3, 4};
  return jgt_slice(jgt_offsets64(off, 5, jgt_pc_mu_record(idx, 8)), 1, 4);
}

/* Muons with event 1 None: 3 * option[var * {...}] */
static inline jg_array *jgt_pc_muons_none(void) {
  return jgt_byte_masked((const int8_t[]){1, 0, 1}, 3, true, jgt_pc_muons());
}

/* Flat vectors: (pt 0, eta 1, phi 0, m 0) and (pt 0, eta -2, phi 1, m 0) (a sum with pt 0);
 * back-to-back massless (pt 10 at phi 0 and pi, eta 0). */
static inline jg_array *jgt_pc_flat(const double *pt, const double *eta, const double *phi,
                                    const double *m, int n) {
  jg_array *f[4] = {jgt_numeric(pt, n, JG_DTYPE_FLOAT64), jgt_numeric(eta, n, JG_DTYPE_FLOAT64),
                    jgt_numeric(phi, n, JG_DTYPE_FLOAT64), jgt_numeric(m, n, JG_DTYPE_FLOAT64)};
  return jgt_record(4, f, jgt_pc_fields, -1);
}

static inline jg_array *jgt_pc_flat_a(void) {
  return jgt_pc_flat((const double[]){0, 10}, (const double[]){1, 0}, (const double[]){0, 0},
                     (const double[]){0, 0}, 2);
}

static inline jg_array *jgt_pc_flat_b(void) {
  return jgt_pc_flat((const double[]){0, 10}, (const double[]){-2, 0},
                     (const double[]){1, 3.141592653589793}, (const double[]){0, 0}, 2);
}

/* ------------------------------------------------------------------------------------------ */
/* Reference formulas (plain, from the definitions)                                            */
/* ------------------------------------------------------------------------------------------ */

typedef struct jgt_pc_vec {
  double pt, eta, phi, mass;
} jgt_pc_vec;

static inline jgt_pc_vec jgt_pc_muon(int i) {
  const jgt_pc_vec v = {jgt_pc_mu[0][i], jgt_pc_mu[1][i], jgt_pc_mu[2][i], jgt_pc_mu[3][i]};
  return v;
}

static inline jgt_pc_vec jgt_pc_jet_vec(int e) {
  const jgt_pc_vec v = {jgt_pc_jet[0][e], jgt_pc_jet[1][e], jgt_pc_jet[2][e], jgt_pc_jet[3][e]};
  return v;
}

/* (pt, eta, phi, mass) of the sum of n vectors. */
static inline jgt_pc_vec jgt_pc_ref_sum(int n, const jgt_pc_vec *v) {
  double px = 0, py = 0, pz = 0, e = 0;
  for (int k = 0; k < n; k++) {
    const double x = v[k].pt * cos(v[k].phi), y = v[k].pt * sin(v[k].phi),
                 z = v[k].pt * sinh(v[k].eta);
    px += x;
    py += y;
    pz += z;
    e += sqrt(x * x + y * y + z * z + v[k].mass * v[k].mass);
  }
  jgt_pc_vec s;
  s.pt = sqrt(px * px + py * py);
  s.eta = s.pt == 0 ? 0.0 : asinh(pz / s.pt);
  s.phi = atan2(py, px);
  s.mass = sqrt(fmax(e * e - px * px - py * py - pz * pz, 0.0));
  return s;
}

static inline double jgt_pc_ref_dphi(double a, double b) {
  double d = a - b;
  while (d > 3.141592653589793) d -= 2 * 3.141592653589793;
  while (d < -3.141592653589793) d += 2 * 3.141592653589793;
  return d;
}

static inline double jgt_pc_ref_mt(double pt1, double phi1, double pt2, double phi2) {
  return sqrt(2 * pt1 * pt2 * (1 - cos(phi1 - phi2)));
}

/* ------------------------------------------------------------------------------------------ */
/* The cases                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef enum jgt_pc_op {
  JGT_PC_SUM = 1,
  JGT_PC_MASS = 2,
  JGT_PC_PT = 3,
  JGT_PC_DPHI = 4,
  JGT_PC_DR = 5,
  JGT_PC_MT = 6
} jgt_pc_op;

#define JGT_PC_MAXV 16

/* Expected leaf values: count values of 1 field (4 for sums: pt, eta, phi, mass), in order. */
typedef struct jgt_pc_expect {
  int64_t count;
  double v[4][JGT_PC_MAXV];
} jgt_pc_expect;

typedef struct jgt_pc_case {
  const char *name;
  jgt_pc_op op;
  int n;            /* arguments */
  jg_dtype dtype;   /* result dtype */
  const char *type; /* result type */
  jg_array *(*make[3])(void);
  void (*expect)(jgt_pc_expect *e);
} jgt_pc_case;

static inline void jgt_pc_put_sum(jgt_pc_expect *e, jgt_pc_vec s, jgt_pc_op op) {
  if (op == JGT_PC_SUM) {
    e->v[0][e->count] = s.pt;
    e->v[1][e->count] = s.eta;
    e->v[2][e->count] = s.phi;
    e->v[3][e->count] = s.mass;
  } else {
    e->v[0][e->count] = op == JGT_PC_MASS ? s.mass : s.pt;
  }
  e->count++;
}

static inline void jgt_pc_pairs_expect(jgt_pc_expect *e, jgt_pc_op op) {
  for (int p = 0; p < JGT_PC_NPAIRS; p++) {
    const jgt_pc_vec v[2] = {jgt_pc_muon(jgt_pc_pair[0][p]), jgt_pc_muon(jgt_pc_pair[1][p])};
    jgt_pc_put_sum(e, jgt_pc_ref_sum(2, v), op);
  }
}

static inline void jgt_pc_e_pair_sum(jgt_pc_expect *e) {
  jgt_pc_pairs_expect(e, JGT_PC_SUM);
}

static inline void jgt_pc_e_pair_mass(jgt_pc_expect *e) {
  jgt_pc_pairs_expect(e, JGT_PC_MASS);
}

static inline void jgt_pc_e_pair_pt(jgt_pc_expect *e) {
  jgt_pc_pairs_expect(e, JGT_PC_PT);
}

/* Pair + the event's jet (the jet repeated over the event's pairs). */
static inline void jgt_pc_three_expect(jgt_pc_expect *e, jgt_pc_op op) {
  for (int ev = 0; ev < 3; ev++) {
    for (int64_t p = jgt_pc_pair_off[ev]; p < jgt_pc_pair_off[ev + 1]; p++) {
      const jgt_pc_vec v[3] = {jgt_pc_muon(jgt_pc_pair[0][p]), jgt_pc_muon(jgt_pc_pair[1][p]),
                               jgt_pc_jet_vec(ev)};
      jgt_pc_put_sum(e, jgt_pc_ref_sum(3, v), op);
    }
  }
}

static inline void jgt_pc_e_three_mass(jgt_pc_expect *e) {
  jgt_pc_three_expect(e, JGT_PC_MASS);
}

static inline void jgt_pc_e_three_sum(jgt_pc_expect *e) {
  jgt_pc_three_expect(e, JGT_PC_SUM);
}

static inline void jgt_pc_e_pair_dr(jgt_pc_expect *e) {
  for (int p = 0; p < JGT_PC_NPAIRS; p++) {
    const jgt_pc_vec a = jgt_pc_muon(jgt_pc_pair[0][p]), b = jgt_pc_muon(jgt_pc_pair[1][p]);
    const double de = a.eta - b.eta, dp = jgt_pc_ref_dphi(a.phi, b.phi);
    e->v[0][e->count++] = sqrt(de * de + dp * dp);
  }
}

/* Muons against their event's MET (events first..3 of the muons). */
static inline void jgt_pc_e_mu_met(jgt_pc_expect *e, jgt_pc_op op) {
  for (int ev = 0; ev < 3; ev++) {
    for (int64_t i = jgt_pc_mu_off[ev]; i < jgt_pc_mu_off[ev + 1]; i++) {
      const jgt_pc_vec m = jgt_pc_muon((int)i);
      e->v[0][e->count++] = op == JGT_PC_DPHI
                                ? jgt_pc_ref_dphi(m.phi, jgt_pc_met[1][ev])
                                : jgt_pc_ref_mt(m.pt, m.phi, jgt_pc_met[0][ev], jgt_pc_met[1][ev]);
    }
  }
}

static inline void jgt_pc_e_mu_met_dphi(jgt_pc_expect *e) {
  jgt_pc_e_mu_met(e, JGT_PC_DPHI);
}

static inline void jgt_pc_e_mu_met_mt(jgt_pc_expect *e) {
  jgt_pc_e_mu_met(e, JGT_PC_MT);
}

/* Electrons against the muons, element by element. */
static inline void jgt_pc_e_ele_mu_dr(jgt_pc_expect *e) {
  for (int i = 0; i < JGT_PC_NMU; i++) {
    const double de = jgt_pc_ele[1][i] - jgt_pc_mu[1][i];
    const double dp = jgt_pc_ref_dphi(jgt_pc_ele[2][i], jgt_pc_mu[2][i]);
    e->v[0][e->count++] = sqrt(de * de + dp * dp);
  }
}

static inline void jgt_pc_e_ele_mu_mass(jgt_pc_expect *e) {
  for (int i = 0; i < JGT_PC_NMU; i++) {
    const jgt_pc_vec v[2] = {
        {jgt_pc_ele[0][i], jgt_pc_ele[1][i], jgt_pc_ele[2][i], jgt_pc_ele[3][i]}, jgt_pc_muon(i)};
    jgt_pc_put_sum(e, jgt_pc_ref_sum(2, v), JGT_PC_MASS);
  }
}

static inline void jgt_pc_e_flat_sum(jgt_pc_expect *e) {
  const jgt_pc_vec a[2] = {{0, 1, 0, 0}, {0, -2, 1, 0}};
  const jgt_pc_vec b[2] = {{10, 0, 0, 0}, {10, 0, 3.141592653589793, 0}};
  jgt_pc_put_sum(e, jgt_pc_ref_sum(2, a), JGT_PC_SUM);
  jgt_pc_put_sum(e, jgt_pc_ref_sum(2, b), JGT_PC_SUM);
}

static const jgt_pc_case jgt_pc_cases[] = {
    {"sum of muon pairs",
     JGT_PC_SUM,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * {pt: float64, eta: float64, phi: float64, mass: float64}",
     {jgt_pc_first, jgt_pc_second},
     jgt_pc_e_pair_sum},
    {"mass of muon pairs",
     JGT_PC_MASS,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_first, jgt_pc_second},
     jgt_pc_e_pair_mass},
    {"pt of muon pairs",
     JGT_PC_PT,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_first, jgt_pc_second},
     jgt_pc_e_pair_pt},
    {"mass of muon pairs, float32",
     JGT_PC_MASS,
     2,
     JG_DTYPE_FLOAT32,
     "3 * var * float32",
     {jgt_pc_first, jgt_pc_second},
     jgt_pc_e_pair_mass},
    {"mass of pair + the event's jet",
     JGT_PC_MASS,
     3,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_first, jgt_pc_second, jgt_pc_jets},
     jgt_pc_e_three_mass},
    {"sum of pair + the event's jet, float32",
     JGT_PC_SUM,
     3,
     JG_DTYPE_FLOAT32,
     "3 * var * {pt: float32, eta: float32, phi: float32, mass: float32}",
     {jgt_pc_first, jgt_pc_second, jgt_pc_jets},
     jgt_pc_e_three_sum},
    {"deltaR within pairs",
     JGT_PC_DR,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_first, jgt_pc_second},
     jgt_pc_e_pair_dr},
    {"deltaPhi of muons and MET",
     JGT_PC_DPHI,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_muons, jgt_pc_met_records},
     jgt_pc_e_mu_met_dphi},
    {"mT of muons and MET",
     JGT_PC_MT,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_muons, jgt_pc_met_records},
     jgt_pc_e_mu_met_mt},
    {"mT of sliced muons (offsets not at 0) and MET",
     JGT_PC_MT,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_muons_sliced, jgt_pc_met_records},
     jgt_pc_e_mu_met_mt},
    {"mT with a None event",
     JGT_PC_MT,
     2,
     JG_DTYPE_FLOAT64,
     "3 * option[var * float64]",
     {jgt_pc_muons_none, jgt_pc_met_records},
     jgt_pc_e_mu_met_mt},
    {"deltaR of electrons (extra field) and muons",
     JGT_PC_DR,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_electrons, jgt_pc_muons},
     jgt_pc_e_ele_mu_dr},
    {"mass of electron + muon (float64 + float32 fields)",
     JGT_PC_MASS,
     2,
     JG_DTYPE_FLOAT64,
     "3 * var * float64",
     {jgt_pc_electrons, jgt_pc_muons},
     jgt_pc_e_ele_mu_mass},
    {"flat sums: pt 0 gives eta 0; back to back",
     JGT_PC_SUM,
     2,
     JG_DTYPE_FLOAT64,
     "2 * {pt: float64, eta: float64, phi: float64, mass: float64}",
     {jgt_pc_flat_a, jgt_pc_flat_b},
     jgt_pc_e_flat_sum},
};

#define JGT_PC_NCASES (sizeof jgt_pc_cases / sizeof jgt_pc_cases[0])

/* Runs case c over args (any backend). */
static inline jg_status jgt_pc_run(const jgt_pc_case *c, jg_array *const *args, jg_stream stream,
                                   jg_array **out, jg_error *err) {
  jg_fourvec_options o;
  memset(&o, 0, sizeof o);
  o.dtype = c->dtype;
  o.stream = stream;
  const jg_array *const *v = (const jg_array *const *)args;
  switch (c->op) {
    case JGT_PC_SUM:
      return jg_fourvec_sum(c->n, v, &o, out, err);
    case JGT_PC_MASS:
      return jg_fourvec_mass(c->n, v, &o, out, err);
    case JGT_PC_PT:
      return jg_fourvec_pt(c->n, v, &o, out, err);
    case JGT_PC_DPHI:
      return jg_fourvec_delta_phi(v[0], v[1], &o, out, err);
    case JGT_PC_DR:
      return jg_fourvec_delta_r(v[0], v[1], &o, out, err);
    default:
      return jg_fourvec_mt(v[0], v[1], &o, out, err);
  }
}

/* The leaf values of field `name` (NULL: the array itself) of a host result as doubles into
 * `vals` (capacity cap); returns their number. Follows single contents down to the numbers. */
static inline int64_t jgt_pc_leaf(const jg_array *a, const char *name, double *vals, int64_t cap) {
  jg_array *f = NULL;
  if (name != NULL) {
    JGT_OK(jg_array_field(a, name, &f, &jgt_err_));
    a = f;
  }
  const jg_array *p = a;
  while (jg_array_kind(p) != JG_NODE_NUMERIC) p = jg_array_child(p, 0);
  jg_view v;
  JGT_OK(jg_array_buffer(p, 0, &v, &jgt_err_));
  const int64_t n = v.layout.shape[0];
  for (int64_t i = 0; i < n && i < cap; i++) {
    const char *e = (const char *)v.base +
                    v.layout.itemsize * (v.layout.slice_offset + i * v.layout.strides[0]);
    vals[i] = v.dtype == JG_DTYPE_FLOAT32 ? (double)*(const float *)e : *(const double *)e;
  }
  jg_array_release(f);
  return n;
}

#endif /* JAGGED_TESTS_JGT_PHYSICS_CASES_H */
