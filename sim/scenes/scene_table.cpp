// The scene table, parameter validation and the shared helpers of the generators.

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/scenes/common.hpp"

namespace nbody {
namespace scenes {

double Rng::normal() {
  if (have_spare_) {
    have_spare_ = false;
    return spare_;
  }
  // box-muller: two uniforms give two independent normals
  const double u1 = open_uniform(), u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  spare_ = r * std::sin(2.0 * kPi * u2);
  have_spare_ = true;
  return r * std::cos(2.0 * kPi * u2);
}

std::array<double, 3> Rng::unit_vector() {
  const double z = uniform(-1.0, 1.0), phi = uniform(0.0, 2.0 * kPi);
  const double s = std::sqrt(std::max(0.0, 1.0 - z * z));
  return {s * std::cos(phi), s * std::sin(phi), z};
}

Params::Params(const SceneInfo& info, const SceneParams& p)
    : info_(info), p_(p), scene_(info.name), seed_(p.seed) {
  // every key must be known and in range
  for (const auto& [key, value] : p.values) {
    const SceneParamInfo* row = nullptr;
    for (const auto& r : info.params)
      if (r.key == key) row = &r;
    if (!row) {
      std::ostringstream known;
      for (std::size_t i = 0; i < info.params.size(); ++i)
        known << (i ? ", " : "") << info.params[i].key;
      fail("scene '", info.name, "': unknown parameter '", key,
           "' (known: ", info.params.empty() ? std::string("none") : known.str(), ")");
    }
    if (!std::isfinite(value) || value < row->min || value > row->max)
      fail("scene '", info.name, "': parameter '", key, "' must be in [", row->min, ", ", row->max,
           "] (got ", value, ")");
    // a choice (preset, halo, a 0/1 switch) is a whole number, not rounded silently
    if (row->choice && value != std::floor(value))
      fail("scene '", info.name, "': parameter '", key, "' is a choice and must be a whole number ",
           "in [", row->min, ", ", row->max, "] (got ", value, ")");
  }
  // n applies to scenes with a user-chosen N; fixed scenes ignore it (the command line refuses
  // it, app/core/launch.cpp)
  n_ = info.has_n ? (p.n == 0 ? info.default_n : p.n) : 0;
  if (info.has_n && p.n != 0 && (p.n < 2 || p.n > (std::size_t{1} << 26)))
    fail("scene '", info.name, "': parameter 'n' must be in [2, ", std::size_t{1} << 26, "] (got ",
         p.n, ")");
}

double Params::get(const std::string& key) const {
  if (auto it = p_.values.find(key); it != p_.values.end()) return it->second;
  for (const auto& r : info_.params)
    if (r.key == key) return r.def;
  fail("scene '", scene_, "': internal error, no parameter '", key, "'");
}

void kepler_state(double mu, double rp, double e, double nu, Vec3& r, Vec3& v) {
  // conic with semi-latus rectum p = rp (1 + e)
  const double p = rp * (1.0 + e);
  const double rad = p / (1.0 + e * std::cos(nu));
  r = {rad * std::cos(nu), rad * std::sin(nu), 0.0};
  const double k = std::sqrt(mu / p);
  v = {-k * std::sin(nu), k * (e + std::cos(nu)), 0.0};
}

double time_to_pericentre(double mu, double rp, double e, double r) {
  r = std::max(r, rp);
  if (e >= 1.0 - 1e-9) {
    // barker: r = rp (1 + D²) with D = tan(nu / 2), t = sqrt(2 rp³ / mu) (D + D³ / 3)
    const double d = std::sqrt(r / rp - 1.0);
    return std::sqrt(2.0 * rp * rp * rp / mu) * (d + d * d * d / 3.0);
  }
  if (e <= 0.0) return 0.0;  // circular: always at pericentre
  // eccentric anomaly from r = a (1 - e cos E), written as 1 - cos E = (r - rp) / (a e) so it
  // keeps its digits near e = 1
  const double a = rp / (1.0 - e);
  r = std::min(r, a * (1.0 + e));
  const double big_e = 2.0 * std::asin(std::min(1.0, std::sqrt((r - rp) / (2.0 * a * e))));
  // kepler: M = E - e sin E = (1 - e) sin E + (E - sin E), the last by its series for small E
  const double e_minus_sin = big_e < 1e-2
                                 ? big_e * big_e * big_e / 6.0 * (1.0 - big_e * big_e / 20.0)
                                 : big_e - std::sin(big_e);
  const double mean = (1.0 - e) * std::sin(big_e) + e_minus_sin;
  return mean * std::sqrt(a * a * a / mu);
}

void set_collision_timing(Scene& s, double t_peri, const std::string& peri_from, double t_tails,
                          const std::string& tails_from) {
  // the window: the galaxies meet a few seconds after the start, and the tails grow slowly
  // enough to watch (a machine that cannot keep up shows both slower)
  s.speed = std::min(t_peri / 5.0, t_tails / 6.0);
  s.duration = t_peri + t_tails;
  s.duration_reason = "first pericentre at ~" + units::format_time_rounded(t_peri, s.units) + " (" +
                      peri_from + "), then " + units::format_time_rounded(t_tails, s.units) +
                      " of tails (" + tails_from + ")";
}

void finish(Scene& s) {
  s.bodies.to_centre_of_mass_frame();
  s.bodies.validate("scene '" + s.name + "'");
}

}  // namespace scenes

namespace {

using scenes::Params;

// the row of `name`, for the generators' lambdas
const SceneInfo& row(const std::string& name);

// wraps a generator so that it validates its parameters against its own row
template <Scene (*F)(const Params&)>
std::function<Scene(const SceneParams&)> wrap(const char* name) {
  return [name](const SceneParams& sp) { return F(Params(row(name), sp)); };
}

// the particle masses of a live halo's galaxy (disk-galaxy and galaxy-collision alike)
const SceneParamInfo kHaloMassRatio{
    "halo_mass_ratio",
    "halo mass ratio",
    "live halo only: heaviest / lightest halo particle, masses rising with orbital energy (the "
    "halo near the disk in more, lighter particles; 1: equal masses)",
    1,
    64,
    1};
const SceneParamInfo kStarMass{"star_mass",
                               "star particle mass",
                               "live halo only: a disk / bulge particle's mass over the "
                               "equal-mass total / N (0.5: twice the star particles, the halo "
                               "the rest of N)",
                               0.25,
                               4,
                               1};

// the galaxies: collisions, Toomre & Toomre, a disk
void add_galaxy_rows(std::vector<SceneInfo>& t) {
  t.push_back(
      {"galaxy-collision",
       "Galaxy collision",
       "two disk galaxies (disk, bulge, live dark halo) on a parabolic orbit",
       true,
       16384,
       {{"tilt1", "tilt 1 (deg)", "inclination of galaxy 1's disk to the orbital plane", -180, 180,
         15},
        {"tilt2", "tilt 2 (deg)", "inclination of galaxy 2's disk to the orbital plane", -180, 180,
         30},
        {"pericentre", "pericentre (kpc)", "closest approach of the point-mass orbit", 1, 60, 8},
        {"mass_ratio", "mass ratio", "mass of galaxy 2 / mass of galaxy 1", 0.1, 1, 1},
        {"separation", "separation (kpc)",
         "initial distance of the two centres (60: the halos, cut at 30 kpc, just touch)", 20, 300,
         60},
        {"e", "orbit eccentricity", "1: parabolic; < 1: bound (start at most at apocentre)", 0.3, 1,
         1},
        {"halo", "dark halo",
         "0: live (particles); 1: rigid Hernquist, 2: rigid NFW (an analytic field moving with "
         "each galaxy: all bodies are stars)",
         0, 2, 0, true},
        kHaloMassRatio,
        kStarMass},
       wrap<scenes::make_galaxy_collision>("galaxy-collision")});
  t.push_back(
      {"toomre",
       "Toomre & Toomre encounter",
       "Toomre & Toomre (1972): two point-mass cores (G = 1, masses 1 and mass_ratio) on a "
       "parabolic or elliptic orbit with massless test-star disks in rings at 0.2-0.6 rp; "
       "presets from the paper's figure captions: 1 the Antennae, NGC 4038/9 (fig. 23: equal "
       "masses, e = 0.5, both disks i = 60, w = -30, drawn at t = 15 x 1e8 yr), 2 the Mice, "
       "NGC 4676 (fig. 22: equal masses, e = 0.6, i = 15 and 60, w = -90, t = 6.086), 3 M51 + "
       "NGC 5195 (fig. 21: mass 1/3, e = 0.8, i = -70 and -60, w = -15, t = 2.4), 4 a ring "
       "galaxy (Lynds & Toomre 1976: a companion of 0.7 of the mass dropping through the disk "
       "along its axis, hyperbolic, just off the centre, softened cores); each runs to the "
       "paper's time and looks from the paper's direction with both galaxies and the tails in "
       "view",
       true,
       20000,
       {{"preset", "preset",
         "0: custom; 1: Antennae; 2: Mice; 3: M51; 4: ring galaxy (1-4 override mass_ratio, e "
         "and the angles)",
         0, 4, 0, true},
        {"mass_ratio", "mass ratio", "mass of core 2 / mass of core 1", 0.1, 10, 1},
        {"rp", "pericentre", "closest approach of the orbit (length unit)", 0.1, 100, 1},
        {"e", "orbit eccentricity", "1: parabolic; < 1: bound (starts at most at apocentre)", 0.3,
         1, 1},
        {"start", "start (rp)", "initial separation of the cores in pericentres", 2, 20, 5},
        {"incl1", "disk 1 inclination (deg)",
         "of the orbit to disk 1's plane: 0 prograde in the orbital plane, 180 retrograde; the "
         "sign picks the sense of the tilt",
         -180, 180, 0},
        {"arg1", "disk 1 argument (deg)",
         "angle from disk 1's ascending node (where the companion rises through the disk along its "
         "spin) to the pericentre, along the orbit, seen from galaxy 1",
         -180, 180, 0},
        {"incl2", "disk 2 inclination (deg)",
         "of the orbit to disk 2's plane: 0 prograde in the orbital plane, 180 retrograde", -180,
         180, 45},
        {"arg2", "disk 2 argument (deg)",
         "angle from disk 2's ascending node to the pericentre, seen from galaxy 2", -180, 180,
         -30}},
       wrap<scenes::make_toomre>("toomre")});
  // N = 65536: the disk's two-body heating falls as 1/N (median |z| 2.4x in 1 Gyr at 16384,
  // 1.6x at 65536, docs/GALAXIES.md); a cpu-barnes-hut step takes ~0.17 s on 2 cores, a
  // rotation at the half radius ~35 s
  t.push_back(
      {"disk-galaxy",
       "Disk galaxy",
       "exponential stellar disk + Hernquist bulge + live Hernquist dark halo, Toomre Q",
       true,
       65536,
       {{"q", "Toomre Q", "radial velocity dispersion of the disk via Toomre's Q", 0.8, 3, 1.5},
        {"disk_mass", "disk mass (1e10 Msun)", "stellar disk mass", 0.5, 20, 4},
        {"halo_mass", "halo mass (1e10 Msun)", "dark halo mass within its cut-off", 0, 200, 20},
        {"bulge_mass", "bulge mass (1e10 Msun)", "bulge mass", 0, 10, 0.8},
        {"halo", "dark halo",
         "0: live (particles); 1: rigid Hernquist, 2: rigid NFW (an analytic field: all bodies "
         "are stars, the disk stays cold at small N)",
         0, 2, 0, true},
        {"massless_stars", "massless stars",
         "rigid halo only: 1 makes the stars massless tracers of the halo's field (no "
         "self-gravity; costs O(N))",
         0, 1, 0, true},
        kHaloMassRatio,
        kStarMass},
       wrap<scenes::make_disk_galaxy>("disk-galaxy")});
}

// the real sky on a date (Swiss Ephemeris)
void add_sky_rows(std::vector<SceneInfo>& t) {
  t.push_back(
      {"solar-system",
       "Solar system",
       "Sun, 8 planets, the Moon and Pluto on any date (Swiss Ephemeris, DE430 masses)",
       false,
       11,
       {{"jd", "date (JD TT)",
         "Julian date (TT) of the initial state, 1800 to 2399 (2378496.5 to 2597641.5); "
         "0: now",
         0, 2597641.5, 0},
        {"barycentric", "barycentric frame",
         "1: shift to the barycentre at rest; 0: heliocentric (the Sun at rest at 0)", 0, 1, 1},
        {"fit", "fitted states",
         "1: starting states fitted to the ephemeris over +-5 years with the scene's own model "
         "(cached per date); 0: the ephemeris' states as they are",
         0, 1, 1, true},
        {"eih", "EIH 1PN",
         "1: the Einstein-Infeld-Hoffmann 1PN term of every body (CPU kernels; the fit too); 0: "
         "the Sun's 1PN term alone (--post-newtonian eih sets it)",
         0, 1, 0, true}},
       wrap<scenes::make_solar_system>("solar-system")});
  t.push_back(
      {"sun-earth-moon",
       "Sun, Earth, Moon",
       "the Sun, the Earth and the Moon alone, on any date (Swiss Ephemeris)",
       false,
       3,
       {{"jd", "date (JD TT)",
         "Julian date (TT) of the initial state, 1800 to 2399 (2378496.5 to 2597641.5); "
         "0: now",
         0, 2597641.5, 0},
        {"fit", "fitted states",
         "1: starting states fitted to the ephemeris over +-5 years with the scene's own model "
         "(cached per date); 0: the ephemeris' states as they are",
         0, 1, 1, true},
        {"eih", "EIH 1PN",
         "1: the Einstein-Infeld-Hoffmann 1PN term of every body (CPU kernels; the fit too); 0: "
         "the Sun's 1PN term alone (--post-newtonian eih sets it)",
         0, 1, 0, true}},
       wrap<scenes::make_sun_earth_moon>("sun-earth-moon")});
}

// small scenes and star clusters
void add_small_rows(std::vector<SceneInfo>& t) {
  t.push_back({"planet-into-jupiter",
               "Planet into Jupiter",
               "crash an Earth-mass planet into Jupiter past the Galilean moons (merging on)",
               false,
               6,
               {{"pericentre", "pericentre (Jupiter radii)",
                 "closest approach of the point-mass orbit; below ~0.8 it hits (radius from a "
                 "density of 3000 kg/m³)",
                 0.05, 5, 0.4},
                {"apocentre", "apocentre (AU)",
                 "farthest point of the planet's orbit about Jupiter (it starts at 0.03 AU)", 0.01,
                 0.3, 0.06},
                {"moons", "Galilean moons", "1: Io, Europa, Ganymede and Callisto", 0, 1, 1, true}},
               wrap<scenes::make_planet_into_jupiter>("planet-into-jupiter")});
  t.push_back({"two-body",
               "Two bodies",
               "a Kepler orbit with a = 1, G = M = 1 (period 2 pi), starting at pericentre",
               false,
               2,
               {{"e", "eccentricity", "0: circular", 0, 0.95, 0.5},
                {"mass_ratio", "mass ratio", "m2 / m1", 0.001, 1, 0.5}},
               wrap<scenes::make_two_body>("two-body")});
  t.push_back({"binary-star",
               "Binary star",
               "an Alpha-Centauri-like binary (a = 23.4 AU, e = 0.52) with a planet at each star",
               false,
               4,
               {{"e", "eccentricity", "of the stellar orbit", 0, 0.9, 0.52},
                {"a", "semi-major axis (AU)", "of the stellar orbit", 5, 100, 23.4},
                {"planets", "planets", "1: one S-type planet at 1.2 AU around each star", 0, 1, 1}},
               wrap<scenes::make_binary_star>("binary-star")});
  t.push_back({"plummer",
               "Plummer sphere",
               "Plummer model in virial equilibrium (Aarseth-Henon-Wielen sampling), Henon units",
               true,
               4096,
               {{"virial", "virial ratio", "2K/|W| after scaling the velocities (1: equilibrium)",
                 0, 2, 1}},
               wrap<scenes::make_plummer>("plummer")});
  t.push_back(
      {"cold-collapse",
       "Cold collapse",
       "uniform sphere nearly at rest collapsing under its own gravity, Henon units",
       true,
       4096,
       {{"virial", "virial ratio", "2K/|W| of the initial random velocities", 0, 0.5, 0.02}},
       wrap<scenes::make_cold_collapse>("cold-collapse")});
}

std::vector<SceneInfo> build_table() {
  std::vector<SceneInfo> t;
  add_galaxy_rows(t);
  add_sky_rows(t);
  add_small_rows(t);
  return t;
}

const SceneInfo& row(const std::string& name) {
  for (const auto& r : scene_table())
    if (r.name == name) return r;
  fail("unknown scene '", name, "'");
}

}  // namespace

bool shows_structure(const Scene& s) {
  if (!s.groups.empty()) return true;
  return std::find(s.bodies.component.begin(), s.bodies.component.end(), Component::Disk) !=
         s.bodies.component.end();
}

const std::vector<SceneInfo>& scene_table() {
  static const std::vector<SceneInfo> table = build_table();
  return table;
}

namespace {

// "16,384": a count with thousands separators
std::string thousands(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

// "8.1e5": two significant digits, no '+' or leading zeros in the exponent
std::string short_number(double v) {
  if (!(v > 0) || !std::isfinite(v)) {
    std::ostringstream os;
    os << v;
    return os.str();
  }
  int e = static_cast<int>(std::floor(std::log10(v)));
  double m = std::round(v / std::pow(10.0, e) * 10) / 10;
  if (m >= 10) m /= 10, ++e;
  std::ostringstream os;
  os << m;
  if (e != 0) os << "e" << e;
  return os.str();
}

// "halo" for the dark component, the component's name otherwise
const char* particle_label(Component c) {
  return c == Component::Dark ? "halo" : component_name(c);
}

}  // namespace

std::string SceneParticles::summary() const {
  // masses in Msun where the units have a physical size, else in the units' own mass unit
  double to_msun = 1;
  std::string unit = units.mass;
  if (units.physical()) {
    to_msun = units::conversion(units, units::solar()).mass;
    unit = "Msun";
  }
  std::ostringstream os;
  for (std::size_t i = 0; i < components.size(); ++i) {
    const ComponentParticles& c = components[i];
    os << (i ? ", " : "") << particle_label(c.component) << " " << thousands(c.count) << " × "
       << short_number(c.mass * to_msun) << " " << unit;
    if (c.mass_ratio != 1) os << " (mean; " << c.mass_ratio << "x from lightest to heaviest)";
  }
  return os.str();
}

SceneParticles scene_particles(const std::string& name, const SceneParams& p) {
  const SceneInfo& info = row(name);
  const Params params(info, p);
  if (name == "disk-galaxy") return scenes::disk_galaxy_particles(params);
  if (name == "galaxy-collision") return scenes::galaxy_collision_particles(params);
  return {};
}

Scene make_scene(const std::string& name, const SceneParams& p) {
  for (const auto& r : scene_table())
    if (r.name == name) return r.make(p);
  std::ostringstream known;
  for (std::size_t i = 0; i < scene_table().size(); ++i)
    known << (i ? ", " : "") << scene_table()[i].name;
  fail("unknown scene '", name, "' (known: ", known.str(), ")");
}

}  // namespace nbody
