#include "sim/analysis/diagnostics.hpp"

#include <cmath>

#include <gtest/gtest.h>

using namespace nbody;

TEST(Diagnostics, TwoBodyKnownValues) {
  Bodies b;
  b.add(-1, 0, 0, 0, -0.5, 0, 1);
  b.add(1, 0, 0, 0, 0.5, 0, 1);
  const Diagnostics d = compute_diagnostics(b, 1.0, 0.0);
  EXPECT_DOUBLE_EQ(d.kinetic, 0.25);
  EXPECT_DOUBLE_EQ(d.potential, -0.5);
  EXPECT_DOUBLE_EQ(d.total, -0.25);
  EXPECT_DOUBLE_EQ(d.virial_ratio, 1.0);
  EXPECT_DOUBLE_EQ(d.momentum[1], 0);
  // L_z = sum m (x vy - y vx) = 0.5 + 0.5
  EXPECT_DOUBLE_EQ(d.angular_momentum[2], 1.0);
  EXPECT_DOUBLE_EQ(d.mass, 2);
  EXPECT_TRUE(d.finite);
}

TEST(Diagnostics, SofteningEntersPotential) {
  Bodies b;
  b.add(0, 0, 0, 0, 0, 0, 2);
  b.add(3, 0, 0, 0, 0, 0, 5);
  const Diagnostics d = compute_diagnostics(b, 2.0, 4.0);
  EXPECT_DOUBLE_EQ(d.potential, -2.0 * 2 * 5 / 5.0);
}

TEST(Diagnostics, PotentialMatchesPairSumForOddAndEvenN) {
  for (int n : {1, 2, 3, 7, 10}) {
    Bodies b;
    for (int i = 0; i < n; ++i)
      b.add(i * 0.7, std::sin(i), std::cos(2 * i), 0, 0, 0, 1 + i);
    double w = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        const double dx = b.x[i] - b.x[j], dy = b.y[i] - b.y[j], dz = b.z[i] - b.z[j];
        w -= b.m[i] * b.m[j] / std::sqrt(dx * dx + dy * dy + dz * dz + 0.01);
      }
    EXPECT_NEAR(compute_diagnostics(b, 1.0, 0.1).potential, w, 1e-12 * std::fabs(w)) << n;
  }
}

TEST(Diagnostics, NonFiniteFlagged) {
  Bodies b;
  b.add(NAN, 0, 0, 0, 0, 0, 1);
  b.add(1, 0, 0, 0, 0, 0, 1);
  EXPECT_FALSE(compute_diagnostics(b, 1.0, 0.1).finite);
}

TEST(Diagnostics, RelativeDrift) {
  EXPECT_NEAR(relative_energy_drift(-2.0, -2.2), -0.1, 1e-15);
  EXPECT_DOUBLE_EQ(relative_energy_drift(0.0, 0.5), 0.5);
}
