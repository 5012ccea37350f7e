// Several GPUs (label multigpu): every GPU kernel on two or more GPUs against the same kernel on
// one. The all-pairs kernels sum each body in the same order however the bodies are sliced, so
// they must agree bitwise (tiled2d with a fixed j-split; its automatic split depends on the
// slice and agrees within float tolerance); Barnes-Hut builds one tree per GPU (a forest over
// the GPUs' slices), so it agrees with one GPU within the tree's error, as accurate against the
// direct sum, and bitwise with itself from run to run. Slices of equal
// length take the all-gather path, unequal ones (N not a multiple of the GPU count, or the tree
// kernel's work balance) the broadcast path; Barnes-Hut in one process writes them into the
// other GPUs' arrays from its traversal (peer writes), bitwise as the broadcasts. The ranks of
// several processes (--rank, --world,
// --nccl-id) run the same code: as threads here and as two real processes of the CLI, they
// agree bitwise with one process. Skips with the reason on fewer than two devices.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/scene.hpp"
#include "sim/core/simulation.hpp"
#include "tests/sim/cuda/bh_test_util.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

#define NBODY_REQUIRE_GPUS(k)                                                                \
  do {                                                                                       \
    if (::nbody::cuda_device_count() < (k))                                                  \
      GTEST_SKIP() << "needs " << (k) << " CUDA devices, this machine has "                  \
                   << ::nbody::cuda_device_count() << " (" << ::nbody::cuda_device_summary() \
                   << ")";                                                                   \
  } while (0)

SimParams params_of(const std::string& kernel, Precision pr, int gpus) {
  SimParams p;
  p.kernel = kernel;
  p.precision = pr;
  p.gpus = gpus;
  p.G = 1.0;
  p.softening = 0.01;
  p.dt = 1e-3;
  // a fixed j-split: the same reduction order on any number of GPUs
  if (kernel == "tiled2d") p.tunables["luf"] = 8;
  return p;
}

Accel accelerations(const SimParams& p, const Bodies& b, double* work = nullptr) {
  auto be = make_backend(p);
  be->set_bodies(b);
  Accel a;
  be->compute_accelerations(p, a.x, a.y, a.z);
  if (work) *work = be->last_work().interactions;
  return a;
}

Bodies advanced(const SimParams& p, const Bodies& b, int calls, int steps) {
  auto be = make_backend(p);
  EXPECT_EQ(be->gpus(), p.gpus == 0 ? cuda_device_count() : p.gpus);
  be->set_bodies(b);
  for (int c = 0; c < calls; ++c)
    be->step(p, steps);
  Bodies out;
  be->get_bodies(out);
  return out;
}

// the index of the first body where two arrays differ, or -1
long first_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return static_cast<long>(i);
  return -1;
}

void expect_same_bodies(const Bodies& a, const Bodies& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  EXPECT_EQ(first_difference(a.x, b.x), -1) << what << ": x";
  EXPECT_EQ(first_difference(a.y, b.y), -1) << what << ": y";
  EXPECT_EQ(first_difference(a.z, b.z), -1) << what << ": z";
  EXPECT_EQ(first_difference(a.vx, b.vx), -1) << what << ": vx";
  EXPECT_EQ(first_difference(a.vy, b.vy), -1) << what << ": vy";
  EXPECT_EQ(first_difference(a.vz, b.vz), -1) << what << ": vz";
  EXPECT_EQ(first_difference(a.m, b.m), -1) << what << ": m";
}

const char* const kAllPairs[] = {"naive", "tiled", "tiled2d"};

TEST(MultiGpu, AllPairsAccelerationsBitwise) {
  NBODY_REQUIRE_GPUS(2);
  // 1 and 3: fewer bodies than GPUs or uneven; 4099: broadcast path; 65536: all-gather path
  for (const std::size_t n :
       {std::size_t(1), std::size_t(3), std::size_t(4099), std::size_t(65536)})
    for (const char* k : kAllPairs)
      for (const Precision pr : {Precision::Float, Precision::Double}) {
        const Bodies b = random_bodies(n, 7);
        const Accel one = accelerations(params_of(k, pr, 1), b);
        const Accel all = accelerations(params_of(k, pr, 0), b);
        const std::string what =
            std::string(k) + " " + precision_name(pr) + " N=" + std::to_string(n);
        EXPECT_EQ(first_difference(one.x, all.x), -1) << what;
        EXPECT_EQ(first_difference(one.y, all.y), -1) << what;
        EXPECT_EQ(first_difference(one.z, all.z), -1) << what;
      }
}

