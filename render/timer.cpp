#include "render/timer.hpp"

namespace nbody::render {

GpuTimer::GpuTimer() {
  for (auto& q : queries_)
    q = Query::create(GL_TIME_ELAPSED);
}

void GpuTimer::begin() {
  last_ms();  // collect what finished
  if (pending_[next_]) return;
  glBeginQuery(GL_TIME_ELAPSED, queries_[next_].id());
  active_ = true;
}

void GpuTimer::end() {
  if (!active_) return;
  glEndQuery(GL_TIME_ELAPSED);
  pending_[next_] = true;
  next_ = (next_ + 1) % kRing;
  active_ = false;
}

double GpuTimer::last_ms() {
  // oldest first, so the newest finished result wins
  for (int k = 0; k < kRing; ++k) {
    int i = (next_ + k) % kRing;
    if (!pending_[i]) continue;
    GLint ready = 0;
    glGetQueryObjectiv(queries_[i].id(), GL_QUERY_RESULT_AVAILABLE, &ready);
    if (!ready) continue;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(queries_[i].id(), GL_QUERY_RESULT, &ns);
    pending_[i] = false;
    // a frame's drawing takes well under a minute: anything else is not a measurement
    if (ns > 60'000'000'000ull) {
      ++rejected_;
      continue;
    }
    last_ms_ = static_cast<double>(ns) * 1e-6;
  }
  return last_ms_;
}

}  // namespace nbody::render
