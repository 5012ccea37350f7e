// The lesson player: the lesson's scene, event times in the scene's units, and the translation
// of each due event into an Edit or an action against the scene as it is now.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "sim/core/error.hpp"
#include "sim/edit/palette.hpp"
#include "sim/io/io.hpp"
#include "sim/lesson/lesson.hpp"

namespace nbody {

namespace {

using V3 = std::array<double, 3>;

V3 pos(const Bodies& b, std::size_t i) {
  return {b.x[i], b.y[i], b.z[i]};
}
V3 vel(const Bodies& b, std::size_t i) {
  return {b.vx[i], b.vy[i], b.vz[i]};
}
V3 sub(const V3& a, const V3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double norm(const V3& a) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}
V3 unit(const V3& a) {
  const double n = norm(a);
  return n > 0 ? V3{a[0] / n, a[1] / n, a[2] / n} : V3{0, 0, 0};
}

// the most massive body
std::size_t dominant(const Bodies& b) {
  return static_cast<std::size_t>(std::max_element(b.m.begin(), b.m.end()) - b.m.begin());
}

// "LESSON: event 3 (add): field 'relative_to': no body named 'Jupiter' in the scene now"
[[noreturn]] void event_fail(const Lesson& l, std::size_t i, const char* kind, const char* field,
                             const std::string& what) {
  fail(l.source, ": event ", i, " (", kind, "): field '", field, "': ", what);
}

// a body given relative to `ref`: in the scene's axes, or in the frame of ref's orbit around
// the dominant body (x away from it, y along the motion, z along the angular momentum)
void place_relative(const Scene& s, std::size_t ref, const LessonEvent& e, BodySpec& b) {
  const Bodies& B = s.bodies;
  V3 p = e.position, v = e.velocity.value_or(V3{0, 0, 0});
  if (e.frame == "orbit") {
    const std::size_t d = dominant(B);
    const V3 r = sub(pos(B, ref), pos(B, d)), u = sub(vel(B, ref), vel(B, d));
    const V3 x = unit(r), z = unit(cross(r, u)), y = cross(z, x);
    auto to_axes = [&](const V3& a) {
      return V3{a[0] * x[0] + a[1] * y[0] + a[2] * z[0], a[0] * x[1] + a[1] * y[1] + a[2] * z[1],
                a[0] * x[2] + a[1] * y[2] + a[2] * z[2]};
    };
    p = to_axes(p);
    v = to_axes(v);
  }
  b.x = B.x[ref] + p[0];
  b.y = B.y[ref] + p[1];
  b.z = B.z[ref] + p[2];
  b.vx = B.vx[ref] + v[0];
  b.vy = B.vy[ref] + v[1];
  b.vz = B.vz[ref] + v[2];
}

// a comet aimed at body `t`: from a seeded random direction at `distance`, moving straight at
// the target's present position with `speed` relative to it
BodySpec aimed_comet(const Scene& s, std::size_t t, const LessonEvent& e) {
  const Bodies& B = s.bodies;
  const std::size_t d = dominant(B);
  const double r = norm(sub(pos(B, t), pos(B, d))), w = norm(sub(vel(B, t), vel(B, d)));
  const double dist = e.distance.value_or(t == d || r == 0 ? 1.0 : 0.2 * r);
  const double speed = e.speed.value_or(t == d || w == 0 ? 1.0 : 0.5 * w);
  std::mt19937_64 rng(e.seed);
  std::normal_distribution<double> g;
  V3 dir{0, 0, 0};
  while (norm(dir) == 0)
    dir = {g(rng), g(rng), g(rng)};
  dir = unit(dir);
  BodySpec c;
  c.x = B.x[t] + dist * dir[0];
  c.y = B.y[t] + dist * dir[1];
  c.z = B.z[t] + dist * dir[2];
  c.vx = B.vx[t] - speed * dir[0];
  c.vy = B.vy[t] - speed * dir[1];
  c.vz = B.vz[t] - speed * dir[2];
  c.m = e.mass.value_or(0);
  c.component = Component::Star;
  c.body_class = "COM";
  return c;
}

}  // namespace

std::optional<std::size_t> find_body(const Scene& s, const std::string& name) {
  for (std::size_t i = 0; i < s.bodies.name.size(); ++i)
    if (s.bodies.name[i] == name) return i;
  return std::nullopt;
}

Scene make_lesson_scene(const Lesson& l) {
  try {
    if (!l.scene.file.empty()) return io::load(l.scene.file);
    return make_scene(l.scene.name, l.scene.params);
  } catch (const Error& e) {
    fail(l.source, ": scene: ", e.what());
  }
}

LessonPlayer::LessonPlayer(Lesson lesson, const UnitSystem& u)
    : lesson_(std::move(lesson)), units_(u) {
  // events in time order (stable: equal times keep the file's order)
  std::vector<std::size_t> order(lesson_.events.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> t(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    t[i] = lesson_time(lesson_.events[i].time, u,
                       lesson_.source + ": event " + std::to_string(i) + " (" +
                           lesson_event_name(lesson_.events[i].kind) + "): field 'time'");
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return t[a] < t[b]; });
  for (std::size_t i : order) {
    times_.push_back(t[i]);
    index_.push_back(i);
  }
}

std::optional<double> LessonPlayer::next_time() const {
  if (finished()) return std::nullopt;
  return times_[next_];
}

double LessonPlayer::end_time(const Scene& scene) const {
  for (std::size_t k = 0; k < times_.size(); ++k)
    if (lesson_.events[index_[k]].kind == LessonEvent::Kind::End) return times_[k];
  if (lesson_.duration)
    return lesson_time(*lesson_.duration, units_, lesson_.source + ": duration");
  return scene.duration;
}

std::optional<LessonAction> LessonPlayer::next_due(double time, const Scene& current, double G) {
  // a rewind: the events after `time` are due again
  if (time < last_)
    while (next_ > 0 && times_[next_ - 1] > time)
      --next_;
  last_ = time;
  // an event is due at its time, allowing for the round-off of summed steps
  if (next_ >= times_.size() || times_[next_] > time + 1e-9 * std::fabs(times_[next_]))
    return std::nullopt;
  const std::size_t k = next_++;
  try {
    return translate(k, current, G);
  } catch (const Error& e) {
    LessonAction a;
    a.kind = LessonAction::Kind::Error;
    a.event = index_[k];
    a.time = times_[k];
    a.text = e.what();
    return a;
  }
}

LessonAction LessonPlayer::translate(std::size_t k, const Scene& s, double G) const {
  using K = LessonEvent::Kind;
  using A = LessonAction::Kind;
  const std::size_t i = index_[k];
  const LessonEvent& e = lesson_.events[i];
  const char* kind = lesson_event_name(e.kind);
  LessonAction a;
  a.event = i;
  a.time = times_[k];
  auto body = [&](const std::string& name, const char* field) {
    const auto b = find_body(s, name);
    if (!b) event_fail(lesson_, i, kind, field, "no body named '" + name + "' in the scene now");
    return *b;
  };
  auto bodies = [&](const char* field) {
    std::vector<std::size_t> v;
    for (const std::string& n : e.names)
      v.push_back(body(n, field));
    return v;
  };
  switch (e.kind) {
    case K::Add: {
      BodySpec b;
      b.m = e.mass.value_or(0);
      b.component = e.component.value_or(Component::Star);
      if (!e.palette.empty()) {
        bool found = false;
        std::string known;
        for (const PaletteEntry& p : palette(s)) {
          known += (known.empty() ? "" : ", ") + p.label;
          if (p.label != e.palette) continue;
          found = true;
          b.m = p.mass;
          b.component = e.component.value_or(p.component);
        }
        if (!found)
          event_fail(lesson_, i, kind, "palette",
                     "no palette entry '" + e.palette + "' for this scene (" + known + ")");
      }
      b.name = e.body_name.empty() ? e.palette : e.body_name;
      if (!e.relative_to.empty()) {
        place_relative(s, body(e.relative_to, "relative_to"), e, b);
      } else {
        std::tie(b.x, b.y, b.z) = std::tie(e.position[0], e.position[1], e.position[2]);
        const V3 v = e.velocity.value_or(V3{0, 0, 0});
        std::tie(b.vx, b.vy, b.vz) = std::tie(v[0], v[1], v[2]);
      }
      a.kind = A::Edit;
      a.edit.kind = Edit::Kind::Add;
      a.edit.label = "add " + (b.name.empty() ? std::string("a body") : b.name);
      a.edit.bodies = {b};
      break;
    }
    case K::ThrowComet: {
      BodySpec c =
          e.names.empty() ? throw_comet(s, G, e.seed) : aimed_comet(s, body(e.names[0], "at"), e);
      if (e.mass && e.names.empty()) c.m = *e.mass;
      if (!e.body_name.empty()) c.name = e.body_name;
      if (c.name.empty()) c.name = "comet";
      a.kind = A::Edit;
      a.edit.kind = Edit::Kind::Add;
      a.edit.label = "throw " + c.name + (e.names.empty() ? "" : " at " + e.names[0]);
      a.edit.bodies = {c};
      break;
    }
    case K::Delete:
    case K::Merge: {
      a.kind = A::Edit;
      a.edit.kind = e.kind == K::Delete ? Edit::Kind::Remove : Edit::Kind::Merge;
      a.edit.indices = bodies(e.kind == K::Delete && e.names.size() == 1 ? "name" : "names");
      a.edit.label = std::string(e.kind == K::Delete ? "delete " : "merge ");
      for (std::size_t n = 0; n < e.names.size(); ++n)
        a.edit.label += (n ? ", " : "") + e.names[n];
      break;
    }
    case K::Set: {
      const std::size_t b = body(e.names[0], "name");
      BodySpec v = body_spec(s, b);
      if (e.mass) v.m = *e.mass;
      if (e.mass_factor) v.m *= *e.mass_factor;
      if (e.velocity)
        std::tie(v.vx, v.vy, v.vz) = std::tie((*e.velocity)[0], (*e.velocity)[1], (*e.velocity)[2]);
      if (e.velocity_factor) {
        v.vx *= *e.velocity_factor;
        v.vy *= *e.velocity_factor;
        v.vz *= *e.velocity_factor;
      }
      a.kind = A::Edit;
      a.edit.kind = Edit::Kind::Set;
      a.edit.indices = {b};
      a.edit.bodies = {v};
      a.edit.label = "set " + e.names[0];
      break;
    }
    case K::Collisions:
      a.kind = A::Collisions;
      a.on = e.on;
      a.density = e.density;
      a.text = !e.on           ? "off"
               : e.density > 0 ? "on (radius from a density of " +
                                     std::to_string(std::lround(e.density)) + " kg/m^3)"
                               : "on (bodies touch within the softening)";
      break;
    case K::Pause:
      a.kind = A::Pause;
      a.text = "the window pauses (a headless run goes on)";
      break;
    case K::Speed:
      a.kind = A::Speed;
      a.value =
          lesson_time(e.rate, units_,
                      lesson_.source + ": event " + std::to_string(i) + " (speed): field 'value'");
      a.text = "speed " + units::format_time(a.value, units_) + " per second";
      break;
    case K::Follow:
      a.kind = A::Follow;
      a.body = body(e.names[0], "name");
      a.text = "follow " + e.names[0];
      break;
    case K::Caption:
      a.kind = A::Caption;
      a.value = e.duration_s;
      a.text = e.text;
      break;
    case K::End:
      a.kind = A::End;
      a.text = "the lesson ends";
      break;
  }
  if (a.kind == A::Edit) a.text = a.edit.label;
  return a;
}

}  // namespace nbody
