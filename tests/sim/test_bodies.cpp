#include "sim/core/bodies.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "sim/core/error.hpp"

using namespace nbody;

namespace {
std::string message_of(const Bodies& b, const std::string& src) {
  try {
    b.validate(src);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Bodies, AddAppendAndNames) {
  Bodies a;
  a.add(1, 2, 3, 4, 5, 6, 7);
  Bodies b;
  b.add(0, 0, 0, 0, 0, 0, 1, Component::Planet, "Earth");
  a.append(b);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(a.name.size(), 2u);
  EXPECT_EQ(a.name[0], "");
  EXPECT_EQ(a.name[1], "Earth");
  EXPECT_EQ(a.component[1], Component::Planet);
  EXPECT_DOUBLE_EQ(a.total_mass(), 8);
}

TEST(Bodies, CentreOfMassFrame) {
  Bodies b;
  b.add(1, 0, 0, 0, 1, 0, 3);
  b.add(-2, 4, 0, 1, 0, 0, 1);
  b.to_centre_of_mass_frame();
  double cx = 0, cy = 0, px = 0, py = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    cx += b.m[i] * b.x[i];
    cy += b.m[i] * b.y[i];
    px += b.m[i] * b.vx[i];
    py += b.m[i] * b.vy[i];
  }
  EXPECT_NEAR(cx, 0, 1e-14);
  EXPECT_NEAR(cy, 0, 1e-14);
  EXPECT_NEAR(px, 0, 1e-14);
  EXPECT_NEAR(py, 0, 1e-14);
}

TEST(Bodies, ValidateRejectsBadInputNamingTheSource) {
  Bodies empty;
  EXPECT_NE(message_of(empty, "f.csv").find("f.csv: no bodies (N = 0)"), std::string::npos);

  Bodies nan;
  nan.add(0, std::numeric_limits<double>::quiet_NaN(), 0, 0, 0, 0, 1);
  const std::string m1 = message_of(nan, "nan.bin");
  EXPECT_NE(m1.find("nan.bin"), std::string::npos);
  EXPECT_NE(m1.find("non-finite y"), std::string::npos);

  Bodies inf;
  inf.add(0, 0, 0, std::numeric_limits<double>::infinity(), 0, 0, 1);
  EXPECT_NE(message_of(inf, "x").find("non-finite vx"), std::string::npos);

  Bodies neg;
  neg.add(0, 0, 0, 0, 0, 0, 1);
  neg.add(1, 0, 0, 0, 0, 0, -0.5);
  EXPECT_NE(message_of(neg, "x").find("body 1 has a negative mass"), std::string::npos);

  Bodies zero;
  zero.add(0, 0, 0, 0, 0, 0, 0);
  EXPECT_NE(message_of(zero, "x").find("total mass must be positive"), std::string::npos);

  Bodies ok;
  ok.add(0, 0, 0, 0, 0, 0, 1);
  EXPECT_EQ(message_of(ok, "x"), "");
}
