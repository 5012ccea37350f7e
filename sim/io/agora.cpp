// AGORA isolated-disk initial conditions: a directory with halo.dat, disk.dat, bulge.dat
// (ASCII "x y z vx vy vz m") and gas.dat ("x y z vx vy vz m u"), in kpc, km/s, 1e9 Msun.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"
#include "sim/io/format_table.hpp"

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

}  // namespace

namespace detail {

std::optional<AgoraHeader> read_agora_dat(std::istream& in, const std::string& path, Component c,
                                          bool gas, Scene& s) {
  Bodies& b = s.bodies;
  std::optional<AgoraHeader> header;
  std::string line;
  std::size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const char* p = line.data();
    const char* eol = p + line.size();
    // the comment our writer puts first: G, dt, ε and the run
    if (lineno == 1 && line.rfind("# nbody agora", 0) == 0) {
      const std::string where = path + ":1";
      std::string version;
      const auto kv = parse_header_pairs(std::string_view(line).substr(13), version, where);
      if (version != "v1") fail(where, ": unsupported AGORA header version ", quote(version));
      AgoraHeader h;
      auto num = [&](const char* k, std::optional<double>& out, bool positive) {
        auto it = kv.find(k);
        if (it == kv.end()) return;
        double v = 0;
        if (!parse_double(it->second, v) || !std::isfinite(v) || v < 0 || (positive && !(v > 0)))
          fail(where, ": header value ", k, "=", quote(it->second), " is not a valid number");
        out = v;
      };
      num("G", h.G, true);
      num("dt", h.dt, true);
      num("softening", h.softening, false);
      read_run(kv, &h.run, where);
      header = h;
      continue;
    }
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
      const char* sp = q;
      if (*sp == '+') ++sp;
      auto r = std::from_chars(sp, t, v[nf]);
      if (r.ec != std::errc() || r.ptr != t) {
        fail(path, ":", lineno, ": column ", nf + 1, " (", kColumns[nf],
             "): ", quote(std::string_view(q, std::size_t(t - q))), " is not a number");
      }
      if (!std::isfinite(v[nf])) {
        fail(path, ":", lineno, ": column ", nf + 1, " (", kColumns[nf], "): value ",
             quote(std::string_view(q, std::size_t(t - q))), " is not finite");
      }
      ++nf;
      q = t;
    }
    if (nf == 0) continue;
    const bool ok = gas ? (nf == 7 || nf == 8) : nf == 7;
    if (!ok) {
      fail(path, ":", lineno, ": expected ",
           gas ? "8 columns (x y z vx vy vz m u)" : "7 columns (x y z vx vy vz m)", ", found ", nf);
    }
    if (v[6] < 0) fail(path, ":", lineno, ": column 7 (m): negative mass ", v[6]);
    b.add(v[0], v[1], v[2], v[3], v[4], v[5], v[6], c);
  }
  if (in.bad()) fail(path, ": read error");
  return header;
}

void apply_agora_header(const AgoraHeader& h, Scene& s, bool& have_dt, bool& have_eps,
                        const LoadOptions& opt) {
  if (h.G && std::fabs(*h.G - s.units.G) > 1e-12 * s.units.G) {
    s.units.G = *h.G;
    s.units.name = "custom";
  }
  if (h.dt) s.dt = *h.dt, have_dt = true;
  if (h.softening) s.softening = *h.softening, have_eps = true;
  if (opt.run) *opt.run = h.run;
}

std::string agora_header_difference(const std::optional<AgoraHeader>& a,
                                    const std::optional<AgoraHeader>& b) {
  // a file without the comment: AGORA's own initial conditions, at t = 0 with AGORA's G
  const double G = units::agora().G;
  auto g = [&](const std::optional<AgoraHeader>& h) { return h && h->G ? *h->G : G; };
  auto time = [](const std::optional<AgoraHeader>& h) { return h ? h->run.time : 0.0; };
  auto steps = [](const std::optional<AgoraHeader>& h) { return h ? h->run.steps : 0LL; };
  auto opt = [](const std::optional<double>& v) {
    return v ? format_double(*v) : std::string("none");
  };
  if (g(a) != g(b)) return "G=" + format_double(g(a)) + " and G=" + format_double(g(b));
  if (time(a) != time(b))
    return "elapsed=" + format_double(time(a)) + " and elapsed=" + format_double(time(b));
  if (steps(a) != steps(b))
    return "steps=" + std::to_string(steps(a)) + " and steps=" + std::to_string(steps(b));
  if (!a || !b) return {};  // no comment: nothing more to compare
  if (a->dt != b->dt) return "dt=" + opt(a->dt) + " and dt=" + opt(b->dt);
  if (a->softening != b->softening)
    return "softening=" + opt(a->softening) + " and softening=" + opt(b->softening);
  if (a->run.kernel != b->run.kernel)
    return "kernel=" + quote(a->run.kernel) + " and kernel=" + quote(b->run.kernel);
  if (a->run.integrator != b->run.integrator)
    return "integrator=" + quote(a->run.integrator) + " and integrator=" + quote(b->run.integrator);
  return {};
}

