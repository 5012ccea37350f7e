// Native CSV: "# nbody csv v1 key=value ..." header (units, SI scales, G, dt, ε), an optional
// column header, then rows x,y,z,vx,vy,vz,m[,component[,name]].

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <fstream>
#include <istream>
#include <map>
#include <ostream>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"
#include "sim/io/format_table.hpp"

namespace nbody::io {

namespace {

constexpr std::string_view kMagic = "# nbody csv";
constexpr int kNumeric = 7;  // x y z vx vy vz m
constexpr int kColumnCount = 9;
constexpr const char* kColumns[kColumnCount] = {"x",  "y", "z",         "vx",  "vy",
                                                "vz", "m", "component", "name"};
// every key the '# nbody csv' header may hold
constexpr const char* kHeaderKeys[] = {
    "units",     "length",  "mass",     "time",   "velocity",   "length_m",
    "mass_kg",   "time_s",  "G",        "dt",     "softening",  "camera",
    "name",      "elapsed", "steps",    "kernel", "integrator", "halos",
    "precision", "gpus",    "tunables", "view",   "camera_yaw", "camera_pitch"};

// rigid halos as "profile:mass:scale:cut:anchor" separated by ';' (anchor: body row from 0)
std::string format_halos(const std::vector<RigidHalo>& halos) {
  std::string v;
  for (const RigidHalo& h : halos) {
    if (!v.empty()) v += ';';
    v += std::string(halo_profile_name(h.profile)) + ':' + detail::format_double(h.mass) + ':' +
         detail::format_double(h.scale) + ':' + detail::format_double(h.cut) + ':' +
         std::to_string(h.anchor);
  }
  return v;
}

std::vector<RigidHalo> parse_halos(const std::string& v, const std::string& where) {
  std::vector<RigidHalo> out;
  std::size_t start = 0;
  while (start <= v.size()) {
    const std::size_t end = std::min(v.find(';', start), v.size());
    const std::string item = v.substr(start, end - start);
    std::vector<std::string> f;
    for (std::size_t a = 0;;) {
      const std::size_t b = item.find(':', a);
      f.push_back(item.substr(a, b == std::string::npos ? std::string::npos : b - a));
      if (b == std::string::npos) break;
      a = b + 1;
    }
    const std::string what =
        where + ": header halos=" + detail::quote(v) + ", halo " + std::to_string(out.size() + 1);
    if (f.size() != 5)
      fail(what, ": expected profile:mass:scale:cut:anchor (e.g. hernquist:20:10:30:0)");
    RigidHalo h;
    h.profile = parse_halo_profile(f[0], what + " profile");
    double anchor = 0;
    if (!detail::parse_double(f[1], h.mass) || !detail::parse_double(f[2], h.scale) ||
        !detail::parse_double(f[3], h.cut) || !detail::parse_double(f[4], anchor) || anchor < 0 ||
        anchor > 4294967295.0 || anchor != std::floor(anchor))
      fail(what, ": mass, scale, cut must be numbers and anchor a row index");
    h.anchor = static_cast<std::uint32_t>(anchor);
    out.push_back(h);
    start = end + 1;
  }
  return out;
}

// a name field, quoted when it holds commas or quotes or starts or ends with a blank (which
// the reader trims from unquoted fields)
std::string quote_field(const std::string& v) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  if (v.find_first_of(",\"") == std::string::npos &&
      (v.empty() || (!blank(v.front()) && !blank(v.back()))))
    return v;
  std::string q = "\"";
  for (char c : v) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// splits a row at commas; a field may be quoted ("a, b" with "" for a quote). Quoted fields are
// unescaped into `store`, a deque so that adding one never moves those `f` already points into;
// false on an unterminated quote.
bool split_row(std::string_view line, std::vector<std::string_view>& f,
               std::deque<std::string>& store, std::vector<char>& was_quoted) {
  f.clear();
  was_quoted.clear();
  std::size_t used = 0, i = 0;
  while (true) {
    std::size_t j = i;
    while (j < line.size() && (line[j] == ' ' || line[j] == '\t'))
      ++j;
    if (j < line.size() && line[j] == '"') {
      if (used == store.size()) store.emplace_back();
      std::string& q = store[used++];
      q.clear();
      std::size_t k = j + 1;
      bool closed = false;
      while (k < line.size()) {
        if (line[k] == '"') {
          if (k + 1 < line.size() && line[k + 1] == '"') {
            q += '"';
            k += 2;
            continue;
          }
          closed = true;
          ++k;
          break;
        }
        q += line[k++];
      }
      if (!closed) return false;
      while (k < line.size() && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r'))
        ++k;
      f.push_back(q);
      was_quoted.push_back(1);
      if (k >= line.size()) return true;
      if (line[k] != ',') return false;
      i = k + 1;
      continue;
    }
    const std::size_t c = line.find(',', i);
    if (c == std::string_view::npos) {
      f.push_back(line.substr(i));
      was_quoted.push_back(0);
      return true;
    }
    f.push_back(line.substr(i, c - i));
    was_quoted.push_back(0);
    i = c + 1;
  }
}

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(a[k])) !=
        std::tolower(static_cast<unsigned char>(b[k])))
      return false;
  return true;
}

