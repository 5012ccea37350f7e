// The kernel table, parameter checks and the backend contract shared by every kernel.
#include <cmath>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "tests/test_util.hpp"

using namespace nbody;

namespace {
std::string error_of(const SimParams& p) {
  return test::error_of([&] { make_backend(p); });
}

Bodies random_bodies(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), um(0.5, 1.5);
  Bodies b;
  for (std::size_t i = 0; i < n; ++i)
    b.add(u(rng), u(rng), u(rng), u(rng), u(rng), u(rng), um(rng));
  return b;
}
}  // namespace

TEST(KernelTable, HasTheCpuBackendsWithUniqueNames) {
  std::set<std::string> names;
  for (const KernelInfo& k : kernel_table()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_FALSE(k.label.empty());
    EXPECT_FALSE(k.description.empty());
    EXPECT_TRUE(k.create);
    for (const Tunable& t : k.tunables)
      EXPECT_TRUE(t.valid(t.def)) << k.name << " " << t.key;
  }
  for (const char* n : {"cpu-reference", "cpu-openmp", "cpu-symmetric"})
    EXPECT_TRUE(names.count(n));
}

TEST(KernelTable, UnknownKernelListsKnownOnes) {
  SimParams p;
  p.kernel = "warp-drive";
  const std::string e = error_of(p);
  EXPECT_NE(e.find("unknown kernel 'warp-drive'"), std::string::npos);
  EXPECT_NE(e.find("cpu-reference"), std::string::npos);
}

TEST(KernelTable, InvalidTunableNamesAllowedValues) {
  SimParams p;
  p.kernel = "cpu-openmp";
  p.tunables["threads"] = 5000;
  const std::string e = error_of(p);
  EXPECT_NE(e.find("threads: 5000 is not valid"), std::string::npos);
  EXPECT_NE(e.find("0..1024"), std::string::npos);
}

TEST(KernelTable, GpuTreeOnAtMost32Gpus) {
  // the GPU Barnes-Hut walks one tree per GPU, their roots one per lane of a warp
  bool built = false;
  for (const KernelInfo& k : kernel_table())
    built = built || k.name == "barnes-hut";
  if (!built) GTEST_SKIP() << "built without CUDA: no GPU Barnes-Hut";
  SimParams p;
  p.kernel = "barnes-hut";
  p.process = {0, 33, "id"};
  EXPECT_EQ(test::error_of([&] { validate_kernel_params(p); }),
            "--world 33: kernel 'barnes-hut' runs on at most 32 GPUs");
  p.process = {0, 32, "id"};
  EXPECT_EQ(test::error_of([&] { validate_kernel_params(p); }), "");
  p.process = {};
  p.gpus = 40;
  EXPECT_EQ(test::error_of([&] { validate_kernel_params(p); }),
            "--gpus 40: kernel 'barnes-hut' runs on at most 32 GPUs");
  // all-pairs kernels take any number
  p.kernel = "tiled";
  p.process = {0, 64, "id"};
  EXPECT_EQ(test::error_of([&] { validate_kernel_params(p); }), "");
}

TEST(KernelTable, BadPhysicsParametersRejected) {
  SimParams p;
  p.dt = 0;
  EXPECT_EQ(error_of(p), "dt must be finite and not 0 (got 0; < 0 runs time backwards)");
  p = {};
  p.softening = -1;
  EXPECT_NE(error_of(p).find("softening"), std::string::npos);
}

TEST(KernelTable, TunableAllowedText) {
  const Tunable t = int_tunable("block_size", "block size", 32, 1024, 32, 256, "");
  EXPECT_TRUE(t.valid(64));
  EXPECT_FALSE(t.valid(48));
  EXPECT_FALSE(t.valid(64.5));
  EXPECT_FALSE(t.valid(2048));
  EXPECT_EQ(t.allowed(), "32..1024 in steps of 32");
  const Tunable s = int_tunable("luf", "luf", 1, 4, 1, 2, "");
  EXPECT_EQ(s.allowed(), "1..4");
  const Tunable u = int_tunable("unroll", "unroll", 2, 8, 2, 4, "");
  EXPECT_EQ(u.allowed(), "2, 4, 6, 8");
}

