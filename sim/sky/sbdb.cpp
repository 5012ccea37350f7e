// The SBDB Query API JSON reader and the small bodies' states (see sbdb.hpp).
#include "sim/sky/sbdb.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "sim/error.hpp"
#include "sim/io/detail.hpp"

namespace nbody::sky {

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;
constexpr double kMjdToJd = 2400000.5;
constexpr double kSunKg = 1.98840987e30;  // GM_sun / G (G = 6.67430e-11, CODATA 2018)
constexpr double kGmSunKm3s2 = 132712440041.939400;

using json = nlohmann::json;

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string upper(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// column indices by every spelling the API and its consumers use
struct Columns {
  int name = -1, epoch_mjd = -1, epoch_jd = -1, e = -1, a = -1, q = -1, i = -1, om = -1, w = -1,
      ma = -1, tp = -1, H = -1, diameter = -1, albedo = -1, cls = -1, gm = -1;
};

Columns find_columns(const json& fields, const std::string& source) {
  Columns c;
  const std::map<std::string, int Columns::*> names = {{"full_name", &Columns::name},
                                                       {"name", &Columns::name},
                                                       {"epoch_mjd", &Columns::epoch_mjd},
                                                       {"epoch.mjd", &Columns::epoch_mjd},
                                                       {"epoch", &Columns::epoch_jd},
                                                       {"e", &Columns::e},
                                                       {"a", &Columns::a},
                                                       {"q", &Columns::q},
                                                       {"i", &Columns::i},
                                                       {"om", &Columns::om},
                                                       {"w", &Columns::w},
                                                       {"ma", &Columns::ma},
                                                       {"tp", &Columns::tp},
                                                       {"H", &Columns::H},
                                                       {"diameter", &Columns::diameter},
                                                       {"albedo", &Columns::albedo},
                                                       {"class", &Columns::cls},
                                                       {"GM", &Columns::gm}};
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (!fields[k].is_string()) fail(source, ": \"fields\" entry ", k, " is not a string");
    const auto it = names.find(fields[k].get<std::string>());
    if (it != names.end() && c.*(it->second) < 0) c.*(it->second) = static_cast<int>(k);
  }
  for (auto [col, what] :
       {std::pair{c.e, "e"}, std::pair{c.i, "i"}, std::pair{c.om, "om"}, std::pair{c.w, "w"}})
    if (col < 0)
      fail(source, ": SBDB JSON has no field '", what, "' (fields: ", fields.dump(), ")");
  if (c.q < 0 && c.a < 0) fail(source, ": SBDB JSON has neither 'q' nor 'a'");
  if (c.tp < 0 && c.ma < 0) fail(source, ": SBDB JSON has neither 'tp' nor 'ma'");
  if (c.ma >= 0 && c.epoch_mjd < 0 && c.epoch_jd < 0)
    fail(source, ": SBDB JSON has 'ma' but no epoch ('epoch_mjd', 'epoch.mjd' or 'epoch')");
  return c;
}

// a value that is a number, a string holding one, or null (nullopt)
std::optional<double> number(const json& row, int col, const std::string& where,
                             const char* field) {
  if (col < 0 || col >= static_cast<int>(row.size())) return std::nullopt;
  const json& v = row[static_cast<std::size_t>(col)];
  if (v.is_null()) return std::nullopt;
  if (v.is_number()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(where, ": field '", field, "' is not finite");
    return d;
  }
  if (v.is_string()) {
    const std::string s = trim(v.get<std::string>());
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (*end != '\0' || !std::isfinite(d))
      fail(where, ": field '", field, "' is not a number ('", s.substr(0, 40), "')");
    return d;
  }
  fail(where, ": field '", field, "' is neither a number, a string nor null");
}

std::string text(const json& row, int col) {
  if (col < 0 || col >= static_cast<int>(row.size())) return {};
  const json& v = row[static_cast<std::size_t>(col)];
  if (v.is_string()) return trim(v.get<std::string>());
  if (v.is_number()) return v.dump();
  return {};
}

}  // namespace

bool looks_like_sbdb(const char* p, std::size_t n) {
  std::size_t k = 0;
  if (n >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) k = 3;
  while (k < n && std::isspace(static_cast<unsigned char>(p[k])))
    ++k;
  if (k >= n || p[k] != '{') return false;
  const std::string_view head(p, std::min<std::size_t>(n, 8192));
  return head.find("\"fields\"") != std::string_view::npos &&
         (head.find("SBDB") != std::string_view::npos ||
          head.find("\"full_name\"") != std::string_view::npos);
}