int column_index(std::string_view name) {
  for (int k = 0; k < kColumnCount; ++k)
    if (iequal(trim(name), kColumns[k])) return k;
  return -1;
}

// the column header: which field holds which column; throws on unknown, duplicate or missing
void parse_column_header(const std::vector<std::string_view>& f, std::vector<int>& col,
                         const std::string& where) {
  col.assign(f.size(), -1);
  int seen[kColumnCount];
  std::fill(seen, seen + kColumnCount, -1);
  for (std::size_t k = 0; k < f.size(); ++k) {
    const int c = column_index(f[k]);
    if (c < 0)
      fail(where, ": column ", k + 1, " is named ", detail::quote(trim(f[k])),
           "; the columns are x, y, z, vx, vy, vz, m and optionally component and name (any "
           "order, any case)");
    if (seen[c] >= 0)
      fail(where, ": column '", kColumns[c], "' appears twice (columns ", seen[c] + 1, " and ",
           k + 1, ")");
    seen[c] = int(k);
    col[k] = c;
  }
  for (int c = 0; c < kNumeric; ++c)
    if (seen[c] < 0)
      fail(where, ": the column header has no '", kColumns[c],
           "' column (needed: x, y, z, vx, vy, vz, m)");
}

UnitSystem units_from_header(const std::map<std::string, std::string>& kv,
                             const std::string& where) {
  UnitSystem u;
  auto get = [&](const char* k) -> const std::string* {
    auto it = kv.find(k);
    return it == kv.end() ? nullptr : &it->second;
  };
  auto number = [&](const char* k, double& out) {
    if (const std::string* v = get(k)) {
      if (!detail::parse_double(*v, out) || !std::isfinite(out)) {
        fail(where, ": header value ", k, "=", detail::quote(*v), " is not a finite number");
      }
      return true;
    }
    return false;
  };
  const std::string* id = get("units");
  if (!id) fail(where, ": header states no unit system (units=...)");
  bool known = false;
  for (const char* k : {"solar", "galactic", "agora", "henon"}) {
    if (*id == k) {
      u = units::by_name(*id);
      known = true;
    }
  }
  const double named_G = u.G;
  if (!known) u.name = *id;
  if (const std::string* v = get("length")) u.length = *v;
  if (const std::string* v = get("mass")) u.mass = *v;
  if (const std::string* v = get("time")) u.time = *v;
  if (const std::string* v = get("velocity")) u.velocity = *v;
  number("length_m", u.length_m);
  number("mass_kg", u.mass_kg);
  number("time_s", u.time_s);
  const bool have_G = number("G", u.G);
  if (!have_G && !known) fail(where, ": header states no G for units ", detail::quote(*id));
  if (!known) {
    // other units state everything: their labels and SI scales (0: not physical)
    for (const char* k : {"length", "mass", "time", "velocity", "length_m", "mass_kg", "time_s"})
      if (!get(k))
        fail(where, ": header says units=", detail::quote(*id), " but gives no ", k,
             "=... (units other than henon, solar, galactic and agora need length, mass, time, "
             "velocity, length_m, mass_kg, time_s and G)");
  }
  if (!(u.G > 0)) fail(where, ": header G=", u.G, " must be positive");
  if (known && have_G && std::fabs(u.G - named_G) > 1e-12 * named_G)
    fail(where, ": header says units=", *id, " (G = ", detail::format_double(named_G),
         ") but G=", detail::format_double(u.G),
         "; a file with another G names its units 'custom'");
  if (u.length_m < 0 || u.mass_kg < 0 || u.time_s < 0) {
    fail(where, ": header unit scales must not be negative");
  }
  return u;
}

