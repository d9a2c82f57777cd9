/* fourvec_cuda.cu: CUDA implementation of kernel "fourvec" (fourvec.json): one thread per
 * element, grid-stride, the formulas of fourvec_math.h (the host side's) written again for the
 * device. CUDA's double-precision sin, cos, sinh, asinh and atan2 may differ from the host's
 * libm by an ulp or two, and nvcc may contract a * b + c into a fused multiply-add, so results
 * agree with the host within the spec's parity_rtol rather than bit for bit. */

__device__ inline int fv_inputs(int64_t op) {
  return op >= 0 && op <= 7 ? 8 : op == 8 ? 2 : op == 9 || op == 10 ? 4 : 0;
}

__device__ inline int fv_outputs(int64_t op) {
  return op >= 0 && op <= 7 && (op % 4 == 0 || op % 4 == 1) ? 4 : 1;
}

__device__ inline void fv_to_cartesian(double pt, double eta, double phi, double m, double *c) {
  c[0] = pt * cos(phi);
  c[1] = pt * sin(phi);
  c[2] = pt * sinh(eta);
  c[3] = sqrt(pt * pt + c[2] * c[2] + m * m);
}

__device__ inline double fv_delta_phi(double a, double b) {
  return remainder(a - b, 6.283185307179586476925286766559);
}

/* The squared mass of the sum of two (pt, eta, phi, mass) vectors x[0..4) and x[4..8), as
 * m1^2 + m2^2 + 2 (E1 E2 - p1.p2) with E1 E2 - p1.p2 = mT1 mT2 cosh(dy) - pt1 pt2 cos(dphi)
 * (y the rapidity, mT = sqrt(pt^2 + m^2)) written as a sum of terms that are never negative:
 * (m1^2 pt2^2 + m2^2 pt1^2 + m1^2 m2^2) / (mT1 mT2 + pt1 pt2) + 2 mT1 mT2 sinh^2(dy / 2) +
 * 2 pt1 pt2 sin^2(dphi / 2). E^2 - p^2 of the summed components cancels catastrophically for
 * light, collinear pairs (host and GPU then disagree in the leading digits); this form does not. */
__device__ inline double fv_pair_mass2(const double *x) {
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

__device__ inline void fv_one(int64_t op, const double *x, double *o) {
  if (op == 2) {
    /* the mass of two (pt, eta, phi, mass) vectors needs no Cartesian components */
    o[0] = sqrt(fv_pair_mass2(x));
  } else if (op >= 0 && op <= 7) {
    double a[4], b[4];
    if (op < 4) {
      fv_to_cartesian(x[0], x[1], x[2], x[3], a);
    } else {
      a[0] = x[0];
      a[1] = x[1];
      a[2] = x[2];
      a[3] = x[3];
    }
    fv_to_cartesian(x[4], x[5], x[6], x[7], b);
    const double px = a[0] + b[0], py = a[1] + b[1], pz = a[2] + b[2], e = a[3] + b[3];
    const double pt = sqrt(px * px + py * py);
    const double m2 = e * e - (px * px + py * py + pz * pz);
    /* two (pt, eta, phi, mass) vectors: the cancellation-free form */
    const double mass = op < 4 ? sqrt(fv_pair_mass2(x)) : copysign(sqrt(fabs(m2)), m2);
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
    o[0] = fv_delta_phi(x[0], x[1]);
  } else if (op == 9) {
    const double de = x[0] - x[2], dp = fv_delta_phi(x[1], x[3]);
    o[0] = sqrt(de * de + dp * dp);
  } else if (op == 10) {
    const double dp = fv_delta_phi(x[1], x[3]);
    o[0] = 2.0 * sqrt(x[0] * x[2]) * fabs(sin(0.5 * dp));
  } else {
    o[0] = __longlong_as_double(0x7ff8000000000000LL); /* NaN */
  }
}

template <typename T, typename R>
__global__ void jgk_fourvec(int64_t n, int64_t op, int64_t full, const T *__restrict__ x0,
                            const T *__restrict__ x1, const T *__restrict__ x2,
                            const T *__restrict__ x3, const T *__restrict__ x4,
                            const T *__restrict__ x5, const T *__restrict__ x6,
                            const T *__restrict__ x7, R *__restrict__ o0, R *__restrict__ o1,
                            R *__restrict__ o2, R *__restrict__ o3) {
  const T *const x[8] = {x0, x1, x2, x3, x4, x5, x6, x7};
  const int nin = fv_inputs(op), nout = fv_outputs(op);
  JGK_FOR(i, n) {
    double in[8], o[4];
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      if (k < nin) in[k] = (double)x[k][((full >> k) & 1) != 0 ? i : 0];
    }
    fv_one(op, in, o);
    o0[i] = (R)o[0];
    if (nout == 4) {
      o1[i] = (R)o[1];
      o2[i] = (R)o[2];
      o3[i] = (R)o[3];
    }
  }
}
