#include "app/window/gui_logic.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <system_error>

#include "sim/analysis/attractor.hpp"
#include "sim/sky/kepler.hpp"

namespace nbody::app {
namespace {

constexpr double kDay = 86400.0;
constexpr double kYear = 365.25 * kDay;

struct BodyLook {
  glm::vec3 color;
  float size_px;
};

// colours close to how the bodies look in pictures; sizes that read well, not to scale
const std::map<std::string, BodyLook>& body_table() {
  static const std::map<std::string, BodyLook> t = {
      // the planets' colours differ from each other by at least 0.25 in RGB (a test checks):
      // Venus pale cream, Jupiter tan-orange, Saturn gold; Earth blue, Neptune violet-blue
      {"sun", {{1.00f, 0.86f, 0.25f}, 22.0f}},     {"mercury", {{0.66f, 0.63f, 0.60f}, 6.0f}},
      {"venus", {{1.00f, 0.96f, 0.78f}, 8.0f}},    {"earth", {{0.20f, 0.60f, 1.00f}, 8.5f}},
      {"moon", {{0.75f, 0.75f, 0.75f}, 4.5f}},     {"mars", {{0.95f, 0.30f, 0.18f}, 7.0f}},
      {"jupiter", {{0.82f, 0.56f, 0.36f}, 14.0f}}, {"saturn", {{0.98f, 0.85f, 0.42f}, 12.5f}},
      {"uranus", {{0.55f, 0.92f, 0.92f}, 10.0f}},  {"neptune", {{0.50f, 0.35f, 1.00f}, 10.0f}},
      {"pluto", {{0.80f, 0.65f, 0.55f}, 5.0f}},    {"a", {{1.00f, 0.90f, 0.55f}, 16.0f}},
      {"b", {{1.00f, 0.65f, 0.35f}, 14.0f}},       {"planet a", {{0.40f, 0.70f, 1.00f}, 7.0f}},
      {"planet b", {{0.50f, 1.00f, 0.60f}, 7.0f}},
  };
  return t;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string plural(double v, const char* one, const char* many) {
  return number(v) + " " + (std::abs(v - 1.0) < 1e-12 ? one : many);
}

}  // namespace

std::string format_julian_date(double jd) {
  // Fliegel & Van Flandern / Meeus: JD -> Gregorian calendar date, rounded to the minute
  double minutes = std::floor((jd + 0.5) * 1440.0 + 0.5);
  double days = std::floor(minutes / 1440.0);
  int minute_of_day = static_cast<int>(minutes - days * 1440.0);
  long long z = static_cast<long long>(days);
  long long a = z;
  if (z >= 2299161) {
    long long alpha =
        static_cast<long long>(std::floor((static_cast<double>(z) - 1867216.25) / 36524.25));
    a = z + 1 + alpha - alpha / 4;
  }
  long long b = a + 1524;
  long long c = static_cast<long long>(std::floor((static_cast<double>(b) - 122.1) / 365.25));
  long long d = static_cast<long long>(std::floor(365.25 * static_cast<double>(c)));
  long long e = static_cast<long long>(std::floor(static_cast<double>(b - d) / 30.6001));
  long long day = b - d - static_cast<long long>(std::floor(30.6001 * static_cast<double>(e)));
  long long month = e < 14 ? e - 1 : e - 13;
  long long year = month > 2 ? c - 4716 : c - 4715;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld %02d:%02d UTC", year, month, day,
                minute_of_day / 60, minute_of_day % 60);
  return buf;
}

std::string time_label(const UnitSystem& u) {
  if (u.name == "henon") return "N-body time units";
  return u.time.empty() ? "time units" : u.time;
}

std::string length_label(const UnitSystem& u) {
  if (u.name == "henon") return "N-body length units";
  return u.length.empty() ? "length units" : u.length;
}

std::string format_span(double t, const UnitSystem& u) {
  if (!u.physical()) return number(t) + " " + time_label(u);
  double s = t * u.time_s, a = std::abs(s);
  // a scene whose time unit is about a million years (the galaxies) speaks in Myr and Gyr only
  if (u.time_s >= 1e4 * kYear) {
    if (a < 1e9 * kYear) return number(s / (1e6 * kYear)) + " Myr";
    return number(s / (1e9 * kYear)) + " Gyr";
  }
  if (a < 3600.0) return plural(s / 60.0, "minute", "minutes");
  if (a < kDay * (1 - 1e-9)) return plural(s / 3600.0, "hour", "hours");
  if (a < 2 * kYear) return plural(s / kDay, "day", "days");
  if (a < 1e6 * kYear) return plural(s / kYear, "year", "years");
  if (a < 1e9 * kYear) return number(s / (1e6 * kYear)) + " Myr";
  return number(s / (1e9 * kYear)) + " Gyr";
}

std::string format_speed(double sim_per_second, const UnitSystem& u) {
  // a slider's text: the short name of N-body time
  if (u.name == "henon") return "1 s = " + number(sim_per_second) + " N-body";
  return "1 s = " + format_span(sim_per_second, u);
}

double steps_per_second(double sim_per_second, double dt) {
  return dt != 0 ? sim_per_second / std::abs(dt) : 0.0;
}

long long steps_due(double sim_per_second, double dt, double elapsed_real, double done_sim,
                    long long cap) {
  dt = std::abs(dt);  // backwards runs pace like forward ones
  done_sim = std::abs(done_sim);
  if (dt == 0 || sim_per_second <= 0) return 0;
  double owed = sim_per_second * elapsed_real - done_sim;
  if (owed < dt) return 0;
  double k = std::floor(owed / dt);
  return static_cast<long long>(std::min(k, static_cast<double>(std::max(cap, 0LL))));
}

bool small_body_color(const std::string& cls, glm::vec3& color, std::string& legend) {
  struct Kind {
    const char* classes;
    const char* legend;
    glm::vec3 color;
  };
  // JPL's orbit classes, grouped as a class would name them
  static const Kind kKinds[] = {
      {" MBA IMB OMB ", "main belt", {0.62f, 0.60f, 0.56f}},
      {" TJN ", "Jupiter trojans", {0.35f, 0.85f, 0.35f}},
      {" APO ATE AMO IEO ", "near-Earth", {1.0f, 0.35f, 0.3f}},
      {" MCA ", "Mars-crossers", {0.95f, 0.6f, 0.45f}},
      {" CEN ", "Centaurs", {1.0f, 0.65f, 0.2f}},
      {" TNO ", "trans-Neptunian", {0.7f, 0.5f, 1.0f}},
      {" JFc JFC ETc CTc HTC PAR HYP COM ", "comets", {0.4f, 0.9f, 1.0f}},
  };
  for (const Kind& k : kKinds)
    if (!cls.empty() && std::string(k.classes).find(" " + cls + " ") != std::string::npos) {
      color = k.color;
      legend = k.legend;
      return true;
    }
  color = glm::vec3(0.5f);
  legend = "other";
  return false;
}

bool body_color(const std::string& name, glm::vec3& color) {
  auto it = body_table().find(lower(name));
  if (it == body_table().end()) return false;
  color = it->second.color;
  return true;
}

float body_size_px(const std::string& name) {
  auto it = body_table().find(lower(name));
  return it == body_table().end() ? 0.0f : it->second.size_px;
}

bool mass_centre(const std::vector<float>& xyzm, std::size_t begin, std::size_t end,
                 glm::dvec3& centre) {
  if (begin >= end || 4 * end > xyzm.size()) return false;
  glm::dvec3 weighted(0), plain(0);
  double mass = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const glm::dvec3 p(xyzm[4 * i], xyzm[4 * i + 1], xyzm[4 * i + 2]);
    const double m = xyzm[4 * i + 3];
    weighted += m * p;
    plain += p;
    mass += m;
  }
  centre = mass > 0 ? weighted / mass : plain / static_cast<double>(end - begin);
  return true;
}

