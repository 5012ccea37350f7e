// The monkey (issue 20, item 1): the window under Xvfb driven by random xdotool events from a
// fixed seed: clicks, double clicks, drags of every length (sliders), Ctrl+clicks (ImGui's typed
// value), right clicks, the wheel, typing and the app's keys, mostly on the panel (the left 30 %
// of the window), some on the view. A normal quit (Esc then Enter can happen by chance) starts
// the window again and the monkey goes on; only an abnormal end fails: a signal, an abort, a
// non-zero status, a sanitizer report, an assertion, or a window that no longer quits at the end.
//   NBODY_MONKEY_SEED      the seed (printed; default 20)
//   NBODY_MONKEY_SECONDS   how long the events go on (default 45 s, 75 s in sanitized builds)
// A failure prints the seed and the last actions: the same seed replays the same events (the
// window's timing differs, so a crash may need a few runs to come back).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/test_util.hpp"

namespace {

const std::string kNbody = std::string(NBODY_BINARY_DIR) + "/bin/nbody";
constexpr int kWidth = 1024, kHeight = 768;
// a sanitized build draws several times slower: events come further apart
constexpr double kPace = nbody::test::kSanitized ? 1.5 : 1.0;

bool on_path(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// the last `n` lines of `text`
std::string tail(const std::string& text, int n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  std::string out;
  for (std::size_t i = lines.size() > static_cast<std::size_t>(n) ? lines.size() - n : 0;
       i < lines.size(); ++i)
    out += lines[i] + "\n";
  return out;
}

unsigned env_or(const char* name, unsigned fallback) {
  const char* v = std::getenv(name);
  return v && *v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : fallback;
}

// random xdotool actions, one shell line each, with the pause after them: `seconds` of them
class Monkey {
 public:
  explicit Monkey(unsigned seed) : rng_(seed) {}

  std::vector<std::string> actions(double seconds) {
    std::vector<std::string> out;
    for (double t = 0; t < seconds;) {
      std::string a = action();
      const double pause = uniform(0.05, 0.45) * kPace;
      t += pause + pending_;
      pending_ = 0;
      char buf[32];
      std::snprintf(buf, sizeof buf, "; sleep %.2f", pause);
      out.push_back(a + buf);
    }
    return out;
  }

 private:
  std::mt19937 rng_;
  double pending_ = 0;  // sleeps inside the action

  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng_); }
  int pick(int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng_); }
  bool chance(double p) { return uniform(0, 1) < p; }

  // a point on the panel (most) or on the view
  std::string point(bool panel) {
    const int x = panel ? pick(4, kWidth * 30 / 100) : pick(kWidth * 30 / 100, kWidth - 4);
    return std::to_string(x) + " " + std::to_string(pick(4, kHeight - 4));
  }
  std::string sleep(double s) {
    pending_ += s;
    char buf[32];
    std::snprintf(buf, sizeof buf, "; sleep %.2f; ", s);
    return buf;
  }
  std::string text() {
    static const char* keys[] = {"0", "1", "2", "3", "5", "7",         "9",   "minus",  "period",
                                 "e", "a", "x", "z", "q", "BackSpace", "Tab", "Return", "space"};
    std::string s = "xdotool key --delay 40";
    for (int i = pick(1, 8); i > 0; --i)
      s += std::string(" ") + keys[pick(0, static_cast<int>(std::size(keys)) - 1)];
    return s;
  }
  std::string app_key() {
    static const char* keys[] = {
        "space", "s",     "r",   "f",      "h",      "l",      "a",
        "v",     "m",     "c",   "Delete", "ctrl+z", "ctrl+y", "ctrl+shift+z",
        "Left",  "Right", "Up",  "Down",   "Tab",    "F12",    "Home",
        "End",   "Prior", "Next"};
    return std::string("xdotool key ") + keys[pick(0, static_cast<int>(std::size(keys)) - 1)];
  }

  std::string action() {
    const bool panel = chance(0.75);
    const double r = uniform(0, 100);
    if (r < 24) return "xdotool mousemove " + point(panel) + " click 1";
    if (r < 29) return "xdotool mousemove " + point(panel) + " click --repeat 2 --delay 60 1";
    if (r < 43) {
      // a drag: a slider's knob, a window's edge, the view's camera; short or long
      const std::string from = point(panel);
      const int steps = pick(1, 4);
      std::string s = "xdotool mousemove " + from + " mousedown 1" + sleep(0.08);
      const int x0 = std::stoi(from), y0 = std::stoi(from.substr(from.find(' ') + 1));
      const int dx = pick(-300, 300), dy = chance(0.7) ? pick(-6, 6) : pick(-200, 200);
      for (int i = 1; i <= steps; ++i)
        s += "xdotool mousemove " + std::to_string(std::clamp(x0 + dx * i / steps, 0, kWidth - 1)) +
             " " + std::to_string(std::clamp(y0 + dy * i / steps, 0, kHeight - 1)) + sleep(0.06);
      return s + "xdotool mouseup 1";
    }
    if (r < 51) {
      // Ctrl+click: ImGui's slider takes a typed value; then a number (or nonsense) and Enter
      std::string s = "xdotool keydown ctrl mousemove " + point(true) + " click 1 keyup ctrl" +
                      sleep(0.15) + "xdotool key ctrl+a" + sleep(0.05);
      static const char* values[] = {"0",     "1",   "-1",  "1e9", "-1e-9", "0.5",
                                     "99999", "nan", "inf", "abc", "1e308", "-0"};
      s += std::string("xdotool type --delay 30 '") + values[pick(0, 11)] + "'" + sleep(0.05);
      return s + "xdotool key " + (chance(0.8) ? "Return" : "Tab");
    }
    if (r < 55) return "xdotool mousemove " + point(panel) + " click 3";
    if (r < 57) return "xdotool mousemove " + point(panel) + " click 2";
    if (r < 65) {
      const std::string dir = chance(0.5) ? "4" : "5";
      return "xdotool mousemove " + point(panel) + " click --repeat " + std::to_string(pick(1, 6)) +
             " --delay 20 " + dir;
    }
    if (r < 75) return text();
    if (r < 92) return app_key();
    if (r < 95) return "xdotool mousemove " + point(false) + " click 1";
    if (r < 97) {
      // shift+drag (box select) or a right drag (rotate) on the view
      const bool shift = chance(0.5);
      const std::string from = point(false), to = point(false);
      return std::string(shift ? "xdotool keydown shift " : "xdotool ") + "mousemove " + from +
             (shift ? " mousedown 1" : " mousedown 3") + sleep(0.1) + "xdotool mousemove " + to +
             sleep(0.1) + (shift ? "xdotool mouseup 1 keyup shift" : "xdotool mouseup 3");
    }
    // Esc: cancels an edit, closes a popup, or asks to quit (an Enter after it quits: a normal
    // end, and the window starts again); half the time a second Esc answers "keep running"
    if (chance(0.5)) return "xdotool key Escape" + sleep(0.4 * kPace) + "xdotool key Escape";
    return "xdotool key Escape";
  }
};

}  // namespace

