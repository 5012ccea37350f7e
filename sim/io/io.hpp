#pragma once
// File formats: native CSV and binary, Tipsy (XDR big-endian, native little-endian, NVIDIA
// sample variant) and AGORA initial-condition directories. Every loader validates its input
// and throws nbody::Error naming the file and what is wrong; nothing is partially loaded.

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/scene.hpp"

namespace nbody::io {

/// The formats; each has one row in the format table (sim/io/format_table.hpp), which says
/// its names, extensions, capabilities, detection, reader and writer.
enum class Format {
  Csv,          ///< native CSV: header comment with units and G, then x,y,z,vx,vy,vz,m
  Binary,       ///< native little-endian binary
  TipsyXdr,     ///< Tipsy, standard big-endian XDR
  TipsyNative,  ///< Tipsy, little-endian
  TipsyNvidia,  ///< Tipsy as NVIDIA's nbody sample reads it (little-endian, phi holds an int id)
  Agora,        ///< AGORA directory: halo.dat, disk.dat, bulge.dat, gas.dat
  Sbdb,         ///< JPL Small-Body Database Query API JSON (read only; see sim/sky/sbdb.hpp)
};
/// The row's canonical name: "csv", "bin", "tipsy-xdr", ...
const char* format_name(Format f);
/// A name or alias of a row of the format table, any case ("tipsy" = "tipsy-xdr"); throws
/// nbody::Error naming `what` and listing the names otherwise.
Format parse_format(const std::string& s, const std::string& what = "format");

/// What a run was: written into every file that can hold it (CSV and binary headers, an AGORA
/// comment line, the Tipsy header's time), read back by the loaders.
struct RunRecord {
  double time = 0;         ///< elapsed time in the scene's time unit
  long long steps = 0;     ///< steps done
  std::string kernel;      ///< force kernel, e.g. "cpu-symmetric"
  std::string integrator;  ///< e.g. "leapfrog-kdk"; "+1pn" appended with the 1PN term
  // the rest of a saved state (save_state()); empty in files written before it existed
  std::string precision;  ///< "float" or "double"; empty: not recorded
  int gpus = 1;           ///< GPUs a GPU kernel ran on (0: every device)
  /// The kernel's tunables by key (KernelChoice::tunables); keys are [A-Za-z0-9_.-].
  std::map<std::string, double> tunables;
  /// Opaque to sim/: what the window shows (its camera: target, distance, yaw, pitch, follow).
  std::map<std::string, double> view;
  /// True when any of the saved-state fields above is set (written only then).
  bool has_state() const {
    return !precision.empty() || gpus != 1 || !tunables.empty() || !view.empty();
  }
};

struct LoadOptions {
  // Tipsy particle types to load
  bool tipsy_gas = false, tipsy_dark = false, tipsy_star = true;
  // AGORA components to load (default: the stars, disk + bulge)
  bool agora_disk = true, agora_bulge = true, agora_halo = false, agora_gas = false;
  /// Units of a file that stores none (Tipsy, plain CSV); default Hénon units (G = 1).
  std::optional<UnitSystem> input_units;
  /// Convert the loaded bodies to these units (must be physical, or equal to the file's).
  std::optional<UnitSystem> target_units;
  /// Called with the fraction done (0..1) while reading large inputs; may be empty.
  std::function<void(double)> progress;
  /// One-line notices (e.g. the units assumed for a plain CSV); may be empty.
  std::function<void(const std::string&)> notice;
  /// False when the caller sets dt / ε itself (--dt, --softening): a guess that fails is then
  /// left as it is instead of being an error.
  bool need_dt = true, need_softening = true;
  /// Filled with the run a file records (CSV, binary, AGORA headers; Tipsy: time), if not null.
  RunRecord* run = nullptr;
  /// Set when a person gave input_units or chose the components (--input-units, --components):
  /// a file that states its own units, or has no components to choose, is then an error naming
  /// the option instead of the option doing nothing.
  bool input_units_given = false, components_given = false;
};

struct SaveOptions {
  /// Allow replacing an existing AGORA directory (files of components the scene has no bodies
  /// of are left as they are).
  bool force = false;
  /// The run to record (absent: none recorded).
  std::optional<RunRecord> run;
  /// One-line notices: what the format cannot hold, files left as they were; may be empty.
  std::function<void(const std::string&)> notice;
};

/// Detects the format of `path` with the rows' detect functions (a directory layout, magic
/// number or header line; a Tipsy header that fits the size; a column header or a .csv name; the
/// strongest match wins); throws nbody::Error naming the file and why each format did not fit.
Format detect_format(const std::string& path);
/// Loads `path` (format detected) into a scene with the file's units, G and default dt/ε.
Scene load(const std::string& path, const LoadOptions& opt = {});
/// Loads with an explicit format.
Scene load(const std::string& path, Format f, const LoadOptions& opt = {});
/// Writes the scene's bodies in format `f` (for AGORA, `path` is a directory). A regular file is
/// replaced atomically keeping its mode, a symlink is written through; devices, FIFOs and
/// directories are refused; "-" writes CSV to standard output. Units, G, dt, ε and opt.run are
/// recorded where the format can hold them (opt.notice says what it cannot).
void save(const Scene& s, const std::string& path, Format f, const SaveOptions& opt = {});
/// Checks before any work that `path` can be written as `f` (the same checks as save(): file
/// type, directory writable, AGORA directory not replaced without opt.force); throws
/// nbody::Error naming the path and the reason.
void check_output(const std::string& path, Format f, const SaveOptions& opt = {});
/// Checks that format `f` can hold everything of `s` that matters (rigid halos: CSV only);
/// throws nbody::Error naming `path` and what would be lost. save() calls it; a command calls it
/// before a long run.
void check_scene_output(const Scene& s, const std::string& path, Format f);
/// The one safe writer every output goes through (save() uses it; frames, summaries and other
/// files of the commands too): `fill` writes into a unique temporary file next to `path`, which
/// replaces `path` atomically, keeping its mode, only when everything was written and synced
/// (a symlink is written through, a directory, device or FIFO refused). Throws nbody::Error
/// naming `path` and the reason (the OS's, e.g. "No space left on device"); nothing is left
/// behind on failure.
void write_file(const std::string& path, const std::function<void(std::ostream&)>& fill);
/// Writes `bytes` to `path` through write_file().
void write_file(const std::string& path, std::string_view bytes);
/// Removes the temporary files of writes in progress. Async-signal-safe: for SIGINT/SIGTERM
/// handlers, which then re-raise the signal.
void remove_temp_files() noexcept;

/// A whole state: the bodies as they are now (with dt, ε and G of the run in the scene) and
/// everything about the run that restores it (RunRecord).
struct SavedState {
  Scene scene;
  RunRecord run;
};
/// Writes `current` and `run` to `path` in the native format its extension names (.csv or
/// .bin/.nbody), atomically through write_file(); throws nbody::Error naming the path when the
/// extension names another format or none.
void save_state(const std::string& path, const Scene& current, const RunRecord& run);
/// Reads a file written by save_state() (or any native CSV/binary file: what it does not record
/// keeps RunRecord's defaults). Throws nbody::Error naming the file.
SavedState load_state(const std::string& path, const LoadOptions& opt = {});

/// Parses native CSV text from a stream; `source` names it in error messages.
Scene read_csv(std::istream& in, const std::string& source);

// lower-level readers and writers: `source` names the input in error messages; readers
// validate everything, apply opt.target_units and never return partial data

/// Parses native CSV text and applies `opt` (target units).
Scene read_csv(std::istream& in, const std::string& source, const LoadOptions& opt);
/// Writes native CSV: the header comment with units, G, dt, ε, then one row per body.
void write_csv(std::ostream& out, const Scene& s, const std::optional<RunRecord>& run = {});
/// Parses a native binary file held in memory.
Scene read_binary(const void* data, std::size_t size, const std::string& source,
                  const LoadOptions& opt = {});
/// Writes the native little-endian binary format.
void write_binary(std::ostream& out, const Scene& s, const std::optional<RunRecord>& run = {});

/// A Tipsy header as found in a file: byte order, header size and counts.
struct TipsyHeader {
  Format format = Format::TipsyXdr;  ///< TipsyXdr (big-endian), TipsyNative or TipsyNvidia
  bool padded = true;                ///< 32-byte header (4-byte pad after nstar) or 28-byte
  double time = 0;
  std::size_t nbodies = 0, ndim = 3, nsph = 0, ndark = 0, nstar = 0;
  std::size_t header_bytes() const { return padded ? 32 : 28; }
};
/// Finds the Tipsy layout of `size` bytes at `data`: byte order and padding are detected from
/// ndim (1..3), the counts and the size; an explicit `f` (TipsyXdr, TipsyNative, TipsyNvidia)
/// fixes the byte order. The NVIDIA variant is recognised when every dark/star `phi` holds a
/// small non-negative integer id. Throws nbody::Error naming `source` and the problem.
TipsyHeader read_tipsy_header(const void* data, std::size_t size, const std::string& source,
                              std::optional<Format> f = {});
/// Parses a Tipsy file held in memory (types chosen by opt.tipsy_gas/dark/star, units by
/// opt.tipsy_units, default Hénon); `f` as for read_tipsy_header.
Scene read_tipsy(const void* data, std::size_t size, const std::string& source,
                 const LoadOptions& opt = {}, std::optional<Format> f = {});
/// Writes Tipsy (gas, dark, star records; Gas -> gas, Dark -> dark, the rest -> star) in the
/// byte order of `f`; `padded` selects the 32-byte header. Values are stored as float.
void write_tipsy(std::ostream& out, const Scene& s, Format f, bool padded = true, double time = 0);
/// Writes an AGORA directory (created if needed): disk.dat (Disk, Star, Planet), bulge.dat,
/// halo.dat (Dark), gas.dat (Gas, u = 0), in kpc, km/s, 1e9 Msun, each file atomically, each
/// starting with a '# nbody agora ...' comment recording G, dt, ε and the run. A directory that
/// already holds AGORA files is refused unless opt.force; with it, files of components the
/// scene has no bodies of are left as they are. In a new directory all four files are written
/// (empty when there are no bodies of that kind; the reader accepts empty files).
void write_agora(const std::string& dir, const Scene& s, const SaveOptions& opt = {});

/// Sets the Tipsy and AGORA selections from names: disk, bulge, halo (= dark), gas, star
/// (= Tipsy stars and AGORA disk + bulge), dark, all. Throws nbody::Error naming `what`.
void select_components(LoadOptions& opt, const std::vector<std::string>& names,
                       const std::string& what = "--components");
/// Every extension of the format table (lower case, with the dot) and the first row listing it:
/// .csv, .bin/.nbody, .tipsy/.std, .json (an SBDB query result); AGORA is a directory.
const std::vector<std::pair<std::string, Format>>& extension_table();
/// The writable format a file name's extension implies (.csv, .bin/.nbody, .tipsy/.std), if any;
/// an input-only format (.json) is found by its contents only.
std::optional<Format> format_from_extension(const std::string& path);

/// Summary of a file for `nbody info`.
struct FileInfo {
  Format format;
  std::size_t n = 0, n_gas = 0, n_dark = 0, n_star = 0;  // n_star counts all stellar bodies
  double mass = 0;
  double min[3] = {0, 0, 0}, max[3] = {0, 0, 0};
  UnitSystem units;
  double time = 0;                          ///< Tipsy header time (0 otherwise)
  std::string path;                         ///< the file or directory described
  std::size_t count[kComponentCount] = {};  ///< bodies per Component
  double dt = 0, softening = 0;             ///< the scene defaults the file gives
  std::optional<RunRecord> run;             ///< the run the file records, if any
};
FileInfo info(const std::string& path, const LoadOptions& opt = {});
/// Human-readable multi-line summary.
std::string describe(const FileInfo& fi);

}  // namespace nbody::io
