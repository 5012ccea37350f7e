// Saved states (issue 19, item 6): a state written as CSV or binary reads back bitwise with its
// whole run record, older files still load, and a run restored from a state continues bitwise
// like the original.

#include <cmath>
#include <cstring>
#include <limits>

#include "io_test_util.hpp"
#include "sim/core/simulation.hpp"

using namespace iotest;

namespace {

// a scene whose doubles need all 17 digits, with names
Scene awkward_scene(std::size_t n) {
  Scene s = mixed_scene(n);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (auto* c : {&s.bodies.x, &s.bodies.y, &s.bodies.z, &s.bodies.vx, &s.bodies.vy, &s.bodies.vz})
    for (double& v : *c)
      v = u(rng) / 3.0;
  s.bodies.x[0] = std::numeric_limits<double>::denorm_min();
  s.bodies.y[0] = -0.0;
  s.bodies.m[1] = 1.0 / 7.0;
  s.bodies.name.assign(n, "");
  s.bodies.name[0] = "Sun";
  s.dt = 0.1 / 3.0;
  s.softening = 2.0 / 3.0 * 1e-3;
  s.units.G = 1.0 / 3.0;
  s.units.name = "custom";
  return s;
}

io::RunRecord full_record() {
  io::RunRecord r;
  r.time = 12.0 / 7.0;
  r.steps = 1234567;
  r.kernel = "cpu-barnes-hut";
  r.integrator = "yoshida4+1pn";
  r.precision = "double";
  r.gpus = 0;
  r.tunables = {{"theta", 0.1 / 3.0}, {"leaf_size", 16}};
  r.view = {{"target_x", 1.0 / 3.0}, {"yaw", -2.0 / 7.0}, {"follow", 3}, {"distance", 1e-300}};
  return r;
}

void expect_same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(std::memcmp(&a[i], &b[i], sizeof(double)), 0) << i << ": " << a[i] << " " << b[i];
}

void expect_same_state(const io::SavedState& st, const Scene& s, const io::RunRecord& r) {
  const Bodies &a = st.scene.bodies, &b = s.bodies;
  expect_same_bits(a.x, b.x);
  expect_same_bits(a.y, b.y);
  expect_same_bits(a.z, b.z);
  expect_same_bits(a.vx, b.vx);
  expect_same_bits(a.vy, b.vy);
  expect_same_bits(a.vz, b.vz);
  expect_same_bits(a.m, b.m);
  EXPECT_EQ(a.component, b.component);
  EXPECT_EQ(a.name, b.name);
  expect_same_bits({st.scene.dt, st.scene.softening, st.scene.units.G},
                   {s.dt, s.softening, s.units.G});
  expect_same_bits({st.run.time}, {r.time});
  EXPECT_EQ(st.run.steps, r.steps);
  EXPECT_EQ(st.run.kernel, r.kernel);
  EXPECT_EQ(st.run.integrator, r.integrator);
  EXPECT_EQ(st.run.precision, r.precision);
  EXPECT_EQ(st.run.gpus, r.gpus);
  EXPECT_EQ(st.run.tunables, r.tunables);
  EXPECT_EQ(st.run.view, r.view);
}

}  // namespace

TEST(State, CsvRoundTripIsBitwise) {
  TempDir d;
  const Scene s = awkward_scene(40);
  const io::RunRecord r = full_record();
  io::save_state(d / "s.csv", s, r);
  expect_same_state(io::load_state(d / "s.csv"), s, r);
  // the CSV keeps the shortest text that reads back to the same double (17 digits at most)
  const std::string text = read_bytes(d / "s.csv");
  EXPECT_NE(text.find("tunables=leaf_size:16;theta:0.03333333333333333 "), std::string::npos)
      << text.substr(0, 600);
}

TEST(State, BinaryRoundTripIsBitwise) {
  TempDir d;
  const Scene s = awkward_scene(40);
  const io::RunRecord r = full_record();
  io::save_state(d / "s.bin", s, r);
  const std::string bytes = read_bytes(d / "s.bin");
  EXPECT_EQ(static_cast<unsigned char>(bytes[8]), 2u);  // version 2: the state follows
  expect_same_state(io::load_state(d / "s.bin"), s, r);
}

