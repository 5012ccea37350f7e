// Physics across backends: cpu-symmetric conserves linear momentum to round-off, and the float
// backends agree with the double-precision reference on random inputs.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "tests/sim/scenes/evolve.hpp"

namespace nbody {
namespace {

// n bodies with positions in a unit ball-ish cloud, small random velocities, masses in [0.5, 1.5]
Bodies random_bodies(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto u = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  Bodies b;
  for (std::size_t i = 0; i < n; ++i)
    b.add(2 * u() - 1, 2 * u() - 1, 2 * u() - 1, 0.2 * (u() - 0.5), 0.2 * (u() - 0.5),
          0.2 * (u() - 0.5), (0.5 + u()) / static_cast<double>(n));
  return b;
}

// |sum m v| relative to sum m |v|
double momentum_error(const Bodies& b, const std::array<double, 3>& p0) {
  double p[3] = {0, 0, 0}, scale = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    p[0] += b.m[i] * b.vx[i];
    p[1] += b.m[i] * b.vy[i];
    p[2] += b.m[i] * b.vz[i];
    scale += b.m[i] * std::hypot(b.vx[i], b.vy[i], b.vz[i]);
  }
  return std::hypot(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]) / scale;
}

TEST(Momentum, SymmetricConservesToRoundOff) {
  const Bodies b0 = random_bodies(1000, 5);
  std::array<double, 3> p0{};
  for (std::size_t i = 0; i < b0.size(); ++i) {
    p0[0] += b0.m[i] * b0.vx[i];
    p0[1] += b0.m[i] * b0.vy[i];
    p0[2] += b0.m[i] * b0.vz[i];
  }
  for (Precision prec : {Precision::Double, Precision::Float}) {
    SimParams p = testing::params("cpu-symmetric", 1e-3, 0.01, 1.0, prec);
    p.tunables["threads"] = 2;
    auto backend = make_backend(p);
    backend->set_bodies(b0);
    backend->step(p, 200);
    Bodies b;
    backend->get_bodies(b);
    const double err = momentum_error(b, p0);
    std::printf("cpu-symmetric %s: relative momentum change after 200 steps %.3e\n",
                precision_name(prec), err);
    EXPECT_LT(err, prec == Precision::Double ? 1e-13 : 1e-6) << precision_name(prec);
  }
}

TEST(Accuracy, FloatBackendsMatchReference) {
  for (std::size_t n : {1u, 2u, 31u, 257u, 1009u, 4096u}) {
    const Bodies b = random_bodies(n, 100 + n);
    std::vector<double> rx, ry, rz, ax, ay, az;
    SimParams ref = testing::params("cpu-reference", 1e-3, 0.01, 1.0);
    auto oracle = make_backend(ref);
    oracle->set_bodies(b);
    oracle->compute_accelerations(ref, rx, ry, rz);
    for (const char* kernel : {"cpu-openmp", "cpu-symmetric"}) {
      SimParams p = testing::params(kernel, 1e-3, 0.01, 1.0, Precision::Float);
      p.tunables["threads"] = 2;
      auto backend = make_backend(p);
      backend->set_bodies(b);
      backend->compute_accelerations(p, ax, ay, az);
      ASSERT_EQ(ax.size(), n);
      const AccelError e = acceleration_error(ax, ay, az, rx, ry, rz);
      std::printf("%-13s N=%5zu: normwise %.2e, max %.2e\n", kernel, n, e.normwise, e.max);
      if (n == 1) {
        EXPECT_EQ(ax[0], 0.0);
        EXPECT_EQ(ay[0], 0.0);
        EXPECT_EQ(az[0], 0.0);
      }
      EXPECT_LT(e.normwise, 1e-5) << kernel << " N=" << n;
    }
  }
}

TEST(Accuracy, ErrorMeasureDetectsWrongForces) {
  // the check can fail: forces with the wrong softening differ by far more than 1e-5
  const Bodies b = random_bodies(257, 9);
  std::vector<double> rx, ry, rz, ax, ay, az;
  SimParams ref = testing::params("cpu-reference", 1e-3, 0.01, 1.0);
  auto oracle = make_backend(ref);
  oracle->set_bodies(b);
  oracle->compute_accelerations(ref, rx, ry, rz);
  SimParams p = testing::params("cpu-openmp", 1e-3, 0.02, 1.0, Precision::Float);
  auto backend = make_backend(p);
  backend->set_bodies(b);
  backend->compute_accelerations(p, ax, ay, az);
  EXPECT_GT(acceleration_error(ax, ay, az, rx, ry, rz).normwise, 1e-5);
}

}  // namespace
}  // namespace nbody
