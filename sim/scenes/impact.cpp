// planet-into-jupiter: an Earth-mass planet on a collision course with Jupiter and its Galilean
// moons (issue 19), to show collisions as mergers (sim/edit/collisions.hpp). The Sun is left out:
// its tide at 0.03 AU from Jupiter is 2% of Jupiter's pull, and the fall lasts days.
#include <algorithm>
#include <cmath>

#include "sim/scenes/common.hpp"

namespace nbody::scenes {

namespace {

constexpr double kGMsun = 132712440018.0;  // km³/s²
constexpr double kAUkm = 1.495978707e8;
constexpr double kJupiterRadiusAU = 71492.0 / kAUkm;  // equatorial, 1 bar

struct Moon {
  const char* name;
  double gm_km3s2, a_km;
};
// G M (Jacobson 2013, JUP310) and semi-major axes
constexpr Moon kMoons[] = {{"Io", 5959.916, 421700},
                           {"Europa", 3202.739, 671034},
                           {"Ganymede", 9887.834, 1070412},
                           {"Callisto", 7179.289, 1882709}};

}  // namespace

Scene make_planet_into_jupiter(const Params& p) {
  Scene s;
  s.name = "planet-into-jupiter";
  s.description =
      "an Earth-mass planet falling into Jupiter past the Galilean moons (turn on merging)";
  s.units = units::solar();
  const double G = s.units.G;
  const double mj = 126686534.0 / kGMsun;  // Jupiter alone, Msun
  s.bodies.add(0, 0, 0, 0, 0, 0, mj, Component::Planet, "Jupiter");
  // the moons on circular orbits in Jupiter's equator (the x-y plane), spread in phase
  if (p.get("moons") >= 0.5) {
    double phase = 0.3;
    for (const Moon& m : kMoons) {
      const double mm = m.gm_km3s2 / kGMsun, a = m.a_km / kAUkm;
      const double v = std::sqrt(G * (mj + mm) / a);
      s.bodies.add(a * std::cos(phase), a * std::sin(phase), 0, -v * std::sin(phase),
                   v * std::cos(phase), 0, mm, Component::Planet, m.name);
      phase += 2.1;
    }
  }
  // the planet on a long ellipse (bound, as every scene) from `apocentre` with its pericentre
  // inside Jupiter, 0.03 AU out (or at the apocentre when nearer), inbound, in a plane tilted 30
  // degrees from the moons'
  const double me = 398600.435436 / kGMsun;
  const double q = p.get("pericentre") * kJupiterRadiusAU, apo = p.get("apocentre");
  const double mu = G * (mj + me);
  const double e = (apo - q) / (apo + q);
  const double r0 = std::min(0.03, apo);
  const double nu = -std::acos(std::clamp((q * (1 + e) / r0 - 1) / e, -1.0, 1.0));
  Vec3 r, v;
  kepler_state(mu, q, e, nu, r, v);
  r = rotate_x(rotate_z(r, 2.0), kPi / 6);
  v = rotate_x(rotate_z(v, 2.0), kPi / 6);
  s.bodies.add(r[0], r[1], r[2], v[0], v[1], v[2], me, Component::Planet, "planet");
  // 40 steps across Jupiter's radius at the speed of the pericentre passage
  const double vp = std::sqrt(mu * (1 + e) / q);
  s.dt = std::min(5e-4, kJupiterRadiusAU / vp / 40);
  s.softening = 0;
  s.camera_distance = 0.05;
  s.trails = true;
  s.integrator = Integrator::Yoshida4;
  s.merge_on_touch = true;
  const double t_hit = time_to_pericentre(mu, q, e, r0);
  s.duration = t_hit + 3;
  s.duration_reason =
      "the planet reaches Jupiter after " + units::format_time_rounded(t_hit, s.units);
  s.speed = t_hit / 8;  // the fall in about 8 s
  finish(s);
  return s;
}

}  // namespace nbody::scenes
