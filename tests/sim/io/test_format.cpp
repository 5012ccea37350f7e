// Files on disk: detection, load/save for every format, info/describe, names and bad paths.

#include <filesystem>

#include "io_test_util.hpp"

using namespace iotest;

namespace {

io::LoadOptions everything() {
  io::LoadOptions o;
  io::select_components(o, {"all"});
  return o;
}

}  // namespace

TEST(Format, NamesParseBack) {
  for (io::Format f : {io::Format::Csv, io::Format::Binary, io::Format::TipsyXdr,
                       io::Format::TipsyNative, io::Format::TipsyNvidia, io::Format::Agora}) {
    EXPECT_EQ(io::parse_format(io::format_name(f)), f);
  }
  EXPECT_EQ(io::parse_format("tipsy"), io::Format::TipsyXdr);
  EXPECT_ERROR_MENTIONS([] { io::parse_format("hdf5", "--to"); }, "--to", "hdf5");
}

TEST(Format, Extensions) {
  EXPECT_EQ(io::format_from_extension("a/b.CSV"), io::Format::Csv);
  EXPECT_EQ(io::format_from_extension("x.bin"), io::Format::Binary);
  EXPECT_EQ(io::format_from_extension("x.std"), io::Format::TipsyXdr);
  EXPECT_EQ(io::format_from_extension("x.tipsy"), io::Format::TipsyXdr);
  EXPECT_FALSE(io::format_from_extension("x.dat"));
}

TEST(Format, SaveDetectLoadEveryFormat) {
  TempDir d;
  const Scene s = mixed_scene(40);
  struct Case {
    io::Format f;
    std::string file;
  };
  // odd extensions on purpose: detection reads the contents
  for (const Case& c : {Case{io::Format::Csv, "a.csv"}, Case{io::Format::Binary, "a.xyz"},
                        Case{io::Format::TipsyXdr, "a.std"}, Case{io::Format::TipsyNative, "b.bin"},
                        Case{io::Format::TipsyNvidia, "c.dat"}, Case{io::Format::Agora, "agora"}}) {
    SCOPED_TRACE(io::format_name(c.f));
    Scene in = s;
    if (c.f == io::Format::Agora) in.units = units::agora();
    io::save(in, d / c.file, c.f);
    EXPECT_EQ(io::detect_format(d / c.file), c.f);
    Scene r = io::load(d / c.file, everything());
    EXPECT_EQ(r.bodies.size(), s.bodies.size());
    EXPECT_DOUBLE_EQ(r.bodies.total_mass(), s.bodies.total_mass());
    Scene r2 = io::load(d / c.file, c.f, everything());
    EXPECT_EQ(r2.bodies.x, r.bodies.x);
  }
  EXPECT_FALSE(std::filesystem::exists(d / "a.csv.part"));
}

TEST(Format, InfoAndDescribe) {
  TempDir d;
  Scene s = mixed_scene(50);
  io::save(s, d / "m.std", io::Format::TipsyXdr);
  io::FileInfo fi = io::info(d / "m.std");
  EXPECT_EQ(fi.format, io::Format::TipsyXdr);
  EXPECT_EQ(fi.n, 50u);
  EXPECT_EQ(fi.n_gas, 10u);
  EXPECT_EQ(fi.n_dark, 10u);
  EXPECT_EQ(fi.n_star, 30u);
  EXPECT_NEAR(fi.mass, s.bodies.total_mass(), 1e-6);
  for (int k = 0; k < 3; ++k) {
    EXPECT_GE(fi.min[k], -2.0);
    EXPECT_LE(fi.max[k], 2.0);
    EXPECT_LT(fi.min[k], fi.max[k]);
  }
  const std::string text = io::describe(fi);
  EXPECT_NE(text.find("tipsy-xdr"), std::string::npos) << text;
  EXPECT_NE(text.find("50"), std::string::npos) << text;
  EXPECT_NE(text.find("henon"), std::string::npos) << text;
  EXPECT_NE(text.find("G = 1"), std::string::npos) << text;
}

TEST(Format, SaveReplacesAtomicallyAndNoPartialFileOnError) {
  TempDir d;
  Scene s = mixed_scene(5);
  io::save(s, d / "t.std", io::Format::TipsyXdr);
  const std::string before = read_bytes(d / "t.std");
  s.bodies.x[0] = 1e300;  // does not fit a float
  EXPECT_ERROR_MENTIONS([&] { io::save(s, d / "t.std", io::Format::TipsyXdr); }, "t.std", "float");
  EXPECT_EQ(read_bytes(d / "t.std"), before);
  EXPECT_FALSE(std::filesystem::exists(d / "t.std.part"));
}

TEST(FormatBadInput, MissingFile) {
  TempDir d;
  for (io::Format f :
       {io::Format::Csv, io::Format::Binary, io::Format::TipsyXdr, io::Format::TipsyNvidia}) {
    EXPECT_ERROR_MENTIONS([&] { io::load(d / "missing.file", f); }, "missing.file", "No such file");
  }
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "missing.file"); }, "missing.file", "No such file");
  EXPECT_ERROR_MENTIONS([&] { io::info(d / "missing.file"); }, "missing.file", "No such file");
}

TEST(FormatBadInput, UnknownFormat) {
  TempDir d;
  write_bytes(d / "junk.dat", "this is not any format we know, sorry about that\n");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "junk.dat"); }, "junk.dat", "unknown file format",
                        "Tipsy");
}

TEST(FormatBadInput, EmptyFile) {
  TempDir d;
  write_bytes(d / "empty.bin", "");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "empty.bin"); }, "empty.bin");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "empty.bin", io::Format::Binary); }, "empty.bin");
  write_bytes(d / "empty.csv", "");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "empty.csv"); }, "empty.csv", "empty");
}

TEST(FormatBadInput, TruncatedFilesOnDisk) {
  TempDir d;
  const Scene s = mixed_scene(30);
  io::save(s, d / "a.bin", io::Format::Binary);
  io::save(s, d / "a.std", io::Format::TipsyXdr);
  for (const char* f : {"a.bin", "a.std"}) {
    std::string b = read_bytes(d / f);
    write_bytes(d / f, b.substr(0, b.size() - 3));
  }
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "a.bin"); }, "a.bin", "truncated");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "a.std", io::Format::TipsyXdr); }, "a.std", "truncated");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "a.std"); }, "a.std", "truncated");
}

TEST(FormatBadInput, DirectoryWithoutAgoraFiles) {
  TempDir d;
  EXPECT_ERROR_MENTIONS([&] { io::detect_format(d.str()); }, d.str(), "disk.dat");
}

TEST(FormatBadInput, SaveRefusesInvalidBodies) {
  TempDir d;
  Scene s = mixed_scene(3);
  s.bodies.m[1] = -1;
  EXPECT_ERROR_MENTIONS([&] { io::save(s, d / "x.csv", io::Format::Csv); }, "mass");
  EXPECT_FALSE(std::filesystem::exists(d / "x.csv"));
}

TEST(FormatBadInput, UnknownComponentName) {
  io::LoadOptions o;
  EXPECT_ERROR_MENTIONS(
      [&] {
        io::select_components(o, {"disk", "comet"});
      },
      "--components", "comet");
}
