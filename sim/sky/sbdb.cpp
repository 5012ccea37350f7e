// The SBDB Query API JSON reader and the small bodies' states (see sbdb.hpp).
#include "sim/sky/sbdb.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"
#include "sim/sky/carry.hpp"

namespace nbody::sky {

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;
constexpr double kMjdToJd = 2400000.5;
constexpr double kSunKg = 1.98840987e30;  // GM_sun / G (G = 6.67430e-11, CODATA 2018)
constexpr double kGmSunKm3s2 = 132712440041.939400;

using json = nlohmann::json;

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string upper(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// column indices by every spelling the API and its consumers use
struct Columns {
  int name = -1, epoch_mjd = -1, epoch_jd = -1, e = -1, a = -1, q = -1, i = -1, om = -1, w = -1,
      ma = -1, tp = -1, H = -1, diameter = -1, albedo = -1, cls = -1, gm = -1;
};

Columns find_columns(const std::vector<std::string>& fields, const std::string& source) {
  Columns c;
  const std::map<std::string, int Columns::*> names = {{"full_name", &Columns::name},
                                                       {"name", &Columns::name},
                                                       {"epoch_mjd", &Columns::epoch_mjd},
                                                       {"epoch.mjd", &Columns::epoch_mjd},
                                                       {"epoch", &Columns::epoch_jd},
                                                       {"e", &Columns::e},
                                                       {"a", &Columns::a},
                                                       {"q", &Columns::q},
                                                       {"i", &Columns::i},
                                                       {"om", &Columns::om},
                                                       {"w", &Columns::w},
                                                       {"ma", &Columns::ma},
                                                       {"tp", &Columns::tp},
                                                       {"H", &Columns::H},
                                                       {"diameter", &Columns::diameter},
                                                       {"albedo", &Columns::albedo},
                                                       {"class", &Columns::cls},
                                                       {"GM", &Columns::gm}};
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const auto it = names.find(fields[k]);
    if (it != names.end() && c.*(it->second) < 0) c.*(it->second) = static_cast<int>(k);
  }
  auto list = [&] {
    std::string l;
    for (const std::string& f : fields)
      l += (l.empty() ? "" : ", ") + f;
    return io::detail::quote(l, 200);
  };
  for (auto [col, what] :
       {std::pair{c.e, "e"}, std::pair{c.i, "i"}, std::pair{c.om, "om"}, std::pair{c.w, "w"}})
    if (col < 0) fail(source, ": SBDB JSON has no field '", what, "' (fields: ", list(), ")");
  if (c.q < 0 && c.a < 0) fail(source, ": SBDB JSON has neither 'q' nor 'a'");
  if (c.tp < 0 && c.ma < 0) fail(source, ": SBDB JSON has neither 'tp' nor 'ma'");
  if (c.ma >= 0 && c.epoch_mjd < 0 && c.epoch_jd < 0)
    fail(source, ": SBDB JSON has 'ma' but no epoch ('epoch_mjd', 'epoch.mjd' or 'epoch')");
  return c;
}

// one value of a data row as the streaming parser delivers it
struct Value {
  enum Kind { Null, Number, String, Other } kind = Null;
  double num = 0;
  std::string str;
};

// a value that is a number, a string holding a decimal one, or null (nullopt)
std::optional<double> number(const std::vector<Value>& row, int col, const std::string& where,
                             const char* field) {
  if (col < 0 || col >= static_cast<int>(row.size())) return std::nullopt;
  const Value& v = row[static_cast<std::size_t>(col)];
  if (v.kind == Value::Null) return std::nullopt;
  if (v.kind == Value::Number) {
    if (!std::isfinite(v.num)) fail(where, ": field '", field, "' is not finite");
    return v.num;
  }
  if (v.kind == Value::String) {
    const std::string s = trim(v.str);
    if (s.empty()) return std::nullopt;
    // decimal only (no hex, inf or nan): what JSON itself allows, plus a leading '.' or '+'
    double d = 0;
    if (!io::detail::parse_double(s, d) || !std::isfinite(d))
      fail(where, ": field '", field, "' is not a finite decimal number (",
           io::detail::quote(s, 40), ")");
    return d;
  }
  fail(where, ": field '", field, "' is neither a number, a string nor null");
}

std::string text(const std::vector<Value>& row, int col) {
  if (col < 0 || col >= static_cast<int>(row.size())) return {};
  const Value& v = row[static_cast<std::size_t>(col)];
  if (v.kind == Value::String) return trim(v.str);
  if (v.kind == Value::Number) return io::detail::format_double(v.num);
  return {};
}

// a name or class with a control character (a line break would break a CSV written from it)
void require_printable(const std::string& s, const std::string& where, const char* field) {
  for (char ch : s)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F)
      fail(where, ": field '", field, "' holds a control character: ", io::detail::quote(s));
}