Scene read_agora(const std::string& dir, const LoadOptions& opt) {
  require_exists(dir);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    fail(dir,
         ": not a directory (AGORA initial conditions are a "
         "directory with disk.dat, bulge.dat, halo.dat, gas.dat)");
  const bool want[] = {opt.agora_disk, opt.agora_bulge, opt.agora_halo, opt.agora_gas};
  if (!(want[0] || want[1] || want[2] || want[3])) fail(dir, ": no AGORA component selected");
  // every asked-for file must be there; lines (to reserve once) and sizes for the progress line
  std::size_t total = 0, lines = 0;
  for (int k = 0; k < 4; ++k) {
    if (!want[k]) continue;
    const std::string path = (fs::path(dir) / kFiles[k].file).string();
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      fail(path, ": ", os_error(errno), " (component '", kFiles[k].what, "' was asked for)");
    total += file_size(path);
    std::ifstream in;
    open_input(in, path);
    std::vector<char> buf(1u << 20);
    while (in.read(buf.data(), std::streamsize(buf.size())) || in.gcount() > 0) {
      lines += std::size_t(std::count(buf.data(), buf.data() + in.gcount(), '\n')) + 1;
      if (in.eof()) break;
    }
  }
  Scene s;
  s.units = units::agora();
  try {
    s.bodies.reserve(lines);
  } catch (const std::bad_alloc&) {
    fail(dir, ": ", lines, " lines: not enough memory for that many bodies");
  }
  Progress prog(opt, total, 4u << 20);
  std::size_t done = 0;
  std::string parts;
  bool have_dt = false, have_eps = false;
  // the files that hold bodies must record one run: a --force write leaves the files of
  // components it had no bodies of as they were (a file without bodies adds nothing)
  std::string ref_path;
  std::optional<AgoraHeader> ref;
  for (int k = 0; k < 4; ++k) {
    if (!want[k]) continue;
    const std::string path = (fs::path(dir) / kFiles[k].file).string();
    std::ifstream in;
    open_input(in, path);
    const std::size_t before = s.bodies.size();
    const auto header = read_agora_dat(in, path, kFiles[k].component, k == 3, s);
    if (s.bodies.size() > before) {
      if (!ref_path.empty()) {
        if (const std::string d = agora_header_difference(ref, header); !d.empty())
          fail(dir, ": ", fs::path(ref_path).filename().string(), " and ", kFiles[k].file,
               " are from different runs (", d,
               "): a --force write leaves the files of components it has no bodies of as they "
               "were; load the components of one run with --components");
      }
      // the first comment seen is the run's (files without one only had to agree with it)
      if (ref_path.empty() || (!ref && header)) {
        ref_path = path;
        ref = header;
        if (header) apply_agora_header(*header, s, have_dt, have_eps, opt);
      }
    }
    done += file_size(path);
    prog.fraction(double(done) / double(std::max<std::size_t>(total, 1)));
    parts += parts.empty() ? "" : "+";
    parts += kFiles[k].what;
  }
  prog.done();
  if (s.bodies.empty()) fail(dir, ": no bodies in the selected files (", parts, "): N = 0");
  shrink_to_fit(s.bodies);
  s.name = fs::path(dir).filename().string();
  if (s.name.empty()) s.name = fs::path(dir).parent_path().filename().string();
  s.description = "AGORA initial conditions " + dir + " (" + parts + ")";
  s.bodies.validate(dir);
  set_defaults(s, dir, opt, !have_dt, !have_eps, true);
  finish_scene(s, dir, opt);
  return s;
}

}  // namespace detail

namespace detail {

void check_agora_output(const std::string& dir, const SaveOptions& opt) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) fail(dir, ": ", os_error(errno));
    // a new directory: its parent must be writable
    const fs::path p(dir);
    const std::string parent =
        p.has_parent_path() && !p.parent_path().empty() ? p.parent_path().string() : ".";
    if (::access(parent.c_str(), W_OK | X_OK) != 0)
      fail(dir, ": cannot create the directory in ", parent, ": ", os_error(errno));
    return;
  }
  if (!S_ISDIR(st.st_mode))
    fail(dir, ": exists and is not a directory (an AGORA output is a directory)");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail(dir, ": ", os_error(errno));
  std::string found;
  std::error_code ec;
  for (const AgoraFile& f : kFiles)
    if (fs::exists(fs::path(dir) / f.file, ec))
      found += std::string(found.empty() ? "" : ", ") + f.file;
  if (!found.empty() && !opt.force)
    fail(dir, ": already holds AGORA files (", found,
         "); refusing to overwrite them (give --force to replace the files of the components "
         "written)");
}

}  // namespace detail

