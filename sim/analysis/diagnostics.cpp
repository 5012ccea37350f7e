#include "sim/analysis/diagnostics.hpp"

#include <cmath>

namespace nbody {

Diagnostics compute_diagnostics(const Bodies& b, double G, double softening) {
  return compute_diagnostics(b, G, softening, nullptr);
}

Diagnostics compute_diagnostics(const Bodies& b, double G, double softening,
                                const std::vector<std::size_t>* sample) {
  Diagnostics d;
  const long n = static_cast<long>(b.size());
  const double eps2 = softening * softening;
  // mass, momenta and centre of mass of mass m moving as body i
  auto add_moving_mass = [&](double m, std::size_t i) {
    d.mass += m;
    d.momentum[0] += m * b.vx[i];
    d.momentum[1] += m * b.vy[i];
    d.momentum[2] += m * b.vz[i];
    d.angular_momentum[0] += m * (b.y[i] * b.vz[i] - b.z[i] * b.vy[i]);
    d.angular_momentum[1] += m * (b.z[i] * b.vx[i] - b.x[i] * b.vz[i]);
    d.angular_momentum[2] += m * (b.x[i] * b.vy[i] - b.y[i] * b.vx[i]);
    d.centre_of_mass[0] += m * b.x[i];
    d.centre_of_mass[1] += m * b.y[i];
    d.centre_of_mass[2] += m * b.z[i];
  };
  // kinetic energy, momenta, centre of mass: one pass
  for (long i = 0; i < n; ++i) {
    const double v2 = b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i] + b.vz[i] * b.vz[i];
    if (!std::isfinite(v2) || !std::isfinite(b.x[i] + b.y[i] + b.z[i])) d.finite = false;
    d.kinetic += 0.5 * b.m[i] * v2;
    add_moving_mass(b.m[i], static_cast<std::size_t>(i));
  }
  // rigid halos: their mass moves with their anchors (massless bodies)
  for (const RigidHalo& h : b.halos)
    add_moving_mass(h.mass, h.anchor);
  if (d.mass > 0)
    for (int k = 0; k < 3; ++k) {
      d.centre_of_mass[k] /= d.mass;
      d.com_velocity[k] = d.momentum[k] / d.mass;
    }
  double w = 0;
  if (sample) {
    // estimated from the sample's rows against every body: W ~ N / S x sum over the sample of
    // -1/2 G m_i sum_j m_j / sqrt(r² + ε²)
    const long ns = static_cast<long>(sample->size());
#pragma omp parallel for reduction(+ : w) schedule(dynamic, 1)
    for (long s = 0; s < ns; ++s) {
      const long i = static_cast<long>((*sample)[s]);
      double row = 0;
      for (long j = 0; j < n; ++j) {
        if (j == i) continue;
        const double dx = b.x[j] - b.x[i], dy = b.y[j] - b.y[i], dz = b.z[j] - b.z[i];
        row += b.m[j] / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
      }
      w -= 0.5 * b.m[i] * row;
    }
    w = ns > 0 ? w * static_cast<double>(n) / static_cast<double>(ns) : 0;
  } else {
    // potential energy with the force's softened kernel, each pair once (rows paired for balance)
    const long half = (n + 1) / 2;
#pragma omp parallel for schedule(static) reduction(+ : w)
    for (long k = 0; k < half; ++k) {
      for (int which = 0; which < 2; ++which) {
        const long i = which == 0 ? k : n - 1 - k;
        if (which == 1 && i == k) break;
        double row = 0;
        for (long j = i + 1; j < n; ++j) {
          const double dx = b.x[j] - b.x[i], dy = b.y[j] - b.y[i], dz = b.z[j] - b.z[i];
          const double r2 = dx * dx + dy * dy + dz * dz + eps2;
          if (r2 > 0) row += b.m[j] / std::sqrt(r2);
        }
        w -= b.m[i] * row;
      }
    }
  }
  d.potential = G * w;
  const ExternalEnergy ext = external_energy(b, G);
  d.kinetic += ext.kinetic;
  // the virial: the pair potential (Σ x·F of 1/r forces) and the halos' Σ x·F
  const double virial = d.potential + ext.virial;
  d.potential += ext.potential;
  d.total = d.kinetic + d.potential;
  d.virial_ratio = virial != 0 ? 2 * d.kinetic / std::fabs(virial) : 0;
  if (!std::isfinite(d.total)) d.finite = false;
  return d;
}

double relative_energy_drift(double e0, double e) {
  return e0 != 0 ? (e - e0) / std::fabs(e0) : e - e0;
}

}  // namespace nbody