// Julian dates nbody can print as calendar dates: years -4712 .. 9999
constexpr double kMaxJd = 5373484.5;

// one data row -> a small body, or the reason it is skipped (empty when used)
std::string make_body(const std::vector<Value>& row, const Columns& c, std::size_t r,
                      const std::string& source, SmallBody& b) {
  const std::string where = source + ": row " + std::to_string(r);
  b = SmallBody{};
  b.row = r;
  b.name = text(row, c.name);
  b.orbit_class = text(row, c.cls);
  const std::string who = where + (b.name.empty() ? "" : " (" + io::detail::quote(b.name) + ")");
  require_printable(b.name, where, "full_name");
  require_printable(b.orbit_class, who, "class");
  const auto e = number(row, c.e, who, "e"), q = number(row, c.q, who, "q"),
             a = number(row, c.a, who, "a"), inc = number(row, c.i, who, "i"),
             om = number(row, c.om, who, "om"), w = number(row, c.w, who, "w"),
             ma = number(row, c.ma, who, "ma"), tp = number(row, c.tp, who, "tp");
  const auto mjd = number(row, c.epoch_mjd, who, "epoch_mjd"),
             jd = number(row, c.epoch_jd, who, "epoch");
  b.H = number(row, c.H, who, "H");
  b.diameter_km = number(row, c.diameter, who, "diameter");
  b.albedo = number(row, c.albedo, who, "albedo");
  b.gm_km3s2 = number(row, c.gm, who, "GM");
  // what a mass is estimated from: values of real small bodies (Eris: D 2326 km, H -1.2, GM
  // 1108 km^3/s^2), else a typo or a corrupt file that would put a star into the scene
  if (b.H && !(*b.H >= -10 && *b.H <= 40))
    fail(who, ": absolute magnitude H = ", *b.H, " is outside -10 .. 40");
  if (b.diameter_km && !(*b.diameter_km > 0 && *b.diameter_km <= 10000))
    fail(who, ": diameter ", *b.diameter_km, " km is outside 0 .. 10000 km");
  if (b.albedo && !(*b.albedo > 0 && *b.albedo <= 2))
    fail(who, ": albedo ", *b.albedo, " is outside 0 .. 2");
  if (b.gm_km3s2 && !(*b.gm_km3s2 >= 0 && *b.gm_km3s2 <= 2000))
    fail(who, ": GM ", *b.gm_km3s2, " km^3/s^2 is outside 0 .. 2000 (Eris: 1108)");
  // elements: a row without them is skipped and reported
  if (!e || !inc || !om || !w) return "no e, i, om or w";
  if (!q && !a) return "no q and no a";
  if (!tp && !(ma && (mjd || jd))) return "no tp and no ma with epoch";
  if (*e < 0) fail(who, ": eccentricity is negative (", *e, ")");
  b.el.e = *e;
  b.el.q = q ? *q : *a * (1.0 - *e);
  if (!(b.el.q > 0)) fail(who, ": pericentre distance q must be > 0 (got ", b.el.q, " AU)");
  b.el.i = *inc * kDeg;
  b.el.node = *om * kDeg;
  b.el.peri = *w * kDeg;
  b.epoch = mjd ? *mjd + kMjdToJd : jd ? *jd : (tp ? *tp : 0);
  if (!(b.epoch >= 0 && b.epoch <= kMaxJd))
    fail(who, ": epoch JD ", b.epoch, " is outside 0 .. 5373484.5 (years -4712 .. 9999)");
  if (tp) {
    if (!(*tp >= 0 && *tp <= kMaxJd))
      fail(who, ": tp = JD ", *tp, " is outside 0 .. 5373484.5 (years -4712 .. 9999)");
    b.el.tp = *tp;
  } else {
    if (!(*e < 1.0)) fail(who, ": e = ", *e, " >= 1 needs tp (a mean anomaly needs an ellipse)");
    b.el.tp = pericentre_time(b.el.q, *e, *ma * kDeg, b.epoch, kGmSun);
  }
  return {};
}