TEST(GuiMonkey, RandomEventsOnEveryWidgetNeverCrash) {
  if (!on_path("xvfb-run") || !on_path("xdotool"))
    GTEST_SKIP() << "xvfb-run or xdotool not found: install xvfb and xdotool (scripts/dev.sh does)";
  const unsigned seed = env_or("NBODY_MONKEY_SEED", 20);
  const unsigned seconds = env_or("NBODY_MONKEY_SECONDS", nbody::test::kSanitized ? 75 : 45);
  std::printf("monkey: seed %u (NBODY_MONKEY_SEED), %u s of events (NBODY_MONKEY_SECONDS)\n", seed,
              seconds);
  std::fflush(stdout);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("nbody_gui_monkey_" + std::to_string(seed) + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "home");
  const std::vector<std::string> actions = Monkey(seed).actions(seconds);
  {
    std::ofstream a(dir / "actions.txt");
    for (const std::string& l : actions)
      a << l << "\n";
  }
  // each start: another scene, every section open (the monkey closes some)
  const std::string scenes =
      "'--scene sun-earth-moon' '--scene solar-system' '--scene plummer -n 1024' "
      "'--scene galaxy-collision -n 2048' '--scene two-body' '--scene toomre -n 2048'";
  const int wait_window = static_cast<int>(120 * nbody::test::kTimeScale);
  const std::string d = dir.string();
  std::ofstream(dir / "drive.sh")
      << "#!/bin/bash\n"
      << "cd '" << d << "'\n"
      << "export HOME='" << d << "/home' XDG_CONFIG_HOME='" << d << "/home/.config'\n"
      << "scenes=(" << scenes << ")\n"
      << "run=0 pid=0\n"
      << "start() {\n"
         "  run=$((run + 1))\n"
         "  '"
      << kNbody << "' --width " << kWidth << " --height " << kHeight
      << " ${scenes[$(((run - 1) % ${#scenes[@]}))]}"
         " --panel-open scene,tools,timeline,files,display,map,health,classroom,help"
         " --stats stats_$run.json > nbody_$run.log 2>&1 &\n"
         "  pid=$!\n"
         "  echo \"start $run: ${scenes[$(((run - 1) % ${#scenes[@]}))]}\" >> events.log\n"
         "  timeout "
      << wait_window
      << " xdotool search --sync --onlyvisible --name nbody > /dev/null\n"
         "  sleep 2\n"
         "}\n"
         // a run that ended: a normal quit starts the next, anything else ends the monkey
         "ended() {\n"
         "  wait $pid; local rc=$?\n"
         "  echo \"run $run ended with status $rc $1\" >> events.log\n"
         "  [ $rc -eq 0 ] || { echo ABNORMAL >> events.log; exit 0; }\n"
         "}\n"
         "start\n"
         "n=0\n"
         "while IFS= read -r -u 3 line; do\n"
         "  n=$((n + 1))\n"
         "  if ! kill -0 $pid 2>/dev/null; then ended \"before action $n\"; start; fi\n"
         "  echo \"$n: $line\" >> actions.log\n"
         "  eval \"$line\" > /dev/null 2>&1\n"
         "done 3< actions.txt\n"
         "xdotool mouseup 1 mouseup 3 keyup ctrl keyup shift > /dev/null 2>&1\n"
         // the end: Esc asks, Enter quits (an edit in progress takes the first Esc)
         "for i in $(seq 30); do\n"
         "  kill -0 $pid 2>/dev/null || break\n"
         "  xdotool key Escape; sleep "
      << 1.5 * kPace << "; xdotool key Return; sleep " << 1.5 * kPace
      << "\n"
         "done\n"
         "if kill -0 $pid 2>/dev/null; then\n"
         "  echo 'HUNG: the window did not quit at the end' >> events.log\n"
         "  kill -9 $pid; exit 0\n"
         "fi\n"
         "ended 'at the end'\n"
         "echo \"final run $run\" >> events.log\n";
  std::filesystem::permissions(dir / "drive.sh", std::filesystem::perms::owner_all);
  const int limit = static_cast<int>(seconds + 240 * kPace);
  const std::string cmd = "timeout " + std::to_string(limit) + " xvfb-run -a -s '-screen 0 " +
                          std::to_string(kWidth) + "x" + std::to_string(kHeight) + "x24' '" + d +
                          "/drive.sh' > '" + d + "/drive.log' 2>&1";
  const int rc = std::system(cmd.c_str());

  // what every run of the window printed
  const std::string events = slurp(dir / "events.log");
  std::string logs, bad;
  int runs = 0;
  for (int i = 1; std::filesystem::exists(dir / ("nbody_" + std::to_string(i) + ".log")); ++i) {
    const std::string l = slurp(dir / ("nbody_" + std::to_string(i) + ".log"));
    runs = i;
    for (const char* sign : {"AddressSanitizer", "LeakSanitizer", "runtime error", "Assertion",
                             "terminate called", "Segmentation fault"})
      if (l.find(sign) != std::string::npos) bad += "run " + std::to_string(i) + ": " + sign + "\n";
    logs += "--- nbody run " + std::to_string(i) + " (last lines):\n" + tail(l, 25) + "\n";
  }
  const std::string report = "seed " + std::to_string(seed) +
                             " (NBODY_MONKEY_SEED=" + std::to_string(seed) + " replays it), " +
                             std::to_string(runs) + " window run(s), files in " + d +
                             "\n--- events:\n" + events + "--- the last actions:\n" +
                             tail(slurp(dir / "actions.log"), 20) + logs + "--- xvfb-run:\n" +
                             tail(slurp(dir / "drive.log"), 10);
  std::printf("monkey: %d window run(s), %zu actions\n%s", runs, actions.size(), events.c_str());
  // one verdict, the report printed once
  std::string wrong;
  if (rc != 0)
    wrong += "the monkey's driver timed out or failed (status " + std::to_string(rc) + ")\n";
  if (events.find("ABNORMAL") != std::string::npos) wrong += "a window ended abnormally\n";
  if (events.find("HUNG") != std::string::npos) wrong += "the window did not quit at the end\n";
  if (events.find("final run") == std::string::npos) wrong += "the monkey did not reach its end\n";
  wrong += bad;
  ASSERT_EQ(wrong, "") << report;
  // the last run answered at the end: it quit on Esc and Enter and wrote its statistics
  const auto stats = dir / ("stats_" + std::to_string(runs) + ".json");
  ASSERT_TRUE(std::filesystem::exists(stats)) << report;
  const nlohmann::json j = nlohmann::json::parse(slurp(stats));
  EXPECT_GT(j["ui_frames"].get<long long>(), 0) << j.dump(2);
  if (!HasFailure()) std::filesystem::remove_all(dir);
}