TEST(MultiGpu, AllPairsStepsBitwise) {
  NBODY_REQUIRE_GPUS(2);
  for (const std::size_t n : {std::size_t(4099), std::size_t(8192)})
    for (const char* k : kAllPairs)
      for (const Precision pr : {Precision::Float, Precision::Double}) {
        const Bodies b = random_bodies(n, 11);
        // two step() calls of 3 steps: the state carries over between calls
        const Bodies one = advanced(params_of(k, pr, 1), b, 2, 3);
        const Bodies two = advanced(params_of(k, pr, 2), b, 2, 3);
        expect_same_bodies(one, two,
                           std::string(k) + " " + precision_name(pr) + " N=" + std::to_string(n));
      }
}

TEST(MultiGpu, Tiled2dAutoSplitWithinFloatTolerance) {
  NBODY_REQUIRE_GPUS(2);
  const Bodies b = random_bodies(65536, 3);
  SimParams p1 = params_of("tiled2d", Precision::Float, 1), p2 = p1;
  p1.tunables.erase("luf");
  p2.tunables.erase("luf");
  p2.gpus = 2;
  const Accel one = accelerations(p1, b), two = accelerations(p2, b);
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double dx = one.x[i] - two.x[i], dy = one.y[i] - two.y[i], dz = one.z[i] - two.z[i];
    diff += dx * dx + dy * dy + dz * dz;
    norm += one.x[i] * one.x[i] + one.y[i] * one.y[i] + one.z[i] * one.z[i];
  }
  EXPECT_LT(std::sqrt(diff / norm), 1e-6);
}

// the largest difference of two states' positions
double max_position_difference(const Bodies& a, const Bodies& b) {
  double d = a.size() == b.size() ? 0.0 : 1e30;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    d = std::max(
        {d, std::abs(a.x[i] - b.x[i]), std::abs(a.y[i] - b.y[i]), std::abs(a.z[i] - b.z[i])});
  return d;
}

// the errors of the accelerations of p's kernel (on p.gpus GPUs) against the double direct sum
Errors bh_errors(const SimParams& p, const Bodies& b, double* work = nullptr) {
  const Accel a = accelerations(p, b, work);
  return errors_at(a, b, check_indices(b.size()), p.G, p.softening);
}

TEST(MultiGpu, BarnesHutForestAsAccurateAsOneTree) {
  NBODY_REQUIRE_GPUS(2);
  // a Plummer sphere: dense centre, sparse halo, so the work per body varies a lot
  SceneParams sp;
  sp.n = 50000;
  sp.seed = 5;
  const Bodies b = make_scene("plummer", sp).bodies;
  // the default opening, the relative one (its first pass on each GPU's groups), and the
  // relative one with far cells (each group's expansion gathers cells of both trees)
  for (const int mode : {0, 1, 2})
    for (const Precision pr : {Precision::Float, Precision::Double}) {
      SimParams p1 = params_of("barnes-hut", pr, 1), p2 = params_of("barnes-hut", pr, 2);
      if (mode > 0)
        for (SimParams* p : {&p1, &p2}) {
          p->tunables["theta"] = 1.0, p->tunables["alpha"] = 0.003;
          p->tunables["local_theta"] = mode == 2 ? 1.0 : 0.0;
        }
      const char* modes[] = {"", " alpha", " alpha far cells"};
      const std::string what = std::string("barnes-hut ") + precision_name(pr) + modes[mode];
      double w1 = 0, w2 = 0;
      const Errors e1 = bh_errors(p1, b, &w1), e2 = bh_errors(p2, b, &w2);
      ASSERT_TRUE(e2.finite) << what;
      // the forest: nodes that a cut splits act as two, so as accurate, and about the same work
      EXPECT_LT(e2.median, 1.2 * e1.median + 1e-6) << what;
      EXPECT_LT(e2.p99, 1.3 * e1.p99 + 1e-6) << what;
      EXPECT_GT(w2, 0.9 * w1) << what;
      EXPECT_LT(w2, 1.2 * w1) << what;
      // the work as one GPU reports it (flops from the row), and each GPU's phases
      if (mode == 0) {
        auto be = make_backend(p2);
        be->set_bodies(b);
        be->step(p2, 2);
        const StepWork w = be->last_work();
        EXPECT_DOUBLE_EQ(w.flops_per_interaction, find_kernel("barnes-hut").flops(pr)) << what;
        ASSERT_EQ(w.gpu_phases.size(), 2u) << what;
        for (const std::vector<StepPhase>& g : w.gpu_phases) {
          std::vector<std::string> names;
          for (const StepPhase& ph : g) {
            names.push_back(ph.name);
            EXPECT_GE(ph.ms, 0.0) << what << " " << ph.name;
          }
          EXPECT_EQ(names, (std::vector<std::string>{"keys+sort", "build", "traversal", "exchange",
                                                     "integrate"}))
              << what;
        }
      }
      // the same on every run: accelerations and steps (re-sorted each step, the slices moving
      // with the counted work)
      const Accel two = accelerations(p2, b), again = accelerations(p2, b);
      EXPECT_EQ(first_difference(two.x, again.x), -1) << what;
      EXPECT_EQ(first_difference(two.z, again.z), -1) << what;
      const Bodies s2 = advanced(p2, b, 2, 4);
      expect_same_bodies(s2, advanced(p2, b, 2, 4), what + " steps");
      // and near one GPU's after 8 steps (the forces differ within the tree's error)
      EXPECT_LT(max_position_difference(s2, advanced(p1, b, 2, 4)), 1e-5) << what;
    }
}

