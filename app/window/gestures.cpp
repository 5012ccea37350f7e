#include "app/window/gestures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nbody::app {

namespace {

// a press that moves less than this (pixels) is a click
constexpr double kClickSlop = 4.0;

std::string speed_text(double v, const UnitSystem& u) {
  char buf[64];
  if (u.physical())
    std::snprintf(buf, sizeof buf, "%.3g km/s", v * u.length_m / u.time_s / 1000.0);
  else
    std::snprintf(buf, sizeof buf, "%.3g (N-body units)", v);
  return buf;
}

}  // namespace

glm::dvec3 Gestures::drag_velocity(const glm::dvec3& drag, double speed, double fallback) {
  const double t = speed > 0 ? speed : fallback;
  return t > 0 ? drag / t : glm::dvec3(0.0);
}

BodySpec Gestures::placed(Viewer& v, int width, int height) const {
  // the plane of the orbits (z = the view's target) unless the view is nearly edge-on
  const bool ground = std::abs(std::sin(v.camera().pitch())) > 0.2f;
  const glm::vec3 normal = ground ? glm::vec3(0, 0, 1) : glm::vec3(0);
  const glm::vec3 w0 = v.unproject(static_cast<float>(press_x_), static_cast<float>(press_y_),
                                   anchor_, width, height, normal);
  const glm::vec3 w1 = v.unproject(static_cast<float>(last_x_), static_cast<float>(last_y_),
                                   anchor_, width, height, normal);
  const double dt = std::abs(v.params().dt);
  const glm::dvec3 vel = drag_velocity(glm::dvec3(w1 - w0), v.controls.sim.speed, 60.0 * dt);
  BodySpec b;
  b.x = w0.x;
  b.y = w0.y;
  b.z = w0.z;
  b.vx = vel.x;
  b.vy = vel.y;
  b.vz = vel.z;
  b.m = body.mass;
  b.component = body.component;
  b.name = body.label + " " + std::to_string(added + 1);
  return b;
}

void Gestures::begin(const PointerInput& in, Viewer& v, int width, int height, float scale) {
  press_x_ = in.x;
  press_y_ = in.y;
  drag_ = Drag::Pending;
  hint_.clear();
  if (tool == Tool::Add) {
    anchor_ = v.camera().target();
    drag_ = Drag::Place;
    v.controls.sim.probe = placed(v, width, height);
    return;
  }
  // a press on a selected body may start moving the selection
  const float r = 14.0f * scale;
  for (std::size_t i : v.controls.sim.selection) {
    glm::vec3 p;
    float px = 0, py = 0;
    if (!v.body_position(i, p) || !v.world_to_screen(p, width, height, px, py)) continue;
    if (std::hypot(px - in.x, py - in.y) <= r) {
      grabbed_ = p;
      anchor_ = p;
      gesture_ = v.new_gesture();
      return;
    }
  }
  gesture_ = 0;
}

void Gestures::end(const PointerInput& in, Viewer& v, int width, int height, float scale) {
  switch (drag_) {
    case Drag::Pending:  // a click
      v.select_at(static_cast<float>(in.x), static_cast<float>(in.y), 14.0f * scale, in.shift,
                  width, height);
      break;
    case Drag::Box:
      v.select_box(static_cast<float>(press_x_), static_cast<float>(press_y_),
                   static_cast<float>(in.x), static_cast<float>(in.y), in.shift, width, height);
      break;
    case Drag::Move: {
      Edit e;
      e.kind = Edit::Kind::Translate;
      e.indices = v.controls.sim.selection;
      e.label = v.controls.sim.selection.size() == 1 ? "move body" : "move bodies";
      v.edit(std::move(e), gesture_, true);
      break;
    }
    case Drag::Place: {
      Edit e;
      e.kind = Edit::Kind::Add;
      e.bodies.push_back(placed(v, width, height));
      e.label = "add " + e.bodies.back().name;
      ++added;
      v.edit(std::move(e));
      v.controls.sim.probe.reset();
      break;
    }
    default:
      break;
  }
  drag_ = Drag::None;
  gesture_ = 0;
  hint_.clear();
}

void Gestures::update(const PointerInput& in, Viewer& v, int width, int height, float scale) {
  const auto dx = static_cast<float>(in.x - last_x_), dy = static_cast<float>(in.y - last_y_);
  last_x_ = in.x;
  last_y_ = in.y;
  if (!in.over_ui) {
    // a zoom or a pan takes the camera from keep_in_view
    if (in.scroll != 0) {
      v.camera().zoom(static_cast<float>(in.scroll));
      v.controls.keep_in_view = false;
    }
    if (in.right) {
      v.camera().pan(dx, dy, static_cast<float>(std::max(height, 1)));
      v.controls.follow = v.controls.follow_group = -1;
      v.controls.keep_in_view = false;
    }
  }
  const bool pressed = in.left && !was_left_;
  const bool released = !in.left && was_left_;
  was_left_ = in.left;
  if (pressed && !in.over_ui) begin(in, v, width, height, scale);
  if (drag_ == Drag::None) return;
  if (in.left && drag_ == Drag::Pending &&
      std::hypot(in.x - press_x_, in.y - press_y_) > kClickSlop) {
    if (in.ctrl)
      drag_ = Drag::Box;
    else if (gesture_ > 0)
      drag_ = Drag::Move;
    else if (in.shift)
      drag_ = Drag::Pan;
    else
      drag_ = Drag::Rotate;
  }
  if (in.left) {
    switch (drag_) {
      case Drag::Rotate:
        v.camera().rotate(dx, dy);
        break;
      case Drag::Pan:
        v.camera().pan(dx, dy, static_cast<float>(std::max(height, 1)));
        v.controls.follow = v.controls.follow_group = -1;
        v.controls.keep_in_view = false;
        break;
      case Drag::Move: {
        const glm::vec3 w = v.unproject(static_cast<float>(in.x), static_cast<float>(in.y),
                                        grabbed_, width, height);
        const glm::vec3 d = w - grabbed_;
        if (d != glm::vec3(0.0f) && !v.controls.sim.selection.empty()) {
          Edit e;
          e.kind = Edit::Kind::Translate;
          e.indices = v.controls.sim.selection;
          e.dx = d.x;
          e.dy = d.y;
          e.dz = d.z;
          e.label = v.controls.sim.selection.size() == 1 ? "move body" : "move bodies";
          v.edit(std::move(e), gesture_, false);
          grabbed_ = w;
        }
        hint_ = "moving " + std::to_string(v.controls.sim.selection.size()) +
                (v.controls.sim.selection.size() == 1 ? " body" : " bodies");
        break;
      }
      case Drag::Place: {
        v.controls.sim.probe = placed(v, width, height);
        const double speed = std::sqrt(v.controls.sim.probe->vx * v.controls.sim.probe->vx +
                                       v.controls.sim.probe->vy * v.controls.sim.probe->vy +
                                       v.controls.sim.probe->vz * v.controls.sim.probe->vz);
        hint_ = v.controls.sim.probe->name + ": speed " + speed_text(speed, v.scene().units) +
                " (the arrow: where it is in one second)";
        break;
      }
      case Drag::Box:
        hint_ = "select the bodies in the box (Shift: add to the selection)";
        break;
      default:
        break;
    }
  }
  if (released) end(in, v, width, height, scale);
}

}  // namespace nbody::app
