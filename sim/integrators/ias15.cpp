// IAS15: an adaptive 15th-order Gauss-Radau integrator (H. Rein & D. S. Spiegel, MNRAS 446,
// 1424, 2015, after E. Everhart 1985). Over a step of length dt the acceleration is a polynomial
// of degree 7 in the step's fraction τ, a(τ) = a0 + b0 τ + ... + b6 τ^7, fitted at the eight
// Gauss-Radau nodes by predictor-corrector iterations until the b's stop changing; positions
// and velocities are its integrals, summed with Kahan compensation. The step is chosen so that
// |b6| / |a| (the last term of the series) stays at the tolerance ε (1e-9), which keeps the
// error below double rounding: the energy error then grows only as round-off does (Brouwer's
// law, ~ sqrt(t)). Host only (it reads and writes the bodies), double only.
//
// p.dt is the output interval: each step of p.dt is covered by adaptive steps, the last one
// shortened to end on it; the step size and the predicted b's carry over to the next interval
// and the next call (the store keeps them until the bodies are replaced).
#include <algorithm>
#include <array>
#include <cmath>

#include "sim/integrators/integrator.hpp"

namespace nbody {
namespace {

constexpr int kOrder = 7;         // b0 .. b6
constexpr double kSafety = 0.25;  // largest change of the step from one step to the next
constexpr int kMaxIterations = 12;

// the Gauss-Radau nodes and the coefficients between the two forms of the series, computed
// once in long double: a(τ) = a0 + Σ g_j τ P_j(τ) with P_j(τ) = Π_{m=1..j} (τ - h_m), so that
// b_k = Σ_{j>=k} c[j][k] g_j with c[j][k] the coefficient of τ^k in P_j, and g = d b
struct Radau {
  std::array<double, 8> h{};
  std::array<std::array<double, kOrder>, kOrder> c{}, d{};
  std::array<std::array<double, 8>, 8> r{};  // r[n][k] = h[n] - h[k]
};

// Legendre P_7(t) + P_8(t), whose roots are the Radau nodes (t = -1 among them)
long double radau_poly(long double t) {
  long double p0 = 1, p1 = t;
  for (int n = 1; n < 8; ++n) {
    const long double p2 = ((2 * n + 1) * t * p1 - n * p0) / (n + 1);
    p0 = p1;
    p1 = p2;
  }
  return p0 + p1;
}

Radau make_radau() {
  Radau R;
  // the 7 roots in (-1, 1): sign changes on a fine grid, then bisection
  std::array<long double, 8> h{};
  int found = 1;
  const int grid = 20000;
  for (int i = 0; i < grid && found < 8; ++i) {
    long double lo = -1 + 2.0L * (i + 0.5L) / grid, hi = -1 + 2.0L * (i + 1.5L) / grid;
    if (hi > 1) hi = 1;
    if ((radau_poly(lo) < 0) == (radau_poly(hi) < 0)) continue;
    for (int it = 0; it < 200; ++it) {
      const long double mid = 0.5L * (lo + hi);
      if ((radau_poly(mid) < 0) == (radau_poly(lo) < 0))
        lo = mid;
      else
        hi = mid;
    }
    h[found++] = 0.5L * (0.5L * (lo + hi) + 1);
  }
  for (int n = 0; n < 8; ++n) {
    R.h[n] = static_cast<double>(h[n]);
    for (int k = 0; k < 8; ++k)
      R.r[n][k] = static_cast<double>(h[n] - h[k]);
  }
  // c[j][k]: coefficients of P_j, by multiplying in (τ - h_j)
  std::array<std::array<long double, kOrder>, kOrder> c{};
  c[0][0] = 1;
  for (int j = 1; j < kOrder; ++j)
    for (int k = 0; k <= j; ++k)
      c[j][k] = (k > 0 ? c[j - 1][k - 1] : 0) - h[j] * (k < j ? c[j - 1][k] : 0);
  // d = the inverse of the unit upper-triangular matrix M[k][j] = c[j][k]
  std::array<std::array<long double, kOrder>, kOrder> d{};
  for (int j = 0; j < kOrder; ++j) {
    d[j][j] = 1;
    for (int k = j + 1; k < kOrder; ++k) {  // d[k][j]: g_j gets d[k][j] b_k
      long double sum = 0;
      for (int m = j; m < k; ++m)
        sum += c[k][m] * d[m][j];
      d[k][j] = -sum;
    }
  }
  for (int j = 0; j < kOrder; ++j)
    for (int k = 0; k < kOrder; ++k) {
      R.c[j][k] = static_cast<double>(c[j][k]);
      R.d[j][k] = static_cast<double>(d[j][k]);
    }
  return R;
}

const Radau& radau() {
  static const Radau R = make_radau();
  return R;
}

// Kahan: sum += in, with the running compensation cs
inline void add_cs(double& sum, double& cs, double in) {
  const double y = in - cs;
  const double t = sum + y;
  cs = (t - sum) - y;
  sum = t;
}

using Coeffs = std::array<std::vector<double>, kOrder>;

// what carries over from one step (and one call) to the next
struct Ias15Memory final : IntegratorMemory {
  std::size_t n3 = 0;
  double dt_next = 0;            // the step to try next (0: none yet)
  double dt_last_done = 0;       // the last step taken (0: none yet)
  Coeffs b, e, br, er;           // the b's, their predictions, and both of the last step taken
  std::vector<double> csx, csv;  // Kahan compensation of positions and velocities

