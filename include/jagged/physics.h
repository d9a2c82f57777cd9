/* physics.h: four-vector helpers for columnar particle-physics analyses: sums of two or three
 * four-vectors, the invariant mass and the pt of a sum, deltaPhi, deltaR and the transverse
 * mass, on arrays of records with fields "pt", "eta", "phi" and "mass" (NanoAOD's names),
 * jagged or flat, on the host or the GPU.
 *
 * Inputs: each argument is an array whose records (the first record node met from the top,
 * through lists, regular lists and options, as jg_array_field finds it) have the fields an
 * operation reads; other fields are ignored; the fields' values may be of any numeric dtype
 * (float32 and float64 are read as they are, others are converted to float64 first). The
 * arguments are broadcast against each other through their jagged structure (Awkward's rules,
 * as the ufuncs: e.g. a per-event MET record against jagged leptons repeats the MET across each
 * event's leptons; the two halves of pairs made by combinations, jg_array_field(pairs, "0") and
 * "1", line up elementwise); None propagates.
 *
 * Conventions (those of the ADL benchmarks' coffea and `vector` implementations): px = pt
 * cos(phi), py = pt sin(phi), pz = pt sinh(eta), E = sqrt(pt^2 + pz^2 + mass^2) (a massless
 * particle has mass 0); a sum adds px, py, pz and E; back from Cartesian: pt = sqrt(px^2 + py^2),
 * eta = asinh(pz / pt), and eta = 0 when pt is 0 (a sum along the beam), phi = atan2(py, px) in
 * [-pi, pi]; the mass of a sum of two vectors is sqrt(m1^2 + m2^2 + 2 (E1 E2 - p1.p2)) with
 * E1 E2 - p1.p2 written as a sum of non-negative terms of the rapidity and azimuth differences
 * (mT1 mT2 cosh(dy) - pt1 pt2 cos(dphi), expanded), so light collinear pairs keep their digits;
 * of a sum of three, sqrt(E^2 - p^2), negative (-sqrt(p^2 - E^2)) when rounding makes the sum
 * slightly space-like. deltaPhi = phi1 - phi2 wrapped into [-pi, pi] (IEEE remainder by 2 pi);
 * deltaR = sqrt(deltaEta^2 + deltaPhi^2); transverse mass mT = sqrt(2 pt1 pt2 (1 - cos(dphi))),
 * computed as 2 sqrt(pt1 pt2) |sin(dphi / 2)| (equal, without the cancellation of 1 - cos at
 * small angles). Everything is computed in double precision; the result is float64 unless the
 * options ask for float32 (rounded once, at the end).
 *
 * Host and GPU: the same formulas (the catalog kernel `fourvec`, src/kernels/fourvec/). The
 * GPU's sin, cos, sinh, asinh and atan2 may differ from the host's libm by an ulp or two and
 * nvcc may fuse multiply-adds, so results agree within a relative 1e-9 or so in float64 (more
 * where the formula cancels, e.g. the mass of two nearly collinear massless particles), and
 * within an ulp in float32. */
#ifndef JAGGED_PHYSICS_H
#define JAGGED_PHYSICS_H

#include "jagged/array.h"
#include "jagged/export.h"
#include "jagged/status.h"
#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Options of the four-vector operations; zero-initialise (all defaults), then set what
 *  differs. */
typedef struct jg_fourvec_options {
  jg_dtype dtype;   /**< result dtype: JG_DTYPE_FLOAT64 (or 0, the default) or JG_DTYPE_FLOAT32 */
  jg_stream stream; /**< CUDA stream for device arrays (NULL: the legacy default stream) */
} jg_fourvec_options;

/** The sum of `n` (2 or 3) four-vectors: v[k] are arrays of records with numeric fields "pt",
 *  "eta", "phi", "mass", broadcast against each other. `*out` is a new reference: records with
 *  fields pt, eta, phi, mass (in this order; float64, or float32 by option) inside the broadcast
 *  structure (the deepest argument's lists, None where any argument is None), on the arguments'
 *  backend; NULL on error. A sum of three adds the third vector to the Cartesian sum of the first
 *  two (kept in float64 between the two steps). Like `v1 + v2` of coffea's PtEtaPhiMLorentzVector
 *  (vector's momentum records).
 *  `opt` may be NULL. Kernels run on opt->stream; the call synchronises it before returning.
 *  Errors: JG_EINVAL for NULL v/out or a NULL v[k] (index = k), n outside {2, 3}, an option dtype
 *  other than float32/float64, an argument without records ("v[1] is not an array of records")
 *  or without one of the fields ("v[0] has no field 'mass' (its fields: pt, eta, phi)");
 *  JG_EBACKEND for arguments on different backends (names the fixing call); JG_ESHAPE when the
 *  structures do not broadcast (the list index and both lengths); JG_ENOTSUP for field values
 *  that are themselves records or numeric data of ndim > 1; JG_EDTYPE for float16 fields;
 *  JG_ENODEV / JG_ECUDA / JG_EDEVMEM for device arrays; JG_ENOMEM. Thread-safe. */
JG_API jg_status jg_fourvec_sum(int n, const jg_array *const *v, const jg_fourvec_options *opt,
                                jg_array **out, jg_error *err);

/** The invariant mass of the sum of `n` (2 or 3) four-vectors, (v1 + v2 [+ v3]).mass: a numeric
 *  array (float64, or float32 by option) with the broadcast structure. Arguments, options and
 *  errors as jg_fourvec_sum. */
JG_API jg_status jg_fourvec_mass(int n, const jg_array *const *v, const jg_fourvec_options *opt,
                                 jg_array **out, jg_error *err);

/** The transverse momentum of the sum of `n` (2 or 3) four-vectors, (v1 + v2 [+ v3]).pt: a
 *  numeric array with the broadcast structure. Arguments, options and errors as
 *  jg_fourvec_sum. */
JG_API jg_status jg_fourvec_pt(int n, const jg_array *const *v, const jg_fourvec_options *opt,
                               jg_array **out, jg_error *err);

/** deltaPhi = a.phi - b.phi wrapped into [-pi, pi] (coffea's delta_phi): `a` and `b` are arrays
 *  of records with a numeric field "phi", broadcast against each other; the result is a numeric
 *  array with the broadcast structure. Errors as jg_fourvec_sum (JG_EINVAL for NULL a or b,
 *  index 0 or 1; fields named as "a" and "b"). */
JG_API jg_status jg_fourvec_delta_phi(const jg_array *a, const jg_array *b,
                                      const jg_fourvec_options *opt, jg_array **out, jg_error *err);

/** deltaR = sqrt((a.eta - b.eta)^2 + deltaPhi(a, b)^2) (coffea's delta_r), over records with
 *  fields "eta" and "phi". Otherwise as jg_fourvec_delta_phi. */
JG_API jg_status jg_fourvec_delta_r(const jg_array *a, const jg_array *b,
                                    const jg_fourvec_options *opt, jg_array **out, jg_error *err);

/** The transverse mass sqrt(2 a.pt b.pt (1 - cos(a.phi - b.phi))) of two objects with fields
 *  "pt" and "phi", typically a lepton and the missing transverse momentum (MET): e.g. jagged
 *  leptons against one MET record per event. Otherwise as jg_fourvec_delta_phi. */
JG_API jg_status jg_fourvec_mt(const jg_array *a, const jg_array *b, const jg_fourvec_options *opt,
                               jg_array **out, jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_PHYSICS_H */
