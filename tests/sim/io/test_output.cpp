// Issue 10 regression tests for the library: writers (special files, symlinks, modes, temp
// files, AGORA), the run record in headers, guessed defaults, impossible counts, Tipsy edge
// cases, messages and plain CSV. Each test names its finding.

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <limits>

#include "io_test_util.hpp"
#include "sim/io/detail.hpp"

using namespace iotest;
namespace fs = std::filesystem;

namespace {

Scene plummerish(std::size_t n = 100) {
  Scene s = mixed_scene(n);
  s.dt = 0.03125;
  s.softening = 0.0625;
  return s;
}

io::LoadOptions everything() {
  io::LoadOptions o;
  io::select_components(o, {"all"});
  return o;
}

// temp files the writer left next to `dir`'s files
int leftovers(const std::string& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".nbody-") != std::string::npos) ++n;
  return n;
}

}  // namespace

// finding 1: special files were replaced by regular files
TEST(Output, DevicesFifosAndDirectoriesAreRefused) {
  TempDir d;
  EXPECT_ERROR_MENTIONS([] { io::check_output("/dev/null", io::Format::Binary); }, "/dev/null",
                        "is a device");
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0644), 0);
  EXPECT_ERROR_MENTIONS([&] { io::save(plummerish(), d / "fifo", io::Format::Csv); }, "fifo",
                        "is a FIFO");
  struct stat st {};
  ASSERT_EQ(::lstat((d / "fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
  // finding 9: a directory gave "cannot write (Success)"
  EXPECT_ERROR_MENTIONS([&] { io::save(plummerish(), d.str(), io::Format::Csv); },
                        "is a directory");
  EXPECT_EQ(leftovers(d.str()), 0);
}

// finding 1: symlinks were replaced, hard links broken, mode 640 became 644
TEST(Output, SymlinkWrittenThroughModeAndHardLinksKept) {
  TempDir d;
  const Scene s = plummerish();
  io::save(s, d / "target.csv", io::Format::Csv);
  ASSERT_EQ(::chmod((d / "target.csv").c_str(), 0640), 0);
  fs::create_symlink("target.csv", d / "link.csv");
  fs::create_hard_link(d / "target.csv", d / "hard.csv");
  Scene t = s;
  t.bodies.x[0] = 42;
  io::save(t, d / "link.csv", io::Format::Csv);
  EXPECT_TRUE(fs::is_symlink(d / "link.csv"));
  EXPECT_EQ(io::load(d / "target.csv", everything()).bodies.x[0], 42);
  struct stat st {};
  ASSERT_EQ(::stat((d / "target.csv").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  // the hard link sees the new data
  EXPECT_EQ(io::load(d / "hard.csv", everything()).bodies.x[0], 42);
  EXPECT_EQ(leftovers(d.str()), 0);
}

// finding 9: a user's own X.part was overwritten and deleted; temp files now have unique names
TEST(Output, UsersPartFileIsLeftAlone) {
  TempDir d;
  write_bytes(d / "out.bin.part", "mine");
  io::save(plummerish(), d / "out.bin", io::Format::Binary);
  EXPECT_EQ(read_bytes(d / "out.bin.part"), "mine");
  EXPECT_EQ(leftovers(d.str()), 0);
}

// finding 9: SIGINT/SIGTERM left a .part file: the registry the handler uses removes it
TEST(Output, RegisteredTempFilesAreRemoved) {
  TempDir d;
  std::string tmp;
  {
    io::detail::AtomicFile f(d / "x.csv");
    tmp = f.temp_path();
    ASSERT_TRUE(fs::exists(tmp));
    io::remove_temp_files();  // what the signal handler does
    EXPECT_FALSE(fs::exists(tmp));
  }
  EXPECT_FALSE(fs::exists(d / "x.csv"));
}

// finding 9: permission denied and symlink loops read "no such file"
TEST(Output, OsErrorsAreReportedAsTheOsStatesThem) {
  TempDir d;
  fs::create_symlink("b", d / "a");
  fs::create_symlink("a", d / "b");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "a"); }, "Too many levels of symbolic links");
  EXPECT_ERROR_MENTIONS([&] { io::save(plummerish(), d / "a", io::Format::Csv); },
                        "Too many levels of symbolic links");
  if (::geteuid() != 0) {
    io::save(plummerish(), d / "locked.csv", io::Format::Csv);
    ::chmod((d / "locked.csv").c_str(), 0);
    EXPECT_ERROR_MENTIONS([&] { io::load(d / "locked.csv"); }, "Permission denied");
  }
}

// finding 2: converting an AGORA directory onto itself emptied halo.dat
TEST(Output, AgoraDirectoryIsNotOverwrittenWithoutForce) {
  TempDir d;
  Scene s = plummerish(50);
  s.units = units::agora();
  io::save(s, d / "ag", io::Format::Agora);
  const std::string halo = read_bytes(d / "ag/halo.dat");
  ASSERT_FALSE(halo.empty());
  // the default read: disk + bulge
  Scene part = io::load(d / "ag");
  EXPECT_ERROR_MENTIONS([&] { io::save(part, d / "ag", io::Format::Agora); }, "already holds",
                        "--force");
  std::vector<std::string> notes;
  io::SaveOptions so;
  so.force = true;
  so.notice = [&](const std::string& m) { notes.push_back(m); };
  io::save(part, d / "ag", io::Format::Agora, so);
  EXPECT_EQ(read_bytes(d / "ag/halo.dat"), halo) << "halo.dat was not left as it was";
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("left as it was"), std::string::npos) << notes[0];
  EXPECT_EQ(leftovers(d / "ag"), 0);
}

