// The camera's view requests (F, R) and keeping the bodies in view (Controls::keep_in_view):
// twice a second the viewer takes a sample of the shown bodies as drawn; when far fewer of them
// are in the picture than when the camera was handed over, or they gathered again after it
// zoomed out, the camera eases towards their fit, never nearer than the view it was handed (the
// scene's home, or F's fit).
#include <algorithm>
#include <cmath>

#include "app/window/gui_viewer.hpp"
#include "render/gl_check.hpp"

namespace nbody::app {

namespace {

// the camera moves when the share of the sample in the picture falls below kOut of what it was
// when the camera was handed over (bodies leaving: the default collision's galaxies after their
// first passage; a scene that shows only part of its bodies, as the solar system's inner
// planets, keeps its view), or when the fit would be nearer than kIn of the camera's distance
// after it zoomed out (the bodies gathered again)
constexpr float kOut = 0.7f, kIn = 0.5f;
constexpr double kCheckEvery = 0.5;  // seconds between checks
constexpr double kEase = 0.6;        // seconds: the camera covers ~63 % of the way in this time

}  // namespace

std::vector<float> Viewer::drawn_sample(std::size_t most) const {
  const std::size_t n = state_.n;
  std::vector<float> out;
  if (n == 0 || most == 0) return out;
  // runs of bodies spread over all of them: one run a body on the host, runs of up to 256 read
  // back from the vertex buffer (one read each) on the device path
  const bool host = xyzm_.size() == 4 * n;
  if (!host && (!particles_ || particles_->size() != n)) return out;
  const std::size_t run = host ? 1 : std::min<std::size_t>(256, n);
  const std::size_t runs = std::max<std::size_t>(1, std::min(n / run, most / run));
  std::vector<float> chunk(4 * run);
  out.reserve(4 * runs * run);
  for (std::size_t k = 0; k < runs; ++k) {
    const std::size_t first = std::min(n - run, k * (n / runs));
    const float* p = nullptr;
    if (host) {
      p = xyzm_.data() + 4 * first;
    } else {
      glGetNamedBufferSubData(particles_->position_buffer(),
                              static_cast<GLintptr>(4 * first * sizeof(float)),
                              static_cast<GLsizeiptr>(chunk.size() * sizeof(float)), chunk.data());
      p = chunk.data();
    }
    for (std::size_t j = 0; j < run; ++j) {
      const std::size_t i = first + j;
      if (!shown(i)) continue;
      glm::vec3 q(p[4 * j], p[4 * j + 1], p[4 * j + 2]);
      if (!dmap_.identity()) q = render::map_point(dmap_, q);
      out.insert(out.end(), {q.x, q.y, q.z, 1.0f});
    }
  }
  return out;
}

render::OrbitCamera Viewer::fitted(const std::vector<float>& sample) const {
  render::OrbitCamera c = camera_;
  // the part of the window the panel leaves free (the view's centre is shifted into it)
  const float free_w =
      std::max(static_cast<float>(last_w_) - controls.view_offset_px, 0.25f * last_w_);
  if (!sample.empty())
    c.fit(sample.data(), sample.size() / 4, 4, free_w / static_cast<float>(std::max(last_h_, 1)));
  return c;
}

void Viewer::apply_view_request(ViewRequest r) {
  // both hand the camera back to keep_in_view
  controls.keep_in_view = true;
  keep_ = {};
  if (r == ViewRequest::Reset) {
    camera_.reset();
    keep_.floor = camera_.distance();
    return;
  }
  // F stops following; a new distance scale keeps it (the camera's target follows on)
  if (!refit_keeps_follow_) controls.follow = controls.follow_group = -1;
  refit_keeps_follow_ = false;
  // the view fits the shown bodies where they are drawn
  dmap_ = frame_distance_map();
  const render::OrbitCamera c = fitted(drawn_sample(20000));
  camera_.set_view(c.target(), c.distance(), c.yaw(), c.pitch());
  keep_.floor = camera_.distance();
}

float Viewer::inside_share(const std::vector<float>& sample) const {
  const std::size_t n = sample.size() / 4;
  if (n == 0 || last_w_ <= 0 || last_h_ <= 0) return 0;
  std::size_t inside = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec4 c =
        view_proj_ * glm::vec4(sample[4 * i], sample[4 * i + 1], sample[4 * i + 2], 1.0f);
    if (!(c.w > 0)) continue;
    const float px = (c.x / c.w * 0.5f + 0.5f) * static_cast<float>(last_w_);
    const float py = (0.5f - c.y / c.w * 0.5f) * static_cast<float>(last_h_);
    // in the part of the window the panel leaves free
    inside += px >= controls.view_offset_px && px < last_w_ && py >= 0 && py < last_h_;
  }
  return static_cast<float>(inside) / static_cast<float>(n);
}

void Viewer::keep_in_view(double now) {
  const double dt = keep_.last > 0 ? std::min(now - keep_.last, 0.1) : 0.0;
  keep_.last = now;
  if (!keep_allowed_ || !controls.keep_in_view || controls.follow >= 0 ||
      controls.follow_group >= 0) {
    keep_.moving = false;
    return;
  }
  // the first call after a hand-over arms the clock: the next check sees a frame drawn since
  if (keep_.checked < 0) keep_.checked = now;
  if (now - keep_.checked >= kCheckEvery) {
    keep_.checked = now;
    const std::vector<float> sample = drawn_sample(4096);
    if (!sample.empty()) {
      const float share = inside_share(sample);
      if (keep_.base < 0) keep_.base = share;
      const render::OrbitCamera goal = fitted(sample);
      const float d = camera_.distance(), g = std::max(goal.distance(), keep_.floor);
      const bool out = share < kOut * keep_.base;
      const bool in = g < kIn * d && d > 1.01f * keep_.floor;
      if (keep_.moving || out || in) {
        keep_.moving = true;
        keep_.target = goal.target();
        keep_.distance = g;
      }
    }
  }
  if (!keep_.moving || dt <= 0) return;
  const float a = static_cast<float>(1.0 - std::exp(-dt / kEase));
  const float d = camera_.distance();
  const glm::vec3 t = camera_.target() + a * (keep_.target - camera_.target());
  const float nd = d * std::pow(keep_.distance / std::max(d, 1e-30f), a);
  camera_.set_view(t, nd, camera_.yaw(), camera_.pitch());
  // there: stop until the next check finds the picture out of frame again
  if (std::abs(std::log(keep_.distance / std::max(nd, 1e-30f))) < 0.01f &&
      glm::length(keep_.target - t) < 0.005f * nd)
    keep_.moving = false;
}

}  // namespace nbody::app
