// Tipsy: both byte orders, padded and unpadded headers, the NVIDIA variant, type selection,
// units, and bad headers.

#include <cstring>

#include "io_test_util.hpp"

using namespace iotest;

namespace {

std::string to_bytes(const Scene& s, io::Format f, bool padded = true) {
  std::ostringstream os;
  io::write_tipsy(os, s, f, padded, 0.5);
  return os.str();
}

io::LoadOptions all_types() {
  io::LoadOptions o;
  o.tipsy_gas = o.tipsy_dark = o.tipsy_star = true;
  return o;
}

Scene from_bytes(const std::string& b, const std::string& src = "t.tipsy",
                 const io::LoadOptions& opt = all_types(),
                 std::optional<io::Format> f = std::nullopt) {
  return io::read_tipsy(b.data(), b.size(), src, opt, f);
}

// bodies of `s` in Tipsy order: gas, dark, then the rest
Bodies tipsy_order(const Bodies& b) {
  Bodies out;
  for (Component want : {Component::Gas, Component::Dark}) {
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (b.component[i] == want) {
        out.add(b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i], b.m[i], want);
      }
    }
  }
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.component[i] != Component::Gas && b.component[i] != Component::Dark) {
      out.add(b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i], b.m[i], b.component[i]);
    }
  }
  return out;
}

void expect_same_values(const Bodies& a, const Bodies& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
  EXPECT_EQ(a.z, b.z);
  EXPECT_EQ(a.vx, b.vx);
  EXPECT_EQ(a.vy, b.vy);
  EXPECT_EQ(a.vz, b.vz);
  EXPECT_EQ(a.m, b.m);
}

void put_i32(std::string& b, std::size_t off, std::int32_t v, bool big) {
  unsigned char c[4];
  std::memcpy(c, &v, 4);
  if (big) std::swap(c[0], c[3]), std::swap(c[1], c[2]);
  std::memcpy(&b[off], c, 4);
}

struct Layout {
  io::Format f;
  bool padded;
};

class TipsyRoundTrip : public ::testing::TestWithParam<Layout> {};

}  // namespace

TEST_P(TipsyRoundTrip, ValuesTypesAndDetection) {
  const Layout l = GetParam();
  const Scene s = mixed_scene(50);
  const std::string b = to_bytes(s, l.f, l.padded);
  EXPECT_EQ(b.size(), (l.padded ? 32u : 28u) + 10 * 48 + 10 * 36 + 30 * 44);
  // the header is detected from its contents
  io::TipsyHeader h = io::read_tipsy_header(b.data(), b.size(), "t");
  EXPECT_EQ(h.format, l.f);
  EXPECT_EQ(h.padded, l.padded);
  EXPECT_EQ(h.nbodies, 50u);
  EXPECT_EQ(h.nsph, 10u);
  EXPECT_EQ(h.ndark, 10u);
  EXPECT_EQ(h.nstar, 30u);
  EXPECT_EQ(h.ndim, 3u);
  EXPECT_EQ(h.time, 0.5);
  // all types, in Tipsy order, float-exact values
  Scene r = from_bytes(b);
  const Bodies want = tipsy_order(s.bodies);
  expect_same_values(r.bodies, want);
  for (std::size_t i = 0; i < want.size(); ++i) {
    Component c = want.component[i];
    if (l.f != io::Format::TipsyNvidia && c != Component::Gas && c != Component::Dark) {
      c = Component::Star;  // plain Tipsy keeps no disk/bulge distinction
    }
    if (l.f == io::Format::TipsyNvidia && c == Component::Star) c = Component::Disk;
    EXPECT_EQ(r.bodies.component[i], c) << i;
  }
  EXPECT_EQ(r.units.name, "henon");
  EXPECT_EQ(r.units.G, 1);
  EXPECT_FLOAT_EQ(r.softening, 0.05f);
  // an explicit byte order of the same family reads it too
  Scene r2 = from_bytes(b, "t", all_types(), l.f);
  expect_same_values(r2.bodies, want);
}