TEST(KernelTable, RealAndChoiceTunables) {
  const Tunable theta = real_tunable("theta", "theta", 0, 1.5, 0.05, 0.5, "opening angle");
  EXPECT_TRUE(theta.valid(0.37));
  EXPECT_TRUE(theta.valid(0));
  EXPECT_FALSE(theta.valid(1.6));
  EXPECT_FALSE(theta.valid(std::nan("")));
  EXPECT_EQ(theta.allowed(), "0 to 1.5");
  EXPECT_DOUBLE_EQ(theta.parse("0.7", "--theta"), 0.7);
  EXPECT_EQ(theta.format(0.7), "0.7");
  try {
    theta.parse("2", "--theta");
    FAIL() << "theta 2 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "--theta: '2' is not valid (allowed: 0 to 1.5)");
  }
  EXPECT_THROW(theta.parse("0.5x", "--theta"), Error);
  const Tunable q = choice_tunable("quadrupole", "quadrupole", {"off", "on"}, 1, "");
  EXPECT_DOUBLE_EQ(q.parse("off", "--quadrupole"), 0);
  EXPECT_DOUBLE_EQ(q.parse("1", "--quadrupole"), 1);
  EXPECT_EQ(q.format(1), "on");
  EXPECT_EQ(q.allowed(), "off, on");
  EXPECT_FALSE(q.valid(2));
  EXPECT_THROW(q.parse("maybe", "--quadrupole"), Error);
}

// a kernel reads its tunables by key; an absent key takes the row's default
TEST(KernelTable, ValuesByKeyWithDefaults) {
  const KernelInfo& k = find_kernel("cpu-openmp");
  SimParams p;
  EXPECT_EQ(k.int_value(p, "threads"), 0);
  p.tunables["threads"] = 3;
  EXPECT_EQ(k.int_value(p, "threads"), 3);
  EXPECT_THROW(k.value(p, "no_such_key"), Error);
  // a key of another kernel is ignored by this one
  p.tunables["theta"] = 99;
  p.kernel = "cpu-openmp";
  EXPECT_NO_THROW(validate_kernel_params(p));
  // every key of the table is listed once
  std::vector<std::string> keys;
  for (const Tunable* t : all_tunables())
    keys.push_back(t->key);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(), "threads"), keys.end());
}

// the backend reports the work of its last step: N² for the direct sums, flops from the row
TEST(KernelTable, BackendReportsItsWork) {
  const Bodies b = [] {
    Bodies r;
    for (int i = 0; i < 100; ++i)
      r.add(i * 0.01, (i % 7) * 0.1, (i % 3) * 0.2, 0, 0, 0, 0.01);
    return r;
  }();
  for (const char* name : {"cpu-reference", "cpu-openmp", "cpu-symmetric"}) {
    SimParams p;
    p.kernel = name;
    p.precision = find_kernel(name).supports_float ? Precision::Float : Precision::Double;
    auto be = make_backend(p);
    be->set_bodies(b);
    be->step(p, 3);
    const StepWork w = be->last_work();
    EXPECT_DOUBLE_EQ(w.interactions, 100.0 * 100.0) << name;
    EXPECT_DOUBLE_EQ(w.flops_per_interaction, find_kernel(name).flops(p.precision)) << name;
  }
}

