// Recording the window (issue 20, item 7), under Xvfb: `--record DIR` writes a PNG sequence
// that plays in real time at --record-fps, of the view right of the panel, with the date,
// scale bar and caption burned in (none with --burn-in none), and the bodies where the window
// shows them (starting a recording no longer re-centres the view).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <stb_image.h>
#include <nlohmann/json.hpp>

#include "tests/test_util.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kNbody = std::string(NBODY_BINARY_DIR) + "/bin/nbody";
// the sanitized build draws several times slower: longer runs, looser timing
constexpr double kSlow = nbody::test::kSanitized ? 3.0 : 1.0;

bool on_path(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  int at(int x, int y, int c) const { return rgb[(static_cast<std::size_t>(y) * w + x) * 3 + c]; }
};

Image load(const fs::path& p) {
  Image img;
  int c = 0;
  unsigned char* data = stbi_load(p.string().c_str(), &img.w, &img.h, &c, 3);
  if (!data) return img;
  img.rgb.assign(data, data + static_cast<std::size_t>(img.w) * img.h * 3);
  stbi_image_free(data);
  return img;
}

// pixels of [x0, x1) x [y0, y1) whose brightest channel exceeds `level`
long bright(const Image& img, int x0, int y0, int x1, int y1, int level) {
  long n = 0;
  for (int y = std::max(y0, 0); y < std::min(y1, img.h); ++y)
    for (int x = std::max(x0, 0); x < std::min(x1, img.w); ++x)
      if (std::max({img.at(x, y, 0), img.at(x, y, 1), img.at(x, y, 2)}) > level) ++n;
  return n;
}

// pixels of `frame` that differ from the window's screenshot at (dx, 0) by more than 30 in a
// channel
long differing(const Image& frame, const Image& shot, int dx) {
  long n = 0;
  for (int y = 0; y < frame.h && y < shot.h; ++y)
    for (int x = 0; x < frame.w && x + dx < shot.w; ++x)
      for (int c = 0; c < 3; ++c)
        if (std::abs(frame.at(x, y, c) - shot.at(x + dx, y, c)) > 30) {
          ++n;
          break;
        }
  return n;
}

// of the lit pixels of `frame` in rows [y0, y1) (the bodies), how many and how many of them
// are lit in the screenshot at (dx, 0) too
std::pair<long, long> lit_in_both(const Image& frame, const Image& shot, int dx, int y0, int y1) {
  long lit = 0, both = 0;
  for (int y = std::max(y0, 0); y < std::min(y1, frame.h); ++y)
    for (int x = 0; x < frame.w && x + dx < shot.w; ++x) {
      if (std::max({frame.at(x, y, 0), frame.at(x, y, 1), frame.at(x, y, 2)}) <= 40) continue;
      ++lit;
      both += std::max({shot.at(x + dx, y, 0), shot.at(x + dx, y, 1), shot.at(x + dx, y, 2)}) > 20;
    }
  return {lit, both};
}

// the window under Xvfb, paused (every frame the same picture), for `seconds`; `env` before it
int run(const fs::path& dir, const std::string& name, const std::string& args, double seconds,
        const std::string& env = "") {
  const std::string cmd =
      env + " XDG_CONFIG_HOME='" + dir.string() + "' timeout " +
      std::to_string(static_cast<int>(120 * kSlow)) + " xvfb-run -a -s '-screen 0 1280x800x24' '" +
      kNbody + "' --width 1280 --height 800 --scene sun-earth-moon --paused --exit-after " +
      std::to_string(seconds * kSlow) + " --screenshot '" + (dir / (name + ".png")).string() +
      "' --stats '" + (dir / (name + ".json")).string() + "' " + args + " > '" +
      (dir / (name + ".log")).string() + "' 2>&1";
  return std::system(cmd.c_str());
}

}  // namespace

