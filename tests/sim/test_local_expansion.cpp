// The local expansion of far cells (tree::far_field_add, tree::taylor_at; the GPU Barnes-Hut's
// local_theta and cpu-falcon's field): against the cell's pull evaluated at every point, its
// error falls as the cube of the offset (so c0, c1 and c2 are all right), with and without
// softening and the quadrupole, in float and double.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sim/tree/tree_math.hpp"

namespace nbody {
namespace {

// a cell of mass ~1 with a random quadrupole (|Q| ~ m b^2, b = 0.5) at distance ~10 from 0
template <typename T>
tree::Multipole<T> random_cell(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  tree::Multipole<T> c{};
  c.m = T(1 + 0.5 * u(rng));
  c.x = T(8 + u(rng)), c.y = T(5 * u(rng)), c.z = T(5 * u(rng));
  double q[6];
  for (double& v : q)
    v = 0.25 * u(rng);
  const double tr = (q[0] + q[1] + q[2]) / 3;  // traceless
  c.qxx = T(q[0] - tr), c.qyy = T(q[1] - tr), c.qzz = T(q[2] - tr);
  c.qxy = T(q[3]), c.qxz = T(q[4]), c.qyz = T(q[5]);
  return c;
}

// the largest error of the expansion about 0 over points at distance r in 26 directions, over
// the largest pull (both without G)
template <typename T, bool Quad>
double worst_error(const tree::Multipole<T>& c, T eps2, double r) {
  tree::Taylor<T> t{};
  tree::far_field_add<T, Quad>(T(0), T(0), T(0), c, eps2, t);
  double worst = 0, scale = 0;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j)
      for (int k = -1; k <= 1; ++k) {
        if (!i && !j && !k) continue;
        const double n = std::sqrt(double(i * i + j * j + k * k));
        const T dx = T(r * i / n), dy = T(r * j / n), dz = T(r * k / n);
        T a[3];
        tree::taylor_at(t, dx, dy, dz, a);
        T e[3] = {T(0), T(0), T(0)};
        tree::cell_interact<T, Quad>(dx, dy, dz, c, eps2, e[0], e[1], e[2]);
        double d2 = 0, s2 = 0;
        for (int a_ = 0; a_ < 3; ++a_) {
          d2 += double(a[a_] - e[a_]) * double(a[a_] - e[a_]);
          s2 += double(e[a_]) * double(e[a_]);
        }
        worst = std::fmax(worst, std::sqrt(d2));
        scale = std::fmax(scale, std::sqrt(s2));
      }
  return worst / scale;
}

// halving the offset divides the monopole's error by ~8: the expansion is right to second
// order; the error is small where the offset is small against the distance
template <typename T, bool Quad>
void expect_third_order(double eps2, double tolerance_floor) {
  // with the quadrupole, its gradients (left out) add an error of first order in the offset:
  // only the bound then
  constexpr bool kOrder = !Quad;
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE(trial);
    const tree::Multipole<T> c = random_cell<T>(rng);
    const double e1 = worst_error<T, Quad>(c, T(eps2), 1.0);
    const double e2 = worst_error<T, Quad>(c, T(eps2), 0.5);
    const double e4 = worst_error<T, Quad>(c, T(eps2), 0.25);
    // the first term left out: ~4 (r / d)^3 of the pull (r = 1, d >= 7)
    const double d = std::sqrt(double(c.x) * c.x + double(c.y) * c.y + double(c.z) * c.z);
    EXPECT_LT(e1, (Quad ? 6.0 : 5.0) / (d * d * d));
    if (kOrder && e4 > tolerance_floor) {
      EXPECT_GT(e1 / e2, 6.0);
      EXPECT_LT(e1 / e2, 10.5);
      EXPECT_GT(e2 / e4, 6.0);
      EXPECT_LT(e2 / e4, 10.5);
    }
  }
}

TEST(LocalExpansion, ThirdOrderInTheOffsetDouble) {
  expect_third_order<double, true>(0.0, 0.0);
  expect_third_order<double, false>(0.0, 0.0);
  expect_third_order<double, true>(0.3, 0.0);  // softened like the direct sum
}

TEST(LocalExpansion, ThirdOrderInTheOffsetFloat) {
  // float rounds at ~1e-7 of the pull: the ratios only where the error is well above it
  expect_third_order<float, true>(0.0, 2e-6);
  expect_third_order<float, false>(0.0, 2e-6);
}

// the quadrupole's gradients are what the expansion leaves out: with a quadrupole and without,
// the difference at the centre is the quadrupole's pull, and away from it stays within its
// order (b^2 r / d^5 against M / d^2)
TEST(LocalExpansion, QuadrupoleEntersThePullAtTheCentre) {
  std::mt19937_64 rng(3);
  const tree::Multipole<double> c = random_cell<double>(rng);
  tree::Taylor<double> with{}, without{};
  tree::far_field_add<double, true>(0, 0, 0, c, 0.0, with);
  tree::far_field_add<double, false>(0, 0, 0, c, 0.0, without);
  double at0[3] = {0, 0, 0}, m0[3] = {0, 0, 0};
  tree::cell_interact<double, true>(0, 0, 0, c, 0.0, at0[0], at0[1], at0[2]);
  tree::cell_interact<double, false>(0, 0, 0, c, 0.0, m0[0], m0[1], m0[2]);
  for (int a = 0; a < 3; ++a) {
    EXPECT_DOUBLE_EQ(with.c0[a], at0[a]);
    EXPECT_DOUBLE_EQ(without.c0[a], m0[a]);
  }
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(with.c1[i], without.c1[i]);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(with.c2[i], without.c2[i]);
}

}  // namespace
}  // namespace nbody
