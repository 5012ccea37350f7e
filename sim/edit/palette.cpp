#include "sim/edit/palette.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <random>
#include <sstream>

#include "sim/core/error.hpp"

namespace nbody {

namespace {

// masses from G M (km³/s² → m³/s²) over the G of sim/core/units.cpp, so one solar mass is exactly
// the solar unit
constexpr double kG = 6.67430e-11;
constexpr double kMsunKg = 1.32712440018e20 / kG;  // IAU 2015 nominal
constexpr double kEarthKg = 398600.435436e9 / kG;  // DE430
constexpr double kJupiterKg = 126686534e9 / kG;    // Jupiter alone (Jacobson 2013)
constexpr double kCeresKg = 62.6284e9 / kG;        // Dawn (Park et al. 2016)
constexpr double kLightYearM = 9.4607e15;

std::string percent_label(double f) {
  std::ostringstream os;
  os << f * 100 << "% of the total mass";
  return os.str();
}

}  // namespace

std::vector<PaletteEntry> palette(const Scene& s) {
  const UnitSystem& u = s.units;
  if (!u.physical()) {
    const double mt = s.bodies.total_mass();
    std::vector<PaletteEntry> p;
    for (double f : {0.001, 0.01, 0.1, 1.0})
      p.push_back({percent_label(f), f * mt, f < 0.05 ? Component::Star : Component::Bulge,
                   "a body of this fraction of the scene's total mass"});
    return p;
  }
  const double per_kg = 1.0 / u.mass_kg;
  if (u.length_m < kLightYearM)
    return {{"asteroid", kCeresKg * per_kg, Component::Planet, "a Ceres-like dwarf planet"},
            {"Earth", kEarthKg * per_kg, Component::Planet, "one Earth mass"},
            {"Jupiter", kJupiterKg * per_kg, Component::Planet, "one Jupiter mass (317.8 Earths)"},
            {"star", kMsunKg * per_kg, Component::Star, "a Sun-like star of one solar mass"}};
  return {{"star", kMsunKg * per_kg, Component::Star, "one solar mass"},
          {"black hole", 1e6 * kMsunKg * per_kg, Component::Star,
           "a 10⁶ M☉ black hole (a galaxy's central black hole)"},
          {"dwarf galaxy core", 1e9 * kMsunKg * per_kg, Component::Bulge,
           "a 10⁹ M☉ point mass, the core of a dwarf galaxy"}};
}

BodySpec throw_comet(const Scene& s, double G, std::uint64_t seed) {
  const Bodies& b = s.bodies;
  if (b.empty()) fail("throw a comet: the scene has no bodies");
  if (!(G > 0)) fail("throw a comet: G must be > 0 (got ", G, ")");
  // the heaviest body, and the distance of the outermost massive one (of any, when alone)
  const std::size_t sun =
      static_cast<std::size_t>(std::max_element(b.m.begin(), b.m.end()) - b.m.begin());
  if (!(b.m[sun] > 0)) fail("throw a comet: the scene has no body with mass");
  double edge = 0, edge_any = 0;
  for (std::size_t j = 0; j < b.size(); ++j) {
    const double dx = b.x[j] - b.x[sun], dy = b.y[j] - b.y[sun], dz = b.z[j] - b.z[sun];
    const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
    edge_any = std::max(edge_any, r);
    if (j != sun && b.m[j] > 0) edge = std::max(edge, r);
  }
  if (!(edge > 0)) edge = edge_any > 0 ? edge_any : 1.0;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  // a near-parabolic bound orbit with its pericentre in the inner system
  const double q = (0.02 + 0.06 * u(rng)) * edge;
  const double e = 0.98 + 0.019 * u(rng);
  const double r0 = 1.3 * edge;
  const double mu = G * b.m[sun];
  const double p = q * (1 + e);
  const double nu = -std::acos(std::clamp((p / r0 - 1) / e, -1.0, 1.0));  // inbound
  const double vp = std::sqrt(mu / p);
  const double rx = r0 * std::cos(nu), ry = r0 * std::sin(nu);
  const double vx = -vp * std::sin(nu), vy = vp * (e + std::cos(nu));
  // a random orientation: inclination (isotropic), node and argument of pericentre
  const double ci = 2 * u(rng) - 1, si = std::sqrt(1 - ci * ci);
  const double node = 2 * std::numbers::pi * u(rng), peri = 2 * std::numbers::pi * u(rng);
  const double cO = std::cos(node), sO = std::sin(node), cw = std::cos(peri), sw = std::sin(peri);
  // perifocal -> scene: rows of R_z(node) R_x(i) R_z(peri)
  const double P[3] = {cO * cw - sO * sw * ci, sO * cw + cO * sw * ci, sw * si};
  const double Q[3] = {-cO * sw - sO * cw * ci, -sO * sw + cO * cw * ci, cw * si};
  // "comet N": one more than the highest N in the scene
  long comets = 0;
  for (const std::string& n : b.name)
    if (n.rfind("comet ", 0) == 0)
      comets = std::max(comets, std::strtol(n.c_str() + 6, nullptr, 10));
  BodySpec c;
  c.x = b.x[sun] + rx * P[0] + ry * Q[0];
  c.y = b.y[sun] + rx * P[1] + ry * Q[1];
  c.z = b.z[sun] + rx * P[2] + ry * Q[2];
  c.vx = b.vx[sun] + vx * P[0] + vy * Q[0];
  c.vy = b.vy[sun] + vx * P[1] + vy * Q[1];
  c.vz = b.vz[sun] + vx * P[2] + vy * Q[2];
  c.m = 0;
  c.component = Component::Planet;
  std::ostringstream name;
  name << "comet " << comets + 1;
  c.name = name.str();
  return c;
}

}  // namespace nbody
