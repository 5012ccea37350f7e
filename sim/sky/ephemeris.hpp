#pragma once
// The Swiss Ephemeris (Debian libswe + swe-basic-data): heliocentric ecliptic J2000 states of the
// Sun, the planets, the Moon, Pluto and numbered asteroids at a Julian date (TT), the masses
// used with them, and dates. All functions are thread-safe (the library keeps global state:
// calls are serialised).

#include <string>

namespace nbody::sky {

/// Gaussian gravitational constant squared, k² = GM_sun in AU³/day² (DE430: 2.959122082855911e-4).
inline constexpr double kGmSun = 2.959122082855911e-4;
/// The speed of light in AU/day (299,792.458 km/s, IAU 2012 AU = 149,597,870.7 km).
inline constexpr double kLightAuPerDay = 173.14463267424034;
/// JD of J2000.0 (TT).
inline constexpr double kJ2000 = 2451545.0;
/// The range of dates of sepl_18.se1 / semo_18.se1: 1800-01-01 to 2399-12-31 (JD TT).
inline constexpr double kFirstJd = 2378496.5, kLastJd = 2597641.5;

/// The bodies of the solar-system scene, in the scene's order.
enum class Body { Sun, Mercury, Venus, Earth, Moon, Mars, Jupiter, Saturn, Uranus, Neptune, Pluto };
inline constexpr int kBodyCount = 11;
const char* body_name(Body b);
/// Mass in solar masses: GM ratios of JPL DE430 (see masses in ephemeris.cpp).
double body_mass(Body b);

/// Position (AU) and velocity (AU/day).
struct State {
  double r[3] = {0, 0, 0}, v[3] = {0, 0, 0};
};

/// The directory of the ephemeris files: $NBODY_EPHE_PATH when set, else /usr/share/libswe/ephe.
std::string ephemeris_path();
/// Heliocentric ecliptic J2000 state of `b` at `jd_tt` from the Swiss Ephemeris files
/// (SEFLG_SWIEPH | HELCTR | XYZ | SPEED | J2000 | TRUEPOS | NONUT; the Sun is the origin).
/// Throws nbody::Error naming the path when a file is missing and the date when it is outside
/// the files' range.
State heliocentric_state(Body b, double jd_tt);
/// Heliocentric ecliptic J2000 state of numbered asteroid `number` (1 Ceres, 4 Vesta, ...; the
/// main-belt ones in seas_18.se1) at `jd_tt`. Throws nbody::Error like heliocentric_state().
State asteroid_state(int number, double jd_tt);

/// Julian date (TT) of the current system time (UTC + ΔT from the Swiss Ephemeris).
double jd_now_tt();
/// Julian date (TT) of a UTC calendar date and time (Gregorian).
double jd_tt_from_utc(int year, int month, int day, int hour = 0, int minute = 0,
                      double second = 0);
/// "2026-11-22 18:04:05 UTC" for a Julian date (TT), for the window and descriptions.
std::string utc_string(double jd_tt);

}  // namespace nbody::sky