glm::dvec3 moved_centre(double t0, const glm::dvec3& c0, double t1, const glm::dvec3& c1,
                        double t) {
  // in intervals past t1, in the run's direction (a run backwards has t1 < t0)
  const double span = t1 - t0;
  if (!(std::abs(span) > 0) || !std::isfinite(span)) return c1;
  const double f = std::clamp((t - t1) / span, 0.0, 2.0);
  return c1 + (c1 - c0) * f;
}

std::vector<OrbitOutline> orbit_outlines(const Bodies& b,
                                         const std::vector<std::string>& body_class, double G,
                                         int segments, std::size_t max_bodies) {
  std::vector<OrbitOutline> out;
  const std::size_t n = b.size();
  std::vector<std::size_t> named;
  for (std::size_t i = 0; i < n && i < b.name.size(); ++i)
    if (!b.name[i].empty() && (body_class.size() != n || body_class[i].empty())) named.push_back(i);
  if (named.size() > max_bodies) return out;
  const std::vector<double> soi = spheres_of_influence(b);
  for (std::size_t i : named) {
    const long held = attractor(b, i, soi);
    if (held < 0) continue;
    const std::size_t centre = static_cast<std::size_t>(held);
    const sky::State s = relative_state(b, i, centre);
    const auto pts = sky::orbit_points(s, G * (b.m[i] + b.m[centre]), segments);
    if (pts.empty()) continue;
    OrbitOutline o;
    o.body = i;
    o.centre = centre;
    for (const auto& p : pts)
      o.points.emplace_back(p[0], p[1], p[2]);
    out.push_back(std::move(o));
  }
  return out;
}

int dominant_body(const Bodies& b) {
  double total = 0, top = 0;
  int best = -1;
  for (std::size_t i = 0; i < b.size(); ++i) {
    total += b.m[i];
    if (b.m[i] > top) top = b.m[i], best = static_cast<int>(i);
  }
  return total > 0 && top > 0.5 * total ? best : -1;
}

