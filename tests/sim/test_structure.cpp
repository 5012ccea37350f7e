// Structure diagnostics against analytic cases: Lagrangian radii of a uniform sphere and of
// shells (by mass, by number when massless), the spin axis, thickness and half radius of a
// tilted thin disk (sech² and uniform slab), v/σ of a ring with known dispersions, groups.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sim/analysis/structure.hpp"
#include "sim/core/error.hpp"

namespace nbody {
namespace {

constexpr double kPi = 3.14159265358979323846;
using V3 = std::array<double, 3>;

V3 rotate_x(const V3& v, double a) {
  return {v[0], std::cos(a) * v[1] - std::sin(a) * v[2], std::sin(a) * v[1] + std::cos(a) * v[2]};
}
V3 rotate_z(const V3& v, double a) {
  return {std::cos(a) * v[0] - std::sin(a) * v[1], std::sin(a) * v[0] + std::cos(a) * v[1], v[2]};
}

// uniform sphere of radius `r` about `c`, `n` bodies of mass `m`, at rest
Bodies uniform_sphere(std::size_t n, double r, const V3& c, double m, unsigned seed,
                      Component comp = Component::Star) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Bodies b;
  while (b.size() < n) {
    const double x = u(rng), y = u(rng), z = u(rng);
    if (x * x + y * y + z * z > 1) continue;
    b.add(c[0] + r * x, c[1] + r * y, c[2] + r * z, 0, 0, 0, m, comp);
  }
  return b;
}

// thin disk: area-uniform in R in [1, 5], circular speed 1, heights from `height(u)` for uniform
// u; tilted by `tilt` about x, then `azimuth` about z, then shifted by x0 and v0
Bodies tilted_disk(std::size_t n, double tilt, double azimuth, const V3& x0, const V3& v0,
                   double (*height)(double), unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Bodies b;
  for (std::size_t i = 0; i < n; ++i) {
    const double R = std::sqrt(1 + 24 * u(rng)), ph = 2 * kPi * u(rng), z = height(u(rng));
    const V3 p = rotate_z(rotate_x({R * std::cos(ph), R * std::sin(ph), z}, tilt), azimuth);
    const V3 v = rotate_z(rotate_x({-std::sin(ph), std::cos(ph), 0}, tilt), azimuth);
    b.add(p[0] + x0[0], p[1] + x0[1], p[2] + x0[2], v[0] + v0[0], v[1] + v0[1], v[2] + v0[2], 1.0,
          Component::Disk);
  }
  return b;
}

TEST(Structure, UniformSphereLagrangianRadii) {
  const V3 c{1, -2, 3};
  const Bodies b = uniform_sphere(40000, 2.0, c, 0.5, 1);
  const auto s = measure_structure(b, {});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "all");
  EXPECT_EQ(s[0].bodies, 40000u);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(s[0].centre[k], c[k], 0.02);
  // r_f = R f^(1/3)
  for (std::size_t f = 0; f < kLagrangianFractions.size(); ++f)
    EXPECT_NEAR(s[0].lagrangian[f], 2.0 * std::cbrt(kLagrangianFractions[f]), 0.015)
        << "fraction " << kLagrangianFractions[f];
  // no disk bodies: the disk quantities do not apply
  EXPECT_EQ(s[0].disk_bodies, 0u);
  EXPECT_TRUE(std::isnan(s[0].disk_thickness));
  EXPECT_TRUE(std::isnan(s[0].disk_half_radius));
  EXPECT_TRUE(std::isnan(s[0].v_over_sigma));
  EXPECT_TRUE(std::isnan(s[0].spin_axis[0]));
}

// two shells about the origin: 1000 bodies of mass 3 at r = 1, 1000 of mass 1 at r = 2
Bodies two_shells(double inner_mass, double outer_mass) {
  Bodies b;
  for (int i = 0; i < 2000; ++i) {
    const double r = i < 1000 ? 1.0 : 2.0, ph = 2 * kPi * (i % 1000) / 1000.0;
    // pairs of opposite points keep the centre at the origin
    const double sgn = i % 2 ? 1.0 : -1.0;
    b.add(sgn * r * std::cos(ph), sgn * r * std::sin(ph), 0, 0, 0, 0,
          i < 1000 ? inner_mass : outer_mass);
  }
  return b;
}