// finding 3: headers recorded the scene's dt/ε/G, not the run's; no time or step count
TEST(Output, EveryFormatRecordsTheRun) {
  TempDir d;
  Scene s = plummerish();
  s.units = units::agora();
  s.units.G = 2.5;  // a run with --G: written as custom units, read back the same
  io::RunRecord run;
  run.time = 1.25;
  run.steps = 40;
  run.kernel = "cpu-symmetric";
  run.integrator = "leapfrog-kdk";
  io::SaveOptions so;
  so.run = run;
  std::vector<std::string> notes;
  so.notice = [&](const std::string& m) { notes.push_back(m); };
  for (auto [f, name] : {std::pair{io::Format::Csv, "r.csv"},
                         {io::Format::Binary, "r.bin"},
                         {io::Format::Agora, "r_agora"}}) {
    SCOPED_TRACE(name);
    if (f == io::Format::Agora) s.units = units::agora();
    io::save(s, d / name, f, so);
    io::RunRecord back;
    io::LoadOptions lo = everything();
    lo.run = &back;
    Scene r = io::load(d / name, lo);
    EXPECT_DOUBLE_EQ(r.dt, s.dt);
    EXPECT_DOUBLE_EQ(r.softening, s.softening);
    EXPECT_DOUBLE_EQ(r.units.G, s.units.G);
    EXPECT_DOUBLE_EQ(back.time, run.time);
    EXPECT_EQ(back.steps, run.steps);
    EXPECT_EQ(back.kernel, run.kernel);
    EXPECT_EQ(back.integrator, run.integrator);
  }
  // Tipsy holds the time only, and says so
  io::save(s, d / "r.std", io::Format::TipsyXdr, so);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.back().find("Tipsy stores no units"), std::string::npos) << notes.back();
  io::RunRecord back;
  io::LoadOptions lo = everything();
  lo.run = &back;
  io::load(d / "r.std", lo);
  EXPECT_DOUBLE_EQ(back.time, 1.25);
}

// finding 4: guessed dt = 0 or inf failed later with "dt must be > 0 (got 0)"
TEST(Output, ImpossibleGuessesAskForTheOption) {
  std::string tiny = "# nbody csv v1 units=henon G=1\n";
  for (int i = 0; i < 100; ++i)
    tiny += std::to_string(i) + "e-110,0,0,0,0,0,1\n";
  std::istringstream in(tiny);
  const std::string m = error_of([&] { io::read_csv(in, "tiny.csv"); });
  EXPECT_NE(m.find("tiny.csv"), std::string::npos) << m;
  EXPECT_NE(m.find("--dt"), std::string::npos) << m;
  // the caller that sets dt itself gets no error
  std::istringstream in2(tiny);
  io::LoadOptions lo;
  lo.need_dt = false;
  EXPECT_NO_THROW(io::read_csv(in2, "tiny.csv", lo));
  std::string huge = "# nbody csv v1 units=henon G=1\n";
  for (int i = 0; i < 100; ++i)
    huge += std::to_string(i) + ",0,0,0,0,0,1e307\n";  // total mass overflows
  std::istringstream in3(huge);
  EXPECT_ERROR_MENTIONS([&] { io::read_csv(in3, "huge.csv"); }, "--dt");
}