TEST(GuiRecord, PngSequenceInRealTimeWithBurnInAndTheViewAsShown) {
  if (!on_path("xvfb-run"))
    GTEST_SKIP() << "xvfb-run not found: install xvfb to run the GUI recording test";
  const fs::path dir = fs::temp_directory_path() / "nbody_gui_record";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path burned = dir / "burned", plain = dir / "plain";
  // with the date, scale bar and a caption; without burn-in; the window without a recording
  ASSERT_EQ(run(dir, "a",
                "--record '" + burned.string() + "' --record-fps 10 --caption 'RECORD TEST'", 6),
            0)
      << slurp(dir / "a.log");
  ASSERT_EQ(run(dir, "b", "--record '" + plain.string() + "' --record-fps 10 --burn-in none", 3), 0)
      << slurp(dir / "b.log");
  ASSERT_EQ(run(dir, "c", "", 3), 0) << slurp(dir / "c.log");
  const std::string log = slurp(dir / "a.log");
  EXPECT_FALSE(nbody::test::ubsan_report(log)) << log;
  EXPECT_NE(log.find("PNG recording stopped"), std::string::npos) << log;

  // real time: as many frames as the recording's seconds at 10 frames/s (the clock repeats
  // frames when the software-rendered window draws fewer)
  const nlohmann::json stats = nlohmann::json::parse(slurp(dir / "a.json"));
  const long long frames = stats["record_frames"].get<long long>();
  const double seconds = stats["record_seconds"].get<double>();
  EXPECT_GT(seconds, 1.0) << stats.dump(2);
  EXPECT_LE(seconds, 6.0 * kSlow) << stats.dump(2);
  const double expected = seconds * 10 + 1;
  EXPECT_NEAR(static_cast<double>(frames), expected, std::max(3.0, expected * 0.15 * kSlow))
      << stats.dump(2) << log;
  long files = 0;
  for (const auto& e : fs::directory_iterator(burned))
    files += e.path().extension() == ".png";
  EXPECT_EQ(files, frames);

  char last_name[32];
  std::snprintf(last_name, sizeof last_name, "frame_%06lld.png", frames - 1);
  const Image a = load(burned / last_name), b = load(plain / "frame_000000.png");
  // the window without a recording
  const Image shot = load(dir / "c.png");
  ASSERT_FALSE(a.rgb.empty()) << last_name;
  ASSERT_FALSE(b.rgb.empty());
  ASSERT_EQ(shot.w, 1280);
  // the view right of the panel (358.4 pixels at this size: from 359 on), even sizes
  EXPECT_EQ(a.w, 920);
  EXPECT_EQ(a.h, 800);
  EXPECT_EQ(b.w, a.w);
  EXPECT_EQ(b.h, a.h);
  const int dx = 359;  // the frame's left edge in the window

  // burn-in: the date top right, the scale bar bottom right, the caption bottom left; none of
  // them without burn-in
  const int w = a.w, h = a.h;
  EXPECT_GT(bright(a, w - 260, 0, w, 50, 150), 40) << "no date top right";
  EXPECT_LT(bright(b, w - 260, 0, w, 50, 150), 5) << "a date without burn-in";
  EXPECT_GT(bright(a, w - 220, h - 60, w, h, 150), 40) << "no scale bar bottom right";
  EXPECT_LT(bright(b, w - 220, h - 60, w, h, 150), 5) << "a scale bar without burn-in";
  EXPECT_GT(bright(a, 0, h - 60, 300, h, 150), 60) << "no caption bottom left";
  EXPECT_LT(bright(b, 0, h - 60, 300, h, 150), 5) << "a caption without burn-in";

  // the recorded frame is the window's picture right of the panel (every frame of a paused run
  // is the same), the date, scale bar and caption where the window draws them
  const Image window_a = load(dir / "a.png");
  ASSERT_EQ(window_a.w, 1280);
  EXPECT_LT(differing(a, window_a, dx), 20);
  // without burn-in the bodies sit where the window has them too (the window adds their names:
  // every lit pixel of the frame is lit in the window, not the other way round)
  const auto [lit, both] = lit_in_both(b, shot, dx, 70, h - 70);
  ASSERT_GT(lit, 50) << "no bodies in the recorded frame";
  EXPECT_GT(static_cast<double>(both), 0.95 * static_cast<double>(lit))
      << "the recorded view is shifted against the window's";
}

// an MP4 goes to ffmpeg (a stand-in here that counts the bytes it is sent) in frames of the
// recorded rectangle, as many as the recording's seconds at --record-fps
TEST(GuiRecord, Mp4FramesHaveTheRectangleSizeAndPlayInRealTime) {
  if (!on_path("xvfb-run"))
    GTEST_SKIP() << "xvfb-run not found: install xvfb to run the GUI recording test";
  const fs::path dir = fs::temp_directory_path() / "nbody_gui_record_mp4";
  fs::remove_all(dir);
  fs::create_directories(dir / "bin");
  std::ofstream(dir / "bin" / "ffmpeg") << "#!/bin/sh\nfor last; do :; done\n"
                                           "wc -c > \"${last#file:}\"\n";
  fs::permissions(dir / "bin" / "ffmpeg", fs::perms::owner_all);
  const fs::path movie = dir / "run.mp4";
  ASSERT_EQ(run(dir, "m", "--record '" + movie.string() + "' --record-fps 24", 4,
                "PATH='" + (dir / "bin").string() + "':\"$PATH\""),
            0)
      << slurp(dir / "m.log");
  ASSERT_TRUE(fs::exists(movie)) << slurp(dir / "m.log");
  std::ifstream in(movie);
  long long bytes = 0;
  in >> bytes;
  const long long frame = 920LL * 800 * 4;
  EXPECT_EQ(bytes % frame, 0) << bytes;
  const nlohmann::json stats = nlohmann::json::parse(slurp(dir / "m.json"));
  EXPECT_EQ(bytes / frame, stats["record_frames"].get<long long>()) << stats.dump(2);
  const double expected = stats["record_seconds"].get<double>() * 24 + 1;
  EXPECT_NEAR(static_cast<double>(bytes / frame), expected, std::max(3.0, expected * 0.15 * kSlow))
      << stats.dump(2);
  EXPECT_NE(slurp(dir / "m.log").find("movie written"), std::string::npos) << slurp(dir / "m.log");
}

