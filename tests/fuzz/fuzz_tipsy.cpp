// libFuzzer target: the Tipsy loader (detected and each explicit byte order) must throw
// nbody::Error or return valid bodies.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "sim/core/error.hpp"
#include "sim/io/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using nbody::io::Format;
  nbody::io::LoadOptions opt;
  opt.tipsy_gas = opt.tipsy_dark = opt.tipsy_star = true;
  // vary the selection and the requested byte order with the input size
  if (size % 3 == 1) opt.tipsy_gas = false;
  if (size % 5 == 2) opt.tipsy_star = false;
  const std::optional<Format> formats[] = {std::nullopt, Format::TipsyXdr, Format::TipsyNative,
                                           Format::TipsyNvidia};
  for (const auto& f : formats) {
    try {
      nbody::Scene s = nbody::io::read_tipsy(data, size, "fuzz.tipsy", opt, f);
      s.bodies.validate("fuzz.tipsy");
      if (s.bodies.empty() || !(s.dt > 0) || !(s.softening >= 0)) __builtin_trap();
    } catch (const nbody::Error&) {
    }
  }
  return 0;
}