// finding 5: a sparse file with N = 2^31-1 gave "unexpected error: std::bad_alloc"
TEST(Output, ImpossibleCountsNameTheFile) {
  TempDir d;
  std::string b;
  {
    std::ostringstream os;
    io::write_binary(os, plummerish(2));
    b = os.str().substr(0, 304);
  }
  const std::uint64_t n = (1ull << 37);  // 7.8 TB of bodies
  std::memcpy(b.data() + 16, &n, 8);
  write_bytes(d / "sparse.bin", b);
  ASSERT_EQ(::truncate((d / "sparse.bin").c_str(), off_t(304 + n * 57)), 0);
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "sparse.bin"); }, "sparse.bin", "memory");
}

// finding 8: a Tipsy header time of NaN was accepted
TEST(Output, TipsyNanTimeIsRefused) {
  std::ostringstream os;
  io::write_tipsy(os, plummerish(10), io::Format::TipsyXdr, true, std::nan(""));
  const std::string t = os.str();
  EXPECT_ERROR_MENTIONS([&] { io::read_tipsy(t.data(), t.size(), "nan.std"); }, "nan.std",
                        "time is not finite");
}

// finding 8: a little-endian Tipsy file with tiny phi values was taken for the NVIDIA variant
TEST(Output, TinyPhiIsNotTheNvidiaVariant) {
  Scene s = plummerish(20);
  for (auto& c : s.bodies.component)
    c = Component::Star;
  std::ostringstream os;
  io::write_tipsy(os, s, io::Format::TipsyNative);
  std::string t = os.str();
  // phi of every star: the same tiny positive float (1e-30)
  const float tiny = 1e-30f;
  for (std::size_t i = 0; i < 20; ++i)
    std::memcpy(t.data() + 32 + 44 * i + 40, &tiny, 4);
  EXPECT_EQ(io::read_tipsy_header(t.data(), t.size(), "t.bin").format, io::Format::TipsyNative);
  // what our NVIDIA writer produces is still recognised
  std::ostringstream nv;
  io::write_tipsy(nv, s, io::Format::TipsyNvidia);
  const std::string n = nv.str();
  EXPECT_EQ(io::read_tipsy_header(n.data(), n.size(), "n.bin").format, io::Format::TipsyNvidia);
}

// finding 9: a 10 MB field was echoed; a NUL byte cut the message
TEST(Output, MessagesQuoteShortAndEscaped) {
  std::string big =
      "# nbody csv v1 units=henon G=1\n" + std::string(10 << 20, 'a') + ",0,0,0,0,0,1\n";
  std::istringstream in(big);
  const std::string m = error_of([&] { io::read_csv(in, "big.csv"); });
  EXPECT_LT(m.size(), 300u) << m.substr(0, 300);
  EXPECT_NE(m.find("big.csv:2"), std::string::npos) << m.substr(0, 300);
  std::istringstream nul(std::string("# nbody csv v1 units=henon G=1\n1") + '\0' +
                         "x,0,0,0,0,0,1\n");
  const std::string m2 = error_of([&] { io::read_csv(nul, "nul.csv"); });
  EXPECT_NE(m2.find("\\x00"), std::string::npos) << m2;
  EXPECT_NE(m2.find("is not a number"), std::string::npos) << m2;
}

