#include "sim/edit/collisions.hpp"

#include <chrono>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/core/simulation.hpp"
#include "sim/core/units.hpp"

using namespace nbody;

namespace {

// dimensionless bodies: radius ε/2
Scene scene_of(std::initializer_list<BodySpec> bodies) {
  Scene s;
  s.units = units::henon();
  for (const BodySpec& b : bodies)
    s.bodies.add(b.x, b.y, b.z, b.vx, b.vy, b.vz, b.m, b.component, b.name);
  return s;
}

BodySpec body(double x, double vx, double m, const char* name) {
  BodySpec b;
  b.x = x;
  b.vx = vx;
  b.vy = 0.25 * vx;
  b.m = m;
  b.name = name;
  return b;
}

double momentum_x(const Bodies& b) {
  double p = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    p += b.m[i] * b.vx[i];
  return p;
}

}  // namespace

TEST(Collisions, TwoOverlappingBecomeOneConservingMomentum) {
  Scene s = scene_of({body(0, 1, 2, "a"), body(0.05, -3, 1, "b"), body(5, 0, 1, "far")});
  const double p0 = momentum_x(s.bodies);
  const auto ev = merge_touching(s, {}, 0.1);  // ε = 0.1: touching below 0.1
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].survivor, "a");
  EXPECT_EQ(ev[0].absorbed, std::vector<std::string>{"b"});
  ASSERT_EQ(s.bodies.size(), 2u);
  EXPECT_EQ(s.bodies.m[0], 3);
  EXPECT_NEAR(s.bodies.x[0], 0.05 / 3, 1e-15);
  EXPECT_NEAR(ev[0].x, 0.05 / 3, 1e-15);
  EXPECT_NEAR(momentum_x(s.bodies), p0, 1e-15);
  EXPECT_EQ(s.bodies.vx[0], (2.0 - 3.0) / 3);
  // nothing touches any more
  EXPECT_TRUE(merge_touching(s, {}, 0.1).empty());
}

TEST(Collisions, ChainOfThreeBecomesOne) {
  // a-b and b-c touch, a-c do not
  Scene s = scene_of(
      {body(0, 0, 1, "a"), body(0.08, 1, 3, "b"), body(0.16, 2, 1, "c"), body(1, 0, 1, "d")});
  const double p0 = momentum_x(s.bodies);
  const auto ev = merge_touching(s, {}, 0.1);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].survivor, "b");
  EXPECT_EQ(ev[0].absorbed.size(), 2u);
  ASSERT_EQ(s.bodies.size(), 2u);
  EXPECT_EQ(s.bodies.name[0], "b");
  EXPECT_EQ(s.bodies.m[0], 5);
  EXPECT_NEAR(momentum_x(s.bodies), p0, 1e-15);
}

TEST(Collisions, MasslessPassThroughEachOtherButAreAbsorbed) {
  Scene s = scene_of(
      {body(0, 0, 0, "t1"), body(0.01, 0, 0, "t2"), body(3, 0, 1, "m"), body(3.02, 5, 0, "t3")});
  const auto ev = merge_touching(s, {}, 0.1);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].survivor, "m");
  EXPECT_EQ(ev[0].absorbed, std::vector<std::string>{"t3"});
  ASSERT_EQ(s.bodies.size(), 3u);
  EXPECT_EQ(s.bodies.vx[2], 0);  // a massless body brings no momentum
  EXPECT_EQ(s.bodies.x[2], 3);
}

TEST(Collisions, RadiusFromDensityInPhysicalUnits) {
  Scene s;
  s.units = units::solar();
  const MergeRule r;
  // the Earth's mass at 3000 kg/m³: 7,800 km; at 5514 kg/m³ the Earth's radius
  EXPECT_NEAR(body_radius(s, {false, 5514}, 0, 3.0035e-6) * 1.495978707e8, 6371, 10);
  EXPECT_EQ(body_radius(s, r, 0.5, 0), 0);
  EXPECT_EQ(body_radius(s, {true, 3000}, 0.5, 1), 0.25);
  EXPECT_THROW(merge_touching(s, {false, -1}, 0), Error);
}

TEST(Collisions, PlanetIntoJupiterMerges) {
  const Scene scene = make_scene("planet-into-jupiter");
  EXPECT_TRUE(scene.merge_on_touch);
  SimParams p;
  p.kernel = "cpu-reference";
  p.precision = Precision::Double;
  p.dt = scene.dt;
  p.softening = scene.softening;
  p.G = scene.units.G;
  p.integrator = scene.integrator;
  p.steps_per_frame = 20;
  Simulation sim(scene, p);
  std::vector<MergeEvent> ev;
  const double p0 = momentum_x(sim.bodies());
  while (ev.empty() && sim.time() < scene.duration) {
    sim.step(p);
    Scene now = sim.current();
    ev = merge_touching(now, {}, p.softening);
    if (!ev.empty()) {
      EXPECT_NEAR(momentum_x(now.bodies), momentum_x(sim.bodies()), 1e-18);
      EXPECT_NEAR(momentum_x(now.bodies), p0, 1e-15);
    }
  }
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].survivor, "Jupiter");
  EXPECT_EQ(ev[0].absorbed, std::vector<std::string>{"planet"});
  EXPECT_LT(sim.time(), scene.duration - 2);
}

TEST(Collisions, AMillionBodiesRun) {
  // not a timed test: that it runs and finds the planted pairs
  const std::size_t n = 1 << 20;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-50, 50);
  Scene s;
  s.units = units::henon();
  s.bodies.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    s.bodies.add(u(rng), u(rng), u(rng), 0, 0, 0, i % 4 ? 1e-6 : 0);
  // three touching pairs far inside the cloud
  for (int k = 0; k < 3; ++k) {
    s.bodies.x[10 * k + 1] = s.bodies.x[10 * k + 2] + 1e-4;
    s.bodies.y[10 * k + 1] = s.bodies.y[10 * k + 2];
    s.bodies.z[10 * k + 1] = s.bodies.z[10 * k + 2];
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto ev = merge_touching(s, {}, 1e-3);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("merge_touching at N = %zu: %.0f ms, %zu mergers\n", n, ms, ev.size());
  EXPECT_GE(ev.size(), 3u);
  EXPECT_EQ(s.bodies.size(), n - ev.size());
}
