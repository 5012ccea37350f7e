// Disk galaxies in galactic units (kpc, km/s, 1e10 Msun; G ~ 43009, time unit ~ 0.978 Gyr):
// an exponential stellar disk with a sech^2 vertical profile, a Hernquist bulge and a live (or
// rigid) Hernquist dark halo, both spheres tapered smoothly beyond their cut. Halo and bulge
// velocities come from their Eddington distribution functions in the total potential
// (sim/scenes/galaxy_df.hpp); the disk rotates on the rotation curve measured from the placed
// bodies minus the asymmetric drift, with radial dispersion from Toomre's Q (Hernquist 1993,
// ApJS 86, 389), phase-mixed along its planar orbits, and sigma_z from the vertical Jeans
// equation in the total potential (docs/GALAXIES.md, issue 24).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/scenes/common.hpp"
#include "sim/scenes/galaxy_df.hpp"

namespace nbody::scenes {

namespace {

// structural parameters of one galaxy (lengths kpc, masses 1e10 Msun)
struct GalaxyModel {
  double disk_mass = 4, disk_scale = 2.5, disk_height = 0.25, disk_cut = 6;  // cut in scales
  double bulge_mass = 0.8, bulge_scale = 0.5, bulge_cut = 6;                 // cut in kpc
  double halo_mass = 20, halo_scale = 10, halo_cut = 30;  // masses within the cut-offs
  double toomre_q = 1.5;
  /// 0: live halo of particles; 1: rigid Hernquist halo; 2: rigid NFW halo (same mass and cut,
  /// NFW scale = Hernquist scale / 2, which gives a similar inner rotation curve)
  int halo = 0;
  /// rigid halo only: the disk and bulge stars are massless tracers moving in the halo alone
  bool massless = false;
  /// live halo only: heaviest / lightest halo particle, masses rising with orbital energy
  /// (EnergyMassFactor: light inside the disk's cut, heavy beyond the halo's); 1: equal masses
  double halo_mass_ratio = 1;
  /// live halo only: a disk or bulge particle's mass over the equal-mass one, total / N
  double star_mass = 1;
  bool rigid() const { return halo != 0; }
  /// the rigid halo of this model centred on body `anchor`
  RigidHalo rigid_halo(std::uint32_t anchor) const {
    RigidHalo r;
    r.profile = halo == 2 ? HaloProfile::Nfw : HaloProfile::Hernquist;
    r.mass = halo_mass;
    r.scale = halo == 2 ? 0.5 * halo_scale : halo_scale;
    r.cut = halo_cut;
    r.anchor = anchor;
    return r;
  }
  /// scales masses by `f` and lengths by f^(1/3) (same mean density and dynamical time)
  GalaxyModel scaled(double f) const {
    GalaxyModel g = *this;
    const double l = std::cbrt(f);
    g.disk_mass *= f;
    g.bulge_mass *= f;
    g.halo_mass *= f;
    g.disk_scale *= l;
    g.disk_height *= l;
    g.bulge_scale *= l;
    g.bulge_cut *= l;
    g.halo_scale *= l;
    g.halo_cut *= l;
    return g;
  }
  double total_mass() const { return disk_mass + bulge_mass + halo_mass; }
};

// counts and particle masses of one galaxy's components
struct GalaxyCounts {
  std::size_t disk = 0, bulge = 0, halo = 0;
  double disk_mass = 0, bulge_mass = 0, halo_mass = 0;  // of one particle (the halo's mean)
  double halo_ratio = 1;                                // heaviest / lightest halo particle
};

// Every particle of a galaxy has the same mass, disk, bulge and halo alike; the counts follow
// from the component masses (the default model: 16 % disk, 3 % bulge, 81 % halo). Measured in
// docs/GALAXIES.md (1 Gyr of the isolated disk): at N = 16384 the former fixed shares 50/10/40 %
// (halo particles 6x as heavy as the disk's) thickened the disk 2.64x, halo particles 3x the
// disk's 2.50x, equal masses 2.43x, with v/sigma 3.9, 4.35 and 4.25; at N = 65536 the former
// shares and equal masses end within the scatter of a run (1.61x and 1.57x). Equal masses also
// leave no heavy species to heat the light ones towards equipartition. The rounding remainder
// goes to the halo (to the disk when there is no halo). With a live halo, star_mass != 1 makes
// the disk and bulge particles that fraction of the equal mass (more of them for < 1) and the
// halo takes the rest of the N (docs/GALAXIES.md, "A multi-mass live halo").
// With a rigid halo one body is the halo's centre (massless) and the other n - 1 are stars.
GalaxyCounts galaxy_counts(GalaxyModel g, std::size_t n) {
  GalaxyCounts c;
  const bool massless = g.rigid() && g.massless;
  if (g.rigid()) {
    if (n < 3) fail("disk galaxy: N = ", n, " is too small for a rigid halo and its stars");
    g.halo_mass = 0;
    --n;
  }
  const double m = g.total_mass() / static_cast<double>(n) * (g.rigid() ? 1.0 : g.star_mass);
  c.bulge = static_cast<std::size_t>(std::llround(g.bulge_mass / m));
  if (g.halo_mass > 0) {
    c.disk = static_cast<std::size_t>(std::llround(g.disk_mass / m));
    if (c.disk + c.bulge >= n)
      fail("disk galaxy: parameter 'star_mass' (", g.star_mass,
           ") leaves no halo particles at N = ", n);
    c.halo = n - c.disk - c.bulge;
  } else {
    c.disk = n - std::min(n, c.bulge);
  }
  if (c.disk < 1 || (g.bulge_mass > 0 && c.bulge < 1) || (g.halo_mass > 0 && c.halo < 1) ||
      c.disk + c.bulge + c.halo != n)
    fail("disk galaxy: N = ", n, " is too small for its components");
  c.disk_mass = g.disk_mass / static_cast<double>(c.disk);
  c.bulge_mass = c.bulge ? g.bulge_mass / static_cast<double>(c.bulge) : 0;
  c.halo_mass = c.halo ? g.halo_mass / static_cast<double>(c.halo) : 0;
  c.halo_ratio = c.halo ? g.halo_mass_ratio : 1;
  if (massless) c.disk_mass = c.bulge_mass = 0;
  return c;
}

// the components with bodies of one or more galaxies' counts, masses summed over the galaxies
std::vector<ComponentParticles> particles_of(const std::vector<GalaxyCounts>& gs) {
  std::vector<ComponentParticles> out;
  const auto add = [&](Component comp, std::size_t GalaxyCounts::*count,
                       double GalaxyCounts::*mass) {
    std::size_t n = 0;
    double m = 0;
    for (const GalaxyCounts& c : gs) {
      n += c.*count;
      m += static_cast<double>(c.*count) * c.*mass;
    }
    if (n > 0) out.push_back({comp, n, m / static_cast<double>(n)});
    if (n > 0 && comp == Component::Dark)
      for (const GalaxyCounts& c : gs)
        out.back().mass_ratio = std::max(out.back().mass_ratio, c.halo_ratio);
  };
  add(Component::Disk, &GalaxyCounts::disk, &GalaxyCounts::disk_mass);
  add(Component::Bulge, &GalaxyCounts::bulge, &GalaxyCounts::bulge_mass);
  add(Component::Dark, &GalaxyCounts::halo, &GalaxyCounts::halo_mass);
  return out;
}

// modified bessel functions by quadrature (smooth periodic / decaying integrands: trapezoid
// rules converge fast): I_n(x) = 1/pi int_0^pi e^{x cos t} cos(n t) dt,
// K_n(x) = int_0^inf e^{-x cosh t} cosh(n t) dt
double bessel_i(int n, double x) {
  constexpr int kSteps = 256;
  double s = 0;
  for (int k = 0; k <= kSteps; ++k) {
    const double t = kPi * k / kSteps;
    const double w = (k == 0 || k == kSteps) ? 0.5 : 1.0;
    s += w * std::exp(x * std::cos(t)) * std::cos(n * t);
  }
  return s / kSteps;
}
double bessel_k(int n, double x) {
  constexpr int kSteps = 512;
  const double tmax = std::acosh(std::max(1.0, 60.0 / x)) + 1.0, h = tmax / kSteps;
  double s = 0;
  for (int k = 0; k <= kSteps; ++k) {
    const double t = h * k;
    const double w = (k == 0 || k == kSteps) ? 0.5 : 1.0;
    s += w * std::exp(-x * std::cosh(t)) * std::cosh(n * t);
  }
  return s * h;
}

// the spherically averaged model of one galaxy: the live spheres (tapered Hernquist profiles),
// the rigid halo's field, and tables of the relative potential of the softened spherical
// average (the disk counted as the mass inside a cylinder), the disk's midplane circular speed
// and epicyclic frequency
struct GalaxyTables {
  GalaxyTables(const GalaxyModel& model, double grav, double softening);
  const GalaxyModel& g;
  double G, eps, self, sigma0, disk_norm;
  RadialTable tab;
  TaperedHernquist bulge, halo;  // halo of mass 0 when rigid
  ExternalField field;
  std::vector<double> psi, vc2, kappa2;