SbdbData read_sbdb(const char* data, std::size_t size, const std::string& source) {
  json doc;
  try {
    doc = json::parse(data, data + size);
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number beyond a double (1e400)
    fail(source, ": not valid JSON (", e.what(), ")");
  }
  if (!doc.is_object()) fail(source, ": SBDB JSON must be an object");
  if (!doc.contains("fields") || !doc["fields"].is_array())
    fail(source, ": SBDB JSON has no \"fields\" array");
  if (!doc.contains("data") || !doc["data"].is_array())
    fail(source, ": SBDB JSON has no \"data\" array");
  const json& fields = doc["fields"];
  const Columns c = find_columns(fields, source);
  SbdbData out;
  out.bodies.reserve(doc["data"].size());
  std::size_t r = 0;
  for (const json& row : doc["data"]) {
    ++r;
    const std::string where = source + ": row " + std::to_string(r);
    if (!row.is_array() || row.size() != fields.size())
      fail(where, ": expected an array of ", fields.size(), " values");
    SmallBody b;
    b.name = text(row, c.name);
    b.orbit_class = text(row, c.cls);
    const std::string who = where + (b.name.empty() ? "" : " (" + b.name + ")");
    const auto e = number(row, c.e, who, "e"), q = number(row, c.q, who, "q"),
               a = number(row, c.a, who, "a"), inc = number(row, c.i, who, "i"),
               om = number(row, c.om, who, "om"), w = number(row, c.w, who, "w"),
               ma = number(row, c.ma, who, "ma"), tp = number(row, c.tp, who, "tp");
    const auto mjd = number(row, c.epoch_mjd, who, "epoch_mjd"),
               jd = number(row, c.epoch_jd, who, "epoch");
    b.H = number(row, c.H, who, "H");
    b.diameter_km = number(row, c.diameter, who, "diameter");
    b.albedo = number(row, c.albedo, who, "albedo");
    b.gm_km3s2 = number(row, c.gm, who, "GM");
    // elements: a row without them is skipped and reported
    std::string missing;
    if (!e || !inc || !om || !w) missing = "no e, i, om or w";
    if (missing.empty() && !q && !a) missing = "no q and no a";
    if (missing.empty() && !tp && !(ma && (mjd || jd))) missing = "no tp and no ma with epoch";
    if (!missing.empty()) {
      out.skipped.push_back(who.substr(source.size() + 2) + ": " + missing);
      continue;
    }
    if (*e < 0) fail(who, ": eccentricity is negative (", *e, ")");
    b.el.e = *e;
    b.el.q = q ? *q : *a * (1.0 - *e);
    if (!(b.el.q > 0)) fail(who, ": pericentre distance q must be > 0 (got ", b.el.q, " AU)");
    b.el.i = *inc * kDeg;
    b.el.node = *om * kDeg;
    b.el.peri = *w * kDeg;
    b.epoch = mjd ? *mjd + kMjdToJd : jd ? *jd : (tp ? *tp : 0);
    if (tp) {
      b.el.tp = *tp;
    } else {
      if (!(*e < 1.0)) fail(who, ": e = ", *e, " >= 1 needs tp (a mean anomaly needs an ellipse)");
      b.el.tp = pericentre_time(b.el.q, *e, *ma * kDeg, b.epoch, kGmSun);
    }
    out.bodies.push_back(std::move(b));
  }
  return out;
}

SbdbData read_sbdb_file(const std::string& path) {
  const std::vector<char> buf = io::detail::read_file(path);
  return read_sbdb(buf.data(), buf.size(), path);
}

double estimate_mass(const SmallBody& b, const SmallBodyOptions& opt) {
  if (opt.massless) return 0;
  if (b.gm_km3s2 && *b.gm_km3s2 > 0) return *b.gm_km3s2 / kGmSunKm3s2;
  double d_km = 0;
  if (b.diameter_km && *b.diameter_km > 0)
    d_km = *b.diameter_km;
  else if (b.H) {
    // D = 1329 km / sqrt(p_V) 10^(-H/5) (Fowler & Chillemi 1992)
    const double pv = b.albedo && *b.albedo > 0 ? *b.albedo : opt.default_albedo;
    d_km = 1329.0 / std::sqrt(pv) * std::pow(10.0, -*b.H / 5.0);
  }
  const double r_m = 0.5 * d_km * 1e3;
  return opt.density * 4.0 / 3.0 * 3.14159265358979323846 * r_m * r_m * r_m / kSunKg;
}

std::vector<SmallBody> select(const std::vector<SmallBody>& all, const SmallBodyOptions& opt) {
  std::vector<std::string> want;
  for (const std::string& c : opt.classes)
    want.push_back(upper(trim(c)));
  std::vector<SmallBody> out;
  for (const SmallBody& b : all) {
    if (opt.max && out.size() >= opt.max) break;
    if (!want.empty() && std::find(want.begin(), want.end(), upper(b.orbit_class)) == want.end())
      continue;
    out.push_back(b);
  }
  return out;
}

