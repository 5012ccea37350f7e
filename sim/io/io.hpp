#pragma once
// File formats: native CSV and binary, Tipsy (XDR big-endian, native little-endian, NVIDIA
// sample variant) and AGORA initial-condition directories. Every loader validates its input
// and throws nbody::Error naming the file and what is wrong; nothing is partially loaded.

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "sim/scene.hpp"

namespace nbody::io {

enum class Format {
  Csv,          ///< native CSV: header comment with units and G, then x,y,z,vx,vy,vz,m
  Binary,       ///< native little-endian binary
  TipsyXdr,     ///< Tipsy, standard big-endian XDR
  TipsyNative,  ///< Tipsy, little-endian
  TipsyNvidia,  ///< Tipsy as NVIDIA's nbody sample reads it (little-endian, phi holds an int id)
  Agora,        ///< AGORA directory: halo.dat, disk.dat, bulge.dat, gas.dat
};
const char* format_name(Format f);
/// "csv", "bin", "tipsy" (= XDR), "tipsy-xdr", "tipsy-native", "tipsy-nvidia", "agora";
/// throws nbody::Error naming `what` otherwise.
Format parse_format(const std::string& s, const std::string& what = "format");

struct LoadOptions {
  // Tipsy particle types to load
  bool tipsy_gas = false, tipsy_dark = false, tipsy_star = true;
  // AGORA components to load (default: the stars, disk + bulge)
  bool agora_disk = true, agora_bulge = true, agora_halo = false, agora_gas = false;
  /// Units of a Tipsy file (Tipsy stores none); default Hénon units (G = 1).
  std::optional<UnitSystem> tipsy_units;
  /// Convert the loaded bodies to these units (must be physical, or equal to the file's).
  std::optional<UnitSystem> target_units;
  /// Called with the fraction done (0..1) while reading large inputs; may be empty.
  std::function<void(double)> progress;
};

/// Detects the format of `path` from the directory layout, magic number, Tipsy header
/// (ndim 1..3 and file size) or extension; throws nbody::Error naming the file when unknown.
Format detect_format(const std::string& path);
/// Loads `path` (format detected) into a scene with the file's units, G and default dt/ε.
Scene load(const std::string& path, const LoadOptions& opt = {});
/// Loads with an explicit format.
Scene load(const std::string& path, Format f, const LoadOptions& opt = {});
/// Writes the scene's bodies in format `f` (for AGORA, `path` is a directory).
void save(const Scene& s, const std::string& path, Format f);

/// Parses native CSV text from a stream; `source` names it in error messages.
Scene read_csv(std::istream& in, const std::string& source);

/// Summary of a file for `nbody info`.
struct FileInfo {
  Format format;
  std::size_t n = 0, n_gas = 0, n_dark = 0, n_star = 0;  // n_star counts all stellar bodies
  double mass = 0;
  double min[3] = {0, 0, 0}, max[3] = {0, 0, 0};
  UnitSystem units;
  double time = 0;  ///< Tipsy header time (0 otherwise)
};
FileInfo info(const std::string& path, const LoadOptions& opt = {});
/// Human-readable multi-line summary.
std::string describe(const FileInfo& fi);

}  // namespace nbody::io
