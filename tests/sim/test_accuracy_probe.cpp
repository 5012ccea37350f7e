// The background accuracy check: exact accelerations give zero error, a known perturbation is
// measured, and a running check refuses a second one.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "sim/analysis/accuracy_probe.hpp"
#include "sim/core/error.hpp"
#include "tests/test_util.hpp"

using namespace nbody;

namespace {

Bodies cloud(std::size_t n) {
  Bodies b;
  for (std::size_t i = 0; i < n; ++i)
    b.add(std::sin(1.3 * i), std::cos(0.7 * i), std::sin(0.37 * i + 1), 0, 0, 0, 1.0 / n);
  return b;
}

// waits up to 10 s (times the sanitizers' slowdown)
AccuracyReport wait_for(AccuracyProbe& p) {
  for (int k = 0; k < 2000 * test::kTimeScale; ++k) {
    if (auto r = p.poll()) return *r;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "accuracy check did not finish";
  return {};
}

}  // namespace

TEST(AccuracyProbe, ExactAccelerationsHaveNoErrorAndScaledOnesTheirScale) {
  const Bodies b = cloud(1000);
  std::vector<std::size_t> all(b.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  std::vector<double> ax, ay, az;
  reference_accelerations(b, all, 2.0, 0.01, ax, ay, az);
  AccuracyProbe p;
  ASSERT_TRUE(p.start(b, ax, ay, az, 2.0, 0.01, 300, "test", 1.5));
  AccuracyReport r = wait_for(p);
  EXPECT_EQ(r.sample, 300u);
  EXPECT_EQ(r.n, 1000u);
  EXPECT_EQ(r.kernel, "test");
  EXPECT_LT(r.error.median, 1e-14);
  EXPECT_LT(r.error.max, 1e-14);
  // every acceleration 1% too large: every per-body error is 1e-2
  for (auto* v : {&ax, &ay, &az})
    for (double& a : *v)
      a *= 1.01;
  ASSERT_TRUE(p.start(b, ax, ay, az, 2.0, 0.01, 256, "test", 2));
  r = wait_for(p);
  EXPECT_NEAR(r.error.median, 1e-2, 1e-12);
  EXPECT_NEAR(r.error.p99, 1e-2, 1e-12);
  EXPECT_FALSE(p.poll().has_value());  // reported once
}

TEST(AccuracyProbe, OneCheckAtATimeAndSizesMustMatch) {
  const Bodies b = cloud(20000);
  std::vector<double> ax(b.size(), 1), ay(b.size(), 0), az(b.size(), 0);
  AccuracyProbe p;
  ASSERT_TRUE(p.start(b, ax, ay, az, 1, 0.01, 4096, "k", 0));
  if (p.busy()) {
    EXPECT_FALSE(p.start(b, ax, ay, az, 1, 0.01, 256, "k", 0));
  }
  wait_for(p);
  ax.pop_back();
  EXPECT_THROW(p.start(b, ax, ay, az, 1, 0.01, 256, "k", 0), Error);
}
