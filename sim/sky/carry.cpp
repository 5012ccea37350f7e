// Small bodies carried by integration with the planets (see carry.hpp): one run per side of the
// date, from the epoch farthest from it towards it, each body joining the run at its own epoch.
#include "sim/sky/carry.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"

namespace nbody::sky {

namespace {

constexpr double kGmSunKm3s2 = 132712440041.939400;  // as sbdb.cpp's masses
constexpr const char* kMagic = "nbody-sky-carry 1";

const std::vector<Body>& run_planets() {
  static const std::vector<Body> p = {Body::Sun,    Body::Mercury, Body::Venus,   Body::Earth,
                                      Body::Moon,   Body::Mars,    Body::Jupiter, Body::Saturn,
                                      Body::Uranus, Body::Neptune, Body::Pluto};
  return p;
}

void flip_velocities(Bodies& b, std::size_t from = 0) {
  for (std::size_t i = from; i < b.size(); ++i) {
    b.vx[i] = -b.vx[i];
    b.vy[i] = -b.vy[i];
    b.vz[i] = -b.vz[i];
  }
}

// `days` (> 0) forwards in equal steps of at most model.dt, on every core
void advance(Bodies& b, const SkyModel& model, double days) {
  if (!(days > 0)) return;
  const long long steps = std::max(1LL, static_cast<long long>(std::ceil(days / model.dt - 1e-9)));
  SimParams p = model.params();
  p.kernel = "cpu-openmp";
  p.dt = days / static_cast<double>(steps);
  auto backend = make_backend(p);
  backend->set_bodies(b);
  for (long long done = 0; done < steps;) {
    const int k = static_cast<int>(std::min<long long>(steps - done, 1 << 20));
    backend->step(p, k);
    done += k;
  }
  backend->get_bodies(b);
}

// the bodies `idx` (all of one side of the date, by epoch) carried to jd; their heliocentric
// states written to out
void carry_side(const std::vector<SmallBody>& bodies, std::vector<std::size_t> idx, double jd,
                const SkyModel& model, std::vector<State>& out) {
  if (idx.empty()) return;
  // farthest epoch first
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(bodies[a].epoch - jd) > std::abs(bodies[b].epoch - jd);
  });
  const double t0 = bodies[idx.front()].epoch;
  const bool backwards = t0 > jd;
  Bodies run = ephemeris_bodies(run_planets(), t0);
  run.to_centre_of_mass_frame();
  if (backwards) flip_velocities(run);
  const std::size_t planets = run.size();
  double t = t0;
  for (std::size_t k = 0; k < idx.size();) {
    const double epoch = bodies[idx[k]].epoch;
    advance(run, model, std::abs(epoch - t));
    t = epoch;
    // the bodies of this epoch join at the run's Sun
    for (; k < idx.size() && bodies[idx[k]].epoch == epoch; ++k) {
      const SmallBody& sb = bodies[idx[k]];
      State s;
      try {
        s = state_from_elements(sb.el, kGmSun, epoch);
      } catch (const Error& e) {
        fail("small body row ", sb.row, " ('", sb.name, "'): ", e.what());
      }
      const double m = de440_gm_km3s2(asteroid_number(sb.name)) / kGmSunKm3s2;
      run.add(run.x[0] + s.r[0], run.y[0] + s.r[1], run.z[0] + s.r[2],
              (backwards ? -1 : 1) * s.v[0] + run.vx[0], (backwards ? -1 : 1) * s.v[1] + run.vy[0],
              (backwards ? -1 : 1) * s.v[2] + run.vz[0], m, Component::Planet);
    }
  }
  advance(run, model, std::abs(jd - t));
  if (backwards) flip_velocities(run);
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const std::size_t i = planets + k;
    State& s = out[idx[k]];
    s.r[0] = run.x[i] - run.x[0], s.r[1] = run.y[i] - run.y[0], s.r[2] = run.z[i] - run.z[0];
    s.v[0] = run.vx[i] - run.vx[0], s.v[1] = run.vy[i] - run.vy[0], s.v[2] = run.vz[i] - run.vz[0];
  }
}

std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

// the cache key: the date, the model and every input that moves a body
std::string carry_key(const std::vector<SmallBody>& bodies, double jd, const CarryOptions& o) {
  std::uint64_t h = 1469598103934665603ull;
  for (const SmallBody& b : bodies) {
    const double v[7] = {b.epoch, b.el.q, b.el.e, b.el.i, b.el.node, b.el.peri, b.el.tp};
    h = fnv1a(v, sizeof v, h);
    h = fnv1a(b.name.data(), b.name.size(), h);
  }
  std::ostringstream os;
  os.precision(17);
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, h);
  os << "jd=" << jd << " n=" << bodies.size() << " elements=" << hex << " model=" << o.model.key()
     << " q_min=" << o.min_perihelion;
  return os.str();
}

