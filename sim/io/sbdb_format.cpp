// JPL Small-Body Database Query API JSON as a file format (read only): the reader lives in
// sim/sky/sbdb.cpp; this is its row in the format table.

#include "sim/io/detail.hpp"
#include "sim/io/format_table.hpp"
#include "sim/sky/sbdb.hpp"

namespace nbody::io {

namespace {

// an object whose first kilobytes name "fields"
Detection detect_sbdb(const Probe& p) {
  if (!p.head.empty() && p.head.front() != '#' &&
      sky::looks_like_sbdb(p.head.data(), p.head.size()))
    return {Match::Signature, Format::Sbdb, {}};
  return {Match::None, Format::Sbdb, "not JPL SBDB JSON (no object with \"fields\")"};
}

Scene read_sbdb_scene(const std::string& path, Format, const LoadOptions& opt) {
  Scene s = sky::sbdb_scene(sky::read_sbdb_file(path), path, opt.notice);
  detail::finish_scene(s, path, opt);
  return s;
}

}  // namespace

namespace detail {

const FormatRow& sbdb_format() {
  static const FormatRow row{
      .id = Format::Sbdb,
      .name = "sbdb",
      .aliases = {"jpl-sbdb"},
      .extensions = {".json"},
      .label = "JPL SBDB JSON",
      .description =
          "JPL Small-Body Database query result (orbital elements; read only): the "
          "Sun and the bodies at the file's epoch",
      .caps = {.names = true, .units = true},
      .detect = detect_sbdb,
      .read = read_sbdb_scene,
  };
  return row;
}

}  // namespace detail

}  // namespace nbody::io
