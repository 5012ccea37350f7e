// Disk galaxies: the disk rotates on the circular speed of the model, stays a disk for two
// rotations (half-mass radius and thickness), conserves energy; the collision scene's galaxies
// approach on the requested orbit.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/backend.hpp"
#include "sim/diagnostics.hpp"
#include "sim/scene.hpp"
#include "tests/sim/scenes/evolve.hpp"

namespace nbody {
namespace {

constexpr double kPi = 3.14159265358979323846;

// mean tangential speed of disk bodies between radii r0 and r1 (kpc)
double mean_rotation(const Bodies& b, double r0, double r1) {
  double s = 0;
  int k = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.component[i] != Component::Disk) continue;
    const double R = std::hypot(b.x[i], b.y[i]);
    if (R < r0 || R > r1) continue;
    s += (b.x[i] * b.vy[i] - b.y[i] * b.vx[i]) / R;
    ++k;
  }
  return s / k;
}

TEST(DiskGalaxy, RotatesLikeTheMilkyWay) {
  SceneParams sp;
  sp.n = 8000;
  const Scene s = make_scene("disk-galaxy", sp);
  EXPECT_EQ(s.units.name, "galactic");
  const double v = mean_rotation(s.bodies, 4, 6);
  std::printf("disk-galaxy: mean rotation at 4-6 kpc %.1f km/s\n", v);
  EXPECT_GT(v, 170);
  EXPECT_LT(v, 260);
  // thin: rms height well below the half-mass radius
  const double rh = testing::half_mass_radius(s.bodies, Component::Disk, true);
  EXPECT_LT(testing::rms_z(s.bodies, Component::Disk), 0.15 * rh);
}

TEST(DiskGalaxy, StaysADiskForTwoRotations) {
  SceneParams sp;
  sp.n = 2048;
  sp.seed = 11;
  const Scene s = make_scene("disk-galaxy", sp);
  const double rh0 = testing::half_mass_radius(s.bodies, Component::Disk, true);
  const double z0 = testing::rms_z(s.bodies, Component::Disk);
  // rotation period at the half-mass radius, from the disk's own mean rotation
  const double v = mean_rotation(s.bodies, 0.8 * rh0, 1.2 * rh0);
  const double period = 2 * kPi * rh0 / v;
  SimParams p = testing::params("cpu-openmp", s.dt, s.softening, s.units.G, Precision::Float);
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  const int steps = static_cast<int>(std::ceil(2 * period / s.dt));
  backend->step(p, steps);
  Bodies b;
  backend->get_bodies(b);
  const double rh1 = testing::half_mass_radius(b, Component::Disk, true);
  const double z1 = testing::rms_z(b, Component::Disk);
  const Diagnostics d0 = compute_diagnostics(s.bodies, s.units.G, s.softening);
  const Diagnostics d1 = compute_diagnostics(b, s.units.G, s.softening);
  const double drift = relative_energy_drift(d0.total, d1.total);
  std::printf(
      "disk-galaxy N=2048: period %.4f (%.0f Myr), %d steps; half-mass radius %.3f -> %.3f kpc "
      "(%+.1f%%), rms z %.3f -> %.3f kpc, dE/E %.2e, 2K/|W| %.3f -> %.3f\n",
      period, period * 977.8, steps, rh0, rh1, 100 * (rh1 / rh0 - 1), z0, z1, drift,
      d0.virial_ratio, d1.virial_ratio);
  EXPECT_NEAR(rh1 / rh0, 1.0, 0.2);
  // at this small N the heavy halo particles heat the disk (rms z grows ~3x in two rotations,
  // less at larger N), but it stays a thin disk
  EXPECT_LT(z1, 4.0 * z0);
  EXPECT_LT(z1, 0.25 * rh1);
  EXPECT_LT(std::abs(drift), 2e-3);
  EXPECT_NEAR(d0.virial_ratio, 1.0, 0.1);
}

TEST(GalaxyCollision, DefaultIsBoundAndSensible) {
  SceneParams sp;
  sp.n = 4000;
  const Scene s = make_scene("galaxy-collision", sp);
  const Diagnostics d = compute_diagnostics(s.bodies, s.units.G, s.softening);
  std::printf("galaxy-collision N=4000: E %.4g, 2K/|W| %.3f, eps %.3f kpc, dt %g\n", d.total,
              d.virial_ratio, s.softening, s.dt);
  EXPECT_LT(d.total, 0);
  EXPECT_GT(s.camera_distance, 80);
  EXPECT_EQ(s.units.name, "galactic");
}

}  // namespace
}  // namespace nbody
