// Native CSV: "# nbody csv v1 key=value ..." header (units, SI scales, G, dt, ε), an optional
// column header, then rows x,y,z,vx,vy,vz,m[,component[,name]].

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <istream>
#include <map>
#include <ostream>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"

namespace nbody::io {

namespace {

constexpr std::string_view kMagic = "# nbody csv";
constexpr int kNumeric = 7;  // x y z vx vy vz m
constexpr int kColumnCount = 9;
constexpr const char* kColumns[kColumnCount] = {"x",  "y", "z",         "vx",  "vy",
                                                "vz", "m", "component", "name"};
// every key the '# nbody csv' header may hold
constexpr const char* kHeaderKeys[] = {
    "units",      "length", "mass",      "time",   "velocity", "length_m", "mass_kg", "time_s",
    "G",          "dt",     "softening", "camera", "name",     "elapsed",  "steps",   "kernel",
    "integrator", "halos",  "precision", "gpus",   "tunables", "view"};

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

}  // namespace

namespace detail {

std::string quote_value(const std::string& v) {
  if (!v.empty() && v.find_first_of(" \t\"\\\r\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) {
    // a line break as \n or \r: the header is one line
    if (c == '\n' || c == '\r') {
      q += c == '\n' ? "\\n" : "\\r";
      continue;
    }
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

std::map<std::string, std::string> parse_header_pairs(std::string_view s, std::string& version,
                                                      const std::string& where) {
  std::map<std::string, std::string> kv;
  std::size_t i = 0;
  bool first = true;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
      ++i;
    if (i >= s.size()) break;
    std::size_t k0 = i;
    while (i < s.size() && s[i] != '=' && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
      ++i;
    std::string key(s.substr(k0, i - k0));
    if (i >= s.size() || s[i] != '=') {
      if (first) {
        version = key;
        first = false;
        continue;
      }
      fail(where, ": malformed header entry ", quote(key), " (expected key=value)");
    }
    first = false;
    ++i;  // '='
    std::string val;
    if (i < s.size() && s[i] == '"') {
      ++i;
      bool closed = false;
      while (i < s.size()) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          const char e = s[i + 1];
          val += e == 'n' ? '\n' : e == 'r' ? '\r' : e;
          i += 2;
        } else if (s[i] == '"') {
          ++i;
          closed = true;
          break;
        } else {
          val += s[i++];
        }
      }
      if (!closed) fail(where, ": header value of ", quote(key), " has no closing quote");
    } else {
      std::size_t v0 = i;
      while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
        ++i;
      val = std::string(s.substr(v0, i - v0));
    }
    if (kv.count(key)) fail(where, ": header key ", quote(key), " appears twice");
    kv[key] = std::move(val);
  }
  return kv;
}

std::string run_header(const Scene& s, const std::optional<RunRecord>& run) {
  std::string h = " G=" + format_double(s.units.G) + " dt=" + format_double(s.dt) +
                  " softening=" + format_double(s.softening);
  if (run) {
    h += " elapsed=" + format_double(run->time) + " steps=" + std::to_string(run->steps);
    if (!run->kernel.empty()) h += " kernel=" + quote_value(run->kernel);
    if (!run->integrator.empty()) h += " integrator=" + quote_value(run->integrator);
    if (run->has_state()) {
      if (!run->precision.empty()) h += " precision=" + quote_value(run->precision);
      h += " gpus=" + std::to_string(run->gpus);
      if (!run->tunables.empty()) h += " tunables=" + quote_value(format_map(run->tunables));
      if (!run->view.empty()) h += " view=" + quote_value(format_map(run->view));
    }
  }
  return h;
}

std::string format_map(const std::map<std::string, double>& m) {
  std::string out;
  for (const auto& [key, value] : m) {
    if (!valid_map_key(key))
      fail("cannot write the run record: key ", quote(key),
           " is not made of letters, digits, '_', '.' and '-'");
    out += (out.empty() ? "" : ";") + key + ":" + format_double(value);
  }
  return out;
}

bool valid_map_key(const std::string& key) {
  if (key.empty() || key.size() > 200) return false;
  for (char c : key)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-')
      return false;
  return true;
}

std::map<std::string, double> parse_map(const std::string& text, const std::string& what,
                                        const std::string& where) {
  std::map<std::string, double> m;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(';', at);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(at, end - at);
    const std::size_t colon = item.find(':');
    double v = 0;
    if (colon == std::string::npos || !valid_map_key(item.substr(0, colon)) ||
        !parse_double(std::string_view(item).substr(colon + 1), v) || !std::isfinite(v))
      fail(where, ": header value ", what, ": entry ", quote(item),
           " is not KEY:NUMBER (a finite number)");
    if (!m.emplace(item.substr(0, colon), v).second)
      fail(where, ": header value ", what, ": key ", quote(item.substr(0, colon)),
           " appears twice");
    at = end + 1;
  }
  return m;
}

void read_run(const std::map<std::string, std::string>& kv, RunRecord* run,
              const std::string& where) {
  RunRecord r;
  if (auto it = kv.find("elapsed"); it != kv.end()) {
    if (!parse_double(it->second, r.time) || !std::isfinite(r.time))
      fail(where, ": header value elapsed=", quote(it->second), " is not a finite number");
  }
  if (auto it = kv.find("steps"); it != kv.end()) {
    double v = 0;
    if (!parse_double(it->second, v) || !(v >= 0) || v > 9e18 || v != std::floor(v))
      fail(where, ": header value steps=", quote(it->second), " is not a step count");
    r.steps = static_cast<long long>(v);
  }
  if (auto it = kv.find("kernel"); it != kv.end()) r.kernel = it->second;
  if (auto it = kv.find("integrator"); it != kv.end()) r.integrator = it->second;
  // the saved state
  if (auto it = kv.find("precision"); it != kv.end()) {
    if (it->second != "float" && it->second != "double")
      fail(where, ": header value precision=", quote(it->second), " is not float or double");
    r.precision = it->second;
  }
  if (auto it = kv.find("gpus"); it != kv.end()) {
    double v = 0;
    if (!parse_double(it->second, v) || !(v >= 0) || v > 4096 || v != std::floor(v))
      fail(where, ": header value gpus=", quote(it->second), " is not a number of GPUs (0: all)");
    r.gpus = static_cast<int>(v);
  }
  if (auto it = kv.find("tunables"); it != kv.end())
    r.tunables = parse_map(it->second, "tunables", where);
  if (auto it = kv.find("view"); it != kv.end()) r.view = parse_map(it->second, "view", where);
  if (run) *run = r;
}

}  // namespace detail

Scene read_csv(std::istream& in, const std::string& source) {
  return read_csv(in, source, {});
}

Scene read_csv(std::istream& in, const std::string& source, const LoadOptions& opt) {
  Scene s;
  std::string line;
  std::size_t lineno = 0;
  bool have_header = false, plain = false, have_columns = false;
  bool have_dt = false, have_eps = false, have_cam = false;
  Bodies& b = s.bodies;
  std::vector<std::string> names;  // started at the first non-empty name
  std::vector<int> col;            // field -> column (the header's order, else the native one)
  std::vector<std::string_view> f;
  std::deque<std::string> quoted;  // unescaped quoted fields (stable addresses)
  std::vector<char> was_quoted;    // per field: 1 when it was quoted (kept as it is, untrimmed)
  const std::string& src = source;
  // the stream's length, when it has one, for the progress line; the rows, to reserve once
  std::size_t total = 0;
  const auto start = in.tellg();
  if (start != std::streampos(-1) && in.seekg(0, std::ios::end)) {
    const auto end = in.tellg();
    if (end != std::streampos(-1) && end > start) total = static_cast<std::size_t>(end - start);
    in.seekg(start);
  }
  in.clear();
  const std::size_t rows = count_lines(in);
  if (rows > 0) {
    try {
      b.reserve(rows);
    } catch (const std::bad_alloc&) {
      fail(src, ": ", rows, " lines: not enough memory for that many bodies");
    }
  }
  detail::Progress prog(opt, total, 4u << 20);
  while (std::getline(in, line)) {
    ++lineno;
    if ((lineno & 0xFFFF) == 0 && total > 0) {
      const auto pos = in.tellg();
      if (pos != std::streampos(-1)) prog.fraction(double(pos - start) / double(total));
    }
    std::string_view l = trim(line);
    if (lineno == 1 && l.size() >= 3 && static_cast<unsigned char>(l[0]) == 0xEF &&
        static_cast<unsigned char>(l[1]) == 0xBB && static_cast<unsigned char>(l[2]) == 0xBF) {
      l.remove_prefix(3);  // UTF-8 byte-order mark
    }
    if (l.empty()) continue;
    const std::string where = src + ":" + std::to_string(lineno);
    const bool magic =
        l.substr(0, kMagic.size()) == kMagic &&
        (l.size() == kMagic.size() || l[kMagic.size()] == ' ' || l[kMagic.size()] == '\t');
    // the header comment: units and G, or a plain CSV's column header
    if (!have_header && !plain) {
      if (!magic) {
        if (l.substr(0, kMagic.size()) == kMagic)
          fail(where, ": malformed header ", detail::quote(l),
               " (expected '# nbody csv v1 units=... G=...')");
        if (l.front() != '#' && is_column_header(l)) {
          // plain CSV: the units come from the options
          plain = true;
          s.units = opt.input_units ? *opt.input_units : units::henon();
          if (opt.notice && !opt.input_units)
            opt.notice(src +
                       ": plain CSV (no '# nbody csv' header): taken as Hénon units (G = 1); "
                       "give --input-units solar|galactic|agora|henon to change");
        } else {
          fail(where,
               ": not a CSV nbody reads: the first line must be a '# nbody csv v1 ...' "
               "header (e.g. '# nbody csv v1 units=henon G=1') or a column header (e.g. "
               "'x,y,z,vx,vy,vz,m'); found ",
               detail::quote(l));
        }
      } else {
        if (opt.input_units_given)
          fail(where,
               ": --input-units applies to files that store no units (Tipsy, plain CSV); this "
               "file's '# nbody csv' header states its own");
        std::string version;
        const auto kv = detail::parse_header_pairs(l.substr(kMagic.size()), version, where);
        if (version != "v1")
          fail(where, ": unsupported CSV version ",
               detail::quote(version.empty() ? "(none)" : version),
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
        s.units = units_from_header(kv, where);
        auto num = [&](const char* k, double& out, bool& have) {
          auto it = kv.find(k);
          if (it == kv.end()) return;
          if (!detail::parse_double(it->second, out) || !std::isfinite(out) || out < 0) {
            fail(where, ": header value ", k, "=", detail::quote(it->second),
                 " is not a non-negative number");
          }
          have = true;
        };
        num("dt", s.dt, have_dt);
        num("softening", s.softening, have_eps);
        num("camera", s.camera_distance, have_cam);
        if (have_dt && !(s.dt > 0)) fail(where, ": header dt must be positive");
        detail::read_run(kv, opt.run, where);
        if (auto it = kv.find("name"); it != kv.end()) s.name = it->second;
        if (auto it = kv.find("halos"); it != kv.end()) b.halos = parse_halos(it->second, where);
        have_header = true;
        continue;
      }
    }
    if (magic) fail(where, ": a second '# nbody csv' header line (the first is at the top)");
    if (l.front() == '#') continue;  // further comments
    if (!split_row(l, f, quoted, was_quoted)) fail(where, ": unterminated or misplaced quote");
    // the column header (a plain CSV's first line; optional in native CSV)
    if (!have_columns && b.empty() && column_index(f[0]) >= 0) {
      parse_column_header(f, col, where);
      have_columns = true;
      continue;
    }
    if (col.empty()) {
      col.assign(kColumnCount, 0);
      for (int k = 0; k < kColumnCount; ++k)
        col[std::size_t(k)] = k;
    }
    if (f.size() < kNumeric || f.size() > col.size()) {
      fail(where, ": expected ", have_columns ? std::to_string(col.size()) : "7 to 9",
           " comma-separated fields (",
           have_columns ? "as the column header" : "x,y,z,vx,vy,vz,m[,component[,name]]",
           "), found ", f.size());
    }
    if (have_columns && f.size() != col.size())
      fail(where, ": ", f.size(), " fields but the column header has ", col.size());
    double v[kNumeric];
    Component c = Component::Star;
    std::string_view label;
    for (std::size_t k = 0; k < f.size(); ++k) {
      const int cc = col[k];
      if (cc < kNumeric) {
        if (!detail::parse_double(f[k], v[cc]))
          fail(where, ": column ", k + 1, " (", kColumns[cc], "): ", detail::quote(trim(f[k])),
               " is not a number");
        if (!std::isfinite(v[cc]))
          fail(where, ": column ", k + 1, " (", kColumns[cc], "): value ",
               detail::quote(trim(f[k])), " is not finite");
      } else if (cc == 7) {
        if (!trim(f[k]).empty() && !detail::parse_component(f[k], c, false))
          fail(where, ": column ", k + 1, " (component): ", detail::quote(trim(f[k])),
               " is not a component name (star, disk, bulge, dark, gas, planet)");
      } else {
        label = was_quoted[k] ? f[k] : trim(f[k]);
      }
    }
    if (v[6] < 0) fail(where, ": column m: negative mass ", v[6]);
    b.add(v[0], v[1], v[2], v[3], v[4], v[5], v[6], c);
    if (!label.empty() && names.empty()) names.resize(b.size() - 1);
    if (!names.empty() || !label.empty()) names.emplace_back(label);
  }
  if (in.bad()) fail(src, ": read error");
  prog.done();
  if (!have_header && !plain)
    fail(src, ": empty file (expected a '# nbody csv v1 ...' header and rows)");
  if (b.empty()) fail(src, ": no bodies (N = 0)");
  if (!names.empty()) {
    names.resize(b.size());
    b.name = std::move(names);
  }
  if (s.name.empty()) s.name = src;
  s.description = std::string(plain ? "plain CSV file " : "CSV file ") + src;
  detail::shrink_to_fit(b);
  detail::set_defaults(s, src, opt, !have_dt, !have_eps, !have_cam);
  detail::finish_scene(s, src, opt);
  return s;
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

}  // namespace nbody::io
