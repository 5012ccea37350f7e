// libFuzzer targets: write -> read -> equal, one per format (NBODY_ROUNDTRIP_FORMAT: 0 CSV,
// 1 binary, 2 Tipsy XDR, 3 AGORA). The input bytes become a scene (up to 32 bodies: positions,
// velocities, masses, components, names, units labels, dt, softening); a writer may refuse it
// with nbody::Error (e.g. a CSV name with a line break), but what it writes must read back equal
// (Tipsy: as floats; AGORA: in its own units, disk bodies); anything else traps.

#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/io/io.hpp"

namespace {

using namespace nbody;

struct Bytes {
  const std::uint8_t* p;
  std::size_t n;
  std::uint8_t u8() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  double f64() {
    double v = 0;
    unsigned char b[8] = {};
    for (unsigned char& c : b)
      c = u8();
    std::memcpy(&v, b, 8);
    return v;
  }
  std::string str(std::size_t max) {
    std::string s;
    const std::size_t len = u8() % (max + 1);
    for (std::size_t i = 0; i < len && n > 0; ++i)
      s += static_cast<char>(u8());
    return s;
  }
};

// removed when the process exits (libFuzzer's -max_total_time, -runs)
struct TempDir {
  std::string path =
      (std::filesystem::temp_directory_path() / ("nbody_fuzz_rt_" + std::to_string(::getpid())))
          .string();
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

bool same(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr int kFormat = NBODY_ROUNDTRIP_FORMAT;
  Bytes in{data, size};
  Scene s;
  const int unit_kind = in.u8() % 3;
  s.units =
      kFormat == 3     ? units::agora()
      : unit_kind == 0 ? units::henon()
      : unit_kind == 1
          ? units::galactic()
          : UnitSystem{
                "custom",           in.str(12),          in.str(12),          in.str(12),
                in.str(12),         std::fabs(in.f64()), std::fabs(in.f64()), std::fabs(in.f64()),
                std::fabs(in.f64())};
  s.name = in.str(24);
  s.dt = std::fabs(in.f64());
  s.softening = std::fabs(in.f64());
  const bool names = in.u8() & 1;
  const std::size_t n = in.u8() % 33;
  for (std::size_t i = 0; i < n; ++i) {
    double v[7];
    for (double& x : v)
      x = in.f64();
    Component c = static_cast<Component>(in.u8() % kComponentCount);
    if (kFormat == 3) c = Component::Disk;
    s.bodies.add(v[0], v[1], v[2], v[3], v[4], v[5], v[6], c, names ? in.str(20) : "");
  }
  if (kFormat == 2)  // Tipsy stores floats: make the values floats
    for (auto* col : {&s.bodies.x, &s.bodies.y, &s.bodies.z, &s.bodies.vx, &s.bodies.vy,
                      &s.bodies.vz, &s.bodies.m})
      for (double& x : *col)
        x = static_cast<double>(static_cast<float>(x));
  io::RunRecord run;
  run.time = std::fabs(in.f64());
  run.steps = in.u8();
  run.kernel = in.str(8);
  run.integrator = in.str(8);
  // write (a refusal is fine) then read: the read must succeed
  std::string bytes;
  Scene r;
  io::LoadOptions lo;
  lo.need_dt = lo.need_softening = false;
  lo.tipsy_gas = lo.tipsy_dark = lo.tipsy_star = true;
  if (!std::isfinite(run.time)) return 0;
  // AGORA: with no disk bodies, disk.dat of the reused directory is left as it was (documented)
  if (kFormat == 3 && s.bodies.empty()) return 0;
  try {
    s.bodies.validate("fuzz");
    if (!(s.dt > 0) || !std::isfinite(s.dt) || !std::isfinite(s.softening)) return 0;
    if (!(s.units.G > 0) || !std::isfinite(s.units.G)) return 0;
    if (kFormat == 0) {
      std::ostringstream o;
      io::write_csv(o, s, run);
      bytes = o.str();
    } else if (kFormat == 1) {
      io::check_scene_output(s, "fuzz.bin", io::Format::Binary);
      std::ostringstream o;
      io::write_binary(o, s, run);
      bytes = o.str();
    } else if (kFormat == 2) {
      std::ostringstream o;
      io::write_tipsy(o, s, io::Format::TipsyXdr, true, run.time);
      bytes = o.str();
    } else {
      // one directory per process, reused: later writes go through --force (files of
      // components without bodies are left as they were, holding an older run's comment)
      static const TempDir dir;
      io::SaveOptions so;
      so.force = true;
      so.run = run;
      io::save(s, dir.path, io::Format::Agora, so);
      bytes = dir.path;
    }
  } catch (const Error&) {
    return 0;
  }
  io::RunRecord back;
  lo.run = &back;
  try {
    if (kFormat == 0) {
      std::istringstream i(bytes);
      r = io::read_csv(i, "fuzz.csv", lo);
    } else if (kFormat == 1) {
      r = io::read_binary(bytes.data(), bytes.size(), "fuzz.bin", lo);
    } else if (kFormat == 2) {
      r = io::read_tipsy(bytes.data(), bytes.size(), "fuzz.tipsy", lo, io::Format::TipsyXdr);
    } else {
      r = io::load(bytes, io::Format::Agora, lo);
    }
  } catch (const Error& e) {
    // written by our own writer, refused by our own reader
    if (kFormat == 3 && s.bodies.empty()) return 0;  // no disk bodies: nothing to read
    std::fprintf(stderr, "round trip: the reader refused what the writer wrote: %s\n", e.what());
    __builtin_trap();
  }
  // Tipsy stores gas, then dark, then star records: the expected order is that
  if (kFormat == 2) {
    Bodies sorted;
    for (int pass = 0; pass < 3; ++pass)
      for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        const Component c = s.bodies.component[i];
        const int group = c == Component::Gas ? 0 : c == Component::Dark ? 1 : 2;
        if (group == pass)
          sorted.add(s.bodies.x[i], s.bodies.y[i], s.bodies.z[i], s.bodies.vx[i], s.bodies.vy[i],
                     s.bodies.vz[i], s.bodies.m[i], c);
      }
    s.bodies = sorted;
  }
  const Bodies &a = s.bodies, &b = r.bodies;
  if (a.size() != b.size()) __builtin_trap();
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same(a.x[i], b.x[i]) || !same(a.y[i], b.y[i]) || !same(a.z[i], b.z[i]) ||
        !same(a.vx[i], b.vx[i]) || !same(a.vy[i], b.vy[i]) || !same(a.vz[i], b.vz[i]) ||
        !same(a.m[i], b.m[i]))
      __builtin_trap();
    if (kFormat <= 1) {
      if (a.component[i] != b.component[i]) __builtin_trap();
      const std::string na = a.name.empty() ? "" : a.name[i];
      const std::string nb = b.name.empty() ? "" : b.name[i];
      if (na != nb) __builtin_trap();
    }
  }
  if (kFormat <= 1) {
    if (r.units.G != s.units.G || r.units.length != s.units.length ||
        r.units.mass != s.units.mass || r.units.time != s.units.time || r.dt != s.dt ||
        r.softening != s.softening)
      __builtin_trap();
    if (kFormat == 0 && !s.name.empty() && r.name != s.name) __builtin_trap();
  }
  // the run, and AGORA's dt and ε (its comment records them in its own units, the scene's here)
  if (kFormat != 2 && (back.time != run.time || back.steps != run.steps ||
                       back.kernel != run.kernel || back.integrator != run.integrator))
    __builtin_trap();
  if (kFormat == 3 && (r.dt != s.dt || r.softening != s.softening)) __builtin_trap();
  return 0;
}