// SAX handler over the top-level object: "fields" (strings) and "data" (arrays of values) are
// read, everything else is skipped; each complete row goes to `row_fn` once the columns are
// known (a "data" before "fields" is only checked, and read in a second pass)
class SbdbSax {
 public:
  using RowFn = std::function<void(const std::vector<Value>&, std::size_t)>;
  SbdbSax(const std::string& source, RowFn fn) : source_(source), fn_(std::move(fn)) {}
  /// A second pass: the columns are known, every row goes to the function.
  void fields_known(std::vector<std::string> f) {
    fields = std::move(f);
    columns_ = true;
  }

  bool null() { return scalar(Value::Null, 0, nullptr); }
  bool boolean(bool) { return scalar(Value::Other, 0, nullptr); }
  bool number_integer(std::int64_t v) { return scalar(Value::Number, double(v), nullptr); }
  bool number_unsigned(std::uint64_t v) { return scalar(Value::Number, double(v), nullptr); }
  bool number_float(double v, const std::string&) { return scalar(Value::Number, v, nullptr); }
  bool string(std::string& s) { return scalar(Value::String, 0, &s); }
  bool binary(json::binary_t&) { return scalar(Value::Other, 0, nullptr); }
  bool start_object(std::size_t) { return open(false); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(true); }
  bool end_array() { return close(); }
  bool key(std::string& k) {
    if (depth_ == 1) key_ = k;
    return true;
  }
  bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& e) {
    // parse_error, and out_of_range for a number beyond a double (1e400)
    fail(source_, ": not valid JSON at byte ", pos, " (", e.what(), ")");
  }

  bool have_fields = false, have_data = false, data_first = false;
  std::vector<std::string> fields;
  std::size_t rows = 0;

 private:
  enum class In { None, Fields, Data, Skip };
  bool open(bool array) {
    ++depth_;
    if (depth_ == 1) {
      if (array) fail(source_, ": SBDB JSON must be an object");
      return true;
    }
    if (depth_ == 2) {
      section_ = In::Skip;
      if (key_ == "fields" || key_ == "data") {
        const bool f = key_ == "fields";
        if (!array) fail(source_, ": SBDB JSON has no \"", key_, "\" array (an object instead)");
        if (f ? have_fields : have_data) fail(source_, ": SBDB JSON has \"", key_, "\" twice");
        (f ? have_fields : have_data) = true;
        if (!f && !columns_) data_first = true;
        section_ = f ? In::Fields : In::Data;
        if (f && columns_) section_ = In::Skip;  // a second pass
      }
      return true;
    }
    if (depth_ == 3 && section_ == In::Fields)
      fail(source_, ": \"fields\" entry ", fields.size(), " is not a string");
    if (depth_ == 3 && section_ == In::Data) {
      if (!array)
        fail(source_, ": row ", rows + 1, ": expected an array of ", fields.size(), " values");
      row_.clear();
      return true;
    }
    if (depth_ == 4 && section_ == In::Data) row_.push_back({Value::Other, 0, {}});
    return true;
  }
  bool close() {
    if (depth_ == 3 && section_ == In::Data) {
      ++rows;
      if (columns_ && row_.size() != fields.size())
        fail(source_, ": row ", rows, ": expected an array of ", fields.size(), " values, found ",
             row_.size());
      if (columns_) fn_(row_, rows);
    }
    if (depth_ == 2 && section_ == In::Fields) {
      columns_ = true;
      fn_({}, 0);  // the columns are known
    }
    if (depth_ == 2) section_ = In::None;
    --depth_;
    return true;
  }
  bool scalar(Value::Kind kind, double v, std::string* s) {
    if (depth_ == 0) fail(source_, ": SBDB JSON must be an object");
    if (depth_ == 1 && (key_ == "fields" || key_ == "data"))
      fail(source_, ": SBDB JSON has no \"", key_, "\" array");
    if (depth_ == 2 && section_ == In::Fields) {
      if (kind != Value::String)
        fail(source_, ": \"fields\" entry ", fields.size(), " is not a string");
      fields.push_back(*s);
    } else if (depth_ == 2 && section_ == In::Data) {
      fail(source_, ": row ", rows + 1, ": expected an array of ", fields.size(), " values");
    } else if (depth_ == 3 && section_ == In::Data) {
      Value& out = row_.emplace_back();
      out.kind = kind;
      out.num = v;
      if (s) out.str = std::move(*s);
    }
    return true;
  }

  const std::string& source_;
  RowFn fn_;
  bool columns_ = false;
  int depth_ = 0;
  In section_ = In::None;
  std::string key_;
  std::vector<Value> row_;
};

