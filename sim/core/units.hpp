#pragma once
// Unit systems. Every scene and file carries one; G is stated in it.

#include <string>

namespace nbody {

/// A unit system: names of its units, their size in SI (0 when the system is dimensionless,
/// e.g. Hénon N-body units) and the gravitational constant expressed in it.
struct UnitSystem {
  std::string name;      ///< short id: "solar", "galactic", "agora", "henon", "custom"
  std::string length;    ///< label of the length unit, e.g. "AU"
  std::string mass;      ///< label of the mass unit, e.g. "Msun"
  std::string time;      ///< label of the time unit, e.g. "day"
  std::string velocity;  ///< label of the velocity unit, e.g. "AU/day"
  double length_m = 0;   ///< one length unit in metres (0: dimensionless)
  double mass_kg = 0;    ///< one mass unit in kilograms (0: dimensionless)
  double time_s = 0;     ///< one time unit in seconds (0: dimensionless)
  double G = 1;          ///< gravitational constant in these units

  /// True when the units have SI sizes, so values can be converted to another physical system.
  bool physical() const { return length_m > 0 && mass_kg > 0 && time_s > 0; }
};

namespace units {
/// AU, day, solar mass; G = k^2 = 2.959122082855911e-4 (Gaussian gravitational constant).
UnitSystem solar();
/// kpc, km/s, 1e10 Msun (time unit kpc/(km/s) ~ 0.978 Gyr); G ~ 43009.
UnitSystem galactic();
/// AGORA initial conditions: kpc, km/s, 1e9 Msun; G ~ 4300.9.
UnitSystem agora();
/// Hénon N-body units: G = 1, M = 1, E = -1/4; dimensionless.
UnitSystem henon();
/// Looks a unit system up by its id ("solar", "galactic", "agora", "henon"); throws nbody::Error
/// naming `what` (e.g. a command-line option) when unknown.
UnitSystem by_name(const std::string& id, const std::string& what = "units");

/// Multiplicative factors that convert lengths, velocities and masses from `from` to `to`.
/// Both must be physical() or identical; throws nbody::Error otherwise.
struct Conversion {
  double length = 1, velocity = 1, mass = 1, time = 1;
};
Conversion conversion(const UnitSystem& from, const UnitSystem& to);

/// Time in the system's own unit expressed in a readable unit ("12.3 days", "45.6 Myr").
std::string format_time(double t, const UnitSystem& u);
/// A span of simulated time given as text, in the time unit of `u`: a number and a unit, "10yr",
/// "3.5 d", "2 Myr" (d, day(s), yr, year(s), kyr, Myr, Gyr need physical units), or a plain
/// number or one followed by the scene's own unit label ("3.5", "3.5 T") in the scene's unit.
/// Must be finite and > 0. Throws nbody::Error naming `what` (e.g. "--duration") and what is
/// wrong.
double parse_duration(const std::string& text, const UnitSystem& u, const std::string& what);
/// format_time() rounded to `digits` significant digits in the unit shown ("260 Myr", "4.7 T").
std::string format_time_rounded(double t, const UnitSystem& u, int digits = 2);
}  // namespace units

}  // namespace nbody
