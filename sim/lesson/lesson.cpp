// Lessons: parsing (errors name the file, the event and the field), times with units, and the
// player that turns due events into edits and actions.
#include "sim/lesson/lesson.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/edit/palette.hpp"

namespace nbody {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

struct Kinds {
  const char* name;
  LessonEvent::Kind kind;
};
constexpr Kinds kKinds[] = {{"add", LessonEvent::Kind::Add},
                            {"throw_comet", LessonEvent::Kind::ThrowComet},
                            {"delete", LessonEvent::Kind::Delete},
                            {"merge", LessonEvent::Kind::Merge},
                            {"collisions", LessonEvent::Kind::Collisions},
                            {"set", LessonEvent::Kind::Set},
                            {"pause", LessonEvent::Kind::Pause},
                            {"speed", LessonEvent::Kind::Speed},
                            {"follow", LessonEvent::Kind::Follow},
                            {"caption", LessonEvent::Kind::Caption},
                            {"end", LessonEvent::Kind::End}};

// seconds per time unit a lesson may write
struct TimeUnit {
  const char* name;
  double seconds;
};
constexpr double kYear = 365.25 * 86400.0;
constexpr TimeUnit kTimeUnits[] = {
    {"s", 1},         {"sec", 1},           {"min", 60},          {"h", 3600},
    {"hr", 3600},     {"hour", 3600},       {"hours", 3600},      {"d", 86400},
    {"day", 86400},   {"days", 86400},      {"yr", kYear},        {"year", kYear},
    {"years", kYear}, {"kyr", 1e3 * kYear}, {"Myr", 1e6 * kYear}, {"Gyr", 1e9 * kYear}};

// the parser's context: "FILE: event 3 (add)" and the field
struct Where {
  std::string at;
  [[noreturn]] void field(const std::string& f, const std::string& what) const {
    fail(at, ": field '", f, "': ", what);
  }
};

double number(const json& j, const std::string& f, const Where& w) {
  if (!j.is_number()) w.field(f, "expected a number, found " + j.dump());
  const double v = j.get<double>();
  if (!std::isfinite(v)) w.field(f, "not a finite number");
  return v;
}

LessonTime parse_time(const json& j, const std::string& f, const Where& w) {
  LessonTime t;
  if (j.is_number()) {
    t.value = number(j, f, w);
  } else if (j.is_string()) {
    std::istringstream in(j.get<std::string>());
    if (!(in >> t.value) || !std::isfinite(t.value) || !(in >> t.unit) || !in.eof())
      w.field(f,
              "expected a number or \"NUMBER UNIT\" (e.g. \"30 d\", \"2 yr\", \"100 Myr\"), "
              "found " +
                  j.dump());
    bool known = false;
    for (const TimeUnit& u : kTimeUnits)
      known = known || t.unit == u.name;
    if (!known)
      w.field(f, "unknown time unit '" + t.unit + "' (known: s, min, h, d, yr, kyr, Myr, Gyr)");
  } else {
    w.field(f, "expected a time (a number or a string like \"2 yr\"), found " + j.dump());
  }
  if (t.value < 0) w.field(f, "a time must be >= 0");
  return t;
}

std::array<double, 3> vec3(const json& j, const std::string& f, const Where& w) {
  if (!j.is_array() || j.size() != 3) w.field(f, "expected [x, y, z], found " + j.dump());
  return {number(j[0], f, w), number(j[1], f, w), number(j[2], f, w)};
}

std::string text(const json& j, const std::string& f, const Where& w) {
  if (!j.is_string() || j.get<std::string>().empty())
    w.field(f, "expected a non-empty string, found " + j.dump());
  return j.get<std::string>();
}

std::vector<std::string> name_list(const json& j, const std::string& f, const Where& w) {
  if (j.is_string()) return {text(j, f, w)};
  if (!j.is_array() || j.empty()) w.field(f, "expected a name or a list of names");
  std::vector<std::string> v;
  for (const json& e : j)
    v.push_back(text(e, f, w));
  return v;
}

// the keys an event of kind k may have
std::vector<std::string> allowed_keys(LessonEvent::Kind k) {
  using K = LessonEvent::Kind;
  std::vector<std::string> v = {"time", "action"};
  auto add = [&](std::initializer_list<const char*> ks) {
    for (const char* s : ks)
      v.push_back(s);
  };
  switch (k) {
    case K::Add:
      add({"body", "palette", "mass", "name", "component", "position", "velocity", "relative_to",
           "frame"});
      break;
    case K::ThrowComet:
      add({"seed", "at", "distance", "speed", "name", "mass"});
      break;
    case K::Delete:
    case K::Follow:
      add({"name", "names"});
      break;
    case K::Merge:
      add({"names"});
      break;
    case K::Collisions:
      add({"on", "density"});
      break;
    case K::Set:
      add({"name", "mass", "mass_factor", "velocity", "velocity_factor"});
      break;
    case K::Speed:
      add({"value"});
      break;
    case K::Caption:
      add({"text", "duration"});
      break;
    case K::Pause:
    case K::End:
      break;
  }
  return v;
}

void parse_add(const json& j, LessonEvent& e, const Where& w) {
  if (j.contains("palette")) e.palette = text(j["palette"], "palette", w);
  if (j.contains("body")) e.palette = text(j["body"], "body", w);
  if (j.contains("mass")) {
    e.mass = number(j["mass"], "mass", w);
    if (*e.mass < 0) w.field("mass", "a mass must be >= 0");
  }
  if (e.palette.empty() == !e.mass)
    w.field(e.mass ? "mass" : "palette",
            "give either a palette entry (\"palette\": \"Jupiter\") or an explicit \"mass\"");
  if (j.contains("name")) e.body_name = text(j["name"], "name", w);
  if (j.contains("component")) {
    const std::string c = text(j["component"], "component", w);
    bool ok = false;
    for (int k = 0; k < kComponentCount; ++k)
      if (c == component_name(static_cast<Component>(k))) {
        e.component = static_cast<Component>(k);
        ok = true;
      }
    if (!ok)
      w.field("component", "unknown component '" + c +
                               "' (star, disk, bulge, dark, gas, "
                               "planet)");
  }
  if (j.contains("position")) e.position = vec3(j["position"], "position", w);
  if (j.contains("velocity")) e.velocity = vec3(j["velocity"], "velocity", w);
  if (j.contains("relative_to")) e.relative_to = text(j["relative_to"], "relative_to", w);
  if (j.contains("frame")) {
    e.frame = text(j["frame"], "frame", w);
    if (e.frame != "axes" && e.frame != "orbit")
      w.field("frame", "expected \"axes\" or \"orbit\", found '" + e.frame + "'");
    if (e.relative_to.empty()) w.field("frame", "applies only with \"relative_to\"");
  }
}

void parse_fields(const json& j, LessonEvent& e, const Where& w) {
  using K = LessonEvent::Kind;
  switch (e.kind) {
    case K::Add:
      parse_add(j, e, w);
      break;
    case K::ThrowComet:
      if (j.contains("seed")) {
        const double s = number(j["seed"], "seed", w);
        if (s < 0 || s != std::floor(s) || s > 1e18)
          w.field("seed", "expected a whole number >= 0");
        e.seed = static_cast<std::uint64_t>(s);
      }
      if (j.contains("at")) e.names = {text(j["at"], "at", w)};
      if (j.contains("name")) e.body_name = text(j["name"], "name", w);
      for (const char* f : {"distance", "speed", "mass"}) {
        if (!j.contains(f)) continue;
        const double v = number(j[f], f, w);
        if (v < 0 || (v == 0 && std::string(f) != "mass")) w.field(f, "must be > 0");
        (std::string(f) == "distance" ? e.distance
         : std::string(f) == "speed"  ? e.speed
                                      : e.mass) = v;
      }
      if (!e.names.empty() || !(j.contains("distance") || j.contains("speed"))) break;
      w.field(j.contains("distance") ? "distance" : "speed", "applies only with \"at\"");
      break;
    case K::Delete:
    case K::Follow:
      if (j.contains("name") == j.contains("names")) w.field("name", "give \"name\" or \"names\"");
      e.names = j.contains("name") ? std::vector<std::string>{text(j["name"], "name", w)}
                                   : name_list(j["names"], "names", w);
      if (e.kind == K::Follow && e.names.size() != 1) w.field("names", "follow takes one name");
      break;
    case K::Merge:
      if (!j.contains("names")) w.field("names", "missing (the bodies to merge)");
      e.names = name_list(j["names"], "names", w);
      if (e.names.size() < 2) w.field("names", "merge needs two names or more");
      break;
    case K::Collisions:
      if (j.contains("on")) {
        if (!j["on"].is_boolean()) w.field("on", "expected true or false");
        e.on = j["on"].get<bool>();
      }
      if (j.contains("density")) {
        e.density = number(j["density"], "density", w);
        if (!(e.density > 0)) w.field("density", "must be > 0 (kg/m^3)");
      }
      break;
    case K::Set:
      if (!j.contains("name")) w.field("name", "missing (the body to change)");
      e.names = {text(j["name"], "name", w)};
      if (j.contains("mass")) e.mass = number(j["mass"], "mass", w);
      if (j.contains("mass_factor")) e.mass_factor = number(j["mass_factor"], "mass_factor", w);
      if (j.contains("velocity")) e.velocity = vec3(j["velocity"], "velocity", w);
      if (j.contains("velocity_factor"))
        e.velocity_factor = number(j["velocity_factor"], "velocity_factor", w);
      if (e.mass && e.mass_factor)
        w.field("mass_factor", "give \"mass\" or \"mass_factor\", not both");
      if (e.velocity && e.velocity_factor)
        w.field("velocity_factor", "give \"velocity\" or \"velocity_factor\", not both");
      if (!e.mass && !e.mass_factor && !e.velocity && !e.velocity_factor)
        w.field("mass", "set needs mass, mass_factor, velocity or velocity_factor");
      if ((e.mass && *e.mass < 0) || (e.mass_factor && *e.mass_factor < 0))
        w.field(e.mass ? "mass" : "mass_factor", "must be >= 0");
      break;
    case K::Speed:
      if (!j.contains("value")) w.field("value", "missing (simulated time per second)");
      e.rate = parse_time(j["value"], "value", w);
      if (!(e.rate.value > 0)) w.field("value", "must be > 0");
      break;
    case K::Caption:
      if (!j.contains("text")) w.field("text", "missing");
      e.text = text(j["text"], "text", w);
      if (j.contains("duration")) {
        e.duration_s = number(j["duration"], "duration", w);
        if (!(e.duration_s > 0)) w.field("duration", "must be > 0 (seconds)");
      }
      break;
    case K::Pause:
    case K::End:
      break;
  }
}

LessonEvent parse_event(const json& j, std::size_t i, const std::string& source) {
  Where w{source + ": event " + std::to_string(i)};
  if (!j.is_object()) fail(w.at, ": expected an object {\"time\": ..., \"action\": ...}");
  if (!j.contains("action")) w.field("action", "missing");
  const std::string action = text(j["action"], "action", w);
  LessonEvent e;
  bool found = false;
  for (const Kinds& k : kKinds)
    if (action == k.name) {
      e.kind = k.kind;
      found = true;
    }
  if (!found)
    w.field("action", "unknown action '" + action +
                          "' (add, throw_comet, delete, merge, collisions, set, pause, speed, "
                          "follow, caption, end)");
  w.at += " (" + action + ")";
  if (!j.contains("time")) w.field("time", "missing");
  e.time = parse_time(j["time"], "time", w);
  const std::vector<std::string> keys = allowed_keys(e.kind);
  for (const auto& [key, value] : j.items())
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      w.field(key, "not a field of '" + action + "'");
  parse_fields(j, e, w);
  return e;
}

void parse_scene(const json& j, Lesson& l) {
  Where w{l.source + ": scene"};
  if (j.is_string()) {
    l.scene.name = j.get<std::string>();
    return;
  }
  if (!j.is_object()) fail(w.at, ": expected a scene name or {\"name\": ..., \"n\": ...}");
  for (const auto& [key, value] : j.items()) {
    if (key == "name") {
      l.scene.name = text(value, key, w);
    } else if (key == "file") {
      fs::path f = text(value, key, w);
      if (f.is_relative()) f = fs::path(l.source).parent_path() / f;
      l.scene.file = f.lexically_normal().string();
    } else if (key == "n") {
      const double n = number(value, key, w);
      if (n < 2 || n > 67108864 || n != std::floor(n)) w.field(key, "expected a whole N >= 2");
      l.scene.params.n = static_cast<std::size_t>(n);
    } else if (key == "seed") {
      const double s = number(value, key, w);
      if (s < 0 || s != std::floor(s) || s > 1e18) w.field(key, "expected a whole number >= 0");
      l.scene.params.seed = static_cast<std::uint64_t>(s);
    } else if (key == "params") {
      if (!value.is_object()) w.field(key, "expected {\"KEY\": NUMBER, ...}");
      for (const auto& [k, v] : value.items())
        l.scene.params.values[k] = number(v, "params." + k, w);
    } else {
      w.field(key, "unknown (name, file, n, seed, params)");
    }
  }
  if (l.scene.name.empty() == l.scene.file.empty())
    fail(w.at, ": give a scene \"name\" or a \"file\" (one of them)");
}

void parse_physics(const json& j, Lesson& l) {
  Where w{l.source + ": physics"};
  if (!j.is_object()) fail(w.at, ": expected {\"dt\": ..., \"speed\": ..., \"integrator\": ...}");
  for (const auto& [key, value] : j.items()) {
    if (key == "dt") {
      l.dt = parse_time(value, key, w);
      if (!(l.dt->value > 0)) w.field(key, "must be > 0");
    } else if (key == "speed") {
      l.speed = parse_time(value, key, w);
      if (!(l.speed->value > 0)) w.field(key, "must be > 0");
    } else if (key == "integrator") {
      try {
        l.integrator = parse_integrator(text(value, key, w), "integrator");
      } catch (const Error& e) {
        w.field(key, e.what());
      }
    } else if (key == "kernel") {
      l.kernel = text(value, key, w);
    } else if (key == "precision") {
      l.precision = text(value, key, w);
      if (l.precision != "float" && l.precision != "double")
        w.field(key, "expected \"float\" or \"double\", found '" + l.precision + "'");
    } else if (key == "softening") {
      l.softening = number(value, key, w);
      if (*l.softening < 0) w.field(key, "must be >= 0");
    } else {
      w.field(key, "unknown (dt, speed, integrator, kernel, precision, softening)");
    }
  }
}

}  // namespace

