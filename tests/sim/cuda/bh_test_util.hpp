// Helpers of the GPU Barnes-Hut tests (test_cuda_barnes_hut.cpp): the kernel's configuration,
// its bodies and accelerations as it holds them, and their errors against the double direct sum.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

namespace nbody::test {

struct Config {
  Precision precision = Precision::Float;
  double theta = 0.5;
  int leaf = 16;
  int group = 64;
  bool quad = true;
  bool bmax = false;  // the opening criterion bmax instead of cell
};

inline std::string config_name(const testing::TestParamInfo<Config>& info) {
  const Config& c = info.param;
  return std::string(precision_name(c.precision)) + "_leaf" + std::to_string(c.leaf) + "_group" +
         std::to_string(c.group) + (c.quad ? "_quad" : "_mono");
}

inline SimParams bh_params(const Config& c, double softening = 0.01) {
  SimParams p;
  p.kernel = "barnes-hut";
  p.precision = c.precision;
  p.G = 1.0;
  p.softening = softening;
  p.dt = 1e-3;
  p.tunables["theta"] = c.theta;
  p.tunables["leaf_size"] = c.leaf;
  p.tunables["group_size"] = c.group;
  p.tunables["quadrupole"] = c.quad ? 1 : 0;
  p.tunables["opening"] = c.bmax ? 1 : 0;
  return p;
}

// the positions as the backend holds them (float-rounded for float)
inline Bodies held_bodies(const ForceBackend& b) {
  Bodies h;
  b.get_bodies(h);
  return h;
}

struct Accel {
  std::vector<double> x, y, z;
};

inline Accel accelerations(ForceBackend& b, const SimParams& p) {
  Accel a;
  b.compute_accelerations(p, a.x, a.y, a.z);
  return a;
}

// per-body relative errors of `a` (all bodies) at the sample `idx` against the direct sum
struct Errors {
  double normwise = 0, median = 0, p99 = 0, max = 0;
  bool finite = true;
};

inline Errors errors_at(const Accel& a, const Bodies& held, const std::vector<std::size_t>& idx,
                        double G, double eps) {
  std::vector<double> rx, ry, rz;
  reference_accelerations(held, idx, G, eps, rx, ry, rz);
  Errors e;
  std::vector<double> rel;
  double num = 0, den = 0;
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const std::size_t i = idx[k];
    const double dx = a.x[i] - rx[k], dy = a.y[i] - ry[k], dz = a.z[i] - rz[k];
    const double d2 = dx * dx + dy * dy + dz * dz;
    const double r2 = rx[k] * rx[k] + ry[k] * ry[k] + rz[k] * rz[k];
    if (!std::isfinite(d2)) e.finite = false;
    num += d2;
    den += r2;
    rel.push_back(r2 > 0 ? std::sqrt(d2 / r2) : std::sqrt(d2));
  }
  if (rel.empty()) return e;
  e.normwise = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  std::sort(rel.begin(), rel.end());
  e.median = rel[rel.size() / 2];
  e.p99 = rel[std::min(rel.size() - 1, static_cast<std::size_t>(0.99 * rel.size()))];
  e.max = rel.back();
  return e;
}

// a fresh backend's errors at `idx` on bodies `b`, and its counted work per body
struct Outcome {
  Errors e;
  double per_body = 0;
};

inline Outcome outcome_of(const Bodies& b, const SimParams& p,
                          const std::vector<std::size_t>& idx) {
  auto bh = make_backend(p);
  bh->set_bodies(b);
  Outcome r;
  r.e = errors_at(accelerations(*bh, p), held_bodies(*bh), idx, p.G, p.softening);
  r.per_body = bh->last_work().interactions / double(b.size());
  return r;
}

// the whole direct sum for small N, a sample above
inline std::vector<std::size_t> check_indices(std::size_t n) {
  return sample_indices(n, n <= 4099 ? n : 512);
}

// |relative energy drift| of a Plummer sphere of 32,768 bodies (the scene's units, time step and
// softening) over 1,000 steps of p's kernel and tunables
inline double plummer_energy_drift(SimParams p) {
  SceneParams sp;
  sp.n = 32768;
  const Scene s = make_scene("plummer", sp);
  p.G = s.units.G;
  p.dt = s.dt;
  p.softening = s.softening > 0 ? s.softening : 0.01;
  auto b = make_backend(p);
  b->set_bodies(s.bodies);
  const double e0 = compute_diagnostics(held_bodies(*b), p.G, p.softening).total;
  b->step(p, 1000);
  const double e1 = compute_diagnostics(held_bodies(*b), p.G, p.softening).total;
  return std::abs(relative_energy_drift(e0, e1));
}

inline Bodies plummer(std::size_t n, std::uint64_t seed = 7) {
  SceneParams sp;
  sp.n = n;
  sp.seed = seed;
  return make_scene("plummer", sp).bodies;
}

}  // namespace nbody::test
