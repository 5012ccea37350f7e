// Saved states for the window (issue 19, item 6): app/state_file writes the bodies, time, steps,
// physics, kernel choice and view, and reads them back; a kernel this machine cannot run falls
// back with a notice naming both.

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "app/core/state_file.hpp"
#include "sim/core/backend.hpp"

namespace {

namespace fs = std::filesystem;
using namespace nbody;

class StateFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("nbody_state_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string at(const std::string& f) const { return (dir_ / f).string(); }
  fs::path dir_;
};

SimParams params() {
  SimParams p;
  p.kernel = "cpu-barnes-hut";
  p.precision = Precision::Double;
  p.tunables = {{"theta", 0.3}, {"leaf_size", 8}};
  p.dt = 0.25;
  p.softening = 1.0 / 3.0;
  p.G = 2.5;
  p.integrator = Integrator::Yoshida4;
  return p;
}

}  // namespace

TEST_F(StateFile, EverythingComesBack) {
  for (const char* name : {"s.csv", "s.bin"}) {
    SCOPED_TRACE(name);
    const Scene s = make_scene("plummer", {64, 3, {}});
    const std::map<std::string, double> view = {
        {"target_x", 0.125}, {"distance", 7.5}, {"yaw", -1.0 / 3.0}, {"pitch", 0.2}, {"follow", 5}};
    app::save_state_file(at(name), s, params(), 12.5, 50, view);
    const app::RestoredState r = app::load_state_file(at(name));
    EXPECT_EQ(r.scene.bodies.x, s.bodies.x);
    EXPECT_EQ(r.scene.bodies.vz, s.bodies.vz);
    EXPECT_EQ(r.time, 12.5);
    EXPECT_EQ(r.steps, 50);
    EXPECT_EQ(r.view, view);
    EXPECT_EQ(r.physics.dt, 0.25);
    EXPECT_EQ(r.physics.softening, 1.0 / 3.0);
    EXPECT_EQ(r.physics.G, 2.5);
    EXPECT_EQ(r.physics.integrator, Integrator::Yoshida4);
    EXPECT_FALSE(r.physics.post_newtonian);
    EXPECT_EQ(r.choice.kernel, "cpu-barnes-hut");
    EXPECT_EQ(r.choice.precision, Precision::Double);
    EXPECT_EQ(r.choice.tunables.at("theta"), 0.3);
    EXPECT_EQ(r.choice.tunables.at("leaf_size"), 8);
    EXPECT_TRUE(r.notice.empty()) << r.notice;
  }
}

TEST_F(StateFile, AKernelThisMachineLacksFallsBack) {
  io::RunRecord run = app::state_record(params(), 1, 2, {});
  run.kernel = "tiled2d";  // a GPU kernel (absent from a CPU-only build)
  std::string notice;
  const KernelChoice c =
      app::restore_choice(run, "cpu-symmetric", [&](const std::string& m) { notice = m; });
  if (cuda_available()) GTEST_SKIP() << "this machine runs GPU kernels";
  EXPECT_EQ(c.kernel, "cpu-symmetric");
  EXPECT_NE(notice.find("tiled2d"), std::string::npos) << notice;
  EXPECT_NE(notice.find("cpu-symmetric"), std::string::npos) << notice;
  EXPECT_TRUE(c.tunables.empty());  // theta is not a tunable of the direct sum
}

TEST_F(StateFile, IntegratorAndThe1PNTerm) {
  Integrator i = Integrator::Leapfrog;
  bool pn = false;
  EXPECT_TRUE(app::restore_integrator("yoshida4+1pn", i, pn));
  EXPECT_EQ(i, Integrator::Yoshida4);
  EXPECT_TRUE(pn);
  EXPECT_TRUE(app::restore_integrator("leapfrog-kdk", i, pn));
  EXPECT_EQ(i, Integrator::Leapfrog);
  EXPECT_FALSE(pn);
  EXPECT_FALSE(app::restore_integrator("rk4", i, pn));
}

TEST_F(StateFile, OtherFormatsAreRefused) {
  const Scene s = make_scene("plummer", {64, 3, {}});
  try {
    app::save_state_file(at("s.tipsy"), s, params(), 0, 0, {});
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("s.tipsy"), std::string::npos) << e.what();
  }
}
