#pragma once
// The host loop of the rigid halos' field (sim/forces/external_field.hpp), shared by the CPU
// backends' base and the double-precision reference: every body gets halo_field() of each halo;
// each anchor's acceleration is replaced by anchor_accel() (the reaction of the massive bodies and
// the other halos' pull). The CUDA base runs the same two functions in its own kernels.

#include <omp.h>

#include <cstdint>
#include <vector>

#include "sim/forces/external_field.hpp"

namespace nbody {

/// Adds the field of `f` to (ax, ay, az) of the n bodies (x, y, z, m), halo h centred on stored
/// body anchor[h], and sets the anchors' accelerations. `threads` OpenMP threads.
template <typename T>
void apply_external_field(const ExternalField& f, const std::uint32_t* anchor, long n, const T* x,
                          const T* y, const T* z, const T* m, T* ax, T* ay, T* az, int threads) {
  if (f.count == 0) return;
  double cx[kMaxRigidHalos], cy[kMaxRigidHalos], cz[kMaxRigidHalos];
  for (int h = 0; h < f.count; ++h) {
    cx[h] = x[anchor[h]];
    cy[h] = y[anchor[h]];
    cz[h] = z[anchor[h]];
  }
  // the bodies' accelerations, and per halo the reaction sum of mass times that halo's pull
  // (per thread, summed in thread order afterwards: the result does not depend on timing)
  constexpr int kStride = 3 * kMaxRigidHalos;
  std::vector<double> partial(static_cast<std::size_t>(threads) * kStride, 0.0);
#pragma omp parallel num_threads(threads)
  {
    double* local = partial.data() + static_cast<std::size_t>(omp_get_thread_num()) * kStride;
#pragma omp for schedule(static)
    for (long i = 0; i < n; ++i) {
      double sx = 0, sy = 0, sz = 0;
      const double px = x[i], py = y[i], pz = z[i], mi = m[i];
      for (int h = 0; h < f.count; ++h) {
        double gx = 0, gy = 0, gz = 0;
        halo_field(f.shape[h], f.gm[h], px - cx[h], py - cy[h], pz - cz[h], gx, gy, gz);
        sx += gx;
        sy += gy;
        sz += gz;
        local[3 * h] += mi * gx;
        local[3 * h + 1] += mi * gy;
        local[3 * h + 2] += mi * gz;
      }
      ax[i] = static_cast<T>(ax[i] + sx);
      ay[i] = static_cast<T>(ay[i] + sy);
      az[i] = static_cast<T>(az[i] + sz);
    }
  }
  double react[kStride] = {};
  for (int t = 0; t < threads; ++t)
    for (int k = 0; k < kStride; ++k)
      react[k] += partial[static_cast<std::size_t>(t) * kStride + k];
  for (int h = 0; h < f.count; ++h) {
    double gx, gy, gz;
    anchor_accel(f, h, cx, cy, cz, react[3 * h], react[3 * h + 1], react[3 * h + 2], gx, gy, gz);
    ax[anchor[h]] = static_cast<T>(gx);
    ay[anchor[h]] = static_cast<T>(gy);
    az[anchor[h]] = static_cast<T>(gz);
  }
}

}  // namespace nbody
