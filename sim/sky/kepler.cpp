// Two-body motion by universal variables (Bate, Mueller & White ch. 4; Vallado alg. 8).
#include "sim/sky/kepler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/error.hpp"

namespace nbody::sky {

namespace {

constexpr double kPi = 3.14159265358979323846;

double dot(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Stumpff functions C(z) = (1 - cos sqrt z) / z and S(z) = (sqrt z - sin sqrt z) / z^{3/2},
// by their series near 0 (where the closed forms cancel)
void stumpff(double z, double& c, double& s) {
  if (std::fabs(z) < 1.0) {
    // C = sum (-z)^k / (2k+2)!, S = sum (-z)^k / (2k+3)!; 14 terms reach 1e-30
    double tc = 0.5, ts = 1.0 / 6.0;
    c = tc;
    s = ts;
    for (int k = 1; k < 14; ++k) {
      tc *= -z / ((2 * k + 1) * (2 * k + 2));
      ts *= -z / ((2 * k + 2) * (2 * k + 3));
      c += tc;
      s += ts;
    }
  } else if (z > 0) {
    const double r = std::sqrt(z);
    c = (1.0 - std::cos(r)) / z;
    s = (r - std::sin(r)) / (z * r);
  } else {
    const double r = std::sqrt(-z);
    c = (std::cosh(r) - 1.0) / -z;
    s = (std::sinh(r) - r) / (-z * r);
  }
}

}  // namespace

double semi_major_axis(const Elements& el) {
  if (el.e == 1.0) return std::numeric_limits<double>::infinity();
  return el.q / (1.0 - el.e);
}

double pericentre_time(double q, double e, double ma, double epoch, double mu) {
  if (!(e < 1.0)) fail("mean anomaly given for an orbit that is not an ellipse (e = ", e, ")");
  const double a = q / (1.0 - e);
  const double n = std::sqrt(mu / (a * a * a));
  // the nearest pericentre: ma in (-pi, pi]
  double m = std::fmod(ma, 2.0 * kPi);
  if (m > kPi) m -= 2.0 * kPi;
  if (m <= -kPi) m += 2.0 * kPi;
  return epoch - m / n;
}

State propagate(const State& s0, double mu, double dt) {
  const double r0 = std::sqrt(dot(s0.r, s0.r));
  const double v2 = dot(s0.v, s0.v);
  const double sqmu = std::sqrt(mu);
  const double rv = dot(s0.r, s0.v);
  const double alpha = 2.0 / r0 - v2 / mu;  // 1 / a
  if (!(r0 > 0) || !std::isfinite(alpha)) fail("two-body propagation: state is not an orbit");
  // an ellipse: at most half a period either way
  if (alpha > 0) {
    const double period = 2.0 * kPi / (sqmu * alpha * std::sqrt(alpha));
    dt = std::remainder(dt, period);
  }
  if (dt == 0) return s0;
  // F(x) = rv/sqmu x² C + (1 - alpha r0) x³ S + r0 x - sqmu dt rises with x (F' = r > 0)
  const double target = sqmu * dt;
  auto eval = [&](double x, double& f, double& fp) {
    const double z = alpha * x * x;
    double c, s;
    stumpff(z, c, s);
    f = rv / sqmu * x * x * c + (1.0 - alpha * r0) * x * x * x * s + r0 * x - target;
    fp = rv / sqmu * x * (1.0 - z * s) + (1.0 - alpha * r0) * x * x * c + r0;
  };
  // bracket the root: [0, hi] when dt > 0, [lo, 0] when dt < 0
  const double sign = dt > 0 ? 1.0 : -1.0;
  double guess = alpha > 0 ? sqmu * std::fabs(dt) * alpha : std::fabs(target) / r0;
  guess = std::max(guess, 1e-12);
  double lo = 0, hi = sign * guess, f = 0, fp = 0;
  for (int k = 0; k < 400; ++k) {
    eval(hi, f, fp);
    if (sign * f >= 0 && std::isfinite(f)) break;
    if (!std::isfinite(f)) {
      hi = 0.5 * (lo + hi);  // overflowed (hyperbolic): step back
      continue;
    }
    lo = hi;
    hi *= 2.0;
  }
  if (sign < 0) std::swap(lo, hi);
  // Newton's method, bisecting instead whenever a Newton step would leave the bracket or not
  // halve the step before it (Numerical Recipes' rtsafe: an exponential F of a hyperbola is
  // slow for Newton from far above the root)
  double x = 0.5 * (lo + hi), dx_old = hi - lo, dx = dx_old;
  eval(x, f, fp);
  for (int k = 0; k < 500; ++k) {
    if (f == 0) break;
    if (f < 0)
      lo = x;
    else
      hi = x;
    const bool newton_out = ((x - hi) * fp - f) * ((x - lo) * fp - f) > 0;
    if (newton_out || std::fabs(2.0 * f) > std::fabs(dx_old * fp)) {
      dx_old = dx;
      dx = 0.5 * (hi - lo);
      x = lo + dx;
    } else {
      dx_old = dx;
      dx = f / fp;
      x -= dx;
    }
    if (std::fabs(dx) <= 1e-15 * std::max(1.0, std::fabs(x)) ||
        hi - lo <= 1e-16 * std::max(1.0, std::fabs(x)))
      break;
    eval(x, f, fp);
  }
  // Lagrange coefficients
  const double z = alpha * x * x;
  double c, s;
  stumpff(z, c, s);
  const double fl = 1.0 - x * x / r0 * c;
  const double gl = dt - x * x * x * s / sqmu;
  State out;
  for (int k = 0; k < 3; ++k)
    out.r[k] = fl * s0.r[k] + gl * s0.v[k];
  const double r = std::sqrt(dot(out.r, out.r));
  const double fdot = sqmu / (r * r0) * (z * s - 1.0) * x;
  const double gdot = 1.0 - x * x / r * c;
  for (int k = 0; k < 3; ++k)
    out.v[k] = fdot * s0.r[k] + gdot * s0.v[k];
  // absurd elements (e = 1e300) or a hyperbola over 1e200 days overflow the coefficients
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(out.r[k]) || !std::isfinite(out.v[k]))
      fail("two-body propagation over ", dt, " days gives no finite state (r0 = ", r0,
           " AU, 1/a = ", alpha, " /AU)");
  return out;
}

State state_from_elements(const Elements& el, double mu, double jd) {
  if (!(el.q > 0) || !(el.e >= 0) || !std::isfinite(el.q) || !std::isfinite(el.e) ||
      !std::isfinite(el.i) || !std::isfinite(el.node) || !std::isfinite(el.peri) ||
      !std::isfinite(el.tp))
    fail("orbital elements are not a conic (q = ", el.q, " AU, e = ", el.e, ")");
  // unit vectors towards the pericentre (P) and 90 degrees ahead of it in the orbit (Q)
  const double cO = std::cos(el.node), sO = std::sin(el.node);
  const double cw = std::cos(el.peri), sw = std::sin(el.peri);
  const double ci = std::cos(el.i), si = std::sin(el.i);
  const double P[3] = {cO * cw - sO * sw * ci, sO * cw + cO * sw * ci, sw * si};
  const double Q[3] = {-cO * sw - sO * cw * ci, -sO * sw + cO * cw * ci, cw * si};
  // at pericentre, then two-body motion to jd
  const double vp = std::sqrt(mu * (1.0 + el.e) / el.q);
  State p;
  for (int k = 0; k < 3; ++k) {
    p.r[k] = el.q * P[k];
    p.v[k] = vp * Q[k];
  }
  return propagate(p, mu, jd - el.tp);
}

Elements elements_from_state(const State& s, double mu, double jd) {
  const double* r = s.r;
  const double* v = s.v;
  const double rn = std::sqrt(dot(r, r));
  const double h[3] = {r[1] * v[2] - r[2] * v[1], r[2] * v[0] - r[0] * v[2],
                       r[0] * v[1] - r[1] * v[0]};
  const double hn = std::sqrt(dot(h, h));
  // eccentricity vector e = v x h / mu - r / |r|
  const double ev[3] = {(v[1] * h[2] - v[2] * h[1]) / mu - r[0] / rn,
                        (v[2] * h[0] - v[0] * h[2]) / mu - r[1] / rn,
                        (v[0] * h[1] - v[1] * h[0]) / mu - r[2] / rn};
  Elements el;
  el.e = std::sqrt(dot(ev, ev));
  el.q = hn * hn / mu / (1.0 + el.e);
  el.i = std::acos(std::clamp(h[2] / hn, -1.0, 1.0));
  el.node = std::atan2(h[0], -h[1]);
  // argument of pericentre: angle from the node line to e in the orbit plane
  const double nx = std::cos(el.node), ny = std::sin(el.node);
  const double hx[3] = {h[0] / hn, h[1] / hn, h[2] / hn};
  const double m[3] = {hx[1] * 0 - hx[2] * ny, hx[2] * nx - hx[0] * 0, hx[0] * ny - hx[1] * nx};
  el.peri = std::atan2(dot(ev, m), ev[0] * nx + ev[1] * ny);
  // true anomaly and the time since pericentre by propagating back to it
  const double cosnu = std::clamp(dot(ev, r) / (el.e * rn), -1.0, 1.0);
  double nu = std::acos(cosnu);
  if (dot(r, v) < 0) nu = -nu;
  // time since pericentre through the universal anomaly chi, which is continuous across e = 1:
  // chi = sqrt(a) E (ellipse), sqrt(-a) H (hyperbola), sqrt(p) tan(nu/2) (parabola), all equal
  // to 2 sqrt(q / (1 + e)) tan(nu/2) g(w) with w = sqrt(|1 - e| / (1 + e)) tan(nu/2) and
  // g = atan(w)/w or atanh(w)/w; then t = (e chi³ S(alpha chi²) + q chi) / sqrt(mu)
  const double tau = std::tan(nu / 2);
  const double w = std::sqrt(std::fabs(1 - el.e) / (1 + el.e)) * tau;
  double g = 1.0;
  if (std::fabs(w) > 1e-8) g = el.e < 1.0 ? std::atan(w) / w : std::atanh(w) / w;
  const double chi = 2.0 * std::sqrt(el.q / (1 + el.e)) * tau * g;
  const double alpha = (1 - el.e) / el.q;
  double c, sf;
  stumpff(alpha * chi * chi, c, sf);
  const double tsince = (el.e * chi * chi * chi * sf + el.q * chi) / std::sqrt(mu);
  el.tp = jd - tsince;
  return el;
}

std::vector<std::array<double, 3>> orbit_points(const State& s, double mu, int segments) {
  std::vector<std::array<double, 3>> out;
  const double r2 = dot(s.r, s.r);
  const double h[3] = {s.r[1] * s.v[2] - s.r[2] * s.v[1], s.r[2] * s.v[0] - s.r[0] * s.v[2],
                       s.r[0] * s.v[1] - s.r[1] * s.v[0]};
  if (segments < 3 || !(r2 > 0) || !(dot(h, h) > 0) || !(mu > 0)) return out;
  const Elements el = elements_from_state(s, mu, 0.0);
  if (!(el.e < 1) || !(el.q > 0)) return out;
  const double a = el.q / (1 - el.e), b = a * std::sqrt(1 - el.e * el.e);
  // the perifocal axes: P towards the pericentre, Q 90 degrees ahead in the plane
  const double cw = std::cos(el.peri), sw = std::sin(el.peri);
  const double cn = std::cos(el.node), sn = std::sin(el.node);
  const double ci = std::cos(el.i), si = std::sin(el.i);
  const double P[3] = {cw * cn - sw * sn * ci, cw * sn + sw * cn * ci, sw * si};
  const double Q[3] = {-sw * cn - cw * sn * ci, -sw * sn + cw * cn * ci, cw * si};
  out.reserve(static_cast<std::size_t>(segments));
  for (int k = 0; k < segments; ++k) {
    const double E = 2 * 3.14159265358979323846 * k / segments;
    const double x = a * (std::cos(E) - el.e), y = b * std::sin(E);
    out.push_back({x * P[0] + y * Q[0], x * P[1] + y * Q[1], x * P[2] + y * Q[2]});
  }
  return out;
}

}  // namespace nbody::sky
