/* adl_generate.c: `jagged generate`, the toy NanoAOD-like event generator (docs/adl.md, "jagged
 * generate", has the physics model and its parameters; they are the constants below).
 *
 * Every event has Poisson numbers of "background" muons, electrons and jets with falling
 * (exponential) pt spectra, eta uniform (leptons) or triangular (jets) in the detector, phi
 * uniform; a fraction of events adds a Z -> mu+ mu- decay (Breit-Wigner mass, the two muons built
 * as four-vectors whose pair mass is that mass) and another fraction a top-like t -> b W, W -> q q
 * decay (three jets whose combined mass is the top's Breit-Wigner mass). MET and its sum follow
 * Gamma(2) spectra. Each collection is sorted by decreasing pt, as in NanoAOD.
 *
 * Determinism: row group k is made from two counter-based random streams (splitmix64) keyed by
 * (seed, k): the first draws each event's multiplicities, the second the kinematics. A row
 * group's bytes therefore depend only on the seed, its index and its number of events, and the
 * file is byte-identical for any number of threads: the generating threads make row groups
 * k = w, w + T, w + 2T, ... (thread w of T), each handing its finished table to the calling
 * thread, which feeds the Parquet writer in row-group order. A thread starts its next row group
 * only once the writer took the last one, so at most T row groups are held plus the one being
 * written. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adl.h"
#include "adl_tmp.h"
#include "jagged/parquet_writer.h"

/* ------------------------------------------------------------------------------------------ */
/* The model's parameters (docs/adl.md lists the same numbers)                                 */
/* ------------------------------------------------------------------------------------------ */

#define GEN_DEFAULT_SEED 42
#define GEN_DEFAULT_ROW_GROUP_ROWS 1000000
#define GEN_EVENTS_PER_LUMI 1000 /* luminosityBlock = 1 + event index / this */

#define GEN_PI 3.14159265358979323846
#define GEN_TWO_PI_F 6.28318530717958647692f

/* Fractions of events with a Z -> mu mu and with a top-like three-jet system (independent). */
#define GEN_Z_FRACTION 0.10
#define GEN_TOP_FRACTION 0.10

/* Background multiplicities: Poisson means, besides the 2 muons of a Z and the 3 jets of a top,
 * so that <nMuon> = 1.1 + 2 * 0.1 = 1.3, <nElectron> = 0.2, <nJet> = 1.4 + 3 * 0.1 = 1.7. */
#define GEN_MUON_MEAN 1.1
#define GEN_ELECTRON_MEAN 0.2
#define GEN_JET_MEAN 1.4

/* Background spectra: pt = threshold + Exp(mean); |eta| < max (uniform for leptons, triangular
 * for jets). */
#define GEN_MUON_PT_MIN 3.0f
#define GEN_MUON_PT_SLOPE 10.0f
#define GEN_MUON_ETA_MAX 2.4f
#define GEN_ELECTRON_PT_MIN 5.0f
#define GEN_ELECTRON_PT_SLOPE 10.0f
#define GEN_ELECTRON_ETA_MAX 2.5f
#define GEN_JET_PT_MIN 15.0f
#define GEN_JET_PT_SLOPE 20.0f
#define GEN_JET_ETA_MAX 4.7f
#define GEN_JET_MASS_FRAC_MIN 0.08f /* background jet mass = pt * U(min, max) */
#define GEN_JET_MASS_FRAC_MAX 0.25f

#define GEN_MUON_MASS 0.10565837f
#define GEN_ELECTRON_MASS 0.000511f

/* MET_pt ~ Gamma(2, theta); MET_sumet = sum of the event's particle pts + Gamma(2, theta). */
#define GEN_MET_THETA 14.0f
#define GEN_SUMET_THETA 250.0f

/* Z -> mu mu: Breit-Wigner mass truncated to mean +- window; the Z's pt ~ Exp(mean), rapidity
 * uniform in +- max; decay isotropic in the Z's rest frame. */
#define GEN_Z_MASS 91.19
#define GEN_Z_WIDTH 2.50
#define GEN_Z_WINDOW 25.0
#define GEN_Z_PT_SLOPE 10.0
#define GEN_Z_Y_MAX 2.4

/* t -> b W, W -> q q: Breit-Wigner masses truncated to +- window; jet masses uniform; the top's
 * pt ~ Exp(mean), rapidity uniform in +- max; each decay isotropic in its parent's rest frame. */
#define GEN_TOP_MASS 172.5
#define GEN_TOP_WIDTH 1.42
#define GEN_TOP_WINDOW 10.0
#define GEN_W_MASS 80.38
#define GEN_W_WIDTH 2.09
#define GEN_W_WINDOW 10.0
#define GEN_BJET_MASS_MIN 4.0
#define GEN_BJET_MASS_MAX 10.0
#define GEN_QJET_MASS_MIN 2.0
#define GEN_QJET_MASS_MAX 8.0
#define GEN_TOP_PT_SLOPE 50.0
#define GEN_TOP_Y_MAX 2.5

/* Poisson tables hold P(X <= k) for k < this; a draw past the last entry gives this - 1. */
#define GEN_POISSON_KMAX 40
/* Most particles of one collection in one event: the Poisson maximum plus a decay's. */
#define GEN_MAX_PER_EVENT (GEN_POISSON_KMAX + 3)

/* ------------------------------------------------------------------------------------------ */
/* Random numbers: splitmix64 streams keyed by (seed, row group, stream)                      */
/* ------------------------------------------------------------------------------------------ */

