#pragma once
// The card of one body (issue 19): what the window shows when a body is clicked. Name, mass,
// state, the body that pulls it hardest (its dominant body), the osculating two-body elements
// about that body and the body's kinetic and potential energy. O(N) per card.

#include <cstddef>
#include <string>

#include "sim/core/bodies.hpp"
#include "sim/core/scene.hpp"

namespace nbody {

/// What the window shows of one body, in the scene's units.
struct BodyCard {
  std::size_t index = 0;
  std::string name;  ///< the body's name, or "body <index>"
  double mass = 0;
  double x = 0, y = 0, z = 0, vx = 0, vy = 0, vz = 0;
  double speed = 0;  ///< |v| in the scene's frame
  /// The body this one orbits: the heavier body whose sphere of influence holds it (Laplace;
  /// sim/analysis/attractor.hpp: the Earth for the Moon), else the body exerting the largest
  /// (softened) acceleration on it; -1 when no other body has mass.
  long dominant = -1;
  std::string dominant_name;
  double distance = 0;  ///< to the dominant body
  /// Share of the dominant body in the sum of the magnitudes of every pull on this body (1: the
  /// only one that matters, as for a planet about the Sun; about 0.3 for the Moon and the Earth).
  double dominance = 0;
  /// Osculating elements about the dominant body are given (its sphere of influence holds this
  /// body, or its share is > 1/2, and the relative orbit is not degenerate).
  bool has_elements = false;
  double a = 0;       ///< semi-major axis (negative for a hyperbola)
  double e = 0;       ///< eccentricity
  double inc = 0;     ///< inclination to the scene's x-y plane, degrees
  double q = 0;       ///< pericentre distance
  double period = 0;  ///< orbital period in the scene's time unit (0 when not bound)
  bool bound = false;
  double kinetic = 0;    ///< ½ m v²
  double potential = 0;  ///< -G m Σ_j m_j / sqrt(r² + ε²) (the softened pair potential)
};

/// The body exerting the largest acceleration G m_j r / (r² + ε²)^{3/2} on body i (j != i,
/// massive); -1 when there is none. O(N).
long pick_dominant(const Bodies& b, std::size_t i, double G, double softening);

/// The card of body i of s with gravitational constant G and softening ε (the run's values).
/// Elements use μ = G (m_dominant + m_i). Throws nbody::Error when i is out of range.
BodyCard body_card(const Scene& s, std::size_t i, double G, double softening);

}  // namespace nbody