// where the JSON comes from: memory, or a file streamed from disk (read twice when "data"
// precedes "fields")
struct JsonInput {
  const char* data = nullptr;
  std::size_t size = 0;
  const std::string* path = nullptr;
};

void sax_pass(const JsonInput& in, SbdbSax& sax, const std::string& source) {
  bool ok = false;
  if (in.path) {
    std::ifstream f;
    io::detail::open_input(f, *in.path);
    std::vector<char> buf(1u << 20);
    f.rdbuf()->pubsetbuf(buf.data(), std::streamsize(buf.size()));
    ok = json::sax_parse(f, &sax);
    if (f.bad()) fail(source, ": read error");
  } else {
    ok = json::sax_parse(in.data, in.data + in.size, &sax);
  }
  if (!ok) fail(source, ": not valid JSON");
}

SbdbData read_sbdb_input(const JsonInput& in, const std::string& source, const SbdbFilter& filter) {
  SbdbData out;
  Columns c;
  std::vector<std::string> want;
  for (const std::string& k : filter.classes)
    want.push_back(upper(trim(k)));
  std::size_t bytes = 0;
  const SbdbSax* sax_ptr = nullptr;
  auto on_row = [&](const std::vector<Value>& row, std::size_t r) {
    if (r == 0) {  // the end of "fields": the columns
      c = find_columns(sax_ptr->fields, source);
      return;
    }
    SmallBody b;
    const std::string why = make_body(row, c, r, source, b);
    if (!why.empty()) {
      ++out.skipped_count;
      if (out.skipped.size() < 100)
        out.skipped.push_back("row " + std::to_string(r) +
                              (b.name.empty() ? "" : " (" + io::detail::quote(b.name) + ")") +
                              ": " + why);
      return;
    }
    ++out.usable;
    out.classes.insert(upper(b.orbit_class));
    if (filter.max && out.bodies.size() >= filter.max) return;
    if (!want.empty() && std::find(want.begin(), want.end(), upper(b.orbit_class)) == want.end())
      return;
    bytes += sizeof(SmallBody) + b.name.capacity() + b.orbit_class.capacity() + 64;
    if (bytes > filter.max_bytes)
      fail(source, ": the first ", out.bodies.size() + 1, " small bodies go over the limit of ",
           filter.max_bytes >> 20,
           " MiB (3 times the file, at least 64 MiB); read fewer with --small-bodies FILE and "
           "--small-bodies-max or --small-bodies-class (e.g. --scene solar-system "
           "--small-bodies FILE --small-bodies-max 1000)");
    out.bodies.push_back(std::move(b));
  };
  SbdbSax sax(source, on_row);
  sax_ptr = &sax;
  sax_pass(in, sax, source);
  if (!sax.have_fields) fail(source, ": SBDB JSON has no \"fields\" array");
  if (!sax.have_data) fail(source, ": SBDB JSON has no \"data\" array");
  if (sax.data_first) {
    // "data" came before "fields": read the rows again, now that the columns are known
    c = find_columns(sax.fields, source);
    SbdbSax again(source, [&](const std::vector<Value>& row, std::size_t r) {
      if (r > 0) on_row(row, r);
    });
    again.fields_known(sax.fields);
    sax_pass(in, again, source);
  }
  out.rows = sax.rows;
  return out;
}

