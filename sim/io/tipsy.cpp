// Tipsy: header (f64 time, i32 nbodies, ndim, nsph, ndark, nstar[, i32 pad]) then gas (12
// floats, 48 B), dark (9 values, 36 B) and star (11 values, 44 B) records. Standard files are
// big-endian XDR; native files little-endian; NVIDIA's nbody sample reads little-endian files
// whose dark/star `phi` holds an int id (Bonsai ranges: disk 0.., bulge 1e8.., dark 2e8..).

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>
#include <ostream>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"
#include "sim/io/format_table.hpp"

namespace nbody::io {

namespace {

constexpr std::size_t kGasBytes = 48, kDarkBytes = 36, kStarBytes = 44;
constexpr std::int32_t kBulgeId = 100000000, kDarkId = 200000000;

const char* order_name(bool big) {
  return big ? "big-endian (XDR)" : "little-endian";
}

// checks one byte order and header size; "" when the file fits it, else why not.
// score: 0 ndim bad or too short, 1 counts inconsistent, 2 size mismatch, 3 fits
std::string check(const unsigned char* p, std::size_t size, bool big, bool padded, TipsyHeader& h,
                  int& score) {
  using detail::load;
  const std::size_t hb = padded ? 32 : 28;
  score = 0;
  if (size < hb) {
    return "truncated: " + std::to_string(size) + " bytes, shorter than the " + std::to_string(hb) +
           "-byte Tipsy header";
  }
  const double time = load<double>(p, big);
  const std::int64_t nb = load<std::int32_t>(p + 8, big), nd = load<std::int32_t>(p + 12, big),
                     ns = load<std::int32_t>(p + 16, big), nk = load<std::int32_t>(p + 20, big),
                     nt = load<std::int32_t>(p + 24, big);
  if (nd < 1 || nd > 3) return "ndim = " + std::to_string(nd) + ", must be 1..3";
  score = 1;
  if (nb < 0 || ns < 0 || nk < 0 || nt < 0) {
    return "negative count in header (nbodies " + std::to_string(nb) + ", nsph " +
           std::to_string(ns) + ", ndark " + std::to_string(nk) + ", nstar " + std::to_string(nt) +
           ")";
  }
  if (nb != ns + nk + nt) {
    return "header nbodies = " + std::to_string(nb) +
           " but nsph + ndark + nstar = " + std::to_string(ns + nk + nt);
  }
  score = 2;
  const std::uint64_t need = hb + kGasBytes * std::uint64_t(ns) + kDarkBytes * std::uint64_t(nk) +
                             kStarBytes * std::uint64_t(nt);
  if (need != size) {
    return "header counts (" + std::to_string(ns) + " gas, " + std::to_string(nk) + " dark, " +
           std::to_string(nt) + " star) need " + std::to_string(need) + " bytes with a " +
           std::to_string(hb) + "-byte header but the file has " + std::to_string(size) +
           (need > size ? " (truncated)" : " (extra bytes)");
  }
  if (!std::isfinite(time)) return "header time is not finite (" + std::to_string(time) + ")";
  score = 3;
  h.format = big ? Format::TipsyXdr : Format::TipsyNative;
  h.padded = padded;
  h.time = time;
  h.nbodies = std::size_t(nb), h.ndim = std::size_t(nd);
  h.nsph = std::size_t(ns), h.ndark = std::size_t(nk), h.nstar = std::size_t(nt);
  return {};
}

// reads records of `bytes` each from `offset` in chunks, calling fn(record pointer)
template <typename Fn>
void for_records(const detail::ByteSource& src, std::size_t offset, std::size_t count,
                 std::size_t bytes, Fn&& fn) {
  constexpr std::size_t kChunk = 8192;
  std::vector<unsigned char> buf(kChunk * bytes);
  for (std::size_t i = 0; i < count; i += kChunk) {
    const std::size_t k = std::min(kChunk, count - i);
    src.read(offset + i * bytes, buf.data(), k * bytes);
    for (std::size_t j = 0; j < k; ++j)
      if (!fn(buf.data() + j * bytes)) return;
  }
}

// true when the dark/star phi fields hold the ids NVIDIA's sample writes: dark ids
// 2e8 + k increasing, disk ids below 1e8 and bulge ids in [1e8, 2e8), each increasing, and at
// least one id non-zero. Real potentials are negative floats; tiny positive ones are not sorted.
bool looks_like_nvidia(const detail::ByteSource& src, const TipsyHeader& h) {
  bool ok = true, nonzero = false;
  std::int64_t last_dark = -1, last_disk = -1, last_bulge = -1;
  const std::size_t dark_at = h.header_bytes() + kGasBytes * h.nsph;
  for_records(src, dark_at, h.ndark, kDarkBytes, [&](const unsigned char* q) {
    const auto id = std::int64_t(detail::load<std::uint32_t>(q + 32, false));
    ok = id >= kDarkId && id < kDarkId + kBulgeId && id > last_dark;
    last_dark = id;
    nonzero = true;
    return ok;
  });
  if (!ok) return false;
  for_records(src, dark_at + kDarkBytes * h.ndark, h.nstar, kStarBytes,
              [&](const unsigned char* q) {
                const auto id = std::int64_t(detail::load<std::uint32_t>(q + 40, false));
                std::int64_t& last = id < kBulgeId ? last_disk : last_bulge;
                ok = id < kDarkId && id > last;
                last = id;
                nonzero = nonzero || id != 0;
                return ok;
              });
  return ok && nonzero;
}

float to_float(double v, const char* what) {
  if (!std::isfinite(v) || std::fabs(v) > FLT_MAX) {
    fail("cannot write Tipsy: ", what, " = ", v, " does not fit in a float");
  }
  return static_cast<float>(v);
}

}  // namespace

TipsyHeader read_tipsy_header(const void* data, std::size_t size, const std::string& source,
                              std::optional<Format> f) {
  return detail::read_tipsy_header(detail::MemorySource(data, size), source, f);
}

Scene read_tipsy(const void* data, std::size_t size, const std::string& source,
                 const LoadOptions& opt, std::optional<Format> f) {
  return detail::read_tipsy(detail::MemorySource(data, size), source, opt, f);
}

namespace detail {

TipsyHeader read_tipsy_header(const ByteSource& src, const std::string& source,
                              std::optional<Format> f) {
  const std::size_t size = src.size();
  unsigned char p[32] = {};
  src.read(0, p, std::min<std::size_t>(size, 32));
  if (f && *f != Format::TipsyXdr && *f != Format::TipsyNative && *f != Format::TipsyNvidia) {
    fail(source, ": ", format_name(*f), " is not a Tipsy format");
  }
  // try each byte order and header size; keep the most plausible failure for the message
  struct Try {
    bool big, padded;
  };
  std::vector<Try> tries;
  if (!f || *f == Format::TipsyXdr) tries.insert(tries.end(), {{true, true}, {true, false}});
  if (!f || *f != Format::TipsyXdr) tries.insert(tries.end(), {{false, true}, {false, false}});
  TipsyHeader h;
  std::string best_reason;
  int best_score = -1;
  bool best_big = true;
  for (const Try& t : tries) {
    int score = 0;
    std::string reason = check(p, size, t.big, t.padded, h, score);
    if (reason.empty()) {
      if (!h.nbodies) fail(source, ": Tipsy header says N = 0 (no bodies)");
      if (f == Format::TipsyNvidia || (!f && !t.big && looks_like_nvidia(src, h))) {
        h.format = Format::TipsyNvidia;
      }
      return h;
    }
    if (score > best_score) best_score = score, best_reason = reason, best_big = t.big;
  }
  if (size < 28) fail(source, ": not a Tipsy file: ", best_reason);
  fail(source, ": not a valid Tipsy file (",
       f ? order_name(*f == Format::TipsyXdr) : "tried both byte orders",
       f ? "" : (std::string(", closest: ") + order_name(best_big)), "): ", best_reason);
}

Scene read_tipsy(const ByteSource& src, const std::string& source, const LoadOptions& opt,
                 std::optional<Format> f) {
  const TipsyHeader h = read_tipsy_header(src, source, f);
  const bool big = h.format == Format::TipsyXdr;
  const bool nvidia = h.format == Format::TipsyNvidia;
  const std::size_t n = (opt.tipsy_gas ? h.nsph : 0) + (opt.tipsy_dark ? h.ndark : 0) +
                        (opt.tipsy_star ? h.nstar : 0);
  if (n == 0) {
    std::string sel;
    if (opt.tipsy_gas) sel += " gas";
    if (opt.tipsy_dark) sel += " dark";
    if (opt.tipsy_star) sel += " star";
    fail(source, ": no bodies of the selected types (", sel.empty() ? " none" : sel,
         " ); the file has ", h.nsph, " gas, ", h.ndark, " dark, ", h.nstar,
         " star (choose with --components)");
  }
  require_memory(n * 57, n, source);
  Scene s;
  Bodies& b = s.bodies;
  b.reserve(n);
  Progress prog(opt, h.nbodies);
  double eps = 0;
  std::size_t done = 0;
  auto f32 = [&](const unsigned char* q, int k) { return double(load<float>(q + 4 * k, big)); };
  auto body = [&](const unsigned char* q, Component c, double e) {
    b.add(f32(q, 1), f32(q, 2), f32(q, 3), f32(q, 4), f32(q, 5), f32(q, 6), f32(q, 0), c);
    if (eps == 0 && e > 0 && std::isfinite(e)) eps = e;
  };
  std::size_t off = h.header_bytes();
  // gas: mass pos vel rho temp hsmooth metals phi
  if (opt.tipsy_gas)
    for_records(src, off, h.nsph, kGasBytes, [&](const unsigned char* q) {
      body(q, Component::Gas, f32(q, 9));
      prog.tick(++done);
      return true;
    });
  off += kGasBytes * h.nsph;
  // dark: mass pos vel eps phi
  if (opt.tipsy_dark)
    for_records(src, off, h.ndark, kDarkBytes, [&](const unsigned char* q) {
      body(q, Component::Dark, f32(q, 7));
      prog.tick(++done);
      return true;
    });
  off += kDarkBytes * h.ndark;
  // star: mass pos vel metals tform eps phi
  if (opt.tipsy_star)
    for_records(src, off, h.nstar, kStarBytes, [&](const unsigned char* q) {
      Component c = Component::Star;
      if (nvidia) {
        const auto id = load<std::int32_t>(q + 40, false);
        c = id >= kBulgeId && id < kDarkId ? Component::Bulge : Component::Disk;
      }
      body(q, c, f32(q, 9));
      prog.tick(++done);
      return true;
    });
  prog.done();
  s.units = opt.input_units ? *opt.input_units : units::henon();
  if (opt.notice && !opt.input_units)
    opt.notice(source +
               ": Tipsy stores no units: taken as Hénon units (G = 1); give "
               "--input-units solar|galactic|agora|henon to change");
  s.softening = eps;
  s.name = source;
  s.description = std::string("Tipsy (") + format_name(h.format) + ") file " + source;
  if (opt.run) {
    *opt.run = RunRecord{};
    opt.run->time = h.time;
  }
  // validate before the defaults look at the values
  b.validate(source);
  set_defaults(s, source, opt, true, eps == 0, true);
  finish_scene(s, source, opt);
  return s;
}

}  // namespace detail

void write_tipsy(std::ostream& out, const Scene& s, Format f, bool padded, double time) {
  if (f != Format::TipsyXdr && f != Format::TipsyNative && f != Format::TipsyNvidia) {
    fail("write_tipsy: ", format_name(f), " is not a Tipsy format");
  }
  const bool big = f == Format::TipsyXdr;
  const bool nvidia = f == Format::TipsyNvidia;
  const Bodies& b = s.bodies;
  std::size_t ns = 0, nk = 0, nt = 0;
  for (Component c : b.component) {
    if (c == Component::Gas) {
      ++ns;
    } else if (c == Component::Dark) {
      ++nk;
    } else {
      ++nt;
    }
  }
  if (b.size() > std::size_t(INT32_MAX)) fail("cannot write Tipsy: more than 2^31-1 bodies");
  if (nvidia && std::max(nk, nt) >= std::size_t(kBulgeId)) {
    fail("cannot write Tipsy (NVIDIA ids): more than 1e8 bodies of one type");
  }
  using detail::store;
  std::string buf;
  store<double>(buf, time, big);
  for (std::size_t v : {b.size(), std::size_t(3), ns, nk, nt}) {
    store<std::int32_t>(buf, static_cast<std::int32_t>(v), big);
  }
  if (padded) store<std::int32_t>(buf, 0, big);
  const float eps = to_float(s.softening, "softening");
  auto common = [&](std::size_t i) {
    store<float>(buf, to_float(b.m[i], "mass"), big);
    store<float>(buf, to_float(b.x[i], "x"), big);
    store<float>(buf, to_float(b.y[i], "y"), big);
    store<float>(buf, to_float(b.z[i], "z"), big);
    store<float>(buf, to_float(b.vx[i], "vx"), big);
    store<float>(buf, to_float(b.vy[i], "vy"), big);
    store<float>(buf, to_float(b.vz[i], "vz"), big);
  };
  auto flush = [&] {
    if (buf.size() >= (1u << 20)) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  };
  // gas, then dark, then stars, each in the order of the bodies
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.component[i] != Component::Gas) continue;
    common(i);
    for (float v : {0.f, 0.f, eps, 0.f, 0.f})
      store<float>(buf, v, big);  // rho temp h Z phi
    flush();
  }
  std::int32_t k = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.component[i] != Component::Dark) continue;
    common(i);
    store<float>(buf, eps, big);
    if (nvidia) {
      store<std::int32_t>(buf, kDarkId + k++, big);
    } else {
      store<float>(buf, 0.f, big);
    }
    flush();
  }
  std::int32_t kd = 1, kb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const Component c = b.component[i];
    if (c == Component::Gas || c == Component::Dark) continue;
    common(i);
    for (float v : {0.f, 0.f, eps})
      store<float>(buf, v, big);  // metals tform eps
    if (nvidia) {
      store<std::int32_t>(buf, c == Component::Bulge ? kBulgeId + kb++ : kd++, big);
    } else {
      store<float>(buf, 0.f, big);
    }
    flush();
  }
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  if (!out) fail("cannot write Tipsy (write error)");
}

