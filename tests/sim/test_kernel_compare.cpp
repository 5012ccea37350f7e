// The Classroom comparison on the CPU kernels: the entries come from the table (each kernel,
// then each other choice of its choice tunables), each entry reports time, interactions/s and
// its error against the double direct sum, and refusals are reported instead of thrown.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "sim/analysis/kernel_compare.hpp"
#include "sim/core/backend.hpp"

using namespace nbody;

namespace {

Bodies random_bodies(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Bodies b;
  for (std::size_t i = 0; i < n; ++i)
    b.add(u(rng), u(rng), u(rng), 0, 0, 0, 1.0 / static_cast<double>(n));
  return b;
}

SimParams base() {
  SimParams p;
  p.precision = Precision::Float;
  p.G = 1;
  p.softening = 0.01;
  p.dt = 1e-3;
  return p;
}

const CompareOutcome* find(const std::vector<CompareOutcome>& r, const std::string& label) {
  auto it = std::find_if(r.begin(), r.end(), [&](const auto& o) { return o.entry.label == label; });
  return it == r.end() ? nullptr : &*it;
}

TEST(KernelCompare, EntriesAreEachKernelThenEachOtherChoice) {
  const auto e = compare_entries(false);
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e.front().label, "cpu-reference");
  EXPECT_TRUE(e.front().tunables.empty());
  bool quadrupole_off = false;
  for (const CompareEntry& c : e) {
    EXPECT_FALSE(find_kernel(c.kernel).gpu) << c.label;
    if (c.label == "cpu-barnes-hut quadrupole=off") {
      quadrupole_off = true;
      EXPECT_EQ(c.tunables.at("quadrupole"), 0);
    }
  }
  EXPECT_TRUE(quadrupole_off);
  // the GPU list has the tiled variants one at a time and pairwise-atomic (CUDA builds)
  const auto g = compare_entries(true);
  for (const CompareEntry& c : g)
    EXPECT_TRUE(find_kernel(c.kernel).gpu) << c.label;
#ifdef NBODY_HAVE_CUDA
  const auto has = [&](const std::string& l) {
    return std::any_of(g.begin(), g.end(), [&](const auto& c) { return c.label == l; });
  };
  EXPECT_TRUE(has("tiled rsqrt=quake1"));
  EXPECT_TRUE(has("tiled layout=soa"));
  EXPECT_TRUE(has("tiled ftz=off"));
  EXPECT_TRUE(has("pairwise-atomic reduce=none"));
#endif
}

TEST(KernelCompare, RunsEveryEntryOnACopyWithErrors) {
  const Bodies b = random_bodies(3000, 2);
  KernelComparison cmp(b, base(), compare_entries(false), 256, 0.02);
  int guard = 0;
  while (!cmp.done() && guard++ < 100) {
    EXPECT_FALSE(cmp.status().empty());
    cmp.run_next();
  }
  ASSERT_TRUE(cmp.done());
  EXPECT_TRUE(cmp.status().empty());
  const auto& r = cmp.results();
  ASSERT_EQ(r.size(), compare_entries(false).size());
  for (const CompareOutcome& o : r) {
    EXPECT_TRUE(o.error.empty()) << o.entry.label << ": " << o.error;
    EXPECT_GT(o.ms_per_step, 0) << o.entry.label;
    EXPECT_GT(o.interactions_per_s, 0) << o.entry.label;
    EXPECT_GE(o.err_max, o.err_median) << o.entry.label;
  }
  // the double reference kernel matches the double direct sum; float kernels are near 1e-7
  EXPECT_LT(find(r, "cpu-reference")->err_max, 1e-13);
  EXPECT_LT(find(r, "cpu-openmp")->err_median, 1e-5);
  EXPECT_GT(find(r, "cpu-openmp")->err_median, 0);
  // without quadrupoles Barnes-Hut is less accurate than with them
  EXPECT_GT(find(r, "cpu-barnes-hut quadrupole=off")->err_median,
            find(r, "cpu-barnes-hut")->err_median);
}

