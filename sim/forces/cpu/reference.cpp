// cpu-reference: the double-precision direct sum on one thread, the oracle of every test.
#include "sim/core/host_store.hpp"
#include "sim/forces/cpu/kernels.hpp"
#include "sim/forces/pair.hpp"

namespace nbody {
namespace {

class CpuReference final : public HostForceKernel<double> {
 public:
  // 20 flops per interaction (GPU Gems 3 convention); the self pair is skipped; sources are
  // the massive bodies, stored first; one thread (the store gives the oracle one)
  void forces(const SimParams&, HostStore<double>& s, double G, double eps2, int,
              StepWork&) override {
    const std::size_t n = s.size(), ns = s.n_sources();
    const double *x = s.x(), *y = s.y(), *z = s.z(), *m = s.m();
    for (std::size_t i = 0; i < n; ++i) {
      double ax = 0, ay = 0, az = 0;
      for (std::size_t j = 0; j < ns; ++j) {
        if (j == i) continue;
        pair_accumulate(x[j] - x[i], y[j] - y[i], z[j] - z[i], m[j], eps2, ax, ay, az);
      }
      s.ax()[i] = G * ax;
      s.ay()[i] = G * ay;
      s.az()[i] = G * az;
    }
  }
};

}  // namespace

std::unique_ptr<ForceBackend> make_cpu_reference(const KernelInfo& info) {
  return std::make_unique<HostStore<double>>(info, std::make_unique<CpuReference>());
}

}  // namespace nbody