  // the rigid halo's mass inside r (0 for a live halo)
  double rigid_enclosed(double r) const {
    return g.rigid() ? g.halo_mass * halo_fraction(field.shape[0], r) : 0.0;
  }
  // the disk's mass inside a cylinder of radius r
  double disk_enclosed(double r) const {
    const double x = std::min(r / g.disk_scale, g.disk_cut);
    return g.disk_mass * (1.0 - (1.0 + x) * std::exp(-x)) / disk_norm;
  }
  // outward spherical gravity at r: the softened live bodies and the unsoftened rigid halo
  double gravity(double r) const {
    const double live = self * (disk_enclosed(r) + bulge.enclosed(r)) + halo.enclosed(r);
    return G * live * r / std::pow(r * r + eps * eps, 1.5) + G * rigid_enclosed(r) / (r * r);
  }
  // the vertical pull of bulge and halo at (R, z), as the kernels apply it
  double sphere_pull(double R, double z) const {
    const double r2 = R * R + z * z, r = std::sqrt(r2);
    const double live = self * bulge.enclosed(r) + halo.enclosed(r);
    return G * live * z / std::pow(r2 + eps * eps, 1.5) + G * rigid_enclosed(r) * z / (r2 * r);
  }
};

GalaxyTables::GalaxyTables(const GalaxyModel& model, double grav, double softening)
    : g(model),
      G(grav),
      eps(softening),
      self(model.rigid() && model.massless ? 0.0 : 1.0),
      sigma0(0),
      disk_norm(1.0 - (1.0 + model.disk_cut) * std::exp(-model.disk_cut)),
      tab(1e-3 * std::min(model.disk_scale, model.bulge_scale),
          2.5 * std::max({model.disk_cut * model.disk_scale, model.bulge_cut, model.halo_cut}),
          1500),
      bulge(model.bulge_mass, model.bulge_scale, model.bulge_cut, tab),
      halo(model.rigid() ? 0.0 : model.halo_mass, model.halo_scale, model.halo_cut, tab),
      field(make_external_field({model.rigid_halo(0)}, 1.0)) {
  const double h = g.disk_scale;
  sigma0 = g.disk_mass / disk_norm / (2 * kPi * h * h);
  const auto& r = tab.r();
  const std::size_t nt = r.size();
  psi.assign(nt, 0);
  vc2.assign(nt, 0);
  kappa2.assign(nt, 0);
  // relative potential: -phi at the edge of the table (all mass inside), then inwards
  const double mtot =
      self * (g.disk_mass + g.bulge_mass) + halo.mass() + (g.rigid() ? g.halo_mass : 0.0);
  psi[nt - 1] = G * mtot / r[nt - 1];
  for (std::size_t i = nt - 1; i-- > 0;)
    psi[i] = psi[i + 1] + 0.5 * (gravity(r[i]) + gravity(r[i + 1])) * (r[i + 1] - r[i]);
  // midplane circular speed: thin exponential disk (Freeman 1970) + spheres, the live bodies
  // softened (the rigid halo's field is not)
  for (std::size_t i = 0; i < nt; ++i) {
    const double y = r[i] / (2 * h), soft = std::pow(r[i] / std::hypot(r[i], eps), 3);
    double vd2 = 0;
    if (y < 40)
      vd2 = self * 4 * kPi * G * sigma0 * h * y * y *
            (bessel_i(0, y) * bessel_k(0, y) - bessel_i(1, y) * bessel_k(1, y));
    const double vs2 = G * (self * bulge.enclosed(r[i]) + halo.enclosed(r[i])) / r[i];
    vc2[i] = std::max(0.0, (vd2 + vs2) * soft + G * rigid_enclosed(r[i]) / r[i]);
  }
  // epicyclic frequency: kappa^2 = R d(Omega^2)/dR + 4 Omega^2
  for (std::size_t i = 0; i < nt; ++i) {
    const std::size_t a = i == 0 ? 0 : i - 1, b = i + 1 == nt ? i : i + 1;
    const double om2a = vc2[a] / (r[a] * r[a]), om2b = vc2[b] / (r[b] * r[b]);
    const double om2 = vc2[i] / (r[i] * r[i]);
    kappa2[i] = std::max(0.0, r[i] * (om2b - om2a) / (r[b] - r[a]) + 4 * om2);
  }
}

// the disk's positions: exponential in R (inverse cumulative by bisection), sech^2 in z (a
// gaussian layer of the same median |z| for massless tracers: 0.549 z0 for sech^2, 0.674 sigma
// for a gaussian); velocities come later (set_disk_velocities)
void add_disk(Bodies& b, const GalaxyTables& t, std::size_t count, double mass, Rng& rng) {
  const GalaxyModel& g = t.g;
  const double h = g.disk_scale, z0 = g.disk_height;
  for (std::size_t i = 0; i < count; ++i) {
    const double u = rng.uniform() * t.disk_norm;
    double lo = 0, hi = g.disk_cut;
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      ((1.0 - (1.0 + mid) * std::exp(-mid)) < u ? lo : hi) = mid;
    }
    const double R = 0.5 * (lo + hi) * h, ph = rng.uniform(0, 2 * kPi);
    const double z = t.self > 0 ? z0 * std::atanh(std::clamp(2 * rng.uniform() - 1, -0.999, 0.999))
                                : 0.8145 * z0 * rng.normal();
    b.add(R * std::cos(ph), R * std::sin(ph), z, 0, 0, 0, mass, Component::Disk);
  }
}

// The disk's rotation curve as the bodies will feel it: -R <a_R> of the placed bodies (a
// subsample of at most ~40,000, each standing for the bodies it skips) and the rigid halo, by
// direct softened summation on rings of 16 points spread over the disk's sech^2 layer, on t.tab's
// radii inside the disk (the model's v_c^2 beyond). The analytic curve (thin Freeman disk,
// spherical bulge and halo) misses the disk's thickness and the softening of its own gravity,
// and its few-percent excess set the disk expanding in its first ~20 Myr.
std::vector<double> measured_vc2(const Bodies& b, const GalaxyTables& t) {
  std::vector<std::size_t> massive;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.m[i] > 0) massive.push_back(i);
  const std::size_t stride = std::max<std::size_t>(1, (massive.size() + 39999) / 40000);
  const double rmax = t.g.disk_cut * t.g.disk_scale, eps2 = t.eps * t.eps, z0 = t.g.disk_height;
  const auto& r = t.tab.r();
  std::vector<double> vc2 = t.vc2;
  constexpr int kRing = 16;
  const long nr = static_cast<long>(r.size());
#pragma omp parallel for schedule(dynamic, 4)
  for (long k = 0; k < nr; ++k) {
    const double R = r[static_cast<std::size_t>(k)];
    if (R > rmax || R < 0.02 * t.g.disk_scale) continue;
    double sum = 0;
    for (int j = 0; j < kRing; ++j) {
      const double ph = 2 * kPi * (j + 0.5 * static_cast<double>(k % 2)) / kRing;
      const double q = (2.0 * (j + 0.5) / kRing - 1.0) * 0.96;
      const double z = t.self > 0 ? z0 * std::atanh(q) : 0.0;
      const double px = R * std::cos(ph), py = R * std::sin(ph);
      double ar = 0;
      for (std::size_t s = 0; s < massive.size(); s += stride) {
        const std::size_t i = massive[s];
        const double dx = b.x[i] - px, dy = b.y[i] - py, dz = b.z[i] - z;
        const double d2 = dx * dx + dy * dy + dz * dz + eps2;
        ar += b.m[i] * (dx * px + dy * py) / (R * d2 * std::sqrt(d2));
      }
      const double rr = std::hypot(R, z);
      sum += -t.G * static_cast<double>(stride) * ar * R +
             t.G * t.rigid_enclosed(rr) * R * R / (rr * rr * rr);
    }
    vc2[static_cast<std::size_t>(k)] = std::max(0.0, sum / kRing);
  }
  return vc2;
}