// the memory the small bodies of a file may take: 3 times the file, at least 64 MiB
std::size_t memory_limit(std::size_t file_bytes) {
  return std::max<std::size_t>(3 * file_bytes, std::size_t(64) << 20);
}

}  // namespace

bool looks_like_sbdb(const char* p, std::size_t n) {
  std::size_t k = 0;
  if (n >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) k = 3;
  while (k < n && std::isspace(static_cast<unsigned char>(p[k])))
    ++k;
  if (k >= n || p[k] != '{') return false;
  const std::string_view head(p, std::min<std::size_t>(n, 8192));
  return head.find("\"fields\"") != std::string_view::npos &&
         (head.find("SBDB") != std::string_view::npos ||
          head.find("\"full_name\"") != std::string_view::npos);
}

SbdbData read_sbdb(const char* data, std::size_t size, const std::string& source,
                   const SbdbFilter& filter) {
  SbdbFilter f = filter;
  if (f.max_bytes == 0) f.max_bytes = memory_limit(size);
  return read_sbdb_input({data, size, nullptr}, source, f);
}

SbdbData read_sbdb_file(const std::string& path, const SbdbFilter& filter) {
  SbdbFilter f = filter;
  if (f.max_bytes == 0) f.max_bytes = memory_limit(io::detail::file_size(path));
  try {
    return read_sbdb_input({nullptr, 0, &path}, path, f);
  } catch (const std::bad_alloc&) {
    fail(path, ": not enough memory to read it");
  }
}

const char* small_body_masses_name(SmallBodyMasses m) {
  switch (m) {
    case SmallBodyMasses::Largest:
      return "largest";
    case SmallBodyMasses::None:
      return "none";
    case SmallBodyMasses::Estimated:
      return "estimated";
  }
  return "?";
}

SmallBodyMasses parse_small_body_masses(const std::string& name) {
  for (SmallBodyMasses m :
       {SmallBodyMasses::Largest, SmallBodyMasses::None, SmallBodyMasses::Estimated})
    if (name == small_body_masses_name(m)) return m;
  fail("small-body masses '", name,
       "' is not one of: largest (Ceres, Pallas, Vesta, Hygiea with DE440's GM; the rest test "
       "particles), none (all test particles), estimated (all massive, from GM, diameter or H)");
}

double de440_gm_km3s2(long number) {
  switch (number) {
    case 1:
      return 62.62890;  // Ceres (Park et al. 2021, table of DE440's masses)
    case 2:
      return 13.665878;  // Pallas (gm_de440.tpc)
    case 4:
      return 17.288245;  // Vesta (Park et al. 2021)
    case 10:
      return 5.78;  // Hygiea (gm_de440.tpc)
    default:
      return 0;
  }
}

long asteroid_number(const std::string& full_name) {
  std::size_t i = 0;
  while (i < full_name.size() && full_name[i] == ' ')
    ++i;
  long n = 0;
  std::size_t digits = 0;
  for (; i < full_name.size() && full_name[i] >= '0' && full_name[i] <= '9'; ++i, ++digits) {
    if (digits >= 9) return 0;
    n = n * 10 + (full_name[i] - '0');
  }
  // "1 Ceres", "(2010 AB)" or "1P/Halley" are not numbered asteroids: a space must follow
  if (digits == 0 || i >= full_name.size() || full_name[i] != ' ') return 0;
  return n;
}

double estimate_mass(const SmallBody& b, const SmallBodyOptions& opt) {
  switch (opt.masses) {
    case SmallBodyMasses::None:
      return 0;
    case SmallBodyMasses::Largest:
      return de440_gm_km3s2(asteroid_number(b.name)) / kGmSunKm3s2;
    case SmallBodyMasses::Estimated:
      break;
  }
  if (b.gm_km3s2 && *b.gm_km3s2 > 0) return *b.gm_km3s2 / kGmSunKm3s2;
  double d_km = 0;
  if (b.diameter_km && *b.diameter_km > 0)
    d_km = *b.diameter_km;
  else if (b.H) {
    // D = 1329 km / sqrt(p_V) 10^(-H/5) (Fowler & Chillemi 1992)
    const double pv = b.albedo && *b.albedo > 0 ? *b.albedo : opt.default_albedo;
    d_km = 1329.0 / std::sqrt(pv) * std::pow(10.0, -*b.H / 5.0);
  }
  const double r_m = 0.5 * d_km * 1e3;
  return opt.density * 4.0 / 3.0 * 3.14159265358979323846 * r_m * r_m * r_m / kSunKg;
}

