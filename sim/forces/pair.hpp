#pragma once
// The softened pair interaction, one definition for every CPU kernel (the direct sums, the
// tree's opened leaves, the accuracy sample) and host/device so that CUDA code may share it.
// The GPU's own inner loops use the hardware reciprocal square root (sim/cuda/common.cuh).
//
//   a_i += G m_j d / (|d|² + ε²)^{3/2},  d = x_j - x_i
//
// A pair with |d|² + ε² = 0 (the body itself, or coincident bodies without softening) adds
// nothing. The test is a select of constants, not a branch, so the loops over sources vectorize.

#include <cmath>

#include "sim/core/hd.hpp"

namespace nbody {

/// 1 / r³ for r2 = |d|² + ε² > 0; 0 when r2 = 0.
template <typename T>
NBODY_HD_INLINE T pair_inv_r3(T r2) {
  using std::sqrt;
  const T live = r2 > T(0) ? T(1) : T(0);
  const T inv = live / sqrt(r2 + (T(1) - live));
  return inv * inv * inv;
}

/// Adds m d / (|d|² + ε²)^{3/2} (without G) to (ax, ay, az), d = (dx, dy, dz) = x_j - x_i.
template <typename T>
NBODY_HD_INLINE void pair_accumulate(T dx, T dy, T dz, T m, T eps2, T& ax, T& ay, T& az) {
  const T s = m * pair_inv_r3(dx * dx + dy * dy + dz * dz + eps2);
  ax += dx * s;
  ay += dy * s;
  az += dz * s;
}

}  // namespace nbody