TEST(Structure, LagrangianRadiiByMassAndByNumberWhenMassless) {
  // by mass: the inner shell holds 75 % of the mass
  const auto heavy = measure_structure(two_shells(3, 1), {});
  const double by_mass[5] = {1, 1, 1, 1, 2};
  for (int f = 0; f < 5; ++f)
    EXPECT_DOUBLE_EQ(heavy[0].lagrangian[f], by_mass[f]) << f;
  // massless: by number, the inner shell holds half of the bodies
  const auto massless = measure_structure(two_shells(0, 0), {});
  const double by_number[5] = {1, 1, 1, 2, 2};
  for (int f = 0; f < 5; ++f)
    EXPECT_DOUBLE_EQ(massless[0].lagrangian[f], by_number[f]) << f;
  EXPECT_NEAR(massless[0].centre[0], 0, 1e-12);
}

double sech2_height(double u) {
  return 0.1 * std::atanh(2 * u - 1);  // p(z) ~ sech²(z / 0.1)
}
double slab_height(double u) {
  return 0.3 * (2 * u - 1);  // uniform in [-0.3, 0.3]
}

TEST(Structure, TiltedThinDiskSpinThicknessAndRadius) {
  const double tilt = 30 * kPi / 180, azimuth = 40 * kPi / 180;
  const V3 x0{5, -3, 2}, v0{100, 20, -50};
  Bodies b = tilted_disk(40000, tilt, azimuth, x0, v0, sech2_height, 2);
  // a heavy hot sphere about the same centre changes nothing of the disk's numbers
  Bodies halo = uniform_sphere(5000, 10, x0, 50, 3, Component::Dark);
  std::mt19937_64 rng(4);
  std::normal_distribution<double> g(0, 3);
  for (std::size_t i = 0; i < halo.size(); ++i) {
    halo.vx[i] = v0[0] + g(rng), halo.vy[i] = v0[1] + g(rng), halo.vz[i] = v0[2] + g(rng);
  }
  b.append(halo);
  const auto s = measure_structure(b, {});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].disk_bodies, 40000u);
  const V3 axis = rotate_z(rotate_x({0, 0, 1}, tilt), azimuth);
  EXPECT_LT(tilt_degrees(s[0].spin_axis, axis), 0.2);
  EXPECT_NEAR(tilt_degrees(s[0].spin_axis, {0, 0, 1}), 30, 0.2);
  EXPECT_NEAR(
      std::sqrt(s[0].spin_axis[0] * s[0].spin_axis[0] + s[0].spin_axis[1] * s[0].spin_axis[1] +
                s[0].spin_axis[2] * s[0].spin_axis[2]),
      1, 1e-12);
  // sech²: P(|z| < t) = tanh(t / z0), so the median |z| is z0 atanh(1/2)
  EXPECT_NEAR(s[0].disk_thickness, 0.1 * std::atanh(0.5), 0.003);
  // area-uniform in [1, 5]: R² uniform in [1, 25], median sqrt(13)
  EXPECT_NEAR(s[0].disk_half_radius, std::sqrt(13.0), 0.03);
  // circular speed 1 and no dispersion: v/σ only limited by the sampled disk's own small mean
  // velocity and centre offset (~1/sqrt(N))
  EXPECT_GT(s[0].v_over_sigma, 100);

  // uniform slab of half-thickness 0.3: median |z| 0.15
  const auto slab =
      measure_structure(tilted_disk(40000, tilt, azimuth, x0, v0, slab_height, 5), {});
  EXPECT_NEAR(slab[0].disk_thickness, 0.15, 0.004);
  EXPECT_LT(tilt_degrees(slab[0].spin_axis, axis), 0.3);
}

