// The shipped lessons played headless through `nbody simulate --lesson` (issue 19, item 7), each
// with a physical check of what it shows, and the command line's errors for lessons. Runs the
// nbody binary (CPU kernels only) and reads its outputs back with sim/io.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "sim/io/io.hpp"
#include "sim/lesson/lesson.hpp"
#include "tests/test_util.hpp"

namespace {

namespace fs = std::filesystem;
using namespace nbody;
const std::string kNbody = std::string(NBODY_BINARY_DIR) + "/bin/nbody";

struct Result {
  int rc = -1;
  std::string out;
};

Result run(const std::string& args) {
  Result r;
  std::FILE* p = ::popen((kNbody + " " + args + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p))
    r.out.append(buf, n);
  const int st = ::pclose(p);
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  EXPECT_FALSE(test::ubsan_report(r.out)) << r.out;
  return r;
}

class LessonCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("nbody_lesson_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string at(const std::string& f) const { return (dir_ / f).string(); }
  // the lesson's state after `steps` steps (all of it when steps < 0)
  Scene state(const std::string& lesson, long long steps, const std::string& file) {
    const std::string s = steps >= 0 ? " --steps " + std::to_string(steps) : "";
    const Result r = run("simulate --lesson " + lesson + s + " -o " + at(file));
    EXPECT_EQ(r.rc, 0) << r.out;
    return io::load(at(file));
  }
  fs::path dir_;
};

// body `name` about the Sun: distance, speed, orbital energy per mass, semi-major axis
struct Orbit {
  double r, v, energy, a;
};
Orbit about_sun(const Scene& s, const std::string& name) {
  const std::size_t sun = *find_body(s, "Sun");
  const auto b = find_body(s, name);
  EXPECT_TRUE(b) << name << " not in the output";
  const std::size_t i = b.value_or(0);
  const Bodies& B = s.bodies;
  const double r = std::hypot(B.x[i] - B.x[sun], B.y[i] - B.y[sun], B.z[i] - B.z[sun]);
  const double v = std::hypot(B.vx[i] - B.vx[sun], B.vy[i] - B.vy[sun], B.vz[i] - B.vz[sun]);
  const double mu = s.units.G * (B.m[sun] + B.m[i]);
  const double e = 0.5 * v * v - mu / r;
  return {r, v, e, -mu / (2 * e)};
}

std::array<double, 3> momentum(const Bodies& b, double& scale) {
  std::array<double, 3> p{0, 0, 0};
  scale = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    p[0] += b.m[i] * b.vx[i];
    p[1] += b.m[i] * b.vy[i];
    p[2] += b.m[i] * b.vz[i];
    scale += b.m[i] * std::hypot(b.vx[i], b.vy[i], b.vz[i]);
  }
  return p;
}

}  // namespace

// the comet added at 10 d (step 100) passes behind Jupiter and leaves with more orbital energy
// about the Sun than it had: bound before, unbound after
TEST_F(LessonCli, CometSlingshotGainsEnergy) {
  const Orbit before = about_sun(state("comet-slingshot", 101, "before.csv"), "Comet");
  const Orbit after = about_sun(state("comet-slingshot", -1, "after.csv"), "Comet");
  EXPECT_LT(before.energy, 0);
  EXPECT_GT(after.energy, 0) << "the comet did not escape";
  EXPECT_GT(after.energy - before.energy, 0.5 * std::fabs(before.energy));
  EXPECT_GT(after.v, before.v);
}

