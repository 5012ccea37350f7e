// Simulation with edits, snapshots and rewinds (issue 19): restoring a snapshot and replaying
// gives the same bodies bitwise on the deterministic CPU kernels, whatever the batch sizes.
#include <cstring>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "sim/error.hpp"
#include "sim/simulation.hpp"
#include "sim/units.hpp"

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
