#pragma once
// Small bodies carried from their elements' epochs to a date by integration with the planets
// (issue 21): the SBDB's osculating elements give each body's heliocentric state at its own
// epoch; from there it moves as a test particle in the field of the Sun, the planets, the Moon,
// Pluto and the four largest asteroids (Ceres, Pallas, Vesta, Hygiea with DE440's GM), with the
// Sun's 1PN term, instead of on a fixed Kepler ellipse (which leaves Pallas 0.19 AU off after
// 22 years). Carried states are cached per date under $XDG_CACHE_HOME/nbody/sky-carry.

#include <functional>
#include <string>
#include <vector>

#include "sim/sky/ephemeris.hpp"
#include "sim/sky/fit.hpp"
#include "sim/sky/sbdb.hpp"

namespace nbody::sky {

/// How the small bodies are carried.
struct CarryOptions {
  SkyModel model = carry_model();  ///< integrator, step and 1PN term of the run
  /// Bodies with a pericentre closer than this (AU) stay on their Kepler orbits: a fixed step
  /// cannot follow a sungrazer.
  double min_perihelion = 0.1;
  bool use_cache = true;
  std::function<void(const std::string&)> notice;  ///< may be empty
  /// The run's default model: yoshida4, 0.5 d (Mercury 176 steps an orbit, the Moon 55; Ceres,
  /// Pallas and Vesta land where they do at 0.25 d, within 5e-8 AU after 20 years), 1PN.
  static SkyModel carry_model() {
    SkyModel m;
    m.dt = 0.5;
    return m;
  }
};

/// What carry_small_bodies() did.
struct CarryReport {
  std::size_t carried = 0;  ///< integrated from their epochs
  std::size_t kepler = 0;   ///< left on Kepler orbits (epoch outside the ephemeris, sungrazers)
  int epochs = 0;           ///< distinct epochs among the carried
  double years = 0;         ///< the longest carry
  double seconds = 0;       ///< time taken (0 from the cache)
  bool from_cache = false;
  std::string cache_path;
  /// "carried 10,867 small bodies by integration with the planets from their epochs (1 epoch, up
  /// to 4.3 yr): 6.1 s".
  std::string summary() const;
};

/// Heliocentric ecliptic J2000 states at `jd` of `bodies`, carried by integration from their
/// elements' epochs (see above); bodies the run cannot carry are propagated on their Kepler
/// orbits (counted in the report). Throws nbody::Error for a date outside the ephemeris.
std::vector<State> carry_small_bodies(const std::vector<SmallBody>& bodies, double jd,
                                      const CarryOptions& opt = {}, CarryReport* report = nullptr);

}  // namespace nbody::sky
