// The window under Xvfb + Mesa with a CPU kernel: runs frames, writes a screenshot through the
// app, quits cleanly; the screenshot shows bodies right of the panel and the panel's text.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <utility>

#include <stb_image.h>

#include "tests/test_util.hpp"

namespace {

const std::string kNbody = std::string(NBODY_BINARY_DIR) + "/bin/nbody";

bool on_path(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

int exit_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// pixels in [x0, x1) whose brightest channel exceeds `level`
long bright_pixels(const unsigned char* img, int w, int h, int x0, int x1, int level) {
  long n = 0;
  for (int y = 0; y < h; ++y)
    for (int x = x0; x < x1 && x < w; ++x) {
      const unsigned char* p = img + (static_cast<long>(y) * w + x) * 3;
      if (p[0] > level || p[1] > level || p[2] > level) ++n;
    }
  return n;
}

}  // namespace

TEST(GuiSmoke, WindowRunsFramesAndShowsBodiesAndPanel) {
  if (!on_path("xvfb-run"))
    GTEST_SKIP() << "xvfb-run not found: install xvfb to run the GUI smoke test";
  auto dir = std::filesystem::temp_directory_path() / "nbody_gui_smoke";
  std::filesystem::create_directories(dir);
  auto shot = (dir / "smoke.png").string();
  std::filesystem::remove(shot);
  std::string cmd =
      "xvfb-run -a -s '-screen 0 1280x800x24' " + kNbody +
      " --width 1280 --height 800 --kernel cpu-openmp --scene galaxy-collision -n 2048"
      " --gl-debug --smoke-test 12 --screenshot " +
      shot + " > " + (dir / "log.txt").string() + " 2>&1";
  int rc = exit_code(std::system(cmd.c_str()));
  // exit 4: the GL driver reported an error through the debug context (printed in the log)
  ASSERT_EQ(rc, 0) << "the app failed; see " << (dir / "log.txt").string();
  ASSERT_TRUE(std::filesystem::exists(shot));
  {
    std::ifstream log(dir / "log.txt");
    const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("first frame"), std::string::npos) << text;
    EXPECT_EQ(text.find("GL: error"), std::string::npos) << text;
  }

  int w = 0, h = 0, c = 0;
  unsigned char* img = stbi_load(shot.c_str(), &w, &h, &c, 3);
  ASSERT_NE(img, nullptr) << stbi_failure_reason();
  EXPECT_EQ(w, 1280);
  EXPECT_EQ(h, 800);
  // the panel is the left 390 pixels: its text is bright
  long panel = bright_pixels(img, w, h, 0, 390, 150);
  // the bodies are right of it on a near-black background
  long bodies = bright_pixels(img, w, h, 400, w, 40);
  stbi_image_free(img);
  EXPECT_GT(panel, 2000) << "panel text not visible";
  EXPECT_GT(bodies, 300) << "bodies not visible";
}

TEST(GuiSmoke, NoDisplayPointsToHeadlessMode) {
  auto log = (std::filesystem::temp_directory_path() / "nbody_nodisplay.txt").string();
  std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY " + kNbody +
                    " --kernel cpu-openmp --scene two-body > " + log + " 2>&1";
  int rc = exit_code(std::system(cmd.c_str()));
  EXPECT_NE(rc, 0);
  EXPECT_LT(rc, 128) << "crashed";
  FILE* f = std::fopen(log.c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  EXPECT_NE(text.find("nbody render"), std::string::npos) << text;
  EXPECT_FALSE(nbody::test::ubsan_report(text)) << text;
}

// issue 11: `nbody render` without --frames covers a collision's run length (in frames of the
// given --steps-per-frame), says so, and keeps --frames when given
TEST(GuiSmoke, RenderRunsACollisionThroughItsTails) {
  auto dir = std::filesystem::temp_directory_path() / "nbody_render_plan";
  std::filesystem::create_directories(dir);
  auto run = [&](const std::string& extra) {
    const std::string log = (dir / "log.txt").string();
    // a large dt keeps the run short: 10.5 T of the default toomre scene in steps of 0.5
    const std::string cmd = kNbody +
                            " render --kernel cpu-openmp --scene toomre -n 200 --dt 0.5 --width 64"
                            " --height 64 --png-every 0 --no-energy --out " +
                            (dir / "out").string() + " " + extra + " > " + log + " 2>&1";
    const int rc = exit_code(std::system(cmd.c_str()));
    FILE* f = std::fopen(log.c_str(), "r");
    std::string text(1 << 16, '\0');
    text.resize(f ? std::fread(text.data(), 1, text.size(), f) : 0);
    if (f) std::fclose(f);
    EXPECT_FALSE(nbody::test::ubsan_report(text)) << text;
    return std::make_pair(rc, text);
  };
  auto [rc, out] = run("");
  if (rc != 0 && out.find("EGL") != std::string::npos && out.find("rendered") == std::string::npos)
    GTEST_SKIP() << "no EGL context here: " << out;
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("running 11 T (22 steps, 22 frames of 1): first pericentre at ~4.7 T"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("rendered 22 frames"), std::string::npos) << out;
  std::tie(rc, out) = run("--steps-per-frame 5");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("(25 steps, 5 frames of 5)"), std::string::npos) << out;
  EXPECT_NE(out.find("rendered 5 frames"), std::string::npos) << out;
  std::tie(rc, out) = run("--frames 3");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out.find("running "), std::string::npos) << out;
  EXPECT_NE(out.find("rendered 3 frames"), std::string::npos) << out;
}
