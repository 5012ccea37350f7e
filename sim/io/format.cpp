// Format detection, load/save dispatch and file summaries.

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"
#include "sim/sky/sbdb.hpp"

namespace nbody::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* kAgoraFiles[] = {"disk.dat", "bulge.dat", "halo.dat", "gas.dat"};

bool is_agora_dir(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  for (const char* f : kAgoraFiles) {
    if (fs::exists(fs::path(path) / f, ec)) return true;
  }
  return false;
}

bool starts_with_csv_header(const char* p, std::size_t n) {
  if (n >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3, n -= 3;
  while (n > 0 && (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t'))
    ++p, --n;
  return n >= 11 && std::memcmp(p, "# nbody csv", 11) == 0;
}

// a plain CSV: the first line starts with a column name, quoted or not, followed by a comma
// (x,y,z,... or "x","y","z",...)
bool starts_with_column_header(const char* p, std::size_t n) {
  if (n >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3, n -= 3;
  while (n > 0 && (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t'))
    ++p, --n;
  std::size_t k = 0;
  while (k < n && k < 16 && p[k] != ',' && p[k] != '\n')
    ++k;
  if (k == n || p[k] != ',') return false;
  std::string first(p, k);
  while (!first.empty() && (first.back() == ' ' || first.back() == '\t'))
    first.pop_back();
  if (first.size() >= 2 && first.front() == '"' && first.back() == '"')
    first = first.substr(1, first.size() - 2);
  for (char& c : first)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  for (const char* name : {"x", "y", "z", "vx", "vy", "vz", "m", "component", "name"})
    if (first == name) return true;
  return false;
}

// format of a file from its first bytes and size (Tipsy: header and size, NVIDIA ids read in
// chunks); `reason` tells why Tipsy did not fit
std::optional<Format> detect_source(const detail::ByteSource& src, std::string& tipsy_reason) {
  char head[64] = {};
  const std::size_t n = std::min<std::size_t>(src.size(), sizeof head);
  src.read(0, head, n);
  if (n >= 8 && std::memcmp(head, "NBODYBIN", 8) == 0) return Format::Binary;
  if (starts_with_csv_header(head, n)) return Format::Csv;
  // JPL SBDB JSON: an object with "fields" near the start
  if (n > 0 && head[0] != '#') {
    char big[8192] = {};
    const std::size_t m = std::min<std::size_t>(src.size(), sizeof big);
    src.read(0, big, m);
    if (sky::looks_like_sbdb(big, m)) return Format::Sbdb;
  }
  try {
    return detail::read_tipsy_header(src, "", std::nullopt).format;
  } catch (const Error& e) {
    tipsy_reason = e.what();
    if (tipsy_reason.rfind(": ", 0) == 0) tipsy_reason.erase(0, 2);
  }
  if (starts_with_column_header(head, n)) return Format::Csv;
  return std::nullopt;
}

[[noreturn]] void unknown_format(const std::string& path, const std::string& tipsy_reason) {
  // a Tipsy extension: the Tipsy problem is the whole story
  if (format_from_extension(path) == Format::TipsyXdr) fail(path, ": ", tipsy_reason);
  fail(path,
       ": unknown file format: not a native binary (no 'NBODYBIN' magic), not native CSV "
       "(no '# nbody csv' header line, no 'x,y,z,vx,vy,vz,m' column header), not JPL SBDB JSON "
       "(no object with \"fields\"), and ",
       tipsy_reason);
}

}  // namespace

void write_file(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  detail::AtomicFile file(path);
  try {
    fill(file.stream());
  } catch (const Error& e) {
    // a failed write: the OS's reason (e.g. "No space left on device")
    if (file.error() != 0) fail(path, ": write error: ", detail::os_error(file.error()));
    std::string m = e.what();
    if (m.rfind(path, 0) == 0) throw;
    fail(path, ": ", m);
  }
  file.commit();
}

void write_file(const std::string& path, std::string_view bytes) {
  write_file(path, [&](std::ostream& o) { o.write(bytes.data(), std::streamsize(bytes.size())); });
}

Format detect_format(const std::string& path) {
  detail::require_exists(path);
  if (is_agora_dir(path)) return Format::Agora;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    fail(path, ": directory has none of the AGORA files disk.dat, bulge.dat, halo.dat, gas.dat");
  }
  const detail::FileSource src(path);
  std::string reason;
  if (auto f = detect_source(src, reason)) return *f;
  if (format_from_extension(path) == Format::Csv) return Format::Csv;
  unknown_format(path, reason);
}

Scene load(const std::string& path, const LoadOptions& opt) {
  detail::require_exists(path);
  std::error_code ec;
  if (fs::is_directory(path, ec)) return load(path, Format::Agora, opt);
  // detected from the first bytes and the size, then streamed: never the whole file in memory
  return load(path, detect_format(path), opt);
}

Scene load(const std::string& path, Format f, const LoadOptions& opt) {
  // options a person gave that would do nothing with this format
  const bool tipsy = f == Format::TipsyXdr || f == Format::TipsyNative || f == Format::TipsyNvidia;
  if (opt.components_given && !tipsy && f != Format::Agora)
    fail(path, ": --components chooses the components of AGORA directories and Tipsy files; a ",
         format_name(f), " file has none to choose");
  if (opt.input_units_given && !tipsy && f != Format::Csv)
    fail(path, ": --input-units applies to files that store no units (Tipsy, plain CSV); a ",
         format_name(f), " file states its own");
  try {
    switch (f) {
      case Format::Csv: {
        detail::file_size(path);  // missing / not a file
        std::ifstream in;
        detail::open_input(in, path);
        return read_csv(in, path, opt);
      }
      case Format::Binary:
        return detail::read_binary(detail::FileSource(path), path, opt);
      case Format::TipsyXdr:
      case Format::TipsyNative:
      case Format::TipsyNvidia:
        return detail::read_tipsy(detail::FileSource(path), path, opt, f);
      case Format::Agora:
        return detail::read_agora(path, opt);
      case Format::Sbdb: {
        Scene s = sky::sbdb_scene(sky::read_sbdb_file(path), path, opt.notice);
        detail::finish_scene(s, path, opt);
        return s;
      }
    }
  } catch (const std::bad_alloc&) {
    fail(path, ": not enough memory to load it");
  }
  fail(path, ": unknown format");
}

void check_output(const std::string& path, Format f, const SaveOptions& opt) {
  if (f == Format::Sbdb)
    fail(path, ": JPL SBDB JSON is an input format only (write csv, bin, tipsy or agora)");
  if (path == "-") {
    if (f != Format::Csv)
      fail("-: standard output takes CSV only (", format_name(f), " is a file format)");
    return;
  }
  if (f == Format::Agora) {
    detail::check_agora_output(path, opt);
    return;
  }
  detail::resolve_output(path);
}

void check_scene_output(const Scene& s, const std::string& path, Format f) {
  // what a format cannot hold is found here, before a run, not when writing after it
  const Bodies& b = s.bodies;
  // values a reader refuses are not written (found by fuzz_roundtrip_csv/binary: NaN scales)
  const UnitSystem& u = s.units;
  if (!std::isfinite(u.G) || !(u.G > 0))
    fail(path, ": G = ", u.G, " is not a finite positive number");
  for (const auto& [v, what] :
       {std::pair{u.length_m, "length_m"}, std::pair{u.mass_kg, "mass_kg"},
        std::pair{u.time_s, "time_s"}, std::pair{s.dt, "dt"}, std::pair{s.softening, "softening"},
        std::pair{s.camera_distance, "camera distance"}})
    if (!std::isfinite(v) || v < 0)
      fail(path, ": ", what, " = ", v, " is not a finite number >= 0");
  if (f == Format::Csv) {
    // a row is one line: a name with a line break would be read back as two broken rows
    for (std::size_t i = 0; i < b.name.size(); ++i)
      if (b.name[i].find_first_of("\r\n") != std::string::npos)
        fail(path, ": the name of body ", i, " (", detail::quote(b.name[i]),
             ") holds a line break, which a CSV row cannot hold (write .bin, which can)");
  }
  if (f == Format::Binary) {
    for (std::size_t i = 0; i < b.name.size(); ++i)
      if (b.name[i].size() > 0xFFFF)
        fail(path, ": the name of body ", i, " is ", b.name[i].size(),
             " bytes long; the binary format holds names of at most 65,535 bytes");
    const std::pair<const std::string*, const char*> labels[] = {
        {&s.units.name, "units id"},
        {&s.units.length, "length label"},
        {&s.units.mass, "mass label"},
        {&s.units.time, "time label"},
        {&s.units.velocity, "velocity label"}};
    for (const auto& [label, what] : labels)
      if (label->size() > 31 || label->find('\0') != std::string::npos)
        fail(path, ": the ", what, " ", detail::quote(*label),
             " is longer than the 31 bytes the binary header holds or holds a NUL byte");
  }
  if (f == Format::Agora) {
    const UnitSystem ag = units::agora();
    const bool same = s.units.name == ag.name && s.units.G == ag.G;
    if (!same && !s.units.physical())
      fail(path, ": cannot write AGORA files (kpc, km/s, 1e9 Msun) from dimensionless units '",
           s.units.name, "'; load with physical units (e.g. --input-units galactic)");
  }
  // rigid halos live in the native CSV header only; other formats would silently drop them
  const std::size_t h = s.bodies.halos.size();
  if (h > 0 && f != Format::Csv)
    fail(path, ": the scene has ", h, h > 1 ? " rigid halos" : " rigid halo",
         ", which only the native CSV format stores (", format_name(f),
         " would lose them): write .csv, or use the scene's live halo");
}

void save(const Scene& s, const std::string& path, Format f, const SaveOptions& opt) {
  s.bodies.validate("scene '" + s.name + "'");
  check_output(path, f, opt);
  check_scene_output(s, path, f);
  if (path == "-") {
    // straight to file descriptor 1 in large writes, with the OS's reason on failure
    std::cout.flush();
    std::fflush(stdout);
    detail::FdBuf buf(1);
    std::ostream out(&buf);
    try {
      write_csv(out, s, opt.run);
    } catch (const Error&) {
      if (buf.error() == 0) throw;
    }
    out.flush();
    if (buf.error() != 0 || !out)
      fail("-: cannot write to standard output: ",
           detail::os_error(buf.error() ? buf.error() : EIO));
    return;
  }
  switch (f) {
    case Format::Csv:
      write_file(path, [&](std::ostream& o) { write_csv(o, s, opt.run); });
      return;
    case Format::Binary:
      write_file(path, [&](std::ostream& o) { write_binary(o, s, opt.run); });
      return;
    case Format::TipsyXdr:
    case Format::TipsyNative:
    case Format::TipsyNvidia:
      if (opt.notice)
        opt.notice(path +
                   ": Tipsy stores no units, G, dt, softening length (only per particle), "
                   "step count, kernel or integrator; only the time (" +
                   detail::format_double(opt.run ? opt.run->time : 0) +
                   ") is in the header. Load it with --input-units " + s.units.name);
      write_file(path,
                 [&](std::ostream& o) { write_tipsy(o, s, f, true, opt.run ? opt.run->time : 0); });
      return;
    case Format::Agora:
      write_agora(path, s, opt);
      return;
    case Format::Sbdb:
      fail(path, ": JPL SBDB JSON is an input format only (write csv, bin, tipsy or agora)");
  }
}

FileInfo info(const std::string& path, const LoadOptions& opt) {
  FileInfo fi;
  fi.path = path;
  fi.format = detect_format(path);
  // load everything the file holds
  LoadOptions all = opt;
  all.tipsy_gas = all.tipsy_dark = all.tipsy_star = true;
  if (fi.format == Format::Agora) {
    std::error_code ec;
    all.agora_disk = fs::exists(fs::path(path) / "disk.dat", ec);
    all.agora_bulge = fs::exists(fs::path(path) / "bulge.dat", ec);
    all.agora_halo = fs::exists(fs::path(path) / "halo.dat", ec);
    all.agora_gas = fs::exists(fs::path(path) / "gas.dat", ec);
  }
  RunRecord run;
  run.steps = -1;
  all.run = &run;
  Scene s = load(path, fi.format, all);
  fi.time = run.time;
  if (run.steps >= 0 && fi.format != Format::TipsyXdr && fi.format != Format::TipsyNative &&
      fi.format != Format::TipsyNvidia && (run.steps > 0 || !run.kernel.empty()))
    fi.run = run;
  const Bodies& b = s.bodies;
  fi.n = b.size();
  fi.units = s.units;
  fi.dt = s.dt;
  fi.softening = s.softening;
  for (int k = 0; k < 3; ++k)
    fi.min[k] = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k)
    fi.max[k] = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < fi.n; ++i) {
    fi.mass += b.m[i];
    fi.count[static_cast<int>(b.component[i])]++;
    const double p[3] = {b.x[i], b.y[i], b.z[i]};
    for (int k = 0; k < 3; ++k) {
      fi.min[k] = std::min(fi.min[k], p[k]);
      fi.max[k] = std::max(fi.max[k], p[k]);
    }
  }
  fi.n_gas = fi.count[int(Component::Gas)];
  fi.n_dark = fi.count[int(Component::Dark)];
  fi.n_star = fi.count[int(Component::Star)] + fi.count[int(Component::Disk)] +
              fi.count[int(Component::Bulge)];
  return fi;
}

std::string describe(const FileInfo& fi) {
  std::ostringstream os;
  os << std::setprecision(6);
  const UnitSystem& u = fi.units;
  if (!fi.path.empty()) os << "file:       " << fi.path << "\n";
  os << "format:     " << format_name(fi.format) << "\n";
  os << "bodies:     " << fi.n << " (gas " << fi.n_gas << ", dark " << fi.n_dark << ", star "
     << fi.n_star << ")\n";
  os << "components:";
  for (int k = 0; k < kComponentCount; ++k) {
    if (fi.count[k]) os << " " << component_name(static_cast<Component>(k)) << " " << fi.count[k];
  }
  os << "\n";
  os << "total mass: " << fi.mass << " " << u.mass << "\n";
  const char* axis[] = {"x", "y", "z"};
  os << "bounds:    ";
  for (int k = 0; k < 3; ++k) {
    os << " " << axis[k] << " [" << fi.min[k] << ", " << fi.max[k] << "]";
  }
  os << " " << u.length << "\n";
  os << "units:      " << u.name << " (length " << u.length << ", mass " << u.mass << ", time "
     << u.time << ", velocity " << u.velocity << "), G = " << std::setprecision(10) << u.G
     << std::setprecision(6) << "\n";
  if (fi.dt > 0)
    os << "defaults:   dt " << fi.dt << " " << u.time << ", softening " << fi.softening << " "
       << u.length << "\n";
  if (fi.format == Format::TipsyXdr || fi.format == Format::TipsyNative ||
      fi.format == Format::TipsyNvidia) {
    os << "time:       " << fi.time << " (Tipsy header)\n";
  }
  if (fi.run) {
    os << "run:        elapsed " << fi.run->time << " " << u.time << ", " << fi.run->steps
       << " steps, kernel " << (fi.run->kernel.empty() ? "?" : fi.run->kernel) << ", integrator "
       << (fi.run->integrator.empty() ? "?" : fi.run->integrator) << "\n";
    if (fi.run->has_state()) {
      // the rest of a saved state
      const RunRecord& r = *fi.run;
      os << "state:      " << (r.precision.empty() ? "precision ?" : r.precision) << ", "
         << (r.gpus == 0 ? std::string("all GPUs") : std::to_string(r.gpus) + " GPU(s)");
      for (const auto& [key, value] : r.tunables)
        os << ", " << key << " " << value;
      if (!r.view.empty()) os << ", a view (" << r.view.size() << " values)";
      os << "\n";
    }
  }
  return os.str();
}

}  // namespace nbody::io
