#pragma once
// Helpers of the GPU tests: the skip when no device exists, random bodies, and the
// double-precision reference accelerations (all of them, or a sample).

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/backend.hpp"

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

}  // namespace nbody::test