// true when the line is a column header (its first field names a column, quoted or not: R's
// write.csv quotes the names)
bool is_column_header(std::string_view l) {
  std::string_view first = trim(l.substr(0, l.find(',')));
  if (first.size() >= 2 && first.front() == '"' && first.back() == '"')
    first = first.substr(1, first.size() - 2);
  return column_index(first) >= 0;
}

// newlines in the rest of a seekable stream (an upper bound of the rows, to reserve once)
std::size_t count_lines(std::istream& in) {
  const auto start = in.tellg();
  if (start == std::streampos(-1)) return 0;
  std::vector<char> buf(1u << 16);
  std::size_t n = 1;
  while (in.read(buf.data(), std::streamsize(buf.size())) || in.gcount() > 0) {
    n += std::size_t(std::count(buf.data(), buf.data() + in.gcount(), '\n'));
    if (in.eof()) break;
  }
  in.clear();
  in.seekg(start);
  return in ? n : 0;
}

// the state of one native or plain CSV read, line by line
class CsvReader {
 public:
  CsvReader(std::istream& in, const std::string& source, const LoadOptions& opt)
      : in_(in), src_(source), opt_(opt) {}
  Scene read();

 private:
  std::size_t reserve_rows();
  void first_line(std::string_view l, const std::string& where);
  void native_header(std::string_view l, const std::string& where);
  void body_row(const std::string& where);
  Scene finish();

  std::istream& in_;
  const std::string& src_;
  const LoadOptions& opt_;
  Scene s_;
  bool have_header_ = false, plain_ = false, have_columns_ = false;
  bool have_dt_ = false, have_eps_ = false, have_cam_ = false;
  std::vector<std::string> names_;  // started at the first non-empty name
  std::vector<int> col_;            // field -> column (the header's order, else the native one)
  std::vector<std::string_view> f_;
  std::deque<std::string> quoted_;  // unescaped quoted fields (stable addresses)
  std::vector<char> was_quoted_;    // per field: 1 when it was quoted (kept as it is, untrimmed)
};

// the stream's length, when it has one, for the progress line; the rows reserved once
std::size_t CsvReader::reserve_rows() {
  std::size_t total = 0;
  const auto start = in_.tellg();
  if (start != std::streampos(-1) && in_.seekg(0, std::ios::end)) {
    const auto end = in_.tellg();
    if (end != std::streampos(-1) && end > start) total = static_cast<std::size_t>(end - start);
    in_.seekg(start);
  }
  in_.clear();
  const std::size_t rows = count_lines(in_);
  if (rows > 0) {
    try {
      s_.bodies.reserve(rows);
    } catch (const std::bad_alloc&) {
      fail(src_, ": ", rows, " lines: not enough memory for that many bodies");
    }
  }
  return total;
}

Scene CsvReader::read() {
  const auto start = in_.tellg();
  const std::size_t total = reserve_rows();
  detail::Progress prog(opt_, total, 4u << 20);
  std::string line;
  std::size_t lineno = 0;
  while (std::getline(in_, line)) {
    ++lineno;
    if ((lineno & 0xFFFF) == 0 && total > 0) {
      const auto pos = in_.tellg();
      if (pos != std::streampos(-1)) prog.fraction(double(pos - start) / double(total));
    }
    std::string_view l = trim(line);
    if (lineno == 1 && l.size() >= 3 && static_cast<unsigned char>(l[0]) == 0xEF &&
        static_cast<unsigned char>(l[1]) == 0xBB && static_cast<unsigned char>(l[2]) == 0xBF) {
      l.remove_prefix(3);  // UTF-8 byte-order mark
    }
    if (l.empty()) continue;
    const std::string where = src_ + ":" + std::to_string(lineno);
    const bool magic =
        l.substr(0, kMagic.size()) == kMagic &&
        (l.size() == kMagic.size() || l[kMagic.size()] == ' ' || l[kMagic.size()] == '\t');
    // the header comment: units and G, or a plain CSV's column header
    if (!have_header_ && !plain_) {
      if (magic) {
        native_header(l, where);
        continue;
      }
      first_line(l, where);
    }
    if (magic) fail(where, ": a second '# nbody csv' header line (the first is at the top)");
    if (l.front() == '#') continue;  // further comments
    if (!split_row(l, f_, quoted_, was_quoted_)) fail(where, ": unterminated or misplaced quote");
    // the column header (a plain CSV's first line; optional in native CSV)
    if (!have_columns_ && s_.bodies.empty() && column_index(f_[0]) >= 0) {
      parse_column_header(f_, col_, where);
      have_columns_ = true;
      continue;
    }
    body_row(where);
  }
  if (in_.bad()) fail(src_, ": read error");
  prog.done();
  return finish();
}