// work is summed by evaluation; a work of phases alone (the multi-GPU exchange's) keeps the
// flops per interaction (it reset them to 0, and `nbody bench` showed 0 GFLOP/s on two GPUs)
TEST(KernelTable, StepWorkSumsPhasesAndKeepsFlops) {
  StepWork total;
  total.add(StepWork{100, 20, {{"build", 1.0}, {"traversal", 4.0}}, {}});
  StepWork exchange;
  exchange.phases.push_back({"exchange", 0.5});
  total.add(exchange);
  total.add(StepWork{300, 20, {{"traversal", 2.0}}, {}});
  EXPECT_DOUBLE_EQ(total.interactions, 400);
  EXPECT_DOUBLE_EQ(total.flops_per_interaction, 20);
  ASSERT_EQ(total.phases.size(), 3u);
  EXPECT_EQ(total.phases[1].name, "traversal");
  EXPECT_DOUBLE_EQ(total.phases[1].ms, 6.0);
  total.per_step(2);
  EXPECT_DOUBLE_EQ(total.interactions, 200);
  EXPECT_DOUBLE_EQ(total.phases[2].ms, 0.25);
}

TEST(AccelerationError, NormwiseAndMax) {
  std::vector<double> r = {1, 0}, z = {0, 0}, a = {1.1, 0};
  const AccelError e = acceleration_error(a, z, z, r, z, z);
  EXPECT_NEAR(e.normwise, 0.1, 1e-12);
  EXPECT_NEAR(e.max, 0.1, 1e-12);
  std::vector<double> nan = {NAN, 0};
  EXPECT_TRUE(std::isnan(acceleration_error(nan, z, z, r, z, z).max));
}

// every CPU backend: state round trip, and a step moves bodies the same way as the reference
TEST(Backends, SetGetRoundTripAndStepAgree) {
  const Bodies b = random_bodies(33, 7);
  SimParams p;
  p.dt = 1e-3;
  p.softening = 0.1;
  p.precision = Precision::Double;
  p.kernel = "cpu-reference";
  auto ref = make_backend(p);
  ref->set_bodies(b);
  ref->step(p, 3);
  Bodies rb;
  ref->get_bodies(rb);
  for (const KernelInfo& k : kernel_table()) {
    if (k.gpu) continue;
    for (Precision prec : {Precision::Float, Precision::Double}) {
      if (prec == Precision::Float && !k.supports_float) continue;
      SimParams q = p;
      q.kernel = k.name;
      q.precision = prec;
      auto be = make_backend(q);
      be->set_bodies(b);
      EXPECT_EQ(be->size(), b.size());
      Bodies got;
      be->get_bodies(got);
      const double tol0 = prec == Precision::Float ? 1e-7 : 0;
      for (std::size_t i = 0; i < b.size(); ++i)
        EXPECT_NEAR(got.x[i], b.x[i], tol0);
      be->step(q, 3);
      be->get_bodies(got);
      const double tol = prec == Precision::Float ? 2e-6 : 1e-13;
      for (std::size_t i = 0; i < b.size(); ++i) {
        EXPECT_NEAR(got.x[i], rb.x[i], tol) << k.name;
        EXPECT_NEAR(got.vz[i], rb.vz[i], 10 * tol) << k.name;
      }
      EXPECT_GE(be->last_step_ms(), 0.0);
    }
  }
}

// zero softening: coincident bodies must not produce NaN
TEST(Backends, CoincidentBodiesWithoutSofteningStayFinite) {
  Bodies b;
  b.add(0, 0, 0, 0, 0, 0, 1);
  b.add(0, 0, 0, 0, 0, 0, 1);
  b.add(1, 0, 0, 0, 0, 0, 1);
  for (const KernelInfo& k : kernel_table()) {
    if (k.gpu) continue;
    SimParams p;
    p.kernel = k.name;
    p.softening = 0;
    p.precision = k.supports_float ? Precision::Float : Precision::Double;
    auto be = make_backend(p);
    be->set_bodies(b);
    std::vector<double> ax, ay, az;
    be->compute_accelerations(p, ax, ay, az);
    for (std::size_t i = 0; i < 3; ++i)
      EXPECT_TRUE(std::isfinite(ax[i])) << k.name;
    // body 2 is pulled by two unit masses at distance 1
    EXPECT_NEAR(ax[2], -2.0, 1e-6) << k.name;
  }
}
