// The viewer's hands-on part (issue 19): edits, undo and redo, rewinding, selection, saving the
// whole state; each is a request the simulation applies between steps.
#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "app/window/gui_viewer.hpp"

namespace nbody::app {

void Viewer::edit(Edit e, long long gesture, bool gesture_end) {
  SimRequest q;
  q.kind = SimRequest::Kind::Edit;
  // a removal or merge shifts indices: the selection is dropped (the merged body is selected)
  if (e.kind == Edit::Kind::Remove) {
    controls.sim.selection.clear();
    controls.sim.pinned.clear();
    controls.follow = -1;
  }
  q.edit = std::move(e);
  q.gesture = gesture;
  q.gesture_end = gesture_end;
  queued_.push_back(std::move(q));
}

void Viewer::undo() {
  SimRequest q;
  q.kind = SimRequest::Kind::Undo;
  queued_.push_back(std::move(q));
}

void Viewer::redo() {
  SimRequest q;
  q.kind = SimRequest::Kind::Redo;
  queued_.push_back(std::move(q));
}

void Viewer::rewind(double t) {
  SimRequest q;
  q.kind = SimRequest::Kind::Rewind;
  q.time = t;
  queued_.push_back(std::move(q));
}

namespace {

Selector selector_of(const glm::mat4& vp, int w, int h, const render::ParticleStyle& style,
                     const render::DistanceMap& dmap) {
  Selector s;
  s.dmap = dmap;
  const float* m = glm::value_ptr(vp);
  std::copy(m, m + 16, s.view_proj.begin());
  s.width = w;
  s.height = h;
  s.shown.resize(kComponentCount);
  for (int c = 0; c < kComponentCount; ++c)
    s.shown[static_cast<std::size_t>(c)] = style.component_gain[c] > 0;
  return s;
}

}  // namespace

void Viewer::select_at(float px, float py, float radius, bool additive, int width, int height) {
  SimRequest q;
  q.kind = SimRequest::Kind::Select;
  q.selector = selector_of(view_proj_, width, height, controls.style, dmap_);
  q.selector.x0 = px;
  q.selector.y0 = py;
  q.selector.radius = radius;
  q.additive = additive;
  queued_.push_back(std::move(q));
}

void Viewer::select_box(float x0, float y0, float x1, float y1, bool additive, int width,
                        int height) {
  SimRequest q;
  q.kind = SimRequest::Kind::Select;
  q.selector = selector_of(view_proj_, width, height, controls.style, dmap_);
  q.selector.box = true;
  q.selector.x0 = x0;
  q.selector.y0 = y0;
  q.selector.x1 = x1;
  q.selector.y1 = y1;
  q.additive = additive;
  queued_.push_back(std::move(q));
}

void Viewer::save_state(
    const std::string& path,
    std::function<void(const Scene&, const SimParams&, double, long long)> writer) {
  SimRequest q;
  q.kind = SimRequest::Kind::Save;
  q.path = path;
  q.save = std::move(writer);
  queued_.push_back(std::move(q));
}

std::map<std::string, double> Viewer::view_values() const {
  const glm::vec3 t = camera_.target();
  return {{"target_x", t.x},
          {"target_y", t.y},
          {"target_z", t.z},
          {"distance", camera_.distance()},
          {"yaw", camera_.yaw()},
          {"pitch", camera_.pitch()},
          {"follow", static_cast<double>(controls.follow)},
          {"backwards", physics().dt < 0 ? 1.0 : 0.0}};
}

void Viewer::apply_view_values(const std::map<std::string, double>& v) {
  auto get = [&](const char* k, double def) {
    auto it = v.find(k);
    return it != v.end() && std::isfinite(it->second) ? it->second : def;
  };
  const glm::vec3 t = camera_.target();
  camera_.set_view(
      glm::vec3(static_cast<float>(get("target_x", t.x)), static_cast<float>(get("target_y", t.y)),
                static_cast<float>(get("target_z", t.z))),
      static_cast<float>(get("distance", camera_.distance())),
      static_cast<float>(get("yaw", camera_.yaw())),
      static_cast<float>(get("pitch", camera_.pitch())));
  const double f = get("follow", -1);
  controls.follow = f >= 0 && f < static_cast<double>(state_.n) ? static_cast<int>(f) : -1;
  controls.keep_in_view = false;  // a saved view is meant
}

glm::vec3 Viewer::unproject(float px, float py, const glm::vec3& anchor, int width, int height,
                            const glm::vec3& plane_normal) const {
  const glm::mat4 inv = glm::inverse(view_proj_);
  const float nx = 2.0f * px / static_cast<float>(std::max(width, 1)) - 1.0f;
  const float ny = 1.0f - 2.0f * py / static_cast<float>(std::max(height, 1));
  glm::vec4 a = inv * glm::vec4(nx, ny, -1.0f, 1.0f);
  glm::vec4 b = inv * glm::vec4(nx, ny, 1.0f, 1.0f);
  const glm::vec3 p0 = glm::vec3(a) / a.w, p1 = glm::vec3(b) / b.w;
  const glm::vec3 dir = p1 - p0;
  // the plane through the anchor facing the camera
  const glm::vec3 normal = plane_normal != glm::vec3(0.0f)
                               ? plane_normal
                               : glm::normalize(camera_.eye() - camera_.target());
  // the plane through the anchor as drawn; the point found there is mapped back to true distances
  const glm::vec3 drawn = render::map_point(dmap_, anchor);
  const float denom = glm::dot(dir, normal);
  if (std::abs(denom) < 1e-20f) return anchor;
  const float s = glm::dot(drawn - p0, normal) / denom;
  return render::unmap_point(dmap_, p0 + s * dir);
}

bool Viewer::body_position(std::size_t i, glm::vec3& p) const {
  if (4 * i + 2 < xyzm_.size() && xyzm_.size() == 4 * state_.n) {
    p = glm::vec3(xyzm_[4 * i], xyzm_[4 * i + 1], xyzm_[4 * i + 2]);
    return true;
  }
  if (const BodyCard* c = card(i)) {
    p = glm::vec3(static_cast<float>(c->x), static_cast<float>(c->y), static_cast<float>(c->z));
    return true;
  }
  return false;
}

const BodyCard* Viewer::card(std::size_t i) const {
  for (const BodyCard& c : state_.cards)
    if (c.index == i) return &c;
  return nullptr;
}

void Viewer::load_state(const std::string& path) {
  SimRequest q;
  q.kind = SimRequest::Kind::LoadState;
  q.path = path;
  queued_.push_back(std::move(q));
}

void Viewer::play_lesson(std::shared_ptr<const Lesson> lesson, bool restart) {
  if (lesson && restart) {
    SimRequest s;
    s.kind = SimRequest::Kind::Scene;
    s.what = "lesson " + (lesson->title.empty() ? lesson->source : lesson->title);
    // its dt, softening and speed in the scene's units, known once the scene is made
    s.make = [l = lesson] {
      Scene sc = make_lesson_scene(*l);
      if (l->dt) sc.dt = lesson_time(*l->dt, sc.units, l->source + ": physics.dt");
      if (l->speed) sc.speed = lesson_time(*l->speed, sc.units, l->source + ": physics.speed");
      if (l->softening) sc.softening = *l->softening;
      return sc;
    };
    queued_.push_back(std::move(s));
  }
  SimRequest q;
  q.kind = SimRequest::Kind::Lesson;
  q.lesson = std::move(lesson);
  queued_.push_back(std::move(q));
}

std::string Viewer::caption() const {
  return now_seconds() < caption_until_ ? caption_ : std::string();
}

void Viewer::lesson_actions(const SimUpdate& u) {
  // a loaded state's camera, once the new scene has set its own
  if (state_.view_serial != seen_view_) {
    seen_view_ = state_.view_serial;
    apply_view_values(state_.view);
  }
  for (const LessonAction& a : u.lesson) {
    switch (a.kind) {
      case LessonAction::Kind::Collisions:
        controls.sim.merge = a.on;
        controls.sim.merge_rule.use_softening = !(a.density > 0);
        if (a.density > 0) controls.sim.merge_rule.density_kg_m3 = a.density;
        break;
      case LessonAction::Kind::Pause:
        controls.sim.paused = true;
        break;
      case LessonAction::Kind::Speed:
        if (a.value > 0) controls.sim.speed = a.value;
        break;
      case LessonAction::Kind::Follow:
        controls.follow = a.body < state_.n ? static_cast<int>(a.body) : -1;
        break;
      case LessonAction::Kind::Caption:
        caption_ = a.text;
        caption_until_ = now_seconds() + (a.value > 0 ? a.value : 8.0);
        break;
      case LessonAction::Kind::End:
        controls.sim.paused = true;
        message_ = "lesson over: " + a.text;
        break;
      default:
        break;
    }
  }
}

void Viewer::on_bodies_changed() {
  seen_edit_ = state_.edit_serial;
  body_looks();
  // trails restart from the new bodies; a selection past the end is dropped
  trails_on_ = false;
  auto valid = [&](std::vector<std::size_t>& v) {
    v.erase(std::remove_if(v.begin(), v.end(), [&](std::size_t i) { return i >= state_.n; }),
            v.end());
  };
  valid(controls.sim.selection);
  valid(controls.sim.pinned);
  if (controls.follow >= static_cast<int>(state_.n)) controls.follow = -1;
  // the orbits were of the bodies as the scene started: their indices no longer hold
  orbit_defs_.clear();
}

void Viewer::adopt_edits() {
  if (state_.edit_serial != seen_edit_) on_bodies_changed();
  if (state_.selection_serial != seen_selection_) {
    seen_selection_ = state_.selection_serial;
    if (!state_.additive_selection) controls.sim.selection.clear();
    for (std::size_t i : state_.selection)
      if (i < state_.n && std::find(controls.sim.selection.begin(), controls.sim.selection.end(),
                                    i) == controls.sim.selection.end())
        controls.sim.selection.push_back(i);
  }
}

}  // namespace nbody::app
