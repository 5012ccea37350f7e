#include "sim/core/units.hpp"

#include <cmath>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "sim/core/error.hpp"

using namespace nbody;

TEST(Units, SolarGIsGaussianConstantSquared) {
  const UnitSystem u = units::solar();
  EXPECT_DOUBLE_EQ(u.G, 0.01720209895 * 0.01720209895);
  // G from the SI scales agrees with the stated G
  const double g_si = 6.67430e-11 * u.mass_kg * u.time_s * u.time_s / std::pow(u.length_m, 3);
  EXPECT_NEAR(g_si / u.G, 1.0, 1e-9);
}

TEST(Units, GalacticAndAgoraG) {
  // G = 4.30091e-6 kpc (km/s)^2 / Msun
  EXPECT_NEAR(units::galactic().G / 4.30091e4, 1.0, 1e-4);
  EXPECT_NEAR(units::agora().G / 4.30091e3, 1.0, 1e-4);
  EXPECT_NEAR(units::galactic().time_s / 3.0857e16, 1.0, 1e-4);
}

TEST(Units, ConversionAgoraToGalactic) {
  const auto c = units::conversion(units::agora(), units::galactic());
  EXPECT_DOUBLE_EQ(c.length, 1.0);
  EXPECT_NEAR(c.mass, 0.1, 1e-15);
  EXPECT_NEAR(c.velocity, 1.0, 1e-15);
  // G scales as L^3 / (M T^2): converted G agrees
  const double g = units::agora().G * c.length * c.length * c.length / (c.mass * c.time * c.time);
  EXPECT_NEAR(g / units::galactic().G, 1.0, 1e-12);
}

TEST(Units, HenonCannotConvertToPhysical) {
  EXPECT_THROW(units::conversion(units::henon(), units::solar()), Error);
  EXPECT_NO_THROW(units::conversion(units::henon(), units::henon()));
}

TEST(Units, ByNameRejectsUnknownAndNamesTheOption) {
  EXPECT_EQ(units::by_name("agora").name, "agora");
  try {
    units::by_name("parsec", "--tipsy-units");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--tipsy-units"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("parsec"), std::string::npos);
  }
}

TEST(Units, FormatTime) {
  EXPECT_EQ(units::format_time(365.25, units::solar()), "365.25 days");
  EXPECT_EQ(units::format_time(3652.5, units::solar()), "10 yr");
  EXPECT_EQ(units::format_time(10, units::solar()), "10 days");
  EXPECT_NE(units::format_time(1.0, units::galactic()).find("Myr"), std::string::npos);
  EXPECT_NE(units::format_time(2.5, units::henon()).find("2.5"), std::string::npos);
}

TEST(Units, FormatTimeRounded) {
  // rounded in the unit shown: 0.265 kpc/(km/s) is 259.1 Myr
  EXPECT_EQ(units::format_time_rounded(0.265, units::galactic()), "260 Myr");
  EXPECT_EQ(units::format_time_rounded(0.265, units::galactic(), 3), "259 Myr");
  EXPECT_EQ(units::format_time_rounded(1.25, units::galactic()), "1200 Myr");
  EXPECT_EQ(units::format_time_rounded(4.667, units::henon()), "4.7 T");
  EXPECT_EQ(units::format_time_rounded(0.0123, units::henon()), "0.012 T");
  EXPECT_EQ(units::format_time_rounded(3652.5, units::solar(), 1), "10 yr");
  EXPECT_EQ(units::format_time_rounded(0, units::henon()), "0 T");
}

TEST(Units, ParseDurationInUnitsOrTheScenes) {
  const UnitSystem solar = units::solar(), henon = units::henon(), gal = units::galactic();
  EXPECT_DOUBLE_EQ(units::parse_duration("10yr", solar, "--duration"), 3652.5);
  EXPECT_DOUBLE_EQ(units::parse_duration("10 yr", solar, "--duration"), 3652.5);
  EXPECT_DOUBLE_EQ(units::parse_duration("365.25d", solar, "--duration"), 365.25);
  EXPECT_DOUBLE_EQ(units::parse_duration("3.5", solar, "--duration"), 3.5);      // days
  EXPECT_DOUBLE_EQ(units::parse_duration("3.5 day", solar, "--duration"), 3.5);  // its label
  EXPECT_DOUBLE_EQ(units::parse_duration("3.5", henon, "--duration"), 3.5);
  EXPECT_DOUBLE_EQ(units::parse_duration("2 T", henon, "--duration"), 2.0);
  EXPECT_NEAR(units::parse_duration("1Myr", gal, "--duration"), 1e6 * 365.25 * 86400 / gal.time_s,
              1e-15);
  // each error names the option and what is wrong
  auto error_of = [](const std::string& text, const UnitSystem& u) -> std::string {
    try {
      units::parse_duration(text, u, "--duration");
    } catch (const Error& e) {
      return e.what();
    }
    return {};
  };
  for (const auto& [text, u, says] :
       {std::tuple{"10 parsec", solar, "unknown time unit 'parsec'"},
        std::tuple{"ten years", solar, "not a time"}, std::tuple{"-1yr", solar, "> 0"},
        std::tuple{"0", solar, "> 0"}, std::tuple{"inf", solar, "finite"},
        std::tuple{"1yr", henon, "dimensionless"}}) {
    const std::string what = error_of(text, u);
    EXPECT_NE(what.find("--duration"), std::string::npos) << text << ": " << what;
    EXPECT_NE(what.find(says), std::string::npos) << text << ": " << what;
  }
}
