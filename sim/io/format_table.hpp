#pragma once
// The file formats as a table: one FormatRow per format, defined in the format's own file
// (csv.cpp, binary.cpp, tipsy.cpp, agora.cpp, sbdb_format.cpp) and gathered in
// format_table.cpp. Detection, load, save, `nbody info`, the command line's format names, help
// texts and error messages, and the window's file dialogs all read this table: a new format is
// its own file, one Format enumerator and one line in format_table.cpp.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/io.hpp"

namespace nbody::io {

namespace detail {
class ByteSource;
}

/// What detection looks at: the path, and for a file its bytes.
struct Probe {
  std::string path;
  bool directory = false;
  const detail::ByteSource* src = nullptr;  ///< the file (null for a directory)
  std::string_view head;                    ///< its first bytes (at most kProbeBytes)
  static constexpr std::size_t kProbeBytes = 8192;
};

/// How sure a detection is. The strongest match wins (ties: the earlier row); detection stops at
/// the first Signature.
enum class Match {
  None,
  Text,       ///< a plausible text layout (a plain CSV's column header, a .csv name)
  Layout,     ///< a binary layout that fits the counts and the size (Tipsy)
  Signature,  ///< a magic number or header line, or an AGORA directory
};

/// One row's verdict on a probe.
struct Detection {
  Match match = Match::None;
  Format format = Format::Csv;  ///< the format found (a family's row may find a sibling)
  std::string why_not;          ///< when None: "not <format> (<reason>)", for the error message
};

/// What a format can hold and do; the commands and dialogs decide from these, never from names.
struct FormatCaps {
  bool velocities = true;          ///< holds velocities
  bool masses = true;              ///< holds masses
  bool names = false;              ///< holds body names
  bool units = false;              ///< states its own units and G (else --input-units applies)
  bool time = false;               ///< holds the time of the snapshot
  bool run = false;                ///< records the run: steps, kernel, integrator, dt, ε
  bool saved_state = false;        ///< can hold a whole saved state (the window's Save state)
  bool rigid_halos = false;        ///< holds rigid halos
  bool components = false;         ///< has components that --components chooses
  bool several_snapshots = false;  ///< holds several snapshots in one file (none does yet)
  bool directory = false;          ///< is a directory of files, not one file
  bool own_extensions = false;     ///< its extensions name only it: a file with one that does not
                                   ///< look like it is reported as a broken file of it
};

/// One file format.
struct FormatRow {
  Format id;
  const char* name;                     ///< canonical name: --to, --from, --format, `info`
  std::vector<std::string> aliases;     ///< other accepted names (any case)
  std::vector<std::string> extensions;  ///< lower case with the dot; the first is the usual one
  const char* label;                    ///< short name for messages and dialogs ("Tipsy")
  const char* description;              ///< one line for help texts
  FormatCaps caps;
  /// Looks at a probe; null: the row is found by a sibling's detection (Tipsy byte orders).
  Detection (*detect)(const Probe& p) = nullptr;
  /// Reads `path` as format `f` (this row's id); throws nbody::Error naming the path.
  Scene (*read)(const std::string& path, Format f, const LoadOptions& opt) = nullptr;
  /// Writes `s` to `path` (already checked); null: an input format only.
  void (*write)(const Scene& s, const std::string& path, Format f,
                const SaveOptions& opt) = nullptr;
  /// Checks the output path before any work; null: a regular file (detail::resolve_output).
  void (*check_target)(const std::string& path, const SaveOptions& opt) = nullptr;
  /// Checks that the format can hold `s` (names, labels, units); null: nothing to check.
  void (*check_scene)(const Scene& s, const std::string& path) = nullptr;
  /// Selects every component `path` holds (for `info`); null: the format has none.
  void (*select_all)(const std::string& path, LoadOptions& opt) = nullptr;

  bool writable() const { return write != nullptr; }
};

/// Every format, in the order help texts list them.
const std::vector<const FormatRow*>& format_table();
/// The row of `f`.
const FormatRow& format_row(Format f);
/// The row a name or alias (any case) names; null when none.
const FormatRow* find_format(std::string_view name);
/// The directory format (AGORA) that reads directory `path`; null when none does (a plain
/// folder, or not a directory).
const FormatRow* directory_format(const std::string& path);
/// Every accepted name and alias (lower case) of the readable formats, or of the writable ones:
/// the choices of --from, --to and --format.
std::vector<std::string> format_choices(bool writable_only);
/// "csv | bin (= binary, nbody) | ...: description" lines, one per format, for --help.
std::string format_help(bool writable_only);
/// The canonical names of the writable formats as "csv, bin, ... or agora".
std::string writable_format_list();
/// "CSV, native binary, Tipsy, AGORA ...": the distinct labels of the readable formats.
std::string readable_label_list();
/// "Tipsy and AGORA": the distinct labels of the rows whose capability `cap` is `value`.
std::string format_labels(bool FormatCaps::*cap, bool value = true);
/// "csv -> csv, .bin/.nbody -> bin, ..." and the writable formats with no extension: what an
/// output name's extension means.
std::string extension_help();

}  // namespace nbody::io