// a first line that is not the '# nbody csv' header: a plain CSV's column header or an error
void CsvReader::first_line(std::string_view l, const std::string& where) {
  if (l.substr(0, kMagic.size()) == kMagic)
    fail(where, ": malformed header ", detail::quote(l),
         " (expected '# nbody csv v1 units=... G=...')");
  if (l.front() == '#' || !is_column_header(l))
    fail(where,
         ": not a CSV nbody reads: the first line must be a '# nbody csv v1 ...' "
         "header (e.g. '# nbody csv v1 units=henon G=1') or a column header (e.g. "
         "'x,y,z,vx,vy,vz,m'); found ",
         detail::quote(l));
  // plain CSV: the units come from the options
  plain_ = true;
  s_.units = opt_.input_units ? *opt_.input_units : units::henon();
  if (opt_.notice && !opt_.input_units)
    opt_.notice(src_ +
                ": plain CSV (no '# nbody csv' header): taken as Hénon units (G = 1); "
                "give --input-units solar|galactic|agora|henon to change");
}

// the '# nbody csv v1 key=value ...' header: units, G, dt, ε, camera, the run, halos
void CsvReader::native_header(std::string_view l, const std::string& where) {
  if (opt_.input_units_given)
    fail(where,
         ": --input-units applies to files that store no units (Tipsy, plain CSV); this "
         "file's '# nbody csv' header states its own");
  std::string version;
  const auto kv = detail::parse_header_pairs(l.substr(kMagic.size()), version, where);
  if (version != "v1")
    fail(where, ": unsupported CSV version ", detail::quote(version.empty() ? "(none)" : version),
         " (this program reads '# nbody csv v1 ...')");
  for (const auto& [key, value] : kv) {
    bool ok = false;
    for (const char* k : kHeaderKeys)
      ok = ok || key == k;
    if (!ok)
      fail(where, ": unknown header key ", detail::quote(key),
           " (known: units, length, mass, time, velocity, length_m, mass_kg, time_s, G, dt, "
           "softening, camera, name, elapsed, steps, kernel, integrator, halos, precision, "
           "gpus, tunables, view)");
  }
  s_.units = units_from_header(kv, where);
  auto num = [&](const char* k, double& out, bool& have) {
    auto it = kv.find(k);
    if (it == kv.end()) return;
    if (!detail::parse_double(it->second, out) || !std::isfinite(out) || out < 0) {
      fail(where, ": header value ", k, "=", detail::quote(it->second),
           " is not a non-negative number");
    }
    have = true;
  };
  num("dt", s_.dt, have_dt_);
  num("softening", s_.softening, have_eps_);
  num("camera", s_.camera_distance, have_cam_);
  // the scene's viewing direction (radians; see Scene::camera_yaw), both or neither
  const auto yaw = kv.find("camera_yaw"), pitch = kv.find("camera_pitch");
  if ((yaw == kv.end()) != (pitch == kv.end()))
    fail(where, ": header has ",
         yaw == kv.end() ? "camera_pitch without camera_yaw" : "camera_yaw without camera_pitch");
  if (yaw != kv.end()) {
    for (const auto& it : {yaw, pitch}) {
      double v = 0;
      if (!detail::parse_double(it->second, v) || !std::isfinite(v))
        fail(where, ": header value ", it->first, "=", detail::quote(it->second),
             " is not a finite number (radians)");
      (it == yaw ? s_.camera_yaw : s_.camera_pitch) = v;
    }
  }
  if (have_dt_ && !(s_.dt > 0)) fail(where, ": header dt must be positive");
  detail::read_run(kv, opt_.run, where);
  if (auto it = kv.find("name"); it != kv.end()) s_.name = it->second;
  if (auto it = kv.find("halos"); it != kv.end()) s_.bodies.halos = parse_halos(it->second, where);
  have_header_ = true;
}