TEST(MultiGpu, BarnesHutForestOnAwkwardN) {
  NBODY_REQUIRE_GPUS(2);
  // 1 body: one GPU's slice is empty; primes and 2^k + 1: cuts inside cells
  for (const std::size_t n : {1u, 2u, 31u, 257u, 4099u})
    for (const double alpha : {0.0, 0.003}) {
      SimParams p = params_of("barnes-hut", Precision::Float, 2);
      p.tunables["theta"] = alpha > 0 ? 1.0 : 0.55;
      p.tunables["alpha"] = alpha;
      const Bodies b = random_bodies(n, 31 + static_cast<unsigned>(n));
      const Errors e = bh_errors(p, b);
      const std::string what = "n " + std::to_string(n) + (alpha > 0 ? " alpha" : "");
      ASSERT_TRUE(e.finite) << what;
      EXPECT_LT(e.median, 1e-3) << what;
      EXPECT_LT(e.max, 2e-2) << what;
    }
}

// One process writes each GPU's slice of the accelerations straight into the other GPUs' (peer
// writes from the traversal, when every pair of GPUs has peer access); NBODY_PEER_WRITES=0 sends
// them through NCCL instead. Both must step the bodies bitwise alike: float and double, the
// relative opening's first pass, far cells, N whose cuts fall inside cells, and uniform cubes
// (where each build sends the others only the nodes near their slices); on two GPUs and on all
// of them (each writes into several others where there are more than two).
TEST(MultiGpu, BarnesHutPeerWritesAsTheExchange) {
  NBODY_REQUIRE_GPUS(2);
  // (the peer writes: each traversal's accelerations and each build's nodes; the NCCL path
  // broadcasts both)
  struct Case {
    std::size_t n;
    Precision pr;
    double alpha, local_theta;
    int gpus;
    bool pairs = false;  // every body with a twin 1e-9 away: chains of nodes overflow the room
    bool cube = false;   // uniform in a cube: each build sends only the nodes near the cuts
  };
  const int all = cuda_device_count();
  for (const Case c :
       {Case{40000, Precision::Float, 0.0, 0.0, 2}, Case{4099, Precision::Float, 0.003, 0.0, 2},
        Case{30011, Precision::Float, 0.0, 0.4, 2}, Case{2053, Precision::Double, 0.0, 0.0, 2},
        Case{40009, Precision::Float, 0.0, 0.0, all},
        Case{6007, Precision::Double, 0.0, 0.0, 2, true},
        Case{65537, Precision::Float, 0.0, 0.0, 2, false, true},
        Case{20011, Precision::Double, 0.0, 0.0, all, false, true}}) {
    SimParams p = params_of("barnes-hut", c.pr, c.gpus);
    p.tunables["alpha"] = c.alpha;
    if (c.alpha > 0) p.tunables["theta"] = 1.0;
    p.tunables["local_theta"] = c.local_theta;
    SceneParams sp;
    sp.n = c.pairs ? c.n / 2 : c.n;
    sp.seed = 5 + static_cast<unsigned>(c.n);
    Bodies b = c.cube ? random_bodies(c.n, sp.seed) : make_scene("plummer", sp).bodies;
    // twins: each pair's cell splits down to the deepest level (~16 single-child nodes a pair),
    // so the first trees outgrow their room, the room grows and the node arrays move: every GPU
    // must learn the others' new arrays before writing into them
    if (c.pairs) {
      const std::size_t half = b.size();
      for (std::size_t i = 0; i < half; ++i)
        b.add(b.x[i] + 1e-9, b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i], b.m[i]);
    }
    const Bodies written = advanced(p, b, 2, 3);
    setenv("NBODY_PEER_WRITES", "0", 1);
    const Bodies exchanged = advanced(p, b, 2, 3);
    unsetenv("NBODY_PEER_WRITES");
    expect_same_bodies(written, exchanged,
                       "n " + std::to_string(c.n) + " on " + std::to_string(c.gpus) + " GPUs");
    EXPECT_GT(max_position_difference(written, b), 0.0) << "the bodies moved";
  }
}