// one star's planar orbit R'' = L^2 / R^3 - v_c^2(R) / R in the measured rotation curve, followed
// for time T by leapfrog with steps of at most 1/64 of the epicyclic period where it started
// and 1/50 of the local crossing time R / |v| (orbits that plunge through the centre)
void follow_planar_orbit(const GalaxyTables& t, const std::vector<double>& vc2, double l, double T,
                         double& R, double& v) {
  const auto acc = [&](double r) { return l * l / (r * r * r) - t.tab.at(vc2, r) / r; };
  const double kappa = std::sqrt(std::max(t.tab.at(t.kappa2, R), 1e-30));
  const double hmax = 2 * kPi / (64 * kappa);
  double time = 0;
  for (int guard = 0; time < T && guard < 1000000; ++guard) {
    const double speed = std::sqrt(v * v + l * l / (R * R) + t.tab.at(vc2, R));
    const double h = std::min({T - time, hmax, 0.02 * R / std::max(speed, 1e-30)});
    v += 0.5 * h * acc(R);
    R += h * v;
    if (R < 1e-4) {  // through the centre: reflect
      R = std::max(1e-4, -R);
      v = std::fabs(v);
    }
    v += 0.5 * h * acc(R);
    time += h;
  }
}

// The disk's planar velocities (bodies [begin, end) of b, placed by add_disk) from the Jeans
// equations: sigma_R ~ exp(-R / 2h) set by Toomre's Q at 2.5 h, the mean rotation on the measured
// rotation curve with the asymmetric drift and sigma_phi from the epicyclic ratio (Hernquist
// 1993, ApJS 86, 389, sections 2.2-2.3). Then each star's planar orbit is followed in the
// measured potential for a random fraction of its epicyclic period: the gaussian velocities of
// the epicyclic approximation are no stationary state of a warm disk (sigma_R and sigma_phi both
// grew ~8 % in its first 20 Myr, the same at N = 8k and 131k and with the direct sum), and stars
// spread uniformly along their orbits are one (Jeans' theorem). Two passes: the second measures
// the rotation curve of the mixed disk and mixes again from the same draws.
void set_planar_velocities(Bodies& b, const GalaxyTables& t, std::size_t begin, std::size_t end,
                           Rng& rng) {
  const GalaxyModel& g = t.g;
  const double h = g.disk_scale, G = t.G;
  const double rref = 2.5 * h;  // sigma_R = s0 exp(-R / 2h), s0 set by Q at R = 2.5 h
  const double sigma_ref =
      g.toomre_q * 3.36 * G * t.sigma0 * std::exp(-rref / h) / std::sqrt(t.tab.at(t.kappa2, rref));
  const double s0 = sigma_ref * std::exp(rref / (2 * h));
  const std::size_t count = end - begin;
  std::vector<double> r0(count), n1(count), n2(count), u(count), rr(count), vr(count), lz(count);
  for (std::size_t k = 0; k < count; ++k) {
    r0[k] = std::hypot(b.x[begin + k], b.y[begin + k]);
    n1[k] = rng.normal();
    n2[k] = rng.normal();
    u[k] = rng.uniform();
  }
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<double> vc2m = measured_vc2(b, t);
    const long nc = static_cast<long>(count);
#pragma omp parallel for schedule(dynamic, 256)
    for (long kk = 0; kk < nc; ++kk) {
      const std::size_t k = static_cast<std::size_t>(kk);
      const double R = r0[k], vc2R = t.tab.at(vc2m, R);
      // the epicyclic ratio kappa^2 / 4 Omega^2 of the smooth model curve
      const double om2 = t.tab.at(t.vc2, R) / std::max(R * R, 1e-12), k2 = t.tab.at(t.kappa2, R);
      double sr = std::min(s0 * std::exp(-R / (2 * h)), 0.5 * std::sqrt(vc2R) + 1e-9);
      // massless tracers: Q means nothing without self-gravity; a cold disk, sigma_R = v_c / 10
      if (t.self == 0) sr = 0.1 * std::sqrt(vc2R);
      const double ratio = om2 > 0 ? std::clamp(k2 / (4 * om2), 0.25, 1.0) : 1.0;
      const double vphi = std::sqrt(std::max(0.0, vc2R + sr * sr * (1.0 - ratio - 2.0 * R / h)));
      rr[k] = R;
      vr[k] = sr * n1[k];
      lz[k] = R * (vphi + sr * std::sqrt(ratio) * n2[k]);
      follow_planar_orbit(t, vc2m, lz[k], u[k] * 2 * kPi / std::sqrt(std::max(k2, 1e-30)), rr[k],
                          vr[k]);
      // a star that left the disk (an orbit the integration could not hold): as drawn
      if (!(rr[k] < 1.5 * g.disk_cut * h)) {
        rr[k] = R;
        vr[k] = sr * n1[k];
      }
    }
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = begin + k;
      const double R = std::hypot(b.x[i], b.y[i]);
      const double c = b.x[i] / std::max(R, 1e-300), s = b.y[i] / std::max(R, 1e-300);
      b.x[i] = rr[k] * c;
      b.y[i] = rr[k] * s;
      b.vx[i] = vr[k] * c - lz[k] / rr[k] * s;
      b.vy[i] = vr[k] * s + lz[k] / rr[k] * c;
    }
  }
}

