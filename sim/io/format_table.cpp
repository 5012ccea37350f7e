// The table of file formats and what reads it directly: names, extensions and detection.
// Each row is defined in its format's own file; adding a format adds one line below.

#include "sim/io/format_table.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"

namespace nbody::io {

namespace detail {
// the rows, each defined in its format's file
const FormatRow& csv_format();
const FormatRow& binary_format();
const FormatRow& tipsy_xdr_format();
const FormatRow& tipsy_native_format();
const FormatRow& tipsy_nvidia_format();
const FormatRow& agora_format();
const FormatRow& sbdb_format();
}  // namespace detail

namespace fs = std::filesystem;

namespace {

std::string lower(std::string_view s) {
  std::string l(s);
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
  return l;
}

// "a, b and c"
std::string join_and(const std::vector<std::string>& items, const char* last = " and ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last : ", ";
    out += items[i];
  }
  return out;
}

// the message when no row recognised a file or directory
[[noreturn]] void unknown_format(const Probe& p, const std::vector<Detection>& misses) {
  // an extension that names only one format: that format's problem is the whole story
  if (auto f = format_from_extension(p.path); f && format_row(*f).caps.own_extensions) {
    for (const Detection& d : misses)
      if (d.format == *f && !d.why_not.empty()) fail(p.path, ": ", d.why_not);
  }
  std::vector<std::string> reasons;
  for (const Detection& d : misses)
    if (!d.why_not.empty()) reasons.push_back(d.why_not);
  if (p.directory) fail(p.path, ": ", join_and(reasons, "; "));
  fail(p.path, ": unknown file format: ", join_and(reasons, ", and "));
}

}  // namespace

const std::vector<const FormatRow*>& format_table() {
  // one line per format; the order is the order of help texts and of ties in detection
  static const std::vector<const FormatRow*> table = {
      &detail::csv_format(),          &detail::binary_format(),       &detail::tipsy_xdr_format(),
      &detail::tipsy_native_format(), &detail::tipsy_nvidia_format(), &detail::agora_format(),
      &detail::sbdb_format(),
  };
  return table;
}

const FormatRow& format_row(Format f) {
  for (const FormatRow* r : format_table())
    if (r->id == f) return *r;
  fail("format ", static_cast<int>(f), " has no row in the format table");
}

const FormatRow* find_format(std::string_view name) {
  const std::string l = lower(name);
  for (const FormatRow* r : format_table()) {
    if (l == r->name) return r;
    for (const std::string& a : r->aliases)
      if (l == a) return r;
  }
  return nullptr;
}

const char* format_name(Format f) {
  return format_row(f).name;
}

Format parse_format(const std::string& s, const std::string& what) {
  if (const FormatRow* r = find_format(s)) return r->id;
  std::vector<std::string> names;
  for (const FormatRow* r : format_table())
    names.emplace_back(r->name);
  fail(what, ": unknown format '", s, "' (expected ", join_and(names, " or "), ")");
}

std::vector<std::string> format_choices(bool writable_only) {
  std::vector<std::string> out;
  for (const FormatRow* r : format_table()) {
    if (writable_only && !r->writable()) continue;
    out.emplace_back(r->name);
    out.insert(out.end(), r->aliases.begin(), r->aliases.end());
  }
  return out;
}

std::string format_help(bool writable_only) {
  std::string out;
  for (const FormatRow* r : format_table()) {
    if (writable_only && !r->writable()) continue;
    out += "\n  ";
    out += r->name;
    if (!r->aliases.empty()) out += " (= " + join_and(r->aliases, ", ") + ")";
    out += ": ";
    out += r->description;
  }
  return out;
}

std::string writable_format_list() {
  std::vector<std::string> names;
  for (const FormatRow* r : format_table())
    if (r->writable()) names.emplace_back(r->name);
  return join_and(names, " or ");
}

std::string readable_label_list() {
  std::vector<std::string> labels;
  for (const FormatRow* r : format_table())
    if (r->read && std::find(labels.begin(), labels.end(), r->label) == labels.end())
      labels.emplace_back(r->label);
  return join_and(labels, ", ");
}

std::string format_labels(bool FormatCaps::*cap, bool value) {
  std::vector<std::string> labels;
  for (const FormatRow* r : format_table())
    if (r->caps.*cap == value && std::find(labels.begin(), labels.end(), r->label) == labels.end())
      labels.emplace_back(r->label);
  return join_and(labels);
}

std::string extension_help() {
  std::vector<std::string> by_ext, without;
  for (const FormatRow* r : format_table()) {
    if (!r->writable()) continue;
    // an extension belongs to the first writable row that lists it
    std::vector<std::string> own;
    for (const std::string& e : r->extensions)
      if (format_from_extension("x" + e) == r->id) own.push_back(e);
    if (own.empty()) {
      without.emplace_back(r->name);
      continue;
    }
    std::string ext;
    for (const std::string& e : own)
      ext += (ext.empty() ? "" : "/") + e;
    by_ext.push_back(ext + " -> " + r->name);
  }
  std::string out = join_and(by_ext, ", ");
  if (!without.empty()) out += "; " + join_and(without) + " have no extension";
  return out;
}

const std::vector<std::pair<std::string, Format>>& extension_table() {
  static const std::vector<std::pair<std::string, Format>> table = [] {
    std::vector<std::pair<std::string, Format>> t;
    for (const FormatRow* r : format_table())
      for (const std::string& e : r->extensions)
        if (std::none_of(t.begin(), t.end(), [&](const auto& p) { return p.first == e; }))
          t.emplace_back(e, r->id);
    return t;
  }();
  return table;
}

std::optional<Format> format_from_extension(const std::string& path) {
  const std::string ext = lower(fs::path(path).extension().string());
  // an input-only format (.json: SBDB) is recognised by its content, never implied by a name
  for (const auto& [e, f] : extension_table())
    if (ext == e && format_row(f).writable()) return f;
  return std::nullopt;
}

const FormatRow* directory_format(const std::string& path) {
  Probe p;
  p.path = path;
  p.directory = true;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return nullptr;
  for (const FormatRow* r : format_table())
    if (r->caps.directory && r->detect && r->detect(p).match != Match::None) return r;
  return nullptr;
}

Format detect_format(const std::string& path) {
  detail::require_exists(path);
  Probe p;
  p.path = path;
  std::error_code ec;
  p.directory = fs::is_directory(path, ec);
  // a file: its first bytes, read once; the rest stays on disk
  std::optional<detail::FileSource> file;
  std::string head;
  if (!p.directory) {
    file.emplace(path);
    head.resize(std::min(file->size(), Probe::kProbeBytes));
    file->read(0, head.data(), head.size());
    p.src = &*file;
    p.head = head;
  }
  Detection best;
  std::vector<Detection> misses;
  for (const FormatRow* r : format_table()) {
    if (!r->detect || r->caps.directory != p.directory) continue;
    Detection d = r->detect(p);
    if (d.match == Match::None) {
      d.format = r->id;
      misses.push_back(std::move(d));
      continue;
    }
    if (d.match > best.match) best = std::move(d);
    if (best.match == Match::Signature) break;
  }
  if (best.match != Match::None) return best.format;
  unknown_format(p, misses);
}

}  // namespace nbody::io
