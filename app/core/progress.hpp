#pragma once
// A progress bar with an estimate of the time left, on standard error when it is a terminal;
// silent otherwise (pipes, files, CI logs).

#include <chrono>
#include <string>

namespace nbody::app {

class ProgressBar {
 public:
  /// `label` starts the line ("simulate", "loading galaxy.csv"); `total` is the work in any unit.
  ProgressBar(std::string label, double total);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  /// Sets the work done; redraws at most 10 times a second.
  void update(double done);
  /// Draws 100 % and ends the line (only when something was drawn).
  void finish();
  /// Whether bars are drawn at all (standard error is a terminal).
  static bool enabled();

 private:
  void draw(double done);
  std::string label_;
  double total_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false, finished_ = false;
};

/// "1 h 02 min", "3 min 05 s", "12 s".
std::string format_duration(double seconds);

}  // namespace nbody::app