// one body from the fields split into f_
void CsvReader::body_row(const std::string& where) {
  Bodies& b = s_.bodies;
  if (col_.empty()) {
    col_.assign(kColumnCount, 0);
    for (int k = 0; k < kColumnCount; ++k)
      col_[std::size_t(k)] = k;
  }
  if (f_.size() < kNumeric || f_.size() > col_.size()) {
    fail(where, ": expected ", have_columns_ ? std::to_string(col_.size()) : "7 to 9",
         " comma-separated fields (",
         have_columns_ ? "as the column header" : "x,y,z,vx,vy,vz,m[,component[,name]]",
         "), found ", f_.size());
  }
  if (have_columns_ && f_.size() != col_.size())
    fail(where, ": ", f_.size(), " fields but the column header has ", col_.size());
  double v[kNumeric];
  Component c = Component::Star;
  std::string_view label;
  for (std::size_t k = 0; k < f_.size(); ++k) {
    const int cc = col_[k];
    if (cc < kNumeric) {
      if (!detail::parse_double(f_[k], v[cc]))
        fail(where, ": column ", k + 1, " (", kColumns[cc], "): ", detail::quote(trim(f_[k])),
             " is not a number");
      if (!std::isfinite(v[cc]))
        fail(where, ": column ", k + 1, " (", kColumns[cc], "): value ", detail::quote(trim(f_[k])),
             " is not finite");
    } else if (cc == 7) {
      if (!trim(f_[k]).empty() && !detail::parse_component(f_[k], c, false))
        fail(where, ": column ", k + 1, " (component): ", detail::quote(trim(f_[k])),
             " is not a component name (star, disk, bulge, dark, gas, planet)");
    } else {
      label = was_quoted_[k] ? f_[k] : trim(f_[k]);
    }
  }
  if (v[6] < 0) fail(where, ": column m: negative mass ", v[6]);
  b.add(v[0], v[1], v[2], v[3], v[4], v[5], v[6], c);
  if (!label.empty() && names_.empty()) names_.resize(b.size() - 1);
  if (!names_.empty() || !label.empty()) names_.emplace_back(label);
}

// the names, the description, the guessed defaults and the checks of every loader
Scene CsvReader::finish() {
  Bodies& b = s_.bodies;
  if (!have_header_ && !plain_)
    fail(src_, ": empty file (expected a '# nbody csv v1 ...' header and rows)");
  if (b.empty()) fail(src_, ": no bodies (N = 0)");
  if (!names_.empty()) {
    names_.resize(b.size());
    b.name = std::move(names_);
  }
  if (s_.name.empty()) s_.name = src_;
  s_.description = std::string(plain_ ? "plain CSV file " : "CSV file ") + src_;
  detail::shrink_to_fit(b);
  detail::set_defaults(s_, src_, opt_, !have_dt_, !have_eps_, !have_cam_);
  detail::finish_scene(s_, src_, opt_);
  return std::move(s_);
}

}  // namespace

Scene read_csv(std::istream& in, const std::string& source) {
  return read_csv(in, source, {});
}

Scene read_csv(std::istream& in, const std::string& source, const LoadOptions& opt) {
  CsvReader r(in, source, opt);
  return r.read();
}

