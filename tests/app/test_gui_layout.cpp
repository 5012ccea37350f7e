// Nothing cut off at 1,024×768 (issue 20, item 3): the window under Xvfb with --panel-check, which
// opens every section of the panel and notes each text or item that runs past the panel's right
// edge, and each combo choice cut by its box; --stats lists them as "panel_overflow". At 1,024
// pixels the panel is at its narrowest (290 pixels at scale 1; a narrower window keeps it), so
// this is the smallest layout a person can see.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/test_util.hpp"

namespace {

const std::string kNbody = std::string(NBODY_BINARY_DIR) + "/bin/nbody";

bool on_path(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// the --stats of a checked window run for a few seconds with `args` at width×height
nlohmann::json checked_run(const std::string& name, const std::string& args, int width = 1024,
                           int height = 768) {
  const auto dir = std::filesystem::temp_directory_path() / "nbody_gui_layout";
  std::filesystem::create_directories(dir);
  const auto stats = dir / (name + ".json"), log = dir / (name + ".log");
  std::filesystem::remove(stats);
  const double seconds = nbody::test::kSanitized ? 12 : 4;
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const std::string cmd =
      "cd '" + dir.string() + "' && XDG_CONFIG_HOME='" + dir.string() + "' timeout " +
      std::to_string(static_cast<int>(120 * nbody::test::kTimeScale)) +
      " xvfb-run -a -s '-screen 0 " + size + "x24' '" + kNbody + "' --width " +
      std::to_string(width) + " --height " + std::to_string(height) + " " + args +
      " --panel-check --exit-after " + std::to_string(seconds) + " --screenshot '" + name +
      ".png' --stats '" + stats.string() + "' > '" + log.string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  const std::string text = slurp(log);
  EXPECT_EQ(rc, 0) << cmd << "\n" << text;
  EXPECT_FALSE(nbody::test::ubsan_report(text)) << text;
  if (!std::filesystem::exists(stats)) {
    ADD_FAILURE() << "no --stats written\n" << text;
    return {};
  }
  nlohmann::json j = nlohmann::json::parse(slurp(stats));
  EXPECT_EQ(j["window"], nlohmann::json::array({width, height})) << j.dump(2);
  EXPECT_TRUE(j["panel_overflow"].is_array()) << j.dump(2);
  return j;
}

class GuiLayout : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!on_path("xvfb-run"))
      GTEST_SKIP() << "xvfb-run not found: install xvfb (scripts/dev.sh does)";
  }
};

}  // namespace

TEST_F(GuiLayout, DefaultSceneHasNoCutLabelAt1024x768) {
  const nlohmann::json j = checked_run("default", "");
  EXPECT_EQ(j["panel_overflow"], nlohmann::json::array()) << j.dump(2);
}

TEST_F(GuiLayout, SolarSystemHasNoCutLabelAt1024x768) {
  const nlohmann::json j = checked_run("solar", "--scene solar-system");
  EXPECT_EQ(j["panel_overflow"], nlohmann::json::array()) << j.dump(2);
}

TEST_F(GuiLayout, GalaxiesHaveNoCutLabelAt1024x768) {
  for (const char* scene : {"disk-galaxy", "toomre"}) {
    const nlohmann::json j =
        checked_run(scene, std::string("--scene ") + scene + " -n 4096 --kernel cpu-barnes-hut");
    EXPECT_EQ(j["panel_overflow"], nlohmann::json::array()) << scene << "\n" << j.dump(2);
  }
}

TEST_F(GuiLayout, SmallScenesAndProjectorModeHaveNoCutLabel) {
  // a planetary scene, and the projector's larger text in a window of the same size
  const nlohmann::json a = checked_run("sem", "--scene sun-earth-moon");
  EXPECT_EQ(a["panel_overflow"], nlohmann::json::array()) << a.dump(2);
  const nlohmann::json b = checked_run("projector", "--scene two-body --projector");
  EXPECT_EQ(b["panel_overflow"], nlohmann::json::array()) << b.dump(2);
}

// a window narrower than 1,024 pixels keeps the panel's 290 pixels: the same layout fits
TEST_F(GuiLayout, NarrowerWindowHasNoCutLabel) {
  const nlohmann::json j = checked_run("narrow", "--scene sun-earth-moon", 800, 600);
  EXPECT_EQ(j["panel_overflow"], nlohmann::json::array()) << j.dump(2);
}

// the check can fail: a file with a long name in the Scene box's combo is cut by its box (the
// status line at the top wraps it, and the line under the combo shows it whole)
TEST_F(GuiLayout, TheCheckFindsALongFileName) {
  const auto dir = std::filesystem::temp_directory_path() / "nbody_gui_layout";
  std::filesystem::create_directories(dir);
  const auto file = dir / "a_class_file_whose_name_is_much_wider_than_the_panel_of_nbody.csv";
  std::ofstream(file) << "x,y,z,vx,vy,vz,m\n1,0,0,0,0.5,0,1\n-1,0,0,0,-0.5,0,1\n";
  const nlohmann::json j = checked_run("long_name", "--load '" + file.string() + "'");
  const std::string notes = j["panel_overflow"].dump();
  EXPECT_NE(notes.find("Scene: preset = file: a_class_file_whose_name"), std::string::npos)
      << j.dump(2);
}