  void resize(std::size_t n) {
    n3 = n;
    for (Coeffs* cf : {&b, &e, &br, &er})
      for (std::vector<double>& v : *cf)
        v.assign(n, 0.0);
    csx.assign(n, 0.0);
    csv.assign(n, 0.0);
    dt_next = dt_last_done = 0;
  }
};

// the b's (and their predictions e) for the next step of ratio q times the last one, from the
// last step's: the polynomial re-expanded about the new start, plus the correction b - e the
// last prediction needed
void predict_next(double q, const Coeffs& b_old, const Coeffs& e_old, Coeffs& b, Coeffs& e) {
  static constexpr double binom[kOrder][kOrder] = {
      {1, 2, 3, 4, 5, 6, 7},   {0, 1, 3, 6, 10, 15, 21}, {0, 0, 1, 4, 10, 20, 35},
      {0, 0, 0, 1, 5, 15, 35}, {0, 0, 0, 0, 1, 6, 21},   {0, 0, 0, 0, 0, 1, 7},
      {0, 0, 0, 0, 0, 0, 1}};
  const std::size_t n3 = b_old[0].size();
  if (!(std::abs(q) <= 20)) {  // a far longer step: the old series says nothing useful
    for (int j = 0; j < kOrder; ++j) {
      std::fill(b[j].begin(), b[j].end(), 0.0);
      std::fill(e[j].begin(), e[j].end(), 0.0);
    }
    return;
  }
  std::array<double, kOrder> qp{};
  qp[0] = q;
  for (int j = 1; j < kOrder; ++j)
    qp[j] = qp[j - 1] * q;
  for (std::size_t k = 0; k < n3; ++k) {
    std::array<double, kOrder> diff{}, bo{};
    for (int j = 0; j < kOrder; ++j) {
      diff[j] = b_old[j][k] - e_old[j][k];
      bo[j] = b_old[j][k];
    }
    for (int j = 0; j < kOrder; ++j) {
      double s = 0;
      for (int m = kOrder - 1; m >= j; --m)
        s += binom[j][m] * bo[m];
      e[j][k] = qp[j] * s;
      b[j][k] = e[j][k] + diff[j];
    }
  }
}

// the stepper over packed arrays (3 per body: x, y, z)
struct Stepper {
  const SimParams& p;
  StateOps& st;
  HostState& s;
  Ias15Memory& m;
  std::vector<double> x0, v0, a0, at;
  Coeffs g, csb;

