// Native binary: exact round trips and every kind of bad header.

#include <cmath>
#include <cstring>

#include "io_test_util.hpp"

using namespace iotest;

namespace {

std::string to_bytes(const Scene& s) {
  std::ostringstream os;
  io::write_binary(os, s);
  return os.str();
}

Scene from_bytes(const std::string& b, const std::string& src = "t.bin",
                 const io::LoadOptions& opt = {}) {
  return io::read_binary(b.data(), b.size(), src, opt);
}

void put_u64(std::string& b, std::size_t off, std::uint64_t v) {
  std::memcpy(&b[off], &v, 8);
}
void put_f64(std::string& b, std::size_t off, double v) {
  std::memcpy(&b[off], &v, 8);
}

}  // namespace

TEST(Binary, RoundTripIsExact) {
  Scene s = mixed_scene(101);
  s.units = units::solar();
  s.bodies.x[3] = 1.0 / 3.0;  // not a float
  const std::string bytes = to_bytes(s);
  EXPECT_EQ(bytes.size(), 304u + 101u * 57u);
  Scene r = from_bytes(bytes);
  ASSERT_EQ(r.bodies.size(), 101u);
  EXPECT_EQ(r.units.name, "solar");
  EXPECT_EQ(r.units.G, s.units.G);
  EXPECT_EQ(r.units.length, s.units.length);
  EXPECT_EQ(r.units.mass_kg, s.units.mass_kg);
  EXPECT_EQ(r.dt, s.dt);
  EXPECT_EQ(r.softening, s.softening);
  EXPECT_EQ(r.camera_distance, s.camera_distance);
  EXPECT_EQ(r.name, "mixed");
  EXPECT_EQ(r.bodies.x, s.bodies.x);
  EXPECT_EQ(r.bodies.y, s.bodies.y);
  EXPECT_EQ(r.bodies.z, s.bodies.z);
  EXPECT_EQ(r.bodies.vx, s.bodies.vx);
  EXPECT_EQ(r.bodies.vy, s.bodies.vy);
  EXPECT_EQ(r.bodies.vz, s.bodies.vz);
  EXPECT_EQ(r.bodies.m, s.bodies.m);
  EXPECT_EQ(r.bodies.component, s.bodies.component);
  EXPECT_TRUE(r.bodies.name.empty());
}

// the scene's viewing direction: version 3 with flag bit 3 and 16 bytes at the end; without
// one the file stays version 1; a non-finite direction or the flag under version 2 is refused
TEST(Binary, ViewingDirectionRoundTrips) {
  Scene s = mixed_scene(5);
  const std::string plain = to_bytes(s);
  EXPECT_EQ(plain[8], 1);
  EXPECT_TRUE(std::isnan(from_bytes(plain).camera_yaw));
  s.camera_yaw = 2.92;
  s.camera_pitch = -0.96;
  std::string b = to_bytes(s);
  ASSERT_EQ(b.size(), plain.size() + 16);
  EXPECT_EQ(b[8], 3);
  EXPECT_EQ(b[12], 8);
  const Scene r = from_bytes(b);
  EXPECT_EQ(r.camera_yaw, 2.92);
  EXPECT_EQ(r.camera_pitch, -0.96);
  EXPECT_EQ(r.bodies.x, s.bodies.x);
  put_f64(b, b.size() - 8, std::nan(""));
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "v.bin"); }, "v.bin", "viewing direction");
  b[8] = 2;
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "v.bin"); }, "v.bin", "unknown header flags");
  EXPECT_ERROR_MENTIONS([&] { from_bytes(to_bytes(s).substr(0, b.size() - 4), "t.bin"); }, "t.bin",
                        "truncated in the viewing direction");
}

TEST(Binary, NamesRoundTrip) {
  Scene s = mixed_scene(3);
  s.bodies.name = {"Sun", "", "Earth, the \"blue\" one"};
  Scene r = from_bytes(to_bytes(s));
  EXPECT_EQ(r.bodies.name, s.bodies.name);
}

