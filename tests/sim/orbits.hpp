#pragma once
// Test systems with known orbits, for the integrator tests: the outer solar system of Hairer,
// Lubich & Wanner (Geometric Numerical Integration, 2nd ed., Sect. I.2.4: the Sun with the inner
// planets' mass, Jupiter, Saturn, Uranus, Neptune; AU, days, solar masses), a Keplerian two-body
// orbit, and Kepler's equation solved for a reference.

#include <algorithm>
#include <cmath>
#include <memory>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/bodies.hpp"

namespace nbody::testing {

constexpr double kPi = 3.14159265358979323846;
constexpr double kGaussG = 2.95912208286e-4;  // k², AU³ / (Msun day²)

/// The Sun (with the inner planets' mass) and the four giant planets.
inline Bodies outer_planets() {
  Bodies b;
  b.add(0, 0, 0, 0, 0, 0, 1.00000597682, Component::Star, "Sun");
  b.add(-3.5023653, -3.8169847, -1.5507963, 0.00565429, -0.00412490, -0.00190589, 0.000954786104043,
        Component::Star, "Jupiter");
  b.add(9.0755314, -3.0458353, -1.6483708, 0.00168318, 0.00483525, 0.00192462, 0.000285583733151,
        Component::Star, "Saturn");
  b.add(8.3101420, -16.2901086, -7.2521278, 0.00354178, 0.00137102, 0.00055029, 0.0000437273164546,
        Component::Star, "Uranus");
  b.add(11.4707666, -25.7294829, -10.8169456, 0.00288930, 0.00114527, 0.00039677,
        0.0000517759138449, Component::Star, "Neptune");
  return b;
}

/// A body of mass m on an orbit of semi-major axis a and eccentricity e about a body of mass M
/// (G given), starting at pericentre on the x axis, in the centre-of-mass frame.
inline Bodies kepler_pair(double G, double M, double m, double a, double e) {
  const double mu = G * (M + m), rp = a * (1 - e);
  const double vp = std::sqrt(mu / a * (1 + e) / (1 - e));
  Bodies b;
  const double f = m / (M + m);
  b.add(-f * rp, 0, 0, 0, -f * vp, 0, M, Component::Star, "primary");
  b.add((1 - f) * rp, 0, 0, 0, (1 - f) * vp, 0, m, Component::Star, "secondary");
  return b;
}

/// Position (x, y) relative to the primary at time t after pericentre of kepler_pair()'s orbit.
inline void kepler_position(double mu, double a, double e, double t, double& x, double& y) {
  const double n = std::sqrt(mu / (a * a * a));
  const double M = std::fmod(n * t, 2 * kPi);
  double E = e > 0.8 ? kPi : M;
  for (int i = 0; i < 100; ++i) {
    const double dE = (E - e * std::sin(E) - M) / (1 - e * std::cos(E));
    E -= dE;
    if (std::abs(dE) < 1e-16) break;
  }
  x = a * (std::cos(E) - e);
  y = a * std::sqrt(1 - e * e) * std::sin(E);
}

/// A backend of `kernel` in double precision with `integrator`, holding `b`.
inline std::unique_ptr<ForceBackend> backend_for(const Bodies& b, SimParams& p,
                                                 Integrator integrator, double G, double dt,
                                                 const char* kernel = "cpu-reference") {
  p.kernel = kernel;
  p.precision = Precision::Double;
  p.integrator = integrator;
  p.G = G;
  p.dt = dt;
  p.softening = 0;
  auto backend = make_backend(p);
  backend->set_bodies(b);
  return backend;
}

inline double energy(const ForceBackend& backend, double G) {
  Bodies b;
  backend.get_bodies(b);
  return compute_diagnostics(b, G, 0.0).total;
}

/// The perihelion direction (radians) from the Runge-Lenz vector of body 1 about body 0.
inline double perihelion_angle(const Bodies& b, double mu) {
  const double rx = b.x[1] - b.x[0], ry = b.y[1] - b.y[0], rz = b.z[1] - b.z[0];
  const double vx = b.vx[1] - b.vx[0], vy = b.vy[1] - b.vy[0], vz = b.vz[1] - b.vz[0];
  const double hx = ry * vz - rz * vy, hy = rz * vx - rx * vz, hz = rx * vy - ry * vx;
  const double r = std::sqrt(rx * rx + ry * ry + rz * rz);
  const double ax = vy * hz - vz * hy - mu * rx / r, ay = vz * hx - vx * hz - mu * ry / r;
  return std::atan2(ay, ax);
}

/// The perihelion advance of Sun + Mercury (J2000 orbit) in arcseconds per century with
/// `integ` at step dt, from a straight-line fit of the Runge-Lenz direction sampled every
/// `per_call` steps over `centuries`, with the 1PN term `model` when post_newtonian.
inline double mercury_advance(Integrator integ, bool post_newtonian, double dt, int per_call,
                              double centuries, PnModel model = PnModel::Sun) {
  const double a = 0.38709893, e = 0.20563069, m_sun = 1.0, m_merc = 1.6601e-7;
  Bodies b = kepler_pair(kGaussG, m_sun, m_merc, a, e);
  SimParams p;
  auto backend = backend_for(b, p, integ, kGaussG, dt);
  p.post_newtonian = post_newtonian;
  p.pn_model = model;
  p.speed_of_light = 299792458.0 * 86400.0 / 1.495978707e11;  // AU/day
  const double mu = kGaussG * (m_sun + m_merc);
  const int outputs = static_cast<int>(std::lround(centuries * 36525.0 / (dt * per_call)));
  double st = 0, sa = 0, stt = 0, sta = 0, prev = perihelion_angle(b, mu), unwrap = 0;
  for (int k = 0; k <= outputs; ++k) {
    if (k > 0) backend->step(p, per_call);
    backend->get_bodies(b);
    double angle = perihelion_angle(b, mu);
    if (angle - prev > kPi) unwrap -= 2 * kPi;
    if (angle - prev < -kPi) unwrap += 2 * kPi;
    prev = angle;
    angle += unwrap;
    const double t = k * dt * per_call / 36525.0;
    st += t, sa += angle, stt += t * t, sta += t * angle;
  }
  const double n = outputs + 1;
  const double slope = (n * sta - st * sa) / (n * stt - st * st);  // rad per century
  return slope * 180 / kPi * 3600;
}

/// The largest position error of the outer planets after `steps` steps of `dt` days with `integ`
/// and as many of -dt back (a time-reversible or accurate integrator returns to its start).
inline double round_trip_error(Integrator integ, double dt, int steps) {
  Bodies b = outer_planets();
  SimParams p;
  auto backend = backend_for(b, p, integ, kGaussG, dt);
  backend->step(p, steps);
  p.dt = -dt;
  backend->step(p, steps);
  Bodies end;
  backend->get_bodies(end);
  double err = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    err = std::max(err, std::hypot(end.x[i] - b.x[i], end.y[i] - b.y[i], end.z[i] - b.z[i]));
  return err;
}

}  // namespace nbody::testing