// finding 9: contradictory CSV headers were accepted
TEST(Output, ContradictoryCsvHeadersAreRefused) {
  const char* rows = "0,0,0,0,0,0,1\n1,0,0,0,0,0,1\n";
  for (auto [head, expect] :
       {std::pair<std::string, std::string>{"# nbody csvv1 units=henon G=1\n", "malformed header"},
        {"# nbody csv v1 units=henon G=1 G=2\n", "appears twice"},
        {"# nbody csv v1 units=solar G=1\n", "units=solar"},
        {"# nbody csv v1 units=henon G=1 colour=red\n", "unknown header key"},
        {"# nbody csv units=henon G=1\n", "unsupported CSV version"}}) {
    SCOPED_TRACE(head);
    std::istringstream in(head + rows);
    EXPECT_ERROR_MENTIONS([&] { io::read_csv(in, "h.csv"); }, "h.csv:1", expect);
  }
  std::istringstream twice(std::string("# nbody csv v1 units=henon G=1\n") + rows +
                           "# nbody csv v1 units=henon G=1\n" + rows);
  EXPECT_ERROR_MENTIONS([&] { io::read_csv(twice, "h.csv"); }, "h.csv:4", "second");
}

// finding 10: a plain CSV with a column header was refused
TEST(Output, PlainCsvWithColumnHeaderLoads) {
  TempDir d;
  write_bytes(d / "plain.csv",
              "M,VX,vy,vz,x,y,z,Name,component\n1,0,0.5,0,1,0,0,a,disk\n1,0,-0.5,0,-1,0,0,b,"
              "bulge\n");
  std::vector<std::string> notes;
  io::LoadOptions lo;
  lo.notice = [&](const std::string& m) { notes.push_back(m); };
  Scene s = io::load(d / "plain.csv", lo);
  ASSERT_EQ(s.bodies.size(), 2u);
  EXPECT_EQ(s.bodies.x[0], 1);
  EXPECT_EQ(s.bodies.vy[1], -0.5);
  EXPECT_EQ(s.bodies.component[1], Component::Bulge);
  EXPECT_EQ(s.bodies.name[0], "a");
  EXPECT_EQ(s.units.name, "henon");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("Hénon"), std::string::npos) << notes[0];
  // with units given: no notice
  lo.input_units = units::solar();
  notes.clear();
  EXPECT_EQ(io::load(d / "plain.csv", lo).units.name, "solar");
  EXPECT_TRUE(notes.empty());
  // a missing column is named
  write_bytes(d / "bad.csv", "x,y,z,vx,vy,m\n1,2,3,4,5,6\n");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "bad.csv", io::Format::Csv); }, "bad.csv:1", "'vz'");
}

// issue 22, "0 silent acceptances": --input-units for a file that states its units and
// --components for a file without components did nothing; given by a person, they are errors
TEST(Output, InputUnitsAndComponentsAFileHasNoUseForAreErrors) {
  TempDir d;
  Scene s = plummerish(10);
  s.units = units::galactic();
  for (auto [f, name] : {std::pair{io::Format::Csv, "n.csv"},
                         {io::Format::Binary, "n.bin"},
                         {io::Format::Agora, "n_agora"},
                         {io::Format::TipsyXdr, "n.std"}})
    io::save(s, d / name, f);
  write_bytes(d / "plain.csv", "x,y,z,vx,vy,vz,m\n1,0,0,0,0.5,0,0.5\n-1,0,0,0,-0.5,0,0.5\n");
  io::LoadOptions lo;
  lo.input_units = units::solar();
  lo.input_units_given = true;
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "n.csv", lo); }, "n.csv:1", "--input-units");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "n.bin", lo); }, "n.bin", "--input-units");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "n_agora", lo); }, "n_agora", "--input-units");
  EXPECT_EQ(io::load(d / "plain.csv", lo).units.name, "solar");
  EXPECT_EQ(io::load(d / "n.std", lo).units.name, "solar");
  io::LoadOptions lc;
  io::select_components(lc, {"all"});
  lc.components_given = true;
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "n.csv", lc); }, "n.csv", "--components");
  EXPECT_ERROR_MENTIONS([&] { io::load(d / "n.bin", lc); }, "n.bin", "--components");
  EXPECT_EQ(io::load(d / "n.std", lc).bodies.size(), 10u);
  EXPECT_GT(io::load(d / "n_agora", lc).bodies.size(), 0u);
  // not given by a person (a default, or the window's later loads): no error
  lo.input_units_given = false;
  EXPECT_EQ(io::load(d / "n.csv", lo).units.name, "galactic");
}

