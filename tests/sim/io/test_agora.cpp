// AGORA directories: component selection, units, round trips and bad input.

#include <filesystem>

#include "io_test_util.hpp"

using namespace iotest;

namespace {

// a small AGORA directory: 4 disk, 2 bulge, 3 halo, 2 gas bodies
void write_small_agora(const TempDir& d) {
  write_bytes(d / "disk.dat",
              "1.0 0 0 0 200 0 0.01\n-1.0 0 0 0 -200 0 0.01\n0 1.5 0 -180 0 0 0.01\n"
              "0 -1.5 0.1 180 0 0 2.5e-2\n");
  write_bytes(d / "bulge.dat", "  0.1\t0.2 0.3 10 20 30 0.05\n-0.1 -0.2 -0.3 -10 -20 -30 0.05\n");
  write_bytes(d / "halo.dat", "10 0 0 0 100 0 1\n0 10 0 100 0 0 1\n0 0 10 0 0 100 1\n");
  write_bytes(d / "gas.dat", "2 0 0 0 190 0 0.001 1.5e5\n0 2 0 -190 0 0 0.001 1.5e5\n");
}

}  // namespace

TEST(Agora, DefaultLoadsDiskAndBulge) {
  TempDir d;
  write_small_agora(d);
  Scene s = io::load(d.str());
  ASSERT_EQ(s.bodies.size(), 6u);
  EXPECT_EQ(s.bodies.component[0], Component::Disk);
  EXPECT_EQ(s.bodies.component[4], Component::Bulge);
  EXPECT_EQ(s.bodies.vy[0], 200);
  EXPECT_EQ(s.bodies.m[3], 2.5e-2);
  EXPECT_EQ(s.bodies.x[4], 0.1);
  EXPECT_EQ(s.units.name, units::agora().name);
  EXPECT_EQ(s.units.G, units::agora().G);
  EXPECT_EQ(io::detect_format(d.str()), io::Format::Agora);
}

TEST(Agora, AllComponentsMapToTheirKinds) {
  TempDir d;
  write_small_agora(d);
  io::LoadOptions opt;
  io::select_components(opt, {"all"});
  Scene s = io::load(d.str(), io::Format::Agora, opt);
  ASSERT_EQ(s.bodies.size(), 11u);
  std::size_t count[kComponentCount] = {};
  for (Component c : s.bodies.component)
    count[int(c)]++;
  EXPECT_EQ(count[int(Component::Disk)], 4u);
  EXPECT_EQ(count[int(Component::Bulge)], 2u);
  EXPECT_EQ(count[int(Component::Dark)], 3u);
  EXPECT_EQ(count[int(Component::Gas)], 2u);
}

TEST(Agora, MissingFilesNotAskedForAreFine) {
  TempDir d;
  write_small_agora(d);
  std::filesystem::remove(d / "halo.dat");
  std::filesystem::remove(d / "gas.dat");
  EXPECT_EQ(io::load(d.str()).bodies.size(), 6u);
}

TEST(Agora, ConvertsToTargetUnits) {
  TempDir d;
  write_small_agora(d);
  io::LoadOptions opt;
  opt.target_units = units::galactic();
  Scene s = io::load(d.str(), opt);
  EXPECT_EQ(s.units.name, "galactic");
  EXPECT_DOUBLE_EQ(s.bodies.m[0], 0.01 * 0.1);  // 1e9 Msun -> 1e10 Msun
  EXPECT_DOUBLE_EQ(s.bodies.x[0], 1.0);         // kpc both
  EXPECT_NEAR(s.bodies.vy[0], 200, 1e-9);       // km/s both
}

TEST(Agora, RoundTripThroughWriter) {
  TempDir d;
  write_small_agora(d);
  io::LoadOptions opt;
  io::select_components(opt, {"all"});
  Scene s = io::load(d.str(), opt);
  TempDir out;
  io::save(s, out / "ic", io::Format::Agora);
  Scene r = io::load(out / "ic", opt);
  EXPECT_EQ(r.bodies.x, s.bodies.x);
  EXPECT_EQ(r.bodies.vz, s.bodies.vz);
  EXPECT_EQ(r.bodies.m, s.bodies.m);
  EXPECT_EQ(r.bodies.component, s.bodies.component);
}

TEST(Agora, WriterConvertsPhysicalUnitsAndRefusesDimensionless) {
  Scene s;
  s.units = units::galactic();
  s.bodies.add(1, 2, 3, 4, 5, 6, 1.0, Component::Disk);
  TempDir out;
  io::save(s, out / "g", io::Format::Agora);
  Scene r = io::load(out / "g");
  EXPECT_DOUBLE_EQ(r.bodies.m[0], 10.0);  // 1e10 Msun = 10 x 1e9 Msun
  s.units = units::henon();
  EXPECT_ERROR_MENTIONS([&] { io::save(s, out / "h", io::Format::Agora); }, "h", "dimensionless");
}

TEST(AgoraBadInput, AskedForMissingFileIsNamed) {
  TempDir d;
  write_small_agora(d);
  std::filesystem::remove(d / "halo.dat");
  io::LoadOptions opt;
  opt.agora_halo = true;
  EXPECT_ERROR_MENTIONS([&] { io::load(d.str(), opt); }, "halo.dat", "No such file", "halo");
}

TEST(AgoraBadInput, MissingDirectory) {
  TempDir d;
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "nope", io::Format::Agora); }, "nope", "No such file");
}

TEST(AgoraBadInput, NonNumericFieldNamesLineAndColumn) {
  TempDir d;
  write_small_agora(d);
  write_bytes(d / "bulge.dat", "0 0 0 0 0 0 1\n0 0 0 0 0 zz 1\n");
  EXPECT_ERROR_MENTIONS([&] { io::load(d.str()); }, "bulge.dat:2", "column 6 (vz)",
                        "'zz' is not a number");
}