// the disk's vertical velocities: sigma_z from the vertical Jeans equation in the total
// potential, the disk's own Plummer-softened sech^2 slab and the spheres' pull (Springel, Di
// Matteo & Hernquist 2005, MNRAS 361, 776, section 2.3); then every star is kept bound
void set_vertical_velocities(Bodies& b, const GalaxyTables& t, std::size_t begin, std::size_t end,
                             Rng& rng) {
  const double h = t.g.disk_scale, z0 = t.g.disk_height;
  const SechSquaredSlab slab(z0, t.eps);
  const auto pull = [&](double R, double z) { return t.sphere_pull(R, z); };
  for (std::size_t i = begin; i < end; ++i) {
    const double R = std::hypot(b.x[i], b.y[i]), z = b.z[i];
    const double sig = t.sigma0 * std::exp(-R / h);
    const double om2 = t.tab.at(t.vc2, R) / std::max(R * R, 1e-12);
    // massless tracers: the harmonic potential of the halo near the midplane (nu = Omega)
    const double sz = t.self > 0 ? std::sqrt(2 * kPi * t.G * sig * z0 * slab.slab_dispersion(z) +
                                             external_vertical_dispersion(R, z, z0, pull))
                                 : std::sqrt(om2) * 0.8145 * z0;
    double v[3] = {b.vx[i], b.vy[i], sz * rng.normal()};
    // keep every body bound: |v| < 0.95 v_esc
    const double vmax = 0.95 * std::sqrt(2.0 * t.tab.at(t.psi, std::hypot(R, z)));
    const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (speed > vmax)
      for (double& x : v)
        x *= vmax / speed;
    b.vx[i] = v[0];
    b.vy[i] = v[1];
    b.vz[i] = v[2];
  }
}

