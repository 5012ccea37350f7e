// The log distance display (render/distance_scale.hpp): the map is continuous and strictly
// increasing, keeps the reference radius and the centre in place, is inverted exactly enough by
// unmap, and the true scale is the identity to the last bit; the GLSL snippet is embedded and
// spliced into the shaders that draw positions.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "render/distance_scale.hpp"
#include "render/shader.hpp"

using namespace nbody::render;

TEST(DistanceScale, TrueScaleIsTheIdentityExactly) {
  DistanceMap m;  // the default: true distances
  for (float v : {0.0f, 1e-30f, 0.3870981f, 30.06896f, -5.2f, 1e30f}) {
    const glm::vec3 p(v, -0.5f * v, 0.25f * v + 1e-7f);
    const glm::vec3 q = map_point(m, p);
    EXPECT_EQ(q.x, p.x);
    EXPECT_EQ(q.y, p.y);
    EXPECT_EQ(q.z, p.z);
    EXPECT_EQ(unmap_point(m, p).x, p.x);
    EXPECT_EQ(map_distance(m, static_cast<double>(v)), static_cast<double>(v));
  }
  // a true-scale map about another centre is still the identity
  m.centre = glm::vec3(3, 4, 5);
  EXPECT_EQ(map_point(m, glm::vec3(1, 2, 3)), glm::vec3(1, 2, 3));
}

TEST(DistanceScale, LogIsContinuousMonotonicAndKeepsTheReference) {
  const DistanceMap m = log_distance_map(glm::vec3(0), 30.0f);  // Neptune's 30 AU kept
  EXPECT_DOUBLE_EQ(map_distance(m, 0.0), 0.0);
  EXPECT_NEAR(map_distance(m, 30.0), 30.0, 1e-5);
  // strictly increasing over 12 decades, and continuous: small steps give small changes
  double prev = 0, r = 1e-8;
  while (r < 1e4) {
    const double f = map_distance(m, r);
    EXPECT_GT(f, prev) << "r = " << r;
    const double step = map_distance(m, r * (1 + 1e-6)) - f;
    EXPECT_GE(step, 0);
    EXPECT_LT(step, 1e-5 * std::max(f, 1e-6)) << "a jump at r = " << r;
    prev = f;
    r *= 1.1;
  }
  // inside the reference radius bodies move out, beyond it in: the inner planets spread
  EXPECT_GT(map_distance(m, 0.387), 5.0);  // Mercury about 5 AU from the Sun
  EXPECT_LT(map_distance(m, 0.387), 6.0);
  EXPECT_GT(map_distance(m, 1.0), 9.0);      // Earth
  EXPECT_LT(map_distance(m, 1000.0), 60.0);  // a long-period comet far out comes in
  // the ratio Mercury : Neptune goes from 1 : 78 to about 1 : 5.5
  EXPECT_GT(map_distance(m, 0.387) / map_distance(m, 30.07), 0.15);
}

TEST(DistanceScale, UnmapInvertsMapAndDirectionsAreKept) {
  const glm::vec3 sun(0.01f, -0.02f, 0.003f);
  const DistanceMap m = log_distance_map(sun, 30.0f);
  for (double r : {1e-6, 0.01, 0.387, 1.0, 5.2, 30.0, 500.0}) {
    const double d = map_distance(m, r);
    EXPECT_NEAR(unmap_distance(m, d), r, 1e-9 * std::max(r, 1.0));
  }
  const glm::vec3 earth(0.6f, 0.8f, 0.01f);
  const glm::vec3 drawn = map_point(m, earth);
  // same direction from the centre, mapped distance
  const glm::vec3 a = glm::normalize(earth - sun), b = glm::normalize(drawn - sun);
  EXPECT_NEAR(glm::dot(a, b), 1.0f, 1e-6f);
  EXPECT_NEAR(glm::length(drawn - sun), map_distance(m, glm::length(earth - sun)), 1e-4);
  const glm::vec3 back = unmap_point(m, drawn);
  EXPECT_NEAR(back.x, earth.x, 1e-5f);
  EXPECT_NEAR(back.y, earth.y, 1e-5f);
  EXPECT_NEAR(back.z, earth.z, 1e-5f);
  // the centre stays where it is
  EXPECT_EQ(map_point(m, sun), sun);
}

TEST(DistanceScale, BadParametersFallBackAndNamesParse) {
  const DistanceMap m = log_distance_map(glm::vec3(0), -1.0f, 0.5f);
  EXPECT_GT(m.reference, 0);
  EXPECT_GT(m.inner, 0);
  EXPECT_LT(m.inner, m.reference);
  DistanceScale s = DistanceScale::True;
  EXPECT_TRUE(parse_distance_scale("log", s));
  EXPECT_EQ(s, DistanceScale::Log);
  EXPECT_TRUE(parse_distance_scale("true", s));
  EXPECT_EQ(s, DistanceScale::True);
  EXPECT_FALSE(parse_distance_scale("linear", s));
  EXPECT_STREQ(distance_scale_name(DistanceScale::Log), "log");
}

TEST(DistanceScale, ShadersThatDrawPositionsIncludeTheSameMap) {
  for (const char* name :
       {"shaders/particles.vert", "shaders/trails.vert", "shaders/orbit_lines.vert"}) {
    const std::string src = expand_includes(shader_source(name));
    EXPECT_NE(src.find("vec3 display_position(vec3 p)"), std::string::npos) << name;
    EXPECT_NE(src.find("display_position(in_"), std::string::npos) << name;
    EXPECT_EQ(src.find("#include"), std::string::npos) << name;
    EXPECT_EQ(src.rfind("#version 450 core", 0), 0u) << name;
  }
  EXPECT_THROW(expand_includes("#version 450 core\n#include \"shaders/none.glsl\"\n"),
               std::exception);
}
