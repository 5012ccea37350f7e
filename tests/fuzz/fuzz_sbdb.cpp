// libFuzzer target: JPL SBDB Query API JSON (sim/sky/sbdb.hpp). looks_like_sbdb must not read
// out of bounds; read_sbdb must throw nbody::Error or return small bodies with a usable conic
// (q > 0, e >= 0, finite angles and tp); each body's element -> state conversion and its
// two-body propagation to the scene date must terminate and give a finite state or throw
// nbody::Error; and sbdb_scene must throw nbody::Error or give a scene that validates.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "sim/core/error.hpp"
#include "sim/sky/kepler.hpp"
#include "sim/sky/sbdb.hpp"

namespace {

bool finite(const nbody::sky::State& s) {
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(s.r[k]) || !std::isfinite(s.v[k])) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace nbody;
  const char* p = reinterpret_cast<const char*>(data);
  (void)sky::looks_like_sbdb(p, size);
  sky::SbdbData d;
  try {
    d = sky::read_sbdb(p, size, "fuzz.json");
  } catch (const Error&) {
    return 0;
  }
  for (const sky::SmallBody& b : d.bodies) {
    const sky::Elements& el = b.el;
    if (!(el.q > 0) || !(el.e >= 0) || !std::isfinite(el.q) || !std::isfinite(el.e) ||
        !std::isfinite(el.i) || !std::isfinite(el.node) || !std::isfinite(el.peri))
      __builtin_trap();
  }
  if (d.bodies.empty()) {
    try {
      (void)sky::sbdb_scene(d, "fuzz.json");
    } catch (const Error&) {
      return 0;
    }
    __builtin_trap();  // no bodies must be refused
  }
  // the scene date as sbdb_scene picks it: the most common element epoch
  std::map<double, std::size_t> count;
  for (const sky::SmallBody& b : d.bodies)
    ++count[b.epoch];
  double jd = d.bodies.front().epoch;
  std::size_t best = 0;
  for (const auto& [t, k] : count)
    if (k > best) best = k, jd = t;
  // each body on its own, so that a non-finite state is seen before Bodies::validate turns it
  // into an error
  for (const sky::SmallBody& b : d.bodies) {
    try {
      if (!finite(sky::state_from_elements(b.el, sky::kGmSun, jd))) __builtin_trap();
    } catch (const Error&) {
    }
  }
  try {
    const Scene s = sky::sbdb_scene(d, "fuzz.json");
    s.bodies.validate("fuzz.json");
    if (s.bodies.size() != d.bodies.size() + 1 || s.body_class.size() != s.bodies.size() ||
        s.epoch_jd != jd)
      __builtin_trap();
  } catch (const Error&) {
  }
  return 0;
}