// moves bodies [begin, end) of b so that their centre of mass is at the origin and at rest
void centre_at_rest(Bodies& b, std::size_t begin, std::size_t end) {
  double m = 0, c[6] = {0, 0, 0, 0, 0, 0};
  for (std::size_t i = begin; i < end; ++i) {
    const double w = b.m[i] > 0 ? b.m[i] : 1.0;
    m += w;
    const double q[6] = {b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i]};
    for (int k = 0; k < 6; ++k)
      c[k] += w * q[k];
  }
  if (!(m > 0)) return;
  for (double& q : c)
    q /= m;
  for (std::size_t i = begin; i < end; ++i) {
    b.x[i] -= c[0];
    b.y[i] -= c[1];
    b.z[i] -= c[2];
    b.vx[i] -= c[3];
    b.vy[i] -= c[4];
    b.vz[i] -= c[5];
  }
}

// a sphere in equilibrium in the galaxy's potential: radii from its tapered profile, isotropic
// velocities from its Eddington distribution function in the total spherical potential, drawn
// in mirror pairs (x, v) and (-x, -v) (a "quiet start" for the odd harmonics: the sphere's centre
// stays on the disk's at every radius instead of off by its sampling noise). With `weight`, a
// multi-mass sphere: a drawn (r, v) is kept with probability 1 / factor(E) and its pair weighs
// ∝ factor(E), normalised so that the sphere's mass stays count * mass (EnergyMassFactor)
void add_sphere(Bodies& b, const GalaxyTables& t, const TaperedHernquist& sphere, std::size_t count,
                double mass, Component comp, Rng& rng, const EnergyMassFactor* weight = nullptr) {
  if (count == 0) return;
  const auto& r = t.tab.r();
  std::vector<double> rho(r.size());
  for (std::size_t i = 0; i < r.size(); ++i)
    rho[i] = sphere.density(r[i]);
  const EddingtonDf df(r, rho, t.psi);
  const std::size_t first = b.size();
  double sum = 0;
  for (std::size_t i = 0; i < count; ++i) {
    double rr = 0, v = 0, f = 1;
    Vec3 d, e;
    for (int tries = 0; tries < 100000; ++tries) {
      rr = sphere.sample_radius(rng);
      d = rng.unit_vector();
      const double psi = t.tab.at(t.psi, rr);
      v = df.sample_speed(psi, rng);
      e = rng.unit_vector();
      if (!weight || weight->ratio() == 1) break;
      f = weight->factor(psi - 0.5 * v * v);
      if (rng.uniform() * f <= 1) break;
    }
    b.add(rr * d[0], rr * d[1], rr * d[2], v * e[0], v * e[1], v * e[2], f, comp);
    sum += f;
    if (++i < count) {  // its mirror image
      b.add(-rr * d[0], -rr * d[1], -rr * d[2], -v * e[0], -v * e[1], -v * e[2], f, comp);
      sum += f;
    }
  }
  if (!weight || weight->ratio() == 1) {  // equal masses: exactly `mass` each
    for (std::size_t i = first; i < b.size(); ++i)
      b.m[i] = mass;
    return;
  }
  const double scale = mass * static_cast<double>(count) / sum;
  for (std::size_t i = first; i < b.size(); ++i)
    b.m[i] *= scale;
}

