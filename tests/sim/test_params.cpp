#include "sim/core/params.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "tests/test_util.hpp"

using namespace nbody;

namespace {
std::string error_of(const SimParams& p) {
  return test::error_of([&] { validate(p); });
}
}  // namespace

TEST(SimParams, DefaultsAreValid) {
  EXPECT_EQ(error_of(SimParams{}), "");
}

TEST(SimParams, RejectsBadValuesNamingTheParameter) {
  SimParams p;
  p.dt = 0;
  EXPECT_EQ(error_of(p), "dt must be finite and not 0 (got 0; < 0 runs time backwards)");
  p.dt = -1;  // backwards: every integrator of the table is time-reversible
  EXPECT_EQ(error_of(p), "");
  p.dt = NAN;
  EXPECT_NE(error_of(p).find("dt must be finite and not 0"), std::string::npos);
  p = {};
  p.softening = -0.1;
  EXPECT_EQ(error_of(p), "softening (epsilon) must be >= 0 (got -0.1)");
  p = {};
  p.softening = 0;
  EXPECT_EQ(error_of(p), "");
  p.G = 0;
  EXPECT_EQ(error_of(p), "G must be > 0 (got 0)");
  p = {};
  p.steps_per_frame = 0;
  EXPECT_NE(error_of(p).find("steps per frame"), std::string::npos);
}

TEST(SimParams, ParsePrecision) {
  EXPECT_EQ(parse_precision("float"), Precision::Float);
  EXPECT_EQ(parse_precision("double"), Precision::Double);
  try {
    parse_precision("half", "--precision");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "--precision: unknown precision 'half' (allowed: float, double)");
  }
}