  Stepper(const SimParams& params, StateOps& state, HostState& hs, Ias15Memory& mem)
      : p(params), st(state), s(hs), m(mem) {
    const std::size_t n = s.size();
    x0.resize(3 * n);
    v0.resize(3 * n);
    a0.resize(3 * n);
    at.resize(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
      x0[3 * i] = s.x[i], x0[3 * i + 1] = s.y[i], x0[3 * i + 2] = s.z[i];
      v0[3 * i] = s.vx[i], v0[3 * i + 1] = s.vy[i], v0[3 * i + 2] = s.vz[i];
    }
    load_accelerations(a0);
    for (int j = 0; j < kOrder; ++j) {
      g[j].assign(3 * n, 0.0);
      csb[j].assign(3 * n, 0.0);
    }
  }

  void load_accelerations(std::vector<double>& a) const {
    for (std::size_t i = 0; i < s.size(); ++i)
      a[3 * i] = s.ax[i], a[3 * i + 1] = s.ay[i], a[3 * i + 2] = s.az[i];
  }
  void store(const std::vector<double>& x, const std::vector<double>& v) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      s.x[i] = x[3 * i], s.y[i] = x[3 * i + 1], s.z[i] = x[3 * i + 2];
      s.vx[i] = v[3 * i], s.vy[i] = v[3 * i + 1], s.vz[i] = v[3 * i + 2];
    }
  }

  // positions and velocities at node n of a step dt from the current b's
  void predict_at(int n, double dt, std::vector<double>& x, std::vector<double>& v) const;
  // g's and b's from the accelerations at node n; returns the change of b6 relative to |a|
  double correct_at(int n);
  // one try of a step of dt; false (and dt_new the step to try instead) when rejected
  bool try_step(double dt, double& dt_new);
  // after an accepted step of dt: the new start, its accelerations and the next b's
  void finish_step(double dt, double dt_new);
};

void Stepper::predict_at(int n, double dt, std::vector<double>& x, std::vector<double>& v) const {
  const double h = radau().h[n];
  // x = x0 + v0 dt h + dt² (a0 h²/2 + Σ b_k h^(k+3) / ((k+2)(k+3)))
  // v = v0 + dt (a0 h + Σ b_k h^(k+2) / (k+2))
  std::array<double, kOrder> cx{}, cv{};
  double hp = h * h;  // h^(k+2)
  for (int k = 0; k < kOrder; ++k) {
    cv[k] = dt * hp / (k + 2);
    cx[k] = dt * dt * hp * h / ((k + 2) * (k + 3));
    hp *= h;
  }
  const double xa = dt * dt * h * h / 2, xv = dt * h, va = dt * h;
  for (std::size_t k = 0; k < x0.size(); ++k) {
    double dx = 0, dv = 0;
    for (int j = kOrder - 1; j >= 0; --j) {
      dx += cx[j] * m.b[j][k];
      dv += cv[j] * m.b[j][k];
    }
    x[k] = x0[k] + (-m.csx[k] + dx + xa * a0[k] + xv * v0[k]);
    v[k] = v0[k] + (-m.csv[k] + dv + va * a0[k]);
  }
}

double Stepper::correct_at(int n) {
  const Radau& R = radau();
  const int j = n - 1;  // node n determines g_{n-1}
  double max_a = 0, max_db6 = 0;
  for (std::size_t k = 0; k < at.size(); ++k) {
    // divided differences: g_j = ((((a - a0)/r[n][0] - g0)/r[n][1] - g1) ... )/r[n][j]
    double gk = (at[k] - a0[k]) / R.r[n][0];
    for (int q = 1; q <= j; ++q)
      gk = (gk - g[q - 1][k]) / R.r[n][q];
    const double delta = gk - g[j][k];
    g[j][k] = gk;
    for (int q = 0; q <= j; ++q)
      add_cs(m.b[q][k], csb[q][k], R.c[j][q] * delta);
    if (j == kOrder - 1) {
      max_a = std::max(max_a, std::abs(at[k]));
      max_db6 = std::max(max_db6, std::abs(delta));
    }
  }
  return max_a > 0 ? max_db6 / max_a : 0;
}

