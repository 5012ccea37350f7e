// Hands on through real input events (issue 19): the window under Xvfb, driven by xdotool's
// XTEST events as a person's mouse and keyboard would: the Add tool (A), a press-drag-release
// that places an asteroid with the drag as its velocity, back to Select (A), a click on it that
// opens its card, Delete, Ctrl+Z, then Esc and Enter to quit. --stats tells what happened.
#include <gtest/gtest.h>

#include <algorithm>
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

// The sanitized build draws several times slower: the pauses between events and the wait for
// the quit grow with it, so each event reaches a window that has drawn the one before.
constexpr double kPause = nbody::test::kSanitized ? 3.0 : 1.0;

std::string pause(double seconds) {
  return "sleep " + std::to_string(seconds * kPause) + "\n";
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(GuiEdit, AddInspectDeleteUndoThroughRealInputEvents) {
  if (!on_path("xvfb-run") || !on_path("xdotool"))
    GTEST_SKIP() << "xvfb-run or xdotool not found: install xvfb and xdotool (scripts/dev.sh does)";
  const auto dir = std::filesystem::temp_directory_path() / "nbody_gui_edit";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto stats = dir / "stats.json", log = dir / "log.txt", script = dir / "drive.sh";
  // sleeps are generous: the software rasterizer draws a few frames a second on a busy machine
  std::ofstream(script)
      << "#!/bin/sh\n"
      << "export XDG_CONFIG_HOME='" << dir.string() << "'\n"
      << "'" << kNbody
      << "' --width 1280 --height 800 --scene sun-earth-moon --paused"
         " --stats '"
      << stats.string() << "' > '" << log.string() << "' 2>&1 &\n"
      << "pid=$!\n"
         "xdotool search --sync --onlyvisible --name nbody > /dev/null\n"
      << pause(4) << "xdotool mousemove 1000 300 click 1\n"  // focus; empty space
      << pause(1) << "xdotool key a\n"                       // the Add tool
      << pause(1) << "xdotool mousemove 1000 300 mousedown 1\n"
      << pause(0.5) << "xdotool mousemove 1030 305\n"
      << pause(0.3) << "xdotool mousemove 1060 310\n"
      << pause(1) << "xdotool mouseup 1\n"
      << pause(1.5) << "xdotool key a\n"                     // back to Select
      << pause(1) << "xdotool mousemove 1000 300 click 1\n"  // the card
      << pause(2.5) << "xdotool key Delete\n"
      << pause(1.5) << "xdotool key ctrl+z\n"
      << pause(1.5) << "xdotool key Escape\n"
      << pause(1)
      << "xdotool key Return\n"
         "for i in $(seq "
      << static_cast<int>(60 * kPause)
      << "); do kill -0 $pid 2>/dev/null || break; sleep 0.5;"
         // a slow frame may miss the first Enter: press it again, as a person would
         " [ $((i % 6)) -eq 0 ] && xdotool key Return; done\n"
         "kill $pid 2>/dev/null && echo 'nbody did not quit' >> '"
      << log.string() << "'\n"
      << "wait $pid\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  const std::string cmd = "timeout " + std::to_string(static_cast<int>(180 * kPause)) +
                          " xvfb-run -a -s '-screen 0 1280x800x24' '" + script.string() +
                          "' > /dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  const std::string text = slurp(log);
  ASSERT_EQ(rc, 0) << text;
  EXPECT_EQ(text.find("did not quit"), std::string::npos) << text;
  ASSERT_TRUE(std::filesystem::exists(stats)) << text;
  const nlohmann::json j = nlohmann::json::parse(slurp(stats));
  // the asteroid was added, inspected, deleted, and the delete undone: 4 bodies, the add stands,
  // the delete can be redone
  EXPECT_EQ(j["n"], 4) << j.dump(2);
  EXPECT_EQ(j["undo"], nlohmann::json::array({"add asteroid 1"})) << j.dump(2);
  EXPECT_EQ(j["redo"], nlohmann::json::array({"delete asteroid 1"})) << j.dump(2);
  const auto inspected = j["inspected"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(inspected.begin(), inspected.end(), "asteroid 1"), inspected.end())
      << j.dump(2);
  EXPECT_EQ(j["error"], "") << j.dump(2);
}
