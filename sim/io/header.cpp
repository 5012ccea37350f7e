// The key=value headers of the native CSV and AGORA files ('# nbody csv v1 ...',
// '# nbody agora v1 ...'): quoting, parsing, and the run record they carry.

#include <cmath>
#include <map>
#include <string>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"

namespace nbody::io {

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
}  // namespace nbody::io