// generates one galaxy of `n` bodies, disk in the xy plane rotating counter-clockwise,
// centre of mass at rest at the origin
Bodies make_galaxy(const GalaxyModel& g, std::size_t n, double G, double eps, Rng& rng) {
  const GalaxyCounts counts = galaxy_counts(g, n);
  const GalaxyTables t(g, G, eps);
  Bodies b;
  b.reserve(n);
  add_disk(b, t, counts.disk, counts.disk_mass, rng);
  add_sphere(b, t, t.bulge, counts.bulge, counts.bulge_mass, Component::Bulge, rng);
  // a multi-mass live halo: orbits confined to the disk's extent are the lightest, those that
  // reach beyond the halo's cut the heaviest (docs/GALAXIES.md, "A multi-mass halo")
  const double r_disk = g.disk_cut * g.disk_scale;
  const EnergyMassFactor halo_weight(g.rigid() ? 1.0 : g.halo_mass_ratio, r_disk,
                                     std::max(g.halo_cut, 2 * r_disk), t.tab, t.psi);
  add_sphere(b, t, t.halo, counts.halo, counts.halo_mass, Component::Dark, rng, &halo_weight);
  set_planar_velocities(b, t, 0, counts.disk, rng);
  set_vertical_velocities(b, t, 0, counts.disk, rng);
  // every component centred and at rest on its own (the spheres' mirror pairs leave only an
  // unpaired last body to correct): the noise of a sample's centre, ~r_rms / sqrt(N), would set
  // the disk oscillating through the halo and bulge (docs/GALAXIES.md)
  const std::size_t nd = counts.disk, nb = nd + counts.bulge, nh = nb + counts.halo;
  centre_at_rest(b, 0, nd);
  centre_at_rest(b, nd, nb);
  centre_at_rest(b, nb, nh);
  // the rigid halo: its centre is a massless body at the galaxy's centre
  if (g.rigid()) {
    b.add(0, 0, 0, 0, 0, 0, 0, Component::Dark);
    b.halos = {g.rigid_halo(static_cast<std::uint32_t>(b.size() - 1))};
  }
  b.to_centre_of_mass_frame();
  return b;
}

// softening for a galaxy of n bodies: 0.1 kpc at 32768, scaled with the mean spacing
double galaxy_softening(std::size_t n) {
  return std::clamp(0.1 * std::cbrt(32768.0 / static_cast<double>(n)), 0.03, 0.6);
}