const char* lesson_event_name(LessonEvent::Kind k) {
  for (const Kinds& e : kKinds)
    if (e.kind == k) return e.name;
  return "?";
}

Lesson parse_lesson(const std::string& content, const std::string& source) {
  json j;
  try {
    j = json::parse(content);
  } catch (const json::parse_error& e) {
    fail(source, ": not valid JSON (", e.what(), ")");
  }
  if (!j.is_object()) fail(source, ": a lesson is a JSON object {\"title\": ..., ...}");
  Lesson l;
  l.source = source;
  Where w{source};
  for (const auto& [key, value] : j.items()) {
    if (key == "title") {
      l.title = text(value, key, w);
    } else if (key == "description") {
      l.description = text(value, key, w);
    } else if (key == "scene") {
      parse_scene(value, l);
    } else if (key == "physics") {
      parse_physics(value, l);
    } else if (key == "duration") {
      l.duration = parse_time(value, key, w);
    } else if (key == "events") {
      if (!value.is_array()) w.field(key, "expected a list of events");
      for (std::size_t i = 0; i < value.size(); ++i)
        l.events.push_back(parse_event(value[i], i, source));
    } else {
      w.field(key, "unknown (title, description, scene, physics, duration, events)");
    }
  }
  if (l.title.empty()) w.field("title", "missing");
  if (l.scene.name.empty() && l.scene.file.empty()) w.field("scene", "missing");
  return l;
}

