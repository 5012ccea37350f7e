// Native CSV: round trips, header handling and bad input.

#include <gtest/gtest.h>

#include <sstream>

#include "sim/core/error.hpp"
#include "sim/io/io.hpp"
#include "tests/test_util.hpp"

using namespace nbody;
using nbody::test::error_of;

namespace {

Scene small_scene() {
  Scene s;
  s.name = "test scene";
  s.units = units::solar();
  s.dt = 0.25;
  s.softening = 0.001;
  s.camera_distance = 42;
  s.bodies.add(0, 0, 0, 0, 0, 0, 1.0, Component::Star, "Sun");
  s.bodies.add(1, 0.1, -0.2, 0.001, 0.0172, 1e-5, 3.0e-6, Component::Planet, "Earth, \"blue\"");
  s.bodies.add(5.2, -1e-3, 0.3, 1.0 / 3.0, -7e-3, 0, 9.5e-4, Component::Planet, "Jupiter");
  return s;
}

Scene parse(const std::string& text, const std::string& source = "test.csv") {
  std::istringstream in(text);
  return io::read_csv(in, source);
}

const std::string kHeader = "# nbody csv v1 units=henon G=1\n";

}  // namespace

// the scene's viewing direction travels with the file (render --load of a saved collision looks
// the same way); a file without it leaves the viewer's own; half of it or a bad value is an error
TEST(Csv, CameraDirectionRoundTrips) {
  Scene s = small_scene();
  s.camera_yaw = 0.7;
  s.camera_pitch = -0.3;
  std::ostringstream out;
  io::write_csv(out, s);
  EXPECT_NE(out.str().find(" camera_yaw=0.7"), std::string::npos) << out.str();
  const Scene r = parse(out.str());
  EXPECT_EQ(r.camera_yaw, 0.7);
  EXPECT_EQ(r.camera_pitch, -0.3);
  std::ostringstream plain;
  io::write_csv(plain, small_scene());
  EXPECT_EQ(plain.str().find("camera_yaw"), std::string::npos);
  EXPECT_TRUE(std::isnan(parse(plain.str()).camera_yaw));
  const std::string body = "0,0,0,0,0,0,1\n";
  auto m = error_of([&] { parse("# nbody csv v1 units=henon G=1 camera_yaw=0.5\n" + body); });
  EXPECT_NE(m.find("test.csv"), std::string::npos) << m;
  EXPECT_NE(m.find("camera_yaw without camera_pitch"), std::string::npos) << m;
  m = error_of(
      [&] { parse("# nbody csv v1 units=henon G=1 camera_yaw=up camera_pitch=0\n" + body); });
  EXPECT_NE(m.find("camera_yaw='up'"), std::string::npos) << m;
  EXPECT_NE(m.find("radians"), std::string::npos) << m;
}

TEST(Csv, RoundTripIsExact) {
  Scene s = small_scene();
  std::ostringstream out;
  io::write_csv(out, s);
  Scene r = parse(out.str());
  ASSERT_EQ(r.bodies.size(), 3u);
  EXPECT_EQ(r.units.name, "solar");
  EXPECT_EQ(r.units.G, s.units.G);
  EXPECT_EQ(r.units.length, s.units.length);
  EXPECT_EQ(r.units.length_m, s.units.length_m);
  EXPECT_EQ(r.dt, 0.25);
  EXPECT_EQ(r.softening, 0.001);
  EXPECT_EQ(r.camera_distance, 42);
  EXPECT_EQ(r.name, "test scene");
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.bodies.x[i], s.bodies.x[i]);
    EXPECT_EQ(r.bodies.y[i], s.bodies.y[i]);
    EXPECT_EQ(r.bodies.z[i], s.bodies.z[i]);
    EXPECT_EQ(r.bodies.vx[i], s.bodies.vx[i]);
    EXPECT_EQ(r.bodies.vy[i], s.bodies.vy[i]);
    EXPECT_EQ(r.bodies.vz[i], s.bodies.vz[i]);
    EXPECT_EQ(r.bodies.m[i], s.bodies.m[i]);
    EXPECT_EQ(r.bodies.component[i], s.bodies.component[i]);
    EXPECT_EQ(r.bodies.name[i], s.bodies.name[i]);
  }
}

TEST(Csv, CustomUnitsWithBlanksRoundTrip) {
  Scene s = small_scene();
  s.units = UnitSystem{"custom", "my len", "1e9 Msun", "Myr", "km/s", 3.0e19, 2e39, 3.15e13, 4.5};
  std::ostringstream out;
  io::write_csv(out, s);
  Scene r = parse(out.str());
  EXPECT_EQ(r.units.name, "custom");
  EXPECT_EQ(r.units.length, "my len");
  EXPECT_EQ(r.units.mass, "1e9 Msun");
  EXPECT_EQ(r.units.G, 4.5);
  EXPECT_EQ(r.units.mass_kg, 2e39);
}

