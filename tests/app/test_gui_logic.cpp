// Pure helpers of the window: calendar dates, speed and steps, body colours, scale bar lengths,
// kernel descriptions, the capture folder.
#include <gtest/gtest.h>

#include <cmath>

#include "app/gui_logic.hpp"
#include "sim/units.hpp"

using namespace nbody;
using namespace nbody::app;

TEST(GuiLogic, JulianDatesBecomeUtcCalendarDates) {
  EXPECT_EQ(format_julian_date(2451545.0), "2000-01-01 12:00 UTC");  // J2000
  EXPECT_EQ(format_julian_date(2451000.5), "1998-07-06 00:00 UTC");  // the solar-system epoch
  EXPECT_EQ(format_julian_date(2451000.5 + 10.25), "1998-07-16 06:00 UTC");
  EXPECT_EQ(format_julian_date(2460000.5), "2023-02-25 00:00 UTC");
  EXPECT_EQ(format_julian_date(2451604.5), "2000-03-01 00:00 UTC");  // after a leap day
}

TEST(GuiLogic, SpeedIsSimulatedTimePerSecondAndStepsFollow) {
  UnitSystem solar = units::solar();
  EXPECT_EQ(format_speed(10.0, solar), "1 s = 10 days");
  EXPECT_EQ(format_speed(1.0, solar), "1 s = 1 day");
  EXPECT_EQ(format_speed(365.25 * 3, solar), "1 s = 3 years");
  EXPECT_EQ(format_speed(0.5, solar), "1 s = 12 hours");
  EXPECT_EQ(format_speed(0.25, units::henon()), "1 s = 0.25 " + units::henon().time);
  EXPECT_DOUBLE_EQ(steps_per_second(10.0, 0.1), 100.0);
  // 0.5 s at 10 days/s is 5 days: 50 steps of 0.1 day, none done yet
  EXPECT_EQ(steps_due(10.0, 0.1, 0.5, 0.0, 1000), 50);
  EXPECT_EQ(steps_due(10.0, 0.1, 0.5, 4.0, 1000), 10);
  EXPECT_EQ(steps_due(10.0, 0.1, 0.5, 5.0, 1000), 0);
  EXPECT_EQ(steps_due(10.0, 0.1, 0.5, 0.0, 20), 20);   // capped
  EXPECT_EQ(steps_due(10.0, 0.1, 0.5, 9.0, 1000), 0);  // ahead: wait
}

TEST(GuiLogic, BodiesHaveTheirColoursAndReadableSizes) {
  glm::vec3 sun, earth, mars;
  ASSERT_TRUE(body_color("Sun", sun));
  ASSERT_TRUE(body_color("Earth", earth));
  ASSERT_TRUE(body_color("mars", mars));
  EXPECT_GT(sun.r, 0.9f);  // yellow
  EXPECT_GT(sun.g, 0.7f);
  EXPECT_LT(sun.b, 0.5f);
  EXPECT_GT(earth.b, earth.r);    // blue
  EXPECT_GT(mars.r, 2 * mars.g);  // red
  glm::vec3 none;
  EXPECT_FALSE(body_color("Vulcan", none));
  EXPECT_GT(body_size_px("Sun"), body_size_px("Jupiter"));
  EXPECT_GT(body_size_px("Jupiter"), body_size_px("Earth"));
  EXPECT_GT(body_size_px("Earth"), body_size_px("Moon"));
  EXPECT_EQ(body_size_px("Vulcan"), 0.0f);
}

// issue 20: Earth and Neptune shared a colour; Venus, Jupiter and Saturn were all beige
TEST(GuiLogic, PlanetsHaveDistinctColours) {
  const char* planets[] = {"Mercury", "Venus",  "Earth",  "Mars",
                           "Jupiter", "Saturn", "Uranus", "Neptune"};
  for (const char* a : planets)
    for (const char* b : planets) {
      if (std::string(a) >= b) continue;
      glm::vec3 ca, cb;
      ASSERT_TRUE(body_color(a, ca));
      ASSERT_TRUE(body_color(b, cb));
      EXPECT_GE(glm::length(ca - cb), 0.25f) << a << " and " << b << " look alike";
    }
}

TEST(GuiLogic, ScaleBarLengthsAreNice) {
  EXPECT_DOUBLE_EQ(nice_length(7.3), 5.0);
  EXPECT_DOUBLE_EQ(nice_length(3.0), 2.0);
  EXPECT_DOUBLE_EQ(nice_length(1.0), 1.0);
  EXPECT_NEAR(nice_length(0.034), 0.02, 1e-15);
  EXPECT_DOUBLE_EQ(nice_length(0.0), 0.0);
  EXPECT_EQ(format_length(5, "AU"), "5 AU");
  EXPECT_EQ(format_length(0.2, ""), "0.2 length units");
}

TEST(GuiLogic, KernelDescriptionsSayWhatTheKernelDoes) {
  std::string d = kernel_description("cpu-symmetric", "each pair once (seed 000)");
  EXPECT_EQ(d.find("seed"), std::string::npos);
  EXPECT_NE(d.find("third law"), std::string::npos);
  EXPECT_EQ(kernel_description("new-kernel", "does things (seed 004) fast"), "does things fast");
  EXPECT_NE(kernel_description("tiled", "").find("GPU Gems 3"), std::string::npos);
}

TEST(GuiLogic, CaptureFolderExists) {
  std::string d = default_capture_dir();
  EXPECT_FALSE(d.empty());
}

// asteroids and comets take the colour of their kind, one legend entry per kind
TEST(GuiLogic, SmallBodiesAreColouredByTheirClass) {
  glm::vec3 mba, tjn, jfc, htc, neo, odd;
  std::string a, b, c, d, e, f;
  ASSERT_TRUE(small_body_color("MBA", mba, a));
  ASSERT_TRUE(small_body_color("TJN", tjn, b));
  ASSERT_TRUE(small_body_color("JFc", jfc, c));
  ASSERT_TRUE(small_body_color("HTC", htc, d));
  ASSERT_TRUE(small_body_color("APO", neo, e));
  EXPECT_FALSE(small_body_color("XYZ", odd, f));
  EXPECT_FALSE(small_body_color("", odd, f));
  EXPECT_EQ(a, "main belt");
  EXPECT_EQ(b, "Jupiter trojans");
  EXPECT_EQ(c, d);  // both comets
  EXPECT_EQ(jfc, htc);
  EXPECT_NE(mba, tjn);
  EXPECT_GT(tjn.g, tjn.r);  // trojans green
  EXPECT_GT(neo.r, neo.g);  // near-Earth red
  EXPECT_EQ(f, "other");
}
