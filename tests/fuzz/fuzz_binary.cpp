// libFuzzer target: the native binary loader must throw nbody::Error or return valid bodies.

#include <cstddef>
#include <cstdint>

#include "sim/core/error.hpp"
#include "sim/io/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nbody::io::LoadOptions opt;
  opt.progress = [](double f) {
    if (!(f >= 0 && f <= 1)) __builtin_trap();
  };
  try {
    nbody::Scene s = nbody::io::read_binary(data, size, "fuzz.bin", opt);
    // what comes back must be valid
    s.bodies.validate("fuzz.bin");
    if (s.bodies.empty() || !(s.dt > 0)) __builtin_trap();
  } catch (const nbody::Error&) {
  }
  return 0;
}
