#pragma once
// Bodies to add (issue 19): the palette of sensible bodies for a scene, with their masses in the
// scene's units, and a comet thrown in from the edge of the system.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/scene.hpp"
#include "sim/edit/edit.hpp"

namespace nbody {

/// One body the palette offers.
struct PaletteEntry {
  std::string label;  ///< "Earth", "10⁶ M☉ black hole", "1% of the total mass"
  double mass = 0;    ///< in the scene's mass unit
  Component component = Component::Star;
  std::string help;  ///< one line for the tooltip
};

/// The bodies that make sense in `s`, from its units: planetary units (length unit below a
/// light year): a Ceres-like asteroid, the Earth, Jupiter and a Sun-like star; galactic units: a
/// star, a 10⁶ M☉ black hole and a 10⁹ M☉ dwarf galaxy core; dimensionless units: 0.1%, 1%,
/// 10% and 100% of the total mass.
std::vector<PaletteEntry> palette(const Scene& s);

/// A massless comet thrown in from the edge of `s`: it starts at 1.3 times the distance of the
/// outermost massive body from the heaviest one, inbound on a near-parabolic bound orbit about
/// the heaviest (e in [0.98, 0.999]) whose pericentre lies in the inner system (2% to 8% of that
/// distance), oriented at random from `seed`; named "comet N" (N one more than the highest N of
/// the scene's comets). G is the run's gravitational constant.
BodySpec throw_comet(const Scene& s, double G, std::uint64_t seed);

}  // namespace nbody
