// WHFast: the Wisdom-Holman map in Jacobi coordinates (J. Wisdom & M. Holman, AJ 102, 1528,
// 1991; H. Rein & D. Tamayo, MNRAS 452, 376, 2015). The Hamiltonian is split into the Kepler
// motion of each Jacobi coordinate about the mass interior to it, solved exactly (universal
// variables, Stumpff functions), and the interaction, a kick: drift dt/2, kick dt, drift dt/2.
// Symplectic correctors of order 3, 5, 7 or 11 (J. Wisdom, M. Holman & J. Touma, Fields Inst.
// Commun. 10, 217, 1996) remove the error terms of first order in the perturbation at the start
// and end of each batch. Body 0 of the Jacobi order is the most massive body; the other massive
// bodies follow by distance from it, then the test particles (mass 0). The kick is the kernel's
// forces (with the rigid halos and the 1PN term) minus each coordinate's Kepler part, so the
// same kernels drive it. Host only (it reads and writes the bodies); float or double.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "sim/integrators/integrator.hpp"

namespace nbody {
namespace {

// Stumpff functions c0..c3 of z, from their series at |z| <= 0.1 and the quadrupling formulas
void stumpff(double z, double c[4]) {
  int n = 0;
  while (std::abs(z) > 0.1) {
    z /= 4;
    ++n;
  }
  // c2 = Σ (-z)^k / (2k+2)!, c3 = Σ (-z)^k / (2k+3)!, Horner from k = 7
  static const auto inv_fact = [] {
    std::array<double, 18> f{};
    double v = 1;
    for (int i = 0; i < 18; ++i) {
      v *= i > 0 ? i : 1;
      f[i] = 1 / v;
    }
    return f;
  }();
  double c2 = 0, c3 = 0;
  for (int k = 7; k >= 0; --k) {
    c2 = inv_fact[2 * k + 2] - z * c2;
    c3 = inv_fact[2 * k + 3] - z * c3;
  }
  double c0 = 1 - z * c2, c1 = 1 - z * c3;
  for (; n > 0; --n) {
    const double n3 = (c2 + c0 * c3) / 4, n2 = c1 * c1 / 2, n1 = c0 * c1, n0 = 2 * c0 * c0 - 1;
    c0 = n0, c1 = n1, c2 = n2, c3 = n3;
  }
  c[0] = c0, c[1] = c1, c[2] = c2, c[3] = c3;
}

// Kepler motion of (r, v) about a mass of gravitational parameter gm for a time dt: the
// universal anomaly X solves r0 X + η G2(X) + ζ G3(X) = dt (G_k = X^k c_k(β X²)), by
// Laguerre-Conway iterations with a bisection to fall back on; then Gauss's f and g functions,
// applied as increments for accuracy
void kepler_drift(double gm, double dt, double r[3], double v[3]) {
  const double r0 = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  if (!(r0 > 0) || dt == 0) return;
  const double v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const double beta = 2 * gm / r0 - v2;
  const double eta = r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
  const double zeta = gm - beta * r0;
  double t = dt;
  if (beta > 0) {  // an ellipse: whole periods change nothing
    const double period = 2 * M_PI * gm / (beta * std::sqrt(beta));
    if (std::abs(t) > period) t = std::fmod(t, period);
  }
  double c[4];
  auto eval = [&](double X, double& f, double& fp, double& fpp) {
    stumpff(beta * X * X, c);
    const double g1 = X * c[1], g2 = X * X * c[2], g3 = X * X * X * c[3];
    f = r0 * X + eta * g2 + zeta * g3 - t;
    fp = r0 + eta * g1 + zeta * g2;
    fpp = eta * c[0] + zeta * g1;
  };
  double X = t / r0 * (1 - t * eta / (2 * r0 * r0));  // second order in t
  double f, fp, fpp;
  bool converged = false;
  for (int it = 0; it < 50 && !converged; ++it) {
    eval(X, f, fp, fpp);
    const double disc = std::sqrt(std::abs(16 * fp * fp - 20 * f * fpp));
    const double dX = -5 * f / (fp + std::copysign(disc, fp));
    const double next = X + dX;
    converged = !(std::abs(dX) > 1e-15 * std::abs(next)) || next == X;
    X = next;
  }
  if (converged) {
    // Newton to the last bit
    for (int it = 0; it < 3; ++it) {
      eval(X, f, fp, fpp);
      const double next = X - f / fp;
      if (next == X) break;
      X = next;
    }
  }
  if (!converged || !std::isfinite(X)) {
    // bisection: t(X) grows with X (dt/dX = r > 0)
    double lo = 0, hi = t / r0;
    eval(hi, f, fp, fpp);
    while ((t > 0) == (f < 0)) {
      hi *= 2;
      eval(hi, f, fp, fpp);
    }
    if (t < 0) std::swap(lo, hi);
    for (int it = 0; it < 200 && hi - lo > 1e-15 * std::abs(hi); ++it) {
      X = 0.5 * (lo + hi);
      eval(X, f, fp, fpp);
      (f < 0 ? lo : hi) = X;
    }
    X = 0.5 * (lo + hi);
  }
  stumpff(beta * X * X, c);
  const double g1 = X * c[1], g2 = X * X * c[2], g3 = X * X * X * c[3];
  const double rn = r0 + eta * g1 + zeta * g2;
  const double f1 = -gm * g2 / r0, g = t - gm * g3;             // f - 1, g
  const double fd = -gm * g1 / (r0 * rn), gd1 = -gm * g2 / rn;  // f', g' - 1
  const double r_old[3] = {r[0], r[1], r[2]}, v_old[3] = {v[0], v[1], v[2]};
  for (int k = 0; k < 3; ++k) {
    r[k] += f1 * r_old[k] + g * v_old[k];
    v[k] += fd * r_old[k] + gd1 * v_old[k];
  }
}

// the bodies in Jacobi coordinates, in Jacobi order (index 0: the centre of mass)
struct Jacobi {
  const SimParams& p;
  StateOps& st;
  HostState& s;
  std::vector<std::size_t> order;  // state index of Jacobi body k
  std::vector<double> m, eta;      // mass of body k and of bodies 0..k
  std::vector<double> x[3], v[3];  // Jacobi positions and velocities

