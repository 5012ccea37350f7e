// The format table: every row is complete, named once, found by its content, round-trips what
// its capabilities say it holds (and nothing it says it cannot), and every consumer in sim/
// (names, extensions, detection, load, save, saved states, info) knows it. A new format that
// misses one of them fails here; tests/app/test_cli.cpp checks the command line's choices.

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

#include "io_test_util.hpp"
#include "sim/io/format_table.hpp"

using namespace iotest;

namespace {

// a sample of each read-only format (the writable ones are written by the test)
std::string sample_of(const io::FormatRow& r) {
  // the fuzzers' seeds: tests/fuzz/corpus next to tests/data
  const std::filesystem::path corpus =
      std::filesystem::path(NBODY_TEST_DATA_DIR).parent_path() / "fuzz" / "corpus";
  if (r.id == io::Format::Sbdb) return (corpus / "fuzz_sbdb" / "asteroids.json").string();
  return {};
}

// where a row is written in `d`: a directory, or a file with its first extension (none: ".dat",
// so detection must read the contents)
std::string target(const TempDir& d, const io::FormatRow& r) {
  if (r.caps.directory) return d / (std::string(r.name) + "_dir");
  return d / (std::string(r.name) + (r.extensions.empty() ? ".dat" : r.extensions.front()));
}

// the bodies as a sorted list (formats may store them by component)
using BodyTuple = std::tuple<double, double, double, double, double, double, double>;
std::vector<BodyTuple> sorted_bodies(const Bodies& b, bool velocities, bool masses) {
  std::vector<BodyTuple> out;
  for (std::size_t i = 0; i < b.size(); ++i)
    out.emplace_back(b.x[i], b.y[i], b.z[i], velocities ? b.vx[i] : 0, velocities ? b.vy[i] : 0,
                     velocities ? b.vz[i] : 0, masses ? b.m[i] : 0);
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t count(const Bodies& b, Component c) {
  return std::size_t(std::count(b.component.begin(), b.component.end(), c));
}

io::RunRecord a_run() {
  io::RunRecord run;
  run.time = 2.5;
  run.steps = 7;
  run.kernel = "cpu-symmetric";
  run.integrator = "leapfrog-kdk";
  return run;
}

}  // namespace

TEST(FormatTable, EveryRowIsCompleteAndNamedOnce) {
  std::set<std::string> names, extensions;
  std::set<int> ids;
  for (const io::FormatRow* r : io::format_table()) {
    SCOPED_TRACE(r->name);
    EXPECT_TRUE(ids.insert(int(r->id)).second) << "two rows for one Format";
    EXPECT_EQ(&io::format_row(r->id), r);
    EXPECT_STREQ(io::format_name(r->id), r->name);
    ASSERT_NE(r->label, nullptr);
    ASSERT_NE(r->description, nullptr);
    EXPECT_GT(std::string(r->description).size(), 10u);
    EXPECT_NE(r->read, nullptr) << "every format is read";
    if (r->caps.directory) {
      EXPECT_NE(r->detect, nullptr) << "a directory format detects itself";
    }
    // every name and alias is lower case, unique, and parses back to this row
    std::vector<std::string> all{r->name};
    all.insert(all.end(), r->aliases.begin(), r->aliases.end());
    for (const std::string& n : all) {
      EXPECT_TRUE(names.insert(n).second) << n << " names two formats";
      EXPECT_EQ(n, [&] {
        std::string l = n;
        for (char& c : l)
          c = char(std::tolower(static_cast<unsigned char>(c)));
        return l;
      }());
      EXPECT_EQ(io::parse_format(n), r->id) << n;
      EXPECT_EQ(io::find_format(n), r) << n;
    }
    // extensions: ".xyz", lower case, each implying at most one format
    for (const std::string& e : r->extensions) {
      EXPECT_EQ(e.front(), '.') << e;
      EXPECT_TRUE(extensions.insert(e).second) << e << " is listed by two formats";
      const std::optional<io::Format> f = io::format_from_extension("a/b" + e);
      if (r->writable())
        EXPECT_EQ(f, r->id) << e;
      else
        EXPECT_FALSE(f) << e << ": an input-only format is never implied by a name";
    }
  }
  EXPECT_ERROR_MENTIONS([] { io::parse_format("hdf5", "--to"); }, "--to", "hdf5", "csv", "agora");
}

TEST(FormatTable, ChoicesListsAndHelpComeFromTheRows) {
  const std::vector<std::string> readable = io::format_choices(false);
  const std::vector<std::string> writable = io::format_choices(true);
  const std::string help = io::format_help(false), whelp = io::format_help(true);
  const std::string ext_help = io::extension_help(), labels = io::readable_label_list();
  for (const io::FormatRow* r : io::format_table()) {
    SCOPED_TRACE(r->name);
    auto listed = [](const std::vector<std::string>& v, const std::string& n) {
      return std::find(v.begin(), v.end(), n) != v.end();
    };
    EXPECT_TRUE(listed(readable, r->name));
    EXPECT_EQ(listed(writable, r->name), r->writable());
    for (const std::string& a : r->aliases)
      EXPECT_EQ(listed(writable, a), r->writable()) << a;
    EXPECT_NE(help.find(r->description), std::string::npos);
    EXPECT_EQ(whelp.find(r->description) != std::string::npos, r->writable());
    EXPECT_EQ(io::writable_format_list().find(r->name) != std::string::npos, r->writable());
    EXPECT_NE(labels.find(r->label), std::string::npos);
    if (r->writable()) {
      EXPECT_NE(ext_help.find(r->name), std::string::npos) << ext_help;
    }
  }
  // every extension of the table, each once (the file browser lists these)
  std::size_t n = 0;
  for (const io::FormatRow* r : io::format_table())
    n += r->extensions.size();
  EXPECT_EQ(io::extension_table().size(), n);
}

// write -> detect -> read for every writable row; what the row's capabilities promise comes
// back, and what they deny does not
TEST(FormatTable, EveryWritableRowRoundTripsThroughDetection) {
  TempDir d;
  Scene s = mixed_scene(40);
  s.units = units::agora();  // physical units every writer accepts
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    s.bodies.name.push_back("body " + std::to_string(i));
  std::size_t written = 0;
  for (const io::FormatRow* r : io::format_table()) {
    if (!r->writable()) continue;
    SCOPED_TRACE(r->name);
    ++written;
    const std::string path = target(d, *r);
    io::SaveOptions so;
    so.run = a_run();
    io::save(s, path, r->id, so);
    EXPECT_EQ(io::detect_format(path), r->id) << "detection does not find what the row wrote";
    io::RunRecord rr;
    io::LoadOptions lo;
    io::select_components(lo, {"all"});
    lo.input_units = units::agora();
    lo.run = &rr;
    const Scene back = io::load(path, lo);
    const Bodies& b = back.bodies;
    ASSERT_EQ(b.size(), s.bodies.size());
    EXPECT_EQ(sorted_bodies(b, r->caps.velocities, r->caps.masses),
              sorted_bodies(s.bodies, r->caps.velocities, r->caps.masses));
    EXPECT_EQ(count(b, Component::Gas), count(s.bodies, Component::Gas));
    EXPECT_EQ(count(b, Component::Dark), count(s.bodies, Component::Dark));
    EXPECT_EQ(back.units.name, "agora");
    EXPECT_EQ(!b.name.empty(), r->caps.names) << "names";
    EXPECT_EQ(rr.time == 2.5, r->caps.time) << "time " << rr.time;
    EXPECT_EQ(rr.steps == 7 && rr.kernel == "cpu-symmetric", r->caps.run) << "run";
    // info reads the same row
    const io::FileInfo fi = io::info(path, lo);
    EXPECT_EQ(fi.format, r->id);
    EXPECT_EQ(fi.n, s.bodies.size());
    EXPECT_NE(io::describe(fi).find(std::string("format:     ") + r->name), std::string::npos);
    // --components is an error exactly where the format has none to choose
    io::LoadOptions picked = lo;
    picked.components_given = true;
    EXPECT_EQ(nbody::test::error_of([&] { io::load(path, picked); }).empty(), r->caps.components);
  }
  EXPECT_GE(written, 4u);
}

TEST(FormatTable, EveryReadOnlyRowHasASampleThatIsDetectedAndRead) {
  for (const io::FormatRow* r : io::format_table()) {
    if (r->writable()) continue;
    SCOPED_TRACE(r->name);
    const std::string sample = sample_of(*r);
    ASSERT_FALSE(sample.empty()) << "add a sample of the read-only format to sample_of()";
    EXPECT_EQ(io::detect_format(sample), r->id);
    EXPECT_GT(io::load(sample).bodies.size(), 0u);
    TempDir d;
    EXPECT_ERROR_MENTIONS([&] { io::save(mixed_scene(3), d / "x", r->id); }, "input format only",
                          io::writable_format_list());
  }
}

// save_state() takes exactly the formats whose row says it holds a saved state
TEST(FormatTable, SavedStatesFollowTheCapability) {
  TempDir d;
  Scene s = mixed_scene(10);
  io::RunRecord run = a_run();
  run.precision = "double";
  run.tunables["theta"] = 0.5;
  for (const io::FormatRow* r : io::format_table()) {
    SCOPED_TRACE(r->name);
    for (const std::string& e : r->extensions) {
      const std::string path = d / ("state" + e);
      if (r->caps.saved_state) {
        io::save_state(path, s, run);
        const io::SavedState st = io::load_state(path);
        EXPECT_EQ(st.run.steps, 7);
        EXPECT_EQ(st.run.precision, "double");
        EXPECT_EQ(st.run.tunables.at("theta"), 0.5);
      } else {
        EXPECT_ERROR_MENTIONS([&] { io::save_state(path, s, run); }, path, "saved state");
      }
    }
  }
}

// the message for an unknown file names every format detection tried
TEST(FormatTable, UnknownFileMessageNamesEveryDetectedFormat) {
  TempDir d;
  write_bytes(d / "junk.dat", "this is not any format we know, sorry about that\n");
  const std::string msg = nbody::test::error_of([&] { io::detect_format(d / "junk.dat"); });
  ASSERT_FALSE(msg.empty());
  for (const io::FormatRow* r : io::format_table())
    if (r->detect && !r->caps.directory) {
      EXPECT_NE(msg.find(r->label), std::string::npos) << msg;
    }
}
