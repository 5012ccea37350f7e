// Native binary: a 304-byte little-endian header, then the arrays x, y, z, vx, vy, vz, m
// (double) and component (uint8), then optional names (uint16 length + bytes each) and an
// optional run record (f64 elapsed time, u64 steps, kernel and integrator as u16 length +
// bytes); header flags bit 0 and bit 1 say which follow. Version 2 adds flag bit 2: the saved
// state follows the run record (precision as u16 length + bytes, i32 GPUs, then the tunables and
// the view as u16 count + (u16 length + key bytes, f64 value) each). A file without the state is
// written as version 1, so older programs read it. Version 3 adds flag bit 3: the scene's viewing
// direction (f64 yaw, f64 pitch in radians, see Scene::camera_yaw) at the very end; a file is
// written as the lowest version that holds what it carries.
//
//   0 magic "NBODYBIN"   8 u32 version (1 to 3)   12 u32 flags (bit 0: names follow)   16 u64 N
//  24 f64 G   32 f64 length_m   40 f64 mass_kg   48 f64 time_s
//  56 f64 dt  64 f64 softening  72 f64 camera distance
//  80 char[32] units id, length, mass, time, velocity labels (NUL-padded)
// 240 char[64] scene name (NUL-padded)

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"
#include "sim/io/format_table.hpp"

