// Scenes of a few bodies: the solar system and Sun-Earth-Moon on any date (Swiss Ephemeris), a
// two-body Kepler orbit and a binary star with planets.

#include <cmath>
#include <initializer_list>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/integrators/integrator.hpp"
#include "sim/scenes/common.hpp"
#include "sim/sky/ephemeris.hpp"
#include "sim/sky/fit.hpp"

namespace nbody::scenes {

namespace {

// a kepler pair in the centre-of-mass frame of the two, rotated by `incl` about x
void add_pair(Bodies& b, double G, double m1, double m2, double rp, double e, double nu,
              const Vec3& at, const Vec3& vel, const char* n1, const char* n2, Component c1,
              Component c2) {
  Vec3 r, v;
  kepler_state(G * (m1 + m2), rp, e, nu, r, v);
  const double f1 = m2 / (m1 + m2), f2 = m1 / (m1 + m2);
  b.add(at[0] - f1 * r[0], at[1] - f1 * r[1], at[2] - f1 * r[2], vel[0] - f1 * v[0],
        vel[1] - f1 * v[1], vel[2] - f1 * v[2], m1, c1, n1);
  b.add(at[0] + f2 * r[0], at[1] + f2 * r[1], at[2] + f2 * r[2], vel[0] + f2 * v[0],
        vel[1] + f2 * v[1], vel[2] + f2 * v[2], m2, c2, n2);
}

// the date of a scene of the real sky: jd = 0 means now
double scene_jd(const Params& p) {
  const double jd = p.get("jd");
  if (jd == 0) return sky::jd_now_tt();
  if (jd < sky::kFirstJd || jd > sky::kLastJd)
    fail("scene '", p.scene(), "': parameter 'jd' must be 0 (now) or a Julian date (TT) in [",
         sky::kFirstJd, ", ", sky::kLastJd, "], the years 1800 to 2399 of the ephemeris (got ", jd,
         ")");
  return jd;
}

// the real sky's model with the 1PN term the scene asks for (parameter eih)
sky::SkyModel sky_model(const Params& p) {
  sky::SkyModel m = sky::default_sky_model();
  if (p.get("eih") >= 0.5) m.pn_model = PnModel::EIH;
  return m;
}

// the bodies at the scene's date with DE430 masses: their states fitted to the ephemeris with
// the scene's model (parameter fit = 1, the default; barycentric) or the ephemeris' own
// (heliocentric ecliptic J2000)
Bodies sky_bodies(const Params& p, double jd, const std::vector<sky::Body>& which, Scene& s) {
  if (p.get("fit") < 0.5) return sky::ephemeris_bodies(which, jd);
  sky::FitOptions o;
  o.model = sky_model(p);
  o.notice = [&s](const std::string& m) { s.notes.push_back(m); };
  sky::FitReport r;
  Bodies b = sky::fitted_bodies(which, jd, o, &r);
  s.notes.push_back(s.name + ": " + r.summary());
  return b;
}

// the real-sky scenes' best model: double precision, the 1PN term (the Sun's, or EIH with
// eih = 1), the sky model's integrator and step (docs/PERFORMANCE.md: its errors against the
// ephemeris)
void best_model(const Params& p, Scene& s) {
  const sky::SkyModel m = sky_model(p);
  s.integrator = find_integrator(m.integrator, "sky model").id;
  s.dt = m.dt;
  s.precision = Precision::Double;
  s.post_newtonian = m.post_newtonian;
  s.pn_model = m.pn_model;
}

}  // namespace

Scene make_solar_system(const Params& p) {
  using sky::Body;
  const double jd = scene_jd(p);
  Scene s;
  s.name = "solar-system";
  const bool fit = p.get("fit") >= 0.5;
  s.description = "Sun, 8 planets, the Moon and Pluto at " + sky::utc_string(jd) +
                  (fit ? " (fitted to the Swiss Ephemeris" : " (Swiss Ephemeris") +
                  ", ecliptic J2000; DE430 masses)";
  s.units = units::solar();
  s.bodies = sky_bodies(p, jd,
                        {Body::Sun, Body::Mercury, Body::Venus, Body::Earth, Body::Moon, Body::Mars,
                         Body::Jupiter, Body::Saturn, Body::Uranus, Body::Neptune, Body::Pluto},
                        s);
  s.epoch_jd = jd;
  best_model(p, s);
  s.softening = 0.0;
  s.camera_distance = 6.0;  // the inner planets fill the view; zoom out for the giants
  s.trails = true;
  s.speed = 10.0;  // 10 days per second
  if (p.get("barycentric") >= 0.5) {
    finish(s);
  } else {
    // the Sun at rest at the origin
    Bodies& b = s.bodies;
    const double sun[6] = {b.x[0], b.y[0], b.z[0], b.vx[0], b.vy[0], b.vz[0]};
    for (std::size_t i = 0; i < b.size(); ++i) {
      b.x[i] -= sun[0], b.y[i] -= sun[1], b.z[i] -= sun[2];
      b.vx[i] -= sun[3], b.vy[i] -= sun[4], b.vz[i] -= sun[5];
    }
    s.bodies.validate("scene 'solar-system'");
  }
  return s;
}

Scene make_sun_earth_moon(const Params& p) {
  using sky::Body;
  const double jd = scene_jd(p);
  Scene s;
  s.name = "sun-earth-moon";
  s.description = "the Sun, the Earth and the Moon at " + sky::utc_string(jd) +
                  (p.get("fit") >= 0.5 ? " (fitted to the Swiss Ephemeris" : " (Swiss Ephemeris") +
                  "; DE430 masses)";
  s.units = units::solar();
  s.bodies = sky_bodies(p, jd, {Body::Sun, Body::Earth, Body::Moon}, s);
  s.epoch_jd = jd;
  best_model(p, s);
  s.softening = 0.0;
  s.camera_distance = 2.5;
  s.trails = true;
  s.speed = 2.0;  // 2 days per second
  finish(s);
  return s;
}

Scene make_two_body(const Params& p) {
  const double e = p.get("e"), q = p.get("mass_ratio");
  Scene s;
  s.name = "two-body";
  std::ostringstream d;
  d << "two bodies on a Kepler orbit, a = 1, e = " << e << ", m2/m1 = " << q
    << ", G = M = 1 (period 2 pi)";
  s.description = d.str();
  s.units = units::henon();
  // total mass 1, semi-major axis 1, start at pericentre
  const double m1 = 1.0 / (1.0 + q), m2 = q / (1.0 + q);
  add_pair(s.bodies, 1.0, m1, m2, 1.0 - e, e, 0.0, {0, 0, 0}, {0, 0, 0}, "primary", "secondary",
           Component::Star, Component::Star);
  // about 1000 steps per orbit when circular, more near pericentre when eccentric
  s.dt = 2.0 * kPi / 1000.0 * std::pow(1.0 - e, 1.5);
  s.softening = 0.0;
  s.camera_distance = 4.0;
  s.trails = true;
  finish(s);
  return s;
}

Scene make_binary_star(const Params& p) {
  const double e = p.get("e"), a = p.get("a");
  const bool planets = p.get("planets") >= 0.5;
  Scene s;
  s.name = "binary-star";
  s.description =
      "an Alpha-Centauri-like binary (1.1 + 0.9 Msun) with an S-type planet at each star";
  s.units = units::solar();
  const double G = s.units.G, ma = 1.1, mb = 0.907;
  // stars start at apocentre so the planets begin far from the other star
  Vec3 r, v;
  kepler_state(G * (ma + mb), a * (1.0 - e), e, kPi, r, v);
  const double fa = mb / (ma + mb), fb = ma / (ma + mb);
  const Vec3 xa{-fa * r[0], -fa * r[1], 0}, va{-fa * v[0], -fa * v[1], 0};
  const Vec3 xb{fb * r[0], fb * r[1], 0}, vb{fb * v[0], fb * v[1], 0};
  if (!planets) {
    s.bodies.add(xa[0], xa[1], xa[2], va[0], va[1], va[2], ma, Component::Star, "A");
    s.bodies.add(xb[0], xb[1], xb[2], vb[0], vb[1], vb[2], mb, Component::Star, "B");
  } else {
    // circular planets of 1 Earth mass at 1.2 AU, inside the stable zone for a(1-e) >= 5 AU
    const double mp = 3.0e-6, ap = std::min(1.2, 0.2 * a * (1.0 - e));
    add_pair(s.bodies, G, ma, mp, ap, 0.0, 0.0, xa, va, "A", "planet A", Component::Star,
             Component::Planet);
    add_pair(s.bodies, G, mb, mp, ap, 0.0, kPi / 2, xb, vb, "B", "planet B", Component::Star,
             Component::Planet);
  }
  // 500 steps per orbit of the inner planet (or of the stars)
  const double ap = planets ? std::min(1.2, 0.2 * a * (1.0 - e)) : a;
  s.dt = 2.0 * kPi * std::sqrt(ap * ap * ap / (G * mb)) / 500.0;
  s.softening = 0.0;
  s.camera_distance = 2.5 * a;
  s.trails = true;
  finish(s);
  return s;
}

}  // namespace nbody::scenes
