#pragma once
// Two-body motion for the small bodies: osculating heliocentric elements to state vectors and
// propagation by universal variables (Stumpff functions), valid for elliptic, parabolic and
// hyperbolic orbits alike.

#include <array>
#include <vector>

#include "sim/sky/ephemeris.hpp"

namespace nbody::sky {

/// Osculating conic elements by pericentre distance, so that every conic has the same form.
struct Elements {
  double q = 0;     ///< pericentre distance (AU), > 0
  double e = 0;     ///< eccentricity, >= 0 (1: parabola)
  double i = 0;     ///< inclination (rad)
  double node = 0;  ///< longitude of the ascending node Ω (rad)
  double peri = 0;  ///< argument of pericentre ω (rad)
  double tp = 0;    ///< time of pericentre passage (JD)
};

/// Semi-major axis a = q / (1 - e) (negative for hyperbolae; infinite for a parabola).
double semi_major_axis(const Elements& el);
/// Time of pericentre from the mean anomaly `ma` (rad) at `epoch` (JD) of an ellipse
/// (e < 1), taking ma in (-pi, pi] so the pericentre is the nearest one.
double pericentre_time(double q, double e, double ma, double epoch, double mu);

/// The state at `jd` of a body on the conic `el` about a centre of gravitational parameter `mu`
/// (AU³/day²), in the elements' frame. Throws nbody::Error when the elements are not a conic.
State state_from_elements(const Elements& el, double mu, double jd);
/// Osculating elements of state `s` about `mu` at time `jd`.
Elements elements_from_state(const State& s, double mu, double jd);
/// `segments` points of the closed orbit of state `s` about a centre of parameter `mu`, at equal
/// steps of the eccentric anomaly (a smooth outline at any eccentricity), relative to the
/// centre, in the frame of `s`; empty when the orbit is not an ellipse (e >= 1, r = 0, h = 0) or
/// segments < 3. Any consistent units (mu = G (M + m)).
std::vector<std::array<double, 3>> orbit_points(const State& s, double mu, int segments);
/// Advances `s` by `dt` days on its two-body orbit (universal variables, Newton's method with a
/// bisection safeguard; an ellipse is first reduced modulo its period).
State propagate(const State& s, double mu, double dt);

}  // namespace nbody::sky