namespace nbody::io {

namespace {

constexpr char kMagic[8] = {'N', 'B', 'O', 'D', 'Y', 'B', 'I', 'N'};
constexpr std::uint32_t kVersion = 3;  // the newest; 1 has no state flag, 2 no view flag
constexpr std::size_t kHeader = 304;
constexpr std::size_t kBytesPerBody = 7 * 8 + 1;
constexpr std::uint32_t kFlagNames = 1;
constexpr std::uint32_t kFlagRun = 2;
constexpr std::uint32_t kFlagState = 4;  // version 2
constexpr std::uint32_t kFlagView = 8;   // version 3

// a NUL-padded fixed-size label; false when it has no terminating NUL
bool read_label(const unsigned char* p, std::size_t n, std::string& out) {
  const void* z = std::memchr(p, 0, n);
  if (!z) return false;
  out.assign(reinterpret_cast<const char*>(p), static_cast<const unsigned char*>(z) - p);
  return true;
}

void write_label(std::string& out, const std::string& s, std::size_t n, const char* what) {
  if (s.size() >= n)
    fail("cannot write binary: ", what, " '", s, "' is longer than ", n - 1, " bytes");
  out += s;
  out.append(n - s.size(), '\0');
}

// the scene's viewing direction at the end (version 3, flag bit 3): f64 yaw, f64 pitch (radians)
template <class Take>
void read_view(Scene& s, Take& take, const detail::ByteSource& src, const std::string& source) {
  unsigned char v[16];
  src.read(take(16, "viewing direction", SIZE_MAX), v, 16);
  s.camera_yaw = detail::load<double>(v, false);
  s.camera_pitch = detail::load<double>(v + 8, false);
  if (!std::isfinite(s.camera_yaw) || !std::isfinite(s.camera_pitch))
    fail(source, ": viewing direction (yaw ", s.camera_yaw, ", pitch ", s.camera_pitch,
         ") is not finite (radians)");
}

// the saved state after the run record (version 2, flag bit 2)
template <class Take, class Text>
void read_state(RunRecord& run, Take& take, Text& text, const detail::ByteSource& src,
                const std::string& source) {
  using detail::load;
  text("saved state", SIZE_MAX, run.precision);
  if (!run.precision.empty() && run.precision != "float" && run.precision != "double")
    fail(source, ": saved state precision ", detail::quote(run.precision),
         " is not float or double");
  unsigned char g[4];
  src.read(take(4, "saved state", SIZE_MAX), g, 4);
  run.gpus = load<std::int32_t>(g, false);
  if (run.gpus < 0 || run.gpus > 4096)
    fail(source, ": saved state GPUs ", run.gpus, " is not a number of GPUs (0: all)");
  for (auto* m : {&run.tunables, &run.view}) {
    const char* what = m == &run.tunables ? "saved state tunables" : "saved state view";
    unsigned char c[2];
    src.read(take(2, what, SIZE_MAX), c, 2);
    const std::size_t count = std::size_t(c[0] | (c[1] << 8));
    for (std::size_t i = 0; i < count; ++i) {
      std::string key;
      text(what, SIZE_MAX, key);
      unsigned char v[8];
      src.read(take(8, what, SIZE_MAX), v, 8);
      const double value = load<double>(v, false);
      if (!detail::valid_map_key(key) || !std::isfinite(value) || !m->emplace(key, value).second)
        fail(source, ": ", what, " entry ", detail::quote(key),
             " is not a unique key of [A-Za-z0-9_.-] with a finite value");
    }
  }
}

void write_text(std::string& buf, const std::string& t, const char* what) {
  if (t.size() > 0xFFFF) fail("cannot write binary: ", what, " longer than 65535 bytes");
  detail::store<std::uint16_t>(buf, static_cast<std::uint16_t>(t.size()), false);
  buf += t;
}

void write_state(std::string& buf, const RunRecord& run) {
  using detail::store;
  write_text(buf, run.precision, "precision");
  store<std::int32_t>(buf, run.gpus, false);
  for (const auto* m : {&run.tunables, &run.view}) {
    if (m->size() > 0xFFFF) fail("cannot write binary: more than 65535 tunables or view keys");
    store<std::uint16_t>(buf, static_cast<std::uint16_t>(m->size()), false);
    for (const auto& [key, value] : *m) {
      if (!detail::valid_map_key(key))
        fail("cannot write binary: run record key ", detail::quote(key),
             " is not made of letters, digits, '_', '.' and '-'");
      write_text(buf, key, "key");
      store<double>(buf, value, false);
    }
  }
}

}  // namespace

Scene read_binary(const void* data, std::size_t size, const std::string& source,
                  const LoadOptions& opt) {
  return detail::read_binary(detail::MemorySource(data, size), source, opt);
}

namespace detail {

Scene read_binary(const ByteSource& src, const std::string& source, const LoadOptions& opt) {
  const std::size_t size = src.size();
  unsigned char hb[kHeader];
  using detail::load;
  // header
  if (size >= 8) src.read(0, hb, 8);
  if (size < 8 || std::memcmp(hb, kMagic, 8) != 0) {
    fail(source, ": not a native nbody binary file (magic 'NBODYBIN' missing)");
  }
  if (size < kHeader) {
    fail(source, ": truncated: ", size, " bytes, shorter than the ", kHeader, "-byte header");
  }
  src.read(0, hb, kHeader);
  const unsigned char* p = hb;
  const auto version = load<std::uint32_t>(p + 8, false);
  const auto flags = load<std::uint32_t>(p + 12, false);
  const auto n64 = load<std::uint64_t>(p + 16, false);
  if (version < 1 || version > kVersion) {
    fail(source, ": unsupported binary version ", version, " (this program reads 1 to ", kVersion,
         ")");
  }
  const std::uint32_t known =
      kFlagNames | kFlagRun | (version >= 2 ? kFlagState : 0) | (version >= 3 ? kFlagView : 0);
  if (flags & ~known) fail(source, ": unknown header flags 0x", std::hex, flags);
  if ((flags & kFlagState) && !(flags & kFlagRun))
    fail(source, ": header flags a saved state without a run record");
  if (n64 == 0) fail(source, ": header says N = 0 (no bodies)");
  // the counts must fit in the file and in memory before anything is allocated
  const std::size_t avail = size - kHeader;
  if (n64 > avail / kBytesPerBody) {
    fail(source, ": header says N = ", n64, " bodies (", kBytesPerBody, " bytes each) but only ",
         avail, " bytes follow the header (truncated file?)");
  }
  const std::size_t n = static_cast<std::size_t>(n64);
  const std::size_t arrays = n * kBytesPerBody;
  if (!(flags & (kFlagNames | kFlagRun | kFlagView)) && avail != arrays) {
    fail(source, ": header says N = ", n, " bodies = ", arrays, " bytes of arrays but ", avail,
         " bytes follow the header");
  }
  require_memory(arrays, n, source);
  Scene s;
  UnitSystem& u = s.units;
  u.G = load<double>(p + 24, false);
  u.length_m = load<double>(p + 32, false);
  u.mass_kg = load<double>(p + 40, false);
  u.time_s = load<double>(p + 48, false);
  s.dt = load<double>(p + 56, false);
  s.softening = load<double>(p + 64, false);
  s.camera_distance = load<double>(p + 72, false);
  const char* label_names[] = {"units id", "length label", "mass label", "time label",
                               "velocity label"};
  std::string* labels[] = {&u.name, &u.length, &u.mass, &u.time, &u.velocity};
  for (int k = 0; k < 5; ++k) {
    if (!read_label(p + 80 + 32 * k, 32, *labels[k])) {
      fail(source, ": header ", label_names[k], " is not NUL-terminated");
    }
  }
  if (!read_label(p + 240, 64, s.name)) fail(source, ": header scene name is not NUL-terminated");
  if (!std::isfinite(u.G) || !(u.G > 0)) fail(source, ": header G = ", u.G, " must be positive");
  for (double v : {u.length_m, u.mass_kg, u.time_s}) {
    if (!std::isfinite(v) || v < 0) fail(source, ": header unit scale ", v, " is not valid");
  }
  if (!std::isfinite(s.dt) || !(s.dt > 0))
    fail(source, ": header dt = ", s.dt, " must be positive");
  if (!std::isfinite(s.softening) || s.softening < 0) {
    fail(source, ": header softening = ", s.softening, " must be >= 0");
  }
  if (!std::isfinite(s.camera_distance) || !(s.camera_distance > 0)) {
    s.camera_distance = 0;  // refilled below
  }
  // arrays, read straight into the bodies
  Bodies& b = s.bodies;
  try {
    b.resize(n);
  } catch (const std::bad_alloc&) {
    fail(source, ": ", n, " bodies: not enough memory");
  }
  std::vector<double>* cols[] = {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.m};
  detail::Progress prog(opt, n);
  std::size_t off = kHeader;
  constexpr std::size_t kChunk = 1u << 17;  // values per read
  for (int c = 0; c < 7; ++c) {
    double* dst = cols[c]->data();
    for (std::size_t i = 0; i < n; i += kChunk) {
      const std::size_t k = std::min(kChunk, n - i);
      src.read(off + 8 * i, dst + i, 8 * k);
      if constexpr (std::endian::native != std::endian::little) {
        for (std::size_t j = i; j < i + k; ++j)
          dst[j] = load<double>(reinterpret_cast<const unsigned char*>(dst + j), false);
      }
      prog.fraction((double(c) + double(i + k) / double(n)) / 8.0);
    }
    off += 8 * n;
  }
  static_assert(sizeof(Component) == 1);
  src.read(off, b.component.data(), n);
  off += n;
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = static_cast<unsigned char>(b.component[i]);
    if (v >= kComponentCount) {
      fail(source, ": body ", i, " has component ", int(v), " (valid: 0..", kComponentCount - 1,
           ")");
    }
  }
  // names: (u16 length, bytes) each
  auto take = [&](std::size_t k, const char* what, std::size_t i) {
    if (size - off < k)
      fail(source, ": truncated in the ", what,
           i == SIZE_MAX ? std::string() : " of body " + std::to_string(i));
    const std::size_t at = off;
    off += k;
    return at;
  };
  std::string tmp;
  auto text = [&](const char* what, std::size_t i, std::string& out) {
    unsigned char l[2];
    src.read(take(2, what, i), l, 2);
    const std::size_t len = std::size_t(l[0] | (l[1] << 8));
    out.resize(len);
    if (len) src.read(take(len, what, i), out.data(), len);
  };
  if (flags & kFlagNames) {
    b.name.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      text("name", i, b.name[i]);
  }
  // the run: f64 elapsed time, u64 steps, kernel and integrator (u16 length + bytes)
  if (flags & kFlagRun) {
    unsigned char r[16];
    src.read(take(16, "run record", SIZE_MAX), r, 16);
    RunRecord run;
    run.time = load<double>(r, false);
    const auto steps = load<std::uint64_t>(r + 8, false);
    if (!std::isfinite(run.time) || steps > std::uint64_t(INT64_MAX))
      fail(source, ": run record holds a non-finite time or an impossible step count");
    run.steps = static_cast<long long>(steps);
    text("run record", SIZE_MAX, run.kernel);
    text("run record", SIZE_MAX, run.integrator);
    if (flags & kFlagState) read_state(run, take, text, src, source);
    if (opt.run) *opt.run = run;
  }
  if (flags & kFlagView) read_view(s, take, src, source);
  if (off != size) fail(source, ": ", size - off, " unexpected bytes at the end");
  prog.done();
  if (s.camera_distance == 0) detail::set_defaults(s, source, opt, false, false, true);
  s.description = "native binary file " + source;
  if (s.name.empty()) s.name = source;
  detail::finish_scene(s, source, opt);
  return s;
}

}  // namespace detail

