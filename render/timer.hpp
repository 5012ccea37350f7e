#pragma once
// GPU time of a block of GL commands through GL_TIME_ELAPSED queries, read a few frames later
// so the CPU never waits for the GPU.

#include <array>

#include "render/gl_objects.hpp"

namespace nbody::render {

class GpuTimer {
 public:
  /// Makes the queries; needs a current GL context.
  GpuTimer();
  /// Starts timing (skipped when the next query is still pending).
  void begin();
  /// Ends timing.
  void end();
  /// Milliseconds of the newest finished query (negative before the first).
  double last_ms();
  /// Results thrown away as impossible (over a minute): a driver whose timer is not usable.
  int rejected() const { return rejected_; }

 private:
  static constexpr int kRing = 4;
  std::array<Query, kRing> queries_;
  std::array<bool, kRing> pending_{};
  int next_ = 0;
  bool active_ = false;
  double last_ms_ = -1;
  int rejected_ = 0;
};

}  // namespace nbody::render
