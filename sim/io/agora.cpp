// AGORA isolated-disk initial conditions: a directory with halo.dat, disk.dat, bulge.dat
// (ASCII "x y z vx vy vz m") and gas.dat ("x y z vx vy vz m u"), in kpc, km/s, 1e9 Msun.

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "sim/error.hpp"
#include "sim/io/detail.hpp"

namespace nbody::io {

namespace fs = std::filesystem;

namespace {

struct AgoraFile {
  const char* file;
  const char* what;
  Component component;
};
constexpr AgoraFile kFiles[] = {{"disk.dat", "disk", Component::Disk},
                                {"bulge.dat", "bulge", Component::Bulge},
                                {"halo.dat", "halo", Component::Dark},
                                {"gas.dat", "gas", Component::Gas}};
constexpr const char* kColumns[] = {"x", "y", "z", "vx", "vy", "vz", "m", "u"};

// parses one whitespace-separated ASCII file, appending its bodies
void read_dat(const std::string& path, Component c, bool gas, Bodies& b, detail::Progress& prog,
              std::size_t& bytes_done, std::size_t total_bytes) {
  const std::vector<char> buf = detail::read_file(path);
  const char* p = buf.data();
  const char* end = p + buf.size();
  std::size_t lineno = 0, added = 0;
  while (p < end) {
    const char* eol = static_cast<const char*>(std::memchr(p, '\n', std::size_t(end - p)));
    if (!eol) eol = end;
    ++lineno;
    // fields of this line
    double v[8];
    int nf = 0;
    const char* q = p;
    while (true) {
      while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r' || *q == ','))
        ++q;
      if (q >= eol || *q == '#') break;
      const char* t = q;
      while (t < eol && *t != ' ' && *t != '\t' && *t != '\r' && *t != ',')
        ++t;
      if (nf >= 8) {
        fail(path, ":", lineno, ": too many columns (expected ",
             gas ? "8: x y z vx vy vz m u" : "7: x y z vx vy vz m", ")");
      }
      const char* s = q;
      if (*s == '+') ++s;
      auto r = std::from_chars(s, t, v[nf]);
      if (r.ec != std::errc() || r.ptr != t) {
        fail(path, ":", lineno, ": column ", nf + 1, " (", kColumns[nf], "): '",
             std::string(q, std::size_t(t - q)), "' is not a number");
      }
      if (!std::isfinite(v[nf])) {
        fail(path, ":", lineno, ": column ", nf + 1, " (", kColumns[nf], "): value '",
             std::string(q, std::size_t(t - q)), "' is not finite");
      }
      ++nf;
      q = t;
    }
    if (nf != 0) {
      const bool ok = gas ? (nf == 7 || nf == 8) : nf == 7;
      if (!ok) {
        fail(path, ":", lineno, ": expected ",
             gas ? "8 columns (x y z vx vy vz m u)" : "7 columns (x y z vx vy vz m)", ", found ",
             nf);
      }
      if (v[6] < 0) fail(path, ":", lineno, ": column 7 (m): negative mass ", v[6]);
      b.add(v[0], v[1], v[2], v[3], v[4], v[5], v[6], c);
      ++added;
      if ((added & 0x3FFF) == 0) {
        prog.fraction(double(bytes_done + std::size_t(eol - buf.data())) / double(total_bytes));
      }
    }
    p = eol + 1;
  }
  bytes_done += buf.size();
}

}  // namespace

namespace detail {

Scene read_agora(const std::string& dir, const LoadOptions& opt) {
  require_exists(dir);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    fail(dir,
         ": not a directory (AGORA initial conditions are a "
         "directory with disk.dat, bulge.dat, halo.dat, gas.dat)");
  const bool want[] = {opt.agora_disk, opt.agora_bulge, opt.agora_halo, opt.agora_gas};
  if (!(want[0] || want[1] || want[2] || want[3])) fail(dir, ": no AGORA component selected");
  // every asked-for file must be there; sizes for the progress line
  std::size_t total = 0;
  for (int k = 0; k < 4; ++k) {
    if (!want[k]) continue;
    const std::string path = (fs::path(dir) / kFiles[k].file).string();
    if (!fs::exists(path, ec)) {
      fail(path, ": no such file (component '", kFiles[k].what, "' was asked for)");
    }
    total += file_size(path);
  }
  Scene s;
  Progress prog(opt, total, 4u << 20);
  std::size_t done = 0;
  std::string parts;
  for (int k = 0; k < 4; ++k) {
    if (!want[k]) continue;
    const std::string path = (fs::path(dir) / kFiles[k].file).string();
    read_dat(path, kFiles[k].component, k == 3, s.bodies, prog, done,
             std::max<std::size_t>(total, 1));
    parts += parts.empty() ? "" : "+";
    parts += kFiles[k].what;
  }
  prog.done();
  if (s.bodies.empty()) fail(dir, ": no bodies in the selected files (", parts, "): N = 0");
  s.units = units::agora();
  s.name = fs::path(dir).filename().string();
  if (s.name.empty()) s.name = fs::path(dir).parent_path().filename().string();
  s.description = "AGORA initial conditions " + dir + " (" + parts + ")";
  s.bodies.validate(dir);
  guess_defaults(s, true, true, true);
  finish_scene(s, dir, opt);
  return s;
}

}  // namespace detail

void write_agora(const std::string& dir, const Scene& s) {
  // AGORA files are in kpc, km/s, 1e9 Msun
  const UnitSystem ag = units::agora();
  units::Conversion c;
  if (!(s.units.name == ag.name && s.units.G == ag.G)) {
    if (!s.units.physical()) {
      fail(dir, ": cannot write AGORA files (kpc, km/s, 1e9 Msun) from dimensionless units '",
           s.units.name, "'; load with physical units (e.g. --tipsy-units galactic)");
    }
    c = units::conversion(s.units, ag);
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) fail(dir, ": cannot create directory (", ec.message(), ")");
  const Bodies& b = s.bodies;
  auto file_of = [](Component comp) {
    switch (comp) {
      case Component::Bulge:
        return 1;
      case Component::Dark:
        return 2;
      case Component::Gas:
        return 3;
      default:
        return 0;
    }
  };
  for (int k = 0; k < 4; ++k) {
    const std::string path = (fs::path(dir) / kFiles[k].file).string();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) fail(path, ": cannot open for writing");
    std::string line;
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (file_of(b.component[i]) != k) continue;
      using detail::format_double;
      line.clear();
      line += format_double(b.x[i] * c.length) + ' ' + format_double(b.y[i] * c.length) + ' ' +
              format_double(b.z[i] * c.length) + ' ' + format_double(b.vx[i] * c.velocity) + ' ' +
              format_double(b.vy[i] * c.velocity) + ' ' + format_double(b.vz[i] * c.velocity) +
              ' ' + format_double(b.m[i] * c.mass);
      if (k == 3) line += " 0";
      line += '\n';
      out << line;
    }
    if (!out) fail(path, ": write error");
  }
}

}  // namespace nbody::io
