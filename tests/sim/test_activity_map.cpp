// The CPU reference of the activity-density map: binning rule, bounds, planes, normalisation.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/analysis/activity_map.hpp"
#include "sim/core/error.hpp"
#include "tests/test_util.hpp"

using namespace nbody;

namespace {
std::string error_of(const ActivityMapParams& p) {
  return test::error_of([&] { validate(p); });
}
}  // namespace

TEST(ActivityMap, CountsBodiesPerCell) {
  Bodies b;
  b.add(-0.99, -0.99, 0, 0, 0, 0, 1);  // cell (row 0, col 0)
  b.add(-0.98, -0.97, 5, 0, 0, 0, 1);  // same cell: z ignored on XY
  b.add(0.99, 0.99, 0, 0, 0, 0, 1);    // last cell
  b.add(1.0, 1.0, 0, 0, 0, 0, 1);      // on the upper bound: clamped into the last cell
  b.add(1.01, 0, 0, 0, 0, 0, 1);       // outside
  b.add(0.0, -0.5, 0, 0, 0, 0, 1);     // col 8, row 4 of 16
  ActivityMapParams p;
  p.size = 16;
  p.scale = MapScale::Linear;
  const ActivityMap m = compute_activity_map_cpu(b, p);
  ASSERT_EQ(m.size, 16);
  ASSERT_EQ(m.counts.size(), 256u);
  EXPECT_EQ(m.counts[0], 2u);
  EXPECT_EQ(m.counts[255], 2u);
  EXPECT_EQ(m.counts[4 * 16 + 8], 1u);
  EXPECT_EQ(m.inside, 5u);
  EXPECT_EQ(m.max_count, 2u);
  EXPECT_FLOAT_EQ(m.image[0], 1.0f);
  EXPECT_FLOAT_EQ(m.image[4 * 16 + 8], 0.5f);
  EXPECT_FLOAT_EQ(m.image[1], 0.0f);
}

TEST(ActivityMap, PlanesPickTheirAxes) {
  Bodies b;
  b.add(0.1, 0.2, 0.3, 0, 0, 0, 1);
  ActivityMapParams p;
  p.size = 16;
  p.u_min = p.v_min = 0;
  p.u_max = p.v_max = 1.6;  // 0.1 per cell
  auto cell = [&](MapPlane plane) {
    p.plane = plane;
    const ActivityMap m = compute_activity_map_cpu(b, p);
    for (std::size_t c = 0; c < m.counts.size(); ++c)
      if (m.counts[c]) return static_cast<int>(c);
    return -1;
  };
  // (u, v): XY (0.1, 0.2), XZ (0.1, 0.3), YZ (0.2, 0.3); truncation of 0.1/0.1 etc.
  const int xy = cell(MapPlane::XY), xz = cell(MapPlane::XZ), yz = cell(MapPlane::YZ);
  EXPECT_EQ(xy % 16, static_cast<int>(0.1 * 10.0));
  EXPECT_EQ(xy / 16, static_cast<int>((0.2 - 0.0) * (16 / 1.6)));
  EXPECT_EQ(xz / 16, static_cast<int>((0.3 - 0.0) * (16 / 1.6)));
  EXPECT_EQ(yz % 16, static_cast<int>((0.2 - 0.0) * (16 / 1.6)));
  EXPECT_NE(xy, xz);
  EXPECT_NE(xz, yz);
}

TEST(ActivityMap, LogScaleIsNormalised) {
  Bodies b;
  for (int i = 0; i < 9; ++i)
    b.add(0.5, 0.5, 0, 0, 0, 0, 1);
  b.add(-0.5, -0.5, 0, 0, 0, 0, 1);
  ActivityMapParams p;
  p.size = 32;
  p.scale = MapScale::Log;
  const ActivityMap m = compute_activity_map_cpu(b, p);
  EXPECT_EQ(m.max_count, 9u);
  float hi = 0, lo = 0;
  for (std::size_t c = 0; c < m.counts.size(); ++c) {
    if (m.counts[c] == 9) hi = m.image[c];
    if (m.counts[c] == 1) lo = m.image[c];
  }
  EXPECT_FLOAT_EQ(hi, 1.0f);
  EXPECT_NEAR(lo, std::log(2.0) / std::log(10.0), 1e-6);
}

TEST(ActivityMap, NanAndOutsideBodiesAreNotCounted) {
  Bodies b;
  b.x = {NAN, 5, 0};
  b.y = {0, 0, NAN};
  b.z = {0, 0, 0};
  b.vx = b.vy = b.vz = {0, 0, 0};
  b.m = {1, 1, 1};
  ActivityMapParams p;
  const ActivityMap m = compute_activity_map_cpu(b, p);
  EXPECT_EQ(m.inside, 0u);
  EXPECT_EQ(m.max_count, 0u);
  for (float v : m.image)
    EXPECT_EQ(v, 0.0f);
}

TEST(ActivityMap, RejectsBadParameters) {
  ActivityMapParams p;
  p.size = 8;
  EXPECT_NE(error_of(p).find("16..2048"), std::string::npos);
  p.size = 4096;
  EXPECT_NE(error_of(p).find("16..2048"), std::string::npos);
  p.size = 64;
  p.u_max = p.u_min;
  EXPECT_NE(error_of(p).find("bounds of u"), std::string::npos);
  p.u_max = 1;
  p.v_min = NAN;
  EXPECT_NE(error_of(p).find("bounds of v"), std::string::npos);
  p.v_min = -1;
  EXPECT_EQ(error_of(p), "");
}
