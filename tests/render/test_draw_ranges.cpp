// Which bodies the particle renderer submits (render/draw_ranges.hpp): runs of equal component,
// only the shown ones, adjacent ones merged; too many runs or every component shown: all bodies.
#include <gtest/gtest.h>

#include <vector>

#include "render/draw_ranges.hpp"

using namespace nbody::render;

namespace {

const float kAll[6] = {1, 1, 1, 1, 1, 1};

TEST(DrawRanges, RunsOfEqualComponent) {
  const std::vector<float> c = {1, 1, 2, 2, 2, 3, 1, 1};
  const auto runs = component_runs(c.data(), c.size());
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].first, 0u);
  EXPECT_EQ(runs[0].count, 2u);
  EXPECT_EQ(runs[1].component, 2);
  EXPECT_EQ(runs[1].count, 3u);
  EXPECT_EQ(runs[2].first, 5u);
  EXPECT_EQ(runs[2].component, 3);
  EXPECT_EQ(runs[3].first, 6u);
  EXPECT_TRUE(component_runs(c.data(), 0).empty());
}

// two galaxies (disk, bulge, dark halo each) with the halos hidden: the disks and bulges
// merged into one range per galaxy, the halos not submitted
TEST(DrawRanges, HiddenComponentsAreNotSubmitted) {
  std::vector<float> c;
  for (int g = 0; g < 2; ++g) {
    c.insert(c.end(), 100, 1.0f);  // disk
    c.insert(c.end(), 20, 2.0f);   // bulge
    c.insert(c.end(), 500, 3.0f);  // dark halo
  }
  const auto runs = component_runs(c.data(), c.size());
  float gain[6] = {1, 1, 1, 0, 1, 1};
  const DrawRanges d = shown_ranges(runs, gain);
  ASSERT_FALSE(d.all);
  ASSERT_EQ(d.first.size(), 2u);
  EXPECT_EQ(d.first[0], 0);
  EXPECT_EQ(d.count[0], 120);
  EXPECT_EQ(d.first[1], 620);
  EXPECT_EQ(d.count[1], 120);
  // dimmed (gain between 0 and 1) is shown
  gain[3] = 0.3f;
  EXPECT_TRUE(shown_ranges(runs, gain).all);
  EXPECT_TRUE(shown_ranges(runs, kAll).all);
  // everything hidden: nothing to draw
  const float none[6] = {0, 0, 0, 0, 0, 0};
  const DrawRanges e = shown_ranges(runs, none);
  EXPECT_FALSE(e.all);
  EXPECT_TRUE(e.first.empty());
}

// components that alternate more often than the kept runs: every body is drawn (the shader
// hides the hidden ones), never a wrong subset
TEST(DrawRanges, TooManyRunsDrawsEveryBody) {
  std::vector<float> c(2 * kMaxComponentRuns + 2);
  for (std::size_t i = 0; i < c.size(); ++i)
    c[i] = static_cast<float>(i % 2 ? 3 : 1);
  const auto runs = component_runs(c.data(), c.size());
  EXPECT_TRUE(runs.empty());
  const float gain[6] = {1, 1, 1, 0, 1, 1};
  EXPECT_TRUE(shown_ranges(runs, gain).all);
  // exactly the limit is kept
  c.resize(kMaxComponentRuns);
  EXPECT_EQ(component_runs(c.data(), c.size()).size(), kMaxComponentRuns);
}

}  // namespace
