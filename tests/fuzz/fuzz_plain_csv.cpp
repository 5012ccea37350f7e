// libFuzzer target: CSV whose first line is a column header (plain CSV, any order and case) or
// a native header; the input is prefixed with a column header when the first byte is odd, so
// the plain path is reached from any bytes. Must throw nbody::Error or return valid bodies.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/io/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (size > 0 && (data[0] & 1)) text = "m,Z,y,x,VZ,vy,vx,name,component\n" + text.substr(1);
  std::istringstream in(text);
  try {
    nbody::io::LoadOptions opt;
    opt.input_units = nbody::units::galactic();
    nbody::Scene s = nbody::io::read_csv(in, "fuzz.csv", opt);
    s.bodies.validate("fuzz.csv");
    if (s.bodies.empty() || !(s.dt > 0)) __builtin_trap();
    if (!s.bodies.name.empty() && s.bodies.name.size() != s.bodies.size()) __builtin_trap();
  } catch (const nbody::Error&) {
  }
  return 0;
}