// the cache: the key line, then 6 doubles per body (little-endian, as this machine writes them)
bool read_cache(const std::string& path, const std::string& key, std::vector<State>& out,
                CarryReport& rep, std::string& why) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return why = "", false;
  std::string magic, keyline, counts;
  if (!std::getline(f, magic) || magic != kMagic) return why = "not a carry cache file", false;
  if (!std::getline(f, keyline) || keyline != "key " + key)
    return why = "its key is not this date's and bodies'", false;
  if (!std::getline(f, counts)) return why = "no counts line", false;
  std::istringstream cl(counts);
  std::string word;
  if (!(cl >> word >> rep.carried >> rep.kepler >> rep.epochs >> rep.years) || word != "counts")
    return why = "a bad counts line", false;
  for (State& s : out) {
    double v[6];
    if (!f.read(reinterpret_cast<char*>(v), sizeof v)) return why = "it is cut short", false;
    for (int c = 0; c < 6; ++c) {
      if (!std::isfinite(v[c])) return why = "a state is not finite", false;
      (c < 3 ? s.r[c] : s.v[c - 3]) = v[c];
    }
  }
  if (f.peek() != std::char_traits<char>::eof()) return why = "it is longer than the bodies", false;
  return true;
}

void write_cache(const std::string& path, const std::string& key, const std::vector<State>& st,
                 const CarryReport& rep, const CarryOptions& opt) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());  // one per process
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.precision(17);
    f << kMagic << "\nkey " << key << "\ncounts " << rep.carried << " " << rep.kepler << " "
      << rep.epochs << " " << rep.years << "\n";
    for (const State& s : st) {
      const double v[6] = {s.r[0], s.r[1], s.r[2], s.v[0], s.v[1], s.v[2]};
      f.write(reinterpret_cast<const char*>(v), sizeof v);
    }
    if (!f) ec = std::make_error_code(std::errc::io_error);
  }
  if (!ec) std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    if (opt.notice) opt.notice("cannot write the small bodies' cache " + path);
  }
}

std::string thousands(std::size_t n) {
  std::string d = std::to_string(n), s;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i > 0 && (d.size() - i) % 3 == 0) s += ',';
    s += d[i];
  }
  return s;
}

}  // namespace

std::string CarryReport::summary() const {
  char buf[300];
  std::snprintf(buf, sizeof buf,
                "carried %s small bodies by integration with the planets from their epochs (%d "
                "epoch%s, up to %.1f yr)",
                thousands(carried).c_str(), epochs, epochs == 1 ? "" : "s", years);
  std::string s = buf;
  if (kepler)
    s += ", " + thousands(kepler) + " on Kepler orbits (sungrazers, epochs outside 1800-2399)";
  if (from_cache)
    s += "; from the cache " + cache_path;
  else {
    std::snprintf(buf, sizeof buf, ": %.1f s", seconds);
    s += buf;
  }
  return s;
}

std::vector<State> carry_small_bodies(const std::vector<SmallBody>& bodies, double jd,
                                      const CarryOptions& opt, CarryReport* report) {
  if (!std::isfinite(jd) || jd < kFirstJd || jd > kLastJd)
    fail("small bodies: JD ", jd, " is outside the ephemeris' range (JD ", kFirstJd, " to ",
         kLastJd, ")");
  const auto t0 = std::chrono::steady_clock::now();
  CarryReport rep;
  std::vector<State> out(bodies.size());
  const std::string key = carry_key(bodies, jd, opt);
  const std::string dir = opt.use_cache ? cache_directory() : "";
  std::string path;
  if (!dir.empty() && !bodies.empty()) {
    char file[64];
    std::snprintf(file, sizeof file, "%016" PRIx64 ".bin", fnv1a(key.data(), key.size()));
    path = (std::filesystem::path(dir) / "sky-carry" / file).string();
    std::string why;
    if (read_cache(path, key, out, rep, why)) {
      rep.from_cache = true;
      rep.cache_path = path;
      if (report) *report = rep;
      return out;
    }
    if (!why.empty() && opt.notice)
      opt.notice("ignoring the small bodies' cache " + path + " (" + why + "); carrying again");
  }
  // who is carried, on which side of the date; the rest on Kepler orbits
  std::vector<std::size_t> before, after;
  std::map<double, int> epochs;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const SmallBody& b = bodies[i];
    const bool in_range = b.epoch >= kFirstJd && b.epoch <= kLastJd;
    if (!in_range || b.el.q < opt.min_perihelion || b.epoch == jd) {
      out[i] = state_from_elements(b.el, kGmSun, jd);
      if (b.epoch != jd) ++rep.kepler;
      continue;
    }
    (b.epoch < jd ? before : after).push_back(i);
    ++epochs[b.epoch];
    rep.years = std::max(rep.years, std::abs(b.epoch - jd) / 365.25);
  }
  rep.carried = before.size() + after.size();
  rep.epochs = static_cast<int>(epochs.size());
  carry_side(bodies, before, jd, opt.model, out);
  carry_side(bodies, after, jd, opt.model, out);
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!path.empty()) {
    write_cache(path, key, out, rep, opt);
    rep.cache_path = path;
  }
  if (report) *report = rep;
  return out;
}

}  // namespace nbody::sky