bool Stepper::try_step(double dt, double& dt_new) {
  const Radau& R = radau();
  const std::size_t n3 = x0.size();
  // g's from the predicted b's
  for (std::size_t k = 0; k < n3; ++k)
    for (int j = 0; j < kOrder; ++j) {
      double sum = m.b[j][k];
      for (int q = j + 1; q < kOrder; ++q)
        sum += R.d[q][j] * m.b[q][k];
      g[j][k] = sum;
    }
  for (int j = 0; j < kOrder; ++j)
    std::fill(csb[j].begin(), csb[j].end(), 0.0);
  std::vector<double> x(n3), v(n3);
  // predictor-corrector: sweep the nodes until b6 stops changing
  double err = 1e300, err_last = 2;
  for (int it = 0;; ++it) {
    if (err < 1e-16 || (it > 2 && err_last <= err) || it >= kMaxIterations) break;
    err_last = err;
    for (int n = 1; n < 8; ++n) {
      predict_at(n, dt, x, v);
      store(x, v);
      st.accelerations(p, s);
      load_accelerations(at);
      const double e = correct_at(n);
      if (n == 7) err = e;
    }
  }
  // the next step: |b6| / |a| = ε (Rein & Spiegel 2015, the last term of the series against the
  // largest acceleration, for the bodies whose acceleration changes within the step), but never
  // below a tenth of the step from the shortest timescale of the accelerations, sqrt(2 |a|² /
  // (|a'|² + |a''| |a|)) scaled by (5040 ε)^(1/7) (Pham, Rein & Spiegel 2024): where b6 is
  // round-off alone the first would shrink the step without end (the Moon about the Earth at
  // ε = 1e-11 went to steps of 1e-6 days), the second stays with the dynamics
  double max_a = 0, max_b6 = 0, min_t2 = HUGE_VAL;
  for (std::size_t i = 0; i < s.size(); ++i) {
    double x2 = 0, v2 = 0, a0i = 0, y2 = 0, y3 = 0, y4 = 0;
    for (std::size_t k = 3 * i; k < 3 * i + 3; ++k) {
      double end = a0[k], d1 = 0, d2 = 0;
      for (int j = 0; j < kOrder; ++j) {
        end += m.b[j][k];
        d1 += (j + 1) * m.b[j][k];
        d2 += (j + 1) * j * m.b[j][k];
      }
      x2 += x0[k] * x0[k];
      v2 += v0[k] * v0[k];
      a0i += a0[k] * a0[k];
      y2 += end * end;
      y3 += d1 * d1;
      y4 += d2 * d2;
    }
    if (std::abs(v2 * dt * dt / x2) >= 1e-16)
      for (std::size_t k = 3 * i; k < 3 * i + 3; ++k) {
        max_a = std::max(max_a, std::abs(at[k]));
        max_b6 = std::max(max_b6, std::abs(m.b[kOrder - 1][k]));
      }
    if (!std::isnormal(a0i)) continue;
    const double t2 = 2 * y2 / (y3 + std::sqrt(y4 * y2));
    if (std::isnormal(t2) && t2 < min_t2) min_t2 = t2;
  }
  const double error = max_a > 0 ? max_b6 / max_a : 0;
  dt_new = std::isnormal(error) ? std::pow(p.ias15_epsilon / error, 1.0 / 7.0) * dt : dt / kSafety;
  if (std::isnormal(min_t2)) {
    const double floor =
        0.1 * std::sqrt(min_t2) * std::abs(dt) * std::pow(p.ias15_epsilon * 5040.0, 1.0 / 7.0);
    if (std::abs(dt_new) < floor) dt_new = std::copysign(floor, dt);
  }
  if (std::abs(dt_new / dt) < kSafety) {
    // rejected: back to the last accepted step's b's, predicted for the shorter step
    if (m.dt_last_done != 0) predict_next(dt_new / m.dt_last_done, m.br, m.er, m.b, m.e);
    return false;
  }
  return true;
}