#define GEN_GOLDEN 0x9e3779b97f4a7c15ULL

/** A splitmix64 stream: a Weyl sequence (state += golden ratio) through a 64-bit mixer. */
typedef struct rng {
  uint64_t state;
} rng;

/** The splitmix64 output function: a bijective 64-bit mixer (xor-shift, multiply). */
static inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/** The next 64 random bits of `r`. */
static inline uint64_t rng_next(rng *r) {
  r->state += GEN_GOLDEN;
  return mix64(r->state);
}

/** The stream `stream` (0: multiplicities, 1: kinematics) of row group `row_group` for `seed`. */
static rng rng_for(uint64_t seed, int64_t row_group, uint64_t stream) {
  rng r;
  r.state = mix64(mix64(seed ^ (stream * 0xd1b54a32d192ed03ULL)) + (uint64_t)row_group);
  return r;
}

/** A float in [0, 1) from the 24 bits of `bits` at `shift` (exact: 24 bits fit a float). */
static inline float unit24(uint64_t bits, int shift) {
  return (float)((bits >> shift) & 0xffffffu) * (1.0f / 16777216.0f);
}

/** A float in (0, 1] from the 24 bits of `bits` at `shift`: safe under a logarithm. */
static inline float unit24_open0(uint64_t bits, int shift) {
  return (float)(((bits >> shift) & 0xffffffu) + 1u) * (1.0f / 16777216.0f);
}

/** A double in [0, 1) from the top 53 bits of `bits`. */
static inline double unit53(uint64_t bits) {
  return (double)(bits >> 11) * (1.0 / 9007199254740992.0);
}