// Refits (tunable rebuild 4) on two GPUs: every GPU refits the tree of the slice it built, on
// the same cuts until the next build (the wrapper keeps them), and writes the new moments into
// the other GPU's arrays (or NCCL broadcasts them): as accurate as one GPU's build on the same
// bodies, bitwise from run to run, in batches of 5 and 7 as in one call of 12, with the peer
// writes as through NCCL, and near one GPU's refits after 12 steps
TEST(MultiGpu, BarnesHutRefitsTheSlicesItBuilt) {
  NBODY_REQUIRE_GPUS(2);
  SceneParams sp;
  sp.n = 40009;
  sp.seed = 9;
  const Bodies b = make_scene("plummer", sp).bodies;
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    const std::string what = std::string("refits ") + precision_name(pr);
    SimParams p1 = params_of("barnes-hut", pr, 1), p2 = params_of("barnes-hut", pr, 2);
    p1.tunables["rebuild"] = p2.tunables["rebuild"] = 4;
    auto be = make_backend(p2);
    be->set_bodies(b);
    be->step(p2, 2);  // a build, two refits; the accelerations below a third
    Accel a;
    be->compute_accelerations(p2, a.x, a.y, a.z);
    Bodies held;
    be->get_bodies(held);
    SimParams built = params_of("barnes-hut", pr, 1);
    const Errors e2 = errors_at(a, held, check_indices(held.size()), p2.G, p2.softening);
    const Errors e1 = bh_errors(built, held);
    ASSERT_TRUE(e2.finite) << what;
    EXPECT_LT(e2.median, 1.2 * e1.median + 1e-6) << what;
    EXPECT_LT(e2.p99, 1.3 * e1.p99 + 1e-6) << what;
    const Bodies one = advanced(p2, b, 1, 12);
    expect_same_bodies(one, advanced(p2, b, 1, 12), what + " run to run");
    auto batches = make_backend(p2);
    batches->set_bodies(b);
    batches->step(p2, 5);
    batches->step(p2, 7);
    Bodies split;
    batches->get_bodies(split);
    expect_same_bodies(one, split, what + " 5 + 7 steps");
    setenv("NBODY_PEER_WRITES", "0", 1);
    const Bodies exchanged = advanced(p2, b, 1, 12);
    unsetenv("NBODY_PEER_WRITES");
    expect_same_bodies(one, exchanged, what + " through NCCL");
    EXPECT_LT(max_position_difference(one, advanced(p1, b, 1, 12)), 1e-5) << what;
  }
}

TEST(MultiGpu, InteropOutputOnTheFirstGpu) {
  NBODY_REQUIRE_GPUS(2);
  const std::size_t n = 5001;
  const Bodies b = random_bodies(n, 13);
  for (const char* k : {"tiled", "barnes-hut"}) {
    std::vector<float> pos[2], speed[2];
    for (int g = 0; g < 2; ++g) {
      const SimParams p = params_of(k, Precision::Float, g + 1);
      auto be = make_backend(p);
      ASSERT_TRUE(be->supports_device_output());
      float* dpos = nullptr;
      float* dspeed = nullptr;
      ASSERT_EQ(cudaMalloc(&dpos, n * 4 * sizeof(float)), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&dspeed, n * sizeof(float)), cudaSuccess);
      be->set_bodies(b);
      be->set_device_output({dpos, dspeed});
      be->step(p, 3);
      pos[g].resize(4 * n);
      speed[g].resize(n);
      EXPECT_EQ(cudaMemcpy(pos[g].data(), dpos, 4 * n * sizeof(float), cudaMemcpyDeviceToHost),
                cudaSuccess);
      EXPECT_EQ(cudaMemcpy(speed[g].data(), dspeed, n * sizeof(float), cudaMemcpyDeviceToHost),
                cudaSuccess);
      be->set_device_output({});
      cudaFree(dpos);
      cudaFree(dspeed);
    }
    if (std::string(k) == "barnes-hut") {
      // the forest's forces differ from one tree's within its error
      for (std::size_t i = 0; i < pos[0].size(); ++i)
        ASSERT_NEAR(pos[0][i], pos[1][i], 1e-5) << k << " " << i;
      for (std::size_t i = 0; i < speed[0].size(); ++i)
        ASSERT_NEAR(speed[0][i], speed[1][i], 1e-5) << k << " speed " << i;
    } else {
      EXPECT_EQ(pos[0], pos[1]) << k;
      EXPECT_EQ(speed[0], speed[1]) << k;
    }
  }
}