  Jacobi(const SimParams& params, StateOps& state, HostState& hs);
  void from_state();
  void to_state();
  void kepler(double dt);
  void com(double dt) {
    for (int c = 0; c < 3; ++c)
      x[c][0] += dt * v[c][0];
  }
  void kick(double dt);
  void corrector_z(double a, double b) {
    kepler(a);
    kick(-b);
    kepler(-2 * a);
    kick(b);
    kepler(a);
  }
  void corrector(int order, double dir);
};

Jacobi::Jacobi(const SimParams& params, StateOps& state, HostState& hs)
    : p(params), st(state), s(hs) {
  const std::size_t n = s.size();
  // the heaviest first, the other massive bodies by distance from it, then the test particles
  const std::size_t c =
      static_cast<std::size_t>(std::max_element(s.m.begin(), s.m.end()) - s.m.begin());
  std::vector<double> d2(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = s.x[i] - s.x[c], dy = s.y[i] - s.y[c], dz = s.z[i] - s.z[c];
    d2[i] = dx * dx + dy * dy + dz * dz;
  }
  order.resize(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if ((a == c) != (b == c)) return a == c;
    if ((s.m[a] > 0) != (s.m[b] > 0)) return s.m[a] > 0;
    return d2[a] < d2[b];
  });
  m.resize(n);
  eta.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    m[k] = s.m[order[k]];
    eta[k] = (k ? eta[k - 1] : 0) + m[k];
  }
  for (int d = 0; d < 3; ++d) {
    x[d].resize(n);
    v[d].resize(n);
  }
}

