// The kernel table, parameter checks and the backend contract shared by every kernel.
#include <cmath>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "sim/backend.hpp"
#include "sim/error.hpp"
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
  p.threads = 5000;
  const std::string e = error_of(p);
  EXPECT_NE(e.find("threads: 5000 is not valid"), std::string::npos);
  EXPECT_NE(e.find("0..1024"), std::string::npos);
}

TEST(KernelTable, BadPhysicsParametersRejected) {
  SimParams p;
  p.dt = -1;
  EXPECT_EQ(error_of(p), "dt must be > 0 (got -1)");
  p = {};
  p.softening = -1;
  EXPECT_NE(error_of(p).find("softening"), std::string::npos);
}

TEST(KernelTable, TunableAllowedText) {
  Tunable t{"block_size", "block size", &SimParams::block_size, 32, 1024, 32, 256, ""};
  EXPECT_TRUE(t.valid(64));
  EXPECT_FALSE(t.valid(48));
  EXPECT_FALSE(t.valid(2048));
  EXPECT_EQ(t.allowed(), "32..1024 in steps of 32");
  Tunable s{"luf", "luf", &SimParams::luf, 1, 4, 1, 2, ""};
  EXPECT_EQ(s.allowed(), "1..4");
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
