// The ephemeris fit's cache and its entry point fitted_bodies() (see fit.hpp): one small text
// file per date and model under $XDG_CACHE_HOME/nbody/sky-fit; a file that does not parse is
// ignored with a notice and written again.
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/sky/fit.hpp"

namespace nbody::sky {

namespace detail {
Bodies fit_at(const std::vector<Body>& which, double jd, const FitOptions& opt, FitReport& rep);
}  // namespace detail

namespace {

constexpr const char* kMagic = "nbody-sky-fit 1";

// FNV-1a: a file name that does not change between builds (std::hash may)
std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string fit_key(const std::vector<Body>& which, double jd, const FitOptions& o) {
  std::ostringstream os;
  os.precision(17);
  os << "jd=" << jd << " bodies=";
  for (std::size_t i = 0; i < which.size(); ++i)
    os << (i ? "," : "") << body_name(which[i]);
  os << " model=" << o.model.key() << " window=" << o.window_days << " every=" << o.sample_days;
  return os.str();
}

}  // namespace

std::string cache_directory() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return (std::filesystem::path(x) / "nbody").string();
  if (const char* h = std::getenv("HOME"); h && *h)
    return (std::filesystem::path(h) / ".cache" / "nbody").string();
  return "";
}

std::string detail::cache_text(const std::string& key, const Bodies& b, const FitReport& r) {
  std::ostringstream os;
  os.precision(17);
  os << kMagic << "\nkey " << key << "\nreport " << r.window_days << " " << r.sample_days << " "
     << r.samples << " " << r.rms_au << " " << r.max_au << " " << r.worst << " " << r.iterations
     << " " << r.unfitted_max_au << "\n";
  for (std::size_t i = 0; i < b.size(); ++i)
    os << "body " << b.name[i] << " " << b.x[i] << " " << b.y[i] << " " << b.z[i] << " " << b.vx[i]
       << " " << b.vy[i] << " " << b.vz[i] << "\n";
  os << "end\n";
  return os.str();
}

bool detail::parse_cache(const std::string& text, const std::string& key,
                         const std::vector<std::string>& names, Bodies& b, FitReport& r,
                         std::string& why) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kMagic) return why = "not a fit cache file", false;
  if (!std::getline(in, line) || line != "key " + key)
    return why = "its key is not this date's and model's", false;
  std::string word;
  if (!std::getline(in, line)) return why = "no report line", false;
  std::istringstream rl(line);
  if (!(rl >> word >> r.window_days >> r.sample_days >> r.samples >> r.rms_au >> r.max_au >>
        r.worst >> r.iterations >> r.unfitted_max_au) ||
      word != "report")
    return why = "a bad report line", false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!std::getline(in, line))
      return why = "it ends after " + std::to_string(i) + " bodies", false;
    std::istringstream bl(line);
    std::string name;
    double v[6];
    if (!(bl >> word >> name >> v[0] >> v[1] >> v[2] >> v[3] >> v[4] >> v[5]) || word != "body" ||
        name != names[i])
      return why = "line " + std::to_string(i + 4) + " is not the state of " + names[i], false;
    for (double x : v)
      if (!std::isfinite(x)) return why = "a state of " + name + " is not finite", false;
    b.x[i] = v[0], b.y[i] = v[1], b.z[i] = v[2], b.vx[i] = v[3], b.vy[i] = v[4], b.vz[i] = v[5];
  }
  if (!std::getline(in, line) || line != "end") return why = "no end line (cut short?)", false;
  return true;
}

Bodies fitted_bodies(const std::vector<Body>& which, double jd_tt, const FitOptions& opt,
                     FitReport* report) {
  if (which.size() < 2 || which[0] != Body::Sun)
    fail("ephemeris fit: the bodies must be the Sun and at least one other");
  if (!std::isfinite(jd_tt) || jd_tt < kFirstJd || jd_tt > kLastJd)
    fail("ephemeris fit: JD ", jd_tt, " is outside the ephemeris' range (JD ", kFirstJd, " to ",
         kLastJd, ")");
  // the fit at the nearest 0h TT, carried to the date by the model
  const double anchor = std::clamp(std::round(jd_tt - 0.5) + 0.5, kFirstJd, kLastJd);
  const std::string key = fit_key(which, anchor, opt);
  FitReport rep;
  Bodies b = ephemeris_bodies(which, anchor);
  std::vector<std::string> names = b.name;
  bool have = false;
  std::string path;
  const std::string dir = opt.use_cache ? cache_directory() : "";
  if (!dir.empty()) {
    char file[64];
    std::snprintf(file, sizeof file, "%016" PRIx64 ".txt", fnv1a(key));
    path = (std::filesystem::path(dir) / "sky-fit" / file).string();
    std::ifstream f(path, std::ios::binary);
    if (f) {
      std::ostringstream text;
      text << f.rdbuf();
      std::string why;
      have = detail::parse_cache(text.str(), key, names, b, rep, why);
      if (!have && opt.notice)
        opt.notice("ignoring the ephemeris fit cache " + path + " (" + why + "); fitting again");
      rep.from_cache = have;
    }
  }
  if (!have) {
    b = detail::fit_at(which, anchor, opt, rep);
    if (!path.empty()) {
      // written whole then renamed: a reader never sees half a file
      std::error_code ec;
      std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
      // one temporary name per process: tests and windows may fit the same date at once
      const std::string tmp = path + ".tmp" + std::to_string(::getpid());
      {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << detail::cache_text(key, b, rep);
        if (!out) ec = std::make_error_code(std::errc::io_error);
      }
      if (!ec) std::filesystem::rename(tmp, path, ec);
      if (ec) {
        std::filesystem::remove(tmp, ec);
        if (opt.notice) opt.notice("cannot write the ephemeris fit cache " + path);
      }
    }
  }
  rep.cache_path = path;
  rep.model = opt.model.key();
  if (report) *report = rep;
  propagate(b, opt.model, jd_tt - anchor);
  return b;
}

}  // namespace nbody::sky