TEST(MultiGpu, SimulationSwitchesGpusLive) {
  NBODY_REQUIRE_GPUS(2);
  Scene s;
  s.bodies = random_bodies(3000, 17);
  SimParams p = params_of("naive", Precision::Float, 1);
  p.steps_per_frame = 2;
  Simulation one(s, p), mixed(s, p);
  for (int frame = 0; frame < 4; ++frame) {
    one.step(p);
    SimParams q = p;
    q.gpus = frame % 2 ? 1 : 2;  // the panel's GPUs control, flipped every frame
    mixed.step(q);
    EXPECT_EQ(mixed.backend().gpus(), q.gpus);
  }
  expect_same_bodies(one.bodies(), mixed.bodies(), "switching GPUs");
}

TEST(MultiGpu, RigidHalosAndPostNewtonianAsOnOneGpu) {
  NBODY_REQUIRE_GPUS(2);
  // the store integrates every body on every GPU, so the halos' field and the 1PN term run
  // there as on one GPU
  SceneParams sp;
  sp.n = 6000;
  sp.seed = 3;
  sp.values["halo"] = 1;
  const Scene collision = make_scene("galaxy-collision", sp);
  ASSERT_FALSE(collision.bodies.halos.empty());
  SimParams p1 = params_of("tiled", Precision::Float, 1);
  p1.G = collision.units.G;
  p1.softening = collision.softening;
  p1.dt = collision.dt;
  SimParams p2 = p1;
  p2.gpus = 2;
  expect_same_bodies(advanced(p1, collision.bodies, 2, 3), advanced(p2, collision.bodies, 2, 3),
                     "rigid halos");
  // Barnes-Hut's forest: within its error of one GPU's tree
  p1.kernel = p2.kernel = "barnes-hut";
  EXPECT_LT(max_position_difference(advanced(p1, collision.bodies, 2, 3),
                                    advanced(p2, collision.bodies, 2, 3)),
            1e-4 * collision.camera_distance)
      << "rigid halos, barnes-hut";
  SimParams q1 = params_of("tiled", Precision::Double, 1);
  q1.post_newtonian = true;
  q1.speed_of_light = 30.0;
  SimParams q2 = q1;
  q2.gpus = 2;
  const Bodies b = random_bodies(3001, 19);
  expect_same_bodies(advanced(q1, b, 2, 3), advanced(q2, b, 2, 3), "1PN");
}

// the ranks of a run of two processes as two threads: rank r's bodies after `calls` x 4 steps
std::vector<Bodies> ranks_advanced(const std::vector<SimParams>& ranks, const Bodies& b, int calls,
                                   std::vector<std::string>& errors) {
  std::vector<Bodies> out(ranks.size());
  errors.assign(ranks.size(), "");
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks.size(); ++r)
    threads.emplace_back([&, r] {
      try {
        auto be = make_backend(ranks[r]);
        be->set_bodies(b);
        for (int c = 0; c < calls; ++c)
          be->step(ranks[r], 4);
        be->get_bodies(out[r]);
      } catch (const Error& e) {
        errors[r] = e.what();
      }
    });
  for (std::thread& t : threads)
    t.join();
  return out;
}

