// Physics: a Plummer sphere (N = 1024, ε = 0.05, dt = 1/128) integrated to t = 10 on the
// double-precision reference backend conserves energy to |ΔE/E| < 1e-5; it starts in virial
// equilibrium.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "tests/sim/scenes/evolve.hpp"

namespace nbody {
namespace {

Scene plummer(std::size_t n, std::uint64_t seed) {
  return testing::generated_scene("plummer", n, seed);
}

TEST(Plummer, VirialEquilibriumAtStart) {
  const Scene s = plummer(1024, 1);
  const Diagnostics d = compute_diagnostics(s.bodies, 1.0, 0.05);
  std::printf("plummer N=1024: 2K/|W| = %.4f, E = %.4f\n", d.virial_ratio, d.total);
  EXPECT_NEAR(d.virial_ratio, 1.0, 0.1);
  EXPECT_NEAR(d.total, -0.25, 0.025);
}

TEST(Plummer, EnergyConservedToTimeTen) {
  const Scene s = plummer(1024, 1);
  const double eps = 0.05, dt = 1.0 / 128;
  const SimParams p = testing::params("cpu-reference", dt, eps, 1.0);
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  const double e0 = compute_diagnostics(s.bodies, 1.0, eps).total;
  Bodies b;
  double worst = 0;
  for (int k = 0; k < 10; ++k) {  // 10 x 128 steps
    backend->step(p, 128);
    backend->get_bodies(b);
    const Diagnostics d = compute_diagnostics(b, 1.0, eps);
    ASSERT_TRUE(d.finite);
    worst = std::max(worst, std::abs(relative_energy_drift(e0, d.total)));
  }
  const Diagnostics d = compute_diagnostics(b, 1.0, eps);
  std::printf("plummer N=1024 t=10: max |dE/E| = %.3e, final 2K/|W| = %.3f\n", worst,
              d.virial_ratio);
  EXPECT_LT(worst, 1e-5);
  EXPECT_NEAR(d.virial_ratio, 1.0, 0.15);  // still in equilibrium
}

}  // namespace
}  // namespace nbody