void write_binary(std::ostream& out, const Scene& s, const std::optional<RunRecord>& run) {
  check_scene_output(s, "binary", Format::Binary);  // what the reader could not read back
  const Bodies& b = s.bodies;
  const UnitSystem& u = s.units;
  const std::size_t n = b.size();
  using detail::store;
  std::string h;
  h.reserve(kHeader);
  h.append(kMagic, 8);
  const bool state = run && run->has_state();
  const bool view = std::isfinite(s.camera_yaw) && std::isfinite(s.camera_pitch);
  store<std::uint32_t>(h, view ? 3 : state ? 2 : 1, false);
  store<std::uint32_t>(h,
                       (b.name.empty() ? 0 : kFlagNames) | (run ? kFlagRun : 0) |
                           (state ? kFlagState : 0) | (view ? kFlagView : 0),
                       false);
  store<std::uint64_t>(h, n, false);
  for (double v : {u.G, u.length_m, u.mass_kg, u.time_s, s.dt, s.softening, s.camera_distance}) {
    store<double>(h, v, false);
  }
  write_label(h, u.name, 32, "units id");
  write_label(h, u.length, 32, "length label");
  write_label(h, u.mass, 32, "mass label");
  write_label(h, u.time, 32, "time label");
  write_label(h, u.velocity, 32, "velocity label");
  write_label(h, s.name.size() < 64 ? s.name : s.name.substr(0, 63), 64, "scene name");
  out.write(h.data(), static_cast<std::streamsize>(h.size()));
  // arrays, in chunks
  const std::vector<double>* cols[] = {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.m};
  std::string buf;
  for (const auto* c : cols) {
    for (std::size_t i = 0; i < n; ++i) {
      store<double>(buf, (*c)[i], false);
      if (buf.size() >= (1u << 20)) {
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.clear();
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    buf += static_cast<char>(b.component[i]);
  if (!b.name.empty()) {
    for (const std::string& nm : b.name) {
      if (nm.size() > 0xFFFF) fail("cannot write binary: body name longer than 65535 bytes");
      store<std::uint16_t>(buf, static_cast<std::uint16_t>(nm.size()), false);
      buf += nm;
    }
  }
  if (run) {
    store<double>(buf, run->time, false);
    store<std::uint64_t>(buf, static_cast<std::uint64_t>(std::max(0LL, run->steps)), false);
    for (const std::string* t : {&run->kernel, &run->integrator}) {
      if (t->size() > 0xFFFF) fail("cannot write binary: kernel/integrator name too long");
      store<std::uint16_t>(buf, static_cast<std::uint16_t>(t->size()), false);
      buf += *t;
    }
    if (state) write_state(buf, *run);
  }
  if (view) {
    store<double>(buf, s.camera_yaw, false);
    store<double>(buf, s.camera_pitch, false);
  }
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  if (!out) fail("cannot write binary (write error)");
}

namespace {

Detection detect_binary(const Probe& p) {
  if (p.head.substr(0, 8) == "NBODYBIN") return {Match::Signature, Format::Binary, {}};
  return {Match::None, Format::Binary, "not a native binary (no 'NBODYBIN' magic)"};
}

Scene read_binary_file(const std::string& path, Format, const LoadOptions& opt) {
  return detail::read_binary(detail::FileSource(path), path, opt);
}

void write_binary_file(const Scene& s, const std::string& path, Format, const SaveOptions& opt) {
  write_file(path, [&](std::ostream& o) { write_binary(o, s, opt.run); });
}

// names and labels longer than the fixed fields hold
void check_binary_scene(const Scene& s, const std::string& path) {
  const Bodies& b = s.bodies;
  for (std::size_t i = 0; i < b.name.size(); ++i)
    if (b.name[i].size() > 0xFFFF)
      fail(path, ": the name of body ", i, " is ", b.name[i].size(),
           " bytes long; the binary format holds names of at most 65,535 bytes");
  const std::pair<const std::string*, const char*> labels[] = {
      {&s.units.name, "units id"},
      {&s.units.length, "length label"},
      {&s.units.mass, "mass label"},
      {&s.units.time, "time label"},
      {&s.units.velocity, "velocity label"}};
  for (const auto& [label, what] : labels)
    if (label->size() > 31 || label->find('\0') != std::string::npos)
      fail(path, ": the ", what, " ", detail::quote(*label),
           " is longer than the 31 bytes the binary header holds or holds a NUL byte");
}

}  // namespace

namespace detail {

const FormatRow& binary_format() {
  static const FormatRow row{
      .id = Format::Binary,
      .name = "bin",
      .aliases = {"binary", "nbody"},
      .extensions = {".bin", ".nbody"},
      .label = "native binary",
      .description =
          "native little-endian binary: exact doubles, names, units, the run and a "
          "saved state",
      .caps = {.names = true, .units = true, .time = true, .run = true, .saved_state = true},
      .detect = detect_binary,
      .read = read_binary_file,
      .write = write_binary_file,
      .check_scene = check_binary_scene,
  };
  return row;
}

}  // namespace detail

}  // namespace nbody::io
