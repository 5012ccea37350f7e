// The GPU Barnes-Hut kernel's refits (tunable rebuild > 1: between builds the last tree keeps its
// structure, its moments are computed again where the bodies are, and each cell is widened by how
// far its bodies drifted out of it): against the double-precision direct sum after small and large
// drifts, on awkward N, bitwise from run to run and however the steps are batched, the energy drift
// they cost on a Plummer sphere over 1,000 steps, and the tunable's range.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/cuda/bh_test_util.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

SimParams refit_params(Precision pr, int rebuild, double theta = 0.55) {
  SimParams p = bh_params(Config{pr, theta, 16, 64, true, false});
  p.tunables["rebuild"] = rebuild;
  return p;
}

// the bodies drifted ballistically (G tiny) by `dt` x 3 steps on a backend of `rebuild`, then
// its accelerations at G = 1: with rebuild 16 the last three evaluations and this one refit
struct Drifted {
  Bodies held;
  Outcome o;
};
Drifted drift_then_evaluate(const Bodies& start, const SimParams& p, double dt) {
  SimParams move = p;
  move.G = 1e-12;
  move.dt = dt;
  auto bh = make_backend(p);
  bh->set_bodies(start);
  bh->step(move, 3);
  Drifted d;
  const Accel a = accelerations(*bh, p);
  d.held = held_bodies(*bh);
  d.o.e = errors_at(a, d.held, sample_indices(start.size(), 2048), p.G, p.softening);
  d.o.per_body = bh->last_work().interactions / double(start.size());
  return d;
}

// A refitted tree is as accurate as a tree built on the same bodies: after a drift of about a
// thousandth of a leaf cell (the time step of a simulation) with about the same work, after one
// of several leaf cells with more (its cells widened), and no more work than the direct sum
TEST(BarnesHutRefit, AsAccurateAsABuildAfterSmallAndLargeDrifts) {
  NBODY_REQUIRE_GPU();
  const std::size_t n = 100003;
  const Bodies start = random_bodies(n, 21);  // speeds up to ~0.17, leaf cells ~0.09 wide
  for (const Precision pr : {Precision::Float, Precision::Double})
    for (const double dt : {1e-3, 0.3}) {
      const std::string what = std::string(precision_name(pr)) + " dt " + std::to_string(dt);
      const Drifted d = drift_then_evaluate(start, refit_params(pr, 16), dt);
      const Outcome built =
          outcome_of(d.held, refit_params(pr, 1), sample_indices(start.size(), 2048));
      std::printf(
          "%-6s cube %zu drift dt %.0e x 3: refit median %.2e p99 %.2e %.0f work/body; "
          "built median %.2e p99 %.2e %.0f work/body\n",
          precision_name(pr), n, dt, d.o.e.median, d.o.e.p99, d.o.per_body, built.e.median,
          built.e.p99, built.per_body);
      ASSERT_TRUE(d.o.e.finite) << what;
      EXPECT_LE(d.o.e.median, 1.2 * built.e.median) << what;
      EXPECT_LE(d.o.e.p99, 1.3 * built.e.p99) << what;
      EXPECT_LE(d.o.e.max, 2.0 * built.e.max + 1e-6) << what;
      EXPECT_LT(d.o.per_body, static_cast<double>(n)) << what;
      if (dt < 0.01)
        EXPECT_LT(d.o.per_body, 1.05 * built.per_body) << what;
      else  // bodies ~1.5 leaf cells out of their cells: the widened cells open sooner
        EXPECT_GT(d.o.per_body, 1.3 * built.per_body) << what;
    }
}

// awkward N (one body, primes, 2^k + 1) and every group size: refits within the direct sum's
// tolerance of a build
TEST(BarnesHutRefit, AwkwardSizesAndGroups) {
  NBODY_REQUIRE_GPU();
  for (const std::size_t n : {1u, 2u, 31u, 257u, 4099u})
    for (const int group : {8, 16, 32, 64}) {
      SimParams p = refit_params(Precision::Float, 4);
      p.tunables["group_size"] = group;
      const Bodies b = random_bodies(n, 40 + static_cast<unsigned>(n));
      auto bh = make_backend(p);
      bh->set_bodies(b);
      bh->step(p, 2);  // a build, two refits, and a third one below
      const Accel a = accelerations(*bh, p);
      const Errors e = errors_at(a, held_bodies(*bh), check_indices(n), p.G, p.softening);
      const std::string what = "n " + std::to_string(n) + " group " + std::to_string(group);
      ASSERT_TRUE(e.finite) << what;
      EXPECT_LT(e.median, 1e-3) << what;
      EXPECT_LT(e.max, 2e-2) << what;
    }
}

// two runs bitwise alike, and 12 steps in one call as in calls of 5 and 7 (the evaluations since
// the last build are counted across calls)
TEST(BarnesHutRefit, DeterministicAndTheSameInBatches) {
  NBODY_REQUIRE_GPU();
  const Bodies start = plummer(30011);
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    const SimParams p = refit_params(pr, 4);
    Bodies out[3];
    for (int r = 0; r < 3; ++r) {
      auto bh = make_backend(p);
      bh->set_bodies(start);
      if (r < 2) {
        bh->step(p, 12);
      } else {
        bh->step(p, 5);
        bh->step(p, 7);
      }
      bh->get_bodies(out[r]);
    }
    for (int r = 1; r < 3; ++r)
      for (std::size_t i = 0; i < start.size(); ++i) {
        ASSERT_EQ(out[0].x[i], out[r].x[i]) << precision_name(pr) << " run " << r << " " << i;
        ASSERT_EQ(out[0].vz[i], out[r].vz[i]) << precision_name(pr) << " run " << r << " " << i;
      }
  }
}

// energy over 1,000 steps of a Plummer sphere (theta 0.3): the price of refits. A build every
// evaluation makes the forces a function of the positions alone, and the leapfrog's energy error
// stays bounded; refitted trees (and how far their cells have widened) depend on when the tree
// was built, and the energy drifts secularly: measured 3.1e-5 against 7.4e-7 on an H100. Kept
// within that (it must not grow unnoticed), and the build every evaluation within 2e-6
TEST(BarnesHutRefit, EnergyDriftIsThePrice) {
  NBODY_REQUIRE_GPU();
  double drift[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    drift[k] = plummer_energy_drift(refit_params(Precision::Float, k == 0 ? 1 : 4, 0.3));
    std::printf("energy drift, 1000 steps, N = 32768, theta 0.3, rebuild %d: %.3e\n",
                k == 0 ? 1 : 4, drift[k]);
  }
  EXPECT_LT(drift[0], 2e-6);
  EXPECT_LT(drift[1], 6e-5);
}

// the tunable: 1 (a build every evaluation) to 16, others refused naming it
TEST(BarnesHutRefit, TheTunablesRange) {
  const KernelInfo* row = nullptr;
  for (const KernelInfo& k : kernel_table())
    if (k.name == "barnes-hut") row = &k;
  if (!row) GTEST_SKIP() << "no CUDA in this build";
  const Tunable* t = row->find_tunable("rebuild");
  ASSERT_NE(t, nullptr);
  for (const int bad : {0, 17}) {
    SimParams p = refit_params(Precision::Float, bad);
    try {
      validate_kernel_params(p);
      ADD_FAILURE() << "rebuild " << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("rebuild"), std::string::npos) << e.what();
    }
  }
  SimParams ok = refit_params(Precision::Float, 16);
  EXPECT_NO_THROW(validate_kernel_params(ok));
}

}  // namespace
