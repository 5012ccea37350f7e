// The Viewer's drawing helpers: the log distance display's centre, what a frame's picture
// depends on (so a software rasterizer shows the kept image again while nothing changed), and
// the --gl-debug diagnostics of each pass.
#include <cstdio>

#include "app/window/gui_viewer.hpp"
#include "render/gl_check.hpp"

namespace nbody::app {

render::DistanceMap Viewer::frame_distance_map() const {
  if (controls.distance_scale == render::DistanceScale::True) return {};
  // the followed body or centre (the camera's target), else the Sun, else the origin
  glm::vec3 centre(0.0f);
  const auto d = static_cast<std::size_t>(dominant_);
  if (controls.follow >= 0 || controls.follow_group >= 0)
    centre = camera_.target();
  else if (dominant_ >= 0 && 4 * d + 2 < xyzm_.size())
    centre = glm::vec3(xyzm_[4 * d], xyzm_[4 * d + 1], xyzm_[4 * d + 2]);
  return render::log_distance_map(centre, log_reference_);
}

std::string Viewer::distance_centre_name() const {
  const Scene& s = scene();
  const int follow = controls.follow, follow_group = controls.follow_group;
  if (follow >= 0 && static_cast<std::size_t>(follow) < s.bodies.name.size())
    return s.bodies.name[static_cast<std::size_t>(follow)];
  if (follow_group >= 0) {
    const std::vector<std::string> c = follow_choices();
    if (static_cast<std::size_t>(follow_group) < c.size())
      return c[static_cast<std::size_t>(follow_group)];
  }
  if (dominant_ >= 0 && static_cast<std::size_t>(dominant_) < s.bodies.name.size() &&
      !s.bodies.name[static_cast<std::size_t>(dominant_)].empty() && !xyzm_.empty())
    return s.bodies.name[static_cast<std::size_t>(dominant_)];
  return "the origin";
}

std::vector<double> Viewer::draw_key(int width, int height) const {
  std::vector<double> k;
  k.reserve(96);
  auto put = [&k](double v) { k.push_back(v); };
  // the bodies (every upload of new positions), the scene, its edits and overlays
  put(static_cast<double>(uploads_));
  put(static_cast<double>(state_.scene_serial));
  put(static_cast<double>(state_.edit_serial));
  put(static_cast<double>(state_.reset_serial));
  put(static_cast<double>(boxes_version_));
  // the density map only while it is drawn (it is measured while the run is paused too)
  put(controls.sim.map_enabled && controls.map_overlay ? static_cast<double>(seen_map_) : -2.0);
  // the view
  put(width), put(height), put(controls.view_offset_px);
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      put(view_proj_[c][r]);
  // the look
  put(controls.style.point_size), put(controls.style.brightness),
      put(static_cast<int>(controls.style.color));
  put(controls.style.speed_max), put(controls.style.log_mass_min), put(controls.style.log_mass_max),
      put(controls.style.mass_size);
  for (float g : controls.style.component_gain)
    put(g);
  put(controls.tone.hdr), put(controls.tone.exposure), put(controls.tone.knee),
      put(controls.tone.gamma), put(controls.tone.glow);
  put(controls.tone.glow_strength), put(controls.tone.resolution);
  put(static_cast<int>(dmap_.scale)), put(dmap_.centre.x), put(dmap_.centre.y);
  put(dmap_.centre.z), put(dmap_.reference), put(dmap_.inner);
  // what is drawn besides the bodies
  put(controls.sim.trails), put(trails_on_), put(controls.orbits), put(controls.sim.tree_boxes);
  put(controls.sim.tree_depth);
  put(state_.has_tree), put(controls.sim.map_enabled), put(controls.map_overlay);
  put(controls.map_overlay_alpha);
  return k;
}

void Viewer::probe_begin(int width, int height, GLint target) {
  std::fprintf(stderr,
               "probe frame %lld: %dx%d, N %zu, target fbo %d, camera distance %g, view_proj "
               "row0 %g %g %g %g, point size %g, brightness %g, colour mode %d\n",
               frames_, width, height, state_.n, target, static_cast<double>(camera_.distance()),
               static_cast<double>(view_proj_[0][0]), static_cast<double>(view_proj_[1][0]),
               static_cast<double>(view_proj_[2][0]), static_cast<double>(view_proj_[3][0]),
               static_cast<double>(controls.style.point_size),
               static_cast<double>(controls.style.brightness),
               static_cast<int>(controls.style.color));
  if (xyzm_.empty()) return;
  int inside = 0;
  for (std::size_t i = 0; i < state_.n; ++i) {
    float px = 0, py = 0;
    if (project(i, width, height, px, py) && px >= 0 && py >= 0 && px < width && py < height)
      ++inside;
  }
  std::fprintf(stderr, "probe frame %lld: %d of %zu host positions project inside\n", frames_,
               inside, state_.n);
}

void Viewer::probe_mark(const char* pass, double& since) {
  glFinish();
  double t = now_seconds();
  float top = 0;
  std::size_t lit = controls.tone.hdr ? hdr_->count_above(0.05f, &top) : 0;
  GLenum e = glGetError();
  std::fprintf(stderr, "probe frame %lld %-10s %8.3f ms  lit %zu  brightest %.3g%s%s\n", frames_,
               pass, (t - since) * 1e3, lit, static_cast<double>(top), e ? " glGetError " : "",
               e ? render::gl_error_name(e) : "");
  since = now_seconds();
}

void Viewer::probe_end(int width, int height, GLint target) {
  // what reached the target: pixels brighter than the background
  std::vector<unsigned char> px(static_cast<std::size_t>(width) * height * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(target));
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  std::size_t lit = 0;
  for (std::size_t i = 0; i < px.size(); i += 4)
    lit += px[i] > 40 || px[i + 1] > 40 || px[i + 2] > 40;
  std::fprintf(stderr, "probe frame %lld: target fbo %d has %zu lit pixels\n", frames_, target,
               lit);
  --probe_frames_;
}

}  // namespace nbody::app