/** A double in (0, 1] from the top 53 bits of `bits`. */
static inline double unit53_open0(uint64_t bits) {
  return (double)((bits >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/** An azimuth in [-pi, pi) from the 24 bits of `bits` at `shift`. */
static inline float phi24(uint64_t bits, int shift) {
  return (unit24(bits, shift) - 0.5f) * GEN_TWO_PI_F;
}

/** P(X <= k) of a Poisson distribution as 64-bit thresholds, for inversion with one draw. */
typedef struct poisson_table {
  int n;                            /* entries used */
  uint64_t below[GEN_POISSON_KMAX]; /* below[k] = P(X <= k) * 2^64 (saturated) */
} poisson_table;

/** Fills `t` for `mean` (exact inversion: a draw b gives the least k with b < below[k]). */
static void poisson_init(poisson_table *t, double mean) {
  double p = exp(-mean), cdf = 0;
  t->n = 0;
  for (int k = 0; k < GEN_POISSON_KMAX; k++) {
    cdf += p;
    p *= mean / (k + 1);
    const double scaled = ldexp(cdf, 64);
    t->below[k] = scaled >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)scaled;
    t->n = k + 1;
    if (t->below[k] == UINT64_MAX) break;
  }
}

/** A Poisson count from 64 random bits. */
static inline int poisson_draw(const poisson_table *t, uint64_t bits) {
  int k = 0;
  while (k < t->n - 1 && bits >= t->below[k]) k++;
  return k;
}

/** A mass from a Breit-Wigner (Cauchy) of `mean` and `width` truncated to mean +- window, by
 *  inversion of its cumulative distribution restricted to the window. */
static double breit_wigner(double mean, double width, double window, uint64_t bits) {
  const double half = atan(2.0 * window / width) / GEN_PI; /* F(mean + window) - 1/2 */
  const double u = (2.0 * unit53(bits) - 1.0) * half;      /* in [-half, half) */
  return mean + 0.5 * width * tan(GEN_PI * u);
}

/* ------------------------------------------------------------------------------------------ */
/* Four-vectors and decays (double precision; only the signal events use them)                */
/* ------------------------------------------------------------------------------------------ */

/** A four-momentum (GeV). */
typedef struct p4 {
  double e, px, py, pz;
} p4;

/** One stored particle: the columns' values (extra is the jet's btag; charge for leptons). */
typedef struct particle {
  float pt, eta, phi, mass, btag;
  int32_t charge;
} particle;

/** A point (x, y) uniform in the unit disk, by rejection from the square (two 24-bit uniforms of
 *  one draw per try), and its q = x^2 + y^2 in (0, 1). */
static void disk_point(rng *r, double *x, double *y, double *q) {
  for (;;) {
    const uint64_t b = rng_next(r);
    *x = 2.0 * ((double)(b >> 40) + 0.5) / 16777216.0 - 1.0;
    *y = 2.0 * ((double)((b >> 16) & 0xffffff) + 0.5) / 16777216.0 - 1.0;
    *q = *x * *x + *y * *y;
    if (*q < 1.0) return;
  }
}

/** A unit vector of uniform azimuth in the plane (c, s): a point of the unit disk has a uniform
 *  angle a, and (cos 2a, sin 2a) needs no trigonometry. */
static void unit2(rng *r, double *c, double *s) {
  double x, y, q;
  disk_point(r, &x, &y, &q);
  *c = (x * x - y * y) / q;
  *s = 2.0 * x * y / q;
}

/** An isotropic unit vector in space (Marsaglia's method: (x, y) uniform in the unit disk, q =
 *  x^2 + y^2, gives (2x sqrt(1 - q), 2y sqrt(1 - q), 1 - 2q)). */
static void unit3(rng *r, double v[3]) {
  double x, y, q;
  disk_point(r, &x, &y, &q);
  const double f = 2.0 * sqrt(1.0 - q);
  v[0] = x * f;
  v[1] = y * f;
  v[2] = 1.0 - 2.0 * q;
}

/** The four-momentum of a particle of `mass` with transverse momentum `pt`, rapidity `y` and
 *  azimuth (c, s) = (cos phi, sin phi). */
static p4 p4_from_pt_y(double mass, double pt, double y, double c, double s) {
  const double mt = sqrt(mass * mass + pt * pt), ey = exp(y);
  const p4 v = {mt * 0.5 * (ey + 1.0 / ey), pt * c, pt * s, mt * 0.5 * (ey - 1.0 / ey)};
  return v;
}

/** `p`, given in the rest frame of a particle of mass `m` and four-momentum `frame`, in the
 *  frame where that particle has `frame` (a pure boost of velocity frame.p / frame.e). */
static p4 p4_boost(p4 p, p4 frame, double m) {
  const double bx = frame.px / frame.e, by = frame.py / frame.e, bz = frame.pz / frame.e;
  const double b2 = bx * bx + by * by + bz * bz, gamma = frame.e / m;
  const double bp = bx * p.px + by * p.py + bz * p.pz;
  const double k = (b2 > 0 ? (gamma - 1.0) * bp / b2 : 0.0) + gamma * p.e;
  const p4 out = {gamma * (p.e + bp), p.px + k * bx, p.py + k * by, p.pz + k * bz};
  return out;
}

/** The momentum of each daughter of a two-body decay M -> m1 m2 in M's rest frame. */
static double two_body_p(double mass, double m1, double m2) {
  const double a = mass * mass - (m1 + m2) * (m1 + m2), b = mass * mass - (m1 - m2) * (m1 - m2);
  return sqrt(a * b) / (2.0 * mass);
}

/** The daughters (d1, d2) of a decay mass -> m1 m2 in the parent's rest frame, back to back
 *  along `dir`. */
static void two_body(double mass, double m1, double m2, const double dir[3], p4 *d1, p4 *d2) {
  const double p = two_body_p(mass, m1, m2);
  const double e1 = sqrt(p * p + m1 * m1);
  const p4 a = {e1, p * dir[0], p * dir[1], p * dir[2]};
  const p4 b = {mass - e1, -a.px, -a.py, -a.pz};
  *d1 = a;
  *d2 = b;
}

/** `v` as stored: pt, pseudorapidity, azimuth (float32) and the given mass. */
static particle particle_from_p4(p4 v, float mass) {
  const double pt = sqrt(v.px * v.px + v.py * v.py);
  particle p;
  memset(&p, 0, sizeof p);
  p.pt = (float)pt;
  p.eta = (float)asinh(v.pz / pt);
  p.phi = (float)atan2(v.py, v.px);
  p.mass = mass;
  return p;
}

/** Whether `v` passes a threshold pt >= pt_min and |eta| < eta_max, given sinh_eta_max =
 *  sinh(eta_max): |eta| < eta_max is |pz| < pt sinh(eta_max), so a try costs no asinh. */
static bool p4_accept(p4 v, float pt_min, double sinh_eta_max) {
  const double pt = sqrt(v.px * v.px + v.py * v.py);
  return (float)pt >= pt_min && fabs(v.pz) < pt * sinh_eta_max;
}

/** A Z -> mu+ mu- decay into out[0..1]: the mass from the Breit-Wigner, then the Z's momentum and
 *  the decay angle redrawn until both muons pass the muon thresholds (pt >= GEN_MUON_PT_MIN,
 *  |eta| < GEN_MUON_ETA_MAX; the mass is kept, so its distribution stays the Breit-Wigner). */
static void make_z(rng *r, double sinh_eta_max, particle out[2]) {
  const double mass = breit_wigner(GEN_Z_MASS, GEN_Z_WIDTH, GEN_Z_WINDOW, rng_next(r));
  for (;;) {
    const uint64_t b = rng_next(r);
    const double pt = -GEN_Z_PT_SLOPE * log(unit53_open0(b));
    const double y = (2.0 * unit53(rng_next(r)) - 1.0) * GEN_Z_Y_MAX;
    double c, s, dir[3];
    unit2(r, &c, &s);
    unit3(r, dir);
    const p4 z = p4_from_pt_y(mass, pt, y, c, s);
    p4 d1, d2;
    two_body(mass, GEN_MUON_MASS, GEN_MUON_MASS, dir, &d1, &d2);
    d1 = p4_boost(d1, z, mass);
    d2 = p4_boost(d2, z, mass);
    if (p4_accept(d1, GEN_MUON_PT_MIN, sinh_eta_max) &&
        p4_accept(d2, GEN_MUON_PT_MIN, sinh_eta_max)) {
      out[0] = particle_from_p4(d1, GEN_MUON_MASS);
      out[1] = particle_from_p4(d2, GEN_MUON_MASS);
      out[0].charge = (b & 1) ? 1 : -1;
      out[1].charge = -out[0].charge;
      return;
    }
  }
}

/** A top-like t -> b W, W -> q q decay into three jets out[0..2] (b first): masses drawn once
 *  (top and W Breit-Wigners, jet masses uniform), then the top's momentum and both decay angles
 *  redrawn until every jet passes the jet thresholds (pt >= GEN_JET_PT_MIN, |eta| <
 *  GEN_JET_ETA_MAX). The three jets' summed four-vector is the top's: their mass is mt. */
static void make_top(rng *r, double sinh_eta_max, particle out[3]) {
  const double mt = breit_wigner(GEN_TOP_MASS, GEN_TOP_WIDTH, GEN_TOP_WINDOW, rng_next(r));
  const double mw = breit_wigner(GEN_W_MASS, GEN_W_WIDTH, GEN_W_WINDOW, rng_next(r));
  const uint64_t mb = rng_next(r), mq = rng_next(r);
  const double m[3] = {
      GEN_BJET_MASS_MIN + (GEN_BJET_MASS_MAX - GEN_BJET_MASS_MIN) * unit24(mb, 40),
      GEN_QJET_MASS_MIN + (GEN_QJET_MASS_MAX - GEN_QJET_MASS_MIN) * unit24(mb, 16),
      GEN_QJET_MASS_MIN + (GEN_QJET_MASS_MAX - GEN_QJET_MASS_MIN) * unit24(mq, 40)};
  for (;;) {
    const double pt = -GEN_TOP_PT_SLOPE * log(unit53_open0(rng_next(r)));
    const double y = (2.0 * unit53(rng_next(r)) - 1.0) * GEN_TOP_Y_MAX;
    double c, s, d1[3], d2[3];
    unit2(r, &c, &s);
    unit3(r, d1);
    unit3(r, d2);
    const p4 top = p4_from_pt_y(mt, pt, y, c, s);
    p4 b, w, q1, q2;
    two_body(mt, m[0], mw, d1, &b, &w);     /* in the top's rest frame */
    two_body(mw, m[1], m[2], d2, &q1, &q2); /* in the W's rest frame */
    b = p4_boost(b, top, mt);
    q1 = p4_boost(p4_boost(q1, w, mw), top, mt);
    q2 = p4_boost(p4_boost(q2, w, mw), top, mt);
    if (p4_accept(b, GEN_JET_PT_MIN, sinh_eta_max) && p4_accept(q1, GEN_JET_PT_MIN, sinh_eta_max) &&
        p4_accept(q2, GEN_JET_PT_MIN, sinh_eta_max)) {
      out[0] = particle_from_p4(b, (float)m[0]);
      out[1] = particle_from_p4(q1, (float)m[1]);
      out[2] = particle_from_p4(q2, (float)m[2]);
      const uint64_t t = rng_next(r);
      const float u0 = unit24(t, 40), u1 = unit24(t, 16), u2 = unit24(mq, 16);
      /* the b jet: btag piled up near 1 (kept below 1, the top of query 6-2's range) */
      out[0].btag = fminf(1.0f - u0 * u0, 0x1.fffffep-1f);
      out[1].btag = u1 * u1; /* light jets: piled up near 0 */
      out[2].btag = u2 * u2;
      return;
    }
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Background particles (float32; the bulk of the work)                                        */
/* ------------------------------------------------------------------------------------------ */

/** A background lepton: pt = pt_min + Exp(slope), eta uniform in +- eta_max, phi uniform,
 *  charge +-1 with equal odds. */
static inline particle make_lepton(rng *r, float pt_min, float slope, float eta_max, float mass) {
  const uint64_t b = rng_next(r);
  particle p;
  p.pt = pt_min - slope * logf(unit24_open0(b, 40));
  p.eta = (2.0f * unit24(b, 16) - 1.0f) * eta_max;
  p.phi = phi24(rng_next(r), 40);
  p.mass = mass;
  p.btag = 0;
  p.charge = (b & 1) ? 1 : -1;
  return p;
}

/** A background jet: pt = 15 + Exp(20), eta triangular in +- 4.7 (the sum of two uniforms), phi
 *  uniform, mass a uniform fraction of pt, btag = u^2 (piled up near 0). */
static inline particle make_jet(rng *r) {
  const uint64_t b = rng_next(r), c = rng_next(r);
  particle p;
  p.pt = GEN_JET_PT_MIN - GEN_JET_PT_SLOPE * logf(unit24_open0(b, 40));
  p.eta = (unit24(c, 40) + unit24(c, 16) - 1.0f) * GEN_JET_ETA_MAX;
  p.phi = phi24(b, 16);
  const float frac = (float)(b & 0xffff) * (1.0f / 65536.0f);
  p.mass = p.pt * (GEN_JET_MASS_FRAC_MIN + (GEN_JET_MASS_FRAC_MAX - GEN_JET_MASS_FRAC_MIN) * frac);
  const float u = (float)(c & 0xffff) * (1.0f / 65536.0f);
  p.btag = u * u;
  p.charge = 0;
  return p;
}

/** Sorts p[0..n) by decreasing pt (insertion sort: n is a handful; stable). */
static void sort_by_pt(particle *p, int n) {
  for (int i = 1; i < n; i++) {
    const particle x = p[i];
    int j = i;
    while (j > 0 && p[j - 1].pt < x.pt) {
      p[j] = p[j - 1];
      j--;
    }
    p[j] = x;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* One row group: columns in jagged buffers, then a record array                               */
/* ------------------------------------------------------------------------------------------ */

/** What a column's length counts. */
typedef enum col_len { PER_EVENT, PER_MUON, PER_ELECTRON, PER_JET } col_len;

/** The columns, in the CMS sample's order. */
enum {
  C_RUN,
  C_LUMI,
  C_EVENT,
  C_NMUON,
  C_MUON_PT,
  C_MUON_ETA,
  C_MUON_PHI,
  C_MUON_MASS,
  C_MUON_CHARGE,
  C_NELECTRON,
  C_ELECTRON_PT,
  C_ELECTRON_ETA,
  C_ELECTRON_PHI,
  C_ELECTRON_MASS,
  C_ELECTRON_CHARGE,
  C_MET_PT,
  C_MET_PHI,
  C_MET_SUMET,
  C_NJET,
  C_JET_PT,
  C_JET_ETA,
  C_JET_PHI,
  C_JET_MASS,
  C_JET_BTAG,
  NCOLUMNS
};

/** A column's name, dtype and what its length counts. */
typedef struct column_spec {
  const char *name;
  jg_dtype dtype;
  col_len len;
} column_spec;

static const column_spec columns[NCOLUMNS] = {
    {"run", JG_DTYPE_INT32, PER_EVENT},
    {"luminosityBlock", JG_DTYPE_INT64, PER_EVENT},
    {"event", JG_DTYPE_INT64, PER_EVENT},
    {"nMuon", JG_DTYPE_INT64, PER_EVENT},
    {"Muon_pt", JG_DTYPE_FLOAT32, PER_MUON},
    {"Muon_eta", JG_DTYPE_FLOAT32, PER_MUON},
    {"Muon_phi", JG_DTYPE_FLOAT32, PER_MUON},
    {"Muon_mass", JG_DTYPE_FLOAT32, PER_MUON},
    {"Muon_charge", JG_DTYPE_INT32, PER_MUON},
    {"nElectron", JG_DTYPE_INT64, PER_EVENT},
    {"Electron_pt", JG_DTYPE_FLOAT32, PER_ELECTRON},
    {"Electron_eta", JG_DTYPE_FLOAT32, PER_ELECTRON},
    {"Electron_phi", JG_DTYPE_FLOAT32, PER_ELECTRON},
    {"Electron_mass", JG_DTYPE_FLOAT32, PER_ELECTRON},
    {"Electron_charge", JG_DTYPE_INT32, PER_ELECTRON},
    {"MET_pt", JG_DTYPE_FLOAT32, PER_EVENT},
    {"MET_phi", JG_DTYPE_FLOAT32, PER_EVENT},
    {"MET_sumet", JG_DTYPE_FLOAT32, PER_EVENT},
    {"nJet", JG_DTYPE_INT64, PER_EVENT},
    {"Jet_pt", JG_DTYPE_FLOAT32, PER_JET},
    {"Jet_eta", JG_DTYPE_FLOAT32, PER_JET},
    {"Jet_phi", JG_DTYPE_FLOAT32, PER_JET},
    {"Jet_mass", JG_DTYPE_FLOAT32, PER_JET},
    {"Jet_btag", JG_DTYPE_FLOAT32, PER_JET},
};

/** Event flags of the multiplicity pass. */
enum { FLAG_Z = 1, FLAG_TOP = 2 };

/** The model's precomputed tables, shared read-only by the generating threads. */
typedef struct model {
  poisson_table muons, electrons, jets;
  uint32_t z_below, top_below; /* an event has a Z (top) when 32 random bits are below this */
  double sinh_muon_eta, sinh_jet_eta; /* sinh of the muons' and jets' |eta| limits */
} model;

/** Fills `m` from the GEN_ constants. */
static void model_init(model *m) {
  poisson_init(&m->muons, GEN_MUON_MEAN);
  poisson_init(&m->electrons, GEN_ELECTRON_MEAN);
  poisson_init(&m->jets, GEN_JET_MEAN);
  m->z_below = (uint32_t)(GEN_Z_FRACTION * 4294967296.0);
  m->top_below = (uint32_t)(GEN_TOP_FRACTION * 4294967296.0);
  m->sinh_muon_eta = sinh((double)GEN_MUON_ETA_MAX);
  m->sinh_jet_eta = sinh((double)GEN_JET_ETA_MAX);
}

/** A row group's buffers while it is filled: one per column, plus the three offsets. */
typedef struct rg_buffers {
  jg_buffer *buf[NCOLUMNS];
  jg_buffer *off[3]; /* muons, electrons, jets: int64, n + 1 */
} rg_buffers;

/** Releases every buffer of `b` (NULL entries are skipped). */
static void rg_buffers_release(rg_buffers *b) {
  for (int c = 0; c < NCOLUMNS; c++) jg_buffer_release(b->buf[c]);
  for (int k = 0; k < 3; k++) jg_buffer_release(b->off[k]);
}

/** A new host buffer of `n` elements of `itemsize` bytes in *out, from the host pool (whose
 *  cached blocks come back mapped: the next row group's buffers cost no page faults). */
static jg_status host_buffer(int64_t n, size_t itemsize, jg_buffer **out, jg_error *err) {
  if (n < 0 || (uint64_t)n > SIZE_MAX / itemsize) {
    return jg_error_set(err, JG_EOVERFLOW, -1,
                        "adl_generate: %lld values of %zu bytes overflow a size", (long long)n,
                        itemsize);
  }
  return jg_buffer_allocate(jg_memory_resource_host_pool(), (size_t)n * itemsize, NULL, out, err);
}

/** A 1-D numeric array over the first `n` elements of `buf`. */
static jg_status numeric_over(jg_buffer *buf, int64_t n, jg_dtype dtype, jg_array **out,
                              jg_error *err) {
  jg_layout l;
  jg_view v;
  const jg_len len = n;
  jg_status st = jg_layout_init(&l, 1, &len, NULL, (int64_t)jg_dtype_itemsize(dtype), err);
  if (st == JG_OK) st = jg_view_from_buffer(&v, buf, &l, dtype, false, err);
  if (st == JG_OK) st = jg_array_numeric(&v, out, err);
  return st;
}

/** Builds the record array of a filled row group from `b` (the arrays retain the buffers; `b`
 *  is released by the caller either way). */
static jg_status rg_table(rg_buffers *b, int64_t n, const int64_t total[3], jg_array **out,
                          jg_error *err) {
  jg_array *fields[NCOLUMNS] = {NULL};
  const char *names[NCOLUMNS];
  jg_view offsets[3];
  jg_status st = JG_OK;
  for (int k = 0; k < 3 && st == JG_OK; k++) {
    jg_layout l;
    const jg_len len = n + 1;
    st = jg_layout_init(&l, 1, &len, NULL, 8, err);
    if (st == JG_OK)
      st = jg_view_from_buffer(&offsets[k], b->off[k], &l, JG_DTYPE_INT64, false, err);
  }
  for (int c = 0; c < NCOLUMNS && st == JG_OK; c++) {
    names[c] = columns[c].name;
    if (columns[c].len == PER_EVENT) {
      st = numeric_over(b->buf[c], n, columns[c].dtype, &fields[c], err);
      continue;
    }
    const int k = (int)columns[c].len - 1;
    jg_array *content = NULL;
    st = numeric_over(b->buf[c], total[k], columns[c].dtype, &content, err);
    if (st == JG_OK) st = jg_array_list_offset(&offsets[k], content, &fields[c], err);
    jg_array_release(content);
  }
  if (st == JG_OK) st = jg_array_record(NCOLUMNS, fields, names, n, out, err);
  for (int c = 0; c < NCOLUMNS; c++) jg_array_release(fields[c]);
  return st;
}

/** One collection's output columns in a row group being filled. */
typedef struct out_cols {
  float *pt, *eta, *phi, *mass, *btag; /* btag: jets only */
  int32_t *charge;                     /* leptons only */
} out_cols;

/** The columns of the collection whose first column (pt) is `first` in `b`. */
static out_cols out_cols_get(const rg_buffers *b, int first, bool jets) {
  out_cols c;
  c.pt = jg_buffer_data(b->buf[first]);
  c.eta = jg_buffer_data(b->buf[first + 1]);
  c.phi = jg_buffer_data(b->buf[first + 2]);
  c.mass = jg_buffer_data(b->buf[first + 3]);
  c.btag = jets ? jg_buffer_data(b->buf[first + 4]) : NULL;
  c.charge = jets ? NULL : jg_buffer_data(b->buf[first + 4]);
  return c;
}

/** Writes particles p[0..n) at element `at` of the columns `c`. */
static inline void store(const out_cols *c, int64_t at, const particle *p, int n) {
  for (int k = 0; k < n; k++) {
    c->pt[at + k] = p[k].pt;
    c->eta[at + k] = p[k].eta;
    c->phi[at + k] = p[k].phi;
    c->mass[at + k] = p[k].mass;
  }
  if (c->btag != NULL) {
    for (int k = 0; k < n; k++) c->btag[at + k] = p[k].btag;
  } else {
    for (int k = 0; k < n; k++) c->charge[at + k] = p[k].charge;
  }
}

/** Makes row group `index` of `n` events whose first has index `first` (0-based) into the
 *  record array `*out`. Pass 1 (stream 0) draws each event's flags and multiplicities, which
 *  size the buffers; pass 2 (stream 1) draws the kinematics. Errors: JG_ENOMEM, JG_EOVERFLOW. */
static jg_status rg_make(const model *m, uint64_t seed, int64_t index, int64_t first, int64_t n,
                         jg_array **out, jg_error *err) {
  *out = NULL;
  rg_buffers b;
  memset(&b, 0, sizeof b);
  uint8_t *flags = malloc(n > 0 ? (size_t)n : 1);
  jg_status st = flags == NULL
                     ? jg_error_set(err, JG_ENOMEM, -1,
                                    "cannot allocate a row group of %lld events", (long long)n)
                     : JG_OK;
  const int count_col[3] = {C_NMUON, C_NELECTRON, C_NJET};
  for (int c = 0; c < NCOLUMNS && st == JG_OK; c++) {
    if (columns[c].len == PER_EVENT) {
      st = host_buffer(n, jg_dtype_itemsize(columns[c].dtype), &b.buf[c], err);
    }
  }
  for (int k = 0; k < 3 && st == JG_OK; k++) st = host_buffer(n + 1, 8, &b.off[k], err);
  int64_t total[3] = {0, 0, 0};
  if (st == JG_OK) {
    /* Pass 1: flags and multiplicities, then the offsets. */
    rng r = rng_for(seed, index, 0);
    int64_t *count[3], *off[3];
    for (int k = 0; k < 3; k++) {
      count[k] = jg_buffer_data(b.buf[count_col[k]]);
      off[k] = jg_buffer_data(b.off[k]);
      off[k][0] = 0;
    }
    for (int64_t i = 0; i < n; i++) {
      const uint64_t f = rng_next(&r);
      const bool z = (uint32_t)(f >> 32) < m->z_below;
      const bool top = (uint32_t)f < m->top_below;
      flags[i] = (uint8_t)((z ? FLAG_Z : 0) | (top ? FLAG_TOP : 0));
      count[0][i] = poisson_draw(&m->muons, rng_next(&r)) + (z ? 2 : 0);
      count[1][i] = poisson_draw(&m->electrons, rng_next(&r));
      count[2][i] = poisson_draw(&m->jets, rng_next(&r)) + (top ? 3 : 0);
      for (int k = 0; k < 3; k++) {
        total[k] += count[k][i];
        off[k][i + 1] = total[k];
      }
    }
  }
  for (int c = 0; c < NCOLUMNS && st == JG_OK; c++) {
    if (columns[c].len != PER_EVENT) {
      st = host_buffer(total[columns[c].len - 1], jg_dtype_itemsize(columns[c].dtype), &b.buf[c],
                       err);
    }
  }
  if (st == JG_OK) {
    /* Pass 2: the kinematics. */
    rng r = rng_for(seed, index, 1);
    int32_t *run = jg_buffer_data(b.buf[C_RUN]);
    int64_t *lumi = jg_buffer_data(b.buf[C_LUMI]), *event = jg_buffer_data(b.buf[C_EVENT]);
    float *met = jg_buffer_data(b.buf[C_MET_PT]), *met_phi = jg_buffer_data(b.buf[C_MET_PHI]);
    float *sumet = jg_buffer_data(b.buf[C_MET_SUMET]);
    const int64_t *count[3], *off[3];
    for (int k = 0; k < 3; k++) {
      count[k] = jg_buffer_data(b.buf[count_col[k]]);
      off[k] = jg_buffer_data(b.off[k]);
    }
    const out_cols muons = out_cols_get(&b, C_MUON_PT, false);
    const out_cols electrons = out_cols_get(&b, C_ELECTRON_PT, false);
    const out_cols jets = out_cols_get(&b, C_JET_PT, true);
    particle p[GEN_MAX_PER_EVENT];
    for (int64_t i = 0; i < n; i++) {
      const int64_t e = first + i;
      run[i] = 1;
      lumi[i] = 1 + e / GEN_EVENTS_PER_LUMI;
      event[i] = e + 1;
      float sum_pt = 0;
      /* muons: the Z's pair, then the background */
      int nm = (int)count[0][i], k = 0;
      if (flags[i] & FLAG_Z) {
        make_z(&r, m->sinh_muon_eta, p);
        k = 2;
      }
      for (; k < nm; k++) {
        p[k] = make_lepton(&r, GEN_MUON_PT_MIN, GEN_MUON_PT_SLOPE, GEN_MUON_ETA_MAX, GEN_MUON_MASS);
      }
      sort_by_pt(p, nm);
      for (k = 0; k < nm; k++) sum_pt += p[k].pt;
      store(&muons, off[0][i], p, nm);
      /* electrons */
      const int ne = (int)count[1][i];
      for (k = 0; k < ne; k++) {
        p[k] = make_lepton(&r, GEN_ELECTRON_PT_MIN, GEN_ELECTRON_PT_SLOPE, GEN_ELECTRON_ETA_MAX,
                           GEN_ELECTRON_MASS);
        sum_pt += p[k].pt;
      }
      sort_by_pt(p, ne);
      store(&electrons, off[1][i], p, ne);
      /* jets: the top's three, then the background */
      const int nj = (int)count[2][i];
      k = 0;
      if (flags[i] & FLAG_TOP) {
        make_top(&r, m->sinh_jet_eta, p);
        k = 3;
      }
      for (; k < nj; k++) p[k] = make_jet(&r);
      sort_by_pt(p, nj);
      for (k = 0; k < nj; k++) sum_pt += p[k].pt;
      store(&jets, off[2][i], p, nj);
      /* MET */
      const uint64_t u = rng_next(&r), v = rng_next(&r), w = rng_next(&r);
      met[i] = -GEN_MET_THETA * logf(unit24_open0(u, 40) * unit24_open0(u, 16));
      met_phi[i] = phi24(v, 40);
      sumet[i] = sum_pt - GEN_SUMET_THETA * logf(unit24_open0(v, 16) * unit24_open0(w, 40));
    }
  }
  free(flags);
  if (st == JG_OK) st = rg_table(&b, n, total, out, err);
  rg_buffers_release(&b);
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Generating threads and the writer                                                           */
/* ------------------------------------------------------------------------------------------ */

/** What the generating threads share with the writing (calling) thread. */
typedef struct gen_shared {
  const model *model;
  uint64_t seed;
  int64_t nevents, rows, nrg; /* events, events per row group, row groups */
  int nthreads;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool stop; /* the writer gave up: threads finish without handing over */
} gen_shared;

/** A generating thread and its one-table slot. */
typedef struct gen_worker {
  gen_shared *g;
  int id;
  pthread_t thread;
  bool started;
  bool full; /* the slot holds row group `rg` (or its failure) */
  int64_t rg;
  jg_array *table; /* NULL with st != JG_OK: the row group failed */
  jg_status st;
  jg_error err;
} gen_worker;

/** The thread body: makes row groups id, id + T, ... and hands each over in the slot, waiting
 *  for the slot to be empty first (so one finished table at a time per thread). */
static void *worker_main(void *arg) {
  gen_worker *w = arg;
  gen_shared *g = w->g;
  for (int64_t k = w->id; k < g->nrg; k += g->nthreads) {
    pthread_mutex_lock(&g->mu);
    while (w->full && !g->stop) pthread_cond_wait(&g->cv, &g->mu);
    const bool stop = g->stop;
    pthread_mutex_unlock(&g->mu);
    if (stop) return NULL;
    const int64_t first = k * g->rows;
    const int64_t n = g->nevents - first < g->rows ? g->nevents - first : g->rows;
    jg_array *table = NULL;
    jg_error err;
    jg_error_clear(&err);
    const jg_status st = rg_make(g->model, g->seed, k, first, n, &table, &err);
    pthread_mutex_lock(&g->mu);
    w->rg = k;
    w->table = table;
    w->st = st;
    if (st != JG_OK) w->err = err;
    w->full = true;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    if (st != JG_OK) return NULL;
  }
  return NULL;
}

/** Stops and joins the started workers of `w[0..n)` and releases tables left in their slots. */
static void workers_stop(gen_shared *g, gen_worker *w, int n) {
  pthread_mutex_lock(&g->mu);
  g->stop = true;
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
  for (int i = 0; i < n; i++) {
    if (w[i].started) pthread_join(w[i].thread, NULL);
    jg_array_release(w[i].table);
    w[i].table = NULL;
  }
}

/** Writes every row group through `writer`: the workers make them, this thread takes them from
 *  the slots in order, writes each and reports progress. */
static jg_status write_all(gen_shared *g, jg_parquet_writer *writer,
                           const adl_generate_options *opt, jg_error *err) {
  gen_worker *w = calloc((size_t)g->nthreads, sizeof *w);
  if (w == NULL) return jg_error_set(err, JG_ENOMEM, -1, "cannot allocate the generator threads");
  jg_status st = JG_OK;
  for (int i = 0; i < g->nthreads && st == JG_OK; i++) {
    w[i].g = g;
    w[i].id = i;
    if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]) != 0) {
      st = jg_error_set(err, JG_ENOMEM, -1, "cannot start generator thread %d", i);
    } else {
      w[i].started = true;
    }
  }
  for (int64_t k = 0; k < g->nrg && st == JG_OK; k++) {
    gen_worker *x = &w[k % g->nthreads];
    pthread_mutex_lock(&g->mu);
    while (!x->full) pthread_cond_wait(&g->cv, &g->mu);
    jg_array *table = x->table;
    x->table = NULL;
    x->full = false;
    st = x->st;
    if (st != JG_OK && err != NULL) *err = x->err;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    if (st == JG_OK) st = jg_parquet_writer_write(writer, table, err);
    jg_array_release(table);
    if (st == JG_OK && opt->progress != NULL) opt->progress(k + 1, g->nrg, opt->user);
  }
  workers_stop(g, w, g->nthreads);
  free(w);
  return st;
}

/** The number of online cores (at least 1). */
static int online_cores(void) {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

jg_status adl_generate(const char *path, int64_t nevents, const adl_generate_options *options,
                       jg_error *err) {
  adl_generate_options opt;
  memset(&opt, 0, sizeof opt);
  if (options != NULL) opt = *options;
  if (path == NULL || path[0] == '\0') {
    return jg_error_set(err, JG_EINVAL, -1, "adl_generate: no output path");
  }
  if (nevents < 0) {
    return jg_error_set(err, JG_EINVAL, -1, "adl_generate: %lld events (must be >= 0)",
                        (long long)nevents);
  }
  if (opt.row_group_rows < 0 || opt.nthreads < 0) {
    return jg_error_set(err, JG_EINVAL, -1,
                        "adl_generate: row_group_rows (%lld) and nthreads (%d) must be >= 0",
                        (long long)opt.row_group_rows, opt.nthreads);
  }
  model m;
  model_init(&m);
  gen_shared g;
  memset(&g, 0, sizeof g);
  g.model = &m;
  g.seed = opt.seed != 0 ? opt.seed : GEN_DEFAULT_SEED;
  g.nevents = nevents;
  g.rows = opt.row_group_rows > 0 ? opt.row_group_rows : GEN_DEFAULT_ROW_GROUP_ROWS;
  g.nrg = nevents / g.rows + (nevents % g.rows != 0);
  g.nthreads = opt.nthreads > 0 ? opt.nthreads : online_cores();
  if (g.nthreads > g.nrg) g.nthreads = g.nrg > 0 ? (int)g.nrg : 1;

  struct stat ps;
  if (stat(path, &ps) == 0 && !S_ISREG(ps.st_mode)) {
    return jg_error_set(err, JG_EINVAL, -1, "'%s' exists and is not a regular file (%s)", path,
                        S_ISDIR(ps.st_mode) ? "a directory" : "a device, FIFO or socket");
  }
  jg_parquet_write_options wo;
  jg_parquet_write_options_init(&wo);
  wo.row_group_rows = g.rows;
  if (opt.has_codec) wo.codec = opt.codec;
  wo.dictionary = false; /* random floats fail it anyway, and trying costs ~13% of the run */
  jg_parquet_writer *writer = NULL;
  /* The writer writes a temporary file beside `path` and renames it onto `path` at close. */
  jg_status st = jg_parquet_writer_open(path, &wo, &writer, err);
  const int slot = st == JG_OK ? adl_tmp_track(jg_parquet_writer_temp_path(writer)) : -1;
  if (st == JG_OK && g.nrg == 0) {
    /* No events: an empty table still fixes the schema, so the file has every column. */
    jg_array *empty = NULL;
    st = rg_make(&m, g.seed, 0, 0, 0, &empty, err);
    if (st == JG_OK) st = jg_parquet_writer_write(writer, empty, err);
    jg_array_release(empty);
  } else if (st == JG_OK) {
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    st = write_all(&g, writer, &opt, err);
    pthread_cond_destroy(&g.cv);
    pthread_mutex_destroy(&g.mu);
  }
  if (st == JG_OK) {
    st = jg_parquet_writer_close(writer, err); /* puts the file in place, or removes it */
  } else {
    jg_parquet_writer_discard(writer);
  }
  adl_tmp_untrack(slot);
  /* The row groups' blocks went back to the host pool's cache: hand them back to the system. */
  jg_memory_resource_trim(jg_memory_resource_host_pool(), 0, NULL);
  return st;
}