// moves and rotates `b` (tilt about x, then azimuth about z) into the scene
void place(Bodies& dst, const Bodies& b, double tilt, double azimuth, const Vec3& x,
           const Vec3& v) {
  const std::size_t n0 = dst.size();
  for (std::size_t i = 0; i < b.size(); ++i) {
    const Vec3 p = rotate_z(rotate_x({b.x[i], b.y[i], b.z[i]}, tilt), azimuth);
    const Vec3 u = rotate_z(rotate_x({b.vx[i], b.vy[i], b.vz[i]}, tilt), azimuth);
    dst.add(p[0] + x[0], p[1] + x[1], p[2] + x[2], u[0] + v[0], u[1] + v[1], u[2] + v[2], b.m[i],
            b.component[i]);
  }
  for (RigidHalo hr : b.halos) {
    hr.anchor += static_cast<std::uint32_t>(n0);
    dst.halos.push_back(hr);
  }
}

// rotation period of the outer disk of a galaxy from make_galaxy (disk in the xy plane about
// the origin): at the cylindrical radius holding 90 % of the disk bodies (`radius`), on the
// circular orbit about the mass inside that sphere
double outer_rotation_period(const Bodies& b, double G, double& radius) {
  std::vector<double> rd;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.component[i] == Component::Disk) rd.push_back(std::hypot(b.x[i], b.y[i]));
  if (rd.empty()) return 0;
  const auto k = static_cast<std::ptrdiff_t>(0.9 * static_cast<double>(rd.size() - 1));
  std::nth_element(rd.begin(), rd.begin() + k, rd.end());
  radius = rd[static_cast<std::size_t>(k)];
  double m = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (std::hypot(b.x[i], b.y[i], b.z[i]) < radius) m += b.m[i];
  // a rigid halo's mass inside the sphere (its centre is the galaxy's, at the origin)
  const ExternalField f = make_external_field(b.halos, 1.0);
  for (int h = 0; h < f.count; ++h)
    m += f.mass[h] * halo_fraction(f.shape[h], radius);
  return m > 0 ? 2 * kPi * std::sqrt(radius * radius * radius / (G * m)) : 0;
}

// the parameters 'halo_mass_ratio' and 'star_mass' of a scene into g: only a live halo has them
void set_live_halo_masses(const Params& p, GalaxyModel& g, const char* scene) {
  g.halo_mass_ratio = p.get("halo_mass_ratio");
  g.star_mass = p.get("star_mass");
  for (const char* key : {"halo_mass_ratio", "star_mass"})
    if (p.get(key) != 1 && g.rigid())
      fail("scene '", scene, "': parameter '", key, "' (", p.get(key),
           ") needs a live halo (halo 0): a rigid halo has no particles");
}

// the disk-galaxy scene's model from its parameters
GalaxyModel disk_galaxy_model(const Params& p) {
  GalaxyModel g;
  g.toomre_q = p.get("q");
  g.disk_mass = p.get("disk_mass");
  g.halo_mass = p.get("halo_mass");
  g.bulge_mass = p.get("bulge_mass");
  g.halo = static_cast<int>(std::lround(p.get("halo")));
  g.massless = std::lround(p.get("massless_stars")) != 0;
  if (g.massless && !g.rigid())
    fail(
        "scene 'disk-galaxy': parameter 'massless_stars' needs a rigid halo (halo 1 or 2): a "
        "live halo of particles is what would move them");
  if (g.rigid() && !(g.halo_mass > 0))
    fail("scene 'disk-galaxy': a rigid halo (halo ", g.halo, ") needs halo_mass > 0");
  set_live_halo_masses(p, g, "disk-galaxy");
  return g;
}

// "live dark halo", "rigid Hernquist halo" or "rigid NFW halo" (+ massless stars)
std::string halo_label(const GalaxyModel& g) {
  std::string l = g.halo == 0   ? "live dark halo"
                  : g.halo == 1 ? "rigid Hernquist halo"
                                : "rigid NFW halo";
  if (g.massless) l += " (massless tracer stars)";
  if (!g.rigid() && g.halo_mass_ratio != 1) {
    std::ostringstream r;
    r << " (particle masses rising " << g.halo_mass_ratio << "x with orbital energy)";
    l += r.str();
  }
  return l;
}

// galaxy 1 of the collision (galaxy 2 is it scaled by the mass ratio)
GalaxyModel collision_model(const Params& p) {
  GalaxyModel g;
  g.halo = static_cast<int>(std::lround(p.get("halo")));
  set_live_halo_masses(p, g, "galaxy-collision");
  return g;
}

// the collision's N of galaxy 1 and 2, split by mass so both have the same particle masses
std::array<std::size_t, 2> collision_split(const Params& p) {
  const std::size_t n = p.n();
  const double q = p.get("mass_ratio");
  const std::size_t n1 = static_cast<std::size_t>(std::llround(n / (1.0 + q)));
  const std::size_t n2 = n - n1;
  if (n2 < 16) fail("scene 'galaxy-collision': N = ", n, " is too small for mass ratio ", q);
  return {n1, n2};
}

}  // namespace

SceneParticles disk_galaxy_particles(const Params& p) {
  return {units::galactic(), particles_of({galaxy_counts(disk_galaxy_model(p), p.n())})};
}

SceneParticles galaxy_collision_particles(const Params& p) {
  const auto [n1, n2] = collision_split(p);
  const GalaxyModel g1 = collision_model(p), g2 = g1.scaled(p.get("mass_ratio"));
  return {units::galactic(), particles_of({galaxy_counts(g1, n1), galaxy_counts(g2, n2)})};
}

