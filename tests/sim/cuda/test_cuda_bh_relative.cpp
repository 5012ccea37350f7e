// The GPU Barnes-Hut kernel's relative opening (tunable alpha > 0, tree::relative_opening_size):
// against the double-precision direct sum on clustered and awkward inputs, every group size
// (bodies per lane and lanes per body), and as a pure function of the positions.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/backend.hpp"
#include "sim/cuda/barnes_hut.hpp"
#include "tests/sim/cuda/bh_test_util.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

SimParams relative_params(Precision pr, double theta, double alpha, int group = 64) {
  SimParams p = bh_params(Config{pr, theta, 16, group, true});
  p.tunables["alpha"] = alpha;
  return p;
}

// On a Plummer sphere: theta 1 with alpha 0.003 is as accurate as the default theta 0.55 with
// fewer interactions (the first pass's included); without alpha theta 1 is far less accurate
// (so the relative test is what holds the error); a smaller alpha is more accurate.
TEST(BarnesHutRelative, FewerInteractionsWithinTheBound) {
  NBODY_REQUIRE_GPU();
  const Bodies b = plummer(65537);
  const auto idx = sample_indices(b.size(), 2048);
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    SCOPED_TRACE(precision_name(pr));
    const Outcome geo = outcome_of(b, relative_params(pr, 0.55, 0), idx);
    const Outcome loose = outcome_of(b, relative_params(pr, 1.0, 0), idx);
    const Outcome rel = outcome_of(b, relative_params(pr, 1.0, 0.003), idx);
    const Outcome tight = outcome_of(b, relative_params(pr, 1.0, 0.001), idx);
    for (const auto& [name, r] :
         {std::pair{"theta 0.55", geo}, std::pair{"theta 1", loose},
          std::pair{"theta 1 alpha 0.003", rel}, std::pair{"theta 1 alpha 0.001", tight}})
      std::printf("%-6s %-20s median %.2e p99 %.2e  %.0f int/body\n", precision_name(pr), name,
                  r.e.median, r.e.p99, r.per_body);
    EXPECT_TRUE(rel.e.finite && tight.e.finite);
    EXPECT_LE(rel.e.median, 3e-4);
    EXPECT_LE(rel.e.p99, 2.5e-3);
    EXPECT_LT(rel.per_body, 0.8 * geo.per_body);
    EXPECT_GT(loose.e.median, 4 * rel.e.median);
    EXPECT_LT(tight.e.median, rel.e.median);
    EXPECT_GT(tight.per_body, rel.per_body);
  }
}

// awkward N (one body, fewer than a warp, primes), every group size (the first pass's weakest
// pull over lanes that share bodies), and half the bodies massless (groups whose weakest pull is
// 0, cells that pull on nothing): finite, within bounds of the direct sum, and well below theta 1
// without alpha wherever that one is not exact
TEST(BarnesHutRelative, AwkwardSizesAndGroups) {
  NBODY_REQUIRE_GPU();
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    for (const int group : {8, 16, 32, 64}) {
      for (const std::size_t n : {1, 2, 31, 257, 1009, 4099}) {
        for (const bool massless : {false, true}) {
          SCOPED_TRACE(std::string(precision_name(pr)) + " group " + std::to_string(group) + " N " +
                       std::to_string(n) + (massless ? " half massless" : ""));
          Bodies b = n > 1000 ? plummer(n, 3 + n) : random_bodies(n, 5 + unsigned(n));
          if (massless)
            for (std::size_t i = 0; i < n; i += 2)
              b.m[i] = 0;
          const auto idx = check_indices(n);
          const Outcome r = outcome_of(b, relative_params(pr, 1.0, 0.003, group), idx);
          const Outcome loose = outcome_of(b, relative_params(pr, 1.0, 0, group), idx);
          EXPECT_TRUE(r.e.finite);
          EXPECT_LE(r.e.median, 6e-4);
          EXPECT_LE(r.e.p99, 4e-3);
          if (loose.e.median > 1e-5) {
            EXPECT_LT(r.e.median, 0.5 * loose.e.median);
          }
        }
      }
    }
  }
}

// the centre of a uniform cube, where the pulls cancel: the relative test alone would open
// almost every cell for the group there (a near-direct sum on one warp); bounded by the strict
// geometric radius, no group walks more than a few times the default theta's worst
std::uint64_t worst_group(const ForceBackend& bh) {
  cuda::BarnesHutTree t;
  EXPECT_TRUE(cuda::download_barnes_hut_tree(bh, t));
  return t.group_work.empty() ? 0 : *std::max_element(t.group_work.begin(), t.group_work.end());
}

TEST(BarnesHutRelative, CancellingPullsStayBounded) {
  NBODY_REQUIRE_GPU();
  const std::size_t n = 262147;
  Bodies b = random_bodies(n, 31);
  // one group's worth of bodies about the centre
  for (std::size_t i = 0; i < 64; ++i) {
    b.x[i] = 1e-3 * std::cos(double(i));
    b.y[i] = 1e-3 * std::sin(double(i));
    b.z[i] = 1e-3 * (double(i) / 64 - 0.5);
  }
  std::uint64_t worst[2];
  for (const bool rel : {false, true}) {
    const SimParams p = relative_params(Precision::Float, rel ? 1.0 : 0.55, rel ? 0.003 : 0);
    auto bh = make_backend(p);
    bh->set_bodies(b);
    (void)accelerations(*bh, p);
    worst[rel] = worst_group(*bh);
  }
  std::printf("worst group: theta 0.55 %llu, theta 1 alpha 0.003 %llu interactions\n",
              static_cast<unsigned long long>(worst[0]), static_cast<unsigned long long>(worst[1]));
  EXPECT_GT(worst[0], 0u);
  EXPECT_LT(worst[1], 4 * worst[0]);
}

// the forces depend on the positions alone: the same backend twice, and a fresh one that has
// seen other bodies first, give the same bits
TEST(BarnesHutRelative, PureFunctionOfThePositions) {
  NBODY_REQUIRE_GPU();
  const Bodies b = plummer(20011), other = plummer(30011, 9);
  const SimParams p = relative_params(Precision::Float, 1.0, 0.003);
  auto one = make_backend(p), two = make_backend(p);
  one->set_bodies(b);
  const Accel a1 = accelerations(*one, p), a2 = accelerations(*one, p);
  two->set_bodies(other);
  (void)accelerations(*two, p);
  two->set_bodies(b);
  const Accel a3 = accelerations(*two, p);
  EXPECT_TRUE(a1.x == a2.x && a1.y == a2.y && a1.z == a2.z);
  EXPECT_TRUE(a1.x == a3.x && a1.y == a3.y && a1.z == a3.z);
}

}  // namespace