TEST(Binary, HeaderIsLittleEndian) {
  const std::string b = to_bytes(mixed_scene(2));
  EXPECT_EQ(b.substr(0, 8), "NBODYBIN");
  EXPECT_EQ(static_cast<unsigned char>(b[8]), 1u);   // version 1, low byte first
  EXPECT_EQ(static_cast<unsigned char>(b[16]), 2u);  // N = 2, low byte first
}

TEST(Binary, ProgressIsReportedForLargeInputs) {
  Scene s = mixed_scene(120000);
  const std::string b = to_bytes(s);
  io::LoadOptions opt;
  int calls = 0;
  double last = 0;
  opt.progress = [&](double f) { ++calls, last = f; };
  from_bytes(b, "big.bin", opt);
  EXPECT_GE(calls, 2);
  EXPECT_EQ(last, 1.0);
}

TEST(BinaryBadInput, NotMagic) {
  EXPECT_ERROR_MENTIONS([] { from_bytes("hello world, this is no binary", "x.bin"); }, "x.bin",
                        "magic");
}

TEST(BinaryBadInput, TruncatedHeader) {
  const std::string b = to_bytes(mixed_scene(4)).substr(0, 100);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "h.bin"); }, "h.bin", "truncated", "header");
}

TEST(BinaryBadInput, TruncatedArrays) {
  const std::string full = to_bytes(mixed_scene(4));
  const std::string b = full.substr(0, full.size() - 10);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "t.bin"); }, "t.bin", "N = 4", "truncated");
}

TEST(BinaryBadInput, ExtraBytes) {
  const std::string b = to_bytes(mixed_scene(4)) + "junk";
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "e.bin"); }, "e.bin", "N = 4", "bytes follow");
}

TEST(BinaryBadInput, HugeCountIsRejectedBeforeAllocating) {
  std::string b = to_bytes(mixed_scene(4));
  put_u64(b, 16, 0xFFFFFFFFFFFFull);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "huge.bin"); }, "huge.bin", "N = 281474976710655");
}

TEST(BinaryBadInput, ZeroBodies) {
  std::string b = to_bytes(mixed_scene(1)).substr(0, 304);
  put_u64(b, 16, 0);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "z.bin"); }, "z.bin", "N = 0");
}

TEST(BinaryBadInput, WrongVersion) {
  std::string b = to_bytes(mixed_scene(2));
  b[8] = 7;
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "v.bin"); }, "v.bin", "version 7");
}

TEST(BinaryBadInput, NaNPositionAndNegativeMass) {
  Scene s = mixed_scene(3);
  std::string b = to_bytes(s);
  put_f64(b, 304 + 8 * 1, std::nan(""));  // x[1]
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "nan.bin"); }, "nan.bin");
  b = to_bytes(s);
  put_f64(b, 304 + 6 * 3 * 8, -1.0);  // m[0]
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "neg.bin"); }, "neg.bin", "mass");
}

TEST(BinaryBadInput, ZeroTotalMass) {
  Scene s = mixed_scene(2);
  std::string b = to_bytes(s);
  put_f64(b, 304 + 6 * 2 * 8, 0.0);
  put_f64(b, 304 + 6 * 2 * 8 + 8, 0.0);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "m0.bin"); }, "m0.bin", "mass");
}

TEST(BinaryBadInput, BadGAndComponent) {
  std::string b = to_bytes(mixed_scene(2));
  put_f64(b, 24, -1.0);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "g.bin"); }, "g.bin", "G");
  b = to_bytes(mixed_scene(2));
  b[304 + 7 * 2 * 8] = 42;
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "c.bin"); }, "c.bin", "component 42");
}

TEST(BinaryBadInput, TruncatedNames) {
  Scene s = mixed_scene(2);
  s.bodies.name = {"alpha", "beta"};
  std::string b = to_bytes(s);
  b.resize(b.size() - 2);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "n.bin"); }, "n.bin", "truncated", "name");
}