void write_csv(std::ostream& out, const Scene& s, const std::optional<RunRecord>& run) {
  check_scene_output(s, "CSV", Format::Csv);  // names the reader could not read back
  UnitSystem u = s.units;
  const Bodies& b = s.bodies;
  using detail::format_double;
  using detail::quote_value;
  // a named system with another G is written as custom units (the reader would refuse it)
  for (const char* k : {"solar", "galactic", "agora", "henon"})
    if (u.name == k && std::fabs(units::by_name(k).G - u.G) > 1e-12 * u.G) u.name = "custom";
  out << "# nbody csv v1 units=" << quote_value(u.name) << " length=" << quote_value(u.length)
      << " mass=" << quote_value(u.mass) << " time=" << quote_value(u.time)
      << " velocity=" << quote_value(u.velocity) << " length_m=" << format_double(u.length_m)
      << " mass_kg=" << format_double(u.mass_kg) << " time_s=" << format_double(u.time_s)
      << detail::run_header(s, run) << " camera=" << format_double(s.camera_distance);
  if (std::isfinite(s.camera_yaw) && std::isfinite(s.camera_pitch))
    out << " camera_yaw=" << format_double(s.camera_yaw)
        << " camera_pitch=" << format_double(s.camera_pitch);
  if (!s.name.empty()) out << " name=" << quote_value(s.name);
  if (!b.halos.empty()) out << " halos=" << quote_value(format_halos(b.halos));
  out << "\n";
  const bool names = !b.name.empty();
  out << "x,y,z,vx,vy,vz,m,component" << (names ? ",name" : "") << "\n";
  for (std::size_t i = 0; i < b.size(); ++i) {
    out << format_double(b.x[i]) << ',' << format_double(b.y[i]) << ',' << format_double(b.z[i])
        << ',' << format_double(b.vx[i]) << ',' << format_double(b.vy[i]) << ','
        << format_double(b.vz[i]) << ',' << format_double(b.m[i]) << ','
        << component_name(b.component[i]);
    if (names) out << ',' << quote_field(b.name[i]);
    out << '\n';
  }
  if (!out) fail("cannot write CSV (write error)");
}

namespace {

// the first line after a UTF-8 byte-order mark and blank lines
std::string_view first_text(std::string_view h) {
  if (h.substr(0, 3) == "\xEF\xBB\xBF") h.remove_prefix(3);
  while (!h.empty() &&
         (h.front() == '\n' || h.front() == '\r' || h.front() == ' ' || h.front() == '\t'))
    h.remove_prefix(1);
  return h;
}

// native CSV by its header line; a plain CSV by its column header (x,y,z,... or "x","y",...), or
// a .csv name, whose reader then says what is wrong
Detection detect_csv(const Probe& p) {
  const std::string_view h = first_text(p.head);
  if (h.substr(0, kMagic.size()) == kMagic) return {Match::Signature, Format::Csv, {}};
  const std::string_view line = h.substr(0, std::min(h.find('\n'), std::size_t(256)));
  const std::size_t comma = line.substr(0, 17).find(',');
  if (comma != std::string_view::npos && is_column_header(line.substr(0, comma + 1)))
    return {Match::Text, Format::Csv, {}};
  if (format_from_extension(p.path) == Format::Csv) return {Match::Text, Format::Csv, {}};
  return {Match::None, Format::Csv,
          "not native CSV (no '# nbody csv' header line, no 'x,y,z,vx,vy,vz,m' column header)"};
}

Scene read_csv_file(const std::string& path, Format, const LoadOptions& opt) {
  detail::file_size(path);  // missing / not a file
  std::ifstream in;
  detail::open_input(in, path);
  return read_csv(in, path, opt);
}

void write_csv_file(const Scene& s, const std::string& path, Format, const SaveOptions& opt) {
  write_file(path, [&](std::ostream& o) { write_csv(o, s, opt.run); });
}

// a row is one line: a name with a line break would be read back as two broken rows
void check_csv_scene(const Scene& s, const std::string& path) {
  const Bodies& b = s.bodies;
  for (std::size_t i = 0; i < b.name.size(); ++i)
    if (b.name[i].find_first_of("\r\n") != std::string::npos)
      fail(path, ": the name of body ", i, " (", detail::quote(b.name[i]),
           ") holds a line break, which a CSV row cannot hold (write .bin, which can)");
}

}  // namespace

namespace detail {

const FormatRow& csv_format() {
  static const FormatRow row{
      .id = Format::Csv,
      .name = "csv",
      .aliases = {},
      .extensions = {".csv"},
      .label = "CSV",
      .description =
          "native CSV ('# nbody csv v1 units=... G=...' header, then "
          "x,y,z,vx,vy,vz,m,component,name), or a plain CSV with a column header",
      .caps = {.names = true,
               .time = true,
               .run = true,
               .saved_state = true,
               .rigid_halos = true,
               .own_extensions = true},
      .detect = detect_csv,
      .read = read_csv_file,
      .write = write_csv_file,
      .check_scene = check_csv_scene,
  };
  return row;
}

}  // namespace detail

}  // namespace nbody::io
