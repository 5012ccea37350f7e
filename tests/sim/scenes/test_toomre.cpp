// Toomre & Toomre restricted encounter: two massive cores and massless stars, a parabolic core
// orbit, circular rings about each core, massless stars that pull on nothing (the cores move as
// with stars of tiny mass), presets and refused parameters.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "tests/sim/scenes/evolve.hpp"
#include "tests/test_util.hpp"

namespace nbody {
namespace {

using test::error_of;

SceneParams with_n(std::size_t n) {
  SceneParams p;
  p.n = n;
  return p;
}

// indices of the two massive bodies
std::pair<std::size_t, std::size_t> cores(const Bodies& b) {
  std::vector<std::size_t> c;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.m[i] > 0) c.push_back(i);
  EXPECT_EQ(c.size(), 2u);
  return {c.at(0), c.at(1)};
}

// distance of star i to core k, and its speed relative to the core
double dist(const Bodies& b, std::size_t i, std::size_t k) {
  return std::hypot(b.x[i] - b.x[k], b.y[i] - b.y[k], b.z[i] - b.z[k]);
}
double rel_speed(const Bodies& b, std::size_t i, std::size_t k) {
  return std::hypot(b.vx[i] - b.vx[k], b.vy[i] - b.vy[k], b.vz[i] - b.vz[k]);
}

TEST(Toomre, TwoMassiveCoresAndMasslessStars) {
  for (std::size_t n : {4u, 5u, 201u, 20000u}) {
    const Scene s = make_scene("toomre", with_n(n));
    ASSERT_EQ(s.bodies.size(), n);
    std::size_t massive = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (s.bodies.m[i] > 0) {
        ++massive;
        EXPECT_EQ(s.bodies.component[i], Component::Bulge);
      } else {
        EXPECT_EQ(s.bodies.m[i], 0.0);
        EXPECT_EQ(s.bodies.component[i], Component::Disk);
      }
    }
    EXPECT_EQ(massive, 2u) << n;
    EXPECT_EQ(s.units.G, 1.0);
    EXPECT_FALSE(s.trails);
  }
  EXPECT_EQ(make_scene("toomre").bodies.size(), 20000u);  // default N
}

TEST(Toomre, CoresOnAParabolicOrbit) {
  for (double q : {0.25, 1.0, 3.0}) {
    SceneParams sp = with_n(100);
    sp.values = {{"mass_ratio", q}, {"rp", 2.5}, {"start", 6}};
    const Scene s = make_scene("toomre", sp);
    const auto [a, b] = cores(s.bodies);
    const Bodies& B = s.bodies;
    const double mu = s.units.G * (B.m[a] + B.m[b]);
    const double r = std::hypot(B.x[b] - B.x[a], B.y[b] - B.y[a], B.z[b] - B.z[a]);
    const double v2 = std::pow(rel_speed(B, b, a), 2);
    const double energy = 0.5 * v2 - mu / r;
    EXPECT_LT(std::abs(energy), 1e-9 * mu / r) << q;
    EXPECT_NEAR(r, 6 * 2.5, 1e-9 * r);
    // approaching: r . v < 0
    const double rv = (B.x[b] - B.x[a]) * (B.vx[b] - B.vx[a]) +
                      (B.y[b] - B.y[a]) * (B.vy[b] - B.vy[a]) +
                      (B.z[b] - B.z[a]) * (B.vz[b] - B.vz[a]);
    EXPECT_LT(rv, 0);
    // pericentre from the angular momentum of a parabola: h^2 = 2 mu rp
    const double dx = B.x[b] - B.x[a], dy = B.y[b] - B.y[a];
    const double h = dx * (B.vy[b] - B.vy[a]) - dy * (B.vx[b] - B.vx[a]);
    EXPECT_NEAR(h * h / (2 * mu), 2.5, 1e-9 * 2.5);
  }
}

