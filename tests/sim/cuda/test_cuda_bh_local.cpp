// The GPU Barnes-Hut kernel's far cells (tunable local_theta > 0: a cell far from a group acts
// through one local expansion about the group's centre, tree::far_field_add): against the
// double-precision direct sum on uniform and clustered bodies, awkward N and every group size
// (bodies per lane and lanes per body), deterministic, and refused without the quadrupole.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/cuda/bh_test_util.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

SimParams local_params(Precision pr, double theta, double local, int group = 64,
                       bool bmax = false) {
  SimParams p = bh_params(Config{pr, theta, 16, group, true, bmax});
  p.tunables["local_theta"] = local;
  return p;
}

// a uniform cube of 262,147 bodies: the far cells (geometric test) keep the error within a small
// factor of the same theta's, less for a smaller local_theta, for less work
TEST(BarnesHutLocal, AccurateOnUniformBodies) {
  NBODY_REQUIRE_GPU();
  const Bodies b = random_bodies(262147, 11);
  const auto idx = sample_indices(b.size(), 2048);
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    SCOPED_TRACE(precision_name(pr));
    const Outcome off = outcome_of(b, local_params(pr, 0.55, 0, 64, true), idx);
    const Outcome wide = outcome_of(b, local_params(pr, 0.55, 0.45, 64, true), idx);
    const Outcome tight = outcome_of(b, local_params(pr, 0.55, 0.25, 64, true), idx);
    for (const auto& [name, r] : {std::pair{"off", off}, std::pair{"local_theta 0.45", wide},
                                  std::pair{"local_theta 0.25", tight}})
      std::printf("%-6s cube 262147 %-17s median %.2e p99 %.2e  %.0f work/body\n",
                  precision_name(pr), name, r.e.median, r.e.p99, r.per_body);
    EXPECT_TRUE(wide.e.finite && tight.e.finite);
    EXPECT_LE(wide.e.median, 2.5 * off.e.median);
    EXPECT_LE(wide.e.p99, 2.5 * off.e.p99);
    EXPECT_LE(tight.e.median, 1.5 * off.e.median);
    EXPECT_LE(tight.e.median, wide.e.median);
    EXPECT_LT(wide.per_body, tight.per_body);
    EXPECT_LT(tight.per_body, off.per_body);
  }
}

// a Plummer sphere with the relative opening (theta 1, alpha 0.003): the far cells also pass
// the relative test of their expansion, so the error stays close to the relative opening's
// without them (the geometric test alone would let a halo group expand the core's pull)
TEST(BarnesHutLocal, AccurateOnClusteredBodiesWithTheRelativeOpening) {
  NBODY_REQUIRE_GPU();
  const Bodies b = plummer(262147);
  const auto idx = sample_indices(b.size(), 2048);
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    SCOPED_TRACE(precision_name(pr));
    Outcome r[3];
    const double locals[3] = {0, 0.6, 1.0};
    for (int k = 0; k < 3; ++k) {
      SimParams p = local_params(pr, 1.0, locals[k], 64, true);
      p.tunables["alpha"] = 0.003;
      r[k] = outcome_of(b, p, idx);
      std::printf(
          "%-6s plummer 262147 alpha 0.003 local_theta %.1f median %.2e p99 %.2e  %.0f "
          "work/body\n",
          precision_name(pr), locals[k], r[k].e.median, r[k].e.p99, r[k].per_body);
    }
    for (int k = 1; k < 3; ++k) {
      EXPECT_TRUE(r[k].e.finite);
      EXPECT_LE(r[k].e.median, 1.6 * r[0].e.median);
      EXPECT_LE(r[k].e.p99, 1.5 * r[0].e.p99);
      EXPECT_LT(r[k].per_body, r[0].per_body);
    }
  }
}

// awkward N (one body, fewer than a warp, primes), every group size, half the bodies massless:
// finite and within a small factor of the kernel without far cells, for the geometric test on
// uniform bodies and the relative one on clustered bodies above 1,000 (the geometric test alone
// lets a sparse group expand a dense core's pull: its p99 error then grows up to 7x at these N)
TEST(BarnesHutLocal, AwkwardSizesAndGroups) {
  NBODY_REQUIRE_GPU();
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    const double floor = pr == Precision::Float ? 1e-6 : 1e-12;
    for (const int group : {8, 16, 32, 40, 64}) {
      for (const std::size_t n : {1, 2, 31, 257, 1009, 4099, 20011}) {
        for (const bool massless : {false, true}) {
          for (const bool relative : {false, true}) {
            SCOPED_TRACE(std::string(precision_name(pr)) + " group " + std::to_string(group) +
                         " N " + std::to_string(n) + (massless ? " half massless" : "") +
                         (relative ? " relative" : " geometric"));
            Bodies b = relative && n > 1000 ? plummer(n, 3 + n) : random_bodies(n, 5 + unsigned(n));
            if (massless)
              for (std::size_t i = 0; i < n; i += 2)
                b.m[i] = 0;
            const auto idx = check_indices(n);
            SimParams on = local_params(pr, relative ? 1.0 : 0.6, relative ? 1.0 : 0.3, group);
            SimParams off = local_params(pr, relative ? 1.0 : 0.6, 0, group);
            on.tunables["alpha"] = off.tunables["alpha"] = relative ? 0.003 : 0;
            const Outcome r = outcome_of(b, on, idx), o = outcome_of(b, off, idx);
            EXPECT_TRUE(r.e.finite);
            EXPECT_LE(r.e.median, 3 * o.e.median + floor);
            EXPECT_LE(r.e.p99, 3 * o.e.p99 + floor);
          }
        }
      }
    }
  }
}

// the same bodies twice, and in a fresh backend: the same bits (the warp's sums of the
// expansions in a fixed order)
TEST(BarnesHutLocal, Deterministic) {
  NBODY_REQUIRE_GPU();
  const Bodies b = plummer(50021);
  const SimParams p = local_params(Precision::Float, 0.6, 0.5, 64, true);
  auto one = make_backend(p), two = make_backend(p);
  one->set_bodies(b);
  two->set_bodies(b);
  const Accel a1 = accelerations(*one, p), a2 = accelerations(*one, p), a3 = accelerations(*two, p);
  for (std::size_t i = 0; i < b.size(); ++i) {
    ASSERT_EQ(a1.x[i], a2.x[i]) << i;
    ASSERT_EQ(a1.y[i], a3.y[i]) << i;
    ASSERT_EQ(a1.z[i], a3.z[i]) << i;
  }
}

// far cells expand from the quadrupole: without it the parameters are refused, before any
// device is touched
TEST(BarnesHutLocal, NeedsTheQuadrupole) {
  SimParams p = local_params(Precision::Float, 0.6, 0.5);
  p.tunables["quadrupole"] = 0;
  try {
    validate_kernel_params(p);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("local_theta"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("quadrupole"), std::string::npos) << e.what();
  }
}

}  // namespace