std::vector<SmallBody> select(const std::vector<SmallBody>& all, const SmallBodyOptions& opt) {
  std::vector<std::string> want;
  for (const std::string& c : opt.classes)
    want.push_back(upper(trim(c)));
  std::vector<SmallBody> out;
  for (const SmallBody& b : all) {
    if (opt.max && out.size() >= opt.max) break;
    if (!want.empty() && std::find(want.begin(), want.end(), upper(b.orbit_class)) == want.end())
      continue;
    out.push_back(b);
  }
  return out;
}

Bodies heliocentric_bodies(const std::vector<SmallBody>& bodies, double jd,
                           const SmallBodyOptions& opt, std::vector<std::string>* classes,
                           const std::string& source, const std::vector<State>* states) {
  Bodies out;
  out.reserve(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const SmallBody& b = bodies[i];
    State s;
    try {
      s = states ? states->at(i) : state_from_elements(b.el, kGmSun, jd);
    } catch (const Error& e) {
      fail(source, ": row ", b.row, b.name.empty() ? "" : " (" + io::detail::quote(b.name) + ")",
           ": ", e.what());
    }
    out.add(s.r[0], s.r[1], s.r[2], s.v[0], s.v[1], s.v[2], estimate_mass(b, opt),
            Component::Planet, b.name.empty() ? std::string("?") : b.name);
    if (classes) classes->push_back(b.orbit_class);
  }
  return out;
}

std::string skipped_notice(const SbdbData& d, const std::string& source) {
  if (d.skipped_count == 0) return {};
  return source + ": " + std::to_string(d.skipped_count) + " of " + std::to_string(d.rows) +
         " rows skipped (no usable elements), e.g. " + d.skipped.front();
}

Scene sbdb_scene(const SbdbData& d, const std::string& source,
                 const std::function<void(const std::string&)>& notice, SmallBodyMasses masses) {
  if (d.bodies.empty())
    fail(source, ": no small body with usable elements",
         d.skipped.empty() ? std::string() : " (first skipped: " + d.skipped.front() + ")");
  if (notice && d.skipped_count > 0) notice(skipped_notice(d, source));
  // the most common epoch of the elements
  std::map<double, std::size_t> count;
  for (const SmallBody& b : d.bodies)
    ++count[b.epoch];
  double epoch = d.bodies.front().epoch;
  std::size_t best = 0;
  for (const auto& [jd, k] : count)
    if (k > best) best = k, epoch = jd;
  Scene s;
  s.name = source;
  s.description =
      "JPL SBDB small bodies about the Sun (two-body propagated to their most common "
      "epoch)";
  s.units = units::solar();
  s.epoch_jd = epoch;
  s.bodies.add(0, 0, 0, 0, 0, 0, 1.0, Component::Star, "Sun");
  s.body_class.push_back("");
  SmallBodyOptions opt;
  opt.masses = masses;
  s.bodies.append(heliocentric_bodies(d.bodies, epoch, opt, &s.body_class, source));
  s.dt = 1.0;
  s.softening = 0;
  s.camera_distance = 60;
  s.integrator = Integrator::Yoshida4;
  s.bodies.validate(source);
  return s;
}

}  // namespace nbody::sky

