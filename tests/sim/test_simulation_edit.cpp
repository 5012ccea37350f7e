// Simulation with edits, snapshots and rewinds (issue 19): restoring a snapshot and replaying
// gives the same bodies bitwise on the deterministic CPU kernels, whatever the batch sizes.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/core/simulation.hpp"
#include "sim/core/units.hpp"

using namespace nbody;

namespace {

// a small cluster with a few massless bodies (the stores put them after the sources)
Scene cluster(std::size_t n) {
  Scene s = make_scene("plummer", [&] {
    SceneParams p;
    p.n = n;
    p.seed = 5;
    return p;
  }());
  for (std::size_t i = 3; i < n; i += 17)
    s.bodies.m[i] = 0;
  return s;
}

// every position, velocity and mass equal bit for bit
::testing::AssertionResult bitwise_equal(const Bodies& a, const Bodies& b) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << "sizes differ";
  const std::vector<double>* fa[] = {&a.x, &a.y, &a.z, &a.vx, &a.vy, &a.vz, &a.m};
  const std::vector<double>* fb[] = {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.m};
  for (int f = 0; f < 7; ++f)
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::memcmp(&(*fa[f])[i], &(*fb[f])[i], sizeof(double)) != 0)
        return ::testing::AssertionFailure()
               << "array " << f << " body " << i << ": " << (*fa[f])[i] << " vs " << (*fb[f])[i];
  return ::testing::AssertionSuccess();
}

// runs `steps` steps in batches of `batch`
void run(Simulation& sim, SimParams p, int steps, int batch) {
  while (steps > 0) {
    p.steps_per_frame = std::min(batch, steps);
    sim.step(p);
    steps -= p.steps_per_frame;
  }
}

SimParams params(const std::string& kernel, Integrator integ, Precision prec) {
  SimParams p;
  p.kernel = kernel;
  p.precision = prec;
  p.integrator = integ;
  p.dt = 2e-3;
  p.softening = 0.02;
  p.G = 1;
  return p;
}

}  // namespace

class Replay : public ::testing::TestWithParam<std::tuple<std::string, Integrator, Precision>> {};

TEST_P(Replay, RewindAndReplayIsBitwise) {
  const auto& [kernel, integ, prec] = GetParam();
  const SimParams p = params(kernel, integ, prec);
  // cpu-openmp: enough bodies for two threads (256 a thread at least)
  Simulation sim(cluster(kernel == "cpu-openmp" ? 520 : 300), p);
  run(sim, p, 40, 10);
  const Snapshot at40 = sim.snapshot();
  EXPECT_EQ(at40.steps, 40);
  run(sim, p, 60, 10);
  const Bodies end = sim.bodies();
  // the same span again from the snapshot, in other batch sizes
  for (int batch : {10, 7, 1, 60}) {
    sim.restore(at40);
    EXPECT_EQ(sim.steps_done(), 40);
    run(sim, p, 60, batch);
    EXPECT_EQ(sim.steps_done(), 100);
    EXPECT_TRUE(bitwise_equal(sim.bodies(), end)) << kernel << " batch " << batch;
  }
}

INSTANTIATE_TEST_SUITE_P(
    CpuKernels, Replay,
    ::testing::Combine(::testing::Values("cpu-reference", "cpu-openmp", "cpu-barnes-hut"),
                       ::testing::Values(Integrator::Leapfrog, Integrator::Yoshida4),
                       ::testing::Values(Precision::Float, Precision::Double)));

TEST(SimulationEdit, EditThenRestoreIsBitwise) {
  const SimParams p = params("cpu-openmp", Integrator::Leapfrog, Precision::Float);
  Simulation sim(cluster(300), p);
  run(sim, p, 5, 5);
  const Snapshot before = sim.snapshot();
  Edit add;
  BodySpec b;
  b.x = 1;
  b.y = 2;
  b.z = 3;
  b.m = 0.5;
  b.name = "new";
  add.bodies.push_back(b);
  sim.apply_edit(add);
  EXPECT_EQ(sim.size(), 301u);
  EXPECT_EQ(sim.current().bodies.name.back(), "new");
  EXPECT_EQ(sim.scene().bodies.size(), 300u);  // the scene as started
  run(sim, p, 3, 3);
  Edit rm;
  rm.kind = Edit::Kind::Remove;
  rm.indices = {0, 7};
  sim.apply_edit(rm);
  EXPECT_EQ(sim.size(), 299u);
  sim.restore(before);
  EXPECT_EQ(sim.steps_done(), 5);
  EXPECT_EQ(sim.time(), before.time);
  EXPECT_TRUE(bitwise_equal(sim.bodies(), before.scene->bodies));
  // a bad edit leaves the state as it was
  Edit bad;
  bad.kind = Edit::Kind::Remove;
  bad.indices = {300};
  EXPECT_THROW(sim.apply_edit(bad), Error);
  EXPECT_TRUE(bitwise_equal(sim.bodies(), before.scene->bodies));
  sim.reset();
  EXPECT_EQ(sim.size(), 300u);
}