// `nbody render --burn-in`: the same date, scale bar and caption over the frames it writes
// (through EGL; none by default)
TEST(GuiRecord, RenderBurnsInTheDateScaleBarAndCaption) {
  const fs::path dir = fs::temp_directory_path() / "nbody_render_burn_in";
  fs::remove_all(dir);
  auto render = [&](const std::string& name, const std::string& extra) {
    const fs::path log = dir / (name + ".log");
    fs::create_directories(dir);
    const std::string cmd = "'" + kNbody +
                            "' render --scene sun-earth-moon --frames 2 --png-every 0 --width 640"
                            " --height 480 --no-energy --out '" +
                            (dir / name).string() + "' " + extra + " > '" + log.string() + "' 2>&1";
    const int rc = std::system(cmd.c_str());
    return std::make_pair(rc, slurp(log));
  };
  auto [rc, out] = render("burned", "--burn-in date,scale,caption --caption 'RENDER TEST'");
  if (rc != 0 && out.find("EGL") != std::string::npos && out.find("rendered") == std::string::npos)
    GTEST_SKIP() << "no EGL context here: " << out;
  ASSERT_EQ(rc, 0) << out;
  std::tie(rc, out) = render("plain", "");
  ASSERT_EQ(rc, 0) << out;
  const Image a = load(dir / "burned" / "frame_00001.png"),
              b = load(dir / "plain" / "frame_00001.png");
  ASSERT_EQ(a.w, 640);
  ASSERT_EQ(b.w, 640);
  const int w = a.w, h = a.h;
  EXPECT_GT(bright(a, w - 260, 0, w, 50, 150), 40) << "no date top right";
  EXPECT_LT(bright(b, w - 260, 0, w, 50, 150), 5) << "a date without --burn-in";
  EXPECT_GT(bright(a, w - 220, h - 60, w, h, 150), 40) << "no scale bar bottom right";
  EXPECT_LT(bright(b, w - 220, h - 60, w, h, 150), 5) << "a scale bar without --burn-in";
  EXPECT_GT(bright(a, 0, h - 60, 300, h, 150), 60) << "no caption bottom left";
  EXPECT_LT(bright(b, 0, h - 60, 300, h, 150), 5) << "a caption without --burn-in";
  // a part it does not know is an error naming the option
  std::tie(rc, out) = render("bad", "--burn-in date,clock");
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("--burn-in date,clock: 'clock'"), std::string::npos) << out;
}

// hiding the panel during a recording (H, a real key event through xdotool) neither moves the
// view in the file nor changes the frames' size: one recording is one picture size
TEST(GuiRecord, HidingThePanelWhileRecordingKeepsTheViewAndSize) {
  if (!on_path("xvfb-run") || !on_path("xdotool"))
    GTEST_SKIP() << "xvfb-run or xdotool not found: install xvfb and xdotool (scripts/dev.sh does)";
  const fs::path dir = fs::temp_directory_path() / "nbody_gui_record_hide";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path frames = dir / "frames", script = dir / "drive.sh", log = dir / "log.txt";
  std::ofstream(script) << "#!/bin/sh\n"
                        << "export XDG_CONFIG_HOME='" << dir.string() << "'\n'" << kNbody
                        << "' --width 1280 --height 800 --scene sun-earth-moon --paused"
                           " --burn-in none --record-fps 5 --record '"
                        << frames.string() << "' --exit-after " << 10 * kSlow << " > '"
                        << log.string()
                        << "' 2>&1 &\n"
                           "pid=$!\n"
                           "xdotool search --sync --onlyvisible --name nbody > /dev/null\n"
                        << "sleep " << 3 * kSlow << "\n"
                        << "xdotool mousemove 900 200 click 1\n"
                        << "sleep " << 0.5 * kSlow << "\n"
                        << "xdotool key h\n"
                           "wait $pid\n";
  fs::permissions(script, fs::perms::owner_all);
  const std::string cmd = "timeout " + std::to_string(static_cast<int>(120 * kSlow)) +
                          " xvfb-run -a -s '-screen 0 1280x800x24' '" + script.string() +
                          "' > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(log);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(frames))
    files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 10u) << slurp(log);
  const Image first = load(files.front()), last = load(files.back());
  // the panel was hidden: the window shows the full width, the file keeps its first size
  EXPECT_EQ(first.w, 920);
  EXPECT_EQ(last.w, 920);
  EXPECT_EQ(last.h, 800);
  // and the bodies stay where they were (a paused run: the same picture)
  EXPECT_LT(differing(last, first, 0), 10) << files.back();
}