TEST(Toomre, StarsOnCircularOrbitsAboutTheirCore) {
  SceneParams sp = with_n(2000);
  sp.values = {{"mass_ratio", 0.5}, {"incl1", 30}, {"arg1", 70}, {"incl2", 140}, {"arg2", -20}};
  const Scene s = make_scene("toomre", sp);
  const auto [a, b] = cores(s.bodies);
  const Bodies& B = s.bodies;
  const double eps = s.softening, rp = 1;
  EXPECT_GT(eps, 0);
  std::size_t per_core[2] = {0, 0};
  double worst = 0, worst_kepler = 0;
  for (std::size_t i = 0; i < B.size(); ++i) {
    if (i == a || i == b) continue;
    const std::size_t k = dist(B, i, a) < dist(B, i, b) ? a : b;
    ++per_core[k == a ? 0 : 1];
    const double r = dist(B, i, k), v = rel_speed(B, i, k), GM = s.units.G * B.m[k];
    EXPECT_GE(r, 0.2 * rp * (1 - 1e-12));
    EXPECT_LE(r, 0.6 * rp * (1 + 1e-12));
    // circular speed in the softened point-mass potential the kernels use
    const double vc = std::sqrt(GM * r * r / std::pow(r * r + eps * eps, 1.5));
    worst = std::max(worst, std::abs(v / vc - 1));
    worst_kepler = std::max(worst_kepler, std::abs(v / std::sqrt(GM / r) - 1));
    // velocity perpendicular to the radius
    const double rv = (B.x[i] - B.x[k]) * (B.vx[i] - B.vx[k]) +
                      (B.y[i] - B.y[k]) * (B.vy[i] - B.vy[k]) +
                      (B.z[i] - B.z[k]) * (B.vz[i] - B.vz[k]);
    EXPECT_LT(std::abs(rv), 1e-9 * r * v);
  }
  std::printf("toomre: |v/vc - 1| max %.2e (softened), vs sqrt(GM/r) %.2e (eps = %g rp)\n", worst,
              worst_kepler, eps);
  EXPECT_LT(worst, 1e-9);
  EXPECT_LT(worst_kepler, 0.01);  // softening changes the inner ring's speed by < 1%
  EXPECT_EQ(per_core[0], 999u);
  EXPECT_EQ(per_core[1], 999u);
  // ring orbits last at least 50 steps
  const double r_in = 0.2 * rp;
  EXPECT_GE(2 * 3.14159265358979 * std::sqrt(r_in * r_in * r_in / (s.units.G * 1.0)) / s.dt, 50);
}

TEST(Toomre, MasslessStarsPullOnNothing) {
  SceneParams sp = with_n(200);
  sp.values = {{"preset", 1}};
  const Scene s = make_scene("toomre", sp);
  const auto [a, b] = cores(s.bodies);
  Bodies heavy = s.bodies;
  const double mcore = std::min(heavy.m[a], heavy.m[b]);
  for (std::size_t i = 0; i < heavy.size(); ++i)
    if (heavy.m[i] == 0) heavy.m[i] = 1e-12 * mcore;
  SimParams p = testing::params("cpu-reference", s.dt, s.softening, s.units.G);
  const int steps = 300;
  Bodies out[2];
  const Bodies* in[2] = {&s.bodies, &heavy};
  for (int k = 0; k < 2; ++k) {
    auto backend = make_backend(p);
    backend->set_bodies(*in[k]);
    backend->step(p, steps);
    backend->get_bodies(out[k]);
  }
  double worst = 0, moved = 0;
  for (std::size_t k : {a, b}) {
    const double d =
        std::hypot(out[0].x[k] - out[1].x[k], out[0].y[k] - out[1].y[k], out[0].z[k] - out[1].z[k]);
    worst = std::max(worst, d);
    moved = std::max(moved, std::hypot(out[0].x[k] - s.bodies.x[k], out[0].y[k] - s.bodies.y[k],
                                       out[0].z[k] - s.bodies.z[k]));
  }
  std::printf("toomre: %d steps, cores moved %.3f, restricted vs 1e-12 stars differ by %.2e\n",
              steps, moved, worst);
  EXPECT_GT(moved, 0.5);  // the run is long enough to matter
  EXPECT_LT(worst, 1e-9);
}