// issue 22 (HIGH, its last sentence): a plain CSV with every field quoted, the column names too
// (R's write.csv), was refused as "not a CSV nbody reads"; also without the .csv extension
TEST(Output, PlainCsvWithQuotedColumnNamesLoads) {
  TempDir d;
  const std::string text =
      "\"x\",\"y\",\"z\",\"vx\",\"vy\",\"vz\",\"m\"\n\"1\",\"0\",\"0\",\"0\",\"0.5\",\"0\","
      "\"0.5\"\n-1,0,0,0,-0.5,0,0.5\n";
  write_bytes(d / "r.csv", text);
  write_bytes(d / "r.txt", text);
  for (const char* f : {"r.csv", "r.txt"}) {
    SCOPED_TRACE(f);
    Scene s = io::load(d / f);
    ASSERT_EQ(s.bodies.size(), 2u);
    EXPECT_EQ(s.bodies.x[0], 1);
    EXPECT_EQ(s.bodies.vy[0], 0.5);
    EXPECT_EQ(s.bodies.m[1], 0.5);
  }
}

// finding 5: loaders stream; the binary reader reads into the bodies (no whole-file buffer)
TEST(Output, LargeBinaryAndCsvRoundTrip) {
  TempDir d;
  Scene s = plummerish(70000);
  io::save(s, d / "big.bin", io::Format::Binary);
  io::save(s, d / "big.csv", io::Format::Csv);
  for (const char* f : {"big.bin", "big.csv"}) {
    Scene r = io::load(d / f, everything());
    EXPECT_EQ(r.bodies.x, s.bodies.x) << f;
    EXPECT_LE(r.bodies.m.capacity(), r.bodies.m.size() + 16) << f << ": arrays reserved once";
  }
}

namespace {

// a file-size limit (RLIMIT_FSIZE) stands in for a full disk: writes past it fail (EFBIG)
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit l = old_;
    l.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &l);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit old_{};
  void (*old_handler_)(int) = nullptr;
};

}  // namespace

// issue 22, finding 7: --force onto a full disk replaced disk.dat and bulge.dat and kept the old
// halo.dat; now every file is written before any is replaced
TEST(Output, AgoraWriteFailureReplacesNoFile) {
  TempDir d;
  Scene s = plummerish(2000);
  s.units = units::agora();
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    s.bodies.component[i] = i < 10 ? Component::Disk : Component::Dark;
  io::save(s, d / "ag", io::Format::Agora);
  const std::string disk = read_bytes(d / "ag/disk.dat"), halo = read_bytes(d / "ag/halo.dat");
  Scene t = s;
  for (double& x : t.bodies.x)
    x += 1;
  io::SaveOptions so;
  so.force = true;
  {
    const FileSizeLimit limit(halo.size() / 2);  // disk.dat fits, halo.dat does not
    EXPECT_ERROR_MENTIONS([&] { io::save(t, d / "ag", io::Format::Agora, so); }, "halo.dat",
                          "write error", "File too large", "no file in");
  }
  EXPECT_EQ(read_bytes(d / "ag/disk.dat"), disk) << "disk.dat was replaced";
  EXPECT_EQ(read_bytes(d / "ag/halo.dat"), halo);
  EXPECT_EQ(leftovers(d / "ag"), 0);
}

// issue 22, LOW: two writers of one AGORA directory at once: the second is refused
TEST(Output, ConcurrentAgoraWritersAreRefused) {
  TempDir d;
  Scene s = plummerish(20);
  s.units = units::agora();
  std::filesystem::create_directories(d / "ag");
  const int fd = ::open((d / "ag").c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);  // another writer holds it (flock is per open file)
  EXPECT_ERROR_MENTIONS([&] { io::save(s, d / "ag", io::Format::Agora); },
                        "another process is writing");
  ::close(fd);
  io::save(s, d / "ag", io::Format::Agora);
}

