#include "sim/edit/preview.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

using namespace nbody;

namespace {
BodySpec probe_at(double x, double y, double z, double vx, double vy, double vz) {
  BodySpec b;
  b.x = x;
  b.y = y;
  b.z = z;
  b.vx = vx;
  b.vy = vy;
  b.vz = vz;
  return b;
}
double dist(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
}  // namespace

TEST(Preview, CircularOrbitConicClosesOnItself) {
  Scene s;
  s.units = units::henon();
  s.bodies.add(0.5, -0.25, 0, 0.1, 0, 0, 1, Component::Star, "sun");
  s.bodies.add(10, 0, 0, 0, 0, 0, 1e-6, Component::Planet, "far");
  // a circular orbit of radius 1 about the sun, inclined
  const BodySpec p = probe_at(1.5, -0.25, 0, 0.1, std::sqrt(0.5), std::sqrt(0.5));
  const PathPreview path = preview_path(s, p, 1.0, 0.0, 129);
  ASSERT_TRUE(path.conic);
  EXPECT_TRUE(path.closed);
  EXPECT_EQ(path.dominant, 0);
  ASSERT_EQ(path.points.size(), 129u);
  EXPECT_EQ(path.points.front(), path.points.back());
  for (const auto& q : path.points)
    EXPECT_NEAR(std::hypot(q[0] - 0.5, q[1] + 0.25, q[2]), 1.0, 1e-9);
  // the probe's position lies on the path
  double nearest = 1e9;
  for (const auto& q : path.points)
    nearest = std::min(nearest, dist(q, {p.x, p.y, p.z}));
  EXPECT_LT(nearest, 2 * std::numbers::pi / 128);
}

TEST(Preview, HyperbolaReachesTheSystemSize) {
  Scene s;
  s.units = units::henon();
  s.bodies.add(0, 0, 0, 0, 0, 0, 1, Component::Star, "sun");
  s.bodies.add(20, 0, 0, 0, 0, 0, 1e-9, Component::Planet, "edge");
  const PathPreview path = preview_path(s, probe_at(1, 0, 0, 0, 3, 0), 1.0, 0.0, 64);
  ASSERT_TRUE(path.conic);
  EXPECT_FALSE(path.closed);
  const double r_end = std::hypot(path.points.back()[0], path.points.back()[1]);
  EXPECT_NEAR(r_end, 30, 1e-6);  // 1.5 times the system's size
}

TEST(Preview, IntegratedInAPlummerSphereIsFiniteAndContinuous) {
  SceneParams sp;
  sp.n = 5000;  // more than kPreviewSources: sampled
  const Scene s = make_scene("plummer", sp);
  const BodySpec p = probe_at(0.3, 0.1, -0.2, 0.0, 0.4, 0.1);
  const PathPreview path = preview_path(s, p, 1.0, 0.01, 200);
  EXPECT_FALSE(path.conic);
  ASSERT_EQ(path.points.size(), 200u);
  EXPECT_GT(path.duration, 0);
  double total = 0, longest = 0;
  for (std::size_t k = 1; k < path.points.size(); ++k) {
    for (double v : path.points[k])
      ASSERT_TRUE(std::isfinite(v));
    const double d = dist(path.points[k], path.points[k - 1]);
    total += d;
    longest = std::max(longest, d);
  }
  EXPECT_GT(total, 0);
  EXPECT_LT(longest, 5 * total / 199);  // no jumps
  EXPECT_EQ(path.points.front(), (std::array<double, 3>{0.3, 0.1, -0.2}));
  EXPECT_THROW(preview_path(s, p, 1.0, 0.01, 1), Error);
}

TEST(Preview, AMillionBodies) {
  // not a timed test: prints the time of one call (the window calls it every frame)
  SceneParams sp;
  sp.n = 1 << 20;
  const Scene s = make_scene("plummer", sp);
  const BodySpec p = probe_at(0.3, 0.1, -0.2, 0.0, 0.4, 0.1);
  const auto t0 = std::chrono::steady_clock::now();
  const PreviewField f = preview_field(s);  // once when a drag starts
  const auto t1 = std::chrono::steady_clock::now();
  const PathPreview path = preview_path(f, p, 1.0, 0.01, 256);  // every frame
  const auto t2 = std::chrono::steady_clock::now();
  using ms = std::chrono::duration<double, std::milli>;
  std::printf("N = %zu: preview_field %.2f ms, preview_path (256 points) %.2f ms\n",
              s.bodies.size(), ms(t1 - t0).count(), ms(t2 - t1).count());
  EXPECT_EQ(path.points.size(), 256u);
}