// issue 20 item 5: the time a comparison takes is told honestly: the model before it runs, the
// entries' own times after, and the time left while it runs
TEST(KernelCompare, EstimatesTheTimeItTakesAndSaysWhatIsLeft) {
  const Bodies b = random_bodies(3000, 4);
  const std::vector<CompareEntry> entries = {{"cpu-openmp", "cpu-openmp", {}},
                                             {"cpu-barnes-hut", "cpu-barnes-hut", {}},
                                             {"cpu-symmetric", "cpu-symmetric", {}}};
  // the model: a direct sum whose step takes 2 s makes every direct entry a check plus one
  // step (4 s each), the tree about N / (150 log2 N) of that
  const CompareEstimate model =
      KernelComparison::estimate(entries, 3000, "cpu-openmp", 2000.0, {}, 0.25);
  EXPECT_FALSE(model.measured);
  const double tree_step = 2.0 * 150 * std::log2(3000.0) / 3000;
  EXPECT_NEAR(model.seconds, 4 + 4 + 2 * tree_step, 1e-9);
  // a fast live kernel: each entry at least its 0.25 s of timed steps
  EXPECT_GE(KernelComparison::estimate(entries, 3000, "cpu-openmp", 0.01).seconds, 0.75);
  // a CPU direct sum above its size is refused at once: no time
  EXPECT_EQ(KernelComparison::estimate({entries[0]}, KernelComparison::kCpuDirectMaxN + 1,
                                       "cpu-openmp", 1.0)
                .seconds,
            0.0);

  KernelComparison cmp(b, base(), entries, 256, 0.05);
  EXPECT_EQ(cmp.status(), "cpu-openmp: 1 of 3");
  cmp.run_next();
  EXPECT_NE(cmp.status().find("cpu-barnes-hut: 2 of 3, "), std::string::npos) << cmp.status();
  EXPECT_NE(cmp.status().find(" left"), std::string::npos) << cmp.status();
  while (!cmp.done())
    cmp.run_next();
  double total = 0;
  for (const CompareOutcome& o : cmp.results()) {
    EXPECT_EQ(o.n, 3000u);
    EXPECT_GT(o.wall_s, 0.0) << o.entry.label;
    total += o.wall_s;
  }
  EXPECT_LE(total, cmp.elapsed_s() + 1e-9);
  // after a run, the estimate is the entries' own times at this N (not at another N)
  const CompareEstimate again =
      KernelComparison::estimate(entries, 3000, "cpu-openmp", 2000.0, cmp.results());
  EXPECT_TRUE(again.measured);
  EXPECT_NEAR(again.seconds, total, 1e-9);
  EXPECT_FALSE(
      KernelComparison::estimate(entries, 4000, "cpu-openmp", 2000.0, cmp.results()).measured);
}

TEST(KernelCompare, RefusalsAreReportedNotThrown) {
  // a CPU direct sum above its size, and a tunable out of range
  const Bodies big = random_bodies(KernelComparison::kCpuDirectMaxN + 1, 3);
  KernelComparison cmp(big, base(), {{"cpu-openmp", "cpu-openmp", {}}}, 256, 0.01);
  cmp.run_next();
  ASSERT_EQ(cmp.results().size(), 1u);
  EXPECT_NE(cmp.results()[0].error.find("16384"), std::string::npos) << cmp.results()[0].error;
  KernelComparison bad(random_bodies(100, 3), base(), {{"bad", "cpu-openmp", {{"threads", 5000}}}},
                       256, 0.01);
  bad.run_next();
  ASSERT_EQ(bad.results().size(), 1u);
  EXPECT_NE(bad.results()[0].error.find("threads"), std::string::npos) << bad.results()[0].error;
  EXPECT_EQ(bad.results()[0].interactions_per_s, 0);
}

}  // namespace