TEST(SimulationEdit, EditsOnBarnesHutMatchTheReference) {
  // the tree is rebuilt from the edited bodies: after an add, a remove and a merge, one step of
  // cpu-barnes-hut (double) stays close to the reference
  SimParams bh = params("cpu-barnes-hut", Integrator::Leapfrog, Precision::Double);
  SimParams ref = params("cpu-reference", Integrator::Leapfrog, Precision::Double);
  bh.tunables["theta"] = 0.2;
  Simulation a(cluster(400), bh), b(cluster(400), ref);
  run(a, bh, 4, 4);
  run(b, ref, 4, 4);
  Edit add;
  BodySpec heavy;
  heavy.x = 0.2;
  heavy.m = 0.2;
  heavy.name = "heavy";
  add.bodies = {heavy};
  Edit rm;
  rm.kind = Edit::Kind::Remove;
  rm.indices = {1, 2, 50};
  Edit merge;
  merge.kind = Edit::Kind::Merge;
  merge.indices = {10, 11};
  for (const Edit& e : {add, rm, merge}) {
    a.apply_edit(e);
    b.apply_edit(e);
  }
  ASSERT_EQ(a.size(), 397u);
  run(a, bh, 10, 5);
  run(b, ref, 10, 5);
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(
        worst, std::hypot(a.bodies().x[i] - b.bodies().x[i], a.bodies().y[i] - b.bodies().y[i],
                          a.bodies().z[i] - b.bodies().z[i]));
  EXPECT_LT(worst, 1e-5);
  EXPECT_EQ(a.current().bodies.name.empty() ? "" : a.current().bodies.name.back(), "heavy");
}

TEST(SimulationEdit, BackwardsReturnsToTheStart) {
  for (Integrator integ : {Integrator::Leapfrog, Integrator::Yoshida4}) {
    SimParams p = params("cpu-reference", integ, Precision::Double);
    Simulation sim(cluster(100), p);
    const Bodies start = sim.bodies();
    run(sim, p, 50, 10);
    p.dt = -p.dt;  // backwards: steps of -dt
    run(sim, p, 50, 7);
    EXPECT_EQ(sim.steps_done(), 100);
    EXPECT_NEAR(sim.time(), 0, 1e-15);
    double worst = 0;
    for (std::size_t i = 0; i < start.size(); ++i)
      worst = std::max({worst, std::abs(sim.bodies().x[i] - start.x[i]),
                        std::abs(sim.bodies().vx[i] - start.vx[i])});
    EXPECT_LT(worst, 1e-11) << integrator_name(integ);
  }
}

TEST(SimulationEdit, MergeTouchingHandsTheResultToTheBackend) {
  SimParams p = params("cpu-openmp", Integrator::Leapfrog, Precision::Double);
  Scene s = cluster(50);
  s.bodies.x[7] = s.bodies.x[8] + 1e-3;
  s.bodies.y[7] = s.bodies.y[8];
  s.bodies.z[7] = s.bodies.z[8];
  Simulation sim(s, p);
  const auto ev = sim.merge_touching({}, p.softening);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(sim.size(), 49u);
  sim.step(p);
  EXPECT_EQ(sim.bodies().size(), 49u);
}

TEST(SimulationEdit, CostAtAMillion) {
  // not timed: prints what an edit costs at N = 1M on cpu-openmp (float)
  SceneParams sp;
  sp.n = 1 << 20;
  SimParams p = params("cpu-openmp", Integrator::Leapfrog, Precision::Float);
  Simulation sim(make_scene("plummer", sp), p);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const Snapshot before = sim.snapshot();
  const auto t1 = clock::now();
  Edit e;
  e.kind = Edit::Kind::Remove;
  e.indices = {5, 500000};
  sim.apply_edit(e);
  const auto t2 = clock::now();
  sim.restore(before);
  const auto t3 = clock::now();
  using ms = std::chrono::duration<double, std::milli>;
  std::printf("N = %zu: snapshot %.1f ms, apply_edit (remove 2) %.1f ms, restore %.1f ms\n",
              sim.size(), ms(t1 - t0).count(), ms(t2 - t1).count(), ms(t3 - t2).count());
  EXPECT_EQ(sim.size(), std::size_t{1} << 20);
}

TEST(ReplayGpu, RewindAndReplayIsBitwise) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: " << cuda_device_summary();
  for (const KernelInfo& k : kernel_table()) {
    if (!k.gpu || k.lesson) continue;
    for (Integrator integ : {Integrator::Leapfrog, Integrator::Yoshida4}) {
      const SimParams p = params(k.name, integ, Precision::Float);
      Simulation sim(cluster(3000), p);
      run(sim, p, 40, 10);
      const Snapshot at40 = sim.snapshot();
      run(sim, p, 60, 10);
      const Bodies end = sim.bodies();
      for (int batch : {10, 7}) {
        sim.restore(at40);
        run(sim, p, 60, batch);
        const ::testing::AssertionResult same = bitwise_equal(sim.bodies(), end);
        std::printf("%s %s batch %d: %s\n", k.name.c_str(), integrator_name(integ), batch,
                    same ? "bitwise" : same.message());
        EXPECT_TRUE(same) << k.name << " " << integrator_name(integ) << " batch " << batch;
      }
    }
  }
}