std::string id_file(const std::string& name) {
  const auto path =
      std::filesystem::temp_directory_path() /
      (name + "_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
       std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
  std::filesystem::remove(path);
  return path.string();
}

TEST(MultiGpu, RanksOfTwoProcessesAsOneProcess) {
  NBODY_REQUIRE_GPUS(2);
  SceneParams sp;
  sp.n = 40000;
  sp.seed = 9;
  const Bodies b = make_scene("plummer", sp).bodies;
  for (const char* k : {"tiled", "barnes-hut"}) {
    const SimParams two = params_of(k, Precision::Float, 2);
    std::vector<SimParams> ranks(2, params_of(k, Precision::Float, 1));
    const std::string id = id_file("nbody_ranks");
    for (int r = 0; r < 2; ++r)
      ranks[r].process = {r, 2, id};
    std::vector<std::string> errors;
    const std::vector<Bodies> got = ranks_advanced(ranks, b, 2, errors);
    ASSERT_EQ(errors[0], "") << k;
    ASSERT_EQ(errors[1], "") << k;
    EXPECT_FALSE(std::filesystem::exists(id)) << "rank 0 leaves no id file behind";
    const Bodies one_process = advanced(two, b, 2, 4);
    expect_same_bodies(got[0], one_process, std::string(k) + ": rank 0");
    expect_same_bodies(got[1], one_process, std::string(k) + ": rank 1");
  }
}

TEST(MultiGpu, RanksThatDisagreeAreRefused) {
  NBODY_REQUIRE_GPUS(2);
  const Bodies b = random_bodies(5000, 23);
  std::vector<SimParams> ranks(2, params_of("tiled", Precision::Float, 1));
  ranks[0].process = {0, 2, id_file("nbody_disagree")};
  ranks[1].process = {1, 2, ranks[0].process.id};
  ranks[1].dt = 2e-3;
  std::vector<std::string> errors;
  ranks_advanced(ranks, b, 1, errors);
  EXPECT_NE(errors[0].find("rank 1 steps with other parameters"), std::string::npos) << errors[0];
  // other bodies on rank 1: refused when they are set
  Bodies other = b;
  other.x[17] += 1e-9;
  std::vector<std::string> e2(2);
  std::vector<std::thread> threads;
  ranks[1].dt = ranks[0].dt;
  ranks[0].process.id = ranks[1].process.id = id_file("nbody_disagree_bodies");
  for (int r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      try {
        auto be = make_backend(ranks[r]);
        be->set_bodies(r == 0 ? b : other);
      } catch (const Error& e) {
        e2[r] = e.what();
      }
    });
  for (std::thread& t : threads)
    t.join();
  EXPECT_NE(e2[0].find("rank 1 holds other bodies"), std::string::npos) << e2[0];
}

// the CSV's body lines (its '#' header records the GPUs and the kernel, which differ)
std::string body_lines(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream os;
  for (std::string line; std::getline(f, line);)
    if (!line.empty() && line[0] != '#') os << line << "\n";
  return os.str();
}

TEST(MultiGpu, TwoProcessesOfTheCliBitwiseAsOneProcess) {
  NBODY_REQUIRE_GPUS(2);
  // NBODY_BINARY: where the binary is on a machine that runs tests built elsewhere
  const char* moved = std::getenv("NBODY_BINARY");
  const std::string bin = moved ? moved : std::string(NBODY_BINARY_DIR) + "/bin/nbody";
  const std::string dir = std::filesystem::temp_directory_path().string();
  const std::string run =
      bin +
      " simulate --scene plummer -n 30000 --seed 4 --kernel barnes-hut --steps 20 "
      "--no-diagnostics ";
  const std::string one = dir + "/nbody_one_process.csv", two = dir + "/nbody_two_ranks.csv";
  const std::string id = id_file("nbody_cli_ranks");
  ASSERT_EQ(std::system((run + "--gpus 2 -o " + one + " > /dev/null").c_str()), 0);
  // rank 1 in the background, rank 0 here; both must succeed
  const std::string ranks = run + "--world 2 --rank 1 --nccl-id " + id + " -o " + two +
                            " > /dev/null & p=$!; " + run + "--world 2 --rank 0 --nccl-id " + id +
                            " -o " + two + " > /dev/null; r=$?; wait $p && [ $r -eq 0 ]";
  ASSERT_EQ(std::system(ranks.c_str()), 0);
  const std::string a = body_lines(one), c = body_lines(two);
  EXPECT_GT(a.size(), 30000u);
  EXPECT_TRUE(a == c) << "the two ranks' state differs from one process's";
}

TEST(MultiGpu, RefusesMoreGpusThanTheMachineHas) {
  NBODY_REQUIRE_GPUS(1);
  const int have = cuda_device_count();
  SimParams p = params_of("tiled", Precision::Float, have + 1);
  try {
    make_backend(p);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA device"), std::string::npos) << e.what();
  }
}

}  // namespace
