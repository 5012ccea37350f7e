#include "app/core/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nbody::app {

bool ProgressBar::enabled() {
  static const bool on = ::isatty(STDERR_FILENO) != 0;
  return on;
}

ProgressBar::ProgressBar(std::string label, double total)
    : label_(std::move(label)),
      total_(total > 0 ? total : 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressBar::~ProgressBar() {
  // an unfinished bar (an error was thrown) ends its line so the message starts clean
  if (drawn_ && !finished_) std::fputc('\n', stderr);
}

void ProgressBar::update(double done) {
  if (!enabled() || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  // the first half second stays quiet: short work shows no bar
  if (now - start_ < std::chrono::milliseconds(500)) return;
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  draw(done);
}

void ProgressBar::finish() {
  if (finished_) return;
  if (drawn_) {
    draw(total_);
    std::fputc('\n', stderr);
  }
  finished_ = true;
}

void ProgressBar::draw(double done) {
  const double f = std::clamp(done / total_, 0.0, 1.0);
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(f * kWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(kWidth - filled), '.');
  std::string eta = "--";
  if (f >= 1) {
    eta = "done in " + format_duration(elapsed);
  } else if (f > 0.001) {
    eta = format_duration(elapsed * (1 - f) / f) + " left";
  }
  std::fprintf(stderr, "\r%s [%s] %3d%%  %s\033[K", label_.c_str(), bar.c_str(),
               static_cast<int>(f * 100), eta.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

std::string format_duration(double s) {
  char buf[64];
  if (!std::isfinite(s) || s < 0) return "?";
  const long t = std::lround(s);
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ld h %02ld min", t / 3600, (t % 3600) / 60);
  else if (t >= 60)
    std::snprintf(buf, sizeof buf, "%ld min %02ld s", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld s", t);
  return buf;
}

}  // namespace nbody::app
