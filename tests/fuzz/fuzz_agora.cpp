// libFuzzer target: one AGORA .dat file (the gas layout when the first byte is odd) must throw
// nbody::Error or give bodies that validate, with a usable dt/ε after the defaults.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace nbody;
  const bool gas = size > 0 && (data[0] & 1);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    Scene s;
    s.units = units::agora();
    bool have_dt = false, have_eps = false;
    io::RunRecord run;
    io::LoadOptions opt;
    opt.run = &run;
    const auto header =
        io::detail::read_agora_dat(in, "fuzz.dat", gas ? Component::Gas : Component::Disk, gas, s);
    if (header) io::detail::apply_agora_header(*header, s, have_dt, have_eps, opt);
    s.bodies.validate("fuzz.dat");
    io::detail::set_defaults(s, "fuzz.dat", opt, !have_dt, !have_eps, true);
    if (!(s.dt > 0) || !(s.softening >= 0)) __builtin_trap();
  } catch (const Error&) {
  }
  return 0;
}