void Jacobi::from_state() {
  const std::vector<double>* sx[3] = {&s.x, &s.y, &s.z};
  const std::vector<double>* sv[3] = {&s.vx, &s.vy, &s.vz};
  const std::size_t n = order.size();
  for (int d = 0; d < 3; ++d) {
    // R, V: the centre of mass of bodies 0..k-1, kept as mass-weighted sums
    double mr = m[0] * (*sx[d])[order[0]], mv = m[0] * (*sv[d])[order[0]];
    for (std::size_t k = 1; k < n; ++k) {
      const double xi = (*sx[d])[order[k]], vi = (*sv[d])[order[k]];
      x[d][k] = xi - mr / eta[k - 1];
      v[d][k] = vi - mv / eta[k - 1];
      mr += m[k] * xi;
      mv += m[k] * vi;
    }
    x[d][0] = mr / eta[n - 1];
    v[d][0] = mv / eta[n - 1];
  }
}

void Jacobi::to_state() {
  std::vector<double>* sx[3] = {&s.x, &s.y, &s.z};
  std::vector<double>* sv[3] = {&s.vx, &s.vy, &s.vz};
  const std::size_t n = order.size();
  for (int d = 0; d < 3; ++d) {
    // from the outermost in: R_(k-1) = R_k - m_k x'_k / eta_k, x_k = x'_k + R_(k-1)
    double r = x[d][0], u = v[d][0];
    for (std::size_t k = n - 1; k >= 1; --k) {
      r -= m[k] * x[d][k] / eta[k];
      u -= m[k] * v[d][k] / eta[k];
      (*sx[d])[order[k]] = x[d][k] + r;
      (*sv[d])[order[k]] = v[d][k] + u;
    }
    (*sx[d])[order[0]] = r;
    (*sv[d])[order[0]] = u;
  }
}

void Jacobi::kepler(double dt) {
  const long n = static_cast<long>(order.size());
#pragma omp parallel for schedule(static) if (n > 4096)
  for (long k = 1; k < n; ++k) {
    double r[3] = {x[0][k], x[1][k], x[2][k]}, u[3] = {v[0][k], v[1][k], v[2][k]};
    kepler_drift(p.G * eta[k], dt, r, u);
    for (int d = 0; d < 3; ++d) {
      x[d][k] = r[d];
      v[d][k] = u[d];
    }
  }
}

void Jacobi::kick(double dt) {
  to_state();
  st.accelerations(p, s);
  const std::vector<double>* sa[3] = {&s.ax, &s.ay, &s.az};
  const std::size_t n = order.size();
  std::vector<double> r3(n);
  for (std::size_t k = 1; k < n; ++k) {
    const double r2 = x[0][k] * x[0][k] + x[1][k] * x[1][k] + x[2][k] * x[2][k];
    r3[k] = p.G * eta[k] / (r2 * std::sqrt(r2));
  }
  for (int d = 0; d < 3; ++d) {
    // the Jacobi acceleration a_k - A_(k-1) (A: of the centre of mass of 0..k-1), plus the
    // Kepler acceleration it contains taken out: G eta_k x'_k / r'^3
    double ma = m[0] * (*sa[d])[order[0]];
    for (std::size_t k = 1; k < n; ++k) {
      const double ai = (*sa[d])[order[k]];
      v[d][k] += dt * (ai - ma / eta[k - 1] + r3[k] * x[d][k]);
      ma += m[k] * ai;
    }
    // the centre of mass: 0 for gravity alone, not for the 1PN term (the Sun's field acts on
    // the planets only) or the rigid halos
    v[d][0] += dt * ma / eta[n - 1];
  }
}

