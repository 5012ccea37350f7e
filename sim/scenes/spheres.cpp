// Spherical scenes in Hénon units (G = M = 1, E = -1/4): the Plummer model and a cold collapse.

#include <cmath>
#include <sstream>

#include "sim/scenes/common.hpp"

namespace nbody::scenes {

namespace {

// plummer softening close to Dehnen's (2001) optimum for a Plummer sphere, b = 3 pi / 16
double plummer_softening(std::size_t n) {
  return 0.98 * (3.0 * kPi / 16.0) * std::pow(static_cast<double>(n), -0.26);
}

}  // namespace

Scene make_plummer(const Params& p) {
  const std::size_t n = p.n();
  const double virial = p.get("virial");
  Rng rng(p.seed());
  Scene s;
  s.name = "plummer";
  std::ostringstream d;
  d << "Plummer sphere of " << n << " equal masses, Henon units (G = M = 1, E = -1/4)";
  s.description = d.str();
  s.units = units::henon();
  s.bodies.reserve(n);
  // aarseth, hénon & wielen (1974) in units G = M = b = 1, then scaled to hénon units
  const double b = 3.0 * kPi / 16.0, vscale = 1.0 / std::sqrt(b);
  const double m = 1.0 / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    // radius from the cumulative mass, cut at 99.9% of the mass
    double r;
    do {
      const double x1 = rng.open_uniform() * 0.999;
      r = 1.0 / std::sqrt(std::pow(x1, -2.0 / 3.0) - 1.0);
    } while (!std::isfinite(r));
    const Vec3 dir = rng.unit_vector();
    // speed by von neumann rejection from g(q) = q^2 (1 - q^2)^3.5, max 0.1 at q = sqrt(2/9)
    double q, g;
    do {
      q = rng.uniform();
      g = rng.uniform() * 0.1;
    } while (g > q * q * std::pow(1.0 - q * q, 3.5));
    const double v = q * std::sqrt(2.0) * std::pow(1.0 + r * r, -0.25);
    const Vec3 vdir = rng.unit_vector();
    s.bodies.add(b * r * dir[0], b * r * dir[1], b * r * dir[2], vscale * v * vdir[0],
                 vscale * v * vdir[1], vscale * v * vdir[2], m, Component::Star);
  }
  // optional departure from equilibrium
  const double f = std::sqrt(virial);
  for (std::size_t i = 0; i < n; ++i) {
    s.bodies.vx[i] *= f;
    s.bodies.vy[i] *= f;
    s.bodies.vz[i] *= f;
  }
  s.dt = 1.0 / 128.0;
  s.softening = plummer_softening(n);
  s.camera_distance = 6.0;
  s.trails = n <= 64;
  finish(s);
  return s;
}

Scene make_cold_collapse(const Params& p) {
  const std::size_t n = p.n();
  const double virial = p.get("virial");
  Rng rng(p.seed());
  Scene s;
  s.name = "cold-collapse";
  std::ostringstream d;
  d << "uniform sphere of " << n << " equal masses, virial ratio " << virial
    << ", collapsing (Henon units)";
  s.description = d.str();
  s.units = units::henon();
  // uniform sphere: W = -3/5 G M^2 / R, E = W (1 - Q/2) = -1/4 fixes R
  const double radius = 2.4 * (1.0 - 0.5 * virial);
  const double w = 0.6 / radius;
  // isotropic gaussian velocities with 2K = Q |W|: sigma^2 (1D) = Q |W| / 3
  const double sigma = std::sqrt(virial * w / 3.0);
  const double m = 1.0 / static_cast<double>(n);
  s.bodies.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double r = radius * std::cbrt(rng.uniform());
    const Vec3 dir = rng.unit_vector();
    const double vx = sigma * rng.normal(), vy = sigma * rng.normal(), vz = sigma * rng.normal();
    s.bodies.add(r * dir[0], r * dir[1], r * dir[2], vx, vy, vz, m, Component::Star);
  }
  // free-fall time pi/2 sqrt(R^3 / 2GM) ~ 4.1; the centre becomes dense, so small steps
  s.dt = 1.0 / 256.0;
  s.softening = 0.5 * std::pow(static_cast<double>(n), -0.3);
  s.camera_distance = 2.5 * radius;
  s.trails = n <= 64;
  finish(s);
  return s;
}

}  // namespace nbody::scenes
