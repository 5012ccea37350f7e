// cpu-reference: the double-precision direct sum on one thread, the oracle of every test.
#include <cmath>

#include "sim/cpu_backend.hpp"
#include "sim/cpu_backends.hpp"

namespace nbody {
namespace {

class CpuReference final : public HostBackend<double> {
 public:
  using HostBackend<double>::HostBackend;

 protected:
  // 20 flops per interaction (GPU Gems 3 convention); the self pair is skipped; sources are
  // the massive bodies, stored first
  void forces(const SimParams&, double G, double eps2, int /*threads*/) override {
    const std::size_t n = size(), ns = n_sources();
    for (std::size_t i = 0; i < n; ++i) {
      double ax = 0, ay = 0, az = 0;
      const double xi = x_[i], yi = y_[i], zi = z_[i];
      for (std::size_t j = 0; j < ns; ++j) {
        if (j == i) continue;
        const double dx = x_[j] - xi, dy = y_[j] - yi, dz = z_[j] - zi;
        const double r2 = dx * dx + dy * dy + dz * dz + eps2;
        if (r2 == 0) continue;  // coincident bodies without softening exert no force
        const double inv = 1.0 / std::sqrt(r2);
        const double s = m_[j] * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
      }
      ax_[i] = G * ax;
      ay_[i] = G * ay;
      az_[i] = G * az;
    }
  }
};

}  // namespace

std::unique_ptr<ForceBackend> make_cpu_reference(const KernelInfo& info) {
  return std::make_unique<CpuReference>(info);
}

}  // namespace nbody
