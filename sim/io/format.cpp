// Load and save through the format table, the checks before a write, and file summaries.

#include <algorithm>
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
#include "sim/io/format_table.hpp"

namespace nbody::io {

namespace fs = std::filesystem;

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

Scene load(const std::string& path, const LoadOptions& opt) {
  detail::require_exists(path);
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    // a directory: the directory format reads it and says what is missing
    for (const FormatRow* r : format_table())
      if (r->caps.directory) return load(path, r->id, opt);
  }
  // detected from the first bytes and the size, then streamed: never the whole file in memory
  return load(path, detect_format(path), opt);
}

Scene load(const std::string& path, Format f, const LoadOptions& opt) {
  const FormatRow& row = format_row(f);
  // options a person gave that would do nothing with this format
  if (opt.components_given && !row.caps.components)
    fail(path, ": --components chooses the components of ", format_labels(&FormatCaps::components),
         " files; a ", row.name, " file has none to choose");
  if (opt.input_units_given && row.caps.units)
    fail(path, ": --input-units applies to files that store no units (possible for ",
         format_labels(&FormatCaps::units, false), "); a ", row.name, " file states its own");
  if (!row.read) fail(path, ": ", row.label, " is an output format only");
  try {
    return row.read(path, f, opt);
  } catch (const std::bad_alloc&) {
    fail(path, ": not enough memory to load it");
  }
}

void check_output(const std::string& path, Format f, const SaveOptions& opt) {
  const FormatRow& row = format_row(f);
  if (!row.writable())
    fail(path, ": ", row.label, " is an input format only (write ", writable_format_list(), ")");
  if (path == "-") {
    if (f != Format::Csv)
      fail("-: standard output takes CSV only (", row.name, " is a file format)");
    return;
  }
  if (row.check_target)
    row.check_target(path, opt);
  else
    detail::resolve_output(path);
}

void check_scene_output(const Scene& s, const std::string& path, Format f) {
  // what a format cannot hold is found here, before a run, not when writing after it
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
  // what this format cannot hold (names, labels, units)
  const FormatRow& row = format_row(f);
  if (row.check_scene) row.check_scene(s, path);
  // rigid halos are our own: only a native format's header holds them; others would drop them
  const std::size_t h = s.bodies.halos.size();
  if (h > 0 && !row.caps.rigid_halos) {
    std::string ext;
    for (const FormatRow* r : format_table())
      if (r->caps.rigid_halos && ext.empty() && !r->extensions.empty()) ext = r->extensions[0];
    fail(path, ": the scene has ", h, h > 1 ? " rigid halos" : " rigid halo",
         ", which only the native ", format_labels(&FormatCaps::rigid_halos), " format stores (",
         row.name, " would lose them): write ", ext, ", or use the scene's live halo");
  }
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
  format_row(f).write(s, path, f, opt);
}

FileInfo info(const std::string& path, const LoadOptions& opt) {
  FileInfo fi;
  fi.path = path;
  fi.format = detect_format(path);
  // load everything the file holds
  LoadOptions all = opt;
  const FormatRow& row = format_row(fi.format);
  if (row.select_all) row.select_all(path, all);
  RunRecord run;
  run.steps = -1;
  all.run = &run;
  Scene s = load(path, fi.format, all);
  fi.time = run.time;
  if (run.steps >= 0 && row.caps.run && (run.steps > 0 || !run.kernel.empty())) fi.run = run;
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
  // a format that holds the time but no run record: the time alone
  const FormatRow& row = format_row(fi.format);
  if (row.caps.time && !row.caps.run)
    os << "time:       " << fi.time << " (" << row.label << " header)\n";
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
