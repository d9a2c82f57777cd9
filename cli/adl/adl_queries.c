/* adl_queries.c: the eight ADL benchmark queries written with jagged's public operations.
 *
 * Each query is a short sequence of array operations, as a coffea or Awkward user would write it
 * (masks, num, reductions, combinations, cartesian products, four-vectors, histograms); the same
 * code runs on cpu and cuda batches. Intermediate arrays are kept in a `scope` and released
 * together at the end of the batch; the first failing operation stops the query (every later
 * step becomes a no-op) and its status and message are returned. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, for the profile */
#include "adl_queries.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* A scope of intermediate arrays: short-circuits after the first error                        */
/* ------------------------------------------------------------------------------------------ */

#define SCOPE_MAX 96

#define RETURN_NOT_OK(expr)            \
  do {                                 \
    const jg_status st_ = (expr);      \
    if (st_ != JG_OK) return st_;      \
  } while (0)

typedef struct scope {
  jg_array *kept[SCOPE_MAX];
  int n;
  jg_status st;
  jg_stream stream;
  jg_error *err;
} scope;

/* ------------------------------------------------------------------------------------------ */
/* The profile (adl_profile_enable): each step's time, the stream synchronised after each       */
/* ------------------------------------------------------------------------------------------ */

static bool prof_on;
static int prof_n, prof_step;
static double prof_last;
static adl_profile_step prof_steps[ADL_PROFILE_MAX_STEPS];