INSTANTIATE_TEST_SUITE_P(Layouts, TipsyRoundTrip,
                         ::testing::Values(Layout{io::Format::TipsyXdr, true},
                                           Layout{io::Format::TipsyXdr, false},
                                           Layout{io::Format::TipsyNative, true},
                                           Layout{io::Format::TipsyNative, false},
                                           Layout{io::Format::TipsyNvidia, true},
                                           Layout{io::Format::TipsyNvidia, false}));

TEST(Tipsy, XdrIsBigEndian) {
  const std::string b = to_bytes(mixed_scene(5), io::Format::TipsyXdr);
  // nbodies = 5 at offset 8, most significant byte first
  EXPECT_EQ(b[8], 0);
  EXPECT_EQ(b[11], 5);
  const std::string n = to_bytes(mixed_scene(5), io::Format::TipsyNative);
  EXPECT_EQ(n[8], 5);
}

TEST(Tipsy, NvidiaIdsFollowTheSampleRanges) {
  const std::string b = to_bytes(mixed_scene(10), io::Format::TipsyNvidia);
  // 2 gas (48 B), 2 dark: phi of the first dark record is its int id 200000000
  std::int32_t id;
  std::memcpy(&id, &b[32 + 2 * 48 + 32], 4);
  EXPECT_EQ(id, 200000000);
}

TEST(Tipsy, NativeWithZeroPhiIsNotNvidia) {
  const std::string b = to_bytes(mixed_scene(10), io::Format::TipsyNative);
  EXPECT_EQ(io::read_tipsy_header(b.data(), b.size(), "t").format, io::Format::TipsyNative);
}

TEST(Tipsy, SelectTypes) {
  const Scene s = mixed_scene(50);
  const std::string b = to_bytes(s, io::Format::TipsyXdr);
  io::LoadOptions stars;  // the default: stars only
  Scene r = from_bytes(b, "t", stars);
  EXPECT_EQ(r.bodies.size(), 30u);
  io::LoadOptions gd;
  gd.tipsy_star = false, gd.tipsy_gas = true, gd.tipsy_dark = true;
  r = from_bytes(b, "t", gd);
  EXPECT_EQ(r.bodies.size(), 20u);
  EXPECT_EQ(r.bodies.component[0], Component::Gas);
  EXPECT_EQ(r.bodies.component[19], Component::Dark);
}

TEST(Tipsy, UnitsAndConversion) {
  const std::string b = to_bytes(mixed_scene(20), io::Format::TipsyXdr);
  io::LoadOptions opt = all_types();
  opt.input_units = units::agora();
  opt.target_units = units::galactic();
  Scene r = from_bytes(b, "t", opt);
  EXPECT_EQ(r.units.name, "galactic");
  const Scene raw = from_bytes(b);
  auto c = units::conversion(units::agora(), units::galactic());
  EXPECT_DOUBLE_EQ(r.bodies.m[0], raw.bodies.m[0] * c.mass);
  EXPECT_DOUBLE_EQ(r.bodies.x[0], raw.bodies.x[0] * c.length);
  // dimensionless units cannot be converted to physical ones
  io::LoadOptions bad = all_types();
  bad.target_units = units::galactic();
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "conv.tipsy", bad); }, "conv.tipsy", "henon");
}

TEST(Tipsy, Progress) {
  const std::string b = to_bytes(mixed_scene(140000), io::Format::TipsyXdr);
  io::LoadOptions opt = all_types();
  int calls = 0;
  opt.progress = [&](double) { ++calls; };
  from_bytes(b, "t", opt);
  EXPECT_GE(calls, 2);
}

TEST(TipsyBadInput, Truncated) {
  const std::string b = to_bytes(mixed_scene(20), io::Format::TipsyXdr);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b.substr(0, b.size() - 7), "cut.tipsy"); }, "cut.tipsy",
                        "truncated");
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b.substr(0, 20), "tiny.tipsy"); }, "tiny.tipsy",
                        "truncated", "header");
  EXPECT_ERROR_MENTIONS([&] { from_bytes("", "empty.tipsy"); }, "empty.tipsy", "truncated");
}

