#include "sim/scenes/galaxy_df.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "sim/core/error.hpp"

namespace nbody::scenes {

RadialTable::RadialTable(double rmin, double rmax, int n)
    : lmin_(std::log(rmin)), lmax_(std::log(rmax)) {
  r_.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    r_[static_cast<std::size_t>(i)] = std::exp(lmin_ + (lmax_ - lmin_) * i / (n - 1));
}

double RadialTable::at(const std::vector<double>& y, double r) const {
  const double u = (std::log(std::max(r, r_.front())) - lmin_) / (lmax_ - lmin_) *
                   static_cast<double>(r_.size() - 1);
  if (u >= static_cast<double>(r_.size() - 1)) return y.back();
  const std::size_t i = static_cast<std::size_t>(u);
  const double f = u - static_cast<double>(i);
  return y[i] * (1 - f) + y[i + 1] * f;
}

TaperedHernquist::TaperedHernquist(double mass, double a, double cut, const RadialTable& tab)
    : tab_(&tab), mass_(mass), a_(a), cut_(cut), decay_(0.1 * cut) {
  // continuous logarithmic slope at the cut: d ln rho / d ln r = beta - cut / r_d there
  beta_ = -(1.0 + 3.0 * cut / (cut + a)) + cut / decay_;
  const auto& r = tab.r();
  menc_.assign(r.size(), 0.0);
  if (!(mass > 0)) return;
  // cumulative mass by the trapezoid rule in ln r (the innermost point as a cusp: M ~ r^2)
  menc_[0] = 2 * kPi * shape(r[0]) * r[0] * r[0] * r[0];
  for (std::size_t i = 1; i < r.size(); ++i) {
    const double f0 = 4 * kPi * shape(r[i - 1]) * r[i - 1] * r[i - 1] * r[i - 1];
    const double f1 = 4 * kPi * shape(r[i]) * r[i] * r[i] * r[i];
    menc_[i] = menc_[i - 1] + 0.5 * (f0 + f1) * std::log(r[i] / r[i - 1]);
  }
  norm_ = mass / menc_.back();
  for (double& m : menc_)
    m *= norm_;
}

double TaperedHernquist::shape(double r) const {
  if (r <= cut_) return a_ / (2 * kPi * r * std::pow(r + a_, 3));
  const double at_cut = a_ / (2 * kPi * cut_ * std::pow(cut_ + a_, 3));
  const double x = (r - cut_) / decay_;
  if (x > 200) return 0;
  return at_cut * std::pow(r / cut_, beta_) * std::exp(-x);
}

double TaperedHernquist::density(double r) const {
  return mass_ > 0 ? norm_ * shape(r) : 0;
}

double TaperedHernquist::enclosed(double r) const {
  const auto& t = tab_->r();
  if (r <= t.front()) return menc_.front() * (r / t.front()) * (r / t.front());
  return tab_->at(menc_, r);
}

double TaperedHernquist::sample_radius(Rng& rng) const {
  const double m = rng.uniform() * mass_;
  const auto& r = tab_->r();
  const auto it = std::lower_bound(menc_.begin(), menc_.end(), m);
  if (it == menc_.begin()) return r.front() * std::sqrt(m / std::max(menc_.front(), 1e-300));
  if (it == menc_.end()) return r.back();
  const std::size_t i = static_cast<std::size_t>(it - menc_.begin());
  const double f = (m - menc_[i - 1]) / std::max(menc_[i] - menc_[i - 1], 1e-300);
  return std::exp(std::log(r[i - 1]) + f * std::log(r[i] / r[i - 1]));
}

namespace {

// linear interpolation of y(x) on ascending x (clamped)
double interp(const std::vector<double>& x, const std::vector<double>& y, double v) {
  if (v <= x.front()) return y.front();
  if (v >= x.back()) return y.back();
  const std::size_t i =
      static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), v) - x.begin());
  const double f = (v - x[i - 1]) / (x[i] - x[i - 1]);
  return y[i - 1] * (1 - f) + y[i] * f;
}

}  // namespace

EddingtonDf::EddingtonDf(const std::vector<double>& r, const std::vector<double>& rho,
                         const std::vector<double>& psi) {
  const std::size_t n = r.size();
  if (n < 8 || rho.size() != n || psi.size() != n) fail("Eddington inversion: bad tables");
  // ascending psi (inwards) with d rho / d psi there
  std::vector<double> p(n), drho(n);
  for (std::size_t k = 0; k < n; ++k)
    p[k] = psi[n - 1 - k];
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t a = k == 0 ? 0 : k - 1, b = k + 1 == n ? k : k + 1;
    const double dp = p[b] - p[a];
    drho[k] = dp > 0 ? (rho[n - 1 - b] - rho[n - 1 - a]) / dp : 0.0;
  }
  // G(E) = int_0^E drho/dpsi / sqrt(E - psi) dpsi = int_0^sqrt(E - psi_min) 2 drho/dpsi(E - u^2) du
  // (no density below the outermost tabulated psi)
  constexpr int kU = 400;
  std::vector<double> g(n, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    const double umax = std::sqrt(std::max(0.0, p[k] - p.front()));
    const double h = umax / kU;
    double s = 0;
    for (int j = 0; j < kU; ++j) {
      const double u = (j + 0.5) * h;
      s += interp(p, drho, p[k] - u * u);
    }
    g[k] = 2 * s * h;
  }
  e_ = p;
  f_.assign(n, 0.0);
  const double c = 1.0 / (std::sqrt(8.0) * kPi * kPi);
  std::size_t negative = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t a = k == 0 ? 0 : k - 1, b = k + 1 == n ? k : k + 1;
    const double v = c * (g[b] - g[a]) / (p[b] - p[a]);
    if (v < 0) ++negative;
    f_[k] = std::max(0.0, v);
  }
  negative_ = static_cast<double>(negative) / static_cast<double>(n);
}