std::string lessons_dir() {
  return std::string(NBODY_ASSETS_DIR) + "/lessons";
}

Lesson load_lesson(const std::string& path) {
  fs::path p = path;
  std::error_code ec;
  // a shipped lesson by its name
  if (!fs::exists(p, ec) && !p.has_parent_path()) {
    for (const fs::path& c :
         {fs::path(lessons_dir()) / p, fs::path(lessons_dir()) / (path + ".json")})
      if (fs::is_regular_file(c, ec)) p = c;
  }
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    const std::string why = std::strerror(errno);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(lessons_dir(), ec))
      if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    std::string shipped;
    for (const std::string& n : names)
      shipped += (shipped.empty() ? "" : ", ") + n;
    fail(path, ": cannot open the lesson (", why, "); the shipped lessons are ",
         shipped.empty() ? "missing (" + lessons_dir() + ")" : shipped);
  }
  std::ostringstream os;
  os << in.rdbuf();
  return parse_lesson(os.str(), p.string());
}

double lesson_time(const LessonTime& t, const UnitSystem& u, const std::string& what) {
  if (t.unit.empty()) return t.value;
  if (!u.physical())
    fail(what, ": '", t.value, " ", t.unit, "' has a unit, but the scene's units (", u.name,
         ") are dimensionless: give a plain number in its time unit");
  for (const TimeUnit& tu : kTimeUnits)
    if (t.unit == tu.name) return t.value * tu.seconds / u.time_s;
  fail(what, ": unknown time unit '", t.unit, "'");
}

}  // namespace nbody
