#include "sim/core/simulation.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

using namespace nbody;

namespace {
Scene small_scene() {
  Scene s;
  s.name = "test";
  s.units = units::henon();
  for (int i = 0; i < 17; ++i)
    s.bodies.add(std::cos(i * 0.4) * (1 + 0.1 * i), std::sin(i * 0.4), 0.05 * i,
                 -std::sin(i * 0.4) * 0.3, std::cos(i * 0.4) * 0.3, 0, 1.0 / 17);
  return s;
}
}  // namespace

TEST(Simulation, SwitchingBackendCarriesStateOver) {
  SimParams p;
  p.kernel = "cpu-reference";
  p.precision = Precision::Double;
  p.dt = 1e-3;
  p.softening = 0.05;
  p.steps_per_frame = 10;
  // one run on the reference all the way
  Simulation a(small_scene(), p);
  for (int i = 0; i < 4; ++i)
    a.step(p);
  // one that switches to cpu-openmp (double) half-way: same result to round-off
  Simulation b(small_scene(), p);
  b.step(p);
  b.step(p);
  SimParams q = p;
  q.kernel = "cpu-openmp";
  b.step(q);
  b.step(q);
  EXPECT_EQ(b.steps_done(), 40);
  EXPECT_NEAR(b.time(), 0.04, 1e-15);
  const Bodies& ba = a.bodies();
  const Bodies& bb = b.bodies();
  for (std::size_t i = 0; i < ba.size(); ++i) {
    EXPECT_NEAR(ba.x[i], bb.x[i], 1e-13);
    EXPECT_NEAR(ba.vy[i], bb.vy[i], 1e-12);
  }
}

TEST(Simulation, ResetRestoresInitialState) {
  SimParams p;
  p.kernel = "cpu-symmetric";
  p.dt = 1e-2;
  Simulation s(small_scene(), p);
  const double x0 = s.bodies().x[3];
  const double e0 = s.diagnostics(p).total;
  s.step(p);
  EXPECT_NE(s.bodies().x[3], x0);
  s.reset();
  EXPECT_EQ(s.bodies().x[3], x0);
  EXPECT_EQ(s.time(), 0);
  EXPECT_DOUBLE_EQ(s.diagnostics(p).total, e0);
}

TEST(Simulation, BadKernelKeepsOldBackend) {
  SimParams p;
  p.kernel = "cpu-openmp";
  Simulation s(small_scene(), p);
  SimParams bad = p;
  bad.kernel = "nope";
  EXPECT_THROW(s.set_backend(bad), Error);
  EXPECT_EQ(s.backend().info().name, "cpu-openmp");
  EXPECT_NO_THROW(s.step(p));
}

TEST(Simulation, RejectsEmptyScene) {
  Scene s;
  s.name = "empty";
  SimParams p;
  try {
    Simulation sim(s, p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "empty: no bodies (N = 0)");
  }
}