double EddingtonDf::f(double e) const {
  if (!(e > e_.front())) return 0;
  return interp(e_, f_, e);
}

double EddingtonDf::density_at(double psi) const {
  constexpr int kSteps = 400;
  const double vmax = std::sqrt(2 * std::max(0.0, psi)), h = vmax / kSteps;
  double s = 0;
  for (int j = 0; j < kSteps; ++j) {
    const double v = (j + 0.5) * h;
    s += f(psi - 0.5 * v * v) * v * v;
  }
  return 4 * kPi * s * h;
}

double EddingtonDf::sample_speed(double psi, Rng& rng) const {
  const double vmax = std::sqrt(2 * std::max(0.0, psi));
  if (!(vmax > 0)) return 0;
  // envelope: the largest of v^2 f on a grid, with room for what lies between its points
  constexpr int kGrid = 64;
  double top = 0;
  for (int j = 1; j <= kGrid; ++j) {
    const double v = vmax * j / kGrid;
    top = std::max(top, v * v * f(psi - 0.5 * v * v));
  }
  if (!(top > 0)) return 0;
  top *= 1.3;
  for (int tries = 0; tries < 10000; ++tries) {
    const double v = vmax * rng.uniform();
    if (rng.uniform() * top <= v * v * f(psi - 0.5 * v * v)) return v;
  }
  return 0.5 * vmax;  // not reached for a DF with a finite envelope
}

EnergyMassFactor::EnergyMassFactor(double ratio, double r_light, double r_heavy,
                                   const RadialTable& tab, const std::vector<double>& psi)
    : ratio_(ratio), r_light_(r_light), r_heavy_(r_heavy), tab_(&tab), psi_(psi) {
  if (!(ratio >= 1) || !(r_light > 0) || !(r_heavy > r_light) || psi.size() != tab.r().size() ||
      psi.size() < 2)
    fail("energy mass factor: bad ratio, radii or potential table");
}

double EnergyMassFactor::max_radius(double e) const {
  const auto& r = tab_->r();
  if (e >= psi_.front()) return r.front();
  if (e <= psi_.back()) return r.back() * psi_.back() / std::max(e, 1e-300);
  // psi descending: the first radius where psi <= e, then linear between the two points
  const auto it = std::lower_bound(psi_.begin(), psi_.end(), e, std::greater<double>());
  const std::size_t i = static_cast<std::size_t>(it - psi_.begin());
  const double f = (psi_[i - 1] - e) / std::max(psi_[i - 1] - psi_[i], 1e-300);
  return r[i - 1] + f * (r[i] - r[i - 1]);
}

double EnergyMassFactor::factor(double e) const {
  if (ratio_ == 1) return 1;
  const double x = std::log(max_radius(e) / r_light_) / std::log(r_heavy_ / r_light_);
  return std::pow(ratio_, std::clamp(x, 0.0, 1.0));
}

SechSquaredSlab::SechSquaredSlab(double z0, double eps) : z0_(z0) {
  // pull(z) = int p(z') (z - z') / sqrt((z - z')^2 + eps^2) dz', p = sech^2(z'/z0) / (2 z0)
  constexpr int kZ = 241, kQ = 1400;
  const double zmax = 12 * z0;
  dz_ = zmax / (kZ - 1);
  pull_.assign(kZ, 0.0);
  disp_.assign(kZ, 0.0);
  const double qmax = 14 * z0, hq = 2 * qmax / kQ;
  for (int i = 0; i < kZ; ++i) {
    const double z = i * dz_;
    double s = 0;
    for (int j = 0; j < kQ; ++j) {
      const double zq = -qmax + (j + 0.5) * hq, c = std::cosh(zq / z0);
      const double d = z - zq, d2 = d * d + eps * eps;
      if (d2 > 0) s += d / std::sqrt(d2) / (c * c);
    }
    pull_[static_cast<std::size_t>(i)] = s * hq / (2 * z0);
  }
  // Jeans integral from the top (trapezoid), divided by sech^2 and z0
  double acc = 0;
  for (int i = kZ - 1; i >= 0; --i) {
    const auto k = static_cast<std::size_t>(i);
    if (i < kZ - 1) {
      const double c0 = std::cosh(i * dz_ / z0), c1 = std::cosh((i + 1) * dz_ / z0);
      acc += 0.5 * (pull_[k] / (c0 * c0) + pull_[k + 1] / (c1 * c1)) * dz_;
    }
    const double c = std::cosh(i * dz_ / z0);
    disp_[k] = acc * c * c / z0;
  }
}

double SechSquaredSlab::pull(double z) const {
  const double u = std::fabs(z) / dz_;
  const std::size_t n = pull_.size();
  if (u >= static_cast<double>(n - 1)) return pull_.back();
  const std::size_t i = static_cast<std::size_t>(u);
  const double f = u - static_cast<double>(i);
  return pull_[i] * (1 - f) + pull_[i + 1] * f;
}

double SechSquaredSlab::slab_dispersion(double z) const {
  const double u = std::fabs(z) / dz_;
  const std::size_t n = disp_.size();
  // beyond the table the slab is a point: the limit (1/2) z0 ... keep the last value
  if (u >= static_cast<double>(n - 1)) return disp_[n - 2];
  const std::size_t i = static_cast<std::size_t>(u);
  const double f = u - static_cast<double>(i);
  return disp_[i] * (1 - f) + disp_[i + 1] * f;
}

}  // namespace nbody::scenes