namespace nbody::sky {

void add_small_bodies(Scene& s, const std::vector<std::string>& paths,
                      const SmallBodyOptions& opt) {
  if (paths.empty()) return;
  const std::string what = "scene '" + s.name + "'";
  if (!(s.epoch_jd > 0))
    fail("--small-bodies: ", what,
         " has no date; small bodies need a scene of the real sky "
         "(solar-system or sun-earth-moon)");
  if (s.units.name != "solar") fail("--small-bodies: ", what, " is not in solar units");
  std::size_t sun = s.bodies.size();
  for (std::size_t i = 0; i < s.bodies.name.size(); ++i)
    if (s.bodies.name[i] == "Sun") sun = i;
  if (sun == s.bodies.size()) fail("--small-bodies: ", what, " has no body named 'Sun'");
  // before the new bodies: is the scene in its barycentric frame (|sum m x| ~ 0)?
  const Bodies& b0 = s.bodies;
  double scale = 0, cx = 0, cy = 0, cz = 0;
  for (std::size_t i = 0; i < b0.size(); ++i) {
    scale += b0.m[i] * std::hypot(b0.x[i], b0.y[i], b0.z[i]);
    cx += b0.m[i] * b0.x[i];
    cy += b0.m[i] * b0.y[i];
    cz += b0.m[i] * b0.z[i];
  }
  const bool barycentric = std::hypot(cx, cy, cz) <= 1e-12 * scale;
  SmallBodyOptions left = opt;
  if (s.body_class.size() != s.bodies.size()) s.body_class.assign(s.bodies.size(), "");
  std::set<std::string> found, in_files;  // classes of the bodies added, of all (upper case)
  bool full = false;                      // opt.max reached
  // every file's bodies, carried to the date together (one run with the planets)
  std::vector<SmallBody> all;
  std::vector<std::pair<std::string, std::size_t>> from;  // file and how many of all
  for (const std::string& path : paths) {
    // streamed: only the bodies passing the filter are kept
    SbdbFilter filter;
    filter.classes = opt.classes;
    filter.max = left.max;
    const SbdbData d = read_sbdb_file(path, filter);
    if (opt.notice && d.skipped_count > 0) opt.notice(skipped_notice(d, path));
    const std::vector<SmallBody>& chosen = d.bodies;
    for (const SmallBody& b : chosen)
      found.insert(upper(b.orbit_class));
    in_files.insert(d.classes.begin(), d.classes.end());
    all.insert(all.end(), chosen.begin(), chosen.end());
    from.emplace_back(path, chosen.size());
    if (left.max) {
      left.max -= std::min(left.max, chosen.size());
      if (left.max == 0) {
        full = true;
        break;
      }
    }
  }
  // a class asked for that no body has is a typo or the wrong file, not "0 bodies"
  if (!full)
    for (const std::string& c : opt.classes)
      if (!found.count(upper(trim(c))))
        fail("--small-bodies-class ", io::detail::quote(c), ": no small body of that class in ",
             paths.size() > 1 ? "the files" : paths.front(), " (classes there: ",
             in_files.empty() ? std::string("none") : [&] {
               std::string l;
               for (const std::string& f : in_files)
                 l += (l.empty() ? "" : ", ") + f;
               return l;
             }(), ")");
  std::vector<State> carried;
  if (opt.carry && !all.empty()) {
    CarryOptions co;
    co.notice = opt.notice;
    CarryReport rep;
    carried = carry_small_bodies(all, s.epoch_jd, co, &rep);
    if (opt.notice) opt.notice(rep.summary());
  }
  std::size_t at = 0;
  for (const auto& [path, count] : from) {
    const std::vector<SmallBody> part(all.begin() + at, all.begin() + at + count);
    std::vector<State> states;
    if (!carried.empty()) states.assign(carried.begin() + at, carried.begin() + at + count);
    at += count;
    Bodies add = heliocentric_bodies(part, s.epoch_jd, opt, &s.body_class, path,
                                     carried.empty() ? nullptr : &states);
    // heliocentric -> the scene's frame: add the Sun's state
    const double sx = s.bodies.x[sun], sy = s.bodies.y[sun], sz = s.bodies.z[sun];
    const double svx = s.bodies.vx[sun], svy = s.bodies.vy[sun], svz = s.bodies.vz[sun];
    for (std::size_t i = 0; i < add.size(); ++i) {
      add.x[i] += sx;
      add.y[i] += sy;
      add.z[i] += sz;
      add.vx[i] += svx;
      add.vy[i] += svy;
      add.vz[i] += svz;
    }
    s.bodies.append(add);
  }
  if (barycentric) s.bodies.to_centre_of_mass_frame();
  s.bodies.validate(what + " with small bodies");
}

}  // namespace nbody::sky
