#include "sim/core/units.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "sim/core/error.hpp"

namespace nbody::units {

namespace {
// SI constants (CODATA 2018 G, IAU 2012 au, IAU 2015 nominal solar mass parameter)
constexpr double kG = 6.67430e-11;
constexpr double kAU = 1.495978707e11;
constexpr double kDay = 86400.0;
constexpr double kGMsun = 1.32712440018e20;  // m^3 s^-2
constexpr double kMsun = kGMsun / kG;
constexpr double kKpc = 3.0856775814913673e19;
constexpr double kKm = 1e3;
constexpr double kYear = 365.25 * kDay;

// a galactic-style system: kpc, km/s and a mass unit of `msun` solar masses
UnitSystem kpc_kms(const std::string& name, double msun, const std::string& mass_label) {
  UnitSystem u;
  u.name = name;
  u.length = "kpc";
  u.mass = mass_label;
  u.time = "kpc/(km/s)";
  u.velocity = "km/s";
  u.length_m = kKpc;
  u.mass_kg = msun * kMsun;
  u.time_s = kKpc / kKm;
  u.G = kGMsun * msun * u.time_s * u.time_s / (kKpc * kKpc * kKpc);
  return u;
}
}  // namespace

UnitSystem solar() {
  UnitSystem u;
  u.name = "solar";
  u.length = "AU";
  u.mass = "Msun";
  u.time = "day";
  u.velocity = "AU/day";
  u.length_m = kAU;
  u.mass_kg = kMsun;
  u.time_s = kDay;
  // the Gaussian gravitational constant squared, as Mercury6 uses it
  u.G = 2.959122082855911e-4;
  return u;
}

UnitSystem galactic() {
  return kpc_kms("galactic", 1e10, "1e10 Msun");
}
UnitSystem agora() {
  return kpc_kms("agora", 1e9, "1e9 Msun");
}

UnitSystem henon() {
  UnitSystem u;
  u.name = "henon";
  u.length = "L";
  u.mass = "M";
  u.time = "T";
  u.velocity = "L/T";
  u.G = 1.0;
  return u;
}

UnitSystem by_name(const std::string& id, const std::string& what) {
  if (id == "solar") return solar();
  if (id == "galactic") return galactic();
  if (id == "agora") return agora();
  if (id == "henon" || id == "nbody") return henon();
  fail(what, ": unknown unit system '", id, "' (known: solar, galactic, agora, henon)");
}

Conversion conversion(const UnitSystem& from, const UnitSystem& to) {
  Conversion c;
  if (from.name == to.name && from.length_m == to.length_m && from.mass_kg == to.mass_kg &&
      from.time_s == to.time_s)
    return c;
  if (!from.physical() || !to.physical())
    fail("cannot convert from units '", from.name, "' to '", to.name,
         "': a dimensionless (N-body) system has no physical scale");
  c.length = from.length_m / to.length_m;
  c.mass = from.mass_kg / to.mass_kg;
  c.time = from.time_s / to.time_s;
  c.velocity = c.length / c.time;
  return c;
}

namespace {

// `t` in a readable unit for the system: the value and the unit's label
std::pair<double, std::string> readable_time(double t, const UnitSystem& u) {
  if (!u.physical()) return {t, u.time};
  // pick a readable unit for the elapsed time in seconds
  const double s = t * u.time_s;
  const double a = std::fabs(s);
  if (a < 2 * kDay) return {s / 3600.0, "h"};
  if (a < 1000 * kDay) return {s / kDay, "days"};
  if (a < 1e5 * kYear) return {s / kYear, "yr"};
  return {s / (1e6 * kYear), "Myr"};
}

}  // namespace

std::string format_time(double t, const UnitSystem& u) {
  const auto [v, label] = readable_time(t, u);
  char buf[64];
  std::snprintf(buf, sizeof buf, u.physical() ? "%.5g %s" : "%.4g %s", v, label.c_str());
  return buf;
}

std::string format_time_rounded(double t, const UnitSystem& u, int digits) {
  auto [v, label] = readable_time(t, u);
  // round in the shown unit, so 259.1 Myr reads "260 Myr", not 2.6e+02
  if (v != 0 && std::isfinite(v)) {
    const double p = std::pow(10.0, std::floor(std::log10(std::fabs(v))) - (digits - 1));
    v = std::round(v / p) * p;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g %s", v, label.c_str());
  return buf;
}

double parse_duration(const std::string& text, const UnitSystem& u, const std::string& what) {
  // the number, then the unit (spaces allowed between)
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    fail(what, ": '", text,
         "' is not a time (a number and a unit: 10yr, 3.5 d, 2 Myr, or a number ",
         "in the scene's unit ", u.time, ")");
  }
  std::string unit = text.substr(used);
  unit.erase(0, unit.find_first_not_of(' '));
  unit.erase(unit.find_last_not_of(' ') + 1);
  if (!std::isfinite(value) || !(value > 0))
    fail(what, ": the time must be finite and > 0 (got '", text, "')");
  if (unit.empty() || unit == u.time) return value;
  static const std::pair<const char*, double> kUnits[] = {
      {"d", kDay},          {"day", kDay},        {"days", kDay},
      {"yr", kYear},        {"year", kYear},      {"years", kYear},
      {"kyr", 1e3 * kYear}, {"Myr", 1e6 * kYear}, {"Gyr", 1e9 * kYear}};
  for (const auto& [name, seconds] : kUnits) {
    if (unit != name) continue;
    if (!u.physical())
      fail(what, ": '", text, "' has a unit, but the scene's units (", u.name,
           ") are dimensionless: give a plain number in its time unit (", u.time, ")");
    return value * seconds / u.time_s;
  }
  fail(what, ": unknown time unit '", unit, "' in '", text, "' (allowed: d, yr, kyr, Myr, Gyr, ",
       "or the scene's unit ", u.time, ")");
}

}  // namespace nbody::units