static double prof_now(jg_stream stream) {
  if (stream != NULL) jg_stream_synchronize(stream, NULL);
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void adl_profile_enable(bool on) {
  prof_on = on;
  prof_n = 0;
  memset(prof_steps, 0, sizeof prof_steps);
}

int adl_profile_steps(const adl_profile_step **steps) {
  *steps = prof_steps;
  return prof_n;
}

/* The step just finished: its time since the previous one goes to its entry. */
static void prof_record(jg_stream stream, const char *what) {
  if (!prof_on || prof_step >= ADL_PROFILE_MAX_STEPS) return;
  const double t = prof_now(stream);
  adl_profile_step *e = &prof_steps[prof_step++];
  e->what = what;
  e->seconds += t - prof_last;
  e->calls++;
  if (prof_step > prof_n) prof_n = prof_step;
  prof_last = prof_now(stream);
}

static void scope_init(scope *sc, jg_stream stream, jg_error *err) {
  memset(sc, 0, sizeof *sc);
  sc->stream = stream;
  sc->err = err;
  if (prof_on) {
    prof_step = 0;
    prof_last = prof_now(stream);
  }
}

static jg_status scope_end(scope *sc) {
  for (int i = 0; i < sc->n; i++) jg_array_release(sc->kept[i]);
  sc->n = 0;
  return sc->st;
}

/* Takes the result of one operation: kept on success, the status recorded on failure. */
static jg_array *keep(scope *sc, jg_status st, jg_array *a) {
  if (st != JG_OK) {
    sc->st = st;
    jg_array_release(a);
    return NULL;
  }
  if (sc->n == SCOPE_MAX) {
    jg_array_release(a);
    sc->st = JG_ENOMEM;
    jg_error_set(sc->err, JG_ENOMEM, -1, "adl: too many intermediate arrays in a query");
    return NULL;
  }
  sc->kept[sc->n++] = a;
  return a;
}

#define OP(sc, call)                                                                            \
  do {                                                                                         \
    if ((sc)->st != JG_OK) return NULL;                                                        \
    jg_array *out_ = NULL;                                                                     \
    jg_status st_ = (call);                                                                    \
    prof_record((sc)->stream, __func__);                                                       \
    return keep((sc), st_, out_);                                                              \
  } while (0)

static jg_array *field(scope *sc, const jg_array *a, const char *name) {
  OP(sc, jg_array_field(a, name, &out_, sc->err));
}
static jg_array *ufunc1(scope *sc, jg_ufunc f, const jg_array *x) {
  OP(sc, jg_array_ufunc1(f, x, sc->stream, &out_, sc->err));
}
static jg_array *ufunc2(scope *sc, jg_ufunc f, const jg_array *x, const jg_array *y) {
  OP(sc, jg_array_ufunc2(f, x, y, sc->stream, &out_, sc->err));
}
/* f(x, v) with v a Python-like float scalar (weak: float32 arrays stay float32). */
static jg_array *with_scalar(scope *sc, jg_ufunc f, const jg_array *x, double v) {
  OP(sc, jg_array_ufunc2_scalar(f, x, jg_scalar_float(v), false, sc->stream, &out_, sc->err));
}
/* x as float64: derived quantities are computed in double precision from the stored float32. */
static jg_array *as_f64(scope *sc, const jg_array *x) {
  OP(sc, jg_array_ufunc2_scalar(JG_UFUNC_ADD, x, jg_scalar_f64(0.0), false, sc->stream, &out_,
                                sc->err));
}
static jg_array *mask(scope *sc, const jg_array *a, const jg_array *m) {
  OP(sc, jg_array_mask(a, m, sc->stream, &out_, sc->err));
}
static jg_array *take(scope *sc, const jg_array *a, const jg_array *index) {
  OP(sc, jg_array_take(a, index, sc->stream, &out_, sc->err));
}
static jg_array *num(scope *sc, const jg_array *a) { OP(sc, jg_array_num(a, &out_, sc->err)); }
/* Reduces the innermost lists; keepdims gives the n * 1 * T form to index with; identity:
 * empty lists give the reducer's identity (-1 for argmin/argmax), never None. */
static jg_array *reduce(scope *sc, const jg_array *a, jg_reducer r, bool keepdims) {
  jg_reduce_options o;
  memset(&o, 0, sizeof o);
  o.keepdims = keepdims;
  o.mask_identity = -1;
  o.stream = sc->stream;
  OP(sc, jg_array_reduce(a, r, &o, &out_, sc->err));
}
static jg_array *flatten(scope *sc, const jg_array *a) {
  OP(sc, jg_array_flatten(a, 1, sc->stream, &out_, sc->err));
}
static jg_array *combinations(scope *sc, const jg_array *a, int n) {
  OP(sc, jg_array_combinations(a, n, false, NULL, sc->stream, &out_, sc->err));
}
static jg_array *argcombinations(scope *sc, const jg_array *a, int n) {
  OP(sc, jg_array_argcombinations(a, n, false, NULL, sc->stream, &out_, sc->err));
}
static jg_array *cartesian_nested(scope *sc, const jg_array *a, const jg_array *b) {
  const jg_array *ab[2] = {a, b};
  OP(sc, jg_array_cartesian(2, ab, true, NULL, sc->stream, &out_, sc->err));
}
static jg_array *concatenate1(scope *sc, const jg_array *a, const jg_array *b) {
  const jg_array *ab[2] = {a, b};
  OP(sc, jg_array_concatenate(2, ab, 1, sc->stream, &out_, sc->err));
}
static jg_array *local_index(scope *sc, const jg_array *a) {
  OP(sc, jg_array_local_index(a, 1, sc->stream, &out_, sc->err));
}
static jg_array *eval(scope *sc, const char *expr, int n, const char *const *names,
                      const jg_array *const *args) {
  OP(sc, jg_array_eval(expr, n, names, args, sc->stream, &out_, sc->err));
}
static jg_array *fourvec_mass(scope *sc, int n, const jg_array *const *v) {
  jg_fourvec_options o = {.dtype = JG_DTYPE_FLOAT64, .stream = sc->stream};
  OP(sc, jg_fourvec_mass(n, v, &o, &out_, sc->err));
}
static jg_array *fourvec_delta_r(scope *sc, const jg_array *a, const jg_array *b) {
  jg_fourvec_options o = {.dtype = JG_DTYPE_FLOAT64, .stream = sc->stream};
  OP(sc, jg_fourvec_delta_r(a, b, &o, &out_, sc->err));
}
static jg_array *zip(scope *sc, int n, jg_array *const *fields, const char *const *names) {
  OP(sc, jg_array_zip(n, fields, names, -1, &out_, sc->err));
}
static void fill(scope *sc, jg_hist1d *h, const jg_array *values) {
  if (sc->st != JG_OK) return;
  sc->st = jg_histogram_fill(h, values, NULL, sc->stream, sc->err);
  prof_record(sc->stream, "fill");
}

/* ------------------------------------------------------------------------------------------ */
/* The queries                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* 1. MET pt of every event. */
static jg_status query1(const adl_events *ev, jg_hist1d *const *h, jg_stream s, jg_error *err) {
  scope sc;
  scope_init(&sc, s, err);
  fill(&sc, h[0], field(&sc, ev->met, "pt"));
  return scope_end(&sc);
}

/* 2. pt of every jet. */
static jg_status query2(const adl_events *ev, jg_hist1d *const *h, jg_stream s, jg_error *err) {
  scope sc;
  scope_init(&sc, s, err);
  fill(&sc, h[0], field(&sc, ev->jet, "pt"));
  return scope_end(&sc);
}

/* 3. pt of every jet with |eta| < 1. */
static jg_status query3(const adl_events *ev, jg_hist1d *const *h, jg_stream s, jg_error *err) {
  scope sc;
  scope_init(&sc, s, err);
  jg_array *central = with_scalar(&sc, JG_UFUNC_LESS,
                                  ufunc1(&sc, JG_UFUNC_ABS, field(&sc, ev->jet, "eta")), 1.0);
  fill(&sc, h[0], mask(&sc, field(&sc, ev->jet, "pt"), central));
  return scope_end(&sc);
}

/* 4. MET pt of the events with at least two jets of pt > 40. */
static jg_status query4(const adl_events *ev, jg_hist1d *const *h, jg_stream s, jg_error *err) {
  scope sc;
  scope_init(&sc, s, err);
  jg_array *hard = with_scalar(&sc, JG_UFUNC_GREATER, field(&sc, ev->jet, "pt"), 40.0);
  jg_array *nhard = reduce(&sc, hard, JG_REDUCE_COUNT_NONZERO, false);
  jg_array *selected = with_scalar(&sc, JG_UFUNC_GREATER_EQUAL, nhard, 2.0);
  fill(&sc, h[0], mask(&sc, field(&sc, ev->met, "pt"), selected));
  return scope_end(&sc);
}

/* 5. MET pt of the events with an opposite-charge muon pair of mass in [60, 120], the mass from
 * the massless formula. */
static jg_status query5(const adl_events *ev, jg_hist1d *const *h, jg_stream s, jg_error *err) {
  scope sc;
  scope_init(&sc, s, err);
  jg_array *pairs = combinations(&sc, ev->muon, 2);
  jg_array *m1 = field(&sc, pairs, "0"), *m2 = field(&sc, pairs, "1");
  const char *names[6] = {"pt1", "pt2", "eta1", "eta2", "phi1", "phi2"};
  const jg_array *args[6] = {field(&sc, m1, "pt"),  field(&sc, m2, "pt"),
                             field(&sc, m1, "eta"), field(&sc, m2, "eta"),
                             field(&sc, m1, "phi"), field(&sc, m2, "phi")};
  jg_array *mass =
      eval(&sc, "sqrt(2 * pt1 * pt2 * (cosh(eta1 - eta2) - cos(phi1 - phi2)))", 6, names, args);
  jg_array *in_window = ufunc2(&sc, JG_UFUNC_LOGICAL_AND,
                               with_scalar(&sc, JG_UFUNC_GREATER_EQUAL, mass, 60.0),
                               with_scalar(&sc, JG_UFUNC_LESS_EQUAL, mass, 120.0));
  jg_array *opposite = ufunc2(&sc, JG_UFUNC_NOT_EQUAL, field(&sc, m1, "charge"),
                              field(&sc, m2, "charge"));
  jg_array *good = ufunc2(&sc, JG_UFUNC_LOGICAL_AND, in_window, opposite);
  jg_array *selected = reduce(&sc, good, JG_REDUCE_ANY, false);
  fill(&sc, h[0], mask(&sc, field(&sc, ev->met, "pt"), selected));
  return scope_end(&sc);
}

/* 6. In events with at least three jets, the jet triplet of mass closest to 172.5: its pt (6-1)
 * and the largest btag of its jets (6-2). Each jet's Cartesian components (px, py, pz, E, the
 * conventions of physics.h) are computed once, not once per triplet it belongs to, and the
 * triplets add them up: the transcendental functions run over jets, the triplets' arithmetic
 * over triplets. */
static jg_status query6(const adl_events *ev, jg_hist1d *const *h, jg_stream s, jg_error *err) {
  scope sc;
  scope_init(&sc, s, err);
  jg_array *three = with_scalar(&sc, JG_UFUNC_GREATER_EQUAL, num(&sc, ev->jet), 3.0);
  jg_array *jets = mask(&sc, ev->jet, three);
  const char *polar[4] = {"pt", "eta", "phi", "mass"};
  const jg_array *ptetaphim[4] = {field(&sc, jets, "pt"), field(&sc, jets, "eta"),
                                  field(&sc, jets, "phi"), field(&sc, jets, "mass")};
  jg_array *pz = eval(&sc, "pt * sinh(eta)", 4, polar, ptetaphim);
  const jg_array *pt_pz_m[3] = {ptetaphim[0], pz, ptetaphim[3]};
  const char *e_names[3] = {"pt", "pz", "mass"};
  jg_array *cartesian[5] = {eval(&sc, "pt * cos(phi)", 4, polar, ptetaphim),
                            eval(&sc, "pt * sin(phi)", 4, polar, ptetaphim), pz,
                            eval(&sc, "sqrt(pt * pt + pz * pz + mass * mass)", 3, e_names,
                                 pt_pz_m),
                            field(&sc, jets, "btag")};
  const char *names[5] = {"px", "py", "pz", "E", "btag"};
  jg_array *triplets = combinations(&sc, zip(&sc, 5, cartesian, names), 3);
  const jg_array *j[3] = {field(&sc, triplets, "0"), field(&sc, triplets, "1"),
                          field(&sc, triplets, "2")};
  const jg_array *sum[4];
  for (int c = 0; c < 4; c++) {
    jg_array *pair = ufunc2(&sc, JG_UFUNC_ADD, field(&sc, j[0], names[c]),
                            field(&sc, j[1], names[c]));
    sum[c] = ufunc2(&sc, JG_UFUNC_ADD, pair, field(&sc, j[2], names[c]));
  }
  /* The mass of a sum of three as physics.h defines it: sqrt(E^2 - p^2), negative when rounding
   * makes the sum slightly space-like (written with a sign so that no square root is taken of a
   * negative number: libm's error path is slow). */
  jg_array *distance = eval(&sc,
                            "abs(where(E * E - px * px - py * py - pz * pz < 0, -1, 1) * "
                            "sqrt(abs(E * E - px * px - py * py - pz * pz)) - 172.5)",
                            4, names, sum);
  jg_array *best = reduce(&sc, distance, JG_REDUCE_ARGMIN, true);
  jg_array *pt = eval(&sc, "sqrt(px * px + py * py)", 2, names, sum);
  fill(&sc, h[0], flatten(&sc, take(&sc, pt, best)));
  jg_array *btag = ufunc2(&sc, JG_UFUNC_MAXIMUM,
                          ufunc2(&sc, JG_UFUNC_MAXIMUM, field(&sc, j[0], "btag"),
                                 field(&sc, j[1], "btag")),
                          field(&sc, j[2], "btag"));
  fill(&sc, h[1], flatten(&sc, take(&sc, btag, best)));
  return scope_end(&sc);
}

/* Whether each jet lies at deltaR >= 0.4 from every particle of `others` (true when the event
 * has none): jets * others pairs, deltaR, all over the others. */
static jg_array *isolated_from(scope *sc, const jg_array *jets, const jg_array *others) {
  jg_array *pairs = cartesian_nested(sc, jets, others);
  jg_array *dr = fourvec_delta_r(sc, field(sc, pairs, "0"), field(sc, pairs, "1"));
  return reduce(sc, with_scalar(sc, JG_UFUNC_GREATER_EQUAL, dr, 0.4), JG_REDUCE_ALL, false);
}

/* 7. The scalar sum of the pt of jets with pt > 30 isolated (deltaR >= 0.4) from every muon and
 * electron of pt > 10, in events with at least one such jet. */
static jg_status query7(const adl_events *ev, jg_hist1d *const *h, jg_stream s, jg_error *err) {
  scope sc;
  scope_init(&sc, s, err);
  jg_array *jets =
      mask(&sc, ev->jet, with_scalar(&sc, JG_UFUNC_GREATER, field(&sc, ev->jet, "pt"), 30.0));
  jg_array *muons =
      mask(&sc, ev->muon, with_scalar(&sc, JG_UFUNC_GREATER, field(&sc, ev->muon, "pt"), 10.0));
  jg_array *electrons = mask(
      &sc, ev->electron, with_scalar(&sc, JG_UFUNC_GREATER, field(&sc, ev->electron, "pt"), 10.0));
  jg_array *clean = ufunc2(&sc, JG_UFUNC_LOGICAL_AND, isolated_from(&sc, jets, muons),
                           isolated_from(&sc, jets, electrons));
  jg_array *pt = mask(&sc, as_f64(&sc, field(&sc, jets, "pt")), clean);
  jg_array *any = with_scalar(&sc, JG_UFUNC_GREATER_EQUAL, num(&sc, pt), 1.0);
  fill(&sc, h[0], mask(&sc, reduce(&sc, pt, JG_REDUCE_SUM, false), any));
  return scope_end(&sc);
}

/* One flavour's leptons as records {pt, eta, phi, mass, charge, flavour}. */
static jg_array *with_flavour(scope *sc, const jg_array *leptons, double flavour) {
  static const char *const names[6] = {"pt", "eta", "phi", "mass", "charge", "flavour"};
  jg_array *charge = field(sc, leptons, "charge");
  jg_array *f[6] = {field(sc, leptons, "pt"),   field(sc, leptons, "eta"),
                    field(sc, leptons, "phi"),  field(sc, leptons, "mass"),
                    charge,
                    with_scalar(sc, JG_UFUNC_ADD,
                                with_scalar(sc, JG_UFUNC_MULTIPLY, charge, 0.0), flavour)};
  return zip(sc, 6, f, names);
}

/* 8. In events with >= 3 leptons and a same-flavour opposite-charge pair, the pair of mass
 * closest to 91.2 and the highest-pt other lepton: the transverse mass of that lepton and MET. */
static jg_status query8(const adl_events *ev, jg_hist1d *const *h, jg_stream s, jg_error *err) {
  scope sc;
  scope_init(&sc, s, err);
  jg_array *all = concatenate1(&sc, with_flavour(&sc, ev->muon, 0.0),
                               with_flavour(&sc, ev->electron, 1.0));
  jg_array *three = with_scalar(&sc, JG_UFUNC_GREATER_EQUAL, num(&sc, all), 3.0);
  jg_array *leptons = mask(&sc, all, three);
  jg_array *met = mask(&sc, ev->met, three);
  jg_array *pairs = combinations(&sc, leptons, 2);
  jg_array *pair_index = argcombinations(&sc, leptons, 2);
  jg_array *l1 = field(&sc, pairs, "0"), *l2 = field(&sc, pairs, "1");
  jg_array *sfos = ufunc2(
      &sc, JG_UFUNC_LOGICAL_AND,
      ufunc2(&sc, JG_UFUNC_EQUAL, field(&sc, l1, "flavour"), field(&sc, l2, "flavour")),
      ufunc2(&sc, JG_UFUNC_NOT_EQUAL, field(&sc, l1, "charge"), field(&sc, l2, "charge")));
  /* Keep the events with at least one same-flavour opposite-charge pair, and only those pairs
   * (before their masses: the four-vector arithmetic runs over the pairs that matter). */
  jg_array *has = reduce(&sc, sfos, JG_REDUCE_ANY, false);
  jg_array *sfos_pairs = mask(&sc, mask(&sc, pairs, sfos), has);
  jg_array *sfos_index = mask(&sc, mask(&sc, pair_index, sfos), has);
  const jg_array *l12[2] = {field(&sc, sfos_pairs, "0"), field(&sc, sfos_pairs, "1")};
  jg_array *sfos_distance = ufunc1(
      &sc, JG_UFUNC_ABS, with_scalar(&sc, JG_UFUNC_SUBTRACT, fourvec_mass(&sc, 2, l12), 91.2));
  leptons = mask(&sc, leptons, has);
  met = mask(&sc, met, has);
  jg_array *best = reduce(&sc, sfos_distance, JG_REDUCE_ARGMIN, true);
  jg_array *i = flatten(&sc, take(&sc, field(&sc, sfos_index, "0"), best));
  jg_array *j = flatten(&sc, take(&sc, field(&sc, sfos_index, "1"), best));
  /* The third lepton: the highest-pt lepton outside the pair. */
  jg_array *position = local_index(&sc, leptons);
  jg_array *outside = ufunc2(&sc, JG_UFUNC_LOGICAL_AND,
                             ufunc2(&sc, JG_UFUNC_NOT_EQUAL, position, i),
                             ufunc2(&sc, JG_UFUNC_NOT_EQUAL, position, j));
  jg_array *others = mask(&sc, leptons, outside);
  jg_array *third = flatten(
      &sc, take(&sc, others, reduce(&sc, field(&sc, others, "pt"), JG_REDUCE_ARGMAX, true)));
  const char *names[4] = {"met", "pt", "met_phi", "phi"};
  const jg_array *args[4] = {field(&sc, met, "pt"), field(&sc, third, "pt"),
                             field(&sc, met, "phi"), field(&sc, third, "phi")};
  fill(&sc, h[0], eval(&sc, "sqrt(2 * met * pt * (1 - cos(met_phi - phi)))", 4, names, args));
  return scope_end(&sc);
}

/* ------------------------------------------------------------------------------------------ */
/* The table                                                                                   */
/* ------------------------------------------------------------------------------------------ */

#define H(NAME, TITLE, XL, YL, LO, HI) {{NAME, TITLE, XL, YL}, LO, HI}

const adl_query adl_queries[ADL_NQUERIES] = {
    {"1", "MET of every event", 1,
     {H("query-1", "Q1: missing transverse momentum of every event", "E#dT#u#umiss#d [GeV]",
        "events", 0, 2000)},
     "MET.pt", query1},
    {"2", "pt of every jet", 1,
     {H("query-2", "Q2: transverse momentum of every jet", "jet p#dT#u [GeV]", "jets", 15, 60)},
     "Jet.pt", query2},
    {"3", "pt of jets with |eta| < 1", 1,
     {H("query-3", "Q3: transverse momentum of the jets with |#gy| < 1", "jet p#dT#u [GeV]",
        "jets", 15, 60)},
     "Jet.pt Jet.eta", query3},
    {"4", "MET of events with >= 2 jets of pt > 40 GeV", 1,
     {H("query-4", "Q4: MET of the events with at least two jets of p#dT#u > 40 GeV",
        "E#dT#u#umiss#d [GeV]", "events", 0, 2000)},
     "Jet.pt MET.pt", query4},
    {"5", "MET of events with an opposite-charge muon pair of mass 60-120 GeV", 1,
     {H("query-5", "Q5: MET of events with an opposite-charge #gm#gm pair of mass 60-120 GeV",
        "E#dT#u#umiss#d [GeV]", "events", 0, 2000)},
     "Muon.pt Muon.eta Muon.phi Muon.charge MET.pt", query5},
    {"6", "the jet triplet of mass closest to 172.5 GeV: its pt and largest btag", 2,
     {H("query-6-1", "Q6: p#dT#u of the jet triplet of mass closest to 172.5 GeV",
        "triplet p#dT#u [GeV]", "events", 15, 40),
      H("query-6-2", "Q6: largest b-tag of the jets of the triplet of mass closest to 172.5 GeV",
        "largest b-tag discriminant", "events", 0, 1)},
     "Jet.pt Jet.eta Jet.phi Jet.mass Jet.btag", query6},
    {"7", "scalar sum of the pt of jets of pt > 30 GeV isolated from leptons of pt > 10 GeV", 1,
     {H("query-7", "Q7: #gS p#dT#u of the jets (p#dT#u > 30 GeV) isolated from leptons",
        "#gS jet p#dT#u [GeV]", "events", 15, 200)},
     "Jet.pt Jet.eta Jet.phi Muon.pt Muon.eta Muon.phi Electron.pt Electron.eta Electron.phi",
     query7},
    {"8", "transverse mass of MET and the lepton outside the Z-like pair, >= 3 leptons", 1,
     {H("query-8", "Q8: transverse mass of MET and the third lepton (3-lepton events)",
        "m#dT#u [GeV]", "events", 15, 250)},
     "Muon.pt Muon.eta Muon.phi Muon.mass Muon.charge Electron.pt Electron.eta Electron.phi "
     "Electron.mass Electron.charge MET.pt MET.phi",
     query8},
};

const adl_query *adl_query_find(const char *id) {
  for (int q = 0; q < ADL_NQUERIES; q++) {
    if (strcmp(adl_queries[q].id, id) == 0) return &adl_queries[q];
  }
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Schemas and columns                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* The footer's description of the leaf whose field path is `path`, or false. */
static bool find_leaf(const jg_parquet_file *file, const char *path, jg_parquet_column_info *info) {
  const int n = jg_parquet_num_columns(file);
  for (int c = 0; c < n; c++) {
    jg_parquet_column_info i;
    memset(&i, 0, sizeof i);
    if (jg_parquet_column_info_get(file, c, &i, NULL) != JG_OK) continue;
    if (strcmp(i.field_path, path) == 0) {
      *info = i;
      return true;
    }
  }
  return false;
}

jg_status adl_schema_detect(const jg_parquet_file *file, adl_schema *schema, jg_error *err) {
  jg_parquet_column_info info;
  if (find_leaf(file, "MET_pt", &info)) {
    *schema = ADL_SCHEMA_FLAT;
    return JG_OK;
  }
  if (find_leaf(file, "MET.pt", &info)) {
    *schema = ADL_SCHEMA_RECORDS;
    return JG_OK;
  }
  {
    jg_error_set(err, JG_ENOTFOUND, -1,
                 "the file has neither a column MET_pt (NanoAOD's flat columns) nor MET.pt "
                 "(records): it is not an ADL benchmark file");
  }
  return JG_ENOTFOUND;
}

static bool is_float(jg_dtype t) { return t == JG_DTYPE_FLOAT32 || t == JG_DTYPE_FLOAT64; }
static bool is_int(jg_dtype t) {
  return t == JG_DTYPE_INT8 || t == JG_DTYPE_INT16 || t == JG_DTYPE_INT32 ||
         t == JG_DTYPE_INT64 || t == JG_DTYPE_UINT8 || t == JG_DTYPE_UINT16 ||
         t == JG_DTYPE_UINT32 || t == JG_DTYPE_UINT64;
}

/* Checks one leaf: present, of a floating (or, for charge and counters, integer) type, a list
 * (one repetition level) for particles and not one for MET and counters. */
static jg_status check_leaf(const jg_parquet_file *file, const adl_query *q, const char *path,
                            bool integer, bool list, jg_error *err) {
  jg_parquet_column_info info;
  if (!find_leaf(file, path, &info)) {
    {
    jg_error_set(err, JG_ENOTFOUND, -1, "column %s, needed by query %s, is missing from the file",
                   path, q->id);
    }
    return JG_ENOTFOUND;
  }
  const bool bytes = strcmp(info.physical_type, "BYTE_ARRAY") == 0 ||
                     strcmp(info.physical_type, "FIXED_LEN_BYTE_ARRAY") == 0;
  const bool type_ok = !bytes && (integer ? is_int(info.dtype) : is_float(info.dtype));
  const bool shape_ok = list ? info.max_repetition_level == 1 : info.max_repetition_level == 0;
  if (!type_ok || !shape_ok) {
    /* what the column holds, in words: "lists of lists of float32 values", "strings" */
    char holds[96];
    int w = 0;
    for (int r = 0; r < info.max_repetition_level && r < 4; r++) {
      w += snprintf(holds + w, sizeof holds - (size_t)w, "lists of ");
    }
    snprintf(holds + w, sizeof holds - (size_t)w, "%s%s",
             bytes ? "strings or bytes" : jg_dtype_name(info.dtype), bytes ? "" : " values");
    jg_error_set(err, JG_EDTYPE, -1,
                 "column %s (needed by query %s) holds %s; the query needs %s%s", path, q->id,
                 holds, list ? "lists of " : "", integer ? "integers" : "floating-point numbers");
    return JG_EDTYPE;
  }
  return JG_OK;
}

static bool seen(const char *const *names, int n, const char *s) {
  for (int i = 0; i < n; i++) {
    if (strcmp(names[i], s) == 0) return true;
  }
  return false;
}

jg_status adl_query_columns(const adl_query *q, const jg_parquet_file *file, adl_schema schema,
                            char storage[ADL_MAX_COLUMNS][64], const char *names[ADL_MAX_COLUMNS],
                            int *ncolumns, jg_error *err) {
  int n = 0;
  const char *p = q->needs;
  while (*p != '\0') {
    char need[48];
    size_t len = strcspn(p, " ");
    if (len == 0 || len >= sizeof need) break;
    memcpy(need, p, len);
    need[len] = '\0';
    p += len + (p[len] == ' ');
    char *dot = strchr(need, '.');
    if (dot == NULL) continue;
    *dot = '\0';
    const char *coll = need, *fld = dot + 1;
    const bool is_met = strcmp(coll, "MET") == 0;
    const bool integer = strcmp(fld, "charge") == 0;
    char leaf[64], column[64], counter[64]; /* need is shorter: these fit */
    if (schema == ADL_SCHEMA_FLAT) {
      snprintf(leaf, sizeof leaf, "%s_%s", coll, fld);
      snprintf(column, sizeof column, "%s", leaf);
    } else {
      snprintf(leaf, sizeof leaf, "%s.%s", coll, fld);
      snprintf(column, sizeof column, "%s", leaf);
    }
    RETURN_NOT_OK(check_leaf(file, q, leaf, integer, !is_met, err));
    /* Flat particle fields come with their counter, so the reader zips them into records. */
    if (schema == ADL_SCHEMA_FLAT && !is_met) {
      snprintf(counter, sizeof counter, "n%s", coll);
      if (!seen(names, n, counter)) {
        RETURN_NOT_OK(check_leaf(file, q, counter, true, false, err));
        if (n == ADL_MAX_COLUMNS) break;
        snprintf(storage[n], 64, "%s", counter);
        names[n] = storage[n];
        n++;
      }
    }
    if (!seen(names, n, column) && n < ADL_MAX_COLUMNS) {
      snprintf(storage[n], 64, "%s", column);
      names[n] = storage[n];
      n++;
    }
  }
  *ncolumns = n;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Batches                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Whether any entry of the option node `a` is None (its is_none, read on the host). */
static jg_status has_none(const jg_array *a, jg_stream stream, bool *any, jg_error *err) {
  *any = false;
  jg_array *none = NULL, *host = NULL;
  jg_status st = jg_array_is_none(a, 0, stream, &none, err);
  if (st == JG_OK) st = jg_array_to_host(none, stream, &host, err);
  jg_view v;
  if (st == JG_OK) st = jg_array_buffer(host, 0, &v, err);
  if (st == JG_OK) {
    const uint8_t *b = (const uint8_t *)v.base + v.layout.slice_offset;
    for (jg_len i = 0; i < v.layout.shape[0] && !*any; i++) *any = b[i * v.layout.strides[0]];
  }
  jg_array_release(host);
  jg_array_release(none);
  return st;
}

/* `a` rebuilt without its byte- and bit-masked option nodes, over the same buffers, when none of
 * their entries is None: Parquet files of records mark every field optional (the ADL sample's
 * MET: {pt: ?float32}, Jet: option[var * ?{pt: ?float32, ...}]) though no value is null. A None
 * gives JG_ENOTSUP naming `what`: the queries are defined on values that are all present. */
static jg_status strip_options(const jg_array *a, const char *what, jg_stream stream,
                               jg_array **out, jg_error *err) {
  *out = NULL;
  const jg_node_kind kind = jg_array_kind(a);
  jg_status st = JG_OK;
  if (kind == JG_NODE_BYTE_MASKED || kind == JG_NODE_BIT_MASKED) {
    bool any = false;
    RETURN_NOT_OK(has_none(a, stream, &any, err));
    if (any) {
      return jg_error_set(err, JG_ENOTSUP, -1,
                          "%s has null values; the ADL queries need every value present", what);
    }
    jg_array *content = NULL;
    RETURN_NOT_OK(jg_array_slice(jg_array_child(a, 0), 0, jg_array_length(a), &content, err));
    st = strip_options(content, what, stream, out, err);
    jg_array_release(content);
    return st;
  }
  if (kind == JG_NODE_LIST_OFFSET || kind == JG_NODE_LIST) {
    jg_array *content = NULL;
    RETURN_NOT_OK(strip_options(jg_array_child(a, 0), what, stream, &content, err));
    jg_view b0, b1;
    st = jg_array_buffer(a, 0, &b0, err);
    if (st == JG_OK && kind == JG_NODE_LIST) st = jg_array_buffer(a, 1, &b1, err);
    if (st == JG_OK) {
      st = kind == JG_NODE_LIST_OFFSET ? jg_array_list_offset(&b0, content, out, err)
                                       : jg_array_list(&b0, &b1, content, out, err);
    }
    jg_array_release(content);
    return st;
  }
  if (kind == JG_NODE_RECORD) {
    const int n = jg_array_num_children(a);
    jg_array *fields[32] = {NULL};
    const char *names[32];
    if (n > 32) return jg_error_set(err, JG_ENOTSUP, -1, "%s has more than 32 fields", what);
    for (int k = 0; k < n && st == JG_OK; k++) {
      names[k] = jg_array_field_name(a, k);
      st = strip_options(jg_array_child(a, k), what, stream, &fields[k], err);
    }
    if (st == JG_OK) st = jg_array_record(n, fields, names, jg_array_length(a), out, err);
    for (int k = 0; k < n; k++) jg_array_release(fields[k]);
    return st;
  }
  if (kind == JG_NODE_INDEXED_OPTION) {
    return jg_error_set(err, JG_ENOTSUP, -1, "%s is an indexed option; not supported here", what);
  }
  *out = jg_array_retain((jg_array *)a);
  return JG_OK;
}

/* Replaces *a by strip_options(*a). */
static jg_status strip(const char *what, jg_stream stream, jg_array **a, jg_error *err) {
  jg_array *stripped = NULL;
  const jg_status st = strip_options(*a, what, stream, &stripped, err);
  jg_array_release(*a);
  *a = stripped;
  return st;
}

/* Collection `coll` of a flat batch whose X_* columns the reader did not zip (optional lists,
 * as DuckDB and Arrow write them): each X_* field without its options, zipped into lists of
 * records {*} here. *out stays NULL when the batch has no X_* field. */
static jg_status zip_flat(const jg_array *batch, const char *coll, jg_stream stream,
                          jg_array **out, jg_error *err) {
  *out = NULL;
  const size_t len = strlen(coll);
  jg_array *fields[16] = {NULL};
  const char *names[16];
  int n = 0;
  jg_status st = JG_OK;
  for (int k = 0; k < jg_array_num_children(batch) && st == JG_OK && n < 16; k++) {
    const char *name = jg_array_field_name(batch, k);
    if (name == NULL || strncmp(name, coll, len) != 0 || name[len] != '_') continue;
    names[n] = name + len + 1;
    st = strip_options(jg_array_child(batch, k), name, stream, &fields[n], err);
    if (st == JG_OK) n++;
  }
  if (st == JG_OK && n > 0) st = jg_array_zip(n, fields, names, -1, out, err);
  for (int k = 0; k < n; k++) jg_array_release(fields[k]);
  return st;
}

/* MET as records {pt, phi}: the batch's MET record, or one made of its MET_* columns. */
static jg_status met_records(const jg_array *batch, adl_schema schema, jg_array **out,
                             jg_error *err) {
  *out = NULL;
  if (schema == ADL_SCHEMA_RECORDS) return jg_array_field(batch, "MET", out, err);
  jg_array *f[2] = {NULL, NULL};
  const char *names[2];
  int n = 0;
  static const char *const flat[2] = {"MET_pt", "MET_phi"};
  static const char *const short_names[2] = {"pt", "phi"};
  for (int k = 0; k < 2; k++) {
    if (jg_array_field_index(batch, flat[k]) < 0) continue;
    jg_status st = jg_array_field(batch, flat[k], &f[n], err);
    if (st != JG_OK) {
      for (int i = 0; i < n; i++) jg_array_release(f[i]);
      return st;
    }
    names[n++] = short_names[k];
  }
  jg_status st = jg_array_record(n, f, names, jg_array_length(batch), out, err);
  for (int i = 0; i < n; i++) jg_array_release(f[i]);
  return st;
}

jg_status adl_events_from_batch(const jg_array *batch, adl_schema schema, jg_stream stream,
                                adl_events *ev, jg_error *err) {
  memset(ev, 0, sizeof *ev);
  ev->n = jg_array_length(batch);
  struct {
    const char *name;
    jg_array **slot;
  } colls[3] = {{"Jet", &ev->jet}, {"Muon", &ev->muon}, {"Electron", &ev->electron}};
  for (int c = 0; c < 3; c++) {
    jg_status st = JG_OK;
    if (jg_array_field_index(batch, colls[c].name) >= 0) {
      st = jg_array_field(batch, colls[c].name, colls[c].slot, err);
    } else if (schema == ADL_SCHEMA_FLAT) {
      st = zip_flat(batch, colls[c].name, stream, colls[c].slot, err);
    }
    if (st == JG_OK && *colls[c].slot == NULL) continue;
    if (st == JG_OK) st = strip(colls[c].name, stream, colls[c].slot, err);
    if (st != JG_OK) {
      adl_events_release(ev);
      return st;
    }
  }
  if (jg_array_field_index(batch, schema == ADL_SCHEMA_FLAT ? "MET_pt" : "MET") >= 0) {
    jg_status st = met_records(batch, schema, &ev->met, err);
    if (st == JG_OK) st = strip("MET", stream, &ev->met, err);
    if (st != JG_OK) {
      adl_events_release(ev);
      return st;
    }
  }
  return JG_OK;
}

void adl_events_release(adl_events *ev) {
  jg_array_release(ev->met);
  jg_array_release(ev->jet);
  jg_array_release(ev->muon);
  jg_array_release(ev->electron);
  memset(ev, 0, sizeof *ev);
}
