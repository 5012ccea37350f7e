#pragma once
// Which body a body orbits: the attractor by spheres of influence (Laplace), the choice shared
// by the orbit outlines and the body card. The Moon orbits the Earth although the Sun pulls it
// harder; a planet orbits the Sun; a star of a galaxy has no attractor.

#include <cstddef>
#include <vector>

#include "sim/core/bodies.hpp"
#include "sim/sky/ephemeris.hpp"

namespace nbody {

/// Each body's sphere of influence about the heaviest body: d (m / M)^(2/5), d the distance to
/// the heaviest, M its mass; the heaviest's is infinite, a massless body's 0. O(N).
std::vector<double> spheres_of_influence(const Bodies& b);

/// The heavier body whose sphere of influence holds body i, the most local one (smallest
/// sphere); -1 when none does. `soi` from spheres_of_influence(b). O(N).
long attractor(const Bodies& b, std::size_t i, const std::vector<double>& soi);

/// Body i's position and velocity relative to body d.
sky::State relative_state(const Bodies& b, std::size_t i, std::size_t d);

}  // namespace nbody