TEST(Csv, MinimalSevenColumnsNoColumnHeader) {
  Scene r = parse(kHeader + "1,2,3,4,5,6,0.5\n\n# a comment\n-1, -2 ,-3,0,0,0,0.5\r\n");
  ASSERT_EQ(r.bodies.size(), 2u);
  EXPECT_EQ(r.bodies.y[1], -2);
  EXPECT_EQ(r.units.G, 1);
  EXPECT_TRUE(r.bodies.name.empty());
  EXPECT_EQ(r.bodies.component[0], Component::Star);
  EXPECT_GT(r.dt, 0);
  EXPECT_GT(r.camera_distance, 0);
}

TEST(Csv, ComponentByNameAnyCase) {
  Scene r = parse(kHeader + "x,y,z,vx,vy,vz,m,component\n0,0,0,0,0,0,1,gas\n1,0,0,0,0,0,1,Bulge\n");
  EXPECT_EQ(r.bodies.component[0], Component::Gas);
  EXPECT_EQ(r.bodies.component[1], Component::Bulge);
}

// issue 10, finding 9: an 8th column of 1s and 2s silently became disk/bulge components
TEST(CsvBadInput, ComponentNumbersAreRefused) {
  const std::string m = error_of([] { parse(kHeader + "0,0,0,0,0,0,1,1\n1,0,0,0,0,0,1,2\n"); });
  EXPECT_NE(m.find("test.csv:2"), std::string::npos) << m;
  EXPECT_NE(m.find("column 8 (component): '1' is not a component name"), std::string::npos) << m;
}

TEST(Csv, TargetUnitsConvert) {
  Scene s = small_scene();
  std::ostringstream out;
  io::write_csv(out, s);
  std::istringstream in(out.str());
  io::LoadOptions opt;
  opt.target_units = units::galactic();
  Scene r = io::read_csv(in, "x.csv", opt);
  EXPECT_EQ(r.units.name, "galactic");
  auto c = units::conversion(units::solar(), units::galactic());
  EXPECT_DOUBLE_EQ(r.bodies.x[2], 5.2 * c.length);
  EXPECT_DOUBLE_EQ(r.bodies.m[0], c.mass);
  EXPECT_DOUBLE_EQ(r.dt, 0.25 * c.time);
}

TEST(CsvBadInput, MissingHeader) {
  auto m = error_of([] { parse("1,2,3,4,5,6,7\n", "plain.csv"); });
  EXPECT_NE(m.find("plain.csv:1"), std::string::npos) << m;
  EXPECT_NE(m.find("'# nbody csv v1 ...' header"), std::string::npos) << m;
  EXPECT_NE(m.find("x,y,z,vx,vy,vz,m"), std::string::npos) << m;
}

TEST(CsvBadInput, EmptyFile) {
  auto m = error_of([] { parse("", "empty.csv"); });
  EXPECT_NE(m.find("empty.csv"), std::string::npos) << m;
  EXPECT_NE(m.find("empty"), std::string::npos) << m;
}

TEST(CsvBadInput, NoBodies) {
  auto m = error_of([] { parse(kHeader + "x,y,z,vx,vy,vz,m\n", "none.csv"); });
  EXPECT_NE(m.find("none.csv"), std::string::npos) << m;
  EXPECT_NE(m.find("N = 0"), std::string::npos) << m;
}

TEST(CsvBadInput, NonNumericFieldNamesLineAndColumn) {
  auto m = error_of([] { parse(kHeader + "0,0,0,0,0,0,1\n1,2,abc,0,0,0,1\n", "bad.csv"); });
  EXPECT_NE(m.find("bad.csv:3"), std::string::npos) << m;
  EXPECT_NE(m.find("column 3 (z)"), std::string::npos) << m;
  EXPECT_NE(m.find("'abc' is not a number"), std::string::npos) << m;
}

TEST(CsvBadInput, TrailingGarbageInNumber) {
  auto m = error_of([] { parse(kHeader + "0,0,0,0,0,1.5x,1\n", "bad.csv"); });
  EXPECT_NE(m.find("column 6 (vz)"), std::string::npos) << m;
}

TEST(CsvBadInput, NaNAndInf) {
  auto m = error_of([] { parse(kHeader + "0,nan,0,0,0,0,1\n", "nan.csv"); });
  EXPECT_NE(m.find("nan.csv:2"), std::string::npos) << m;
  EXPECT_NE(m.find("not finite"), std::string::npos) << m;
  m = error_of([] { parse(kHeader + "0,0,0,0,0,0,inf\n", "inf.csv"); });
  EXPECT_NE(m.find("column 7 (m)"), std::string::npos) << m;
  EXPECT_NE(m.find("not finite"), std::string::npos) << m;
}

TEST(CsvBadInput, NegativeMass) {
  auto m = error_of([] { parse(kHeader + "0,0,0,0,0,0,1\n0,0,0,0,0,0,-1\n", "neg.csv"); });
  EXPECT_NE(m.find("neg.csv:3"), std::string::npos) << m;
  EXPECT_NE(m.find("negative mass"), std::string::npos) << m;
}

