#pragma once
// The 1PN acceleration of one dominant mass, shared by host and device code (the kicks of the
// body stores add it). The integrators themselves are rows of sim/integrators/.

#include <cmath>
#include <vector>

#include "sim/core/hd.hpp"
#include "sim/core/params.hpp"

namespace nbody {

/// The 1PN correction (test-particle limit of the Schwarzschild metric in harmonic
/// coordinates; REBOUNDx "gr", after Anderson et al. 1975) of a body at r, v relative to the
/// dominant mass of gravitational parameter mu: a = mu / (c² r³) ((4 mu / r - v²) r + 4 (r.v) v).
/// Gives the perihelion advance 6 pi mu / (c² a (1 - e²)) per orbit (43"/century for Mercury).
/// `inv_c2` is 1/c²; r = 0 (the mass itself) gives 0.
template <typename T>
NBODY_HD inline void post_newtonian_accel(T rx, T ry, T rz, T vx, T vy, T vz, T mu, T inv_c2, T& ax,
                                          T& ay, T& az) {
  using std::sqrt;
  const T r2 = rx * rx + ry * ry + rz * rz;
  if (!(r2 > T(0))) {
    ax = ay = az = T(0);
    return;
  }
  const T r = sqrt(r2);
  const T v2 = vx * vx + vy * vy + vz * vz;
  const T rv = rx * vx + ry * vy + rz * vz;
  const T f = mu * inv_c2 / (r2 * r);
  const T a = f * (T(4) * mu / r - v2), b = f * T(4) * rv;
  ax = a * rx + b * vx;
  ay = a * ry + b * vy;
  az = a * rz + b * vz;
}

}  // namespace nbody
