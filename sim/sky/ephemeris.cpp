// The Swiss Ephemeris wrapper: states, masses and dates (see ephemeris.hpp).
#include "sim/sky/ephemeris.hpp"

#include <swephexp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <mutex>

#include "sim/core/error.hpp"

namespace nbody::sky {

namespace {

// the library keeps global state (path, file handles, caches)
std::mutex& swe_mutex() {
  static std::mutex m;
  return m;
}

// GM in km³/s² of JPL's DE430 (W. M. Folkner et al., "The Planetary and Lunar Ephemerides DE430
// and DE431", IPN Progress Report 42-196, 2014, Table 8); planets beyond the Earth are their
// systems (planet + moons), as the ephemeris' positions are the systems' barycentres. Masses are
// GM / GM_sun, so that G M_sun = k² in AU³/day² matches the scene's G.
constexpr double kGmSunKm = 132712440041.939400;
constexpr double kGmKm[kBodyCount] = {
    kGmSunKm,          // Sun
    22031.780000,      // Mercury
    324858.592000,     // Venus
    398600.435436,     // Earth
    4902.800066,       // Moon
    42828.375214,      // Mars system
    126712764.800000,  // Jupiter system
    37940585.200000,   // Saturn system
    5794548.600000,    // Uranus system
    6836527.100580,    // Neptune system
    977.000000,        // Pluto system
};

constexpr int kSweId[kBodyCount] = {SE_SUN,     SE_MERCURY, SE_VENUS,  SE_EARTH,   SE_MOON, SE_MARS,
                                    SE_JUPITER, SE_SATURN,  SE_URANUS, SE_NEPTUNE, SE_PLUTO};

constexpr int kFlags = SEFLG_SWIEPH | SEFLG_HELCTR | SEFLG_XYZ | SEFLG_SPEED | SEFLG_J2000 |
                       SEFLG_TRUEPOS | SEFLG_NONUT;

// sets the path once; checks that the files the body needs exist
void prepare(const char* file) {
  static std::string set_path;
  const std::string path = ephemeris_path();
  if (set_path != path) {
    swe_set_ephe_path(path.c_str());
    set_path = path;
  }
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(path) / file, ec))
    fail("Swiss Ephemeris: ", path, "/", file,
         " is missing (install the Debian packages libswe-dev and swe-basic-data, or set "
         "NBODY_EPHE_PATH to a directory holding sepl_18.se1, semo_18.se1 and seas_18.se1)");
}

State calc(int id, double jd_tt, const char* file, const std::string& what) {
  if (!std::isfinite(jd_tt) || jd_tt < kFirstJd || jd_tt > kLastJd)
    fail("Swiss Ephemeris: ", what, ": JD ", jd_tt, " is outside the range of ", file, " (JD ",
         kFirstJd, " to ", kLastJd, ", years 1800 to 2399)");
  std::lock_guard<std::mutex> lock(swe_mutex());
  prepare(file);
  double xx[6] = {0, 0, 0, 0, 0, 0};
  char err[AS_MAXCH] = {0};
  const int ret = swe_calc(jd_tt, id, kFlags, xx, err);
  // a result computed without the files (Moshier's fallback) or an error is refused
  if (ret < 0 || !(ret & SEFLG_SWIEPH))
    fail("Swiss Ephemeris: ", what, " at JD ", jd_tt, " from ", ephemeris_path(), ": ",
         err[0] ? err : "the ephemeris files were not used");
  State s;
  for (int k = 0; k < 3; ++k) {
    s.r[k] = xx[k];
    s.v[k] = xx[3 + k];
  }
  return s;
}

}  // namespace

const char* body_name(Body b) {
  static const char* const kNames[kBodyCount] = {"Sun",    "Mercury", "Venus",   "Earth",
                                                 "Moon",   "Mars",    "Jupiter", "Saturn",
                                                 "Uranus", "Neptune", "Pluto"};
  return kNames[static_cast<int>(b)];
}

double body_mass(Body b) {
  return kGmKm[static_cast<int>(b)] / kGmSunKm;
}

std::string ephemeris_path() {
  if (const char* p = std::getenv("NBODY_EPHE_PATH"); p && *p) return p;
  return "/usr/share/libswe/ephe";
}

State heliocentric_state(Body b, double jd_tt) {
  if (b == Body::Sun) return {};
  const char* file = b == Body::Moon ? "semo_18.se1" : "sepl_18.se1";
  return calc(kSweId[static_cast<int>(b)], jd_tt, file, body_name(b));
}

State asteroid_state(int number, double jd_tt) {
  if (number < 1) fail("Swiss Ephemeris: asteroid number must be >= 1 (got ", number, ")");
  return calc(SE_AST_OFFSET + number, jd_tt, "seas_18.se1", "asteroid " + std::to_string(number));
}

double jd_tt_from_utc(int year, int month, int day, int hour, int minute, double second) {
  std::lock_guard<std::mutex> lock(swe_mutex());
  double dret[2] = {0, 0};
  char err[AS_MAXCH] = {0};
  if (swe_utc_to_jd(year, month, day, hour, minute, second, SE_GREG_CAL, dret, err) < 0)
    fail("date ", year, "-", month, "-", day, " ", hour, ":", minute, ":", second,
         " is not valid: ", err);
  return dret[0];
}

double jd_now_tt() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&t, &utc);
  const double frac =
      std::chrono::duration<double>(now - std::chrono::system_clock::from_time_t(t)).count();
  return jd_tt_from_utc(utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min,
                        utc.tm_sec + frac);
}

std::string utc_string(double jd_tt) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0;
  double s = 0;
  {
    std::lock_guard<std::mutex> lock(swe_mutex());
    swe_jdet_to_utc(jd_tt, SE_GREG_CAL, &y, &mo, &d, &h, &mi, &s);
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d UTC", y, mo, d, h, mi,
                static_cast<int>(std::floor(s)));
  return buf;
}

}  // namespace nbody::sky
