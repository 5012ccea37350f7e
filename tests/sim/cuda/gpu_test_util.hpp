#pragma once
// Helpers of the GPU tests: the skip when no device exists, random bodies, and the
// double-precision reference accelerations (all of them, or a sample).

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sim/backend.hpp"

namespace nbody::test {

/// Skips the current test with a visible reason when there is no CUDA device.
#define NBODY_REQUIRE_GPU()                                                         \
  do {                                                                              \
    if (!::nbody::cuda_available()) GTEST_SKIP() << ::nbody::cuda_device_summary(); \
  } while (0)

/// N bodies uniform in [-1, 1]^3 with masses in [0.5, 1.5] / N and random velocities.
inline Bodies random_bodies(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), um(0.5, 1.5);
  Bodies b;
  b.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    b.add(u(rng), u(rng), u(rng), 0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng), um(rng) / n);
  return b;
}

/// Direct-sum accelerations in double of the bodies `idx` (the cpu-reference formula).
inline void reference_sample(const Bodies& b, const std::vector<std::size_t>& idx, double G,
                             double eps, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az) {
  const double eps2 = eps * eps;
  ax.assign(idx.size(), 0);
  ay.assign(idx.size(), 0);
  az.assign(idx.size(), 0);
#pragma omp parallel for schedule(dynamic, 4)
  for (long k = 0; k < static_cast<long>(idx.size()); ++k) {
    const std::size_t i = idx[k];
    double sx = 0, sy = 0, sz = 0;
    for (std::size_t j = 0; j < b.size(); ++j) {
      const double dx = b.x[j] - b.x[i], dy = b.y[j] - b.y[i], dz = b.z[j] - b.z[i];
      const double r2 = dx * dx + dy * dy + dz * dz + eps2;
      if (r2 == 0) continue;
      const double inv = 1.0 / std::sqrt(r2);
      const double s = b.m[j] * inv * inv * inv;
      sx += dx * s;
      sy += dy * s;
      sz += dz * s;
    }
    ax[k] = G * sx;
    ay[k] = G * sy;
    az[k] = G * sz;
  }
}

/// `count` indices spread over 0..n-1 (all of them when n <= count).
inline std::vector<std::size_t> sample_indices(std::size_t n, std::size_t count) {
  std::vector<std::size_t> idx;
  if (n <= count) {
    for (std::size_t i = 0; i < n; ++i)
      idx.push_back(i);
    return idx;
  }
  for (std::size_t k = 0; k < count; ++k)
    idx.push_back(k * n / count);
  idx.back() = n - 1;
  return idx;
}

}  // namespace nbody::test
