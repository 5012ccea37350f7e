// libFuzzer target: the native CSV parser must throw nbody::Error or return valid bodies.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/io/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    nbody::Scene s = nbody::io::read_csv(in, "fuzz.csv");
    s.bodies.validate("fuzz.csv");
    if (s.bodies.empty() || !(s.dt > 0)) __builtin_trap();
  } catch (const nbody::Error&) {
  }
  return 0;
}