TEST(CsvBadInput, ZeroTotalMass) {
  auto m = error_of([] { parse(kHeader + "0,0,0,0,0,0,0\n1,0,0,0,0,0,0\n", "zero.csv"); });
  EXPECT_NE(m.find("zero.csv"), std::string::npos) << m;
  EXPECT_NE(m.find("mass"), std::string::npos) << m;
}

TEST(CsvBadInput, TooFewFields) {
  auto m = error_of([] { parse(kHeader + "0,0,0,0,0\n", "short.csv"); });
  EXPECT_NE(m.find("short.csv:2"), std::string::npos) << m;
  EXPECT_NE(m.find("found 5"), std::string::npos) << m;
}

TEST(CsvBadInput, UnknownComponent) {
  auto m = error_of([] { parse(kHeader + "0,0,0,0,0,0,1,comet\n", "c.csv"); });
  EXPECT_NE(m.find("column 8 (component)"), std::string::npos) << m;
}

TEST(CsvBadInput, BadHeaderValues) {
  auto m =
      error_of([] { parse("# nbody csv v1 units=custom length=m\n0,0,0,0,0,0,1\n", "h.csv"); });
  EXPECT_NE(m.find("h.csv:1"), std::string::npos) << m;
  EXPECT_NE(m.find("no G"), std::string::npos) << m;
  m = error_of([] { parse("# nbody csv v1 units=henon G=abc\n0,0,0,0,0,0,1\n", "h.csv"); });
  EXPECT_NE(m.find("G='abc'"), std::string::npos) << m;
  m = error_of([] { parse("# nbody csv v9 units=henon\n0,0,0,0,0,0,1\n", "h.csv"); });
  EXPECT_NE(m.find("version"), std::string::npos) << m;
  m = error_of([] { parse("# nbody csv v1 G=1\n0,0,0,0,0,0,1\n", "h.csv"); });
  EXPECT_NE(m.find("units="), std::string::npos) << m;
}

TEST(CsvBadInput, WrongColumnHeader) {
  auto m = error_of([] { parse(kHeader + "x,y,z,vx,vy,vz,mass\n", "col.csv"); });
  EXPECT_NE(m.find("column 7 is named 'mass'"), std::string::npos) << m;
}

TEST(Csv, ProgressForLargeStreams) {
  std::string text = kHeader;
  for (int i = 0; i < 200000; ++i)
    text += "1.2345678901,2.345678901,3.45678901,0.1,0.2,0.3,0.001\n";
  std::istringstream in(text);
  io::LoadOptions opt;
  int calls = 0;
  double last = 0;
  opt.progress = [&](double f) { ++calls, last = f; };
  Scene r = io::read_csv(in, "big.csv", opt);
  EXPECT_EQ(r.bodies.size(), 200000u);
  EXPECT_GE(calls, 2);
  EXPECT_EQ(last, 1.0);
}

// issue 22 (HIGH): a later quoted field on the same row must not move the text an earlier one
// points into (the unescaped fields used to live in a vector that reallocated)
TEST(Csv, ManyQuotedFieldsOnOneRowKeepTheirValues) {
  Scene r = parse(kHeader +
                  "\"1\",0,0,0,0.5,0,0.5,star,\"AAAAAAAAAAAAAAAA7BBBBBB\"\n"
                  "-1,0,0,0,-0.5,0,0.5,star,b\n");
  ASSERT_EQ(r.bodies.size(), 2u);
  EXPECT_EQ(r.bodies.x[0], 1.0);
  EXPECT_EQ(r.bodies.name[0], "AAAAAAAAAAAAAAAA7BBBBBB");
  // a plain CSV with every value quoted
  Scene p = parse(
      "x,y,z,vx,vy,vz,m,component,name\n"
      "\"0.25\",\"-0.5\",\"0.125\",\"0.01\",\"0.3\",\"-0.2\",\"0.5\",\"star\",\"a long name, "
      "quoted\"\n"
      "\"-0.25\",\"0.5\",\"-0.125\",\"-0.01\",\"-0.3\",\"0.2\",\"0.5\",\"star\",\"b\"\n");
  ASSERT_EQ(p.bodies.size(), 2u);
  EXPECT_EQ(p.bodies.x[0], 0.25);
  EXPECT_EQ(p.bodies.y[0], -0.5);
  EXPECT_EQ(p.bodies.z[0], 0.125);
  EXPECT_EQ(p.bodies.vx[0], 0.01);
  EXPECT_EQ(p.bodies.vy[0], 0.3);
  EXPECT_EQ(p.bodies.vz[0], -0.2);
  EXPECT_EQ(p.bodies.m[0], 0.5);
  EXPECT_EQ(p.bodies.name[0], "a long name, quoted");
}
