// Helpers shared by the formats: file access, number parsing, scene finishing and names.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"

namespace nbody::io {

namespace fs = std::filesystem;

void select_components(LoadOptions& opt, const std::vector<std::string>& names,
                       const std::string& what) {
  opt.tipsy_gas = opt.tipsy_dark = opt.tipsy_star = false;
  opt.agora_disk = opt.agora_bulge = opt.agora_halo = opt.agora_gas = false;
  if (names.empty()) fail(what, ": no component given");
  for (const std::string& raw : names) {
    std::string n = raw;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    if (n == "disk") {
      opt.agora_disk = true;
    } else if (n == "bulge") {
      opt.agora_bulge = true;
    } else if (n == "halo" || n == "dark") {
      opt.agora_halo = opt.tipsy_dark = true;
    } else if (n == "gas") {
      opt.agora_gas = opt.tipsy_gas = true;
    } else if (n == "star" || n == "stars") {
      opt.tipsy_star = opt.agora_disk = opt.agora_bulge = true;
    } else if (n == "all") {
      opt.tipsy_gas = opt.tipsy_dark = opt.tipsy_star = true;
      opt.agora_disk = opt.agora_bulge = opt.agora_halo = opt.agora_gas = true;
    } else {
      fail(what, ": unknown component '", raw,
           "' (expected disk, bulge, halo, dark, gas, star or all)");
    }
  }
}

namespace detail {

void MemorySource::read(std::size_t offset, void* dst, std::size_t n) const {
  if (offset > n_ || n > n_ - offset) fail("read past the end of the input");
  if (n) std::memcpy(dst, p_ + offset, n);
}

FileSource::FileSource(const std::string& path) : path_(path) {
  n_ = file_size(path);
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fail(path, ": cannot open for reading: ", os_error(errno));
}

FileSource::~FileSource() {
  if (fd_ >= 0) ::close(fd_);
}

void FileSource::read(std::size_t offset, void* dst, std::size_t n) const {
  auto* d = static_cast<char*>(dst);
  while (n > 0) {
    const ssize_t r = ::pread(fd_, d, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) fail(path_, ": read error: ", os_error(errno));
    if (r == 0)
      fail(path_, ": read error: the file is shorter than its size (changed while read?)");
    d += r, n -= std::size_t(r), offset += std::size_t(r);
  }
}

void require_memory(std::size_t bytes, std::size_t n, const std::string& source) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return;
  const double have = double(pages) * double(page);
  if (double(bytes) > have)
    fail(source, ": ", n, " bodies need ", double(bytes) / 1e9, " GB but this machine has ",
         have / 1e9, " GB of memory (a corrupt count?)");
}

void require_exists(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(path, ": ", os_error(errno));
}

std::size_t file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(path, ": ", os_error(errno));
  if (S_ISDIR(st.st_mode)) fail(path, ": is a directory, not a file");
  if (!S_ISREG(st.st_mode)) fail(path, ": not a regular file");
  return static_cast<std::size_t>(st.st_size);
}

void open_input(std::ifstream& in, const std::string& path) {
  errno = 0;
  in.open(path, std::ios::binary);
  if (!in) fail(path, ": cannot open for reading: ", os_error(errno ? errno : EIO));
}

std::vector<char> read_file(const std::string& path) {
  std::size_t n = file_size(path);
  std::ifstream in;
  open_input(in, path);
  std::vector<char> buf;
  try {
    buf.resize(n);
  } catch (const std::bad_alloc&) {
    fail(path, ": ", n, " bytes: not enough memory to read it");
  }
  if (n > 0 && !in.read(buf.data(), static_cast<std::streamsize>(n))) {
    fail(path, ": read error (file shorter than its size?)");
  }
  return buf;
}

bool parse_component(std::string_view s, Component& c, bool allow_numbers) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  if (s.empty()) return false;
  if (allow_numbers && s.size() == 1 && s[0] >= '0' && s[0] < '0' + kComponentCount) {
    c = static_cast<Component>(s[0] - '0');
    return true;
  }
  for (int i = 0; i < kComponentCount; ++i) {
    std::string_view n = component_name(static_cast<Component>(i));
    if (n.size() != s.size()) continue;
    bool eq = true;
    for (std::size_t k = 0; k < n.size(); ++k) {
      if (std::tolower(static_cast<unsigned char>(n[k])) !=
          std::tolower(static_cast<unsigned char>(s[k]))) {
        eq = false;
        break;
      }
    }
    if (eq) {
      c = static_cast<Component>(i);
      return true;
    }
  }
  return false;
}