Bodies heliocentric_bodies(const std::vector<SmallBody>& bodies, double jd,
                           const SmallBodyOptions& opt, std::vector<std::string>* classes) {
  Bodies out;
  out.reserve(bodies.size());
  for (const SmallBody& b : bodies) {
    const State s = state_from_elements(b.el, kGmSun, jd);
    out.add(s.r[0], s.r[1], s.r[2], s.v[0], s.v[1], s.v[2], estimate_mass(b, opt),
            Component::Planet, b.name.empty() ? std::string("?") : b.name);
    if (classes) classes->push_back(b.orbit_class);
  }
  return out;
}

Scene sbdb_scene(const SbdbData& d, const std::string& source) {
  if (d.bodies.empty())
    fail(source, ": no small body with usable elements",
         d.skipped.empty() ? std::string() : " (first skipped: " + d.skipped.front() + ")");
  // the most common epoch of the elements
  std::map<double, std::size_t> count;
  for (const SmallBody& b : d.bodies)
    ++count[b.epoch];
  double epoch = d.bodies.front().epoch;
  std::size_t best = 0;
  for (const auto& [jd, k] : count)
    if (k > best) best = k, epoch = jd;
  Scene s;
  s.name = source;
  s.description =
      "JPL SBDB small bodies about the Sun (two-body propagated to their most common "
      "epoch)";
  s.units = units::solar();
  s.epoch_jd = epoch;
  s.bodies.add(0, 0, 0, 0, 0, 0, 1.0, Component::Star, "Sun");
  s.body_class.push_back("");
  s.bodies.append(heliocentric_bodies(d.bodies, epoch, {}, &s.body_class));
  s.dt = 1.0;
  s.softening = 0;
  s.camera_distance = 60;
  s.integrator = Integrator::Yoshida4;
  s.bodies.validate(source);
  return s;
}

}  // namespace nbody::sky

namespace nbody::sky {

void add_small_bodies(Scene& s, const std::vector<std::string>& paths,
                      const SmallBodyOptions& opt) {
  if (paths.empty()) return;
  const std::string what = "scene '" + s.name + "'";
  if (!(s.epoch_jd > 0))
    fail("--small-bodies: ", what,
         " has no date; small bodies need a scene of the real sky "
         "(solar-system or sun-earth-moon)");
  if (s.units.name != "solar") fail("--small-bodies: ", what, " is not in solar units");
  std::size_t sun = s.bodies.size();
  for (std::size_t i = 0; i < s.bodies.name.size(); ++i)
    if (s.bodies.name[i] == "Sun") sun = i;
  if (sun == s.bodies.size()) fail("--small-bodies: ", what, " has no body named 'Sun'");
  // before the new bodies: is the scene in its barycentric frame (|sum m x| ~ 0)?
  const Bodies& b0 = s.bodies;
  double scale = 0, cx = 0, cy = 0, cz = 0;
  for (std::size_t i = 0; i < b0.size(); ++i) {
    scale += b0.m[i] * std::hypot(b0.x[i], b0.y[i], b0.z[i]);
    cx += b0.m[i] * b0.x[i];
    cy += b0.m[i] * b0.y[i];
    cz += b0.m[i] * b0.z[i];
  }
  const bool barycentric = std::hypot(cx, cy, cz) <= 1e-12 * scale;
  SmallBodyOptions left = opt;
  if (s.body_class.size() != s.bodies.size()) s.body_class.assign(s.bodies.size(), "");
  for (const std::string& path : paths) {
    const SbdbData d = read_sbdb_file(path);
    const std::vector<SmallBody> chosen = select(d.bodies, left);
    Bodies add = heliocentric_bodies(chosen, s.epoch_jd, opt, &s.body_class);
    // heliocentric -> the scene's frame: add the Sun's state
    const double sx = s.bodies.x[sun], sy = s.bodies.y[sun], sz = s.bodies.z[sun];
    const double svx = s.bodies.vx[sun], svy = s.bodies.vy[sun], svz = s.bodies.vz[sun];
    for (std::size_t i = 0; i < add.size(); ++i) {
      add.x[i] += sx;
      add.y[i] += sy;
      add.z[i] += sz;
      add.vx[i] += svx;
      add.vy[i] += svy;
      add.vz[i] += svz;
    }
    s.bodies.append(add);
    if (left.max) {
      left.max -= std::min(left.max, chosen.size());
      if (left.max == 0) break;
    }
  }
  if (barycentric) s.bodies.to_centre_of_mass_frame();
  s.bodies.validate(what + " with small bodies");
}

}  // namespace nbody::sky
