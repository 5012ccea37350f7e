// Format detection, load/save dispatch and file summaries.

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "sim/error.hpp"
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

// format of a file whose contents are in memory; `reason` tells why Tipsy did not fit
std::optional<Format> detect_buffer(const char* p, std::size_t n, std::string& tipsy_reason) {
  if (n >= 8 && std::memcmp(p, "NBODYBIN", 8) == 0) return Format::Binary;
  if (starts_with_csv_header(p, n)) return Format::Csv;
  if (sky::looks_like_sbdb(p, n)) return Format::Sbdb;
  try {
    return read_tipsy_header(p, n, "").format;
  } catch (const Error& e) {
    tipsy_reason = e.what();
    if (tipsy_reason.rfind(": ", 0) == 0) tipsy_reason.erase(0, 2);
  }
  return std::nullopt;
}

[[noreturn]] void unknown_format(const std::string& path, const std::string& tipsy_reason) {
  // a Tipsy extension: the Tipsy problem is the whole story
  if (format_from_extension(path) == Format::TipsyXdr) fail(path, ": ", tipsy_reason);
  fail(path,
       ": unknown file format: not a native binary (no 'NBODYBIN' magic), not native CSV "
       "(no '# nbody csv' header line), not JPL SBDB JSON (no object with \"fields\"), and ",
       tipsy_reason);
}

void write_stream_file(const std::string& path, const std::function<void(std::ostream&)>& fn) {
  // write next to the target, then rename, so a failed write leaves no partial file
  const std::string tmp = path + ".part";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail(path, ": cannot open for writing");
    try {
      fn(out);
      out.flush();
      if (!out) fail(path, ": write error");
    } catch (const Error& e) {
      out.close();
      std::error_code ec;
      fs::remove(tmp, ec);
      std::string m = e.what();
      if (m.rfind(path, 0) == 0) throw;
      fail(path, ": ", m);
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    fail(path, ": cannot write (", ec.message(), ")");
  }
}

}  // namespace

Format detect_format(const std::string& path) {
  detail::require_exists(path);
  if (is_agora_dir(path)) return Format::Agora;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    fail(path, ": directory has none of the AGORA files disk.dat, bulge.dat, halo.dat, gas.dat");
  }
  const std::size_t size = detail::file_size(path);
  char head[64] = {};
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(path, ": cannot open for reading");
    in.read(head, std::min<std::streamsize>(sizeof head, std::streamsize(size)));
  }
  if (size >= 8 && std::memcmp(head, "NBODYBIN", 8) == 0) return Format::Binary;
  if (starts_with_csv_header(head, std::min<std::size_t>(size, sizeof head))) return Format::Csv;
  // SBDB JSON and Tipsy need the whole file (size check, NVIDIA ids)
  const std::vector<char> buf = detail::read_file(path);
  std::string reason;
  if (auto f = detect_buffer(buf.data(), buf.size(), reason)) return *f;
  if (format_from_extension(path) == Format::Csv) return Format::Csv;
  unknown_format(path, reason);
}

Scene load(const std::string& path, const LoadOptions& opt) {
  detail::require_exists(path);
  std::error_code ec;
  if (fs::is_directory(path, ec)) return load(path, Format::Agora, opt);
  // read once, detect from the contents
  const std::vector<char> buf = detail::read_file(path);
  std::string reason;
  std::optional<Format> f = detect_buffer(buf.data(), buf.size(), reason);
  if (!f && format_from_extension(path) == Format::Csv) f = Format::Csv;
  if (!f) unknown_format(path, reason);
  switch (*f) {
    case Format::Csv: {
      std::istringstream in(std::string(buf.begin(), buf.end()));
      return read_csv(in, path, opt);
    }
    case Format::Binary:
      return read_binary(buf.data(), buf.size(), path, opt);
    case Format::Sbdb: {
      Scene s = sky::sbdb_scene(sky::read_sbdb(buf.data(), buf.size(), path), path);
      detail::finish_scene(s, path, opt);
      return s;
    }
    default:
      return read_tipsy(buf.data(), buf.size(), path, opt, *f);
  }
}

Scene load(const std::string& path, Format f, const LoadOptions& opt) {
  switch (f) {
    case Format::Csv: {
      detail::file_size(path);  // missing / not a file
      std::ifstream in(path, std::ios::binary);
      if (!in) fail(path, ": cannot open for reading");
      return read_csv(in, path, opt);
    }
    case Format::Binary: {
      const std::vector<char> buf = detail::read_file(path);
      return read_binary(buf.data(), buf.size(), path, opt);
    }
    case Format::TipsyXdr:
    case Format::TipsyNative:
    case Format::TipsyNvidia: {
      const std::vector<char> buf = detail::read_file(path);
      return read_tipsy(buf.data(), buf.size(), path, opt, f);
    }
    case Format::Agora:
      return detail::read_agora(path, opt);
    case Format::Sbdb: {
      Scene s = sky::sbdb_scene(sky::read_sbdb_file(path), path);
      detail::finish_scene(s, path, opt);
      return s;
    }
  }
  fail(path, ": unknown format");
}

void save(const Scene& s, const std::string& path, Format f) {
  s.bodies.validate("scene '" + s.name + "'");
  switch (f) {
    case Format::Csv:
      write_stream_file(path, [&](std::ostream& o) { write_csv(o, s); });
      return;
    case Format::Binary:
      write_stream_file(path, [&](std::ostream& o) { write_binary(o, s); });
      return;
    case Format::TipsyXdr:
    case Format::TipsyNative:
    case Format::TipsyNvidia:
      write_stream_file(path, [&](std::ostream& o) { write_tipsy(o, s, f); });
      return;
    case Format::Agora:
      write_agora(path, s);
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
  Scene s = load(path, fi.format, all);
  if (fi.format == Format::TipsyXdr || fi.format == Format::TipsyNative ||
      fi.format == Format::TipsyNvidia) {
    const std::vector<char> buf = detail::read_file(path);
    fi.time = read_tipsy_header(buf.data(), buf.size(), path, fi.format).time;
  }
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
  return os.str();
}

}  // namespace nbody::io