Scene make_disk_galaxy(const Params& p) {
  const std::size_t n = p.n();
  const GalaxyModel g = disk_galaxy_model(p);
  Scene s;
  s.name = "disk-galaxy";
  std::ostringstream d;
  d << "exponential disk (" << g.disk_mass << "e10 Msun, h = " << g.disk_scale
    << " kpc) + Hernquist bulge + " << halo_label(g) << ", Q = " << g.toomre_q << ", " << n
    << " bodies: " << disk_galaxy_particles(p).summary();
  s.description = d.str();
  s.units = units::galactic();
  s.softening = galaxy_softening(n);
  Rng rng(p.seed());
  s.bodies = make_galaxy(g, n, s.units.G, s.softening, rng);
  s.groups = {{"galaxy", 0, n}};
  s.dt = 5e-4;  // ~0.5 Myr; a rotation at 2 disk scale lengths is ~0.13 time units
  s.camera_distance = 40.0;
  s.trails = false;
  finish(s);
  return s;
}

Scene make_galaxy_collision(const Params& p) {
  const std::size_t n = p.n();
  const double q = p.get("mass_ratio"), rp = p.get("pericentre"), e = p.get("e");
  double sep = p.get("separation");
  if (sep < rp)
    fail("scene 'galaxy-collision': parameter 'separation' (", sep,
         ") must not be less than 'pericentre' (", rp, ")");
  // a bound orbit starts at most at apocentre
  if (e < 1.0) sep = std::min(sep, rp * (1.0 + e) / (1.0 - e));
  Scene s;
  s.name = "galaxy-collision";
  s.units = units::galactic();
  const double G = s.units.G;

  // n split by mass so both galaxies have the same particle masses
  const auto [n1, n2] = collision_split(p);
  const GalaxyModel g1 = collision_model(p), g2 = g1.scaled(q);
  s.softening = galaxy_softening(n1);
  Rng rng(p.seed());
  const Bodies b1 = make_galaxy(g1, n1, G, s.softening, rng);
  const Bodies b2 = make_galaxy(g2, n2, G, s.softening, rng);

  // point-mass orbit of the two centres, approaching pericentre (true anomaly < 0)
  const double m1 = b1.total_mass(), m2 = b2.total_mass(), mt = m1 + m2;
  const double cos_nu = std::clamp((rp * (1.0 + e) / sep - 1.0) / e, -1.0, 1.0);
  Vec3 rel, vrel;
  kepler_state(G * mt, rp, e, -std::acos(cos_nu), rel, vrel);
  const double f1 = m2 / mt, f2 = m1 / mt;
  place(s.bodies, b1, p.get("tilt1") * kDeg, 0.0, {-f1 * rel[0], -f1 * rel[1], -f1 * rel[2]},
        {-f1 * vrel[0], -f1 * vrel[1], -f1 * vrel[2]});
  place(s.bodies, b2, p.get("tilt2") * kDeg, 0.0, {f2 * rel[0], f2 * rel[1], f2 * rel[2]},
        {f2 * vrel[0], f2 * vrel[1], f2 * vrel[2]});
  s.groups = {{"galaxy 1", 0, n1}, {"galaxy 2", n1, n1 + n2}};

  // run length: the point-mass time to the first pericentre (live runs at N = 8,192 on
  // cpu-barnes-hut meet within 2 % of it: 259 Myr against 257 from 80 kpc, 176 against 173
  // from 60: the halos, cut at 30 kpc, overlap only in the last ~100 Myr), then two rotations
  // of the outer disk, in which the tails grow to several disk radii (and the default orbit,
  // decaying by dynamical friction, comes back at ~+370 Myr and merges)
  const double t_peri = time_to_pericentre(G * mt, rp, e, sep);
  double r_out = 0;
  const double t_rot = outer_rotation_period(b1, G, r_out);
  std::ostringstream tails;
  tails.precision(1);
  tails << "2 rotations of galaxy 1's outer disk at " << std::fixed << r_out << " kpc";
  set_collision_timing(s, t_peri, "point-mass Kepler orbit of the centres", 2 * t_rot, tails.str());

  std::ostringstream d;
  d << "two disk galaxies with " << halo_label(g1) << "s (mass ratio " << q << ", tilts "
    << p.get("tilt1") << " and " << p.get("tilt2") << " deg) on "
    << (e < 1 ? "an elliptic" : "a parabolic") << " orbit, pericentre " << rp << " kpc, " << n
    << " bodies: " << galaxy_collision_particles(p).summary();
  s.description = d.str();
  s.dt = 5e-4;
  s.trails = false;
  finish(s);
  // the default view frames the first passage (both disks 40 Myr after the pericentre, the
  // bridge grown) and holds both centres at the start (sim/scenes/framing.cpp)
  frame_collision(s, t_peri + units::parse_duration("40Myr", s.units, "framing time"));
  return s;
}

}  // namespace nbody::scenes