std::string format_double(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

bool parse_double(std::string_view s, double& v) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

static bool same_units(const UnitSystem& a, const UnitSystem& b) {
  return a.name == b.name && a.length_m == b.length_m && a.mass_kg == b.mass_kg &&
         a.time_s == b.time_s && a.G == b.G;
}

void finish_scene(Scene& s, const std::string& source, const LoadOptions& opt) {
  s.bodies.validate(source);
  if (opt.target_units && !same_units(s.units, *opt.target_units)) {
    units::Conversion c;
    try {
      c = units::conversion(s.units, *opt.target_units);
    } catch (const Error& e) {
      fail(source, ": cannot convert from units '", s.units.name, "' to '", opt.target_units->name,
           "': ", e.what());
    }
    Bodies& b = s.bodies;
    for (std::size_t i = 0; i < b.size(); ++i) {
      b.x[i] *= c.length, b.y[i] *= c.length, b.z[i] *= c.length;
      b.vx[i] *= c.velocity, b.vy[i] *= c.velocity, b.vz[i] *= c.velocity;
      b.m[i] *= c.mass;
    }
    s.dt *= c.time;
    s.softening *= c.length;
    s.camera_distance *= c.length;
    s.units = *opt.target_units;
    b.validate(source);
  }
}

void set_defaults(Scene& s, const std::string& source, const LoadOptions& opt, bool set_dt,
                  bool set_softening, bool set_camera) {
  const Bodies& b = s.bodies;
  const std::size_t n = b.size();
  if (n == 0) return;
  // centre of mass and distances from it (a sample of at most 2^20 bodies: bounded memory)
  double mt = 0, cx = 0, cy = 0, cz = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mt += b.m[i], cx += b.m[i] * b.x[i], cy += b.m[i] * b.y[i], cz += b.m[i] * b.z[i];
  }
  if (mt > 0 && std::isfinite(mt)) cx /= mt, cy /= mt, cz /= mt;
  const std::size_t stride = std::max<std::size_t>(1, n >> 20);
  std::vector<double> r;
  r.reserve(n / stride + 1);
  for (std::size_t i = 0; i < n; i += stride)
    r.push_back(std::hypot(b.x[i] - cx, b.y[i] - cy, b.z[i] - cz));
  auto quantile = [&](double q) {
    const std::size_t m = r.size();
    std::size_t k = std::min(m - 1, static_cast<std::size_t>(q * double(m - 1)));
    std::nth_element(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(k), r.end());
    return r[k];
  };
  double r90 = quantile(0.9), rh = quantile(0.5);
  if (!(r90 > 0) || !std::isfinite(r90)) r90 = 1;
  if (!(rh > 0)) rh = r90;
  if (set_camera) s.camera_distance = 3 * r90;
  const double G = s.units.G > 0 ? s.units.G : 1;
  if (n <= 64) {
    // small systems: no softening, dt from the tightest pair's orbital period
    double tmin = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        double d = std::hypot(b.x[i] - b.x[j], b.y[i] - b.y[j], b.z[i] - b.z[j]);
        double mm = b.m[i] + b.m[j];
        if (!(d > 0) || !(mm > 0)) continue;
        double t = 2 * M_PI * std::sqrt(d * d * d / (G * mm));
        if (tmin == 0 || t < tmin) tmin = t;
      }
    }
    if (set_softening) s.softening = 0;
    if (set_dt) s.dt = tmin / 200;
  } else {
    // larger systems: ε from the interparticle spacing, dt from the half-mass dynamical time
    if (set_softening) s.softening = 0.5 * rh / std::cbrt(double(n));
    if (set_dt) s.dt = std::sqrt(rh * rh * rh / (G * (mt > 0 ? mt : 1))) / 100;
  }
  // a guess must be usable: finite and positive (ε may be 0 for a small system)
  if (set_dt && opt.need_dt && !(std::isnormal(s.dt) && s.dt > 0))
    fail(source, ": cannot guess a time step from the bodies (the guess is ", s.dt,
         "; half-mass radius ", rh, " ", s.units.length, ", total mass ", mt, " ", s.units.mass,
         "): give one with --dt");
  if (set_softening && opt.need_softening &&
      !(std::isfinite(s.softening) && s.softening >= 0 && (n <= 64 || std::isnormal(s.softening))))
    fail(source, ": cannot guess a softening length from the bodies (the guess is ", s.softening,
         "): give one with --softening");
  if (!(std::isnormal(s.camera_distance) && s.camera_distance > 0)) s.camera_distance = 1;
}

void shrink_to_fit(Bodies& b) {
  // only when the reserve was far off (a column at a time: small extra peak)
  if (b.m.capacity() <= b.m.size() + b.m.size() / 16) return;
  for (auto* v : {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.m})
    v->shrink_to_fit();
  b.component.shrink_to_fit();
}

std::string quote(std::string_view s, std::size_t max) {
  std::string q = "'";
  std::size_t shown = 0;
  for (char ch : s) {
    if (shown >= max) break;
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\') {
      q += "\\\\";
    } else if (c == '\'') {
      q += "\\'";
    } else if (c < 0x20 || c == 0x7F) {
      static const char* hex = "0123456789abcdef";
      q += "\\x";
      q += hex[c >> 4];
      q += hex[c & 15];
    } else {
      q += ch;
    }
    ++shown;
  }
  q += "'";
  if (s.size() > max)
    q += " (" + std::to_string(s.size()) + " bytes, first " + std::to_string(max) + " shown)";
  return q;
}

}  // namespace detail
}  // namespace nbody::io