namespace {

// an exclusive flock on a directory, refused at once when another process holds it
class DirLock {
 public:
  explicit DirLock(const std::string& dir) {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) fail(dir, ": cannot open the directory: ", detail::os_error(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd_);
      if (err == EWOULDBLOCK)
        fail(dir, ": another process is writing AGORA files into this directory");
      fail(dir, ": cannot lock the directory: ", detail::os_error(err));
    }
  }
  ~DirLock() { ::close(fd_); }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

void write_agora(const std::string& dir, const Scene& s, const SaveOptions& opt) {
  // AGORA files are in kpc, km/s, 1e9 Msun
  const UnitSystem ag = units::agora();
  units::Conversion c;
  const bool same = s.units.name == ag.name && s.units.G == ag.G;
  if (!same) {
    if (!s.units.physical()) {
      fail(dir, ": cannot write AGORA files (kpc, km/s, 1e9 Msun) from dimensionless units '",
           s.units.name, "'; load with physical units (e.g. --input-units galactic)");
    }
    c = units::conversion(s.units, ag);
  }
  detail::check_agora_output(dir, opt);
  std::error_code ec;
  const bool existed = fs::is_directory(dir, ec);
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) fail(dir, ": cannot create directory (", ec.message(), ")");
  // one writer at a time: a lock on the directory itself, held to the end; the checks again
  // under it (another writer may have filled the directory meanwhile)
  const DirLock lock(dir);
  detail::check_agora_output(dir, opt);
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
  std::size_t count[4] = {};
  for (Component comp : b.component)
    ++count[file_of(comp)];
  // the comment line every file starts with (the reader takes dt, ε and the run from it)
  Scene rec = s;
  rec.units = same ? s.units : ag;
  rec.dt = s.dt * c.time;
  rec.softening = s.softening * c.length;
  std::optional<RunRecord> run = opt.run;
  if (run) run->time *= c.time;
  const std::string header = "# nbody agora v1" + detail::run_header(rec, run) + "\n";
  // every file is written and synced before any replaces its old one, so a failure (a full
  // disk) leaves the directory as it was instead of mixing old and new files
  std::vector<std::unique_ptr<detail::AtomicFile>> files;
  for (int k = 0; k < 4; ++k) {
    const std::string path = (fs::path(dir) / kFiles[k].file).string();
    if (count[k] == 0 && existed && fs::exists(path, ec)) {
      if (opt.notice)
        opt.notice(path + ": left as it was (the input has no " + kFiles[k].what + " bodies)");
      continue;
    }
    detail::AtomicFile& file = *files.emplace_back(std::make_unique<detail::AtomicFile>(path));
    std::ostream& out = file.stream();
    out << header;
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
    try {
      file.finish();
    } catch (const Error& e) {
      fail(e.what(), "; no file in ", dir, " was replaced");
    }
  }
  for (auto& f : files)
    f->commit();
}

namespace {

// a directory that holds at least one of the component files
Detection detect_agora(const Probe& p) {
  std::error_code ec;
  for (const AgoraFile& f : kFiles)
    if (fs::exists(fs::path(p.path) / f.file, ec)) return {Match::Signature, Format::Agora, {}};
  return {Match::None, Format::Agora,
          "directory has none of the AGORA files disk.dat, bulge.dat, halo.dat, gas.dat"};
}

Scene read_agora_dir(const std::string& path, Format, const LoadOptions& opt) {
  return detail::read_agora(path, opt);
}

void write_agora_dir(const Scene& s, const std::string& path, Format, const SaveOptions& opt) {
  write_agora(path, s, opt);
}

// AGORA files are in kpc, km/s, 1e9 Msun: dimensionless units cannot be converted
void check_agora_scene(const Scene& s, const std::string& path) {
  const UnitSystem ag = units::agora();
  const bool same = s.units.name == ag.name && s.units.G == ag.G;
  if (!same && !s.units.physical())
    fail(path, ": cannot write AGORA files (kpc, km/s, 1e9 Msun) from dimensionless units '",
         s.units.name, "'; load with physical units (e.g. --input-units galactic)");
}

// the components whose files are there
void select_all_agora(const std::string& path, LoadOptions& opt) {
  std::error_code ec;
  opt.agora_disk = fs::exists(fs::path(path) / "disk.dat", ec);
  opt.agora_bulge = fs::exists(fs::path(path) / "bulge.dat", ec);
  opt.agora_halo = fs::exists(fs::path(path) / "halo.dat", ec);
  opt.agora_gas = fs::exists(fs::path(path) / "gas.dat", ec);
}

}  // namespace

namespace detail {

const FormatRow& agora_format() {
  static const FormatRow row{
      .id = Format::Agora,
      .name = "agora",
      .aliases = {},
      .extensions = {},
      .label = "AGORA",
      .description =
          "AGORA initial conditions: a directory of disk.dat, bulge.dat, halo.dat, "
          "gas.dat in kpc, km/s, 1e9 Msun",
      .caps = {.units = true, .time = true, .run = true, .components = true, .directory = true},
      .detect = detect_agora,
      .read = read_agora_dir,
      .write = write_agora_dir,
      .check_target = check_agora_output,
      .check_scene = check_agora_scene,
      .select_all = select_all_agora,
  };
  return row;
}

}  // namespace detail

}  // namespace nbody::io