TEST(Toomre, PresetsSetTheDocumentedTilts) {
  // the star's angular momentum about its core gives the disk's spin axis
  auto spin = [](const Scene& s, std::size_t core) {
    const Bodies& B = s.bodies;
    for (std::size_t i = 0; i < B.size(); ++i) {
      if (B.m[i] > 0) continue;
      const std::size_t a = cores(B).first, b = cores(B).second;
      if ((dist(B, i, a) < dist(B, i, b) ? a : b) != core) continue;
      const double x = B.x[i] - B.x[core], y = B.y[i] - B.y[core], z = B.z[i] - B.z[core];
      const double vx = B.vx[i] - B.vx[core], vy = B.vy[i] - B.vy[core], vz = B.vz[i] - B.vz[core];
      const double l[3] = {y * vz - z * vy, z * vx - x * vz, x * vy - y * vx};
      const double n = std::hypot(l[0], l[1], l[2]);
      return std::array<double, 3>{l[0] / n, l[1] / n, l[2] / n};
    }
    return std::array<double, 3>{0, 0, 0};
  };
  // inclination: angle between the disk's spin and the orbit's angular momentum
  auto inclination = [&](const Scene& s, std::size_t core) {
    const Bodies& B = s.bodies;
    const auto [a, b] = cores(B);
    const double x = B.x[b] - B.x[a], y = B.y[b] - B.y[a], z = B.z[b] - B.z[a];
    const double vx = B.vx[b] - B.vx[a], vy = B.vy[b] - B.vy[a], vz = B.vz[b] - B.vz[a];
    const double l[3] = {y * vz - z * vy, z * vx - x * vz, x * vy - y * vx};
    const double n = std::hypot(l[0], l[1], l[2]);
    const auto s1 = spin(s, core);
    return std::acos((s1[0] * l[0] + s1[1] * l[1] + s1[2] * l[2]) / n) * 180 /
           3.14159265358979323846;
  };
  struct Case {
    double preset, q, i1, i2;
  };
  // TT72's figures 23, 22 and 21 (|i|: the angle between spin and orbit is blind to the sign
  // of the tilt) and the ring galaxy's drop-through perpendicular to the disk
  const char* names[] = {"Antennae", "Mice", "M51", "ring"};
  for (const Case& c :
       {Case{1, 1, 60, 60}, Case{2, 1, 15, 60}, Case{3, 1.0 / 3.0, 70, 60}, Case{4, 0.7, 90, 90}}) {
    SceneParams sp = with_n(400);
    sp.values = {{"preset", c.preset}};
    const Scene s = make_scene("toomre", sp);
    const auto [a, b] = cores(s.bodies);
    EXPECT_NEAR(s.bodies.m[b] / s.bodies.m[a], c.q, 1e-12);
    EXPECT_NEAR(inclination(s, a), c.i1, 1e-6) << c.preset;
    EXPECT_NEAR(inclination(s, b), c.i2, 1e-6) << c.preset;
    EXPECT_NE(s.description.find(names[static_cast<int>(c.preset) - 1]), std::string::npos);
    // the papers' viewing direction is the default camera's
    EXPECT_TRUE(std::isfinite(s.camera_yaw) && std::isfinite(s.camera_pitch)) << c.preset;
  }
  // a preset overrides explicit mass ratio and angles (the panel always passes them all)
  {
    SceneParams sp = with_n(400);
    sp.values = {{"preset", 2}, {"incl1", 80}, {"incl2", 10}, {"mass_ratio", 3}};
    const Scene s = make_scene("toomre", sp);
    const auto [a, b] = cores(s.bodies);
    EXPECT_NEAR(inclination(s, a), 15, 1e-6);
    EXPECT_NEAR(inclination(s, b), 60, 1e-6);
    EXPECT_DOUBLE_EQ(s.bodies.m[b] / s.bodies.m[a], 1);
  }
  // custom: the given angles
  SceneParams sp = with_n(400);
  sp.values = {{"incl1", 10}, {"incl2", 170}, {"mass_ratio", 2}};
  const Scene s = make_scene("toomre", sp);
  const auto [a, b] = cores(s.bodies);
  EXPECT_NEAR(inclination(s, a), 10, 1e-6);
  EXPECT_NEAR(inclination(s, b), 170, 1e-6);
  EXPECT_DOUBLE_EQ(s.bodies.m[b] / s.bodies.m[a], 2);
  // presets differ from each other and from the default
  const auto d0 = make_scene("toomre", with_n(400)).description;
  SceneParams p1 = with_n(400), p2 = with_n(400);
  p1.values = {{"preset", 1}};
  p2.values = {{"preset", 2}};
  EXPECT_NE(make_scene("toomre", p1).description, d0);
  EXPECT_NE(make_scene("toomre", p1).description, make_scene("toomre", p2).description);
}

TEST(Toomre, BadParametersRefusedByName) {
  struct Case {
    std::map<std::string, double> values;
    std::size_t n;
    const char* needle;
  };
  const Case cases[] = {
      {{{"preset", 5}}, 100, "'preset'"},
      {{{"e", 1.5}}, 100, "'e'"},
      {{{"rp", 0}}, 100, "'rp'"},
      {{{"mass_ratio", 20}}, 100, "'mass_ratio'"},
      {{{"incl1", 200}}, 100, "'incl1'"},
      {{{"arg2", -181}}, 100, "'arg2'"},
      {{{"start", 1}}, 100, "'start'"},
      {{{"bogus", 1}}, 100, "'bogus'"},
      {{}, 3, "'n'"},
  };
  for (const Case& c : cases) {
    SceneParams sp = with_n(c.n);
    sp.values = c.values;
    const std::string msg = error_of([&] { make_scene("toomre", sp); });
    EXPECT_NE(msg.find(c.needle), std::string::npos) << c.needle << ": " << msg;
    EXPECT_NE(msg.find("toomre"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace nbody