TEST(AgoraBadInput, WrongColumnCount) {
  TempDir d;
  write_small_agora(d);
  write_bytes(d / "disk.dat", "0 0 0 0 0 0 1\n0 0 0 0 0 1\n");
  EXPECT_ERROR_MENTIONS([&] { io::load(d.str()); }, "disk.dat:2", "expected 7 columns", "found 6");
}

TEST(AgoraBadInput, NaNAndNegativeMass) {
  TempDir d;
  write_small_agora(d);
  write_bytes(d / "disk.dat", "0 nan 0 0 0 0 1\n");
  EXPECT_ERROR_MENTIONS([&] { io::load(d.str()); }, "disk.dat:1", "not finite");
  write_bytes(d / "disk.dat", "0 0 0 0 0 0 1\n0 0 0 0 0 0 -1\n");
  EXPECT_ERROR_MENTIONS([&] { io::load(d.str()); }, "disk.dat:2", "negative mass");
}

TEST(AgoraBadInput, EmptyFilesAndZeroMass) {
  TempDir d;
  write_small_agora(d);
  write_bytes(d / "disk.dat", "\n\n");
  EXPECT_EQ(io::load(d.str()).bodies.size(), 2u);  // an empty file adds no bodies
  write_bytes(d / "bulge.dat", "");
  EXPECT_ERROR_MENTIONS([&] { io::load(d.str()); }, d.str(), "N = 0");
  write_bytes(d / "disk.dat", "0 0 0 0 0 0 0\n");
  write_bytes(d / "bulge.dat", "1 0 0 0 0 0 0\n");
  EXPECT_ERROR_MENTIONS([&] { io::load(d.str()); }, d.str(), "mass");
}

// issue 22 (fuzz_roundtrip_agora): a --force write leaves the files of components it has no
// bodies of as they were; the reader took dt, ε and the run from every file's comment, the last
// one read winning (an empty bulge.dat of an older write gave the older run), and read bodies of
// different runs together without a word
TEST(Agora, FilesOfDifferentRunsAreRefusedAndEmptyOnesAddNothing) {
  TempDir d;
  auto scene = [](bool bulge, double dt) {
    Scene s;
    s.units = units::agora();
    s.dt = dt;
    s.softening = 0.05;
    s.bodies.add(1, 0, 0, 0, 200, 0, 0.01, Component::Disk);
    s.bodies.add(-1, 0, 0, 0, -200, 0, 0.01, Component::Disk);
    if (bulge) s.bodies.add(0.1, 0.2, 0.3, 10, 20, 30, 0.05, Component::Bulge);
    return s;
  };
  auto save = [&](const Scene& s, double elapsed, long long steps) {
    io::SaveOptions so;
    so.force = true;
    io::RunRecord rec;
    rec.time = elapsed;
    rec.steps = steps;
    rec.kernel = "cpu-reference";
    rec.integrator = "leapfrog-kdk";
    so.run = rec;
    io::save(s, d / "ag", io::Format::Agora, so);
  };
  // the empty bulge.dat of a first write (no bulge bodies) adds nothing, its comment neither
  save(scene(false, 0.25), 0, 0);
  save(scene(false, 0.5), 1.5, 3);
  io::RunRecord run;
  io::LoadOptions lo;
  lo.run = &run;
  Scene r = io::load(d / "ag", io::Format::Agora, lo);
  EXPECT_EQ(r.bodies.size(), 2u);
  EXPECT_EQ(run.time, 1.5);
  EXPECT_EQ(run.steps, 3);
  EXPECT_EQ(r.dt, 0.5);
  // bulge bodies of one run, disk bodies of another: refused, naming both files and the run
  save(scene(true, 0.5), 0, 0);
  save(scene(false, 0.5), 1.5, 3);
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "ag", io::Format::Agora, lo); },
                        "disk.dat and bulge.dat", "different runs", "elapsed=1.5 and elapsed=0",
                        "--components");
  lo.agora_bulge = false;  // the disk alone is one run
  EXPECT_EQ(io::load(d / "ag", io::Format::Agora, lo).bodies.size(), 2u);
  EXPECT_EQ(run.time, 1.5);
  // the same run in both: read together
  save(scene(true, 0.5), 1.5, 3);
  lo.agora_bulge = true;
  EXPECT_EQ(io::load(d / "ag", io::Format::Agora, lo).bodies.size(), 3u);
  // AGORA's own files (no comment) are initial conditions: with a disk at t = 0 they belong to
  // one run, with a disk at t = 1.5 not
  write_bytes(d / "ag/halo.dat", "10 0 0 0 100 0 1\n0 10 0 100 0 0 1\n");
  lo.agora_halo = true;
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "ag", io::Format::Agora, lo); }, "halo.dat",
                        "different runs", "elapsed=1.5 and elapsed=0");
  save(scene(true, 0.5), 0, 0);
  EXPECT_EQ(io::load(d / "ag", io::Format::Agora, lo).bodies.size(), 5u);
  EXPECT_EQ(io::load(d / "ag", io::Format::Agora, lo).dt, 0.5);
  // a different dt in one file: different runs too
  std::string comment = read_bytes(d / "ag/disk.dat");
  comment = comment.substr(0, comment.find('\n'));
  comment.replace(comment.find(" dt=0.5 "), 8, " dt=0.25 ");
  write_bytes(d / "ag/gas.dat", comment + "\n2 0 0 0 190 0 0.001 1.5e5\n");
  lo.agora_gas = true;
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "ag", io::Format::Agora, lo); }, "gas.dat",
                        "dt=0.5 and dt=0.25");
}
