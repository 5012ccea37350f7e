#pragma once
// Equilibrium pieces of the disk-galaxy models (sim/scenes/galaxy.cpp, issue 24):
//
// - spherical Hernquist (1990) components with a smooth exponential taper beyond their cut
//   radius (Kazantzidis, Magorrian & Moore 2004, ApJ 601, 37), whose distribution functions stay
//   positive where a sharp truncation would make them negative near the edge;
// - isotropic distribution functions of such a density in a given total potential by Eddington's
//   (1916) inversion (Binney & Tremaine 2008, eq. 4.46b), tabulated and sampled by rejection;
// - the vertical Jeans equation of a sech² disk in the total potential: the disk's own
//   (Plummer-softened) slab and the spherical components' pull.
//
// Internal to the scene generators (not part of sim/core/scene.hpp); the tests check them directly.

#include <vector>

#include "sim/scenes/common.hpp"

namespace nbody::scenes {

/// Log-spaced radial grid; at() interpolates a table on it linearly in log r (clamped at the ends).
class RadialTable {
 public:
  RadialTable(double rmin, double rmax, int n);
  const std::vector<double>& r() const { return r_; }
  double at(const std::vector<double>& y, double r) const;

 private:
  double lmin_, lmax_;
  std::vector<double> r_;
};

/// A Hernquist sphere (scale a) of total mass `mass`: ρ ∝ 1 / (r (r + a)³) inside `cut`,
/// beyond it ρ(cut) (r / cut)^β exp(-(r - cut) / r_d) with r_d = 0.1 cut and β such that the
/// logarithmic slope is continuous at the cut (Kazantzidis et al. 2004, eq. 2). Enclosed mass and
/// the inverse cumulative mass are tabulated on `tab`, which must reach ~2.5 cut.
class TaperedHernquist {
 public:
  TaperedHernquist(double mass, double a, double cut, const RadialTable& tab);
  double density(double r) const;
  double enclosed(double r) const;
  /// A radius from the cumulative mass (inverse by interpolation of the table).
  double sample_radius(Rng& rng) const;
  double mass() const { return mass_; }

 private:
  double shape(double r) const;  // unnormalised density
  const RadialTable* tab_;
  double mass_, a_, cut_, decay_, beta_, norm_ = 1;
  std::vector<double> menc_;  // on tab_->r()
};

/// Isotropic distribution function f(E) of a spherical density ρ(r) in a relative potential
/// Ψ(r) = -Φ(r) (> 0, decreasing outwards), both tabulated on the same radii:
/// f(E) = 1/(√8 π²) d/dE ∫_0^E dρ/dΨ dΨ / √(E - Ψ) (Eddington 1916; Binney & Tremaine 2008,
/// eq. 4.46a), the integral taken with Ψ = E - u² (no singularity), f set to 0 where the
/// numerical inversion gives a negative value.
class EddingtonDf {
 public:
  EddingtonDf(const std::vector<double>& r, const std::vector<double>& rho,
              const std::vector<double>& psi);
  /// f at relative energy E = Ψ - v²/2 (0 for E <= 0).
  double f(double e) const;
  /// Density the DF gives at relative potential ψ: 4π ∫_0^√(2ψ) f(ψ - v²/2) v² dv.
  double density_at(double psi) const;
  /// A speed drawn from v² f(ψ - v²/2) on [0, √(2ψ)] by rejection.
  double sample_speed(double psi, Rng& rng) const;
  /// Fraction of the tabulated energies where the inversion came out negative (set to 0).
  double negative_fraction() const { return negative_; }

 private:
  std::vector<double> e_, f_;  // ascending energies and f there
  double negative_ = 0;
};

/// Relative particle masses of a multi-mass sphere, rising with the orbital energy: a sphere
/// sampled with number density ∝ f(E) / factor(E) in phase space and particle masses ∝ factor(E)
/// keeps its mass density f(E), so it stays in equilibrium (E is an integral of motion), while
/// the tightly bound particles, which never leave the centre, are lighter and more numerous
/// (the multi-mass technique of Zemp, Moore, Stadel, Carollo & Madau 2008, MNRAS 386, 1543, who
/// weight by the orbit's pericentre; here by E alone, an integral of any static potential).
/// The energy's measure is the outermost radius an orbit of energy E can reach,
/// r_max(E) = Ψ⁻¹(E): factor 1 for r_max <= r_light, `ratio` for r_max >= r_heavy, a power law
/// of r_max between.
class EnergyMassFactor {
 public:
  /// `psi` tabulated on `tab` (positive, decreasing outwards); ratio >= 1, r_heavy > r_light > 0
  EnergyMassFactor(double ratio, double r_light, double r_heavy, const RadialTable& tab,
                   const std::vector<double>& psi);
  /// r where Ψ(r) = e (the table's first radius above Ψ(0), Keplerian beyond its last)
  double max_radius(double e) const;
  /// relative mass at relative energy e, in [1, ratio]
  double factor(double e) const;
  double ratio() const { return ratio_; }

 private:
  double ratio_, r_light_, r_heavy_;
  const RadialTable* tab_;
  std::vector<double> psi_;
};

/// The vertical structure of a sech²(z / z0) disk with Plummer softening ε: dimensionless
/// tables of the slab's own vertical pull and of its Jeans integral, so that a column of surface
/// density Σ has σ_z²(z) = 2π G Σ z0 slab_dispersion(z) from its own gravity (πGΣz0 at every z
/// when ε = 0: the isothermal sheet, Spitzer 1942).
class SechSquaredSlab {
 public:
  SechSquaredSlab(double z0, double eps);
  /// The slab's vertical pull over 2πGΣ at height z (tanh(z/z0) when ε = 0).
  double pull(double z) const;
  /// (1 / sech²(z/z0)) ∫_z^∞ sech²(z'/z0) pull(z') dz' / z0 (1/2 when ε = 0).
  double slab_dispersion(double z) const;
  double z0() const { return z0_; }

 private:
  double z0_, dz_;
  std::vector<double> pull_, disp_;
};

/// σ_z² at height z (|z| used) of a sech²(z/z0) disk column in an external spherical field whose
/// vertical pull at (R, z') is `pull(R, z')`: (1 / sech²) ∫_|z|^∞ sech² pull dz' (vertical Jeans
/// equation, Binney & Tremaine 2008 eq. 4.222 without the radial term).
template <class Pull>
double external_vertical_dispersion(double R, double z, double z0, const Pull& pull) {
  constexpr int kSteps = 48;
  const double a = std::fabs(z), span = 8 * z0, h = span / kSteps;
  const double ca = std::cosh(a / z0), w0 = 1.0 / (ca * ca);
  double s = 0;
  for (int k = 0; k < kSteps; ++k) {
    const double zz = a + (k + 0.5) * h, c = std::cosh(zz / z0);
    s += pull(R, zz) / (c * c);
  }
  return s * h / w0;
}

}  // namespace nbody::scenes
