// The GPU activity map agrees exactly with the CPU reference on counts.
#include <gtest/gtest.h>

#include "sim/analysis/activity_map.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

TEST(GpuActivityMap, CountsEqualCpuReference) {
  NBODY_REQUIRE_GPU();
  for (Precision pr : {Precision::Float, Precision::Double}) {
    SimParams sp;
    sp.kernel = "tiled";
    sp.precision = pr;
    auto b = make_backend(sp);
    // bodies spill past the bounds on purpose; many share cells
    Bodies bodies = random_bodies(200000, 11);
    for (std::size_t i = 0; i < bodies.size(); i += 7)
      bodies.x[i] *= 1.3;
    b->set_bodies(bodies);
    Bodies held;
    b->get_bodies(held);
    for (MapPlane plane : {MapPlane::XY, MapPlane::XZ, MapPlane::YZ}) {
      for (int d : {16, 100, 256, 2048}) {
        for (MapScale scale : {MapScale::Linear, MapScale::Log}) {
          ActivityMapParams p;
          p.plane = plane;
          p.size = d;
          p.scale = scale;
          p.u_min = -0.9;
          p.u_max = 1.1;
          p.v_min = -1.0;
          p.v_max = 0.7;
          ActivityMap g;
          ASSERT_TRUE(b->activity_map(p, g));
          const ActivityMap c = compute_activity_map_cpu(held, p);
          SCOPED_TRACE("D = " + std::to_string(d) + " plane " + std::to_string(int(plane)));
          ASSERT_EQ(g.size, c.size);
          ASSERT_EQ(g.counts, c.counts);
          EXPECT_EQ(g.max_count, c.max_count);
          EXPECT_EQ(g.inside, c.inside);
          ASSERT_EQ(g.image.size(), c.image.size());
          for (std::size_t k = 0; k < g.image.size(); ++k)
            ASSERT_NEAR(g.image[k], c.image[k], 1e-6);
        }
      }
    }
  }
}

TEST(GpuActivityMap, RejectsBadSize) {
  NBODY_REQUIRE_GPU();
  SimParams sp;
  sp.kernel = "naive";
  auto b = make_backend(sp);
  b->set_bodies(random_bodies(10, 1));
  ActivityMapParams p;
  p.size = 4;
  ActivityMap m;
  EXPECT_THROW(b->activity_map(p, m), Error);
}
