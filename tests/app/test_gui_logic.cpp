// Pure helpers of the window: calendar dates, speed and steps, body colours, scale bar lengths,
// kernel descriptions, the capture folder.
#include <gtest/gtest.h>

#include <cmath>

#include "app/window/gui_logic.hpp"
#include "sim/core/scene.hpp"
#include "sim/core/units.hpp"

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
  EXPECT_EQ(format_speed(0.25, units::henon()), "1 s = 0.25 N-body");
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

// issue 20: "T" and "L" for Hénon units; "t = 0 minutes" then "4.89e+05 years" in a Myr scene
TEST(GuiLogic, UnitsReadAsATeacherExpects) {
  const UnitSystem henon = units::henon();
  EXPECT_EQ(format_span(4.3, henon), "4.3 N-body time units");
  EXPECT_EQ(time_label(henon), "N-body time units");
  EXPECT_EQ(length_label(henon), "N-body length units");
  const UnitSystem gal = units::galactic();
  EXPECT_EQ(format_span(0, gal), "0 Myr");
  // the galactic time unit, kpc / (km/s), is 0.978 Gyr
  EXPECT_EQ(format_span(0.0005, gal), "0.489 Myr");
  EXPECT_EQ(format_span(0.5, gal), "489 Myr");
  EXPECT_EQ(format_span(2, gal), "1.96 Gyr");
  const UnitSystem solar = units::solar();
  EXPECT_EQ(format_span(3, solar), "3 days");
  EXPECT_EQ(length_label(solar), "AU");
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

// issue 20 item 4: the camera follows a centre: exact from host positions, else measured
// twice a second and moved on at its velocity
TEST(GuiLogic, CentresToFollow) {
  // two bodies of mass 1 and 3, a massless one
  const std::vector<float> xyzm = {0, 0, 0, 1, 4, 0, 0, 3, 100, 100, 100, 0};
  glm::dvec3 c;
  ASSERT_TRUE(mass_centre(xyzm, 0, 3, c));
  EXPECT_DOUBLE_EQ(c.x, 3.0);
  EXPECT_DOUBLE_EQ(c.y, 0.0);
  // massless bodies alone: their mean position
  ASSERT_TRUE(mass_centre(xyzm, 2, 3, c));
  EXPECT_DOUBLE_EQ(c.z, 100.0);
  EXPECT_FALSE(mass_centre(xyzm, 1, 1, c));
  EXPECT_FALSE(mass_centre(xyzm, 0, 4, c));
  // measured at t = 1 and 2, moving +1 in x per unit time
  const glm::dvec3 c0(1, 0, 0), c1(2, 0, 0);
  EXPECT_DOUBLE_EQ(moved_centre(1, c0, 2, c1, 2.5).x, 2.5);
  EXPECT_DOUBLE_EQ(moved_centre(1, c0, 2, c1, 10).x, 4.0);   // at most two intervals on
  EXPECT_DOUBLE_EQ(moved_centre(1, c0, 2, c1, 1.5).x, 2.0);  // never back before t1
  // a run backwards: measured at t = 2 then 1
  EXPECT_DOUBLE_EQ(moved_centre(2, c1, 1, c0, 0.5).x, 0.5);
  EXPECT_DOUBLE_EQ(moved_centre(2, c0, 2, c1, 3).x, 2.0);  // no interval: the last
}

// issue 20 item 4: orbit ellipses of the named bodies about their attractors
TEST(GuiLogic, OrbitOutlinesOfTheSolarSystem) {
  const Scene s = make_scene("solar-system", {});
  const auto orbits = orbit_outlines(s.bodies, s.body_class, s.units.G, 128);
  auto index = [&](const std::string& name) {
    for (std::size_t i = 0; i < s.bodies.size(); ++i)
      if (s.bodies.name[i] == name) return i;
    return s.bodies.size();
  };
  // every body but the Sun has one; the Moon's is about the Earth, the others' about the Sun
  ASSERT_EQ(orbits.size(), s.bodies.size() - 1);
  for (const OrbitOutline& o : orbits) {
    EXPECT_EQ(o.points.size(), 128u);
    const std::string& name = s.bodies.name[o.body];
    EXPECT_EQ(o.centre, index(name == "Moon" ? "Earth" : "Sun")) << name;
  }
  // the Earth's orbit: 0.983 .. 1.017 AU from the Sun
  for (const OrbitOutline& o : orbits)
    if (s.bodies.name[o.body] == "Earth")
      for (const glm::dvec3& p : o.points) {
        EXPECT_GT(glm::length(p), 0.98);
        EXPECT_LT(glm::length(p), 1.02);
      }
  // too many named bodies: none
  EXPECT_TRUE(orbit_outlines(s.bodies, s.body_class, s.units.G, 128, 3).empty());
}

TEST(GuiLogic, LogDistancesCentreOnTheSunAndKeepNeptune) {
  Bodies b;
  b.add(0.001, 0, 0, 0, 0, 0, 1.0, Component::Star, "Sun");
  b.add(0.387, 0, 0, 0, 0, 0, 1.66e-7, Component::Planet, "Mercury");
  b.add(0, 1.0, 0, 0, 0, 0, 3.0e-6, Component::Planet, "Earth");
  b.add(-30.07, 0, 0, 0, 0, 0, 5.15e-5, Component::Planet, "Neptune");
  b.add(0, 0, 80.0, 0, 0, 0, 0, Component::Planet, "comet");
  EXPECT_EQ(dominant_body(b), 0);
  // the comet is a small body (it has a class): Neptune sets the reference
  const std::vector<std::string> cls = {"", "", "", "", "JFc"};
  EXPECT_NEAR(log_reference_radius(b, cls, 0), 30.071, 1e-9);
  // without classes the comet counts as a planet
  EXPECT_NEAR(log_reference_radius(b, {}, 0), 80.0, 1e-6);
  // no dominant body (two equal stars): none
  Bodies pair;
  pair.add(-1, 0, 0, 0, 0, 0, 1.0);
  pair.add(1, 0, 0, 0, 0, 0, 1.0);
  EXPECT_EQ(dominant_body(pair), -1);
  // unnamed bodies: the 95th percentile of the distances from the origin, the dark halo left out
  Bodies cloud;
  for (int i = 1; i <= 100; ++i)
    cloud.add(static_cast<double>(i), 0, 0, 0, 0, 0, 1.0);
  cloud.add(1e6, 0, 0, 0, 0, 0, 1.0, Component::Dark);
  const double r = log_reference_radius(cloud, {}, dominant_body(cloud));
  EXPECT_GE(r, 94.0);
  EXPECT_LE(r, 96.0);
}

TEST(GuiLogic, LogRulerMarksSitWhereThoseDistancesAreDrawn) {
  const render::DistanceMap m = render::log_distance_map(glm::vec3(0), 30.0f);
  const double units_per_px = 0.05;  // 30 AU drawn 600 px from the Sun
  const std::vector<RulerMark> marks = log_ruler(m, units_per_px, 700, 40);
  ASSERT_GE(marks.size(), 5u);
  for (std::size_t i = 0; i < marks.size(); ++i) {
    // nice lengths: 1, 2 or 5 times a power of ten
    EXPECT_NEAR(nice_length(marks[i].length * (1 + 1e-12)), marks[i].length,
                1e-9 * marks[i].length);
    EXPECT_NEAR(marks[i].px, render::map_distance(m, marks[i].length) / units_per_px, 1e-6);
    EXPECT_LE(marks[i].px, 700);
    EXPECT_GE(marks[i].px, 40);
    if (i > 0) {
      EXPECT_GT(marks[i].length, marks[i - 1].length);
      EXPECT_GE(marks[i].px - marks[i - 1].px, 40);
    }
  }
  // 1 and 10 AU are both there, 100 AU is past the bar's end (f(100) > 35 AU = 700 px); the
  // inner marks are closer together in true length than the outer ones (log)
  bool one = false, ten = false;
  for (const RulerMark& k : marks)
    one |= k.length == 1.0, ten |= k.length == 10.0;
  EXPECT_TRUE(one);
  EXPECT_TRUE(ten);
  EXPECT_LT(marks.back().length, 100.0);
  EXPECT_LE(marks.front().length, 0.5);
  EXPECT_TRUE(log_ruler(m, 0, 700, 40).empty());
}