TEST(TipsyBadInput, CountsDisagreeWithSize) {
  std::string b = to_bytes(mixed_scene(20), io::Format::TipsyXdr);
  put_i32(b, 8, 21, true);  // nbodies != nsph + ndark + nstar
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "n.tipsy"); }, "n.tipsy", "nbodies = 21");
  b = to_bytes(mixed_scene(20), io::Format::TipsyXdr);
  put_i32(b, 8, 21, true);
  put_i32(b, 24, 13, true);  // one more star than the file holds
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "s.tipsy"); }, "s.tipsy", "13 star", "truncated");
}

TEST(TipsyBadInput, HugeCountsAreRejectedBeforeAllocating) {
  std::string b = to_bytes(mixed_scene(5), io::Format::TipsyNative);
  put_i32(b, 8, 2000000000, false);
  put_i32(b, 24, 2000000000 - 2, false);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "huge.tipsy"); }, "huge.tipsy", "bytes");
}

TEST(TipsyBadInput, NdimOutOfRange) {
  for (int nd : {0, 4, -1}) {
    std::string b = to_bytes(mixed_scene(5), io::Format::TipsyXdr);
    put_i32(b, 12, nd, true);
    EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "d.tipsy", all_types(), io::Format::TipsyXdr); },
                          "d.tipsy", "ndim = " + std::to_string(nd), "1..3");
    EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "d.tipsy"); }, "d.tipsy", "1..3");
  }
}

TEST(TipsyBadInput, NegativeCount) {
  std::string b = to_bytes(mixed_scene(5), io::Format::TipsyXdr);
  put_i32(b, 16, -1, true);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "neg.tipsy", all_types(), io::Format::TipsyXdr); },
                        "neg.tipsy", "negative count");
}

TEST(TipsyBadInput, ZeroBodies) {
  std::string b = to_bytes(mixed_scene(5), io::Format::TipsyXdr).substr(0, 32);
  for (int off : {8, 16, 20, 24})
    put_i32(b, off, 0, true);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "zero.tipsy"); }, "zero.tipsy", "N = 0");
}

TEST(TipsyBadInput, WrongByteOrderRequested) {
  const std::string b = to_bytes(mixed_scene(5), io::Format::TipsyXdr);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "o.tipsy", all_types(), io::Format::TipsyNative); },
                        "o.tipsy", "little-endian");
}

TEST(TipsyBadInput, NoBodiesOfSelectedTypes) {
  Scene s = mixed_scene(5);
  for (auto& c : s.bodies.component)
    c = Component::Dark;
  const std::string b = to_bytes(s, io::Format::TipsyXdr);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(b, "dm.tipsy", io::LoadOptions{}); }, "dm.tipsy",
                        "no bodies of the selected types", "5 dark");
}

TEST(TipsyBadInput, NaNInfNegativeAndZeroMass) {
  Scene s = mixed_scene(5);
  for (auto& c : s.bodies.component)
    c = Component::Star;
  const std::string good = to_bytes(s, io::Format::TipsyNative);
  auto with_float = [&](std::size_t off, float v) {
    std::string b = good;
    std::memcpy(&b[off], &v, 4);
    return b;
  };
  const std::size_t rec = 32 + 44;  // second star record
  EXPECT_ERROR_MENTIONS([&] { from_bytes(with_float(rec + 4, std::nanf("")), "nan.tipsy"); },
                        "nan.tipsy");
  EXPECT_ERROR_MENTIONS([&] { from_bytes(with_float(rec + 20, INFINITY), "inf.tipsy"); },
                        "inf.tipsy");
  EXPECT_ERROR_MENTIONS([&] { from_bytes(with_float(rec, -1.f), "neg.tipsy"); }, "neg.tipsy",
                        "mass");
  std::string zero = good;
  for (int i = 0; i < 5; ++i)
    std::memset(&zero[32 + 44 * i], 0, 4);
  EXPECT_ERROR_MENTIONS([&] { from_bytes(zero, "m0.tipsy"); }, "m0.tipsy", "mass");
}

TEST(TipsyBadInput, WriterRejectsValuesThatDoNotFitAFloat) {
  Scene s = mixed_scene(3);
  s.bodies.x[1] = 1e300;
  std::ostringstream os;
  EXPECT_ERROR_MENTIONS([&] { io::write_tipsy(os, s, io::Format::TipsyXdr); }, "float");
}
