// Disk galaxies in galactic units (kpc, km/s, 1e10 Msun; G ~ 43009, time unit ~ 0.978 Gyr):
// an exponential stellar disk with an isothermal (sech^2) vertical profile, a Hernquist bulge
// and a live Hernquist dark halo, all direct-summed. Halo and bulge velocities are isotropic
// Gaussians with the Jeans dispersion of the total enclosed mass; the disk rotates on the
// circular speed of all components (thin-disk Freeman curve plus the spherical ones) minus the
// asymmetric drift, with radial dispersion from Toomre's Q (Hernquist 1993, ApJS 86, 389).

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/scenes/common.hpp"

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
  double disk_mass = 0, bulge_mass = 0, halo_mass = 0;  // of one particle
};

// Every particle of a galaxy has the same mass, disk, bulge and halo alike; the counts follow
// from the component masses (the default model: 16 % disk, 3 % bulge, 81 % halo). Measured in
// docs/GALAXIES.md (1 Gyr of the isolated disk): at N = 16384 the former fixed shares 50/10/40 %
// (halo particles 6x as heavy as the disk's) thickened the disk 2.64x, halo particles 3x the
// disk's 2.50x, equal masses 2.43x, with v/sigma 3.9, 4.35 and 4.25; at N = 65536 the former
// shares and equal masses end within the scatter of a run (1.61x and 1.57x). Equal masses also
// leave no heavy species to heat the light ones towards equipartition. The rounding remainder
// goes to the halo (to the disk when there is no halo).
// With a rigid halo one body is the halo's centre (massless) and the other n - 1 are stars.
GalaxyCounts galaxy_counts(GalaxyModel g, std::size_t n) {
  GalaxyCounts c;
  const bool massless = g.rigid() && g.massless;
  if (g.rigid()) {
    if (n < 3) fail("disk galaxy: N = ", n, " is too small for a rigid halo and its stars");
    g.halo_mass = 0;
    --n;
  }
  const double m = g.total_mass() / static_cast<double>(n);
  c.bulge = static_cast<std::size_t>(std::llround(g.bulge_mass / m));
  if (g.halo_mass > 0) {
    c.disk = static_cast<std::size_t>(std::llround(g.disk_mass / m));
    c.halo = n - std::min(n, c.disk + c.bulge);
  } else {
    c.disk = n - std::min(n, c.bulge);
  }
  if (c.disk < 1 || (g.bulge_mass > 0 && c.bulge < 1) || (g.halo_mass > 0 && c.halo < 1) ||
      c.disk + c.bulge + c.halo != n)
    fail("disk galaxy: N = ", n, " is too small for its components");
  c.disk_mass = g.disk_mass / static_cast<double>(c.disk);
  c.bulge_mass = c.bulge ? g.bulge_mass / static_cast<double>(c.bulge) : 0;
  c.halo_mass = c.halo ? g.halo_mass / static_cast<double>(c.halo) : 0;
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

// hernquist sphere cut at r_cut holding `mass` inside it: full mass, density, enclosed mass
struct Hernquist {
  double mass_full = 0, a = 1, cut = 1;
  Hernquist(double mass, double scale, double r_cut) : a(scale), cut(r_cut) {
    const double f = r_cut / (r_cut + scale);
    mass_full = mass > 0 ? mass / (f * f) : 0;
  }
  double density(double r) const {
    if (r > cut) return 0;
    return mass_full * a / (2 * kPi * r * std::pow(r + a, 3));
  }
  double enclosed(double r) const {
    const double rr = std::min(r, cut);
    return mass_full * rr * rr / ((rr + a) * (rr + a));
  }
  // radius from a uniform number via the inverse cumulative mass
  double sample_radius(Rng& rng) const {
    const double fmax = cut / (cut + a);
    const double s = std::sqrt(rng.uniform()) * fmax;
    return a * s / (1.0 - s);
  }
};

// radial tables of the spherically averaged model, log-spaced in radius
class RadialTable {
 public:
  RadialTable(double rmin, double rmax, int n) : lmin_(std::log(rmin)), lmax_(std::log(rmax)) {
    r_.resize(n);
    for (int i = 0; i < n; ++i)
      r_[i] = std::exp(lmin_ + (lmax_ - lmin_) * i / (n - 1));
  }
  const std::vector<double>& r() const { return r_; }
  // linear interpolation of `y` (tabulated on r()) in log r; clamped at the ends
  double at(const std::vector<double>& y, double r) const {
    const double u = (std::log(std::max(r, r_.front())) - lmin_) / (lmax_ - lmin_) *
                     static_cast<double>(r_.size() - 1);
    if (u >= static_cast<double>(r_.size() - 1)) return y.back();
    const std::size_t i = static_cast<std::size_t>(u);
    const double f = u - static_cast<double>(i);
    return y[i] * (1 - f) + y[i + 1] * f;
  }

 private:
  double lmin_, lmax_;
  std::vector<double> r_;
};

// generates one galaxy of `n` bodies, disk in the xy plane rotating counter-clockwise,
// centre of mass at rest at the origin
Bodies make_galaxy(const GalaxyModel& g, std::size_t n, double G, double eps, Rng& rng) {
  const Hernquist bulge(g.bulge_mass, g.bulge_scale, g.bulge_cut);
  const Hernquist halo(g.halo_mass, g.halo_scale, g.halo_cut);
  const double h = g.disk_scale, rcut = g.disk_cut * h;
  const double disk_norm = 1.0 - (1.0 + g.disk_cut) * std::exp(-g.disk_cut);
  const double sigma0 = g.disk_mass / disk_norm / (2 * kPi * h * h);  // central surface density

  const GalaxyCounts counts = galaxy_counts(g, n);
  const std::size_t nd = counts.disk, nb = counts.bulge, nh = counts.halo;
  // the rigid halo's own profile (the field every kernel adds, sim/forces/external_field.hpp)
  const RigidHalo rigid = g.rigid_halo(0);
  const ExternalField field = make_external_field({rigid}, 1.0);
  auto halo_enclosed = [&](double r) {
    return g.rigid() ? g.halo_mass * halo_fraction(field.shape[0], r) : halo.enclosed(r);
  };
  // the stars' own gravity (none when they are massless tracers)
  const double self = g.rigid() && g.massless ? 0.0 : 1.0;

  // spherical enclosed mass of everything (disk as its mass inside a cylinder of radius r)
  auto disk_enclosed = [&](double r) {
    const double x = std::min(r / h, g.disk_cut);
    return g.disk_mass * (1.0 - (1.0 + x) * std::exp(-x)) / disk_norm;
  };
  auto enclosed = [&](double r) {
    return self * (disk_enclosed(r) + bulge.enclosed(r)) + halo_enclosed(r);
  };

  // tables: jeans dispersion of bulge and halo, potential for escape speeds, disk rotation
  const double rmax = std::max({rcut, g.bulge_cut, g.halo_cut}) * 1.01;
  const RadialTable tab(1e-3 * std::min(h, g.bulge_scale), rmax, 1200);
  const auto& r = tab.r();
  const std::size_t nt = r.size();
  std::vector<double> s2_bulge(nt, 0), s2_halo(nt, 0), phi(nt, 0), vc2(nt, 0), kappa2(nt, 0);
  {
    // softened gravity g(r) = G M(<r) r / (r^2 + eps^2)^1.5 of the spherical part
    std::vector<double> force(nt);
    for (std::size_t i = 0; i < nt; ++i)
      force[i] = G * enclosed(r[i]) * r[i] / std::pow(r[i] * r[i] + eps * eps, 1.5);
    // integrate inwards: potential and the jeans integrals of rho * g
    phi[nt - 1] = -G * enclosed(r[nt - 1]) / r[nt - 1];
    double ib = 0, ih = 0;
    for (std::size_t i = nt - 1; i-- > 0;) {
      const double dr = r[i + 1] - r[i];
      phi[i] = phi[i + 1] - 0.5 * (force[i] + force[i + 1]) * dr;
      ib += 0.5 * (bulge.density(r[i]) * force[i] + bulge.density(r[i + 1]) * force[i + 1]) * dr;
      ih += 0.5 * (halo.density(r[i]) * force[i] + halo.density(r[i + 1]) * force[i + 1]) * dr;
      if (bulge.density(r[i]) > 0) s2_bulge[i] = ib / bulge.density(r[i]);
      if (halo.density(r[i]) > 0) s2_halo[i] = ih / halo.density(r[i]);
    }
    // midplane circular speed: thin exponential disk (freeman 1970) + spheres, softened (the
    // rigid halo's field is not softened)
    for (std::size_t i = 0; i < nt; ++i) {
      const double y = r[i] / (2 * h), soft = std::pow(r[i] / std::hypot(r[i], eps), 3);
      double vd2 = 0;
      if (y < 40)
        vd2 = self * 4 * kPi * G * sigma0 * h * y * y *
              (bessel_i(0, y) * bessel_k(0, y) - bessel_i(1, y) * bessel_k(1, y));
      const double vb2 = self * G * bulge.enclosed(r[i]) / r[i];
      const double vh2 = G * halo_enclosed(r[i]) / r[i];
      vc2[i] = std::max(0.0, (vd2 + vb2) * soft + vh2 * (g.rigid() ? 1.0 : soft));
    }
    // epicyclic frequency: kappa^2 = R d(Omega^2)/dR + 4 Omega^2
    for (std::size_t i = 0; i < nt; ++i) {
      const std::size_t a = i == 0 ? 0 : i - 1, b = i + 1 == nt ? i : i + 1;
      const double om2a = vc2[a] / (r[a] * r[a]), om2b = vc2[b] / (r[b] * r[b]);
      const double om2 = vc2[i] / (r[i] * r[i]);
      kappa2[i] = std::max(0.0, r[i] * (om2b - om2a) / (r[b] - r[a]) + 4 * om2);
    }
  }
  // radial dispersion sigma_R = s0 exp(-R / 2h), s0 set by Q at R = 2.5 h (hernquist 1993)
  const double rref = 2.5 * h;
  const double sigma_ref =
      g.toomre_q * 3.36 * G * sigma0 * std::exp(-rref / h) / std::sqrt(tab.at(kappa2, rref));
  const double s0 = sigma_ref * std::exp(rref / (2 * h));

  Bodies b;
  b.reserve(n);
  auto escape_cap = [&](double rr, double& vx, double& vy, double& vz) {
    // keep every body bound: |v| < 0.95 v_esc
    const double vmax = 0.95 * std::sqrt(-2.0 * tab.at(phi, rr));
    const double v = std::sqrt(vx * vx + vy * vy + vz * vz);
    if (v > vmax) {
      vx *= vmax / v;
      vy *= vmax / v;
      vz *= vmax / v;
    }
  };

  // disk: exponential in R (inverse cumulative by bisection), sech^2 in z
  const double md = counts.disk_mass;
  for (std::size_t i = 0; i < nd; ++i) {
    const double u = rng.uniform() * disk_norm;
    double lo = 0, hi = g.disk_cut;
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      ((1.0 - (1.0 + mid) * std::exp(-mid)) < u ? lo : hi) = mid;
    }
    const double R = 0.5 * (lo + hi) * h, ph = rng.uniform(0, 2 * kPi);
    const double z =
        self > 0 ? g.disk_height * std::atanh(std::clamp(2 * rng.uniform() - 1, -0.999, 0.999))
                 : 0.8145 * g.disk_height * rng.normal();
    // local dispersions and mean rotation with the asymmetric drift
    const double sig = sigma0 * std::exp(-R / h);
    const double vc2R = tab.at(vc2, R), k2 = tab.at(kappa2, R);
    const double om2 = vc2R / std::max(R * R, 1e-12);
    double sr = s0 * std::exp(-R / (2 * h));
    sr = std::min(sr, 0.5 * std::sqrt(vc2R) + 1e-9);  // keep the centre from boiling over
    // massless tracers: Q means nothing without self-gravity; a cold disk, sigma_R = v_c / 10
    if (self == 0) sr = 0.1 * std::sqrt(vc2R);
    // vertical: the self-gravitating isothermal sheet, or for massless tracers the harmonic
    // potential of the halo near the midplane (nu = Omega in a spherical potential) with the
    // same median |z| (0.549 z0 for sech^2, 0.674 sigma for a gaussian)
    const double sz = self > 0 ? std::sqrt(kPi * G * sig * g.disk_height)
                               : std::sqrt(om2) * 0.8145 * g.disk_height;
    const double ratio = om2 > 0 ? std::clamp(k2 / (4 * om2), 0.25, 1.0) : 1.0;
    const double sphi = sr * std::sqrt(ratio);
    const double vphi = std::sqrt(std::max(0.0, vc2R + sr * sr * (1.0 - ratio - 2.0 * R / h)));
    const double vr = sr * rng.normal(), vp = vphi + sphi * rng.normal(), vz0 = sz * rng.normal();
    const double c = std::cos(ph), s = std::sin(ph);
    double vx = vr * c - vp * s, vy = vr * s + vp * c, vz = vz0;
    escape_cap(std::hypot(R, z), vx, vy, vz);
    b.add(R * c, R * s, z, vx, vy, vz, md, Component::Disk);
  }
  // spheres: hernquist radii, isotropic gaussian velocities with the jeans dispersion
  auto add_sphere = [&](const Hernquist& hq, std::size_t count, double m,
                        const std::vector<double>& s2, Component comp) {
    if (count == 0) return;
    for (std::size_t i = 0; i < count; ++i) {
      const double rr = hq.sample_radius(rng);
      const Vec3 d = rng.unit_vector();
      const double sd = std::sqrt(std::max(0.0, tab.at(s2, rr)));
      double vx = sd * rng.normal(), vy = sd * rng.normal(), vz = sd * rng.normal();
      escape_cap(rr, vx, vy, vz);
      b.add(rr * d[0], rr * d[1], rr * d[2], vx, vy, vz, m, comp);
    }
  };
  add_sphere(bulge, nb, counts.bulge_mass, s2_bulge, Component::Bulge);
  add_sphere(halo, nh, counts.halo_mass, s2_halo, Component::Dark);
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
  return g;
}

// "live dark halo", "rigid Hernquist halo" or "rigid NFW halo" (+ massless stars)
std::string halo_label(const GalaxyModel& g) {
  std::string l = g.halo == 0   ? "live dark halo"
                  : g.halo == 1 ? "rigid Hernquist halo"
                                : "rigid NFW halo";
  if (g.massless) l += " (massless tracer stars)";
  return l;
}

// galaxy 1 of the collision (galaxy 2 is it scaled by the mass ratio)
GalaxyModel collision_model(const Params& p) {
  GalaxyModel g;
  g.halo = static_cast<int>(std::lround(p.get("halo")));
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
  s.camera_distance = 1.6 * sep;
  s.trails = false;
  finish(s);
  return s;
}

}  // namespace nbody::scenes