TEST(State, OldFilesStillLoad) {
  TempDir d;
  // a version-1 binary (a run without the state is still written as version 1)
  const Scene s = awkward_scene(5);
  io::RunRecord old;
  old.time = 2.5;
  old.steps = 10;
  old.kernel = "cpu-reference";
  old.integrator = "leapfrog-kdk";
  io::save_state(d / "old.bin", s, old);
  EXPECT_EQ(static_cast<unsigned char>(read_bytes(d / "old.bin")[8]), 1u);
  io::SavedState st = io::load_state(d / "old.bin");
  EXPECT_EQ(st.run.steps, 10);
  EXPECT_EQ(st.run.precision, "");
  EXPECT_EQ(st.run.gpus, 1);
  EXPECT_TRUE(st.run.view.empty());
  // a CSV header as written before the state existed, and one with no run at all
  write_bytes(d / "old.csv",
              "# nbody csv v1 units=henon G=1 dt=0.01 softening=0.05 elapsed=0.5 steps=50 "
              "kernel=cpu-openmp integrator=leapfrog-kdk camera=4\n"
              "1,0,0,0,1,0,0.5,star\n-1,0,0,0,-1,0,0.5,star\n");
  st = io::load_state(d / "old.csv");
  EXPECT_EQ(st.run.kernel, "cpu-openmp");
  EXPECT_EQ(st.run.time, 0.5);
  EXPECT_TRUE(st.run.tunables.empty());
  write_bytes(d / "bare.csv",
              "# nbody csv v1 units=henon G=1 dt=0.01 softening=0.05\n1,0,0,0,1,0,1\n");
  st = io::load_state(d / "bare.csv");
  EXPECT_EQ(st.run.steps, 0);
  EXPECT_FALSE(st.run.has_state());
}

TEST(State, BadStateEntriesAreNamed) {
  TempDir d;
  write_bytes(
      d / "b.csv",
      "# nbody csv v1 units=henon G=1 dt=0.01 softening=0.05 view=\"yaw:abc\"\n1,0,0,0,1,0,1\n");
  EXPECT_ERROR_MENTIONS([&] { io::load_state(d / "b.csv"); }, "b.csv:1", "view", "yaw:abc");
  write_bytes(
      d / "p.csv",
      "# nbody csv v1 units=henon G=1 dt=0.01 softening=0.05 precision=half\n1,0,0,0,1,0,1\n");
  EXPECT_ERROR_MENTIONS([&] { io::load_state(d / "p.csv"); }, "p.csv:1", "precision", "half");
  io::RunRecord r;
  r.view = {{"bad key", 1}};
  EXPECT_ERROR_MENTIONS([&] { io::save_state(d / "k.bin", awkward_scene(3), r); }, "bad key");
  EXPECT_ERROR_MENTIONS([&] { io::save_state(d / "s.tipsy", awkward_scene(3), {}); }, "s.tipsy",
                        ".csv or .bin");
  // a truncated state
  io::save_state(d / "t.bin", awkward_scene(3), full_record());
  std::string bytes = read_bytes(d / "t.bin");
  write_bytes(d / "t.bin", bytes.substr(0, bytes.size() - 4));
  EXPECT_ERROR_MENTIONS([&] { io::load_state(d / "t.bin"); }, "t.bin", "saved state view");
}

// a run restored from a saved state continues bitwise like the run it was saved from
TEST(State, RestoredRunContinuesBitwise) {
  TempDir d;
  for (const char* ext : {"csv", "bin"}) {
    SCOPED_TRACE(ext);
    Scene s = mixed_scene(64);
    SimParams p;
    p.kernel = "cpu-symmetric";
    p.precision = Precision::Double;
    p.integrator = Integrator::Yoshida4;
    p.dt = 1.0 / 300.0;
    p.softening = 0.05;
    p.G = 1;
    p.steps_per_frame = 7;
    Simulation a(s, p);
    a.step(p);
    Scene now = a.scene();
    now.bodies = a.bodies();
    now.dt = p.dt;
    now.softening = p.softening;
    io::RunRecord r = full_record();
    r.kernel = p.kernel;
    r.integrator = "yoshida4";
    const std::string path = d / (std::string("run.") + ext);
    io::save_state(path, now, r);
    a.step(p);
    const io::SavedState st = io::load_state(path);
    SimParams q = p;
    q.dt = st.scene.dt;
    q.softening = st.scene.softening;
    q.G = st.scene.units.G;
    q.integrator = parse_integrator(st.run.integrator);
    q.kernel = st.run.kernel;
    Simulation b(st.scene, q);
    b.step(q);
    expect_same_bits(b.bodies().x, a.bodies().x);
    expect_same_bits(b.bodies().vz, a.bodies().vz);
    expect_same_bits(b.bodies().m, a.bodies().m);
  }
}
