// Native CSV: "# nbody csv v1 key=value ..." header (units, SI scales, G, dt, ε), an optional
// column header, then rows x,y,z,vx,vy,vz,m[,component[,name]].

#include <cmath>
#include <istream>
#include <map>
#include <ostream>
#include <string_view>

#include "sim/error.hpp"
#include "sim/io/detail.hpp"

namespace nbody::io {

namespace {

constexpr std::string_view kMagic = "# nbody csv";
constexpr const char* kColumns[] = {"x", "y", "z", "vx", "vy", "vz", "m", "component", "name"};

// a header value, quoted when it holds blanks or quotes
std::string quote_value(const std::string& v) {
  if (!v.empty() && v.find_first_of(" \t\"") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

// a name field, quoted when it holds commas or quotes
std::string quote_field(const std::string& v) {
  if (v.find_first_of(",\"") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// splits "k=v k2=\"a b\"" into pairs; false on a malformed token
bool parse_header_pairs(std::string_view s, std::map<std::string, std::string>& kv,
                        std::string& version, std::string& bad) {
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
      bad = key;
      return false;
    }
    first = false;
    ++i;  // '='
    std::string val;
    if (i < s.size() && s[i] == '"') {
      ++i;
      bool closed = false;
      while (i < s.size()) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          val += s[i + 1];
          i += 2;
        } else if (s[i] == '"') {
          ++i;
          closed = true;
          break;
        } else {
          val += s[i++];
        }
      }
      if (!closed) {
        bad = key;
        return false;
      }
    } else {
      std::size_t v0 = i;
      while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
        ++i;
      val = std::string(s.substr(v0, i - v0));
    }
    kv[key] = val;
  }
  return true;
}

// splits a row at commas; the name column (9th) may be quoted ("a, b" with "" for a quote)
std::vector<std::string_view> split_row(std::string_view line, std::string& name_buf,
                                        bool& bad_quote) {
  std::vector<std::string_view> f;
  bad_quote = false;
  std::size_t i = 0;
  while (true) {
    if (f.size() == 8) {
      // the last column: the rest of the line, optionally quoted
      std::string_view rest = line.substr(i);
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t'))
        rest.remove_prefix(1);
      while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t'))
        rest.remove_suffix(1);
      if (!rest.empty() && rest.front() == '"') {
        name_buf.clear();
        std::size_t k = 1;
        bool closed = false;
        while (k < rest.size()) {
          if (rest[k] == '"') {
            if (k + 1 < rest.size() && rest[k + 1] == '"') {
              name_buf += '"';
              k += 2;
              continue;
            }
            closed = k + 1 == rest.size();
            break;
          }
          name_buf += rest[k++];
        }
        if (!closed) bad_quote = true;
        f.push_back(name_buf);
      } else {
        f.push_back(rest);
      }
      return f;
    }
    std::size_t c = line.find(',', i);
    if (c == std::string_view::npos) {
      f.push_back(line.substr(i));
      return f;
    }
    f.push_back(line.substr(i, c - i));
    i = c + 1;
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
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
        fail(where, ": header value ", k, "='", *v, "' is not a finite number");
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
  if (!known) u.name = *id;
  if (const std::string* v = get("length")) u.length = *v;
  if (const std::string* v = get("mass")) u.mass = *v;
  if (const std::string* v = get("time")) u.time = *v;
  if (const std::string* v = get("velocity")) u.velocity = *v;
  number("length_m", u.length_m);
  number("mass_kg", u.mass_kg);
  number("time_s", u.time_s);
  if (!number("G", u.G) && !known) fail(where, ": header states no G for units '", *id, "'");
  if (!(u.G > 0)) fail(where, ": header G=", u.G, " must be positive");
  if (u.length_m < 0 || u.mass_kg < 0 || u.time_s < 0) {
    fail(where, ": header unit scales must not be negative");
  }
  return u;
}

}  // namespace

Scene read_csv(std::istream& in, const std::string& source) {
  return read_csv(in, source, {});
}

Scene read_csv(std::istream& in, const std::string& source, const LoadOptions& opt) {
  Scene s;
  std::string line, name_buf;
  std::size_t lineno = 0;
  bool have_header = false, have_columns = false, any_name = false;
  bool have_dt = false, have_eps = false, have_cam = false;
  Bodies& b = s.bodies;
  std::vector<std::string> names;
  // the stream's length, when it has one, for the progress line
  std::size_t total = 0;
  const auto start = in.tellg();
  if (opt.progress && start != std::streampos(-1) && in.seekg(0, std::ios::end)) {
    const auto end = in.tellg();
    if (end != std::streampos(-1) && end > start) total = static_cast<std::size_t>(end - start);
    in.seekg(start);
  }
  in.clear();
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
    const std::string where = source + ":" + std::to_string(lineno);
    // the header comment: units and G
    if (!have_header) {
      if (l.substr(0, kMagic.size()) != kMagic) {
        fail(where, ": missing header line '# nbody csv v1 units=... G=...' (found '",
             std::string(l.substr(0, 40)), "')");
      }
      std::map<std::string, std::string> kv;
      std::string version, bad;
      if (!parse_header_pairs(l.substr(kMagic.size()), kv, version, bad)) {
        fail(where, ": malformed header entry '", bad, "' (expected key=value)");
      }
      if (!version.empty() && version != "v1") {
        fail(where, ": unsupported CSV version '", version, "' (this program reads v1)");
      }
      s.units = units_from_header(kv, where);
      auto num = [&](const char* k, double& out, bool& have) {
        auto it = kv.find(k);
        if (it == kv.end()) return;
        if (!detail::parse_double(it->second, out) || !std::isfinite(out) || out < 0) {
          fail(where, ": header value ", k, "='", it->second, "' is not a non-negative number");
        }
        have = true;
      };
      num("dt", s.dt, have_dt);
      num("softening", s.softening, have_eps);
      num("camera", s.camera_distance, have_cam);
      if (have_dt && !(s.dt > 0)) fail(where, ": header dt must be positive");
      if (auto it = kv.find("name"); it != kv.end()) s.name = it->second;
      have_header = true;
      continue;
    }
    if (l.front() == '#') continue;  // further comments
    bool bad_quote = false;
    std::vector<std::string_view> f = split_row(l, name_buf, bad_quote);
    // the optional column header
    if (!have_columns && b.empty() && trim(f[0]) == "x") {
      if (f.size() < 7) fail(where, ": column header has ", f.size(), " columns, expected 7 to 9");
      for (std::size_t k = 0; k < f.size(); ++k) {
        if (trim(f[k]) != kColumns[k]) {
          fail(where, ": column ", k + 1, " is named '", std::string(trim(f[k])), "', expected '",
               kColumns[k], "'");
        }
      }
      have_columns = true;
      continue;
    }
    if (bad_quote) fail(where, ": column 9 (name): unterminated quote");
    if (f.size() < 7) {
      fail(where,
           ": expected 7 to 9 comma-separated fields (x,y,z,vx,vy,vz,m[,component[,name]]), "
           "found ",
           f.size());
    }
    double v[7];
    for (int k = 0; k < 7; ++k) {
      if (!detail::parse_double(f[k], v[k])) {
        fail(where, ": column ", k + 1, " (", kColumns[k], "): '", std::string(trim(f[k])),
             "' is not a number");
      }
      if (!std::isfinite(v[k])) {
        fail(where, ": column ", k + 1, " (", kColumns[k], "): value '", std::string(trim(f[k])),
             "' is not finite");
      }
    }
    if (v[6] < 0) fail(where, ": column 7 (m): negative mass ", v[6]);
    Component c = Component::Star;
    if (f.size() >= 8 && !trim(f[7]).empty() && !detail::parse_component(f[7], c)) {
      fail(where, ": column 8 (component): unknown component '", std::string(trim(f[7])), "'");
    }
    std::string label;
    if (f.size() >= 9) {
      label = std::string(trim(f[8]));
      any_name = any_name || !label.empty();
    }
    b.add(v[0], v[1], v[2], v[3], v[4], v[5], v[6], c);
    names.push_back(std::move(label));
  }
  if (in.bad()) fail(source, ": read error");
  prog.done();
  if (!have_header) fail(source, ": empty file (expected a '# nbody csv v1 ...' header and rows)");
  if (b.empty()) fail(source, ": no bodies (N = 0)");
  if (any_name) b.name = std::move(names);
  if (s.name.empty()) s.name = source;
  s.description = "CSV file " + source;
  detail::guess_defaults(s, !have_dt, !have_eps, !have_cam);
  detail::finish_scene(s, source, opt);
  return s;
}

void write_csv(std::ostream& out, const Scene& s) {
  const UnitSystem& u = s.units;
  const Bodies& b = s.bodies;
  using detail::format_double;
  out << "# nbody csv v1 units=" << quote_value(u.name) << " length=" << quote_value(u.length)
      << " mass=" << quote_value(u.mass) << " time=" << quote_value(u.time)
      << " velocity=" << quote_value(u.velocity) << " length_m=" << format_double(u.length_m)
      << " mass_kg=" << format_double(u.mass_kg) << " time_s=" << format_double(u.time_s)
      << " G=" << format_double(u.G) << " dt=" << format_double(s.dt)
      << " softening=" << format_double(s.softening)
      << " camera=" << format_double(s.camera_distance);
  if (!s.name.empty()) out << " name=" << quote_value(s.name);
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