void Stepper::finish_step(double dt, double dt_new) {
  const std::size_t n3 = x0.size();
  const double dt2 = dt * dt;
  for (std::size_t k = 0; k < n3; ++k) {
    // the smallest terms first
    for (int j = kOrder - 1; j >= 0; --j)
      add_cs(x0[k], m.csx[k], m.b[j][k] * dt2 / ((j + 2) * (j + 3)));
    add_cs(x0[k], m.csx[k], a0[k] * dt2 / 2);
    add_cs(x0[k], m.csx[k], v0[k] * dt);
    for (int j = kOrder - 1; j >= 0; --j)
      add_cs(v0[k], m.csv[k], m.b[j][k] * dt / (j + 2));
    add_cs(v0[k], m.csv[k], a0[k] * dt);
  }
  m.dt_last_done = dt;
  m.br = m.b;
  m.er = m.e;
  predict_next(dt_new / dt, m.br, m.er, m.b, m.e);
  // the accelerations at the new start
  store(x0, v0);
  st.accelerations(p, s);
  load_accelerations(a0);
}

void run(StepOps& ops, const SimParams& p, int steps) {
  StateOps& st = require_state(ops, find_integrator(Integrator::IAS15));
  HostState s;
  st.read(p, s);
  std::unique_ptr<IntegratorMemory>& slot = st.memory();
  auto* mem = dynamic_cast<Ias15Memory*>(slot.get());
  if (!mem || mem->n3 != 3 * s.size()) {
    slot = std::make_unique<Ias15Memory>();
    mem = static_cast<Ias15Memory*>(slot.get());
    mem->resize(3 * s.size());
  }
  Ias15Memory& m = *mem;
  // the first call, or a change of direction: start from the interval itself
  if (m.dt_next * p.dt <= 0) m.dt_next = p.dt;
  Stepper stepper(p, st, s, m);
  for (int step = 0; step < steps; ++step) {
    double left = p.dt;
    while (left != 0) {
      // the natural step, shortened to land on the end of the interval
      const double natural = std::abs(m.dt_next) < std::abs(p.dt) ? m.dt_next : p.dt;
      // (a remainder of a few per cent is taken with this step, not as a step of its own)
      double dt = std::abs(left) <= 1.05 * std::abs(natural) ? left : natural;
      double dt_new = 0;
      while (!stepper.try_step(dt, dt_new))
        dt = dt_new;
      // the step may grow by 1/kSafety at most; a step cut short to land keeps the natural one
      double next = std::abs(dt_new) > std::abs(dt) / kSafety ? dt / kSafety : dt_new;
      if (dt == left && std::abs(dt) < std::abs(natural))
        next = std::abs(dt_new) < std::abs(natural) ? dt_new : natural;
      stepper.finish_step(dt, next);
      m.dt_next = next;
      left = dt == left ? 0.0 : left - dt;
    }
  }
  stepper.store(stepper.x0, stepper.v0);
  st.write(s, true);  // the last evaluation was at these positions and velocities
}

}  // namespace

IntegratorRow ias15_row() {
  IntegratorRow r;
  r.id = Integrator::IAS15;
  r.name = "ias15";
  r.aliases = {"IAS15", "gauss-radau"};
  r.label = "IAS15 (15th order)";
  r.description =
      "IAS15 (Rein & Spiegel 2015): adaptive 15th-order Gauss-Radau, error below double "
      "rounding; dt is the output interval; CPU kernels, double precision";
  r.order = 15;
  r.force_evaluations = 8;  // 7 nodes a sweep plus the new start; 2-3 sweeps when converged
  r.symplectic = false;
  r.time_reversible = true;  // runs backwards with dt < 0 (to its tolerance, not bitwise)
  r.needs_state = true;
  r.needs_double = true;
  r.adaptive = true;
  r.run = run;
  return r;
}

}  // namespace nbody
