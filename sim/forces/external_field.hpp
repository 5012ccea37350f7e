#pragma once
// Rigid (analytic) dark halos: an external field that every kernel adds in one place.
//
// A rigid halo is a spherical mass of fixed shape (Hernquist 1990 or NFW 1996, truncated at a
// cut radius and a point mass beyond it) whose centre is carried by a massless "anchor" body.
// The anchor is integrated like any body, so the halo moves with its galaxy. Each body feels
// the field of every halo; each halo feels the equal and opposite reaction of the massive bodies
// and the other halos (the halo-halo force uses the mean of the two shapes, so it is antisymmetric
// and derives from a potential): momentum and energy are conserved as in the direct sum.
//
// The field is not softened: both profiles give a finite acceleration at the centre. It is
// computed in double on every backend. halo_field() is the one function of the bodies' part,
// called by the CPU base (sim/forces/external_field_host.hpp, for every CPU kernel and the double
// reference) and the CUDA base (sim/cuda/device_store.cu, for every GPU kernel) alike, after the
// kernel's own forces; anchor_accel() is the halos' part.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/hd.hpp"

namespace nbody {

enum class HaloProfile : std::uint8_t {
  Hernquist = 0,  ///< rho ∝ 1 / (r (r + a)^3) (Hernquist 1990, ApJ 356, 359)
  Nfw = 1,        ///< rho ∝ 1 / (r (r + a)^2) (Navarro, Frenk & White 1996, ApJ 462, 563)
};
const char* halo_profile_name(HaloProfile p);
/// "hernquist" or "nfw"; throws nbody::Error naming `what` otherwise.
HaloProfile parse_halo_profile(const std::string& s, const std::string& what = "halo profile");

/// One rigid halo of a set of bodies (Bodies::halos).
struct RigidHalo {
  HaloProfile profile = HaloProfile::Hernquist;
  double mass = 0;           ///< the halo's whole mass, all inside `cut` (> 0)
  double scale = 1;          ///< scale radius a (> 0)
  double cut = 10;           ///< truncation radius (> 0): a point mass beyond it
  std::uint32_t anchor = 0;  ///< index (user order) of the massless body carrying the centre
};

/// Most rigid halos one set of bodies may have.
inline constexpr int kMaxRigidHalos = 4;

/// The shape of one halo with its constants: enclosed-mass fraction and potential per G M.
struct HaloShape {
  int profile = 0;  ///< HaloProfile
  double a = 1, cut = 1;
  double k = 1;   ///< Hernquist: (cut + a)² / cut²; NFW: 1 / m(cut / a)
  double c0 = 0;  ///< potential constant inside the cut (continuity at the cut)
};

/// Every rigid halo of a set of bodies as the kernels take it (by value).
struct ExternalField {
  int count = 0;
  HaloShape shape[kMaxRigidHalos];
  double gm[kMaxRigidHalos] = {};    ///< G M of each halo
  double mass[kMaxRigidHalos] = {};  ///< M of each halo
};

/// The field of `halos` with gravitational constant G (checks nothing: see validate_halos()).
ExternalField make_external_field(const std::vector<RigidHalo>& halos, double G);
/// Throws nbody::Error naming `source` when a halo is invalid for bodies of size n: mass, scale
/// or cut not finite and positive, anchor out of range, anchor with mass, two halos on one
/// anchor, or more than kMaxRigidHalos.
void validate_halos(const std::vector<RigidHalo>& halos, const std::vector<double>& masses,
                    const std::string& source);

/// Fraction of the halo's mass inside radius r (r >= 0).
NBODY_HD inline double halo_fraction(const HaloShape& s, double r) {
  if (r >= s.cut) return 1.0;
  if (s.profile == static_cast<int>(HaloProfile::Hernquist)) {
    const double q = r / (r + s.a);
    return s.k * q * q;
  }
  const double x = r / s.a;
  return s.k * (log1p(x) - x / (1.0 + x));
}

/// Potential per G M at radius r (negative; -1/r beyond the cut).
NBODY_HD inline double halo_potential(const HaloShape& s, double r) {
  if (r >= s.cut) return -1.0 / r;
  if (s.profile == static_cast<int>(HaloProfile::Hernquist)) return -s.k / (r + s.a) + s.c0;
  if (r <= 0) return -s.k / s.a + s.c0;  // the limit of ln(1 + r/a) / r
  return -s.k * log1p(r / s.a) / r + s.c0;
}

/// THE external field: adds the acceleration of a halo (G M = gm) at offset (dx, dy, dz) from its
/// centre, -G M f(r) / r³ d, where f is the enclosed fraction (0 at the centre itself). Every
/// body that is not an anchor gets this of every halo, on the CPU and the GPU alike.
NBODY_HD inline void halo_field(const HaloShape& s, double gm, double dx, double dy, double dz,
                                double& ax, double& ay, double& az) {
  const double r2 = dx * dx + dy * dy + dz * dz;
  if (!(r2 > 0)) return;
  const double r = sqrt(r2);
  const double g = gm * halo_fraction(s, r) / (r2 * r);
  ax -= g * dx;
  ay -= g * dy;
  az -= g * dz;
}

/// The acceleration of halo h's anchor: the reaction of the massive bodies, given as
/// R = Σ m_i a_i (the sum over bodies of mass times the acceleration halo h gave them), and the
/// other halos' pull with the mean shape of each pair.
NBODY_HD inline void anchor_accel(const ExternalField& f, int h, const double* cx, const double* cy,
                                  const double* cz, double rx, double ry, double rz, double& ax,
                                  double& ay, double& az) {
  ax = -rx / f.mass[h];
  ay = -ry / f.mass[h];
  az = -rz / f.mass[h];
  for (int j = 0; j < f.count; ++j) {
    if (j == h) continue;
    const double dx = cx[h] - cx[j], dy = cy[h] - cy[j], dz = cz[h] - cz[j];
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (!(r2 > 0)) continue;
    const double r = sqrt(r2);
    const double frac = 0.5 * (halo_fraction(f.shape[j], r) + halo_fraction(f.shape[h], r));
    const double g = f.gm[j] * frac / (r2 * r);
    ax -= g * dx;
    ay -= g * dy;
    az -= g * dz;
  }
}

/// Energy terms of the halos of a set of bodies: their kinetic energy Σ ½ M V² (from the anchors'
/// velocities), the bodies' potential energy in their field and the halo pairs' energy; and the
/// halos' part of the Clausius virial Σ (x - x_h)·F (the force of each halo on each massive body
/// and between halos, about the halo's centre). For a point mass the virial equals the potential
/// energy; for an extended halo it does not (a truncated halo's potential has a constant inside
/// the cut that no force feels), so the virial ratio 2K/|W| takes the virial.
struct ExternalEnergy {
  double kinetic = 0, potential = 0, virial = 0;
};
struct Bodies;
ExternalEnergy external_energy(const Bodies& b, double G);

/// Circular speed of a halo alone at radius r: sqrt(G M f(r) / r).
double halo_circular_speed(const RigidHalo& h, double G, double r);

}  // namespace nbody