// issue 22, LOW: a failed write says why (ENOSPC, EFBIG), not just "write error"
TEST(Output, WriteErrorsKeepTheOsReason) {
  TempDir d;
  const Scene s = plummerish(5000);
  for (io::Format f : {io::Format::Csv, io::Format::Binary, io::Format::TipsyXdr}) {
    const FileSizeLimit limit(4096);
    EXPECT_ERROR_MENTIONS([&] { io::save(s, d / "big.out", f); }, "big.out", "File too large");
  }
  EXPECT_EQ(leftovers(d.str()), 0);
  // the safe writer of other outputs (frames, summaries) says the same
  const FileSizeLimit limit(10);
  EXPECT_ERROR_MENTIONS([&] { io::write_file(d / "x.json", std::string(100, 'x')); }, "x.json",
                        "write error", "File too large");
}

// issue 22, finding 3: what a format cannot hold is found by check_scene_output (before a run)
TEST(Output, WhatAFormatCannotHoldIsFoundBeforeWriting) {
  Scene s = plummerish(3);
  s.bodies.name = {"a", std::string(70000, 'n'), "c"};
  EXPECT_ERROR_MENTIONS([&] { io::check_scene_output(s, "o.bin", io::Format::Binary); }, "o.bin",
                        "body 1", "65,535");
  s.bodies.name = {"a", "line\nbreak", "c"};
  EXPECT_ERROR_MENTIONS([&] { io::check_scene_output(s, "o.csv", io::Format::Csv); }, "o.csv",
                        "body 1", "line break");
  s.bodies.name.clear();
  s.units = units::henon();
  EXPECT_ERROR_MENTIONS([&] { io::check_scene_output(s, "dir", io::Format::Agora); }, "dir",
                        "dimensionless");
}

// issue 22, finding 5: a scene name with a line break stays in the one header line
TEST(Output, CsvHeaderValuesWithLineBreaksRoundTrip) {
  Scene s = plummerish(3);
  s.name = "two\nlines\r\\n";
  s.units = UnitSystem{"custom", "my\nlen", "M", "T", "L/T", 0, 0, 0, 2.5};
  std::ostringstream out;
  io::write_csv(out, s);
  std::istringstream in(out.str());
  const Scene r = io::read_csv(in, "t.csv");
  EXPECT_EQ(r.name, s.name);
  EXPECT_EQ(r.units.length, "my\nlen");
  EXPECT_EQ(r.bodies.size(), 3u);
}

// issue 22, LOW: units=custom must state its labels and scales
TEST(Output, CustomUnitsWithoutLabelsAreRefused) {
  std::istringstream in("# nbody csv v1 units=custom G=2\n1,0,0,0,0,0,1\n-1,0,0,0,0,0,1\n");
  EXPECT_ERROR_MENTIONS([&] { io::read_csv(in, "c.csv"); }, "c.csv:1", "units=", "length");
}

// issue 22, found by fuzz_roundtrip_csv and fuzz_roundtrip_binary: the writers wrote unit scales
// (NaN) that their readers refuse; now they refuse them, naming the value
TEST(Output, WritersRefuseWhatTheReadersRefuse) {
  Scene s = plummerish(3);
  s.units = UnitSystem{"custom", "L", "M", "T", "L/T", std::nan(""), 0, 0, 2};
  std::ostringstream o;
  EXPECT_ERROR_MENTIONS([&] { io::write_csv(o, s); }, "length_m", "not a finite number");
  EXPECT_ERROR_MENTIONS([&] { io::write_binary(o, s); }, "length_m", "not a finite number");
  TempDir d;
  EXPECT_ERROR_MENTIONS([&] { io::save(s, d / "x.csv", io::Format::Csv); }, "x.csv", "length_m");
  s.units = units::henon();
  s.dt = std::numeric_limits<double>::infinity();
  EXPECT_ERROR_MENTIONS([&] { io::save(s, d / "x.bin", io::Format::Binary); }, "x.bin", "dt");
  // a unit label with a NUL byte would come back cut at it from the binary header
  s.dt = 0.1;
  s.units = UnitSystem{"custom", std::string("a\0b", 3), "M", "T", "L/T", 0, 0, 0, 2};
  EXPECT_ERROR_MENTIONS([&] { io::write_binary(o, s); }, "length label", "NUL");
  EXPECT_EQ(leftovers(d.str()), 0);
}