TEST(Structure, RingWithKnownDispersionHasKnownVOverSigma) {
  // ring of radius 2, rotation 10, each velocity component off by +-s in independent patterns
  // (mean 0, variance s²); a body and its opposite share the pattern, so the spin stays on z
  const int n = 4000, half = n / 2;
  const double v0 = 10, sd = 1.25;
  Bodies b;
  for (int k = 0; k < n; ++k) {
    const int j = k % half;
    const double ph = 2 * kPi * k / n;
    const double dr = (j % 2 ? sd : -sd), dp = ((j / 2) % 2 ? sd : -sd),
                 dz = ((j / 4) % 2 ? sd : -sd);
    const double vr = dr, vp = v0 + dp;
    const V3 v = rotate_x(
        {vr * std::cos(ph) - vp * std::sin(ph), vr * std::sin(ph) + vp * std::cos(ph), dz}, 0.5);
    const V3 p = rotate_x({2 * std::cos(ph), 2 * std::sin(ph), 0}, 0.5);
    b.add(p[0] + 7, p[1], p[2] - 1, v[0] - 30, v[1], v[2] + 4, 2.0, Component::Disk);
  }
  const auto s = measure_structure(b, {});
  EXPECT_NEAR(s[0].v_over_sigma, v0 / sd, 1e-9);
  EXPECT_NEAR(s[0].disk_thickness, 0, 1e-12);
  EXPECT_NEAR(s[0].disk_half_radius, 2, 1e-12);
  EXPECT_NEAR(tilt_degrees(s[0].spin_axis, rotate_x({0, 0, 1}, 0.5)), 0, 1e-6);
  EXPECT_NEAR(s[0].lagrangian[2], 2, 1e-12);
}

TEST(Structure, GroupsAreMeasuredApart) {
  Bodies b = uniform_sphere(2000, 1.0, {-10, 0, 0}, 1, 6);
  const Bodies d = tilted_disk(3000, 0.0, 0.0, {10, 0, 0}, {0, 0, 0}, slab_height, 7);
  b.append(d);
  const auto s = measure_structure(b, {{"galaxy 1", 0, 2000}, {"galaxy 2", 2000, 5000}});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "galaxy 1");
  EXPECT_EQ(s[1].name, "galaxy 2");
  EXPECT_EQ(s[0].bodies, 2000u);
  EXPECT_EQ(s[1].bodies, 3000u);
  EXPECT_NEAR(s[0].centre[0], -10, 0.05);
  EXPECT_NEAR(s[1].centre[0], 10, 0.1);
  EXPECT_NEAR(s[0].lagrangian[2], std::cbrt(0.5), 0.03);
  EXPECT_EQ(s[0].disk_bodies, 0u);
  EXPECT_TRUE(std::isnan(s[0].disk_thickness));
  EXPECT_EQ(s[1].disk_bodies, 3000u);
  EXPECT_NEAR(s[1].disk_thickness, 0.15, 0.01);
  EXPECT_LT(tilt_degrees(s[1].spin_axis, {0, 0, 1}), 0.5);
  // an empty group has NaN radii; ranges outside the bodies are refused
  const auto e = measure_structure(b, {{"empty", 3, 3}});
  EXPECT_EQ(e[0].bodies, 0u);
  EXPECT_TRUE(std::isnan(e[0].lagrangian[0]));
  EXPECT_TRUE(std::isnan(e[0].disk_thickness));
  EXPECT_THROW(measure_structure(b, {{"too far", 0, 5001}}), Error);
  EXPECT_THROW(measure_structure(b, {{"backwards", 10, 5}}), Error);
}

TEST(Structure, TiltDegrees) {
  EXPECT_NEAR(tilt_degrees({1, 0, 0}, {0, 1, 0}), 90, 1e-12);
  EXPECT_NEAR(tilt_degrees({0, 0, 1}, {0, 0, 2}), 0, 1e-12);
  EXPECT_NEAR(tilt_degrees({0, 0, 1}, {0, 0, -1}), 180, 1e-12);
  EXPECT_NEAR(tilt_degrees({1, 0, 0}, {1, 1e-8, 0}), 1e-8 * 180 / kPi, 1e-15);
}

}  // namespace
}  // namespace nbody