// the Sun's mass doubles at 1 yr: the Earth falls to a tighter orbit (a ~ 2/3 AU) and moves
// faster on average
TEST_F(LessonCli, HeavySunTightensTheEarthsOrbit) {
  const Scene s0 = state("heavy-sun", 3000, "before.csv");  // 300 days
  const Scene s1 = state("heavy-sun", -1, "after.csv");     // 3 years
  const Orbit before = about_sun(s0, "Earth"), after = about_sun(s1, "Earth");
  EXPECT_DOUBLE_EQ(s1.bodies.m[*find_body(s1, "Sun")], 2 * s0.bodies.m[*find_body(s0, "Sun")]);
  EXPECT_NEAR(before.a, 1.0, 0.01);
  EXPECT_NEAR(after.a, 2.0 / 3.0, 0.03);
  EXPECT_LT(after.a, 0.8 * before.a);
  // vis-viva: the mean speed of a bound orbit is about sqrt(mu / a)
  EXPECT_GT(std::sqrt(2 * s1.units.G / after.a), 1.5 * std::sqrt(s0.units.G / before.a));
}

// the black hole is added at 5 Myr and is there at the end; from then on the momentum is
// conserved to round-off (the symmetric direct sum in double: every pair force cancels)
TEST_F(LessonCli, BlackHoleCrossesTheGalaxyConservingMomentum) {
  const Scene s0 = state("black-hole-galaxy", 6, "before.bin");
  const Scene s1 = state("black-hole-galaxy", -1, "after.bin");
  const auto bh = find_body(s1, "black hole");
  ASSERT_TRUE(bh) << "no black hole at the end";
  EXPECT_EQ(s1.bodies.m[*bh], 0.01);  // 1e8 Msun in units of 1e10 Msun
  EXPECT_EQ(s1.bodies.size(), s0.bodies.size());
  double scale0 = 0, scale1 = 0;
  const auto p0 = momentum(s0.bodies, scale0), p1 = momentum(s1.bodies, scale1);
  EXPECT_GT(std::fabs(p0[2]), 3.0);  // the black hole's 0.01 x 350 km/s
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(p1[k], p0[k], 1e-12 * scale0) << "component " << k;
}

TEST_F(LessonCli, ErrorsNameTheLessonEventAndField) {
  Result r = run("simulate --lesson " + at("missing.json"));
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("missing.json"), std::string::npos) << r.out;
  std::ofstream(at("bad.json")) << R"({"title": "t", "scene": "two-body", "duration": 1,
    "events": [{"time": 0.5, "action": "delete", "name": "Vulcan"}]})";
  r = run("simulate --lesson " + at("bad.json"));
  EXPECT_NE(r.rc, 0);
  for (const char* p : {"bad.json", "event 0 (delete)", "'name'", "Vulcan"})
    EXPECT_NE(r.out.find(p), std::string::npos) << p << " not in " << r.out;
  r = run("simulate --lesson heavy-sun --scene plummer");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("--scene"), std::string::npos) << r.out;
  std::ofstream(at("endless.json")) << R"({"title": "t", "scene": "two-body", "events": []})";
  r = run("simulate --lesson " + at("endless.json"));
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("never ends"), std::string::npos) << r.out;
}

// collisions on from a lesson: touching bodies merge after each step (logged), a merge event
// joins two named bodies, and momentum stays conserved to round-off through both
TEST_F(LessonCli, CollisionsAndMergesConserveMomentum) {
  std::ofstream(at("crash.json")) << R"({"title": "crash", "scene": "planet-into-jupiter",
    "physics": {"kernel": "cpu-reference", "precision": "double"},
    "events": [{"time": 0, "action": "collisions", "on": true, "density": 3000},
               {"time": 0, "action": "merge", "names": ["Io", "Europa"]}]})";
  const Scene s0 = state(at("crash.json"), 1, "before.bin");
  const Result r = run("simulate --lesson " + at("crash.json") + " -o " + at("after.bin"));
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("collision: Jupiter absorbed planet"), std::string::npos) << r.out;
  const Scene s1 = io::load(at("after.bin"));
  EXPECT_EQ(s0.bodies.size(), 5u);  // Io and Europa merged
  EXPECT_LT(s1.bodies.size(), s0.bodies.size());
  EXPECT_FALSE(find_body(s1, "planet"));
  double scale0 = 0, scale1 = 0;
  const auto p0 = momentum(s0.bodies, scale0), p1 = momentum(s1.bodies, scale1);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(p1[k], p0[k], 1e-12 * scale0) << "component " << k;
}
