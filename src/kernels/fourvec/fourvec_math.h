/* fourvec_math.h: the host side's four-vector formulas of kernel "fourvec" (fourvec.json),
 * shared by fourvec_cpu.c and fourvec_openmp.c; fourvec_cuda.cu has the same formulas for the
 * device (it may include only jgk_common.cuh).
 *
 * Conventions (the ADL benchmark's and coffea's): px = pt cos(phi), py = pt sin(phi),
 * pz = pt sinh(eta), E = sqrt(pt^2 + pz^2 + mass^2) (a massless vector has mass 0); the sum of
 * vectors adds px, py, pz and E; back from Cartesian: pt = sqrt(px^2 + py^2), eta =
 * asinh(pz / pt) (0 when pt is 0), phi = atan2(py, px); the mass of a sum of two (pt, eta, phi,
 * mass) vectors from the cancellation-free pair formula below (never negative), else
 * sqrt(E^2 - p^2), with the sign of E^2 - p^2 kept for a space-like sum (rounding can make it slightly negative: the `vector`
 * library's convention, copysign(sqrt(|m^2|), m^2)). deltaPhi = remainder(phi1 - phi2, 2 pi), in
 * [-pi, pi]; deltaR = sqrt(deltaEta^2 + deltaPhi^2); the transverse mass sqrt(2 pt1 pt2 (1 -
 * cos(dphi))) is computed as 2 sqrt(pt1 pt2) |sin(dphi / 2)|, the same value without the
 * cancellation of 1 - cos for small angles. */
#ifndef JGK_FOURVEC_MATH_H
#define JGK_FOURVEC_MATH_H

#include <math.h>
#include <stdint.h>

#define JGK_FOURVEC_TWO_PI 6.283185307179586476925286766559

/* Inputs op reads (x0..x[k-1]) and outputs it writes (o0..o[k-1]). */
static inline int jgk_fourvec_inputs(int64_t op) {
  return op >= 0 && op <= 7 ? 8 : op == 8 ? 2 : op == 9 || op == 10 ? 4 : 0;
}

static inline int jgk_fourvec_outputs(int64_t op) {
  return op >= 0 && op <= 7 && (op % 4 == 0 || op % 4 == 1) ? 4 : 1;
}

static inline void jgk_fourvec_to_cartesian(double pt, double eta, double phi, double m,
                                            double *c) {
  c[0] = pt * cos(phi);
  c[1] = pt * sin(phi);
  c[2] = pt * sinh(eta);
  c[3] = sqrt(pt * pt + c[2] * c[2] + m * m);
}

static inline double jgk_fourvec_delta_phi(double a, double b) {
  return remainder(a - b, JGK_FOURVEC_TWO_PI);
}

/* The squared mass of the sum of two (pt, eta, phi, mass) vectors x[0..4) and x[4..8), as
 * m1^2 + m2^2 + 2 (E1 E2 - p1.p2) with E1 E2 - p1.p2 = mT1 mT2 cosh(dy) - pt1 pt2 cos(dphi)
 * (y the rapidity, mT = sqrt(pt^2 + m^2)) written as a sum of terms that are never negative:
 * (m1^2 pt2^2 + m2^2 pt1^2 + m1^2 m2^2) / (mT1 mT2 + pt1 pt2) + 2 mT1 mT2 sinh^2(dy / 2) +
 * 2 pt1 pt2 sin^2(dphi / 2). E^2 - p^2 of the summed components cancels catastrophically for
 * light, collinear pairs (host and GPU then disagree in the leading digits); this form does not. */
static inline double jgk_fourvec_pair_mass2(const double *x) {
  const double pt1 = x[0], m1 = x[3], pt2 = x[4], m2 = x[7];
  const double mt1 = sqrt(pt1 * pt1 + m1 * m1), mt2 = sqrt(pt2 * pt2 + m2 * m2);
  const double y1 = m1 == 0.0 ? x[1] : mt1 == 0.0 ? 0.0 : asinh(pt1 * sinh(x[1]) / mt1);
  const double y2 = m2 == 0.0 ? x[5] : mt2 == 0.0 ? 0.0 : asinh(pt2 * sinh(x[5]) / mt2);
  const double sy = sinh(0.5 * (y1 - y2)), sp = sin(0.5 * (x[2] - x[6]));
  const double den = mt1 * mt2 + pt1 * pt2;
  const double t = den > 0.0 ? (m1 * m1 * pt2 * pt2 + m2 * m2 * pt1 * pt1 + m1 * m1 * m2 * m2) / den
                             : 0.0;
  return m1 * m1 + m2 * m2 + 2.0 * (t + 2.0 * mt1 * mt2 * sy * sy + 2.0 * pt1 * pt2 * sp * sp);
}

/* o[0..outputs) for one element of `op` with inputs x[0..inputs). */
static inline void jgk_fourvec_one(int64_t op, const double *x, double *o) {
  if (op == 2) {
    /* the mass of two (pt, eta, phi, mass) vectors needs no Cartesian components */
    o[0] = sqrt(jgk_fourvec_pair_mass2(x));
  } else if (op >= 0 && op <= 7) {
    double a[4], b[4];
    if (op < 4) {
      jgk_fourvec_to_cartesian(x[0], x[1], x[2], x[3], a);
    } else {
      a[0] = x[0];
      a[1] = x[1];
      a[2] = x[2];
      a[3] = x[3];
    }
    jgk_fourvec_to_cartesian(x[4], x[5], x[6], x[7], b);
    const double px = a[0] + b[0], py = a[1] + b[1], pz = a[2] + b[2], e = a[3] + b[3];
    const double pt = sqrt(px * px + py * py);
    const double m2 = e * e - (px * px + py * py + pz * pz);
    /* two (pt, eta, phi, mass) vectors: the cancellation-free form */
    const double mass = op < 4 ? sqrt(jgk_fourvec_pair_mass2(x)) : copysign(sqrt(fabs(m2)), m2);
    switch (op % 4) {
      case 0:
        o[0] = pt;
        o[1] = pt == 0.0 ? 0.0 : asinh(pz / pt);
        o[2] = atan2(py, px);
        o[3] = mass;
        break;
      case 1:
        o[0] = px;
        o[1] = py;
        o[2] = pz;
        o[3] = e;
        break;
      case 2:
        o[0] = mass;
        break;
      default:
        o[0] = pt;
        break;
    }
  } else if (op == 8) {
    o[0] = jgk_fourvec_delta_phi(x[0], x[1]);
  } else if (op == 9) {
    const double de = x[0] - x[2], dp = jgk_fourvec_delta_phi(x[1], x[3]);
    o[0] = sqrt(de * de + dp * dp);
  } else if (op == 10) {
    const double dp = jgk_fourvec_delta_phi(x[1], x[3]);
    o[0] = 2.0 * sqrt(x[0] * x[2]) * fabs(sin(0.5 * dp));
  } else {
    o[0] = NAN;
  }
}

#endif /* JGK_FOURVEC_MATH_H */