namespace {

// one detection for the three byte orders: the header's ndim, counts and the file size
Detection detect_tipsy(const Probe& p) {
  try {
    return {Match::Layout, detail::read_tipsy_header(*p.src, "", std::nullopt).format, {}};
  } catch (const Error& e) {
    std::string reason = e.what();
    if (reason.rfind(": ", 0) == 0) reason.erase(0, 2);
    return {Match::None, Format::TipsyXdr, reason};
  }
}

Scene read_tipsy_file(const std::string& path, Format f, const LoadOptions& opt) {
  return detail::read_tipsy(detail::FileSource(path), path, opt, f);
}

void write_tipsy_file(const Scene& s, const std::string& path, Format f, const SaveOptions& opt) {
  const double time = opt.run ? opt.run->time : 0;
  if (opt.notice)
    opt.notice(path +
               ": Tipsy stores no units, G, dt, softening length (only per particle), "
               "step count, kernel or integrator; only the time (" +
               detail::format_double(time) + ") is in the header. Load it with --input-units " +
               s.units.name);
  write_file(path, [&](std::ostream& o) { write_tipsy(o, s, f, true, time); });
}

void select_all_tipsy(const std::string&, LoadOptions& opt) {
  opt.tipsy_gas = opt.tipsy_dark = opt.tipsy_star = true;
}

// the three byte orders share everything but their names
FormatRow tipsy_row(Format f, const char* name, std::vector<std::string> aliases,
                    std::vector<std::string> extensions, const char* description) {
  const bool xdr = f == Format::TipsyXdr;
  return FormatRow{
      .id = f,
      .name = name,
      .aliases = std::move(aliases),
      .extensions = std::move(extensions),
      .label = "Tipsy",
      .description = description,
      .caps = {.time = true, .components = true, .own_extensions = xdr},
      .detect = xdr ? detect_tipsy : nullptr,  // finds the byte order of all three
      .read = read_tipsy_file,
      .write = write_tipsy_file,
      .select_all = select_all_tipsy,
  };
}

}  // namespace

namespace detail {

const FormatRow& tipsy_xdr_format() {
  static const FormatRow row = tipsy_row(Format::TipsyXdr, "tipsy-xdr", {"tipsy", "xdr", "std"},
                                         {".tipsy", ".std"}, "Tipsy, standard big-endian XDR");
  return row;
}

const FormatRow& tipsy_native_format() {
  static const FormatRow row =
      tipsy_row(Format::TipsyNative, "tipsy-native", {"tipsy-le"}, {}, "Tipsy, little-endian");
  return row;
}

const FormatRow& tipsy_nvidia_format() {
  static const FormatRow row =
      tipsy_row(Format::TipsyNvidia, "tipsy-nvidia", {"nvidia"}, {},
                "Tipsy as NVIDIA's nbody sample reads it (little-endian, int ids in phi)");
  return row;
}

}  // namespace detail

}  // namespace nbody::io