double log_reference_radius(const Bodies& b, const std::vector<std::string>& body_class,
                            int dominant) {
  glm::dvec3 c(0.0);
  const auto d = static_cast<std::size_t>(dominant);
  if (dominant >= 0 && d < b.size()) c = glm::dvec3(b.x[d], b.y[d], b.z[d]);
  auto dist = [&](std::size_t i) { return glm::length(glm::dvec3(b.x[i], b.y[i], b.z[i]) - c); };
  // the farthest planet (a named body that is not a small body)
  double planets = 0;
  for (std::size_t i = 0; i < b.size() && i < b.name.size(); ++i)
    if (!b.name[i].empty() && (i >= body_class.size() || body_class[i].empty()) &&
        static_cast<int>(i) != dominant)
      planets = std::max(planets, dist(i));
  if (planets > 0 && std::isfinite(planets)) return planets;
  // else most of the visible bodies
  std::vector<double> r;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (i >= b.component.size() || b.component[i] != Component::Dark) r.push_back(dist(i));
  if (r.empty()) return 1;
  const auto k = static_cast<std::ptrdiff_t>(0.95 * static_cast<double>(r.size() - 1));
  std::nth_element(r.begin(), r.begin() + k, r.end());
  const double q = r[static_cast<std::size_t>(k)];
  return q > 0 && std::isfinite(q) ? q : 1;
}

std::vector<RulerMark> log_ruler(const render::DistanceMap& m, double units_per_px, double max_px,
                                 double min_gap) {
  std::vector<RulerMark> marks;
  if (!(units_per_px > 0) || !(max_px > 0)) return marks;
  // powers of ten from well inside the inner radius to where the bar ends
  const double top = render::unmap_distance(m, max_px * units_per_px);
  const int k0 = static_cast<int>(std::floor(std::log10(std::max(m.inner, 1e-30f)))) - 3;
  const int k1 = static_cast<int>(std::ceil(std::log10(std::max(top, 1e-30))));
  for (int k = k0; k <= k1 && k - k0 < 60; ++k)
    for (double f : {1.0, 2.0, 5.0}) {
      const double len = f * std::pow(10.0, k);
      const double px = render::map_distance(m, len) / units_per_px;
      if (px > max_px) return marks;
      if (px < min_gap) continue;  // too near the left end
      if (!marks.empty() && px - marks.back().px < min_gap) continue;
      marks.push_back({len, px});
    }
  return marks;
}

double nice_length(double max_length) {
  if (!(max_length > 0) || !std::isfinite(max_length)) return 0;
  double p = std::pow(10.0, std::floor(std::log10(max_length)));
  for (double m : {5.0, 2.0, 1.0})
    if (m * p <= max_length * (1 + 1e-12)) return m * p;
  return p;
}

std::string format_length(double v, const std::string& unit) {
  return number(v) + " " + (unit.empty() ? "length units" : unit);
}

std::string kernel_description(const std::string& name, const std::string& table_description) {
  static const std::map<std::string, std::string> text = {
      {"cpu-reference",
       "Adds up the pull of every body on every other body, in double precision on one CPU core. "
       "Slow but exact: every other kernel is checked against it."},
      {"cpu-openmp",
       "Adds up every pair on all CPU cores: each core takes a share of the bodies and sums the "
       "pull of all others on them."},
      {"cpu-symmetric",
       "Uses Newton's third law: each pair is computed once and applied to both bodies (half the "
       "work), with the rows balanced over the CPU cores."},
      {"cpu-falcon",
       "A tree code whose groups of bodies pull on each other both ways at once (Dehnen's falcON), "
       "so every force has its equal and opposite one and the total momentum stays put; slower "
       "than Barnes-Hut at the same accuracy on the CPU (docs/PERFORMANCE.md)."},
      {"naive", "GPU: one thread per body, each reading every other body from GPU memory."},
      {"tiled",
       "GPU: one thread per body; the block loads bodies into fast shared memory tile by tile "
       "and every thread reuses them (the GPU Gems 3, chapter 31 method)."},
      {"tiled2d",
       "GPU: each body's sum is split over several threads and blocks and the partial sums are "
       "added in a second pass, so even small scenes keep the whole GPU busy."},
  };
  auto it = text.find(name);
  if (it != text.end()) return it->second;
  // otherwise the table's line without parenthesised internal notes
  std::string s = table_description;
  for (std::size_t at; (at = s.find("(seed")) != std::string::npos;) {
    std::size_t end = s.find(')', at);
    s.erase(at > 0 && s[at - 1] == ' ' ? at - 1 : at,
            end == std::string::npos ? std::string::npos
                                     : end + 1 - (at > 0 && s[at - 1] == ' ' ? at - 1 : at));
  }
  return s;
}

std::string default_capture_dir() {
  std::error_code ec;
  if (const char* home = std::getenv("HOME"); home && *home) {
    std::filesystem::path pictures = std::filesystem::path(home) / "Pictures";
    std::filesystem::path dir = pictures / "nbody";
    if (std::filesystem::is_directory(dir, ec)) return dir.string();
    if (std::filesystem::create_directories(dir, ec) && !ec) return dir.string();
  }
  auto cwd = std::filesystem::current_path(ec);
  return ec ? std::string(".") : cwd.string();
}

}  // namespace nbody::app
