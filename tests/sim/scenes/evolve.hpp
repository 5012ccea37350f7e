#pragma once
// Test helpers: evolve bodies with a named backend, and small geometric measures.

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/core/bodies.hpp"
#include "sim/core/params.hpp"
#include "sim/core/scene.hpp"

namespace nbody::testing {

/// The generated scene `name` (make_scene) with n bodies from `seed`.
inline Scene generated_scene(const char* name, std::size_t n, std::uint64_t seed) {
  SceneParams sp;
  sp.n = n;
  sp.seed = seed;
  return make_scene(name, sp);
}

/// SimParams for `kernel` with dt, ε and G (double precision unless `precision` says float).
inline SimParams params(const char* kernel, double dt, double eps, double G,
                        Precision precision = Precision::Double) {
  SimParams p;
  p.kernel = kernel;
  p.dt = dt;
  p.softening = eps;
  p.G = G;
  p.precision = precision;
  return p;
}

/// Half-mass radius (cylindrical when `cylindrical`) of the bodies of component `c` about the
/// mass-weighted centre of those bodies.
inline double half_mass_radius(const Bodies& b, Component c, bool cylindrical) {
  double m = 0, cx = 0, cy = 0, cz = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.component[i] == c) {
      m += b.m[i];
      cx += b.m[i] * b.x[i];
      cy += b.m[i] * b.y[i];
      cz += b.m[i] * b.z[i];
    }
  cx /= m;
  cy /= m;
  cz /= m;
  std::vector<double> r;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.component[i] == c) {
      const double dx = b.x[i] - cx, dy = b.y[i] - cy, dz = cylindrical ? 0 : b.z[i] - cz;
      r.push_back(std::sqrt(dx * dx + dy * dy + dz * dz));
    }
  std::nth_element(r.begin(), r.begin() + r.size() / 2, r.end());
  return r[r.size() / 2];
}

/// Root-mean-square z of the bodies of component `c` about their mean.
inline double rms_z(const Bodies& b, Component c) {
  double s = 0, s2 = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.component[i] == c) {
      s += b.z[i];
      s2 += b.z[i] * b.z[i];
      ++k;
    }
  const double mean = s / k;
  return std::sqrt(std::max(0.0, s2 / k - mean * mean));
}

}  // namespace nbody::testing