// Wisdom, Holman & Touma (1996) corrector coefficients: a_i = i sqrt(7/40), b from their table
void Jacobi::corrector(int order_, double dir) {
  const double dt = p.dt, a1 = std::sqrt(7.0 / 40.0);
  static const double b3[] = {-0.024900596027799867499350357910273437184309981229127};
  static const double b5[] = {-0.0083001986759332891664501193034244790614366604097090,
                              0.041500993379666445832250596517122395307183302048545};
  static const double b7[] = {0.0024926811426922105779030593952776964450539008582219,
                              -0.018270923246702131478062356884535264841652263842597,
                              0.053964399093127498721765893493510877532452806339655};
  static const double b11[] = {0.00020361579647854651301632818774633716473696537436847,
                               -0.0023487215292295354188307328851055489876255097419754,
                               0.012309078592019946317544564763237909911330686448336,
                               -0.038121613681288650508647613260247372125243616270670,
                               0.072593394748842738674253180742744961827622366521517};
  const double* b = nullptr;
  int m_ = 0;
  switch (order_) {
    case 3:
      b = b3, m_ = 1;
      break;
    case 5:
      b = b5, m_ = 2;
      break;
    case 7:
      b = b7, m_ = 3;
      break;
    case 11:
      b = b11, m_ = 5;
      break;
    default:
      return;
  }
  // Z(-a_m, -b_1) ... Z(-a_1, -b_m) Z(a_1, b_m) ... Z(a_m, b_1), b signed by the direction
  // (the order-3 corrector: Z(a_1, -b_1) Z(-a_1, b_1))
  if (order_ == 3) {
    corrector_z(a1 * dt, -dir * b[0] * dt);
    corrector_z(-a1 * dt, dir * b[0] * dt);
    return;
  }
  for (int i = m_; i >= 1; --i)
    corrector_z(-i * a1 * dt, -dir * b[m_ - i] * dt);
  for (int i = 1; i <= m_; ++i)
    corrector_z(i * a1 * dt, dir * b[m_ - i] * dt);
}

void run(StepOps& ops, const SimParams& p, int steps) {
  StateOps& st = require_state(ops, find_integrator(Integrator::WHFast));
  HostState s;
  st.read(p, s);
  if (s.size() < 2 || !(*std::max_element(s.m.begin(), s.m.end()) > 0)) {
    // nothing orbits (one body, or no mass: no forces): a free drift
    for (std::size_t i = 0; i < s.size(); ++i) {
      s.x[i] += steps * p.dt * s.vx[i];
      s.y[i] += steps * p.dt * s.vy[i];
      s.z[i] += steps * p.dt * s.vz[i];
    }
    st.write(s, false);
    return;
  }
  Jacobi j(p, st, s);
  j.from_state();
  j.corrector(p.whfast_corrector, 1.0);
  // drift dt/2, then (kick dt, drift dt) with the drifts of adjacent steps joined, then dt/2
  j.kepler(p.dt / 2);
  j.com(p.dt / 2);
  for (int step = 0; step < steps; ++step) {
    j.kick(p.dt);
    const double drift = step + 1 < steps ? p.dt : p.dt / 2;
    j.kepler(drift);
    j.com(drift);
  }
  j.corrector(p.whfast_corrector, -1.0);
  j.to_state();
  st.write(s, false);
}

}  // namespace

IntegratorRow whfast_row() {
  IntegratorRow r;
  r.id = Integrator::WHFast;
  r.name = "whfast";
  r.aliases = {"WHFast", "wisdom-holman", "wh"};
  r.label = "WHFast (Wisdom-Holman)";
  r.description =
      "WHFast (Rein & Tamayo 2015): Wisdom-Holman in Jacobi coordinates with symplectic "
      "correctors; for planets about a dominant star; CPU kernels";
  r.order = 2;  // in dt; the error is also O(mass ratio), and correctors lift it to O(ε dt^k)
  r.force_evaluations = 1;
  r.symplectic = true;
  r.time_reversible = true;
  r.needs_state = true;
  r.run = run;
  return r;
}

}  // namespace nbody
